"""Every finding of a FOL run (``fol_findings``) and ``inexeval validate`` on FOL passage runs.

The kernel part checks ``inexeval.measures.fol.fol_findings`` against a
slow oracle built on the scorer alone: score the run, find the line that
makes it fail (by bisection on prefixes), record what the scorer said,
delete the line and start again; then, once the run reads, record the topic
the scorer cannot score and score the remaining topics again.  The
validation part checks the reports of ``validate_run`` / the ``validate``
command on FOL runs (the FOL task rows are added by a fixture when the task
table has none yet).
"""

from __future__ import annotations

import gzip
import json
import random
from pathlib import Path

import pytest
from click.testing import CliRunner
from fol_helpers import random_fol_case, run_lines, write

from inexeval import tasks
from inexeval.cli.command import main as cli_main
from inexeval.errors import ConfigError
from inexeval.measures.fol import (
    FOL_TASKS,
    FolOutcome,
    _Death,
    _read_run,
    _Rejected,
    _score_in_context,
    fol_findings,
    java_sorted,
    score_fol_run,
)
from inexeval.readers.fol import FolLine, FolQrels, FolRunFile, read_fol_qrels, read_fol_run, split_fields
from inexeval.validate import PROBLEM_KINDS, WARNING_KINDS, format_reports, validate_run, validate_runs

pytestmark = pytest.mark.slow  # validate on random and public FOL runs

QRELS = [
    "A Q0 a1 100 1000 50 100:100",
    "A Q0 a2 50 500 10 0:50",
    "A Q0 a3 0 300",
    "B Q0 b1 10 100 0 0:10",
]


def _qrels(tmp_path: Path, lines: list[str] = QRELS) -> FolQrels:
    return read_fol_qrels(write(tmp_path / "qrels.txt", lines))


def _run(lines: list[str], source: str = "run.txt") -> FolRunFile:
    return FolRunFile(source, [FolLine(i, raw, split_fields(raw)) for i, raw in enumerate(lines, 1)])


# --------------------------------------------------------------------------- the oracle


def _reading_fails(qrels: FolQrels, lines: list[FolLine], task: str) -> bool:
    try:
        _read_run(qrels, FolRunFile("run.txt", lines), task, "run.txt", 500, [])
    except (_Rejected, _Death):
        return True
    return False


def _oracle(qrels: FolQrels, run: FolRunFile, task: str) -> list[tuple[int | None, list[str] | str]]:
    """(line, the scorer's rejection lines or death message) of every finding, by deleting failing lines."""
    lines = list(run.lines)
    found: list[tuple[int | None, list[str] | str]] = []
    while True:
        outcome = score_fol_run(qrels, FolRunFile("run.txt", lines), task)
        if outcome.rejected is None and outcome.death is None:
            return found
        if not _reading_fails(qrels, lines, task):
            break  # the run reads; the scorer dies on a topic
        lo, hi = 1, len(lines)  # the shortest failing prefix ends with the failing line
        while lo < hi:
            mid = (lo + hi) // 2
            if _reading_fails(qrels, lines[:mid], task):
                hi = mid
            else:
                lo = mid + 1
        assert outcome.death is None or outcome.death.line == lines[lo - 1].line
        found.append((lines[lo - 1].line, outcome.rejected if outcome.death is None else outcome.death.message))
        del lines[lo - 1]
    _, states = _read_run(qrels, FolRunFile("run.txt", lines), task, "run.txt", 500, [])
    order = java_sorted(qrels.topics)
    while True:
        try:
            _score_in_context(qrels, states, order, task, False, 0.25, 300, run, FolOutcome(run_id=""))
            return found
        except _Death as death:
            found.append((death.error.line, death.error.message))
            order = order[order.index(death.topic) + 1:]


def _as_oracle(findings) -> list[tuple[int | None, list[str] | str]]:
    return [(f.line, list(f.lines) if f.death is None else f.death.message) for f in findings]


# --------------------------------------------------------------------------- random runs with violations


