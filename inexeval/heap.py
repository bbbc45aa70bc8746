"""glibc's allocator told to keep freed memory for reuse (no numpy here: the drop-ins call it before
numpy loads)."""

from __future__ import annotations

import os

_SET = False


def keep_freed_memory() -> None:
    """Let glibc's malloc reuse freed memory for large arrays instead of returning it to the system.

    The TREC readers and the docno join make many short-lived arrays of a few MB;
    by default glibc maps each afresh and unmaps it when freed, so every one
    costs its page faults again (up to a fifth of the CPU time of a TREC
    evaluation; a third of the page faults of a ``trec-eval`` call).  Arrays
    up to 256 MB are taken from the heap instead, and up to 512 MB freed at
    its top are kept: the peak stays within 2 % on the benchmarks, the faults
    are gone.  Once per process, only where the C library is glibc; the
    TREC readers call it once an input of 4 MB or more is read, the FOL qrels
    reader when it reads with numpy (a FOL config's qrels and runs of a few MB:
    5–6 % of its time), the drop-ins at their start.
    """
    global _SET
    if _SET:
        return
    _SET = True
    try:
        if not os.confstr("CS_GNU_LIBC_VERSION"):
            return
        import ctypes

        libc = ctypes.CDLL(None)
        libc.mallopt(-3, 256 << 20)  # M_MMAP_THRESHOLD
        libc.mallopt(-1, 512 << 20)  # M_TRIM_THRESHOLD
    except (AttributeError, OSError, ValueError):
        pass
