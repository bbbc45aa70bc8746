"""Runs read ahead while the assessments are read (issue 16, inexeval.workers.ReadAhead and
inexeval.engine._start_reading_ahead): the same numbers, files, messages and exit status as reading
each run in its turn."""

from __future__ import annotations

import os
import pickle
import shutil
import time
import zlib
from pathlib import Path

import pytest
from click.testing import CliRunner

from inexeval import engine, workers
from inexeval.cli.command import main
from inexeval.config.load import load_config
from inexeval.errors import InputError

pytestmark = pytest.mark.slow  # runs read ahead in a second process

ROOT = Path(__file__).resolve().parent.parent
REAL_TAKE = workers.take

#: the shipped configs whose runs are element runs (the unit that reads its runs alone)
ELEMENT_CONFIGS = sorted(p.name for p in (ROOT / "configs").glob("*.prop")
                         if load_config(p).task_def.unit == "element")


def test_element_configs_are_found():
    assert {"co-thorough.prop", "co-focussed.prop", "best-in-context.prop", "relevant-in-context.prop"} <= \
        set(ELEMENT_CONFIGS)


# ---------------------------------------------------------------- the reader itself


def _double(x):
    if x == "bad":
        raise InputError("bad item", "items.txt", 3)
    if x == "bug":
        raise RuntimeError("not an input error")
    if x == "slow":
        time.sleep(60)
    return x * 2


def test_every_item_is_read_in_order_and_given_back_once():
    ahead = workers.ReadAhead(_double, ["a", "bc", "d"], 1 << 20, expected=InputError)
    got = ahead.stop(wait=True)
    assert sorted(got) == [0, 1, 2]
    assert [workers.take(got[i]) for i in range(3)] == ["aa", "bcbc", "dd"]


def test_an_expected_error_is_raised_where_the_item_is_taken_and_any_other_is_left_to_its_turn():
    ahead = workers.ReadAhead(_double, ["a", "bad", "bug", "z"], 1 << 20, expected=InputError)
    got = ahead.stop(wait=True)
    assert sorted(got) == [0, 1, 3]  # "bug": read again in its turn, where its error is what it is
    with pytest.raises(InputError) as err:
        workers.take(got[1])
    assert (str(err.value), err.value.file, err.value.line) == (str(InputError("bad item", "items.txt", 3)),
                                                                "items.txt", 3)


def test_what_does_not_fit_is_not_read_ahead():
    ahead = workers.ReadAhead(_double, ["a", "b" * 5000, "c"], 2000, expected=InputError)
    got = ahead.stop(wait=True)
    assert list(got) == [0]
    assert workers.take(got[0]) == "aa"


def test_a_damaged_record_ends_what_is_taken_and_nothing_damaged_is_given_back():
    ahead = workers.ReadAhead(_double, ["a", "b", "c"], 1 << 20, expected=InputError)
    ahead._proc.join()  # all three written
    end = int.from_bytes(ahead._map[:8], "little")
    second = 8 + (workers._RECORD.size + len(pickle.dumps(("ok", "aa"), protocol=pickle.HIGHEST_PROTOCOL)))
    ahead._map[second + workers._RECORD.size] ^= 0xFF  # one byte of the second pickle
    got = ahead.stop()
    assert list(got) == [0] and workers.take(got[0]) == "aa"
    assert end > second


def test_a_header_beyond_the_records_gives_back_only_whole_records():
    ahead = workers.ReadAhead(_double, ["a", "b"], 1 << 20, expected=InputError)
    ahead._proc.join()
    end = int.from_bytes(ahead._map[:8], "little")
    junk = pickle.dumps(("ok", "zz"))  # a well-formed record for an item that does not exist
    workers._RECORD.pack_into(ahead._map, end, 99, len(junk), zlib.crc32(junk))
    ahead._map[end + workers._RECORD.size:end + workers._RECORD.size + len(junk)] = junk
    ahead._map[:8] = (len(ahead._map) + 10).to_bytes(8, "little")  # as if torn: past what was written
    got = ahead.stop()
    assert sorted(got) == [0, 1] and [workers.take(got[i]) for i in (0, 1)] == ["aa", "bb"]


def test_stop_ends_a_reader_at_once_and_keeps_only_what_was_read_in_full():
    ahead = workers.ReadAhead(_double, ["a", "slow", "c"], 1 << 20, expected=InputError)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:  # until the first item is in
        if ahead._map[:8] != bytes(8) and int.from_bytes(ahead._map[:8], "little") > 8:
            break
        time.sleep(0.01)
    got = ahead.stop()
    assert not ahead._proc.is_alive()
    assert list(got) == [0] and workers.take(got[0]) == "aa"


# ---------------------------------------------------------------- evaluation, read ahead or not


def _as_if_worth_it(monkeypatch):
    """Read ahead here as for INEX-sized assessments on two cores (the sample's are small; pytest may
    run threads of its own)."""
    monkeypatch.setattr(engine, "available_cores", lambda: 2)
    monkeypatch.setattr(engine, "READ_AHEAD_MIN_BYTES", 0)
    monkeypatch.setattr(engine, "_single_threaded", lambda: True)


def _evaluate(config: Path, out: Path, monkeypatch, read_ahead: bool, *args: str):
    monkeypatch.setattr(engine, "READ_AHEAD", read_ahead)
    monkeypatch.setattr(engine, "READ_AHEAD_WAIT", True)  # every run read ahead, not a race
    _as_if_worth_it(monkeypatch)
    taken = []

    def spy(data):
        taken.append(len(data))
        return REAL_TAKE(data)

    monkeypatch.setattr(workers, "take", spy)
    res = CliRunner().invoke(main, ["-config", str(config), "--results-dir", str(out), *args])
    files = {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*"))
             if p.is_file() and ".lock" not in p.name}
    return res.exit_code, res.stdout, res.stderr if hasattr(res, "stderr") else "", files, taken


