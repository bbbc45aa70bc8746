"""Significance groups as a compact letter display (docs/measures.md §12.4): two runs share a letter
exactly when they are not significantly different, on any symmetric pattern (consistent or not)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from inexeval.compare.letters import compact_letter_display, letter


def _check(means, sig) -> list[str]:
    groups = compact_letter_display(means, sig)
    m = len(means)
    tokens = [set(_tokens(g)) for g in groups]
    for i in range(m):
        assert tokens[i], "every run has a letter"
        for j in range(i + 1, m):
            assert bool(tokens[i] & tokens[j]) == (not sig[i, j]), (i, j, groups)
    return groups


def _tokens(g: str) -> list[str]:
    out, k = [], 0
    while k < len(g):
        if g[k] == "⟨":
            end = g.index("⟩", k)
            out.append(g[k:end + 1])
            k = end + 1
        else:
            out.append(g[k])
            k += 1
    return out


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 12).flatmap(lambda m: st.tuples(
    st.lists(st.floats(0, 1), min_size=m, max_size=m),
    st.lists(st.booleans(), min_size=m * (m - 1) // 2, max_size=m * (m - 1) // 2))))
def test_defining_property_on_any_pattern(case):
    means, bits = case
    m = len(means)
    sig = np.zeros((m, m), dtype=bool)
    sig[np.triu_indices(m, 1)] = bits
    sig |= sig.T
    _check(means, sig)


def test_hand_cases():
    # A > B > C; A differs from C only: A and B share 'a', B and C share 'b'
    sig = np.array([[0, 0, 1], [0, 0, 0], [1, 0, 0]], dtype=bool)
    assert compact_letter_display([0.6, 0.4, 0.2], sig) == ["a", "ab", "b"]
    # nothing significant: one group
    assert compact_letter_display([0.1, 0.3], np.zeros((2, 2), dtype=bool)) == ["a", "a"]
    # everything significant: one letter each, the best run 'a'
    sig = ~np.eye(3, dtype=bool)
    assert compact_letter_display([0.2, 0.9, 0.5], sig) == ["c", "a", "b"]


def test_the_best_run_gets_a():
    rng = np.random.default_rng(0)
    for _ in range(50):
        m = int(rng.integers(2, 10))
        means = rng.random(m)
        sig = rng.random((m, m)) < 0.4
        sig = np.triu(sig, 1)
        sig |= sig.T
        groups = _check(means, sig)
        assert "a" in groups[int(np.argmax(means))]


def test_beyond_the_alphabets():
    assert [letter(k) for k in (0, 25, 26, 51, 52, 99, 100)] == ["a", "z", "A", "Z", "α", "Ω", "⟨101⟩"]
    m = 60  # every pair significant: 60 letters
    groups = _check(list(np.linspace(1, 0, m)), ~np.eye(m, dtype=bool))
    assert groups[0] == "a" and groups[52] == "α"


def test_bad_patterns_are_refused():
    with pytest.raises(ValueError, match="symmetric"):
        compact_letter_display([0.1, 0.2], np.array([[0, 1], [0, 0]], dtype=bool))
    with pytest.raises(ValueError, match="matrix"):
        compact_letter_display([0.1, 0.2, 0.3], np.zeros((2, 2), dtype=bool))
