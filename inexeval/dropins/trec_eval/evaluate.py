"""Scoring a run as trec_eval 10.0 does (docs/trec-eval.md §3): which topics it evaluates, in which
order, where it stops, and the classic measures of each (``-R qrels``) through the classic engine
(:mod:`inexeval.measures.classic_engine`).  The preference and judgement-group measures
(:mod:`inexeval.dropins.trec_eval.prefs`, :mod:`inexeval.dropins.trec_eval.jg`) use the same
topic selection.

Evaluation walks the qrels topics in byte order, as trec_eval does: a topic the run lacks stops the
program (status 4) unless ``-c`` is given, and so does a document twice in the run (within the
``-M`` cut) or twice in the qrels, after the per-topic lines of the topics before it.
"""

from __future__ import annotations

import numpy as np

from inexeval.dropins.trec_eval.options import Options, Selected, TrecEvalExit, atof
from inexeval.dropins.trec_eval.read import RawQrels, RawRun
from inexeval.measures.classic_engine import BOGUS_DOCNO, Column
from inexeval.measures.classic_join import as_written as _as_written
from inexeval.measures.classic_join import maybe_twice as _maybe_twice
from inexeval.readers.bytekeys import block_starts, dense_rank, distinct_grouped, order_codes
from inexeval.records import record

__all__ = ["Column", "Evaluation", "evaluate_qrels", "prepare_topics", "topic_codes", "first_measure",
           "drop_unjudged", "wrong_format", "wrong_format_at", "not_found", "specs_of", "score_ranking",
           "NEGATIVE_LEVEL", "negative_level_values"]

#: A combined int64 sort key must stay below this (else the sort takes its parts as separate keys).
_KEY_LIMIT = 2**62


@record
class Evaluation:
    """What the rel format's evaluator returns: topics evaluated, one column per label (the classic
    engine's :class:`~inexeval.measures.classic_engine.Column`), and the error that stopped it
    (printed after the per-topic lines of the evaluated topics), if any."""

    topics: list[bytes]
    columns: dict[str, Column]
    stop: TrecEvalExit | None = None
    num_rel_summary: int | None = None  # -c: the summary num_rel (judgements > 0 of every topic)
    num_queries: int | None = None  # the summary's divisor and num_q (None: the topics evaluated)


# ------------------------------------------------------------------ qrels evaluation ----


def topic_codes(keys: np.ndarray, qid: np.ndarray) -> np.ndarray:
    """Index of every QID in the sorted KEYS, -1 where absent.  Files list a topic's lines together,
    so an id is looked up once per block of equal consecutive ids when the blocks are few."""
    if not keys.size:
        return np.full(qid.size, -1, dtype=np.int64)
    starts = block_starts(qid)
    blocks = 4 * starts.size <= qid.size
    look = qid[starts] if blocks else qid
    pos = np.minimum(np.searchsorted(keys, look), keys.size - 1)
    code = np.where(keys[pos] == look, pos, -1).astype(np.int64)
    return np.repeat(code, np.diff(np.append(starts, qid.size))) if blocks else code


def ids(qid: np.ndarray) -> np.ndarray:
    """The distinct ids of QID, sorted (``np.unique``, once per block of equal consecutive ids)."""
    return distinct_grouped(qid)[0]


def order_run(run: RawRun, keys: np.ndarray, t: np.ndarray, cap: int | None, ascending: bool = False,
              doc_codes: np.ndarray | None = None, single: bool = False) -> tuple[np.ndarray, dict[int, bytes]]:
    """Rows of RUN kept after the ``-M`` cut, in trec_eval's order (score descending, docno descending;
    ASCENDING: ties by docno ascending, as its preference code has it), and per topic index the first
    docno (byte order) found twice among them.  T: each row's index in KEYS (-1: not there);
    DOC_CODES: integers in the order of the rows' docnos, if known (:func:`ordered_rows`)."""
    kept, dups, _ = ordered_rows(run, keys, t, cap, ascending, doc_codes, single)
    return kept, dups


class Joint:
    """The kept rows of :func:`ordered_rows` by (topic, docno), as the docno join looks them up:
    ``at``, their places among the kept rows; ``key``, ``topic << bits | docno key`` of each
    (increasing, the docno keys those of :func:`~inexeval.measures.classic_join.docno_keys`)."""

    __slots__ = ("at", "key", "bits")

    def __init__(self, at: np.ndarray, key: np.ndarray, bits: int):
        self.at, self.key, self.bits = at, key, bits


