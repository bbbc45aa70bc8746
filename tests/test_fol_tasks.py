"""The INEX 2007-2010 FOL tasks driven by a config (docs/fol.md): result files against inex_eval's outputs.

- the public INEX 2009/2010 data and the official tool's outputs on it (``../shared`` beside the
  repository, as CI has it; skipped, saying so, where it is absent): every value of every file;
- the shipped slice (``sample_data/inex2009-2010``) against the drop-in's outputs
  (``tests/golden/fol/``, written by ``inexeval inex-eval -q [-c]``, which reproduces the public
  outputs byte for byte), and a few of its values worked out here by hand;
- the ``all`` rules (num_q, counts over every qrels topic, NaN as a value), ``-e`` = ``-c``,
  ``--format inex_eval``, rejected runs, TOPICS, MAX_RESULTS.
"""

from __future__ import annotations

import gzip
import math
import os
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

import inexeval
from inexeval.cli.command import main
from inexeval.errors import ConfigErrors

pytestmark = pytest.mark.slow  # the FOL tasks on the public data

ROOT = Path(__file__).resolve().parents[1]
SHARED = (Path(os.environ["INEXEVAL_SHARED"]) if os.environ.get("INEXEVAL_SHARED")  # as test_fol_public_data
          else Path(__file__).resolve().parents[2] / "shared") / "data" / "inex2009-2010"
SLICE = ROOT / "sample_data" / "inex2009-2010"
GOLDEN = Path(__file__).resolve().parent / "golden" / "fol"
TASKS = {"t": "FOL.Thorough", "f": "FOL.Focused", "r": "FOL.RelevantInContext", "b": "FOL.BestInContext",
         "i": "FOL.T2I"}
VARIANT = {"t": "", "f": "", "r": ".blockgrouped", "b": ".bic", "i": ".blockgrouped"}
SLICE_DIRS = {"": "original", ".blockgrouped": "blockgrouped", ".bic": "bic"}


# ------------------------------------------------------------------ helpers ----

def tool_values(text: str) -> dict[tuple[str, str], str]:
    """(name, topic or 'all') -> value text of inex_eval's lines (one <eval> block)."""
    out = {}
    for line in text.splitlines():
        if line.startswith(("<", "Impossible recall point")) or not line.strip():
            continue
        name, topic, value = [f for f in line.split("\t") if f]
        out[name, topic] = value
    return out


def file_values(path: Path) -> dict[tuple[str, str], str]:
    """(measure, topic or 'all') -> value text of a result file."""
    out = {}
    for line in path.read_text().splitlines():
        m, t, v = line.split("\t")
        out[m, t] = v
    return out


def same(a: str, b: str) -> bool:
    """Equal at 1e-12 (relative, absolute near 0), NaN = NaN."""
    x, y = float(a), float(b)
    if math.isnan(x) or math.isnan(y):
        return math.isnan(x) and math.isnan(y)
    return math.isclose(x, y, rel_tol=1e-12, abs_tol=1e-12)


def check_against_tool(tool: dict, got: dict, what: str) -> None:
    """Every value inex_eval prints is in the result file with the same value; the extra ones agree."""
    assert tool, what
    for key, value in tool.items():
        assert key in got, f"{what}: {key} missing from the result file"
        assert same(got[key], value), f"{what}: {key} = {got[key]}, inex_eval {value}"
    topics = {t for (_, t) in tool if t != "all"}
    focused = ("MAiP", "all") in tool
    mean, one = ("MAiP", "AiP") if focused else ("MAgP", "AgP")
    assert same(got[one, "all"], tool[mean, "all"])
    for t in topics:
        assert got["num_q", t] == "1.0" and same(got[mean, t], got[one, t])
    # the curve: each topic's points average to inex_eval's ircl_prn lines
    for (name, t), value in tool.items():
        if name.startswith("ircl_prn.") and topics:
            points = [float(got[name, u]) for u in sorted(topics)]
            assert math.isclose(sum(points) / len(points), float(value), rel_tol=1e-12, abs_tol=1e-12), name


