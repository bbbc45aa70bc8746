"""Faults in real processes: Ctrl-C and SIGTERM sent to the process group (or to the parent alone)
mid-run, two evaluations of one task directory at once, a full disk (a file-size limit), a killed
worker, a killed parent.  Each one: no traceback, the right exit status, and RESULTS_DIR holding
the complete old set or the complete new one, with nothing left beside it."""

from __future__ import annotations

import os
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from test_resultsdir import TASK, assert_clean, make_setup, run_files, snapshot

pytestmark = pytest.mark.slow  # signals, killed and concurrent evaluations

ROOT = Path(__file__).resolve().parent.parent

#: inexeval's command line, each run's scoring slowed down (so that a signal finds it mid-run) and
#: announced by a file in MARKS (one per run started; forked workers inherit the patch)
SLOW_CLI = """
import os, sys, time
from pathlib import Path
import inexeval.engine as engine
real = engine.score_file
def slow(*a, **k):
    Path(os.environ["MARKS"], f"{os.getpid()}-{time.monotonic_ns()}").touch()
    time.sleep(float(os.environ["SLOW"]))
    return real(*a, **k)
engine.score_file = slow
from inexeval.cli.command import main
sys.argv[0] = "inexeval"
main()
"""


def start(tmp: Path, *args, slow: float = 0.6, limit: int | None = None) -> subprocess.Popen:
    marks = tmp / "marks"
    marks.mkdir(exist_ok=True)
    for p in marks.iterdir():
        p.unlink()
    env = {**os.environ, "PYTHONPATH": str(ROOT), "MARKS": str(marks), "SLOW": str(slow)}

    def limits():
        if limit is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return subprocess.Popen([sys.executable, "-c", SLOW_CLI, *map(str, args)], env=env, cwd=tmp,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True, preexec_fn=limits)


def wait_for_runs(tmp: Path, n: int, proc: subprocess.Popen, timeout: float = 60) -> None:
    end = time.monotonic() + timeout
    while len(list((tmp / "marks").iterdir())) < n:
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < end, "the evaluation did not start scoring"
        time.sleep(0.02)


def finish(proc: subprocess.Popen, timeout: float = 60) -> tuple[int, str, str]:
    out, err = proc.communicate(timeout=timeout)  # a hang fails here
    return proc.returncode, out, err


@pytest.fixture
def evaluated(tmp_path):
    """A config over a copy of the sample runs, evaluated once: the old set."""
    cfg = make_setup(tmp_path)
    rc, _, err = finish(start(tmp_path, "-config", cfg, "--jobs", "2", slow=0))
    assert rc == 0, err
    return tmp_path, cfg, snapshot(tmp_path / "results")


@pytest.mark.parametrize("jobs", [1, 2])
@pytest.mark.parametrize("sig, status, word", [(signal.SIGINT, 130, "interrupted"),
                                               (signal.SIGTERM, 143, "terminated (SIGTERM)"),
                                               (signal.SIGHUP, 129, "terminated (SIGHUP)")])
@pytest.mark.parametrize("to_group", [True, False])
def test_signal_mid_run_leaves_the_old_set(evaluated, jobs, sig, status, word, to_group):
    """The terminal's Ctrl-C (SIGINT to the process group), SIGTERM to the group, the terminal
    closed (SIGHUP to the group), or any of them to the parent alone, while a re-evaluation with other settings scores its runs: one line on standard
    error, exit 128 + signal, the old set untouched, no staging directory, temporary file or lock
    left, no process left."""
    tmp, cfg, before = evaluated
    proc = start(tmp, "-config", cfg, "--jobs", jobs, "--set", "QUANT_FUNCTIONS=strict")
    wait_for_runs(tmp, 1, proc)
    (os.killpg if to_group else os.kill)(proc.pid, sig)
    rc, out, err = finish(proc)
    assert rc == status, err
    assert "Traceback" not in err and "Error" not in err, err
    assert err.strip().splitlines()[-1] == f"inexeval: {word}"
    assert out == ""
    assert snapshot(tmp / "results") == before
    assert_clean(tmp / "results")
    time.sleep(0.2)
    with pytest.raises(ProcessLookupError):
        os.killpg(proc.pid, 0)  # every worker is gone


def test_interrupted_evaluation_never_shows_a_mixture_to_compare(evaluated):
    """compare after an interruption reuses the old set, which is complete and fresh for the old
    config; for the interrupted settings it evaluates anew."""
    tmp, cfg, before = evaluated
    proc = start(tmp, "-config", cfg, "--jobs", "2", "--set", "QUANT_FUNCTIONS=strict")
    wait_for_runs(tmp, 2, proc)
    os.killpg(proc.pid, signal.SIGINT)
    assert finish(proc)[0] == 130
    rc, out, err = finish(start(tmp, "compare", "-config", cfg, slow=0))
    assert rc == 0 and "reusing up-to-date result files" in err, err
    rc, out, err = finish(start(tmp, "compare", "-config", cfg, "--set", "QUANT_FUNCTIONS=strict", slow=0))
    assert rc == 0 and "reusing" not in err, err
    assert {f.split("/")[0] for f in run_files(tmp / "results")} == {"strict_on"}