def ordered_rows(run: RawRun, keys: np.ndarray, t: np.ndarray, cap: int | None, ascending: bool = False,
                 doc_codes: np.ndarray | None = None, single: bool = False,
                 top_code: int | None = None) -> tuple[np.ndarray, dict[int, bytes], Joint | None]:
    """:func:`order_run`, and, when the run had to be sorted, its kept rows by (topic, docno)
    (:class:`Joint`; None otherwise).  TOP_CODE: the largest docno code the join compares with (the
    qrels vocabulary's), so that the bits of the docno keys are the join's.

    A run written in trec_eval's order is taken as written (:func:`_as_written`) when a hash of its
    (topic, docno) pairs finds no pair twice (:func:`_maybe_twice`).  Otherwise the order is one sort
    of ``(topic·S + score rank)·D + docno rank`` (S distinct scores, descending; D docno ranks) when
    it stays below :data:`_KEY_LIMIT`, else a lexsort.  The docno ranks come from one sort of the rows
    by (topic, docno) (:func:`_pair_key`: a row's place there, D = n rows, and the join looks the
    rows up in that order), or from the codes' dense ranks when topic and code do not fit in one
    64-bit key.  Two rows tie only when they are the same document at the same score, and their
    order does not matter.
    """
    rows = np.flatnonzero(t >= 0)
    if not rows.size:
        return rows, {}, None
    tr = t[rows]
    codes = order_codes(run.docno[rows]) if doc_codes is None else doc_codes[rows]
    score = run.score[rows]
    if single:  # trec_eval 9.0.8 keeps scores as C floats (form_res_rels.c): near-ties become ties
        score = score.astype(np.float32)
    o = _as_written(tr, score, codes, ascending)
    if o is not None:  # the file lists each topic's results in trec_eval's order already
        ts = tr[o]
        if cap is not None:
            o, ts = _cut(o, ts, cap, keys.size)
        if not _maybe_twice(ts, codes[o]):
            return rows[o], {}, None
    n = rows.size
    pair, bits = _pair_key(tr, codes, keys.size, top_code)
    if pair is not None:
        by = np.argsort(pair)
        rank, D = np.empty(n, dtype=np.int64), n
        rank[by] = np.arange(n)
    else:
        rank, D = dense_rank(codes)
    srank, S = dense_rank(-score)  # (-0.0 == 0.0: they tie, as in trec_eval)
    tie = rank if ascending else (D - 1) - rank
    if keys.size * S * D < _KEY_LIMIT:
        key = tr * (S * D)
        key += srank * D
        key += tie
        o = np.argsort(key)
    else:
        o = np.lexsort((tie, srank, tr))
    ts = tr[o]
    if np.isnan(score).any():
        _nan_order(o, ts, run.docno[rows], score, ascending)
    if cap is not None:
        o, ts = _cut(o, ts, cap, keys.size)
    kept = rows[o]
    if pair is None:
        return kept, _twice(run, rows, tr, rank, D, o, keys.size), None
    # the kept rows by (topic, docno): their places in O and their keys; equal neighbours: a docno twice
    at = np.full(n, -1, dtype=np.int64)
    at[o] = np.arange(o.size)
    at = at[by]
    pair = pair[by]
    if o.size < n:
        held = at >= 0
        by, at, pair = by[held], at[held], pair[held]
    dups: dict[int, bytes] = {}
    for i in np.flatnonzero(pair[1:] == pair[:-1]).tolist():
        dups.setdefault(int(tr[by[i]]), bytes(run.docno[rows[by[i]]]))
    return kept, dups, Joint(at, pair, bits)


def _pair_key(tr: np.ndarray, codes: np.ndarray, topics: int, top_code: int | None) -> tuple[np.ndarray | None, int]:
    """``tr << bits | code`` of every row (uint64; TR: topic index, CODES: docno order codes) and BITS,
    when topic and code fit in 64 bits (with TOP_CODE, the largest code the join compares with);
    (None, 0) otherwise."""
    if codes.dtype.kind not in "ui":  # (order codes: packed keys or ranks, never negative)
        return None, 0
    top = int(codes.max()) if codes.size else 0
    bits = max(max(top, top_code or 0).bit_length(), 1)
    if max(int(topics).bit_length(), 1) + bits > 64:
        return None, 0
    return (tr.astype(np.uint64) << np.uint64(bits)) | codes.astype(np.uint64), bits


