"""Benchmark ``--incremental`` (issue 16, target 4): one run changed, against a full evaluation.

    .venv/bin/python benchmarks/bench_incremental.py [--scale inex2005|small] [--jobs N] [--repeat R] [--seed N]

1. Takes the INEX 2005-sized workload of ``bench_inex.py`` (generated there
   once, under ``benchmarks/work/inex/``) and builds beside it, under
   ``benchmarks/work/incremental/<workload>/``, a runs directory of symbolic
   links to its runs and one config per task (CO.Thorough and CO.Focussed,
   strict/gen/genLifted), so that one run can be changed without touching
   the shared workload.
2. For each task, in one run, each command a separate process:

   - **full**: ``inexeval -config P --quiet --jobs N`` into an empty
     ``RESULTS_DIR`` (what a user re-runs today);
   - **first incremental**: ``--incremental`` into another empty directory
     (a full evaluation that also writes the cache: its overhead);
   - **unchanged**: ``--incremental`` again, nothing changed;
   - **one run changed**: the first run's link replaced by a copy with its
     first result removed, then ``--incremental``;
   - **check**: a full evaluation of the changed inputs into an empty
     directory; its files (all but the cache) and standard output must be
     the incremental one's, byte for byte.

3. Prints the times, the ratio (one run changed) / (full), and the verdict
   against the target: ratio <= 0.10.  ``--repeat R`` keeps the fastest of R
   runs of each timed command (a shared machine only ever slows one down).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT))

import bench_inex  # noqa: E402  (the workload and its generator)
from bytecode import compile_checkout  # noqa: E402

TARGET = 0.10
QUANTS = "strict,gen,genLifted"
CACHE = ".inexeval-runs.json"
RECALL = ".inexeval-recallbase.pickle"


@dataclass
class Timed:
    wall: float  # s
    cpu: float  # user + sys s of the process and its workers
    out: bytes
    err: bytes


def run(cmd: list[str], cwd: Path) -> Timed:
    """Wall and CPU time, standard output and standard error of CMD (which must succeed)."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        t0 = time.perf_counter()
        proc = subprocess.Popen(cmd, cwd=cwd, stdout=out, stderr=err, env={**os.environ, "PYTHONPATH": str(ROOT)})
        _, status, ru = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - t0
        out.seek(0)
        err.seek(0)
        got = Timed(wall, ru.ru_utime + ru.ru_stime, out.read(), err.read())
    if os.waitstatus_to_exitcode(status) != 0:
        sys.stderr.write(got.err.decode("utf-8", "replace"))
        raise SystemExit(f"bench_incremental: {' '.join(cmd)} exited with status {os.waitstatus_to_exitcode(status)}")
    return got


def files(d: Path) -> dict[str, bytes]:
    return {p.relative_to(d).as_posix(): p.read_bytes() for p in sorted(d.rglob("*"))
            if p.is_file() and p.name not in (CACHE, RECALL)}


def setup(workload: Path, here: Path) -> tuple[Path, list[Path]]:
    """The runs directory of links (restored to the workload's runs) and the configs."""
    runs = here / "runs"
    if runs.exists():
        shutil.rmtree(runs)
    runs.mkdir(parents=True)
    originals = sorted((workload / "runs").glob("*.xml"))
    for r in originals:
        (runs / r.name).symlink_to(r)
    props = []
    for name, task, overlap in (("thorough", "CO.Thorough", "off"), ("focussed", "CO.Focussed", "on")):
        p = here / f"{name}.prop"
        p.write_text(f"TASK: {task}\nMETRICS: nxCG, ep/gr, q\nALPHA: 1.0\nOVERLAP: {overlap}\n"
                     f"QUANT_FUNCTIONS: {QUANTS}\nDCV: 10, 25, 50\nASSESSMENTS_DIR: {workload / 'assessments'}/\n"
                     f"QUERY_TYPE: CO+S\nSUBMISSIONRUNS_DIR: runs/\nRESULTS_DIR: results\n")
        props.append(p)
    return runs, originals


