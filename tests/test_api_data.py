"""``inexeval.evaluate_trec`` with data in memory (docs/formats.md §8.1): the same
random qrels and run (tests/trecgen.py: graded, ties and near-ties, topics missing on either side)
given as paths, gzip paths, dicts, DataFrames (ir_measures' and ranx's columns), tuples, generators and
ir_measures' named tuples give the same Results, which are the numbers of the ``inexeval trec-eval``
drop-in (per topic and mean, its default measures, also with -c, -l and -M); the order of a run's
rows changes nothing; empty runs, run topics the qrels lack and repeated results behave as in files;
bad data raises an InputError that names what is wrong; ``Results.to_dataframe``.
"""

from __future__ import annotations

import gzip
import io
import math
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import inexeval
from inexeval.dropins.trec_eval.cli import main as trec_eval_main
from inexeval.errors import ConfigError, InexevalError, InputError
from inexeval.readers.trec import read_qrels, read_run
from inexeval.trec import evaluate, evaluate_trec, format_trec_eval
import trecgen

pd = pytest.importorskip("pandas")

SEEDS = list(range(8))


# --- the data, in every shape ------------------------------------------------------------------


def _case(tmp_path: Path, seed: int, **kw) -> tuple[Path, Path]:
    case = trecgen.qrels_and_run(random.Random(7000 + seed), **kw)
    paths = trecgen.write_case(tmp_path / f"case{seed}", {"qrels": case.qrels, "run": case.run})
    return paths["qrels"], paths["run"]


def _rows(path: Path, qrels: bool) -> list[tuple]:
    """The records of a file as the reader reads them: (query id, doc id, relevance or score), in file order."""
    if qrels:
        q = read_qrels(path)
        order = q.line.argsort()
        return [(q.qid[i].decode(), q.docno[i].decode(), int(q.rel[i])) for i in order]
    r = read_run(path)
    return [(a.decode(), b.decode(), float(s)) for a, b, s in zip(r.qid, r.docno, r.score)]


def _nested(rows: list[tuple]) -> dict:
    out: dict = {}
    for q, d, v in rows:
        out.setdefault(q, {})[d] = v
    return out


def _gz(path: Path) -> Path:
    gz = path.with_name(path.name + ".gz")
    gz.write_bytes(gzip.compress(path.read_bytes()))
    return gz


def shapes(qpath: Path, rpath: Path) -> dict[str, tuple]:
    """(qrels, run) in every accepted shape, by name."""
    import ir_measures

    qrows, rrows = _rows(qpath, True), _rows(rpath, False)
    cols = ["query_id", "doc_id"]
    return {
        "paths": (qpath, rpath),
        "str paths": (str(qpath), [str(rpath)]),
        "gzip paths": (_gz(qpath), _gz(rpath)),
        "dicts": (_nested(qrows), _nested(rrows)),
        "ir_measures DataFrames": (pd.DataFrame(qrows, columns=cols + ["relevance"]),
                                   pd.DataFrame(rrows, columns=cols + ["score"])),
        "ranx DataFrames": (pd.DataFrame(qrows, columns=["q_id", "doc_id", "score"]),
                            pd.DataFrame(rrows, columns=["q_id", "doc_id", "score"])),
        "tuples": (qrows, rrows),
        "generators": ((r for r in qrows), (r for r in rrows)),
        "ir_measures named tuples": ([ir_measures.Qrel(q, d, v, "0") for q, d, v in qrows],
                                     [ir_measures.ScoredDoc(q, d, s) for q, d, s in rrows]),
        "a dict of runs": (_nested(qrows), {"mine": pd.DataFrame(rrows, columns=cols + ["score"])}),
    }


def numbers(res) -> list[tuple[dict, dict]]:
    """Every run's (average, per_topic), in run order (ids aside: a file's is its tag)."""
    return [(res.average(r), res.per_topic(r)) for r in res.runs]


def same(a, b) -> bool:
    """Equal values, NaN and None equal to themselves."""
    if isinstance(a, dict):
        return isinstance(b, dict) and a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    return a == b


