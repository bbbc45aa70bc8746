"""``inexeval docs [NAME [§N]]``: the documentation the help texts and errors cite (docs/NAME.md §N), from
the wheel or the clone (inexeval/docs_files.py)."""

from __future__ import annotations

import click

from inexeval.cli._common import Once, fail
from inexeval.docs_files import docs, find_doc
from inexeval.errors import InexevalError


@click.command("docs", cls=Once, epilog="""\b
Examples:
  inexeval docs                     the docs: name and title
  inexeval docs formats             docs/formats.md, whole
  inexeval docs formats §9.2        its section 9.2 with 9.2.1, 9.2.2, ... (also: 9.2)
  inexeval docs measures 8 | less

\b
Exit status: 0 printed; 2 no doc NAME or no section §N in it (the names
or the section numbers are listed).
""")
@click.option("--debug", is_flag=True, help="Show Python tracebacks.")
@click.argument("name", required=False)
@click.argument("section", required=False, metavar="[§N]")
def docs_cmd(debug, name, section):
    """Print the documentation: the list of docs, doc NAME (docs/NAME.md) or its section §N.

    A help text's or an error's "docs/NAME.md §N" is printed by 'inexeval docs NAME §N'."""
    try:
        if name is None:
            every = docs()
            width = max(len(d.name) for d in every)
            for doc in every:
                click.echo(f"{doc.name:<{width}}  {doc.title}")
            return
        doc = find_doc(name)
        click.echo(doc.text if section is None else doc.section(section), nl=False)
    except InexevalError as err:
        fail(err, debug)