def _random_case(rng: random.Random) -> tuple[list[str], list[str]]:
    """Random qrels lines and run lines, with every kind of violation now and then."""
    qrels, results = random_fol_case(rng)
    lines = []
    for topic, art, rank, rsv, offset, length in results:
        roll = rng.random()
        if roll < 0.03:
            lines.append(rng.choice(["", "   ", f"{topic} Q0 {art} {rank} {rsv} R {offset}",
                                     f" {topic} Q0 {art} {rank} {rsv} R {offset} {length}",
                                     f"{topic} Q0 {art} {rank} {rsv} R {offset} {length} extra"]))
            continue
        if roll < 0.05:
            length = rng.choice(["ten", "-9", "2147483647"])
        elif roll < 0.06:
            offset = rng.choice(["x", "+-1", "2147483648"])
        lines.append(f"{topic} Q0 {art} {rank} {rsv} {rng.choice('RS')} {offset} {length}")
        if rng.random() < 0.08:  # the same passage again, or a shifted one: overlaps, several results
            lines.append(f"{topic} Q0 {art} {rank} {rsv} R {offset} {length}")
    return qrels, lines


def _comeback_case(rng: random.Random) -> tuple[list[str], list[str]]:
    """Topics that come back after others (docs/inex_eval.md §4.4), sharing article ids, with violations."""
    qrels = [f"{t} Q0 {a} {rng.choice([0, 10, 40])} 200 {rng.randint(-1, 50)} {rng.randint(0, 60)}:{rng.randint(0, 40)}"
             for t in ("A", "B", "C") for a in ("d1", "d2", "d3", "d4") if rng.random() < 0.7]
    lines = []
    art = "d1"
    for _ in range(rng.randint(2, 10)):
        topic = rng.choice("ABCZ")
        for k in range(rng.randint(1, 3)):
            if k or rng.random() < 0.6:  # else the block starts with the previous block's article
                art = rng.choice(["d1", "d2", "d3", "d4", "e5"])
            for _ in range(rng.choice([1, 1, 2, 3])):
                offset = rng.choice(["X", str(rng.randint(0, 90)), str(rng.randint(0, 90)), str(rng.randint(0, 90))])
                length = str(rng.randint(0, 20)) if rng.random() > 0.05 else rng.choice(["-3", "7x"])
                lines.append(f"{topic} Q0 {art} 1 1 R {offset} {length}" if rng.random() > 0.03 else f"{topic} Q0")
    return qrels, lines


def _crash_case(rng: random.Random) -> tuple[list[str], list[str]]:
    """A comes back after B, then after C ending with an article A takes up: the in-context rank
    bookkeeping breaks while reading when A's rank entries match C's counter (docs/inex_eval.md §4.4)."""
    qrels = [f"{t} Q0 {t.lower()}{k} {rng.choice([0, 10])} 100 0 0:10" for t in "ABC" for k in range(1, 7)]
    x = rng.randint(1, 3)
    z = x + 1 if rng.random() < 0.6 else rng.randint(1, 5)
    blocks = [("A", [f"a{k}" for k in range(1, x + 1)]), ("B", [f"b{k}" for k in range(1, rng.randint(x + 1, 6))]),
              ("A", ["a5"]), ("C", [f"c{k}" for k in range(1, z + 1)]), ("A", [f"c{z}", "a6", f"c{z}"])]
    lines = []
    for topic, articles in blocks:
        for art in articles:
            for _ in range(rng.choice([1, 1, 2])):
                roll = rng.random()
                offset, length = str(rng.randint(0, 60)), str(rng.randint(0, 9))
                if roll < 0.05:
                    length = "-2"
                elif roll < 0.08:
                    offset = "x"
                lines.append(f"{topic} Q0 {art} 1 1 R {offset} {length}" if roll < 0.97 else "Z Q0 z")
    return qrels, lines