# --- the drop-in's numbers ---------------------------------------------------------------------


def dropin(args: list) -> tuple[int, dict[tuple[str, str], str]]:
    """``inexeval trec-eval -q ARGS``: its status and {(measure, topic): printed value}."""
    out, err = io.BytesIO(), io.StringIO()
    status = trec_eval_main(["-q", *map(str, args)], out, err)
    values = {}
    for line in out.getvalue().decode().splitlines():
        label, topic, value = (x.strip() for x in line.split("\t"))
        if label != "runid":
            values[label, topic] = value
    return status, values


def as_printed(res, like: dict | None = None) -> dict[tuple[str, str], str]:
    """RES in trec_eval's layout (4 decimals, rounded as trec_eval rounds), as :func:`dropin` reads it;
    with LIKE (the drop-in's), only its lines (its default set is trec_eval's: no ndcg, ...), every one."""
    (run,) = res.runs
    text = format_trec_eval(res.result(run), 4, per_query=True)
    values = {}
    for line in text.splitlines():
        label, topic, value = (x.strip() for x in line.split("\t"))
        if label != "runid":
            values[label, topic] = value
    if like is not None:
        assert like.keys() <= values.keys(), sorted(like.keys() - values.keys())[:5]
        values = {k: values[k] for k in like}
    return values


@pytest.mark.parametrize("seed", SEEDS)
def test_every_shape_gives_the_dropins_numbers(tmp_path, seed):
    qpath, rpath = _case(tmp_path, seed)
    want = None
    for name, (q, r) in shapes(qpath, rpath).items():
        res = evaluate(q, r)
        assert len(res.runs) == 1 and not res.problems, name
        got = numbers(res)
        if want is None:
            want, base = got, name
        assert same(got, want), f"{name} differs from {base}"
    status, printed = dropin([qpath, rpath])
    if status == 0:  # (trec_eval 10.0 stops on some topics missing from the run: -c below)
        assert as_printed(evaluate(qpath, rpath), printed) == printed
    status, printed = dropin(["-c", qpath, rpath])
    assert status == 0
    mem = shapes(qpath, rpath)["dicts"]
    assert as_printed(evaluate(*mem, empty_as_zero=True), printed) == printed


@pytest.mark.parametrize("seed", SEEDS[:4])
@pytest.mark.parametrize("flags, options", [(["-l", "2"], {"rel_level": 2}), (["-M", "3"], {"max_results": 3}),
                                            (["-c", "-l", "3", "-M", "5"],
                                             {"empty_as_zero": True, "rel_level": 3, "max_results": 5})])
def test_options_as_keywords_are_the_dropins_flags(tmp_path, seed, flags, options):
    qpath, rpath = _case(tmp_path, seed)
    qrows, rrows = _rows(qpath, True), _rows(rpath, False)
    status, printed = dropin([*flags, qpath, rpath])
    res = evaluate(qrows, rrows, **options)
    if status == 0:
        assert as_printed(res, printed) == printed
    assert same(numbers(res), numbers(evaluate(qpath, rpath, **options)))


@pytest.mark.parametrize("seed", SEEDS[:4])
def test_trec_eval_version_and_measures_keywords(tmp_path, seed):
    qpath, rpath = _case(tmp_path, seed)
    qrows, rrows = _rows(qpath, True), _rows(rpath, False)
    names = ["map", "P_5", "ndcg_cut_10", "recip_rank", "num_ret"]
    for version in ("9.0.8", "10.0"):
        res = evaluate(_nested(qrows), rrows, measures=names, trec_eval_version=version)
        assert res.measures == names
        assert same(numbers(res), numbers(evaluate(qpath, rpath, measures=names, trec_eval_version=version)))
    assert evaluate(qrows, rrows, measures="map").measures == ["map"]


