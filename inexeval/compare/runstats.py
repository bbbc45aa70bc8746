"""``inexeval compare``'s statistics of one measure under one setting (docs/measures.md §12): each run's
mean with its confidence interval and significance group, the two-way ANOVA, and Tukey HSD over every
pair of runs with its simultaneous interval, effect size ES_E and d_z.

Works on the topics × runs matrix of :func:`inexeval.compare.matrix.topic_matrix` (the topics every
compared run has a value for).  Nothing here prints: :func:`setting_stats` computes, the ``*_rows``
functions give the rows written to ``groups``, ``anova`` and ``tukey`` (.tsv/.json), and
:func:`format_stats` the text (compare's own, LaTeX or Markdown).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from inexeval.compare.tables import p_text
from inexeval.names import cell
from inexeval.records import field, record

TUKEY_METHODS = ("classic", "randomised")


@record(frozen=True)
class StatsOptions:
    """compare's ``--ci``, ``--ci-level``, ``--tukey``, ``--alpha``, ``--samples``, ``--seed``."""

    ci: str = "t"
    ci_level: float = 0.95
    tukey: str = "classic"
    alpha: float = 0.05
    samples: int = 10000
    seed: int = 0


@record
class SettingStats:
    """The statistics of MEASURE under SETTING (a note instead when fewer than two runs or topics)."""

    task: str
    setting: str
    measure: str
    options: StatsOptions
    topics: list[str] = field(default_factory=list)
    runs: list[str] = field(default_factory=list)  # by mean, best first
    left_out: list[str] = field(default_factory=list)  # topics some compared run has no value for
    means: np.ndarray | None = None
    intervals: list[tuple[float, float]] = field(default_factory=list)
    anova: object | None = None  # inexeval.compare.anova.Anova2
    tukey: object | None = None  # inexeval.compare.anova.TukeyHSD
    d_z: dict[tuple[int, int], tuple[float, float, float]] = field(default_factory=dict)
    note: str = ""


def setting_stats(task: str, results, setting: str, measure: str, runs: Sequence[str] | None,
                  options: StatsOptions) -> SettingStats:
    """The statistics of MEASURE over RESULTS (RunResults) of SETTING, for RUNS (None: all)."""
    from inexeval.compare.anova import anova2, paired_effect_size, tukey_hsd
    from inexeval.compare.intervals import confidence_interval
    from inexeval.compare.matrix import left_out_topics, topic_matrix

    st = SettingStats(task, setting, measure, options)
    chosen = [r for r in results if r.setting == setting and (not runs or r.run_id in runs)]
    if len(chosen) < 2:
        st.note = "fewer than two runs: nothing to compare"
        return st
    try:
        topics, run_ids, x = topic_matrix(chosen, measure, setting)
    except ValueError:
        st.note = f"no topic where every run has a value of {measure}"
        return st
    st.left_out = left_out_topics(chosen, measure, setting, topics)
    if len(topics) < 2:
        st.note = f"one topic where every run has a value of {measure}: no spread to measure"
        st.topics = topics
        return st
    order = np.argsort(-x.mean(axis=0), kind="stable")  # best first; ties keep the runs' order
    x = x[:, order]
    st.topics, st.runs = topics, [run_ids[i] for i in order]
    st.means = x.mean(axis=0)
    st.intervals = [confidence_interval(x[:, j], options.ci, options.ci_level, options.samples, options.seed)
                    for j in range(x.shape[1])]
    st.anova = anova2(x)
    st.tukey = tukey_hsd(x, randomised=options.tukey == "randomised", samples=options.samples, seed=options.seed,
                         level=1.0 - options.alpha)
    m = x.shape[1]
    st.d_z = {(i, j): paired_effect_size(x[:, i], x[:, j], level=options.ci_level)
              for i in range(m) for j in range(i + 1, m)}
    return st


