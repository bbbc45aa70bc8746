"""Confidence intervals on a mean over topics (docs/measures.md §12.1).

* ``t`` (the default): x̄ ± t_{(1+level)/2, n−1} · s / √n, s the sample standard deviation
  (n − 1 in the denominator): Student's interval, as Sakai's textbook gives the margin of error
  (MOE) of a mean.
* ``bootstrap``: the percentile bootstrap (Efron and Tibshirani, *An Introduction to the
  Bootstrap*, §13.3): B = ``samples`` resamples of the n values with replacement (indices
  floor(n·u), u uniform from ``numpy.random.default_rng(seed)``, in batches whose size does not
  change the stream), their means sorted, and the (1−level)/2 and (1+level)/2 quantiles of those
  B means by numpy's default (linear) rule.  The same seed gives the same bounds.

Fewer than two values give (nan, nan): no interval can be estimated from one topic (a mean of one
value has no spread to measure), and a silent [x, x] would claim certainty.

:func:`evaluation_intervals` gives the interval of every run's mean of every output whose average
is the arithmetic mean of its per-topic values (:meth:`inexeval.measures.registry.Measure.topic_mean`):
not for sums (num_rel), trec_eval's geometric mean (gm_map) or values the measure computes for the
whole run, and, as a guard, not where the mean of the per-topic values is not the average the
evaluation reports (then a warning names the output).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

import numpy as np

from inexeval.numeric import check_magnitude, is_count
from inexeval.records import record

CI_METHODS = ("t", "bootstrap")

# Resampled rows per batch: bounds memory to _BATCH × n indices; the stream does not depend on it.
_BATCH = 2048


@record(frozen=True)
class IntervalOptions:
    """How the intervals are computed: ``--ci``, ``--ci-level``, ``--samples``, ``--seed``."""

    method: str = "t"
    level: float = 0.95
    samples: int = 10000
    seed: int = 0

    def __post_init__(self):
        _check(self.method, self.level, self.samples)

    @property
    def symmetric(self) -> bool:
        """Whether the interval is mean ± half-width (t), shown so; else [lo, hi]."""
        return self.method == "t"


def _check(method: str, level: float, samples: int) -> None:
    if method not in CI_METHODS:
        raise ValueError(f"confidence interval method must be one of {', '.join(CI_METHODS)}, not {method!r}")
    if not (isinstance(level, (int, float)) and 0.0 < float(level) < 1.0):
        raise ValueError(f"confidence level must be between 0 and 1 (exclusive), not {level!r}")
    if not is_count(samples):
        raise ValueError(f"number of samples must be a positive integer, not {samples!r}")


def confidence_interval(values: Sequence[float] | np.ndarray, method: str = "t", level: float = 0.95,
                        samples: int = 10000, seed: int = 0) -> tuple[float, float]:
    """The ``level`` confidence interval (low, high) of the mean of ``values`` (module docstring).

    ``values`` must be finite numbers (ValueError otherwise); fewer than two give (nan, nan).
    """
    _check(method, level, samples)
    v = np.asarray(values, dtype=float)
    if v.ndim != 1:
        raise ValueError("confidence_interval: expected a one-dimensional vector of values")
    if not np.all(np.isfinite(v)):
        raise ValueError("confidence_interval: values must be finite numbers (drop undefined values first)")
    check_magnitude("confidence_interval", v)
    n = v.size
    if n < 2:
        return (math.nan, math.nan)
    mean = math.fsum(v.tolist()) / n
    if method == "t":
        from scipy import special  # stdtrit is what scipy.stats.t.ppf calls (scipy.stats is slow to import)

        half = float(special.stdtrit(n - 1, (1.0 + level) / 2.0)) * float(np.std(v, ddof=1)) / math.sqrt(n)
        return (mean - half, mean + half)
    rng = np.random.default_rng(seed)
    means = np.empty(samples)
    done = 0
    while done < samples:
        rows = min(_BATCH, samples - done)
        idx = np.minimum((rng.random((rows, n)) * n).astype(np.int64), n - 1)
        means[done:done + rows] = v[idx].mean(axis=1)
        done += rows
    low, high = np.quantile(means, [(1.0 - level) / 2.0, (1.0 + level) / 2.0])
    return (float(low), float(high))


def half_width(values: Sequence[float] | np.ndarray, level: float = 0.95) -> float:
    """The t interval's half-width t_{(1+level)/2, n−1} · s / √n (Sakai's margin of error)."""
    low, high = confidence_interval(values, "t", level)
    return (high - low) / 2.0


# ---------------------------------------------------------------- an evaluation's intervals ----


def run_intervals(per_topic, average, outputs: Iterable[str], options: IntervalOptions
                  ) -> tuple[dict[str, tuple[float, float]], list[str]]:
    """One run's intervals of OUTPUTS (in order) from its PER_TOPIC values (topic -> output -> value or
    None) and its AVERAGE (output -> value or None): (intervals, outputs left out for the guard).

    An output's values are those of the topics where it is defined, as they are averaged
    (docs/measures.md §10); an undefined average has no interval; a NaN value (inex_eval's) gives
    (nan, nan).
    """
    out: dict[str, tuple[float, float]] = {}
    left_out: list[str] = []
    for name in outputs:
        avg = average.get(name)
        if avg is None:
            continue
        vals = [v[name] for v in per_topic.values() if v.get(name) is not None]
        if not vals:
            continue
        if any(x != x for x in vals):
            out[name] = (math.nan, math.nan)
            continue
        mean = math.fsum(vals) / len(vals)
        if abs(mean - avg) > 1e-9 * max(1.0, abs(mean), abs(avg)):
            left_out.append(name)
            continue
        out[name] = confidence_interval(vals, options.method, options.level, options.samples, options.seed)
    return out, left_out


def evaluation_intervals(ev, options: IntervalOptions) -> tuple[dict[tuple[str, str], dict], list[str]]:
    """Every run's intervals in EV (an :class:`~inexeval.engine.Evaluation` with per-topic values
    kept): {(run id, setting): {output: (low, high)}}, and one warning per output left out."""
    outputs = [n for m in ev.measures for n in m.outputs(ev.params) if m.topic_mean_of(n)]
    found: dict[tuple[str, str], dict] = {}
    left: dict[str, None] = {}
    for r in ev.results:
        shown = [n for n in outputs if n in r.measures]
        found[(r.run_id, r.setting)], missed = run_intervals(r.per_topic, r.average, shown, options)
        left.update(dict.fromkeys(missed))
    warnings = [f"no confidence interval for {name}: its average is not the mean of its per-topic values "
                "(docs/measures.md §12.1)" for name in left]
    return found, warnings


def interval_text(mean: float, interval: tuple[float, float] | None, symmetric: bool, digits: int = 4) -> str:
    """A mean with its interval as tables show it: ``0.3450 ±0.0670`` (t) or ``0.3450 [0.2801, 0.4102]``."""
    text = f"{mean:.{digits}f}"
    if interval is None:
        return text
    low, high = interval
    if low != low or high != high:
        return text + " (no interval)"
    if symmetric:
        return text + f" ±{(high - low) / 2.0:.{digits}f}"
    return text + f" [{low:.{digits}f}, {high:.{digits}f}]"
