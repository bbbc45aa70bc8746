"""Two-way ANOVA, Tukey HSD (classic and randomised) and effect sizes (docs/measures.md §12.2, §12.3,
§12.5).

Oracles: Sakai's textbook example (../shared/data/sakai-book, at the digits the book prints); the
worked examples of docs/measures.md by hand; statsmodels' anova_lm and scipy's studentized range
and paired t-test at 1e-9; the randomised test against a brute-force loop over every within-topic
permutation, and its Monte Carlo p-values within 4 standard errors of the exact ones; d_z's
interval against its defining equations.
"""

from __future__ import annotations

import csv
import itertools
import math
import os
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats
from statsmodels.formula.api import ols
from statsmodels.stats.anova import anova_lm

from inexeval.compare import anova as A
from inexeval.compare.anova import Anova2, TukeyHSD, anova2, paired_effect_size, tukey_hsd
from inexeval.compare.intervals import half_width
from inexeval.compare.stats import paired_t_test, randomisation_test


def _shared() -> Path:
    env = os.environ.get("INEXEVAL_SHARED")
    return Path(env) if env else Path(__file__).resolve().parents[2] / "shared"


BOOK = _shared() / "data" / "sakai-book"
needs_book = pytest.mark.skipif(not (BOOK / "X.csv").is_file(), reason=f"Sakai's textbook data not found in {BOOK} "
                                "(set INEXEVAL_SHARED to the folder holding data/)")


def book() -> np.ndarray:
    """20 topics × runs X, Y, Z."""
    cols = []
    for name in "XYZ":
        with open(BOOK / f"{name}.csv", newline="") as f:
            cols.append([float(r["ndcg@5"]) for r in csv.DictReader(f)])
    return np.array(cols).T


def close(got, want, tol=1e-9) -> bool:
    return abs(got - want) <= tol * max(1.0, abs(want))


# ---------------------------------------------------------------- Sakai's textbook ----


@needs_book
def test_sakai_anova():
    a = anova2(book())
    assert (a.topics, a.runs) == (20, 3)
    assert (round(a.ss_runs, 4), round(a.ss_topics, 4), round(a.ss_residual, 4)) == (0.1083, 1.0293, 0.8317)
    assert (round(a.ms_runs, 4), round(a.ms_topics, 4), round(a.v_e, 4)) == (0.0542, 0.0542, 0.0219)
    assert (a.df_runs, a.df_topics, a.df_residual) == (2, 19, 38)
    assert (round(a.f_runs, 3), round(a.p_runs, 3)) == (2.475, 0.098)
    assert (round(a.f_topics, 3), round(a.p_topics, 3)) == (2.475, 0.009)
    # the margin of error of a run mean with the ANOVA's residual: t(0.975, 38)·√(V_E/20)
    assert round(float(stats.t.ppf(0.975, a.df_residual)) * math.sqrt(a.v_e / 20), 4) == 0.0670


@needs_book
def test_sakai_tukey_and_effect_sizes():
    t = tukey_hsd(book())
    assert [round(float(v), 3) for v in t.means] == [0.345, 0.270, 0.245]
    assert [round(float(t.effect_size[i, j]), 4) for i, j in ((0, 1), (0, 2), (1, 2))] == [0.5070, 0.6760, 0.1690]
    assert [round(float(t.p[i, j]), 3) for i, j in ((0, 1), (0, 2), (1, 2))] == [0.257, 0.096, 0.855]
    assert (t.df, round(t.v_e, 4), t.randomised, t.exact, t.samples) == (38, 0.0219, False, False, 0)
    assert t.groups == ["a", "a", "a"]  # no pair significant at 0.05


@needs_book
def test_sakai_paired_t_and_standardised_mean_difference():
    x = book()
    d = x[:, 0] - x[:, 1]
    assert (round(float(d.mean()), 4), round(float(np.var(d, ddof=1)), 4)) == (0.0750, 0.0251)
    dz, low, high = paired_effect_size(x[:, 0], x[:, 1])
    assert round(dz, 3) == 0.473
    assert round(dz * math.sqrt(20), 3) == 2.116 and round(paired_t_test(x[:, 0], x[:, 1]), 3) == 0.048
    assert round(half_width(d), 4) == 0.0742
    assert low < dz < high


# ---------------------------------------------------------------- worked by hand (docs/measures.md) ----

# topics t1, t2, t3 (rows) × runs A, B, C (columns)
HAND = np.array([[0.1, 0.3, 0.5],
                 [0.3, 0.3, 0.6],
                 [0.2, 0.6, 0.7]])


