"""Judgement sets of the task's kind as graded items (docs/formats.md §10.4, docs/measures.md §13).

A judgement set is the config's own (A: ASSESSMENTS_DIR as evaluation selects it) or one given by
``--judgements-b`` (B, C, …), read by the readers evaluation uses and turned, per topic, into its
judged items with an integer grade each:

* TREC qrels (unit ``document``): the documents, graded by their relevance level; relevant at
  REL_LEVEL and above;
* FOL qrels (unit ``passage``): the judged articles, graded 0 (nothing highlighted), or 1, 2, 3
  for the specificity grades S1, S2, S3 of their highlighted share (docs/formats.md §10.1);
  relevant from 1;
* INEX pools (unit ``element``): the assessed elements (``file TAB path``), graded 0 (rsize 0) or
  1–3 for S1–S3 of rsize/size; relevant from 1.  A set B is a directory (or file) of pool files,
  read as ASSESSMENTS_DIR is (without POOLS: its ``main/`` file, or the topic's only one).

Each set also says which assessment files an evaluation under it reads
(:attr:`JudgementSet.assessments`), so that the runs can be scored under every set.  TOPICS (and
QUERY_TYPE for pools) select the topics of every set.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np

from inexeval.aggregate import natural_key
from inexeval.errors import ConfigError, InputError
from inexeval.records import field, record, replace

#: the option naming the other sets, in messages
OPTION = "--judgements-b"


@record
class JudgementSet:
    """One set of judgements of the selected topics, graded per item."""

    label: str  # "A" (the config's), "B", "C", … in the order given
    name: str  # its file (or directory) name, as the rows name it
    path: Path | None  # the file or directory it was read from (None: a generated fill)
    #: topic -> (item keys, unique and sorted; grades, int64, in the keys' order)
    topics: dict[str, tuple[np.ndarray, np.ndarray]]
    assessments: tuple = ()  # the InputFiles an evaluation under this set reads
    warnings: list[str] = field(default_factory=list)
    problems: list[InputError] = field(default_factory=list)

    def grades(self) -> np.ndarray:
        """Every grade this set gives (sorted, unique)."""
        parts = [g for _, g in self.topics.values()]
        return np.unique(np.concatenate(parts)) if parts else np.zeros(0, dtype=np.int64)


@record(frozen=True)
class Kind:
    """How the judgement sets of one result unit are read, and what they allow."""

    item: str  # what an item is, in messages
    read_a: Callable  # (config) -> JudgementSet
    read_other: Callable  # (config, path, label) -> JudgementSet
    threshold: Callable  # (config) -> the lowest relevant grade
    fills: bool  # whether --fill can put two sets together (document judgements)
    directories: bool  # whether a set may be a directory (of INEX pool files)


def _sorted_topic(keys: np.ndarray, grades: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    order = np.argsort(keys, kind="stable")
    return keys[order], np.asarray(grades, dtype=np.int64)[order]


def _selected(config, topic: str) -> bool:
    return config.topics is None or topic in config.topics


# --------------------------------------------------------------------------- TREC qrels


def _trec_set(config, path: Path, label: str) -> JudgementSet:
    from inexeval.model import InputFile
    from inexeval.readers.trec import read_qrels

    qrels = read_qrels(path)
    order = np.argsort(qrels.qid, kind="stable")
    names, starts = np.unique(qrels.qid[order], return_index=True)
    ends = np.append(starts[1:], len(order))
    topics = {}
    for raw, s, e in zip(names.tolist(), starts, ends):
        topic = raw.decode("utf-8", "replace")
        if _selected(config, topic):
            rows = order[s:e]
            topics[topic] = _sorted_topic(qrels.docno[rows], qrels.rel[rows])
    return JudgementSet(label, Path(path).name, Path(path), topics, (InputFile(Path(path), Path(path)),))


def _qrels_a(read):
    """The config's own set (A) of a task with one qrels file, read by READ (``_trec_set``, ``_fol_set``)."""
    def a(config) -> JudgementSet:
        from inexeval.inputs import one_qrels_file

        path, problems = one_qrels_file(config)
        s = read(config, path, "A")
        s.problems += problems
        return s

    return a


# --------------------------------------------------------------------------- FOL qrels


def _specificity_grade(items) -> np.ndarray:
    """0 for an item that is not relevant, else 1, 2, 3 for its grade S1, S2, S3."""
    grade = np.zeros(len(items.keys), dtype=np.int64)
    for k, g in enumerate(("S1", "S2", "S3"), start=1):
        grade[items.grades[g]] = k
    return grade


def _fol_set(config, path: Path, label: str) -> JudgementSet:
    from inexeval.assessments.tables import from_fol
    from inexeval.model import InputFile
    from inexeval.readers.fol import read_fol_qrels

    q = read_fol_qrels(path)
    topics = {}
    for t, v in q.topics.items():
        if _selected(config, t):
            items = from_fol(t, v, q.source).levels["article"]
            topics[t] = _sorted_topic(items.keys, _specificity_grade(items))
    return JudgementSet(label, Path(path).name, Path(path), topics, (InputFile(Path(path), Path(path)),))


# --------------------------------------------------------------------------- INEX pools


