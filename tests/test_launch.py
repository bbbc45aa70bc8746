"""The process settings the ``inexeval`` command makes before it runs a command (inexeval/launch.py)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from inexeval.launch import GC_YOUNG_THRESHOLD

# what the collector's settings are as the command ends (atexit runs the last registered first, so this
# runs after everything the command registered)
_PROBE = ("import atexit, gc, sys\n"
          "atexit.register(lambda: sys.stderr.write(f'\\nGC {gc.isenabled()} {gc.get_threshold()}\\n'))\n"
          "sys.argv = ['inexeval', *sys.argv[1:]]\n"
          "from inexeval.launch import main\n"
          "main()\n")


def _collector_at_exit(args: list[str]) -> tuple[bool, tuple[int, ...]]:
    proc = subprocess.run([sys.executable, "-c", _PROBE, *args], capture_output=True, text=True)
    last = proc.stderr.strip().splitlines()[-1].split(" ", 2)
    assert last[0] == "GC", proc.stderr
    return last[1] == "True", tuple(int(x) for x in last[2].strip("()").split(","))


@pytest.mark.parametrize("args", [["--version"], ["metrics"], ["-config", "no-such-file.prop", "-q"]])
def test_every_command_but_the_drop_ins_collects_cycles_rarely(args):
    """The collector stays on, with its first threshold raised from Python's 700 (the other two as
    Python has them): loading modules and reading inputs no longer pay a collection every 700
    objects."""
    before = subprocess.run([sys.executable, "-c", "import gc; print(*gc.get_threshold())"],
                            capture_output=True, text=True, check=True).stdout.split()
    on, threshold = _collector_at_exit(args)
    assert on and threshold == (GC_YOUNG_THRESHOLD, int(before[1]), int(before[2]))


def test_a_drop_in_runs_without_the_collector(tmp_path):
    """The drop-ins are one short process per run and turn the collector off instead."""
    q = tmp_path / "q.txt"
    r = tmp_path / "r.txt"
    q.write_text("1 0 d1 1\n")
    r.write_text("1 Q0 d1 1 2.5 x\n")
    on, _ = _collector_at_exit(["trec-eval", str(q), str(r)])
    assert not on


# ``launch.end`` against ``sys.exit``: a program that writes, registers an exit handler, maybe starts a
# thread, then exits with status 3 through one or the other
_ENDING = ("import atexit, sys, threading, time\n"
           "from inexeval.launch import end\n"
           "atexit.register(lambda: sys.stderr.write('handler ran'))\n"
           "sys.stdout.write('out ' * 300 + 'done')  # (less than a buffer: written as the process ends)\n"
           "if sys.argv[2] == 'thread':\n"
           "    threading.Thread(target=lambda: (time.sleep(0.3), sys.stdout.write(' thread done'))).start()\n"
           "(end if sys.argv[1] == 'end' else sys.exit)(3)\n")


def _ending(how: str, case: str, stdout) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}  # (standard output buffered)
    return subprocess.run([sys.executable, "-c", _ENDING, how, case], stdout=stdout, stderr=subprocess.PIPE,
                          text=True, env=env)


@pytest.mark.parametrize("case", ["plain", "thread"])
def test_end_exits_as_sys_exit_does(case):
    """Status, everything written (the exit handler's too), a running thread waited for."""
    got, expected = (_ending(how, case, subprocess.PIPE) for how in ("end", "exit"))
    assert (got.returncode, got.stdout, got.stderr) == (expected.returncode, expected.stdout, expected.stderr)
    assert got.returncode == 3 and got.stderr == "handler ran"
    assert got.stdout.endswith(" thread done" if case == "thread" else "done")


def test_end_on_a_failing_flush_exits_as_python_does():
    """Standard output on a full device: Python's own exit says so and gives status 120."""
    with open("/dev/full", "w") as full:
        got, expected = (_ending(how, "plain", full) for how in ("end", "exit"))
    assert (got.returncode, got.stderr) == (expected.returncode, expected.stderr)
    assert got.returncode == 120 and "No space left on device" in got.stderr
