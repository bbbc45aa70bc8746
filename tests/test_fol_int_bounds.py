"""FOL numbers past 2^31 (issue 30): the inex-eval drop-in keeps inex_eval 3.1's int arithmetic (D17), the
config path never prints a size the tool's ints wrapped around: it names the qrels line or refuses the run
at its line (docs/formats.md §1.7)."""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner
from fol_helpers import drop_in, values, write

from inexeval.cli.command import main
from inexeval.measures.fol import fol_findings, score_fol_run
from inexeval.readers.fol import read_fol_qrels, read_fol_run

#: Qrels whose passages end past 2^31 - 1 (OFFSET + LENGTH wraps around in the tool), and a run into them.
WRAP_QRELS = ["T Q0 a 100 1000 -1 2147483000:2147483000",
              "T Q0 b 100 1000 -1 2147483000:2147483000",
              "T Q0 c 100 1000 -1 5:10",
              "U Q0 a 100 1000 -1 2147483600:100",
              "U Q0 b 2000000000 1000 -1 0:50"]
WRAP_RUN = ["T Q0 a 1 1 R 2147482990 20", "T Q0 c 1 1 R 0 20", "T Q0 b 1 1 R 2147482990 20",
            "U Q0 a 1 1 R 2147483590 20", "U Q0 b 1 1 R 0 60"]
TASKS = {"t": "FOL.Thorough", "f": "FOL.Focused", "r": "FOL.RelevantInContext", "b": "FOL.BestInContext",
         "i": "FOL.T2I"}


