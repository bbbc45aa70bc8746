"""Best in Context: BEPD and EPRUM (docs/measures.md §7; seed 002 §7.2).

A relevant article is one with a best entry point b (its first listed
``best-entry-point``); B is their number.  Only a run's first result per
article counts.  For a result x, with d(x, b) = |start(x) − start(b)| in
text characters (docs/formats.md §1.4) and L the average document length:

- s(x, b) = A·L / (A·L + d(x, b)) in a relevant article, else 0
                                                   (seed 002 §7.2, BEPD)
- BEPD(A) = Σ_x s(x, b) / B
- EPRUM(A): F(k) = Σ_{j≤k} s(x_j, b_j); k_ρ is the rank, interpolated
  linearly between k − 1 and k, at which F first reaches ρ·B:
  k_ρ = (k − 1) + (ρB − F(k−1)) / (F(k) − F(k−1)) for the smallest k with
  F(k) ≥ ρB; precision(ρ) = ρB / k_ρ (0 when F never reaches ρB); the
  curve is precision at ρ = 0.01 … 1.00 and EPRUM is its mean.
                                                   (seed 002 §7.2, EPRUM; docs/measures.md §7 Decision)
"""

from __future__ import annotations

from typing import Callable, Sequence

import numpy as np

from inexeval.errors import InputError
from inexeval.model import TopicAssessment
from inexeval.numeric import TOLERANCE

OffsetOf = Callable[[str, str], "int | None"]
Warn = Callable[[str], None]

#: Recall points ρ = p/100, p = 1..100 (exact decimals) and their labels.
RHO = np.arange(1, 101) / 100.0
RHO_LABELS = tuple(f"{p / 100:.2f}" for p in range(1, 101))


def entry_point_offsets(topic: TopicAssessment, offset_of: OffsetOf, warn: Warn) -> dict[str, int]:
    """Start offset of each relevant article's best entry point, by file.

    Raises InputError (assessment file, the file's line) for an entry point
    in a file without highlighted text or whose path is not in the
    document; warns about a file with highlighted text but no entry point.
    """
    offsets: dict[str, int] = {}
    for file, fa in topic.files.items():
        highlighted = any(j.rsize > 0 for j in fa.elements.values())
        if not fa.beps:
            if highlighted:
                warn(f"topic {topic.topic}: {file}: highlighted text but no best entry point; not counted")
            continue
        bep = fa.beps[0]
        if not highlighted:
            raise InputError(
                f"best entry point {bep} in document {file}, which has no highlighted text",
                topic.source,
                fa.line or None,
            )
        offset = offset_of(file, bep)
        if offset is None:
            raise InputError(
                f"best entry point {bep} does not exist in document {file}", topic.source, fa.line or None
            )
        offsets[file] = offset
    return offsets


def result_distances(
    topic: TopicAssessment,
    ranking: Sequence[tuple[str, str]],
    bep_offsets: dict[str, int],
    offset_of: OffsetOf,
    warn: Warn,
) -> np.ndarray:
    """d(x_k, b) for the counted results in rank order; NaN where s = 0.

    A later result of an already seen article is dropped (one warning per
    article, with the count).  s = 0 for a result outside the relevant
    articles (no offset is looked up) and, with a warning, for a path that
    is not in its document.
    """
    first: dict[str, int] = {}
    dropped: dict[str, int] = {}
    dist: list[float] = []
    for file, path in ranking:
        if file in first:
            dropped[file] = dropped.get(file, 0) + 1
            continue
        first[file] = len(dist)
        b = bep_offsets.get(file)
        if b is None:
            dist.append(np.nan)
            continue
        x = offset_of(file, path)
        if x is None:
            warn(f"topic {topic.topic}: {file} {path}: path not in the document, scored 0")
            dist.append(np.nan)
        else:
            dist.append(float(abs(x - b)))
    for file, n in dropped.items():
        warn(f"topic {topic.topic}: {file}: {n} later result(s) of the article dropped (only the first counts)")
    return np.array(dist, dtype=float)


def closeness(dist: np.ndarray, a: float, avg_doc_length: float) -> np.ndarray:
    """s = A·L / (A·L + d), 0 where d is NaN; a 0/0 is 0 (docs/formats.md §1.2)."""
    al = a * avg_doc_length
    den = al + dist
    ok = ~np.isnan(dist) & (den > 0)
    return np.divide(al, den, out=np.zeros(len(dist)), where=ok)


