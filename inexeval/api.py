"""The Python API, and the evaluation workflow the command line runs::

    import inexeval
    res = inexeval.evaluate("configs/co-thorough.prop", QUANT_FUNCTIONS="gen")
    res.average("Medium")["MAep"]          # one setting: no need to name it
    res.per_topic("Poor")["203"]["Q"]
    inexeval.measures("CO.Focussed")       # what METRICS can name

:func:`evaluate` returns :class:`~inexeval.results.Results`; :func:`measures`
lists every measure.  :func:`run_evaluation` is what ``inexeval -config``
does (load the config, evaluate, write the result files, summary, stamp and
graphs, report); ``evaluate(..., write=True)`` calls it too, so the command
line and the API cannot disagree.  Options travel as one :class:`EvalOptions`.

Library code here never prints by itself and never exits: what the command
line shows goes through the ``echo`` callable it passes (``click.echo``'s
signature: ``echo(text, err=False, nl=True)``), and bad input is raised as
:class:`~inexeval.errors.InexevalError`.  Nothing heavy (numpy, lxml, yaml)
is imported with this module, so that ``inexeval --version`` stays fast.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, ContextManager

from inexeval.config.source import ConfigSource, load, override_strings  # noqa: F401  (the API's names)
from inexeval.names import one_line  # ids in messages: each message one line
from inexeval.records import record
from inexeval.writers.formats import FORMATS as _FORMAT_TABLE

if TYPE_CHECKING:
    from inexeval.config.schema import Config
    from inexeval.engine import Evaluation
    from inexeval.results import Results

#: ``echo(text, err=False, nl=True)``: where the workflows send what they print (click.echo fits)
Echo = Callable[..., None]
#: ``progress(number_of_runs)``: a context manager yielding the callback called once per run scored
Progress = Callable[[int], ContextManager[Callable[[str], None]]]

#: ``--format``'s names (the format table: :data:`inexeval.writers.formats.FORMATS`)
FORMATS = tuple(_FORMAT_TABLE)


@record(frozen=True)
class EvalOptions:
    """How one evaluation runs, what it writes and what it prints: the command line's options as one value."""

    per_query: bool = False  # -q: per-topic rows in the tables
    empty_as_zero: bool = False  # -e: topics missing from a run score 0
    gnuplot: bool = False  # -gnu: .dat/.gp files of the curves
    png: bool = False  # -png: PNG graphs of the curves
    topic_graphs: bool = False  # with per_query and a graph flag: every topic's curves too
    fmt: str = "table"  # what is printed: one of FORMATS
    digits: int | None = None  # --format trec_eval: decimals (None: full precision)
    jobs: int | None = 1  # processes scoring runs (None: one for small inputs, else the cores)
    quiet: bool = False  # no warnings
    overrides: tuple[str, ...] = ()  # --set KEY=VALUE, in order
    results_dir: str | os.PathLike | None = None  # replaces RESULTS_DIR
    #: keep every measure's per-topic values in memory (the API); otherwise only those the
    #: tables print and the graphs draw are kept once a run's files are written
    keep_per_topic: bool = False
    #: --incremental: re-score only the runs that changed since RESULTS_DIR was written by an
    #: incremental evaluation (docs/formats.md §9.2.8); the outputs are those of a full evaluation
    incremental: bool = False
    #: --incremental-from DIR: other results directories whose incremental evaluations of the same config
    #: (other run files) are reused too: the scale-out's merge (README "Splitting a track")
    incremental_from: tuple[str | os.PathLike, ...] = ()
    #: --ci: a confidence interval on every mean ("t" or "bootstrap"; None: none), docs/measures.md §12.1
    ci: str | None = None
    ci_level: float = 0.95  # --ci-level
    ci_samples: int = 10000  # --samples (bootstrap)
    ci_seed: int = 0  # --seed (bootstrap)

    @property
    def draws(self) -> bool:
        """Whether graphs are written."""
        return self.gnuplot or self.png

    @property
    def intervals(self):
        """The :class:`~inexeval.compare.intervals.IntervalOptions` of ``--ci`` (None without it)."""
        if self.ci is None:
            return None
        from inexeval.compare.intervals import IntervalOptions

        return IntervalOptions(self.ci, self.ci_level, self.ci_samples, self.ci_seed)


# ------------------------------------------------------------ workflow ----

def kept_measures(config: Config, per_query: bool, topic_curves: bool) -> set[str] | None:
    """The per-topic values still needed once a run's files are written (:meth:`ConfigPlan.kept`)."""
    from inexeval.plan import plan_config

    return plan_config(config).kept(per_query, topic_curves)


