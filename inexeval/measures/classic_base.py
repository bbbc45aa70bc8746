"""Ranked lists of many topics in one flat layout, and segment operations on it.

Classic measures (docs/measures.md §8) are computed for every topic of a run at once:
the results of all topics are concatenated, topic t owning rows
``start[t]:start[t+1]`` in rank order, and each measure is a handful of numpy
operations over the whole array (cumulative sums, per-segment reductions,
look-ups at a rank) instead of a Python loop per result.

Relevance codes per row follow trec_eval's ``form_res_rels``: the qrels
value for a judged document (>= 0), :data:`NOT_JUDGED` (-1) for a document
absent from the qrels, :data:`JUDGED_NEGATIVE` (-2) for a qrels value < 0.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

NOT_JUDGED = -1
JUDGED_NEGATIVE = -2


@dataclass(slots=True)
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
    num_rel: np.ndarray  # int64[T]: qrels rows with rel >= rel_level
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


@dataclass(slots=True)
class Ranking:
    """One run over every topic of a :class:`TopicTable` (absent topics: empty)."""

    table: TopicTable
    start: np.ndarray  # int64[T+1]
    rel: np.ndarray  # int64 per row, codes above

    @property
    def length(self) -> np.ndarray:
        return np.diff(self.start)

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
        """Rows judged relevant: rel >= rel_level (trec_eval's ``relevance_level``)."""
        return self.rel >= self.table.rel_level


def seg_sum(x: np.ndarray, start: np.ndarray) -> np.ndarray:
    """Sum of X over each segment ``start[t]:start[t+1]`` (0 for an empty one), in row order."""
    n = start.size - 1
    out = np.zeros(n, dtype=np.result_type(x.dtype, np.int64) if x.dtype.kind in "bi" else x.dtype)
    nonempty = np.flatnonzero(start[1:] > start[:-1])
    if nonempty.size:
        out[nonempty] = np.add.reduceat(x, start[nonempty])
    return out


def seg_cumsum(x: np.ndarray, start: np.ndarray) -> np.ndarray:
    """Cumulative sum of X restarting at every segment.

    Integers use one global cumsum (exact); floats are summed segment by
    segment so that no topic carries the rounding of the topics before it.
    """
    if x.dtype.kind in "bi":
        c = np.cumsum(x, dtype=np.int64)
        before = np.concatenate(([0], c))[start[:-1]]
        return c - np.repeat(before, np.diff(start))
    out = np.empty(x.size, dtype=np.float64)
    for s, e in zip(start[:-1].tolist(), start[1:].tolist()):
        if e > s:
            np.cumsum(x[s:e], out=out[s:e])
    return out


def at_rank(cum: np.ndarray, start: np.ndarray, k: np.ndarray | int) -> np.ndarray:
    """Per segment, the cumulative value CUM at rank k (at the last rank if the
    list is shorter: cumulated values stay at their last value; 0 for an empty list)."""
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
