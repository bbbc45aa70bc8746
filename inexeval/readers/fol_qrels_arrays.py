"""FOL qrels read with numpy: :func:`inexeval.readers.fol.read_fol_qrels`'s line loop as array operations.

:func:`read` takes the qrels text (after :func:`inexeval.readers.fol._read_text`) and gives the same
:class:`~inexeval.readers.fol.FolQrels` as the line loop, value for value and in the same order
(tests/test_fol_qrels_arrays.py compares the two on random qrels of every shape), or None, leaving
the text to the loop, unless the text is one the loop reads without a problem and without the
tool's int arithmetic wrapping around:

- ASCII without NUL, every line at least 5 fields split at the tool's white space (Java's ``\\s``:
  space, TAB, LF, VT, FF, CR; docs/inex_eval.md §2, D22), none of them empty (no white space first
  in a line), no TOPIC or ARTICLE longer than NAME_BYTES;
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
which keeps them for :mod:`inexeval.measures.fol_arrays` (``FolQrels.columns``) and makes each
topic's judgement objects from them when they are first used (``readers.fol.TopicJudgements``).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from inexeval.readers.bytekeys import dense_rank, distinct

__all__ = ["read", "QrelsColumns"]

#: Java's ``\s``, the white space the tool splits fields at (D22).
_WS = np.zeros(256, dtype=bool)
_WS[[9, 10, 11, 12, 13, 32]] = True
_POW10 = 10.0 ** np.arange(8, -1, -1)  # (a matrix product of doubles is twice as fast as of int64)
_MINUS, _PLUS, _COLON = ord("-"), ord("+"), ord(":")
INT_MAX = (1 << 31) - 1
#: An OFFSET of 9 digits and a sign plus _OFFSET_SHIFT is in [1, _OFFSET_SPAN): a sort key beside a count.
_OFFSET_SHIFT, _OFFSET_SPAN = 10**9, 1 << 31


class QrelsColumns(NamedTuple):
    """What the line loop reads, as columns: ``topics`` (ids in order of their first line) with their
    ``num_rel`` and ``rel_size``; then the judgements in topic order (each topic's in the order of
    their first line; ``topic_first``: where each topic's begin, and the end), each one's article
    (``names``, and as an ``S`` array ``articles``), ``rel_chars`` and ``doc_length`` (of its first line),
    ``bep``, topic index ``jt``, and where its passages are (``first``, ``count``) in ``k``, ``l``
    (their starts and ends: ``spans`` (k, l) and ``passages`` (k, l - k) of ``readers.fol.FolJudgement``)."""

    topics: list
    num_rel: list
    topic_first: list
    names: list
    rel_chars: np.ndarray
    doc_length: np.ndarray
    bep: np.ndarray
    jt: np.ndarray
    articles: np.ndarray
    first: np.ndarray
    count: np.ndarray
    k: np.ndarray
    l: np.ndarray
    rel_size: np.ndarray


#: The longest topic or article id read as arrays (an ``S`` array holds each item at the longest one's
#: width); a longer one leaves the file to the line loop.
NAME_BYTES = 256


def field_strings(data: np.ndarray, s: np.ndarray, e: np.ndarray) -> np.ndarray | None:
    """The fields [s, e) of DATA as an ``S`` array (a field's trailing NULs are lost), None when one is
    longer than NAME_BYTES."""
    width = int((e - s).max()) if s.size else 1
    if width > NAME_BYTES:
        return None
    at = s[:, None] + np.arange(width)
    m = data[np.minimum(at, data.size - 1)]
    np.putmask(m, at >= e[:, None], 0)
    return np.ascontiguousarray(m).view(f"S{width}").ravel()


def _codes(col: np.ndarray) -> tuple[np.ndarray, int]:
    """Each item's code among COL's distinct items (0 to n - 1), and n."""
    if col.dtype.kind != "S":
        return dense_rank(col)
    distinct_items, inv = distinct(col)
    return inv, distinct_items.size


def first_seen(codes: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    """CODES (0 to N - 1, each used) renumbered in the order of their first item, and the first item of each."""
    first = np.full(n, codes.size, dtype=np.int64)
    np.minimum.at(first, codes, np.arange(codes.size))
    order = np.argsort(first)
    renumber = np.empty(n, dtype=np.int64)
    renumber[order] = np.arange(n)
    return renumber[codes], first[order]


def _names(col: np.ndarray) -> list[str]:
    """The items of an ``S`` array of ASCII names without NUL or newline, as str."""
    return b"\n".join(col.tolist()).decode("ascii").split("\n") if col.size else []


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


#: Fields read by digit_values at a time: its (fields, 9) temporaries then stay in a core's cache and
#: are reused, where whole columns' would be fresh memory each time (three times slower).
DIGIT_BLOCK = 4096
_BACK9 = np.arange(-9, 0)


def digit_values(data: np.ndarray, s: np.ndarray, e: np.ndarray) -> np.ndarray | None:
    """The fields [s, e) of at most 9 bytes each read as decimal digits (an empty field: 0), None when
    a byte is not an ASCII digit: each field right-aligned in a row as wide as the widest field, times
    the powers of 10 (as doubles: exact below 10^9), DIGIT_BLOCK fields at a time."""
    out = np.empty(s.size, dtype=np.int64)
    if not s.size:
        return out
    width = int((e - s).max())
    back, powers = _BACK9[9 - width:], _POW10[9 - width:]
    for a in range(0, s.size, DIGIT_BLOCK):
        at = e[a:a + DIGIT_BLOCK, None] + back
        d = data[np.maximum(at, 0)] - np.uint8(48)  # a byte below '0' wraps around past 9
        np.putmask(d, at < s[a:a + DIGIT_BLOCK, None], 0)
        if (d > 9).any():
            return None
        out[a:a + DIGIT_BLOCK] = d @ powers
    return out


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
    # each token's line: the newlines before it, counted from where each newline's next token is (a
    # line's few newlines looked up among the many tokens, not the tokens among the newlines)
    line_of = np.cumsum(np.bincount(np.searchsorted(starts, newline), minlength=starts.size + 1)[:starts.size])
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
    raw = text.encode("ascii")
    if b"\r" in raw:  # the lines end as BufferedReader.readLine ends them
        raw = raw.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
    data = np.frombuffer(raw, dtype=np.uint8)
    if (data == 0).any():
        return None  # a NUL byte (its names would lose trailing NULs as S arrays)
    found = _tokens(data)
    if found is None:
        return None
    starts, ends, line_of, per_line = found
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
    topic_col = field_strings(data, starts[first_token], ends[first_token])
    article_col = field_strings(data, starts[first_token + 2], ends[first_token + 2])
    if topic_col is None or article_col is None:
        return None
    topic_codes, n_t = _codes(topic_col)
    tid_line, topic_line = first_seen(topic_codes, n_t)
    article_codes, n_a = _codes(article_col)
    pair_codes, n_j = _codes(tid_line * n_a + article_codes)
    jid, first_line = first_seen(pair_codes, n_j)
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
    # one key (rank, offset) for the stable sort: an OFFSET (9 digits and a sign) + 10^9 is in [1, 2^31)
    by = np.argsort(rank[item_j] * _OFFSET_SPAN + (offset + _OFFSET_SHIFT), kind="stable")
    k = offset[by]
    l_ = k + size[by]
    count = np.bincount(rank[item_j], minlength=n_j)
    first = np.cumsum(count) - count
    line_of_j = first_line[order]
    articles = article_col[line_of_j]
    topic_first = np.concatenate(([0], np.cumsum(np.bincount(j_topic, minlength=n_t)))).tolist()
    return QrelsColumns(_names(topic_col[topic_line]), num_rel, topic_first, _names(articles), rel[line_of_j],
                        length[line_of_j], j_bep[order], j_topic[order], articles, first, count, k, l_,
                        rel_size)
