"""``RESULTS_DIR/<TASK>/`` changed as a whole (README "What an interrupted evaluation leaves").

An evaluation writes its task directory (run files, summary, stamp, graphs)
into a staging directory beside it, ``RESULTS_DIR/.<TASK>.inexeval-staging-
<pid>-<random>/<TASK>/``, and swaps it in once everything is written: the old
directory is renamed aside, the new one renamed in, the old one removed.  A
reader therefore finds the complete old set or the complete new set (or,
for the instant between the two renames, no directory at all); files of an
earlier evaluation that this one did not write are gone with the old
directory, but for ``assessments/`` (:data:`CARRIED`, another command's) and
``inexeval compare``'s files, which the new set keeps while the result files
they were computed from are unchanged (:func:`inexeval.stamp.write_stamp`
links them into the staged set, or says why not).  An interrupted or failed evaluation removes its staging
directory and leaves the old set untouched.

A lock file, ``RESULTS_DIR/.<TASK>.inexeval-lock`` (removed when released),
is held from before any work until the swap: a second evaluation of the
same task directory fails at once with :class:`~inexeval.errors.OutputError`
(exit 2) instead of interleaving.  ``compare`` reads and writes a task
directory under the same lock.  Staging directories left by a killed
process are removed by the next evaluation of that task (under the lock:
none of them can be in use) and are never read.
"""

from __future__ import annotations

import contextlib
import errno
import os
import shutil
import signal
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from inexeval.errors import OutputError
from inexeval.interrupts import STOP_SIGNALS
from inexeval.records import replace

if TYPE_CHECKING:
    from inexeval.config.schema import Config

try:  # POSIX; elsewhere evaluations of one task directory are not kept apart
    import fcntl
except ImportError:  # pragma: no cover
    fcntl = None

STAGING = ".inexeval-staging-"
OLD = ".inexeval-old-"
LOCK = ".inexeval-lock"
#: Subdirectories of a task directory that other commands write (``inexeval assessments``): an
#: evaluation carries them over into its new set rather than dropping them with the old one.
CARRIED = ("assessments",)

_held: dict[tuple[Path, int], list] = {}  # (lock path, thread) -> [fd, depth]: re-entrant in one thread
_held_guard = threading.Lock()


def runs_outside_results(config: Config) -> tuple[Config, int]:
    """``config`` without the run files that are inexeval's own outputs, and how many were left out.

    What evaluations write in RESULTS_DIR is a task directory ``<TASK>`` for each task (and, beside
    it while one is written, the ``.<TASK>.inexeval-*`` entries): when SUBMISSIONRUNS_DIR contains
    RESULTS_DIR, the files found there are not runs.  Every other file is (RESULTS_DIR may be the
    directory above the runs).  A ConfigError (exit 2) when SUBMISSIONRUNS_DIR or ASSESSMENTS_DIR
    names a place inside this task's directory, which the evaluation replaces as a whole: its
    files would be deleted."""
    from inexeval.errors import ConfigError
    from inexeval.tasks import TASKS

    root = os.path.realpath(config.results_dir)
    task_dir = os.path.join(root, config.task)
    for key, files in (("SUBMISSIONRUNS_DIR", config.runs), ("ASSESSMENTS_DIR", config.assessments)):
        named = next((f.root for f in files if _within(os.path.realpath(f.root), task_dir)), None)
        if named is not None:
            file, line = config.origin(key)
            raise ConfigError(f"{key}: {named} lies inside RESULTS_DIR/{config.task} ({task_dir}), which each "
                              "evaluation replaces as a whole, deleting what else it holds: keep the inputs "
                              "elsewhere, or choose another RESULTS_DIR", file, line)

    def output(path: str) -> bool:
        rel = os.path.relpath(os.path.realpath(path), root)
        first = rel.split(os.sep, 1)[0]
        return first != os.pardir and (first in TASKS or (first.startswith(".") and ".inexeval-" in first))

    keep = tuple(f for f in config.runs if not output(f.path))
    if len(keep) == len(config.runs):
        return config, 0
    return replace(config, runs=keep), len(config.runs) - len(keep)


def _within(path: str, directory: str) -> bool:
    """Whether ``path`` is ``directory`` or lies under it (both real paths)."""
    return path == directory or path.startswith(directory + os.sep)


def held_fds() -> list[int]:
    """File descriptors of the locks this process holds (forked workers close their copies)."""
    return [fd for fd, _depth in _held.values()]


def _reason(e: OSError) -> str:
    return e.strerror or str(e)


