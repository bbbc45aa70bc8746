"""Gain vectors xG of a ranked result list (docs/measures.md §4.3; seed 000 eq. 7, 8, 10).

overlap = off: xG[i] = quant(c_i), one dictionary lookup per result.

overlap = on: results are taken in rank order; each one's relevance value
rv (eq. 7) depends on what was seen before it, and rv_norm (eq. 8) caps what
a sub-tree can earn at the budget of its ideal elements.
"""

from __future__ import annotations

from array import array
from functools import cached_property
from typing import Sequence

import numpy as np

from inexeval.paths import proper_ancestors
from inexeval.recallbase import QuantisedTopic

Ranking = Sequence[tuple[str, str]]


def gains_overlap_off(qt: QuantisedTopic, ranking: Ranking, ids: np.ndarray | None = None) -> np.ndarray:
    """xG[i] = quant(c_i) (seed 000 eq. 10): the Thorough gain.

    ``ids`` (the ranking's element ids, :meth:`TopicElements.ids`) may be
    passed when several quantisations score the same ranking.
    """
    if ids is None:
        ids = qt.elements.ids(ranking)
    return qt.q_ext[ids]


class OverlapIndex:
    """Per-(topic, quantisation) structures for overlap = on, built once and shared by runs.

    By element id (:class:`~inexeval.recallbase.TopicElements`), in
    array.array only (no per-element Python objects, so that forked workers
    share them without copy-on-write): ``ideal_of[i]`` is the ideal element
    that element i is inside (or is), when >= 0; -1 when i is neither inside
    nor above an ideal element; ``-2 - k`` when i is a proper ancestor of
    ideal elements, the k-th such element, whose ideal elements are
    :meth:`below` (i).  (An element cannot be both: ideal elements do not
    nest.)
    """

    def __init__(self, qt: QuantisedTopic):
        self.qt = qt

    @property
    def q(self) -> array:
        """quant by element id (array.array: fast scalar access in the rank-order walk; shared with qt)."""
        return self.qt.q_array

    @property
    def ideal_ids(self) -> array:
        return self.qt.ideal_ids

    @cached_property
    def maps(self) -> tuple[array, array, array]:
        """(ideal_of, below_start, below_ids), computed level by level on numpy arrays."""
        up = np.frombuffer(self.qt.elements.up, dtype=np.int32)
        n = len(up)
        ideal = np.frombuffer(self.ideal_ids, dtype=np.int32)
        is_ideal = np.zeros(n, dtype=bool)
        is_ideal[ideal] = True
        place = np.where(is_ideal, np.arange(n, dtype=np.int32), np.int32(-1))
        # inside: walk each element's chain of listed ancestors up to the first ideal one
        cur = up.copy()
        todo = np.flatnonzero(~is_ideal & (cur >= 0))
        while todo.size:
            a = cur[todo]
            hit = is_ideal[a]
            place[todo[hit]] = a[hit]
            todo = todo[~hit]
            cur[todo] = up[cur[todo]]
            todo = todo[cur[todo] >= 0]
        # above: every (proper listed ancestor, ideal element) pair, grouped by ancestor,
        # each group's ideal elements in id order
        pairs_a, pairs_i = [], []
        anc, who = up[ideal], ideal
        while anc.size:
            ok = anc >= 0
            anc, who = anc[ok], who[ok]
            pairs_a.append(anc)
            pairs_i.append(who)
            anc = up[anc]
        a_all = np.concatenate(pairs_a) if pairs_a else np.zeros(0, dtype=np.int32)
        i_all = np.concatenate(pairs_i) if pairs_i else np.zeros(0, dtype=np.int32)
        order = np.lexsort((i_all, a_all))
        a_all, i_all = a_all[order], i_all[order]
        groups, start = np.unique(a_all, return_index=True)
        place[groups] = -2 - np.arange(len(groups), dtype=np.int32)
        bounds = np.append(start, len(a_all)).astype(np.int32)
        return (array("i", place.astype(np.int32).tobytes()), array("i", bounds.tobytes()),
                array("i", i_all.astype(np.int32).tobytes()))

    @property
    def ideal_of(self) -> array:
        return self.maps[0]

    def below(self, i: int) -> array:
        """The ideal elements below element i (empty unless i is a proper ancestor of some)."""
        place, start, ids = self.maps
        k = -2 - place[i]
        return ids[start[k]:start[k + 1]] if k >= 0 else ids[0:0]


