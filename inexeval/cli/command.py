"""The command line's group and the evaluation: parses EvalJ's flags into one options value and calls
the library.  Thin; each subcommand has a module of its own in this folder.

    inexeval -config FILE [-q] [-e] [-gnu] [-jfree | -png]
"""

from __future__ import annotations

import sys

import click

from inexeval._version import __version__
from inexeval.api import FORMATS, metrics_text, option_refusal, run_evaluation
from inexeval.cli._common import Group, Once, fail, given, refuse
from inexeval.cli.evaluation_fast import options as eval_options
from inexeval.cli.progress_bar import progress
from inexeval.errors import InexevalError

EPILOG = """\b
Examples:
  inexeval -config configs/co-thorough.prop            averaged tables + result files
  inexeval -config configs/co-focussed.prop -q -e      per-topic too; missing topics score 0
  inexeval -config my.prop --set QUANT_FUNCTIONS=strict --results-dir /tmp/out
  inexeval metrics                                     list every measure
  inexeval docs formats §9.2                           print a section of the docs

\b
Documentation: "docs/NAME.md §N" in a help text or an error is printed by
'inexeval docs NAME §N' (the docs ship with inexeval); 'inexeval docs' lists them.

\b
Exit status: 0 everything evaluated; 1 some input could not be read or
evaluated (the rest was); 2 bad config or command line, or the results could
not be written; 130 interrupted (Ctrl-C), 143 terminated (SIGTERM), 129
(SIGHUP): the previous results are left as they were.
"""


@click.group(cls=Group, invoke_without_command=True, epilog=EPILOG,
             context_settings={"help_option_names": ["-h", "--help"]})
@click.option("-config", "--config", "config_path", type=click.Path(dir_okay=False), metavar="FILE",
              help="EvalJ-style .prop or .yaml config file.")
@click.option("-q", "--per-query", is_flag=True, help="Print per-topic results as well as averages.")
@click.option("-e", "--empty-as-zero", is_flag=True,
              help="Average over every recall-base topic; topics missing from a run score 0.")
@click.option("-gnu", "--gnuplot", is_flag=True, help="Write gnuplot .dat and .gp files of the curves.")
@click.option("-jfree", "-png", "--png", "png", is_flag=True, help="Write PNG graphs of the curves (matplotlib).")
@click.option("--topic-graphs", is_flag=True,
              help="With -q and -gnu/-png, also draw every topic's curves (under graphs/topics/; "
              "one graph per topic, setting and curve, so there can be thousands).")
@click.option("--set", "overrides", multiple=True, metavar="KEY=VALUE",
              help="Override a config key (repeatable), e.g. --set DCV=5,10.")
@click.option("--results-dir", type=click.Path(file_okay=False), help="Override RESULTS_DIR.")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="table",
              show_default=True, help="Format of what is printed on standard output (trec_eval: trec_eval's "
              "own 'measure TAB topic TAB value' layout, for TASK trec; inex_eval: the INEX 2007-2010 tool's "
              "text for each run, for the FOL tasks; latex, markdown: a booktabs or pipe table per setting for a paper or "
              "a README, best values bold).")
@click.option("--digits", type=click.IntRange(0, 17), default=None,
              help="With --format trec_eval: round to this many decimals (trec_eval prints 4); "
              "default full precision.")
@click.option("--ci", type=click.Choice(["t", "bootstrap"]), default=None,
              help="A confidence interval on every mean: in the tables (mean ±half-width, or [low, high] for "
              "bootstrap), as <measure>_ci_lower/_ci_upper columns of summary.tsv/json and lines of --format "
              "trec_eval (docs/measures.md §12.1).")
@click.option("--ci-level", type=click.FloatRange(0, 1, min_open=True, max_open=True), default=0.95,
              show_default=True, help="With --ci: the confidence level.")
@click.option("--samples", type=click.IntRange(min=1), default=10000, show_default=True,
              help="With --ci bootstrap: the number of resamples.")
@click.option("--seed", type=int, default=0, show_default=True,
              help="With --ci bootstrap: the random seed (the same seed gives the same bytes).")
