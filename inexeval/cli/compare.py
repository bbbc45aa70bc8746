"""``inexeval compare``."""

from __future__ import annotations

import sys

import click

from inexeval.cli._common import Once, default_jobs, fail, given, refuse, reusing_results
from inexeval.errors import InexevalError
from inexeval.writers.formats import COMPARE_FORMATS


@click.command("compare", cls=Once, epilog="""\b
Examples:
  inexeval compare -config configs/co-thorough.prop
  inexeval compare -config configs/co-thorough.prop --measure Q --test randomisation
  inexeval compare -config configs/co-thorough.prop --runs Medium,Poor -png
  inexeval compare -config configs/co-thorough.prop --run 'a,b' --run Poor
  inexeval compare -config configs/co-focussed.prop -config configs/co-thorough.prop
  inexeval compare -config configs/trec.prop --measure map --format latex
  inexeval compare -config configs/trec.prop --measure map --tukey randomised --ci bootstrap

Writes RESULTS_DIR/<TASK>/correlations.tsv|json, significance.tsv|json, and the
statistics of the tested measure (docs/measures.md §12): groups.tsv|json (each
run's mean, interval and significance group), anova.tsv|json (two-way ANOVA)
and tukey.tsv|json (Tukey HSD, ES_E and d_z of every pair); with several
configs also correlations-average.tsv|json beside the first.
""")
@click.option("-config", "--config", "configs", multiple=True, required=True, metavar="FILE",
              type=click.Path(dir_okay=False), help="Config to evaluate (repeat to average over tasks).")
@click.option("-e", "--empty-as-zero", is_flag=True, help="As for evaluation: missing topics score 0.")
@click.option("--measure", help="Measure for the significance tests [default: MAep, else the first].")
@click.option("--test", "test", type=click.Choice(["t", "randomisation", "bootstrap"]), default="t",
              show_default=True, help="Paired significance test.")
@click.option("--runs", help="Comma-separated run ids to compare (two runs: also per-topic differences).")
@click.option("--run", "run_list", multiple=True, metavar="ID",
              help="A run id to compare, exactly as written (commas and spaces kept); repeat for each run. "
                   "Instead of --runs.")
@click.option("--method", type=click.Choice(["kendall", "spearman", "both"]), default="both", show_default=True,
              help="Rank correlation coefficient(s).")
@click.option("--samples", type=click.IntRange(min=1), default=10000, show_default=True,
              help="Samples of the randomisation and bootstrap tests, of --tukey randomised (permutations) "
                   "and of --ci bootstrap (resamples).")
@click.option("--seed", type=int, default=0, show_default=True,
              help="Random seed of those (the same seed gives the same bytes).")
@click.option("--ci", type=click.Choice(["t", "bootstrap"]), default="t", show_default=True,
              help="Interval of each run's mean in the groups table (docs/measures.md §12.1).")
@click.option("--ci-level", type=click.FloatRange(0, 1, min_open=True, max_open=True), default=0.95,
              show_default=True, help="Level of those intervals and of d_z's.")
@click.option("--tukey", type=click.Choice(["classic", "randomised"]), default="classic", show_default=True,
              help="Tukey HSD over every pair of runs: on the two-way ANOVA residual (studentized range), or "
                   "randomised (--samples permutations within topics; exact when they are fewer); its "
                   "significance groups are shown beside the means (§12.3, §12.4).")
@click.option("--alpha", "level", type=click.FloatRange(0, 1, min_open=True, max_open=True), default=0.05,
              show_default=True, help="Significance level (after Holm-Bonferroni correction).")
@click.option("--format", "fmt", type=click.Choice(COMPARE_FORMATS), default="table", show_default=True,
              help="Format of the tables printed on standard output (latex: booktabs tables with captions; "
                   "markdown: GitHub pipe tables); the files written are the same.")
@click.option("-gnu", "--gnuplot", is_flag=True, help="Per-topic difference histogram as gnuplot files.")
@click.option("-jfree", "-png", "--png", "png", is_flag=True, help="Per-topic difference histogram as PNG.")
@click.option("--reliability", is_flag=True,
              help="How reliable each measure is: discriminative power with its ASL curve (-gnu/-png draw it), "
                   "swap rates, and the correlation between the parameter settings of one measure (and, with "
                   "several configs, between configs that differ in a key the measure reads) (§12.7).")
