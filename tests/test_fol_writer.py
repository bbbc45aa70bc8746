"""The text of inex_eval 3.1: Java ``Double.toString``, the line layout, labels, topic order."""

from __future__ import annotations

import math

import pytest

from inexeval.errors import InputError
from inexeval.measures.fol import CONTEXT_NAMES, FOCUSED_NAMES, FolOutcome, java_sorted
from inexeval.writers.inex_eval import format_outcome, format_value, java_double, measure_line

# What Java's Double.toString prints (rules of docs/formats.md §9.3: the shortest digits that read back,
# plain for 1e-3 <= |x| < 1e7 with at least one fraction digit, else d.dddE±n without '+').
JAVA = [
    (0.0, "0.0"),
    (-0.0, "-0.0"),
    (math.nan, "NaN"),
    (math.inf, "Infinity"),
    (-math.inf, "-Infinity"),
    (1.0, "1.0"),
    (0.5, "0.5"),
    (0.4, "0.4"),
    (-2.5, "-2.5"),
    (100.0, "100.0"),
    (6000.0, "6000.0"),
    (1234567.0, "1234567.0"),
    (0.16831683168316833, "0.16831683168316833"),
    (0.1 + 0.2, "0.30000000000000004"),
    (1 / 3, "0.3333333333333333"),
    (2 / 3, "0.6666666666666666"),
    (0.0012, "0.0012"),
    (0.001, "0.001"),  # the lower boundary is plain
    (math.nextafter(0.001, 0), "9.999999999999998E-4"),  # just below it is not
    (-0.001, "-0.001"),
    (3.332222592469177e-4, "3.332222592469177E-4"),
    (1e-4, "1.0E-4"),
    (1.5e-10, "1.5E-10"),
    (-1.5e-7, "-1.5E-7"),
    (math.nextafter(1e7, 0), "9999999.999999998"),  # just below the upper boundary: plain
    (1e7, "1.0E7"),  # the upper boundary is not
    (-1e7, "-1.0E7"),
    (math.nextafter(1e7, math.inf), "1.0000000000000002E7"),
    (12345678.0, "1.2345678E7"),
    (123456789.0, "1.23456789E8"),
    (1e16, "1.0E16"),
    (1.7976931348623157e308, "1.7976931348623157E308"),
    (2.2250738585072014e-308, "2.2250738585072014E-308"),
]


@pytest.mark.parametrize(("x", "text"), JAVA, ids=[t for _, t in JAVA])
def test_java_double(x, text):
    assert java_double(x) == text


def test_java_double_reads_back():
    """The digits printed are the double's own (shortest round trip), over a spread of magnitudes."""
    for k in range(-30, 30):
        for mantissa in (1.0, 1.2345678901234567, 9.87654321, 3.0):
            x = mantissa * 10.0**k
            assert float(java_double(x).replace("E", "e")) == x


def test_format_value_ints_stay_ints():
    assert [format_value(v) for v in (0, 3, -7, 2147483647)] == ["0", "3", "-7", "2147483647"]
    assert format_value(3.0) == "3.0"


@pytest.mark.parametrize(("name", "topic", "value", "line"), [
    ("num_ret", "T1", 3, "num_ret\t\tT1\t3"),  # 7 characters: two TABs
    ("char_f1", "T1", 0.5, "char_f1\t\tT1\t0.5"),
    ("iP[0.00]", "T1", 0.5, "iP[0.00]\tT1\t0.5"),  # 8 characters: one TAB
    ("num_rel_ret", "all", 2, "num_rel_ret\tall\t2"),
    ("gP[10]", "all", 0.0, "gP[10]\t\tall\t0.0"),
    ("ircl_prn.0.05", "all", math.nan, "ircl_prn.0.05\tall\tNaN"),
    ("MAgP", "all", 1e-5, "MAgP\t\tall\t1.0E-5"),
])
def test_measure_line(name, topic, value, line):
    assert measure_line(name, topic, value) == line


def test_labels():
    assert FOCUSED_NAMES[-4:] == ("iP[0.00]", "iP[0.01]", "iP[0.05]", "iP[0.10]")
    assert CONTEXT_NAMES[6:] == ("gP[1]", "gR[1]", "gP[2]", "gR[2]", "gP[3]", "gR[3]", "gP[5]", "gR[5]",
                                 "gP[10]", "gR[10]", "gP[25]", "gR[25]", "gP[50]", "gR[50]")


def test_java_topic_order():
    """String.compareTo: character by character, by UTF-16 code unit (D14)."""
    assert java_sorted(["9", "100", "a1", "10", "A1", "2009001"]) == ["10", "100", "2009001", "9", "A1", "a1"]
    # U+1F600 is the surrogate pair D83D DE00: before U+FFFF in Java, after it by code point
    assert java_sorted(["\uffff", "\U0001f600", "\ue000"]) == ["\U0001f600", "\ue000", "\uffff"]
    assert java_sorted([]) == []


def test_format_outcome_layouts():
    scored = FolOutcome(run_id="RID", impossible=["Impossible recall point: 120"], topics=["T"],
                        per_topic={"T": {"num_ret": 1, "AgP": 0.5}}, all={"num_q": 1, "MAgP": 0.5})
    text = ('Impossible recall point: 120\n<eval run-id="RID" file="dir/run 1.txt">\nnum_ret\t\tT\t1\nAgP\t\tT\t0.5\n'
            "num_q\t\tall\t1\nMAgP\t\tall\t0.5\n</eval>\n")
    assert format_outcome(scored, "r", "dir/run 1.txt", per_query=True) == text
    assert format_outcome(scored, "r", "dir/run 1.txt", per_query=False) == text.replace(
        "num_ret\t\tT\t1\nAgP\t\tT\t0.5\n", "")
    rejected = FolOutcome(run_id="", rejected=["ERROR *** (x) a", "\tb"], impossible=["Impossible recall point: 101"])
    assert format_outcome(rejected, "f", "x", per_query=True) == "Impossible recall point: 101\nERROR *** (x) a\n\tb\n"
    assert format_outcome(FolOutcome(run_id="", death=InputError("x")), "f", "x", per_query=True) == ""


def test_per_topic_lines_are_each_measure_line():
    """format_outcome's per-topic lines (written a row at a time, each distinct non-zero float's text
    made once) are measure_line's, line for line: 0.0 and -0.0 printed apart however often they come,
    NaN, infinities, ints and floats equal to ints, values on Double.toString's form boundaries."""
    import random

    rng = random.Random(3)
    pool = [0.0, -0.0, 1.0, 1, 0, 7, math.nan, math.inf, -math.inf, 1e-3, 9.999999999999998e-4, 1e7,
            9999999.999999998, 0.1 + 0.2, 1 / 3, 2**31 - 1]
    names = ["num_ret", "gP[1]", "gR[10]", "AgP", "ircl_prn.0.00", "longer_name_x"]
    outcome = FolOutcome(run_id="r")
    for t in ["2009001", "2009002", "x\ty", "10"]:
        outcome.topics.append(t)
        outcome.per_topic[t] = {n: rng.choice(pool) for n in names}
    outcome.all = {"num_q": 4, "MAgP": -0.0}
    text = format_outcome(outcome, "b", "run.txt", per_query=True)
    want = ['<eval run-id="r" file="run.txt">']
    want += [measure_line(n, t, v) for t in outcome.topics for n, v in outcome.per_topic[t].items()]
    want += [measure_line(n, "all", v) for n, v in outcome.all.items()] + ["</eval>"]
    assert text == "\n".join(want) + "\n"
    assert "\t-0.0\n" in text and "\t0.0\n" in text
