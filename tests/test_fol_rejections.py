"""Rejected runs (docs/inex_eval.md §3.5), where inex_eval 3.1 dies (§10, D16) and the command line (§1)."""

from __future__ import annotations

import pytest
from fol_helpers import drop_in, run_lines, values, write

from inexeval.dropins.inex_eval import USAGE, java_parse_double

QRELS = [
    "A Q0 a1 100 1000 50 100:100",
    "A Q0 a2 50 500 10 0:50",
    "A Q0 a3 0 300",
    "B Q0 b1 10 100 0 0:10",
]
ALL_TASKS = ("-t", "-f", "-r", "-b", "-i")


@pytest.fixture
def here(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "qrels.txt", QRELS)
    return tmp_path


def _run(here, lines, *argv):
    write(here / "run.txt", lines)
    return drop_in(*argv, "qrels.txt", "run.txt")


# --------------------------------------------------------------------------- §3.5 messages


@pytest.mark.parametrize("task", ALL_TASKS)
def test_too_many_fields(here, task):
    lines = ["A Q0 a1 1 1 R 100 50", "A Q0 a2 1 1 R 0 10 extra"]
    assert _run(here, lines, task) == (
        "Error *** (run.txt) too many fields in line 2: A Q0 a2 1 1 R 0 10 extra\n", "", 0)


@pytest.mark.parametrize("task", ALL_TASKS)
@pytest.mark.parametrize("bad", ["A Q0 a2 1 1 R 0", "", "   \t "])
def test_fields_missing(here, task, bad):
    """Seven fields, an empty line, a line of white space."""
    lines = ["A Q0 a1 1 1 R 100 50", bad, "A Q0 a2 1 1 R 0 10"]
    assert _run(here, lines, task) == (f"Error *** (run.txt) fields missing in line 2: {bad}\n", "", 0)


def test_field_count_is_checked_for_topics_not_in_the_qrels(here):
    assert _run(here, ["Z Q0 z 1 1 R 0"], "-f")[0] == "Error *** (run.txt) fields missing in line 1: Z Q0 z 1 1 R 0\n"


def test_tab_separated_and_crlf_lines_are_fine(here):
    lines = "A\tQ0\ta1\t1\t1\tR\t100\t50\r\nA  Q0 a2 1 1 R 0 50\rB Q0 b1 1 1 R 0 10"
    write(here / "run.txt", lines)
    out, _, _ = drop_in("-f", "qrels.txt", "run.txt")
    assert values(out)[("num_q", "all")] == "2"


INTERLEAVED = run_lines("A", [("a1", 100, 50), ("a2", 0, 10), ("a1", 180, 10)])


@pytest.mark.parametrize("task", ["-r", "-b", "-i"])
def test_interleaved_in_context(here, task):
    assert _run(here, INTERLEAVED, task) == (
        "ERROR *** (run.txt) article results are interleaved in topic A\tarticle id: a1\n"
        "\tinterleaved results not allowed in inContext tasks!\n", "", 0)


@pytest.mark.parametrize("task", ["-f", "-t"])
def test_interleaved_allowed_in_focused_and_thorough(here, task):
    v = values(_run(here, INTERLEAVED, task)[0])
    assert v[("num_ret", "all")] == "2"  # a1 counted once
    assert v[("rel_ret_size", "all")] == "70"  # a1: 50 + 10, a2: 10


def test_multiple_results_from_one_article_best_in_context(here):
    lines = run_lines("A", [("a2", 0, 10), ("a1", 100, 5), ("a1", 120, 5)])
    assert _run(here, lines, "-b")[0] == ("ERROR *** (run.txt) multiple results from single article in topic A"
                                          "\tarticle id: a1\tin line: 3\n")


OVERLAP = run_lines("A", [("a1", 100, 50), ("a1", 149, 10)])


@pytest.mark.parametrize("task", ["-f", "-r", "-i"])
def test_overlap(here, task):
    """(-b cannot get there: a second passage of an article is rejected as #3 or #4 first.)"""
    assert _run(here, OVERLAP, task) == (
        "ERROR *** (run.txt) passage overlaps with previously retrieved passages in topic A"
        "\tarticle id: a1\tin line: 2\n", "", 0)


