"""Which checks a run gets: :func:`validate_run` picks the checks and the assessments loader of the
task's result unit from :data:`UNIT_CHECKS` (a table keyed by unit name, as :data:`inexeval.inputs.UNITS`
is); :func:`validate_runs` adds evaluation's verdict on the runs' names; :func:`assessments_from` reads
``--assessments`` as the task's unit reads its judgements.

The task used for the task-specific checks is ``task`` when given (any name
or alias of docs/measures.md §3; an unknown one is a :class:`~inexeval.errors.ConfigError`),
otherwise the run's ``task`` attribute when it names a known task.  A run is
read as a FOL passage run only when ``task`` names a FOL task (and as a TREC
or QA run only when ``task`` names such a task); without ``task`` it is an
INEX element run.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from inexeval.errors import ConfigError
from inexeval.measures.classic_join import TopicTable
from inexeval.model import Assessments
from inexeval.names import NameTable, file_component
from inexeval.readers.answers import AnswerSet
from inexeval.readers.fol import FolQrels
from inexeval.readers.runs import run_id_from_name
from inexeval.records import record
from inexeval.tasks import DEFAULT_MAX_RESULTS, TASKS
from inexeval.validate import answer, document, element, passage
from inexeval.validate.report import Finding, RunReport
from inexeval.validate.task import fol_task_letter, required_task

__all__ = ["UNIT_CHECKS", "UnitChecks", "validate_run", "validate_runs", "assessments_from"]


@record(frozen=True)
class UnitChecks:
    """How ``inexeval validate`` checks the runs of one result unit (``Task.unit``)."""

    #: ``(path, task, assessments, max_results)`` -> the run's report (``task``: canonical, or None)
    check: Callable[[str | Path, str | None, Any, int], RunReport]
    #: ``(path, source)`` -> the judgements ``--assessments`` names, as this unit reads them
    read_assessments: Callable[[str | Path, str], Any]
    #: the type of judgements only this unit's runs are checked against (None: INEX assessments)
    assessments: type | None = None
    #: True when ``read_assessments`` takes ANSWER_MATCH (``answer_match=``), as evaluation reads them with it
    takes_answer_match: bool = False


#: The result units validate checks (:data:`inexeval.tasks.UNIT_FACTS`), by name.
UNIT_CHECKS: dict[str, UnitChecks] = {
    "element": UnitChecks(element.validate_element_run, element.read_inex_assessments),
    "document": UnitChecks(document.validate_trec_run, document.read_trec_assessments, TopicTable),
    "passage": UnitChecks(passage.validate_fol_run, passage.read_fol_assessments, FolQrels),
    "answer": UnitChecks(answer.validate_qa_run, answer.read_answer_assessments, AnswerSet, True),
}
#: The checks of a run checked for no task (an INEX run, whatever its ``task`` attribute says).
_NO_TASK = UNIT_CHECKS["element"]

#: The judgements that belong to one unit (:attr:`UnitChecks.assessments`), in the order they are
#: checked: their type, what a run of that unit must be given, what a run of another unit must be given.
_OWN_ASSESSMENTS = (
    (TopicTable, "a TREC qrels file", "INEX assessments, not TREC qrels"),
    (FolQrels, "a FOL qrels file", "INEX assessments, not FOL qrels"),
    (AnswerSet, "a QA answer file", "not a QA answer file"),
)


def _checks_of(task: str | None) -> UnitChecks:
    """The checks of the runs of ``task`` (canonical); an INEX run's when no task is given or its unit
    has no entry."""
    return UNIT_CHECKS.get(TASKS[task].unit, _NO_TASK) if task is not None else _NO_TASK


def validate_run(
    path: str | Path,
    *,
    task: str | None = None,
    assessments: Assessments | FolQrels | None = None,
    max_results: int | None = None,
) -> RunReport:
    """Check one run file and report every finding of the table of :mod:`inexeval.validate`.

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
    chosen = required_task(task) if task is not None else None
    if max_results is None:  # the task's MAX_RESULTS (L' = 5 for qa)
        max_results = (TASKS[chosen].max_results if chosen is not None else None) or DEFAULT_MAX_RESULTS
    if max_results < 1:
        raise ConfigError(f"MAX_RESULTS must be a positive integer, got {max_results}", "--max-results")
    fol_task_letter(chosen)  # a ConfigError for a passage task inex_eval 3.1 has no option for
    checks = _checks_of(chosen)
    if assessments is not None:
        for kind, own, other in _OWN_ASSESSMENTS:
            mine = checks.assessments is kind
            if mine != isinstance(assessments, kind):
                raise ConfigError(f"task {chosen}: the assessments must be {own if mine else other}",
                                  "--assessments")
    return checks.check(path, chosen, assessments, max_results)


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


def assessments_from(path: str | Path, *, source: str = "--assessments", task: str | None = None,
                     answer_match: str | None = None) -> Assessments | FolQrels:
    """Load the assessments under ``path`` (file, directory or glob, docs/config.md) for ``--assessments``.

    For a FOL ``task`` (:func:`fol_task_letter`) ``path`` is one FOL qrels
    file (plain or gzip), read as inex_eval 3.1 reads it; for ``qa``, the
    answer files read with ``answer_match`` (ANSWER_MATCH, default
    ``normalised``), the questions evaluation leaves out listed.  Raises
    ConfigErrors for an unknown task or when nothing matches, and InputError
    for a bad assessment file.
    """
    chosen = required_task(task) if task is not None else None
    fol_task_letter(chosen)  # a ConfigError for a passage task inex_eval 3.1 has no option for
    checks = _checks_of(chosen)
    if checks.takes_answer_match and answer_match is not None:
        return checks.read_assessments(path, source, answer_match=answer_match)
    return checks.read_assessments(path, source)