CASES = ([(_random_case, seed) for seed in range(100)] + [(_comeback_case, seed) for seed in range(150)]
         + [(_crash_case, seed) for seed in range(50)])


@pytest.mark.parametrize(("make", "seed"), CASES)
def test_findings_agree_with_the_scorer_on_random_runs(tmp_path, make, seed):
    """Every finding is the scorer's, in order, with the failing lines deleted; the first is its rejection."""
    rng = random.Random(seed)
    qrels_lines, lines = make(rng)
    qrels = _qrels(tmp_path, qrels_lines)
    run = _run(lines)
    for task in FOL_TASKS:
        # the tool's own reading (no int_overflow findings: those are the config path's, tested below)
        findings = fol_findings(qrels, run, task, bounded=False)
        assert _as_oracle(findings) == _oracle(qrels, run, task), (seed, task)
        outcome = score_fol_run(qrels, run, task)
        if not findings:
            assert outcome.rejected is None and outcome.death is None
        elif findings[0].death is None:
            assert list(findings[0].lines) == outcome.rejected
            assert findings[0].message == "".join(outcome.rejected)
        else:
            assert (findings[0].death.message, findings[0].death.line) == (outcome.death.message,
                                                                           outcome.death.line)
            assert findings[0].kind == "would_crash" and findings[0].lines == ()


def test_random_runs_cover_every_kind(tmp_path):
    """The random runs above reach every kind of finding, each kind of death, and runs with many findings."""
    kinds = set()
    deaths = set()
    most = 0
    for make, seed in CASES:
        qrels_lines, lines = make(random.Random(seed))
        qrels = _qrels(tmp_path, qrels_lines)
        for task in FOL_TASKS:
            findings = fol_findings(qrels, _run(lines), task, bounded=False)
            most = max(most, len(findings))
            kinds |= {f.kind for f in findings}
            for f in findings:
                if f.death is not None:
                    deaths.add(f.death.message.split(" ", 1)[0] if "comes back" not in f.death.message
                               else "reading" if "fails on this line" in f.death.message else "scoring")
    assert kinds == {"malformed", "interleaved", "multiple_results", "overlap", "negative_length", "would_crash"}
    assert deaths == {"OFFSET", "LENGTH", "reading", "scoring"}
    assert most >= 8


# --------------------------------------------------------------------------- validate: FOL task rows

#: The FOL rows of the task table (added by the integration; the fixture adds them while they are missing).
FOL_ROWS = {"FOL.Thorough": "fol-thorough", "FOL.Focused": "fol-focused",
            "FOL.RelevantInContext": "fol-relevantincontext", "FOL.BestInContext": "fol-bestincontext",
            "FOL.T2I": "fol-t2i"}
TASK = dict(zip("tfrbi", FOL_ROWS))


@pytest.fixture(autouse=True)
def fol_rows(monkeypatch):
    for name, strategy in FOL_ROWS.items():
        if tasks.find_task(name) is None:
            row = tasks.Task(name, strategy=strategy, metrics=(strategy,), max_results=None, unit="passage")
            monkeypatch.setitem(tasks.TASKS, name, row)
            monkeypatch.setitem(tasks._LOOKUP, tasks._key(name), row)


def test_fol_task_letters():
    from inexeval.validate import fol_task_letter

    assert {fol_task_letter(name) for name in FOL_ROWS} == set("tfrbi")
    assert [fol_task_letter(TASK[t]) for t in "tfrbi"] == list("tfrbi")
    assert fol_task_letter("fol.relevantincontext") == "r"
    assert fol_task_letter("CO.Focussed") is None and fol_task_letter(None) is None
    assert all(fol_task_letter(row.name) for row in tasks.TASKS.values() if row.unit == "passage")


def test_a_passage_task_of_unknown_strategy_is_a_config_error(monkeypatch):
    from inexeval.validate import fol_task_letter

    row = tasks.Task("FOL.Other", strategy="fol-other", unit="passage")
    monkeypatch.setitem(tasks.TASKS, row.name, row)
    monkeypatch.setitem(tasks._LOOKUP, tasks._key(row.name), row)
    with pytest.raises(ConfigError, match="FOL.Other"):
        fol_task_letter("FOL.Other")


