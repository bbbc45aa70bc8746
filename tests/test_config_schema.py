"""The key table (inexeval.config.schema.SCHEMA) agrees with Config, the loader and the task table."""

from __future__ import annotations

from pathlib import Path

import pytest

from inexeval import records
from inexeval.config import (
    BOOKKEEPING_FIELDS,
    KEY_ALIASES,
    KEY_TABLE,
    KEYS,
    PER_TASK,
    REQUIRED_KEYS,
    SCHEMA,
    Computed,
    Config,
    load_config,
)
from inexeval.tasks import TASKS, Task
from test_config import MINIMAL, make_inputs, write_prop


def test_config_fields_and_the_key_table_agree():
    fields = [f.name for f in records.fields(Config)]
    key_fields = [k.field for k in SCHEMA]
    assert len(set(key_fields)) == len(key_fields), "two keys fill the same Config field"
    missing = set(key_fields) - set(fields)
    assert not missing, f"keys fill fields Config does not have: {sorted(missing)}"
    unfilled = set(fields) - set(key_fields) - set(BOOKKEEPING_FIELDS)
    assert not unfilled, f"Config fields no key fills (add a Key, or a bookkeeping field): {sorted(unfilled)}"
    assert set(BOOKKEEPING_FIELDS) <= set(fields) and not set(BOOKKEEPING_FIELDS) & set(key_fields)


def test_each_key_once_and_the_derived_tables():
    names = [k.name for k in SCHEMA]
    aliases = [a for k in SCHEMA for a in k.aliases]
    assert all(n == n.upper() for n in names + aliases)
    assert len(set(names + aliases)) == len(names) + len(aliases)
    assert KEYS == tuple(names) == (
        "TASK", "METRICS", "ALPHA", "OVERLAP", "QUANT_FUNCTIONS", "DCV",
        "ASSESSMENTS_DIR", "SUBMISSIONRUNS_DIR", "RESULTS_DIR", "QUERY_TYPE",
        "POOLS", "TOPICS", "COLLECTION_DIR", "MAX_RESULTS", "BEP_A",
        "AVG_DOC_LENGTH", "Q_BETA", "REL_LEVEL", "GAINS", "TREC_EVAL_VERSION", "F_BETA", "BEP_DISTANCE", "T2I_TOLERANCE",
        "ANSWER_MATCH", "HEADLINE", "TITLE", "DESCRIPTION",
    )
    assert KEY_ALIASES == {"EXPANDED_FULLRB": "ASSESSMENTS_DIR", "INEXDOCCOLL_DIR": "COLLECTION_DIR",
                           "BETA": "Q_BETA"}
    assert REQUIRED_KEYS == ("TASK", "ASSESSMENTS_DIR", "SUBMISSIONRUNS_DIR")
    assert list(KEY_TABLE) == names and all(KEY_TABLE[k.name] is k for k in SCHEMA)


def test_every_key_is_documented_in_one_line():
    for k in SCHEMA:
        assert k.doc and "\n" not in k.doc and k.doc.endswith("."), k.name
        assert "\n" not in k.note and "SPEC" not in k.doc + k.note + k.unset, k.name
        if isinstance(k.default, Computed):
            assert k.default.doc, k.name


def test_per_task_defaults_are_task_table_columns():
    task_fields = {f.name for f in records.fields(Task)}
    per_task = [k.name for k in SCHEMA if k.default is PER_TASK]
    assert per_task == ["METRICS", "OVERLAP", "DCV", "MAX_RESULTS"]
    for name in per_task:
        assert KEY_TABLE[name].field in task_fields, name


def _as_written(value: object) -> str:
    """A default as a .prop value."""
    if isinstance(value, tuple):
        return ", ".join(str(v) for v in value)
    return str(value)


def test_defaults_are_what_the_parsers_give():
    # a default must have the type and form a set value gets, or Config would hold two kinds
    for k in SCHEMA:
        values = [getattr(t, k.field) for t in TASKS.values()] if k.default is PER_TASK else [k.default]
        for value in values:
            if value is None or value == () or isinstance(value, Computed):
                continue
            assert k.parse(_as_written(value), Path(".")) == value, (k.name, value)


