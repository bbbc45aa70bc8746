"""Run validator: what a participant should fix before submitting (SPEC §1.1, §1.3, §3).

``validate_run`` reads one run file (XML submission or 7-column text run,
gzip allowed) *before* run hygiene, so that it sees every submitted result
with its file line, ``rank`` and ``rsv``, and reports what the evaluator
would drop, warn about or refuse.  It never raises for bad run content:
a file that cannot be read or parsed is a finding of kind ``unreadable``.

Findings and whether they make a run invalid (``RunReport.valid`` is False
iff there is at least one *problem*):

==================== ======= =====================================================
kind                 level   meaning
==================== ======= =====================================================
unreadable           problem cannot read, decompress or parse the file (malformed
                             XML, root not ``<inex-submission>``); checking stops
malformed            problem a line or element the evaluator's reader refuses (text
                             run: not 7 columns, non-integer rank, non-numeric rsv,
                             not UTF-8; XML: ``<result>`` outside ``<topic>``,
                             ``<topic>`` without ``topic-id``); that result is skipped
invalid_path         problem file id or path invalid or missing (SPEC §1.1)
duplicate            problem ``(file, path)`` already returned earlier in the topic
beyond_max_results   problem a topic with more than MAX_RESULTS results (one per topic)
overlap              problem Focussed / BestInContext: a result that is an ancestor
                             or descendant of an earlier result of the topic
interleaved          problem RelevantInContext: an article's results are not
                             contiguous (seed 002: results grouped per article)
unknown_topic        problem with assessments: a topic that is not in the recall-base
duplicate_run_id     problem ``validate_runs``: two runs with the same run id (§9.2)
rank                 warning rank not increasing strictly in document order, or a
                             non-integer ``<rank>`` (one per topic)
rsv                  warning rsv increasing down the ranking (beyond a relative
                             tolerance of 1e-9, SPEC §10), or not a finite number
task                 warning run task attribute unknown, or different from ``--task``
run_id               warning no run id (the file name is used), or several run ids
                             in a text run
empty                warning the run has no result at all
empty_topic          warning an XML ``<topic>`` without results (same as absent)
repeated_topic       warning a topic id that reappears after another topic
repeated_article     warning BestInContext: a second, non-overlapping result of an
                             article (the evaluator drops it, SPEC §7)
missing_topic        warning with assessments: recall-base topics absent from the run
==================== ======= =====================================================

Which results each check looks at (as the evaluator, SPEC §1.3): ``rank`` and
``rsv`` look at every submitted result; ``invalid_path`` and ``duplicate``
at the first MAX_RESULTS of a topic; ``overlap``, ``interleaved`` and
``repeated_article`` at what the evaluator keeps (the first MAX_RESULTS,
valid, duplicates removed).  A rank or rsv that is absent (XML) is skipped:
the next present value is compared with the last present one.

The task used for the task-specific checks is ``task`` when given (any name
or alias of SPEC §3; an unknown one is a :class:`~inexeval.errors.ConfigError`),
otherwise the run's ``task`` attribute when it names a known task.
"""

from __future__ import annotations

import difflib
import io
import json
import math
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import NamedTuple

import numpy as np

from inexeval.config import expand_paths
from inexeval.errors import ConfigError, InputError, InvalidPath
from inexeval.model import Assessments
from inexeval.paths import is_ancestor, normalise_file_id, normalise_path, parent
from inexeval.readers import refuse_entity_declarations, release, safe_iterparse
from inexeval.readers.runs import BOM, SUBMISSION_ROOT, read_run_bytes, run_id_from_name
from inexeval.tasks import DEFAULT_MAX_RESULTS, TASKS, find_task, unknown_task_message

__all__ = [
    "Finding",
    "RunReport",
    "PROBLEM_KINDS",
    "WARNING_KINDS",
    "canonical_task",
    "validate_run",
    "validate_runs",
    "format_reports",
    "exit_status",
    "assessments_from",
]

PROBLEM_KINDS = (
    "unreadable", "malformed", "invalid_path", "duplicate", "beyond_max_results",
    "overlap", "interleaved", "unknown_topic", "duplicate_run_id",
)
WARNING_KINDS = (
    "rank", "rsv", "task", "run_id", "empty", "empty_topic", "repeated_topic",
    "repeated_article", "missing_topic",
)
#: Relative tolerance of the rsv comparison (SPEC §10).
from inexeval.numeric import TOLERANCE as RSV_RTOL  # noqa: E402
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


