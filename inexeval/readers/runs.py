"""INEX runs: XML submissions (2005 IEEE, 2006 Wikipedia) and 7-column text runs.

SPEC §1.3.  A file whose first non-blank character is ``<`` is an XML
submission (root ``<inex-submission>``); anything else is a text run with one
result per line, ``topic Q0 file rank rsv run-id path``.  Either way the
ranking is the order of the results in the file, never the ``rank`` values.

Run hygiene, per topic, in this order (SPEC §1.3):

1. only the first ``max_results`` submitted results count; the rest are
   dropped and counted;
2. a result whose invalid file id or path (SPEC §1.1) cannot be normalised
   keeps its place among those first ``max_results`` and is then skipped
   (counted);
3. a result whose normalised ``(file, path)`` occurred earlier in the same
   topic is a duplicate: dropped, counted.

A ``<topic>`` without ``<result>`` is the same as an absent topic; a repeated
``<topic>`` id continues that topic.  Each kind of problem gives one warning
per run, with its count and the topics concerned (SPEC §9.3).

Speed: an XML submission is first read a ``<topic>`` at a time, with its
results taken as lists by compiled XPaths and the hygiene applied to whole
lists (:func:`_parse_xml_by_topic`, :meth:`_Collector.add_topic`).  Anything
unusual hands the topic, or the whole file, to the result-by-result reader
(:func:`_parse_xml`, :meth:`_Collector.add`), which defines the outcome:
results, warnings and errors are the same either way.
"""

from __future__ import annotations

import codecs
import gzip
import io
import re
import sys
import zlib
from collections.abc import Callable, Iterable
from pathlib import Path
from sys import intern
from typing import IO

import numpy as np
from lxml import etree

from inexeval.errors import InputError, InvalidPath
from inexeval.model import Run
from inexeval.paths import normalise_file_id, normalise_path
from inexeval.readers import (
    prolog_end,
    refuse_entity_declarations,
    release,
    safe_iterparse,
)

__all__ = ["read_run"]

_GZIP_MAGIC = b"\x1f\x8b"
BOM = b"\xef\xbb\xbf"
SUBMISSION_ROOT = "inex-submission"
_MAX_TOPICS_LISTED = 10
#: The first non-blank byte is ``<`` (blank: what ``bytes.strip`` removes).
_BLANK = b" \t\n\r\x0b\x0c"
_XML_START = re.compile(rb"[ \t\n\r\x0b\x0c]*<")
#: Bytes read at a time when a run is scanned or its head is looked at.
_CHUNK = 1 << 20


def read_run(path: str | Path, *, max_results: int = 1500) -> Run:
    """Read one run file (XML or text, optionally gzip-compressed; ``"-"`` is stdin).

    Returns a :class:`~inexeval.model.Run` whose ``topics`` map each topic id
    to its ``(file, path)`` results after run hygiene, in rank (file) order.
    Raises :class:`~inexeval.errors.InputError` with file and line when the
    run cannot be parsed.
    """
    source = "<stdin>" if str(path) == "-" else str(path)
    run_input = RunInput(path, source)
    head = run_input.head()
    if _XML_START.match(head.removeprefix(BOM)):
        run_id, task, collector = _read_xml(run_input, head, source, max_results)
    else:
        collector = _Collector(source, max_results)
        _check_utf8(run_input)
        with run_input.open() as lines:
            run_id, task = _parse_text(lines, source, collector)
    if not run_id:
        run_id = run_id_from_name(source)
    return Run(
        run_id=run_id,
        source=source,
        task=task,
        topics=collector.topics(),
        warnings=collector.warnings(),
    )


# --------------------------------------------------------------------------- input


def read_run_bytes(path: str | Path, source: str) -> bytes:
    """The whole file as bytes: stdin for ``"-"``, gunzipped when gzip-compressed."""
    return RunInput(path, source).read()


def _gunzip(data: bytes, source: str) -> bytes:
    try:
        return gzip.decompress(data)
    except (OSError, EOFError, zlib.error) as exc:
        raise InputError(f"cannot decompress gzip run: {exc}", source) from None


