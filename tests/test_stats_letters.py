"""Significance groups as a compact letter display (docs/measures.md §12.4): two runs share a letter
exactly when they are not significantly different, on any symmetric pattern (consistent or not); the
best run holds ``a``; letters in order within a string; no redundant letter."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from inexeval.compare import letters as L
from inexeval.compare.letters import compact_letter_display, letter, tokens


def _symmetric(m: int, bits) -> np.ndarray:
    sig = np.zeros((m, m), dtype=bool)
    sig[np.triu_indices(m, 1)] = bits
    return sig | sig.T


def _check(means, sig) -> list[str]:
    """The display's properties; returns it."""
    groups = compact_letter_display(means, sig)
    m = len(means)
    assert len(groups) == m
    held = [tokens(g) for g in groups]
    index = {letter(k): k for k in range(2 * 52 + 10)}
    for i in range(m):
        assert held[i], f"run {i} holds no letter: {groups}"
        ks = [index[t] for t in held[i]]
        assert ks == sorted(set(ks)), f"letters out of order or repeated: {groups[i]!r}"
        for j in range(i + 1, m):
            assert bool(set(held[i]) & set(held[j])) == (not sig[i, j]), (i, j, groups)
    # the best run (first of the highest means) holds 'a'
    mu = np.asarray(means, dtype=float)
    if m and not np.all(np.isnan(mu)):
        assert "a" in held[int(np.nanargmax(mu))]
    # letters used are a prefix of the sequence, each named for its best run's position
    used = sorted({index[t] for h in held for t in h})
    assert used == list(range(len(used)))
    # no redundant letter: each one has a run holding nothing else, or joins a pair nothing else joins
    for k in used:
        name = letter(k)
        runs = [i for i in range(m) if name in held[i]]
        alone = any(len(held[i]) == 1 for i in runs)
        private = any(not (set(held[i]) & set(held[j])) - {name} for i, j in itertools.combinations(runs, 2))
        assert alone or private, f"letter {name} is redundant in {groups}"
    return groups


