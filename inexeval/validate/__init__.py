"""Run validator: what a participant should fix before submitting (docs/formats.md §1.1, §1.3; docs/measures.md §3).

``validate_run`` reads one run file (XML submission or text run, gzip
allowed) with the evaluator's own reader (:class:`~inexeval.readers.runs.RunReader`),
recording every issue it finds with its line instead of stopping at the
first, and every submitted result with its ``rsv``; it reports what the
evaluator would drop, warn about or refuse, and adds its own checks: the
task's run checks, rsv order, topics against the assessments, run ids used
twice.  It never raises for bad run content: a file that cannot be read or
parsed is a finding of kind ``unreadable``.

One module per job, each importing only those above it in this list:

- :mod:`~inexeval.validate.report`: :class:`Finding`, :class:`RunReport`, the text and JSON output
  (:func:`format_reports`), :func:`exit_status`;
- :mod:`~inexeval.validate.task`: the task a run is checked for (:func:`canonical_task`,
  :func:`fol_task_letter`);
- one module per result unit, each with its run checks and its assessments loader:
  :mod:`~inexeval.validate.element` (INEX element runs), :mod:`~inexeval.validate.document` (TREC
  runs), :mod:`~inexeval.validate.passage` (FOL passage runs), :mod:`~inexeval.validate.answer`
  (question-answering runs);
- :mod:`~inexeval.validate.dispatch`: :func:`validate_run`, :func:`validate_runs`,
  :func:`assessments_from`, which pick the unit's checks from a table keyed by unit name.

The public names below are importable from here (``from inexeval.validate import validate_runs``).

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
int_overflow         problem FOL: where inex_eval 3.1's 32-bit int arithmetic would wrap
                             around (a qrels passage ending past 2^31 - 1, sizes adding up
                             past it, a distance past it): evaluation does not score the run
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
task's 5 unless given).  TREC runs (``--task trec``) are read by the TREC reader
(:mod:`inexeval.validate.document`), FOL runs by the FOL reader
(:mod:`inexeval.validate.passage`), the others by the INEX run reader
(:mod:`inexeval.validate.element`, which says which results each check looks at).

The task used for the task-specific checks is ``task`` when given (any name
or alias of docs/measures.md §3; an unknown one is a :class:`~inexeval.errors.ConfigError`),
otherwise the run's ``task`` attribute when it names a known task.  A run is
read as a FOL passage run only when ``task`` names a FOL task.
"""

from __future__ import annotations

from inexeval.validate.dispatch import assessments_from, validate_run, validate_runs
from inexeval.validate.report import PROBLEM_KINDS, WARNING_KINDS, Finding, RunReport, exit_status, format_reports
from inexeval.validate.task import FOL_STRATEGIES, canonical_task, fol_task_letter

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
