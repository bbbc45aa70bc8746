"""Start-up and small jobs (issue 16, target 6): ``inexeval --version`` under 0.1 s, the shipped TREC
sample (configs/trec.prop) under 0.5 s, and no heavy module imported where it is not needed.

    .venv/bin/python benchmarks/bench_startup.py [--repeat 7]

Each command runs as a separate process (``python -m inexeval``, as the
``inexeval`` script runs it), the fastest of R kept (other processes on a
shared machine only ever slow a run down).  Then ``python -X importtime``
of each lists which of the heavy modules (matplotlib, scipy, lxml, yaml,
tabulate, pandas, numpy) it loads, and what its imports cost in all.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
from bytecode import compile_checkout  # noqa: E402
from verdict import verdict  # noqa: E402

HEAVY = ("matplotlib", "scipy", "pandas", "lxml", "yaml", "tabulate", "numpy")
VERSION_S = 0.1
SAMPLE_S = 0.5


def timed(cmd: list[str], repeat: int) -> tuple[float, float]:
    """(wall, CPU = user + sys) of the run with the best wall time."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    best = (float("inf"), 0.0)
    for _ in range(repeat):
        t0 = time.perf_counter()
        proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _, status, ru = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - t0
        proc.returncode = os.waitstatus_to_exitcode(status)
        if proc.returncode != 0:
            raise SystemExit(f"{' '.join(cmd)} exited with status {proc.returncode}")
        best = min(best, (wall, ru.ru_utime + ru.ru_stime))
    return best


def imports(cmd: list[str]) -> tuple[list[str], float]:
    """The heavy top-level packages CMD imports, and the cumulative import time of all (s)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    err = subprocess.run([cmd[0], "-X", "importtime", *cmd[1:]], cwd=ROOT, env=env, capture_output=True,
                         text=True).stderr
    loaded, total = set(), 0
    for line in err.splitlines():
        if not line.startswith("import time:") or "|" not in line:
            continue
        _, cumulative, name = line.split("|")
        if not cumulative.strip().isdigit():  # the header line
            continue
        raw = name.rstrip()
        if raw.startswith(" ") and not raw.startswith("  "):  # a top-level import: count its cumulative time
            total += int(cumulative)
        top = raw.strip().split(".")[0]
        if top in HEAVY:
            loaded.add(top)
    return sorted(loaded), total / 1e6


def main(argv: list[str] | None = None) -> int:
    compile_checkout()  # timed as installed: with bytecode
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeat", type=int, default=7)
    a = ap.parse_args(argv)
    out = Path(tempfile.mkdtemp(prefix="inexeval-startup-"))
    try:
        py = [sys.executable, "-m", "inexeval"]
        cmds = {
            "inexeval --version": ([*py, "--version"], VERSION_S),
            "TREC sample (configs/trec.prop)": ([*py, "-config", "configs/trec.prop", "--quiet", "--results-dir",
                                                 str(out)], SAMPLE_S),
        }
        print(f"{'command':34s} {'wall s':>7s} {'CPU s':>7s} {'target s':>9s}  imports (s)  heavy modules loaded")
        for name, (cmd, target) in cmds.items():
            wall, cpu = timed(cmd, a.repeat)
            loaded, imp = imports(cmd)
            print(f"{name:34s} {wall:7.3f} {cpu:7.3f} {target:9.2f}  {imp:10.3f}  {', '.join(loaded) or '-'}")
            verdict(f"6 start-up: {name} < {target:g} s", f"{wall:.3f} s (CPU {cpu:.3f} s; imports {imp:.3f} s; "
                    f"loads {', '.join(loaded) or 'none of ' + '/'.join(HEAVY)})", f"{target:g} s", wall / target,
                    wall < target)
    finally:
        shutil.rmtree(out, ignore_errors=True)
    print(f"(best of {a.repeat}; load average {os.getloadavg()[0]:.2f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
