"""TASK qa (docs/measures.md §11): seed 003's worked examples with their arithmetic, the marking rules
(Figure 1), the position rule, and Q/R/RR against pyNTCIREVAL fed the marked gain list."""

from __future__ import annotations

import gzip
import random
from fractions import Fraction as F
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from pyNTCIREVAL.metrics import RR as NtcirRR
from pyNTCIREVAL.metrics import QMeasure

import inexeval
from inexeval.cli.command import main
from inexeval.errors import InputError
from inexeval.qa import marking
from inexeval.measures.qa import DEFAULT_GAINS, gains_of, mark, match_table, qa_values
from inexeval.readers.answers import AnswerString, Question, Synset, parse_level, read_answer_files
from helpers import assert_close

ROOT = Path(__file__).resolve().parent.parent

#: Seed 003 Example 1 (without the fifth synset), with the strings the seed's run needs stated:
#: "McCartney" is A-correct in AS(1), as g(1) = 2 in the seed's example says.
BEATLES = [
    ("1", "S", "Sir Paul McCartney"), ("1", "S", "Paul McCartney"), ("1", "A", "McCartney"), ("1", "B", "Paul"),
    ("2", "S", "John Lennon"), ("2", "A", "Lennon"), ("2", "B", "John"),
    ("3", "S", "George Harrison"), ("3", "A", "Harrison"), ("3", "B", "George"),
    ("4", "S", "Ringo Starr"), ("4", "A", "Starr"), ("4", "B", "Ringo"),
]


def question(rows, qid="q") -> Question:
    q = Question(qid, "answers.tsv")
    for n, (sid, level, text) in enumerate(rows, 1):
        syn = next((s for s in q.synsets if s.id == sid), None)
        if syn is None:
            syn = Synset(sid)
            q.synsets.append(syn)
        syn.strings.append(AnswerString(text, parse_level(str(level)), n))
    return q


def score(rows, answers, *, gains=None, beta=1.0, mode="normalised"):
    """(marks, values) of one run's answers (in position order) for a question."""
    table = match_table(question(rows), mode, gains_of(gains))
    marks = mark(answers, table, mode)
    g = np.array([m.gain for m in marks])
    return marks, qa_values(g, table.ideal, beta)


def write_answers(path: Path, questions: dict[str, list[tuple[str, str, str]]]) -> Path:
    path.write_text("".join(f"{q}\t{s}\t{lv}\t{t}\n" for q, rows in questions.items() for s, lv, t in rows))
    return path


def write_run(path: Path, lines, tag: str | None = None) -> Path:
    path.write_text("".join(f"{q}\t{r}\t{a}" + (f"\t{tag}" if tag else "") + "\n" for q, r, a in lines))
    return path


# --------------------------------------------------------------------- seed 003's examples ----

def test_beatles_example_q_0722_r_0625(tmp_path):
    """Seed 003 §3.2: run ("McCartney", "Lennon", "Paul", "George Harrison", "Starr")."""
    marks, v = score(BEATLES, ["McCartney", "Lennon", "Paul", "George Harrison", "Starr"])
    # marking: McCartney -> A (AS1 new), Lennon -> A (AS2), Paul -> AS1 again: nothing,
    # George Harrison -> S (AS3), Starr -> A (AS4)
    assert [m.level for m in marks] == ["A", "A", None, "S", "A"]
    assert [m.gain for m in marks] == [2, 2, 0, 3, 2]  # g(r); bg(r) = 3, 3, 0, 4, 3
    # cbg = 3, 6, 6, 10, 13; ideal: four S synsets, cig = 3, 6, 9, 12, 12
    # Q = (3/(3+1) + 6/(6+2) + 10/(12+4) + 13/(12+5)) / 4 = 393/544 = 0.7224
    q = (F(3, 4) + F(6, 8) + F(10, 16) + F(13, 17)) / 4
    assert q == F(393, 544)
    assert_close(v["Q"], q, "Q")
    assert round(v["Q"], 3) == 0.722
    # R-measure = cbg(4) / (cig(4) + 4) = 10/16 = 0.625
    assert_close(v["R"], F(10, 16), "R")
    assert v["RR"] == 1.0
    # the same through files, the reader and the evaluator
    ans = write_answers(tmp_path / "a.tsv", {"Q1": BEATLES})
    (tmp_path / "runs").mkdir()
    write_run(tmp_path / "runs" / "r.tsv", [("Q1", i + 1, a) for i, a in enumerate(["McCartney", "Lennon", "Paul", "George Harrison", "Starr"])])
    res = inexeval.evaluate({"TASK": "qa", "ASSESSMENTS_DIR": str(ans), "SUBMISSIONRUNS_DIR": str(tmp_path / "runs")})
    got = res.per_topic("r")["Q1"]
    assert_close(got["Q"], F(393, 544), "Q")
    assert_close(got["R"], F(5, 8), "R")
    assert got["num_synsets"] == 4 and got["num_synsets_S"] == 4 and got["num_correct"] == 4