# --------------------------------------------------------------------------- validate: findings


def _validate(tmp_path, lines, task, qrels=QRELS, **kw):
    run = write(tmp_path / "run.txt", lines)
    assessments = _qrels(tmp_path, qrels) if qrels is not None else None
    return validate_run(run, task=TASK[task], assessments=assessments, **kw)


def _problems(report):
    return [(f.kind, f.line) for f in report.problems]


def test_every_field_count_overlap_size_and_number_problem_with_its_line(tmp_path):
    lines = [
        "A Q0 a1 1 1 R 100 50",
        "A Q0 a1 1 1 R 120 10",  # 2 overlap
        "A Q0 a1 1 1 R 0 10 extra",  # 3 too many fields
        "A Q0 a2 1 1 R 300 -5",  # 4 negative size
        " A Q0 a2 1 1 R 0 10",  # 5 too many fields (leading blank)
        "A Q0 a2 1 1 R 0 10",
        "A Q0 a2 1 1 R 1O 10",  # 7 the tool dies
        "A Q0 a2 1 1 R 5 2",  # 8 overlap with line 6
        "",  # 9 fields missing
        "A Q0 a2 1 1 R 20 ten",  # 10 the tool dies
        "A Q0 a3 1 1 R 2147483000 1000",  # 11 negative size (wraps around)
        "A Q0 a2 1 1 R 10 5",  # 12 fine: touches line 6
        "Z Q0 z 1 1 R 1O ten",  # 13 a topic not in the qrels: skipped
    ]
    report = _validate(tmp_path, lines, "f")
    assert _problems(report) == [("overlap", 2), ("malformed", 3), ("negative_length", 4), ("malformed", 5),
                                 ("would_crash", 7), ("overlap", 8), ("malformed", 9), ("would_crash", 10),
                                 ("negative_length", 11)]
    run = str(tmp_path / "run.txt")
    assert [f.message for f in report.problems[:5]] == [
        f"ERROR *** ({run}) passage overlaps with previously retrieved passages in topic A\tarticle id: a1"
        "\tin line: 2",
        f"Error *** ({run}) too many fields in line 3: A Q0 a1 1 1 R 0 10 extra",
        f"ERROR *** ({run}) negative passage size 4: A Q0 a2 1 1 R 300 -5",
        f"Error *** ({run}) too many fields in line 5:  A Q0 a2 1 1 R 0 10",
        "OFFSET is not a 32-bit integer (nor X or -1): '1O'; inex_eval 3.1 stops here (NumberFormatException)",
    ]
    assert [f.topic for f in report.problems] == [
        "A", None, "A", None, "A", "A", None, "A", "A"]
    assert not report.valid
    assert [(f.kind, f.topic, f.line) for f in report.warnings] == [("missing_topic", None, None),
                                                                    ("unjudged_topic", "Z", 13)]
    # Thorough accepts the overlaps
    assert _problems(_validate(tmp_path, lines, "t")) == [
        ("malformed", 3), ("negative_length", 4), ("malformed", 5), ("would_crash", 7), ("malformed", 9),
        ("would_crash", 10), ("negative_length", 11)]


def test_in_context_problems_with_their_lines(tmp_path):
    lines = run_lines("A", [("a1", 100, 50), ("a2", 0, 10), ("a1", 180, 10), ("a2", 20, 5), ("a3", 0, 5),
                            ("a3", 0, 5), ("a1", 0, 1), ("a3", 10, 5)])
    # line 3: a1 again after a2; 4: a2 after a1 was skipped, it follows a2: fine; 6: overlap; 7: interleaved
    for task in "ri":
        assert _problems(_validate(tmp_path, lines, task)) == [("interleaved", 3), ("overlap", 6),
                                                               ("interleaved", 7)]
    assert _problems(_validate(tmp_path, lines, "b")) == [("interleaved", 3), ("multiple_results", 4),
                                                          ("multiple_results", 6), ("interleaved", 7),
                                                          ("multiple_results", 8)]
    assert _problems(_validate(tmp_path, lines, "f")) == [("overlap", 6)]
    report = _validate(tmp_path, lines, "r")
    run = str(tmp_path / "run.txt")
    assert report.problems[0].message == (f"ERROR *** ({run}) article results are interleaved in topic A"
                                          "\tarticle id: a1\tinterleaved results not allowed in inContext tasks!")


