"""Randomised Tukey HSD (docs/measures.md §12.3): B = 10,000 within-topic permutations on 100 runs ×
50 topics in seconds, not minutes; and 10 runs × 50 topics.

    .venv/bin/python benchmarks/bench_tukey.py [--repeat 3] [--samples 10000] [--classic]

For each size, a random matrix (seeded), the best of R wall times of
``tukey_hsd(x, randomised=True, samples=B, seed=1)`` (permutations, p-values, intervals and the
letter display: the whole call), the permutations per second, and the peak of the memory numpy
allocates during the call (tracemalloc: the batches keep it bounded, whatever B), and the two-way
ANOVA's time.  With ``--classic`` also the classic Tukey HSD, once: scipy's studentized range is one
numerical double integral per pair of runs (4,950 pairs at 100 runs: most of a minute).  One VERDICT
line: the 100-run time against 10 s.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
import tracemalloc
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from inexeval.compare.anova import anova2, tukey_hsd  # noqa: E402
from verdict import verdict  # noqa: E402

SIZES = ((50, 10), (50, 100))  # topics, runs
TARGET_S = 10.0  # "seconds, not minutes" for 100 runs × 50 topics, B = 10,000 (scaled for another B)


def best(fn, repeat: int) -> float:
    out = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        out = min(out, time.perf_counter() - t0)
    return out


def peak_mb(fn) -> float:
    tracemalloc.start()
    try:
        fn()
        return tracemalloc.get_traced_memory()[1] / 2 ** 20
    finally:
        tracemalloc.stop()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--samples", type=int, default=10000)
    ap.add_argument("--classic", action="store_true", help="also time the classic Tukey HSD (slow at 100 runs)")
    a = ap.parse_args(argv)
    rng = np.random.default_rng(20240601)
    print(f"{'topics x runs':>14s} {'B':>7s} {'randomised s':>13s} {'perm/s':>9s} {'peak MB':>8s} "
          f"{'classic s':>10s} {'anova2 ms':>10s}")
    figure = None
    for n, m in SIZES:
        x = rng.random((n, m)) * rng.uniform(0.5, 1.0, m)  # runs of different means
        randomised = lambda: tukey_hsd(x, randomised=True, samples=a.samples, seed=1)  # noqa: E731
        wall = best(randomised, a.repeat)
        peak = peak_mb(randomised)
        classic = best(lambda: tukey_hsd(x), 1) if a.classic else float("nan")
        anova = best(lambda: anova2(x), a.repeat)
        print(f"{n:>6d} x {m:<5d} {a.samples:>7d} {wall:>13.3f} {a.samples / wall:>9.0f} {peak:>8.1f} "
              f"{classic:>10.3f} {anova * 1000:>10.3f}")
        if m == 100:
            figure = wall
    print(f"(best of {a.repeat}{'; classic once' if a.classic else ''}; load average {os.getloadavg()[0]:.2f})")
    target = TARGET_S * a.samples / 10000  # the bound scales with B
    verdict(f"statistics: randomised Tukey HSD, 100 runs x 50 topics, B = {a.samples} < {target:g} s",
            f"{figure:.2f} s ({a.samples / figure:.0f} permutations/s)", f"{target:g} s", figure / target,
            figure < target)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
