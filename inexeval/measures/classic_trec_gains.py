"""trec_eval's measures with gains, per topic, for every topic of a :class:`Ranking` at once
(docs/measures.md §8.2): ``ndcg``, ``dcg``, ``ideal_dcg``, ``ndcg_rel``, ``Rndcg``, ``G``,
``ndcg_cut``, ``rbp``, ``rbp_resid``.

**Gains** (trec_eval's ``setup_gains``, gain_init.c).  A topic's *levels* are 0 … m − 1, m − 1 its
highest judgement (levels with no judgement included); a level's gain is the level, or the value
given for it (``ndcg.1=3,2=9``: a parameter whose name is an integer, its count taken from the
first such parameter).  The entries (parameters first, then the levels not given) are sorted by
gain with trec_eval's comparison, which truncates the difference of two gains to an integer
(gains less than 1 apart compare equal), by glibc 2.36's stable merge sort (:func:`sort_entries`).
A result's gain is that of the first entry of its level in that order, 0 when there is none
(results not in the qrels, or judged negative, unless a parameter names level -1 or -2).

**The ideal list**: the entries from the last to the first, each repeated as many times as the
topic has judgements of its level, up to (not including) the first one with a gain <= 0; its
length M.  If the last entry's own gain is <= 0 the ideal list is empty.  IG_j is its j-th gain,
IDCG(b) = Σ_{j<b} IG_j / log2(j + 2), DCG(b) = Σ_{i<b, g_i != 0} g_i / log2(i + 2), all added
left to right.

- ``ndcg`` = DCG(L)/IDCG(M) (0 when IDCG(M) = 0); ``dcg`` = DCG(L); ``ideal_dcg`` = IDCG(M);
- ``ndcg_rel`` = (Σ_{i, g_i > 0} DCG(i+1)/IDCG(min(i+1, M)) + (M − #{g_i > 0})·DCG(L)/IDCG(M)) / M,
  0 unless that sum is > 0;
- ``Rndcg``: the mean of DCG(min(b, L))/IDCG(b) over the positions b = 1 … M where the ideal gain
  changes (b = M always), with DCG(L)/IDCG(M) added when L > M + 1 — not when L = M + 1, as
  trec_eval's loop (m_Rndcg.c) skips that point; points with IDCG = 0 are left out; 0 when R = 0
  (NaN when no point is left);
- ``G`` = Σ_{g_i != 0} g_i / log2(2 + C_i − S_i) / Σ_j IG_j, S_i = Σ_{k<=i} g_k,
  C_i = Σ_{k<=i} c_k, c_k = IG_k if k < M and IG_k >= 1, else 1;
- ``ndcg_cut_k``: gain = the judgement itself (> 0, whatever ``-l``), the ideal list the topic's
  positive judgements, decreasing: Σ_{i<min(k,L)} / Σ_{j<min(k,M)};
- ``rbp_p=x`` = (1 − p) Σ_{g_i != 0} g_i·p^i, p^i by repeated multiplication; trec_eval 10.0 first
  maps every entry's gain to (g − min)/(max − min) when an entry lies outside [0, 1], min and max
  taken over the entries and 0 (its min and max start uninitialised; they behave as 0 with the
  Makefile's build);
- ``rbp_resid`` = p^L + (1 − p) Σ_{rel_i < 0} p^i, 0 when no result is unjudged.

**A topic judged only negatively** (no judgement >= 0) has, in trec_eval, the levels of the topic
evaluated before it (``form_res_rels`` keeps them from its previous call): so here too, through
the evaluation order the caller gives.
"""

from __future__ import annotations

import numpy as np

from inexeval.measures.classic_base import (
    Ranking,
    at_rank,
    glibc_msort,
    c_log2,
    count_starts,
    log2_int,
    masked_seg_sum,
    powers,
    segment_of,
    seg_count,
    seg_cumsum,
    seg_sum,
)


def _valid_int(text: str) -> bool:
    """trec_eval's ``valid_int``: an optional sign, then one or more digits."""
    body = text[1:] if text[:1] in "+-" else text
    return bool(body) and all("0" <= ch <= "9" for ch in body)


