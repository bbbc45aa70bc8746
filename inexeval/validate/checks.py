"""Run validator: what a participant should fix before submitting (docs/formats.md §1.1, §1.3; docs/measures.md §3).

``validate_run`` reads one run file (XML submission or text run, gzip
allowed) with the evaluator's own reader (:class:`~inexeval.readers.runs.RunReader`),
recording every issue it finds with its line instead of stopping at the
first, and every submitted result with its ``rsv``; it reports what the
evaluator would drop, warn about or refuse, and adds its own checks: the
task's run checks, rsv order, topics against the assessments, run ids used
twice.  It never raises for bad run content: a file that cannot be read or
parsed is a finding of kind ``unreadable``.

Passage runs of the INEX 2007-2010 FOL tasks (a task whose strategy is in
:data:`FOL_STRATEGIES`: 8-column text or INEX 2008 XML FOL runs) are read
with the FOL reader and checked with inex_eval 3.1's own checks
(:func:`~inexeval.measures.fol.fol_findings`): every line the tool would
reject the run for, and every place where it would die, each with the
tool's message, in the order the tool meets them (lines in file order, then
the topics it cannot score), so the first problem is the one evaluation
reports.  A FOL run is INVALID exactly when evaluation rejects it or the
tool would die on it.  The checks depend on the qrels (the tool skips the
lines of topics it has no judgement for, and a topic's lines that come back
after other topics continue that other topic's state, docs/inex_eval.md §4.4): with
``assessments`` (a FOL qrels file) they are exact; without, every topic of
the run is checked as if it were in the qrels.  RANK and RSV are not looked
at (the tool never reads them: the ranking is the file order).

Findings and whether they make a run invalid (``RunReport.valid`` is False
iff there is at least one *problem*).  The verdict is evaluation's: a
problem is something for which evaluation skips the run or leaves some of
its results out (and says so); what evaluation scores as submitted, even
where a task's submission rules forbid it, is a warning:

==================== ======= =====================================================
kind                 level   meaning
==================== ======= =====================================================
unreadable           problem cannot read, decompress or parse the file (malformed
                             XML, root not ``<inex-submission>``; FOL: an XML ``<result>``
                             without exactly one ``<fol>``); reading stops
malformed            problem a line or element the evaluator's reader refuses (text
                             run: wrong number of columns, non-integer rank,
                             non-numeric rsv, not UTF-8; XML: ``<result>`` outside
                             ``<topic>``, ``<topic>`` without ``topic-id``,
                             ``<topic>`` inside another element); that result is skipped.
                             FOL: a line without exactly 8 fields (any topic)
invalid_path         problem file id or path invalid or missing (docs/formats.md §1.1)
duplicate            problem ``(file, path)`` already returned earlier in the topic
beyond_max_results   problem a topic with more than MAX_RESULTS results (one per topic)
overlap              problem BestInContext: a result that is an ancestor or
                             descendant of an earlier result of the topic (evaluation
                             leaves it out).  FOL (all but Thorough): a passage that
                             overlaps an earlier passage of its article (in the tool's
                             current state).  Focussed: a *warning* (scored as submitted)
interleaved          problem FOL RelevantInContext, BestInContext, T2I: an article met
                             again after another article (in the tool's current state).
                             RelevantInContext: a *warning*, an article's results not
                             contiguous (seed 002: grouped per article; scored as submitted)
repeated_article     problem BestInContext: a second, non-overlapping result of an
                             article (evaluation leaves it out, docs/measures.md §7)
multiple_results     problem FOL BestInContext: two results in a row from one article
negative_length      problem FOL: a passage that ends before it starts (a negative
                             LENGTH, or OFFSET + LENGTH beyond 2^31 - 1)
would_crash          problem FOL: where inex_eval 3.1 would die (docs/inex_eval.md §10): an OFFSET or
                             LENGTH that is not an integer, a topic whose lines come
                             back after other topics' and break the in-context rank
                             bookkeeping (line: where it came back)
unknown_topic        problem with assessments: a topic that is not in the recall-base
                             (TREC runs, ``--task trec``: evaluation's message, as for
                             ``duplicate``; a refused line is ``malformed``, reading stops)
duplicate_run_id     problem ``validate_runs``: two runs with the same run id (FOL: file name;
                             docs/formats.md §9.2.2); evaluation skips the later one
repeated_field       warning XML: a ``<result>`` with several ``<file>``, ``<path>``,
                             ``<rank>`` or ``<rsv>`` (the last one of each is read)
rank                 warning rank not increasing strictly in document order, or a
                             non-integer ``<rank>`` (one per topic)
rsv                  warning rsv increasing down the ranking (beyond a relative
                             tolerance of 1e-9, docs/measures.md §10), or not a finite number
task                 warning run task attribute unknown, or different from ``--task``
run_name             warning ``validate_runs``: the run's result files will not be named by its id
                             (unsafe characters, too long, or the name of an earlier run's files)
run_id               warning no run id (the file name is used), or several run ids
                             in a text run (FOL: the tool prints the last one)
empty                warning the run has no result at all (FOL with assessments: none
                             for a topic of the qrels)
empty_topic          warning an XML ``<topic>`` without results (same as absent)
repeated_topic       warning a topic id that reappears after another topic (FOL: the
                             tool then goes on with the other topic's state, docs/inex_eval.md §4.4)
unjudged_topic       warning FOL with assessments: a topic not in the qrels (the tool
                             skips its lines after the field count)
missing_topic        warning with assessments: recall-base topics absent from the run
duplicate_rank       warning ``--task qa``: two answers of a question with one rank
empty_answer         warning ``--task qa``: an empty answer string
==================== ======= =====================================================

Question-answering runs (``--task qa``) are read with their own reader and
checked by :mod:`inexeval.validate.answer`; ``max_results`` is then L′ (the
task's 5 unless given).

Which results each check looks at (as the evaluator, docs/formats.md §1.3):
``rank`` and ``rsv`` look at every submitted result; ``invalid_path`` and
``duplicate`` at the first MAX_RESULTS of a topic; ``overlap``,
``interleaved`` and ``repeated_article`` at what the evaluator keeps (the
first MAX_RESULTS, valid, duplicates removed).  A rank or rsv that is absent
(XML) is skipped: the next present value is compared with the last present
one.  An XML result's fields are those the evaluator reads: the text of the
last ``<file>``, ``<path>``, ``<rank>``, ``<rsv>`` child.  When reading
stops (``unreadable``), what was found before is still reported.

The task used for the task-specific checks is ``task`` when given (any name
or alias of docs/measures.md §3; an unknown one is a :class:`~inexeval.errors.ConfigError`),
otherwise the run's ``task`` attribute when it names a known task.  A run is
read as a FOL passage run only when ``task`` names a FOL task.
"""

