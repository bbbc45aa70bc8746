"""Reader of INEX 2007-2010 passage ("FOL") qrels and runs, read the way inex_eval 3.1 reads them.

Qrels (``docs/inex_eval.md §2``) are "INEX 2008 native" lines
``TOPIC Q0 ARTICLE REL_CHARS DOC_LENGTH [BEP OFFSET:LENGTH ...]``; runs
(``docs/inex_eval.md §3``) are 8-column lines
``TOPIC Q0 ARTICLE RANK RSV RUN_ID OFFSET LENGTH`` or INEX 2008 XML FOL
submissions, which are turned into the same 8-field lines (D4).

How text is cut, exactly as the tool does it (D22): UTF-8, lines end at
``\\n``, ``\\r\\n`` or ``\\r`` (a last line without terminator counts), fields
are separated by runs of ASCII white space (space, TAB, LF, VT, FF, CR) only,
a line that begins with white space has an empty first field, white space at
the end makes no field, an empty line is one empty field and a line of white
space has none.  Integers follow Java's ``Integer.parseInt``: an optional sign
and decimal digits, within 32 bits.

Qrels problems where the tool dies (too few fields, a number that is not an
integer, a passage without ``:``) raise :class:`~inexeval.errors.InputError`
with file and line.  Run lines are kept raw: their fields are checked when the
run is scored, because the tool's messages depend on the task and on the
order of the lines (``inexeval.measures.fol``).  A run file that cannot be
opened raises :class:`FolOpenError`, which carries the tool's own wording of
the problem (``PATH (No such file or directory)``).
"""

from __future__ import annotations

import codecs
import io
import operator
import re
import sys
from collections.abc import Iterator, MutableMapping, Sequence
from pathlib import Path
from typing import NamedTuple

from inexeval.errors import InputError
from inexeval.records import field, record

__all__ = [
    "FolJudgement",
    "FolTopic",
    "FolQrels",
    "FolLine",
    "FolRunFile",
    "FolOpenError",
    "read_fol_qrels",
    "read_fol_run",
    "split_fields",
    "java_int",
    "wrap_int",
]

INT_MIN = -(1 << 31)
INT_MAX = (1 << 31) - 1
#: An unknown passage (OFFSET ``X`` or ``-1``): its size and its start (= end) (docs/inex_eval.md §3.3).
UNKNOWN_SIZE = 18
UNKNOWN_START = -10000

#: Characters that Python's ``str.split()`` takes for white space but Java's ``\\s`` does not.
NON_JAVA_WHITESPACE = (
    "\x1c\x1d\x1e\x1f\x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007"
    "\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
)
_ODD_WS = re.compile("[" + NON_JAVA_WHITESPACE + "]")
_JAVA_WS = re.compile("[ \t\n\x0b\x0c\r]+")
_LEADING_WS = " \t\x0b\x0c"
_JAVA_INT = re.compile(r"[+-]?\d+")  # \d: Unicode decimal digits, as Character.digit(c, 10) accepts
_OFFSET = operator.itemgetter(0)
_DIGITS_AS_ZERO = bytes.maketrans(b"123456789", b"000000000")
_XML_START = re.compile(r"[ \t\n\r\x0b\x0c]*<")
_XML_BYTES_START = re.compile(rb"[ \t\n\r\x0b\x0c]*<")
_BOM = b"\xef\xbb\xbf"


def wrap_int(v: int) -> int:
    """``v`` reduced to a 32-bit two's-complement int (Java int arithmetic)."""
    return ((v + 0x80000000) & 0xFFFFFFFF) - 0x80000000


def java_int(s: str) -> int | None:
    """``Integer.parseInt(s)``, or None where Java throws NumberFormatException."""
    if s.isascii() and s.isdigit():
        v = int(s)
        return v if v <= INT_MAX else None
    if _JAVA_INT.fullmatch(s) is None or max(s) > "\uffff":
        return None
    v = int(s)
    return v if INT_MIN <= v <= INT_MAX else None


def split_fields(line: str) -> list[str]:
    """``line.split("\\\\s+")`` as Java computes it (D22)."""
    if _ODD_WS.search(line) is not None:
        fields = _JAVA_WS.split(line)
        while fields and fields[-1] == "":
            fields.pop()
        return fields if fields or line != "" else [""]
    fields = line.split()
    if not fields:
        return [] if line else [""]
    if line[0] in _LEADING_WS:
        fields.insert(0, "")
    return fields


