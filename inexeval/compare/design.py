"""Topic set size design and statistical power (docs/measures.md §12.6).

Sakai, "Topic set size design", Information Retrieval Journal 19, 2016: how many topics a test
collection needs so that a test has a given power against a given difference, or so that a
confidence interval is no wider than a given width.  Every function takes ``variance`` = σ², the
variance of one run's per-topic scores, which Sakai estimates by the residual variance V_E of a
two-way ANOVA without replication on past data (:func:`pooled_variance`).

* ``"t"``: the two-sided paired t-test.  The per-topic differences of two runs have variance
  σ_t² = 2σ² (Sakai's estimate, which leaves out the covariance of the two runs); the effect is
  δ = diff / √(2σ²).  With n topics the statistic is noncentral t with n − 1 degrees of freedom
  and noncentrality √n·δ, and power(n) = P(T' ≥ t_{1−α/2,n−1}) + P(T' ≤ −t_{1−α/2,n−1}) (both
  tails), computed with scipy.stats.nct, not Sakai's normal approximation.
* ``"anova"``: one-way ANOVA over m = ``runs`` runs, diff the gap between the best and the worst
  mean, the other m − 2 means half-way (the least favourable configuration): noncentrality
  λ = n·diff²/(2σ²), degrees of freedom (m − 1, m(n − 1)), power = P(F' ≥ F_{1−α; m−1, m(n−1)})
  with scipy.stats.ncf.
* ``"ci"``: the smallest n whose (1 − α) confidence interval on the mean paired difference has an
  *expected* width of at most ``ci_width`` (Sakai's CI-based design): the width is
  2·t_{1−α/2,n−1}·s/√n, s the sample standard deviation of the differences, and
  E[s] = c₄(n)·σ_t with c₄(n) = √(2/(n−1))·Γ(n/2)/Γ((n−1)/2), so the requirement is
  2·t_{1−α/2,n−1}·√(2σ²/n)·c₄(n) ≤ ci_width.

A requirement "power ≥ target" or "width ≤ cap" is decided with the relative tolerance 1e-9 of
docs/measures.md §10.3, so that a target computed by :func:`achieved_power` or a difference from
:func:`min_detectable_difference` gives back its own number of topics.  The smallest n is found by
doubling from 2 and then bisection (power grows and the expected width shrinks with n); more than
:data:`MAX_TOPICS` topics raise ValueError.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
from scipy import optimize, special, stats

from inexeval.numeric import TOLERANCE

DESIGN_METHODS = ("t", "anova", "ci")
POWER_METHODS = ("t", "anova")

#: The largest number of topics :func:`topic_set_size` searches.
MAX_TOPICS = 1_000_000


# ---------------------------------------------------------------------------
# Validation


def _number(value, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise ValueError(f"{what} must be a number, not {value!r}")
    v = float(value)
    if not math.isfinite(v):
        raise ValueError(f"{what} must be a finite number, not {value!r}")
    return v


def _positive(value, what: str) -> float:
    v = _number(value, what)
    if v <= 0.0:
        raise ValueError(f"{what} must be greater than 0, not {value!r}")
    return v


def _probability(value, what: str) -> float:
    v = _number(value, what)
    if not 0.0 < v < 1.0:
        raise ValueError(f"{what} must be between 0 and 1 (exclusive), not {value!r}")
    return v


def _integer(value, what: str, least: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)) \
            or not math.isfinite(float(value)) or int(value) != value:
        raise ValueError(f"{what} must be an integer, not {value!r}")
    if int(value) < least:
        raise ValueError(f"{what} must be at least {least}, not {value!r}")
    return int(value)


def _method(method, allowed: Sequence[str]) -> str:
    if method not in allowed:
        raise ValueError(f"method must be one of {', '.join(repr(m) for m in allowed)}, not {method!r}")
    return method


# ---------------------------------------------------------------------------
# Power


def _t_power(variance: float, n: int, diff: float, alpha: float) -> float:
    """Power of the two-sided paired t-test with n topics (module docstring).

    scipy.stats.nct.cdf returns NaN for some far tails.  On a grid of df from 1 to 3·10⁶,
    noncentrality 0 to 60 and α from 0.001 to 0.9 (scipy 1.17) that happened only to the lower tail
    P(T' ≤ −t), where the tail is below 1e-16 (checked by quadrature over the χ² of s), so a NaN
    tail is taken as 0 (or 1 on its other side of the noncentrality).
    """
    df = n - 1
    nc = math.sqrt(n) * diff / math.sqrt(2.0 * variance)
    crit = float(stats.t.isf(alpha / 2.0, df))
    upper = float(stats.nct.sf(crit, df, nc))
    lower = float(stats.nct.cdf(-crit, df, nc))
    if upper != upper:
        upper = 0.0 if crit > nc else 1.0
    if lower != lower:
        lower = 0.0 if -crit < nc else 1.0
    return upper + lower


def _anova_power(variance: float, n: int, diff: float, alpha: float, runs: int) -> float:
    """Power of one-way ANOVA over ``runs`` runs and n topics, least favourable configuration."""
    df1, df2 = runs - 1, runs * (n - 1)
    lam = n * diff * diff / (2.0 * variance)
    crit = float(stats.f.isf(alpha, df1, df2))
    power = float(stats.ncf.sf(crit, df1, df2, lam))
    return power if power == power else 1.0  # a guard: no NaN seen on a grid like _t_power's


def _power(method: str, variance: float, n: int, diff: float, alpha: float, runs: int) -> float:
    if method == "t":
        return _t_power(variance, n, diff, alpha)
    return _anova_power(variance, n, diff, alpha, runs)


def _expected_ci_width(variance: float, n: int, alpha: float) -> float:
    """E[width] of the (1 − α) CI on the mean paired difference over n topics (Sakai's CI design)."""
    df = n - 1
    c4 = math.sqrt(2.0 / df) * math.exp(special.gammaln(n / 2.0) - special.gammaln(df / 2.0))
    return 2.0 * float(stats.t.isf(alpha / 2.0, df)) * math.sqrt(2.0 * variance / n) * c4


def achieved_power(variance: float, topics: int, diff: float, alpha: float = 0.05,
                   method: str = "t", runs: int = 2) -> float:
    """The power of the test ``method`` ("t" or "anova") with ``topics`` topics against ``diff``.

    ``variance`` is σ² (one run's per-topic score variance); ``runs`` is m for "anova" and unused
    for "t".  See the module docstring for the formulas.
    """
    method = _method(method, POWER_METHODS)
    variance = _positive(variance, "variance")
    topics = _integer(topics, "topics", 2)
    diff = _positive(diff, "diff")
    alpha = _probability(alpha, "alpha")
    runs = _integer(runs, "runs", 2)
    return _power(method, variance, topics, diff, alpha, runs)


# ---------------------------------------------------------------------------
# Topic set size


def _reaches(value: float, target: float) -> bool:
    """value ≥ target, within the relative tolerance of docs/measures.md §10.3."""
    return value >= target - TOLERANCE * abs(target)


def _smallest(ok) -> int:
    """The smallest n in [2, MAX_TOPICS] with ok(n), for ok monotone (False ... False True ...)."""
    if ok(2):
        return 2
    lo, hi = 2, 4
    while not ok(hi):
        if hi >= MAX_TOPICS:
            raise ValueError(f"more than {MAX_TOPICS} topics would be needed: ask for a larger "
                             f"difference, a lower power or a larger alpha")
        lo, hi = hi, min(2 * hi, MAX_TOPICS)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if ok(mid):
            hi = mid
        else:
            lo = mid
    return hi


def topic_set_size(variance: float, min_diff: float, alpha: float = 0.05, power: float = 0.8,
                   method: str = "t", runs: int = 2, ci_width: float | None = None) -> int:
    """The smallest number of topics n ≥ 2 that meets Sakai's (2016) requirement.

    * "t": power(n) of the two-sided paired t-test against ``min_diff`` is at least ``power``.
    * "anova": power(n) of one-way ANOVA over ``runs`` runs, ``min_diff`` between the best and the
      worst run (least favourable configuration), is at least ``power``.
    * "ci": the expected width of the (1 − alpha) CI on the mean paired difference is at most
      ``ci_width`` (default: ``min_diff``); ``power`` is unused (but still checked).

    ``variance`` is σ², as :func:`pooled_variance` estimates it.  All arguments are checked
    (ValueError); more than :data:`MAX_TOPICS` topics raise ValueError.
    """
    method = _method(method, DESIGN_METHODS)
    variance = _positive(variance, "variance")
    min_diff = _positive(min_diff, "min_diff")
    alpha = _probability(alpha, "alpha")
    power = _probability(power, "power")
    runs = _integer(runs, "runs", 2)
    if method == "ci":
        width = min_diff if ci_width is None else _positive(ci_width, "ci_width")
        return _smallest(lambda n: _reaches(width, _expected_ci_width(variance, n, alpha)))
    if ci_width is not None:
        raise ValueError(f"ci_width is only used by method 'ci', not {method!r}")
    return _smallest(lambda n: _reaches(_power(method, variance, n, min_diff, alpha, runs), power))


def min_detectable_difference(variance: float, topics: int, alpha: float = 0.05, power: float = 0.8,
                              method: str = "t", runs: int = 2) -> float:
    """The difference that the test ``method`` ("t" or "anova") detects with probability ``power``.

    Solves achieved_power(variance, topics, diff, alpha, method, runs) = power for diff > 0 with
    Brent's method (power grows with diff, from alpha at diff = 0 towards 1), so ``power`` must
    exceed ``alpha``.
    """
    method = _method(method, POWER_METHODS)
    variance = _positive(variance, "variance")
    topics = _integer(topics, "topics", 2)
    alpha = _probability(alpha, "alpha")
    power = _probability(power, "power")
    runs = _integer(runs, "runs", 2)
    if power <= alpha:
        raise ValueError(f"power ({power!r}) must exceed alpha ({alpha!r}): with no difference at all "
                         f"the test already rejects with probability alpha")

    def gap(diff: float) -> float:
        return _power(method, variance, topics, diff, alpha, runs) - power

    hi = math.sqrt(2.0 * variance)
    while gap(hi) < 0.0:
        hi *= 2.0
        if not math.isfinite(hi):  # pragma: no cover - power reaches 1 long before
            raise ValueError("no difference reaches the requested power")
    return float(optimize.brentq(gap, 0.0, hi, xtol=1e-300, rtol=4 * np.finfo(float).eps, maxiter=500))


# ---------------------------------------------------------------------------
# The variance estimate


def _residual(x: np.ndarray, what: str) -> tuple[float, int]:
    """(SS_res, df_res) of the two-way ANOVA without replication of a topics × runs matrix."""
    if x.ndim != 2:
        raise ValueError(f"{what}: expected a topics × runs matrix (two dimensions), not {x.ndim}")
    n, m = x.shape
    if n < 2 or m < 2:
        raise ValueError(f"{what}: at least 2 topics and 2 runs are needed, not {n} × {m}")
    if not np.all(np.isfinite(x)):
        raise ValueError(f"{what}: scores must be finite numbers (drop undefined values first)")
    e = x - x.mean(axis=1, keepdims=True) - x.mean(axis=0, keepdims=True) + x.mean()
    return float(np.sum(e * e)), (n - 1) * (m - 1)


def _matrices(x) -> list[np.ndarray]:
    if isinstance(x, np.ndarray):
        a = np.asarray(x, dtype=float)
        return list(a) if a.ndim == 3 else [a]
    if isinstance(x, (list, tuple)) and x and all(np.ndim(item) == 2 for item in x):
        return [np.asarray(item, dtype=float) for item in x]
    return [np.asarray(x, dtype=float)]


def pooled_variance(x) -> float:
    """Sakai's (2016) estimate of σ² from past topics × runs matrices (rows topics, columns runs).

    For each matrix, the two-way ANOVA without replication gives the residual sum of squares
    SS_res = Σ_ij (x_ij − x̄_i· − x̄_·j + x̄_··)² on df_res = (n − 1)(m − 1) degrees of freedom;
    V_E = SS_res / df_res.  Several matrices (a list of matrices, or a 3-D array of them) are pooled
    as Σ SS_res / Σ df_res.  Each matrix needs at least 2 topics and 2 runs, finite scores.
    """
    mats = _matrices(x)
    if not mats:
        raise ValueError("pooled_variance: no matrix given")
    ss = df = 0
    for k, mat in enumerate(mats):
        s, d = _residual(mat, f"matrix {k + 1}" if len(mats) > 1 else "pooled_variance")
        ss += s
        df += d
    return ss / df
