"""docs/measures.md Examples 8 and 9: FetchBrowse article and element level (docs/measures.md §4.7)."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from helpers import assert_close
from inexeval.gains import OverlapIndex
from inexeval.measures import fetchbrowse
from inexeval.recallbase import QuantisedTopic
from t1data import R2, run, t1


def test_article_reduction_keeps_first_occurrence():
    ranking = [("a1", "/article[1]/e[1]"), ("a1", "/article[1]/e[2]"), ("a2", "/article[1]")]
    assert fetchbrowse.article_list(ranking) == ["a1", "a2"]


@pytest.mark.parametrize("overlap", ["off", "on"])
def test_example8_article_level(overlap):
    qt = QuantisedTopic(t1(), "gen")
    # article gains f1 2, f2 1, f3 0 -> xI = [2, 1]; article list f3, f2, f1 -> xG = [0, 1, 2]
    maep, curve = fetchbrowse.article_level(qt, run(*R2))
    # points: rank 2 (gr 1/3, i_ideal 1/2, ep 1/4), rank 3 (gr 1, i_ideal 2, ep 2/3)
    assert_close(maep, F(11, 24), "article.MAep = (1/4 + 2/3)/2")
    assert_close(curve[32], F(1, 4), "ep@0.33")
    assert_close(curve[49], F(17, 48), "ep@0.50 = 1/4 + (5/8)(1/2 - 1/3)")
    assert_close(curve[99], F(2, 3), "ep@1.00")
    assert_close(curve.mean(), F(18767, 48000), "article.iMAep")


def test_example9_element_level_off():
    qt = QuantisedTopic(t1(), "gen")
    # f2: xG [1, 1/5] is ideal -> 1, 1; f1: MAep 3/7, iMAep 16/25 (curve 1 for p <= 64)
    maep, imaep = fetchbrowse.element_level(qt, None, run(*R2), "off", 1.0)
    assert_close(maep, F(5, 7), "element.MAep = (1 + 3/7)/2")
    assert_close(imaep, F(41, 50), "element.iMAep = (1 + 16/25)/2")


def test_example9_element_level_on():
    qt = QuantisedTopic(t1(), "gen")
    # f2: ideal {B1}: MAep = iMAep = 1; f1: ideal {S1, P3, S3}, S1 2, P1 0, P3 2:
    # points (2/5, 1), (4/5, 2/3): MAep 5/9, iMAep 439/600
    maep, imaep = fetchbrowse.element_level(qt, OverlapIndex(qt), run(*R2), "on", 1.0)
    assert_close(maep, F(7, 9), "element.MAep = (1 + 5/9)/2")
    assert_close(imaep, F(1039, 1200), "element.iMAep = (1 + 439/600)/2")


def test_element_level_no_relevant_article_retrieved_scores_zero():
    qt = QuantisedTopic(t1(), "gen")
    assert fetchbrowse.element_level(qt, None, run("Z"), "off", 1.0) == (0.0, 0.0)
