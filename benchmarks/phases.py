"""Where one invocation's time goes, phase by phase: the profile each benchmark prints with its ratios
(issue 35: "ratios measured in one run by benchmarks/, reported with their profile").

:func:`profile` runs ``inexeval ARGV`` once more, in a child process that wraps the named functions
(``module:attribute`` or ``module:Class.method``) with wall-clock timers before the command starts,
and returns the seconds of each phase, measured inside the process:

- ``imports``: from the child's first line until the command starts, the phases' modules loaded as
  the command would load them (Python's own start-up is not in it: it is the whole process's wall
  time minus the time inside it, ``start and exit``);
- one entry per phase: the time inside its functions' outermost calls (a phase's function called
  from within another phase's counts for the outer one only);
- ``other``: the rest of the time inside the process (argument and config handling, what no phase
  names).

The command's own process only: a phase run in a forked worker is not seen, so the benchmarks profile
with ``--jobs 1`` (and without reading runs ahead), which shows where the CPU time goes.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

_CHILD = r"""
import functools, gc, importlib, json, os, sys, time
t0 = time.perf_counter()
gc.disable()  # while the modules load: the command itself raises the collector's threshold (inexeval/launch.py)
spec, out_path, argv = json.loads(sys.argv[1]), sys.argv[2], sys.argv[3:]
from inexeval.numpy_sorts import prefer_avx2_sorts  # what the command does before numpy loads
prefer_avx2_sorts()
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
spent, active = {}, [0]
def timed(fn, label):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        if active[0]:
            return fn(*args, **kwargs)
        active[0] = 1
        start = time.perf_counter()
        try:
            return fn(*args, **kwargs)
        finally:
            spent[label] = spent.get(label, 0.0) + time.perf_counter() - start
            active[0] = 0
    return wrapper
import inexeval.launch
for label, targets in spec["phases"]:
    for target in targets:
        module, _, attr = target.partition(":")
        owner = importlib.import_module(module)
        *path, name = attr.split(".")
        for part in path:
            owner = getattr(owner, part)
        setattr(owner, name, timed(getattr(owner, name), label))
for target, value in spec.get("set", {}).items():
    module, _, name = target.partition(":")
    setattr(importlib.import_module(module), name, value)
gc.enable()
t1 = time.perf_counter()
parent = os.getpid()
def report():
    total = time.perf_counter() - t0
    if os.getpid() != parent:  # a forked process that ends through atexit: not the command's timings
        return
    with open(out_path, "w") as f:
        json.dump({"imports": t1 - t0, "total": total, "phases": spent}, f)
import atexit
atexit.register(report)
sys.argv = ["inexeval", *argv]
inexeval.launch.main()
"""


def profile(argv: list[str], phases: list[tuple[str, list[str]]], *, cwd: Path = ROOT,
            settings: dict[str, object] | None = None, repeat: int = 1) -> dict[str, float]:
    """Seconds by phase of ``inexeval ARGV`` (see the module), each the median of REPEAT invocations;
    SETTINGS sets module attributes (``module:NAME`` -> value) before the command starts."""
    runs = [_profile_once(argv, phases, cwd, settings) for _ in range(max(1, repeat))]
    return {k: statistics.median(r[k] for r in runs) for k in runs[0]}


def _profile_once(argv: list[str], phases: list[tuple[str, list[str]]], cwd: Path,
                  settings: dict[str, object] | None) -> dict[str, float]:
    out = Path(os.environ.get("TMPDIR", "/tmp")) / f"inexeval-phases-{os.getpid()}.json"
    spec = json.dumps({"phases": phases, "set": settings or {}})
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-c", _CHILD, spec, str(out), *argv], cwd=cwd,
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    wall = time.perf_counter() - start
    try:
        got = json.loads(out.read_text()) if proc.returncode == 0 else None
    except (OSError, ValueError):
        got = None
    finally:
        out.unlink(missing_ok=True)
    if got is None:
        raise SystemExit(f"phases: inexeval {' '.join(argv)} failed (status {proc.returncode}): "
                         + (proc.stderr.strip().splitlines() or ["no message"])[-1])
    result = {"start and exit": wall - got["total"], "imports": got["imports"]}
    for label, _ in phases:
        result[label] = got["phases"].get(label, 0.0)
    result["other"] = got["total"] - got["imports"] - sum(got["phases"].values())
    result["wall"] = wall
    return result


def line(result: dict[str, float]) -> str:
    """The profile as one line: ``wall W s: start and exit ... s, imports ... s, <phase> ... s, ...`` (each
    figure a median: they need not add up to the wall time exactly; a phase under half a millisecond,
    one the command did not enter or left at once, is left out)."""
    fixed = ("start and exit", "imports", "other")
    parts = [f"{k} {v:.3f} s" for k, v in result.items() if k != "wall" and (v >= 0.0005 or k in fixed)]
    return f"wall {result['wall']:.3f} s: " + ", ".join(parts)


def evaluation_phases(inputs: str, first: str) -> list[tuple[str, list[str]]]:
    """The phases of ``inexeval -config`` (the engine's), in the order they run: FIRST (the
    assessments or qrels read and prepared), the runs read by the ``inexeval.inputs`` class INPUTS,
    scored, their result files, the summary."""
    return [
        (first, ["inexeval.engine:_load_and_prepare"]),
        ("runs read", [f"inexeval.inputs:{inputs}.read_run"]),
        ("scored", ["inexeval.engine:Scorer.score"]),
        ("result files", ["inexeval.engine:run_file_parts", "inexeval.engine:write_pending"]),
        ("summary", ["inexeval.writers.files:write_summary"]),
    ]


#: What the benchmarks set for an evaluation's profile: no runs read ahead in a second process,
#: whose time the profile would not see.
NO_READ_AHEAD = {"inexeval.engine:READ_AHEAD": False}


def per_run(result: dict[str, float], runs: int) -> str:
    """A run's share of an evaluation's profile (:func:`evaluation_phases`): read, scored, result files."""
    return ", ".join(f"{name} {result[label] / runs:.3f} s" for name, label in
                     (("read", "runs read"), ("scored", "scored"), ("result files", "result files")))
