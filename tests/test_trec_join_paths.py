"""The relevance look-up of a run's rows (inexeval.measures.classic_join._relevance) by either path:
each row searched among the judgements, or, for few judgements and many rows in key order, each
judgement searched among the rows (_judgements_among); and only the judgements of the rows' key range
looked at (a piece of a run: a few of the table's topics).  All must give every row the code of the
first qrels row with its (topic, docno) key, -1 when none, the negative judgements -2, also for a
key the run ranks twice and one the qrels judge twice; checked against a dictionary, by brute force."""

from __future__ import annotations

import numpy as np

from inexeval.measures.classic_base import JUDGED_NEGATIVE, NOT_JUDGED, TopicTable
from inexeval.measures.classic_join import _judged, _judgements_among, _maybe_judged, _relevance


def _table(rng, topics: int, vocab: int, judged: int) -> TopicTable:
    t = np.sort(rng.integers(0, topics, judged))
    d = rng.integers(0, vocab, judged)
    o = np.lexsort((d, t))
    t, d = t[o], d[o]
    qrel = rng.choice([-2, -1, 0, 1, 2, 3], judged)
    qstart = np.searchsorted(t, np.arange(topics + 1)).astype(np.int64)
    V = vocab
    return TopicTable(np.arange(topics).astype("S8"), [str(i) for i in range(topics)], qstart, qrel,
                      np.array([b"d%d" % x for x in d]), 1, np.zeros(topics, np.int64), np.zeros(topics, np.int64),
                      np.array([b"v"] * V), (t * V + d).astype(np.int64))


def _qrels_keys(table: TopicTable, vocab: int):
    """The bits of a docno key, the vocabulary's keys (0 … VOCAB−1), the qrels' combined keys
    (topic·2^db + docno key) and, by brute force, the code of each key's first judgement."""
    db = max(vocab.bit_length(), 1)
    vkey = np.arange(vocab, dtype=np.uint64)
    qtopic = table.qkey // vocab
    qck = (qtopic.astype(np.uint64) << np.uint64(db)) | vkey[table.qkey - qtopic * vocab]
    first: dict[int, int] = {}
    for key, r in zip(qck.tolist(), table.qrel.tolist()):
        first.setdefault(key, r if r >= 0 else JUDGED_NEGATIVE)
    return db, vkey, qck, first


def test_both_paths_give_the_first_judgement_of_every_key():
    rng = np.random.default_rng(11)
    for case in range(400):
        topics, vocab = int(rng.integers(1, 6)), int(rng.integers(1, 40))
        table = _table(rng, topics, vocab, int(rng.integers(1, 25)))
        db, vkey, qck, first = _qrels_keys(table, vocab)
        n = int(rng.integers(0, 2000 if case % 2 else 30))
        t = rng.integers(0, topics, n)
        d = rng.integers(0, vocab, n)
        ck = np.sort((t.astype(np.uint64) << np.uint64(db)) | d.astype(np.uint64))  # (repeats: ranked twice)
        ts = (ck >> np.uint64(db)).astype(np.int64)
        want = np.array([first.get(k, NOT_JUDGED) for k in ck.tolist()], dtype=np.int64)
        assert np.array_equal(_relevance(table, vkey, db, ts, None, ck), want)
        assert np.array_equal(_judgements_among(_judged(table), qck, ck), want)
        shuffled = rng.permutation(n)  # (out of key order: the rows are searched among the judgements)
        assert np.array_equal(_relevance(table, vkey, db, ts[shuffled], None, ck[shuffled]), want[shuffled])


