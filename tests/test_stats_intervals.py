"""Confidence intervals on a mean (docs/measures.md §12.1): the API, the evaluation's ``--ci`` (tables,
summary.tsv/json, --format trec_eval) and the trec-eval drop-in's ``-C``.

Oracles: scipy.stats.t.interval at 1e-9; Sakai's textbook (the margin of error of the paired
differences X − Y, ../shared/data/sakai-book); the percentile bootstrap reproduced from the same
random stream, and against the exact bootstrap distribution (every one of the n^n resamples)
within Monte Carlo error.
"""

from __future__ import annotations

import csv
import itertools
import math
import os
from pathlib import Path

import numpy as np
import pytest
from scipy import stats

from inexeval.compare.intervals import confidence_interval, half_width, interval_text, run_intervals, IntervalOptions


def _shared() -> Path:
    env = os.environ.get("INEXEVAL_SHARED")
    return Path(env) if env else Path(__file__).resolve().parents[2] / "shared"


BOOK = _shared() / "data" / "sakai-book"
needs_book = pytest.mark.skipif(not (BOOK / "X.csv").is_file(), reason=f"Sakai's textbook data not found in {BOOK} "
                                "(set INEXEVAL_SHARED to the folder holding data/)")


def book_run(name: str) -> np.ndarray:
    with open(BOOK / f"{name}.csv", newline="") as f:
        return np.array([float(row["ndcg@5"]) for row in csv.DictReader(f)])


# ---------------------------------------------------------------- hand-worked ----


def test_t_interval_by_hand():
    # values 0.2, 0.4, 0.6: mean 0.4, s² = ((−0.2)² + 0 + 0.2²)/2 = 0.04, s = 0.2,
    # s/√3 = 0.115470053837925; t(0.975, 2) = 4.302652729749464: with 2 degrees of freedom
    # t_p = (2p − 1)·√(2 / (4p(1 − p))) = 0.95 × √(2 / 0.0975) exactly;
    # half-width = 4.302652729749464 × 0.115470053837925 = 0.4968275...
    t = 0.95 * math.sqrt(2 / 0.0975)
    assert t == pytest.approx(4.302652729749464, abs=1e-14)
    half = t * 0.2 / math.sqrt(3)
    low, high = confidence_interval([0.2, 0.4, 0.6])
    # (1e-10: scipy's stdtrit before 1.16, the last for Python 3.10, is 1.5e-12 off here; 1.16 is exact)
    assert low == pytest.approx(0.4 - half, abs=1e-10) and high == pytest.approx(0.4 + half, abs=1e-10)
    assert half == pytest.approx(0.4968275, abs=1e-7)
    assert interval_text(0.4, (low, high), True) == "0.4000 ±0.4968"
    assert interval_text(0.4, (0.25, 0.5), False) == "0.4000 [0.2500, 0.5000]"


@needs_book
def test_sakai_margin_of_error_of_the_paired_differences():
    # the book: X − Y has mean 0.0750 and a 95 % margin of error 0.0742 (CI = mean ± 0.0742)
    d = book_run("X") - book_run("Y")
    assert round(float(d.mean()), 4) == 0.0750
    assert round(half_width(d), 4) == 0.0742
    low, high = confidence_interval(d)
    assert round(low, 4) == round(0.0750 - 0.0742, 4) and round(high, 4) == round(0.0750 + 0.0742, 4)


@needs_book
def test_sakai_margin_of_error_of_a_run_mean_from_v_e():
    # the book: t(0.975, 38) · √(V_E / 20) = 0.0670 with V_E = 0.8317 / 38 (the two-way ANOVA residual)
    x = np.column_stack([book_run(n) for n in "XYZ"])
    resid = x - x.mean(axis=1, keepdims=True) - x.mean(axis=0) + x.mean()
    v_e = float((resid ** 2).sum()) / 38
    assert round(float(stats.t.ppf(0.975, 38)) * math.sqrt(v_e / 20), 4) == 0.0670


# ---------------------------------------------------------------- oracles ----


