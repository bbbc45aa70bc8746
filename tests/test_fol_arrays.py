"""The FOL run read as arrays (inexeval.measures.fol_arrays) against the line walk: the same outcome, bit for bit.

Two kinds of seeded random cases: the edge cases of fol_helpers.random_fol_case
(rejections, deaths, topics in several blocks, unknown passages, zero and
negative lengths, bad qrels), where the arrays read what they can and leave
the rest to the walk; and valid runs (folgen) for every task, made harder
with a topic that comes back after another (the walk goes on from the
arrays' state), unknown passages and lines of a topic without qrels, where
the arrays must read the run (at least up to the comeback).
"""

from __future__ import annotations

import random
import re

import pytest
from fol_helpers import read_random_fol_case, write
from folgen import qrels_text, random_qrels, random_run, run_text

from inexeval import records
from inexeval.measures import fol_arrays
from inexeval.measures.fol import FOL_TASKS, score_fol_run
from inexeval.readers.fol import read_fol_qrels, read_fol_run
from inexeval.readers.fol_run_arrays import field_bounds


def _outcome(o) -> list[str]:
    return [repr(getattr(o, f.name)) for f in records.fields(o)]


def _both(qrels, run, task, **options):
    arrays = score_fol_run(qrels, run, task, arrays=True, **options)
    walked = score_fol_run(qrels, run, task, arrays=False, **options)
    assert _outcome(arrays) == _outcome(walked), (task, options)
    return arrays


@pytest.mark.parametrize("seed", range(200))
def test_edge_cases_as_the_walk(tmp_path, seed):
    rng = random.Random(7000 + seed)
    qrels, run = read_random_fol_case(tmp_path, rng)
    for task in FOL_TASKS:
        for bounded in (False, True):
            _both(qrels, run, task, bounded=bounded, complete=rng.random() < 0.3, n=rng.choice([0, 20, 500]))


