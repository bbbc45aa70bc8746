"""Command line: parses EvalJ's flags into one options value and calls the library.  Thin.

    inexeval -config FILE [-q] [-e] [-gnu] [-jfree | -png]
"""

from __future__ import annotations

import contextlib
import sys
import traceback

import click

from inexeval import __version__
from inexeval.api import FORMATS, EvalOptions, metrics_text, run_evaluation
from inexeval.errors import InexevalError
from inexeval.interrupts import signals_end_the_command
from inexeval.tasks import DEFAULT_MAX_RESULTS

EPILOG = """\b
Examples:
  inexeval -config configs/co-thorough.prop            averaged tables + result files
  inexeval -config configs/co-focussed.prop -q -e      per-topic too; missing topics score 0
  inexeval -config my.prop --set QUANT_FUNCTIONS=strict --results-dir /tmp/out
  inexeval metrics                                     list every measure

\b
Exit status: 0 everything evaluated; 1 some input could not be read or
evaluated (the rest was); 2 bad config or command line, or the results could
not be written; 130 interrupted (Ctrl-C), 143 terminated (SIGTERM), 129
(SIGHUP): the previous results are left as they were.
"""


def _fail(err: InexevalError, debug: bool) -> None:
    if debug:
        traceback.print_exc()
    for line in str(err).splitlines():
        click.echo(f"inexeval: error: {line}", err=True)
    sys.exit(err.exit_status)


def _check_repeats(ctx: click.Context, order) -> None:
    """A UsageError when an option that takes one value is given twice (``-config A -config B`` would
    silently use B): options that take several values are declared ``multiple``; a flag given twice is
    the same flag."""
    seen: set[str] = set()
    for param in order:
        if not isinstance(param, click.Option) or param.multiple or param.is_flag or param.count:
            continue
        if param.name in seen:
            raise click.UsageError(f"option {param.opts[-1]} given more than once (it takes one value; "
                                   "give it once)", ctx)
        seen.add(param.name)


class _Once(click.Command):
    """A command whose options that take one value may be given once (see _check_repeats)."""

    def make_parser(self, ctx):
        parser = super().make_parser(ctx)
        parse = parser.parse_args

        def parse_args(args):
            opts, rest, order = parse(args=args)
            _check_repeats(ctx, order)
            return opts, rest, order

        parser.parse_args = parse_args
        return parser


def given(ctx: click.Context, name: str) -> bool:
    """Whether the option NAME was given on the command line (not its default)."""
    return ctx.get_parameter_source(name) not in (None, click.core.ParameterSource.DEFAULT)


def refuse(ctx: click.Context, message: str) -> None:
    """An option that would have no effect with the others given: exit 2 with MESSAGE."""
    raise click.UsageError(message, ctx)


class _Group(_Once, click.Group):
    """A group whose own options run the evaluation when no subcommand is given."""

    def format_usage(self, ctx, formatter):
        formatter.write_usage("inexeval", "-config FILE [-q] [-e] [-gnu] [-jfree|-png] [OPTIONS] | COMMAND ...")

    def invoke(self, ctx):
        """Every command ends on a signal as :mod:`inexeval.interrupts` says, not with a traceback
        and click's "Aborted!" (status 1)."""
        with signals_end_the_command(bool(ctx.params.get("debug")), say=lambda m: click.echo(m, err=True)):
            return super().invoke(ctx)


@click.group(cls=_Group, invoke_without_command=True, epilog=EPILOG,
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
              "text for each run, for the FOL tasks).")
@click.option("--digits", type=click.IntRange(0, 17), default=None,
              help="With --format trec_eval: round to this many decimals (trec_eval prints 4); "
              "default full precision.")
@click.option("--jobs", type=click.IntRange(min=1), default=None, metavar="N",
              help="Score runs in N parallel processes [default: one for small inputs, else the number of "
              "cores]; same output as --jobs 1.")
