"""Issue 30, "Caches, pipes and results that prove what they claim":

- a reader that stops reading (``inexeval ... | head -1``) changes nothing but what it reads: every
  command, given a standard output (and error) whose reader is gone, writes every file it writes
  otherwise, byte for byte, and exits with the status it has otherwise (0; 1 when an input was
  skipped; 2 on an error), with no traceback and no "Exception ignored" line (inexeval/cli/pipes.py);
- ``inexeval compare``'s files survive the next evaluation of the task while the result files they
  were computed from are unchanged, and are dropped with a warning naming them otherwise
  (inexeval/stamp.py).
"""

from __future__ import annotations

import gzip
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # every command with a closed pipe, compare's files: minutes

ROOT = Path(__file__).resolve().parent.parent
ENV = dict(os.environ, COLUMNS="100", LC_ALL="C.UTF-8", PYTHONHASHSEED="0")


@pytest.fixture(scope="module")
def ws(tmp_path_factory):
    """A copy of configs/ and sample_data/, with the FOL drop-in's inputs uncompressed and a run
    that cannot be read."""
    ws = tmp_path_factory.mktemp("ws")
    shutil.copytree(ROOT / "configs", ws / "configs")
    shutil.copytree(ROOT / "sample_data", ws / "sample_data")
    fol = ws / "sample_data" / "inex2009-2010"
    (ws / "fol-qrels.txt").write_bytes(gzip.decompress((fol / "qrels.txt.gz").read_bytes()))
    raw = sorted((fol / "runs" / "original").iterdir())[0].read_bytes()
    (ws / "fol-run.txt").write_bytes(gzip.decompress(raw) if raw[:2] == b"\x1f\x8b" else raw)
    (ws / "bad.xml").write_text("not a run\n")
    return ws


def _args(args: list[str], ws: Path, out: Path) -> list[str]:
    return [a.replace("{ws}", str(ws)).replace("{cfg}", str(ws / "configs")).replace("{out}", str(out))
            for a in args]


def _tree(out: Path) -> dict[str, bytes]:
    """Every file under OUT by relative path (OUT's own path in their contents replaced; of the
    --incremental cache, which records when each input was hashed, only that it is there)."""
    if not out.exists():
        return {}
    return {p.relative_to(out).as_posix(): b"" if p.name == ".inexeval-runs.json" else
            p.read_bytes().replace(str(out).encode(), b"<out>") for p in sorted(out.rglob("*")) if p.is_file()}


def _run(args: list[str], ws: Path, out: Path, stdout, stderr=subprocess.PIPE) -> tuple[int, bytes]:
    out.mkdir(parents=True, exist_ok=True)
    proc = subprocess.Popen([sys.executable, "-m", "inexeval", *_args(args, ws, out)], stdout=stdout,
                            stderr=stderr, cwd=ws, env=ENV)
    _, err = proc.communicate(timeout=600)
    return proc.returncode, (err or b"").replace(str(out).encode(), b"<out>")