def _twice(run: RawRun, rows: np.ndarray, tr: np.ndarray, rank: np.ndarray, D: int, o: np.ndarray,
           topics: int) -> dict[int, bytes]:
    """Per topic index, the first docno (byte order) twice among the kept rows O (ROWS: the run rows,
    TR their topics, RANK their docnos' dense ranks among D): equal (topic, docno) neighbours once
    sorted that way."""
    ts, dk = tr[o], rank[o]
    pair = ts * D + dk if topics * D < _KEY_LIMIT else None
    if pair is not None and not (np.diff(np.sort(pair)) == 0).any():
        return {}
    by = np.argsort(pair, kind="stable") if pair is not None else np.lexsort((dk, ts))
    tk, dk = ts[by], dk[by]
    dups: dict[int, bytes] = {}
    for i in np.flatnonzero((tk[1:] == tk[:-1]) & (dk[1:] == dk[:-1])).tolist():
        dups.setdefault(int(tk[i]), bytes(run.docno[rows[o[by[i]]]]))
    return dups


def _cut(o: np.ndarray, ts: np.ndarray, cap: int, topics: int) -> tuple[np.ndarray, np.ndarray]:
    """The entries of O (TS: their topics, grouped) within the first CAP of their topic (``-M``)."""
    counts = np.bincount(ts, minlength=topics)
    rank = np.arange(ts.size) - np.repeat(np.cumsum(counts) - counts, counts)
    keep = rank < cap
    return o[keep], ts[keep]


def _nan_order(o: np.ndarray, ts: np.ndarray, docno: np.ndarray, score: np.ndarray, ascending: bool) -> None:
    """Reorder, in place, the topics of O (rows by topic, then trec_eval's order) whose scores hold a NaN
    as trec_eval orders them: its ``qsort`` with ``comp_sim_docno`` (NaN is neither above nor below any
    score, so it falls to the docno comparison), which is glibc's merge sort of the topic's results
    in docno order (``get_trec_results.c`` sorted them so, equal docnos in file order).  TS: the
    topic of each entry of O; ASCENDING: ties by docno ascending (``form_prefs_counts.c``)."""
    from inexeval.measures.classic_base import glibc_msort

    nan_topics = np.unique(ts[np.isnan(score[o])])
    for k in nan_topics.tolist():
        lo, hi = np.searchsorted(ts, k, side="left"), np.searchsorted(ts, k, side="right")
        idx = sorted(o[lo:hi].tolist())  # (file order)
        items = sorted(((bytes(docno[i]), float(score[i]), i) for i in idx), key=lambda x: x[0])

        def cmp(a, b):
            if a[1] > b[1]:
                return -1
            if a[1] < b[1]:
                return 1
            x, y = (a[0], b[0]) if ascending else (b[0], a[0])
            return (x > y) - (x < y)

        o[lo:hi] = [i for _, _, i in glibc_msort(items, cmp)]


def _qrels_dups(qrels: RawQrels, keys: np.ndarray, by_pair: tuple[np.ndarray, np.ndarray]) -> dict[int, bytes]:
    """Per topic index, the first docno (byte order) judged twice; BY_PAIR: the rows' order by topic
    and docno and their docno codes (:func:`~inexeval.readers.trec.sort_pairs`)."""
    t = topic_codes(keys, qrels.qid)
    o, dcode = by_pair
    same = np.flatnonzero((t[o][1:] == t[o][:-1]) & (dcode[o][1:] == dcode[o][:-1]))
    out: dict[int, bytes] = {}
    for i in same.tolist():
        out.setdefault(int(t[o][i]), bytes(qrels.docno[o[i]]))
    return out


def first_measure(selected: list[Selected]) -> str:
    """The measure trec_eval names when a topic cannot be computed: the first one that reads the ranking."""
    for s in selected:
        if s.measure.kind != "special":
            return s.measure.name
    return selected[0].measure.name if selected else "num_ret"


