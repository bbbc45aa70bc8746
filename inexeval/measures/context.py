"""Relevant in Context: generalised precision and recall over articles (docs/measures.md §6; seed 002 §6).

The run's articles a_1 … a_m are its files in order of first appearance.
The results of an article form E_a, reduced to the elements without an
ancestor in E_a.  With Trel(a) the highlighted text of a (its root's
rsize):

- P(a) = Σ_{e∈E_a} rsize(e) / Σ_{e∈E_a} size(e),  R(a) = Σ rsize(e) / Trel(a),
  F(a) = 2·P·R / (P + R), and F(a) = 0 for a non-relevant article (Trel = 0)
                                                            (seed 002 §6.2)
- gP[r] = Σ_{i≤r} F(a_i) / r (the divisor stays r beyond the list)
- gR[r] = |relevant articles among a_1 … a_r| / Numrel
- AgP = Σ_i rel(a_i) · gP[i] / Numrel                       (seed 002 §6.2)

Sizes of listed elements come from the assessments; an unlisted element's
size comes from ``size_of`` (the collection, docs/formats.md §1.4) and its rsize is 0.
"""

from __future__ import annotations

from typing import Callable, Sequence

import numpy as np

from inexeval.measures.hixeval import file_highlighted
from inexeval.model import FileAssessment, TopicAssessment
from inexeval.paths import proper_ancestors

SizeOf = Callable[[str, str], "int | None"]
Warn = Callable[[str], None]


def article_list(ranking: Sequence[tuple[str, str]]) -> dict[str, list[str]]:
    """Files in order of first appearance, each with its retrieved paths in rank order."""
    articles: dict[str, list[str]] = {}
    for file, path in ranking:
        articles.setdefault(file, []).append(path)
    return articles


def remove_overlap(paths: Sequence[str]) -> list[str]:
    """The paths without a proper ancestor among ``paths`` (order kept)."""
    present = set(paths)
    return [p for p in paths if not any(a in present for a in proper_ancestors(p))]


def article_f(
    topic: TopicAssessment,
    fa: FileAssessment,
    paths: Sequence[str],
    size_of: SizeOf,
    warn: Warn,
) -> float:
    """F(a) of one relevant article (Trel(a) > 0) for its retrieved ``paths``.

    Every retrieved path that is neither listed nor in the document is warned
    about, also one that overlap removal drops because an ancestor of it was
    retrieved (docs/measures.md §6: a warning for every such result).
    """
    retrieved, highlighted = 0, 0
    kept = remove_overlap(paths)
    for path in kept:
        j = fa.elements.get(path)
        if j is not None:  # the assessments win
            retrieved += j.size
            highlighted += j.rsize
            continue
        size = size_of(fa.file, path)
        if size is None:
            _not_in_document(topic, fa, path, warn)
            continue
        retrieved += size
    if len(kept) < len(paths):
        kept_set = set(kept)
        for path in paths:
            if path not in kept_set and path not in fa.elements and size_of(fa.file, path) is None:
                _not_in_document(topic, fa, path, warn)
    p = highlighted / retrieved if retrieved else 0.0
    r = highlighted / file_highlighted(fa)
    return 2 * p * r / (p + r) if p + r > 0 else 0.0


def _not_in_document(topic: TopicAssessment, fa: FileAssessment, path: str, warn: Warn) -> None:
    warn(f"topic {topic.topic}: {fa.file} {path}: path not in the document, it retrieves no text")


def relevant_in_context_topic(
    topic: TopicAssessment,
    ranking: Sequence[tuple[str, str]],
    *,
    size_of: SizeOf,
    dcv: Sequence[int],
    warn: Warn | None = None,
) -> dict[str, float] | None:
    """gP@k, gR@k (k in ``dcv``) and MAgP (this topic's AgP) of one topic (docs/measures.md §6).

    ``ranking``: the run's (file, path) results in rank order, normalised.
    ``size_of(file, path)``: text length of an element that is not in the
    assessments, None when the path is not in the document (then size =
    rsize = 0 and ``warn`` is called with a message naming topic, file and
    path; the caller adds the run).  It is called only for articles with
    highlighted text; it may raise (missing document, no collection).
    None when the topic has no relevant article (Numrel = 0, docs/measures.md §10).
    """
    warn = warn if warn is not None else (lambda _msg: None)
    relevant = {f for f, fa in topic.files.items() if file_highlighted(fa) > 0}
    numrel = len(relevant)
    if numrel == 0:
        return None
    articles = article_list(ranking)
    f_values = np.array(
        [
            article_f(topic, topic.files[file], paths, size_of, warn) if file in relevant else 0.0
            for file, paths in articles.items()
        ]
    )
    rel = np.array([file in relevant for file in articles], dtype=float)
    m = len(articles)
    ranks = np.arange(1, m + 1)
    gp = np.cumsum(f_values) / ranks
    rel_count = np.cumsum(rel)

    out: dict[str, float] = {"MAgP": float(np.sum(rel * gp) / numrel)}
    for k in dcv:  # beyond the list: F sums and relevant counts stay, the divisor stays k
        out[f"gP@{k}"] = float(gp[k - 1]) if k <= m else float(f_values.sum()) / k
    for k in dcv:
        out[f"gR@{k}"] = float(rel_count[min(k, m) - 1]) / numrel if m else 0.0
    return out


# ------------------------------------------------------------------ registration ----

from inexeval.measures.registry import Measure, Params, TopicInput, register  # noqa: E402


def _outputs(p: Params) -> list[str]:
    return ["MAgP"] + [f"gP@{k}" for k in p.dcv] + [f"gR@{k}" for k in p.dcv]


def _gp(t: TopicInput) -> dict[str, float] | None:
    return relevant_in_context_topic(t.topic, t.ranking, size_of=t.collection.size_of,
                                     dcv=t.params.dcv, warn=t.warn)


register(Measure(
    name="gp", aliases=("magp", "agp"), strategies=frozenset({"relevantincontext"}),
    params=("DCV", "COLLECTION_DIR"),
    description="Relevant in Context: generalised precision gP@k and recall gR@k over articles "
    "(per-article F of highlighted text), MAgP = mean average gP (seed 002 §6; docs/measures.md §6)",
    outputs=_outputs, scalars=_outputs, compute=_gp,
    # F(a) = 1 for every article, so gP[i] = 1 at ranks 1 ... Numrel (gP@k only for k <= Numrel, gR@k for k >= Numrel)
    ideal_one=lambda p: ["MAgP"],
))
