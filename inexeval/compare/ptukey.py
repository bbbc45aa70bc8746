"""The studentized range distribution (Tukey's HSD), vectorised, with numpy and scipy.special only.

Q = R/S, R the range of k independent standard normals and S = √(χ²_ν/ν) independent of them
(ν degrees of freedom).  Lund and Lund, "Algorithm AS 190: Probabilities and upper quantiles for the
studentized range" (Applied Statistics 32, 1983), whose double integral scipy.stats.studentized_range
also evaluates (with scipy.integrate.nquad, one call per q):

    P(Q ≤ q) = ∫_0^∞ f_S(s) F_R(q s) ds,
    F_R(w)   = P(R ≤ w) = k ∫ φ(z) [Φ(z) − Φ(z − w)]^(k−1) dz,
    f_S(s)   = ν^(ν/2) / (Γ(ν/2) 2^(ν/2 − 1)) · s^(ν−1) e^(−ν s²/2).

For ν ≥ 100000 (and ν = inf) P(Q ≤ q) = F_R(q), the limit S = 1, as scipy does.

How it is computed here (fast for thousands of q at once, no scipy.stats, scipy.integrate or
scipy.optimize: importing scipy.special is cheap).  With w = q s and u = log w,

    P(Q ≤ q) = ∫ F_R(e^u) g(u − log q) du,   g(t) = C exp(ν t − ν e^(2t)/2),
    log C = (ν/2) log ν − lgamma(ν/2) − (ν/2 − 1) log 2,

g the density of log S.  Both integrals are taken by the trapezoid rule on the whole real line,
which converges exponentially for integrands that are smooth (analytic in a strip) and decay fast:

* the inner one over z on one grid of [−9, 9] with step min(0.05, 0.5/√k) (the integrand's narrowest
  peak, φ(z)^k w^(k−1) for small w, is 1/√k wide);
* the outer one over u on one uniform grid u_j = j·h, h = 0.25/√(2ν) (a quarter of the width of
  g), shared by all q: each q uses the nodes where log g(u − log q) is within 46 of its peak, and
  F_R is computed once on the union of those nodes.  The weights are normalised per q (Σ g = 1/h
  to rounding, the trapezoid rule being exact to ~1e-16 on g itself), so C is never needed and
  nothing cancels for large ν.

The tail of the range is computed directly, so that small p-values keep their digits:
1 − F_R(w) = k ∫ φ(z) Φ(z)^(k−1) [1 − (1 − r)^(k−1)] dz, r = Φ(z − w)/Φ(z), with
1 − (1 − r)^(k−1) = −expm1((k − 1)·log1p(−r)); and F_R(w) = k ∫ φ Φ^(k−1) exp((k − 1)·log1p(−r)).

q ≤ 0 gives cdf 0; q ≤ 1e-15·√π too (then P(Q ≤ q) ≤ P(|T_ν| ≤ q/√2) ≤ q/√π < 1e-15).

Accuracy (tests/test_ptukey.py): against scipy.stats.studentized_range, cdf and sf within 1e-10
absolute for k = 2..100, ν = 1..1e6 and q from 1e-6 to 40 (within 1e-12 for ν ≤ 30 and ν ≥ 1e5),
ppf within 1e-9 relative, but for scipy's errors below.  Against this module on grids twice and
three times finer: 1e-14.  Where scipy and this module differ by more than 1e-12 (ν from about 1000 to 99999), scipy is the one off,
as a third computation shows (the integral over s by scipy.integrate.quad at 1e-15, agreeing with
this module to 1e-13): nquad stops at its epsabs of 1e-11 (up to 7e-11 off at ν = 99999); and near
ν = 1e5, where f_S is a peak 1/√(2ν) wide, it misses part of it for tiny cdf values (ν = 99999,
k = 5, q = 0.01: scipy 3.1e-12, the value 5.66e-10).  scipy's ppf inherits its cdf's error divided
by the density: up to 1.2e-9 relative at p = 0.999 for ν ≥ 5000.  The cdf's own relative accuracy
far in its lower tail (values below about 1e-10) is limited by r = Φ(z − w)/Φ(z) near 1 (1 − r
loses digits); its absolute error there is below 1e-16.
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np
from scipy import special

from inexeval.compare.roots import illinois

#: from this many degrees of freedom on, P(Q ≤ q) = F_R(q) (scipy's switch to the asymptotic form)
DF_INFINITE = 100000.0
#: q at or below this has P(Q ≤ q) < 1e-15: cdf 0, sf 1
Q_NEGLIGIBLE = 1e-15 * math.sqrt(math.pi)
#: the outer grid keeps the nodes where log g is within this of its peak (e^-46 ≈ 1e-20)
_LOG_DROP = 46.0
#: the inner grid: z in [−Z_MAX, Z_MAX]
_Z_MAX = 9.0
#: the outer step is at most this over √k (log R's distribution narrows as k grows)
_H_RANGE = 0.5
#: and at most this (for small ν, where g is wide but its strip of analyticity is not)
_H_MAX = 0.1
#: cells (q or nodes × z points) per block, to bound memory
_BLOCK = 1 << 18


@lru_cache(maxsize=16)
def _z_grid(k: float, scale: float = 1.0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(z, log Φ(z), a) with a = k·h_z·φ(z)·Φ(z)^(k−1): the inner trapezoid rule's weights."""
    hz = min(0.05, 0.5 / math.sqrt(k)) / scale
    n = int(math.ceil(_Z_MAX / hz))
    z = np.arange(-n, n + 1) * hz
    log_cdf = special.log_ndtr(z)
    a = k * hz * np.exp(-0.5 * z * z + (k - 1.0) * log_cdf) / math.sqrt(2.0 * math.pi)
    return z, log_cdf, a


