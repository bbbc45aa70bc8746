"""The evaluator's numeric rules: its one tolerance (docs/measures.md §10), and what the statistics
take as a count and as a magnitude they can work on (§12).

Scores are sums and ratios of floating-point numbers, so two values that are
equal in exact arithmetic may differ in their last bits.  Every tie, threshold
and "no larger than" test therefore compares with this relative tolerance
instead of ``==``, ``>=`` or ``>``.
"""

from __future__ import annotations

import numbers

#: The relative tolerance of exact comparisons (docs/measures.md §10): a and b
#: count as equal when they differ by at most ``TOLERANCE`` times their size.
TOLERANCE = 1e-9


def is_count(value) -> bool:
    """Whether VALUE is a positive whole count, such as a number of samples: an int (numpy's too) of at
    least 1, not a bool, not a float (``2.0``, ``inf`` and NaN are refused where they are given, not
    later inside numpy)."""
    return isinstance(value, numbers.Integral) and not isinstance(value, bool) and bool(value >= 1)


#: The magnitudes of scores the statistics work on (docs/measures.md §12): squares of 10^150 are
#: 10^300 and of 10^-150 are 10^-300, still finite and normal doubles, so sums of squares, variances
#: and differences stay exact enough; beyond, they overflow or vanish and a test would silently answer
#: p = 0 or 1.
MAGNITUDES = (1e-150, 1e150)


def check_magnitude(what: str, *arrays) -> None:
    """ValueError when the largest |x| of ARRAYS (numpy arrays: WHAT) is neither 0 nor within
    :data:`MAGNITUDES`."""
    largest = max((float(abs(a).max(initial=0.0)) for a in arrays), default=0.0)
    if largest != 0.0 and not MAGNITUDES[0] <= largest <= MAGNITUDES[1]:
        raise ValueError(f"{what}: the largest |value| is {largest:.3g}, outside {MAGNITUDES[0]:g} to "
                         f"{MAGNITUDES[1]:g}, where squares and sums of the values stay finite doubles: rescale them")
