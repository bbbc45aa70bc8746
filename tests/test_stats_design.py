"""Topic set size design and power (inexeval/compare/design.py, docs/measures.md §12.6).

Oracles: statsmodels' TTestPower and FTestAnovaPower (power at 1e-9; the topic set size is the
smallest n whose statsmodels power reaches the target), the powers by quadrature over the χ² of
the variance estimate (no noncentral distribution: where scipy's noncentral t is NaN in a far tail,
and as a second oracle), statsmodels' OLS for V_E (residual
variance of topic + run), an independent scan with math.lgamma for the CI-based design, and the
hand-worked example of §12.6.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from inexeval.compare import design
from inexeval.compare.design import (
    MAX_TOPICS,
    achieved_power,
    min_detectable_difference,
    pooled_variance,
    topic_set_size,
)

statsmodels_power = pytest.importorskip("statsmodels.stats.power")
TTestPower = statsmodels_power.TTestPower
FTestAnovaPower = statsmodels_power.FTestAnovaPower


def sm_t_power(variance, n, diff, alpha):
    """statsmodels' power, or, where it is NaN (scipy's noncentral t NaN in a far tail), the
    quadrature below."""
    got = float(TTestPower().power(effect_size=diff / math.sqrt(2 * variance), nobs=n, alpha=alpha,
                                   alternative="two-sided"))
    return got if math.isfinite(got) else quad_t_power(variance, n, diff, alpha)


def sm_anova_power(variance, n, diff, alpha, m):
    """statsmodels' power, or, where it is NaN, the quadrature below."""
    f = math.sqrt(diff ** 2 / (2 * variance * m))
    got = float(FTestAnovaPower().power(effect_size=f, nobs=m * n, alpha=alpha, k_groups=m))
    return got if math.isfinite(got) else quad_anova_power(variance, n, diff, alpha, m)


def _over_chi2(integrand, df):
    """∫ integrand(v) χ²_df(v) dv over the central 1 − 2e-17 of the χ² (to about 1e-12: quad's
    round-off warnings near a power of 1 are expected and silenced)."""
    import warnings

    from scipy import integrate

    lo, hi = stats.chi2.ppf(1e-17, df), stats.chi2.isf(1e-17, df)
    mode = min(max(df - 2.0, lo), hi)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", integrate.IntegrationWarning)
        return sum(integrate.quad(lambda v: integrand(v) * stats.chi2.pdf(v, df), a, b,
                                  epsabs=1e-13, epsrel=1e-12, limit=400)[0]
                   for a, b in ((lo, mode), (mode, hi)) if b > a)


def quad_t_power(variance, n, diff, alpha):
    """The two-sided t power without the noncentral t: with V ~ χ²(n − 1) and s = σ_t √(V/(n − 1)),
    T' = (Z + nc)/√(V/(n − 1)), so power = E_V[Φ(nc − t √(V/(n−1))) + Φ(−t √(V/(n−1)) − nc)]."""
    return quad_nct_power(math.sqrt(n) * diff / math.sqrt(2 * variance), n - 1, alpha)


def quad_nct_power(nc, df, alpha):
    t = stats.t.isf(alpha / 2, df)
    return _over_chi2(lambda v: stats.norm.cdf(nc - t * math.sqrt(v / df)) + stats.norm.cdf(-t * math.sqrt(v / df) - nc),
                      df)


def quad_anova_power(variance, n, diff, alpha, m):
    """The ANOVA power without the noncentral F: F' = (χ'²(m−1, λ)/(m−1)) / (V/(m(n−1))), so
    power = E_V[P(χ'²(m−1, λ) ≥ F_crit (m−1) V/(m(n−1)))] (scipy's ncx2)."""
    df1, df2 = m - 1, m * (n - 1)
    lam = n * diff ** 2 / (2 * variance)
    crit = stats.f.isf(alpha, df1, df2)
    return _over_chi2(lambda v: stats.ncx2.sf(crit * df1 * v / df2, df1, lam), df2)


