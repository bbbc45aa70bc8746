"""The time left, as the progress bar shows it (issue 19: the first estimate said minutes for a job of seconds).

click's own estimate divides the time since the bar appeared by the runs done, so the start-up before the
first run is scored (reading the recall-bases, starting the workers) counts as the cost of every run still
to come.  This estimate is shown only from :data:`MIN_DONE` runs on and is the mean time between finished
runs since the first one finished, times the runs left: start-up is not counted.
"""

from __future__ import annotations

import time
from typing import Callable

#: the clock of the estimate (replaced in tests)
_clock: Callable[[], float] = time.monotonic
#: no estimate before this many runs are done (one gap between finished runs is too noisy)
MIN_DONE = 3


class Eta:
    """Counts finished runs and estimates the time left; ``clock`` is injectable for tests."""

    def __init__(self, total: int, clock: Callable[[], float] | None = None):
        self.total = total
        self.done = 0
        self.first: float | None = None
        self.clock = clock or _clock

    def tick(self) -> None:
        self.done += 1
        if self.first is None:
            self.first = self.clock()

    def seconds(self) -> float | None:
        """Seconds left, or None while too few runs are done to tell (and once all are)."""
        if self.done < MIN_DONE or self.done >= self.total or self.first is None:
            return None
        per_run = (self.clock() - self.first) / (self.done - 1)
        return per_run * (self.total - self.done)

    def text(self) -> str:
        """``eta 1:05`` (``eta 1:02:05`` from an hour on), or "" when there is no estimate."""
        left = self.seconds()
        if left is None:
            return ""
        s = int(round(left))
        h, m, s = s // 3600, s // 60 % 60, s % 60
        return f"eta {h}:{m:02d}:{s:02d}" if h else f"eta {m}:{s:02d}"