from __future__ import annotations

import json
import math
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import NamedTuple

import numpy as np

from inexeval.config.load import expand_paths
from inexeval.errors import ConfigError, InputError
from inexeval.model import Assessments
from inexeval.names import NameTable, cell, file_component, one_line
from inexeval.numeric import TOLERANCE
from inexeval.paths import is_ancestor, parent
from inexeval.measures.fol import fol_findings
from inexeval.measures.classic_join import TopicTable
from inexeval.readers.answers import AnswerSet
from inexeval.readers.fol import FolQrels, FolTopic, read_fol_qrels, read_fol_run
from inexeval.readers.runs import Block, Issue, RunObserver, RunReader, run_id_from_name
from inexeval.readers.units import ELEMENT, UNITS, Unit
from inexeval.tasks import DEFAULT_MAX_RESULTS, TASKS, find_task, unknown_task_message

__all__ = [
    "Finding",
    "RunReport",
    "PROBLEM_KINDS",
    "WARNING_KINDS",
    "FOL_STRATEGIES",
    "canonical_task",
    "fol_task_letter",
    "validate_run",
    "validate_runs",
    "format_reports",
    "exit_status",
    "assessments_from",
]

PROBLEM_KINDS = (
    "unreadable", "malformed", "invalid_path", "duplicate", "beyond_max_results",
    "overlap", "interleaved", "multiple_results", "negative_length", "would_crash",
    "unknown_topic", "duplicate_run_id",
)
WARNING_KINDS = (
    "rank", "rsv", "task", "run_id", "empty", "empty_topic", "repeated_topic",
    "repeated_article", "unjudged_topic", "missing_topic", "duplicate_rank", "empty_answer",
)
#: The FOL tasks (passage runs, docs/fol.md), by their task row's strategy: inex_eval 3.1's task option
#: (the task table's ``tool_option``).
FOL_STRATEGIES = {t.strategy: t.tool_option for t in TASKS.values() if t.tool_option is not None}
#: Relative tolerance of the rsv comparison (docs/measures.md §10).
RSV_RTOL = TOLERANCE
#: Topics listed in one missing_topic warning before "and N more".
_MAX_LISTED = 20


