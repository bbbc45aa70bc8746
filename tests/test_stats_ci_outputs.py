"""``--ci`` in what an evaluation prints and writes, and the trec-eval drop-in's ``-C``
(docs/measures.md §12.1): every interval is that of the per-topic values the mean averages."""

from __future__ import annotations

import io
import json
import math
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from inexeval.cli import main
from inexeval.compare.intervals import confidence_interval
from inexeval.dropins.trec_eval.cli import main as trec_eval_main

ROOT = Path(__file__).resolve().parents[1]
TREC = ROOT / "configs" / "trec.prop"
THOROUGH = ROOT / "configs" / "co-thorough.prop"


def _run(*args) -> tuple[int, str, str]:
    res = CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)
    return res.exit_code, res.stdout, res.stderr


def _per_topic(out: Path, task: str, setting: str, run: str) -> dict[str, dict[str, float]]:
    values: dict[str, dict[str, float]] = {}
    for line in (out / task / setting / f"{run}.tsv").read_text().splitlines():
        m, t, v = line.split("\t")
        if t != "all" and v != "-":
            values.setdefault(m, {})[t] = float(v)
    return values


def test_summary_and_trec_eval_lines_hold_each_means_interval(tmp_path):
    code, out, err = _run("-config", TREC, "--results-dir", tmp_path, "--ci", "t", "--format", "trec_eval",
                          "--set", "METRICS=map,P_10,num_rel,gm_map")
    assert code == 0, err
    summary = (tmp_path / "trec" / "summary.tsv").read_text().splitlines()
    header = summary[0].split("\t")
    assert header == ["run", "setting", "map", "map_ci_lower", "map_ci_upper", "P_10", "P_10_ci_lower",
                      "P_10_ci_upper", "num_rel", "gm_map"]  # no interval of a sum or a geometric mean
    rows = {line.split("\t")[0]: dict(zip(header, line.split("\t"))) for line in summary[1:]}
    js = {row["run"]: row["measures"] for row in json.loads((tmp_path / "trec" / "summary.json").read_text())}
    for run, row in rows.items():
        per_topic = _per_topic(tmp_path, "trec", "default", run)
        for m in ("map", "P_10"):
            low, high = confidence_interval(list(per_topic[m].values()))
            assert (float(row[f"{m}_ci_lower"]), float(row[f"{m}_ci_upper"])) == (low, high)
            assert (js[run][f"{m}_ci_lower"], js[run][f"{m}_ci_upper"]) == (low, high)
            # --format trec_eval: after the measure's own all line (full precision without --digits)
            block = out.split(f"runid                 \tall\t{run}\n")[1].split("runid")[0]
            assert f"{m:<22}\tall\t" in block
            after = block.split(f"{m:<22}\tall\t")[1].splitlines()[1:3]
            assert after == [f"{m + '_ci_lower':<22}\tall\t{low!r}", f"{m + '_ci_upper':<22}\tall\t{high!r}"]
    assert "gm_map_ci" not in out and "num_rel_ci" not in out


def test_table_shows_plus_minus_and_bootstrap_brackets(tmp_path):
    code, out, err = _run("-config", TREC, "--results-dir", tmp_path, "--ci", "t", "--set", "METRICS=map,num_rel")
    assert code == 0, err
    per_topic = _per_topic(tmp_path, "trec", "default", "good")
    low, high = confidence_interval(list(per_topic["map"].values()))
    mean = float(np.mean(list(per_topic["map"].values())))
    assert f"{mean:.4f} ±{(high - low) / 2:.4f}" in out
    code, out, err = _run("-config", TREC, "--results-dir", tmp_path, "--ci", "bootstrap", "--seed", "4",
                          "--samples", "500", "--ci-level", "0.9", "--set", "METRICS=map")
    assert code == 0, err
    low, high = confidence_interval(list(per_topic["map"].values()), "bootstrap", 0.9, 500, 4)
    assert f"{mean:.4f} [{low:.4f}, {high:.4f}]" in out


def test_bootstrap_same_seed_same_bytes(tmp_path):
    outs = []
    for i in range(2):
        code, _, err = _run("-config", THOROUGH, "--results-dir", tmp_path / str(i), "--ci", "bootstrap",
                            "--seed", "9", "--samples", "300")
        assert code == 0, err
        outs.append((tmp_path / str(i) / "CO.Thorough" / "summary.tsv").read_bytes())
    assert outs[0] == outs[1] and b"MAep_ci_lower" in outs[0]


def test_tsv_output_adds_interval_columns(tmp_path):
    code, out, err = _run("-config", TREC, "--results-dir", tmp_path, "--ci", "t", "--format", "tsv",
                          "--set", "METRICS=map")
    assert code == 0, err
    assert out.splitlines()[0].split("\t") == ["task", "setting", "run", "topic", "map", "map_ci_lower",
                                               "map_ci_upper"]


@pytest.mark.parametrize("args,word", [(["--ci-level", "0.9"], "--ci-level"), (["--seed", "1"], "--seed"),
                                       (["--ci", "t", "--samples", "5"], "--samples")])
