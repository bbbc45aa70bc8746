"""The statistics at the edges of their inputs (found by a fuzz campaign against scipy and statsmodels):
a clear ValueError (ConfigError for the pairwise tests' options) where a number would be wrong, and
the ANOVA telling run means apart as Tukey HSD does (docs/measures.md §12)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats as sp

from inexeval.errors import ConfigError
from inexeval.compare.stats import bootstrap_test, holm_bonferroni, paired_t_test, randomisation_test
from inexeval.stats import anova2, confidence_interval, paired_effect_size, tukey_hsd

X = np.array([[1.0, 0.0], [0.0, 2.0], [3.0, 1.0]])


@pytest.mark.parametrize("scale", [1e-200, 1e-151, 1e151, 1e200])
def test_scores_whose_squares_leave_the_doubles_are_refused(scale):
    """At 1e-200 the squares vanish (V_E = 0: Tukey said p = 0, 'significant'); at 1e200 they overflow
    (p 1, d_z 0). The answers do not depend on the scale; the scale-1 ones are below."""
    x = X * scale
    for call in (lambda: anova2(x), lambda: tukey_hsd(x), lambda: paired_effect_size(x[:, 0], x[:, 1]),
                 lambda: paired_t_test(x[:, 0], x[:, 1]), lambda: randomisation_test(x[:, 0], x[:, 1]),
                 lambda: bootstrap_test(x[:, 0], x[:, 1]), lambda: confidence_interval(x[:, 0])):
        with pytest.raises(ValueError, match="outside 1e-150 to 1e\\+150"):
            call()


@pytest.mark.parametrize("scale", [1e-150, 1.0, 3e149])
def test_within_the_magnitudes_the_answers_do_not_depend_on_the_scale(scale):
    """X's runs: differences 1, -2, 2, mean 1/3, sd sqrt(13/3): t = (1/3) / sqrt(13/9) = 0.27735, 2 df;
    p = 0.8075 (scipy's ttest_rel), which the ANOVA's runs F (= t^2) and Tukey HSD (two runs) give too."""
    x = X * scale
    p = sp.ttest_rel(X[:, 0], X[:, 1]).pvalue
    assert p == pytest.approx(0.8075, abs=5e-5)
    assert anova2(x).p_runs == pytest.approx(p, rel=1e-9)
    assert tukey_hsd(x).p[0, 1] == pytest.approx(p, rel=1e-9)
    assert paired_t_test(x[:, 0], x[:, 1]) == pytest.approx(p, rel=1e-9)
    assert paired_effect_size(x[:, 0], x[:, 1])[0] == pytest.approx(paired_effect_size(X[:, 0], X[:, 1])[0], rel=1e-9)


def test_the_largest_doubles_are_refused_not_summed_to_infinity():
    """Finite scores whose differences overflow: the randomisation test answered p = 0 (impossible: the
    identity permutation always counts) and the interval raised OverflowError from fsum."""
    a, b = [1.5e308, 1.6e308], [-1.5e308, -1e308]
    for call in (lambda: randomisation_test(a, b), lambda: bootstrap_test(a, b), lambda: paired_t_test(a, b),
                 lambda: confidence_interval([1.7e308, 1.7e308])):
        with pytest.raises(ValueError, match="outside"):
            call()


def test_anova_tells_run_means_apart_as_tukey_does():
    """A large common offset makes the tolerance 1e-9 x 1e8 = 0.1: the two run means (0.41667 and
    0.54167 above 1e8) differ by 0.125, more than it, so Tukey HSD compares them; the ANOVA set SS_runs
    to 0 because each mean is within 0.0625 of the grand mean (p 1.0). Now both give the paired t
    test's p (0.7295, the exact value of these numbers)."""
    x = 1e8 + np.array([[0.125, 0.5], [0.75, 0.25], [0.375, 0.875]])
    exact = sp.ttest_rel([0.125, 0.75, 0.375], [0.5, 0.25, 0.875]).pvalue
    assert exact == pytest.approx(0.7295, abs=5e-5)
    assert anova2(x).p_runs == pytest.approx(exact, rel=1e-6)
    assert tukey_hsd(x).p[0, 1] == pytest.approx(exact, rel=1e-6)
    same = 1e8 + np.array([[0.125, 0.125 + 0.05], [0.75, 0.75 + 0.05], [0.375, 0.375 + 0.05]])
    assert anova2(same).ss_runs == 0.0 and tukey_hsd(same).p[0, 1] == 1.0  # (0.05 within 0.1: equal for both)


@pytest.mark.parametrize("samples", [2.0, float("inf"), float("nan"), True, 0, -3, "10"])
def test_a_number_of_samples_that_is_not_a_positive_int_is_refused_where_given(samples):
    a, b = [0.1, 0.5, 0.3], [0.2, 0.1, 0.6]
    with pytest.raises(ValueError, match="number of samples must be a positive integer"):
        confidence_interval(a, "bootstrap", samples=samples)
    with pytest.raises(ValueError, match="number of samples must be a positive integer"):
        tukey_hsd(np.array([a, b]).T, randomised=True, samples=samples)
    for test in (randomisation_test, bootstrap_test):
        with pytest.raises(ConfigError, match="number of samples must be a positive integer"):
            test(a, b, samples=samples)


def test_numpy_integers_are_counts():
    a, b = [0.1, 0.5, 0.3], [0.2, 0.1, 0.6]
    assert randomisation_test(a, b, samples=np.int64(8)) == randomisation_test(a, b, samples=8)
    lo, hi = confidence_interval(a, "bootstrap", samples=np.uint16(50))
    assert (lo, hi) == confidence_interval(a, "bootstrap", samples=50)


@pytest.mark.parametrize("bad, why", [([[0.1, 0.01], [0.2, 0.3]], "one-dimensional"), ([-0.1, 0.01], "lie in"),
                                      ([0.5, 1.5], "lie in")])
def test_holm_takes_a_vector_of_p_values(bad, why):
    with pytest.raises(ValueError, match=why):
        holm_bonferroni(bad)
    got = holm_bonferroni([0.01, math.nan, 0.04, 0.0, 1.0])  # (NaN stays NaN and does not count: m = 4)
    assert np.allclose(got, [0.03, math.nan, 0.08, 0.0, 1.0], equal_nan=True, rtol=0, atol=1e-15)
