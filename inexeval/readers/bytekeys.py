"""Byte strings as integers: uint64 keys that order exactly as the strings (byte order, as numpy
sorts an ``S`` array, shorter strings first when one is a prefix of the other) and are equal
exactly when the strings are, so that sorting, grouping and joining docnos is numeric.

The bytes occurring in the strings are renumbered 1 … m in byte order (NUL, the padding of an
``S`` array, is 0), and a string of up to W bytes is the base-2^b number of its codes, b = bits(m),
when W·b <= 64 ("D499-2999": 13 symbols, 4 bits, 10 x 4 = 40 bits).  Shorter strings are padded
with code 0, so a prefix sorts first.  Used by the docno join of the classic measures
(:mod:`inexeval.measures.classic_join`) and by the TREC readers' sorts.
"""

from __future__ import annotations

import numpy as np

#: Fibonacci hashing's multiplier (2^64 / the golden ratio, odd): the high bits of key·GOLDEN_MIX
#: (uint64, wrapping modulo 2^64) spread keys that differ only in their low bytes (docnos that are
#: numbers) over a whole table.
GOLDEN_MIX = np.uint64(0x9E3779B97F4A7C15)

__all__ = ["byte_matrix", "used_width", "pair_codes", "pack", "alphabet", "short_keys", "Packing", "order_keys",
           "packed_keys", "order_codes", "distinct", "distinct_keyed", "distinct_grouped", "block_starts", "dense_rank"]

_BITS = [max(1, (m).bit_length()) for m in range(257)]  # bits for codes 0 … m
_ABSENT = np.uint64(1 << 63)  # flag in a pair code: a byte outside the alphabet
#: Rows at each end of a column whose bytes are taken as the alphabet's first guess.
SAMPLE_ROWS = 2048


def byte_matrix(s: np.ndarray) -> np.ndarray:
    """The bytes of an ``S`` array as an ``(n, itemsize)`` uint8 matrix (no copy when contiguous)."""
    s = np.ascontiguousarray(s)
    return s.view(np.uint8).reshape(s.size, s.dtype.itemsize)


def used_width(b: np.ndarray) -> int:
    """Columns of byte matrix B up to the last one holding a non-NUL byte.

    Rows of 8k bytes (the readers' ``S`` columns) are read as k little-endian words: the OR of a
    column of words has byte i set when some row has byte i of that word, so its highest set bit
    gives the width, one pass a word rather than one a byte."""
    if b.shape[1] % 8 == 0 and b.flags.c_contiguous:
        words = b.view("<u8")
        for j in range(words.shape[1] - 1, -1, -1):
            seen = int(np.bitwise_or.reduce(words[:, j])) if words.shape[0] else 0
            if seen:
                return 8 * j + (seen.bit_length() + 7) // 8
        return 0
    for c in range(b.shape[1] - 1, -1, -1):
        if b[:, c].any():
            return c + 1
    return 0


def pair_codes(alphabet: np.ndarray) -> tuple[np.ndarray, int]:
    """Codes of byte pairs, indexed by the pair read as a little-endian uint16, and bits per byte.

    A byte's code is its rank among the present non-NUL bytes (1 … m), NUL's is 0; a pair's code is
    ``code(first) << bits | code(second)``, with :data:`_ABSENT` set if a byte is not in ALPHABET.
    """
    present = alphabet.copy()
    present[0] = True
    code = np.cumsum(present, dtype=np.uint64) - np.uint64(1)  # NUL -> 0, present bytes 1 … m
    code[~present] = _ABSENT
    bits = _BITS[int(present.sum()) - 1]
    v = np.arange(65536)
    lo, hi = code[v & 255], code[v >> 8]
    return (lo << np.uint64(bits)) | hi | ((lo | hi) & _ABSENT), bits


def pack(b: np.ndarray, pairs: np.ndarray, bits: int, width: int) -> tuple[np.ndarray, bool]:
    """Keys of the rows of byte matrix B (WIDTH bytes, WIDTH even, B at least that wide, or narrower
    and then NUL-padded): the byte codes as base-2^bits digits.  Also whether every byte had a code."""
    n = b.shape[0]
    have = min(width, b.shape[1] - b.shape[1] % 2)
    if have < width and have < b.shape[1]:  # an odd last column: copy with a NUL column
        b = np.concatenate((b[:, : have + 1], np.zeros((n, 1), dtype=np.uint8)), axis=1)
        have += 2
    u16 = np.ascontiguousarray(b[:, :have]).view(np.uint16) if have else np.zeros((n, 0), dtype=np.uint16)
    acc = np.zeros(n, dtype=np.uint64)
    flags = np.zeros(n, dtype=np.uint64)
    shift = np.uint64(2 * bits)
    for j in range(u16.shape[1]):
        v = pairs[u16[:, j]]
        acc <<= shift
        acc |= v
        flags |= v
    acc <<= np.uint64(bits * (width - have))  # columns past B's width: NUL, code 0
    return acc, not (flags & _ABSENT).any()


def alphabet(b: np.ndarray, sample: bool = False) -> np.ndarray:
    """Which bytes occur in byte matrix B (a 256-flag mask), NUL always (the padding, code 0: so that
    two alphabets of the same bytes are the same mask, whatever their padding); SAMPLE: in its first
    and last :data:`SAMPLE_ROWS` rows only (a guess, which :func:`pack`'s completeness flag checks)."""
    present = np.zeros(256, dtype=bool)
    present[0] = True
    for part in ((b[:SAMPLE_ROWS], b[-SAMPLE_ROWS:]) if sample and b.shape[0] > 2 * SAMPLE_ROWS else (b,)):
        present[part.reshape(-1)] = True  # (np.unique would import numpy.ma: 20 ms)
    return present


