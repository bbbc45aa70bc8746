"""INEX runs: XML submissions (2005 IEEE, 2006 Wikipedia) and 7-column text runs.

SPEC §1.3.  A file whose first non-blank character is ``<`` is an XML
submission (root ``<inex-submission>``); anything else is a text run with one
result per line, ``topic Q0 file rank rsv run-id path``.  Either way the
ranking is the order of the results in the file, never the ``rank`` values.

Run hygiene, per topic, in this order (SPEC §1.3):

1. only the first ``max_results`` submitted results count; the rest are
   dropped and counted;
2. a result whose invalid file id or path (SPEC §1.1) cannot be normalised
   keeps its place among those first ``max_results`` and is then skipped
   (counted);
3. a result whose normalised ``(file, path)`` occurred earlier in the same
   topic is a duplicate: dropped, counted.

A ``<topic>`` without ``<result>`` is the same as an absent topic; a repeated
``<topic>`` id continues that topic.  Each kind of problem gives one warning
per run, with its count and the topics concerned (SPEC §9.3).
"""

from __future__ import annotations

import gzip
import io
import sys
import zlib
from pathlib import Path

from inexeval.errors import InputError, InvalidPath
from inexeval.model import Run
from inexeval.paths import normalise_file_id, normalise_path
from inexeval.readers import refuse_entity_declarations, release, safe_iterparse

__all__ = ["read_run"]

_GZIP_MAGIC = b"\x1f\x8b"
BOM = b"\xef\xbb\xbf"
SUBMISSION_ROOT = "inex-submission"
_MAX_TOPICS_LISTED = 10


def read_run(path: str | Path, *, max_results: int = 1500) -> Run:
    """Read one run file (XML or text, optionally gzip-compressed; ``"-"`` is stdin).

    Returns a :class:`~inexeval.model.Run` whose ``topics`` map each topic id
    to its ``(file, path)`` results after run hygiene, in rank (file) order.
    Raises :class:`~inexeval.errors.InputError` with file and line when the
    run cannot be parsed.
    """
    source = "<stdin>" if str(path) == "-" else str(path)
    data = read_run_bytes(path, source)
    if data.startswith(BOM):
        data = data[len(BOM) :]
    collector = _Collector(source, max_results)
    if data.lstrip()[:1] == b"<":
        run_id, task = _parse_xml(data, source, collector)
    else:
        run_id, task = _parse_text(data, source, collector)
    if not run_id:
        run_id = run_id_from_name(source)
    return Run(
        run_id=run_id,
        source=source,
        task=task,
        topics=collector.topics(),
        warnings=collector.warnings(),
    )


# --------------------------------------------------------------------------- input


def read_run_bytes(path: str | Path, source: str) -> bytes:
    """The whole file as bytes: stdin for ``"-"``, gunzipped when gzip-compressed."""
    try:
        if str(path) == "-":
            data = sys.stdin.buffer.read()
        else:
            with open(path, "rb") as fh:
                data = fh.read()
    except OSError as exc:
        raise InputError(f"cannot read run: {exc.strerror or exc}", source) from None
    if data.startswith(_GZIP_MAGIC) or source.lower().endswith(".gz"):
        try:
            data = gzip.decompress(data)
        except (OSError, EOFError, zlib.error) as exc:
            raise InputError(f"cannot decompress gzip run: {exc}", source) from None
    return data


def run_id_from_name(source: str) -> str:
    """Run id fallback: the file name without ``.gz`` and one more suffix."""
    name = Path(source).name
    if name.lower().endswith(".gz"):
        name = name[:-3]
    return Path(name).stem or name


# --------------------------------------------------------------------------- XML


