"""FOL qrels read with numpy: :func:`inexeval.readers.fol.read_fol_qrels`'s line loop as array operations.

:func:`read` takes the qrels text (after :func:`inexeval.readers.fol._read_text`) and gives the same
:class:`~inexeval.readers.fol.FolQrels` as the line loop, value for value and in the same order
(tests/test_fol_qrels_arrays.py compares the two on random qrels of every shape), or None, leaving
the text to the loop, unless the text is one the loop reads without a problem and without the
tool's int arithmetic wrapping around:

- ASCII, every line at least 5 fields split at the tool's white space (Java's ``\\s``: space, TAB,
  LF, VT, FF, CR; docs/inex_eval.md §2, D22), none of them empty (no white space first in a line);
- REL_CHARS, DOC_LENGTH, the BEP of a line of 7 fields or more and both parts of each
  ``OFFSET:LENGTH`` an optional sign and 1 to 9 ASCII digits (``Integer.parseInt`` then equals
  ``int()`` and no value leaves 32 bits), each passage holding exactly one ``:``;
- no ``int_problem`` (docs/formats.md §1.7): no negative LENGTH, no passage ending past 2^31 − 1,
  no judgement's passages longer than 2^31 − 1 together, the positive REL_CHARS of all topics
  adding up to at most 2^31 − 1 (so no topic's do either, and nothing wraps around, D17).

What the loop does with such lines (D2): a topic is created by its first line, a judgement
(topic, article) by its first line, with that line's REL_CHARS and DOC_LENGTH; every line with
REL_CHARS > 0 counts in its topic's num_rel and rel_size; a line of 7 fields or more sets the BEP
(the last one wins) and adds its passages, which are sorted by offset, equal offsets in file
order, with ``spans`` = (offset, offset + length).

The columns (:class:`QrelsColumns`) become the FolQrels in :func:`inexeval.readers.fol.read_fol_qrels`,
which keeps them for :mod:`inexeval.measures.fol_arrays` (``FolQrels.columns``).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

__all__ = ["read", "QrelsColumns"]

#: Java's ``\s``, the white space the tool splits fields at (D22).
_WS = np.zeros(256, dtype=bool)
_WS[[9, 10, 11, 12, 13, 32]] = True
_POW10 = 10 ** np.arange(8, -1, -1, dtype=np.int64)
_MINUS, _PLUS, _COLON = ord("-"), ord("+"), ord(":")
INT_MAX = (1 << 31) - 1


class QrelsColumns(NamedTuple):
    """What the line loop reads, as columns: ``topics`` (ids in order of their first line) with their
    ``num_rel`` and ``rel_size``; ``keys``, the (topic, article) of each judgement in order of its first
    line, and ``rank``, each one's place in topic order (each topic's judgements in their order); then,
    in topic order, each judgement's ``rel_chars`` and ``doc_length`` (of its first line), ``bep``, topic
    index ``jt``, article id as bytes (``articles``), and where its passages are (``first``, ``count``)
    in ``k``, ``l`` (their starts and ends), ``passages`` (offset, length) and ``spans`` (start, end)."""

    topics: list
    num_rel: list
    keys: list
    rank: list
    rel_chars: np.ndarray
    doc_length: np.ndarray
    bep: np.ndarray
    jt: np.ndarray
    articles: list
    first: np.ndarray
    count: np.ndarray
    k: np.ndarray
    l: np.ndarray
    rel_size: np.ndarray
    passages: list
    spans: list


def _signed(data: np.ndarray, s: np.ndarray, e: np.ndarray) -> np.ndarray | None:
    """The fields [s, e) as ints when each is an optional sign and 1 to 9 ASCII digits, else None."""
    if not s.size:
        return np.zeros(0, dtype=np.int64)
    c0 = data[np.minimum(s, data.size - 1)]
    neg = (c0 == _MINUS) & (s < e)
    ds = s + (neg | ((c0 == _PLUS) & (s < e)))
    width = e - ds
    if ((width < 1) | (width > 9)).any():
        return None
    v = digit_values(data, ds, e)
    return None if v is None else np.where(neg, -v, v)


def digit_values(data: np.ndarray, s: np.ndarray, e: np.ndarray) -> np.ndarray | None:
    """The fields [s, e) of at most 9 bytes each read as decimal digits (an empty field: 0), None when
    a byte is not an ASCII digit: each field right-aligned in a row of 9 digits, times the powers of 10."""
    at = e[:, None] - 9 + np.arange(9)
    inside = at >= s[:, None]
    d = data[np.maximum(at, 0)].astype(np.int64) - 48
    d[~inside] = 0
    if ((d < 0) | (d > 9)).any():
        return None
    return d @ _POW10


def white_space(data: np.ndarray) -> np.ndarray:
    """Where the bytes DATA are Java's ``\\s`` (which ``str.split()`` takes for white space too): ``data <= 32``
    when no other byte is below 32 (two comparisons; else the look-up table, 30 times slower)."""
    if (data < 9).any() or ((data - np.uint8(14)) < 18).any():  # a control byte other than 9 to 13
        return _WS[data]
    return data <= 32


def _tokens(data: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None:
    """(token starts, ends, line of each token, tokens of each line) when every line has at least 5
    fields, the first at the line's start; else None."""
    ws = white_space(data)
    edge = np.flatnonzero(ws[1:] != ws[:-1]) + 1
    head = np.zeros(0 if ws[0] else 1, dtype=np.int64)  # a field starts the text
    tail = np.full(0 if ws[-1] else 1, data.size, dtype=np.int64)  # a field ends it
    bounds = np.concatenate((head, edge, tail))
    starts, ends = bounds[0::2], bounds[1::2]
    newline = np.flatnonzero(data == 10)
    lines = newline.size + (data[-1] != 10)
    line_start = np.concatenate((np.zeros(1, dtype=np.int64), newline + 1))[:lines]
    line_of = np.searchsorted(newline, starts)
    per_line = np.bincount(line_of, minlength=lines)
    if (per_line < 5).any():
        return None  # a line of fewer than 5 fields (the loop says which)
    first_token = np.cumsum(per_line) - per_line
    if (starts[first_token] != line_start).any():
        return None  # white space first in a line: an empty TOPIC field
    return starts, ends, line_of, per_line


