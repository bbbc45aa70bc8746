"""Properties of the XCG measures over random consistent assessments and runs,
and Q against NTCIREVAL (pyNTCIREVAL) as an independent oracle."""

from __future__ import annotations

import random

import numpy as np
import pytest
from pyNTCIREVAL.metrics import QMeasure

from helpers import assert_close
from inexeval.gains import OverlapIndex, gains_overlap_off, gains_overlap_on
from inexeval.measures import xcg
from inexeval.measures.registry import Params, Setting, TopicContext, TopicInput
from inexeval.recallbase import QuantisedTopic
from recallbase_paths import id_of, ideal_elements
from randomtrees import all_paths, random_topic

SEEDS = range(40)
QUANTS = ("strict", "gen", "genLifted")


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("overlap,alpha", [("off", 1.0), ("on", 1.0), ("on", 0.5), ("on", 0.0)])
def test_gains_bounded(seed, overlap, alpha):
    """xG as the measures see it: no gain is negative, and the cumulated gain never exceeds the ideal
    total.  (Values in [0, 1] and the ideal run scoring 1: tests/test_registry_properties.py.)"""
    ta = random_topic(seed)
    rng = random.Random(seed + 1000)
    cands = all_paths(ta)
    for quant in QUANTS:
        ranking = rng.sample(cands, k=min(len(cands), rng.randint(0, 15)))
        ti = TopicInput(TopicContext(ta.topic, ta), ranking, Setting(quant, overlap, alpha),
                        Params(dcv=(1, 3, 10), max_results=20))
        xg, xi = xcg.gains(ti)
        if len(xi) == 0:
            continue
        assert (xg >= 0).all(), "no gain is negative"
        assert xg.sum() <= xi.sum() * (1 + 1e-9), "cumulated gain never exceeds the ideal total"


@pytest.mark.parametrize("seed", SEEDS)
def test_permuting_equal_gains_leaves_nxcg_unchanged(seed):
    ta = random_topic(seed)
    rng = random.Random(seed)
    qt = QuantisedTopic(ta, "gen")
    cands = all_paths(ta)
    ranking = rng.sample(cands, k=min(len(cands), 12))
    xg = gains_overlap_off(qt, ranking)
    # shuffle results within groups of equal gain, keeping each group's rank positions
    perm = list(ranking)
    for g in set(xg.tolist()):
        pos = [i for i, v in enumerate(xg) if v == g]
        items = [ranking[i] for i in pos]
        rng.shuffle(items)
        for i, it in zip(pos, items):
            perm[i] = it
    xi = qt.full_vector
    if len(xi) == 0:
        return
    ks = np.arange(1, 15)
    assert np.array_equal(xcg.nxcg(xg, xi, ks), xcg.nxcg(gains_overlap_off(qt, perm), xi, ks))


@pytest.mark.parametrize("seed", SEEDS)
def test_alpha0_gain_is_quant_before_budget(seed):
    """α = 0: rv = quant whatever was seen, so xG[i] = min(quant, remaining budget) <= quant."""
    ta = random_topic(seed)
    rng = random.Random(seed)
    qt = QuantisedTopic(ta, "gen")
    cands = all_paths(ta)
    ranking = rng.sample(cands, k=min(len(cands), 12))
    xg = gains_overlap_on(OverlapIndex(qt), ranking, 0.0)
    quant = gains_overlap_off(qt, ranking)
    assert (xg <= quant + 1e-12).all()
    if len(ranking):  # nothing charged before rank 1: its gain is min(quant, its ideal budget)
        idx = OverlapIndex(qt)
        i = id_of(qt.elements, *ranking[0])
        if i >= 0 and idx.ideal_of[i] >= 0:
            assert_close(xg[0], min(quant[0], qt.q[idx.ideal_of[i]]), "rank 1")
        elif i >= 0 and len(idx.below(i)):
            assert_close(xg[0], min(quant[0], sum(qt.q[b] for b in idx.below(i))), "rank 1")
        else:
            assert_close(xg[0], quant[0], "rank 1 off relevant paths")