@click.option("--jobs", type=click.IntRange(min=1), default=None, metavar="N",
              help="Score runs in N parallel processes [default: one for small inputs, else the number of "
              "cores]; same output as --jobs 1.")
@click.option("--incremental", is_flag=True,
              help="Re-score only the runs changed since the last --incremental evaluation wrote RESULTS_DIR "
              "(same outputs as a full evaluation; what was reused is reported on standard error).")
@click.option("--incremental-from", "incremental_from", multiple=True, metavar="DIR",
              type=click.Path(file_okay=False),
              help="With --incremental (implied): also reuse the runs an incremental evaluation of the same config "
              "wrote into the results directory DIR (its RESULTS_DIR, e.g. one run file's part of a track split "
              "over machines). Repeatable.")
@click.option("--quiet", is_flag=True, help="No warnings or progress on standard error (errors still shown).")
@click.option("--list-metrics", is_flag=True, help="List every measure and exit (same as 'inexeval metrics').")
@click.option("--debug", is_flag=True, help="Show Python tracebacks (for bug reports).")
@click.version_option(__version__, "--version", prog_name="inexeval")
@click.pass_context
def main(ctx, config_path, per_query, empty_as_zero, gnuplot, png, topic_graphs, overrides, results_dir, fmt, digits,
         ci, ci_level, samples, seed, jobs, incremental, incremental_from, quiet, list_metrics, debug):
    """Evaluate INEX XML-retrieval runs as EvalJ did, from an EvalJ-style config."""
    own = [p for p in ctx.command.params if isinstance(p, click.Option) and given(ctx, p.name)
           and p.name not in ("debug",)]
    if ctx.invoked_subcommand is not None:
        if own:
            refuse(ctx, f"{own[0].opts[-1]} is an option of the evaluation, not of "
                        f"'inexeval {ctx.invoked_subcommand}': give the subcommand's own options after its name")
        return
    if list_metrics:
        others = [p for p in own if p.name != "list_metrics"]
        if others:
            refuse(ctx, f"--list-metrics lists the measures and evaluates nothing: {others[0].opts[-1]} "
                        "has no effect with it")
        click.echo(metrics_text())
        return
    _check_evaluation_options(ctx, ci)
    if not config_path:
        click.echo(ctx.get_help())
        click.echo("\ninexeval: error: -config FILE is required", err=True)
        sys.exit(2)
    try:
        _, status = run_evaluation(config_path, eval_options(ctx.params), echo=click.echo,
                                   progress=lambda n_runs: progress(n_runs, quiet))
    except InexevalError as err:
        fail(err, debug)
    sys.exit(status)


def _check_evaluation_options(ctx, ci) -> None:
    """Refuse options that would have no effect with the others given (exit 2): the API's rule."""
    for name in ("ci_level", "samples", "seed"):
        if given(ctx, name) and (ci is None or (ci == "t" and name != "ci_level")):
            flag = "--" + name.replace("_", "-")
            refuse(ctx, f"{flag} is a parameter of --ci bootstrap" + ("" if name != "ci_level" else " and --ci t")
                   + ": " + ("the t interval has no samples" if ci == "t" else "give --ci"))
    refusal = option_refusal(eval_options(ctx.params))
    if refusal is not None:
        refuse(ctx, refusal[1])


@main.command("metrics", cls=Once)
def metrics_cmd():
    """List every registered measure with its description."""
    click.echo(metrics_text())


#: The subcommands, one module each, loaded when named.
main.lazy = {
    "assessments": "inexeval.cli.assessments:assessments_cmd",
    "compare": "inexeval.cli.compare:compare_cmd",
    "design": "inexeval.cli.design:design_cmd",
    "docs": "inexeval.cli.docs:docs_cmd",
    "inex-eval": "inexeval.cli.dropins:inex_eval_cmd",
    "init": "inexeval.cli.init:init_cmd",
    "report": "inexeval.cli.report:report_cmd",
    "trec-eval": "inexeval.cli.dropins:trec_eval_cmd",
    "validate": "inexeval.cli.validate:validate_cmd",
}