def reached(value, target):
    """The module's 'power >= target' with the relative tolerance 1e-9 (docs/measures.md §10.3)."""
    return value >= target - 1e-9 * target


def draws(seed, count):
    rng = np.random.default_rng(seed)
    for _ in range(count):
        yield (10 ** rng.uniform(-3, 0),       # σ²
               10 ** rng.uniform(-2.5, 0),     # difference
               float(rng.choice([0.001, 0.01, 0.05, 0.1, rng.uniform(0.001, 0.5)])),  # α
               int(rng.integers(2, 60)))       # runs


# ---------------------------------------------------------------------------
# Power equals statsmodels


def test_t_power_equals_statsmodels():
    rng = np.random.default_rng(11)
    for variance, diff, alpha, _ in draws(1, 400):
        n = int(rng.choice([2, 3, 5, int(rng.integers(2, 200)), int(rng.integers(2, 20000))]))
        assert achieved_power(variance, n, diff, alpha) == pytest.approx(sm_t_power(variance, n, diff, alpha),
                                                                         abs=1e-9, rel=0)


def test_anova_power_equals_statsmodels():
    rng = np.random.default_rng(12)
    for variance, diff, alpha, m in draws(2, 400):
        n = int(rng.choice([2, 3, int(rng.integers(2, 200)), int(rng.integers(2, 20000))]))
        got = achieved_power(variance, n, diff, alpha, method="anova", runs=m)
        want = sm_anova_power(variance, n, diff, alpha, m)
        assert got == pytest.approx(want, abs=1e-9, rel=0)


@pytest.mark.parametrize("variance, n, diff, alpha", [
    (0.0026162207, 78, 0.3261064017, 0.05),    # noncentrality 50: scipy's lower tail is NaN
    (0.02, 78, 0.2264554068, 0.05),            # df 77, noncentrality 10: NaN as well
    (0.5, 1001, 0.6324555320, 0.05),           # df 1000, noncentrality 20: NaN as well
    (0.1, 11, 0.2, 0.3), (0.1, 30, 0.05, 0.01), (0.3, 5, 0.4, 0.9), (0.05, 200, 0.03, 0.05),
])
def test_t_power_equals_quadrature(variance, n, diff, alpha):
    assert achieved_power(variance, n, diff, alpha) == pytest.approx(quad_t_power(variance, n, diff, alpha),
                                                                     abs=1e-9, rel=0)


@pytest.mark.parametrize("variance, n, diff, alpha, m", [
    (0.1, 11, 0.2, 0.05, 3), (0.02, 40, 0.1, 0.01, 10), (0.3, 5, 0.4, 0.5, 2), (0.05, 300, 0.05, 0.05, 40),
])
def test_anova_power_equals_quadrature(variance, n, diff, alpha, m):
    got = achieved_power(variance, n, diff, alpha, method="anova", runs=m)
    assert got == pytest.approx(quad_anova_power(variance, n, diff, alpha, m), abs=1e-9, rel=0)


def test_anova_with_two_runs_is_the_squared_unpaired_t():
    # m = 2: F = t² of the two-sample t-test on 2(n − 1) df, effect diff/σ per group of n topics.
    for variance, diff, alpha, _ in draws(3, 20):
        n = 17
        nc = diff / math.sqrt(variance) * math.sqrt(n / 2)
        df = 2 * (n - 1)
        expected = quad_nct_power(nc, df, alpha)
        got = achieved_power(variance, n, diff, alpha, method="anova", runs=2)
        assert got == pytest.approx(expected, abs=1e-9, rel=0)


def test_power_grows_with_topics_and_difference():
    for method, runs in (("t", 2), ("anova", 5)):
        by_n = [achieved_power(0.05, n, 0.05, method=method, runs=runs) for n in range(2, 400)]
        assert all(a < b for a, b in zip(by_n, by_n[1:]))
        by_d = [achieved_power(0.05, 30, d, method=method, runs=runs) for d in np.linspace(0.001, 0.3, 200)]
        assert all(a < b for a, b in zip(by_d, by_d[1:]))


# ---------------------------------------------------------------------------
# Topic set size: the smallest n


