"""``inexeval validate`` on FOL passage runs (docs/fol.md).

Passage runs of the INEX 2007-2010 FOL tasks (a task whose strategy is in
:data:`~inexeval.validate.task.FOL_STRATEGIES`: 8-column text or INEX 2008 XML FOL runs) are read
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
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from inexeval.errors import ConfigError, InputError
from inexeval.measures.fol import fol_findings
from inexeval.readers import named_file_problem
from inexeval.readers.fol import FolQrels, FolTopic, read_fol_qrels, read_fol_run
from inexeval.validate.report import Finding, RunReport, missing_topics, refused
from inexeval.validate.task import fol_task_letter

__all__ = ["validate_fol_run", "read_fol_assessments"]


def validate_fol_run(path: str | Path, task: str, qrels: FolQrels | None, max_results: int) -> RunReport:
    """A FOL run checked with inex_eval 3.1's checks (module docstring): every finding, in the tool's order.
    ``max_results`` does not apply (every line counts, as inex_eval counts them)."""
    letter = fol_task_letter(task)
    try:
        run = read_fol_run(path)
    except InputError as exc:
        return refused(exc.file if exc.file is not None else str(path), task, exc)
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
        missing_topics([t for t in judged if t not in per_topic], "topic(s) of the qrels", report)
    # problems stay in the tool's order (the first is what evaluation reports); warnings by line
    report.warnings.sort(key=lambda f: (f.line is not None, f.line or 0))
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


def read_fol_assessments(path: str | Path, source: str) -> FolQrels:
    """The FOL qrels file ``path`` (plain or gzip), read as inex_eval 3.1 reads it."""
    problem = named_file_problem(path)
    if problem is not None:
        raise ConfigError(f"{path}: {problem} (the FOL qrels file of the task)", source)
    return read_fol_qrels(path)
