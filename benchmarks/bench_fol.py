"""Benchmark the INEX 2007-2010 passage (FOL) evaluation: the drop-in, the config-driven tasks, the jar.

Part 1, the public INEX 2009/2010 data (``--data``, by default ``../shared/data/inex2009-2010``
beside the repository): for each task, its three real runs (Focused and Thorough: the original
runs; Relevant in Context and T2I: ``.blockgrouped``; Best in Context: ``.bic``), decompressed
once under ``benchmarks/work/fol/real/``, timed as whole processes:

- ``inexeval inex-eval -X -q QRELS RUN``, one run per invocation (as the jar's recorded times);
- ``inexeval -config`` of the task with the three runs in one invocation (``-q``, result files
  written; without ``--jobs``, inexeval's automatic choice, which the verdict reads, and with
  ``--jobs`` as given), and ``inexeval inex-eval`` with the three runs in one invocation;
- the official jar, ``java -jar JAR -X -q QRELS RUN``, when ``java`` and the jar (``--jar PATH`` or
  the environment variable ``INEX_EVAL_JAR``) are there, one run per invocation and the three runs in
  one invocation (these three-run invocations alternate, round by round); issue 35, target 4: the
  config path <= 0.5 x and the drop-in <= 0.4 x the jar, all three runs in one invocation each,
  with a profile line (imports, qrels, runs read and scored, timed inside one process).  Otherwise
  the jar's times recorded when the drop-in was checked against it (2-core AMD EPYC, median of 7,
  JVM start included) are printed as the reference, labelled as recorded, not measured here.

Part 2, a deterministic synthetic workload ten times the public one (``--scale 10``): the public
qrels repeated with renamed topics (1,200 topics, about 103,000 judgements; a synthetic stand-in of
the same shape without ``--data``), and ``--runs`` (50) runs of ``--passages`` (1,500) passages per
topic, each article's passages together and not overlapping (valid for every task; Best in Context
gets the first passage of each article), none so long that a run's characters add up past 2^31 - 1
(which the config path refuses), generated under ``benchmarks/work/fol/synthetic-*/``;
all runs in one invocation, for the drop-in and for the config-driven task.

Each figure is the median of ``--repeat`` invocations (part 2: one), with the largest RSS of the
process (``os.wait4``).

    .venv/bin/python benchmarks/bench_fol.py [--data DIR] [--jar PATH] [--repeat 3] [--jobs N]
        [--tasks t,f,r,b,i] [--scale 10] [--runs 50] [--passages 1500] [--skip-real] [--skip-synthetic]
"""

from __future__ import annotations

import argparse
import gzip
import os
import random
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))
from bytecode import compile_checkout  # noqa: E402
from verdict import verdict  # noqa: E402
WORK = ROOT / "benchmarks" / "work" / "fol"
DEFAULT_DATA = ROOT.parent / "shared" / "data" / "inex2009-2010"
TASKS = {"t": "FOL.Thorough", "f": "FOL.Focused", "r": "FOL.RelevantInContext", "b": "FOL.BestInContext",
         "i": "FOL.T2I"}
#: each task's measure family (its strategy: inexeval.measures.registry.STRATEGY_FAMILIES)
STRATEGY = {"t": "fol-thorough", "f": "fol-focused", "r": "fol-relevantincontext", "b": "fol-bestincontext",
            "i": "fol-t2i"}
VARIANT = {"t": "", "f": "", "r": ".blockgrouped", "b": ".bic", "i": ".blockgrouped"}
RUNS = ("bert_inex_converted_1", "bert_inex_converted_2", "bert_inex_converted")
#: The official jar's wall-clock seconds per run (_1 / _2 / full), -q, one run per invocation, JVM start
#: included, median of 7, 2-core AMD EPYC: recorded when the drop-in was checked against the jar.
RECORDED_JAR = {"f": (0.55, 0.55, 0.75), "t": (0.53, 0.56, 0.66), "r": (0.49, 0.32, 0.70),
                "i": (0.55, 0.57, 0.77), "b": (0.39, 0.41, 0.48)}


