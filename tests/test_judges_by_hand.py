"""docs/measures.md §13's worked example, figure by figure, with exact fractions: Cohen's κ (unweighted,
linear, quadratic), Krippendorff's α (ordinal, nominal, interval), bias and limits of agreement, and
τ_AP against τ-b; then the conventions of undefined values and ties."""

from __future__ import annotations

import math
from fractions import Fraction as F

import numpy as np
import pytest

from inexeval.assessments import labels as L
from inexeval.assessments.run_rankings import ranking_figures, top_k
from inexeval.assessments.tau_ap import tau_ap, tau_ap_b

# ten documents, grades 0-2: A and B agree on seven
A = np.array([0, 0, 0, 1, 1, 1, 2, 2, 2, 0])
B = np.array([0, 0, 1, 1, 1, 2, 2, 2, 1, 0])
VALUES = np.array([0, 1, 2])


def _c():
    return L.confusion(A, B, 3)


def test_confusion_matrix():
    assert _c().tolist() == [[3, 1, 0], [0, 2, 1], [0, 1, 2]]


def test_cohen_kappa_unweighted_and_weighted():
    # p_o = 7/10; rows (4, 3, 3), columns (3, 4, 3): p_e = (12 + 12 + 9)/100 = 33/100
    # kappa = (70/100 - 33/100) / (67/100) = 37/67
    assert L.kappa(_c()) == pytest.approx(float(F(37, 67)), abs=1e-15)
    # E = r c^T / 10; linear: sum w C = 3 (three cells one grade apart); sum w E = 1 * (1.6 + 0.9 + 0.9 + 1.2)
    # + 2 * (1.2 + 0.9) = 8.8; kappa_lin = 1 - 3/8.8 = 29/44
    assert L.weighted_kappa(_c(), VALUES, 1) == pytest.approx(float(F(29, 44)), abs=1e-15)
    # quadratic: sum w E = 4.6 + 4 * 2.1 = 13; kappa_quad = 1 - 3/13 = 10/13
    assert L.weighted_kappa(_c(), VALUES, 2) == pytest.approx(float(F(10, 13)), abs=1e-15)


def test_krippendorff_alpha():
    # o = C + C^T = [[6, 1, 0], [1, 4, 2], [0, 2, 4]], n_c = (7, 7, 6), n = 20
    o = _c() + _c().T
    assert o.tolist() == [[6, 1, 0], [1, 4, 2], [0, 2, 4]]
    # ordinal: d(0,1) = (14 - 7)^2 = 49, d(1,2) = (13 - 6.5)^2 = 42.25, d(0,2) = (20 - 6.5)^2 = 182.25
    # sum o d = 2 (1 * 49 + 2 * 42.25) = 267; sum n_c n_k d = 2 (49 * 49 + 42 * 182.25 + 42 * 42.25) = 23660
    # alpha = 1 - 19 * 267 / 23660 = 18587/23660
    assert L.alpha_from_coincidences(o, VALUES, "ordinal") == pytest.approx(float(F(18587, 23660)), abs=1e-15)
    # nominal: sum o d = 6 (off-diagonal), sum n_c n_k d = 400 - (49 + 49 + 36) = 266: 1 - 19 * 6/266 = 4/7
    assert L.alpha_from_coincidences(o, VALUES, "nominal") == pytest.approx(4 / 7, abs=1e-15)
    # interval: sum o d = 6 * 1; sum n_c n_k d = 2 (49 * 1 + 42 * 1 + 42 * 4) = 518: 1 - 114/518 = 202/259
    assert L.alpha_from_coincidences(o, VALUES, "interval") == pytest.approx(float(F(202, 259)), abs=1e-15)


def test_bias_and_limits_of_agreement():
    # d = B - A: 0 0 1 0 0 1 0 0 -1 0: mean 1/10; s^2 = (3 - 10 * 0.01) / 9 = 2.9/9
    bias, low, high = L.bias_limits(_c(), VALUES)
    s = math.sqrt(2.9 / 9)
    assert bias == pytest.approx(0.1) and low == pytest.approx(0.1 - 1.96 * s) and high == pytest.approx(0.1 + 1.96 * s)


def test_binary_view():
    # relevant from grade 1: A {4..9}, B {3..9}: tp 6, fp 1 (doc 3), fn 0
    f = L.pair_figures(_c(), VALUES, VALUES >= 1)
    assert (f["precision"], f["recall"], f["jaccard"]) == (pytest.approx(6 / 7), 1.0, pytest.approx(6 / 7))
    assert f["f1"] == pytest.approx(12 / 13)
    assert L.collapse(_c(), VALUES >= 1).tolist() == [[3, 1], [0, 6]]


