"""The docno join of the classic measures (docs/measures.md §8): a TREC run ordered as trec_eval
orders it, and each result's qrels value looked up, for every topic at once.

- results are ordered by score descending, ties by docno descending (byte
  order); the rank column is ignored.  A repeated (topic, docno) keeps its
  first line in the file (trec_eval refuses such a run), counted in one
  warning.  ``max_results`` (trec_eval ``-M``) keeps the first results of
  each topic *after* ordering; None keeps all.
- topics absent from the qrels are ignored (one warning per run).
- the run id is the tag column; if the tags disagree, the file name (with
  a warning).

:func:`topic_table` condenses the qrels once; :func:`rank_run` joins one run
to it; :class:`RankedRun` is what the classic measures score.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from inexeval.measures.classic_base import BOGUS_DOCNO, JUDGED_NEGATIVE, NOT_JUDGED, Ranking, TopicTable
from inexeval.readers.bytekeys import (
    GOLDEN_MIX, Packing, alphabet, block_starts, byte_matrix, dense_rank, pack, pair_codes, short_keys, used_width,
)
from inexeval.readers.trec import Qrels, TrecRun, read_run
from inexeval.records import field, record

__all__ = ["topic_table", "rank_run", "join_ordered", "join_sorted", "RankedRun", "read_ranked_run"]


def _decode(b: bytes) -> str:
    return b.decode("utf-8", "replace")


def topic_table(qrels: Qrels, rel_level: int = 1) -> TopicTable:
    """Per-topic facts of QRELS (rows already sorted by qid, docno)."""
    keys, first = _blocks(qrels.qid)
    qstart = np.append(first, qrels.qid.size).astype(np.int64)
    topic = np.repeat(np.arange(keys.size), np.diff(qstart))
    rel = qrels.rel
    # trec_eval's num_rel counts the judgements >= 0 at or above the level (form_res_rels.c)
    num_rel = np.bincount(topic[rel >= max(rel_level, 0)], minlength=keys.size).astype(np.int64)
    num_nonrel = np.bincount(topic[(rel >= 0) & (rel < rel_level)], minlength=keys.size).astype(np.int64)
    if qrels.vocab is not None:  # the reader sorted the docnos already
        vocab, code = qrels.vocab, qrels.code
    else:
        vocab, code = np.unique(qrels.docno, return_inverse=True)
    qkey = topic * max(vocab.size, 1) + code.astype(np.int64).ravel()  # sorted: rows are by (qid, docno)
    table = TopicTable(keys, [_decode(k) for k in keys], qstart, rel, qrels.docno, rel_level, num_rel, num_nonrel,
                       vocab, qkey)
    if qrels.vocab is not None and qrels.vocab_key is not None:
        _keep_vocab_keys(table, qrels.vocab_key, qrels.packing)
    return table


def _blocks(qid: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``np.unique(qid, return_index=True)`` for ids already sorted: the first row of every block of
    equal ids (a check of the order falls back to the sort)."""
    first = block_starts(qid)
    keys = qid[first]
    if keys.size > 1 and not (keys[1:] > keys[:-1]).all():
        return np.unique(qid, return_index=True)
    return keys, first


# --- docnos as integers ------------------------------------------------------------------------
#
# The run's docnos and the qrels vocabulary get uint64 keys that order exactly as the byte strings
# (strcmp) and are equal exactly when the strings are (inexeval.readers.bytekeys): after that, every
# sort and look-up is numeric.  Otherwise the key is the rank of the docno among the distinct docnos
# of qrels and run (one string sort).


