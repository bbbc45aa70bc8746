"""inexeval.topic_columns: per-topic values kept as columns read exactly as the dictionaries they
replace ({topic: {measure: value}}), and survive pickling (results come back from worker processes)."""

from __future__ import annotations

import copy
import math
import pickle
import random

import numpy as np

from inexeval.topic_columns import TopicColumns, topic_rows, values_of


def _pair(rng: random.Random, text: bool = True):
    """Random columns (float64 arrays with NaN, -0.0 and infinities; lists with None and text, or
    without TEXT None and floats) and the dictionaries they stand for."""
    topics = rng.sample([f"t{i}" for i in range(50)] + ["9", "10", "010", "a2"], rng.randint(0, 12))
    columns: dict = {}
    for m in rng.sample(["map", "P_5", "ndcg", "relstring", "num_ret", "err"], rng.randint(1, 6)):
        if m == "relstring":
            columns[m] = [rng.choice(["", "1-0", None] if text else [0.25, None, math.nan]) for _ in topics]
        else:
            pool = [0.0, -0.0, 1.0, 0.1 + 0.2, math.nan, math.inf, 1e-300, 0.49375]
            columns[m] = np.array([rng.choice(pool) for _ in topics], dtype=np.float64)
    dicts = {t: {m: (c[i] if isinstance(c, list) else float(c[i])) for m, c in columns.items()}
             for i, t in enumerate(topics)}
    return TopicColumns(topics, columns), dicts


def _same(a, b) -> bool:
    """Equal as nested mappings, NaN equal to NaN, 0.0 apart from -0.0, and each value of the same type."""
    if list(a) != list(b):
        return False
    for t in a:
        ra, rb = a[t], b[t]
        if list(ra) != list(rb):
            return False
        for m in ra:
            x, y = ra[m], rb[m]
            if type(x) is not type(y):
                return False
            if isinstance(x, float) and (x.hex() if x == x else "nan") != (y.hex() if y == y else "nan"):
                return False
            if not isinstance(x, float) and x != y:
                return False
    return True


def test_columns_read_as_their_dictionaries():
    rng = random.Random(1)
    for _ in range(300):
        cols, dicts = _pair(rng)
        assert _same(cols, dicts)
        assert len(cols) == len(dicts) and list(cols.keys()) == list(dicts)
        for t in dicts:
            assert t in cols and cols.get(t) is not None
            row = cols[t]
            assert len(row) == len(dicts[t])
            assert row.get("no such measure") is None and "no such measure" not in row
            assert set(row) == set(dicts[t]) and all(m in row for m in dicts[t])
        assert "no such topic" not in cols and cols.get("no such topic", {}) == {}
        chosen = rng.sample(list(dicts), len(dicts) // 2)
        for m in list(next(iter(dicts.values()), {})) + ["absent"]:
            got, want = values_of(cols, m, chosen), values_of(dicts, m, chosen)
            assert _same({"x": dict(enumerate(got))}, {"x": dict(enumerate(want))})
        keep = set(rng.sample(list(cols.columns), rng.randint(0, len(cols.columns))))
        assert _same(cols.only(keep), {t: {m: v for m, v in r.items() if m in keep} for t, r in dicts.items()})
        for copied in (pickle.loads(pickle.dumps(cols)), copy.deepcopy(cols)):
            assert isinstance(copied, TopicColumns) and _same(copied, dicts)


def test_topic_rows_read_each_value_as_the_rows_do():
    """topic_rows (the standard-output table's cells, a column at a time) gives what reading each
    topic's row gives, value for value and type for type: a list column's integers as floats, as
    TopicColumns.value reads them, None for a measure a run has not."""
    rng = random.Random(5)
    for _ in range(300):
        cols, dicts = _pair(rng)
        if rng.random() < 0.5:  # a list column of counts (ints) with an undefined value
            ints = [rng.choice([0, 3, None, 2**40]) for _ in cols.topics]
            cols.columns["num_ret"] = ints
            for t, v in zip(cols.topics, ints):
                dicts[t]["num_ret"] = None if v is None else float(v)
        if rng.random() < 0.3:  # an array of ints (read as floats too)
            ints = np.array([rng.choice([0, 5, 2**40]) for _ in cols.topics], dtype=np.int64)
            cols.columns["num_rel"] = ints
            for t, v in zip(cols.topics, ints.tolist()):
                dicts[t]["num_rel"] = float(v)
        chosen = rng.sample(list(dicts), len(dicts))
        measures = rng.sample(list(cols.columns) + ["absent"], rng.randint(0, len(cols.columns) + 1))
        want = [tuple(cols[t].get(m) for m in measures) for t in chosen]
        got = topic_rows(cols, measures, chosen)
        assert len(got) == len(chosen)
        assert _same(dict(enumerate(map(dict, map(enumerate, got)))), dict(enumerate(map(dict, map(enumerate, want)))))
        assert _same(dict(enumerate(map(dict, map(enumerate, topic_rows(dicts, measures, chosen))))),
                     dict(enumerate(map(dict, map(enumerate, want)))))


def test_rows_compare_equal_to_dictionaries_and_are_read_only():
    cols = TopicColumns(["1", "2"], {"map": np.array([0.5, 0.25]), "relstring": ["1", None]})
    assert cols["1"] == {"map": 0.5, "relstring": "1"} and {"map": 0.25, "relstring": None} == cols["2"]
    assert cols == {"1": {"map": 0.5, "relstring": "1"}, "2": {"map": 0.25, "relstring": None}}
    assert type(cols["2"]["map"]) is float
    assert repr(cols["1"]) == repr({"map": 0.5, "relstring": "1"})
    try:
        cols["1"]["map"] = 1.0  # type: ignore[index]
    except TypeError:
        pass
    else:
        raise AssertionError("a row of TopicColumns accepted an assignment")


def test_result_files_of_columns_and_of_dictionaries_are_the_same_bytes():
    """writers.files.run_file_parts reads columns directly (repr of each float, the topics in natural
    order without sorting again when the engine says they are): the same text as from dictionaries."""
    from inexeval.aggregate import natural_key
    from inexeval.model import RunResult
    from inexeval.writers.files import run_file_text

    rng = random.Random(7)
    for _ in range(100):
        cols, dicts = _pair(rng, text=False)
        measures = list(cols.columns) + ["absent"]
        average = {m: rng.choice([None, 0.5, math.nan]) for m in measures}
        want = run_file_text(RunResult("r", "default", measures, dicts, average))
        assert run_file_text(RunResult("r", "default", measures, cols, average)) == want
        ordered = sorted(cols.topics, key=natural_key)
        natural = TopicColumns(ordered, {m: [c[cols.index[t]] for t in ordered] if isinstance(c, list)
                                         else c[[cols.index[t] for t in ordered]] for m, c in cols.columns.items()},
                               natural_order=True)
        assert run_file_text(RunResult("r", "default", measures, natural, average)) == want
