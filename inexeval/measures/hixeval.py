"""HiXEval: precision and recall over highlighted text (docs/measures.md §5; seed 001).

Per topic, for the ranked results e_1 … e_L (rsize and size from the
assessments; an unlisted element has rsize 0):

- seen(e) before rank r: rsize(e) when e or an ancestor of e was retrieved
  earlier; else the sum of rsize over the *maximal* earlier-retrieved
  descendants of e (those not inside another earlier-retrieved
  descendant; docs/measures.md §5 Decision); else 0.
- rval_r = max(0, rsize(e_r) − α·seen(e_r))                (seed 001 §3)
- Trel = Σ over files of the root's rsize when α = 1, else Σ rsize over
  every listed element.
- P@r = (1/r) Σ_{i≤r} rval_i / size(e_i), R@r = (1/Trel) Σ_{i≤r} rval_i,
  F@r = 2·P·R / (P + R)                                     (seed 001 §3)
- MAP = Σ_{i: rval_i > 0} P@i · rval_i / Trel (recall-increment weights)
- iMAP = mean over levels 0.0, 0.1, …, 1.0 of max{P@r : R@r ≥ level}.
"""

from __future__ import annotations

import math
from bisect import bisect_left
from typing import Sequence

import numpy as np

from inexeval.model import FileAssessment, TopicAssessment
from inexeval.numeric import TOLERANCE
from inexeval.paths import ancestors_or_self, proper_ancestors

#: The 11 standard recall levels k/10 (exact decimals, docs/measures.md §10).
RECALL_LEVELS = np.array([k / 10 for k in range(11)])


def file_highlighted(fa: FileAssessment) -> int:
    """Highlighted characters of a file: the root's rsize.

    Should the root not be listed (the assessments list every ancestor, so
    this does not happen with well-formed files), the rsize of the
    top-most listed elements (those without a listed ancestor) is summed.
    """
    roots = [p for p in fa.elements if not any(a in fa.elements for a in proper_ancestors(p))]
    return sum(fa.elements[p].rsize for p in roots)


def total_relevant(topic: TopicAssessment, alpha: float) -> int:
    """Trel of docs/measures.md §5: root rsizes (α = 1) or every listed element's rsize (α < 1)."""
    if math.isclose(alpha, 1.0, rel_tol=TOLERANCE, abs_tol=TOLERANCE):
        return sum(file_highlighted(fa) for fa in topic.files.values())
    return sum(j.rsize for fa in topic.files.values() for j in fa.elements.values())


def seen_amounts(topic: TopicAssessment, ranking: Sequence[tuple[str, str]]) -> np.ndarray:
    """seen(e_r) for every rank r, in rank order (docs/measures.md §5).

    Per file, ``tops`` holds the earlier results that have no earlier
    retrieved ancestor, sorted (so a sub-tree is a contiguous slice).  A
    new result with an ancestor-or-self among the earlier results is fully
    seen; otherwise its maximal earlier descendants are exactly the members
    of ``tops`` below it, which it then replaces.
    """
    seen = np.zeros(len(ranking))
    retrieved: dict[str, set[str]] = {}
    tops: dict[str, list[str]] = {}
    for r, (file, path) in enumerate(ranking):
        fa = topic.files.get(file)
        done = retrieved.setdefault(file, set())
        top = tops.setdefault(file, [])
        rs = _rsize(fa, path)
        if any(a in done for a in ancestors_or_self(path)):
            seen[r] = rs
        else:
            # ``top`` is sorted: the descendants of path are the strings in [path + "/", path + "0")
            lo, hi = bisect_left(top, path + "/"), bisect_left(top, path + "0")
            seen[r] = sum(_rsize(fa, d) for d in top[lo:hi])
            top[lo:hi] = [path]
        done.add(path)
    return seen


def _rsize(fa: FileAssessment | None, path: str) -> int:
    if fa is None:
        return 0
    j = fa.elements.get(path)
    return 0 if j is None else j.rsize


def _size(fa: FileAssessment | None, path: str) -> int:
    if fa is None:
        return 0
    j = fa.elements.get(path)
    return 0 if j is None else j.size


