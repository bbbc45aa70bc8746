"""Hand-worked examples of seeds 003 (Sakai) and 004 (classic IR evaluation), docs/measures.md Example 7."""

from __future__ import annotations

import math
from fractions import Fraction as F

import numpy as np
import pytest

from inexeval.measures.classic import compute, parse_measures
from inexeval.measures.classic_base import NOT_JUDGED, Ranking, TopicTable
from inexeval.measures.classic_graded import agr_table
from inexeval.trec import evaluate_trec

TOL = dict(rel=1e-9, abs=1e-9)


def one_topic(ideal: list[int], run_rels: list[int]) -> Ranking:
    """A single topic whose qrels levels are IDEAL and whose ranked results have levels RUN_RELS."""
    table = TopicTable(
        keys=np.array([b"1"]), names=["1"], qstart=np.array([0, len(ideal)]),
        qrel=np.array(ideal, dtype=np.int64), qdocno=np.array([f"d{i}".encode() for i in range(len(ideal))]),
        rel_level=1, num_rel=np.array([sum(1 for x in ideal if x >= 1)]),
        num_nonrel=np.array([sum(1 for x in ideal if x == 0)]),
        vocab=np.zeros(0, "S1"), qkey=np.zeros(0, np.int64),  # not used: the ranking is given
    )
    return Ranking(table, np.array([0, len(run_rels)]), np.array(run_rels, dtype=np.int64))


def values(ranking, names, **kw):
    out = compute(ranking, parse_measures(names), **kw)
    return {k: float(v[0]) for k, v in out.items()}


# --- seed 003 / docs/measures.md Example 7: the Beatles --------------------------------------------
# gains g = 2, 2, 0, 3, 2 (levels = gains); ideal 3, 3, 3, 3 so R = 4.
# cg = 2, 4, 4, 7, 9; count = 1, 2, 2, 3, 4; cig = 3, 6, 9, 12, 12.
BEATLES = one_topic([3, 3, 3, 3], [2, 2, 0, 3, 2])


def test_beatles_q_and_r_beta_1():
    # terms at ranks 1, 2, 4, 5: (2+1)/(3+1), (4+2)/(6+2), (7+3)/(12+4), (9+4)/(12+5)
    q = (F(3, 4) + F(6, 8) + F(10, 16) + F(13, 17)) / 4
    assert q == F(393, 544)
    r = F(7 + 3, 12 + 4)  # R-measure at rank R = 4
    assert r == F(5, 8)
    v = values(BEATLES, ["Q", "R"], q_beta=1.0)
    assert v["Q"] == pytest.approx(float(q), **TOL)
    assert v["R"] == pytest.approx(float(r), **TOL)


def test_beatles_q_and_r_beta_01():
    b = F(1, 10)
    terms = [(b * cg + c) / (b * cig + r) for cg, c, cig, r in [(2, 1, 3, 1), (4, 2, 6, 2), (7, 3, 12, 4), (9, 4, 12, 5)]]
    assert terms == [F(12, 13), F(12, 13), F(37, 52), F(49, 62)]
    q = sum(terms) / 4
    assert q == F(5397, 6448)
    r = (b * 7 + 3) / (b * 12 + 4)
    assert r == F(37, 52)
    v = values(BEATLES, ["Q(beta=0.1)", "R(beta=0.1)"])
    assert v["Q(beta=0.1)"] == pytest.approx(float(q), **TOL)
    assert v["R(beta=0.1)"] == pytest.approx(float(r), **TOL)
    # the same through q_beta
    v = values(BEATLES, ["Q", "R"], q_beta=0.1)
    assert v["Q"] == pytest.approx(float(q), **TOL)


def test_beatles_awp_and_r_wp():
    # AWP = (1/R) sum cg/cig at relevant ranks = (2/3 + 4/6 + 7/12 + 9/12) / 4; R-WP = cg(4)/cig(4) = 7/12
    awp = (F(2, 3) + F(4, 6) + F(7, 12) + F(9, 12)) / 4
    v = values(BEATLES, ["AWP", "R-WP"])
    assert v["AWP"] == pytest.approx(float(awp), **TOL)
    assert v["R-WP"] == pytest.approx(7 / 12, **TOL)