def _split_plain(lines: list[str]) -> list[list[str]]:
    """split_fields over lines known to hold no non-Java white space (the fast path)."""
    out = [ln.split() for ln in lines]
    for i, fields in enumerate(out):
        ln = lines[i]
        if not fields:
            if not ln:
                out[i] = [""]
        elif ln[0] in _LEADING_WS:
            fields.insert(0, "")
    return out


# --------------------------------------------------------------------------- input


class FolOpenError(InputError):
    """A file that cannot be opened; ``java_message`` is how the tool words it (``IOException error: ...``)."""

    def __init__(self, message: str, file: object, java_message: str):
        super().__init__(message, file)
        self.java_message = java_message


#: The name of the error handler (:func:`_java_replacement`) that decodes as Java's UTF-8 decoder does.
JAVA_UTF8 = "inexeval-java-utf8"


def _java_replacement(err: UnicodeDecodeError) -> tuple[str, int]:
    """Python's ``replace``, but for an encoded surrogate: Java 17's UTF-8 decoder (which the tool reads
    its files with under a UTF-8 locale) takes ED A0..BF and its continuation byte as one malformed
    sequence, one U+FFFD (two bytes when the third is not a continuation), where Python replaces each
    byte.  Every other malformed sequence is replaced alike (checked on 60,000 random byte strings)."""
    data, i = err.object, err.start
    if data[i] == 0xED and i + 1 < len(data) and 0xA0 <= data[i + 1] <= 0xBF:
        return "\ufffd", i + 3 if i + 2 < len(data) and 0x80 <= data[i + 2] <= 0xBF else i + 2
    return "\ufffd", err.end


codecs.register_error(JAVA_UTF8, _java_replacement)


def _read_text(path: str | Path, xml: bool = False) -> tuple[str, str]:
    """(text, display name) of PATH (``-``: standard input), gunzipped when gzip-compressed, decoded
    as the tool decodes UTF-8 (:func:`_java_replacement`).

    Compressed data is decompressed as a stream, within the bounds of docs/formats.md §1.6, and so
    are the lines (``\n``, ``\r\n`` or ``\r`` ends, as the tool reads them) unless XML allows
    an XML document (a FOL submission) and the text is one.  The lines of a text that is not an XML
    document come back ending in ``\n`` (what every reader of the lines would make of them: once here)."""
    from inexeval.readers import LineBound, as_utf8, bounded_content, stdin_bytes

    name = "<stdin>" if str(path) == "-" else str(path)

    def unreadable(reason: str) -> FolOpenError:
        return FolOpenError(f"cannot read: {reason}", name, f"{path} ({reason})")

    if str(path) == "-":
        data = bounded_content(stdin_bytes(name), name, unreadable=unreadable)
    else:
        try:
            fh = open(path, "rb")  # noqa: SIM115 (closed below)
        except OSError as exc:
            raise unreadable(exc.strerror or str(exc)) from None
        with fh:
            data = bounded_content(fh, name, unreadable=unreadable)
    # UTF-16/32 is converted and a byte order mark dropped (the tool would keep it in the first
    # topic id; docs/formats.md §1.5, docs/decisions.md)
    data = as_utf8(data, name)
    if not (xml and _XML_BYTES_START.match(data, 3 if data.startswith(_BOM) else 0)):
        if b"\r" in data:
            data = data.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
        LineBound.check_all(data, name)
    return data.decode("utf-8", errors=JAVA_UTF8).removeprefix("\ufeff"), name


def _lines(text: str) -> list[str]:
    """The lines of TEXT as Java's ``BufferedReader.readLine`` returns them."""
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return lines


def _has_odd_white_space(text: str) -> bool:
    """True when TEXT holds white space that ``str.split()`` splits at and Java does not."""
    if text.isascii():  # then only the four separators 0x1C-0x1F; str.find is a memchr scan
        return any(c in text for c in NON_JAVA_WHITESPACE[:4])
    return _ODD_WS.search(text) is not None


def _has_ten_digits(text: str) -> bool:
    """True when ASCII TEXT holds a run of 10 or more digits (a number that may not fit in an int)."""
    return b"0000000000" in text.encode("ascii").translate(_DIGITS_AS_ZERO)


