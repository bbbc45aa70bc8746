"""Measures beyond trec_eval, from seeds 003 (Sakai) and 004 (classic IR evaluation), docs/measures.md §8.

For one topic, with the run's results d_1 … d_L, relevant iff rel >=
``rel_level``, gain g(d) = gain(rel(d)) for a relevant document and 0
otherwise (``GAINS``; a level not listed there keeps gain = level, as in
trec_eval's ndcg), R = number of relevant documents:

- count(r) = relevant among the first r; cg(r) = Σ_{i<=r} g(d_i) (seed 004
  "CG"); the ideal gain vector lists the relevant documents' gains in
  decreasing order and cig(r) is its cumulative sum, constant after rank R
  (seed 003 eq. 10). Every cumulated value stays at its last value beyond L.
- ``F@k(b)`` = (1 + b²)·P·Rc / (b²·P + Rc), P = count(k)/k, Rc = count(k)/R,
  0 if P = Rc = 0; ``E@k(b)`` = 1 − F@k(b) (seed 004, "E-Measure"; b = 1
  gives F, the harmonic mean).
- ``CG@k`` = cg(k); ``DCG_JK@k(b)``: Järvelin–Kekäläinen discounting, a gain
  at rank i < b undiscounted, at i >= b divided by log_b(i) (seed 004
  "DCG", base 2: ranks 1 and 2 undiscounted); ``nDCG@k(b)`` = DCG@k /
  ideal DCG@k (0 if the ideal is 0).
- ``AWP`` = (1/R) Σ_{d_r relevant} cg(r)/cig(r) (seed 003 eq. 3);
  ``R-WP`` = cg(R)/cig(R) (eq. 4).
- ``Q`` = (1/R) Σ_{d_r relevant} (β·cg(r) + count(r)) / (β·cig(r) + r)
  (eq. 15); ``R`` = (β·cg(R) + count(R)) / (β·cig(R) + R) (eq. 16).
- AGR (seed 003 §5.1, eq. 20): per topic, gain'(X) = gain(X) −
  (R(X)/R)·(gain(X) − gain(X')), X' the next lower relevance level (gain 0
  below the lowest), not applied where R(X) = R.  AWP with these gains is
  Sakai's Average Gain Ratio; they apply to R-WP, Q and R alike.
- ``MRR@k`` = 1/rank of the first relevant result if that rank <= k, else
  0 (seed 004 "MRR" with threshold S_h = k); ``MRR`` without k is
  trec_eval's ``recip_rank``.
"""

from __future__ import annotations

import math

import numpy as np

from inexeval.measures.classic_base import Ranking, at_rank, seg_cumsum, seg_range_max, seg_sum


def level_gains(levels: np.ndarray, rel_level: int, gains: dict[int, float] | None) -> dict[int, float]:
    """gain(X) for every relevant level X among LEVELS (and GAINS' own levels >= rel_level)."""
    gains = gains or {}
    out = {int(x): float(gains.get(int(x), int(x))) for x in np.unique(levels) if x >= rel_level}
    out.update({int(x): float(g) for x, g in gains.items() if x >= rel_level})
    return out


