"""trec_eval's measures without gains, per topic, for every topic of a :class:`Ranking` at once
(docs/measures.md §8.2).

Each kernel computes what trec_eval 10.0's ``m_<name>.c`` computes, with its arithmetic: the
same operations in the same order, sums left to right (:func:`seg_cumsum`), so that the printed
digits are trec_eval's too.  Notation for one topic: the run's results d_1 … d_L in trec_eval
order with relevance codes rel_i (the qrels value, -1 not in the qrels, -2 judged negative),
level ℓ (``-l``), relevant iff rel_i >= ℓ, count(k) the relevant among the first min(k, L),
R the qrels judgements >= max(ℓ, 0), S the relevant results judged >= 0 (``num_rel_ret``):

- ``num_ret`` = L, ``num_rel`` = R, ``num_rel_ret`` = S;
- ``map`` = (Σ_{d_i relevant} count(i)/i) / R, 0 when no result is relevant (``m_map.c``);
  ``gm_map`` per topic the same, averaged as exp(Σ log(max(AP, 0.00001)) / n);
- ``Rprec`` = count(min(L, R)) / R (0 when min(L, R) = 0);
- ``bpref`` = (Σ over relevant judged d_i of 1 − min(n_i, R)/min(N, R), or 1 when n_i = 0) / R,
  n_i the judged non-relevant results above d_i, N = the judged non-relevant documents;
- ``recip_rank`` = 1 / rank of the first relevant result;
- ``iprec_at_recall_x``: trec_eval walks the ranking backwards keeping the running maximum of
  rel_so_far/i and hands it to the cut-off c = lround(x·R) (10.0) or trunc(x·R + 0.9) (9.0.8)
  when rel_so_far reaches c (:func:`_walk`); c > S gives 0; a cut-off never reached gets the
  value the walk ended with, S/L when nothing is relevant (NaN, printed ``-nan``, when L = 0);
- ``11pt_avg``: the same walk with the cut-offs in the order given, their values added from the
  last to the first, over their number;
- ``P_k`` = count(k)/k; ``recall_k`` = count(k)/R; ``relative_P_k`` = count(k)/min(k, R);
  ``success_k`` = [count(k) > 0]; ``map_cut_k`` = (Σ_{d_i relevant, i <= k} count(i)/i) / R;
  ``unj_k`` = (results coded -1 or -2 among the first min(k, L)) / k;
- ``infAP`` (Yilmaz and Aslam): (Σ over relevant judged d_i of 1 if i = 1, else
  1/i + ((i−1)/i)·((r−1+n+u)/(i−1))·((r−1+ε)/(r−1+n+2ε))) / R, r, n, u the relevant, judged
  non-relevant and judged-negative results among d_1 … d_i, ε = 0.00001;
- ``Rprec_mult_x``: c = trunc(x·R + 0.9); count(c)/c when 1 <= c <= L, S/c when c > L, else 0;
- ``utility_a,b,c,d`` = a·S + b·(L − S) + c·(R − S) + d·(N_c + S − L − R), N_c = ``-N``;
- ``binG`` = (Σ_{d_i relevant} 1/log2(2 + results above d_i that are not relevant)) / R;
- ``set_P`` = S/L, ``set_recall`` = S/R, ``set_relative_P`` = S/min(L, R),
  ``set_map`` = S·S/(L·R) (one expression, as ``m_set_map.c``), ``set_F_x`` =
  (x+1)·P·Rc/(x·P + Rc) with P = S/L, Rc = S/R (0 when S = 0);
- ``num_nonrel_judged_ret`` = L − (results coded -1) − (coded -2) − S;
- ``yaap`` = log((1 + Σ_{d_i relevant} count(i)/i) / (1 + R − that sum));
- ``relstring_k`` (text, :func:`relstrings`): the first k codes, a digit per level 0–9, ``>``
  above 9, ``-`` for -1, ``.`` for -2.
"""

from __future__ import annotations

import numpy as np

from inexeval.measures.classic_base import (
    JUDGED_NEGATIVE,
    NOT_JUDGED,
    Ranking,
    at_rank,
    c_log,
    count_starts,
    log2_int,
    seg_count,
    seg_cumsum,
    seg_range_max,
    seg_sum,
    segment_of,
)