@pytest.mark.parametrize("level", ["S", "A", "B", 0.5, 7.0])
def test_nil_at_rank_1_scores_one_whatever_its_level(level):
    # g(1) = gain(X), cbg(1) = gain(X) + 1, cig(1) = gain(X): Q = R = (gain + 1)/(gain + 1) = 1
    nil = [("1", level, "NIL")]
    for answers in (["NIL"], ["NIL", "Paris"], ["NIL", "NIL"], ["nil"]):
        marks, v = score(nil, answers)
        assert v == {"Q": 1.0, "R": 1.0, "RR": 1.0}, answers
        assert marks[0].level == parse_level(str(level)) and all(m.gain == 0 for m in marks[1:])


def test_nil_below_rank_1_and_nil_for_a_question_with_answers_score_zero():
    nil = [("1", "A", "NIL")]
    marks, v = score(nil, ["Paris", "NIL"])
    assert [m.gain for m in marks] == [0, 0] and marks[1].reason == "NIL counts only at position 1"
    assert v == {"Q": 0.0, "R": 0.0, "RR": 0.0}
    marks, v = score(BEATLES, ["NIL", "John Lennon"])  # NIL matches nothing of a question with answers
    assert marks[0].gain == 0 and marks[0].reason == "matches no answer string"
    # only "John Lennon" at 2: cbg(2) = 4, cig(2) = 6; Q = (4/(6+2))/4 = 1/8; RR = 1/2
    assert_close(v["Q"], F(1, 8), "Q")
    assert v["RR"] == 0.5


def test_qac1_1012_b_answer_at_rank_1_with_one_s_synset():
    # "1968" is B-correct: cbg(1) = 1 + 1 = 2; R = R(S) = 1, cig(1) = 3: Q = (2/(3+1))/1 = 0.5
    _, v = score([("1", "S", "December 10, 1968"), ("1", "B", "1968")], ["1968"])
    assert_close(v["Q"], F(2, 4), "Q")
    assert_close(v["R"], F(2, 4), "R")  # R = 1: the same ratio at rank 1
    assert v["RR"] == 1.0  # RR is blind to the level


def test_qac1_1058_two_s_answers_at_ranks_1_and_5_of_three_synsets():
    rows = [("y", "S", "Hideki Yukawa"), ("t", "S", "Shinichiro Tomonaga"), ("e", "S", "Leo Esaki")]
    marks, v = score(rows, ["Hideki Yukawa", "x", "y", "z", "Shinichiro Tomonaga"])
    # bg = (4, 0, 0, 0, 4), cbg = (4, 4, 4, 4, 8); cig = (3, 6, 9, 9, 9)
    # Q = (4/(3+1) + 8/(9+5)) / 3 = 11/21 = 0.524
    assert [m.gain for m in marks] == [3, 0, 0, 0, 3]
    assert_close(v["Q"], (F(4, 4) + F(8, 14)) / 3, "Q")
    assert round(v["Q"], 3) == 0.524
    assert_close(v["R"], F(4, 12), "R")  # cbg(3) = 4, cig(3) = 9, R = 3
    assert v["RR"] == 1.0  # RR ignores the answer at rank 5


# --------------------------------------------------------------------- marking rules ----

def test_duplicates_from_one_synset_earn_nothing_and_keep_their_position():
    marks, v = score(BEATLES, ["Paul McCartney", "Sir Paul McCartney", "John Lennon"])
    assert [m.gain for m in marks] == [3, 0, 3]
    assert marks[1].reason == "synset 1 already marked at position 1"
    # cbg = 4, 4, 8; cig = 3, 6, 9: Q = (4/4 + 8/(9+3))/4 = 5/12; dropping the duplicate would
    # have given (4/4 + 8/(6+2))/4 = 1/2
    assert_close(v["Q"], (F(4, 4) + F(8, 12)) / 4, "Q")
    # a weaker string first marks the synset with ITS level: the better one later earns nothing
    marks, _ = score(BEATLES, ["Paul", "Paul McCartney"])
    assert [m.level for m in marks] == ["B", None]