def _split_all(lines: list[str], odd: bool) -> list[list[str]]:
    """The fields of every line (D22); ``odd``: the text has white space that Java does not split at."""
    return [split_fields(ln) for ln in lines] if odd else _split_plain(lines)


def _split_plain_one(line: str) -> list[str]:
    """split_fields of a line known to hold no non-Java white space (the fast path)."""
    fields = line.split()
    if not fields:
        return fields if line else [""]
    if line[0] in _LEADING_WS:
        fields.insert(0, "")
    return fields


class LazyFields(Sequence):
    """The fields of each raw line, split when asked for (D22).

    A run keeps its raw lines only: lists of eight field strings per line
    would take several times the file's size, and the scorer reads each
    line's fields once, in file order.
    """

    __slots__ = ("_raw", "_split")

    def __init__(self, raw: list[str], odd: bool):
        self._raw = raw
        self._split = split_fields if odd else _split_plain_one

    @property
    def plain(self) -> bool:
        """True when the lines hold no white space that Python's ``str.split()`` and Java split differently."""
        return self._split is _split_plain_one

    def __len__(self) -> int:
        return len(self._raw)

    def __getitem__(self, i):
        if isinstance(i, slice):
            out = LazyFields(self._raw[i], False)
            out._split = self._split
            return out
        return self._split(self._raw[i])

    def __iter__(self):
        return map(self._split, self._raw)


# --------------------------------------------------------------------------- qrels


@record(slots=True)
class FolJudgement:
    """One (topic, article) judgement: the first line's REL_CHARS and DOC_LENGTH, the last BEP, every passage.

    ``passages`` are ``(offset, length)`` sorted by offset (equal offsets in
    file order); ``spans`` are the same passages as ``(start, end)`` with
    ``end = offset + length`` in int arithmetic (D17), filled by the reader.
    """

    rel_chars: int
    doc_length: int
    bep: int = -1
    passages: list[tuple[int, int]] = field(default_factory=list)
    spans: list[tuple[int, int]] = field(default_factory=list)


@record(slots=True)
class FolTopic:
    """A qrels topic: ``num_rel`` relevant lines, ``rel_size`` their REL_CHARS, judgements by article id.

    ``rel_size`` is summed as the tool sums it, in 32-bit int arithmetic (D17).
    """

    num_rel: int = 0
    rel_size: int = 0
    judgements: dict[str, FolJudgement] = field(default_factory=dict)


@record(slots=True)
class FolQrels:
    """Every topic that has a qrels line, in file order; ``source`` names the file.

    ``int_problem``: the first line where the tool's int arithmetic wraps around (an InputError naming
    it, :func:`read_fol_qrels`), None if there is none; the config path refuses to score against
    such qrels (``score_fol_run(bounded=True)``), the drop-in computes as the tool does."""

    topics: dict[str, FolTopic]
    source: str
    int_problem: InputError | None = None
    #: The judgements as columns (``fol_qrels_arrays.QrelsColumns``) when read with numpy; not copied by
    #: ``records.replace`` (a copy with other topics has none).
    columns: object = field(default=None, init=False, repr=False, compare=False)


#: Qrels lines from which they are read with numpy (:mod:`inexeval.readers.fol_qrels_arrays`) although
#: numpy is not imported yet: its import (about 0.06 s) costs what the line loop takes for about
#: 5,000 lines.
QRELS_ARRAY_LINES = 5_000
_ARRAY_BYTES = QRELS_ARRAY_LINES * 200  # the lines are counted in this much text at most


def read_fol_qrels(path: str | Path) -> FolQrels:
    """Read FOL qrels (plain or gzip; ``-`` is standard input) as inex_eval 3.1 does (``docs/inex_eval.md §2``).

    A second line for the same (topic, article) counts again in num_rel and
    rel_size when its REL_CHARS > 0, adds its passages and replaces the BEP;
    its other values are ignored (D2).  Raises InputError (file, line) where
    the tool dies.

    Every int sum and passage end wraps around at 32 bits, as the tool computes them (D17; the
    inex-eval drop-in).  The first line where that happens, giving negative sizes, is kept as
    ``int_problem`` (docs/formats.md §1.7): a passage ending past 2^31 − 1 (OFFSET + LENGTH), the
    passages of one judgement longer than 2^31 − 1 together, or REL_CHARS adding up past 2^31 − 1
    in a topic or in all topics; so is the first passage with a negative LENGTH (the tool counts its
    characters as negative).
    """
    text, source = _read_text(path)
    if "numpy" in sys.modules or text.count("\n", 0, _ARRAY_BYTES) >= QRELS_ARRAY_LINES:
        from inexeval.heap import keep_freed_memory
        from inexeval.readers.fol_qrels_arrays import read

        keep_freed_memory()  # the qrels and each run are read and walked as many arrays of a few MB
        columns = read(text)
        if columns is not None:
            return _qrels_of_columns(columns, source)
    return qrels_from_lines(text, source)


