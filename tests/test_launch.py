"""The process settings the ``inexeval`` command makes before it runs a command (inexeval/launch.py)."""

from __future__ import annotations

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
