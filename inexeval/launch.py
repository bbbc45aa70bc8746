"""The ``inexeval`` command's entry (``python -m inexeval`` and the installed script).

The two drop-ins, ``inexeval trec-eval ...`` (:mod:`inexeval.dropins.trec_eval.cli`) and ``inexeval
inex-eval ...`` (:mod:`inexeval.dropins.inex_eval`), go straight to their module: each is run once per run
file, in loops, as the tool it replaces is, so it does not load the click command line (about
25 ms a call; docs/trec-eval.md §8).  Everything else goes through :mod:`inexeval.cli.command`.  A
drop-in ends on a signal as every command does (:mod:`inexeval.interrupts`), and a reader that
stops reading its output (``| head``) changes nothing but what it reads, as for every command
(:mod:`inexeval.cli.pipes`): the drop-in exits with its own status.
"""

from __future__ import annotations

import importlib
import os
import sys

from inexeval.numpy_sorts import prefer_avx2_sorts

#: The drop-ins: subcommand -> the module whose ``run_cli(argv)`` runs it.
DROP_INS = {"trec-eval": "inexeval.dropins.trec_eval.cli", "inex-eval": "inexeval.dropins.inex_eval"}


def main() -> None:
    argv = sys.argv[1:]
    # numpy's AVX2 sorts on AMD Zen 4, where its AVX-512 sorts are several times slower: set before
    # numpy loads, unless the user set numpy's switch (inexeval.numpy_sorts)
    prefer_avx2_sorts()
    # numpy's BLAS (OpenBLAS) starts no threads, for every command: inexeval multiplies no matrix
    # worth a thread (compare's permutation test: a matrix-vector product), and OpenBLAS sends the
    # process SIGINT when it cannot start one (under ``ulimit -v``), which would read as a Ctrl-C
    # ("interrupted", status 130) instead of running out of memory (inexeval.interrupts)
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    try:
        if argv[:1] and argv[0] in DROP_INS:
            end(drop_in(argv[0], argv[1:]))
        _no_collection_at_exit()
        _fewer_collections()
        if "-config" in argv or "--config" in argv:  # (evaluation_fast.parse says which it reads)
            from inexeval.cli import evaluation_fast

            params = evaluation_fast.parse(argv)
            if params is not None:
                end(evaluation_fast.evaluate(params))
        from inexeval.cli.command import main as cli

        cli()
        return
    except MemoryError:  # while modules load, before a command can say it (inexeval.interrupts)
        pass  # (said below, the exception and what it holds let go)
    from inexeval.interrupts import OUT_OF_MEMORY, OUT_OF_MEMORY_STATUS

    try:
        os.write(2, (OUT_OF_MEMORY + "\n").encode())
    except OSError:
        pass
    sys.exit(OUT_OF_MEMORY_STATUS)


def end(status: int) -> None:
    """Exit with STATUS (never returns) once a command is done, without Python's tear-down of its
    modules and objects.

    That tear-down frees, one by one, every object the modules and the evaluation made, which the
    system takes back with the process anyway: about 5 ms of a FOL config's 0.16 s and of a FOL
    drop-in's 0.13 s (issue 35.4).  What Python's exit does that matters is done first: the exit
    handlers run (:mod:`atexit`: :func:`_no_collection_at_exit`'s, tempfile's clean-ups), then
    standard output and error are flushed.  Where anything more may be needed, Python exits as
    always (``sys.exit``): a thread other than this one alive, worker processes started (their
    clean-up runs in the threading module's exit), or a flush that fails (Python then says so and
    exits with status 120, as before)."""
    threading = sys.modules.get("threading")
    if (threading is not None and threading.active_count() > 1) or \
            "multiprocessing" in sys.modules or "concurrent.futures" in sys.modules:
        sys.exit(status)
    import atexit

    atexit._run_exitfuncs()  # (each handler once: the list is emptied)
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except BaseException:  # (a closed pipe, a full disk: as Python's own exit says it)
        sys.exit(status)
    os._exit(status)


def _no_collection_at_exit() -> None:
    """No full pass of the cyclic garbage collector as Python shuts down (``gc.freeze`` at exit):
    the process is ending and frees its memory to the system anyway.  That pass looked at every
    object the evaluation and its modules made: 20–30 ms of a FOL config's 0.3 s, about a tenth.
    Every result file is closed by then (written through ``with``, renamed into place), and Python
    flushes standard output and error itself."""
    import atexit
    import gc

    atexit.register(gc.freeze)


#: The cyclic garbage collector's first threshold for every command but the drop-ins: a collection
#: of the young objects once this many more have been made than freed (Python's default: 700).
GC_YOUNG_THRESHOLD = 100_000


def _fewer_collections() -> None:
    """The cyclic garbage collector runs about a hundred times less often (:data:`GC_YOUNG_THRESHOLD`).

    Loading the modules and reading the inputs make many objects that live on, and each collection
    scanned them again, and the collections of the older generations too: 7 ms of a FOL config's
    0.2 s (56 collections), 125 ms of an INEX 2005 config of ten runs (1,129). The young objects
    are now scanned in one collection or none. Cyclic garbage (few objects: the evaluation frees
    its arrays by reference counting) waits a little longer for it, and the collector stays on:
    a config may hold large inputs for long."""
    import gc

    gc.set_threshold(GC_YOUNG_THRESHOLD)


def _one_shot_process() -> None:
    """Settings for a short process that evaluates one run and exits (the drop-ins), made before
    numpy loads.

    - numpy's BLAS starts no threads (:func:`main` says so for every command): the drop-ins use no
      linear algebra, and OpenBLAS's threads spin on the other cores while the process runs (about
      0.08 s of CPU a call, on two cores).
    - glibc keeps freed memory for reuse (:func:`inexeval.heap.keep_freed_memory`) from the start:
      ``trec-eval`` on 300,000 results took 31,600 page faults and 0.26 s, now 12,600 and 0.24 s.
    - no cyclic garbage collection: the process frees its arrays by reference counting and ends;
      the collector ran 44 times, 4.3 ms, mostly while modules load, and its full pass over every
      object as Python shuts down took about 6 ms more (:func:`_no_collection_at_exit`).
    """
    import gc

    from inexeval.heap import keep_freed_memory

    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    keep_freed_memory()
    gc.disable()
    _no_collection_at_exit()


def drop_in(name: str, argv: list[str]) -> int:
    """``inexeval NAME ARGV`` for a drop-in NAME: its exit status."""
    from inexeval.interrupts import signals_end_the_command

    _one_shot_process()
    from inexeval.cli.pipes import closed_pipes_ignored

    with signals_end_the_command(), closed_pipes_ignored():
        run_cli = importlib.import_module(DROP_INS[name]).run_cli  # (Ctrl-C while numpy loads: as any other)
        try:
            return run_cli(argv)
        except BrokenPipeError:  # (standard output not the process's own: closed_pipes_ignored left it alone)
            # the reader is gone: what is still buffered goes nowhere (no second error at exit)
            try:
                devnull = os.open(os.devnull, os.O_WRONLY)
                os.dup2(devnull, sys.stdout.fileno())
            except (OSError, ValueError, AttributeError):
                pass
            return 1
