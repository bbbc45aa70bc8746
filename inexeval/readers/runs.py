"""INEX runs: XML submissions (2005 IEEE, 2006 Wikipedia) and text runs, read once by one reader.

docs/formats.md §1.3.  A file whose first non-blank character is ``<`` is
an XML submission (root ``<inex-submission>``); anything else is a text run
with one result per line (``topic Q0 file rank rsv run-id path`` for
elements).  Either way the ranking is the order of the results in the file,
never the ``rank`` values.  What one result is (its fields, its key) is its
*unit* (:mod:`inexeval.readers.units`); everything else is here, once.

:class:`RunReader` reads a run (plain or gzip-compressed, ``"-"`` for
standard input) in one streamed pass and tells a :class:`RunObserver` what
it finds: every submitted result, a :class:`Block` (one topic's results) at
a time, with which of them run hygiene keeps and their keys, and every
:class:`Issue`.  :func:`read_run` (evaluation) builds a
:class:`~inexeval.model.Run` with an observer that stops at the first error
and words each kind of issue as one warning per run (docs/formats.md §9.3);
``inexeval validate`` (:mod:`inexeval.validate`) records every issue with
its line and adds its own checks.

Run hygiene, per topic, in this order (docs/formats.md §1.3):

1. only the first ``max_results`` submitted results count; the rest are
   dropped and counted;
2. a result whose raw fields its unit cannot normalise (an invalid file id
   or path, docs/formats.md §1.1) keeps its place among those first
   ``max_results`` and is then skipped (counted);
3. a result whose key occurred earlier in the same topic is a duplicate:
   dropped, counted;
4. ranks, where given, must increase strictly down the results of a topic
   (any start, gaps allowed; compared with the last integer rank); a rank
   that is not an integer is ignored.  Both are warnings: the ranking stays
   the file order.

A ``<topic>`` without ``<result>`` is the same as an absent topic; a
repeated topic (a ``<topic>`` id again, or text lines of a topic after
other topics) continues that topic.

Issues (:attr:`Issue.kind`), by what they do:

============== ======== ================================================================
kind           effect   what
============== ======== ================================================================
malformed      error    a result the reader cannot take: text line without the unit's
                        columns, rank not an integer, score not a number, not UTF-8;
                        XML ``<result>`` outside ``<topic>``, ``<topic>`` without
                        ``topic-id``, ``<topic>`` not directly in the root.  Evaluation
                        refuses the run; an observer that reads on skips the result(s)
beyond         dropped  results of a topic after the first ``max_results`` (one issue
                        per block, ``count`` results, ``line`` the first's)
invalid        skipped  fields the unit cannot normalise (``message``: why)
duplicate      dropped  key seen earlier in the topic (``value``: the key)
rank_order     warning  rank not above the previous one (``value``: (rank, previous);
                        ``count`` results at once, ``line`` the first's)
rank_nan       warning  a rank that is not an integer (``value``: its text, stripped)
run_tag        warning  text line whose run-id column differs from the first line's
                        (``value``: that tag)
empty_topic    note     ``<topic>`` without results (its ``topic-id``, or None)
repeated_topic note     results of a topic after other topics' (``line``: the first)
repeated_field note     XML, for an observer that asks (:attr:`RunObserver.wants_repeated_fields`):
                        a ``<result>``, anywhere in the file, with several children of a
                        name it asks for (``value``: those names, in its order; ``topic``:
                        the parent's ``topic-id`` as written, or None); the last one of each
                        is read.  Told when the result leaves the tree, in the order of the
                        results' end tags (:class:`_RepeatedFields`)
============== ======== ================================================================

Errors that end reading are :class:`~inexeval.errors.InputError` raised
with file and line: the file cannot be read or decompressed, malformed XML,
entity declarations (:func:`~inexeval.readers.refuse_entity_declarations`),
a root other than ``<inex-submission>``.

Speed: an XML submission is read a ``<topic>`` at a time (its ``start`` and
``end`` events only), its results' fields taken as lists by compiled XPaths, and the
hygiene applied to whole lists (:meth:`_Hygiene.add`).  A topic whose lists
do not line up with its results (a result without a field, ...) is read
result by result, and a list with an invalid result, a duplicate or a
non-integer rank goes through the same hygiene one result at a time; the
outcome, issues included, is the same either way.  Text runs are read a
line at a time and handed over in blocks of consecutive lines of a topic.

Memory: a long topic comes in several blocks (:data:`_BLOCK`), each freed
once the observer is told about it, so reading holds at most
``max_results`` keys of a topic, not all of its results.  Each block has
the issues of its own results (``beyond`` and ``rank_order`` once per
block, each with its count); added up, they are those of the whole topic.
"""

from __future__ import annotations

import functools
import io
import os
import re
import stat
import zlib
from collections.abc import Callable, Hashable, Iterator
from pathlib import Path
from typing import IO, TYPE_CHECKING

import numpy as np

from inexeval.errors import InputError, InvalidPath
from inexeval.model import Run
import inexeval.readers as _bounds
from inexeval.readers import (BoundedGunzip, ReadFailure, as_utf8, bounded_content, long_line_error, prolog_end,
                              refuse_entity_declarations, safe_pullparse, stdin_bytes, wide_encoding)
from inexeval.readers.runnames import empty_run_warning, run_id_from_name  # noqa: F401 (their old home)
from inexeval.readers.trec_numbers import decimal_integer, decimal_number
from inexeval.readers.units import ELEMENT, Unit, unit_named
from inexeval.tasks import DEFAULT_MAX_RESULTS

if TYPE_CHECKING:  # (annotations; lxml is imported when the first XML run is read: _XPaths)
    from lxml import etree

__all__ = ["read_run", "RunReader", "RunObserver", "Issue", "Block", "run_id_from_name", "empty_run_warning"]

