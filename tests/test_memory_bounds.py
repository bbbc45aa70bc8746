"""Memory and faults (issue 30): compressed bombs and long lines in every reader, running out of memory,
a collection document that cannot be used, and a symbolic link loop under a glob (docs/formats.md §1.4-§1.6).

Bombs are made a block at a time (the test holds a block, never what the bomb expands to); the
in-process tests use the real bounds (16 MiB, 100 times) with bombs of a few tens of MB, or lower
bounds monkeypatched where a test is about the rule itself.  The subprocess tests run under
``ulimit -v``: a real 3 GB bomb among the runs of a config, and commands that run out of memory.
"""

from __future__ import annotations

import gzip
import io
import os
import shutil
import struct
import subprocess
import sys
import zlib
from pathlib import Path

import pytest
from click.testing import CliRunner

import inexeval.readers as bounds
from inexeval.cli.command import main
from inexeval.config import load_config
from inexeval.errors import InputError
from inexeval.interrupts import OUT_OF_MEMORY, signals_end_the_command
from test_fuzz import ASSESSMENTS, RUN_TEXT, RUN_XML

pytestmark = pytest.mark.slow  # ulimit -v, gzip bombs up to 3 GB: tens of seconds

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "sample_data"
LINUX = sys.platform.startswith("linux")
BOMB_TEXT = "gzip data expands more than 100 times beyond 16 MiB (a decompression bomb?); not read (docs/formats.md §1.6)"


def bomb(path: Path, size: int, unit: bytes = b"\n", head: bytes = b"", level: int = 1) -> Path:
    """A valid gzip file: HEAD, then SIZE bytes of UNIT repeated, compressed a block (1 MiB) at a time."""
    block = unit * ((1 << 20) // len(unit))
    c = zlib.compressobj(level, zlib.DEFLATED, 31)
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "wb") as f:
        f.write(c.compress(head))
        left = size
        while left > 0:
            f.write(c.compress(block[:min(left, len(block))]))
            left -= len(block)
        f.write(c.flush())
    return path