def seen_ranks(el, ids: np.ndarray) -> tuple:
    """When each listed element's seen state changes in a ranking, as ranks (``len(ids)``: never).

    ``first[e]``: the rank at which e is first retrieved; ``above``: for each
    listed result, in rank order, the least ``first`` of its element and that
    element's listed ancestors (at rank r, element e is fully seen iff that
    is < r); ``below[e]``: the least ``first`` of its listed proper
    descendants (it has a seen descendant iff ``below[e] < r``).  Both are
    walked up from the retrieved elements only, one step of every chain at a
    time (:attr:`~inexeval.recallbase.TopicElements.up_chain`), not over the
    topic's every element; shared by the quantisations of a (run, topic).
    Returned with ``first`` and ``below`` also as array.array (fast scalar
    reads in the recursion of partially seen elements).
    """
    n, never = len(el), len(ids)
    up, depth = el.up_chain
    first = np.full(n + 1, never, dtype=np.int64)  # (+ the place of -1, above the roots: never seen)
    listed = np.flatnonzero(ids >= 0)
    li = ids[listed]
    np.minimum.at(first, li, listed)
    above = first[li]
    cur = li
    for _ in range(depth):
        cur = up[cur]
        np.minimum(above, first[cur], out=above)
    once = first[li] == listed  # each retrieved element at its first rank
    below = np.full(n + 1, never, dtype=np.int64)
    cur, ranks = up[li[once]], listed[once]
    for _ in range(depth):
        np.minimum.at(below, cur, ranks)
        cur = up[cur]
    first, below = first[:n], below[:n]
    return first, above, below, array("q", first.tobytes()), array("q", below.tobytes())


def gains_overlap_on(index: OverlapIndex, ranking: Ranking, alpha: float,
                     ids: np.ndarray | None = None, seen: tuple | None = None) -> np.ndarray:
    """xG[i] = rv_norm(c_i) for overlap = on (docs/measures.md §4.3; seed 000 eq. 7, 8).

    The seen state of every result comes from :func:`seen_ranks` (``seen``
    may be passed when several quantisations score the same ranking): rv is
    ``(1 − α) · quant`` for a fully seen result and quant for a result with
    no seen descendant, for all at once; the recursion of
    :func:`_rv_partial` only for partially seen ones; then the budgets of the
    ideal elements are charged in rank order.  The same arithmetic as the
    rank-order walk (:func:`_gains_overlap_on_walk`), which files that do
    not list every ancestor of their elements still take.
    """
    qt = index.qt
    el = qt.elements
    if ids is None:
        ids = el.ids(ranking)
    if el.unlisted_above:
        return _gains_overlap_on_walk(index, ranking, alpha, ids)
    first, above, below, first_l, below_l = seen if seen is not None else seen_ranks(el, ids)
    listed = np.flatnonzero(ids >= 0)
    li = ids[listed]
    qn = qt.q_ext
    full = above < listed
    values = np.where(full, (1.0 - alpha) * qn[li], qn[li])
    partial = np.flatnonzero(~full & (below[li] < listed))
    if partial.size:
        q, size = index.q, el.size
        child_start, child_ids = el._child_index  # (el.children, inlined: the hot loop of Focussed)

        def _rv_partial(i: int, r: int) -> float:  # i partially seen, no ancestor retrieved before rank r
            inner = 0.0
            if size[i] > 0:
                for c in child_ids[child_start[i]:child_start[i + 1]]:
                    if first_l[c] < r:  # fully seen
                        v = (1.0 - alpha) * q[c]
                    elif not below_l[c] < r:  # not seen
                        v = q[c]
                    else:
                        v = _rv_partial(c, r)
                    inner += v * size[c]
                inner /= size[i]
            return alpha * inner + (1.0 - alpha) * q[i]

        for k, i, r in zip(partial.tolist(), li[partial].tolist(), listed[partial].tolist()):
            values[k] = _rv_partial(i, r)
    xg = np.zeros(len(ids))
    xg[listed] = values
    q = index.q
    ideal_of, below_start, below_ids = index.maps
    ideal_at = np.frombuffer(ideal_of, dtype=np.int32)[li]
    budget: dict[int, float] = {}
    charged = np.flatnonzero((values > 0) & (ideal_at != -1))
    credited = []
    for value, ideal in zip(values[charged].tolist(), ideal_at[charged].tolist()):
        if ideal >= 0:  # inside an ideal element: _charge's first case, inlined (most charges)
            left = budget.get(ideal)
            if left is None:
                left = q[ideal]
            value = max(0.0, min(value, left))
            budget[ideal] = left - value
            credited.append(value)
        else:
            credited.append(_charge(value, ideal, budget, q, below_start, below_ids))
    xg[listed[charged]] = credited
    return xg


