"""Ranked lists of many topics in one flat layout, and segment operations on it.

Classic measures (docs/measures.md §8) are computed for every topic of a run at once:
the results of all topics are concatenated, topic t owning rows
``start[t]:start[t+1]`` in rank order, and each measure is a handful of numpy
operations over the whole array (cumulative sums, per-segment reductions,
look-ups at a rank) instead of a Python loop per result.

Relevance codes per row follow trec_eval's ``form_res_rels``: the qrels
value for a judged document (>= 0), :data:`NOT_JUDGED` (-1, trec_eval's
``RELVALUE_NONPOOL``) for a document absent from the qrels,
:data:`JUDGED_NEGATIVE` (-2, ``RELVALUE_UNJUDGED``) for a qrels value < 0.

**trec_eval's arithmetic.**  trec_eval adds a topic's terms one by one, left
to right, in double precision (``sum += term``), takes ``log2`` from the C
library and forms ``p^i`` by repeated multiplication.  A printed digit can
depend on that order (0.34375 summed pairwise is 0.34374999999999994, printed
0.3437 instead of 0.3438), so the segment sums here are left to right too:
:func:`seg_cumsum` lays the segments out as the rows of a padded matrix and
takes numpy's ``cumsum`` along them (an accumulation is always sequential);
:func:`log2_int` and :func:`powers` give the C library's values.
"""

from __future__ import annotations

import math

import numpy as np

from inexeval.records import field, record

NOT_JUDGED = -1
JUDGED_NEGATIVE = -2
#: The one unjudged document trec_eval ranks for a topic the run lacks under -c (trec_eval.c).
BOGUS_DOCNO = b"ceci_nest_pas_un_docno"


@record(slots=True)
class TopicTable:
    """Per-topic facts of the qrels that every run shares.

    Topics are in byte order of their ids (trec_eval's ``strcmp`` order);
    ``qstart`` delimits each topic's qrels rows (sorted by docno).
    """

    keys: np.ndarray  # S, sorted topic ids
    names: list[str]  # decoded ids
    qstart: np.ndarray  # int64[T+1] into the qrels rows
    qrel: np.ndarray  # int64 per qrels row
    qdocno: np.ndarray  # S per qrels row
    rel_level: int
    num_rel: np.ndarray  # int64[T]: qrels rows with rel >= max(rel_level, 0) (trec_eval's num_rel)
    num_nonrel: np.ndarray  # int64[T]: judged rows with 0 <= rel < rel_level
    vocab: np.ndarray  # S, sorted distinct qrels docnos
    qkey: np.ndarray  # int64 per qrels row: topic * len(vocab) + docno code (sorted)
    cache: dict = field(default_factory=dict, repr=False)  # per-table derived data (docno keys)

    @property
    def size(self) -> int:
        return len(self.names)

    @property
    def index(self) -> dict[str, int]:
        """Topic name -> its row in the table."""
        got = self.cache.get("index")
        if got is None:
            got = self.cache["index"] = {n: i for i, n in enumerate(self.names)}
        return got

    def topic_range(self, lo: int, hi: int) -> TopicTable:
        """The table of topics LO … HI−1 alone, its arrays views of this one's (``qkey`` renumbered):
        a run's ranking scored a range of topics at a time (:mod:`inexeval.measures.classic_engine`)."""
        a, b = int(self.qstart[lo]), int(self.qstart[hi])
        return TopicTable(self.keys[lo:hi], self.names[lo:hi], self.qstart[lo:hi + 1] - a, self.qrel[a:b],
                          self.qdocno[a:b], self.rel_level, self.num_rel[lo:hi], self.num_nonrel[lo:hi],
                          self.vocab, self.qkey[a:b] - lo * max(self.vocab.size, 1))


@record(slots=True)
class Ranking:
    """One run over every topic of a :class:`TopicTable` (absent topics: empty)."""

    table: TopicTable
    start: np.ndarray  # int64[T+1]
    rel: np.ndarray  # int64 per row, codes above
    #: per row, whether its score equals the previous row's of its topic (a tie, in trec_eval's order
    #: broken by docno descending); None: not known (no ties assumed).  Read by ir_measures' Judged,
    #: which breaks ties by doc id ascending (:mod:`inexeval.measures.classic_irm`).
    tied: np.ndarray | None = None

    @property
    def length(self) -> np.ndarray:
        return np.diff(self.start)

    def topic_range(self, lo: int, hi: int) -> Ranking:
        """The ranking of topics LO … HI−1 alone, over :meth:`TopicTable.topic_range` (views)."""
        a, b = int(self.start[lo]), int(self.start[hi])
        return Ranking(self.table.topic_range(lo, hi), self.start[lo:hi + 1] - a, self.rel[a:b],
                       None if self.tied is None else self.tied[a:b])

    @property
    def topic(self) -> np.ndarray:
        """Topic index of every row."""
        return np.repeat(np.arange(self.table.size), self.length)

    @property
    def rank(self) -> np.ndarray:
        """1-based rank of every row within its topic."""
        return np.arange(self.rel.size) - np.repeat(self.start[:-1], self.length) + 1

    @property
    def relevant(self) -> np.ndarray:
        """Rows judged relevant: rel >= rel_level (trec_eval's test ``rel >= relevance_level``)."""
        return self.rel >= self.table.rel_level