def run_groups(results, setting: str, measure: str, options: StatsOptions) -> dict[str, str]:
    """Each run's significance group on MEASURE under SETTING (Tukey HSD over the topics every run has,
    :func:`setting_stats`'s groups without its other figures), runs by mean, best first; {} when fewer
    than two runs or two common topics."""
    from inexeval.compare.anova import tukey_hsd
    from inexeval.compare.matrix import topic_matrix

    chosen = [r for r in results if r.setting == setting]
    if len(chosen) < 2:
        return {}
    try:
        _, run_ids, x = topic_matrix(chosen, measure, setting)
    except ValueError:
        return {}
    if x.shape[0] < 2:
        return {}
    order = np.argsort(-x.mean(axis=0), kind="stable")
    t = tukey_hsd(x[:, order], randomised=options.tukey == "randomised", samples=options.samples,
                  seed=options.seed, level=1.0 - options.alpha)
    return {run_ids[j]: t.groups[k] for k, j in enumerate(order)}


def _f(v) -> float | None:
    """A number for the rows (None: undefined)."""
    if v is None:
        return None
    v = float(v)
    return None if math.isnan(v) else v


def group_rows(st: SettingStats) -> list[dict]:
    """``groups``: each run's mean over the common topics, its interval and its significance group."""
    if st.means is None:
        return []
    o = st.options
    return [{"task": st.task, "setting": st.setting, "measure": st.measure, "run": run, "topics": len(st.topics),
             "mean": float(st.means[j]), "ci_lower": _f(st.intervals[j][0]), "ci_upper": _f(st.intervals[j][1]),
             "ci": o.ci, "ci_level": o.ci_level, "group": st.tukey.groups[j], "tukey": o.tukey, "alpha": o.alpha}
            for j, run in enumerate(st.runs)]


def anova_rows(st: SettingStats) -> list[dict]:
    """``anova``: the two-way ANOVA without replication, a row per source of variation."""
    a = st.anova
    if a is None:
        return []
    base = {"task": st.task, "setting": st.setting, "measure": st.measure}
    total_ss = a.ss_runs + a.ss_topics + a.ss_residual
    return [{**base, "source": "runs", "ss": a.ss_runs, "df": a.df_runs, "ms": a.ms_runs, "f": _f(a.f_runs),
             "p": _f(a.p_runs)},
            {**base, "source": "topics", "ss": a.ss_topics, "df": a.df_topics, "ms": a.ms_topics,
             "f": _f(a.f_topics), "p": _f(a.p_topics)},
            {**base, "source": "residual", "ss": a.ss_residual, "df": a.df_residual, "ms": a.v_e, "f": None,
             "p": None},
            {**base, "source": "total", "ss": total_ss, "df": a.df_runs + a.df_topics + a.df_residual, "ms": None,
             "f": None, "p": None}]


def tukey_rows(st: SettingStats) -> list[dict]:
    """``tukey``: every pair (better run first): A − B, its simultaneous interval, Tukey's p, whether
    significant at alpha, ES_E and d_z with its interval."""
    t = st.tukey
    if t is None:
        return []
    o = st.options
    rows = []
    for (i, j), (dz, dz_low, dz_high) in st.d_z.items():
        p = float(t.p[i, j])
        rows.append({"task": st.task, "setting": st.setting, "measure": st.measure, "run_a": st.runs[i],
                     "run_b": st.runs[j], "topics": len(st.topics), "diff": float(t.diff[i, j]),
                     "ci_lower": _f(t.ci_low[i, j]), "ci_upper": _f(t.ci_high[i, j]), "p": _f(p),
                     "significant": bool(p <= o.alpha), "es_e": _f(t.effect_size[i, j]), "d_z": _f(dz),
                     "d_z_lower": _f(dz_low), "d_z_upper": _f(dz_high), "tukey": o.tukey,
                     "samples": getattr(t, "samples", None) if o.tukey == "randomised" else None,
                     "seed": o.seed if o.tukey == "randomised" else None, "alpha": o.alpha})
    return rows


