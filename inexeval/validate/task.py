"""Which task a run is checked for: ``--task`` (any name or alias of docs/measures.md §3) or the run's
own ``task`` attribute, and the FOL tasks' inex_eval 3.1 option letter."""

from __future__ import annotations

from inexeval.errors import ConfigError
from inexeval.tasks import TASKS, find_task, unknown_task_message

__all__ = ["FOL_STRATEGIES", "canonical_task", "required_task", "fol_task_letter"]

#: The FOL tasks (passage runs, docs/fol.md), by their task row's strategy: inex_eval 3.1's task option
#: (the task table's ``tool_option``).
FOL_STRATEGIES = {t.strategy: t.tool_option for t in TASKS.values() if t.tool_option is not None}


def canonical_task(name: str) -> str | None:
    """The canonical name of the task called ``name`` (inexeval.tasks), or None."""
    task = find_task(name)
    return None if task is None else task.name


def required_task(name: str) -> str:
    """The canonical name of the task called ``name``; ConfigError (``--task``) for an unknown one."""
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

