"""T2I's document score of every judged rank of a run at once: ``fol.t2i_score``'s walk as array operations.

``fol.t2i_score`` (docs/inex_eval.md §7.5, D10) reads a rank's article as the tool does: first the
passages of its record in order, then the gaps between them (and before the first), then the rest
of the document up to DOC_LENGTH; along this reading, relevant characters (inside the judgement's
passages) count while fewer than TOLERANCE non-relevant characters have been read, and the
non-relevant characters count up to TOLERANCE:

    score = rel / (rel + min(nonrel, TOLERANCE))            (0 when both are 0)

where ``rel`` sums the relevant stretches read with fewer than TOLERANCE non-relevant characters
read before them, and ``nonrel`` is every non-relevant character read.  The walk checks the bound
at the start of each relevant passage and at the end of each reading segment; with TOLERANCE > 0
nothing is read after it is reached that the formula would count, and within a segment the
relevant characters are those of the union of the judgement's passages (overlapping and touching
passages are read as one stretch).  So the formula is the walk's, for TOLERANCE > 0 and while its
sums stay in the int range; elsewhere (TOLERANCE <= 0, or the walk's own test for sums that may
wrap around, ``4 * top * readings * (passages + 1) + |TOLERANCE| > 2^31 - 1``) the rank is left to
the walk.  Sums are exact integers and the one division is IEEE's, as Python's: the same score,
bit for bit (tests/test_fol_t2i.py against ``fol.t2i_score``).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

__all__ = ["t2i_scores", "stretches", "Stretches"]

INT_MAX = (1 << 31) - 1
#: Offsets and lengths are ints (OFFSET of 1 to 9 digits in a run; a signed int in the qrels): shifted by
#: _SHIFT they are in [0, 2^32), a key beside the number of a judgement.
_SHIFT, _SPAN = 1 << 31, 1 << 33


class Stretches(NamedTuple):
    """The union of each judgement's passages as disjoint stretches, judgement after judgement and in
    order: their ``start`` and ``end``, and as keys ``judgement * 2^33 + (value + 2^31)`` (``key_start``,
    ``key_end``: sorted); ``top``, each judgement's largest |offset| or |end| of a passage (the walk's
    bound on its sums), and ``count``, its passages (:func:`stretches`)."""

    start: np.ndarray
    end: np.ndarray
    key_start: np.ndarray
    key_end: np.ndarray
    top: np.ndarray
    count: np.ndarray


def _ranges(first: np.ndarray, count: np.ndarray) -> np.ndarray:
    """FIRST[i], FIRST[i] + 1, ..., FIRST[i] + COUNT[i] - 1 for each i, one range after another."""
    return np.repeat(first - (np.cumsum(count) - count), count) + np.arange(int(count.sum()))


def stretches(first: np.ndarray, count: np.ndarray, k: np.ndarray, l: np.ndarray) -> Stretches:
    """:class:`Stretches` of the judgements whose passages [k, l) are K[FIRST : FIRST + COUNT], L[...]
    (stored one judgement after another, sorted by k): once per qrels."""
    n = count.size
    span_j = np.repeat(np.arange(n), count)
    span_at = _ranges(first, count)
    ks, ls = k[span_at], l[span_at]
    top = np.zeros(n, dtype=np.int64)
    if ks.size:
        np.maximum.at(top, span_j, np.maximum(np.abs(ks), np.abs(ls)))
    keep = ls > ks  # (an empty passage reads nothing)
    span_j, ks, ls = span_j[keep], ks[keep], ls[keep]
    if ks.size:
        reach = np.maximum.accumulate(span_j * _SPAN + (ls + _SHIFT))  # the furthest end so far, judgement by judgement
        new = np.ones(ks.size, dtype=bool)
        new[1:] = (span_j[1:] != span_j[:-1]) | (ks[1:] + _SHIFT > reach[:-1] - span_j[1:] * _SPAN)
        at = np.flatnonzero(new)
        span_j, ks, ls = span_j[at], ks[at], np.maximum.reduceat(ls, at)
    return Stretches(ks, ls, span_j * _SPAN + (ks + _SHIFT), span_j * _SPAN + (ls + _SHIFT), top, count)


def t2i_scores(rank_j: np.ndarray, rank_of: np.ndarray, start: np.ndarray, end: np.ndarray, known: np.ndarray,
               union: Stretches, doc_length: np.ndarray, tolerance: int) -> tuple[np.ndarray, np.ndarray]:
    """(score, done) of each rank: its T2I score (0.0 for a rank not judged), and whether it is
    ``fol.t2i_score``'s (False: leave the rank to it).

    RANK_J: each rank's judgement (-1: none); RANK_OF, START, END, KNOWN: each line's rank and passage
    (KNOWN False: an unknown passage, not in the record); UNION: the judgements' :func:`stretches`;
    DOC_LENGTH: each judgement's."""
    ranks = rank_j.size
    score = np.zeros(ranks)
    done = rank_j < 0
    judged = np.flatnonzero(~done)
    if tolerance <= 0 or not judged.size:
        return score, done
    jr = rank_j[judged]  # the judgement of each judged rank
    index = np.full(ranks, -1, dtype=np.int64)
    index[judged] = np.arange(judged.size)

    # the record of each judged rank: its known passages, by start (they do not overlap: fol_arrays.walk)
    pick = np.flatnonzero(known & (rank_j[rank_of] >= 0))
    pr = index[rank_of[pick]]
    order = np.argsort(pr * _SPAN + (start[pick] + _SHIFT), kind="stable")
    pr, ps, pe = pr[order], start[pick][order], end[pick][order]
    # the reading: the record, then the gaps before each passage, then the rest of the document
    first_of = np.ones(pr.size, dtype=bool)
    first_of[1:] = pr[1:] != pr[:-1]
    before = np.where(first_of, 0, np.roll(pe, 1))
    gap = ps > before
    cursor = np.zeros(judged.size, dtype=np.int64)
    last = np.flatnonzero(np.append(first_of[1:], True)) if pr.size else pr
    cursor[pr[last]] = pe[last]
    length = doc_length[jr]
    tail = cursor < length
    tails = np.flatnonzero(tail)
    seg_rank = np.concatenate((pr, pr[gap], tails))
    x = np.concatenate((ps, before[gap], cursor[tail]))
    y = np.concatenate((pe, ps[gap], length[tail]))
    by = np.argsort(seg_rank, kind="stable")  # (rank by rank: record, gaps, rest, as concatenated)
    seg_rank, x, y = seg_rank[by], x[by], y[by]
    readings = np.bincount(seg_rank, minlength=judged.size)

    # the walk's own test for sums that may leave the int range: those ranks are left to it
    top = np.maximum(np.abs(length), union.top[jr])
    np.maximum.at(top, pr, np.maximum(np.abs(ps), np.abs(pe)))
    wraps = 4.0 * top * readings * (union.count[jr] + 1) + abs(tolerance) > INT_MAX

    # relevant stretches: each segment against the union of its judgement's passages
    cs, ce = union.start, union.end
    seg_j = jr[seg_rank]
    lo = np.searchsorted(union.key_end, seg_j * _SPAN + (x + _SHIFT), side="right")
    hi = np.searchsorted(union.key_start, seg_j * _SPAN + (y + _SHIFT), side="left")
    overlaps = np.maximum(hi - lo, 0)
    pair_seg = np.repeat(np.arange(x.size), overlaps)
    pair_c = _ranges(lo, overlaps)
    piece_start = np.maximum(x[pair_seg], cs[pair_c])
    piece = np.minimum(y[pair_seg], ce[pair_c]) - piece_start
    seg_rel = np.zeros(x.size, dtype=np.int64)
    np.add.at(seg_rel, pair_seg, piece)
    seg_nonrel = (y - x) - seg_rel
    # non-relevant characters read before each relevant stretch: in earlier segments of its rank, then
    # in its segment before it
    read_before = np.cumsum(seg_nonrel) - seg_nonrel
    starts = np.flatnonzero(np.append(True, seg_rank[1:] != seg_rank[:-1])) if x.size else seg_rank
    read_before -= np.repeat(read_before[starts], np.diff(np.append(starts, x.size)))
    rel_before_in_seg = np.cumsum(piece) - piece - np.repeat(np.cumsum(seg_rel) - seg_rel, overlaps)
    piece_before = read_before[pair_seg] + (piece_start - x[pair_seg]) - rel_before_in_seg
    counted = piece_before < tolerance
    rel = np.zeros(judged.size, dtype=np.int64)
    np.add.at(rel, seg_rank[pair_seg[counted]], piece[counted])
    nonrel = np.zeros(judged.size, dtype=np.int64)
    np.add.at(nonrel, seg_rank, seg_nonrel)
    nonrel = np.minimum(nonrel, tolerance)
    total = rel + nonrel
    with np.errstate(divide="ignore", invalid="ignore"):
        judged_score = np.where(total > 0, rel / total, 0.0)
    score[judged] = np.where(wraps, 0.0, judged_score)
    done[judged] = ~wraps
    return score, done

