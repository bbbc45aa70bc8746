"""XCG measures over a gain vector xG and an ideal vector xI (docs/measures.md §4.4–§4.6).

Sources: seed 000 §3.1–§3.4 (nxCG, MAnxCG, ep/gr, MAep, iMAep; Q and R) with seed 003
(Q- and R-measure).  All kernels take numpy arrays: xG in rank order (any
length L, gains >= 0) and xI sorted in decreasing order with every entry > 0.
"""

from __future__ import annotations

import functools
from typing import Sequence

import numpy as np

from inexeval.numeric import TOLERANCE

#: Standard recall / gain-recall points p/100, p = 1..100 (exact decimals, docs/measures.md §10).
CURVE_POINTS = np.arange(1, 101) / 100.0
CURVE_LABELS = tuple(f"{p / 100:.2f}" for p in range(1, 101))


def cumulated(x: np.ndarray) -> np.ndarray:
    """[0, x1, x1+x2, ...]: cumulated values with a leading 0 (so c[k] is the sum of the first k)."""
    c = np.empty(len(x) + 1)
    c[0] = 0.0
    np.cumsum(x, out=c[1:])
    return c


def at_rank(c: np.ndarray, k: int | np.ndarray) -> np.ndarray:
    """c[min(k, len)] : a cumulated value read at rank k, kept beyond the list's end (docs/measures.md §10)."""
    return c[np.minimum(k, len(c) - 1)]


def curve_ranks(max_results: int) -> np.ndarray:
    """Ranks ⌈p · MAX_RESULTS / 100⌉ for p = 1..100, in integer arithmetic (docs/measures.md §4.4)."""
    p = np.arange(1, 101, dtype=np.int64)
    return (p * max_results + 99) // 100


def nxcg(xg: np.ndarray, xi: np.ndarray, ranks: np.ndarray) -> np.ndarray:
    """nxCG@k = xCG[k] / xCI[k] (seed 000 eq. 5) at each rank k >= 1."""
    xcg, xci = cumulated(xg), cumulated(xi)
    return at_rank(xcg, ranks) / at_rank(xci, ranks)


def manxcg(xg: np.ndarray, xi: np.ndarray, cutoffs: Sequence[int]) -> np.ndarray:
    """MAnxCG@k = (nxCG[1] + ... + nxCG[k]) / k (seed 000 eq. 6)."""
    kmax = max(cutoffs)
    per_rank = nxcg(xg, xi, np.arange(1, kmax + 1))
    c = cumulated(per_rank)
    ks = np.asarray(cutoffs)
    return c[ks] / ks


