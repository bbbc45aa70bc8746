"""A reader that stops reading is not an error (README "Exit status").

``inexeval ... | head -1`` closes the pipe of standard output after one line; writing more then fails
(EPIPE: Python ignores SIGPIPE).  Every command (the click command line and the two drop-ins,
:mod:`inexeval.launch`) writes its standard streams through :func:`closed_pipes_ignored`: the first
write to a closed pipe sends that stream to ``/dev/null`` for the rest of the process and is
otherwise ignored, so the command goes on as if its output had been read in full.  It writes every
file it would have written, says on standard error what it would have said (unless standard error
is the closed pipe), and exits with the status it would have had (0, 1 when an input was skipped,
2 on an error), with no message about the pipe, no traceback and no "Exception ignored" line at exit.

No click here: the drop-ins' fast path imports this module (tests/test_layout.py).
"""

from __future__ import annotations

import contextlib
import io
import os
import sys
from collections.abc import Iterator


class _Survivor(io.RawIOBase):
    """A standard stream's file descriptor: a write to a closed pipe sends the descriptor to
    /dev/null (the process's other writers to it, forked workers included, then write there too)
    and counts as written."""

    def __init__(self, fd: int):
        super().__init__()
        self._fd = fd
        self.reader_gone = False

    def writable(self) -> bool:
        return True

    def fileno(self) -> int:
        return self._fd

    def isatty(self) -> bool:
        try:
            return os.isatty(self._fd)
        except OSError:
            return False

    def write(self, data) -> int:
        n = memoryview(data).nbytes
        if self.reader_gone:
            return n
        try:
            return os.write(self._fd, data)
        except BrokenPipeError:
            self.reader_gone = True
            with contextlib.suppress(OSError):
                null = os.open(os.devnull, os.O_WRONLY)
                os.dup2(null, self._fd)
                os.close(null)
            return n

    def close(self) -> None:  # the descriptor is the process's, not this object's
        super().close()


def _wrapped(stream) -> io.TextIOWrapper | None:
    """STREAM (a standard text stream of the process) written through a :class:`_Survivor`; None
    when it has no file descriptor."""
    try:
        fd = stream.fileno()
        stream.flush()
    except (OSError, ValueError, AttributeError, io.UnsupportedOperation):
        return None
    return io.TextIOWrapper(io.BufferedWriter(_Survivor(fd)), encoding=stream.encoding, errors=stream.errors,
                            line_buffering=stream.line_buffering,
                            write_through=getattr(stream, "write_through", False))


@contextlib.contextmanager
def closed_pipes_ignored() -> Iterator[None]:
    """Inside the block, the process's standard output and error survive a closed pipe (module
    notes); put back as they were at its end.  A stream that is not the process's own (a test's
    capture, an embedding application's) is left alone."""
    swapped = {}
    for name in ("stdout", "stderr"):
        stream = getattr(sys, name)
        if stream is None or stream is not getattr(sys, f"__{name}__"):
            continue
        new = _wrapped(stream)
        if new is not None:
            swapped[name] = (stream, new)
            setattr(sys, name, new)
    try:
        yield
    finally:
        for name, (old, new) in swapped.items():
            with contextlib.suppress(OSError, ValueError):
                new.flush()
            if getattr(sys, name) is new:
                setattr(sys, name, old)