def test_hand_worked_anova():
    # run means A 0.2, B 0.4, C 0.6; topic means 0.3, 0.4, 0.5; grand mean 0.4
    # SS_runs   = 3 · ((−0.2)² + 0² + 0.2²) = 3 · 0.08 = 0.24
    # SS_topics = 3 · ((−0.1)² + 0² + 0.1²) = 3 · 0.02 = 0.06
    # residuals x − topic mean − run mean + 0.4: t1 (0, 0, 0), t2 (0.1, −0.1, 0), t3 (−0.1, 0.1, 0)
    # SS_E = 4 · 0.01 = 0.04;  SS_total = Σ (x − 0.4)² = 0.09+0.01+0.01 + 0.01+0.01+0.04 + 0.04+0.04+0.09 = 0.34
    # df 2, 2, 4: MS_runs = 0.12, MS_topics = 0.03, V_E = 0.01; F_runs = 12, F_topics = 3
    # p_runs = P(F(2, 4) ≥ 12) = (1 + 2·12/4)^(−2) = 1/49 (F with 2 numerator df: (1 + 2F/d)^(−d/2))
    # p_topics = P(F(2, 4) ≥ 3) = (1 + 2·3/4)^(−2) = 1/6.25 = 0.16
    a = anova2(HAND)
    assert isinstance(a, Anova2) and (a.topics, a.runs) == (3, 3)
    for got, want in ((a.ss_runs, 0.24), (a.ss_topics, 0.06), (a.ss_residual, 0.04), (a.ss_total, 0.34),
                      (a.ms_runs, 0.12), (a.ms_topics, 0.03), (a.v_e, 0.01), (a.f_runs, 12.0), (a.f_topics, 3.0),
                      (a.p_runs, 1 / 49), (a.p_topics, 0.16)):
        assert close(got, want), (got, want)
    assert (a.df_runs, a.df_topics, a.df_residual) == (2, 2, 4)


def test_hand_worked_tukey_classic():
    # q_ij = |x̄_i − x̄_j| / √(V_E/n) = |d| / √(0.01/3) = |d| / 0.0577350269
    # C − A: 0.4 / 0.0577350269 = 6.9282032303 (= 4√3);  B − A, C − B: 0.2 / 0.0577350269 = 3.4641016151 (= 2√3)
    # p = P(Q(3 means, df 4) ≥ q): 0.0175 for C − A, 0.1432 for the others (scipy's studentized_range)
    # ES_E = d/√V_E = d/0.1: C − A 4, B − A 2, C − B 2
    # groups at 0.05: only C–A significant; C (best) a, B ab, A b
    t = tukey_hsd(HAND)
    assert isinstance(t, TukeyHSD)
    assert np.allclose(t.means, [0.2, 0.4, 0.6], rtol=0, atol=1e-12)
    q_ca, q_ba = 4 * math.sqrt(3), 2 * math.sqrt(3)
    assert close(0.4 / math.sqrt(0.01 / 3), q_ca)
    assert close(t.p[2, 0], float(stats.studentized_range.sf(q_ca, 3, 4)))
    assert close(t.p[1, 0], float(stats.studentized_range.sf(q_ba, 3, 4)))
    assert (round(float(t.p[2, 0]), 4), round(float(t.p[1, 0]), 4), round(float(t.p[2, 1]), 4)) == (0.0175, 0.1432,
                                                                                                       0.1432)
    assert close(t.effect_size[2, 0], 4.0) and close(t.effect_size[1, 0], 2.0) and close(t.effect_size[0, 2], -4.0)
    assert close(t.diff[2, 0], 0.4) and close(t.diff[0, 2], -0.4)
    # interval: d ± q(0.95; 3, 4) · √(0.01/3) = 0.4 ± 5.0402 · 0.057735 = 0.4 ± 0.2910
    half = float(stats.studentized_range.ppf(0.95, 3, 4)) * math.sqrt(0.01 / 3)
    assert round(float(stats.studentized_range.ppf(0.95, 3, 4)), 4) == 5.0402 and round(half, 4) == 0.2910
    assert close(t.ci_low[2, 0], 0.4 - half) and close(t.ci_high[2, 0], 0.4 + half)
    assert (round(float(t.ci_low[2, 0]), 4), round(float(t.ci_high[2, 0]), 4)) == (0.1090, 0.6910)
    assert t.groups == ["b", "ab", "a"]
    assert (t.v_e, t.df) == (pytest.approx(0.01, abs=1e-15), 4)


