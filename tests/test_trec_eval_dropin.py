"""``inexeval trec-eval``, the trec_eval 10.0 drop-in (docs/trec-eval.md).

trec_eval 10.0's own ``make quicktest`` (tests/data/trec_eval-10.0/QUICKTEST.txt, NIST's test
folder): every command's standard output must equal its ``out.*`` file byte for byte.  Then the
10.0 behaviours the drop-in reproduces (reading rules, error exits, ``-M``/``-c``/``-l``, standard
input, gzip, option syntax) on small hand-made inputs whose expected output is worked out here.
"""

from __future__ import annotations

import gzip
import io
import os
import random
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from inexeval.dropins.trec_eval.cli import main
from inexeval.dropins.trec_eval.options import parse_args, select_measures

DATA = Path(__file__).parent / "data" / "trec_eval-10.0"


def run(args: list[str], stdin: bytes | None = None, monkeypatch=None) -> tuple[int, bytes, str]:
    """The drop-in in this process: (exit status, standard output, standard error)."""
    if stdin is not None:
        assert monkeypatch is not None
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin)))
    out, err = io.BytesIO(), io.StringIO()
    status = main([str(a) for a in args], out, err)
    return status, out.getvalue(), err.getvalue()


# ------------------------------------------------------------------ trec_eval's quicktest ----

def _quicktest() -> list[tuple[list[str], str]]:
    cases = []
    for line in (DATA / "QUICKTEST.txt").read_text().splitlines():
        cmd, _, expected = line.partition("| diff - ")
        argv = shlex.split(cmd)[1:]  # without ./trec_eval
        argv = [str(DATA / a[5:]) if a.startswith("test/") else a for a in argv]
        cases.append((argv, expected.strip()[5:]))
    return cases


QUICKTEST = _quicktest()


def test_quicktest_has_its_15_commands():
    assert len(QUICKTEST) == 15
    assert all((DATA / exp).is_file() for _, exp in QUICKTEST)


@pytest.mark.parametrize(
    "number", [pytest.param(n, id=f"{n}-{QUICKTEST[n - 1][1]}") for n in range(1, 16)])
def test_quicktest_command(number):
    argv, expected = QUICKTEST[number - 1]
    status, out, err = run(argv)
    assert (status, err) == (0, "")
    assert out == (DATA / expected).read_bytes()


def test_quicktest_through_the_command_line():
    """The same bytes through ``python -m inexeval trec-eval`` (a real process, its real stdout)."""
    argv, expected = QUICKTEST[8]  # -m all_prefs -q -R prefs
    proc = subprocess.run([sys.executable, "-m", "inexeval", "trec-eval", *argv], capture_output=True)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == (DATA / expected).read_bytes()


# ------------------------------------------------------------------ small inputs ----

QRELS = b"""\
1 0 a 1
1 0 b 0
1 0 c 2
2 0 a 1
2 0 d 1
3 0 x 0
3 0 y 1
"""
RUN = b"""\
1 Q0 b 1 3.0 r1
1 Q0 a 2 3.0 r1
1 Q0 z 3 2.0 r1
1 Q0 c 4 1.0 r1
2 Q0 d 1 5.0 r1
2 Q0 e 2 4.0 r1
3 Q0 y 1 1.0 last
"""


@pytest.fixture
def files(tmp_path):
    def make(qrels: bytes = QRELS, results: bytes = RUN) -> tuple[Path, Path]:
        q, r = tmp_path / "qrels", tmp_path / "run"
        q.write_bytes(qrels)
        r.write_bytes(results)
        return q, r
    return make


def lines(out: bytes) -> list[list[str]]:
    return [ln.split("\t") for ln in out.decode().splitlines()]


def value(out: bytes, measure: str, topic: str = "all") -> str:
    got = [v for m, t, v in lines(out) if m.strip() == measure and t == topic]
    assert len(got) == 1, (measure, topic, out)
    return got[0]


def test_layout_ranking_and_run_id(files):
    """Ties by docno descending (b before a at score 3.0); the run id is the last line's; counts as integers."""
    q, r = files()
    status, out, _ = run(["-q", "-m", "P.1,2", "-m", "num_ret", "-m", "runid", q, r])
    assert status == 0
    assert out.splitlines()[0] == b"num_ret               \t1\t4"
    assert value(out, "P_1", "1") == "0.0000"  # b (judged 0) ranks first
    assert value(out, "P_2", "1") == "0.5000"
    assert value(out, "runid") == "last"
    assert value(out, "num_ret") == "7"
    assert [m.strip() for m, t, _ in lines(out) if t == "all"] == ["runid", "num_ret", "P_1", "P_2"]