def test_thorough_accepts_overlap(here):
    out, _, status = _run(here, OVERLAP, "-t")
    v = values(out)
    assert v[("ret_size", "all")] == v[("rel_ret_size", "all")] == "59"  # 50 + the 9 novel characters
    assert status == 0


@pytest.mark.parametrize(("passages", "ok"), [
    ([(100, 50), (150, 10)], True),  # touching: no overlap
    ([(100, 50), (50, 50)], True),
    ([(100, 50), (120, 0)], False),  # a zero-length passage strictly inside
    ([(100, 50), (100, 0)], True),  # ... at the start: not strictly inside
    ([(120, 0), (100, 50)], False),  # a stored zero-length passage strictly inside the new one
    ([(100, 50), ("X", 50), ("X", 50), (-1, 7)], True),  # unknown passages are never checked
])
def test_overlap_rule(here, passages, ok):
    out, _, _ = _run(here, run_lines("A", [("a1", o, n) for o, n in passages]), "-f")
    assert out.startswith("<eval") is ok


@pytest.mark.parametrize("task", ALL_TASKS)
def test_negative_size(here, task):
    lines = run_lines("A", [("a2", 0, 10), ("a1", 300, -5)])
    assert _run(here, lines, task)[0] == "ERROR *** (run.txt) negative passage size 2: A Q0 a1 1 1 R 300 -5\n"


def test_overlap_is_checked_before_negative_size(here):
    lines = run_lines("A", [("a1", 100, 50), ("a1", 120, -5)])
    assert "passage overlaps" in _run(here, lines, "-f")[0]
    assert "negative passage size 2" in _run(here, lines, "-t")[0]


def test_end_wraps_around_at_32_bits(here):
    """offset + length beyond 2^31-1 wraps to a negative end (D17): a negative size."""
    lines = run_lines("A", [("a1", 2147483000, 1000)])
    assert _run(here, lines, "-f")[0] == (
        "ERROR *** (run.txt) negative passage size 1: A Q0 a1 1 1 R 2147483000 1000\n")


def test_the_first_failing_line_decides(here):
    lines = run_lines("A", [("a1", 100, 50), ("a1", 120, 10)]) + ["A Q0 a1 1 1 R 0"]
    assert "passage overlaps" in _run(here, lines, "-f")[0]
    lines = ["A Q0 a1 1 1 R 0"] + run_lines("A", [("a1", 100, 50), ("a1", 120, 10)])
    assert "fields missing in line 1" in _run(here, lines, "-f")[0]


def test_impossible_recall_lines_printed_before_a_rejection(here):
    """They are printed while the run is read, so they precede a later line's rejection."""
    write(here / "qrels.txt", ["A Q0 a1 10 100 0 0:10", "A Q0 a2 10 100 0 0:10", "B Q0 b1 10 100 0 0:10"])
    lines = ["A Q0 a1 1 1 R 0 10", "B Q0 b1 1 1 R 0 10", "A Q0 a1 1 1 R 0 10", "A Q0 a2 1 1 R 0 10",
             "A Q0 a2 1 1 R 5 10"]
    assert _run(here, lines, "-f") == (
        "Impossible recall point: 150\nERROR *** (run.txt) passage overlaps with previously retrieved passages "
        "in topic A\tarticle id: a2\tin line: 5\n", "", 0)


@pytest.mark.parametrize("offset", ["-01", "+5", "-7", "\u0661\u0662"])
def test_offsets_java_accepts(here, offset):
    """``-01`` and other negative offsets are ordinary; Java's parseInt takes a '+' and Unicode digits."""
    out, err, status = _run(here, [f"A Q0 a1 1 1 R {offset} 10"], "-f")
    assert out.startswith("<eval") and (err, status) == ("", 0)


def test_unknown_passage_length_is_not_read(here):
    out, _, status = _run(here, ["A Q0 a1 1 1 R X junk", "A Q0 a2 1 1 R -1 ?"], "-f")
    assert values(out)[("ret_size", "all")] == "36"
    assert status == 0


# --------------------------------------------------------------------------- where the tool dies


