"""Result files (docs/formats.md §9.2): per run and setting, and a summary across runs.

``RESULTS_DIR/<TASK>/<setting>/<run-id>.tsv`` holds ``measure TAB topic TAB
value`` lines (full precision, ``-`` for undefined, ``all`` for the average);
``RESULTS_DIR/<TASK>/summary.tsv`` and ``summary.json`` hold the averages.
Every file is written atomically: a temporary file, then a rename.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Iterable, Iterator

import numpy as np

from inexeval.errors import OutputError
from inexeval.model import RunResult
from inexeval.names import cell, file_component
from inexeval.topic_columns import TopicColumns, natural_topics, values_of



def safe_name(run_id: str) -> str:
    """The id as one file-name component (:func:`inexeval.names.file_component`)."""
    return file_component(run_id)


def fmt(v: float | None) -> str:
    """Full precision (repr) or '-' for an undefined value."""
    return "-" if v is None else repr(float(v))


#: Columns of at least this many values are probed for few distinct ones (:func:`float_texts`).
_PROBE_FROM = 4096


def float_texts(values) -> list[str]:
    """``repr`` of each value of the array VALUES (a column of :class:`TopicColumns`), as the result
    files write it (:func:`fmt` for floats).

    Most per-topic columns of a large run hold few distinct values (P@10 takes
    eleven, a topic with one relevant document gives AP one of 1/rank), so a
    float64 column whose evenly spaced sample of about a thousand values has at
    most a quarter distinct is written from the ``repr`` of each distinct bit
    pattern: the same float, the same text (-0.0 and 0.0 stay apart), one
    ``repr`` a distinct value instead of one a topic.  Other columns are written
    value by value.
    """
    n = values.size
    if values.dtype == np.float64 and n >= _PROBE_FROM:
        bits = np.ascontiguousarray(values).view(np.uint64)
        probe = bits[:: n // 1024]
        if 4 * np.unique(probe).size <= probe.size:
            distinct, inverse = np.unique(bits, return_inverse=True)
            texts = np.array(list(map(repr, distinct.view(np.float64).tolist())), dtype=object)
            return texts[inverse.ravel()].tolist()
    return list(map(repr, values.tolist()))


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


#: permissions of written files: what open() would give (mkstemp alone gives 0600)
FILE_MODE = 0o666 & ~_umask()


def write_pending(path: Path, text: str | bytes | Iterable[str], tag: str = "") -> Path:
    """Write ``text`` (or its parts, one after the other: a large file is never whole in memory) to a
    new hidden temporary file next to ``path``; return its name.

    The name is ``.<name>.<tag><random>.tmp``.  :func:`commit_pending` then
    puts it in place (a rename, atomic) or :func:`discard_pending` removes
    it.  Each call gets a new name, so several processes may prepare files
    for one ``path``.
    """
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.{tag}", suffix=".tmp", dir=path.parent)
    except OSError as e:
        raise _cannot_write(path, e) from None
    try:
        with os.fdopen(fd, "wb") as fh:
            if isinstance(text, (str, bytes)):
                fh.write(text.encode("utf-8") if isinstance(text, str) else text)
            else:
                for part in text:
                    fh.write(part.encode("utf-8"))
        os.chmod(tmp, FILE_MODE)
    except BaseException as e:
        discard_pending(Path(tmp))
        if isinstance(e, OSError):
            raise _cannot_write(path, e) from None
        raise
    return Path(tmp)


def _cannot_write(path: Path, e: OSError) -> OutputError:
    """An OSError while writing a result file (disk full, a file where a directory should be,
    no permission) as one clear error (exit 2)."""
    return OutputError(f"cannot write: {e.strerror or e}", path)


def commit_pending(tmp: Path, path: Path) -> None:
    """Rename a file of :func:`write_pending` to ``path`` (atomic: readers see the old or the new file)."""
    try:
        os.replace(tmp, path)
    except BaseException as e:
        discard_pending(tmp)
        if isinstance(e, OSError):
            raise _cannot_write(path, e) from None
        raise


def discard_pending(tmp: Path) -> None:
    try:
        os.unlink(tmp)
    except OSError:
        pass


def atomic_write(path: Path, text: str | bytes) -> None:
    """Write ``text`` to ``path`` via a temporary file in the same directory and a rename."""
    commit_pending(write_pending(path, text), path)


def run_file_text(result: RunResult) -> str:
    return "".join(run_file_parts(result))


def run_file_parts(result: RunResult) -> Iterator[str]:
    """The run's result file, a measure at a time (``measure<TAB>topic<TAB>value`` lines, then its
    ``all`` line)."""
    per_topic = result.per_topic
    topics = natural_topics(per_topic)
    cells = [f"\t{cell(t)}\t" for t in topics]
    columns = per_topic if isinstance(per_topic, TopicColumns) else None
    at = np.asarray(columns.positions(topics), dtype=np.intp) if columns is not None else None
    for m in result.measures:
        if columns is not None and columns.is_float(m):  # (fmt's text: repr of each float)
            texts = float_texts(columns.array_at(m, at))
        else:
            values = values_of(per_topic, m, topics)
            # fmt of each value; without an undefined one, as C loops (a FOL run's curves: 30,000 values)
            texts = map(fmt, values) if None in values else map(float.__repr__, map(float, values))
        lines = list(map(m.__add__, map(str.__add__, cells, texts)))
        lines.append(f"{m}\tall\t{fmt(result.average.get(m))}\n")
        yield "\n".join(lines)


def run_file_path(results_dir: Path, task: str, result: RunResult) -> Path:
    """``<results_dir>/<task>/<setting>/<name>.tsv``: the name the evaluation gave the run
    (:class:`inexeval.names.NameTable`), else its id's :func:`~inexeval.names.file_component`."""
    name = result.file_name or file_component(result.run_id)
    return Path(results_dir) / task / result.setting / f"{name}.tsv"


