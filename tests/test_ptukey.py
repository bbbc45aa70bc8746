"""inexeval.compare.ptukey, the studentized range distribution without scipy.stats (issue 33), against
scipy.stats.studentized_range: cdf and sf within 1e-10 absolute, ppf within 1e-9 relative, on a grid
of k (means), df (degrees of freedom, finite, at scipy's switch to the infinite form and beyond) and
q from 1e-6 to 40, and on random draws (fixed seed).

Where the two differ by more than 1e-12 (df from about 1000 up to 99999: up to 7e-11), scipy is the
one that is off: its nquad integration stops at epsabs 1e-11.  :func:`test_scipy_is_the_one_off`
shows it with a third computation that shares nothing with the module's outer integral (the
integral over s taken by scipy.integrate.quad at 1e-15): this module agrees with it to 1e-13,
scipy does not.  The same error of scipy's cdf, divided by the small density at p = 0.999, puts
scipy's ppf up to 1.2e-9 (relative) off there: :func:`test_ppf_against_scipy` checks those
quantiles by scipy's own cdf instead.

The scipy comparisons take about 10 ms per q for finite df (one nquad each), 0.3 s per ppf: the grid
here is some 900 of them; the full ppf grid is marked slow.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

from inexeval.compare import ptukey

scipy_stats = pytest.importorskip("scipy.stats")
studentized_range = scipy_stats.studentized_range

KS = (2, 3, 4, 5, 10, 30, 100)
DFS = (1, 2, 3, 5, 10, 30, 100, 1000, 5000, 99999, 100000, 1e6)
# far lower tail (cdf ~ q^(k-1)), body, far upper tail (sf down to 1e-300 and below for large df)
QS = np.array([1e-6, 1e-3, 0.01, 0.1, 0.3, 0.6, 1.0, 1.5, 2.0, 2.5, 3.0, 3.5, 4.0, 5.0, 6.0, 7.0, 8.0,
               10.0, 13.0, 17.0, 22.0, 30.0, 40.0])
QS_FAST = np.array([1e-6, 1e-3, 0.01, 0.3, 1.0, 2.0, 3.0, 4.5, 7.0, 12.0, 22.0, 40.0])
ABS = 1e-10
REL_PPF = 1e-9


def scipy_cdf(q, k, df) -> np.ndarray:
    """scipy's cdf (its sf is 1 − this: studentized_range has no _sf of its own)."""
    with warnings.catch_warnings():  # nquad's IntegrationWarning far in the tails
        warnings.simplefilter("ignore")
        return np.asarray(studentized_range.cdf(q, k, df), dtype=float)


def _check_grid(k, qs):
    worst = {}
    for df in DFS:
        ref = scipy_cdf(qs, k, df)
        c, s = ptukey.cdf(qs, k, df), ptukey.sf(qs, k, df)
        dc, ds = np.abs(c - ref), np.abs(s - (1.0 - ref))
        for i in np.flatnonzero((dc > ABS) | (ds > ABS)):
            # scipy wrong: near df = 1e5 its nquad misses part of the narrow peak of f_S (width
            # 1/√(2ν)) where the cdf is tiny (1e-10 instead of 1e-12: 5.7e-10 at k = 5, q = 0.01)
            assert 50000 <= df < ptukey.DF_INFINITE and ref[i] < c[i] < 1e-8, (k, df, qs[i], c[i], ref[i])
            assert abs(c[i] - _reference_cdf(float(qs[i]), k, df)) <= 1e-13, (k, df, qs[i])
            dc[i] = ds[i] = 0.0
        worst[df] = (float(dc.max()), float(ds.max()))
        assert dc.max() <= ABS, (k, df, qs[dc.argmax()], c[dc.argmax()], ref[dc.argmax()])
        assert ds.max() <= ABS, (k, df, qs[ds.argmax()], s[ds.argmax()], 1.0 - ref[ds.argmax()])
    # the bound is met with room to spare where scipy itself is accurate (small df, df = inf)
    for df in (1, 2, 3, 5, 10, 30, 100000, 1e6):
        assert max(worst[df]) <= 1e-12, (k, df, worst[df])


@pytest.mark.parametrize("k", KS)
def test_cdf_sf_against_scipy_grid(k):
    _check_grid(k, QS_FAST)


@pytest.mark.slow
@pytest.mark.parametrize("k", (3, 10, 100))  # (every k of KS on the QS_FAST grid above)
def test_cdf_sf_against_scipy_full_grid(k):
    _check_grid(k, QS)


