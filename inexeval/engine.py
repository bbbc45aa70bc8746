"""Orchestration: config -> inputs -> recall-bases -> measures -> averages, for every task.

The task table says what a result is (:mod:`inexeval.inputs` reads the
recall-base and the runs of that unit); the registry says what each measure
outputs, prepares and computes.  Inputs are parsed once; what measures
prepare per topic is built once and shared by every run and setting.
Averaging and the ``-e`` policy are :mod:`inexeval.aggregate`'s, for every
task.  Nothing here prints.
"""

from __future__ import annotations

import contextlib
import gc
import os
import stat
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from inexeval.aggregate import average, counted_topics, natural_key
from inexeval.config.schema import Config
from inexeval.errors import InexevalError, InputError
from inexeval.inputs import UNITS, RecallBase, collection_of
from inexeval.measures.registry import Measure, Params, RunInput, Setting, TopicContext, TopicInput
from inexeval.model import FileAssessment, RunResult, TopicAssessment
from inexeval.names import NameTable, file_component
from inexeval.plan import ConfigPlan, params_of, plan_config
from inexeval.records import field, record
from inexeval.resultsdir import held_fds
from inexeval.topic_columns import TopicColumns
from inexeval.tasks import same_task
from inexeval.writers.files import (
    commit_pending,
    discard_pending,
    run_file_path,
    run_file_parts,
    write_pending,
)

if TYPE_CHECKING:  # (imported where a process is forked or runs are read ahead: pickle, mmap)
    from inexeval import workers

#: Whether processes can be forked (what workers.imap and ReadAhead need): os.fork, where
#: multiprocessing offers its "fork" start method (not imported here: 10 ms of every start-up).
_CAN_FORK = hasattr(os, "fork")


@record
class Evaluation:
    """Everything one config produced: results, runs skipped and warnings."""

    config: Config
    settings: list[Setting]
    measures: list[Measure]
    params: Params
    results: list[RunResult] = field(default_factory=list)
    problems: list[InexevalError] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    columns: list[str] = field(default_factory=list)  # scalar measures shown in tables
    empty_as_zero: bool = False  # -e: every recall-base topic counted
    incremental: list[str] = field(default_factory=list)  # --incremental: what was reused and why (one line each)
    #: --ci: {(run id, setting): {output: (low, high)}} (inexeval.compare.intervals), and how they were made
    intervals: dict | None = None
    interval_options: object | None = None


