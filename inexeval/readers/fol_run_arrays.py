"""A FOL text run's fields as arrays: where each line's 8 fields start and end in the run's bytes.

:func:`field_bounds` splits the run's text (``FolRunFile.plain_text``: its lines joined by ``\\n``)
at ASCII white space, which is where ``str.split()`` and the tool's ``split("\\s+")`` split such
text (D22), when every line has exactly 8 fields, none first in its line and no NUL byte; else
None (the callers then read the lines one by one).  The bounds are kept on the run
(``FolRunFile.arrays``) until its scorer lets them go (``measures.fol.score_fol_run``), so that the
reader's topic blocks (:func:`topic_blocks`, ``readers.passages.topic_lines``) and the scorer
(:mod:`inexeval.measures.fol_arrays`) split a run once between them.
"""

from __future__ import annotations

import numpy as np

from inexeval.readers.fol import FolRunFile
from inexeval.readers.fol_qrels_arrays import field_strings, white_space

__all__ = ["field_bounds", "topic_blocks"]

Bounds = tuple  # (bytes as uint8, field starts (lines, 8), field ends (lines, 8))


def field_bounds(run: FolRunFile) -> Bounds | None:
    """(bytes, field starts, field ends), starts and ends ``(lines, 8)``, when every line has exactly 8
    fields split at ASCII white space, none first, no NUL byte (D22); else None.  Kept on RUN."""
    kept = run.arrays
    if kept is None:
        kept = run.arrays = (_split(run),)
    return kept[0]


def _split(run: FolRunFile) -> Bounds | None:
    text = run.plain_text()
    if not text:  # (None: not a plain text run; empty: no line, or one empty line)
        return None
    data = np.frombuffer(text.encode("utf-8", "surrogatepass"), dtype=np.uint8)
    ws = white_space(data)
    if ws[0] or ws[-1] or (data == 0).any():
        return None  # white space first in the run, or last (trailing white space: left to the walk); a NUL
    n = len(run)
    gap = np.flatnonzero(ws)
    if gap.size == 8 * n - 1 and (np.diff(gap) > 1).all():  # fields apart by one byte each: 8 a line
        newline = data[gap] == 10
        if not newline[7::8].all() or np.count_nonzero(newline) != n - 1:
            return None  # a line of other than 8 fields
        starts = np.concatenate(([0], gap + 1)).reshape(n, 8)
        ends = np.append(gap, data.size).reshape(n, 8)
        return data, starts, ends
    edge = np.flatnonzero(ws[1:] != ws[:-1]) + 1  # field starts and ends, alternating
    bounds = np.concatenate(([0], edge, [data.size]))
    starts, ends = bounds[0::2], bounds[1::2]
    if starts.size != 8 * n:
        return None
    starts = starts.reshape(n, 8)
    ends = ends.reshape(n, 8)
    newline = np.flatnonzero(data == 10)
    if newline.size != n - 1 or (starts[1:, 0] != newline + 1).any() or (ends[:-1, 7] != newline).any():
        return None  # a line of other than 8 fields, or white space first or last in a line
    return data, starts, ends


def topic_blocks(run: FolRunFile) -> dict[str, list[int]] | None:
    """The indices of the lines of each topic (a line's first field), topics in the order of their
    first line, from :func:`field_bounds`; None when there are none (or a topic id is longer than
    ``fol_qrels_arrays.NAME_BYTES``)."""
    bounds = field_bounds(run)
    if bounds is None:
        return None
    data, starts, ends = bounds
    ids = field_strings(data, starts[:, 0], ends[:, 0])  # (no NUL in the run: no id loses a byte)
    if ids is None:
        return None
    cut = np.flatnonzero(ids[1:] != ids[:-1]) + 1
    blocks = np.concatenate(([0], cut, [ids.size])).tolist()
    topics: dict[str, list[int]] = {}
    for name, b, e in zip(ids[blocks[:-1]].tolist(), blocks, blocks[1:]):
        topics.setdefault(name.decode("utf-8", "surrogatepass"), []).extend(range(b, e))
    return topics