class ReadColumns(NamedTuple):
    """``FolQrels.columns``: the qrels' ``topics`` dict they were read into, its ``judgements`` in topic
    order (each topic's in its order; a :class:`JudgementStore`) and ``arrays``
    (``fol_qrels_arrays.QrelsColumns``)."""

    topics: dict
    judgements: JudgementStore
    arrays: object


class JudgementStore:
    """The judgements of qrels read as columns (``fol_qrels_arrays.QrelsColumns``), in topic order, each
    made a :class:`FolJudgement` when first asked for (``store[j]``): an evaluation that reads the
    columns only (``measures.fol_arrays``) makes few of them, and ten thousand take 20 ms."""

    __slots__ = ("columns", "_made", "_lists")

    def __init__(self, columns):
        self.columns = columns
        self._made: list[FolJudgement | None] = [None] * len(columns.names)
        self._lists: tuple | None = None  # the columns as lists, for judgements made one at a time

    def __len__(self) -> int:
        return len(self._made)

    def __getitem__(self, j: int) -> FolJudgement:
        made = self._made[j]
        if made is None:
            made = self._made[j] = self._one(j)
        return made

    def _one(self, j: int) -> FolJudgement:
        if self._lists is None:
            c = self.columns
            self._lists = tuple(a.tolist() for a in (c.rel_chars, c.doc_length, c.bep, c.first, c.count, c.k, c.l))
        rel_chars, doc_length, bep, first, count, k, l = self._lists
        a = first[j]
        starts, ends = k[a:a + count[j]], l[a:a + count[j]]
        return FolJudgement(rel_chars[j], doc_length[j], bep[j], [(x, y - x) for x, y in zip(starts, ends)],
                            list(zip(starts, ends)))

    def span(self, lo: int, hi: int) -> list[FolJudgement]:
        """Judgements LO to HI."""
        return [self[j] for j in range(lo, hi)]


class TopicJudgements(MutableMapping):
    """``FolTopic.judgements`` of qrels read as columns: article id -> :class:`FolJudgement`, in the
    order of their first line, as the dict the line loop builds; made a dict on first use (its length
    is known before)."""

    __slots__ = ("_store", "_lo", "_hi", "_dict")

    def __init__(self, store: JudgementStore, lo: int, hi: int):
        self._store, self._lo, self._hi = store, lo, hi
        self._dict: dict[str, FolJudgement] | None = None

    def _made(self) -> dict[str, FolJudgement]:
        if self._dict is None:
            lo, hi = self._lo, self._hi
            self._dict = dict(zip(self._store.columns.names[lo:hi], self._store.span(lo, hi)))
        return self._dict

    def __len__(self) -> int:
        return self._hi - self._lo if self._dict is None else len(self._dict)

    def __getitem__(self, article: str) -> FolJudgement:
        return self._made()[article]

    def get(self, article, default=None):
        return self._made().get(article, default)

    def __contains__(self, article) -> bool:
        return article in self._made()

    def __iter__(self) -> Iterator[str]:
        return iter(self._made())

    def __setitem__(self, article: str, judgement: FolJudgement) -> None:
        self._made()[article] = judgement

    def __delitem__(self, article: str) -> None:
        del self._made()[article]

    def items(self):
        return self._made().items()

    def values(self):
        return self._made().values()

    def keys(self):
        return self._made().keys()

    def __eq__(self, other) -> bool:
        return self._made() == (other._made() if isinstance(other, TopicJudgements) else other)

    __hash__ = None  # a mutable mapping, as dict

    def __repr__(self) -> str:
        return repr(self._made())


