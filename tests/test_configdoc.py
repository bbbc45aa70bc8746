"""docs/config.md is the text generated from the key table, and the reference config shows every key."""

from __future__ import annotations

import re
from pathlib import Path

import yaml

from inexeval.config import KEY_ALIASES, KEYS, SCHEMA, parse_prop_text
from inexeval.devtools.configdoc import COMMAND, config_reference

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "config.md"


def test_docs_config_md_is_generated_from_the_table():
    assert DOC.read_text(encoding="utf-8") == config_reference(), (
        f"docs/config.md is out of date with inexeval/config/schema.py or inexeval/tasks.py; regenerate it: {COMMAND}"
    )


def test_every_key_has_a_section_with_its_aliases():
    text = config_reference()
    for key in SCHEMA:
        section = text.split(f"\n### {key.name}\n", 1)[1].split("\n### ", 1)[0]
        assert key.doc.split()[0] in section
        for alias in key.aliases:
            assert f"`{alias}`" in section
    assert "SPEC" not in text and "shared" not in text


def test_documented_per_task_defaults():
    # the defaults issue 13 asked to state exactly (they come from inexeval/tasks.py)
    text = " ".join(config_reference().split())
    assert "none (every result is kept): `trec`, `FOL.Thorough`, `FOL.Focused`, `FOL.RelevantInContext`, " \
        "`FOL.BestInContext`, `FOL.T2I`." in text
    assert re.search(r"`1500`: `CO.Thorough`[^-]*`RelevantInContext`, `BestInContext`\.", text)
    assert "`5, 10, 25, 50`: `RelevantInContext`." in text
    assert "none (the task has no OVERLAP; setting it is an error): `RelevantInContext`, `BestInContext`, `trec`, " \
        "`FOL.Thorough`, `FOL.Focused`, `FOL.RelevantInContext`, `FOL.BestInContext`, `FOL.T2I`, `qa`." in text
    assert "`5`: `qa`." in text


def test_the_examples_of_the_preface_are_valid():
    text = config_reference()
    blocks = re.findall(r"```(\w*)\n(.*?)```", text, re.S)
    prop = [body for lang, body in blocks if lang == ""]
    yml = [body for lang, body in blocks if lang == "yaml"]
    assert len(prop) == 1 and len(yml) == 1
    keys = [key for key, _, _ in parse_prop_text(prop[0], "docs/config.md")]
    assert keys == ["TASK", "QUANT_FUNCTIONS", "ASSESSMENTS_DIR", "SUBMISSIONRUNS_DIR", "POOLS"]
    assert all(k.upper() in KEYS for k in yaml.safe_load(yml[0]))


def test_the_reference_config_shows_every_key():
    text = (ROOT / "configs" / "inex2005.prop").read_text(encoding="utf-8")
    shown = {m.upper() for m in re.findall(r"^#?\s*([A-Za-z_][A-Za-z0-9_]*)\s*[:=]", text, re.M)}
    missing = [k for k in KEYS if k not in shown]
    assert not missing, f"configs/inex2005.prop does not show {missing} (as a setting or a commented-out one)"
    for alias in KEY_ALIASES:
        assert alias in text, alias