def test_hand_worked_randomised_two_runs():
    # runs A and C: differences C − A per topic 0.4, 0.3, 0.5 (mean 0.4); with two runs a within-topic
    # permutation keeps or swaps the pair, i.e. flips the difference's sign: 2³ = 8 permutations, and
    # R = |Σ s_i d_i| / 3:  (+++) 1.2/3 = 0.4, (−++) 0.4/3 = 0.1333, (+−+) 0.6/3 = 0.2, (++−) 0.2/3 = 0.0667,
    # each twice (s and −s).  p = #{R ≥ 0.4}/8 = 2/8 = 0.25 (exact: 8 ≤ 10,000).
    # level 0.75: k = the least count with (8 − k)/8 ≤ 0.25, 6; R_(6) of 0.0667 0.0667 0.1333 0.1333 0.2 0.2
    # 0.4 0.4 is 0.2: the interval 0.4 ± 0.2 = [0.2, 0.6].  level 0.95: k = 8, R_(8) = 0.4: [0, 0.8].
    x = HAND[:, [0, 2]]
    t = tukey_hsd(x, randomised=True, level=0.75)
    assert t.exact and t.samples == 8 and t.randomised
    assert close(t.p[1, 0], 0.25) and close(t.p[0, 1], 0.25) and t.p[0, 0] == 1.0
    assert close(t.ci_low[1, 0], 0.2) and close(t.ci_high[1, 0], 0.6) and close(t.ci_low[0, 1], -0.6)
    assert t.groups == ["b", "a"]  # p = 0.25 ≤ 1 − 0.75
    t = tukey_hsd(x, randomised=True)
    assert close(t.ci_low[1, 0], 0.0) and close(t.ci_high[1, 0], 0.8) and t.groups == ["a", "a"]
    # with two runs this is the paired randomisation (sign-flip) test, exact
    assert close(t.p[1, 0], randomisation_test(x[:, 1], x[:, 0]))


def test_hand_worked_randomised_three_runs():
    # the 3!³ = 216 within-topic permutations of HAND; in tenths, the range of the run totals (R·30)
    # takes 2 (12 times), 3 (36), 4 (12), 5 (36), 6 (36), 7 (12), 9 (24), 10 (24), 11 (12), 12 (12);
    # observed totals A 6, B 12, C 18: |C − A| = 12: p = 12/216 = 1/18; |B − A| = |C − B| = 6: p = 120/216 = 5/9.
    # level 0.9: k = the least count with (216 − k)/216 ≤ 0.1, 195; the 195th smallest total range is 11:
    # half-width 11/30.  Groups at 0.1: C–A significant (1/18 ≤ 0.1): C a, B ab, A b.
    t = tukey_hsd(HAND, randomised=True, level=0.9)
    assert t.exact and t.samples == 216
    assert close(t.p[2, 0], 1 / 18) and close(t.p[1, 0], 5 / 9) and close(t.p[2, 1], 5 / 9)
    assert close(t.ci_high[2, 0] - t.diff[2, 0], 11 / 30)
    assert t.groups == ["b", "ab", "a"]
    assert tukey_hsd(HAND, randomised=True).groups == ["a", "a", "a"]  # 1/18 > 0.05


def test_hand_worked_d_z():
    # C − A per topic: 0.4, 0.3, 0.5: d̄ = 0.4, s_d² = (0 + 0.01 + 0.01)/2 = 0.01, s_d = 0.1, d_z = 4;
    # t = 4·√3 = 6.9282 with 2 df; the 95 % bounds λ/√3 solve P(T'(2, λ) ≤ 6.9282) = 0.975 and 0.025:
    # 0.3707 and 7.8193
    dz, low, high = paired_effect_size(HAND[:, 2], HAND[:, 0])
    assert close(dz, 4.0)
    assert (round(low, 4), round(high, 4)) == (0.3707, 7.8193)
    t = 4 * math.sqrt(3)
    assert close(float(stats.nct.cdf(t, 2, low * math.sqrt(3))), 0.975)
    assert close(float(stats.nct.cdf(t, 2, high * math.sqrt(3))), 0.025)
    # B − A: 0.2, 0, 0.4: d̄ = 0.2, s_d = 0.2, d_z = 1
    assert close(paired_effect_size(HAND[:, 1], HAND[:, 0])[0], 1.0)


# ---------------------------------------------------------------- random matrices ----


def _matrix(seed: int) -> np.ndarray:
    """Random topics × runs matrices of every shape (2 topics, 2 runs), with ties and constant runs."""
    rng = np.random.default_rng(seed)
    n = (2, 3, int(rng.integers(2, 40)))[seed % 3]
    m = (2, int(rng.integers(2, 9)), 3, int(rng.integers(3, 7)))[seed % 4]
    kind = seed % 5
    x = rng.random((n, m))
    if kind == 1:
        x = rng.integers(0, 3, (n, m)) / 2.0  # ties: halves
    elif kind == 2 and m > 2:
        x[:, 0] = x[:, 1]  # two runs equal on every topic
    elif kind == 3:
        x[:, -1] = 0.5  # a constant run
    elif kind == 4:
        x = np.round(x, 1)  # tenths: ties, and sums not exact in binary
    return x


