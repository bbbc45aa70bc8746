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
from inexeval.cli import main as cli_main
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


def _summary(findings) -> list[tuple[str, int | None, str | None]]:
    return [(f.kind, f.line, f.topic) for f in findings]


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
    """Topics that come back after others (docs/measures.md §4.4), sharing article ids, with violations."""
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
    bookkeeping breaks while reading when A's rank entries match C's counter (docs/measures.md §4.4)."""
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
        findings = fol_findings(qrels, run, task)
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
            findings = fol_findings(qrels, _run(lines), task)
            most = max(most, len(findings))
            kinds |= {f.kind for f in findings}
            for f in findings:
                if f.death is not None:
                    deaths.add(f.death.message.split(" ", 1)[0] if "comes back" not in f.death.message
                               else "reading" if "fails on this line" in f.death.message else "scoring")
    assert kinds == {"malformed", "interleaved", "multiple_results", "overlap", "negative_length", "would_crash"}
    assert deaths == {"OFFSET", "LENGTH", "reading", "scoring"}
    assert most >= 8