def _pools_set(config, files: tuple, pools, label: str, name: str, path: Path | None) -> JudgementSet:
    from inexeval.assessments.tables import S_GRADES, from_inex
    from inexeval.errors import EmptySelection
    from inexeval.inputs import placed
    from inexeval.readers.assessments import load_assessments

    problems: list[InputError] = []
    warnings: list[str] = []
    try:
        a = load_assessments(files, pools=pools, topics=config.topics, query_type=config.query_type,
                             problems=problems)
        found, warnings = a.topics, list(a.warnings)
    except EmptySelection as err:
        if label == "A":
            raise placed(err, config) from None
        found = {}
        warnings.append(f"{name}: {err.message}: no topic of it is compared")
    topics = {}
    for t, ta in found.items():
        items = from_inex(ta, S_GRADES).levels["element"]
        topics[t] = _sorted_topic(items.keys, _specificity_grade(items))
    return JudgementSet(label, name, path, topics, tuple(files), warnings, problems)


def _pools_a(config) -> JudgementSet:
    root = config.assessments[0].root if config.assessments else Path("assessments")
    return _pools_set(config, config.assessments, config.pools, "A", Path(root).name, Path(root))


def _pools_other(config, path: Path, label: str) -> JudgementSet:
    from inexeval.config.values import expand_paths
    from inexeval.readers.assessments import ASSESSMENT_NAMES

    files = expand_paths(str(path), Path.cwd(), OPTION, OPTION, None)
    pools = tuple(f for f in files if f.path.name.lower().endswith(ASSESSMENT_NAMES))
    if not pools:
        raise ConfigError(f"{path} holds no INEX pool file (*.xml): for TASK {config.task} a judgement "
                          "set is a directory (or file) of pool files; without it the second assessor is a "
                          "topic's other pool file under ASSESSMENTS_DIR", OPTION)
    return _pools_set(config, pools, None, label, Path(path).name, Path(path))


def _one(config) -> int:
    return 1


#: How each result unit's judgement sets are read (the units without judgements are refused).
KINDS = {
    "document": Kind("document", _qrels_a(_trec_set), _trec_set, lambda config: config.rel_level, True, False),
    "passage": Kind("article", _qrels_a(_fol_set), _fol_set, _one, False, False),
    "element": Kind("element", _pools_a, _pools_other, _one, False, True),
}


def kind_of(config) -> Kind:
    """The :class:`Kind` of CONFIG's task (ConfigError for a task without judgements)."""
    kind = KINDS.get(config.task_def.unit)
    if kind is None:
        raise ConfigError(f"inexeval assessments compares no judgement sets of TASK {config.task} (INEX pools, "
                          "TREC and FOL qrels)", config.source, config.line_of("TASK"))
    return kind


def set_names(paths) -> list[str]:
    """Each path's file name, or the path as given where two share a name."""
    names = [Path(p).name for p in paths]
    return [str(p) if names.count(n) > 1 else n for p, n in zip(paths, names)]


def check_named_files(paths, option: str, directories: bool = False) -> None:
    """A ConfigError (exit 2) naming ``option`` for the first of ``paths`` that does not exist, or
    that is a directory where one is not read (``directories``: INEX pool files)."""
    from inexeval.readers import named_file_problem

    for p in paths:
        problem = named_file_problem(p)
        if problem is not None and not (directories and Path(p).is_dir()):
            raise ConfigError(f"{p}: {problem}", option)


def read_sets(config, others) -> list:
    """[A, B, C, …]: the config's judgements and those of OTHERS (paths), as :class:`JudgementSet`."""
    kind = kind_of(config)
    check_named_files(others, OPTION, kind.directories)
    sets = [kind.read_a(config)]
    for k, (p, name) in enumerate(zip(others, set_names(others))):
        label = chr(ord("B") + k) if k < 25 else f"B{k}"
        s = kind.read_other(config, Path(p), label)
        s.name = name
        sets.append(s)
    a_topics = set(sets[0].topics)
    for s in sets[1:]:
        missing = sorted(a_topics - set(s.topics), key=natural_key)
        if missing:
            s.warnings.append(f"{s.name}: no judgement of the topic(s) {', '.join(missing[:20])}"
                              f"{', ...' if len(missing) > 20 else ''} that {sets[0].name} judges: those topics "
                              f"are compared on the items of {sets[0].name} only, and its runs are scored on the "
                              "topics both judged")
    return sets


def fill_set(a: JudgementSet, b: JudgementSet, directory: Path) -> JudgementSet:
    """A's judgements with B's added for the items A left unjudged, on A's topics (TREC qrels),
    written as a qrels file in DIRECTORY so that the runs can be scored under it."""
    from inexeval.model import InputFile

    lines = []
    topics = {}
    for t, (ka, ga) in a.topics.items():
        kb, gb = b.topics.get(t, (ka[:0], ga[:0]))
        extra = ~np.isin(kb, ka)
        keys = np.concatenate([ka, kb[extra]])
        grades = np.concatenate([ga, gb[extra]])
        topics[t] = _sorted_topic(keys, grades)
        head = np.char.add(t.encode("utf-8") + b" 0 ", topics[t][0].astype(bytes))
        lines.append(np.char.add(np.char.add(head, b" "), topics[t][1].astype(bytes)))
    name = f"{a.name}+{b.name}"
    path = Path(directory) / f"fill-{a.label}{b.label}.qrels"
    path.write_bytes(b"".join(b"\n".join(part.tolist()) + b"\n" for part in lines if part.size))
    return JudgementSet(f"{a.label}+{b.label}", name, None, topics, (InputFile(path, path),))


def scoring_config(config, s: JudgementSet, topics) -> object:
    """CONFIG with the judgements of set S (A: unchanged) and only TOPICS, for scoring the runs."""
    keep = frozenset(topics)
    if s.label == "A":
        return replace(config, topics=keep)
    return replace(config, topics=keep, assessments=s.assessments, pools=None)


__all__ = ["JudgementSet", "Kind", "KINDS", "kind_of", "read_sets", "fill_set", "scoring_config", "set_names",
           "OPTION"]