_GZIP_MAGIC = b"\x1f\x8b"
BOM = b"\xef\xbb\xbf"
SUBMISSION_ROOT = "inex-submission"
_MAX_TOPICS_LISTED = 10
#: The first non-blank byte is ``<`` (blank: what ``bytes.strip`` removes).
_BLANK = b" \t\n\r\x0b\x0c"
_XML_START = re.compile(rb"[ \t\n\r\x0b\x0c]*<")
#: Whole blank lines at the start of a buffer (:meth:`_Guarded.numbered`).
_BLANK_LINES = re.compile(rb"[ \t\r\x0b\x0c\n]*\n")
#: Bytes read at a time when the head of a run is looked at.
_CHUNK = 1 << 20
#: Results of one topic handed over at a time: consecutive text lines of a topic in blocks of at most
#: this many, an XML ``<topic>`` holding more than this many children between two chunks fed to the
#: parser (:func:`_hand_over`); so reading holds what hygiene keeps (at most ``max_results`` keys a
#: topic), not what the run holds (docs/formats.md §1.3).
_BLOCK = 8192
#: Whether whole lists may be taken at once (XPath lists, bulk hygiene); tests turn it off
#: to check that reading one result at a time gives the same outcome.
_BULK = True


def read_run(path: str | Path, *, max_results: int = DEFAULT_MAX_RESULTS, unit: str = "element") -> Run:
    """Read one run file (XML or text, optionally gzip-compressed; ``"-"`` is stdin).

    Returns a :class:`~inexeval.model.Run` whose ``topics`` map each topic id
    to its results' keys (``(file, path)`` for elements) after run hygiene,
    in rank (file) order, and whose ``warnings`` word each kind of issue
    once.  Raises :class:`~inexeval.errors.InputError` with file and line
    when the run cannot be read, at the first ``malformed`` issue included.
    """
    reader = RunReader(path, unit=unit_named(unit), max_results=max_results)
    builder = _RunBuilder(reader.source, max_results)
    reader.read(builder)
    warnings = builder.warnings(reader.run_id)
    if not builder.topics:
        warnings.insert(0, empty_run_warning(reader.source))
    return Run(
        run_id=reader.run_id or run_id_from_name(reader.source),
        source=reader.source,
        task=reader.task,
        topics=builder.topics,
        warnings=warnings,
        unit=unit,
        run_id_line=reader.run_id_line if reader.run_id else None,
    )


# --------------------------------------------------------------------------- what the reader reports


class Issue:
    """One thing the reader found (see the kinds in the module docstring)."""

    __slots__ = ("count", "kind", "line", "message", "topic", "value")

    def __init__(self, kind: str, topic: str | None, line: int | None, message: str = "",
                 value: object = None, count: int = 1):
        self.kind = kind
        self.topic = topic
        self.line = line
        self.message = message
        self.value = value
        self.count = count

    def __repr__(self) -> str:
        return (f"Issue({self.kind!r}, {self.topic!r}, {self.line!r}, {self.message!r}, "
                f"value={self.value!r}, count={self.count})")


class Block:
    """Submitted results of one topic, in file order: a ``<topic>`` element, or consecutive text lines
    (a long one in several blocks, module docstring).

    ``fields`` holds one list per field of the unit (raw values; None or, from
    an XPath, a node that is not text, where absent), ``ranks`` and ``rsvs``
    the raw ``rank`` and ``rsv`` texts (None when no result has one; XML
    ``rsvs`` only for an observer that :attr:`~RunObserver.wants_rsv`).
    ``line(i)`` is the line of result ``i``; for XML it is valid only while
    the observer is being told about the block (its issues included).
    """

    __slots__ = ("fields", "line", "n", "ranks", "rsvs", "topic")

    def __init__(self, topic: str, n: int, fields: list[list], ranks: list | None, rsvs: list | None,
                 line: Callable[[int], int | None]):
        self.topic = topic
        self.n = n
        self.fields = fields
        self.ranks = ranks
        self.rsvs = rsvs
        self.line = line

    def lines(self) -> list[int | None]:
        """The line of every result."""
        return list(map(self.line, range(self.n)))


class RunObserver:
    """What a :class:`RunReader` tells about a run; the defaults ignore everything."""

    #: Whether :attr:`Block.rsvs` should be read (XML: one more XPath per topic).
    wants_rsv = False
    #: The children of an XML ``<result>`` (``file``, ``path``, ...) that the observer is told about, in a
    #: ``repeated_field`` issue, when one result has several of a name; () (the default): none, and
    #: reading does not look for them.
    wants_repeated_fields: tuple[str, ...] = ()

    def issue(self, issue: Issue) -> None:
        """One issue, as found: a block's hygiene issues just before :meth:`block` (for a text run,
        after the issues of the block's lines).  Raising stops the reading (evaluation does, at an error)."""

    def block(self, block: Block, kept: list[int] | None, keys: list[Hashable]) -> None:
        """A block and what hygiene keeps of it: ``keys[j]`` is the key of result ``kept[j]``
        (``kept`` None: results ``0 .. len(keys) - 1``)."""


class RunReader:
    """Reads one run file once (see the module docstring).

    ``format`` (``"xml"``, ``"text"``, or ``"unknown"`` until the head is
    read), ``run_id`` (the root's ``run-id`` or the first line's run tag,
    stripped; ``""`` when absent) and ``task`` (the root's ``task``, or None)
    are filled in as they are read, so they are there even after an error.
    """

    def __init__(self, path: str | Path, *, unit: Unit = ELEMENT, max_results: int = DEFAULT_MAX_RESULTS):
        self.path = path
        self.source = "<stdin>" if str(path) == "-" else str(path)
        self.unit = unit
        self.max_results = max_results
        self.format = "unknown"
        self.run_id = ""
        self.run_id_line: int | None = None  # the line the run id was read from
        self.task: str | None = None

    def read(self, observer: RunObserver) -> None:
        """Read the run, telling ``observer``; InputError (file, line) when it cannot be read."""
        run_input = RunInput(self.path, self.source)
        head = run_input.head()
        hygiene = _Hygiene(self.unit, self.max_results, observer)
        if _XML_START.match(head.removeprefix(BOM)):
            self.format = "xml"
            refuse_entity_declarations(head, self.source, lines_before=run_input.head_lines)
            with run_input.open() as fh:
                _read_xml(self, fh, hygiene, observer)
        else:
            self.format = "text"
            with run_input.open() as lines:
                _read_text(self, lines, hygiene, observer)


