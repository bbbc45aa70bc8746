"""Command line: EvalJ's flags -> Config -> evaluate() -> writers.  Thin.

    inexeval -config FILE [-q] [-e] [-gnu] [-jfree | -png]
"""

from __future__ import annotations

import sys
import traceback
from pathlib import Path

import click

from inexeval import __version__
from inexeval.errors import ConfigError, InexevalError

EPILOG = """\b
Examples:
  inexeval -config configs/co-thorough.prop            averaged tables + result files
  inexeval -config configs/co-focussed.prop -q -e      per-topic too; missing topics score 0
  inexeval -config my.prop --set QUANT_FUNCTIONS=strict --results-dir /tmp/out
  inexeval metrics                                     list every measure

\b
Exit status: 0 everything evaluated; 1 some input could not be read or
evaluated (the rest was); 2 bad config or command line.
"""


def _fail(err: InexevalError, debug: bool) -> None:
    if debug:
        traceback.print_exc()
    for line in str(err).splitlines():
        click.echo(f"inexeval: error: {line}", err=True)
    sys.exit(err.exit_status)


class _Group(click.Group):
    """A group whose own options run the evaluation when no subcommand is given."""

    def format_usage(self, ctx, formatter):
        formatter.write_usage("inexeval", "-config FILE [-q] [-e] [-gnu] [-jfree|-png] [OPTIONS] | COMMAND ...")


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
@click.option("--format", "fmt", type=click.Choice(["table", "tsv", "csv", "json"]), default="table",
              show_default=True, help="Format of what is printed on standard output.")
@click.option("--quiet", is_flag=True, help="No warnings or progress on standard error (errors still shown).")
@click.option("--list-metrics", is_flag=True, help="List every measure and exit (same as 'inexeval metrics').")
@click.option("--debug", is_flag=True, help="Show Python tracebacks (for bug reports).")
@click.version_option(__version__, "--version", prog_name="inexeval")
@click.pass_context
def main(ctx, config_path, per_query, empty_as_zero, gnuplot, png, topic_graphs, overrides, results_dir, fmt, quiet,
         list_metrics, debug):
    """Evaluate INEX XML-retrieval runs as EvalJ did, from an EvalJ-style config."""
    if ctx.invoked_subcommand is not None:
        return
    if list_metrics:
        click.echo(_metrics_text())
        return
    if not config_path:
        click.echo(ctx.get_help())
        click.echo("\ninexeval: error: -config FILE is required", err=True)
        sys.exit(2)
    try:
        status = _run(config_path, per_query=per_query, empty_as_zero=empty_as_zero, gnuplot=gnuplot,
                      png=png, topic_graphs=topic_graphs, overrides=overrides, results_dir=results_dir, fmt=fmt, quiet=quiet)
    except InexevalError as err:
        _fail(err, debug)
    sys.exit(status)


def _run(config_path, *, per_query, empty_as_zero, gnuplot, png, topic_graphs, overrides, results_dir, fmt, quiet) -> int:
    from inexeval.config import load_config
    from inexeval.evaluate import evaluate
    from inexeval.writers.files import write_results
    from inexeval.writers.table import render
    import json

    sets = list(overrides)
    if results_dir:
        sets.append(f"RESULTS_DIR={results_dir}")
    config = load_config(config_path, sets)
    ev = evaluate(config, empty_as_zero=empty_as_zero)
    if not quiet:
        for w in ev.warnings:
            click.echo(f"inexeval: warning: {w}", err=True)
    for p in ev.problems:
        click.echo(f"inexeval: error: {p}", err=True)
    columns = [c for m in ev.measures for c in m.scalars(ev.params)]
    json_rows = []
    for s in ev.settings:
        rs = [r for r in ev.results if r.setting == s.name]
        if not rs:
            continue
        text = render(config.task, s.name, rs, columns, per_topic=per_query, fmt=fmt)
        if fmt == "json":
            json_rows.extend(json.loads(text))
        else:
            click.echo(text)
            if fmt == "table":
                click.echo()
    if fmt == "json":
        click.echo(json.dumps(json_rows, indent=1))
    if ev.results:
        write_results(config.results_dir, config.task, ev.results)
    if gnuplot or png:
        from inexeval.writers import graphs

        graphs.write_graphs(ev, gnuplot=gnuplot, png=png, per_topic=per_query and topic_graphs)
    if ev.problems:
        click.echo(f"inexeval: {len(ev.problems)} input(s) skipped:", err=True)
        for p in ev.problems:
            click.echo(f"  - {p.file}: {p.message}", err=True)
        return 1
    return 0


def _metrics_text() -> str:
    from tabulate import tabulate

    from inexeval.measures.registry import REGISTRY

    rows = [[m.name, ", ".join(sorted(m.strategies)), ", ".join(m.params) or "-", m.description]
            for m in REGISTRY]
    return tabulate(rows, headers=["METRICS name", "strategies", "config keys", "description"],
                    tablefmt="simple", maxcolwidths=[None, None, None, 70])


@main.command("metrics")
def metrics_cmd():
    """List every registered measure with its description."""
    click.echo(_metrics_text())
