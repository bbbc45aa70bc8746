"""Comparing runs: rank correlation of system rankings and significance tests.

Pure functions over numbers already computed by the evaluator (no file I/O,
no printing except :func:`format_lower_triangle`, which returns a string).

* Rank correlation between the run orderings two measures produce, as in
  seed 000 §7 (Kendall τ, Tables 1-2: lower-triangular, averaged over tasks)
  and seed 001 §4 (Spearman). Seed 004 ("Rank Correlation Metrics") gives
  both coefficients for rankings without ties; here ties are handled as
  Kendall's τ-b and Spearman with average ranks.
* Paired significance tests between two runs over the topics both have
  (paired t, sign-flip randomisation, bootstrap) with Holm-Bonferroni over
  all pairs of runs. The papers are silent on these; conventions are given
  in each docstring.
* Per-topic differences and win counts: seed 004's precision histogram
  (RP_A/B(i) = RP_A(i) - RP_B(i), "A performs better for 8 of the queries").

Ties. Following docs/measures.md §10 (exact comparisons), two scores count as
tied when they agree to the relative tolerance :data:`inexeval.numeric.TOLERANCE`
(1e-9), so that floating-point noise in averages does not break ties
(``rel_tol`` keyword, 0 for exact equality).
"""

from __future__ import annotations

import math
from typing import Hashable, Iterable, Literal, Mapping, NamedTuple, Sequence

import numpy as np
from scipy import special
from tabulate import tabulate

from inexeval.aggregate import natural_key
from inexeval.errors import ConfigError
from inexeval.numeric import TOLERANCE, check_magnitude, is_count

CORRELATION_METHODS = ("kendall", "spearman")
SIGNIFICANCE_TESTS = ("t", "randomisation", "bootstrap")

# Rows of random signs / resampled indices drawn per batch: bounds memory to
# _BATCH x n values; the random stream does not depend on it (see _uniform_batches).
_BATCH = 2048


# ---------------------------------------------------------------------------
# Rank correlation


def _as_vector(x: Iterable[float], what: str) -> np.ndarray:
    v = np.asarray(list(x) if not isinstance(x, np.ndarray) else x, dtype=float)
    if v.ndim != 1:
        raise ValueError(f"{what}: expected a one-dimensional vector of scores")
    if not np.all(np.isfinite(v)):
        raise ValueError(f"{what}: scores must be finite numbers (drop undefined values first)")
    return v


def _pair(x, y) -> tuple[np.ndarray, np.ndarray]:
    vx, vy = _as_vector(x, "x"), _as_vector(y, "y")
    if vx.shape != vy.shape:
        raise ValueError(f"x and y differ in length ({vx.size} != {vy.size})")
    return vx, vy


def tie_groups(values: np.ndarray, rel_tol: float = TOLERANCE) -> np.ndarray:
    """Dense ranks 0, 1, 2, ... of ``values``; near-equal values share a rank.

    Sorted neighbours u <= v are tied when v - u <= rel_tol * max(|u|, |v|)
    (docs/measures.md §10). A chain of such neighbours forms one group.
    """
    order = np.argsort(values, kind="stable")
    s = values[order]
    gap = np.diff(s)
    new_group = gap > rel_tol * np.maximum(np.abs(s[1:]), np.abs(s[:-1]))
    dense_sorted = np.concatenate(([0], np.cumsum(new_group)))
    dense = np.empty(values.size, dtype=np.int64)
    dense[order] = dense_sorted
    return dense