@pytest.mark.parametrize("name", ELEMENT_CONFIGS)
def test_shipped_configs_give_the_same_bytes_read_ahead_or_not(name, tmp_path, monkeypatch):
    config = ROOT / "configs" / name
    runs = [f for f in load_config(config).runs if f.problem is None]
    for jobs in ("1", "2"):
        before = _evaluate(config, tmp_path / f"off{jobs}", monkeypatch, False, "-q", "-e", "--jobs", jobs)
        after = _evaluate(config, tmp_path / f"on{jobs}", monkeypatch, True, "-q", "-e", "--jobs", jobs)
        assert before[:4] == after[:4]
        assert before[4] == []
        if jobs == "1":  # taken in this process (with --jobs 2, by the workers)
            assert len(after[4]) == len(runs) > 0


def test_bad_runs_are_reported_alike_read_ahead_or_not(tmp_path, monkeypatch):
    src = load_config(ROOT / "configs" / "co-thorough.prop")
    runs = tmp_path / "runs"
    shutil.copytree(src.runs[0].path.parent, runs)
    (runs / "broken.xml").write_text("<inex-submission participant-id='1' run-id='x' task='CO.Thorough'>\n"
                                     "<topic topic-id='202'><result>\n", encoding="utf-8")
    (runs / "empty.xml").write_bytes(b"")
    os.mkfifo(runs / "fifo.xml")  # never opened by the reader ahead (reported in its turn)
    config = ROOT / "configs" / "co-thorough.prop"
    where = f"SUBMISSIONRUNS_DIR={runs}"
    for jobs in ("1", "2"):
        before = _evaluate(config, tmp_path / f"off{jobs}", monkeypatch, False, "--jobs", jobs, "--set", where)
        after = _evaluate(config, tmp_path / f"on{jobs}", monkeypatch, True, "--jobs", jobs, "--set", where)
        assert before[0] == after[0] == 1
        assert before[1:4] == after[1:4]
        assert "broken.xml" in after[1] + after[2]
        regular = [p for p in runs.iterdir() if p.is_file()]  # the FIFO is read in its turn
        assert len(after[4]) == (len(regular) if jobs == "1" else 0)  # --jobs 2: taken by the workers


def test_no_reader_ahead_without_a_second_core_or_for_units_that_read_with_the_assessments(monkeypatch):
    config = load_config(ROOT / "configs" / "co-thorough.prop")
    _as_if_worth_it(monkeypatch)
    monkeypatch.setattr(engine, "available_cores", lambda: 1)
    assert engine._start_reading_ahead(engine.UNITS["element"], config, {}) is None
    monkeypatch.setattr(engine, "available_cores", lambda: 2)
    monkeypatch.setattr(engine, "_single_threaded", lambda: False)
    assert engine._start_reading_ahead(engine.UNITS["element"], config, {}) is None
    monkeypatch.setattr(engine, "_single_threaded", lambda: True)
    size = engine._input_bytes(config.assessments)
    monkeypatch.setattr(engine, "READ_AHEAD_MIN_BYTES", size + 1)  # the sample's assessments are small
    assert engine._start_reading_ahead(engine.UNITS["element"], config, {}) is None
    monkeypatch.setattr(engine, "READ_AHEAD_MIN_BYTES", size)
    assert engine._start_reading_ahead(engine.UNITS["document"], load_config(ROOT / "configs" / "trec.prop"),
                                       {}) is None
    every = {f.path: None for f in config.runs}
    assert engine._start_reading_ahead(engine.UNITS["element"], config, every) is None  # all reused
    ahead = engine._start_reading_ahead(engine.UNITS["element"], config, {})
    try:
        assert ahead.items == [f.path for f in config.runs]  # in file order: scored first, freed first
    finally:
        ahead.stop()


def test_an_interruption_while_the_assessments_are_read_stops_the_reader(tmp_path, monkeypatch):
    started = []
    real = workers.ReadAhead

    def keep(*a, **k):
        started.append(real(*a, **k))
        return started[-1]

    monkeypatch.setattr(workers, "ReadAhead", keep)
    _as_if_worth_it(monkeypatch)

    def interrupted(self, config, on_topic=None):
        raise KeyboardInterrupt

    monkeypatch.setattr(type(engine.UNITS["element"]), "load", interrupted)
    config = load_config(ROOT / "configs" / "co-thorough.prop")
    with pytest.raises(KeyboardInterrupt):
        engine.evaluate(config)
    assert len(started) == 1 and not started[0]._proc.is_alive()


def test_the_python_api_with_threads_running_never_forks_a_reader(monkeypatch):
    import threading

    monkeypatch.setattr(engine, "available_cores", lambda: 2)
    monkeypatch.setattr(engine, "READ_AHEAD_MIN_BYTES", 0)
    monkeypatch.setattr(workers, "ReadAhead", lambda *a, **k: pytest.fail("forked with a thread running"))
    stop = threading.Event()
    t = threading.Thread(target=stop.wait)
    t.start()
    try:
        config = load_config(ROOT / "configs" / "co-thorough.prop")
        assert engine._start_reading_ahead(engine.UNITS["element"], config, {}) is None
    finally:
        stop.set()
        t.join()
