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