def usable_dir(results_dir: Path) -> Path:
    """RESULTS_DIR, created if needed; OutputError (exit 2) when it cannot be a directory."""
    results_dir = Path(results_dir)
    try:
        results_dir.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise OutputError("RESULTS_DIR is a file, not a directory", results_dir) from None
    except NotADirectoryError:
        raise OutputError("RESULTS_DIR cannot be created: a file is on its path", results_dir) from None
    except OSError as e:
        raise OutputError(f"RESULTS_DIR cannot be created: {_reason(e)}", results_dir) from None
    if not results_dir.is_dir():
        raise OutputError("RESULTS_DIR is not a directory", results_dir)
    return results_dir


@contextlib.contextmanager
def locked(results_dir: Path, task: str) -> Iterator[Path]:
    """Hold the lock of ``RESULTS_DIR/<TASK>`` (re-entrant in one thread); yields RESULTS_DIR.

    OutputError when RESULTS_DIR is unusable, ``RESULTS_DIR/<TASK>`` is not a
    directory, or another process holds the lock.
    """
    results_dir = usable_dir(results_dir)
    final = results_dir / task
    if final.exists() and not final.is_dir():
        raise OutputError(f"{task} in RESULTS_DIR is a file, not a directory: move it away or choose "
                          "another RESULTS_DIR", final)
    path = (results_dir / f".{task}{LOCK}").absolute()
    key = (path, threading.get_ident())  # another thread of this process is kept out as another process is
    with _held_guard:
        entry = _held.get(key)
        if entry is not None:
            entry[1] += 1
    if entry is None:
        fd = _acquire(path, final)
        with _held_guard:
            _held[key] = entry = [fd, 1]
    try:
        yield results_dir
    finally:
        with _held_guard:
            entry[1] -= 1
            last = entry[1] == 0
            if last:
                del _held[key]
        if last:
            _release(path, entry[0])


def _acquire(path: Path, final: Path) -> int:
    """Create and lock the lock file (the file locked must still be the one at ``path``)."""
    while True:
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o666)
        except OSError as e:
            raise OutputError(f"RESULTS_DIR is not writable: {_reason(e)}", path.parent) from None
        if fcntl is None:  # pragma: no cover
            return fd
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as e:
            os.close(fd)
            if e.errno not in (errno.EAGAIN, errno.EACCES):
                raise OutputError(f"cannot lock {path.name}: {_reason(e)}", path.parent) from None
            holder = _read_pid(path)
            raise OutputError(f"another inexeval process{f' (pid {holder})' if holder else ''} is writing "
                              f"these results; wait for it to end, or give this evaluation another "
                              f"--results-dir", final) from None
        try:
            same = os.fstat(fd).st_ino == os.stat(path).st_ino
        except FileNotFoundError:  # released (and removed) by its holder meanwhile
            same = False
        if same:
            with contextlib.suppress(OSError):  # the pid is for messages only (a full disk may refuse it)
                os.ftruncate(fd, 0)
                os.write(fd, f"{os.getpid()}\n".encode())
            return fd
        os.close(fd)


def _read_pid(path: Path) -> str:
    try:
        return path.read_text().strip()
    except OSError:
        return ""


def _release(path: Path, fd: int) -> None:
    with contextlib.suppress(OSError):
        os.unlink(path)
    os.close(fd)


def remove_leftovers(results_dir: Path, task: str) -> None:
    """Delete the staging and renamed-aside directories of killed evaluations of ``task``
    (call with the lock held: none of them is then in use)."""
    for prefix in (STAGING, OLD):
        for p in Path(results_dir).glob(f".{task}{prefix}*"):
            _remove(p)


def _remove(p: Path) -> None:
    if p.is_symlink() or not p.is_dir():
        with contextlib.suppress(OSError):
            os.unlink(p)
    else:
        shutil.rmtree(p, ignore_errors=True)