def test_tau_ap_of_the_worked_example():
    """A ranks r1 > r2 > r3 > r4 > r5, B r2 > r1 > r3 > r5 > r4: one swap at the top, one at the bottom.
    In B's order: r1 (1 above, 0 right), r3 (2/2), r5 (3/3), r4 (3/4): tau_AP = 2/4 * 2.75 - 1 = 0.375;
    tau-b = (8 - 2)/10 = 0.6: the swap at the top costs tau_AP more."""
    x = [0.5, 0.4, 0.3, 0.2, 0.1]
    y = [0.40, 0.45, 0.35, 0.20, 0.25]
    assert tau_ap(x, y) == pytest.approx(0.375) and tau_ap(y, x) == pytest.approx(0.375)
    assert tau_ap_b(x, y) == pytest.approx(0.375)
    f = ranking_figures(["r1", "r2", "r3", "r4", "r5"], x, y, top=2)
    assert f["tau_b"] == pytest.approx(0.6)
    assert f["tau_top_k"] == pytest.approx(-1.0)  # r1 and r2 swapped
    assert f["max_rank_change"] == 1.0 and f["max_rank_change_run"] == "r1"
    # no rank changes: no run is named (it named the first run, r1, for a change of 0)
    f = ranking_figures(["r1", "r2", "r3"], [0.5, 0.4, 0.3], [0.6, 0.2, 0.1], top=2)
    assert f["max_rank_change"] == 0.0 and f["max_rank_change_run"] is None


def test_tau_ap_asymmetric_and_tie_aware():
    # y ranks the worst run of x first: x's order 1 2 3 4; y's 4 1 2 3
    x, y = [4.0, 3.0, 2.0, 1.0], [3.0, 2.0, 1.0, 4.0]
    # in y's order: run1 (above: run4, wrong: 0/1), run2 (1/2), run3 (2/3): 2/3 (0 + 1/2 + 2/3) - 1 = -2/9
    assert tau_ap(x, y) == pytest.approx(-2 / 9)
    # in x's order: run2 (run1 above it in y too: 1/1), run3 (2/2), run4 (0/3): 2/3 (2) - 1 = 1/3
    assert tau_ap(y, x) == pytest.approx(1 / 3)
    assert tau_ap_b(x, y) == pytest.approx((-2 / 9 + 1 / 3) / 2)
    # ties: y ties runs 1 and 2 on top: p = (0, 0, 2, 3); run3: 2 above, both above in x: 2/2; run4: 3/3: tau 1
    assert tau_ap([4.0, 3.0, 2.0, 1.0], [5.0, 5.0, 2.0, 1.0]) == 1.0
    assert math.isnan(tau_ap([1.0, 2.0], [3.0, 3.0])) and math.isnan(tau_ap([1.0], [1.0]))


def test_undefined_values():
    one = L.confusion(np.array([0, 0]), np.array([0, 0]), 2)
    assert L.kappa(one) is None and L.weighted_kappa(one, [0, 1], 1) is None
    assert L.alpha_from_coincidences(one + one.T, [0, 1], "ordinal") is None
    f = L.pair_figures(one, np.array([0, 1]), np.array([False, True]))
    assert f["precision"] is None and f["f1"] is None and f["agreement"] == 1.0
    empty = np.zeros((2, 2), dtype=np.int64)
    assert L.pair_figures(empty, np.array([0, 1]), np.array([False, True]))["bias"] is None
    # two grades, each set a constant different one: kappa 0 (scikit-learn's too)
    assert L.kappa(L.confusion(np.array([0, 0]), np.array([1, 1]), 2)) == 0.0


def test_top_k_keeps_ties_at_the_kth_place():
    assert sorted(top_k(np.array([0.9, 0.5, 0.5, 0.1]), 2).tolist()) == [0, 1, 2]
    assert top_k(np.array([0.9, 0.5]), 5).tolist() == [0, 1]


def test_fleiss_kappa_by_hand():
    # 3 sets, 2 items: item 1 all grade 0, item 2 (0, 1, 1): P = (1, 1/3); p = (4/6, 2/6);
    # P_e = 16/36 + 4/36 = 5/9; kappa = (2/3 - 5/9)/(4/9) = 1/4
    assert L.fleiss_kappa(np.array([[3, 0], [1, 2]])) == pytest.approx(0.25)