@dataclass(frozen=True)
class Finding:
    """One thing found in a run: ``kind`` (see the module table), topic, file line, message."""

    kind: str
    topic: str | None
    line: int | None
    message: str


@dataclass
class RunReport:
    """What ``validate_run`` found in one run file.

    ``task`` is the canonical task the checks used (None: no task-specific
    checks); ``run_task`` is the run's own ``task`` attribute as written.
    ``results_per_topic`` counts the results as submitted (before hygiene),
    topics in first-appearance order; ``topics`` is their number.
    """

    path: str
    format: str  # "xml" | "text" | "unknown"
    run_id: str | None = None
    run_id_line: int | None = None  # the line the run id was read from
    task: str | None = None
    run_task: str | None = None
    topics: int = 0
    results_per_topic: dict[str, int] = field(default_factory=dict)
    problems: list[Finding] = field(default_factory=list)
    warnings: list[Finding] = field(default_factory=list)

    @property
    def valid(self) -> bool:
        """True iff no problem was found (warnings do not count)."""
        return not self.problems


class _Kept(NamedTuple):
    """A result the evaluator keeps: normalised file id and path, and its line."""

    file: str
    path: str
    line: int | None


# --------------------------------------------------------------------------- tasks


def canonical_task(name: str) -> str | None:
    """The canonical name of the task called ``name`` (inexeval.tasks), or None."""
    task = find_task(name)
    return None if task is None else task.name


def _required_task(name: str) -> str:
    task = find_task(name)
    if task is None:
        raise ConfigError(unknown_task_message(name), "--task")
    return task.name


def fol_task_letter(task: str | None) -> str | None:
    """inex_eval 3.1's option letter (``t f r b i``) of the FOL task called ``task``; None for other tasks.

    Raises ConfigError for a passage task whose strategy is not a FOL one.
    """
    row = find_task(task) if task is not None else None
    if row is None:
        return None
    letter = row.tool_option
    if letter is None and row.facts.counts_every_result:
        raise ConfigError(f"task {row.name}: validate does not know how to check its passage runs "
                          f"(strategy {row.strategy!r})", "--task")
    return letter


def _unit_of(task: str | None) -> Unit:
    """The unit of the task's results; ``element`` (INEX runs) when no task is given or its unit
    is not one the run reader reads."""
    return UNITS.get(TASKS[task].unit, ELEMENT) if task is not None else ELEMENT


# --------------------------------------------------------------------------- public API


