"""XCG measures over a gain vector xG and an ideal vector xI (SPEC §4.4–§4.6).

Sources: seed 000 §4 (nxCG, MAnxCG, ep/gr, MAep, iMAep) and §5 with seed 003
(Q- and R-measure).  All kernels take numpy arrays: xG in rank order (any
length L, gains >= 0) and xI sorted in decreasing order with every entry > 0.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from inexeval.numeric import TOLERANCE

#: Standard recall / gain-recall points p/100, p = 1..100 (exact decimals, SPEC §10).
CURVE_POINTS = np.arange(1, 101) / 100.0
CURVE_LABELS = tuple(f"{p / 100:.2f}" for p in range(1, 101))


def cumulated(x: np.ndarray) -> np.ndarray:
    """[0, x1, x1+x2, ...]: cumulated values with a leading 0 (so c[k] is the sum of the first k)."""
    c = np.empty(len(x) + 1)
    c[0] = 0.0
    np.cumsum(x, out=c[1:])
    return c


def at_rank(c: np.ndarray, k: int | np.ndarray) -> np.ndarray:
    """c[min(k, len)] : a cumulated value read at rank k, kept beyond the list's end (SPEC §10)."""
    return c[np.minimum(k, len(c) - 1)]


def curve_ranks(max_results: int) -> np.ndarray:
    """Ranks ⌈p · MAX_RESULTS / 100⌉ for p = 1..100, in integer arithmetic (SPEC §4.4)."""
    p = np.arange(1, 101, dtype=np.int64)
    return (p * max_results + 99) // 100


def nxcg(xg: np.ndarray, xi: np.ndarray, ranks: np.ndarray) -> np.ndarray:
    """nxCG@k = xCG[k] / xCI[k] (seed 000 eq. 11) at each rank k >= 1."""
    xcg, xci = cumulated(xg), cumulated(xi)
    return at_rank(xcg, ranks) / at_rank(xci, ranks)


def manxcg(xg: np.ndarray, xi: np.ndarray, cutoffs: Sequence[int]) -> np.ndarray:
    """MAnxCG@k = (nxCG[1] + ... + nxCG[k]) / k (seed 000 §4.1)."""
    kmax = max(cutoffs)
    per_rank = nxcg(xg, xi, np.arange(1, kmax + 1))
    c = cumulated(per_rank)
    ks = np.asarray(cutoffs)
    return c[ks] / ks


def natural_points(xg: np.ndarray, xi: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The run's natural points (SPEC §4.5): (ranks, gr, ep).

    At each rank i with xG[i] > 0: g = min(xCG[i], G), gr = g / G and
    ep = i_ideal(g) / i, where i_ideal reads the ideal curve with linear
    interpolation: i_ideal(g) = (j − 1) + (g − xCI[j−1]) / xI[j], j the
    smallest rank with xCI[j] >= g (seed 000 eq. 12, 13).
    """
    ranks = np.flatnonzero(xg > 0) + 1
    xci = cumulated(xi)
    total = xci[-1]
    g = np.minimum(cumulated(xg)[ranks], total)
    # smallest j >= 1 with xCI[j] >= g, decided with the relative tolerance of SPEC §10
    j = np.searchsorted(xci[1:], g - TOLERANCE * total, side="left") + 1
    j = np.minimum(j, len(xi))
    i_ideal = (j - 1) + np.clip((g - xci[j - 1]) / xi[j - 1], 0.0, 1.0)
    return ranks, g / total, i_ideal / ranks


def ep_gr_curve(gr: np.ndarray, ep: np.ndarray, points: np.ndarray = CURVE_POINTS) -> np.ndarray:
    """Effort-precision at gain-recall points (SPEC §4.5).

    Linear interpolation between consecutive natural points (the earliest of
    points sharing one gr); the first point's ep below it; 0 above the last.
    """
    if len(gr) == 0:
        return np.zeros(len(points))
    keep = np.ones(len(gr), dtype=bool)
    keep[1:] = np.diff(gr) > TOLERANCE * np.maximum(gr[1:], 1e-300)
    gr, ep = gr[keep], ep[keep]
    # snap points that equal a natural gr within tolerance onto it
    x = points.copy()
    idx = np.clip(np.searchsorted(gr, x), 1, len(gr)) - 1
    for cand in (idx, np.minimum(idx + 1, len(gr) - 1)):
        close = np.abs(gr[cand] - x) <= TOLERANCE * np.maximum(np.abs(x), 1.0)
        x[close] = gr[cand][close]
    return np.interp(x, gr, ep, left=ep[0], right=0.0)


def maep(ep: np.ndarray, n: int) -> float:
    """MAep = Σ ep at natural points / max(n, #points) (SPEC §4.5)."""
    return float(ep.sum() / max(n, len(ep))) if max(n, len(ep)) else 0.0


def q_measure(xg: np.ndarray, xi: np.ndarray, beta: float = 1.0) -> float:
    """Q = (1/max(R, count(L))) Σ_{g(r)>0} (β·cg(r) + count(r)) / (β·cig(r) + r).

    Sakai's Q-measure (seed 003 eq. 14; SPEC §4.6), R = n, cig without bonus.
    """
    ranks = np.flatnonzero(xg > 0) + 1
    if len(ranks) == 0:
        return 0.0
    cg = cumulated(xg)[ranks]
    cig = at_rank(cumulated(xi), ranks)
    count = np.arange(1, len(ranks) + 1)
    terms = (beta * cg + count) / (beta * cig + ranks)
    return float(terms.sum() / max(len(xi), len(ranks)))


def r_measure(xg: np.ndarray, xi: np.ndarray, beta: float = 1.0) -> float:
    """R-measure = (β·cg(R) + count(R)) / (β·cig(R) + R), R = n (seed 003 eq. 16; SPEC §4.6)."""
    r = len(xi)
    top = xg[:r]
    return float((beta * top.sum() + np.count_nonzero(top > 0)) / (beta * xi.sum() + r))
