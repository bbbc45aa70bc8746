"""Benchmark the ``inexeval trec-eval`` drop-in against trec_eval 10.0's own binary (issue 35, target 1).

trec_eval is built from its source tarball (``--tarball``, default ``../shared/oracles/trec_eval-10.0.tar.gz``
beside the checkout, or the path in ``INEXEVAL_TREC_EVAL_TARBALL``) twice, with its own Makefile
and with ``-O3`` added to its compiler flags, into ``benchmarks/work/trec_eval/``.  Each command is one whole process per
run, as trec_eval is used; wall and CPU time (user + system) are the best of ``--repeat`` runs, the
commands run in turn so that a change of load hits them alike.  Workloads (generated once into
``benchmarks/work/``):

- ``300x1000``: 300 topics × 1,000 results, graded qrels (bench_trec.py's generator);
- ``msmarco``: ``--msmarco-topics`` queries × 1,000 results (default 6,980: MS MARCO dev's 7 million lines)
  with sparse qrels, about one relevant document per query.

each with trec_eval's default measures and with ``-m all_trec``.  The outputs are compared byte for byte
before any timing.  Target: the drop-in ≤ 0.5 × trec_eval, wall and CPU.  Each case ends with the
drop-in's profile (``phases.py``): its time by phase, inside one invocation, median of 3.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
import phases  # noqa: E402
from bench_trec import best_alternating, generate  # noqa: E402
from verdict import verdict  # noqa: E402

from inexeval.numpy_sorts import avx2_sort_targets  # noqa: E402

WORK = Path(__file__).resolve().parent / "work"
TARGET = 0.5
#: the drop-in run with numpy's AVX-512 sorts, where inexeval switches them off (inexeval.numpy_sorts)
AVX512_ROW = "inexeval, AVX-512 sorts"


def build(tarball: Path, label: str, cflags: str | None) -> Path:
    """trec_eval built from TARBALL into work/trec_eval/<label>/ (once)."""
    where = WORK / "trec_eval" / label
    binary = next(where.glob("*/trec_eval"), None) if where.is_dir() else None
    if binary is not None and os.access(binary, os.X_OK):
        return binary
    shutil.rmtree(where, ignore_errors=True)
    where.mkdir(parents=True)
    with tarfile.open(tarball) as tar:
        tar.extractall(where, filter="data")
    src = next(p for p in where.iterdir() if p.is_dir())
    make = ["make", "-C", str(src)] + ([f"CC=gcc {cflags}"] if cflags else [])  # (its CFLAGS kept)
    subprocess.run(make, check=True, capture_output=True)
    return src / "trec_eval"


def msmarco(topics: int, seed: int = 7) -> tuple[Path, Path]:
    """An MS MARCO-shaped workload: TOPICS queries × 1,000 results, one relevant passage per query (one in
    twenty queries has two), numeric ids; the run retrieves the relevant passage for about 60 % of the
    queries, at a rank drawn from a geometric law."""
    d = WORK / f"msmarco_t{topics}_s{seed}"
    qrels, run = d / "qrels.txt", d / "run.txt"
    if run.exists():
        return qrels, run
    d.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(seed)
    with qrels.open("w") as fq, run.open("w") as fr:
        for start in range(0, topics, 500):
            block = range(start, min(topics, start + 500))
            q, r = [], []
            for t in block:
                qid = 1_000_000 + t
                rel = rng.integers(0, 8_800_000, 1 + (rng.random() < 0.05))
                q += [f"{qid} 0 {p} 1\n" for p in rel.tolist()]
                docs = rng.choice(8_800_000 - 1, 1000, replace=False)  # distinct, and none is rel[0]:
                docs[docs >= rel[0]] += 1  # trec_eval refuses a docno twice in a topic
                if rng.random() < 0.6:
                    docs[min(999, int(rng.geometric(0.15)) - 1)] = rel[0]
                scores = np.sort(rng.normal(20, 3, 1000))[::-1].round(4)
                r += [f"{qid} Q0 {p} {k + 1} {s} bm25\n" for k, (p, s) in enumerate(zip(docs.tolist(), scores.tolist()))]
            fq.write("".join(q))
            fr.write("".join(r))
    return qrels, run


#: The drop-in's phases (benchmarks/phases.py): its command's functions, in the order they run.
DROP_IN_PHASES = [
    ("qrels read", ["inexeval.dropins.trec_eval.cli:_read_rel_info"]),
    ("run read", ["inexeval.dropins.trec_eval.cli:read_run"]),
    ("run read and evaluated in pieces", ["inexeval.dropins.trec_eval.cli:_evaluate_pieces"]),  # 64 MB or more
    ("evaluated", ["inexeval.dropins.trec_eval.cli:_evaluate"]),
    ("output", ["inexeval.dropins.trec_eval.cli:render"]),
]


def case(label: str, qrels: Path, run: Path, binaries: dict[str, Path], extra: list[str], repeat: int) -> None:
    cmds = {name: [str(b), *extra, str(qrels), str(run)] for name, b in binaries.items()}
    cmds["inexeval trec-eval"] = [sys.executable, "-m", "inexeval", "trec-eval", *extra, str(qrels), str(run)]
    if avx2_sort_targets():  # the same with numpy's own (AVX-512) sorts, for comparison
        cmds[AVX512_ROW] = ["env", "NPY_DISABLE_CPU_FEATURES=", *cmds["inexeval trec-eval"]]
    outs = {name: subprocess.run(cmd, capture_output=True, check=True).stdout for name, cmd in cmds.items()}
    reference = outs["trec_eval (Makefile)"]
    differing = [n for n in outs if n.startswith("inexeval") and outs[n] != reference]
    if differing:
        raise SystemExit(f"{label}: {', '.join(differing)}: output differs from trec_eval's (Makefile build)")
    for name, out in outs.items():  # (trec_eval built with -O3 prints another rbp: see the README)
        differ = [a for a, b in zip(reference.splitlines(), out.splitlines()) if a != b]
        if differ or len(out) != len(reference):
            print(f"note: {name} prints {len(differ)} line(s) unlike the Makefile build, e.g. "
                  f"{out.splitlines()[reference.splitlines().index(differ[0])].decode() if differ else '(length)'}")
    best = best_alternating(cmds, repeat, qrels.parent)
    ours = best["inexeval trec-eval"]
    print(f"\n{label} {' '.join(extra) or '(default measures)'}: {run.stat().st_size / 1e6:.0f} MB of run")
    print(f"{'command':24s} {'wall s':>8s} {'CPU s':>8s} {'max RSS MB':>11s} {'wall ratio':>11s} {'CPU ratio':>10s}")
    for name, t in best.items():
        print(f"{name:24s} {t.wall:8.2f} {t.cpu:8.2f} {t.rss_mb:11.0f} {ours.wall / t.wall:11.2f} {ours.cpu / t.cpu:10.2f}")
    for name, t in best.items():
        if name.startswith("inexeval"):
            continue
        ratio = max(ours.wall / t.wall, ours.cpu / t.cpu)
        verdict(f"35.1 drop-in <= {TARGET:g} x trec_eval ({name}), {label}, {' '.join(extra) or 'default measures'}",
                f"{ours.wall:.2f} s (CPU {ours.cpu:.2f} s)", f"{name} {t.wall:.2f} s (CPU {t.cpu:.2f} s)",
                ratio, ratio <= TARGET)
    profiled = phases.profile(["trec-eval", *extra, str(qrels), str(run)], DROP_IN_PHASES, repeat=3)
    print(f"     profile of inexeval trec-eval (in one invocation, median of 3): {phases.line(profiled)}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    default = Path(os.environ.get("INEXEVAL_TREC_EVAL_TARBALL", ROOT.parent / "shared" / "oracles" / "trec_eval-10.0.tar.gz"))
    ap.add_argument("--tarball", type=Path, default=default, help="trec_eval 10.0's source tarball")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--msmarco-topics", type=int, default=6980, help="queries of the MS MARCO-shaped run (0: none)")
    a = ap.parse_args()
    if not a.tarball.is_file():
        verdict("35.1 drop-in vs trec_eval", "-", f"no tarball at {a.tarball}", None, None)
        return
    binaries = {"trec_eval (Makefile)": build(a.tarball, "makefile", None),
                "trec_eval (-O3)": build(a.tarball, "O3", "-O3")}
    switched = avx2_sort_targets()
    print(f"numpy {np.__version__}: " + (f"AVX2 sorts, this CPU being an AMD Zen 4 (NPY_DISABLE_CPU_FEATURES={switched}"
                                         f", inexeval.numpy_sorts; the row '{AVX512_ROW}' keeps numpy's)"
                                         if switched else "its own choice of sorts"))
    qrels, runs = generate(300, 1000, 1)
    for extra in ([], ["-m", "all_trec"]):
        case("300 topics x 1,000", qrels, runs[0], binaries, extra, a.repeat)
    if a.msmarco_topics:
        qrels, run = msmarco(a.msmarco_topics)
        for extra in ([], ["-m", "all_trec"]):
            case(f"MS MARCO-shaped, {a.msmarco_topics} x 1,000", qrels, run, binaries, extra, a.repeat)


if __name__ == "__main__":
    main()