def test_sakai_qac1_1058():
    # S-correct (gain 3) at ranks 1 and 5, R = R(S) = 3: Q = (4/(3+1) + 8/(9+5)) / 3 = 0.524
    v = values(one_topic([3, 3, 3], [3, 0, 0, 0, 3]), ["Q"])
    want = (F(4, 4) + F(8, 14)) / 3
    assert v["Q"] == pytest.approx(float(want), **TOL)
    assert round(v["Q"], 3) == 0.524


def test_sakai_late_arrival_awp_vs_q():
    # seed 003 §2.3/§3.1: R = R(B) = 5, gain 1; one relevant document at rank 5 or at rank 1000.
    at5 = one_topic([1] * 5, [0] * 4 + [1])
    at1000 = one_topic([1] * 5, [0] * 999 + [1])
    a, b = values(at5, ["AWP", "Q"]), values(at1000, ["AWP", "Q"])
    assert a["AWP"] == pytest.approx(0.04, **TOL) and b["AWP"] == pytest.approx(0.04, **TOL)
    assert a["Q"] == pytest.approx(float(F(2, 10) / 5), **TOL)  # cbg(5)/(cig(5)+5)/5
    assert b["Q"] == pytest.approx(float(F(2, 1005) / 5), **TOL)  # 0.0004 in the seed's rounding


def test_agr_transform():
    # seed 003 eq. 20, gains 1:2:3, R(1)=2, R(2)=1, R(3)=1, R=4:
    # g'(3) = 3 - 1/4 (3 - 2) = 11/4; g'(2) = 2 - 1/4 (2 - 1) = 7/4; g'(1) = 1 - 2/4 (1 - 0) = 1/2
    adj = agr_table(np.array([[2, 1, 1]]), [1, 2, 3], {1: 1.0, 2: 2.0, 3: 3.0})
    assert adj[0].tolist() == [0.5, 1.75, 2.75]
    # not applied where R(X) = R
    assert agr_table(np.array([[0, 3, 0]]), [1, 2, 3], {1: 1.0, 2: 2.0, 3: 3.0})[0].tolist() == [1.0, 2.0, 3.0]
    # AGR = AWP with those gains: run levels 3, 1, 0, 2 -> gains 11/4, 1/2, 0, 7/4; ideal 11/4, 7/4, 1/2, 1/2
    ranking = one_topic([1, 1, 2, 3], [3, 1, 0, 2])
    cg = [F(11, 4), F(13, 4), F(13, 4), F(5)]
    cig = [F(11, 4), F(18, 4), F(20, 4), F(22, 4)]
    agr = (cg[0] / cig[0] + cg[1] / cig[1] + cg[3] / cig[3]) / 4
    v = values(ranking, ["AGR", "AWP(agr)"])
    assert v["AGR"] == pytest.approx(float(agr), **TOL)
    assert v["AWP(agr)"] == v["AGR"]


# --- seed 004: queries q1 and q2 -----------------------------------------------------------------
Q1_RANKING = "d123 d84 d56 d6 d8 d9 d511 d129 d187 d25 d38 d48 d250 d113 d3".split()
Q2_RANKING = "d425 d87 d56 d32 d124 d615 d512 d129 d4 d130 d193 d715 d810 d5 d3".split()
Q1_GRADED = {"d3": 3, "d5": 3, "d9": 3, "d25": 2, "d39": 2, "d44": 2, "d56": 1, "d71": 1, "d89": 1, "d123": 1}
Q2_GRADED = {"d3": 3, "d56": 2, "d129": 1}


@pytest.fixture
def seed004(tmp_path):
    q = tmp_path / "qrels"
    q.write_text("".join(f"{t} 0 {d} {r}\n" for t, g in (("q1", Q1_GRADED), ("q2", Q2_GRADED)) for d, r in g.items()))
    r = tmp_path / "run"
    r.write_text("".join(
        f"{t} Q0 {d} {i + 1} {100 - i} ex\n" for t, ranking in (("q1", Q1_RANKING), ("q2", Q2_RANKING))
        for i, d in enumerate(ranking)
    ))
    return q, r


