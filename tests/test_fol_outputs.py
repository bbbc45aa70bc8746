"""The FOL tasks through the common outputs: -gnu/-png graphs of the iP and gP curves, compare, the API.

The curves are inex_eval's ``ircl_prn`` points (docs/inex_eval.md §6.2, §7.1): interpolated precision
at 101 character-recall points for Focused and Thorough, interpolated generalised precision at 11
generalised-recall points for the in-context tasks.  Each .dat column must be the run's averages
of those points, as the summary holds them.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import require_gnuplot

import inexeval
from inexeval.cli.command import main

ROOT = Path(__file__).resolve().parents[1]
CONFIGS = {"FOL.Focused": ("fol-focused", "iP", 101, "recall"),
           "FOL.Thorough": ("fol-thorough", "iP", 101, "recall"),
           "FOL.RelevantInContext": ("fol-relevant-in-context", "gP", 11, "generalised recall"),
           "FOL.BestInContext": ("fol-best-in-context", "gP", 11, "generalised recall"),
           "FOL.T2I": ("fol-t2i", "gP", 11, "generalised recall")}


def invoke(*args):
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


@pytest.mark.parametrize("task", sorted(CONFIGS))
def test_curve_graphs_hold_the_averaged_points(task, tmp_path):
    name, curve, points, xlabel = CONFIGS[task]
    config = ROOT / "configs" / f"{name}.prop"
    res = invoke("-config", config, "--results-dir", tmp_path, "--quiet", "-gnu")
    assert res.exit_code == 0, res.output
    graphs = tmp_path / task / "graphs"
    assert sorted(p.name for p in graphs.iterdir()) == [f"{curve}_default.dat", f"{curve}_default.gp"]
    dat = (graphs / f"{curve}_default.dat").read_text().splitlines()
    header = dat[1].split("\t")
    rows = [line.split("\t") for line in dat[2:]]
    assert len(rows) == points
    api = inexeval.evaluate(config)
    assert header == ["x", *api.runs]
    step = 100 // (points - 1)
    for k, row in enumerate(rows):
        label = f"ircl_prn.{k * step / 100:.2f}"
        assert float(row[0]) == k * step / 100
        for j, run in enumerate(api.runs):
            assert row[j + 1] == repr(api.average(run, "default")[label]), (task, label, run)
    script = (graphs / f"{curve}_default.gp").read_text()
    assert f"set xlabel '{xlabel}'" in script
    summary = json.loads((tmp_path / task / "summary.json").read_text())
    assert summary  # the summary the tables come from was written with the graphs


def test_gnuplot_draws_the_fol_curves(tmp_path):
    require_gnuplot()
    for name in ("fol-focused", "fol-relevant-in-context"):
        invoke("-config", ROOT / "configs" / f"{name}.prop", "--results-dir", tmp_path, "--quiet", "-gnu")
    scripts = sorted(tmp_path.glob("*/graphs/*.gp"))
    assert [p.name for p in scripts] == ["iP_default.gp", "gP_default.gp"]
    for gp in scripts:
        proc = subprocess.run(["gnuplot", gp.name], cwd=gp.parent, capture_output=True, text=True)
        assert proc.returncode == 0, proc.stderr
        svg = gp.with_suffix(".svg").read_text()
        assert "<svg" in svg[:500] and "bert_inex_converted" in svg


def test_png_of_the_gp_curve(tmp_path):
    import matplotlib.image as mpimg

    res = invoke("-config", ROOT / "configs" / "fol-t2i.prop", "--results-dir", tmp_path, "--quiet", "-png")
    assert res.exit_code == 0, res.output
    img = mpimg.imread(tmp_path / "FOL.T2I" / "graphs" / "gP_default.png")
    assert img.shape[0] >= 400 and len({tuple(p) for p in img[..., :3].reshape(-1, 3).round(2)}) > 5


def test_compare_on_fol_runs(tmp_path):
    config = ROOT / "configs" / "fol-focused.prop"
    res = invoke("compare", "-config", config, "--results-dir", tmp_path, "--quiet")
    assert res.exit_code == 0, res.output
    assert "kendall correlation of measures  (default)" in res.output
    sig = json.loads((tmp_path / "FOL.Focused" / "significance.json").read_text())
    assert len(sig) == 1 and sig[0]["measure"] == "MAiP"
    # the paired test runs on the topics both runs answer: their per-topic MAiP (= the topic's AiP)
    api = inexeval.evaluate(config)
    a, b = api.runs
    ta, tb = api.per_topic(a, "default"), api.per_topic(b, "default")
    common = sorted(set(ta) & set(tb))
    assert common
    mean_a = sum(ta[t]["MAiP"] for t in common) / len(common)
    mean_b = sum(tb[t]["MAiP"] for t in common) / len(common)
    row = sig[0]
    assert {row["run_a"], row["run_b"]} == {a, b}
    got = {row["run_a"]: row["mean_a"], row["run_b"]: row["mean_b"]}
    assert abs(got[a] - mean_a) < 1e-12 and abs(got[b] - mean_b) < 1e-12


def test_api_equals_the_result_files(tmp_path):
    config = ROOT / "configs" / "fol-best-in-context.prop"
    invoke("-config", config, "--results-dir", tmp_path, "--quiet")
    api = inexeval.evaluate(config)
    assert api.problems == [] and api.runs
    for run in api.runs:
        text = (tmp_path / "FOL.BestInContext" / "default" / f"{run}.tsv").read_text().splitlines()
        values = {tuple(line.split("\t")[:2]): line.split("\t")[2] for line in text}
        got = {(m, "all"): ("-" if v is None else repr(float(v))) for m, v in api.average(run, "default").items()}
        for topic, row in api.per_topic(run, "default").items():
            got.update({(m, topic): ("-" if v is None else repr(float(v))) for m, v in row.items()})
        assert got == values, run
