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
    assert above.tolist() == [0, 0, 0]  # the listed results' (sec[1], p[1], sec[1]), in rank order
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


@pytest.mark.parametrize("seed", range(40))
def test_seen_ranks_by_their_definitions(seed):
    # first[e], above (each listed result's element and its listed ancestors, rank order) and below[e]
    # (e's listed proper descendants) against the definitions, ancestor by ancestor
    ta = random_topic(seed, n_files=1 + seed % 3)
    rng = random.Random(seed)
    cands = all_paths(ta)
    el = QuantisedTopic(ta, "gen").elements
    up = list(el.up)

    def ancestors(e):  # listed proper ancestors, nearest first
        while up[e] >= 0:
            e = up[e]
            yield e

    for k in (0, 1, 5, 2 * len(cands)):
        ids = el.ids([rng.choice(cands) for _ in range(k)])
        never = len(ids)
        first = [min((r for r, i in enumerate(ids) if i == e), default=never) for e in range(len(el))]
        got_first, above, below, first_l, below_l = seen_ranks(el, ids)
        assert got_first.tolist() == first == list(first_l)
        assert above.tolist() == [min([first[i]] + [first[a] for a in ancestors(i)]) for i in ids if i >= 0]
        want_below = [min((first[d] for d in range(len(el)) if e in ancestors(d)), default=never)
                      for e in range(len(el))]
        assert below.tolist() == want_below == list(below_l)
