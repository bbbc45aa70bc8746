"""docs/measures.md Examples 1–7 (quantisation, recall-bases, XCG with overlap off/on, Q/R).

Every expected value is the exact fraction of the example, compared at 1e-9.
"""

from __future__ import annotations

from fractions import Fraction as F

import numpy as np
import pytest

from helpers import assert_all_close, assert_close
from inexeval.errors import InputError
from inexeval.gains import OverlapIndex, gains_overlap_off, gains_overlap_on
from inexeval.measures import xcg
from inexeval.model import E_TOO_SMALL, Judgement
from inexeval.recallbase import QuantisedTopic, quantise
from t1data import EL, R1, run, t1, topic_from_rows


def measures(xg, xi, beta=1.0):
    _, gr, ep = xcg.natural_points(xg, xi)
    curve = xcg.ep_gr_curve(gr, ep)
    return dict(gr=gr, ep=ep, curve=curve, MAep=xcg.maep(ep, len(xi)), iMAep=curve.mean(),
                Q=xcg.q_measure(xg, xi, beta), R=xcg.r_measure(xg, xi, beta))


# ---------------------------------------------------------------- Example 1
@pytest.mark.parametrize("e,size,rsize,strict,gen,lifted", [
    (2, 2000, 700, 0, F(7, 10), F(21, 20)),  # A: s = 7/20, gen 2*7/20, genLifted 3*7/20
    (2, 600, 200, 0, F(2, 3), 1),  # S2: gen 2*1/3
    (E_TOO_SMALL, 100, 100, 0, 0, 1),  # P4: '?' -> gen 0, genLifted (0+1)*1
    (2, 100, 99, 0, F(99, 50), F(297, 100)),
    (1, 200, 50, 0, F(1, 4), F(1, 2)),
    (E_TOO_SMALL, 30, 30, 0, 0, 1),
    (0, 30, 30, 0, 0, 0),  # explicit 0
    (2, 0, 0, 0, 0, 0),  # size 0: s = 0/0 = 0
    (2, 400, 400, 1, 2, 3),  # S1: strict needs rsize = size
])
def test_example1_quantisation(e, size, rsize, strict, gen, lifted):
    j = Judgement("/a[1]", e, size, rsize)
    assert_close(quantise("strict", j), strict, "strict")
    assert_close(quantise("gen", j), gen, "gen")
    assert_close(quantise("genLifted", j), lifted, "genLifted")


def test_example1_unknown_exhaustivity():
    j = Judgement("/a[1]", None, 200, 50)
    assert_close(quantise("gen", j), F(1, 4), "gen of unknown e is s")
    for name in ("strict", "genLifted"):
        with pytest.raises(InputError):
            quantise(name, j)


# ---------------------------------------------------------------- Example 2
def test_example2_ideal_gen_tie_shallowest():
    qt = QuantisedTopic(t1(), "gen")
    # P1's path: A 7/10, S1 2, P1 2 -> tie, the shallowest S1; P2 -> S1; P3 -> P3; S3; B1 (1 > 1/5)
    assert qt.ideal == {"f1": [EL["S1"][1], EL["P3"][1], EL["S3"][1]], "f2": [EL["B1"][1]]}
    assert_all_close(qt.ideal_vector, [2, 2, 1, 1], "xI")


def test_example2_ideal_strict():
    qt = QuantisedTopic(t1(), "strict")
    assert qt.ideal == {"f1": [EL["S1"][1], EL["P3"][1]]}
    assert_all_close(qt.ideal_vector, [1, 1], "xI")


def test_example2_ideal_genlifted_final_filter():
    qt = QuantisedTopic(t1(), "genLifted")
    # picked: S1 (3), P3 (3), A (21/20 via P4), S3 (2), B1 (2); A removes S1, P3, S3
    assert qt.ideal == {"f1": [EL["A"][1]], "f2": [EL["B1"][1]]}
    assert_all_close(qt.ideal_vector, [2, F(21, 20)], "xI")


def test_example2_full_recall_base():
    qt = QuantisedTopic(t1(), "gen")
    expected = [2, 2, 2, 1, 1, 1, F(7, 10), F(2, 3), F(1, 5)]
    assert_all_close(qt.full_vector, expected, "xI")
    assert_close(qt.full_vector.sum(), F(317, 30), "G")


