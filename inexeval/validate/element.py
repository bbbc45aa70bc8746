"""``inexeval validate`` on INEX element runs (docs/formats.md §1.1, §1.3): XML submissions and text runs.

A run is read with the evaluator's own reader
(:class:`~inexeval.readers.runs.RunReader`, gzip allowed), in one pass,
recording every issue it finds with its line instead of stopping at the
first, every submitted result with its ``rsv``, and every XML ``<result>``
with several ``<file>``, ``<path>``, ``<rank>`` or ``<rsv>``; the report
says what the evaluator would drop, warn about or refuse, and adds the
task's run checks (overlap, one result per article, contiguous articles),
rsv order and topics against the assessments.

Which results each check looks at (as the evaluator, docs/formats.md §1.3):
``rank`` and ``rsv`` look at every submitted result; ``invalid_path`` and
``duplicate`` at the first MAX_RESULTS of a topic; ``overlap``,
``interleaved`` and ``repeated_article`` at what the evaluator keeps (the
first MAX_RESULTS, valid, duplicates removed).  A rank or rsv that is absent
(XML) is skipped: the next present value is compared with the last present
one.  An XML result's fields are those the evaluator reads: the text of the
last ``<file>``, ``<path>``, ``<rank>``, ``<rsv>`` child.  When reading
stops (``unreadable``), what was found before is still reported.
"""

from __future__ import annotations

from collections.abc import Hashable
from pathlib import Path
from typing import NamedTuple

import numpy as np

from inexeval.config.values import expand_paths
from inexeval.errors import InputError
from inexeval.model import Assessments
from inexeval.numeric import TOLERANCE
from inexeval.paths import is_ancestor, parent
from inexeval.readers.runs import Block, Issue, RunObserver, RunReader, run_id_from_name
from inexeval.readers.units import ELEMENT, UNITS, Unit
from inexeval.tasks import TASKS
from inexeval.validate.report import Finding, RunReport, missing_topics
from inexeval.validate.task import canonical_task

__all__ = ["validate_element_run", "read_inex_assessments", "RSV_RTOL"]

#: Relative tolerance of the rsv comparison (docs/measures.md §10).
RSV_RTOL = TOLERANCE


class _Kept(NamedTuple):
    """A result the evaluator keeps: normalised file id and path, and its line."""

    file: str
    path: str
    line: int | None


def _unit_of(task: str | None) -> Unit:
    """The unit of the task's results; ``element`` (INEX runs) when no task is given or its unit
    is not one the run reader reads."""
    return UNITS.get(TASKS[task].unit, ELEMENT) if task is not None else ELEMENT


def validate_element_run(path: str | Path, task: str | None, assessments: Assessments | None,
                         max_results: int) -> RunReport:
    """The report of one INEX run; ``task`` (canonical, or None: the run's ``task`` attribute if known)
    selects the task's run checks."""
    unit = _unit_of(task)
    reader = RunReader(path, unit=unit, max_results=max_results)
    seen = _Recorder()
    unreadable = None
    try:
        reader.read(seen)
    except InputError as exc:
        unreadable = Finding("unreadable", None, exc.line, exc.message)
    report = RunReport(path=reader.source, format=reader.format, run_id=reader.run_id or None,
                       run_id_line=reader.run_id_line if reader.run_id else None,
                       run_task=reader.task)
    if unreadable is not None:
        report.problems.append(unreadable)
        if reader.format == "unknown":  # not even its start could be read
            return report
    if not report.run_id:
        report.run_id = run_id_from_name(reader.source)
        if report.format == "xml" and unreadable is None:
            report.warnings.append(Finding("run_id", None, None, f"no run-id; the file name {report.run_id!r} is used"))
    report.task = _decide_task(task, report)
    _check(seen, report, unit, assessments, max_results)
    if task is None and report.format == "text" and report.problems and not report.topics and all(
            f.kind == "malformed" and f.message.endswith("found 6") for f in report.problems):
        report.warnings.insert(0, Finding("task", None, None, "every line has 6 columns, as in a TREC run: "
                                                              "check it with --task trec"))
    if report.format == "xml" and unreadable is None:
        _repeated_fields(seen.repeated, report)
    return report


def read_inex_assessments(path: str | Path, source: str) -> Assessments:
    """The INEX assessments under ``path`` (file, directory or glob, docs/config.md)."""
    from inexeval.readers.assessments import load_assessments

    files = expand_paths(str(path), Path.cwd(), "ASSESSMENTS_DIR", source, None)
    return load_assessments(files)


#: The children of a ``<result>`` whose last one the evaluator reads (module docstring).
_RESULT_FIELDS = ("file", "path", "rank", "rsv")


