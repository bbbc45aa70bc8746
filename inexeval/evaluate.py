"""Orchestration: config -> inputs -> recall-bases -> measures -> averages.

Inputs are parsed once; recall-bases are built once per (topic,
quantisation) and shared by every run and measure.  Nothing here prints.
"""

from __future__ import annotations

import gc
import multiprocessing
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from inexeval.aggregate import average, counted_topics, natural_key
from inexeval.config import Config
from inexeval.errors import ConfigError, InexevalError, InputError
from inexeval.gains import OverlapIndex
from inexeval.measures import registry
from inexeval.measures.registry import Measure, Params, Setting, TopicInput
from inexeval.model import Assessments, FileAssessment, Run, RunResult, TopicAssessment
from inexeval.readers.assessments import load_assessments
from inexeval.readers.collection import Collection
from inexeval.readers.runs import read_run
from inexeval.recallbase import QuantisedTopic, TopicElements
from inexeval.tasks import same_task
from inexeval.writers.files import (
    atomic_write,
    commit_pending,
    discard_pending,
    run_file_path,
    run_file_text,
    safe_name,
    write_pending,
)

@dataclass
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


def resolve_measures(config: Config) -> list[Measure]:
    """METRICS -> registered measures for the task's strategy (ConfigError if unknown)."""
    out: list[Measure] = []
    for name in config.metrics:
        m = registry.find(name, config.strategy)
        if m is None:
            known = ", ".join(registry.names_for(config.strategy))
            raise ConfigError(f"METRICS: {name!r} is not a measure of task {config.task} (known: {known})",
                              config.source, config.line_of("METRICS"))
        if m not in out:
            out.append(m)
    return out


def settings_of(config: Config) -> list[Setting]:
    if config.task_def.quantised:
        return [Setting(q, o, config.alpha) for q in config.quant_functions for o in config.overlap]
    return [Setting(None, None, config.alpha)]


def params_of(config: Config, collection: Collection | None = None) -> Params:
    dcv = config.dcv
    avg = config.avg_doc_length
    if avg is None and config.strategy == "bestincontext" and collection is not None:
        avg = collection.average_length()
    return Params(dcv=dcv, max_results=config.max_results, q_beta=config.q_beta,
                  bep_a=config.bep_a, avg_doc_length=avg)


def collection_services(config: Config) -> tuple[Collection | None, dict]:
    """size_of / offset_of look-ups in COLLECTION_DIR, or ones that explain it is needed."""
    if config.collection_dir is None:
        def missing(file: str, path: str):
            raise ConfigError(f"COLLECTION_DIR is needed by task {config.task} (size or offset of "
                              f"{file} {path})", config.source)
        return None, {"size_of": missing, "offset_of": missing}
    coll = Collection(config.collection_dir)
    return coll, {"size_of": coll.size_of, "offset_of": coll.offset_of}