def docno_keys(table: TopicTable, docno: np.ndarray, room: int = 64) -> tuple[np.ndarray, np.ndarray]:
    """uint64 keys of ``table.vocab`` (increasing) and of DOCNO, same order and equality as the bytes:
    the bytes themselves up to 8, else packed with an alphabet guessed from samples of both and
    widened to all their bytes when a packing finds one missing.  ROOM: the bits the caller would like
    the keys to fit in (it puts the topic above them): docnos of up to 8 bytes whose bytes take more
    are packed when that makes them fit (eight digits: 32 bits instead of 62)."""
    if table.vocab.dtype == object or docno.dtype == object:  # a very long docno (readers/trec.py)
        return _union_ranks(table.vocab, docno)
    c = table.cache
    if "vocab_bytes" not in c:
        vb = byte_matrix(table.vocab)
        c["vocab_bytes"], c["vocab_width"], c["alphabet"] = vb, used_width(vb), alphabet(vb, sample=True)
    vb = c["vocab_bytes"]
    rb = byte_matrix(docno)
    width = max(c["vocab_width"], used_width(rb), 1)
    if width <= 8 and 8 * width <= room:
        return _short_keys(c, vb, rb, width)
    packed = _packed_keys(c, vb, rb, width + width % 2, 64 if width > 8 else room)
    if packed is not None:
        return packed
    if width <= 8:  # (packed, they would not fit either)
        return _short_keys(c, vb, rb, width)
    return _union_ranks(table.vocab, docno)


def _short_keys(c: dict, vb: np.ndarray, rb: np.ndarray, width: int) -> tuple[np.ndarray, np.ndarray]:
    """:func:`docno_keys` of docnos of at most WIDTH (≤ 8) bytes: the bytes themselves (C: the table's
    cache, VB and RB: the vocabulary's and the run's byte matrices)."""
    if c.get("vocab_key_id") != "short":
        c["vocab_key"], c["vocab_key_id"] = short_keys(vb, width), "short"
    return c["vocab_key"], short_keys(rb, width)


def _packed_keys(c: dict, vb: np.ndarray, rb: np.ndarray, width: int, limit: int
                 ) -> tuple[np.ndarray, np.ndarray] | None:
    """:func:`docno_keys` packed with the alphabet of the cache C (widened to every byte of a matrix
    found to hold one more; VB, RB: the byte matrices, WIDTH even), or None when the keys would take
    more than LIMIT bits."""
    letters = c["alphabet"] | alphabet(rb, sample=True)
    for _ in range(3):  # (each retry adds every byte of the matrix found incomplete)
        pairs, bits = pair_codes(letters)
        if width * bits > limit:
            return None
        ck = (letters.tobytes(), width)
        if c.get("vocab_key_id") != ck:
            vkey, complete = pack(vb, pairs, bits, width)
            if not complete:
                letters = c["alphabet"] = letters | alphabet(vb)
                continue
            c["vocab_key"], c["vocab_key_id"], c["alphabet"] = vkey, ck, letters
        dkey, complete = pack(rb, pairs, bits, width)
        if complete:
            return c["vocab_key"], dkey
        letters = c["alphabet"] = letters | alphabet(rb)  # the run has other bytes: kept for the next run
    return None


def _keep_vocab_keys(table: TopicTable, keys: np.ndarray, how: Packing) -> None:
    """Keep the vocabulary's keys made while the qrels were sorted (KEYS, made as HOW says) where
    :func:`docno_keys` looks for them: it packs the vocabulary again only for a run that needs another
    packing (a byte the qrels lack, longer docnos)."""
    c = table.cache
    vb = byte_matrix(table.vocab)
    c["vocab_bytes"], c["vocab_width"] = vb, how.used
    c["alphabet"] = how.letters if how.letters is not None else alphabet(vb, sample=True)
    c["vocab_key"] = keys
    c["vocab_key_id"] = "short" if how.letters is None else (how.letters.tobytes(), how.width)


