"""TREC qrels and runs held in Python, turned into the columns the TREC file readers build.

:func:`qrels_from_data` gives the :class:`~inexeval.readers.trec.Qrels` that
:func:`~inexeval.readers.trec.read_qrels` gives for a file with the same
judgements, :func:`run_from_data` the :class:`~inexeval.readers.trec.TrecRun`
that :func:`~inexeval.readers.trec.read_run` gives for a run file with the same
results in the same order: the classic measures then read them as they read files
(docs/formats.md §8.1).  Accepted shapes (ir_measures' and ranx's):

- a dict ``{query_id: {doc_id: relevance}}`` (qrels) or ``{query_id: {doc_id: score}}`` (a run),
  pytrec_eval's shape;
- a table (a pandas DataFrame, or anything with ``columns`` whose columns have ``tolist()`` or
  ``to_list()``) with the columns ``query_id`` (or ranx's ``q_id``), ``doc_id``, and ``relevance``
  (qrels; or ranx's ``score``) or ``score`` (a run); other columns are ignored;
- an iterable of rows ``(query_id, doc_id, relevance)`` / ``(query_id, doc_id, score)``: tuples of three,
  or named tuples with those fields (ir_measures' ``Qrel`` and ``ScoredDoc``).

Ids are ``str``; an ``int`` id (also numpy's) is converted with ``str()``; anything else, an empty id or
one holding a NUL character is an :class:`~inexeval.errors.InputError`.  A relevance value is an integer
within 64 bits (a float with a whole value, such as a DataFrame column of floats holds, is taken as that
integer; 1.5, NaN or a string is refused, as the qrels reader refuses them); a score is a finite number
(an int or a float; NaN, an infinity, a string or None is refused, naming its query and document, as the
run reader refuses a score it cannot read).  A (query, document) judged twice is refused as the qrels
reader refuses it.  A run's rows keep their order, which only matters for a (query, document) retrieved
twice: the first is kept, as the first line of a file is (the order of the results is trec_eval's, by
score descending and document id descending, whatever the order of the rows).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from operator import attrgetter
from typing import Any

import numpy as np

from inexeval.errors import InputError
from inexeval.readers.trec import Qrels, TrecRun, sort_pairs_keyed

__all__ = ["qrels_from_data", "run_from_data", "is_table", "is_path", "QRELS_COLUMNS", "RUN_COLUMNS"]

#: Accepted column names of a qrels table: query id, document id, relevance (ir_measures' first, then ranx's).
QRELS_COLUMNS = (("query_id", "q_id"), ("doc_id",), ("relevance", "score"))
#: Accepted column names of a run table.
RUN_COLUMNS = (("query_id", "q_id"), ("doc_id",), ("score",))

_INT64 = (np.iinfo(np.int64).min, np.iinfo(np.int64).max)


def is_path(x: Any) -> bool:
    """Whether X names a file (a ``str`` or an ``os.PathLike``)."""
    import os

    return isinstance(x, (str, os.PathLike))


def is_table(x: Any) -> bool:
    """Whether X is a table of columns (a pandas or polars DataFrame), told without importing pandas."""
    return not isinstance(x, (Mapping, str, bytes)) and hasattr(x, "columns") and hasattr(x, "__getitem__")


def _shown(v: Any) -> str:
    text = repr(v)
    return text if len(text) <= 60 else text[:57] + "..."


class _Reader:
    """Turns one input's rows into columns, naming the input (SOURCE) and the row in its errors."""

    def __init__(self, source: str, value: str):
        self.source, self.value = source, value  # value: "relevance" or "score"

    def error(self, message: str, row: int | None = None) -> InputError:
        return InputError(message if row is None else f"row {row}: {message}", self.source)

    def ident(self, v: Any, what: str, row: int | None) -> str:
        if isinstance(v, str):  # (numpy's str_ too)
            s = str(v)
        elif isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_)):
            s = str(int(v))
        else:
            raise self.error(f"{what} {_shown(v)} is a {type(v).__name__}, not a str (or an int, converted "
                             "with str())", row)
        if not s or "\0" in s:
            raise self.error(f"{what} {_shown(s)}: an id is a non-empty string without NUL characters", row)
        return s

    def ids(self, values: list, what: str, rows: bool) -> np.ndarray:
        """VALUES as the readers' ``S`` column (UTF-8 bytes); ROWS: name the row of a bad value."""
        out = []
        append = out.append
        for i, v in enumerate(values):
            if type(v) is str and v and "\0" not in v:
                append(v.encode("utf-8", "surrogatepass"))
            else:
                append(self.ident(v, what, i + 1 if rows else None).encode("utf-8", "surrogatepass"))
        return _bytes_column(out)

    def where(self, q: Any, d: Any) -> str:
        return f"query {_shown(q)}, document {_shown(d)}"

    def relevance(self, values: list, qids: list, docs: list, rows: bool) -> np.ndarray:
        """VALUES as int64: whole numbers within 64 bits (ints, or floats with a whole value)."""
        arr = _array(values)
        if arr.dtype.kind in "iub" and (arr.dtype != np.uint64 or not arr.size or arr.max() <= _INT64[1]):
            return arr.astype(np.int64)
        if arr.dtype.kind == "f":
            ok = np.isfinite(arr) & (arr == np.floor(arr)) & (arr >= -2.0**63) & (arr < 2.0**63)
            if ok.all():
                return arr.astype(np.int64)
        for i, v in enumerate(values):  # the first bad value, named
            why = _not_integer(v)
            if why:
                raise self.error(f"relevance {_shown(v)} of {self.where(qids[i], docs[i])} {why}",
                                 i + 1 if rows else None)
        return np.array([int(v) for v in values], dtype=np.int64)

    def scores(self, values: list, qids: list, docs: list, rows: bool) -> np.ndarray:
        """VALUES as finite float64 (ints or floats)."""
        arr = _array(values)
        if arr.dtype.kind in "iubf":
            arr = arr.astype(np.float64)
            if np.isfinite(arr).all():
                return arr
        for i, v in enumerate(values):
            why = _not_score(v)
            if why:
                raise self.error(f"score {_shown(v)} of {self.where(qids[i], docs[i])} {why}",
                                 i + 1 if rows else None)
        return np.array([float(v) for v in values], dtype=np.float64)

    # --- the shapes -----------------------------------------------------------------------------

    def columns(self, data: Any) -> tuple[list, list, list, bool]:
        """(query ids, document ids, values, whether rows are numbered) of DATA, any accepted shape."""
        if isinstance(data, Mapping):
            return self._nested(data) + (False,)
        if is_table(data):
            return self._table(data) + (True,)
        if isinstance(data, (str, bytes)) or not isinstance(data, Iterable):
            raise self.error(f"not {self._shapes()}: got a {type(data).__name__}")
        return self._rows(data) + (True,)

    def _shapes(self) -> str:
        v = self.value
        return (f"a path, a dict {{query_id: {{doc_id: {v}}}}}, a DataFrame (query_id, doc_id, {v}) or an "
                f"iterable of (query_id, doc_id, {v}) tuples")

    def _nested(self, data: Mapping) -> tuple[list, list, list]:
        """A dict's columns; two query ids that are one once converted to str (``1`` and ``"1"``) are an
        error: their judgements or results would be merged into one topic."""
        qids, docs, values = [], [], []
        converted: dict[str, Any] = {}
        for q in data:
            other = converted.setdefault(self.ident(q, "query id", None), q)
            if other is not q:
                raise self.error(f"query ids {_shown(other)} and {_shown(q)} are one id once converted to str: "
                                 "give each query once")
        for q, inner in data.items():
            if not isinstance(inner, Mapping):
                raise self.error(f"a dict maps each query id to a {{doc_id: {self.value}}} dict; query "
                                 f"{_shown(q)} maps to a {type(inner).__name__} ({_shown(inner)})")
            n = len(inner)
            qids.extend([q] * n)
            docs.extend(inner.keys())
            values.extend(inner.values())
        return qids, docs, values

    def _table(self, data: Any) -> tuple[list, list, list]:
        names = [str(c) for c in data.columns]
        wanted = QRELS_COLUMNS if self.value == "relevance" else RUN_COLUMNS
        chosen = []
        for options in wanted:
            present = [c for c in options if c in names]
            if len(present) != 1:
                expected = ", ".join(" or ".join(o) for o in wanted)
                what = f"both {' and '.join(present)}" if present else f"no column {' or '.join(options)}"
                raise self.error(f"a table needs the columns {expected}: it has {what} (columns: "
                                 f"{', '.join(names) or 'none'})")
            chosen.append(present[0])
        cols = []
        for c in chosen:
            col = data[c]
            to_list = getattr(col, "tolist", None) or getattr(col, "to_list", None)
            cols.append(list(to_list()) if to_list is not None else list(col))
        return cols[0], cols[1], cols[2]

    def _rows(self, data: Iterable) -> tuple[list, list, list]:
        qids, docs, values = [], [], []
        get = None
        fields = ("query_id", "doc_id", self.value)
        for i, row in enumerate(data, 1):
            if get is None:
                have = getattr(row, "_fields", None)
                get = attrgetter(*fields) if have is not None and all(f in have for f in fields) else False
            try:
                if get:
                    q, d, v = get(row)
                else:
                    if isinstance(row, (str, bytes, Mapping)) or len(row) != 3:
                        raise TypeError
                    q, d, v = row
            except (TypeError, AttributeError, ValueError):
                raise self.error(f"a row is a (query_id, doc_id, {self.value}) tuple, or a named tuple with "
                                 f"those fields; got {_shown(row)}", i) from None
            qids.append(q)
            docs.append(d)
            values.append(v)
        return qids, docs, values