def _charge(value: float, ideal: int, budget: dict[int, float], q, below_start, below_ids) -> float:
    """The part of a positive gain VALUE that the budgets let through, charged to them (rv_norm,
    seed 000 eq. 8): inside ideal element IDEAL (>= 0), at most what is left of its budget (quant at
    first); above ideal elements (IDEAL < -1: the (-2 - IDEAL)-th group of ``below``), at most their
    joint remaining budget, charged in proportion to what each has left; elsewhere (-1) as it is."""
    if ideal >= 0:
        left = budget.get(ideal, q[ideal])
        value = max(0.0, min(value, left))
        budget[ideal] = left - value
    elif ideal < -1:
        below = below_ids[below_start[-2 - ideal]:below_start[-1 - ideal]]
        if below:
            lefts = [budget.get(b, q[b]) for b in below]
            room = sum(lefts)
            value = max(0.0, min(value, room))
            if room > 0:
                for b, left in zip(below, lefts):
                    budget[b] = left - value * left / room
    return value


def _gains_overlap_on_walk(index: OverlapIndex, ranking: Ranking, alpha: float,
                           ids: np.ndarray | None = None) -> np.ndarray:
    """xG[i] = rv_norm(c_i) for overlap = on (docs/measures.md §4.3; seed 000 eq. 7, 8).

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
    qt = index.qt
    el = qt.elements
    if ids is None:
        ids = el.ids(ranking)
    q, size, children, up = index.q, el.size, el.children, el.up
    ideal_of, below_start, below_ids = index.maps
    n = len(el)
    retrieved = bytearray(n)  # listed elements retrieved so far
    has_seen_desc = bytearray(n)  # listed elements with a listed earlier-retrieved descendant
    budget: dict[int, float] = {}
    # unlisted results that are ancestors of listed elements (only in files that skip ancestors)
    unlisted_seen: set[tuple[str, str]] = set()
    xg = np.zeros(len(ranking))

    def fully_seen(i: int) -> bool:
        j = i
        while j >= 0:
            if retrieved[j]:
                return True
            j = up[j]
        if unlisted_seen:
            f, p = el.key(i)
            return any((f, a) in unlisted_seen for a in proper_ancestors(p))
        return False

    def rv(i: int, above_clear: bool) -> float:
        # above_clear: no ancestor of i was retrieved (known for children of a partially seen element)
        if (retrieved[i] if above_clear and not unlisted_seen else fully_seen(i)):
            return (1.0 - alpha) * q[i]
        if not has_seen_desc[i]:
            return q[i]
        inner = 0.0
        if size[i] > 0:
            for c in children(i):
                inner += rv(c, True) * size[c]
            inner /= size[i]
        return alpha * inner + (1.0 - alpha) * q[i]

    for r, i in enumerate(ids.tolist()):
        if i < 0:  # not listed: gain 0; it can only matter as a (rare) unlisted ancestor
            key = ranking[r]
            if key in el.unlisted_above:
                unlisted_seen.add(key)
            continue
        value = rv(i, False)
        if value > 0:
            value = _charge(value, ideal_of[i], budget, q, below_start, below_ids)
        xg[r] = value
        retrieved[i] = 1
        a = up[i]
        while a >= 0 and not has_seen_desc[a]:
            has_seen_desc[a] = 1
            a = up[a]
    return xg
