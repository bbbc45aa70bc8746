"""The one classic engine: per-topic values and trec_eval's summary of the classic measures
(docs/measures.md §8), for every path that scores them: ``inexeval trec-eval``, ``TASK: trec``
(and so ``compare``, the report and the Python API).

Input is a run already joined to the qrels and in trec_eval's order (a :class:`Ranking` over the
qrels topics), the topics to evaluate (in trec_eval's order: byte order of the ids), and which
of them are ``-c`` stand-ins; output is one :class:`Column` per measure and the summary line of
each, computed as trec_eval 10.0 computes them (``trec_eval.c``, ``meas_acc.c``, ``meas_avg.c``):

- a topic the run lacks (``-c``, ``-e``) is scored on trec_eval's stand-in ranking, one unjudged
  document, after which ``num_ret``, ``utility`` (that label only), ``rbp_resid`` (that label
  only) and every ``unj`` label are set to 0 and ``relstring`` (that label only) to ``''``;
- every evaluated topic counts, also one with nothing relevant (its values are what trec_eval
  computes for it, 0 for most measures);
- the summary adds the topics' values left to right, in evaluation order, and divides by the
  number of topics — the evaluated ones, or with ``-c`` every qrels topic; counts are summed
  (``num_rel`` with ``-c``: the judgements > 0 of every qrels topic, whatever ``-l``);
  ``gm_map`` and ``gm_bpref`` add log(max(v, 0.00001)) and take exp(sum / n);
- with Z scores (``-Z``) each topic's value (the logarithm for the ``gm_`` measures) is first
  turned into (value − mean)/stddev.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from inexeval.measures.classic import FAMILIES
from inexeval.measures.classic_base import BOGUS_DOCNO, Ranking, c_log
from inexeval.measures.classic_trec import MIN_GEO_MEAN
from inexeval.records import field, record

__all__ = ["BOGUS_DOCNO", "MISSING_ZSCORE", "Column", "ClassicEvaluation", "evaluate", "summarise", "accumulated",
           "summary_value", "reset_stand_in", "judgements_above_zero"]

#: trec_eval's value for a Z score it cannot compute (measure or topic not in the -Z file, zero deviation).
MISSING_ZSCORE = -1000000.0


@record
class Column:
    """One label's per-topic values over the evaluated topics, and how trec_eval prints and sums it."""

    label: str
    values: list | np.ndarray  # float per evaluated topic (a list, or float64 when put together from pieces), or str (relstring)
    integer: bool = False
    aggregate: str = "mean"  # mean, sum, gmean, none (text: per topic only)
    per_topic: bool = True  # False: trec_eval -q does not print it per topic (gm_map)


@record
class ClassicEvaluation:
    """The evaluated topics (table indices, in order), one column per label, and the summary."""

    topics: list[int]
    columns: dict[str, Column]
    num_queries: int  # the summary's topic count (num_q)
    summary: dict[str, float] = field(default_factory=dict)


def reset_stand_in(label: str, values: list, rows: list[int]) -> None:
    """trec_eval's clean-up after scoring a stand-in ranking (trec_eval.c): ROWS of VALUES reset."""
    if label in ("num_ret", "utility", "rbp_resid") or label.startswith("unj"):
        for i in rows:
            values[i] = 0.0
    elif label == "relstring":  # (trec_eval.c compares the label: relstring_20 keeps its string)
        for i in rows:
            values[i] = ""


def evaluate(ranking: Ranking, labelled: list[tuple[str, object]], *, evaluated: np.ndarray,
             stand_in: np.ndarray | None = None, complete: bool = False,
             compute: Callable[[list], dict[str, np.ndarray | list]]) -> ClassicEvaluation:
    """Per-topic columns of the measures LABELLED ((label, spec) pairs) on the EVALUATED topics of
    RANKING (table indices, in order), STAND_IN marking those scored on trec_eval's stand-in ranking.

    COMPUTE(specs) returns each spec's values over every table topic (numbers, or strings for
    relstring), keyed by spec name: the family table's kernels (:func:`inexeval.measures.classic.compute`).
    """
    evaluated = np.asarray(evaluated, dtype=np.int64)
    values = compute([spec for _, spec in labelled]) if labelled else {}
    stand = np.flatnonzero(stand_in).tolist() if stand_in is not None else []
    columns: dict[str, Column] = {}
    for label, spec in labelled:
        fam = FAMILIES[spec.family]
        got = values[spec.name]
        if isinstance(got, list):  # text (relstring)
            vals = [got[t] for t in evaluated.tolist()]
            col = Column(label, vals, aggregate="none")
        else:
            col = Column(label, np.asarray(got, dtype=np.float64)[evaluated].tolist(), integer=fam.integer,
                         aggregate=fam.aggregate, per_topic=fam.per_topic_reported)
        if stand:
            reset_stand_in(label, col.values, stand)
        columns[label] = col
    num_queries = ranking.table.size if complete else int(evaluated.size)
    return ClassicEvaluation(evaluated.tolist(), columns, num_queries)


def accumulated(col: Column, zscore: Callable[[int, str, float], float] | None = None) -> list[float]:
    """The values trec_eval adds up for COL, topic by topic: the value, or log(max(v, 0.00001)) for
    the ``gm_`` measures, turned into a Z score by ZSCORE(topic position, label, value) if given."""
    vals = col.values
    if isinstance(vals, np.ndarray) and (col.aggregate == "gmean" or zscore is not None):
        vals = vals.tolist()
    if col.aggregate == "gmean":
        vals = [c_log(max(v, MIN_GEO_MEAN)) for v in vals]
    if zscore is not None:
        vals = [zscore(i, col.label, v) for i, v in enumerate(vals)]
    return vals


def summary_value(col: Column, vals: list[float], ev: ClassicEvaluation, complete: bool,
                  num_rel_all: int | None = None) -> float:
    """trec_eval's summary of COL from its accumulated values VALS (evaluation order)."""
    if isinstance(vals, np.ndarray):  # (the same sums: add.accumulate adds left to right; + 0.0 as from 0.0)
        acc = float(np.add.accumulate(vals)[-1]) + 0.0 if vals.size else 0.0
    else:
        acc = 0.0
        for v in vals:  # te_acc_meas_s: left to right
            acc += v
    n = ev.num_queries
    if col.label == "num_rel" and complete and num_rel_all is not None:
        return float(num_rel_all)  # te_calc_avg_num_rel
    if col.aggregate == "sum":
        return acc
    if col.aggregate == "gmean":
        if n <= 0:
            return acc
        if complete:
            acc += (n - len(vals)) * math.log(MIN_GEO_MEAN)
        return math.exp(acc / n)
    return acc / n if n else acc


def summarise(ev: ClassicEvaluation, complete: bool, num_rel_all: int | None = None,
              zscore: Callable[[int, str, float], float] | None = None) -> dict[str, float]:
    """The summary line's value of every numeric column of EV (trec_eval's ``all`` lines)."""
    out = {}
    for label, col in ev.columns.items():
        if col.aggregate == "none":
            continue
        out[label] = summary_value(col, accumulated(col, zscore), ev, complete, num_rel_all)
    ev.summary = out
    return out


def judgements_above_zero(ranking: Ranking) -> int:
    """trec_eval 10.0's ``-c`` summary ``num_rel``: the qrels judgements > 0 of every topic."""
    return int(np.count_nonzero(ranking.table.qrel > 0))
