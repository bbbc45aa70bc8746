"""trec_eval's measures, per topic, for every topic of a :class:`Ranking` at once (docs/measures.md §8).

Notation for one topic: the run's results d_1 … d_L in trec_eval order,
rel(d) its qrels value, relevant iff rel >= ``rel_level``; R = number of
relevant qrels rows; count(k) = relevant among d_1 … d_min(k, L).
Definitions are trec_eval 9.0.x's (``m_*.c``), which seed 004 describes in
textbook form:

- ``num_ret`` = L, ``num_rel`` = R, ``num_rel_ret`` = count(L);
- ``P_k`` = count(k) / k (divisor k also beyond L; seed 004 "P@5");
- ``recall_k`` = count(k) / R;
- ``map`` = (1/R) Σ_{d_i relevant} count(i)/i (seed 004 "MAP");
  ``gm_map`` per topic is the same value, averaged geometrically (see
  :func:`gm_mean`);
- ``Rprec`` = count(R) / R (seed 004 "R-Precision");
- ``recip_rank`` = 1 / rank of the first relevant result (0 if none);
- ``bpref`` = (1/R) Σ_{d_i relevant} (1 − min(n_i, R) / min(N, R)), where
  n_i counts judged non-relevant results above d_i (0 <= rel < rel_level)
  and N all judged non-relevant documents; a term with n_i = 0 is 1;
- ``iprec_at_recall_x`` = max{count(i)/i : i >= rank of the k-th relevant
  result}, with k = round(x·R) half away from zero (trec_eval 10.0) or
  trunc(x·R + 0.9) (9.0.8, which pytrec_eval embeds), computed in double
  precision; k = 0 means k = 1; 0 if k > count(L);
- ``ndcg`` = DCG/IDCG with DCG = Σ_i g(d_i)/log2(i + 1), g = rel for rel > 0
  (trec_eval's default gains: the relevance value, whatever ``rel_level``),
  IDCG the DCG of all judged documents sorted by gain; ``ndcg_cut_k`` the
  same with both sums cut at rank k. 0 when IDCG = 0.
"""

from __future__ import annotations

import numpy as np

from inexeval.measures.classic_base import Ranking, at_rank, seg_cumsum, seg_range_max, seg_sum

#: trec_eval's ``MIN_GEO_MEAN``: gm_map floors each topic's AP here before the log.
MIN_GEO_MEAN = 0.00001


