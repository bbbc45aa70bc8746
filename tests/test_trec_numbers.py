"""Scores parsed straight from the bytes (inexeval.readers.trec_numbers) equal Python's float(), bit for bit;
the config path's TREC numbers follow C's syntax, whole fields only (docs/formats.md §1.7)."""

from __future__ import annotations

import numpy as np
import pytest

from inexeval.errors import InputError
from inexeval.readers.trec import read_run
from inexeval.readers.trec_numbers import plain_decimals

EDGE = ["0", "-0", "0.0", "-0.0", "1.", "-.5", ".25", "007.50", "12345678", "123456789", "1234567.12345678",
        "12345678.1234567", "12345678.12345678", "99999999.9999999", "0.00000001", "0.000000001", "-3.25",
        "1e5", "1E-3", "+1.5", "inf", "-Infinity", "1.2e+308", "4.9e-324", "0.1", "0.2", "0.3", "2.675",
        "9007199254740993", "123456789012345.6", "12.345600", "-14.2", "1_0"]


def random_tokens(rng: np.random.Generator, n: int) -> list[str]:
    out = []
    for _ in range(n):
        i, f = int(rng.integers(0, 10)), int(rng.integers(0, 10))
        digits = "".join(rng.choice(list("0123456789"), i + f))
        tok = digits[:i] + ("." + digits[i:] if rng.random() < 0.8 else digits[i:])
        if rng.random() < 0.3:
            tok = "-" + tok
        if tok.strip("-.") == "":
            tok += "7"
        out.append(tok)
    return out


def bits(x: np.ndarray) -> np.ndarray:
    return np.asarray(x, dtype=np.float64).view(np.int64)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_scores_equal_float_bit_for_bit(tmp_path, seed):
    rng = np.random.default_rng(seed)
    toks = random_tokens(rng, 3000) + [t for t in EDGE if t not in ("inf", "-Infinity", "1_0")]
    rng.shuffle(toks)
    p = tmp_path / "run.txt"
    p.write_text("".join(f"q{i % 7} Q0 d{i} {i + 1} {t} r\n" for i, t in enumerate(toks)))
    run = read_run(p)
    assert np.array_equal(bits(run.score), bits([float(t) for t in toks]))


def test_fast_path_covers_plain_decimals_and_leaves_the_rest():
    toks = EDGE + ["5"] * 4  # the last rows are near the buffer's end: the slow way
    data = " ".join(toks).encode() + b"\n"
    s, e = [], []
    at = 0
    for t in toks:
        s.append(at)
        e.append(at + len(t))
        at += len(t) + 1
    val, ok = plain_decimals(data, np.array(s), np.array(e))
    fast = {t for t, k in zip(toks, ok) if k}
    assert {"0", "-0", "1.", "-.5", "007.50", "12345678", "1234567.12345678", "0.00000001", "12.345600",
            "-14.2", "2.675"} <= fast
    assert not fast & {"123456789", "12345678.12345678", "0.000000001", "1e5", "+1.5", "inf", "1_0",
                       "9007199254740993", "123456789012345.6"}
    assert np.array_equal(bits(val[ok]), bits([float(t) for t, k in zip(toks, ok) if k]))
    assert np.isnan(val[~ok]).all()


@pytest.mark.parametrize("tok", ["inf", "-Infinity", "nan", "1.2.3", "-", "1-", "0x", "1e999", "1_0", "1e", "1e+",
                                 "\u0661", "2x", "nan(1)", "0x1p", "1,5", ".", "+", "1d", "1.5f", "0x1p99999"])
def test_bad_scores_name_their_line(tmp_path, tok):
    p = tmp_path / "run.txt"
    p.write_text("q1 Q0 a 1 1.5 r\n" * 5 + f"q1 Q0 b 2 {tok} r\n" + "q1 Q0 c 3 1.25 r\n" * 5)
    with pytest.raises(InputError) as e:
        read_run(p)
    assert e.value.line == 6 and "bad score" in e.value.message


@pytest.mark.parametrize("tok, value", [("0x10", 16.0), ("0x1p-3", 0.125), ("-0X.8P1", -1.0), ("+.5", 0.5),
                                        ("1E+02", 100.0), ("007.50", 7.5), ("1e-400", 0.0), ("4.9e-324", 5e-324)])
def test_scores_in_c_syntax_are_read_as_strtod_reads_them(tmp_path, tok, value):
    """A score is any field C's strtod reads to its end (trec_eval's atof gives the same value)."""
    p = tmp_path / "run.txt"
    p.write_text("q1 Q0 a 1 1.5 r\n" * 5 + f"q1 Q0 b 2 {tok} r\n")
    assert read_run(p).score[5] == value


def test_a_bad_score_says_what_trec_eval_would_read(tmp_path):
    p = tmp_path / "run.txt"
    p.write_text("q1 Q0 a 1 1_0 r\n")
    with pytest.raises(InputError) as e:
        read_run(p)
    assert "trec_eval would read 1.0" in e.value.message


INT_EDGE = ["0", "-0", "1", "-1", "-2", "007", "12345678", "-12345678", "123456789", "+1", "1.0", "1.5", "1e2",
            "-", "--1", "1-", " ", "x", "99999999999999999999"]


def _fields(toks: list[str]) -> tuple[bytes, np.ndarray, np.ndarray]:
    data = " ".join(toks).encode() + b"\n"
    s, e, at = [], [], 0
    for t in toks:
        s.append(at)
        e.append(at + len(t))
        at += len(t) + 1
    return data, np.array(s), np.array(e)


