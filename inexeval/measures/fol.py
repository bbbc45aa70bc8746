"""The computation of inex_eval 3.1 (INEX 2007-2010 FOL tasks) (first version: stub)."""

from __future__ import annotations

from dataclasses import dataclass, field

from inexeval.errors import InputError
from inexeval.readers.fol import FolQrels, FolRunFile

FOL_TASKS = ("t", "f", "r", "b", "i")


@dataclass
class FolOutcome:
    run_id: str
    rejected: list[str] | None = None
    impossible: list[str] = field(default_factory=list)
    topics: list[str] = field(default_factory=list)
    per_topic: dict[str, dict[str, int | float]] = field(default_factory=dict)
    all: dict[str, int | float] = field(default_factory=dict)
    death: InputError | None = None
    printed_before_death: int = 0


def score_fol_run(qrels: FolQrels, run: FolRunFile, task: str, *, complete: bool = False, n: int = 500,
                  beta: float = 0.25, irr: int = 300, run_label: str | None = None) -> FolOutcome:
    raise NotImplementedError
