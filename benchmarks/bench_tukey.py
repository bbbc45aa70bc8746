"""Statistics over topics × runs (docs/measures.md §12): randomised Tukey HSD with B = 10,000
permutations on 100 runs × 50 topics takes seconds (issue 32), and what the other figures cost.

    .venv/bin/python benchmarks/bench_tukey.py [--repeat 3] [--samples 10000]

Prints, for a few sizes, the best of R wall times and the permutations per second, beside the classic
(studentized range) Tukey HSD, the two-way ANOVA, discriminative power (bootstrap, B = 1,000) and
swap rates (B = 1,000) on the same matrix: the reference is measured in the same run.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from inexeval import stats  # noqa: E402

SIZES = ((50, 10), (50, 30), (50, 100))  # topics, runs
TARGET_S = 10.0  # "seconds, not minutes" for 100 runs × 50 topics and B = 10,000


def best(fn, repeat: int) -> float:
    out = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        out = min(out, time.perf_counter() - t0)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--samples", type=int, default=10000)
    args = ap.parse_args()
    rng = np.random.default_rng(0)
    verdicts = []
    print(f"{'topics x runs':>14} {'randomised':>11} {'perm/s':>10} {'classic':>9} {'anova2':>8} "
          f"{'disc.power':>11} {'swap rate':>10}")
    for n, m in SIZES:
        x = rng.random((n, m))
        rt = best(lambda: stats.tukey_hsd(x, randomised=True, samples=args.samples, seed=1), args.repeat)
        ct = best(lambda: stats.tukey_hsd(x), 1)
        at = best(lambda: stats.anova2(x), args.repeat)
        dp = best(lambda: stats.discriminative_power(x, samples=1000), 1)
        sw = best(lambda: stats.swap_rate(x, n // 2, samples=1000), 1)
        print(f"{n:>6} x {m:<6} {rt:>10.2f}s {args.samples / rt:>10.0f} {ct:>8.2f}s {at * 1000:>6.2f}ms "
              f"{dp:>10.2f}s {sw:>9.2f}s")
        if (n, m) == (50, 100):
            verdicts.append(rt <= TARGET_S)
    print(f"randomised Tukey HSD, 100 runs x 50 topics, B = {args.samples}: "
          f"{'within' if all(verdicts) else 'OVER'} {TARGET_S:g} s")
    return 0 if all(verdicts) else 1


if __name__ == "__main__":
    sys.exit(main())
