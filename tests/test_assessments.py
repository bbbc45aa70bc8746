"""``inexeval assessments`` (docs/formats.md §10): hand-worked statistics, agreement (seed 001
Tables 2 and 3), Cohen's κ and ranking dependence, with their arithmetic in the comments."""

from __future__ import annotations

import json
import math
from fractions import Fraction as F
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from inexeval.assessments import tables as A
from inexeval.assessments.workflow import AssessOptions, run_assessments
from inexeval.cli.command import main

REPO = Path(__file__).resolve().parents[1]


def _pool(path: Path, topic: str, pool: str, files: dict[str, list[tuple]]) -> None:
    """An INEX 2005 pool file; FILES maps a file id to (path, e, size, rsize) rows ([] : judged, nothing relevant)."""
    body = []
    for f, rows in files.items():
        els = "".join(f'    <element path="{p}" exhaustivity="{e}" size="{s}" rsize="{r}"/>\n' for p, e, s, r in rows)
        body.append(f'  <file name="{f}">\n{els}  </file>\n' if rows else f'  <file name="{f}"/>\n')
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f'<?xml version="1.0"?>\n<assessments pool="{pool}" topic="{topic}">\n'
                    f'  <inex_topic topic_id="{topic}" query_type="CO"/>\n{"".join(body)}</assessments>\n')


ART, SEC1, SEC2, P1 = "/article[1]", "/article[1]/sec[1]", "/article[1]/sec[2]", "/article[1]/sec[2]/p[1]"


def _two_pool_topics(root: Path) -> Path:
    """Topic 900 judged by an official (pool 1, under main/) and an additional assessor (pool 2), and
    topic 901 (pools 3 and 4), which uses the article-level E? grade that topic 900 does not."""
    d = root / "assessments"
    _pool(d / "main" / "pool-1.xml", "900", "1", {
        "a1": [(ART, "2", 300, 200),     # 200/300 = 2/3 exactly: S2 (2/3 is in (1/3, 2/3]); E2
               (SEC1, "1", 150, 50),     # 50/150 = 1/3 exactly: S1 (1/3 is in (0, 1/3]); E1
               (SEC2, "2", 150, 150),    # 1: S3; E2
               (P1, "?", 30, 30)],       # 1: S3; E?
        "a2": [(ART, "1", 1000, 100),    # 0.1: S1; E1
               (SEC1, "1", 200, 100),    # 0.5: S2; E1
               (SEC2, "0", 800, 0)],     # rsize 0: not relevant, no grade
        "a3": [],                        # judged, nothing relevant
        "a4": [(ART, "1", 500, 400)],    # 0.8: S3; E1
    })
    _pool(d / "second" / "pool-2.xml", "900", "2", {
        "a1": [(ART, "1", 300, 100),     # 1/3: S1; E1
               (SEC1, "1", 150, 100),    # 2/3: S2; E1
               (SEC2, "0", 150, 0)],     # not relevant
        "a2": [(ART, "1", 1000, 100),    # S1; E1
               (SEC1, "1", 200, 100)],   # S2; E1
        "a3": [(ART, "2", 400, 400),     # S3; E2
               (SEC1, "?", 40, 40)],     # S3; E?
    })
    _pool(d / "main" / "pool-3.xml", "901", "3", {"b1": [(ART, "?", 40, 40)]})    # S3; E?
    _pool(d / "second" / "pool-4.xml", "901", "4", {"b1": [(ART, "?", 40, 40)]})  # S3; E?
    return d


def _config(root: Path, assessments: Path, runs: Path | None = None, **keys) -> dict:
    if runs is None:
        runs = root / "runs"  # not read without --agreement, but the config needs one
        runs.mkdir(exist_ok=True)
        (runs / "unused.txt").write_text("not read\n")
    return {"TASK": keys.pop("TASK", "CO.Thorough"), "ASSESSMENTS_DIR": str(assessments),
            "SUBMISSIONRUNS_DIR": str(runs), "RESULTS_DIR": str(root / "results"), **keys}


def _rows(text: str) -> dict[tuple, str]:
    out = {}
    for line in text.splitlines():
        section, topic, level, grade, quantity, value = line.split("\t")
        out[section, topic, level, grade, quantity] = value
    return out


def _run(config, **options) -> tuple[int, dict, list[str]]:
    printed: list[str] = []
    status = run_assessments(config, AssessOptions(fmt="tsv", **options),
                             echo=lambda text="", err=False, nl=True: printed.append(("E " if err else "") + text))
    out = "".join(p for p in printed if not p.startswith("E "))
    return status, _rows(out), [p for p in printed if p.startswith("E ")]