def test_ties_and_gaps_in_ranks_follow_rank_then_file_order(tmp_path):
    ans = write_answers(tmp_path / "a.tsv", {"Q1": BEATLES})
    (tmp_path / "runs").mkdir()
    # file order: Lennon (7), Paul McCartney (3), George Harrison (7), Ringo (100)
    write_run(tmp_path / "runs" / "r.tsv", [("Q1", 7, "Lennon"), ("Q1", 3, "Paul McCartney"),
                                            ("Q1", 7, "George Harrison"), ("Q1", 100, "Ringo")], tag="r")
    res = inexeval.evaluate({"TASK": "qa", "ASSESSMENTS_DIR": str(ans), "SUBMISSIONRUNS_DIR": str(tmp_path / "runs")})
    got = res.per_topic("r")["Q1"]
    # positions: Paul McCartney (S, 3), Lennon (A, 2), George Harrison (S, 3), Ringo (B, 1)
    # cbg = 4, 7, 11, 13; cig = 3, 6, 9, 12: Q = (4/4 + 7/8 + 11/12 + 13/16)/4 = 173/192
    assert_close(got["Q"], (F(4, 4) + F(7, 8) + F(11, 12) + F(13, 16)) / 4, "Q")
    assert_close(got["R"], F(13, 16), "R")
    rows = marking({"TASK": "qa", "ASSESSMENTS_DIR": str(ans),
                                "SUBMISSIONRUNS_DIR": str(tmp_path / "runs")})
    assert [(r["position"], r["rank"], r["line"], r["mark"]) for r in rows] == \
        [(1, 3, 2, "S"), (2, 7, 1, "A"), (3, 7, 3, "S"), (4, 100, 4, "B")]


def test_only_the_first_max_results_positions_count(tmp_path):
    ans = write_answers(tmp_path / "a.tsv", {"Q1": BEATLES})
    (tmp_path / "runs").mkdir()
    lines = [("Q1", r, a) for r, a in enumerate(["x1", "x2", "x3", "x4", "x5", "John Lennon"], 1)]
    write_run(tmp_path / "runs" / "r.tsv", lines, tag="r")
    cfg = {"TASK": "qa", "ASSESSMENTS_DIR": str(ans), "SUBMISSIONRUNS_DIR": str(tmp_path / "runs")}
    res = inexeval.evaluate(cfg)
    assert res.per_topic("r")["Q1"]["Q"] == 0.0
    assert any("1 answer beyond MAX_RESULTS=5 dropped (question Q1)" in w for w in res.warnings)
    # L' = 6: cbg(6) = 4, cig(6) = 12: Q = (4/(12+6))/4 = 1/18
    assert_close(inexeval.evaluate(cfg, MAX_RESULTS=6).per_topic("r")["Q1"]["Q"], F(4, 18) / 4, "Q")


def test_answer_match_exact_and_normalised():
    rows = [("1", "S", "John Lennon"), ("2", "S", "Ringo Starr")]
    variants = ["  john   LENNON ", "ＪＯＨＮ　ＬＥＮＮＯＮ"]  # spaces and case; full-width forms (NFKC)
    for v in variants:
        marks, _ = score(rows, [v.strip() if v.startswith(" ") else v], mode="normalised")
        assert marks[0].level == "S", v
        marks, _ = score(rows, [v], mode="exact")
        assert marks[0].level is None, v
    with pytest.raises(ValueError, match="the same answer under ANSWER_MATCH=normalised"):
        match_table(question([("1", "S", "Paul"), ("2", "S", "PAUL")]), "normalised", DEFAULT_GAINS)
    assert match_table(question([("1", "S", "Paul"), ("2", "S", "PAUL")]), "exact", DEFAULT_GAINS) is not None


def test_gains_and_numeric_levels_and_beta():
    rows = [("1", "S", "a"), ("2", "A", "b"), ("3", "2.5", "c")]
    marks, v = score(rows, ["c", "b"], gains=(("S", 4.0), ("A", 1.0), ("B", 0.5)), beta=0.5)
    assert [m.gain for m in marks] == [2.5, 1.0]
    # ideal gains 4, 2.5, 1: cig = 4, 6.5; cg = 2.5, 3.5; count = 1, 2; beta = 0.5
    # Q = ((0.5*2.5 + 1)/(0.5*4 + 1) + (0.5*3.5 + 2)/(0.5*6.5 + 2))/3
    q = ((F(1, 2) * F(5, 2) + 1) / (F(1, 2) * 4 + 1) + (F(1, 2) * F(7, 2) + 2) / (F(1, 2) * F(13, 2) + 2)) / 3
    assert_close(v["Q"], q, "Q")


# --------------------------------------------------------------------- against pyNTCIREVAL ----

