"""``inexeval report``: the command line of :mod:`inexeval.report` (attached in cli/command.py)."""

from __future__ import annotations

import sys

import click

from inexeval.cli._common import Once, fail, default_jobs, reusing_results
from inexeval.errors import InexevalError


@click.command("report", cls=Once, epilog="""\b
Examples:
  inexeval report -config configs/co-focussed.prop --html site
  inexeval report -config configs/co-focussed.prop -config configs/co-thorough.prop --html site
  (then open site/index.html in a browser: no server needed)

Result files in RESULTS_DIR are reused when up to date (as compare reuses
them), else the configs are evaluated and they are written.  DIR is replaced
as a whole; a directory that is not empty and holds no inexeval report is
refused.  Exit status: 0; 1 some input was skipped (the rest is reported);
2 bad config or command line, or DIR cannot be written.
""")
@click.option("-config", "--config", "configs", multiple=True, required=True, metavar="FILE",
              type=click.Path(dir_okay=False), help="Config to report on (repeat: one section per config).")
@click.option("--html", "html_dir", required=True, metavar="DIR", type=click.Path(),
              help="Directory of the site (created; replaced as a whole).")
@click.option("-e", "--empty-as-zero", is_flag=True, help="As for evaluation: missing topics score 0.")
@click.option("--measure", help="Measure of the significance tables [default: MAep, else the first].")
@click.option("--test", "test", type=click.Choice(["t", "randomisation", "bootstrap"]), default="t",
              show_default=True, help="Paired significance test.")
@click.option("--ci", type=click.Choice(["t", "bootstrap"]), default="t", show_default=True,
              help="Interval of each run's mean in the statistics tables (docs/measures.md §12.1).")
@click.option("--tukey", type=click.Choice(["classic", "randomised"]), default="classic", show_default=True,
              help="Tukey HSD of the statistics tables and their significance groups (§12.3).")
@click.option("--panels", "panels", type=click.IntRange(min=0), default=10, show_default=True, metavar="K",
              help="Side-by-side pages: each run's top K results per topic beside the run best there (0: none).")
@click.option("--judgements-b", "--qrels-b", "judgements_b", multiple=True, metavar="FILE",
              type=click.Path(exists=True), help="Another judgement set of the task's kind, compared with the "
              "config's on each task page, as 'inexeval assessments --judgements-b' does. Repeatable.")
@reusing_results
@click.pass_context
def report_cmd(ctx, configs, html_dir, empty_as_zero, measure, test, ci, tukey, panels, judgements_b, overrides,
               results_dir, reevaluate, quiet, debug):
    """A static results site: per task the summary table (sortable), the ranking per measure, the curves,
    the comparison tables and the validation findings; one page per run."""
    from inexeval.report import Comparing, build_report

    debug = debug or ctx.find_root().params.get("debug", False)
    try:
        status = build_report(configs, html_dir, empty_as_zero=empty_as_zero, overrides=overrides,
                              results_dir=results_dir, reevaluate=reevaluate,
                              comparing=Comparing(measure=measure, test=test, ci=ci, tukey=tukey, panels=panels),
                              jobs=default_jobs(), quiet=quiet, judgements_b=judgements_b,
                              echo=click.echo)
    except InexevalError as err:
        fail(err, debug)
    sys.exit(status)