@pytest.mark.parametrize("seed", range(40))
def test_t_interval_equals_scipy(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 60))
    level = float(rng.choice([0.8, 0.9, 0.95, 0.99, rng.uniform(0.5, 0.999)]))
    kind = seed % 4
    v = (rng.random(n) if kind == 0 else rng.integers(0, 3, n) / 2.0 if kind == 1  # ties, rounding halves
         else np.full(n, 0.25) + (rng.random(n) < 0.1) * 1e-12 if kind == 2 else rng.normal(0, 100, n))
    low, high = confidence_interval(v, "t", level)
    sem = stats.sem(v)
    if sem == 0:
        assert low == high == pytest.approx(v.mean(), abs=1e-15)
        return
    want = stats.t.interval(level, n - 1, loc=v.mean(), scale=sem)
    assert low == pytest.approx(want[0], rel=1e-9, abs=1e-12) and high == pytest.approx(want[1], rel=1e-9, abs=1e-12)


def test_bootstrap_reproduces_its_random_stream():
    # indices floor(n·u) of u = default_rng(seed).random((B, n)) in one piece: batches do not change them
    rng = np.random.default_rng(7)
    v = rng.random(13)
    b = 5000
    u = np.random.default_rng(3).random((b, v.size))
    means = v[np.minimum((u * v.size).astype(np.int64), v.size - 1)].mean(axis=1)
    want = np.quantile(means, [(1 - 0.9) / 2, (1 + 0.9) / 2])  # the documented probabilities
    assert confidence_interval(v, "bootstrap", 0.9, samples=b, seed=3) == (want[0], want[1])


def test_bootstrap_within_monte_carlo_error_of_the_exact_distribution():
    # n = 5: every one of the 5^5 = 3125 resamples enumerated gives the exact bootstrap distribution;
    # with B = 20000 the percentile bounds agree to within a few steps of that distribution
    v = np.array([0.1, 0.35, 0.4, 0.8, 0.95])
    all_means = np.array([v[list(ix)].mean() for ix in itertools.product(range(5), repeat=5)])
    exact = np.quantile(all_means, [0.025, 0.975])
    low, high = confidence_interval(v, "bootstrap", samples=20000, seed=11)
    # the CDF of the exact distribution at the estimated bound is within 4 standard errors of 2.5 %
    se = math.sqrt(0.025 * 0.975 / 20000)
    for bound, p in ((low, 0.025), (high, 0.975)):
        below = float(np.mean(all_means < bound))
        at_most = float(np.mean(all_means <= bound))
        assert below - 4 * se <= p <= at_most + 4 * se, (bound, below, at_most)
    assert abs(low - exact[0]) < 0.05 and abs(high - exact[1]) < 0.05


def test_bootstrap_seed_gives_the_same_bytes_and_another_seed_other_ones():
    v = np.random.default_rng(1).random(30)
    a = confidence_interval(v, "bootstrap", seed=5)
    assert a == confidence_interval(v, "bootstrap", seed=5)
    assert a != confidence_interval(v, "bootstrap", seed=6)


@pytest.mark.parametrize("method", ["t", "bootstrap"])
def test_fewer_than_two_values_have_no_interval(method):
    for v in ([], [0.5]):
        low, high = confidence_interval(v, method)
        assert math.isnan(low) and math.isnan(high)


@pytest.mark.parametrize("bad", [[0.1, math.nan], [0.1, math.inf]])
def test_undefined_values_are_refused(bad):
    with pytest.raises(ValueError, match="finite"):
        confidence_interval(bad)


@pytest.mark.parametrize("kwargs,match", [({"method": "z"}, "method"), ({"level": 1.0}, "level"),
                                          ({"level": 0}, "level"), ({"samples": 0}, "samples"),
                                          ({"samples": 2.5}, "samples")])
def test_bad_parameters_are_refused(kwargs, match):
    with pytest.raises(ValueError, match=match):
        confidence_interval([0.1, 0.2, 0.3], **kwargs)


def test_run_intervals_guard_leaves_out_an_average_that_is_not_the_mean():
    per_topic = {"1": {"a": 0.2, "b": 0.5}, "2": {"a": 0.4, "b": None}, "3": {"a": 0.9, "b": 0.7}}
    got, left = run_intervals(per_topic, {"a": 0.5, "b": 0.2}, ["a", "b"], IntervalOptions())
    assert left == ["b"]  # the mean of b's defined values is 0.6, not the 0.2 reported
    assert got["a"] == confidence_interval([0.2, 0.4, 0.9])