def _closed_pipe():
    """The writing end of a pipe whose reader is gone (every write to it fails: EPIPE)."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    return write_end


#: (name, arguments after ``python -m inexeval``, the status): {ws} the workspace, {cfg} its configs,
#: {out} a directory of the run's own (results, site, init folder)
COMMANDS = [
    ("table", ["-config", "{cfg}/trec.prop", "--results-dir", "{out}"], 0),
    ("qa -q", ["-config", "{cfg}/qa.prop", "-q", "--results-dir", "{out}"], 0),
    ("-q -e", ["-config", "{cfg}/co-thorough.prop", "-q", "-e", "--results-dir", "{out}"], 0),
    ("tsv", ["-config", "{cfg}/co-focussed.prop", "-q", "--format", "tsv", "--results-dir", "{out}"], 0),
    ("csv", ["-config", "{cfg}/co-thorough.prop", "--format", "csv", "--results-dir", "{out}"], 0),
    ("json", ["-config", "{cfg}/co-thorough.prop", "--format", "json", "-gnu", "--results-dir", "{out}"], 0),
    ("trec_eval", ["-config", "{cfg}/trec.prop", "--format", "trec_eval", "--digits", "4", "-q",
                   "--results-dir", "{out}"], 0),
    ("trec_eval settings", ["-config", "{cfg}/co-thorough.prop", "--format", "trec_eval", "-q",
                            "--results-dir", "{out}"], 0),
    ("inex_eval", ["-config", "{cfg}/fol-focused.prop", "--format", "inex_eval", "-q", "--results-dir", "{out}"], 0),
    ("incremental", ["-config", "{cfg}/trec.prop", "--incremental", "--results-dir", "{out}"], 0),
    ("input skipped", ["-config", "{cfg}/co-thorough.prop", "--set",
                       "SUBMISSIONRUNS_DIR={ws}/sample_data/inex2005/runs/CO/Poor.xml,{ws}/bad.xml",
                       "--results-dir", "{out}"], 1),
    ("bad config", ["-config", "{ws}/missing.prop"], 2),
    ("compare", ["compare", "-config", "{cfg}/co-thorough.prop", "--results-dir", "{out}"], 0),
    ("compare two runs", ["compare", "-config", "{cfg}/trec.prop", "--measure", "map", "--runs", "good,poor",
                          "-gnu", "--results-dir", "{out}"], 0),
    ("compare two configs", ["compare", "-config", "{cfg}/co-focussed.prop", "-config", "{cfg}/co-thorough.prop",
                             "--results-dir", "{out}"], 0),
    ("validate", ["validate", "{ws}/sample_data/inex2005/runs/CO/Poor.xml",
                  "{ws}/sample_data/inex2005/runs/CO/Medium.xml", "--task", "CO.Thorough", "--assessments", "{ws}/sample_data/inex2005/assessments/CO+S/main/"], 1),
    ("validate invalid", ["validate", "{ws}/bad.xml", "{ws}/sample_data/trec/runs/good.txt"], 1),
    ("validate json", ["validate", "{ws}/sample_data/trec/runs/good.txt", "--task", "trec", "--assessments",
                       "{ws}/sample_data/trec/qrels.txt", "--format", "json"], 0),
    ("assessments", ["assessments", "-config", "{cfg}/co-thorough.prop", "--results-dir", "{out}"], 0),
    ("report", ["report", "-config", "{cfg}/trec.prop", "--html", "{out}/site", "--results-dir", "{out}"], 0),
    ("init", ["init", "--task", "trec", "{out}/starter"], 0),
    ("trec-eval", ["trec-eval", "-q", "-m", "all_trec", "{ws}/sample_data/trec/qrels.txt",
                   "{ws}/sample_data/trec/runs/good.txt"], 0),
    ("inex-eval", ["inex-eval", "-f", "-q", "{ws}/fol-qrels.txt", "{ws}/fol-run.txt"], 0),
    ("--help", ["--help"], 0),
    ("compare --help", ["compare", "--help"], 0),
    ("metrics", ["metrics"], 0),
    ("--version", ["--version"], 0),
]


@pytest.mark.parametrize("name, args, status", COMMANDS, ids=[c[0] for c in COMMANDS])
def test_a_closed_standard_output_loses_no_file_and_changes_no_status(ws, tmp_path, name, args, status):
    """The command run with its standard output read, then with a standard output whose reader is
    gone, then with standard output and error both gone: the same status, the same files (byte for
    byte), the same standard error (when there is one), no traceback."""
    read = tmp_path / "read.txt"
    with read.open("wb") as fh:
        code, err = _run(args, ws, tmp_path / "a", fh)
    assert code == status, err.decode()
    # (report and an error print on standard error only: its closed standard error is the case)
    assert read.stat().st_size > 0 or (name in ("report", "bad config") and err), "nothing printed: proves nothing"
    pipe = _closed_pipe()
    try:
        code_closed, err_closed = _run(args, ws, tmp_path / "b", pipe)
    finally:
        os.close(pipe)
    assert (code_closed, err_closed.decode()) == (code, err.decode())
    assert b"Traceback" not in err_closed and b"Exception ignored" not in err_closed
    assert _tree(tmp_path / "b") == _tree(tmp_path / "a")
    pipe = _closed_pipe()
    try:
        code_both, _ = _run(args, ws, tmp_path / "c", pipe, stderr=pipe)
    finally:
        os.close(pipe)
    assert code_both == code
    assert _tree(tmp_path / "c") == _tree(tmp_path / "a")


@pytest.mark.parametrize("command", [
    "inexeval compare -config configs/co-thorough.prop --results-dir {out}",
    "inexeval -config configs/qa.prop -q --results-dir {out}",
    "inexeval trec-eval -q -m all_trec sample_data/trec/qrels.txt sample_data/trec/runs/good.txt",
])
def test_head_in_a_pipeline(ws, tmp_path, command):
    """The issue's cases as a shell runs them: ``set -o pipefail; ... | head -1``: status 0, every file."""
    out = tmp_path / "out"
    script = (f"set -o pipefail; {sys.executable} -m {command.format(out=out)} 2>{tmp_path}/err | head -1 "
              '>/dev/null; echo "${PIPESTATUS[@]}"')
    shell = subprocess.run(["bash", "-c", script], cwd=ws, env=ENV, capture_output=True, text=True, timeout=600)
    assert shell.stdout.split() == ["0", "0"], (shell.stdout, (tmp_path / "err").read_text())
    err = (tmp_path / "err").read_text()
    assert "Traceback" not in err and "Exception ignored" not in err
    if "compare" in command:
        assert sorted(p.name for p in (out / "CO.Thorough").iterdir() if p.suffix in (".tsv", ".json")) == [
            ".inexeval-compare.json", ".inexeval-stamp.json", "anova.json", "anova.tsv", "correlations.json",
            "correlations.tsv", "groups.json", "groups.tsv", "significance.json", "significance.tsv", "summary.json",
            "summary.tsv", "tukey.json", "tukey.tsv"]
    elif "qa" in command:
        assert (out / "qa" / "summary.tsv").is_file()