def _val(rows, *key):
    v = rows[key]
    return None if v == "-" else float(F(v)) if "/" in v else float(v)


def test_table_2_and_3_by_hand(tmp_path):
    status, rows, _ = _run(_config(tmp_path, _two_pool_topics(tmp_path)))
    assert status == 0
    # ---- Table 2, element level, topic 900 ----------------------------------------------------
    # A relevant: a1/art, a1/sec1, a1/sec2, a1/p1, a2/art, a2/sec1, a4/art (7)
    # B relevant: a1/art, a1/sec1, a2/art, a2/sec1, a3/art, a3/sec1 (6)
    # ∩ = a1/art, a1/sec1, a2/art, a2/sec1 = 4; ∪ = 7 + 6 - 4 = 9; 4/9
    # E?: A {a1/p1}, B {a3/sec1}: ∪ 2, ∩ 0
    # E1: A {a1/sec1, a2/art, a2/sec1, a4/art}, B {a1/art, a1/sec1, a2/art, a2/sec1}: ∩ 3, ∪ 4 + 4 - 3 = 5
    # E2: A {a1/art, a1/sec2}, B {a3/art}: ∪ 3, ∩ 0
    # S1: A {a1/sec1 (1/3), a2/art}, B {a1/art (1/3), a2/art}: ∩ {a2/art} 1, ∪ 3
    # S2: A {a1/art (2/3), a2/sec1}, B {a1/sec1 (2/3), a2/sec1}: ∩ {a2/sec1} 1, ∪ 3
    # S3: A {a1/sec2, a1/p1, a4/art}, B {a3/art, a3/sec1}: ∪ 5, ∩ 0
    element = {"all": (9, 4), "E?": (2, 0), "E1": (5, 3), "E2": (3, 0), "S1": (3, 1), "S2": (3, 1), "S3": (5, 0)}
    # ---- Table 2, article level, topic 900 (an article's grade is its root element's) ----------
    # relevant: A {a1, a2, a4}, B {a1, a2, a3}: ∩ 2, ∪ 4
    # E?: no root is E? for either assessor: ∪ 0, ∩ 0, ratio undefined
    # E1: A {a2, a4}, B {a1, a2}: ∩ 1, ∪ 3;  E2: A {a1}, B {a3}: ∪ 2, ∩ 0
    # S1: A {a2}, B {a1 (1/3), a2}: ∩ 1, ∪ 2;  S2: A {a1 (2/3)}, B {}: ∪ 1, ∩ 0;  S3: A {a4}, B {a3}: ∪ 2, ∩ 0
    article = {"all": (4, 2), "E?": (0, 0), "E1": (3, 1), "E2": (2, 0), "S1": (2, 1), "S2": (1, 0), "S3": (2, 0)}
    for level, expected in (("element", element), ("article", article)):
        for grade, (union, inter) in expected.items():
            assert rows["agreement", "900", level, grade, "union"] == str(union), (level, grade)
            assert rows["agreement", "900", level, grade, "intersection"] == str(inter), (level, grade)
            ratio = rows["agreement", "900", level, grade, "ratio"]
            if union == 0:
                assert ratio == "-"  # a grade neither assessor used: undefined, not 0
            else:
                assert float(ratio) == pytest.approx(inter / union, abs=1e-15), (level, grade)
    # topic 901: one E?/S3 article judged alike: every used grade 1/1, the others undefined
    for level in ("element", "article"):
        for grade in ("all", "E?", "S3"):
            assert rows["agreement", "901", level, grade, "ratio"] == "1.0"
        for grade in ("E1", "E2", "S1", "S2"):
            assert rows["agreement", "901", level, grade, "ratio"] == "-"
    # means over the topics where the ratio is defined
    assert _val(rows, "agreement", "mean", "element", "all", "ratio") == pytest.approx((4 / 9 + 1) / 2)
    assert _val(rows, "agreement", "mean", "element", "E1", "ratio") == pytest.approx(3 / 5)  # 901 undefined
    assert _val(rows, "agreement", "mean", "article", "E?", "ratio") == 1.0  # 900 undefined: not (0 + 1) / 2
    assert _val(rows, "agreement", "mean", "article", "S2", "ratio") == 0.0  # 0/1 of 900 only
    assert _val(rows, "agreement", "mean", "article", "all", "union") == 2.5  # (4 + 1) / 2
    # ---- Table 3, topic 900: MA = {a1/art, a1/sec1, a2/art, a2/sec1} ---------------------------
    # E?: none of MA is E? for A: ∪ 0, undefined
    # E1: A puts a1/sec1, a2/art, a2/sec1 in E1; B too: 3/3
    # E2: A puts a1/art in E2; B puts it in E1: 0/1
    # S1: A: a1/sec1 (1/3), a2/art; B: a1/sec1 is S2 (2/3), a2/art S1: 1/2
    # S2: A: a1/art (2/3), a2/sec1; B: a1/art S1 (1/3), a2/sec1 S2: 1/2
    # S3: none of MA is S3 for A: ∪ 0, undefined
    assert rows["ma", "900", "element", "all", "count"] == "4"
    ma = {"E?": (0, 0), "E1": (3, 3), "E2": (1, 0), "S1": (2, 1), "S2": (2, 1), "S3": (0, 0)}
    for grade, (union, inter) in ma.items():
        assert rows["ma", "900", "element", grade, "union"] == str(union), grade
        assert rows["ma", "900", "element", grade, "intersection"] == str(inter), grade
        assert rows["ma", "900", "element", grade, "ratio"] == ("-" if union == 0 else repr(inter / union)), grade
    # 901: MA = {b1/art}, E? and S3 for both
    assert rows["ma", "901", "element", "E?", "ratio"] == "1.0"
    assert _val(rows, "ma", "mean", "element", "E?", "ratio") == 1.0
    assert _val(rows, "ma", "mean", "element", "S1", "ratio") == 0.5


