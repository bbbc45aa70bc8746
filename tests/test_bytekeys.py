"""Byte strings as integer keys (inexeval/readers/bytekeys.py): the keys order and compare exactly as
numpy orders and compares the ``S`` items, so the TREC readers and the trec-eval drop-in may sort
them instead of the strings.  Every check is against numpy's own string sort."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from inexeval.readers.bytekeys import distinct, order_codes, order_keys
from inexeval.readers.trec import sort_pairs

# docno-like strings: a small alphabet (packed keys), embedded and trailing NULs, empty strings
_small = st.lists(st.binary(max_size=9).map(lambda b: bytes(c % 5 + 45 if c > 4 else c for c in b)),
                  min_size=0, max_size=40)
# any bytes, up to 20: often too many distinct bytes for 64 bits (the string sort instead)
_any = st.lists(st.binary(max_size=20), min_size=0, max_size=40)


def _check_order(items: list[bytes], codes: np.ndarray) -> None:
    s = np.array(items, dtype=bytes) if items else np.array([], dtype="S1")
    assert codes.shape == (len(items),)
    for i in range(len(items)):
        for j in range(len(items)):
            a, b = s[i], s[j]  # numpy's values: trailing NULs dropped
            assert (codes[i] < codes[j]) == (a < b), (a, b)
            assert (codes[i] == codes[j]) == (a == b), (a, b)
    assert ((~codes)[:, None] < (~codes)[None, :]).tolist() == (codes[:, None] > codes[None, :]).tolist()


@settings(max_examples=150, deadline=None)
@given(st.one_of(_small, _any))
def test_order_codes_compare_as_the_strings(items):
    s = np.array(items, dtype=bytes) if items else np.array([], dtype="S1")
    _check_order(items, order_codes(s))


@settings(max_examples=150, deadline=None)
@given(st.one_of(_small, _any))
def test_distinct_is_numpys_unique(items):
    s = np.array(items, dtype=bytes) if items else np.array([], dtype="S1")
    u, inv = distinct(s)
    want_u, want_inv = np.unique(s, return_inverse=True)
    assert u.dtype == want_u.dtype and u.tolist() == want_u.tolist()
    assert inv.tolist() == want_inv.ravel().tolist()


def test_packed_keys_are_used_when_they_fit_and_refused_when_not():
    # 13 symbols and the NUL: 4 bits a byte, 10 bytes: 40 bits
    k = order_keys(np.array([b"D499-2999", b"D0-1", b"D0-10", b"D0-1\0"]))
    assert k is not None and k.dtype == np.uint64
    assert k[1] < k[2] and k[1] == k[3] and k[0] > k[2]  # a prefix first; trailing NUL is padding
    # 200 distinct bytes need 8 bits: 9 bytes do not fit in 64 bits
    wide = np.array([bytes(range(i, i + 9)) for i in range(1, 200)])
    assert order_keys(wide) is None
    _check_order(wide[:30].tolist(), order_codes(wide[:30]))
    # an object array (a very long field, readers/trec.py): ranks from the string sort
    obj = np.array([b"b" * 50_000, b"a", b"b"], dtype=object)
    assert order_keys(obj) is None
    assert order_codes(obj).tolist() == [2, 0, 1]


def test_sort_pairs_orders_by_both_columns_in_byte_order():
    qid = np.array([b"2", b"10", b"2", b"10", b"2"])
    doc = np.array([b"b", b"a", b"a\0", b"a", b"ab"])
    order, vocab, code = sort_pairs(qid, doc)
    assert [(qid[i], doc[i]) for i in order] == [(b"10", b"a"), (b"10", b"a"), (b"2", b"a"), (b"2", b"ab"),
                                                 (b"2", b"b")]
    assert order.tolist()[:2] == [1, 3]  # stable
    assert vocab.tolist() == [b"a", b"ab", b"b"] and code.tolist() == [2, 0, 0, 0, 1]


@settings(max_examples=100, deadline=None)
@given(st.one_of(_small, _any))
def test_keys_from_a_sampled_alphabet_are_checked_and_widened(items):
    """With one row at each end as the sample, a byte met only in between must still get its place."""
    from unittest import mock

    from inexeval.readers import bytekeys

    s = np.array(items, dtype=bytes) if items else np.array([], dtype="S1")
    with mock.patch.object(bytekeys, "SAMPLE_ROWS", 1):
        _check_order(items, order_codes(s))
        u, inv = distinct(s)
    want_u, want_inv = np.unique(s, return_inverse=True)
    assert u.tolist() == want_u.tolist() and inv.tolist() == want_inv.ravel().tolist()


def test_a_byte_only_in_the_middle_of_a_long_column():
    # 10,000 docnos of 10 bytes: the sample (2 x 2,048 rows) never sees 'Z', 'A' or '!'
    docs = [b"D%09d" % i for i in range(10_000)]
    docs[5_000], docs[5_001], docs[5_002] = b"DZ00000000", b"DA00000000", b"D!00000000"
    s = np.array(docs)
    k = order_keys(s)
    assert k is not None
    assert (np.argsort(k, kind="stable") == np.argsort(s, kind="stable")).all()
    assert len(set(k.tolist())) == len(docs)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.floats(allow_nan=False, allow_infinity=False, width=16), max_size=40))
def test_dense_rank_is_the_index_among_the_distinct_values(xs):
    from inexeval.readers.bytekeys import dense_rank

    x = np.array(xs, dtype=np.float64)
    r, n = dense_rank(x)
    u, inv = np.unique(x, return_inverse=True)
    assert n == u.size and r.dtype == np.int64 and r.tolist() == inv.ravel().tolist()


def test_short_keys_are_the_bytes_big_endian():
    from inexeval.readers.bytekeys import byte_matrix, short_keys

    s = np.array([b"", b"a", b"a\0b", b"ab", b"\xff" * 8])
    k = short_keys(byte_matrix(s), 8)
    assert k.tolist() == [0, 0x61 << 56, (0x61 << 56) | (0x62 << 40), (0x61 << 56) | (0x62 << 48), 2**64 - 1]
    assert order_keys(s).tolist() == k.tolist()  # up to 8 bytes, order_keys is short_keys


_ids = st.lists(st.sampled_from([b"1", b"10", b"2", b"", b"401", b"7\0"]), max_size=60)


@settings(max_examples=150, deadline=None)
@given(_ids, st.booleans())
def test_distinct_grouped_is_numpys_unique(items, grouped):
    from inexeval.readers.bytekeys import distinct_grouped

    if grouped:  # ids in blocks, as files list them
        items = sorted(items, key=lambda x: (items.index(x)))
    s = np.array(items, dtype=bytes) if items else np.array([], dtype="S1")
    u, inv = distinct_grouped(s)
    want_u, want_inv = np.unique(s, return_inverse=True)
    assert u.tolist() == want_u.tolist() and inv.tolist() == want_inv.ravel().tolist()


@pytest.mark.parametrize("one_key", [True, False])
@settings(max_examples=100, deadline=None)
@given(_ids, st.lists(st.sampled_from([b"a", b"ab", b"b", b"a\0", b"D10", b"D9"]), max_size=60))
def test_sort_pairs_is_a_stable_sort_by_both_columns(one_key, qids, docs):
    from unittest import mock

    from inexeval.readers import trec

    n = min(len(qids), len(docs))
    a = np.array(qids[:n], dtype=bytes) if n else np.array([], dtype="S1")
    b = np.array(docs[:n], dtype=bytes) if n else np.array([], dtype="S1")
    with mock.patch.object(trec, "_KEY_LIMIT", 2**62 if one_key else 0):
        order, vocab, code = sort_pairs(a, b)
    assert order.tolist() == np.lexsort((b, a)).tolist()  # numpy's lexsort is stable
    assert vocab.tolist() == np.unique(b).tolist() and (vocab[code] == b).all()


def test_sort_pairs_keeps_file_order_among_equal_pairs_in_a_large_column():
    # (small arrays sort stably by chance; 20,000 rows of 30 distinct pairs do not)
    rng = np.random.default_rng(5)
    a = np.array([b"%d" % x for x in rng.integers(0, 3, 20_000)])
    b = np.array([b"D%d" % x for x in rng.integers(0, 10, 20_000)])
    order, _, _ = sort_pairs(a, b)
    assert order.tolist() == np.lexsort((b, a)).tolist()


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from([b"1", b"12345678", b"123456789", b"1234567\0", b"", b"a" * 16, b"a" * 15 + b"b",
                                 b"a" * 17, b"\0a"]), max_size=50),
       st.sampled_from([None, 8, 16, 24]), st.booleans())
def test_block_starts_is_the_string_comparison(items, width, strided):
    """block_starts compares items of 8k bytes as k words: the same blocks as numpy's comparison of the
    strings, for every width (multiples of 8 and others), embedded and trailing NULs, strided views."""
    from inexeval.readers.bytekeys import block_starts

    s = np.array(items, dtype=f"S{width}" if width else bytes) if items else np.array([], dtype="S8")
    if strided:
        s = s[::2]
    want = np.concatenate(([0], np.flatnonzero(s[1:] != s[:-1]) + 1)) if s.size else np.empty(0, np.int64)
    assert block_starts(s).tolist() == want.tolist()


@settings(max_examples=200, deadline=None)
@given(st.lists(st.binary(max_size=24), min_size=0, max_size=30), st.sampled_from([None, 8, 16, 24, 32]))
def test_used_width_is_the_last_column_with_a_byte(items, itemsize):
    """The width of a byte matrix: the longest item without its trailing NULs, read by words (rows of
    8k bytes, contiguous) or by bytes (any other matrix: here the matrix without its last column)."""
    from inexeval.readers.bytekeys import byte_matrix, used_width

    dtype = f"S{itemsize}" if itemsize and all(len(x) <= itemsize for x in items) else bytes
    s = np.array(items, dtype=dtype) if items else np.array([], dtype=f"S{itemsize or 8}")
    b = byte_matrix(s)
    assert used_width(b) == max((len(x.rstrip(b"\0")) for x in items), default=0)
    k = b.shape[1] - 1
    assert used_width(b[:, :k]) == max((len(x[:k].rstrip(b"\0")) for x in items), default=0)


@settings(max_examples=120, deadline=None)
@given(st.lists(st.tuples(st.sampled_from([b"1", b"2", b"30"]), st.one_of(_small, _any).map(lambda xs: xs[:1]),
                          st.integers(0, 2)), min_size=1, max_size=30),
       st.one_of(_small, _any))
def test_the_vocabulary_keys_made_with_the_qrels_serve_every_run(judgements, run_docnos):
    """The keys of the qrels docnos made while the qrels were sorted (readers.trec.sort_pairs_keyed) are
    kept by the topic table, and docno_keys' keys of the vocabulary and of any run order and compare
    as the bytes do; they are the kept ones themselves when the run needs no other packing, and
    docno_keys gives keys of the same order whether they were kept or not."""
    from inexeval.measures.classic_join import docno_keys, topic_table
    from inexeval.readers.memory import qrels_from_data

    rows = {(q, d[0] if d else b"d"): r for q, d, r in judgements}  # (one judgement a pair)
    data = [(q.decode(), d.decode("latin-1"), r) for (q, d), r in rows.items()]
    try:
        qrels = qrels_from_data(data)
    except Exception:  # (ids the data reader refuses: white space, NUL; not this test's matter)
        return
    table = topic_table(qrels)
    fresh = topic_table(qrels)
    fresh.cache.clear()  # (nothing kept: docno_keys makes the vocabulary's keys itself)
    run = np.array(run_docnos, dtype=bytes) if run_docnos else np.array([], dtype="S1")
    for t in (table, fresh):
        vkey, dkey = docno_keys(t, run)
        both = t.vocab.tolist() + run.tolist()
        keys = vkey.tolist() + dkey.tolist()
        for i in range(len(both)):
            for j in range(len(both)):
                assert (keys[i] < keys[j]) == (both[i] < both[j]) and (keys[i] == keys[j]) == (both[i] == both[j])
    if qrels.vocab_key is not None:
        kept = qrels.vocab_key
        vkey, _ = docno_keys(topic_table(qrels), run)
        same_bytes = not (set(b"".join(run.tolist())) - set(b"".join(qrels.vocab.tolist())))
        longest = max((len(x) for x in run.tolist()), default=0)
        if same_bytes and longest <= qrels.packing.used:
            assert vkey is kept