class _BlendedRatioAtR(QMeasure):
    """pyNTCIREVAL's blended ratio read at rank R: Sakai's R-measure."""

    def __init__(self, xrelnum, grades, beta, R):
        super().__init__(xrelnum, grades, beta)
        self.R = R

    def discount(self, idx):
        return 1.0 if self.rank(idx) == self.R else 0.0


@pytest.mark.parametrize("seed", range(40))
def test_q_r_rr_equal_pyntcireval_fed_the_marked_gain_list(seed):
    rng = random.Random(seed)
    gains = rng.choice([None, (("S", 3.0), ("A", 2.0), ("B", 1.0)), (("S", 10.0), ("A", 3.0), ("B", 0.5))])
    beta = rng.choice([1.0, 0.1, 2.0])
    levels = ["S", "A", "B", "1.5", "4"]
    rows = [(f"s{i}", rng.choice(levels), f"a{i}-{j}") for i in range(rng.randint(1, 7))
            for j in range(rng.randint(1, 3))]
    pool = [t for _, _, t in rows] + ["wrong", "NIL", "other"]
    answers = [rng.choice(pool) for _ in range(rng.randint(0, 10))]
    marks, v = score(rows, answers, gains=gains, beta=beta)
    g = gains_of(gains)
    best: dict[str, float] = {}
    for sid, lv, _ in rows:
        best[sid] = max(best.get(sid, 0.0), g[lv] if lv in g else float(lv))
    values = sorted(set(best.values()) | {m.gain for m in marks if m.gain > 0})  # level k -> values[k-1]
    xrelnum = [0] + [sum(1 for b in best.values() if b == x) for x in values]
    ranked = [(f"p{m.position}", values.index(m.gain) + 1 if m.gain > 0 else 0) for m in marks]
    R = len(best)
    assert_close(v["Q"], QMeasure(xrelnum, values, beta).compute(ranked) if ranked else 0.0, "Q")  # L = 0: 0
    padded = ranked + [(f"pad{i}", 0) for i in range(max(0, R - len(ranked)))]  # cbg stays after L (Figure 2)
    assert_close(v["R"], _BlendedRatioAtR(xrelnum, values, beta, R).compute(padded), "R")
    assert_close(v["RR"], NtcirRR().compute(ranked) if any(lv for _, lv in ranked) else 0.0, "RR")


# --------------------------------------------------------------------- answer files ----

def test_answer_file_variants_read_alike(tmp_path):
    plain = "Q1\t1\tS\tJohn Lennon\nQ1\t2\tA\tStarr\nQ2\tn\tB\tNIL\n"
    variants = {
        "plain.tsv": plain.encode(),
        "crlf.tsv": plain.replace("\n", "\r\n").encode(),
        "header.tsv": ("question-id\tsynset-id\tlevel\tanswer\n" + plain).encode(),
        "comments.tsv": ("# answers\n\n" + plain.replace("Q2", "\n# nil\nQ2", 1) + "\n\n").encode(),
        "bom.tsv": b"\xef\xbb\xbf" + plain.encode(),
        "utf16.tsv": plain.encode("utf-16"),
        "zipped.tsv.gz": gzip.compress(plain.encode()),
        "lower.tsv": plain.replace("\tS\t", "\ts\t").encode(),
    }
    seen = []
    for name, data in variants.items():
        (tmp_path / name).write_bytes(data)
        a = read_answer_files([tmp_path / name])
        assert not a.problems, (name, a.problems)
        seen.append({q: [(s.id, [(x.text, x.level) for x in s.strings]) for s in v.synsets]
                     for q, v in a.questions.items()})
    assert all(s == seen[0] for s in seen)
    assert seen[0]["Q2"] == [("n", [("NIL", "B")])]


@pytest.mark.parametrize("text,line,message", [
    ("Q1\t1\tS\tParis\nQ1\t2\tA\tNIL\n", 2, "NIL beside 1 other answer string(s) of question Q1"),
    ("Q1\t1\tS\tParis\nQ1\t1\tC\tLyon\n", 2, "level 'C' is not S, A, B or a positive number"),
    ("Q1\t1\tS\tParis\nQ1\t1\t0\tLyon\n", 2, "level '0' is not S, A, B or a positive number"),
    ("Q1\t1\tS\tParis\nQ1\t1\tS\n", 2, "expected 4 tab-separated columns"),
    ("Q1\t1\tS\tParis\nQ1 1 S Lyon\n", 2, "no tab found"),
    ("Q1\t1\tS\tParis\nQ1\t1\tB\tParis\n", 2, "'Paris' is also in synset 1 at line 1 with level S"),
    ("Q1\t1\tS\tParis\nQ1\t1\tS\t \n", 2, "empty answer string"),
])
def test_answer_file_errors_name_file_and_line_and_leave_the_question_out(tmp_path, text, line, message):
    p = tmp_path / "a.tsv"
    p.write_text(text + "Q2\t1\tS\tRome\n")
    a = read_answer_files([p])
    assert list(a.questions) == ["Q2"]  # the other question is kept
    (err,) = a.problems
    assert (err.file, err.line) == (str(p), line) and message in err.message
    assert "question Q1 left out" in err.message