def test_seed004_precision_recall_map(seed004):
    names = ["P_5", "P_10", "map", "Rprec", "recall_15", "iprec_at_recall_0.00", "recip_rank", "MRR@2", "MRR@3"]
    (res,), _ = evaluate_trec(*seed004[:1], [seed004[1]], measures=names, warn=lambda m: None)
    q1, q2 = res.per_topic["q1"], res.per_topic["q2"]
    # q1: relevant at ranks 1, 3, 6, 10, 15 of R = 10
    assert q1["P_5"] == pytest.approx(0.4, **TOL) and q1["P_10"] == pytest.approx(0.4, **TOL)
    map1 = (F(1, 1) + F(2, 3) + F(3, 6) + F(4, 10) + F(5, 15)) / 10
    assert map1 == F(29, 100)
    # the seed's "MAP1 = 0.28": its sum of precisions already truncated to 0.66 and 0.33,
    # (1 + 0.66 + 0.5 + 0.4 + 0.33)/10 = 0.289, printed truncated to two decimals
    seed_sum = F(1) + F(66, 100) + F(5, 10) + F(4, 10) + F(33, 100)
    assert int(seed_sum / 10 * 100) / 100 == 0.28
    assert q1["map"] == pytest.approx(float(map1), **TOL)
    assert q1["Rprec"] == pytest.approx(0.4, **TOL)  # 4 relevant among the top R = 10
    assert q1["recall_15"] == pytest.approx(0.5, **TOL)
    # q2: relevant at ranks 3, 8, 15 of R = 3: precision 1/3, 2/8, 3/15 at recall 1/3, 2/3, 1
    map2 = (F(1, 3) + F(2, 8) + F(3, 15)) / 3
    assert q2["map"] == pytest.approx(float(map2), **TOL)
    assert q2["iprec_at_recall_0.00"] == pytest.approx(1 / 3, **TOL)
    assert q2["recall_15"] == pytest.approx(1.0, **TOL)
    # MRR (seed 004, threshold S_h): q1 first relevant at 1, q2 at 3
    assert (q1["MRR@2"], q2["MRR@2"]) == (1.0, 0.0)
    assert q2["MRR@3"] == pytest.approx(1 / 3, **TOL)
    assert res.average["recip_rank"] == pytest.approx((1 + 1 / 3) / 2, **TOL)


def test_seed004_e_and_f(seed004):
    (res,), _ = evaluate_trec(seed004[0], [seed004[1]], measures=["F@10", "E@10", "F@15(b=2)", "E@15(b=2)"],
                              warn=lambda m: None)
    q1 = res.per_topic["q1"]
    # k = 10: P = 4/10, r = 4/10 -> F = 0.4, E = 0.6
    assert q1["F@10"] == pytest.approx(0.4, **TOL) and q1["E@10"] == pytest.approx(0.6, **TOL)
    # k = 15, b = 2: P = 1/3, r = 1/2; E = 1 - (1 + 4) / (4/r + 1/P) = 1 - 5/11
    e = 1 - F(5) / (4 / F(1, 2) + 1 / F(1, 3))
    assert q1["E@15(b=2)"] == pytest.approx(float(e), **TOL)
    assert q1["F@15(b=2)"] == pytest.approx(float(1 - e), **TOL)


