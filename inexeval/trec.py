"""``TASK: trec``: classic measures on TREC qrels and runs, trec_eval's semantics (SPEC §8).

Entry points: :func:`evaluate_trec` (read, score, average) and
:func:`format_trec_eval` (trec_eval's own output layout).  Measure names and
their parameter spelling are documented in :mod:`inexeval.measures.classic`;
:data:`MEASURES` lists them for ``inexeval metrics``.

Per run (trec_eval 9.0.x):

- results are ordered by score descending, ties by docno descending (byte
  order); the rank column is ignored.  A repeated (topic, docno) keeps its
  first line in the file (SPEC §1.3 hygiene; trec_eval refuses such a run),
  counted in one warning.  ``max_results`` (trec_eval ``-M``) keeps the
  first results of each topic *after* ordering; None keeps all.
- topics absent from the qrels are ignored (one warning per run).
- a topic with no relevant document (rel >= ``rel_level``) has no value
  (SPEC §10): its per-topic values are None and it is left out of every
  average, also with ``empty_as_zero``.
- averages are over the run's qrels topics; with ``empty_as_zero`` (``-e``,
  trec_eval ``-c``) over every qrels topic with a relevant document, a topic
  missing from the run scoring 0 for every measure (``num_rel`` included,
  as trec_eval sums ``num_rel`` over evaluated topics only).
- ``num_ret``, ``num_rel``, ``num_rel_ret`` average as sums; ``gm_map``
  per topic is the topic's average precision and averages as
  exp(mean(log(max(AP, 0.00001)))); everything else is an arithmetic mean.
- the run id is the tag column; if the tags disagree, the file name (with
  a warning).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from inexeval.errors import ConfigError, InputError
from inexeval.measures.classic import (
    DEFAULT_MEASURES,
    INTEGER,
    MEASURES,
    SUMMED,
    MeasureSpec,
    compute,
    parse_measures,
)
from inexeval.measures.classic_base import JUDGED_NEGATIVE, NOT_JUDGED, Ranking, TopicTable
from inexeval.measures.classic_trec import gm_mean
from inexeval.model import RunResult
from inexeval.readers.trec import Qrels, TrecRun, read_qrels, read_run

__all__ = ["evaluate_trec", "format_trec_eval", "MEASURES", "DEFAULT_MEASURES", "topic_table", "rank_run"]


def _decode(b: bytes) -> str:
    return b.decode("utf-8", "replace")


def topic_table(qrels: Qrels, rel_level: int = 1) -> TopicTable:
    """Per-topic facts of QRELS (rows already sorted by qid, docno)."""
    keys, first = np.unique(qrels.qid, return_index=True)
    qstart = np.append(first, qrels.qid.size).astype(np.int64)
    topic = np.repeat(np.arange(keys.size), np.diff(qstart))
    rel = qrels.rel
    num_rel = np.bincount(topic[rel >= rel_level], minlength=keys.size).astype(np.int64)
    num_nonrel = np.bincount(topic[(rel >= 0) & (rel < rel_level)], minlength=keys.size).astype(np.int64)
    vocab, code = np.unique(qrels.docno, return_inverse=True)
    qkey = topic * max(vocab.size, 1) + code.astype(np.int64)  # sorted: rows are by (qid, docno)
    return TopicTable(keys, [_decode(k) for k in keys], qstart, rel, qrels.docno, rel_level, num_rel, num_nonrel,
                      vocab, qkey)


def rank_run(
    run: TrecRun, table: TopicTable, *, max_results: int | None = None, warn: Callable[[str], None] | None = None
) -> tuple[Ranking, np.ndarray]:
    """Order RUN as trec_eval does and look up relevance; also which table topics the run has.

    Returns the :class:`Ranking` over every topic of TABLE (topics the run
    lacks are empty) and a boolean mask of the topics present in the run.
    """
    say = warn or (lambda msg: None)
    uq, inv = np.unique(run.qid, return_inverse=True)
    pos = np.minimum(np.searchsorted(table.keys, uq), max(table.size - 1, 0))
    known_u = table.keys[pos] == uq if table.size else np.zeros(uq.size, dtype=bool)
    if not known_u.all():
        unknown = [_decode(q) for q in uq[~known_u]]
        say(f"{run.source}: {len(unknown)} topic(s) not in the qrels ignored: {', '.join(unknown[:10])}"
            + (" ..." if len(unknown) > 10 else ""))
    keep = known_u[inv]
    tidx = pos[inv][keep]
    docno, score = run.docno[keep], run.score[keep]

    # docnos as integer codes in byte order: one string sort, then integer work only
    udoc, code = np.unique(docno, return_inverse=True)
    code = code.astype(np.int64)
    key = tidx.astype(np.int64) * max(udoc.size, 1) + code  # (topic, docno), ordered

    # duplicates: keep the first line of every (topic, docno)
    order = np.argsort(key, kind="stable")  # stable: file order within equal keys
    k_s = key[order]
    dup = np.zeros(order.size, dtype=bool)
    dup[1:] = k_s[1:] == k_s[:-1]
    if dup.any():
        say(f"{run.source}: {int(dup.sum())} duplicate result(s) dropped (first occurrence kept)")
        kept = np.sort(order[~dup])
        tidx, code, score, key = tidx[kept], code[kept], score[kept], key[kept]

    # relevance look-up: the run's documents in the qrels vocabulary, then (topic, docno) keys
    V = table.vocab.size
    vpos = np.minimum(np.searchsorted(table.vocab, udoc), max(V - 1, 0))
    vhit = table.vocab[vpos] == udoc if V else np.zeros(udoc.size, dtype=bool)
    rkey = tidx.astype(np.int64) * max(V, 1) + vpos[code]
    p = np.minimum(np.searchsorted(table.qkey, rkey), max(table.qkey.size - 1, 0))
    hit = vhit[code] & (table.qkey[p] == rkey) if table.qkey.size else np.zeros(rkey.size, dtype=bool)
    r = table.qrel[p] if table.qkey.size else np.zeros(rkey.size, dtype=np.int64)
    rel_all = np.where(hit, np.where(r >= 0, r, JUDGED_NEGATIVE), NOT_JUDGED)

    # trec_eval order: topic ascending, score descending, docno descending
    o2 = np.lexsort((code, score, -tidx))[::-1]
    t_o, rel = tidx[o2], rel_all[o2]
    counts = np.bincount(t_o, minlength=table.size)
    if max_results is not None:
        start0 = np.concatenate(([0], np.cumsum(counts)))
        rank = np.arange(t_o.size) - np.repeat(start0[:-1], counts) + 1
        within = rank <= max_results
        rel, t_o = rel[within], t_o[within]
        counts = np.bincount(t_o, minlength=table.size)
    start = np.concatenate(([0], np.cumsum(counts))).astype(np.int64)
    present = np.zeros(table.size, dtype=bool)
    present[np.unique(tidx)] = True
    return Ranking(table, start, rel), present


def _run_id(run: TrecRun, say: Callable[[str], None]) -> str:
    if len(run.tags) == 1:
        return run.tags[0]
    name = Path(run.source).name
    say(f"{run.source}: the tag column holds {len(run.tags)} different run ids; using the file name {name!r}")
    return name


def _average(name: str, values: list[float]) -> float | None:
    if not values:
        return None
    if name in SUMMED:
        return float(sum(values))
    if name == "gm_map":
        return gm_mean(np.array(values))
    return float(np.mean(values))


def score_run(
    run: TrecRun,
    table: TopicTable,
    specs: list[MeasureSpec],
    *,
    gains: dict[int, float] | None = None,
    q_beta: float = 1.0,
    empty_as_zero: bool = False,
    max_results: int | None = None,
    warn: Callable[[str], None] | None = None,
) -> RunResult:
    """Score one parsed run against TABLE: per-topic values and averages (module docstring)."""
    say = warn or (lambda msg: None)
    ranking, present = rank_run(run, table, max_results=max_results, warn=say)
    values = compute(ranking, specs, gains=gains, q_beta=q_beta)
    names = [s.name for s in specs]
    defined = table.num_rel > 0
    counted = present | empty_as_zero  # -e: every qrels topic (undefined ones stay None)
    missing = counted & ~present
    per_topic: dict[str, dict[str, float | None]] = {}
    columns = {n: values[n].tolist() for n in names}
    for t in np.flatnonzero(counted).tolist():
        if not defined[t]:
            per_topic[table.names[t]] = {n: None for n in names}
        elif missing[t]:
            per_topic[table.names[t]] = {n: 0.0 for n in names}
        else:
            per_topic[table.names[t]] = {n: columns[n][t] for n in names}
    undefined = int((counted & ~defined).sum())
    if undefined:
        say(f"{run.source}: {undefined} topic(s) without relevant documents have no value")
    scored = [v for v in per_topic.values() if v[names[0]] is not None] if names else []
    average = {n: _average(n, [v[n] for v in scored]) for n in names}
    return RunResult(_run_id(run, say), "default", names, per_topic, average, run.source)


def evaluate_trec(
    qrels_path: str | Path,
    run_paths: Sequence[str | Path],
    *,
    measures: Sequence[str] | None,
    rel_level: int = 1,
    gains: dict[int, float] | None = None,
    q_beta: float = 1.0,
    empty_as_zero: bool = False,
    max_results: int | None = None,
    warn: Callable[[str], None] | None = None,
) -> tuple[list[RunResult], list[InputError]]:
    """Score every run of RUN_PATHS against the qrels (SPEC §8).

    ``measures``: names as in :mod:`inexeval.measures.classic` (None: the
    default set).  A bad measure name or ``rel_level`` < 1 raises
    ConfigError; a bad qrels file raises InputError; a bad run file is
    returned in the error list and the other runs are still scored.
    Warnings go to ``warn`` (default: standard error).
    """
    say = warn or (lambda msg: print(f"warning: {msg}", file=sys.stderr))
    if rel_level < 1:
        raise ConfigError(f"REL_LEVEL must be >= 1, not {rel_level}")
    if max_results is not None and max_results < 1:
        raise ConfigError(f"MAX_RESULTS must be >= 1, not {max_results}")
    specs = parse_measures(list(measures) if measures is not None else None)
    table = topic_table(read_qrels(qrels_path), rel_level)
    results: list[RunResult] = []
    errors: list[InputError] = []
    for path in run_paths:
        try:
            run = read_run(path)
        except InputError as exc:
            errors.append(exc)
            continue
        results.append(
            score_run(run, table, specs, gains=gains, q_beta=q_beta, empty_as_zero=empty_as_zero,
                      max_results=max_results, warn=say)
        )
    return results, errors


def _fmt(name: str, value: float, digits: int | None) -> str:
    if name in INTEGER:
        return str(int(round(value)))
    return repr(float(value)) if digits is None else f"{value:.{digits}f}"


def format_trec_eval(
    results: RunResult | Sequence[RunResult], digits: int | None = None, *, per_query: bool = False
) -> str:
    """Results in trec_eval's layout: ``"%-22s\\t%s\\t%s\\n"`` (measure, topic, value).

    Values in full precision (``repr``) by default, ``digits=4`` for
    trec_eval's ``%.4f``; integer measures as integers.  With ``per_query``
    (trec_eval ``-q``), each topic's lines first, topics in byte order and
    undefined topics skipped (trec_eval never evaluates them), ``gm_map``
    not printed per topic (as trec_eval); then the summary under ``all``,
    opened by ``runid`` and ``num_q``.
    """
    runs = [results] if isinstance(results, RunResult) else list(results)
    out: list[str] = []
    for res in runs:
        if per_query:
            for topic in sorted(res.per_topic, key=lambda t: t.encode("utf-8")):
                vals = res.per_topic[topic]
                for name in res.measures:
                    v = vals[name]
                    if v is not None and name != "gm_map":
                        out.append(f"{name:<22}\t{topic}\t{_fmt(name, v, digits)}\n")
        num_q = sum(1 for v in res.per_topic.values() if any(x is not None for x in v.values()))
        out.append(f"{'runid':<22}\tall\t{res.run_id}\n")
        out.append(f"{'num_q':<22}\tall\t{num_q}\n")
        for name in res.measures:
            v = res.average[name]
            if v is not None:
                out.append(f"{name:<22}\tall\t{_fmt(name, v, digits)}\n")
    return "".join(out)