def validate_run(
    path: str | Path,
    *,
    task: str | None = None,
    assessments: Assessments | FolQrels | None = None,
    max_results: int | None = None,
) -> RunReport:
    """Check one run file and report every finding of the module table.

    ``task`` (a docs/measures.md §3 name) selects the task-specific checks; without it
    the run's ``task`` attribute does, if it names a known task.  With
    ``assessments``, topics outside the recall-base are problems and
    recall-base topics absent from the run are a warning.  For a FOL task
    the run is a passage run and ``assessments`` its FOL qrels
    (:func:`assessments_from`); ``max_results`` does not apply (every line
    counts).  Raises only :class:`~inexeval.errors.ConfigError` for an
    unknown ``task``, a ``max_results`` below 1 or assessments of the wrong
    kind (caller errors); bad run content is reported.
    """
    chosen = _required_task(task) if task is not None else None
    if max_results is None:  # the task's MAX_RESULTS (L' = 5 for qa)
        max_results = (TASKS[chosen].max_results if chosen is not None else None) or DEFAULT_MAX_RESULTS
    if max_results < 1:
        raise ConfigError(f"MAX_RESULTS must be a positive integer, got {max_results}", "--max-results")
    letter = fol_task_letter(chosen)
    trec = chosen is not None and TASKS[chosen].unit == "document"
    if assessments is not None and trec != isinstance(assessments, TopicTable):
        wanted = "a TREC qrels file" if trec else "INEX assessments, not TREC qrels"
        raise ConfigError(f"task {chosen}: the assessments must be {wanted}", "--assessments")
    if (letter is not None) != isinstance(assessments, FolQrels) and assessments is not None:
        wanted = "a FOL qrels file" if letter is not None else "INEX assessments, not FOL qrels"
        raise ConfigError(f"task {chosen}: the assessments must be {wanted}", "--assessments")
    qa = chosen is not None and TASKS[chosen].unit == "answer"
    if assessments is not None and qa != isinstance(assessments, AnswerSet):
        wanted = "a QA answer file" if qa else "not a QA answer file"
        raise ConfigError(f"task {chosen}: the assessments must be {wanted}", "--assessments")
    if qa:
        from inexeval.validate.answer import validate_qa_run

        return validate_qa_run(path, chosen, assessments, max_results)
    if letter is not None:
        return _validate_fol(path, chosen, letter, assessments)
    if chosen is not None and TASKS[chosen].unit == "document":
        return _validate_trec(path, chosen, assessments)
    unit = _unit_of(chosen)
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
    report.task = _decide_task(chosen, report)
    _check(seen, report, unit, assessments, max_results)
    if chosen is None and report.format == "text" and report.problems and not report.topics and all(
            f.kind == "malformed" and f.message.endswith("found 6") for f in report.problems):
        report.warnings.insert(0, Finding("task", None, None, "every line has 6 columns, as in a TREC run: "
                                                              "check it with --task trec"))
    if report.format == "xml" and unreadable is None:
        _repeated_fields(path, report)
    return report


#: The children of a ``<result>`` whose last one the evaluator reads (module docstring).
_RESULT_FIELDS = ("file", "path", "rank", "rsv")


def _repeated_fields(path: str | Path, report: RunReport) -> None:
    """A warning for each ``<result>`` with two ``<file>``, ``<path>``, ``<rank>`` or ``<rsv>``
    children: evaluation reads the last one, as validation does; the submitter may have meant
    another (a second pass over the file, bounded memory)."""
    from inexeval.readers import safe_iterparse
    from inexeval.readers.runs import RunInput

    found = []
    try:
        with RunInput(path, report.path).open() as stream:
            for _, elem in safe_iterparse(stream, report.path, events=("end",), tag="result"):
                tags = [child.tag for child in elem]
                twice = [t for t in _RESULT_FIELDS if tags.count(t) > 1]
                if twice:
                    topic = elem.getparent().get("topic-id") if elem.getparent() is not None else None
                    found.append(Finding("repeated_field", topic, elem.sourceline,
                                         f"<result> with several {', '.join(f'<{t}>' for t in twice)}: "
                                         "the last one of each is used"))
                elem.clear()
                parent = elem.getparent()  # drop the emptied results too: a topic of 1,000,000 results
                while parent is not None and elem.getprevious() is not None:  # kept them all (issue 15)
                    del parent[0]
    except InputError:  # already reported by the first pass
        return
    report.warnings.extend(found)
    report.warnings.sort(key=lambda f: (f.line is not None, f.line or 0))