# ---------------------------------------------------------------- Example 3
def test_example3_overlap_off():
    qt = QuantisedTopic(t1(), "gen")
    xg, xi = gains_overlap_off(qt, run(*R1)), qt.full_vector
    assert_all_close(xg, [1, 2, F(2, 3), 2, F(7, 10), 1, 0, F(1, 5)], "xG")
    nx = xcg.nxcg(xg, xi, np.array([1, 2, 3, 4, 5, 6, 7, 8, 10]))
    assert_all_close(nx, [F(1, 2), F(3, 4), F(11, 18), F(17, 21), F(191, 240), F(221, 270),
                          F(221, 291), F(227, 311), F(227, 317)], "nxCG")
    # MAnxCG@5 = (1/2 + 3/4 + 11/18 + 17/21 + 191/240)/5
    assert_close(xcg.manxcg(xg, xi, [5])[0], F(17471, 25200), "MAnxCG@5")
    m = measures(xg, xi)
    # ep at natural points: i_ideal(g)/i
    assert_all_close(m["ep"], [F(1, 2), F(3, 4), F(11, 18), F(17, 24), F(101, 150), F(131, 180),
                               F(137, 240)], "ep")
    assert_close(m["MAep"], F(16349, 32400), "MAep = (16349/3600)/max(9, 7)")
    assert_close(m["curve"][0], F(1, 2), "ep@0.01, below the first point")
    assert_close(m["curve"][29], F(343, 480), "ep@0.30 between gr 90/317 and 110/317")
    assert_close(m["curve"][71], 0, "ep@0.72 above the last gr 227/317")
    assert_close(m["iMAep"], F(98207171, 216000000), "iMAep")
    # Q terms 2/3, 5/6, 20/27, 29/33, 341/390, 401/450, 23/29, over max(9, 7)
    assert_close(m["Q"], F(31788571, 50386050), "Q")
    # R = 9 > L = 8: (227/30 + 7)/(317/30 + 9)
    assert_close(m["R"], F(437, 587), "R")


def test_example3_nxcg_curve_ranks_integer_arithmetic():
    ranks = xcg.curve_ranks(1500)
    assert ranks[0] == 15 and ranks[1] == 30 and ranks[2] == 45
    assert ranks[6] == 105  # p = 7: 7*1500/100 = 105 exactly (floating point gives 106)
    assert ranks[-1] == 1500


# ---------------------------------------------------------------- Example 4
def test_example4_overlap_on_alpha1():
    qt = QuantisedTopic(t1(), "gen")
    xg, xi = gains_overlap_on(OverlapIndex(qt), run(*R1), 1.0), qt.ideal_vector
    # P2 near-miss 1; P1 capped at S1's remaining 1; S2 2/3 above P3; P3 fully seen 0;
    # A partially seen rv = (0*400 + 0*600 + 1*100)/2000 = 1/20; B1 1; Z 0; B 0
    assert_all_close(xg, [1, 1, F(2, 3), 0, F(1, 20), 1, 0, 0], "xG")
    nx = xcg.nxcg(xg, xi, np.array([1, 2, 3, 4, 5, 10]))
    assert_all_close(nx, [F(1, 2), F(1, 2), F(8, 15), F(4, 9), F(163, 360), F(223, 360)], "nxCG")
    assert_close(xcg.manxcg(xg, xi, [5])[0], F(35, 72), "MAnxCG@5")
    m = measures(xg, xi)
    assert_all_close(m["gr"], [F(1, 6), F(1, 3), F(4, 9), F(163, 360), F(223, 360)], "gr")
    assert_all_close(m["ep"], [F(1, 2), F(1, 2), F(4, 9), F(163, 600), F(223, 720)], "ep")
    assert_close(m["MAep"], F(2431, 6000), "MAep = (2431/1200)/max(4, 5)")
    assert_close(m["curve"][29], F(1, 2), "ep@0.30")
    assert_close(m["curve"][44], F(889, 2700), "ep@0.45 = 4/9 - (311/15)(0.45 - 4/9)")
    assert_close(m["curve"][61], 0, "ep@0.62")
    assert_close(m["iMAep"], F(1199909, 4500000), "iMAep")
    # Q terms 2/3, 2/3, 17/24, 403/660, 523/720 over max(4, 5)
    assert_close(m["Q"], F(26759, 39600), "Q")
    assert_close(m["R"], F(17, 30), "R = (8/3 + 3)/(6 + 4)")


def test_budgets_bind_descendants_and_ancestors_alpha0():
    """rv_norm caps a sub-tree at its ideal elements' budgets (α = 0, so rv = quant)."""
    qt = QuantisedTopic(t1(), "gen")
    index = OverlapIndex(qt)
    prefix = run(*R1)[:5]
    # Adding S3 after A: its budget left is 1 - 3/140 = 137/140, and rv(S3) is 0 when fully seen
    xg = gains_overlap_on(index, prefix + [EL["S3"]], 0.0)  # alpha 0: rv = quant, only budgets bind
    # alpha 0: P2 1, P1 capped 1, S2 2/3 (P3 4/3 left), P3 2 capped at 4/3 (0 left),
    # A 7/10 above S1 (0), P3 (0), S3 (1) -> 7/10 charged to S3 (3/10 left); S3 1 capped 3/10
    assert_all_close(xg, [1, 1, F(2, 3), F(4, 3), F(7, 10), F(3, 10)], "xG")