def test_max_per_topic_keeps_the_top_of_the_order_not_the_first_lines(files):
    q, r = files()
    _, out, _ = run(["-q", "-M1", "-m", "num_rel_ret", q, r])
    assert value(out, "num_rel_ret", "1") == "0"  # b (score 3.0, docno > a) is the top one; a is cut
    _, out, _ = run(["-q", "-M", "2", "-m", "num_rel_ret", q, r])
    assert value(out, "num_rel_ret", "1") == "1"


def test_level_for_rel(files):
    q, r = files()
    _, out, _ = run(["-q", "-l2", "-m", "num_rel", "-m", "num_rel_ret", q, r])
    assert [value(out, "num_rel", t) for t in "123"] == ["1", "0", "0"]
    assert value(out, "num_rel_ret", "1") == "1"


def test_missing_topic_stops_with_status_4_after_the_earlier_topics(files):
    q, r = files(results=RUN.replace(b"2 Q0 d 1 5.0 r1\n2 Q0 e 2 4.0 r1\n", b""))
    status, out, err = run(["-q", "-m", "num_ret", q, r])
    assert status == 4
    assert out == b"num_ret               \t1\t4\n"
    # trec_eval.c says it itself, one line (no "Can't calculate measure" after it)
    assert err == "trec_eval: result qid '2' not found in qrels\n"


def test_complete_scores_missing_topics_as_empty_rankings(files):
    q, r = files(results=RUN.replace(b"2 Q0 d 1 5.0 r1\n2 Q0 e 2 4.0 r1\n", b""))
    status, out, err = run(["-q", "-c", "-m", "num_ret", "-m", "num_rel", "-m", "map", q, r])
    assert (status, err) == (0, "")
    assert value(out, "num_ret", "2") == "0"
    assert value(out, "num_rel", "2") == "2"
    assert value(out, "map", "2") == "0.0000"
    # map: topic 1 (a at 2, c at 4 of R=2): (1/2 + 2/4)/2 = 0.5; topic 3: 1; mean over 3 topics
    assert value(out, "map") == f"{(0.5 + 0 + 1) / 3:6.4f}"


def test_run_topics_missing_from_the_qrels_are_ignored(files):
    q, r = files(results=RUN + b"9 Q0 a 1 1.0 last\n")
    status, out, _ = run(["-m", "num_ret", "-m", "num_q", q, r])
    assert status == 0 and value(out, "num_ret") == "7" and value(out, "num_q") == "3"


def test_duplicate_docno_in_the_run_stops_only_inside_the_cut(files):
    q, r = files(results=RUN + b"2 Q0 d 3 0.5 r1\n")
    status, out, err = run(["-q", "-m", "num_ret", q, r])
    assert status == 4
    assert out == b"num_ret               \t1\t4\n"
    # trec_eval prints this message without a line end
    assert err == "trec_eval.form_res_qrels: duplicate docs dtrec_eval: Can't calculate measure 'num_ret'\n"
    status, out, err = run(["-q", "-M2", "-m", "num_ret", q, r])  # the second d (score 0.5) is cut
    assert (status, err) == (0, "")


def test_duplicate_judgement_stops(files):
    q, r = files(qrels=QRELS + b"3 0 y 0\n")
    status, out, err = run(["-q", "-m", "num_ret", q, r])
    assert status == 4
    assert out == b"num_ret               \t1\t4\nnum_ret               \t2\t2\n"
    assert err.startswith("trec_eval.form_res_rels: duplicate docs y\n")


@pytest.mark.parametrize("qrels, line", [
    (b"1 0 a 1\n\n2 0 b 1\n", 2),  # a blank line is malformed
    (b"1 0 a 1 extra\n", 1),
    (b"1 0 a\n", 1),
    (b"# one\n# two\n1 0 a 1\n", 1),  # only one comment line in a row is skipped
    (b"# c\n1 0 a 1\n2 0 b\n", 2),  # comment lines are not counted
])
def test_malformed_qrels(files, qrels, line):
    q, r = files(qrels=qrels)
    status, out, err = run([q, r])
    assert (status, out) == (2, b"")
    assert err == f"trec_eval.get_qrels: Malformed line {line}\ntrec_eval: Quit in file '{q}'\n"


