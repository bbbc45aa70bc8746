"""trec_eval's other ``all_trec`` measures, per topic, for every topic of a :class:`Ranking` at once
(docs/measures.md §8.2).

Notation as in :mod:`inexeval.measures.classic_trec`: topic results d_1 … d_L in trec_eval
order, rel(d) the qrels value (-1 not in the qrels, -2 judged with a negative value: "in the pool,
unjudged"), relevant iff rel >= ``rel_level``, R relevant documents, count(k) relevant among the
first min(k, L).  Gains (``ndcg``, ``ndcg_rel``, ``Rndcg``, ``G``, ``rbp``): g(level) = the
level, or the gain given for it (``ndcg_1=3,2=9``); 0 for -1/-2.  The ideal list: the gains of
the topic's judged documents (rel >= 0) sorted decreasingly, cut before the first gain <= 0;
ig_j its j-th gain (0 past its end), M its length.  Definitions follow trec_eval's ``m_*.c``:

- ``infAP``: (1/R) Σ over relevant d_i of 1 if i = 1, else 1/i + ((i-1)/i)·(a/(i-1))·
  ((r-1+ε)/(r-1+n+2ε)), with r relevant, n judged non-relevant and u pooled-unjudged
  results among d_1 … d_i, a = r-1+n+u, ε = 0.00001 (Yilmaz and Aslam);
- ``gm_bpref``: bpref per topic, averaged geometrically as gm_map;
- ``Rprec_mult_x``: count(c)/c with c = trunc(x·R + 0.9) (0 if c = 0), in both versions;
- ``utility_a,b,c,d``: a·rr + b·(L-rr) + c·(R-rr) + d·(N + rr - L - R), rr = count(L),
  N = documents in the collection (trec_eval ``-N``, default 0);
- ``11pt_avg``: mean of ``iprec_at_recall_x`` over its x (default 0.0, 0.1, … 1.0);
- ``binG``: (1/R) Σ over relevant d_i of 1/log2(2 + non-relevant results above d_i), 0 if none
  retrieved;
- ``G``: Σ_i g_i / log2(2 + C_i - S_i) / Σ_j ig_j, S_i = Σ_{k<=i} g_k, C_i = Σ_{k<=i}
  max(ig_k, 1);
- ``ndcg`` with gains: Σ_i g_i/log2(i+1) over Σ_j ig_j/log2(j+1);
- ``ndcg_rel``: the mean, over the M ideal documents, of nDCG at the rank of each retrieved
  document with g > 0 (DCG_i over the ideal DCG to rank min(i, M)), the ones not retrieved
  counting nDCG at L;
- ``Rndcg``: the mean of DCG(min(b, L))/IDCG(b) over the ranks b where the ideal gain changes
  (including b = M), plus DCG(L)/IDCG(M) when L > M; 0 if R = 0;
- ``map_cut_k``: (1/R) Σ over relevant d_i, i <= k, of count(i)/i;
- ``relative_P_k``: count(k)/min(k, R); ``success_k``: 1 if count(k) > 0;
- ``set_P`` rr/L, ``set_recall`` rr/R, ``set_relative_P`` rr/min(L, R), ``set_map``
  set_P·set_recall, ``set_F`` (x+1)·P·R/(x·P + R) (x default 1; 0 when rr = 0);
- ``num_nonrel_judged_ret``: results with 0 <= rel < rel_level (summed over topics);
- ``rbp``: (1-p) Σ_i g_i·p^(i-1), p = 0.9 by default; trec_eval 10.0 rescales the gains to
  [0, 1] (g - min)/(max - min) when one lies outside, min and max over the gains of levels
  0 … the topic's highest (and any given), with 0 among them; 9.0.8 does not rescale;
- ``rbp_resid``: p^L + (1-p) Σ over unjudged d_i (rel < 0) of p^(i-1), p = 0.9; 0 when no
  result is unjudged;
- ``unj_k``: unjudged (rel < 0) among the first min(k, L), over k;
- ``relstring_k`` (text, :func:`relstrings`): the first k relevance values, a digit per level
  0-9, ``>`` above 9, ``-`` not in the qrels, ``.`` judged negative.
"""

from __future__ import annotations

import numpy as np

from inexeval.measures.classic_base import JUDGED_NEGATIVE, NOT_JUDGED, Ranking, at_rank, seg_cumsum, seg_sum

#: trec_eval's ``INFAP_EPSILON``.
INFAP_EPSILON = 0.00001


