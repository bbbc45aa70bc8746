"""inexeval.evaluate() on a mapping of config keys (through inexeval.config.load.load_config_mapping)."""

from __future__ import annotations

from pathlib import Path

import pytest

import inexeval
from inexeval.errors import ConfigError

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "sample_data" / "inex2005"

#: configs/co-thorough.prop as a mapping, with absolute paths
THOROUGH = {
    "TASK": "CO.Thorough",
    "METRICS": "nxCG, ep/gr, q",
    "ALPHA": "1.0",
    "OVERLAP": "off",
    "QUANT_FUNCTIONS": "gen, strict, genLifted",
    "DCV": "10, 25, 50",
    "ASSESSMENTS_DIR": f"{SAMPLE}/assessments/CO+S/*/",
    "QUERY_TYPE": "CO+S",
    "SUBMISSIONRUNS_DIR": f"{SAMPLE}/runs/CO/",
}


def test_mapping_gives_the_numbers_of_the_file():
    from_file = inexeval.evaluate(ROOT / "configs" / "co-thorough.prop")
    from_dict = inexeval.evaluate(THOROUGH)
    assert from_dict.runs == from_file.runs and from_dict.settings == from_file.settings
    assert from_dict.measures == from_file.measures
    for run in from_file.runs:
        for s in from_file.settings:
            assert from_dict.average(run, s) == from_file.average(run, s)
            assert from_dict.per_topic(run, s) == from_file.per_topic(run, s)


def test_mapping_with_overrides_and_write(tmp_path):
    res = inexeval.evaluate(THOROUGH, QUANT_FUNCTIONS=["strict"], METRICS="q", write=True, results_dir=tmp_path)
    assert res.settings == ["strict_off"] and res.measures == ["Q", "R"]
    full = inexeval.evaluate(THOROUGH)
    assert res.value("Medium", "Q") == full.value("Medium", "Q", "strict_off")
    assert (tmp_path / "CO.Thorough" / "strict_off" / "Medium.tsv").exists()


def test_bad_mapping_raises_config_error():
    with pytest.raises(ConfigError):
        inexeval.evaluate({**THOROUGH, "TASK": "CO.Thorogh"})
    with pytest.raises(ConfigError):
        inexeval.evaluate({k: v for k, v in THOROUGH.items() if k != "ASSESSMENTS_DIR"})
