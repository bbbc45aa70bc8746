"""docs/measures.md Example 13 (averaging, -e, undefined topics) and the writers' file contract."""

from __future__ import annotations

from fractions import Fraction as F

from helpers import assert_close
from inexeval.aggregate import average, counted_topics, natural_key
from inexeval.engine import Scorer
from inexeval.inputs import RecallBase
from inexeval.measures import registry
from inexeval.measures.registry import Params, Setting
from inexeval.model import Run, RunResult
from inexeval.writers.files import run_file_text, safe_name, summary_tsv
from t1data import topic_from_rows


def test_example13_averaging_with_and_without_e():
    rb = ["1", "2", "3", "4", "5"]
    run_topics = ["1", "2", "4", "9"]  # 9 is not in the recall-base: ignored
    per_topic = {"1": {"MAep": 0.5, "ep@0.01": 1.0, "ep@0.02": 0.5},
                 "2": {"MAep": 0.25, "ep@0.01": 0.5, "ep@0.02": 0.0},
                 "4": {"MAep": None, "ep@0.01": None, "ep@0.02": None}}  # nothing relevant
    assert counted_topics(run_topics, rb, False) == ["1", "2", "4"]
    avg = average(per_topic, ["MAep", "ep@0.01", "ep@0.02"])
    assert_close(avg["MAep"], F(3, 8), "(1/2 + 1/4)/2")
    assert_close(avg["ep@0.01"], F(3, 4), "curve point 1")
    assert_close(avg["ep@0.02"], F(1, 4), "curve point 2")
    assert counted_topics(run_topics, rb, True) == rb
    with_e = dict(per_topic, **{t: {"MAep": 0.0, "ep@0.01": 0.0, "ep@0.02": 0.0} for t in ("3", "5")})
    avg = average(with_e, ["MAep", "ep@0.01", "ep@0.02"])
    assert_close(avg["MAep"], F(3, 16), "(1/2 + 1/4 + 0 + 0)/4")
    assert_close(avg["ep@0.01"], F(3, 8), "curve point 1 with -e")
    assert_close(avg["ep@0.02"], F(1, 8), "curve point 2 with -e")
    assert average({}, ["MAep"]) == {"MAep": None}


def _scorer(topics):
    ms = [registry.find("ep/gr", "thorough"), registry.find("nxcg", "thorough")]
    s = Scorer(config=None, measures=ms, settings=[Setting("strict", "off", 1.0), Setting("gen", "off", 1.0)],
               params=Params(dcv=(10,), max_results=10))
    s.recall_base = RecallBase({t.topic: t for t in topics})
    s.prepare()
    return s


def test_scorer_undefined_topic_and_empty_as_zero():
    t2 = topic_from_rows("2", [("x", "/article[1]", 1, 10, 5)])  # strict: nothing relevant
    t3 = topic_from_rows("3", [("y", "/article[1]", 2, 10, 10)])
    s = _scorer([t2, t3])
    run = Run(run_id="r", source="r.xml", topics={"2": [("x", "/article[1]")]})
    strict, gen = s.score(run, empty_as_zero=True)
    assert strict.per_topic["2"]["MAep"] is None and strict.per_topic["3"]["MAep"] == 0.0
    assert strict.average["MAep"] == 0.0  # topic 2 undefined even with -e; topic 3 missing -> 0
    assert s.undefined == {"strict_off": {"2"}}
    assert_close(gen.per_topic["2"]["MAep"], 1, "gen: x /article[1] scores MAep 1")
    assert_close(gen.per_topic["2"]["nxCG@10"], 1, "gen nxCG@10")
    assert_close(gen.average["MAep"], F(1, 2), "(1 + 0)/2 with -e")
    strict, gen = s.score(run, empty_as_zero=False)
    assert list(gen.per_topic) == ["2"] and gen.average["MAep"] == 1.0
    assert strict.average["MAep"] is None  # an average over no topic is undefined


def test_run_file_lines_natural_order_full_precision_and_dash():
    r = RunResult(run_id="a b/c", setting="gen_off", measures=["MAep", "Q"],
                  per_topic={"10": {"MAep": 1 / 3, "Q": None}, "9": {"MAep": 0.5, "Q": 0.25}},
                  average={"MAep": 5 / 12, "Q": 0.25})
    assert run_file_text(r) == ("MAep\t9\t0.5\nMAep\t10\t0.3333333333333333\nMAep\tall\t0.4166666666666667\n"
                                "Q\t9\t0.25\nQ\t10\t-\nQ\tall\t0.25\n")
    assert safe_name("a b/c") == "a_b_c"
    assert summary_tsv([r]).splitlines() == ["run\tsetting\tMAep\tQ", "a b/c\tgen_off\t0.4166666666666667\t0.25"]
    assert sorted(["10", "9", "a2", "a10"], key=natural_key) == ["9", "10", "a2", "a10"]


def test_ids_equal_by_value_come_in_one_order():
    """Topic ids that differ only in leading zeros are equal by value: they come in code point order,
    whatever order they came in (a set's order changes with Python's string hashing from one process
    to the next: the result files' and tables' lines must not), in every process."""
    import subprocess
    import sys

    ids = ["1", "01", "a01", "001", "2", "a1", "0"]
    want = ["0", "001", "01", "1", "2", "a01", "a1"]
    assert sorted(ids, key=natural_key) == sorted(reversed(ids), key=natural_key) == want
    assert counted_topics(ids, set(ids), True) == want
    code = "from inexeval.aggregate import counted_topics as c; print(c([], set(%r), True))" % ids
    for seed in ("1", "2", "3", "4"):
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                             env={**__import__("os").environ, "PYTHONHASHSEED": seed}).stdout
        assert out.strip() == repr(want)