class Scorer:
    """Scores runs against one set of assessments; recall-bases are cached across runs."""

    def __init__(self, config: Config, assessments: Assessments, measures: list[Measure],
                 settings: list[Setting], params: Params, services: dict | None = None):
        self.config, self.assessments = config, assessments
        self.measures, self.settings, self.params = measures, settings, params
        self.services = services or {}
        self._elements: dict[str, TopicElements] = {}
        self._qt: dict[tuple[str, str], QuantisedTopic] = {}
        self._index: dict[tuple[str, str], OverlapIndex] = {}
        self.undefined: dict[str, set[str]] = {}  # setting -> topics with nothing relevant

    def elements(self, topic: str) -> TopicElements:
        if topic not in self._elements:
            self._elements[topic] = TopicElements(self.assessments.topics[topic])
        return self._elements[topic]

    def quantised(self, topic: str, quant: str) -> tuple[QuantisedTopic, OverlapIndex]:
        key = (topic, quant)
        if key not in self._qt:
            qt = QuantisedTopic(self.assessments.topics[topic], quant, self.elements(topic))
            self._qt[key], self._index[key] = qt, OverlapIndex(qt)
        return self._qt[key], self._index[key]

    @property
    def releases_assessments(self) -> bool:
        """True when no measure reads the assessment objects (only the quantised recall-bases)."""
        return not any(m.needs_assessments for m in self.measures) and \
            any(s.quant is not None for s in self.settings)

    def prepare_topic(self, ta: TopicAssessment) -> None:
        """Build the recall-bases of one topic for every setting, once, before any run (and
        before workers fork, so that they share them).  When no measure reads the assessment
        objects, the topic's are then released: the columnar recall-bases are all the XCG
        measures need, and memory stays bounded by one topic's objects (issue 9)."""
        self.assessments.topics.setdefault(ta.topic, ta)
        for s in self.settings:
            if s.quant is None:
                continue
            qt, index = self.quantised(ta.topic, s.quant)
            # reading the cached properties builds them
            qt.ideal_gain_vector(s.overlap)
            if self.config is not None and self.config.strategy == "fetchbrowse":
                _ = qt.article_gain
            if s.overlap == "on":
                _ = index.q, index.maps, qt.elements._child_index
        if self.releases_assessments:
            ta.files = {f: FileAssessment(file=f) for f in ta.files}

    def prepare(self) -> None:
        """:meth:`prepare_topic` for every topic."""
        for ta in list(self.assessments.topics.values()):
            self.prepare_topic(ta)

    def outputs(self) -> list[str]:
        names: list[str] = []
        for m in self.measures:
            names.extend(m.outputs(self.params))
        return names

    def score(self, run: Run, empty_as_zero: bool, warnings: list[str] | None = None) -> list[RunResult]:
        topics = counted_topics(run.topics, self.assessments.topics, empty_as_zero)
        names = self.outputs()
        results = []
        seen_warnings: dict[str, None] = {}
        services = dict(self.services, warn=lambda msg: seen_warnings.setdefault(msg))
        ids: dict[str, object] = {}  # each ranking's element ids, shared by its settings
        for s in self.settings:
            per_topic: dict[str, dict[str, float | None]] = {}
            for t in topics:
                ranking = run.topics.get(t, [])
                ti = TopicInput(topic=self.assessments.topics[t], ranking=ranking,
                                setting=s, params=self.params, services=services)
                if s.quant is not None:
                    ti.qt, ti.overlap_index = self.quantised(t, s.quant)
                    if t not in ids:
                        ids[t] = self.elements(t).ids(ranking)
                    ti.ids = ids[t]
                values: dict[str, float | None] = {}
                for m in self.measures:
                    v = m.compute(ti)
                    if v is None:
                        self.undefined.setdefault(s.name, set()).add(t)
                        values.update(dict.fromkeys(m.outputs(self.params)))
                    else:
                        values.update(v)
                per_topic[t] = values
            results.append(RunResult(run_id=run.run_id, setting=s.name, measures=names,
                                     per_topic=per_topic, average=average(per_topic, names),
                                     source=run.source))
        if warnings is not None:
            warnings.extend(f"{run.source}: {w}" for w in seen_warnings)
        return results


