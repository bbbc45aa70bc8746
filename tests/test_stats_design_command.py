"""``inexeval design`` (docs/measures.md §12.6): the variance it estimates, the figures it prints
(against inexeval.compare.design and, independently, statsmodels' power), and its score files."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from statsmodels.stats.power import FTestAnovaPower, TTestPower

from inexeval.cli import main
from inexeval.readers.scores import read_scores

ROOT = Path(__file__).resolve().parents[1]
TREC = ROOT / "configs" / "trec.prop"


def _run(*args) -> tuple[int, str, str]:
    res = CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)
    return res.exit_code, res.stdout, res.stderr


def _write(path: Path, x: np.ndarray, sep: str = "\t") -> Path:
    lines = [sep.join(["topic", *(f"r{j}" for j in range(x.shape[1]))])]
    lines += [sep.join([f"t{i}", *(repr(float(v)) for v in row)]) for i, row in enumerate(x)]
    path.write_text("\n".join(lines) + "\n")
    return path


def _v_e(x: np.ndarray) -> tuple[float, int]:
    resid = x - x.mean(axis=1, keepdims=True) - x.mean(axis=0) + x.mean()
    return float((resid ** 2).sum()), (x.shape[0] - 1) * (x.shape[1] - 1)


@pytest.mark.parametrize("seed", range(4))
def test_figures_from_a_score_file_agree_with_statsmodels(tmp_path, seed):
    rng = np.random.default_rng(seed)
    x = rng.random((int(rng.integers(8, 40)), int(rng.integers(2, 7))))
    path = _write(tmp_path / "s.tsv", x, "\t" if seed % 2 else ",")
    code, out, err = _run("design", "--scores", path, "--min-diff", "0.1", "--format", "json")
    assert code == 0, err
    fig = json.loads(out)
    ss, df = _v_e(x)
    var = ss / df
    assert fig["variance"] == pytest.approx(var, rel=1e-12)
    n, m = x.shape
    assert fig["current_topics"] == n and fig["planned_runs"] == m
    # the smallest n with power >= 0.8 (statsmodels: the effect of a paired t-test on differences of
    # variance 2 sigma^2; the ANOVA's f^2 = d^2 / (2 sigma^2 m) over m n observations)
    need_t = fig["topics_needed"]["t"]
    effect = 0.1 / np.sqrt(2 * var)
    assert TTestPower().power(effect, need_t, 0.05) >= 0.8 > TTestPower().power(effect, need_t - 1, 0.05)
    need_a = fig["topics_needed"]["anova"]
    f = np.sqrt(0.1 ** 2 / (2 * var * m))
    assert FTestAnovaPower().power(f, m * need_a, 0.05, k_groups=m) >= 0.8 > \
        FTestAnovaPower().power(f, m * (need_a - 1), 0.05, k_groups=m)
    assert fig["achieved_power"]["t"] == pytest.approx(TTestPower().power(effect, n, 0.05), rel=1e-9)
    assert fig["achieved_power"]["anova"] == pytest.approx(FTestAnovaPower().power(f, m * n, 0.05, k_groups=m),
                                                           rel=1e-9)
    mdd = fig["min_detectable_difference"]["t"]
    assert TTestPower().power(mdd / np.sqrt(2 * var), n, 0.05) == pytest.approx(0.8, abs=1e-9)


def test_variance_is_pooled_over_the_data(tmp_path):
    rng = np.random.default_rng(5)
    a, b = rng.random((10, 3)), rng.random((14, 5))
    code, out, err = _run("design", "--scores", _write(tmp_path / "a.tsv", a), "--scores",
                          _write(tmp_path / "b.tsv", b), "--format", "json")
    assert code == 0, err
    fig = json.loads(out)
    (sa, da), (sb, db) = _v_e(a), _v_e(b)
    assert fig["variance"] == pytest.approx((sa + sb) / (da + db), rel=1e-12)
    assert fig["current_topics"] == 10 and fig["planned_runs"] == 5 and "topics_needed" not in fig


def test_a_config_gives_its_matrix(tmp_path):
    code, out, err = _run("design", "-config", TREC, "--results-dir", tmp_path, "--measure", "map",
                          "--min-diff", "0.1", "--format", "json", "--quiet")
    assert code == 0, err
    fig = json.loads(out)
    assert fig["measure"] == "map" and fig["data"][0]["runs"] == 3
    code, text, err = _run("design", "-config", TREC, "--results-dir", tmp_path, "--measure", "map",
                           "--min-diff", "0.1")
    assert code == 0
    assert "paired t-test:" in text and str(fig["topics_needed"]["t"]) in text
    assert f"{fig['variance']:.6f}" in text


def test_tsv_holds_every_figure_at_full_precision(tmp_path):
    x = np.random.default_rng(2).random((12, 4))
    code, out, err = _run("design", "--scores", _write(tmp_path / "s.tsv", x), "--min-diff", "0.2",
                          "--format", "tsv")
    assert code == 0, err
    rows = dict(line.split("\t") for line in out.splitlines()[1:])
    ss, df = _v_e(x)
    assert float(rows["variance"]) == pytest.approx(ss / df, rel=1e-15)


@pytest.mark.parametrize("text,line,words", [
    ("topic\tA\tB\nq1\t0.1\t0.2\nq2\t0.3\n", 3, "2 fields"),
    ("topic\tA\tB\nq1\t0.1\tnan\nq2\t0.3\t0.4\n", 2, "not a decimal number"),
    ("topic\tA\tA\nq1\t0.1\t0.2\n", 1, "given twice"),
    ("topic\tA\tB\nq1\t0.1\t0.2\nq1\t0.3\t0.4\n", 3, "given twice"),
    ("topic,A,B\nq1,0.1,1_0\nq2,0.3,0.4\n", 2, "not a decimal number"),
])
def test_bad_score_files_are_named_with_their_line(tmp_path, text, line, words):
    path = tmp_path / "bad.tsv"
    path.write_text(text)
    code, out, err = _run("design", "--scores", path)
    assert code == 1 and f"bad.tsv:{line}: " in err and words in err and "Traceback" not in err


def test_too_little_data_is_refused(tmp_path):
    path = tmp_path / "one.tsv"
    path.write_text("topic\tA\tB\nq1\t0.1\t0.2\n")
    code, _, err = _run("design", "--scores", path)
    assert code == 1 and "at least two topics and two runs" in err


def test_read_scores_keeps_order_and_values(tmp_path):
    path = tmp_path / "s.csv"
    path.write_text("# past data\ntopic,sysB,sysA\n\n10,0.5,1e-3\n9,0.25,0\n")
    topics, runs, x = read_scores(path)
    assert topics == ["10", "9"] and runs == ["sysB", "sysA"]
    assert x.tolist() == [[0.5, 0.001], [0.25, 0.0]]


@pytest.mark.parametrize("args,words", [([], "give the past data"), (["--scores", "x", "--ci-width", "0.1"],
                                                                      "--ci-width"),
                                        (["--scores", "x", "--setting", "gen_off"], "--setting")])
def test_options_without_effect_are_refused(args, words):
    code, _, err = _run("design", *args)
    assert code == 2 and words in err


def test_runs_sharing_one_topic_are_refused_with_what_minus_e_does(tmp_path):
    """Three runs whose only common topic is 1: the variance is over the topics every run has, so the
    design is refused (exit 2) and the message says what -e changes; with -e it is computed."""
    (tmp_path / "qrels.txt").write_text("".join(f"{t} 0 d1 1\n{t} 0 d2 0\n" for t in (1, 2, 3, 4)))
    runs = tmp_path / "runs"
    runs.mkdir()
    for run, topics in {"a": (1, 2), "b": (1, 3), "c": (1, 4)}.items():
        order = ("d2", "d1") if run == "a" else ("d1", "d2")
        (runs / f"{run}.txt").write_text("".join(f"{t} Q0 {d} {i} {9 - i} {run}\n"
                                                 for t in topics for i, d in enumerate(order, 1)))
    config = tmp_path / "t.prop"
    config.write_text("TASK: trec\nASSESSMENTS_DIR: qrels.txt\nSUBMISSIONRUNS_DIR: runs\nRESULTS_DIR: out\nMETRICS: map\n")
    code, _, err = _run("design", "-config", config, "--measure", "map", "--min-diff", "0.05")
    assert code == 2
    assert err.strip() == (f"inexeval: error: {config}: 1 topic(s) x 3 run(s): the variance needs at least two "
                           "topics and two runs (the topics every run has a value for; with -e a topic a run lacks "
                           "scores 0)")
    code, out, err = _run("design", "-config", config, "--measure", "map", "--min-diff", "0.05", "-e")
    assert code == 0, err
