"""The classic kernels that add their terms at the rows that count only (issue 35: map_cut, map,
bpref, infAP, binG, DCG through any rank (ndcg, ndcg_cut, Rndcg), ndcg_rel, G, rbp, rbp_resid) against the straightforward formulas: each term computed
at every row and the masked rows summed left to right (classic_base.masked_seg_sum), as trec_eval's
loops add them.  Equal bit for bit (x + 0.0 == x; the same elementwise operations), on random
rankings of every shape: graded and negative judgements, unjudged results, empty topics, given
gains, several relevance levels."""

from __future__ import annotations

import random

import numpy as np
import pytest

from inexeval.measures.classic import Kernels
from inexeval.measures.classic_base import (
    JUDGED_NEGATIVE, NOT_JUDGED, at_rank, c_log2, log2_int, masked_seg_sum, powers, seg_cumsum, seg_sum,
)
from inexeval.measures.classic_join import read_ranked_run, topic_table
from inexeval.measures.classic_trec import INFAP_EPSILON
from inexeval.measures.classic_trec_gains import rbp_resid
from inexeval.readers.trec import read_qrels
import trecgen


def _ranking(tmp_path, seed: int):
    rng = random.Random(seed)
    case = trecgen.qrels_and_run(rng, n_topics=rng.randint(1, 12), long_runs=0.3)
    (tmp_path / "q").write_text(case.qrels)
    (tmp_path / "r").write_text(case.run)
    table = topic_table(read_qrels(tmp_path / "q"), rel_level=rng.choice([1, 1, 2, 0]))
    return read_ranked_run(tmp_path / "r", table).ranking, rng


def _same(a, b) -> bool:
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    return a.shape == b.shape and a.tobytes() == b.tobytes()