def read(text: str) -> QrelsColumns | None:
    """What the line loop reads from the qrels TEXT, or None (see the module)."""
    if not text or not text.isascii():
        return None
    raw = raw_in = text.encode("ascii")
    if b"\r" in raw:  # the lines end as BufferedReader.readLine ends them
        raw = raw.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
    data = np.frombuffer(raw, dtype=np.uint8)
    found = _tokens(data)
    if found is None:
        return None
    starts, ends, line_of, per_line = found
    lines = per_line.size
    first_token = np.cumsum(per_line) - per_line
    rel = _signed(data, starts[first_token + 3], ends[first_token + 3])
    length = _signed(data, starts[first_token + 4], ends[first_token + 4])
    long = per_line >= 7  # lines with a BEP and passages
    bep_lines = np.flatnonzero(long)
    bep = _signed(data, starts[first_token[bep_lines] + 5], ends[first_token[bep_lines] + 5])
    item = np.flatnonzero(np.arange(starts.size) - first_token[line_of] >= 6)
    s, e = starts[item], ends[item]
    colons = np.flatnonzero(data == _COLON)
    c = np.searchsorted(colons, s)
    c_end = np.searchsorted(colons, e)
    if rel is None or length is None or bep is None or (c_end - c != 1).any():
        return None
    colon = colons[c] if c.size else c
    offset = _signed(data, s, colon)
    size = _signed(data, colon + 1, e)
    if offset is None or size is None:
        return None
    if (size < 0).any() or (offset + size > INT_MAX).any() or int(rel[rel > 0].sum()) > INT_MAX:
        return None  # an int problem: the loop names its line

    # topics and judgements, numbered in order of their first line
    text_of = raw.decode("ascii") if b"\r" in raw_in else text  # offsets in raw are offsets in text_of
    ts, te = starts[first_token].tolist(), ends[first_token].tolist()
    as_, ae = starts[first_token + 2].tolist(), ends[first_token + 2].tolist()
    topic_names = [text_of[a:b] for a, b in zip(ts, te)]
    article_names = [text_of[a:b] for a, b in zip(as_, ae)]
    topic_ids: dict[str, int] = {}
    judgement_ids: dict[tuple[str, str], int] = {}
    tid = [topic_ids.setdefault(t, len(topic_ids)) for t in topic_names]
    jid_list = [judgement_ids.setdefault(key, len(judgement_ids)) for key in zip(topic_names, article_names)]
    jid = np.array(jid_list, dtype=np.int64)
    tid_line = np.array(tid, dtype=np.int64)
    n_j, n_t = len(judgement_ids), len(topic_ids)
    first_line = np.full(n_j, lines, dtype=np.int64)
    np.minimum.at(first_line, jid, np.arange(lines))
    j_topic = tid_line[first_line]
    positive = rel > 0
    num_rel = np.bincount(tid_line[positive], minlength=n_t).tolist()
    rel_size = np.zeros(n_t, dtype=np.int64)
    np.add.at(rel_size, tid_line[positive], rel[positive])
    last = np.full(n_j, -1, dtype=np.int64)
    np.maximum.at(last, jid[bep_lines], np.arange(bep_lines.size))
    j_bep = np.where(last >= 0, bep[np.maximum(last, 0)] if bep.size else -1, -1)
    lengths = np.zeros(n_j, dtype=np.int64)
    item_j = jid[line_of[item]]
    np.add.at(lengths, item_j, size)
    if (lengths > INT_MAX).any():
        return None  # a judgement's passages longer than 2^31 - 1 together

    # judgements in topic order; their passages by offset, equal offsets in file order
    order = np.argsort(j_topic, kind="stable")
    rank = np.empty(n_j, dtype=np.int64)
    rank[order] = np.arange(n_j)
    by = np.lexsort((np.arange(item.size), offset, rank[item_j]))
    k = offset[by]
    ln = size[by]
    l_ = k + ln
    count = np.bincount(rank[item_j], minlength=n_j)
    first = np.cumsum(count) - count
    return QrelsColumns(list(topic_ids), num_rel, list(judgement_ids), rank.tolist(), rel[first_line[order]],
                        length[first_line[order]], j_bep[order], j_topic[order],
                        [article_names[i].encode("ascii") for i in first_line[order].tolist()], first, count, k, l_,
                        rel_size, list(zip(k.tolist(), ln.tolist())), list(zip(k.tolist(), l_.tolist())))