@pytest.mark.parametrize(("line", "message"), [
    ("A Q0 a1 1 1 R 1O 10", "run.txt:2: OFFSET is not a 32-bit integer (nor X or -1): '1O'"),
    ("A Q0 a1 1 1 R x 10", "run.txt:2: OFFSET is not a 32-bit integer (nor X or -1): 'x'"),
    ("A Q0 a1 1 1 R +-1 10", "run.txt:2: OFFSET is not a 32-bit integer (nor X or -1): '+-1'"),
    ("A Q0 a1 1 1 R 2147483648 10", "run.txt:2: OFFSET is not a 32-bit integer (nor X or -1): '2147483648'"),
    ("A Q0 a1 1 1 R 1_0 10", "run.txt:2: OFFSET is not a 32-bit integer (nor X or -1): '1_0'"),
    ("A Q0 a1 1 1 R 10 ten", "run.txt:2: LENGTH is not a 32-bit integer: 'ten'"),
])
@pytest.mark.parametrize("task", ALL_TASKS)
def test_run_death_is_reported_and_the_next_run_scored(here, task, line, message):
    write(here / "good.txt", run_lines("A", [("a2", 0, 50)]))
    write(here / "run.txt", ["A Q0 a2 1 1 R 0 50", line])
    good, _, _ = drop_in(task, "qrels.txt", "good.txt")
    out, err, status = drop_in(task, "qrels.txt", "run.txt", "good.txt")
    assert out == good
    assert err == f"inexeval: error: {message}; inex_eval 3.1 stops here (NumberFormatException)\n"
    assert status == 1


def test_junk_offsets_of_a_topic_not_in_the_qrels_are_ignored(here):
    out, err, status = _run(here, ["Z Q0 z 1 1 R 1O ten", "A Q0 a2 1 1 R 0 50"], "-r")
    assert out.startswith("<eval") and (err, status) == ("", 0)


def test_in_context_bookkeeping_dies_while_reading(here):
    """A comes back equal to C's last article while the counter equals A's rank entries: rank R is missing."""
    write(here / "qrels.txt", ["A Q0 a1 10 100 0 0:10", "A Q0 a2 10 100 0 0:10", "B Q0 b1 10 100 0 0:10",
                               "C Q0 c1 10 100 0 0:10"])
    lines = ["A Q0 a1 1 1 R 0 10", "B Q0 b1 1 1 R 0 10", "B Q0 b2 1 1 R 0 10", "B Q0 b3 1 1 R 0 10",
             "A Q0 a2 1 1 R 0 10", "C Q0 c1 1 1 R 0 10", "C Q0 c2 1 1 R 0 10", "A Q0 c2 1 1 R 20 10"]
    for task in ("-r", "-i"):
        out, err, status = _run(here, lines, task, "-q")
        assert (out, status) == ("", 1)
        assert err == ("inexeval: error: run.txt:8: topic A comes back after lines of other topics and inex_eval "
                       "3.1's rank bookkeeping fails on this line (IndexOutOfBoundsException); group each topic's "
                       "lines\n")
    out, err, status = _run(here, lines, "-f")
    assert out.startswith("<eval") and (err, status) == ("", 0)


def test_in_context_scoring_death_counts_the_lines_printed_before(here):
    from inexeval.measures.fol import score_fol_run
    from inexeval.readers.fol import read_fol_qrels, read_fol_run

    write(here / "qrels.txt", ["0 Q0 z 10 100 0 0:10", "A Q0 a1 10 100 0 0:10", "B Q0 b1 10 100 0 0:10"])
    write(here / "run.txt", ["0 Q0 z 1 1 R 0 10", "A Q0 a1 1 1 R 0 10", "B Q0 b1 1 1 R 0 10",
                             "B Q0 b2 1 1 R 0 10", "B Q0 b3 1 1 R 0 10", "A Q0 a2 1 1 R 0 10"])
    outcome = score_fol_run(read_fol_qrels("qrels.txt"), read_fol_run("run.txt"), "b")
    assert outcome.death is not None and outcome.death.line == 6
    assert outcome.printed_before_death == 21 + 6  # topic 0 whole, then A's six count lines
    assert outcome.per_topic == {} and outcome.all == {}