# --------------------------------------------------------------------------- input


def _gunzip(data: bytes, source: str) -> bytes:
    """DATA decompressed, within the expansion bound (docs/formats.md §1.6)."""
    return bounded_content(data, source, gz=True,
                           corrupt=lambda exc: InputError(f"cannot decompress gzip run: {exc}", source))


class RunInput:
    """A run file that may be opened more than once, each time streamed from the start.

    A file is read from disk on every :meth:`open` (gunzipped on the fly when
    it starts with the gzip magic bytes or is named ``*.gz``), so that a run
    is never held in memory as a whole; stdin (``"-"``), a pipe named as a
    run and a UTF-16 or UTF-32 run (converted to UTF-8) are read once and kept.
    Read errors, including corrupt gzip data, are :class:`InputError` naming
    the file; so are compressed data expanding beyond the bound and a text line
    longer than the bound (docs/formats.md §1.6: reading stops there).
    """

    def __init__(self, path: str | Path, source: str):
        self.source = source
        self._data: bytes | None = None
        self._path = Path(path)
        self._gzip = False
        self.head_lines = 0  # blank lines before the first non-blank byte (:meth:`head`)
        if str(path) == "-":
            self._keep(stdin_bytes(source))
            return
        try:
            with open(path, "rb") as fh:
                if stat.S_ISREG(os.fstat(fh.fileno()).st_mode):
                    magic = fh.read(4)
                else:  # a pipe named on purpose (/dev/stdin, <(zcat run.gz)) can be read only once
                    self._keep(fh.read())
                    return
        except OSError as exc:
            raise InputError(f"cannot read run: {exc.strerror or exc}", source) from None
        self._gzip = magic.startswith(_GZIP_MAGIC) or source.lower().endswith(".gz")
        if self._gzip:
            with self.open() as fh:
                magic = fh.read(4)
        if wide_encoding(magic) is not None:  # UTF-16/32: converted once, kept (docs/formats.md §1.5)
            with self.open() as fh:
                self._data = as_utf8(fh.read(), source)

    def _keep(self, data: bytes) -> None:
        """Hold ``data`` (the whole input) decompressed and as UTF-8."""
        self._data = as_utf8(_gunzip(data, self.source) if data.startswith(_GZIP_MAGIC) else data, self.source)

    def open(self) -> _Guarded:
        """A binary stream of the (decompressed) content, from its first byte."""
        if self._data is not None:
            return _Guarded(io.BytesIO(self._data), self.source, False)
        try:
            fh = open(self._path, "rb")  # noqa: SIM115 (closed with the stream returned)
        except OSError as exc:
            raise InputError(f"cannot read run: {exc.strerror or exc}", self.source) from None
        stream = io.BufferedReader(BoundedGunzip(fh, self.source), _CHUNK) if self._gzip else fh
        return _Guarded(stream, self.source, self._gzip, fh)

    def head(self) -> bytes:
        """The content from its first non-blank byte (a byte order mark kept before it) up to and
        including the root element's start tag when that byte is ``<`` (docs/formats.md §1.3: XML or
        text), else up to the end of the piece read, or all of it.  The blank lines before it are not
        kept but counted (:attr:`head_lines`): a run of blank lines costs no memory here."""
        out = bytearray()
        bom = b""
        self.head_lines = 0
        size = _CHUNK
        with self.open() as fh:
            while True:
                chunk = fh.read(size)
                if size == _CHUNK and not out and not bom and chunk.startswith(BOM):  # (the first piece)
                    bom, chunk = BOM, chunk[len(BOM):]
                if out:
                    out += chunk
                else:
                    body = chunk.lstrip(_BLANK)
                    self.head_lines += chunk.count(b"\n", 0, len(chunk) - len(body))
                    out += body
                    size = _CHUNK + 1  # (no longer the first piece)
                if not chunk or (out and (not out.startswith(b"<") or prolog_end(bytes(out)) is not None)):
                    return bom + bytes(out)
                size = max(size, len(out))  # a long prolog is read in doubling pieces: linear time