def test_topic_set_size_t_is_smallest_by_statsmodels():
    rng = np.random.default_rng(21)
    checked = 0
    for variance, diff, alpha, _ in draws(4, 300):
        power = float(rng.choice([0.5, 0.8, 0.9, 0.95, rng.uniform(0.05, 0.99)]))
        if diff / math.sqrt(2 * variance) < 0.03:      # keep n in the tens of thousands at most
            continue
        n = topic_set_size(variance, diff, alpha, power)
        assert reached(sm_t_power(variance, n, diff, alpha), power)
        if n > 2:
            assert not reached(sm_t_power(variance, n - 1, diff, alpha), power)
        checked += 1
    assert checked > 100


def test_topic_set_size_anova_is_smallest_by_statsmodels():
    rng = np.random.default_rng(22)
    checked = 0
    for variance, diff, alpha, m in draws(5, 300):
        power = float(rng.choice([0.5, 0.8, 0.9, rng.uniform(0.05, 0.99)]))
        if diff / math.sqrt(2 * variance) < 0.03:
            continue
        n = topic_set_size(variance, diff, alpha, power, method="anova", runs=m)
        assert reached(sm_anova_power(variance, n, diff, alpha, m), power)
        if n > 2:
            assert not reached(sm_anova_power(variance, n - 1, diff, alpha, m), power)
        checked += 1
    assert checked > 100


def test_a_low_target_is_met_by_two_topics():
    assert topic_set_size(0.01, 1.0, power=0.5) == 2
    assert topic_set_size(0.01, 1.0, power=0.5, method="anova", runs=4) == 2
    assert topic_set_size(0.01, 100.0, method="ci") == 2


def expected_width(variance, n, alpha):
    """2 t_{1−α/2,n−1} √(2σ²/n) E[s]/σ_t, E[s]/σ_t = √(2/(n−1)) Γ(n/2)/Γ((n−1)/2), written anew."""
    c4 = math.sqrt(2 / (n - 1)) * math.exp(math.lgamma(n / 2) - math.lgamma((n - 1) / 2))
    return 2 * stats.t.ppf(1 - alpha / 2, n - 1) * math.sqrt(2 * variance / n) * c4


def test_topic_set_size_ci_is_smallest_by_a_scan():
    rng = np.random.default_rng(23)
    for _ in range(150):
        variance = 10 ** rng.uniform(-3, 0)
        width = 10 ** rng.uniform(-1.3, 0.5) * math.sqrt(variance)
        alpha = float(rng.choice([0.01, 0.05, 0.1, rng.uniform(0.001, 0.5)]))
        n = topic_set_size(variance, width, alpha, method="ci")
        assert expected_width(variance, n, alpha) <= width * (1 + 1e-9)
        if n > 2:
            assert expected_width(variance, n - 1, alpha) > width * (1 + 1e-9)
        # ci_width given explicitly; min_diff then plays no part; power is unused
        assert topic_set_size(variance, 123.0, alpha, 0.3, method="ci", ci_width=width) == n


def test_ci_width_shrinks_with_topics():
    widths = [design._expected_ci_width(0.1, n, 0.05) for n in range(2, 5000)]
    assert all(a > b for a, b in zip(widths, widths[1:]))


def test_ci_width_uses_the_gamma_correction():
    # E[s] < σ: with the Γ factor the expected width is smaller than with s replaced by σ, so the
    # required n is at most the one the plain formula gives.
    variance, width = 0.05, 0.1
    n = topic_set_size(variance, width, method="ci")
    plain = [m for m in range(2, 10000)
             if 2 * stats.t.ppf(0.975, m - 1) * math.sqrt(2 * variance / m) <= width][0]
    assert expected_width(variance, n, 0.05) <= width < expected_width(variance, n - 1, 0.05)
    assert n <= plain