def test_statistics_by_hand(tmp_path):
    _, rows, _ = _run(_config(tmp_path, _two_pool_topics(tmp_path)))
    # official assessor of 900, E1 elements: a1/sec1 (150, 50), a2/art (1000, 100), a2/sec1 (200, 100), a4/art (500, 400)
    # count 4; avg_size (150 + 1000 + 200 + 500) / 4 = 462.5; rsize %: (33.33 + 10 + 50 + 80) / 4 = 43.333
    assert rows["stats", "900", "element", "E1", "count"] == "4"
    assert _val(rows, "stats", "900", "element", "E1", "avg_size") == 462.5
    assert _val(rows, "stats", "900", "element", "E1", "avg_rsize_pct") == pytest.approx((100 / 3 + 10 + 50 + 80) / 4)
    # 'all': the 7 relevant elements, sizes 300 150 150 30 1000 200 500 (sum 2330)
    assert _val(rows, "stats", "900", "element", "all", "avg_size") == pytest.approx(2330 / 7)
    # E2 of 901: no element: count 0 (defined), average size undefined
    assert rows["stats", "901", "element", "E2", "count"] == "0"
    assert rows["stats", "901", "element", "E2", "avg_size"] == "-"
    # across topics: E1 counts 4 (900) and 0 (901): mean 2, min 0 at 901, max 4 at 900, median 2,
    # population stdev sqrt(((4-2)^2 + (0-2)^2) / 2) = 2
    assert [_val(rows, "stats", q, "element", "E1", "count") for q in ("mean", "min", "max", "median", "stdev")] \
        == [2.0, 0.0, 4.0, 2.0, 2.0]
    assert rows["stats", "min_topic", "element", "E1", "count"] == "901"
    assert rows["stats", "max_topic", "element", "E1", "count"] == "900"
    # avg_size of E1 is defined for 900 only: every statistic over that one value, stdev 0
    assert _val(rows, "stats", "mean", "element", "E1", "avg_size") == 462.5
    assert _val(rows, "stats", "stdev", "element", "E1", "avg_size") == 0.0
    assert rows["stats", "min_topic", "element", "E1", "avg_size"] == "900"


def test_across_topics_numpy_population_stdev():
    rows = [("stats", t, "element", "E?", "avg_size", v) for t, v in (("3", 4.0), ("10", 1.0), ("2", 4.0), ("7", None))]
    out = {r[1]: r[5] for r in A.across_topics(rows)}
    v = np.array([4.0, 1.0, 4.0])
    assert out["mean"] == pytest.approx(3.0) and out["median"] == 4.0
    assert out["stdev"] == pytest.approx(math.sqrt(((4 - 3) ** 2 * 2 + (1 - 3) ** 2) / 3)) == pytest.approx(v.std())
    assert out["min_topic"] == "10" and out["max_topic"] == "2"  # ties: first topic in natural order (2 < 3)


def test_specificity_boundaries_exact():
    # sizes where floating point 1/3 would mislead: rsize/size exactly 1/3 and 2/3, and just above
    size = np.array([3, 300000000000001 * 3, 3, 6, 6, 1])
    rsize = np.array([1, 300000000000001, 2, 3, 5, 1])
    g = A.specificity_grades(size, rsize, rsize > 0)
    assert g["S1"].tolist() == [True, True, False, False, False, False]
    assert g["S2"].tolist() == [False, False, True, True, False, False]
    assert g["S3"].tolist() == [False, False, False, False, True, True]


