"""One run of up to 10^8 lines in bounded memory (issue 35, target 2).

A run of T topics × 100 results (T = 10^3 … 10^6: 10^5 … 10^8 lines, 37 bytes a line) and its
qrels (about one relevant document per topic, as MS MARCO's) are generated into
``benchmarks/work/huge/`` a block of topics at a time, written as digit matrices (no Python work
per line), so the generator's memory is one block whatever the size.  Each size is scored by:

- trec_eval 10.0 built with ``-O3`` (bench_trec_binary.py builds it), default measures, stopped after
  ``--limit`` seconds (its time grows with topics × lines: 1.1 s at 10^4 topics × 100, 303 s at 10^5);
- ``inexeval trec-eval`` with the same arguments (output compared byte for byte);
- ``inexeval -config`` with ``TASK: trec`` (its per-topic and average files written), up to
  ``--config-up-to`` (default 10^7 lines, to keep the default run short: at 10^8 lines it takes
  about a minute and 2.2 GB, 23 bytes a line; README, Performance).

Wall and CPU time and peak RSS (sampled, bench_trec.measure) per command and size, as a table, and
the bytes of peak memory per line read.  Targets at the largest size: peak < 4 GB, and less time
than trec_eval's.  ``--sizes`` picks the sizes (default 5 6 7: 10^5 … 10^7 lines; add 8 for 10^8:
3.7 GB of run, about 10 minutes with trec_eval's 2 minutes).
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
from bench_trec import measure  # noqa: E402
from bench_trec_binary import build  # noqa: E402
from verdict import verdict  # noqa: E402

WORK = HERE / "work" / "huge"
PER_TOPIC = 100
BLOCK = 10_000  # topics generated at a time
BUDGET_GB = 4.0


def digits(x: np.ndarray, width: int) -> np.ndarray:
    """The non-negative integers X as ASCII digits, zero-padded to WIDTH: an (n, WIDTH) uint8 matrix."""
    power = 10 ** np.arange(width - 1, -1, -1, dtype=np.int64)
    return (x[:, None] // power % 10 + 48).astype(np.uint8)


def text(n: int, parts: list[np.ndarray | bytes]) -> bytes:
    """N lines, each the columns of PARTS side by side (a bytes part: the same in every line)."""
    cols = [np.broadcast_to(np.frombuffer(p, dtype=np.uint8), (n, len(p))) if isinstance(p, bytes) else p
            for p in parts]
    return np.hstack(cols).tobytes()


def generate(topics: int, seed: int = 11) -> tuple[Path, Path]:
    """qrels.txt and run.txt of TOPICS topics × 100 results (generated once)."""
    d = WORK / f"t{topics}"
    qrels, run = d / "qrels.txt", d / "run.txt"
    if run.exists() and qrels.exists():
        return qrels, run
    d.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(seed)
    with open(d / "qrels.part", "wb") as fq, open(d / "run.part", "wb") as fr:
        for start in range(0, topics, BLOCK):
            t = min(BLOCK, topics - start)
            qid = 1_000_000 + start + np.arange(t)
            # docnos distinct within a topic: a random 8-digit number in each of 100 ranges, ranges shuffled
            ranges = np.argsort(rng.random((t, PER_TOPIC)), axis=1)
            doc = 10_000_000 + ranges * 900_000 + rng.integers(0, 900_000, (t, PER_TOPIC))
            score = -np.sort(-np.clip(rng.normal(20, 3, (t, PER_TOPIC)), 0, 99.9999), axis=1)
            ticks = np.round(score * 10_000).astype(np.int64)  # 4 decimals: ties happen, as in real runs
            n = t * PER_TOPIC
            fr.write(text(n, [digits(np.repeat(qid, PER_TOPIC), 7), b" Q0 ", digits(doc.ravel(), 8), b" ",
                              digits(np.tile(np.arange(1, PER_TOPIC + 1), t), 3), b" ",
                              digits(ticks.ravel() // 10_000, 2), b".", digits(ticks.ravel() % 10_000, 4),
                              b" bm25\n"]))
            # one relevant document a topic (two in one topic of twenty); the run finds it in 60 % of them
            rel = 10_000_000 + rng.integers(0, 90_000_000, t)
            found = rng.random(t) < 0.6
            at = np.minimum(rng.geometric(0.15, t), PER_TOPIC) - 1
            rel[found] = doc[np.flatnonzero(found), at[found]]
            second = rng.random(t) < 0.05
            qq = np.concatenate((qid, qid[second]))
            dd = np.concatenate((rel, 10_000_000 + rng.integers(0, 90_000_000, int(second.sum()))))
            o = np.argsort(qq, kind="stable")
            fq.write(text(qq.size, [digits(qq[o], 7), b" 0 ", digits(dd[o], 8), b" 1\n"]))
    os.replace(d / "qrels.part", qrels)
    os.replace(d / "run.part", run)
    return qrels, run


def capped(cmd: list[str], cwd: Path, limit: float):
    """bench_trec.measure's timing of CMD, the process killed after LIMIT seconds; whether it was."""
    import subprocess
    import threading
    import time

    from bench_trec import Timing, _PeakWatcher

    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    watch = _PeakWatcher(proc.pid)
    watch.start()
    timer = threading.Timer(limit, proc.kill)
    timer.start()
    _, status, ru = os.wait4(proc.pid, 0)
    timer.cancel()
    wall = time.perf_counter() - t0
    watch.done.set()
    watch.join()
    return Timing(wall, ru.ru_utime + ru.ru_stime, watch.peak_kb / 1024), wall >= limit


