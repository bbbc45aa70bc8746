"""Headline first (issue 33): the task's headline measures (HEADLINE, else the task table's) with their
intervals and significance groups in the report and the index's leaderboard; compare's printed
correlation tables over them (all in the TSV); counts as integers; TITLE and the date on the index."""

from __future__ import annotations

import csv
import re
from pathlib import Path

import numpy as np
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
    config = _config(tmp_path, "TITLE: Example Track, ad hoc task\nDESCRIPTION: Four topics & <three> runs.\n")
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
    assert "<p>Four topics &amp; &lt;three&gt; runs.</p>" in index
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


def test_run_page_against_the_other_runs(tmp_path):
    config = _config(tmp_path, "")
    code, _, err = _run("report", "-config", config, "--html", tmp_path / "site", "--quiet")
    assert code == 0, err
    page = _text((tmp_path / "site" / "trec" / "runs" / "medium.html").read_text())
    # map on topic 402: good 0.9861, medium 0.9338, poor none (it lacks the topic): median (0.9861 + 0.9338)/2
    assert "against the other runs" in page and "402 0.9338 0.9861 0.9600 0.9338 -0.0261" in page
    html = (tmp_path / "site" / "trec" / "runs" / "medium.html").read_text()
    # the same difference as a bar of the chart, its tooltip naming the topic; counts as integers
    chart = html[html.index('<svg class="bars"'):html.index("</svg>")]
    assert "<title>topic 402: -0.0261</title>" in chart and 'class="down"' in chart
    assert re.search(r"<td[^>]*>num_ret</td><td[^>]*>\d+</td>", html)
    # each topic's side-by-side page: medium beside the other run best on map there (402: good)
    link = re.search(r'<a href="\.\./(runs/medium/topics/402\.html)">vs good</a>', html)
    assert link, html[html.index("side by side"):][:2000]
    panel = (tmp_path / "site" / "trec" / link.group(1)).read_text()
    assert "<h1>Topic 402: medium and good</h1>" in panel and 'href="../../../../report.css"' in panel


def test_task_page_per_topic_distribution(tmp_path):
    config = _config(tmp_path, "")
    code, _, err = _run("report", "-config", config, "--html", tmp_path / "site", "--quiet", "--panels", "0")
    assert code == 0, err
    site = tmp_path / "site" / "trec"
    png = site / "graphs" / "distribution_default_map.png"
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    page = (site / "index.html").read_text()
    assert '<h3>Per topic: map</h3>' in page and 'src="graphs/distribution_default_map.png"' in page
    # --panels 0: no side-by-side pages, no column for them
    assert not list(site.rglob("topics")) and "side by side" not in (site / "runs" / "good.html").read_text()


def test_trec_pages_have_the_precision_recall_graph(tmp_path):
    config = _config(tmp_path, "")
    code, _, err = _run("report", "-config", config, "--html", tmp_path / "site", "--quiet")
    assert code == 0, err
    site = tmp_path / "site" / "trec"
    png = site / "graphs" / "interpolated-precision-recall_default.png"
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert 'src="graphs/interpolated-precision-recall_default.png"' in (site / "index.html").read_text()
    assert (site / "runs" / "good" / "interpolated-precision-recall_default.png").exists()


def test_precision_recall_curve_values():
    from types import SimpleNamespace

    from inexeval.report.site import IPREC, precision_recall_curves

    r = SimpleNamespace(run_id="a", setting="default", average={n: 1 - i / 10 for i, n in enumerate(IPREC)})
    ev = SimpleNamespace(columns=[*IPREC, "map"], settings=[SimpleNamespace(name="default")], results=[r])
    (curve,) = precision_recall_curves(ev)
    assert curve.xs == [i / 10 for i in range(11)] and curve.series["a"] == [1 - i / 10 for i in range(11)]
    assert precision_recall_curves(SimpleNamespace(columns=["map"], settings=[], results=[])) == []


def test_headline_without_groups_is_still_best_first_with_margins(tmp_path):
    """Runs sharing one topic: no Tukey groups (they need two common topics).  The leaderboard and the
    headline table were then in file order, without the margins, which need only each run's topics.
    qrels: d1 relevant for topics 1-4.  a: d1 at rank 2 on topics 1, 2 (AP 1/2, 1/2: map 0.5);
    b: d1 at rank 1 on 1, 3 (map 1); c: rank 1 on 1, rank 3 on 4 (AP 1, 1/3: map 2/3)."""
    (tmp_path / "qrels.txt").write_text("".join(f"{t} 0 d1 1\n" for t in (1, 2, 3, 4)))
    runs = tmp_path / "runs"
    runs.mkdir()
    lines = {"a": [(1, 2), (2, 2)], "b": [(1, 1), (3, 1)], "c": [(1, 1), (4, 3)]}
    for run, ranks in lines.items():
        text = ""
        for topic, rank in ranks:
            docs = [f"x{k}" for k in range(1, rank)] + ["d1"]
            text += "".join(f"{topic} Q0 {d} {i} {10 - i} {run}\n" for i, d in enumerate(docs, 1))
        (runs / f"{run}.txt").write_text(text)
    config = tmp_path / "t.prop"
    config.write_text("TASK: trec\nASSESSMENTS_DIR: qrels.txt\nSUBMISSIONRUNS_DIR: runs\nRESULTS_DIR: out\n"
                      "METRICS: map\nHEADLINE: map\n")
    code, _, err = _run("report", "-config", config, "--html", tmp_path / "site", "--quiet")
    assert code == 0, err
    index = _text((tmp_path / "site" / "index.html").read_text())
    board = index[index.index("Leaderboard: trec, map"):]
    order = [board.index(f" {r} ") for r in ("b", "c", "a")]
    assert order == sorted(order), board[:300]
    # a: topics 1, 2 both 0.5: margin 0; c: 1 and 1/3, mean 2/3, margin t(0.975, 1) * s / sqrt(2)
    low, high = stats.confidence_interval([1.0, 1 / 3])
    assert f" c 0.6667 &plusmn;{(high - low) / 2:.4f} " in board and " a 0.5000 &plusmn;0.0000 " in board
    assert "no significance groups: fewer than two topics are common to the runs" in board
    page = _text((tmp_path / "site" / "trec" / "index.html").read_text())
    head = page[page.index("Headline"):]
    assert [head.index(f" {r} ") for r in ("b", "c", "a")] == sorted(head.index(f" {r} ") for r in "bca")