@pytest.mark.parametrize("seed", SEEDS[:4])
def test_row_order_changes_nothing(tmp_path, seed):
    """trec_eval orders a topic's results by score descending, then document id descending: never by the
    order of the lines, so shuffled rows (and a dict filled in another order) give the same numbers."""
    qpath, rpath = _case(tmp_path, seed)
    qrows, rrows = _rows(qpath, True), _rows(rpath, False)
    want = numbers(evaluate(qrows, rrows))
    rng = random.Random(seed)
    for _ in range(3):
        rng.shuffle(rrows)
        rng.shuffle(qrows)
        assert same(numbers(evaluate(qrows, rrows)), want)
        assert same(numbers(evaluate(_nested(qrows), _nested(rrows[::-1]))), want)


def test_ties_broken_by_document_id_descending():
    qrels = {"q": {"a": 1, "b": 0, "c": 0}}
    for rows in ([("q", "a", 1.0), ("q", "b", 1.0), ("q", "c", 1.0)], [("q", "c", 1.0), ("q", "a", 1.0), ("q", "b", 1.0)]):
        # c, b, a: the relevant one third
        assert evaluate(qrels, rows, measures=["recip_rank"]).average("run")["recip_rank"] == pytest.approx(1 / 3)


def test_a_repeated_result_keeps_the_first_as_in_a_file(tmp_path):
    qpath, rpath = _case(tmp_path, 3, duplicates=True)
    rrows = _rows(rpath, False)
    seen = set()
    assert any((q, d) in seen or seen.add((q, d)) for q, d, _ in rrows)  # the case has a repeated result
    file_warnings, mem_warnings = [], []
    want = evaluate(qpath, rpath, warn=file_warnings.append)
    got = evaluate(_rows(qpath, True), rrows, warn=mem_warnings.append)
    assert same(numbers(got), numbers(want))
    dup = [w for w in file_warnings if "duplicate result(s) dropped (first occurrence kept)" in w]
    assert dup and [w.replace(str(rpath), "run 'run'") for w in dup] == \
        [w for w in mem_warnings if "duplicate" in w]
    assert got.warnings == mem_warnings


def test_a_run_topic_the_qrels_lack_is_ignored_with_the_files_warning(tmp_path):
    qrels = {"1": {"a": 1}, "2": {"b": 1}}
    run = {"1": {"a": 2.0}, "9": {"x": 1.0}}
    qpath, rpath = tmp_path / "q", tmp_path / "r"
    qpath.write_text("1 0 a 1\n2 0 b 1\n")
    rpath.write_text("1 Q0 a 1 2.0 r\n9 Q0 x 1 1.0 r\n")
    want, got = evaluate(qpath, rpath), evaluate(qrels, run)
    assert same(numbers(got), numbers(want))
    assert list(got.per_topic("run")) == ["1"]
    assert [w.replace(str(rpath), "run 'run'") for w in want.warnings] == got.warnings
    assert got.warnings == ["run 'run': 1 topic(s) not in the qrels ignored: 9"]
    zero = evaluate(qrels, run, empty_as_zero=True)
    assert list(zero.per_topic("run")) == ["1", "2"] and zero.average("run")["map"] == 0.5


@pytest.mark.parametrize("empty", [{}, pd.DataFrame({"query_id": [], "doc_id": [], "score": []}), {"bm25": []}],
                         ids=["dict", "DataFrame", "empty list in a dict"])
def test_an_empty_run_is_an_empty_file(tmp_path, empty):
    qrels = {"1": {"a": 1}, "2": {"b": 1}}
    qpath, rpath = tmp_path / "q", tmp_path / "r"
    qpath.write_text("1 0 a 1\n2 0 b 1\n")
    rpath.write_text("")
    for e in (False, True):
        want, got = evaluate(qpath, rpath, empty_as_zero=e), evaluate(qrels, empty, empty_as_zero=e)
        assert same(numbers(got), numbers(want))
        (rid,) = got.runs
        assert [w.replace(str(rpath), f"run {rid!r}") for w in want.warnings] == got.warnings
        assert "the run has no result" in got.warnings[0]


