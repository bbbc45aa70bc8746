"""The key table (inexeval.config.load.SCHEMA) agrees with Config, the loader and the task table."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from inexeval.config.load import (
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
    fields = [f.name for f in dataclasses.fields(Config)]
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
        "ANSWER_MATCH",
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
    task_fields = {f.name for f in dataclasses.fields(Task)}
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