class RunInput:
    """A run file that its readers may open more than once, each time streamed from the start.

    A file is read from disk on every :meth:`open` (gunzipped on the fly when
    it starts with the gzip magic bytes or is named ``*.gz``), so that a run
    is never held in memory as a whole; stdin (``"-"``) is read once and kept.
    Read errors, including corrupt gzip data, are :class:`InputError` naming
    the file.
    """

    def __init__(self, path: str | Path, source: str):
        self.source = source
        self._data: bytes | None = None
        self._path = Path(path)
        if str(path) == "-":
            try:
                data = sys.stdin.buffer.read()
            except OSError as exc:
                raise InputError(f"cannot read run: {exc.strerror or exc}", source) from None
            self._data = _gunzip(data, source) if data.startswith(_GZIP_MAGIC) else data
            return
        try:
            with open(path, "rb") as fh:
                magic = fh.read(len(_GZIP_MAGIC))
        except OSError as exc:
            raise InputError(f"cannot read run: {exc.strerror or exc}", source) from None
        self._gzip = magic == _GZIP_MAGIC or source.lower().endswith(".gz")

    def open(self) -> _Guarded:
        """A binary stream of the (decompressed) content, from its first byte."""
        if self._data is not None:
            return _Guarded(io.BytesIO(self._data), self.source, False)
        try:
            fh = open(self._path, "rb")  # noqa: SIM115 (closed with the stream returned)
        except OSError as exc:
            raise InputError(f"cannot read run: {exc.strerror or exc}", self.source) from None
        return _Guarded(gzip.GzipFile(fileobj=fh, mode="rb") if self._gzip else fh, self.source, self._gzip, fh)

    def read(self) -> bytes:
        """The whole content."""
        with self.open() as fh:
            return fh.read()

    def head(self) -> bytes:
        """The content up to the first non-blank byte and, when that is ``<``, up to and
        including the root element's start tag (SPEC §1.3: XML or text), or all of it."""
        out = bytearray()
        with self.open() as fh:
            while True:
                chunk = fh.read(_CHUNK)
                out += chunk
                body = bytes(out).removeprefix(BOM).lstrip(_BLANK)
                if not chunk or (body and (not body.startswith(b"<") or prolog_end(body) is not None)):
                    return bytes(out)


class _Guarded(io.IOBase):
    """A binary stream whose read errors are :class:`InputError` (lxml re-raises them as they are)."""

    def __init__(self, stream, source: str, gz: bool, raw=None):
        super().__init__()
        self._stream, self._source, self._gzip = stream, source, gz
        self._raw = raw

    def readable(self) -> bool:
        return True

    def read(self, n: int = -1) -> bytes:
        try:
            return self._stream.read(n)
        except (OSError, EOFError, zlib.error) as exc:
            raise self._error(exc) from None

    def __next__(self) -> bytes:
        """The next line (lines end with ``\\n``), with the same errors as :meth:`read`."""
        try:
            return next(self._stream)
        except (OSError, EOFError, zlib.error) as exc:
            raise self._error(exc) from None

    def _error(self, exc: BaseException) -> InputError:
        if self._gzip:
            return InputError(f"cannot decompress gzip run: {exc}", self._source)
        return InputError(f"cannot read run: {getattr(exc, 'strerror', None) or exc}", self._source)

    def close(self) -> None:
        self._stream.close()
        if self._raw is not None:
            self._raw.close()
        super().close()


def run_id_from_name(source: str) -> str:
    """Run id fallback: the file name without ``.gz`` and one more suffix."""
    name = Path(source).name
    if name.lower().endswith(".gz"):
        name = name[:-3]
    return Path(name).stem or name


# --------------------------------------------------------------------------- XML


