"""`inexeval compare` on the sample data and on hand-made results."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
from click.testing import CliRunner
from conftest import require_gnuplot

from helpers import assert_close
from inexeval.compare import tables as compare
from inexeval.cli.command import main
from inexeval.model import RunResult

ROOT = Path(__file__).resolve().parent.parent


def invoke(*args):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def test_compare_on_sample_data(tmp_path):
    cfg = str(ROOT / "configs" / "co-thorough.prop")
    res = invoke("compare", "-config", cfg, "--results-dir", str(tmp_path), "--quiet")
    assert res.exit_code == 0, res.output
    assert "kendall correlation of measures  (gen_off)" in res.output
    assert "spearman correlation of quantisations  (MAep off)" in res.output
    assert "t test, Holm-corrected" in res.output and "NearIdeal" in res.output
    out = tmp_path / "CO.Thorough"
    corr = json.loads((out / "correlations.json").read_text())
    kinds = {(r["kind"], r["method"]) for r in corr}
    assert kinds == {(k, m) for k in ("measures", "quantisations") for m in ("kendall", "spearman")}
    sig = json.loads((out / "significance.json").read_text())
    n_runs = 4  # NearIdeal, Medium, Poor, TextRun
    assert len(sig) == 3 * n_runs * (n_runs - 1) // 2  # 3 settings x 6 pairs
    assert all(0 <= r["p"] <= r["p_holm"] <= 1 for r in sig)
    assert (out / "significance.tsv").read_text().splitlines()[0].startswith("task\tsetting\tmeasure\ttest")
    # second call reuses the up-to-date result files
    res = CliRunner().invoke(main, ["compare", "-config", cfg, "--results-dir", str(tmp_path)])
    assert "reusing up-to-date result files" in res.output
    # the fresh evaluation kept only the tested measure's per-topic values; the files hold them all,
    # and the tests on the files read back give the same numbers
    assert json.loads((out / "significance.json").read_text()) == sig
    assert json.loads((out / "correlations.json").read_text()) == corr
    # a changed input makes it re-evaluate
    (tmp_path / "CO.Thorough" / ".inexeval-stamp.json").write_text("{}")
    res = CliRunner().invoke(main, ["compare", "-config", cfg, "--results-dir", str(tmp_path)])
    assert "reusing" not in res.output


def test_compare_two_runs_histogram_and_tests(tmp_path):
    cfg = str(ROOT / "configs" / "co-thorough.prop")
    res = invoke("compare", "-config", cfg, "--results-dir", str(tmp_path), "--quiet", "--runs", "Medium,Poor",
                 "--test", "randomisation", "--samples", "200", "--measure", "Q", "-gnu", "-png",
                 "--set", "QUANT_FUNCTIONS=gen")
    assert res.exit_code == 0, res.output
    assert "Medium better on" in res.output and "randomisation test" in res.output
    graphs = tmp_path / "CO.Thorough" / "graphs"
    assert (graphs / "differences_Q_Medium_vs_Poor_gen_off.png").stat().st_size > 1000
    dat = (graphs / "differences_Q_Medium_vs_Poor_gen_off.dat").read_text().splitlines()
    assert len(dat) == 1 + 5  # header + the 5 sample topics
    require_gnuplot()
    import subprocess

    subprocess.run(["gnuplot", str(graphs / "differences_Q_Medium_vs_Poor_gen_off.gp")], check=True)
    assert (graphs / "differences_Q_Medium_vs_Poor_gen_off.svg").exists()


def test_compare_several_configs_averages(tmp_path):
    res = invoke("compare", "-config", str(ROOT / "configs" / "co-thorough.prop"), "-config",
                 str(ROOT / "configs" / "co-focussed.prop"), "--results-dir", str(tmp_path), "--quiet",
                 "--method", "kendall")
    assert res.exit_code == 0
    assert "kendall correlation of measures  (average)" in res.output
    rows = json.loads((tmp_path / "CO.Thorough" / "correlations-average.json").read_text())
    assert rows and {r["method"] for r in rows} == {"kendall"}


def test_compare_unknown_run_and_measure(tmp_path):
    cfg = str(ROOT / "configs" / "co-thorough.prop")
    res = CliRunner().invoke(main, ["compare", "-config", cfg, "--results-dir", str(tmp_path), "--runs", "Nope"])
    assert res.exit_code == 2 and "Nope" in res.output
    res = CliRunner().invoke(main, ["compare", "-config", cfg, "--results-dir", str(tmp_path), "--measure", "X"])
    assert res.exit_code == 2 and "X" in res.output


def _result(run, setting, avg):
    return RunResult(run, setting, list(avg), {"1": dict(avg)}, dict(avg))


def test_measure_and_quantisation_correlations_hand_made():
    # three runs; under gen, MAep orders A > B > C and Q orders A > C > B
    results = [_result("A", "gen_off", {"MAep": 0.9, "Q": 0.8}), _result("B", "gen_off", {"MAep": 0.5, "Q": 0.2}),
               _result("C", "gen_off", {"MAep": 0.1, "Q": 0.3}),
               _result("A", "strict_off", {"MAep": 0.1, "Q": 0.8}),
               _result("B", "strict_off", {"MAep": 0.5, "Q": 0.2}),
               _result("C", "strict_off", {"MAep": 0.9, "Q": 0.3})]
    (t,) = compare.measure_correlations(results, ["gen_off"], ["MAep", "Q"], "kendall")
    # pairs (A,B) concordant, (A,C) concordant, (B,C) discordant: tau = (2 - 1)/3
    assert_close(t.matrix[1, 0], 1 / 3, "tau MAep/Q")
    tables = compare.quantisation_correlations(results, ["gen_off", "strict_off"], ["MAep", "Q"], "kendall")
    by_scope = {t.scope: t for t in tables}
    assert_close(by_scope["MAep off"].matrix[1, 0], -1.0, "gen vs strict on MAep: reversed")
    assert_close(by_scope["Q off"].matrix[1, 0], 1.0, "gen vs strict on Q: same order")
    avg = compare.averaged(tables, "quantisations", "kendall")
    assert_close(avg.matrix[1, 0], 0.0, "mean of -1 and 1")
    rows = compare.correlation_rows("T", tables)
    assert {(r["scope"], r["a"], r["b"]) for r in rows} == {("MAep off", "strict", "gen"), ("Q off", "strict", "gen")}
    assert np.isclose(t.matrix[0, 0], 1.0)


def test_a_nan_topic_value_is_left_out_of_the_statistics():
    """inex_eval's NaN (a topic without relevant judgement, docs/fol.md §3) is no value for a comparison:
    the topic is left out, as the pairwise tests leave it out.  Runs A (0.1, 0.3, NaN) and B (0.2, 0.5,
    0.4) on topics 1, 2, 3: compared on 1 and 2, differences B - A = 0.1, 0.2, mean 0.15, sd 0.0707107,
    t = 0.15 / (0.0707107 / sqrt 2) = 3 with 1 df; with two runs Tukey HSD and the ANOVA's runs F test
    are that paired t test: p = 2 P(T_1 > 3) = 1 - 2 atan(3) / pi = 0.2048328 (Cauchy)."""
    import math

    from inexeval.compare.runstats import StatsOptions, run_groups, setting_stats

    def rr(run, values):
        return RunResult(run, "default", ["m"], {t: {"m": v} for t, v in values.items()}, {"m": None})

    results = [rr("A", {"1": 0.1, "2": 0.3, "3": float("nan")}), rr("B", {"1": 0.2, "2": 0.5, "3": 0.4})]
    st = setting_stats("t", results, "default", "m", None, StatsOptions())
    assert st.topics == ["1", "2"] and st.left_out == ["3"] and st.runs == ["B", "A"]
    p = 1 - 2 * math.atan(3) / math.pi
    assert_close(st.tukey.p[0, 1], p, 1e-9)
    assert_close(st.anova.p_runs, p, 1e-9)
    assert run_groups(results, "default", "m", StatsOptions()) == {"B": "a", "A": "a"}


def test_compare_of_a_fol_config_with_a_topic_without_relevant_judgement(tmp_path):
    """The command (it stopped with a traceback): the NaN topic C is named as left out."""
    (tmp_path / "qrels.txt").write_text("A Q0 a1 100 1000 50 100:100\nD Q0 d1 10 100 0 0:10\nC Q0 c1 0 100\n")
    runs = tmp_path / "runs"
    runs.mkdir()
    (runs / "r1.txt").write_text("A Q0 a1 1 1 r1 100 50\nD Q0 d1 1 1 r1 0 10\nC Q0 c1 1 1 r1 0 10\n")
    (runs / "r2.txt").write_text("A Q0 a1 1 1 r2 0 100\nD Q0 d1 1 1 r2 0 5\nC Q0 c1 1 1 r2 0 10\n")
    (tmp_path / "fol.prop").write_text(f"TASK: FOL.RelevantInContext\nASSESSMENTS_DIR: {tmp_path / 'qrels.txt'}\n"
                                       f"SUBMISSIONRUNS_DIR: {runs}\nRESULTS_DIR: {tmp_path / 'results'}\n")
    r = CliRunner().invoke(main, ["compare", "-config", str(tmp_path / "fol.prop")])
    assert r.exit_code == 0, r.output
    assert "left out (a run has no value there, or NaN): 1 topic(s): C" in r.output
    assert "Tukey HSD" in r.output and "two-way ANOVA" in r.output


def test_significance_table_prints_tiny_p_values_as_below_the_last_decimal():
    """p = 1/20001 (a randomisation test's least, 20,000 samples) printed as 0.0000 beside a Holm
    value of 0.0005; a p-value of 0 is impossible there, and the Tukey tables print <0.0001."""
    from inexeval.compare.tables import format_significance

    row = {"task": "trec", "setting": "default", "measure": "map", "test": "randomisation", "run_a": "a",
           "run_b": "b", "topics": 40, "mean_a": 0.5, "mean_b": 0.25, "diff": 0.25, "p": 1 / 20001,
           "p_holm": 10 / 20001, "significant": True, "note": ""}
    lines = format_significance([row, dict(row, run_b="c", p=0.00005, p_holm=0.5, significant=False)], 0.05)
    assert lines.splitlines()[3].split() == ["a", "b", "40", "0.5000", "0.2500", "0.2500", "<0.0001", "0.0005", "*"]
    assert lines.splitlines()[4].split() == ["a", "c", "40", "0.5000", "0.2500", "0.2500", "0.0001", "0.5000"]