def test_covered_characters():
    assert A.covered(np.array([[0, 10], [5, 12], [20, 25], [21, 22]])) == 12 + 5
    assert A.covered(np.zeros((0, 2), dtype=np.int64)) == 0


def _qrels(path: Path, lines: list[str]) -> Path:
    path.write_text("".join(line + "\n" for line in lines))
    return path


def test_trec_kappa_and_levels_by_hand(tmp_path):
    qa = _qrels(tmp_path / "a.txt", ["1 0 d1 2", "1 0 d2 1", "1 0 d3 0", "1 0 d4 0", "1 0 d5 1", "1 0 d6 0"])
    qb = _qrels(tmp_path / "b.txt", ["1 0 d1 1", "1 0 d2 0", "1 0 d3 0", "1 0 d4 1", "1 0 d5 1", "1 0 d7 2"])
    status, rows, _ = _run(_config(tmp_path, qa, TASK="trec"), qrels_b=qb)
    assert status == 0
    # judged in both: d1..d5. Relevant (REL_LEVEL 1): A 1 1 0 0 1, B 1 0 0 1 1: agree on d1 d3 d5, po = 3/5;
    # pe = (3/5)(3/5) + (2/5)(2/5) = 13/25; kappa = (3/5 - 13/25) / (1 - 13/25) = (2/25) / (12/25) = 1/6
    assert rows["agreement", "1", "article", "all", "judged_both"] == "5"
    assert _val(rows, "agreement", "1", "article", "all", "kappa") == pytest.approx(1 / 6)
    # levels: A 2 1 0 0 1, B 1 0 0 1 1: agree on d3 d5, po = 2/5; A: 0 2/5, 1 2/5, 2 1/5; B: 0 2/5, 1 3/5, 2 0;
    # pe = 4/25 + 6/25 + 0 = 2/5; kappa = 0
    assert _val(rows, "agreement", "1", "article", "all", "kappa_levels") == pytest.approx(0.0, abs=1e-15)
    # per level: relevant A {d1 d2 d5}, B {d1 d4 d5 d7}: ∩ 2, ∪ 5; level 0: A {d3 d4 d6}, B {d2 d3}: 1/4;
    # level 1: A {d2 d5}, B {d1 d4 d5}: 1/4; level 2: A {d1}, B {d7}: 0/2
    for grade, (union, inter) in {"all": (5, 2), "0": (4, 1), "1": (4, 1), "2": (2, 0)}.items():
        assert rows["agreement", "1", "article", grade, "union"] == str(union)
        assert rows["agreement", "1", "article", grade, "intersection"] == str(inter)
    # statistics of the official qrels: 3 documents at level 0, 2 at 1, 1 at 2; 3 relevant; no sizes
    assert [rows["stats", "1", "article", g, "count"] for g in ("all", "0", "1", "2")] == ["3", "3", "2", "1"]
    assert rows["stats", "1", "article", "all", "avg_size"] == "-"


def test_kappa_undefined_when_chance_is_certain():
    assert A.kappa(np.array([1, 1]), np.array([1, 1])) is None
    assert A.kappa(np.array([], dtype=int), np.array([], dtype=int)) is None


def _trec_run(path: Path, run_id: str, docs: list[str]) -> None:
    path.write_text("".join(f"1 Q0 {d} {k + 1} {10 - k} {run_id}\n" for k, d in enumerate(docs)))


