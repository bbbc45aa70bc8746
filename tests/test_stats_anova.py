"""Two-way ANOVA, Tukey HSD (classic and randomised) and effect sizes (docs/measures.md §12.2, §12.3,
§12.5): Sakai's textbook example, a hand-worked example, statsmodels' anova_lm and scipy's
studentized range at 1e-9, the randomised test against brute-force enumeration, and d_z's interval
against its defining equations."""

from __future__ import annotations

import csv
import itertools
import math
import os
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import special, stats
from statsmodels.formula.api import ols
from statsmodels.stats.anova import anova_lm

from inexeval.compare import anova as A
from inexeval.compare.anova import anova2, paired_effect_size, tukey_hsd
from inexeval.compare.stats import paired_t_test


def _shared() -> Path:
    env = os.environ.get("INEXEVAL_SHARED")
    return Path(env) if env else Path(__file__).resolve().parents[2] / "shared"


BOOK = _shared() / "data" / "sakai-book"
needs_book = pytest.mark.skipif(not (BOOK / "X.csv").is_file(), reason=f"Sakai's textbook data not found in {BOOK} "
                                "(set INEXEVAL_SHARED to the folder holding data/)")


def book() -> np.ndarray:
    cols = []
    for name in "XYZ":
        with open(BOOK / f"{name}.csv", newline="") as f:
            cols.append([float(r["ndcg@5"]) for r in csv.DictReader(f)])
    return np.array(cols).T


# ---------------------------------------------------------------- Sakai's textbook ----


@needs_book
def test_sakai_anova():
    a = anova2(book())
    assert (round(a.ss_runs, 4), round(a.ss_topics, 4), round(a.ss_residual, 4)) == (0.1083, 1.0293, 0.8317)
    assert (round(a.ms_runs, 4), round(a.ms_topics, 4), round(a.v_e, 4)) == (0.0542, 0.0542, 0.0219)
    assert (a.df_runs, a.df_topics, a.df_residual) == (2, 19, 38)
    assert (round(a.f_runs, 3), round(a.p_runs, 3)) == (2.475, 0.098)
    assert (round(a.f_topics, 3), round(a.p_topics, 3)) == (2.475, 0.009)
    assert round(float(stats.t.ppf(0.975, 38)) * math.sqrt(a.v_e / 20), 4) == 0.0670


@needs_book
def test_sakai_tukey_and_effect_sizes():
    x = book()
    t = tukey_hsd(x)
    assert [round(v, 3) for v in t.means] == [0.345, 0.270, 0.245]
    assert [round(float(t.effect_size[i, j]), 4) for i, j in ((0, 1), (0, 2), (1, 2))] == [0.5070, 0.6760, 0.1690]
    assert [round(float(t.p[i, j]), 3) for i, j in ((0, 1), (0, 2), (1, 2))] == [0.257, 0.096, 0.855]
    assert t.groups == ["a", "a", "a"]  # nothing significant at 0.05


@needs_book
def test_sakai_paired_t_and_standardised_mean_difference():
    x = book()
    d = x[:, 0] - x[:, 1]
    assert (round(float(d.mean()), 4), round(float(np.var(d, ddof=1)), 4)) == (0.0750, 0.0251)
    dz, low, high = paired_effect_size(x[:, 0], x[:, 1])
    assert round(dz, 3) == 0.473
    t = dz * math.sqrt(20)
    assert round(t, 3) == 2.116 and round(paired_t_test(x[:, 0], x[:, 1]), 3) == 0.048
    assert low < dz < high


# ---------------------------------------------------------------- worked by hand ----

HAND = np.array([[0.1, 0.3, 0.5],
                 [0.3, 0.3, 0.6],
                 [0.2, 0.6, 0.7]])


def test_hand_worked_anova():
    # run means A 0.2, B 0.4, C 0.6; topic means 0.3, 0.4, 0.5; grand mean 0.4
    # SS_runs = 3 (0.2² + 0 + 0.2²) = 0.24; SS_topics = 3 (0.1² + 0 + 0.1²) = 0.06
    # residuals x − topic − run + grand: t1 (0, 0, 0), t2 (0.1, −0.1, 0), t3 (−0.1, 0.1, 0): SS_E = 0.04
    # df 2, 2, 4; MS_runs = 0.12, MS_topics = 0.03, V_E = 0.01; F_runs = 12, F_topics = 3
    a = anova2(HAND)
    for got, want in ((a.ss_runs, 0.24), (a.ss_topics, 0.06), (a.ss_residual, 0.04), (a.ss_total, 0.34),
                      (a.ms_runs, 0.12), (a.ms_topics, 0.03), (a.v_e, 0.01), (a.f_runs, 12.0), (a.f_topics, 3.0)):
        assert got == pytest.approx(want, abs=1e-12)
    assert a.p_runs == pytest.approx(float(stats.f.sf(12.0, 2, 4)), rel=1e-12)  # 0.0202...


