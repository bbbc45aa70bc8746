"""Readers: user files -> the data model of :mod:`inexeval.model`.

This module holds the one safe way to stream XML that every reader uses
(docs/formats.md §1.2 last item): lxml ``iterparse`` with ``resolve_entities=False``,
``no_network=True``, ``load_dtd=False`` and ``dtd_validation=False``, so a
DOCTYPE naming an absent external DTD parses fine and nothing is fetched.
A document that *declares* entities (``<!ENTITY`` in its internal subset:
"billion laughs", external entities) is refused outright, before lxml sees
its body, and again from lxml's own view of the DTD as a second line of
defence.  Syntax errors become :class:`~inexeval.errors.InputError` with the
file and the line lxml reports (:func:`xml_error`: when lxml's exception has
no line, the first located error of the parser's log, e.g. an undefined
entity; a message naming an lxml option the tool does not offer is reworded).

It also holds what every reader does with the bytes of an input before
parsing them (docs/formats.md §1.5): standard input read once
(:func:`stdin_bytes`), UTF-16 and UTF-32 with a byte order mark (or an XML
document starting ``<`` in UTF-16) turned into UTF-8 (:func:`as_utf8`), and
why an entry of a directory listing is not read (:func:`entry_problem`: a
dangling symbolic link, a FIFO that would block a reader, ...).

And the bounds every reader keeps (docs/formats.md §1.6), in one place: a compressed
input is decompressed as a stream (:class:`BoundedGunzip`, :func:`bounded_content`) that
gives up once it expands past :data:`EXPANSION_FREE` and :data:`MAX_EXPANSION_RATIO`, and a
line of a text input may hold at most :data:`MAX_LINE_BYTES` (:class:`LineBound`); past a
bound, an :class:`InputTooLarge` (an InputError) names the file, and the line.
"""

from __future__ import annotations

import io
import os
import re
import stat
import sys
from collections.abc import Callable, Iterator
from typing import IO, TYPE_CHECKING

if TYPE_CHECKING:
    from lxml import etree


from inexeval.errors import InputError

__all__ = ["safe_iterparse", "safe_pullparse", "refuse_entity_declarations", "prolog_end", "ENTITY_MESSAGE",
           "xml_error", "stdin_bytes", "as_utf8", "wide_encoding", "entry_problem", "STDIN",
           "EXPANSION_FREE", "MAX_EXPANSION_RATIO", "MAX_LINE_BYTES", "InputTooLarge", "BoundedGunzip",
           "LineBound", "bounded_content", "whole_input"]

ENTITY_MESSAGE = "entity declarations are not allowed"

# Markup that can precede the root element, and the root's start tag itself.
_PROLOG_TOKEN = re.compile(rb"<!--.*?-->|<\?.*?\?>|<[A-Za-z_:]", re.S)


def prolog_end(data: bytes) -> int | None:
    """Offset of the root element's start tag in ``data``; None when ``data`` ends before it.

    Comments and processing instructions of the prolog are skipped; a root
    candidate after an unclosed ``<!--`` or ``<?`` is inside it, so that
    gives None too (the caller reads on).
    """
    pos = 0
    while True:
        m = _PROLOG_TOKEN.search(data, pos)
        if m is None:
            return None
        if not m.group().startswith((b"<!", b"<?")):
            if data.find(b"<!--", pos, m.start()) >= 0 or data.find(b"<?", pos, m.start()) >= 0:
                return None
            return m.start()
        pos = m.end()


def refuse_entity_declarations(data: bytes, source: object, lines_before: int = 0) -> None:
    """Raise InputError if ``<!ENTITY`` occurs before the root element of ``data`` (whose first
    line is the file's line ``lines_before + 1``).

    The internal DTD subset is the only place where entities can be declared,
    and it precedes the root element; comments and processing instructions
    in the prolog are skipped so that text inside them is not mistaken for a
    declaration.  ``data`` may be the whole document or any beginning of it
    that holds the root's start tag (without it, all of ``data`` is taken as
    prolog).
    """
    end = prolog_end(data)
    head = _strip_comments(data[:end])
    at = head.find(b"<!ENTITY")
    if at >= 0:
        line = lines_before + data.count(b"\n", 0, at) + 1
        raise InputError(ENTITY_MESSAGE, source, line)


