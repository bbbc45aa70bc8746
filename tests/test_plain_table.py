"""The standard-output table without tabulate (inexeval.writers.plain_table): on every table it
writes, the bytes tabulate writes; anything else is left to tabulate (None).  Random tables with the
corners of tabulate's reading: ids that look like numbers or bools, blanks, non-ASCII text, empty
ids; values that are NaN, infinite, integers, bools, -0.0, huge, tiny; columns of missing values only.
"""

from __future__ import annotations

import random

import pytest
from tabulate import tabulate

from inexeval.model import RunResult
from inexeval.names import cell, text_columns
from inexeval.writers.plain_table import simple_table
from inexeval.writers.table import render

IDS = ["1", "7", "42", "2009001", "-0", "-5", "0", "007", "all", "run.a", "bert_inex_converted.bic", "1e3",
       "nan", "inf", "True", "False", "", " x", "x ", "a b", "ünï", "1_000", "1,000", "0x1f", "3.5", "日本"]
PLAIN = ["1", "7", "42", "2009001", "2009002", "0", "-5", "101"]
TEXT = ["all", "run.a", "bert_inex_converted.bic", "r-1", "x_y", "A", "run 2"]


def _value(rng: random.Random, odd: bool):
    if odd and rng.random() < 0.15:
        return rng.choice([float("nan"), float("inf"), -float("inf"), 3, 0, True, -0.0, 1e20, 1e-9, -12.5, "0.5"])
    if rng.random() < 0.15:
        return None
    return rng.choice([rng.random(), rng.uniform(-1, 1), rng.uniform(0, 1000), 0.0, 1.0])


def _count(rng: random.Random, odd: bool):
    if odd and rng.random() < 0.1:
        return rng.choice([0.5, 3.0, True, -7, 10**20, "3"])
    if rng.random() < 0.15:
        return None
    return rng.choice([0, 1, 7, 80, 1000, 123456, rng.randint(0, 10**6)])


def _table(rng: random.Random, odd: bool):
    n_ids = rng.choice([1, 2])
    n_values = rng.randint(0 if odd else 1, 6)
    header = ["run", "topic"][:n_ids] + [rng.choice(["MAgP", "gP[5]", "iP[0.00]", "x", "a_very_long_measure_name",
                                                     "map", "P_10"]) for _ in range(n_values)]
    if odd and rng.random() < 0.1:
        header[-1] = rng.choice(["", " pad", "é"])
    pools = [rng.choice([PLAIN, TEXT, IDS if odd else TEXT]) for _ in range(n_ids)]
    counts = [j for j in range(n_values) if rng.random() < 0.2]  # count columns (num_ret): ints and missing ones
    rows = [[rng.choice(pool) for pool in pools]
            + [_count(rng, odd) if j in counts else _value(rng, odd) for j in range(n_values)]
            for _ in range(rng.randint(0 if odd else 1, 12))]
    if rows and rng.random() < 0.1:  # a column of missing values only
        for row in rows:
            row[-1] = None
    return rows, header, n_ids


def _tabulate(rows, header, ids):
    return tabulate(rows, headers=header, floatfmt=".4f", disable_numparse=ids, missingval="-")


@pytest.mark.parametrize("odd", [False, True])
def test_random_tables_are_tabulates(odd):
    rng = random.Random(35 + odd)
    written = 0
    for _ in range(3000):
        rows, header, n_ids = _table(rng, odd)
        ids = text_columns(rows, list(range(n_ids)))
        text = simple_table(rows, header, n_ids, ids)
        if text is not None:
            written += 1
            assert text == _tabulate(rows, header, ids), (rows, header, ids)
    assert written > (2500 if not odd else 300)  # the everyday tables are written here, not by tabulate


