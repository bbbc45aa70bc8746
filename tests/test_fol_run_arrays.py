"""A FOL run split into fields once (inexeval.readers.fol_run_arrays): the reader's topic blocks from the
bounds equal the loop over its lines on ids of every kind, the bounds are kept on the run between the
reader and the scorer, let go once it is scored, and never pickled.
"""

from __future__ import annotations

import pickle
import random

import pytest
from fol_helpers import topics_by_loop, write
from folgen import qrels_text, random_qrels, random_run, run_text

from inexeval.measures.fol import FOL_TASKS, score_fol_run
from inexeval.readers.fol import read_fol_qrels, read_fol_run
from inexeval.readers.fol_qrels_arrays import NAME_BYTES
from inexeval.readers.fol_run_arrays import field_bounds, topic_blocks
from inexeval.readers.passages import topic_lines


IDS = ["7", "2009001", "é", "话题-3", "a" * NAME_BYTES, "x.y", "0007"]


@pytest.mark.parametrize("seed", range(40))
def test_topic_blocks_are_the_loops_topics(tmp_path, seed):
    """Each topic's lines, topics in order of their first line, as the loop over the lines finds them:
    ASCII and non-ASCII ids, an id of NAME_BYTES bytes, topics that come back after others."""
    rng = random.Random(9100 + seed)
    ids = rng.sample(IDS, rng.randint(1, 5))
    lines = [f"{rng.choice(ids)} Q0 d{rng.randint(1, 9)} {k + 1} 1.5 R {rng.randint(0, 99)} {rng.randint(1, 50)}"
             for k in range(rng.randint(1, 60))]
    if rng.random() < 0.5:
        lines.sort(key=lambda ln: ids.index(ln.split()[0]))  # grouped by topic
    run = read_fol_run(write(tmp_path / "run.txt", "\n".join(lines)))
    want = topics_by_loop(run)
    got = topic_blocks(run)
    assert got is not None and list(got.items()) == list(want.items())
    assert list(topic_lines(run).items()) == list(want.items())


def test_ids_too_long_or_lines_of_other_shapes_are_left_to_the_other_readers(tmp_path):
    """An id past NAME_BYTES, or a line of 7 fields: no blocks from the bounds, and topic_lines still
    gives the loop's topics."""
    long_id = "b" * (NAME_BYTES + 1)
    for text in (f"7 Q0 d1 1 1 R 0 5\n{long_id} Q0 d1 1 1 R 0 5", "7 Q0 d1 1 1 R 0 5\n8 Q0 d1 1 1 R 0"):
        run = read_fol_run(write(tmp_path / "run.txt", text))
        assert topic_blocks(run) is None
        assert list(topic_lines(run).items()) == list(topics_by_loop(run).items())


def test_the_bounds_are_kept_until_the_run_is_scored_and_never_pickled(tmp_path):
    rng = random.Random(31)
    qrels_data, _ = random_qrels(rng)
    qrels = read_fol_qrels(write(tmp_path / "qrels.txt", qrels_text(qrels_data)))
    for task in FOL_TASKS:
        path = write(tmp_path / f"run-{task}.txt", run_text(random_run(rng, qrels_data, task)))
        run = read_fol_run(path)
        first = field_bounds(run)
        assert first is not None and field_bounds(run) is first  # split once, kept
        copy = pickle.loads(pickle.dumps(run))
        assert copy.arrays is None and run.arrays is not None  # not sent to another process
        assert copy.columns()[1] == run.columns()[1]
        got = score_fol_run(qrels, run, task)
        assert run.arrays is None  # let go once scored
        fresh = score_fol_run(qrels, read_fol_run(path), task, arrays=False)  # the line walk
        # (repr: the values bit for bit, NaN included)
        assert repr((got.per_topic, got.all, got.topics)) == repr((fresh.per_topic, fresh.all, fresh.topics))
        assert repr(score_fol_run(qrels, copy, task).all) == repr(fresh.all)