def _array(values: list) -> np.ndarray:
    """VALUES as a numpy array of numbers when numpy makes one of them all (strings and None make an
    array of another kind: checked one by one)."""
    try:
        arr = np.asarray(values)
    except (ValueError, TypeError, OverflowError):
        return np.empty(0, dtype=object)
    if arr.ndim != 1 or arr.size != len(values):
        return np.empty(0, dtype=object)
    return arr


def _not_integer(v: Any) -> str:
    """Why V is not a relevance value ('' if it is one)."""
    if isinstance(v, (int, np.integer)):
        return "" if _INT64[0] <= int(v) <= _INT64[1] else "is not an integer of at most 64 bits"
    if isinstance(v, (float, np.floating)):
        if not math.isfinite(v) or v != math.floor(v):
            return "is not an integer"
        return "" if -2.0**63 <= v < 2.0**63 else "is not an integer of at most 64 bits"
    return f"is a {type(v).__name__}, not an integer"


def _not_score(v: Any) -> str:
    """Why V is not a score ('' if it is one)."""
    if isinstance(v, (int, np.integer)):
        try:
            float(v)
        except OverflowError:  # (an int past the largest double: 10**400)
            return "is not a finite number (too large for a double)"
        return ""
    if isinstance(v, (float, np.floating)):
        return "" if math.isfinite(v) else "is not a finite number"
    return f"is a {type(v).__name__}, not a number"


