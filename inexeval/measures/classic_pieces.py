"""A large TREC run joined to the qrels piece by piece (issue 35, target 2; docs/formats.md §8).

``TASK: trec`` reads a run file of :data:`~inexeval.readers.trec_chunks.STREAM_FROM` bytes or more in
pieces of whole topics (:func:`~inexeval.readers.trec_chunks.topic_chunks`, :data:`PIECE` bytes
each), ranks each piece as :func:`~inexeval.measures.classic_join.rank_run` ranks a whole run, and
puts the pieces' rankings together in the table's topic order.  Each topic is in one piece, so its
ranking and relevance codes are the whole file's; the warnings are the whole file's too (the
topics the qrels lack, over all pieces; the duplicates dropped, summed; the run ids of the tag
column, in first-seen order).  What is kept is the ranking: a relevance code (int64) and a tie
flag per result, 9 bytes a line, instead of the file's text and its parse.

:func:`ranked_in_pieces` returns None, and the file is read whole, when a topic is in two
pieces (the run is not grouped by topic), when a piece cannot be read (the error is then the
whole file's, with its line numbers), or when the run has no result.
"""

from __future__ import annotations

import numpy as np

from inexeval.measures.classic_base import Ranking, TopicTable

#: Bytes of a piece: larger than the trec-eval drop-in's, as each piece costs a pass over the table's topics.
PIECE = 16 << 20


def read_ranked_file(path, table: TopicTable, *, max_results: int | None = None, single_precision: bool = False):
    """``TASK: trec``'s reading of the run file PATH: in pieces (:func:`ranked_in_pieces`) when it is
    large and can be, else whole (:func:`~inexeval.measures.classic_join.read_ranked_run`)."""
    from inexeval.measures.classic_join import read_ranked_run
    from inexeval.readers.trec_chunks import streamable

    if streamable(path):
        got = ranked_in_pieces(path, table, max_results=max_results, single_precision=single_precision)
        if got is not None:
            return got
    return read_ranked_run(path, table, max_results=max_results, single_precision=single_precision)


def ranked_in_pieces(path, table: TopicTable, *, max_results: int | None = None,
                     single_precision: bool = False):
    """The :class:`~inexeval.measures.classic_join.RankedRun` of the run file PATH read in pieces; None:
    read it whole."""
    from inexeval.measures.classic_join import Dropped, RankedRun, ranked, ranking_warnings, run_id_of
    from inexeval.readers.trec import BOM_UTF8, TrecRun, run_from_bytes
    from inexeval.readers.trec_chunks import ReadWhole, grouped_runs

    name = str(path)

    def parse(piece: bytes, line: int):
        if line == 1 and piece.startswith(BOM_UTF8):  # (the first piece)
            piece = piece[len(BOM_UTF8):]
        return run_from_bytes(piece, name, line)

    topics, lengths, rels, ties, present = [], [], [], [], []
    unknown: set[bytes] = set()
    dropped = Dropped()
    tags: dict[str, None] = {}
    first_line = None
    try:
        for run, _ in grouped_runs(path, parse, chunk=PIECE):
            if first_line is None:
                first_line = int(run.line[0])
            tags.update(dict.fromkeys(run.tags))
            ranking, here, unknown_ids, n = ranked(run, table, max_results=max_results,
                                                   single_precision=single_precision)
            del run
            unknown.update(unknown_ids.tolist())
            dropped = dropped + n
            present.append(np.flatnonzero(here))
            t = np.flatnonzero(ranking.length)
            topics.append(t)
            lengths.append(ranking.length[t])
            rels.append(_small(ranking.rel))
            ties.append(ranking.tied)
    except ReadWhole:
        return None
    if first_line is None:
        return None
    ranking = _together(table, topics, lengths, rels, ties)
    mask = np.zeros(table.size, dtype=bool)
    mask[np.concatenate(present)] = True
    warnings = ranking_warnings(name, sorted(unknown), dropped)
    stand_in = TrecRun(name, np.empty(0, dtype="S1"), np.empty(0, dtype="S1"), np.empty(0), np.empty(0, dtype=np.int64),
                       list(tags))
    run_id = run_id_of(stand_in, warnings.append)
    present_names = dict.fromkeys(table.names[t] for t in np.flatnonzero(mask).tolist())
    return RankedRun(run_id, name, ranking, present_names, warnings, run_id_line=first_line if len(tags) == 1 else None)


def _small(rel: np.ndarray) -> np.ndarray:
    """REL (int64 codes) in the smallest integer type that holds them, until the pieces are put together."""
    if not rel.size:
        return rel
    lo, hi = int(rel.min()), int(rel.max())
    for kind in (np.int8, np.int16, np.int32):
        info = np.iinfo(kind)
        if info.min <= lo and hi <= info.max:
            return rel.astype(kind)
    return rel


def _together(table: TopicTable, topics: list[np.ndarray], lengths: list[np.ndarray], rels: list[np.ndarray],
              ties: list[np.ndarray]) -> Ranking:
    """One :class:`Ranking` of the pieces' rankings (TOPICS: each piece's non-empty topics, in table
    order, LENGTHS their rows; RELS, TIES: each piece's rows): topic segments in table order."""
    t = np.concatenate(topics)
    n = np.concatenate(lengths)
    counts = np.zeros(table.size, dtype=np.int64)
    counts[t] = n
    start = np.concatenate(([0], np.cumsum(counts))).astype(np.int64)
    rel = np.concatenate(rels).astype(np.int64) if rels else np.empty(0, dtype=np.int64)
    tied = np.concatenate(ties) if ties and all(x is not None for x in ties) else None
    if t.size > 1 and not (t[1:] > t[:-1]).all():  # pieces not in topic order: gather the segments
        at = np.cumsum(n) - n  # each segment's first row, as the pieces came
        o = np.argsort(t, kind="stable")
        rows = np.repeat(at[o] - (np.cumsum(n[o]) - n[o]), n[o]) + np.arange(int(n.sum()))
        rel = rel[rows]
        tied = None if tied is None else tied[rows]
    return Ranking(table, start, rel, tied)