def _qrels_of_columns(c, source: str) -> FolQrels:
    """The FolQrels of the columns C (``fol_qrels_arrays.QrelsColumns``) read from SOURCE; its judgements
    are made when first used (:class:`TopicJudgements`)."""
    store = JudgementStore(c)
    bounds = c.topic_first
    topics = {t: FolTopic(n, rs, TopicJudgements(store, bounds[i], bounds[i + 1]))
              for i, (t, n, rs) in enumerate(zip(c.topics, c.num_rel, c.rel_size.tolist()))}
    qrels = FolQrels(topics=topics, source=source)
    qrels.columns = ReadColumns(topics, store, c)
    return qrels


def qrels_from_lines(text: str, source: str) -> FolQrels:
    """:func:`read_fol_qrels` of TEXT, the qrels of SOURCE, line by line (the reference of
    :mod:`inexeval.readers.fol_qrels_arrays`, which reads most qrels as arrays)."""
    lines = _lines(text)
    odd = _has_odd_white_space(text)
    all_fields = _split_all(lines, odd)
    # ASCII without '_', odd white space or 10-digit numbers: int() accepts exactly what Java accepts
    fast = text.isascii() and not odd and "_" not in text and not _has_ten_digits(text)
    parse = int if fast else _strict_int
    topics: dict[str, FolTopic] = {}
    touched: list[FolJudgement] = []
    all_rel_size = 0  # REL_CHARS > 0 of every topic (the "all" rel_size)
    problem: InputError | None = None  # the first line where the tool's ints wrap around
    lengths: dict[int, int] = {}  # id of a judgement's passages -> their positive lengths, added up
    for number, fields in enumerate(all_fields, 1):
        try:
            rel_chars = parse(fields[3])
            doc_length = parse(fields[4])
            topic = topics.get(fields[0])
            if topic is None:
                topic = topics[fields[0]] = FolTopic(0, 0, {})
            if rel_chars > 0:
                topic.num_rel += 1
                topic.rel_size += rel_chars
                all_rel_size += rel_chars
                if (topic.rel_size > INT_MAX or all_rel_size > INT_MAX) and problem is None:
                    whose = f"topic {fields[0]!r}" if topic.rel_size > INT_MAX else "all topics"
                    problem = _past_int(source, number, f"the REL_CHARS of {whose} add up past {INT_MAX}")
                if topic.rel_size > INT_MAX:  # the tool's int sum wraps around (D17)
                    topic.rel_size = wrap_int(topic.rel_size)
            judgement = topic.judgements.get(fields[2])
            if judgement is None:
                judgement = topic.judgements[fields[2]] = FolJudgement(rel_chars, doc_length, -1, [], [])
            if len(fields) >= 7:
                judgement.bep = parse(fields[5])
                passages = judgement.passages
                if not passages:
                    touched.append(judgement)
                for item in fields[6:]:
                    parts = item.split(":")
                    passages.append((parse(parts[0]), parse(parts[1])))
                if problem is None:
                    problem = _check_passages(source, number, fields[2], fields[6:], passages, lengths)
        except (ValueError, IndexError):
            raise _qrels_problem(source, number, lines[number - 1], fields) from None
    for judgement in touched:
        passages = judgement.passages
        if len(passages) > 1:
            passages.sort(key=_OFFSET)  # stable: equal offsets stay in file order
        judgement.spans = [(o, e if INT_MIN <= (e := o + n) <= INT_MAX else wrap_int(e)) for o, n in passages]
    return FolQrels(topics=topics, source=source, int_problem=problem)


def _past_int(source: str, number: int, what: str) -> InputError:
    return InputError(f"{what}: inex_eval 3.1's int arithmetic wraps around there, giving negative sizes; "
                      "inexeval scores no run against these qrels (the inex-eval drop-in computes as the tool "
                      "does; docs/formats.md §1.7)", source, number)


def _check_passages(source: str, number: int, article: str, items: list[str],
                    passages: list[tuple[int, int]], lengths: dict[int, int]) -> InputError | None:
    """Where the tool's ints wrap around in a qrels line's passages (the last ``len(items)`` of
    PASSAGES, the judgement's): an end past 2^31 − 1, or the judgement's passages longer than
    2^31 − 1 together (LENGTHS: their positive lengths so far, by id of the list)."""
    total = lengths.get(id(passages), 0)
    for item, (o, n) in zip(items, passages[len(passages) - len(items):]):
        if o + n > INT_MAX:
            return _past_int(source, number, f"passage {item!r} ends past {INT_MAX} (OFFSET + LENGTH = {o + n})")
        if n < 0:
            return InputError(f"passage {item!r} has a negative LENGTH: inex_eval 3.1 counts its characters as "
                              "negative, giving negative sizes; inexeval scores no run against these qrels (the "
                              "inex-eval drop-in computes as the tool does; docs/formats.md §1.7)", source, number)
        if n > 0:
            total += n
    lengths[id(passages)] = total
    if total > INT_MAX:
        return _past_int(source, number, f"the passages of article {article!r} are longer than {INT_MAX} together")
    return None


