"""Standard-output tables (docs/formats.md §9.2): one per (task, setting), runs as rows.

Run and topic ids are written as :func:`inexeval.names.cell` (escaped control characters) in
every format but JSON, whose own escapes keep them intact.
"""

from __future__ import annotations

import csv
import io
import json
from typing import Sequence

from tabulate import tabulate

from inexeval.aggregate import natural_key
from inexeval.model import RunResult
from inexeval.names import cell, text_columns


def render(task: str, setting: str, results: Sequence[RunResult], columns: Sequence[str],
           *, per_topic: bool = False, fmt: str = "table") -> str:
    """Averaged values (and with ``per_topic`` each topic's) of one setting.

    ``table``: tabulate, 4 decimals; ``tsv``/``csv``: full precision;
    ``json``: a list of row objects.
    """
    rows: list[list] = []
    for r in results:
        if per_topic:
            for t in sorted(r.per_topic, key=natural_key):
                rows.append([r.run_id, t, *(r.per_topic[t].get(c) for c in columns)])
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
        buf = io.StringIO()
        csv.writer(buf, lineterminator="\n").writerows(lines)
        return buf.getvalue().rstrip("\n")
    if not per_topic:  # the topic column would only say "all"
        header = [header[0], *header[2:]]
        rows = [[row[0], *row[2:]] for row in rows]
    title = f"== {task}  {setting} =="
    # an undefined value is tabulate's missing value, so that its column stays numeric (4 decimals)
    ids = text_columns(rows, [0, 1] if per_topic else [0])  # a run id "007" is not the number 7
    return title + "\n" + tabulate(rows, headers=header, floatfmt=".4f", disable_numparse=ids, missingval="-")
