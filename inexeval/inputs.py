"""What a task's results are, and how its judgements and runs are read: one entry per result unit.

The task table (:mod:`inexeval.tasks`) names each task's unit; the evaluator
asks the unit's entry here for the recall-base (its topics and whatever the
measures read from it) and for each run, and never looks at the task name.

- ``element``: INEX assessments (docs/formats.md §1.2) and INEX runs of
  (file, XPath) results (docs/formats.md §1.3);
- ``document``: a TREC qrels file and TREC runs, joined by docno for the
  classic measures (docs/formats.md §8).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from inexeval.config import Config
from inexeval.errors import ConfigError


@dataclass
class RecallBase:
    """The judged topics of an evaluation: ``topics`` maps each topic id to what its measures
    read (a TopicAssessment for INEX; None for TREC, whose ``data`` is the qrels table)."""

    topics: dict[str, Any]
    data: Any = None
    warnings: list[str] = field(default_factory=list)


class ElementInputs:
    """INEX assessments and element runs."""

    def load(self, config: Config, on_topic: Callable | None = None) -> RecallBase:
        from inexeval.readers.assessments import load_assessments

        # strict and genLifted quantise exhaustivity, so it must be there (docs/measures.md §4.1)
        needs_e = config.task_def.quantised and any(q != "gen" for q in config.quant_functions)
        a = load_assessments(config.assessments, pools=config.pools, topics=config.topics,
                             query_type=config.query_type, require_exhaustivity=needs_e, on_topic=on_topic)
        return RecallBase(a.topics, a, list(a.warnings))

    def read_run(self, path, config: Config, recall_base: RecallBase):
        from inexeval.readers.runs import read_run

        return read_run(path, max_results=config.max_results)


class DocumentInputs:
    """TREC qrels (one file) and TREC runs, joined as trec_eval joins them."""

    def load(self, config: Config, on_topic: Callable | None = None) -> RecallBase:
        from inexeval.measures.classic_join import topic_table
        from inexeval.readers.trec import read_qrels

        if len(config.assessments) != 1:
            raise ConfigError(f"TASK {config.task} needs exactly one qrels file in ASSESSMENTS_DIR, found "
                              f"{len(config.assessments)}", config.source, config.line_of("ASSESSMENTS_DIR"))
        table = topic_table(read_qrels(config.assessments[0].path), config.rel_level)
        return RecallBase(dict.fromkeys(table.names), table)

    def read_run(self, path, config: Config, recall_base: RecallBase):
        from inexeval.measures.classic_join import read_ranked_run

        return read_ranked_run(path, recall_base.data, max_results=config.max_results)


#: Result unit (``Task.unit``) -> how its inputs are read.
UNITS = {"element": ElementInputs(), "document": DocumentInputs()}


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
