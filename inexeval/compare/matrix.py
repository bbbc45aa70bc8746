"""The topics × runs matrix of one measure that the statistics of docs/measures.md §12 work on."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from inexeval.aggregate import natural_key


def topic_matrix(results, measure: str, setting: str | None = None, runs: Sequence[str] | None = None
                 ) -> tuple[list[str], list[str], np.ndarray]:
    """(topics, run ids, x): x[i, j] is run j's value of MEASURE on topic i, for the topics where every
    chosen run has a defined value, not NaN (natural order), runs in the given (else their) order.

    RESULTS: :class:`~inexeval.results.Results` or an iterable of
    :class:`~inexeval.model.RunResult`; SETTING: which one (None: the only one there is).  A topic
    some run lacks (or where the measure is undefined or NaN for it) is left out of every column, so that
    the runs are compared on the same topics (``-e``/``-c`` score every topic).  ValueError when a
    run or the setting is unknown, or when no topic is left.
    """
    rows = list(_results(results))
    settings = list(dict.fromkeys(r.setting for r in rows))
    if setting is None:
        if len(settings) != 1:
            raise ValueError(f"give the setting: one of {', '.join(settings)}")
        setting = settings[0]
    elif setting not in settings:
        raise ValueError(f"unknown setting {setting!r} (one of {', '.join(settings)})")
    by_run = {r.run_id: r for r in rows if r.setting == setting}
    chosen = list(runs) if runs is not None else list(by_run)
    unknown = [r for r in chosen if r not in by_run]
    if unknown:
        raise ValueError(f"unknown run(s) {', '.join(map(repr, unknown))}")
    columns = [by_run[r].per_topic for r in chosen]
    topics = sorted(set.intersection(*(set(t for t, v in c.items() if _defined(v.get(measure)))
                                       for c in columns)) if columns else set(), key=natural_key)
    if not topics:
        raise ValueError(f"no topic where every run has a value of {measure!r}")
    x = np.array([[c[t][measure] for c in columns] for t in topics], dtype=float)
    return topics, chosen, x


def left_out_topics(results: Iterable, measure: str, setting: str, kept: Sequence[str]) -> list[str]:
    """The topics some of RESULTS (of SETTING) has a value of MEASURE for that :func:`topic_matrix` left out."""
    seen = {t for r in results if r.setting == setting for t, v in r.per_topic.items() if v.get(measure) is not None}
    return sorted(seen - set(kept), key=natural_key)


def _defined(v) -> bool:
    """Whether V is a value the statistics can use: not None (undefined) and not NaN (inex_eval's
    ratio over nothing, docs/fol.md §3: a value of the run's average, none of a comparison's)."""
    return v is not None and v == v


def _results(results) -> Iterable:
    return iter(results)
