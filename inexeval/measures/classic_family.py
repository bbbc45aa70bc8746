"""``TASK: trec``'s classic measures in the measure registry (:mod:`inexeval.measures.registry`):
every METRICS name is parsed (:func:`~inexeval.measures.classic.parse_measure`) into a measure
scoring every topic of a run at once (``compute_all``), on the run joined to the qrels
(:mod:`inexeval.measures.classic_join`), through the classic engine that the trec-eval drop-in uses
too (:mod:`inexeval.measures.classic_engine`): the same topics (every topic of the run, judged
relevant or not; with -e every qrels topic, trec_eval -c's stand-in ranking for those the run
lacks), the same values, and trec_eval's summary as the average.

Apart from the engine so that the drop-in, which uses no registry, does not load it.
"""

from __future__ import annotations

import math

import numpy as np

from inexeval.measures.classic import (
    DEFAULT_MEASURES, FAMILIES, MEASURES, STRATEGIES, Kernels, MeasureSpec, compute, parse_measure,
)
from inexeval.measures.classic_base import Ranking
from inexeval.measures.classic_engine import (
    ClassicEvaluation, Column, accumulated, judgements_above_zero, reset_stand_in, summary_value,
)
from inexeval.measures.classic_join import stand_in_codes, with_stand_ins
from inexeval.measures.registry import Measure, RunInput, register_resolver

__all__ = ["RANGE_ROWS", "topic_ranges", "resolve"]

#: Rows of the run's ranking scored at once: a larger run is scored by ranges of topics (issue 35,
#: target 2), each range's kernels over its rows alone (about 200 bytes a row at most).
RANGE_ROWS = 1 << 21


class _RunScoring:
    """One run's classic evaluation under a config: the topics trec_eval evaluates, and the columns of
    every classic measure of the config, computed together the first time one is asked for.

    A run of more than :data:`RANGE_ROWS` rows is scored by ranges of topics (:func:`topic_ranges`):
    each range's ranking alone (:meth:`Ranking.topic_range`), with its stand-ins, so that memory
    holds one range's kernels instead of the whole run's.  trec_eval's measures are per topic; the
    one value a topic takes from another (the levels of the topic evaluated before, for a topic
    judged only negatively: :class:`~inexeval.measures.classic_trec_gains.Levels`) stays within a
    range, as ranges start at a topic with levels of its own."""

    def __init__(self, r: RunInput):
        table = r.recall_base
        ranking = r.run.ranking
        present = ranking.length > 0
        for name in r.run.topics:  # (a topic whose every result was cut away is still the run's)
            present[table.index[name]] = True
        self.complete = r.empty_as_zero
        self.evaluated = np.arange(table.size) if self.complete else np.flatnonzero(present)
        self.stand_in = ~present[self.evaluated]  # (none without -e: every evaluated topic is present)
        self.ranking = ranking
        self.params = r.params
        self.num_rel_all: int | None = None
        self.names = r.measures
        self.columns: dict[str, np.ndarray | list] = {}  # spec name -> values over the evaluated topics

    def column(self, spec: MeasureSpec):
        """The measure's values over the evaluated topics (float64, or a list for text), and its summary."""
        if spec.name not in self.columns:
            self._compute(_pending(self.names, spec, self.columns))
        values = self.columns[spec.name]
        if isinstance(values, list):
            return Column(spec.name, values, aggregate="none"), None
        fam = FAMILIES[spec.family]
        col = Column(spec.name, values, integer=fam.integer, aggregate=fam.aggregate,
                     per_topic=fam.per_topic_reported)
        if self.complete and self.num_rel_all is None:
            self.num_rel_all = judgements_above_zero(self.ranking)
        ev = ClassicEvaluation([], {}, self.ranking.table.size if self.complete else int(self.evaluated.size))
        return col, summary_value(col, accumulated(col), ev, self.complete, self.num_rel_all)

    def _compute(self, specs: list[MeasureSpec]) -> None:
        """The columns of SPECS, range by range."""
        p = self.params
        gains = dict(p.gains) if p.gains else None
        ranking, evaluated = self.ranking, self.evaluated
        codes = stand_in_codes(ranking.table, evaluated[self.stand_in]) if self.stand_in.any() else None
        parts: dict[str, list] = {s.name: [] for s in specs}
        done = 0  # evaluated topics before the range
        for lo, hi in topic_ranges(ranking, evaluated, self.stand_in):
            k = int(np.searchsorted(evaluated, hi))
            ev, stand = evaluated[done:k] - lo, self.stand_in[done:k]
            sub = ranking if (lo, hi) == (0, ranking.table.size) else ranking.topic_range(lo, hi)
            if stand.any():
                first = int(np.count_nonzero(self.stand_in[:done]))
                sub = with_stand_ins(sub, ev[stand], codes[first:first + int(np.count_nonzero(stand))])
            kernels = Kernels(sub, gains, p.q_beta, p.trec_eval_version, evaluated=ev)
            got = compute(sub, specs, kernels=kernels)
            for s in specs:
                v = got[s.name]
                parts[s.name].append([v[t] for t in ev.tolist()] if isinstance(v, list) else v[ev])
            done = k
        rows = np.flatnonzero(self.stand_in).tolist()
        for s in specs:
            got = parts[s.name]
            values = [x for part in got for x in part] if got and isinstance(got[0], list) else (
                np.concatenate(got) if got else np.empty(0))
            if rows:
                reset_stand_in(s.name, values, rows)
            self.columns[s.name] = values


