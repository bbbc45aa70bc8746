"""inexeval.heap.keep_freed_memory: glibc serves large arrays from its heap (no fresh mapping, and its
page faults, for each), set by the readers that make many arrays of a few MB: the FOL qrels reader
when it reads with numpy, the TREC readers from 4 MB on, and the drop-ins at their start.

Observed through glibc's ``mallinfo2().hblks`` (chunks allocated by mmap): a 16 MB allocation adds one
by default and none once freed memory is kept."""

from __future__ import annotations

import ctypes
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

_PROBE = r"""
import ctypes, sys
class M(ctypes.Structure):
    _fields_ = [(n, ctypes.c_size_t) for n in ("arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks",
                                              "fsmblks", "uordblks", "fordblks", "keepcost")]
libc = ctypes.CDLL(None)
libc.mallinfo2.restype = M
import numpy
{setup}
before = libc.mallinfo2().hblks
block = numpy.ones(16 << 20, dtype=numpy.uint8)
print(libc.mallinfo2().hblks - before)
"""


def _glibc_with_mallinfo2() -> bool:
    try:
        return bool(os.confstr("CS_GNU_LIBC_VERSION")) and hasattr(ctypes.CDLL(None), "mallinfo2")
    except (ValueError, OSError, AttributeError):
        return False


def _mapped_chunks_of_a_large_array(setup: str) -> int:
    proc = subprocess.run([sys.executable, "-c", _PROBE.replace("{setup}", setup)], capture_output=True, text=True,
                          env=dict(os.environ, PYTHONPATH=str(ROOT)), check=True)
    return int(proc.stdout)


@pytest.mark.skipif(not _glibc_with_mallinfo2(), reason="needs glibc 2.33+ (mallinfo2) to see where arrays come from")
def test_the_fol_qrels_reader_keeps_freed_memory_for_the_arrays(tmp_path):
    qrels = tmp_path / "qrels.txt"
    qrels.write_text("2009001 Q0 851 7300 10656 100 1205:3431 4643:720\n2009001 Q0 852 10 300 0\n")
    assert _mapped_chunks_of_a_large_array("") == 1  # glibc's default: a fresh mapping
    read = f"from inexeval.readers.fol import read_fol_qrels; read_fol_qrels({str(qrels)!r})"
    assert _mapped_chunks_of_a_large_array(read) == 0
    assert _mapped_chunks_of_a_large_array("from inexeval.heap import keep_freed_memory; keep_freed_memory()") == 0
