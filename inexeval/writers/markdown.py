"""``--format markdown``: the tables of :mod:`inexeval.writers.papertable` as GitHub pipe tables
(docs/formats.md §9.2.1).

Each table is its caption as a paragraph starting ``Table:`` (pandoc reads it as the table's
caption; GitHub shows it as text), a blank line, and the pipe table (ids left-aligned, numbers
right-aligned); best values are ``**bold**``, an undefined value is ``-``.  Ids are first made cells
as in every format (:func:`inexeval.names.cell`: a backslash doubled, newlines as ``\\n``...), then
every character Markdown could read as syntax is backslash-escaped (``\\ ` * _ | < > [ ] ~ & # ! $``
and a leading ``+``/``-``/``=``), so an id never splits a row, starts a link, code span, emphasis or
HTML tag.
"""

from __future__ import annotations

from typing import Sequence

from inexeval.names import cell
from inexeval.writers.papertable import UNDEFINED, Id, Num, Table

_SYNTAX = frozenset("\\`*_|<>[]~&#!$")
UNDEFINED_MARK = "-"


def escape(text: str) -> str:
    """TEXT (already a cell, or inexeval's own words) as Markdown inline text."""
    s = "".join("\\" + ch if ch in _SYNTAX else ch for ch in text)
    return "\\" + s if s[:1] in ("+", "-", "=") else s


def escape_id(name: str) -> str:
    """An id (run, topic, measure, setting) as Markdown text: a cell, escaped."""
    return escape(cell(str(name)))


def _parts(parts: Sequence) -> str:
    return "".join(UNDEFINED_MARK if p is UNDEFINED else escape_id(p) if isinstance(p, Id) else escape(p)
                   for p in parts)


def _cell(c) -> str:
    if isinstance(c, Num):
        text = c.text() or UNDEFINED_MARK
        text = f"**{text}**" if c.bold and c.defined else text
        return text + (f"<sup>{escape_id(c.sup)}</sup>" if c.sup else "")
    return escape_id(c) if c else ""


def _row(cells: Sequence[str]) -> str:
    return "| " + " | ".join(cells) + " |"


def table(t: Table) -> str:
    """One table: caption paragraph, blank line, pipe table, then its notes as a list."""
    header = [escape_id(h) if h else " " for h in t.header]
    lines = ["Table: " + _parts(t.caption), "", _row(header),
             "|" + "|".join(":---" if a == "l" else "---:" for a in t.align) + "|"]
    lines += [_row([_cell(c) for c in row]) for row in t.rows]
    if t.notes:
        lines += ["", *("- " + _parts(n) for n in t.notes)]
    return "\n".join(lines) + "\n"


def tables(ts: Sequence[Table]) -> str:
    """TS one after the other, a blank line between."""
    return "\n".join(table(t) for t in ts)
