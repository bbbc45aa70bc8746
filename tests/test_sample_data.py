"""Every shipped config runs on the shipped sample data; golden summaries guard the numbers.

The golden files are regenerated with ``python tests/test_sample_data.py``
(after a deliberate change in results, reviewed in the diff).  Correctness
itself is established by the hand-worked tests; these catch regressions.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from inexeval.cli.command import main

ROOT = Path(__file__).resolve().parent.parent
CONFIGS = sorted((ROOT / "configs").glob("*.prop"))
GOLDEN = Path(__file__).resolve().parent / "golden"
TASK_DIRS = {"co-thorough": "CO.Thorough"}


def run_config(cfg: Path, out: Path, *extra: str):
    return CliRunner().invoke(main, ["-config", str(cfg), "--results-dir", str(out), *extra],
                              catch_exceptions=False)


def summaries(out: Path) -> dict[str, str]:
    return {p.parent.name: p.read_text() for p in out.glob("*/summary.tsv")}


def test_all_configs_present():
    names = {c.stem for c in CONFIGS}
    expected_2005 = {"co-focussed", "cos-focussed", "co-thorough", "cos-thorough", "co-fetchbrowse",
                     "cos-fetchbrowse", "sscas", "svcas", "vscas", "vvcas", "inex2005"}
    expected_2006 = {"thorough-2006", "focused-2006", "relevant-in-context", "best-in-context", "hixeval"}
    assert expected_2005 | expected_2006 | {"trec"} <= names


@pytest.mark.parametrize("cfg", CONFIGS, ids=[c.stem for c in CONFIGS])
def test_config_runs_on_sample_data_and_matches_golden(cfg, tmp_path):
    res = run_config(cfg, tmp_path, "-q", "-e", "-gnu")
    assert res.exit_code == 0, res.output
    got = summaries(tmp_path)
    assert len(got) == 1
    (task, text), = got.items()
    assert text.count("\n") >= 3  # header + at least two runs
    golden = GOLDEN / f"{cfg.stem}.summary.tsv"
    assert golden.exists(), f"missing golden file {golden.name}: run python tests/test_sample_data.py"
    assert text == golden.read_text(), f"{cfg.stem}: results differ from the golden summary"
    has_curves = cfg.stem not in ("hixeval", "relevant-in-context", "trec", "qa")  # these define no curve
    assert bool(list((tmp_path / task / "graphs").glob("*.gp"))) == has_curves, "graphs with -gnu"


def test_per_topic_output_matches_files(tmp_path):
    cfg = ROOT / "configs" / "co-thorough.prop"
    res = run_config(cfg, tmp_path, "-q", "-e", "--set", "QUANT_FUNCTIONS=gen", "--quiet")
    assert res.exit_code == 0
    lines = [line.split() for line in res.output.splitlines() if line and not line.startswith(("==", "--"))]
    header = lines[0]
    rows = [dict(zip(header, row)) for row in lines[1:] if len(row) == len(header)]
    topics = {r["topic"] for r in rows}
    assert "all" in topics and len(topics) > 3
    files = {}
    for p in (tmp_path / "CO.Thorough" / "gen_off").glob("*.tsv"):
        for line in p.read_text().splitlines():
            m, t, v = line.split("\t")
            files[(p.stem, m, t)] = v
    checked = 0
    for r in rows:
        for m in ("MAep", "nxCG@10", "Q"):
            v = files[(r["run"], m, r["topic"])]
            assert r[m] == ("-" if v == "-" else f"{float(v):.4f}")
            checked += 1
    assert checked >= 30


if __name__ == "__main__":  # regenerate the golden summaries
    import tempfile

    for cfg in CONFIGS:
        with tempfile.TemporaryDirectory() as d:
            r = run_config(cfg, Path(d), "-q", "-e", "--quiet")
            if r.exit_code != 0:
                sys.exit(f"{cfg}: exit {r.exit_code}\n{r.output}")
            (text,) = summaries(Path(d)).values()
            (GOLDEN / f"{cfg.stem}.summary.tsv").write_text(text)
            print("wrote", cfg.stem)


def test_missing_element_is_warned_and_scored_non_relevant(tmp_path):
    """A run element that is not in its document: a message naming run, topic, file and path; no crash."""
    res = run_config(ROOT / "configs" / "relevant-in-context.prop", tmp_path)
    assert res.exit_code == 0
    lines = [line for line in res.output.splitlines() if "path not in the document" in line]
    assert lines and "RicPoor.xml" in lines[0] and "topic " in lines[0] and "section[99]" in lines[0]
