"""Issue 15: ``validate`` gives evaluation's verdict (docs/formats.md, validation).

A run is INVALID exactly when evaluation skips it or leaves some of its results out; what evaluation
scores as submitted is at most a warning.  tests/test_fuzz.py checks the same on mutated runs.
"""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

import inexeval
from inexeval.cli.command import main
from inexeval.validate import assessments_from, validate_run

REPO = Path(__file__).resolve().parent.parent
TREC = REPO / "sample_data" / "trec"


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def test_validate_task_trec_on_valid_trec_runs():
    """Was: 80 'expected 7 columns' errors per run (read as an INEX text run)."""
    runs = sorted((TREC / "runs").glob("*.txt"))
    res = run("validate", "--task", "trec", *runs, "--format", "json")
    assert res.exit_code == 0, res.output
    reports = json.loads(res.output)
    assert [r["valid"] for r in reports] == [True] * len(runs)
    assert [r["run_id"] for r in reports] == ["good", "medium", "poor"]
    assert all(r["topics"] >= 3 and r["problems"] == [] for r in reports)
    res = run("validate", "--task", "trec", *runs, "--assessments", TREC / "qrels.txt")
    assert res.exit_code == 0, res.output
    assert "missing_topic: 1 qrels topic(s) without results: 402" in res.output  # poor lacks topic 402


def test_validate_without_task_hints_at_trec():
    res = run("validate", TREC / "runs" / "good.txt")
    assert res.exit_code == 1
    assert "warning: task: every line has 6 columns, as in a TREC run: check it with --task trec" in res.output


def _evaluate_trec(tmp_path: Path, qrels: Path):
    return inexeval.evaluate({"TASK": "trec", "METRICS": "map", "ASSESSMENTS_DIR": str(qrels),
                              "SUBMISSIONRUNS_DIR": str(tmp_path / "runs"), "RESULTS_DIR": str(tmp_path / "out")})


def test_validate_trec_reports_what_evaluation_refuses_or_leaves_out(tmp_path):
    qrels = TREC / "qrels.txt"
    (tmp_path / "runs").mkdir()
    bad = tmp_path / "runs" / "bad.txt"
    bad.write_text("401 Q0 DOC-401-001 1 2.0 t\n401 Q0 DOC-401-003 2 x t\n")
    report = validate_run(bad, task="trec")
    (problem,) = _evaluate_trec(tmp_path, qrels).problems
    assert [(f.kind, f.line, f.message) for f in report.problems] == [("malformed", problem.line, problem.message)]
    bad.unlink()
    left = tmp_path / "runs" / "left.txt"
    left.write_text("401 Q0 DOC-401-001 1 2.0 t\n401 Q0 DOC-401-001 2 1.0 t\n999 Q0 D 1 1 t\n")
    res = _evaluate_trec(tmp_path, qrels)
    report = validate_run(left, task="trec", assessments=assessments_from(str(qrels), task="trec"))
    assert not res.problems and not report.valid
    assert sorted(f.kind for f in report.problems) == ["duplicate", "unknown_topic"]
    assert {f"{left}: {f.message}" for f in report.problems} <= set(res.warnings)  # evaluation's, the file named
    # without the qrels, the topics cannot be checked: valid as far as validate can tell
    assert [f.kind for f in validate_run(left, task="trec").problems] == []


HEAD = '<?xml version="1.0"?>\n<inex-submission run-id="X" task="CO.Focussed">\n'


def test_result_with_two_paths_is_read_as_evaluation_reads_it_and_warned(tmp_path):
    run_file = tmp_path / "runs" / "two.xml"
    run_file.parent.mkdir()
    run_file.write_text(HEAD + '<topic topic-id="202"><result><file>cs/1998/s4858</file>'
                        "<path>/article[1]/fm[1]</path><path>/article[1]</path><rank>1</rank></result>"
                        '<result><file>cs/1998/s4858</file><path>/article[1]/bdy[1]</path>'
                        "<rsv>1</rsv><rsv>2</rsv></result></topic></inex-submission>\n")
    report = validate_run(run_file, task="CO.Focussed")
    assert report.valid
    repeated = [f for f in report.warnings if f.kind == "repeated_field"]
    assert [(f.line, f.message) for f in repeated] == [
        (3, "<result> with several <path>: the last one of each is used"),
        (3, "<result> with several <rsv>: the last one of each is used")]
    # evaluation reads the last <path> too: /article[1] then /article[1]/bdy[1], which it contains (an overlap
    # the validator warns about, and evaluation scores as submitted)
    assert [(f.kind, f.line) for f in report.warnings if f.kind == "overlap"] == [("overlap", 3)]
    res = inexeval.evaluate({"TASK": "CO.Focussed", "QUERY_TYPE": "CO+S", "METRICS": "ep/gr",
                             "ASSESSMENTS_DIR": str(REPO / "sample_data/inex2005/assessments/CO+S/*/"),
                             "SUBMISSIONRUNS_DIR": str(run_file.parent), "RESULTS_DIR": str(tmp_path / "out")})
    assert not res.problems and not any("run" in w and "dropped" in w for w in res.warnings)