def _statsmodels(x: np.ndarray):
    n, m = x.shape
    df = pd.DataFrame({"y": x.ravel(), "topic": np.repeat(np.arange(n), m), "run": np.tile(np.arange(m), n)})
    return anova_lm(ols("y ~ C(run) + C(topic)", df).fit())


@pytest.mark.parametrize("seed", range(40))
def test_anova_equals_statsmodels(seed):
    x = _matrix(seed)
    n, m = x.shape
    table = _statsmodels(x)
    a = anova2(x)
    for name, ss, df in (("C(run)", a.ss_runs, a.df_runs), ("C(topic)", a.ss_topics, a.df_topics),
                         ("Residual", a.ss_residual, a.df_residual)):
        assert ss == pytest.approx(table.loc[name, "sum_sq"], rel=1e-9, abs=1e-12)
        assert df == table.loc[name, "df"]
    assert (a.df_runs, a.df_topics, a.df_residual) == (m - 1, n - 1, (m - 1) * (n - 1))
    assert a.ss_total == pytest.approx(float(((x - x.mean()) ** 2).sum()), rel=1e-9, abs=1e-12)
    if a.v_e > 0:
        for name, f, p in (("C(run)", a.f_runs, a.p_runs), ("C(topic)", a.f_topics, a.p_topics)):
            if table.loc[name, "sum_sq"] > 1e-12:
                assert f == pytest.approx(table.loc[name, "F"], rel=1e-9)
                assert p == pytest.approx(table.loc[name, "PR(>F)"], rel=1e-9, abs=1e-15)
            else:
                assert (f, p) == (0.0, 1.0)
        assert a.v_e == pytest.approx(table.loc["Residual", "sum_sq"] / table.loc["Residual", "df"], rel=1e-9)


@pytest.mark.parametrize("seed", range(30))
def test_classic_tukey_equals_scipy_studentized_range(seed):
    x = _matrix(seed)
    n, m = x.shape
    level = (0.95, 0.9, 0.99)[seed % 3]
    t = tukey_hsd(x, level=level)
    a = anova2(x)
    assert (t.v_e, t.df, t.level, t.randomised, t.exact) == (a.v_e, (m - 1) * (n - 1), level, False, False)
    means = x.mean(axis=0)
    assert np.allclose(t.means, means, rtol=1e-12, atol=0)
    if a.v_e == 0:
        return
    se = math.sqrt(a.v_e / n)
    qc = float(stats.studentized_range.ppf(level, m, (m - 1) * (n - 1)))
    for i in range(m):
        for j in range(m):
            d = means[i] - means[j]
            assert t.diff[i, j] == pytest.approx(d, rel=1e-12, abs=1e-15)
            assert t.effect_size[i, j] == pytest.approx(d / math.sqrt(a.v_e), rel=1e-9, abs=1e-12)
            assert t.ci_low[i, j] == pytest.approx(d - qc * se, rel=1e-9, abs=1e-12)
            assert t.ci_high[i, j] == pytest.approx(d + qc * se, rel=1e-9, abs=1e-12)
            if i == j:
                assert t.p[i, j] == 1.0
            else:
                want = float(stats.studentized_range.sf(abs(d) / se, m, (m - 1) * (n - 1)))
                assert t.p[i, j] == pytest.approx(want, rel=1e-9, abs=1e-12)
    _groups_follow_p(t, round(1 - level, 12))


def _groups_follow_p(t: TukeyHSD, alpha: float) -> None:
    m = t.means.size
    for i in range(m):
        for j in range(i + 1, m):
            assert bool(set(t.groups[i]) & set(t.groups[j])) == (not t.p[i, j] <= alpha)
    assert "a" in t.groups[int(np.argmax(t.means))]


@pytest.mark.parametrize("seed", range(12))
def test_two_runs_tukey_is_the_paired_t_test(seed):
    # m = 2: q = √2·|t| and q(level; 2, df)/√2 = t((1 + level)/2; df), V_E = s_d²/2
    rng = np.random.default_rng(100 + seed)
    n = int(rng.integers(2, 40))
    x = rng.random((n, 2))
    t = tukey_hsd(x)
    ref = stats.ttest_rel(x[:, 0], x[:, 1])
    assert t.p[0, 1] == pytest.approx(ref.pvalue, rel=1e-9) and t.p[1, 0] == t.p[0, 1]
    assert t.p[0, 1] == pytest.approx(paired_t_test(x[:, 0], x[:, 1]), rel=1e-9)
    ci = ref.confidence_interval(0.95)
    assert t.ci_low[0, 1] == pytest.approx(ci.low, rel=1e-9, abs=1e-12)
    assert t.ci_high[0, 1] == pytest.approx(ci.high, rel=1e-9, abs=1e-12)


# ---------------------------------------------------------------- randomised ----


