"""Reading FOL qrels and runs as inex_eval 3.1 reads them; XML FOL runs (D4) and gzip score as their text twins."""

from __future__ import annotations

import gzip
import io
import random
import re
import sys

import pytest
from fol_helpers import random_fol_case, write

from inexeval.errors import InputError
from inexeval.measures.fol import FOL_TASKS, score_fol_run
from inexeval.readers.fol import (
    NON_JAVA_WHITESPACE,
    FolLine,
    FolOpenError,
    FolRunFile,
    java_int,
    read_fol_qrels,
    read_fol_run,
    split_fields,
    wrap_int,
)
from inexeval.writers.inex_eval import format_outcome


@pytest.mark.parametrize(("line", "fields"), [
    ("a b", ["a", "b"]),
    ("a  \t b", ["a", "b"]),
    (" a", ["", "a"]),
    ("\ta b", ["", "a", "b"]),
    ("a ", ["a"]),
    ("", [""]),
    ("  ", []),
    ("a\tb\x0bc\x0cd", ["a", "b", "c", "d"]),
    ("a\xa0b c", ["a\xa0b", "c"]),  # no-break space is not Java white space
    ("\xa0a b", ["\xa0a", "b"]),
    ("a\x1cb\u3000c d", ["a\x1cb\u3000c", "d"]),
    (" \xa0 ", ["", "\xa0"]),
])
def test_split_fields(line, fields):
    assert split_fields(line) == fields


def test_non_java_white_space_is_exactly_what_str_split_adds():
    python_ws = {chr(c) for c in range(sys.maxunicode + 1) if chr(c).isspace()}
    assert python_ws - set(" \t\n\x0b\x0c\r") == set(NON_JAVA_WHITESPACE)


@pytest.mark.parametrize(("text", "value"), [
    ("0", 0), ("+5", 5), ("-5", -5), ("007", 7), ("2147483647", 2147483647), ("-2147483648", -2147483648),
    ("2147483648", None), ("-2147483649", None), ("99999999999999999999", None), ("", None), ("-", None),
    ("+", None), ("1_0", None), (" 1", None), ("1.0", None), ("1e3", None), ("0x10", None),
    ("\u0661\u0662", 12),  # Arabic-Indic digits: Character.digit accepts them
    ("\u00b2", None),  # superscript two is not a decimal digit
    ("\U0001d7cf", None),  # a supplementary digit: two UTF-16 units, neither a digit for Java
])
def test_java_int(text, value):
    assert java_int(text) == value


def test_wrap_int():
    assert [wrap_int(v) for v in (0, 2**31 - 1, 2**31, -(2**31) - 1, 2**32 + 5)] == [
        0, 2**31 - 1, -(2**31), 2**31 - 1, 5]


# --------------------------------------------------------------------------- qrels


def test_qrels_duplicates_sorting_bep_and_topics(tmp_path):
    path = write(tmp_path / "q.txt", "\r\n".join([
        "T1 Q0 d1 100 1000 50 300:10 100:20",
        "T1 Q0 d1 40 9 70 100:5 50:1 2147483647:1",  # counted again, passages added, BEP replaced
        "T1 Q0 d2 0 500",
        "T1 Q0 d3 -5 10 7",  # 6 fields: nothing from field 6
        "T2 Q0 e1 0 10 0 0:5",
        "T3 Q0 f1 10 100",
    ]))  # CRLF, no final line end
    q = read_fol_qrels(path)
    assert list(q.topics) == ["T1", "T2", "T3"]
    t1 = q.topics["T1"]
    assert (t1.num_rel, t1.rel_size) == (2, 140)
    d1 = t1.judgements["d1"]
    assert (d1.rel_chars, d1.doc_length, d1.bep) == (100, 1000, 70)
    assert d1.passages == [(50, 1), (100, 20), (100, 5), (300, 10), (2147483647, 1)]  # equal offsets: file order
    assert d1.spans == [(50, 51), (100, 120), (100, 105), (300, 310), (2147483647, -(2**31))]
    assert (t1.judgements["d2"].bep, t1.judgements["d2"].passages) == (-1, [])
    assert (t1.judgements["d3"].rel_chars, t1.judgements["d3"].bep) == (-5, -1)
    assert (q.topics["T2"].num_rel, q.topics["T2"].judgements["e1"].passages) == (0, [(0, 5)])
    assert q.topics["T3"].judgements["f1"].passages == []


def test_qrels_gzip_stdin_and_odd_white_space(tmp_path, monkeypatch):
    text = "T\xa01 Q0 d1 10 100 0 0:10\n"
    plain = read_fol_qrels(write(tmp_path / "q.txt", text))
    assert list(plain.topics) == ["T\xa01"]
    packed = tmp_path / "q.gz"
    packed.write_bytes(gzip.compress(text.encode()))
    assert read_fol_qrels(packed).topics == plain.topics
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text.encode())))
    stdin = read_fol_qrels("-")
    assert (stdin.source, stdin.topics) == ("<stdin>", plain.topics)


