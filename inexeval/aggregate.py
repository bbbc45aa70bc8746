"""Averaging over topics (docs/measures.md §10): the -e policy lives here, once."""

from __future__ import annotations

import math
import re
from typing import Callable, Iterable, Mapping

_DIGITS = re.compile(r"([0-9]+)")


def natural_key(s: str) -> tuple[list[tuple[int, int, str]], str]:
    """The one sort key of topic, pool and run ids: 'topic 9' before 'topic 10'.

    Runs of ASCII digits compare by value, as (length, digits) without
    leading zeros rather than with int(): int() failed on non-ASCII digits
    such as "²" and on more than 4300 digits (found by tests/test_fuzz.py).
    A digit run sorts before text at the same place, so numeric ids come first.
    Ids equal by value ('01', '1', '001') are then in code point order
    ('001', '01', '1'), so the order never depends on the order they came in.
    """
    return [(0, len(t.lstrip("0")), t.lstrip("0")) if t.isascii() and t.isdigit() else (1, 0, t)
            for t in _DIGITS.split(s) if t], s


def counted_topics(run_topics: Iterable[str], recall_base: Iterable[str], empty_as_zero: bool) -> list[str]:
    """The topics a run is averaged over, in natural order.

    Without -e: the run's topics that are in the recall-base; with -e: every
    recall-base topic (missing ones are scored on an empty ranking, i.e. 0).
    """
    rb = set(recall_base)
    chosen = rb if empty_as_zero else rb.intersection(run_topics)
    return sorted(chosen, key=natural_key)


#: trec_eval's floor of a topic's value before the logarithm of a geometric mean (gm_map).
MIN_GEO_MEAN = 0.00001


def _gmean(values: list[float]) -> float:
    """exp(mean(log(max(v, MIN_GEO_MEAN)))): trec_eval's geometric mean (gm_map)."""
    import numpy as np

    return float(np.exp(np.mean(np.log(np.maximum(np.array(values), MIN_GEO_MEAN)))))


#: How an output is averaged over topics (docs/measures.md §10): the arithmetic mean (exactly
#: rounded), a sum (counts such as num_rel), or trec_eval's geometric mean.
AGGREGATE: dict[str, Callable[[list[float]], float]] = {
    "mean": lambda vals: math.fsum(vals) / len(vals),
    "sum": lambda vals: float(math.fsum(vals)),
    "gmean": _gmean,
}


def average(per_topic: Mapping[str, Mapping[str, float | None]], measures: Iterable[str],
            how: Mapping[str, str] | None = None) -> dict[str, float | None]:
    """Each measure averaged over the topics where it is defined (None over no topic).

    ``how`` maps a measure to its aggregation (:data:`AGGREGATE`); the default is the mean.
    """
    out: dict[str, float | None] = {}
    for m in measures:
        vals = [v[m] for v in per_topic.values() if v.get(m) is not None]
        out[m] = AGGREGATE[how.get(m, "mean") if how else "mean"](vals) if vals else None
    return out