def _brute_force(x: np.ndarray) -> tuple[np.ndarray, list[float]]:
    """p(i, j) and the ranges, by an explicit loop over every within-topic permutation."""
    n, m = x.shape
    perms = list(itertools.permutations(range(m)))
    means = x.mean(axis=0)
    ranges = []
    for choice in itertools.product(perms, repeat=n):
        permuted = [sum(x[i][p[j]] for i, p in enumerate(choice)) / n for j in range(m)]
        ranges.append(max(permuted) - min(permuted))
    r = np.array(ranges)
    p = np.array([[np.count_nonzero(r >= abs(means[i] - means[j]) - 1e-12) / r.size for j in range(m)]
                  for i in range(m)])
    np.fill_diagonal(p, 1.0)
    return p, sorted(ranges)


@pytest.mark.parametrize("seed", range(8))
def test_randomised_tukey_exact_enumeration(seed):
    rng = np.random.default_rng(seed)
    n = 4 if seed % 2 else 5
    x = rng.integers(0, 5, (n, 3)) / 4.0 if seed % 4 == 0 else (np.round(rng.random((n, 3)), 1) if seed % 4 == 1
                                                               else rng.random((n, 3)))
    level = (0.95, 0.9)[seed % 2]
    t = tukey_hsd(x, randomised=True, samples=10000, level=level)
    assert t.exact and t.samples == 6 ** n
    want, ranges = _brute_force(x)
    assert np.allclose(t.p, want, rtol=0, atol=1e-12)
    # the interval: R_(k), k = ⌈level · N⌉ (no float edge at these N)
    k = math.ceil(level * len(ranges))
    assert np.allclose(t.ci_high - t.diff, ranges[k - 1], rtol=0, atol=1e-12)
    _groups_follow_p(t, round(1 - level, 12))


def test_exact_only_when_every_permutation_fits():
    x = np.random.default_rng(0).random((5, 3))
    assert tukey_hsd(x, randomised=True, samples=6 ** 5).exact
    t = tukey_hsd(x, randomised=True, samples=6 ** 5 - 1)
    assert not t.exact and t.samples == 6 ** 5 - 1


def test_randomised_tukey_monte_carlo_within_its_error():
    x = np.random.default_rng(7).random((7, 3))
    exact = tukey_hsd(x, randomised=True, samples=6 ** 7)
    assert exact.exact and exact.samples == 279936
    b = 20000
    mc = tukey_hsd(x, randomised=True, samples=b, seed=1)
    assert not mc.exact and mc.samples == b
    for i, j in ((0, 1), (0, 2), (1, 2)):
        p = exact.p[i, j]
        assert abs(mc.p[i, j] - p) <= 4 * math.sqrt(p * (1 - p) / b) + 1 / (b + 1)


def test_randomised_tukey_monte_carlo_larger_matrix():
    # 6 runs × 8 topics: (6!)^8 permutations, no exact reference; against a 20 times larger sample
    x = np.random.default_rng(11).random((8, 6))
    b = 4000
    ref = tukey_hsd(x, randomised=True, samples=20 * b, seed=99)
    mc = tukey_hsd(x, randomised=True, samples=b, seed=3)
    iu = np.triu_indices(6, 1)
    p, q = ref.p[iu], mc.p[iu]
    bound = 4 * np.sqrt(p * (1 - p) / b + p * (1 - p) / (20 * b)) + 2 / (b + 1)
    assert np.all(np.abs(q - p) <= bound)


def test_monte_carlo_counts_the_observed_assignment():
    # (count + 1)/(B + 1): the largest difference reaches the observed range, never p = 0
    x = np.array([[0.0, 1.0], [0.0, 1.0], [0.0, 1.0], [0.0, 1.0], [0.0, 1.0], [0.0, 1.0], [0.0, 1.0], [0.0, 1.0],
                  [0.0, 1.0], [0.0, 1.0], [0.0, 1.0], [0.0, 1.0], [0.0, 1.0], [0.0, 1.0], [0.0, 1.0], [0.1, 0.9]])
    t = tukey_hsd(x, randomised=True, samples=1000, seed=0)
    assert not t.exact
    # only the identity and the all-swapped assignments reach |d| (P = 2/2^16): the count is 0 here
    assert t.p[0, 1] == pytest.approx(1 / 1001, rel=1e-12)
    # the same rule as the sign-flip randomisation test for two runs
    assert t.p[0, 1] == pytest.approx(randomisation_test(x[:, 0], x[:, 1], samples=1000, seed=0), rel=1e-12)


def _stream_ranges(x: np.ndarray, samples: int, seed: int) -> np.ndarray:
    """The documented stream, one permutation at a time: topic i's row in the argsort of m uniforms."""
    n, m = x.shape
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(samples):
        u = rng.random((n, m))
        means = np.array([sum(x[i, np.argsort(u[i])[j]] for i in range(n)) for j in range(m)]) / n
        out.append(means.max() - means.min())
    return np.array(out)


