"""HiXEval (docs/measures.md §5): docs/measures.md Example 10 and hand-worked cases."""

from __future__ import annotations

import random
from fractions import Fraction as Fr

import pytest
from randomtrees import random_text_tree

# Topic T1 of docs/measures.md (Appendix A), shared with the XCG tests
from t1data import EL as KEY
from t1data import T1_ROWS as T1
from t1data import topic_from_rows

from inexeval.measures.hixeval import hixeval_topic, total_relevant
from inexeval.model import TopicAssessment

R1 = [KEY[k] for k in ["P2", "P1", "S2", "P3", "A", "B1", "Z", "B"]]


def topic_of(rows, empty_files=(), name="T1") -> TopicAssessment:
    """A TopicAssessment from (file, path, e, size, rsize) rows; ``empty_files`` are judged, nothing relevant."""
    return topic_from_rows(name, rows, empty_files)


def t1() -> TopicAssessment:
    return topic_of(T1.values(), empty_files=["f3"])


def check(result, expected):
    for key, value in expected.items():
        assert result[key] == pytest.approx(float(value), rel=1e-9, abs=1e-12), key


def test_trel_alpha_one_and_below():
    # alpha = 1: roots only, A 700 + B 100 (f3 lists nothing)
    assert total_relevant(t1(), 1.0) == 800
    # alpha < 1: every listed element, 700+400+200+200+200+100+100+100 + 100+100
    assert total_relevant(t1(), 0.5) == 2200
    assert total_relevant(t1(), 0.0) == 2200


def test_example_10_alpha_1():
    # rval = 200, 200, 200, 0 (P3 inside S2), 700-600 = 100 (P2, P1, S2), 100, 0, 100-100 = 0
    # rval/size = 1, 1, 1/3, 0, 1/20, 1, 0, 0; Trel = 800
    r = hixeval_topic(t1(), R1, alpha=1.0, dcv=[1, 5, 10])
    p5 = (1 + 1 + Fr(1, 3) + 0 + Fr(1, 20)) / 5
    p6 = (1 + 1 + Fr(1, 3) + 0 + Fr(1, 20) + 1) / 6
    p10 = (1 + 1 + Fr(1, 3) + Fr(1, 20) + 1) / 10
    assert p5 == Fr(143, 300) and p6 == Fr(203, 360) and p10 == Fr(203, 600)
    check(
        r,
        {
            "hixeval.P@1": 1,
            "hixeval.R@1": Fr(200, 800),
            "hixeval.F@1": Fr(2, 5),  # 2·1·(1/4)/(5/4)
            "hixeval.P@5": p5,
            "hixeval.R@5": Fr(700, 800),
            "hixeval.F@5": Fr(1001, 1622),  # 2·(143/300)(7/8)/(143/300 + 7/8)
            "hixeval.P@10": p10,
            "hixeval.R@10": 1,
            "hixeval.F@10": Fr(406, 803),
            # P@1·1/4 + P@2·1/4 + P@3·1/4 + P@5·1/8 + P@6·1/8, P@3 = (7/3)/3 = 7/9
            "hixeval.MAP": Fr(1, 4) + Fr(1, 4) + Fr(7, 9) / 4 + p5 / 8 + p6 / 8,
            # R reaches 1/4, 1/2, 3/4, 3/4, 7/8, 1 at ranks 1..6:
            # levels 0.0–0.5: 1; 0.6–0.7: P@3 = 7/9; 0.8–1.0: max(P@5, P@6) = 203/360
            "hixeval.iMAP": (6 * Fr(1) + 2 * Fr(7, 9) + 3 * p6) / 11,
        },
    )
    assert r["hixeval.MAP"] == pytest.approx(11873 / 14400, rel=1e-9)
    assert r["hixeval.iMAP"] == pytest.approx(3329 / 3960, rel=1e-9)


def test_example_10_alpha_half():
    # rval = 200, 200, 200, 100 - 100/2 = 50, 700 - 600/2 = 400, 100, 0, 100 - 100/2 = 50
    # rval/size = 1, 1, 1/3, 1/2, 1/5, 1, 0, 1/10; Trel = 2200
    r = hixeval_topic(t1(), R1, alpha=0.5, dcv=[5, 10])
    spec = [Fr(1), Fr(1), Fr(1, 3), Fr(1, 2), Fr(1, 5), Fr(1), Fr(0), Fr(1, 10)]
    rval = [200, 200, 200, 50, 400, 100, 0, 50]
    prec = [sum(spec[:i]) / i for i in range(1, 9)]
    rec = [Fr(sum(rval[:i]), 2200) for i in range(1, 9)]
    imap = sum(max([p for p, rc in zip(prec, rec) if rc >= Fr(lv, 10)], default=0) for lv in range(11)) / 11
    check(
        r,
        {
            "hixeval.P@5": Fr(91, 150),
            "hixeval.R@5": Fr(21, 44),  # 1050/2200
            "hixeval.F@5": Fr(39, 73),
            "hixeval.P@10": Fr(31, 75),  # (62/15)/10
            "hixeval.R@10": Fr(6, 11),  # 1200/2200
            "hixeval.F@10": Fr(372, 791),
            "hixeval.MAP": sum(p * Fr(v, 2200) for p, v in zip(prec, rval) if v > 0),
            "hixeval.iMAP": imap,
        },
    )
    assert r["hixeval.MAP"] == pytest.approx(33361 / 79200, rel=1e-9)
    assert imap == Fr(863, 1980)


