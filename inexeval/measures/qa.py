"""Question answering: ranked exact answers marked against answer synsets (docs/measures.md §11).

Seed 003 §3.2: a question's answer strings a(i, j) are grouped into answer
synsets AS(i), each string has a correctness level x(i, j) (S, A, B, or a
number that is its gain), and xmax(i) is a synset's best level.  A run's
answers o(1) … o(L) (L ≤ L′ = MAX_RESULTS) are *marked* (Figure 1):

- o(r) matching no answer string (under ANSWER_MATCH) is not marked;
- o(r) matching ``NIL`` (only a NIL question has it) is marked only at r = 1;
- otherwise o(r) is marked with the level of the string it matches when
  its synset has no marked answer above it, and not marked when it has (a
  repeated answer keeps its position and earns nothing).

The marked gain list g(r) (gain of the mark, 0 unmarked) and the ideal list
(every synset's best gain, decreasing: R(S) S synsets, then R(A), then R(B)
with the default GAINS, Figure 2) give Q and R exactly as for documents
([Sakai04] eq. 15, 16; the kernels of :mod:`inexeval.measures.xcg`); RR is
1/r of the first marked answer.  R = number of synsets with a positive best
gain; a question with R = 0 has no value (docs/measures.md §10.2).
"""

from __future__ import annotations

import unicodedata
from typing import Sequence

import numpy as np

from inexeval.measures.registry import Measure, Params, TopicContext, TopicInput, register
from inexeval.measures.xcg import q_measure, r_measure
from inexeval.errors import InputError
from inexeval.readers.answers import LETTER_LEVELS, NIL, AnswerSet, AnswerString, Question
from inexeval.records import record

__all__ = ["match_key", "MatchTable", "Mark", "match_table", "mark", "qa_values", "count_values",
           "DEFAULT_GAINS", "MATCH_MODES", "AnswerClash"]

#: GAINS of the letter levels when the config sets none (seed 003 §2.2).
DEFAULT_GAINS = {"S": 3.0, "A": 2.0, "B": 1.0}
#: ANSWER_MATCH values (docs/config.md).
MATCH_MODES = ("exact", "normalised")
STRATEGIES = frozenset({"qa"})


def match_key(text: str, mode: str) -> str:
    """The form two answers are compared in: the string itself (``exact``), or Unicode NFKC,
    case-folded, white space runs as one space, none at the ends (``normalised``)."""
    if mode == "exact":
        return text
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())


def gain_of(level: str | float, gains: dict[str, float]) -> float:
    """A level's gain: GAINS' for a letter, the number itself otherwise."""
    return gains[level] if isinstance(level, str) else float(level)


def gains_of(params_gains) -> dict[str, float]:
    """GAINS of the config (``((letter, gain), ...)`` or None) over the defaults."""
    out = dict(DEFAULT_GAINS)
    for level, g in params_gains or ():
        out[str(level)] = float(g)
    return out


class AnswerClash(ValueError):
    """Two strings of different synsets of one question that ANSWER_MATCH makes the same."""

    def __init__(self, message: str, line: int):
        super().__init__(message)
        self.line = line


@record(frozen=True)
class _Entry:
    synset: int  # index of its synset
    string: AnswerString
    gain: float


@record
class MatchTable:
    """A question prepared for marking: match key -> the string it matches, and the ideal list."""

    entries: dict[str, _Entry]
    synset_ids: list[str]
    ideal: np.ndarray  # best gains of the synsets with a positive one, decreasing
    best_levels: list[str | float]  # xmax(i) of those synsets, same order
    nil: bool


def match_table(q: Question, mode: str, gains: dict[str, float]) -> MatchTable:
    """The question's strings by match key; a key shared by two strings of one synset is the
    string with the higher gain (file order between equals); shared by two synsets: AnswerClash."""
    entries: dict[str, _Entry] = {}
    best: list[tuple[float, str | float]] = []
    for i, syn in enumerate(q.synsets):
        top: tuple[float, str | float] | None = None
        for s in syn.strings:
            g = gain_of(s.level, gains)
            if top is None or g > top[0]:
                top = (g, s.level)
            key = match_key(s.text, mode)
            have = entries.get(key)
            if have is None or (have.synset == i and g > have.gain):
                entries[key] = _Entry(i, s, g)
            elif have.synset != i:
                other = q.synsets[have.synset]
                raise AnswerClash(f"question {q.qid}: {s.text!r} (synset {syn.id}) and {have.string.text!r} "
                                  f"(synset {other.id}, line {have.string.line}) are the same answer under "
                                  f"ANSWER_MATCH={mode}", s.line)
        best.append(top)
    kept = sorted((b for b in best if b[0] > 0), key=lambda b: -b[0])  # stable: xmax order ties by synset
    return MatchTable(entries, [s.id for s in q.synsets], np.array([b[0] for b in kept], dtype=np.float64),
                      [b[1] for b in kept], q.nil)


def leave_out_clashes(answers: AnswerSet, mode: str, gains: dict[str, float]) -> None:
    """Leave out of ``answers`` each question that :func:`match_table` refuses (two synsets holding one
    answer under ANSWER_MATCH ``mode``), each an InputError of ``answers.problems`` at its line: the one
    rule of evaluation and of ``validate --task qa``."""
    for qid, q in list(answers.questions.items()):
        try:
            match_table(q, mode, gains)
        except AnswerClash as clash:
            answers.problems.append(InputError(f"{clash}; question left out", q.source, clash.line))
            del answers.questions[qid]
            answers.left_out.add(qid)