def test_randomised_tukey_follows_the_documented_stream_and_interval():
    x = np.random.default_rng(4).random((9, 4))
    b = 999
    level = 0.9
    t = tukey_hsd(x, randomised=True, samples=b, seed=2, level=level)
    ranges = np.sort(np.append(_stream_ranges(x, b, 2), np.ptp(x.mean(axis=0))))  # N = B + 1 = 1000
    means = x.mean(axis=0)
    tol = 1e-9 * np.abs(x).max()
    for i in range(4):
        for j in range(4):
            if i != j:
                want = np.count_nonzero(ranges >= abs(means[i] - means[j]) - tol) / (b + 1)
                assert t.p[i, j] == pytest.approx(want, rel=1e-12)
    # (1000 − k)/1000 ≤ 0.1 ⇒ k = 900; the 900th smallest range; numpy's "inverted_cdf" gives the same
    assert np.allclose(t.ci_high - t.diff, ranges[899], rtol=0, atol=1e-12)
    assert ranges[899] == np.quantile(ranges, level, method="inverted_cdf")


@pytest.mark.parametrize("seed", range(10))
def test_randomised_interval_excludes_zero_exactly_when_significant(seed):
    rng = np.random.default_rng(300 + seed)
    n, m = int(rng.integers(3, 15)), int(rng.integers(2, 7))
    x = rng.random((n, m)) + rng.random(m) * 0.3
    level = float(rng.choice([0.8, 0.9, 0.95]))
    t = tukey_hsd(x, randomised=True, samples=int(rng.integers(20, 3000)), seed=seed, level=level)
    tol = 1e-9 * np.abs(x).max()
    for i in range(m):
        for j in range(m):
            if i != j:
                assert (t.p[i, j] <= round(1 - level, 12)) == (t.ci_low[i, j] > tol or t.ci_high[i, j] < -tol)
    _groups_follow_p(t, round(1 - level, 12))


def test_randomised_tukey_seed_and_batches(monkeypatch):
    x = np.random.default_rng(3).random((12, 6))
    a = tukey_hsd(x, randomised=True, samples=3000, seed=5)
    b = tukey_hsd(x, randomised=True, samples=3000, seed=5)
    for name in ("p", "ci_low", "ci_high", "diff", "effect_size"):
        assert np.array_equal(getattr(a, name), getattr(b, name))
    assert a.groups == b.groups and a.samples == 3000 and not a.exact
    assert not np.array_equal(a.p, tukey_hsd(x, randomised=True, samples=3000, seed=6).p)
    monkeypatch.setattr(A, "_CELLS", 7 * 12 * 6)  # batches of 7 permutations: the same stream
    assert np.array_equal(a.p, tukey_hsd(x, randomised=True, samples=3000, seed=5).p)
    monkeypatch.setattr(A, "_CELLS", 1)  # one permutation a batch
    assert np.array_equal(a.ci_low, tukey_hsd(x, randomised=True, samples=3000, seed=5).ci_low)


def test_exact_enumeration_in_chunks(monkeypatch):
    x = np.random.default_rng(8).random((5, 3))
    whole = tukey_hsd(x, randomised=True)
    monkeypatch.setattr(A, "_CELLS", 3 * 37)  # chunks of 37 permutations
    chunked = tukey_hsd(x, randomised=True)
    assert np.array_equal(whole.p, chunked.p) and np.array_equal(whole.ci_low, chunked.ci_low)


def test_permutations_of_ties_reach_the_observed_difference():
    # every topic the same multiset: every permutation's means are reorderings of the same sums
    x = np.tile([0.1, 0.2, 0.7], (5, 1))
    t = tukey_hsd(x, randomised=True)
    assert t.exact
    # |C − A| = 0.6 is the largest range any permutation can give; reached by those that keep one column
    # all-0.7 and another all-0.1; p must count them whatever the order of summation
    want, _ = _brute_force(x)
    assert np.allclose(t.p, want, rtol=0, atol=1e-12) and t.p[2, 0] > 0


# ---------------------------------------------------------------- degenerate matrices ----


def test_zero_residual_variance():
    # run B = run A + 0.25 on every topic (exact in binary): V_E = 0
    x = np.array([[0.0, 0.25], [0.5, 0.75], [0.25, 0.5]])
    a = anova2(x)
    assert a.v_e == 0.0 and a.ss_residual == 0.0
    assert (a.f_runs, a.p_runs) == (math.inf, 0.0) and (a.f_topics, a.p_topics) == (math.inf, 0.0)
    t = tukey_hsd(x)
    assert t.p[0, 1] == 0.0 and t.groups == ["b", "a"]
    assert np.all(np.isnan(t.effect_size))
    assert np.array_equal(t.ci_low, t.diff) and np.array_equal(t.ci_high, t.diff)


