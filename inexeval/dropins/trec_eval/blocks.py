"""A large run scored piece by piece, as one evaluation of the whole file would score it (issue 35,
target 2; docs/trec-eval.md §8).

A run file of :data:`~inexeval.readers.trec_chunks.STREAM_FROM` bytes or more is read in pieces of
whole topics (:func:`~inexeval.readers.trec_chunks.topic_chunks`).  Each piece is scored by
:func:`~inexeval.dropins.trec_eval.evaluate.evaluate_qrels` with the judgements of its topics
only; trec_eval's measures are per topic, so its values are the whole file's.  Put together:

- the topics of every piece, in the qrels' byte order, as trec_eval walks them;
- the qrels topics no piece has: ``-c`` scores them on trec_eval's stand-in ranking, without it the
  first of them stops the program (status 4), as in :func:`~.evaluate.prepare_topics`;
- the stop (a docno twice, a measure that cannot be computed) of the first topic, in that order,
  that has one; the topics after it are dropped.

Memory: one piece's arrays, and one float per label and evaluated topic.  The whole file is read
the usual way instead (:func:`evaluate_file` returns None) when a topic is in two pieces (the run
is not grouped by topic), when a piece cannot be read (the error is then the whole file's, with
its line numbers), for ``-D``, for ids too long to be cut into fixed-width columns, for a run
with a NUL byte, and for qrels with a topic judged only below 0.
"""

from __future__ import annotations

import numpy as np

from inexeval.dropins.trec_eval.evaluate import Evaluation, evaluate_qrels, ids, not_found
from inexeval.dropins.trec_eval.options import Options, Selected, TrecEvalExit
from inexeval.dropins.trec_eval.read import RawQrels, RawRun, read_run
from inexeval.measures.classic_engine import Column


def evaluate_file(qrels: RawQrels, path: str, opts: Options,
                  selected: list[Selected]) -> tuple[Evaluation, bytes] | None:
    """The evaluation of the run file PATH piece by piece and its run id; None: read it whole."""
    from inexeval.readers.trec_chunks import ReadWhole, grouped_runs

    if opts.debug_query is not None or qrels.qid.dtype == object:
        return None
    if np.any(qrels.rel < 0) and ids(qrels.qid).size != ids(qrels.qid[qrels.rel >= 0]).size:
        return None  # a topic judged only below 0: what trec_eval does there depends on the topics before it
    by_topic = np.argsort(qrels.qid, kind="stable")  # (file order within a topic, as the whole file has it)
    qsorted = qrels.qid[by_topic]
    found: list[np.ndarray] = []
    parts: list[tuple[Evaluation, bytes | None]] = []
    run_id = None
    try:
        for run, topics in grouped_runs(path, lambda piece, _: _read_piece(piece, path), (TrecEvalExit,), lines=False):
            run_id = run.run_id
            found.append(topics)
            sub = _judgements(qrels, by_topic, qsorted, topics)
            if sub.qid.size:
                parts.append(_scored(sub, run, opts, selected))
    except ReadWhole:
        return None
    if run_id is None:
        return None
    keys = ids(qrels.qid)
    missing = keys[~np.isin(keys, np.concatenate(found))]
    stops: list[tuple[bytes, TrecEvalExit]] = [(k, ev.stop) for ev, k in parts if k is not None]
    if missing.size and not opts.complete:
        stops.append((bytes(missing[0]), not_found(bytes(missing[0]))))
    elif missing.size:  # -c: trec_eval's stand-in ranking for each
        sub = _judgements(qrels, by_topic, qsorted, missing)
        empty = RawRun(np.empty(0, dtype="S1"), np.empty(0, dtype="S1"), np.empty(0), b"")
        parts.append(_scored(sub, empty, opts, selected))
    if not parts:
        return None
    stop = min(stops, key=lambda s: s[0]) if stops else None
    return _together([ev for ev, _ in parts], stop, opts, qrels, keys.size), run_id


def _read_piece(piece: bytes, path: str) -> RawRun:
    """The run of a piece; a NUL byte in it: the whole file is read instead (a line that starts with
    one ends the file for trec_eval: :func:`~.read.until_nul_line`, which needs the whole file)."""
    from inexeval.readers.trec_chunks import ReadWhole

    if b"\0" in piece:
        raise ReadWhole
    return read_run(piece, path)


def _judgements(qrels: RawQrels, by_topic: np.ndarray, qsorted: np.ndarray, topics: np.ndarray) -> RawQrels:
    """The rows of QRELS judging TOPICS (sorted ids), topic by topic, each topic's in file order."""
    lo = np.searchsorted(qsorted, topics, "left")
    hi = np.searchsorted(qsorted, topics, "right")
    counts = hi - lo
    total = int(counts.sum())
    first = np.cumsum(counts) - counts
    rows = by_topic[np.repeat(lo - first, counts) + np.arange(total)]
    return RawQrels(qrels.qid[rows], qrels.docno[rows], qrels.rel[rows])


def _scored(sub: RawQrels, run: RawRun, opts: Options, selected: list[Selected]) -> tuple[Evaluation, bytes | None]:
    """SUB's topics scored on RUN, and the topic at which it stops (None: it does not)."""
    ev = evaluate_qrels(sub, run, opts, selected)
    for col in ev.columns.values():  # (kept until the end: 8 bytes a value, not a Python float's 32)
        if col.aggregate != "none":
            col.values = np.asarray(col.values, dtype=np.float64)
    return ev, (bytes(ids(sub.qid)[len(ev.topics)]) if ev.stop is not None else None)


def _together(parts: list[Evaluation], stop: tuple[bytes, TrecEvalExit] | None, opts: Options,
              qrels: RawQrels, n_topics: int) -> Evaluation:
    """The evaluations of PARTS as one: topics in byte order, those from STOP's topic on dropped."""
    topics = [t for ev in parts for t in ev.topics]
    names = np.array(topics, dtype=bytes) if topics else np.empty(0, dtype="S1")
    order = np.argsort(names, kind="stable")
    if stop is not None:
        order = order[names[order] < np.array(stop[0], dtype=bytes)]
    columns: dict[str, Column] = {}
    for label, first in parts[0].columns.items():
        if first.aggregate == "none":  # text (relstring)
            joined = [v for ev in parts for v in ev.columns[label].values]
            values = [joined[i] for i in order.tolist()]
        else:
            values = np.concatenate([ev.columns[label].values for ev in parts])[order]
        columns[label] = Column(label, values, first.integer, first.aggregate, first.per_topic)
    kept = [topics[i] for i in order.tolist()]
    num_rel = int(np.count_nonzero(qrels.rel > 0)) if opts.complete else None
    return Evaluation(kept, columns, None if stop is None else stop[1], num_rel,
                      n_topics if opts.complete else len(kept))