def test_agreement_ranking_trec_by_hand(tmp_path):
    qa = _qrels(tmp_path / "a.txt", ["1 0 d1 2", "1 0 d2 1", "1 0 d3 0", "1 0 d4 0", "1 0 d5 1", "1 0 d6 0"])
    qb = _qrels(tmp_path / "b.txt", ["1 0 d1 1", "1 0 d2 0", "1 0 d3 0", "1 0 d4 1", "1 0 d5 1", "1 0 d7 2"])
    runs = tmp_path / "runs"
    runs.mkdir()
    _trec_run(runs / "r1.txt", "r1", ["d1", "d2", "d3"])  # P_5: A 2/5 (d1 d2), B 1/5 (d1)
    _trec_run(runs / "r2.txt", "r2", ["d4", "d7", "d3"])  # A 0, B 2/5 (d4 d7)
    _trec_run(runs / "r3.txt", "r3", ["d5", "d6"])        # A 1/5, B 1/5
    status, rows, _ = _run(_config(tmp_path, qa, runs, TASK="trec", METRICS="P_5"), qrels_b=qb, agreement=True)
    assert status == 0
    # pairs (r1,r2): A +, B - : discordant; (r1,r3): tied under B; (r2,r3): A -, B + : discordant
    # n0 = 3, n1 = 0, n2 = 1, C - D = -2: tau_b = -2 / sqrt(3 * 2)
    key = ("ranking", "all", "default", "P_5")
    assert _val(rows, *key, "kendall_tau_b") == pytest.approx(-2 / math.sqrt(6))
    # ranks ascending: A (3, 1, 2), B (1.5, 3, 1.5); deviations (1, -1, 0) and (-.5, 1, -.5):
    # rho = -1.5 / sqrt(2 * 1.5)
    assert _val(rows, *key, "spearman_rho") == pytest.approx(-1.5 / math.sqrt(3))
    # ranks (1 best): A r1 1, r2 3, r3 2; B r2 1, r1 2.5, r3 2.5: r2 moves 2
    assert _val(rows, *key, "max_rank_change") == 2.0
    assert rows[(*key, "max_rank_change_run")] == "r2"


def test_agreement_ranking_inex_uses_each_pool(tmp_path):
    """--agreement on INEX pools gives the correlation of evaluating POOLS=1,3 against POOLS=2,4."""
    import inexeval
    from inexeval.compare import stats as analysis

    d = _two_pool_topics(tmp_path)
    runs = tmp_path / "runs"
    runs.mkdir()
    results = {"good": ["a1", "a2", "a4"], "mixed": ["a3", "a1", "a2"], "other": ["a3", "b1", "a4"]}
    for run_id, files in results.items():
        tops = {"900": [f for f in files if f.startswith("a")], "901": [f for f in files if f.startswith("b")]}
        body = "".join(f'  <topic topic-id="{t}">\n' + "".join(
            f"    <result><file>{f}</file><path>/article[1]</path></result>\n" for f in fs) + "  </topic>\n"
            for t, fs in tops.items() if fs)
        (runs / f"{run_id}.xml").write_text(f'<?xml version="1.0"?>\n<inex-submission participant-id="1" '
                                            f'run-id="{run_id}" task="CO.Thorough">\n{body}</inex-submission>\n')
    config = _config(tmp_path, d, runs, METRICS="ep/gr", QUANT_FUNCTIONS="gen")
    status, rows, _ = _run(config, agreement=True)
    assert status == 0
    a = inexeval.evaluate({**config, "POOLS": "1, 3"})
    b = inexeval.evaluate({**config, "POOLS": "2, 4"})
    x = [a.average(r)["MAep"] for r in a.runs]
    y = [b.average(r)["MAep"] for r in a.runs]
    assert x != y  # the assessors rank differently
    assert _val(rows, "ranking", "all", "gen_off", "MAep", "kendall_tau_b") == pytest.approx(analysis.kendall_tau_b(x, y))
    assert _val(rows, "ranking", "all", "gen_off", "MAep", "spearman_rho") == pytest.approx(analysis.spearman_rho(x, y))


def test_cli_writes_files_and_graphs(tmp_path):
    d = _two_pool_topics(tmp_path)
    _config(tmp_path, d)
    (tmp_path / "c.prop").write_text(f"TASK: CO.Thorough\nASSESSMENTS_DIR: {d}\nSUBMISSIONRUNS_DIR: runs\n"
                                     f"RESULTS_DIR: results\n")
    res = CliRunner().invoke(main, ["assessments", "-config", str(tmp_path / "c.prop"), "-gnu", "-png"])
    assert res.exit_code == 0, res.output
    assert "Agreement between the two assessors, element level" in res.output
    out = tmp_path / "results" / "CO.Thorough" / "assessments"
    tsv = (out / "assessments.tsv").read_text()
    assert "agreement\t900\telement\tall\tratio\t0.4444444444444444\n" in tsv
    assert all(len(line.split("\t")) == 6 for line in tsv.splitlines())
    js = json.loads((out / "assessments.json").read_text())
    assert {"section": "agreement", "topic": "900", "level": "article", "grade": "E?", "quantity": "ratio",
            "value": None} in js
    names = sorted(p.name for p in (out / "graphs").iterdir())
    assert names == ["agreement_article.dat", "agreement_article.gp", "agreement_article.png",
                     "agreement_element.dat", "agreement_element.gp", "agreement_element.png",
                     "sizes_element.dat", "sizes_element.gp", "sizes_element.png"]
    # written as a whole: nothing left beside it
    assert sorted(p.name for p in out.parent.iterdir()) == ["assessments"]