@click.option("--dp-test", type=click.Choice(["bootstrap", "randomised-tukey"]), default="bootstrap",
              show_default=True, help="With --reliability: the test of the discriminative power.")
@click.option("--subset-size", type=click.IntRange(min=1), default=None,
              help="With --reliability: topics in each of the two disjoint subsets of the swap rates "
                   "[default: half the topics].")
@click.option("--panels", type=click.IntRange(min=0), default=10, show_default=True, metavar="K",
              help="With two --runs: side-by-side pages of their top K results per topic, under "
                   "RESULTS_DIR/<TASK>/panels/ (0: none).")
@reusing_results
@click.pass_context
def compare_cmd(ctx, configs, empty_as_zero, measure, test, runs, run_list, method, samples, seed, ci, ci_level, tukey,
                level, fmt, gnuplot, png, reliability, dp_test, subset_size, panels, overrides, results_dir, reevaluate, quiet,
                debug):
    """Rank correlations between measures and quantisations, significance tests between
    runs, and per-topic differences, from one or more configs."""
    from inexeval.compare.workflow import CompareOptions, run_compare

    debug = debug or ctx.find_root().params.get("debug", False)  # `inexeval --debug compare` too
    if runs is not None and run_list:
        refuse(ctx, "--runs and --run both name runs: give them one way (--run for ids with commas)")
    run_ids = tuple(run_list) if run_list else tuple(r.strip() for r in runs.split(",") if r.strip()) if runs else ()
    _check_compare_options(ctx, test, run_ids, gnuplot, png, ci, tukey, reliability)
    options = CompareOptions(empty_as_zero=empty_as_zero, measure=measure, test=test,
                             runs=run_ids,
                             method=method, samples=samples, seed=seed, level=level, gnuplot=gnuplot, png=png,
                             overrides=tuple(overrides), results_dir=results_dir, reevaluate=reevaluate,
                             quiet=quiet, jobs=default_jobs(), fmt=fmt, ci=ci, ci_level=ci_level, tukey=tukey,
                             reliability=reliability, dp_test=dp_test, subset_size=subset_size)
    try:
        status = run_compare(configs, options, echo=click.echo)
        if len(set(run_ids)) == 2 and panels > 0:
            from inexeval.report.pairs import compare_pair_pages

            status = max(status, compare_pair_pages(configs, options, panels, click.echo))
    except InexevalError as err:
        fail(err, debug)
    sys.exit(status)


def _check_compare_options(ctx, test, run_ids, gnuplot, png, ci, tukey, reliability) -> None:
    """Refuse compare options that would have no effect with the others given (exit 2)."""
    for name in ("dp_test", "subset_size"):
        if given(ctx, name) and not reliability:
            refuse(ctx, f"--{name.replace('_', '-')} is a parameter of --reliability")
    if test == "t" and ci == "t" and tukey == "classic" and not reliability:
        for name, flag in (("samples", "--samples"), ("seed", "--seed")):
            if given(ctx, name):
                refuse(ctx, f"{flag} is a parameter of --test randomisation and bootstrap, --tukey randomised and "
                            "--ci bootstrap; the t test, t interval and classic Tukey HSD have no samples")
    twice = sorted({r for r in run_ids if run_ids.count(r) > 1})
    if twice:
        refuse(ctx, f"--runs/--run: run id(s) given twice: {', '.join(map(repr, twice))}")
    if ctx.params.get("runs") is not None and not run_ids:
        refuse(ctx, "--runs: no run id given")
    if any(not r.strip() for r in run_ids):
        refuse(ctx, "--run: an empty run id")
    if (gnuplot or png) and len(run_ids) != 2 and not reliability:
        refuse(ctx, "-gnu and -png draw the per-topic differences of two runs (give --runs A,B or --run A --run B) "
                    "or, with --reliability, the ASL curves")