def test_bad_answer_data_is_reported_and_the_rest_scored(tmp_path):
    ans = tmp_path / "a.tsv"
    ans.write_text("Q1\t1\tS\tParis\nQ1\t2\tA\tNIL\nQ2\t1\tS\tRome\nQ3\t1\tS\tLyon\nQ3\t2\tS\tLYON\n")
    (tmp_path / "runs").mkdir()
    write_run(tmp_path / "runs" / "r.tsv", [("Q1", 1, "Paris"), ("Q2", 1, "Rome"), ("Q3", 1, "Lyon")], tag="r")
    cfg = tmp_path / "qa.prop"
    cfg.write_text(f"TASK: qa\nASSESSMENTS_DIR: {ans}\nSUBMISSIONRUNS_DIR: {tmp_path / 'runs'}\n")
    res = CliRunner().invoke(main, ["-config", str(cfg), "--results-dir", str(tmp_path / "out")])
    assert res.exit_code == 1
    assert f"{ans}:2: NIL beside 1 other answer string(s) of question Q1" in res.output
    assert f"{ans}:5: question Q3: 'LYON' (synset 2) and 'Lyon' (synset 1, line 4) are the same answer under " \
           "ANSWER_MATCH=normalised; question left out" in res.output
    lines = (tmp_path / "out" / "qa" / "default" / "r.tsv").read_text().splitlines()
    assert {"Q\tQ2\t1.0", "R\tQ2\t1.0", "RR\tQ2\t1.0", "Q\tall\t1.0"} <= set(lines)
    assert not [line for line in lines if "Q1" in line or "Q3" in line]
    res = CliRunner().invoke(main, ["-config", str(cfg), "--results-dir", str(tmp_path / "out"),
                                    "--set", "ANSWER_MATCH=exact"])
    assert res.exit_code == 1 and "LYON" not in res.output  # exact: two answers


# --------------------------------------------------------------------- runs ----

def test_malformed_run_is_refused_with_its_line(tmp_path):
    ans = write_answers(tmp_path / "a.tsv", {"Q1": BEATLES})
    (tmp_path / "runs").mkdir()
    (tmp_path / "runs" / "bad.tsv").write_text("Q1\t1\tJohn Lennon\nQ1\tfirst\tRingo\n")
    write_run(tmp_path / "runs" / "good.tsv", [("Q1", 1, "Ringo")])
    res = inexeval.evaluate({"TASK": "qa", "ASSESSMENTS_DIR": str(ans), "SUBMISSIONRUNS_DIR": str(tmp_path / "runs")})
    assert res.runs == ["good"]
    (p,) = res.problems
    assert p.line == 2 and p.file.endswith("bad.tsv") and "rank 'first' is not an integer" in p.message


def test_gzip_run_and_empty_answers(tmp_path):
    ans = write_answers(tmp_path / "a.tsv", {"Q1": BEATLES})
    (tmp_path / "runs").mkdir()
    (tmp_path / "runs" / "z.tsv.gz").write_bytes(gzip.compress(b"Q1\t1\t\tz\nQ1\t2\tJohn Lennon\tz\n"))
    res = inexeval.evaluate({"TASK": "qa", "ASSESSMENTS_DIR": str(ans), "SUBMISSIONRUNS_DIR": str(tmp_path / "runs")})
    # the empty answer keeps position 1: cbg(2) = 4, cig(2) = 6, Q = (4/8)/4; RR = 1/2
    assert_close(res.per_topic("z")["Q1"]["Q"], F(4, 8) / 4, "Q")
    assert res.per_topic("z")["Q1"]["RR"] == 0.5
    assert any("1 empty answer(s) scored as wrong (first at line 1)" in w for w in res.warnings)


# --------------------------------------------------------------------- sample data, CLI ----