def big_bomb(path: Path, size: int, unit: bytes = b"\n") -> Path:
    """A valid gzip file of SIZE bytes of UNIT (multi-GB in a second or two): one deflate block of
    16 MiB, compressed once and repeated (a full flush makes each copy stand alone), the CRC computed."""
    block = unit * ((16 << 20) // len(unit))
    c = zlib.compressobj(9, zlib.DEFLATED, -15)
    piece = c.compress(block) + c.flush(zlib.Z_FULL_FLUSH)
    n, rest = divmod(size, len(block))
    crc = 0
    with open(path, "wb") as f:
        f.write(b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x02\xff")
        for _ in range(n):
            f.write(piece)
            crc = zlib.crc32(block, crc)
        end = zlib.compressobj(9, zlib.DEFLATED, -15)
        f.write(end.compress(block[:rest]) + end.flush())
        f.write(struct.pack("<II", zlib.crc32(block[:rest], crc), size & 0xFFFFFFFF))
    return path


def _write(path: Path, data: bytes | str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data.encode() if isinstance(data, str) else data)
    return path


def _cli(*args):
    res = CliRunner().invoke(main, [str(a) for a in args])
    assert res.exception is None or isinstance(res.exception, SystemExit), res.exception
    assert "Traceback" not in res.stdout + res.stderr
    return res.exit_code, res.stdout, res.stderr


def _errors(err: str) -> list[str]:
    return [ln for ln in err.splitlines() if ln.startswith("inexeval: error: ")]


def _summary(results: Path, task: str) -> dict[str, str]:
    """run -> its line of summary.tsv (the run's averages)."""
    lines = (results / task / "summary.tsv").read_text().splitlines()[1:]
    return {ln.split("\t")[0]: ln for ln in lines}


# --------------------------------------------------------------------------- the bounds


def test_the_bounds_are_in_one_place_and_documented():
    assert (bounds.EXPANSION_FREE, bounds.MAX_EXPANSION_RATIO, bounds.MAX_LINE_BYTES) == (16 << 20, 100, 16 << 20)
    doc = (ROOT / "docs" / "formats.md").read_text()
    section = doc[doc.index("### 1.6 Compressed input and limits"):doc.index("## 8. TREC qrels and runs")]
    words = " ".join(section.split())
    assert "expand to 16 MiB whatever its ratio" in words and "at most 100 times the compressed bytes" in words
    assert f"`FILE: {BOMB_TEXT}`" in words and "`FILE:LINE: line longer than 16 MiB; not read" in words
    assert f"`{OUT_OF_MEMORY}`" in words


def test_bounded_content_reads_gzip_as_gzip_does(tmp_path):
    data = b"401 Q0 d1 1 2.5 tag\n" * 50_000
    one = gzip.compress(data)
    two = one + gzip.compress(b"402 Q0 d2 1 1 tag\n") + b"\0\0\0"  # two members and zero padding
    assert bounds.bounded_content(one, "x", lines=True) == data
    assert bounds.bounded_content(io.BytesIO(two), "x", lines=True) == gzip.decompress(two)
    f = _write(tmp_path / "plain.txt", data)
    with open(f, "rb") as fh:
        assert bounds.bounded_content(fh, "x", lines=True) == data
    for bad in (one[:-5], one + b"junk", one[:20]):
        with pytest.raises(Exception) as reference:
            gzip.decompress(bad)
        with pytest.raises(InputError) as ours:
            bounds.bounded_content(bad, "x.gz")
        assert str(ours.value) == f"x.gz: bad gzip data: {reference.value}"


def test_the_expansion_rule_is_a_ratio_of_what_was_read_beyond_a_free_size(monkeypatch):
    monkeypatch.setattr(bounds, "EXPANSION_FREE", 1 << 20)
    # anything up to the free size, whatever its ratio
    assert len(bounds.bounded_content(gzip.compress(b"\n" * (1 << 20)), "x")) == 1 << 20
    # beyond it: at most 100 times what was read (hex digits of random bytes: about 2 times)
    text = os.urandom(3 << 20).hex().encode()
    assert bounds.bounded_content(gzip.compress(text), "x") == text
    with pytest.raises(bounds.InputTooLarge) as info:
        bounds.bounded_content(gzip.compress(b"\n" * (3 << 20)), "b.gz")
    assert str(info.value) == ("b.gz: gzip data expands more than 100 times beyond 1 MiB (a decompression "
                               "bomb?); not read (docs/formats.md §1.6)")
    monkeypatch.setattr(bounds, "MAX_EXPANSION_RATIO", 1)  # the ratio is the constant's
    with pytest.raises(bounds.InputTooLarge, match="expands more than 1 times beyond 1 MiB"):
        bounds.bounded_content(gzip.compress(text), "x")


def test_a_bomb_is_given_up_as_soon_as_it_passes_the_bound(tmp_path):
    import tracemalloc

    path = big_bomb(tmp_path / "b.gz", 1 << 30)  # 1 GiB of blank lines: 1 MB compressed
    tracemalloc.start()
    try:
        with pytest.raises(bounds.InputTooLarge), open(path, "rb") as fh:
            bounds.bounded_content(fh, str(path), lines=True)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert 16 << 20 < peak < 40 << 20  # what was read up to the bound, not the 1 GiB


def test_line_bound_names_the_line_plain_and_gzip(monkeypatch):
    monkeypatch.setattr(bounds, "MAX_LINE_BYTES", 10)
    for gz in (False, True):
        def read(text: bytes):
            return bounds.bounded_content(gzip.compress(text) if gz else text, "t", lines=True)

        assert read(b"0123456789\n0123456789") == b"0123456789\n0123456789"  # 10 bytes: at the bound
        assert read(b"\n" * 100) == b"\n" * 100  # blank lines are legal
        for text, line in ((b"0123456789\n01234567890\n", 2), (b"\n\n\n012345678901", 4), (b"\n" * 25 + b"x" * 25, 26)):
            with pytest.raises(bounds.InputTooLarge) as info:
                read(text)
            assert str(info.value) == f"t:{line}: line longer than 10 bytes; not read (docs/formats.md §1.6)"


# --------------------------------------------------------------------------- TREC: config, validate, drop-in


def _trec(tmp_path: Path, runs: str = "runs/") -> Path:
    _write(tmp_path / "qrels.txt", (SAMPLE / "trec" / "qrels.txt").read_bytes())
    for p in (SAMPLE / "trec" / "runs").iterdir():
        _write(tmp_path / "runs" / p.name, p.read_bytes())
    return _write(tmp_path / "t.prop", f"TASK: trec\nASSESSMENTS_DIR: qrels.txt\nSUBMISSIONRUNS_DIR: {runs}\n"
                                       "RESULTS_DIR: results\n")


def test_trec_bomb_among_the_runs_is_skipped_and_the_others_scored(tmp_path):
    cfg = _trec(tmp_path)
    code, _, err = _cli("-config", cfg, "-q")
    assert code == 0
    clean = _summary(tmp_path / "results", "trec")
    path = bomb(tmp_path / "runs" / "bomb.gz", 40 << 20)
    code, out, err = _cli("-config", cfg, "-q")
    assert code == 1
    assert _errors(err) == [f"inexeval: error: {path}: {BOMB_TEXT}"]
    assert _summary(tmp_path / "results", "trec") == clean and set(clean) == {"good", "medium", "poor"}
    assert [ln.split()[0] for ln in out.splitlines() if " all " in ln] == ["good", "medium", "poor"]


def test_trec_qrels_bomb_stops_the_evaluation_with_its_name(tmp_path):
    cfg = _trec(tmp_path)
    path = bomb(tmp_path / "qrels.gz", 40 << 20)
    cfg.write_text(cfg.read_text().replace("qrels.txt", "qrels.gz"))
    code, out, err = _cli("-config", cfg, "-q")
    assert code == 1 and out == ""
    assert _errors(err) == [f"inexeval: error: {path}: {BOMB_TEXT}"]


def test_validate_reports_a_trec_bomb_and_a_long_line(tmp_path, monkeypatch):
    _trec(tmp_path)
    b = bomb(tmp_path / "runs" / "bomb.gz", 40 << 20)
    code, out, _ = _cli("validate", "--task", "trec", b, tmp_path / "runs" / "good.txt")
    assert code == 1
    assert f"{b}: malformed: {BOMB_TEXT}" in out.splitlines()
    assert any(ln.startswith(f"{tmp_path / 'runs' / 'good.txt'}: VALID") for ln in out.splitlines())
    monkeypatch.setattr(bounds, "MAX_LINE_BYTES", 1000)
    long = _write(tmp_path / "long.txt", b"401 Q0 d1 1 2 t\n401 Q0 d2 2 1 t\n" + b"x" * 1001)
    code, out, _ = _cli("validate", "--task", "trec", long)
    assert code == 1 and f"{long}:3: malformed: line longer than 1,000 bytes; not read (docs/formats.md §1.6)" \
        in out.splitlines()


def _trec_eval(*argv) -> tuple[int, bytes, str]:
    from inexeval.dropins.trec_eval.cli import main as trec_eval

    out, err = io.BytesIO(), io.StringIO()
    status = trec_eval([str(a) for a in argv], out, err)
    return status, out.getvalue(), err.getvalue()


def test_trec_eval_drop_in_refuses_a_bomb_with_one_line_and_status_2(tmp_path, monkeypatch):
    _trec(tmp_path)
    qrels, good = tmp_path / "qrels.txt", tmp_path / "runs" / "good.txt"
    b = bomb(tmp_path / "bomb.gz", 40 << 20)
    assert _trec_eval(qrels, b) == (2, b"", f"trec_eval.get_results: Cannot read results file '{b}': {BOMB_TEXT}\n")
    assert _trec_eval(b, good) == (2, b"", f"trec_eval.get_qrels: Cannot read qrels file '{b}': {BOMB_TEXT}\n")
    monkeypatch.setattr(bounds, "MAX_LINE_BYTES", 1000)
    long = _write(tmp_path / "long.gz", gzip.compress(b"401 Q0 d1 1 2 t\n" + b"7" * 5000))
    assert _trec_eval(qrels, long) == (2, b"", f"trec_eval.get_results: Cannot read results file '{long}': line 2: "
                                               "line longer than 1,000 bytes; not read (docs/formats.md §1.6)\n")
    status, out, err = _trec_eval(qrels, good)  # within the bounds: as before
    assert status == 0 and b"map" in out and err == ""


def test_trec_long_line_in_a_run_and_the_qrels_of_a_config(tmp_path, monkeypatch):
    monkeypatch.setattr(bounds, "MAX_LINE_BYTES", 1000)
    cfg = _trec(tmp_path)
    long = _write(tmp_path / "runs" / "long.txt", b"401 Q0 d1 1 2 t\n" * 2 + b"x" * 1001 + b"\n")
    code, _, err = _cli("-config", cfg, "-q")
    assert code == 1
    assert _errors(err) == [f"inexeval: error: {long}:3: line longer than 1,000 bytes; not read (docs/formats.md §1.6)"]
    long.unlink()
    _write(tmp_path / "qrels.txt", b"401 0 d 1\n" + b" " * 2000)  # white space only: still a line too long
    code, _, err = _cli("-config", cfg, "-q")
    assert code == 1
    assert _errors(err) == [f"inexeval: error: {tmp_path / 'qrels.txt'}:2: line longer than 1,000 bytes; not read "
                            "(docs/formats.md §1.6)"]


def test_a_line_of_more_than_16_mib_without_newline_is_refused_by_the_real_bound(tmp_path):
    cfg = _trec(tmp_path)
    long = tmp_path / "runs" / "long.txt"
    with open(long, "wb") as f:
        f.write(b"401 Q0 d1 1 2 t\n")
        f.write(b"y" * ((16 << 20) + 1))
    code, out, err = _cli("-config", cfg, "-q")
    assert code == 1 and "good" in out
    assert _errors(err) == [f"inexeval: error: {long}:2: line longer than 16 MiB; not read (docs/formats.md §1.6)"]


def test_blank_lines_stay_legal_and_a_large_real_file_passes(tmp_path, monkeypatch):
    monkeypatch.setattr(bounds, "EXPANSION_FREE", 1 << 20)  # (a real run past it: 3 MB, not 20)
    cfg = _trec(tmp_path)
    code, _, _ = _cli("-config", cfg, "-q")
    clean = _summary(tmp_path / "results", "trec")
    good = (tmp_path / "runs" / "good.txt").read_bytes()
    # blank lines between the records, 0.9 MiB of them compressed (ratio ~1000, under the free size)
    (tmp_path / "runs" / "good.txt").unlink()
    _write(tmp_path / "runs" / "good.gz", gzip.compress(good.replace(b"\n", b"\n" + b"\n" * 12_000, 75)))
    # a real run compressed 5 to 10 times: beyond the free size, within the ratio
    lines = b"".join(b"999 Q0 D%d %d %d.25 big\n" % (i, i, 10**7 - i) for i in range(100_000))
    assert len(lines) > 2 << 20
    _write(tmp_path / "runs" / "big.gz", gzip.compress(lines, 1))
    code, _, err = _cli("-config", cfg, "-q")
    assert code == 0, err
    scored = _summary(tmp_path / "results", "trec")
    assert {k: scored[k] for k in clean} == clean and "big" in scored


# --------------------------------------------------------------------------- QA, FOL, INEX


def _qa(tmp_path: Path) -> Path:
    shutil.copytree(SAMPLE / "qa", tmp_path / "qa")
    return _write(tmp_path / "qa.prop", "TASK: qa\nASSESSMENTS_DIR: qa/answers.tsv\nSUBMISSIONRUNS_DIR: qa/runs/\n"
                                        "RESULTS_DIR: results\n")


def test_qa_run_and_answer_file_bombs(tmp_path, monkeypatch):
    cfg = _qa(tmp_path)
    code, _, _ = _cli("-config", cfg, "-q")
    assert code == 0
    clean = _summary(tmp_path / "results", "qa")
    b = bomb(tmp_path / "qa" / "runs" / "bomb.tsv.gz", 40 << 20, head=b"QA-001\t1\tLennon\tB\n")
    code, _, err = _cli("-config", cfg, "-q")
    assert code == 1 and _errors(err) == [f"inexeval: error: {b}: {BOMB_TEXT}"]
    assert _summary(tmp_path / "results", "qa") == clean
    b.unlink()
    answers = bomb(tmp_path / "qa" / "answers.gz", 40 << 20, head=(SAMPLE / "qa" / "answers.tsv").read_bytes())
    cfg.write_text(cfg.read_text().replace("qa/answers.tsv", "qa/answers.gz"))
    code, out, err = _cli("-config", cfg, "-q")
    assert code == 1 and f"{answers}: {BOMB_TEXT}" in err
    monkeypatch.setattr(bounds, "MAX_LINE_BYTES", 1000)
    cfg.write_text(cfg.read_text().replace("qa/answers.gz", "qa/answers.tsv"))
    long = _write(tmp_path / "qa" / "runs" / "long.tsv", "QA-001\t1\tLennon\tL\nQA-001\t2\t" + "x" * 2000 + "\tL\n")
    code, _, err = _cli("-config", cfg, "-q")
    assert code == 1
    assert _errors(err) == [f"inexeval: error: {long}:2: line longer than 1,000 bytes; not read (docs/formats.md §1.6)"]


def _fol(tmp_path: Path) -> Path:
    shutil.copytree(SAMPLE / "inex2009-2010" / "runs" / "original", tmp_path / "runs")
    shutil.copy(SAMPLE / "inex2009-2010" / "qrels.txt.gz", tmp_path / "qrels.txt.gz")
    return _write(tmp_path / "f.prop", "TASK: FOL.Focused\nASSESSMENTS_DIR: qrels.txt.gz\nSUBMISSIONRUNS_DIR: runs/\n"
                                       "RESULTS_DIR: results\n")


def test_fol_run_and_qrels_bombs_config_path(tmp_path):
    cfg = _fol(tmp_path)
    code, _, _ = _cli("-config", cfg, "-q")
    assert code == 0
    clean = _summary(tmp_path / "results", "FOL.Focused")
    b = bomb(tmp_path / "runs" / "bomb.run.gz", 40 << 20, head=b"2009001 Q0 851 1 1 B 10 20\n")
    code, _, err = _cli("-config", cfg, "-q")
    assert code == 1 and _errors(err) == [f"inexeval: error: {b}: {BOMB_TEXT}"]
    assert _summary(tmp_path / "results", "FOL.Focused") == clean
    b.unlink()
    q = bomb(tmp_path / "bombq.gz", 40 << 20, head=gzip.decompress((tmp_path / "qrels.txt.gz").read_bytes()))
    cfg.write_text(cfg.read_text().replace("qrels.txt.gz", "bombq.gz"))
    code, out, err = _cli("-config", cfg, "-q")
    assert code == 1 and out == "" and f"{q}: {BOMB_TEXT}" in err


def test_inex_eval_drop_in_skips_a_bomb_run_and_stops_at_a_bomb_qrels(tmp_path, monkeypatch):
    from inexeval.dropins.inex_eval import main as inex_eval

    _fol(tmp_path)
    qrels, run = tmp_path / "qrels.txt.gz", tmp_path / "runs" / "bert_inex_converted.run.gz"
    b = bomb(tmp_path / "bomb.run.gz", 40 << 20)
    out, err = io.StringIO(), io.StringIO()
    assert inex_eval(["-f", str(qrels), str(b), str(run)], out, err) == 1
    assert err.getvalue() == f"inexeval: error: {b}: {BOMB_TEXT}\n"
    alone = io.StringIO()
    assert inex_eval(["-f", str(qrels), str(run)], alone, io.StringIO()) == 0
    assert out.getvalue() == alone.getvalue() != ""  # the other run: as without the bomb
    out, err = io.StringIO(), io.StringIO()
    assert inex_eval(["-f", str(b), str(run)], out, err) == 1
    assert out.getvalue() == "" and err.getvalue() == f"inexeval: error: {b}: {BOMB_TEXT}\n"
    monkeypatch.setattr(bounds, "MAX_LINE_BYTES", 1000)
    long = _write(tmp_path / "long.run", "2009001 Q0 851 1 1 L 10 20\r\n" + "2" * 3000)  # CR LF: the tool's lines
    err = io.StringIO()
    assert inex_eval(["-f", str(qrels), str(long)], io.StringIO(), err) == 1
    assert err.getvalue() == (f"inexeval: error: {long}:2: line longer than 1,000 bytes; not read "
                              "(docs/formats.md §1.6)\n")


INEX_CONFIG = ("TASK: CO.Focussed\nMETRICS: nxCG\nQUANT_FUNCTIONS: gen\nOVERLAP: on\nDCV: 1, 2\n"
               "ASSESSMENTS_DIR: assess\nSUBMISSIONRUNS_DIR: runs\nRESULTS_DIR: out\n")


def _inex(tmp_path: Path) -> Path:
    _write(tmp_path / "assess" / "pool-11.xml", ASSESSMENTS)
    _write(tmp_path / "runs" / "a.xml", RUN_XML)
    _write(tmp_path / "runs" / "b.txt", RUN_TEXT)
    return _write(tmp_path / "c.prop", INEX_CONFIG)


def test_inex_xml_and_text_run_bombs_and_an_assessment_bomb(tmp_path):
    cfg = _inex(tmp_path)
    code, _, _ = _cli("-config", cfg, "-q")
    assert code == 0
    clean = _summary(tmp_path / "out", "CO.Focussed")
    xml = bomb(tmp_path / "runs" / "x.xml.gz", 40 << 20, unit=b"<!---->",  # (spaces: lxml's text limit first)
               head=b'<inex-submission participant-id="1" run-id="X" task="CO.Focussed">')
    text = bomb(tmp_path / "runs" / "t.txt.gz", 40 << 20, head=RUN_TEXT.splitlines(keepends=True)[0])
    nul = bomb(tmp_path / "runs" / "z.xml.gz", 40 << 20, unit=b"\0")
    code, _, err = _cli("-config", cfg, "-q")
    assert code == 1
    assert sorted(_errors(err)) == sorted(f"inexeval: error: {p}: {BOMB_TEXT}" for p in (xml, text, nul))
    assert _summary(tmp_path / "out", "CO.Focussed") == clean
    for p in (xml, text, nul):
        p.unlink()
    pool = bomb(tmp_path / "assess" / "pool-12.xml.gz", 40 << 20, unit=b"<!---->",
                head=ASSESSMENTS.replace(b'pool="11" topic="1"', b'pool="12" topic="2"').split(b"<inex_topic")[0])
    code, _, err = _cli("-config", cfg, "-q")
    assert code == 1 and f"{pool}: {BOMB_TEXT}" in err
    assert _summary(tmp_path / "out", "CO.Focussed") == clean


def test_inex_text_run_lines_are_bounded_xml_is_not(tmp_path, monkeypatch):
    from inexeval.readers.runs import read_run

    monkeypatch.setattr(bounds, "MAX_LINE_BYTES", 300)
    one_line = RUN_XML.replace(b"\n", b" ")
    assert len(one_line) > 300
    xml = _write(tmp_path / "one.xml", one_line)
    assert read_run(xml).topics == read_run(_write(tmp_path / "many.xml", RUN_XML)).topics
    first = RUN_TEXT.splitlines(keepends=True)[0]
    for name, data in (("long.txt", first + b"\n" * 5 + b"1 Q0 f9 2 1 textrun /" + b"a" * 400),
                       ("long.txt.gz", gzip.compress(first + b"\n" * 5 + b"1 Q0 f9 2 1 textrun /" + b"a" * 400))):
        path = _write(tmp_path / name, data)
        with pytest.raises(InputError) as info:
            read_run(path)
        assert str(info.value) == f"{path}:7: line longer than 300 bytes; not read (docs/formats.md §1.6)"


def test_a_text_run_padded_with_millions_of_blank_lines_reads_fast_with_its_line_numbers(tmp_path):
    import time

    from inexeval.readers.runs import read_run

    lines = RUN_TEXT.splitlines(keepends=True)
    path = _write(tmp_path / "pad.txt", lines[0] + b" \n\t\n" * 4_000_000 + lines[1] + b"1 Q0 f3 9 x textrun /a[1]\n")
    start = time.monotonic()
    with pytest.raises(InputError) as info:
        read_run(path)
    assert time.monotonic() - start < 5  # a line at a time: about 7 s
    assert str(info.value) == f"{path}:8000003: score 'x' is not a number"


# --------------------------------------------------------------------------- running out of memory


def test_out_of_memory_is_one_line_and_status_2_never_an_interruption(capsys):
    for exc in (MemoryError(), OSError(12, "Cannot allocate memory")):
        with pytest.raises(SystemExit) as info, signals_end_the_command():
            raise exc
        assert info.value.code == 2
        assert capsys.readouterr().err == OUT_OF_MEMORY + "\n"
    with pytest.raises(PermissionError), signals_end_the_command():
        raise PermissionError(13, "no")  # another OSError: not this one's to word


@pytest.mark.parametrize("command", ["", "validate", "compare", "assessments", "report", "init", "metrics"])
def test_every_command_out_of_memory_exits_2_with_one_line(tmp_path, monkeypatch, command):
    def no_memory(*_a, **_k):
        raise MemoryError

    if command:
        import click

        cmd = main.get_command(click.Context(main), command)
        monkeypatch.setattr(cmd, "callback", no_memory)
        cfg = _trec(tmp_path)
        args = {"validate": ["validate", "--task", "trec", tmp_path / "runs" / "good.txt"], "init": ["init", tmp_path / "i"],
                "metrics": ["metrics"], "report": ["report", "-config", cfg, "--html", tmp_path / "site"]}.get(
            command, [command, "-config", cfg])
    else:
        import inexeval.cli.command as command_module

        monkeypatch.setattr(command_module, "run_evaluation", no_memory)
        args = ["-config", _trec(tmp_path)]
    res = CliRunner().invoke(main, [str(a) for a in args])
    assert (res.exit_code, res.stderr) == (2, OUT_OF_MEMORY + "\n") and "Traceback" not in res.output


def test_a_worker_out_of_memory_is_a_memory_error_not_an_interruption():
    from inexeval import workers

    def score(i):
        if i == 3:
            raise MemoryError("big")
        return i

    with pytest.raises(MemoryError):
        list(workers.imap(score, list(range(6)), 2, 10))

    def dies(i):
        if i == 2:
            os._exit(workers.NO_MEMORY_STATUS)  # what a worker does when even the error cannot be sent
        return i

    with pytest.raises(MemoryError):
        list(workers.imap(dies, list(range(4)), 2, 10))


def test_read_ahead_that_cannot_get_its_memory_reads_nothing_ahead(monkeypatch):
    import mmap

    from inexeval import workers

    def no_map(*_a, **_k):
        raise OSError(12, "Cannot allocate memory")

    monkeypatch.setattr(mmap, "mmap", no_map)
    ahead = workers.ReadAhead(lambda p: p, ["a", "b"], 1 << 20)
    assert ahead.stop(wait=True) == {}


def test_every_command_starts_no_blas_thread(tmp_path):
    # OpenBLAS sends SIGINT when it cannot start a thread (under ulimit -v): read as Ctrl-C, status 130
    code = ("import os, sys\nsys.argv = ['inexeval', '--version']\nimport inexeval.launch as l\n"
            "try:\n    l.main()\nexcept SystemExit:\n    pass\nprint(os.environ.get('OPENBLAS_NUM_THREADS'))\n")
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=ROOT)
    assert out.stdout.splitlines()[-1] == "1"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env={**env, "OPENBLAS_NUM_THREADS": "3"}, cwd=ROOT)
    assert out.stdout.splitlines()[-1] == "3"  # the user's setting kept