def test_topics_that_come_back_where_the_tool_dies(tmp_path):
    """While reading (the line) and while scoring (the line where the topic came back), each topic listed."""
    qrels = ["A Q0 a1 10 100 0 0:10", "A Q0 a2 10 100 0 0:10", "B Q0 b1 10 100 0 0:10", "C Q0 c1 10 100 0 0:10",
             "D Q0 d1 10 100 0 0:10"]
    lines = ["A Q0 a1 1 1 R 0 10", "B Q0 b1 1 1 R 0 10", "B Q0 b2 1 1 R 0 10", "B Q0 b3 1 1 R 0 10",
             "A Q0 a2 1 1 R 0 10", "C Q0 c1 1 1 R 0 10", "C Q0 c2 1 1 R 0 10", "A Q0 c2 1 1 R 20 10",
             "D Q0 d1 1 1 R 0 10", "D Q0 d2 1 1 R 0 10", "D Q0 d3 1 1 R 0 10", "C Q0 c4 1 1 R 0 10"]
    for task in "ri":
        report = _validate(tmp_path, lines, task, qrels)
        assert [(f.kind, f.topic, f.line) for f in report.problems] == [
            ("would_crash", "A", 8), ("would_crash", "A", 5), ("would_crash", "C", 12)]
        assert "rank bookkeeping fails on this line" in report.problems[0].message
        assert "cannot score it: its 4 ranks have only 2 rank entries" in report.problems[1].message
        assert [(f.kind, f.topic, f.line) for f in report.warnings] == [
            ("repeated_topic", "A", 5), ("repeated_topic", "C", 12)]
    # -b: line 8 (the article of the line before) is a second result; the skipped line leaves A with 2
    # entries for 4 ranks
    assert [(f.kind, f.topic, f.line) for f in _validate(tmp_path, lines, "b", qrels).problems] == [
        ("multiple_results", "A", 8), ("would_crash", "A", 5), ("would_crash", "C", 12)]
    assert _validate(tmp_path, lines, "f", qrels).valid  # -f and -t never die on it


@pytest.mark.parametrize("task", "tfrbi")
def test_a_valid_run_has_no_problem_and_no_warning(tmp_path, task):
    lines = run_lines("A", [("a2", 0, 10), ("a1", 100, 50), ("a3", "X", 0)]) + run_lines("B", [("b1", 0, 10)])
    report = _validate(tmp_path, lines, task)
    assert report.valid and report.problems == [] and report.warnings == []
    assert (report.format, report.run_id, report.task, report.topics) == ("text", "R", TASK[task], 2)
    assert report.results_per_topic == {"A": 3, "B": 1}
    assert format_reports([report]).startswith(f"{tmp_path / 'run.txt'}: VALID (text, run R, task {TASK[task]}, "
                                               "2 topic(s), 4 result(s) (1 to 3 per topic); 0 problem(s), "
                                               "0 warning(s))")


def _case_files(tmp_path: Path, make, seed: int) -> tuple[Path, Path]:
    qrels_lines, lines = make(random.Random(seed))
    return write(tmp_path / "qrels.txt", qrels_lines), write(tmp_path / f"run{seed}.txt", lines)


