"""What validation finds and how it is shown: :class:`Finding`, :class:`RunReport`, the text and JSON
output (:func:`format_reports`), the exit status, and the ``missing_topic`` warning that every unit's
checks give (the kinds and their levels: the table of :mod:`inexeval.validate`).
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from inexeval.errors import cut_long
from inexeval.names import cell, one_line
from inexeval.records import asdict, field, record

__all__ = [
    "Finding",
    "RunReport",
    "PROBLEM_KINDS",
    "WARNING_KINDS",
    "missing_topics",
    "refused",
    "exit_status",
    "format_reports",
]

PROBLEM_KINDS = (
    "unreadable", "malformed", "invalid_path", "duplicate", "beyond_max_results",
    "overlap", "interleaved", "multiple_results", "negative_length", "int_overflow", "would_crash",
    "unknown_topic", "duplicate_run_id",
)
WARNING_KINDS = (
    "rank", "rsv", "task", "run_id", "empty", "empty_topic", "repeated_topic",
    "repeated_article", "unjudged_topic", "missing_topic", "duplicate_rank", "empty_answer",
)
#: Topics listed in one missing_topic warning before "and N more".
_MAX_LISTED = 20


@record(frozen=True)
class Finding:
    """One thing found in a run: ``kind`` (the table of :mod:`inexeval.validate`), topic, file line, message."""

    kind: str
    topic: str | None
    line: int | None
    message: str

    def __post_init__(self) -> None:
        # a long quoted value cut as in every error message (inexeval.errors.cut_long)
        object.__setattr__(self, "message", cut_long(self.message))


@record
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


def refused(path: str, task: str | None, exc, *, kind: str = "unreadable", fmt: str = "unknown") -> RunReport:
    """The report of a run its reader refused: one ``kind`` problem with the reader's InputError ``exc``
    (its line and message), the run shown as ``path``."""
    report = RunReport(path=path, format=fmt, task=task)
    report.problems.append(Finding(kind, None, exc.line, exc.message))
    return report


def missing_topics(missing: list[str], what: str, report: RunReport) -> None:
    """A ``missing_topic`` warning listing the topics of the judgements (``what`` they are) without
    results in the run, if any."""
    if missing:
        shown = ", ".join(missing[:_MAX_LISTED])
        more = f" and {len(missing) - _MAX_LISTED} more" if len(missing) > _MAX_LISTED else ""
        report.warnings.append(Finding("missing_topic", None, None,
                                       f"{len(missing)} {what} without results: {shown}{more}"))


def exit_status(reports: Sequence[RunReport]) -> int:
    """0 when every run is valid, 1 otherwise."""
    return 0 if all(r.valid for r in reports) else 1


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