class Scorer:
    """Scores runs against one recall-base; what the measures prepare per topic is built once,
    before any run, and shared by every run (and by forked workers)."""

    def __init__(self, config: Config, measures: list[Measure], settings: list[Setting], params: Params,
                 collection=None):
        self.config, self.measures, self.settings, self.params = config, measures, settings, params
        self.collection = collection
        self.recall_base = RecallBase({})
        self.contexts: dict[str, TopicContext] = {}
        self.outputs = {m.name: m.outputs(params) for m in measures}
        self.names = [n for m in measures for n in self.outputs[m.name]]
        self.how = {n: m.aggregate(n) for m in measures for n in self.outputs[m.name]}
        for m in measures:
            if m.compute_all is None and any(self.how[n] == "run" for n in self.outputs[m.name]):
                raise TypeError(f"measure {m.name}: only a run-level measure (compute_all) aggregates as 'run'")
        #: the outputs averaged from their per-topic values (the others are the run-level measures' own)
        self.averaged = [n for n in self.names if self.how[n] != "run"]
        self.undefined: dict[str, set[str]] = {}  # setting -> topics with nothing relevant

    @property
    def releases_assessments(self) -> bool:
        """True when every measure reads only what it prepared, not the assessment objects: those
        are then released once a topic is prepared (memory stays bounded by one topic's objects)."""
        return all(m.prepare is not None and not m.needs_assessments for m in self.measures)

    def context(self, topic: str) -> TopicContext:
        ctx = self.contexts.get(topic)
        if ctx is None:
            ctx = self.contexts[topic] = TopicContext(topic, self.recall_base.topics.get(topic))
        return ctx

    def prepare_topic(self, ta: TopicAssessment) -> None:
        """Run the measures' ``prepare`` for one topic under every setting (called as each topic
        is read, when the measures allow the assessment objects to be released after it)."""
        ctx = self.contexts.setdefault(ta.topic, TopicContext(ta.topic, ta))
        for s in self.settings:
            for m in self.measures:
                if m.prepare is not None:
                    m.prepare(ctx, s, self.params)
        if self.releases_assessments:
            ta.files = {f: FileAssessment(file=f) for f in ta.files}

    def prepare(self) -> None:
        """:meth:`prepare_topic` for every topic not prepared yet."""
        if not any(m.prepare is not None for m in self.measures):
            return
        for t, ta in self.recall_base.topics.items():
            if t not in self.contexts:
                self.prepare_topic(ta)

    def score(self, run, empty_as_zero: bool, warnings: list[str] | None = None) -> list[RunResult]:
        """Every measure under every setting, for the run's counted topics (docs/measures.md §10).

        A run-level measure (``compute_all``) gives a list of per-topic dictionaries, or its values as
        columns aligned with the topics (``{name: array or list}``); when every measure of a setting
        gives columns, its ``per_topic`` is a :class:`~inexeval.topic_columns.TopicColumns`."""
        topics = counted_topics(run.topics, self.recall_base.topics, empty_as_zero)
        results = []
        seen_warnings: dict[str, None] = {}
        warn = seen_warnings.setdefault
        run_memos: dict[str, dict] = {}  # shared by the settings of one (run, topic)
        checked: set[str] = set()
        names = tuple(m.name for m in self.measures)
        for s in self.settings:
            per_topic: dict[str, dict[str, float | None]] | None = None
            columns: dict[str, object] = {}
            inputs = None
            run_input = None
            for m in self.measures:
                outputs = self.outputs[m.name]
                if m.compute_all is not None:
                    if run_input is None:
                        run_input = RunInput(run, s, self.params, self.recall_base.data, warn,
                                             empty_as_zero=empty_as_zero, measures=names)
                    values = m.compute_all(run_input, topics)
                    if isinstance(values, dict):
                        if m.name not in checked:
                            _check_outputs(m, values, outputs)
                            checked.add(m.name)
                        self._note_undefined(s.name, topics, values)
                        columns.update(values)
                        continue
                else:
                    if inputs is None:
                        inputs = [TopicInput(self.context(t), run.topics.get(t, ()), s, self.params,
                                             self.collection, warn, {}, run_memos.setdefault(t, {})) for t in topics]
                    values = [m.compute(ti) for ti in inputs]
                if per_topic is None:
                    per_topic = {t: {} for t in topics}
                for t, v in zip(topics, values):
                    if v is None:
                        self.undefined.setdefault(s.name, set()).add(t)
                        per_topic[t].update(dict.fromkeys(outputs))
                    else:
                        if m.name not in checked:
                            _check_outputs(m, v, outputs)
                            checked.add(m.name)
                        per_topic[t].update(v)
            if per_topic is None:
                per_topic = TopicColumns(topics, columns, natural_order=True)  # (counted_topics' order)
            elif columns:
                per_topic = _with_columns(per_topic, topics, self.measures, self.outputs, columns)
            averages = average(per_topic, self.averaged, self.how)
            if len(self.averaged) < len(self.names):
                given = run_input.averages if run_input is not None else {}
                averages = {n: averages[n] if n in averages else given.get(n) for n in self.names}
            results.append(RunResult(run_id=run.run_id, setting=s.name, measures=self.names,
                                     per_topic=per_topic, average=averages, source=run.source))
        if warnings is not None:
            warnings.extend(f"{run.source}: {w}" for w in seen_warnings)
        return results

    def _note_undefined(self, setting: str, topics: list[str], columns: dict) -> None:
        """The topics where a column holds None: undefined (docs/measures.md §10)."""
        for col in columns.values():
            if isinstance(col, list) and None in col:
                self.undefined.setdefault(setting, set()).update(t for t, v in zip(topics, col) if v is None)


