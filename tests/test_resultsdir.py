"""RESULTS_DIR/<TASK> changes as a whole: stale files, interrupted and failed evaluations, the lock,
an unusable RESULTS_DIR, runs under RESULTS_DIR, compare's reuse (in-process; the signals and the
real subprocess faults are in test_faults.py)."""

from __future__ import annotations

import errno
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from inexeval import resultsdir
from inexeval.cli.command import main

ROOT = Path(__file__).resolve().parent.parent
RUNS = ROOT / "sample_data" / "inex2005" / "runs" / "CO"
TASK = "CO.Focussed"


def make_setup(tmp: Path, runs: str = "runs/", results: str = "results") -> Path:
    """A CO.Focussed config over a copy of the sample runs; returns the config file."""
    shutil.copytree(RUNS, tmp / "runs")
    cfg = tmp / "c.prop"
    cfg.write_text(f"TASK: {TASK}\nMETRICS: nxCG, ep/gr, q\nOVERLAP: on\nQUANT_FUNCTIONS: gen, strict\n"
                   f"DCV: 10, 25, 50\nASSESSMENTS_DIR: {ROOT}/sample_data/inex2005/assessments/CO+S/*/\n"
                   f"QUERY_TYPE: CO+S\nSUBMISSIONRUNS_DIR: {runs}\nRESULTS_DIR: {results}\n")
    return cfg


@pytest.fixture
def setup(tmp_path):
    return tmp_path, make_setup(tmp_path)


def invoke(*args):
    return CliRunner().invoke(main, [*map(str, args), "--jobs", "1"])


def snapshot(d: Path) -> dict[str, bytes]:
    """Every file under ``d`` (hidden ones too), by relative path."""
    return {str(p.relative_to(d)): p.read_bytes() for p in sorted(d.rglob("*")) if p.is_file()}


def assert_clean(results: Path) -> None:
    """Nothing in RESULTS_DIR but task directories: no staging, renamed-aside or lock file."""
    assert [p.name for p in results.iterdir() if p.name.startswith(".")] == []
    assert not [p for p in results.rglob("*.tmp")]


def run_files(results: Path) -> set[str]:
    return {str(p.relative_to(results / TASK)) for p in (results / TASK).glob("*/*.tsv")}


def test_result_files_of_an_earlier_evaluation_are_removed(setup):
    """A run that became unreadable, a setting no longer evaluated, graphs not drawn again and
    compare's tables of the old results: none of them stays beside the new set."""
    tmp, cfg = setup
    res = invoke("-config", cfg, "-gnu")
    assert res.exit_code == 0, res.output
    out = tmp / "results"
    old = run_files(out)
    assert {"gen_on/Poor.tsv", "strict_on/Poor.tsv", "gen_on/Medium.tsv"} <= old
    assert (out / TASK / "graphs").is_dir()
    res = CliRunner().invoke(main, ["compare", "-config", str(cfg)])
    assert res.exit_code == 0, res.output
    assert (out / TASK / "correlations.tsv").exists()
    (tmp / "runs" / "Poor.xml").write_text("<inex-submission")  # now unreadable
    res = invoke("-config", cfg, "--set", "QUANT_FUNCTIONS=gen")
    assert res.exit_code == 1
    assert "Poor.xml" in res.output
    assert run_files(out) == {f for f in old if f.startswith("gen_on/") and "Poor" not in f}
    assert sorted(p.name for p in (out / TASK).iterdir()) == [".inexeval-stamp.json", "gen_on", "summary.json",
                                                             "summary.tsv"]
    stamp = json.loads((out / TASK / ".inexeval-stamp.json").read_text())
    assert sorted(f for f, _ in stamp["files"]) == sorted(run_files(out))
    assert_clean(out)


def test_no_readable_run_leaves_an_empty_set_not_the_old_one(setup):
    tmp, cfg = setup
    assert invoke("-config", cfg).exit_code == 0
    for p in (tmp / "runs").iterdir():
        p.write_text("junk\n")
    res = invoke("-config", cfg)
    assert res.exit_code == 1
    assert list((tmp / "results" / TASK).iterdir()) == []


class _Stop(KeyboardInterrupt):
    pass