# ---------------------------------------------------------------- text ----


def _num(v, digits: int = 4) -> str:
    if v is None:
        return "-"
    v = float(v)
    if math.isnan(v):
        return "-"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    return f"{v:.{digits}f}"


def _level(level: float) -> str:
    return f"{level * 100:g} %"


def _tukey_name(o: StatsOptions, t) -> str:
    if o.tukey == "classic":
        return "Tukey HSD (two-way ANOVA residual V_E, studentized range)"
    how = "every within-topic permutation" if getattr(t, "exact", False) else f"{t.samples} permutations"
    return f"randomised Tukey HSD ({how}, seed {o.seed})"


def format_stats(st: SettingStats, fmt: str = "table") -> str:
    """The statistics of one setting as text: FMT ``table`` (compare's own), ``latex`` or ``markdown``."""
    if fmt != "table":
        from inexeval.compare.tables import paper_text
        from inexeval.writers.papertable import stats_tables

        if st.means is None:
            return f"% {st.note}" if fmt == "latex" else f"({st.note})"
        return paper_text(fmt, stats_tables(st, group_rows(st), anova_rows(st), tukey_rows(st)))
    from tabulate import tabulate

    head = f"== {cell(st.task)}  {cell(st.setting)}  {cell(st.measure)}"
    if st.means is None:
        return head + f" ==\n({st.note})"
    o = st.options
    ci_name = f"{_level(o.ci_level)} {'t' if o.ci == 't' else 'bootstrap'} interval"
    blocks = []
    rows = [[cell(r["run"]), _num(r["mean"]), f"[{_num(r['ci_lower'])}, {_num(r['ci_upper'])}]", r["group"]]
            for r in group_rows(st)]
    blocks.append(head + f": means over {len(st.topics)} topics with their {ci_name}; groups: "
                  f"{_tukey_name(o, st.tukey)} at alpha {o.alpha} (runs sharing a letter are not significantly "
                  "different) ==\n"
                  + tabulate(rows, headers=["run", "mean", ci_name, "group"], disable_numparse=True,
                             colalign=("left", "right", "left", "left")))
    if st.left_out:
        shown = ", ".join(cell(t) for t in st.left_out[:10]) + (", ..." if len(st.left_out) > 10 else "")
        blocks[-1] += f"\nleft out (a run has no value there, or NaN): {len(st.left_out)} topic(s): {shown}"
    rows = [[r["source"], _num(r["ss"], 6), str(r["df"]), _num(r["ms"], 6), _num(r["f"]), p_text(r["p"])]
            for r in anova_rows(st)]
    blocks.append(head + ": two-way ANOVA without replication (runs x topics); residual MS = V_E ==\n"
                  + tabulate(rows, headers=["source", "SS", "df", "MS", "F", "p"], disable_numparse=True,
                             colalign=("left", "right", "right", "right", "right", "right")))
    rows = [[cell(r["run_a"]), cell(r["run_b"]), _num(r["diff"]), f"[{_num(r['ci_lower'])}, {_num(r['ci_upper'])}]",
             p_text(r["p"]), "*" if r["significant"] else "", _num(r["es_e"]), _num(r["d_z"]),
             f"[{_num(r['d_z_lower'])}, {_num(r['d_z_upper'])}]"] for r in tukey_rows(st)]
    blocks.append(head + f": {_tukey_name(o, st.tukey)}, {_level(1 - o.alpha)} simultaneous intervals of A - B; "
                  f"* = significant at {o.alpha}; ES_E = (A - B)/sqrt(V_E); d_z = mean/sd of the paired "
                  f"differences, {_level(o.ci_level)} interval ==\n"
                  + tabulate(rows, headers=["run A", "run B", "A - B", "interval", "p", "", "ES_E", "d_z",
                                            "d_z interval"], disable_numparse=True,
                             colalign=("left", "left", "right", "left", "right", "left", "right", "right", "left")))
    return "\n\n".join(blocks)