def test_the_hash_filter_lets_every_known_key_through():
    """_maybe_judged: every position whose key is among the known ones is kept (no false negatives),
    in increasing order, on keys of every shape: small integers, keys alike in their low or high
    bytes, docnos packed as bytes, all of 64 bits; and a key kept that is not known is rare."""
    rng = np.random.default_rng(5)
    shapes = [
        lambda n: rng.integers(0, 50, n).astype(np.uint64),
        lambda n: rng.integers(0, 2**63, n).astype(np.uint64) << np.uint64(1),
        lambda n: (rng.integers(0, 1000, n).astype(np.uint64) << np.uint64(40)),
        lambda n: np.array([int.from_bytes(b"%07d" % x, "big") for x in rng.integers(0, 10**7, n)], dtype=np.uint64),
        lambda n: rng.integers(0, 2**64, n, dtype=np.uint64),
    ]
    kept_others = total_others = 0
    for make in shapes:
        for _ in range(40):
            known = np.unique(make(int(rng.integers(1, 60))))
            keys = np.concatenate((make(int(rng.integers(0, 5000))), rng.choice(known, int(rng.integers(0, 50)))))
            rng.shuffle(keys)
            rows = _maybe_judged(known, keys)
            if 32 * known.size > keys.size:
                assert rows is None
                continue
            member = np.isin(keys, known)
            assert np.all(np.diff(rows) > 0)
            assert set(np.flatnonzero(member).tolist()) <= set(rows.tolist())
            kept_others += int(rows.size - member.sum())
            total_others += int((~member).sum())
    assert total_others > 100_000 and kept_others < total_others / 16  # (1 in 64 expected)


def test_the_filtered_look_up_is_the_full_one_on_both_paths():
    """_relevance with its hash filter (few judgements, many rows) gives what searching every row
    gives (AMONG_ALL), by the combined keys and by the vocabulary then (topic, position), for keys
    known and unknown, in and out of key order."""
    rng = np.random.default_rng(23)
    for case in range(200):
        topics, vocab = int(rng.integers(1, 6)), int(rng.integers(1, 40))
        table = _table(rng, topics, vocab, int(rng.integers(1, 25)))
        db = 40
        vkey = np.sort(rng.choice(2**40, vocab, replace=False)).astype(np.uint64)  # (spread keys)
        n = int(rng.integers(0, 4000))
        t = rng.integers(0, topics, n)
        pick = rng.integers(0, vocab, n)
        dkey = np.where(rng.random(n) < 0.5, vkey[pick], rng.integers(0, 2**40, n).astype(np.uint64))
        ck = (t.astype(np.uint64) << np.uint64(db)) | dkey
        if case % 2:
            o = np.argsort(ck)
            t, dkey, ck = t[o], dkey[o], ck[o]
        for args in ((dkey, None), (None, ck)):
            got = _relevance(table, vkey, db, t, *args)
            assert np.array_equal(got, _relevance(table, vkey, db, t, *args, among_all=True))
        # and both paths agree with each other
        assert np.array_equal(_relevance(table, vkey, db, t, dkey, None), _relevance(table, vkey, db, t, None, ck))


def test_rows_of_a_few_topics_look_only_at_their_judgements():
    """Rows from a stretch of a large table's topics (a piece of a run read in pieces): the qrels keys
    between the rows' least and greatest are the only ones looked at, and every row still gets the
    code of the first qrels row with its key, by brute force: rows of unjudged topics, keys below and
    above every judgement, topics at either end of the table, in and out of key order."""
    rng = np.random.default_rng(31)
    for case in range(300):
        topics, vocab = int(rng.integers(1, 200)), int(rng.integers(1, 60))
        table = _table(rng, topics, vocab, int(rng.integers(1, 400)))
        db, vkey, qck, first = _qrels_keys(table, vocab)
        lo = int(rng.integers(0, topics))
        hi = min(topics, lo + int(rng.integers(1, 12)))  # (a stretch of topics, at times the last ones)
        n = int(rng.integers(1, 3000 if case % 3 else 40))
        t = rng.integers(lo, hi, n)
        d = rng.integers(0, vocab, n)
        ck = (t.astype(np.uint64) << np.uint64(db)) | d.astype(np.uint64)
        if case % 2:
            ck = np.sort(ck)
        t = (ck >> np.uint64(db)).astype(np.int64)
        want = np.array([first.get(k, NOT_JUDGED) for k in ck.tolist()], dtype=np.int64)
        assert np.array_equal(_relevance(table, vkey, db, t, None, ck), want)
        assert np.array_equal(_relevance(table, vkey, db, t, None, ck, among_all=True), want)
        dkey = ck & np.uint64((1 << db) - 1)  # (the two-step look-up, by vocabulary position: every topic's)
        assert np.array_equal(_relevance(table, vkey, db, t, dkey, None), want)
