"""The trec-eval drop-in's order of a run (inexeval/dropins/trec_eval/cli.py ``_order_run``) and its topic
look-up (``_topic_codes``), against plain Python.

trec_eval orders each topic's results by score descending, ties by docno descending (byte order;
ascending in its preference code), keeps the first ``-M`` of them, and stops at a topic with a
docno twice among those kept, naming the first such docno in byte order.  The reference below does
exactly that with Python's sort; both the one-key sort and the lexsort the drop-in falls back to
(when the combined key would not fit in 64 bits) are checked.
"""

from __future__ import annotations

import random
from unittest import mock

import numpy as np
import pytest

from inexeval.dropins.trec_eval import evaluate as trec_eval_cli
from inexeval.dropins.trec_eval.evaluate import ids as _ids, order_run as _order_run, topic_codes as _topic_codes
from inexeval.dropins.trec_eval.read import RawRun


def reference(qid, docno, score, keys, cap, ascending):
    """(qid, docno, score) of the kept rows in order, and per topic index the first docno twice."""
    out, dups = [], {}
    for ti, k in enumerate(keys):
        rows = [(d, s + 0.0) for q, d, s in zip(qid, docno, score) if q == k]
        rows.sort(key=lambda r: r[0], reverse=not ascending)  # the tie order first,
        rows.sort(key=lambda r: -r[1])  # then (stable) the score, descending
        kept = rows[:cap] if cap is not None else rows
        out += [(k, d, s) for d, s in kept]
        names = [d for d, _ in kept]
        twice = sorted({d for d in names if names.count(d) > 1})
        if twice:
            dups[ti] = twice[0]
    return out, dups


def random_run(rng: random.Random, n: int):
    """Topics in blocks and interleaved, some not in the qrels; heavy ties, -0.0, docnos twice."""
    topics = [b"%d" % rng.choice([1, 2, 3, 10, 20, 400]) for _ in range(rng.randint(1, 5))]
    if rng.random() < 0.5:  # in blocks, as runs usually are
        qid = sorted((rng.choice(topics) for _ in range(n)), key=topics.index)
    else:
        qid = [rng.choice(topics) for _ in range(n)]
    docno = [rng.choice([b"D%d" % rng.randint(0, 40), b"d-%d" % rng.randint(0, 9), b"D1", b"D10"]) for _ in range(n)]
    score = [rng.choice([0.0, -0.0, 0.5, 1.0, 1.0, 2.0, -3.25, rng.random()]) for _ in range(n)]
    return qid, docno, score


@pytest.mark.parametrize("codes", ["strings", "small"])
@pytest.mark.parametrize("one_key", [True, False])
@pytest.mark.parametrize("seed", range(40))
def test_order_cut_and_duplicates_are_trec_evals(seed, one_key, codes):
    """CODES: the docnos' order codes found by order_run (short docnos: their bytes, 64 bits, so topic
    and docno do not fit in one key: dense ranks) or given small (their ranks, as the drop-in's packed
    keys: one sort by (topic, docno), whose order the join reuses: :class:`Joint`)."""
    rng = random.Random(seed)
    qid, docno, score = random_run(rng, rng.randint(0, 60))
    qrels_topics = np.array([b"1", b"10", b"2", b"3"])  # (400 and 20: run topics not in the qrels)
    keys = _ids(qrels_topics)
    cap = rng.choice([None, 1, 3, 10])
    ascending = rng.random() < 0.3
    run = RawRun(np.array(qid or [b""], dtype=bytes)[: len(qid)], np.array(docno or [b""], dtype=bytes)[: len(docno)],
                 np.array(score, dtype=np.float64), b"tag")
    t = _topic_codes(keys, run.qid)
    doc_codes = np.unique(run.docno, return_inverse=True)[1].ravel().astype(np.uint64) if codes == "small" else None
    taken = []
    real = trec_eval_cli._as_written
    with mock.patch.object(trec_eval_cli, "_KEY_LIMIT", 2**62 if one_key else 0), \
            mock.patch.object(trec_eval_cli, "_as_written", lambda *a: taken.append(real(*a)) or taken[-1]):
        kept, dups, joint = trec_eval_cli.ordered_rows(run, keys, t, cap, ascending, doc_codes)
    # a run sorted here, with codes that fit beside the topic: its kept rows by (topic, docno)
    assert joint is None or codes == "small"
    if codes == "small" and taken and taken[0] is None:
        assert joint is not None
    if joint is not None:
        pairs = sorted((int(t[r]), int(doc_codes[r])) for r in kept.tolist())
        assert [(int(k) >> joint.bits, int(k) & ((1 << joint.bits) - 1)) for k in joint.key] == pairs
        assert [(int(t[kept[i]]), int(doc_codes[kept[i]])) for i in joint.at.tolist()] == pairs
    got = [(bytes(run.qid[i]), bytes(run.docno[i]), float(run.score[i]) + 0.0) for i in kept.tolist()]
    want, want_dups = reference(qid, docno, score, keys.tolist(), cap, ascending)
    assert got == want
    assert dups == want_dups