def _come_back(rng: random.Random, rows: list) -> list:
    """ROWS with the second half of one topic's lines moved to the end (the topic comes back)."""
    topics = list(dict.fromkeys(r[0] for r in rows))
    if len(topics) < 2:
        return rows
    t = rng.choice(topics[:-1])
    mine = [i for i, r in enumerate(rows) if r[0] == t]
    moved = set(mine[len(mine) // 2:])
    if not moved or len(moved) == len(mine):
        return rows
    return [r for i, r in enumerate(rows) if i not in moved] + [rows[i] for i in sorted(moved)]


@pytest.mark.parametrize("seed", range(150))
def test_valid_runs_read_as_arrays(tmp_path, seed):
    rng = random.Random(9000 + seed)
    qrels_map, _ = random_qrels(rng)
    qrels = read_fol_qrels(write(tmp_path / "q.txt", qrels_text(qrels_map)))
    for task in FOL_TASKS:
        rows = random_run(rng, qrels_map, task)
        rows = [r for r in rows if r[2] == "X" or r[3] != "0"]  # no empty passage (the walk's)
        if rng.random() < 0.5:
            rows = _come_back(rng, rows)
        run = read_fol_run(write(tmp_path / f"run-{task}.txt", run_text(rows)))
        prefix = fol_arrays.walk(qrels, run, task, 500)
        outcome = _both(qrels, run, task, bounded=True)
        if outcome.rejected is None and outcome.death is None and (task != "t" or not _overlaps(rows)):
            assert prefix is not None, task
        _both(qrels, run, task, bounded=False, complete=True, n=rng.choice([0, 40]))


def _overlaps(rows) -> bool:
    seen: dict = {}
    for t, a, o, n in rows:
        if o == "X":
            continue
        s, e = int(o), int(o) + int(n)
        if any(s2 < e and e2 > s for s2, e2 in seen.get((t, a), [])):
            return True
        seen.setdefault((t, a), []).append((s, e))
    return False


def test_a_topic_that_comes_back_goes_on_with_the_current_state(tmp_path):
    qrels = read_fol_qrels(write(tmp_path / "q.txt", ["1 Q0 d1 10 100 0 0:10", "2 Q0 d2 10 100 5 5:10",
                                                        "2 Q0 d1 20 100 0 0:20"]))
    lines = ["1 Q0 d1 1 1 R 0 5", "2 Q0 d1 1 1 R 0 4", "2 Q0 d2 1 1 R 5 5", "1 Q0 d1 1 1 R 5 5",
             "1 Q0 d2 1 1 R 0 50", "2 Q0 d1 1 1 R 40 1"]
    run = read_fol_run(write(tmp_path / "run.txt", lines))
    for task in "ft":
        prefix = fol_arrays.walk(qrels, run, task, 500)
        assert prefix is not None and prefix.stop == 3 and prefix.prev == "d2", task
        _both(qrels, run, task, bounded=True)
    for task in "ri":
        _both(qrels, run, task, bounded=True)


@pytest.mark.parametrize("text", [
    "1 Q0 d1 1 1 R 0 5 \n",  # white space at the end of a line
    " 1 Q0 d1 1 1 R 0 5\n",  # and first: an empty first field
    "1 Q0 d1 1 1 R 0\n",  # 7 fields
    "1 Q0 d1 1 1 R 0 5 6\n",  # 9 fields
    "1 Q0 d1 1 1 R 0 0\n",  # an empty passage
    "1 Q0 d1 1 1 R 0 1234567890\n",  # 10 digits
    "1 Q0 d1 1 1 R +3 5\n",
    "1 Q0 d1 1 1 R 0 5\n\n1 Q0 d1 1 1 R 9 5\n",  # an empty line
])
def test_lines_left_to_the_walk(tmp_path, text):
    qrels = read_fol_qrels(write(tmp_path / "q.txt", ["1 Q0 d1 10 100 0 0:10"]))
    run = read_fol_run(write(tmp_path / "run.txt", text))
    assert fol_arrays.walk(qrels, run, "f", 500) is None
    for task in FOL_TASKS:
        _both(qrels, run, task, bounded=True)


def test_a_run_id_longer_than_name_bytes_is_left_to_the_walk(tmp_path):
    """A topic or article id past NAME_BYTES in the run: the walk reads it, with the same outcome."""
    from inexeval.readers.fol_qrels_arrays import NAME_BYTES

    qrels = read_fol_qrels(write(tmp_path / "q.txt", ["1 Q0 d1 10 100 0 0:10", "1 Q0 d2 5 50 2 2:5"]))
    long = "d" * (NAME_BYTES + 1)
    for lines in (["1 Q0 d1 1 1 R 0 5", f"1 Q0 {long} 2 1 R 0 4", "1 Q0 d2 3 1 R 2 5"],
                  ["1 Q0 d1 1 1 R 0 5", f"{long} Q0 d2 2 1 R 0 4", "1 Q0 d2 3 1 R 2 5"]):
        run = read_fol_run(write(tmp_path / "run.txt", lines))
        for task in FOL_TASKS:
            assert fol_arrays.walk(qrels, run, task, 500) is None
            _both(qrels, run, task, bounded=True)
    run = read_fol_run(write(tmp_path / "run.txt", ["1 Q0 d1 1 1 R 0 5", f"1 Q0 {long[1:]} 2 1 R 0 4"]))
    assert fol_arrays.walk(qrels, run, "f", 500) is not None


def _fields_by_regex(text: str, lines: int):
    """(starts, ends) of every line's fields when each of LINES lines has 8 fields with no white space
    first or last in the line (nor the text), else None: fol_run_arrays.field_bounds' answer, by regular expression."""
    data = text.encode("utf-8", "surrogatepass")
    if not data or data[:1].isspace() or data[-1:].isspace() or b"\0" in data:
        return None
    rows = data.split(b"\n")
    if len(rows) != lines:
        return None
    starts, ends, at = [], [], 0
    for row in rows:
        found = [(at + m.start(), at + m.end()) for m in re.finditer(rb"[^\t\n\x0b\x0c\r ]+", row)]
        if len(found) != 8 or found[0][0] != at or found[-1][1] != at + len(row):
            return None
        starts.append([s for s, _ in found])
        ends.append([e for _, e in found])
        at += len(row) + 1
    return starts, ends


@pytest.mark.parametrize("seed", range(60))
def test_a_runs_fields_as_a_regular_expression_finds_them(tmp_path, seed):
    """fol_run_arrays.field_bounds (one byte between fields, or the general edge search) against a regular
    expression, on runs of 8-field lines spoiled by doubled or odd white space, missing or extra fields."""
    rng = random.Random(4400 + seed)
    rows = [[rng.choice(["1", "22", "2009001"]), "Q0", rng.choice(["d1", "doc-22", "x"]), str(rng.randint(1, 99)),
             "1.5", "R", rng.choice(["X", "-1", str(rng.randint(0, 999))]), str(rng.randint(1, 99))]
            for _ in range(rng.randint(1, 40))]
    lines = [" ".join(r) for r in rows]
    for _ in range(rng.choice([0, 0, 1, 2])):
        i = rng.randrange(len(lines))
        spoil = rng.choice(["double", "tab", "vt", "drop", "extra", "lead", "trail"])
        words = lines[i].split(" ")
        if spoil == "double":
            lines[i] = lines[i].replace(" ", "  ", 1)
        elif spoil == "tab":
            lines[i] = lines[i].replace(" ", "\t", 1)
        elif spoil == "vt":
            lines[i] = lines[i].replace(" ", "\x0b \x0c", 1)
        elif spoil == "drop":
            lines[i] = " ".join(words[:-1])
        elif spoil == "extra":
            lines[i] = lines[i] + " 9"
        elif spoil == "lead":
            lines[i] = " " + lines[i]
        else:
            lines[i] = lines[i] + " "
    text = "\n".join(lines)
    run = read_fol_run(write(tmp_path / "run.txt", text))
    got = field_bounds(run)
    expected = _fields_by_regex(text, len(run)) if run.plain_text() is not None else None
    if expected is None:
        assert got is None
    else:
        assert got is not None and got[1].tolist() == expected[0] and got[2].tolist() == expected[1]


def test_a_runs_fields_one_byte_apart_and_not(tmp_path):
    """Both ways of field_bounds give the fields: one byte between fields (the usual run), and the edge search
    (doubled or odd white space); a line of 7 fields after the others leaves the run to the walk."""
    clean = "1 Q0 d1 1 1.5 R 0 5\n1 Q0 d2 2 1.5 R X 18"
    for text in (clean, clean.replace(" ", "  ", 1), clean.replace(" ", "\t\x0b", 2)):
        run = read_fol_run(write(tmp_path / "run.txt", text))
        got = field_bounds(run)
        expected = _fields_by_regex(text, 2)
        assert got is not None and (got[1].tolist(), got[2].tolist()) == expected
    assert field_bounds(read_fol_run(write(tmp_path / "run.txt", clean + "\n1 Q0 d3 3 1 R 0"))) is None


def _come_back_inside(rng: random.Random, rows: list, times: int) -> list:
    """ROWS with the second half of a topic's lines moved after a later topic's lines, TIMES times: the
    topic comes back between topics, and topics met for the first time follow it."""
    for _ in range(times):
        topics = list(dict.fromkeys(r[0] for r in rows))
        if len(topics) < 3:
            return rows
        i = rng.randrange(len(topics) - 2)
        t, after = topics[i], topics[rng.randrange(i + 1, len(topics) - 1)]
        mine = [j for j, r in enumerate(rows) if r[0] == t]
        moved = mine[len(mine) // 2:]
        if not moved or len(moved) == len(mine):
            continue
        rest = [r for j, r in enumerate(rows) if j not in set(moved)]
        at = max(j for j, r in enumerate(rest) if r[0] == after) + 1
        rows = rest[:at] + [rows[j] for j in moved] + rest[at:]
    return rows


@pytest.mark.parametrize("seed", range(120))
def test_topics_that_come_back_between_others_read_in_segments(tmp_path, seed):
    """A run whose topics come back between other topics: the arrays read up to each comeback, the walk
    from there to the next topic met for the first time, the arrays on (fol.score_fol_run's segments);
    the outcome is the line walk's, bit for bit, for every task, bounded or not."""
    rng = random.Random(9900 + seed)
    qrels_map, _ = random_qrels(rng, n_topics=rng.randint(4, 7))
    qrels = read_fol_qrels(write(tmp_path / "q.txt", qrels_text(qrels_map)))
    for task in FOL_TASKS:
        rows = random_run(rng, qrels_map, task)
        rows = [r for r in rows if r[2] == "X" or r[3] != "0"]  # no empty passage (the walk's)
        rows = _come_back_inside(rng, rows, rng.choice([1, 2, 3]))
        run = read_fol_run(write(tmp_path / f"run-{task}.txt", run_text(rows)))
        _both(qrels, run, task, bounded=True)
        _both(qrels, run, task, bounded=False, complete=True, n=rng.choice([0, 40]))


def test_a_runs_columns_are_let_go_when_it_is_scored(tmp_path):
    """The columns kept between a run's segments are not held once the run is scored (a large run's
    columns are hundreds of MB), whether the arrays read it or declined it."""
    qrels = read_fol_qrels(write(tmp_path / "q.txt", ["1 Q0 d1 10 100 0 0:10", "2 Q0 d2 10 100 5 5:10"]))
    for lines in (["1 Q0 d1 1 1 R 0 5", "2 Q0 d2 1 1 R 5 5", "1 Q0 d1 2 1 R 6 2"],  # read in segments
                  ["1 Q0 d1 1 1 R 0 5", "1 Q0 d1 2 1 R 2 5"]):  # overlapping passages: declined (-f)
        run = read_fol_run(write(tmp_path / "run.txt", lines))
        for task in FOL_TASKS:
            score_fol_run(qrels, run, task, arrays=True)
            assert fol_arrays._run_cache is None, task


def _random_rank_columns(rng: random.Random, task: str, lengths: list[int]) -> fol_arrays.RankColumns:
    """RankColumns of LENGTHS ranks per topic, with scores of every shape: 0.0, -0.0, ties, values on
    which a sum's rounding depends, NaN and inf (-r's F of 0 / 0 and x / 0), and found counts that may
    pass the topic's num_rel (a recall bin of 11 or more)."""
    import numpy as np

    total = sum(lengths)
    found, rel_chars = [], []
    for n in lengths:
        f = 0
        for _ in range(n):
            f += rng.random() < 0.4
            found.append(f)
            rel_chars.append(rng.choice([0, 0, 1, 50]))
    pool = [0.0, -0.0, 1.0, 0.1, 0.2, 0.3, 1 / 3, 2 / 3, 1e-17, 0.5]
    if task == "b":
        return fol_arrays.RankColumns("b", np.array(rel_chars, dtype=np.int64), np.array(found, dtype=np.int64),
                                      score=np.array([rng.choice(pool) for _ in range(total)]))
    size = np.array([rng.choice([0, 1, 7, 100]) for _ in range(total)], dtype=np.int64)
    rel = np.array([rng.choice([0, 0, 1, 7]) for _ in range(total)], dtype=np.int64)
    return fol_arrays.RankColumns("r", np.array(rel_chars, dtype=np.int64), np.array(found, dtype=np.int64),
                                  size=size, rel=rel, rank_j=np.full(total, -1, dtype=np.int64))


@pytest.mark.parametrize("seed", range(300))
def test_curves_at_once_are_each_topics_curve(seed):
    """fol_arrays.curves (every topic of a run at once, the in-context tasks) gives each topic what
    fol_arrays.curve gives it, bit for bit (repr of every value), None where curve leaves the topic to
    the loop: num_rel <= 0, a recall bin past 10; and None altogether for ranks of two RankColumns or
    lengths too unequal to lay out in one matrix."""
    rng = random.Random(4400 + seed)
    task = rng.choice("br")
    lengths = [rng.choice([0, 1, 2, 3, 10, 60]) for _ in range(rng.randint(1, 12))]
    if rng.random() < 0.15:
        lengths.append(5000)  # one long topic among short ones: too unequal (fol_arrays._PADDING)
    columns = _random_rank_columns(rng, task, lengths)
    bounds = [0]
    for n in lengths:
        bounds.append(bounds[-1] + n)
    ranks = [fol_arrays.TopicRanks(columns, bounds[i], bounds[i + 1]) for i in range(len(lengths))]
    rng.shuffle(ranks)  # (the qrels' topic order, not the run's)
    num_rel = [rng.choice([-1, 0, 1, 2, 5, 40]) for _ in ranks]
    bb, irr = rng.choice([0.0625, 1.0, 4.0]), 300
    got = fol_arrays.curves(ranks, num_rel, bb, irr, None)
    one_matrix = len(ranks) * max(lengths) <= fol_arrays._PADDING * sum(lengths) + 4096 and max(lengths) > 0
    if not one_matrix:
        assert got is None
        return
    assert got is not None and len(got) == len(ranks)
    for r, nr, g in zip(ranks, num_rel, got):
        want = fol_arrays.curve(r, nr, bb, irr, None)
        if want is None:
            assert g is None
            continue
        assert g is not None
        gp, gr, iP, total = g
        assert [repr(v) for v in gp.tolist()] == [repr(v) for v in want[0].tolist()]
        assert [repr(v) for v in gr.tolist()] == [repr(v) for v in want[1].tolist()]
        assert [repr(v) for v in iP] == [repr(v) for v in want[2]]
        assert repr(total) == repr(want[3])


def test_curves_of_ranks_of_two_runs_are_left_to_curve():
    a = _random_rank_columns(random.Random(1), "b", [3, 4])
    b = _random_rank_columns(random.Random(2), "b", [3])
    ranks = [fol_arrays.TopicRanks(a, 0, 3), fol_arrays.TopicRanks(b, 0, 3)]
    assert fol_arrays.curves(ranks, [2, 2], 1.0, 300, None) is None
    assert fol_arrays.curves([], [], 1.0, 300, None) == []


@pytest.mark.parametrize("seed", range(80))
def test_t2i_runs_at_every_tolerance_as_the_walk(tmp_path, seed):
    """-i read as arrays (every rank's T2I score at once, measures/fol_t2i.py) against the line walk at
    tolerances on every side of the cases it leaves to the walk: 0 and negative, 1, small, the default,
    large and near 2^31 - 1 (where the walk's sums may wrap around), with topics that come back."""
    rng = random.Random(9700 + seed)
    qrels_map, _ = random_qrels(rng)
    qrels = read_fol_qrels(write(tmp_path / "q.txt", qrels_text(qrels_map)))
    rows = random_run(rng, qrels_map, "i")
    rows = [r for r in rows if r[2] == "X" or r[3] != "0"]
    if rng.random() < 0.5:
        rows = _come_back(rng, rows)
    run = read_fol_run(write(tmp_path / "run.txt", run_text(rows)))
    for irr in rng.sample([-5, 0, 1, 2, 7, 50, 300, 10_000, 2**31 - 1000, 2**31 - 1], 4):
        _both(qrels, run, "i", irr=irr, bounded=rng.random() < 0.5, complete=rng.random() < 0.3)
