"""Benchmark ``TASK: trec`` against pytrec_eval, file reading included.

Generates (once, deterministic seed) a TREC workload under
``benchmarks/work/trec/``: graded qrels and N runs of T topics x K results
(defaults 500 x 1,500 x 20), then scores every run with inexeval's trec
path (:func:`inexeval.trec.evaluate_trec`) and with pytrec_eval
(``parse_qrel``/``parse_run`` + ``RelevanceEvaluator.evaluate``) for the same
measures, in this process, and prints the wall times, their ratio and
whether the target (inexeval faster: ratio > 1) is met.  Both timings
include reading the files.  Afterwards every run's average of every measure
is checked against pytrec_eval's (1e-9), outside the timings.

    .venv/bin/python benchmarks/bench_trec.py [--topics 500] [--results 1500] [--runs 20]
"""

from __future__ import annotations

import argparse
import math
import resource
import time
from pathlib import Path

import numpy as np

WORK = Path(__file__).resolve().parent / "work" / "trec"
PYTREC_MEASURES = {
    "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec", "bpref", "recip_rank",
    "iprec_at_recall", "P", "recall", "ndcg", "ndcg_cut",
}


def generate(topics: int, results: int, runs: int, seed: int = 20240601) -> tuple[Path, list[Path]]:
    """Write the workload (if not already there) and return the qrels and run paths."""
    d = WORK / f"t{topics}_k{results}_r{runs}_s{seed}"
    qrels = d / "qrels.txt"
    run_paths = [d / f"run{i:02d}.txt" for i in range(runs)]
    if qrels.exists() and all(p.exists() for p in run_paths):
        return qrels, run_paths
    d.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(seed)
    universe = 2 * results  # candidate documents per topic
    judged = universe // 3
    with qrels.open("w") as f:
        for t in range(topics):
            docs = rng.choice(universe, judged, replace=False)
            rels = rng.choice(4, judged, p=[0.7, 0.15, 0.1, 0.05])
            f.write("".join(f"{401 + t} 0 D{t}-{x} {r}\n" for x, r in zip(docs.tolist(), rels.tolist())))
    for i, path in enumerate(run_paths):
        with path.open("w") as f:
            for t in range(topics):
                docs = rng.choice(universe, results, replace=False)
                # coarse scores: many ties, broken by docno
                scores = np.round(rng.gamma(2.0, 2.0, results), 2)
                f.write("".join(
                    f"{401 + t} Q0 D{t}-{x} {k + 1} {s} run{i:02d}\n"
                    for k, (x, s) in enumerate(zip(docs.tolist(), scores.tolist()))
                ))
    return qrels, run_paths


def bench_inexeval(qrels: Path, runs: list[Path]):
    from inexeval.trec import evaluate_trec

    t0 = time.perf_counter()
    results, errors = evaluate_trec(qrels, runs, measures=None, warn=lambda m: None)
    assert not errors
    return time.perf_counter() - t0, results


def bench_pytrec(qrels: Path, runs: list[Path]):
    import pytrec_eval

    t0 = time.perf_counter()
    with qrels.open() as f:
        q = pytrec_eval.parse_qrel(f)
    ev = pytrec_eval.RelevanceEvaluator(q, PYTREC_MEASURES)
    out = []
    for p in runs:
        with p.open() as f:
            out.append(ev.evaluate(pytrec_eval.parse_run(f)))
    return time.perf_counter() - t0, out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--topics", type=int, default=500)
    ap.add_argument("--results", type=int, default=1500)
    ap.add_argument("--runs", type=int, default=20)
    a = ap.parse_args()
    t0 = time.perf_counter()
    qrels, runs = generate(a.topics, a.results, a.runs)
    print(f"workload: {a.topics} topics x {a.results} results x {a.runs} runs "
          f"({time.perf_counter() - t0:.1f} s to generate or find) in {qrels.parent}")
    rss0 = peak_mb()
    t_ours, ours = bench_inexeval(qrels, runs)
    rss_ours = peak_mb()
    t_theirs, theirs = bench_pytrec(qrels, runs)
    rss_theirs = peak_mb()
    checked = check(ours, theirs)
    print(f"same numbers: {checked} averages checked against pytrec_eval (abs/rel 1e-9)")
    print(f"inexeval (read qrels + read runs + score + average): {t_ours:8.2f} s")
    print(f"pytrec_eval (parse qrels + parse runs + evaluate):  {t_theirs:8.2f} s")
    ratio = t_theirs / t_ours
    print(f"ratio pytrec_eval / inexeval: {ratio:.2f}x")
    print(f"target (inexeval faster, ratio > 1): {'met' if ratio > 1 else 'NOT met'}")
    print(f"peak RSS of this process: {rss0:.0f} MB after generating, {rss_ours:.0f} MB after inexeval, "
          f"{rss_theirs:.0f} MB after pytrec_eval")


def peak_mb() -> float:
    """The process's peak resident set size so far, in MB (Linux reports KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def check(ours, theirs) -> int:
    """Every run's average of every measure equals trec_eval's averaging of pytrec_eval's values."""
    n = 0
    for res, per_topic in zip(ours, theirs):
        topics = [t for t, v in res.per_topic.items() if v["map"] is not None]
        for name in res.measures:
            vals = [per_topic[t][name] for t in topics]
            if name.startswith("num_"):
                want = sum(vals)
            elif name == "gm_map":  # pytrec_eval gives log(max(AP, 1e-5)) per topic
                want = math.exp(sum(vals) / len(vals))
            else:
                want = sum(vals) / len(vals)
            got = res.average[name]
            assert abs(got - want) <= 1e-9 * max(1.0, abs(want)), (res.run_id, name, got, want)
            n += 1
    return n

if __name__ == "__main__":
    main()