def _reference_trec(k):
    t = k.trec
    rel, start, rank, count = t.r.rel, t.start, t.rank, t.count
    terms = np.where(t.isrel, count / rank, 0.0)
    ap_sum = masked_seg_sum(terms, t.isrel, start)
    counted = (rel != NOT_JUDGED) & (rel != JUDGED_NEGATIVE)
    nonrel = counted & (rel >= 0) & (rel < t.level)
    relrow = counted & ~nonrel
    n = seg_cumsum(nonrel.astype(np.int64), start)
    topic = t.r.topic
    R = t.num_rel[topic]
    denom = np.minimum(t.r.table.num_nonrel, t.num_rel)[topic].astype(np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        bterm = np.where(n > 0, 1.0 - np.minimum(n, R).astype(np.float64) / denom, 1.0)
        r = seg_cumsum(relrow.astype(np.int64), start)
        u = seg_cumsum((rel == JUDGED_NEGATIVE).astype(np.int64), start)
        fj = (rank - 1).astype(np.float64)
        later = 1.0 / (fj + 1.0) + (fj / (fj + 1.0)) * ((r - 1 + n + u) / fj) * (
            ((r - 1) + INFAP_EPSILON) / ((r - 1 + n) + 2 * INFAP_EPSILON))
    iterm = np.where(rank == 1, 1.0, later)
    gterm = np.where(t.isrel, 1.0 / log2_int(np.maximum(rank + 2 - count, 1)), 0.0)
    return {"ap_sum": ap_sum, "bpref": t.div_rel(masked_seg_sum(bterm, relrow, start)),
            "infap": t.div_rel(masked_seg_sum(iterm, relrow, start)),
            "bin_g_sum": masked_seg_sum(gterm, t.isrel, start)}


def _reference_gains(g):
    M, topic, start = g.M, g.r.topic, g.start
    dcg, icum = seg_cumsum(g.dcg_terms(), start), g.idcg_cum()
    upto = np.minimum(g.rank, M[topic])
    idx = g.istart[:-1][topic] + upto - 1
    ihere = np.where(upto > 0, icum[np.clip(idx, 0, max(icum.size - 1, 0))] if icum.size else 0.0, 0.0)
    i = g.rank - 1
    inside = i < M[topic]
    ig = np.where(inside, g.ideal[np.clip(g.istart[:-1][topic] + i, 0, max(g.ideal.size - 1, 0))]
                  if g.ideal.size else 0.0, 0.0)
    s = seg_cumsum(g.gain, start)
    c = seg_cumsum(np.where(inside & (ig >= 1.0), ig, 1.0), start)
    with np.errstate(divide="ignore", invalid="ignore"):
        rel_sum = masked_seg_sum(dcg / ihere, g.gain > 0, start)
        g_sum = masked_seg_sum(g.gain / c_log2(2 + c - s), g.gain != 0, start)
    return rel_sum, g_sum


@pytest.mark.parametrize("seed", range(60))
def test_sums_over_the_rows_that_count_are_the_full_formulas(tmp_path, seed):
    ranking, rng = _ranking(tmp_path, seed)
    k = Kernels(ranking, None, 1.0)
    want = _reference_trec(k)
    t = k.trec
    assert _same(t.ap_sum(), want["ap_sum"]) and _same(t.bpref(), want["bpref"]) and _same(t.infap(), want["infap"])
    found = t.count[np.maximum(t.start[1:] - 1, 0)] > 0 if t.count.size else np.zeros(t.length.size, bool)
    with np.errstate(divide="ignore", invalid="ignore"):
        bin_g = np.where((t.length > 0) & found, want["bin_g_sum"] / t.num_rel, 0.0)
    assert _same(t.bin_g(), bin_g)
    for pairs, rescale in (((), False), ((("1", 3.0), ("2", 0.5)), False), ((("0", 1.0), ("3", 7.25)), True)):
        g = k.gain_state(pairs, rescale)
        rel_sum, g_sum = _reference_gains(g)
        full = seg_cumsum(g.dcg_terms(), g.start)  # DCG through every row
        for cut in range(-1, int(ranking.length.max(initial=0)) + 2):
            assert _same(g.dcg_at(cut), at_rank(full, g.start, cut))
        topics = np.array([rng.randrange(ranking.length.size) for _ in range(20)], dtype=np.int64)
        cuts = np.array([rng.randrange(-1, 40) for _ in range(20)], dtype=np.int64)
        assert _same(g.dcg_at(cuts, topics),
                     [at_rank(full, g.start, int(c))[t] for t, c in zip(topics.tolist(), cuts.tolist())])
        M = g.M
        dcg_l = g.dcg()
        idcg_m = g.idcg_at(M)
        nrr = np.diff(np.concatenate(([0], np.cumsum(g.gain > 0)))[g.start])
        with np.errstate(divide="ignore", invalid="ignore"):
            total = rel_sum + (M - nrr).astype(np.float64) * dcg_l / idcg_m
            assert _same(g.ndcg_rel(), np.where(total > 0.0, total / M, 0.0))
        for p in (0.8, 0.5, 1e-3):
            pw = powers(p, int(ranking.length.max()) if ranking.length.size else 0)
            want_rbp = (1.0 - p) * masked_seg_sum(g.gain * pw[g.rank - 1], g.gain != 0, g.start)
            assert _same(g.rbp(p), want_rbp)
        sum_ideal = seg_sum(g.ideal, g.istart)
        assert _same(g.g_measure(), np.divide(g_sum, sum_ideal, out=np.zeros(g_sum.shape), where=sum_ideal > 0))
    for p in (0.95, 0.5, rng.random(), 1e-3):
        pw = powers(p, int(ranking.length.max()) if ranking.length.size else 0)
        unj = ranking.rel < 0
        s = masked_seg_sum(pw[ranking.rank - 1], unj, ranking.start)
        counts = np.diff(np.concatenate(([0], np.cumsum(unj)))[ranking.start])
        assert _same(rbp_resid(ranking, p), np.where(counts > 0, pw[ranking.length] + (1 - p) * s, 0.0))


@pytest.mark.parametrize("seed", range(30))
def test_given_gains_are_looked_up_row_by_row(tmp_path, seed):
    """GainState's gains (given, rescaled for rbp, some naming the codes -1 and -2 of unjudged and
    negatively judged results, some 0 or negative) are set only at the rows whose code has a gain
    != 0: the same as trec_eval's get_gain at every row, the first entry of the row's level among
    its topic's sorted entries (classic_trec_gains.gain_entries), 0 without one."""
    from inexeval.measures.classic_trec_gains import gain_entries

    ranking, _ = _ranking(tmp_path, seed)
    k = Kernels(ranking, None, 1.0)
    cases = [((("1", 3.0), ("2", 0.5)), False), ((("0", 1.0), ("3", 7.25)), True), ((), True),
             ((("-1", 2.0), ("1", 1.0)), False), ((("-2", -4.0), ("2", 9.0)), True), ((("1", 0.0),), False),
             ((("0", -3.0),), True)]
    for pairs, rescale in cases:
        g = k.gain_state(pairs, rescale)
        want = []
        for topic, rel in zip(ranking.topic.tolist(), ranking.rel.tolist()):
            entries = gain_entries(pairs, int(k.levels.num_levels[topic]))
            if rescale:
                lo, hi = min([0.0] + [e[1] for e in entries]), max([0.0] + [e[1] for e in entries])
                if lo < 0 or hi > 1:
                    entries = [(lv, (x - lo) / (hi - lo), s) for lv, x, s in entries]
            want.append(next((x for lv, x, _ in entries if lv == rel), 0.0))
        assert _same(g.gain, want), (pairs, rescale)


@pytest.mark.parametrize("seed", range(40))
def test_the_walk_over_eleven_levels_gives_each_level_its_own_walk(tmp_path, seed):
    """iprec_at_recall at trec_eval's eleven levels comes from one walk over all of them (shared with
    11pt_avg): the same, bit for bit, as the walk with each cut-off alone (the single-level walk
    checked against trec_eval's outputs), on rankings of every shape and both versions' cut-offs."""
    from inexeval.measures.classic_trec import ELEVEN_LEVELS

    ranking, _ = _ranking(tmp_path, seed)
    for version in ("10.0", "9.0.8"):
        k = Kernels(ranking, None, 1.0, version)
        t = k.trec
        if t.level < 0:
            continue
        for x in ELEVEN_LEVELS:
            assert _same(t.iprec_at_recall(x), t._walk((x,))[0]), (version, x)
        total = np.zeros(ranking.length.size)
        for x in reversed(ELEVEN_LEVELS):
            total = total + t._walk((x,))[0]
        assert _same(t.eleven_pt_avg(ELEVEN_LEVELS), total / 11)
