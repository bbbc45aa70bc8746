"""Headline first (issue 33): the task's headline measures (HEADLINE, else the task table's) with their
intervals and significance groups in the report and the index's leaderboard; compare's printed
correlation tables over them (all in the TSV); counts as integers; TITLE and the date on the index."""

from __future__ import annotations

import csv
import re
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from inexeval import stats
from inexeval.cli import main

ROOT = Path(__file__).resolve().parents[1]
TREC = ROOT / "configs" / "trec.prop"


def _run(*args, env=None) -> tuple[int, str, str]:
    res = CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False, env=env)
    return res.exit_code, res.stdout, res.stderr


def _config(tmp_path: Path, extra: str) -> Path:
    text = TREC.read_text().replace("../sample_data", str(ROOT / "sample_data"))
    text = "\n".join(line for line in text.splitlines() if not line.startswith("RESULTS_DIR"))
    path = tmp_path / "trec.prop"
    path.write_text(text + f"\nRESULTS_DIR: {tmp_path / 'results'}\n" + extra)
    return path


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_trec_headline_table_intervals_groups_and_counts(tmp_path):
    config = _config(tmp_path, "TITLE: Example Track, ad hoc task\n")
    code, _, err = _run("report", "-config", config, "--html", tmp_path / "site", "--quiet",
                        env={"SOURCE_DATE_EPOCH": "1764288000"})
    assert code == 0, err
    page = (tmp_path / "site" / "trec" / "index.html").read_text()
    head = page[page.index("<h3>Headline"):page.index("</table>", page.index("<h3>Headline"))]
    names = re.findall(r"<button[^>]*>([^<]+)</button>", head)
    assert names == ["Run", "map", "P_10", "ndcg_cut_10", "recip_rank", "bpref", "Rprec", "num_ret", "num_rel",
                     "num_rel_ret"]
    # map of run good: mean ± the t margin of error of its own topics, and its group among the common topics
    per_topic = {}
    for line in (tmp_path / "results" / "trec" / "default" / "good.tsv").read_text().splitlines():
        m, t, v = line.split("\t")
        if m == "map" and t != "all":
            per_topic[t] = float(v)
    low, high = stats.confidence_interval(list(per_topic.values()))
    mean = np.mean(list(per_topic.values()))
    assert f"{mean:.4f} <span class=\"rank\">&plusmn;{(high - low) / 2:.4f}</span><sup class=\"group\">" in head
    row = head[head.index(">good<"):]
    assert re.search(r">80</td>", row)  # num_ret as an integer, not 80.0000
    index = (tmp_path / "site" / "index.html").read_text()
    assert "<h1>Example Track, ad hoc task</h1>" in index and "2025-11-28" in index
    assert "Leaderboard: trec, map" in _text(index)


def test_headline_key_chooses_and_is_checked(tmp_path):
    config = _config(tmp_path, "HEADLINE: P_10, map\n")
    code, out, err = _run("compare", "-config", config, "--quiet")
    assert code == 0, err
    assert "default  P_10  t test" in out  # the first headline measure is the tested one
    printed = out[:out.index("== trec  default  P_10")]
    assert "ndcg_cut_10" not in printed  # printed correlations: the headline measures only
    with open(tmp_path / "results" / "trec" / "correlations.tsv", newline="") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    assert any(r["a"] == "ndcg_cut_10" for r in rows)  # every measure in the file
    bad = _config(tmp_path, "HEADLINE: map, nope\n")
    code, _, err = _run("compare", "-config", bad, "--quiet")
    assert code == 2 and "HEADLINE: 'nope' is not an output" in err and "trec.prop:" in err


def test_default_tested_measure_is_the_first_ranking_headline():
    from inexeval.compare.tables import tested_measure

    assert tested_measure(["num_ret", "map", "P_10"], None, ["num_ret", "map"]) == "map"
    assert tested_measure(["num_ret", "x"], None, []) == "num_ret"
    assert tested_measure(["a", "b"], "b", ["a"]) == "b"