# ----------------------------------------------------------------- measuring

def timed(cmd: list[str]) -> tuple[float, float]:
    """(wall seconds, largest RSS in MB) of CMD run as a child; its output is discarded."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})
    err = proc.stderr.read()
    _, status, ru = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t0
    proc.stderr.close()
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        sys.stderr.write(err.decode("utf-8", "replace"))
        raise SystemExit(f"bench_fol: {' '.join(cmd)} exited with status {code}")
    return wall, ru.ru_maxrss / 1024.0


def median_of(repeat: int, cmd: list[str]) -> tuple[float, float]:
    runs = [timed(cmd) for _ in range(repeat)]
    return statistics.median(w for w, _ in runs), max(m for _, m in runs)


def alternated(repeat: int, commands: dict[str, list[str]]) -> dict[str, tuple[float, float]]:
    """Each command's (median wall seconds, largest RSS MB) over REPEAT rounds, each round running
    every command once, in turn."""
    runs: dict[str, list[tuple[float, float]]] = {k: [] for k in commands}
    for _ in range(repeat):
        for k, cmd in commands.items():
            runs[k].append(timed(cmd))
    return {k: (statistics.median(w for w, _ in v), max(m for _, m in v)) for k, v in runs.items()}


def drop_in(task: str, qrels: Path, runs: list[Path]) -> list[str]:
    return [sys.executable, "-m", "inexeval", "inex-eval", f"-{task}", "-q", str(qrels), *map(str, runs)]


def config_cmd(task: str, qrels: Path, runs: list[Path], out: Path, jobs: int | None) -> list[str]:
    """``inexeval -config`` of TASK on RUNS, ``--jobs JOBS`` unless None (inexeval's automatic choice)."""
    out.mkdir(parents=True, exist_ok=True)
    prop = out / f"{TASKS[task]}.prop"
    prop.write_text(f"TASK: {TASKS[task]}\nASSESSMENTS_DIR: {qrels}\nSUBMISSIONRUNS_DIR: "
                    + ", ".join(map(str, runs)) + f"\nRESULTS_DIR: {out / 'results'}\n")
    return [sys.executable, "-m", "inexeval", "-config", str(prop), "-q", "--quiet",
            *(("--jobs", str(jobs)) if jobs is not None else ())]


# ----------------------------------------------------------------- part 1: the public data

def _plain(src: Path, dst: Path) -> Path:
    if not dst.exists():
        dst.parent.mkdir(parents=True, exist_ok=True)
        tmp = dst.with_suffix(".tmp")
        with gzip.open(src, "rb") as fin, tmp.open("wb") as fout:
            shutil.copyfileobj(fin, fout)
        tmp.rename(dst)
    return dst


def real_part(data: Path, tasks: str, repeat: int, jobs: int, jar: Path | None) -> None:
    real = WORK / "real"
    qrels = _plain(data / "qrels.txt.gz", real / "qrels.txt")
    java = shutil.which("java")
    have_jar = java is not None and jar is not None and jar.is_file()
    why = ""
    print(f"== public INEX 2009/2010 data ({data}), -q, median of {repeat}; seconds, largest RSS MB ==")
    if not have_jar:
        why = "no java on PATH" if java is None else ("no jar given (--jar PATH or INEX_EVAL_JAR)" if jar is None
                                                      else f"jar {jar} not found")
        print(f"official jar: missing ({why}); its RECORDED times (not measured here) are shown as reference")
    header = f"{'task':<4} {'run':<40} {'inex-eval':>10} {'RSS':>6} {'jar':>16}"
    print(header)
    for task in tasks:
        runs = [_plain(data / "runs" / f"{r}{VARIANT[task]}.run.gz", real / f"{r}{VARIANT[task]}.run")
                for r in RUNS]
        for k, run in enumerate(runs):
            wall, rss = median_of(repeat, drop_in(task, qrels, [run]))
            if have_jar:
                jwall, _ = median_of(repeat, [java, "-jar", str(jar), f"-{task}", "-q", str(qrels), str(run)])
                ref = f"{jwall:10.2f} meas."
            else:
                ref = f"{RECORDED_JAR[task][k]:10.2f} rec."
            print(f"-{task:<3} {run.name:<40} {wall:10.2f} {rss:6.0f} {ref:>16}")
            target = f"2 FOL: -{task} {run.name} <= 0.5 x inex_eval 3.1"
            if have_jar:
                verdict(target, f"{wall:.2f} s", f"jar {jwall:.2f} s (measured)", wall / jwall, wall / jwall <= 0.5)
            else:
                verdict(target, f"{wall:.2f} s", f"jar not measured ({why}); recorded {RECORDED_JAR[task][k]:.2f} s",
                        wall / RECORDED_JAR[task][k], None)
        # the three-run invocations alternate, round by round, so that the machine's drifting speed
        # moves them alike (the ratios: medians of the same rounds)
        commands = {"config": config_cmd(task, qrels, runs, real / f"cfg-{task}", None),
                    "config-jobs": config_cmd(task, qrels, runs, real / f"cfg-{task}", jobs),
                    "drop-in": drop_in(task, qrels, runs)}
        if have_jar:
            commands["jar"] = [java, "-jar", str(jar), f"-{task}", "-q", str(qrels), *map(str, runs)]
        got = alternated(repeat, commands)
        (wall, rss), (jwall_c, rss_j), (dwall, drss) = got["config"], got["config-jobs"], got["drop-in"]
        print(f"-{task:<3} {'-config, the 3 runs (no --jobs: automatic)':<40} {wall:10.2f} {rss:6.0f}")
        print(f"-{task:<3} {'-config, the 3 runs, --jobs ' + str(jobs):<40} {jwall_c:10.2f} {rss_j:6.0f}")
        print(f"-{task:<3} {'inex-eval, the 3 runs in one invocation':<40} {dwall:10.2f} {drss:6.0f}")
        if have_jar:
            jwall = got["jar"][0]
            print(f"-{task:<3} {'jar, the 3 runs in one invocation':<40} {jwall:10.2f} {'':6} "
                  f"config {wall / jwall:.2f} x (--jobs {jobs}: {jwall_c / jwall:.2f} x), drop-in {dwall / jwall:.2f} x")
            verdict(f"35.4 FOL: -{task} -config, 3 runs in one invocation, <= 0.5 x inex_eval 3.1", f"{wall:.2f} s",
                    f"jar {jwall:.2f} s (measured, alternated)", wall / jwall, wall / jwall <= 0.5)
            verdict(f"35.4 FOL: -{task} drop-in, 3 runs in one invocation, <= 0.4 x inex_eval 3.1", f"{dwall:.2f} s",
                    f"jar {jwall:.2f} s (measured, alternated)", dwall / jwall, dwall / jwall <= 0.4)
        else:
            print(f"     (jar, recorded: {sum(RECORDED_JAR[task]):.2f} s for the three runs, one invocation each)")
        print(f"     profile: {profile(task, qrels, runs)}; the rest of -config ({wall:.2f} s): result files, "
              "summary, argument and config handling")


_PROFILE = """
import sys, time
t0 = time.perf_counter()
import numpy, inexeval.cli.command, inexeval.plan, inexeval.engine, inexeval.writers.table
from inexeval.measures import registry
registry.load_families(STRATEGY[sys.argv[1]])  # what -config loads: the task's family only
t1 = time.perf_counter()
from inexeval.readers.fol import read_fol_qrels, read_fol_run
from inexeval.measures.fol import score_fol_run
q = read_fol_qrels(sys.argv[2])
t2 = time.perf_counter()
runs = [read_fol_run(p) for p in sys.argv[3:]]
t3 = time.perf_counter()
for r in runs:
    score_fol_run(q, r, sys.argv[1], bounded=True)
t4 = time.perf_counter()
print(f"imports {t1 - t0:.3f} s, qrels {t2 - t1:.3f} s, runs read {t3 - t2:.3f} s, scored {t4 - t3:.3f} s")
"""


def profile(task: str, qrels: Path, runs: list[Path]) -> str:
    """Where the config path's time goes, timed inside one process (after Python's own start-up)."""
    code = f"STRATEGY = {STRATEGY!r}\n" + _PROFILE
    out = subprocess.run([sys.executable, "-c", code, task, str(qrels), *map(str, runs)], cwd=ROOT,
                         capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    return out.stdout.strip() or out.stderr.strip().splitlines()[-1]


# ----------------------------------------------------------------- part 2: synthetic x10

def qrels_lines(data: Path | None, rng: random.Random) -> list[list[str]]:
    """The public qrels' fields, or a synthetic stand-in of the same shape (120 topics x 86 articles)."""
    if data is not None and (data / "qrels.txt.gz").is_file():
        return [line.split() for line in gzip.open(data / "qrels.txt.gz", "rt")]
    lines = []
    for t in range(120):
        for a in range(86):
            length = rng.randint(2_000, 60_000)
            at, passages = rng.randint(0, 500), []
            while at < length - 100 and len(passages) < 4:
                n = rng.randint(50, 5_000)
                passages.append(f"{at}:{min(n, length - at)}")
                at += n + rng.randint(1, 3_000)
            rel = sum(int(p.split(":")[1]) for p in passages)
            lines.append([f"S{t:03d}", "Q0", f"{t * 1000 + a}", str(rel), str(length), "100", *passages])
    return lines


def synthetic(data: Path | None, scale: int, runs: int, passages: int, seed: int = 2010) -> Path:
    """Write the workload once (``done`` marks it complete) and return its directory."""
    source = "public" if data is not None and (data / "qrels.txt.gz").is_file() else "standin"
    d = WORK / f"synthetic-{source}-x{scale}-r{runs}-p{passages}-s{seed}-v2"
    if (d / "done").exists():
        return d
    d.mkdir(parents=True, exist_ok=True)
    rng = random.Random(seed)
    base = qrels_lines(data, rng)
    topics: dict[str, list[tuple[str, int]]] = {}  # topic -> (article, doc length)
    with (d / "qrels.txt").open("w") as f:
        for k in range(scale):
            for fields in base:
                t = f"{fields[0]}-{k}"
                f.write(" ".join([t, *fields[1:]]) + "\n")
                topics.setdefault(t, []).append((fields[2], int(fields[4])))
    (d / "runs").mkdir(exist_ok=True)
    (d / "runs-bic").mkdir(exist_ok=True)
    per_article = 5
    # a passage's LENGTH at most this: a run's characters stay within 2^31 - 1, which the config path
    # needs (it refuses a run whose int sums would wrap around, docs/formats.md §1.7)
    longest = max(1, min(40_000, (2**31 - 1) // max(1, len(topics) * passages)))
    for j in range(runs):
        with (d / "runs" / f"run{j:02d}.txt").open("w") as full, (d / "runs-bic" / f"run{j:02d}.txt").open("w") as bic:
            for t, judged in topics.items():
                n_articles = passages // per_article
                picks = rng.sample(judged, min(len(judged), n_articles // 3))
                picks += [(f"u{j}x{i}", 40_000) for i in range(n_articles - len(picks))]
                rng.shuffle(picks)
                rank, lines, firsts = 0, [], []
                for article, length in picks:
                    starts = sorted(rng.sample(range(0, max(length, per_article * 2), 2), per_article))
                    for i, s in enumerate(starts):
                        end = starts[i + 1] if i + 1 < per_article else max(length, s + 1)
                        rank += 1
                        size = rng.randint(1, max(1, min(end - s, longest)))
                        line = f"{t} Q0 {article} {rank} {-rank} SYN{j} {s} {size}\n"
                        lines.append(line)
                        if i == 0:
                            firsts.append(line)
                full.write("".join(lines))
                bic.write("".join(firsts))
    (d / "done").write_text("ok\n")
    return d


def synthetic_part(data: Path | None, tasks: str, scale: int, runs: int, passages: int, jobs: int) -> None:
    t0 = time.perf_counter()
    d = synthetic(data, scale, runs, passages)
    made = time.perf_counter() - t0
    qrels = d / "qrels.txt"
    full = sorted((d / "runs").glob("*.txt"))
    bic = sorted((d / "runs-bic").glob("*.txt"))
    n_topics = len({line.split(" ", 1)[0] for line in qrels.open()})
    size = sum(p.stat().st_size for p in full) / 1e9
    print(f"\n== synthetic x{scale}: {n_topics} topics, {sum(1 for _ in qrels.open())} judgements, "
          f"{len(full)} runs x {passages} passages per topic ({size:.1f} GB; ready in {made:.0f} s) ==")
    print(f"{'task':<4} {'command (all runs in one invocation)':<44} {'seconds':>8} {'per run':>8} {'RSS MB':>7}")
    for task in tasks:
        runs_of = bic if task == "b" else full
        for label, cmd in (("inexeval inex-eval", drop_in(task, qrels, runs_of)),
                           (f"inexeval -config, --jobs {jobs}", config_cmd(task, qrels, runs_of, d / f"cfg-{task}", jobs))):
            wall, rss = timed(cmd)
            print(f"-{task:<3} {label:<44} {wall:8.1f} {wall / len(runs_of):8.2f} {rss:7.0f}")
            verdict(f"2 FOL x{scale}: -{task} {label}, {len(runs_of)} runs in one invocation, <= 0.3 x inex_eval 3.1",
                    f"{wall:.1f} s, {rss:.0f} MB", "jar not run on this workload (no timing to compare)", None, None)


def main(argv: list[str] | None = None) -> int:
    compile_checkout()  # timed as installed: with bytecode
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", type=Path, default=DEFAULT_DATA, help="the public INEX 2009/2010 data directory")
    ap.add_argument("--jar", type=Path, default=Path(os.environ["INEX_EVAL_JAR"]) if os.environ.get("INEX_EVAL_JAR")
                    else None, help="the official inex_eval jar (default: $INEX_EVAL_JAR)")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--jobs", type=int, default=len(os.sched_getaffinity(0)))
    ap.add_argument("--tasks", default="tfrbi", help="task letters, e.g. fr")
    ap.add_argument("--scale", type=int, default=10)
    ap.add_argument("--runs", type=int, default=50)
    ap.add_argument("--passages", type=int, default=1500)
    ap.add_argument("--skip-real", action="store_true")
    ap.add_argument("--skip-synthetic", action="store_true")
    a = ap.parse_args(argv)
    tasks = "".join(t for t in a.tasks if t in TASKS)
    data = a.data if (a.data / "qrels.txt.gz").is_file() else None
    if not a.skip_real:
        if data is None:
            print(f"public data not found at {a.data}: part 1 skipped (--data DIR)")
            verdict("2 FOL: public INEX 2009/2010 runs <= 0.5 x inex_eval 3.1", "not run",
                    f"public data not found at {a.data}", None, None)
        else:
            real_part(data, tasks, a.repeat, a.jobs, a.jar)
    if not a.skip_synthetic:
        synthetic_part(data, tasks, a.scale, a.runs, a.passages, a.jobs)
    else:
        verdict(f"2 FOL x{a.scale}: {a.runs} runs in one invocation <= 0.3 x inex_eval 3.1",
                "not run (--skip-synthetic)", "jar not available", None, None)
    return 0


if __name__ == "__main__":
    sys.exit(main())