def _pending(names: tuple[str, ...], spec: MeasureSpec, done: dict) -> list[MeasureSpec]:
    """The measure asked for and the other classic measures among NAMES (the config's) not computed yet."""
    specs = {spec.name: spec}
    for n in names:
        m = _SPECS.get(n)
        if m is not None and n not in done and not m.family.startswith("irm:"):
            specs.setdefault(n, m)
    return list(specs.values())


def topic_ranges(ranking: Ranking, evaluated: np.ndarray, stand_in: np.ndarray) -> list[tuple[int, int]]:
    """Ranges [lo, hi) of table topics covering EVALUATED (ascending), each of about
    :data:`RANGE_ROWS` rows of RANKING (STAND_IN: the evaluated topics that gain a stand-in row) or
    one topic, each starting at an evaluated topic with a judgement >= 0 (levels of its own); one
    range, the whole table, when the ranking is not larger."""
    T = ranking.table.size
    rows = ranking.length[evaluated] + stand_in
    total = int(rows.sum())
    if total <= RANGE_ROWS or evaluated.size < 2:
        return [(0, T)]
    table = ranking.table
    qrel, qstart = table.qrel, table.qstart
    has = np.zeros(T, dtype=bool)  # a topic with a judgement >= 0 (every table topic has a qrels row)
    if qrel.size:
        has = np.maximum.reduceat(qrel, qstart[:-1].clip(max=qrel.size - 1)) >= 0
        has &= qstart[1:] > qstart[:-1]
    can = has[evaluated]
    can[0] = True
    before = np.cumsum(rows) - rows  # rows of the evaluated topics before each
    cuts = [0]
    while True:
        i = int(np.searchsorted(before, before[cuts[-1]] + RANGE_ROWS, side="left"))
        i = max(i, cuts[-1] + 1)
        if i >= evaluated.size:
            break
        nxt = np.flatnonzero(can[i:])
        if not nxt.size:
            break
        cuts.append(i + int(nxt[0]))
    bounds = [int(evaluated[c]) for c in cuts] + [T]
    bounds[0] = 0
    return list(zip(bounds[:-1], bounds[1:]))


