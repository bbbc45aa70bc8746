"""Score files: a topics × runs matrix of one measure, for ``inexeval design`` (docs/formats.md §9.2.6.1).

A header line, then one line per topic: the first field the topic id, then one score per run.  The
header's first field names the topic column (any text, ``topic`` say) and the others the runs.
Fields are separated by tabs when the header holds a tab, else by commas (no quoting: ids hold no
comma).  Scores are decimal numbers (docs/formats.md §1.7: ``0.25``, ``1e-3``; no ``inf``/``nan``).
Blank lines and lines starting with ``#`` are skipped; gzip is read as it is.  Every problem is an
InputError naming the file and line: a row with another number of fields, a score that is not a
number, a topic or run id given twice, fewer than two topics or two runs.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from inexeval.errors import InputError


def read_scores(path: Path | str) -> tuple[list[str], list[str], np.ndarray]:
    """(topics, runs, x) of the score file PATH (``-``: standard input); x[i, j] is run j's score on topic i."""
    from inexeval.readers import whole_input
    from inexeval.readers.trec_numbers import decimal_number

    source = str(path)
    text = whole_input(path, source, "score file", lines=True).decode("utf-8", "replace")
    header: list[str] | None = None
    sep = "\t"
    topics: list[str] = []
    rows: list[list[float]] = []
    seen: dict[str, int] = {}
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if header is None:
            sep = "\t" if "\t" in line else ","
            header = [f.strip() for f in line.split(sep)]
            runs = header[1:]
            twice = sorted({r for r in runs if runs.count(r) > 1})
            if twice:
                raise InputError(f"run id(s) given twice in the header: {', '.join(map(repr, twice))}", source, number)
            if any(not r for r in runs):
                raise InputError("an empty run id in the header", source, number)
            continue
        fields = [f.strip() for f in line.split(sep)]
        if len(fields) != len(header):
            raise InputError(f"{len(fields)} fields where the header has {len(header)} (a topic id and "
                             f"{len(header) - 1} scores)", source, number)
        topic = fields[0]
        if not topic:
            raise InputError("an empty topic id", source, number)
        if topic in seen:
            raise InputError(f"topic {topic!r} given twice (first on line {seen[topic]})", source, number)
        seen[topic] = number
        values = []
        for run, field in zip(header[1:], fields[1:]):
            v = decimal_number(field)
            if v is None:
                raise InputError(f"score of run {run!r} is not a decimal number: {field[:40]!r}", source, number)
            values.append(v)
        topics.append(topic)
        rows.append(values)
    if header is None:
        raise InputError("empty score file: expected a header line (topic, run ids) and a line per topic", source)
    if len(header) < 3 or len(rows) < 2:
        raise InputError(f"{len(rows)} topic(s) x {len(header) - 1} run(s): at least two topics and two runs "
                         "are needed", source)
    return topics, header[1:], np.array(rows, dtype=float)
