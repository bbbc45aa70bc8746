"""Statistics over a topics × runs matrix of one measure (docs/measures.md §12): the public API.

``x`` is a topics × runs array (rows topics, columns runs) of finite per-topic scores::

    from inexeval import stats
    topics, runs, x = stats.topic_matrix(results, "map")     # from an evaluation's Results
    stats.confidence_interval(x[:, 0])                      # (low, high) of run 0's mean
    a = stats.anova2(x); a.v_e, a.f_runs, a.p_runs          # two-way ANOVA without replication
    t = stats.tukey_hsd(x, randomised=True, seed=1)         # t.p, t.ci_low, t.ci_high, t.groups
    stats.paired_effect_size(x[:, 0], x[:, 1])               # (d_z, low, high)
    stats.topic_set_size(a.v_e, 0.05, method="anova", runs=10)
    stats.discriminative_power(x).share; stats.swap_rate(x, 10).rate

The code lives in :mod:`inexeval.compare` (intervals, anova, letters, design, reliability); this
module names it once for users.  Importing it loads numpy and scipy (statsmodels is never needed).
"""

from __future__ import annotations

from inexeval.compare.anova import Anova2, TukeyHSD, anova2, paired_effect_size, tukey_hsd
from inexeval.compare.design import achieved_power, min_detectable_difference, pooled_variance, topic_set_size
from inexeval.compare.intervals import confidence_interval
from inexeval.compare.letters import compact_letter_display
from inexeval.compare.matrix import topic_matrix
from inexeval.compare.reliability import DiscriminativePower, SwapRate, discriminative_power, swap_rate

__all__ = ["confidence_interval", "anova2", "Anova2", "tukey_hsd", "TukeyHSD", "paired_effect_size",
           "compact_letter_display", "topic_set_size", "min_detectable_difference", "achieved_power",
           "pooled_variance", "discriminative_power", "DiscriminativePower", "swap_rate", "SwapRate",
           "topic_matrix"]
