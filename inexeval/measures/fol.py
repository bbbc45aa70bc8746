"""The computation of inex_eval 3.1 for the INEX 2007-2010 FOL tasks (``docs/inex_eval.md §4``-``§8``).

Tasks: ``t`` Thorough, ``f`` Focused, ``r`` Relevant in Context, ``b`` Best
in Context, ``i`` Relevant in Context with T2I.  :func:`score_fol_run`
evaluates one run the way the tool does and returns a :class:`FolOutcome`
(the values, or the tool's rejection message, or where the tool would die);
printing is :mod:`inexeval.writers.inex_eval`'s job.  :func:`fol_findings`
lists every reason to reject the run or die on it, not only the first, with
the same checks (``inexeval validate``).

How the tool reads a run (``docs/inex_eval.md §4.4``, D5).  It keeps one
*current state* -- a rank counter, the previous article and one table of
article records -- and resets it only at the first line of a qrels topic
that has no rank yet.  A topic whose lines come in several blocks therefore
continues the state of the topic before it; that is reproduced literally
(it decides the public ``bert_inex_converted.run`` numbers).  Checks are
made line by line in the tool's order and the first failing line rejects
the run (``docs/inex_eval.md §3.5``).

Numbers.  Java ``int`` arithmetic is reproduced wherever the tool computes
with ints (D17): ``end = offset + length``, ``|BEP - start|``, the relevant
characters of a passage, the running sums (ret_size, rel_ret_size, rel_size,
a rank's sizes, the counts of ``all``) and the T2I walk wrap around at 32 bits
(:func:`wrap_int`, :func:`i32`), which real data never makes them do.  Doubles are
computed in the tool's order of operations, with IEEE division (x/0 is
±Infinity, 0/0 is NaN: :func:`ddiv`) and plain left-to-right sums (never
``math.fsum`` or a compensated ``sum``).  Counts are Python ints.

Where the tool dies (D16) -- a non-integer OFFSET or LENGTH, or a topic in
several blocks whose in-context rank bookkeeping breaks -- the outcome
carries ``death`` (an InputError naming the file and line) instead of
values.

Points the specification leaves open, and the reading taken here:

- ``Impossible recall point`` lines are printed as each line is read, so
  those of earlier lines stay in front of a later line's rejection or death.
- OFFSET and LENGTH are parsed after the rank and article checks (#3, #4)
  and before the overlap and size checks (#5, #6), the order of the tool's
  reading of a line.
- In context, a line that joins rank R of a topic (the counter equals the
  topic's number of rank entries) while the topic has fewer than R entries
  -- reachable only when a topic comes back after other topics -- makes the
  tool die at once, while reading (IndexOutOfBoundsException), like the
  entries missing at scoring time.
- ``-b``: the score is ``((double) n - d) / n``; a distance whose absolute
  value stays negative in int arithmetic (``|BEP - start| = 2^31``) scores
  0, as the tool only scores distances above -1 (its "no BEP" mark).
- art_prec and char_prec are 0.0 when their denominator is not positive (the
  tool tests ``> 0``; ret_size < 0 is reachable, D26).
"""

from __future__ import annotations

import math
import sys

from inexeval.errors import InputError
from inexeval.readers.fol import (UNKNOWN_SIZE, UNKNOWN_START, FolJudgement, FolQrels, FolRunFile, java_int,
                                  wrap_int)
from inexeval.records import field, record

__all__ = [
    "FOL_TASKS",
    "FolOutcome",
    "score_fol_run",
    "FolFinding",
    "fol_findings",
    "ddiv",
    "floor_int",
    "i32",
    "java_sorted",
    "relevant_chars",
    "t2i_score",
    "FOCUSED_CUTOFFS",
    "CONTEXT_CUTOFFS",
    "UNKNOWN_SIZE",
    "UNKNOWN_START",
]

FOL_TASKS = ("t", "f", "r", "b", "i")
#: Recall points (of 100) printed as iP[x] per topic by -f/-t.
FOCUSED_CUTOFFS = (0, 1, 5, 10)
#: Ranks at which gP[r] and gR[r] are printed by -r/-b/-i.
CONTEXT_CUTOFFS = (1, 2, 3, 5, 10, 25, 50)

_INF = math.inf
_NAN = math.nan
_IN_CONTEXT = frozenset("rbi")


def _label(point: int, points: int) -> str:
    """``point / points`` with two decimals, English form (D1)."""
    hundredths = point * 100 // points
    return f"{hundredths // 100}.{hundredths % 100:02d}"


FOCUSED_NAMES = (
    ("num_ret", "num_rel", "num_rel_ret", "ret_size", "rel_size", "rel_ret_size", "art_prec", "art_rec", "art_f1",
     "char_prec", "char_rec", "char_f1")
    + tuple(f"iP[{_label(p, 100)}]" for p in FOCUSED_CUTOFFS)
)
CONTEXT_NAMES = ("num_ret", "num_rel", "num_rel_ret", "ret_size", "rel_size", "rel_ret_size") + tuple(
    name for r in CONTEXT_CUTOFFS for name in (f"gP[{r}]", f"gR[{r}]")
)
_COUNTS = ("num_ret", "num_rel", "num_rel_ret", "ret_size", "rel_size", "rel_ret_size")
_FOCUSED_IRCL = tuple(f"ircl_prn.{_label(p, 100)}" for p in range(101))
_CONTEXT_IRCL = tuple(f"ircl_prn.{_label(p, 10)}" for p in range(11))


@record
class FolOutcome:
    """What the tool makes of one run (see FOL_API: names and order as the tool prints them).

    ``rejected``: the rejection message lines, None when the run was scored.
    ``impossible``: ``Impossible recall point: B`` lines, printed while the
    run is read (before the header, or before a rejection or a death).
    ``topics``: the included topics in Java String order (D14);
    ``per_topic[topic]`` and ``all`` hold the values in print order.
    ``death``: where the tool would die (D16), with ``printed_before_death``
    the number of per-topic lines the tool prints with ``-q`` before dying
    (after its ``<eval>`` header; 0 when it dies while reading the run).
    ``curves[topic]``: the included topic's interpolated precision after the
    right-to-left fill (101 points for -f/-t, 11 for -r/-b/-i).
    """

    run_id: str
    rejected: list[str] | None = None
    impossible: list[str] = field(default_factory=list)
    topics: list[str] = field(default_factory=list)
    per_topic: dict[str, dict[str, int | float]] = field(default_factory=dict)
    all: dict[str, int | float] = field(default_factory=dict)
    death: InputError | None = None
    printed_before_death: int = 0
    curves: dict[str, list[float]] = field(default_factory=dict)


