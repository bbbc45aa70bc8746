"""Benchmark many runs through one ``TASK: trec`` config against trec_eval run by run (issue 35, target 3).

The workload (bench_trec.py's generator: graded qrels, coarse scores with many ties) is ``--runs``
runs of ``--topics`` × ``--results`` lines (default 100 × 500 × 1,000: 50 million lines).  The
reference is the sum of trec_eval 10.0's times (its own Makefile's build, bench_trec_binary.py's
``build``), one process per run as trec_eval is used; inexeval scores every run in one invocation
with ``--jobs 1``, ``2`` and every core, so that the speed-up per core is shown.  Target: ≤ 0.3 ×
the sum, using the cores.  One timing each (the reference alone takes minutes).  Then a profile line
(``phases.py``): ``PROFILE_RUNS`` of the runs through the same config, ``--jobs 1`` and without reading
runs ahead, timed phase by phase inside the process.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
import phases  # noqa: E402
from bench_trec import generate, inexeval_cmd, measure  # noqa: E402
from bench_trec_binary import build  # noqa: E402
from verdict import verdict  # noqa: E402

TARGET = 0.3
#: The runs of the profile line (benchmarks/phases.py): a sample keeps it short; the runs are alike.
PROFILE_RUNS = 10


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    default = Path(os.environ.get("INEXEVAL_TREC_EVAL_TARBALL", ROOT.parent / "shared" / "oracles" / "trec_eval-10.0.tar.gz"))
    ap.add_argument("--tarball", type=Path, default=default, help="trec_eval 10.0's source tarball")
    ap.add_argument("--runs", type=int, default=100)
    ap.add_argument("--topics", type=int, default=500)
    ap.add_argument("--results", type=int, default=1000)
    a = ap.parse_args()
    qrels, runs = generate(a.topics, a.results, a.runs)
    lines = a.runs * a.topics * a.results
    print(f"{a.runs} runs x {a.topics} topics x {a.results} results: {lines:,} lines, "
          f"{sum(r.stat().st_size for r in runs) / 1e9:.2f} GB")
    if a.tarball.is_file():
        binary = build(a.tarball, "makefile", None)
        wall = cpu = 0.0
        for run in runs:
            t = measure([str(binary), str(qrels), str(run)], qrels.parent)
            wall, cpu = wall + t.wall, cpu + t.cpu
        print(f"trec_eval, one process per run, summed: {wall:.1f} s (CPU {cpu:.1f} s)")
    else:
        wall = None
        print(f"no trec_eval tarball at {a.tarball}: the reference is not measured")
    prop = qrels.parent / "trec.prop"
    cores = os.cpu_count() or 1
    times = {}
    for jobs in dict.fromkeys((1, 2, cores)):
        t = measure(inexeval_cmd(prop, jobs, qrels.parent / f"results-j{jobs}"), qrels.parent)
        times[jobs] = t
        ratio = f", {t.wall / wall:.2f} x trec_eval's sum" if wall else ""
        print(f"inexeval, TASK trec, --jobs {jobs}: {t.wall:.1f} s (CPU {t.cpu:.1f} s, peak {t.rss_mb:.0f} MB), "
              f"speed-up {times[1].wall / t.wall:.2f} over one core{ratio}")
    best = min(times.values(), key=lambda t: t.wall)
    verdict(f"35.3 many runs: TASK trec <= {TARGET:g} x trec_eval's sum, {a.runs} x {a.topics} x {a.results}",
            f"{best.wall:.1f} s (--jobs {min(times, key=lambda j: times[j].wall)}, {cores} cores)",
            f"trec_eval {wall:.1f} s" if wall else "not measured", best.wall / wall if wall else None,
            best.wall / wall <= TARGET if wall else None)
    sample = runs[:PROFILE_RUNS]
    cmd = inexeval_cmd(prop, 1, qrels.parent / "results-profile")[3:]  # (after python -m inexeval)
    cmd += ["--set", "SUBMISSIONRUNS_DIR=" + ",".join(map(str, sample))]
    got = phases.profile(cmd, phases.evaluation_phases("DocumentInputs", "qrels read"), cwd=qrels.parent,
                         settings=phases.NO_READ_AHEAD)
    print(f"profile of TASK trec ({len(sample)} of the runs, --jobs 1, no reading ahead: where the CPU time goes): "
          f"{phases.line(got)}; a run: {phases.per_run(got, len(sample))}")


if __name__ == "__main__":
    main()