def _repeated_fields(repeated: list[Issue], report: RunReport) -> None:
    """A warning for each ``<result>`` with two ``<file>``, ``<path>``, ``<rank>`` or ``<rsv>``
    children (the reader's ``repeated_field`` issues, in end-tag order): evaluation reads the last one, as
    validation does; the submitter may have meant another."""
    found = [Finding("repeated_field", issue.topic, issue.line,
                     f"<result> with several {', '.join(f'<{t}>' for t in issue.value)}: "
                     "the last one of each is used") for issue in repeated]
    report.warnings.extend(found)
    report.warnings.sort(key=lambda f: (f.line is not None, f.line or 0))


# --------------------------------------------------------------------------- what the reader found


class _Topic:
    """What the reader gave of one topic: results submitted, the rsv check's state, what is kept.

    The rsv check runs block by block (:meth:`add_rsvs`), keeping only the
    last value and the first finding of each kind: memory is bounded by what
    is kept (MAX_RESULTS), not by what a topic submits (issue 15).
    """

    __slots__ = ("first_line", "issues", "kept", "submitted", "last_rsv", "n_up", "first_up", "n_bad",
                 "first_bad")

    def __init__(self) -> None:
        self.first_line: int | None = None  # of the first result
        self.submitted = 0
        self.kept: list[tuple[Hashable, int | None]] = []
        self.issues: list[Issue] = []  # this topic's hygiene issues, in the order found
        self.last_rsv: tuple[float, int | None] | None = None  # the last finite rsv and its line
        self.n_up = 0  # rsv values above their predecessor (beyond the tolerance)
        self.first_up: tuple[float, float, int | None] | None = None  # (value, previous, line)
        self.n_bad = 0  # rsv values that are not finite numbers
        self.first_bad: tuple[str, int | None] | None = None

    def add_rsvs(self, texts, lines: list[int | None]) -> None:
        """Check one block's rsv texts (None: absent) against each other and the previous block's last."""
        values: list[float] = []
        at: list[int | None] = []
        for text, line in zip(texts, lines):
            if type(text) is not str:  # absent (from an XPath, a node that is not text: no .text either)
                continue
            v = _float(text)
            if v is None:
                self.n_bad += 1
                self.first_bad = self.first_bad or (text, line)
                continue
            values.append(v)
            at.append(line)
        if not values:
            return
        if self.last_rsv is not None:
            values.insert(0, self.last_rsv[0])
            at.insert(0, self.last_rsv[1])
        self.last_rsv = (values[-1], at[-1])
        if len(values) < 2:
            return
        rsv = np.array(values, dtype=np.float64)
        a, b = rsv[:-1], rsv[1:]
        with np.errstate(over="ignore"):
            up = (b > a) & (b - a > RSV_RTOL * np.maximum(np.abs(a), np.abs(b)))
        late = np.flatnonzero(up) + 1
        if late.size:
            self.n_up += int(late.size)
            if self.first_up is None:
                i = int(late[0])
                self.first_up = (values[i], values[i - 1], at[i])


#: Issue kinds that validation reports per topic, after the reading issues.
_TOPIC_ISSUES = frozenset({"beyond", "invalid", "duplicate", "rank_order", "rank_nan"})


class _Recorder(RunObserver):
    """Records every issue and, per topic, what the checks need; never stops the reader."""

    wants_rsv = True
    wants_repeated_fields = _RESULT_FIELDS

    def __init__(self) -> None:
        self.issues: list[Issue] = []  # issues of the reading itself (not per topic), in the order found
        self.topics: dict[str, _Topic] = {}
        self.repeated: list[Issue] = []  # the repeated_field issues, in file order

    def issue(self, issue: Issue) -> None:
        if issue.kind in _TOPIC_ISSUES:  # told before the block it is about
            self._topic(issue.topic).issues.append(issue)
        elif issue.kind == "repeated_field":
            self.repeated.append(issue)
        else:
            self.issues.append(issue)

    def _topic(self, topic: str) -> _Topic:
        rec = self.topics.get(topic)
        if rec is None:
            rec = self.topics[topic] = _Topic()
        return rec

    def block(self, block: Block, kept: list[int] | None, keys: list[Hashable]) -> None:
        lines = block.lines()
        rec = self._topic(block.topic)
        if not rec.submitted:
            rec.first_line = lines[0]
        rec.submitted += block.n
        if block.rsvs is not None:
            rec.add_rsvs(block.rsvs, lines)
        rec.kept.extend(zip(keys, lines if kept is None else [lines[i] for i in kept]))


# --------------------------------------------------------------------------- checks