@record(frozen=True)
class FolFinding:
    """One reason why the tool rejects a run or dies on it (``docs/inex_eval.md §3.5``, ``§10``).

    ``kind``: ``malformed`` (too many fields / fields missing), ``interleaved``,
    ``multiple_results`` (-b), ``overlap``, ``negative_length`` (the rejections
    #1-#6, with ``lines`` the tool's message lines, as ``FolOutcome.rejected``)
    or ``would_crash`` (where the tool dies: ``death`` says where and why,
    ``lines`` is empty), or ``int_overflow`` (where the tool's int arithmetic
    wraps around, which the config path refuses: ``death`` names the run line,
    or the qrels line with ``line`` None; docs/formats.md §1.7).  ``line`` is
    the run line (None for a topic the tool cannot score when the line where it
    came back is unknown); ``topic`` the line's topic (None for ``malformed``).
    """

    kind: str
    line: int | None
    topic: str | None
    lines: tuple[str, ...] = ()
    death: InputError | None = None

    @property
    def message(self) -> str:
        """The tool's message on one line (its second line starts with a TAB), or the death's message."""
        return "".join(self.lines) if self.death is None else self.death.message


# --------------------------------------------------------------------------- numeric helpers


def ddiv(a: float, b: float) -> float:
    """``a / b`` with IEEE semantics (Java double division)."""
    if b:
        return a / b
    if a != a or a == 0:
        return _NAN
    return math.copysign(_INF, a) * math.copysign(1.0, b)


def floor_int(x: float) -> int:
    """``(int) Math.floor(x)``: NaN -> 0, saturating at the int bounds."""
    if x != x:
        return 0
    if x >= 2147483647:
        return 2147483647
    if x <= -2147483648:
        return -2147483648
    return math.floor(x)


def i32(v: int) -> int:
    """V as the Java int the tool holds: V itself when it fits, else wrapped around (D17)."""
    if -2147483648 <= v <= 2147483647:
        return v
    return ((v + 0x80000000) & 0xFFFFFFFF) - 0x80000000


def _jsum(values) -> float:
    """Left-to-right double sum (Java's loop), whatever the Python version's ``sum`` does."""
    total = 0.0
    for v in values:
        total += v
    return total


def java_sorted(keys) -> list[str]:
    """Strings in Java ``String.compareTo`` order: by UTF-16 code unit (D14)."""
    keys = list(keys)
    if all(k.isascii() for k in keys) or max(max(k, default="\0") for k in keys) < "\ud800":
        return sorted(keys)
    return sorted(keys, key=lambda k: k.encode("utf-16-be", "surrogatepass"))


# --------------------------------------------------------------------------- per-passage kernels


def relevant_chars(start: int, end: int, spans: list[tuple[int, int]]) -> int:
    """Relevant characters of the retrieved passage [start, end) (``docs/inex_eval.md §5``, D6: literal cases)."""
    total = 0
    for k, l in spans:
        if start <= k:
            if end <= k:
                break  # spans are sorted by k: every later one gives 0 too
            total += (l - k) if end >= l else (end - k)
        elif start < l:
            total += (end - start) if end <= l else (l - start)
    return total if -2147483648 <= total <= 2147483647 else i32(total)  # an int sum in the tool (D17)


