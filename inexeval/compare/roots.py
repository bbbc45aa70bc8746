"""One root of a monotone function on a bracket: regula falsi with the Illinois modification.

Where f(lo) and f(hi) have opposite signs, each step draws the secant through the bracket's ends
and keeps the half that still changes sign; when the same end moves twice in a row, the function
value kept at the other end is halved (the Illinois modification: Dowell & Jarratt, BIT 11, 1971),
which restores the secant's superlinear convergence where plain regula falsi would creep; a
secant point outside the bracket, or a flat one, is replaced by the midpoint.  It stops when the
bracket is narrower than ``xtol + rtol·|x|`` or a point is an exact root.  Used for the quantiles
of the studentized range (:mod:`inexeval.compare.ptukey`) and the noncentrality bounds of d_z
(:func:`inexeval.compare.anova.paired_effect_size`), so that neither needs ``scipy.optimize``.
"""

from __future__ import annotations

import math
from collections.abc import Callable


def illinois(f: Callable[[float], float], lo: float, hi: float, *, flo: float | None = None,
             fhi: float | None = None, xtol: float = 0.0, rtol: float = 1e-13, maxiter: int = 500) -> float:
    """A root of F in [LO, HI], where F(LO) and F(HI) (FLO, FHI when already known) have opposite
    signs or one is 0; the midpoint of the last bracket when MAXITER steps do not narrow it to
    XTOL + RTOL·max(|LO|, |HI|).  ValueError when the signs are the same."""
    lo, hi = float(lo), float(hi)
    flo = float(f(lo)) if flo is None else float(flo)
    fhi = float(f(hi)) if fhi is None else float(fhi)
    if flo == 0.0:
        return lo
    if fhi == 0.0:
        return hi
    if math.copysign(1.0, flo) == math.copysign(1.0, fhi):
        raise ValueError(f"no sign change on [{lo!r}, {hi!r}]: f = {flo!r}, {fhi!r}")
    side = 0
    for _ in range(maxiter):
        if hi - lo <= xtol + rtol * max(abs(lo), abs(hi)):
            break
        x = hi - fhi * (hi - lo) / (fhi - flo) if fhi != flo else (lo + hi) / 2.0
        if not lo < x < hi:
            x = (lo + hi) / 2.0
        fx = float(f(x))
        if fx == 0.0:
            return x
        if math.copysign(1.0, fx) == math.copysign(1.0, flo):
            lo, flo = x, fx
            if side == -1:  # the low end moved twice: halve the high end's value
                fhi /= 2.0
            side = -1
        else:
            hi, fhi = x, fx
            if side == 1:
                flo /= 2.0
            side = 1
    return (lo + hi) / 2.0