def evaluate_and_write(config: Config, *, empty_as_zero: bool, jobs: int | None, keep: set[str] | None,
                       on_run: Callable[[str], None] | None = None,
                       also: Callable[[Evaluation, Path], None] | None = None,
                       incremental: bool = False, plan=None, intervals=None,
                       incremental_from: Sequence[str | os.PathLike] = ()) -> Evaluation:
    """Evaluate ``config``, each run's result files written as it is scored, then the
    summary and the stamp (docs/formats.md §9.2); ``keep`` as :func:`inexeval.engine.evaluate`.

    RESULTS_DIR/<TASK> is replaced as a whole once everything is written
    (:mod:`inexeval.resultsdir`): ``also(ev, results_dir)`` writes what else
    belongs to the new set (the graphs) before that.  Interrupted or failed,
    the evaluation leaves the old directory as it was.  ``incremental``: the runs
    unchanged since the last incremental evaluation are reused (:mod:`inexeval.incremental`;
    what was reused is in ``Evaluation.incremental``; ``incremental_from``: other results directories
    whose incremental caches are read too).  ``plan``: the config's
    :class:`~inexeval.plan.ConfigPlan`, made here when not given.  ``intervals``: the
    :class:`~inexeval.compare.intervals.IntervalOptions` of ``--ci`` (the per-topic values must be
    kept: ``keep=None``); the intervals go to ``Evaluation.intervals`` and the summary.
    """
    from inexeval.engine import evaluate as engine
    from inexeval.plan import plan_config
    from inexeval.resultsdir import staged
    from inexeval.stamp import write_stamp
    from inexeval.writers.files import write_summary

    plan = plan if plan is not None else plan_config(config)
    evaluated = plan.config  # (its runs: those outside RESULTS_DIR)
    with staged(config.results_dir, config.task, evaluation=True) as root:
        reuse = None
        if incremental:
            from inexeval.incremental import plan as reuse_plan

            reuse = reuse_plan(evaluated, empty_as_zero, root, keep, [Path(d) for d in incremental_from])
        ev = engine(config, empty_as_zero=empty_as_zero, on_run=on_run, jobs=jobs, write_to=root, keep=keep,
                    reused=reuse and reuse.reused, on_commit=reuse and reuse.committed, recall=reuse, plan=plan)
        if intervals is not None:
            from inexeval.compare.intervals import evaluation_intervals

            ev.intervals, left_out = evaluation_intervals(ev, intervals)
            ev.interval_options = intervals
            ev.warnings += left_out
        if ev.results:
            write_summary(root, config.task, ev.results, ev.intervals)
            write_stamp(evaluated, empty_as_zero, ev.results, ev.problems, ev.warnings, results_dir=root)
            if reuse is not None:
                reuse.write(root)
        elif reuse is not None:
            reuse.discard()
        if reuse is not None:
            ev.incremental = reuse.lines
        if also is not None:
            also(ev, root)
    return ev


def report(ev: Evaluation, echo: Echo, quiet: bool) -> None:
    """Warnings (unless quiet) and the inputs skipped, on standard error."""
    if not quiet:
        for w in ev.warnings:
            echo(one_line(f"inexeval: warning: {w}"), err=True)
    for p in ev.problems:
        echo(one_line(f"inexeval: error: {p}"), err=True)


def run_evaluation(config: ConfigSource, options: EvalOptions = EvalOptions(), *, echo: Echo | None = None,
                   progress: Progress | None = None) -> tuple[Evaluation, int]:
    """``inexeval -config``: load, evaluate, write result files, summary, stamp and graphs.

    With ``echo``, warnings, errors, the tables (in ``options.fmt``) and the
    list of skipped inputs are sent to it, as the command line prints them;
    ``progress`` shows the runs being scored.  Returns the evaluation and the
    exit status (0, or 1 when some input was skipped); a bad config raises
    :class:`~inexeval.errors.ConfigError`.
    """
    from inexeval.plan import plan_config

    check_options(options)
    config = load(config, options.overrides, options.results_dir)
    check_format(config, options.fmt)
    plan = plan_config(config)
    # trec_eval's layout counts the topics of each run (num_q) and with -q prints every value
    keep = None if options.keep_per_topic or options.fmt == "trec_eval" or options.ci else plan.kept(
        options.per_query, options.per_query and options.topic_graphs and options.draws)

    def draw(ev: Evaluation, results_dir: Path) -> None:
        if options.draws:
            from inexeval.writers import graphs

            renamed: list[str] = []  # topic ids written under other directory names
            graphs.write_graphs(ev, gnuplot=options.gnuplot, png=options.png,
                                per_topic=options.per_query and options.topic_graphs, results_dir=results_dir,
                                warnings=renamed)
            ev.warnings += renamed

    with progress(len(config.runs)) if progress is not None else contextlib.nullcontext() as tick:
        ev = evaluate_and_write(config, empty_as_zero=options.empty_as_zero, jobs=options.jobs, keep=keep,
                                on_run=tick, also=draw,
                                incremental=options.incremental or bool(options.incremental_from),
                                incremental_from=options.incremental_from, plan=plan,
                                intervals=options.intervals)
    if echo is not None:
        for line in ev.incremental:  # (not silenced by quiet)
            echo(line, err=True)
        report(ev, echo, options.quiet)
        echo(results_text(ev, fmt=options.fmt, digits=options.digits, per_query=options.per_query), nl=False)
        if options.per_query and options.fmt == "table" and config.task_def.facts.marks_answers:
            from inexeval.writers.qa_marking import evaluation_marking  # which answers were marked, and why

            echo(evaluation_marking(ev), nl=False)
    if not ev.problems:
        return ev, 0
    if echo is not None:
        echo(f"inexeval: {len(ev.problems)} input(s) skipped:", err=True)
        for p in ev.problems:
            echo(one_line(f"  - {p.file}: {p.message}"), err=True)
    return ev, 1