@pytest.fixture
def here(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return tmp_path


# ------------------------------------------------------------------ the drop-in: the tool's ints ----

def test_the_drop_in_keeps_the_tools_wrapped_numbers(here):
    """The tool's own output on these files (inex_eval.jar, checked by hand and by
    test_the_drop_in_is_the_jar_past_2_31): negative sizes, char_prec below 0, impossible recall points."""
    write(here / "q.txt", WRAP_QRELS)
    write(here / "r.txt", WRAP_RUN)
    out, err, status = drop_in("-f", "-q", "q.txt", "r.txt")
    assert status == 0 and err == ""
    assert out.startswith("Impossible recall point: 715827666\nImpossible recall point: 715827670\n"
                          "Impossible recall point: -429\n")
    v = values(out)
    assert v[("rel_ret_size", "T")] == "-1286" and v[("char_prec", "T")] == "-21.433333333333334"
    assert v[("rel_ret_size", "all")] == "-1136"


@pytest.mark.parametrize("task", list(TASKS))
def test_the_drop_in_is_the_jar_past_2_31(here, monkeypatch, task):
    from oracles import inex_eval_jar
    from test_oracle_inex_eval import assert_same, both

    write(here / "q.txt", WRAP_QRELS)
    write(here / "r.txt", WRAP_RUN)
    write(here / "neg.txt", ["T Q0 a 1 1 R -2000000000 -1000000000", "T Q0 c 1 1 R 0 20"])
    write(here / "big.txt", ["T Q0 c 1 1 R 0 2000000000", "U Q0 b 1 1 R 0 2000000000"])
    argv = [f"-{task}", "-q", "q.txt", "r.txt", "neg.txt", "big.txt"]
    want, got = both(inex_eval_jar(), argv, here, monkeypatch)
    assert_same(argv, here, want, got)


# ------------------------------------------------------------------ the config path: named lines ----

@pytest.mark.parametrize("lines, line, message", [
    (["T Q0 a 100 1000 -1 2147483600:100"], 1, "passage '2147483600:100' ends past 2147483647"),
    (["T Q0 a 100 1000 -1 0:5 2147483647:1"], 1, "passage '2147483647:1' ends past 2147483647"),
    (["T Q0 a 100 1000 -1 0:5", "T Q0 a 100 1000 -1 2147483647:1"], 2, "ends past 2147483647"),
    (["T Q0 a 2000000000 1000", "T Q0 b 2000000000 1000"], 2, "the REL_CHARS of topic 'T' add up past 2147483647"),
    (["T Q0 a 2000000000 1000", "U Q0 b 2000000000 1000"], 2, "the REL_CHARS of all topics add up past"),
    (["T Q0 a 1 1000 -1 0:2000000000 5:2000000000"], 1, "the passages of article 'a' are longer than 2147483647"),
])
def test_qrels_past_2_31_name_their_line(tmp_path, lines, line, message):
    path = write(tmp_path / "q.txt", lines)
    problem = read_fol_qrels(path).int_problem
    assert problem.line == line and message in problem.message and "inex-eval drop-in" in problem.message


def test_a_qrels_passage_of_negative_length_names_its_line(tmp_path):
    """LENGTH -3: the tool counts its characters as negative (a negative rel_ret_size with a run over
    it); the config path names the line instead of printing a negative size."""
    path = write(tmp_path / "q.txt", ["T Q0 a 100 1000 -1 0:5", "T Q0 b 100 1000 -1 10:-3 20:4"])
    problem = read_fol_qrels(path).int_problem
    assert (problem.file, problem.line) == (str(path), 2)
    assert problem.message.startswith("passage '10:-3' has a negative LENGTH: inex_eval 3.1 counts its characters")
    r = read_fol_run(write(tmp_path / "r.txt", ["T Q0 b 1 1 R 0 100"]))
    q = read_fol_qrels(path)
    assert score_fol_run(q, r, "f").death is None  # the tool's reading scores it
    refused = score_fol_run(q, r, "f", bounded=True).death
    assert (refused.line, refused.message) == (2, problem.message)


def test_qrels_at_the_bounds_are_fine(tmp_path):
    q = read_fol_qrels(write(tmp_path / "q.txt", ["T Q0 a 2147483647 1000 -1 2147483640:7 -2147483648:5",
                                                  "U Q0 a 0 1000 -1 0:2147483647"]))
    assert q.topics["T"].rel_size == 2147483647 and q.int_problem is None
    assert q.topics["T"].judgements["a"].spans == [(-2147483648, -2147483643), (2147483640, 2147483647)]


def _scored(tmp_path, qrels: list[str], run: list[str], task: str):
    q = read_fol_qrels(write(tmp_path / "q.txt", qrels))
    r = read_fol_run(write(tmp_path / "r.txt", run))
    assert score_fol_run(q, r, task).death is None  # (the tool's own reading scores it)
    return score_fol_run(q, r, task, bounded=True), fol_findings(q, r, task)


@pytest.mark.parametrize("task", list(TASKS))
def test_a_negative_length_that_wraps_refuses_the_run_at_its_line(tmp_path, task):
    """OFFSET -2000000000 + LENGTH -1000000000 wraps to 1294967296 in the tool: a passage of size
    -1000000000 it accepts (D17).  The config path refuses the run there."""
    outcome, findings = _scored(tmp_path, ["T Q0 a 100 1000 -1 0:100", "T Q0 c 10 1000 -1 0:10"],
                                ["T Q0 c 1 1 R 0 10", "T Q0 a 1 1 R -2000000000 -1000000000"], task)
    assert outcome.death is not None and outcome.death.line == 2
    assert "below -2147483648" in outcome.death.message and "negative size" in outcome.death.message
    assert [(f.kind, f.line) for f in findings] == [("int_overflow", 2)]


@pytest.mark.parametrize("task", ["t", "f", "r", "i"])
def test_sizes_adding_up_past_2_31_refuse_the_run_at_their_line(tmp_path, task):
    outcome, findings = _scored(tmp_path, ["T Q0 a 100 2147483647 -1 0:100", "U Q0 b 100 2147483647 -1 0:100"],
                                ["T Q0 a 1 1 R 0 2000000000", "U Q0 b 1 1 R 0 2000000000"], task)
    assert outcome.death is not None and outcome.death.line == 2
    assert "add up past 2147483647" in outcome.death.message
    assert [(f.kind, f.line) for f in findings] == [("int_overflow", 2)]


def test_a_best_entry_point_distance_past_2_31_refuses_the_run(tmp_path):
    outcome, findings = _scored(tmp_path, ["T Q0 a 100 1000 2147483000 0:100"],
                                ["T Q0 a 1 1 R -2147483000 10"], "b")
    assert outcome.death is not None and outcome.death.line == 1 and "best entry point" in outcome.death.message
    assert [f.kind for f in findings] == ["int_overflow"]


def test_within_the_bounds_nothing_changes(tmp_path):
    qrels = ["T Q0 a 100 1000 -1 2147483000:600", "T Q0 c 100 1000 -1 5:10"]
    run = ["T Q0 a 1 1 R 2147483000 647", "T Q0 c 1 1 R 0 20"]
    q = read_fol_qrels(write(tmp_path / "q.txt", qrels))
    r = read_fol_run(write(tmp_path / "r.txt", run))
    for task in TASKS:
        a, b = score_fol_run(q, r, task, bounded=True), score_fol_run(q, r, task)
        assert a.death is None and (a.per_topic, a.all) == (b.per_topic, b.all)


@pytest.mark.parametrize("task", list(TASKS))
def test_the_config_path_prints_no_wrapped_size(tmp_path, task):
    """Through a config: the qrels line past 2^31 is an error naming it (nothing scored, exit 2 as for any
    unreadable qrels, or 1), a run whose sums would wrap is skipped with its line (exit 1)."""
    qrels = write(tmp_path / "q.txt", WRAP_QRELS)
    run = write(tmp_path / "r.txt", WRAP_RUN)
    cfg = tmp_path / "c.prop"
    cfg.write_text(f"TASK: {TASKS[task]}\nASSESSMENTS_DIR: {qrels}\nSUBMISSIONRUNS_DIR: {run}\n"
                   f"RESULTS_DIR: {tmp_path / 'out'}\n")
    got = CliRunner().invoke(main, ["-config", str(cfg), "-q"])
    assert got.exit_code in (1, 2) and "Traceback" not in got.output
    assert f"{qrels}:1: passage '2147483000:2147483000' ends past 2147483647" in got.stderr
    assert not re.search(r"\t-\d", got.stdout)

    write(qrels, ["T Q0 a 100 2147483647 -1 0:100", "U Q0 b 100 2147483647 -1 0:100"])
    write(run, ["T Q0 a 1 1 R 0 2000000000", "U Q0 b 1 1 R 0 2000000000"])
    good = write(tmp_path / "good.txt", ["T Q0 a 1 1 R 0 100"])
    cfg.write_text(f"TASK: {TASKS[task]}\nASSESSMENTS_DIR: {qrels}\nSUBMISSIONRUNS_DIR: {run}, {good}\n"
                   f"RESULTS_DIR: {tmp_path / 'out'}\n")
    got = CliRunner().invoke(main, ["-config", str(cfg), "-q"])
    if task == "b":  # (Best in Context adds no sizes: both runs are scored)
        assert got.exit_code == 0, got.output
        return
    assert got.exit_code == 1 and f"{run}:2: the characters the run retrieves add up past 2147483647" in got.stderr
    assert (tmp_path / "out" / TASKS[task] / "default" / "good.tsv").exists()
