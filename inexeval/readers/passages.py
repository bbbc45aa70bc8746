"""Runs of the FOL tasks (docs/fol.md §2): passages (file, offset, length), as inex_eval reads them.

A run of a FOL task is one of:

- a FOL run, read by :func:`inexeval.readers.fol.read_fol_run` exactly as the
  official tool reads it: 8-column text ``topic Q0 file rank rsv run-id
  offset length``, or an INEX 2008 XML submission whose results hold
  ``<fol offset=… length=…/>``;
- an element run (an INEX XML submission with ``<path>`` results, or the
  7-column text ``topic Q0 file rank rsv run-id path``), read by the element
  run reader (:mod:`inexeval.readers.runs`, with its hygiene: invalid results
  skipped, repeated ones dropped, each with a warning) and turned into the
  equivalent FOL run through the collection: each element becomes the
  passage of its text, ``offset`` = the characters of the article's text
  before it and ``length`` = its own text's characters (tags excluded, an
  entity or character reference one character, :mod:`inexeval.readers.collection`).
  A path that is not in its document becomes an unknown passage (``X``,
  docs/fol.md §2), reported once per run with its file and line.

Which of the two a file is, is decided by its start (:func:`run_kind`).
Either way the result is a :class:`PassageRun`: a :class:`~inexeval.model.Run`
(its topics, warnings, and the run id of its file name) holding the
:class:`~inexeval.readers.fol.FolRunFile` the kernel scores, lines in file
order.
"""

from __future__ import annotations

import contextlib
import gc
import re
import sys
from collections.abc import Callable, Hashable, Iterator
from pathlib import Path
from typing import Any

from inexeval.errors import InputError
from inexeval.model import Run
from inexeval.readers.runs import BOM, Block, RunInput, RunReader, _RunBuilder, empty_run_warning, run_id_from_name
from inexeval.records import record

__all__ = ["PassageRun", "read_passage_run", "run_kind", "element_run_as_fol", "paused_gc", "topic_lines"]

#: The first tag of an XML run that tells its results apart: ``<fol`` (passages) or ``<path`` (elements).
_RESULT_KIND = re.compile(rb"<(fol|path)[ \t\r\n/>]")
_CHUNK = 1 << 16
#: The two columns of a text line that tell an element run (7 columns, an XPath last) from a FOL run.
_ELEMENT_COLUMNS = 7


@record(slots=True)
class PassageRun(Run):
    """A run of a FOL task: ``topics`` maps each topic of the run to the indices of its lines in
    ``fol.lines`` (file order); ``fol`` is what the kernel scores."""

    fol: Any = None  # inexeval.readers.fol.FolRunFile


@contextlib.contextmanager
def paused_gc() -> Iterator[None]:
    """The cyclic garbage collector paused meanwhile: reading and scoring a FOL run make millions of
    small lists and no cycles, and its passes over them would cost as much as the work (the drop-in
    ``inexeval inex-eval`` pauses it too)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def run_kind(path: str | Path) -> str:
    """``"element"`` for an element run, ``"fol"`` for anything else (docs/fol.md §2).

    XML (first non-blank character ``<``): an element run when its first
    ``<fol`` or ``<path`` tag is a ``<path``.  Text: an element run when its
    first non-blank line has 7 white-space separated columns and the last
    begins with ``/`` (an XPath; a FOL length never does).  Everything else,
    including an unreadable or empty file, is left to the FOL reader, which
    words its problems as inex_eval does.
    """
    source = "<stdin>" if str(path) == "-" else str(path)
    try:
        run_input = RunInput(path, source)
        head = run_input.head().removeprefix(BOM).lstrip(b" \t\n\r\x0b\x0c")
        if head.startswith(b"<"):
            return _xml_kind(run_input)
        with run_input.open() as lines:
            for raw in lines:
                cols = raw.removeprefix(BOM).split()
                if cols:
                    is_path = len(cols) == _ELEMENT_COLUMNS and cols[-1].startswith(b"/")
                    return "element" if is_path else "fol"
    except InputError:
        pass
    return "fol"


def _xml_kind(run_input: RunInput) -> str:
    """``element`` when the first ``<fol``/``<path`` tag of the stream is ``<path``."""
    tail = b""
    with run_input.open() as fh:
        while True:
            chunk = fh.read(_CHUNK)
            if not chunk:
                return "fol"
            m = _RESULT_KIND.search(tail + chunk)
            if m is not None:
                return "element" if m.group(1) == b"path" else "fol"
            tail = (tail + chunk)[-8:]


def read_passage_run(path: str | Path, collection: Callable[[], Any]) -> PassageRun:
    """Read one run of a FOL task (FOL or element run, see the module docstring).

    ``collection()`` gives the collection (:class:`~inexeval.readers.collection.Collection`)
    when an element run needs it; it raises (naming COLLECTION_DIR) when
    there is none.  InputError (file, line) when the run cannot be read.
    """
    with paused_gc():
        if run_kind(path) == "element":
            fol, warnings = element_run_as_fol(path, collection())
        else:
            from inexeval.readers.fol import read_fol_run

            fol, warnings = read_fol_run(path), []
        topics = topic_lines(fol)
        if not topics:
            warnings = [empty_run_warning(fol.source, "and it is scored as inex_eval scores it"), *warnings]
    return PassageRun(run_id=run_id_from_name(fol.source), source=fol.source, task=None, topics=topics,
                      warnings=warnings, unit="passage", fol=fol)


def topic_lines(fol) -> dict[str, list[int]]:
    """The indices of the lines of each topic of the FolRunFile FOL, topics in order of their first
    line: a line's topic is its first field (D22), a line without fields has none."""
    if "numpy" in sys.modules:
        from inexeval.readers.fol_run_arrays import topic_blocks

        # the run split into fields once, for the scorer too (readers.fol_run_arrays); a run the
        # bounds decline (a line of other than 8 fields, white space first or last, a NUL, an id
        # longer than NAME_BYTES) is read by the loop below
        found = topic_blocks(fol)
        if found is not None:
            return found
    topics: dict[str, list[int]] = {}
    for i, fields in enumerate(fol.columns()[2]):
        if fields:
            topics.setdefault(fields[0], []).append(i)
    return topics