@record(frozen=True)
class Mark:
    """The marking of one answer at position r: its gain (0: not marked) and why."""

    position: int
    answer: str
    gain: float
    level: str | float | None  # the level it was marked with (None: not marked)
    matched: str | None  # the answer string it matched
    synset: str | None
    reason: str


def mark(answers: Sequence[str], table: MatchTable, mode: str) -> list[Mark]:
    """Seed 003 Figure 1 over the answers in position order (see the module docstring)."""
    out: list[Mark] = []
    first: dict[int, int] = {}  # synset index -> position of its marked answer
    for r, o in enumerate(answers, 1):
        if not o:
            out.append(Mark(r, o, 0.0, None, None, None, "empty answer"))
            continue
        e = table.entries.get(match_key(o, mode))
        if e is None:
            out.append(Mark(r, o, 0.0, None, None, None, "matches no answer string"))
            continue
        sid = table.synset_ids[e.synset]
        if e.string.text == NIL:
            if r == 1:
                out.append(Mark(r, o, e.gain, e.string.level, NIL, sid, "NIL at position 1 of a NIL question"))
            else:
                out.append(Mark(r, o, 0.0, None, NIL, sid, "NIL counts only at position 1"))
            continue
        if e.synset in first:
            out.append(Mark(r, o, 0.0, None, e.string.text, sid,
                            f"synset {sid} already marked at position {first[e.synset]}"))
            continue
        first[e.synset] = r
        why = "first answer of synset " + sid + ("" if e.gain > 0 else " (gain 0)")
        out.append(Mark(r, o, e.gain, e.string.level, e.string.text, sid, why))
    return out


def qa_values(g: np.ndarray, ideal: np.ndarray, beta: float) -> dict[str, float]:
    """Q, R and RR of a marked gain list ``g`` (positions 1 … L) against the ideal list."""
    hits = np.flatnonzero(g > 0)
    return {"Q": q_measure(g, ideal, beta), "R": r_measure(g, ideal, beta),
            "RR": 1.0 / float(hits[0] + 1) if hits.size else 0.0}


def count_values(g: np.ndarray, table: MatchTable) -> dict[str, float]:
    """num_synsets (R), num_synsets_S/A/B (R(X): synsets whose best level is X), num_correct."""
    out = {"num_synsets": float(len(table.ideal))}
    for x in LETTER_LEVELS:
        out[f"num_synsets_{x}"] = float(sum(1 for b in table.best_levels if b == x))
    out["num_correct"] = float(np.count_nonzero(g > 0))
    return out


# ------------------------------------------------------------------ registration ----

def prepare(ctx: TopicContext, setting, params: Params) -> None:
    """The question's match table, once per question (shared by every run)."""
    ctx.memo(("qa", params.answer_match), lambda: match_table(ctx.assessment, params.answer_match,
                                                              gains_of(params.gains)))


def _marked(t: TopicInput) -> tuple[np.ndarray, MatchTable] | None:
    """The marked gain list of (run, question), memoised for both families; None when R = 0."""
    got = t.memo.get("qa")
    if got is None:
        table = t.context.prepared[("qa", t.params.answer_match)]
        marks = mark(list(t.ranking), table, t.params.answer_match)
        got = t.memo["qa"] = (np.array([m.gain for m in marks], dtype=np.float64), table)
    return got if len(got[1].ideal) else None


def _qa(t: TopicInput) -> dict[str, float] | None:
    got = _marked(t)
    return None if got is None else qa_values(got[0], got[1].ideal, t.params.q_beta)


def _counts(t: TopicInput) -> dict[str, float] | None:
    got = _marked(t)
    return None if got is None else count_values(got[0], got[1])


_QA_OUT = ["Q", "R", "RR"]
_COUNT_OUT = ["num_synsets", "num_synsets_S", "num_synsets_A", "num_synsets_B", "num_correct"]

register(Measure(
    name="qa",
    aliases=("q", "r", "rr", "q-measure", "r-measure"),
    strategies=STRATEGIES,
    description="Q-measure, R-measure (bonus beta = Q_BETA) and reciprocal rank of ranked exact answers, "
                "marked against answer synsets and correctness levels (docs/measures.md §11)",
    params=("Q_BETA", "GAINS", "ANSWER_MATCH", "MAX_RESULTS"),
    outputs=lambda p: list(_QA_OUT),
    scalars=lambda p: list(_QA_OUT),
    ideal_one=lambda p: list(_QA_OUT),
    compute=_qa,
    prepare=prepare,
))

register(Measure(
    name="qa-counts",
    aliases=("num_synsets", "num_correct", "counts"),
    strategies=STRATEGIES,
    description="Per question: answer synsets R, R(S), R(A), R(B) and synsets found (num_correct); "
                "averaged as means (docs/measures.md §11)",
    params=("GAINS", "ANSWER_MATCH", "MAX_RESULTS"),
    outputs=lambda p: list(_COUNT_OUT),
    scalars=lambda p: list(_COUNT_OUT),
    compute=_counts,
    prepare=prepare,
    bounded=False,
    ranks_runs=lambda n: False,  # numbers of synsets: properties of the questions, and a count
))
