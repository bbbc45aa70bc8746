"""TREC qrels and run files, read into numpy columns (SPEC §8).

Formats (whitespace-separated, one record a line):

- qrels: ``qid iter docno rel`` (``iter`` ignored; ``rel`` an integer);
- run: ``qid Q0 docno rank score tag`` (``Q0`` and ``rank`` ignored).

A file may be plain or gzip-compressed (detected by its magic bytes), and
``-`` reads standard input.  Blank lines and lines whose first non-blank
character is ``#`` are skipped.  A line with the wrong number of columns, a
non-integer ``rel`` or a score that is not a finite number is an
:class:`~inexeval.errors.InputError` naming file and line.

Parsing is vectorised: token boundaries are found on the byte buffer and
fields gathered into numpy ``S`` arrays; column count of every line is checked with numpy, so no Python code runs
per line except on the error path (and for comment lines).  Ids stay ``bytes`` (numpy ``S`` arrays):
trec_eval compares them with ``strcmp``, which is byte order.
"""

from __future__ import annotations

import gzip
import sys
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from inexeval.errors import InputError

__all__ = ["Qrels", "TrecRun", "read_qrels", "read_run", "read_source"]

#: Bytes that ``bytes.split()`` treats as white space.
_WS = np.zeros(256, dtype=bool)
_WS[[0x20, 0x09, 0x0A, 0x0B, 0x0C, 0x0D]] = True


@dataclass(slots=True)
class Qrels:
    """Judgements, sorted by (qid, docno) in byte order; one row a judgement."""

    source: str
    qid: np.ndarray  # S, per row
    docno: np.ndarray  # S, per row
    rel: np.ndarray  # int64, per row
    line: np.ndarray  # int64, 1-based line of each row


@dataclass(slots=True)
class TrecRun:
    """A run in file order; one row a result."""

    source: str
    qid: np.ndarray  # S
    docno: np.ndarray  # S
    score: np.ndarray  # float64
    line: np.ndarray  # int64
    tags: list[str] = field(default_factory=list)  # distinct tags, first-seen order


def read_source(path: str | Path) -> tuple[bytes, str]:
    """The bytes of PATH (``-``: standard input), gunzipped if compressed, and its display name."""
    name = "<stdin>" if str(path) == "-" else str(path)
    try:
        if str(path) == "-":
            data = sys.stdin.buffer.read()
        else:
            data = Path(path).read_bytes()
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror or exc}", name) from None
    if data[:2] == b"\x1f\x8b":
        try:
            data = gzip.decompress(data)
        except (OSError, EOFError) as exc:
            raise InputError(f"bad gzip data: {exc}", name) from None
    return data, name


def _drop_comments(data: bytes) -> bytes:
    """Blank out ``#`` comment lines, keeping the line count (so line numbers stay right)."""
    if b"#" not in data:
        return data
    lines = data.split(b"\n")
    return b"\n".join(b"" if ln.lstrip().startswith(b"#") else ln for ln in lines)