#: An entity reference other than the five predefined ones or a character
#: reference.  lxml's XPath does not see entity-reference nodes (``.text`` stops
#: at them), so a file with one is left to the streaming reader.
_ENTITY_REF = re.compile(rb"&(?!#|(?:amp|lt|gt|quot|apos);)")
#: A ``<result>`` start tag in the raw bytes.
_RESULT_TAG = re.compile(rb"<result[ \t\r\n/>]")


def _read_xml(run_input: RunInput, head: bytes, source: str,
              max_results: int) -> tuple[str, str | None, _Collector]:
    """Read an ``<inex-submission>``: (run id, task, collector after hygiene).

    The prolog (in ``head``, :meth:`RunInput.head`) is checked for entity declarations, then one streamed pass
    over the bytes (:func:`_scan`) tells whether the per-topic reader
    :func:`_parse_xml_by_topic` may be used.  When it may not, or declines
    (anything unusual, any error), the file is read again from the start by
    the per-result reader :func:`_parse_xml`, which is the reference for
    every result, warning and error (file and line).  Both give the same Run
    for every file the first one accepts.
    """
    refuse_entity_declarations(head, source)
    entity_refs, result_prefixes, result_tags = _scan(run_input)
    if not entity_refs:
        collector = _Collector(source, max_results)
        try:
            with run_input.open() as fh:
                got = _parse_xml_by_topic(fh, source, collector)
        except InputError:
            got = None
        # every <result tag of the file must have been read as a topic's result
        if got is not None and got[2] in (result_prefixes, result_tags):
            return got[0], got[1], collector
    collector = _Collector(source, max_results)
    with run_input.open() as fh:
        run_id, task = _parse_xml(fh, source, collector)
    return run_id, task, collector


def _scan(run_input: RunInput) -> tuple[bool, int, int]:
    """One streamed pass over a run's bytes: (has an entity reference other than the predefined
    ones, occurrences of ``<result``, of a ``<result`` tag name), as if the whole file were searched.

    Each chunk is searched together with the last 7 bytes before it: a match
    is counted in the chunk where it ends (no pattern fits in 7 bytes
    without a byte of the new chunk, given the search start); an ``&`` is
    judged once 5 bytes follow it (the look-ahead of :data:`_ENTITY_REF`) or
    at the end of the file.
    """
    entity = False
    result_prefixes = result_tags = 0
    tail = b""
    with run_input.open() as fh:
        while True:
            chunk = fh.read(_CHUNK)
            buf = tail + chunk
            if chunk:
                result_prefixes += buf.count(b"<result", max(0, len(tail) - 6))
                result_tags += len(_RESULT_TAG.findall(buf, max(0, len(tail) - 7)))
            if not entity:
                m = _ENTITY_REF.search(buf, max(0, len(tail) - 5))
                entity = m is not None and m.start() < (len(buf) - 5 if chunk else len(buf))
            if not chunk:
                return entity, result_prefixes, result_tags
            tail = buf[-7:]