def test_qrels_comments_and_odd_values(files):
    """'#' lines (one at a time) are skipped; a '#' inside a docno is a docno; rel is read as atol."""
    q, r = files(qrels=b"# c\n1 0 a 1\n# c\n1 0 b#x 2.7\n", results=b"1 Q0 b#x 1 1 r\n1 Q0 a 2 0.5 r\n")
    status, out, _ = run(["-m", "num_rel", "-m", "P.2", "-l2", q, r])
    assert status == 0
    assert value(out, "num_rel") == "1" and value(out, "P_2") == "0.5000"


def test_run_reading(files):
    """Blank lines, '#' lines (also indented) and extra fields are fine; fewer than 6 fields are not."""
    q, r = files(results=b"\n# c\n  # c\n1 Q0 a 1 1.0 r1 extra fields\n\n2 Q0 a 1 1.0 r2\n3 Q0 x 1 1.0 r3\n")
    status, out, _ = run(["-m", "num_ret", "-m", "runid", q, r])
    assert status == 0 and value(out, "runid") == "r3" and value(out, "num_ret") == "3"
    q, r = files(results=b"# c\n1 Q0 a 1 1.0 r1\n1 Q0 b 1 1.0\n")
    status, _, err = run([q, r])
    assert status == 2 and err == f"trec_eval.get_results: Malformed line 2\ntrec_eval: Quit in file '{r}'\n"


@pytest.mark.parametrize("results", [b"\n", b"# c\n\n  # c\n", b"\0", b"\0\n" + RUN, b"\0" + RUN, b"#c\n\0" + RUN])
def test_a_run_without_data_lines(files, results):
    """Blank and ``#`` lines only, or a NUL byte that starts the file or the line after them (it ends
    the file, docs/trec-eval.md §3): no result.  trec_eval then reads a record it never filled (§7);
    what it prints without -c is the first qrels topic "not found" (status 4), as here; with -c the
    topics are scored on stand-in rankings, and the run id (trec_eval: leftover bytes) is empty."""
    q, r = files(results=results)
    status, out, err = run(["-m", "runid", "-m", "num_ret", q, r])
    assert (status, out, err) == (4, b"", "trec_eval: result qid '1' not found in qrels\n")
    status, out, err = run(["-c", "-m", "runid", "-m", "num_ret", "-m", "num_q", q, r])
    assert status == 0 and err == "", err
    assert out == b"runid                 \tall\t\nnum_q                 \tall\t3\nnum_ret               \tall\t0\n"


@pytest.mark.parametrize("qrels", [b"\0", b"\0 0 a 1\n" + QRELS, b"\0\n" + QRELS])
def test_qrels_whose_first_line_starts_with_nul(files, qrels):
    """The NUL ends the file before its first line (docs/trec-eval.md §3): no judgement, so no topic to
    evaluate (status 7).  trec_eval reads one topic it never filled there (§7)."""
    q, r = files(qrels=qrels)
    for extra in ([], ["-c"]):
        status, out, err = run([*extra, "-m", "map", q, r])
        assert (status, out, err) == (7, b"", "trec_eval: No queries with both results and relevance info\n")


def test_unreadable_and_empty_files(files, tmp_path):
    q, r = files(results=b"")
    status, _, err = run([q, r])
    assert status == 2
    assert err == f"trec_eval.get_results: Cannot read results file '{r}'\ntrec_eval: Quit in file '{r}'\n"
    status, _, err = run([tmp_path / "nope", r])
    assert status == 2 and err.startswith("trec_eval.get_qrels: Cannot read qrels file")


def test_gzip_inputs(files, tmp_path):
    q, r = files()
    status, plain, _ = run(["-q", q, r])
    gq, gr = tmp_path / "q.gz", tmp_path / "r.gz"
    gq.write_bytes(gzip.compress(QRELS))
    gr.write_bytes(gzip.compress(RUN))
    assert run(["-q", gq, gr]) == (status, plain, "")


def test_standard_input(files, monkeypatch):
    q, r = files()
    expected = run(["-q", q, r])
    assert run(["-q", q, "-"], stdin=RUN, monkeypatch=monkeypatch) == expected
    proc = subprocess.run([sys.executable, "-m", "inexeval", "trec-eval", "-q", str(q), "-"], input=RUN,
                          capture_output=True)
    assert (proc.returncode, proc.stdout) == (0, expected[1])