def evaluate(config: Config, *, empty_as_zero: bool = False,
             on_run: Callable[[str], None] | None = None, jobs: int = 1,
             write_to: Path | None = None, keep: set[str] | None = None) -> Evaluation:
    """Evaluate every run of ``config``; unreadable runs are recorded in ``problems``.

    ``jobs`` > 1 scores runs in that many forked processes; the output is
    identical to ``jobs`` = 1 (results are collected in run-file order).
    With ``write_to``, each run's result files are written there as soon as
    it is scored (by the process that scored it, under a temporary name that
    is renamed once the run id is known to be unique); with ``keep``, only
    those measures' per-topic values are then kept in memory (none: an empty
    ``per_topic``; the averages are always kept), so memory stays flat in the
    number of runs.
    """
    if config.strategy == "trec":
        ev = evaluate_trec_task(config, empty_as_zero=empty_as_zero)
        for r in ev.results if write_to is not None else ():
            atomic_write(run_file_path(write_to, config.task, r), run_file_text(r))
        return ev
    measures = resolve_measures(config)
    settings = settings_of(config)
    collection, services = collection_services(config)
    params = params_of(config, collection)
    needs_e = config.task_def.quantised and any(q != "gen" for q in config.quant_functions)
    scorer = Scorer(config, Assessments(), measures, settings, params, services)
    # condense each topic as soon as it is read, when the measures allow it (memory)
    assessments = load_assessments(config.assessments, pools=config.pools, topics=config.topics,
                                   query_type=config.query_type, require_exhaustivity=needs_e,
                                   on_topic=scorer.prepare_topic if scorer.releases_assessments else None)
    scorer.assessments = assessments
    ev = Evaluation(config=config, settings=settings, measures=measures, params=params,
                    columns=[c for m in measures for c in m.scalars(params)])
    ev.warnings.extend(assessments.warnings)
    if not assessments.topics:
        raise InputError("no assessed topic selected (check ASSESSMENTS_DIR, POOLS, TOPICS, QUERY_TYPE)",
                         config.source, config.line_of("ASSESSMENTS_DIR"))
    scorer.prepare()
    seen_ids: dict[str, str] = {}
    undefined: dict[str, set[str]] = {}
    tag = f"inexeval-{os.getpid()}-"  # marks this evaluation's temporary result files
    outcomes = _outcomes(scorer, config, empty_as_zero, jobs, write_to, keep, tag)
    try:
        _collect(outcomes, ev, seen_ids, undefined, on_run)
    except BaseException:  # e.g. Ctrl-C: stop the workers, then remove the files they had prepared
        outcomes.close()
        if write_to is not None:
            _remove_pending(write_to, config.task, settings, tag)
        raise
    for setting, topics in undefined.items():
        ev.warnings.append(f"{len(topics)} topic(s) have nothing relevant under {setting} and are left out "
                           "of every average: " + ", ".join(sorted(topics, key=natural_key)))
    return ev


def _collect(outcomes, ev: Evaluation, seen_ids: dict[str, str], undefined: dict[str, set[str]],
             on_run: Callable[[str], None] | None) -> None:
    """Take the outcomes in run-file order: results, problems, and each run's files put in place
    (or removed, for a run id that an earlier run already has)."""
    for outcome in outcomes:
        if on_run is not None:
            on_run(outcome.path)
        if outcome.problem is not None and outcome.run_id is None:
            ev.problems.append(outcome.problem)
            continue
        name = safe_name(outcome.run_id)  # two ids that give one file name collide too
        if name in seen_ids:
            for tmp, _final in outcome.pending:
                discard_pending(tmp)
            ev.problems.append(InputError(f"run id {outcome.run_id!r} is also the id (or file name) of "
                                          f"{seen_ids[name]}; run skipped", outcome.source))
            continue
        seen_ids[name] = outcome.source
        for tmp, final in outcome.pending:
            commit_pending(tmp, final)
        ev.warnings.extend(outcome.warnings)
        if outcome.problem is not None:
            ev.problems.append(outcome.problem)
            continue
        ev.results.extend(outcome.results)
        for setting, topics in outcome.undefined.items():
            undefined.setdefault(setting, set()).update(topics)


def _remove_pending(write_to: Path, task: str, settings: list[Setting], tag: str) -> None:
    """Delete the temporary result files marked with ``tag`` (an interrupted evaluation's)."""
    for s in settings:
        for p in (Path(write_to) / task / s.name).glob(f".*.{tag}*.tmp"):
            discard_pending(p)


@dataclass
class Outcome:
    """What scoring one run file gave: results, or the problem that stopped it."""

    path: str
    run_id: str | None = None
    source: str = ""
    results: list[RunResult] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    undefined: dict[str, set[str]] = field(default_factory=dict)
    problem: InexevalError | None = None
    pending: list[tuple[Path, Path]] = field(default_factory=list)  # (written temporary file, its final name)