def validate_runs(
    paths: Iterable[str | Path],
    *,
    task: str | None = None,
    assessments: Assessments | FolQrels | None = None,
    max_results: int | None = None,
) -> list[RunReport]:
    """``validate_run`` for each path, plus evaluation's verdict on their names (docs/formats.md §9.2.2):
    ``duplicate_run_id`` for a run whose id an earlier run has, ``run_name`` for a run whose result
    files will not be named by its id (unsafe characters, too long, or its name taken by an earlier
    run's, ignoring case).

    FOL runs are named by their file (their RUN_ID is only printed), so they
    may share a run id; two of them with one file name are a ``duplicate_run_id``.
    A run that evaluation refuses (``unreadable``, ``malformed``; FOL: any problem) takes no name.
    """
    reports = [validate_run(p, task=task, assessments=assessments, max_results=max_results) for p in paths]
    names = NameTable()
    first: dict[str, str] = {}
    for r in reports:
        fol = fol_task_letter(r.task) is not None
        refused = any(f.kind in ("unreadable", "malformed") for f in r.problems) or (fol and r.problems)
        if (r.run_id is None and not fol) or refused:  # a FOL run is named by its file, with or without RUN_ID
            continue
        run_name = run_id_from_name(r.path) if fol else r.run_id
        what = "run name (its file name)" if fol else "run id"
        name = names.assign(run_name)
        if name is None:
            r.problems.append(Finding("duplicate_run_id", None, None if fol else r.run_id_line,
                                      f"{what} {run_name!r} is also the {'name' if fol else 'id'} of "
                                      f"{first.get(run_name, '?')}; evaluation skips this run"))
            continue
        first[run_name] = r.path
        if name != run_name:
            plain = file_component(run_name)
            other = names.owner(plain) if name != plain else None
            why = f", as {other!r} ({first.get(other, '?')}) has {plain!r}" if other is not None else ""
            r.warnings.append(Finding("run_name", None, None if fol else r.run_id_line,
                                      f"{what} {run_name!r} will be written as {name!r}{why}"))
    return reports


def exit_status(reports: Sequence[RunReport]) -> int:
    """0 when every run is valid, 1 otherwise."""
    return 0 if all(r.valid for r in reports) else 1


def assessments_from(path: str | Path, *, source: str = "--assessments",
                     task: str | None = None) -> Assessments | FolQrels:
    """Load the assessments under ``path`` (file, directory or glob, docs/config.md) for ``--assessments``.

    For a FOL ``task`` (:func:`fol_task_letter`) ``path`` is one FOL qrels
    file (plain or gzip), read as inex_eval 3.1 reads it.  Raises
    ConfigErrors for an unknown task or when nothing matches, and InputError
    for a bad assessment file.
    """
    from inexeval.readers.assessments import load_assessments

    if fol_task_letter(_required_task(task) if task is not None else None) is not None:
        if str(path) != "-" and not Path(path).is_file():
            raise ConfigError(f"{path}: no such file (the FOL qrels file of the task)", source)
        return read_fol_qrels(path)
    if task is not None and TASKS[_required_task(task)].unit == "answer":
        from inexeval.readers.answers import read_answer_files

        files = expand_paths(str(path), Path.cwd(), "ASSESSMENTS_DIR", source, None)
        answers = read_answer_files([f.path for f in files if f.problem is None])
        if answers.problems:
            raise answers.problems[0]
        return answers
    if task is not None and TASKS[_required_task(task)].unit == "document":
        from inexeval.measures.classic_join import topic_table
        from inexeval.readers.trec import read_qrels

        if str(path) != "-" and not Path(path).is_file():
            raise ConfigError(f"{path}: no such file (the TREC qrels file of the task)", source)
        return topic_table(read_qrels(path))

    files = expand_paths(str(path), Path.cwd(), "ASSESSMENTS_DIR", source, None)
    return load_assessments(files)


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

    def __init__(self) -> None:
        self.issues: list[Issue] = []  # issues of the reading itself (not per topic), in the order found
        self.topics: dict[str, _Topic] = {}

    def issue(self, issue: Issue) -> None:
        if issue.kind in _TOPIC_ISSUES:  # told before the block it is about
            self._topic(issue.topic).issues.append(issue)
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
    """The finite number ``text`` holds, or None."""
    try:
        value = float(text)
    except (ValueError, TypeError):
        return None
    return value if math.isfinite(value) else None


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
    _missing_topics([t for t in known if t not in topics], "assessed topic(s)", report)


def _missing_topics(missing: list[str], what: str, report: RunReport) -> None:
    if missing:
        shown = ", ".join(missing[:_MAX_LISTED])
        more = f" and {len(missing) - _MAX_LISTED} more" if len(missing) > _MAX_LISTED else ""
        report.warnings.append(Finding("missing_topic", None, None,
                                       f"{len(missing)} {what} without results: {shown}{more}"))