class _Guarded(io.IOBase):
    """A binary stream whose read errors are :class:`InputError` (lxml re-raises them as they are)."""

    def __init__(self, stream, source: str, gz: bool, raw=None):
        super().__init__()
        self._stream, self._source, self._gzip = stream, source, gz
        self._raw = raw
        self._lines = 0  # lines read by __next__

    def readable(self) -> bool:
        return True

    def read(self, n: int = -1) -> bytes:
        try:
            return self._stream.read(n)
        except (OSError, EOFError, zlib.error) as exc:
            raise self._error(exc) from None
        except ReadFailure as exc:
            raise InputError(f"cannot read run: {exc}", self._source) from None

    def __next__(self) -> bytes:
        """The next line (lines end with ``\\n``), with the same errors as :meth:`read`; a line
        longer than the bound (docs/formats.md §1.6) is an InputError naming it, read no further."""
        limit = _bounds.MAX_LINE_BYTES
        try:
            line = self._stream.readline(limit + 1)
        except (OSError, EOFError, zlib.error) as exc:
            raise self._error(exc) from None
        except ReadFailure as exc:
            raise InputError(f"cannot read run: {exc}", self._source) from None
        if not line:
            raise StopIteration
        self._lines += 1
        if len(line) > limit and not line.endswith(b"\n"):
            raise long_line_error(self._source, self._lines)
        return line

    def numbered(self) -> Iterator[tuple[int, bytes]]:
        """(line number, line) of every line but the blank ones (ASCII white space only, which a text
        run skips), as :meth:`__next__` reads them; a stretch of blank lines is skipped a buffer at a
        time, not a line at a time (a run padded with millions of them reads fast)."""
        peek = getattr(self._stream, "peek", None)
        while True:
            try:
                line = next(self)
            except StopIteration:
                return
            if line.strip():
                yield self._lines, line
                continue
            while peek is not None:
                try:
                    ahead = peek(1)
                except (OSError, EOFError, zlib.error) as exc:
                    raise self._error(exc) from None
                except ReadFailure as exc:
                    raise InputError(f"cannot read run: {exc}", self._source) from None
                m = _BLANK_LINES.match(ahead)
                if m is None or len(ahead) > _bounds.MAX_LINE_BYTES:  # (a bound below a buffer: tests)
                    break
                self._lines += ahead.count(b"\n", 0, m.end())
                self.read(m.end())

    def _error(self, exc: BaseException) -> InputError:
        if self._gzip:
            return InputError(f"cannot decompress gzip run: {exc}", self._source)
        return InputError(f"cannot read run: {getattr(exc, 'strerror', None) or exc}", self._source)

    def close(self) -> None:
        self._stream.close()
        if self._raw is not None:
            self._raw.close()
        super().close()


# --------------------------------------------------------------------------- XML


#: The XPaths of a topic's results: all of them (``$k`` unused), or only the first ``$k``.
_ALL, _FIRST_K = "result", "result[position() <= $k]"


class _XPaths:
    """The XPaths the XML reader uses, compiled once, when the first XML run is read: lxml is
    imported then, not with this module (a text run, e.g. a FOL run, never loads it)."""

    def __init__(self):
        from lxml import etree

        self.etree = etree
        self.count_results = etree.XPath("count(result)")
        self.count_all_results = etree.XPath("count(.//result)")
        #: ``<result>`` elements inside a topic's children but its last (nested, so ``malformed``).
        self.nested_before_last = etree.XPath("*[position() < last()]//result")
        self.results = {sel: etree.XPath(sel) for sel in (_ALL, _FIRST_K)}
        self.ranks = {sel: etree.XPath(f"{sel}/rank[last()]/node()[1]", smart_strings=False)
                      for sel in (_ALL, _FIRST_K)}
        self.rsvs = {sel: etree.XPath(f"{sel}/rsv[last()]/node()[1]", smart_strings=False)
                     for sel in (_ALL, _FIRST_K)}
        self.fields: dict[tuple[str, str], tuple[etree.XPath, ...]] = {}


_XP: _XPaths | None = None


def _xpaths() -> _XPaths:
    """The compiled XPaths (:class:`_XPaths`), made on first use."""
    global _XP
    if _XP is None:
        _XP = _XPaths()
    return _XP


def _field_xpaths(unit: Unit, sel: str) -> tuple[etree.XPath, ...]:
    """The unit's field XPaths from a ``<topic>`` (``result/...``, or the first ``$k`` results), compiled once."""
    xp = _xpaths()
    xpaths = xp.fields.get((unit.name, sel))
    if xpaths is None:
        xpaths = xp.fields[unit.name, sel] = tuple(
            xp.etree.XPath(f"{sel}/{x}", smart_strings=False) for x in unit.xml_xpaths)
    return xpaths


class _OpenTopic:
    """A ``<topic>`` child of the root being read: its id, results handed over so far, nested results' lines."""

    __slots__ = ("done", "elem", "nested", "topic")

    def __init__(self, elem: etree._Element):
        self.elem = elem
        self.topic = (elem.get("topic-id") or "").strip()
        self.done = 0
        self.nested: list[int | None] = []


def _read_xml(reader: RunReader, stream: IO[bytes], hygiene: _Hygiene, observer: RunObserver) -> None:
    """Stream an ``<inex-submission>`` one ``<topic>`` at a time (the caller has checked the prolog).

    A ``<topic>``'s results are its ``<result>`` children; a ``<result>``
    anywhere else is ``malformed``: inside a topic's other children (found
    when the topic ends), or outside any topic (found in the root's children
    when the next topic starts, and after the last topic at the end).  A
    ``<topic>`` that is not a child of the root is ``malformed`` when it
    holds results.  Each topic is cleared when it ends, and the root's
    children before a topic are deleted when it starts, so that memory stays
    that of one topic.  Issues come in file order but for one case: a
    ``<result>`` inside a topic's other children, or a topic without
    ``topic-id``, is found when the topic ends, after what its results gave.

    Memory: between two chunks fed to the parser, a topic holding more than
    :data:`_BLOCK` children hands its complete results over as a block and
    deletes them (:func:`_hand_over`), and so does the root with what
    precedes a topic; so one topic of a million results is read in blocks,
    and only what hygiene keeps of them stays.  A block's issues are those
    of its results, so the issues of a topic split in blocks add up to those
    of the whole (docs/formats.md §1.3: hygiene goes down the file order).
    """
    source = reader.source
    unit = reader.unit
    wants_rsv = observer.wants_rsv
    xp = _xpaths()
    fields = _RepeatedFields(observer) if observer.wants_repeated_fields else None
    root = None
    entities = True
    current: _OpenTopic | None = None
    events = safe_pullparse(stream, source, events=("start", "end"), tag=("topic", SUBMISSION_ROOT))
    for event, elem in events:
        if event is None:  # between two chunks: hand over what is complete, if much is held
            if current is not None:
                if len(current.elem) > _BLOCK:
                    _hand_over(current, unit, hygiene, wants_rsv, fields, entities)
            elif root is not None and len(root) > _BLOCK:
                _outside_before(root[-1], root, observer, fields)
            continue
        if root is None:
            root = elem.getroottree().getroot()
            if root.tag != SUBMISSION_ROOT:
                raise InputError(
                    f"not an INEX submission: root element is <{root.tag}>, expected <{SUBMISSION_ROOT}>",
                    source,
                    root.sourceline,
                )
            reader.run_id = (root.get("run-id") or "").strip()
            reader.run_id_line = root.sourceline if reader.run_id else None
            reader.task = (root.get("task") or "").strip() or None
            entities = _may_hold_entities(root)
        if elem.tag != "topic":
            continue
        parent = elem.getparent()
        if event == "start":
            if parent is root:  # what precedes it is complete: found before any error inside the topic
                _outside_before(elem, root, observer, fields)
                current = _OpenTopic(elem)
            continue
        if parent is not root:
            if xp.count_all_results(elem):
                _malformed(observer, None, elem.sourceline, f"<topic> inside <{parent.tag}>")
            if fields is not None:
                fields.set_aside(elem)
            elem.clear()
            continue
        n = int(xp.count_results(elem))
        topic = current.topic
        if not n and not current.done:
            observer.issue(Issue("empty_topic", topic or None, elem.sourceline))
        elif not topic:
            _malformed(observer, None, elem.sourceline, "<topic> without a topic-id attribute")
        elif n:
            hygiene.add(_xml_block(elem, topic, n, unit, wants_rsv, entities=entities))
        for line in current.nested:
            _malformed(observer, None, line, "<result> outside <topic>")
        current = None
        if int(xp.count_all_results(elem)) != n:
            for res in elem.iter("result"):
                if res.getparent() is not elem:
                    _malformed(observer, None, res.sourceline, "<result> outside <topic>")
        if fields is not None:
            fields.tell(fields.inside(elem), lambda: [elem])
        elem.clear()
    if root is None:
        raise InputError(f"not an INEX submission: no <{SUBMISSION_ROOT}> element", source, None)
    for res in root.iter("result"):  # after the last topic (topics are empty by now)
        _malformed(observer, None, res.sourceline, "<result> outside <topic>")
    if fields is not None:
        fields.tell(fields.inside(root), lambda: [root])


