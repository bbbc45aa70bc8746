"""Standard-output tables (docs/formats.md §9.2): one per (task, setting), runs as rows.

Run and topic ids are written as :func:`inexeval.names.cell` (escaped control characters) in
every format but JSON, whose own escapes keep them intact.
"""

from __future__ import annotations

import io
import json
from typing import Sequence

from inexeval.model import RunResult
from inexeval.names import cell, text_columns
from inexeval.topic_columns import natural_topics, topic_rows
from inexeval.writers.plain_table import simple_table


def render(task: str, setting: str, results: Sequence[RunResult], columns: Sequence[str],
           *, per_topic: bool = False, fmt: str = "table", intervals: dict | None = None,
           symmetric: bool = True, counts: frozenset[str] = frozenset()) -> str:
    """Averaged values (and with ``per_topic`` each topic's) of one setting.

    ``table``: tabulate's layout, 4 decimals (:mod:`inexeval.writers.plain_table`); ``tsv``/``csv``: full precision;
    ``json``: a list of row objects.  ``intervals`` (``--ci``: {(run id, setting): {measure: (low,
    high)}}): the table shows each mean as ``0.3450 ±0.0670`` (``symmetric``) or ``0.3450 [0.2801,
    0.4102]``; the other formats add ``<measure>_ci_lower`` and ``<measure>_ci_upper`` columns.
    ``counts``: the columns that are counts (``num_ret``), which the table shows as integers where
    every value of the column is one (:func:`_as_counts`); the other formats keep full precision.
    """
    if intervals:
        return _render_intervals(task, setting, results, columns, per_topic, fmt, intervals, symmetric, counts)
    rows: list[list] = []
    for r in results:
        if per_topic:
            topics = natural_topics(r.per_topic)
            rows += ([r.run_id, t, *values] for t, values in zip(topics, topic_rows(r.per_topic, columns, topics)))
        rows.append([r.run_id, "all", *(r.average.get(c) for c in columns)])
    if fmt != "json":  # ids as cells: one line per row whatever they hold (JSON escapes them itself)
        rows = [[cell(row[0]), cell(row[1]), *row[2:]] for row in rows]
    header = ["run", "topic", *columns]
    if fmt == "json":
        data = [{"task": task, "setting": setting, **dict(zip(header, row))} for row in rows]
        return json.dumps(data, indent=1)
    if fmt in ("tsv", "csv"):
        lines = [["task", "setting", *header]]
        lines += [[task, setting, *("-" if v is None else (repr(v) if isinstance(v, float) else v) for v in row)]
                  for row in rows]
        if fmt == "tsv":  # cells hold no tab or line end: no quoting (a run id '"' stays '"')
            return "\n".join("\t".join(map(str, line)) for line in lines)
        import csv

        buf = io.StringIO()
        csv.writer(buf, lineterminator="\n").writerows(lines)
        return buf.getvalue().rstrip("\n")
    rows = _as_counts(rows, header, counts)
    if not per_topic:  # the topic column would only say "all"
        header = [header[0], *header[2:]]
        rows = [[row[0], *row[2:]] for row in rows]
    title = f"== {task}  {setting} =="
    # an undefined value is tabulate's missing value, so that its column stays numeric (4 decimals)
    ids = text_columns(rows, [0, 1] if per_topic else [0])  # a run id "007" is not the number 7
    text = simple_table(rows, header, 2 if per_topic else 1, ids)  # tabulate's bytes, without tabulate
    if text is None:  # (a table simple_table does not promise to write as tabulate does)
        from tabulate import tabulate

        text = tabulate(rows, headers=header, floatfmt=".4f", disable_numparse=ids, missingval="-")
    return title + "\n" + text


def _as_counts(rows: list[list], header: Sequence[str], counts: frozenset[str]) -> list[list]:
    """ROWS with each column of ``counts`` as ints where all its values are whole numbers (a sum or a
    per-topic count; a mean of counts that is not whole keeps the column's 4 decimals)."""
    whole = [j for j, name in enumerate(header) if name in counts
             and all(v is None or (isinstance(v, float) and v.is_integer()) for v in (row[j] for row in rows))]
    if not whole:
        return rows
    out = [list(row) for row in rows]
    for row in out:
        for j in whole:
            if row[j] is not None:
                row[j] = int(row[j])
    return out


def _render_intervals(task: str, setting: str, results: Sequence[RunResult], columns: Sequence[str],
                      per_topic: bool, fmt: str, intervals: dict, symmetric: bool,
                      counts: frozenset[str] = frozenset()) -> str:
    """:func:`render` with each mean's confidence interval (docs/measures.md §12.1)."""
    from inexeval.records import replace

    from inexeval.compare.intervals import interval_text

    has = {m for (_, s), found in intervals.items() if s == setting for m in found}
    if fmt != "table":
        cols = [x for c in columns for x in ((c, f"{c}_ci_lower", f"{c}_ci_upper") if c in has else (c,))]
        shown = []
        for r in results:
            found = intervals.get((r.run_id, r.setting)) or {}
            average = dict(r.average)
            for m, (low, high) in found.items():
                average[f"{m}_ci_lower"], average[f"{m}_ci_upper"] = low, high
            shown.append(replace(r, average=average))
        return render(task, setting, shown, cols, per_topic=per_topic, fmt=fmt, counts=counts)
    header = ["run", "topic", *columns]
    numbers: list[list] = []
    found: list[dict] = []  # each row's intervals (a mean's row only)
    for r in results:
        if per_topic:
            topics = natural_topics(r.per_topic)
            numbers += ([cell(r.run_id), cell(t), *values]
                        for t, values in zip(topics, topic_rows(r.per_topic, columns, topics)))
            found += [{}] * len(topics)
        numbers.append([cell(r.run_id), "all", *(r.average.get(c) for c in columns)])
        found.append(intervals.get((r.run_id, r.setting)) or {})
    numbers = _as_counts(numbers, header, counts - has)
    rows = [[*row[:2], *("-" if v is None else interval_text(v, got[c], symmetric) if c in got else
                         str(v) if type(v) is int else _plain(v) for c, v in zip(columns, row[2:]))]
            for row, got in zip(numbers, found)]
    if not per_topic:
        header = [header[0], *header[2:]]
        rows = [[row[0], *row[2:]] for row in rows]
    title = f"== {task}  {setting} =="
    from tabulate import tabulate

    return title + "\n" + tabulate(rows, headers=header, disable_numparse=True)


def _plain(v) -> str:
    """A value as the table shows it (4 decimals, ``-`` undefined), as text."""
    return "-" if v is None else f"{v:.4f}"