@pytest.mark.parametrize(("line", "message"), [
    ("A Q0 a9 10", "qrels.txt:3: 4 fields in the qrels"),
    ("", "qrels.txt:3: an empty line in the qrels"),
    ("  ", "qrels.txt:3: an empty line in the qrels"),
    ("topic Q0 file rel len", "qrels.txt:3: REL_CHARS is not a 32-bit integer: 'rel'"),
    ("A Q0 a9 10 1.5", "qrels.txt:3: DOC_LENGTH is not a 32-bit integer: '1.5'"),
    ("A Q0 a9 10 100 x 0:10", "qrels.txt:3: BEP is not a 32-bit integer: 'x'"),
    ("A Q0 a9 10 100 0 5", "qrels.txt:3: passage without ':' (OFFSET:LENGTH expected): '5'"),
    ("A Q0 a9 10 100 0 5:", "qrels.txt:3: passage OFFSET:LENGTH whose parts are not 32-bit integers: '5:'"),
    ("A Q0 a9 10 100 0 5:x", "qrels.txt:3: passage OFFSET:LENGTH whose parts are not 32-bit integers: '5:x'"),
    ("A Q0 a9 10 100 0 2147483648:1",
     "qrels.txt:3: passage OFFSET:LENGTH whose parts are not 32-bit integers: '2147483648:1'"),
])
def test_qrels_death(here, line, message):
    write(here / "qrels.txt", QRELS[:2] + [line] + QRELS[2:])
    write(here / "run.txt", run_lines("A", [("a1", 0, 10)]))
    out, err, status = drop_in("-f", "qrels.txt", "run.txt")
    assert (out, status) == ("", 1)
    assert err.startswith(f"inexeval: error: {message}")


def test_qrels_lines_the_tool_accepts(here):
    write(here / "qrels.txt", QRELS + ["A Q0 a9 10 100 junk", "A Q0 a8 10 100 0 0:5:junk 20:5:", "C Q0 c1 0 10"])
    out, err, status = _run(here, run_lines("A", [("a8", 0, 30)]), "-f", "-q", "-c")
    v = values(out)
    assert v[("rel_ret_size", "A")] == "10"
    assert v[("num_rel", "C")] == "0" and v[("num_q", "all")] == "3"  # C has no relevant line but exists
    assert (err, status) == ("", 0)


# --------------------------------------------------------------------------- command line (§1)


@pytest.mark.parametrize("argv", [[], ["-f"], ["qrels.txt"]])
def test_fewer_than_two_arguments_print_the_usage(here, argv):
    assert drop_in(*argv) == (USAGE, "", 0)


def test_illegal_option(here):
    assert drop_in("-f", "-x", "qrels.txt") == ("ERROR *** Illegal command line option: -x\n" + USAGE, "", 0)


def test_no_task(here):
    assert drop_in("-q", "qrels.txt", "run.txt") == ("ERROR *** no task specified\n" + USAGE, "", 0)


@pytest.mark.parametrize(("argv", "message"), [
    (["-n", "1.5"], "Argument must be an integer\n"),
    (["-n", "x"], "Argument must be an integer\n"),
    (["-irr", "1e3"], "Argument must be a number\n"),
    (["-beta", "abc"], "Argument must be a number\n"),
    (["-beta", "1_0"], "Argument must be a number\n"),
])
def test_bad_option_values(here, argv, message):
    assert drop_in("-f", *argv, "qrels.txt") == ("", message, 1)


@pytest.mark.parametrize("argv", [["-f", "-n"], ["-f", "-q", "-c"]])
def test_missing_value_or_qrels(here, argv):
    out, err, status = drop_in(*argv)
    assert (out, status) == ("", 1)
    assert err.startswith("inexeval: error: ") and "inex_eval 3.1 dies here" in err


def test_last_task_wins_and_values_are_used_by_their_task_only(here):
    write(here / "run.txt", run_lines("A", [("a1", 100, 50)]))
    focused, _, _ = drop_in("-r", "-f", "qrels.txt", "run.txt")
    assert "MAiP" in focused
    assert drop_in("-f", "-n", "7", "-beta", "2", "-irr", "1", "qrels.txt", "run.txt")[0] == focused