#: trec_eval's ``MIN_GEO_MEAN``: gm_map floors each topic's AP here before the log.
MIN_GEO_MEAN = 0.00001
#: trec_eval's ``INFAP_EPSILON``.
INFAP_EPSILON = 0.00001


def _div(num, den) -> np.ndarray:
    """num / den where den != 0, else 0 (trec_eval leaves such a value at its initial 0)."""
    num = np.asarray(num, dtype=np.float64)
    return np.divide(num, den, out=np.zeros(num.shape, dtype=np.float64), where=np.asarray(den) != 0)


def lround(v: np.ndarray) -> np.ndarray:
    """C's ``lround``: halves away from zero; exact (v - floor(v) is exact in binary)."""
    v = np.asarray(v, dtype=np.float64)
    a = np.abs(v)
    f = np.floor(a)
    r = (f + (a - f >= 0.5)).astype(np.int64)
    return np.where(v < 0, -r, r)


def round_half_away(v: np.ndarray) -> np.ndarray:
    """C's ``lround`` (kept under its old name for v >= 0)."""
    return lround(v)


def c_trunc(v: np.ndarray) -> np.ndarray:
    """C's conversion of a double to ``long``: toward zero; a value past the range of ``long`` (undefined
    in C) gives what x86-64's conversion gives, -2^63, without numpy's warning (``Rprec_mult_1e300``)."""
    with np.errstate(invalid="ignore"):
        return np.trunc(np.asarray(v, dtype=np.float64)).astype(np.int64)


#: trec_eval's recall levels of ``iprec_at_recall`` and ``11pt_avg``: 0.0, 0.1, ..., 1.0 (as its C
#: literals: i / 10 rounds as the literal does).
ELEVEN_LEVELS = tuple(i / 10 for i in range(11))


