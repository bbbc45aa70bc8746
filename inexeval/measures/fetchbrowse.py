"""FetchBrowse: article-level and element-level ep/gr (docs/measures.md §4.7; seed 000 §6.3)."""

from __future__ import annotations

from typing import Sequence

import numpy as np

from inexeval.gains import OverlapIndex, gains_overlap_off, gains_overlap_on
from inexeval.measures.xcg import ep_gr_curve, maep, natural_points
from inexeval.recallbase import QuantisedTopic


def article_list(ranking: Sequence[tuple[str, str]]) -> list[str]:
    """Reduce results to their files, first occurrence kept: ⟨a1/e1, a1/e2, a2⟩ → ⟨a1, a2⟩."""
    return list(dict.fromkeys(f for f, _ in ranking))


def epgr_values(xg: np.ndarray, xi: np.ndarray) -> tuple[float, np.ndarray]:
    """(MAep, 100-point ep/gr curve) of a gain vector against a non-empty ideal vector."""
    _, gr, ep = natural_points(xg, xi)
    return maep(ep, len(xi)), ep_gr_curve(gr, ep)


def article_level(qt: QuantisedTopic, ranking) -> tuple[float, np.ndarray] | None:
    """Article-level MAep and curve: article gain = highest quant in the article.

    The ideal vector is the positive article gains, sorted; the run's gains
    are those of its article list.  None when no article is relevant.
    """
    gains = qt.article_gain
    xi = np.array(sorted((g for g in gains.values() if g > 0), reverse=True))
    if len(xi) == 0:
        return None
    xg = np.array([gains.get(a, 0.0) for a in article_list(ranking)], dtype=float)
    return epgr_values(xg, xi)


def element_level(
    qt: QuantisedTopic, index: OverlapIndex | None, ranking, overlap: str, alpha: float
) -> tuple[float, float] | None:
    """Element-level (MAep, iMAep): mean over clusters (retrieved relevant articles).

    A cluster's recall-base is its article's relevant elements (overlap off)
    or ideal elements (on); its ranking is the run's results in that article.
    0 when the run retrieves no relevant article; None when no article is relevant.
    """
    gains = qt.article_gain
    if not any(g > 0 for g in gains.values()):
        return None
    clusters: dict[str, list[tuple[str, str]]] = {}
    for r in ranking:
        if gains.get(r[0], 0.0) > 0:
            clusters.setdefault(r[0], []).append(r)
    if not clusters:
        return 0.0, 0.0
    maeps, imaeps = [], []
    for f, results in clusters.items():
        if overlap == "on":
            qs = qt.file_quants(f)
            xi = np.array(sorted((qs[p] for p in qt.ideal.get(f, ())), reverse=True))
            xg = gains_overlap_on(index, results, alpha)
        else:
            xi = np.array(sorted((q for q in qt.file_quants(f).values() if q > 0), reverse=True))
            xg = gains_overlap_off(qt, results)
        m, curve = epgr_values(xg, xi)
        maeps.append(m)
        imaeps.append(curve.mean())
    return float(np.mean(maeps)), float(np.mean(imaeps))


# ------------------------------------------------------------------ registration ----

from inexeval.measures import xcg  # noqa: E402
from inexeval.measures.registry import Curve, Measure, Params, Setting, TopicContext, TopicInput, register  # noqa: E402


def _outputs(p: Params) -> list[str]:
    return ["article.MAep", "article.iMAep"] + [f"article.ep@{x}" for x in xcg.CURVE_LABELS] + [
        "element.MAep", "element.iMAep"]


def _prepare(ctx: TopicContext, setting: Setting, params: Params) -> None:
    xcg.prepare(ctx, setting, params)
    _ = xcg.quantised(ctx, setting.quant)[0].article_gain


def _fetchbrowse(t: TopicInput) -> dict[str, float] | None:
    qt, index = xcg.quantised(t.context, t.setting.quant)
    art = article_level(qt, t.ranking)
    if art is None:
        return None
    m, curve = art
    out = {"article.MAep": m, "article.iMAep": float(curve.mean())}
    out.update(zip((f"article.ep@{x}" for x in xcg.CURVE_LABELS), curve.tolist()))
    el = element_level(qt, index, t.ranking, t.setting.overlap, t.setting.alpha)
    out["element.MAep"], out["element.iMAep"] = el
    return out


register(Measure(
    name="ep/gr", aliases=("epgr", "maep", "imaep"), strategies=frozenset({"fetchbrowse"}), params=(),
    description="FetchBrowse ep/gr: article.MAep, article.iMAep and curve article.ep@x over article "
    "gains; element.MAep and element.iMAep averaged over clusters (seed 000 §6.3; docs/measures.md §4.7)",
    outputs=_outputs, scalars=lambda p: ["article.MAep", "article.iMAep", "element.MAep", "element.iMAep"],
    compute=_fetchbrowse, prepare=_prepare, needs_assessments=False,
    ideal_one=_outputs,  # articles by decreasing gain, each with its elements in the ideal order
    curves=lambda p: [Curve("article ep/gr", [f"article.ep@{x}" for x in xcg.CURVE_LABELS],
                            list(xcg.CURVE_POINTS), "gain-recall (articles)", "effort-precision")],
))