def _parse_xml_by_topic(stream: IO[bytes], source: str, collector: _Collector) -> tuple[str, str | None, int] | None:
    """Stream an ``<inex-submission>`` one ``<topic>`` at a time; (run id, task, results read) or None.

    One ``end`` event per ``<topic>``; its results are taken in bulk by
    compiled XPaths (``result/file[last()]/node()[1]``: the leading text node
    of a result's last ``<file>``, which is what the per-result reader reads as
    ``.text``: libxml2 merges adjacent text, CDATA included, and files with
    entity references, the one node XPath skips, never come here), and
    :meth:`_Collector.add_topic` applies the hygiene to whole lists.  A topic
    whose lists do not line up with its results, or that has an invalid
    result, a duplicate or a non-integer rank, is done result by result
    exactly as :func:`_parse_xml` does.

    Returns None, leaving the file to :func:`_parse_xml`, where that reader
    would raise an error: wrong root and a ``<topic>`` with results but no
    id.  A ``<result>`` that is not a child of a ``<topic>`` is detected by
    the caller: the results read from topics must be every ``<result`` tag
    in the bytes.
    """
    results_of = etree.XPath("result")
    count_results = etree.XPath("count(result)")
    file_texts, path_texts, rank_texts = (
        etree.XPath(f"result/{tag}[last()]/node()[1]", smart_strings=False) for tag in ("file", "path", "rank")
    )
    root = None
    listed = 0
    events = safe_iterparse(stream, source, events=("end",), tag=("topic", SUBMISSION_ROOT))
    for _event, elem in events:
        if root is None:
            root = elem.getroottree().getroot()
            if root.tag != SUBMISSION_ROOT:
                return None
        if elem.tag != "topic":
            continue
        n = int(count_results(elem))
        if n:
            topic = (elem.get("topic-id") or "").strip()
            if not topic:
                return None
            listed += n
            files = file_texts(elem)
            paths = path_texts(elem)
            ranks = rank_texts(elem)
            # No rank text anywhere means every rank is None: nothing to check.
            aligned = len(files) == n and len(paths) == n and len(ranks) in (0, n)
            if not (aligned and collector.add_topic(topic, n, files, paths, ranks, _LineOf(results_of, elem))):
                for res in results_of(elem):
                    collector.add(topic, *_fields(res), res.sourceline)
        release(elem)
    if root is None:
        return None
    run_id = (root.get("run-id") or "").strip()
    task = (root.get("task") or "").strip() or None
    return run_id, task, listed


class _LineOf:
    """``line_of(i)``: the line of the i-th ``<result>`` of a topic (its elements are found on first use)."""

    __slots__ = ("_results", "_results_of", "_topic")

    def __init__(self, results_of: etree.XPath, topic: etree._Element):
        self._results_of = results_of
        self._topic = topic
        self._results: list[etree._Element] | None = None

    def __call__(self, i: int) -> int | None:
        if self._results is None:
            self._results = self._results_of(self._topic)
        return self._results[i].sourceline


def _fields(result: etree._Element) -> tuple[str | None, str | None, str | None]:
    """(file, path, rank) texts of a ``<result>``: the last child of each name wins."""
    file_raw = path_raw = rank_raw = None
    for child in result:
        ctag = child.tag
        if ctag == "file":
            file_raw = child.text
        elif ctag == "path":
            path_raw = child.text
        elif ctag == "rank":
            rank_raw = child.text
    return file_raw, path_raw, rank_raw


def _parse_xml(stream: IO[bytes], source: str, collector: _Collector) -> tuple[str, str | None]:
    """Stream an ``<inex-submission>`` result by result; return (run id, task).

    The reference reader (the caller has checked the prolog for entity
    declarations).  Only ``end`` events of ``<result>`` and ``<topic>`` are
    asked for; a result's topic is its parent element, whose attributes are
    complete by then.
    """
    root = None
    topic_elem = None  # the <topic> element of the previous result
    topic = ""
    add = collector.add
    events = safe_iterparse(stream, source, events=("end",), tag=("result", "topic", SUBMISSION_ROOT))
    for _event, elem in events:
        if root is None:
            root = elem.getroottree().getroot()
            if root.tag != SUBMISSION_ROOT:
                raise InputError(
                    f"not an INEX submission: root element is <{root.tag}>, expected <{SUBMISSION_ROOT}>",
                    source,
                    root.sourceline,
                )
        tag = elem.tag
        if tag == "result":
            par = elem.getparent()
            if par is not topic_elem:
                if par is None or par.tag != "topic":
                    raise InputError("<result> outside <topic>", source, elem.sourceline)
                topic = (par.get("topic-id") or "").strip()
                if not topic:
                    raise InputError("<topic> without a topic-id attribute", source, par.sourceline)
                topic_elem = par
            add(topic, *_fields(elem), elem.sourceline)
            release(elem)
        elif tag == "topic":
            topic_elem = None
            release(elem)
    if root is None:
        raise InputError(f"not an INEX submission: no <{SUBMISSION_ROOT}> element", source, None)
    run_id = (root.get("run-id") or "").strip()
    task = (root.get("task") or "").strip() or None
    return run_id, task