def test_summary_only_options(files):
    q, r = files()
    status, out, _ = run(["-n", q, r])
    assert (status, out) == (0, b"")
    _, out, _ = run(["-n", "-q", "-m", "map", q, r])
    assert [t for _, t, _ in lines(out)] == ["1", "2", "3"]


def test_judged_docs_only(files):
    q, r = files()
    _, out, _ = run(["-q", "-J", "-m", "num_ret", "-m", "P.1", q, r])
    assert value(out, "num_ret", "1") == "3"  # z is not judged
    assert value(out, "P_1", "2") == "1.0000"


def test_debug_query_evaluates_one_topic(files):
    q, r = files()
    _, out, _ = run(["-q", "-D", "1.2", "-m", "num_ret", q, r])
    assert out == b"num_ret               \t2\t2\nnum_ret               \tall\t2\n"


def test_zscores(files, tmp_path):
    q, r = files()
    z = tmp_path / "z"
    z.write_bytes(b"1 num_ret 2.0 1.0\n2 num_ret 2.0 0.0\n3 num_ret 1.0 0.5\n1 P_5 0.1 0.1\n")
    status, out, _ = run(["-q", "-Z", z, "-m", "num_ret", "-m", "P.5", "-m", "num_q", q, r])
    assert status == 0
    assert out.splitlines()[0] == b"Znum_ret               \t1\t2.0000"
    assert value(out, "Znum_ret", "2") == "0.0000"  # equal to a mean with no deviation
    assert value(out, "ZP_5", "2") == "-1000000.0000"  # not in the file
    assert value(out, "ZP_5", "1") == f"{(0.4 - 0.1) / 0.1:6.4f}"
    assert value(out, "Znum_q") == "3.0000"
    assert value(out, "Znum_ret") == "2.0000"  # 2 + 0 + 0: summed like num_ret


def test_options_as_trec_eval_parses_them():
    a = parse_args(["-qc", "-M100", "-l", "2", "--Rel_info_format=prefs", "--measure", "map", "q", "--nosum", "r"])
    assert (a.query, a.complete, a.max_per_topic, a.level) == (True, True, 100, 2)
    assert (a.rel_format, a.summary) == ("prefs", False)
    assert a.measures == ["map"] and a.files == ["q", "r"]
    assert parse_args(["--", "-q", "r"]).files == ["-q", "r"]
    assert parse_args(["-Mx"]).max_per_topic == 0  # atol


@pytest.mark.parametrize("argv, status, message", [
    (["-x", "q", "r"], 1, "trec_eval: invalid option -- 'x'\n"),
    (["--bogus", "q", "r"], 1, "trec_eval: unrecognized option '--bogus'\n"),
    (["--R", "x", "q", "r"], 1,
     "trec_eval: option '--R' is ambiguous; possibilities: '--Rel_info_format' '--Results_format'\n"),
    (["--bogus=1", "q", "r"], 1, "trec_eval: unrecognized option '--bogus=1'\n"),
    (["q", "r", "-m"], 1, "trec_eval: option requires an argument -- 'm'\n"),
    (["q"], 1, "Usage: "),
    (["-m", "nosuch", "q", "r"], 1, "trec_eval: illegal measure 'nosuch'\n"),
    (["-m", "P.", "q", "r"], 1, "trec_eval: improper measure in parameter 'P'\n"),
    (["-v", "q", "r"], 0, "trec_eval version 10.0-rc3\n"),
    (["-R", "bogus", "q", "r"], 2, "trec_eval: Illegal rel_format 'bogus'\n"),
])
def test_command_line_errors(argv, status, message):
    got, out, err = run(argv)
    assert (got, out) == (status, b"")
    assert err.startswith(message)


def test_bad_parameters_and_formats(files):
    q, r = files()
    assert run(["-m", "P.0,5", q, r])[0::2] == (
        2, "trec_eval: Negative cutoff detected\ntrec_eval: Cannot initialize measure 'P'\n")
    assert run(["-m", "P.5,5", q, r])[2].startswith("trec_eval: duplicate cutoffs detected\n")
    assert run(["-m", "ndcg.1=2,3", q, r])[0] == 2
    assert run(["-T", "other", q, r])[0::2] == (2, "trec_eval: Illegal retrieval results format 'other'\n")
    status, out, err = run(["-R", "qrels_prefs", q, r])  # the official measures need qrels
    assert (status, out) == (4, b"") and err.endswith("trec_eval: Can't calculate measure 'num_ret'\n")