def _strip_comments(head: bytes) -> bytes:
    return re.sub(rb"<!--.*?-->", lambda m: b" " * len(m.group()), head, flags=re.S)


#: The parser options of every reader (module docstring).
_SAFE_OPTIONS = dict(resolve_entities=False, no_network=True, load_dtd=False, dtd_validation=False,
                     remove_comments=True, remove_pis=True, huge_tree=False)
#: Bytes fed at a time by :func:`safe_pullparse`: what lxml's ``iterparse`` reads at a time.
FEED_BYTES = 32768


def safe_iterparse(
    stream: IO[bytes],
    source: object,
    *,
    events: tuple[str, ...] = ("start", "end"),
    tag: str | tuple[str, ...] | None = None,
) -> Iterator[tuple[str, etree._Element]]:
    """Yield lxml ``iterparse`` events from ``stream`` with the safe settings.

    ``source`` names the file in errors.  On the first event the document's
    internal DTD is checked for entity declarations (InputError if any).
    lxml syntax errors are re-raised as InputError(file, line).
    """
    from lxml import etree  # here, not at import: TREC jobs never load lxml

    watch = _ReferenceWatch(stream, source)
    parser = etree.iterparse(watch, events=events, tag=tag, **_SAFE_OPTIONS)
    etree.clear_error_log()  # lxml's global log: only this parse's errors in it
    first = True
    try:
        for event, elem in parser:
            if first:
                first = False
                _check_docinfo(elem, source, watch)
            yield event, elem
        if first and parser.root is not None:
            _check_docinfo(parser.root, source, watch)
    except etree.XMLSyntaxError as exc:  # the pull parser logs its errors on the exception
        raise xml_error(exc, list(exc.error_log or ()) or parser.error_log, source) from None


#: libxml2's limits that ``huge_tree`` would lift; inexeval keeps them (docs/formats.md §1.5).
LIMITS_NOTE = ("a safety limit of the XML parser, which inexeval keeps: elements nested at most 256 deep, "
               "a text node or attribute value of at most 10,000,000 characters; real assessments, runs "
               "and documents stay far below it, so check that the file is what it should be")
_HUGE_HINT = re.compile(r",?\s*(?:use|try)\s+XML_PARSE_HUGE(?:\s+option)?", re.I)


def xml_error(exc: etree.XMLSyntaxError, log, source: object, what: str = "malformed XML") -> InputError:
    """The InputError for an lxml syntax error: ``file:line: what: message``.

    lxml reports some errors without a line (an undefined entity ends as "no
    element found" at line 0): then the first error of the parser's ``log``
    that has a line is given instead.  A document with no element at all is
    said to be empty.  A message that tells the user to set an lxml option
    (``XML_PARSE_HUGE``) is reworded with the limit and what to do.
    """
    message = exc.msg or str(exc)
    line = exc.position[0] if exc.position else getattr(exc, "lineno", None)
    if not line:
        located = [e for e in (log or ()) if e.line and e.line > 0 and e.level_name in ("ERROR", "FATAL")]
        if located:
            message, line = located[0].message, located[0].line
        else:
            line = None
            if message.startswith(("no element found", "Document is empty")):
                message = "no XML element (empty document)"
    if _HUGE_HINT.search(message):
        message = _HUGE_HINT.sub("", message) + f" ({LIMITS_NOTE})"
    return InputError(f"{what}: {message}", source, line)


# --------------------------------------------------------------------------- bounds on what an input expands to

