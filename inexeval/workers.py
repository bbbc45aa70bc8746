"""Forked worker processes for ``--jobs N``: results in input order, and no way to hang.

multiprocessing.Pool shares one task queue, guarded by a lock, between its
workers: a worker killed while it holds that lock (a SIGTERM sent to the
process group, the OOM killer, a file-size limit) leaves the parent waiting
for ever, and a task whose worker died is never answered.  Here each worker
has a pipe of its own, so a worker may die at any moment without blocking
anyone, and the parent sees it die (its sentinel) and reports it.

Workers ignore Ctrl-C (the terminal sends it to the whole process group: it
is the parent's to handle); SIGTERM ends a worker at once (nothing it holds
is shared; its half-written files are temporary ones, removed by the parent);
a file-size limit makes the write fail (an error) instead of killing it.
Each worker is replaced after ``per_worker`` tasks (memory stays flat).  A worker that runs out of
memory says so (a MemoryError raised in the parent, or, when even that cannot be sent, its exit
status :data:`NO_MEMORY_STATUS`), never with a traceback of its own; a read-ahead process that runs
out of memory, or cannot be started for want of it, just reads nothing more ahead.
"""

from __future__ import annotations

import contextlib
import mmap
import os
import pickle
import signal
import struct
import zlib
from collections.abc import Callable, Iterator, Sequence

from inexeval.errors import Interrupted, OutputError
from inexeval.interrupts import STOP_SIGNALS

#: The exit status of a forked process that ran out of memory where it could not say so otherwise.
NO_MEMORY_STATUS = 75


def _no_traceback(target: Callable) -> Callable:
    """TARGET, run in a forked process, ended with :data:`NO_MEMORY_STATUS` on a MemoryError that
    escapes it (multiprocessing would print a traceback and exit 1)."""
    def run(*args) -> None:
        try:
            target(*args)
        except MemoryError:
            os._exit(NO_MEMORY_STATUS)
    return run


def _init_worker(close_fds: Sequence[int]) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for sig in STOP_SIGNALS - {signal.SIGINT}:
        signal.signal(sig, signal.SIG_DFL)
    if hasattr(signal, "SIGXFSZ"):
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    for fd in close_fds:  # e.g. the results directory's lock: it is the parent's only
        with contextlib.suppress(OSError):
            os.close(fd)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)


def _serve(conn, func: Callable, close_fds: Sequence[int]) -> None:
    """A worker: call ``func`` on each item received, send back ("ok", value) or ("error", exception)."""
    _init_worker(close_fds)
    while True:
        try:
            item = conn.recv()
        except (EOFError, OSError):  # the parent is gone
            return
        if item is None:
            return
        try:
            reply = ("ok", func(item))
        except MemoryError:
            reply = ("error", MemoryError())  # (not the exception: its traceback holds what filled memory)
        except Exception as e:  # e.g. OutputError: the parent raises it
            reply = ("error", e)
        try:
            conn.send(reply)
        except (BrokenPipeError, EOFError, OSError):
            return
        except MemoryError:
            os._exit(NO_MEMORY_STATUS)
        except Exception as e:  # an exception that cannot be pickled
            conn.send(("error", RuntimeError(f"{type(e).__name__}: {e}")))


def _forked(ctx, target: Callable, args: tuple):
    """A started daemon process running TARGET(*ARGS); the stop signals are blocked while it is forked
    (it sets its own handling first, :func:`_init_worker`), and a Ctrl-C meanwhile is raised here after."""
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
    try:
        proc = ctx.Process(target=target, args=args, daemon=True)
        proc.start()
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)
    return proc


class _Worker:
    def __init__(self, ctx, func: Callable, close_fds: Sequence[int]):
        self.conn, child = ctx.Pipe()
        try:
            self.proc = _forked(ctx, _no_traceback(_serve), (child, func, close_fds))
        finally:
            child.close()
        self.done = 0
        self.task: int | None = None

    def kill(self) -> None:
        with contextlib.suppress(OSError, ValueError, AttributeError):
            if self.proc.is_alive():
                self.proc.kill()
        with contextlib.suppress(OSError, ValueError, AttributeError):
            self.proc.join()
        self.conn.close()

    def retire(self) -> None:
        with contextlib.suppress(OSError, ValueError):
            self.conn.send(None)
        self.proc.join(5)
        self.kill()


def imap(func: Callable, items: Sequence, jobs: int, per_worker: int, close_fds: Sequence[int] = (),
         describe: Callable[[object], str] = str) -> Iterator:
    """``func(item)`` for every item, computed in ``jobs`` forked processes, yielded in order.

    An exception raised by ``func`` is raised here; a worker that dies is an
    :class:`~inexeval.errors.Interrupted` when SIGINT or SIGTERM killed it, an
    :class:`~inexeval.errors.OutputError` otherwise (``describe(item)`` names
    what it was doing).  Leaving the iteration early (an exception, Ctrl-C,
    ``close()``) kills the workers.
    """
    import multiprocessing  # here: its import (about 10 ms) is not every command's start-up
    from multiprocessing.connection import wait

    ctx = multiprocessing.get_context("fork")
    workers: list[_Worker] = []
    done: dict[int, object] = {}
    sent = given = 0
    window = 2 * jobs  # results kept waiting for an earlier one, at most
    try:
        while given < len(items):
            if given in done:
                value = done.pop(given)
                given += 1
                yield value
                continue
            while sent < len(items) and sent < given + window:
                idle = next((w for w in workers if w.task is None), None)
                if idle is None and len(workers) < jobs:
                    idle = _Worker(ctx, func, close_fds)
                    workers.append(idle)
                if idle is None:
                    break
                idle.task = sent
                sent += 1
                try:
                    idle.conn.send(items[idle.task])
                except OSError:  # it died while idle
                    raise _death(idle, items, describe)[1] from None
            busy = [w for w in workers if w.task is not None]
            ready = wait([w.conn for w in busy] + [w.proc.sentinel for w in busy])
            for w in busy:
                if w.conn in ready:
                    try:
                        kind, value = w.conn.recv()
                    except (EOFError, OSError):
                        kind, value = _death(w, items, describe)
                elif w.proc.sentinel in ready:
                    kind, value = _death(w, items, describe)
                else:
                    continue
                if kind == "error":
                    raise value
                done[w.task] = value
                w.task = None
                w.done += 1
                if w.done >= per_worker:
                    workers.remove(w)
                    w.retire()
    finally:
        for w in workers:
            w.kill()