def test_sample_runs_rr_and_q_disagree():
    res = inexeval.evaluate(ROOT / "configs" / "qa.prop")
    af, noaf = res.average("AF"), res.average("noAF")
    assert af["RR"] > noaf["RR"] and af["Q"] < noaf["Q"]
    # AF: RR 1 on every question; Q per question 393/544, 1, 1/2, 11/21, 3/4, 1/2
    assert af["RR"] == 1.0
    assert_close(af["Q"], (F(393, 544) + 1 + F(1, 2) + F(11, 21) + F(3, 4) + F(1, 2)) / 6, "Q")
    # noAF: RR 1/2, 0, 1/2, 1, 1, 1
    assert_close(noaf["RR"], F(4, 6), "RR")
    # -e: single lacks QA-005
    assert_close(inexeval.evaluate(ROOT / "configs" / "qa.prop", empty_as_zero=True).average("single")["RR"],
                 F(5, 6), "RR")


def test_per_query_prints_the_marking_and_files_are_written(tmp_path):
    res = CliRunner().invoke(main, ["-config", str(ROOT / "configs" / "qa.prop"), "-q",
                                    "--results-dir", str(tmp_path)])
    assert res.exit_code == 0, res.output
    out = res.output
    assert "== qa marking: AF" in out and "== qa marking: noAF" in out
    assert "synset 1 already marked at position 1" in out  # AF QA-001 "Paul"
    assert "NIL counts only at position 1" in out  # noAF QA-002
    assert "synset yukawa already marked at position 2" in out  # noAF's tie at rank 20
    text = (tmp_path / "qa" / "default" / "AF.tsv").read_text()
    assert "Q\tQA-001\t0.7224264705882353\n" in text and "RR\tall\t1.0\n" in text
    assert "num_synsets\tQA-004\t3.0\n" in text
    # no marking in the machine-readable formats
    tsv = CliRunner().invoke(main, ["-config", str(ROOT / "configs" / "qa.prop"), "-q", "--format", "tsv",
                                    "--results-dir", str(tmp_path)])
    assert "marking" not in tsv.output


def test_compare_two_runs_shows_q_and_rr_differences(tmp_path):
    res = CliRunner().invoke(main, ["compare", "-config", str(ROOT / "configs" / "qa.prop"), "--runs", "AF,noAF",
                                    "--results-dir", str(tmp_path), "-gnu"])
    assert res.exit_code == 0, res.output
    assert "Q: AF - noAF per topic" in res.output and "RR: AF - noAF per topic" in res.output
    assert "QA-003\t-0.3000" in res.output  # Q: 1/2 - 4/5
    graphs = sorted(p.name for p in (tmp_path / "qa" / "graphs").glob("*.gp"))
    assert graphs == ["differences_Q_AF_vs_noAF_default.gp", "differences_RR_AF_vs_noAF_default.gp"]


def test_validate_qa_runs(tmp_path):
    run = tmp_path / "r.tsv"
    run.write_text("Q1\t1\tfoo\tt\nQ1\t1\t\tt\nQ1\tx\tb\tt\nQ9\t1\tz\tt\n"
                   + "".join(f"Q1\t{r}\ta\tt\n" for r in range(2, 6)))
    ans = write_answers(tmp_path / "a.tsv", {"Q1": BEATLES, "Q2": [("1", "S", "x")]})
    res = CliRunner().invoke(main, ["validate", "--task", "qa", "--assessments", str(ans), str(run)])
    assert res.exit_code == 1
    out = res.output
    assert f"{run}:3: malformed: rank 'x' is not an integer" in out
    assert f"{run}:4: unknown_topic: question Q9 is not in the answer file" in out
    assert f"{run}:8: beyond_max_results: question Q1: 6 answers, the 1 beyond MAX_RESULTS=5" in out
    assert f"{run}:2: warning: duplicate_rank: question Q1: rank 1 also at line 1" in out
    assert f"{run}:2: warning: empty_answer" in out
    assert "missing_topic: 1 question(s) of the answer file without results: Q2" in out
    ok = CliRunner().invoke(main, ["validate", "--task", "qa", "--max-results", "6", str(run)])
    assert "beyond_max_results" not in ok.output


