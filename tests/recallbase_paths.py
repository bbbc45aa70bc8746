"""Path-based forms of the recall-base (docs/measures.md §4.2), used only as test oracles.

The evaluator works on element ids (:class:`inexeval.recallbase.TopicElements`,
:func:`inexeval.recallbase.ideal_element_ids`); these functions state the same
rules on ``(file, path)`` keys, the way the specification does, so that the
tests can check one against the other.
"""

from __future__ import annotations

from helpers import TOL
from inexeval.paths import ancestors_or_self, depth, proper_ancestors
from inexeval.recallbase import QuantisedTopic, TopicElements


def _greater(a: float, b: float) -> bool:
    """a > b beyond the relative tolerance of docs/measures.md §10."""
    return a - b > TOL * max(abs(a), abs(b), 1.0)


def id_of(el: TopicElements, file: str, path: str) -> int:
    """The element id of one ``(file, path)``, -1 when it is not listed."""
    return int(el.ids([(file, path)])[0])


def quant_by_key(qt: QuantisedTopic) -> dict[tuple[str, str], float]:
    """quant(c) by ``(file, path)`` for every listed element (0 included)."""
    return {qt.elements.key(i): float(qt.q[i]) for i in range(len(qt.elements))}


def ideal_elements(qs: dict[str, float]) -> list[str]:
    """The ideal recall-base of one file (docs/measures.md §4.2), ``qs`` being path -> quant in file order.

    1. leaves: relevant elements with no relevant descendant;
    2. for each leaf, the listed ancestor-or-self with the highest quant,
       the shallowest on a tie;
    3. drop every picked element that has a picked ancestor.
    """
    relevant = [p for p, q in qs.items() if q > 0]
    above = {a for p in relevant for a in proper_ancestors(p)}
    picked: set[str] = set()
    for leaf in relevant:
        if leaf in above:
            continue
        best, best_q = None, 0.0
        # shallowest first, so that a later (deeper) one must be strictly better
        for a in reversed(list(ancestors_or_self(leaf))):
            q = qs.get(a)
            if q is not None and (best is None or _greater(q, best_q)):
                best, best_q = a, q
        picked.add(best)
    keep = [p for p in picked if not any(a in picked for a in proper_ancestors(p))]
    order = {p: i for i, p in enumerate(qs)}
    keep.sort(key=lambda p: (order.get(p, len(order)), depth(p), p))
    return keep