@pytest.mark.parametrize(("make", "seed"), CASES[::5])
def test_the_verdict_and_first_problem_are_evaluations(tmp_path, make, seed):
    """INVALID exactly when the scorer rejects the run or would die; the first problem is its message and line."""
    qrels_path, run_path = _case_files(tmp_path, make, seed)
    qrels = read_fol_qrels(qrels_path)
    run = read_fol_run(run_path)
    for task in FOL_TASKS:
        report = validate_run(run_path, task=TASK[task], assessments=qrels)
        outcome = score_fol_run(qrels, run, task, bounded=True)  # as the config path scores it
        tool = score_fol_run(qrels, run, task).death  # where the tool itself dies, if it does
        wraps = outcome.death is not None and (tool is None or (tool.message, tool.line) != (
            outcome.death.message, outcome.death.line))
        assert report.valid == (outcome.rejected is None and outcome.death is None)
        if outcome.rejected is not None:
            first = report.problems[0]
            assert first.message == "".join(outcome.rejected)
            assert first.kind != "would_crash"
            if first.kind != "interleaved":  # the only message without the line
                assert f" {first.line}" in outcome.rejected[0]
        elif outcome.death is not None:
            assert (report.problems[0].kind, report.problems[0].line, report.problems[0].message) == (
                "int_overflow" if wraps else "would_crash",
                None if outcome.death is qrels.int_problem else outcome.death.line,  # (a qrels line: not the run's)
                outcome.death.message)


def test_without_assessments_every_topic_is_checked(tmp_path):
    lines = ["Z Q0 z 1 1 R 1O 5", "A Q0 a1 1 1 R 0 10", "A Q0 a1 1 1 R 5 10"]
    assert _problems(_validate(tmp_path, lines, "f", qrels=None)) == [("would_crash", 1), ("overlap", 3)]
    report = _validate(tmp_path, lines, "f")
    assert _problems(report) == [("overlap", 3)]
    assert [(f.kind, f.line) for f in report.warnings] == [("missing_topic", None), ("unjudged_topic", 1)]
    assert report.warnings[0].message == "1 topic(s) of the qrels without results: B"


def test_warnings_run_ids_empty_and_topics(tmp_path):
    lines = ["A Q0 a1 1 1 R1 0 10", "Z Q0 z 1 1 R9 0 10", "B Q0 b1 1 1 R2 0 10", "A Q0 a2 1 1 R3 0 10",
             "B Q0 b2 1 1 R2 0 10"]
    report = _validate(tmp_path, lines, "f")
    assert report.valid
    assert report.run_id == "R2"  # the last line of a topic of the qrels (the tool's run-id)
    assert [(f.kind, f.topic, f.line) for f in report.warnings] == [
        ("run_id", None, None), ("unjudged_topic", "Z", 2), ("repeated_topic", "A", 4),
        ("repeated_topic", "B", 5)]
    assert report.warnings[0].message == ("several run ids; inex_eval prints the last line's, 'R2'; also found "
                                          "'R1' (line 1), 'R3' (line 4)")
    only_z = _validate(tmp_path, ["Z Q0 z 1 1 R 0 10"], "r")
    assert only_z.valid and only_z.run_id is None
    assert [f.kind for f in only_z.warnings] == ["empty", "missing_topic", "unjudged_topic"]
    empty = _validate(tmp_path, [], "b", qrels=None)
    assert empty.valid and [f.kind for f in empty.warnings] == ["empty"]


def test_xml_fol_run_lines_are_result_lines(tmp_path):
    xml = write(tmp_path / "run.xml", [
        '<inex-submission participant-id="4" run-id="IdealDoc" task="RelevantInContext" result-type="fol">',
        '<topic topic-id="A">',
        '  <result><file>a1</file><fol offset="100" length="50"/></result>',
        '  <result><file>a2</file><fol offset="0" length="10"/></result>',
        '  <result><file>a1</file><fol offset="1O" length="10"/></result>',
        "</topic>",
        "</inex-submission>",
    ])
    report = validate_run(xml, task="FOL.RelevantInContext", assessments=_qrels(tmp_path))
    assert (report.format, report.run_id) == ("xml", "IdealDoc")
    assert _problems(report) == [("interleaved", 5)]
    assert _problems(validate_run(xml, task="FOL.Focused")) == [("would_crash", 5)]
    bad = write(tmp_path / "bad.xml", ['<inex-submission run-id="x">', '<topic topic-id="A">',
                                       '<result><file>a1</file></result>', "</topic>", "</inex-submission>"])
    report = validate_run(bad, task="FOL.Focused")
    assert (report.valid, _problems(report)) == (False, [("unreadable", 3)])
    assert "exactly one <fol>" in report.problems[0].message