def test_a_dict_of_empty_dicts_is_named_empty_runs():
    """``{"bm25": {}}``: the run bm25, empty (read as one run, its topics would be bm25, lt and the
    run's name "run"; the results are no result either way)."""
    got = evaluate({"1": {"a": 1}}, {"bm25": {}, "lt": {}})
    assert got.runs == ["bm25", "lt"]
    assert got.warnings == [f"run {rid!r}: the run has no result (an empty file?): every topic is missing from "
                            "it, so its averages are undefined (0 with -e)" for rid in ("bm25", "lt")]
    assert evaluate({"1": {"a": 1}}, {}).runs == ["run"]  # ({} is one empty run, as before)


def test_a_qrels_topic_with_no_judgement_is_reported():
    """A qrels file has no line for it: not a topic (ir_measures averages over it: 0 for AP there),
    and the warning says so."""
    qrels = {"q1": {"a": 1}, "q2": {}, "q3": {}}
    run = {"q1": {"a": 1.0}}
    got = evaluate(qrels, run, measures=["map", "AP"])
    assert got.average("run") == {"map": 1.0, "AP": 1.0} and list(got.per_topic("run")) == ["q1"]
    assert got.warnings == ["qrels: 2 query id(s) with no judgement ({}), not topics of the qrels (a qrels file has "
                            "no line for them; ir_measures averages over them): 'q2', 'q3'"]
    assert evaluate({"q1": {"a": 1}}, run).warnings == []
    many = evaluate({"q1": {"a": 1}, **{f"e{i}": {} for i in range(7)}}, run).warnings
    assert many[0].endswith("'e0', 'e1', 'e2', 'e3', 'e4' and 2 more") and "7 query id(s)" in many[0]


def test_ids_are_strings_ints_converted():
    a = evaluate({"1": {"10": 1, "11": 0}}, {"1": {"10": 0.5, "12": 0.7}})
    b = evaluate({1: {10: 1, 11: 0}}, [(1, 10, 0.5), (1, 12, 0.7)])
    import numpy as np

    c = evaluate(pd.DataFrame({"query_id": np.array([1, 1]), "doc_id": [10, 11], "relevance": [1.0, 0.0]}),
                 pd.DataFrame({"q_id": [1, 1], "doc_id": ["10", "12"], "score": np.array([0.5, 0.7], "float32")}))
    assert same(numbers(a), numbers(b)) and same(numbers(a), numbers(c))
    assert list(b.per_topic("run")) == ["1"]


def test_runs_named_by_dict_keys_list_places_or_their_tag(tmp_path):
    qpath, rpath = tmp_path / "q", tmp_path / "r"
    qpath.write_text("1 0 a 1\n1 0 b 0\n")
    rpath.write_text("1 Q0 a 1 2.0 tagged\n")
    rows = [("1", "b", 3.0), ("1", "a", 2.0)]
    assert evaluate(qpath, [rpath, rows, {"1": {"a": 1}}]).runs == ["tagged", "run2", "run3"]
    res = evaluate(qpath, {"x": rpath, 7: rows, "y": rpath})
    assert res.runs == ["x", "7", "y"]
    assert res.average("x")["map"] == res.average("y")["map"] == 1.0 and res.average("7")["map"] == 0.5
    assert evaluate(qpath, rows).runs == ["run"]
    assert evaluate(qpath, []).runs == []
    # the older form: (run results, input errors), paths or data
    (one,), errors = evaluate_trec(qpath, {"z": rows}, measures=["map"], warn=lambda m: None)
    assert (one.run_id, one.average["map"], errors) == ("z", 0.5, [])


def test_a_run_file_that_cannot_be_read_is_a_problem_the_others_are_scored(tmp_path):
    qpath, bad = tmp_path / "q", tmp_path / "bad"
    qpath.write_text("1 0 a 1\n")
    bad.write_text("1 Q0 a 1 notanumber r\n")
    res = evaluate(qpath, {"bad": bad, "good": {"1": {"a": 1.0}}})
    assert res.runs == ["good"]
    (p,) = res.problems
    assert isinstance(p, InputError) and "bad score" in str(p)