@pytest.mark.parametrize("jobs", [1, 2])
def test_interrupted_evaluation_leaves_the_old_set_whole(setup, monkeypatch, jobs):
    """Ctrl-C after two runs of a re-evaluation with other settings: the old set is untouched,
    nothing is left behind, the exit status is 130, and compare reuses the old set (it is
    complete and up to date for the old settings) and re-evaluates the new ones."""
    tmp, cfg = setup
    assert invoke("-config", cfg).exit_code == 0
    out = tmp / "results"
    before = snapshot(out)
    import inexeval.api as api

    real = api.evaluate_and_write
    seen = []

    def interrupt(path):
        seen.append(path)
        if len(seen) == 2:
            raise _Stop

    def patched(config, **kw):
        kw["on_run"] = interrupt
        return real(config, **kw)

    monkeypatch.setattr(api, "evaluate_and_write", patched)
    res = CliRunner().invoke(main, ["-config", str(cfg), "--set", "QUANT_FUNCTIONS=strict,genLifted",
                                    "--jobs", str(jobs)])
    assert res.exit_code == 130
    assert res.output.strip().splitlines()[-1] == "inexeval: interrupted"
    assert "Traceback" not in res.output
    assert snapshot(out) == before
    assert_clean(out)
    monkeypatch.setattr(api, "evaluate_and_write", real)
    res = CliRunner().invoke(main, ["compare", "-config", str(cfg)])
    assert res.exit_code == 0 and "reusing up-to-date result files" in res.output
    res = CliRunner().invoke(main, ["compare", "-config", str(cfg), "--set", "QUANT_FUNCTIONS=strict,genLifted"])
    assert res.exit_code == 0 and "reusing" not in res.output
    assert run_files(out) == {f"{s}/{r}.tsv" for s in ("strict_on", "genLifted_on")
                              for r in ("Medium", "NearIdeal", "Poor", "TextRun")}


def test_failed_evaluation_leaves_the_old_set_whole(setup):
    """An evaluation that stops (a selection that leaves no assessed topic: a config error) changes nothing."""
    tmp, cfg = setup
    assert invoke("-config", cfg).exit_code == 0
    before = snapshot(tmp / "results")
    res = invoke("-config", cfg, "--set", "TOPICS=999")
    assert res.exit_code == 2 and "TOPICS" in res.output
    assert snapshot(tmp / "results") == before
    assert_clean(tmp / "results")


def test_disk_full_is_one_error_and_leaves_the_old_set(setup, monkeypatch):
    """ENOSPC while putting a file in place (os.replace): exit 2, one error line naming the file
    in RESULTS_DIR (not the staging directory), no traceback, the old set untouched."""
    tmp, cfg = setup
    assert invoke("-config", cfg).exit_code == 0
    before = snapshot(tmp / "results")
    calls = []

    def full(src, dst):
        calls.append(dst)
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "replace", full)
    res = invoke("-config", cfg, "--set", "QUANT_FUNCTIONS=strict")
    assert calls
    assert res.exit_code == 2
    errors = [line for line in res.output.splitlines() if line.startswith("inexeval: error")]
    assert len(errors) == 1, res.output
    assert "No space left on device" in errors[0] and "the results directory was left as it was" in errors[0]
    assert f"{tmp / 'results' / TASK}/strict_on/" in errors[0]
    assert "Traceback" not in res.output
    monkeypatch.undo()
    assert snapshot(tmp / "results") == before
    assert_clean(tmp / "results")


def test_disk_full_during_the_swap_puts_the_old_set_back(setup, monkeypatch):
    tmp, cfg = setup
    assert invoke("-config", cfg).exit_code == 0
    before = snapshot(tmp / "results")
    real = os.rename

    def rename(src, dst):
        if Path(src).name == TASK and STAGING_IN(src):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real(src, dst)

    monkeypatch.setattr(os, "rename", rename)
    res = invoke("-config", cfg, "--set", "QUANT_FUNCTIONS=strict")
    assert res.exit_code == 2 and "No space left on device" in res.output
    monkeypatch.undo()
    assert snapshot(tmp / "results") == before
    assert_clean(tmp / "results")