def _union_ranks(vocab: np.ndarray, docno: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The general case of ``docno_keys``: ranks in the union of VOCAB and DOCNO (byte order)."""
    both = np.concatenate(_same_kind(vocab, docno))
    _, inv = np.unique(both, return_inverse=True)
    inv = inv.ravel().astype(np.uint64)
    return inv[: vocab.size], inv[vocab.size :]


def _same_kind(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A and B as object arrays of bytes if either is one (``S`` and object arrays do not mix), else as they are."""
    if (a.dtype == object) != (b.dtype == object):
        a, b = a.astype(object), b.astype(object)
    return a, b


# --- trec_eval order ---------------------------------------------------------------------------


def _row_topics(qid: np.ndarray, table: TopicTable) -> tuple[np.ndarray, np.ndarray]:
    """Table topic index of every row (-1: not in the qrels), and the distinct unknown ids.

    Runs list a topic's results together, so ids are compared once per block
    of equal consecutive ids, not once per row.
    """
    n = qid.size
    bstart = block_starts(qid)
    uq, binv = np.unique(qid[bstart], return_inverse=True)
    if table.size:
        keys, uq_ = _same_kind(table.keys, uq)
        pos = np.minimum(np.searchsorted(keys, uq_), table.size - 1)
        known = keys[pos] == uq_
    else:
        pos, known = np.zeros(uq.size, dtype=np.int64), np.zeros(uq.size, dtype=bool)
    btopic = np.where(known, pos, -1)[binv.ravel()]
    return np.repeat(btopic, np.diff(np.append(bstart, n))), uq[~known]


def rank_run(
    run: TrecRun, table: TopicTable, *, max_results: int | None = None, warn: Callable[[str], None] | None = None,
    single_precision: bool = False,
) -> tuple[Ranking, np.ndarray]:
    """Order RUN as trec_eval does and look up relevance; also which table topics the run has.

    Returns the :class:`Ranking` over every topic of TABLE (topics the run
    lacks are empty) and a boolean mask of the topics present in the run.

    Steps, all on integer keys (see ``docno_keys``): (1) sort the rows by
    (topic, docno); equal neighbours are duplicates, of which the first
    line is kept; (2) in that order the (topic, docno) pairs increase, so the
    qrels are searched with sorted needles; (3) the final order (topic
    ascending, score descending, docno descending) is one sort of the key
    ``(topic·S + S−1−score rank)·n + n−1−p``, p being the row's place in
    step 1 (docno order within its topic), S the number of distinct scores;
    a run written in that order already (each topic's results together, by
    score descending, no duplicate) is taken as written (:func:`as_written`).
    """
    ranking, present, unknown_ids, dropped = ranked(run, table, max_results=max_results,
                                                    single_precision=single_precision)
    if warn is not None:
        for message in ranking_warnings(run.source, unknown_ids, dropped):
            warn(message)
    return ranking, present


@record(frozen=True)
class Dropped:
    """The results dropped as a (topic, docno) seen before in the run: how many, and the first of them
    in the file (its line, topic and docno)."""

    count: int = 0
    line: int | None = None
    topic: bytes = b""
    docno: bytes = b""

    def __add__(self, other: Dropped) -> Dropped:
        """Both pieces' duplicates: the counts added, the first line of either."""
        first = self if other.line is None or (self.line is not None and self.line <= other.line) else other
        return Dropped(self.count + other.count, first.line, first.topic, first.docno)


def ranking_warnings(source: str, unknown_ids: list[bytes] | np.ndarray, dropped: Dropped) -> list[str]:
    """What :func:`rank_run` says: the topics not in the qrels (sorted ids), the duplicates dropped."""
    out = []
    if len(unknown_ids):
        unknown = [_decode(q) for q in unknown_ids]
        out.append(f"{source}: {len(unknown)} topic(s) not in the qrels ignored: {', '.join(unknown[:10])}"
                   + (" ..." if len(unknown) > 10 else ""))
    if dropped.count:
        out.append(f"{source}: {dropped.count} duplicate result(s) dropped (first occurrence kept); first at line "
                   f"{dropped.line}: topic {_decode(dropped.topic)}, document {_decode(dropped.docno)}")
    return out


def ranked(run: TrecRun, table: TopicTable, *, max_results: int | None = None,
           single_precision: bool = False) -> tuple[Ranking, np.ndarray, np.ndarray, Dropped]:
    """:func:`rank_run`'s ranking and topics present, and what it would say: the run's topic ids the
    qrels lack (sorted) and the duplicate results dropped (:class:`Dropped`)."""
    if not run.qid.size:  # a run that retrieved nothing: every topic empty
        return (Ranking(table, np.zeros(table.size + 1, dtype=np.int64), np.empty(0, dtype=np.int64)),
                np.zeros(table.size, dtype=bool), np.empty(0, dtype="S1"), Dropped())
    tidx, unknown_ids = _row_topics(run.qid, table)
    docno, score = run.docno, run.score
    keep = None
    if unknown_ids.size:
        keep = np.flatnonzero(tidx >= 0)
        tidx, docno, score = tidx[keep], docno[keep], score[keep]
    n = tidx.size
    vkey, dkey = docno_keys(table, docno, 64 - max(int(table.size).bit_length(), 1))
    V = vkey.size
    db = max(int(max(dkey.max() if n else 0, vkey[-1] if V else 0)).bit_length(), 1)
    ck = (tidx.astype(np.uint64) << np.uint64(db)) | dkey if max(int(table.size).bit_length(), 1) + db <= 64 else None
    score = score + 0.0  # -0.0 ties with 0.0, as in trec_eval's comparison
    if single_precision:  # trec_eval 9.0.8 keeps scores as C floats (TREC_EVAL_VERSION 9.0.8)
        score = score.astype(np.float32).astype(np.float64)
    # trec_eval order: topic ascending, score descending, docno descending.  A run written so (each
    # topic's results together, by score descending: most runs) is taken as written when a hash finds
    # no (topic, docno) twice: its rows are looked up as they stand, without a sort
    written = as_written(tidx, score, dkey)
    if written is not None and not maybe_twice(tidx, dkey):
        t_o, s_o = tidx[written], score[written]
        keys = (None, ck[written]) if ck is not None else (dkey[written], None)  # (combined, or in two steps)
        rel = _relevance(table, vkey, db, t_o, *keys)
        dropped = Dropped()
    else:
        t_o, rel, s_o, first = _sorted_ranking(table, vkey, db, tidx, dkey, ck, score, written)
        dropped = Dropped()
        if first is not None:  # (count, row): the row in the file's order
            count, row = first
            row = int(row if keep is None else keep[row])
            dropped = Dropped(count, int(run.line[row]), bytes(run.qid[row]), bytes(run.docno[row]))
    counts = np.bincount(t_o, minlength=table.size)
    present = counts > 0
    if max_results is not None:
        start0 = np.concatenate(([0], np.cumsum(counts)))
        rank = np.arange(t_o.size) - np.repeat(start0[:-1], counts) + 1
        within = rank <= max_results
        rel, t_o, s_o = rel[within], t_o[within], s_o[within]
        counts = np.bincount(t_o, minlength=table.size)
    start = np.concatenate(([0], np.cumsum(counts))).astype(np.int64)
    tied = np.zeros(t_o.size, dtype=bool)  # the same topic and score as the row before
    tied[1:] = (t_o[1:] == t_o[:-1]) & (s_o[1:] == s_o[:-1])
    return Ranking(table, start, rel, tied), present, unknown_ids, dropped


def _sorted_ranking(table: TopicTable, vkey: np.ndarray, db: int, tidx: np.ndarray, dkey: np.ndarray,
                    ck: np.ndarray | None, score: np.ndarray, written: np.ndarray | None
                    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, tuple[int, int] | None]:
    """:func:`ranked`'s rows in trec_eval's order (their topics, relevance codes and score ranks or
    scores) and the duplicates dropped (their number and the first dropped row, or None), for a run
    that must be sorted or may hold a docno twice in a topic: the rows sorted by (topic, docno), each
    pair's first line kept, then put in trec_eval's order (WRITTEN: the order :func:`as_written`
    found, if any)."""
    n = tidx.size
    # (1) order by (topic, docno): one sort of the key topic·2^b + docno key CK when that fits in 64
    # bits; else docno first, then a stable sort on the topic (radix for int16)
    if ck is not None:
        o = np.argsort(ck)
        ck_s = ck[o]
        same = ck_s[1:] == ck_s[:-1]
    else:
        o = np.argsort(dkey)
        if table.size > 1:
            small = np.int16 if table.size <= np.iinfo(np.int16).max else np.int32
            o = o[np.argsort(tidx[o].astype(small), kind="stable")]
        t_s, d_s = tidx[o], dkey[o]
        same = (t_s[1:] == t_s[:-1]) & (d_s[1:] == d_s[:-1])
    dropped = int(same.sum())
    first = None
    if dropped:
        gstart = np.flatnonzero(np.concatenate(([True], ~same)))
        kept = np.minimum.reduceat(o, gstart)  # the first line of every (topic, docno)
        gone = np.ones(n, dtype=bool)
        gone[kept] = False
        first = (dropped, int(np.argmax(gone)))  # the first dropped row, in the file's order
        o = kept
        n = o.size
        if ck is not None:
            ck_s = ck[o]
    t_s = tidx[o]
    d_s = dkey[o] if ck is None else None  # (the combined keys serve otherwise)
    score_s = score[o]

    # (2) relevance: the (topic, docno) keys among the qrels' (both sorted)
    rel = _relevance(table, vkey, db, t_s, d_s, ck_s if ck is not None else None)

    # (3) trec_eval order: as written (the rows were all kept), else one sort
    if written is not None and first is None:
        place = np.empty(n, dtype=np.int64)  # each row's place in the (topic, docno) order
        place[o] = np.arange(n)
        fin = place[written]
        return t_s[fin], rel[fin], score_s[fin], first  # (equal scores: equal ranks)
    np.negative(score_s, out=score_s)
    srank, S = dense_rank(score_s)  # rank of the score, descending
    if n and table.size * S * n < 2**62:
        key = t_s * (S * n)  # topic·S·n + srank·n + n−1−p: keys distinct, no tie to break
        np.multiply(srank, n, out=srank)
        key += srank
        key += n - 1
        key -= np.arange(n, dtype=np.int64)
        fin = np.argsort(key)
    else:
        fin = np.lexsort((-np.arange(n), srank, t_s))
    return t_s[fin], rel[fin], srank[fin], first


def _relevance(table: TopicTable, vkey: np.ndarray, db: int, t: np.ndarray, dkey: np.ndarray | None,
               ck: np.ndarray | None, among_all: bool = False) -> np.ndarray:
    """The relevance code of every (topic T, docno key DKEY) row: among the qrels keys with the combined
    keys CK (``topic·2^db + docno key``, when they fit in 64 bits: :func:`_among_keys`), or in two
    steps: vocabulary position, then (topic, position) among the qrels keys.  Faster with sorted rows,
    right with any.  With CK, only the qrels keys from the least to the greatest of CK are looked at (a
    piece of a run holds a few of the table's topics).  Only the rows :func:`_maybe_judged` lets
    through are searched, unless AMONG_ALL (they are those)."""
    n = t.size
    V = vkey.size
    if not (V and n):
        return np.full(n, NOT_JUDGED, dtype=np.int64)
    judged = _judged(table)
    if ck is not None:
        qck = _qrels_keys(table, vkey, db)
        lo = int(np.searchsorted(qck, ck.min(), side="left"))
        hi = int(np.searchsorted(qck, ck.max(), side="right"))
        if hi - lo < qck.size:
            qck, judged = qck[lo:hi], judged[lo:hi]
        return _among_keys(judged, qck, ck, among_all)
    rows = None if among_all else _maybe_judged(vkey, dkey)
    if rows is not None:  # the other rows are judged nowhere
        rel = np.full(n, NOT_JUDGED, dtype=np.int64)
        if rows.size:
            rel[rows] = _relevance(table, vkey, db, t[rows], dkey[rows], None, among_all=True)
        return rel
    vpos = np.searchsorted(vkey, dkey)
    hit = vkey[np.minimum(vpos, V - 1)] == dkey
    rkey = t * V + vpos
    p = np.minimum(np.searchsorted(table.qkey, rkey), table.qkey.size - 1)
    hit &= table.qkey[p] == rkey
    return np.where(hit, judged[p], NOT_JUDGED)


def _among_keys(judged: np.ndarray, qck: np.ndarray, ck: np.ndarray, among_all: bool = False) -> np.ndarray:
    """The relevance code of every row of combined key CK among the qrels keys QCK (increasing; JUDGED:
    their codes): the rows :func:`_maybe_judged` lets through (every row, if AMONG_ALL) searched in
    QCK, or, for many rows in key order, QCK searched among them (:func:`_judgements_among`)."""
    n = ck.size
    if not qck.size:
        return np.full(n, NOT_JUDGED, dtype=np.int64)
    rows = None if among_all else _maybe_judged(qck, ck)
    if rows is not None:  # the other rows are judged nowhere
        rel = np.full(n, NOT_JUDGED, dtype=np.int64)
        if rows.size:
            rel[rows] = _among_keys(judged, qck, ck[rows], among_all=True)
        return rel
    if 16 * qck.size < n and n > 1 and bool((ck[1:] >= ck[:-1]).all()):
        return _judgements_among(judged, qck, ck)  # few judgements for many rows, in key order
    p = np.searchsorted(qck, ck)
    np.minimum(p, qck.size - 1, out=p)
    return np.where(qck[p] == ck, judged[p], NOT_JUDGED)


def as_written(tr: np.ndarray, score: np.ndarray, codes: np.ndarray, ascending: bool = False) -> np.ndarray | None:
    """trec_eval's order of a run's rows (topic, then score descending, then docno descending;
    ASCENDING: ascending, as its preference code has it) with little sorting, when the file lists
    every topic's results together and by score descending (no NaN), as a ranked run is usually
    written: the rows of equal scores put in docno order (they are few), the topics' blocks in key
    order (TR: each row's topic index, CODES: its docno's order code).  None otherwise (a topic in
    two blocks, a score above the one before it): the caller sorts the whole run (the trec-eval
    drop-in's ``ordered_rows``, :func:`ranked`)."""
    n = tr.size
    if n < 2:
        return np.arange(n)
    same = tr[1:] == tr[:-1]
    with np.errstate(invalid="ignore"):
        if np.isnan(score).any() or ((score[1:] > score[:-1]) & same).any():
            return None
        tied = same & (score[1:] == score[:-1])  # (-0.0 == 0.0: a tie, as trec_eval has it)
    within = np.arange(n)
    tie = np.flatnonzero(tied)
    if tie.size:
        a, b = codes[tie], codes[tie + 1]
        if ((a > b) if ascending else (a < b)).any():  # (equal: one docno twice; its order does not matter)
            member = np.zeros(n, dtype=bool)
            member[tie] = member[tie + 1] = True
            idx = np.flatnonzero(member)
            group = np.cumsum(np.concatenate(([True], ~((idx[1:] == idx[:-1] + 1) & tied[idx[:-1]]))))
            key = codes[idx] if ascending else ~codes[idx]  # (~ reverses the codes' order)
            within[idx] = idx[np.lexsort((key, group))]
    starts = block_starts(tr)
    first = tr[starts]
    if first.size < 2 or (first[1:] > first[:-1]).all():
        return within
    by = np.argsort(first, kind="stable")
    if (first[by][1:] == first[by][:-1]).any():  # a topic in two blocks
        return None
    lengths = np.diff(np.append(starts, n))[by]
    # each block's rows, the blocks in key order: a run of aranges
    return within[np.repeat(starts[by] - (np.cumsum(lengths) - lengths), lengths) + np.arange(n)]


#: odd 64-bit constants of the hash :func:`maybe_twice` mixes topic and docno with
_MIX_DOC, _MIX_TOPIC = GOLDEN_MIX, np.uint64(0xC2B2AE3D27D4EB4F)


def maybe_twice(ts: np.ndarray, codes: np.ndarray) -> bool:
    """Whether some docno may stand twice in one topic (TS: the rows' topics, CODES: their docnos' order
    codes): False only when no two rows share a 64-bit hash of (topic, docno), which equal pairs always
    share; True sends the caller to its exact check (the trec-eval drop-in's ``ordered_rows``, :func:`ranked`)."""
    if ts.size < 2:
        return False
    h = codes.astype(np.uint64) * _MIX_DOC
    h ^= ts.astype(np.uint64) * _MIX_TOPIC
    h.sort()
    return bool((h[1:] == h[:-1]).any())


def join_ordered(tidx: np.ndarray, docno: np.ndarray, table: TopicTable,
                 keys: tuple[np.ndarray, np.ndarray] | None = None) -> Ranking:
    """The :class:`Ranking` of rows already in trec_eval's order (TIDX, their TABLE topics, ascending;
    within a topic, rank order) and without a repeated (topic, docno): :func:`rank_run`'s look-up
    without its sorts (the trec-eval drop-in orders and checks a run itself).  KEYS: the vocabulary's
    and DOCNO's keys (:func:`docno_keys`) if the caller has them."""
    n = tidx.size
    if n:
        vkey, dkey = docno_keys(table, docno) if keys is None else keys
        db = max(int(max(dkey.max(), vkey[-1] if vkey.size else 0)).bit_length(), 1)
        if max(int(table.size).bit_length(), 1) + db <= 64:
            # searched in (topic, docno) order: a binary search whose needles increase stays in cache
            ck = (tidx.astype(np.uint64) << np.uint64(db)) | dkey
            o = np.argsort(ck)
            return join_sorted(tidx, table, vkey, db, o, ck[o])
        rel = _relevance(table, vkey, db, tidx, dkey, None)
    else:
        rel = np.empty(0, dtype=np.int64)
    counts = np.bincount(tidx, minlength=table.size)
    return Ranking(table, np.concatenate(([0], np.cumsum(counts))).astype(np.int64), rel)


def join_sorted(tidx: np.ndarray, table: TopicTable, vkey: np.ndarray, bits: int, at: np.ndarray,
                key: np.ndarray) -> Ranking:
    """:func:`join_ordered` of rows whose order by (topic, docno) the caller has: AT, their places
    among the rows (TIDX: their topics, in rank order), and KEY, ``topic << BITS | docno key`` of
    each (increasing; VKEY: the vocabulary's docno keys, :func:`docno_keys`)."""
    rel = np.empty(tidx.size, dtype=np.int64)
    if tidx.size:
        rel[at] = _relevance(table, vkey, bits, tidx[at], None, key)
    counts = np.bincount(tidx, minlength=table.size)
    return Ranking(table, np.concatenate(([0], np.cumsum(counts))).astype(np.int64), rel)


def with_stand_ins(ranking: Ranking, topics: np.ndarray, codes: np.ndarray | None = None) -> Ranking:
    """RANKING with trec_eval's ``-c`` stand-in ranking for each of TOPICS (empty in it): one
    document, ``ceci_nest_pas_un_docno``, judged as the qrels judge it (not at all, as a rule).
    CODES: those documents' relevance codes (:func:`stand_in_codes`) if known."""
    topics = np.asarray(topics, dtype=np.int64)
    if not topics.size:
        return ranking
    table = ranking.table
    bogus = stand_in_codes(table, topics) if codes is None else codes
    counts = ranking.length.copy()
    counts[topics] += 1
    start = np.concatenate(([0], np.cumsum(counts))).astype(np.int64)
    rel = np.empty(int(start[-1]), dtype=np.int64)
    at = np.zeros(rel.size, dtype=bool)
    at[start[topics]] = True  # (each of TOPICS was empty: its one row is its first)
    rel[at] = bogus
    rel[~at] = ranking.rel
    return Ranking(table, start, rel)


def stand_in_codes(table: TopicTable, topics: np.ndarray) -> np.ndarray:
    """The relevance code of trec_eval's stand-in document in each of TOPICS (table indices, ascending)."""
    return join_ordered(topics, np.full(topics.size, BOGUS_DOCNO), table).rel


def _judged(table: TopicTable) -> np.ndarray:
    """Per qrels row, the relevance code a run's result gets: rel, or JUDGED_NEGATIVE for a negative rel."""
    got = table.cache.get("judged")
    if got is None:
        got = table.cache["judged"] = np.where(table.qrel >= 0, table.qrel, JUDGED_NEGATIVE)
    return got


def _maybe_judged(known: np.ndarray, keys: np.ndarray) -> np.ndarray | None:
    """The positions of KEYS that may be among the (fewer) KNOWN keys, increasing: a bit table of the
    KNOWN keys' hashes, 64 slots a key, lets through every key of KNOWN and about one other key in 64;
    None when KNOWN is not small beside KEYS (a search of every key costs less then).  The binary
    searches of :func:`_relevance` cost about 40 ns a row even in a small vocabulary, the table 3 ns."""
    if known.size == 0 or 32 * known.size > keys.size:
        return None
    bits = max(10, (64 * known.size - 1).bit_length())
    shift = np.uint64(64 - bits)
    table = np.zeros(1 << bits, dtype=bool)
    table[(known * GOLDEN_MIX) >> shift] = True  # (bytekeys.GOLDEN_MIX: Fibonacci hashing)
    return np.flatnonzero(table[(keys * GOLDEN_MIX) >> shift])


def _judgements_among(judged: np.ndarray, qck: np.ndarray, ck: np.ndarray) -> np.ndarray:
    """What :func:`_among_keys` gives the rows of keys CK (increasing), found the other way round: each
    qrels key QCK (JUDGED: their codes; the first row of a key judged twice, as there) searched among CK."""
    first = np.ones(qck.size, dtype=bool)
    first[1:] = qck[1:] != qck[:-1]
    keys = qck[first]
    lo = np.searchsorted(ck, keys, "left")
    n = np.searchsorted(ck, keys, "right") - lo  # the rows of each key (more than one: a docno ranked twice)
    hit = np.flatnonzero(n)
    n = n[hit]
    rows = np.repeat(lo[hit] - (np.cumsum(n) - n), n) + np.arange(int(n.sum()))
    out = np.full(ck.size, NOT_JUDGED, dtype=np.int64)
    out[rows] = np.repeat(judged[first][hit], n)
    return out


def _qrels_keys(table: TopicTable, vkey: np.ndarray, db: int) -> np.ndarray:
    """``topic·2^db + docno key`` of every qrels row (increasing, as the rows are sorted by topic and
    docno); cached for the table's own vocabulary keys."""
    c = table.cache
    if c.get("qrels_keys_of") is vkey and c.get("qrels_keys_bits") == db:
        return c["qrels_keys"]
    V = max(vkey.size, 1)
    topic = table.qkey // V
    keys = (topic.astype(np.uint64) << np.uint64(db)) | vkey[table.qkey - topic * V]
    if c.get("vocab_key") is vkey:
        c["qrels_keys_of"], c["qrels_keys_bits"], c["qrels_keys"] = vkey, db, keys
    return keys


def run_id_of(run: TrecRun, say: Callable[[str], None]) -> str:
    """The run id evaluation uses: the tag column's one value, else the file name (said; an empty
    run, which has no tag, gets the INEX fallback, the file name without its suffixes)."""
    if len(run.tags) == 1:
        return run.tags[0]
    if not run.tags:
        from inexeval.readers.runnames import run_id_from_name  # (the trec-eval drop-in never calls this)

        return run_id_from_name(run.source)
    from pathlib import Path  # (here: the trec-eval drop-in imports this module and never calls it)

    name = Path(run.source).name
    say(f"{run.source}: the tag column holds {len(run.tags)} different run ids; using the file name {name!r}")
    return name


@record
class RankedRun:
    """A TREC run joined to the qrels: the :class:`Ranking` over every qrels topic, and the
    topics the run has (``topics``: names, table order), as the evaluator's run interface wants."""

    run_id: str
    source: str
    ranking: Ranking
    topics: dict[str, None]
    warnings: list[str] = field(default_factory=list)
    task: str | None = None
    run_id_line: int | None = None  # the first line with the run id (None: from the file name)


def read_ranked_run(path, table: TopicTable, *, max_results: int | None = None,
                    single_precision: bool = False) -> RankedRun:
    """Read a TREC run file (docs/formats.md §8), whole, and join it to TABLE (:func:`rank_run`); a large
    file is read in pieces by :func:`inexeval.measures.classic_pieces.read_ranked_file`."""
    from inexeval.readers.runnames import empty_run_warning  # (the trec-eval drop-in never calls this)

    run = read_run(path)
    warnings: list[str] = [] if run.line.size else [empty_run_warning(run.source)]
    ranking, present = rank_run(run, table, max_results=max_results, warn=warnings.append,
                                single_precision=single_precision)
    run_id = run_id_of(run, warnings.append)
    topics = dict.fromkeys(table.names[t] for t in np.flatnonzero(present).tolist())
    line = int(run.line[0]) if len(run.tags) == 1 and run.line.size else None
    return RankedRun(run_id, run.source, ranking, topics, warnings, run_id_line=line)


