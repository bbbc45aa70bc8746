"""The measure registry: every METRICS family, its outputs and how to compute it.

The engine looks measures up here by (name, strategy) and never branches on
measure names.  ``inexeval metrics`` prints this table.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Callable, Sequence

import numpy as np

from inexeval.gains import OverlapIndex, gains_overlap_off, gains_overlap_on
from inexeval.measures import bep, context, fetchbrowse, hixeval, xcg
from inexeval.model import TopicAssessment
from inexeval.recallbase import QuantisedTopic


@dataclass(frozen=True)
class Setting:
    """One evaluation setting: quantisation and overlap (None where the task has none)."""

    quant: str | None
    overlap: str | None
    alpha: float

    @property
    def name(self) -> str:
        return f"{self.quant}_{self.overlap}" if self.quant else "default"


@dataclass(frozen=True)
class Params:
    """Measure parameters taken from the config (SPEC §2.3)."""

    dcv: tuple[int, ...] = (10, 25, 50)
    max_results: int = 1500
    q_beta: float = 1.0
    bep_a: tuple[str, ...] = ("0.01", "0.1", "1", "10", "100")
    avg_doc_length: float | None = None


@dataclass
class TopicInput:
    """What a measure sees for one (run, topic, setting): shared, lazily computed gains."""

    topic: TopicAssessment
    ranking: Sequence[tuple[str, str]]
    setting: Setting
    params: Params
    qt: QuantisedTopic | None = None
    overlap_index: OverlapIndex | None = None
    services: dict = field(default_factory=dict)  # e.g. the collection, a warning sink
    ids: np.ndarray | None = None  # the ranking's element ids, shared by the topic's settings

    @cached_property
    def xi(self) -> np.ndarray:
        return self.qt.ideal_gain_vector(self.setting.overlap)

    @cached_property
    def xg(self) -> np.ndarray:
        if self.setting.overlap == "on":
            return gains_overlap_on(self.overlap_index, self.ranking, self.setting.alpha, self.ids)
        return gains_overlap_off(self.qt, self.ranking, self.ids)


@dataclass(frozen=True)
class Measure:
    name: str  # as written in METRICS (lower case)
    strategies: frozenset[str]
    description: str
    params: tuple[str, ...]  # config keys it reads
    outputs: Callable[[Params], list[str]]  # every output name, in order
    scalars: Callable[[Params], list[str]]  # the ones printed in tables (no curve points)
    compute: Callable[[TopicInput], dict[str, float] | None]  # None: undefined for the topic
    aliases: tuple[str, ...] = ()
    #: False for measures that read only the quantised recall-bases (TopicInput.qt), not the
    #: assessment objects (TopicInput.topic): then those are released after the recall-bases are built
    needs_assessments: bool = True
    #: the curves graph writers draw: (title, output names, x values) for given params
    curves: Callable[[Params], list[tuple[str, list[str], list[float]]]] = lambda p: []


REGISTRY: list[Measure] = []


def register(m: Measure) -> Measure:
    REGISTRY.append(m)
    return m


def find(name: str, strategy: str) -> Measure | None:
    key = name.lower()
    for m in REGISTRY:
        if strategy in m.strategies and (m.name == key or key in m.aliases):
            return m
    return None


def names_for(strategy: str) -> list[str]:
    return [m.name for m in REGISTRY if strategy in m.strategies]


# ---------------------------------------------------------------- XCG ----
XCG = frozenset({"thorough", "focussed"})


def _curve_ranks(p: Params) -> list[int]:
    return sorted(set(int(r) for r in xcg.curve_ranks(p.max_results)))


def _nxcg_outputs(p: Params) -> list[str]:
    ranks = sorted(set(p.dcv) | set(_curve_ranks(p)))
    return [f"nxCG@{k}" for k in ranks] + [f"MAnxCG@{k}" for k in p.dcv]


def _nxcg_scalars(p: Params) -> list[str]:
    return [f"nxCG@{k}" for k in p.dcv] + [f"MAnxCG@{k}" for k in p.dcv]


def _nxcg(t: TopicInput) -> dict[str, float] | None:
    if len(t.xi) == 0:
        return None
    p = t.params
    ranks = np.array(sorted(set(p.dcv) | set(_curve_ranks(p))))
    out = dict(zip((f"nxCG@{k}" for k in ranks), xcg.nxcg(t.xg, t.xi, ranks).tolist()))
    out.update(zip((f"MAnxCG@{k}" for k in p.dcv), xcg.manxcg(t.xg, t.xi, p.dcv).tolist()))
    return out


def _epgr_outputs(p: Params) -> list[str]:
    return ["MAep", "iMAep"] + [f"ep@{x}" for x in xcg.CURVE_LABELS]


def _epgr(t: TopicInput) -> dict[str, float] | None:
    if len(t.xi) == 0:
        return None
    _, gr, ep = xcg.natural_points(t.xg, t.xi)
    curve = xcg.ep_gr_curve(gr, ep)
    out = {"MAep": xcg.maep(ep, len(t.xi)), "iMAep": float(curve.mean())}
    out.update(zip((f"ep@{x}" for x in xcg.CURVE_LABELS), curve.tolist()))
    return out


def _qr(t: TopicInput) -> dict[str, float] | None:
    if len(t.xi) == 0:
        return None
    b = t.params.q_beta
    return {"Q": xcg.q_measure(t.xg, t.xi, b), "R": xcg.r_measure(t.xg, t.xi, b)}


register(Measure(
    needs_assessments=False, name="nxcg", aliases=("manxcg",), strategies=XCG, params=("DCV", "MAX_RESULTS"),
    description="normalised extended cumulated gain nxCG@k and its mean MAnxCG@k for k in DCV, "
    "plus the 100-point nxCG curve at ranks ceil(p*MAX_RESULTS/100) (seed 000 §4.1)",
    outputs=_nxcg_outputs, scalars=_nxcg_scalars, compute=_nxcg,
    curves=lambda p: [("nxCG", [f"nxCG@{k}" for k in xcg.curve_ranks(p.max_results)],
                       [int(k) for k in xcg.curve_ranks(p.max_results)])],
))
register(Measure(
    needs_assessments=False, name="ep/gr", aliases=("epgr", "maep", "imaep"), strategies=XCG, params=(),
    description="effort-precision / gain-recall: MAep (non-interpolated mean ep at natural "
    "points), iMAep (mean of the 100-point interpolated curve) and the curve ep@x (seed 000 §4.2)",
    outputs=_epgr_outputs, scalars=lambda p: ["MAep", "iMAep"], compute=_epgr,
    curves=lambda p: [("ep/gr", [f"ep@{x}" for x in xcg.CURVE_LABELS], list(xcg.CURVE_POINTS))],
))
register(Measure(
    needs_assessments=False, name="q", aliases=("r", "q-measure", "r-measure"), strategies=XCG, params=("Q_BETA",),
    description="Sakai's Q-measure and R-measure over the XCG gains, bonus beta = Q_BETA "
    "(seed 003 eq. 14, 16; seed 000 §5)",
    outputs=lambda p: ["Q", "R"], scalars=lambda p: ["Q", "R"], compute=_qr,
))


# -------------------------------------------------------- FetchBrowse ----
def _fb_outputs(p: Params) -> list[str]:
    return ["article.MAep", "article.iMAep"] + [f"article.ep@{x}" for x in xcg.CURVE_LABELS] + [
        "element.MAep", "element.iMAep"]


def _fb(t: TopicInput) -> dict[str, float] | None:
    art = fetchbrowse.article_level(t.qt, t.ranking)
    if art is None:
        return None
    m, curve = art
    out = {"article.MAep": m, "article.iMAep": float(curve.mean())}
    out.update(zip((f"article.ep@{x}" for x in xcg.CURVE_LABELS), curve.tolist()))
    el = fetchbrowse.element_level(t.qt, t.overlap_index, t.ranking, t.setting.overlap, t.setting.alpha)
    out["element.MAep"], out["element.iMAep"] = el
    return out


register(Measure(
    needs_assessments=False, name="ep/gr", aliases=("epgr", "maep", "imaep"), strategies=frozenset({"fetchbrowse"}), params=(),
    description="FetchBrowse ep/gr: article.MAep, article.iMAep and curve article.ep@x over article "
    "gains; element.MAep and element.iMAep averaged over clusters (seed 000 §6.3; SPEC §4.7)",
    outputs=_fb_outputs, scalars=lambda p: ["article.MAep", "article.iMAep", "element.MAep", "element.iMAep"],
    compute=_fb,
    curves=lambda p: [("article ep/gr", [f"article.ep@{x}" for x in xcg.CURVE_LABELS],
                       list(xcg.CURVE_POINTS))],
))


# ------------------------------------------------------------ HiXEval ----
INEX = frozenset({"thorough", "focussed", "fetchbrowse", "relevantincontext", "bestincontext"})


def _hixeval_outputs(p: Params) -> list[str]:
    return ([f"hixeval.P@{k}" for k in p.dcv] + [f"hixeval.R@{k}" for k in p.dcv]
            + [f"hixeval.F@{k}" for k in p.dcv] + ["hixeval.MAP", "hixeval.iMAP"])


def _hixeval(t: TopicInput) -> dict[str, float] | None:
    # α = ALPHA with overlap on (and for tasks without OVERLAP), 0 with overlap off (SPEC §5)
    alpha = 0.0 if t.setting.overlap == "off" else t.setting.alpha
    return hixeval.hixeval_topic(t.topic, t.ranking, alpha=alpha, dcv=t.params.dcv)


register(Measure(
    name="hixeval", strategies=INEX, params=("ALPHA", "OVERLAP", "DCV"),
    description="HiXEval over highlighted text: hixeval.P@k, R@k, F@k for k in DCV, hixeval.MAP and "
    "hixeval.iMAP; alpha = ALPHA with overlap on, 0 with overlap off (seed 001; SPEC §5)",
    outputs=_hixeval_outputs, scalars=_hixeval_outputs, compute=_hixeval,
))


# --------------------------------------------------- Relevant in Context ----
def _gp_outputs(p: Params) -> list[str]:
    return ["MAgP"] + [f"gP@{k}" for k in p.dcv] + [f"gR@{k}" for k in p.dcv]


def _gp(t: TopicInput) -> dict[str, float] | None:
    return context.relevant_in_context_topic(t.topic, t.ranking, size_of=t.services["size_of"],
                                             dcv=t.params.dcv, warn=t.services.get("warn"))


register(Measure(
    name="gp", aliases=("magp", "agp"), strategies=frozenset({"relevantincontext"}),
    params=("DCV", "COLLECTION_DIR"),
    description="Relevant in Context: generalised precision gP@k and recall gR@k over articles "
    "(per-article F of highlighted text), MAgP = mean average gP (seed 002 §5; SPEC §6)",
    outputs=_gp_outputs, scalars=_gp_outputs, compute=_gp,
))


# ------------------------------------------------------ Best in Context ----
def _bep_outputs(p: Params) -> list[str]:
    out = [f"BEPD(A={a})" for a in p.bep_a] + [f"EPRUM(A={a})" for a in p.bep_a]
    for a in p.bep_a:
        out += [f"EPRUM(A={a})@{x}" for x in bep.RHO_LABELS]
    return out


def _bep(t: TopicInput) -> dict[str, float] | None:
    return bep.best_in_context_topic(t.topic, t.ranking, offset_of=t.services["offset_of"],
                                     a_values=t.params.bep_a, avg_doc_length=t.params.avg_doc_length,
                                     warn=t.services.get("warn"))


register(Measure(
    name="bepd", aliases=("eprum", "bep"), strategies=frozenset({"bestincontext"}),
    params=("BEP_A", "AVG_DOC_LENGTH", "COLLECTION_DIR"),
    description="Best in Context: BEPD(A=a) (distance-discounted best entry points found) and "
    "EPRUM(A=a) with its precision-recall curve, for each A in BEP_A (seed 002 §6; SPEC §7)",
    outputs=_bep_outputs,
    scalars=lambda p: [f"BEPD(A={a})" for a in p.bep_a] + [f"EPRUM(A={a})" for a in p.bep_a],
    compute=_bep,
    curves=lambda p: [(f"EPRUM(A={a})", [f"EPRUM(A={a})@{x}" for x in bep.RHO_LABELS], list(bep.RHO))
                      for a in p.bep_a],
))