@pytest.mark.parametrize("fail", [None, "aside", "in"])
def test_assessments_output_is_carried_over_by_an_evaluation(setup, monkeypatch, fail):
    """`inexeval assessments` writes RESULTS_DIR/<TASK>/assessments/; a later evaluation's new set keeps
    it (it was dropped with the old set), and a swap that fails puts it back with the old set."""
    tmp, cfg = setup
    assert invoke("-config", cfg).exit_code == 0
    res = CliRunner().invoke(main, ["assessments", "-config", str(cfg), "--quiet"])
    assert res.exit_code == 0, res.output
    stats = (tmp / "results" / TASK / "assessments" / "assessments.tsv").read_bytes()
    before = snapshot(tmp / "results")
    real = os.rename

    def rename(src, dst):
        aside = Path(src).name == TASK and resultsdir.OLD in str(dst)
        into = Path(src).name == TASK and STAGING_IN(src)
        if (fail == "aside" and aside) or (fail == "in" and into):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real(src, dst)

    monkeypatch.setattr(os, "rename", rename)
    res = invoke("-config", cfg, "--set", "QUANT_FUNCTIONS=strict")
    monkeypatch.undo()
    if fail is None:
        assert res.exit_code == 0, res.output
        assert run_files(tmp / "results") - {"assessments/assessments.tsv"} == \
            {f"strict_on/{p.stem}.tsv" for p in (tmp / "runs").iterdir()}
        assert (tmp / "results" / TASK / "assessments" / "assessments.tsv").read_bytes() == stats
    else:
        assert res.exit_code == 2 and "No space left on device" in res.output
        assert snapshot(tmp / "results") == before
    assert_clean(tmp / "results")


def STAGING_IN(path) -> bool:
    return resultsdir.STAGING in str(path)


@pytest.mark.parametrize("case", ["file", "under-a-file", "task-is-a-file"])
def test_unusable_results_dir_is_exit_2_before_any_work(tmp_path, case, monkeypatch):
    cfg = make_setup(tmp_path)
    (tmp_path / "f").write_text("x")
    results = {"file": tmp_path / "f", "under-a-file": tmp_path / "f" / "sub", "task-is-a-file": tmp_path / "r"}[case]
    if case == "task-is-a-file":
        results.mkdir()
        (results / TASK).write_text("x")
    import inexeval.engine as engine

    monkeypatch.setattr(engine, "score_file", lambda *a, **k: pytest.fail("a run was scored"))
    res = invoke("-config", cfg, "--set", f"RESULTS_DIR={results}")  # (--results-dir: click checks it)
    assert res.exit_code == 2, res.output
    assert res.output.count("inexeval: error") == 1 and "Traceback" not in res.output
    assert {"file": "RESULTS_DIR is a file", "under-a-file": "RESULTS_DIR cannot be created",
            "task-is-a-file": f"{TASK} in RESULTS_DIR is a file"}[case] in res.output
    assert (tmp_path / "f").read_text() == "x"


def test_results_dir_not_writable_is_exit_2_before_any_work(setup, monkeypatch):
    """No permission (simulated: the tests may run as root, for whom modes do not apply)."""
    tmp, cfg = setup
    real = os.open

    def denied(path, flags, *a, **k):
        if str(path).endswith(resultsdir.LOCK):
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(path))
        return real(path, flags, *a, **k)

    monkeypatch.setattr(os, "open", denied)
    import inexeval.engine as engine

    monkeypatch.setattr(engine, "score_file", lambda *a, **k: pytest.fail("a run was scored"))
    res = invoke("-config", cfg)
    assert res.exit_code == 2
    assert "RESULTS_DIR is not writable: Permission denied" in res.output and "Traceback" not in res.output


def test_a_file_where_a_setting_directory_was_is_replaced(setup):
    """Junk in an evaluation's task directory (a file named like a setting directory) does not stop
    the next evaluation: the new set replaces the directory."""
    tmp, cfg = setup
    assert invoke("-config", cfg).exit_code == 0
    task = tmp / "results" / TASK
    shutil.rmtree(task / "gen_on")
    (task / "gen_on").write_text("junk")
    res = invoke("-config", cfg)
    assert res.exit_code == 0, res.output
    assert (task / "gen_on" / "Medium.tsv").is_file()


