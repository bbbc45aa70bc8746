"""The ``ranking`` and ``runs`` rows of ``inexeval assessments --judgements-b``: how far the run
ranking of one measure under judgement set A agrees with the one under set B (docs/measures.md §13.4).

Over the runs with a defined mean under both sets (means over the topics both sets judge):

* ``tau_b``: Kendall's τ-b and ``rho``: Spearman's ρ with average ranks (those of ``inexeval
  compare``, :mod:`inexeval.compare.stats`);
* ``tau_ap``: Yilmaz et al.'s τ_AP of B's ranking against A's, ``tau_ap_b``: Urbano and Marrero's
  symmetric τ_AP-b (:mod:`inexeval.assessments.tau_ap`);
* ``pearson``: Pearson's r of the means, Σ (x − x̄)(y − ȳ) / √(Σ (x − x̄)² Σ (y − ȳ)²);
* ``tau_top_k``: τ-b over the K best runs under A (every run tied with the K-th included);
* ``max_rank_change`` and ``max_rank_change_run``: the largest change of a run's rank (1 the best,
  tied runs sharing their mean rank), the first such run in the runs' order (none when no rank changes);
* ``runs``: how many runs are compared.

A measure where lower is better is ranked that way (its means negated).  Scores within the
relative tolerance of docs/measures.md §10.3 are tied.  Each run's ``mean_a``, ``mean_b``, ``rank_a``
and ``rank_b`` are the rows of section ``runs`` (topic: the run).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import numpy as np

from inexeval.assessments.tau_ap import tau_ap, tau_ap_b
from inexeval.compare import stats as analysis
from inexeval.numeric import TOLERANCE

QUANTITIES = ("tau_b", "tau_ap", "tau_ap_b", "rho", "pearson", "tau_top_k", "max_rank_change",
              "max_rank_change_run", "runs")


def _none(v: float) -> float | None:
    return None if v is None or (isinstance(v, float) and math.isnan(v)) else v


def pearson(x: Sequence[float], y: Sequence[float]) -> float:
    """Pearson's r of X and Y; NaN with fewer than two values or a constant vector."""
    vx, vy = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    if vx.size < 2:
        return math.nan
    dx, dy = vx - vx.mean(), vy - vy.mean()
    sxx, syy = float(dx @ dx), float(dy @ dy)
    if sxx == 0.0 or syy == 0.0:
        return math.nan
    return float(dx @ dy) / math.sqrt(sxx * syy)


def top_k(x: np.ndarray, k: int) -> np.ndarray:
    """The indices of the K largest values of X, with every value tied (§10.3) to the K-th."""
    if k >= x.size:
        return np.arange(x.size)
    kth = np.sort(x)[::-1][k - 1]
    return np.flatnonzero(x >= kth - TOLERANCE * abs(kth))


def ranking_figures(runs: Sequence[str], x: Sequence[float], y: Sequence[float], top: int) -> dict:
    """Every quantity of :data:`QUANTITIES` for the means X (under A) and Y (under B) of RUNS, larger
    better."""
    vx, vy = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    out = dict.fromkeys(QUANTITIES)
    out["runs"] = int(vx.size)
    if vx.size == 0:
        return out
    if vx.size >= 2:
        chosen = top_k(vx, top)
        out.update(tau_b=analysis.kendall_tau_b(vx, vy), tau_ap=tau_ap(vx, vy), tau_ap_b=tau_ap_b(vx, vy),
                   rho=analysis.spearman_rho(vx, vy), pearson=pearson(vx, vy),
                   tau_top_k=analysis.kendall_tau_b(vx[chosen], vy[chosen]) if chosen.size >= 2 else math.nan)
    out["max_rank_change"], out["max_rank_change_run"] = max_rank_change(runs, vx, vy)
    return {q: _none(v) for q, v in out.items()}


def max_rank_change(runs: Sequence[str], x: Sequence[float], y: Sequence[float]) -> tuple[float, str | None]:
    """The largest change of a run's rank between the means X and Y of RUNS (larger better; rank 1 the
    best, tied runs sharing their mean rank) and the first run that changes so (None: no rank changes)."""
    ra = analysis.average_ranks(-np.asarray(x, dtype=float))
    rb = analysis.average_ranks(-np.asarray(y, dtype=float))
    change = np.abs(ra - rb)
    k = int(np.argmax(change))
    return float(change[k]), runs[k] if change[k] > 0 else None


def ranking_rows(name: str, level: str, means_a: Mapping[str, float | None], means_b: Mapping[str, float | None],
                 top: int, lower_is_better: bool = False) -> tuple[list[tuple], list[tuple]]:
    """(``ranking`` rows, ``runs`` rows) of one measure (LEVEL names it) between the run means under A
    and under set NAME, over the runs (A's order) with a defined mean under both."""
    sign = -1.0 if lower_is_better else 1.0
    runs = [r for r, v in means_a.items() if _none(v) is not None and _none(means_b.get(r)) is not None]
    x = [sign * means_a[r] for r in runs]
    y = [sign * means_b[r] for r in runs]
    figures = ranking_figures(runs, x, y, top)
    rows = [("ranking", "all", level, name, q, figures[q]) for q in QUANTITIES]
    per_run = []
    if runs:
        ra, rb = analysis.average_ranks([-v for v in x]), analysis.average_ranks([-v for v in y])
        for k, r in enumerate(runs):
            per_run += [("runs", r, level, name, "mean_a", means_a[r]), ("runs", r, level, name, "mean_b", means_b[r]),
                        ("runs", r, level, name, "rank_a", float(ra[k])), ("runs", r, level, name, "rank_b", float(rb[k]))]
    return rows, per_run


__all__ = ["QUANTITIES", "pearson", "top_k", "ranking_figures", "ranking_rows"]
