"""The fast FOL scorer against a slow literal second reading (tests/fol_reference.py) on seeded random cases.

Random qrels and runs carry the edge cases of the specification: topics on
one side only, non-relevant, 5- and 6-field and duplicate judgement lines,
negative-length qrels passages, unknown passages (X, -1), zero and negative
lengths, overlapping and touching passages, articles interleaved, topics in
several blocks (D5), non-integer offsets.  Every task, with and without -c,
and non-default -n / -beta / -irr.
"""

from __future__ import annotations

import math
import random

import pytest
from fol_helpers import read_random_fol_case
from fol_reference import reference

from inexeval.measures.fol import FOL_TASKS, score_fol_run


def _same(a, b) -> bool:
    if isinstance(a, float) or isinstance(b, float):
        return (a != a and b != b) or a == b or math.isclose(a, b, rel_tol=1e-12, abs_tol=1e-15)
    return a == b


@pytest.mark.parametrize("seed", range(300))
def test_fast_scorer_agrees_with_the_literal_reading(tmp_path, seed):
    rng = random.Random(1000 + seed)
    qrels, run = read_random_fol_case(tmp_path, rng)
    lines = [(ln.line, ln.raw, ln.fields) for ln in run.lines]
    options = [{}, {"n": rng.choice([0, 20, 20000]), "beta": rng.choice([0.5, 2.0]), "irr": rng.choice([0, 50, -5])}]
    for task in FOL_TASKS:
        for complete in (False, True):
            for opts in options:
                fast = score_fol_run(qrels, run, task, complete=complete, **opts)
                kind, payload = reference(qrels, lines, task, complete=complete, **opts)
                where = f"task {task} complete {complete} {opts}"
                if kind == "rejected":
                    assert fast.rejected is not None and payload in fast.rejected[0], where
                    continue
                if kind == "death":
                    assert fast.death is not None, where
                    if payload is not None:
                        assert fast.death.line == payload, where
                    continue
                assert fast.rejected is None and fast.death is None, where
                impossible, per_topic, means, run_id = payload
                assert fast.impossible == [f"Impossible recall point: {b}" for b in impossible], where
                assert fast.run_id == run_id
                assert fast.topics == list(per_topic), where
                for topic, row in per_topic.items():
                    curve = row.pop("curve")
                    assert list(fast.per_topic[topic]) == list(row), where
                    for name, value in row.items():
                        assert _same(fast.per_topic[topic][name], value), (where, topic, name)
                    assert all(_same(x, y) for x, y in zip(fast.curves[topic], curve, strict=True)), (where, topic)
                ircl = [v for k, v in means.items() if k.startswith("ircl:")]
                assert all(_same(x, y) for x, y in zip(
                    [v for k, v in fast.all.items() if k.startswith("ircl_prn")], ircl, strict=True)), where
                for name, value in means.items():
                    if not name.startswith("ircl:"):
                        assert _same(fast.all[name], value), (where, name)