@click.option("--incremental", is_flag=True,
              help="Re-score only the runs changed since the last --incremental evaluation wrote RESULTS_DIR "
              "(same outputs as a full evaluation; what was reused is reported on standard error).")
@click.option("--quiet", is_flag=True, help="No warnings or progress on standard error (errors still shown).")
@click.option("--list-metrics", is_flag=True, help="List every measure and exit (same as 'inexeval metrics').")
@click.option("--debug", is_flag=True, help="Show Python tracebacks (for bug reports).")
@click.version_option(__version__, "--version", prog_name="inexeval")
@click.pass_context
def main(ctx, config_path, per_query, empty_as_zero, gnuplot, png, topic_graphs, overrides, results_dir, fmt, digits,
         jobs, incremental, quiet, list_metrics, debug):
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
    _check_evaluation_options(ctx, per_query, gnuplot, png, topic_graphs, fmt, digits)
    if not config_path:
        click.echo(ctx.get_help())
        click.echo("\ninexeval: error: -config FILE is required", err=True)
        sys.exit(2)
    options = EvalOptions(per_query=per_query, empty_as_zero=empty_as_zero, gnuplot=gnuplot, png=png,
                          topic_graphs=topic_graphs, fmt=fmt, digits=digits, jobs=jobs,
                          quiet=quiet, overrides=tuple(overrides), results_dir=results_dir, incremental=incremental)
    try:
        _, status = run_evaluation(config_path, options, echo=click.echo,
                                   progress=lambda n_runs: progress(n_runs, quiet))
    except InexevalError as err:
        _fail(err, debug)
    sys.exit(status)


def _check_evaluation_options(ctx, per_query, gnuplot, png, topic_graphs, fmt, digits) -> None:
    """Refuse options that would have no effect with the others given (exit 2)."""
    if digits is not None and fmt != "trec_eval":
        refuse(ctx, f"--digits rounds the values of --format trec_eval; --format {fmt} prints "
                    "full precision (tsv, csv, json) or its own rounding (table, inex_eval)")
    if topic_graphs and not (per_query and (gnuplot or png)):
        refuse(ctx, "--topic-graphs draws every topic's curves: it needs -q and -gnu or -png")


def default_jobs() -> int:
    """The number of cores this process may use."""
    from inexeval.engine import available_cores

    return available_cores()


#: a progress bar is shown from this many runs on
PROGRESS_MIN_RUNS = 5


@contextlib.contextmanager
def progress(n_runs: int, quiet: bool, stream=None):
    """A progress bar on standard error when it is a terminal, not --quiet, and there are many runs.

    Yields the callback to call once per run (a no-op when no bar is shown,
    e.g. under cron).
    """
    stream = stream if stream is not None else sys.stderr
    if quiet or n_runs < PROGRESS_MIN_RUNS or not stream.isatty():
        yield lambda _path=None: None
        return
    from inexeval.progress import Eta

    eta = Eta(n_runs)  # click's own estimate counts the start-up as run time (inexeval/progress.py)
    with click.progressbar(length=n_runs, label="scoring runs", file=stream, show_eta=False,
                           item_show_func=lambda text: text) as bar:
        yield lambda _path=None: (eta.tick(), bar.update(1, eta.text()))


@main.command("metrics", cls=_Once)
def metrics_cmd():
    """List every registered measure with its description."""
    click.echo(metrics_text())


def reusing_results(command):
    """The options of the commands that reuse up-to-date result files and evaluate the configs whose
    files are not (compare, report): --set, --results-dir, --reevaluate, --quiet, --debug."""
    for option in reversed((
        click.option("--set", "overrides", multiple=True, metavar="KEY=VALUE", help="Override a config key."),
        click.option("--results-dir", type=click.Path(file_okay=False), help="Override RESULTS_DIR."),
        click.option("--reevaluate", is_flag=True, help="Evaluate even when the result files are up to date."),
        click.option("--quiet", is_flag=True, help="No warnings on standard error."),
        click.option("--debug", is_flag=True, help="Show Python tracebacks."),
    )):
        command = option(command)
    return command


