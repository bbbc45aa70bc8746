"""``inexeval compare``'s statistics (docs/measures.md §12, formats.md §9.2.6): the groups, ANOVA and
Tukey tables, ``--reliability``, and the report's statistics section, each checked against the
inexeval.stats functions on the topics × runs matrix read back from the result files (themselves
checked against scipy/statsmodels in tests/test_stats_anova.py and tests/test_stats_reliability.py)."""

from __future__ import annotations

import csv
import math
import json
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from inexeval import stats
from inexeval.cli import main

ROOT = Path(__file__).resolve().parents[1]
TREC = ROOT / "configs" / "trec.prop"
THOROUGH = ROOT / "configs" / "co-thorough.prop"


def _run(*args) -> tuple[int, str, str]:
    res = CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)
    return res.exit_code, res.stdout, res.stderr


def _rows(path: Path) -> list[dict]:
    with open(path, newline="") as f:
        return list(csv.DictReader(f, delimiter="\t"))


def _matrix(out: Path, task: str, setting: str, measure: str) -> tuple[list[str], list[str], np.ndarray]:
    """The topics × runs matrix of the per-topic result files (topics every run has)."""
    per_run: dict[str, dict[str, float]] = {}
    for f in sorted((out / task / setting).glob("*.tsv")):
        for line in f.read_text().splitlines():
            m, t, v = line.split("\t")
            if m == measure and t != "all" and v != "-":
                per_run.setdefault(f.stem, {})[t] = float(v)
    topics = sorted(set.intersection(*(set(d) for d in per_run.values())))
    runs = sorted(per_run)
    return topics, runs, np.array([[per_run[r][t] for r in runs] for t in topics])


def test_groups_anova_and_tukey_files_hold_the_statistics_of_the_matrix(tmp_path):
    code, out, err = _run("compare", "-config", TREC, "--results-dir", tmp_path, "--measure", "map", "-e")
    assert code == 0, err
    topics, runs, x = _matrix(tmp_path, "trec", "default", "map")
    assert len(topics) == 4 and len(runs) == 3
    a = stats.anova2(x)
    rows = {r["source"]: r for r in _rows(tmp_path / "trec" / "anova.tsv")}
    assert float(rows["runs"]["ss"]) == pytest.approx(a.ss_runs, rel=1e-12, abs=1e-15)
    assert float(rows["residual"]["ms"]) == pytest.approx(a.v_e, rel=1e-12)
    assert float(rows["runs"]["p"]) == pytest.approx(a.p_runs, rel=1e-12)
    t = stats.tukey_hsd(x, level=0.95)
    groups = {r["run"]: r for r in _rows(tmp_path / "trec" / "groups.tsv")}
    for j, run in enumerate(runs):
        assert float(groups[run]["mean"]) == pytest.approx(x[:, j].mean(), rel=1e-12)
        low, high = stats.confidence_interval(x[:, j])
        assert (float(groups[run]["ci_lower"]), float(groups[run]["ci_upper"])) == pytest.approx((low, high), rel=1e-12)
        assert groups[run]["group"] == t.groups[j]
    pairs = _rows(tmp_path / "trec" / "tukey.tsv")
    assert len(pairs) == 3
    for r in pairs:
        i, j = runs.index(r["run_a"]), runs.index(r["run_b"])
        assert x[:, i].mean() >= x[:, j].mean()  # the better run first
        assert float(r["p"]) == pytest.approx(t.p[i, j], rel=1e-9)
        assert float(r["diff"]) == pytest.approx(t.diff[i, j], rel=1e-12)
        assert float(r["es_e"]) == pytest.approx(t.effect_size[i, j], rel=1e-12)
        d, lo, hi = stats.paired_effect_size(x[:, i], x[:, j])
        assert (float(r["d_z"]), float(r["d_z_lower"]), float(r["d_z_upper"])) == pytest.approx((d, lo, hi), rel=1e-9)
        assert r["significant"] == str(t.p[i, j] <= 0.05)
    assert "two-way ANOVA" in out and "Tukey HSD" in out
    js = json.loads((tmp_path / "trec" / "groups.json").read_text())
    assert [g["group"] for g in js] == [groups[g["run"]]["group"] for g in js]


def test_randomised_tukey_same_seed_same_bytes(tmp_path):
    files = []
    for i in range(2):
        code, _, err = _run("compare", "-config", THOROUGH, "--results-dir", tmp_path / str(i), "--tukey",
                            "randomised", "--samples", "500", "--seed", "3", "--ci", "bootstrap")
        assert code == 0, err
        files.append([(tmp_path / str(i) / "CO.Thorough" / f"{n}.tsv").read_bytes() for n in ("groups", "tukey")])
    assert files[0] == files[1]
    assert b"randomised" in files[0][1]


