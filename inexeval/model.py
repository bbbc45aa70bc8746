"""The data that readers produce and measures consume.

Readers build these once; every measure and setting shares them.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from pathlib import Path
from typing import NamedTuple

from inexeval.records import field, record

#: Exhaustivity codes. ``?`` (too small) is kept apart from an explicit 0
#: because genLifted treats it as relevant (docs/measures.md §4.1); ``None`` is unknown
#: (2006 specificity-only assessments).
E_TOO_SMALL = -1


@record(slots=True)
class Judgement:
    """One assessed element: exhaustivity code, size and highlighted size.

    Treated as read-only.  Not ``frozen``: a frozen record sets each field through
    ``object.__setattr__``, which made building the 291,687 judgements of an INEX 2005-sized
    recall-base 0.1 s slower (0.46 against 0.13 µs each).  Its ``__init__`` is written out for the
    same reason: a record's own binds its arguments in a loop (0.5 µs).
    """

    path: str  # normalised, docs/formats.md §1.1
    e: int | None  # 0, 1, 2, E_TOO_SMALL, or None when absent (unknown)
    size: int
    rsize: int
    line: int = 0  # line in the assessment file, for messages

    def __init__(self, path: str, e: int | None, size: int, rsize: int, line: int = 0):
        self.path, self.e, self.size, self.rsize, self.line = path, e, size, rsize, line


@record(slots=True)
class FileAssessment:
    """The assessments of one document within one topic.  (``__init__`` written out, as
    :class:`Judgement`'s: one is made for every document of every pool file.)"""

    file: str  # normalised file id
    elements: dict[str, Judgement] = field(default_factory=dict)  # path -> judgement, file order
    beps: list[str] = field(default_factory=list)  # best entry points, file order
    line: int = 0

    def __init__(self, file: str, elements: dict[str, Judgement] | None = None, beps: list[str] | None = None,
                 line: int = 0):
        self.file, self.line = file, line
        self.elements = {} if elements is None else elements
        self.beps = [] if beps is None else beps


@record(slots=True)
class TopicAssessment:
    """A topic's selected assessment file (one pool)."""

    topic: str
    pool: str | None
    query_type: str | None
    source: str  # the assessment file
    files: dict[str, FileAssessment] = field(default_factory=dict)


@record(slots=True)
class Assessments:
    """All recall-base topics (docs/formats.md §1.2), keyed by topic id."""

    topics: dict[str, TopicAssessment] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)


@record(slots=True)
class Run:
    """A submission after run hygiene (docs/formats.md §1.3).

    ``topics`` maps a topic id to its ranked results, in rank order, with
    truncated, duplicate and invalid results already removed; each result is
    the hashable key of its ``unit`` (:mod:`inexeval.readers.units`): for
    ``element`` a normalised ``(file, path)`` pair.  Topics unknown to the
    assessments are still here; the evaluator ignores them (and warns).
    """

    run_id: str
    source: str
    task: str | None = None
    topics: dict[str, list[Hashable]] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    unit: str = "element"
    run_id_line: int | None = None  # where the run id was read (None: from the file name)


@record(slots=True)
class RunResult:
    """Scores of one run under one setting (docs/formats.md §9.2).

    ``per_topic[topic][measure]`` is a float, or None where the value is
    undefined (docs/measures.md §10); ``average[measure]`` likewise.  ``measures`` is the
    column order used by every writer.  ``per_topic`` is a read-only mapping: dictionaries,
    or for run-level measures that give columns a :class:`~inexeval.topic_columns.TopicColumns`
    (one array per measure, read the same way).
    """

    run_id: str
    setting: str  # "<quant>_<overlap>" (e.g. "gen_on") or "default"
    measures: list[str]
    per_topic: Mapping[str, Mapping[str, float | None]]
    average: dict[str, float | None]
    source: str = ""
    file_name: str | None = None  # its result file's stem when not file_component(run_id) (inexeval.names)


class InputFile(NamedTuple):
    """A file matched by a config's path value, with the root (file, dir or glob base) it was found
    under (path expansion: :mod:`inexeval.config.values`).

    ``problem`` says why an entry of a directory listing or a glob cannot be
    read (a dangling symbolic link, a FIFO, ...); the reader of that input
    reports it with the path instead of reading it (docs/formats.md §1.5).
    The path ``-`` is standard input.
    """

    path: Path
    root: Path
    problem: str | None = None
