"""trec_eval's result order on integer docno keys (docs/measures.md §8: score descending, ties by docno descending).

Every case is checked against a plain-Python reference: per topic,
``sorted(results, key=(score, docno bytes), reverse=True)``, relevance from
a dict of the qrels (-1 unjudged, -2 negative judgement), the first line of
a repeated (topic, docno) kept.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
import pytrec_eval
from hypothesis import given, settings
from hypothesis import strategies as st

from inexeval.errors import InputError
from inexeval.measures.classic_base import JUDGED_NEGATIVE, NOT_JUDGED
from inexeval.readers.trec import read_qrels, read_run
from inexeval.measures.classic_join import docno_keys, rank_run, topic_table
from inexeval.trec import evaluate_trec


def reference(qrels: list[tuple[bytes, bytes, int]], run: list[tuple[bytes, bytes, float]]) -> dict:
    """Topic -> relevance codes in trec_eval order (topics of the qrels only)."""
    judged = {(q, d): r for q, d, r in qrels}
    seen, per = set(), {}
    for q, d, s in run:
        if (q, d) in seen or not any(q == t for t, _, _ in qrels):
            continue
        seen.add((q, d))
        per.setdefault(q, []).append((s + 0.0, d))
    out = {}
    for q, rows in per.items():
        rows.sort(reverse=True)
        codes = []
        for _, d in rows:
            r = judged.get((q, d))
            codes.append(NOT_JUDGED if r is None else (r if r >= 0 else JUDGED_NEGATIVE))
        out[q] = codes
    return out


def ours(tmp_path, qrels, run, packed: bool | None = None) -> dict:
    """Our order; PACKED: assert which docno keys were used (packed codes or ranks in the union)."""
    qp, rp = tmp_path / "qrels", tmp_path / "run"
    qp.write_bytes(b"".join(b"%s 0 %s %d\n" % (q, d, r) for q, d, r in qrels))
    rp.write_bytes(b"".join(b"%s Q0 %s %d %s tag\n" % (q, d, i + 1, repr(s).encode()) for i, (q, d, s) in
                            enumerate(run)))
    table = topic_table(read_qrels(qp))
    ranking, present = rank_run(read_run(rp), table)
    if packed is not None:
        assert ("vocab_key" in table.cache) == packed
    return {table.keys[t]: ranking.rel[ranking.start[t]: ranking.start[t + 1]].tolist()
            for t in np.flatnonzero(present)}


def test_unjudged_docnos_tied_with_judged_ones_sort_by_bytes(tmp_path):
    # all tied at 1.0; descending byte order: D9 > D50 > D5 > D10 > D1 ("D1" is a prefix of "D10": smaller)
    qrels = [(b"1", b"D10", 1), (b"1", b"D5", 2), (b"1", b"D1", 0)]
    run = [(b"1", d, 1.0) for d in (b"D1", b"D10", b"D5", b"D9", b"D50")]
    want = {b"1": [NOT_JUDGED, NOT_JUDGED, 2, 1, 0]}  # D9 (unjudged), D50 (unjudged), D5, D10, D1
    assert reference(qrels, run) == want
    assert ours(tmp_path, qrels, run, packed=True) == want


def test_bytes_outside_the_qrels_alphabet_and_utf8(tmp_path):
    # the run's docnos use bytes the qrels never do ('z', 0xC3 0xA9): the alphabet is extended
    qrels = [(b"7", b"AB", 1), (b"7", b"AC", 0), (b"7", "Aé".encode(), 3)]
    run = [(b"7", b"AB", 2.0), (b"7", b"Az", 2.0), (b"7", b"AC", 2.0), (b"7", "Aé".encode(), 2.0),
           (b"7", b"A", 2.0)]
    # byte order: "Aé" (0xC3) > "Az" > "AC" > "AB" > "A"
    want = {b"7": [3, NOT_JUDGED, 0, 1, NOT_JUDGED]}
    assert reference(qrels, run) == want
    assert ours(tmp_path, qrels, run, packed=True) == want


def test_negative_zero_ties_with_zero_and_duplicates_keep_first_line(tmp_path):
    qrels = [(b"1", b"a", 1), (b"1", b"b", -1), (b"1", b"c", 2)]
    run = [(b"1", b"a", -0.0), (b"1", b"b", 0.0), (b"1", b"c", 5.0), (b"1", b"a", 9.0)]
    # c (5.0), then the tie at 0: b > a; the later "a 9.0" is a duplicate, dropped
    want = {b"1": [2, JUDGED_NEGATIVE, 1]}
    assert reference(qrels, run) == want
    assert ours(tmp_path, qrels, run) == want


def test_long_docnos_use_the_general_key(tmp_path):
    # 40-byte docnos over 60 distinct bytes: 40 x 6 bits > 64, so keys are ranks in the union
    rng = random.Random(3)
    alphabet = [chr(c).encode() for c in range(ord("0"), ord("0") + 60)]
    docs = [b"X" + b"".join(rng.choice(alphabet) for _ in range(39)) for _ in range(80)]
    docs += [d[:20] for d in docs[:10]]  # prefixes of other docnos
    qrels = [(b"4", d, rng.choice([0, 1, 2])) for d in docs[::2]]
    run = [(b"4", d, float(rng.randint(0, 3))) for d in docs]
    assert ours(tmp_path, qrels, run, packed=False) == reference(qrels, run)


@pytest.mark.parametrize("seed", range(8))
def test_random_ties_against_reference_and_pytrec_eval(tmp_path, seed):
    """Mixed-length docnos, heavy score ties, unjudged documents, duplicates, several topics."""
    rng = random.Random(seed)
    qrels, run = [], []
    for t in range(rng.randint(1, 6)):
        q = str(rng.choice([t, 10 + t, 100 + t])).encode()
        pool = [b"D%d" % rng.randint(0, 3000) for _ in range(200)]
        for d in sorted(set(pool[:80])):
            qrels.append((q, d, rng.choice([-1, 0, 0, 1, 2, 3])))
        for d in pool[40:]:
            run.append((q, d, rng.randint(0, 6) / 2))
    rng.shuffle(run)
    want = reference(qrels, run)
    assert ours(tmp_path, qrels, run, packed=True) == want

    # the same order gives pytrec_eval's numbers (it refuses duplicates: give it the kept lines)
    first: dict = {}
    for q, d, s in run:
        first.setdefault(q.decode(), {}).setdefault(d.decode(), s)
    qd: dict = {}
    for q, d, r in qrels:
        qd.setdefault(q.decode(), {})[d.decode()] = r
    (res,), _ = evaluate_trec(tmp_path / "qrels", [tmp_path / "run"], measures=["map", "bpref", "ndcg_cut_10"],
                              warn=lambda m: None)
    theirs = pytrec_eval.RelevanceEvaluator(qd, {"map", "bpref", "ndcg_cut.10"}).evaluate(first)
    for t, vals in res.per_topic.items():
        if vals["map"] is not None:
            for m in ("map", "bpref", "ndcg_cut_10"):
                assert vals[m] == pytest.approx(theirs[t][m], rel=1e-9, abs=1e-9), (t, m)


_docnos = st.one_of(st.binary(min_size=1, max_size=12),  # any bytes: often the general ranks
                    st.text("AB-019z", min_size=1, max_size=12).map(str.encode))  # packed keys


@pytest.mark.parametrize("room", [64, 40, 20])
@pytest.mark.parametrize("sample", [None, 1])
@settings(max_examples=60, deadline=None)
@given(st.lists(_docnos.filter(lambda b: b"\0" not in b), min_size=1, max_size=30),
       st.lists(_docnos.filter(lambda b: b"\0" not in b), min_size=1, max_size=30))
def test_doc_keys_order_and_equality_are_those_of_the_bytes(room, sample, vocab, docs):
    """The integer keys compare exactly as the byte strings (fast packed keys and the general ranks);
    SAMPLE 1: the alphabet guessed from one row at each end, so bytes in between must widen it.
    ROOM below 64 (the bits a caller leaves the keys beside a topic): docnos of up to 8 bytes packed
    instead of taken as bytes when that fits, the same order and equality either way."""
    from unittest import mock

    from inexeval.readers import bytekeys
    from inexeval.readers.trec import Qrels

    v = sorted(set(vocab))
    qrels = Qrels("q", np.array([b"1"] * len(v)), np.array(v), np.zeros(len(v), dtype=np.int64),
                  np.arange(1, len(v) + 1))
    table = topic_table(qrels)
    with mock.patch.object(bytekeys, "SAMPLE_ROWS", sample or bytekeys.SAMPLE_ROWS):
        vkey, dkey = docno_keys(table, np.array(docs), room)
    keys = dict(zip(v, vkey.tolist()))
    for d, k in zip(docs, dkey.tolist()):
        if d in keys:
            assert keys[d] == k
        keys.setdefault(d, k)
    items = sorted(keys.items())
    assert [k for _, k in items] == sorted(k for _, k in items)  # order of bytes = order of keys
    assert len({k for _, k in items}) == len(items)  # distinct bytes, distinct keys
    assert (vkey[1:] > vkey[:-1]).all()  # the vocabulary's keys increase


def test_short_docnos_are_packed_to_fit_beside_the_topic():
    """Eight-digit docnos are 62 bits as bytes: beside 100,000 topics (17 bits) they do not fit in one
    64-bit key, packed (4 bits a digit) they take 32; docnos with bytes enough to need more than the
    room stay the bytes themselves; and the keys of either kind order as the bytes."""
    from inexeval.readers.trec import Qrels

    rng = np.random.default_rng(3)
    v = sorted({b"%08d" % x for x in rng.integers(10**7, 10**8, 300)})
    qrels = Qrels("q", np.array([b"1"] * len(v)), np.array(v), np.zeros(len(v), dtype=np.int64),
                  np.arange(1, len(v) + 1))
    docs = np.array([b"%08d" % x for x in rng.integers(10**7, 10**8, 500)] + v[:50])
    full = docno_keys(topic_table(qrels), docs)
    assert int(full[0].max()).bit_length() == 62
    vkey, dkey = docno_keys(topic_table(qrels), docs, 64 - 17)
    assert max(int(vkey.max()), int(dkey.max())).bit_length() <= 32
    both = np.concatenate((v, docs))
    assert np.array_equal(np.argsort(np.concatenate((vkey, dkey)), kind="stable"), np.argsort(both, kind="stable"))
    many = np.array([bytes(rng.integers(33, 127, 8).astype(np.uint8)) for _ in range(400)])  # 94 bytes: 7 bits each
    vkey, dkey = docno_keys(topic_table(qrels), many, 40)  # (56 bits packed: more than 40)
    assert int(dkey.max()).bit_length() > 56
    assert np.array_equal(np.argsort(np.concatenate((vkey, dkey)), kind="stable"),
                          np.argsort(np.concatenate((v, many)), kind="stable"))


def test_reader_fields_at_the_end_without_newline_and_long_fields(tmp_path):
    p = tmp_path / "run"
    long = b"doc-" + b"x" * 30
    p.write_bytes(b"1 Q0 %s 1 2.5 tagA\r\n\n1 Q0 b 2 -1e3 tagA" % long)  # CRLF, blank line, no final newline
    run = read_run(p)
    assert run.docno.tolist() == [long, b"b"]
    assert run.score.tolist() == [2.5, -1000.0]
    assert run.line.tolist() == [1, 3]
    assert run.tags == ["tagA"]


def test_reader_names_the_bad_line_when_records_straddle_lines(tmp_path):
    # 12 tokens and 2 lines: the token count divides by 6, yet line 1 has 9 columns
    p = tmp_path / "run"
    p.write_bytes(b"1 Q0 a 1 1.0 t 1 Q0 b\n2 1.0 t\n")
    with pytest.raises(InputError) as e:
        read_run(p)
    assert e.value.line == 1 and "found 9" in e.value.message


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=40).map(lambda b: bytes(b"ab \t\n\r"[c % 6] for c in b)))
def test_reader_tokens_are_the_runs_of_non_blank_bytes(data):
    from inexeval.readers.trec import _tokens

    import re

    starts, ends = _tokens(np.frombuffer(data, dtype=np.uint8))
    want = [(m.start(), m.end()) for m in re.finditer(rb"[^ \t\n\r]+", data)]
    assert list(zip(starts.tolist(), ends.tolist())) == want


@pytest.mark.parametrize("docnos", ["short", "eight_digits"])
@pytest.mark.parametrize("seed", range(60))
def test_runs_written_in_order_are_taken_as_written(tmp_path, seed, docnos):
    """rank_run's shortcut for a run already in trec_eval's order (classic_join.as_written: each topic's
    results together, by score descending; ties in any docno order, topics in any order): the
    reference's relevance codes and the ranking's ties (same topic and score as the row before),
    taken exactly when the rows of the qrels topics are so written and no (topic, docno) is twice.
    Eight-digit docnos and up to 40 topics: as bytes the docno keys do not fit beside the topic in one
    64-bit key, packed they do (each topic's judgements then looked up among its own)."""
    from unittest import mock

    from inexeval.measures import classic_join

    rng = random.Random(500 + seed)
    qrels, run = [], []
    n_topics, apart = (rng.randint(1, 5), 10) if docnos == "short" else (rng.randint(5, 40), 100)
    topics = [str(rng.choice([t, apart + t, 10 * apart + t])).encode() for t in range(n_topics)]
    for q in topics:
        pool = [b"D%d" % rng.randint(0, 60) if docnos == "short" else b"%08d" % (12345678 + 1000003 * rng.randint(0, 60))
                for _ in range(30)]
        for d in sorted(set(pool[:15])):
            qrels.append((q, d, rng.choice([-1, 0, 1, 2])))
        run += [(q, d, rng.choice([0.0, -0.0, 0.5, 1.0, 2.0, rng.random()])) for d in pool[5:]]
    run += [(b"999", b"D1", 1.0)] * rng.randint(0, 2)  # (a topic the qrels lack)
    # written in trec_eval's order: each topic's results together by score descending, ties in any order
    rng.shuffle(run)
    run.sort(key=lambda r: -r[2])
    order = list(dict.fromkeys(q for q, _, _ in run))
    rng.shuffle(order)
    run.sort(key=lambda r: order.index(r[0]))
    if rng.random() < 0.6:  # most runs: each docno once in its topic (else the first line is kept)
        firsts: dict = {}
        for q, d, s in run:
            firsts.setdefault((q, d), (q, d, s))
        run = list(firsts.values())
    if rng.random() < 0.25 and len(run) > 1:  # two neighbours swapped: perhaps no longer in order
        i = rng.randrange(len(run) - 1)
        run[i], run[i + 1] = run[i + 1], run[i]
    qp, rp = tmp_path / "qrels", tmp_path / "run"
    qp.write_bytes(b"".join(b"%s 0 %s %d\n" % (q, d, r) for q, d, r in qrels))
    rp.write_bytes(b"".join(b"%s Q0 %s %d %s tag\n" % (q, d, i + 1, repr(s).encode())
                            for i, (q, d, s) in enumerate(run)))
    table = topic_table(read_qrels(qp))
    taken, sorted_ = [], []
    real, real_sorted = classic_join.as_written, classic_join._sorted_ranking
    with mock.patch.object(classic_join, "as_written", lambda *a: taken.append(real(*a)) or taken[-1]), \
            mock.patch.object(classic_join, "_sorted_ranking", lambda *a: sorted_.append(1) or real_sorted(*a)):
        ranking, present, _, dropped = classic_join.ranked(read_run(rp), table)
    got = {table.keys[t]: ranking.rel[ranking.start[t]: ranking.start[t + 1]].tolist() for t in np.flatnonzero(present)}
    assert got == reference(qrels, run)
    # the ties: the same topic and score (-0.0 == 0.0) as the row before, in the reference's order
    seen, want_tied = set(), []
    for t in sorted(table.keys.tolist()):
        rows = sorted({(s + 0.0, d) for q, d, s in run if q == t and not ((q, d) in seen or seen.add((q, d)))},
                      reverse=True)
        want_tied += [i > 0 and rows[i][0] == rows[i - 1][0] for i in range(len(rows))]
    assert ranking.tied.tolist() == want_tied
    known = [(q, d, s + 0.0) for q, d, s in run if q in set(table.keys.tolist())]
    pairs = [(q, d) for q, d, _ in known]
    blocks = [q for i, (q, _, _) in enumerate(known) if i == 0 or known[i - 1][0] != q]
    in_order = all(a[2] >= b[2] for a, b in zip(known, known[1:]) if a[0] == b[0]) and len(blocks) == len(set(blocks))
    assert (bool(taken) and taken[0] is not None) == in_order  # (found whether or not a docno is there twice)
    assert (not sorted_) == (in_order and len(pairs) == len(set(pairs)))  # (no sort: in order, each pair once)
    assert dropped.count == len(pairs) - len(set(pairs))
    # the first repeated (topic, docno) in the file's order: its line (the file's line i + 1), topic, docno
    seen_pairs: set = set()
    first = next(((i + 1, q, d) for i, (q, d, _) in enumerate(run)
                  if q in set(table.keys.tolist()) and ((q, d) in seen_pairs or seen_pairs.add((q, d)))), None)
    assert (dropped.line, dropped.topic, dropped.docno) == (first if first else (None, b"", b""))