# --------------------------------------------------------------------------- text


def _check_utf8(run_input: RunInput) -> None:
    """InputError with the line of the first byte that is not UTF-8, read in chunks.

    A pass of its own, so that this error comes first, whatever else the
    text run holds (as when the whole file was decoded at once).
    """
    decoder = codecs.getincrementaldecoder("utf-8")()
    lines_before = 0
    with run_input.open() as fh:
        while True:
            chunk = fh.read(_CHUNK)
            try:
                decoder.decode(chunk, final=not chunk)
            except UnicodeDecodeError as exc:
                # exc.object: at most 3 held-back bytes of a split character (no newline), then chunk
                line = lines_before + exc.object.count(b"\n", 0, exc.start) + 1
                raise InputError("run is not valid UTF-8", run_input.source, line) from None
            if not chunk:
                return
            lines_before += chunk.count(b"\n")


def _parse_text(lines: Iterable[bytes], source: str, collector: _Collector) -> tuple[str, None]:
    """Read ``topic Q0 file rank rsv run-id path`` lines (UTF-8, checked); return (run id, None)."""
    run_id = ""
    other_tags = 0
    first_other: tuple[int, str] | None = None
    add = collector.add
    for lineno, raw in enumerate(lines, 1):
        line = raw.decode("utf-8")
        if lineno == 1:
            line = line.removeprefix("\ufeff")  # a byte order mark
        cols = line.split()
        if not cols:
            continue
        if len(cols) != 7:
            raise InputError(
                f"expected 7 columns 'topic Q0 file rank rsv run-id path', found {len(cols)}",
                source,
                lineno,
            )
        topic, _q0, file_raw, rank_raw, rsv_raw, tag, path_raw = cols
        try:
            int(rank_raw)
        except ValueError:
            raise InputError(f"rank {rank_raw!r} is not an integer", source, lineno) from None
        try:
            float(rsv_raw)
        except ValueError:
            raise InputError(f"score {rsv_raw!r} is not a number", source, lineno) from None
        if not run_id:
            run_id = tag
        elif tag != run_id:
            other_tags += 1
            if first_other is None:
                first_other = (lineno, tag)
        add(topic, file_raw, path_raw, rank_raw, lineno)
    if first_other is not None:
        collector.extra.append(
            f"{source}: {other_tags} {_plural(other_tags, 'line')} with a run tag other than "
            f"{run_id!r} (first at line {first_other[0]}: {first_other[1]!r}); {run_id!r} used"
        )
    return run_id, None


# --------------------------------------------------------------------------- hygiene


class _Topic:
    """Per-topic hygiene state."""

    __slots__ = ("last_rank", "results", "seen", "submitted")

    def __init__(self) -> None:
        self.submitted = 0
        self.results: list[tuple[str, str]] = []
        self.seen: set[tuple[str, str]] = set()
        self.last_rank: int | None = None


class _Count:
    """A counted problem: total, per-topic presence in first-seen order, first example."""

    __slots__ = ("first", "n", "topics")

    def __init__(self) -> None:
        self.n = 0
        self.topics: dict[str, None] = {}
        self.first: str | None = None

    def hit(self, topic: str, first: str | None = None) -> None:
        self.n += 1
        self.topics[topic] = None
        if self.first is None:
            self.first = first

    def hits(self, topic: str, k: int) -> None:
        """``k`` hits in ``topic``; the caller sets ``first`` if it is still unset."""
        self.n += k
        self.topics[topic] = None


class _Normalised(dict):
    """Raw string -> normalised form, or None when invalid; computed on the first look-up.

    Runs repeat few distinct file ids and paths (within a run and across the
    runs of one collection), so each is normalised once per process.  At most
    ``limit`` strings are kept; later new ones are normalised on every
    look-up.  A value that is not a string (an element node, in a malformed
    result) gives None and is not stored.
    """

    __slots__ = ("_limit", "_normalise")

    def __init__(self, normalise: Callable[[str], str], limit: int):
        super().__init__()
        self._normalise = normalise
        self._limit = limit

    def __missing__(self, raw: object) -> str | None:
        if type(raw) is not str:
            return None
        try:
            value = self._normalise(raw)
        except InvalidPath:
            value = None
        if len(self) < self._limit:
            self[raw] = value
        return value