#: The bounds on decompressed input (docs/formats.md §1.6), in one place (tests lower them).  A compressed
#: input may expand to EXPANSION_FREE bytes whatever its ratio; beyond that, to at most MAX_EXPANSION_RATIO
#: times the compressed bytes read so far.  Real runs, qrels, assessments and answer files compress 3 to
#: 30 times (XML with repeated paths the most); deflate's own limit, reached only by one byte repeated
#: (a "bomb" of blank lines or NULs), is about 1030 times.
EXPANSION_FREE = 16 << 20
MAX_EXPANSION_RATIO = 100
#: The longest line (its newline not counted) of a text input: TREC qrels and runs, QA answer files and
#: runs, FOL and INEX text runs, FOL qrels; real lines are at most a few kB.
MAX_LINE_BYTES = 16 << 20
GZIP_MAGIC = b"\x1f\x8b"
#: Bytes decompressed (and looked at for line ends) at a time.
_PIECE = 1 << 20


class InputTooLarge(InputError):
    """An input beyond the bounds above (a compressed input that expands too much, a line too long)."""


def size_text(n: int) -> str:
    """``16 MiB`` for a whole number of MiB, else ``4,096 bytes``."""
    return f"{n >> 20} MiB" if n and n % (1 << 20) == 0 else f"{n:,} bytes"


def expansion_error(source: object) -> InputTooLarge:
    return InputTooLarge(f"gzip data expands more than {MAX_EXPANSION_RATIO} times beyond "
                         f"{size_text(EXPANSION_FREE)} (a decompression bomb?); not read (docs/formats.md §1.6)",
                         source)


def long_line_error(source: object, line: int) -> InputTooLarge:
    return InputTooLarge(f"line longer than {size_text(MAX_LINE_BYTES)}; not read (docs/formats.md §1.6)",
                         source, line)


class ReadFailure(Exception):
    """An OSError of the compressed file itself (not of its gzip data), as ``__cause__``."""


class _Counted:
    """The compressed stream under a :class:`BoundedGunzip`: HEAD (bytes already read) then RAW,
    counting the bytes handed over; RAW's read errors are :class:`ReadFailure`."""

    def __init__(self, raw: IO[bytes], head: bytes = b""):
        self.raw, self.head, self.n = raw, head, 0

    def read(self, size: int = -1) -> bytes:
        if self.head:
            if size is None or size < 0 or size >= len(self.head):
                data, self.head = self.head, b""
            else:
                data, self.head = self.head[:size], self.head[size:]
        else:
            try:
                data = self.raw.read(size)
            except OSError as exc:
                raise ReadFailure(exc.strerror or str(exc)) from exc
        self.n += len(data)
        return data


class BoundedGunzip(io.RawIOBase):
    """The decompressed content of the gzip stream RAW (after HEAD, its bytes already read), every
    member of it as :mod:`gzip` reads them, within the expansion bound: reading past it raises
    :func:`expansion_error` naming SOURCE.  Bad gzip data raises what :class:`gzip.GzipFile` raises
    (OSError, EOFError, zlib.error); a read error of RAW, :class:`ReadFailure`.  RAW is not closed."""

    def __init__(self, raw: IO[bytes], source: object, head: bytes = b""):
        import gzip

        super().__init__()
        self._in = _Counted(raw, head)
        self._gz = gzip.GzipFile(fileobj=self._in, mode="rb")
        self._out = 0
        self._source = source

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        n = self._gz.readinto(buffer)
        self._out += n
        if self._out > EXPANSION_FREE and self._out > MAX_EXPANSION_RATIO * self._in.n:
            raise expansion_error(self._source)
        return n

    def read(self, size: int = -1) -> bytes:
        if size is None or size < 0:
            return self.readall()
        data = self._gz.read(size)
        self._out += len(data)
        if self._out > EXPANSION_FREE and self._out > MAX_EXPANSION_RATIO * self._in.n:
            raise expansion_error(self._source)
        return data

    def readall(self) -> bytes:
        pieces = []
        while piece := self.read(_PIECE):
            pieces.append(piece)
        return b"".join(pieces)

    def close(self) -> None:
        if not self.closed:
            self._gz.close()
        super().close()


