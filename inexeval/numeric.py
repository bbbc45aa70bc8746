"""The one numeric tolerance of the evaluator (docs/measures.md §10).

Scores are sums and ratios of floating-point numbers, so two values that are
equal in exact arithmetic may differ in their last bits.  Every tie, threshold
and "no larger than" test therefore compares with this relative tolerance
instead of ``==``, ``>=`` or ``>``.
"""

from __future__ import annotations

#: The relative tolerance of exact comparisons (docs/measures.md §10): a and b
#: count as equal when they differ by at most ``TOLERANCE`` times their size.
TOLERANCE = 1e-9
