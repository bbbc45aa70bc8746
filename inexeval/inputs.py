"""What a task's results are, and how its judgements and runs are read: one entry per result unit.

The task table (:mod:`inexeval.tasks`) names each task's unit; the evaluator
asks the unit's entry here for the recall-base (its topics and whatever the
measures read from it) and for each run, and never looks at the task name.

- ``element``: INEX assessments (docs/formats.md §1.2) and INEX runs of
  (file, XPath) results (docs/formats.md §1.3);
- ``document``: a TREC qrels file and TREC runs, joined by docno for the
  classic measures (docs/formats.md §8);
- ``passage``: the FOL qrels of INEX 2007–2010 and passage runs, read as the
  official tool inex_eval reads them (docs/fol.md §2);
- ``answer``: question-answering answer files and runs of ranked exact
  answers (docs/formats.md §11).

An entry of a directory listing that cannot be read (``InputFile.problem``:
a dangling symbolic link, a FIFO, ...) is reported here with its path: as a
skipped assessment file in ``RecallBase.problems``, or as a skipped run when
its turn comes (docs/formats.md §1.5).  A run named ``-`` is read from
standard input once, before any worker is forked.
"""

from __future__ import annotations

import contextlib
import importlib
import io
import sys
from pathlib import Path
from typing import Any, Callable

from inexeval.config.schema import Config
from inexeval.aggregate import natural_key
from inexeval.errors import ConfigError, EmptySelection, InputError
from inexeval.records import field, record


def placed(err: EmptySelection, config: Config) -> EmptySelection:
    """ERR located where its key was set: the config file's line, or ``--set``."""
    file, line = config.origin(err.key)
    return EmptySelection(err.key, err.detail, file, line)


@record
class RecallBase:
    """The judged topics of an evaluation: ``topics`` maps each topic id to what its measures
    read (a TopicAssessment for INEX; None for TREC, whose ``data`` is the qrels table)."""

    topics: dict[str, Any]
    data: Any = None
    warnings: list[str] = field(default_factory=list)
    #: assessment inputs that could not be used (reported, exit status 1; the rest is scored)
    problems: list[InputError] = field(default_factory=list)


def _check_run(path, config: Config) -> None:
    """InputError for a run that the directory listing found unreadable (``InputFile.problem``)."""
    for f in config.runs:
        if f.problem is not None and f.path == Path(path):
            raise InputError(f"run not read: {f.problem}", path)


def _prefetch_stdin(config: Config) -> None:
    from inexeval.readers import STDIN, stdin_bytes

    if any(str(f.path) == STDIN for f in config.runs):
        stdin_bytes()


@contextlib.contextmanager
def _stdin_as_read():
    """Standard input as :func:`~inexeval.readers.stdin_bytes` read it (before any fork), for a reader
    that reads ``sys.stdin`` itself (the TREC reader)."""
    from inexeval.readers import cached_stdin

    data = cached_stdin()
    if data is None:
        yield
        return
    saved = sys.stdin
    sys.stdin = io.TextIOWrapper(io.BytesIO(data))
    try:
        yield
    finally:
        sys.stdin = saved


def one_qrels_file(config: Config) -> tuple[Path, list[InputError]]:
    """The one qrels file of ASSESSMENTS_DIR, and the listed entries that cannot be read."""
    usable = [f for f in config.assessments if f.problem is None]
    problems = [InputError(f"assessment file not read: {f.problem}", f.path)
                for f in config.assessments if f.problem is not None]
    if len(usable) != 1:
        raise ConfigError(f"TASK {config.task} needs exactly one qrels file in ASSESSMENTS_DIR, found "
                          f"{len(usable)}", config.source, config.line_of("ASSESSMENTS_DIR"))
    return usable[0].path, problems


_one_qrels_file = one_qrels_file  # the old name


class Unit:
    """How the inputs of one result unit are read (the unit's facts: :data:`inexeval.tasks.UNIT_FACTS`)."""

    #: a run is read without the recall-base (so it may be read while the assessments are)
    reads_runs_alone = False