def test_cli_refusals(tmp_path):
    d = _two_pool_topics(tmp_path)
    _config(tmp_path, d)
    cfg = tmp_path / "c.prop"
    cfg.write_text(f"TASK: CO.Thorough\nASSESSMENTS_DIR: {d}\nSUBMISSIONRUNS_DIR: runs\nRESULTS_DIR: results\n")
    res = CliRunner().invoke(main, ["assessments", "-config", str(cfg), "--qrels-b", str(cfg)])
    assert res.exit_code == 2 and "other pool file under ASSESSMENTS_DIR" in res.output
    res = CliRunner().invoke(main, ["assessments", "-config", str(cfg), "--jobs", "2"])
    assert res.exit_code == 2


def test_sample_data_three_topics_judged_twice(tmp_path):
    status, rows, _ = _run(str(REPO / "configs" / "inex2005.prop"), results_dir=str(tmp_path))
    assert status == 0
    judged_twice = sorted({k[1] for k in rows if k[0] == "agreement" and k[1][0].isdigit()})
    assert judged_twice == ["202", "203", "205"]
    stats_topics = sorted({k[1] for k in rows if k[0] == "stats" and k[1][0].isdigit()})
    assert stats_topics == ["202", "203", "205", "207", "209"]
    assert (tmp_path / "CO.Focussed" / "assessments" / "assessments.tsv").is_file()


def test_fol_text_agreement_by_hand(tmp_path):
    qa = _qrels(tmp_path / "a.txt", ["1 Q0 100 30 200 0 10:20 50:10",   # characters [10, 30) and [50, 60): 30
                                     "1 Q0 101 0 300"])                  # judged, nothing relevant
    qb = _qrels(tmp_path / "b.txt", ["1 Q0 100 25 200 0 20:20 55:5",    # [20, 40) and [55, 60): 25
                                     "1 Q0 101 10 300 0 0:10"])          # [0, 10)
    status, rows, _ = _run(_config(tmp_path, qa, TASK="FOL.Focused"), qrels_b=qb)
    assert status == 0
    # article 100: either [10, 40) + [50, 60) = 40; both [20, 30) + [55, 60) = 15 (= 30 + 25 - 40); 15/40
    # article 101: either 10, both 0; topic: 50, 15, 0.3; mean of the article ratios (0.375 + 0) / 2
    assert [rows["agreement", "1", "text", "all", q] for q in ("union", "intersection")] == ["50", "15"]
    assert _val(rows, "agreement", "1", "text", "all", "ratio") == pytest.approx(0.3)
    assert _val(rows, "agreement", "1", "text", "all", "article_mean_ratio") == pytest.approx(0.1875)
    # articles: relevant A {100}, B {100, 101}; 30/200, 25/200 and 10/300 are all S1; S2, S3 unused
    assert [rows["agreement", "1", "article", "S1", q] for q in ("union", "intersection")] == ["2", "1"]
    assert rows["agreement", "1", "article", "S2", "ratio"] == "-"
    # passages of the official qrels: 2, of 20 and 10 characters
    assert rows["stats", "1", "text", "all", "count"] == "2"
    assert _val(rows, "stats", "1", "text", "all", "avg_size") == 15.0
    assert _val(rows, "stats", "1", "text", "all", "total_rsize") == 30.0
    # mutually agreed articles: {100}, S1 for both
    assert rows["ma", "1", "article", "S1", "ratio"] == "1.0"


def test_inex_2006_has_no_e_grades(tmp_path):
    d = tmp_path / "assessments"
    d.mkdir()
    (d / "pool-7.xml").write_text('<assessments pool="7" topic="5">\n  <file name="9">\n'
                                  '    <element path="/article[1]" size="90" rsize="30"/>\n'
                                  '    <element path="/article[1]/p[1]" size="30" rsize="30"/>\n  </file>\n'
                                  '</assessments>\n')
    _, rows, _ = _run(_config(tmp_path, d, TASK="Thorough"))
    grades = {k[3] for k in rows if k[0] == "stats"}
    assert grades == {"all", "S1", "S2", "S3"}
    # 30/90 = 1/3: S1; 30/30: S3
    assert [rows["stats", "5", "element", g, "count"] for g in ("S1", "S2", "S3")] == ["1", "0", "1"]


def test_several_other_pools_are_reported(tmp_path):
    d = _two_pool_topics(tmp_path)
    _pool(d / "third" / "pool-5.xml", "900", "5", {"a1": [(ART, "1", 300, 30)]})
    status, rows, errors = _run(_config(tmp_path, d))
    assert status == 0
    assert any("topic 900 has 2 other pool files" in e for e in errors)
    assert ("agreement", "900", "element", "all", "ratio") not in rows
    assert rows["agreement", "901", "element", "all", "ratio"] == "1.0"


