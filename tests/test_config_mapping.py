"""load_config_mapping: a Config from a Python dict, with the checks of a config file."""

from __future__ import annotations

from pathlib import Path

import pytest

from inexeval import records
from inexeval.config import Config, load_config, load_config_mapping
from inexeval.errors import ConfigErrors
from test_config import MINIMAL, make_inputs, touch, write_prop

BASIC = {"TASK": "CO.Thorough", "ASSESSMENTS_DIR": "assess", "SUBMISSIONRUNS_DIR": "runs"}


def without_origin(c: Config) -> Config:
    return records.replace(c, source=None, key_lines=())


def dict_errors(mapping: object, **kwargs) -> list[tuple[str | None, int | None, str]]:
    with pytest.raises(ConfigErrors) as info:
        load_config_mapping(mapping, **kwargs)
    return [(e.file, e.line, e.message) for e in info.value.errors]


def test_a_dict_gives_the_config_of_the_same_prop_file(tmp_path: Path):
    make_inputs(tmp_path)
    touch(tmp_path / "coll" / "doc.xml")
    prop = write_prop(
        tmp_path,
        "TASK: co.focused\n"
        "METRICS: nxCG, EP/GR, hixeval\n"
        "ALPHA: 0.5\n"
        "OVERLAP: on, off\n"
        "QUANT_FUNCTIONS: GENLIFTED, strict\n"
        "DCV: 5, 10\n"
        "EXPANDED_FULLRB: assess/*/\n"
        "SUBMISSIONRUNS_DIR: runs\n"
        "RESULTS_DIR: out\n"
        "QUERY_TYPE: CO+S\n"
        "POOLS: 1, 2, 3\n"
        "TOPICS: 202\n"
        "inexdoccoll_dir: coll\n"
        "MAX_RESULTS: 1000\n"
        "BEP_A: 0.01, 100\n"
        "AVG_DOC_LENGTH: 2500.5\n"
        "Q_BETA: 0\n"
        "REL_LEVEL: 2\n"
        "GAINS: 1:1, 2:2.5\n",
    )
    mapping = {
        "task": "co.focused",
        "Metrics": ["nxCG", "EP/GR", "hixeval"],
        "ALPHA": 0.5,
        "OVERLAP": ("on", "off"),
        "QUANT_FUNCTIONS": "GENLIFTED, strict",
        "DCV": [5, 10],
        "expanded_fullrb": "assess/*/",
        "SUBMISSIONRUNS_DIR": Path("runs"),
        "RESULTS_DIR": "out",
        "QUERY_TYPE": "CO+S",
        "POOLS": [1, 2, "3"],
        "TOPICS": 202,
        "INEXDOCCOLL_DIR": tmp_path / "coll",
        "MAX_RESULTS": 1000,
        "BEP_A": [0.01, 100],
        "AVG_DOC_LENGTH": 2500.5,
        "Q_BETA": 0,
        "REL_LEVEL": 2,
        "GAINS": {1: 1, 2: 2.5},
    }
    a, b = load_config(prop), load_config_mapping(mapping, base=tmp_path)
    assert without_origin(a) == b
    assert (b.source, b.key_lines, b.overridden) == (None, (), ())
    assert b.line_of("TASK") is None and b.origin("TASK") == (None, None)
    assert b.bep_a == ("0.01", "100") and b.dcv == (5, 10) and b.gains == ((1, 1.0), (2, 2.5))
    assert b.results_dir == tmp_path / "out" and b.collection_dir == tmp_path / "coll"


def test_defaults_and_paths_relative_to_base_or_the_current_directory(tmp_path: Path, monkeypatch):
    make_inputs(tmp_path)
    a = load_config(write_prop(tmp_path, MINIMAL))
    monkeypatch.chdir(tmp_path / "assess")  # base, not the current directory
    b = load_config_mapping(BASIC, base=tmp_path)
    assert without_origin(a) == b and b.results_dir == tmp_path / "results"
    monkeypatch.chdir(tmp_path)
    c = load_config_mapping(BASIC)  # base: the current directory
    assert c == b
    assert [f.path.name for f in c.runs] == ["a.xml", "b.txt"]


@pytest.mark.parametrize(
    "key, value",
    [
        ("ALPHA", "1.5"),
        ("ALPHA", "0.5, 1"),
        ("ALPHA", ""),
        ("DCV", "10, 0"),
        ("DCV", "2.5"),
        ("MAX_RESULTS", "-1"),
        ("MAX_RESULTS", "1000001"),
        ("Q_BETA", "-1"),
        ("BEP_A", "1, x"),
        ("AVG_DOC_LENGTH", "inf"),
        ("REL_LEVEL", "0"),
        ("GAINS", "1:1, 1:2"),
        ("GAINS", "1=1"),
        ("OVERLAP", "yes"),
        ("QUANT_FUNCTIONS", "gen, genlift"),
        ("METRICS", ","),
        ("TASK", "CO.Focusd"),
        ("COLLECTION_DIR", "nowhere"),
        ("RESULTS_DIR", "a, b"),
        ("SUBMISSIONRUNS_DIR", "runs, missing*/, nope"),
    ],
)
def test_bad_values_give_the_messages_of_a_file(tmp_path: Path, key, value):
    make_inputs(tmp_path)
    body = "".join(line + "\n" for line in MINIMAL.splitlines() if not line.startswith(key + ":"))
    prop = write_prop(tmp_path, f"{body}{key}: {value}\n")
    with pytest.raises(ConfigErrors) as info:
        load_config(prop)
    from_file = [e.message for e in info.value.errors]
    from_dict = dict_errors({**BASIC, key: value}, base=tmp_path)
    assert [m for _, _, m in from_dict] == from_file
    assert all((f, line) == ("<dict>", None) for f, line, _ in from_dict)