def _range_cdf_sf(w: np.ndarray, k: float, scale: float = 1.0) -> tuple[np.ndarray, np.ndarray]:
    """(F_R(w), 1 − F_R(w)) for the range of k standard normals, w ≥ 0 (a flat array)."""
    z, log_cdf, a = _z_grid(k, scale)
    cdf = np.empty(w.size)
    sf = np.empty(w.size)
    rows = max(1, _BLOCK // z.size)
    for start in range(0, w.size, rows):
        ww = w[start:start + rows, None]
        # log1p(−r), r = Φ(z − w)/Φ(z): log(D/Φ(z)) with D = Φ(z) − Φ(z − w); log r ≤ 0 as w ≥ 0, kept
        # so where log Φ is off by an ulp (scipy 1.15's log_ndtr: r = 1 + 2e-16 made NaN of the p value)
        with np.errstate(divide="ignore"):
            log_ratio = np.log1p(-np.exp(np.minimum(special.log_ndtr(z - ww) - log_cdf, 0.0)))
        e = (k - 1.0) * log_ratio
        cdf[start:start + rows] = np.exp(e) @ a
        sf[start:start + rows] = -np.expm1(e) @ a
    return np.clip(cdf, 0.0, 1.0), np.clip(sf, 0.0, 1.0)


@lru_cache(maxsize=16)
def _log_s_window(nu: float) -> tuple[float, float]:
    """(t_lo, t_hi): where ν(t − expm1(2t)/2), log g(t) − log g(0), falls to −46 on each side."""

    def f(t: float) -> float:
        return nu * (t - math.expm1(2.0 * t) / 2.0) + _LOG_DROP

    out = []
    for step in (-1.0, 1.0):
        inside, outside = 0.0, step
        while f(outside) > 0.0:
            inside, outside = outside, outside * 2.0
        for _ in range(200):
            mid = (inside + outside) / 2.0
            if f(mid) > 0.0:
                inside = mid
            else:
                outside = mid
        out.append(outside)
    return out[0], out[1]


def _check(k, df) -> tuple[float, float]:
    k, df = float(k), float(df)
    if not (k >= 2.0 and math.isfinite(k)):
        raise ValueError(f"the studentized range needs k >= 2 means, not {k!r}")
    if not df > 0.0:  # NaN too
        raise ValueError(f"the studentized range needs df > 0 degrees of freedom, not {df!r}")
    return k, df


def _cdf_sf(q, k, df, scale: float = 1.0, cache: dict | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(P(Q ≤ q), P(Q > q)) for an array Q; SCALE > 1 makes both grids finer (for tests); CACHE (a
    dict, for calls with the same k, df and scale) keeps F_R at the outer grid's nodes between calls."""
    k, df = _check(k, df)
    qa = np.asarray(q, dtype=float)
    flat = qa.ravel()
    cdf = np.zeros(flat.size)
    sf = np.ones(flat.size)
    nan = np.isnan(flat)
    cdf[nan] = sf[nan] = math.nan
    inf = flat == math.inf
    cdf[inf], sf[inf] = 1.0, 0.0
    live = np.flatnonzero(~nan & ~inf & (flat > Q_NEGLIGIBLE))
    if live.size:
        values = flat[live]
        if df >= DF_INFINITE:
            c, s = _range_cdf_sf(values, k, scale)
        else:
            c, s = _mixed(values, k, df, scale, cache)
        cdf[live], sf[live] = c, s
    return cdf.reshape(qa.shape), sf.reshape(qa.shape)


def _mixed(q: np.ndarray, k: float, nu: float, scale: float, cache: dict | None = None
           ) -> tuple[np.ndarray, np.ndarray]:
    """The outer integral over u = log w for each q > 0 (module docstring)."""
    h = min(0.25 / math.sqrt(2.0 * nu), _H_MAX, _H_RANGE / math.sqrt(k)) / scale
    t_lo, t_hi = _log_s_window(nu)
    log_q = np.log(q)
    width = int(math.floor((t_hi - t_lo) / h)) + 2
    first = np.ceil((log_q + t_lo) / h).astype(np.int64)
    uniq = np.unique(first[:, None] + np.arange(width, dtype=np.int64)[None, :])
    if cache is None:
        f_cdf, f_sf = _range_cdf_sf(np.exp(uniq * h), k, scale)
    else:  # the nodes not computed before, merged with those that were
        known = cache.get("nodes", np.empty(0, dtype=np.int64))
        new = np.setdiff1d(uniq, known, assume_unique=True)
        c_new, s_new = _range_cdf_sf(np.exp(new * h), k, scale)
        nodes = np.concatenate([known, new])
        order = np.argsort(nodes, kind="stable")
        uniq = cache["nodes"] = nodes[order]
        f_cdf = cache["cdf"] = np.concatenate([cache.get("cdf", np.empty(0)), c_new])[order]
        f_sf = cache["sf"] = np.concatenate([cache.get("sf", np.empty(0)), s_new])[order]
    cdf = np.empty(q.size)
    sf = np.empty(q.size)
    rows = max(1, _BLOCK // width)
    offsets = np.arange(width, dtype=np.int64)
    for start in range(0, q.size, rows):
        j = first[start:start + rows, None] + offsets[None, :]
        t = j * h - log_q[start:start + rows, None]
        g = np.exp(nu * (t - np.expm1(2.0 * t) / 2.0))
        total = g.sum(axis=1)
        at = np.searchsorted(uniq, j)
        cdf[start:start + rows] = (g * f_cdf[at]).sum(axis=1) / total
        sf[start:start + rows] = (g * f_sf[at]).sum(axis=1) / total
    return np.clip(cdf, 0.0, 1.0), np.clip(sf, 0.0, 1.0)


def cdf(q, k, df) -> np.ndarray:
    """P(Q ≤ q) for the studentized range of K means with DF degrees of freedom (module docstring:
    Lund and Lund 1983, the integral scipy.stats.studentized_range takes).  Q an array (or scalar),
    K ≥ 2, DF > 0 (a float, or math.inf; ≥ 100000 is infinite).  Returns an array of Q's shape."""
    return _cdf_sf(q, k, df)[0]


def sf(q, k, df) -> np.ndarray:
    """P(Q > q), computed directly (small p-values keep their relative digits); as :func:`cdf`."""
    return _cdf_sf(q, k, df)[1]


def ppf(p: float, k, df) -> float:
    """The q with P(Q ≤ q) = P (scalar), to 1e-13 relative: a bracket [lo, hi] doubled until it holds
    the root, then regula falsi with the Illinois modification (:func:`~inexeval.compare.roots.illinois`) on
    cdf(q) − p, or on (1 − p) − sf(q) for p > 0.5 (1 − p is exact there).  0 for p = 0, inf for
    p = 1, NaN outside [0, 1]."""
    k, df = _check(k, df)
    p = float(p)
    if not 0.0 <= p <= 1.0:
        return math.nan
    if p == 0.0:
        return 0.0
    if p == 1.0:
        return math.inf
    upper = p > 0.5
    target = 1.0 - p if upper else p
    cache: dict = {}  # F_R at the outer grid's nodes: successive q share most of theirs

    def f(x: float) -> float:  # increasing in x
        c, s = _cdf_sf(np.array([x]), k, df, cache=cache)
        return float(target - s[0]) if upper else float(c[0] - target)

    lo, flo = 0.0, -target
    hi = 4.0
    fhi = f(hi)
    while fhi < 0.0:
        lo, flo = hi, fhi
        hi *= 2.0
        fhi = f(hi)
        if hi > 1e300:
            return math.inf
    return illinois(f, lo, hi, flo=flo, fhi=fhi, rtol=1e-13, maxiter=200)
