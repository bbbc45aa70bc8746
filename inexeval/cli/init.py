"""``inexeval init``: write a commented starter config, and with --sample the sample data (inexeval/starter.py)."""

from __future__ import annotations

import shlex

import click

from inexeval.cli._common import fail, Once
from inexeval.errors import InexevalError
from inexeval.starter import DEFAULT_TASK, init


@click.command("init", cls=Once, epilog="""\b
Examples:
  inexeval init --sample try        writes try/CO.Thorough.prop and try/sample_data/
  inexeval -config try/CO.Thorough.prop
  inexeval init --task trec .       a starter config for TREC runs: ./trec.prop
""")
@click.option("--task", default=DEFAULT_TASK, show_default=True, help="The task of the config (any TASK name).")
@click.option("--sample", is_flag=True, help="Also copy the sample data next to the config and point the config at it.")
@click.option("--force", is_flag=True, help="Replace files that exist (otherwise nothing is written).")
@click.option("--debug", is_flag=True, help="Show Python tracebacks.")
@click.argument("directory", default=".", type=click.Path(file_okay=False))
def init_cmd(task, sample, force, debug, directory):
    """Write DIRECTORY/<TASK>.prop, a starter config listing every key with its meaning and default."""
    try:
        written = init(directory, task, sample=sample, force=force)
    except InexevalError as err:
        fail(err, debug)
    click.echo(f"wrote {written.config}")
    if written.sample_data is not None:
        click.echo(f"wrote {written.sample_data}/ (the sample data the config scores)")
        click.echo(f"next: inexeval -config {shlex.quote(str(written.config))}")
    else:
        click.echo("next: set ASSESSMENTS_DIR and SUBMISSIONRUNS_DIR in it, then: "
                   f"inexeval -config {shlex.quote(str(written.config))}")