class _RepeatedFields:
    """The ``repeated_field`` issues of an observer that asks for them (:attr:`RunObserver.wants_repeated_fields`).

    Every ``<result>`` of the file is looked at once, just before it leaves
    the tree (a topic's children handed over, a topic cleared at its end,
    the root's children deleted, the root at the end of the file): one
    XPath over what leaves selects the results with a second child of a
    name asked for, and only those are looked at in Python.  The issues are
    told in the order of the results' end tags: in each part that leaves,
    a result after the results inside it; the part of a ``<topic>`` nested
    in another element (``malformed``), cleared at its end, is told where
    that topic is when the element around it leaves.

    A result with a ``<result>`` child counts its children from the last
    such child on: the second pass over the file that validation made
    before deleted the earlier ones, and its warnings are kept as they were.
    """

    def __init__(self, observer: RunObserver):
        self.observer = observer
        self.fields = tuple(observer.wants_repeated_fields)
        twice = " or ".join(f"{f}[2]" for f in self.fields)
        #: The results with a second child of a name asked for (a superset: see the class docstring),
        #: in document order: inside an element; in an element and inside it; in the children of an
        #: element but its last, and inside them.
        xpath = _xpaths().etree.XPath
        self.inside = xpath(f".//result[{twice}]")
        self.under = xpath(f"descendant-or-self::result[{twice}]")
        self.before_last = xpath(f"*[position() < last()]/descendant-or-self::result[{twice}]")
        #: the issues of nested ``<topic>`` elements cleared at their end, by topic, in end-tag order
        self._aside: dict[etree._Element, list[Issue]] = {}

    def set_aside(self, topic: etree._Element) -> None:
        """The issues of a nested ``<topic>`` about to be cleared, kept until the element around it leaves."""
        issues = self._issues(self.inside(topic), lambda: [topic])
        if issues:
            self._aside[topic] = issues

    def tell(self, found: list[etree._Element], parts: Callable[[], list[etree._Element]]) -> None:
        """Tell the issues of the results ``found`` (document order) in the elements ``parts()``, which
        leave the tree (``parts`` is called only when nested topics were set aside)."""
        for issue in self._issues(found, parts):
            self.observer.issue(issue)

    def _issues(self, found: list[etree._Element], parts: Callable[[], list[etree._Element]]) -> list[Issue]:
        items = found
        if self._aside:  # nested topics set aside: their issues are told where the topic is
            within = parts()
            aside = [t for part in within for t in part.iter("topic") if t in self._aside]
            if aside:
                wanted = set(found) | set(aside)
                items = [e for part in within for e in part.iter("result", "topic") if e in wanted]
        if len(items) > 1:
            items = _end_tag_order(items)
        out: list[Issue] = []
        for elem in items:
            if elem.tag == "topic":
                out += self._aside.pop(elem)
                continue
            tags = [child.tag for child in elem]
            if "result" in tags:  # as the former second pass saw it (class docstring)
                tags = tags[len(tags) - 1 - tags[::-1].index("result"):]
            twice = tuple(t for t in self.fields if tags.count(t) > 1)
            if twice:
                parent = elem.getparent()
                out.append(Issue("repeated_field", parent.get("topic-id") if parent is not None else None,
                                 elem.sourceline, value=twice))
        return out


def _end_tag_order(elems: list[etree._Element]) -> list[etree._Element]:
    """``elems`` (in document order) in the order of their end tags: each after those inside it."""
    out: list[etree._Element] = []
    open_: list[etree._Element] = []  # each inside the one before it
    for elem in elems:
        while open_ and not any(a is open_[-1] for a in elem.iterancestors()):
            out.append(open_.pop())
        open_.append(elem)
    out.extend(reversed(open_))
    return out