def test_round_trips_between_difference_power_and_size():
    rng = np.random.default_rng(31)
    for variance, _, alpha, m in draws(6, 120):
        topics = int(rng.choice([2, 3, 10, 50, int(rng.integers(2, 3000))]))
        power = float(rng.choice([0.8, 0.9, rng.uniform(alpha + 0.01, 0.99)])) if alpha < 0.5 else 0.9
        for method in ("t", "anova"):
            diff = min_detectable_difference(variance, topics, alpha, power, method=method, runs=m)
            assert achieved_power(variance, topics, diff, alpha, method=method, runs=m) == pytest.approx(
                power, abs=1e-9, rel=0)
            # the difference a design of `topics` topics detects needs exactly `topics` topics
            assert topic_set_size(variance, diff, alpha, power, method=method, runs=m) == topics


def test_min_detectable_difference_has_the_power_by_statsmodels():
    # (statsmodels' own solve_power stops at about 1e-6 relative: its power at our root is the check)
    for variance, topics, m in ((0.1, 50, 2), (0.02, 10, 3), (0.3, 200, 40)):
        diff = min_detectable_difference(variance, topics)
        assert sm_t_power(variance, topics, diff, 0.05) == pytest.approx(0.8, abs=1e-9, rel=0)
        diff = min_detectable_difference(variance, topics, method="anova", runs=m)
        assert sm_anova_power(variance, topics, diff, 0.05, m) == pytest.approx(0.8, abs=1e-9, rel=0)


# ---------------------------------------------------------------------------
# The hand-worked example of docs/measures.md §12.6


A = [[0.5, 0.2], [0.4, 0.3], [0.2, 0.3]]
B = [[0.6, 0.4, 0.2], [0.2, 0.2, 0.2], [0.4, 0.3, 0.2]]


def test_hand_example_variance():
    # A, 3 topics × 2 runs: d_i = x_i1 − x_i2 = 0.3, 0.1, −0.1, d̄ = 0.1; with two runs the residual
    # is e_i1 = −e_i2 = (d_i − d̄)/2 = 0.1, 0, −0.1, so SS_res = 2 (0.01 + 0 + 0.01) = 0.04 on
    # (3 − 1)(2 − 1) = 2 df: V_E = 0.02 (= s_d²/2, s_d² = 0.08/2 = 0.04).
    assert pooled_variance(A) == pytest.approx(0.02, abs=1e-9)
    # B, 3 × 3: row means 0.4, 0.2, 0.3; column means 0.4, 0.3, 0.2; grand mean 0.3.
    # Residuals: row 1: 0.6 − 0.4 − 0.4 + 0.3 = 0.1, 0.4 − 0.4 − 0.3 + 0.3 = 0, 0.2 − 0.4 − 0.2 + 0.3 = −0.1;
    # row 2: −0.1, 0, 0.1; row 3: 0, 0, 0.  SS_res = 4 × 0.01 = 0.04 on 2 × 2 = 4 df: V_E = 0.01.
    assert pooled_variance(B) == pytest.approx(0.01, abs=1e-9)
    # Pooled: (0.04 + 0.04) / (2 + 4) = 1/75 = 0.013333..., not the mean (0.02 + 0.01)/2 = 0.015.
    assert pooled_variance([A, B]) == pytest.approx(1 / 75, abs=1e-9)


def test_hand_example_ci_design():
    # σ² = 0.02: σ_t² = 2σ² = 0.04, σ_t = 0.2; cap 0.4 on the width of the 95% CI.
    # E[width](n) = 2 t_{0.975,n−1} √(0.04/n) c4(n) = 0.4 t c4/√n with
    #   c4(5) = √(2/4) Γ(5/2)/Γ(2) = 3√π/(4√2) = 0.939985603,  t_{0.975,4} = 2.776445105
    #   c4(6) = √(2/5) Γ(3)/Γ(5/2) = 8√0.4/(3√π) = 0.951532862, t_{0.975,5} = 2.570581836
    #   n = 5: 0.4 × 2.776445105 × 0.939985603 / √5 = 0.466858513 > 0.4
    #   n = 6: 0.4 × 2.570581836 × 0.951532862 / √6 = 0.399428999 ≤ 0.4   → 6 topics.
    c4_5 = 3 * math.sqrt(math.pi) / (4 * math.sqrt(2))
    c4_6 = 8 * math.sqrt(0.4) / (3 * math.sqrt(math.pi))
    assert c4_5 == pytest.approx(0.939985603, abs=1e-9)
    assert c4_6 == pytest.approx(0.951532862, abs=1e-9)
    assert design._expected_ci_width(0.02, 5, 0.05) == pytest.approx(0.4 * 2.7764451051977943 * c4_5 / math.sqrt(5),
                                                                     abs=1e-9)
    assert design._expected_ci_width(0.02, 5, 0.05) == pytest.approx(0.466858513, abs=1e-9)
    assert design._expected_ci_width(0.02, 6, 0.05) == pytest.approx(0.399428999, abs=1e-9)
    assert topic_set_size(0.02, 0.4, method="ci") == 6