def _with_columns(per_topic: dict, topics: list[str], measures: list[Measure], outputs: dict,
                  columns: dict) -> dict:
    """PER_TOPIC's dictionaries with the values of COLUMNS added, each topic's in measure order."""
    rows = TopicColumns(topics, columns)
    out = {}
    for i, t in enumerate(topics):
        row: dict[str, float | None] = {}
        for m in measures:
            for n in outputs[m.name]:
                row[n] = rows.value(i, n) if n in columns else per_topic[t].get(n)
        out[t] = row
    return out


def _check_outputs(m: Measure, values: dict, declared: list[str]) -> None:
    """A measure's computed names must be the ones it declares (a programming error otherwise)."""
    if list(values) != declared and set(values) != set(declared):
        raise AssertionError(f"measure {m.name} computed {sorted(values)} but declares {declared}")


def evaluate(config: Config, *, empty_as_zero: bool = False,
             on_run: Callable[[str], None] | None = None, jobs: int | None = 1,
             write_to: Path | None = None, keep: set[str] | None = None,
             reused: dict[Path, Outcome] | None = None,
             on_commit: Callable[[Outcome], None] | None = None, recall=None,
             plan: ConfigPlan | None = None) -> Evaluation:
    """Evaluate every run of ``config``; unreadable runs are recorded in ``problems``.

    ``jobs`` > 1 scores runs in that many forked processes; the output is
    identical to ``jobs`` = 1 (results are collected in run-file order).
    ``jobs=None`` chooses: one process for small inputs, else the cores
    (:func:`automatic_jobs`).
    With ``write_to``, each run's result files are written there as soon as
    it is scored (by the process that scored it, under a temporary name that
    is renamed once the run id is known to be unique); with ``keep``, only
    those measures' per-topic values are then kept in memory (none: an empty
    ``per_topic``; the averages are always kept), so memory stays flat in the
    number of runs.  ``reused`` gives the outcome of some run files without scoring them
    (``--incremental``, :mod:`inexeval.incremental`: their result files already staged);
    ``on_commit`` is told of every run whose result files were put in place; ``recall``
    (:class:`inexeval.incremental.Plan`) may give the prepared recall-base of an earlier
    evaluation of the same inputs (``recall.load()``), and is given the one built
    (``recall.keep(recall_base, contexts)``).  ``plan``: the config's plan (:mod:`inexeval.plan`), made
    here when the caller has none.
    """
    plan = plan if plan is not None else plan_config(config)
    config, ignored, measures, settings = plan.config, plan.ignored, list(plan.measures), list(plan.settings)
    collection = collection_of(config)
    params = params_of(config, measures, collection) if collection is not None else plan.params
    inputs = UNITS[config.task_def.unit]
    scorer = Scorer(config, measures, settings, params, collection)
    state = recall.load() if recall is not None else None
    ahead = None if state is not None else _start_reading_ahead(inputs, config, reused or {})
    try:
        _load_and_prepare(scorer, config, inputs, state)
    finally:
        read = _stop_reading_ahead(ahead)
    if recall is not None and state is None:
        recall.keep(scorer.recall_base, scorer.contexts)
    ev = Evaluation(config=config, settings=settings, measures=measures, params=params,
                    columns=[c for m in measures for c in m.scalars(params)], empty_as_zero=empty_as_zero)
    ev.warnings.extend(config.notes)
    ev.warnings.extend(scorer.recall_base.warnings)
    if ignored:
        file, line = config.origin("SUBMISSIONRUNS_DIR")
        where = "" if file is None else f"{file}:{line}: " if line else f"{file}: "
        ev.warnings.append(f"{where}SUBMISSIONRUNS_DIR: {ignored} file(s) under RESULTS_DIR "
                           f"({config.results_dir}) ignored: inexeval's own outputs are not runs")
    ev.problems.extend(getattr(collection, "problems", ()))  # documents AVG_DOC_LENGTH could not read
    ev.problems.extend(scorer.recall_base.problems)  # assessment inputs skipped (docs/formats.md §1.5)
    if jobs is None:
        jobs = automatic_jobs(config)
    names = NameTable()
    undefined: dict[str, set[str]] = {}
    tag = f"inexeval-{os.getpid()}-"  # marks this evaluation's temporary result files
    outcomes = _outcomes(scorer, config, empty_as_zero, jobs, write_to, keep, tag, reused or {}, read)
    try:
        _collect(outcomes, ev, names, undefined, on_run, on_commit)
    except BaseException:  # e.g. Ctrl-C: stop the workers, then remove the files they had prepared
        outcomes.close()
        if write_to is not None:
            _remove_pending(write_to, config.task, settings, tag)
        raise
    for setting, topics in undefined.items():
        ev.warnings.append(undefined_warning(setting, topics))
    return ev


