"""T2I's document scores of a run's ranks at once (inexeval.measures.fol_t2i) against fol.t2i_score, the
walk checked against inex_eval.jar (tests/test_oracle_inex_eval.py): the same score, bit for bit, for
every rank the arrays score, and the ranks they leave to the walk are exactly those where its own test
says its sums may wrap around, or TOLERANCE <= 0.

Seeded random cases of every shape: records of 0 to 6 passages with and without gaps, in and past the
document, judgements with overlapping, touching, nested, empty and negative-offset passages, DOC_LENGTH
negative, zero or short, unknown passages (not in the record), ranks not judged, and tolerances of 1,
small, the default 300, large and near 2^31 - 1.  Worked example first.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from inexeval.measures.fol import t2i_score
from inexeval.measures.fol_t2i import stretches, t2i_scores
from inexeval.readers.fol import FolJudgement

INT_MAX = (1 << 31) - 1


def _columns(judgements: list[FolJudgement]):
    """The stretches and doc_length of JUDGEMENTS made from their columns as fol_arrays._Judged holds
    them (with its sentinel)."""
    first, count, ks, ls = [], [], [], []
    for j in judgements:
        first.append(len(ks))
        count.append(len(j.spans))
        for k, l in j.spans:
            ks.append(k)
            ls.append(l)
    arr = lambda v: np.array(v, dtype=np.int64)  # noqa: E731
    return (stretches(arr(first + [0]), arr(count + [0]), arr(ks), arr(ls)),
            arr([j.doc_length for j in judgements] + [0]))


def _score(ranks: list[tuple[int, list[tuple[int, int] | None]]], judgements: list[FolJudgement], tolerance: int):
    """t2i_scores of RANKS, each (judgement or -1, its lines' passages: (start, end), None unknown)."""
    rank_j, rank_of, start, end, known = [], [], [], [], []
    for r, (j, lines) in enumerate(ranks):
        rank_j.append(j)
        for p in lines:
            rank_of.append(r)
            start.append(p[0] if p else -1)
            end.append(p[1] if p else -1)
            known.append(p is not None)
    arr = lambda v, t=np.int64: np.array(v, dtype=t)  # noqa: E731
    return t2i_scores(arr(rank_j), arr(rank_of), arr(start), arr(end), arr(known, bool), *_columns(judgements),
                      tolerance)


def test_worked_example():
    """A record of two passages [10, 20) and [40, 50) of a 100-character article whose relevant text is
    [15, 45), tolerance 12.  Reading order: [10, 20) (5 non-relevant, then 5 relevant: 5 < 12 read
    before them), [40, 50) (5 relevant, 5 before them + ... = 5 < 12; then 5 non-relevant: 10), the
    gaps [0, 10) (10 more: 20, past 12) and [20, 40), the rest [50, 100). rel = 10, nonrel = min(90, 12)
    = 12: 10 / 22."""
    j = FolJudgement(30, 100, -1, [(15, 30)], [(15, 45)])
    score, done = _score([(0, [(10, 20), (40, 50)])], [j], 12)
    assert done.tolist() == [True]
    assert score.tolist() == [10 / 22] == [t2i_score([(10, 20), (40, 50)], j, 12)]


def _random_judgement(rng: random.Random) -> FolJudgement:
    doc = rng.choice([-5, 0, 3, 50, 120, 1000])
    spans = []
    for _ in range(rng.choice([0, 1, 1, 2, 3, 5])):
        k = rng.choice([-20, 0, 0, 5, 10, 30, 60, 100, 110, 200])
        spans.append((k, k + rng.choice([0, 1, 5, 10, 25, 80])))
    if spans and rng.random() < 0.2:  # a passage touching the last one
        spans.append((spans[-1][1], spans[-1][1] + rng.choice([0, 3])))
    spans.sort(key=lambda s: s[0])  # (sorted by start, equal starts in file order: stable)
    return FolJudgement(1, doc, -1, [(k, l - k) for k, l in spans], spans)


def _random_record(rng: random.Random, doc: int) -> list[tuple[int, int] | None]:
    lines: list[tuple[int, int] | None] = []
    at = rng.choice([0, 0, 3, 15])
    for _ in range(rng.choice([0, 1, 1, 2, 3, 6])):
        if rng.random() < 0.15:
            lines.append(None)  # an unknown passage: not in the record
            continue
        size = rng.choice([1, 2, 5, 10, 40])
        lines.append((at, at + size))
        at += size + rng.choice([0, 0, 1, 7, 30])
    rng.shuffle(lines)  # (a record is read by start whatever the lines' order)
    return lines


@pytest.mark.parametrize("seed", range(400))
def test_scores_are_the_walks(seed):
    rng = random.Random(8100 + seed)
    judgements = [_random_judgement(rng) for _ in range(rng.randint(1, 6))]
    ranks = []
    for _ in range(rng.randint(0, 12)):
        j = rng.randrange(-1, len(judgements))
        ranks.append((j, _random_record(rng, judgements[j].doc_length if j >= 0 else 0)))
    tolerance = rng.choice([-3, 0, 1, 2, 7, 20, 300, 5000, INT_MAX - 10, INT_MAX])
    score, done = _score(ranks, judgements, tolerance)
    for r, (j, lines) in enumerate(ranks):
        if j < 0:
            assert done[r] and score[r] == 0.0 and repr(float(score[r])) == "0.0"
            continue
        record = sorted(p for p in lines if p is not None)
        spans = judgements[j].spans
        reading = len(record) + sum(1 for a, b in zip([(0, 0)] + record, record) if b[0] > a[1]) \
            + (1 if (record[-1][1] if record else 0) < judgements[j].doc_length else 0)
        top = max([abs(judgements[j].doc_length)] + [abs(v) for p in record + spans for v in p])
        may_wrap = 4 * top * reading * (len(spans) + 1) + abs(tolerance) > INT_MAX
        assert bool(done[r]) == (tolerance > 0 and not may_wrap), (r, tolerance, may_wrap)
        if done[r]:
            assert repr(float(score[r])) == repr(t2i_score(record, judgements[j], tolerance)), (r, record, spans)


def test_no_rank_and_no_judged_rank():
    j = FolJudgement(1, 10, -1, [(0, 5)], [(0, 5)])
    score, done = _score([], [j], 300)
    assert score.size == 0 and done.size == 0
    score, done = _score([(-1, [(0, 3)]), (-1, [])], [j], 300)
    assert score.tolist() == [0.0, 0.0] and done.tolist() == [True, True]


@pytest.mark.parametrize("seed", range(60))
def test_ranks_left_to_the_walk_exactly_where_its_sums_may_wrap(seed):
    """On each side of the walk's own bound, 4 * top * readings * (passages + 1) + |TOLERANCE| > 2^31 - 1,
    with TOP the largest magnitude of DOC_LENGTH, the record's and (here the largest) the judgement's
    passage ends: the rank is scored by the arrays at the bound and left to the walk one past it."""
    rng = random.Random(8600 + seed)
    big = rng.choice([10**6, 10**7, 4 * 10**7])
    spans = sorted([(big, big + rng.choice([1, 50])), (rng.choice([0, 5]), rng.choice([10, 20]))])
    j = FolJudgement(1, rng.choice([100, 400]), -1, [(k, l - k) for k, l in spans], spans)
    lines = [(0, 4), (9, 15)] if rng.random() < 0.5 else [(30, 31)]
    record = sorted(lines)
    reading = len(record) + sum(1 for a, b in zip([(0, 0)] + record, record) if b[0] > a[1]) \
        + (1 if record[-1][1] < j.doc_length else 0)
    top = max([abs(j.doc_length)] + [abs(v) for p in record + spans for v in p])
    bound = INT_MAX - 4 * top * reading * (len(spans) + 1)
    assert bound > 0
    score, done = _score([(0, lines)], [j], bound)
    assert done.tolist() == [True]
    assert repr(float(score[0])) == repr(t2i_score(record, j, bound))
    _, done = _score([(0, lines)], [j], bound + 1)
    assert done.tolist() == [False]
