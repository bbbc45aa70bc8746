"""Overlap-on gains from the seen ranks (inexeval.gains.gains_overlap_on) equal, bit for bit, the
rank-order walk they replace (_gains_overlap_on_walk), over random topics and rankings with repeats,
unlisted results and several alphas."""

from __future__ import annotations

import random

import numpy as np
import pytest

from inexeval.gains import OverlapIndex, _gains_overlap_on_walk, gains_overlap_on, seen_ranks
from inexeval.model import FileAssessment, Judgement
from inexeval.recallbase import QuantisedTopic
from randomtrees import all_paths, random_topic

QUANTS = ("strict", "gen", "genLifted")


@pytest.mark.parametrize("seed", range(60))
def test_seen_ranks_give_the_walks_gains(seed):
    ta = random_topic(seed, n_files=1 + seed % 4)
    rng = random.Random(seed + 7)
    cands = all_paths(ta)
    for quant in QUANTS:
        qt = QuantisedTopic(ta, quant)
        index = OverlapIndex(qt)
        assert not qt.elements.unlisted_above
        for _ in range(4):
            k = rng.randint(0, 2 * len(cands))
            ranking = [rng.choice(cands) for _ in range(k)]  # repeats included
            ids = qt.elements.ids(ranking)
            for alpha in (1.0, 0.5, 0.0, 0.3):
                want = _gains_overlap_on_walk(index, ranking, alpha, ids)
                assert np.array_equal(gains_overlap_on(index, ranking, alpha, ids), want)
                assert np.array_equal(gains_overlap_on(index, ranking, alpha, ids, seen_ranks(qt.elements, ids)),
                                      want)


def test_seen_ranks_of_a_chain():
    ta = random_topic(3, n_files=1)
    fa = next(iter(ta.files.values()))
    fa.elements = {p: Judgement(p, 2, 10, 10) for p in ("/article[1]", "/article[1]/sec[1]", "/article[1]/sec[1]/p[1]",
                                                         "/article[1]/sec[2]")}
    qt = QuantisedTopic(ta, "gen")
    f = fa.file
    ranking = [(f, "/article[1]/sec[1]"), (f, "/article[1]/zz[1]"), (f, "/article[1]/sec[1]/p[1]"),
               (f, "/article[1]/sec[1]")]
    first, above, below, _, _ = seen_ranks(qt.elements, qt.elements.ids(ranking))
    never = len(ranking)
    assert first.tolist() == [never, 0, 2, never]
    assert above.tolist() == [never, 0, 0, never]
    assert below.tolist() == [0, 2, never, never]


def test_files_with_unlisted_ancestors_take_the_walk():
    ta = random_topic(5, n_files=1)
    ta.files["gap"] = FileAssessment(file="gap", elements={
        "/article[1]": Judgement("/article[1]", 2, 100, 50),
        "/article[1]/bdy[1]/sec[1]": Judgement("/article[1]/bdy[1]/sec[1]", 2, 40, 40)})
    qt = QuantisedTopic(ta, "gen")
    assert qt.elements.unlisted_above
    ranking = [("gap", "/article[1]/bdy[1]"), ("gap", "/article[1]/bdy[1]/sec[1]"), ("gap", "/article[1]")]
    index = OverlapIndex(qt)
    for alpha in (1.0, 0.5):
        assert np.array_equal(gains_overlap_on(index, ranking, alpha),
                              _gains_overlap_on_walk(index, ranking, alpha))