def change_one(runs: Path, original: Path) -> None:
    """Replace the link to ORIGINAL by a copy without its first result."""
    link = runs / original.name
    text = original.read_bytes()
    start = text.index(b"<result>")
    end = text.index(b"</result>", start) + len(b"</result>")
    link.unlink()
    link.write_bytes(text[:start] + text[end:])


def best(repeat: int, cmd: list[str], cwd: Path, before=None) -> Timed:
    out = None
    for _ in range(repeat):
        if before is not None:
            before()
        got = run(cmd, cwd)
        out = got if out is None or got.wall < out.wall else out
    return out


def main(argv: list[str] | None = None) -> int:
    compile_checkout()  # timed as installed: with bytecode
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--scale", default="inex2005", choices=["inex2005", "small"])
    ap.add_argument("--jobs", type=int, default=bench_inex.cores())
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    workload, info = bench_inex.workload(args.scale, None, args.seed)
    here = HERE / "work" / "incremental" / workload.name
    c = info["counts"]
    print(f"workload {workload.name}: {c.get('topics', '?')} topics, {c.get('elements', 0):,} assessed elements, "
          f"{c.get('runs', '?')} runs; --jobs {args.jobs}, best of {args.repeat}")
    print(f"{'task':<10} {'full s':>13} {'1st inc s':>13} {'unchanged s':>13} {'1 changed s':>13} "
          f"{'ratio':>6} {'CPU ratio':>9} {'identical':>9}  target (ratio <= {TARGET:.2f})")
    print(f"{'':<10} {'(wall, CPU)':>13} {'(wall, CPU)':>13} {'(wall, CPU)':>13} {'(wall, CPU)':>13}")
    ok_all = True
    for name in ("thorough", "focussed"):
        runs, originals = setup(workload, here)
        prop = here / f"{name}.prop"
        base = [sys.executable, "-m", "inexeval", "-config", str(prop), "--quiet", "--set", f"QUANT_FUNCTIONS={QUANTS}",
                "--jobs", str(args.jobs)]
        inc_cmd = [*base, "--results-dir", "inc", "--incremental"]

        def fresh(d: str):
            return lambda: shutil.rmtree(here / d, ignore_errors=True)

        def reset():  # each repeat starts from the cache of the unchanged inputs
            link = runs / originals[0].name
            link.unlink()
            link.symlink_to(originals[0])
            run(inc_cmd, here)
            change_one(runs, originals[0])

        full = best(args.repeat, [*base, "--results-dir", "full"], here, fresh("full"))
        first = best(args.repeat, inc_cmd, here, fresh("inc"))
        same = best(args.repeat, inc_cmd, here)
        changed = best(args.repeat, inc_cmd, here, reset)
        shutil.rmtree(here / "check", ignore_errors=True)
        check = run([*base, "--results-dir", "check"], here)
        identical = changed.out == check.out and files(here / "inc") == files(here / "check")
        reused = [line for line in changed.err.decode().splitlines() if "incremental:" in line]
        ratio = changed.wall / full.wall
        ok = ratio <= TARGET and identical
        ok_all &= ok

        def pair(t: Timed) -> str:
            return f"{t.wall:6.2f} {t.cpu:6.2f}"

        print(f"{name:<10} {pair(full):>13} {pair(first):>13} {pair(same):>13} {pair(changed):>13} {ratio:6.3f} "
              f"{changed.cpu / full.cpu:9.3f} {'yes' if identical else 'NO':>9}  {'met' if ok else 'MISSED'}")
        for line in reused:
            print(f"    {line}")
        shutil.rmtree(runs)
    print("verdict: target 4 (one run changed <= 10 % of a full evaluation, same bytes):",
          "met" if ok_all else "MISSED")
    return 0 if ok_all else 1


if __name__ == "__main__":
    sys.exit(main())