def _hand_over(current: _OpenTopic, unit: Unit, hygiene: _Hygiene, wants_rsv: bool,
               fields: _RepeatedFields | None = None, entities: bool = True) -> None:
    """Hand over the results of an open ``<topic>`` that are complete and delete its complete children.

    Every child but the last is complete (the parser may be inside the
    last): its ``<result>`` children are one block (none for a topic
    without ``topic-id``: it is ``malformed`` when it ends), and the lines
    of ``<result>`` elements nested in them are kept for the topic's end,
    where they are reported as they would be without this.
    """
    elem = current.elem
    last = elem[-1]
    if not isinstance(last.tag, str):  # an entity reference: wait for an element after it
        return
    xp = _xpaths()
    k = int(xp.count_results(elem)) - (last.tag == "result")
    if k and current.topic:
        hygiene.add(_xml_block(elem, current.topic, k, unit, wants_rsv, first_k=True, entities=entities))
    current.done += k
    current.nested.extend(r.sourceline for r in xp.nested_before_last(elem))
    if fields is not None:
        fields.tell(fields.before_last(elem), lambda: list(elem)[:-1])
    del elem[: len(elem) - 1]


def _outside_before(topic: etree._Element, root: etree._Element, observer: RunObserver,
                    fields: _RepeatedFields | None = None) -> None:
    """Delete the root's children before ``topic``, each ``<result>`` in them being ``malformed``."""
    while topic.getprevious() is not None:
        first = root[0]
        if first.tag != "topic":  # earlier topics are empty
            for res in first.iter("result"):
                _malformed(observer, None, res.sourceline, "<result> outside <topic>")
            if fields is not None and isinstance(first.tag, str):
                fields.tell(fields.under(first), lambda: [first])
        del root[0]


def _malformed(observer: RunObserver, topic: str | None, line: int | None, message: str) -> None:
    observer.issue(Issue("malformed", topic, line, message))


def _may_hold_entities(root: etree._Element) -> bool:
    """Whether the document of ``root`` may hold entity references: only one with a document type
    declaration does (its external DTD, never read, may declare any entity; without one, an
    undeclared entity is a well-formedness error, and the predefined ones and character references
    are text).  A document whose internal subset declares entities was refused before."""
    docinfo = root.getroottree().docinfo
    return bool(docinfo.doctype) or docinfo.internalDTD is not None


def _xml_block(topic_elem: etree._Element, topic: str, n: int, unit: Unit, wants_rsv: bool,
               first_k: bool = False, entities: bool = True) -> Block:
    """The ``n`` results of a ``<topic>`` (``first_k``: its first ``n``) as a :class:`Block`.

    Each field, rank and rsv is a list taken by one XPath for the whole
    topic (:attr:`Unit.xml_xpaths`; the leading text node of the last
    ``<rank>``, ``<rsv>``); when a list does not have one item per result
    (a result without one, or without any rank while another has one), or
    the topic holds entity references (which XPath does not see, while they
    end an element's ``.text``; looked for only when the document may hold
    them, ``entities``: :func:`_may_hold_entities`), every result is read on its own
    (:meth:`Unit.xml_values`, ``.text`` of the last ``<rank>``, ``<rsv>``).
    """
    sel = _FIRST_K if first_k else _ALL
    lines = _XmlLines(topic_elem, sel, n)
    xp = _xpaths()
    if _BULK and not (entities and next(topic_elem.iter(xp.etree.Entity), None) is not None):
        fields = [xpath(topic_elem, k=n) for xpath in _field_xpaths(unit, sel)]
        ranks = xp.ranks[sel](topic_elem, k=n)
        rsvs = xp.rsvs[sel](topic_elem, k=n) if wants_rsv else []
        if all(len(f) == n for f in fields) and len(ranks) in (0, n) and len(rsvs) in (0, n):
            return Block(topic, n, fields, ranks or None, rsvs or None, lines)
    results = lines.results()
    fields = [list(column) for column in zip(*map(unit.xml_values, results))]
    ranks = [_last_text(r, "rank") for r in results]
    rsvs = [_last_text(r, "rsv") for r in results] if wants_rsv else []
    return Block(topic, n, fields, ranks if ranks.count(None) < n else None,
                 rsvs if rsvs and rsvs.count(None) < n else None, lines)


def _last_text(result: etree._Element, tag: str) -> str | None:
    """``.text`` of the last child called ``tag`` (None when there is none)."""
    text = None
    for child in result:
        if child.tag == tag:
            text = child.text
    return text


class _XmlLines:
    """``lines(i)``: the line of the i-th of the ``n`` ``<result>`` elements of a topic that XPath
    ``sel`` selects (they are found on first use)."""

    __slots__ = ("_n", "_results", "_sel", "_topic")

    def __init__(self, topic: etree._Element, sel: str, n: int):
        self._topic = topic
        self._sel = sel
        self._n = n
        self._results: list[etree._Element] | None = None

    def results(self) -> list[etree._Element]:
        if self._results is None:
            self._results = _xpaths().results[self._sel](self._topic, k=self._n)
        return self._results

    def __call__(self, i: int) -> int | None:
        return self.results()[i].sourceline


# --------------------------------------------------------------------------- text


