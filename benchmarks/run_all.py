"""Run every benchmark of issue 16 and print one table: target, figure, reference, ratio, verdict.

    .venv/bin/python benchmarks/run_all.py [--quick] [--with-x10] [--with-fol-synthetic] [--repeat R]

Each script runs as a child (its own output is kept under
``benchmarks/work/run_all/<script>.txt``); the table is made of the
``VERDICT`` lines the scripts print (benchmarks/verdict.py), in the order
of the targets.  Verdicts: met, missed, or not measured (the reference
cannot be run here, e.g. the inex_eval jar without Java).

- default: bench_startup (target 6), bench_trec large and small (target 1),
  bench_inex on the INEX 2005 workload with 55 and with 10 runs (target 5),
  bench_long_topic (target 3, memory bound of a long topic), bench_fol on the
  public data (target 2);
- ``--with-x10``: also bench_inex at ``inex2005x10`` (target 3, peak < 1 GB;
  minutes);
- ``--with-fol-synthetic``: also bench_fol's 10 x synthetic workload (about
  4 GB of runs, an hour);
- ``--quick``: small sizes for a smoke test (verdicts are then against the
  target's bound on a smaller workload, and say so).
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from verdict import parse  # noqa: E402

OUT = HERE / "work" / "run_all"


def plan(a: argparse.Namespace) -> list[tuple[str, list[str]]]:
    r = ["--repeat", str(a.repeat)]
    if a.quick:
        return [
            ("startup", ["bench_startup.py", "--repeat", "3"]),
            ("trec-small", ["bench_trec.py", "--topics", "100", "--results", "500", "--runs", "4", "--repeat", "1",
                            "--skip-memory"]),
            ("inex-small", ["bench_inex.py", "--scale", "small"]),
            ("long-topic", ["bench_long_topic.py", "--scale", "small", "--results", "20000",
                            "--max-results", "500"]),
            ("fol", ["bench_fol.py", "--repeat", "1", "--tasks", "f", "--skip-synthetic"]),
            ("analysis", ["bench_analysis.py", "--repeat", "1"]),
            ("trec-binary", ["bench_trec_binary.py", "--repeat", "1", "--msmarco-topics", "500"]),
            ("trec-huge", ["bench_trec_huge.py", "--sizes", "5", "6"]),
        ]
    steps = [
        ("startup", ["bench_startup.py"]),
        ("trec-large", ["bench_trec.py", *r]),
        ("trec-small", ["bench_trec.py", "--small", *r, "--skip-memory"]),
        ("inex-55", ["bench_inex.py", *r]),
        ("inex-10", ["bench_inex.py", "--runs", "10", *r]),
        ("long-topic", ["bench_long_topic.py"]),
        ("fol", ["bench_fol.py", *r] + ([] if a.with_fol_synthetic else ["--skip-synthetic"])),
        ("analysis", ["bench_analysis.py"]),
        ("trec-binary", ["bench_trec_binary.py", *r]),
        ("trec-huge", ["bench_trec_huge.py"]),
    ]
    if a.with_x10:
        steps.append(("inex-x10", ["bench_inex.py", "--scale", "inex2005x10"]))
    return steps


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="small sizes (a smoke test)")
    ap.add_argument("--with-x10", action="store_true", help="also the 10 x INEX workload (memory, minutes)")
    ap.add_argument("--with-fol-synthetic", action="store_true", help="also the 10 x FOL workload (an hour)")
    ap.add_argument("--repeat", type=int, default=3, help="times each timed command, the best kept")
    a = ap.parse_args(argv)
    OUT.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "PYTHONPATH": str(HERE.parent)}
    rows, failed = [], []
    t_start = time.perf_counter()
    print(f"machine: {platform.node()}, {len(os.sched_getaffinity(0))} cores, Python {platform.python_version()}, "
          f"{time.strftime('%Y-%m-%d %H:%M')}, load average {os.getloadavg()[0]:.2f}", flush=True)
    for name, args in plan(a):
        t0 = time.perf_counter()
        load = os.getloadavg()[0]
        proc = subprocess.run([sys.executable, str(HERE / args[0]), *args[1:]], cwd=HERE.parent, env=env,
                              capture_output=True, text=True)
        (OUT / f"{name}.txt").write_text(proc.stdout + proc.stderr)
        got = parse(proc.stdout)
        print(f"  {name}: {' '.join(args)}: {time.perf_counter() - t0:.0f} s, load average {load:.1f} -> "
              f"{os.getloadavg()[0]:.1f}, {len(got)} verdict(s)"
              + ("" if proc.returncode == 0 else f", EXIT STATUS {proc.returncode}"), flush=True)
        if proc.returncode != 0:
            failed.append(name)
            rows.append([f"({name})", "script failed: see " + str(OUT / f"{name}.txt"), "", "", "missed"])
        rows.extend(got)
    rows.sort(key=lambda r: r[0].split(" ", 1)[0])  # by target number, each script's order kept
    print()
    widths = [max(len(r[i]) for r in rows + [HEADER]) for i in range(5)]
    for r in [HEADER, ["-" * w for w in widths], *rows]:
        print("  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip())
    counts = {v: sum(r[4] == v for r in rows) for v in ("met", "missed", "not measured")}
    print(f"\n{counts['met']} met, {counts['missed']} missed, {counts['not measured']} not measured "
          f"({time.perf_counter() - t_start:.0f} s; each script's output under {OUT})")
    return 1 if failed else 0


HEADER = ["target", "figure", "reference", "ratio", "verdict"]

if __name__ == "__main__":
    raise SystemExit(main())