def test_zero_residual_variance_within_the_tolerance():
    # B = A + 0.1 in decimal: the residuals are rounding noise (~1e-17), within 1e-9 of the scale: 0
    x = np.array([[0.1, 0.2], [0.3, 0.4], [0.7, 0.8], [0.6, 0.7]])
    assert np.any((x[:, 1] - x[:, 0]) != (x[0, 1] - x[0, 0]))  # the differences are not all the same double
    a = anova2(x)
    assert a.v_e == 0.0 and a.f_runs == math.inf
    t = tukey_hsd(x)
    assert np.all(np.isnan(t.effect_size)) and t.p[0, 1] == 0.0


def test_identical_runs():
    # every run the same on every topic: SS_runs = SS_E = 0: F_runs and p_runs undefined; topics differ
    x = np.tile(np.array([[0.1], [0.3], [0.7]]), (1, 3))
    a = anova2(x)
    assert (a.ss_runs, a.ss_residual) == (0.0, 0.0)
    assert math.isnan(a.f_runs) and math.isnan(a.p_runs) and (a.f_topics, a.p_topics) == (math.inf, 0.0)
    for randomised in (False, True):
        t = tukey_hsd(x, randomised=randomised)
        assert np.all(t.p == 1.0) and t.groups == ["a", "a", "a"]
        assert np.all(t.diff == 0.0)


def test_constant_matrix():
    a = anova2(np.full((4, 3), 0.5))
    assert (a.ss_runs, a.ss_topics, a.ss_residual, a.ss_total) == (0.0, 0.0, 0.0, 0.0)
    assert all(math.isnan(v) for v in (a.f_runs, a.p_runs, a.f_topics, a.p_topics))
    t = tukey_hsd(np.zeros((3, 2)))
    assert np.all(t.p == 1.0) and t.groups == ["a", "a"]


@pytest.mark.parametrize("bad", [
    np.array([[0.1, math.nan], [0.2, 0.3]]),
    np.array([[0.1, 0.2], [math.inf, 0.3]]),
    np.array([[0.1, 0.2]]),  # one topic
    np.array([[0.1], [0.2]]),  # one run
    np.array([0.1, 0.2]),  # not a matrix
    np.zeros((2, 2, 2)),
])
def test_bad_matrices_are_refused(bad):
    with pytest.raises(ValueError):
        anova2(bad)
    with pytest.raises(ValueError):
        tukey_hsd(bad)
    with pytest.raises(ValueError):
        tukey_hsd(bad, randomised=True)


def test_nan_is_named():
    with pytest.raises(ValueError, match="finite.*topic row 1, run column 0"):
        anova2([[0.1, 0.2], [math.nan, 0.3]])


@pytest.mark.parametrize("kwargs", [{"level": 0.0}, {"level": 1.0}, {"level": 1.5}, {"level": True},
                                    {"samples": 0}, {"samples": 2.5}, {"samples": True}])
def test_bad_parameters_are_refused(kwargs):
    with pytest.raises(ValueError):
        tukey_hsd(HAND, randomised=True, **kwargs)


def test_results_are_frozen():
    t = tukey_hsd(HAND)
    with pytest.raises(AttributeError):
        t.v_e = 1.0  # type: ignore[misc]
    with pytest.raises(AttributeError):
        anova2(HAND).v_e = 1.0  # type: ignore[misc]


# ---------------------------------------------------------------- d_z ----


@pytest.mark.parametrize("seed", range(20))
def test_d_z_interval_solves_its_equations(seed):
    rng = np.random.default_rng(200 + seed)
    n = int(rng.integers(2, 80))
    a = rng.random(n)
    b = rng.random(n) * rng.uniform(0.2, 1.5) + rng.uniform(-0.3, 0.3)
    level = float(rng.choice([0.8, 0.9, 0.95, 0.99]))
    dz, low, high = paired_effect_size(a, b, level)
    d = a - b
    assert dz == pytest.approx(d.mean() / np.std(d, ddof=1), rel=1e-12)
    t = dz * math.sqrt(n)
    assert abs(float(stats.nct.cdf(t, n - 1, low * math.sqrt(n))) - (1 + level) / 2) <= 1e-9
    assert abs(float(stats.nct.cdf(t, n - 1, high * math.sqrt(n))) - (1 - level) / 2) <= 1e-9
    assert low < dz < high


