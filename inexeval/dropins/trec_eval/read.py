"""Reading qrels, runs and Z-score files as trec_eval 10.0 reads them (docs/trec-eval.md §3).

trec_eval's rules, which differ from inexeval's own TREC reader (docs/formats.md §8):

- qrels: exactly 4 fields a line; a blank line is malformed; a line whose
  first byte is ``#`` is skipped, but the line right after a skipped one is
  always read as data; ``rel`` is read as C's ``atol``.
- runs: 6 fields or more (the rest ignored); blank lines and lines whose
  first non-blank byte is ``#`` skipped; the score is C's ``atof``; the run
  id is the last line's.
- an empty file cannot be read; ``-`` is standard input; gzip input is
  recognised by its magic bytes.
- "Malformed line N" counts data lines (comment lines not counted).

Clean files take a vectorised path (:mod:`inexeval.readers.trec`'s column
cutter); anything unusual falls back to a line-by-line reader that follows
trec_eval byte for byte.
"""

from __future__ import annotations

import re
import sys

import numpy as np

from inexeval.readers import trec as _trec
from inexeval.dropins.trec_eval.options import TrecEvalExit, atof, atol
from inexeval.records import record

_BLANK_LINE = re.compile(rb"(?:^|\n)[ \t\v\f\r]*(?:\n|\Z)")
#: Bytes that do not make a line non-blank: the blank line's white space above, and the newline.
_NOT_INK = np.zeros(256, dtype=bool)
_NOT_INK[list(b" \t\v\f\r\n")] = True
_SPACE = b" \t\n\v\f\r"


def read_bytes(path: str, what: str, stdin_used: list[bool]) -> bytes:
    """The bytes of PATH (``-``: standard input, once), gunzipped; TrecEvalExit (2) if unreadable or empty.

    Compressed data is decompressed as a stream, and it and the lines are bounded as inexeval's own
    readers bound them (docs/formats.md §1.6): beyond a bound, one line naming the file (and the line)
    and status 2, as for a file that cannot be read."""
    from inexeval.readers import InputTooLarge, bounded_content

    label = {"qrels": "get_qrels", "results": "get_results", "zscores": "get_zscores",
             "prefs": "get_prefs", "qrels_prefs": "get_qrels_prefs", "qrels_jg": "get_qrels_jg"}[what]
    kind = {"qrels_prefs": "qrels", "qrels_jg": "qrels", "prefs": "prefs"}.get(what, what)
    fail = (f"trec_eval.{label}: Cannot read {kind} file '{path}'\n"
            + ("" if what == "zscores" else f"trec_eval: Quit in file '{path}'\n"))
    try:
        if path == "-":
            if stdin_used[0]:
                raise OSError
            stdin_used[0] = True
            data = bounded_content(sys.stdin.buffer.read(), path, lines=True)
        else:
            with open(path, "rb") as f:
                data = bounded_content(f, path, lines=True)
    except InputTooLarge as e:
        where = "" if e.line is None else f" line {e.line}:"
        raise TrecEvalExit(f"trec_eval.{label}: Cannot read {kind} file '{path}':{where} {e.message}\n", 2) from None
    except (OSError, ValueError, AttributeError, _trec.InputError):  # (bad gzip data: an InputError)
        raise TrecEvalExit(fail, 2) from None
    if not data:
        raise TrecEvalExit(fail, 2)
    return until_nul_line(data)


def until_nul_line(data: bytes) -> bytes:
    """DATA up to its first line that starts with a NUL byte: trec_eval's readers walk a file as one C
    string, line by line while the next byte is not NUL (``while (*ptr)`` in get_qrels.c,
    get_trec_results.c and the others), so such a line ends the file for them.  A NUL anywhere else
    makes trec_eval read past its buffer (it counts the lines only up to the first NUL), where it has
    no defined result; that NUL is read here as any other byte.  A NUL that starts the file ends it
    before its first line: nothing is read (docs/trec-eval.md §7 says what trec_eval does then)."""
    if b"\0" not in data:
        return data
    if data[:1] == b"\0":
        return b""
    cut = data.find(b"\n\0")
    return data if cut < 0 else data[:cut + 1]


def _malformed(label: str, n: int, path: str) -> TrecEvalExit:
    return TrecEvalExit(f"trec_eval.{label}: Malformed line {n}\ntrec_eval: Quit in file '{path}'\n", 2)


# ------------------------------------------------------------------ qrels ----


@record
class RawQrels:
    """Qrels rows in file order: topic, docno (bytes arrays) and judgement."""

    qid: np.ndarray
    docno: np.ndarray
    rel: np.ndarray
    group: np.ndarray | None = None  # the second field (qrels_jg: the judgement group), when asked for


def qrels_lines(data: bytes, path: str, label: str, nfields: int = 4) -> list[list[bytes]]:
    """trec_eval's line-by-line qrels reading: the fields of every data line."""
    out: list[list[bytes]] = []
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    skip_next_comment = True  # a '#' line is skipped only when the previous line was not a skipped one
    for line in lines:
        if skip_next_comment and line.startswith(b"#"):
            skip_next_comment = False
            continue
        skip_next_comment = True
        fields = line.split()
        if len(fields) != nfields:
            raise _malformed(label, len(out) + 1, path)
        out.append(fields)
    return out