class LineBound:
    """Checks the consecutive pieces of a text for a line longer than :data:`MAX_LINE_BYTES`
    (:func:`long_line_error`, naming SOURCE and the line).  A piece may be at most that long
    (:meth:`piece_size`), so that a line inside one is short enough.  ``lines_before(at)``: how many
    newlines the text has before its byte AT (the pieces are not counted unless a line is too long)."""

    def __init__(self, source: object, lines_before: Callable[[int], int]):
        self.source = source
        self.lines_before = lines_before
        self.offset = 0  # of the next piece in the text
        self.run = 0  # bytes of the current line so far

    @staticmethod
    def piece_size() -> int:
        return max(1, min(_PIECE, MAX_LINE_BYTES))

    def scan(self, data: bytes, start: int = 0, end: int | None = None) -> None:
        """Check DATA[START:END], the text's next piece."""
        end = len(data) if end is None else end
        first = data.find(b"\n", start, end)
        if self.run + ((end if first < 0 else first) - start) > MAX_LINE_BYTES:
            raise long_line_error(self.source, self.lines_before(self.offset - self.run) + 1)
        self.run = self.run + end - start if first < 0 else end - data.rfind(b"\n", start, end) - 1
        self.offset += end - start

    @classmethod
    def check_all(cls, data: bytes, source: object) -> None:
        """Check the whole text DATA."""
        bound = cls(source, lambda at: data.count(b"\n", 0, at))
        step = cls.piece_size()
        for at in range(0, len(data), step):
            bound.scan(data, at, min(at + step, len(data)))


def bounded_content(raw: IO[bytes] | bytes, source: object, *, gz: bool | None = None, lines: bool = False,
                    unreadable: Callable[[str], Exception] | None = None,
                    corrupt: Callable[[BaseException], Exception] | None = None) -> bytes:
    """All of RAW (an open binary file, or bytes already read), gunzipped when GZ (None: when it
    starts with the gzip magic bytes), within the bounds of docs/formats.md §1.6: the expansion
    bound, and with LINES the line bound (InputTooLarge naming SOURCE, and the line).

    Memory: what is returned, and while it is joined the pieces of a compressed input; a
    rejected input is given up as soon as it passes a bound.  A read error of RAW is
    ``unreadable(reason)`` (default: InputError "cannot read: REASON"), bad gzip data
    ``corrupt(exception)`` (default: InputError "bad gzip data: …").
    """
    import zlib

    def cannot_read(reason: str) -> Exception:
        return unreadable(reason) if unreadable is not None else InputError(f"cannot read: {reason}", source)

    try:
        if isinstance(raw, (bytes, bytearray, memoryview)):
            data, stream = bytes(raw), None
            if gz is None:
                gz = data[:2] == GZIP_MAGIC
        else:
            head = raw.read(2)
            if gz is None:
                gz = head == GZIP_MAGIC
            if gz:
                data, stream = b"", raw
            else:
                data, stream = _rest(raw, head), None
    except OSError as exc:
        raise cannot_read(exc.strerror or str(exc)) from None
    if not gz:
        if lines:
            LineBound.check_all(data, source)
        return data
    if stream is None:
        stream, head = io.BytesIO(data), b""
    pieces: list[bytes] = []
    # a line too long started in the pieces kept, after all their newlines
    bound = LineBound(source, lambda _at: sum(p.count(b"\n") for p in pieces)) if lines else None
    try:
        with BoundedGunzip(stream, source, head) as gunzip:
            step = LineBound.piece_size() if lines else _PIECE
            while piece := gunzip.read(step):
                if bound is not None:
                    bound.scan(piece)
                pieces.append(piece)
    except ReadFailure as exc:
        raise cannot_read(str(exc)) from None
    except (OSError, EOFError, zlib.error) as exc:
        raise (corrupt(exc) if corrupt is not None else InputError(f"bad gzip data: {exc}", source)) from None
    del data
    return pieces[0] if len(pieces) == 1 else b"".join(pieces)


