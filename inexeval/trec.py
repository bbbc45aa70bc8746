"""TREC qrels and runs scored from Python without a config file: files, or data held in Python.

:func:`evaluate` (``inexeval.evaluate_trec``) takes the qrels and the runs as
file paths (plain or gzip) or as data in memory in the shapes ir_measures,
ranx and pytrec_eval use (dicts, DataFrames, rows; :mod:`inexeval.readers.memory`)
and returns :class:`~inexeval.results.Results`.  It is a convenience over the
one evaluation path (:func:`inexeval.engine.evaluate` with ``TASK: trec``): the
same reading, measures, ``-e`` policy and averages.  Data in memory is turned
into the columns the TREC file readers build, then joined and scored by the
same code as a file (docs/formats.md §8.1).
:func:`evaluate_trec` is the older form: the same inputs, the results as
``(run results, input errors)``.  Measure names are those of
:mod:`inexeval.measures.classic` (docs/measures.md §8).
"""

from __future__ import annotations

import itertools
import numbers
import os
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from inexeval.config.load import load_config_mapping
from inexeval.model import InputFile
from inexeval.errors import ConfigError, InexevalError, InputError
from inexeval.measures.classic import DEFAULT_MEASURES, MEASURES
from inexeval.model import RunResult
from inexeval.records import replace
from inexeval.writers import trec_eval as _writer

if TYPE_CHECKING:
    from inexeval.config.schema import Config
    from inexeval.engine import Evaluation, Outcome, Scorer
    from inexeval.results import Results

__all__ = ["evaluate", "evaluate_trec", "format_trec_eval", "MEASURES", "DEFAULT_MEASURES"]

#: The run id of a single run given as data (one run in a list: run1, run2, ... by its place)
SINGLE_RUN_ID = "run"


def evaluate(
    qrels: Any,
    runs: Any,
    *,
    measures: Sequence[str] | str | None = None,
    rel_level: int = 1,
    gains: dict[int, float] | None = None,
    q_beta: float = 1.0,
    empty_as_zero: bool = False,
    max_results: int | None = None,
    trec_eval_version: str = "10.0",
    warn: Callable[[str], None] | None = None,
) -> Results:
    """Score RUNS against QRELS; the numbers as :class:`~inexeval.results.Results`.

    ``qrels``: a path (plain or gzip; ``-``: standard input), a dict ``{query_id: {doc_id: relevance}}``,
    a DataFrame with the columns ``query_id`` (or ``q_id``), ``doc_id``, ``relevance`` (or ``score``), or
    an iterable of ``(query_id, doc_id, relevance)`` tuples or named tuples (ir_measures' ``Qrel``).
    ``runs``: one run, a dict ``{run_id: run}`` or a list of runs; a run is a path, a dict
    ``{query_id: {doc_id: score}}``, a DataFrame (``query_id`` or ``q_id``, ``doc_id``, ``score``) or an
    iterable of ``(query_id, doc_id, score)`` tuples or named tuples (ir_measures' ``ScoredDoc``).
    A run file's id is its tag column (as on the command line); a dict's keys name its runs; a single run
    given as data is ``run``, and those of a list ``run1``, ``run2``, ... by their place.

    ``measures``: classic names (None: trec_eval's default set); ``rel_level`` (``-l``), ``max_results``
    (``-M``), ``empty_as_zero`` (``-c``, ``-e``), ``trec_eval_version`` (``10.0`` or ``9.0.8``: whose
    numbers), ``gains`` and ``q_beta`` are the config keys of docs/config.md.  A bad option raises
    :class:`~inexeval.errors.ConfigError`; bad qrels, and data that cannot be read (a wrong shape or
    column, a NaN score, a relevance that is not an integer), raise
    :class:`~inexeval.errors.InputError`; a run file that cannot be read is listed in
    ``Results.problems`` and the others are scored.  Warnings are in ``Results.warnings`` (and given
    to ``warn``, if any, one by one).
    """
    from inexeval.results import Results

    ev = _evaluation(qrels, runs, measures=measures, rel_level=rel_level, gains=gains, q_beta=q_beta,
                     empty_as_zero=empty_as_zero, max_results=max_results, trec_eval_version=trec_eval_version)
    if warn is not None:
        for w in ev.warnings:
            warn(w)
    return Results(ev)


