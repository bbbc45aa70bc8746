"""TREC input hygiene: byte-order marks, UTF-16, standard input, very long fields (docs/formats.md §8)."""

from __future__ import annotations

import gzip
import io
import sys

import numpy as np
import pytest

from inexeval.errors import InputError
from inexeval.readers import trec as trec_reader
from inexeval.readers.trec import read_qrels, read_run
from inexeval.trec import evaluate_trec

QRELS = "q1 0 a 1\nq1 0 b 0\nq1 0 c 2\nq2 0 x 1\nq2 0 y 0\n"
RUN = "q1 Q0 a 1 2.0 r\nq1 Q0 b 2 2.0 r\nq1 Q0 z 3 1.5 r\nq1 Q0 c 4 1.0 r\nq2 Q0 y 1 3 r\nq2 Q0 x 2 2 r\n"
MEASURES = ["map", "P_5", "ndcg", "bpref", "recip_rank", "num_ret", "num_rel_ret"]


def score(tmp_path, qrels: bytes, run: bytes, stem: str = "f"):
    q, r = tmp_path / f"{stem}.qrels", tmp_path / f"{stem}.run"
    q.write_bytes(qrels)
    r.write_bytes(run)
    warnings: list[str] = []
    (res,), errors = evaluate_trec(q, [r], measures=MEASURES, warn=warnings.append)
    assert not errors
    return res, warnings


@pytest.mark.parametrize("where", ["qrels", "run", "both"])
def test_utf8_bom_does_not_change_the_first_topic(tmp_path, where):
    plain, _ = score(tmp_path, QRELS.encode(), RUN.encode(), "plain")
    bom = b"\xef\xbb\xbf"
    q = (bom if where in ("qrels", "both") else b"") + QRELS.encode()
    r = (bom if where in ("run", "both") else b"") + RUN.encode()
    marked, warnings = score(tmp_path, q, r, "bom")
    assert not warnings  # a BOM glued to "q1" would make it an unknown topic, with a warning
    assert list(marked.per_topic) == ["q1", "q2"] and marked.per_topic == plain.per_topic
    assert read_qrels(tmp_path / "bom.qrels").qid[0] == b"q1" and read_run(tmp_path / "bom.run").qid[0] == b"q1"


@pytest.mark.parametrize("codec", ["utf-16", "utf-16-le", "utf-16-be"])
def test_utf16_with_bom_is_read_as_its_text(tmp_path, codec):
    plain, _ = score(tmp_path, QRELS.encode(), RUN.encode(), "plain")
    mark = {"utf-16": b"", "utf-16-le": b"\xff\xfe", "utf-16-be": b"\xfe\xff"}[codec]
    wide, warnings = score(tmp_path, mark + QRELS.encode(codec), mark + RUN.encode(codec), "wide")
    assert not warnings and wide.per_topic == plain.per_topic and wide.run_id == "r"


def test_utf16_gzip_and_non_ascii_ids(tmp_path):
    q = "t\u00e9 0 d\u00f6c 1\n".encode("utf-16")
    r = "t\u00e9 Q0 d\u00f6c 1 1.0 r\u00fcn\n".encode("utf-16")
    res, _ = score(tmp_path, q, gzip.compress(r))
    assert res.run_id == "r\u00fcn" and res.per_topic["t\u00e9"]["map"] == 1.0


def test_bad_utf16_is_an_error_with_its_line(tmp_path):
    bad = b"\xff\xfe" + "q1 0 a 1\nq1 0 b 1\n".encode("utf-16-le") + b"\x00\xdc" + "x 0 c 1\n".encode("utf-16-le")
    p = tmp_path / "bad.qrels"
    p.write_bytes(bad)
    with pytest.raises(InputError) as e:
        read_qrels(p)
    assert "UTF-16" in e.value.message and e.value.file == str(p) and e.value.line == 3


def test_runs_and_qrels_from_standard_input(tmp_path, monkeypatch):
    q = tmp_path / "q.txt"
    q.write_text(QRELS)
    r = tmp_path / "r.txt"
    r.write_text(RUN)
    (want,), _ = evaluate_trec(q, [r], measures=MEASURES, warn=lambda m: None)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"\xef\xbb\xbf" + RUN.encode())))
    (got,), errors = evaluate_trec(q, ["-"], measures=MEASURES, warn=lambda m: None)
    assert not errors and got.per_topic == want.per_topic and got.source == "<stdin>"
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(RUN.encode())))
    run = read_run("-")
    assert run.source == "<stdin>" and run.docno.tolist()[:2] == [b"a", b"b"]


def long_workload(long_len: int, rows: int = 400):
    """Qrels and run where one docno is LONG_LEN bytes: it is relevant, ties with a short docno, and is
    also repeated (a duplicate)."""
    long_doc = "L" + "x" * (long_len - 2) + "z"
    q = [f"q1 0 {long_doc} 2", "q1 0 M1 1", "q1 0 A0 0"] + [f"q2 0 D{i} {i % 3}" for i in range(0, rows, 7)]
    r = ["q1 Q0 M1 1 5.0 r", f"q1 Q0 {long_doc} 2 5.0 r", "q1 Q0 A0 3 4.0 r", f"q1 Q0 {long_doc} 4 1.0 r"]
    r += [f"q2 Q0 D{i} {i + 1} {(i * 37) % 11}.5 r" for i in range(rows)]
    return long_doc, ("\n".join(q) + "\n").encode(), ("\n".join(r) + "\n").encode()