def test_measure_parameters_and_first_parameterised_wins():
    labels = lambda args: [lab for s in select_measures(args) for lab in s.labels]  # noqa: E731
    assert labels(["P.5,7,3"]) == ["P_3", "P_5", "P_7"]
    assert labels(["P", "P.4"]) == ["P_4"]
    assert labels(["P.4", "P.9"]) == ["P_4"]
    assert labels(["ndcg_cut.10,23.4", "iprec_at_recall..5,.25"]) == [
        "iprec_at_recall_0.25", "iprec_at_recall_0.50", "ndcg_cut_10", "ndcg_cut_23"]
    assert labels(["utility.2,-1,0,0", "Rprec_mult.5.0,0.2"]) == [
        "Rprec_mult_0.20", "Rprec_mult_5.00", "utility_2,-1,0,0"]
    assert labels([]) == labels(["official"])
    assert [s.measure.name for s in select_measures(["official"])] == [
        "runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec", "bpref", "recip_rank",
        "iprec_at_recall", "P"]


def test_random_runs_agree_with_pytrec_eval_on_the_shared_measures(tmp_path):
    """Measures whose rules 9.0.8 and 10.0 share (graded qrels, score ties, -M) against pytrec_eval,
    within the 4-decimal rounding of the output."""
    import pytrec_eval

    rng = random.Random(7)
    qrels = {f"q{t}": {f"d{d}": rng.choice([0, 0, 1, 2]) for d in rng.sample(range(60), 30)} for t in range(8)}
    run_ = {t: {f"d{d}": float(rng.randint(0, 9)) for d in rng.sample(range(60), 40)} for t in qrels}
    (tmp_path / "q").write_text("".join(f"{t} 0 {d} {r}\n" for t, ds in qrels.items() for d, r in ds.items()))
    (tmp_path / "r").write_text("".join(f"{t} Q0 {d} 0 {s} R\n" for t, ds in run_.items() for d, s in ds.items()))
    measures = ["map", "P.5,10", "recip_rank", "bpref", "Rprec", "ndcg", "ndcg_cut.10", "recall.10"]
    _, out, _ = run(["-q", *sum((["-m", m] for m in measures), []), tmp_path / "q", tmp_path / "r"])
    ev = pytrec_eval.RelevanceEvaluator(qrels, {"map", "P.5,10", "recip_rank", "bpref", "Rprec", "ndcg",
                                                "ndcg_cut.10", "recall.10"})
    ref = ev.evaluate(run_)
    checked = 0
    for m, t, v in lines(out):
        if t != "all":
            assert abs(float(v) - ref[t][m.strip()]) <= 0.00005 + 1e-12, (m, t)
            checked += 1
    assert checked == 8 * 9


def test_text_values_print_between_quotes_per_topic_only():
    """A measure whose per-topic value is text (trec_eval's relstring) prints it quoted, and has no summary."""
    from inexeval.dropins.trec_eval.cli import render
    from inexeval.dropins.trec_eval.evaluate import Column, Evaluation
    from inexeval.dropins.trec_eval.options import Options

    sel = [s for s in select_measures(["relstring", "num_q"])]
    ev = Evaluation([b"1", b"2"], {"relstring": Column("relstring", ["01-", "'2'"], aggregate="none")})
    out = b"".join(render(ev, sel, Options(query=True), b"r", None))
    assert out == (b"relstring             \t1\t'01-'\nrelstring             \t2\t'2'\n"
                   b"num_q                 \tall\t2\n")


def test_complete_ranks_trec_evals_stand_in_document(files):
    """Under -c a missing topic is scored on trec_eval's one unjudged stand-in document; num_ret is then
    reset to 0, other values keep what that ranking gives (here P_1 0, num_rel_ret 0)."""
    q, r = files(results=RUN.replace(b"2 Q0 d 1 5.0 r1\n2 Q0 e 2 4.0 r1\n", b""))
    status, out, _ = run(["-q", "-c", "-m", "num_ret", "-m", "P.1", q, r])
    assert status == 0
    assert value(out, "num_ret", "2") == "0" and value(out, "P_1", "2") == "0.0000"
    assert value(out, "num_ret") == "5"


#: The measures of trec_eval's all_trec whose numbers this branch's classic family already has.
_SHARED = ["runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec", "bpref", "recip_rank",
           "P", "recall", "ndcg", "ndcg_cut"]


