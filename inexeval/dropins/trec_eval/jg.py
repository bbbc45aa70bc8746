"""trec_eval's judgement-group measures (``-R qrels_jg``), docs/trec-eval.md §5.

A ``qrels_jg`` file is a qrels file whose second field names the judgement
group (one assessor's judgements): ``qid jg docno rel``.  Each measure is
computed per (topic, group) on the run's ranking judged by that group, then
averaged over the topic's groups:

- ``map_avgjg``: average precision (``map``) per group;
- ``P_avgjg_k``: precision at rank k (``P_k``) per group;
- ``Rprec_mult_avgjg_x``: precision at rank k = trunc(x·R_g + 0.9), R_g the
  group's relevant count (0 when k = 0; the divisor stays k past the end
  of the ranking).

Every (topic, group) pair is one segment of a :class:`Ranking`, so each
measure is a few numpy operations over all of them at once.
"""

from __future__ import annotations

import numpy as np

from inexeval.measures.classic_base import at_rank
from inexeval.measures.classic_join import join_ordered, topic_table
from inexeval.measures.classic_trec import TrecState
from inexeval.readers.trec import Qrels, sort_pairs
from inexeval.dropins.trec_eval.options import Options, Selected, TrecEvalExit
from inexeval.dropins.trec_eval.read import RawQrels, RawRun, read_qrels


def read_qrels_jg(data: bytes, path: str) -> RawQrels:
    """A qrels_jg file (trec_eval's qrels reading, the group kept); a docno twice in one group is an error."""
    q = read_qrels(data, path, "get_qrels_jg", group=True)
    _, t = np.unique(q.qid, return_inverse=True)
    _, g = np.unique(q.group, return_inverse=True)
    _, d = np.unique(q.docno, return_inverse=True)
    o = np.lexsort((d.ravel(), g.ravel(), t.ravel()))
    key = np.stack((t.ravel()[o], g.ravel()[o], d.ravel()[o]))
    same = np.flatnonzero((key[:, 1:] == key[:, :-1]).all(axis=0))
    if same.size:
        docno = bytes(q.docno[o[same[0]]]).decode("utf-8", "surrogateescape")
        raise TrecEvalExit(f"trec_eval.get_qrels: duplicate docs {docno}\ntrec_eval: Quit in file '{path}'\n", 2)
    return q


def evaluate_jg(qrels: RawQrels, run: RawRun, opts: Options, selected: list[Selected]):
    """The qrels_jg measures of SELECTED on the topics trec_eval evaluates."""
    from inexeval.dropins.trec_eval.evaluate import Column, Evaluation, drop_unjudged, prepare_topics, topic_codes

    keys, evaluated, kept, stop = prepare_topics(qrels, run, opts, selected)
    sel = keys[evaluated] if evaluated else keys[:0]
    qt = topic_codes(sel, qrels.qid)
    rows = np.flatnonzero(qt >= 0)
    # one segment per (topic, group): groups numbered within their topic in byte order
    pairs = np.unique(np.stack((qt[rows].astype(np.int64), _codes(qrels.group[rows]))), axis=1)
    seg_topic = pairs[0]
    width = max(len(str(pairs.shape[1])), 1)
    seg_name = np.array([b"%0*d" % (width, i) for i in range(pairs.shape[1])], dtype=f"S{width}")
    gcode = _codes(qrels.group[rows])
    seg_of_row = np.searchsorted(pairs[0] * (gcode.max(initial=0) + 1) + pairs[1],
                                 qt[rows] * (gcode.max(initial=0) + 1) + gcode)
    order, vocab, code = sort_pairs(seg_name[seg_of_row], qrels.docno[rows])
    q = Qrels("qrels_jg", seg_name[seg_of_row][order], qrels.docno[rows][order], qrels.rel[rows][order],
              np.zeros(rows.size, dtype=np.int64), vocab, code[order])
    table = topic_table(q, opts.level)
    # the run's kept rows, once per group of their topic
    rt = topic_codes(sel, run.qid[kept])
    rrows = kept[rt >= 0]
    rt = rt[rt >= 0]
    first = np.searchsorted(seg_topic, rt, side="left")
    count = np.searchsorted(seg_topic, rt, side="right") - first
    rep = np.repeat(np.arange(rrows.size), count)
    seg = np.repeat(first, count) + (np.arange(rep.size) - np.repeat(np.cumsum(count) - count, count))
    # each segment's rows in the kept rows' order, which is trec_eval's (NaN scores included:
    # evaluate.order_run), not sorted again
    by_seg = np.argsort(seg, kind="stable")
    ranking = join_ordered(topic_codes(table.keys, seg_name[seg[by_seg]]), run.docno[rrows][rep[by_seg]], table)
    if opts.judged_only:
        ranking = drop_unjudged(ranking)
    state = TrecState(ranking)

    n_topics = len(evaluated)
    columns: dict[str, Column] = {}

    def per_topic(seg_values: np.ndarray) -> list[float]:
        out = [0.0] * n_topics
        ngroups = np.bincount(seg_topic, minlength=n_topics)
        for i, v in zip(seg_topic.tolist(), seg_values.tolist()):
            out[i] += v
        return [v / g if g > 1 else v for v, g in zip(out, ngroups.tolist())]

    for s in selected:
        name = s.measure.name
        if name == "map_avgjg":
            columns[name] = Column(name, per_topic(state.ap()))
        elif name == "P_avgjg":
            for lab, k in zip(s.labels, s.cutoffs):
                columns[lab] = Column(lab, per_topic(state.precision(k)))
        elif name == "Rprec_mult_avgjg":
            for lab, x in zip(s.labels, s.cutoffs):
                if opts.level < 0:  # (the backward walk of m_Rprec_mult_avgjg.c, one group at a time)
                    columns[lab] = Column(lab, per_topic(_rprec_mult_below_zero(ranking, x, opts.level)))
                    continue
                k = np.trunc(x * state.num_rel.astype(np.float64) + 0.9).astype(np.int64)
                got = at_rank(state.count, state.start, k).astype(np.float64)
                val = np.divide(got, k, out=np.zeros(k.shape), where=k > 0)
                columns[lab] = Column(lab, per_topic(val))
    # -c: the summary divides by every topic of the file, also under -D (meas_avg.c), as for -R qrels
    return Evaluation([bytes(keys[t]) for t in evaluated], columns, stop,
                      num_queries=keys.size if opts.complete else None)


def _rprec_mult_below_zero(ranking, x: float, level: int) -> np.ndarray:
    """Rprec_mult_avgjg_x of every (topic, group) segment under ``-l LEVEL`` < 0, as trec_eval walks it
    (:func:`inexeval.dropins.trec_eval.evaluate.negative_level_values`)."""
    from inexeval.dropins.trec_eval.evaluate import _walk_rprec_mult

    start, rels, num_rel = ranking.start.tolist(), ranking.rel.tolist(), ranking.table.num_rel.tolist()
    out = np.zeros(ranking.table.size)
    for t in range(ranking.table.size):
        rr = rels[start[t]:start[t + 1]]
        out[t] = _walk_rprec_mult(rr, level, sum(1 for r in rr if r >= 0 and r >= level), num_rel[t], x)
    return out


def _codes(values: np.ndarray) -> np.ndarray:
    return np.unique(values, return_inverse=True)[1].ravel().astype(np.int64)
