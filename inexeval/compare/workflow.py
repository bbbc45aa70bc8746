"""The ``inexeval compare`` workflow: evaluate (or reuse the result files), then compare.

For each config: the result files are reused when their stamp says they are
up to date (:mod:`inexeval.stamp`), else the config is evaluated and they
are written; then the correlation and significance tables of
:mod:`inexeval.compare.tables` are written, and with two runs their per-topic
differences, then printed (every file first: a reader that stops reading loses
none), with a record of the result files they were computed from
(:mod:`inexeval.stamp`: the next evaluation keeps them while those are
unchanged).  With several configs the correlation tables are also averaged.
Options travel as one :class:`CompareOptions`; what is printed goes through
``echo`` (see :mod:`inexeval.api`).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from types import SimpleNamespace
from typing import TYPE_CHECKING

from inexeval.api import Echo, evaluate_and_write, report
from inexeval.config.source import ConfigSource, load
from inexeval.records import record

if TYPE_CHECKING:
    from inexeval.config.schema import Config


@record(frozen=True)
class CompareOptions:
    """The options of ``inexeval compare`` as one value."""

    empty_as_zero: bool = False
    measure: str | None = None  # measure of the significance tests (None: MAep, else the first)
    test: str = "t"  # "t" | "randomisation" | "bootstrap"
    runs: tuple[str, ...] = ()  # run ids compared (() : all; two: per-topic differences too)
    method: str = "both"  # "kendall" | "spearman" | "both"
    samples: int = 10000  # samples of the randomisation and bootstrap tests
    seed: int = 0
    level: float = 0.05  # significance level, after Holm-Bonferroni correction
    gnuplot: bool = False  # per-topic difference histogram as .dat/.gp
    png: bool = False  # ... as PNG
    overrides: tuple[str, ...] = ()  # --set KEY=VALUE
    results_dir: str | os.PathLike | None = None
    reevaluate: bool = False  # evaluate even when the result files are up to date
    quiet: bool = False
    jobs: int = 1
    fmt: str = "table"  # what is printed: compare's text, or "latex" or "markdown" tables (files unchanged)
    ci: str = "t"  # the interval of each run's mean: "t" | "bootstrap" (docs/measures.md §12.1)
    ci_level: float = 0.95
    tukey: str = "classic"  # Tukey HSD: "classic" (two-way ANOVA residual) | "randomised" (§12.3)
    reliability: bool = False  # --reliability: discriminative power, swap rates, parameter correlations (§12.7)
    dp_test: str = "bootstrap"  # the test of the discriminative power: "bootstrap" | "randomised-tukey"
    subset_size: int | None = None  # topics per subset of the swap rates (None: half the topics)

    @property
    def reliability_options(self):
        """The :class:`~inexeval.compare.reliability_tables.ReliabilityOptions` of these options."""
        from inexeval.compare.reliability_tables import ReliabilityOptions

        return ReliabilityOptions(test=self.dp_test, alpha=self.level, samples=self.samples, seed=self.seed,
                                  subset_size=self.subset_size)

    @property
    def stats(self):
        """The :class:`~inexeval.compare.runstats.StatsOptions` of these options."""
        from inexeval.compare.runstats import StatsOptions

        return StatsOptions(ci=self.ci, ci_level=self.ci_level, tukey=self.tukey, alpha=self.level,
                            samples=self.samples, seed=self.seed)

    @property
    def methods(self) -> list[str]:
        return ["kendall", "spearman"] if self.method == "both" else [self.method]


def compared_measures(plan, measure: str | None) -> set[str] | None:
    """The per-topic values ``compare`` reads: those of the measure it tests (None: all); PLAN: the
    config's :class:`~inexeval.plan.ConfigPlan`."""
    from inexeval.compare.tables import tested_measure

    columns = plan.columns
    return ({tested_measure(columns, measure, plan.headline), *difference_measures(plan.config, columns, None)}
            if columns else None)