def test_plain_integers_take_signed_runs_of_up_to_8_digits_and_leave_the_rest():
    from inexeval.readers.trec_numbers import plain_integers

    toks = INT_EDGE + ["5"] * 4  # the last rows are near the buffer's end: the caller's
    val, ok = plain_integers(*_fields(toks))
    fast = {t for t, k in zip(toks, ok) if k}
    assert fast == {"0", "-0", "1", "-1", "-2", "007", "12345678", "-12345678"}
    assert [int(v) for v, k in zip(val, ok) if k] == [int(t) for t, k in zip(toks, ok) if k]
    assert (val[~ok] == 0).all()


@pytest.mark.parametrize("seed", [1, 2])
def test_qrels_judgements_equal_int_and_bad_ones_name_their_line(tmp_path, seed):
    from inexeval.readers.trec import read_qrels

    rng = np.random.default_rng(seed)
    rels = [str(int(v)) for v in rng.integers(-3, 10**9, 500)] + ["+4", "007", "-0", "123456789012"]
    p = tmp_path / "qrels"
    p.write_text("".join(f"q1 0 d{i} {r}\n" for i, r in enumerate(rels)))
    q = read_qrels(p)
    assert sorted(q.rel.tolist()) == sorted(int(r) for r in rels)
    p.write_text("".join(f"q1 0 d{i} 1\n" for i in range(5)) + "q1 0 x 1.5\nq1 0 y 2\n")
    with pytest.raises(InputError) as e:
        read_qrels(p)
    assert e.value.line == 6 and "bad relevance value" in e.value.message


@pytest.mark.parametrize("tok", ["1_0", "1.5", "1e5", "0x10", "\u0661", "+", "-", "2x", "1.0", "inf",
                                 "9223372036854775808", "-9223372036854775809", "99999999999999999999"])
def test_judgements_that_c_would_read_only_in_part_are_refused(tmp_path, tok):
    """A judgement is [+-]digits within 64 bits: trec_eval's atol would read a prefix of the others
    (``1_0`` as 1) or saturate; the config path names the line instead of guessing."""
    from inexeval.readers.trec import read_qrels

    p = tmp_path / "qrels"
    p.write_text("q1 0 a 1\n" + f"q1 0 b {tok}\n" + "q1 0 c 0\n" * 3)
    with pytest.raises(InputError) as e:
        read_qrels(p)
    assert e.value.line == 2 and "bad relevance value" in e.value.message and "trec_eval would read" in e.value.message


@pytest.mark.parametrize("tok, value", [("+3", 3), ("-0", 0), ("0007", 7), ("9223372036854775807", 2**63 - 1),
                                        ("-9223372036854775808", -2**63)])
def test_judgements_in_c_syntax(tmp_path, tok, value):
    from inexeval.readers.trec import read_qrels

    p = tmp_path / "qrels"
    p.write_text(f"q1 0 b {tok}\n" + "q1 0 c 0\n")
    q = read_qrels(p)
    assert q.rel[list(q.docno).index(b"b")] == value


def test_a_run_of_many_blocks_reads_as_one_block(tmp_path, monkeypatch):
    """The score parser and the column cutter work BLOCK_ROWS rows at a time: a run of several blocks
    (rows at the block edges, near the end of the data, ids of one to three words) reads the same
    as Python's split and float(), bit for bit, with the blocks large and small."""
    from inexeval.readers import trec as trec_reader
    from inexeval.readers import trec_numbers

    rng = np.random.default_rng(9)
    n = 2 * trec_numbers.BLOCK_ROWS + 777
    toks = random_tokens(rng, n)
    qids = [("t" * int(rng.integers(1, 20)))[:19] + str(i // 100) for i in range(n)]
    docs = ["D" + "x" * int(rng.integers(0, 23)) + str(i) for i in range(n)]
    p = tmp_path / "run.txt"
    p.write_text("".join(f"{q} Q0 {d} {i + 1} {t} r\n" for i, (q, d, t) in enumerate(zip(qids, docs, toks))))
    for block in (trec_numbers.BLOCK_ROWS, 1000, 7):
        monkeypatch.setattr(trec_numbers, "BLOCK_ROWS", block)
        monkeypatch.setattr(trec_reader, "BLOCK_ROWS", block)
        run = read_run(p)
        assert np.array_equal(bits(run.score), bits([float(t) for t in toks]))
        assert run.qid.tolist() == [q.encode() for q in qids], block
        assert run.docno.tolist() == [d.encode() for d in docs], block


def test_eight_digits_reads_the_first_m_bytes_of_every_word():
    """trec_numbers._eight_digits: the number written by the first m bytes (0 to 8 ASCII digits) of
    each word, whatever bytes follow them, against int()."""
    from inexeval.readers.trec_numbers import _eight_digits

    rng = np.random.default_rng(4)
    texts, ms, want = [], [], []
    for _ in range(20000):
        m = int(rng.integers(0, 9))
        digits = "".join(rng.choice(list("0123456789"), m))
        rest = bytes(rng.integers(0, 256, 8 - m).astype(np.uint8))
        texts.append(digits.encode() + rest)
        ms.append(m)
        want.append(int(digits) if m else 0)
    texts += [b"99999999", b"00000000", b"10000000"]
    ms += [8, 8, 8]
    want += [99999999, 0, 10000000]
    words = np.frombuffer(b"".join(texts), dtype="<u8")
    assert _eight_digits(words, np.array(ms)).tolist() == want