@pytest.mark.parametrize("number", [5, 6, 7, 8, 15], ids=lambda n: QUICKTEST[n - 1][1])
def test_quicktest_outputs_on_the_measures_available(number):
    """Quicktest commands 5-8 and 15 with ``-m all_trec`` replaced by the measures above: the lines of
    the expected output for those measures, byte for byte (-q, -c, -M100, -l2, -Z)."""
    argv, expected = QUICKTEST[number - 1]
    argv = [a for a in argv if a not in ("all_trec", "-mrelstring.20")]
    argv = [x for a in argv for x in ([] if a == "-m" else [a])]
    argv = sum((["-m", m] for m in _SHARED), []) + argv
    status, out, err = run(argv)
    assert (status, err) == (0, "")
    labels = set()
    for s in select_measures(_SHARED):
        labels.update(s.labels)
    keep = [ln for ln in (DATA / expected).read_bytes().splitlines(keepends=True)
            if ln.split(b"\t")[0].strip().decode().removeprefix("Z") in labels]
    assert len(keep) > 100
    assert out == b"".join(keep)


@pytest.mark.parametrize("prefs, message", [
    (b"1 g s a 1\n1 g s a 0\n", "trec_eval.form_prefs_counts: Internal docid 0 occurs with different rel_level"),
    (b"1 g s1 a 1\n1 g s1 b 0\n1 g s2 a 0\n1 g s2 c 1\n",
     "trec_eval.form_prefs_counts: doc 'a' has both 0 and non-0 rel_level assigned\n"),
    (b"1 g s1 a 2\n1 g s1 b 1\n1 g s2 b 2\n1 g s2 a 1\n", "trec_eval.form_prefs_counts: Pref inconsistency found\n"),
])
def test_inconsistent_preferences_stop(files, prefs, message):
    q, r = files(qrels=prefs, results=b"1 Q0 a 1 2 r\n1 Q0 b 2 1 r\n")
    status, out, err = run(["-R", "prefs", "-m", "prefs", q, r])
    assert (status, out) == (4, b"")
    assert err.startswith(message) and err.endswith("trec_eval: Can't calculate measure 'prefs_num_prefs_poss'\n")


def test_preferences_by_hand(files):
    """One group, classes 2 > 1 > 0 over a, b, c; the run ranks c, a and misses b:
    pairs a>b (imp, fulfilled), a>c (ret, not), b>c (imp, not): simp 1/3, simp_ret 0/1, simp_imp 1/3."""
    q, r = files(qrels=b"1 g s a 2\n1 g s b 1\n1 g s c 0\n", results=b"1 Q0 c 1 2 r\n1 Q0 a 2 1 r\n")
    status, out, _ = run(["-q", "-R", "prefs", "-m", "all_prefs", q, r])
    assert status == 0
    assert [value(out, m, "1") for m in ("prefs_num_prefs_poss", "prefs_num_prefs_ful", "prefs_num_prefs_ful_ret",
                                         "prefs_simp", "prefs_simp_ret", "prefs_simp_imp", "prefs_pair")] == [
        "3", "1", "0", "0.3333", "0.0000", "0.3333", "0.3333"]


def test_huge_numbers_are_clamped_as_atol_does(files):
    q, r = files()
    assert parse_args(["-M99999999999999999999999"]).max_per_topic == (1 << 63) - 1
    status, out, _ = run(["-l", "99999999999999999999", "-M", "99999999999999999999", "-m", "num_rel", q, r])
    assert (status, value(out, "num_rel")) == (0, "0")


