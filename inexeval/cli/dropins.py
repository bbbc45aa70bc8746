"""``inexeval trec-eval`` and ``inexeval inex-eval`` as click commands, for ``--help`` and for the
Python entry through the click group; the installed command sends them to their modules before
click loads (:mod:`inexeval.launch`)."""

from __future__ import annotations

import sys

import click


@click.command("inex-eval", add_help_option=False,
              context_settings={"ignore_unknown_options": True, "allow_interspersed_args": False})
@click.argument("args", nargs=-1, type=click.UNPROCESSED)
def inex_eval_cmd(args):
    """Drop-in inex_eval 3.1 (INEX 2007-2010 FOL tasks): inexeval inex-eval (-t|-f|-r|-b|-i) [-q] [-c] QRELS RUN..."""
    from inexeval.dropins.inex_eval import run_cli

    sys.exit(run_cli(list(args)))


@click.command("trec-eval", add_help_option=False,
              context_settings={"ignore_unknown_options": True, "allow_interspersed_args": False})
@click.argument("args", nargs=-1, type=click.UNPROCESSED)
def trec_eval_cmd(args):
    """Drop-in trec_eval 10.0: inexeval trec-eval [-q] [-m measure[.params]] [-c] [-M n] ... QRELS RUN"""
    from inexeval.dropins.trec_eval.cli import run_cli

    sys.exit(run_cli(list(args)))