@pytest.mark.parametrize("grades", [(1, 2, 3), (1, 4, 9)])
@pytest.mark.parametrize("beta", [1.0, 0.5])
@pytest.mark.parametrize("seed", range(25))
def test_q_matches_ntcireval(grades, beta, seed):
    rng = random.Random(seed)
    n_docs = rng.randint(1, 40)
    levels = {f"d{i}": rng.choice([0, 0, 1, 2, 3]) for i in range(n_docs)}
    if not any(levels.values()):
        levels["d0"] = 2
    ranked = rng.sample(sorted(levels) + [f"u{i}" for i in range(5)], k=rng.randint(1, n_docs + 5))
    xrelnum = [sum(1 for v in levels.values() if v == lv) for lv in range(4)]
    expected = QMeasure(xrelnum, list(grades), beta).compute([(d, levels.get(d)) for d in ranked])
    gain = {lv: float(grades[lv - 1]) for lv in (1, 2, 3)}
    xg = np.array([gain.get(levels.get(d, 0), 0.0) for d in ranked])
    xi = np.array(sorted((gain[v] for v in levels.values() if v), reverse=True))
    assert_close(xcg.q_measure(xg, xi, beta), expected, "Q vs NTCIREVAL")


@pytest.mark.parametrize("seed", SEEDS)
def test_ideal_by_ids_equals_ideal_by_paths(seed):
    """Two implementations of docs/measures.md §4.2: the columnar one used by the evaluator and the path-based one."""

    ta = random_topic(seed)
    for quant in QUANTS:
        qt = QuantisedTopic(ta, quant)
        by_paths = {f: ideal_elements(qt.file_quants(f)) for f in ta.files}
        assert qt.ideal == {f: ps for f, ps in by_paths.items() if ps}


def test_element_ids_of_rankings():
    from inexeval.recallbase import TopicElements
    from t1data import EL, t1

    el = TopicElements(t1())
    ranking = [EL["P3"], EL["Z"], EL["U"], ("f1", "/article[1]/sec[1]/p[1]/b[1]"), ("f1", "/article"), EL["A"]]
    ids = el.ids(ranking)
    assert [el.key(i) for i in ids if i >= 0] == [EL["P3"], EL["A"]]
    assert list(ids >= 0) == [True, False, False, False, False, True]  # prefixes and unlisted: -1
    assert id_of(el, *EL["B1"]) == len(el) - 1 and el.ids([]).shape == (0,)
    assert el.up[id_of(el, *EL["P1"])] == id_of(el, *EL["S1"]) and el.up[id_of(el, *EL["A"])] == -1
    assert list(el.children(id_of(el, *EL["S1"]))) == [id_of(el, *EL["P1"]), id_of(el, *EL["P2"])]


@pytest.mark.parametrize("n_files", [3, 70_000])
def test_element_keys_number_their_files(n_files):
    """Keys hold a file's number and a path's number, not their strings: every element's key and id
    come back, across files that share paths (each distinct path numbered once), an empty file,
    non-ASCII ids and paths, and beyond 65,535 files; a file or a path the topic does not list, or
    listed only elsewhere, is -1."""
    from inexeval.recallbase import TopicElements
    from t1data import topic_from_rows

    files = [f"wiki/{i}" if i % 3 else f"é/{i}" for i in range(n_files)]
    rows = [(f, p, 1, 10, 5) for i, f in enumerate(files) if i != 1
            for p in (["/article[1]", "/article[1]/p[1]"] if i % 2 else ["/article[1]"])
            + (["/article[1]/é[2]"] if i % 5 == 0 else [])]
    el = TopicElements(topic_from_rows("T", rows, empty_files=[files[1]]))
    distinct = ["/article[1]", "/article[1]/é[2]"] + (["/article[1]/p[1]"] if n_files > 3 else [])
    assert list(el._path_number) == distinct
    keys = [(f, p) for f, p, *_ in rows]
    assert [el.key(i) for i in range(len(el))] == keys
    probe = keys[::97] + [(files[1], "/article[1]"), ("wiki/none", "/article[1]"), (files[0], "/article[1]/p[1]"),
                          (files[0], "/article[1]/nowhere[1]"), (files[1], "/article[1]/é[2]")]
    assert list(el.ids(probe)) == list(range(0, len(keys), 97)) + [-1] * 5
    if n_files > 256:
        at = next(i for i, k in enumerate(keys) if k[0] == files[256])
        assert el.ids([keys[at]])[0] == at and el.key(at) == keys[at]