# ------------------------------------------------------------------ compare's files and the next evaluation

def _inexeval(ws: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "inexeval", *args], cwd=ws, env=ENV, capture_output=True,
                          text=True, timeout=600)


COMPARE_FILES = ["anova.json", "anova.tsv", "correlations.json", "correlations.tsv", "groups.json", "groups.tsv",
                 "significance.json", "significance.tsv", "tukey.json", "tukey.tsv"]
#: how the warnings list them (in the order compare records them)
LISTED = ("correlations.tsv, correlations.json, significance.tsv, significance.json, groups.tsv, groups.json, "
          "anova.tsv, anova.json, tukey.tsv, tukey.json")


def _compare_files(task_dir: Path) -> dict[str, bytes]:
    found = {p.relative_to(task_dir).as_posix(): p.read_bytes() for p in task_dir.rglob("*")
             if p.is_file() and (p.name.startswith(("correlations", "significance", "differences_", "groups", "anova",
                                                    "tukey")))}
    return dict(sorted(found.items()))


@pytest.fixture
def fresh(tmp_path):
    """A copy of configs/ and sample_data/ the test may edit."""
    shutil.copytree(ROOT / "configs", tmp_path / "configs")
    shutil.copytree(ROOT / "sample_data", tmp_path / "sample_data")
    return tmp_path


def _edit_run(path: Path) -> None:
    """The first line of a TREC run dropped (its numbers change)."""
    lines = path.read_text().splitlines(keepends=True)
    path.write_text("".join(lines[1:]))


@pytest.mark.parametrize("incremental", [False, True])
def test_compare_files_are_kept_while_their_inputs_are_unchanged(fresh, incremental):
    out = fresh / "out"
    flags = ["--incremental"] if incremental else []
    cfg = str(fresh / "configs" / "trec.prop")
    assert _inexeval(fresh, "-config", cfg, "--results-dir", str(out), *flags).returncode == 0
    done = _inexeval(fresh, "compare", "-config", cfg, "--measure", "map", "--results-dir", str(out))
    assert done.returncode == 0, done.stderr
    task = out / "trec"
    before = _compare_files(task)
    assert sorted(before) == COMPARE_FILES
    again = _inexeval(fresh, "-config", cfg, "--results-dir", str(out), *flags)  # nothing changed: kept
    assert again.returncode == 0 and "compare" not in again.stderr
    assert _compare_files(task) == before and (task / ".inexeval-compare.json").is_file()
    # the files kept are those compare writes from these results: compare again, same bytes
    assert _inexeval(fresh, "compare", "-config", cfg, "--measure", "map", "--results-dir", str(out)).returncode == 0
    assert _compare_files(task) == before

    _edit_run(fresh / "sample_data" / "trec" / "runs" / "poor.txt")  # an input changed: dropped, and said
    changed = _inexeval(fresh, "-config", cfg, "--results-dir", str(out), *flags)
    assert changed.returncode == 0
    assert _compare_files(task) == {} and not (task / ".inexeval-compare.json").exists()
    assert f"inexeval: warning: {task}: {LISTED} " \
        "(written by an earlier 'inexeval compare') not kept: the result files they were computed from changed; " \
        "run 'inexeval compare' again" in changed.stderr
    quiet = _inexeval(fresh, "-config", cfg, "--results-dir", str(out), *flags)  # nothing left to drop
    assert "compare" not in quiet.stderr


