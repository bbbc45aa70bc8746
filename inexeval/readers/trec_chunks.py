"""A large TREC run read in pieces of whole topics, so that memory follows a piece, not the file
(issue 35, target 2; docs/trec-eval.md §8).

A ranked run is written topic by topic.  :func:`topic_chunks` reads a plain file
:data:`CHUNK` bytes at a time and hands out pieces of whole lines that end where a topic
ends: the lines at the end of a piece that share the first field (the topic) of its last data
line are held back for the next piece.  A topic longer than a piece makes its piece longer.
Blank and comment lines (first non-blank byte ``#``) go with the piece they fall in.

The pieces do not prove the run is grouped: a topic may come back after another one.
:func:`grouped_runs` parses the pieces and raises :class:`ReadWhole` when a topic is in two of
them, or when a piece cannot be read; its callers (:mod:`inexeval.dropins.trec_eval.blocks`,
:mod:`inexeval.measures.classic_pieces`) then read the whole file the usual way (an error is then
the whole file's, with the file's own line numbers).

Only a plain, seekable file of at least :data:`STREAM_FROM` bytes is read this way
(:func:`streamable`): compressed data, standard input and UTF-16 text are read whole.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator

#: Files of this size or more are read in pieces (smaller ones: whole, as before).
STREAM_FROM = 64 << 20
#: The bytes read at a time; a piece is about this long (tests make both small).
CHUNK = 4 << 20


def streamable(path: object) -> bool:
    """Whether PATH is a plain file of at least :data:`STREAM_FROM` bytes (not ``-``, not gzip, not UTF-16)."""
    from inexeval.readers import GZIP_MAGIC

    if not isinstance(path, (str, os.PathLike)) or str(path) == "-":
        return False
    try:
        if os.path.getsize(path) < STREAM_FROM or not os.path.isfile(path):
            return False
        with open(path, "rb") as f:
            head = f.read(2)
    except OSError:
        return False
    return head != GZIP_MAGIC and head not in (b"\xff\xfe", b"\xfe\xff")


def _topic(line: bytes) -> bytes | None:
    """The first field of LINE, None for a blank or comment line."""
    fields = line.split(None, 1)
    if not fields or fields[0].startswith(b"#"):
        return None
    return fields[0]


def topic_cut(buf: bytes) -> int:
    """Where the last topic of BUF's whole lines starts (a line start), 0 if they are all one topic
    (or BUF has no whole line).  The walk back is one short split per line of that topic."""
    end = buf.rfind(b"\n")  # the newline that ends the last whole line
    topic = None
    while end >= 0:
        start = buf.rfind(b"\n", 0, end) + 1
        q = _topic(buf[start:end])
        if q is not None:
            if topic is None:
                topic = q
            elif q != topic:
                return end + 1  # the line ending at END is another topic's
        end = start - 1
    return 0


def topic_chunks(path: str | os.PathLike, chunk: int | None = None, *,
                 lines: bool = True) -> Iterator[tuple[bytes, int]]:
    """(piece, the 1-based line number of its first line; without LINES 0) of PATH: whole lines ending
    at a topic's end, the last piece running to the end of the file."""
    from inexeval.readers import MAX_LINE_BYTES

    size = CHUNK if chunk is None else chunk
    with open(path, "rb") as f:
        carry, line = b"", 1 if lines else 0
        while True:
            piece = f.read(size)
            if not piece:
                if carry:
                    yield carry, line
                return
            buf = carry + piece if carry else piece
            cut = topic_cut(buf)
            if cut == 0 and (b"\n" in buf or len(buf) <= MAX_LINE_BYTES):  # one topic so far: read on
                carry = buf
                continue
            if cut == 0:  # a line too long: handed out, for the reader to refuse
                cut = len(buf)
            out, carry = buf[:cut], buf[cut:]
            del buf
            yield out, line
            if lines:
                line += out.count(b"\n")


class ReadWhole(Exception):
    """The run file must be read whole: a topic is in two pieces, a piece cannot be read, or its ids
    are too long for fixed-width columns."""


def grouped_runs(path: str | os.PathLike, parse: Callable, errors: tuple[type[BaseException], ...] = (), *,
                 chunk: int | None = None, lines: bool = True) -> Iterator[tuple[object, object]]:
    """(run, its distinct topic ids, sorted) of every piece of PATH with results (:func:`topic_chunks`),
    the run being ``PARSE(piece, its first line)``, a reader's columns (``qid``, an ``S`` array).

    :class:`ReadWhole` when a line is too long (the line bound, docs/formats.md §1.6), PARSE raises
    an InputError or one of ERRORS, the ids are an object array, or a topic of the piece was in an
    earlier one."""
    from inexeval.errors import InputError
    from inexeval.readers import LineBound
    from inexeval.readers.bytekeys import distinct_grouped

    name = str(path)
    seen: set[bytes] = set()
    for piece, line in topic_chunks(path, chunk, lines=lines):
        try:
            LineBound.check_all(piece, name)
            run = parse(piece, line)
        except (InputError, *errors):
            raise ReadWhole from None
        del piece
        if not run.qid.size:
            continue
        if run.qid.dtype == object:
            raise ReadWhole
        topics = distinct_grouped(run.qid)[0]
        names = topics.tolist()
        if not seen.isdisjoint(names):  # a topic in two pieces: the run is not grouped by topic
            raise ReadWhole
        seen.update(names)
        yield run, topics