def _rest(raw: IO[bytes], head: bytes) -> bytes:
    """HEAD, just read from RAW, and the rest of RAW (RAW rewound when it can be: no copy)."""
    if head:
        try:
            raw.seek(-len(head), io.SEEK_CUR)
        except (OSError, ValueError, AttributeError):
            return head + raw.read()
    return raw.read()


# --------------------------------------------------------------------------- bytes of an input

#: The name that stands for standard input, in config values and on the command line.
STDIN = "-"
_stdin: tuple[object, bytes] | None = None  # (the sys.stdin it was read from, what it held)


def stdin_bytes(source: object = "<stdin>") -> bytes:
    """Everything on standard input, read on the first call and kept (assessments are read
    twice, and forked workers, whose ``sys.stdin`` multiprocessing replaces, use what the parent
    read).  Read again when ``sys.stdin`` is another object (a new invocation in one process)."""
    global _stdin
    current = sys.stdin
    import multiprocessing

    if _stdin is not None and (_stdin[0] is current or multiprocessing.parent_process() is not None):
        return _stdin[1]
    try:
        data = current.buffer.read()
    except (OSError, ValueError, AttributeError) as exc:
        raise InputError(f"cannot read standard input: {getattr(exc, 'strerror', None) or exc}",
                         source) from None
    _stdin = (current, data)
    return data


def whole_input(path: object, source: str, what: str, *, located: object = None, gzip_name: bool = False,
                lines: bool = False) -> bytes:
    """The whole content of PATH (``-``: standard input) as UTF-8 bytes: gunzipped when it is gzip data
    (GZIP_NAME: or its name ends in ``.gz``), converted when it is UTF-16/32 with a byte order mark
    (docs/formats.md §1.5), within the bounds of §1.6 (LINES: a text, whose lines are bounded too).
    An InputError naming WHAT at LOCATED (default: SOURCE) when it cannot be read, at SOURCE when it
    cannot be decompressed or passes a bound."""
    gz = True if gzip_name and source.lower().endswith(".gz") else None

    def unreadable(reason: str) -> InputError:
        return InputError(f"cannot read {what}: {reason}", source if located is None else located)

    def corrupt(exc: BaseException) -> InputError:
        return InputError(f"cannot decompress gzip {what}: {exc}", source)

    if str(path) == STDIN:
        data = bounded_content(stdin_bytes(source), source, gz=gz, lines=lines, unreadable=unreadable,
                               corrupt=corrupt)
    else:
        try:
            fh = open(path, "rb")  # noqa: SIM115 (closed below)
        except OSError as exc:
            raise unreadable(exc.strerror or str(exc)) from None
        with fh:
            data = bounded_content(fh, source, gz=gz, lines=lines, unreadable=unreadable, corrupt=corrupt)
    return as_utf8(data, source)


def cached_stdin() -> bytes | None:
    """What :func:`stdin_bytes` read from the current standard input, or None."""
    import multiprocessing

    if _stdin is not None and (_stdin[0] is sys.stdin or multiprocessing.parent_process() is not None):
        return _stdin[1]
    return None


def _reset_stdin() -> None:
    """Forget what :func:`stdin_bytes` read (tests)."""
    global _stdin
    _stdin = None


def named_file_problem(path: object) -> str | None:
    """Why a file named by the user (an option's value) cannot be read as a file, or None: it does
    not exist, or it is a directory.  ``-`` (standard input), a FIFO or a device is read."""
    if str(path) == "-":
        return None
    if os.path.isdir(path):
        return "a directory, not a file"
    if not os.path.exists(path):
        return "no such file"
    return None