def _strict_int(s: str) -> int:
    v = java_int(s)
    if v is None:
        raise ValueError(s)
    return v


def _qrels_problem(source: str, number: int, line: str, fields: list[str]) -> InputError:
    """The InputError for a qrels line on which the tool dies (the first problem in the tool's order)."""
    if len(fields) < 5:
        what = "an empty line" if not fields or fields == [""] else f"{len(fields)} fields"
        return InputError(f"{what} in the qrels: a judgement has at least 5 fields "
                          "(TOPIC Q0 ARTICLE REL_CHARS DOC_LENGTH [BEP OFFSET:LENGTH ...])", source, number)
    for i, name in ((3, "REL_CHARS"), (4, "DOC_LENGTH")) + (((5, "BEP"),) if len(fields) >= 7 else ()):
        if java_int(fields[i]) is None:
            return InputError(f"{name} is not a 32-bit integer: {fields[i]!r}", source, number)
    for item in fields[6:]:
        parts = item.split(":")
        if len(parts) < 2:
            return InputError(f"passage without ':' (OFFSET:LENGTH expected): {item!r}", source, number)
        if java_int(parts[0]) is None or java_int(parts[1]) is None:
            return InputError(f"passage OFFSET:LENGTH whose parts are not 32-bit integers: {item!r}", source, number)
    return InputError(f"unreadable judgement: {line!r}", source, number)  # pragma: no cover - not reached


# --------------------------------------------------------------------------- runs


class FolLine(NamedTuple):
    """One run line: 1-based line number, the line without terminator, its fields (D22)."""

    line: int
    raw: str
    fields: list[str]


class FolRunFile:
    """A run as lines in file order (``xml``: read from an INEX 2008 XML FOL submission, D4).

    Built either from a list of :class:`FolLine` or, by the reader, from
    parallel columns (line numbers, raw lines, fields) that the scorer reads
    without building one object per line; ``lines`` gives the FolLine view
    either way.
    """

    __slots__ = ("source", "xml", "_lines", "_numbers", "_raw", "_fields", "arrays")

    def __init__(self, source: str, lines: list[FolLine] | None = None, xml: bool = False):
        self.source = source
        self.xml = xml
        self._lines = None if lines is None else list(lines)
        self._numbers: list[int] | None = None
        self._raw: list[str] = []
        self._fields: list[list[str]] = []
        #: the run's fields as arrays, once split (:mod:`inexeval.readers.fol_run_arrays`), until let go
        self.arrays: tuple | None = None

    def __getstate__(self) -> dict:
        """Pickled (sent to or from a forked process) without ``arrays``, which are made again."""
        return {k: getattr(self, k) for k in self.__slots__ if k != "arrays"}

    def __setstate__(self, state: dict) -> None:
        for k, v in state.items():
            setattr(self, k, v)
        self.arrays = None

    @classmethod
    def from_columns(cls, source: str, raw: list[str], fields: list[list[str]],
                     numbers: list[int] | None = None, xml: bool = False) -> FolRunFile:
        """A run from raw lines and their fields; ``numbers`` None means lines 1, 2, …"""
        run = cls(source, None, xml)
        run._raw, run._fields, run._numbers = raw, fields, numbers
        return run

    @property
    def lines(self) -> list[FolLine]:
        if self._lines is None:
            numbers = self._numbers or range(1, len(self._raw) + 1)
            self._lines = [FolLine(n, r, f) for n, r, f in zip(numbers, self._raw, self._fields)]
        return self._lines

    def columns(self) -> tuple[list[int] | None, list[str], list[list[str]]]:
        """(line numbers or None for 1, 2, …; raw lines; fields) in file order."""
        if self._lines is not None:
            return [ln.line for ln in self._lines], [ln.raw for ln in self._lines], [ln.fields for ln in self._lines]
        return self._numbers, self._raw, self._fields

    def plain_text(self) -> str | None:
        """The text run's lines joined by ``\\n`` when ``str.split()`` splits them as Java does (no
        non-Java white space; leading white space is still the caller's to look for), else None (XML
        runs, runs built from FolLine objects): for readers of the whole run at once
        (:mod:`inexeval.measures.fol_arrays`)."""
        if self._lines is not None or self.xml or not isinstance(self._fields, LazyFields) or not self._fields.plain:
            return None
        return "\n".join(self._raw)

    def __len__(self) -> int:
        return len(self._lines) if self._lines is not None else len(self._raw)

    def __repr__(self) -> str:
        return f"FolRunFile({self.source!r}, {len(self)} lines, xml={self.xml})"