def test_a_very_long_docno_is_not_widened_to_every_row(tmp_path, monkeypatch):
    monkeypatch.setattr(trec_reader, "_WIDE_FLOOR", 0)  # the rule at a test's scale: width x rows > 4 x text
    long_doc, q, r = long_workload(20_000)
    res, warnings = score(tmp_path, q, r, "long")
    run = read_run(tmp_path / "long.run")
    assert run.docno.dtype == object and run.docno[1] == long_doc.encode()  # not a 20,000-byte S column
    assert read_qrels(tmp_path / "long.qrels").docno.dtype == object
    assert run.qid.dtype.kind == "S" and run.qid.dtype.itemsize == 8  # short columns keep the fast layout
    # q1 in trec_eval order: score 5.0 ties, docno descending: M1 (rel 1), then the long one (rel 2), A0 (0)
    assert res.per_topic["q1"]["num_ret"] == 3 and res.per_topic["q1"]["num_rel_ret"] == 2
    assert res.per_topic["q1"]["map"] == pytest.approx(1.0, abs=1e-12) and res.per_topic["q1"]["recip_rank"] == 1.0
    assert any("1 duplicate" in w for w in warnings)


@pytest.mark.parametrize("long_len", [30, 20_000])
def test_long_docno_scores_as_the_fixed_width_path(tmp_path, monkeypatch, long_len):
    """The object-array path and the S path give the same numbers (the S path forced by a huge budget)."""
    _, q, r = long_workload(long_len)
    monkeypatch.setattr(trec_reader, "_WIDE_FLOOR", 0)
    assert read_run(_write(tmp_path, r.decode())).docno.dtype == (object if long_len > 1000 else "S32")
    fast, _ = score(tmp_path, q, r, "a")
    monkeypatch.setattr(trec_reader, "_WIDE_FLOOR", 1 << 40)
    assert read_run(tmp_path / "a.run").docno.dtype.kind == "S"
    wide, _ = score(tmp_path, q, r, "b")
    assert fast.per_topic == wide.per_topic and fast.average == wide.average
    monkeypatch.setattr(trec_reader, "_WIDE_FLOOR", 0)  # every column as objects, qids and tags too
    monkeypatch.setattr(trec_reader, "_WIDE_FACTOR", 0)
    assert read_run(tmp_path / "a.run").qid.dtype == object
    objects, _ = score(tmp_path, q, r, "c")
    assert objects.per_topic == wide.per_topic and objects.average == wide.average


def test_long_fields_keep_error_reporting(tmp_path, monkeypatch):
    monkeypatch.setattr(trec_reader, "_WIDE_FLOOR", 0)
    monkeypatch.setattr(trec_reader, "_WIDE_FACTOR", 0)
    p = tmp_path / "r.txt"
    p.write_text("q1 Q0 a 1 1.0 r\nq1 Q0 b 2 high r\n")
    with pytest.raises(InputError) as e:
        read_run(p)
    assert e.value.line == 2 and "bad score" in e.value.message
    p.write_text("q1 0 a 1\nq1 0 b x\n")
    with pytest.raises(InputError) as e:
        read_qrels(p)
    assert e.value.line == 2 and "bad relevance value" in e.value.message
    p.write_text("q1 0 a 1\nq1 0 a 2\n")
    with pytest.raises(InputError) as e:
        read_qrels(p)
    assert e.value.line == 2 and "duplicate judgement" in e.value.message
    assert np.array_equal(read_run(_write(tmp_path, RUN)).score, [2.0, 2.0, 1.5, 1.0, 3.0, 2.0])


def _write(tmp_path, text):
    p = tmp_path / "ok.txt"
    p.write_text(text)
    return p


def test_tabs_carriage_returns_and_control_bytes(tmp_path):
    """Tabs, CR LF, vertical tab and form feed separate fields; other control bytes belong to the field."""
    plain, _ = score(tmp_path, QRELS.encode(), RUN.encode(), "plain")
    q = QRELS.replace(" ", "\t").replace("\n", "\r\n").encode()
    r = RUN.replace(" Q0 ", "\x0bQ0\x0c").replace("\n", "\r\n").encode()
    mixed, warnings = score(tmp_path, q, r, "mixed")
    assert not warnings and mixed.per_topic == plain.per_topic
    p = tmp_path / "ctl.txt"
    p.write_bytes(b"q1 Q0 a\x01b 1 1.0 r\nq1 Q0 c 2 0.5 r\n")
    assert read_run(p).docno.tolist() == [b"a\x01b", b"c"]


@pytest.mark.parametrize(
    "text, lines",
    [
        ("q1 Q0 a 1 1 r\nq1 Q0 b 2 1 r", [1, 2]),  # no newline at the end
        ("q1 Q0 a 1 1 r\n\nq1 Q0 b 2 1 r\n", [1, 3]),
        ("\nq1 Q0 a 1 1 r\nq1 Q0 b 2 1 r\n\n", [2, 3]),
        ("q1 Q0 a 1 1 r \nq1 Q0 b 2 1 r\n", [1, 2]),  # a blank after the last field
    ],
)
def test_record_lines(tmp_path, text, lines):
    p = _write(tmp_path, text)
    assert read_run(p).line.tolist() == lines


@pytest.mark.parametrize(
    "text, line, found",
    [
        ("q1 Q0 a 1 1 r q1 Q0 b 2 1 r\n", 1, 12),  # two records on one line
        ("q1 Q0 a 1 1 r\nq1 Q0 b\n2 1 r\n", 2, 3),  # one record over two lines
        ("q1 Q0 a 1 1 r\nq1 Q0 b\n2 1 r", 2, 3),
    ],
)
def test_records_must_be_one_a_line(tmp_path, text, line, found):
    with pytest.raises(InputError) as e:
        read_run(_write(tmp_path, text))
    assert e.value.line == line and f"found {found}" in e.value.message