def test_trec_refusals(tmp_path):
    qa = _qrels(tmp_path / "a.txt", ["1 0 d1 1"])
    _config(tmp_path, qa)
    cfg = tmp_path / "t.prop"
    cfg.write_text(f"TASK: trec\nASSESSMENTS_DIR: {qa}\nSUBMISSIONRUNS_DIR: runs\nRESULTS_DIR: results\n")
    res = CliRunner().invoke(main, ["assessments", "-config", str(cfg), "--agreement"])
    assert res.exit_code == 2 and "--qrels-b" in res.output
    res = CliRunner().invoke(main, ["assessments", "-config", str(cfg), "--qrels-b", str(tmp_path / "nothing.txt")])
    assert res.exit_code == 2 and "no such file" in res.output
    bad = _qrels(tmp_path / "bad.txt", ["1 0 d1 x"])
    res = CliRunner().invoke(main, ["assessments", "-config", str(cfg), "--qrels-b", str(bad)])
    assert res.exit_code != 0 and "bad.txt:1" in res.output and "Traceback" not in res.output


# --------------------------------------------------------------------------- INEX 2006 highlighted text

#: d1's text, no white space between tags: title "Hello" [0, 5), sec[1] [5, 25) with p[1] "abcdefghij"
#: [5, 15) and p[2] "klmnopqrst" [15, 25), sec[2] [25, 35) with p[1] "0123456789" [25, 35)
D1 = ("<article><title>Hello</title><sec><p>abcdefghij</p><p>klmnopqrst</p></sec>"
      "<sec><p>0123456789</p></sec></article>")
D2 = "<article><p>xxxxxxxxxxxxxxxxxxxx</p></article>"  # p[1] [0, 20)


def _pool_2006(path: Path, topic: str, pool: str, files: dict[str, tuple[int, int, list[tuple[str, str]]]]) -> None:
    """A 2006 pool file; FILES maps a file id to (article size, rsize, [(passage start, end)])."""
    body = []
    for f, (size, rsize, passages) in files.items():
        ps = "".join(f'    <passage start="{s}" end="{e}" size="0"/>\n' for s, e in passages)
        el = f'    <element path="/article[1]" size="{size}" rsize="{rsize}"/>\n' if rsize else ""
        body.append(f'  <file name="{f}">\n{ps}{el}  </file>\n')
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f'<assessments pool="{pool}" topic="{topic}">\n{"".join(body)}</assessments>\n')


def _highlights(root: Path, extra_b: list[tuple[str, str]] = ()) -> Path:
    coll = root / "collection"
    coll.mkdir()
    (coll / "d1.xml").write_text(D1)
    (coll / "d2.xml").write_text(D2)
    d = root / "assessments"
    _pool_2006(d / "main" / "pool-1.xml", "7", "1", {
        "d1": (35, 19, [("/article[1]/sec[1]/p[1].5", "/article[1]/sec[1]/p[2].end"),   # [10, 25)
                        ("/article[1]/sec[2]/p[1].0", "/article[1]/sec[2]/p[1].4")]),   # [25, 29)
        "d2": (20, 0, []),                                                             # nothing highlighted
    })
    _pool_2006(d / "second" / "pool-2.xml", "7", "2", {
        "d1": (35, 23, [("/article[1]/title[1].0", "/article[1]/sec[1]/p[1].end"),      # [0, 15)
                        ("/article[1]/sec[2]/p[1].2", "/article[1]/sec[2].end"),        # [27, 35)
                        *extra_b]),
        "d2": (20, 8, [("/article[1]/p[1].0", "/article[1]/p[1].8")]),                  # [0, 8): B only
    })
    return d


def test_inex_2006_text_agreement_by_hand(tmp_path):
    d = _highlights(tmp_path)
    status, rows, errors = _run(_config(tmp_path, d, TASK="Thorough", COLLECTION_DIR=str(tmp_path / "collection")))
    assert status == 0 and errors == []
    # d1: A [10, 29) = 19 characters (the two passages touch at 25, p[2].end = sec[2]/p[1].0);
    #     B [0, 15) + [27, 35) = 23; either [0, 35) = 35; both [10, 15) + [27, 29) = 7 (= 19 + 23 - 35); 7/35
    # d2: only B highlighted: either 8, both 0, ratio 0
    # topic: either 35 + 8 = 43, both 7, ratio 7/43; articles' mean ratio (1/5 + 0) / 2 = 1/10
    assert [rows["agreement", "7", "text", "all", q] for q in ("union", "intersection")] == ["43", "7"]
    assert _val(rows, "agreement", "7", "text", "all", "ratio") == pytest.approx(7 / 43)
    assert _val(rows, "agreement", "7", "text", "all", "article_mean_ratio") == pytest.approx(0.1)
    assert _val(rows, "agreement", "mean", "text", "all", "ratio") == pytest.approx(7 / 43)
    # the element and article levels are computed as before: relevant articles A {d1}, B {d1, d2}
    assert [rows["agreement", "7", "article", "all", q] for q in ("union", "intersection")] == ["2", "1"]


