"""``inexeval validate --task trec``: TREC runs read as evaluation reads them (docs/formats.md §8), against
the TREC qrels file when given."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from inexeval.errors import ConfigError, InputError
from inexeval.measures.classic_join import TopicTable
from inexeval.readers import named_file_problem
from inexeval.validate.report import Finding, RunReport, missing_topics, refused

__all__ = ["validate_trec_run", "read_trec_assessments"]


def validate_trec_run(path: str | Path, task: str, table: TopicTable | None, max_results: int) -> RunReport:
    """A TREC run (docs/formats.md §8) read as evaluation reads it: what makes evaluation skip the run
    is its one problem (the reader stops there); with the qrels, what evaluation leaves out (duplicate
    results, topics not in the qrels) are problems, with its messages; several tags are a warning.
    ``max_results`` does not apply (evaluation cuts results off as trec_eval -M does, which no run fails)."""
    from inexeval.measures.classic_join import Dropped, ranked, ranking_warnings, run_id_of
    from inexeval.readers.trec import read_run as read_trec_run

    try:
        run = read_trec_run(path)
    except InputError as exc:
        return refused(exc.file if exc.file is not None else str(path), task, exc, kind="malformed", fmt="text")
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
    if table is not None:  # what evaluation leaves out, with its messages: the verdict is its own
        _, _, unknown_ids, dropped = ranked(run, table)
        own = f"{run.source}: "  # (the report names the file)
        for message in ranking_warnings(run.source, unknown_ids, Dropped()):
            report.problems.append(Finding("unknown_topic", None, None, message.removeprefix(own)))
        for message in ranking_warnings(run.source, [], dropped):
            report.problems.append(Finding("duplicate", dropped.topic.decode("utf-8", "replace"), dropped.line,
                                           message.removeprefix(own)))
        missing_topics([t for t in table.names if t not in report.results_per_topic], "qrels topic(s)", report)
    return report


def read_trec_assessments(path: str | Path, source: str) -> TopicTable:
    """The TREC qrels file ``path``, as the classic measures read it."""
    from inexeval.measures.classic_join import topic_table
    from inexeval.readers.trec import read_qrels

    problem = named_file_problem(path)
    if problem is not None:
        raise ConfigError(f"{path}: {problem} (the TREC qrels file of the task)", source)
    return topic_table(read_qrels(path))