class _Raw(NamedTuple):
    """One submitted result as written, before any normalisation."""

    topic: str
    file: str | None
    path: str | None
    rank: str | None
    rsv: str | None
    line: int | None


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


# --------------------------------------------------------------------------- public API


def validate_run(
    path: str | Path,
    *,
    task: str | None = None,
    assessments: Assessments | None = None,
    max_results: int = DEFAULT_MAX_RESULTS,
) -> RunReport:
    """Check one run file and report every finding of the module table.

    ``task`` (a SPEC §3 name) selects the task-specific checks; without it
    the run's ``task`` attribute does, if it names a known task.  With
    ``assessments``, topics outside the recall-base are problems and
    recall-base topics absent from the run are a warning.  Raises only
    :class:`~inexeval.errors.ConfigError` for an unknown ``task`` or a
    ``max_results`` below 1 (caller errors); bad run content is reported.
    """
    chosen = _required_task(task) if task is not None else None
    if max_results < 1:
        raise ConfigError(f"MAX_RESULTS must be a positive integer, got {max_results}", "--max-results")
    source = "<stdin>" if str(path) == "-" else str(path)
    report = RunReport(path=source, format="unknown")
    try:
        data = read_run_bytes(path, source)
    except InputError as exc:
        report.problems.append(Finding("unreadable", None, exc.line, exc.message))
        return report
    if data.startswith(BOM):
        data = data[len(BOM):]
    if data.lstrip()[:1] == b"<":
        report.format = "xml"
        raws = _read_xml(data, source, report)
    else:
        report.format = "text"
        raws = _read_text(data, report)
    if not report.run_id:
        report.run_id = run_id_from_name(source)
        if report.format == "xml" and not any(f.kind == "unreadable" for f in report.problems):
            report.warnings.append(Finding("run_id", None, None, f"no run-id; the file name {report.run_id!r} is used"))
    report.task = _decide_task(chosen, report)
    _check(raws, report, assessments, max_results)
    return report


def validate_runs(
    paths: Iterable[str | Path],
    *,
    task: str | None = None,
    assessments: Assessments | None = None,
    max_results: int = DEFAULT_MAX_RESULTS,
) -> list[RunReport]:
    """``validate_run`` for each path, plus ``duplicate_run_id`` across them (SPEC §9.2)."""
    reports = [validate_run(p, task=task, assessments=assessments, max_results=max_results) for p in paths]
    first: dict[str, str] = {}
    for r in reports:
        if r.run_id is None or any(f.kind == "unreadable" for f in r.problems):
            continue
        if r.run_id in first:
            r.problems.append(Finding("duplicate_run_id", None, None,
                                      f"run id {r.run_id!r} is also the id of {first[r.run_id]}"))
        else:
            first[r.run_id] = r.path
    return reports


def exit_status(reports: Sequence[RunReport]) -> int:
    """0 when every run is valid, 1 otherwise."""
    return 0 if all(r.valid for r in reports) else 1


def assessments_from(path: str | Path, *, source: str = "--assessments") -> Assessments:
    """Load the assessments under ``path`` (file, directory or glob, SPEC §2.1) for ``--assessments``.

    Raises ConfigErrors when nothing matches and InputError for a bad assessment file.
    """
    from inexeval.readers.assessments import load_assessments

    files = expand_paths(str(path), Path.cwd(), "ASSESSMENTS_DIR", source, None)
    return load_assessments(files)


# --------------------------------------------------------------------------- reading