def test_hand_example_power_designs():
    # σ² = 0.02, min_diff = 0.2, α = 0.05, power 0.8.
    # t: δ = 0.2/√0.04 = 1; noncentrality √n; power(9) = 0.748017092, power(10) = 0.803096857 → 10.
    assert achieved_power(0.02, 9, 0.2) == pytest.approx(0.748017092, abs=1e-9)
    assert achieved_power(0.02, 10, 0.2) == pytest.approx(0.803096857, abs=1e-9)
    assert topic_set_size(0.02, 0.2) == 10
    # ANOVA over m = 3 runs: λ = n × 0.2²/(2 × 0.02) = n, df (2, 3(n − 1));
    # power(10) = 0.767353621 (λ = 10, df (2, 27)), power(11) = 0.812816608 (λ = 11, df (2, 30)) → 11.
    assert achieved_power(0.02, 10, 0.2, method="anova", runs=3) == pytest.approx(0.767353621, abs=1e-9)
    assert achieved_power(0.02, 11, 0.2, method="anova", runs=3) == pytest.approx(0.812816608, abs=1e-9)
    assert topic_set_size(0.02, 0.2, method="anova", runs=3) == 11
    # With 10 topics the t-test detects 0.199200274 with power 0.8 (just under 0.2, whose power is 0.803).
    assert min_detectable_difference(0.02, 10) == pytest.approx(0.199200274, abs=1e-9)


# ---------------------------------------------------------------------------
# pooled_variance against statsmodels OLS (topic + run, no interaction)


def ols_residual(x):
    import pandas as pd
    from statsmodels.formula.api import ols

    n, m = x.shape
    frame = pd.DataFrame({"y": x.ravel(), "topic": np.repeat(np.arange(n), m).astype(str),
                          "run": np.tile(np.arange(m), n).astype(str)})
    fit = ols("y ~ C(topic) + C(run)", data=frame).fit()
    return float(fit.ssr), int(round(fit.df_resid))


def test_pooled_variance_equals_ols_residual_variance():
    pytest.importorskip("pandas")
    rng = np.random.default_rng(41)
    mats = []
    for _ in range(12):
        n, m = int(rng.integers(2, 25)), int(rng.integers(2, 9))
        x = rng.random((n, m)) * rng.choice([1, 0.01, 30]) + rng.normal(size=(n, 1))
        ss, df = ols_residual(x)
        assert df == (n - 1) * (m - 1)
        assert pooled_variance(x) == pytest.approx(ss / df, abs=1e-9, rel=1e-9)
        mats.append((x, ss, df))
    pooled = sum(ss for _, ss, _ in mats) / sum(df for _, _, df in mats)
    assert pooled_variance([x for x, _, _ in mats]) == pytest.approx(pooled, abs=1e-9, rel=1e-9)


def test_pooled_variance_input_forms():
    x = np.array(A)
    v = pooled_variance(x)
    assert pooled_variance(A) == v                       # list of lists: one matrix
    assert pooled_variance([x]) == v                     # a list of one matrix
    assert pooled_variance((x, x)) == pytest.approx(v, abs=1e-15)
    assert pooled_variance(np.stack([x, x])) == pytest.approx(v, abs=1e-15)   # 3-D: a stack
    # adding a topic effect and a run effect changes nothing (they are what V_E removes)
    assert pooled_variance(x + np.array([[1.0], [2.0], [-3.0]]) + np.array([5.0, -1.0])) == pytest.approx(v, abs=1e-12)