def _decide_task(chosen: str | None, report: RunReport) -> str | None:
    """``--task`` wins; else the run's task attribute if known (warnings for unknown/mismatch)."""
    own = canonical_task(report.run_task) if report.run_task else None
    if report.run_task and own is None:
        report.warnings.append(Finding("task", None, None, f"run task {report.run_task!r} is not a known task"
                                       + ("" if chosen else "; no task-specific checks")))
    if chosen is not None:
        if own is not None and own != chosen:
            report.warnings.append(Finding("task", None, None,
                                           f"run task {report.run_task!r} differs from --task {chosen}"))
        return chosen
    return own


def _check(seen: _Recorder, report: RunReport, unit: Unit, assessments: Assessments | None,
           max_results: int) -> None:
    _reading_findings(seen.issues, report)
    topics = seen.topics
    report.results_per_topic = {t: rec.submitted for t, rec in topics.items()}
    report.topics = len(topics)
    if not topics and not report.problems:
        report.warnings.append(Finding("empty", None, None, "the run has no result"))
    checks = TASKS[report.task].run_checks if report.task else frozenset()
    for topic, rec in topics.items():
        _hygiene_findings(topic, rec, report, unit, max_results)
        # the run checks are those of element runs: (file, path) keys
        kept = [_Kept(key[0], key[1], line) for key, line in rec.kept] if checks else []
        if "overlap" in checks:
            _check_overlap(topic, kept, report, repeated_article="one_per_article" in checks)
        if "contiguous_articles" in checks:
            _check_contiguous(topic, kept, report)
        _rank_findings(topic, rec.issues, report)
        _check_rsv(topic, rec, report)
    if assessments is not None:
        _check_topics(topics, report, assessments)
    # run-level findings (no line) first, then in file order; stable within a line
    for findings in (report.problems, report.warnings):
        findings.sort(key=lambda f: (f.line is not None, f.line or 0))


def _reading_findings(issues: list[Issue], report: RunReport) -> None:
    """The reader's issues that are not about one topic's hygiene."""
    tags: dict[str, int | None] = {}  # other run tags -> first line
    for issue in issues:
        kind = issue.kind
        if kind == "malformed":
            report.problems.append(Finding("malformed", issue.topic, issue.line, issue.message))
        elif kind == "empty_topic":
            tid = issue.topic or ""
            report.warnings.append(Finding("empty_topic", issue.topic, issue.line,
                                           f'<topic topic-id="{tid}"> has no result (same as absent)'))
        elif kind == "repeated_topic":
            report.warnings.append(Finding("repeated_topic", issue.topic, issue.line,
                                           f"topic {issue.topic} reappears after other topics (it continues)"))
        elif kind == "run_tag":
            tags.setdefault(issue.value, issue.line)
    if tags:
        others = ", ".join(f"{t!r} (line {n})" for t, n in tags.items())
        report.warnings.append(Finding("run_id", None, None,
                                       f"several run tags; {report.run_id!r} is used, also found {others}"))


def _hygiene_findings(topic: str, rec: _Topic, report: RunReport, unit: Unit, max_results: int) -> None:
    """MAX_RESULTS (one per topic), invalid results and duplicates, as the reader found them."""
    first_line: dict[Hashable, int | None] | None = None
    beyond = next((i for i in rec.issues if i.kind == "beyond"), None)
    if beyond is not None:
        extra = rec.submitted - max_results
        report.problems.append(Finding(
            "beyond_max_results", topic, beyond.line,
            f"topic {topic}: {rec.submitted} results, the {extra} beyond MAX_RESULTS={max_results} are dropped"))
    for issue in rec.issues:
        if issue.kind == "invalid":
            report.problems.append(Finding("invalid_path", topic, issue.line, f"topic {topic}: {issue.message}"))
        elif issue.kind == "duplicate":
            if first_line is None:
                first_line = dict(rec.kept)  # kept keys are distinct
            report.problems.append(Finding(
                "duplicate", topic, issue.line,
                f"topic {topic}: {unit.describe(issue.value)} already returned{_at(first_line.get(issue.value))}"))


def _at(line: int | None) -> str:
    return "" if line is None else f" at line {line}"