def option_refusal(options: EvalOptions) -> tuple[str, str] | None:
    """(option, why) for an option that would have no effect with the others given, or that names no
    results directory (``--incremental-from``: a misspelt part would be scored again, unnoticed), else
    None: the one rule the command line (exit 2) and the Python API (ConfigError) both apply."""
    if options.fmt not in FORMATS:
        return "--format", f"unknown format {options.fmt!r} (one of {', '.join(FORMATS)})"
    if options.digits is not None and not _FORMAT_TABLE[options.fmt].digits:
        digits = ", ".join(f.name for f in _FORMAT_TABLE.values() if f.digits)
        own = ("prints full precision" if options.fmt in ("tsv", "csv", "json")
               else "rounds as its layout does (docs/formats.md §9.2.1)")
        return "--digits", f"--digits rounds the values of --format {digits} only; --format {options.fmt} {own}"
    if options.topic_graphs and not (options.per_query and options.draws):
        return "--topic-graphs", "--topic-graphs draws every topic's curves: it needs -q and -gnu or -png"
    if options.ci is None and (options.ci_level, options.ci_samples, options.ci_seed) != (0.95, 10000, 0):
        return "--ci-level", "--ci-level, --samples and --seed are parameters of the intervals: give --ci t or bootstrap"
    if options.ci == "t" and (options.ci_samples, options.ci_seed) != (10000, 0):
        return "--samples", "--samples and --seed are parameters of --ci bootstrap; the t interval has no samples"
    if options.ci is not None:
        try:
            options.intervals
        except ValueError as err:
            return "--ci", str(err)
    for part in options.incremental_from:
        if not os.path.isdir(part):
            what = "not a directory" if os.path.exists(part) else "no such directory"
            return "--incremental-from", (f"--incremental-from {os.fspath(part)}: {what} (give the RESULTS_DIR of "
                                          "an --incremental evaluation of the same config)")
    return None


def check_options(options: EvalOptions) -> None:
    """ConfigError for options that would have no effect with the others (as the command line refuses them)."""
    refusal = option_refusal(options)
    if refusal is not None:
        from inexeval.errors import ConfigError

        option, why = refusal
        raise ConfigError(why, None if why.startswith(option) else option)  # (the option named once)


def check_format(config: Config, fmt: str) -> None:
    """ConfigError when ``fmt`` cannot print the task's results (``inex_eval``: the FOL tasks only)."""
    from inexeval.writers.formats import serves

    if not serves(fmt, config.task_def.unit):
        from inexeval.errors import ConfigError
        from inexeval.tasks import TASKS

        fol = ", ".join(t.name for t in TASKS.values() if serves(fmt, t.unit))
        raise ConfigError(f"--format {fmt} prints what the INEX 2007-2010 tool inex_eval prints, for the "
                          f"FOL tasks ({fol}); TASK {config.task} is not one of them", "--format")


def results_text(ev: Evaluation, *, fmt: str, digits: int | None, per_query: bool) -> str:
    """What standard output shows: one table per setting, or one JSON document, or trec_eval's layout,
    or (FOL tasks) inex_eval's text for each run."""
    from inexeval.writers.formats import FORMATS as TABLE

    check_format(ev.config, fmt)
    return TABLE[fmt].text(ev, digits, per_query)


# ----------------------------------------------------------------- API ----