def difference_measures(config: Config, columns: Sequence[str], chosen: str | None) -> list[str]:
    """The measures whose per-topic differences ``--runs A,B`` shows: the tested one, and those the
    task row adds (``qa``: Q and RR, as seed 003 Figure 3 draws them)."""
    extra = [m for m in config.task_def.differences if m in columns and m != chosen]
    return ([chosen] if chosen is not None else []) + extra


def run_compare(configs: Sequence[ConfigSource], options: CompareOptions = CompareOptions(), *,
                echo: Echo | None = None) -> int:
    """``inexeval compare``: returns the exit status (1 when some input was skipped).

    Tables and messages go to ``echo`` (nothing is printed without it); the
    files go to RESULTS_DIR/<TASK>/ (``correlations``, ``significance``, and
    ``correlations-average`` beside the first config's).  A bad config, an
    unknown run id or measure raise :class:`~inexeval.errors.ConfigError`.
    """
    from inexeval.compare import tables as compare
    from inexeval.errors import ConfigError
    from inexeval.plan import plan_config
    from inexeval.resultsdir import locked
    from inexeval.stamp import record_compare_outputs

    say = echo if echo is not None else (lambda *a, **k: None)
    wanted = list(options.runs) or None
    if (options.gnuplot or options.png) and len(set(options.runs)) != 2 and not options.reliability:
        raise ConfigError("the per-topic difference graphs (-gnu, -png) are drawn for two runs: give --runs A,B "
                          "(or --reliability: the ASL curves)", "--runs")
    status, all_tables, first_out = 0, [], None
    variants: list[tuple] = []  # (config, results) of each config, for --reliability across configs
    sources: list[dict] = []  # what each config's tables were computed from (inexeval.stamp)
    loaded = []
    for source in configs:  # every config and --measure checked before anything is evaluated
        config = load(source, options.overrides, options.results_dir)
        plan = plan_config(config)
        columns = plan.columns
        chosen = compare.tested_measure(columns, options.measure, plan.headline)
        if chosen not in columns:
            raise ConfigError(f"--measure: {chosen!r} is not a measure of {config.task} "
                              f"({', '.join(columns)})", config.source)
        loaded.append((config, plan, chosen))
    for config, plan, chosen in loaded:
        out = Path(config.results_dir) / config.task
        first_out = first_out or (config.results_dir, config.task)
        # under the lock of RESULTS_DIR/<TASK>: the result files reused, and the tables written
        # beside them, belong to one complete set (inexeval.resultsdir)
        with locked(config.results_dir, config.task):
            status = _compare_one(config, plan, out, options, wanted, say, all_tables, status, chosen, sources,
                                  variants)
    if options.reliability and len(configs) > 1:
        _compare_variants(variants, options, first_out, say, sources)
    if len(configs) > 1:
        avg = [t for t in (compare.averaged([t for _, t in all_tables], kind, mth)
                           for kind in ("measures", "quantisations") for mth in options.methods) if t is not None]
        if avg:
            with locked(*first_out) as results_dir:  # written, then printed (as each config's tables)
                base = Path(results_dir) / first_out[1]
                names = [base / f"correlations-average.{ext}" for ext in ("tsv", "json")]
                record_compare_outputs(base, names, None)
                written = compare.write_tables(base, "correlations-average", compare.correlation_rows("all", avg))
                record_compare_outputs(base, written, sources)
            say("\n" + compare.format_correlations(avg, "all tasks", options.fmt))
    return status


def results_of(config: Config, plan, keep: set[str] | None, options, say: Echo) -> tuple[list, bool]:
    """CONFIG's results (PLAN: its plan): its up-to-date result files read back (:mod:`inexeval.stamp`),
    else a fresh evaluation, its files written, keeping the per-topic values of KEEP (None: all);
    what was skipped reported through SAY.  OPTIONS: ``empty_as_zero``, ``reevaluate``, ``jobs``,
    ``quiet``.  Returns (results, whether some input was skipped)."""
    from inexeval.stamp import read_if_fresh, stamped_report

    results = None if options.reevaluate else read_if_fresh(plan.config, options.empty_as_zero)
    if results is None:
        # each run's files are written as it is scored; only what is read next is kept
        ev = evaluate_and_write(config, empty_as_zero=options.empty_as_zero, jobs=options.jobs, keep=keep,
                                plan=plan)
        report(ev, say, options.quiet)
        return ev.results, bool(ev.problems)
    if not options.quiet:
        say(f"inexeval: reusing up-to-date result files in {Path(config.results_dir) / config.task}", err=True)
    # what the evaluation that wrote them skipped is reported again, with the same exit status
    problems, warnings = stamped_report(config)
    report(SimpleNamespace(problems=problems, warnings=warnings), say, options.quiet)
    return results, bool(problems)


