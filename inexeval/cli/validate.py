"""``inexeval validate``."""

from __future__ import annotations

import sys

import click

from inexeval.cli._common import Once, fail, given, refuse
from inexeval.errors import InexevalError
from inexeval.tasks import DEFAULT_MAX_RESULTS


@click.command("validate", cls=Once, epilog="""\b
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
--task qa: the answer files read as evaluation reads them with --answer-match
(ANSWER_MATCH): each question it leaves out (an error of the answer file,
such as two synsets holding one answer) is a problem of every run.
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
@click.option("--answer-match", type=click.Choice(["normalised", "exact"]), default="normalised", show_default=True,
              help="qa: how answers are compared with the answer strings (ANSWER_MATCH of the config).")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="Text (one line per finding) or JSON (every finding, for scripts).")
@click.option("--debug", is_flag=True, help="Show Python tracebacks.")
@click.pass_context
def validate_cmd(ctx, runs, task, assessments, max_results, answer_match, fmt, debug):
    """Check submission runs before evaluating them: one report per run."""
    from inexeval import validate

    debug = debug or ctx.find_root().params.get("debug", False)  # `inexeval --debug validate` too
    from inexeval.tasks import find_task

    row = find_task(task) if task else None
    unit = row.facts if row is not None else None
    if unit is not None and unit.max_results_from_task and not given(ctx, "max_results"):
        max_results = row.max_results  # L' of question answering
    elif unit is not None and unit.max_results_note is not None and given(ctx, "max_results"):
        refuse(ctx, f"--max-results has no effect on {row.name} runs: {unit.max_results_note}")

    if given(ctx, "answer_match") and (unit is None or not unit.marks_answers):
        refuse(ctx, "--answer-match applies to qa runs only (give --task qa)")
    try:
        rb = validate.assessments_from(assessments, task=task, answer_match=answer_match) if assessments else None
        reports = validate.validate_runs(runs, task=task, assessments=rb, max_results=max_results)
    except InexevalError as err:
        fail(err, debug)
    click.echo(validate.format_reports(reports, fmt))
    sys.exit(validate.exit_status(reports))