class ElementInputs(Unit):
    """INEX assessments and element runs."""

    reads_runs_alone = True

    def load(self, config: Config, on_topic: Callable | None = None) -> RecallBase:
        from inexeval.readers.assessments import load_assessments

        # strict and genLifted quantise exhaustivity, so it must be there (docs/measures.md §4.1)
        needs_e = config.task_def.quantised and any(q != "gen" for q in config.quant_functions)
        problems: list[InputError] = []
        try:
            a = load_assessments(config.assessments, pools=config.pools, topics=config.topics,
                                 query_type=config.query_type, require_exhaustivity=needs_e, on_topic=on_topic,
                                 problems=problems)
        except EmptySelection as err:
            raise placed(err, config) from None
        _prefetch_stdin(config)
        importlib.import_module("inexeval.readers.runs")  # here, before workers fork: each would import it (5 ms)
        return RecallBase(a.topics, a, list(a.warnings), problems)

    def read_run(self, path, config: Config, recall_base: RecallBase):
        from inexeval.readers.runs import read_run

        _check_run(path, config)
        return read_run(path, max_results=config.max_results)


class DocumentInputs(Unit):
    """TREC qrels (one file) and TREC runs, joined as trec_eval joins them."""


    def load(self, config: Config, on_topic: Callable | None = None) -> RecallBase:
        from inexeval.measures.classic_join import topic_table
        from inexeval.readers.trec import read_qrels

        path, problems = _one_qrels_file(config)
        qrels = read_qrels(path)
        warnings = []
        if config.topics is not None:  # TOPICS keeps some qrels topics, as for the other tasks
            qrels, warnings = _select_qrels_topics(qrels, config)
        table = topic_table(qrels, config.rel_level)
        _prefetch_stdin(config)
        return RecallBase(dict.fromkeys(table.names), table, warnings, problems)

    def read_run(self, path, config: Config, recall_base: RecallBase):
        from inexeval.measures.classic_pieces import read_ranked_file

        _check_run(path, config)
        with _stdin_as_read():
            return read_ranked_file(path, recall_base.data, max_results=config.max_results,
                                   single_precision=config.trec_eval_version == "9.0.8")


def _select_qrels_topics(qrels, config: Config):
    """The TREC qrels rows of the TOPICS, and a warning naming the TOPICS the qrels lack;
    EmptySelection when none is in the qrels."""
    from inexeval.records import replace

    import numpy as np

    have = {q.decode("utf-8", "replace") for q in np.unique(qrels.qid).tolist()}
    wanted = sorted(config.topics, key=natural_key)
    chosen = [t for t in wanted if t in have]
    if have and not chosen:
        shown = sorted(have, key=natural_key)
        raise placed(EmptySelection("TOPICS", f"selects none of the {len(shown)} topic(s) of the qrels "
                                              f"({', '.join(shown[:10])}{', ...' if len(shown) > 10 else ''})"),
                     config)
    keep = np.isin(qrels.qid, np.array([t.encode("utf-8") for t in chosen], dtype=qrels.qid.dtype))
    qrels = replace(qrels, qid=qrels.qid[keep], docno=qrels.docno[keep], rel=qrels.rel[keep],
                                line=qrels.line[keep], vocab=None, code=None)  # docnos sorted again
    missing = [t for t in wanted if t not in have]
    return qrels, [f"TOPICS without a judgement in the qrels: {', '.join(missing)}"] if missing else []