@pytest.mark.parametrize(("text", "value"), [
    ("1e-1", 0.1), ("0.5", 0.5), (" 0.5\t", 0.5), ("+2", 2.0), ("-.5", -0.5), ("1.", 1.0), ("1d", 1.0),
    ("0.25f", 0.25), ("0x1p-2", 0.25), ("0X.8P1", 1.0), ("Infinity", float("inf")), ("-Infinity", float("-inf")),
    ("1e400", float("inf")),
    # Double.parseDouble of hexadecimal values past the largest double (Java 17): Infinity, rounding
    # half to even (...f8p1023 is halfway to 2^1024, ...f7p1023 just below)
    ("0x1p1024", float("inf")), ("-0x1p99999d", float("-inf")), ("0x1.fffffffffffff8p1023", float("inf")),
    ("0x1.fffffffffffff7p1023", 1.7976931348623157e308), ("0x1p-99999999999999999999", 0.0),
])
def test_java_parse_double(text, value):
    assert java_parse_double(text) == value


@pytest.mark.parametrize("text", ["", "abc", "1_0", "0x1", "nan", "inf", "1e", ".", "1,5", "Infinityd"])
def test_java_parse_double_rejects(text):
    assert java_parse_double(text) is None


def test_java_parse_double_nan():
    value = java_parse_double("NaN")
    assert value != value


def test_beta_changes_relevant_in_context(here):
    write(here / "run.txt", run_lines("A", [("a1", 100, 50), ("a1", 180, 40)]))
    quarter = values(drop_in("-r", "-q", "qrels.txt", "run.txt")[0])[("gP[1]", "A")]
    assert values(drop_in("-r", "-q", "-beta", "0x1p-2", "qrels.txt", "run.txt")[0])[("gP[1]", "A")] == quarter
    assert values(drop_in("-r", "-q", "-beta", "1", "qrels.txt", "run.txt")[0])[("gP[1]", "A")] == repr(
        2 * (7 / 9) * 0.7 / (7 / 9 + 0.7))


def test_unreadable_qrels_and_runs(here):
    write(here / "run.txt", run_lines("A", [("a1", 100, 50)]))
    (here / "folder").mkdir()
    out, err, status = drop_in("-f", "nope.txt", "run.txt", "folder", "missing.txt")
    assert out == ("IOException error: nope.txt (No such file or directory)\n"
                   '<eval run-id="" file="run.txt">\n'
                   + "".join(f"{line}\n" for line in [
                       "num_q\t\tall\t0", "num_ret\t\tall\t0", "num_rel\t\tall\t0", "num_rel_ret\tall\t0",
                       "ret_size\tall\t0", "rel_size\tall\t0", "rel_ret_size\tall\t0", "art_prec\tall\tNaN",
                       "art_rec\t\tall\tNaN", "art_f1\t\tall\tNaN", "char_prec\tall\tNaN", "char_rec\tall\tNaN",
                       "char_f1\t\tall\tNaN", "iP[0.00]\tall\tNaN", "iP[0.01]\tall\tNaN", "iP[0.05]\tall\tNaN",
                       "iP[0.10]\tall\tNaN", "MAiP\t\tall\tNaN"])
                   + "".join(f"ircl_prn.{p // 100}.{p % 100:02d}\tall\tNaN\n" for p in range(101))
                   + "</eval>\n"
                   + "IOException error: folder (Is a directory)\n"
                   + "IOException error: missing.txt (No such file or directory)\n")
    assert (err, status) == ("", 0)


def test_through_the_inexeval_command(here):
    """``inexeval inex-eval …``: the subcommand hands every argument, options included, to the drop-in."""
    from click.testing import CliRunner

    from inexeval.cli.command import main

    write(here / "run.txt", run_lines("A", [("a1", 100, 50)]))
    write(here / "crash.txt", ["A Q0 a1 1 1 R 1O 10"])
    argv = ["-r", "-q", "-c", "-beta", "0.5", "qrels.txt", "run.txt", "crash.txt"]
    out, err, status = drop_in(*argv)
    result = CliRunner().invoke(main, ["inex-eval", *argv])
    assert (result.stdout, result.stderr, result.exit_code) == (out, err, status)
    assert status == 1 and out.startswith("<eval")
    assert CliRunner().invoke(main, ["inex-eval", "-h", "qrels.txt"]).output == (
        "ERROR *** Illegal command line option: -h\n" + USAGE)
