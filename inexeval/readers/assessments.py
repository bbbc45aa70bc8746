"""INEX 2005/2006 assessment files -> :class:`~inexeval.model.Assessments` (docs/formats.md §1.2).

One XML file per pool, as written by the INEX assessment tool::

    <assessments pool="1234" topic="202">
      <inex_topic topic_id="202" query_type="CO+S"/>
      <file name="co/2000/r7108">
        <best-entry-point path="/article[1]/bdy[1]/sec[2]"/>
        <element path="/article[1]/bdy[1]/sec[2]" exhaustivity="1" size="2064" rsize="2064"/>
      </file>
      <file name="an/1995/a1004"/>   <!-- judged, nothing relevant -->
    </assessments>

Loading is two passes.  The first reads only each file's header (root
attributes and ``<inex_topic>``) to learn its topic, pool and query type;
then TOPICS, pool selection and QUERY_TYPE decide which file serves each
topic; only those files are read in full.  A broken file that is not
selected therefore does not stop the evaluation.

A file may be gzip-compressed (``*.xml.gz``, or gzip data in a ``*.xml``),
UTF-16 or UTF-32 with a byte order mark, or ``-`` (standard input).  With a
``problems`` list, a file that cannot be used is reported there and left out
instead of stopping the evaluation (docs/formats.md §1.5): a file whose
header cannot be read is skipped (its topic is not known); a selected file
that cannot be read in full leaves its topic out, as does a topic whose pool
files cannot be chosen between.  Entries of ``ASSESSMENTS_DIR`` that are not
assessment files by name are listed in one warning.

Exhaustivity order for the parent/child consistency warning: ``?`` and an
explicit ``0`` both rank below ``1`` (docs/formats.md §1.2: ``? < 1 < 2``), and are not
ordered against each other; an absent (unknown) exhaustivity is not compared.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Sequence
from pathlib import Path

from inexeval.aggregate import natural_key
from inexeval.model import InputFile
from inexeval.errors import EmptySelection, InputError, InvalidPath
from inexeval.model import E_TOO_SMALL, Assessments, FileAssessment, Judgement, TopicAssessment
from inexeval.paths import normalise_file_id, normalise_path
from inexeval.readers import STDIN, refuse_entity_declarations, release, safe_iterparse, whole_input
from inexeval.records import record

__all__ = ["ASSESSMENT_NAMES", "PoolHeader", "RawPassage", "load_assessments", "read_header", "read_passages",
           "read_pool_file"]

_ROOT = "assessments"
_E_ATTRS = ("exhaustivity", "E", "exhaustiveness")
_E_VALUES = {"2": 2, "1": 1, "0": 0, "?": E_TOO_SMALL}
_E_RANK = {2: 2, 1: 1, 0: 0, E_TOO_SMALL: 0}  # ? and 0 both below 1 (module docstring)
_COUNT = re.compile(r"[0-9]+|[0-9]{1,3}(?:,[0-9]{3})+")  # plain or with thousands separators
_TOPIC_DIR = re.compile(r"topic-([0-9]+)", re.I)
_POOL_FILE = re.compile(r"pool-([0-9]+)\.xml(?:\.gz)?", re.I)
#: names of assessment files (the rest of ASSESSMENTS_DIR is listed in a warning)
ASSESSMENT_NAMES = (".xml", ".xml.gz")
_NAMES = ASSESSMENT_NAMES  # the old name


@record(frozen=True, slots=True)
class PoolHeader:
    """What the first pass learns about one assessment file."""

    input: InputFile
    topic: str
    pool: str | None
    query_type: str | None

    @property
    def source(self) -> str:
        return _source(self.input.path)


def load_assessments(
    files: Sequence[InputFile],
    *,
    pools: frozenset[str] | None = None,
    topics: frozenset[str] | None = None,
    query_type: str | None = None,
    require_exhaustivity: bool = False,
    on_topic: Callable[[TopicAssessment], None] | None = None,
    problems: list[InputError] | None = None,
) -> Assessments:
    """Read the assessment files of ``files`` (names ending in ``.xml`` or ``.xml.gz``, or ``-``)
    into the recall-base topics.

    ``pools`` and ``topics`` are whitelists (POOLS, TOPICS); ``query_type``
    keeps topics whose ``inex_topic/@query_type`` matches it, ignoring case
    and ``+`` (QUERY_TYPE).  With ``require_exhaustivity`` an element without
    an exhaustivity attribute is an error (strict and genLifted need it).
    ``on_topic`` is called with each topic as soon as it is read (before the
    next one), so that a caller can condense it and keep memory bounded.
    Raises :class:`~inexeval.errors.InputError` with file and line, unless
    ``problems`` is given: then each file or topic that cannot be used is
    appended to it and left out (module docstring).
    """
    warnings: list[str] = []

    def skip(exc: InputError, consequence: str) -> None:
        if problems is None:
            raise exc
        problems.append(InputError(f"{exc.message}; {consequence}", exc.file, exc.line))

    wanted = None if topics is None else {t.strip() for t in topics}
    read: list[InputFile] = []  # assessment files by name, and entries a listing could not read
    others: list[InputFile] = []
    for f in files:
        by_name = str(f.path) == STDIN or f.path.name.lower().endswith(ASSESSMENT_NAMES)
        (read if by_name or f.problem is not None else others).append(f)
    if others:
        listing = ", ".join(str(f.path) for f in others[:10]) + (", ..." if len(others) > 10 else "")
        warnings.append(f"ASSESSMENTS_DIR: {len(others)} file(s) not read, their names do not end in .xml or "
                        f".xml.gz: {listing}")
    headers = []
    for f in read:
        try:
            headers.append(read_header(f))
        except InputError as exc:
            topic = _from_parents(f.path, _TOPIC_DIR)
            if topic is not None and wanted is not None and topic not in wanted:
                warnings.append(f"{exc} (a file of topic {topic}, which TOPICS leaves out)")
                continue
            skip(exc, f"file skipped, so topic {topic} is left out" if topic is not None else
                 "file skipped; its topic is not known, so a topic may be missing from the evaluation")

    by_topic: dict[str, list[PoolHeader]] = {}
    for h in headers:
        by_topic.setdefault(h.topic, []).append(h)
    if wanted is not None:
        missing = sorted(wanted - by_topic.keys(), key=natural_key)
        if missing:
            warnings.append(f"TOPICS without an assessment file: {', '.join(missing)}")
        chosen = {t: hs for t, hs in by_topic.items() if t in wanted}
        if by_topic and not chosen:
            raise EmptySelection("TOPICS", f"selects none of the {len(by_topic)} assessed topic(s) "
                                           f"({_some(by_topic)})")
        by_topic = chosen

    selected = _select_pools(by_topic, pools, warnings, skip)
    if by_topic and not selected and pools is not None:
        found = {h.pool for hs in by_topic.values() for h in hs if h.pool is not None}
        raise EmptySelection("POOLS", f"no assessed topic has a file of pool(s) {_some(pools)} "
                                      f"(pools of the assessments: {_some(found) if found else 'none given'})")
    if query_type is not None:
        before = selected
        selected = _filter_query_type(selected, query_type, warnings)
        if before and not selected:
            found = {h.query_type for h in before.values() if h.query_type is not None}
            raise EmptySelection("QUERY_TYPE", f"no assessed topic has query type {query_type!r} "
                                               f"(query types of the assessments: {_some(found)})")

    result = Assessments(warnings=warnings)
    for topic in sorted(selected, key=natural_key):
        try:
            ta = read_pool_file(selected[topic], require_exhaustivity, warnings)
        except InputError as exc:
            skip(exc, f"topic {topic} is left out of the evaluation")
            continue
        if on_topic is not None:
            on_topic(ta)
        result.topics[topic] = ta
    return result


def _some(ids, shown: int = 10) -> str:
    """Up to SHOWN ids in natural order, for a message."""
    ordered = sorted(ids, key=natural_key)
    return ", ".join(ordered[:shown]) + (", ..." if len(ordered) > shown else "")


# --------------------------------------------------------------------------- first pass


def read_header(f: InputFile) -> PoolHeader:
    """Topic, pool and query type of one file, reading only up to its first ``<file>``."""
    source = _source(f.path)
    if f.problem is not None:
        raise InputError(f"assessment file not read: {f.problem}", source)
    data = _read_bytes(f.path)
    refuse_entity_declarations(data, source)
    topic = pool = qtype = None
    root_line: int | None = None
    for event, elem in safe_iterparse(io.BytesIO(data), source, events=("start",)):
        if root_line is None:
            root_line = elem.sourceline
            if elem.tag != _ROOT:
                raise InputError(
                    f"not an INEX assessment file: root element is <{elem.tag}>, expected <{_ROOT}>",
                    source,
                    root_line,
                )
            topic = _attr(elem, "topic")
            pool = _attr(elem, "pool")
        elif elem.tag == "inex_topic":
            topic = topic or _attr(elem, "topic_id")
            qtype = _attr(elem, "query_type")
            break
        elif elem.tag == "file":
            break
    if root_line is None:
        raise InputError("empty assessment file (no XML element)", source, None)
    topic = topic or _from_parents(f.path, _TOPIC_DIR)
    if topic is None:
        raise InputError(
            "no topic id (no topic attribute on <assessments>, no inex_topic/@topic_id, "
            "no topic-NNN directory)",
            source,
            root_line,
        )
    if pool is None:
        m = _POOL_FILE.fullmatch(f.path.name)  # pool-NNN.xml or pool-NNN.xml.gz
        pool = m.group(1) if m else None
    return PoolHeader(f, topic, pool, qtype)


def _source(path: Path) -> str:
    return "<stdin>" if str(path) == STDIN else str(path)


def _read_bytes(path: Path) -> bytes:
    """The file's content as UTF-8 bytes: ``-`` is standard input; gzip data is decompressed;
    UTF-16/32 with a byte order mark is converted (docs/formats.md §1.5)."""
    return whole_input(path, _source(path), "assessment file", located=path, gzip_name=True)


def _attr(elem, name: str) -> str | None:
    value = elem.get(name)
    if value is None:
        return None
    return value.strip() or None


def _from_parents(path: Path, pattern: re.Pattern[str]) -> str | None:
    """The number in the nearest ancestor directory whose name matches ``pattern``."""
    for d in path.parents:
        m = pattern.fullmatch(d.name)
        if m:
            return m.group(1)
    return None


# --------------------------------------------------------------------------- selection


def _select_pools(
    by_topic: dict[str, list[PoolHeader]], pools: frozenset[str] | None, warnings: list[str],
    skip: Callable[[InputError, str], None],
) -> dict[str, PoolHeader]:
    """One file per topic: POOLS whitelist, else the one under a ``main`` directory (docs/formats.md §1.2)."""
    selected: dict[str, PoolHeader] = {}
    unpooled: list[str] = []
    if pools is not None:
        wanted = {p.strip() for p in pools}
        found = {h.pool for hs in by_topic.values() for h in hs}
        missing = sorted(wanted - found, key=natural_key)
        if missing:
            warnings.append(f"POOLS without an assessment file: {', '.join(missing)}")
    for topic, cands in by_topic.items():
        if pools is not None:
            cands = [h for h in cands if h.pool is not None and h.pool in wanted]
            if not cands:
                unpooled.append(topic)
                continue
        if len(cands) > 1:
            mains = [h for h in cands if _under_main(h.input)]
            if len(mains) != 1:
                skip(InputError(_undecided(topic, cands), cands[0].source),
                     f"topic {topic} is left out of the evaluation")
                continue
            cands = mains
        selected[topic] = cands[0]
    if unpooled:
        unpooled.sort(key=natural_key)
        warnings.append(f"topics with no pool in POOLS, left out: {', '.join(unpooled)}")
    return selected


def _undecided(topic: str, cands: list[PoolHeader]) -> str:
    """Why none of a topic's assessment files ``cands`` was chosen, and what would choose one.

    Files that all name the same pool (a copy left beside the original, say) are not told apart
    by POOLS, only by removing one or by a ``main`` directory."""
    pools = {h.pool for h in cands}
    if len(pools) == 1 and None not in pools:
        listing = "; ".join(h.source for h in cands)
        return (f"topic {topic} has {len(cands)} assessment files of the same pool {cands[0].pool}, which POOLS "
                f"cannot tell apart: remove all but one, or put the one to use in a 'main' directory ({listing})")
    listing = "; ".join(f"pool {h.pool or '?'}: {h.source}" for h in cands)
    return (f"topic {topic} has {len(cands)} assessment files and POOLS or a single "
            f"'main' directory does not choose one ({listing})")


def _under_main(f: InputFile) -> bool:
    """True iff a directory between ``f.root`` and the file is named ``main``."""
    try:
        rel = f.path.relative_to(f.root)
    except ValueError:
        return False
    return any(part.lower() == "main" for part in rel.parts[:-1])


def _query_type_key(value: str) -> str:
    return value.replace("+", "").replace(" ", "").upper()


def _filter_query_type(
    selected: dict[str, PoolHeader], query_type: str, warnings: list[str]
) -> dict[str, PoolHeader]:
    """Keep topics whose query type matches (``CO+S`` == ``COS``); keep, with a warning, those without one."""
    want = _query_type_key(query_type)
    kept: dict[str, PoolHeader] = {}
    unknown: list[str] = []
    for topic, h in selected.items():
        if h.query_type is None:
            unknown.append(topic)
            kept[topic] = h
        elif _query_type_key(h.query_type) == want:
            kept[topic] = h
    if unknown:
        unknown.sort(key=natural_key)
        warnings.append(
            f"QUERY_TYPE {query_type}: {len(unknown)} assessment "
            f"{'file has' if len(unknown) == 1 else 'files have'} no inex_topic/@query_type, "
            f"kept (topics {', '.join(unknown)})"
        )
    return kept


# --------------------------------------------------------------------------- second pass


def read_pool_file(h: PoolHeader, require_exhaustivity: bool, warnings: list[str]) -> TopicAssessment:
    """Read every ``<file>``, ``<element>`` and ``<best-entry-point>`` of the selected file.

    The usual layout (``<file>`` children of the root holding the records) is
    read a ``<file>`` at a time (:func:`_read_by_file`); any other layout, and
    any file with an error, is read again event by event (:func:`_read_by_event`),
    whose messages and their order are the reference.
    """
    source = h.source
    data = _read_bytes(h.input.path)  # read again (not kept: only the selected files are read in full)
    refuse_entity_declarations(data, source)
    try:
        ta = _read_by_file(data, h, require_exhaustivity)
    except (InputError, _Unusual):
        ta = None
    if ta is None:
        ta = _read_by_event(data, h, require_exhaustivity)
    _warn_inconsistent(ta, source, warnings)
    return ta


class _Unusual(Exception):
    """A layout :func:`_read_by_file` leaves to :func:`_read_by_event`."""


_RECORDS = ("element", "best-entry-point")


def _read_by_file(data: bytes, h: PoolHeader, require_exhaustivity: bool) -> TopicAssessment:
    """The records, one ``<file>`` end event at a time (one parser event per document, not per
    element); raises :class:`_Unusual` for a ``<file>`` not directly under the root or a record
    outside every ``<file>``."""
    source = h.source
    ta = TopicAssessment(topic=h.topic, pool=h.pool, query_type=h.query_type, source=source)
    synonyms = _may_have_synonyms(data)
    for _event, elem in safe_iterparse(io.BytesIO(data), source, events=("end",), tag=("file", _ROOT)):
        par = elem.getparent()
        if elem.tag == _ROOT:
            if par is not None or any(c.tag != "file" and _has_records(c) for c in elem):
                raise _Unusual
            continue
        if par is None or par.getparent() is not None:
            raise _Unusual
        prev = elem.getprevious()
        while prev is not None:  # what came before: released files, the header, ...
            if prev.tag != "file" and _has_records(prev):
                raise _Unusual
            prev = prev.getprevious()
        current = _start_file(elem, ta, source, elem.sourceline)
        elements, beps = current.elements, current.beps
        for rec in elem.iter(_RECORDS):
            if rec.tag == "element":
                j = _judgement_fast(rec, source, require_exhaustivity, synonyms)
                if j.path in elements:
                    raise _Unusual  # a duplicate: the event reader reports it
                elements[j.path] = j
            else:
                bep = _path(rec, source, rec.sourceline)
                if bep not in beps:
                    beps.append(bep)
        release(elem)
    return ta


def _has_records(elem) -> bool:
    return next(elem.iter(_RECORDS), None) is not None


def _read_by_event(data: bytes, h: PoolHeader, require_exhaustivity: bool) -> TopicAssessment:
    """The records, element by element in document order (every layout; errors in file order)."""
    source = h.source
    ta = TopicAssessment(topic=h.topic, pool=h.pool, query_type=h.query_type, source=source)
    current: FileAssessment | None = None
    tags = ("file", *_RECORDS)
    for event, elem in safe_iterparse(io.BytesIO(data), source, events=("start", "end"), tag=tags):
        tag = elem.tag
        line = elem.sourceline
        if event == "end":
            if tag == "file":
                current = None
            release(elem)
            continue
        if tag == "file":
            current = _start_file(elem, ta, source, line)
        elif current is None:
            raise InputError(f"<{tag}> outside <file>", source, line)
        elif tag == "element":
            j = _judgement(elem, source, line, require_exhaustivity)
            if j.path in current.elements:
                first = current.elements[j.path].line
                raise InputError(
                    f"duplicate element ({current.file}, {j.path}) in one pool, first at line {first}",
                    source,
                    line,
                )
            current.elements[j.path] = j
        else:  # best-entry-point
            bep = _path(elem, source, line)
            if bep not in current.beps:
                current.beps.append(bep)
    return ta


def _start_file(elem, ta: TopicAssessment, source: str, line: int) -> FileAssessment:
    raw = elem.get("name")
    if raw is None:
        raise InputError("<file> without a name attribute", source, line)
    try:
        fid = normalise_file_id(raw)
    except InvalidPath as exc:
        raise InputError(f"invalid file id {raw!r}: {exc}", source, line) from None
    fa = ta.files.get(fid)  # a document listed twice: its elements merge
    if fa is None:
        fa = ta.files[fid] = FileAssessment(file=fid, line=line)
    return fa


def _path(elem, source: str, line: int) -> str:
    raw = elem.get("path")
    if raw is None:
        raise InputError(f"<{elem.tag}> without a path attribute", source, line)
    try:
        return normalise_path(raw)
    except InvalidPath as exc:
        raise InputError(f"invalid path: {exc}", source, line) from None


def _judgement(elem, source: str, line: int, require_exhaustivity: bool) -> Judgement:
    path = _path(elem, source, line)
    size = _count(elem.get("size"), "size", source, line)
    rsize = _count(elem.get("rsize"), "rsize", source, line)
    if size == 0 and rsize > 0:
        raise InputError(f"size is 0 but rsize is {rsize}", source, line)
    if rsize > size:
        raise InputError(f"rsize {rsize} exceeds size {size}", source, line)
    e = _exhaustivity(elem, source, line)
    if e is None and require_exhaustivity:
        raise InputError(
            "element without exhaustivity (exhaustivity, E or exhaustiveness); strict and genLifted need it",
            source,
            line,
        )
    return Judgement(path, e, size, rsize, line)


def _may_have_synonyms(data: bytes) -> bool:
    """False only when no element of DATA can have an ``E`` or ``exhaustiveness`` attribute: the
    text is in an ASCII-compatible encoding (it starts with ``<``, after white space or a UTF-8
    byte order mark, and holds no NUL, which UTF-16 and UTF-32 text would) and neither name
    follows white space in it (an attribute name is never written with a character reference)."""
    head = data[:256]
    if head.startswith(b"\xef\xbb\xbf"):
        head = head[3:]
    if head.lstrip()[:1] != b"<" or b"\0" in data:
        return True
    if b"exhaustiveness" in data:
        return True
    at = data.find(b"E")  # (a capital E is rare in assessments: each one's previous byte is looked at)
    for _ in range(1000):
        if at < 0:
            return False
        if data[at - 1:at] in (b" ", b"\t", b"\n", b"\r"):
            return True
        at = data.find(b"E", at + 1)
    return True


def _judgement_fast(elem, source: str, require_exhaustivity: bool, synonyms: bool = True) -> Judgement:
    """:func:`_judgement` for the usual attributes (plain digits, one exhaustivity attribute with
    a bare code); anything else goes through :func:`_judgement` itself.  SYNONYMS False: the file
    has no ``E`` or ``exhaustiveness`` attribute (:func:`_may_have_synonyms`), which need not be
    looked for then."""
    get = elem.get
    size, rsize = get("size"), get("rsize")
    e = get("exhaustivity")
    if (size is not None and rsize is not None and size.isdigit() and rsize.isdigit() and size.isascii()
            and rsize.isascii() and len(size) <= 15 and len(rsize) <= 15  # < MAX_COUNT
            and (not synonyms or (get("E") is None and get("exhaustiveness") is None))):
        n, r = int(size), int(rsize)
        code = _E_VALUES.get(e) if e is not None else None
        if r <= n and (n > 0 or r == 0) and (code is not None or (e is None and not require_exhaustivity)):
            line = elem.sourceline
            raw = get("path")
            if raw is not None:
                try:
                    return Judgement(normalise_path(raw), code, n, r, line)
                except InvalidPath:
                    pass  # the message comes from _judgement
    return _judgement(elem, source, elem.sourceline, require_exhaustivity)


#: the largest size/rsize accepted: far beyond any document, and it fits every integer array
MAX_COUNT = 10**15


def _count(raw: str | None, name: str, source: str, line: int) -> int:
    """A character count: ``2064`` or ``2,064`` (ASCII digits, XML white space around ignored:
    docs/formats.md §1.7); negative or non-numeric (``1_0``, another script's digits) is an error."""
    if raw is None:
        raise InputError(f"element without a {name} attribute", source, line)
    s = raw.strip(" \t\n\r")
    if _COUNT.fullmatch(s):
        digits = s.replace(",", "")
        if len(digits.lstrip("0")) > len(str(MAX_COUNT)) or int(digits) > MAX_COUNT:
            message = (f"{name} {s[:20]}... ({len(s)} characters) is too large" if len(s) > 20
                       else f"{name} {s} is too large (more than {MAX_COUNT:,} characters)")
            raise InputError(message, source, line)
        return int(digits)
    if s.startswith("-") and _COUNT.fullmatch(s[1:].strip()):
        raise InputError(f"negative {name} {s!r}", source, line)
    raise InputError(f"{name} {s!r} is not a character count", source, line)


def _exhaustivity(elem, source: str, line: int) -> int | None:
    """``2``, ``1``, ``0`` -> int, ``?`` -> E_TOO_SMALL, absent -> None; synonyms must agree."""
    e: int | None = None
    seen: str | None = None
    for name in _E_ATTRS:
        raw = elem.get(name)
        if raw is None:
            continue
        value = _E_VALUES.get(raw.strip())
        if value is None:
            raise InputError(f"{name} {raw.strip()!r} is not one of 2, 1, 0, ?", source, line)
        if seen is not None and value != e:
            raise InputError(f"{seen} and {name} disagree", source, line)
        e, seen = value, name
    return e


def _warn_inconsistent(ta: TopicAssessment, source: str, warnings: list[str]) -> None:
    """One counted warning when listed elements exceed their listed parent (size, rsize or e)."""
    n = 0
    first: int | None = None
    for fa in ta.files.values():
        elements = fa.elements
        for path, j in elements.items():
            cut = path.rfind("/")  # (paths.parent, inlined: once per assessed element)
            pj = elements.get(path[:cut]) if cut > 0 else None
            if pj is None:
                continue
            bad = j.size > pj.size or j.rsize > pj.rsize
            if not bad and j.e is not None and pj.e is not None:
                bad = _E_RANK[j.e] > _E_RANK[pj.e]
            if bad:
                n += 1
                if first is None or j.line < first:
                    first = j.line
    if n:
        what = "element is" if n == 1 else "elements are"
        warnings.append(
            f"{source}: {n} {what} inconsistent with the listed parent "
            f"(larger size, rsize or exhaustivity; first at line {first})"
        )


# --------------------------------------------------------------------------- highlighted passages (2006)


@record(frozen=True, slots=True)
class RawPassage:
    """One ``<passage start="…" end="…"/>`` of a pool file, as written (resolved against the
    collection by :mod:`inexeval.assessments.highlights`; docs/formats.md §10.1)."""

    start: str | None
    end: str | None
    line: int


def read_passages(h: PoolHeader) -> dict[str, list[RawPassage]]:
    """The ``<passage>`` elements of a pool file, per file id (``inexeval assessments`` only:
    evaluation never reads them, so it does not pay for them)."""
    source = h.source
    data = _read_bytes(h.input.path)
    refuse_entity_declarations(data, source)
    out: dict[str, list[RawPassage]] = {}
    current: str | None = None
    for event, elem in safe_iterparse(io.BytesIO(data), source, events=("start", "end"), tag=("file", "passage")):
        if event == "end":
            if elem.tag == "file":
                current = None
            release(elem)
            continue
        if elem.tag == "file":
            try:
                current = normalise_file_id(elem.get("name") or "")
            except InvalidPath as exc:
                raise InputError(f"invalid file id {elem.get('name')!r}: {exc}", source, elem.sourceline) from None
            continue
        if current is None:
            raise InputError("<passage> outside <file>", source, elem.sourceline)
        out.setdefault(current, []).append(RawPassage(_attr(elem, "start"), _attr(elem, "end"), elem.sourceline))
    return out


# the old names (before they were public)
_Header = PoolHeader
_read_header = read_header
_read_pool_file = read_pool_file
