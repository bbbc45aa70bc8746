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
"""

from __future__ import annotations

import os
import re
import stat
import sys
from collections.abc import Iterator
from typing import IO, TYPE_CHECKING

if TYPE_CHECKING:
    from lxml import etree


from inexeval.errors import InputError

__all__ = ["safe_iterparse", "safe_pullparse", "refuse_entity_declarations", "prolog_end", "ENTITY_MESSAGE",
           "xml_error", "stdin_bytes", "as_utf8", "wide_encoding", "entry_problem", "STDIN"]

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


def refuse_entity_declarations(data: bytes, source: object) -> None:
    """Raise InputError if ``<!ENTITY`` occurs before the root element of ``data``.

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
        line = data.count(b"\n", 0, at) + 1
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

    parser = etree.iterparse(stream, events=events, tag=tag, **_SAFE_OPTIONS)
    etree.clear_error_log()  # lxml's global log: only this parse's errors in it
    first = True
    try:
        for event, elem in parser:
            if first:
                first = False
                _check_docinfo(elem, source)
            yield event, elem
        if first and parser.root is not None:
            _check_docinfo(parser.root, source)
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


def whole_input(path: object, source: str, what: str, *, located: object = None, gzip_name: bool = False) -> bytes:
    """The whole content of PATH (``-``: standard input) as UTF-8 bytes: gunzipped when it is gzip data
    (GZIP_NAME: or its name ends in ``.gz``), converted when it is UTF-16/32 with a byte order mark
    (docs/formats.md §1.5).  An InputError naming WHAT at LOCATED (default: SOURCE) when it cannot be
    read, at SOURCE when it cannot be decompressed."""
    import gzip
    import zlib

    if str(path) == STDIN:
        data = stdin_bytes(source)
    else:
        try:
            with open(path, "rb") as fh:
                data = fh.read()
        except OSError as exc:
            raise InputError(f"cannot read {what}: {exc.strerror or exc}",
                             source if located is None else located) from None
    if data.startswith(b"\x1f\x8b") or (gzip_name and source.lower().endswith(".gz")):
        try:
            data = gzip.decompress(data)
        except (OSError, EOFError, zlib.error) as exc:
            raise InputError(f"cannot decompress gzip {what}: {exc}", source) from None
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
    first = True
    root = None
    try:
        while True:
            data = stream.read(FEED_BYTES)
            if data:
                parser.feed(data)
            else:
                root = parser.close()
            for event, elem in parser.read_events():
                if first:
                    first = False
                    _check_docinfo(elem, source)
                yield event, elem
            if not data:
                break
            yield None, None
        if first and root is not None:
            _check_docinfo(root, source)
    except etree.XMLSyntaxError as exc:  # the pull parser logs its errors on the exception
        raise xml_error(exc, list(exc.error_log or ()) or parser.error_log, source) from None


def _check_docinfo(elem: etree._Element, source: object) -> None:
    dtd = elem.getroottree().docinfo.internalDTD
    if dtd is not None and any(True for _ in dtd.entities()):
        raise InputError(ENTITY_MESSAGE, source, None)


def release(elem: etree._Element) -> None:
    """Free a processed element and the siblings before it (the iterparse memory idiom)."""
    elem.clear()
    par = elem.getparent()
    if par is not None:
        while elem.getprevious() is not None:
            del par[0]