@pytest.mark.parametrize("bad", [
    [[0.1, 0.2]],                       # one topic
    [[0.1], [0.2]],                     # one run
    [0.1, 0.2, 0.3],                    # a vector
    [[0.1, float("nan")], [0.2, 0.3]],  # undefined value
    [[0.1, float("inf")], [0.2, 0.3]],
    [],
])
def test_pooled_variance_rejects(bad):
    with pytest.raises(ValueError):
        pooled_variance(bad)


def test_pooled_variance_names_the_bad_matrix():
    with pytest.raises(ValueError, match="matrix 2"):
        pooled_variance([np.array(A), np.array([[0.1, 0.2]])])


# ---------------------------------------------------------------------------
# Arguments


@pytest.mark.parametrize("kwargs, message", [
    (dict(variance=0), "variance"),
    (dict(variance=-0.1), "variance"),
    (dict(variance=float("nan")), "variance"),
    (dict(variance="0.1"), "variance"),
    (dict(min_diff=0), "min_diff"),
    (dict(min_diff=-1), "min_diff"),
    (dict(alpha=0), "alpha"),
    (dict(alpha=1), "alpha"),
    (dict(alpha=1.5), "alpha"),
    (dict(power=0), "power"),
    (dict(power=1), "power"),
    (dict(runs=1), "runs"),
    (dict(runs=2.5), "runs"),
    (dict(runs=True), "runs"),
    (dict(method="z"), "method"),
    (dict(method="ci", ci_width=0), "ci_width"),
    (dict(method="t", ci_width=0.1), "ci_width"),
])
def test_topic_set_size_rejects(kwargs, message):
    args = dict(variance=0.1, min_diff=0.1)
    args.update(kwargs)
    with pytest.raises(ValueError, match=message):
        topic_set_size(**args)


@pytest.mark.parametrize("kwargs, message", [
    (dict(topics=1), "topics"),
    (dict(topics=10.5), "topics"),
    (dict(variance=0), "variance"),
    (dict(method="ci"), "method"),
    (dict(alpha=0.9, power=0.8), "exceed alpha"),
    (dict(power=1.0), "power"),
])
def test_min_detectable_difference_rejects(kwargs, message):
    args = dict(variance=0.1, topics=10)
    args.update(kwargs)
    with pytest.raises(ValueError, match=message):
        min_detectable_difference(**args)


@pytest.mark.parametrize("kwargs, message", [
    (dict(diff=0), "diff"),
    (dict(topics=1), "topics"),
    (dict(method="ci"), "method"),
    (dict(runs=0), "runs"),
])
def test_achieved_power_rejects(kwargs, message):
    args = dict(variance=0.1, topics=10, diff=0.1)
    args.update(kwargs)
    with pytest.raises(ValueError, match=message):
        achieved_power(**args)


def test_integral_floats_and_numpy_numbers_are_accepted():
    assert topic_set_size(np.float64(0.02), 0.2, runs=np.int64(3), method="anova") == 11
    assert achieved_power(0.02, 10.0, 0.2) == achieved_power(0.02, 10, 0.2)


def test_more_topics_than_the_cap_raise():
    with pytest.raises(ValueError, match=f"more than {MAX_TOPICS} topics"):
        topic_set_size(0.1, 0.0001)
    with pytest.raises(ValueError, match="more than"):
        topic_set_size(0.1, 0.0001, method="anova", runs=10)
    with pytest.raises(ValueError, match="more than"):
        topic_set_size(0.1, 0.0001, method="ci")
    # just under the cap is found (δ = 0.003/√0.2: about 174,000 topics)
    n = topic_set_size(0.1, 0.003)
    assert 100_000 < n < MAX_TOPICS
    assert reached(sm_t_power(0.1, n, 0.003, 0.05), 0.8) and not reached(sm_t_power(0.1, n - 1, 0.003, 0.05), 0.8)