def test_task_rules_that_evaluation_scores_are_warnings(tmp_path):
    """Overlap in a Focussed run and interleaved articles in Relevant in Context: scored as submitted."""
    body = ('<topic topic-id="289"><result><file>1</file><path>/article[1]/body[1]</path></result>'
            '<result><file>2</file><path>/article[1]</path></result>'
            '<result><file>1</file><path>/article[1]/body[1]/p[1]</path></result></topic></inex-submission>\n')
    path = tmp_path / "r.xml"
    path.write_text(HEAD + body)
    focussed = validate_run(path, task="CO.Focussed")
    assert focussed.valid and [f.kind for f in focussed.warnings] == ["overlap"]
    ric = validate_run(path, task="RelevantInContext")
    assert ric.valid and [f.kind for f in ric.warnings if f.kind != "task"] == ["interleaved"]
    bic = validate_run(path, task="BestInContext")  # evaluation keeps only an article's first result
    assert not bic.valid and [f.kind for f in bic.problems] == ["overlap"]


def test_validate_names_a_directory_given_as_the_qrels_file(tmp_path):
    """A directory is said to be one (it was "no such file"), for the TREC and the FOL qrels."""
    for task, kind in (("trec", "TREC"), ("FOL.Focused", "FOL")):
        res = run("validate", "--task", task, "--assessments", TREC, TREC / "runs" / "good.txt")
        assert (res.exit_code, res.output.strip()) == (
            2, f"inexeval: error: --assessments: {TREC}: a directory, not a file (the {kind} qrels file of the task)")
        res = run("validate", "--task", task, "--assessments", tmp_path / "none", TREC / "runs" / "good.txt")
        assert (res.exit_code, res.output.strip()) == (
            2, f"inexeval: error: --assessments: {tmp_path / 'none'}: no such file (the {kind} qrels file of the task)")


def test_a_repeated_trec_result_is_named_by_its_line(tmp_path):
    """Evaluation's warning and validate's problem name the first repeated line (they named none), and
    validate names the file once (it said 'runs/r.txt: duplicate: runs/r.txt: ...')."""
    qrels = tmp_path / "qrels.txt"
    qrels.write_text("1 0 a 1\n1 0 b 0\n2 0 c 1\n")
    runs = tmp_path / "runs"
    runs.mkdir()
    run_file = runs / "r.txt"
    run_file.write_text("1 Q0 a 1 3.0 r\n1 Q0 b 2 2.0 r\n2 Q0 c 1 5.0 r\n2 Q0 c 2 1.0 r\n1 Q0 b 3 0.5 r\n")
    said = "2 duplicate result(s) dropped (first occurrence kept); first at line 4: topic 2, document c"
    cfg = tmp_path / "t.prop"
    cfg.write_text("TASK: trec\nASSESSMENTS_DIR: qrels.txt\nSUBMISSIONRUNS_DIR: runs\nRESULTS_DIR: out\nMETRICS: map\n")
    res = CliRunner().invoke(main, ["-config", str(cfg)])
    assert res.exit_code == 0, res.output
    assert f"inexeval: warning: {run_file}: {said}" in res.stderr
    # map: topic 1 AP 1 (a at rank 1), topic 2 AP 1 (c): the first line of each kept
    assert res.stdout.strip().splitlines()[-1].split() == ["r", "1.0000"]
    res = run("validate", "--task", "trec", "--assessments", qrels, run_file)
    assert res.exit_code == 1
    assert res.output.splitlines()[1] == f"{run_file}:4: duplicate: {said}"
