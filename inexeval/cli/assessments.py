"""``inexeval assessments``: the command line of :mod:`inexeval.assessments.workflow` (thin)."""

from __future__ import annotations

import sys

import click

from inexeval.cli._common import fail, Once, default_jobs, given, refuse
from inexeval.errors import InexevalError


@click.command("assessments", cls=Once, epilog="""\b
Examples:
  inexeval assessments -config configs/inex2005.prop
  inexeval assessments -config configs/inex2005.prop --agreement --format tsv
  inexeval assessments -config configs/trec.prop --qrels-b other-qrels.txt --agreement

Writes RESULTS_DIR/<TASK>/assessments/assessments.tsv|json (and graphs/ with -gnu/-png).
""")
@click.option("-config", "--config", "config_path", required=True, metavar="FILE", type=click.Path(dir_okay=False),
              help="Config selecting the assessments (ASSESSMENTS_DIR, TOPICS, POOLS, QUERY_TYPE) and the runs.")
@click.option("--agreement", is_flag=True,
              help="Also evaluate every run under each assessor's judgements and compare the two rankings.")
@click.option("--qrels-b", "qrels_b", type=click.Path(dir_okay=False), metavar="FILE",
              help="The second assessor's qrels (TREC and FOL tasks; INEX pools are found under ASSESSMENTS_DIR).")
@click.option("--format", "fmt", type=click.Choice(["table", "tsv", "json"]), default="table", show_default=True,
              help="What is printed (tsv and json: the rows of the files, full precision).")
@click.option("-gnu", "--gnuplot", is_flag=True, help="Graphs as gnuplot .dat and .gp files.")
@click.option("-jfree", "-png", "--png", "png", is_flag=True, help="Graphs as PNG (matplotlib).")
@click.option("--set", "overrides", multiple=True, metavar="KEY=VALUE", help="Override a config key.")
@click.option("--results-dir", type=click.Path(file_okay=False), help="Override RESULTS_DIR.")
@click.option("--jobs", type=click.IntRange(min=1), default=None, metavar="N",
              help="With --agreement: score runs in N processes [default: the cores].")
@click.option("--quiet", is_flag=True, help="No warnings on standard error.")
@click.option("--debug", is_flag=True, help="Show Python tracebacks.")
@click.pass_context
def assessments_cmd(ctx, config_path, agreement, qrels_b, fmt, gnuplot, png, overrides, results_dir, jobs, quiet,
                    debug):
    """Statistics per grade of the assessments, agreement between two assessors, and (--agreement)
    how much the run ranking depends on the assessor (seed 001 Tables 1-3)."""
    from inexeval.assessments.workflow import AssessOptions, run_assessments

    debug = debug or ctx.find_root().params.get("debug", False)
    if given(ctx, "jobs") and not agreement:
        refuse(ctx, "--jobs sets how many processes score the runs of --agreement; without it no run is scored")
    options = AssessOptions(agreement=agreement, qrels_b=qrels_b, fmt=fmt, gnuplot=gnuplot, png=png,
                            overrides=tuple(overrides), results_dir=results_dir, quiet=quiet,
                            jobs=jobs or default_jobs())
    try:
        sys.exit(run_assessments(config_path, options, echo=click.echo))
    except InexevalError as err:
        fail(err, debug)