def undefined_warning(setting: str, topics) -> str:
    """The warning naming the topics with nothing relevant under SETTING (--incremental reads it back
    from the stamp)."""
    return (f"{len(topics)} topic(s) have nothing relevant under {setting} and are left out of every average: "
            + ", ".join(sorted(topics, key=natural_key)))


def _load_and_prepare(scorer: Scorer, config: Config, inputs, state) -> None:
    """The recall-base read (or STATE, an earlier evaluation's) and prepared for the measures."""
    if state is not None:
        scorer.recall_base, scorer.contexts = state
    else:  # condense each topic as soon as it is read, when the measures allow it (memory)
        scorer.recall_base = inputs.load(config, on_topic=scorer.prepare_topic if scorer.releases_assessments
                                         else None)
    _require_topics(scorer, config)
    scorer.prepare()
    if state is None and _leave_out_unscorable_topics(scorer):
        _require_topics(scorer, config)


def _require_topics(scorer: Scorer, config: Config) -> None:
    if not scorer.recall_base.topics:
        skipped = "".join(f"; skipped: {p}" for p in scorer.recall_base.problems)
        files = config.assessments
        read = str(files[0].path) if len(files) == 1 else f"{len(files)} files ({files[0].path}, ...)"
        raise InputError(f"no assessed topic selected from {read} (check ASSESSMENTS_DIR, POOLS, TOPICS, "
                         "QUERY_TYPE)" + skipped, config.source, config.line_of("ASSESSMENTS_DIR"))


def _leave_out_unscorable_topics(scorer: Scorer) -> bool:
    """Leave out of the recall-base each topic that a measure reading the collection cannot score even
    for a run that retrieved nothing: a best entry point in a document the collection cannot give
    (missing, malformed, declaring entities) or not in its document.  Such a topic would make every
    run fail; it is reported once instead (file and line, as a topic whose assessment file cannot be
    used, docs/formats.md §1.5) and the runs are scored on the other topics.  True if one was left out."""
    measures = [m for m in scorer.measures if m.compute_all is None and "COLLECTION_DIR" in m.params]
    left_out = False
    for t in list(scorer.recall_base.topics) if measures else ():
        try:
            for s in scorer.settings:
                probe = TopicInput(scorer.context(t), (), s, scorer.params, scorer.collection, lambda _w: None, {}, {})
                for m in measures:
                    m.compute(probe)
        except InputError as e:
            del scorer.recall_base.topics[t]
            scorer.contexts.pop(t, None)
            scorer.recall_base.problems.append(InputError(f"{e.message}; topic {t} is left out of the evaluation",
                                                          e.file, e.line))
            left_out = True
    return left_out


#: Read runs ahead while the recall-base is read (:func:`_start_reading_ahead`); a switch for the tests
#: that compare both ways.
READ_AHEAD = True

#: At most this many bytes of runs read ahead are kept (pickled) until their turn comes.
READ_AHEAD_MAX_BYTES = 32 << 20

#: Read ahead only when the assessment files total at least this many bytes (INEX 2005's 29 topics:
#: 27 MB, 1.2 s): below, the recall-base is ready before a run could be read.
READ_AHEAD_MIN_BYTES = 4 << 20

#: The tests' switch: wait for the reader to read every run it can (else it is stopped as soon as the
#: recall-base is ready), so that they compare a known set of runs read ahead.
READ_AHEAD_WAIT = False