@pytest.mark.parametrize("entries", [["notes.txt"], ["runs/r.xml", "gen_on"]])
def test_a_task_directory_no_evaluation_wrote_is_not_replaced(setup, entries):
    """RESULTS_DIR/<TASK> made by someone else (no stamp: e.g. runs kept there) would be deleted by
    the swap: the evaluation stops at once (exit 2) and the directory is left as it was.  A
    directory holding only another command's files (assessments/) is an evaluation's to fill."""
    tmp, cfg = setup
    task = tmp / "results" / TASK
    for e in entries:
        (task / e).parent.mkdir(parents=True, exist_ok=True)
        (task / e).write_text("mine")
    before = snapshot(task)
    res = invoke("-config", cfg)
    assert res.exit_code == 2
    top = sorted({e.split("/")[0] for e in entries})
    assert res.output.strip() == (f"inexeval: error: {task}: {TASK} in RESULTS_DIR holds files that no evaluation "
                                  f"wrote ({', '.join(top)}; no stamp or summary): an evaluation replaces it as a "
                                  "whole and would delete them; move them, or choose another RESULTS_DIR")
    assert snapshot(task) == before
    for e in entries:
        (task / e).unlink() if (task / e).is_file() else None
    shutil.rmtree(task)
    (task / "assessments").mkdir(parents=True)
    (task / "assessments" / "agreement.tsv").write_text("kept")
    assert invoke("-config", cfg).exit_code == 0
    assert (task / "assessments" / "agreement.tsv").read_text() == "kept"


@pytest.mark.parametrize("runs, results", [(f"results/{TASK}/runs/", "results"), ("results/*/runs/", "results")])
def test_runs_inside_the_task_directory_are_refused_not_deleted(tmp_path, runs, results):
    """SUBMISSIONRUNS_DIR inside RESULTS_DIR/<TASK>, which the evaluation replaces: a config error,
    and the runs stay (they were ignored as outputs and deleted with the old directory)."""
    cfg = make_setup(tmp_path, runs="runs/", results="elsewhere")
    (tmp_path / "results" / TASK).mkdir(parents=True)
    shutil.move(tmp_path / "runs", tmp_path / "results" / TASK / "runs")
    text = cfg.read_text().replace("SUBMISSIONRUNS_DIR: runs/", f"SUBMISSIONRUNS_DIR: {runs}")
    cfg.write_text(text.replace("RESULTS_DIR: elsewhere", f"RESULTS_DIR: {results}"))
    before = snapshot(tmp_path / "results")
    res = invoke("-config", cfg)
    assert res.exit_code == 2, res.output
    # named by the config (its line), or found by a glob above: the task directory no evaluation wrote
    assert (f"c.prop:8: SUBMISSIONRUNS_DIR: {tmp_path / 'results' / TASK / 'runs'} lies inside RESULTS_DIR/{TASK}"
            in res.output) == ("*" not in runs)
    assert ("holds files that no evaluation wrote (runs;" in res.output) == ("*" in runs)
    assert snapshot(tmp_path / "results") == before


def test_runs_beside_the_results_are_runs(tmp_path):
    """RESULTS_DIR above the runs (RESULTS_DIR: ., SUBMISSIONRUNS_DIR: runs/): only the task
    directories in RESULTS_DIR are inexeval's; the runs are scored (they were all ignored, exit 0)."""
    cfg = make_setup(tmp_path, runs="runs/", results=".")
    res = invoke("-config", cfg)
    assert res.exit_code == 0, res.output
    assert "under RESULTS_DIR" not in res.output
    assert (tmp_path / TASK / "summary.tsv").read_text().count("\n") > 1
    res = invoke("-config", cfg, "--set", f"SUBMISSIONRUNS_DIR={tmp_path}")  # the first one's outputs are not runs
    assert f"file(s) under RESULTS_DIR ({tmp_path}) ignored" in res.output


def test_compare_writing_where_a_file_is_in_the_way_is_one_error(setup):
    tmp, cfg = setup
    assert invoke("-config", cfg).exit_code == 0
    (tmp / "results" / TASK / "graphs").write_text("x")
    res = CliRunner().invoke(main, ["compare", "-config", str(cfg), "--runs", "Medium,Poor", "-gnu"])
    assert res.exit_code == 2
    assert res.output.count("inexeval: error") == 1 and "Traceback" not in res.output
    assert "cannot write" in res.output