def evaluate(tmp_path: Path, task: str, qrels: Path, runs: list[Path], empty_as_zero: bool = False, **keys):
    out = tmp_path / "results"
    config = {"TASK": TASKS[task], "ASSESSMENTS_DIR": str(qrels), "SUBMISSIONRUNS_DIR": [str(r) for r in runs],
              "RESULTS_DIR": str(out), **keys}
    res = inexeval.evaluate(config, empty_as_zero=empty_as_zero, write=True)
    return res, out / TASKS[task] / "default"


def run_name(path: Path) -> str:
    name = path.name.removesuffix(".gz")
    return name.rsplit(".", 1)[0]


# ------------------------------------------------------------------ the public data ----

def _expected_files():
    if not SHARED.is_dir():
        return []
    return sorted((SHARED / "expected").glob("*.txt.gz"))


EXPECTED = _expected_files()
needs_shared = pytest.mark.skipif(not EXPECTED, reason=f"public INEX 2009/2010 data not found at {SHARED}")


@needs_shared
@pytest.mark.parametrize("task", list(TASKS))
@pytest.mark.parametrize("complete", [False, True], ids=["", "-e"])
def test_public_data_equals_inex_eval(task, complete, tmp_path):
    """Every file of expected/: the official tool's -q [-c] output, against the config's result files."""
    files = [p for p in EXPECTED if p.name.startswith(f"{task}.") and p.name.endswith(".c.txt.gz") == complete]
    assert files
    runs = [SHARED / "runs" / (p.name[2:].removesuffix(".txt.gz").removesuffix(".c") + ".run.gz") for p in files]
    res, out = evaluate(tmp_path, task, SHARED / "qrels.txt.gz", runs, empty_as_zero=complete)
    checked = 0
    for expected, run in zip(files, runs):
        text = gzip.decompress(expected.read_bytes()).decode()
        if "<eval" not in text:  # the rejected run: an error of that run, with its line
            (problem,) = [p for p in res.problems if p.file == str(run)]
            assert problem.line == 15688 and "passage overlaps" in problem.message, problem
            assert "2009079" in problem.message and "2939751" in problem.message
            assert not (out / f"{run_name(run)}.tsv").exists()
            continue
        check_against_tool(tool_values(text), file_values(out / f"{run_name(run)}.tsv"), expected.name)
        checked += 1
    assert checked == 3
    assert len(res.problems) == len(files) - checked


@needs_shared
def test_public_headline_values(tmp_path):
    """The README of the public data: MAiP / MAgP of the three runs without -c."""
    headline = {"f": ("", [0.1188986981155596, 0.12418727405266179, 0.16055908648278275]),
                "r": (".blockgrouped", [0.08595768186673867, 0.09547338608114503, 0.11167026967613279]),
                "i": (".blockgrouped", [0.07583963533990397, 0.0856296871805577, 0.09940957221434349]),
                "b": (".bic", [0.057596448942435735, 0.09244336058504171, 0.07377843641232773])}
    for task, (variant, values) in headline.items():
        runs = [SHARED / "runs" / f"bert_inex_converted{s}{variant}.run.gz" for s in ("_1", "_2", "")]
        res, _ = evaluate(tmp_path / task, task, SHARED / "qrels.txt.gz", runs)
        measure = "MAiP" if task == "f" else "MAgP"
        got = [res.value(run_name(r), measure) for r in runs]
        assert got == values, task  # exactly the tool's doubles


@needs_shared
def test_public_impossible_recall_points_are_one_warning(tmp_path):
    run = SHARED / "runs" / "bert_inex_converted.run.gz"
    res, _ = evaluate(tmp_path, "f", SHARED / "qrels.txt.gz", [run])
    (w,) = [w for w in res.warnings if "impossible recall point" in w]
    assert w.startswith(f"{run}: 238 results reach recall above 1 (impossible recall point 105, ")
    assert w.endswith(", ...): inex_eval leaves them out of the interpolated precision")


# ------------------------------------------------------------------ the shipped slice ----

def _slice_runs(task: str) -> list[Path]:
    v = VARIANT[task]
    return [SLICE / "runs" / SLICE_DIRS[v] / f"bert_inex_converted{s}{v}.run.gz" for s in ("_1", "")]