def test_trec_eval_version_option_gives_9_0_8_numbers():
    """--trec-eval-version 9.0.8 (inexeval's own option): the recall-level cut-off truncates as 9.0.8 did;
    every iprec_at_recall value then equals pytrec_eval's (trec_eval 9.0.8), printed at 4 decimals."""
    import pytrec_eval

    q, r = DATA / "qrels.test", DATA / "results.test"
    status, out10, _ = run(["-m", "iprec_at_recall", q, r])
    status9, out9, err = run(["--trec-eval-version", "9.0.8", "-m", "iprec_at_recall", q, r])
    assert status == status9 == 0 and err == ""
    line = {ln.split()[0]: ln.split()[2] for ln in out9.decode().splitlines()}
    assert line["iprec_at_recall_0.10"] == "0.3884" and b"iprec_at_recall_0.10  \tall\t0.3885" in out10

    def read(path, cols):
        d: dict = {}
        for ln in path.read_text().splitlines():
            f = ln.split()
            if f and not f[0].startswith("#"):
                d.setdefault(f[0], {})[f[2]] = cols(f)
        return d

    qrels = read(q, lambda f: int(f[3]))
    runs = read(r, lambda f: float(f[4]))
    ev = pytrec_eval.RelevanceEvaluator(qrels, {"iprec_at_recall"}).evaluate(runs)
    for x in ("0.00", "0.10", "0.20", "0.30", "0.40", "0.50", "0.60", "0.70", "0.80", "0.90", "1.00"):
        mean = sum(v[f"iprec_at_recall_{x}"] for v in ev.values()) / len(ev)
        assert line[f"iprec_at_recall_{x}"] == f"{mean:.4f}", x
    bad = run(["--trec-eval-version", "8", q, r])
    assert bad[0] == 1 and "'8' is not one of 10.0, 9.0.8" in bad[2]


def test_number_of_documents_reaches_utility():
    """-N N: utility_a,b,c,d = a·rr + b·(ret − rr) + c·(R − rr) + d·(N + rr − ret − R) per topic, so with
    d = 1 the values under -N 1000 are those under -N 0 plus 1000, per topic and in the mean."""
    q, r = DATA / "qrels.test", DATA / "results.test"

    def values(n):
        status, out, err = run(["-q", "-N", str(n), "-m", "utility.1,-1,0,1", q, r])
        assert status == 0 and err == ""
        return {ln.split()[1]: float(ln.split()[2]) for ln in out.decode().splitlines() if ln.startswith("utility")}

    zero, thousand = values(0), values(1000)
    assert zero.keys() == thousand.keys() and len(zero) > 2
    assert all(thousand[t] == zero[t] + 1000 for t in zero)


@pytest.mark.parametrize("data", [b"", b"a", b"\n", b" ", b"a\n", b"a\n\n", b"a\nb", b"a\n \nb", b"a\n\t b\n",
                                  b"\ra b", b"a b\r\nc d", b"a\n\x0b", b"\x00\n", b"a\n\n\nb", b"\x1c\nb"])
def test_the_blank_line_check_is_the_regular_expression(data):
    from inexeval.dropins.trec_eval.read import _BLANK_LINE, _has_blank_line

    assert _has_blank_line(data) == (_BLANK_LINE.search(data) is not None)


def test_the_blank_line_check_is_the_regular_expression_on_random_text():
    from inexeval.dropins.trec_eval.read import _BLANK_LINE, _has_blank_line

    rng = random.Random(7)
    alphabet = b"ab \t\v\f\r\n\x00\x1c"
    seen = set()
    for _ in range(5000):
        data = bytes(rng.choice(alphabet) for _ in range(rng.randint(0, 12)))
        got = _has_blank_line(data)
        assert got == (_BLANK_LINE.search(data) is not None), data
        seen.add(got)
    assert seen == {True, False}


# ------------------------------------------------------------------ the command's own entry ----


def _entry(args: list[str], **kw) -> subprocess.Popen:
    """``python -m inexeval trec-eval ARGS`` (the direct entry, inexeval/launch.py)."""
    return subprocess.Popen([sys.executable, "-m", "inexeval", "trec-eval", *args], **kw)


FOL = Path(__file__).resolve().parent.parent / "sample_data" / "inex2009-2010"
FOL_ARGS = ["-f", "-q", str(FOL / "qrels.txt.gz"), str(FOL / "runs" / "original" / "bert_inex_converted_1.run.gz")]


def _click_loaded(argv: list[str]) -> subprocess.CompletedProcess:
    """``python -m inexeval ARGV``, saying on standard error at exit whether click was loaded."""
    code = ("import atexit, sys\n"
            "atexit.register(lambda: sys.stderr.write('click loaded: %s' % ('click' in sys.modules)))\n"
            "sys.argv = ['inexeval', *sys.argv[1:]]\n"
            "import runpy\nrunpy.run_module('inexeval', run_name='__main__')\n")
    return subprocess.run([sys.executable, "-c", code, *argv], capture_output=True)


