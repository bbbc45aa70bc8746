"""τ_AP, the rank correlation that weighs the top of a ranking more (docs/measures.md §13.4).

Yilmaz, Aslam and Robertson, "A new rank correlation coefficient for information retrieval"
(SIGIR 2008): with the runs in the order of the compared scores y (best first) and x the
reference,

    τ_AP = 2/(n − 1) · Σ_{i=2..n} C(i)/(i − 1) − 1,

C(i) the runs above position i (in y's order) that x also ranks above the run at i.  Without ties
it is asymmetric (x the truth, y the estimate) and equals Kendall's τ when errors are spread
evenly.  Urbano and Marrero, "The treatment of ties in AP correlation" (ICTIR 2017), make it
tie-aware: the position of run i is replaced by p_i, the number of runs y ranks strictly above it,
the sum runs over the runs with p_i > 0 (not in y's top tie group, n' of them), and a run above
i counts only when x ranks it strictly above i:

    τ_AP-b(x → y) = 2/n' · Σ_{i: p_i > 0} C(i)/p_i − 1,    τ_AP-b = (τ_AP-b(x → y) + τ_AP-b(y → x)) / 2.

:func:`tau_ap` is the one-sided coefficient with x the reference (Yilmaz et al.'s τ_AP when y has
no ties; with ties, Urbano and Marrero's one-sided form above), :func:`tau_ap_b` the symmetric
mean.  Scores within the relative tolerance of docs/measures.md §10.3 are tied
(:func:`inexeval.compare.stats.tie_groups`).  Larger scores rank higher.  Undefined (NaN) with
fewer than two runs or when a ranking ties every run (n' = 0).  O(n²) numpy over the pairs.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from inexeval.compare.stats import tie_groups
from inexeval.numeric import TOLERANCE


def _one_sided(gx: np.ndarray, gy: np.ndarray) -> float:
    """τ_AP-b(x → y) of dense tie groups (larger group = better score)."""
    above_y = gy[None, :] > gy[:, None]  # [i, j]: y ranks j strictly above i
    p = above_y.sum(axis=1)
    above_x = gx[None, :] > gx[:, None]
    c = (above_y & above_x).sum(axis=1)
    rest = p > 0
    if not np.any(rest):
        return math.nan
    return 2.0 / int(rest.sum()) * float((c[rest] / p[rest]).sum()) - 1.0


def _groups(x: Sequence[float], y: Sequence[float], rel_tol: float) -> tuple[np.ndarray, np.ndarray] | None:
    vx, vy = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    if vx.shape != vy.shape or vx.ndim != 1:
        raise ValueError(f"x and y must be vectors of the same length (shapes {vx.shape} and {vy.shape})")
    if not (np.all(np.isfinite(vx)) and np.all(np.isfinite(vy))):
        raise ValueError("scores must be finite numbers (leave out the runs without a value)")
    if vx.size < 2:
        return None
    return tie_groups(vx, rel_tol), tie_groups(vy, rel_tol)


def tau_ap(x: Sequence[float], y: Sequence[float], *, rel_tol: float = TOLERANCE) -> float:
    """τ_AP of ranking Y against the reference X (module docstring); NaN when undefined."""
    g = _groups(x, y, rel_tol)
    return math.nan if g is None else _one_sided(*g)


def tau_ap_b(x: Sequence[float], y: Sequence[float], *, rel_tol: float = TOLERANCE) -> float:
    """τ_AP-b, the mean of both one-sided coefficients (module docstring); NaN when either is undefined."""
    g = _groups(x, y, rel_tol)
    if g is None:
        return math.nan
    return (_one_sided(g[0], g[1]) + _one_sided(g[1], g[0])) / 2.0


__all__ = ["tau_ap", "tau_ap_b"]