def _stop_topic(keys: np.ndarray, run_topics: set[int], run_dups: dict[int, bytes], qrels_dups: dict[int, bytes],
                wanted: list[int], opts: Options, selected: list[Selected],
                dup_prefix: str = "trec_eval.form_res_qrels",
                negative_first: bool = False) -> tuple[list[int], TrecEvalExit | None]:
    """The topics evaluated before trec_eval would stop, and the reason it stops (None: it does not).
    A docno twice is seen by the first measure that reads the ranking: with none (``-m runid``,
    ``-m num_q``), trec_eval never looks.  NEGATIVE_FIRST: the first topic evaluated has no judgement
    >= 0, where form_res_rels.c's first allocation of its level counts, of max_rel + 1 <= 0 of them,
    gives none, and the first measure that reads the ranking cannot be computed (``-R qrels``)."""
    name = first_measure(selected)
    broken = _calc_failure(selected)
    if not any(s.measure.kind != "special" for s in selected):
        run_dups, qrels_dups, negative_first = {}, {}, False
    for n, t in enumerate(wanted):
        msg = None
        if t not in run_topics and not opts.complete:
            return wanted[:n], not_found(bytes(keys[t]))
        if t in run_dups:
            msg = f"{dup_prefix}: duplicate docs {run_dups[t].decode('utf-8', 'surrogateescape')}"
        elif t in qrels_dups:
            msg = f"trec_eval.form_res_rels: duplicate docs {qrels_dups[t].decode('utf-8', 'surrogateescape')}\n"
        if msg is not None:
            return wanted[:n], TrecEvalExit(msg + f"trec_eval: Can't calculate measure '{name}'\n", 4)
        if n == 0 and negative_first:  # (after the checks for a docno twice, as in form_res_rels.c)
            return [], TrecEvalExit(f"trec_eval: Can't calculate measure '{name}'\n", 4)
        if broken is not None:  # (after the first measure has checked the topic's documents)
            return wanted[:n], broken
    return wanted, None


def _raw_params(s: Selected) -> str | None:
    """The parameters written after ``-m name.`` for a measure whose label carries them (None: none)."""
    lab, name = s.labels[0], s.measure.name
    return lab[len(name) + 1:] if lab != name else None


def _calc_failure(selected: list[Selected]) -> TrecEvalExit | None:
    """The stop (status 4) of a measure that cannot be computed on any topic, so trec_eval stops at the
    first topic it evaluates: ``utility`` with other than 4 coefficients (``m_utility.c``)."""
    for s in selected:
        if s.measure.name == "utility":
            raw = _raw_params(s)
            if raw is not None and len(raw.split(",")) != 4:
                return TrecEvalExit("trec_eval.calc_utility: improper number of coefficients\n"
                                    "trec_eval: Can't calculate measure 'utility'\n", 4)
    return None


def prepare_topics(qrels: RawQrels, run: RawRun, opts: Options, selected: list[Selected], *,
                   ties: str = "descending", by_pair: tuple[np.ndarray, np.ndarray] | None = None,
                   keys: np.ndarray | None = None, run_codes: np.ndarray | None = None,
                   doc_codes: np.ndarray | None = None):
    """Sorted qrels topic keys, the topics to evaluate (indices), the kept run rows (by topic, in rank
    order) and the stop error (TIES: docno order among equal scores; BY_PAIR, the qrels sorted as
    :func:`_qrels_dups` takes them: a docno judged twice stops too).  KEYS, RUN_CODES (the run rows'
    indices in KEYS) and DOC_CODES (:func:`order_run`): what the caller has computed already."""
    return _prepare(qrels, run, opts, selected, ties=ties, by_pair=by_pair, keys=keys, run_codes=run_codes,
                    doc_codes=doc_codes)[:4]


def _prepare(qrels: RawQrels, run: RawRun, opts: Options, selected: list[Selected], *, ties: str = "descending",
             by_pair: tuple[np.ndarray, np.ndarray] | None = None, keys: np.ndarray | None = None,
             run_codes: np.ndarray | None = None, doc_codes: np.ndarray | None = None, top_code: int | None = None,
             level_counts: bool = False):
    """:func:`prepare_topics`, and the kept rows by (topic, docno) (:class:`Joint`, or None).  LEVEL_COUNTS:
    the measures count judgements by level as form_res_rels.c does (``-R qrels``: :func:`_stop_topic`'s
    NEGATIVE_FIRST)."""
    keys = ids(qrels.qid) if keys is None else keys
    t = topic_codes(keys, run.qid) if run_codes is None else run_codes
    kept, run_dups, joint = ordered_rows(run, keys, t, opts.max_per_topic, ties == "ascending", doc_codes,
                                         single=opts.numbers_of == "9.0.8", top_code=top_code)
    run_topics = set(np.flatnonzero(np.bincount(t[t >= 0], minlength=keys.size)).tolist())
    wanted = list(range(keys.size))
    if opts.debug_query is not None:
        d = opts.debug_query.encode("utf-8", "surrogateescape")
        wanted = [t for t in wanted if keys[t] == d]
    prefix = "trec_eval.form_prefs_counts" if ties == "ascending" else "trec_eval.form_res_qrels"
    qdups = _qrels_dups(qrels, keys, by_pair) if by_pair is not None else {}
    negative_first = (level_counts and bool(wanted) and bool(np.any(qrels.rel < 0))
                      and not np.any(qrels.rel[qrels.qid == keys[wanted[0]]] >= 0))
    evaluated, stop = _stop_topic(keys, run_topics, run_dups, qdups, wanted, opts, selected, prefix, negative_first)
    return keys, evaluated, kept, stop, joint