class _IrmScoring:
    """One run's scoring of ir_measures' names (docs/measures.md §8.6): the run's own ranking (no
    stand-ins, whatever EMPTY_AS_ZERO), the topics it has, evaluated in table order."""

    def __init__(self, r: RunInput):
        table = r.recall_base
        ranking = r.run.ranking
        present = ranking.length > 0
        for name in r.run.topics:
            present[table.index[name]] = True
        self.present = present
        gains = dict(r.params.gains) if r.params.gains else None
        self.kernels = Kernels(ranking, gains, r.params.q_beta, r.params.trec_eval_version,
                               evaluated=np.flatnonzero(present))

    def column(self, spec: MeasureSpec) -> tuple[np.ndarray, float]:
        """The measure's value on every table topic (0 for a topic the run lacks, as ir_measures
        scores it) and ir_measures' aggregate: the mean over every qrels topic, or the sum."""
        got = np.asarray(compute(self.kernels.ranking, [spec], kernels=self.kernels)[spec.name], dtype=np.float64)
        values = np.where(self.present, got, 0.0)
        total = 0.0
        for v in values.tolist():  # (ir_measures adds them one by one)
            total += v
        if FAMILIES[spec.family].aggregate == "sum":
            return values, total
        return values, total / values.size if values.size else math.nan


def _compute_all(spec: MeasureSpec):
    if spec.family.startswith("irm:"):
        def compute_irm(r: RunInput, topics: list[str]) -> dict[str, np.ndarray]:
            scoring = r.memo.get("irm")
            if scoring is None:
                scoring = r.memo["irm"] = _IrmScoring(r)
            values, average = scoring.column(spec)
            r.averages[spec.name] = average
            rows = r.memo.get("irm_rows")
            if rows is None:  # TOPICS' rows in the table
                index = r.recall_base.index
                rows = r.memo["irm_rows"] = np.fromiter((index[t] for t in topics), np.int64, len(topics))
            return {spec.name: values[rows]}

        return compute_irm

    def compute_all(r: RunInput, topics: list[str]) -> dict[str, np.ndarray | list]:
        scoring = r.memo.get("classic")
        if scoring is None:
            scoring = r.memo["classic"] = _RunScoring(r)
        col, average = scoring.column(spec)
        # over no topic (a run with none of the qrels topics, without -e) the average is undefined,
        # where trec_eval stops ("No queries with both results and relevance info")
        r.averages[spec.name] = average if scoring.evaluated.size else None
        at = r.memo.get("at")
        if at is None:  # each of TOPICS' place among the evaluated topics
            index = r.recall_base.index
            at = r.memo["at"] = np.searchsorted(scoring.evaluated,
                                                np.fromiter((index[t] for t in topics), np.int64, len(topics)))
        if isinstance(col.values, list):
            return {spec.name: [col.values[i] for i in at.tolist()]}
        return {spec.name: col.values[at]}

    return compute_all


_RESOLVED: dict[str, Measure] = {}
_SPECS: dict[str, MeasureSpec] = {}  # the classic measures resolved, by name


def resolve(name: str) -> Measure:
    """The measure for a classic METRICS name (ConfigError for an unknown or malformed one)."""
    spec = parse_measure(name)
    _SPECS.setdefault(spec.name, spec)
    m = _RESOLVED.get(spec.name)
    if m is None:
        family = FAMILIES[spec.family]
        m = _RESOLVED[spec.name] = Measure(
            name=spec.name, strategies=STRATEGIES, params=("REL_LEVEL", "GAINS", "Q_BETA", "TREC_EVAL_VERSION"),
            description=MEASURES.get(spec.name, spec.family),
            outputs=lambda p, n=spec.name: [n], scalars=lambda p, n=spec.name: [n],
            compute_all=_compute_all(spec), aggregate=lambda n: "run", nan_is_value=True,
            bounded=family.bounded, integer=family.integer, per_topic_reported=family.per_topic_reported,
            lower_is_better=lambda n, f=family: f.lower_is_better, ranks_runs=lambda n, f=family: not f.integer,
            ideal_one=lambda p, n=spec.name, f=family, s=spec: [n] if f.ideal(p, s) else [],
            topic_mean=lambda n, f=family: f.aggregate == "mean",
        )
    return m


register_resolver("trec", resolve, default_set=lambda: list(DEFAULT_MEASURES))