@main.command("compare", cls=_Once, epilog="""\b
Examples:
  inexeval compare -config configs/co-thorough.prop
  inexeval compare -config configs/co-thorough.prop --measure Q --test randomisation
  inexeval compare -config configs/co-thorough.prop --runs Medium,Poor -png
  inexeval compare -config configs/co-thorough.prop --run 'a,b' --run Poor
  inexeval compare -config configs/co-focussed.prop -config configs/co-thorough.prop

Writes RESULTS_DIR/<TASK>/correlations.tsv|json and significance.tsv|json
(with several configs also correlations-average.tsv|json beside the first).
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
              help="Samples of the randomisation and bootstrap tests.")
@click.option("--seed", type=int, default=0, show_default=True, help="Random seed of those tests.")
@click.option("--alpha", "level", type=click.FloatRange(0, 1, min_open=True, max_open=True), default=0.05,
              show_default=True, help="Significance level (after Holm-Bonferroni correction).")
@click.option("-gnu", "--gnuplot", is_flag=True, help="Per-topic difference histogram as gnuplot files.")
@click.option("-jfree", "-png", "--png", "png", is_flag=True, help="Per-topic difference histogram as PNG.")
@reusing_results
@click.pass_context
def compare_cmd(ctx, configs, empty_as_zero, measure, test, runs, run_list, method, samples, seed, level, gnuplot, png,
                overrides, results_dir, reevaluate, quiet, debug):
    """Rank correlations between measures and quantisations, significance tests between
    runs, and per-topic differences, from one or more configs."""
    from inexeval.comparing import CompareOptions, run_compare

    debug = debug or ctx.find_root().params.get("debug", False)  # `inexeval --debug compare` too
    if runs is not None and run_list:
        refuse(ctx, "--runs and --run both name runs: give them one way (--run for ids with commas)")
    run_ids = tuple(run_list) if run_list else tuple(r.strip() for r in runs.split(",") if r.strip()) if runs else ()
    _check_compare_options(ctx, test, run_ids, gnuplot, png)
    options = CompareOptions(empty_as_zero=empty_as_zero, measure=measure, test=test,
                             runs=run_ids,
                             method=method, samples=samples, seed=seed, level=level, gnuplot=gnuplot, png=png,
                             overrides=tuple(overrides), results_dir=results_dir, reevaluate=reevaluate,
                             quiet=quiet, jobs=default_jobs())
    try:
        sys.exit(run_compare(configs, options, echo=click.echo))
    except InexevalError as err:
        _fail(err, debug)


def _check_compare_options(ctx, test, run_ids, gnuplot, png) -> None:
    """Refuse compare options that would have no effect with the others given (exit 2)."""
    if test == "t":
        for name, flag in (("samples", "--samples"), ("seed", "--seed")):
            if given(ctx, name):
                refuse(ctx, f"{flag} is a parameter of --test randomisation and bootstrap; the t test "
                            "has no samples")
    twice = sorted({r for r in run_ids if run_ids.count(r) > 1})
    if twice:
        refuse(ctx, f"--runs/--run: run id(s) given twice: {', '.join(map(repr, twice))}")
    if ctx.params.get("runs") is not None and not run_ids:
        refuse(ctx, "--runs: no run id given")
    if any(not r.strip() for r in run_ids):
        refuse(ctx, "--run: an empty run id")
    if (gnuplot or png) and len(run_ids) != 2:
        refuse(ctx, "-gnu and -png draw the per-topic differences of two runs: give --runs A,B (or --run A --run B)")


@main.command("inex-eval", add_help_option=False,
              context_settings={"ignore_unknown_options": True, "allow_interspersed_args": False})
@click.argument("args", nargs=-1, type=click.UNPROCESSED)
def inex_eval_cmd(args):
    """Drop-in inex_eval 3.1 (INEX 2007-2010 FOL tasks): inexeval inex-eval (-t|-f|-r|-b|-i) [-q] [-c] QRELS RUN..."""
    from inexeval.inex_eval import run_cli

    sys.exit(run_cli(list(args)))


@main.command("trec-eval", add_help_option=False,
              context_settings={"ignore_unknown_options": True, "allow_interspersed_args": False})
@click.argument("args", nargs=-1, type=click.UNPROCESSED)
def trec_eval_cmd(args):
    """Drop-in trec_eval 10.0: inexeval trec-eval [-q] [-m measure[.params]] [-c] [-M n] ... QRELS RUN"""
    from inexeval.trec_eval_cli import run_cli

    sys.exit(run_cli(list(args)))


@main.command("validate", cls=_Once, epilog="""\b
Examples:
  inexeval validate runs/*.xml --task CO.Focussed --assessments assessments/
  inexeval validate run.xml.gz --format json
  inexeval validate fol.run --task FOL.RelevantInContext --assessments qrels.txt
  inexeval validate run.tsv --task qa --assessments answers.tsv

Exit status: 0 every run is valid; 1 some run has a problem; 2 bad options.
The verdict is evaluation's.  Problems (evaluation skips the run or leaves
results out): unreadable or malformed file, invalid paths, duplicates,
results beyond --max-results, overlap and a second result per article
(BestInContext), topics unknown to the assessments, a run id used twice.
Warnings (scored as submitted): overlap (Focussed), interleaved articles
(RelevantInContext), rank/rsv inconsistencies, several <path> in a
<result>, task attribute differences, empty topics, a run id written
under another file name.
--task trec: the run read as evaluation reads it (--assessments: the qrels).
FOL tasks (passage runs): every line inex_eval 3.1 would reject the run for
(field count, interleaved articles, several results per article, overlapping
passages, negative sizes) and every place where it would die, with its
message; the first one listed is what evaluation reports.  With
--assessments (the FOL qrels file), topics not in the qrels are warnings.
""")
@click.argument("runs", nargs=-1, required=True, type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--task", help="Task the runs are for (checks overlap or grouping); default: each run's task attribute.")
@click.option("--assessments", type=click.Path(),
              help="Assessments (file, directory or glob; FOL tasks and trec: the qrels file) to check topics against.")
@click.option("--max-results", type=click.IntRange(min=1), default=DEFAULT_MAX_RESULTS, show_default=True,
              help="Results counted per topic (MAX_RESULTS).")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="Text (one line per finding) or JSON (every finding, for scripts).")
@click.option("--debug", is_flag=True, help="Show Python tracebacks.")
@click.pass_context
def validate_cmd(ctx, runs, task, assessments, max_results, fmt, debug):
    """Check submission runs before evaluating them: one report per run."""
    from inexeval import validate

    debug = debug or ctx.find_root().params.get("debug", False)  # `inexeval --debug validate` too
    from inexeval.tasks import find_task

    row = find_task(task) if task else None
    if row is not None and row.unit == "answer" and not given(ctx, "max_results"):
        max_results = row.max_results  # L' of question answering
    elif row is not None and row.unit != "element" and given(ctx, "max_results"):
        refuse(ctx, f"--max-results has no effect on {row.name} runs: "
                    + ("every result counts, as inex_eval counts them" if row.unit == "passage"
                       else "results beyond it are cut off as trec_eval -M does, which no run fails"))

    try:
        rb = validate.assessments_from(assessments, task=task) if assessments else None
        reports = validate.validate_runs(runs, task=task, assessments=rb, max_results=max_results)
    except InexevalError as err:
        _fail(err, debug)
    click.echo(validate.format_reports(reports, fmt))
    sys.exit(validate.exit_status(reports))


from inexeval.cli_assessments import assessments_cmd  # noqa: E402  (its own module: inexeval assessments)

main.add_command(assessments_cmd)

from inexeval.cli_init import init_cmd  # noqa: E402  (a subcommand in its own module)

main.add_command(init_cmd)

from inexeval.cli_report import report_cmd  # noqa: E402  (a subcommand in its own module)

main.add_command(report_cmd)