def test_everyday_tables_are_written_without_tabulate():
    rows = [["bert_inex_converted.bic", "2009001", 0.0319, 0.0, None],
            ["bert_inex_converted.bic", "all", 0.5, 1.0, 0.25]]
    header = ["run", "topic", "MAgP", "gP[5]", "gP[10]"]
    text = simple_table(rows, header, 2, text_columns(rows, [0, 1]))
    assert text == _tabulate(rows, header, [0, 1])
    assert text.splitlines()[2] == "bert_inex_converted.bic  2009001  0.0319   0.0000    -"
    # a count column (num_ret): integers right-aligned, a missing one "-"
    rows = [["good", 80, 0.5], ["medium", None, 0.25], ["poor", 1234567, None]]
    text = simple_table(rows, ["run", "num_ret", "map"], 1, [0])
    assert text == _tabulate(rows, ["run", "num_ret", "map"], [0])
    assert text.splitlines()[2:] == ["good           80  0.5000", "medium          -  0.2500", "poor      1234567  -"]
    # plain integer run ids: right-aligned, as tabulate reads them as numbers
    rows = [["7", 0.5], ["12", None]]
    assert simple_table(rows, ["run", "MAiP"], 1, []) == _tabulate(rows, ["run", "MAiP"], [])


@pytest.mark.parametrize("rows", [
    [["r", float("nan")]], [["r", True]], [["r", None]], [[" r", 0.5]], [["ü", 0.5]], [["", 0.5]],
    [["True", 0.5]], [["r", float("inf")]], [], [["r", 3], ["s", 0.5]], [["r", 3], ["s", True]],
])
def test_what_tabulate_reads_otherwise_is_left_to_it(rows):
    assert simple_table(rows, ["run", "m"], 1, [0]) is None


def test_render_is_the_tabulate_table():
    rng = random.Random(7)
    for _ in range(200):
        results = []
        columns = ["MAgP", "gP[5]", "gP[10]"]
        for k in range(rng.randint(1, 4)):
            per_topic = {rng.choice(PLAIN + TEXT + IDS): {c: _value(rng, True) for c in columns}
                         for _ in range(rng.randint(0, 6))}
            results.append(RunResult(rng.choice(TEXT + IDS + ["x\ty"]) + str(k), "default", columns, per_topic,
                                     {c: _value(rng, False) for c in columns}))
        for per_topic in (False, True):
            rows = []
            for r in results:
                if per_topic:
                    from inexeval.aggregate import natural_key

                    for t in sorted(r.per_topic, key=natural_key):
                        rows.append([cell(r.run_id), cell(t), *(r.per_topic[t].get(c) for c in columns)])
                rows.append([cell(r.run_id), "all", *(r.average.get(c) for c in columns)])
            header = ["run", "topic", *columns]
            if not per_topic:
                header = [header[0], *header[2:]]
                rows = [[row[0], *row[2:]] for row in rows]
            ids = text_columns(rows, [0, 1] if per_topic else [0])
            expected = "== T  default ==\n" + _tabulate(rows, header, ids)
            assert render("T", "default", results, columns, per_topic=per_topic) == expected


def test_render_shows_whole_counts_as_integers():
    """``counts``: a column of whole numbers (num_ret, a sum) is printed as integers by the table; a
    count column holding a mean that is not whole keeps 4 decimals; tsv/csv/json keep full precision."""
    columns = ["num_ret", "num_rel", "map"]
    results = [RunResult("good", "default", columns, {"1": {"num_ret": 20.0, "num_rel": 7.0, "map": 1.0},
                                                      "2": {"num_ret": 20.0, "num_rel": 8.0, "map": 0.5}},
                         {"num_ret": 40.0, "num_rel": 7.5, "map": 0.75})]
    counts = frozenset({"num_ret", "num_rel"})
    text = render("trec", "default", results, columns, per_topic=True, counts=counts)
    assert text.splitlines()[1:] == ["run    topic      num_ret    num_rel     map",
                                     "-----  -------  ---------  ---------  ------",
                                     "good   1               20     7.0000  1.0000",
                                     "good   2               20     8.0000  0.5000",
                                     "good   all             40     7.5000  0.7500"]
    assert render("trec", "default", results, columns, counts=frozenset()).splitlines()[3] == (
        "good     40.0000     7.5000  0.7500")
    assert "40.0" in render("trec", "default", results, columns, fmt="tsv", counts=counts)
    intervals = {("good", "default"): {"map": (0.5, 1.0)}}
    assert render("trec", "default", results, columns, intervals=intervals, counts=counts).splitlines()[3] == (
        "good   40         7.5000     0.7500 ±0.2500")