def _novel_pieces(start: int, end: int, stored: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """[start, end) minus the stored pieces, newest first (Thorough novelty, D7)."""
    pieces = [(start, end)]
    for a, b in reversed(stored):
        kept = []
        for x, y in pieces:
            if a < y and b > x:
                if x < a:
                    kept.append((x, a))
                if b < y:
                    kept.append((b, y))
            else:
                kept.append((x, y))
        pieces = kept
        if not pieces:
            break
    return pieces


def t2i_score(record: list[tuple[int, int]], judgement: FolJudgement, tolerance: int) -> float:
    """The T2I document score of one rank (``docs/inex_eval.md §7.5``, D10)."""
    doc_length = judgement.doc_length
    reading = list(record)
    cursor = 0
    top = doc_length if doc_length >= 0 else -doc_length  # the largest magnitude of a value of the walk
    for s, e in record:
        if s > cursor:
            reading.append((cursor, s))
        cursor = e
        if not (-top <= s <= top and -top <= e <= top):
            top = max(top, abs(s), abs(e))
    if cursor < doc_length:
        reading.append((cursor, doc_length))
    spans = judgement.spans
    for k, l in spans:
        if not (-top <= k <= top and -top <= l <= top):
            top = max(top, abs(k), abs(l))
    # each step of the walk adds a difference of two such values to rel or nonrel: while their sum cannot
    # leave the int range, Python ints are the tool's ints; otherwise compute as it does, wrapping (D17)
    if 4 * top * len(reading) * (len(spans) + 1) + abs(tolerance) > 2147483647:
        return _t2i_score_int32(reading, spans, tolerance)
    rel = nonrel = 0
    for x, y in reading:
        done = False
        for k, l in spans:
            if x <= k:
                if y <= k:
                    nonrel += y - x
                    done = True
                    break
                nonrel += k - x
                if y <= l:
                    if nonrel >= tolerance:
                        nonrel = tolerance
                    else:
                        rel += y - k
                    done = True
                    break
                if nonrel >= tolerance:
                    nonrel = tolerance
                    done = True
                    break
                rel += l - k
                x = l
            elif x < l:
                if y <= l:
                    rel += y - x
                    done = True
                    break
                rel += l - x
                x = l
        if not done:
            nonrel += y - x
        if nonrel >= tolerance:
            nonrel = tolerance
            break
    total = rel + nonrel
    return rel / total if total else 0.0


def _t2i_score_int32(reading: list[tuple[int, int]], spans: list[tuple[int, int]], tolerance: int) -> float:
    """:func:`t2i_score`'s walk in 32-bit int arithmetic (the tool's Qrel.RelevanceSizeUsingT2I), for the
    values whose sums can leave the int range."""
    rel = nonrel = 0
    for x, y in reading:
        done = False
        for k, l in spans:
            if x <= k:
                if y <= k:
                    nonrel = i32(nonrel + y - x)
                    done = True
                    break
                nonrel = i32(nonrel + k - x)
                if y <= l:
                    if nonrel >= tolerance:
                        nonrel = tolerance
                    else:
                        rel = i32(rel + y - k)
                    done = True
                    break
                if nonrel >= tolerance:
                    nonrel = tolerance
                    done = True
                    break
                rel = i32(rel + l - k)
                x = l
            elif x < l:
                if y <= l:
                    rel = i32(rel + y - x)
                    done = True
                    break
                rel = i32(rel + l - x)
                x = l
        if not done:
            nonrel = i32(nonrel + y - x)
        if nonrel >= tolerance:
            nonrel = tolerance
            break
    total = i32(rel + nonrel)
    return rel / total if total else 0.0


# --------------------------------------------------------------------------- reading a run


class _Rejected(Exception):
    """The tool rejects the run: its message ``lines``; ``kind``, ``topic`` and ``line`` say what and where."""

    def __init__(self, lines: list[str], kind: str, topic: str | None, line: int):
        self.lines = lines
        self.kind = kind
        self.topic = topic
        self.line = line


class _Death(Exception):
    """Where the tool dies (kind ``would_crash``), or where the config path refuses a run whose int
    arithmetic would wrap around (kind ``int_overflow``, :func:`_past_int`): ``error`` names the line."""

    def __init__(self, error: InputError, printed: int = 0, topic: str | None = None, kind: str = "would_crash"):
        self.error = error
        self.printed = printed
        self.topic = topic
        self.kind = kind


class _TopicRun:
    """A qrels topic's state in one run: rank count R, counts, iP (-f/-t) or rank entries (-r/-b/-i)."""

    __slots__ = ("R", "num_ret", "num_rel_ret", "ret_size", "rel_ret_size", "iP", "entries", "back_at")

    def __init__(self):
        self.R = 0
        self.num_ret = self.num_rel_ret = self.ret_size = self.rel_ret_size = 0
        self.iP = None
        self.entries: list[list] = []
        self.back_at = 0  # first line where the topic came back after another topic's lines


def _read_run(qrels: FolQrels, run: FolRunFile, task: str, label: str, n: int,
              impossible: list[str], collect: list[FolFinding] | None = None,
              bounded: bool = False, resume: tuple | None = None,
              handback: list | None = None) -> tuple[str, dict[str, _TopicRun]]:
    """Walk the run's lines as the tool does: (run id, state per qrels topic met).

    Raises _Rejected with the tool's message lines, or _Death (InputError)
    where the tool dies while reading.  Appends ``Impossible recall point``
    lines to ``impossible`` as the tool prints them (-f, -t).

    With ``collect``, a line that fails a check is recorded there as a
    :class:`FolFinding` instead, what the line changed before failing is
    undone (:class:`_Undo`), and reading goes on as if the line were not
    in the file.  The undoing is worked out only when a line fails, so the
    walk itself is the same either way.

    ``resume``: (``fol_arrays.Prefix``, its states as _TopicRun): go on from the state after the
    lines before ``Prefix.stop`` (not with ``collect``).  ``handback`` (a list, with ``resume``): stop
    at the first line of a qrels topic met for the first time, where the tool starts afresh (D5), and
    append the state there as a ``fol_arrays.Prefix`` (for the arrays to go on, or this walk).
    """
    numbers, raws, all_fields = run.columns()
    qtopics = qrels.topics
    states: dict[str, _TopicRun] = {}
    focused = task in "ft"
    thorough = task == "t"
    in_context = task in _IN_CONTEXT
    bic = task == "b"
    counter = 0
    prev = ""
    table: dict[str, list] = {}
    run_id = ""
    last_topic = None
    st = None
    qt = None
    iP = None
    rel_size = 0
    reset_at = -1  # the line that reset the current state (D5)
    # BOUNDED (the config path): no int arithmetic of the tool may wrap around (docs/formats.md §1.7); the
    # characters retrieved and relevant retrieved, over the whole run
    run_ret = run_relret = 0
    # the last topic switch: line index, then what it changed (last topic, created, counter, previous
    # article, table, the topic's R and back_at, reset_at), then the switch before it (without its own
    # switch before) -- for undoing a failed line (collect)
    switch: tuple = (-1,)
    undo = None

    lines = enumerate(all_fields)
    if resume is not None:
        prefix, states = resume
        run_id, last_topic, counter, prev = prefix.run_id, prefix.last_topic, prefix.counter, prefix.prev
        table = prefix.table
        reset_at, run_ret, run_relret = prefix.reset_at, prefix.run_ret, prefix.run_relret
        if last_topic is not None:
            st = states[last_topic]
            qt = qtopics[last_topic]
            iP = st.iP
            rel_size = qt.rel_size
        lines = zip(range(prefix.stop, len(all_fields)), all_fields[prefix.stop:])
    while True:
        try:
            for index, fields in lines:
                if len(fields) != 8:
                    number = numbers[index] if numbers is not None else index + 1
                    what = "too many fields" if len(fields) > 8 else "fields missing"
                    raise _Rejected([f"Error *** ({label}) {what} in line {number}: {raws[index]}"], "malformed",
                                    None, number)
                topic_id = fields[0]
                if topic_id != last_topic:
                    found = qtopics.get(topic_id)
                    if found is None:
                        continue  # D19: nothing else of the line is looked at
                    qt = found
                    st = states.get(topic_id)
                    if st is None and handback is not None:
                        from inexeval.measures.fol_arrays import Prefix

                        handback.append(Prefix(index, run_id, [], states, last_topic, counter, prev, table,
                                               reset_at, run_ret, run_relret))
                        return run_id, states
                    if st is None:
                        switch = (index, last_topic, True, counter, prev, table, 0, 0, reset_at, switch[:9])
                        st = states[topic_id] = _TopicRun()
                        counter = 0
                        prev = ""
                        table = {}
                        reset_at = index
                        if focused:
                            st.iP = [0.0] * 101
                    else:
                        switch = (index, last_topic, False, counter, prev, table, st.R, st.back_at, reset_at,
                                  switch[:9])
                        if st.back_at == 0 and last_topic is not None:
                            st.back_at = numbers[index] if numbers is not None else index + 1
                        if not isinstance(st.entries, list):  # fol_arrays.TopicRanks: entries to go on with
                            st.entries = st.entries.entries()
                    last_topic = topic_id
                    iP = st.iP
                    rel_size = qt.rel_size
                article = fields[2]
                judgement = qt.judgements.get(article)
                rel_chars = judgement.rel_chars if judgement is not None else 0

                # ranks and article records (docs/inex_eval.md §4.1, §4.4)
                if article != prev:
                    counter += 1
                    st.R = counter
                    prev = article
                    record = table.get(article)
                    if record is not None:
                        if in_context:
                            raise _Rejected([
                                f"ERROR *** ({label}) article results are interleaved in topic {topic_id}"
                                f"\tarticle id: {article}",
                                "\tinterleaved results not allowed in inContext tasks!",
                            ], "interleaved", topic_id, _line_of(numbers, index))
                    else:
                        record = table[article] = []
                        st.num_ret += 1
                        if rel_chars > 0:
                            st.num_rel_ret += 1
                else:
                    if bic:
                        number = numbers[index] if numbers is not None else index + 1
                        raise _Rejected([f"ERROR *** ({label}) multiple results from single article in topic "
                                         f"{topic_id}\tarticle id: {article}\tin line: {number}"],
                                        "multiple_results", topic_id, number)
                    if task == "f":
                        counter += 1
                        st.R = counter
                    record = table[article]
                run_id = fields[5]

                # the passage (docs/inex_eval.md §3.3, §3.5 #5, #6)
                offset = fields[6]
                if offset == "X" or offset == "-1":
                    known = False
                    start = UNKNOWN_START
                    size = UNKNOWN_SIZE
                else:
                    known = True
                    if offset.isdigit() and offset.isascii() and len(offset) < 10:
                        start = int(offset)
                    else:
                        start = java_int(offset)
                        if start is None:
                            raise _Death(_number_error(run, numbers, index, "OFFSET", offset), 0, topic_id)
                    length = fields[7]
                    if length.isdigit() and length.isascii() and len(length) < 10:
                        size = int(length)
                    else:
                        size = java_int(length)
                        if size is None:
                            raise _Death(_number_error(run, numbers, index, "LENGTH", length), 0, topic_id)
                    end = start + size
                    if not -2147483648 <= end <= 2147483647:
                        end = wrap_int(end)
                    if not thorough:
                        for s2, e2 in record:
                            if s2 < end and e2 > start:
                                number = numbers[index] if numbers is not None else index + 1
                                raise _Rejected([
                                    f"ERROR *** ({label}) passage overlaps with previously retrieved passages in "
                                    f"topic {topic_id}\tarticle id: {article}\tin line: {number}"],
                                    "overlap", topic_id, number)
                        at = len(record)
                        while at and record[at - 1][0] > start:
                            at -= 1
                        record.insert(at, (start, end))
                    if bounded and size < 0 and end >= start:  # (a LENGTH < 0 whose end wraps around)
                        if not thorough:
                            record.remove((start, end))  # nothing of a failed line stays (collect)
                        raise _past_int(run, numbers, index, topic_id, f"OFFSET {start} + LENGTH {size} is below "
                                        f"-2147483648: the tool's int sum wraps it around into a passage of "
                                        f"negative size")
                    if end < start:
                        if not thorough:
                            record.remove((start, end))  # nothing of a failed line stays (collect)
                        number = numbers[index] if numbers is not None else index + 1
                        raise _Rejected([f"ERROR *** ({label}) negative passage size {number}: {raws[index]}"],
                                        "negative_length", topic_id, number)

                # relevant characters and size of the line (docs/inex_eval.md §5, §6.1, §7.3)
                if bic:
                    score = 0.0
                    if bounded and rel_chars > 0 and judgement.bep > -1 and abs(judgement.bep - start) > 2147483647:
                        if known and not thorough:
                            record.remove((start, end))  # nothing of a failed line stays (collect)
                        raise _past_int(run, numbers, index, topic_id, f"the distance of OFFSET {start} to the "
                                        f"best entry point {judgement.bep} is past 2147483647, where the tool's "
                                        f"int arithmetic wraps it around")
                    if rel_chars > 0 and judgement.bep > -1:
                        distance = wrap_int(abs(wrap_int(judgement.bep - start)))
                        if distance > -1:  # |MIN_VALUE| stays negative in Java: no score
                            score = 0.0 if distance > n else ddiv(float(n) - distance, n)
                    st.entries.append([score, rel_chars, st.num_rel_ret])
                    continue
                if thorough:
                    if known:
                        pieces = _novel_pieces(start, end, record)
                        stored = len(record)
                        record.extend(p for p in pieces if p[1] > p[0])
                    if rel_chars > 0:
                        size = 0
                        rel = 0
                        if known:
                            spans = judgement.spans
                            for x, y in pieces:
                                size += y - x
                                if spans:
                                    rel += relevant_chars(x, y, spans)
                            size = i32(size)
                            rel = i32(rel)
                    else:
                        rel = 0
                elif known and rel_chars > 0 and judgement.spans:
                    rel = relevant_chars(start, end, judgement.spans)
                else:
                    rel = 0

                if bounded:
                    if run_ret + size > 2147483647 or run_relret + rel > 2147483647:
                        if known:  # nothing of a failed line stays (collect)
                            if thorough:
                                del record[stored:]
                            else:
                                record.remove((start, end))
                        raise _past_int(run, numbers, index, topic_id, "the characters the run retrieves add up "
                                        "past 2147483647, where the tool's int sums wrap around into negative "
                                        "sizes")
                if focused:
                    ret = st.ret_size = st.ret_size + size
                    relret = st.rel_ret_size = st.rel_ret_size + rel
                    if not (-2147483648 <= ret <= 2147483647 and -2147483648 <= relret <= 2147483647):
                        ret = st.ret_size = i32(ret)  # the tool's int sums wrap around (D17)
                        relret = st.rel_ret_size = i32(relret)
                    precision = relret / ret if ret else ddiv(relret, ret)
                    recall = relret / rel_size if rel_size else ddiv(relret, rel_size)
                    x = 100 * recall
                    b = int(x) if 0.0 <= x < 101.0 else floor_int(x)
                    if b < 0 or b > 100:
                        impossible.append(f"Impossible recall point: {b}")
                    elif iP[b] < precision:
                        iP[b] = precision
                    if bounded:
                        run_ret += size
                        run_relret += rel
                else:
                    entries = st.entries
                    if counter == len(entries):
                        if st.R > len(entries):
                            if known:
                                record.remove((start, end))  # nothing of a failed line stays (collect)
                            raise _Death(_rank_error(run, numbers, index, topic_id), 0, topic_id)
                        entry = entries[st.R - 1]
                        entry[0] += size
                        entry[1] += rel
                        # -i scores a rank with the judgement and record of the LAST line added to it
                        # (the tool's Topic.UpdateRetrieved sets qrels[R-1] and articles[R-1] each time);
                        # they differ from the first line's only when a topic comes back (D25)
                        entry[4] = judgement
                        entry[5] = record
                    else:
                        entries.append([size, rel, rel_chars, st.num_rel_ret, judgement, record])
                    st.ret_size += size
                    st.rel_ret_size += rel
                    if bounded:
                        run_ret += size
                        run_relret += rel
        except (_Rejected, _Death) as problem:
            if collect is None:
                raise
            collect.append(_finding(problem))
            if undo is None:
                undo = _Undo(all_fields, qtopics)
            if problem.topic is not None:  # the line got past its topic switch
                if switch[0] == index and switch[2]:  # it created its topic's state: drop it, restore the state
                    _, last_topic, _, counter, prev, table, _, _, reset_at, _ = switch
                    del states[topic_id]
                else:
                    counter, prev = undo.line(index, switch, reset_at, counter, table, st, rel_chars, task == "f")
                    if switch[0] == index:  # it switched back to its topic
                        last_topic = switch[1]
                        st.back_at = switch[7]
                if switch[0] == index:  # the switch before is in force again
                    switch = switch[9]
                    if last_topic is not None:
                        st = states[last_topic]
                        qt = qtopics[last_topic]
                        iP = st.iP
                        rel_size = qt.rel_size
            undo.failed(index)
            continue
        return run_id, states


class _Undo:
    """What a failed line changed in the current state (:func:`fol_findings`), worked out from the run's lines.

    Lines fail in file order; every 8-field line of a qrels topic before the
    failing one that did not fail was accepted.  What holds between topic
    switches (the tool's current state, D5) then gives the values the line
    replaced: the previous article is that of the last line accepted since
    the switch (the one in force at the switch when there is none), and a
    topic's R equals the counter once a line since the switch made a rank
    (R at the switch before).  The line's article record is new iff it is
    empty and no line accepted since the state's reset has the article.
    Scans are incremental: each line is looked at a bounded number of times.
    """

    def __init__(self, all_fields: list[list[str]], qtopics: dict) -> None:
        self.all_fields = all_fields
        self.qtopics = qtopics
        self.failed_lines: set[int] = set()
        self.last_failed = -1
        self.accepted_before_last_failed = -1
        self.seen_reset = -2
        self.seen_upto = 0
        self.seen: set[str] = set()

    def _accepted(self, j: int) -> bool:
        fields = self.all_fields[j]
        return len(fields) == 8 and fields[0] in self.qtopics and j not in self.failed_lines

    def _last_accepted(self, index: int) -> int:
        """The last accepted line before INDEX (-1: none)."""
        for j in range(index - 1, self.last_failed, -1):
            if self._accepted(j):
                return j
        return self.accepted_before_last_failed

    def failed(self, index: int) -> None:
        """Line INDEX failed (after :meth:`line`, if called for it)."""
        self.accepted_before_last_failed = self._last_accepted(index)
        self.last_failed = index
        self.failed_lines.add(index)

    def _had_article(self, reset_at: int, index: int, article: str) -> bool:
        """Whether a line accepted in [reset_at, index) has ARTICLE."""
        if self.seen_reset != reset_at:
            self.seen_reset, self.seen_upto, self.seen = reset_at, reset_at, set()
        for j in range(self.seen_upto, index):
            if self._accepted(j):
                self.seen.add(self.all_fields[j][2])
        self.seen_upto = max(self.seen_upto, index)
        return article in self.seen

    def line(self, index: int, switch: tuple, reset_at: int, counter: int, table: dict[str, list],
             st: _TopicRun, rel_chars: int, every_line: bool) -> tuple[int, str]:
        """Undo the rank and article record that line INDEX (of the existing topic state ``st``) made.

        ``switch`` is the last topic switch (see :func:`_read_run`); returns
        the counter and previous article to go on with.  A passage the line
        stored was taken back where it failed.
        """
        article = self.all_fields[index][2]
        created = switch[2]
        last = self._last_accepted(index)
        if last >= switch[0]:
            previous = self.all_fields[last][2]
        else:
            previous = "" if created else switch[4]
        new = article != previous
        if new or every_line:
            counter -= 1
            st.R = counter if counter != (0 if created else switch[3]) else switch[6]
        if new and not table[article] and not self._had_article(reset_at, index, article):
            del table[article]
            st.num_ret -= 1
            if rel_chars > 0:
                st.num_rel_ret -= 1
        return counter, previous


def _past_int(run: FolRunFile, numbers, index: int, topic: str, what: str) -> _Death:
    """The config path's refusal of a run at a line where inex_eval 3.1's int arithmetic would wrap
    around (``score_fol_run(bounded=True)``, docs/formats.md §1.7): WHAT happens there."""
    return _Death(InputError(f"{what}; inexeval refuses such a run (the inex-eval drop-in reproduces the "
                             "tool's numbers; docs/formats.md §1.7)", run.source, _line_of(numbers, index)),
                  0, topic, "int_overflow")


def _finding(problem: _Rejected | _Death) -> FolFinding:
    if isinstance(problem, _Rejected):
        return FolFinding(problem.kind, problem.line, problem.topic, tuple(problem.lines))
    return FolFinding(problem.kind, problem.error.line, problem.topic, (), problem.error)


def _line_of(numbers, index: int) -> int:
    return numbers[index] if numbers is not None else index + 1


def _number_error(run: FolRunFile, numbers, index: int, name: str, value: str) -> InputError:
    extra = " (nor X or -1)" if name == "OFFSET" else ""
    return InputError(f"{name} is not a 32-bit integer{extra}: {value!r}; inex_eval 3.1 stops here "
                      "(NumberFormatException)", run.source, _line_of(numbers, index))


def _rank_error(run: FolRunFile, numbers, index: int, topic: str) -> InputError:
    return InputError(f"topic {topic} comes back after lines of other topics and inex_eval 3.1's rank "
                      "bookkeeping fails on this line (IndexOutOfBoundsException); group each topic's lines",
                      run.source, _line_of(numbers, index))


# --------------------------------------------------------------------------- scoring


#: Lines from which a run is read as arrays (``score_fol_run(arrays=None)``) although numpy is not imported
#: yet: numpy's import (about 0.06 s) costs what the walk takes for about 15,000 lines.
ARRAY_LINES = 15_000


def _walk_arrays(qrels: FolQrels, run: FolRunFile, task: str, n: int, arrays: bool | None,
                 after=None, met: dict | None = None):
    """:func:`inexeval.measures.fol_arrays.walk`'s state after the lines it reads (``Prefix``), or None:
    the run is not one it reads, or ARRAYS is False, or None for a run of fewer than ARRAY_LINES lines
    while numpy is not imported yet.  From the state AFTER (a ``Prefix``) on, with the topics MET so far."""
    if arrays is False or (arrays is None and "numpy" not in sys.modules and len(run) < ARRAY_LINES):
        return None
    from inexeval.measures.fol_arrays import walk

    if after is None:
        return walk(qrels, run, task, n)
    return walk(qrels, run, task, n, start=after.stop, met=met, sums=(after.run_ret, after.run_relret))


def _states(prefix) -> dict[str, _TopicRun]:
    """The prefix's topic states as _TopicRun objects."""
    states: dict[str, _TopicRun] = {}
    for topic_id, (R, num_ret, num_rel_ret, ret_size, rel_ret_size, iP, entries) in prefix.states.items():
        st = states[topic_id] = _TopicRun()
        st.R, st.num_ret, st.num_rel_ret, st.ret_size, st.rel_ret_size = R, num_ret, num_rel_ret, ret_size, rel_ret_size
        st.iP, st.entries = iP, entries
    return states


def score_fol_run(qrels: FolQrels, run: FolRunFile, task: str, *, complete: bool = False, n: int = 500,
                  beta: float = 0.25, irr: int = 300, run_label: str | None = None,
                  bounded: bool = False, arrays: bool | None = None) -> FolOutcome:
    """Evaluate RUN against QRELS for TASK (one of FOL_TASKS) exactly as inex_eval 3.1 does.

    ``complete`` is ``-c`` (average over every qrels topic), ``n`` the BEP
    distance of ``-b``, ``beta`` the F weight of ``-r``, ``irr`` the T2I
    tolerance of ``-i``; ``run_label`` is the RUN path as given on the
    command line (used in messages; default ``run.source``).

    ``bounded`` (the config path's measures): where the tool's int arithmetic would wrap around
    (D17), giving negative sizes, nothing is scored: ``death`` names the qrels line
    (``FolQrels.int_problem``) or the run line (a negative LENGTH whose end wraps around, a
    distance to the BEP past 2^31 − 1, the run's characters adding up past 2^31 − 1);
    docs/formats.md §1.7.

    ``arrays``: read the run with :mod:`inexeval.measures.fol_arrays` when it can (the same
    outcome, bit for bit; True), never (False: the line walk), or when numpy is imported already
    or the run has ARRAY_LINES lines or more (None).
    """
    if task not in FOL_TASKS:
        raise ValueError(f"unknown FOL task {task!r} (one of {', '.join(FOL_TASKS)})")
    label = run.source if run_label is None else run_label
    impossible: list[str] = []
    if bounded and qrels.int_problem is not None:
        return FolOutcome(run_id="", impossible=impossible, death=qrels.int_problem)
    try:
        prefix = _walk_arrays(qrels, run, task, n, arrays)
        if prefix is None:
            run_id, states = _read_run(qrels, run, task, label, n, impossible, bounded=bounded)
        else:
            impossible.extend(prefix.impossible)
            run_id, states = prefix.run_id, _states(prefix)
            while prefix.stop < len(run):  # the walk goes on from the first line of a topic that comes back
                handback: list = []
                run_id, states = _read_run(qrels, run, task, label, n, impossible, bounded=bounded,
                                           resume=(prefix, states), handback=handback)
                if not handback:
                    break
                prefix = handback[0]  # a topic met for the first time: the arrays read on from its line
                more = _walk_arrays(qrels, run, task, n, True, prefix, states)
                if more is None:
                    run_id, states = _read_run(qrels, run, task, label, n, impossible, bounded=bounded,
                                               resume=(prefix, states))
                    break
                impossible.extend(more.impossible)
                run_id = more.run_id or run_id
                states.update(_states(more))
                prefix = more
    except _Rejected as rej:
        return FolOutcome(run_id="", rejected=rej.lines, impossible=impossible)
    except _Death as death:
        return FolOutcome(run_id="", impossible=impossible, death=death.error)
    finally:
        arrays_module = sys.modules.get("inexeval.measures.fol_arrays")
        if arrays_module is not None:  # the run's columns kept between segments: not beyond the run
            arrays_module.forget_run()
        run.arrays = None  # (its fields as arrays: readers.fol_run_arrays)
    outcome = FolOutcome(run_id=run_id, impossible=impossible)
    order = java_sorted(qrels.topics)
    try:
        if task in "ft":
            _score_focused(qrels, states, order, complete, outcome)
        else:
            _score_in_context(qrels, states, order, task, complete, beta, irr, run, outcome)
    except _Death as death:
        outcome.death = death.error
        outcome.printed_before_death = death.printed
        outcome.per_topic = {}
        outcome.all = {}
        outcome.topics = []
        outcome.curves = {}
    return outcome


def fol_findings(qrels: FolQrels, run: FolRunFile, task: str, *, n: int = 500,
                 run_label: str | None = None, bounded: bool = True) -> list[FolFinding]:
    """Every reason why inex_eval 3.1 rejects RUN or dies on it for TASK, not only the first.

    The checks are :func:`score_fol_run`'s own, made in its order: a line
    that fails one is recorded and the reading goes on as if the line were
    not in the file (the tool's current state, D5, included); then each
    topic the tool could not score is recorded, in the tool's topic
    order.  So the first finding is what :func:`score_fol_run` reports
    (its ``rejected`` lines, or its ``death``), and an empty list means the
    run is scored.  ``n``, ``run_label`` and ``bounded`` as for
    :func:`score_fol_run`; bounded by default, as the config path evaluates
    (``validate``): qrels where the tool's ints wrap around are the first finding.
    """
    if task not in FOL_TASKS:
        raise ValueError(f"unknown FOL task {task!r} (one of {', '.join(FOL_TASKS)})")
    label = run.source if run_label is None else run_label
    findings: list[FolFinding] = []
    if bounded and qrels.int_problem is not None:
        findings.append(FolFinding("int_overflow", None, None, (), qrels.int_problem))
    _, states = _read_run(qrels, run, task, label, n, [], findings, bounded)
    if task not in "ft":  # -f and -t never die while scoring
        _score_in_context(qrels, states, java_sorted(qrels.topics), task, False, 0.25, 300, run,
                          FolOutcome(run_id=""), findings)
    return findings


def _f1(p: float, r: float) -> float:
    if p > 0:
        return ddiv((2 * p) * r, p + r)
    return 0.0


def _score_focused(qrels: FolQrels, states: dict[str, _TopicRun], order: list[str], complete: bool,
                   outcome: FolOutcome) -> None:
    """Per-topic values and means of -f/-t (docs/inex_eval.md §6.2, §6.3, §8)."""
    empty = _TopicRun()
    counts = [0] * 6
    sums = [0.0] * 11  # art_prec … char_f1, iP[4 points], AiP
    ircl = [0.0] * 101
    for topic_id in order:
        st = states.get(topic_id)
        if st is None:
            if not complete:
                continue
            st = empty
        qt = qrels.topics[topic_id]
        iP = st.iP or [0.0] * 101
        best = 0.0
        for i in range(100, -1, -1):  # right-to-left running maximum
            v = iP[i]
            if v > best:
                best = v
            elif v < best:
                iP[i] = best
        outcome.curves[topic_id] = list(iP)
        # the tool divides only when the denominator is > 0; ret_size can be negative (a LENGTH < 0 that
        # int wrap-around lets through, D17, or a wrapped sum): then char_prec is 0.0, like 0 (D26)
        art_prec = st.num_rel_ret / st.num_ret if st.num_ret > 0 else 0.0
        art_rec = ddiv(st.num_rel_ret, qt.num_rel)
        char_prec = st.rel_ret_size / st.ret_size if st.ret_size > 0 else 0.0
        char_rec = ddiv(st.rel_ret_size, qt.rel_size)
        aip = _jsum(iP) / 101
        values = (st.num_ret, qt.num_rel, st.num_rel_ret, st.ret_size, qt.rel_size, st.rel_ret_size,
                  art_prec, art_rec, _f1(art_prec, art_rec), char_prec, char_rec, _f1(char_prec, char_rec),
                  iP[0], iP[1], iP[5], iP[10])
        row = dict(zip(FOCUSED_NAMES, values))
        row["AiP"] = aip
        outcome.topics.append(topic_id)
        outcome.per_topic[topic_id] = row
        for i in range(6):
            counts[i] += values[i]
        for i in range(10):
            sums[i] += values[6 + i]
        sums[10] += aip
        for i in range(101):
            ircl[i] += iP[i]
    num_q = len(outcome.topics)
    out = outcome.all
    out["num_q"] = num_q
    out.update(zip(_COUNTS, map(i32, counts)))
    means = [ddiv(s, num_q) for s in sums]
    out.update(zip(FOCUSED_NAMES[6:], means[:10]))
    out["MAiP"] = means[10]
    out.update(zip(_FOCUSED_IRCL, (ddiv(s, num_q) for s in ircl)))


def _score_in_context(qrels: FolQrels, states: dict[str, _TopicRun], order: list[str], task: str,
                      complete: bool, beta: float, irr: int, run: FolRunFile, outcome: FolOutcome,
                      collect: list[FolFinding] | None = None) -> None:
    """Per-topic values and means of -r/-b/-i (docs/inex_eval.md §7, §8); counts over every qrels topic (D11).

    With ``collect``, a topic the tool cannot score is recorded there and skipped.
    """
    empty = _TopicRun()
    counts = [0] * 6
    sums = [0.0] * (1 + 2 * len(CONTEXT_CUTOFFS))  # MAgP, gP[1], gR[1], …
    ircl = [0.0] * 11
    bb = beta * beta
    printed = 0
    batch = _batch_curves(qrels, states, order, bb, irr)
    topics = iter(order)
    while True:
        try:
            for topic_id in topics:
                st = states.get(topic_id) or empty
                qt = qrels.topics[topic_id]
                R = st.R
                included = complete or R > 0
                counts_row = (R, qt.num_rel, st.num_rel_ret, i32(st.ret_size), qt.rel_size, i32(st.rel_ret_size))
                for i in range(6):
                    counts[i] += counts_row[i]
                if included:
                    printed += 6
                entries = st.entries
                if len(entries) < R:
                    raise _Death(_scoring_error(run, topic_id, st), printed, topic_id)
                num_rel = qt.num_rel
                got = None
                if not isinstance(entries, list):  # fol_arrays.TopicRanks: a run read as arrays
                    from inexeval.measures.fol_arrays import curve

                    got = batch[topic_id] if topic_id in batch else curve(entries, num_rel, bb, irr, t2i_score)
                    if got is None:  # the loop decides (see curve)
                        entries = entries.entries()
                if got is None:
                    got = _rank_curve(entries, R, task, num_rel, bb, irr, run, topic_id, st, printed)
                gps, grs, iP, sum_gp = got
                if not included:
                    continue
                best = 0.0
                for i in range(10, -1, -1):
                    v = iP[i]
                    if v > best:
                        best = v
                    elif v < best:
                        iP[i] = best
                outcome.curves[topic_id] = list(iP)
                agp = ddiv(sum_gp, num_rel)
                row = dict(zip(_COUNTS, counts_row))
                values = [agp]
                for r in CONTEXT_CUTOFFS:
                    if R:
                        at = min(r, R) - 1
                        gp, gr = float(gps[at]), float(grs[at])
                    else:
                        gp = gr = 0.0
                    row[f"gP[{r}]"] = gp
                    row[f"gR[{r}]"] = gr
                    values += (gp, gr)
                row["AgP"] = agp
                printed += 15
                outcome.topics.append(topic_id)
                outcome.per_topic[topic_id] = row
                for i, v in enumerate(values):
                    sums[i] += v
                for i in range(11):
                    ircl[i] += iP[i]
        except _Death as death:
            if collect is None:
                raise
            collect.append(_finding(death))
            continue
        break
    num_q = len(outcome.topics)
    out = outcome.all
    out["num_q"] = num_q
    out.update(zip(_COUNTS, map(i32, counts)))
    means = [ddiv(s, num_q) for s in sums]
    out["MAgP"] = means[0]
    out.update(zip(CONTEXT_NAMES[6:], means[1:]))
    out.update(zip(_CONTEXT_IRCL, (ddiv(s, num_q) for s in ircl)))


def _batch_curves(qrels: FolQrels, states: dict[str, _TopicRun], order: list[str], bb: float,
                  irr: int) -> dict[str, tuple | None]:
    """``fol_arrays.curve`` of the topics whose ranks were read as arrays, computed at once
    (``fol_arrays.curves``): topic -> its curve (None: the loop decides), for those it computes."""
    arrays = sys.modules.get("inexeval.measures.fol_arrays")
    if arrays is None:
        return {}
    groups: dict[int, tuple[list, list, list]] = {}  # per RankColumns (a segment of the run): its topics
    for topic_id in order:
        st = states.get(topic_id)
        if st is not None and isinstance(st.entries, arrays.TopicRanks) and len(st.entries) >= st.R:
            names, ranks, num_rel = groups.setdefault(id(st.entries.columns), ([], [], []))
            names.append(topic_id)
            ranks.append(st.entries)
            num_rel.append(qrels.topics[topic_id].num_rel)
    batch: dict[str, tuple | None] = {}
    for names, ranks, num_rel in groups.values():
        got = arrays.curves(ranks, num_rel, bb, irr, t2i_score)
        if got is not None:
            batch.update(zip(names, got))
    return batch


def _rank_curve(entries: list, R: int, task: str, num_rel: int, bb: float, irr: int, run: FolRunFile,
                topic_id: str, st: _TopicRun, printed: int) -> tuple[list, list, list, float]:
    """``(gP, gR, iP, sum)`` of a topic's first R rank entries, rank by rank in the tool's arithmetic
    (docs/inex_eval.md §7): the document score of each rank, gP its running mean, gR = found / num_rel,
    the 11-point iP the largest gP of each recall bin, and the sum of the gP of ranks with relevant
    characters.  Raises _Death where the tool dies (a recall bin outside 0 to 100)."""
    gps: list[float] = []
    grs: list[float] = []
    iP = [0.0] * 11
    total = 0.0
    sum_gp = 0.0
    for k in range(R):
        entry = entries[k]
        if task == "b":
            s = entry[0]
            rel_chars, found = entry[1], entry[2]
        else:
            rel_chars, found = entry[2], entry[3]
            if task == "r":
                relret = i32(entry[1])
                if relret > 0:
                    p = ddiv(relret, i32(entry[0]))
                    rc = ddiv(relret, rel_chars)
                    s = ddiv(((1 + bb) * p) * rc, bb * p + rc)
                else:
                    s = 0.0
            else:
                s = t2i_score(entry[5], entry[4], irr) if entry[4] is not None else 0.0
        total += s
        gp = total / (k + 1)
        gr = found / num_rel if num_rel else ddiv(found, num_rel)
        gps.append(gp)
        grs.append(gr)
        if rel_chars > 0:
            sum_gp += gp
        x = 10 * gr
        b = int(x) if 0.0 <= x < 11.0 else floor_int(x)
        if b > 100 or b < 0:
            raise _Death(_scoring_error(run, topic_id, st, bin_=b), printed, topic_id)
        if b <= 10 and iP[b] < gp:
            iP[b] = gp
    return gps, grs, iP, sum_gp


def _scoring_error(run: FolRunFile, topic: str, st: _TopicRun, bin_: int | None = None) -> InputError:
    if bin_ is None:
        why = f"its {st.R} ranks have only {len(st.entries)} rank entries (IndexOutOfBoundsException)"
    else:
        why = f"its recall bin {bin_} is out of range (ArrayIndexOutOfBoundsException)"
    return InputError(f"topic {topic} comes back after lines of other topics (from this line on) and "
                      f"inex_eval 3.1 cannot score it: {why}; group each topic's lines",
                      run.source, st.back_at or None)