def _parse_xml(data: bytes, source: str, collector: _Collector) -> tuple[str, str | None]:
    """Stream an ``<inex-submission>``; return (run id, task).

    Only ``end`` events of ``<result>`` and ``<topic>`` are asked for (one
    event per result keeps the per-result cost low); a result's topic is its
    parent element, whose attributes are complete by then.
    """
    refuse_entity_declarations(data, source)
    root = None
    topic_elem = None  # the <topic> element of the previous result
    topic = ""
    add = collector.add
    events = safe_iterparse(io.BytesIO(data), source, events=("end",), tag=("result", "topic", SUBMISSION_ROOT))
    for _event, elem in events:
        if root is None:
            root = elem.getroottree().getroot()
            if root.tag != SUBMISSION_ROOT:
                raise InputError(
                    f"not an INEX submission: root element is <{root.tag}>, expected <{SUBMISSION_ROOT}>",
                    source,
                    root.sourceline,
                )
        tag = elem.tag
        if tag == "result":
            par = elem.getparent()
            if par is not topic_elem:
                if par is None or par.tag != "topic":
                    raise InputError("<result> outside <topic>", source, elem.sourceline)
                topic = (par.get("topic-id") or "").strip()
                if not topic:
                    raise InputError("<topic> without a topic-id attribute", source, par.sourceline)
                topic_elem = par
            file_raw = path_raw = rank_raw = None
            for child in elem:
                ctag = child.tag
                if ctag == "file":
                    file_raw = child.text
                elif ctag == "path":
                    path_raw = child.text
                elif ctag == "rank":
                    rank_raw = child.text
            add(topic, file_raw, path_raw, rank_raw, elem.sourceline)
            release(elem)
        elif tag == "topic":
            topic_elem = None
            release(elem)
    if root is None:
        raise InputError(f"not an INEX submission: no <{SUBMISSION_ROOT}> element", source, None)
    run_id = (root.get("run-id") or "").strip()
    task = (root.get("task") or "").strip() or None
    return run_id, task


# --------------------------------------------------------------------------- text


