"""Gain vectors xG of a ranked result list (SPEC §4.3; seed 000 eq. 6–8).

overlap = off: xG[i] = quant(c_i), one dictionary lookup per result.

overlap = on: results are taken in rank order; each one's relevance value
rv (eq. 7) depends on what was seen before it, and rv_norm (eq. 8) caps what
a sub-tree can earn at the budget of its ideal elements.
"""

from __future__ import annotations

from functools import cached_property
from typing import Sequence

import numpy as np

from inexeval.paths import parent
from inexeval.recallbase import QuantisedTopic

Ranking = Sequence[tuple[str, str]]


def gains_overlap_off(qt: QuantisedTopic, ranking: Ranking) -> np.ndarray:
    """xG[i] = quant(c_i) (seed 000 eq. 6): the Thorough gain."""
    get = qt.quant.get
    return np.fromiter((get(r, 0.0) for r in ranking), dtype=float, count=len(ranking))


class OverlapIndex:
    """Per-(topic, quantisation) structures for overlap = on, built once and shared by runs.

    - ``children[(file, path)]``: listed children of a listed element
    - ``size[(file, path)]``: |x| from the assessments
    - ``ideal_of[(file, path)]``: for a listed element inside (or equal to) an
      ideal element, that ideal element
    - ``ideal_below[(file, path)]``: for a proper ancestor of ideal elements,
      those ideal elements
    """

    def __init__(self, qt: QuantisedTopic):
        self.qt = qt

    @cached_property
    def size(self) -> dict[tuple[str, str], int]:
        return {(f, p): j.size for f, fa in self.qt.topic.files.items() for p, j in fa.elements.items()}

    @cached_property
    def children(self) -> dict[tuple[str, str], list[str]]:
        kids: dict[tuple[str, str], list[str]] = {}
        for f, fa in self.qt.topic.files.items():
            for p in fa.elements:
                a = parent(p)
                if a is not None and a in fa.elements:
                    kids.setdefault((f, a), []).append(p)
        return kids

    @cached_property
    def ideal_of(self) -> dict[tuple[str, str], tuple[str, str]]:
        out: dict[tuple[str, str], tuple[str, str]] = {}
        for f, ideals in self.qt.ideal.items():
            ideal_set = set(ideals)
            for p in self.qt.topic.files[f].elements:
                a: str | None = p
                while a is not None:
                    if a in ideal_set:
                        out[(f, p)] = (f, a)
                        break
                    a = parent(a)
        return out

    @cached_property
    def ideal_below(self) -> dict[tuple[str, str], list[tuple[str, str]]]:
        out: dict[tuple[str, str], list[tuple[str, str]]] = {}
        for f, ideals in self.qt.ideal.items():
            for i in ideals:
                a = parent(i)
                while a is not None:
                    out.setdefault((f, a), []).append((f, i))
                    a = parent(a)
        return out


def gains_overlap_on(index: OverlapIndex, ranking: Ranking, alpha: float) -> np.ndarray:
    """xG[i] = rv_norm(c_i) for overlap = on (SPEC §4.3; seed 000 eq. 7, 8).

    Seen state of x before rank i: fully seen if x or an ancestor was
    retrieved; partially seen if a listed descendant was; else not seen.

    rv(x) = quant(x)                                         not seen
          = (1 − α) · quant(x)                                fully seen
          = α · Σ_children rv(child)·|child| / |x| + (1 − α) · quant(x)
                                                              partially seen

    rv_norm charges each credited gain to the budgets of the ideal elements
    (starting at their quant): inside an ideal element I, at most budget(I);
    above ideal elements, at most their joint remaining budget, charged in
    proportion to what each has left.
    """
    quant = index.qt.quant
    size, children = index.size, index.children
    ideal_of, ideal_below = index.ideal_of, index.ideal_below
    budget: dict[tuple[str, str], float] = {}
    retrieved: set[tuple[str, str]] = set()  # every earlier result
    has_seen_desc: set[tuple[str, str]] = set()  # listed elements with a listed earlier-retrieved descendant
    xg = np.zeros(len(ranking))

    def fully_seen(f: str, p: str) -> bool:
        a: str | None = p
        while a is not None:
            if (f, a) in retrieved:
                return True
            a = parent(a)
        return False

    def rv(f: str, p: str) -> float:
        key = (f, p)
        q = quant.get(key)
        if q is None:
            return 0.0
        if fully_seen(f, p):
            return (1.0 - alpha) * q
        if key not in has_seen_desc:
            return q
        total = size[key]
        inner = 0.0
        if total > 0:
            for c in children.get(key, ()):
                inner += rv(f, c) * size[(f, c)]
            inner /= total
        return alpha * inner + (1.0 - alpha) * q

    for i, key in enumerate(ranking):
        f, p = key
        value = rv(f, p)
        if value > 0:
            ideal = ideal_of.get(key)
            if ideal is not None:
                left = budget.get(ideal, quant[ideal])
                value = max(0.0, min(value, left))
                budget[ideal] = left - value
            else:
                below = ideal_below.get(key)
                if below:
                    lefts = [budget.get(b, quant[b]) for b in below]
                    room = sum(lefts)
                    value = max(0.0, min(value, room))
                    if room > 0:
                        for b, left in zip(below, lefts):
                            budget[b] = left - value * left / room
        xg[i] = value
        # update seen state
        retrieved.add(key)
        if key in quant:
            a = parent(p)
            while a is not None and (f, a) not in has_seen_desc:
                has_seen_desc.add((f, a))
                a = parent(a)
    return xg