def _death(w: _Worker, items: Sequence, describe: Callable[[object], str]) -> tuple[str, BaseException]:
    w.proc.join(5)
    code = w.proc.exitcode
    if code is not None and code < 0 and -code in STOP_SIGNALS:
        return "error", Interrupted(-code)
    if code == NO_MEMORY_STATUS:
        return "error", MemoryError()
    try:
        how = f"was killed by {signal.Signals(-code).name}" if code is not None and code < 0 else \
            f"exited with status {code}"
    except ValueError:
        how = f"was killed by signal {-code}"
    return "error", OutputError(f"the process scoring this run {how}; nothing of it was written",
                                describe(items[w.task]))


class ReadAhead:
    """Items read by one forked process while the parent does something else (issue 16: the runs
    read while the parent reads the assessments, on a core that would otherwise wait).

    ``read(item)`` is called on the items in order in the child; what it returns, or the
    ``expected`` exception it raises, is pickled into a shared anonymous memory map of
    ``max_bytes`` (no file, and no thread of the parent taking the parent's time).  :meth:`stop`
    kills the child at once (an item it is reading is simply not read ahead) and returns the items
    read so far: index -> bytes, for :func:`take`.  An item whose reading raised anything else,
    whose value cannot be pickled or does not fit is not read ahead: it is read again in the usual
    way, with the usual outcome.
    """

    def __init__(self, read: Callable, items: Sequence, max_bytes: int, close_fds: Sequence[int] = (),
                 expected: type[BaseException] = Exception):
        import multiprocessing

        ctx = multiprocessing.get_context("fork")
        self.items = items
        self._map = self._proc = None
        try:
            self._map = mmap.mmap(-1, max(max_bytes, _HEADER.size))  # shared with the child, pages taken as written
            self._proc = _forked(ctx, _no_traceback(_read_ahead), (self._map, read, items, close_fds, expected))
        except (MemoryError, OSError):  # no memory for the map or the process: nothing is read ahead
            if self._map is not None:
                self._map.close()
            self._map = None

    def stop(self, wait: bool = False) -> dict[int, bytes]:
        """Index -> bytes of the items read so far; the child is killed, or with WAIT (the tests)
        first left to read every item."""
        if self._map is None:  # (never started)
            return {}
        with contextlib.suppress(OSError, ValueError, AttributeError):
            if wait:
                self._proc.join()
            if self._proc.is_alive():
                self._proc.kill()
        with contextlib.suppress(OSError, ValueError, AttributeError):
            self._proc.join()
        got: dict[int, bytes] = {}
        end, = _HEADER.unpack_from(self._map, 0)  # the records written in full
        end = min(end, len(self._map))
        at = _HEADER.size
        while at + _RECORD.size <= end:  # each record checked: a damaged one ends the list
            index, size, crc = _RECORD.unpack_from(self._map, at)
            at += _RECORD.size
            data = self._map[at:at + size]
            if index >= len(self.items) or index in got or at + size > end or zlib.crc32(data) != crc:
                break
            got[index] = data
            at += size
        self._map.close()
        return got


_HEADER = struct.Struct("<Q")  # bytes of the map in use (header included), written after each record
_RECORD = struct.Struct("<IQI")  # item index, size of its pickle, its CRC-32


def _read_ahead(shared: mmap.mmap, read: Callable, items: Sequence, close_fds: Sequence[int],
                expected: type[BaseException]) -> None:
    _init_worker(close_fds)
    parent = os.getppid()
    end = _HEADER.size
    _HEADER.pack_into(shared, 0, end)
    for i, item in enumerate(items):
        if os.getppid() != parent:  # the parent is gone (killed): nobody will take what is read
            return
        try:
            value = ("ok", read(item))
        except expected as e:
            value = ("error", e)
        except Exception:  # not ours to report: read again by whoever needs it
            continue
        try:
            data = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
        except Exception:
            continue
        del value
        if end + _RECORD.size + len(data) > len(shared):
            return
        _RECORD.pack_into(shared, end, i, len(data), zlib.crc32(data))
        shared[end + _RECORD.size:end + _RECORD.size + len(data)] = data
        end += _RECORD.size + len(data)
        _HEADER.pack_into(shared, 0, end)


def take(data: bytes):
    """The value :class:`ReadAhead` read, or the exception its reading raised, raised here."""
    kind, value = pickle.loads(data)
    if kind == "error":
        raise value
    return value