def test_unreadable_and_gzip_runs(tmp_path):
    report = validate_run(tmp_path / "missing.txt", task="FOL.Focused")
    assert (report.valid, report.format, _problems(report)) == (False, "unknown", [("unreadable", None)])
    gz = tmp_path / "run.txt.gz"
    gz.write_bytes(gzip.compress(b"A Q0 a1 1 1 R 0 10\nA Q0 a1 1 1 R 5 10\n"))
    assert _problems(validate_run(gz, task="FOL.Focused")) == [("overlap", 2)]


def test_assessments_of_the_wrong_kind_are_config_errors(tmp_path):
    run = write(tmp_path / "run.txt", ["A Q0 a1 1 1 R 0 10"])
    from inexeval.model import Assessments

    with pytest.raises(ConfigError, match="FOL qrels"):
        validate_run(run, task="FOL.Focused", assessments=Assessments())
    with pytest.raises(ConfigError, match="not FOL qrels"):
        validate_run(run, task="CO.Focussed", assessments=_qrels(tmp_path))


def test_new_kinds_are_listed_and_disjoint():
    assert {"multiple_results", "negative_length", "would_crash"} <= set(PROBLEM_KINDS)
    assert "unjudged_topic" in WARNING_KINDS
    assert not set(PROBLEM_KINDS) & set(WARNING_KINDS)
    import inexeval.validate as module

    for kind in PROBLEM_KINDS + WARNING_KINDS:
        assert f"\n{kind} " in module.__doc__


def test_fol_runs_may_share_a_run_id(tmp_path):
    """FOL runs are named by their file (the public runs all say TREC2INEX); element runs may not."""
    one = write(tmp_path / "one.txt", ["A Q0 a1 1 1 R 0 10"])
    two = write(tmp_path / "two.txt", ["A Q0 a1 1 1 R 0 10"])
    reports = validate_runs([one, two], task="FOL.Focused")
    assert [(r.run_id, r.valid, r.warnings) for r in reports] == [("R", True, []), ("R", True, [])]


# --------------------------------------------------------------------------- the command


def test_validate_command_on_fol_runs(tmp_path):
    qrels = write(tmp_path / "qrels.txt", QRELS)
    run = write(tmp_path / "run.txt", run_lines("A", [("a1", 0, 10), ("a1", 5, 10)]) + ["A Q0 a2 1 1 R 0"])
    res = CliRunner().invoke(cli_main, ["validate", str(run), "--task", "FOL.BestInContext",
                                        "--assessments", str(qrels)])
    assert res.exit_code == 1
    assert res.output == (
        f"{run}: INVALID (text, run R, task FOL.BestInContext, 1 topic(s), 2 result(s) (2 to 2 per topic); "
        "2 problem(s), 1 warning(s))\n"
        f"{run}:2: multiple_results: ERROR *** ({run}) multiple results from single article in topic A"
        "\tarticle id: a1\tin line: 2\n"
        f"{run}:3: malformed: Error *** ({run}) fields missing in line 3: A Q0 a2 1 1 R 0\n"
        f"{run}: warning: missing_topic: 1 topic(s) of the qrels without results: B\n")
    res = CliRunner().invoke(cli_main, ["validate", str(run), "--task", "FOL.Thorough", "--format", "json"])
    assert res.exit_code == 1
    [out] = json.loads(res.output)
    assert (out["valid"], out["task"], [p["kind"] for p in out["problems"]]) == (False, "FOL.Thorough",
                                                                                 ["malformed"])
    good = write(tmp_path / "good.txt", run_lines("A", [("a1", 0, 10)]))
    res = CliRunner().invoke(cli_main, ["validate", str(good), "--task", "FOL.Focused", "--assessments", str(qrels)])
    assert res.exit_code == 0 and ": VALID (text, run R, task FOL.Focused" in res.output
    res = CliRunner().invoke(cli_main, ["validate", str(good), "--task", "FOL.Focused",
                                        "--assessments", str(tmp_path / "nope.txt")])
    assert res.exit_code == 2 and "nope.txt" in res.output and "Traceback" not in res.output