def test_example_10_overlap_off_alpha_0():
    # alpha 0: rval = rsize; P@5 = (1 + 1 + 1/3 + 1 + 7/20)/5, R@5 = 1400/2200
    r = hixeval_topic(t1(), R1, alpha=0.0, dcv=[5])
    check(r, {"hixeval.P@5": Fr(221, 300), "hixeval.R@5": Fr(7, 11)})


def test_partially_seen_alpha_half_counts_maximal_descendants():
    rows = [
        ("x", "/article[1]", 1, 1000, 600),
        ("x", "/article[1]/sec[1]", 1, 400, 300),
        ("x", "/article[1]/sec[1]/p[1]", 1, 100, 100),
        ("x", "/article[1]/sec[2]", 1, 300, 300),
    ]
    run = [("x", "/article[1]/sec[1]/p[1]"), ("x", "/article[1]/sec[1]"), ("x", "/article[1]")]
    r = hixeval_topic(topic_of(rows), run, alpha=0.5, dcv=[3, 5])
    # rank 1 p1: seen 0, rval 100, /100 = 1
    # rank 2 sec1: partially seen by p1: rval = 300 - 100/2 = 250, /400 = 5/8
    # rank 3 article: maximal earlier descendant sec1 only (p1 is inside it):
    #   seen 300, rval = 600 - 300/2 = 450, /1000 = 9/20
    # Trel (alpha < 1) = 600 + 300 + 100 + 300 = 1300
    p1, p2, p3 = Fr(1), (1 + Fr(5, 8)) / 2, (1 + Fr(5, 8) + Fr(9, 20)) / 3
    assert p3 == Fr(83, 120)
    check(
        r,
        {
            "hixeval.P@3": p3,
            "hixeval.R@3": Fr(800, 1300),
            "hixeval.P@5": (1 + Fr(5, 8) + Fr(9, 20)) / 5,  # divisor 5 beyond the run
            "hixeval.R@5": Fr(800, 1300),
            "hixeval.MAP": (p1 * 100 + p2 * 250 + p3 * 450) / 1300,
        },
    )


def test_alpha_one_overlapping_results_count_text_once():
    rows = [
        ("x", "/article[1]", 1, 1000, 600),
        ("x", "/article[1]/sec[1]", 1, 400, 300),
        ("x", "/article[1]/sec[1]/p[1]", 1, 100, 100),
        ("x", "/article[1]/sec[2]", 1, 300, 300),
    ]
    run = [("x", "/article[1]/sec[1]"), ("x", "/article[1]"), ("x", "/article[1]/sec[1]/p[1]")]
    r = hixeval_topic(topic_of(rows), run, alpha=1.0, dcv=[3])
    # rval = 300, 600 - 300 = 300, 0 (ancestor retrieved); Trel = 600
    # P@3 = (300/400 + 300/1000 + 0)/3 = (3/4 + 3/10)/3 = 7/20
    check(r, {"hixeval.R@3": 1, "hixeval.P@3": Fr(7, 20)})


def test_nothing_relevant_is_undefined():
    t = topic_of([], empty_files=["f3"])
    assert hixeval_topic(t, [("f3", "/article[1]")], alpha=1.0, dcv=[5]) is None


def test_empty_run_scores_zero():
    r = hixeval_topic(t1(), [], alpha=1.0, dcv=[5])
    assert r == {
        "hixeval.P@5": 0.0,
        "hixeval.R@5": 0.0,
        "hixeval.F@5": 0.0,
        "hixeval.MAP": 0.0,
        "hixeval.iMAP": 0.0,
    }


def random_article(rng: random.Random, file: str):
    """Consistent assessments from a random tree: size and rsize are sums over the text.

    Returns the listed rows and every element path (listed or not).
    """

    def own_text(rng: random.Random, leaf: bool) -> tuple[int, int]:
        own = rng.randint(1, 40) if leaf else rng.randint(0, 10)
        return own, rng.choice([0, own, rng.randint(0, own)])

    nodes = random_text_tree(rng, own_text)
    rows = [(file, p, 1, s, r) for p, (s, r) in nodes.items() if r > 0]
    return rows, [(file, p) for p in nodes]


def test_values_within_0_1_on_random_topics():
    rng = random.Random(20060)
    for i in range(300):
        rows, elements = [], []
        for f in range(rng.randint(1, 4)):
            r, e = random_article(rng, f"d{f}")
            rows += r
            elements += e
        elements.append(("unjudged", "/article[1]"))
        topic = topic_of(rows)
        # every third run retrieves every element, in a random order
        run = rng.sample(elements, len(elements) if i % 3 == 0 else rng.randint(0, len(elements)))
        for alpha in (0.0, 0.5, 1.0):
            result = hixeval_topic(topic, run, alpha=alpha, dcv=[1, 5, 10, 50])
            if not rows:
                assert result is None
                continue
            for key, value in result.items():
                assert -1e-12 <= value <= 1 + 1e-9, (key, value)
            if alpha == 1.0 and len(run) == len(elements):
                # every element retrieved, in any order: all highlighted text is found exactly once
                full = hixeval_topic(topic, run, alpha=alpha, dcv=[len(run)])
                assert full[f"hixeval.R@{len(run)}"] == pytest.approx(1.0, rel=1e-9)
