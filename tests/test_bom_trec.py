"""TREC qrels and runs with a UTF-8 byte order mark, or in UTF-16, score as their UTF-8 form (issue 15).

The TREC reader (inexeval/readers/trec*.py) is rewritten in another branch;
these tests state the behaviour every other reader has (docs/formats.md §1.5)
end to end through the command line, and are expected to fail until then.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from inexeval.cli.command import main

SAMPLE = Path(__file__).resolve().parent.parent / "sample_data" / "trec"


def _setup(tmp_path: Path) -> Path:
    shutil.copytree(SAMPLE, tmp_path / "trec")
    cfg = tmp_path / "trec.prop"
    cfg.write_text("TASK: trec\nASSESSMENTS_DIR: trec/qrels.txt\nSUBMISSIONRUNS_DIR: trec/runs/\nRESULTS_DIR: out\n")
    return cfg


def _scores(cfg: Path) -> tuple[int, str]:
    res = CliRunner().invoke(main, ["-config", str(cfg), "-q"])
    return res.exit_code, res.stdout


@pytest.mark.parametrize("name", ["qrels.txt", "runs/good.txt"])

def test_utf8_bom_in_trec_input_changes_no_score(tmp_path, name):
    cfg = _setup(tmp_path)
    plain = _scores(cfg)
    path = tmp_path / "trec" / name
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())
    assert _scores(cfg) == plain
    assert plain[0] == 0


@pytest.mark.parametrize("name", ["qrels.txt", "runs/poor.txt"])

def test_utf16_trec_input_is_read_like_utf8(tmp_path, name):
    # runs and assessments of every other kind are read in UTF-16 with a byte order mark
    cfg = _setup(tmp_path)
    plain = _scores(cfg)
    path = tmp_path / "trec" / name
    path.write_bytes(path.read_text(encoding="utf-8").encode("utf-16"))
    assert _scores(cfg) == plain