def eprum_curve(s: np.ndarray, b: int) -> np.ndarray:
    """Precision ρB / k_ρ at ρ = 0.01 … 1.00 (docs/measures.md §7), for closeness values s in rank order."""
    if len(s) == 0:
        return np.zeros(len(RHO))
    f = np.concatenate(([0.0], np.cumsum(s)))  # F(0) = 0, F(k)
    target = RHO * b
    # smallest k >= 1 with F(k) >= ρB, decided with relative tolerance
    k = np.searchsorted(f[1:], target * (1.0 - TOLERANCE), side="left") + 1
    reached = k <= len(s)
    k = np.minimum(k, len(s))
    lo, hi = f[k - 1], f[k]
    step = np.divide(target - lo, hi - lo, out=np.ones(len(RHO)), where=hi > lo)
    k_rho = (k - 1) + np.clip(step, 0.0, 1.0)
    return np.where(reached, np.divide(target, k_rho, out=np.zeros(len(RHO)), where=k_rho > 0), 0.0)


def best_in_context_topic(
    topic: TopicAssessment,
    ranking: Sequence[tuple[str, str]],
    *,
    offset_of: OffsetOf,
    a_values: Sequence[str],
    avg_doc_length: float,
    warn: Warn | None = None,
) -> dict[str, float] | None:
    """BEPD(A=a), EPRUM(A=a) and the curve EPRUM(A=a)@ρ for each a in ``a_values`` (docs/measures.md §7).

    ``ranking``: the run's (file, path) results in rank order, normalised.
    ``offset_of(file, path)``: start offset of an element, None when the
    path is not in the document (the collection, docs/formats.md §1.4); called for the
    entry points and for the results in relevant articles only.
    ``a_values``: A as written in BEP_A (used verbatim in the names).
    ``warn`` receives warnings naming the topic (the caller adds the run).
    None when the topic has no best entry point (docs/measures.md §10).
    """
    warn = warn if warn is not None else (lambda _msg: None)
    bep_offsets = entry_point_offsets(topic, offset_of, warn)
    b = len(bep_offsets)
    if b == 0:
        return None
    dist = result_distances(topic, ranking, bep_offsets, offset_of, warn)
    out: dict[str, float] = {}
    for a in a_values:
        s = closeness(dist, float(a), avg_doc_length)
        curve = eprum_curve(s, b)
        out[f"BEPD(A={a})"] = float(s.sum() / b)
        out[f"EPRUM(A={a})"] = float(curve.mean())
        for label, value in zip(RHO_LABELS, curve):
            out[f"EPRUM(A={a})@{label}"] = float(value)
    return out


# ------------------------------------------------------------------ registration ----

from inexeval.measures.registry import Curve, Measure, Params, TopicInput, register  # noqa: E402


def _outputs(p: Params) -> list[str]:
    out = [f"BEPD(A={a})" for a in p.bep_a] + [f"EPRUM(A={a})" for a in p.bep_a]
    for a in p.bep_a:
        out += [f"EPRUM(A={a})@{x}" for x in RHO_LABELS]
    return out


def _bep(t: TopicInput) -> dict[str, float] | None:
    # AVG_DOC_LENGTH, or the collection's average length when unset (docs/measures.md §7)
    return best_in_context_topic(t.topic, t.ranking, offset_of=t.collection.offset_of,
                                 a_values=t.params.bep_a, avg_doc_length=t.params.avg_doc_length,
                                 warn=t.warn)


register(Measure(
    name="bepd", aliases=("eprum", "bep"), strategies=frozenset({"bestincontext"}),
    params=("BEP_A", "AVG_DOC_LENGTH", "COLLECTION_DIR"),
    description="Best in Context: BEPD(A=a) (distance-discounted best entry points found) and "
    "EPRUM(A=a) with its precision-recall curve, for each A in BEP_A (seed 002 §7.2; docs/measures.md §7)",
    outputs=_outputs,
    scalars=lambda p: [f"BEPD(A={a})" for a in p.bep_a] + [f"EPRUM(A={a})" for a in p.bep_a],
    compute=_bep,
    ideal_one=_outputs,  # d = 0: s = 1 for each of the B results, F(k) = k, precision 1 at every rho
    curves=lambda p: [Curve(f"EPRUM(A={a})", [f"EPRUM(A={a})@{x}" for x in RHO_LABELS], list(RHO),
                            "recall", "precision") for a in p.bep_a],
))
