"""The standard-output table of values, written without tabulate when the bytes are sure to be tabulate's.

:func:`inexeval.writers.table.render` prints ``tabulate(rows, headers=header, floatfmt=".4f",
disable_numparse=ids, missingval="-")`` (tabulate's ``simple`` format).  For the tables it prints
every day (id columns of printable ASCII text, then columns of finite floats and None) the layout is
short to state, and writing it here saves importing tabulate (a few tens of ms, with
importlib.metadata) and its per-cell type sniffing (about 0.1 s for a per-topic table of a few
thousand rows).  :func:`simple_table` returns None for anything else, and the caller asks tabulate:
so the text is tabulate's, byte for byte, either way (tests/test_plain_table.py compares the two on
random tables, corner cases included).

tabulate's rules for these tables: a column's width is the widest of its cells and its header plus
2; an id column of text (one of ``text_columns``) is left-aligned, one read as integers
(``disable_numparse`` leaves it out: plain integers) right-aligned; a value column is
right-aligned on the decimal point: a value is ``f"{v:.4f}"``, a missing one ``-`` followed by five
spaces (as wide as the 4 decimals and the point after it); a column of integers (a count) and missing
values is right-aligned, each integer as written and a missing one ``-``; headers are aligned as their column; the
header, a line of dashes, then the rows, the cells separated by two spaces, each line's trailing
spaces removed.
"""

from __future__ import annotations

import math
import re
from typing import Sequence

#: tabulate's reading of an id column it may parse: integers written plainly (names.text_columns)
_PLAIN_INT = re.compile(r"-?(0|[1-9][0-9]*)")
#: a missing value's cell in a column of 4-decimal floats (tabulate's decimal alignment)
_MISSING = "-" + " " * 5


def _plain_text(s: object) -> bool:
    """Whether ``s`` is a cell whose width is its length and which tabulate leaves as it is: a
    non-empty string of printable ASCII, without surrounding blanks, not a bool's name."""
    return (type(s) is str and s != "" and s.isascii() and s.isprintable() and s.strip() == s
            and s not in ("True", "False"))


def simple_table(rows: Sequence[Sequence], header: Sequence[str], n_ids: int, text_columns: Sequence[int]) -> str | None:
    """The table tabulate would write (see the module notes) for ROWS under HEADER, whose first
    N_IDS columns are ids (TEXT_COLUMNS of them are text, the others integers) and the rest values
    (each column float or None, or int or None); None when a row or a header falls outside these rules."""
    width = len(header)
    if not rows or width <= n_ids or not all(_plain_text(h) for h in header):
        return None
    columns = list(zip(*rows))
    if len(columns) != width or any(len(row) != width for row in rows):
        return None
    cells: list[list[str]] = []
    right: list[bool] = []
    for j in range(n_ids):
        col = columns[j]
        if not all(_plain_text(s) for s in col):
            return None
        if j not in text_columns and not all(_PLAIN_INT.fullmatch(s) for s in col):
            return None
        cells.append(list(col))
        right.append(j not in text_columns)
    for j in range(n_ids, width):
        out = _value_cells(columns[j])
        if out is None:
            return None
        cells.append(out)
        right.append(True)
    widths = [max(len(h) + 2, max(map(len, col))) for h, col in zip(header, cells)]
    padded = [[s.rjust(w) for s in col] if r else [s.ljust(w) for s in col]
              for col, w, r in zip(cells, widths, right)]
    lines = ["  ".join(h.rjust(w) if r else h.ljust(w) for h, w, r in zip(header, widths, right)).rstrip(),
             "  ".join("-" * w for w in widths).rstrip()]
    lines += ["  ".join(row).rstrip() for row in zip(*padded)]
    return "\n".join(lines)


def _value_cells(col: Sequence) -> list[str] | None:
    """The cells of a value column: finite floats (4 decimals) or ints (a count), with None as the
    missing value; None for any other column (one of missing values only: tabulate reads it otherwise)."""
    kinds = {type(v) for v in col} - {type(None)}
    if kinds == {float}:
        if not all(v is None or math.isfinite(v) for v in col):
            return None
        return [_MISSING if v is None else f"{v:.4f}" for v in col]
    if kinds == {int}:
        return ["-" if v is None else str(v) for v in col]
    return None
