"""inexeval.compare.stats: rank correlation, significance tests, per-topic differences.

Hand-worked cases have their arithmetic in comments / Fraction expressions;
library cross-checks (scipy) are compared at 1e-9.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction as F

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from helpers import assert_all_close, assert_close
from inexeval.compare.stats import (
    SignificanceRow,
    average_matrices,
    average_ranks,
    bootstrap_test,
    correlation_matrix,
    format_lower_triangle,
    holm_bonferroni,
    kendall_tau_b,
    paired_t_test,
    pairwise_significance,
    randomisation_test,
    spearman_rho,
    topic_differences,
    win_counts,
)
from inexeval.errors import ConfigError


def same_or_both_nan(actual: float, expected: float, what: str) -> None:
    if math.isnan(expected):
        assert math.isnan(actual), f"{what}: got {actual!r}, expected NaN"
    else:
        assert math.isclose(actual, expected, rel_tol=1e-9, abs_tol=1e-9), f"{what}: {actual!r} != {expected!r}"


# ---------------------------------------------------------------------------
# Kendall tau-b and Spearman rho against scipy


@pytest.mark.parametrize("n", [2, 3, 4, 7, 20, 55, 200, 1000])
def test_tau_b_and_rho_match_scipy_on_random_rankings_with_ties(n):
    rng = np.random.default_rng(n)
    for trial in range(40):
        # few distinct values -> many ties; also ties in y, and continuous x sometimes
        x = rng.integers(0, max(2, n // 3), n).astype(float)
        y = rng.integers(0, max(2, n // 2), n).astype(float)
        if trial % 4 == 0:
            x = rng.random(n)
        if trial % 5 == 0:
            y = x * 0.5 + rng.integers(0, 3, n)  # correlated, with ties
        expected_tau = stats.kendalltau(x, y, variant="b").statistic
        expected_rho = stats.spearmanr(x, y).statistic if np.ptp(x) and np.ptp(y) else math.nan
        same_or_both_nan(kendall_tau_b(x, y), expected_tau, f"tau n={n} trial={trial}")
        same_or_both_nan(spearman_rho(x, y), expected_rho, f"rho n={n} trial={trial}")


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 6), st.integers(-3, 3)), min_size=2, max_size=40))
def test_tau_b_and_rho_match_scipy_hypothesis(pairs):
    x = np.array([p[0] for p in pairs], dtype=float)
    y = np.array([p[1] for p in pairs], dtype=float)
    if np.ptp(x) == 0 or np.ptp(y) == 0:
        # undefined: a constant ranking has no order to agree with
        assert math.isnan(kendall_tau_b(x, y)) and math.isnan(spearman_rho(x, y))
        return
    same_or_both_nan(kendall_tau_b(x, y), stats.kendalltau(x, y).statistic, "tau")
    same_or_both_nan(spearman_rho(x, y), stats.spearmanr(x, y).statistic, "rho")


def test_average_ranks_match_scipy_rankdata():
    rng = np.random.default_rng(7)
    for _ in range(50):
        v = rng.integers(0, 6, 30).astype(float)
        assert_all_close(average_ranks(v), stats.rankdata(v), "average ranks")


# ---------------------------------------------------------------------------
# Seed 004 ("Rank Correlation Metrics") worked examples

# documents d123 d84 d56 d6 d8 d9 d511 d129 d187 d25
SEED004_R1 = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
SEED004_R2 = [2, 3, 1, 5, 4, 7, 8, 10, 6, 9]


def test_seed004_spearman_example():
    # s1 - s2 = -1 -1 +2 -1 +1 -1 -1 -2 +3 +1 ; squares 1 1 4 1 1 1 1 4 9 1
    sq = [(a - b) ** 2 for a, b in zip(SEED004_R1, SEED004_R2)]
    assert sq == [1, 1, 4, 1, 1, 1, 1, 4, 9, 1] and sum(sq) == 24
    # S = 1 - 6*24 / (10*(10^2 - 1)) = 1 - 144/990 = 846/990 = 47/55
    exact = 1 - F(6 * 24, 10 * (10 ** 2 - 1))
    assert exact == 1 - F(144, 990) == F(47, 55)
    rho = spearman_rho(SEED004_R1, SEED004_R2)
    assert_close(rho, exact, "seed 004 Spearman")
    # The text prints 0.854: 47/55 = 0.85454..., truncated (not rounded,
    # which would give 0.855) to three decimals.
    assert math.floor(rho * 1000) / 1000 == 0.854
    assert f"{rho:.3f}" == "0.855"


def test_seed004_kendall_example():
    r1, r2 = SEED004_R1[:5], SEED004_R2[:5]  # top 5: d123 d84 d56 d6 d8
    # Discordant unordered pairs: [d123,d56] (1<3 but 2>1), [d84,d56] (2<3 but 3>1),
    # [d6,d8] (4<5 but 5>4): 3 of 10, i.e. 6 of the K(K-1) = 20 ordered pairs.
    # tau = 14/20 - 6/20 = 1 - 2*6/(5*4) = 2/5
    exact = F(14, 20) - F(6, 20)
    assert exact == 1 - F(2 * 6, 5 * 4) == F(2, 5)
    tau = kendall_tau_b(r1, r2)
    assert_close(tau, exact, "seed 004 Kendall")
    assert f"{tau:.1f}" == "0.4"


# ---------------------------------------------------------------------------
# Ties: tau-b / rho by hand, and the docs/measures.md §10 tolerance


def test_tau_b_and_rho_with_ties_by_hand():
    x = [1, 1, 2, 3]
    y = [1, 2, 2, 3]
    # pairs (0,1) tied in x; (1,2) tied in y; (0,2) (0,3) (1,3) (2,3) concordant.
    # n0 = 6, n1 = 1, n2 = 1, C - D = 4 -> tau_b = 4 / sqrt(5*5) = 4/5
    assert_close(kendall_tau_b(x, y), F(4, 5), "tau_b with ties")
    # average ranks x: 1.5 1.5 3 4 ; y: 1 2.5 2.5 4 ; mean 2.5
    # dx = -1 -1 .5 1.5 ; dy = -1.5 0 0 1.5
    # sum dx*dy = 1.5 + 2.25 = 3.75 ; sum dx^2 = 4.5 ; sum dy^2 = 4.5 -> 3.75/4.5 = 5/6
    assert_close(spearman_rho(x, y), F(15, 4) / F(9, 2), "rho with ties")


def test_near_equal_scores_tie_within_relative_tolerance():
    x = [0.1 + 0.2, 0.3, 0.5]  # 0.30000000000000004 and 0.3: equal to 1e-9
    y = [1.0, 2.0, 3.0]
    # tied: pair (0,1) tied in x, (0,2) and (1,2) concordant; n0 = 3, n1 = 1
    # tau_b = 2 / sqrt((3-1)*3) = 2/sqrt(6)
    assert_close(kendall_tau_b(x, y), 2 / math.sqrt(6), "tolerant tie")
    # exact comparison: x0 > x1 while y0 < y1 -> discordant; tau = (2-1)/3
    assert_close(kendall_tau_b(x, y, rel_tol=0.0), F(1, 3), "exact comparison")


def test_undefined_correlations_and_bad_vectors():
    assert math.isnan(kendall_tau_b([1.0], [2.0]))
    assert math.isnan(spearman_rho([], []))
    assert math.isnan(kendall_tau_b([1, 1, 1], [1, 2, 3]))
    assert math.isnan(spearman_rho([1, 2, 3], [4, 4, 4]))
    with pytest.raises(ValueError):
        kendall_tau_b([1, 2], [1, 2, 3])
    with pytest.raises(ValueError):
        spearman_rho([1, float("nan")], [1, 2])


def test_reversed_and_identical_rankings():
    x = list(range(50))
    assert kendall_tau_b(x, x) == 1.0 and spearman_rho(x, x) == 1.0
    assert kendall_tau_b(x, x[::-1]) == -1.0
    assert_close(spearman_rho(x, x[::-1]), -1, "reversed rho")


# ---------------------------------------------------------------------------
# Correlation matrices (seed 000 §7)

SCORES = {
    "m1": {"A": 0.4, "B": 0.3, "C": 0.2, "D": 0.1},
    "m2": {"A": 0.35, "B": 0.30, "C": 0.25, "D": None},
    "m3": {"A": 0.1, "B": 0.3, "C": 0.2, "D": 0.4, "E": 0.9},  # E only here
}


def test_correlation_matrix_kendall_by_hand():
    names, m = correlation_matrix(SCORES, "kendall")
    assert names == ["m1", "m2", "m3"]
    # m1-m2 over A,B,C (D undefined in m2): same order -> 1
    # m1-m3 over A,B,C,D: m1 A>B>C>D; m3 A.1 B.3 C.2 D.4
    #   AB D, AC D, AD D, BC C, BD D, CD D -> (1 - 5)/6 = -2/3
    # m2-m3 over A,B,C: AB D, AC D, BC C -> (1 - 2)/3 = -1/3
    expected = [[1, 1, F(-2, 3)], [1, 1, F(-1, 3)], [F(-2, 3), F(-1, 3), 1]]
    for i in range(3):
        assert_all_close(m[i], expected[i], f"row {i}")


def test_correlation_matrix_spearman_by_hand_and_nan_dropped():
    scores = {k: dict(v) for k, v in SCORES.items()}
    scores["m2"]["D"] = float("nan")  # NaN is dropped like None
    names, m = correlation_matrix(scores, "spearman")
    # m1-m3 over A..D: ranks m1 A4 B3 C2 D1, m3 A1 B3 C2 D4; d = 3 0 0 -3
    #   rho = 1 - 6*18/(4*15) = -4/5
    # m2-m3 over A,B,C: ranks m2 A3 B2 C1, m3 A1 B3 C2; d = 2 -1 -1
    #   rho = 1 - 6*6/(3*8) = -1/2
    assert_close(m[0, 1], 1, "m1-m2")
    assert_close(m[0, 2], 1 - F(6 * 18, 4 * 15), "m1-m3")
    assert_close(m[1, 2], 1 - F(6 * 6, 3 * 8), "m2-m3")
    assert m[2, 1] == m[1, 2]


def test_correlation_matrix_too_few_common_runs_and_bad_method():
    names, m = correlation_matrix({"a": {"r1": 0.1, "r2": 0.2}, "b": {"r2": 0.5, "r3": 0.1}})
    assert math.isnan(m[0, 1]) and math.isnan(m[1, 0])  # only r2 in common
    with pytest.raises(ConfigError):
        correlation_matrix(SCORES, "pearson")


def test_average_matrices_over_tasks():
    t1 = (["x", "y"], np.array([[1.0, 0.5], [0.5, 1.0]]))
    t2 = (["x", "y", "z"], np.array([[1.0, 0.9, 0.2], [0.9, 1.0, np.nan], [0.2, np.nan, 1.0]]))
    names, m = average_matrices([t1, t2])
    assert names == ["x", "y", "z"]
    assert_close(m[0, 1], (F(1, 2) + F(9, 10)) / 2, "x-y over both tasks")
    assert_close(m[0, 2], F(1, 5), "x-z only in task 2")
    assert math.isnan(m[1, 2])  # y-z: undefined in the one task that has both
    assert_close(m[2, 2], 1, "diagonal")


def test_format_lower_triangle():
    names = ["MAnxCG[10]", "MAnxCG[25]", "MAep", "Q"]
    m = np.array([[1, 0.85, 0.64, 0.6], [0.85, 1, 0.72, 0.686], [0.64, 0.72, 1, np.nan], [0.6, 0.686, np.nan, 1]])
    text = format_lower_triangle(names, m)
    assert text.splitlines() == [
        "            MAnxCG[10]    MAnxCG[25]    MAep",
        "----------  ------------  ------------  ------",
        "MAnxCG[25]  0.85",
        "MAep        0.64          0.72",
        "Q           0.60          0.69          -",
    ]
    tsv = format_lower_triangle(names[:2], m[:2, :2], digits=3, tablefmt="tsv")
    assert [line.split("\t") for line in tsv.splitlines()] == [["          ", "MAnxCG[10]"], ["MAnxCG[25]", "0.850"]]


# ---------------------------------------------------------------------------
# Paired t-test


def test_paired_t_matches_scipy():
    rng = np.random.default_rng(3)
    for n in (2, 3, 5, 10, 30, 125):
        for _ in range(20):
            a = rng.random(n)
            b = np.clip(a + rng.normal(0.02, 0.1, n), 0, 1)
            assert math.isclose(paired_t_test(a, b), stats.ttest_rel(a, b).pvalue, rel_tol=1e-9, abs_tol=1e-12)


def test_paired_t_by_hand():
    a, b = [1, 2.5, 3], [0, 1, 2]
    # d = 1, 3/2, 1 ; mean 7/6 ; deviations -1/6, 1/3, -1/6 ; sum of squares 1/6
    # s^2 = (1/6)/2 = 1/12 ; se = sqrt(1/12)/sqrt(3) = 1/6 ; t = (7/6)/(1/6) = 7
    # with 2 degrees of freedom P(|T| >= t) = 1 - t/sqrt(2 + t^2) = 1 - 7/sqrt(51)
    assert_close(paired_t_test(a, b), 1 - 7 / math.sqrt(51), "t-test df=2")


def test_paired_t_degenerate_cases():
    assert paired_t_test([0.1, 0.2, 0.3], [0.1, 0.2, 0.3]) == 1.0  # identical runs (scipy: NaN)
    assert paired_t_test([1, 2, 3], [0, 1, 2]) == 0.0  # constant non-zero difference (as scipy)
    assert math.isnan(paired_t_test([0.5], [0.25]))


# ---------------------------------------------------------------------------
# Randomisation (sign-flip) test

A3, B3 = [0.5, 0.4, 0.1], [0.2, 0.3, 0.3]  # d = 0.3, 0.1, -0.2 ; sum 0.2


def test_randomisation_exact_small_case_by_hand():
    # all 8 sign flips of (0.3, 0.1, -0.2):
    #  +++ 0.2   ++- 0.6   +-+ 0.0   +-- 0.4   -++ -0.4   -+- 0.0   --+ -0.6   --- -0.2
    # |sum| >= 0.2 for 6 of 8 -> p = 3/4
    assert_close(randomisation_test(A3, B3, samples=8), F(6, 8), "exact enumeration")
    # exact enumeration ignores the seed
    assert randomisation_test(A3, B3, samples=10000, seed=1) == randomisation_test(A3, B3, samples=8, seed=99)


def test_randomisation_exact_equals_brute_force_enumeration():
    rng = np.random.default_rng(11)
    a, b = rng.random(9), rng.random(9)
    d = a - b
    sums = [abs(sum(s * x for s, x in zip(signs, d))) for signs in itertools.product((-1, 1), repeat=9)]
    count = sum(1 for s in sums if s >= abs(d.sum()) - 1e-12)
    assert_close(randomisation_test(a, b, samples=512), F(count, 512), "2^9 sign flips")


def test_randomisation_sampled_is_deterministic_and_follows_convention():
    rng = np.random.default_rng(5)
    a, b = rng.random(20), rng.random(20)
    p1 = randomisation_test(a, b, samples=999, seed=42)
    assert p1 == randomisation_test(a, b, samples=999, seed=42)
    # sampled convention: p = (count + 1) / (samples + 1) with 0 <= count <= samples
    k = p1 * 1000 - 1
    assert abs(k - round(k)) < 1e-6 and 0 <= round(k) <= 999
    # 3 of 8 sign vectors are sampled for the 3-topic case: p in {1/4, 2/4, 3/4, 4/4}
    p_small = randomisation_test(A3, B3, samples=3, seed=0)
    assert p_small in (0.25, 0.5, 0.75, 1.0)


def test_randomisation_sampled_close_to_exact():
    rng = np.random.default_rng(8)
    a, b = rng.random(12), rng.random(12) * 0.9
    exact = randomisation_test(a, b, samples=4096)  # 2^12: enumeration
    sampled = randomisation_test(a, b, samples=4000, seed=3)
    # binomial standard error of a 4000-sample estimate; 5 SE is a bound for this fixed seed
    se = math.sqrt(exact * (1 - exact) / 4000)
    assert abs(sampled - exact) <= 5 * se + 1 / 4001


def test_randomisation_no_difference_and_bad_samples():
    assert randomisation_test([0.2, 0.4], [0.2, 0.4]) == 1.0
    with pytest.raises(ConfigError):
        randomisation_test(A3, B3, samples=0)


# ---------------------------------------------------------------------------
# Bootstrap


def test_bootstrap_deterministic_for_a_seed():
    rng = np.random.default_rng(9)
    a, b = rng.random(30), rng.random(30)
    p = bootstrap_test(a, b, samples=2000, seed=7)
    assert p == bootstrap_test(a, b, samples=2000, seed=7)
    k = p * 2001 - 1  # p = (count + 1) / (samples + 1)
    assert abs(k - round(k)) < 1e-6


def test_bootstrap_constant_difference_is_never_reached():
    # d = 0.1 everywhere: shifted to the null every resample has mean 0 < 0.1
    p = bootstrap_test([0.3, 0.4, 0.5, 0.6], [0.2, 0.3, 0.4, 0.5], samples=500, seed=0)
    assert_close(p, F(1, 501), "count 0")
    assert bootstrap_test([0.3, 0.4], [0.3, 0.4]) == 1.0


def test_bootstrap_approaches_the_exact_bootstrap_distribution():
    # d = 0, 0, 0.3 ; mean 0.1 ; shifted -0.1, -0.1, 0.2 ; resample 3 with replacement.
    # With k draws of 0.2 the mean is (-0.3 + 0.3k)/3: k=0 -> -0.1, k=1 -> 0, k=2 -> 0.1, k=3 -> 0.2
    # |mean| >= 0.1 unless k = 1: P = 1 - 3*(1/3)*(2/3)^2 = 1 - 12/27 = 5/9
    exact = 1 - 3 * F(1, 3) * F(2, 3) ** 2
    assert exact == F(5, 9)
    p = bootstrap_test([0.3, 0.3, 0.6], [0.3, 0.3, 0.3], samples=20000, seed=1)
    se = math.sqrt(float(exact) * (1 - float(exact)) / 20000)
    assert abs(p - float(exact)) <= 5 * se


# ---------------------------------------------------------------------------
# Holm-Bonferroni


def test_holm_by_hand():
    p = [0.01, 0.04, 0.03, 0.005]
    # sorted: 0.005*4 = 0.02 ; 0.01*3 = 0.03 ; 0.03*2 = 0.06 ; 0.04*1 = 0.04 -> max so far 0.06
    assert_all_close(holm_bonferroni(p), [F(3, 100), F(6, 100), F(6, 100), F(2, 100)], "holm")


def test_holm_caps_at_one_and_skips_nan():
    # sorted: 0.01*3 = 0.03 ; 0.6*2 = 1.2 -> 1 ; 0.7*1 = 0.7 -> max so far 1.2 -> 1
    assert_all_close(holm_bonferroni([0.6, 0.7, 0.01]), [1, 1, F(3, 100)], "capped")
    # NaN is not counted in m: m = 2 ; 0.02*2 = 0.04 ; 0.03*1 -> 0.04
    out = holm_bonferroni([0.03, float("nan"), 0.02])
    assert math.isnan(out[1])
    assert_all_close(out[[0, 2]], [F(4, 100), F(4, 100)], "nan skipped")
    assert holm_bonferroni([]).size == 0


# ---------------------------------------------------------------------------
# Pairwise significance over runs

PER_TOPIC = {
    "runA": {"1": 0.9, "2": 0.8, "3": 0.7, "4": 0.95, "5": 0.85},
    "runB": {"1": 0.1, "2": 0.2, "3": 0.15, "4": 0.05, "5": None},  # 5 undefined
    "runC": {"1": 0.5, "2": 0.1, "3": 0.9, "10": 0.3},  # no topics 4, 5
}


def test_pairwise_significance_t():
    rows = pairwise_significance(PER_TOPIC, test="t", alpha=0.05)
    assert [(r.run_a, r.run_b) for r in rows] == [("runA", "runB"), ("runA", "runC"), ("runB", "runC")]
    ab, ac, bc = rows
    # A vs B over topics 1-4: means 3.35/4 and 0.5/4
    assert_close(ab.mean_a, F(335, 400), "mean A")
    assert_close(ab.mean_b, F(50, 400), "mean B")
    assert_close(ab.diff, F(285, 400), "diff")
    assert_close(ab.p, stats.ttest_rel([0.9, 0.8, 0.7, 0.95], [0.1, 0.2, 0.15, 0.05]).pvalue, "p A-B")
    # A vs C over topics 1-3 only (C lacks 4, 5; A lacks 10)
    assert_close(ac.p, stats.ttest_rel([0.9, 0.8, 0.7], [0.5, 0.1, 0.9]).pvalue, "p A-C")
    assert_close(bc.mean_a, F(45, 300), "mean B over 1-3")
    # Holm over the three pairs
    p = [r.p for r in rows]
    order = sorted(range(3), key=lambda i: p[i])
    adj = [0.0] * 3
    running = 0.0
    for k, i in enumerate(order):
        running = min(1.0, max(running, (3 - k) * p[i]))
        adj[i] = running
    assert_all_close([r.p_holm for r in rows], adj, "holm")
    assert [r.significant for r in rows] == [h <= 0.05 for h in adj]
    assert ab.significant and not ac.significant
    assert isinstance(ab, SignificanceRow)


def test_pairwise_significance_other_tests_are_deterministic():
    for test in ("randomisation", "bootstrap"):
        r1 = pairwise_significance(PER_TOPIC, test=test, samples=500, seed=4)
        r2 = pairwise_significance(PER_TOPIC, test=test, samples=500, seed=4)
        assert r1 == r2
    # A vs C has 3 common topics: 2^3 <= 500, so its randomisation p is exact
    ac = pairwise_significance(PER_TOPIC, test="randomisation", samples=500)[1]
    assert ac.p == randomisation_test([0.9, 0.8, 0.7], [0.5, 0.1, 0.9], samples=8)


def test_pairwise_significance_bad_options():
    with pytest.raises(ConfigError):
        pairwise_significance(PER_TOPIC, test="wilcoxon")
    with pytest.raises(ConfigError):
        pairwise_significance(PER_TOPIC, alpha=1.5)


def test_pairwise_no_common_topic():
    rows = pairwise_significance({"x": {"1": 0.5}, "y": {"2": 0.4}, "z": {"1": 0.1, "2": 0.2}})
    xy = rows[0]
    assert math.isnan(xy.p) and math.isnan(xy.p_holm) and not xy.significant
    assert math.isnan(xy.mean_a)


# ---------------------------------------------------------------------------
# Per-topic differences (seed 004 precision histogram)


def test_topic_differences_and_win_counts_like_seed004_histogram():
    # 10 queries, A better on 8, B better on 2 (seed 004's figure)
    a = {str(q): 0.5 for q in range(1, 11)}
    b = {str(q): (0.25 if q not in (3, 7) else 0.75) for q in range(1, 11)}
    topics, diff = topic_differences(a, b)
    assert topics == [str(q) for q in range(1, 11)]  # natural order: 2 before 10
    assert_all_close(diff, [F(1, 4) if q not in (3, 7) else F(-1, 4) for q in range(1, 11)], "RP_A/B")
    assert win_counts(a, b) == (8, 2, 0)
    assert win_counts(b, a) == (2, 8, 0)


def test_topic_differences_ties_and_undefined():
    a = {"t2": 0.1 + 0.2, "t10": 0.5, "t1": None, "t3": 0.4}
    b = {"t2": 0.3, "t10": 0.2, "t1": 0.1, "t3": 0.6, "t4": 0.9}
    topics, diff = topic_differences(a, b)
    assert topics == ["t2", "t3", "t10"]  # t1 undefined in a, t4 missing in a
    assert diff[0] == 0.0  # 0.30000000000000004 vs 0.3: a tie (docs/measures.md §10)
    assert_all_close(diff[1:], [F(-2, 10), F(3, 10)], "differences")
    assert win_counts(a, b) == (1, 1, 1)
