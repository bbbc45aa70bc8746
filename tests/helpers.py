"""Shared test helpers: exact-to-1e-9 comparison of floats with fractions."""

from __future__ import annotations

import math
from fractions import Fraction

TOL = 1e-9


def close(actual, expected) -> bool:
    """|actual - expected| <= 1e-9 (relative, absolute near 0)."""
    e = float(Fraction(expected)) if not isinstance(expected, float) else expected
    return math.isclose(float(actual), e, rel_tol=TOL, abs_tol=TOL)


def assert_close(actual, expected, what: str = "") -> None:
    assert close(actual, expected), f"{what}: got {actual!r}, expected {expected} = {float(Fraction(expected))!r}"


def assert_all_close(actual, expected, what: str = "") -> None:
    actual = list(actual)
    assert len(actual) == len(expected), f"{what}: length {len(actual)} != {len(expected)}"
    for i, (a, e) in enumerate(zip(actual, expected)):
        assert_close(a, e, f"{what}[{i}]")