@pytest.mark.parametrize("task", list(TASKS))
def test_the_loader_fills_defaults_from_the_table(tmp_path: Path, task: str):
    make_inputs(tmp_path)
    c = load_config(write_prop(tmp_path, MINIMAL.replace("CO.Thorough", task)))
    row = TASKS[task]
    assert c.strategy == row.strategy
    for k in SCHEMA:
        if k.required:
            continue
        expected = k.default_for(row, tmp_path)
        assert getattr(c, k.field) == expected, k.name
    # the values the documentation promises (docs/config.md)
    assert c.results_dir == tmp_path / "results"
    assert c.max_results == (None if task == "trec" or task.startswith("FOL.") else 5 if task == "qa" else 1500)
    assert c.dcv == ((5, 10, 25, 50) if task == "RelevantInContext" else (10, 25, 50))
    assert c.quant_functions == ("gen",) and c.alpha == 1.0 and c.q_beta == 1.0 and c.rel_level == 1
    assert (c.pools, c.topics, c.query_type, c.collection_dir, c.avg_doc_length, c.gains) == (None,) * 6
    assert c.bep_a == ("0.01", "0.1", "1", "10", "100")
    assert (c.f_beta, c.bep_distance, c.t2i_tolerance) == (0.25, 500, 300)


# --------------------------------------------------------------------------- the measures' parameters

#: Config keys that reach the measures otherwise than as Params: the Setting (quantisation, overlap,
#: α) and the collection (TopicInput.collection).
NOT_PARAMS = {"ALPHA", "OVERLAP", "QUANT_FUNCTIONS", "COLLECTION_DIR"}


def test_params_are_the_keys_the_key_table_marks():
    from inexeval.config import PARAM_DEFAULTS
    from inexeval.measures.registry import Params

    marked = [k.field for k in SCHEMA if k.param]
    assert list(PARAM_DEFAULTS) == marked and list(vars(Params())) == marked
    assert not {k.name for k in SCHEMA if k.param} & NOT_PARAMS
    # the defaults measures get without a config (Params()): the key's, the task table's for per-task keys
    assert vars(Params()) == {
        "dcv": (10, 25, 50), "max_results": 1500, "bep_a": ("0.01", "0.1", "1", "10", "100"),
        "avg_doc_length": None, "q_beta": 1.0, "rel_level": 1, "gains": None, "trec_eval_version": "10.0",
        "f_beta": 0.25, "bep_distance": 500, "t2i_tolerance": 300, "answer_match": "normalised",
    }


def _declared_keys() -> dict[str, set[str]]:
    """Config key -> the measures that declare it in ``params`` (named ones, and the default sets of
    the families whose names are patterns)."""
    from inexeval.measures import registry

    measures = list(registry.measures())
    for strategy in {t.strategy for t in TASKS.values()}:
        measures += [registry.find(n, strategy) for n in registry.default_metrics(strategy)]
    declared: dict[str, set[str]] = {}
    for m in measures:
        for key in m.params:
            declared.setdefault(key, set()).add(m.name)
    return declared


def test_the_keys_measures_declare_are_params_or_reach_them_otherwise():
    declared = _declared_keys()
    assert set(declared) <= set(KEY_TABLE), "a measure declares a key the key table does not have"
    params = {k.name for k in SCHEMA if k.param}
    stray = set(declared) - params - NOT_PARAMS
    assert not stray, f"keys measures read but the key table does not mark param=True: {sorted(stray)}"
    unread = params - set(declared)
    assert not unread, f"keys marked param=True that no measure declares in its params: {sorted(unread)}"


def test_params_is_a_frozen_value():
    import pickle

    from inexeval.measures.registry import Params

    p = Params(dcv=(5,), gains=((1, 2.0),))
    assert p.dcv == (5,) and p.gains == ((1, 2.0),) and p.max_results == Params().max_results
    assert p == Params(gains=((1, 2.0),), dcv=(5,)) and hash(p) == hash(Params(dcv=(5,), gains=((1, 2.0),)))
    assert p != Params() and pickle.loads(pickle.dumps(p)) == p
    assert repr(Params(dcv=(5,))).startswith("Params(dcv=(5,), max_results=1500, ")
    with pytest.raises(records.FrozenInstanceError):
        p.dcv = (10,)
    with pytest.raises(TypeError, match="unexpected keyword argument 'bogus'"):
        Params(bogus=1)


@pytest.mark.parametrize("prop", sorted((Path(__file__).resolve().parents[1] / "configs").glob("*.prop")),
                         ids=lambda p: p.name)
def test_params_of_copies_every_param_key_of_the_shipped_configs(prop: Path):
    from inexeval.config import PARAM_DEFAULTS
    from inexeval.plan import params_of, resolve_measures

    c = load_config(prop)
    p = params_of(c, resolve_measures(c))
    assert vars(p) == {name: getattr(c, name) for name in PARAM_DEFAULTS}