@pytest.mark.parametrize("task", list(TASKS))
@pytest.mark.parametrize("complete", [False, True], ids=["", "-e"])
def test_shipped_slice_equals_the_drop_in(task, complete, tmp_path):
    runs = _slice_runs(task)
    res, out = evaluate(tmp_path, task, SLICE / "qrels.txt.gz", runs, empty_as_zero=complete)
    assert not res.problems
    for run in runs:
        golden = GOLDEN / f"{task}.{run_name(run)}{'.c' if complete else ''}.txt.gz"
        tool = tool_values(gzip.decompress(golden.read_bytes()).decode())
        check_against_tool(tool, file_values(out / f"{run_name(run)}.tsv"), golden.name)
        # topic 2009004 is in no run: included with -e only; the in-context counts include it always
        assert (("num_ret", "2009004") in tool) == complete
        if task in "rbi":
            assert tool["num_rel", "all"] == "179" and tool["rel_size", "all"] == "880403"


def _slice_qrels() -> dict:
    q = {}
    for line in gzip.open(SLICE / "qrels.txt.gz", "rt"):
        f = line.split()
        q.setdefault(f[0], {})[f[2]] = (int(f[3]), int(f[5]), [tuple(map(int, p.split(":"))) for p in f[6:]])
    return q


def _slice_rows(path: Path, topic: str) -> list[list[str]]:
    return [f for f in (line.split() for line in gzip.open(path, "rt")) if f[0] == topic]


def test_shipped_slice_by_hand(tmp_path):
    """A few values of topic 2009001 worked out here from the definitions (docs/fol.md §4)."""
    q = _slice_qrels()["2009001"]
    num_rel = sum(1 for rel, _, _ in q.values() if rel > 0)

    def relevant(article, start, end):
        rel, _, passages = q.get(article, (0, 0, []))
        return sum(max(0, min(end, k + n) - max(start, k)) for k, n in passages) if rel > 0 else 0

    # Focused: characters retrieved and relevant characters retrieved
    rows = _slice_rows(SLICE / "runs/original/bert_inex_converted_1.run.gz", "2009001")
    ret = sum(int(r[7]) for r in rows)
    relret = sum(relevant(r[2], int(r[6]), int(r[6]) + int(r[7])) for r in rows)
    res, _ = evaluate(tmp_path / "f", "f", SLICE / "qrels.txt.gz", _slice_runs("f"))
    per = res.per_topic("bert_inex_converted_1")["2009001"]
    assert (per["ret_size"], per["rel_ret_size"], per["num_ret"]) == (ret, relret, len({r[2] for r in rows}))
    assert per["char_prec"] == relret / ret and per["char_rec"] == relret / sum(rel for rel, _, _ in q.values())

    # Best in Context: (500 - |BEP - offset|) / 500 per article, gP[k] the mean of the first k
    rows = _slice_rows(SLICE / "runs/bic/bert_inex_converted_1.bic.run.gz", "2009001")
    total, found, sum_gp, gp = 0.0, 0, 0.0, {}
    for k, r in enumerate(rows, 1):
        rel, bep, _ = q.get(r[2], (0, -1, []))
        d = abs(bep - int(r[6]))
        total += (500 - d) / 500 if rel > 0 and d <= 500 else 0.0
        gp[k] = total / k
        if rel > 0:
            found += 1
            sum_gp += gp[k]
    res, _ = evaluate(tmp_path / "b", "b", SLICE / "qrels.txt.gz", _slice_runs("b"))
    per = res.per_topic("bert_inex_converted_1.bic")["2009001"]
    assert [per[f"gP[{k}]"] for k in (1, 2, 3, 5, 10, 25, 50)] == pytest.approx(
        [gp[k] for k in (1, 2, 3, 5, 10, 25, 50)], rel=1e-12, abs=1e-15)
    assert per["AgP"] == pytest.approx(sum_gp / num_rel, rel=1e-12)

    # Relevant in Context: the first article's F with beta 0.25 is gP[1]
    rows = _slice_rows(SLICE / "runs/blockgrouped/bert_inex_converted_1.blockgrouped.run.gz", "2009001")
    first = [r for r in rows if r[2] == rows[0][2]]
    ret = sum(int(r[7]) for r in first)
    relret = sum(relevant(r[2], int(r[6]), int(r[6]) + int(r[7])) for r in first)
    p, rc = relret / ret, relret / q[rows[0][2]][0]
    res, _ = evaluate(tmp_path / "r", "r", SLICE / "qrels.txt.gz", _slice_runs("r"))
    per = res.per_topic("bert_inex_converted_1.blockgrouped")["2009001"]
    assert per["gP[1]"] == pytest.approx(1.0625 * p * rc / (0.0625 * p + rc), rel=1e-12)
    assert per["gR[1]"] == 1 / num_rel