def entry_problem(path: object) -> str | None:
    """Why the entry ``path`` of a directory listing is not read, or None for a regular file."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        if os.path.islink(path):
            try:
                return f"a dangling symbolic link (to {os.readlink(path)})"
            except OSError:
                return "a dangling symbolic link"
        return "no such file (removed while listed?)"
    except OSError as exc:
        return f"cannot be examined: {exc.strerror or exc}"
    if stat.S_ISREG(st.st_mode):
        return None
    if stat.S_ISDIR(st.st_mode):
        return "a directory"
    return f"{special_kind(st.st_mode)}, not a regular file"


def special_kind(mode: int) -> str:
    """How a message names a file that is not a regular file or a directory."""
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "a special file"


#: Byte order marks of the wide encodings read besides UTF-8 (longest first).
_WIDE_BOMS = ((b"\xff\xfe\x00\x00", "UTF-32-LE"), (b"\x00\x00\xfe\xff", "UTF-32-BE"),
              (b"\xff\xfe", "UTF-16-LE"), (b"\xfe\xff", "UTF-16-BE"))
_DECLARED = re.compile(rb"(<\?xml\s[^>]*?encoding\s*=\s*)([\"'])[^\"']*\2")


def wide_encoding(head: bytes) -> str | None:
    """The encoding of data starting with ``head`` (at least 4 bytes when there are) when it is
    UTF-16 or UTF-32: a byte order mark, or an XML document's ``<`` in UTF-16; else None (UTF-8)."""
    for bom, name in _WIDE_BOMS:
        if head.startswith(bom):
            return name
    if head.startswith(b"<\x00") and head[2:4] != b"\x00\x00":
        return "UTF-16-LE"
    if head.startswith(b"\x00<"):
        return "UTF-16-BE"
    return None


def as_utf8(data: bytes, source: object) -> bytes:
    """``data`` as UTF-8 when it is UTF-16 or UTF-32 (:func:`wide_encoding`), else as it is.

    The byte order mark is dropped and an XML declaration's ``encoding`` is
    rewritten as UTF-8, so that every reader reads the same text with the
    same line numbers.  Undecodable data is an InputError naming its line.
    """
    encoding = wide_encoding(data[:4])
    if encoding is None:
        return data
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as exc:
        line = data[: exc.start].decode(encoding, "replace").count("\n") + 1
        raise InputError(f"not valid {encoding} text ({exc.reason})", source, line) from None
    out = text.removeprefix("\ufeff").encode("utf-8")
    head = _DECLARED.match(out)
    if head is not None:
        out = head.group(1) + head.group(2) + b"UTF-8" + head.group(2) + out[head.end():]
    return out


def safe_pullparse(
    stream: IO[bytes],
    source: object,
    *,
    events: tuple[str, ...] = ("start", "end"),
    tag: str | tuple[str, ...] | None = None,
) -> Iterator[tuple[str | None, etree._Element | None]]:
    """:func:`safe_iterparse` that also yields ``(None, None)`` after the events of each chunk fed.

    The caller gets control between two chunks of :data:`FEED_BYTES` bytes
    even inside an element that has no event of its own (e.g. a long
    ``<topic>`` whose ``<result>`` children are not asked for), so that it
    can hand over and delete the children that are complete: the tree then
    holds what the caller keeps, not what was read.  Same parser, options,
    checks and errors as :func:`safe_iterparse`, which reads the same chunks.
    """
    from lxml import etree  # here, not at import: TREC jobs never load lxml

    parser = etree.XMLPullParser(events=events, tag=tag, **_SAFE_OPTIONS)
    etree.clear_error_log()  # the exception's log is lxml's global one: only this parse's errors in it
    watch = _ReferenceWatch(stream, source)
    first = True
    root = None
    try:
        while True:
            data = watch.read(FEED_BYTES)
            if data:
                parser.feed(data)
            else:
                root = parser.close()
            for event, elem in parser.read_events():
                if first:
                    first = False
                    _check_docinfo(elem, source, watch)
                yield event, elem
            if not data:
                break
            yield None, None
        if first and root is not None:
            _check_docinfo(root, source, watch)
    except etree.XMLSyntaxError as exc:  # the pull parser logs its errors on the exception
        raise xml_error(exc, list(exc.error_log or ()) or parser.error_log, source) from None