def test_compare_of_two_runs_depends_on_those_two(fresh):
    """--runs A,B (and its difference graphs): another run's change keeps them, A's change drops them;
    a config change that changes the result files drops them too."""
    out, task = fresh / "out", fresh / "out" / "trec"
    cfg = str(fresh / "configs" / "trec.prop")
    args = ["compare", "-config", cfg, "--measure", "map", "--runs", "good,poor", "-gnu", "--results-dir", str(out)]
    assert _inexeval(fresh, *args).returncode == 0
    before = _compare_files(task)
    assert set(COMPARE_FILES) <= set(before)
    assert any(k.startswith("graphs/differences_") and k.endswith(".dat") for k in before)
    _edit_run(fresh / "sample_data" / "trec" / "runs" / "medium.txt")  # not compared
    assert _inexeval(fresh, "-config", cfg, "--results-dir", str(out)).returncode == 0
    assert _compare_files(task) == before
    _edit_run(fresh / "sample_data" / "trec" / "runs" / "good.txt")  # compared
    res = _inexeval(fresh, "-config", cfg, "--results-dir", str(out))
    assert _compare_files(task) == {} and "not kept: the result files they were computed from changed" in res.stderr
    assert "graphs/differences_map_good_vs_poor_default.dat" in res.stderr


def test_correlations_average_depends_on_every_task(fresh):
    out = fresh / "out"
    focussed, thorough = (str(fresh / "configs" / f"{n}.prop") for n in ("co-focussed", "co-thorough"))
    assert _inexeval(fresh, "compare", "-config", focussed, "-config", thorough, "--quiet",
                     "--results-dir", str(out)).returncode == 0
    first = out / "CO.Focussed"
    before = _compare_files(first)
    assert "correlations-average.tsv" in before
    assert _inexeval(fresh, "-config", focussed, "--results-dir", str(out), "--quiet").returncode == 0
    assert _compare_files(first) == before
    # the other task's results change (one quantisation fewer): the average is no longer theirs
    assert _inexeval(fresh, "-config", thorough, "--results-dir", str(out), "--quiet",
                     "--set", "QUANT_FUNCTIONS=gen,strict").returncode == 0
    res = _inexeval(fresh, "-config", focussed, "--results-dir", str(out))
    assert "correlations-average.tsv, correlations-average.json (written by an earlier 'inexeval compare') " \
        "not kept" in res.stderr
    kept = _compare_files(first)
    assert sorted(kept) == COMPARE_FILES and all(kept[k] == before[k] for k in kept)


def test_compare_files_without_a_record_are_dropped_with_a_warning(fresh):
    """Files of a compare whose record is missing (an earlier inexeval, or a compare stopped between
    its files and its record) are not kept on trust."""
    out, task = fresh / "out", fresh / "out" / "trec"
    cfg = str(fresh / "configs" / "trec.prop")
    assert _inexeval(fresh, "compare", "-config", cfg, "--results-dir", str(out)).returncode == 0
    (task / ".inexeval-compare.json").unlink()
    res = _inexeval(fresh, "-config", cfg, "--results-dir", str(out))
    assert res.returncode == 0 and _compare_files(task) == {}
    assert "not kept: no record of the result files they were computed from" in res.stderr