def _read_xml(data: bytes, source: str, report: RunReport) -> list[_Raw]:
    """Every ``<result>`` of an ``<inex-submission>`` as written; run id and task into ``report``."""
    raws: list[_Raw] = []
    root = None
    topic_elem = None  # the <topic> of the previous result
    topic: str | None = None
    try:
        refuse_entity_declarations(data, source)
        events = safe_iterparse(io.BytesIO(data), source, events=("end",), tag=("result", "topic", SUBMISSION_ROOT))
        for _event, elem in events:
            if root is None:
                root = elem.getroottree().getroot()
                if root.tag != SUBMISSION_ROOT:
                    report.problems.append(Finding(
                        "unreadable", None, root.sourceline,
                        f"not an INEX submission: root element is <{root.tag}>, expected <{SUBMISSION_ROOT}>"))
                    return raws
                report.run_id = (root.get("run-id") or "").strip() or None
                report.run_task = (root.get("task") or "").strip() or None
            if elem.tag == "result":
                par = elem.getparent()
                if par is not topic_elem:
                    topic_elem, topic = par, _topic_of(par, report)
                if topic is not None:
                    raws.append(_xml_result(elem, topic))
                release(elem)
            elif elem.tag == "topic":
                if elem is not topic_elem:
                    tid = (elem.get("topic-id") or "").strip()
                    report.warnings.append(Finding("empty_topic", tid or None, elem.sourceline,
                                                   f'<topic topic-id="{tid}"> has no result (same as absent)'))
                topic_elem = None
                release(elem)
    except InputError as exc:
        report.problems.append(Finding("unreadable", None, exc.line, exc.message))
        return raws
    if root is None:
        report.problems.append(Finding("unreadable", None, None, f"not an INEX submission: no <{SUBMISSION_ROOT}> element"))
    return raws


def _topic_of(par, report: RunReport) -> str | None:
    """The topic id of a result's parent, or None (reported) if it is not a ``<topic>`` with an id.

    Called once per block of consecutive results with the same parent.
    """
    if par is None or par.tag != "topic":
        report.problems.append(Finding("malformed", None, None if par is None else par.sourceline,
                                       "<result> outside <topic>; its results are skipped"))
        return None
    tid = (par.get("topic-id") or "").strip()
    if not tid:
        report.problems.append(Finding("malformed", None, par.sourceline,
                                       "<topic> without a topic-id attribute; its results are skipped"))
        return None
    return tid


def _xml_result(elem, topic: str) -> _Raw:
    values: dict[str, str | None] = {}
    for child in elem:
        if child.tag in ("file", "path", "rank", "rsv") and child.tag not in values:
            values[child.tag] = child.text
    return _Raw(topic, values.get("file"), values.get("path"), values.get("rank"), values.get("rsv"),
                elem.sourceline)


def _read_text(data: bytes, report: RunReport) -> list[_Raw]:
    """``topic Q0 file rank rsv run-id path`` lines; refused lines are ``malformed`` problems."""
    raws: list[_Raw] = []
    tags: dict[str, int] = {}  # run tag -> first line
    for lineno, raw_line in enumerate(data.split(b"\n"), 1):
        try:
            line = raw_line.decode("utf-8")
        except UnicodeDecodeError:
            report.problems.append(Finding("malformed", None, lineno, "line is not valid UTF-8"))
            continue
        cols = line.split()
        if not cols:
            continue
        if len(cols) != 7:
            report.problems.append(Finding(
                "malformed", None, lineno,
                f"expected 7 columns 'topic Q0 file rank rsv run-id path', found {len(cols)}"))
            continue
        topic, _q0, file_raw, rank_raw, rsv_raw, tag, path_raw = cols
        if _int(rank_raw) is None:
            report.problems.append(Finding("malformed", topic, lineno, f"rank {rank_raw!r} is not an integer"))
            continue
        try:
            float(rsv_raw)
        except ValueError:
            report.problems.append(Finding("malformed", topic, lineno, f"score {rsv_raw!r} is not a number"))
            continue
        tags.setdefault(tag, lineno)
        raws.append(_Raw(topic, file_raw, path_raw, rank_raw, rsv_raw, lineno))
    if tags:
        report.run_id = next(iter(tags))
    if len(tags) > 1:
        others = ", ".join(f"{t!r} (line {n})" for t, n in list(tags.items())[1:])
        report.warnings.append(Finding("run_id", None, None,
                                       f"several run tags; {report.run_id!r} is used, also found {others}"))
    return raws


def _int(text: str) -> int | None:
    try:
        return int(text)
    except ValueError:
        return None


def _float(text: str) -> float | None:
    try:
        value = float(text)
    except ValueError:
        return None
    return value if math.isfinite(value) else None


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