def score_file(scorer: Scorer, config: Config, path, empty_as_zero: bool,
               write_to: Path | None = None, keep: set[str] | None = None, tag: str = "") -> Outcome:
    """Read one run file and score it under every setting; never raises for bad input.

    With ``write_to``, the result files are written under temporary names
    marked with ``tag`` (``Outcome.pending``); with ``keep``, the per-topic values are then
    trimmed as :func:`evaluate` describes, so that little travels back from
    a worker.
    """
    out = Outcome(path=str(path))
    try:
        run = read_run(path, max_results=config.max_results)
    except InexevalError as e:
        out.problem = e
        return out
    out.run_id, out.source = run.run_id, run.source
    out.warnings.extend(run.warnings)
    unknown = sorted(set(run.topics) - set(scorer.assessments.topics), key=natural_key)
    if unknown:
        out.warnings.append(f"{run.source}: {len(unknown)} topic(s) not in the recall-base ignored: "
                            + ", ".join(unknown))
    if run.task and not same_task(run.task, config.task):
        out.warnings.append(f"{run.source}: run task {run.task!r} differs from TASK {config.task}")
    scorer.undefined = {}
    try:
        out.results = scorer.score(run, empty_as_zero, out.warnings)
    except InputError as e:  # e.g. a best entry point missing from its document
        out.problem = e
    out.undefined = scorer.undefined
    del run
    try:
        for r in out.results if write_to is not None else ():
            final = run_file_path(write_to, config.task, r)
            out.pending.append((write_pending(final, run_file_text(r), tag), final))
    except BaseException:
        for tmp, _final in out.pending:
            discard_pending(tmp)
        raise
    if keep is not None:
        for r in out.results:
            r.per_topic = {t: {m: v[m] for m in keep if m in v} for t, v in r.per_topic.items()} if keep else {}
    return out


#: Runs a worker scores before it is replaced by a fresh fork: what its allocator keeps
#: from earlier runs, and the parent's pages it has copied, never accumulate (issue 9).
RUNS_PER_WORKER = 4

_WORKER: tuple | None = None  # (scorer, config, empty_as_zero, write_to, keep, tag), inherited by forked workers


def _work(path) -> Outcome:
    return score_file(_WORKER[0], _WORKER[1], path, *_WORKER[2:])


def _outcomes(scorer: Scorer, config: Config, empty_as_zero: bool, jobs: int,
              write_to: Path | None = None, keep: set[str] | None = None, tag: str = ""):
    """Outcomes in run-file order; with jobs > 1 scored by forked processes that share
    the parsed assessments and recall-bases (each worker holds one run at a time and
    is replaced after :data:`RUNS_PER_WORKER` runs)."""
    paths = [f.path for f in config.runs]
    if jobs <= 1 or len(paths) < 2 or "fork" not in multiprocessing.get_all_start_methods():
        for p in paths:
            yield score_file(scorer, config, p, empty_as_zero, write_to, keep, tag)
        return
    global _WORKER
    gc.freeze()  # ... and kept out of their garbage collections (no copy-on-write by the GC)
    _WORKER = (scorer, config, empty_as_zero, write_to, keep, tag)
    try:
        with multiprocessing.get_context("fork").Pool(min(jobs, len(paths)), maxtasksperchild=RUNS_PER_WORKER) as pool:
            yield from pool.imap(_work, paths, chunksize=1)
    finally:
        _WORKER = None
        gc.unfreeze()


def evaluate_trec_task(config: Config, *, empty_as_zero: bool) -> Evaluation:
    """TASK: trec (SPEC §8): ASSESSMENTS_DIR names one qrels file, SUBMISSIONRUNS_DIR the runs.

    MAX_RESULTS applies only when the config sets it (trec_eval keeps every result).
    """
    from inexeval.trec import evaluate_trec

    if len(config.assessments) != 1:
        raise ConfigError(f"TASK trec needs exactly one qrels file in ASSESSMENTS_DIR, found "
                          f"{len(config.assessments)}", config.source, config.line_of("ASSESSMENTS_DIR"))
    ev = Evaluation(config=config, settings=[Setting(None, None, config.alpha)], measures=[], params=params_of(config))
    try:
        results, problems = evaluate_trec(
            config.assessments[0].path, [f.path for f in config.runs],
            measures=list(config.metrics) or None, rel_level=config.rel_level,
            gains=dict(config.gains) if config.gains else None, q_beta=config.q_beta,
            empty_as_zero=empty_as_zero, max_results=config.max_results,
            warn=ev.warnings.append)
    except ConfigError as e:
        raise ConfigError(e.message, config.source, config.line_of("METRICS")) from None
    ev.results, ev.problems = results, list(problems)
    ev.columns = list(results[0].measures) if results else []
    return ev