def test_inex_2006_text_agreement_needs_the_collection(tmp_path):
    d = _highlights(tmp_path)
    status, rows, errors = _run(_config(tmp_path, d, TASK="Thorough"))
    assert status == 0
    assert len([e for e in errors if "needs COLLECTION_DIR" in e]) == 1
    assert not any(k[2] == "text" for k in rows)
    assert rows["agreement", "7", "article", "all", "union"] == "2"


def test_inex_2006_passages_that_cannot_be_placed_are_reported(tmp_path):
    d = _highlights(tmp_path, [("/article[1]/sec[2]/p[1].11", "/article[1]/sec[2].end"),   # p[1] has 10 characters
                               ("/article[1]/sec[9].0", "/article[1]/sec[2].end"),         # no such element
                               ("/article[1]/sec[2].5", "/article[1]/sec[1].0"),           # ends before it starts
                               ("/article[1]/sec[2]", "/article[1]/sec[2].end")])          # no .N
    (tmp_path / "collection" / "d2.xml").unlink()
    status, rows, errors = _run(_config(tmp_path, d, TASK="Thorough", COLLECTION_DIR=str(tmp_path / "collection")))
    assert status == 1
    second = d / "second" / "pool-2.xml"
    text = "\n".join(errors)
    for line, what in ((5, "offset 11 beyond the 10 characters of /article[1]/sec[2]/p[1]"),
                       (6, "no element /article[1]/sec[9] in the document"),
                       (7, "ends (position 5) before it starts (position 30)"),
                       (8, "is not PATH.N or PATH.end")):
        assert f"{second}:{line}: " in text and what in text.split(f"{second}:{line}: ")[1].split("\n")[0]
    assert "document 'd2' not found in the collection" in text
    # what remains: d1 as in the hand-worked test (7 of 35); d2 left out for both assessors
    assert [rows["agreement", "7", "text", "all", q] for q in ("union", "intersection")] == ["35", "7"]


def test_passage_points_follow_the_collection_offsets():
    from inexeval.assessments.highlights import position

    table = {"/article[1]": (0, 35), "/article[1]/sec[2]": (25, 10)}
    assert position("/article[1]/sec[2].0", table, "start") == 25
    assert position("/article[1]/sec[2].end", table, "end") == 35
    assert position("/article[1]/sec[2].10", table, "end") == 35  # .10 = .end for 10 characters
    assert position("/article[1]/sec[2].3", table, "start") == 28
    with pytest.raises(ValueError, match="without a start attribute"):
        position(None, table, "start")


def test_sample_data_2006_topic_294_judged_twice(tmp_path):
    status, rows, _ = _run(str(REPO / "configs" / "best-in-context.prop"), results_dir=str(tmp_path))
    assert status == 0
    assert sorted({k[1] for k in rows if k[0] == "agreement" and k[1][0].isdigit()}) == ["294"]
    # official [1127, 1766), [507, 2997), [27, 1338), [1167, 1575) in 2098313, 2387000, 2503111, 771746;
    # second [1543, 1766), [1351, 1451) in 2326325, [2521, 2730): either 639 + 100 + 2490 + 1311 + 408 = 4948,
    # both 223 + 209 = 432
    assert [rows["agreement", "294", "text", "all", q] for q in ("union", "intersection")] == ["4948", "432"]


def test_agreement_names_no_run_when_no_rank_changes(tmp_path):
    """The sample's Best in Context topic judged twice ranks the runs alike under both assessors: the
    ranking table said 'max rank change 0.0 of run BicGood' (an EvalJ user's review)."""
    res = CliRunner().invoke(main, ["assessments", "-config", str(REPO / "configs" / "best-in-context.prop"),
                                    "--agreement", "--quiet", "--results-dir", str(tmp_path)])
    assert res.exit_code == 0, res.output
    table = res.output[res.output.index("Run rankings under"):].splitlines()[3:]
    assert table and all(line.split()[-2:] == ["0.0", "-"] for line in table if line.strip())
