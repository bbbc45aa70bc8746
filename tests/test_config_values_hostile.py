"""Config values a person can write and read back (issue 30): paths holding ``#`` or commas in every
config form (``.prop`` escapes ``\\#`` and ``\\,``, YAML list items, dict lists and paths, ``--set``), the hints
when a ``#`` or a comma cut a path, long values cut in messages, and METRICS split and de-duplicated in
linear time with a warning."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

import inexeval
from inexeval.config import SCHEMA, load_config, load_config_mapping
from inexeval.config.values import _metrics_items, parse_metrics, repeated_metrics
from inexeval.errors import ConfigErrors, cut_long, cut_text

pytestmark = pytest.mark.slow  # huge and hostile config values

ROOT = Path(__file__).resolve().parent.parent
TREC = ROOT / "sample_data" / "trec"


@pytest.fixture
def odd(tmp_path) -> Path:
    """qrels and runs under names with '#', ',' and spaces."""
    runs = tmp_path / "runs #1,2024"
    runs.mkdir()
    for p in (TREC / "runs").iterdir():
        (runs / p.name).write_bytes(p.read_bytes())
    (tmp_path / "q#rels,1.txt").write_bytes((TREC / "qrels.txt").read_bytes())
    (tmp_path / "cfg").mkdir()
    return tmp_path


def _maps(config) -> dict[str, float]:
    return {r.run_id: r.average["map"] for r in inexeval.evaluate(config, METRICS="map")}


def test_hash_and_comma_in_paths_in_every_config_form(odd):
    expected = _maps({"TASK": "trec", "ASSESSMENTS_DIR": str(TREC / "qrels.txt"),
                      "SUBMISSIONRUNS_DIR": str(TREC / "runs")})
    prop = odd / "cfg" / "a.prop"
    prop.write_text("TASK: trec\nASSESSMENTS_DIR: ../q\\#rels\\,1.txt   # the qrels\n"
                    "SUBMISSIONRUNS_DIR: ../runs \\#1\\,2024/\nRESULTS_DIR: ../out \\#2\\,b\n")
    config = load_config(prop)
    assert [f.path.name for f in config.assessments] == ["q#rels,1.txt"]
    assert config.results_dir == odd / "out #2,b"
    assert _maps(prop) == expected
    yaml = odd / "cfg" / "a.yaml"
    yaml.write_text('TASK: trec\nASSESSMENTS_DIR:\n  - "../q#rels,1.txt"\nSUBMISSIONRUNS_DIR: ["../runs #1,2024/"]\n'
                    "RESULTS_DIR: '../out #2\\,b'\n")  # YAML's own quotes keep the '#'
    assert _maps(yaml) == expected and load_config(yaml).results_dir == odd / "out #2,b"
    # a dict: a Path is one path, and so is each item of a list
    assert _maps({"TASK": "trec", "ASSESSMENTS_DIR": odd / "q#rels,1.txt",
                  "SUBMISSIONRUNS_DIR": [str(odd / "runs #1,2024")]}) == expected
    # --set: no comments there, a '#' is itself; a comma is written '\,'
    over = load_config(prop, [f"SUBMISSIONRUNS_DIR={odd}/runs #1\\,2024", f"RESULTS_DIR={odd}/x\\,y"])
    assert over.results_dir == odd / "x,y" and len(over.runs) == len(config.runs)


def test_a_hash_or_comma_that_cuts_a_path_says_so(odd):
    prop = odd / "cfg" / "b.prop"
    prop.write_text("TASK: trec\nASSESSMENTS_DIR: ../q#rels,1.txt\nSUBMISSIONRUNS_DIR: ../runs \\#1,2024/\n"
                    "RESULTS_DIR: ../out,b\n")
    with pytest.raises(ConfigErrors) as info:
        load_config(prop)
    assert [str(e) for e in info.value.errors] == [
        f"{prop}:2: ASSESSMENTS_DIR: '../q' matches no file (`#` starts a comment in a .prop line: write `\\#` "
        "for a `#` of a path)",
        f"{prop}:3: SUBMISSIONRUNS_DIR: '../runs #1,2024/' names a file or directory, but a comma separates "
        "paths: write `\\,` for a comma of a path",
        f"{prop}:4: RESULTS_DIR: takes one value, got 2: '../out,b' (a comma separates values: write `\\,` for "
        "a comma of a path)"]
    # a comment after a value that is right is no error, and a comment on a key that is not a path gets no hint
    prop.write_text("TASK: trec   # the task\nASSESSMENTS_DIR: ../q\\#rels\\,1.txt  # qrels\n"
                    "SUBMISSIONRUNS_DIR: ../runs \\#1\\,2024/\nALPHA: 2   # too big\n")
    with pytest.raises(ConfigErrors) as info:
        load_config(prop)
    assert [e.message for e in info.value.errors] == ["ALPHA: '2' is not in [0, 1]"]


def test_a_comment_on_a_continuation_line_gives_the_hint_on_its_key(tmp_path):
    (tmp_path / "runs").mkdir()
    (tmp_path / "runs" / "r").write_text("1 Q0 d 1 1 r\n")
    prop = tmp_path / "c.prop"
    prop.write_text("TASK: trec\nASSESSMENTS_DIR: q.txt,\n   r#1.txt\nSUBMISSIONRUNS_DIR: runs\n")
    (tmp_path / "q.txt").write_text("1 0 d 1\n")
    with pytest.raises(ConfigErrors) as info:
        load_config(prop)
    messages = [str(e) for e in info.value.errors]
    assert len(messages) == 1 and all(m.startswith(f"{prop}:2: ASSESSMENTS_DIR: ") and "`#` starts a comment" in m for m in messages)


@pytest.mark.parametrize("shape", ["word", "spaces", "commas"])
def test_a_huge_bad_value_is_cut_in_every_message(tmp_path, shape):
    """200 KB values (one word, words, comma items) for every key: each message stays short (the cut does
    not depend on the length: the 5 MB case is the next test)."""
    big = {"word": "x" * 200_000, "spaces": "a b " * 50_000, "commas": ",".join(["zz"] * 70_000)}[shape]
    (tmp_path / "runs").mkdir()
    (tmp_path / "q.txt").write_text("1 0 d 1\n")
    for key in SCHEMA:
        keys = {"TASK": "trec", "ASSESSMENTS_DIR": "q.txt", "SUBMISSIONRUNS_DIR": "runs", key.name: big}
        prop = tmp_path / "c.prop"
        prop.write_text("".join(f"{k}: {v}\n" for k, v in keys.items()))
        try:
            load_config(prop)
            continue  # (a value some keys accept: none here, but not this test's point)
        except ConfigErrors as err:
            lines = str(err).splitlines()
        assert lines and all(len(line) < 600 for line in lines), (key.name, [ln[:300] for ln in lines])


def test_a_5_mb_value_is_not_echoed_whole(tmp_path):
    (tmp_path / "runs").mkdir()
    (tmp_path / "runs" / "r").write_text("1 Q0 d 1 1 r\n")
    prop = tmp_path / "c.prop"
    prop.write_text("TASK: trec\nASSESSMENTS_DIR: q.txt\nSUBMISSIONRUNS_DIR: runs\nALPHA: " + "9" * 5_000_000 + "\n")
    (tmp_path / "q.txt").write_text("1 0 d 1\n")
    with pytest.raises(ConfigErrors) as info:
        load_config(prop)
    assert str(info.value) == f"{prop}:4: ALPHA: '{'9' * 99}…{'9' * 39}' (5000000 characters) is not a number in [0, 1]"


def test_cut_long_and_cut_text():
    assert cut_long("ALPHA: 'short' is bad") == "ALPHA: 'short' is bad"
    text = cut_long("ALPHA: " + repr("ab" * 1000) + " is not a number")
    assert text == "ALPHA: '" + ("ab" * 50)[:99] + "…" + ("ab" * 20)[-39:] + "' (2000 characters) is not a number"
    assert cut_text("p" * 10) == "p" * 10
    assert cut_text("p" * 1000) == "p" * 100 + "…" + "p" * 40 + " (1000 characters)"


def _regex_split(raw: str) -> list[str]:
    """The reference: METRICS split at a comma whose next parenthesis is not ')' (a regex, quadratic)."""
    return [item.strip() for item in re.split(r",(?![^()]*\))", raw) if item.strip()]


def test_metrics_split_equals_the_reference_rule():
    rng = random.Random(30)
    for _ in range(50_000):
        raw = "".join(rng.choice("ab(),, =.") for _ in range(rng.randint(0, 16)))
        assert _metrics_items(raw) == _regex_split(raw), raw


def test_200000_metrics_names_read_once_each_with_a_warning(tmp_path):
    names = ["map", "P_5", "Q(beta=0.5,agr)", "utility_2,-1,0,0"] * 50_000
    raw = ",".join(names)
    assert parse_metrics(raw, tmp_path) == ("map", "p_5", "q(beta=0.5,agr)", "utility_2,-1,0,0")
    assert repeated_metrics(raw) == ["map", "p_5", "q(beta=0.5,agr)", "utility_2,-1,0,0"]
    config = load_config_mapping({"TASK": "trec", "ASSESSMENTS_DIR": TREC / "qrels.txt",
                                  "SUBMISSIONRUNS_DIR": TREC / "runs", "METRICS": ["map", "P_5"] * 100_000})
    assert config.metrics == ("map", "p_5")
    assert config.notes == ("<dict>: METRICS: 2 name(s) given more than once, each computed and shown once: "
                            "map, p_5",)
    res = inexeval.evaluate({"TASK": "trec", "ASSESSMENTS_DIR": TREC / "qrels.txt",
                             "SUBMISSIONRUNS_DIR": TREC / "runs", "METRICS": "map, P_5, MAP"})
    assert "<dict>: METRICS: 1 name(s) given more than once, each computed and shown once: map" in res.warnings
    assert res.outputs == ["map", "P_5"]