# The seed's vectors, printed with one decimal.
CG1 = [1, 1, 2, 2, 2, 5, 5, 5, 5, 7, 7, 7, 7, 7, 10]
CG2 = [0, 0, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 6]
DCG1 = [1.0, 1.0, 1.6, 1.6, 1.6, 2.8, 2.8, 2.8, 2.8, 3.4, 3.4, 3.4, 3.4, 3.4, 4.2]
DCG2 = [0.0, 0.0, 1.3, 1.3, 1.3, 1.3, 1.3, 1.6, 1.6, 1.6, 1.6, 1.6, 1.6, 1.6, 2.4]
IDCG1 = [3.0, 6.0, 7.9, 8.9, 9.8, 10.5, 10.9, 11.2, 11.5, 11.8, 11.8, 11.8, 11.8, 11.8, 11.8]
IDCG2 = [3.0, 5.0, 5.6, 5.6, 5.6, 5.6, 5.6, 5.6, 5.6, 5.6, 5.6, 5.6, 5.6, 5.6, 5.6]
CG_AVG = [0.5, 0.5, 2.0, 2.0, 2.0, 3.5, 3.5, 4.0, 4.0, 5.0, 5.0, 5.0, 5.0, 5.0, 8.0]


def test_seed004_cg_and_dcg_vectors(seed004):
    names = [f"CG@{k}" for k in range(1, 16)] + [f"DCG_JK@{k}" for k in range(1, 16)] + [f"nDCG_JK@{k}" for k in range(1, 16)]
    (res,), _ = evaluate_trec(seed004[0], [seed004[1]], measures=names, warn=lambda m: None)
    q1, q2 = res.per_topic["q1"], res.per_topic["q2"]
    assert [q1[f"CG@{k}"] for k in range(1, 16)] == CG1
    assert [q2[f"CG@{k}"] for k in range(1, 16)] == CG2
    assert [res.average[f"CG@{k}"] for k in range(1, 16)] == CG_AVG
    # exact DCG, e.g. DCG1[15] = 1 + 1/log2 3 + 3/log2 6 + 2/log2 10 + 3/log2 15
    exact = 1 + 1 / math.log2(3) + 3 / math.log2(6) + 2 / math.log2(10) + 3 / math.log2(15)
    assert q1["DCG_JK@15"] == pytest.approx(exact, **TOL)
    assert [round(q1[f"DCG_JK@{k}"], 1) for k in range(1, 16)] == DCG1
    assert [round(q2[f"DCG_JK@{k}"], 1) for k in range(1, 16)] == DCG2
    # nDCG_JK = DCG / IDCG; recover the ideal vectors the seed prints
    idcg1 = [q1[f"DCG_JK@{k}"] / q1[f"nDCG_JK@{k}"] for k in range(1, 16)]
    idcg2 = [q2[f"DCG_JK@{k}"] / q2[f"nDCG_JK@{k}"] for k in range(3, 16)]
    assert [round(x, 1) for x in idcg1] == IDCG1
    assert [round(x, 1) for x in idcg2] == IDCG2[2:]
    # ideal 3, 3, 3, 2, ...: IDCG1[3] = 3 + 3 + 3/log2 3
    assert idcg1[2] == pytest.approx(6 + 3 / math.log2(3), **TOL)


def test_dcg_log_base():
    # base 3: ranks 1 and 2 undiscounted, rank 3 divided by log3(3) = 1, rank 9 by 2
    ranking = one_topic([1] * 9, [1] * 9)
    v = values(ranking, ["DCG_JK@9(b=3)", "nDCG_JK@9(b=3)", "DCG_JK@9"])
    want = 2 + sum(1 / (math.log(i) / math.log(3)) for i in range(3, 10))
    assert v["DCG_JK@9(b=3)"] == pytest.approx(want, **TOL)
    assert v["nDCG_JK@9(b=3)"] == pytest.approx(1.0, **TOL)
    assert v["DCG_JK@9"] == pytest.approx(2 + sum(1 / math.log2(i) for i in range(3, 10)), **TOL)


def test_unjudged_results_gain_nothing():
    v = values(one_topic([2, 1], [NOT_JUDGED, 2, NOT_JUDGED, 1]), ["CG@4", "Q"])
    assert v["CG@4"] == 3.0
    # Q: rank 2 (1*2 + 1)/(1*3 + 2) = 3/5; rank 4 (3 + 2)/(3 + 4) = 5/7; / R = 2
    assert v["Q"] == pytest.approx(float((F(3, 5) + F(5, 7)) / 2), **TOL)