# --- errors ------------------------------------------------------------------------------------

QRELS = {"q1": {"d1": 1, "d2": 0}}
RUN = {"q1": {"d1": 1.0}}


def _fails(qrels, runs, *parts, kind=InputError, **options):
    with pytest.raises(kind) as info:
        evaluate(qrels, runs, **options)
    e = info.value
    assert isinstance(e, InexevalError)
    text = str(e)
    for part in parts:
        assert part in text, text
    # raised as inexeval's own error, not chained to one from deep inside
    assert e.__cause__ is None and (e.__context__ is None or e.__suppress_context__)
    return text


def test_bad_tables():
    _fails(pd.DataFrame({"query_id": ["q1"], "doc": ["d1"], "relevance": [1]}), RUN,
           "qrels", "no column doc_id", "columns: query_id, doc, relevance")
    _fails(QRELS, pd.DataFrame({"query_id": ["q1"], "q_id": ["q1"], "doc_id": ["d1"], "score": [1.0]}),
           "run 'run'", "both query_id and q_id")
    _fails(pd.DataFrame({"query_id": ["q1"], "doc_id": ["d1"], "relevance": [1], "score": [1]}), RUN,
           "both relevance and score")
    _fails(QRELS, pd.DataFrame({"query_id": ["q1"], "doc_id": ["d1"], "relevance": [1.0]}), "no column score")


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), -float("inf")])
def test_a_score_that_is_not_a_finite_number(bad):
    _fails(QRELS, {"q1": {"d1": 1.0, "d2": bad}}, "run 'run'", "of query 'q1', document 'd2'",
           "is not a finite number")
    _fails(QRELS, pd.DataFrame({"query_id": ["q1", "q1"], "doc_id": ["d1", "d2"], "score": [1.0, bad]}),
           "row 2: score", "of query 'q1', document 'd2' is not a finite number")


def test_an_int_score_past_the_largest_double():
    _fails(QRELS, {"q1": {"d1": 1.0, "d2": 10**400}}, "run 'run'", "of query 'q1', document 'd2'",
           "is not a finite number (too large for a double)")
    _fails(QRELS, [("q1", "d1", 1), ("q1", "d2", -(10**400))], "row 2: score", "too large for a double")
    assert evaluate(QRELS, {"q1": {"d1": 2**1023, "d2": 1}}).runs == ["run"]  # (the largest ints that fit)


def test_a_score_that_is_not_a_number():
    _fails(QRELS, [("q1", "d1", "0.5")], "row 1: score '0.5' of query 'q1', document 'd1' is a str, not a number")
    _fails(QRELS, [("q1", "d1", 1.0), ("q1", "d2", None)], "row 2: score None", "is a NoneType, not a number")


@pytest.mark.parametrize("bad, why", [(1.5, "is not an integer"), (float("nan"), "is not an integer"),
                                      ("2", "is a str, not an integer"),
                                      (2**64, "is not an integer of at most 64 bits")])
def test_a_relevance_that_is_not_an_integer(bad, why):
    _fails({"q1": {"d1": 1, "d2": bad}}, RUN, "qrels", f"relevance {bad!r} of query 'q1', document 'd2' {why}")
    _fails([("q1", "d1", 1), ("q1", "d2", bad)], RUN, "qrels: row 2: relevance", why)


def test_a_whole_float_relevance_is_that_integer():
    assert same(numbers(evaluate({"q1": {"d1": 1.0, "d2": 0.0}}, RUN)), numbers(evaluate(QRELS, RUN)))