def test_two_concurrent_evaluations_with_different_settings(evaluated):
    """A second evaluation of the same task directory while the first runs: it fails at once
    (exit 2, one line naming the other process), and the first one's set is complete."""
    tmp, cfg, _ = evaluated
    first = start(tmp, "-config", cfg, "--jobs", "2", "--set", "QUANT_FUNCTIONS=strict",
                  slow=3)  # the second must start while the first still runs, on a loaded machine too
    wait_for_runs(tmp, 1, first)
    second_dir = tmp / "second"
    second_dir.mkdir()
    second = subprocess.run([sys.executable, "-m", "inexeval", "-config", str(cfg), "--jobs", "2",
                             "--set", "QUANT_FUNCTIONS=gen"], cwd=second_dir, capture_output=True, text=True,
                            env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=60)
    assert second.returncode == 2, second.stderr
    assert f"another inexeval process (pid {first.pid}) is writing these results" in second.stderr
    assert "Traceback" not in second.stderr and second.stdout == ""
    rc, _, err = finish(first)
    assert rc == 0, err
    assert {f.split("/")[0] for f in run_files(tmp / "results")} == {"strict_on"}
    summary = (tmp / "results" / TASK / "summary.tsv").read_text().splitlines()[1:]
    assert sorted(line.split("\t")[0] for line in summary) == sorted(p.stem for p in (tmp / "runs").iterdir())
    assert all(line.split("\t")[1] == "strict_on" for line in summary)
    assert_clean(tmp / "results")


@pytest.mark.parametrize("jobs", [1, 2])
def test_full_disk_is_an_error_not_a_hang(evaluated, jobs):
    """A file-size limit (the disk full for the result files): the write fails in whichever process
    makes it, the evaluation ends (no hang) with one error line and exit 2, the old set stays."""
    tmp, cfg, before = evaluated
    proc = start(tmp, "-config", cfg, "--jobs", jobs, "--set", "QUANT_FUNCTIONS=strict", slow=0, limit=1000)
    rc, out, err = finish(proc)
    assert rc == 2, err
    assert "Traceback" not in err
    errors = [line for line in err.splitlines() if line.startswith("inexeval: error")]
    assert len(errors) == 1 and "File too large" in errors[0], err
    assert "the results directory was left as it was" in errors[0]
    assert snapshot(tmp / "results") == before
    assert_clean(tmp / "results")


def test_a_worker_killed_is_an_error_not_a_hang(evaluated):
    """A worker killed (SIGKILL: the OOM killer) while it scores a run: one error naming the run,
    exit 2, the old set stays."""
    tmp, cfg, before = evaluated
    proc = start(tmp, "-config", cfg, "--jobs", "2", "--set", "QUANT_FUNCTIONS=strict", slow=2)
    wait_for_runs(tmp, 1, proc)
    pid = int(next((tmp / "marks").iterdir()).name.split("-")[0])
    assert pid != proc.pid
    os.kill(pid, signal.SIGKILL)
    rc, out, err = finish(proc)
    assert rc == 2, err
    assert "Traceback" not in err
    assert "the process scoring this run was killed by SIGKILL" in err
    assert snapshot(tmp / "results") == before
    assert_clean(tmp / "results")


def test_leftovers_of_a_killed_parent_are_ignored_then_removed(evaluated):
    """SIGKILL of the whole process group (nothing can be cleaned up): its staging directory is
    never read (compare reuses the old set), and the next evaluation removes it."""
    tmp, cfg, before = evaluated
    proc = start(tmp, "-config", cfg, "--jobs", "2", "--set", "QUANT_FUNCTIONS=strict", slow=0.5)
    wait_for_runs(tmp, 2, proc)
    os.killpg(proc.pid, signal.SIGKILL)
    finish(proc)
    assert [p for p in (tmp / "results").iterdir() if ".inexeval-staging-" in p.name]
    assert snapshot(tmp / "results" / TASK) == {k[len(TASK) + 1:]: v for k, v in before.items()}
    rc, _, err = finish(start(tmp, "compare", "-config", cfg, slow=0))
    assert rc == 0 and "reusing up-to-date result files" in err, err
    rc, _, err = finish(start(tmp, "-config", cfg, "--jobs", "2", slow=0))
    assert rc == 0, err
    assert_clean(tmp / "results")


@pytest.mark.parametrize("debug", [False, True])
def test_an_interrupt_ends_the_command_with_its_traceback_under_debug_only(capsys, debug):
    """Ctrl-C: status 130 and one line; --debug adds Python's traceback (traceback imported only then)."""
    from inexeval.interrupts import signals_end_the_command

    said: list[str] = []
    with pytest.raises(SystemExit) as ended:
        with signals_end_the_command(debug, say=said.append):
            raise KeyboardInterrupt
    assert ended.value.code == 130 and said == ["inexeval: interrupted"]
    assert ("Traceback" in capsys.readouterr().err) is debug