def test_unreadable_files(tmp_path):
    with pytest.raises(FolOpenError) as info:
        read_fol_run(tmp_path / "none.txt")
    assert info.value.java_message == f"{tmp_path / 'none.txt'} (No such file or directory)"
    bad = tmp_path / "bad.gz"
    bad.write_bytes(b"\x1f\x8b\x08junk")
    with pytest.raises(InputError, match="bad gzip data"):
        read_fol_qrels(bad)


# --------------------------------------------------------------------------- runs


def test_run_lines_kept_raw(tmp_path):
    path = write(tmp_path / "r.txt", "A Q0 a 1 1 R 0 5\r\rB\tQ0 b 1 1 R X 0 9\n \n")
    run = read_fol_run(path)
    assert not run.xml and len(run) == 4
    assert run.lines == [FolLine(1, "A Q0 a 1 1 R 0 5", ["A", "Q0", "a", "1", "1", "R", "0", "5"]),
                         FolLine(2, "", [""]),
                         FolLine(3, "B\tQ0 b 1 1 R X 0 9", ["B", "Q0", "b", "1", "1", "R", "X", "0", "9"]),
                         FolLine(4, " ", [])]


def test_run_built_from_lines_scores_as_read(tmp_path):
    write(tmp_path / "q.txt", ["A Q0 a 10 100 0 0:10"])
    read = read_fol_run(write(tmp_path / "r.txt", ["A Q0 a 1 1 R 0 5", "A Q0 a 1 1 R 5 5"]))
    built = FolRunFile(read.source, read.lines)
    qrels = read_fol_qrels(tmp_path / "q.txt")
    assert score_fol_run(qrels, built, "f").all == score_fol_run(qrels, read, "f").all


XML_RUN = """<?xml version="1.0" encoding="UTF-8"?>
<!-- a comment -->
<inex-submission participant-id="4" run-id="IdealDoc" task="RelevantInContext" query="automatic" result-type="fol">
<topic topic-id="544">
  <result><file> 1000143 </file><rank>7</rank><rsv>0.5</rsv><fol offset="1205" length="3431"/></result>
  <result>
    <file>99</file>
    <fol offset="X" length="0"/>
  </result>
</topic>
<topic topic-id="545"><result><file>12</file><fol offset="-1" length="5"/></result></topic>
<topic topic-id="544"><result><file>3</file><rank>a b</rank><fol offset="0" length="1"/></result></topic>
</inex-submission>
"""


def test_xml_run_mapping(tmp_path):
    run = read_fol_run(write(tmp_path / "r.xml", XML_RUN))
    assert run.xml
    assert [(ln.line, ln.raw) for ln in run.lines] == [
        (5, "544 Q0 1000143 7 0.5 IdealDoc 1205 3431"),
        (6, "544 Q0 99 2 0 IdealDoc X 0"),
        (11, "545 Q0 12 1 0 IdealDoc -1 5"),
        (12, "544 Q0 3 1 0 IdealDoc 0 1"),  # a rank that is not one field is replaced by the position
    ]
    assert all(len(ln.fields) == 8 for ln in run.lines)


@pytest.mark.parametrize(("body", "message", "line"), [
    ('<topic topic-id="1"><result><file>a</file></result></topic>', "exactly one <fol> (found 0)", 3),
    ('<topic topic-id="1">\n<result><file>a</file><fol offset="1" length="2"/><fol offset="5" length="2"/>'
     "</result></topic>", "exactly one <fol> (found 2)", 4),
    ('<topic topic-id="1"><result><file>a</file><fol offset="1"/></result></topic>', "without offset or length", 3),
    ('<result><file>a</file><fol offset="1" length="2"/></result>', "outside a <topic>", 3),
    ('<topic><result><file>a</file><fol offset="1" length="2"/></result></topic>', "<topic> without topic-id", 3),
])
def test_xml_runs_without_text_equivalent(tmp_path, body, message, line):
    text = f'<?xml version="1.0"?>\n<inex-submission run-id="R">\n{body}\n</inex-submission>\n'
    with pytest.raises(InputError, match=re.escape(message)) as info:
        read_fol_run(write(tmp_path / "r.xml", text))
    assert info.value.line == line


def test_xml_refusals(tmp_path):
    with pytest.raises(InputError, match="no usable run-id"):
        read_fol_run(write(tmp_path / "a.xml", "<inex-submission><topic topic-id='1'/></inex-submission>"))
    with pytest.raises(InputError, match="not <inex-submission>"):
        read_fol_run(write(tmp_path / "b.xml", "<run run-id='R'/>"))
    with pytest.raises(InputError, match="entity declarations are not allowed"):
        read_fol_run(write(tmp_path / "c.xml", '<!DOCTYPE x [<!ENTITY e "boom">]>\n<inex-submission run-id="R">'
                                               "&e;</inex-submission>"))
    with pytest.raises(InputError, match="malformed XML"):
        read_fol_run(write(tmp_path / "d.xml", '<inex-submission run-id="R"><topic topic-id="1"></inex-submission>'))


