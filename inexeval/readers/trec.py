"""TREC qrels and run files, read into numpy columns (docs/formats.md §8).

Formats (whitespace-separated, one record a line):

- qrels: ``qid iter docno rel`` (``iter`` ignored; ``rel`` an integer);
- run: ``qid Q0 docno rank score tag`` (``Q0`` and ``rank`` ignored).

A file may be plain or gzip-compressed (detected by its magic bytes), and
``-`` reads standard input.  A UTF-8 byte-order mark at the start is
dropped; a UTF-16 file (with its byte-order mark) is read as its UTF-8
text; bytes that are not valid UTF-16 are an error.  Blank lines and lines whose first non-blank
character is ``#`` are skipped.  A line with the wrong number of columns, a
``rel`` that is not an integer or a score that is not a finite number is an
:class:`~inexeval.errors.InputError` naming file and line.  Numbers are read as C reads them
(trec_eval's ``atol`` and ``atof``), but only when C would read the whole field: ``rel`` is
``[+-]digits`` within 64 bits, a score anything ``strtod`` reads to its end (``1e-3``, ``+.5``,
``0x1p-3``); ``1_0``, ``1.5`` as a ``rel``, ``١`` or ``2x`` are refused, where trec_eval would read
a prefix of them (docs/formats.md §1.7, :mod:`inexeval.readers.trec_numbers`).

Parsing is vectorised, with no Python code per line except on the error
path (and for comment lines):

1. token boundaries come from one pass over the byte buffer;
2. the column count of every line is checked with two binary searches (the
   first and last token of every record must share a line, records must
   be on different lines); only a file that fails gets the per-line count
   that names its first bad line;
3. a field is cut out of the buffer 8 bytes at a time: an unaligned
   little-endian ``uint64`` view of the buffer is indexed at the field's
   start (+8, +16, …) and the bytes past the field's end are masked off.
   The resulting ``(n, k)`` words are, byte for byte, the field padded with
   NULs to 8k bytes, so the same memory is also a numpy ``S{8k}`` array.

A column whose fixed width would cost far more than its text (one docno of
50,000 bytes among 200,000 short ones would ask for 10 GB) is kept as an
object array of ``bytes`` instead, which compares and sorts the same way.

Ids stay ``bytes`` (numpy ``S`` arrays, or ``object`` arrays of ``bytes``): trec_eval compares them with
``strcmp``, which is byte order; trailing NULs do not count in numpy's ``S``
comparisons, so the padding changes no comparison.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

import numpy as np

from inexeval.errors import InputError
from inexeval.heap import keep_freed_memory
from inexeval.readers.bytekeys import Packing, distinct_grouped, distinct_keyed
from inexeval.readers.trec_numbers import (
    BLOCK_ROWS, c_integer, c_number, c_reading, only_decimal_bytes, plain_decimals, plain_integers,
)
from inexeval.records import field, record

if TYPE_CHECKING:  # (pathlib costs the drop-in 2.4 ms to import)
    from pathlib import Path

__all__ = ["Qrels", "TrecRun", "read_qrels", "read_run", "read_source", "run_from_bytes"]

#: Bytes that ``bytes.split()`` treats as white space.
_WS = np.zeros(256, dtype=bool)
_WS[[0x20, 0x09, 0x0A, 0x0B, 0x0C, 0x0D]] = True

#: ``_LOW[m]`` keeps the m lowest-addressed bytes of a little-endian word (m = 0 … 8).
_LOW = np.array([(1 << (8 * m)) - 1 for m in range(9)], dtype=np.uint64)
_WORD = np.dtype("<u8")


@record(slots=True)
class Qrels:
    """Judgements, sorted by (qid, docno) in byte order; one row a judgement."""

    source: str
    qid: np.ndarray  # S, per row
    docno: np.ndarray  # S, per row
    rel: np.ndarray  # int64, per row
    line: np.ndarray  # int64, 1-based line of each row
    vocab: np.ndarray | None = None  # the distinct docnos, sorted (None: not computed)
    code: np.ndarray | None = None  # per row: its docno's index in vocab
    vocab_key: np.ndarray | None = None  # vocab's integer keys (bytekeys.packed_keys), if it had them
    packing: Packing | None = None  # ... and how they were made


@record(slots=True)
class TrecRun:
    """A run in file order; one row a result."""

    source: str
    qid: np.ndarray  # S
    docno: np.ndarray  # S
    score: np.ndarray  # float64
    line: np.ndarray  # int64
    tags: list[str] = field(default_factory=list)  # distinct tags, first-seen order


#: Byte-order marks: UTF-8 (dropped) and UTF-16 (the text is decoded and re-encoded as UTF-8).
BOM_UTF8 = b"\xef\xbb\xbf"
_BOM_UTF16 = (b"\xff\xfe", b"\xfe\xff")


_LARGE = 1 << 22  # inputs from this size on (4 MB) make many arrays of a few MB: see keep_freed_memory


def read_source(path: str | Path) -> tuple[bytes, str]:
    """The bytes of PATH (``-``: standard input), gunzipped if compressed, and its display name.

    A leading UTF-8 byte-order mark is dropped (it would otherwise become
    part of the first topic id); a UTF-16 file, recognised by its
    byte-order mark, is returned as UTF-8.  Compressed data is decompressed as a stream and, like
    the lines, bounded (docs/formats.md §1.6: InputError naming the file, and the line).
    """
    from inexeval.readers import bounded_content

    name = "<stdin>" if str(path) == "-" else str(path)
    try:
        if str(path) == "-":
            data = bounded_content(sys.stdin.buffer.read(), name, lines=True)
        else:
            with open(path, "rb") as f:
                data = bounded_content(f, name, lines=True)
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror or exc}", name) from None
    if len(data) > _LARGE:
        keep_freed_memory()
    if data[:3] == BOM_UTF8:
        data = data[3:]
    elif data[:2] in _BOM_UTF16:
        try:
            data = data.decode("utf-16").encode("utf-8")
        except UnicodeDecodeError as exc:
            line = data[: exc.start].decode("utf-16", "replace").count("\n") + 1
            raise InputError(f"bad UTF-16 text (the file starts with a UTF-16 byte-order mark): {exc.reason}",
                             name, line) from None
    return data, name


def drop_comments(data: bytes) -> bytes:
    """Blank out ``#`` comment lines, keeping the line count (so line numbers stay right)."""
    if b"#" not in data:
        return data
    lines = data.split(b"\n")
    return b"\n".join(b"" if ln.lstrip().startswith(b"#") else ln for ln in lines)