def _limited(kb: int, *args, cwd: Path) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    line = " ".join(f"'{a}'" for a in (sys.executable, "-m", "inexeval", *map(str, args)))
    return subprocess.run(["bash", "-c", f"ulimit -v {kb} && exec {line}"], capture_output=True, text=True,
                          cwd=cwd, env={**env, "PYTHONPATH": str(ROOT)})


def _tree(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.mark.skipif(not LINUX, reason="ulimit -v")
def test_commands_that_run_out_of_memory_under_ulimit(tmp_path):
    cfg = _trec(tmp_path)
    code, _, _ = _cli("-config", cfg, "-q")
    assert code == 0
    before = _tree(tmp_path / "results")
    big = _write(tmp_path / "big.txt", b"401 Q0 DOC 1 1.5 tag\n" * 5_000_000)  # 105 MB: needs about 700 MB
    os.link(big, tmp_path / "runs" / "big.txt")
    fol = tmp_path / "big.run"
    with open(fol, "wb") as f:  # 200 MB in lines of 1 MB: read as text it needs twice that
        for _ in range(200):
            f.write(b"2009001 Q0 851 1 1 B 10 " + b"2" * (1 << 20) + b"\n")
    runs = [  # (every click command's way out: test_every_command_out_of_memory_exits_2_with_one_line)
        (500_000, "-config", cfg, "-q", "--jobs", "2"),  # a worker runs out of memory
        (500_000, "trec-eval", tmp_path / "qrels.txt", big),
        (350_000, "inex-eval", "-f", SAMPLE / "inex2009-2010" / "qrels.txt.gz", fol),
    ]
    for kb, *args in runs:
        res = _limited(kb, *args, cwd=tmp_path)
        assert (res.returncode, res.stderr.splitlines()[-1:]) == (2, [OUT_OF_MEMORY]), (args, res.stderr[-2000:])
        assert "Traceback" not in res.stderr and "interrupted" not in res.stderr
        assert _tree(tmp_path / "results") == before  # nothing written, nothing half-written


@pytest.mark.skipif(not LINUX, reason="ulimit -v")
def test_a_real_3_gb_bomb_among_the_runs_under_a_1_gb_limit(tmp_path):
    cfg = _trec(tmp_path)
    path = big_bomb(tmp_path / "runs" / "bomb.gz", 3_000_000_000)
    assert path.stat().st_size < 5_000_000
    res = _limited(1_000_000, "-config", cfg, "-q", cwd=tmp_path)
    assert res.returncode == 1, res.stderr[-2000:]
    assert _errors(res.stderr) == [f"inexeval: error: {path}: {BOMB_TEXT}"]
    assert [ln.split()[0] for ln in res.stdout.splitlines() if " all " in ln] == ["good", "medium", "poor"]
    res = _limited(1_000_000, "trec-eval", tmp_path / "qrels.txt", path, cwd=tmp_path)
    assert (res.returncode, res.stdout, res.stderr) == (
        2, "", f"trec_eval.get_results: Cannot read results file '{path}': {BOMB_TEXT}\n")


# --------------------------------------------------------------------------- the collection


def _incontext(tmp_path: Path, task: str, runs: str, extra: str = "") -> Path:
    shutil.copytree(SAMPLE / "inex2006", tmp_path / "d")
    return _write(tmp_path / "c.prop", f"TASK: {task}\nASSESSMENTS_DIR: d/assessments\nSUBMISSIONRUNS_DIR: d/runs/{runs}\n"
                                       f"COLLECTION_DIR: d/collection\nRESULTS_DIR: out\n{extra}")


def _declare_entity(doc: Path) -> None:
    text = doc.read_text()
    at = text.index("<article")
    doc.write_text(text[:at] + '<!DOCTYPE article [\n<!ENTITY x "y">]>\n' + text[at:])


def _per_topic(out: str) -> dict[tuple[str, str], str]:
    rows = [ln.split() for ln in out.splitlines() if ln.startswith("Bic") or ln.startswith("Ric")]
    return {(r[0], r[1]): " ".join(r[2:]) for r in rows}


def test_best_in_context_topic_whose_entry_point_document_declares_an_entity_is_left_out(tmp_path):
    cfg = _incontext(tmp_path, "BestInContext", "BestInContext", "BEP_A: 0.01, 1\nAVG_DOC_LENGTH: 1000\n")
    code, out, _ = _cli("-config", cfg, "-q")
    assert code == 0
    full = _per_topic(out)
    doc = tmp_path / "d" / "collection" / "2098313.xml"  # holds a best entry point of topic 294
    _declare_entity(doc)
    code, out, err = _cli("-config", cfg, "-q")
    assert code == 1
    assert _errors(err) == [f"inexeval: error: {doc}:3: document declares entities (refused for safety); topic 294 is "
                            "left out of the evaluation"]
    scored = _per_topic(out)
    assert {t for _, t in scored} == {"289", "290", "293", "all"}
    assert {k: v for k, v in scored.items() if k[1] != "all"} == {k: v for k, v in full.items()
                                                                  if k[1] not in ("294", "all")}
    # the averages are those of the other topics, as if TOPICS had named them
    cfg.write_text(cfg.read_text() + "TOPICS: 289, 290, 293\n")
    _, out, _ = _cli("-config", cfg, "-q")
    assert _per_topic(out) == scored


def test_best_in_context_entry_point_missing_from_its_document_leaves_out_its_topic_only(tmp_path):
    cfg = _incontext(tmp_path, "BestInContext", "BestInContext", "BEP_A: 1\nAVG_DOC_LENGTH: 1000\n")
    pool = tmp_path / "d" / "assessments" / "main" / "pool-1024.xml"  # topic 294
    text = pool.read_text()
    old = '<best-entry-point path="/article[1]/body[1]/section[2]/title[1]"/>'
    assert text.splitlines()[6] == '  <file collection="wikipedia" name="2098313">' and old in text.splitlines()[7]
    pool.write_text(text.replace(old, '<best-entry-point path="/article[1]/body[1]/section[9]/title[1]"/>'))
    code, out, err = _cli("-config", cfg, "-q")
    assert code == 1  # every run failed on topic 294 before
    assert _errors(err) == [f"inexeval: error: {pool}:7: best entry point /article[1]/body[1]/section[9]/title[1] "
                            "does not exist in document 2098313; topic 294 is left out of the evaluation"]
    assert {r for r, _ in _per_topic(out)} == {"BicGood", "BicPoor"}
    assert {t for _, t in _per_topic(out)} == {"289", "290", "293", "all"}


def test_relevant_in_context_loses_only_the_runs_that_need_the_document_and_names_them(tmp_path):
    cfg = _incontext(tmp_path, "RelevantInContext", "RelevantInContext", "DCV: 5\n")
    runs = tmp_path / "d" / "runs" / "RelevantInContext"
    good = runs / "RicGood.xml"
    text = good.read_text()
    import re

    clean = re.sub(r"\s*<result>\s*<file>2098313</file>.*?</result>", "", text, flags=re.S)
    assert "2098313" in text and "2098313" not in clean
    _write(runs / "RicClean.xml", clean.replace('run-id="RicGood"', 'run-id="RicClean"'))
    doc = tmp_path / "d" / "collection" / "2098313.xml"
    _declare_entity(doc)
    code, out, err = _cli("-config", cfg, "-q")
    assert code == 1
    assert _errors(err) == [
        f"inexeval: error: {runs / name}: run skipped: {doc}:3: document declares entities (refused for safety)"
        for name in ("RicGood.xml", "RicPoor.xml")]
    assert {r for r, _ in _per_topic(out)} == {"RicClean"}


# --------------------------------------------------------------------------- a symbolic link loop


def _loop_tree(tmp_path: Path) -> Path:
    cfg = _trec(tmp_path, "runs/**")
    (tmp_path / "runs" / "loop").symlink_to(".")
    (tmp_path / "runs" / "sub").mkdir()
    (tmp_path / "runs" / "sub" / "up").symlink_to("..")
    (tmp_path / "runs" / "alias.txt").symlink_to("good.txt")  # a link to a file listed: read once
    return cfg


@pytest.mark.parametrize("value", ["runs/**", "runs", "runs/*", "runs/**/*.txt"])
def test_a_symlink_loop_under_a_glob_reads_each_file_once_and_names_the_loop_once(tmp_path, value):
    cfg = _loop_tree(tmp_path)
    cfg.write_text(cfg.read_text().replace("runs/**", value))
    config = load_config(cfg)
    runs = tmp_path / "runs"
    assert [(f.path, f.problem) for f in config.runs] == [
        (runs / "good.txt", None),
        (runs / "loop", "a symbolic link to a directory that holds it (a loop, to .), not followed"),
        (runs / "medium.txt", None),
        (runs / "poor.txt", None),
        (runs / "sub" / "up", "a symbolic link to a directory that holds it (a loop, to ..), not followed"),
    ]
    code, out, err = _cli("-config", cfg, "-q")
    assert code == 1
    assert _errors(err) == [f"inexeval: error: {runs / 'loop'}: run not read: a symbolic link to a directory that holds "
                            "it (a loop, to .), not followed",
                            f"inexeval: error: {runs / 'sub' / 'up'}: run not read: a symbolic link to a directory "
                            "that holds it (a loop, to ..), not followed"]
    assert [ln.split()[0] for ln in out.splitlines() if " all " in ln] == ["good", "medium", "poor"]


def test_branching_loops_do_not_multiply(tmp_path):
    import time

    cfg = _trec(tmp_path, "runs/**")
    for name in "abcde":
        (tmp_path / "runs" / name).symlink_to(".")  # glob.glob would follow 5^k paths
    start = time.monotonic()
    config = load_config(cfg)
    assert time.monotonic() - start < 2
    assert [f.path.name for f in config.runs if f.problem is None] == ["good.txt", "medium.txt", "poor.txt"]
    assert [f.path.name for f in config.runs if f.problem is not None] == list("abcde")


def test_a_link_to_a_directory_outside_is_reported_not_followed_by_double_star(tmp_path):
    cfg = _trec(tmp_path, "runs/**/*.txt")
    other = tmp_path / "elsewhere"
    _write(other / "extra.txt", (tmp_path / "runs" / "good.txt").read_bytes())
    (tmp_path / "runs" / "ext").symlink_to(other)
    config = load_config(cfg)
    assert [(f.path.name, f.problem) for f in config.runs] == [
        ("ext", "a symbolic link to a directory, not followed"), ("good.txt", None), ("medium.txt", None),
        ("poor.txt", None)]