@settings(max_examples=400, deadline=None)
@given(st.integers(1, 12).flatmap(lambda m: st.tuples(
    st.lists(st.floats(0, 1) | st.sampled_from([0.25, 0.5]), min_size=m, max_size=m),
    st.lists(st.booleans(), min_size=m * (m - 1) // 2, max_size=m * (m - 1) // 2))))
def test_defining_property_on_any_pattern(case):
    means, bits = case
    _check(means, _symmetric(len(means), bits))


@pytest.mark.parametrize("density", [0.1, 0.3, 0.5, 0.7, 0.9])
def test_seeded_random_patterns(density):
    rng = np.random.default_rng(int(density * 10))
    for _ in range(40):
        m = int(rng.integers(2, 13))
        bits = rng.random(m * (m - 1) // 2) < density
        _check(rng.random(m), _symmetric(m, bits))


def test_consistent_patterns_give_contiguous_letters():
    # significant iff the means differ by more than a threshold (as Tukey's single critical range):
    # each letter holds runs adjacent in the order of the means
    rng = np.random.default_rng(1)
    for _ in range(60):
        m = int(rng.integers(2, 25))
        means = rng.random(m)
        sig = np.abs(means[:, None] - means[None, :]) > rng.uniform(0.05, 0.6)
        groups = _check(means, sig)
        order = np.argsort(-means, kind="stable")
        for name in {t for g in groups for t in tokens(g)}:
            pos = [r for r, j in enumerate(order) if name in tokens(groups[j])]
            assert pos == list(range(pos[0], pos[-1] + 1)), (name, groups)


def test_hand_cases():
    # A 0.6 > B 0.4 > C 0.2, only A–C significant: {A, B, C} split into {B, C} and {A, B};
    # named by their best run: {A, B} a, {B, C} b
    sig = np.array([[0, 0, 1], [0, 0, 0], [1, 0, 0]], dtype=bool)
    assert compact_letter_display([0.6, 0.4, 0.2], sig) == ["a", "ab", "b"]
    # the same runs given in another order
    assert compact_letter_display([0.2, 0.6, 0.4], np.array([[0, 1, 0], [1, 0, 0], [0, 0, 0]], dtype=bool)) == \
        ["b", "a", "ab"]
    assert compact_letter_display([0.1, 0.3], np.zeros((2, 2), dtype=bool)) == ["a", "a"]
    assert compact_letter_display([0.2, 0.9, 0.5], ~np.eye(3, dtype=bool)) == ["c", "a", "b"]
    # a staircase: 1–3, 1–4, 2–4 significant (runs by mean 1 > 2 > 3 > 4): {1, 2}, {2, 3}, {3, 4}
    sig = _symmetric(4, [0, 1, 1, 0, 1, 0])
    assert compact_letter_display([0.9, 0.7, 0.5, 0.3], sig) == ["a", "ab", "bc", "c"]
    # inconsistent: 0.9 and 0.7 significantly different, 0.9 and 0.5 not: {0.9, 0.7, 0.5} split into
    # {0.7, 0.5} and {0.9, 0.5}; named by their best run: {0.9, 0.5} a, {0.7, 0.5} b
    sig = _symmetric(3, [1, 0, 0])  # pairs (0,1) (0,2) (1,2)
    assert compact_letter_display([0.9, 0.7, 0.5], sig) == ["a", "b", "ab"]
    assert compact_letter_display([0.5], np.zeros((1, 1), dtype=bool)) == ["a"]
    assert compact_letter_display([], np.zeros((0, 0), dtype=bool)) == []


def test_redundant_letters_are_dropped():
    # six runs, significant pairs 0–1, 2–3, 4–5: the runs not significantly different form the
    # octahedron, whose 8 triangles (maximal cliques, all that insert-and-absorb keeps) cover its 12
    # pairs twice over; 4 of them suffice
    sig = np.zeros((6, 6), dtype=bool)
    for i, j in ((0, 1), (2, 3), (4, 5)):
        sig[i, j] = sig[j, i] = True
    columns = L._insert_absorb(sig, 6)
    assert len(columns) == 8
    groups = _check(np.linspace(1, 0, 6), sig)
    assert len({t for g in groups for t in tokens(g)}) == 4


def test_ties_and_nan_means():
    # equal means keep the runs' order; a NaN mean comes last
    assert compact_letter_display([0.5, 0.5, 0.5], ~np.eye(3, dtype=bool)) == ["a", "b", "c"]
    assert compact_letter_display([float("nan"), 0.1, 0.2], ~np.eye(3, dtype=bool)) == ["c", "b", "a"]


def test_greedy_cover_when_the_letters_would_explode(monkeypatch):
    # twelve groups of three runs, each group's runs significantly different from one another and
    # from no one else: 3^12 maximal cliques; the greedy cover takes over past the cap
    m = 36
    part = np.arange(m) // 3
    sig = (part[:, None] == part[None, :]) & ~np.eye(m, dtype=bool)
    assert L._insert_absorb(sig, m) is None
    means = np.random.default_rng(2).random(m)
    groups = _check(means, sig)
    assert len({t for g in groups for t in tokens(g)}) < 100
    # a small cap sends an ordinary pattern to the greedy cover too: still exact
    monkeypatch.setattr(L, "_cap", lambda m: 1)
    rng = np.random.default_rng(3)
    for _ in range(50):
        k = int(rng.integers(2, 12))
        _check(rng.random(k), _symmetric(k, rng.random(k * (k - 1) // 2) < 0.4))


def test_beyond_the_alphabet():
    assert [letter(k) for k in (0, 25, 26, 51, 52, 77, 103, 104)] == ["a", "z", "A", "Z", "a1", "z1", "Z1", "a2"]
    assert tokens("ab1c") == ["a", "b1", "c"] and tokens("Z12a3") == ["Z12", "a3"] and tokens("") == []
    m = 60  # every pair significant: 60 letters, one a run
    groups = _check(list(np.linspace(1, 0, m)), ~np.eye(m, dtype=bool))
    assert groups[0] == "a" and groups[51] == "Z" and groups[52] == "a1" and groups[59] == "h1"


def test_tukey_sized_display_is_quick():
    # 100 runs with a consistent pattern: at most 100 maximal cliques, no fallback
    rng = np.random.default_rng(4)
    means = np.sort(rng.random(100))[::-1]
    sig = np.abs(means[:, None] - means[None, :]) > 0.15
    assert L._insert_absorb(sig, 100) is not None
    _check(means, sig)


def test_bad_patterns_are_refused():
    with pytest.raises(ValueError, match="symmetric"):
        compact_letter_display([0.1, 0.2], np.array([[0, 1], [0, 0]], dtype=bool))
    with pytest.raises(ValueError, match="matrix"):
        compact_letter_display([0.1, 0.2, 0.3], np.zeros((2, 2), dtype=bool))
    with pytest.raises(ValueError, match="vector"):
        compact_letter_display([[0.1, 0.2]], np.zeros((2, 2), dtype=bool))
