"""Standard-output tables (docs/formats.md §9.2): one per (task, setting), runs as rows."""

from __future__ import annotations

import csv
import io
import json
from typing import Sequence

from tabulate import tabulate

from inexeval.aggregate import natural_key
from inexeval.model import RunResult


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
    header = ["run", "topic", *columns]
    if fmt == "json":
        data = [{"task": task, "setting": setting, **dict(zip(header, row))} for row in rows]
        return json.dumps(data, indent=1)
    if fmt in ("tsv", "csv"):
        buf = io.StringIO()
        w = csv.writer(buf, delimiter="\t" if fmt == "tsv" else ",", lineterminator="\n")
        w.writerow(["task", "setting", *header])
        for row in rows:
            w.writerow([task, setting, *("-" if v is None else (repr(v) if isinstance(v, float) else v)
                                         for v in row)])
        return buf.getvalue().rstrip("\n")
    if not per_topic:  # the topic column would only say "all"
        header = [header[0], *header[2:]]
        rows = [[row[0], *row[2:]] for row in rows]
    title = f"== {task}  {setting} =="
    # an undefined value is tabulate's missing value, so that its column stays numeric (4 decimals)
    return title + "\n" + tabulate(rows, headers=header, floatfmt=".4f", missingval="-")