def _sorted_qrels(qrels: RawQrels, order: np.ndarray, vocab: np.ndarray, code: np.ndarray,
                  vocab_key: np.ndarray | None = None, packing=None):
    """The rows ORDER of QRELS (sorted by topic and docno) as the classic measures' qrels; VOCAB: their
    distinct docnos, CODE: each row's index in it; VOCAB_KEY, PACKING: VOCAB's integer keys, if made
    (:func:`~inexeval.readers.trec.sort_pairs_keyed`)."""
    from inexeval.readers.trec import Qrels

    return Qrels("qrels", qrels.qid[order], qrels.docno[order], qrels.rel[order],
                 np.zeros(order.size, dtype=np.int64), vocab, code, vocab_key, packing)


def evaluate_qrels(qrels: RawQrels, run: RawRun, opts: Options, selected: list[Selected]) -> Evaluation:
    """The classic measures of SELECTED on the topics trec_eval evaluates (``-R qrels``)."""
    from inexeval.measures.classic_join import docno_keys, join_ordered, join_sorted, topic_table
    from inexeval.readers.trec import sort_pairs, sort_pairs_keyed

    # the qrels by (topic, docno): once for the check of docnos judged twice and for the table of
    # every topic, whose docno keys order the run's ties too
    order, vocab, code, vocab_key, packing = sort_pairs_keyed(qrels.qid, qrels.docno)
    q = _sorted_qrels(qrels, order, vocab, code[order], vocab_key, packing)
    table = topic_table(q, opts.level)
    doc_keys = docno_keys(table, run.docno)
    t = topic_codes(table.keys, run.qid)
    top_code = int(doc_keys[0][-1]) if doc_keys[0].size else 0  # (the vocabulary's keys increase)
    keys, evaluated, kept, stop, joint = _prepare(qrels, run, opts, selected, by_pair=(order, code), keys=table.keys,
                                                  run_codes=t, doc_codes=doc_keys[1], top_code=top_code,
                                                  level_counts=True)
    # the kept rows are in trec_eval's order, and the evaluated topics have no docno twice among them:
    # only the look-up is left, of the evaluated topics' judgements and results
    tidx = t[kept]  # (kept rows have a topic of the qrels)
    if len(evaluated) < keys.size:  # (-D, or a stop): the table of those topics only
        sel_keys = keys[evaluated] if evaluated else keys[:0]
        qrows = np.flatnonzero(topic_codes(sel_keys, qrels.qid) >= 0)
        sub, vocab, code = sort_pairs(qrels.qid[qrows], qrels.docno[qrows])
        q = _sorted_qrels(qrels, qrows[sub], vocab, code[sub])
        table = topic_table(q, opts.level)
        to_table = np.full(keys.size, -1, dtype=np.int64)
        to_table[evaluated] = np.arange(len(evaluated))
        tidx, doc_keys = to_table[tidx], None
    rrows = kept[tidx >= 0]
    tidx, docno = tidx[tidx >= 0], run.docno[rrows]
    # -c: a topic the run lacks gets trec_eval's stand-in ranking, one unjudged document (its values are
    # then reset as trec_eval resets them), which -M 0 cuts away as it cuts every ranking
    # (form_res_rels.c: the topic is then scored on no result); a topic whose results -M cut away is
    # the run's, and empty
    in_run = np.zeros(keys.size, dtype=bool)
    in_run[t[t >= 0]] = True
    missing = np.flatnonzero(~in_run[np.asarray(evaluated, dtype=np.int64)])
    ranked_stand_ins = missing if opts.max_per_topic is None or opts.max_per_topic > 0 else missing[:0]
    if ranked_stand_ins.size:
        tidx = np.concatenate((tidx, ranked_stand_ins))
        docno = np.concatenate((docno, np.full(ranked_stand_ins.size, BOGUS_DOCNO)))
        by_topic = np.argsort(tidx, kind="stable")
        tidx, docno = tidx[by_topic], docno[by_topic]
        doc_keys = None
    if doc_keys is not None and joint is not None:  # (every kept row is joined: the order found joins them)
        ranking = join_sorted(tidx, table, doc_keys[0], joint.bits, joint.at, joint.key)
    else:
        ranking = join_ordered(tidx, docno, table, None if doc_keys is None else (doc_keys[0], doc_keys[1][rrows]))
    if opts.judged_only:
        ranking = drop_unjudged(ranking)
    stand_in = np.zeros(len(evaluated), dtype=bool)
    stand_in[missing] = True
    ev = score_ranking(ranking, selected, opts, stand_in, num_queries=keys.size if opts.complete else len(evaluated))
    num_rel_summary = int(np.count_nonzero(qrels.rel > 0)) if opts.complete else None  # 10.0's -c num_rel
    return Evaluation([bytes(keys[t]) for t in evaluated], ev.columns, stop, num_rel_summary, ev.num_queries)