class _ElementResults(_RunBuilder):
    """The element reader's observer of evaluation (refusal at the first error, one warning per kind
    of issue), keeping every kept result as (topic, line, key) in file order."""

    def __init__(self, source: str):
        super().__init__(source, sys.maxsize)  # every result counts (docs/fol.md §2)
        self.results: list[tuple[str, int | None, Hashable]] = []

    def block(self, block: Block, kept: list[int] | None, keys: list[Hashable]) -> None:
        line = block.line
        topic = block.topic
        self.results.extend((topic, line(i), k) for i, k in zip(kept if kept is not None else range(len(keys)), keys))


def element_run_as_fol(path: str | Path, collection) -> tuple[Any, list[str]]:
    """An element run as the equivalent FOL run, and the run's warnings (docs/fol.md §2).

    Each kept element result, in file order, becomes the line ``topic Q0 file
    rank 0 run-id offset length`` (rank: its place in the topic) with the
    element's text offset and length in its document, or ``X 0`` (an
    unknown passage) when the path is not in the document.  A document that
    is not in the collection is an InputError naming the run's line.
    """
    from inexeval.readers.fol import FolRunFile

    reader = RunReader(path, max_results=sys.maxsize)
    results = _ElementResults(reader.source)
    reader.read(results)
    run_id = reader.run_id or run_id_from_name(reader.source)
    numbers: list[int] = []
    raws: list[str] = []
    rows: list[list[str]] = []
    ranks: dict[str, int] = {}
    missing: list[tuple[str, int | None, str, str]] = []
    for topic, line, (file, xpath) in results.results:
        try:
            info = collection.element_info(file, xpath)
        except InputError as exc:
            if exc.file != str(getattr(collection, "root", "")):  # a document that cannot be used: the
                # result that needs it (only this run is lost) and the document's own file and line
                raise InputError(f"the document of this result cannot be used: {exc}", reader.source, line) from None
            raise InputError(f"{exc.message} (COLLECTION_DIR {exc.file})", reader.source, line) from None
        if info is None:
            missing.append((topic, line, file, xpath))
            offset, length = "X", "0"
        else:
            offset, length = str(info[0]), str(info[1])
        rank = ranks[topic] = ranks.get(topic, 0) + 1
        fields = [topic, "Q0", file, str(rank), "0", run_id, offset, length]
        numbers.append(line or 0)
        raws.append(" ".join(fields))
        rows.append(fields)
    warnings = results.warnings(reader.run_id)
    if missing:
        topic, line, file, xpath = missing[0]
        topics = list(dict.fromkeys(t for t, *_ in missing))
        shown = ", ".join(topics[:10]) + (f" and {len(topics) - 10} more" if len(topics) > 10 else "")
        n = len(missing)
        warnings.append(f"{reader.source}: {n} result{'s' if n != 1 else ''} whose path is not in its document "
                        f"scored as unknown passages (X, 18 characters) (topic{'s' if len(topics) != 1 else ''} "
                        f"{shown}); first at line {line}: {file} {xpath}")
    return FolRunFile.from_columns(reader.source, raws, rows, numbers, xml=reader.format == "xml"), warnings