def test_random_draws_against_scipy():
    rng = np.random.default_rng(20261128)
    for _ in range(40):
        k = int(rng.integers(2, 60))
        df = float(math.exp(rng.uniform(0.0, math.log(2e5))))  # 1 .. 2e5, both sides of the switch
        if rng.random() < 0.3:
            df = float(round(df))
        q = np.exp(rng.uniform(math.log(0.05), math.log(40.0), 2))
        ref = scipy_cdf(q, k, df)
        assert np.abs(ptukey.cdf(q, k, df) - ref).max() <= ABS, (k, df, q)
        assert np.abs(ptukey.sf(q, k, df) - (1.0 - ref)).max() <= ABS, (k, df, q)


PPF_CASES = [(2, 1, 0.05), (3, 10, 0.95), (5, 30, 0.5), (10, 5000, 0.95), (30, 1e6, 0.95), (100, 4851, 0.95),
             (100, 3, 0.05), (4, 99999, 0.999)]
# (a spread of the corners: the whole KS x DFS x p grid takes a minute of scipy's quadrature)
PPF_SLOW = [(k, df, p) for k in (2, 5, 30, 100) for df in (1, 100, 5000, 99999, 1e6) for p in (0.01, 0.5, 0.999)]


def _check_ppf(k, df, p):
    ours = ptukey.ppf(p, k, df)
    assert abs(float(ptukey.cdf(ours, k, df)) - p) <= 1e-12
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ref = float(studentized_range.ppf(p, k, df))
    if abs(ours - ref) <= REL_PPF * ref:
        return
    # scipy's cdf error over the density (finite df >= 1000, far upper tail): its own cdf at our
    # quantile is then within its accuracy of p
    assert df >= 1000 and p >= 0.99, (k, df, p, ours, ref)
    assert abs(float(scipy_cdf(ours, k, df)) - p) <= ABS, (k, df, p, ours, ref)


@pytest.mark.parametrize("k, df, p", PPF_CASES)
def test_ppf_against_scipy(k, df, p):
    _check_ppf(k, df, p)


@pytest.mark.slow
@pytest.mark.parametrize("k, df, p", PPF_SLOW)
def test_ppf_against_scipy_slow(k, df, p):
    _check_ppf(k, df, p)


def _reference_cdf(q: float, k: int, nu: float) -> float:
    """∫ f_S(s) F_R(q s) ds by scipy.integrate.quad at 1e-15 over s (not log s), normalised by the
    same quadrature of f_S; F_R is the module's infinite-df form (within 1e-15 of scipy's)."""
    from scipy import integrate, special

    log_c = (nu / 2) * math.log(nu) - special.gammaln(nu / 2) - (nu / 2 - 1) * math.log(2)

    def dens(s):
        return math.exp(log_c + (nu - 1) * math.log(s) - nu * s * s / 2)

    def integrand(s):
        return dens(s) * float(ptukey.cdf(q * s, k, math.inf))

    width = 12 / math.sqrt(2 * nu)
    opts = dict(epsabs=1e-15, epsrel=1e-14, limit=500, points=[1.0])
    with warnings.catch_warnings():  # roundoff at 1e-15: the result is good to far better than 1e-13
        warnings.simplefilter("ignore")
        num = integrate.quad(integrand, 1 - width, 1 + width, **opts)[0]
        den = integrate.quad(dens, 1 - width, 1 + width, **opts)[0]
    return num / den


def test_scipy_is_the_one_off():
    """Large finite df, where scipy and this module differ by up to 7e-11 (and 5.7e-10 for tiny
    cdf values at df = 99999): a third computation sides with the module (to 1e-13), and scipy is
    measurably off."""
    scipy_off = 0.0
    for k, nu in ((2, 99999), (10, 99999), (30, 99999), (10, 5000), (5, 99999)):
        for q in ((0.01, 5.0) if k == 5 else (3.0, 5.0)):
            ref = _reference_cdf(q, k, nu)
            assert abs(float(ptukey.cdf(q, k, nu)) - ref) <= 1e-13, (k, nu, q)
            assert abs(float(ptukey.sf(q, k, nu)) - (1 - ref)) <= 1e-13, (k, nu, q)
            scipy_off = max(scipy_off, abs(float(scipy_cdf(q, k, nu)) - ref))
    assert 1e-12 < scipy_off <= 1e-9


def _check_converged(k, dfs, scale):
    for df in dfs:
        c, s = ptukey._cdf_sf(QS, k, df)
        c3, s3 = ptukey._cdf_sf(QS, k, df, scale=scale)
        assert np.abs(c - c3).max() <= 1e-14 and np.abs(s - s3).max() <= 1e-14, (k, df)


