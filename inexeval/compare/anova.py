"""Two-way ANOVA without replication, Tukey HSD (topic-blocked and randomised) and effect sizes
(docs/measures.md §12.2, §12.3, §12.5), on a topics × runs matrix ``x`` (rows topics, columns runs).

* :func:`anova2`: runs × topics without replication, as Sakai's textbook and "Statistical reform in
  information retrieval?" (SIGIR Forum 48, 2014) compute it; the residual mean square is V_E.
* :func:`tukey_hsd`: every pair of runs, simultaneously.  Classic: Sakai's "Tukey HSD with two-way
  ANOVA", the studentized range of (mean_i − mean_j)/√(V_E/n) with m runs and (m − 1)(n − 1)
  degrees of freedom.  Randomised: Carterette ("Multiple testing in statistical analysis of
  systems-based information retrieval experiments", TOIS 30, 2012) as Sakai gives it: the runs'
  scores permuted within each topic, the largest minus the smallest run mean of each permutation,
  p(i, j) the share of permutations where that range reaches |mean_i − mean_j|.
* :func:`paired_effect_size`: d_z, the mean over the standard deviation of paired differences, with
  its interval from the noncentral t distribution.

Ties and zeros follow docs/measures.md §10.3: values within a relative 1e-9
(:data:`inexeval.numeric.TOLERANCE`) of the largest |x| are equal, so floating-point noise never
decides a test.  The permutations are drawn in batches of at most :data:`_CELLS` numbers (bounded
memory); the random stream of a seed does not depend on the batch size.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

import numpy as np
from scipy import special

from inexeval.compare import ptukey
from inexeval.compare.roots import illinois
from inexeval.numeric import TOLERANCE, check_magnitude, is_count
from inexeval.records import record

#: random numbers (and gathered scores) per batch of permutations: memory is a few times this many
#: 8-byte values, whatever the number of permutations
_CELLS = 1 << 20


def as_matrix(x) -> np.ndarray:
    """X as a finite float matrix of at least 2 topics (rows) and 2 runs (columns), else ValueError."""
    a = np.asarray(x, dtype=float)
    if a.ndim != 2:
        raise ValueError(f"expected a topics x runs matrix (two dimensions), not an array of shape {a.shape}")
    if not np.all(np.isfinite(a)):
        bad = np.argwhere(~np.isfinite(a))[0]
        raise ValueError(f"the matrix must hold finite numbers: topic row {bad[0]}, run column {bad[1]} holds "
                         f"{a[bad[0], bad[1]]} (leave out the topics a run has no value for)")
    if a.shape[0] < 2 or a.shape[1] < 2:
        raise ValueError(f"{a.shape[0]} topic(s) x {a.shape[1]} run(s): at least 2 topics and 2 runs are needed")
    check_magnitude("the matrix", a)
    return a


def _check_level(level) -> float:
    if isinstance(level, bool) or not isinstance(level, (int, float, np.floating)) or not 0.0 < float(level) < 1.0:
        raise ValueError(f"level must be between 0 and 1 (exclusive), not {level!r}")
    return float(level)


def _check_samples(samples) -> int:
    if not is_count(samples):
        raise ValueError(f"number of samples must be a positive integer, not {samples!r}")
    return int(samples)


def significance_level(level: float) -> float:
    """α = 1 − LEVEL, rounded to 12 decimals so that level 0.9 means α = 0.1 exactly as written
    (1 − 0.9 is 0.09999999999999998 in binary, which would make p = 0.1 not significant)."""
    return round(1.0 - level, 12)


# ---------------------------------------------------------------- ANOVA ----


@record(frozen=True)
class Anova2:
    """A two-way ANOVA without replication (runs × topics, one score per cell)."""

    topics: int  # n
    runs: int  # m
    ss_runs: float
    ss_topics: float
    ss_residual: float
    ss_total: float
    df_runs: int  # m − 1
    df_topics: int  # n − 1
    df_residual: int  # (m − 1)(n − 1)
    ms_runs: float
    ms_topics: float
    v_e: float  # the residual mean square SS_E / df_E
    f_runs: float
    p_runs: float
    f_topics: float
    p_topics: float


def _ss(deviations: np.ndarray, weight: int, scale: float, spread: bool = False) -> float:
    """WEIGHT · Σ deviations², 0 when every deviation is within the tolerance of SCALE (§10.3); with
    SPREAD (deviations of means from their mean), 0 when the means are equal within it: their range
    (the largest difference of two, as Tukey HSD compares them) within the tolerance."""
    size = float(np.ptp(deviations)) if spread else float(np.abs(deviations).max())
    if size <= TOLERANCE * scale:
        return 0.0
    return float(weight * np.sum(deviations * deviations))


def _f_test(ms: float, v_e: float, df1: int, df2: int) -> tuple[float, float]:
    if v_e > 0.0:
        f = ms / v_e
        return f, float(special.fdtrc(df1, df2, f))  # what scipy.stats.f.sf computes
    return (math.inf, 0.0) if ms > 0.0 else (math.nan, math.nan)


def anova2(x) -> Anova2:
    """The two-way ANOVA without replication of X (n topics × m runs, n, m ≥ 2).

    With x̄ the grand mean, x̄_i· topic i's mean and x̄_·j run j's:
    SS_runs = n Σ_j (x̄_·j − x̄)², SS_topics = m Σ_i (x̄_i· − x̄)², and the residual summed directly,
    SS_E = Σ_ij (x_ij − x̄_i· − x̄_·j + x̄)² (not SS_total minus the others, which loses digits);
    df m − 1, n − 1, (m − 1)(n − 1); MS = SS/df; V_E = MS_E; F = MS/V_E, p = P(F(df, df_E) ≥ F)
    (scipy.special.fdtrc, which scipy.stats.f.sf calls).  A sum of squares is 0 (§10.3) when its means
    (SS_runs, SS_topics; the values for SS_total) are equal within 1e-9 of the largest |x|, as Tukey HSD
    tells two run means apart, and SS_E when every residual is within it.  When V_E = 0: F = inf and
    p = 0 for a mean square above 0; F and p NaN for a mean square of 0 too.
    """
    a = as_matrix(x)
    n, m = a.shape
    scale = float(np.abs(a).max())
    grand = a.mean()
    topic = a.mean(axis=1)
    run = a.mean(axis=0)
    ss_runs = _ss(run - grand, n, scale, spread=True)
    ss_topics = _ss(topic - grand, m, scale, spread=True)
    ss_res = _ss(a - topic[:, None] - run[None, :] + grand, 1, scale)
    ss_total = _ss(a - grand, 1, scale, spread=True)
    df_r, df_t, df_e = m - 1, n - 1, (m - 1) * (n - 1)
    ms_r, ms_t, v_e = ss_runs / df_r, ss_topics / df_t, ss_res / df_e
    f_r, p_r = _f_test(ms_r, v_e, df_r, df_e)
    f_t, p_t = _f_test(ms_t, v_e, df_t, df_e)
    return Anova2(n, m, ss_runs, ss_topics, ss_res, ss_total, df_r, df_t, df_e, ms_r, ms_t, v_e, f_r, p_r, f_t, p_t)


# ---------------------------------------------------------------- Tukey HSD ----


@record(frozen=True, eq=False)
class TukeyHSD:
    """Tukey HSD over every pair of runs: runs × runs arrays, entry (i, j) about mean_i − mean_j."""

    means: np.ndarray  # each run's mean over the topics
    diff: np.ndarray  # mean_i − mean_j
    p: np.ndarray  # simultaneous p-values (diagonal 1)
    ci_low: np.ndarray  # the level's simultaneous interval of mean_i − mean_j
    ci_high: np.ndarray
    effect_size: np.ndarray  # ES_E = (mean_i − mean_j)/√V_E (NaN when V_E = 0)
    groups: list[str]  # compact letter display: significant when p ≤ α = 1 − level (significance_level)
    v_e: float  # the two-way ANOVA's residual mean square
    df: int  # (m − 1)(n − 1)
    level: float
    randomised: bool
    samples: int  # permutations: drawn (Monte Carlo), all (m!)^n (exact); 0 for the classic test
    exact: bool  # randomised, every within-topic permutation enumerated


def tukey_hsd(x, randomised: bool = False, samples: int = 10000, seed=0, level: float = 0.95) -> TukeyHSD:
    """Tukey HSD of every pair of runs of X (n topics × m runs), topic-blocked (docs/measures.md §12.3).

    Classic: q_ij = |x̄_i − x̄_j| / √(V_E/n), p = P(Q ≥ q_ij) for the studentized range Q of m means
    with (m − 1)(n − 1) degrees of freedom (:mod:`inexeval.compare.ptukey`, within 1e-10 of
    scipy.stats.studentized_range); interval x̄_i − x̄_j ± q(level)·√(V_E/n).  When V_E = 0
    p is 0 for a difference (beyond 1e-9 of the largest |x|) and 1 for none; the interval is the
    difference itself.

    Randomised: the runs' scores permuted within each topic; R = max_j − min_j of the permuted run
    means.  When (m!)^n ≤ SAMPLES every one of the (m!)^n permutations is enumerated (exact, the
    identity among them); otherwise SAMPLES permutations are drawn with
    ``numpy.random.default_rng(seed)`` (each topic's row the argsort of m uniforms, permutation by
    permutation, topic by topic) and the observed assignment is added to them, as
    :func:`inexeval.compare.stats.randomisation_test` counts it: with N the distribution's size,
    p(i, j) = #{R ≥ |x̄_i − x̄_j|} / N, "reaching" within 1e-9 of the largest |x|.  The interval is
    x̄_i − x̄_j ± R_(k), the k-th smallest R with k the least count for which (N − k)/N ≤ α:
    it excludes 0 (beyond the tolerance) exactly when p ≤ α.

    ES_E = (x̄_i − x̄_j)/√V_E.  Groups: :func:`inexeval.compare.letters.compact_letter_display` of
    the pairs with p ≤ α, α = 1 − level (:func:`significance_level`; the rule of ``inexeval
    compare``'s significance table).
    """
    from inexeval.compare.letters import compact_letter_display

    a = as_matrix(x)
    level = _check_level(level)
    samples = _check_samples(samples)
    n, m = a.shape
    scale = float(np.abs(a).max())
    means = a.mean(axis=0)
    diff = means[:, None] - means[None, :]
    absd = np.abs(diff)
    v_e = anova2(a).v_e
    df = (m - 1) * (n - 1)
    alpha = significance_level(level)
    exact = False
    used = 0
    if not randomised:
        p, half = _classic(absd, v_e, n, m, df, level, TOLERANCE * scale)
    else:
        ranges, exact = _permutation_ranges(a, samples, seed)
        used = ranges.size
        if not exact:  # the observed assignment, one more permutation (its range reaches every |d|)
            ranges = np.append(ranges, absd.max())
        p, half = _randomised(absd, np.sort(ranges), alpha, TOLERANCE * scale)
    np.fill_diagonal(p, 1.0)
    es = diff / math.sqrt(v_e) if v_e > 0.0 else np.full_like(diff, math.nan)
    significant = (p <= alpha) & ~np.eye(m, dtype=bool)
    groups = compact_letter_display(means, significant)
    return TukeyHSD(means=means, diff=diff, p=p, ci_low=diff - half, ci_high=diff + half, effect_size=es,
                    groups=groups, v_e=v_e, df=df, level=level, randomised=bool(randomised), samples=used,
                    exact=exact)


def _classic(absd: np.ndarray, v_e: float, n: int, m: int, df: int, level: float,
             tol: float) -> tuple[np.ndarray, float]:
    """(p, half-width) of the studentized range test."""
    se = math.sqrt(v_e / n)
    if se == 0.0:
        return np.where(absd > tol, 0.0, 1.0), 0.0
    q = absd / se
    iu = np.triu_indices(m, 1)
    values, inverse = np.unique(q[iu], return_inverse=True)
    sf = ptukey.sf(values, m, df)  # one shared grid for all the values (no scipy.stats: issue 33)
    half = ptukey.ppf(level, m, df) * se
    p = np.ones_like(q)
    p[iu] = sf[inverse]
    p.T[iu] = sf[inverse]
    return p, half


def _randomised(absd: np.ndarray, ranges: np.ndarray, alpha: float, tol: float) -> tuple[np.ndarray, float]:
    """(p, half-width) from the sorted RANGES of the permutation distribution (N of them)."""
    total = ranges.size
    # #{R ≥ |d| − tol} = N − #{R < |d| − tol}
    below = np.searchsorted(ranges, absd - tol, side="left")
    p = (total - below) / total
    # the least k with (N − k)/N ≤ alpha, as p is compared (floating point and all): then
    # p ≤ alpha  ⇔  #{R < |d| − tol} ≥ k  ⇔  R_(k) < |d| − tol
    k = max(1, math.ceil((1.0 - alpha) * total) - 2)
    while (total - k) / total > alpha:
        k += 1
    while k > 1 and (total - (k - 1)) / total <= alpha:
        k -= 1
    return p, float(ranges[k - 1])


def _permutation_ranges(a: np.ndarray, samples: int, seed) -> tuple[np.ndarray, bool]:
    """The range (max − min of the run means) of every within-topic permutation when (m!)^n ≤
    SAMPLES, else of SAMPLES random ones.  Returns (ranges, exact)."""
    n, m = a.shape
    per_topic = math.factorial(m)
    if n * math.log(per_topic) <= math.log(samples) + 1e-9 and per_topic ** n <= samples:
        return _exact_ranges(a), True
    rng = np.random.default_rng(seed)
    out = np.empty(samples)
    batch = max(1, _CELLS // (n * m))
    offsets = (np.arange(n, dtype=np.intp) * m)[None, :, None]
    flat = a.ravel()
    done = 0
    while done < samples:
        b = min(batch, samples - done)
        order = np.argsort(rng.random((b, n, m)), axis=2)  # (b, n, m): each topic's permutation
        order += offsets
        sums = np.take(flat, order).sum(axis=1)  # (b, m): each permutation's run totals
        out[done:done + b] = (sums.max(axis=1) - sums.min(axis=1)) / n
        done += b
    return out, False


def _exact_ranges(a: np.ndarray) -> np.ndarray:
    """The range of every one of the (m!)^n within-topic permutations: permutation number
    Σ_i c_i (m!)^i takes topic i's row in the c_i-th order of itertools.permutations."""
    n, m = a.shape
    perms = np.array(list(itertools.permutations(range(m))), dtype=np.intp)  # (m!, m)
    k = perms.shape[0]
    rows = np.stack([a[i][perms] for i in range(n)])  # (n, m!, m): topic i's row in every order
    total = k ** n
    out = np.empty(total)
    chunk = max(1, _CELLS // m)
    for start in range(0, total, chunk):
        index = np.arange(start, min(total, start + chunk), dtype=np.int64)
        sums = np.zeros((index.size, m))
        for i in range(n):
            sums += rows[i, index % k]
            index //= k
        out[start:start + sums.shape[0]] = (sums.max(axis=1) - sums.min(axis=1)) / n
    return out


# ---------------------------------------------------------------- effect sizes ----


def paired_effect_size(a: Sequence[float], b: Sequence[float], level: float = 0.95) -> tuple[float, float, float]:
    """(d_z, low, high): the standardised mean of the paired differences d = a − b and its interval.

    d_z = d̄ / s_d (s_d with n − 1), the "standardised mean difference" of Sakai's textbook.  The
    interval inverts the noncentral t distribution: with t = d_z·√n and n − 1 degrees of freedom,
    λ_low solves P(T'(n − 1, λ) ≤ t) = (1 + level)/2 and λ_high solves it = (1 − level)/2
    (scipy.special.nctdtr, as scipy.stats.nct.cdf; the root by :func:`~inexeval.compare.roots.illinois`);
    the bounds are λ/√n.  Beyond |t| = 1000, where scipy's nct.cdf loses digits, the cdf is integrated
    as P(S ≥ (Z + λ)/t) (:func:`_nct_cdf_far`).

    A difference within 1e-9 of max(|a_i|, |b_i|) is 0, and s_d within 1e-9 of max |d_i| is 0
    (§10.3).  Fewer than two pairs, or differences all 0: (nan, nan, nan).  Constant differences
    other than 0: d_z = ±inf, no interval (nan, nan).
    """
    level = _check_level(level)
    va, vb = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    if va.ndim != 1 or va.shape != vb.shape:
        raise ValueError(f"a and b must be vectors of the same length (shapes {va.shape} and {vb.shape})")
    if not (np.all(np.isfinite(va)) and np.all(np.isfinite(vb))):
        raise ValueError("scores must be finite numbers (leave out the topics a run has no value for)")
    check_magnitude("the scores", va, vb)
    d = va - vb
    d[np.abs(d) <= TOLERANCE * np.maximum(np.abs(va), np.abs(vb))] = 0.0
    n = d.size
    if n < 2 or not np.any(d):
        return (math.nan, math.nan, math.nan)
    mean = float(d.mean())
    sd = float(np.std(d, ddof=1))
    if sd <= TOLERANCE * float(np.abs(d).max()):
        return (math.copysign(math.inf, mean), math.nan, math.nan)
    dz = mean / sd
    t = dz * math.sqrt(n)
    df = n - 1
    low = _noncentrality(t, df, (1.0 + level) / 2.0) / math.sqrt(n)
    high = _noncentrality(t, df, (1.0 - level) / 2.0) / math.sqrt(n)
    return (dz, low, high)


#: beyond this |t|, scipy's nct.cdf loses digits (1e-9 at 3000, 1e-8 at 10^4; NaN, or seconds a
#: call, near 10^6): the distribution is integrated instead (:func:`_nct_cdf_far`)
_NCT_T_MAX = 1000.0


def _nct_cdf(t: float, df: int, lam: float) -> float:
    """P(T'(df, λ) ≤ t), the noncentral t distribution's cdf: scipy.special.nctdtr for |t| ≤
    :data:`_NCT_T_MAX`, else :func:`_nct_cdf_far` (T'(df, −λ) is −T'(df, λ) for t < 0)."""
    if abs(t) <= _NCT_T_MAX:
        cdf = float(special.nctdtr(df, lam, t))  # what scipy.stats.nct.cdf computes (scipy.stats: issue 33)
        if math.isnan(cdf):  # scipy gives NaN far in a tail, where the value is 0 or 1
            cdf = 1.0 if lam < t else 0.0
        return cdf
    if t < 0.0:
        return 1.0 - _nct_cdf_far(-t, df, -lam)
    return _nct_cdf_far(t, df, lam)


def _nct_cdf_far(u: float, df: int, mu: float) -> float:
    """P(T'(df, μ) ≤ u) for u > 0: T' = (Z + μ)/S with S² = χ²_df/df, so the probability is
    P(S ≥ (Z + μ)/u) = ∫ φ(z) Q(z) dz, Q(z) = 1 for z + μ ≤ 0, else P(χ²_df ≥ df ((z + μ)/u)²).
    Q varies over z on the scale u/√df, so for large u the integrand is smooth."""
    from scipy import integrate, special

    root = 1.0 / math.sqrt(2.0 * math.pi)

    def f(z: float) -> float:
        w = z + mu
        tail = 1.0 if w <= 0.0 else float(special.chdtrc(df, df * (w / u) ** 2))
        return root * math.exp(-0.5 * z * z) * tail

    points = [-mu] if -40.0 < -mu < 40.0 else None
    value = integrate.quad(f, -40.0, 40.0, points=points, epsabs=1e-14, epsrel=1e-12, limit=500)[0]
    return min(1.0, max(0.0, value))


def _noncentrality(t: float, df: int, target: float) -> float:
    """λ with P(T'(df, λ) ≤ t) = TARGET (the cdf falls from 1 to 0 as λ grows); NaN if the root
    found does not meet TARGET within 1e-9."""

    def f(lam: float) -> float:
        return _nct_cdf(t, df, lam) - target

    step = 4.0 + abs(t)
    lo, hi = t - step, t + step
    for _ in range(200):
        if f(lo) >= 0.0:
            break
        lo -= step
        step *= 2.0
    step = 4.0 + abs(t)
    for _ in range(200):
        if f(hi) <= 0.0:
            break
        hi += step
        step *= 2.0
    lam = illinois(f, lo, hi, xtol=1e-13, rtol=4 * np.finfo(float).eps, maxiter=500)
    return lam if abs(f(lam)) <= 1e-9 else math.nan