class TrecState:
    """Quantities shared by several trec_eval measures of one ranking, computed once."""

    def __init__(self, ranking: Ranking):
        self.r = ranking
        self.start = ranking.start
        self.length = ranking.length
        self.isrel = ranking.relevant
        self.rank = ranking.rank
        self.count = seg_cumsum(self.isrel.astype(np.int64), self.start)
        self.num_rel = ranking.table.num_rel
        self.num_rel_ret = at_rank(self.count, self.start, self.length)
        self._ideal: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None
        self._dcg: np.ndarray | None = None
        self._rel_prec: tuple[np.ndarray, np.ndarray] | None = None

    def div_rel(self, x: np.ndarray) -> np.ndarray:
        """x / R, with 0 where R = 0 (such topics are undefined anyway, docs/measures.md §10)."""
        return np.divide(x, self.num_rel, out=np.zeros(x.shape, dtype=np.float64), where=self.num_rel > 0)

    # --- trec_eval measures -------------------------------------------------

    def num_ret(self) -> np.ndarray:
        return self.length.astype(np.float64)

    def num_rel_(self) -> np.ndarray:
        return self.num_rel.astype(np.float64)

    def num_rel_ret_(self) -> np.ndarray:
        return self.num_rel_ret.astype(np.float64)

    def precision(self, k: int) -> np.ndarray:
        return at_rank(self.count, self.start, k) / k

    def recall(self, k: int) -> np.ndarray:
        return self.div_rel(at_rank(self.count, self.start, k).astype(np.float64))

    def ap(self) -> np.ndarray:
        terms = np.where(self.isrel, self.count / self.rank, 0.0)
        return self.div_rel(seg_sum(terms, self.start))

    def rprec(self) -> np.ndarray:
        return self.div_rel(at_rank(self.count, self.start, self.num_rel).astype(np.float64))

    def recip_rank(self) -> np.ndarray:
        first = seg_range_max(np.where(self.isrel, 1.0 / self.rank, 0.0), self.start[:-1], self.start[1:])
        return first  # the first relevant has the largest 1/rank

    def bpref(self) -> np.ndarray:
        rel = self.r.rel
        nonrel = (rel >= 0) & ~self.isrel
        n_above = seg_cumsum(nonrel.astype(np.int64), self.start)  # includes the row itself, 0 on relevant rows' own count
        topic = self.r.topic
        R = self.num_rel[topic]
        denom = np.minimum(self.r.table.num_nonrel, self.num_rel)[topic]
        with np.errstate(divide="ignore", invalid="ignore"):
            term = np.where(n_above > 0, 1.0 - np.minimum(n_above, R) / denom, 1.0)
        return self.div_rel(seg_sum(np.where(self.isrel, term, 0.0), self.start))

    def _relevant_precisions(self) -> tuple[np.ndarray, np.ndarray]:
        """count(i)/i at the relevant rows (grouped by topic, in rank order) and each topic's first."""
        if self._rel_prec is None:
            rows = np.flatnonzero(self.isrel)
            self._rel_prec = (self.count[rows] / self.rank[rows], np.searchsorted(rows, self.start))
        return self._rel_prec

    def iprec_at_recall(self, x: float, cutoff: np.ndarray | None = None) -> np.ndarray:
        """Interpolated precision at recall x; CUTOFF: the relevant count reaching it per topic
        (default 9.0.8's trunc(x·R + 0.9); 10.0's rounding comes from classic_trec_more)."""
        k = np.trunc(x * self.num_rel.astype(np.float64) + 0.9).astype(np.int64) if cutoff is None else cutoff
        k = np.maximum(k, 1)
        prec, rel_start = self._relevant_precisions()  # rel_start: segment starts among relevant rows
        lo = rel_start[:-1] + k - 1
        hi = rel_start[1:]
        out = seg_range_max(prec, lo, hi)
        out[k > self.num_rel_ret] = 0.0
        return out

    def _ideal_terms(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Per topic, judged gains sorted decreasingly, discounted: (terms, rank, starts)."""
        if self._ideal is None:
            t = self.r.table
            cached = t.cache.get("trec_ideal")  # the same for every run: computed once per table
            if cached is None:
                gain = np.where(t.qrel > 0, t.qrel, 0).astype(np.float64)
                topic = np.repeat(np.arange(t.size), np.diff(t.qstart))
                g = gain[np.lexsort((-gain, topic))]
                pos = np.arange(g.size) - np.repeat(t.qstart[:-1], np.diff(t.qstart)) + 1
                cached = t.cache["trec_ideal"] = (g / np.log2(pos + 1.0), pos, t.qstart)
            self._ideal = cached
        return self._ideal

    def _dcg_terms(self) -> np.ndarray:
        if self._dcg is None:
            gain = np.where(self.r.rel > 0, self.r.rel, 0).astype(np.float64)
            self._dcg = gain / np.log2(self.rank + 1.0)
        return self._dcg

    def ndcg(self, k: int | None = None) -> np.ndarray:
        terms = self._dcg_terms()
        iterms, ipos, istart = self._ideal_terms()
        if k is None:
            num, den = seg_sum(terms, self.start), seg_sum(iterms, istart)
        else:
            num = seg_sum(np.where(self.rank <= k, terms, 0.0), self.start)
            den = seg_sum(np.where(ipos <= k, iterms, 0.0), istart)
        return np.divide(num, den, out=np.zeros(num.shape), where=den > 0)


def gm_mean(values: np.ndarray) -> float:
    """trec_eval's gm_map average: exp(mean(log(max(v, MIN_GEO_MEAN))))."""
    return float(np.exp(np.mean(np.log(np.maximum(values, MIN_GEO_MEAN)))))