def test_lists_numbers_and_empty_values(tmp_path: Path):
    make_inputs(tmp_path)
    c = load_config_mapping({**BASIC, "DCV": (50, 10, 50), "OVERLAP": ["ON"], "ALPHA": 0}, base=tmp_path)
    assert (c.dcv, c.overlap, c.alpha) == ((50, 10), ("on",), 0.0)
    assert dict_errors({**BASIC, "DCV": [10, 0], "ALPHA": float("nan"), "POOLS": [], "TOPICS": None},
                       base=tmp_path) == [
        ("<dict>", None, "DCV: '0' is not a positive integer"),
        ("<dict>", None, "ALPHA: 'nan' is not a number in [0, 1]"),
        ("<dict>", None, "POOLS: no value given"),
        ("<dict>", None, "TOPICS: no value given"),
    ]


def test_values_of_other_types_are_errors(tmp_path: Path):
    make_inputs(tmp_path)
    assert dict_errors({**BASIC, "OVERLAP": True, "DCV": [[10]], "POOLS": {"1"}, "ALPHA": {"a": 1},
                        "GAINS": {1: [1]}}, base=tmp_path) == [
        ("<dict>", None, "OVERLAP: expected a value or a list of values, got bool"),
        ("<dict>", None, "DCV: expected a value or a list of values, got list"),
        ("<dict>", None, "POOLS: expected a value or a list of values, got set"),
        ("<dict>", None, "ALPHA: expected a value or a list of values, got dict"),
        ("<dict>", None, "GAINS: expected a value or a list of values, got dict"),
    ]


def test_keys_unknown_duplicate_and_missing_all_reported_naming_the_source(tmp_path: Path):
    make_inputs(tmp_path)
    errors = dict_errors(
        {"TASK": "trec", "task": "trec", "ASSESMENTS_DIR": "assess", 3: "x", "ALPHA": 2,
         "COLLECTION_DIR": "assess", "INEXDOCCOLL_DIR": "runs"},
        base=tmp_path, source="my-api",
    )
    # unknown keys, then duplicates, then bad values (each in dict order), then missing keys
    assert errors == [
        ("my-api", None, "unknown key 'ASSESMENTS_DIR'; did you mean ASSESSMENTS_DIR?"),
        ("my-api", None, "unknown key '3'"),
        ("my-api", None, "duplicate key TASK (given as 'TASK' and as 'task')"),
        ("my-api", None, "duplicate key COLLECTION_DIR (given as 'COLLECTION_DIR' and as 'INEXDOCCOLL_DIR')"),
        ("my-api", None, "ALPHA: '2' is not in [0, 1]"),
        ("my-api", None, "missing required key ASSESSMENTS_DIR"),
        ("my-api", None, "missing required key SUBMISSIONRUNS_DIR"),
    ]


def test_not_a_mapping():
    assert dict_errors(["TASK", "trec"]) == [
        ("<dict>", None, "a configuration must be a mapping of keys, not list")
    ]


def test_task_rules_and_overrides(tmp_path: Path, monkeypatch):
    make_inputs(tmp_path)
    assert dict_errors({**BASIC, "TASK": "BestInContext", "OVERLAP": "on"}, base=tmp_path) == [
        ("<dict>", None, "OVERLAP: task BestInContext has no OVERLAP setting; remove it")
    ]
    monkeypatch.chdir(tmp_path)
    c = load_config_mapping({**BASIC, "ALPHA": 2}, base=tmp_path, overrides=["alpha=0.5", "RESULTS_DIR=res"])
    assert (c.alpha, c.results_dir, c.overridden) == (0.5, tmp_path / "res", ("ALPHA", "RESULTS_DIR"))
    assert c.origin("ALPHA") == ("--set", None)
    assert dict_errors(BASIC, base=tmp_path, overrides=["DCV=0"]) == [
        ("--set", None, "DCV: '0' is not a positive integer")
    ]


def test_metrics_commas_inside_parentheses_belong_to_the_name(tmp_path):
    """METRICS: Q(beta=0.5,agr) is one measure name; the comma between names still separates them."""
    from inexeval.config.values import parse_metrics

    assert parse_metrics("map, Q(beta=0.5,agr), P_10", tmp_path) == ("map", "q(beta=0.5,agr)", "p_10")
    assert parse_metrics("nDCG_JK@10(b=3),AWP(agr)", tmp_path) == ("ndcg_jk@10(b=3)", "awp(agr)")
    # ir_measures' names keep their case: it is their meaning (P@5 is not ranx's p@5)
    assert parse_metrics("nDCG@10, P(rel=2)@5, MAP", tmp_path) == ("nDCG@10", "P(rel=2)@5", "map")
