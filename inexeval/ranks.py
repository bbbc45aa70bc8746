"""The rank of each run on a measure, as the report and the paper tables (LaTeX, Markdown) show it:
the measure's declared direction (:func:`lower_is_better`), measures that do not rank runs (counts),
and ties within the relative tolerance of docs/measures.md §10."""

from __future__ import annotations

from inexeval.numeric import TOLERANCE

__all__ = ["lower_is_better", "ranked", "ranks"]


def lower_is_better(facts: dict, measure: str) -> bool:
    """Whether a smaller value of ``measure`` is better, as its measure declares (E@k = 1 - F@k)."""
    f = facts.get(measure)
    return f is not None and f.lower_is_better


def ranked(facts: dict, measure: str) -> bool:
    """Whether runs are ranked on ``measure``, as its measure declares (not on counts: num_rel, ...)."""
    f = facts.get(measure)
    return f is None or f.ranks_runs


def ranks(values: dict[str, float | None], measure: str, facts: dict) -> dict[str, int | None]:
    """Each run's rank on ``measure`` (1 = best): 1 + the number of runs strictly better, values
    within the relative tolerance of docs/measures.md §10 tied (so tied runs share a rank); None
    for an undefined value or a measure that is not ranked.  FACTS: the measures' declarations
    (:func:`inexeval.measures.registry.output_facts`)."""
    if not ranked(facts, measure):
        return dict.fromkeys(values)
    sign = -1.0 if lower_is_better(facts, measure) else 1.0
    defined = {r: sign * v for r, v in values.items() if v is not None and v == v}
    out: dict[str, int | None] = dict.fromkeys(values)
    for run, v in defined.items():
        out[run] = 1 + sum(1 for w in defined.values() if w - v > TOLERANCE * max(abs(v), abs(w)))
    return out