def agr_table(
    counts: np.ndarray, levels: list[int], base: dict[int, float]
) -> np.ndarray:
    """Sakai's topic-adjusted gains (seed 003 eq. 20): array [topic, level index].

    COUNTS[t, j] is R_t(levels[j]); LEVELS ascending.
    """
    g = np.array([base[x] for x in levels], dtype=np.float64)
    lower = np.concatenate(([0.0], g[:-1]))
    R = counts.sum(axis=1, keepdims=True).astype(np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        adj = g - np.where(R > 0, counts / R, 0.0) * (g - lower)
    return np.where(counts == R, g, adj)


class GradedState:
    """Cumulated gains of one ranking and its topics' ideal vectors."""

    def __init__(self, ranking: Ranking, gains: dict[int, float] | None, agr: bool):
        t = ranking.table
        self.r = ranking
        self.start = ranking.start
        self.length = ranking.length
        self.rank = ranking.rank
        self.isrel = ranking.relevant
        self.num_rel = t.num_rel
        base = level_gains(np.concatenate((t.qrel, ranking.rel)), t.rel_level, gains)
        self.levels = sorted(base)
        qtopic = np.repeat(np.arange(t.size), np.diff(t.qstart))
        qrelevant = t.qrel >= t.rel_level
        if agr and self.levels:
            lvl_idx = np.searchsorted(self.levels, t.qrel)
            counts = np.zeros((t.size, len(self.levels)), dtype=np.int64)
            np.add.at(counts, (qtopic[qrelevant], lvl_idx[qrelevant]), 1)
            table = agr_table(counts, self.levels, base)
        else:
            table = np.tile(np.array([base[x] for x in self.levels], dtype=np.float64), (t.size, 1))

        def gain_of(topic: np.ndarray, rel: np.ndarray, relevant: np.ndarray) -> np.ndarray:
            if not self.levels:
                return np.zeros(rel.size)
            j = np.clip(np.searchsorted(self.levels, rel), 0, len(self.levels) - 1)
            return np.where(relevant, table[topic, j], 0.0)

        self.gain = gain_of(ranking.topic, ranking.rel, self.isrel)
        self.cg = seg_cumsum(self.gain, self.start)
        self.count = seg_cumsum(self.isrel.astype(np.int64), self.start)
        # ideal: relevant qrels gains, decreasing, per topic
        qgain = gain_of(qtopic, t.qrel, qrelevant)
        order = np.lexsort((-qgain, ~qrelevant, qtopic))
        self.ideal = qgain[order]
        self.istart = t.qstart  # ideal vector of topic t: ideal[istart[t] : istart[t] + R_t]
        self.icg = seg_cumsum(self.ideal, self.istart)

    def cig_at(self, topic: np.ndarray, r: np.ndarray) -> np.ndarray:
        """cig(r) for (topic, rank) pairs: the ideal cumulated gain, frozen after rank R."""
        upto = np.minimum(r, self.num_rel[topic])
        out = np.zeros(np.shape(r), dtype=np.float64)
        ok = upto > 0
        out[ok] = self.icg[self.istart[topic[ok]] + upto[ok] - 1]
        return out

    def div_rel(self, x: np.ndarray) -> np.ndarray:
        return np.divide(x, self.num_rel, out=np.zeros(x.shape, dtype=np.float64), where=self.num_rel > 0)

    # --- seed 004 ------------------------------------------------------------

    def f_measure(self, k: int, b: float = 1.0) -> np.ndarray:
        c = at_rank(self.count, self.start, k).astype(np.float64)
        p = c / k
        rc = self.div_rel(c)
        den = b * b * p + rc
        return np.divide((1 + b * b) * p * rc, den, out=np.zeros(c.shape), where=den > 0)

    def e_measure(self, k: int, b: float = 1.0) -> np.ndarray:
        return 1.0 - self.f_measure(k, b)

    def cg_at(self, k: int) -> np.ndarray:
        return at_rank(self.cg, self.start, k)

    @staticmethod
    def discount(rank: np.ndarray, base: float) -> np.ndarray:
        """JK discount: 1 below rank ``base``, log_base(rank) from there on."""
        lg = np.log2(rank) if base == 2 else np.log(rank) / math.log(base)
        return np.where(rank < base, 1.0, lg)

    def dcg_at(self, k: int, base: float = 2.0) -> np.ndarray:
        inside = self.rank <= k
        return seg_sum(np.where(inside, self.gain / self.discount(self.rank, base), 0.0), self.start)

    def ideal_dcg_at(self, k: int, base: float = 2.0) -> np.ndarray:
        t = self.r.table
        pos = np.arange(self.ideal.size) - np.repeat(t.qstart[:-1], np.diff(t.qstart)) + 1
        inside = pos <= np.minimum(k, np.repeat(self.num_rel, np.diff(t.qstart)))
        return seg_sum(np.where(inside, self.ideal / self.discount(pos, base), 0.0), t.qstart)

    def ndcg_at(self, k: int, base: float = 2.0) -> np.ndarray:
        num, den = self.dcg_at(k, base), self.ideal_dcg_at(k, base)
        return np.divide(num, den, out=np.zeros(num.shape), where=den > 0)

    def mrr(self, k: int | None) -> np.ndarray:
        rr = np.where(self.isrel & (self.rank <= (k if k is not None else np.inf)), 1.0 / self.rank, 0.0)
        return seg_range_max(rr, self.start[:-1], self.start[1:])

    # --- seed 003 ------------------------------------------------------------

    def _rel_rows(self) -> tuple[np.ndarray, np.ndarray]:
        rows = np.flatnonzero(self.isrel)
        return rows, self.r.topic[rows]

    def awp(self) -> np.ndarray:
        rows, topic = self._rel_rows()
        cig = self.cig_at(topic, self.rank[rows])
        term = np.zeros(self.rank.size)
        term[rows] = np.divide(self.cg[rows], cig, out=np.zeros(rows.size), where=cig > 0)
        return self.div_rel(seg_sum(term, self.start))

    def r_wp(self) -> np.ndarray:
        cg = at_rank(self.cg, self.start, self.num_rel)
        cig = self.cig_at(np.arange(self.num_rel.size), self.num_rel)
        return np.divide(cg, cig, out=np.zeros(cg.shape), where=cig > 0)

    def q_measure(self, beta: float) -> np.ndarray:
        rows, topic = self._rel_rows()
        r = self.rank[rows]
        term = np.zeros(self.rank.size)
        term[rows] = (beta * self.cg[rows] + self.count[rows]) / (beta * self.cig_at(topic, r) + r)
        return self.div_rel(seg_sum(term, self.start))

    def r_measure(self, beta: float) -> np.ndarray:
        R = self.num_rel
        cg = at_rank(self.cg, self.start, R)
        cnt = at_rank(self.count, self.start, R)
        den = beta * self.cig_at(np.arange(R.size), R) + R
        return np.divide(beta * cg + cnt, den, out=np.zeros(cg.shape), where=den > 0)