def short_keys(b: np.ndarray, width: int) -> np.ndarray:
    """Keys of the rows of byte matrix B when no row has more than WIDTH <= 8 bytes: the bytes,
    NUL-padded to 8, read as one big-endian number (byte order is the numbers' order)."""
    m = np.zeros((b.shape[0], 8), dtype=np.uint8)
    w = min(width, b.shape[1])
    m[:, :w] = b[:, :w]
    return m.view(">u8").ravel().astype(np.uint64)


class Packing:
    """How :func:`packed_keys` made a column's keys: LETTERS, the alphabet of the packing (a 256-flag
    mask; None: the bytes themselves, :func:`short_keys`), WIDTH the width packed (even; up to 8
    for the bytes themselves) and USED the column's :func:`used_width`.  Keys of other strings
    made the same way compare with them (:func:`inexeval.measures.classic_join.docno_keys`)."""

    __slots__ = ("letters", "width", "used")

    def __init__(self, letters: np.ndarray | None, width: int, used: int):
        self.letters, self.width, self.used = letters, width, used


def order_keys(s: np.ndarray) -> np.ndarray | None:
    """uint64 keys of the items of the ``S`` array S, in the order and with the equalities of the
    items themselves; None when they do not fit in 64 bits (too many distinct bytes for the
    width) or S is an object array (very long fields, readers/trec.py) (:func:`packed_keys`)."""
    return packed_keys(s)[0]


def packed_keys(s: np.ndarray) -> tuple[np.ndarray | None, Packing | None]:
    """:func:`order_keys`, and how they were made (:class:`Packing`; None with no keys).

    Up to 8 bytes the bytes are the key (:func:`short_keys`); longer strings are packed
    (:func:`pack`) with the alphabet of a sample of rows, then, if a byte was missing, of all.
    """
    if s.dtype == object:
        return None, None
    b = byte_matrix(s)
    used = width = used_width(b)
    if width <= 8:
        return short_keys(b, width), Packing(None, width, used)
    b = b[:, :width]
    width += width % 2
    present = alphabet(b, sample=True)
    for _ in range(2):
        pairs, bits = pair_codes(present)
        if width * bits > 64:  # (a sample's alphabet is no larger than the whole one)
            return None, None
        key, complete = pack(b, pairs, bits, width)
        if complete:
            return key, Packing(present, width, used)
        present = alphabet(b)
    return None, None  # (not reached: the whole alphabet is complete)


def order_codes(s: np.ndarray) -> np.ndarray:
    """Integer codes of the items of S (``S`` or object array of bytes) in their order and with
    their equalities: :func:`order_keys`, or their ranks among the distinct items (a string sort).
    ``~codes`` orders them the other way."""
    k = order_keys(s)
    if k is None:
        _, k = np.unique(s, return_inverse=True)
        k = k.ravel()
    return k


def distinct(s: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``np.unique(s, return_inverse=True)`` (inverse flat), sorting :func:`order_keys` rather than
    the strings when they fit."""
    return distinct_keyed(s)[:2]


def distinct_keyed(s: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray | None, Packing | None]:
    """:func:`distinct`, and the keys of the distinct items (increasing) with their :class:`Packing`
    (None, None: the strings were sorted)."""
    k, how = packed_keys(s)
    if k is None:
        u, inv = np.unique(s, return_inverse=True)
        return u, inv.ravel(), None, None
    o, new = _sorted_runs(k)
    inv = np.empty(k.size, dtype=np.int64)
    inv[o] = np.cumsum(new) - 1
    first = o[new]
    return s[first], inv, k[first], how  # (equal keys: equal strings, so any row of a value shows it)


def distinct_grouped(s: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """:func:`distinct` for a column whose equal items mostly stand together (topic ids): computed on
    the first item of each block of equal neighbours, when the blocks are few."""
    starts = block_starts(s)
    if 4 * starts.size > s.size:
        return distinct(s)
    u, inv = distinct(s[starts])
    return u, np.repeat(inv, np.diff(np.append(starts, s.size)))


def block_starts(s: np.ndarray) -> np.ndarray:
    """Index (int64) of the first item of every block of equal neighbours in S (none if S is empty)."""
    if not s.size:
        return np.empty(0, dtype=np.int64)
    if s.dtype.kind == "S" and s.dtype.itemsize % 8 == 0 and s.flags.c_contiguous:
        # items of 8k bytes compared as k words (NUL-padded, so equal items have equal bytes): the
        # string comparison costs several times more
        w = s.view(np.uint64).reshape(s.size, s.dtype.itemsize // 8)
        change = w[1:, 0] != w[:-1, 0]
        for j in range(1, w.shape[1]):
            change |= w[1:, j] != w[:-1, j]
    else:
        change = s[1:] != s[:-1]
    return np.concatenate(([0], np.flatnonzero(change) + 1))


def dense_rank(x: np.ndarray) -> tuple[np.ndarray, int]:
    """0-based rank (int64) of every value of X among its distinct values, and their number."""
    o, new = _sorted_runs(x)
    r = np.cumsum(new) - 1
    out = np.empty(x.size, dtype=np.int64)
    out[o] = r
    return out, int(r[-1]) + 1 if r.size else 0


def _sorted_runs(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """An order O that sorts X (numpy's quick argsort), and where in it a new value starts."""
    o = np.argsort(x)
    xs = x[o]
    new = np.empty(xs.size, dtype=bool)
    new[:1] = True
    np.not_equal(xs[1:], xs[:-1], out=new[1:])
    return o, new