def _start_reading_ahead(inputs, config: Config, reused: dict) -> workers.ReadAhead | None:
    """A process reading runs, in file order, while this one reads the assessments (which no run's reading
    needs, for a unit with ``reads_runs_alone``), on a second core; None when there is no second core,
    nothing to read ahead, too little to read in the assessments (:data:`READ_AHEAD_MIN_BYTES`) or
    more than one thread here.  Only regular files are read ahead (standard input is read by this
    process, a FIFO or an unusable entry is reported in its turn).  Each run read ahead spares its
    scorer the reading (about two thirds of an element run's time) for the price of a pickle."""
    if not READ_AHEAD or not inputs.reads_runs_alone or available_cores() < 2 \
            or not _CAN_FORK or not _single_threaded() \
            or _input_bytes(config.assessments) < READ_AHEAD_MIN_BYTES:
        return None
    paths = []
    for f in config.runs:
        if f.path in reused or f.problem is not None:
            continue
        try:
            if not stat.S_ISREG(os.stat(f.path).st_mode):
                continue
        except (OSError, ValueError):
            continue
        paths.append(f.path)
    if not paths:
        return None
    # in file order: the scorers take these first, so that this process holds their bytes only until
    # the first runs are handed out (memory then stays flat in the number of runs; the last runs first
    # held them to the end, 10-15 MB more at INEX 2005 size)
    from inexeval import workers

    return workers.ReadAhead(lambda p: inputs.read_run(p, config, None), paths, READ_AHEAD_MAX_BYTES,
                             held_fds(), expected=InexevalError)


def _single_threaded() -> bool:
    """True when this process runs one thread (forking a process with threads is unsafe; the command
    line has none, a program calling the Python API may)."""
    return threading.active_count() == 1


def _input_bytes(files) -> int:
    """The bytes of FILES (InputFile), those that cannot be examined (standard input, a special file:
    their reader reports them) not counted."""
    total = 0
    for f in files:
        try:
            total += os.stat(f.path).st_size
        except (OSError, ValueError):
            pass
    return total


def _stop_reading_ahead(ahead: workers.ReadAhead | None) -> dict:
    """Path -> the bytes of each run read ahead so far (its reader stopped)."""
    if ahead is None:
        return {}
    return {ahead.items[i]: data for i, data in ahead.stop(wait=READ_AHEAD_WAIT).items()}


def _collect(outcomes, ev: Evaluation, names: NameTable, undefined: dict[str, set[str]],
             on_run: Callable[[str], None] | None, on_commit: Callable[[Outcome], None] | None = None) -> None:
    """Take the outcomes in run-file order: results, problems, and each run's files put in place
    under the name ``names`` gives its id (or removed, for a run id that an earlier run already has;
    docs/formats.md §9.2.2)."""
    sources: dict[str, str] = {}  # run id -> its run file (and line)
    for outcome in outcomes:
        if on_run is not None:
            on_run(outcome.path)
        if outcome.problem is not None and outcome.run_id is None:
            ev.problems.append(outcome.problem)
            continue
        name = names.assign(outcome.run_id)
        if name is None:  # the same id again (or, against all odds, the same hash)
            for tmp, _final in outcome.pending:
                discard_pending(tmp)
            first = names.owner(names.names.get(outcome.run_id) or file_component(outcome.run_id))
            ev.problems.append(InputError(f"run id {outcome.run_id!r} is also the id (or file name) of "
                                          f"{sources.get(first, first)}; run skipped", outcome.source,
                                          outcome.run_id_line))
            continue
        sources[outcome.run_id] = where(outcome.source, outcome.run_id_line)
        if name != outcome.run_id:
            ev.warnings.append(_renamed(outcome.run_id, name, names, sources))
        for tmp, final in outcome.pending:
            commit_pending(tmp, final.with_name(f"{name}.tsv"))
        for r in outcome.results:
            r.file_name = name if name != file_component(outcome.run_id) else None
        ev.warnings.extend(outcome.warnings)
        if outcome.problem is not None:
            ev.problems.append(outcome.problem)
            continue
        ev.results.extend(outcome.results)
        for setting, topics in outcome.undefined.items():
            undefined.setdefault(setting, set()).update(topics)
        if on_commit is not None:
            on_commit(outcome)


def where(source: str, line: int | None) -> str:
    """``file:line`` (``file`` alone when the line is unknown)."""
    return source if line is None else f"{source}:{line}"