def read_fol_run(path: str | Path) -> FolRunFile:
    """Read a FOL run: 8-column text (plain or gzip; ``-`` is standard input) or INEX 2008 XML (D4).

    Text lines are kept as they are, with their fields; nothing is checked
    here.  An XML submission gives one 8-field line per ``<result>`` (see
    :func:`_xml_lines`).  Raises FolOpenError for a file that cannot be
    opened and InputError for bad gzip data or an XML submission that has no
    text equivalent.
    """
    text, source = _read_text(path, xml=True)
    if _XML_START.match(text):
        raw, numbers = _xml_lines(text, source)
        return FolRunFile.from_columns(source, raw, [split_fields(r) for r in raw], numbers, xml=True)
    odd = _has_odd_white_space(text)
    lines = _lines(text)
    del text
    return FolRunFile.from_columns(source, lines, LazyFields(lines, odd))


def _xml_lines(text: str, source: str) -> tuple[list[str], list[int]]:
    """The 8-field text lines of an INEX 2008 XML FOL submission and the source line of each ``<result>``.

    TOPIC = the enclosing ``<topic>``'s ``topic-id``, ARTICLE = ``<file>``
    trimmed, RANK = ``<rank>`` (else the result's position in its
    ``<topic>``), RSV = ``<rsv>`` (else 0), RUN_ID = the root's ``run-id``,
    OFFSET and LENGTH = the ``<fol>``'s attributes verbatim.  RANK and RSV are
    never read by the scorer (D3).
    """
    from inexeval.readers import refuse_entity_declarations, release, safe_iterparse

    data = text.encode("utf-8")
    refuse_entity_declarations(data, source)
    raw: list[str] = []
    numbers: list[int] = []
    run_id: str | None = None
    topic_id: str | None = None
    position = 0
    for event, elem in safe_iterparse(io.BytesIO(data), source, events=("start", "end")):
        tag = elem.tag
        if event == "start":
            if run_id is None:
                if tag != "inex-submission":
                    raise InputError(f"XML run: the root element is <{tag}>, not <inex-submission>", source,
                                     elem.sourceline)
                run_id = elem.get("run-id")
                if run_id is None or not run_id.strip() or len(split_fields(run_id)) != 1:
                    raise InputError("XML run: the root element has no usable run-id attribute", source,
                                     elem.sourceline)
            elif tag == "topic":
                topic_id = elem.get("topic-id")
                position = 0
                if topic_id is None:
                    raise InputError("XML run: <topic> without topic-id", source, elem.sourceline)
            continue
        if tag == "result":
            if topic_id is None:
                raise InputError("XML run: <result> outside a <topic>", source, elem.sourceline)
            position += 1
            fols = elem.findall("fol")
            if len(fols) != 1:
                raise InputError(f"XML run: a <result> needs exactly one <fol> (found {len(fols)})", source,
                                 elem.sourceline)
            offset, length = fols[0].get("offset"), fols[0].get("length")
            if offset is None or length is None:
                raise InputError("XML run: <fol> without offset or length attribute", source, fols[0].sourceline)
            article = (elem.findtext("file") or "").strip()
            rank = _token(elem.findtext("rank"), str(position))
            rsv = _token(elem.findtext("rsv"), "0")
            raw.append(" ".join((topic_id, "Q0", article, rank, rsv, run_id, offset, length)))
            numbers.append(elem.sourceline or 0)
            release(elem)
        elif tag == "topic":
            topic_id = None
    return raw, numbers


def _token(value: str | None, default: str) -> str:
    """VALUE trimmed when it is a single field, else DEFAULT (RANK and RSV are placeholders)."""
    if value is None:
        return default
    value = value.strip()
    return value if value and len(split_fields(value)) == 1 else default