# --------------------------------------------------------------------------- FOL passage runs


def _validate_fol(path: str | Path, task: str, letter: str, qrels: FolQrels | None) -> RunReport:
    """A FOL run checked with inex_eval 3.1's checks (module docstring): every finding, in the tool's order."""
    try:
        run = read_fol_run(path)
    except InputError as exc:
        report = RunReport(path=str(exc.file) if exc.file is not None else str(path), format="unknown", task=task)
        report.problems.append(Finding("unreadable", None, exc.line, exc.message))
        return report
    numbers, _, all_fields = run.columns()
    lines = numbers if numbers is not None else range(1, len(all_fields) + 1)
    report = RunReport(path=run.source, format="xml" if run.xml else "text", task=task)
    first_line: dict[str, int] = {}
    per_topic = report.results_per_topic
    for line, fields in zip(lines, all_fields):
        if len(fields) == 8:
            topic = fields[0]
            if topic in per_topic:
                per_topic[topic] += 1
            else:
                per_topic[topic] = 1
                first_line[topic] = line
    report.topics = len(per_topic)
    checked = qrels if qrels is not None else FolQrels({t: FolTopic() for t in per_topic}, "")  # all judged
    for f in fol_findings(checked, run, letter):
        report.problems.append(Finding(f.kind, f.topic, f.line, f.message))
    judged = checked.topics
    _fol_run_ids(lines, all_fields, judged, report)
    _fol_blocks(lines, all_fields, judged, report)
    if not per_topic:
        report.warnings.append(Finding("empty", None, None, "the run has no result"))
    if qrels is not None:
        unjudged = [t for t in per_topic if t not in judged]
        for topic in unjudged:
            report.warnings.append(Finding("unjudged_topic", topic, first_line[topic],
                                           f"topic {topic} is not in the qrels: inex_eval skips its lines"))
        if per_topic and len(unjudged) == len(per_topic):
            report.warnings.append(Finding("empty", None, None, "no result is for a topic of the qrels"))
        _missing_topics([t for t in judged if t not in per_topic], "topic(s) of the qrels", report)
    # problems stay in the tool's order (the first is what evaluation reports); warnings by line
    report.warnings.sort(key=lambda f: (f.line is not None, f.line or 0))
    return report


def _validate_trec(path: str | Path, task: str, table: TopicTable | None) -> RunReport:
    """A TREC run (docs/formats.md §8) read as evaluation reads it: what makes evaluation skip the run
    is its one problem (the reader stops there); with the qrels, what evaluation leaves out (duplicate
    results, topics not in the qrels) are problems, with its messages; several tags are a warning."""
    from inexeval.measures.classic_join import rank_run, run_id_of
    from inexeval.readers.trec import read_run as read_trec_run

    try:
        run = read_trec_run(path)
    except InputError as exc:
        report = RunReport(path=str(exc.file) if exc.file is not None else str(path), format="text", task=task)
        report.problems.append(Finding("malformed", None, exc.line, exc.message))
        return report
    said: list[str] = []
    report = RunReport(path=run.source, format="text", run_id=run_id_of(run, said.append), task=task,
                       run_id_line=int(run.line[0]) if len(run.tags) == 1 and run.line.size else None)
    topics, first = np.unique(run.qid, return_index=True)
    order = np.argsort(first, kind="stable")
    counts = np.bincount(np.searchsorted(topics, run.qid), minlength=topics.size)
    report.results_per_topic = {topics[i].decode("utf-8", "replace"): int(counts[i]) for i in order}
    report.topics = len(report.results_per_topic)
    for message in said:
        report.warnings.append(Finding("run_id", None, None, message))
    if not run.line.size:  # evaluation scores it as a run that retrieved nothing, and warns
        report.warnings.append(Finding("empty", None, None, "the run has no result"))
    if table is not None:
        said.clear()
        rank_run(run, table, warn=said.append)
        for message in said:  # what evaluation leaves out: the verdict is its own
            kind = "duplicate" if "duplicate" in message else "unknown_topic" if "not in the qrels" in message \
                else None
            (report.problems if kind else report.warnings).append(Finding(kind or "run_id", None, None, message))
        _missing_topics([t for t in table.names if t not in report.results_per_topic], "qrels topic(s)", report)
    return report


