"""INEX 2006 highlighted passages -> character spans of the article's text (docs/formats.md §10.1).

A pool file's ``<passage start="P.N" end="Q.M"/>`` marks what the assessor highlighted.  With the
collection (:mod:`inexeval.readers.collection`: start offset and text length of every element,
docs/formats.md §1.4) each point becomes a character position of the article's text:

- ``P.N`` is position start(P) + N, N a whole number from 0 to the text length of P;
- ``P.end`` is start(P) + length(P), the position just after P's last character;

and the passage is the half-open span [position of ``start``, position of ``end``): ``P.0`` to
``P.end`` is exactly the text of P, as an element's (offset, length) is in FOL (docs/fol.md §2).
The ``size`` attribute is not used: the positions decide.  A passage that cannot be placed (a
missing attribute, a point without ``.N`` or ``.end``, an invalid path or one not in the
document, an offset beyond the element, an end before the start) is reported with its file and
line and left out; a document missing from the collection leaves out that article's passages.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

import numpy as np

from inexeval.errors import InputError, InvalidPath
from inexeval.paths import normalise_path

_OFFSET = re.compile(r"[0-9]+|end", re.I)

__all__ = ["position", "passage_span", "article_spans"]


def position(point: str | None, table: Mapping[str, tuple[int, int]], what: str) -> int:
    """The character position of ``PATH.N`` / ``PATH.end`` in a document's element table;
    ValueError with the reason when it cannot be placed."""
    if point is None:
        raise ValueError(f"<passage> without a {what} attribute")
    path, dot, off = point.rpartition(".")
    if not dot or not _OFFSET.fullmatch(off.strip()):
        raise ValueError(f"passage {what} {point!r} is not PATH.N or PATH.end")
    try:
        path = normalise_path(path)
    except InvalidPath as exc:
        raise ValueError(f"passage {what} {point!r}: invalid path: {exc}") from None
    info = table.get(path)
    if info is None:
        raise ValueError(f"passage {what} {point!r}: no element {path} in the document")
    start, length = info
    off = off.strip()
    n = length if off.lower() == "end" else int(off)
    if n > length:
        raise ValueError(f"passage {what} {point!r}: offset {n} beyond the {length} characters of {path}")
    return start + n


def passage_span(passage, table: Mapping[str, tuple[int, int]]) -> tuple[int, int]:
    """``(start, end)`` of a :class:`~inexeval.readers.assessments.RawPassage`; ValueError when it
    cannot be placed (module docstring)."""
    s = position(passage.start, table, "start")
    e = position(passage.end, table, "end")
    if e < s:
        raise ValueError(f"passage ends (position {e}) before it starts (position {s})")
    return s, e


def article_spans(passages: Mapping[str, Iterable], collection, source: str,
                  problems: list[InputError]) -> dict[str, np.ndarray]:
    """Article -> ``(n, 2)`` int64 array of its highlighted spans; what cannot be placed is appended
    to ``problems`` (file and line) and left out."""
    out: dict[str, np.ndarray] = {}
    for article, raws in passages.items():
        try:
            table = collection.table(article)
        except InputError as exc:
            problems.append(InputError(f"{exc.message}; the passages of article {article} in {source} are left "
                                       "out of the agreement on highlighted text", exc.file, exc.line))
            continue
        spans = []
        for p in raws:
            try:
                spans.append(passage_span(p, table))
            except ValueError as exc:
                problems.append(InputError(f"{exc} (article {article}); passage left out of the agreement on "
                                           "highlighted text", source, p.line))
        if spans:
            out[article] = np.array(spans, dtype=np.int64).reshape(-1, 2)
    return out
