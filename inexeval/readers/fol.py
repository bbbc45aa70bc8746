"""Reader of INEX 2007-2010 passage ("FOL") qrels and runs, as inex_eval 3.1 reads them (first version: stub)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from inexeval.errors import InputError

__all__ = ["FolJudgement", "FolTopic", "FolQrels", "FolLine", "FolRunFile", "read_fol_qrels", "read_fol_run"]


@dataclass(slots=True)
class FolJudgement:
    rel_chars: int
    doc_length: int
    bep: int = -1
    passages: list[tuple[int, int]] = field(default_factory=list)


@dataclass(slots=True)
class FolTopic:
    num_rel: int = 0
    rel_size: int = 0
    judgements: dict[str, FolJudgement] = field(default_factory=dict)


@dataclass(slots=True)
class FolQrels:
    topics: dict[str, FolTopic]
    source: str


class FolLine(NamedTuple):
    line: int
    raw: str
    fields: list[str]


@dataclass(slots=True)
class FolRunFile:
    source: str
    lines: list[FolLine]
    xml: bool = False


def read_fol_qrels(path) -> FolQrels:
    raise NotImplementedError


def read_fol_run(path) -> FolRunFile:
    raise NotImplementedError