@pytest.mark.parametrize("k", (2, 30, 100))
def test_converged_against_finer_grids(k):
    """Both grids twice finer change nothing beyond 1e-14 (the steps are small enough)."""
    _check_converged(k, (1, 3, 30, 1000, 99999, math.inf), 2.0)


@pytest.mark.slow
@pytest.mark.parametrize("k", (4, 10))  # (2, 30 and 100 above)
def test_converged_against_finer_grids_slow(k):
    """Both grids 3 times finer, every df of the grid."""
    _check_converged(k, DFS, 3.0)


def test_properties():
    q = np.linspace(0.0, 12.0, 241)
    for k, df in ((2, 1), (4, 7.5), (20, 300), (7, math.inf)):
        c, s = ptukey.cdf(q, k, df), ptukey.sf(q, k, df)
        assert np.all(np.diff(c) >= -1e-16) and np.all(np.diff(s) <= 1e-16)
        assert np.abs(c + s - 1.0).max() <= 1e-14
        assert c[0] == 0.0 and s[0] == 1.0
    assert np.array_equal(ptukey.cdf(QS, 5, 100000), ptukey.cdf(QS, 5, math.inf))  # scipy's switch
    assert np.array_equal(ptukey.cdf(QS, 5, 1e6), ptukey.cdf(QS, 5, math.inf))
    out = ptukey.cdf([[-1.0, 0.0], [math.inf, math.nan]], 3, 10)
    assert out.shape == (2, 2) and out[0, 0] == 0.0 and out[0, 1] == 0.0 and out[1, 0] == 1.0
    assert math.isnan(out[1, 1])
    assert float(ptukey.sf(math.inf, 3, 10)) == 0.0
    # below Q_NEGLIGIBLE the cdf is set to 0: it is below 1e-15 there (scipy agrees)
    assert float(ptukey.cdf(1e-15, 2, 1)) == 0.0 and float(scipy_cdf(1e-15, 2, 1)) < 1e-15
    # small p-values keep their digits: sf is computed directly, not as 1 − cdf
    tiny = float(ptukey.sf(30.0, 5, math.inf))
    assert 0.0 < tiny < 1e-60
    assert ptukey.ppf(0.0, 3, 10) == 0.0 and ptukey.ppf(1.0, 3, 10) == math.inf
    assert math.isnan(ptukey.ppf(1.5, 3, 10))
    for p in (1e-6, 0.3, 0.95, 1 - 1e-9):
        x = ptukey.ppf(p, 6, 40)
        assert abs(float(ptukey.cdf(x, 6, 40)) - p) <= 1e-12 * max(p, 1e-3)
    for bad in ((1, 10), (2.5 - 1, 10), (3, 0), (3, -1), (3, math.nan)):
        with pytest.raises(ValueError):
            ptukey.cdf(1.0, *bad)


def test_log_ndtr_off_by_an_ulp_gives_no_nan(monkeypatch):
    """scipy 1.15's log_ndtr is not monotone to the last bit: at z = −1 and w = 1.15e-16 (a q near 0,
    the outer grid's smallest s), log Φ(z − w) came out an ulp above log Φ(z), so r = Φ(z − w)/Φ(z) > 1
    and log1p(−r) was NaN, and with it a Tukey p value (``inexeval compare`` with scipy 1.15, the last
    release for Python 3.10).  The same error made here with scipy's own function, log Φ(z − w) nudged
    up an ulp: the values stay finite and within 1e-12 of the exact ones."""
    q = np.concatenate(([2e-15, 1e-14, 1e-13, 1e-12], np.linspace(0.05, 8.0, 60)))  # w = q·s down to 1e-16
    exact_c, exact_s = ptukey.cdf(q, 4, 12), ptukey.sf(q, 4, 12)
    real = ptukey.special.log_ndtr

    class NudgedSpecial:
        calls = 0

        def log_ndtr(self, x):
            out = np.asarray(real(x), dtype=float)
            NudgedSpecial.calls += 1
            if NudgedSpecial.calls > 1:  # (the grid's log Φ(z) is cached: nudge log Φ(z − w) only)
                out = np.nextafter(out, np.inf)
            return out

        def __getattr__(self, name):
            return getattr(ptukey.special, name)

    ptukey._z_grid.cache_clear()
    monkeypatch.setattr(ptukey, "special", NudgedSpecial())
    try:
        c, s = ptukey.cdf(q, 4, 12), ptukey.sf(q, 4, 12)
    finally:
        ptukey._z_grid.cache_clear()
    assert NudgedSpecial.calls > 1
    assert np.isfinite(c).all() and np.isfinite(s).all()
    assert np.abs(c - exact_c).max() <= 1e-12 and np.abs(s - exact_s).max() <= 1e-12