def test_hand_worked_tukey():
    # ES_E = (C − A)/√V_E = 0.4/0.1 = 4, (B − A) = 2, (C − B) = 2
    # q(C, A) = 0.4 / √(0.01/3) = 6.9282; p = P(Q_{3,4} ≥ 6.9282)
    t = tukey_hsd(HAND)
    assert t.effect_size[2, 0] == pytest.approx(4.0, abs=1e-9) and t.effect_size[1, 0] == pytest.approx(2.0, abs=1e-9)
    q = 0.4 / math.sqrt(0.01 / 3)
    assert q == pytest.approx(6.928203230, abs=1e-8)
    assert t.p[2, 0] == pytest.approx(float(stats.studentized_range.sf(q, 3, 4)), rel=1e-12)
    assert round(float(t.p[2, 0]), 4) == 0.0175  # as docs/measures.md §12.3 gives it
    half = float(stats.studentized_range.ppf(0.95, 3, 4)) * math.sqrt(0.01 / 3)
    assert t.ci_low[2, 0] == pytest.approx(0.4 - half, abs=1e-12)
    # d_z of C − A: differences 0.4, 0.3, 0.5: mean 0.4, s = 0.1, d_z = 4
    assert paired_effect_size(HAND[:, 2], HAND[:, 0])[0] == pytest.approx(4.0, abs=1e-12)


# ---------------------------------------------------------------- oracles ----