def _read_text(reader: RunReader, lines: _Guarded, hygiene: _Hygiene, observer: RunObserver) -> None:
    """Read a text run, one line of :attr:`Unit.text_columns` per result, UTF-8.

    Blank lines are skipped; a line that is not UTF-8, has another number of
    columns, a rank that is not an integer or a score that is not a number
    is ``malformed``.  The first line's run tag is the run id; a line with
    another is a ``run_tag`` issue.  Consecutive lines of one topic are one
    block.
    """
    columns = reader.unit.text_columns
    width = len(columns)
    at_topic, at_rank, at_rsv, at_tag = map(columns.index, ("topic", "rank", "rsv", "run-id"))
    at_fields = [columns.index(f) for f in reader.unit.fields]
    layout = " ".join(columns)
    run_id = ""
    topic = None
    rows: list[list[str]] = []
    numbers: list[int] = []
    for lineno, raw in lines.numbered():
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError:
            _malformed(observer, None, lineno, "run is not valid UTF-8")
            continue
        if lineno == 1:
            line = line.removeprefix("\ufeff")  # a byte order mark
        if "\x00" in line:
            _malformed(observer, None, lineno, "NUL character: is the run UTF-16 without a byte order mark? "
                       "Text runs are UTF-8, or UTF-16 or UTF-32 with a byte order mark")
            continue
        cols = line.split()
        if not cols:
            continue
        if len(cols) != width:
            _malformed(observer, None, lineno, f"expected {width} columns '{layout}', found {len(cols)}")
            continue
        here = cols[at_topic]
        rank = cols[at_rank]
        if decimal_integer(rank) is None:
            _malformed(observer, here, lineno, f"rank {rank!r} is not an integer")
            continue
        rsv = cols[at_rsv]
        if not is_rsv(rsv):
            _malformed(observer, here, lineno, f"score {rsv!r} is not a number")
            continue
        tag = cols[at_tag]
        if not run_id:
            run_id = reader.run_id = tag
            reader.run_id_line = lineno
        elif tag != run_id:
            observer.issue(Issue("run_tag", here, lineno, value=tag))
        if here != topic:
            if rows:
                hygiene.add(_text_block(topic, rows, numbers, at_fields, at_rank, at_rsv))
            topic, rows, numbers = here, [], []
        rows.append(cols)
        numbers.append(lineno)
        if len(rows) == _BLOCK:  # a long topic: hand over what is read (module docstring)
            hygiene.add(_text_block(topic, rows, numbers, at_fields, at_rank, at_rsv))
            rows, numbers = [], []
    if rows:
        hygiene.add(_text_block(topic, rows, numbers, at_fields, at_rank, at_rsv))


def _text_block(topic: str, rows: list[list[str]], numbers: list[int], at_fields: list[int],
                at_rank: int, at_rsv: int) -> Block:
    return Block(topic, len(rows), [[r[at] for r in rows] for at in at_fields],
                 [r[at_rank] for r in rows], [r[at_rsv] for r in rows], numbers.__getitem__)


# --------------------------------------------------------------------------- hygiene


class _TopicState:
    """Per-topic hygiene state."""

    __slots__ = ("last_rank", "seen", "submitted")

    def __init__(self) -> None:
        self.submitted = 0
        self.seen: set[Hashable] = set()
        self.last_rank: int | None = None


@functools.cache
def _rank_texts() -> list[str]:
    """``str(i)`` for the ranks most runs use, to recognise ``"1", "2", ...`` without int(): made when
    first needed (10,001 strings, half a millisecond of a FOL evaluation that needs none)."""
    return [str(i) for i in range(10_001)]


def rank_value(raw: str) -> int:
    """A rank text as an integer (docs/formats.md §1.7): ASCII digits with an optional sign, XML white
    space around ignored; ValueError otherwise (``1_0``, ``1.0``, another script's digits)."""
    v = decimal_integer(raw.strip(_XML_SPACE))
    if v is None:
        raise ValueError(raw)
    return v


def is_rsv(raw: str) -> bool:
    """Whether RAW is an rsv (docs/formats.md §1.7): a decimal number, or ``inf``, ``infinity``,
    ``nan`` (any case, signed or not: numbers, but not finite ones); XML white space around ignored."""
    t = raw.strip(_XML_SPACE)
    return decimal_number(t) is not None or t.lstrip("+-").lower() in _NON_FINITE


_XML_SPACE = " \t\n\r"
_NON_FINITE = ("inf", "infinity", "nan")


def _integer_ranks(raws: list) -> np.ndarray | None:
    """:func:`rank_value` of every rank text as int64, or None if one is not an integer text or does not fit.

    Consecutive ranks written plainly (``"1", "2", ...``, the usual case) are
    recognised by comparing the list with :func:`_rank_texts`.
    """
    first = raws[0]
    if type(first) is str and first.isascii() and first.isdigit():
        start = int(first)
        stop = start + len(raws)
        texts = _rank_texts()
        if stop <= len(texts) and raws == texts[start:stop]:
            return np.arange(start, stop, dtype=np.int64)
    try:
        return np.fromiter(map(rank_value, raws), dtype=np.int64, count=len(raws))
    except (ValueError, TypeError, AttributeError, OverflowError):
        return None