def test_the_drop_ins_do_not_load_the_click_command_line(files):
    """``inexeval trec-eval`` and ``inexeval inex-eval`` are run once per run file: they skip click
    (about 25 ms a call), with the same output as through it."""
    q, r = files()
    proc = _click_loaded(["trec-eval", "-q", str(q), str(r)])
    assert proc.returncode == 0 and proc.stdout == run(["-q", q, r])[1]
    assert proc.stderr.decode().endswith("click loaded: False")
    proc = _click_loaded(["inex-eval", *FOL_ARGS])
    assert proc.returncode == 0 and proc.stderr.decode().endswith("click loaded: False")
    through_click = subprocess.run([sys.executable, "-c", "import sys; sys.argv[0] = 'inexeval'\n"
                                    "from inexeval.cli.command import main; main()", "inex-eval", *FOL_ARGS],
                                   capture_output=True)
    assert through_click.returncode == 0 and proc.stdout == through_click.stdout and b"num_rel" in proc.stdout
    # every other command still goes through click
    proc = _click_loaded(["metrics"])
    assert proc.returncode == 0 and proc.stderr.decode().endswith("click loaded: True")


_REUSE = ("import resource, sys\n"
          "if sys.argv[1] == 'drop-in':\n"
          "    from inexeval.launch import _one_shot_process\n"
          "    _one_shot_process()\n"
          "import os, numpy as np\n"
          "a = np.ones(8_000_000); del a\n"
          "before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt\n"
          "a = np.ones(8_000_000); del a\n"
          "import atexit, gc\n"
          "faults = resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before\n"
          "atexit._run_exitfuncs()  # (what runs as Python shuts down)\n"
          "print(faults, os.environ.get('OPENBLAS_NUM_THREADS'), gc.isenabled(), gc.get_freeze_count() > 0)\n")


@pytest.mark.skipif(not (sys.platform.startswith("linux") and os.confstr("CS_GNU_LIBC_VERSION")),
                    reason="glibc's mallopt only")
def test_a_drop_in_process_reuses_freed_memory_starts_no_blas_threads_and_collects_no_cycles():
    """A drop-in keeps freed memory for its next arrays (no page faults again for a second 64 MB
    array), sets OPENBLAS_NUM_THREADS=1 before numpy loads and runs without the cyclic garbage
    collector, even at exit; other commands do none of that."""
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    faults = {}
    for mode in ("drop-in", "other"):
        out = subprocess.run([sys.executable, "-c", _REUSE, mode], capture_output=True, text=True, env=env, check=True)
        n, threads, gc_on, frozen = out.stdout.split()
        faults[mode] = (int(n), threads, gc_on, frozen)
    # (frozen at exit: the collection as Python shuts down has nothing to scan)
    assert faults["drop-in"][1:] == ("1", "False", "True") and faults["other"][1:] == ("None", "True", "False")
    assert faults["other"][0] >= 30  # 64 MB mapped afresh: 16,000 pages, or 32 huge pages and more
    assert faults["drop-in"][0] < faults["other"][0] / 10


@pytest.mark.parametrize("drop_in", ["trec-eval", "inex-eval"])
def test_a_reader_gone_is_not_an_error_of_the_drop_in(files, drop_in):
    """Output to a pipe nobody reads (``| head`` done): the status the run has otherwise (0), nothing on
    standard error, as every command (README "Exit status"; trec_eval itself dies of SIGPIPE)."""
    q, r = files()
    args = ["-q", str(q), str(r)] if drop_in == "trec-eval" else FOL_ARGS
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        proc = subprocess.Popen([sys.executable, "-m", "inexeval", drop_in, *args], stdout=write_end,
                                stderr=subprocess.PIPE)
        _, err = proc.communicate(timeout=60)
    finally:
        os.close(write_end)
    assert (proc.returncode, err) == (0, b"")


@pytest.mark.skipif(not hasattr(signal, "SIGTERM") or sys.platform == "win32", reason="POSIX signals")
@pytest.mark.parametrize("sig, status, line", [(signal.SIGTERM, 143, "inexeval: terminated (SIGTERM)"),
                                               (signal.SIGINT, 130, "inexeval: interrupted")])
def test_a_signal_ends_the_drop_in_as_every_command(files, sig, status, line):
    """Waiting for its run on standard input, the drop-in is stopped: one line, 128 + the signal."""
    q, _ = files()
    proc = _entry([str(q), "-"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        time.sleep(1.0)  # started and reading standard input (the qrels are read first)
        proc.send_signal(sig)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == status
    assert err.decode().strip() == line and out == b""
