"""Significance groups as a compact letter display (docs/measures.md §12.4).

Two runs share a letter exactly when they are not significantly different, for any symmetric
pattern of significant pairs, consistent or not.  A letter is a set of runs no two of which differ
significantly (a clique of the "not significantly different" graph); the letters together must
join every pair that does not differ.

1. Insert and absorb (H.-P. Piepho, "An algorithm for a letter-based representation of
   all-pairwise comparisons", Journal of Computational and Graphical Statistics 13, 2004): start
   with one letter held by every run; for each significant pair (i, j), every letter held by both
   is replaced by two, one without i and one without j; a letter whose runs are a subset of
   another letter's is dropped (absorbed).  A split separates only the pair being split, and
   absorbing never separates a pair, so every pair not significant keeps a shared letter and
   every significant pair ends with none.  The letters left are the maximal cliques.
2. Should there be more than :func:`_cap` letters on the way (16 m + 64: maximal cliques can be
   exponentially many for inconsistent patterns; a consistent one, such as Tukey's, has at most m),
   a greedy cover instead (:func:`_greedy`): for each pair not significant and not yet joined, a
   letter holding it, grown run by run, each time by the run that joins the most pairs not yet
   joined among those not significantly different from all the letter holds.
3. Redundant letters removed: a letter every pair of whose runs is also joined by another letter,
   and each of whose runs holds another letter, is dropped, from the last letter to the first.
   Whole letters only (Piepho's sweep also takes single runs out of letters, which breaks the
   contiguous blocks of a consistent display).

Display order: runs by mean, highest first (equal means in the runs' order; NaN last); letters in
the order of their runs in that order, so the best run holds ``a``.  Letters are ``a``–``z``, then
``A``–``Z``; beyond those 52, the same letters followed by the round: ``a1``…``Z1``, ``a2``…
(a token is a letter and the digits after it).  Each run's string lists its letters in that order.
"""

from __future__ import annotations

import string
from collections.abc import Sequence

import numpy as np

BASE = string.ascii_lowercase + string.ascii_uppercase


def letter(k: int) -> str:
    """The name of the k-th letter (0: ``a``, 51: ``Z``, 52: ``a1``)."""
    return BASE[k % 52] + (str(k // 52) if k >= 52 else "")


def tokens(group: str) -> list[str]:
    """The letters of a run's string (``"ab1c"``: ``a``, ``b1``, ``c``)."""
    out: list[str] = []
    for ch in group:
        if ch.isdigit() and out:
            out[-1] += ch
        else:
            out.append(ch)
    return out


def _cap(m: int) -> int:
    """Letters insert-and-absorb may hold before the greedy cover is used instead (a consistent
    pattern never holds more than m on the way, its pairs taken in display order)."""
    return 16 * m + 64


def compact_letter_display(means: Sequence[float], significant) -> list[str]:
    """One string of letters per run, in the runs' order (module docstring).

    ``means``: each run's mean (the display order); ``significant``: a symmetric boolean runs × runs
    matrix (its diagonal is ignored).  ValueError for a matrix of another shape or not symmetric.
    """
    mu = np.asarray(means, dtype=float)
    sig = np.asarray(significant, dtype=bool)
    if mu.ndim != 1:
        raise ValueError(f"means: expected a vector, not an array of shape {mu.shape}")
    m = mu.size
    if sig.shape != (m, m):
        raise ValueError(f"significant: expected a {m} x {m} matrix, not one of shape {sig.shape}")
    if not np.array_equal(sig, sig.T):
        raise ValueError("significant: the matrix must be symmetric")
    if m == 0:
        return []
    # display order: by mean, highest first; equal means keep the runs' order, NaN last
    order = sorted(range(m), key=lambda j: (1, 0.0, j) if mu[j] != mu[j] else (0, -mu[j], j))
    # work in display positions: bit r of a letter's mask is the run shown r-th
    s = sig[np.ix_(order, order)].copy()
    np.fill_diagonal(s, False)
    friends = [sum(1 << c for c in range(m) if not s[r, c] and c != r) for r in range(m)]
    columns = _insert_absorb(s, m)
    if columns is None:
        columns = _greedy(friends, m)
    columns = _drop_redundant(columns, m)
    columns.sort(key=_positions)
    out = [[] for _ in range(m)]
    for k, col in enumerate(columns):
        for r in _positions(col):
            out[order[r]].append(letter(k))
    return ["".join(names) for names in out]


def _positions(mask: int) -> list[int]:
    return [r for r in range(mask.bit_length()) if mask >> r & 1]


def _insert_absorb(s: np.ndarray, m: int) -> list[int] | None:
    """Piepho's insert and absorb over the significant pairs; None past :func:`_cap` letters."""
    cap = _cap(m)
    columns = [(1 << m) - 1]
    for i in range(m):
        for j in range(i + 1, m):
            if not s[i, j]:
                continue
            both = (1 << i) | (1 << j)
            kept = [c for c in columns if c & both != both]
            split = {c & ~(1 << i) for c in columns if c & both == both} | \
                    {c & ~(1 << j) for c in columns if c & both == both}
            split.discard(0)
            # a new letter is a strict subset of the one it came from, so an untouched letter is
            # never a subset of it: only the new ones can be absorbed
            new = [c for c in split
                   if not any(c & k == c for k in kept) and not any(c != o and c & o == c for o in split)]
            columns = kept + new
            if len(columns) > cap:
                return None
    return columns


def _greedy(friends: list[int], m: int) -> list[int]:
    """A cover of the not-significant pairs by cliques: for each pair not yet joined (display order),
    a letter holding it, grown one run at a time by the run, not significantly different from all
    it holds, that joins the most pairs not yet joined (the first in display order among equals)."""
    columns: list[int] = []
    unjoined = list(friends)  # bit c of unjoined[r]: r and c not significantly different, no letter yet
    for r in range(m):
        if not friends[r]:
            columns.append(1 << r)  # significantly different from every other run: a letter of its own
        while unjoined[r]:
            c = (unjoined[r] & -unjoined[r]).bit_length() - 1
            col = (1 << r) | (1 << c)
            candidates = friends[r] & friends[c]
            while candidates:
                best, gain = -1, -1
                for v in _positions(candidates):
                    g = (unjoined[v] & col).bit_count()
                    if g > gain:
                        best, gain = v, g
                col |= 1 << best
                candidates &= friends[best]
            columns.append(col)
            for v in _positions(col):
                unjoined[v] &= ~col
    return columns


def _drop_redundant(columns: list[int], m: int) -> list[int]:
    """COLUMNS without the letters whose pairs and runs are all served by the others (last first)."""
    columns = sorted(set(columns), key=_positions)
    pair_count: dict[tuple[int, int], int] = {}
    run_count = [0] * m
    for col in columns:
        pos = _positions(col)
        for x, r in enumerate(pos):
            run_count[r] += 1
            for c in pos[x + 1:]:
                pair_count[r, c] = pair_count.get((r, c), 0) + 1
    kept = []
    for col in reversed(columns):
        pos = _positions(col)
        pairs = [(r, c) for x, r in enumerate(pos) for c in pos[x + 1:]]
        if all(run_count[r] > 1 for r in pos) and all(pair_count[p] > 1 for p in pairs):
            for r in pos:
                run_count[r] -= 1
            for p in pairs:
                pair_count[p] -= 1
        else:
            kept.append(col)
    return kept[::-1]
