"""Judging the judges at a real size (issue 34; docs/measures.md §13): two TREC qrels of 50 topics ×
1,000 judged documents each and 50 runs (``--results`` results per topic), compared in one call of
``inexeval.assessments.judges.compare_judgements``: label agreement per topic and pooled (judged by
both and, with ``--missing default:0``, the union), the run rankings of every measure of the config
(τ-b, τ_AP, τ_AP-b, ρ, r, top-k τ) and the significance decisions of MAP (paired t, Holm), with
``--fill A+B`` and Judged@10: the runs scored under A, B and the fill.

    .venv/bin/python benchmarks/bench_judges.py [--topics 50] [--docs 1000] [--runs 50] [--results 1000]
        [--repeat 1] [--jobs 1] [--test t]

The data is generated (seeded) under ``benchmarks/work/judges/``.  Printed: the time of the labels
alone (no run read), of the whole comparison, and its rows; one VERDICT line against 60 s for the
whole ("all of the above in seconds").
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))
from inexeval.assessments.judges import JudgesOptions, compare_judgements  # noqa: E402
from verdict import verdict  # noqa: E402

TARGET_S = 60.0


def generate(root: Path, topics: int, docs: int, runs: int, results: int, seed: int = 34) -> tuple[Path, Path, Path]:
    """A's qrels (grades 0-3), B's (a third of A's grades moved by one, 5 % of the documents judged by one
    side only) and RUNS runs of RESULTS results per topic, of graded quality."""
    if root.exists():
        shutil.rmtree(root)
    (root / "runs").mkdir(parents=True)
    rng = np.random.default_rng(seed)
    a_parts, b_parts = [], []
    run_parts = [[] for _ in range(runs)]
    quality = np.linspace(2.0, 0.0, runs)
    ids = np.array([f"D{d:05d}" for d in range(docs)])
    for t in range(1, topics + 1):
        grade = rng.choice(4, docs, p=[0.7, 0.15, 0.1, 0.05])
        shift = np.where(rng.random(docs) < 0.33, rng.integers(-1, 2, docs), 0)
        in_a, in_b = rng.random(docs) < 0.975, rng.random(docs) < 0.975
        gb = np.clip(grade + shift, 0, 3)
        a_parts.append("".join(f"{t} 0 {d} {g}\n" for d, g in zip(ids[in_a], grade[in_a])))
        b_parts.append("".join(f"{t} 0 {d} {g}\n" for d, g in zip(ids[in_b], gb[in_b])))
        noise = rng.normal(0.0, 1.0, (runs, docs))
        score = quality[:, None] * grade[None, :] + noise
        order = np.argsort(-score, axis=1)[:, :results]
        for k in range(runs):
            sel = order[k]
            run_parts[k].append("".join(f"{t} Q0 {d} {r + 1} {s:.5f} run{k}\n"
                                        for r, (d, s) in enumerate(zip(ids[sel], score[k, sel]))))
    (root / "a.txt").write_text("".join(a_parts))
    (root / "b.txt").write_text("".join(b_parts))
    for k, parts in enumerate(run_parts):
        (root / "runs" / f"run{k:02d}.txt").write_text("".join(parts))
    return root / "a.txt", root / "b.txt", root / "runs"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--topics", type=int, default=50)
    ap.add_argument("--docs", type=int, default=1000)
    ap.add_argument("--runs", type=int, default=50)
    ap.add_argument("--results", type=int, default=1000)
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--test", default="t")
    a = ap.parse_args(argv)
    root = HERE / "work" / "judges"
    t0 = time.perf_counter()
    qa, qb, runs = generate(root, a.topics, a.docs, a.runs, a.results)
    print(f"generated {a.topics} topics x {a.docs} documents x 2 sets, {a.runs} runs x {a.results} results "
          f"in {time.perf_counter() - t0:.1f} s")
    config = {"TASK": "trec", "ASSESSMENTS_DIR": str(qa), "SUBMISSIONRUNS_DIR": str(runs),
              "RESULTS_DIR": str(root / "results")}
    labels = whole = float("inf")
    rows = 0
    for _ in range(a.repeat):
        t0 = time.perf_counter()
        compare_judgements(config, [qb], JudgesOptions(missing=0, score_runs=False))
        labels = min(labels, time.perf_counter() - t0)
        t0 = time.perf_counter()
        res = compare_judgements(config, [qb], JudgesOptions(missing=0, fill=("A+B",), test=a.test, jobs=a.jobs))
        whole = min(whole, time.perf_counter() - t0)
        rows = len(res.rows)
    sections = {s: sum(1 for r in res.rows if r[0] == s) for s in ("labels", "ranking", "runs", "significance",
                                                                 "judged")}
    print(f"labels only: {labels:.2f} s; everything (labels, rankings of every measure, significance of MAP "
          f"with --test {a.test}, --fill A+B and Judged@10; runs scored under A, B and A+B, --jobs {a.jobs}): "
          f"{whole:.2f} s; {rows} rows {sections}")
    print(f"(best of {a.repeat}; load average {os.getloadavg()[0]:.2f})")
    verdict(f"judges: 2 x {a.topics} topics x {a.docs} judged documents, {a.runs} runs, every section < "
            f"{TARGET_S:g} s", f"{whole:.2f} s (labels alone {labels:.2f} s)", f"{TARGET_S:g} s", whole / TARGET_S,
            whole < TARGET_S)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