def config(d: Path) -> Path:
    """A TASK: trec config scoring d/run.txt (the only run in d/runs/)."""
    runs = d / "runs"
    runs.mkdir(exist_ok=True)
    link = runs / "run.txt"
    if not link.exists():
        link.symlink_to(d / "run.txt")
    prop = d / "trec.prop"
    prop.write_text("TASK: trec\nASSESSMENTS_DIR: qrels.txt\nSUBMISSIONRUNS_DIR: runs/\nRESULTS_DIR: results\n")
    return prop


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    default = Path(os.environ.get("INEXEVAL_TREC_EVAL_TARBALL", ROOT.parent / "shared" / "oracles" / "trec_eval-10.0.tar.gz"))
    ap.add_argument("--tarball", type=Path, default=default, help="trec_eval 10.0's source tarball")
    ap.add_argument("--sizes", type=int, nargs="+", default=[5, 6, 7],
                    help="powers of ten of the run's lines (5 to 8)")
    ap.add_argument("--config-up-to", type=int, default=7, help="TASK: trec for sizes up to 10^this")
    ap.add_argument("--limit", type=float, default=600, help="seconds after which trec_eval is stopped")
    ap.add_argument("--keep", action="store_true", help="keep the generated files")
    a = ap.parse_args()
    te = build(a.tarball, "O3", "-O3") if a.tarball.is_file() else None
    rows = []
    for p in a.sizes:
        qrels, run = generate(10 ** p // PER_TOPIC)
        d = run.parent
        cmds = {"inexeval trec-eval": [sys.executable, "-m", "inexeval", "trec-eval", str(qrels), str(run)]}
        if te is not None:
            cmds = {"trec_eval -O3": [str(te), str(qrels), str(run)], **cmds}
        if p <= a.config_up_to:
            cmds["inexeval TASK: trec"] = [sys.executable, "-m", "inexeval", "-config", str(config(d)), "--quiet",
                                           "--results-dir", str(d / "results")]
        stopped = False
        for name, cmd in cmds.items():
            if name.startswith("trec_eval"):
                t, stopped = capped(cmd, d, a.limit)
            else:
                t = measure(cmd, d)
            rows.append((p, name, t, stopped and name.startswith("trec_eval")))
            print(f"10^{p} lines  {name:22s} {'>' if stopped and name.startswith('trec_eval') else ' '}"
                  f"{t.wall:7.1f} s wall {t.cpu:8.1f} s CPU {t.rss_mb:8.0f} MB peak "
                  f"({t.rss_mb * 2**20 / 10 ** p:6.1f} bytes a line)", flush=True)
        if te is not None and not stopped:
            import subprocess

            want = subprocess.run(cmds["trec_eval -O3"], capture_output=True, check=True).stdout
            got = subprocess.run(cmds["inexeval trec-eval"], capture_output=True, check=True).stdout
            print(f"10^{p} lines: the drop-in's output {'is' if want == got else 'is NOT'} trec_eval's, byte for byte")
        shutil.rmtree(d / "results", ignore_errors=True)
        if not a.keep and p >= 8:
            shutil.rmtree(d)
    print(f"\n{'lines':>7s} " + " ".join(f"{name:>30s}" for name in dict.fromkeys(n for _, n, _, _ in rows)))
    for p in a.sizes:
        cells = [f"{'>' if cut else ''}{t.wall:.1f} s {t.rss_mb:8.0f} MB" for q, _, t, cut in rows if q == p]
        print(f"{'10^' + str(p):>7s} " + " ".join(f"{c:>30s}" for c in cells))
    top = max(a.sizes)
    by = {name: t for q, name, t, _ in rows if q == top}
    ref = by.get("trec_eval -O3")
    for name in ("inexeval trec-eval", "inexeval TASK: trec"):
        t = by.get(name)
        if t is None:
            continue
        verdict(f"35.2 {name}, 10^{top} lines: peak < {BUDGET_GB:g} GB", f"{t.rss_mb / 1024:.2f} GB",
                f"{BUDGET_GB:g} GB", t.rss_mb / 1024 / BUDGET_GB, t.rss_mb / 1024 < BUDGET_GB)
        if ref is not None:
            verdict(f"35.2 {name}, 10^{top} lines: faster than trec_eval", f"{t.wall:.1f} s",
                    f"trec_eval -O3 {'stopped after ' if stopped else ''}{ref.wall:.1f} s "
                    f"({ref.rss_mb / 1024:.1f} GB)", t.wall / ref.wall, t.wall < ref.wall)


if __name__ == "__main__":
    main()