def _check_docinfo(elem: etree._Element, source: object, watch: _ReferenceWatch) -> None:
    """Refuse entity declarations in the internal DTD subset; watch the references of a document whose
    DTD is external (:class:`_ReferenceWatch`)."""
    docinfo = elem.getroottree().docinfo
    dtd = docinfo.internalDTD
    if dtd is not None and any(True for _ in dtd.entities()):
        raise InputError(ENTITY_MESSAGE, source, None)
    watch.decide(bool(docinfo.system_url or docinfo.public_id), docinfo.system_url or docinfo.public_id)


#: An entity reference other than XML's five predefined ones and character references; comments
#: and CDATA sections are matched first so that what they hold is not taken for a reference.
_REFERENCE = re.compile(rb"<!--.*?-->|<!\[CDATA\[.*?\]\]>|&(?!(?:amp|lt|gt|quot|apos);)([^#;\s<>&][^;\s<>&]*);",
                        re.S)
#: Where such a reference may be (found at C speed; most documents have none, and are not scanned further).
_MAYBE_REFERENCE = re.compile(rb"&(?!(?:amp|lt|gt|quot|apos);|#)")


class _ReferenceWatch:
    """The stream of an XML document, read through, that refuses an entity reference (``&sec;``) in a
    document whose DTD is external (``<!DOCTYPE x SYSTEM "…">``).

    That DTD is never read (no network, no files beyond the input), so its entities are unknown, and
    libxml2 then drops an undeclared reference without an error: ``<path>/article[1]/&sec;</path>``
    would be read as ``/article[1]/``, ``exhaustivity="&two;"`` as ``""``.  Without an external DTD
    such a reference is a well-formedness error the parser reports itself.  Until the parser's first
    event says which (:meth:`decide`), what was read is kept; then it and what follows are scanned
    (a reference cut between two reads is kept whole for the next scan), or nothing more is."""

    def __init__(self, stream: IO[bytes], source: object):
        self.stream, self.source = stream, source
        self.kept: bytes | None = b""  # read and not scanned yet; None: the document needs no watch
        self.armed = False
        self.ended = False  # the stream has given its last byte
        self.lines = 0  # lines before ``kept``
        self.dtd = ""

    def read(self, n: int = -1) -> bytes:
        data = self.stream.read(n)
        self.ended = self.ended or not data or n < 0
        if self.kept is not None:
            self.kept += data
            if self.armed:
                self._scan(final=not data)
        return data

    def decide(self, external: bool, dtd: str | None) -> None:
        if self.kept is None or self.armed:
            return
        if not external:
            self.kept = None
            return
        self.armed, self.dtd = True, dtd or ""
        self._scan(final=self.ended)  # (decided at the end: no read follows to scan the rest)

    def _scan(self, final: bool) -> None:
        data = self.kept
        # keep a tail that may hold the start of a reference, comment or CDATA section cut by the read
        cut = len(data) if final else max(data.rfind(b"&"), data.rfind(b"<"), 0)
        for m in _REFERENCE.finditer(data, 0, cut) if _MAYBE_REFERENCE.search(data, 0, cut) else ():
            if m.group(1) is not None:
                name = m.group(1).decode("utf-8", "replace")
                line = self.lines + data.count(b"\n", 0, m.start()) + 1
                raise InputError(f"entity reference &{name}; in a document whose DTD is external ({self.dtd}), "
                                 "which is never read: its value is unknown; write the text itself", self.source, line)
        self.lines += data.count(b"\n", 0, cut)
        self.kept = data[cut:]


def release(elem: etree._Element) -> None:
    """Free a processed element and the siblings before it (the iterparse memory idiom)."""
    elem.clear()
    par = elem.getparent()
    if par is not None:
        while elem.getprevious() is not None:
            del par[0]
