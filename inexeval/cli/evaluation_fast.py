"""``inexeval -config FILE ...`` without click, for the command lines that need nothing of it.

Loading click and building its command takes about 25 ms of every evaluation's start-up (a tenth of
a FOL config's 0.25 s; issue 35).  :func:`parse` reads the common command lines here: ``-config
FILE`` once, EvalJ's flags (``-q -e -gnu -jfree|-png``) and ``--quiet --debug --incremental
--topic-graphs``, and ``--jobs N``, ``--results-dir DIR``, ``--format NAME``, ``--set KEY=VALUE``
(repeatable), each in any of its spellings as two tokens.  Anything else, and anything click would
refuse or read differently (an option given twice, a value that starts with ``-``, an empty value,
``--jobs 0``, a config that is a directory, an option that would have no effect), returns None:
:mod:`inexeval.cli.command` then parses the command line as always, with its help and its errors.
What this module accepts, click accepts with the same values (tests/test_evaluation_fast.py compares
the two on generated command lines), and the evaluation then runs as the click command runs it:
the same :func:`inexeval.api.run_evaluation`, the same signals, pipes, messages and exit status.
"""

from __future__ import annotations

import os
import re
import sys

#: flag spellings -> the click command's parameter name
FLAGS = {
    "-q": "per_query", "--per-query": "per_query",
    "-e": "empty_as_zero", "--empty-as-zero": "empty_as_zero",
    "-gnu": "gnuplot", "--gnuplot": "gnuplot",
    "-jfree": "png", "-png": "png", "--png": "png",
    "--topic-graphs": "topic_graphs", "--incremental": "incremental",
    "--quiet": "quiet", "--debug": "debug",
}
#: options taking one value -> their parameter name (``--set`` may be repeated; the others once)
VALUES = {"-config": "config_path", "--config": "config_path", "--jobs": "jobs", "--results-dir": "results_dir",
          "--format": "fmt", "--set": "overrides"}
_POSITIVE = re.compile(r"[1-9][0-9]*\Z")


def parse(argv: list[str]) -> dict | None:
    """The click command's parameters for ARGV (only those given, with ``overrides`` a tuple), or
    None when ARGV is not one of this module's command lines."""
    params: dict = {}
    overrides: list[str] = []
    i = 0
    while i < len(argv):
        token = argv[i]
        if token in FLAGS:
            params[FLAGS[token]] = True
            i += 1
            continue
        name = VALUES.get(token)
        if name is None or i + 1 == len(argv):
            return None
        value = argv[i + 1]
        if not value or value.startswith("-"):
            return None
        if name == "overrides":
            overrides.append(value)
        elif name in params:
            return None  # given twice: click refuses it
        else:
            params[name] = value
        i += 2
    config = params.get("config_path")
    if config is None or os.path.isdir(config):
        return None
    results_dir = params.get("results_dir")
    if results_dir is not None and os.path.exists(results_dir) and not os.path.isdir(results_dir):
        return None
    if "jobs" in params:
        if not _POSITIVE.match(params["jobs"]):
            return None
        params["jobs"] = int(params["jobs"])
    if overrides:
        params["overrides"] = tuple(overrides)
    from inexeval.api import option_refusal

    return None if option_refusal(options(params)) is not None else params  # (an unknown --format too)


#: the click command's parameters named otherwise in :class:`inexeval.api.EvalOptions`
_RENAMED = {"samples": "ci_samples", "seed": "ci_seed"}


def options(params: dict):
    """The :class:`inexeval.api.EvalOptions` of the click command's parameters PARAMS (all of them, or
    only those given): the one translation the click command and this module share.  An absent
    ``jobs`` is the command line's automatic choice (None), not the API's 1."""
    from inexeval.records import fields

    from inexeval.api import EvalOptions

    names = {f.name for f in fields(EvalOptions)}
    kwargs = {_RENAMED.get(k, k): v for k, v in params.items() if _RENAMED.get(k, k) in names}
    kwargs.setdefault("jobs", None)
    for many in ("overrides", "incremental_from"):
        if many in kwargs:
            kwargs[many] = tuple(kwargs[many])
    return EvalOptions(**kwargs)


def echo(message: str = "", err: bool = False, nl: bool = True) -> None:
    """``click.echo`` for the text of an evaluation: ASCII without escape sequences is written as it
    is; anything else goes through click.echo itself (its encoding and escape-sequence rules)."""
    if not message.isascii() or "\x1b" in message:
        import click

        click.echo(message, err=err, nl=nl)
        return
    stream = sys.stderr if err else sys.stdout
    stream.write(message + "\n" if nl else message)
    stream.flush()


def evaluate(params: dict) -> int:
    """Run the evaluation of PARAMS (from :func:`parse`) as the click command does: its exit status."""
    from inexeval.api import run_evaluation
    from inexeval.cli.pipes import closed_pipes_ignored
    from inexeval.cli.progress_bar import progress
    from inexeval.errors import InexevalError
    from inexeval.interrupts import signals_end_the_command

    quiet = params.get("quiet", False)
    with closed_pipes_ignored(), signals_end_the_command(params.get("debug", False), say=lambda m: echo(m, err=True)):
        try:
            _, status = run_evaluation(params["config_path"], options(params), echo=echo,
                                       progress=lambda n_runs: progress(n_runs, quiet))
        except InexevalError as err:
            from inexeval.cli._common import fail

            fail(err, params.get("debug", False))
    return status