@pytest.mark.parametrize("t_obs", [0.0, 0.5, -3.0, 12.0, -40.0])
def test_d_z_interval_far_from_zero(t_obs):
    # differences built to give t = t_obs exactly enough, few and many topics
    for n in (2, 5, 200):
        base = np.linspace(-1.0, 1.0, n)
        base = (base - base.mean()) / np.std(base, ddof=1)
        d = base + t_obs / math.sqrt(n)  # mean t_obs/√n, sd 1
        dz, low, high = paired_effect_size(d + 1.0, np.ones(n))
        assert dz == pytest.approx(t_obs / math.sqrt(n), rel=1e-9, abs=1e-12)
        t = dz * math.sqrt(n)
        assert abs(float(stats.nct.cdf(t, n - 1, low * math.sqrt(n))) - 0.975) <= 1e-9
        assert abs(float(stats.nct.cdf(t, n - 1, high * math.sqrt(n))) - 0.025) <= 1e-9
        assert low < dz < high


def _nct_cdf_by_chi2(t: float, df: int, lam: float) -> float:
    """P(T'(df, λ) ≤ t) = E[Φ(t·S − λ)], S² = χ²_df/df, integrated over the χ² value x (breakpoints
    around the step of Φ at x = df (λ/t)²): independent of the module's integral over z."""
    from scipy import integrate, special

    if t < 0:
        return 1.0 - _nct_cdf_by_chi2(-t, df, -lam)
    c = lam / t
    top = float(stats.chi2.isf(1e-18, df))
    pts = sorted({df * c * c, df * (c + 10 / t) ** 2, *([df * (c - 10 / t) ** 2] if c > 10 / t else [])}) \
        if c > 0 else []
    pts = [p for p in pts if 0 < p < top]
    f = lambda x: float(stats.chi2.pdf(x, df)) * float(special.ndtr(t * math.sqrt(x / df) - lam))  # noqa: E731
    return integrate.quad(f, 0, top, points=pts or None, epsabs=1e-15, epsrel=1e-13, limit=5000)[0]


@pytest.mark.parametrize("t_obs", [900.0, -1500.0, 2e4, -3e5, 5e6])
@pytest.mark.parametrize("n", [2, 5, 20, 1000])
def test_d_z_interval_for_nearly_constant_differences(t_obs, n):
    # |t| beyond 1000, where scipy's nct.cdf loses digits (or is NaN): the bounds against an
    # independent integral of the noncentral t's cdf
    base = np.linspace(-1.0, 1.0, n)
    base = (base - base.mean()) / np.std(base, ddof=1) * 1e-3
    d = base + 1e-3 * t_obs / math.sqrt(n)  # mean 1e-3·t/√n, sd 1e-3
    dz, low, high = paired_effect_size(d + 0.5, np.full(n, 0.5))
    t = dz * math.sqrt(n)
    assert t == pytest.approx(t_obs, rel=1e-6)
    assert abs(_nct_cdf_by_chi2(t, n - 1, low * math.sqrt(n)) - 0.975) <= 1e-9
    assert abs(_nct_cdf_by_chi2(t, n - 1, high * math.sqrt(n)) - 0.025) <= 1e-9
    assert low < dz < high


@pytest.mark.parametrize("df", [1, 4, 19, 999])
def test_the_integrated_cdf_meets_scipy_where_it_takes_over(df):
    # at |t| = 1000 both are good to 1e-9: the cdf does not jump where one hands over to the other
    for t in (A._NCT_T_MAX, -A._NCT_T_MAX):
        for c in (0.02, 0.5, 0.99, 1.0, 1.01, 1.5):
            lam = c * t
            far = A._nct_cdf_far(t, df, lam) if t > 0 else 1.0 - A._nct_cdf_far(-t, df, -lam)
            assert abs(far - float(stats.nct.cdf(t, df, lam))) <= 1e-9


def test_d_z_edge_cases():
    assert all(math.isnan(v) for v in paired_effect_size([0.5], [0.1]))  # one pair
    assert all(math.isnan(v) for v in paired_effect_size([], []))
    assert all(math.isnan(v) for v in paired_effect_size([0.5, 0.2], [0.5, 0.2]))  # no difference
    dz, low, high = paired_effect_size([0.5, 0.3], [0.25, 0.05])  # constant difference 0.25
    assert dz == math.inf and math.isnan(low) and math.isnan(high)
    dz, low, high = paired_effect_size([0.3, 0.4, 0.8], [0.4, 0.5, 0.9])  # −0.1 in decimal: constant
    assert dz == -math.inf and math.isnan(low) and math.isnan(high)
    with pytest.raises(ValueError):
        paired_effect_size([0.1, 0.2], [0.1, 0.2, 0.3])
    with pytest.raises(ValueError):
        paired_effect_size([0.1, math.nan], [0.1, 0.2])
    with pytest.raises(ValueError):
        paired_effect_size([0.1, 0.2], [0.3, 0.1], level=1.0)