# --------------------------------------------------------------------------- the public INEX 2009/2010 runs


def _shared() -> Path:
    import os

    env = os.environ.get("INEXEVAL_SHARED")
    return Path(env) if env else Path(__file__).resolve().parents[2] / "shared"


DATA = _shared() / "data" / "inex2009-2010"
needs_data = pytest.mark.skipif(not (DATA / "runs").is_dir(),
                                reason=f"public INEX 2009/2010 runs not found in {DATA} "
                                       "(set INEXEVAL_SHARED to the folder holding data/)")


@pytest.fixture(scope="module")
def public():
    return read_fol_qrels(DATA / "qrels.txt.gz")


def _public(qrels, name: str, task: str):
    return validate_run(DATA / "runs" / f"{name}.run.gz", task=TASK[task], assessments=qrels)


@needs_data
@pytest.mark.parametrize("name", ["bert_inex_converted", "bert_inex_converted_1", "bert_inex_converted_2"])
def test_public_runs(public, name):
    """Originals: valid for -f and -t, interleaved for -r (and -b); .blockgrouped: valid for -r and -i; .bic: for -b."""
    for task in "ft":
        assert _public(public, name, task).valid
    for task in "rbi":
        report = _public(public, name, task)
        assert not report.valid and {f.kind for f in report.problems} <= {"interleaved", "multiple_results"}
        assert "interleaved" in {f.kind for f in report.problems}
    for task in "ri":
        assert _public(public, f"{name}.blockgrouped", task).valid
    assert not _public(public, f"{name}.blockgrouped", "b").valid  # several passages per article
    assert _public(public, f"{name}.bic", "b").valid


@needs_data
def test_public_runs_together(public):
    """The three runs share their RUN_ID (TREC2INEX): not a problem for FOL runs."""
    paths = [DATA / "runs" / f"bert_inex_converted{s}.run.gz" for s in ("", "_1", "_2")]
    reports = validate_runs(paths, task="FOL.Focused", assessments=public)
    assert [(r.valid, r.run_id) for r in reports] == [(True, "TREC2INEX")] * 3
    assert [f.kind for f in reports[0].warnings] == ["missing_topic", "repeated_topic"]  # 2009079 (D5)
    assert reports[0].warnings[1].topic == "2009079"


@needs_data
def test_public_grouped_run_overlap(public, tmp_path, monkeypatch):
    """The run grouped over whole topics: the tool's rejection for -r is the first problem, byte for byte."""
    expected = gzip.decompress((DATA / "expected" / "r.bert_inex_converted.grouped.txt.gz").read_bytes()).decode()
    monkeypatch.chdir(tmp_path)
    name = "bert_inex_converted.grouped.run"
    (tmp_path / name).write_bytes(gzip.decompress((DATA / "runs" / f"{name}.gz").read_bytes()))
    for task in "ri":
        report = validate_run(name, task=TASK[task], assessments=public)
        first = report.problems[0]
        assert (first.kind, first.line, first.topic) == ("overlap", 15688, "2009079")
        assert first.message + "\n" == expected
        assert {f.kind for f in report.problems} == {"overlap"} and len(report.problems) > 1
        assert [f.kind for f in report.warnings] == ["missing_topic"]  # two topics of the qrels have no line
