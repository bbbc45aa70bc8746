"""Issue 33, "answers in a second": the default path of ``inexeval compare`` (paired t test, classic
Tukey HSD, t intervals, d_z intervals) imports neither scipy.stats, scipy.optimize nor
scipy.integrate (most of a second to import) nor matplotlib; and the scipy.special functions that
replace scipy.stats there give scipy.stats's numbers, bit for bit.

Imports are checked in fresh interpreters (``sys.executable``): this test process has imported
scipy.stats long ago.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parent.parent
HEAVY = ("scipy.stats", "scipy.optimize", "scipy.integrate", "matplotlib")


def _loaded_after(code: str, cwd: Path) -> tuple[list[str], subprocess.CompletedProcess]:
    """The HEAVY modules in sys.modules when CODE has run (also when it ends by SystemExit)."""
    probe = ("import atexit, json, sys\n"
             f"HEAVY = {HEAVY!r}\n"
             "atexit.register(lambda: sys.stderr.write('\\nLOADED ' + json.dumps("
             "[m for m in HEAVY if m in sys.modules]) + '\\n'))\n" + code)
    proc = subprocess.run([sys.executable, "-c", probe], cwd=cwd, capture_output=True, text=True, timeout=300)
    lines = [line for line in proc.stderr.splitlines() if line.startswith("LOADED ")]
    assert lines, proc.stderr
    return json.loads(lines[-1][len("LOADED "):]), proc


def test_importing_the_compare_workflow_is_light():
    loaded, proc = _loaded_after("import inexeval.compare.workflow\n", ROOT)
    assert proc.returncode == 0, proc.stderr
    assert loaded == []


def test_importing_the_statistics_is_light():
    loaded, proc = _loaded_after("import inexeval.compare.anova, inexeval.compare.stats, "
                                 "inexeval.compare.intervals, inexeval.compare.ptukey, inexeval.compare.tables\n",
                                 ROOT)
    assert proc.returncode == 0, proc.stderr
    assert loaded == []


@pytest.mark.parametrize("config", ["trec.prop", "co-focussed.prop"])
def test_default_compare_never_imports_scipy_stats(tmp_path, config):
    """The whole command, evaluation of the sample included (results into tmp_path), in one
    process: default test t, Tukey classic, t intervals and d_z's interval."""
    args = ["inexeval", "compare", "-config", str(ROOT / "configs" / config), "--results-dir", str(tmp_path),
            "--quiet"]
    code = (f"import runpy, sys\nsys.argv = {args!r}\n"
            "runpy.run_module('inexeval', run_name='__main__', alter_sys=True)\n")
    loaded, proc = _loaded_after(code, tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "Tukey HSD" in proc.stdout and "d_z interval" in proc.stdout  # the statistics were computed
    assert loaded == [], loaded
    assert list(tmp_path.glob("*/tukey.tsv"))  # written where asked, not into the repository


# ---------------------------------------------------------------- the same numbers ----


def test_special_functions_are_scipy_stats_bits():
    from scipy import special, stats

    rng = np.random.default_rng(33)
    x = rng.uniform(0.0, 40.0, 2000)
    df = rng.integers(1, 300, 2000)
    df2 = rng.integers(1, 20000, 2000)
    p = rng.uniform(0.5, 1.0, 2000)
    lam = rng.normal(0.0, 8.0, 2000)
    t = rng.normal(0.0, 20.0, 2000)
    assert np.array_equal(special.stdtr(df, -x), stats.t.sf(x, df))  # compare/stats.py: paired t
    assert np.array_equal(special.stdtrit(df, p), stats.t.ppf(p, df))  # compare/intervals.py
    assert np.array_equal(special.fdtrc(df, df2, x), stats.f.sf(x, df, df2))  # compare/anova.py: ANOVA
    assert np.array_equal(special.nctdtr(df, lam, t), stats.nct.cdf(t, df, lam), equal_nan=True)  # d_z


def test_paired_t_test_is_scipys():
    from scipy import stats

    from inexeval.compare.stats import paired_t_test

    rng = np.random.default_rng(7)
    for _ in range(200):
        n = int(rng.integers(2, 80))
        a = rng.random(n)
        b = np.clip(a + rng.normal(0.0, rng.uniform(0.01, 0.3), n), 0.0, 1.0)
        d = a - b
        t = float(d.mean()) / (float(np.std(d, ddof=1)) / math.sqrt(n))
        assert paired_t_test(a, b) == float(2.0 * stats.t.sf(abs(t), n - 1))  # what it computed before
        assert paired_t_test(a, b) == pytest.approx(float(stats.ttest_rel(a, b).pvalue), rel=1e-12, abs=1e-300)


def test_illinois_roots_agree_with_scipys_brentq():
    """roots.illinois (no scipy.optimize) finds the roots scipy.optimize.brentq finds, within the
    tolerance asked: the noncentral t bounds of d_z on random cases, and three textbook functions."""
    from scipy import optimize

    from inexeval.compare import anova
    from inexeval.compare.roots import illinois

    rng = np.random.default_rng(11)
    eps4 = 4 * np.finfo(float).eps
    checked = 0
    for _ in range(300):
        df = int(rng.integers(1, 80))
        t = float(rng.normal(0.0, 6.0))
        target = float(rng.uniform(0.005, 0.995))

        def f(lam):
            return anova._nct_cdf(t, df, lam) - target

        lo, hi = t - 60.0 - 8 * abs(t), t + 60.0 + 8 * abs(t)
        if not f(lo) > 0.0 > f(hi):
            continue
        ours = illinois(f, lo, hi, xtol=1e-13, rtol=eps4, maxiter=500)
        theirs = optimize.brentq(f, lo, hi, xtol=1e-13, rtol=eps4, maxiter=500)
        assert abs(ours - theirs) <= 4e-13 + 8 * eps4 * abs(theirs), (df, t, target)
        checked += 1
    assert checked > 200
    for g, a, b, root in ((math.cos, 0.0, 3.0, math.pi / 2), (lambda v: v ** 3 - 2.0, -4.0, 9.0, 2 ** (1 / 3)),
                          (lambda v: math.exp(v) - 5.0, -20.0, 20.0, math.log(5.0))):
        assert abs(illinois(g, a, b, xtol=1e-14, rtol=1e-15) - root) <= 1e-13
    assert illinois(lambda v: v - 1.0, 1.0, 2.0) == 1.0  # an end that is a root
    with pytest.raises(ValueError):
        illinois(lambda v: v * v + 1.0, -1.0, 1.0)


# ---------------------------------------------------------------- the FOL config path (issue 35.4) ----

#: What ``inexeval -config`` of a FOL task (a text qrels file and text runs) does not import: the other
#: measure families (the classic measures, XCG, HiXEval, ...: inexeval.measures.registry loads only
#: fol_family for a FOL strategy), lxml (no XML is read: inexeval.readers.runs compiles its XPaths
#: when the first XML run is read), tabulate (the tables are inexeval.writers.plain_table's) and hashlib
#: (OpenSSL's, about 3 ms: inexeval.stamp hashes only compare's files it carries over).
FOL_NOT_LOADED = ("lxml", "tabulate", "hashlib", "inexeval.measures.classic", "inexeval.measures.classic_engine",
                  "inexeval.measures.classic_family", "inexeval.measures.classic_join", "inexeval.measures.classic_trec", "inexeval.measures.xcg",
                  "inexeval.measures.hixeval", "inexeval.measures.bep", "inexeval.measures.fetchbrowse",
                  "inexeval.measures.qa", "inexeval.readers.trec")


@pytest.mark.parametrize("config", ["fol-best-in-context.prop", "fol-t2i.prop", "fol-focused.prop"])
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_the_fol_config_path_is_light(tmp_path, config, jobs):
    """The whole command, -q (the per-topic table), result files into tmp_path, in one process."""
    args = ["inexeval", "-config", str(ROOT / "configs" / config), "-q", "--results-dir", str(tmp_path),
            "--quiet", "--jobs", jobs]
    proc, lines = _loaded(args, FOL_NOT_LOADED, tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "MAgP" in proc.stdout or "MAiP" in proc.stdout
    assert lines and json.loads(lines[-1][len("LOADED "):]) == [], proc.stderr


def _loaded(args: list[str], names: tuple[str, ...], cwd):
    """``inexeval`` run with ARGS (sys.argv) in a fresh interpreter: the process, and its standard error's
    ``LOADED`` lines, written as the main process exits, listing which of NAMES it imported."""
    probe = ("import atexit, json, os, sys\n"
             f"NAMES = {names!r}\n"
             "pid = os.getpid()\n"
             "atexit.register(lambda: os.getpid() == pid and sys.stderr.write('\\nLOADED ' + json.dumps("
             "[m for m in NAMES if m in sys.modules]) + '\\n'))\n"
             f"import runpy\nsys.argv = {args!r}\n"
             "runpy.run_module('inexeval', run_name='__main__', alter_sys=True)\n")
    proc = subprocess.run([sys.executable, "-c", probe], cwd=cwd, capture_output=True, text=True, timeout=300)
    return proc, [line for line in proc.stderr.splitlines() if line.startswith("LOADED ")]


# ---------------------------------------------------------------- the trec-eval drop-in (issue 35.1) ----

#: What ``inexeval trec-eval`` does not import: the measure registry and its measure table (about 4.5 ms
#: a call: the drop-in reads measure names itself; inexeval.measures.classic_family puts the classic
#: engine in the registry for TASK: trec), click, lxml, the config keys.
TREC_EVAL_NOT_LOADED = ("inexeval.measures.registry", "inexeval.measures.classic_family", "click", "lxml",
                        "inexeval.config.schema", "tabulate")


def test_the_trec_eval_drop_in_is_light(tmp_path):
    q, r = tmp_path / "q.txt", tmp_path / "r.txt"
    q.write_text("1 0 d1 1\n1 0 d2 0\n2 0 d1 1\n")
    r.write_text("1 Q0 d1 1 2.5 x\n1 Q0 d2 2 1.5 x\n2 Q0 d3 1 1.0 x\n")
    proc, lines = _loaded(["inexeval", "trec-eval", "-m", "all_trec", str(q), str(r)], TREC_EVAL_NOT_LOADED, tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "map" in proc.stdout and "ndcg_cut_10" in proc.stdout
    assert lines and json.loads(lines[-1][len("LOADED "):]) == [], proc.stderr
