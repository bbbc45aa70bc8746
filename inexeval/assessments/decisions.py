"""The ``significance`` rows of ``inexeval assessments --judgements-b``: whether the significance
decisions between the runs survive the change of judgement set (docs/measures.md §13.5).

Every pair of runs is tested under set A and under set B with the test of ``inexeval compare``
over the same per-topic values it would read (the topics both sets judge):

* ``t``, ``randomisation``, ``bootstrap``: :func:`inexeval.compare.stats.pairwise_significance`,
  each pair over the topics both runs have, Holm-corrected over all pairs, significant when the
  corrected p ≤ α;
* ``tukey``, ``randomised-tukey``: :func:`inexeval.compare.anova.tukey_hsd` (classic, or randomised
  with SAMPLES permutations and SEED) over the topics every run has, the runs best first as
  ``compare`` orders them (so that the same permutations are drawn), significant when p ≤ α.

A pair is ``both_same`` (significant under both, the same run better), ``reversed`` (significant
under both, the other run better under B), ``only_a``, ``only_b`` or ``neither``; ``pairs`` counts
them all.  Each pair of the first four is listed too: a row ``<category>_pair`` whose value is
``better > worse`` as the set that found it significant says (A's for ``reversed``).
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from inexeval.aggregate import natural_key
from inexeval.errors import ConfigError

TESTS = ("t", "randomisation", "bootstrap", "tukey", "randomised-tukey")
CATEGORIES = ("both_same", "reversed", "only_a", "only_b")


def _pairwise(per_topic: Mapping[str, Mapping], test: str, samples: int, seed: int,
              alpha: float) -> dict[tuple[str, str], tuple[bool, float]]:
    from inexeval.compare.stats import pairwise_significance

    rows = pairwise_significance(per_topic, test=test, samples=samples, seed=seed, alpha=alpha)
    return {(r.run_a, r.run_b): (r.significant, r.diff) for r in rows}


def _tukey(per_topic: Mapping[str, Mapping], test: str, samples: int, seed: int,
           alpha: float) -> dict[tuple[str, str], tuple[bool, float]]:
    from inexeval.compare.anova import significance_level, tukey_hsd

    runs = list(per_topic)
    topics = set.intersection(*(set(t for t, v in per_topic[r].items() if v is not None and v == v)
                                for r in runs)) if runs else set()
    topics = sorted(topics, key=natural_key)
    out = {}
    if len(runs) < 2 or len(topics) < 2:
        return {(a, b): (False, float("nan")) for i, a in enumerate(runs) for b in runs[i + 1:]}
    x = np.array([[per_topic[r][t] for r in runs] for t in topics], dtype=float)
    # the runs best first, as compare orders them (inexeval.compare.runstats), so that the randomised
    # test draws the same permutations as compare's
    order = np.argsort(-x.mean(axis=0), kind="stable")
    at = np.empty_like(order)
    at[order] = np.arange(len(order))
    level = 1.0 - alpha
    hsd = tukey_hsd(x[:, order], randomised=test == "randomised-tukey", samples=samples, seed=seed, level=level)
    cut = significance_level(level)
    for i, a in enumerate(runs):
        for j in range(i + 1, len(runs)):
            p, q = at[i], at[j]
            out[a, runs[j]] = (bool(hsd.p[p, q] <= cut), float(hsd.diff[p, q]))
    return out


def decisions(per_topic: Mapping[str, Mapping], test: str, *, samples: int = 10000, seed: int = 0,
              alpha: float = 0.05) -> dict[tuple[str, str], tuple[bool, float]]:
    """(run a, run b) -> (significant, mean_a − mean_b) for every pair of the runs of PER_TOPIC
    (run -> topic -> value), in the mapping's order, under TEST (module docstring)."""
    if test not in TESTS:
        raise ConfigError(f"unknown significance test {test!r} (expected one of {', '.join(TESTS)})", "--test")
    run = _tukey if test in ("tukey", "randomised-tukey") else _pairwise
    return run(per_topic, test, samples, seed, alpha)


def classify(under_a: Mapping, under_b: Mapping) -> dict[str, list[tuple[str, str, float]]]:
    """Category -> [(run a, run b, the difference as the deciding set gives it)] of the pairs
    both mappings (:func:`decisions`) have; ``neither`` holds the rest."""
    out: dict[str, list] = {c: [] for c in (*CATEGORIES, "neither")}
    for pair, (sig_a, diff_a) in under_a.items():
        if pair not in under_b:
            continue
        sig_b, diff_b = under_b[pair]
        if sig_a and sig_b:
            same = np.sign(diff_a) == np.sign(diff_b)
            out["both_same" if same else "reversed"].append((*pair, diff_a))
        elif sig_a:
            out["only_a"].append((*pair, diff_a))
        elif sig_b:
            out["only_b"].append((*pair, diff_b))
        else:
            out["neither"].append((*pair, diff_a))
    return out


def _better(a: str, b: str, diff: float, lower_is_better: bool) -> str:
    first = (diff > 0) != lower_is_better
    return f"{a} > {b}" if first else f"{b} > {a}"


def significance_rows(name: str, level: str, under_a: Mapping, under_b: Mapping,
                      lower_is_better: bool = False) -> list[tuple]:
    """The ``significance`` rows of one measure (LEVEL names it) between set A and set NAME."""
    groups = classify(under_a, under_b)
    rows = [("significance", "all", level, name, c, len(groups[c])) for c in (*CATEGORIES, "neither")]
    rows.append(("significance", "all", level, name, "pairs", sum(len(v) for v in groups.values())))
    for c in CATEGORIES:
        rows += [("significance", "all", level, name, f"{c}_pair", _better(a, b, d, lower_is_better))
                 for a, b, d in groups[c]]
    return rows


__all__ = ["TESTS", "CATEGORIES", "decisions", "classify", "significance_rows"]