def summary_columns(results: Iterable[RunResult]) -> list[str]:
    cols: dict[str, None] = {}
    for r in results:
        cols.update(dict.fromkeys(r.measures))
    return list(cols)


def interval_columns(results: Iterable[RunResult], intervals: dict | None) -> list[str]:
    """The summary's columns: each measure, followed with ``--ci`` by ``<measure>_ci_lower`` and
    ``<measure>_ci_upper`` where some run has its interval (docs/measures.md §12.1)."""
    cols = summary_columns(results)
    if not intervals:
        return cols
    has = {m for found in intervals.values() for m in found}
    return [x for c in cols for x in ((c, f"{c}_ci_lower", f"{c}_ci_upper") if c in has else (c,))]


def _summary_values(r: RunResult, intervals: dict | None) -> dict[str, float | None]:
    values = {m: r.average.get(m) for m in r.measures}
    for m, (low, high) in ((intervals or {}).get((r.run_id, r.setting)) or {}).items():
        values[f"{m}_ci_lower"], values[f"{m}_ci_upper"] = low, high
    return values


def summary_tsv(results: list[RunResult], intervals: dict | None = None) -> str:
    cols = interval_columns(results, intervals)
    lines = ["\t".join(["run", "setting", *cols])]
    for r in results:
        values = _summary_values(r, intervals)
        lines.append("\t".join([cell(r.run_id), r.setting, *(fmt(values.get(c)) for c in cols)]))
    return "\n".join(lines) + "\n"


def summary_json(results: list[RunResult], intervals: dict | None = None) -> str:
    rows = []
    for r in results:
        values = _summary_values(r, intervals)
        ordered = [x for m in r.measures for x in (m, f"{m}_ci_lower", f"{m}_ci_upper") if x in values]
        rows.append({"run": r.run_id, "setting": r.setting, "measures": {c: values[c] for c in ordered}})
    return json.dumps(rows, indent=1) + "\n"


def write_summary(results_dir: Path, task: str, results: list[RunResult], intervals: dict | None = None
                  ) -> list[Path]:
    """``summary.tsv`` and ``summary.json`` (averages only; with ``--ci`` each mean's interval,
    :func:`interval_columns`)."""
    written = []
    base = Path(results_dir) / task
    atomic_write(base / "summary.tsv", summary_tsv(results, intervals))
    atomic_write(base / "summary.json", summary_json(results, intervals))
    written += [base / "summary.tsv", base / "summary.json"]
    return written