_FILE_IDS = _Normalised(normalise_file_id, 200_000)
_PATHS = _Normalised(normalise_path, 200_000)


def _ascii_classes(classes: dict[str, str]) -> dict[int, str]:
    """A ``str.translate`` table: the given characters to their class, other ASCII to ``?``."""
    table = {chr(c): "?" for c in range(128)}
    for chars, cls in classes.items():
        table.update(dict.fromkeys(chars, cls))
    return str.maketrans(table)


_LETTERS = "abcdefghijklmnopqrstuvwxyz"
_DIGITS = "0123456789"

#: File-id characters by class: ``/`` and ``.`` kept, ``x m l`` in either
#: case lower-cased (a ``.xml`` ending), white space, controls and ``\\`` to
#: ``?``, any other printable ASCII ``a``; non-ASCII is left as it is.
_FILE_ID_CLASSES = _ascii_classes(
    {
        "".join(chr(c) for c in range(33, 127) if chr(c) not in "\\/."): "a",
        "/": "/",
        ".": ".",
        "xX": "x",
        "mM": "m",
        "lL": "l",
        "\0": "\0",
    }
)
#: The shape of a file id that :func:`~inexeval.paths.normalise_file_id`
#: leaves as it is (SPEC §1.1): not empty, no white space or ``\\``, no
#: leading ``/`` or ``./``, no ``.xml`` ending.
_PLAIN_FILE_ID = re.compile(r"(?!/|\./)[axml./]+(?<!\.xml)")

#: Path characters by class: tag start ``a`` (``a-z _``), digit ``0`` (1-9)
#: or ``z`` (0), other tag character ``.`` (``. : -``), ``/ [ ]`` kept, any
#: other ASCII ``?`` (upper case, white space, ...); non-ASCII is left as it is.
_PATH_CLASSES = _ascii_classes(
    {_LETTERS + "_": "a", _DIGITS[1:]: "0", "0": "z", ".:-": ".", "/": "/", "[": "[", "]": "]", "\0": "\0"}
)
#: The shape of a normalised path (SPEC §1.1, what
#: :func:`~inexeval.paths.normalise_path` writes): steps ``/tag[n]``, a
#: lower-case tag ``[a-z_][a-z0-9_.:-]*``, n without leading zeros,
#: 1 <= n < 10^18.
_NORMAL_PATH = re.compile(r"(?:/a[a.0z]*\[0[0z]{0,17}\])+")

_file_id_shapes: dict[str, bool] = {}
_path_shapes: dict[str, bool] = {}


def _plain_file_ids(raws: list[str]) -> bool:
    """True only if :func:`~inexeval.paths.normalise_file_id` leaves every one of ``raws`` unchanged."""
    return _all_plain(raws, _FILE_ID_CLASSES, _PLAIN_FILE_ID, _file_id_shapes)


def _plain_paths(raws: list[str]) -> bool:
    """True only if :func:`~inexeval.paths.normalise_path` leaves every one of ``raws`` unchanged."""
    return _all_plain(raws, _PATH_CLASSES, _NORMAL_PATH, _path_shapes)


def _all_plain(raws: list[str], classes: dict[int, str], plain: re.Pattern[str], known: dict[str, bool]) -> bool:
    """True only if every string of ``raws``, mapped to character classes, fully matches ``plain``.

    The strings are mapped all at once (joined by NUL, which no XML text
    holds) and split again; a run has few distinct shapes (``/article[1]/p[10]``
    -> ``/aaaaaaa[0]/a[0z]``), each matched once and remembered in ``known``.
    This replaces a look-up per result by C-level work on the whole list.
    May be False for a plain string (e.g. an id with inner white space): the
    caller then normalises one by one.
    """
    if not raws:
        return True
    try:
        shapes = "\0".join(raws).translate(classes).split("\0")
    except TypeError:  # an element node, in a malformed result
        return False
    if len(shapes) != len(raws):  # a NUL inside a string
        return False
    for shape in set(shapes):
        ok = known.get(shape)
        if ok is None:
            ok = plain.fullmatch(shape) is not None
            if len(known) < 10_000:
                known[shape] = ok
        if not ok:
            return False
    return True


