"""The ``inexeval`` command's entry (``python -m inexeval`` and the installed script).

``inexeval trec-eval ...`` goes straight to the drop-in (:mod:`inexeval.trec_eval_cli`): it is run
once per run file, in loops, as trec_eval is, so it does not load the click command line (about
25 ms a call; docs/trec-eval.md).  Everything else goes through :mod:`inexeval.cli`.  The drop-in
ends on a signal as every command does (:mod:`inexeval.interrupts`), and a reader that stops
reading its output (``| head``) ends it with status 1, as the click command line did.
"""

from __future__ import annotations

import os
import sys


def main() -> None:
    argv = sys.argv[1:]
    if argv[:1] == ["trec-eval"]:
        sys.exit(trec_eval(argv[1:]))
    from inexeval.cli import main as cli

    cli()


def trec_eval(argv: list[str]) -> int:
    """``inexeval trec-eval ARGV``: the drop-in's exit status."""
    from inexeval.interrupts import signals_end_the_command

    with signals_end_the_command():
        from inexeval.trec_eval_cli import run_cli  # (Ctrl-C while numpy loads ends as any other)

        try:
            return run_cli(argv)
        except BrokenPipeError:
            # the reader is gone: what is still buffered goes nowhere (no second error at exit)
            try:
                devnull = os.open(os.devnull, os.O_WRONLY)
                os.dup2(devnull, sys.stdout.fileno())
            except (OSError, ValueError, AttributeError):
                pass
            return 1