@pytest.mark.parametrize("fmt,mark", [("latex", "$^{\\mathrm{a}}$"), ("markdown", "<sup>a</sup>")])
def test_paper_formats_show_the_groups_as_superscripts(tmp_path, fmt, mark):
    code, out, err = _run("compare", "-config", THOROUGH, "--results-dir", tmp_path, "--format", fmt)
    assert code == 0, err
    assert mark in out and "ANOVA" in out


def test_reliability_files_and_asl_graph(tmp_path):
    code, out, err = _run("compare", "-config", THOROUGH, "--results-dir", tmp_path, "--reliability",
                          "--samples", "200", "--seed", "2", "-gnu", "-png", "--subset-size", "2")
    assert code == 0, err
    base = tmp_path / "CO.Thorough"
    rel = _rows(base / "reliability.tsv")
    assert {r["measure"] for r in rel} >= {"MAep", "nxCG@10"}
    topics, runs, x = _matrix(tmp_path, "CO.Thorough", "gen_off", "MAep")
    want = stats.discriminative_power(x, alpha=0.05, samples=200, seed=2)
    (row,) = [r for r in rel if r["measure"] == "MAep" and r["setting"] == "gen_off"]
    assert float(row["discriminative_power"]) == pytest.approx(want.share, abs=1e-15)
    asl = [float(r["p"]) for r in _rows(base / "asl.tsv") if r["measure"] == "MAep" and r["setting"] == "gen_off"]
    assert asl == pytest.approx(want.asl.tolist(), abs=1e-15)
    swaps = stats.swap_rate(x, 2, samples=200, seed=2)
    got = [r for r in _rows(base / "swap-rates.tsv") if r["measure"] == "MAep" and r["setting"] == "gen_off"]
    assert [int(r["swaps"]) for r in got] == swaps.swaps.tolist()
    assert (base / "graphs" / "asl_gen_off.png").stat().st_size > 0 and (base / "graphs" / "asl_gen_off.gp").exists()
    # the nxCG@10/25/50 family: one table of kind "parameters" per setting
    corr = _rows(base / "correlations.tsv")
    assert any(r["kind"] == "parameters" and r["scope"].startswith("nxCG ") for r in corr)
    assert "discriminative power" in out


def test_configs_that_differ_in_gains_are_correlated(tmp_path):
    for name, gains in (("a", "1:1, 2:2"), ("b", "1:1, 2:10")):
        text = TREC.read_text().replace("../sample_data", str(ROOT / "sample_data"))
        text = "\n".join(line for line in text.splitlines() if not line.startswith("RESULTS_DIR")) + "\n"
        (tmp_path / f"{name}.prop").write_text(text + f"GAINS: {gains}\nMETRICS: Q, map\n"
                                               + f"RESULTS_DIR: {tmp_path / name}\n")
    code, out, err = _run("compare", "-config", tmp_path / "a.prop", "-config", tmp_path / "b.prop",
                          "--reliability", "--samples", "100", "-e")
    assert code == 0, err
    rows = _rows(tmp_path / "a" / "trec" / "correlations-parameters.tsv")
    scopes = {r["scope"] for r in rows}
    assert "Q default" in scopes and not any(s.startswith("map") for s in scopes)  # GAINS does not change map
    assert any("GAINS=" in r["a"] for r in rows)


@pytest.mark.parametrize("args,words", [(["--dp-test", "bootstrap"], "--reliability"),
                                        (["--subset-size", "3"], "--reliability")])
def test_reliability_options_without_it_are_refused(tmp_path, args, words):
    code, _, err = _run("compare", "-config", TREC, "--results-dir", tmp_path, *args)
    assert code == 2 and words in err


def test_report_has_the_statistics(tmp_path):
    code, _, err = _run("report", "-config", THOROUGH, "--results-dir", tmp_path / "r", "--html", tmp_path / "site")
    assert code == 0, err
    page = next((tmp_path / "site").rglob("CO.Thorough/index.html")).read_text()
    assert "Statistics: MAep" in page and "<sup>a</sup>" in page and "Two-way ANOVA" in page


def test_infinite_and_undefined_values_in_the_files(tmp_path):
    from inexeval.compare.tables import write_tables

    write_tables(tmp_path, "t", [{"f": math.inf, "d": -math.inf, "p": math.nan, "n": 2}])
    assert json.loads((tmp_path / "t.json").read_text()) == [{"f": "inf", "d": "-inf", "p": None, "n": 2}]
    assert (tmp_path / "t.tsv").read_text().splitlines()[1].split("\t") == ["inf", "-inf", "-", "2"]