def test_second_evaluation_of_a_locked_task_directory_fails_at_once(setup, monkeypatch):
    """While another process holds the lock, an evaluation (and compare) exit 2 with one line,
    before any work, and change nothing."""
    tmp, cfg = setup
    assert invoke("-config", cfg).exit_code == 0
    before = snapshot(tmp / "results")
    import fcntl

    lock = tmp / "results" / f".{TASK}{resultsdir.LOCK}"
    fd = os.open(lock, os.O_RDWR | os.O_CREAT)
    os.write(fd, b"4242\n")
    fcntl.flock(fd, fcntl.LOCK_EX)
    pid = os.fork()  # the lock must be another process's (flock is per open file, so fork to hold it)
    if pid == 0:
        os.read(os.open(os.devnull, os.O_RDONLY), 1)
        import time

        time.sleep(30)
        os._exit(0)
    os.close(fd)
    try:
        for args in (["-config", str(cfg), "--jobs", "1"], ["compare", "-config", str(cfg)]):
            res = CliRunner().invoke(main, args)
            assert res.exit_code == 2, res.output
            assert "another inexeval process (pid 4242) is writing these results" in res.output
            assert "Traceback" not in res.output
    finally:
        os.kill(pid, 9)
        os.waitpid(pid, 0)
    os.unlink(lock)
    assert snapshot(tmp / "results") == before
    assert invoke("-config", cfg).exit_code == 0, "the lock is free again once its holder is gone"


def test_leftovers_of_a_killed_evaluation_are_never_read_and_are_removed(setup):
    tmp, cfg = setup
    assert invoke("-config", cfg).exit_code == 0
    out = tmp / "results"
    junk = out / f".{TASK}{resultsdir.STAGING}99999-abc" / TASK
    shutil.copytree(out / TASK, junk)
    (junk / "gen_on" / "Medium.tsv").write_text("MAep\tall\t0.999\n")
    aside = out / f".{TASK}{resultsdir.OLD}99999-abc" / TASK
    aside.mkdir(parents=True)
    res = CliRunner().invoke(main, ["compare", "-config", str(cfg)])
    assert res.exit_code == 0 and "reusing" in res.output
    assert "0.999" not in res.output
    assert invoke("-config", cfg, "--set", "QUANT_FUNCTIONS=gen").exit_code == 0
    assert_clean(out)


def test_runs_under_results_dir_are_not_read_as_runs(tmp_path):
    """SUBMISSIONRUNS_DIR containing RESULTS_DIR: the second evaluation reads the same runs as the
    first (its outputs are ignored, with a warning), gives the same summary, and its stamp stays
    fresh for compare."""
    cfg = make_setup(tmp_path, runs="runs/", results="runs/results")
    res = invoke("-config", cfg)
    assert res.exit_code == 0, res.output
    summary = (tmp_path / "runs" / "results" / TASK / "summary.tsv").read_bytes()
    res = invoke("-config", cfg)
    assert res.exit_code == 0, res.output
    assert "file(s) under RESULTS_DIR" in res.output and "ignored" in res.output
    assert f"{cfg}:8: SUBMISSIONRUNS_DIR: 10 file(s) under RESULTS_DIR" in res.output
    assert (tmp_path / "runs" / "results" / TASK / "summary.tsv").read_bytes() == summary
    res = CliRunner().invoke(main, ["compare", "-config", str(cfg)])
    assert res.exit_code == 0 and "reusing" in res.output


def test_api_write_is_staged_too(setup):
    import inexeval

    tmp, cfg = setup
    inexeval.evaluate(str(cfg), write=True, QUANT_FUNCTIONS="gen")
    inexeval.evaluate(str(cfg), write=True, QUANT_FUNCTIONS="strict")
    assert {f.split("/")[0] for f in run_files(tmp / "results")} == {"strict_on"}
    assert_clean(tmp / "results")


def test_lock_is_reentrant_and_removed(tmp_path):
    with resultsdir.locked(tmp_path, TASK):
        with resultsdir.locked(tmp_path, TASK):
            assert (tmp_path / f".{TASK}{resultsdir.LOCK}").exists()
        assert (tmp_path / f".{TASK}{resultsdir.LOCK}").exists()
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("command", ["compare", "validate"])
def test_ctrl_c_in_every_command_is_130_and_one_line(tmp_path, monkeypatch, command):
    import inexeval.compare.workflow
    import inexeval.validate

    def interrupted(*a, **k):
        raise KeyboardInterrupt

    monkeypatch.setattr(inexeval.compare.workflow, "run_compare", interrupted)
    monkeypatch.setattr(inexeval.validate, "validate_runs", interrupted)
    run = tmp_path / "r.xml"
    run.write_text("x")
    args = ["compare", "-config", str(run)] if command == "compare" else ["validate", str(run)]
    res = CliRunner().invoke(main, args)
    assert res.exit_code == 130
    assert res.output == "inexeval: interrupted\n"