def test_config_keys(tmp_path):
    base = {"TASK": "qa", "ASSESSMENTS_DIR": str(ROOT / "sample_data" / "qa" / "answers.tsv"),
            "SUBMISSIONRUNS_DIR": str(ROOT / "sample_data" / "qa" / "runs")}
    q = inexeval.evaluate(base).per_topic("AF")["QA-003"]["Q"]
    # BETA is Q_BETA: beta = 0.5 for "1968" (B) against one S synset: (0.5*1 + 1)/(0.5*3 + 1) = 3/5
    assert_close(inexeval.evaluate({**base, "BETA": "0.5"}).per_topic("AF")["QA-003"]["Q"], F(3, 5), "Q")
    assert q == 0.5
    # GAINS of the letters: B:3 makes "1968" as good as the S string
    assert inexeval.evaluate({**base, "GAINS": "B:3"}).per_topic("AF")["QA-003"]["Q"] == 1.0
    from inexeval.errors import ConfigError

    with pytest.raises(ConfigError, match="gives gains to the answer levels S, A, B"):
        inexeval.evaluate({**base, "GAINS": "1:1, 2:2"})
    with pytest.raises(ConfigError, match="ANSWER_MATCH: 'fuzzy' is not 'exact' or 'normalised'"):
        inexeval.evaluate({**base, "ANSWER_MATCH": "fuzzy"})
    # exact matching: noAF's "digital versatile  disc" and "Chiba prefecture" no longer match
    exact = inexeval.evaluate({**base, "ANSWER_MATCH": "exact"}).per_topic("noAF")
    assert exact["QA-005"]["Q"] == 0.0 and exact["QA-006"]["Q"] == 0.0
    assert {m.name for m in inexeval.measures("qa")} == {"qa", "qa-counts"}


def test_a_question_in_two_answer_files_is_left_out(tmp_path):
    a = write_answers(tmp_path / "a.tsv", {"Q1": [("1", "S", "x")], "Q2": [("1", "S", "y")]})
    b = write_answers(tmp_path / "b.tsv", {"Q1": [("1", "S", "z")]})
    data = read_answer_files([a, b])
    assert list(data.questions) == ["Q2"]
    (err,) = data.problems
    assert (err.file, err.line) == (str(b), 1) and f"question Q1 is also in {a}; question left out" in err.message


def test_marking_lists_the_dropped_answers(tmp_path):
    ans = write_answers(tmp_path / "a.tsv", {"Q1": BEATLES})
    (tmp_path / "runs").mkdir()
    write_run(tmp_path / "runs" / "r.tsv", [("Q1", 1, "Ringo"), ("Q1", 2, "John Lennon")], tag="r")
    rows = marking({"TASK": "qa", "ASSESSMENTS_DIR": str(ans), "SUBMISSIONRUNS_DIR": str(tmp_path / "runs"),
                    "MAX_RESULTS": "1"})
    assert [(r["answer"], r["mark"], r["why"]) for r in rows] == [
        ("Ringo", "B", "first answer of synset 4"), ("John Lennon", "-", "dropped: beyond MAX_RESULTS=1")]


def _left_out_by_evaluation(ans: Path, run: Path, mode: str, questions: set[str] | None = None) -> set[str]:
    """The questions an evaluation leaves out for errors of the answer file (from its problems).  When it
    leaves out every question (QUESTIONS: those of the file) there is nothing to evaluate: it stops with
    an input error that lists what it skipped, from which they are read."""
    try:
        res = inexeval.evaluate({"TASK": "qa", "ASSESSMENTS_DIR": str(ans), "SUBMISSIONRUNS_DIR": str(run),
                                 "ANSWER_MATCH": mode})
    except InputError as e:
        assert questions is not None and str(e).startswith("no assessed topic selected from "), e
        skipped = str(e).split("; skipped: ")[1:]
        left = {_left_out_question(p) for p in skipped if p.endswith("left out")}
        assert left == questions, (left, questions, str(e))
        return left
    return {_left_out_question(p.message) for p in res.problems if p.message.endswith("left out")}


def _left_out_question(message: str) -> str:
    """The question a 'left out' message names ('...; question Q1 left out' or 'question Q1: ...; question
    left out')."""
    import re

    m = re.search(r"question (\S+) left out$", message) or re.search(r"question (\S+?): ", message)
    return m.group(1)


def _left_out_by_validate(ans: Path, run: Path, mode: str) -> tuple[int, set[str], str]:
    """Validate's status, the questions it lists as left out, and its output.  When it leaves out every
    question, the error that stops it lists them."""
    res = CliRunner().invoke(main, ["validate", "--task", "qa", "--answer-match", mode,
                                    "--assessments", str(ans), str(run)])
    left = {_left_out_question(ln) for ln in res.output.splitlines() if ": left_out_question: " in ln}
    stopped = f"inexeval: error: {ans}: no question is left to check the runs against: every one has a problem"
    if stopped in res.output:
        assert not left, res.output
        error = next(ln for ln in res.output.splitlines() if ln.startswith(stopped))
        left = {_left_out_question(p) for p in error.split("; skipped: ")[1:] if p.endswith("left out")}
    return res.exit_code, left, res.output


