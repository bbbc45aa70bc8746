"""``inexeval design``."""

from __future__ import annotations

import sys

import click

from inexeval.cli._common import Once, default_jobs, fail, refuse, reusing_results
from inexeval.errors import InexevalError

_PROBABILITY = click.FloatRange(0, 1, min_open=True, max_open=True)
_POSITIVE = click.FloatRange(0, min_open=True)


@click.command("design", cls=Once, epilog="""\b
Examples:
  inexeval design -config configs/trec.prop --measure map --min-diff 0.05
  inexeval design -config a.prop -config b.prop --measure map --min-diff 0.1 --planned-runs 20
  inexeval design --scores past-ndcg.tsv --min-diff 0.1 --power 0.8 --alpha 0.05 --format json

The variance is estimated as Sakai does (Topic set size design, IRJ 2016): the
residual variance V_E of a two-way ANOVA without replication of each past
topics x runs matrix, pooled. A score file (--scores) has a header line
(topic, run ids) and a line per topic, tab- or comma-separated.
See docs/measures.md §12.6.
""")
@click.option("-config", "--config", "configs", multiple=True, metavar="FILE", type=click.Path(dir_okay=False),
              help="A config whose runs' per-topic scores are the past data (repeat to pool).")
@click.option("--scores", "score_files", multiple=True, metavar="FILE", type=click.Path(dir_okay=False),
              help="A topics x runs score file as past data (repeat to pool; '-' for standard input).")
@click.option("--measure", help="The measure [default: the config's headline measure, as compare].")
@click.option("--setting", help="The setting whose scores are used, when the config has several.")
@click.option("--min-diff", type=_POSITIVE, default=None,
              help="The smallest difference between runs the collection must detect (topics needed, achieved power).")
@click.option("--power", type=_PROBABILITY, default=0.8, show_default=True, help="Statistical power 1 - beta.")
@click.option("--alpha", type=_PROBABILITY, default=0.05, show_default=True, help="Significance level.")
@click.option("--ci-width", type=_POSITIVE, default=None,
              help="Width of the (1 - alpha) interval on a difference for the CI-based design [default: --min-diff].")
@click.option("--planned-runs", type=click.IntRange(min=2), default=None,
              help="Runs m of the one-way ANOVA design [default: the most runs of the data].")
@click.option("-e", "--empty-as-zero", is_flag=True, help="As for evaluation: missing topics score 0.")
@click.option("--format", "fmt", type=click.Choice(["table", "tsv", "json"]), default="table", show_default=True,
              help="What is printed: words and numbers, or every figure at full precision (tsv, json).")
@reusing_results
@click.pass_context
def design_cmd(ctx, configs, score_files, measure, setting, min_diff, power, alpha, ci_width, planned_runs,
               empty_as_zero, fmt, overrides, results_dir, reevaluate, quiet, debug):
    """Topic set size design and power: the topics needed to detect a difference, the minimum
    detectable difference and the achieved power of the current topics, from past data."""
    from inexeval.compare.design_workflow import DesignOptions, run_design

    debug = debug or ctx.find_root().params.get("debug", False)
    if not configs and not score_files:
        refuse(ctx, "give the past data: -config FILE or --scores FILE")
    if ci_width is not None and min_diff is None:
        refuse(ctx, "--ci-width is the width of the CI-based design, which needs --min-diff")
    if score_files and (setting or empty_as_zero) and not configs:
        refuse(ctx, "--setting and -e choose a config's scores; a score file is used as it is")
    options = DesignOptions(measure=measure, setting=setting, min_diff=min_diff, power=power, alpha=alpha,
                            ci_width=ci_width, planned_runs=planned_runs, fmt=fmt, empty_as_zero=empty_as_zero,
                            overrides=tuple(overrides), results_dir=results_dir, reevaluate=reevaluate, quiet=quiet,
                            jobs=default_jobs())
    try:
        sys.exit(run_design(configs, score_files, options, echo=click.echo))
    except InexevalError as err:
        fail(err, debug)
