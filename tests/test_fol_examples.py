"""The worked examples E1-E9 of the inex_eval 3.1 specification (outputs of the tool itself).

Each example's files are written as the example states them; where the
example gives a whole output it is compared whole, where it summarises,
every line it states is asserted.
"""

from __future__ import annotations

import pytest
from fol_helpers import drop_in, ircl, run_lines, values, write

E4_QRELS = [
    "A Q0 a1 100 1000 50 100:100",
    "A Q0 a2 50 500 10 0:50",
    "A Q0 a3 0 300",
    "A Q0 a4 80 800 400 400:80",
    "B Q0 b1 10 100 0 0:10",
]
E4_RUN = run_lines("A", [("a1", 100, 50), ("a1", 180, 40), ("a3", 0, 100), ("a2", 0, 100)])


@pytest.fixture
def here(tmp_path, monkeypatch):
    """Run in TMP_PATH, so that files are named as the examples name them."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


# --------------------------------------------------------------------------- E1


E1_QRELS = [
    "T1 Q0 d1 100 1000 50 50:100",
    "T1 Q0 d2 0 500",
    "T1 Q0 d3 200 2000 0 0:100 300:100",
    "T2 Q0 e1 10 100 5 5:10",
]
E1_RUN = [
    "T1 Q0 d3 9 0.1 R 250 100",
    "T1 Q0 d1 1 0.9 R 0 100",
    "T1 Q0 d2 5 0.5 R 0 50",
    "T9 Q0 x1 1 1.0 R abc def",
]
E1_T1 = [
    "num_ret\t\tT1\t3",
    "num_rel\t\tT1\t2",
    "num_rel_ret\tT1\t2",
    "ret_size\tT1\t250",
    "rel_size\tT1\t300",
    "rel_ret_size\tT1\t100",
    "art_prec\tT1\t0.6666666666666666",
    "art_rec\t\tT1\t1.0",
    "art_f1\t\tT1\t0.8",
    "char_prec\tT1\t0.4",
    "char_rec\tT1\t0.3333333333333333",
    "char_f1\t\tT1\t0.3636363636363636",
    "iP[0.00]\tT1\t0.5",
    "iP[0.01]\tT1\t0.5",
    "iP[0.05]\tT1\t0.5",
    "iP[0.10]\tT1\t0.5",
    "AiP\t\tT1\t0.16831683168316833",
]


def test_e1_focused_file_order_and_unknown_topic(here):
    write(here / "qrels.txt", E1_QRELS)
    write(here / "run.txt", E1_RUN)
    out, err, status = drop_in("-f", "-q", "qrels.txt", "run.txt")
    all_lines = [line.replace("\tT1\t", "\tall\t").replace("AiP\t\t", "MAiP\t\t") for line in E1_T1]
    expected = (
        ['<eval run-id="R" file="run.txt">'] + E1_T1 + ["num_q\t\tall\t1"] + all_lines
        + ircl(100, [(0, 33, "0.5"), (34, 100, "0.0")]) + ["</eval>"]
    )
    assert out == "\n".join(expected) + "\n"
    assert (err, status) == ("", 0)


def test_e1_complete_adds_the_topic_the_run_misses(here):
    write(here / "qrels.txt", E1_QRELS)
    write(here / "run.txt", E1_RUN)
    out, _, status = drop_in("-f", "-q", "-c", "qrels.txt", "run.txt")
    t2 = [
        "num_ret\t\tT2\t0", "num_rel\t\tT2\t1", "num_rel_ret\tT2\t0", "ret_size\tT2\t0", "rel_size\tT2\t10",
        "rel_ret_size\tT2\t0", "art_prec\tT2\t0.0", "art_rec\t\tT2\t0.0", "art_f1\t\tT2\t0.0",
        "char_prec\tT2\t0.0", "char_rec\tT2\t0.0", "char_f1\t\tT2\t0.0", "iP[0.00]\tT2\t0.0",
        "iP[0.01]\tT2\t0.0", "iP[0.05]\tT2\t0.0", "iP[0.10]\tT2\t0.0", "AiP\t\tT2\t0.0",
    ]
    all_lines = [
        "num_q\t\tall\t2", "num_ret\t\tall\t3", "num_rel\t\tall\t3", "num_rel_ret\tall\t2", "ret_size\tall\t250",
        "rel_size\tall\t310", "rel_ret_size\tall\t100", "art_prec\tall\t0.3333333333333333", "art_rec\t\tall\t0.5",
        "art_f1\t\tall\t0.4", "char_prec\tall\t0.2", "char_rec\tall\t0.16666666666666666",
        "char_f1\t\tall\t0.1818181818181818", "iP[0.00]\tall\t0.25", "iP[0.01]\tall\t0.25", "iP[0.05]\tall\t0.25",
        "iP[0.10]\tall\t0.25", "MAiP\t\tall\t0.08415841584158416",
    ]
    expected = (['<eval run-id="R" file="run.txt">'] + E1_T1 + t2 + all_lines
                + ircl(100, [(0, 33, "0.25"), (34, 100, "0.0")]) + ["</eval>"])
    assert out == "\n".join(expected) + "\n"
    assert status == 0


# --------------------------------------------------------------------------- E2


def test_e2_unknown_zero_length_touching_interleaved(here):
    write(here / "qrels.txt", ["7 Q0 a 30 100 10 60:10 10:20", "7 Q0 b 0 80"])
    write(here / "run.txt", run_lines("7", [("a", 0, 10), ("z", "X", 99), ("a", 10, 20), ("a", 30, 0),
                                            ("b", 0, 80), ("a", 55, 20), ("y", -1, 5)]))
    out, _, status = drop_in("-f", "-q", "qrels.txt", "run.txt")
    v = values(out)
    for topic in ("7", "all"):
        assert v[("num_ret", topic)] == "4"
        assert v[("num_rel_ret", topic)] == "1"
        assert v[("ret_size", topic)] == "166"
        assert v[("rel_ret_size", topic)] == "30"
        assert v[("art_prec", topic)] == "0.25"
        assert v[("art_rec", topic)] == "1.0"
        assert v[("art_f1", topic)] == "0.4"
        assert v[("char_prec", topic)] == "0.18072289156626506"
        assert v[("char_rec", topic)] == "1.0"
        assert v[("char_f1", topic)] == "0.30612244897959184"
        for point in ("0.00", "0.01", "0.05", "0.10"):
            assert v[(f"iP[{point}]", topic)] == "0.4166666666666667"
    assert v[("AiP", "7")] == v[("MAiP", "all")] == "0.34463919364909457"
    assert [ln for ln in out.splitlines() if ln.startswith("ircl_prn")] == ircl(
        100, [(0, 66, "0.4166666666666667"), (67, 100, "0.20270270270270271")])
    assert status == 0


# --------------------------------------------------------------------------- E3

E3_RUN = run_lines("5", [("a", 0, 50), ("a", 10, 60), ("n", 0, 60), ("n", 0, 60), ("a", "X", 0), ("a", 0, 70)])


def test_e3_thorough_novelty(here):
    write(here / "qrels.txt", ["5 Q0 a 40 200 0 20:40", "5 Q0 n 0 100"])
    write(here / "run.txt", E3_RUN)
    out, _, status = drop_in("-t", "-q", "qrels.txt", "run.txt")
    v = values(out)
    for topic in ("5", "all"):
        assert v[("num_ret", topic)] == "2"
        assert v[("num_rel_ret", topic)] == "1"
        assert v[("ret_size", topic)] == "190"
        assert v[("rel_ret_size", topic)] == "40"
        assert v[("art_prec", topic)] == "0.5"
        assert v[("art_f1", topic)] == "0.6666666666666666"
        assert v[("char_prec", topic)] == "0.21052631578947367"
        assert v[("char_rec", topic)] == "1.0"
        assert v[("char_f1", topic)] == "0.34782608695652173"
        assert v[("iP[0.00]", topic)] == "0.6"
    assert v[("AiP", "5")] == v[("MAiP", "all")] == "0.5929278642149931"
    assert [ln for ln in out.splitlines() if ln.startswith("ircl_prn")] == ircl(
        100, [(0, 75, "0.6"), (76, 100, "0.5714285714285714")])
    assert status == 0


def test_e3_same_run_under_focused_is_rejected(here):
    write(here / "qrels.txt", ["5 Q0 a 40 200 0 20:40", "5 Q0 n 0 100"])
    write(here / "run.txt", E3_RUN)
    out, err, status = drop_in("-f", "qrels.txt", "run.txt")
    assert out == ("ERROR *** (run.txt) passage overlaps with previously retrieved passages in topic 5"
                   "\tarticle id: a\tin line: 2\n")
    assert (err, status) == ("", 0)


# --------------------------------------------------------------------------- E4

E4_A = [
    "num_ret\t\tA\t3",
    "num_rel\t\tA\t3",
    "num_rel_ret\tA\t2",
    "ret_size\tA\t290",
    "rel_size\tA\t230",
    "rel_ret_size\tA\t120",
    "gP[1]\t\tA\t0.7727272727272728",
    "gR[1]\t\tA\t0.3333333333333333",
    "gP[2]\t\tA\t0.3863636363636364",
    "gR[2]\t\tA\t0.3333333333333333",
    "gP[3]\t\tA\t0.42929292929292934",
    "gR[3]\t\tA\t0.6666666666666666",
    "gP[5]\t\tA\t0.42929292929292934",
    "gR[5]\t\tA\t0.6666666666666666",
    "gP[10]\t\tA\t0.42929292929292934",
    "gR[10]\t\tA\t0.6666666666666666",
    "gP[25]\t\tA\t0.42929292929292934",
    "gR[25]\t\tA\t0.6666666666666666",
    "gP[50]\t\tA\t0.42929292929292934",
    "gR[50]\t\tA\t0.6666666666666666",
    "AgP\t\tA\t0.40067340067340074",
]


def test_e4_relevant_in_context(here):
    write(here / "qrels.txt", E4_QRELS)
    write(here / "run.txt", E4_RUN)
    out, err, status = drop_in("-r", "-q", "qrels.txt", "run.txt")
    all_lines = [
        "num_q\t\tall\t1", "num_ret\t\tall\t3", "num_rel\t\tall\t4", "num_rel_ret\tall\t2", "ret_size\tall\t290",
        "rel_size\tall\t240", "rel_ret_size\tall\t120", "MAgP\t\tall\t0.40067340067340074",
    ] + [line.replace("\tA\t", "\tall\t") for line in E4_A[6:20]]
    expected = (['<eval run-id="R" file="run.txt">'] + E4_A + all_lines
                + ircl(10, [(0, 3, "0.7727272727272728"), (4, 6, "0.42929292929292934"), (7, 10, "0.0")])
                + ["</eval>"])
    assert out == "\n".join(expected) + "\n"
    assert (err, status) == ("", 0)


def test_e4_complete(here):
    write(here / "qrels.txt", E4_QRELS)
    write(here / "run.txt", E4_RUN)
    out, _, _ = drop_in("-r", "-q", "-c", "qrels.txt", "run.txt")
    v = values(out)
    assert v[("num_q", "all")] == "2"
    assert v[("MAgP", "all")] == "0.20033670033670037"
    assert v[("gP[1]", "all")] == "0.3863636363636364"
    assert v[("ircl_prn.0.00", "all")] == "0.3863636363636364"
    b_lines = [ln for ln in out.splitlines() if "\tB\t" in ln]
    assert b_lines == [
        "num_ret\t\tB\t0", "num_rel\t\tB\t1", "num_rel_ret\tB\t0", "ret_size\tB\t0", "rel_size\tB\t10",
        "rel_ret_size\tB\t0",
    ] + [f"{name}\t\tB\t0.0" for r in (1, 2, 3, 5, 10, 25, 50) for name in (f"gP[{r}]", f"gR[{r}]")] + [
        "AgP\t\tB\t0.0"]


# --------------------------------------------------------------------------- E5

E5_QRELS = ["A Q0 a1 100 1000 150 100:100", "A Q0 a2 50 500 10 0:50", "A Q0 a3 40 400", "A Q0 a4 0 300"]
E5_RUN = run_lines("A", [("a1", 400, 10), ("a4", 0, 10), ("a2", "X", 10), ("a3", 0, 10)])


def test_e5_best_in_context(here):
    write(here / "qrels.txt", E5_QRELS)
    write(here / "run.txt", E5_RUN)
    out, _, status = drop_in("-b", "-q", "qrels.txt", "run.txt")
    v = values(out)
    expected = {
        "num_ret": "4", "num_rel": "3", "num_rel_ret": "3", "ret_size": "0", "rel_size": "190", "rel_ret_size": "0",
        "gP[1]": "0.5", "gR[1]": "0.3333333333333333", "gP[2]": "0.25", "gR[2]": "0.3333333333333333",
        "gP[3]": "0.16666666666666666", "gR[3]": "0.6666666666666666", "AgP": "0.2638888888888889",
    }
    for r in (5, 10, 25, 50):
        expected[f"gP[{r}]"] = "0.125"
        expected[f"gR[{r}]"] = "1.0"
    for name, value in expected.items():
        assert v[(name, "A")] == value, name
    assert v[("MAgP", "all")] == "0.2638888888888889"
    assert status == 0


@pytest.mark.parametrize(("n", "gp3", "agp"), [("20000", "0.4956666666666667", "0.6183055555555556"),
                                               ("250", "0.0", "0.0")])
def test_e5_bep_distance_n(here, n, gp3, agp):
    write(here / "qrels.txt", E5_QRELS)
    write(here / "run.txt", E5_RUN)
    v = values(drop_in("-b", "-q", "-n", n, "qrels.txt", "run.txt")[0])
    assert (v[("gP[3]", "A")], v[("AgP", "A")]) == (gp3, agp)
    if n == "250":
        assert v[("gP[1]", "A")] == "0.0"


# --------------------------------------------------------------------------- E6

E6_QRELS = ["A Q0 a1 150 1000 100 100:100 600:50", "A Q0 a2 0 400"]
E6_RUN = run_lines("A", [("a1", 150, 100), ("a1", 0, 50), ("a2", 0, 10)])


def test_e6_t2i(here):
    write(here / "qrels.txt", E6_QRELS)
    write(here / "run.txt", E6_RUN)
    v = values(drop_in("-i", "-q", "qrels.txt", "run.txt")[0])
    assert v[("AgP", "A")] == v[("MAgP", "all")] == "0.25"
    assert v[("gP[1]", "A")] == "0.25"
    for r in (2, 3, 5, 10, 25, 50):
        assert v[(f"gP[{r}]", "A")] == "0.125"


@pytest.mark.parametrize(("irr", "agp"), [("1000", "0.15"), ("50", "0.0"), ("0", "0.0"), ("300", "0.25")])
def test_e6_t2i_tolerance(here, irr, agp):
    write(here / "qrels.txt", E6_QRELS)
    write(here / "run.txt", E6_RUN)
    assert values(drop_in("-i", "-irr", irr, "qrels.txt", "run.txt")[0])[("MAgP", "all")] == agp


def test_e6_same_run_relevant_in_context(here):
    write(here / "qrels.txt", E6_QRELS)
    write(here / "run.txt", E6_RUN)
    v = values(drop_in("-r", "-q", "qrels.txt", "run.txt")[0])
    assert v[("AgP", "A")] == "0.3333333333333333"
    assert v[("ret_size", "A")] == "160"


# --------------------------------------------------------------------------- E7


def test_e7_rejected_good_missing_good(here):
    write(here / "qrels.txt", E4_QRELS)
    write(here / "examples/e7/interleaved.txt", run_lines("A", [("a1", 100, 50), ("a3", 0, 100), ("a1", 180, 40)]))
    write(here / "examples/e7/good.txt", E4_RUN)
    out, err, status = drop_in("-r", "qrels.txt", "examples/e7/interleaved.txt", "examples/e7/good.txt",
                               "examples/e7/missing.txt", "examples/e7/good.txt")
    good, _, _ = drop_in("-r", "qrels.txt", "examples/e7/good.txt")
    assert good.startswith('<eval run-id="R" file="examples/e7/good.txt">\n') and good.endswith("</eval>\n")
    assert out == (
        "ERROR *** (examples/e7/interleaved.txt) article results are interleaved in topic A\tarticle id: a1\n"
        "\tinterleaved results not allowed in inContext tasks!\n"
        + good
        + "IOException error: examples/e7/missing.txt (No such file or directory)\n"
        + good
    )
    assert (err, status) == ("", 0)


@pytest.mark.parametrize(("task", "lines", "message"), [
    ("-b", run_lines("A", [("a1", 0, 10), ("a1", 20, 10)]),
     "ERROR *** (run.txt) multiple results from single article in topic A\tarticle id: a1\tin line: 2"),
    ("-f", ["A Q0 a1 1 1 R 100 -5"], "ERROR *** (run.txt) negative passage size 1: A Q0 a1 1 1 R 100 -5"),
    ("-f", ["A Q0 a1 1 1 R 100"], "Error *** (run.txt) fields missing in line 1: A Q0 a1 1 1 R 100"),
    ("-f", [" A Q0 a1 1 1 R 100 5"], "Error *** (run.txt) too many fields in line 1:  A Q0 a1 1 1 R 100 5"),
])
def test_e7_other_messages(here, task, lines, message):
    write(here / "qrels.txt", E4_QRELS)
    write(here / "run.txt", lines)
    assert drop_in(task, "qrels.txt", "run.txt") == (message + "\n", "", 0)


def test_e7_crash_run_is_reported_and_the_rest_evaluated(here):
    """The tool dies on OFFSET ``1O`` after the first block; inexeval reports it, goes on and exits 1 (D16)."""
    write(here / "qrels.txt", E4_QRELS)
    write(here / "good.txt", E4_RUN)
    write(here / "crash.txt", ["A Q0 a1 1 1 R 1O 10"])
    good, _, _ = drop_in("-f", "qrels.txt", "good.txt")
    out, err, status = drop_in("-f", "qrels.txt", "good.txt", "crash.txt", "good.txt")
    assert out == good + good
    assert err == ("inexeval: error: crash.txt:1: OFFSET is not a 32-bit integer (nor X or -1): '1O'; "
                   "inex_eval 3.1 stops here (NumberFormatException)\n")
    assert status == 1


def test_e7_qrels_with_an_empty_line(here):
    write(here / "qrels.txt", E4_QRELS[:2] + [""] + E4_QRELS[2:])
    write(here / "run.txt", E4_RUN)
    out, err, status = drop_in("-r", "qrels.txt", "run.txt")
    assert out == ""
    assert err.startswith("inexeval: error: qrels.txt:3: an empty line in the qrels")
    assert status == 1


# --------------------------------------------------------------------------- E8

E8_QRELS = ["A Q0 a1 10 100 0 0:10", "A Q0 a2 10 100 0 0:10", "B Q0 b1 10 100 0 0:10"]
E8_RUN = ["A Q0 a1 1 1 R 0 10", "B Q0 b1 1 1 R 0 10", "A Q0 a1 1 1 R 0 10", "A Q0 a2 1 1 R 0 10"]


def test_e8_topic_in_two_blocks_focused(here):
    write(here / "qrels.txt", E8_QRELS)
    write(here / "run.txt", E8_RUN)
    out, _, status = drop_in("-f", "-q", "qrels.txt", "run.txt")
    assert out.startswith('Impossible recall point: 150\n<eval run-id="R" file="run.txt">\n')
    v = values(out)
    assert v[("num_ret", "A")] == "3"
    assert v[("num_rel_ret", "A")] == "3"
    assert v[("num_rel", "A")] == "2"
    assert v[("art_rec", "A")] == "1.5"
    assert v[("art_f1", "A")] == "1.2"
    assert v[("char_rec", "A")] == "1.5"
    assert v[("AiP", "A")] == "1.0"
    assert [ln for ln in out.splitlines() if ln.startswith("ircl_prn")] == ircl(100, [(0, 100, "1.0")])
    assert status == 0


def test_e8_topic_in_two_blocks_in_context(here):
    write(here / "qrels.txt", E8_QRELS)
    write(here / "run.txt", E8_RUN)
    v = values(drop_in("-r", "-q", "qrels.txt", "run.txt")[0])
    assert [v[(f"gR[{r}]", "A")] for r in (1, 2, 3)] == ["0.5", "1.0", "1.5"]
    assert v[("num_ret", "A")] == "3"
    assert v[("AgP", "A")] == "1.5"
    assert v[("MAgP", "all")] == "1.25"


def test_e8_crash_variant(here):
    """B has three articles before A comes back: the tool dies scoring A (after A's first six lines)."""
    write(here / "qrels.txt", E8_QRELS)
    write(here / "run.txt", ["A Q0 a1 1 1 R 0 10", "B Q0 b1 1 1 R 0 10", "B Q0 b2 1 1 R 0 10",
                             "B Q0 b3 1 1 R 0 10", "A Q0 a2 1 1 R 0 10"])
    out, err, status = drop_in("-r", "-q", "qrels.txt", "run.txt")
    assert out == ""
    assert err == ("inexeval: error: run.txt:5: topic A comes back after lines of other topics (from this line on) "
                   "and inex_eval 3.1 cannot score it: its 4 ranks have only 2 rank entries "
                   "(IndexOutOfBoundsException); group each topic's lines\n")
    assert status == 1


# --------------------------------------------------------------------------- E9

E9_QRELS = ["A Q0 a1 0 100", "B Q0 b1 10 100 0 0:10"]


def test_e9_nan_focused(here):
    write(here / "qrels.txt", E9_QRELS)
    write(here / "run.txt", ["A Q0 a1 1 1 R 0 10"])
    v = values(drop_in("-f", "-q", "qrels.txt", "run.txt")[0])
    assert v[("num_rel", "A")] == "0"
    assert v[("art_prec", "A")] == "0.0"
    assert v[("art_rec", "A")] == "NaN"
    assert v[("art_f1", "A")] == "0.0"
    assert v[("char_rec", "A")] == "NaN"
    assert v[("AiP", "A")] == "0.0"
    assert (v[("art_rec", "all")], v[("char_rec", "all")], v[("MAiP", "all")]) == ("NaN", "NaN", "0.0")


def test_e9_nan_in_context(here):
    write(here / "qrels.txt", E9_QRELS)
    write(here / "run.txt", ["A Q0 a1 1 1 R 0 10"])
    v = values(drop_in("-r", "-q", "qrels.txt", "run.txt")[0])
    assert v[("gR[1]", "A")] == "NaN"
    assert v[("AgP", "A")] == "NaN"
    assert v[("MAgP", "all")] == "NaN"
    assert v[("ircl_prn.0.00", "all")] == "0.0"


def test_e9_run_without_qrels_topic(here):
    write(here / "qrels.txt", E9_QRELS)
    write(here / "run.txt", ["Z Q0 a1 1 1 R 0 10"])
    out, _, _ = drop_in("-r", "qrels.txt", "run.txt")
    assert out.startswith('<eval run-id="" file="run.txt">\n')
    v = values(out)
    assert (v[("num_q", "all")], v[("MAgP", "all")], v[("num_rel", "all")], v[("rel_size", "all")]) == (
        "0", "NaN", "1", "10")


def test_e4_curves_of_the_outcome(here):
    """FolOutcome.curves: each included topic's interpolated precision after the fill (11 points in context)."""
    from inexeval.measures.fol import score_fol_run
    from inexeval.readers.fol import read_fol_qrels, read_fol_run

    write(here / "qrels.txt", E4_QRELS)
    write(here / "run.txt", E4_RUN)
    outcome = score_fol_run(read_fol_qrels("qrels.txt"), read_fol_run("run.txt"), "r", complete=True)
    assert outcome.curves == {"A": [0.7727272727272728] * 4 + [0.42929292929292934] * 3 + [0.0] * 4,
                              "B": [0.0] * 11}
    focused = score_fol_run(read_fol_qrels("qrels.txt"), read_fol_run("run.txt"), "f")
    assert list(focused.curves) == ["A"] and len(focused.curves["A"]) == 101


# --------------------------------------------------------------------------- E10

# T2I when a topic comes back (§4.4, D25): A's line after B's block joins A's rank 3, and the tool
# scores that rank with the judgement and record of the line that joined it last (a4), not of the
# line that created it (a3).  The case of the bug report: inexeval printed gP[3], gP[5], gP[10] = 0.0.
E10_QRELS = ["A Q0 a4 10 280 0 0:10", "B Q0 b1 5 100 0 0:5"]
E10_RUN = (run_lines("A", [("a1", 0, 10), ("a2", 0, 10), ("a3", 0, 10)])
           + run_lines("B", [("b1", 0, 5), ("b2", 0, 5)])
           + run_lines("A", [(f"a{k}", 0, 10) for k in range(4, 10)]))


def test_e10_t2i_rank_scored_with_the_last_line_joined(here):
    """Hand check.  A: a1 a2 a3 are ranks 1-3 (counter 3, 3 rank entries).  B resets the state: b1 b2,
    counter 2.  A comes back: a4 is a new article, counter 3 = A's number of rank entries, so a4 joins
    rank 3 (R stays 3) and becomes its article; a5 ... a9 are ranks 4-8.  T2I of a4 (T = 300): it reads
    [0, 10), all relevant (rel 10), then the gap [10, 280) (nonrel 270 < 300): s_3 = 10 / 280 = 1/28.
    Every other rank is unjudged (0).  gP_3 = (1/28) / 3 = 1/84, gP_5 = 1/140, gP[10] = gP_8 = 1/224.
    found: 0 for ranks 1-3 (created before a4 was read), 1 from rank 4 on.  AgP counts the ranks whose
    REL_CHARS -- of the article that created the rank, here a3 (unjudged) -- is positive: none, 0.0."""
    write(here / "qrels.txt", E10_QRELS)
    write(here / "run.txt", E10_RUN)
    out, err, status = drop_in("-i", "-q", "qrels.txt", "run.txt")
    assert (err, status) == ("", 0)
    v = values(out)
    assert [v[(f"gP[{r}]", "A")] for r in (1, 2, 3, 5, 10, 25, 50)] == [
        "0.0", "0.0", "0.011904761904761904", "0.007142857142857143"] + ["0.004464285714285714"] * 3
    assert [v[(f"gR[{r}]", "A")] for r in (1, 2, 3, 5, 10)] == ["0.0", "0.0", "0.0", "1.0", "1.0"]
    assert (v[("num_ret", "A")], v[("num_rel_ret", "A")], v[("ret_size", "A")], v[("rel_ret_size", "A")]) == (
        "8", "1", "90", "10")
    assert v[("AgP", "A")] == "0.0"
    # B: b1 scores 5/100 at rank 1 (reads [0, 5) relevant, then [5, 100)); b2 unjudged
    assert (v[("gP[1]", "B")], v[("gP[2]", "B")], v[("AgP", "B")]) == ("0.05", "0.025", "0.05")
    # -r keeps the REL_CHARS of the line that created rank 3 (a3: 0) and adds a4's 10 relevant
    # characters: recall 10 / 0 = Infinity, F = Infinity / Infinity = NaN -- the tool prints NaN too
    v = values(drop_in("-r", "-q", "qrels.txt", "run.txt")[0])
    assert v[("gP[3]", "A")] == "NaN" and v[("rel_ret_size", "A")] == "10"


def test_e10_joined_line_of_another_topics_article(here):
    """The smallest case: A a1 (judged not relevant), B b1, then A b1 -- the same article as the line
    before, so no new rank: it joins A's rank 1, with topic A's judgement of b1 and the state's record
    of b1, which is B's and now holds [0, 10) and [50, 60).  T2I of that record with A's judgement of b1
    (0:10, DOC_LENGTH 100): [0, 10) rel 10, [50, 60) nonrel 10, gaps [10, 50) and [60, 100) nonrel 80:
    10 / 100 = 0.1, for A's rank 1 and B's (the same record, B's own judgement of b1)."""
    write(here / "qrels.txt", ["A Q0 a1 0 100", "A Q0 b1 10 100 0 0:10", "B Q0 b1 10 100 0 0:10"])
    write(here / "run.txt", ["A Q0 a1 1 1 R 0 50", "B Q0 b1 1 1 R 0 10", "A Q0 b1 1 1 R 50 10"])
    v = values(drop_in("-i", "-q", "qrels.txt", "run.txt")[0])
    assert (v[("gP[1]", "A")], v[("gR[1]", "A")], v[("AgP", "A")], v[("ret_size", "A")]) == ("0.1", "0.0", "0.0", "60")
    assert (v[("gP[1]", "B")], v[("gR[1]", "B")], v[("AgP", "B")]) == ("0.1", "1.0", "0.1")
    assert (v[("MAgP", "all")], v[("gP[1]", "all")]) == ("0.05", "0.1")


def test_e10_config_path_agrees(here):
    """FOL.T2I through a config scores the same (the same scorer)."""
    import inexeval

    write(here / "qrels.txt", E10_QRELS)
    write(here / "run.txt", E10_RUN)
    res = inexeval.evaluate({"TASK": "FOL.T2I", "ASSESSMENTS_DIR": str(here / "qrels.txt"),
                             "SUBMISSIONRUNS_DIR": str(here / "run.txt"), "RESULTS_DIR": str(here / "out")})
    row = res.per_topic("run")["A"]
    assert [row[f"gP[{r}]"] for r in (3, 5, 10)] == [1 / 84, 1 / 140, 1 / 224]


# --------------------------------------------------------------------------- E11


def test_e11_negative_size_accepted_through_wrap_around(here):
    """OFFSET -2000000000, LENGTH -1000000000: end = -3000000000 + 2^32 = 1294967296 >= start, so the
    line is accepted (not #6) with size -1000000000 (D17).  It covers [0, 50): 50 relevant characters.
    ret_size -1000000000 is not > 0: char_prec 0.0 (D26), char_f1 0.0; precision 50 / -1e9 < 0 never
    enters iP: AiP 0.0."""
    write(here / "qrels.txt", ["A Q0 a1 50 500 0 0:50"])
    write(here / "run.txt", ["A Q0 a1 1 1 R -2000000000 -1000000000"])
    for task in ("-f", "-t"):
        v = values(drop_in(task, "-q", "qrels.txt", "run.txt")[0])
        assert (v[("ret_size", "A")], v[("rel_ret_size", "A")]) == ("-1000000000", "50")
        assert (v[("char_prec", "A")], v[("char_rec", "A")], v[("char_f1", "A")]) == ("0.0", "1.0", "0.0")
        assert (v[("art_prec", "A")], v[("AiP", "A")], v[("char_prec", "all")]) == ("1.0", "0.0", "0.0")


def test_e11_rel_size_wraps_around(here):
    """Two judgements of REL_CHARS 2000000000: rel_size = 4000000000 - 2^32 = -294967296 (D17), so recall
    is negative: floor(100 x 50 / -294967296) = -1, an impossible recall point, twice."""
    write(here / "qrels.txt", ["A Q0 a1 2000000000 500 0 0:50", "A Q0 a2 2000000000 500 0 0:50"])
    write(here / "run.txt", run_lines("A", [("a1", 0, 50), ("a2", 0, 50)]))
    out = drop_in("-f", "-q", "qrels.txt", "run.txt")[0]
    assert out.startswith("Impossible recall point: -1\nImpossible recall point: -1\n<eval ")
    v = values(out)
    assert (v[("rel_size", "A")], v[("rel_size", "all")]) == ("-294967296", "-294967296")
    assert v[("char_rec", "A")] == "-3.390206350198227E-7"  # 100 / -294967296
    assert v[("AiP", "A")] == "0.0"


def test_e11_t2i_walk_wraps_around(here):
    """-irr 2147483647, DOC_LENGTH 2147483647, relevant [0, 10), retrieved [-2000000000, -1999999990).
    Reading: the passage (nonrel 10), then the gap [-1999999990, 2147483647): nonrel += 0 + 1999999990
    = 2000000000, rel += 10, then nonrel += 2147483647 - 10 = 4147483637 -> wraps to -147483659 (D17),
    never >= T.  Score 10 / (10 - 147483659) = 10 / -147483649."""
    write(here / "qrels.txt", ["A Q0 a1 10 2147483647 0 0:10"])
    write(here / "run.txt", ["A Q0 a1 1 1 R -2000000000 10"])
    v = values(drop_in("-i", "-q", "-irr", "2147483647", "qrels.txt", "run.txt")[0])
    assert v[("gP[1]", "A")] == v[("AgP", "A")] == "-6.780412654422457E-8"