def specs_of(selected: list[Selected]) -> list[tuple[str, object]]:
    """(label, MeasureSpec) of every qrels measure SELECTED asks for, parameters read as trec_eval
    reads them (C's ``atof`` for numbers; parameters a measure does not take are ignored)."""
    from inexeval.measures.classic import FAMILIES, MeasureSpec

    out: list[tuple[str, object]] = []
    for s in selected:
        m = s.measure
        if m.kind == "special" or m.source != "qrels":
            continue
        if m.name not in FAMILIES:
            raise TrecEvalExit(f"trec_eval: Cannot initialize measure '{m.name}' (inexeval has no {m.name})\n", 2)
        if m.kind == "cut_long":
            out.extend((lab, MeasureSpec(lab, m.name, int(k))) for lab, k in zip(s.labels, s.cutoffs))
        elif m.kind == "cut_double":
            out.extend((lab, MeasureSpec(lab, m.name, params=(("x", float(x)),)))
                       for lab, x in zip(s.labels, s.cutoffs))
        elif m.kind == "pairs":
            raw = s.labels[0][len(m.name) + 1:] if s.labels[0] != m.name else ""
            out.append((s.labels[0], MeasureSpec(s.labels[0], m.name, params=_pairs(raw, m.name))))
        elif m.kind == "param":
            raw = s.labels[0][len(m.name) + 1:] if s.labels[0] != m.name else ""
            values = tuple(atof(v) for v in raw.split(",")) if raw else ()
            if m.name == "utility" and raw and len(values) != 4:
                continue  # (trec_eval stops at the first topic: _calc_failure)
            out.append((s.labels[0], MeasureSpec(s.labels[0], m.name, values=values)))
        else:
            out.append((m.name, MeasureSpec(m.name, m.name)))
    return out


#: Gains this far apart or more make trec_eval's sort of the gains undefined (``comp_rel_gain`` in
#: ``gain_init.c`` returns their difference converted to ``int``).
_GAIN_SPAN = 2.0**31


def _pairs(raw: str, measure: str = "") -> tuple[tuple[str, float], ...]:
    """trec_eval's ``get_param_pairs``: ``name=value`` items (already checked well formed), values by ``atof``.

    A gain level (a name that is ``[+-]digits``) is read by ``atol``, which saturates: its name is
    rewritten as the level trec_eval uses.  Gains that are not finite, or 2^31 or more apart, are
    refused (status 2): trec_eval's order of them, and so its value, is undefined there
    (docs/trec-eval.md §7)."""
    if not raw:
        return ()
    from inexeval.readers.trec_numbers import atol

    out = []
    gains = []
    for item in raw.split(","):
        name, _, value = item.partition("=")
        x = atof(value)
        body = name[1:] if name[:1] in "+-" else name
        if body and body.isascii() and body.isdigit():  # (trec_eval's valid_int: a gain level)
            name = str(atol(name))
            gains.append((item, x))
        out.append((name, x))
    if gains and measure not in ("rbp", "rbp_resid"):
        xs = [x for _, x in gains] + [0.0]  # (with the default gain of level 0)
        bad = next((item for item, x in gains if x - x != 0.0), None)
        if bad is not None or max(xs) - min(xs) >= _GAIN_SPAN:
            why = f"the gain {bad!r} is not a finite number" if bad is not None else \
                "gains 2^31 or more apart (with the default gain 0 of level 0)"
            raise TrecEvalExit(f"inexeval trec-eval: {why}: trec_eval's sort of the gains is undefined there "
                               f"(docs/trec-eval.md, section 7)\ntrec_eval: Cannot initialize measure '{measure}'\n",
                               2)
    return tuple(out)