def _check_overlap(topic: str, kept: list[_Kept], report: RunReport, *, repeated_article: bool) -> None:
    """Focussed / BestInContext: no result may overlap an earlier one (docs/formats.md §1.1 overlap):
    a warning for Focussed (evaluation scores it), a problem for BestInContext (left out).

    Per file, ``returned`` holds the results so far and ``below`` maps every
    proper ancestor of a returned result to that result; a new path overlaps
    iff one of its proper ancestors is in ``returned`` or it is in ``below``
    (O(depth) per result).  With ``repeated_article`` (BestInContext, one
    result per article, docs/measures.md §7) a non-overlapping later result of an
    article is a problem too: evaluation leaves it out.
    """
    returned: dict[str, dict[str, _Kept]] = {}
    below: dict[str, dict[str, _Kept]] = {}
    for k in kept:
        done = returned.setdefault(k.file, {})
        under = below.setdefault(k.file, {})
        other = under.get(k.path)
        up = parent(k.path)
        while other is None and up is not None:
            other = done.get(up)
            up = parent(up)
        if other is not None:
            how = "contains" if is_ancestor(k.path, other.path) else "is inside"
            # Best in Context: evaluation leaves it out (a later result of the article); Focussed: it is
            # scored as submitted (the task's rules forbid it; the overlap-on measures penalise it)
            found = report.problems if repeated_article else report.warnings
            found.append(Finding(
                "overlap", topic, k.line,
                f"topic {topic}: {k.file} {k.path} {how} the earlier result {other.path}{_at(other.line)}"
                + ("; evaluation leaves it out (only the article's first result counts)" if repeated_article
                   else "; the task's rules forbid it (evaluation scores it as submitted)")))
        elif repeated_article and done:
            first = next(iter(done.values()))
            report.problems.append(Finding(
                "repeated_article", topic, k.line,
                f"topic {topic}: second result in article {k.file} (first{_at(first.line)}); "
                "only the first counts in Best in Context: evaluation leaves it out"))
        done.setdefault(k.path, k)
        up = parent(k.path)
        while up is not None:
            under.setdefault(up, k)
            up = parent(up)


def _check_contiguous(topic: str, kept: list[_Kept], report: RunReport) -> None:
    """RelevantInContext: each article's results form one block of the ranking (seed 002 §6.1); a
    warning, as evaluation scores the ranking as submitted."""
    last_line: dict[str, int | None] = {}  # file -> line of its latest result
    current: str | None = None
    for k in kept:
        if k.file != current and k.file in last_line:
            report.warnings.append(Finding(
                "interleaved", topic, k.line,
                f"topic {topic}: article {k.file} resumes after other articles "
                f"(its previous result{_at(last_line[k.file])}); the task's rules forbid it "
                "(evaluation scores the ranking as submitted)"))
        last_line[k.file] = k.line
        current = k.file


def _rank_findings(topic: str, issues: list[Issue], report: RunReport) -> None:
    """One ``rank`` warning per topic for non-integer ranks, one for ranks that do not increase."""
    for kind in ("rank_nan", "rank_order"):
        found = [i for i in issues if i.kind == kind]
        if not found:
            continue
        n = sum(i.count for i in found)
        first = found[0]
        if kind == "rank_nan":
            message = f"topic {topic}: {n} non-integer rank value(s) ignored, first {first.value!r}"
        else:
            rank, previous = first.value
            message = (f"topic {topic}: rank does not increase at {n} result(s), first rank {rank} "
                       f"after {previous}; document order is the ranking")
        report.warnings.append(Finding("rank", topic, first.line, message))


def _float(text: object) -> float | None:
    """The finite number ``text`` holds by the rsv rule of docs/formats.md §1.7 (a decimal number, XML
    white space around it ignored: ``1_0`` is not 10), or None."""
    from inexeval.readers.trec_numbers import decimal_number

    return decimal_number(text.strip(" \t\n\r")) if isinstance(text, str) else None


def _check_rsv(topic: str, rec: _Topic, report: RunReport) -> None:
    """rsv must not increase down the ranking: rsv[i] > rsv[i-1] beyond 1e-9 relative (docs/measures.md §10);
    the findings of :meth:`_Topic.add_rsvs`."""
    if rec.first_bad is not None:
        text, line = rec.first_bad
        report.warnings.append(Finding(
            "rsv", topic, line, f"topic {topic}: {rec.n_bad} rsv value(s) not a finite number, first {text.strip()!r}"))
    if rec.first_up is not None:
        value, previous, line = rec.first_up
        report.warnings.append(Finding(
            "rsv", topic, line,
            f"topic {topic}: rsv increases down the ranking at {rec.n_up} result(s), first "
            f"{value!r} after {previous!r}"))


def _check_topics(topics: dict[str, _Topic], report: RunReport, assessments: Assessments) -> None:
    known = assessments.topics
    for topic, rec in topics.items():
        if topic not in known:
            report.problems.append(Finding("unknown_topic", topic, rec.first_line,
                                           f"topic {topic} is not in the assessments"))
    missing_topics([t for t in known if t not in topics], "assessed topic(s)", report)