#: ``str(i)`` for the ranks most runs use, to recognise ``"1", "2", ...`` without int().
_RANK_TEXT = [str(i) for i in range(10_001)]


def _integer_ranks(raws: list[str]) -> np.ndarray | None:
    """``int()`` of every rank text as int64, or None if one is not an integer or does not fit.

    Consecutive ranks written plainly (``"1", "2", ...``, the usual case) are
    recognised by comparing the list with :data:`_RANK_TEXT`.
    """
    first = raws[0]
    if type(first) is str and first.isascii() and first.isdigit():
        start = int(first)
        stop = start + len(raws)
        if stop <= len(_RANK_TEXT) and raws == _RANK_TEXT[start:stop]:
            return np.arange(start, stop, dtype=np.int64)
    try:
        return np.fromiter(map(int, raws), dtype=np.int64, count=len(raws))
    except (ValueError, TypeError, OverflowError):
        return None


class _Collector:
    """Applies run hygiene, result by result or a topic at a time, and words the run's warnings."""

    def __init__(self, source: str, max_results: int):
        self.source = source
        self.max_results = max_results
        self._topics: dict[str, _Topic] = {}
        self._file_ids = _FILE_IDS
        self._paths = _PATHS
        self.beyond = _Count()
        self.invalid = _Count()
        self.duplicate = _Count()
        self.rank_order = _Count()
        self.rank_nan = _Count()
        self.extra: list[str] = []

    def add(
        self, topic: str, file_raw: str | None, path_raw: str | None, rank_raw: str | None, line: int | None
    ) -> None:
        """Apply SPEC §1.3 hygiene to one submitted result of ``topic``."""
        st = self._topics.get(topic)
        if st is None:
            st = self._topics[topic] = _Topic()
        st.submitted += 1
        if rank_raw is not None:
            self._check_rank(st, topic, rank_raw, line)
        if st.submitted > self.max_results:
            self.beyond.hit(topic)
            return
        try:
            if file_raw is None:
                raise InvalidPath("missing <file>")
            fid = self._file_ids[file_raw]
            if fid is None:  # invalid: normalise again for the message
                fid = normalise_file_id(file_raw)
            if path_raw is None:
                raise InvalidPath("missing <path>")
            norm = self._paths[path_raw]
            if norm is None:
                norm = normalise_path(path_raw)
            key = (intern(fid), intern(norm))
        except InvalidPath as exc:
            self.invalid.hit(topic, f"line {line}: {exc}")
            return
        if key in st.seen:
            self.duplicate.hit(topic)
            return
        st.seen.add(key)
        st.results.append(key)

    def add_topic(
        self,
        topic: str,
        n: int,
        files: list[str],
        paths: list[str],
        ranks: list[str],
        line_of: Callable[[int], int | None],
    ) -> bool:
        """Apply SPEC §1.3 hygiene to the ``n`` submitted results of one ``<topic>`` at once.

        ``files``, ``paths`` and ``ranks`` hold each result's raw texts in
        document order (``ranks`` is empty when no result has a rank);
        ``line_of(i)`` is the line of result ``i``, asked for only when a
        warning needs it.  The outcome is that of :meth:`add` on each result
        in turn.  Returns False, having changed nothing, when the topic has an
        invalid result, a duplicate among the first ``max_results``, or a rank
        that is not a 64-bit integer: the caller then uses :meth:`add`.
        """
        st = self._topics.get(topic)
        keep = min(n, max(0, self.max_results - (st.submitted if st is not None else 0)))
        fids = files[:keep]
        if not _plain_file_ids(fids):
            fids = list(map(self._file_ids.__getitem__, fids))
            if None in fids:
                return False
        norms = paths[:keep]
        if not _plain_paths(norms):
            norms = list(map(self._paths.__getitem__, norms))
            if None in norms:
                return False
        # one string object per distinct file id and path (a run repeats them: memory)
        keys = list(zip(map(intern, fids), map(intern, norms)))
        fresh = set(keys)
        if len(fresh) != keep or (st is not None and not st.seen.isdisjoint(fresh)):
            return False
        rank_values = None
        if ranks:
            rank_values = _integer_ranks(ranks)
            if rank_values is None:
                return False
        if st is None:
            st = self._topics[topic] = _Topic()
        st.submitted += n
        if rank_values is not None:
            self._check_ranks(st, topic, rank_values, line_of)
        if n > keep:
            self.beyond.hits(topic, n - keep)
        if st.seen:
            st.seen |= fresh
        else:
            st.seen = fresh
        st.results.extend(keys)
        return True

    def _check_ranks(
        self, st: _Topic, topic: str, ranks: np.ndarray, line_of: Callable[[int], int | None]
    ) -> None:
        """:meth:`_check_rank` on every rank of a topic at once (all are integers)."""
        late = np.flatnonzero(ranks[1:] <= ranks[:-1]) + 1  # result i ranked at or above result i - 1
        if st.last_rank is not None and ranks[0] <= st.last_rank:
            late = np.concatenate(([0], late))
        if late.size:
            c = self.rank_order
            c.hits(topic, int(late.size))
            if c.first is None:
                c.first = f"line {line_of(int(late[0]))}"
        st.last_rank = int(ranks[-1])

    def _check_rank(self, st: _Topic, topic: str, rank_raw: str, line: int | None) -> None:
        """Ranks must increase strictly along document order (any start, gaps allowed)."""
        try:
            rank = int(rank_raw)
        except ValueError:
            self.rank_nan.hit(topic, f"line {line}: {rank_raw.strip()!r}")
            return
        if st.last_rank is not None and rank <= st.last_rank:
            self.rank_order.hit(topic, f"line {line}")
        st.last_rank = rank

    def topics(self) -> dict[str, list[tuple[str, str]]]:
        return {t: st.results for t, st in self._topics.items()}

    def warnings(self) -> list[str]:
        src = self.source
        out: list[str] = []
        c = self.beyond
        if c.n:
            out.append(
                f"{src}: {c.n} {_plural(c.n, 'result')} beyond MAX_RESULTS={self.max_results} "
                f"dropped ({_topic_list(c)})"
            )
        c = self.invalid
        if c.n:
            out.append(
                f"{src}: {c.n} invalid {_plural(c.n, 'result')} skipped ({_topic_list(c)}); first at {c.first}"
            )
        c = self.duplicate
        if c.n:
            out.append(f"{src}: {c.n} duplicate {_plural(c.n, 'result')} dropped ({_topic_list(c)})")
        c = self.rank_order
        if c.n:
            out.append(
                f"{src}: rank disagrees with document order for {c.n} {_plural(c.n, 'result')} "
                f"({_topic_list(c)}; first at {c.first}); document order used"
            )
        c = self.rank_nan
        if c.n:
            out.append(
                f"{src}: {c.n} non-integer rank {_plural(c.n, 'value')} ignored "
                f"({_topic_list(c)}; first at {c.first}); document order used"
            )
        return out + self.extra


def _plural(n: int, word: str) -> str:
    return word if n == 1 else word + "s"


def _topic_list(c: _Count) -> str:
    ids = list(c.topics)
    shown = ", ".join(ids[:_MAX_TOPICS_LISTED])
    more = f" and {len(ids) - _MAX_TOPICS_LISTED} more" if len(ids) > _MAX_TOPICS_LISTED else ""
    return f"{_plural(len(ids), 'topic')} {shown}{more}"