def _geq(a: np.ndarray, b: float) -> np.ndarray:
    """a >= b decided with the relative tolerance TOLERANCE (docs/measures.md §10)."""
    return a >= b - TOLERANCE * abs(b)


def hixeval_topic(
    topic: TopicAssessment,
    ranking: Sequence[tuple[str, str]],
    *,
    alpha: float,
    dcv: Sequence[int],
) -> dict[str, float] | None:
    """HiXEval of one topic (docs/measures.md §5): ``hixeval.P@k``, ``R@k``, ``F@k``, ``MAP``, ``iMAP``.

    ``ranking`` is the run's (file, path) results for the topic in rank
    order (normalised, after hygiene).  None when Trel = 0 (docs/measures.md §10).
    """
    trel = total_relevant(topic, alpha)
    if trel == 0:
        return None
    n = len(ranking)
    rsize = np.array([_rsize(topic.files.get(f), p) for f, p in ranking], dtype=float)
    size = np.array([_size(topic.files.get(f), p) for f, p in ranking], dtype=float)
    rval = np.maximum(0.0, rsize - alpha * seen_amounts(topic, ranking))
    # a term with rval = 0 is 0 (also when size is 0)
    spec = np.divide(rval, size, out=np.zeros(n), where=rval > 0)
    ranks = np.arange(1, n + 1)
    prec = np.cumsum(spec) / ranks  # P@r, r = 1..L
    rec = np.cumsum(rval) / trel  # R@r

    out: dict[str, float] = {}
    spec_total, rval_total = float(spec.sum()), float(rval.sum())
    for k in dcv:
        if k <= n:
            p, rc = float(prec[k - 1]), float(rec[k - 1])
        else:  # beyond the run: missing ranks add 0, the divisor stays k
            p, rc = spec_total / k, rval_total / trel
        out[f"hixeval.P@{k}"] = p
        out[f"hixeval.R@{k}"] = rc
        out[f"hixeval.F@{k}"] = 2 * p * rc / (p + rc) if p + rc > 0 else 0.0
    natural = rval > 0
    out["hixeval.MAP"] = float(np.sum(prec[natural] * rval[natural]) / trel)
    levels = [float(prec[_geq(rec, lv)].max(initial=0.0)) for lv in RECALL_LEVELS]
    out["hixeval.iMAP"] = float(np.mean(levels))
    return out


# ------------------------------------------------------------------ registration ----

from inexeval.measures.registry import Measure, Params, TopicInput, register  # noqa: E402

#: Every INEX task strategy: HiXEval reads only the highlighted text of the assessments.
STRATEGIES = frozenset({"thorough", "focussed", "fetchbrowse", "relevantincontext", "bestincontext"})


def _outputs(p: Params) -> list[str]:
    return ([f"hixeval.P@{k}" for k in p.dcv] + [f"hixeval.R@{k}" for k in p.dcv]
            + [f"hixeval.F@{k}" for k in p.dcv] + ["hixeval.MAP", "hixeval.iMAP"])


def _hixeval(t: TopicInput) -> dict[str, float] | None:
    # α = ALPHA with overlap on (and for tasks without OVERLAP), 0 with overlap off (docs/measures.md §5)
    alpha = 0.0 if t.setting.overlap == "off" else t.setting.alpha
    return hixeval_topic(t.topic, t.ranking, alpha=alpha, dcv=t.params.dcv)


register(Measure(
    name="hixeval", strategies=STRATEGIES, params=("ALPHA", "OVERLAP", "DCV"),
    description="HiXEval over highlighted text: hixeval.P@k, R@k, F@k for k in DCV, hixeval.MAP and "
    "hixeval.iMAP; alpha = ALPHA with overlap on, 0 with overlap off (seed 001; docs/measures.md §5)",
    outputs=_outputs, scalars=_outputs, compute=_hixeval,
    # no ideal_one: the ideal runs of its tasks (the XCG order, best entry points) are not the highlighted text
    # exactly; only Relevant in Context's is, and there only MAP and iMAP (with ALPHA = 1) are 1
))
