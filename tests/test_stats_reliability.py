"""Measure reliability (docs/measures.md §12.7): discriminative power with its ASL curve, and swap
rates, against the project's paired bootstrap test pair by pair, randomised Tukey HSD, brute-force
loops over the same random subsets, and hand-worked cases."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from inexeval.compare import reliability as R
from inexeval.compare.reliability import discriminative_power, swap_rate
from inexeval.compare.stats import bootstrap_test


@pytest.mark.parametrize("seed", range(12))
def test_bootstrap_p_values_are_the_pairwise_tests(seed):
    rng = np.random.default_rng(seed)
    n, m = int(rng.integers(2, 30)), int(rng.integers(2, 7))
    x = rng.random((n, m)) if seed % 3 else rng.integers(0, 3, (n, m)) / 2.0
    if seed % 4 == 0:
        x[:, 1] = x[:, 0]  # identical runs: p = 1
    samples = int(rng.choice([1, 7, 300, 2500]))
    dp = discriminative_power(x, samples=samples, seed=seed)
    for i in range(m):
        for j in range(i + 1, m):
            assert dp.p[i, j] == bootstrap_test(x[:, i], x[:, j], samples=samples, seed=seed)
            assert dp.p[j, i] == dp.p[i, j]
    assert list(dp.asl) == sorted(dp.p[np.triu_indices(m, 1)].tolist())
    assert dp.share == np.mean(dp.p[np.triu_indices(m, 1)] <= 0.05)


def test_randomised_tukey_discriminative_power():
    tukey_hsd = pytest.importorskip("inexeval.compare.anova").tukey_hsd  # (written beside this module)
    x = np.random.default_rng(3).random((15, 5))
    dp = discriminative_power(x, test="randomised-tukey", samples=500, seed=4)
    t = tukey_hsd(x, randomised=True, samples=500, seed=4)
    iu = np.triu_indices(5, 1)
    assert np.array_equal(dp.p[iu], t.p[iu])
    assert dp.share == np.mean(t.p[iu] <= 0.05)


def test_discriminative_power_by_hand():
    # three runs, 2 topics: A = (1, 1), B = (0, 0), C = (0, 0). A − B and A − C are 1 on both topics;
    # shifted to the null hypothesis the differences are all 0, so no resample's mean reaches
    # |d̄| = 1 and p = (0 + 1)/(99 + 1) = 0.01. B − C is 0 on every topic: p = 1. Share: 2 of 3 pairs.
    x = np.array([[1.0, 0.0, 0.0], [1.0, 0.0, 0.0]])
    dp = discriminative_power(x, samples=99, seed=0)
    assert dp.p[0, 1] == dp.p[0, 2] == pytest.approx(1 / 100) and dp.p[1, 2] == 1.0
    assert dp.share == pytest.approx(2 / 3) and dp.pairs[-1] == (1, 2)


def _brute_swaps(x, c, samples, seed, edges):
    pairs = np.zeros(len(edges) - 1, dtype=int)
    swaps = np.zeros(len(edges) - 1, dtype=int)
    m = x.shape[1]
    for first, second in R._subset_batches(x.shape[0], c, samples, seed, batch=1):
        a, b = x[first[0]].mean(axis=0), x[second[0]].mean(axis=0)
        for i, j in itertools.combinations(range(m), 2):
            d1, d2 = a[i] - a[j], b[i] - b[j]
            if abs(d1) <= 1e-9 * max(abs(a[i]), abs(a[j])):
                d1 = 0.0
            if abs(d2) <= 1e-9 * max(abs(b[i]), abs(b[j])):
                d2 = 0.0
            k = min(int(np.searchsorted(edges, abs(d1), side="right")) - 1, len(edges) - 2)
            pairs[k] += 1
            swaps[k] += d1 * d2 < 0
    return pairs, swaps


@pytest.mark.parametrize("seed", range(6))
def test_swap_rates_equal_a_brute_force_loop(seed):
    rng = np.random.default_rng(50 + seed)
    n, m = int(rng.integers(4, 25)), int(rng.integers(2, 6))
    x = rng.random((n, m)) if seed % 2 else rng.integers(0, 4, (n, m)) / 3.0
    c = int(rng.integers(1, n // 2 + 1))
    edges = [0.0, 0.05, 0.1, 0.2, 0.5]
    got = swap_rate(x, c, samples=200, seed=seed, bins=edges)
    pairs, swaps = _brute_swaps(x, c, 200, seed, edges)
    assert got.pairs.tolist() == pairs.tolist() and got.swaps.tolist() == swaps.tolist()
    with np.errstate(invalid="ignore"):
        assert np.allclose(got.rate, np.where(pairs > 0, swaps / np.maximum(pairs, 1), np.nan), equal_nan=True)


def test_swap_rate_by_hand():
    # 4 topics, runs A = (1, 0, 1, 0), B = (0, 1, 0, 1); subsets of 2 topics. A split {t1, t3} | {t2, t4}
    # gives d1 = 1, d2 = −1: a swap in the bin of 1; {t1, t2} | {t3, t4} gives d1 = 0, d2 = 0: no swap.
    x = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 0.0], [0.0, 1.0]])
    got = swap_rate(x, 2, samples=400, seed=1, bins=[0.0, 0.5, 2.0])
    firsts = [tuple(sorted(f[0])) for f, _ in R._subset_batches(4, 2, 400, 1, batch=1)]
    opposite = sum(1 for f in firsts if f in ((0, 2), (1, 3)))  # the subsets that split A from B
    assert got.pairs.tolist() == [400 - opposite, opposite]
    assert got.swaps.tolist() == [0, opposite] and got.rate[1] == 1.0 and got.rate[0] == 0.0


def test_default_bins_and_seeds():
    x = np.random.default_rng(9).random((20, 4))
    a = swap_rate(x, 5, samples=300, seed=2)
    assert a.edges[1] == pytest.approx(0.01) and a.pairs.sum() == 300 * 6 and a.pairs[-1] > 0
    b = swap_rate(x, 5, samples=300, seed=2)
    assert np.array_equal(a.swaps, b.swaps) and np.array_equal(a.edges, b.edges)


@pytest.mark.parametrize("call,words", [
    (lambda x: swap_rate(x, 3), "disjoint subsets"),
    (lambda x: swap_rate(x, 0), "subset size"),
    (lambda x: discriminative_power(x, test="t"), "test"),
    (lambda x: discriminative_power(x, alpha=1.5), "alpha"),
])
def test_bad_arguments_are_refused(call, words):
    with pytest.raises(ValueError, match=words):
        call(np.random.default_rng(0).random((5, 3)))


# ---------------------------------------------------------------------------
# Discriminative power: the p ≤ alpha rule, the ASL curve, the result object


def test_a_p_value_equal_to_alpha_is_significant():
    # constant difference: no resample reaches |d̄|, p = (0 + 1)/(19 + 1) = 0.05 = alpha (≤, as compare's table)
    x = np.array([[0.25, 0.5], [0.5, 0.75], [0.75, 1.0]])
    dp = discriminative_power(x, samples=19, alpha=0.05)
    assert dp.p[0, 1] == 0.05 and dp.share == 1.0
    assert discriminative_power(x, samples=20, alpha=0.05).share == 1.0     # p = 1/21
    assert discriminative_power(x, samples=18, alpha=0.05).share == 0.0     # p = 1/19 > 0.05


def test_asl_curve_and_pairs_line_up():
    rng = np.random.default_rng(4)
    x = rng.random((12, 6)) + np.linspace(0, 0.3, 6)
    dp = discriminative_power(x, samples=400, seed=9)
    assert len(dp.pairs) == dp.asl.size == 15
    assert [dp.p[i, j] for i, j in dp.pairs] == dp.asl.tolist()
    assert np.all(np.diff(dp.asl) >= 0) and all(i < j for i, j in dp.pairs)
    assert sorted(dp.pairs) == list(itertools.combinations(range(6), 2))
    # equal p-values keep the pair order (0, 1), (0, 2), ..., (1, 2), ...
    for (a, b), (c, d) in zip(dp.pairs, dp.pairs[1:]):
        if dp.p[a, b] == dp.p[c, d]:
            assert (a, b) < (c, d)
    assert np.all(np.isnan(np.diag(dp.p))) and np.array_equal(dp.p, dp.p.T, equal_nan=True)
    assert (dp.test, dp.alpha, dp.samples) == ("bootstrap", 0.05, 400)
    assert dp.share == sum(p <= 0.05 for p in dp.asl) / 15
    with pytest.raises(ValueError):
        dp.asl[0] = 0.0                       # read-only
    with pytest.raises(AttributeError):
        dp.share = 0.5                        # frozen


def test_discriminative_power_is_seeded():
    x = np.random.default_rng(5).random((10, 4))
    a, b = discriminative_power(x, seed=3), discriminative_power(x, seed=3)
    assert np.array_equal(a.p, b.p, equal_nan=True) and a.pairs == b.pairs and a.share == b.share
    c = discriminative_power(x, seed=4)
    assert not np.array_equal(a.p, c.p, equal_nan=True)


# ---------------------------------------------------------------------------
# Swap rate: the subsets, the default bins, a hand case with three runs


def test_subsets_are_disjoint_and_do_not_depend_on_the_batch():
    whole = list(R._subset_batches(11, 4, 37, 8, batch=1000))
    assert len(whole) == 1 and whole[0][0].shape == (37, 4) and whole[0][1].shape == (37, 4)
    for batch in (1, 5, 36):
        parts = list(R._subset_batches(11, 4, 37, 8, batch=batch))
        assert np.array_equal(np.concatenate([f for f, _ in parts]), whole[0][0])
        assert np.array_equal(np.concatenate([s for _, s in parts]), whole[0][1])
    for f, s in zip(*whole[0]):
        assert len(set(f) | set(s)) == 8 and set(f) <= set(range(11)) and set(s) <= set(range(11))


def _brute_default(x, c, samples, seed):
    """Bins of width 0.01 by floor-free search over the edges k/100 ... in plain loops; the subset
    mean is a left-to-right sum divided by c."""
    n, m = x.shape
    seen = []
    for first, second in R._subset_batches(n, c, samples, seed, batch=1):
        means = []
        for subset in (first[0], second[0]):
            row = []
            for j in range(m):
                s = 0.0
                for t in subset:
                    s += x[t, j]
                row.append(s / c)
            means.append(row)
        for i, j in itertools.combinations(range(m), 2):
            d = []
            for row in means:
                v = row[i] - row[j]
                d.append(0.0 if abs(v) <= 1e-9 * max(abs(row[i]), abs(row[j])) else v)
            seen.append((abs(d[0]), (d[0] > 0 and d[1] < 0) or (d[0] < 0 and d[1] > 0)))
    return seen


@pytest.mark.parametrize("seed", range(4))
def test_default_bins_equal_a_brute_force_loop(seed):
    rng = np.random.default_rng(70 + seed)
    n, m = int(rng.integers(4, 16)), int(rng.integers(2, 6))
    x = rng.random((n, m)) if seed % 2 else rng.integers(0, 64, (n, m)) / 64.0
    c = int(rng.integers(1, n // 2 + 1))
    got = swap_rate(x, c, samples=150, seed=seed)
    seen = _brute_default(x, c, 150, seed)
    k = [int(np.searchsorted(got.edges, size, side="right")) - 1 for size, _ in seen]
    assert min(k) >= 0 and max(k) == got.pairs.size - 1          # the last bin holds the largest
    assert got.edges[-2] <= max(size for size, _ in seen) < got.edges[-1]
    assert got.pairs.tolist() == np.bincount(k, minlength=got.pairs.size).tolist()
    assert got.swaps.tolist() == np.bincount([kk for kk, (_, s) in zip(k, seen) if s],
                                             minlength=got.pairs.size).tolist()
    assert np.allclose(got.edges, 0.01 * np.arange(got.edges.size), rtol=0, atol=1e-15)


# Runs A, B, C on 4 topics (columns), scores in sixteenths so that every mean is exact:
#   A = (13, 9, 6, 8)/16, B = (8, 8, 8, 8)/16, C = (9, 7, 9, 7)/16
# per-topic differences: A − B = (5, 1, −2, 0)/16, A − C = (4, 2, −3, 1)/16, B − C = (−1, 1, −1, 1)/16;
# a subset mean difference over 2 topics is (sum)/32.  The 6 ordered splits first | second:
#   split      A−B d1, d2    A−C d1, d2    B−C d1, d2
#   12 | 34     6, −2 swap    6, −2 swap    0,  0
#   34 | 12    −2,  6 swap   −2,  6 swap    0,  0
#   13 | 24     3,  1         1,  3        −2,  2 swap
#   24 | 13     1,  3         3,  1         2, −2 swap
#   14 | 23     5, −1 swap    5, −1 swap    0,  0
#   23 | 14    −1,  5 swap   −1,  5 swap    0,  0          (all in 32nds)
# Bins of 0.01 by |d1|: 1/32 = 0.03125 → 3, 2/32 = 0.0625 → 6, 3/32 = 0.09375 → 9,
# 5/32 = 0.15625 → 15, 6/32 = 0.1875 → 18, 0 → 0.
HAND = np.array([[13, 8, 9], [9, 8, 7], [6, 8, 9], [8, 8, 7]]) / 16.0
HAND_TABLE = {  # ordered split (first, second) → [(bin, swap)] for A−B, A−C, B−C
    ((0, 1), (2, 3)): [(18, True), (18, True), (0, False)],
    ((2, 3), (0, 1)): [(6, True), (6, True), (0, False)],
    ((0, 2), (1, 3)): [(9, False), (3, False), (6, True)],
    ((1, 3), (0, 2)): [(3, False), (9, False), (6, True)],
    ((0, 3), (1, 2)): [(15, True), (15, True), (0, False)],
    ((1, 2), (0, 3)): [(3, True), (3, True), (0, False)],
}


def test_swap_rate_by_hand_with_three_runs():
    # Once through the 6 ordered splits: bin 0: 4 pairs, 0 swaps; bin 3: 4, 2; bin 6: 4, 4; bin 9: 2, 0;
    # bin 15: 2, 2; bin 18: 2, 2 (18 observations); rates 0, 0.5, 1, 0, 1, 1.
    once_pairs = np.zeros(19, dtype=int)
    once_swaps = np.zeros(19, dtype=int)
    for rows in HAND_TABLE.values():
        for k, s in rows:
            once_pairs[k] += 1
            once_swaps[k] += s
    assert {k: (once_pairs[k], once_swaps[k]) for k in np.flatnonzero(once_pairs)} == {
        0: (4, 0), 3: (4, 2), 6: (4, 4), 9: (2, 0), 15: (2, 2), 18: (2, 2)}
    # The random draw: each sample is one ordered split; expected counts are the table summed over them.
    samples = 600
    drawn = [(tuple(sorted(f[0])), tuple(sorted(s[0]))) for f, s in R._subset_batches(4, 2, samples, 7, batch=1)]
    assert set(drawn) == set(HAND_TABLE)
    pairs = np.zeros(19, dtype=int)
    swaps = np.zeros(19, dtype=int)
    for split in drawn:
        for k, s in HAND_TABLE[split]:
            pairs[k] += 1
            swaps[k] += s
    got = swap_rate(HAND, 2, samples=samples, seed=7)
    assert got.pairs.tolist() == pairs.tolist() and got.swaps.tolist() == swaps.tolist()
    assert got.edges.size == 20 and got.edges[-1] == pytest.approx(0.19, abs=1e-15)
    assert got.rate[[0, 6, 15, 18]].tolist() == [0.0, 1.0, 1.0, 1.0] and got.rate[9] == 0.0
    assert np.isnan(got.rate[[1, 2, 4, 5, 7, 8, 10, 17]]).all()
    assert (got.subset_size, got.samples) == (2, samples)


def test_near_equal_means_are_a_tie():
    # 0.1 + 0.2 and 0.3 + 0.0 differ by one ulp in floating point: a tie (0), never a swap
    x = np.array([[0.1, 0.3], [0.2, 0.0], [0.2, 0.0], [0.1, 0.3]])
    got = swap_rate(x, 2, samples=50, seed=1)
    subsets = [tuple(sorted(f[0])) for f, _ in R._subset_batches(4, 2, 50, 1, batch=1)]
    tied = sum(1 for f in subsets if f in ((0, 1), (2, 3), (0, 2), (1, 3)))
    assert got.pairs[0] == tied and got.swaps.sum() == 50 - tied


def test_bin_widths_and_open_last_bin():
    x = np.random.default_rng(6).random((16, 4))
    fine = swap_rate(x, 4, samples=200, seed=3)
    wide = swap_rate(x, 4, samples=200, seed=3, bins=0.05)
    assert wide.pairs.sum() == fine.pairs.sum() == 200 * 6 and wide.swaps.sum() == fine.swaps.sum()
    assert wide.edges[1] == 0.05
    # edges given: the last bin takes everything beyond its edge (as Voorhees and Buckley's "≥ 0.20")
    two = swap_rate(x, 4, samples=200, seed=3, bins=[0.0, 0.02, 0.04])  # [0, 0.02), [0.02, ∞)
    assert two.pairs.tolist() == [fine.pairs[:2].sum(), fine.pairs[2:].sum()]
    assert two.swaps.tolist() == [fine.swaps[:2].sum(), fine.swaps[2:].sum()]
    again = swap_rate(x, 4, samples=200, seed=3)
    assert np.array_equal(fine.pairs, again.pairs) and np.array_equal(fine.edges, again.edges)
    with pytest.raises(ValueError):
        fine.rate[0] = 1.0


@pytest.mark.parametrize("call, words", [
    (lambda x: swap_rate(x, 2, bins=0), "bin width"),
    (lambda x: swap_rate(x, 2, bins=[0.1, 0.2]), "bins"),
    (lambda x: swap_rate(x, 2, bins=[0.0, 0.2, 0.1]), "bins"),
    (lambda x: swap_rate(x, 2, bins=1e-9), "more than"),
    (lambda x: swap_rate(x, 2, samples=0), "samples"),
    (lambda x: swap_rate(x, 2.0), "subset size"),
    (lambda x: discriminative_power(x, samples=1.5), "samples"),
    (lambda x: discriminative_power(x, alpha=0), "alpha"),
    (lambda x: swap_rate(x[:1], 1), "2 topics"),
    (lambda x: discriminative_power(x[:, :1]), "2 runs"),
    (lambda x: discriminative_power(x[0]), "two dimensions"),
    (lambda x: swap_rate(np.where(x > 0.5, np.nan, x), 2), "finite"),
])
def test_more_bad_arguments_are_refused(call, words):
    with pytest.raises(ValueError, match=words):
        call(np.random.default_rng(0).random((5, 3)))
