"""Element ancestry on normalised paths (inexeval/paths.py): the one set of helpers every module uses."""

from __future__ import annotations

from inexeval.paths import ancestors_or_self, depth, is_ancestor, parent, proper_ancestors

DEEP = "/article[1]/bdy[1]/sec[2]/p[3]"


def test_parent_and_depth():
    assert parent(DEEP) == "/article[1]/bdy[1]/sec[2]"
    assert parent("/article[1]") is None
    assert (depth(DEEP), depth("/article[1]")) == (4, 1)


def test_proper_ancestors_nearest_first_without_self():
    assert list(proper_ancestors(DEEP)) == ["/article[1]/bdy[1]/sec[2]", "/article[1]/bdy[1]", "/article[1]"]
    assert list(proper_ancestors("/article[1]")) == []


def test_ancestors_or_self_is_self_then_proper_ancestors():
    assert list(ancestors_or_self(DEEP)) == [DEEP, *proper_ancestors(DEEP)]
    assert list(ancestors_or_self("/article[1]")) == ["/article[1]"]


def test_is_ancestor_agrees_with_proper_ancestors():
    paths = ["/article[1]", "/article[1]/bdy[1]", "/article[1]/bdy[10]", "/article[1]/bdy[1]/sec[1]",
             "/article[2]"]
    for a in paths:
        for b in paths:
            assert is_ancestor(a, b) == (a in set(proper_ancestors(b))), (a, b)
    assert not is_ancestor("/article[1]/bdy[1]", "/article[1]/bdy[10]")  # a prefix that is not a step
