"""A run's per-topic values kept as one column per measure (docs/formats.md §9.2).

:attr:`inexeval.model.RunResult.per_topic` reads as ``{topic: {measure: value}}``.  Built from
dictionaries, a topic's row costs a dictionary and a float object per measure: 3–5 KB a topic
with trec_eval's 47 default measures, 4 GB for a run of a million topics.  :class:`TopicColumns`
holds the same values as one array (or list) per measure, 8 bytes a value, and hands out each
topic's row as a read-only view (:class:`TopicRow`), so every reader of ``per_topic`` (writers,
``compare``, the report, the Python API) reads it unchanged.  The engine builds it when every
measure of a setting gives its values as columns (run-level measures, ``compute_all``).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence


class TopicColumns(Mapping):
    """``{topic: {measure: value}}`` over TOPICS (in order), the values of each measure in
    COLUMNS[measure], aligned with TOPICS: a float64 array, or a list (None: undefined, or text)."""

    __slots__ = ("topics", "columns", "natural_order", "_index")

    def __init__(self, topics: list[str], columns: dict[str, Sequence], natural_order: bool = False):
        """NATURAL_ORDER: TOPICS are in :func:`~inexeval.aggregate.natural_key` order already."""
        self.topics = topics
        self.columns = columns
        self.natural_order = natural_order
        self._index: dict[str, int] | None = None

    def __reduce__(self):  # (pickled without the index, between processes)
        return TopicColumns, (self.topics, self.columns, self.natural_order)

    @property
    def index(self) -> dict[str, int]:
        if self._index is None:
            self._index = {t: i for i, t in enumerate(self.topics)}
        return self._index

    def __getitem__(self, topic: str) -> TopicRow:
        return TopicRow(self, self.index[topic])

    def __contains__(self, topic) -> bool:
        return topic in self.index

    def __iter__(self) -> Iterator[str]:
        return iter(self.topics)

    def __len__(self) -> int:
        return len(self.topics)

    def value(self, i: int, measure: str):
        """The value of MEASURE at the I-th topic (a float, None or text); KeyError for another measure."""
        v = self.columns[measure][i]
        return v if v is None or type(v) is str else float(v)

    def values_of(self, measure: str, topics: Sequence[str]) -> list:
        """MEASURE's values (:meth:`value`) at TOPICS, in that order (None where it has none)."""
        return self.values_at(measure, self.positions(topics))

    def positions(self, topics: Sequence[str]) -> list[int]:
        """The place of each of TOPICS among :attr:`topics`."""
        if topics is self.topics:
            return list(range(len(topics)))
        index = self.index
        return [index[t] for t in topics]

    def values_at(self, measure: str, at: list[int]) -> list:
        """MEASURE's values at the topics in places AT (None for a measure it has not)."""
        col = self.columns.get(measure)
        if col is None:
            return [None] * len(at)
        if isinstance(col, list):
            return [col[i] for i in at]
        return col[at].tolist()

    def rows(self, measures: Sequence[str], topics: Sequence[str]) -> list[tuple]:
        """The values of MEASURES at each of TOPICS, a tuple a topic, as :meth:`value` reads them
        (None for a measure it has not): a column at a time."""
        at = self.positions(topics)
        columns = []
        for m in measures:
            col = self.values_at(m, at)
            kept = self.columns.get(m)
            if isinstance(kept, list) or (kept is not None and kept.dtype.kind != "f"):  # (ints read as floats)
                col = [v if v is None or type(v) is str else float(v) for v in col]
            columns.append(col)
        return list(zip(*columns)) if columns else [()] * len(at)

    def array_at(self, measure: str, at):
        """MEASURE's values at the places AT (an integer array), as an array, for a measure whose
        column is one (:meth:`is_float`; float64 for the classic measures)."""
        return self.columns[measure][at]

    def only(self, measures) -> TopicColumns:
        """These values of MEASURES alone."""
        return TopicColumns(self.topics, {m: c for m, c in self.columns.items() if m in measures}, self.natural_order)

    def is_float(self, measure: str) -> bool:
        """Whether MEASURE's values are all floats (an array column)."""
        return not isinstance(self.columns.get(measure, []), list)


class TopicRow(Mapping):
    """One topic's values of a :class:`TopicColumns`, read-only: ``{measure: value}``."""

    __slots__ = ("_of", "_i")

    def __init__(self, of: TopicColumns, i: int):
        self._of, self._i = of, i

    def __getitem__(self, measure: str):
        return self._of.value(self._i, measure)

    def __iter__(self) -> Iterator[str]:
        return iter(self._of.columns)

    def __len__(self) -> int:
        return len(self._of.columns)

    def __contains__(self, measure) -> bool:
        return measure in self._of.columns

    def __repr__(self) -> str:
        return repr(dict(self))


def values_of(per_topic: Mapping, measure: str, topics: Sequence[str]) -> list:
    """MEASURE's values at TOPICS (None where a topic lacks it) of any ``per_topic`` mapping."""
    if isinstance(per_topic, TopicColumns):
        return per_topic.values_of(measure, topics)
    return [per_topic[t].get(measure) for t in topics]


def topic_rows(per_topic: Mapping, measures: Sequence[str], topics: Sequence[str]) -> list[tuple]:
    """The values of MEASURES at each of TOPICS (None where a topic lacks one) of any ``per_topic``
    mapping, a tuple a topic."""
    if isinstance(per_topic, TopicColumns):
        return per_topic.rows(measures, topics)
    return [tuple(per_topic[t].get(m) for m in measures) for t in topics]


def natural_topics(per_topic: Mapping) -> list[str]:
    """The topics of any ``per_topic`` mapping in :func:`~inexeval.aggregate.natural_key` order."""
    if isinstance(per_topic, TopicColumns) and per_topic.natural_order:
        return per_topic.topics
    from inexeval.aggregate import natural_key

    return sorted(per_topic, key=natural_key)