def test_seed004_dcg_ideal_dcg_and_yaap(seed004):
    """trec_eval 10.0's dcg, ideal_dcg and yaap on q1 (docs/measures.md §8.2): relevant at ranks 1, 3,
    6, 10, 15 with levels 1, 1, 3, 2, 3 (gain = level, discount log2(rank + 1));
    dcg = 1/log2 2 + 1/log2 4 + 3/log2 7 + 2/log2 11 + 3/log2 16 = 1 + 0.5 + 1.06862 + 0.57813 + 0.75;
    the ideal list is the qrels' levels decreasing, 3 3 3 2 2 2 1 1 1 1:
    ideal_dcg = 3/log2 2 + 3/log2 3 + 3/log2 4 + 2/log2 5 + 2/log2 6 + 2/log2 7 + 1/log2 8 + … + 1/log2 11;
    yaap = log((1 + s) / (1 + R − s)) with s = 1 + 2/3 + 3/6 + 4/10 + 5/15 = 2.9, R = 10."""
    (res,), _ = evaluate_trec(seed004[0], [seed004[1]], measures=["dcg", "ideal_dcg", "yaap", "ndcg"],
                              warn=lambda m: None)
    q1 = res.per_topic["q1"]
    dcg = 1 / math.log2(2) + 1 / math.log2(4) + 3 / math.log2(7) + 2 / math.log2(11) + 3 / math.log2(16)
    assert dcg == pytest.approx(1 + 0.5 + 1.068621 + 0.578130 + 0.75, abs=1e-6)
    ideal = [3, 3, 3, 2, 2, 2, 1, 1, 1, 1]
    idcg = sum(g / math.log2(j + 2) for j, g in enumerate(ideal))
    assert (q1["dcg"], q1["ideal_dcg"]) == (pytest.approx(dcg, **TOL), pytest.approx(idcg, **TOL))
    assert q1["ndcg"] == pytest.approx(dcg / idcg, **TOL)
    s = 1 + 2 / 3 + 3 / 6 + 4 / 10 + 5 / 15
    assert q1["yaap"] == pytest.approx(math.log((1 + s) / (1 + 10 - s)), **TOL) == pytest.approx(math.log(3.9 / 8.1))


def test_fractional_gains_sort_as_trec_eval_sorts_them():
    """ndcg_1=0.5,2=2.25 on a topic judged 0 and 1: trec_eval's entries are (level 1, 0.5) from the
    parameter, (level 2, 2.25) likewise, then level 0 (gain 0); its comparison truncates gain
    differences to integers, so 0.5 − 0 = 0 is 'equal' and the stable merge sort leaves level 1
    before level 0: sorted 1 (0.5), 0 (0), 2 (2.25).  The ideal list runs from the last entry: level 2
    has no judgement, level 0 has one and gain 0, so it stops there, empty: ndcg = 0, ideal_dcg = 0,
    although the ranking holds the one relevant document."""
    from inexeval.measures.classic_trec_gains import gain_entries, sort_entries

    assert [e[:2] for e in gain_entries((("1", 0.5), ("2", 2.25)), 2)] == [(1, 0.5), (0, 0.0), (2, 2.25)]
    # merge sort of 3.0 | 0.5, 2.9: the right half sorts to 0.5, 2.9 (0.5 − 2.9 → −2); merging, 3.0 − 0.5 → 2
    # takes 0.5, then 3.0 − 2.9 → 0 ('equal') takes 3.0 first: 0.5, 3.0, 2.9
    assert [e[1] for e in sort_entries([(0, 3.0, 0), (1, 0.5, 1), (2, 2.9, 2)])] == [0.5, 3.0, 2.9]
    ranking = one_topic([0, 1], [1])
    got = values(ranking, ["ndcg_1=0.5,2=2.25", "dcg_1=0.5,2=2.25", "ideal_dcg_1=0.5,2=2.25"])
    assert got == {"ndcg_1=0.5,2=2.25": 0.0, "dcg_1=0.5,2=2.25": 0.5, "ideal_dcg_1=0.5,2=2.25": 0.0}