class PassageInputs(Unit):
    """FOL qrels (one file) and passage runs: FOL runs, or element runs turned into passages through
    COLLECTION_DIR (docs/fol.md §2)."""


    def __init__(self):
        self._collections: dict[Path, object] = {}  # COLLECTION_DIR -> Collection, shared by the runs

    def load(self, config: Config, on_topic: Callable | None = None) -> RecallBase:
        """Every topic of the qrels is a topic, also one without a relevant judgement (TOPICS keeps some)."""
        from inexeval.readers.fol import read_fol_qrels

        path, problems = _one_qrels_file(config)
        from inexeval.readers.passages import paused_gc

        with paused_gc():
            qrels = read_fol_qrels(path)
        _prefetch_stdin(config)
        if config.topics is not None:
            from inexeval.records import replace

            chosen = {t: v for t, v in qrels.topics.items() if t in config.topics}
            if qrels.topics and not chosen:
                shown = sorted(qrels.topics, key=natural_key)
                raise placed(EmptySelection("TOPICS", f"selects none of the {len(shown)} topic(s) of the qrels "
                                                      f"({', '.join(shown[:10])}{', ...' if len(shown) > 10 else ''})"),
                             config)
            qrels = replace(qrels, topics=chosen)
        warnings = []
        nothing = [t for t, v in qrels.topics.items() if v.num_rel == 0]
        if nothing:
            warnings.append(f"{qrels.source}: {len(nothing)} topic(s) have no relevant judgement: their recall "
                            "values (and so their averages) are NaN, as inex_eval prints them: " + ", ".join(nothing))
        return RecallBase(dict.fromkeys(qrels.topics), qrels, warnings, problems)

    def scoring(self):
        """The context a run is read and scored in: the cyclic garbage collector paused until the run
        is freed (millions of small lists, no cycles; otherwise its passes cost as much as the work)."""
        from inexeval.readers.passages import paused_gc

        return paused_gc()

    def read_run(self, path, config: Config, recall_base: RecallBase):
        from inexeval.readers.passages import read_passage_run

        _check_run(path, config)
        return read_passage_run(path, lambda: self._collection(config, path))

    def _collection(self, config: Config, path):
        if config.collection_dir is None:
            raise InputError(f"an element run: TASK {config.task} needs COLLECTION_DIR to turn its elements "
                             "into passages", path)
        found = self._collections.get(config.collection_dir)
        if found is None:
            from inexeval.readers.collection import Collection

            found = self._collections[config.collection_dir] = Collection(Path(config.collection_dir))
        return found


class AnswerInputs(Unit):
    """Question answering: answer files (answer synsets and levels) and runs of ranked exact answers
    (docs/formats.md §11)."""


    def load(self, config: Config, on_topic: Callable | None = None) -> RecallBase:
        """Every question of the answer files (TOPICS keeps some); a question with an error is left out
        and reported with its file and line, as is one whose strings ANSWER_MATCH makes ambiguous."""
        from inexeval.measures.qa import gains_of, leave_out_clashes
        from inexeval.readers.answers import read_answer_files

        problems = [InputError(f"assessment file not read: {f.problem}", f.path)
                    for f in config.assessments if f.problem is not None]
        answers = read_answer_files([f.path for f in config.assessments if f.problem is None], config.topics)
        leave_out_clashes(answers, config.answer_match, gains_of(config.gains))
        problems += answers.problems
        warnings = list(answers.warnings)
        if config.topics is not None:
            missing = sorted(config.topics - set(answers.questions), key=natural_key)
            if missing and not answers.questions and not problems:
                raise placed(EmptySelection("TOPICS", "selects none of the questions of the answer files"), config)
            if missing:
                warnings.append(f"TOPICS without answer data: {', '.join(missing)}")
        _prefetch_stdin(config)
        return RecallBase(dict(sorted(answers.questions.items(), key=lambda kv: natural_key(kv[0]))), answers,
                          warnings, problems)

    def read_run(self, path, config: Config, recall_base: RecallBase):
        from inexeval.readers.qa_runs import read_qa_run

        _check_run(path, config)
        return read_qa_run(path, max_results=config.max_results)


#: Result unit (``Task.unit``) -> how its inputs are read.
UNITS = {"element": ElementInputs(), "document": DocumentInputs(), "passage": PassageInputs(),
         "answer": AnswerInputs()}


class MissingCollection:
    """Stands for COLLECTION_DIR when the config has none: any look-up explains that it is needed."""

    def __init__(self, config: Config):
        self._task, self._source = config.task, config.source

    def _missing(self, file: str, path: str):
        raise ConfigError(f"COLLECTION_DIR is needed by task {self._task} (size or offset of "
                          f"{file} {path})", self._source)

    size_of = offset_of = _missing

    def average_length(self) -> float:
        raise ConfigError(f"COLLECTION_DIR (or AVG_DOC_LENGTH) is needed by task {self._task}", self._source)


def collection_of(config: Config):
    """The collection of COLLECTION_DIR, or a :class:`MissingCollection`."""
    if config.collection_dir is None:
        return MissingCollection(config)
    from inexeval.readers.collection import Collection

    return Collection(Path(config.collection_dir))


__all__ = ["UNITS", "RecallBase", "collection_of", "MissingCollection"]