def evaluate_trec(
    qrels_path: Any,
    run_paths: Any,
    *,
    measures: Sequence[str] | None,
    rel_level: int = 1,
    gains: dict[int, float] | None = None,
    q_beta: float = 1.0,
    empty_as_zero: bool = False,
    max_results: int | None = None,
    warn: Callable[[str], None] | None = None,
    trec_eval_version: str = "10.0",
) -> tuple[list[RunResult], list[InputError]]:
    """Score every run of RUN_PATHS against the qrels (the older form of :func:`evaluate`, which takes
    the same inputs: paths, or data in memory).

    ``measures``: classic names (None: the default set).  A bad measure name
    or ``rel_level`` < 1 raises ConfigError; a bad qrels file raises
    InputError; a bad run file is returned in the error list and the other
    runs are still scored.  Warnings go to ``warn`` (default: standard error).
    ``trec_eval_version``: ``10.0`` (default) or ``9.0.8``, whose numbers to give
    (TREC_EVAL_VERSION, docs/measures.md §8.4).
    """
    say = warn or (lambda msg: print(f"warning: {msg}", file=sys.stderr))
    ev = _evaluation(qrels_path, run_paths, measures=measures, rel_level=rel_level, gains=gains, q_beta=q_beta,
                     empty_as_zero=empty_as_zero, max_results=max_results, trec_eval_version=trec_eval_version)
    for w in ev.warnings:
        say(w)
    return ev.results, [p for p in ev.problems if isinstance(p, InputError)]


def _evaluation(qrels: Any, runs: Any, *, measures, rel_level: int, gains, q_beta: float, empty_as_zero: bool,
                max_results: int | None, trec_eval_version: str) -> Evaluation:
    """The evaluation of :func:`evaluate`: files only through the engine as the command line runs it,
    data in memory through :func:`_evaluate_data`."""
    from inexeval.engine import evaluate as engine
    from inexeval.readers.memory import is_path

    if rel_level < 1:
        raise ConfigError(f"REL_LEVEL must be >= 1, not {rel_level}")
    if max_results is not None and max_results < 1:
        raise ConfigError(f"MAX_RESULTS must be >= 1, not {max_results}")
    # paths are set after loading: "-" (standard input) is not a file a config key can name (and
    # os.devnull, one file, is not a folder the loader would walk, as it walked "." here before)
    keys: dict = {"TASK": "trec", "ASSESSMENTS_DIR": os.devnull, "SUBMISSIONRUNS_DIR": os.devnull,
                  "REL_LEVEL": rel_level,
                  "Q_BETA": q_beta, "TREC_EVAL_VERSION": trec_eval_version}
    if measures is not None:
        keys["METRICS"] = _measure_names(measures)
    if max_results is not None:
        keys["MAX_RESULTS"] = max_results
    if gains:
        keys["GAINS"] = dict(gains)
    config = load_config_mapping(keys, source="evaluate_trec")
    items = _run_items(runs)
    if is_path(qrels) and all(rid is None and is_path(v) for rid, v in items):
        config = replace(config, assessments=(InputFile(Path(qrels), Path(qrels)),),
                                     runs=tuple(InputFile(Path(p), Path(p)) for _, p in items))
        return engine(config, empty_as_zero=empty_as_zero)
    return _evaluate_data(config, qrels, items, empty_as_zero)


def _measure_names(measures: Any) -> list[str]:
    """The names of ``measures``: a name, an ir_measures measure object (``ir_measures.nDCG@10``: its
    ``str()``, the name inexeval reads), or an iterable of them; ConfigError for anything else."""
    def from_ir_measures(m: Any) -> bool:
        return type(m).__module__.split(".")[0] == "ir_measures"

    def name(m: Any) -> str:
        if isinstance(m, str):
            return m
        if from_ir_measures(m):
            return str(m)
        raise ConfigError(f"measures: a measure is a name (str) or an ir_measures measure, not {type(m).__name__} "
                          f"({m!r})")

    if isinstance(measures, str) or from_ir_measures(measures):
        return [name(measures)]
    try:
        return [name(m) for m in measures]
    except TypeError:
        raise ConfigError(f"measures: a name, an ir_measures measure or a list of them, not "
                          f"{type(measures).__name__}") from None