def natural_points(xg: np.ndarray, xi: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The run's natural points (docs/measures.md §4.5): (ranks, gr, ep).

    At each rank i with xG[i] > 0: g = min(xCG[i], G), gr = g / G and
    ep = i_ideal(g) / i, where i_ideal reads the ideal curve with linear
    interpolation: i_ideal(g) = (j − 1) + (g − xCI[j−1]) / xI[j], j the
    smallest rank with xCI[j] >= g (seed 000 eq. 11, 12).
    """
    ranks = np.flatnonzero(xg > 0) + 1
    xci = cumulated(xi)
    total = xci[-1]
    g = np.minimum(cumulated(xg)[ranks], total)
    # smallest j >= 1 with xCI[j] >= g, decided with the relative tolerance of docs/measures.md §10
    j = np.searchsorted(xci[1:], g - TOLERANCE * total, side="left") + 1
    j = np.minimum(j, len(xi))
    i_ideal = (j - 1) + np.clip((g - xci[j - 1]) / xi[j - 1], 0.0, 1.0)
    return ranks, g / total, i_ideal / ranks


def ep_gr_curve(gr: np.ndarray, ep: np.ndarray, points: np.ndarray = CURVE_POINTS) -> np.ndarray:
    """Effort-precision at gain-recall points (docs/measures.md §4.5).

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
    """MAep = Σ ep at natural points / max(n, #points) (docs/measures.md §4.5)."""
    return float(ep.sum() / max(n, len(ep))) if max(n, len(ep)) else 0.0


def q_measure(xg: np.ndarray, xi: np.ndarray, beta: float = 1.0) -> float:
    """Q = (1/max(R, count(L))) Σ_{g(r)>0} (β·cg(r) + count(r)) / (β·cig(r) + r).

    Sakai's Q-measure (seed 003 eq. 15; docs/measures.md §4.6), R = n, cig without bonus.
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
    """R-measure = (β·cg(R) + count(R)) / (β·cig(R) + R), R = n (seed 003 eq. 16; docs/measures.md §4.6)."""
    r = len(xi)
    top = xg[:r]
    return float((beta * top.sum() + np.count_nonzero(top > 0)) / (beta * xi.sum() + r))


# ------------------------------------------------------------------ registration ----
#
# The XCG family (docs/measures.md §4): per topic and quantisation, the recall-bases are built once
# (prepare) and shared by every run and setting; per (run, topic, setting), the gain vectors xG and
# xI are computed once and shared by nxCG, ep/gr and Q/R.

from inexeval.gains import OverlapIndex, gains_overlap_off, gains_overlap_on, seen_ranks  # noqa: E402
from inexeval.measures.registry import (  # noqa: E402
    Curve,
    Measure,
    Params,
    Setting,
    TopicContext,
    TopicInput,
    register,
)
from inexeval.recallbase import QuantisedTopic, TopicElements  # noqa: E402

#: Task strategies scored with the XCG measures (inexeval.tasks).
STRATEGIES = frozenset({"thorough", "focussed"})


def topic_elements(ctx: TopicContext) -> TopicElements:
    """The topic's assessed elements, numbered once and shared by its quantisations."""
    return ctx.memo("elements", lambda: TopicElements(ctx.assessment))


def quantised(ctx: TopicContext, quant: str) -> tuple[QuantisedTopic, OverlapIndex]:
    """The topic's recall-bases under ``quant`` and their overlap index (built once)."""
    def build():
        qt = QuantisedTopic(ctx.assessment, quant, topic_elements(ctx))
        return qt, OverlapIndex(qt)
    return ctx.memo(("quantised", quant), build)


def prepare(ctx: TopicContext, setting: Setting, params: Params) -> None:
    """Build what the XCG measures read (docs/measures.md §4.2): reading the cached
    properties builds them, before workers fork."""
    qt, index = quantised(ctx, setting.quant)
    qt.ideal_gain_vector(setting.overlap)
    if setting.overlap == "on":
        _ = index.q, index.maps, qt.elements._child_index, qt.elements.up_chain


def gains(t: TopicInput) -> tuple[np.ndarray, np.ndarray]:
    """(xG, xI) of one (run, topic, setting), computed once for all XCG measures (docs/measures.md §4.3)."""
    got = t.memo.get("xcg")
    if got is None:
        qt, index = quantised(t.context, t.setting.quant)
        ids = t.run_memo.get("element_ids")
        if ids is None:
            ids = t.run_memo["element_ids"] = topic_elements(t.context).ids(t.ranking)
        xi = qt.ideal_gain_vector(t.setting.overlap)
        if t.setting.overlap == "on":
            seen = t.run_memo.get("seen_ranks")
            if seen is None and not qt.elements.unlisted_above:
                seen = t.run_memo["seen_ranks"] = seen_ranks(qt.elements, ids)
            xg = gains_overlap_on(index, t.ranking, t.setting.alpha, ids, seen)
        else:
            xg = gains_overlap_off(qt, t.ranking, ids)
        got = t.memo["xcg"] = (xg, xi)
    return got


def _curve_ranks(p: Params) -> list[int]:
    return sorted(set(int(r) for r in curve_ranks(p.max_results)))


def _nxcg_outputs(p: Params) -> list[str]:
    ranks = sorted(set(p.dcv) | set(_curve_ranks(p)))
    return [f"nxCG@{k}" for k in ranks] + [f"MAnxCG@{k}" for k in p.dcv]


def _nxcg_scalars(p: Params) -> list[str]:
    return [f"nxCG@{k}" for k in p.dcv] + [f"MAnxCG@{k}" for k in p.dcv]


@functools.lru_cache(maxsize=16)
def _nxcg_plan(dcv: tuple[int, ...], max_results: int | None) -> tuple[np.ndarray, list[str], list[str]]:
    """The ranks at which nxCG is computed and the output names, once per parameters (not per topic)."""
    ranks = sorted(set(dcv) | {int(r) for r in curve_ranks(max_results)})
    return np.array(ranks), [f"nxCG@{k}" for k in ranks], [f"MAnxCG@{k}" for k in dcv]


def _nxcg(t: TopicInput) -> dict[str, float] | None:
    xg, xi = gains(t)
    if len(xi) == 0:
        return None
    p = t.params
    ranks, names, ma_names = _nxcg_plan(tuple(p.dcv), p.max_results)
    out = dict(zip(names, nxcg(xg, xi, ranks).tolist()))
    out.update(zip(ma_names, manxcg(xg, xi, p.dcv).tolist()))
    return out


def _nxcg_curves(p: Params) -> list[Curve]:
    ranks = [int(k) for k in curve_ranks(p.max_results)]
    # a log rank axis: the early ranks, where runs differ, get as much room as the long tail
    return [Curve("nxCG", [f"nxCG@{k}" for k in ranks], ranks, "rank", "nxCG", xscale="log")]


def _epgr_outputs(p: Params) -> list[str]:
    return ["MAep", "iMAep"] + [f"ep@{x}" for x in CURVE_LABELS]


def _epgr(t: TopicInput) -> dict[str, float] | None:
    xg, xi = gains(t)
    if len(xi) == 0:
        return None
    _, gr, ep = natural_points(xg, xi)
    curve = ep_gr_curve(gr, ep)
    out = {"MAep": maep(ep, len(xi)), "iMAep": float(curve.mean())}
    out.update(zip(_EP_NAMES, curve.tolist()))
    return out


_EP_NAMES = tuple(f"ep@{x}" for x in CURVE_LABELS)


def _qr(t: TopicInput) -> dict[str, float] | None:
    xg, xi = gains(t)
    if len(xi) == 0:
        return None
    b = t.params.q_beta
    return {"Q": q_measure(xg, xi, b), "R": r_measure(xg, xi, b)}


register(Measure(
    name="nxcg", aliases=("manxcg",), strategies=STRATEGIES, params=("DCV", "MAX_RESULTS"),
    description="normalised extended cumulated gain nxCG@k and its mean MAnxCG@k for k in DCV, "
    "plus the 100-point nxCG curve at ranks ceil(p*MAX_RESULTS/100) (seed 000 §3.1)",
    outputs=_nxcg_outputs, scalars=_nxcg_scalars, compute=_nxcg, curves=_nxcg_curves,
    prepare=prepare, needs_assessments=False, ideal_one=_nxcg_outputs,  # the ideal order gives xG = xI
))
register(Measure(
    name="ep/gr", aliases=("epgr", "maep", "imaep"), strategies=STRATEGIES, params=(), headline=("MAep",),
    description="effort-precision / gain-recall: MAep (non-interpolated mean ep at natural "
    "points), iMAep (mean of the 100-point interpolated curve) and the curve ep@x (seed 000 §3.3)",
    outputs=_epgr_outputs, scalars=lambda p: ["MAep", "iMAep"], compute=_epgr,
    curves=lambda p: [Curve("ep/gr", [f"ep@{x}" for x in CURVE_LABELS], list(CURVE_POINTS),
                            "gain-recall", "effort-precision")],
    prepare=prepare, needs_assessments=False, ideal_one=_epgr_outputs,  # xG = xI: ep = 1 at every point
))
register(Measure(
    name="q", aliases=("r", "q-measure", "r-measure"), strategies=STRATEGIES, params=("Q_BETA",),
    description="Sakai's Q-measure and R-measure over the XCG gains, bonus beta = Q_BETA "
    "(seed 003 eq. 15, 16; seed 000 §3.4)",
    outputs=lambda p: ["Q", "R"], scalars=lambda p: ["Q", "R"], compute=_qr,
    prepare=prepare, needs_assessments=False, ideal_one=lambda p: ["Q", "R"],  # cg = cig, count(r) = r
))