def _check(raws: list[_Raw], report: RunReport, assessments: Assessments | None, max_results: int) -> None:
    by_topic: dict[str, list[_Raw]] = {}
    previous: str | None = None
    for r in raws:
        if r.topic != previous and r.topic in by_topic:
            report.warnings.append(Finding("repeated_topic", r.topic, r.line,
                                           f"topic {r.topic} reappears after other topics (it continues)"))
        by_topic.setdefault(r.topic, []).append(r)
        previous = r.topic
    report.results_per_topic = {t: len(rs) for t, rs in by_topic.items()}
    report.topics = len(by_topic)
    if not by_topic and not report.problems:
        report.warnings.append(Finding("empty", None, None, "the run has no result"))
    checks = TASKS[report.task].run_checks if report.task else frozenset()
    for topic, rs in by_topic.items():
        kept = _hygiene(topic, rs, report, max_results)
        if "overlap" in checks:
            _check_overlap(topic, kept, report, repeated_article="one_per_article" in checks)
        if "contiguous_articles" in checks:
            _check_contiguous(topic, kept, report)
        _check_ranks(topic, rs, report)
        _check_rsv(topic, rs, report)
    if assessments is not None:
        _check_topics(by_topic, report, assessments)
    # run-level findings (no line) first, then in file order; stable within a line
    for findings in (report.problems, report.warnings):
        findings.sort(key=lambda f: (f.line is not None, f.line or 0))


def _hygiene(topic: str, rs: list[_Raw], report: RunReport, max_results: int) -> list[_Kept]:
    """SPEC §1.3 in order: cut at MAX_RESULTS, skip invalid, drop duplicates; return what is kept."""
    if len(rs) > max_results:
        extra = len(rs) - max_results
        report.problems.append(Finding(
            "beyond_max_results", topic, rs[max_results].line,
            f"topic {topic}: {len(rs)} results, the {extra} beyond MAX_RESULTS={max_results} are dropped"))
    kept: list[_Kept] = []
    first_line: dict[tuple[str, str], int | None] = {}
    for r in rs[:max_results]:
        try:
            if r.file is None:
                raise InvalidPath("missing <file>")
            fid = normalise_file_id(r.file)
            if r.path is None:
                raise InvalidPath("missing <path>")
            key = (fid, normalise_path(r.path))
        except InvalidPath as exc:
            report.problems.append(Finding("invalid_path", topic, r.line, f"topic {topic}: {exc}"))
            continue
        if key in first_line:
            report.problems.append(Finding(
                "duplicate", topic, r.line,
                f"topic {topic}: {key[0]} {key[1]} already returned{_at(first_line[key])}"))
            continue
        first_line[key] = r.line
        kept.append(_Kept(key[0], key[1], r.line))
    return kept


def _at(line: int | None) -> str:
    return "" if line is None else f" at line {line}"


def _check_overlap(topic: str, kept: list[_Kept], report: RunReport, *, repeated_article: bool) -> None:
    """Focussed / BestInContext: no result may overlap an earlier one (SPEC §1.1 overlap).

    Per file, ``returned`` holds the results so far and ``below`` maps every
    proper ancestor of a returned result to that result; a new path overlaps
    iff one of its proper ancestors is in ``returned`` or it is in ``below``
    (O(depth) per result).  With ``repeated_article`` (BestInContext, one
    result per article, SPEC §7) a non-overlapping later result of an
    article is a warning.
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
            report.problems.append(Finding(
                "overlap", topic, k.line,
                f"topic {topic}: {k.file} {k.path} {how} the earlier result {other.path}{_at(other.line)}"))
        elif repeated_article and done:
            first = next(iter(done.values()))
            report.warnings.append(Finding(
                "repeated_article", topic, k.line,
                f"topic {topic}: second result in article {k.file} (first{_at(first.line)}); "
                "only the first counts in Best in Context"))
        done.setdefault(k.path, k)
        up = parent(k.path)
        while up is not None:
            under.setdefault(up, k)
            up = parent(up)


def _check_contiguous(topic: str, kept: list[_Kept], report: RunReport) -> None:
    """RelevantInContext: each article's results form one block of the ranking (seed 002 §6.1)."""
    last_line: dict[str, int | None] = {}  # file -> line of its latest result
    current: str | None = None
    for k in kept:
        if k.file != current and k.file in last_line:
            report.problems.append(Finding(
                "interleaved", topic, k.line,
                f"topic {topic}: article {k.file} resumes after other articles "
                f"(its previous result{_at(last_line[k.file])})"))
        last_line[k.file] = k.line
        current = k.file