def test_two_synsets_with_one_answer_validate_says_what_evaluation_does(tmp_path):
    # 'paris' and 'Paris' are one answer under ANSWER_MATCH=normalised (case folded), two under exact
    ans = write_answers(tmp_path / "a.tsv", {"Q1": [("1", "S", "Paris"), ("2", "A", "paris")],
                                             "Q2": [("1", "S", "Rome")]})
    run = write_run(tmp_path / "r.tsv", [("Q1", 1, "Paris"), ("Q2", 1, "Rome")], tag="r")
    status, left, out = _left_out_by_validate(ans, run, "normalised")
    assert status == 1 and left == {"Q1"} == _left_out_by_evaluation(ans, run, "normalised")
    assert (f"left_out_question: answer file {ans}:2: question Q1: 'paris' (synset 2) and 'Paris' "
            "(synset 1, line 1) are the same answer under ANSWER_MATCH=normalised; question left out") in out
    assert "unknown_topic" not in out  # Q1 is left out, not unknown
    status, left, out = _left_out_by_validate(ans, run, "exact")
    assert (status, left) == (0, set()) and "VALID" in out and _left_out_by_evaluation(ans, run, "exact") == set()


def test_answer_match_option_is_for_qa_only(tmp_path):
    run = write_run(tmp_path / "r.tsv", [("Q1", 1, "x")], tag="r")
    res = CliRunner().invoke(main, ["validate", "--answer-match", "exact", str(run)])
    assert res.exit_code == 2 and "--answer-match applies to qa runs only" in res.output


def test_every_question_left_out_validate_lists_them_and_evaluation_stops(tmp_path):
    """Nothing left to check or evaluate: validate and evaluation each stop with an input error naming
    the answer file and every question left out, with its line (validate named only the first)."""
    ans = tmp_path / "a.tsv"
    ans.write_text("Q1\t1\tZ\tParis\nQ2\t1\tS\tNIL\nQ2\t1\tS\tRome\n")
    run = write_run(tmp_path / "r.tsv", [("Q1", 1, "Paris"), ("Q2", 1, "Rome")], tag="r")
    status, left, out = _left_out_by_validate(ans, run, "normalised")
    assert status == 1 and left == {"Q1", "Q2"}, out
    assert (f"inexeval: error: {ans}: no question is left to check the runs against: every one has a problem; "
            f"skipped: {ans}:1: level 'Z' is not S, A, B or a positive number; question Q1 left out; skipped: "
            f"{ans}:2: NIL beside 1 other answer string(s) of question Q2: a NIL question has one synset holding "
            "only NIL; question Q2 left out") in out
    with pytest.raises(InputError) as e:
        inexeval.evaluate({"TASK": "qa", "ASSESSMENTS_DIR": str(ans), "SUBMISSIONRUNS_DIR": str(run)})
    message = str(e.value)
    assert message.startswith(f"no assessed topic selected from {ans} "), message
    assert f"skipped: {ans}:1: level 'Z' is not S, A, B or a positive number; question Q1 left out" in message
    assert f"skipped: {ans}:2: NIL beside 1 other answer string(s) of question Q2" in message
    assert _left_out_by_evaluation(ans, run, "normalised", {"Q1", "Q2"}) == {"Q1", "Q2"}


@pytest.mark.parametrize("seed", range(40))
def test_validate_and_evaluation_leave_out_the_same_questions(tmp_path, seed):
    """Random answer files (case, width and space variants across and within synsets, malformed lines,
    NIL beside answers): the questions validate lists as left out are those evaluation leaves out
    (every one of them for some seeds, 100003 of a longer campaign: evaluation stops then)."""
    rng = random.Random(seed)
    variants = ["Paris", "paris", "PARIS", " Paris ", "Par is", "Ｐａｒｉｓ", "Rome", "rome", "Oslo", "NIL"]
    lines, qids = [], [f"Q{i}" for i in range(1, 7)]
    for q in qids:
        for _ in range(rng.randint(1, 4)):
            if rng.random() < 0.08:
                lines.append(f"{q}\t1\tZ\tbad level")
                continue
            lines.append(f"{q}\t{rng.randint(1, 3)}\t{rng.choice('SAB')}\t{rng.choice(variants)}")
    ans = tmp_path / "a.tsv"
    ans.write_text("\n".join(lines) + "\n")
    run = write_run(tmp_path / "r.tsv", [(q, 1, "Paris") for q in qids], tag="r")
    for mode in ("normalised", "exact"):
        status, left, out = _left_out_by_validate(ans, run, mode)
        assert left == _left_out_by_evaluation(ans, run, mode, {line.split("\t")[0] for line in lines}), out
        assert status == (1 if left else 0), out
