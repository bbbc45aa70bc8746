"""The ``labels`` rows of ``inexeval assessments --judgements-b`` (docs/formats.md §10.4): how far the
grades of judgement set A and of each other set agree, per topic and over all topics
(docs/measures.md §13.1–§13.3; the figures are :mod:`inexeval.assessments.labels`').

Items are paired by key within a topic.  Level ``graded`` compares the grades of the items both
sets judged; ``binary`` the same items as relevant or not (grade ≥ the task's relevance threshold,
REL_LEVEL for TREC qrels).  With a missing grade G (``--missing default:G``) the levels
``graded_union`` and ``binary_union`` compare the union of the judged items, an item one set did
not judge taking grade G there.  Topic ``all`` pools the items of every topic (one confusion
matrix, the sum of the topics').  The counts ``both``, ``only_a`` and ``only_b`` and the cells
``confusion_<a>_<b>`` (items A graded a and B graded b) come with every level.

With two or more other sets, grade ``all`` holds the figures of every set together:
Krippendorff's α over the union of the items, each item with the grades of the sets that judged it
(``graded``, ``binary``; with G, every set's grade, ``*_union``), and Fleiss' κ over the items every
set judged (with G: the union).

Rows are ``(section, topic, level, grade, quantity, value)`` with the compared set's name in the
grade column.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from inexeval.aggregate import natural_key
from inexeval.assessments import labels as L

SECTION = "labels"
LEVELS = ("graded", "binary")
UNION_LEVELS = ("graded_union", "binary_union")


def grade_values(sets: Sequence, missing: int | None) -> np.ndarray:
    """The categories: every grade any set gives (and the missing grade G), ascending."""
    parts = [s.grades() for s in sets] + ([np.array([missing], dtype=np.int64)] if missing is not None else [])
    return np.unique(np.concatenate(parts)) if parts else np.zeros(0, dtype=np.int64)


def topics_of(sets: Sequence) -> list[str]:
    """Every topic some set judges, in natural order."""
    return sorted(set().union(*(s.topics for s in sets)), key=natural_key)


def _judged(sets: Sequence, topic: str) -> list[tuple[np.ndarray, np.ndarray]]:
    """Each set's (keys, grades) of TOPIC, empty (of the others' key type) where a set has none."""
    have = [s.topics.get(topic) for s in sets]
    like = next((h[0] for h in have if h is not None), np.zeros(0, dtype="U1"))
    return [h if h is not None else (like[:0], np.zeros(0, dtype=np.int64)) for h in have]


class Pair:
    """The confusion matrices of A and one other set B, per topic, on the items both judged and on
    the union with the missing grade (module docstring)."""

    def __init__(self, a, b, values: np.ndarray, missing: int | None, topics: Sequence[str]):
        k = len(values)
        self.values = values
        self.topics = list(topics)
        self.common: dict[str, np.ndarray] = {}
        self.union: dict[str, np.ndarray] = {}
        self.counts: dict[str, tuple[int, int, int]] = {}
        g = None if missing is None else int(np.searchsorted(values, missing))
        for t in self.topics:
            (ka, ga), (kb, gb) = _judged((a, b), t)
            _, ia, ib = np.intersect1d(ka, kb, assume_unique=True, return_indices=True)
            ca, cb = np.searchsorted(values, ga), np.searchsorted(values, gb)
            c = L.confusion(ca[ia], cb[ib], k)
            self.common[t] = c
            self.counts[t] = (len(ia), len(ka) - len(ia), len(kb) - len(ib))
            if g is not None:
                only_a = np.ones(len(ka), dtype=bool)
                only_a[ia] = False
                only_b = np.ones(len(kb), dtype=bool)
                only_b[ib] = False
                u = c.copy()
                u[:, g] += np.bincount(ca[only_a], minlength=k)
                u[g, :] += np.bincount(cb[only_b], minlength=k)
                self.union[t] = u

    def matrices(self, union: bool) -> dict[str, np.ndarray]:
        """Topic -> confusion matrix, and ``all`` -> their sum."""
        per = self.union if union else self.common
        out = dict(per)
        out["all"] = sum(per.values()) if per else np.zeros((len(self.values),) * 2, dtype=np.int64)
        return out

    def count(self, topic: str) -> tuple[int, int, int]:
        if topic == "all":
            return tuple(int(sum(c[i] for c in self.counts.values())) for i in range(3))
        return self.counts[topic]


def _level_rows(name: str, topic: str, level: str, c: np.ndarray, values: np.ndarray, relevant: np.ndarray,
                counts: tuple[int, int, int]) -> list[tuple]:
    figures = L.pair_figures(c, values, relevant)
    rows = [(SECTION, topic, level, name, q, figures[q]) for q in L.PAIR_QUANTITIES]
    rows += [(SECTION, topic, level, name, q, v) for q, v in zip(("both", "only_a", "only_b"), counts)]
    labels = [str(int(v)) for v in values]
    rows += [(SECTION, topic, level, name, f"confusion_{labels[i]}_{labels[j]}", int(c[i, j]))
             for i in range(len(values)) for j in range(len(values))]
    return rows


def pair_rows(a, b, values: np.ndarray, threshold: int, missing: int | None,
              topics: Sequence[str] | None = None) -> list[tuple]:
    """The ``labels`` rows of A against B (module docstring), topics in natural order, then ``all``."""
    topics = topics_of([a, b]) if topics is None else topics
    pair = Pair(a, b, values, missing, topics)
    relevant = values >= threshold
    binary_values = np.array([0, 1])
    binary_rel = np.array([False, True])
    rows = []
    variants = [(False, LEVELS)] + ([(True, UNION_LEVELS)] if missing is not None else [])
    for union, (graded, binary) in variants:
        mats = pair.matrices(union)
        for t in [*topics, "all"]:
            c = mats[t]
            rows += _level_rows(b.name, t, graded, c, values, relevant, pair.count(t))
            rows += _level_rows(b.name, t, binary, L.collapse(c, relevant), binary_values, binary_rel,
                                pair.count(t))
    return rows


def _unit_counts(sets: Sequence, topic: str, values: np.ndarray, missing: int | None) -> np.ndarray:
    """Units × categories: how many sets put each item of TOPIC (any set's) in each category; with
    MISSING, a set that did not judge an item counts in the missing grade's category."""
    k = len(values)
    parts = _judged(sets, topic)
    keys = np.concatenate([p[0] for p in parts]) if parts else np.zeros(0)
    if keys.size == 0:
        return np.zeros((0, k), dtype=np.int64)
    units, unit = np.unique(keys, return_inverse=True)
    codes = np.searchsorted(values, np.concatenate([p[1] for p in parts]))
    counts = np.zeros((len(units), k), dtype=np.int64)
    np.add.at(counts, (unit, codes), 1)
    if missing is not None:
        counts[:, int(np.searchsorted(values, missing))] += len(sets) - counts.sum(axis=1)
    return counts


def _joint(counts: np.ndarray, values: np.ndarray, m: int) -> dict[str, float | None]:
    out = {f"alpha_{metric}": L.alpha(counts, values, metric) for metric in L.ALPHA_METRICS}
    full = counts[counts.sum(axis=1) == m]
    out["fleiss_kappa"] = L.fleiss_kappa(full) if len(full) else None
    return out


def joint_rows(sets: Sequence, values: np.ndarray, threshold: int, missing: int | None,
               topics: Sequence[str] | None = None) -> list[tuple]:
    """The rows of grade ``all``: α and Fleiss' κ of every set together (module docstring)."""
    topics = topics_of(sets) if topics is None else topics
    relevant = (values >= threshold).astype(np.int64)
    m = len(sets)
    rows = []
    variants = [(None, LEVELS)] + ([(missing, UNION_LEVELS)] if missing is not None else [])
    for g, (graded, binary) in variants:
        per = {t: _unit_counts(sets, t, values, g) for t in topics}
        per["all"] = np.concatenate(list(per.values())) if topics else np.zeros((0, len(values)), dtype=np.int64)
        for t in [*topics, "all"]:
            counts = per[t]
            two = np.stack([counts[:, relevant == 0].sum(axis=1), counts[:, relevant == 1].sum(axis=1)], axis=1)
            for level, c, v in ((graded, counts, values), (binary, two, np.array([0, 1]))):
                figures = _joint(c, v, m)
                rows += [(SECTION, t, level, "all", q, figures[q])
                         for q in ("alpha_nominal", "alpha_ordinal", "alpha_interval", "fleiss_kappa")]
    return rows


__all__ = ["SECTION", "LEVELS", "UNION_LEVELS", "grade_values", "topics_of", "Pair", "pair_rows", "joint_rows"]