def _compare_variants(variants: list[tuple], options: CompareOptions, first_out, say: Echo, sources: list[dict]) -> None:
    """--reliability with several configs: for the configs of one task that differ in a key a measure
    reads (GAINS, ...), the correlation of their run orderings of that measure, written as
    ``correlations-parameters.tsv|json`` beside the first config's files, then printed."""
    from inexeval.compare import tables as compare
    from inexeval.compare.reliability_tables import config_variant_correlations
    from inexeval.resultsdir import locked
    from inexeval.stamp import record_compare_outputs

    tables = []
    for task in dict.fromkeys(c.task for c, _ in variants):
        same = [(c, r) for c, r in variants if c.task == task]
        for mth in options.methods:
            tables += [(task, t) for t in config_variant_correlations(same, mth)]
    if not tables:
        return
    with locked(*first_out) as results_dir:
        base = Path(results_dir) / first_out[1]
        names = [base / f"correlations-parameters.{ext}" for ext in ("tsv", "json")]
        record_compare_outputs(base, names, None)
        rows = [row for task, t in tables for row in compare.correlation_rows(task, [t])]
        written = compare.write_tables(base, "correlations-parameters", rows)
        record_compare_outputs(base, written, sources)
    for task in dict.fromkeys(task for task, _ in tables):
        say("\n" + compare.format_correlations([t for tk, t in tables if tk == task], task, options.fmt))


