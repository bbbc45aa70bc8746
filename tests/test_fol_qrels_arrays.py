"""FOL qrels read with numpy (inexeval.readers.fol_qrels_arrays) against the line loop, and a FOL run's
topics read as blocks (inexeval.readers.passages.topic_lines) against the loop over its lines.

Seeded random qrels of every shape: the corners of tests/fol_oracle_gen.py (repeated judgements,
5- and 6-field lines, ``+`` signs and leading zeros, TAB/VT/FF separators, trailing blanks, CRLF,
int sums that wrap), clean qrels that the arrays must read (ties of offsets, repeated lines, one
line, a last line without its end), and clean qrels spoiled by one bad or unusual line. Wherever
the arrays read the text, the qrels are the loop's, value for value and in the same order; where
they leave it to the loop, ``read_fol_qrels`` gives the loop's qrels or its InputError (message,
file and line).
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from fol_helpers import topics_by_loop, write
from fol_oracle_gen import random_qrels_text, random_run_text

from inexeval import records
from inexeval.errors import InputError
from inexeval.measures import fol_arrays
from inexeval.readers import fol
from inexeval.readers.fol import read_fol_qrels, read_fol_run
from inexeval.readers.fol_qrels_arrays import DIGIT_BLOCK, digit_values, read, white_space
from inexeval.readers.passages import topic_lines

SPOILERS = {
    "empty line": "",
    "blank line": "  \t",
    "four fields": "7 Q0 z9 10",
    "leading blank": " 7 Q0 z9 10 100 5 0:5",
    "six fields": "7 Q0 z9 10 100 junk",
    "bad REL_CHARS": "7 Q0 z9 1x 100 5 0:5",
    "bad BEP": "7 Q0 z9 10 100 b 0:5",
    "passage without colon": "7 Q0 z9 10 100 5 05",
    "two colons": "7 Q0 z9 10 100 5 0:5:9",
    "empty LENGTH": "7 Q0 z9 10 100 5 0:",
    "empty OFFSET": "7 Q0 z9 10 100 5 :5",
    "ten digits": "7 Q0 z9 10 100 5 0000000000:5",
    "past int": "7 Q0 z9 10 100 5 0:2147483648",
    "negative LENGTH": "7 Q0 z9 10 100 5 3:-2",
    "end past int": "7 Q0 z9 10 100 5 2000000000:200000000",
    "REL_CHARS past int": "7 Q0 z9 999999999 100 5 0:5\n7 Q0 z8 999999999 100 5 0:5\n8 Q0 z9 999999999 1 1 0:1",
    "judgement past int": "7 Q0 z9 10 100 5 0:999999999 1000000000:999999999 2000000000:147483647",
    "non-ASCII topic": "7é Q0 z9 10 100 5 0:5",
    "non-ASCII article": "7 Q0 zé 10 100 5 0:5",
    "underscore": "7 Q0 z9 1_0 100 5 0:5",
    "plus and minus": "7 Q0 z9 +10 -100 -1 -5:+5",
    "double sign": "7 Q0 z9 --10 100 5 0:5",
    "odd white space": "7\x1cQ0 z9 10 100 5 0:5",
    "NUL in article": "7 Q0 z\x009 10 100 5 0:5",
    "CR ends": "7 Q0 z9 10 100 5 0:5\r7 Q0 z8 3 9 1 2:1\r\n",
    "VT and FF": "7\x0bQ0\x0cz9 10 100 5 0:5 \x0c",
    "nine digits": "7 Q0 z9 999999999 999999999 999999999 999999998:1",
    "leading zeros": "7 Q0 z9 000000010 0100 005 0:05",
}


def _flat(q):
    """Everything a FolQrels holds, in its order."""
    return ([(t, v.num_rel, v.rel_size, [(a, j.rel_chars, j.doc_length, j.bep, j.passages, j.spans)
                                        for a, j in v.judgements.items()]) for t, v in q.topics.items()],
            q.source, repr(q.int_problem))


def _loop(text: str):
    try:
        return fol.qrels_from_lines(text, "q.txt")
    except InputError as err:
        return err


def _same_as_loop(text: str) -> bool:
    """True when the arrays read TEXT (and then give the loop's qrels), False when they leave it to the loop."""
    columns = read(text)
    if columns is None:
        return False
    loop = _loop(text)
    assert not isinstance(loop, InputError), loop
    assert loop.int_problem is None
    assert _flat(fol._qrels_of_columns(columns, "q.txt")) == _flat(loop)
    return True


def clean_qrels_text(rng: random.Random) -> str:
    """Qrels the arrays read: 1 to 4 topics, repeated judgements and lines, equal offsets, 5- to 9-field lines."""
    lines = []
    for topic in rng.sample(["7", "8", "10", "2009001", "A", "b-2"], rng.randint(1, 4)):
        for art in rng.sample(["d1", "d2", "d3", "x", "123456"], rng.randint(1, 5)):
            for _ in range(rng.choice([1, 1, 1, 2, 3])):
                fields = [topic, rng.choice(["Q0", "0"]), art, str(rng.choice([0, 0, -3, rng.randint(1, 5000)])),
                          str(rng.randint(-5, 90000))]
                if rng.random() < 0.8:
                    fields.append(str(rng.randint(-1, 900)))
                    fields += [f"{rng.choice([0, 5, 5, rng.randint(-9, 900)])}:{rng.randint(0, 300)}"
                               for _ in range(rng.randint(1, 4))]
                lines.append(" ".join(fields) if rng.random() < 0.8 else "\t".join(fields) + rng.choice(["", " "]))
    if rng.random() < 0.3:
        rng.shuffle(lines)
    text = "\n".join(lines)
    return text + ("\n" if rng.random() < 0.8 else "")


@pytest.mark.parametrize("seed", range(150))
def test_clean_qrels_are_read_as_the_loop_reads_them(seed):
    assert _same_as_loop(clean_qrels_text(random.Random(3100 + seed)))


def test_one_line_and_ties():
    assert _same_as_loop("7 Q0 d1 5 100 3 9:1")
    text = "7 Q0 d1 5 100 3 9:1 4:2 9:3\n7 Q0 d1 2 50 8 4:7 9:0\n7 Q0 d2 0 1 2\n8 Q0 d1 1 1\n7 Q0 d2 0 1 2 1:1\n"
    assert _same_as_loop(text)
    assert _same_as_loop(text.replace("\n", "\r\n")) and _same_as_loop(text.replace("\n", "\r"))
    q = fol._qrels_of_columns(read(text), "q.txt")
    j = q.topics["7"].judgements["d1"]
    assert j.passages == [(4, 2), (4, 7), (9, 1), (9, 3), (9, 0)]  # equal offsets in file order
    assert (j.rel_chars, j.doc_length, j.bep) == (5, 100, 8)  # the first line's, the last BEP
    assert q.topics["7"].num_rel == 2 and q.topics["7"].rel_size == 7
    assert q.topics["8"].judgements["d1"].passages == [] and q.topics["8"].judgements["d1"].bep == -1


def test_empty_qrels_are_left_to_the_loop():
    assert read("") is None
    assert _loop("").topics == {}


@pytest.mark.parametrize("seed", range(300))
def test_random_qrels_of_every_corner_as_the_loop(seed):
    text, _ = random_qrels_text(random.Random(4100 + seed))
    _same_as_loop(text)


@pytest.mark.parametrize("name", sorted(SPOILERS))
@pytest.mark.parametrize("seed", range(4))
def test_a_spoiled_line_is_read_or_left_to_the_loop(tmp_path, name, seed):
    rng = random.Random(5100 + seed)
    lines = clean_qrels_text(rng).splitlines()
    lines.insert(rng.randint(0, len(lines)), SPOILERS[name])
    text = "\n".join(lines) + "\n"
    _same_as_loop(text)
    # read_fol_qrels (numpy imported: the arrays first) gives the loop's qrels or its error
    path = write(tmp_path / "q.txt", text)
    loop = _loop(fol._read_text(path)[0])
    try:
        got = read_fol_qrels(path)
    except InputError as err:
        assert isinstance(loop, InputError), err
        assert (err.message, err.line) == (loop.message, loop.line) and err.file == str(path)
        return
    assert not isinstance(loop, InputError), loop
    assert _flat(got)[0] == _flat(loop)[0] and repr(got.int_problem) == repr(loop.int_problem).replace(
        "'q.txt'", repr(str(path)))


def test_the_loop_ignores_a_sixth_field_and_so_do_the_arrays():
    assert _same_as_loop("7 Q0 d1 5 100 3 9:1\n7 Q0 d1 5 100 junk\n")


def test_the_arrays_decline_what_the_loop_reads_with_care():
    for name in ("two colons", "ten digits", "non-ASCII topic", "leading blank", "negative LENGTH", "past int",
                 "end past int", "REL_CHARS past int", "judgement past int", "empty line"):
        assert read("7 Q0 d1 5 100 3 9:1\n" + SPOILERS[name] + "\n") is None, name


@pytest.mark.parametrize("seed", range(40))
def test_judged_columns_from_the_reader_equal_those_from_the_objects(seed):
    text = clean_qrels_text(random.Random(6100 + seed))
    q = fol._qrels_of_columns(read(text), "q.txt")
    without = records.replace(q)
    assert q.columns is not None and without.columns is None  # a copy does not keep the columns
    a, b = fol_arrays._Judged(q), fol_arrays._Judged(without)
    made = [a.judgements[j] for j in range(len(a.judgements))]  # a JudgementStore: made when asked for
    assert made == b.judgements and all(x is y for x, y in zip(made, b.judgements))
    for name in ("topics", "articles", "jt", "rel_chars", "bep", "first", "count", "k", "l", "rel_size"):
        x, y = getattr(a, name), getattr(b, name)
        assert x.dtype == y.dtype and np.array_equal(x, y), name
    assert a.topic_names == b.topic_names and a.usable == b.usable


# --------------------------------------------------------------------------- a run's topics


RUN_SPOILERS = ["", "   ", " 7 Q0 d1 1 1 R 0 5", "\x00 Q0 d1 1 1 R 0 5", "7\x00 Q0 d1 1 1 R 0 5", "é Q0 d1 1 1 R 0 5",
                "0123456789abcdefghij Q0 d1 1 1 R 0 5", "0123456789abcde Q0 d1", "7\x1cQ0 d1 1 1 R 0 5", "7", "x\ty"]


@pytest.mark.parametrize("seed", range(120))
def test_a_runs_topics_as_the_loop_finds_them(tmp_path, seed):
    rng = random.Random(7100 + seed)
    _, judged = random_qrels_text(rng)
    text = random_run_text(rng, rng.choice("tfrbi"), judged, hostile=rng.random() < 0.5)
    lines = text.splitlines()
    if rng.random() < 0.3 and lines:  # topics interleaved
        rng.shuffle(lines)
    if rng.random() < 0.5:
        lines.insert(rng.randint(0, len(lines)), rng.choice(RUN_SPOILERS))
    run = read_fol_run(write(tmp_path / "run.txt", "\n".join(lines) + rng.choice(["", "\n"])))
    assert list(topic_lines(run).items()) == list(topics_by_loop(run).items())


def test_a_last_line_alone_and_an_empty_run(tmp_path):
    for text in ("7 Q0 d1 1 1 R 0 5", "7 Q0 d1 1 1 R 0 5\n8", "a\nb\na\n", "\n", ""):
        run = read_fol_run(write(tmp_path / "run.txt", text))
        assert list(topic_lines(run).items()) == list(topics_by_loop(run).items()), text


@pytest.mark.parametrize("odd", [None, *range(32), 127, 128, 255])
def test_white_space_is_the_tools_set(odd):
    """white_space takes exactly bytes 9-13 and 32 for white space (Java's \\s), with or without another
    control byte (the two-comparison path and the table path)."""
    rng = np.random.default_rng(0 if odd is None else odd + 1)
    data = rng.choice(np.array([9, 10, 11, 12, 13, 32, 33, 48, 65, 126, 200], dtype=np.uint8), 5000)
    if odd is not None:
        data[rng.integers(0, data.size, 3)] = odd
    expected = np.array([b in (9, 10, 11, 12, 13, 32) for b in data.tolist()])
    assert (white_space(data) == expected).all()


@pytest.mark.parametrize("seed", range(4))
def test_digit_values_as_int_across_blocks(seed):
    """digit_values reads fields of 0 to 9 digits as int() does (empty: 0), over several DIGIT_BLOCKs,
    and answers None when any field of any block holds another byte (one below '0', one above '9')."""
    rng = random.Random(seed)
    fields = ["".join(rng.choice("0123456789") for _ in range(rng.randint(0, 9)))
              for _ in range(2 * DIGIT_BLOCK + rng.randint(1, 999))]
    text = " ".join(fields).encode("ascii")
    data = np.frombuffer(text, dtype=np.uint8)
    ends = np.cumsum([len(f) + 1 for f in fields]) - 1
    starts = ends - np.array([len(f) for f in fields])
    assert digit_values(data, starts, ends).tolist() == [int(f) if f else 0 for f in fields]
    for bad in "/:a ":
        at = rng.choice([i for i, f in enumerate(fields) if f])
        spoiled = bytearray(text)
        spoiled[int(starts[at])] = ord(bad)
        assert digit_values(np.frombuffer(bytes(spoiled), dtype=np.uint8), starts, ends) is None
    assert digit_values(data, starts[:0], ends[:0]).tolist() == []


def test_an_id_longer_than_name_bytes_is_left_to_the_loop(tmp_path):
    """A topic or article id past NAME_BYTES would make every item of its S column that wide: the loop
    reads the file (and read_fol_qrels gives the loop's qrels); ids of NAME_BYTES are read as arrays."""
    from inexeval.readers.fol_qrels_arrays import NAME_BYTES

    long = "a" * (NAME_BYTES + 1)
    for text in (f"7 Q0 {long} 10 100 5 0:5\n7 Q0 d1 3 9 1 2:1\n", f"{long} Q0 d1 10 100 5 0:5\n7 Q0 d1 3 9 1 2:1\n"):
        assert read(text) is None
        path = write(tmp_path / "q.txt", text.splitlines())
        assert _flat(read_fol_qrels(path))[0] == _flat(_loop(text))[0]
    assert _same_as_loop(f"7 Q0 {'a' * NAME_BYTES} 10 100 5 0:5\n{'8' * NAME_BYTES} Q0 d1 3 9 1 2:1\n")


@pytest.mark.parametrize("seed", range(30))
def test_topic_judgements_are_made_when_used_and_behave_as_the_loops_dict(seed):
    """Qrels read as columns make no FolJudgement until one is used; then each topic's judgements are the
    loop's dict in every way a caller sees (length first, look-ups, order, equality, repr, changes), and
    the store hands out the same objects."""
    text = clean_qrels_text(random.Random(6300 + seed))
    q = fol._qrels_of_columns(read(text), "q.txt")
    loop = fol.qrels_from_lines(text, "q.txt")
    store = q.columns.judgements
    assert all(m is None for m in store._made)
    assert [len(t.judgements) for t in q.topics.values()] == [len(t.judgements) for t in loop.topics.values()]
    assert all(m is None for m in store._made)  # a length makes nothing
    for (topic, mine), theirs in zip(q.topics.items(), loop.topics.values()):
        expected = theirs.judgements
        first = next(iter(expected))
        assert mine.judgements.get(first) == expected[first] and first in mine.judgements
        assert mine.judgements.get("no such article") is None and "no such article" not in mine.judgements
        assert list(mine.judgements) == list(expected) and list(mine.judgements.values()) == list(expected.values())
        assert mine.judgements == expected and expected == mine.judgements and repr(mine.judgements) == repr(expected)
    assert q == loop
    made = [store[j] for j in range(len(store))]
    assert [j for t in q.topics.values() for j in t.judgements.values()] == made
    assert all(x is y for x, y in zip((j for t in q.topics.values() for j in t.judgements.values()), made))
    topic = next(iter(q.topics.values()))
    extra = fol.FolJudgement(1, 2)
    topic.judgements["added"] = extra
    assert topic.judgements["added"] is extra and len(topic.judgements) == len(dict(topic.judgements))
    del topic.judgements["added"]
    assert "added" not in topic.judgements


@pytest.mark.parametrize("seed", range(20))
def test_judgements_made_one_at_a_time_equal_those_made_by_topic(seed):
    """JudgementStore[j] (T2I asks for judged ranks' judgements one by one) makes the judgement a
    topic's mapping makes: same values, passages and spans, in any order of asking."""
    text = clean_qrels_text(random.Random(6500 + seed))
    one = fol._qrels_of_columns(read(text), "q.txt").columns.judgements
    by_topic = [j for t in fol.qrels_from_lines(text, "q.txt").topics.values() for j in t.judgements.values()]
    order = list(range(len(one)))
    random.Random(seed).shuffle(order)
    for j in order:
        assert one[j] == by_topic[j]
    assert all(one[j] is one[j] for j in order)