# ------------------------------------------------------------------ rules of the `all` line ----

QRELS_E4 = """\
A Q0 a1 100 1000 50 100:100
A Q0 a2 50 500 10 0:50
A Q0 a3 0 300
A Q0 a4 80 800 400 400:80
B Q0 b1 10 100 0 0:10
"""


def test_counts_over_every_qrels_topic_and_nan(tmp_path):
    """Relevant in Context (docs/fol.md §3): num_rel and rel_size of `all` include topic B, which the
    run does not answer; a topic without relevant judgement makes gR and MAgP NaN."""
    qrels = tmp_path / "qrels.txt"
    qrels.write_text(QRELS_E4 + "C Q0 c1 0 100\n")
    run = tmp_path / "run.txt"
    run.write_text("A Q0 a1 1 1 R 100 50\nA Q0 a1 2 1 R 180 40\nA Q0 a3 3 1 R 0 100\nA Q0 a2 4 1 R 0 100\n"
                   "C Q0 c1 1 1 R 0 10\n")
    res, _ = evaluate(tmp_path, "r", qrels, [run])
    a = res.average("run")
    assert (a["num_q"], a["num_rel"], a["rel_size"], a["num_ret"]) == (2, 4, 240, 4)
    assert math.isnan(a["MAgP"]) and math.isnan(a["AgP"]) and math.isnan(a["gR[1]"])
    per = res.per_topic("run")
    assert per["A"]["AgP"] == pytest.approx(0.40067340067340074, rel=1e-15) and math.isnan(per["C"]["AgP"])
    assert any("1 topic(s) have no relevant judgement" in w and w.endswith(": C") for w in res.warnings)
    res, _ = evaluate(tmp_path / "e", "r", qrels, [run], empty_as_zero=True)
    assert res.average("run")["num_q"] == 3 and res.per_topic("run")["B"]["AgP"] == 0.0


def test_topics_key_keeps_qrels_topics(tmp_path):
    qrels = tmp_path / "qrels.txt"
    qrels.write_text(QRELS_E4)
    run = tmp_path / "run.txt"
    run.write_text("A Q0 a1 1 1 R 100 50\nB Q0 b1 1 1 R 0 10\n")
    res, _ = evaluate(tmp_path, "r", qrels, [run], TOPICS="B")
    assert res.average("run")["num_rel"] == 1 and list(res.per_topic("run")) == ["B"]
    assert any("1 topic(s) not in the recall-base ignored: A" in w for w in res.warnings)


def test_max_results_is_refused(tmp_path):
    (tmp_path / "q.txt").write_text(QRELS_E4)
    with pytest.raises(ConfigErrors) as e:
        inexeval.evaluate({"TASK": "INEX2009.Focused", "ASSESSMENTS_DIR": str(tmp_path / "q.txt"),
                           "SUBMISSIONRUNS_DIR": str(tmp_path / "q.txt"), "MAX_RESULTS": 100})
    assert "task FOL.Focused counts every result" in str(e.value)


# ------------------------------------------------------------------ command line ----

def _config(tmp_path: Path, task: str, runs: list[Path], qrels: Path = SLICE / "qrels.txt.gz") -> Path:
    cfg = tmp_path / "c.prop"
    cfg.write_text(f"TASK: {TASKS[task]}\nASSESSMENTS_DIR: {qrels}\nSUBMISSIONRUNS_DIR: {', '.join(map(str, runs))}\n"
                   f"RESULTS_DIR: {tmp_path / 'out'}\n")
    return cfg