def _fol_run_ids(lines: Iterable[int], all_fields: list[list[str]], judged: dict, report: RunReport) -> None:
    """The run id the tool prints (RUN_ID of the last line of a judged topic) and a warning if there are several."""
    ids: dict[str, int] = {}
    last = None
    for line, fields in zip(lines, all_fields):
        if len(fields) == 8 and fields[0] in judged:
            last = fields[5]
            ids.setdefault(last, line)
    report.run_id = last
    if len(ids) > 1:
        others = ", ".join(f"{t!r} (line {n})" for t, n in ids.items() if t != last)
        report.warnings.append(Finding("run_id", None, None,
                                       f"several run ids; inex_eval prints the last line's, {last!r}; "
                                       f"also found {others}"))


def _fol_blocks(lines: Iterable[int], all_fields: list[list[str]], judged: dict, report: RunReport) -> None:
    """A ``repeated_topic`` warning for each judged topic whose lines come back after another topic's."""
    seen: set[str] = set()
    warned: set[str] = set()
    current = None
    for line, fields in zip(lines, all_fields):
        if len(fields) != 8 or fields[0] not in judged or fields[0] == current:
            continue  # the tool's state does not change topic on these lines
        topic = fields[0]
        if topic in seen and topic not in warned:
            warned.add(topic)
            report.warnings.append(Finding(
                "repeated_topic", topic, line,
                f"topic {topic} comes back after lines of topic {current}: inex_eval goes on with the ranks and "
                f"articles of {current} (docs/fol.md); group each topic's lines"))
        seen.add(topic)
        current = topic


# --------------------------------------------------------------------------- output


def format_reports(reports: Sequence[RunReport], fmt: str = "text", *, max_per_kind: int | None = 20) -> str:
    """The reports as text or JSON.

    text: per run, a summary line ``file: VALID|INVALID (format, run id,
    task, topics, results (fewest to most per topic); problems, warnings)``, then one line per problem
    ``file:line: kind: message`` and per warning ``file:line: warning: kind:
    message`` (``:line`` omitted when unknown); at most ``max_per_kind``
    lines of each kind per run, then ``file: ... and N more kind``.
    json: a list with one object per run (every field of RunReport and
    ``valid``; every finding, no limit).
    """
    if fmt == "json":
        return json.dumps([_as_json(r) for r in reports], indent=1, ensure_ascii=False)
    if fmt != "text":
        raise ValueError(f"unknown format {fmt!r} (text or json)")
    blocks = []
    for r in reports:
        lines = [_summary(r)]
        lines += _finding_lines(r.path, r.problems, "", max_per_kind)
        lines += _finding_lines(r.path, r.warnings, "warning: ", max_per_kind)
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


def _as_json(r: RunReport) -> dict:
    out = asdict(r)
    out["valid"] = r.valid
    return out


def _summary(r: RunReport) -> str:
    counts = r.results_per_topic.values()
    results = f"{sum(counts)} result(s)"
    if counts:
        results += f" ({min(counts)} to {max(counts)} per topic)"
    status = "VALID" if r.valid else "INVALID"
    parts = [r.format, f"run {cell(r.run_id)}" if r.run_id else "no run id", f"task {r.task or '-'}",
             f"{r.topics} topic(s)", results]
    return (f"{r.path}: {status} ({', '.join(parts)}; "
            f"{len(r.problems)} problem(s), {len(r.warnings)} warning(s))")


def _finding_lines(path: str, findings: list[Finding], prefix: str, limit: int | None) -> list[str]:
    shown: dict[str, int] = {}
    lines = []
    for f in findings:
        shown[f.kind] = shown.get(f.kind, 0) + 1
        if limit is None or shown[f.kind] <= limit:
            where = path if f.line is None else f"{path}:{f.line}"
            lines.append(one_line(f"{where}: {prefix}{f.kind}: {f.message}"))
    if limit is not None:
        lines += [f"{path}: {prefix}... and {n - limit} more {kind}" for kind, n in shown.items() if n > limit]
    return lines