def _run_id(key: Any) -> str:
    """A dict key as a run id (str; an int converted)."""
    if isinstance(key, numbers.Integral) and not isinstance(key, bool):
        key = str(int(key))
    if not isinstance(key, str) or not key.strip() or "\0" in key:
        raise InputError(f"runs: a run id is a non-empty str (or an int), not {key!r}")
    return key


def _is_run(x: Any) -> bool:
    """Whether X is one run by its type alone (a path, a table or a dict), not a row of one."""
    from inexeval.readers.memory import is_path, is_table

    return is_path(x) or is_table(x) or isinstance(x, Mapping)


def _run_items(runs: Any) -> list[tuple[str | None, Any]]:
    """(run id, run) of every run of RUNS (see :func:`evaluate`); the id is None for a run file listed
    without one (its own tag column names it)."""
    from inexeval.readers.memory import is_path, is_table

    if is_path(runs):
        return [(None, runs)]
    if is_table(runs):
        return [(SINGLE_RUN_ID, runs)]
    if isinstance(runs, Mapping):
        if _one_run_dict(runs):
            return [(SINGLE_RUN_ID, runs)]
        items = [(_run_id(k), v) for k, v in runs.items()]
        seen: dict[str, Any] = {}
        for (rid, v), k in zip(items, runs):
            if rid in seen:
                raise InputError(f"runs: the keys {seen[rid]!r} and {k!r} are the same run id {rid!r}")
            seen[rid] = k
            _check_run_value(v, f"run {rid!r}")
        return items
    if isinstance(runs, (bytes, bytearray)) or not isinstance(runs, Iterable):
        raise InputError(f"runs: not a run, a dict {{run_id: run}} or a list of runs: got a {type(runs).__name__} "
                         "(a run is a path, a dict {query_id: {doc_id: score}}, a DataFrame or an iterable of "
                         "(query_id, doc_id, score) tuples)")
    it = iter(runs)
    first = next(it, _END)
    if first is _END:  # an empty list: no run (an empty run is {} or an empty DataFrame)
        return []
    if not _is_run(first):  # rows: one run
        return [(SINGLE_RUN_ID, itertools.chain([first], it))]
    listed = [first, *it]
    for i, v in enumerate(listed, 1):
        _check_run_value(v, f"runs: item {i}")
    return [(None if is_path(v) else f"run{i}", v) for i, v in enumerate(listed, 1)]


_END = object()


def _one_run_dict(runs: Mapping) -> bool:
    """Whether the dict RUNS is one run ``{query_id: {doc_id: score}}`` (every value a dict, and the first
    value found in them not a dict), not ``{run_id: run}``.  A dict whose values are all empty dicts
    (``{"bm25": {}}``) is runs named by its keys, each of them empty (a run without a result, the same
    results either way, keeps its name); ``{}`` is one empty run."""
    if not all(isinstance(v, Mapping) for v in runs.values()):
        return False
    for v in runs.values():
        for x in v.values():
            return not isinstance(x, Mapping)
    return not runs


def _check_run_value(v: Any, what: str) -> None:
    if not _is_run(v) and (isinstance(v, (bytes, bytearray)) or not isinstance(v, Iterable)):
        raise InputError(f"{what}: not a run (a path, a dict {{query_id: {{doc_id: score}}}}, a DataFrame or "
                         f"an iterable of (query_id, doc_id, score) tuples): got a {type(v).__name__}")


class _Prepared:
    """The engine's ``recall`` callback (:func:`inexeval.engine.evaluate`): a recall-base already read
    and prepared."""

    def __init__(self, scorer: Scorer):
        self.state = (scorer.recall_base, scorer.contexts)

    def load(self):
        return self.state

    def keep(self, recall_base, contexts) -> None:  # (not called: load gave a state)
        pass