def test_sigterm_handler_is_restored_after_an_in_process_command(tmp_path):
    import signal

    before = signal.getsignal(signal.SIGTERM)
    CliRunner().invoke(main, ["validate", str(tmp_path / "missing.xml")])
    assert signal.getsignal(signal.SIGTERM) is before


def test_task_directory_not_writable_is_exit_2_before_any_work(setup, monkeypatch):
    """The old task directory cannot be renamed aside (no write permission on it; simulated, as
    root ignores modes): found before any run is scored."""
    tmp, cfg = setup
    assert invoke("-config", cfg).exit_code == 0
    before = snapshot(tmp / "results")
    task = tmp / "results" / TASK
    real = os.access
    monkeypatch.setattr(os, "access", lambda p, mode, **k: False if Path(p) == task else real(p, mode, **k))
    import inexeval.engine as engine

    monkeypatch.setattr(engine, "score_file", lambda *a, **k: pytest.fail("a run was scored"))
    res = invoke("-config", cfg)
    assert res.exit_code == 2
    assert f"{task}: {TASK} in RESULTS_DIR is not writable" in res.output and "Traceback" not in res.output
    assert snapshot(tmp / "results") == before
    assert_clean(tmp / "results")


def test_ctrl_c_between_the_two_renames_waits_for_the_swap(setup, monkeypatch):
    """Ctrl-C arriving once the old set is renamed aside: held back until the new set is in place
    and the old one removed; then the command stops (130) with the new set complete."""
    import signal

    tmp, cfg = setup
    assert invoke("-config", cfg).exit_code == 0
    real = os.rename
    sent = []

    def rename(src, dst):
        real(src, dst)
        if resultsdir.OLD in str(dst):
            sent.append(signal.SIGINT)
            os.kill(os.getpid(), signal.SIGINT)

    monkeypatch.setattr(os, "rename", rename)
    res = invoke("-config", cfg, "--set", "QUANT_FUNCTIONS=strict")
    assert sent and res.exit_code == 130
    assert res.output.endswith("inexeval: interrupted\n")
    assert {f.split("/")[0] for f in run_files(tmp / "results")} == {"strict_on"}
    assert len(run_files(tmp / "results")) == 4
    assert_clean(tmp / "results")


def test_lock_keeps_another_thread_out(tmp_path):
    import threading

    errors = []
    with resultsdir.locked(tmp_path, TASK):
        def other():
            try:
                with resultsdir.locked(tmp_path, TASK):
                    pass
            except Exception as e:  # noqa: BLE001 - recorded for the assertion
                errors.append(e)

        t = threading.Thread(target=other)
        t.start()
        t.join()
    assert len(errors) == 1 and "is writing these results" in str(errors[0])


def test_stamp_of_a_config_is_the_same_in_every_process(tmp_path):
    """The stamp's config part was repr() of the config, whose POOLS and TOPICS are sets: their order
    changed with the hash seed of each process, so `compare` saw a changed config and re-evaluated."""
    cfg = make_setup(tmp_path)
    with cfg.open("a") as f:
        f.write("TOPICS: 202, 203, 205, 299\nPOOLS: 1, 2, 3\n")
    code = ("import json, sys; from inexeval.config.load import load_config; from inexeval.stamp import fingerprint; "
            f"print(json.dumps(fingerprint(load_config({str(cfg)!r}), False)))")
    outs = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                           env={**os.environ, "PYTHONPATH": str(ROOT), "PYTHONHASHSEED": str(seed)}).stdout
            for seed in range(6)}
    assert len(outs) == 1, "one stamp whatever the hash seed"
    assert '"topics": ["202", "203", "205", "299"]' in outs.pop()


def test_assessments_replace_their_own_directory_before_and_after_an_evaluation(setup):
    """inexeval assessments replaces RESULTS_DIR/<TASK>/assessments/ (no stamp there: it is not an
    evaluation's set), before any evaluation, again, and after one; the evaluation keeps it."""
    tmp, cfg = setup
    for args in (["assessments", "-config", cfg], ["assessments", "-config", cfg], ["-config", cfg],
                 ["assessments", "-config", cfg], ["-config", cfg]):
        res = CliRunner().invoke(main, [*map(str, args), "--quiet"])
        assert res.exit_code == 0, (args, res.output)
    assert (tmp / "results" / TASK / "assessments").is_dir() and (tmp / "results" / TASK / "summary.tsv").is_file()