def _tied_pairs(dense: np.ndarray) -> int:
    """Σ t(t-1)/2 over the tie groups of a dense ranking."""
    t = np.bincount(dense).astype(np.int64)
    return int((t * (t - 1) // 2).sum())


def _inversions(r: np.ndarray) -> int:
    """Number of pairs i < j with r[i] > r[j], for integer ranks r >= 0.

    Bottom-up over block widths w = 1, 2, 4, ...: every pair i < j is counted
    at the one level where i lies in the left half and j in the right half
    of the same block of width 2w. Within a level the count is a vectorised
    searchsorted over (block, value) keys: O(n log^2 n) overall.
    """
    n = r.size
    k = int(r.max()) + 1 if n else 1
    pos = np.arange(n)
    total = 0
    w = 1
    while w < n:
        block = pos // (2 * w)
        left = (pos % (2 * w)) < w
        left_keys = np.sort(block[left] * k + r[left])
        b, v = block[~left], r[~left]
        above_all = np.searchsorted(left_keys, b * k + (k - 1), side="right")
        upto_v = np.searchsorted(left_keys, b * k + v, side="right")
        total += int((above_all - upto_v).sum())
        w *= 2
    return total


def kendall_tau_b(x: Sequence[float], y: Sequence[float], *, rel_tol: float = TOLERANCE) -> float:
    """Kendall's τ-b between two score vectors (paired by position).

    τ_b = (C - D) / sqrt((n0 - n1)(n0 - n2)), with n0 = n(n-1)/2, C and D the
    concordant and discordant pairs, n1 = Σ t(t-1)/2 over the groups of ties
    in x and n2 the same in y. Without ties this is seed 004's
    τ = 1 - 2Δ/(K(K-1)) (Δ counted over ordered pairs), the coefficient of
    seed 000 §7. C - D is computed as in Knight's algorithm:
    C + D = n0 - n1 - n2 + n3 (n3 pairs tied in both) and D = the strict
    inversions of y once the pairs are sorted by (x, y).

    NaN when fewer than 2 items or when either vector is constant.
    """
    vx, vy = _pair(x, y)
    n = vx.size
    if n < 2:
        return math.nan
    gx, gy = tie_groups(vx, rel_tol), tie_groups(vy, rel_tol)
    n0 = n * (n - 1) // 2
    n1, n2 = _tied_pairs(gx), _tied_pairs(gy)
    if n0 == n1 or n0 == n2:
        return math.nan
    joint = gx * (int(gy.max()) + 1) + gy
    t3 = np.unique(joint, return_counts=True)[1].astype(np.int64)
    n3 = int((t3 * (t3 - 1) // 2).sum())
    order = np.lexsort((gy, gx))
    discordant = _inversions(gy[order])
    s = n0 - n1 - n2 + n3 - 2 * discordant
    return s / math.sqrt((n0 - n1) * (n0 - n2))


def average_ranks(values: Sequence[float], *, rel_tol: float = TOLERANCE) -> np.ndarray:
    """Ranks 1..n, ascending, tied values getting the mean of their positions."""
    v = _as_vector(values, "values")
    dense = tie_groups(v, rel_tol)
    counts = np.bincount(dense)
    ends = np.cumsum(counts)            # last 1-based position of each group
    starts = ends - counts + 1          # first 1-based position
    return ((starts + ends) / 2.0)[dense]


def spearman_rho(x: Sequence[float], y: Sequence[float], *, rel_tol: float = TOLERANCE) -> float:
    """Spearman's ρ: Pearson's correlation of the average ranks of x and y.

    ρ = Σ (r_i - r̄)(s_i - s̄) / sqrt(Σ (r_i - r̄)^2 Σ (s_i - s̄)^2). Without
    ties this equals seed 004's S = 1 - 6 Σ (s1,j - s2,j)^2 / (K(K^2 - 1)),
    the coefficient of seed 001 §4. NaN when fewer than 2 items or when
    either vector is constant.
    """
    vx, vy = _pair(x, y)
    if vx.size < 2:
        return math.nan
    rx = average_ranks(vx, rel_tol=rel_tol)
    ry = average_ranks(vy, rel_tol=rel_tol)
    dx, dy = rx - rx.mean(), ry - ry.mean()
    sxx, syy = float(dx @ dx), float(dy @ dy)
    if sxx == 0.0 or syy == 0.0:
        return math.nan
    return float(dx @ dy) / math.sqrt(sxx * syy)


_CORRELATIONS = {"kendall": kendall_tau_b, "spearman": spearman_rho}


def _defined(v) -> bool:
    return v is not None and not (isinstance(v, float) and math.isnan(v))


def correlation_matrix(
    scores: Mapping[str, Mapping[str, float | None]],
    method: Literal["kendall", "spearman"] = "kendall",
    *,
    rel_tol: float = TOLERANCE,
) -> tuple[list[str], np.ndarray]:
    """Correlation between the run rankings of every pair of measures.

    ``scores[measure][run]`` is a run's averaged value. Entry (i, j) is the
    rank correlation (Kendall τ-b or Spearman ρ) of measures i and j over
    the runs that have a defined value (not None, not NaN) for both; NaN
    when fewer than two such runs or a constant measure. Measures keep the
    mapping's order; the matrix is symmetric, with the diagonal 1 (or NaN).
    Seed 000 §7 (Tables 1-2), seed 001 §4.
    """
    if method not in _CORRELATIONS:
        raise ConfigError(f"unknown correlation method {method!r} (expected one of {', '.join(CORRELATION_METHODS)})")
    corr = _CORRELATIONS[method]
    names = list(scores)
    m = len(names)
    matrix = np.full((m, m), np.nan)
    # Measures defined on the same runs (listed in the same order) are done together from each one's
    # ranks (the same numbers, bit for bit, as the pairwise functions: the sums are integers for
    # Kendall and the same dot products for Spearman); other pairs one by one.
    keys = [tuple(r for r in scores[name] if _defined(scores[name][r])) for name in names]
    fast = {}
    for i, name in enumerate(names):
        values = np.array([scores[name][r] for r in keys[i]], dtype=float)
        if len(keys[i]) >= 2 and np.all(np.isfinite(values)):
            fast[i] = values
    prepared = {i: _prepare(v, method, rel_tol) for i, v in fast.items()}
    for i in range(m):
        for j in range(i, m):
            if i in fast and j in fast and keys[i] == keys[j]:
                value = _from_prepared(prepared[i], prepared[j], method)
            else:
                si, sj = scores[names[i]], scores[names[j]]
                runs = [r for r in si if r in sj and _defined(si[r]) and _defined(sj[r])]
                if len(runs) < 2:
                    continue
                value = corr([si[r] for r in runs], [sj[r] for r in runs], rel_tol=rel_tol)
            matrix[i, j] = matrix[j, i] = value
    return names, matrix


def _prepare(v: np.ndarray, method: str, rel_tol: float):
    """Kendall: (signs of the n(n−1)/2 pairs' tie groups, n0 − n1).  Spearman: (deviations of the
    average ranks from their mean, their sum of squares)."""
    if method == "kendall":
        g = tie_groups(v, rel_tol)
        iu = np.triu_indices(v.size, 1)
        signs = np.sign(g[iu[0]] - g[iu[1]])
        return signs, int(np.count_nonzero(signs))
    r = average_ranks(v, rel_tol=rel_tol)
    d = r - r.mean()
    return d, float(d @ d)


def _from_prepared(a, b, method: str) -> float:
    if method == "kendall":
        if a[1] == 0 or b[1] == 0:  # a constant vector
            return math.nan
        s = int(a[0] @ b[0])  # C − D
        return s / math.sqrt(a[1] * b[1])
    if a[1] == 0.0 or b[1] == 0.0:
        return math.nan
    return float(a[0] @ b[0]) / math.sqrt(a[1] * b[1])


def average_matrices(matrices: Sequence[tuple[Sequence[str], np.ndarray]]) -> tuple[list[str], np.ndarray]:
    """Element-wise mean of correlation matrices, e.g. over tasks (seed 000 §7).

    Names are the union of the inputs' names, in order of first appearance.
    Entry (a, b) is the mean of the entries (a, b) of the matrices that have
    both names and a defined (non-NaN) value there; NaN if none has.
    """
    names: list[str] = []
    for ns, _ in matrices:
        names.extend(n for n in ns if n not in names)
    index = {n: k for k, n in enumerate(names)}
    total = np.zeros((len(names), len(names)))
    count = np.zeros((len(names), len(names)), dtype=np.int64)
    for ns, mat in matrices:
        mat = np.asarray(mat, dtype=float)
        if mat.shape != (len(ns), len(ns)):
            raise ValueError(f"matrix of shape {mat.shape} for {len(ns)} names")
        idx = np.array([index[n] for n in ns], dtype=np.int64)
        ok = ~np.isnan(mat)
        rows, cols = np.meshgrid(idx, idx, indexing="ij")
        np.add.at(total, (rows[ok], cols[ok]), mat[ok])
        np.add.at(count, (rows[ok], cols[ok]), 1)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = np.where(count > 0, total / np.maximum(count, 1), np.nan)
    return names, mean


def format_lower_triangle(names: Sequence[str], matrix: np.ndarray, digits: int = 2,
                          *, tablefmt: str = "simple") -> str:
    """A lower-triangular table, as seed 000 Table 1.

    Rows are names[1:], columns names[:-1]; cell (i, j) for j < i holds the
    value with ``digits`` decimals ('-' for NaN); the diagonal and the upper
    triangle are blank.
    """
    names = list(names)
    matrix = np.asarray(matrix, dtype=float)
    if matrix.shape != (len(names), len(names)):
        raise ValueError(f"matrix of shape {matrix.shape} for {len(names)} names")
    rows = []
    for i in range(1, len(names)):
        cells = ["-" if math.isnan(matrix[i, j]) else f"{matrix[i, j]:.{digits}f}" for j in range(i)]
        rows.append([names[i], *cells, *[""] * (len(names) - 1 - i)])
    return tabulate(rows, headers=["", *names[:-1]], tablefmt=tablefmt, disable_numparse=True)


# ---------------------------------------------------------------------------
# Significance tests between two runs (per-topic scores paired by topic)


def _differences(a: Sequence[float], b: Sequence[float]) -> np.ndarray:
    va, vb = _pair(a, b)
    check_magnitude("the scores", va, vb)
    return va - vb


def paired_t_test(a: Sequence[float], b: Sequence[float]) -> float:
    """Two-sided paired t-test p-value (as scipy.stats.ttest_rel).

    d_i = a_i - b_i, t = d̄ / (s_d / sqrt(n)) with s_d the sample standard
    deviation (n - 1), p = 2 P(T_{n-1} >= |t|). NaN for n < 2. When every
    d_i is 0 the runs are indistinguishable and p = 1 (scipy gives NaN);
    constant non-zero differences give p = 0 (as scipy).
    """
    d = _differences(a, b)
    n = d.size
    if n < 2:
        return math.nan
    if not np.any(d):
        return 1.0
    sd = float(np.std(d, ddof=1))
    if sd == 0.0:
        return 0.0
    t = float(d.mean()) / (sd / math.sqrt(n))
    return float(2.0 * special.stdtr(n - 1, -abs(t)))  # scipy.stats.t.sf(|t|, n − 1), the same call


def _uniform_batches(rng: np.random.Generator, samples: int, n: int):
    """Yield (rows, n) arrays of uniforms [0, 1), ``samples`` rows in all.

    Each double consumes one 64-bit draw, so the stream (and the p-value)
    does not depend on the batch size.
    """
    done = 0
    while done < samples:
        rows = min(_BATCH, samples - done)
        yield rng.random((rows, n))
        done += rows


def _at_least(stat: np.ndarray, observed: float, scale: float) -> int:
    """How many |stat| reach |observed|, with the docs/measures.md §10 tolerance on the scale."""
    return int(np.count_nonzero(np.abs(stat) >= abs(observed) - TOLERANCE * scale))


def _check_samples(samples: int) -> None:
    if not is_count(samples):
        raise ConfigError(f"number of samples must be a positive integer, not {samples!r}")


def randomisation_test(a: Sequence[float], b: Sequence[float], *, samples: int = 10000, seed: int = 0) -> float:
    """Two-sided paired randomisation (sign-flip permutation) test.

    Under the null hypothesis the sign of each d_i = a_i - b_i is
    exchangeable. Statistic: |Σ s_i d_i| (equivalently the mean difference),
    s ∈ {-1, +1}^n.

    * If 2^n <= samples: all 2^n sign vectors are enumerated and
      p = #{s : |Σ s_i d_i| >= |Σ d_i|} / 2^n (exact; includes s = +1).
    * Otherwise ``samples`` sign vectors are drawn with
      numpy.random.default_rng(seed) and p = (count + 1) / (samples + 1),
      the observed assignment counted once (never 0; deterministic for a seed).

    "Reaches" allows 1e-9 of Σ|d_i| (docs/measures.md §10) so that reorderings of the
    same sum tie. n = 0 or all d_i = 0 gives p = 1.
    """
    _check_samples(samples)
    d = _differences(a, b)
    n = d.size
    observed = float(d.sum())
    scale = float(np.abs(d).sum())
    if scale == 0.0:
        return 1.0
    if n < 63 and 2 ** n <= samples:
        bits = (np.arange(2 ** n, dtype=np.int64)[:, None] >> np.arange(n)) & 1
        signs = 1.0 - 2.0 * bits
        return _at_least(signs @ d, observed, scale) / 2 ** n
    rng = np.random.default_rng(seed)
    count = 0
    for u in _uniform_batches(rng, samples, n):
        signs = np.where(u < 0.5, -1.0, 1.0)
        count += _at_least(signs @ d, observed, scale)
    return (count + 1) / (samples + 1)


def bootstrap_test(a: Sequence[float], b: Sequence[float], *, samples: int = 10000, seed: int = 0) -> float:
    """Two-sided paired bootstrap test of the mean difference.

    d_i = a_i - b_i is shifted to the null, d'_i = d_i - d̄, and resampled
    with replacement ``samples`` times (indices floor(n u), u uniform from
    numpy.random.default_rng(seed)); p = (#{|mean(d'*)| >= |d̄|} + 1) /
    (samples + 1). Deterministic for a seed; the tolerance is 1e-9 of
    max |d_i| (docs/measures.md §10). n = 0 or all d_i = 0 gives p = 1.
    """
    _check_samples(samples)
    d = _differences(a, b)
    n = d.size
    scale = float(np.abs(d).max()) if n else 0.0
    if scale == 0.0:
        return 1.0
    observed = float(d.mean())
    shifted = d - observed
    rng = np.random.default_rng(seed)
    count = 0
    for u in _uniform_batches(rng, samples, n):
        idx = np.minimum((u * n).astype(np.int64), n - 1)
        count += _at_least(shifted[idx].mean(axis=1), observed, scale)
    return (count + 1) / (samples + 1)


def holm_bonferroni(pvalues: Sequence[float]) -> np.ndarray:
    """Holm's step-down adjusted p-values, in the input order.

    With the m defined p-values sorted, p_(1) <= ... <= p_(m):
    p~_(k) = min(1, max_{j <= k} (m - j + 1) p_(j)). NaN p-values stay NaN
    and do not count in m. H_(k) is rejected at level α iff p~_(k) <= α.
    """
    p = np.asarray(pvalues, dtype=float)
    if p.ndim != 1:
        raise ValueError(f"holm_bonferroni: expected a one-dimensional vector of p-values, not shape {p.shape}")
    if np.any((p < 0.0) | (p > 1.0)):
        raise ValueError(f"holm_bonferroni: p-values lie in [0, 1] (or are NaN); got {p[(p < 0.0) | (p > 1.0)][0]!r}")
    out = np.full(p.shape, np.nan)
    ok = np.flatnonzero(~np.isnan(p))
    m = ok.size
    if m == 0:
        return out
    order = ok[np.argsort(p[ok], kind="stable")]
    factors = m - np.arange(m)
    adjusted = np.minimum(1.0, np.maximum.accumulate(factors * p[order]))
    out[order] = adjusted
    return out


class SignificanceRow(NamedTuple):
    """One pair of runs compared over their common topics."""

    run_a: str
    run_b: str
    mean_a: float
    mean_b: float
    diff: float
    p: float
    p_holm: float
    significant: bool
    topics: int = 0  # the common topics the pair is compared over
    note: str = ""  # the topics left out, and why p is undefined (NaN), if so


def _pair_note(ra: str, rb: str, sa: Mapping, sb: Mapping, topics: list, p: float, test: str) -> str:
    """What a reader of a significance row must know: topics left out, and why p is undefined."""
    used = set(topics)
    parts = []
    for run, mine, other in ((ra, sa, sb), (rb, sb, sa)):
        missing = [t for t in other if _defined(other[t]) and t not in used]
        missing = [t for t in missing if not (t in mine and _defined(mine[t]))]
        if missing:
            missing.sort(key=lambda t: natural_key(str(t)))
            shown = ", ".join(map(str, missing[:10])) + (", ..." if len(missing) > 10 else "")
            parts.append(f"{run} has no value for topic(s) {shown}")
    note = "; ".join(parts)
    if math.isnan(p):
        why = "no common topic" if not topics else (f"the t test needs 2 common topics, there is {len(topics)}"
                                                      if test == "t" else "undefined")
        note = f"p undefined: {why}" + (f" ({note})" if note else "")
    elif note:
        note = f"compared over the {len(topics)} common topic(s): {note}"
    return note


def _common(a: Mapping[Hashable, float | None], b: Mapping[Hashable, float | None]) -> list:
    """Topics with a defined value in both, in natural order."""
    topics = [t for t in a if t in b and _defined(a[t]) and _defined(b[t])]
    return sorted(topics, key=lambda t: natural_key(str(t)))


def pairwise_significance(
    per_topic: Mapping[str, Mapping[Hashable, float | None]],
    *,
    test: Literal["t", "randomisation", "bootstrap"] = "t",
    samples: int = 10000,
    seed: int = 0,
    alpha: float = 0.05,
) -> list[SignificanceRow]:
    """Compare every pair of runs (in the mapping's order, a before b).

    Each pair uses the topics where both runs have a defined value; means
    and diff = mean_a - mean_b are over those topics. p is the chosen
    two-sided test; every pair's test uses the same ``seed`` (so a pair's
    p does not depend on the other runs). p_holm is Holm-Bonferroni over
    all pairs; significant iff p_holm <= alpha. A pair with no (or, for the
    t-test, one) common topic has p NaN and is left out of the correction.
    ``topics`` counts the common topics; ``note`` names the topics left out
    and says why p is undefined.
    """
    if test not in SIGNIFICANCE_TESTS:
        raise ConfigError(f"unknown significance test {test!r} (expected one of {', '.join(SIGNIFICANCE_TESTS)})")
    if not 0.0 < alpha < 1.0:
        raise ConfigError(f"alpha must be between 0 and 1, not {alpha!r}")
    runs = list(per_topic)
    raw = []
    for i, ra in enumerate(runs):
        for rb in runs[i + 1:]:
            sa, sb = per_topic[ra], per_topic[rb]
            topics = _common(sa, sb)
            va = np.array([sa[t] for t in topics], dtype=float)
            vb = np.array([sb[t] for t in topics], dtype=float)
            if not topics:
                p = math.nan
            elif test == "t":
                p = paired_t_test(va, vb)
            elif test == "randomisation":
                p = randomisation_test(va, vb, samples=samples, seed=seed)
            else:
                p = bootstrap_test(va, vb, samples=samples, seed=seed)
            mean_a = float(va.mean()) if topics else math.nan
            mean_b = float(vb.mean()) if topics else math.nan
            raw.append((ra, rb, mean_a, mean_b, mean_a - mean_b, p, len(topics),
                        _pair_note(ra, rb, sa, sb, topics, p, test)))
    adjusted = holm_bonferroni([r[5] for r in raw])
    return [SignificanceRow(*r[:6], float(h), bool(h <= alpha), *r[6:]) for r, h in zip(raw, adjusted)]


# ---------------------------------------------------------------------------
# Per-topic differences (seed 004, precision histograms)


def topic_differences(
    a: Mapping[Hashable, float | None], b: Mapping[Hashable, float | None], *, rel_tol: float = TOLERANCE
) -> tuple[list, np.ndarray]:
    """Seed 004's histogram values RP_A/B(i) = RP_A(i) - RP_B(i).

    Over the topics with a defined value in both runs, in natural order.
    A difference between values tied to ``rel_tol`` (docs/measures.md §10) is exactly 0.
    """
    topics = _common(a, b)
    va = np.array([a[t] for t in topics], dtype=float)
    vb = np.array([b[t] for t in topics], dtype=float)
    diff = va - vb
    tied = np.abs(diff) <= rel_tol * np.maximum(np.abs(va), np.abs(vb))
    diff[tied] = 0.0
    return topics, diff


def win_counts(a: Mapping[Hashable, float | None], b: Mapping[Hashable, float | None], *,
               rel_tol: float = TOLERANCE) -> tuple[int, int, int]:
    """(wins of A, wins of B, ties) over the common topics (seed 004:
    "A performs better for 8 of the queries, B for the other 2")."""
    _, diff = topic_differences(a, b, rel_tol=rel_tol)
    return int(np.count_nonzero(diff > 0)), int(np.count_nonzero(diff < 0)), int(np.count_nonzero(diff == 0))