def _atol(text: str) -> int:
    sign = -1 if text[:1] == "-" else 1
    digits = text[1:] if text[:1] in "+-" else text
    return sign * int(digits)


def sort_entries(entries: list[tuple[int, float, int]]) -> list[tuple[int, float, int]]:
    """ENTRIES (level, gain, count source) sorted as trec_eval's ``qsort(..., comp_rel_gain)``
    sorts them under glibc 2.36: a top-down stable merge sort (msort.c) whose comparison is the
    difference of the gains converted to ``int`` (toward zero)."""
    return glibc_msort(entries, lambda x, y: int(x[1] - y[1]))


def gain_entries(pairs: tuple[tuple[str, float], ...], num_levels: int) -> list[tuple[int, float, int]]:
    """trec_eval's gain entries for a topic with levels 0 … NUM_LEVELS − 1, sorted: (level, gain,
    count source), the count source being the level whose judgements it counts, or -1 (none)."""
    entries: list[tuple[int, float, int]] = []
    for name, value in pairs:
        if _valid_int(name):
            entries.append((_atol(name), float(value), -1))
    for lv in range(num_levels):
        j = next((k for k, e in enumerate(entries) if e[0] == lv), None)
        if j is not None:  # the first parameter naming the level counts its judgements
            entries[j] = (entries[j][0], entries[j][1], lv)
        else:
            entries.append((lv, float(lv), lv))
    return sort_entries(entries)


def _level_counts(t) -> tuple[np.ndarray, ...]:
    """Per topic of the table T: its largest judgement, and (topic, level, count) of its judgements
    >= 0 with each topic's first row."""
    T = t.size
    qtopic = np.repeat(np.arange(T), np.diff(t.qstart))
    q = t.qrel
    maxrel = np.full(T, -1, dtype=np.int64)
    if q.size:
        np.maximum.at(maxrel, qtopic, q)
    ok = q >= 0
    tt, lv = qtopic[ok], q[ok]
    o = np.lexsort((lv, tt))
    tt, lv = tt[o], lv[o]
    new = np.ones(tt.size, dtype=bool)
    if tt.size:
        new[1:] = (tt[1:] != tt[:-1]) | (lv[1:] != lv[:-1])
    first = np.flatnonzero(new)
    topic = tt[first]
    return (maxrel, topic, lv[first], np.diff(np.append(first, tt.size)).astype(np.int64),
            np.searchsorted(topic, np.arange(T + 1)).astype(np.int64))


class Levels:
    """Per topic, trec_eval's ``rel_levels``: the number of judgements at each level >= 0, and
    ``num_rel_levels`` (highest level + 1); for the topics judged only negatively, those of the
    topic evaluated before (see the module notes)."""

    def __init__(self, ranking: Ranking, evaluated: np.ndarray | None):
        t = ranking.table
        T = t.size
        got = t.cache.get("levels")
        if got is None:
            got = t.cache["levels"] = _level_counts(t)
        maxrel, self.topic, self.level, self.count, self.start = got
        # the topic whose levels each topic uses: itself, or (judged only negatively) the one evaluated before
        source = np.arange(T)
        if evaluated is None:
            evaluated = np.arange(T)
        evaluated = np.asarray(evaluated, dtype=np.int64)
        if evaluated.size and (maxrel[evaluated] < 0).any():
            own = maxrel[evaluated] >= 0
            pos = np.where(own, np.arange(evaluated.size), -1)
            last = np.maximum.accumulate(pos)
            source[evaluated] = np.where(last >= 0, evaluated[np.maximum(last, 0)], -1)
        self.source = source
        #: identifies the levels of every topic (for caches shared by the runs of one table)
        self.key = "own" if np.array_equal(source, np.arange(T)) else source.tobytes()
        num = np.where(maxrel >= 0, maxrel + 1, 0)
        self.num_levels = np.where(source >= 0, num[np.maximum(source, 0)], 0)

    def counts_of(self, topic: int) -> dict[int, int]:
        """Level -> judgements of TOPIC's levels (its source's)."""
        s = int(self.source[topic])
        if s < 0:
            return {}
        a, b = int(self.start[s]), int(self.start[s + 1])
        return dict(zip(self.level[a:b].tolist(), self.count[a:b].tolist()))