# ---------------------------------------------------------------- Example 5
def test_example5_overlap_on_alpha_half():
    qt = QuantisedTopic(t1(), "gen")
    xg, xi = gains_overlap_on(OverlapIndex(qt), run(*R1), 0.5), qt.ideal_vector
    # P3 fully seen: 1/2*2 = 1 (budget 4/3); A: rv = 1/2(11/8*400 + 1/3*600 + 100)/2000 + 1/2*7/10 = 9/16
    # B: rv = 1/2(1/2*100)/500 + 1/2*1/5 = 3/20, but above B1 whose budget is 0
    assert_all_close(xg, [1, 1, F(2, 3), 1, F(9, 16), 1, 0, 0], "xG")
    nx = xcg.nxcg(xg, xi, np.array([4, 5, 10]))
    assert_all_close(nx, [F(11, 18), F(203, 288), F(251, 288)], "nxCG")
    assert_close(xcg.manxcg(xg, xi, [5])[0], F(4103, 7200), "MAnxCG@5")
    m = measures(xg, xi)
    assert_all_close(m["ep"][3:], [F(11, 24), F(107, 240), F(155, 288)], "ep at ranks 4-6")
    assert_close(m["MAep"], F(4157, 8640), "MAep = (4157/1440)/max(4, 6)")
    assert_close(m["curve"][44], F(961, 2160), "ep@0.45")
    assert_close(m["curve"][87], 0, "ep@0.88 above the last gr 251/288")
    assert_close(m["iMAep"], F(2676011, 6400000), "iMAep")
    assert_close(m["Q"], F(145193, 190080), "Q")
    assert_close(m["R"], F(23, 30), "R = (11/3 + 4)/(6 + 4)")


# ---------------------------------------------------------------- Example 6
def test_example6_ancestor_of_two_ideal_elements():
    rows = [("ab", "/article[1]", 1, 400, 300), ("ab", "/article[1]/sec[1]", 2, 100, 100),
            ("ab", "/article[1]/sec[2]", 1, 200, 200)]
    qt = QuantisedTopic(topic_from_rows("T6", rows), "gen")
    assert qt.ideal == {"ab": ["/article[1]/sec[1]", "/article[1]/sec[2]"]}
    ranking = [("ab", "/article[1]"), ("ab", "/article[1]/sec[2]"), ("ab", "/article[1]/sec[1]")]
    xg, xi = gains_overlap_on(OverlapIndex(qt), ranking, 0.0), qt.ideal_vector
    # article 3/4 charged 1/2 to sec[1] (3/2 left), 1/4 to sec[2] (3/4 left); then capped
    assert_all_close(xg, [F(3, 4), F(3, 4), F(3, 2)], "xG")
    assert_all_close(xcg.nxcg(xg, xi, np.array([1, 2, 3])), [F(3, 8), F(1, 2), 1], "nxCG")
    m = measures(xg, xi)
    assert_all_close(m["gr"], [F(1, 4), F(1, 2), 1], "gr")
    assert_all_close(m["ep"], [F(3, 8), F(3, 8), F(2, 3)], "ep")
    assert_close(m["MAep"], F(17, 36), "MAep")
    assert_close(m["iMAep"], F(719, 1600), "iMAep")
    assert_close(m["Q"], F(137, 180), "Q = (7/12 + 7/10 + 1)/3")
    assert_close(m["R"], F(7, 10), "R = (3/2 + 2)/(3 + 2)")


# ---------------------------------------------------------------- Example 7
@pytest.mark.parametrize("beta,q,r", [(1.0, F(393, 544), F(5, 8)), (0.1, F(5397, 6448), F(37, 52))])
def test_example7_sakai_beatles(beta, q, r):
    xg = np.array([2.0, 2, 0, 3, 2])
    xi = np.array([3.0, 3, 3, 3])
    # cg = 2, 4, 4, 7, 9; cig = 3, 6, 9, 12, 12; terms at ranks 1, 2, 4, 5
    assert_close(xcg.q_measure(xg, xi, beta), q, "Q")
    assert_close(xcg.r_measure(xg, xi, beta), r, "R")
    assert round(xcg.q_measure(xg, xi, 1.0), 4) == 0.7224


# ---------------------------------------------------------------- Example 13
def test_example13_strict_undefined_gen_one():
    t2 = topic_from_rows("T2", [("x", "/article[1]", 1, 10, 5)])
    assert len(QuantisedTopic(t2, "strict").full_vector) == 0  # n = 0 -> undefined
    qt = QuantisedTopic(t2, "gen")
    xg = gains_overlap_off(qt, [("x", "/article[1]")])
    assert_close(xcg.nxcg(xg, qt.full_vector, np.array([10]))[0], 1, "nxCG@10")
    assert_close(measures(xg, qt.full_vector)["MAep"], 1, "MAep")