def score_ranking(ranking, selected: list[Selected], opts: Options, stand_in: np.ndarray, *, num_queries: int):
    """The classic engine on RANKING (its table's topics are the ones evaluated, in order)."""
    from inexeval.measures import classic, classic_engine

    labelled = specs_of(selected)
    evaluated = np.arange(ranking.table.size)

    def compute(specs):
        own = [s for s in specs if s.family in NEGATIVE_LEVEL] if opts.level < 0 else []
        out = classic.compute(ranking, [s for s in specs if s not in own] if own else specs,
                              version=opts.numbers_of, num_docs=opts.num_docs_in_coll, evaluated=evaluated)
        if own:
            out.update(negative_level_values(ranking, own, opts.level, opts.numbers_of))
        return out

    ev = classic_engine.evaluate(ranking, labelled, evaluated=evaluated, stand_in=stand_in, compute=compute)
    ev.num_queries = num_queries
    return ev


#: The rel format family each measure source needs, and trec_eval's complaint when it gets another.
_SOURCE_FORMATS = {
    "qrels": (("qrels",), "trec_eval.form_res_qrels: rel_info format not qrels or results format not trec_results\n"),
    "prefs": (("prefs", "qrels_prefs"), "trec_eval.form_prefs_info: prefs_info format not (prefs or qrels_prefs) "
              "or results format not trec_results\n"),
    "qrels_jg": (("qrels_jg",), "trec_eval: rel_info format not qrels_jg or results format not trec_results\n"),
}


def wrong_format(selected: list[Selected], rel_format: str) -> TrecEvalExit | None:
    """The stop (status 4, nothing printed) when a selected measure cannot use REL_FORMAT: trec_eval
    fails on the first topic, at the first such measure (:func:`wrong_format_at`)."""
    at = wrong_format_at(selected, rel_format)
    if at is None:
        return None
    m = selected[at].measure
    return TrecEvalExit(_SOURCE_FORMATS[m.source][1] + f"trec_eval: Can't calculate measure '{m.name}'\n", 4)


def wrong_format_at(selected: list[Selected], rel_format: str) -> int | None:
    """The place in SELECTED of the first measure that cannot use REL_FORMAT (None: every one can)."""
    for i, s in enumerate(selected):
        formats, _ = _SOURCE_FORMATS.get(s.measure.source, ((rel_format,), ""))
        if rel_format not in formats:
            return i
    return None


def not_found(key: bytes) -> TrecEvalExit:
    """trec_eval.c's stop for a qrels topic KEY the run lacks, without -c: one line, status 4."""
    return TrecEvalExit(f"trec_eval: result qid '{key.decode('utf-8', 'surrogateescape')}' not found in qrels\n", 4)


def drop_unjudged(ranking):
    """``-J``: RANKING without its unjudged documents, the others keeping their order."""
    from inexeval.measures.classic_base import Ranking

    keep = ranking.rel >= 0
    counts = np.bincount(ranking.topic[keep], minlength=ranking.table.size)
    return Ranking(ranking.table, np.concatenate(([0], np.cumsum(counts))).astype(np.int64), ranking.rel[keep])


# ------------------------------------------------------------------ -l below 0 ----

#: The measures whose trec_eval code, under a negative ``-l``, the classic engine does not follow:
#: they are computed here, one topic at a time, as trec_eval's C code computes them.
NEGATIVE_LEVEL = frozenset({"iprec_at_recall", "11pt_avg", "Rprec_mult", "yaap"})

_LONG_MIN = -(1 << 63)


def _c_long(v: float) -> int:
    """C's conversion of a double to ``long`` on x86-64 (toward zero; NaN and values out of range give
    LONG_MIN, what the ``cvttsd2si`` instruction returns), also glibc's ``lround`` out of range."""
    if v != v or not -9.223372036854775808e18 <= v < 9.223372036854775808e18:
        return _LONG_MIN
    return int(v)


def _c_lround(v: float) -> int:
    """glibc's ``lround``: halves away from zero."""
    if v != v or not -9.223372036854775808e18 <= v < 9.223372036854775808e18:
        return _LONG_MIN
    f = float(np.floor(abs(v)))
    r = int(f) + (1 if abs(v) - f >= 0.5 else 0)
    return -r if v < 0 else r