#: A column is an object array of ``bytes`` when fixed-width items would cost this many times more
#: (the reader's rule: :func:`inexeval.readers.trec.column`).
_WIDE_FACTOR = 4
_WIDE_FLOOR = 1 << 24


def _bytes_column(items: list[bytes]) -> np.ndarray:
    n = len(items)
    if not n:
        return np.empty(0, dtype="S1")
    width = max(map(len, items))
    if n * width > _WIDE_FACTOR * (sum(map(len, items)) + 8 * n) + _WIDE_FLOOR:
        col = np.empty(n, dtype=object)
        col[:] = items
        return col
    return np.array(items, dtype=f"S{max(width, 1)}")


def qrels_from_data(data: Any, source: str = "qrels", warn: Callable[[str], None] | None = None) -> Qrels:
    """The :class:`Qrels` of judgements held in Python (see the module doc); SOURCE names them in errors.

    A query id of a dict whose judgements are an empty dict has no judgement, as a qrels file has no line
    for it: it is not a topic of the qrels, and WARN is told so, once for all such ids."""
    r = _Reader(source, "relevance")
    if warn is not None and isinstance(data, Mapping):
        empty = [q for q, inner in data.items() if isinstance(inner, Mapping) and not inner]
        if empty:
            shown = ", ".join(_shown(q) for q in empty[:5]) + (f" and {len(empty) - 5} more" if len(empty) > 5 else "")
            warn(f"{source}: {len(empty)} query id(s) with no judgement ({{}}), not topics of the qrels (a "
                 f"qrels file has no line for them; ir_measures averages over them): {shown}")
    q, d, v, rows = r.columns(data)
    qid, docno = r.ids(q, "query id", rows), r.ids(d, "document id", rows)
    rel = r.relevance(v, q, d, rows)
    n = len(q)
    line = np.arange(1, n + 1, dtype=np.int64)
    if not n:
        empty = np.empty(0, dtype="S1")
        return Qrels(source, empty, empty.copy(), np.empty(0, dtype=np.int64), line)
    order, vocab, code, vocab_key, packing = sort_pairs_keyed(qid, docno)
    qid, docno, rel, line, code = qid[order], docno[order], rel[order], line[order], code[order]
    dup = np.flatnonzero((qid[1:] == qid[:-1]) & (docno[1:] == docno[:-1]))
    if dup.size:  # as read_qrels: the later of the two rows of the earliest pair
        later = np.maximum(line[dup], line[dup + 1])
        k = int(np.argmin(later))
        i = int(dup[k])
        first, second = int(min(line[i], line[i + 1])), int(later[k])
        where = f" (rows {first} and {second})" if rows else " (ids that are equal once converted to str)"
        raise InputError(f"duplicate judgement for topic {qid[i].decode('utf-8', 'replace')}, document "
                         f"{docno[i].decode('utf-8', 'replace')}{where}", source)
    return Qrels(source, qid, docno, rel, line, vocab, code, vocab_key, packing)


def run_from_data(data: Any, source: str, run_id: str) -> TrecRun:
    """The :class:`TrecRun` of results held in Python (see the module doc), with RUN_ID as its tag."""
    r = _Reader(source, "score")
    q, d, v, rows = r.columns(data)
    if not q:  # a run that retrieved nothing (the caller warns, as for an empty file)
        empty = np.empty(0, dtype="S1")
        return TrecRun(source, empty, empty.copy(), np.empty(0, dtype=np.float64), np.empty(0, dtype=np.int64), [])
    qid, docno = r.ids(q, "query id", rows), r.ids(d, "document id", rows)
    score = r.scores(v, q, d, rows)
    return TrecRun(source, qid, docno, score, np.arange(1, len(q) + 1, dtype=np.int64), [run_id])