def _columns(
    data: bytes, ncols: int, want: tuple[int, ...], name: str, what: str
) -> tuple[list[np.ndarray], np.ndarray]:
    """Fields ``want`` of every ``ncols``-field record of DATA as ``S`` arrays, and each record's 1-based line.

    Every non-blank line must have exactly ``ncols`` fields; the first line
    that has not is reported.  Fields are cut out of the byte buffer with
    numpy gathers, so no Python object is made per token.
    """
    buf = np.frombuffer(data, dtype=np.uint8)
    if buf.size == 0:
        return [np.zeros(0, "S1")] * len(want), np.zeros(0, dtype=np.int64)
    ws = buf <= 0x20
    ctrl = buf[buf < 0x20]
    if ((ctrl < 0x09) | (ctrl > 0x0D)).any():  # control bytes that are not white space: exact table
        ws = _WS[buf]
    padded = np.ones(buf.size + 2, dtype=bool)  # white space, with a blank before and after
    padded[1:-1] = ws
    edges = np.flatnonzero(np.diff(padded.view(np.int8)))  # token start, end, start, end, ...
    starts, ends = edges[0::2], edges[1::2]
    newlines = np.flatnonzero(buf == 0x0A)
    cut = np.searchsorted(starts, newlines)  # tokens before each newline
    per_line = np.diff(np.concatenate(([0], cut, [starts.size])))
    bad = np.flatnonzero((per_line != 0) & (per_line != ncols))
    if bad.size:
        ln = int(bad[0])
        raise InputError(
            f"malformed {what} line: expected {ncols} columns, found {int(per_line[ln])}",
            name,
            ln + 1,
        )
    if starts.size == 0:
        return [np.zeros(0, "S1")] * len(want), np.zeros(0, dtype=np.int64)
    lines = np.searchsorted(newlines, starts[0::ncols]).astype(np.int64) + 1
    widths = {c: int((ends[c::ncols] - starts[c::ncols]).max()) for c in want}
    tail = np.zeros(max(widths.values()), dtype=np.uint8)
    padded_buf = np.concatenate((buf, tail))  # gathers may run past the end
    itype = np.int32 if padded_buf.size < 2**31 else np.int64
    cols = []
    for c in want:
        s, e = starts[c::ncols].astype(itype), ends[c::ncols].astype(itype)
        n, width = e - s, widths[c]
        g = padded_buf[s[:, None] + np.arange(width, dtype=itype)]
        if n.min() < width:  # blank out the bytes after a shorter field
            g[np.arange(width, dtype=itype) >= n[:, None]] = 0
        cols.append(np.ascontiguousarray(g).view(f"S{width}").ravel())
    return cols, lines


def _bad_value(col: np.ndarray, lines: np.ndarray, convert, name: str, what: str) -> InputError:
    """The error for the first value of COL that CONVERT rejects."""
    for i, tok in enumerate(col.tolist()):
        try:
            convert(tok)
        except (ValueError, OverflowError):
            return InputError(f"bad {what}: {tok.decode('utf-8', 'replace')!r}", name, int(lines[i]))
    return InputError(f"bad {what}", name)  # pragma: no cover - numpy and Python disagree


def _finite_float(tok: bytes) -> float:
    x = float(tok)
    if not np.isfinite(x):
        raise ValueError(tok)
    return x


def read_qrels(path: str | Path) -> Qrels:
    """Read a qrels file (``qid iter docno rel``); duplicates (qid, docno) are errors."""
    data, name = read_source(path)
    (qid, docno, rel_col), lines = _columns(_drop_comments(data), 4, (0, 2, 3), name, "qrels")
    try:
        rel = rel_col.astype(np.int64)
    except (ValueError, OverflowError):
        raise _bad_value(rel_col, lines, int, name, "relevance value") from None
    order = np.lexsort((docno, qid))
    qid, docno, rel, lines = qid[order], docno[order], rel[order], lines[order]
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
    return Qrels(name, qid, docno, rel, lines)


def read_run(path: str | Path) -> TrecRun:
    """Read a TREC run (``qid Q0 docno rank score tag``) in file order."""
    data, name = read_source(path)
    (qid, docno, score_col, tag_col), lines = _columns(_drop_comments(data), 6, (0, 2, 4, 5), name, "run")
    if not lines.size:
        raise InputError("empty run: no results", name)
    try:
        score = score_col.astype(np.float64)
    except (ValueError, OverflowError):
        raise _bad_value(score_col, lines, _finite_float, name, "score") from None
    if not np.isfinite(score).all():
        i = int(np.flatnonzero(~np.isfinite(score))[0])
        raise InputError(f"bad score: {score_col[i].decode('utf-8', 'replace')!r}", name, int(lines[i]))
    if (tag_col == tag_col[0]).all():
        tags = [tag_col[0].decode("utf-8", "replace")]
    else:
        uniq, first = np.unique(tag_col, return_index=True)
        tags = [t.decode("utf-8", "replace") for t in uniq[np.argsort(first)]]
    return TrecRun(name, qid, docno, score, lines, tags)