def _c_div(a: float, b: float) -> float:
    """A C double division (0/0 is the x86 default NaN, printed ``-nan``)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return float(np.float64(a) / np.float64(b))


def _c_log(v: float) -> float:
    """glibc's ``log``: -inf at 0, ``-nan`` below 0."""
    import math

    if v > 0:
        return math.log(v) if v != math.inf else math.inf
    return -math.inf if v == 0 else (v if v != v else -math.nan)


def negative_level_values(ranking, specs: list, level: int, version: str) -> dict[str, np.ndarray]:
    """Per-topic values of SPECS (of :data:`NEGATIVE_LEVEL`) under ``-l LEVEL`` < 0, transliterated
    from ``m_iprec_at_recall.c``, ``m_11pt_avg.c``, ``m_Rprec_mult.c`` and ``m_yaap.c``.

    Below 0 a ranked document counts as relevant when its code is at least LEVEL, and the codes of
    documents that are not judged (-1) or judged below 0 (-2) can be; ``num_rel`` still counts the
    judgements >= 0 and ``num_rel_ret`` the judged documents >= 0 ranked, so the walks of these
    measures run on counts that disagree (docs/trec-eval.md §7)."""
    from inexeval.measures.classic_trec import ELEVEN_LEVELS

    table = ranking.table
    start = ranking.start.tolist()
    rels = ranking.rel.tolist()
    num_rel = table.num_rel.tolist()
    out: dict[str, np.ndarray] = {s.name: np.zeros(table.size) for s in specs}
    for t in range(table.size):
        rr = rels[start[t]:start[t + 1]]
        R = num_rel[t]
        S = sum(1 for r in rr if r >= 0 and r >= level)  # num_rel_ret: judged (not -1, -2) and relevant
        for s in specs:
            if s.family == "iprec_at_recall":
                v = _walk_iprec(rr, level, S, R, [s.param("x", 0.0)], version)[0]
            elif s.family == "11pt_avg":
                xs = list(s.values or ELEVEN_LEVELS)
                v = _walk_iprec(rr, level, S, R, xs, version, total=True)[0]
            elif s.family == "Rprec_mult":
                v = _walk_rprec_mult(rr, level, S, R, s.param("x", 1.0))
            else:  # yaap
                rel_so_far, total = 0, 0.0
                for i, r in enumerate(rr):
                    if r >= level:
                        rel_so_far += 1
                        total += rel_so_far / (i + 1)
                v = _c_log(_c_div(1.0 + total, 1.0 + R - total))
            out[s.name][t] = v
    return out


def _walk_iprec(rr: list[int], level: int, S: int, R: int, xs: list[float], version: str,
                total: bool = False) -> list[float]:
    """``m_iprec_at_recall.c`` (the value of each of XS), or with TOTAL ``m_11pt_avg.c`` (their sum
    divided by their number)."""
    if version == "10.0":
        cuts = [_c_lround(x * R) for x in xs]
    else:
        cuts = [_c_long(x * R + 0.9) for x in xs]
    values = [0.0] * len(xs)
    acc = 0.0
    cur = len(xs) - 1
    while cur >= 0 and cuts[cur] > S:
        cur -= 1
    n = len(rr)
    int_precis = precis = _c_div(S, n)
    rel_so_far = S
    i = n
    while i > 0 and rel_so_far > 0:
        precis = rel_so_far / i
        if int_precis < precis:
            int_precis = precis
        if rr[i - 1] >= level:
            while cur >= 0 and rel_so_far == cuts[cur]:
                values[cur] = int_precis
                acc += int_precis
                cur -= 1
            rel_so_far -= 1
        i -= 1
    while cur >= 0:
        values[cur] = int_precis
        acc += int_precis
        cur -= 1
    return [acc / len(xs)] if total else values


def _walk_rprec_mult(rr: list[int], level: int, S: int, R: int, x: float) -> float:
    """``m_Rprec_mult.c`` for one cut-off."""
    c = _c_long(x * R + 0.9)
    n = len(rr)
    if c > n:
        return _c_div(S, c)
    rel_so_far = S
    i = n
    while i > 0 and rel_so_far > 0:
        if i == c:
            return rel_so_far / i
        if rr[i - 1] >= level:
            rel_so_far -= 1
        i -= 1
    return 0.0
