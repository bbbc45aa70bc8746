"""``inexeval design``: topic set size design and power from past data (docs/measures.md §12.6).

The past data are topics × runs matrices of one measure: from configs (their result files reused
when up to date, else evaluated, as ``compare`` does) or from score files (:mod:`inexeval.readers.scores`).
σ² is estimated as Sakai does, by the residual variance V_E of the two-way ANOVA without replication,
pooled over the matrices (Σ SS_E / Σ df_E); then:

(a) with ``--min-diff``: the topics needed to detect that difference with ``--power`` at ``--alpha``
    by a paired t-test and by a one-way ANOVA over m runs (``--planned-runs``, default: the largest
    number of runs in the data), and for a confidence interval of ``--ci-width`` (default: the
    difference);
(b) the minimum detectable difference with the current number of topics (the smallest matrix's);
(c) with ``--min-diff``: the power the current number of topics achieves for that difference.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from pathlib import Path

from inexeval.api import Echo
from inexeval.config.source import ConfigSource, load
from inexeval.records import record

DESIGN_FORMATS = ("table", "tsv", "json")


@record(frozen=True)
class DesignOptions:
    """The options of ``inexeval design`` as one value."""

    measure: str | None = None  # None: the config's headline measure (compare's default)
    setting: str | None = None  # None: the config's only setting
    min_diff: float | None = None
    power: float = 0.8
    alpha: float = 0.05
    ci_width: float | None = None  # None: min_diff
    planned_runs: int | None = None  # m of the ANOVA design (None: the most runs of one matrix)
    fmt: str = "table"
    empty_as_zero: bool = False
    overrides: tuple[str, ...] = ()
    results_dir: str | os.PathLike | None = None
    reevaluate: bool = False
    quiet: bool = False
    jobs: int = 1


@record
class Matrix:
    """One past topics × runs matrix: where it comes from, its measure and its values."""

    source: str
    measure: str
    topics: list[str]
    runs: list[str]
    x: object  # numpy array


def config_matrices(configs: Sequence[ConfigSource], options: DesignOptions, say: Echo) -> tuple[list[Matrix], int]:
    """The matrices of CONFIGS (one each), and the exit status so far (1: some input was skipped)."""
    from inexeval.compare.matrix import topic_matrix
    from inexeval.compare.tables import tested_measure
    from inexeval.compare.workflow import results_of
    from inexeval.errors import ConfigError
    from inexeval.plan import plan_config
    from inexeval.resultsdir import locked

    out, status = [], 0
    loaded = []
    for source in configs:  # every config and --measure checked before anything is evaluated
        config = load(source, options.overrides, options.results_dir)
        plan = plan_config(config)
        measure = tested_measure(plan.columns, options.measure, plan.headline)
        if measure not in plan.columns:
            raise ConfigError(f"--measure: {measure!r} is not a measure of {config.task} "
                              f"({', '.join(plan.columns)})", config.source)
        loaded.append((config, plan, measure))
    for config, plan, measure in loaded:
        with locked(config.results_dir, config.task):
            results, skipped = results_of(config, plan, {measure}, options, say)
        status = 1 if skipped else status
        settings = list(dict.fromkeys(r.setting for r in results))
        setting = options.setting
        if setting is None and len(settings) > 1:
            raise ConfigError(f"--setting: {config.task} has several settings ({', '.join(settings)}): "
                              "give the one whose scores estimate the variance", config.source)
        try:
            topics, runs, x = topic_matrix(results, measure, setting)
        except ValueError as err:
            raise ConfigError(f"{err}", config.source) from None
        out.append(Matrix(str(config.source), measure, topics, runs, x))
    return out, status


def design_figures(matrices: Sequence[Matrix], options: DesignOptions) -> dict:
    """Every figure of the design (module docstring) at full precision, as one JSON-able dict."""
    from inexeval.compare.design import achieved_power, min_detectable_difference, pooled_variance, topic_set_size
    from inexeval.errors import ConfigError

    for m in matrices:
        if m.x.shape[0] < 2 or m.x.shape[1] < 2:
            raise ConfigError(f"{m.source}: {m.x.shape[0]} topic(s) x {m.x.shape[1]} run(s): the variance needs "
                              "at least two topics and two runs (the topics every run has a value for; with -e a "
                              "topic a run lacks scores 0)")
    variance = pooled_variance([m.x for m in matrices])
    if not variance > 0:
        raise ConfigError("the residual variance V_E of the data is 0 (every run differs from another by the same "
                          "amount on every topic): no design can be computed from it")
    topics = min(m.x.shape[0] for m in matrices)
    runs = options.planned_runs or max(m.x.shape[1] for m in matrices)
    a, p = options.alpha, options.power
    fig: dict = {"measure": matrices[0].measure, "data": [{"source": m.source, "topics": m.x.shape[0],
                                                          "runs": m.x.shape[1]} for m in matrices],
                 "variance": variance, "alpha": a, "power": p, "planned_runs": runs, "current_topics": topics,
                 "min_diff": options.min_diff}
    if options.min_diff is not None:
        width = options.ci_width if options.ci_width is not None else options.min_diff
        fig["ci_width"] = width
        fig["topics_needed"] = {
            "t": _or_none(lambda: topic_set_size(variance, options.min_diff, a, p, "t")),
            "anova": _or_none(lambda: topic_set_size(variance, options.min_diff, a, p, "anova", runs=runs)),
            "ci": _or_none(lambda: topic_set_size(variance, options.min_diff, a, p, "ci", ci_width=width)),
        }
        fig["achieved_power"] = {"t": achieved_power(variance, topics, options.min_diff, a, "t"),
                                 "anova": achieved_power(variance, topics, options.min_diff, a, "anova", runs=runs)}
    fig["min_detectable_difference"] = {"t": min_detectable_difference(variance, topics, a, p, "t"),
                                        "anova": min_detectable_difference(variance, topics, a, p, "anova",
                                                                           runs=runs)}
    return fig


def _or_none(compute):
    """COMPUTE(), or None when it needs more topics than the search allows (said in the text)."""
    try:
        return compute()
    except ValueError:
        return None


def design_text(fig: dict, fmt: str) -> str:
    """FIG (:func:`design_figures`) as FMT: ``table`` (words and numbers), ``tsv`` or ``json``."""
    from inexeval.compare.design import MAX_TOPICS
    from inexeval.names import cell

    if fmt == "json":
        return json.dumps(fig, indent=1, allow_nan=False) + "\n"
    rows = _flat(fig)
    if fmt == "tsv":
        return "figure\tvalue\n" + "".join(f"{k}\t{'-' if v is None else repr(v) if isinstance(v, float) else v}\n"
                                           for k, v in rows)
    m, a, p, runs, n = fig["measure"], fig["alpha"], fig["power"], fig["planned_runs"], fig["current_topics"]
    data = ", ".join(f"{cell(d['source'])} ({d['topics']} topics x {d['runs']} runs)" for d in fig["data"])
    lines = [f"== topic set size design: {cell(m)} ==",
             f"variance sigma^2 = V_E = {fig['variance']:.6f} (two-way ANOVA residual, pooled over {data})"]

    def needed(v) -> str:
        return f"more than {MAX_TOPICS}" if v is None else str(v)

    if fig["min_diff"] is not None:
        d = fig["min_diff"]
        tn = fig["topics_needed"]
        labels = [("paired t-test", tn["t"]), (f"one-way ANOVA over {runs} runs", tn["anova"]),
                  (f"{100 * (1 - a):g} % CI no wider than {fig['ci_width']:g}", tn["ci"])]
        width = max(len(label) for label, _ in labels) + 1
        lines += ["", f"topics needed to detect a difference of {d:g} with power {p:g} at alpha {a:g}:"]
        lines += [f"  {(label + ':').ljust(width)} {needed(v)}" for label, v in labels]
    mdd = fig["min_detectable_difference"]
    lines += ["", f"with the current {n} topics (power {p:g}, alpha {a:g}):",
              f"  minimum detectable difference: paired t-test {mdd['t']:.4f}, one-way ANOVA over {runs} runs "
              f"{mdd['anova']:.4f}"]
    if fig["min_diff"] is not None:
        ap = fig["achieved_power"]
        lines.append(f"  achieved power for a difference of {fig['min_diff']:g}: paired t-test {ap['t']:.4f}, "
                     f"one-way ANOVA over {runs} runs {ap['anova']:.4f}")
    return "\n".join(lines) + "\n"


def _flat(fig: dict) -> list[tuple[str, object]]:
    out = []
    for k, v in fig.items():
        if k == "data":
            for i, d in enumerate(v):
                out += [(f"data.{i}.{kk}", vv) for kk, vv in d.items()]
        elif isinstance(v, dict):
            out += [(f"{k}.{kk}", vv) for kk, vv in v.items()]
        else:
            out.append((k, v))
    return out


def run_design(configs: Sequence[ConfigSource], score_files: Sequence[str | os.PathLike], options: DesignOptions,
               *, echo: Echo | None = None) -> int:
    """``inexeval design``: prints the figures; returns the exit status (1 when some input was skipped)."""
    from inexeval.readers.scores import read_scores

    say = echo if echo is not None else (lambda *a, **k: None)
    matrices, status = config_matrices(configs, options, say) if configs else ([], 0)
    for path in score_files:
        topics, runs, x = read_scores(Path(path))
        matrices.append(Matrix(str(path), options.measure or Path(path).stem, topics, runs, x))
    fig = design_figures(matrices, options)
    say(design_text(fig, options.fmt), nl=False)
    return status