# --------------------------------------------------------------------------- twins


def _xml(results) -> tuple[str, list[int]]:
    lines = ['<inex-submission participant-id="1" run-id="RID" task="x" query="automatic" result-type="fol">']
    where = []
    previous = None
    for topic, art, rank, rsv, offset, length in results:
        if topic != previous:
            if previous is not None:
                lines.append("</topic>")
            lines.append(f'<topic topic-id="{topic}">')
            previous = topic
        lines.append(f'<result><file>{art}</file><rank>{rank}</rank><rsv>{rsv}</rsv>'
                     f'<fol offset="{offset}" length="{length}"/></result>')
        where.append(len(lines))
    lines += ["</topic>", "</inex-submission>"]
    return "\n".join(lines) + "\n", where


@pytest.mark.parametrize("seed", range(120))
def test_xml_and_gzip_twins_score_as_the_text_run(tmp_path, seed):
    rng = random.Random(seed)
    qrels_lines, results = random_fol_case(rng)
    qrels = read_fol_qrels(write(tmp_path / "q.txt", qrels_lines))
    text_lines = [f"{t} Q0 {a} {r} {s} RID {o} {n}" for t, a, r, s, o, n in results]
    text = read_fol_run(write(tmp_path / "run.txt", text_lines))
    xml_text, where = _xml(results)
    xml = read_fol_run(write(tmp_path / "run.xml", xml_text))
    packed = tmp_path / "run.txt.gz"
    packed.write_bytes(gzip.compress("".join(ln + "\n" for ln in text_lines).encode()))
    zipped = read_fol_run(packed)
    to_xml_line = {i + 1: line for i, line in enumerate(where)}
    for task in FOL_TASKS:
        for complete in (False, True):
            a = score_fol_run(qrels, text, task, complete=complete, run_label="RUN")
            b = score_fol_run(qrels, xml, task, complete=complete, run_label="RUN")
            z = score_fol_run(qrels, zipped, task, complete=complete, run_label="RUN")
            shown = format_outcome(a, task, "RUN", per_query=True)
            assert format_outcome(z, task, "RUN", per_query=True) == shown
            if a.rejected is not None:
                mapped = [re.sub(r"(in line: |negative passage size )(\d+)",
                                 lambda m: m.group(1) + str(to_xml_line[int(m.group(2))]), ln) for ln in a.rejected]
                assert b.rejected == mapped
            elif a.death is not None:
                assert (b.death.message, b.printed_before_death) == (a.death.message, a.printed_before_death)
                assert b.death.line == (to_xml_line[a.death.line] if a.death.line else None)
            else:
                assert format_outcome(b, task, "RUN", per_query=True) == shown


@pytest.mark.parametrize("separator", ["\x1c", "\x1d", "\x1e", "\x1f", "\x85", "\u3000"])
def test_fields_are_not_cut_at_white_space_unknown_to_java(tmp_path, separator):
    q = read_fol_qrels(write(tmp_path / "q.txt", [f"T{separator}1 Q0 d1 10 100 0 0:10"]))
    assert list(q.topics) == [f"T{separator}1"]
    run = read_fol_run(write(tmp_path / "r.txt", [f"T Q0 d{separator}1 1 1 R 0 10"]))
    assert run.lines[0].fields[2] == f"d{separator}1"


def test_ten_digit_numbers_are_range_checked(tmp_path):
    q = read_fol_qrels(write(tmp_path / "q.txt", ["T Q0 d1 10 100 0 2147483647:0 -2147483648:5"]))
    assert q.topics["T"].judgements["d1"].passages == [(-2147483648, 5), (2147483647, 0)]
    with pytest.raises(InputError, match="not 32-bit integers: '0:2147483648'") as info:
        read_fol_qrels(write(tmp_path / "q.txt", ["T Q0 d1 10 100 0 0:5", "T Q0 d1 10 100 0 0:2147483648"]))
    assert info.value.line == 2


@pytest.mark.parametrize("odd", [False, True])
def test_lazy_fields_split_as_the_whole_list(odd):
    """A run keeps raw lines only; its fields, split when read, equal the eager split of every line."""
    from inexeval.readers.fol import LazyFields, _split_all

    rng = random.Random(7)
    pieces = ["2009001", "Q0", "123", "1", "0.5", "run", "X", "-1", "", " ", "\t", "  ", "\x0b", "\x0c"]
    if odd:
        pieces += ["\x1c", "\u00a0", "\u2003"]
    lines = ["".join(rng.choice(pieces) + rng.choice(["", " ", "\t"]) for _ in range(rng.randrange(0, 12)))
             for _ in range(2000)] + ["", " ", "\ta b", "a  b "]
    eager = _split_all(lines, odd)
    lazy = LazyFields(lines, odd)
    assert len(lazy) == len(eager)
    assert list(lazy) == eager
    assert [lazy[i] for i in range(len(lines))] == eager
    assert list(lazy[10:500]) == eager[10:500]
    assert [split_fields(ln) for ln in lines] == eager  # and both are the Java split