class _Hygiene:
    """Run hygiene (module docstring), a block at a time; tells the observer each block's outcome and issues.

    Whole lists first (:meth:`Unit.keys`, a set for duplicates, numpy for
    ranks); where that declines (an invalid result, a duplicate, a rank that
    is not a 64-bit integer), one result at a time, with the same issues.
    """

    def __init__(self, unit: Unit, max_results: int, observer: RunObserver):
        self.unit = unit
        self.max_results = max_results
        self.observer = observer
        self._topics: dict[str, _TopicState] = {}
        self._previous: str | None = None
        #: the strings the run's keys hold, each once (:class:`~inexeval.readers.units.ElementUnit`)
        self._strings: dict[str, str] = {}

    def add(self, block: Block) -> None:
        topic = block.topic
        st = self._topics.get(topic)
        if st is None:
            st = self._topics[topic] = _TopicState()
        elif topic != self._previous:
            self.observer.issue(Issue("repeated_topic", topic, block.line(0)))
        self._previous = topic
        n = block.n
        keep = min(n, max(0, self.max_results - st.submitted))
        st.submitted += n
        if block.ranks is not None:
            self._check_ranks(st, block)
        kept, keys = self._keys(st, block, keep)
        if n > keep:
            self.observer.issue(Issue("beyond", topic, block.line(keep), count=n - keep))
        self.observer.block(block, kept, keys)

    def _keys(self, st: _TopicState, block: Block, keep: int) -> tuple[list[int] | None, list[Hashable]]:
        """(kept, keys) of the first ``keep`` results: invalid ones skipped, duplicates dropped."""
        columns = block.fields if keep == block.n else [f[:keep] for f in block.fields]
        if _BULK:
            keys = self.unit.keys(columns, self._strings)
            if keys is not None:
                fresh = set(keys)
                if len(fresh) == keep and st.seen.isdisjoint(fresh):
                    if st.seen:
                        st.seen |= fresh
                    else:
                        st.seen = fresh
                    return None, keys
        kept: list[int] = []
        keys = []
        seen = st.seen
        topic = block.topic
        for i, raw in enumerate(zip(*columns)):
            try:
                key = self.unit.key(*raw, strings=self._strings)
            except InvalidPath as exc:
                self.observer.issue(Issue("invalid", topic, block.line(i), str(exc)))
                continue
            if key in seen:
                self.observer.issue(Issue("duplicate", topic, block.line(i), value=key))
                continue
            seen.add(key)
            kept.append(i)
            keys.append(key)
        return kept, keys

    def _check_ranks(self, st: _TopicState, block: Block) -> None:
        """Ranks must increase strictly down the topic (any start, gaps allowed); texts that are
        not integers (or absent) are skipped, the next one compared with the last integer."""
        ranks = block.ranks
        values = _integer_ranks(ranks) if _BULK else None
        if values is not None:
            late = np.flatnonzero(values[1:] <= values[:-1]) + 1  # result i ranked at or above result i - 1
            if st.last_rank is not None and values[0] <= st.last_rank:
                late = np.concatenate(([0], late))
            if late.size:
                i = int(late[0])
                previous = int(values[i - 1]) if i else st.last_rank
                self.observer.issue(Issue("rank_order", block.topic, block.line(i),
                                          value=(int(values[i]), previous), count=int(late.size)))
            st.last_rank = int(values[-1])
            return
        last = st.last_rank
        for i, raw in enumerate(ranks):
            if type(raw) is not str:  # absent (or, from an XPath, not text: no .text)
                continue
            try:
                rank = rank_value(raw)
            except ValueError:
                self.observer.issue(Issue("rank_nan", block.topic, block.line(i), value=raw.strip()))
                continue
            if last is not None and rank <= last:
                self.observer.issue(Issue("rank_order", block.topic, block.line(i), value=(rank, last)))
            last = rank
        st.last_rank = last


# --------------------------------------------------------------------------- evaluation


class _Count:
    """Issues of one kind in a run: how many results, the topics in first-seen order, the first issue."""

    __slots__ = ("first", "n", "topics")

    def __init__(self) -> None:
        self.n = 0
        self.topics: dict[str | None, None] = {}
        self.first: Issue | None = None

    def add(self, issue: Issue) -> None:
        self.n += issue.count
        self.topics[issue.topic] = None
        if self.first is None:
            self.first = issue


class _RunBuilder(RunObserver):
    """Evaluation's observer: the kept keys per topic, refusal at the first error, one warning per kind."""

    _WARNED = ("beyond", "invalid", "duplicate", "rank_order", "rank_nan", "run_tag")

    def __init__(self, source: str, max_results: int):
        self.source = source
        self.max_results = max_results
        self.topics: dict[str, list[Hashable]] = {}
        self._counts = {kind: _Count() for kind in self._WARNED}

    def issue(self, issue: Issue) -> None:
        if issue.kind == "malformed":
            raise InputError(issue.message, self.source, issue.line)
        count = self._counts.get(issue.kind)
        if count is not None:
            count.add(issue)

    def block(self, block: Block, kept: list[int] | None, keys: list[Hashable]) -> None:
        have = self.topics.get(block.topic)
        if have is None:
            self.topics[block.topic] = keys
        else:
            have.extend(keys)

    def warnings(self, run_id: str) -> list[str]:
        """One line per kind of issue found (docs/formats.md §9.3), in a fixed order."""
        src = self.source
        out: list[str] = []
        c = self._counts["beyond"]
        if c.n:
            out.append(f"{src}: {c.n} {_plural(c.n, 'result')} beyond MAX_RESULTS={self.max_results} "
                       f"dropped ({_topic_list(c)})")
        c = self._counts["invalid"]
        if c.n:
            out.append(f"{src}: {c.n} invalid {_plural(c.n, 'result')} skipped ({_topic_list(c)}); "
                       f"first at line {c.first.line}: {c.first.message}")
        c = self._counts["duplicate"]
        if c.n:
            out.append(f"{src}: {c.n} duplicate {_plural(c.n, 'result')} dropped ({_topic_list(c)}; first at line "
                       f"{c.first.line})")
        c = self._counts["rank_order"]
        if c.n:
            out.append(f"{src}: rank disagrees with document order for {c.n} {_plural(c.n, 'result')} "
                       f"({_topic_list(c)}; first at line {c.first.line}); document order used")
        c = self._counts["rank_nan"]
        if c.n:
            out.append(f"{src}: {c.n} non-integer rank {_plural(c.n, 'value')} ignored "
                       f"({_topic_list(c)}; first at line {c.first.line}: {c.first.value!r}); document order used")
        c = self._counts["run_tag"]
        if c.n:
            out.append(f"{src}: {c.n} {_plural(c.n, 'line')} with a run tag other than {run_id!r} "
                       f"(first at line {c.first.line}: {c.first.value!r}); {run_id!r} used")
        return out


def _plural(n: int, word: str) -> str:
    return word if n == 1 else word + "s"


def _topic_list(c: _Count) -> str:
    ids = list(c.topics)
    shown = ", ".join(ids[:_MAX_TOPICS_LISTED])
    more = f" and {len(ids) - _MAX_TOPICS_LISTED} more" if len(ids) > _MAX_TOPICS_LISTED else ""
    return f"{_plural(len(ids), 'topic')} {shown}{more}"