def _renamed(run_id: str, name: str, names: NameTable, sources: dict[str, str]) -> str:
    """The warning for a run whose result files are not named by its id (docs/formats.md §9.2.2)."""
    why = ""
    plain = file_component(run_id)
    if name != plain:
        other = names.owner(plain)
        if other is not None:
            why = f", as run id {other!r} ({sources.get(other, '?')}) has {names.names[other]!r}"
    return f"{sources[run_id]}: run id {run_id!r} written as {name!r}{why}"


def _remove_pending(write_to: Path, task: str, settings: list[Setting], tag: str) -> None:
    """Delete the temporary result files marked with ``tag`` (an interrupted evaluation's)."""
    for s in settings:
        for p in (Path(write_to) / task / s.name).glob(f".*.{tag}*.tmp"):
            discard_pending(p)


@record
class Outcome:
    """What scoring one run file gave: results, or the problem that stopped it."""

    path: str
    run_id: str | None = None
    source: str = ""
    run_id_line: int | None = None  # the line of ``source`` the run id was read from
    results: list[RunResult] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    undefined: dict[str, set[str]] = field(default_factory=dict)
    problem: InexevalError | None = None
    pending: list[tuple[Path, Path]] = field(default_factory=list)  # (written temporary file, its final name)


def score_file(scorer: Scorer, config: Config, path, empty_as_zero: bool,
               write_to: Path | None = None, keep: set[str] | None = None, tag: str = "",
               ahead: bytes | None = None) -> Outcome:
    """Read one run file and score it under every setting; never raises for bad input.

    With ``write_to``, the result files are written under temporary names
    marked with ``tag`` (``Outcome.pending``); with ``keep``, the per-topic values are then
    trimmed as :func:`evaluate` describes, so that little travels back from
    a worker.  ``ahead``: the run as read ahead (:func:`_start_reading_ahead`), instead of
    reading PATH.
    """
    out = Outcome(path=str(path))
    inputs = UNITS[config.task_def.unit]
    # a unit may read and score its runs in a context of its own (passages: the cyclic GC paused until
    # the run is freed again, see inexeval.inputs.PassageInputs.scoring)
    with getattr(inputs, "scoring", contextlib.nullcontext)():
        if not _read_and_score(scorer, config, inputs, path, empty_as_zero, out, ahead):
            return out
    try:
        for r in out.results if write_to is not None else ():
            final = run_file_path(write_to, config.task, r)
            out.pending.append((write_pending(final, run_file_parts(r), tag), final))
    except BaseException:
        for tmp, _final in out.pending:
            discard_pending(tmp)
        raise
    if keep is not None:
        for r in out.results:
            if isinstance(r.per_topic, TopicColumns):
                r.per_topic = r.per_topic.only(keep) if keep else {}
            else:
                r.per_topic = {t: {m: v[m] for m in keep if m in v} for t, v in r.per_topic.items()} if keep else {}
    return out


def _read_and_score(scorer: Scorer, config: Config, inputs, path, empty_as_zero: bool, out: Outcome,
                    ahead: bytes | None = None) -> bool:
    """Read the run at PATH (or take it as read ahead) and score it into OUT; False when it cannot be
    read (``out.problem``)."""
    try:
        if ahead is not None:
            from inexeval import workers

            run = workers.take(ahead)
        else:
            run = inputs.read_run(path, config, scorer.recall_base)
    except InexevalError as e:
        out.problem = e
        return False
    out.run_id, out.source = run.run_id, run.source
    out.run_id_line = getattr(run, "run_id_line", None)
    out.warnings.extend(run.warnings)
    unknown = sorted(set(run.topics) - set(scorer.recall_base.topics), key=natural_key)
    if unknown:
        out.warnings.append(f"{run.source}: {len(unknown)} topic(s) not in the recall-base ignored: "
                            + ", ".join(unknown))
    if run.task and not same_task(run.task, config.task):
        out.warnings.append(f"{run.source}: run task {run.task!r} differs from TASK {config.task}")
    scorer.undefined = {}
    try:
        out.results = scorer.score(run, empty_as_zero, out.warnings)
    except InputError as e:  # e.g. a document one of its results needs that the collection cannot give
        # the run is named with what it needs (the document, its line): only this run is lost
        out.problem = e if e.file in (None, run.source) else InputError(f"run skipped: {e}", run.source)
        out.warnings.clear()  # (how it would have been scored: the run is reported once, as skipped)
    out.undefined = scorer.undefined
    return True