def _parse_text(data: bytes, source: str, collector: _Collector) -> tuple[str, None]:
    """Read ``topic Q0 file rank rsv run-id path`` lines; return (run id, None)."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise InputError("run is not valid UTF-8", source, line) from None
    run_id = ""
    other_tags = 0
    first_other: tuple[int, str] | None = None
    add = collector.add
    for lineno, line in enumerate(text.split("\n"), 1):
        cols = line.split()
        if not cols:
            continue
        if len(cols) != 7:
            raise InputError(
                f"expected 7 columns 'topic Q0 file rank rsv run-id path', found {len(cols)}",
                source,
                lineno,
            )
        topic, _q0, file_raw, rank_raw, rsv_raw, tag, path_raw = cols
        try:
            int(rank_raw)
        except ValueError:
            raise InputError(f"rank {rank_raw!r} is not an integer", source, lineno) from None
        try:
            float(rsv_raw)
        except ValueError:
            raise InputError(f"score {rsv_raw!r} is not a number", source, lineno) from None
        if not run_id:
            run_id = tag
        elif tag != run_id:
            other_tags += 1
            if first_other is None:
                first_other = (lineno, tag)
        add(topic, file_raw, path_raw, rank_raw, lineno)
    if first_other is not None:
        collector.extra.append(
            f"{source}: {other_tags} {_plural(other_tags, 'line')} with a run tag other than "
            f"{run_id!r} (first at line {first_other[0]}: {first_other[1]!r}); {run_id!r} used"
        )
    return run_id, None


# --------------------------------------------------------------------------- hygiene


class _Topic:
    """Per-topic hygiene state."""

    __slots__ = ("submitted", "results", "seen", "last_rank")

    def __init__(self) -> None:
        self.submitted = 0
        self.results: list[tuple[str, str]] = []
        self.seen: set[tuple[str, str]] = set()
        self.last_rank: int | None = None


class _Count:
    """A counted problem: total, per-topic presence in first-seen order, first example."""

    __slots__ = ("n", "topics", "first")

    def __init__(self) -> None:
        self.n = 0
        self.topics: dict[str, None] = {}
        self.first: str | None = None

    def hit(self, topic: str, first: str | None = None) -> None:
        self.n += 1
        self.topics[topic] = None
        if self.first is None:
            self.first = first


class _Collector:
    """Applies run hygiene result by result and words the run's warnings."""

    def __init__(self, source: str, max_results: int):
        self.source = source
        self.max_results = max_results
        self._topics: dict[str, _Topic] = {}
        self._file_ids: dict[str, str] = {}
        self.beyond = _Count()
        self.invalid = _Count()
        self.duplicate = _Count()
        self.rank_order = _Count()
        self.rank_nan = _Count()
        self.extra: list[str] = []

    def add(
        self, topic: str, file_raw: str | None, path_raw: str | None, rank_raw: str | None, line: int | None
    ) -> None:
        """Apply SPEC §1.3 hygiene to one submitted result of ``topic``."""
        st = self._topics.get(topic)
        if st is None:
            st = self._topics[topic] = _Topic()
        st.submitted += 1
        if rank_raw is not None:
            self._check_rank(st, topic, rank_raw, line)
        if st.submitted > self.max_results:
            self.beyond.hit(topic)
            return
        try:
            if file_raw is None:
                raise InvalidPath("missing <file>")
            fid = self._file_ids.get(file_raw)
            if fid is None:
                fid = self._file_ids[file_raw] = normalise_file_id(file_raw)
            if path_raw is None:
                raise InvalidPath("missing <path>")
            key = (fid, normalise_path(path_raw))
        except InvalidPath as exc:
            self.invalid.hit(topic, f"line {line}: {exc}")
            return
        if key in st.seen:
            self.duplicate.hit(topic)
            return
        st.seen.add(key)
        st.results.append(key)

    def _check_rank(self, st: _Topic, topic: str, rank_raw: str, line: int | None) -> None:
        """Ranks must increase strictly along document order (any start, gaps allowed)."""
        try:
            rank = int(rank_raw)
        except ValueError:
            self.rank_nan.hit(topic, f"line {line}: {rank_raw.strip()!r}")
            return
        if st.last_rank is not None and rank <= st.last_rank:
            self.rank_order.hit(topic, f"line {line}")
        st.last_rank = rank

    def topics(self) -> dict[str, list[tuple[str, str]]]:
        return {t: st.results for t, st in self._topics.items()}

    def warnings(self) -> list[str]:
        src = self.source
        out: list[str] = []
        c = self.beyond
        if c.n:
            out.append(
                f"{src}: {c.n} {_plural(c.n, 'result')} beyond MAX_RESULTS={self.max_results} "
                f"dropped ({_topic_list(c)})"
            )
        c = self.invalid
        if c.n:
            out.append(
                f"{src}: {c.n} invalid {_plural(c.n, 'result')} skipped ({_topic_list(c)}); first at {c.first}"
            )
        c = self.duplicate
        if c.n:
            out.append(f"{src}: {c.n} duplicate {_plural(c.n, 'result')} dropped ({_topic_list(c)})")
        c = self.rank_order
        if c.n:
            out.append(
                f"{src}: rank disagrees with document order for {c.n} {_plural(c.n, 'result')} "
                f"({_topic_list(c)}; first at {c.first}); document order used"
            )
        c = self.rank_nan
        if c.n:
            out.append(
                f"{src}: {c.n} non-integer rank {_plural(c.n, 'value')} ignored "
                f"({_topic_list(c)}; first at {c.first}); document order used"
            )
        return out + self.extra


def _plural(n: int, word: str) -> str:
    return word if n == 1 else word + "s"


def _topic_list(c: _Count) -> str:
    ids = list(c.topics)
    shown = ", ".join(ids[:_MAX_TOPICS_LISTED])
    more = f" and {len(ids) - _MAX_TOPICS_LISTED} more" if len(ids) > _MAX_TOPICS_LISTED else ""
    return f"{_plural(len(ids), 'topic')} {shown}{more}"
