"""The progress bar of an evaluation (click's), on standard error when it is a terminal, not
``--quiet``, and there are many runs.  click is imported only when a bar is shown: the evaluation's
command line without click (:mod:`inexeval.cli.evaluation_fast`) uses this module too."""

from __future__ import annotations

import contextlib
import sys

#: a progress bar is shown from this many runs on
PROGRESS_MIN_RUNS = 5


@contextlib.contextmanager
def progress(n_runs: int, quiet: bool, stream=None):
    """Yields the callback to call once per run (a no-op when no bar is shown, e.g. under cron)."""
    stream = stream if stream is not None else sys.stderr
    if quiet or n_runs < PROGRESS_MIN_RUNS or not stream.isatty():
        yield lambda _path=None: None
        return
    import click

    from inexeval.progress import Eta

    eta = Eta(n_runs)  # click's own estimate counts the start-up as run time (inexeval/progress.py)
    with click.progressbar(length=n_runs, label="scoring runs", file=stream, show_eta=False,
                           item_show_func=lambda text: text) as bar:
        yield lambda _path=None: (eta.tick(), bar.update(1, eta.text()))
