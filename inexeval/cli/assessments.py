"""``inexeval assessments``: the command line of :mod:`inexeval.assessments.workflow` (thin)."""

from __future__ import annotations

import sys

import click

from inexeval.cli._common import fail, Once, default_jobs, given, refuse
from inexeval.errors import InexevalError

#: the options that only matter when judgement sets are compared (--judgements-b), and their flags
_JUDGES_OPTIONS = {"missing": "--missing", "top": "--top", "measures": "--measure", "test": "--test",
                   "samples": "--samples", "seed": "--seed", "alpha": "--alpha", "fill": "--fill",
                   "judged_k": "--judged-k", "labels_only": "--labels-only"}
#: the options that only matter when the runs are scored under every set (not --labels-only)
_SCORING_OPTIONS = ("top", "measures", "test", "samples", "seed", "alpha", "fill", "judged_k")


@click.command("assessments", cls=Once, epilog="""\b
Examples:
  inexeval assessments -config configs/inex2005.prop
  inexeval assessments -config configs/inex2005.prop --agreement --format tsv
  inexeval assessments -config configs/trec.prop --judgements-b llm-qrels.txt
  inexeval assessments -config configs/trec.prop --judgements-b b.txt --judgements-b c.txt --missing default:0
  inexeval assessments -config configs/trec.prop --judgements-b llm.txt --fill A+B --test tukey

Writes RESULTS_DIR/<TASK>/assessments/assessments.tsv|json (and graphs/ with -gnu/-png).
""")
@click.option("-config", "--config", "config_path", required=True, metavar="FILE", type=click.Path(dir_okay=False),
              help="Config selecting the assessments (ASSESSMENTS_DIR, TOPICS, POOLS, QUERY_TYPE) and the runs.")
@click.option("--agreement", is_flag=True,
              help="Also evaluate every run under each assessor's judgements and compare the two rankings "
                   "(implied by --judgements-b).")
@click.option("--judgements-b", "--qrels-b", "judgements_b", multiple=True, type=click.Path(), metavar="FILE",
              help="Another judgement set of the task's kind (TREC or FOL qrels; a directory of INEX pool files), "
                   "compared with the config's: labels, run rankings, significance decisions. Repeatable "
                   "(B, C, ...). --qrels-b is the same option.")
@click.option("--missing", metavar="default:G",
              help="Also compare the items either set judged, a missing judgement being grade G.")
@click.option("--top", type=click.IntRange(min=1), default=10, show_default=True, metavar="K",
              help="Kendall's tau over the K best runs under the config's judgements.")
@click.option("--measure", "measures", multiple=True, metavar="M",
              help="Measure whose significance decisions are compared [default: the task's headline measure]. "
                   "Repeatable.")
@click.option("--test", type=click.Choice(["t", "randomisation", "bootstrap", "tukey", "randomised-tukey"]),
              default="t", show_default=True,
              help="Significance test (t, randomisation, bootstrap: Holm-corrected pairs as inexeval compare).")
@click.option("--samples", type=click.IntRange(min=1), default=10000, show_default=True,
              help="Samples of the randomisation, bootstrap and randomised Tukey tests.")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of those samples.")
@click.option("--alpha", type=click.FloatRange(0, 1, min_open=True, max_open=True), default=0.05,
              show_default=True, help="Significance level.")
@click.option("--fill", multiple=True, metavar="A+B",
              help="Also score the runs on A's judgements filled with set B's (TREC qrels; C for the second "
                   "set, ...), with each run's Judged@k under A, B and the fill.")
@click.option("--judged-k", type=click.IntRange(min=1), default=10, show_default=True, metavar="K",
              help="The k of Judged@k (with --fill).")
@click.option("--labels-only", is_flag=True, help="With --judgements-b: compare the labels only; no run is read.")
@click.option("--format", "fmt", type=click.Choice(["table", "tsv", "json"]), default="table", show_default=True,
              help="What is printed (tsv and json: the rows of the files, full precision).")
@click.option("-gnu", "--gnuplot", is_flag=True, help="Graphs as gnuplot .dat and .gp files.")
@click.option("-jfree", "-png", "--png", "png", is_flag=True, help="Graphs as PNG (matplotlib).")
@click.option("--set", "overrides", multiple=True, metavar="KEY=VALUE", help="Override a config key.")
@click.option("--results-dir", type=click.Path(file_okay=False), help="Override RESULTS_DIR.")
@click.option("--jobs", type=click.IntRange(min=1), default=None, metavar="N",
              help="When runs are scored (--agreement, --judgements-b): N processes [default: the cores].")
@click.option("--quiet", is_flag=True, help="No warnings on standard error.")
@click.option("--debug", is_flag=True, help="Show Python tracebacks.")
@click.pass_context
def assessments_cmd(ctx, config_path, agreement, judgements_b, missing, top, measures, test, samples, seed, alpha,
                    fill, judged_k, labels_only, fmt, gnuplot, png, overrides, results_dir, jobs, quiet, debug):
    """Statistics per grade of the assessments, agreement between two assessors, and (--agreement)
    how much the run ranking depends on the assessor (seed 001 Tables 1-3); with --judgements-b, how far
    other judgement sets agree with the config's: labels, run rankings and significance decisions."""
    from inexeval.assessments.judges import JudgesOptions, parse_missing
    from inexeval.assessments.workflow import AssessOptions, run_assessments

    debug = debug or ctx.find_root().params.get("debug", False)
    scores = (agreement or bool(judgements_b)) and not labels_only
    if not judgements_b:
        named = [flag for n, flag in _JUDGES_OPTIONS.items() if given(ctx, n)]
        if named:
            refuse(ctx, f"{named[0]} is an option of comparing judgement sets: give them with --judgements-b")
    elif labels_only:
        named = [n for n in _SCORING_OPTIONS if given(ctx, n)]
        if named or agreement:
            refuse(ctx, "--labels-only reads no run: not with --agreement, --fill, --measure, --test, --top, "
                        "--samples, --seed, --alpha or --judged-k")
    if test in ("t", "tukey"):
        for name in ("samples", "seed"):
            if given(ctx, name):
                refuse(ctx, f"--{name} is a parameter of --test randomisation, bootstrap and randomised-tukey; "
                            f"--test {test} draws no samples")
    if given(ctx, "jobs") and not scores:
        refuse(ctx, "--jobs sets how many processes score the runs of --agreement; without it no run is scored")
    try:
        judges = JudgesOptions(missing=parse_missing(missing), top=top, measures=tuple(measures), test=test,
                               samples=samples, seed=seed, alpha=alpha, fill=tuple(fill), judged_k=judged_k,
                               score_runs=not labels_only)
        options = AssessOptions(agreement=agreement, judgements_b=tuple(judgements_b), judges=judges, fmt=fmt,
                                gnuplot=gnuplot, png=png, overrides=tuple(overrides), results_dir=results_dir,
                                quiet=quiet, jobs=jobs or default_jobs())
        sys.exit(run_assessments(config_path, options, echo=click.echo))
    except InexevalError as err:
        fail(err, debug)