def test_interval_parameters_without_their_interval_are_refused(tmp_path, args, word):
    code, _, err = _run("-config", TREC, "--results-dir", tmp_path, *args)
    assert code == 2 and word in err


def test_without_ci_nothing_changes(tmp_path):
    code, out, err = _run("-config", TREC, "--results-dir", tmp_path, "--format", "trec_eval")
    assert code == 0 and "_ci_" not in out
    assert "_ci_" not in (tmp_path / "trec" / "summary.tsv").read_text()


# ---------------------------------------------------------------- the drop-in's -C ----


def _files(tmp_path: Path, seed: int, complete: bool = True) -> tuple[Path, Path]:
    rng = np.random.default_rng(seed)
    qrels, run = [], []
    topics = int(rng.integers(2, 9))
    for t in range(1, topics):
        for d in range(int(rng.integers(1, 12))):
            qrels.append((str(t), f"d{d}", f"{t} 0 d{d} {int(rng.integers(0, 3))}"))
    # without -c, trec_eval 10.0 stops at a qrels topic the run lacks: the run has every one; with -c,
    # perhaps fewer (they count 0)
    for t in range(1, int(rng.integers(2, topics + 1)) if complete else topics):
        for d in rng.permutation(14)[: int(rng.integers(1, 14))]:
            run.append((str(t), f"{t} Q0 d{d} 0 {rng.integers(0, 4) / 2} r"))  # tied scores
    q, r = tmp_path / "qrels", tmp_path / "run"
    # (trec_eval 10.0 reads qrels sorted by topic and docno, and runs by topic)
    q.write_text("\n".join(line for *_, line in sorted(qrels)) + "\n")
    r.write_text("\n".join(line for _, line in sorted(run, key=lambda x: x[0])) + "\n")
    return q, r


def _dropin(*args) -> tuple[int, str]:
    out = io.BytesIO()
    status = trec_eval_main([str(a) for a in args], out, io.StringIO())
    return status, out.getvalue().decode()


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("complete", [False, True])
def test_dropin_ci_lines_are_the_interval_of_the_averaged_topics(tmp_path, seed, complete):
    q, r = _files(tmp_path, seed, complete)
    c = ["-c"] if complete else []
    status, plain = _dropin(*c, "-m", "map", "-m", "P.5", "-m", "gm_map", "-m", "num_rel", q, r)
    assert status == 0
    status, with_ci = _dropin(*c, "-C", "-m", "map", "-m", "P.5", "-m", "gm_map", "-m", "num_rel", q, r)
    assert status == 0
    # -C only adds lines: without them the output is the plain one
    assert "".join(line + "\n" for line in with_ci.splitlines() if "_ci_" not in line) == plain
    # the per-topic values at full precision, from the same engine (-q prints 4 decimals)
    from inexeval import evaluate_trec

    res = evaluate_trec(q, r, measures=["map", "P_5"], empty_as_zero=complete)
    per_topic = res.per_topic("r")
    lines = {line.split("\t")[0].strip(): line.split("\t")[2] for line in with_ci.splitlines()}
    qrels_topics = {line.split()[0] for line in q.read_text().splitlines()}
    for m in ("map", "P_5"):
        got = [v[m] for t, v in per_topic.items() if v.get(m) is not None]
        if complete:  # every qrels topic is averaged; one without results counts 0, as in the mean
            assert len(got) == len(qrels_topics)
        low, high = confidence_interval(got)
        assert lines[f"{m}_ci_lower"] == ("%6.4f" % low if low == low else "   nan")
        assert lines[f"{m}_ci_upper"] == ("%6.4f" % high if high == high else "   nan")
    assert "gm_map_ci_lower" not in lines and "num_rel_ci_lower" not in lines


def test_dropin_long_option_and_abbreviations_keep_their_meaning(tmp_path):
    q, r = _files(tmp_path, 1)
    assert _dropin("--ci", "-m", "map", q, r)[1] == _dropin("-C", "-m", "map", q, r)[1]
    # trec_eval's --c still means --complete_rel_info_wanted (not ambiguous with inexeval's --ci)
    assert _dropin("--c", "-m", "map", q, r) == _dropin("-c", "-m", "map", q, r)


def test_evaluation_and_dropin_print_the_same_interval_lines(tmp_path):
    code, out, err = _run("-config", TREC, "--results-dir", tmp_path, "--ci", "t", "--format", "trec_eval",
                          "--digits", "4", "--set", "METRICS=map,P_5")
    assert code == 0, err
    qrels = ROOT / "sample_data" / "trec" / "qrels.txt"
    for run in ("good", "medium"):  # (poor has a topic the qrels lack: trec_eval 10.0 stops, status 4)
        _, dropin = _dropin("-C", "-m", "map", "-m", "P.5", qrels, ROOT / "sample_data" / "trec" / "runs" / f"{run}.txt")
        block = out.split(f"runid                 \tall\t{run}\n")[1].split("runid")[0]
        want = [line for line in dropin.splitlines() if "_ci_" in line]
        assert want and want == [line for line in block.splitlines() if "_ci_" in line]
        assert not any(math.isnan(float(line.split("\t")[2])) for line in want)