#: Run files of a unit totalling fewer bytes than this are scored in one process when the number of
#: processes is not given: about 2 s of scoring on one core (TREC runs are scored at about 90 MB/s, XML
#: element runs at 17-25 MB/s, passage runs at about 30 MB/s), against a pool's start-up of about 0.4 s
#: of CPU (forks, the workers' first page faults), which a busy machine does not win back
#: (docs/decisions.md).
POOL_MIN_BYTES = {"document": 192 << 20, "element": 32 << 20, "passage": 64 << 20}


def automatic_jobs(config: Config) -> int:
    """The processes to score ``config``'s runs when none is asked for: one when its run files are
    small (:data:`POOL_MIN_BYTES`), else the cores this process may use."""
    if _input_bytes(config.runs) < POOL_MIN_BYTES.get(config.task_def.unit, 0):
        return 1
    return available_cores()


def available_cores() -> int:
    """The number of cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


class _Items:
    """The items of the workers: (path, bytes read ahead or None), each read-ahead run's bytes given
    out once (and then no longer held here)."""

    def __init__(self, paths: list, ahead: dict):
        self._paths, self._ahead = paths, ahead

    def __len__(self) -> int:
        return len(self._paths)

    def __getitem__(self, i: int):
        p = self._paths[i]
        return p, self._ahead.pop(p, None)


#: Runs a worker scores before it is replaced by a fresh fork: what its allocator keeps
#: from earlier runs, and the parent's pages it has copied, never accumulate (issue 9).
RUNS_PER_WORKER = 4

_WORKER: tuple | None = None  # (scorer, config, empty_as_zero, write_to, keep, tag), inherited by forked workers


def _work(item) -> Outcome:
    path, ahead = item
    return score_file(_WORKER[0], _WORKER[1], path, *_WORKER[2:], ahead=ahead)


def _outcomes(scorer: Scorer, config: Config, empty_as_zero: bool, jobs: int,
              write_to: Path | None = None, keep: set[str] | None = None, tag: str = "",
              reused: dict[Path, Outcome] | None = None, ahead: dict | None = None):
    """Outcomes in run-file order: those of ``reused`` as given, the others scored (see
    :func:`_scored`; ``ahead``: runs already read, by path)."""
    paths = [f.path for f in config.runs]
    if not reused:
        yield from _scored(scorer, config, empty_as_zero, jobs, paths, write_to, keep, tag, ahead)
        return
    scored = _scored(scorer, config, empty_as_zero, jobs, [p for p in paths if p not in reused], write_to, keep,
                     tag, ahead)
    try:
        for p in paths:
            yield reused[p] if p in reused else next(scored)
    finally:
        scored.close()


def _scored(scorer: Scorer, config: Config, empty_as_zero: bool, jobs: int, paths: list,
            write_to: Path | None = None, keep: set[str] | None = None, tag: str = "", ahead: dict | None = None):
    """The outcomes of scoring PATHS, in order; with jobs > 1 scored by forked processes that share
    the parsed assessments and recall-bases (each worker holds one run at a time and
    is replaced after :data:`RUNS_PER_WORKER` runs).  AHEAD (path -> bytes) is emptied as the runs
    are handed out."""
    ahead = ahead if ahead is not None else {}
    if jobs <= 1 or len(paths) < 2 or not _CAN_FORK:
        for p in paths:
            yield score_file(scorer, config, p, empty_as_zero, write_to, keep, tag, ahead.pop(p, None))
        return
    from inexeval import workers

    global _WORKER
    gc.freeze()  # ... and kept out of their garbage collections (no copy-on-write by the GC)
    _WORKER = (scorer, config, empty_as_zero, write_to, keep, tag)
    try:
        yield from workers.imap(_work, _Items(paths, ahead), min(jobs, len(paths)), RUNS_PER_WORKER, held_fds(),
                                describe=lambda item: str(item[0]))
    finally:
        _WORKER = None
        gc.unfreeze()