def _parsed(rs: list[_Raw], field_name: str, parse):
    """The parseable values of one field (with their lines), the count of unparseable ones and the first."""
    values: list = []
    lines: list[int | None] = []
    bad_text: _Raw | None = None
    n_bad_text = 0
    for r in rs:
        raw = getattr(r, field_name)
        if raw is None:
            continue
        v = parse(raw)
        if v is None:
            n_bad_text += 1
            bad_text = bad_text or r
            continue
        values.append(v)
        lines.append(r.line)
    return values, lines, n_bad_text, bad_text


def _check_ranks(topic: str, rs: list[_Raw], report: RunReport) -> None:
    """Ranks must increase strictly in document order (any start, gaps allowed; SPEC §1.3)."""
    values, lines, n_bad_text, bad_text = _parsed(rs, "rank", _int)
    if n_bad_text:
        report.warnings.append(Finding(
            "rank", topic, bad_text.line,
            f"topic {topic}: {n_bad_text} non-integer rank value(s) ignored, first {bad_text.rank.strip()!r}"))
    if len(values) < 2:
        return
    try:
        ranks = np.array(values, dtype=np.int64)
    except OverflowError:
        ranks = np.array(values, dtype=object)
    bad = np.flatnonzero(ranks[1:] <= ranks[:-1]) + 1
    if bad.size:
        i = int(bad[0])
        report.warnings.append(Finding(
            "rank", topic, lines[i],
            f"topic {topic}: rank does not increase at {bad.size} result(s), first rank {values[i]} "
            f"after {values[i - 1]}; document order is the ranking"))


def _check_rsv(topic: str, rs: list[_Raw], report: RunReport) -> None:
    """rsv must not increase down the ranking: rsv[i] > rsv[i-1] beyond 1e-9 relative (SPEC §10)."""
    values, lines, n_bad_text, bad_text = _parsed(rs, "rsv", _float)
    if n_bad_text:
        report.warnings.append(Finding(
            "rsv", topic, bad_text.line,
            f"topic {topic}: {n_bad_text} rsv value(s) not a finite number, first {bad_text.rsv.strip()!r}"))
    if len(values) < 2:
        return
    rsv = np.array(values, dtype=np.float64)
    a, b = rsv[:-1], rsv[1:]
    with np.errstate(over="ignore"):
        up = (b > a) & (b - a > RSV_RTOL * np.maximum(np.abs(a), np.abs(b)))
    bad = np.flatnonzero(up) + 1
    if bad.size:
        i = int(bad[0])
        report.warnings.append(Finding(
            "rsv", topic, lines[i],
            f"topic {topic}: rsv increases down the ranking at {bad.size} result(s), first "
            f"{values[i]!r} after {values[i - 1]!r}"))


def _check_topics(by_topic: dict[str, list[_Raw]], report: RunReport, assessments: Assessments) -> None:
    known = assessments.topics
    for topic, rs in by_topic.items():
        if topic not in known:
            report.problems.append(Finding("unknown_topic", topic, rs[0].line,
                                           f"topic {topic} is not in the assessments"))
    missing = [t for t in known if t not in by_topic]
    if missing:
        shown = ", ".join(missing[:_MAX_LISTED])
        more = f" and {len(missing) - _MAX_LISTED} more" if len(missing) > _MAX_LISTED else ""
        report.warnings.append(Finding("missing_topic", None, None,
                                       f"{len(missing)} assessed topic(s) without results: {shown}{more}"))


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
    parts = [r.format, f"run {r.run_id}" if r.run_id else "no run id", f"task {r.task or '-'}",
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
            lines.append(f"{where}: {prefix}{f.kind}: {f.message}")
    if limit is not None:
        lines += [f"{path}: {prefix}... and {n - limit} more {kind}" for kind, n in shown.items() if n > limit]
    return lines