@pytest.mark.parametrize("seed", range(30))
def test_topic_codes_per_block_are_those_per_row(seed):
    rng = random.Random(seed)
    keys = np.array(sorted({b"%d" % rng.randint(0, 30) for _ in range(rng.randint(1, 8))}))
    pool = [b"%d" % rng.randint(0, 40) for _ in range(6)] + [b""]
    n = rng.randint(0, 200)
    if rng.random() < 0.5:
        qid = [x for x in (rng.choice(pool) for _ in range(rng.randint(1, 10))) for _ in range(n // 5 + 1)][:n]
    else:
        qid = [rng.choice(pool) for _ in range(n)]
    arr = np.array(qid, dtype="S4")
    want = [keys.tolist().index(q) if q in keys.tolist() else -1 for q in arr.tolist()]
    got = _topic_codes(keys, arr)
    assert got.dtype == np.int64 and got.tolist() == want
    assert _ids(arr).tolist() == sorted(set(arr.tolist()))


def written_run(rng: random.Random, n: int):
    """A run as files usually are: every topic's results together, by score descending (ties by docno
    descending or ascending, or in another order), the topics in any order; then, at random, one
    change that breaks it (two neighbours swapped, a topic split in two blocks) or not."""
    qid, docno, score = random_run(rng, n)
    ascending = rng.random() < 0.3
    order = sorted(range(n), key=lambda i: docno[i], reverse=not ascending)
    if rng.random() < 0.3:  # ties in another docno order (the tool that wrote it broke them its way)
        rng.shuffle(order)
    order.sort(key=lambda i: -score[i])
    topics = list(dict.fromkeys(qid))
    rng.shuffle(topics)
    order.sort(key=lambda i: topics.index(qid[i]))
    qid, docno, score = [qid[i] for i in order], [docno[i] for i in order], [score[i] for i in order]
    change = rng.choice(["none", "none", "swap", "split"])
    if change == "swap" and n > 1:
        i = rng.randrange(n - 1)
        for col in (qid, docno, score):
            col[i], col[i + 1] = col[i + 1], col[i]
    elif change == "split" and n > 2:
        i = rng.randrange(1, n - 1)
        qid, docno, score = qid[i:] + qid[:i], docno[i:] + docno[:i], score[i:] + score[:i]
    return qid, docno, score, ascending


@pytest.mark.parametrize("seed", range(200))
def test_runs_written_in_order_are_taken_as_written(seed):
    """order_run's shortcut for a run already in trec_eval's order (_as_written, then a hash check for a
    docno twice) gives the reference's rows, cut and duplicates, and is taken whenever the rows are
    in that order and no docno stands twice."""
    rng = random.Random(1000 + seed)
    qid, docno, score, ascending = written_run(rng, rng.randint(0, 80))
    keys = _ids(np.array([b"1", b"10", b"2", b"3"]))
    cap = rng.choice([None, None, 1, 3, 10])
    run = RawRun(np.array(qid or [b""], dtype=bytes)[: len(qid)], np.array(docno or [b""], dtype=bytes)[: len(docno)],
                 np.array(score, dtype=np.float64), b"tag")
    t = _topic_codes(keys, run.qid)
    taken = []
    real = trec_eval_cli._as_written
    with mock.patch.object(trec_eval_cli, "_as_written", lambda *a: taken.append(real(*a)) or taken[-1]):
        kept, dups = _order_run(run, keys, t, cap, ascending)
    got = [(bytes(run.qid[i]), bytes(run.docno[i]), float(run.score[i]) + 0.0) for i in kept.tolist()]
    want, want_dups = reference(qid, docno, score, keys.tolist(), cap, ascending)
    assert got == want and dups == want_dups
    # taken exactly when the scored rows (topics of the qrels) are by score descending, each topic in one
    # block
    rows = [(q, d, s + 0.0) for q, d, s in zip(qid, docno, score) if q in keys.tolist()]
    if len(rows) > 1:
        blocks = [q for i, (q, _, _) in enumerate(rows) if i == 0 or rows[i - 1][0] != q]
        by_score = all(a[2] >= b[2] for a, b in zip(rows, rows[1:]) if a[0] == b[0])
        assert (taken[0] is not None) == (by_score and len(blocks) == len(set(blocks)))


def test_as_written_refuses_nan_and_finds_a_topic_in_two_blocks():
    codes = np.array([3, 2, 1, 5], dtype=np.uint64)
    tr = np.array([0, 0, 1, 1])
    assert trec_eval_cli._as_written(tr, np.array([2.0, 1.0, 5.0, 4.0]), codes, False).tolist() == [0, 1, 2, 3]
    assert trec_eval_cli._as_written(tr, np.array([2.0, np.nan, 5.0, 4.0]), codes, False) is None
    assert trec_eval_cli._as_written(np.array([0, 1, 0, 1]), np.array([4.0, 3.0, 2.0, 1.0]), codes, False) is None
    # topics in two blocks given in the other order: the blocks put in key order
    assert trec_eval_cli._as_written(np.array([1, 1, 0, 0]), np.array([5.0, 4.0, 2.0, 1.0]), codes,
                                     False).tolist() == [2, 3, 0, 1]
    # a tie: docnos descending (3 > 2) is trec_eval's order, ascending is the preference code's
    tie = np.array([1.0, 1.0, 5.0, 4.0])
    assert trec_eval_cli._as_written(tr, tie, codes, False).tolist() == [0, 1, 2, 3]
    assert trec_eval_cli._as_written(tr, tie, codes, True).tolist() == [1, 0, 2, 3]
    # two tie groups in one topic, and a tie across two topics (not a tie)
    tr2, s2 = np.array([0, 0, 0, 0, 0, 1, 1]), np.array([3.0, 3.0, 2.0, 1.0, 1.0, 1.0, 1.0])
    c2 = np.array([1, 2, 9, 4, 7, 8, 3], dtype=np.uint64)
    assert trec_eval_cli._as_written(tr2, s2, c2, False).tolist() == [1, 0, 2, 4, 3, 5, 6]
    assert not trec_eval_cli._maybe_twice(np.array([0, 0, 1]), np.array([7, 8, 7], dtype=np.uint64))
    assert trec_eval_cli._maybe_twice(np.array([0, 1, 1]), np.array([7, 8, 8], dtype=np.uint64))
