"""Analysis commands on the shipped sample (issue 33, "answers in a second"): compare under 1 s,
assessments under 2 s, report under 5 s for one config and 8 s for two; and the classic Tukey HSD at
100 runs x 50 topics, scipy's studentized range against inexeval.compare.ptukey.

    .venv/bin/python benchmarks/bench_analysis.py [--repeat 3] [--scipy-values 60] [--full-scipy]

Each command runs as a fresh process (``python -m inexeval``, as the ``inexeval`` script runs it),
from the repository root with RESULTS_DIR overridden to a temporary directory (``--results-dir``;
the report's site goes there too), the best wall time of R kept (other processes on a shared
machine only ever slow a run down).  The evaluations run first, so the analysis commands find
their result files up to date (as after ``inexeval -config ...``), and each analysis time is shown
with its ratio to the evaluation of its config(s).

Tukey: a random 50 x 100 matrix (seeded); ``tukey_hsd(x)`` (classic: 4,950 pairs, p-values from
ptukey.sf on one shared grid, the interval from ptukey.ppf), best of R; scipy's
``studentized_range.sf`` is one double integral per distinct value (about 10 ms each), so it is
timed on ``--scipy-values`` of them and scaled to all (``--full-scipy``: all of them, most of a
minute), plus its ppf once.  One VERDICT line per target.
"""

from __future__ import annotations

import argparse
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from bytecode import compile_checkout  # noqa: E402
from verdict import verdict  # noqa: E402

COMPARE_S, ASSESSMENTS_S, REPORT_S, REPORT2_S = 1.0, 2.0, 5.0, 8.0
TUKEY_SIZE = (50, 100)  # topics, runs


def timed(cmd: list[str], repeat: int) -> float:
    """The best wall time of REPEAT runs of CMD (each a fresh process)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    best = math.inf
    for _ in range(repeat):
        t0 = time.perf_counter()
        proc = subprocess.run(cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        wall = time.perf_counter() - t0
        if proc.returncode != 0:
            raise SystemExit(f"{' '.join(cmd)} exited with status {proc.returncode}:\n{proc.stderr[-2000:]}")
        best = min(best, wall)
    return best


def commands(out: Path) -> tuple[dict[str, list[str]], list[tuple[str, list[str], list[str], float | None]]]:
    """(evaluations by config, [(name, command, configs evaluated, target s)])."""
    py = [sys.executable, "-m", "inexeval"]
    res = ["--results-dir", str(out / "results"), "--quiet"]
    evals = {c: [*py, "-config", f"configs/{c}", *res] for c in ("trec.prop", "co-focussed.prop", "co-thorough.prop")}
    site = str(out / "site")
    analyses = [
        ("compare trec.prop", [*py, "compare", "-config", "configs/trec.prop", *res], ["trec.prop"], COMPARE_S),
        ("compare co-focussed.prop", [*py, "compare", "-config", "configs/co-focussed.prop", *res],
         ["co-focussed.prop"], COMPARE_S),
        ("assessments co-focussed.prop", [*py, "assessments", "-config", "configs/co-focussed.prop", *res],
         ["co-focussed.prop"], ASSESSMENTS_S),
        ("report co-focussed.prop", [*py, "report", "-config", "configs/co-focussed.prop", "--html", site, *res],
         ["co-focussed.prop"], REPORT_S),
        ("report co-focussed + co-thorough", [*py, "report", "-config", "configs/co-focussed.prop", "-config",
                                              "configs/co-thorough.prop", "--html", site, *res],
         ["co-focussed.prop", "co-thorough.prop"], REPORT2_S),
    ]
    return evals, analyses


def tukey_times(repeat: int, scipy_values: int, full_scipy: bool) -> tuple[float, float, int, int]:
    """(ptukey's whole classic tukey_hsd, scipy's sf over all distinct values + ppf (scaled from
    SCIPY_VALUES of them unless FULL_SCIPY), distinct values, values scipy was timed on)."""
    from scipy.stats import studentized_range

    from inexeval.compare.anova import anova2, tukey_hsd

    n, m = TUKEY_SIZE
    rng = np.random.default_rng(20240601)
    x = rng.random((n, m)) * rng.uniform(0.5, 1.0, m)  # as bench_tukey.py: runs of different means
    tukey_hsd(x)  # warm (imports, caches)
    ours = math.inf
    for _ in range(repeat):
        t0 = time.perf_counter()
        tukey_hsd(x)
        ours = min(ours, time.perf_counter() - t0)
    se = math.sqrt(anova2(x).v_e / n)
    means = x.mean(axis=0)
    q = np.abs(means[:, None] - means[None, :])[np.triu_indices(m, 1)] / se
    values = np.unique(q)
    df = (m - 1) * (n - 1)
    pick = np.linspace(0, values.size - 1, min(scipy_values, values.size)).astype(int)
    chosen = values if full_scipy else values[pick]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        t0 = time.perf_counter()
        studentized_range.sf(chosen, m, df)
        sf_time = (time.perf_counter() - t0) * values.size / chosen.size
        t0 = time.perf_counter()
        studentized_range.ppf(0.95, m, df)
        ppf_time = time.perf_counter() - t0
    return ours, sf_time + ppf_time, values.size, chosen.size


def main(argv: list[str] | None = None) -> int:
    compile_checkout()  # timed as installed: with bytecode
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--scipy-values", type=int, default=60, help="distinct q values scipy's sf is timed on")
    ap.add_argument("--full-scipy", action="store_true", help="time scipy's sf on all 4,950 values (a minute)")
    a = ap.parse_args(argv)
    out = Path(tempfile.mkdtemp(prefix="inexeval-analysis-"))
    try:
        evals, analyses = commands(out)
        print(f"{'command':34s} {'wall s':>7s} {'x eval':>7s} {'target s':>9s}")
        eval_time = {}
        for config, cmd in evals.items():
            eval_time[config] = timed(cmd, a.repeat)
            print(f"{'evaluate ' + config:34s} {eval_time[config]:7.3f} {1.0:7.2f} {'-':>9s}")
        for name, cmd, configs, target in analyses:
            wall = timed(cmd, a.repeat)
            base = sum(eval_time[c] for c in configs)
            print(f"{name:34s} {wall:7.3f} {wall / base:7.2f} {target:9.2f}")
            verdict(f"33 analysis: {name} < {target:g} s", f"{wall:.3f} s ({wall / base:.2f} x its evaluation, "
                    f"{base:.3f} s)", f"{target:g} s", wall / target, wall < target)
    finally:
        shutil.rmtree(out, ignore_errors=True)
    print(f"(best of {a.repeat}; load average {os.getloadavg()[0]:.2f})")

    ours, theirs, distinct, timed_on = tukey_times(a.repeat, a.scipy_values, a.full_scipy)
    n, m = TUKEY_SIZE
    how = "all" if timed_on == distinct else f"scaled from {timed_on}"
    print(f"\nclassic Tukey HSD, {m} runs x {n} topics ({distinct} distinct q):")
    print(f"  inexeval.compare.ptukey (whole tukey_hsd, best of {a.repeat}) {ours:9.3f} s")
    print(f"  scipy studentized_range sf ({how}) + ppf           {theirs:9.3f} s")
    print(f"  ratio scipy / ptukey                                 {theirs / ours:9.0f}")
    verdict(f"33 analysis: classic Tukey HSD, {m} runs x {n} topics, ptukey vs scipy's studentized_range",
            f"{ours:.3f} s", f"scipy {theirs:.1f} s ({how})", ours / theirs, ours < theirs)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