#: Elements of one padded block of :func:`seg_cumsum` (32 MB of doubles).
BLOCK = 1 << 22


def seg_cumsum(x: np.ndarray, start: np.ndarray) -> np.ndarray:
    """Cumulative sum of X restarting at every segment ``start[t]:start[t+1]``, each segment added
    left to right (``c[i] = c[i-1] + x[i]``), as trec_eval's loops add.

    Integers use one global cumsum (exact).  Floats whose values are all integers with a total
    below 2^53 too (every partial sum is exact).  Other floats: segments of similar length are laid
    out as the rows of a zero-padded matrix of at most :data:`BLOCK` elements whose rows are
    accumulated by ``np.cumsum(axis=1)``; a segment longer than a block is accumulated alone.
    """
    if x.dtype.kind in "biu" or _exact_integers(x):
        c = np.cumsum(x, dtype=np.int64 if x.dtype.kind in "biu" else np.float64)
        before = np.concatenate(([0], c))[start[:-1]]
        return c - np.repeat(before, np.diff(start))
    x = np.asarray(x, dtype=np.float64)
    out = np.empty(x.size, dtype=np.float64)
    length = np.diff(start)
    nonempty = np.flatnonzero(length)
    if not nonempty.size:
        return out
    if np.all(length[nonempty] == length[nonempty[0]]) and nonempty.size * int(length[nonempty[0]]) <= BLOCK \
            and int(start[nonempty[-1] + 1]) - int(start[nonempty[0]]) == x.size:
        width = int(length[nonempty[0]])  # every segment as long: the array is the matrix itself
        np.cumsum(x.reshape(nonempty.size, width), axis=1, out=out.reshape(nonempty.size, width))
        return out
    order = nonempty[np.argsort(-length[nonempty], kind="stable")]  # longest first
    lens = length[order]
    i = 0
    while i < order.size:
        width = int(lens[i])
        if width > BLOCK // 2:  # a long segment alone (np.cumsum of one row is sequential)
            s = int(start[order[i]])
            np.cumsum(x[s:s + width], out=out[s:s + width])
            i += 1
            continue
        # the next segments, while at least half as long as the first and within one block
        last = min(order.size, i + BLOCK // width)
        last = i + int(np.searchsorted(-lens[i:last], -(width // 2 + 1), side="right"))
        last = max(last, i + 1)
        rows, sizes = order[i:last], lens[i:last]
        r = np.repeat(np.arange(rows.size), sizes)
        c = np.arange(int(sizes.sum())) - np.repeat(np.cumsum(sizes) - sizes, sizes)
        src = np.repeat(start[rows], sizes) + c
        m = np.zeros((rows.size, width), dtype=np.float64)
        m[r, c] = x[src]
        np.cumsum(m, axis=1, out=m)
        out[src] = m[r, c]
        i = last
    return out


def _exact_integers(x: np.ndarray) -> bool:
    """Whether every value of float X is an integer and their absolute sum is below 2^53 (then
    every partial sum is exact, in any order)."""
    if not x.size:
        return True
    head = x[:4096]  # (a fraction there settles it without a pass over every value)
    if not np.all(head == np.trunc(head)):
        return False
    a = np.abs(x)
    total = float(a.sum())
    return total < 2.0**53 and bool(np.all(x == np.trunc(x)))


def seg_sum(x: np.ndarray, start: np.ndarray) -> np.ndarray:
    """Sum of X over each segment ``start[t]:start[t+1]`` (0 for an empty one), added left to right."""
    n = start.size - 1
    kind = np.int64 if x.dtype.kind in "biu" else np.float64
    out = np.zeros(n, dtype=kind)
    nonempty = np.flatnonzero(start[1:] > start[:-1])
    if nonempty.size:
        out[nonempty] = seg_cumsum(x, start)[start[1:][nonempty] - 1]
    return out


def masked_seg_sum(x: np.ndarray, mask: np.ndarray, start: np.ndarray) -> np.ndarray:
    """Per segment, the left-to-right sum of X over the rows where MASK holds: trec_eval's
    ``if (cond) sum += term`` (adding 0.0 would change nothing, but this also skips the rows'
    values altogether, which may be inf or NaN there)."""
    rows = np.flatnonzero(mask)
    return seg_sum(x[rows], count_starts(mask, start))


def seg_count(mask: np.ndarray, start: np.ndarray) -> np.ndarray:
    """Per segment, the number of rows where MASK holds."""
    c = np.concatenate(([0], np.cumsum(mask, dtype=np.int64)))
    return c[start[1:]] - c[start[:-1]]


def count_starts(mask: np.ndarray, start: np.ndarray) -> np.ndarray:
    """Segment starts of the rows where MASK holds (each segment's such rows, in order)."""
    c = np.concatenate(([0], np.cumsum(mask, dtype=np.int64)))
    return c[start]


def segment_of(start: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """The segment (topic) of each of ROWS: the last t with start[t] <= row (empty segments skipped)."""
    return np.searchsorted(start, rows, side="right") - 1


def at_rank(cum: np.ndarray, start: np.ndarray, k: np.ndarray | int) -> np.ndarray:
    """Per segment, the cumulative value CUM at rank k (at the last rank if the
    list is shorter: cumulated values stay at their last value; 0 for an empty list or k <= 0)."""
    length = np.diff(start)
    upto = np.minimum(np.asarray(k), length)
    idx = start[:-1] + upto - 1
    out = np.zeros(length.size, dtype=np.float64 if cum.dtype.kind == "f" else np.int64)
    ok = upto > 0
    out[ok] = cum[idx[ok]]
    return out


def seg_range_max(x: np.ndarray, lo: np.ndarray, hi: np.ndarray, empty: float = 0.0) -> np.ndarray:
    """``max(x[lo[i]:hi[i]])`` for every i (EMPTY where ``hi[i] <= lo[i]``), exactly."""
    out = np.full(lo.size, empty, dtype=np.float64)
    ok = hi > lo
    if not ok.any() or x.size == 0:
        return out
    ext = np.concatenate((x.astype(np.float64), [empty]))
    idx = np.empty(2 * int(ok.sum()), dtype=np.int64)
    idx[0::2] = lo[ok]
    idx[1::2] = hi[ok]
    out[ok] = np.maximum.reduceat(ext, idx)[0::2]
    return out


# --- the C library's numbers ------------------------------------------------------------------

_LOG2 = np.zeros(1)  # _LOG2[k] = log2(k) from the C library (k >= 1; [0] unused)


def log2_int(k: np.ndarray) -> np.ndarray:
    """``log2(k)`` for integers k >= 1 as the C library computes it (Python's ``math.log2`` is
    the C function; numpy's vectorised log2 may differ in the last bit on some processors)."""
    global _LOG2
    k = np.asarray(k, dtype=np.int64)
    top = int(k.max()) if k.size else 0
    if top >= _LOG2.size:
        size = max(top + 1, 2 * _LOG2.size, 4096)
        _LOG2 = np.fromiter(map(math.log2, range(1, size)), dtype=np.float64, count=size - 1)
        _LOG2 = np.concatenate(([0.0], _LOG2))
    return _LOG2[k]


def c_log2(x: np.ndarray) -> np.ndarray:
    """``log2(x)`` elementwise as the C library computes it, for any doubles (integers > 0 from the
    table of :func:`log2_int`, the rest one by one)."""
    x = np.asarray(x, dtype=np.float64)
    out = np.empty(x.shape)
    whole = (x >= 1) & (x == np.trunc(x)) & (x < 2**24)
    out[whole] = log2_int(x[whole].astype(np.int64))
    rest = np.flatnonzero(~whole)
    if rest.size:
        out.flat[rest] = [_log2_c(v) for v in x.flat[rest].tolist()]
    return out


def _log2_c(v: float) -> float:
    """C's log2 for one double: -inf at 0, NaN below (and for NaN)."""
    if v > 0:
        return math.log2(v)
    return -math.inf if v == 0 else math.nan


def c_log(v: float) -> float:
    """C's ``log`` for one double: -inf at 0, NaN below (and for NaN)."""
    if v > 0:
        return math.log(v)
    return -math.inf if v == 0 else math.nan


def powers(p: float, n: int) -> np.ndarray:
    """``[1, p, p·p, …]`` (n + 1 values) formed as trec_eval forms them: ``cur_p = cur_p * p``."""
    out = np.empty(n + 1, dtype=np.float64)
    out[0] = 1.0
    if n:
        np.cumprod(np.full(n, p, dtype=np.float64), out=out[1:])
    return out


def glibc_msort(items: list, cmp) -> list:
    """ITEMS sorted as glibc's ``qsort`` sorts them (msort.c, ``msort_with_tmp``: a top-down stable
    merge sort that splits at n/2 and takes from the left half while ``cmp(left, right) <= 0``), so
    that a comparison trec_eval leaves inconsistent (gains less than 1 apart, NaN scores) orders as
    trec_eval's own sort does."""
    n = len(items)
    if n <= 1:
        return list(items)
    a, b = glibc_msort(items[: n // 2], cmp), glibc_msort(items[n // 2:], cmp)
    out, i, j = [], 0, 0
    while i < len(a) and j < len(b):
        if cmp(a[i], b[j]) <= 0:
            out.append(a[i])
            i += 1
        else:
            out.append(b[j])
            j += 1
    return out + a[i:] + b[j:]