def test_wrong_shapes():
    _fails(QRELS, {"q1": [("d1", 1.0)]}, "run 'q1'", "row 1: a row is a (query_id, doc_id, score) tuple")
    _fails(QRELS, {"q1": {"d1": "x"}}, "score 'x' of query 'q1', document 'd1' is a str")
    _fails(QRELS, {"a": {"q1": {"d1": 1.0}}, "b": {"q1": 2.0}}, "run 'b'",
           "a dict maps each query id to a {doc_id: score} dict; query 'q1' maps to a float")
    _fails(QRELS, {"a": RUN, "b": 5}, "run 'b': not a run", "got a int")
    _fails(QRELS, 5, "runs: not a run", "got a int")
    _fails(QRELS, [("q1", "d1")], "row 1: a row is a (query_id, doc_id, score) tuple", "('q1', 'd1')")
    _fails(QRELS, [RUN, ("q1", "d1", 1.0)], "run 'run2': row 1: a row is a (query_id, doc_id, score) tuple")
    _fails(QRELS, [RUN, 3], "runs: item 2: not a run", "got a int")
    _fails({"q1": [1, 2]}, RUN, "qrels", "query 'q1' maps to a list")
    _fails(QRELS, [(None, "d1", 1.0)], "row 1: query id None is a NoneType, not a str")
    _fails(QRELS, [("q1", "", 1.0)], "document id ''", "non-empty")
    _fails({"q1": {"d1": 1}, 1: {}}, {1: RUN, "1": RUN}, "the keys 1 and '1' are the same run id '1'")
    _fails({"1": {"d1": 1}, 1: {"d1": 0}}, RUN, "query ids '1' and 1 are one id once converted to str")
    _fails([("q1", "d1", 1), ("q1", "d2", 0), ("q1", "d1", 2)], RUN,
           "qrels: duplicate judgement for topic q1, document d1 (rows 1 and 3)")
    _fails({}, RUN, "qrels: no judgement")
    _fails(QRELS, RUN, "REL_LEVEL must be >= 1", kind=ConfigError, rel_level=0)
    _fails(QRELS, RUN, "not_a_measure", kind=ConfigError, measures=["not_a_measure"])


# --- Results.to_dataframe ----------------------------------------------------------------------


def test_to_dataframe_is_the_long_table(tmp_path):
    qpath, rpath = _case(tmp_path, 2)
    names = ["map", "P_5", "num_ret", "gm_map"]
    res = evaluate(qpath, {"a": rpath, "b": _rows(rpath, False)[::2]}, measures=names)
    df = res.to_dataframe()
    assert list(df.columns) == ["run", "topic", "measure", "value"]
    assert str(df["value"].dtype) == "float64"
    n = sum(len(res.per_topic(r)) + 1 for r in res.runs) * len(names)
    assert df.shape == (n, 4)
    for r in res.runs:
        part = df[df.run == r]
        assert list(part.topic.unique()) == [*res.per_topic(r), "all"]
        for row in part.itertuples():
            want = res.average(r)[row.measure] if row.topic == "all" else res.per_topic(r)[row.topic][row.measure]
            assert same(row.value, float("nan") if want is None else want)
    mean = df[(df.run == "b") & (df.topic == "all") & (df.measure == "map")].value.item()
    assert mean == res.average("b")["map"] and mean > 0
    nothing = evaluate({"q1": {"d1": 1}}, {"q2": {"d1": 1.0}}, measures=["map"]).to_dataframe()
    assert nothing.topic.tolist() == ["all"] and math.isnan(nothing.value.item())  # undefined: no topic
    only = res.to_dataframe(measures=["map"])
    assert set(only.measure) == {"map"} and len(only) == n // len(names)


def test_to_dataframe_without_pandas_says_so(monkeypatch):
    res = evaluate(QRELS, RUN, measures=["map"])
    monkeypatch.setitem(sys.modules, "pandas", None)
    with pytest.raises(ImportError, match=r"to_dataframe\(\) needs pandas.*pip install pandas"):
        res.to_dataframe()


