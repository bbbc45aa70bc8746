"""The progress bar's time left (inexeval/progress.py): start-up is not counted as run time, and no
estimate is shown before a few runs are done."""

from __future__ import annotations

from inexeval.cli.command import progress
from inexeval.progress import MIN_DONE, Eta


class Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


def test_startup_is_not_counted_as_run_time():
    clock = Clock()
    eta = Eta(50, clock)
    clock.now = 30.0  # 30 s of start-up before the first run is done, then 1 s a run
    eta.tick()
    assert eta.seconds() is None and eta.text() == ""  # one run: no estimate
    for _ in range(MIN_DONE - 1):
        clock.now += 1.0
        eta.tick()
    assert eta.done == MIN_DONE
    assert eta.seconds() == 1.0 * (50 - MIN_DONE)  # 47 s, where click said (32 s / 3) * 47 = 8 min
    assert eta.text() == "eta 0:47"


def test_estimate_follows_the_mean_time_between_runs():
    clock = Clock()
    eta = Eta(10, clock)
    for t in (5.0, 6.0, 8.0, 9.0):  # gaps 1, 2, 1 s: 4/3 s a run
        clock.now = t
        eta.tick()
    assert abs(eta.seconds() - 4 / 3 * 6) < 1e-12
    for _ in range(6):
        eta.tick()
    assert eta.seconds() is None  # done: nothing left to estimate


def test_long_estimates_show_hours():
    clock = Clock()
    eta = Eta(10_000, clock)
    for t in (0.0, 2.0, 4.0):
        clock.now = t
        eta.tick()
    assert eta.text() == "eta 5:33:14"  # 2 s x 9,997 runs = 19,994 s


class _Tty:
    def __init__(self):
        self.text = ""

    def isatty(self):
        return True

    def write(self, s):
        self.text += s

    def flush(self):
        pass


def test_the_bar_shows_no_estimate_for_the_first_runs(monkeypatch):
    import inexeval.progress as prog

    clock = Clock()
    monkeypatch.setattr(prog, "_clock", clock)
    stream = _Tty()
    with progress(20, False, stream) as tick:
        clock.now = 100.0  # a slow start, then 2 s a run
        tick("run")
        clock.now = 102.0
        tick("run")
        first = stream.text
        clock.now = 104.0
        tick("run")
    assert "scoring runs" in first and "eta" not in first
    assert stream.text.endswith("eta 0:34\x1b[?25h\n")  # 2 s a run since the first, 17 runs left