def evaluate(config: ConfigSource, *, empty_as_zero: bool = False, jobs: int = 1,
             results_dir: str | os.PathLike | None = None, write: bool = False, **overrides) -> Results:
    """Evaluate every run of a config; return the numbers as :class:`~inexeval.results.Results`.

    ``config`` is a config file's path (``.prop`` or ``.yaml``), a mapping
    of config keys (``{"TASK": "CO.Focussed", "ASSESSMENTS_DIR": ...}``), or
    a loaded :class:`~inexeval.config.schema.Config`.  ``overrides`` are config
    keys applied as ``--set`` does (``METRICS="q"``,
    ``QUANT_FUNCTIONS=["gen", "strict"]``; relative paths are relative to
    the current directory).  ``empty_as_zero`` is ``-e``; ``jobs`` runs
    scored in parallel.

    Nothing is written unless ``write``: then the result files, summary and
    stamp go to RESULTS_DIR (or ``results_dir``) exactly as ``inexeval
    -config`` writes them.  A bad config raises
    :class:`~inexeval.errors.ConfigError` (its message names the file and
    line); runs that cannot be read are listed in ``Results.problems`` and
    the others are scored.
    """
    from inexeval.results import Results

    sets = override_strings(overrides)
    if write:
        options = EvalOptions(empty_as_zero=empty_as_zero, jobs=jobs, overrides=sets, results_dir=results_dir,
                              keep_per_topic=True)
        ev, _ = run_evaluation(config, options)
        return Results(ev)
    from inexeval.engine import evaluate as engine

    return Results(engine(load(config, sets, results_dir), empty_as_zero=empty_as_zero, jobs=jobs))


@record(frozen=True)
class MeasureInfo:
    """One measure that METRICS can name."""

    name: str  # as written in METRICS (TASK trec: a pattern, e.g. P_k for P_10)
    tasks: tuple[str, ...]  # the TASKs it applies to
    strategies: tuple[str, ...]  # the task strategies it is registered for (docs/measures.md §3)
    config_keys: tuple[str, ...]  # config keys it reads
    description: str
    outputs: tuple[str, ...]  # the values it gives, with the task's default DCV and MAX_RESULTS
    scalars: tuple[str, ...]  # those of them printed in tables (the others are curve points)
    aliases: tuple[str, ...] = ()


def measures(task: str | None = None) -> list[MeasureInfo]:
    """Every measure, or those of ``task`` (a TASK name or alias; unknown: ConfigError).

    For TASK trec, the classic names (trec_eval's and the others of
    docs/measures.md §8) are patterns: ``P_k`` stands for ``P_5``, ``P_10``, ….
    """
    from inexeval.errors import ConfigError
    from inexeval.tasks import find_task, unknown_task_message

    if task is None:
        return _registered() + _classic()
    row = find_task(task)
    if row is None:
        raise ConfigError(unknown_task_message(task))
    from inexeval.measures import classic

    return _registered(row) + (_classic() if row.strategy in classic.STRATEGIES else [])


def _registered(row=None) -> list[MeasureInfo]:
    """The measures of the registry (all, or those of one task row)."""
    from inexeval.measures.registry import Params
    from inexeval.measures.registry import measures as registered
    from inexeval.tasks import DEFAULT_MAX_RESULTS, TASKS

    params = Params() if row is None else Params(dcv=row.dcv, max_results=row.max_results or DEFAULT_MAX_RESULTS)
    return [MeasureInfo(name=m.name, tasks=tuple(t.name for t in TASKS.values() if t.strategy in m.strategies),
                        strategies=tuple(sorted(m.strategies)), config_keys=tuple(m.params),
                        description=m.description, outputs=tuple(m.outputs(params)),
                        scalars=tuple(m.scalars(params)), aliases=tuple(m.aliases))
            for m in registered() if row is None or row.strategy in m.strategies]


def _classic() -> list[MeasureInfo]:
    """The names TASK trec takes, in the order of ``inexeval metrics``."""
    from inexeval.measures.classic import MEASURES

    return [MeasureInfo(name=name, tasks=("trec",), strategies=("trec",), config_keys=(), description=text,
                        outputs=(name,), scalars=(name,))
            for name, text in sorted(MEASURES.items(), key=lambda kv: kv[0].lower())]


def metrics_text() -> str:
    """``inexeval metrics``: the registered measures, then the names of TASK trec."""
    from tabulate import tabulate

    rows = [[m.name, ", ".join(m.strategies), ", ".join(m.config_keys) or "-", m.description]
            for m in _registered()]
    inex = tabulate(rows, headers=["METRICS name", "strategies", "config keys", "description"],
                    tablefmt="simple", maxcolwidths=[None, None, None, 70])
    trec = tabulate([[m.name, m.description] for m in _classic()],
                    headers=["TASK trec: METRICS name", "description"], tablefmt="simple", maxcolwidths=[None, 90])
    return inex + "\n\n" + trec
