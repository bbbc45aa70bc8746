"""Readers: user files -> the data model of :mod:`inexeval.model`.

This module holds the one safe way to stream XML that every reader uses
(docs/formats.md §1.2 last item): lxml ``iterparse`` with ``resolve_entities=False``,
``no_network=True``, ``load_dtd=False`` and ``dtd_validation=False``, so a
DOCTYPE naming an absent external DTD parses fine and nothing is fetched.
A document that *declares* entities (``<!ENTITY`` in its internal subset:
"billion laughs", external entities) is refused outright, before lxml sees
its body, and again from lxml's own view of the DTD as a second line of
defence.  Syntax errors become :class:`~inexeval.errors.InputError` with the
file and the line lxml reports.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import IO

from lxml import etree

from inexeval.errors import InputError

__all__ = ["safe_iterparse", "safe_pullparse", "refuse_entity_declarations", "prolog_end", "ENTITY_MESSAGE"]

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
    parser = etree.iterparse(stream, events=events, tag=tag, **_SAFE_OPTIONS)
    first = True
    try:
        for event, elem in parser:
            if first:
                first = False
                _check_docinfo(elem, source)
            yield event, elem
        if first and parser.root is not None:
            _check_docinfo(parser.root, source)
    except etree.XMLSyntaxError as exc:
        line = exc.position[0] if exc.position else getattr(exc, "lineno", None)
        raise InputError(f"malformed XML: {exc.msg}", source, line) from None


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
    parser = etree.XMLPullParser(events=events, tag=tag, **_SAFE_OPTIONS)
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
    except etree.XMLSyntaxError as exc:
        line = exc.position[0] if exc.position else getattr(exc, "lineno", None)
        raise InputError(f"malformed XML: {exc.msg}", source, line) from None


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