def test_the_package_face_and_pandas_only_when_asked():
    code = ("import sys, inexeval\n"
            "res = inexeval.evaluate_trec({'q1': {'d1': 1}}, {'bm25': [('q1', 'd1', 2.5), ('q1', 'd2', 1.0)]})\n"
            "assert res.average('bm25')['map'] == 1.0, res\n"
            "assert 'pandas' not in sys.modules\n"
            "print(type(res).__name__)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=Path(__file__).resolve().parents[1])
    assert out.stdout == "Results\n"
    assert inexeval.evaluate_trec is evaluate


# --- ir_measures' names (docs/measures.md: item 1 of the same issue) pass through -----------------


@pytest.mark.parametrize("seed", SEEDS[:3])
def test_ir_measures_names_and_data_give_ir_measures_numbers(tmp_path, seed):
    """The same dicts given to ir_measures and to evaluate_trec, measures named as ir_measures names them."""
    import ir_measures

    names = ["nDCG@10", "P@5", "P(rel=2)@5", "AP", "RR", "R@100"]
    qpath, rpath = _case(tmp_path, seed)
    qrels, run = _nested(_rows(qpath, True)), _nested(_rows(rpath, False))
    try:
        res = evaluate(qrels, run, measures=names, trec_eval_version="9.0.8")
    except ConfigError as e:  # pragma: no cover - before ir_measures' names reach the engine
        pytest.skip(f"ir_measures' names not taken yet: {e}")
    parsed = [ir_measures.parse_measure(n) for n in names]
    theirs: dict = {}
    for m in ir_measures.iter_calc(parsed, qrels, run):
        theirs.setdefault(m.query_id, {})[str(m.measure)] = m.value
    for topic, values in res.per_topic("run").items():
        for n in names:
            assert values[n] == pytest.approx(theirs[topic][n], abs=1e-9), (topic, n)


def test_ir_measures_measure_objects_are_taken_by_their_names():
    """ir_measures users pass measure objects: one raised KeyError: 0 (taken as a list), a list gave a
    contradictory METRICS error.  They are read by str(), and equal ir_measures' own numbers."""
    import ir_measures

    qrels = {"1": {"a": 1, "b": 0, "c": 2}, "2": {"d": 1}}
    run = {"1": {"a": 1.0, "b": 2.0, "c": 0.5}, "2": {"e": 1.0, "d": 0.5}}
    wanted = [ir_measures.nDCG @ 10, ir_measures.P(rel=2) @ 5, ir_measures.AP]
    irm = ir_measures.calc_aggregate(wanted, [ir_measures.Qrel(q, d, r) for q, ds in qrels.items() for d, r in ds.items()],
                                     [ir_measures.ScoredDoc(q, d, s) for q, ds in run.items() for d, s in ds.items()])
    got = evaluate(qrels, {"r": run}, measures=wanted, trec_eval_version="9.0.8").average("r")
    assert {str(m): got[str(m)] for m in wanted} == pytest.approx({str(m): v for m, v in irm.items()}, abs=1e-12)
    one = evaluate(qrels, {"r": run}, measures=ir_measures.nDCG @ 10).average("r")
    assert one == {"nDCG@10": got["nDCG@10"]}
    for bad, words in (([5], "a measure is a name (str) or an ir_measures measure, not int (5)"),
                       (5, "a name, an ir_measures measure or a list of them, not int")):
        with pytest.raises(ConfigError) as info:
            evaluate(qrels, {"r": run}, measures=bad)
        assert str(info.value) == f"measures: {words}"


@pytest.mark.parametrize("qrels, runs, named", [
    ({1: {"d1": 1}, "1": {"d2": 1}}, {"r": {"1": {"d1": 1.0}}}, "qrels: query ids 1 and '1'"),
    ({"1": {"d1": 1}}, {"r": {1: {"d1": 1.0}, "1": {"d2": 0.5}}}, "run 'r': query ids 1 and '1'"),
    ({"1": {"d1": 1}}, {"r": {np.int64(1): {"d1": 1.0}, "1": {"d2": 0.5}}}, "run 'r': query ids np.int64(1) and '1'"),
])
def test_query_ids_equal_once_converted_are_an_error(qrels, runs, named):
    """A dict whose query ids 1 and "1" are one topic once converted: their judgements (or results)
    were merged silently when the documents differed (a researcher's review)."""
    with pytest.raises(InputError) as info:
        evaluate(qrels, runs, measures=["map"])
    assert str(info.value) == f"{named} are one id once converted to str: give each query once"
