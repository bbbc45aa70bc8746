"""``inexeval report``: a static results site (HTML, CSS, PNG; one small script to sort tables).

For each config: the results are read back from ``RESULTS_DIR/<TASK>`` when
its stamp says they are up to date, as ``inexeval compare`` does, else the
config is evaluated and its result files written (:mod:`inexeval.report.data`);
every run file is checked as ``inexeval validate`` checks it.  Then the pages
and graphs are written (:mod:`inexeval.report.site`) into a staging
directory beside the report's directory and swapped in as a whole
(:func:`inexeval.resultsdir.staged`): a reader sees the old site or the new
one.  A directory that exists, is not empty and is not an inexeval report is
never replaced.  Same inputs, same bytes (pages and PNGs carry no date).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from inexeval.api import Echo
from inexeval.config.source import ConfigSource, load
from inexeval.api import report as tell
from inexeval.errors import OutputError
from inexeval.report.site import MARKER, Comparing, write_site

__all__ = ["build_report", "Comparing"]


def build_report(configs: Sequence[ConfigSource], html_dir: str | os.PathLike, *, empty_as_zero: bool = False,
                 overrides: Sequence[str] = (), results_dir: str | os.PathLike | None = None,
                 reevaluate: bool = False, comparing: Comparing = Comparing(), jobs: int = 1, quiet: bool = False,
                 echo: Echo | None = None, judgements_b: Sequence[str | os.PathLike] = ()) -> int:
    """Write the report of ``configs`` to ``html_dir``; returns the exit status (1 when some input was
    skipped).  JUDGEMENTS_B: other judgement sets each task page compares with the config's
    (``inexeval assessments --judgements-b``, :func:`inexeval.assessments.judges.compare_judgements`).  A bad config raises :class:`~inexeval.errors.ConfigError`, a directory that cannot be
    written (or is not a report) :class:`~inexeval.errors.OutputError`."""
    from inexeval.report.data import gather

    say = echo if echo is not None else (lambda *a, **k: None)
    shown = target = Path(os.path.abspath(os.path.expanduser(html_dir)))
    target = _followed(target)
    loaded = [load(c, overrides, results_dir) for c in configs]  # every config checked before any work
    if comparing.measure is not None:
        _check_measure(loaded, comparing.measure)
    for config in loaded:
        _apart(target, Path(os.path.abspath(config.results_dir)), config.task)
    check_target(target)
    tasks, status = [], 0
    for config in loaded:
        data = gather(config, empty_as_zero=empty_as_zero, reevaluate=reevaluate, jobs=jobs)
        if data.reused and not quiet:
            say(f"inexeval: reusing up-to-date result files in {Path(config.results_dir) / config.task}", err=True)
        tell(data, say, quiet)  # warnings and skipped inputs, as evaluation prints them
        status = 1 if data.problems else status
        if judgements_b:
            from inexeval.assessments.judges import JudgesOptions, compare_judgements

            data.judges = compare_judgements(config, list(judgements_b), JudgesOptions(jobs=jobs, quiet=quiet),
                                             echo=say)
            status = max(status, data.judges.status)
        tasks.append(data)
    write_atomically(tasks, target, comparing, jobs)
    if not quiet:
        say(f"inexeval: report written to {shown / 'index.html'}", err=True)
    return status


def _followed(target: Path) -> Path:
    """``target``, or the directory it names when it is a symbolic link to one (the site is then written
    there, and the link keeps naming it); OutputError for a link to anything else."""
    if not target.is_symlink():
        return target
    real = Path(os.path.realpath(target))
    if not real.is_dir():
        what = "nothing" if not real.exists() else "something that is not a directory"
        raise OutputError(f"--html: a symbolic link to {what} ({real}): give a directory, or a link to one",
                          target)
    return real


def _check_measure(configs, measure: str) -> None:
    from inexeval.errors import ConfigError
    from inexeval.plan import plan_config

    for config in configs:
        columns = plan_config(config).columns
        if measure not in columns:
            raise ConfigError(f"--measure: {measure!r} is not a measure of {config.task} ({', '.join(columns)})",
                              config.source)


def _apart(target: Path, results_dir: Path, task: str) -> None:
    """OutputError when replacing the site would replace result files, or the results the site."""
    results = results_dir / task
    if target == results_dir or target in results_dir.parents or target == results or target in results.parents \
            or results in target.parents:
        raise OutputError(f"--html: the report would replace, or be replaced with, the result files of {task} "
                          f"({results}): give a directory outside them", target)


def check_target(target: Path) -> None:
    """OutputError unless ``target`` is missing, an empty directory, or a report written before."""
    if target.is_symlink() or (target.exists() and not target.is_dir()):
        raise OutputError("--html: not a directory (give a new directory, or an earlier report's)", target)
    if target.is_dir():
        try:
            entries = os.listdir(target)
        except OSError as e:
            raise OutputError(f"--html: cannot read the directory: {e.strerror or e}", target) from None
        if entries and MARKER not in entries:
            raise OutputError("--html: the directory is not empty and holds no inexeval report; it would be "
                              "replaced as a whole: give a new directory (or an earlier report's)", target)


def write_atomically(tasks, target: Path, comparing: Comparing, jobs: int = 1) -> None:
    """The site written into a staging directory beside ``target``, then swapped in whole."""
    from inexeval.resultsdir import staged

    try:
        with staged(target.parent, target.name) as root:
            write_site(tasks, root / target.name, comparing, jobs)
    except OutputError as e:  # resultsdir speaks of RESULTS_DIR: here it is the directory holding the report
        e.message = e.message.replace("RESULTS_DIR", "the directory of --html")
        raise