@pytest.mark.parametrize("task", list(TASKS))
@pytest.mark.parametrize("flags", [[], ["-q"], ["-q", "-e"]], ids=["", "-q", "-q-e"])
def test_format_inex_eval_is_the_drop_in(task, flags, tmp_path):
    runs = sorted(_slice_runs(task))  # the config's order
    got = CliRunner().invoke(main, ["-config", str(_config(tmp_path, task, runs)), "--format", "inex_eval",
                                    *flags], catch_exceptions=False)
    assert got.exit_code == 0, got.output
    drop_in = ["-" + task, *(["-q"] if "-q" in flags else []), *(["-c"] if "-e" in flags else []),
               str(SLICE / "qrels.txt.gz"), *map(str, runs)]
    want = CliRunner().invoke(main, ["inex-eval", *drop_in], catch_exceptions=False)
    assert got.stdout == want.stdout and got.stdout.count("<eval ") == 2


def test_format_inex_eval_refused_for_other_tasks(tmp_path):
    got = CliRunner().invoke(main, ["-config", str(ROOT / "configs" / "trec.prop"), "--format", "inex_eval",
                                    "--results-dir", str(tmp_path)])
    assert got.exit_code == 2 and not list(tmp_path.iterdir())
    assert "--format: --format inex_eval prints what the INEX 2007-2010 tool inex_eval prints" in got.stderr
    assert "TASK trec is not one of them" in got.stderr


def test_rejected_run_is_an_input_error_the_others_are_scored(tmp_path):
    qrels = tmp_path / "qrels.txt"
    qrels.write_text(QRELS_E4)
    bad = tmp_path / "interleaved.txt"
    bad.write_text("A Q0 a1 1 1 R 100 50\nA Q0 a3 2 1 R 0 10\nA Q0 a1 3 1 R 300 10\n")
    die = tmp_path / "crash.txt"
    die.write_text("A Q0 a1 1 1 R 1O 50\n")
    good = tmp_path / "good.txt"
    good.write_text("A Q0 a1 1 1 R 100 50\n")
    cfg = _config(tmp_path, "r", [bad, die, good], qrels)
    got = CliRunner().invoke(main, ["-config", str(cfg)])
    assert got.exit_code == 1
    assert f"inexeval: error: {bad}:3: inex_eval rejects this run: article results are interleaved in topic A " \
           "article id: a1 interleaved results not allowed in inContext tasks!" in got.stderr
    assert re.search(rf"inexeval: error: {re.escape(str(die))}:1: OFFSET is not a 32-bit integer", got.stderr)
    assert (tmp_path / "out" / "FOL.RelevantInContext" / "default" / "good.tsv").exists()
    assert "interleaved" not in got.stdout and "good" in got.stdout
    got = CliRunner().invoke(main, ["-config", str(cfg), "--format", "inex_eval"])
    # runs in the config's (path) order: crash.txt prints nothing, then good.txt, then the rejection
    assert got.exit_code == 1 and got.stdout.startswith(f'<eval run-id="R" file="{good}">')
    assert got.stdout.endswith(f"</eval>\nERROR *** ({bad}) article results are interleaved in topic A\t"
                               "article id: a1\n\tinterleaved results not allowed in inContext tasks!\n")


def test_validate_checks_fol_runs_by_task_alias():
    """validate reads a FOL run for a FOL task (also named by an alias) with inex_eval's own checks:
    the shipped original slice interleaves articles, valid for Focused, invalid for Relevant in Context."""
    run = SLICE / "runs" / "original" / "bert_inex_converted_1.run.gz"
    focused = CliRunner().invoke(main, ["validate", str(run), "--task", "INEX2010.Focused"])
    assert focused.exit_code == 0, focused.output
    ric = CliRunner().invoke(main, ["validate", str(run), "--task", "INEX2010.RelevantInContext"])
    assert ric.exit_code == 1 and "interleaved" in ric.output
