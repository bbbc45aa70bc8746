"""How a command ends on a signal (docs/formats.md §9.3): SIGTERM and SIGHUP (a closed terminal) are
handled as Ctrl-C, and each ends the command with one line on standard error and the status
128 + the signal (130 for Ctrl-C, 143 for SIGTERM, 129 for SIGHUP) instead of a traceback; a
file-size limit (SIGXFSZ) fails the write, an error, instead of killing the process.

Running out of memory (a ``MemoryError``, also from numpy or a ``--jobs`` worker, or the system's
"cannot allocate memory" from a fork or a memory map), e.g. under ``ulimit -v``, is an error like a
result that cannot be written: one line (:data:`OUT_OF_MEMORY`) and status 2, never a traceback and
never an "interrupted"; no file is left half-written (each is written whole, then renamed into place).

Shared by the click command line (:mod:`inexeval.cli.command`) and the ``trec-eval`` drop-in's direct
entry (:mod:`inexeval.launch`); loads nothing heavy.
"""

from __future__ import annotations

import contextlib
import errno
import signal
import sys
from collections.abc import Callable, Iterator

from inexeval.errors import Interrupted


#: Ctrl-C, SIGTERM and SIGHUP (what the command line handles): blocked while a worker is forked
#: (:mod:`inexeval.workers`), until it has set its own handling, and while a results directory is
#: swapped (:mod:`inexeval.resultsdir`); a worker they kill is an interruption, not an error
STOP_SIGNALS = {signal.SIGINT, *(getattr(signal, n) for n in ("SIGTERM", "SIGHUP") if hasattr(signal, n))}

#: The line a command that runs out of memory ends with (status :data:`OUT_OF_MEMORY_STATUS`).
OUT_OF_MEMORY = ("inexeval: error: out of memory (the process's memory limit, e.g. ulimit -v, or the "
                 "machine's): stopped; no file was left half-written")
OUT_OF_MEMORY_STATUS = 2


def out_of_memory(exc: BaseException) -> bool:
    """Whether EXC says that memory ran out: a MemoryError, or an OSError ENOMEM (fork, mmap)."""
    return isinstance(exc, MemoryError) or (isinstance(exc, OSError) and exc.errno == errno.ENOMEM)


def _terminated(signum, frame):
    raise Interrupted(signum)


def _to_stderr(message: str) -> None:
    sys.stderr.write(message + "\n")
    sys.stderr.flush()


@contextlib.contextmanager
def signals_end_the_command(debug: bool = False, say: Callable[[str], None] = _to_stderr) -> Iterator[None]:
    """Run the body with the handlers above; on an interruption SAY the line (DEBUG: after the
    traceback) and exit.  The previous handlers are put back (a command run in-process, by tests);
    outside the main thread the signals are left alone."""
    handled = {getattr(signal, name): how for name, how in (("SIGTERM", _terminated), ("SIGHUP", _terminated),
                                                             ("SIGXFSZ", signal.SIG_IGN)) if hasattr(signal, name)}
    before = {}
    with contextlib.suppress(ValueError):  # not the main thread
        before = {sig: signal.signal(sig, how) for sig, how in handled.items()}
    no_memory = False
    try:
        yield
    except KeyboardInterrupt as e:
        if debug:
            import traceback  # here: only --debug prints one (its import is not every command's start-up)

            traceback.print_exc()
        signum = getattr(e, "signum", signal.SIGINT)
        with contextlib.suppress(OSError, ValueError):
            say("inexeval: interrupted" if signum == signal.SIGINT else
                f"inexeval: terminated ({signal.Signals(signum).name})")
        sys.exit(128 + signum)
    except (MemoryError, OSError) as e:
        if not out_of_memory(e):
            raise
        if debug:
            with contextlib.suppress(MemoryError):
                import traceback

                traceback.print_exc()
        no_memory = True  # said below, once the exception and the frames it holds are let go
    finally:
        for sig, how in before.items():
            signal.signal(sig, how)
    if no_memory:
        with contextlib.suppress(OSError, ValueError, MemoryError):
            say(OUT_OF_MEMORY)
        sys.exit(OUT_OF_MEMORY_STATUS)