class TrecState:
    """Quantities shared by several trec_eval measures of one ranking, computed once."""

    def __init__(self, ranking: Ranking, version: str = "10.0", num_docs: int = 0):
        self.r = ranking
        self.version = version
        self.num_docs = num_docs
        self.start = ranking.start
        self.length = ranking.length
        self.level = ranking.table.rel_level
        self.isrel = ranking.relevant
        self.rank = ranking.rank
        self.count = seg_cumsum(self.isrel.astype(np.int64), self.start)  # rel_so_far, row included
        self.num_rel = ranking.table.num_rel
        rel = ranking.rel
        judged_rel = self.isrel & (rel >= 0)
        self.num_rel_ret = seg_count(judged_rel, self.start)
        self._topic: np.ndarray | None = None
        self._ap_sum: np.ndarray | None = None
        self._ap_cumsum: tuple[np.ndarray, np.ndarray] | None = None
        self._unjudged: np.ndarray | None = None
        self._judged: tuple | None = None
        self._rel_rows: tuple[np.ndarray, np.ndarray] | None = None
        self._rel_prec: tuple[np.ndarray, np.ndarray] | None = None
        self._eleven: list[np.ndarray] | None = None  # the walk over ELEVEN_LEVELS

    @property
    def topic(self) -> np.ndarray:
        if self._topic is None:
            self._topic = self.r.topic
        return self._topic

    def segments_of(self, mask: np.ndarray) -> np.ndarray:
        """Segment starts of the rows where MASK holds (the rows of each topic, in order)."""
        return count_starts(mask, self.start)

    def div_rel(self, x: np.ndarray) -> np.ndarray:
        """x / R, with 0 where R = 0."""
        return _div(x, self.num_rel)

    # --- counts -----------------------------------------------------------------------------

    def num_ret(self) -> np.ndarray:
        return self.length.astype(np.float64)

    def num_rel_(self) -> np.ndarray:
        return self.num_rel.astype(np.float64)

    def num_rel_ret_(self) -> np.ndarray:
        return self.num_rel_ret.astype(np.float64)

    def num_nonrel_judged_ret(self) -> np.ndarray:
        rel = self.r.rel
        odd = seg_count((rel == NOT_JUDGED) | (rel == JUDGED_NEGATIVE), self.start)
        return (self.length - odd - self.num_rel_ret).astype(np.float64)

    # --- precision and recall at ranks ------------------------------------------------------

    def precision(self, k: int) -> np.ndarray:
        return at_rank(self.count, self.start, k) / float(k)

    def recall(self, k: int) -> np.ndarray:
        return self.div_rel(at_rank(self.count, self.start, k))

    def relative_p(self, k: int) -> np.ndarray:
        return _div(at_rank(self.count, self.start, k), np.minimum(k, self.num_rel))

    def success(self, k: int) -> np.ndarray:
        return (at_rank(self.count, self.start, k) > 0).astype(np.float64)

    def unj(self, k: int) -> np.ndarray:
        if self._unjudged is None:  # (the results coded -1 or -2 so far, shared by every k)
            rel = self.r.rel
            self._unjudged = seg_cumsum(((rel == NOT_JUDGED) | (rel == JUDGED_NEGATIVE)).astype(np.int64), self.start)
        return at_rank(self._unjudged, self.start, k) / float(k)

    def rprec(self) -> np.ndarray:
        n = np.minimum(self.length, self.num_rel)
        return np.where(n > 0, self.div_rel(at_rank(self.count, self.start, n)), 0.0)

    def recip_rank(self) -> np.ndarray:
        return seg_range_max(np.where(self.isrel, 1.0 / self.rank, 0.0), self.start[:-1], self.start[1:])

    def rprec_mult(self, x: float) -> np.ndarray:
        c = c_trunc(x * self.num_rel.astype(np.float64) + 0.9)
        inside = at_rank(self.count, self.start, c) / np.where(c > 0, c, 1).astype(np.float64)
        beyond = self.num_rel_ret / np.where(c > 0, c, 1).astype(np.float64)
        return np.where(c <= 0, 0.0, np.where(c > self.length, beyond, inside))

    # --- sums over relevant results ---------------------------------------------------------

    def _ap_cum(self) -> tuple[np.ndarray, np.ndarray]:
        """count(i)/i summed left to right over each topic's relevant results (m_map.c's running
        ``sum``, one value per relevant row), and each topic's first relevant row in it."""
        if self._ap_cumsum is None:
            prec, sub = self._relevant_precisions()
            self._ap_cumsum = (seg_cumsum(prec, sub), sub)
        return self._ap_cumsum

    def ap_sum(self) -> np.ndarray:
        """Σ_{d_i relevant} count(i)/i, left to right (m_map.c's ``sum``)."""
        if self._ap_sum is None:
            cum, sub = self._ap_cum()
            out = np.zeros(self.length.size)
            last = sub[1:] > sub[:-1]
            out[last] = cum[sub[1:][last] - 1]
            self._ap_sum = out
        return self._ap_sum

    def ap(self) -> np.ndarray:
        found = at_rank(self.count, self.start, self.length) > 0
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(found, self.ap_sum() / self.num_rel, 0.0)

    def map_cut(self, k: int) -> np.ndarray:
        cum, sub = self._ap_cum()
        n = at_rank(self.count, self.start, k)  # relevant rows within the first k
        out = np.zeros(self.length.size)
        ok = n > 0
        out[ok] = cum[sub[:-1][ok] + n[ok] - 1]
        return self.div_rel(out)

    def yaap(self) -> np.ndarray:
        s = self.ap_sum()
        ratio = (1.0 + s) / (1.0 + self.num_rel.astype(np.float64) - s)
        return np.array([c_log(v) for v in ratio.tolist()], dtype=np.float64)

    def _judged_rows(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """The rows bpref and infAP add terms for (judged, not judged non-relevant: relevant), cached:
        that mask, its rows, their segment starts, and the judged non-relevant results so far at them."""
        if self._judged is None:
            rel = self.r.rel
            counted = (rel != NOT_JUDGED) & (rel != JUDGED_NEGATIVE)
            nonrel = counted & (rel >= 0) & (rel < self.level)
            relrow = counted & ~nonrel
            rows = np.flatnonzero(relrow)
            n = seg_cumsum(nonrel.astype(np.int64), self.start)[rows]  # (a relevant row adds nothing itself)
            self._judged = (relrow, rows, count_starts(relrow, self.start), n)
        return self._judged

    def bpref(self) -> np.ndarray:
        # each term computed at the relevant rows only: the values of trec_eval's loop, elementwise
        _, rows, sub, n_above = self._judged_rows()
        topic = segment_of(self.start, rows)
        R = self.num_rel[topic]
        denom = np.minimum(self.r.table.num_nonrel, self.num_rel)[topic].astype(np.float64)
        with np.errstate(divide="ignore", invalid="ignore"):
            term = np.where(n_above > 0, 1.0 - np.minimum(n_above, R).astype(np.float64) / denom, 1.0)
        return self.div_rel(seg_sum(term, sub))

    def infap(self) -> np.ndarray:
        relrow, rows, sub, n = self._judged_rows()
        rel = self.r.rel
        r = seg_cumsum(relrow.astype(np.int64), self.start)[rows]  # rel_so_far, this row included
        u = seg_cumsum((rel == JUDGED_NEGATIVE).astype(np.int64), self.start)[rows]
        rank = self.rank[rows]
        fj = (rank - 1).astype(np.float64)
        with np.errstate(divide="ignore", invalid="ignore"):
            later = 1.0 / (fj + 1.0) + (fj / (fj + 1.0)) * ((r - 1 + n + u) / fj) * (
                ((r - 1) + INFAP_EPSILON) / ((r - 1 + n) + 2 * INFAP_EPSILON))
        term = np.where(rank == 1, 1.0, later)
        return self.div_rel(seg_sum(term, sub))

    def bin_g(self) -> np.ndarray:
        rows, sub = self._relevant_rows()
        above = self.rank[rows] + 2 - self.count[rows]  # 3 + i - rel_so_far, i the 0-based row
        terms = 1.0 / log2_int(np.maximum(above, 1))
        found = at_rank(self.count, self.start, self.length) > 0
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(found, seg_sum(terms, sub) / self.num_rel, 0.0)

    # --- set measures -----------------------------------------------------------------------

    def set_p(self) -> np.ndarray:
        return _div(self.num_rel_ret, self.length)

    def set_recall(self) -> np.ndarray:
        return _div(self.num_rel_ret, self.num_rel)

    def set_relative_p(self) -> np.ndarray:
        return _div(self.num_rel_ret, np.where(self.num_rel > 0, np.minimum(self.length, self.num_rel), 0))

    def set_map(self) -> np.ndarray:
        s = self.num_rel_ret.astype(np.float64)
        den = self.length.astype(np.float64) * self.num_rel.astype(np.float64)
        return _div(s * s, den)

    def set_f(self, x: float) -> np.ndarray:
        s = self.num_rel_ret.astype(np.float64)
        with np.errstate(divide="ignore", invalid="ignore"):
            p = s / self.length
            rc = s / self.num_rel
            value = (x + 1.0) * p * rc / (x * p + rc)
        return np.where(self.num_rel_ret > 0, value, 0.0)

    def utility(self, a: float, b: float, c: float, d: float) -> np.ndarray:
        rr, L, R = self.num_rel_ret, self.length, self.num_rel
        return a * rr + b * (L - rr) + c * (R - rr) + d * (self.num_docs + rr - L - R)

    # --- interpolated precision -------------------------------------------------------------

    def _relevant_rows(self) -> tuple[np.ndarray, np.ndarray]:
        """The relevant rows (grouped by topic, in rank order) and each topic's first among them, cached."""
        if self._rel_rows is None:
            self._rel_rows = (np.flatnonzero(self.isrel), self.segments_of(self.isrel))
        return self._rel_rows

    def _relevant_precisions(self) -> tuple[np.ndarray, np.ndarray]:
        """count(i)/i at the relevant rows (grouped by topic, in rank order) and each topic's first."""
        if self._rel_prec is None:
            rows, sub = self._relevant_rows()
            self._rel_prec = (self.count[rows] / self.rank[rows], sub)
        return self._rel_prec

    def cutoff_counts(self, x: float) -> np.ndarray:
        """The relevant count at which recall x is reached, per topic: lround(x·R) in trec_eval 10.0,
        (long)(x·R + 0.9) in 9.0.8."""
        v = x * self.num_rel.astype(np.float64)
        return lround(v) if self.version == "10.0" else c_trunc(v + 0.9)

    def _walk(self, xs: tuple[float, ...]) -> list[np.ndarray]:
        """trec_eval's backward walk of ``m_iprec_at_recall.c`` and ``m_11pt_avg.c`` for the recall
        levels XS (in their order): the value each level gets, per topic.

        With its cut-offs c_j (:meth:`cutoff_counts`), trec_eval skips from the last while
        c_j > S (those stay 0), then walks rel_so_far = S, S−1, …, 1 over the relevant results from
        the bottom, handing the running maximum of precision to the current cut-off when rel_so_far
        equals it and moving to the one before; the cut-offs not handed out when the walk ends get
        its last maximum.  For 1 <= c <= S that value is max{count(i)/i : i >= rank of the c-th
        relevant result}.
        """
        if self.level < 0:
            raise NotImplementedError("a negative relevance level")
        S = self.num_rel_ret
        prec, rel_start = self._relevant_precisions()

        def value(c: np.ndarray) -> np.ndarray:
            return seg_range_max(prec, rel_start[:-1] + np.maximum(c, 1) - 1, rel_start[1:])

        with np.errstate(divide="ignore", invalid="ignore"):
            empty = S / self.length.astype(np.float64)  # nothing relevant: the walk never starts
        final = np.where(S > 0, value(np.ones_like(S)), empty)
        out: list[np.ndarray] = [np.zeros(S.size)] * len(xs)
        skipping = np.ones(S.size, dtype=bool)
        stuck = np.zeros(S.size, dtype=bool)
        v = S.copy()
        for j in range(len(xs) - 1, -1, -1):
            c = self.cutoff_counts(xs[j])
            skipped = skipping & (c > S)
            skipping &= skipped
            walking = ~skipping & ~stuck
            hit = walking & (c >= 1) & (c <= v)
            stuck |= walking & ~hit
            out[j] = np.where(skipped, 0.0, np.where(hit, value(np.where(hit, c, 1)), final))
            v = np.where(hit, c, v)
        return out

    def iprec_at_recall(self, x: float) -> np.ndarray:
        """Interpolated precision at recall x: from trec_eval's walk over its eleven levels when x is
        one of them (walked once for all eleven, as trec_eval does), else the walk with that cut-off
        alone, which gives the same as a walk over any sorted levels that include it."""
        if x in ELEVEN_LEVELS:
            return self.iprec_levels(ELEVEN_LEVELS)[ELEVEN_LEVELS.index(x)]
        return self._walk((x,))[0]

    def iprec_levels(self, xs: tuple[float, ...]) -> list[np.ndarray]:
        if xs != ELEVEN_LEVELS:
            return self._walk(xs)
        if self._eleven is None:
            self._eleven = self._walk(xs)
        return self._eleven

    def eleven_pt_avg(self, xs: tuple[float, ...]) -> np.ndarray:
        vals = self.iprec_levels(xs)
        total = np.zeros(self.length.size)
        for v in reversed(vals):  # trec_eval adds them from the last cut-off to the first
            total = total + v
        return total / len(xs) if xs else total


def gm_mean(values: np.ndarray) -> float:
    """trec_eval's gm_map average: exp(mean(log(max(v, MIN_GEO_MEAN))))."""
    import math

    vals = [c_log(max(v, MIN_GEO_MEAN)) for v in np.asarray(values, dtype=np.float64).tolist()]
    acc = 0.0
    for v in vals:
        acc += v
    return math.exp(acc / len(vals)) if vals else 0.0


def relstrings(ranking: Ranking, n: int) -> list[str]:
    """trec_eval's ``relstring_n`` of every topic of RANKING: the first n relevance values."""
    rel = ranking.rel
    chars = np.where(rel > 9, ord(">"), np.where(rel >= 0, ord("0") + np.clip(rel, 0, 9),
                     np.where(rel == NOT_JUDGED, ord("-"), np.where(rel == JUDGED_NEGATIVE, ord("."), ord("<")))))
    text = chars.astype(np.uint8).tobytes().decode("ascii")
    start = ranking.start.tolist()
    return [text[s:min(e, s + max(n, 0))] for s, e in zip(start[:-1], start[1:])]