def _div(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    num = np.asarray(num, dtype=np.float64)
    return np.divide(num, den, out=np.zeros(num.shape, dtype=np.float64), where=np.asarray(den) != 0)


def round_half_away(v: np.ndarray) -> np.ndarray:
    """C's ``lround`` for v >= 0: halves go up; exact (v - floor(v) is exact in binary)."""
    f = np.floor(v)
    return (f + (v - f >= 0.5)).astype(np.int64)


class MoreState:
    """Quantities of one ranking shared by the measures of this module (computed on demand)."""

    def __init__(self, ranking: Ranking, trec_state, version: str = "10.0", num_docs: int = 0):
        self.r = ranking
        self.t = trec_state  # classic_trec.TrecState of the same ranking
        self.version = version
        self.num_docs = num_docs
        self.topic = ranking.topic
        self._gain_cache: dict[tuple, tuple] = {}

    # --- counts ------------------------------------------------------------

    def num_nonrel_judged_ret(self) -> np.ndarray:
        rel = self.r.rel
        return seg_sum(((rel >= 0) & ~self.t.isrel).astype(np.int64), self.t.start).astype(np.float64)

    def _unjudged(self) -> np.ndarray:
        return (self.r.rel == NOT_JUDGED) | (self.r.rel == JUDGED_NEGATIVE)

    # --- set measures ----------------------------------------------------------

    def set_p(self) -> np.ndarray:
        return _div(self.t.num_rel_ret, self.t.length)

    def set_recall(self) -> np.ndarray:
        return _div(self.t.num_rel_ret, self.t.num_rel)

    def set_relative_p(self) -> np.ndarray:
        return _div(self.t.num_rel_ret, np.minimum(self.t.length, self.t.num_rel))

    def set_map(self) -> np.ndarray:
        return self.set_p() * self.set_recall()

    def set_f(self, x: float) -> np.ndarray:
        p, r = self.set_p(), self.set_recall()
        return _div((x + 1.0) * p * r, x * p + r)

    def utility(self, a: float, b: float, c: float, d: float) -> np.ndarray:
        rr = self.t.num_rel_ret.astype(np.float64)
        L = self.t.length.astype(np.float64)
        R = self.t.num_rel.astype(np.float64)
        return a * rr + b * (L - rr) + c * (R - rr) + d * (self.num_docs + rr - L - R)

    # --- cut-off measures ------------------------------------------------------

    def map_cut(self, k: int) -> np.ndarray:
        t = self.t
        terms = np.where(t.isrel & (t.rank <= k), t.count / t.rank, 0.0)
        return t.div_rel(seg_sum(terms, t.start))

    def relative_p(self, k: int) -> np.ndarray:
        return _div(at_rank(self.t.count, self.t.start, k), np.minimum(k, self.t.num_rel))

    def success(self, k: int) -> np.ndarray:
        return (at_rank(self.t.count, self.t.start, k) > 0).astype(np.float64)

    def unj(self, k: int) -> np.ndarray:
        cum = seg_cumsum(self._unjudged().astype(np.int64), self.t.start)
        return at_rank(cum, self.t.start, k) / k

    def rprec_mult(self, x: float) -> np.ndarray:
        c = np.trunc(x * self.t.num_rel.astype(np.float64) + 0.9).astype(np.int64)
        return _div(at_rank(self.t.count, self.t.start, np.maximum(c, 1)), c)

    def iprec_cutoff(self, x: float) -> np.ndarray:
        """The relevant-document count at which recall x is reached, per topic, in this version."""
        v = x * self.t.num_rel.astype(np.float64)
        return round_half_away(v) if self.version == "10.0" else np.trunc(v + 0.9).astype(np.int64)

    def eleven_pt_avg(self, xs: tuple[float, ...]) -> np.ndarray:
        if not xs:
            return np.zeros(self.t.num_rel.size)
        total = np.zeros(self.t.num_rel.size)
        for x in xs:
            total = total + self.t.iprec_at_recall(x, self.iprec_cutoff(x))
        return total / len(xs)

    # --- judgement-based -------------------------------------------------------

    def infap(self) -> np.ndarray:
        t, rel = self.t, self.r.rel
        start = t.start
        nonrel = seg_cumsum(((rel >= 0) & ~t.isrel).astype(np.int64), start)
        pooled_unj = seg_cumsum((rel == JUDGED_NEGATIVE).astype(np.int64), start)
        r = t.count  # relevant so far, this row included
        j = (t.rank - 1).astype(np.float64)
        with np.errstate(divide="ignore", invalid="ignore"):
            later = 1.0 / (j + 1.0) + (j / (j + 1.0)) * ((r - 1 + nonrel + pooled_unj) / j) * (
                (r - 1 + INFAP_EPSILON) / (r - 1 + nonrel + 2 * INFAP_EPSILON))
        term = np.where(t.rank == 1, 1.0, later)
        return t.div_rel(seg_sum(np.where(t.isrel, term, 0.0), start))

    def bin_g(self) -> np.ndarray:
        t = self.t
        nonrel_above = t.rank - t.count  # the row is relevant where used
        terms = np.where(t.isrel, 1.0 / np.log2(2.0 + nonrel_above), 0.0)
        return t.div_rel(seg_sum(terms, t.start))

    # --- gains -----------------------------------------------------------------

    def gains(self, pairs: tuple[tuple[str, float], ...] = ()) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(g per result row, ideal gains per topic flattened, ideal starts) for gain PAIRS.

        Ideal: each topic's judged qrels rows (rel >= 0) by gain, decreasing, positive only."""
        key = tuple(pairs)
        got = self._gain_cache.get(key)
        if got is not None:
            return got
        given = {int(float(lv)): float(g) for lv, g in pairs}
        tab = self.r.table

        def gain_of(levels: np.ndarray) -> np.ndarray:
            out = np.where(levels >= 0, levels, 0).astype(np.float64)
            for lv, g in given.items():
                out[levels == lv] = g
            return out

        row_gain = gain_of(self.r.rel)
        q = tab.qrel
        judged = q >= 0
        qtopic = np.repeat(np.arange(tab.size), np.diff(tab.qstart))
        qg = gain_of(q)
        keep = judged & (qg > 0)
        g, topic = qg[keep], qtopic[keep]
        order = np.lexsort((-g, topic))
        ideal = g[order]
        istart = np.searchsorted(topic[order], np.arange(tab.size + 1)).astype(np.int64)
        got = self._gain_cache[key] = (row_gain, ideal, istart)
        return got

    def _ideal_at_rows(self, ideal: np.ndarray, istart: np.ndarray) -> np.ndarray:
        """ig at each result row's rank (0 past the ideal list)."""
        topic, pos = self.topic, self.t.rank - 1
        m = np.diff(istart)[topic]
        inside = pos < m
        idx = np.where(inside, istart[:-1][topic] + pos, 0)
        return np.where(inside, ideal[idx] if ideal.size else 0.0, 0.0)

    def ndcg(self, pairs: tuple[tuple[str, float], ...]) -> np.ndarray:
        g, ideal, istart = self.gains(pairs)
        dcg = seg_sum(g / np.log2(self.t.rank + 1.0), self.t.start)
        ipos = np.arange(ideal.size) - np.repeat(istart[:-1], np.diff(istart)) + 1
        idcg = seg_sum(ideal / np.log2(ipos + 1.0), istart)
        return _div(dcg, idcg)

    def g_measure(self, pairs: tuple[tuple[str, float], ...]) -> np.ndarray:
        g, ideal, istart = self.gains(pairs)
        start = self.t.start
        ig = self._ideal_at_rows(ideal, istart)
        s = seg_cumsum(g, start)
        c = seg_cumsum(np.maximum(ig, 1.0), start)
        with np.errstate(divide="ignore", invalid="ignore"):
            terms = np.where(g != 0, g / np.log2(2.0 + c - s), 0.0)
        return _div(seg_sum(terms, start), seg_sum(ideal, istart))

    def _ideal_cum(self, ideal: np.ndarray, istart: np.ndarray) -> np.ndarray:
        ipos = np.arange(ideal.size) - np.repeat(istart[:-1], np.diff(istart)) + 1
        return seg_cumsum(ideal / np.log2(ipos + 1.0), istart)

    def ndcg_rel(self, pairs: tuple[tuple[str, float], ...]) -> np.ndarray:
        g, ideal, istart = self.gains(pairs)
        t, topic = self.t, self.topic
        start = t.start
        m = np.diff(istart)
        dcg_cum = seg_cumsum(g / np.log2(t.rank + 1.0), start)
        icum = self._ideal_cum(ideal, istart)
        # the ideal DCG to rank min(i, M) at each row; the whole ideal DCG per topic
        idcg_all = np.zeros(m.size)
        idcg_all[m > 0] = icum[istart[1:][m > 0] - 1]
        upto = np.minimum(t.rank, m[topic])
        idx = np.where(upto > 0, istart[:-1][topic] + upto - 1, 0)
        idcg_here = np.where(upto > 0, icum[idx] if icum.size else 0.0, 0.0)
        pos = g > 0
        with np.errstate(divide="ignore", invalid="ignore"):
            terms = np.where(pos, dcg_cum / idcg_here, 0.0)
            nrr = seg_sum(pos.astype(np.int64), start)
            dcg_l = at_rank(dcg_cum, start, t.length)
            total = seg_sum(terms, start) + (m - nrr) * (dcg_l / idcg_all)
        return np.where(total > 0, _div(total, m), 0.0)

    def rndcg(self, pairs: tuple[tuple[str, float], ...]) -> np.ndarray:
        g, ideal, istart = self.gains(pairs)
        t = self.t
        start = t.start
        dcg_cum = seg_cumsum(g / np.log2(t.rank + 1.0), start)
        icum = self._ideal_cum(ideal, istart)
        length = t.length
        out = np.zeros(length.size)
        for ti in np.flatnonzero((t.num_rel > 0) & (np.diff(istart) > 0)).tolist():
            a, b = int(istart[ti]), int(istart[ti + 1])
            gains = ideal[a:b]
            M = b - a
            # ranks b (1-based count of ideal documents before) where the ideal gain changes
            bounds = (np.flatnonzero(gains[1:] != gains[:-1]) + 1).tolist() + [M]
            L = int(length[ti])
            s0 = int(start[ti])
            vals = []
            for bd in bounds:
                k = min(bd, L)
                dcg = float(dcg_cum[s0 + k - 1]) if k > 0 else 0.0
                vals.append(dcg / float(icum[a + bd - 1]))
            if L > M:
                vals.append(float(dcg_cum[s0 + L - 1]) / float(icum[b - 1]))
            out[ti] = sum(vals) / len(vals)
        return out

    # --- rank-biased precision ------------------------------------------------

    def rbp(self, p: float, pairs: tuple[tuple[str, float], ...] = ()) -> np.ndarray:
        g, _, _ = self.gains(pairs)
        if self.version == "10.0":
            tab = self.r.table
            qtopic = np.repeat(np.arange(tab.size), np.diff(tab.qstart))
            top = np.zeros(tab.size, dtype=np.int64)
            np.maximum.at(top, qtopic, np.maximum(tab.qrel, 0))
            given = {int(float(lv)): float(v) for lv, v in pairs}
            lo = np.zeros(tab.size)
            hi = top.astype(np.float64)
            if given:
                for ti in range(tab.size):
                    vals = [given.get(lv, float(lv)) for lv in range(int(top[ti]) + 1)] + list(given.values())
                    lo[ti], hi[ti] = min(vals + [0.0]), max(vals + [0.0])
            # every level of the topic's gain table is rescaled (0 too); -1/-2 keep gain 0
            in_table = (self.r.rel >= 0) | np.isin(self.r.rel, list(given))
            rescale = ((lo < 0) | (hi > 1))[self.topic] & in_table
            lo_r, hi_r = lo[self.topic], hi[self.topic]
            with np.errstate(divide="ignore", invalid="ignore"):
                g = np.where(rescale, (g - lo_r) / (hi_r - lo_r), g)
        weights = np.power(p, (self.t.rank - 1).astype(np.float64))
        return (1.0 - p) * seg_sum(np.where(g != 0, g * weights, 0.0), self.t.start)

    def rbp_resid(self, p: float = 0.9) -> np.ndarray:
        unj = self._unjudged()
        weights = np.power(p, (self.t.rank - 1).astype(np.float64))
        start = self.t.start
        n_unj = seg_sum(unj.astype(np.int64), start)
        tail = np.power(p, self.t.length.astype(np.float64))
        val = tail + (1.0 - p) * seg_sum(np.where(unj, weights, 0.0), start)
        return np.where(n_unj > 0, val, 0.0)


def relstrings(ranking: Ranking, n: int) -> list[str]:
    """trec_eval's ``relstring_n`` of every topic of RANKING: the first n relevance values."""
    rel = ranking.rel
    chars = np.where(rel > 9, ord(">"), np.where(rel >= 0, ord("0") + np.clip(rel, 0, 9),
                     np.where(rel == NOT_JUDGED, ord("-"), np.where(rel == JUDGED_NEGATIVE, ord("."), ord("<")))))
    text = chars.astype(np.uint8).tobytes().decode("ascii")
    start = ranking.start.tolist()
    return [text[s:min(e, s + max(n, 0))] for s, e in zip(start[:-1], start[1:])]