def test_a_compare_stopped_half_way_leaves_no_file_with_another_files_record(fresh, monkeypatch):
    """compare forgets what its files were computed from before it writes any of them again: stopped
    after the first, the next evaluation keeps none of them (the new correlations, the old
    significance: neither has a record)."""
    from click.testing import CliRunner

    from inexeval.cli.command import main
    from inexeval.compare import tables

    out, task = fresh / "out", fresh / "out" / "trec"
    cfg = str(fresh / "configs" / "trec.prop")
    assert _inexeval(fresh, "compare", "-config", cfg, "--results-dir", str(out)).returncode == 0
    write = tables.write_tables

    def stopped(out_dir, name, rows):
        if name == "significance":
            raise KeyboardInterrupt
        return write(out_dir, name, rows)

    monkeypatch.setattr(tables, "write_tables", stopped)
    res = CliRunner().invoke(main, ["compare", "-config", cfg, "--results-dir", str(out)])
    assert res.exit_code == 130
    monkeypatch.undo()
    res = _inexeval(fresh, "-config", cfg, "--results-dir", str(out))
    assert _compare_files(task) == {}
    assert f"{LISTED} (written by an earlier " \
        "'inexeval compare') not kept: no record" in res.stderr


# ------------------------------------------------------------------ several settings told apart

def _stdout(ws: Path, *args: str) -> str:
    res = _inexeval(ws, *args)
    assert res.returncode == 0, res.stderr
    return res.stdout


@pytest.mark.parametrize("per_query", [False, True])
def test_trec_eval_layout_names_the_setting_of_each_block(ws, tmp_path, per_query):
    """Issue 30: --format trec_eval on a task with several quantisations printed one runid line per
    block, the same for each setting.  Each block's runid line now names its setting (no space: three
    columns); a block's per-topic lines come before it, as trec_eval prints them."""
    flags = ["-q"] if per_query else []
    out = _stdout(ws, "-config", str(ws / "configs" / "co-fetchbrowse.prop"), "--format", "trec_eval", *flags,
                  "--results-dir", str(tmp_path / "a"))
    rows = [line.split("\t") for line in out.splitlines()]
    assert all(len(r) == 3 for r in rows)
    labels = [r[2] for r in rows if r[0].strip() == "runid"]
    settings = [f"{q}_{o}" for q in ("gen", "strict", "genLifted") for o in ("on", "off")]
    assert labels == [f"{run}[{s}]" for run in ("Medium", "NearIdeal", "Poor", "TextRun") for s in settings]
    assert all(" " not in label for label in labels)
    # each block's values are its setting's (the result file of that run and setting)
    block = out.split("runid                 \tall\tPoor[strict_off]\n")[1].split("runid")[0]
    value = dict(line.split("\t")[0::2] for line in block.splitlines() if "\tall\t" in line)["article.MAep".ljust(22)]
    stored = (tmp_path / "a" / "CO.FetchBrowse" / "strict_off" / "Poor.tsv").read_text()
    assert f"article.MAep\tall\t{value}\n" in stored
    # a task without settings prints trec_eval's own run id line
    trec = _stdout(ws, "-config", str(ws / "configs" / "trec.prop"), "--format", "trec_eval", *flags,
                   "--results-dir", str(tmp_path / "b"))
    assert [r.split("\t")[2] for r in trec.splitlines() if r.startswith("runid")] == ["good", "medium", "poor"]


def test_every_other_format_names_the_setting(ws, tmp_path):
    """The other formats, -q included, already say which setting each row is of."""
    cfg = str(ws / "configs" / "co-thorough.prop")
    table = _stdout(ws, "-config", cfg, "-q", "--results-dir", str(tmp_path / "t"))
    assert [line for line in table.splitlines() if line.startswith("== ")] == [
        f"== CO.Thorough  {s} ==" for s in ("gen_off", "strict_off", "genLifted_off")]
    for fmt in ("tsv", "csv"):
        text = _stdout(ws, "-config", cfg, "-q", "--format", fmt, "--results-dir", str(tmp_path / fmt))
        sep = "\t" if fmt == "tsv" else ","
        keys = [tuple(line.split(sep)[1:4]) for line in text.splitlines() if not line.startswith("task")]
        assert len(keys) == len(set(keys)) and {k[0] for k in keys} == {"gen_off", "strict_off", "genLifted_off"}
    rows = json.loads(_stdout(ws, "-config", cfg, "-q", "--format", "json", "--results-dir", str(tmp_path / "j")))
    keys = [(r["setting"], r["run"], r["topic"]) for r in rows]
    assert len(keys) == len(set(keys))