def _evaluate_data(config: Config, qrels: Any, items: list[tuple[str | None, Any]],
                   empty_as_zero: bool) -> Evaluation:
    """Qrels and runs some of which are held in Python: each turned into the reader's columns
    (:mod:`inexeval.readers.memory`; a file read by :mod:`inexeval.readers.trec`), joined to the qrels
    by :func:`~inexeval.measures.classic_join.rank_run` and scored by the engine's
    :class:`~inexeval.engine.Scorer`, then collected by :func:`inexeval.engine.evaluate` as it collects
    run files (run ids, warnings, undefined averages)."""
    from inexeval import engine
    from inexeval.inputs import RecallBase
    from inexeval.measures.classic_join import topic_table
    from inexeval.plan import plan_config
    from inexeval.readers.memory import is_path, qrels_from_data
    from inexeval.readers.trec import read_qrels

    qrels_warnings: list[str] = []
    q = read_qrels(qrels) if is_path(qrels) else qrels_from_data(qrels, warn=qrels_warnings.append)
    if not q.qid.size:
        raise InputError("no judgement: the qrels are empty", q.source)
    labels: list[str] = []
    for rid, v in items:
        label = str(v) if is_path(v) else f"<run {rid}>"
        while label in labels:  # (the same file under two run ids)
            label += f" ({rid})"
        labels.append(label)
    config = replace(config, assessments=(InputFile(Path(q.source), Path(q.source)),),
                                 runs=tuple(InputFile(Path(x), Path(x)) for x in labels))
    plan = plan_config(config)
    scorer = engine.Scorer(plan.config, list(plan.measures), list(plan.settings), plan.params)
    table = topic_table(q, plan.config.rel_level)
    scorer.recall_base = RecallBase(dict.fromkeys(table.names), table)
    scorer.prepare()
    outcomes = {}
    for (rid, v), label in zip(items, labels):
        if rid is None:  # a run file listed without an id: read and scored as the engine does
            outcomes[Path(label)] = engine.score_file(scorer, plan.config, Path(label), empty_as_zero)
        else:
            outcomes[Path(label)] = _score_data(scorer, plan.config, rid, v, label, empty_as_zero)
    ev = engine.evaluate(config, empty_as_zero=empty_as_zero, recall=_Prepared(scorer), reused=outcomes, plan=plan)
    ev.warnings[:0] = qrels_warnings
    return ev


def _score_data(scorer: Scorer, config: Config, rid: str, value: Any, label: str, empty_as_zero: bool) -> Outcome:
    """The outcome of one run with its id RID: a file (its tag column ignored) or data in memory, read into
    the reader's columns, joined as :func:`~inexeval.measures.classic_join.read_ranked_run` joins a file and
    scored as :func:`inexeval.engine.score_file` scores it.  Data that cannot be read raises InputError;
    a file that cannot be read is the outcome's problem (the other runs are scored)."""
    import numpy as np

    from inexeval.engine import Outcome
    from inexeval.measures.classic_join import RankedRun, rank_run
    from inexeval.readers.memory import is_path, run_from_data
    from inexeval.readers.runnames import empty_run_warning
    from inexeval.readers.trec import read_run

    if is_path(value):
        try:
            run = read_run(value)
        except InexevalError as e:
            return Outcome(path=label, problem=e)
        run.tags = [rid]
    else:
        run = run_from_data(value, f"run {rid!r}", rid)
    table = scorer.recall_base.data
    warnings: list[str] = [] if run.line.size else [empty_run_warning(run.source)]
    ranking, present = rank_run(run, table, max_results=config.max_results, warn=warnings.append,
                                single_precision=config.trec_eval_version == "9.0.8")
    topics = dict.fromkeys(table.names[t] for t in np.flatnonzero(present).tolist())
    ranked = RankedRun(rid, run.source, ranking, topics, warnings)
    out = Outcome(path=label, run_id=rid, source=run.source)
    out.warnings.extend(ranked.warnings)
    scorer.undefined = {}
    try:
        out.results = scorer.score(ranked, empty_as_zero, out.warnings)
    except InputError as e:
        out.problem = e if e.file in (None, run.source) else InputError(f"run skipped: {e}", run.source)
    out.undefined = scorer.undefined
    return out


def format_trec_eval(results: RunResult | Sequence[RunResult], digits: int | None = None, *,
                     per_query: bool = False) -> str:
    """Classic results in trec_eval's layout (:func:`inexeval.writers.trec_eval.format_trec_eval`),
    counts as integers and gm_map not per topic, as the classic family table declares."""
    from inexeval.measures.classic_family import resolve

    runs = [results] if isinstance(results, RunResult) else list(results)
    names = {n for r in runs for n in r.measures}
    declared = {n: resolve(n) for n in names}
    return _writer.format_trec_eval(
        runs, digits, per_query=per_query,
        integer=frozenset(n for n, m in declared.items() if m.integer),
        not_per_topic=frozenset(n for n, m in declared.items() if not m.per_topic_reported))
