"""Question-answering answer files: answer synsets and correctness levels (docs/formats.md §11.1).

One line per answer string, tab-separated::

    question-id  synset-id  level  answer string

``level`` is ``S``, ``A`` or ``B`` (any case; its gain is GAINS') or a
positive number, which is then the gain itself.  The lines of one synset
id within a question form one answer synset AS(i); a synset's best level
xmax(i) is that of its string with the highest gain.  A question whose
only synset holds only the string ``NIL`` is a NIL question; ``NIL`` beside
other strings of a question is an error.

Variants accepted: blank lines, ``#`` comment lines (a ``#`` after the
first column is part of the answer), CRLF line ends, a byte order mark
(UTF-8, or UTF-16/32 with one), gzip, and one header line before the
first answer (its first column ``question-id``, ``qid``, ``question`` or
``topic``, and its third not a level).  The same string twice in one
synset with one level is kept once, with a warning.

Every error names its file and line; the question it belongs to is left
out of the evaluation (:attr:`AnswerSet.problems`), the other questions
are kept.  A file that cannot be read at all is one problem.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Callable, Iterable

from inexeval.errors import InputError
from inexeval.records import field, record

__all__ = ["AnswerString", "Synset", "Question", "AnswerSet", "read_answer_files", "parse_level",
           "LETTER_LEVELS", "NIL", "text_lines", "read_bytes"]

#: The letter levels, best first (seed 003 §3.2).
LETTER_LEVELS = ("S", "A", "B")
#: The answer string of a NIL question (no answer exists in the collection).
NIL = "NIL"
_HEADER_ID = re.compile(r"(?i)(q(uestion)?[-_ ]?id|question|topic([-_ ]?id)?|#?qid)")


@record(frozen=True)
class AnswerString:
    """One line of the answer file: a string a(i, j) with its level x(i, j)."""

    text: str
    level: str | float  # "S", "A", "B", or the gain itself
    line: int


@record
class Synset:
    """An answer synset AS(i): its id as written and its strings in file order."""

    id: str
    strings: list[AnswerString] = field(default_factory=list)


@record
class Question:
    """The answer data of one question."""

    qid: str
    source: str
    synsets: list[Synset] = field(default_factory=list)  # first-appearance order
    line: int = 0  # its first line

    @property
    def topic(self) -> str:
        """The question id (the scorer names recall-base entries by ``topic``)."""
        return self.qid

    @property
    def nil(self) -> bool:
        """True for a NIL question: one synset whose strings are all ``NIL``."""
        return len(self.synsets) == 1 and all(s.text == NIL for s in self.synsets[0].strings)


@record
class AnswerSet:
    """The questions of the answer files, and what was found wrong in them."""

    questions: dict[str, Question] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    problems: list[InputError] = field(default_factory=list)
    left_out: set[str] = field(default_factory=set)  # questions left out for the problems


def parse_level(text: str) -> str | float | None:
    """``S``/``A``/``B`` (any case) as the upper-case letter, a positive decimal number (``2``, ``0.5``,
    ``1e-3``: docs/formats.md §1.7; not ``1_0``, ``inf``, ``0x10`` or another script's digits) as a
    float, anything else None."""
    from inexeval.readers.trec_numbers import decimal_number

    t = text.strip()
    if t.upper() in LETTER_LEVELS:
        return t.upper()
    value = decimal_number(t)
    return value if value is not None and value > 0 else None


def text_lines(data: bytes, source: str) -> list[str]:
    """The lines of UTF-8 ``data`` (a byte order mark dropped, CR before LF removed).

    Lines are split at LF only, so that a form feed or a Unicode line
    separator inside an answer stays in it.  Not UTF-8: InputError with the line.
    """
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise InputError(f"not valid UTF-8 ({exc.reason})", source, line) from None
    lines = text.removeprefix("\ufeff").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [ln[:-1] if ln.endswith("\r") else ln for ln in lines]


def read_bytes(path: str | Path, source: str, what: str = "answer file") -> bytes:
    """The whole content of ``path`` (``-``: standard input), gunzipped when it is gzip data, as
    UTF-8 when it is UTF-16/32 with a byte order mark; InputError naming the file otherwise, also for
    data or a line beyond the bounds of docs/formats.md §1.6."""
    from inexeval.readers import whole_input

    return whole_input(path, source, what, lines=True)


def read_answer_files(paths: Iterable[str | Path], topics: frozenset[str] | None = None,
                      read: Callable[[str | Path, str], bytes] = read_bytes) -> AnswerSet:
    """Read every answer file of ``paths`` (``topics``: keep only those question ids).

    A question given in two files is an error of both (left out).  Never
    raises for bad content: everything found is in the returned set.
    """
    out = AnswerSet()
    bad: dict[str, None] = {}  # questions left out
    seen_in: dict[str, str] = {}  # question -> its file
    for path in paths:
        source = str(path)
        try:
            lines = text_lines(read(path, source), source)
        except InputError as exc:
            out.problems.append(exc)
            continue
        questions = _parse(lines, source, out, bad)
        for qid, q in questions.items():
            if topics is not None and qid not in topics:
                continue
            if qid in seen_in:
                out.problems.append(InputError(f"question {qid} is also in {seen_in[qid]}; question left out",
                                               source, q.line))
                bad[qid] = None
                continue
            seen_in[qid] = source
            out.questions[qid] = q
    for qid in bad:
        out.questions.pop(qid, None)
    out.left_out.update(bad)
    return out


def _parse(lines: list[str], source: str, out: AnswerSet, bad: dict[str, None]) -> dict[str, Question]:
    """The questions of one file; errors (and the questions they leave out) into ``out``, ``bad``."""
    questions: dict[str, Question] = {}
    first_data = True

    def error(qid: str | None, line: int, message: str) -> None:
        left = f"; question {qid} left out" if qid else ""
        out.problems.append(InputError(message + left, source, line))
        if qid:
            bad[qid] = None

    for n, raw in enumerate(lines, 1):
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        if "\t" not in raw:
            error(raw.split()[0], n, "expected 4 tab-separated columns 'question-id synset-id level answer' (no tab "
                           "found)")
            continue
        cols = [c.strip() for c in raw.split("\t")]
        qid = cols[0] or None
        if first_data and len(cols) == 4 and parse_level(cols[2]) is None and _HEADER_ID.fullmatch(cols[0]):
            first_data = False
            continue  # a header line
        first_data = False
        if len(cols) != 4:
            error(qid, n, f"expected 4 tab-separated columns 'question-id synset-id level answer', found "
                          f"{len(cols)}")
            continue
        qid, sid, level_text, text = cols
        if not qid:
            error(None, n, "empty question id")
            continue
        if not sid:
            error(qid, n, "empty synset id")
            continue
        level = parse_level(level_text)
        if level is None:
            error(qid, n, f"level {level_text!r} is not S, A, B or a positive number")
            continue
        if not text:
            error(qid, n, "empty answer string")
            continue
        q = questions.get(qid)
        if q is None:
            q = questions[qid] = Question(qid, source, line=n)
        syn = next((s for s in q.synsets if s.id == sid), None)
        if syn is None:
            syn = Synset(sid)
            q.synsets.append(syn)
        same = next((s for s in syn.strings if s.text == text), None)
        if same is not None:
            if same.level == level:
                out.warnings.append(f"{source}:{n}: question {qid}: {text!r} repeats line {same.line} of "
                                    f"synset {sid}; read once")
            else:
                error(qid, n, f"{text!r} is also in synset {sid} at line {same.line} with level {same.level}")
            continue
        syn.strings.append(AnswerString(text, level, n))
    for q in questions.values():
        _check_nil(q, error)
    return questions


def _check_nil(q: Question, error: Callable[[str | None, int, str], None]) -> None:
    """``NIL`` must be the only answer of its question (seed 003 §3.2, Example 3)."""
    nils = [s for syn in q.synsets for s in syn.strings if s.text == NIL]
    if nils and not q.nil:
        others = sum(len(syn.strings) for syn in q.synsets) - len(nils)
        error(q.qid, nils[0].line, f"NIL beside {others} other answer string(s) of question {q.qid}: a NIL "
                                   "question has one synset holding only NIL")