@contextlib.contextmanager
def staged(results_dir: Path, task: str, *, evaluation: bool = False) -> Iterator[Path]:
    """Write a new ``RESULTS_DIR/<TASK>`` and swap it in whole.

    Yields the directory to use as RESULTS_DIR while writing (its ``<TASK>``
    sub-directory becomes ``RESULTS_DIR/<TASK>``).  On an exception (Ctrl-C
    included) the staged files are removed and the old directory is left as
    it was.  A write that fails (disk full, permissions) is an OutputError.
    ``evaluation``: the directory is an evaluation's set; an existing one that holds files but none
    of an evaluation's (someone else's: :func:`_not_written_by_inexeval`) is not replaced: an
    OutputError, before any work.  (The other callers check what they replace themselves.)
    """
    with locked(results_dir, task) as results_dir:
        final = results_dir / task
        if final.is_dir() and not final.is_symlink() and not os.access(final, os.W_OK | os.X_OK):
            # renaming it aside, at the end, would fail: say so before any work
            raise OutputError(f"{task} in RESULTS_DIR is not writable: it cannot be replaced", final)
        foreign = _not_written_by_inexeval(final) if evaluation else []
        if foreign:
            raise OutputError(f"{task} in RESULTS_DIR holds files that no evaluation wrote ({', '.join(foreign[:3])}"
                              f"{', ...' if len(foreign) > 3 else ''}; no stamp or summary): an evaluation replaces "
                              "it as a whole and would delete them; move them, or choose another RESULTS_DIR", final)
        remove_leftovers(results_dir, task)
        try:
            root = Path(tempfile.mkdtemp(prefix=f".{task}{STAGING}{os.getpid()}-", dir=results_dir))
        except OSError as e:
            raise OutputError(f"RESULTS_DIR is not writable: {_reason(e)}", results_dir) from None
        try:
            os.chmod(root, 0o777 & ~_umask())
            (root / task).mkdir()
            yield root
            _swap(root / task, results_dir / task, results_dir, task)
        except OutputError as e:  # name the file where it belongs, not where it was staged
            staged_dir = str(root / task)
            if e.file is not None and e.file.startswith(staged_dir):
                e.file = str(results_dir / task) + e.file[len(staged_dir):]
            e.message += "; the results directory was left as it was"
            raise
        except OSError as e:
            raise OutputError(f"cannot write the results: {_reason(e)}; the results directory was left as it was",
                              results_dir / task) from None
        finally:
            _remove(root)


def _not_written_by_inexeval(final: Path) -> list[str]:
    """The entries of an existing ``RESULTS_DIR/<TASK>`` that is not an evaluation's set, but for those
    other commands write there (:data:`CARRIED`); [] for an evaluation's set: one holding its stamp,
    its summary or one of its hidden ``.inexeval-*`` files (a set whose stamp was lost is still one)."""
    if not final.is_dir():
        return []
    try:
        names = os.listdir(final)
    except OSError:
        return []
    if any(n in _EVALUATION_FILES or n.startswith(".inexeval-") for n in names):
        return []
    return sorted(name for name in names if name not in CARRIED)


#: Files only an evaluation writes in its task directory (beside its hidden ``.inexeval-*`` files).
_EVALUATION_FILES = frozenset({"summary.tsv", "summary.json"})


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _swap(new: Path, final: Path, results_dir: Path, task: str) -> None:
    """Rename ``final`` aside and ``new`` in its place, signals held back in between (the
    directory is never left missing by a Ctrl-C); then remove the old directory."""
    old_root = old = None
    carried: list[str] = []
    held = _signals_held()
    held.__enter__()
    try:
        if os.path.lexists(final):
            try:
                for name in CARRIED:  # not this evaluation's to replace
                    if os.path.isdir(final / name) and not os.path.lexists(new / name):
                        os.rename(final / name, new / name)
                        carried.append(name)
                old_root = Path(tempfile.mkdtemp(prefix=f".{task}{OLD}{os.getpid()}-", dir=results_dir))
                old = old_root / task
                os.rename(final, old)
            except BaseException:
                old = None
                for name in carried:
                    os.rename(new / name, final / name)
                raise
        try:
            os.rename(new, final)
        except BaseException:
            back = old if old is not None else final
            for name in carried:
                os.rename(new / name, back / name)
            if old is not None:
                os.rename(old, final)  # put the old set back
                old = None
            raise
    finally:
        try:
            if old_root is not None and (old is None or os.path.lexists(final)):
                _remove(old_root)  # (kept if the old set could be put neither aside nor back)
        finally:
            held.__exit__(None, None, None)  # a Ctrl-C meanwhile is raised here, the swap done


@contextlib.contextmanager
def _signals_held() -> Iterator[None]:
    """Ctrl-C, SIGTERM and SIGHUP recorded, not acted on, inside the block; the first one is
    delivered again at its end, to the handler restored.  (Python handlers run in the main
    thread only: elsewhere there is nothing to hold.)"""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[int] = []
    before = {}
    for sig in STOP_SIGNALS:
        how = signal.getsignal(sig)
        if how is not None:  # (None: a handler not set from Python, left alone)
            before[sig] = signal.signal(sig, lambda signum, frame: caught.append(signum))
    try:
        yield
    finally:
        for sig, how in before.items():
            signal.signal(sig, how)
        if caught:
            signal.raise_signal(caught[0])