def _compare_one(config: Config, plan, out: Path, options: CompareOptions, wanted: list[str] | None, say: Echo,
                 all_tables: list, status: int, chosen: str, sources: list[dict], variants: list[tuple]) -> int:
    """One config of :func:`run_compare` (PLAN: its plan): its results (reused or evaluated), tables and files;
    what they were computed from is appended to SOURCES (:func:`inexeval.stamp.compare_source`)."""
    from inexeval.compare import runstats, tables as compare
    from inexeval.errors import ConfigError
    from inexeval.names import file_component
    from inexeval.stamp import compare_source, record_compare_outputs

    columns = plan.columns
    keep = None if options.reliability else compared_measures(plan, options.measure)  # (every measure's values)
    results, skipped = results_of(config, plan, keep, options, say)
    status = 1 if skipped else status
    if wanted:
        unknown = sorted(set(wanted) - {r.run_id for r in results})
        if unknown:
            raise ConfigError(f"--runs: unknown run id(s) {', '.join(unknown)}")
        results = [r for r in results if r.run_id in wanted]
    settings = compare.sorted_settings(results)
    # everything is computed and written first, then printed: a reader that stops reading standard
    # output early (``| head``) loses no file (README "Exit status")
    shown_text: list[str] = []
    tables = []
    for mth in options.methods:
        tables += compare.measure_correlations(results, settings, columns, mth)
        tables += compare.quantisation_correlations(results, settings, columns, mth)
    if options.reliability:
        from inexeval.compare.reliability_tables import parameter_correlations

        variants.append((config, results))
        for mth in options.methods:
            tables += parameter_correlations(results, settings, columns, mth)
    all_tables += [(config.task, t) for t in tables if t.kind != "parameters"]
    # printed: the headline measures that rank runs (HEADLINE); every table whole in correlations.tsv|json
    from inexeval.tasks import COUNT_NAMES

    shown = [h for h in plan.headline if h in columns and h not in COUNT_NAMES]
    printed = compare.headline_view(tables, shown) if len(shown) >= 2 else tables
    text = compare.format_correlations(printed, config.task, options.fmt)
    if printed != tables and options.fmt == "table":
        text += (f"\n(correlations between the headline measures {', '.join(shown)}; between all "
                 f"{len(columns)} outputs in {out / 'correlations.tsv'})")
    shown_text.append(text)
    sig_rows = []
    stat_rows: dict[str, list[dict]] = {"groups": [], "anova": [], "tukey": []}
    for s in settings:
        rows = compare.significance_rows(config.task, results, s, chosen, test=options.test,
                                         samples=options.samples, seed=options.seed, alpha=options.level,
                                         runs=wanted)
        shown_text.append("\n" + compare.format_significance(rows, options.level, options.fmt,
                                                              samples=options.samples, seed=options.seed))
        sig_rows += rows
        st = runstats.setting_stats(config.task, results, s, chosen, wanted, options.stats)
        shown_text.append("\n" + runstats.format_stats(st, options.fmt))
        stat_rows["groups"] += runstats.group_rows(st)
        stat_rows["anova"] += runstats.anova_rows(st)
        stat_rows["tukey"] += runstats.tukey_rows(st)
    reliable: list = []
    if options.reliability:
        from inexeval.compare import reliability_tables as rel
        from inexeval.measures.registry import output_facts
        from inexeval.ranks import ranked as ranks_runs

        facts = output_facts(plan.measures, plan.params)
        ranked = [c for c in columns if ranks_runs(facts, c)]
        for s in settings:
            reliable += [rel.measure_reliability(results, s, m, wanted, options.reliability_options) for m in ranked]
        shown_text.append("\n" + rel.format_reliability(config.task, reliable, options.reliability_options,
                                                         options.fmt))
        if options.fmt == "table":
            shown_text.append("\n" + rel.format_swap_rates(config.task, reliable))
        stat_rows["reliability"] = rel.reliability_rows(config.task, reliable, options.reliability_options)
        stat_rows["asl"] = rel.asl_rows(config.task, reliable)
        stat_rows["swap-rates"] = rel.swap_rows(config.task, reliable)
    histograms = []
    if wanted and len(wanted) == 2:
        for s in settings:
            for shown in difference_measures(config, columns, chosen):
                text, topics, diffs = compare.topic_difference_text(results, s, shown, *wanted, fmt=options.fmt)
                shown_text.append("\n" + text)
                if options.gnuplot or options.png:
                    stem = file_component(f"differences_{shown}_{wanted[0]}_vs_{wanted[1]}_{s}")
                    histograms.append((stem, f"{config.task} {s} {shown}: {wanted[0]} - {wanted[1]}", topics,
                                       diffs))
    # what each file is computed from (inexeval.stamp): forgotten before the files are written again
    exts = [e for e, on in (("dat", options.gnuplot), ("gp", options.gnuplot), ("png", options.png)) if on]
    names = [out / f"{stem}.{ext}" for stem in ("correlations", "significance", *stat_rows)
             for ext in ("tsv", "json")]
    names += [out / "graphs" / f"{h[0]}.{ext}" for h in histograms for ext in exts]
    if reliable:
        names += [out / "graphs" / f"{file_component('asl_' + s)}.{ext}" for s in settings for ext in exts]
    record_compare_outputs(out, names, None)
    source = compare_source(out, results, complete=not wanted)
    sources.append(source)
    written = compare.write_tables(out, "correlations", compare.correlation_rows(config.task, tables))
    written += compare.write_tables(out, "significance", sig_rows)
    for stem, rows in stat_rows.items():
        written += compare.write_tables(out, stem, rows)
    for stem, title, topics, diffs in histograms:
        written += compare.write_histogram(out / "graphs", stem, title, topics, diffs, gnuplot=options.gnuplot,
                                           png=options.png)
    if reliable and (options.gnuplot or options.png):
        from inexeval.compare.reliability_tables import write_asl_graphs

        for s in settings:
            written += write_asl_graphs(out / "graphs", config.task, s, reliable, gnuplot=options.gnuplot,
                                        png=options.png)
    record_compare_outputs(out, written, [source])
    for text in shown_text:
        say(text)
    return status