def _shapes(seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    n, m = int(rng.integers(2, 30)), int(rng.integers(2, 9))
    kind = seed % 4
    if kind == 0:
        return rng.random((n, m))
    if kind == 1:
        return rng.integers(0, 3, (n, m)) / 2.0  # ties, rounding halves
    if kind == 2:
        x = rng.random((n, m))
        x[:, 0] = x[:, 1]  # two runs equal on every topic
        return x
    x = rng.random((n, m))
    x[:, -1] = 0.5  # a constant run
    return x


@pytest.mark.parametrize("seed", range(30))
def test_anova_equals_statsmodels(seed):
    x = _shapes(seed)
    n, m = x.shape
    df = pd.DataFrame({"y": x.ravel(), "topic": np.repeat(np.arange(n), m), "run": np.tile(np.arange(m), n)})
    table = anova_lm(ols("y ~ C(run) + C(topic)", df).fit())
    a = anova2(x)
    assert a.ss_runs == pytest.approx(table.loc["C(run)", "sum_sq"], rel=1e-9, abs=1e-12)
    assert a.ss_topics == pytest.approx(table.loc["C(topic)", "sum_sq"], rel=1e-9, abs=1e-12)
    assert a.ss_residual == pytest.approx(table.loc["Residual", "sum_sq"], rel=1e-9, abs=1e-12)
    assert (a.df_runs, a.df_topics, a.df_residual) == (m - 1, n - 1, table.loc["Residual", "df"])
    if a.v_e > 1e-12:
        assert a.f_runs == pytest.approx(table.loc["C(run)", "F"], rel=1e-9)
        assert a.p_runs == pytest.approx(table.loc["C(run)", "PR(>F)"], rel=1e-9, abs=1e-15)
        assert a.p_topics == pytest.approx(table.loc["C(topic)", "PR(>F)"], rel=1e-9, abs=1e-15)


@pytest.mark.parametrize("seed", range(20))
def test_classic_tukey_equals_scipy_studentized_range(seed):
    x = _shapes(seed)
    n, m = x.shape
    t = tukey_hsd(x, level=0.9)
    v_e = anova2(x).v_e
    if v_e < 1e-12:
        return
    se = math.sqrt(v_e / n)
    qc = float(stats.studentized_range.ppf(0.9, m, (m - 1) * (n - 1)))
    for i in range(m):
        for j in range(m):
            if i == j:
                assert t.p[i, j] == 1.0
                continue
            q = abs(x[:, i].mean() - x[:, j].mean()) / se
            assert t.p[i, j] == pytest.approx(float(stats.studentized_range.sf(q, m, (m - 1) * (n - 1))),
                                              rel=1e-9, abs=1e-12)
            assert t.ci_high[i, j] - t.diff[i, j] == pytest.approx(qc * se, rel=1e-12)
    sig = t.p <= 0.1
    for i in range(m):
        for j in range(i + 1, m):
            assert bool(set(t.groups[i]) & set(t.groups[j])) == (not sig[i, j])


@pytest.mark.parametrize("seed", range(10))
def test_two_runs_tukey_is_the_paired_t_test(seed):
    rng = np.random.default_rng(100 + seed)
    x = rng.random((int(rng.integers(3, 40)), 2))
    want = stats.ttest_rel(x[:, 0], x[:, 1]).pvalue
    assert tukey_hsd(x).p[0, 1] == pytest.approx(want, rel=1e-9)


def _brute_force(x: np.ndarray) -> np.ndarray:
    """p(i, j) by an explicit loop over every within-topic permutation (independent of the module)."""
    n, m = x.shape
    perms = list(itertools.permutations(range(m)))
    counts = np.zeros((m, m))
    total = 0
    means = x.mean(axis=0)
    for choice in itertools.product(perms, repeat=n):
        permuted = np.array([x[i, list(p)] for i, p in enumerate(choice)]).mean(axis=0)
        r = permuted.max() - permuted.min()
        counts += r >= np.abs(means[:, None] - means[None, :]) - 1e-12
        total += 1
    return counts / total


@pytest.mark.parametrize("seed", range(6))
def test_randomised_tukey_exact_enumeration(seed):
    rng = np.random.default_rng(seed)
    n = 4 if seed % 2 else 5
    x = rng.integers(0, 5, (n, 3)) / 4.0 if seed % 3 == 0 else rng.random((n, 3))
    t = tukey_hsd(x, randomised=True, samples=10000)
    assert t.exact and t.samples == 6 ** n
    want = _brute_force(x)
    np.fill_diagonal(want, 1.0)
    assert np.allclose(t.p, want, rtol=0, atol=1e-12)


def test_randomised_tukey_monte_carlo_within_its_error():
    rng = np.random.default_rng(7)
    x = rng.random((7, 3))
    exact = tukey_hsd(x, randomised=True, samples=6 ** 7)
    assert exact.exact
    b = 20000
    mc = tukey_hsd(x, randomised=True, samples=b, seed=1)
    assert not mc.exact and mc.samples == b
    for i, j in ((0, 1), (0, 2), (1, 2)):
        p = exact.p[i, j]
        assert abs(mc.p[i, j] - p) <= 4 * math.sqrt(p * (1 - p) / b) + 1e-12


def test_randomised_tukey_seed_and_batches(monkeypatch):
    x = np.random.default_rng(3).random((12, 6))
    a = tukey_hsd(x, randomised=True, samples=3000, seed=5)
    b = tukey_hsd(x, randomised=True, samples=3000, seed=5)
    assert np.array_equal(a.p, b.p) and np.array_equal(a.ci_low, b.ci_low)
    assert not np.array_equal(a.p, tukey_hsd(x, randomised=True, samples=3000, seed=6).p)
    monkeypatch.setattr(A, "_CELLS", 7 * 12 * 6)  # batches of 7 permutations: the same stream
    c = tukey_hsd(x, randomised=True, samples=3000, seed=5)
    assert np.array_equal(a.p, c.p)


def test_randomised_tukey_interval_is_the_range_quantile():
    x = np.random.default_rng(4).random((9, 4))
    t = tukey_hsd(x, randomised=True, samples=2000, seed=2, level=0.9)
    ranges, exact = A._permutation_ranges(x, 2000, 2)
    half = float(np.quantile(ranges, 0.9))
    assert np.allclose(t.ci_high - t.diff, half, atol=0, rtol=0)


# ---------------------------------------------------------------- d_z ----


@pytest.mark.parametrize("seed", range(15))
def test_d_z_interval_solves_its_equations(seed):
    rng = np.random.default_rng(200 + seed)
    n = int(rng.integers(2, 60))
    a, b = rng.random(n), rng.random(n) * rng.uniform(0.2, 1.5)
    level = float(rng.choice([0.9, 0.95, 0.99]))
    dz, low, high = paired_effect_size(a, b, level)
    d = a - b
    assert dz == pytest.approx(d.mean() / np.std(d, ddof=1), rel=1e-12)
    t = dz * math.sqrt(n)
    assert float(special.nctdtr(n - 1, low * math.sqrt(n), t)) == pytest.approx((1 + level) / 2, abs=1e-9)
    assert float(special.nctdtr(n - 1, high * math.sqrt(n), t)) == pytest.approx((1 - level) / 2, abs=1e-9)
    assert low < dz < high


def test_d_z_edge_cases():
    assert all(math.isnan(v) for v in paired_effect_size([0.5], [0.1]))
    assert all(math.isnan(v) for v in paired_effect_size([0.5, 0.2], [0.5, 0.2]))
    dz, low, high = paired_effect_size([0.5, 0.3], [0.4, 0.2])
    assert dz == math.inf and math.isnan(low) and math.isnan(high)


@pytest.mark.parametrize("bad", [np.array([[0.1, math.nan], [0.2, 0.3]]), np.array([[0.1, 0.2]]),
                                 np.array([[0.1], [0.2]]), np.array([0.1, 0.2])])
def test_bad_matrices_are_refused(bad):
    with pytest.raises(ValueError):
        anova2(bad)
    with pytest.raises(ValueError):
        tukey_hsd(bad)


def test_zero_residual_variance():
    x = np.array([[0.1, 0.3], [0.2, 0.4], [0.5, 0.7]])  # run 2 = run 1 + 0.2 on every topic: V_E = 0
    a = anova2(x)
    assert a.v_e == pytest.approx(0.0, abs=1e-15)
    t = tukey_hsd(np.array([[0.0, 0.25], [0.5, 0.75], [0.25, 0.5]]))
    assert t.p[0, 1] == 0.0 and t.groups == ["b", "a"]