class GainState:
    """The gains of one ranking under one set of gain parameters, and its topics' ideal lists."""

    def __init__(self, ranking: Ranking, levels: Levels, pairs: tuple[tuple[str, float], ...] = (),
                 rescale: bool = False):
        """PAIRS: the measure's ``name=value`` parameters (those whose name is an integer are gains);
        RESCALE: rbp's mapping of the gains to [0, 1] (trec_eval 10.0)."""
        self.r = ranking
        self.levels = levels
        self.start = ranking.start
        self.length = ranking.length
        self._rank: np.ndarray | None = None
        gains = [(n, v) for n, v in pairs if _valid_int(n)]
        self._entries: dict[int, list[tuple[int, float, int]]] | None = None  # None: the default gains
        self._ideal: tuple[np.ndarray, np.ndarray] | None = None
        self._dcg: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None
        self._rows: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None
        self._idcg_cum: np.ndarray | None = None
        rel = ranking.rel
        if not gains and not rescale:
            self.gain = np.where(rel > 0, rel, 0).astype(np.float64)
            return
        self.gain = np.zeros(rel.size)
        self._entries = {}
        # by number of levels: the sorted entries are the same for every topic with that number
        lookups: dict[int, dict[int, float]] = {}
        for m in np.unique(levels.num_levels).tolist():
            entries = gain_entries(tuple(gains), int(m))
            if rescale:
                lo = min([0.0] + [e[1] for e in entries])
                hi = max([0.0] + [e[1] for e in entries])
                if lo < 0 or hi > 1:
                    entries = [(lv, (g - lo) / (hi - lo), src) for lv, g, src in entries]
            self._entries[int(m)] = entries
            lookup = lookups[int(m)] = {}
            for lv, g, _ in entries:
                lookup.setdefault(lv, g)  # trec_eval's get_gain: the first entry of the level
        # only the rows whose code some level with a gain != 0 has can get one (most results of a run
        # are not judged): the others keep 0.0
        lowest = min((lv for lookup in lookups.values() for lv, g in lookup.items() if g != 0), default=None)
        if lowest is None:
            return
        cand = np.flatnonzero(rel >= lowest)
        crel = rel[cand]
        topic_levels = levels.num_levels[segment_of(self.start, cand)]
        for m, lookup in lookups.items():
            rows = np.flatnonzero(topic_levels == m)
            if lookup and rows.size:
                keys = np.array(sorted(lookup), dtype=np.int64)
                vals = np.array([lookup[k] for k in keys.tolist()])
                pos = np.clip(np.searchsorted(keys, crel[rows]), 0, keys.size - 1)
                self.gain[cand[rows]] = np.where(keys[pos] == crel[rows], vals[pos], 0.0)

    @property
    def rank(self) -> np.ndarray:
        """1-based rank of every row (computed when a measure needs it at every row)."""
        if self._rank is None:
            self._rank = self.r.rank
        return self._rank

    @property
    def ideal(self) -> np.ndarray:
        return self._ideal_lists()[1]

    @property
    def istart(self) -> np.ndarray:
        return self._ideal_lists()[0]

    def _ideal_lists(self) -> tuple[np.ndarray, np.ndarray]:
        """(starts, gains) of every topic's ideal list."""
        if self._ideal is None:
            self._ideal = default_ideal(self.r, self.levels) if self._entries is None else self._given_ideal()
        return self._ideal

    def _given_ideal(self) -> tuple[np.ndarray, np.ndarray]:
        levels = self.levels
        T = self.r.table.size
        lists: list[list[float]] = [[] for _ in range(T)]
        for ti in range(T):
            entries = self._entries.get(int(levels.num_levels[ti]), [])
            if not entries or entries[-1][1] <= 0:  # trec_eval's loops never start
                continue
            counts = levels.counts_of(ti)
            for lv, g, src in reversed(entries):
                c = counts.get(src, 0) if src >= 0 else 0
                if not c:
                    continue
                if g <= 0:
                    break
                lists[ti].extend([g] * c)
        sizes = np.array([len(x) for x in lists], dtype=np.int64)
        return (np.concatenate(([0], np.cumsum(sizes))).astype(np.int64),
                np.array([g for x in lists for g in x], dtype=np.float64))

    # --- shared sums ------------------------------------------------------------------------

    @property
    def M(self) -> np.ndarray:
        return np.diff(self.istart)

    def _ipos(self) -> np.ndarray:
        return np.arange(self.ideal.size) - np.repeat(self.istart[:-1], self.M)

    def idcg_cum(self) -> np.ndarray:
        """IDCG at every ideal position (cumulated left to right)."""
        if self._idcg_cum is None:
            key = ("idcg_cum", self.levels.key) if self._entries is None else None
            cache = self.r.table.cache
            got = cache.get(key) if key is not None else None
            if got is None:
                got = seg_cumsum(self.ideal / log2_int(self._ipos() + 2), self.istart)
                if key is not None:
                    cache[key] = got
            self._idcg_cum = got
        return self._idcg_cum

    def idcg_at(self, b: np.ndarray, cum: np.ndarray | None = None) -> np.ndarray:
        """IDCG(b) per topic (0 for b <= 0; the whole list beyond M)."""
        return at_rank(self.idcg_cum() if cum is None else cum, self.istart, b)

    def dcg_terms(self) -> np.ndarray:
        """gain(i) / log2(i + 1) at every row (0 where the gain is 0)."""
        return np.where(self.gain != 0, self.gain / log2_int(self.rank + 1), 0.0)

    def _dcg_rows(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """DCG through each row with a gain != 0, cached: those rows, each topic's first among them, and
        the running sums there (left to right).  A row with gain 0 adds 0.0, which leaves a sum as it
        is (x + 0.0 == x), so DCG through any row is the running sum of the last such row at or above
        it in its topic, 0 without one (:meth:`dcg_at`)."""
        if self._dcg is None:
            rows, rank, sub = self._gain_rows()
            self._dcg = (rows, sub, seg_cumsum(self.gain[rows] / log2_int(rank + 1), sub))
        return self._dcg

    def _gain_rows(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The rows with a gain != 0, their ranks, and each topic's first among them, cached."""
        if self._rows is None:
            rows = np.flatnonzero(self.gain != 0)
            rank = rows - self.start[segment_of(self.start, rows)] + 1
            self._rows = (rows, rank, np.searchsorted(rows, self.start))
        return self._rows

    def dcg_at(self, k: np.ndarray | int, topic: np.ndarray | None = None) -> np.ndarray:
        """DCG through rank min(k, L) of each topic (of TOPIC, k per entry, if given): 0 for k <= 0."""
        rows, sub, cum = self._dcg_rows()
        t = np.arange(self.length.size) if topic is None else topic
        upto = np.clip(np.asarray(k), 0, self.length[t])
        last = np.searchsorted(rows, self.start[t] + upto) - 1  # the last row with a gain at or above rank upto
        out = np.zeros(t.size)
        ok = (upto > 0) & (last >= sub[t])
        out[ok] = cum[last[ok]]
        return out

    # --- measures ---------------------------------------------------------------------------

    def dcg(self) -> np.ndarray:
        return self.dcg_at(self.length)

    def ideal_dcg(self) -> np.ndarray:
        return self.idcg_at(self.M)

    def ndcg(self) -> np.ndarray:
        num, den = self.dcg(), self.ideal_dcg()
        return np.divide(num, den, out=np.zeros(num.shape), where=den > 0)

    def ndcg_rel(self) -> np.ndarray:
        M = self.M
        pos = self.gain > 0
        rows = np.flatnonzero(pos)  # (each term computed at the rows it is added for)
        topic = segment_of(self.start, rows)
        gain_rows, _, cum = self._dcg_rows()
        dcg_here = cum[np.searchsorted(gain_rows, rows)]  # (a row with gain > 0 is one of them)
        icum = self.idcg_cum()
        rank = rows - self.start[topic] + 1
        upto = np.minimum(rank, M[topic])  # IDCG(min(i + 1, M)) at the row of rank i + 1
        idx = self.istart[:-1][topic] + upto - 1
        ihere = np.where(upto > 0, icum[np.clip(idx, 0, max(icum.size - 1, 0))] if icum.size else 0.0, 0.0)
        with np.errstate(divide="ignore", invalid="ignore"):
            terms = dcg_here / ihere
            s = seg_sum(terms, count_starts(pos, self.start))
            nrr = seg_count(pos, self.start)
            dcg_l = self.dcg()
            idcg_m = self.idcg_at(M, icum)
            s = s + (M - nrr).astype(np.float64) * dcg_l / idcg_m
            return np.where(s > 0.0, s / M, 0.0)

    def rndcg(self, num_rel: np.ndarray) -> np.ndarray:
        M, L = self.M, self.length
        T = M.size
        icum = self.idcg_cum()
        # change points b in 1 … M: IG_b != IG_{b-1} (b < M), and b = M
        ipos = self._ipos()
        itopic = np.repeat(np.arange(T), M)
        change = np.zeros(self.ideal.size, dtype=bool)  # at position b (0-based b >= 1) within its list
        if self.ideal.size:
            change[1:] = (self.ideal[1:] != self.ideal[:-1]) & (ipos[1:] > 0)
        pt_topic = np.concatenate((itopic[change], np.flatnonzero(M > 0)))
        pt_b = np.concatenate((ipos[change], M[M > 0]))
        o = np.lexsort((pt_b, pt_topic))
        pt_topic, pt_b = pt_topic[o], pt_b[o]
        idcg_b = icum[self.istart[:-1][pt_topic] + pt_b - 1] if pt_b.size else np.zeros(0)
        dcg_b = self.dcg_at(np.minimum(pt_b, L[pt_topic]), pt_topic)
        # the final point DCG(L)/IDCG(M) when L > M + 1
        extra = np.flatnonzero(L > M + 1)
        all_topic = np.concatenate((pt_topic, extra))
        num = np.concatenate((dcg_b, self.dcg()[extra]))
        den = np.concatenate((idcg_b, self.idcg_at(M, icum)[extra]))
        keep = den > 0.0
        order = np.argsort(all_topic[keep], kind="stable")
        t_k = all_topic[keep][order]
        vals = (num[keep] / den[keep])[order]
        starts = np.searchsorted(t_k, np.arange(T + 1)).astype(np.int64)
        total = seg_sum(vals, starts)
        count = np.diff(starts)
        with np.errstate(divide="ignore", invalid="ignore"):
            out = total / count
        return np.where(num_rel > 0, out, 0.0)

    def g_measure(self) -> np.ndarray:
        """trec_eval's G: Σ over results with a gain of gain(i) / log2(2 + C(i) − S(i)), C the running
        cost (the ideal gain at the same rank when >= 1, else 1), S the running gain, over Σ ideal."""
        rows, rank, sub = self._gain_rows()  # (each term computed at the rows it is added for)
        s = seg_cumsum(self.gain[rows], sub)  # (a row with gain 0 adds 0.0: the running gain there)
        c = self._g_cost(rows, rank)
        with np.errstate(divide="ignore", invalid="ignore"):
            terms = self.gain[rows] / c_log2(2 + c - s)
        results_g = seg_sum(terms, sub)
        sum_ideal = seg_sum(self.ideal, self.istart)
        return np.divide(results_g, sum_ideal, out=np.zeros(results_g.shape), where=sum_ideal > 0)

    def _g_cost(self, rows: np.ndarray, rank: np.ndarray) -> np.ndarray:
        """G's running cost C through each of ROWS (their RANKS).  Within a topic's ideal list the costs
        are the list's own, so C is their running sum there; beyond it each result costs 1, which,
        when every ideal gain is an integer, adds exactly: C(i) = C(M) + (i − M).  Otherwise the costs
        of every row are added left to right, as trec_eval adds them."""
        ideal, istart, M = self.ideal, self.istart, self.M
        icost = np.where(ideal >= 1.0, ideal, 1.0)
        if ideal.size and not (bool(np.all(ideal == np.trunc(ideal))) and float(icost.sum()) < 2.0**52):
            topic = self.r.topic
            i = self.rank - 1
            inside = i < M[topic]
            ig = np.where(inside, ideal[np.clip(istart[:-1][topic] + i, 0, ideal.size - 1)], 0.0)
            return seg_cumsum(np.where(inside & (ig >= 1.0), ig, 1.0), self.start)[rows]
        t = segment_of(self.start, rows)
        m = M[t]
        icum = seg_cumsum(icost, istart)
        c = np.empty(rows.size)
        inside = rank <= m
        c[inside] = icum[istart[t[inside]] + rank[inside] - 1]
        beyond = ~inside  # the list's last running cost (0 for an empty list) and one per rank after it
        last = np.where(m[beyond] > 0, icum[np.maximum(istart[t[beyond]] + m[beyond] - 1, 0)] if icum.size else 0.0,
                        0.0)
        c[beyond] = last + (rank[beyond] - m[beyond]).astype(np.float64)
        return c

    def rbp(self, p: float) -> np.ndarray:
        pw = powers(p, int(self.length.max()) if self.length.size else 0)
        rows, rank, sub = self._gain_rows()  # (the terms of the rows with a gain, the others add nothing)
        return (1.0 - p) * seg_sum(self.gain[rows] * pw[rank - 1], sub)


def default_ideal(ranking: Ranking, levels: Levels) -> tuple[np.ndarray, np.ndarray]:
    """No gain given: each topic's ideal list is its (source's) positive levels, decreasing, each as
    often as judged (trec_eval's sort is exact on distinct integers): (starts, gains), cached."""
    c = ranking.table.cache
    key = ("default_ideal", levels.key)
    got = c.get(key)
    if got is not None:
        return got
    T = ranking.table.size
    src = levels.source
    pos = levels.level > 0
    lt, lv, lc = levels.topic[pos], levels.level[pos], levels.count[pos]
    per_src_start = np.searchsorted(lt, np.arange(T + 1))
    valid = src >= 0
    s = np.where(valid, src, 0)
    a = np.where(valid, per_src_start[s], 0)
    b = np.where(valid, per_src_start[s + 1], 0)
    n_entries = b - a
    within = np.arange(int(n_entries.sum())) - np.repeat(np.cumsum(n_entries) - n_entries, n_entries)
    idx = np.repeat(b, n_entries) - 1 - within  # the source's levels from the highest down
    reps = lc[idx]
    ideal = np.repeat(lv[idx].astype(np.float64), reps)
    sizes = np.bincount(np.repeat(np.arange(T), n_entries), weights=reps, minlength=T).astype(np.int64)
    got = c[key] = (np.concatenate(([0], np.cumsum(sizes))).astype(np.int64), ideal)
    return got


def ndcg_cut(plain: GainState, k: int) -> np.ndarray:
    """trec_eval's ``ndcg_cut_k``: the judgement as gain (> 0, whatever ``-l``), cut at rank k on both
    sides: DCG(min(k, L)) / IDCG(min(k, M)), or the DCG itself when that IDCG is 0.  PLAIN: the
    state of the default gains (a level's gain is the level: the same gains and ideal list)."""
    dcg = plain.dcg_at(k)
    idcg = plain.idcg_at(np.full(dcg.size, k))
    return np.divide(dcg, idcg, out=dcg.copy(), where=idcg > 0)


def rbp_resid(ranking: Ranking, p: float) -> np.ndarray:
    """trec_eval's ``rbp_resid``: p^L + (1 − p)·Σ over results coded < 0 of p^i."""
    length = ranking.length
    pw = powers(p, int(length.max()) if length.size else 0)
    unj = ranking.rel < 0
    if p > 0:  # every p^i >= +0.0: adding 0.0 for the other rows leaves each sum as it is (x + 0.0 == x)
        s = seg_sum(np.where(unj, pw[ranking.rank - 1], 0.0), ranking.start)
    else:
        s = masked_seg_sum(pw[ranking.rank - 1], unj, ranking.start)
    value = pw[length] + (1 - p) * s
    return np.where(seg_count(unj, ranking.start) > 0, value, 0.0)


__all__ = ["Levels", "GainState", "gain_entries", "sort_entries", "ndcg_cut", "rbp_resid", "count_starts"]