def _tokens(buf: np.ndarray, newlines: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Start and end (exclusive) offsets of the white-space separated tokens of BUF; NEWLINES: its
    number of newline bytes, if known."""
    ws = buf <= 0x20
    # control bytes that are not white space (0x00-0x08, 0x0E-0x1F): use the exact table (most files'
    # only control bytes are their newlines, which one count tells)
    ctrl = np.count_nonzero(buf < 0x20)
    if ctrl and ctrl != (np.count_nonzero(buf == 0x0A) if newlines is None else newlines):
        if (buf < 0x09).any() or ((buf - np.uint8(0x0E)) < 0x12).any():
            ws = _WS[buf]
    # where white space starts or stops, as if a blank stood before and after BUF (no padded copy)
    n = buf.size
    change = np.empty(n + 1, dtype=bool)
    np.not_equal(ws[1:], ws[:-1], out=change[1:n])
    change[0], change[n] = (not ws[0], not ws[-1]) if n else (False, False)
    del ws
    edges = np.flatnonzero(change)  # token start, end, start, end, ...
    return edges[0::2], edges[1::2]


def _record_lines(
    buf: np.ndarray, starts: np.ndarray, ends: np.ndarray, ncols: int, name: str, what: str,
    newlines: int | None = None,
) -> np.ndarray:
    """1-based line of every record, after checking that each non-blank line has NCOLS tokens.

    The tokens are cut into consecutive groups of NCOLS.  Without blank
    lines (n groups, n or n − 1 newlines) every line holds exactly one group
    iff group r lies between newline r − 1 and newline r.  Otherwise: iff
    each group's first and last token share a line and consecutive groups
    do not (two binary searches).  A file failing the check gets the
    per-line count that names its first bad line.

    Checked first, without the newlines' positions: if every group's last
    token is followed at once by a newline (the last group's: or by the end
    of the data) and there are no other newlines, group r is line r + 1.  NEWLINES: the number of
    newline bytes of BUF, if known.
    """
    n = starts.size // ncols
    if n and starts.size % ncols == 0:
        after = ends[ncols - 1 :: ncols]
        tail = int(after[-1] == buf.size)  # the last line has no newline
        if newlines is None:
            newlines = np.count_nonzero(buf == 0x0A)
        if newlines == n - tail and (buf[after[: n - tail]] == 0x0A).all():
            return np.arange(1, n + 1, dtype=np.int64)
    newlines = np.flatnonzero(buf == 0x0A)
    if starts.size % ncols == 0:
        first_start, last_end = starts[0::ncols], ends[ncols - 1 :: ncols]
        if n and newlines.size in (n, n - 1):
            hi = newlines if newlines.size == n else np.append(newlines, buf.size)
            if (last_end <= hi).all() and (first_start[1:] > newlines[: n - 1]).all():
                return np.arange(1, n + 1, dtype=np.int64)
        first = np.searchsorted(newlines, first_start)  # 0-based line of each group's first token
        last = np.searchsorted(newlines, starts[ncols - 1 :: ncols])
        if np.array_equal(first, last) and (first[1:] > first[:-1]).all():
            return first.astype(np.int64) + 1
    cut = np.searchsorted(starts, newlines)  # tokens before each newline
    per_line = np.diff(np.concatenate(([0], cut, [starts.size])))
    bad = np.flatnonzero((per_line != 0) & (per_line != ncols))
    ln = int(bad[0])  # the fast check failed, so some line is bad
    raise InputError(
        f"malformed {what} line: expected {ncols} columns, found {int(per_line[ln])}", name, ln + 1
    )


#: A column is cut into fixed-width ``S`` items only while that costs at most this many times its
#: text (each field counted with one 8-byte word more), plus a floor; past it the column is an
#: object array of ``bytes`` (see the module doc).
_WIDE_FACTOR = 4
_WIDE_FLOOR = 1 << 24


def _field_words(data: bytes, s: np.ndarray, length: np.ndarray, k: int) -> np.ndarray:
    """The fields ``data[s[i]:s[i] + length[i]]`` (at most 8k bytes each) as ``(n, k)`` little-endian
    words, NUL-padded to 8k bytes; ``words.view(f"S{8 * k}")`` is the same memory as a bytes array.
    Made :data:`~inexeval.readers.trec_numbers.BLOCK_ROWS` rows at a time (temporaries in cache)."""
    n = s.size
    out = np.empty((n, k), dtype=_WORD)
    size = len(data)
    if size >= 8:
        # element i of `word` is the 8 bytes at offset i (unaligned, overlapping)
        word = np.ndarray(shape=(size - 7,), dtype=_WORD, buffer=data, strides=(1,))
    for lo in range(0, n, BLOCK_ROWS):
        hi = min(n, lo + BLOCK_ROWS)
        sb, lb = s[lo:hi], length[lo:hi]
        for j in range(k):
            at = sb + 8 * j if j else sb
            left = lb - 8 * j if j else lb  # bytes of the field from this word on
            keep = _LOW[np.maximum(np.minimum(left, 8), 0) if j else np.minimum(left, 8)]
            tail = int(np.searchsorted(at, size - 8, side="right")) if size >= 8 else 0  # rows too near the end
            if tail:
                np.bitwise_and(word[at[:tail]], keep[:tail], out=out[lo:lo + tail, j])
            for i in range(tail, hi - lo):  # the last few fields: read into a padded copy
                chunk = data[int(at[i]) : int(at[i]) + 8].ljust(8, b"\0")
                out[lo + i, j] = np.frombuffer(chunk, dtype=_WORD)[0] & keep[i]
    return out


def column(data: bytes, s: np.ndarray, e: np.ndarray) -> np.ndarray:
    """The fields ``data[s[i]:e[i]]``: an ``S`` array, or an object array of ``bytes`` when the
    fixed width would cost more than :data:`_WIDE_FACTOR` times the text (one very long field)."""
    # (a column of the token table is a strided view: copied once, each row's cache line read once)
    s, e = np.ascontiguousarray(s), np.ascontiguousarray(e)
    n = s.size
    length = e - s
    k = max(1, -(-int(length.max()) // 8)) if n else 1
    # (with k <= _WIDE_FACTOR the width never costs more: no need to add up the lengths)
    if k > _WIDE_FACTOR and n * 8 * k > _WIDE_FACTOR * (int(length.sum()) + 8 * n) + _WIDE_FLOOR:
        col = np.empty(n, dtype=object)
        col[:] = [data[a:b] for a, b in zip(s.tolist(), e.tolist())]
        if b"\0" in data:  # as in an S array (and in trec_eval's C strings), trailing NULs do not count
            col[:] = [x.rstrip(b"\0") for x in col.tolist()]
        return col
    return as_bytes(_field_words(data, s, length, k))


def records(data: bytes, ncols: int, name: str, what: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Start and end of every token of DATA, after checking that every record has NCOLS of them, and each
    record's line."""
    buf = np.frombuffer(data, dtype=np.uint8)
    newlines = int(np.count_nonzero(buf == 0x0A))  # (both steps want it)
    starts, ends = _tokens(buf, newlines)
    return starts, ends, _record_lines(buf, starts, ends, ncols, name, what, newlines)


def as_bytes(words: np.ndarray) -> np.ndarray:
    """The ``S`` array sharing the memory of ``(n, k)`` field words."""
    return words.view(f"S{8 * words.shape[1]}").reshape(words.shape[0])


def _bad_value(col: np.ndarray, lines: np.ndarray, convert, name: str, what: str) -> InputError:
    """The error for the first value of COL that CONVERT rejects (its reason in parentheses)."""
    for i, tok in enumerate(col.tolist()):
        try:
            convert(tok)
        except (ValueError, OverflowError) as exc:
            text = tok.decode('utf-8', 'replace')
            shown = repr(text if len(text) <= 60 else text[:60] + "...")
            why = f" ({exc})" if exc.args and isinstance(exc.args[0], str) else ""
            return InputError(f"bad {what}: {shown}{why}", name, int(lines[i]))
    return InputError(f"bad {what}", name)  # pragma: no cover - numpy and Python disagree


def _finite_float(tok: bytes) -> float:
    """A score: a field C's ``strtod`` reads to its end, finite (ValueError with the reason)."""
    x = c_number(tok)
    if x is None:
        raise ValueError(f"not a number as C's strtod reads a whole field; trec_eval would read "
                         f"{c_reading(tok)}")
    if x - x != 0.0:
        raise ValueError("not a finite number")
    return x


def _integer(tok: bytes) -> int:
    """A judgement: ``[+-]digits`` within 64 bits (ValueError with the reason)."""
    x = c_integer(tok)
    if x is None:
        raise ValueError(f"not an integer of at most 64 bits written [+-]digits; trec_eval would read "
                         f"{c_reading(tok, integer=True)}")
    return x


def read_qrels(path: str | Path) -> Qrels:
    """Read a qrels file (``qid iter docno rel``); duplicates (qid, docno) are errors."""
    data, name = read_source(path)
    data = drop_comments(data)
    starts, ends, lines = records(data, 4, name, "qrels")
    qid, docno = (column(data, starts[c::4], ends[c::4]) for c in (0, 2))
    rel = integers(data, starts[3::4], ends[3::4], lines, name, "relevance value")
    order, vocab, code, vocab_key, packing = sort_pairs_keyed(qid, docno)
    qid, docno, rel, lines, code = qid[order], docno[order], rel[order], lines[order], code[order]
    dup = np.flatnonzero((qid[1:] == qid[:-1]) & (docno[1:] == docno[:-1]))
    if dup.size:
        # report the later of the two lines of the earliest duplicate pair
        later = np.maximum(lines[dup], lines[dup + 1])
        k = int(np.argmin(later))
        i = int(dup[k])
        raise InputError(
            f"duplicate judgement for topic {qid[i].decode('utf-8', 'replace')}, "
            f"document {docno[i].decode('utf-8', 'replace')} (also line {int(min(lines[i], lines[i + 1]))})",
            name,
            int(later[k]),
        )
    return Qrels(name, qid, docno, rel, lines, vocab, code, vocab_key, packing)


def scores(data: bytes, s: np.ndarray, e: np.ndarray, lines: np.ndarray, name: str) -> np.ndarray:
    """The score fields ``data[s[i]:e[i]]`` as finite float64 (:func:`_numbers`)."""
    return _numbers(data, s, e, lines, name, "score", plain_decimals, _finite_float)


def integers(data: bytes, s: np.ndarray, e: np.ndarray, lines: np.ndarray, name: str, what: str) -> np.ndarray:
    """The fields ``data[s[i]:e[i]]`` as int64 (:func:`_numbers`)."""
    return _numbers(data, s, e, lines, name, what, plain_integers, _integer)


def _numbers(data: bytes, s: np.ndarray, e: np.ndarray, lines: np.ndarray, name: str, what: str,
             plain, convert) -> np.ndarray:
    """The fields ``data[s[i]:e[i]]`` as numbers: the plain ones straight from the bytes (PLAIN, from
    :mod:`inexeval.readers.trec_numbers`), the others through numpy's conversion to the same dtype
    when they hold only the bytes of decimal numbers (where Python's syntax, which numpy uses, is
    C's: :func:`~inexeval.readers.trec_numbers.only_decimal_bytes`), else one by one with CONVERT;
    an error (what CONVERT rejects; for floats, also a value that is not finite) names the first
    bad field's line."""
    s, e = np.ascontiguousarray(s), np.ascontiguousarray(e)  # (see column)
    value, ok = plain(data, s, e)
    if not ok.all():
        rest = np.flatnonzero(~ok)
        col = column(data, s[rest], e[rest])
        try:
            if only_decimal_bytes(data, s[rest], e[rest]):
                value[rest] = col.astype(value.dtype)
            else:
                value[rest] = np.fromiter(map(convert, col.tolist()), dtype=value.dtype, count=rest.size)
        except (ValueError, OverflowError):
            raise _bad_value(col, lines[rest], convert, name, what) from None
        if value.dtype.kind == "f" and not np.isfinite(value[rest]).all():
            raise _bad_value(col, lines[rest], convert, name, what)
    return value


#: A combined int64 sort key must stay below this (else a stable sort of the pair's key).
_KEY_LIMIT = 2**62


def sort_pairs(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Stable order of rows by (a, b), both ``S`` arrays, in byte order; also the distinct values of B
    (sorted) and each row's index among them.

    Each column is turned into integer codes (:func:`~inexeval.readers.bytekeys.distinct`: a sort of
    integer keys when the strings fit in 64 bits, else a string sort; A, the topic ids, once per
    block of equal ids); the pair, with the row's index to keep equal pairs in file order, then
    sorts as one integer key.
    """
    return sort_pairs_keyed(a, b)[:3]


def sort_pairs_keyed(a: np.ndarray, b: np.ndarray):
    """:func:`sort_pairs`, and the integer keys of B's distinct values with their packing
    (:func:`~inexeval.readers.bytekeys.distinct_keyed`; None, None when the strings were sorted)."""
    ua, ca = distinct_grouped(a)
    ub, cb, ukeys, how = distinct_keyed(b)
    n, nb = a.size, max(ub.size, 1)
    key = ca.astype(np.int64) * nb + cb
    if ua.size * nb * n < _KEY_LIMIT:  # the row index makes every key distinct: no stable sort needed
        key *= n
        key += np.arange(n)
        return np.argsort(key), ub, cb, ukeys, how
    return np.argsort(key, kind="stable"), ub, cb, ukeys, how


def read_run(path: str | Path) -> TrecRun:
    """Read a TREC run (``qid Q0 docno rank score tag``) in file order.

    A run without results (an empty file, or only comments and blank lines)
    is a run that retrieved nothing: no rows and no tag (the caller warns,
    as for INEX runs, docs/formats.md §8).
    """
    data, name = read_source(path)
    return run_from_bytes(data, name)


def run_from_bytes(data: bytes, name: str, first_line: int = 1) -> TrecRun:
    """:func:`read_run` of the text DATA of the file NAME (FIRST_LINE: the number of its first line,
    for a piece of a file, :mod:`inexeval.readers.trec_chunks`)."""
    data = drop_comments(data)
    starts, ends, lines = records(data, 6, name, "run")
    if first_line != 1:
        lines += first_line - 1
    if not lines.size:
        empty = np.empty(0, dtype="S1")
        return TrecRun(name, empty, empty.copy(), np.empty(0, dtype=np.float64), lines, [])
    qid, docno, tag_col = (column(data, starts[c::6], ends[c::6]) for c in (0, 2, 5))
    score = scores(data, starts[4::6], ends[4::6], lines, name)
    if (tag_col == tag_col[0]).all():
        tags = [tag_col[0].decode("utf-8", "replace")]
    else:
        uniq, first = np.unique(tag_col, return_index=True)
        tags = [t.decode("utf-8", "replace") for t in uniq[np.argsort(first)]]
    return TrecRun(name, qid, docno, score, lines, tags)