def test_parent_is_up_but_below_a_gap_and_sizes_fit():
    """``parent`` is not stored: ``up`` except below an unlisted parent; sizes take 4 bytes unless one
    needs 8."""
    from inexeval.recallbase import TopicElements
    from t1data import topic_from_rows

    rows = [("f", "/article[1]", 1, 2**31, 5), ("f", "/article[1]/sec[1]", 1, 10, 5),
            ("f", "/article[1]/sec[2]/p[1]", 1, 10, 5), ("f", "/article[1]/sec[2]/p[1]/b[1]", 1, 3, 1),
            ("g", "/article[1]/p[1]", 1, 10, 5)]
    el = TopicElements(topic_from_rows("T", rows))
    assert list(el.up) == [-1, 0, 0, 2, -1] and list(el.parent) == [-1, 0, -1, 2, -1]
    assert [list(el.children(i)) for i in range(5)] == [[1], [], [3], [], []]
    assert el.size.typecode == "q" and el.size[0] == 2**31
    assert TopicElements(topic_from_rows("T", rows[1:])).size.typecode == "i"


@pytest.mark.parametrize("seed", SEEDS)
def test_overlap_index_matches_paths(seed):
    """ideal_of and below, computed on id arrays level by level, against the definitions on paths:
    the ideal element that is an ancestor-or-self of the element, and the ideal elements it is a
    proper ancestor of (in id order)."""
    from inexeval.paths import ancestors_or_self

    ta = random_topic(seed)
    for quant in QUANTS:
        qt = QuantisedTopic(ta, quant)
        idx = OverlapIndex(qt)
        el = qt.elements
        ideal = {(f, p) for f, ps in qt.ideal.items() for p in ps}
        for i in range(len(el)):
            f, p = el.key(i)
            inside = [(f, a) for a in ancestors_or_self(p) if (f, a) in ideal]
            under = [j for j in qt.ideal_ids
                     if el.key(j)[0] == f and el.key(j)[1].startswith(p + "/")]
            assert len(inside) <= 1 and not (inside and under), "ideal elements do not nest"
            if inside:
                assert idx.ideal_of[i] == id_of(el, *inside[0])
                assert list(idx.below(i)) == []
            elif under:
                assert idx.ideal_of[i] < -1
                assert list(idx.below(i)) == under
            else:
                assert idx.ideal_of[i] == -1
                assert list(idx.below(i)) == []


@pytest.mark.parametrize("seed", range(40))
def test_element_ids_are_a_look_up_of_file_and_path(seed):
    """ids(ranking) equals looking each (file, path) up among the topic's elements (ids in file order),
    -1 for the rest: across files sharing paths, paths listed only in another file, unknown files and
    paths, non-ASCII and surrogate-escaped text, repeats and an empty ranking."""
    import random

    from inexeval.recallbase import TopicElements
    from randomtrees import all_paths, random_topic

    ta = random_topic(seed, n_files=1 + seed % 4)
    rng = random.Random(seed)
    if seed % 3 == 0:  # a file with odd characters in its id and paths
        from inexeval.model import FileAssessment, Judgement
        fa = FileAssessment(file="wiki/é\udce9")
        for p in ("/article[1]", "/article[1]/é[1]", "/article[1]/p[1]"):
            fa.elements[p] = Judgement(p, 1, 10, 5)
        ta.files[fa.file] = fa
    el = TopicElements(ta)
    reference = {(f, p): i for i, (f, p) in enumerate((f, p) for f, fa in ta.files.items() for p in fa.elements)}
    cands = all_paths(ta) + [("nowhere", "/article[1]"), (next(iter(ta.files)), "/article[1]/é[1]")]
    for k in (0, 1, 7, 3 * len(cands)):
        ranking = [rng.choice(cands) for _ in range(k)]
        assert el.ids(ranking).tolist() == [reference.get(key, -1) for key in ranking]
    assert [el.key(i) for i in range(len(el))] == list(reference)