def _has_blank_line(data: bytes) -> bool:
    """Whether a line of DATA holds nothing but blanks (:data:`_BLANK_LINE`).  Most files start every
    line with a field, which one look at each line's first byte tells; the others are searched."""
    buf = np.frombuffer(data, dtype=np.uint8)
    if buf.size:
        firsts = np.flatnonzero(buf == 0x0A) + 1
        if firsts.size == 0 or firsts[-1] < buf.size:  # (no line ends with the data)
            if not _NOT_INK[buf[0]] and not _NOT_INK[buf[firsts]].any():
                return False
    return _BLANK_LINE.search(data) is not None


def read_qrels(data: bytes, path: str, label: str = "get_qrels", group: bool = False) -> RawQrels:
    """The qrels (``qid iter docno rel``) of DATA, as trec_eval 10.0 reads them (GROUP: keep the
    second field too; LABEL: the reader trec_eval names in "Malformed line")."""
    if b"#" not in data and not _has_blank_line(data.rstrip(b"\n") if data.endswith(b"\n") else data):
        try:
            starts, ends, lines = _trec.records(data, 4, path, "qrels")
            want = (0, 1, 2) if group else (0, 2)  # (the second field only for its groups)
            qid, *grp, docno = (_trec.column(data, starts[c::4], ends[c::4]) for c in want)
            if qid.dtype != object and docno.dtype != object and not (grp and grp[0].dtype == object):
                rel = _trec.integers(data, starts[3::4], ends[3::4], lines, path, "relevance value")
                return RawQrels(qid, docno, rel, grp[0] if group else None)
        except (ValueError, OverflowError, _trec.InputError):
            pass
    rows = qrels_lines(data, path, label)
    return RawQrels(np.array([r[0] for r in rows], dtype=bytes), np.array([r[2] for r in rows], dtype=bytes),
                    np.array([atol(r[3].decode("latin-1")) for r in rows], dtype=np.int64),
                    np.array([r[1] for r in rows], dtype=bytes) if group else None)


# ------------------------------------------------------------------ runs ----


@record
class RawRun:
    """Run rows in file order, and the run id (the last line's)."""

    qid: np.ndarray
    docno: np.ndarray
    score: np.ndarray
    run_id: bytes


def read_run(data: bytes, path: str) -> RawRun:
    """The run (``qid iter docno rank score run_id [...]``) of DATA, as trec_eval 10.0 reads it."""
    clean = _trec.drop_comments(data)
    try:
        starts, ends, lines = _trec.records(clean, 6, path, "run")
        if lines.size:
            qid, docno = (_trec.column(clean, starts[c::6], ends[c::6]) for c in (0, 2))
            if qid.dtype != object and docno.dtype != object:
                score = _trec.scores(clean, starts[4::6], ends[4::6], lines, path)
                # the run id: the last line's (as an S item: without trailing NULs)
                return RawRun(qid, docno, score, clean[starts[-1]:ends[-1]].rstrip(b"\0"))
    except (ValueError, OverflowError, _trec.InputError):
        pass
    qids, docnos, scores = [], [], []
    run_id = b""
    for line in data.split(b"\n"):
        stripped = line.lstrip(_SPACE)
        if not stripped or stripped.startswith(b"#"):
            continue
        fields = line.split()
        if len(fields) < 6:
            raise _malformed("get_results", len(qids) + 1, path)
        qids.append(fields[0])
        docnos.append(fields[2])
        scores.append(atof(fields[4].decode("latin-1")))
        run_id = fields[5]
    return RawRun(np.array(qids, dtype=bytes), np.array(docnos, dtype=bytes),
                  np.array(scores, dtype=np.float64), run_id)


# ------------------------------------------------------------------ Z scores ----


def read_zscores(path: str, stdin_used: list[bool]) -> dict[tuple[bytes, str], tuple[float, float]]:
    """(qid, measure label) -> (mean, standard deviation) from a ``-Z`` file (4 fields a line).

    A file that cannot be read or parsed ends trec_eval with status 255: its ``main`` returns
    UNDEF (-1) there, where the other inputs ``exit(2)``."""
    try:
        data = read_bytes(path, "zscores", stdin_used)
    except TrecEvalExit as e:
        raise TrecEvalExit(e.message, 255) from None
    out: dict[tuple[bytes, str], tuple[float, float]] = {}
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    for n, line in enumerate(lines, 1):
        f = line.split()
        if len(f) != 4:
            raise TrecEvalExit(f"trec_eval.get_zscores: Malformed line {n}\n", 255)
        out.setdefault((f[0], f[1].decode("utf-8", "surrogateescape")),
                       (atof(f[2].decode("latin-1")), atof(f[3].decode("latin-1"))))
    return out
