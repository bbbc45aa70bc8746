"""``inexeval assessments --judgements-b`` end to end (docs/formats.md §10.4): the rows of every section,
the significance decisions against ``inexeval compare`` run once per judgement set, the ranking
figures against the runs' means of an evaluation under each set, --fill and Judged@k by hand, INEX
pools and FOL qrels as sets, --qrels-b as an alias, and the refusals (exit 2, no traceback)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

import inexeval
from inexeval.assessments.judges import JudgesOptions, compare_judgements
from inexeval.assessments.workflow import AssessOptions, run_assessments
from inexeval.cli.command import main
from inexeval.compare import stats as analysis
from inexeval.compare.workflow import CompareOptions, run_compare
from inexeval.errors import ConfigError


def _trec_data(root: Path, topics: int = 16, docs: int = 30, seed: int = 7) -> tuple[Path, Path, Path]:
    """A's qrels (grades 0-3), B's (A's grades shifted up or down for a third of the documents, some
    documents judged by one side only) and six runs of decreasing quality (each ranks by A's grade
    times its quality plus noise)."""
    rng = np.random.default_rng(seed)
    a_lines, b_lines = [], []
    runs = root / "runs"
    runs.mkdir(parents=True)
    quality = [3.0, 2.2, 1.6, 1.0, 0.5, 0.1]
    run_lines = {k: [] for k in range(len(quality))}
    for t in range(1, topics + 1):
        grade = rng.integers(0, 4, docs)
        for d in range(docs):
            if rng.random() < 0.9:
                a_lines.append(f"{t} 0 D{d} {grade[d]}")
            if rng.random() < 0.9:
                shift = int(rng.integers(-1, 2)) if rng.random() < 0.35 else 0
                b_lines.append(f"{t} 0 D{d} {int(np.clip(grade[d] + shift, 0, 3))}")
        for k, q in enumerate(quality):
            score = q * grade + rng.normal(0, 1.5, docs)
            order = np.argsort(-score, kind="stable")
            run_lines[k] += [f"{t} Q0 D{d} {r + 1} {score[d]:.6f} run{k}" for r, d in enumerate(order[:20])]
    (root / "a.txt").write_text("\n".join(a_lines) + "\n")
    (root / "b.txt").write_text("\n".join(b_lines) + "\n")
    for k, lines in run_lines.items():
        (runs / f"run{k}.txt").write_text("\n".join(lines) + "\n")
    return root / "a.txt", root / "b.txt", runs


def _config(root: Path, qrels: Path, runs: Path, **keys) -> dict:
    return {"TASK": keys.pop("TASK", "trec"), "ASSESSMENTS_DIR": str(qrels), "SUBMISSIONRUNS_DIR": str(runs),
            "RESULTS_DIR": str(root / keys.pop("results", "results")), **keys}


def _tsv_rows(text: str) -> dict[tuple, str]:
    out = {}
    for line in text.splitlines():
        s, t, lv, g, q, v = line.split("\t")
        out.setdefault((s, t, lv, g, q), []).append(v)
    return {k: v[0] if len(v) == 1 else v for k, v in out.items()}


def _cli(*args) -> tuple[int, str]:
    res = CliRunner().invoke(main, ["assessments", *map(str, args)])
    assert "Traceback" not in res.output
    return res.exit_code, res.output


@pytest.fixture(scope="module")
def trec(tmp_path_factory):
    root = tmp_path_factory.mktemp("judges")
    qa, qb, runs = _trec_data(root)
    cfg = root / "t.prop"
    cfg.write_text(f"TASK: trec\nASSESSMENTS_DIR: {qa}\nSUBMISSIONRUNS_DIR: {runs}\nRESULTS_DIR: {root / 'results'}\n"
                   "METRICS: map, P_10, ndcg_cut_10, recip_rank\n")
    return root, qa, qb, runs, cfg


def test_every_section_is_written_as_rows(trec):
    root, qa, qb, runs, cfg = trec
    code, out = _cli("-config", cfg, "--judgements-b", qb, "--missing", "default:0", "--fill", "A+B", "--format",
                     "tsv", "--jobs", 1)
    assert code == 0, out
    rows = _tsv_rows(out)
    assert rows["labels", "all", "graded", "b.txt", "both"].isdigit()
    for level in ("graded", "binary", "graded_union", "binary_union"):
        for q in ("agreement", "kappa", "kappa_linear", "kappa_quadratic", "alpha_nominal", "alpha_ordinal",
                  "alpha_interval", "precision", "recall", "f1", "jaccard", "bias", "loa_low", "loa_high", "both",
                  "only_a", "only_b"):
            assert ("labels", "all", level, "b.txt", q) in rows, (level, q)
            assert ("labels", "16", level, "b.txt", q) in rows, (level, q)
    for m in ("map", "P_10", "ndcg_cut_10", "recip_rank"):
        for q in ("tau_b", "tau_ap", "tau_ap_b", "rho", "pearson", "tau_top_k", "max_rank_change"):
            float(rows["ranking", "all", m, "b.txt", q])
            float(rows["ranking", "all", m, "a.txt+b.txt", q])
    for q in ("both_same", "reversed", "only_a", "only_b"):
        assert rows["significance", "all", "map", "b.txt", q].isdigit()
    for k in range(6):
        for q in ("judged_at_k_a", "judged_at_k_b", "judged_at_k_fill"):
            assert 0.0 <= float(rows["judged", "all", f"run{k}", "b.txt", q]) <= 1.0
    # the files hold the same rows
    written = (root / "results" / "trec" / "assessments" / "assessments.tsv").read_text()
    assert written == out
    js = json.loads((root / "results" / "trec" / "assessments" / "assessments.json").read_text())
    assert {"section": "significance", "topic": "all", "level": "map", "grade": "b.txt", "quantity": "pairs",
            "value": 15} in js


def test_qrels_b_is_an_alias_of_judgements_b(trec):
    root, qa, qb, runs, cfg = trec
    a = _cli("-config", cfg, "--judgements-b", qb, "--format", "tsv", "--labels-only")
    b = _cli("-config", cfg, "--qrels-b", qb, "--format", "tsv", "--labels-only")
    assert a == b and a[0] == 0
    # the rows of docs/formats.md §10.1 are still there, against the first set
    assert "agreement\t1\tarticle\tall\tkappa\t" in a[1]


def _significant(path: Path, key: str = "significant") -> dict[frozenset, tuple[bool, str]]:
    """{pair: (significant, better run)} from compare's significance.json (or tukey.json)."""
    out = {}
    for r in json.loads(path.read_text()):
        better = r["run_a"] if r["diff"] > 0 else r["run_b"]
        out[frozenset((r["run_a"], r["run_b"]))] = (bool(r[key]), better)
    return out


@pytest.mark.parametrize("test, name", [("t", "significance"), ("randomisation", "significance"),
                                        ("bootstrap", "significance"), ("tukey", "tukey"),
                                        ("randomised-tukey", "tukey")])
def test_significance_decisions_equal_compare_run_once_per_set(trec, tmp_path, test, name):
    """``compare`` on the config (A) and on the config with ASSESSMENTS_DIR = B, on the same runs (B judges
    every topic A does, so the topics are the same): each pair's decisions under A and under B, put in
    the categories of docs/measures.md §13.5, are our rows, counts and lists."""
    root, qa, qb, runs, cfg = trec
    by_set = []
    for q, results in ((qa, "ca"), (qb, "cb")):
        config = _config(tmp_path, q, runs, results=results, METRICS="map")
        opts = CompareOptions(test=test if name == "significance" else "t",
                              tukey="randomised" if test == "randomised-tukey" else "classic", samples=2000)
        assert run_compare([config], opts) == 0
        by_set.append(_significant(tmp_path / results / "trec" / f"{name}.json"))
    sa, sb = by_set
    expected = {"both_same": [], "reversed": [], "only_a": [], "only_b": []}
    for pair, (sig_a, better_a) in sa.items():
        sig_b, better_b = sb[pair]
        if sig_a and sig_b:
            expected["both_same" if better_a == better_b else "reversed"].append(better_a)
        elif sig_a or sig_b:
            expected["only_a" if sig_a else "only_b"].append(better_a if sig_a else better_b)
    res = compare_judgements(_config(tmp_path, qa, runs, METRICS="map"), [qb],
                             JudgesOptions(test=test, samples=2000))
    rows = [r for r in res.rows if r[0] == "significance"]
    counts = {r[4]: r[5] for r in rows if not r[4].endswith("_pair")}
    assert sum(len(v) for v in expected.values()) > 0  # something is significant: the check is not empty
    for c, pairs in expected.items():
        assert counts[c] == len(pairs), c
        listed = sorted(r[5].split(" > ")[0] for r in rows if r[4] == f"{c}_pair")
        assert listed == sorted(pairs), c
    assert counts["pairs"] == 15


def test_ranking_figures_equal_the_means_of_an_evaluation_under_each_set(trec, tmp_path):
    root, qa, qb, runs, cfg = trec
    ea = inexeval.evaluate(_config(tmp_path, qa, runs, METRICS="map, P_10"))
    eb = inexeval.evaluate(_config(tmp_path, qb, runs, METRICS="map, P_10"))
    res = compare_judgements(_config(tmp_path, qa, runs, METRICS="map, P_10"), [qb], JudgesOptions(top=3))
    rows = {(r[0], r[1], r[2], r[4]): r[5] for r in res.rows if r[0] in ("ranking", "runs")}
    for m in ("map", "P_10"):
        x = [ea.average(r)[m] for r in ea.runs]
        y = [eb.average(r)[m] for r in ea.runs]
        assert rows["ranking", "all", m, "tau_b"] == pytest.approx(analysis.kendall_tau_b(x, y), abs=1e-12)
        assert rows["ranking", "all", m, "rho"] == pytest.approx(analysis.spearman_rho(x, y), abs=1e-12)
        assert rows["ranking", "all", m, "pearson"] == pytest.approx(float(np.corrcoef(x, y)[0, 1]), abs=1e-12)
        top = np.argsort(x)[::-1][:3]
        assert rows["ranking", "all", m, "tau_top_k"] == pytest.approx(
            analysis.kendall_tau_b([x[i] for i in top], [y[i] for i in top]), abs=1e-12)
        for k, r in enumerate(ea.runs):
            assert rows["runs", r, m, "mean_a"] == x[k] and rows["runs", r, m, "mean_b"] == y[k]


def _qrels(path: Path, lines: list[str]) -> Path:
    path.write_text("".join(line + "\n" for line in lines))
    return path


def test_fill_and_judged_at_k_by_hand(tmp_path):
    """A judges d1 (relevant) and d2; B judges d2 and d3 (relevant); the run retrieves d1, d3, d4.
    Judged@3: under A 1/3 (d1), under B 1/3 (d3), under A+B 2/3 (d1, d3).  P_3: A 1/3, B 1/3, A+B 2/3."""
    qa = _qrels(tmp_path / "a.txt", ["1 0 d1 1", "1 0 d2 0"])
    qb = _qrels(tmp_path / "b.txt", ["1 0 d2 1", "1 0 d3 1"])
    runs = tmp_path / "runs"
    runs.mkdir()
    (runs / "r.txt").write_text("1 Q0 d1 1 3 r\n1 Q0 d3 2 2 r\n1 Q0 d4 3 1 r\n")
    (runs / "s.txt").write_text("1 Q0 d2 1 3 s\n1 Q0 d4 2 2 s\n")
    res = compare_judgements(_config(tmp_path, qa, runs, METRICS="P_3"), [qb],
                             JudgesOptions(fill=("A+B",), judged_k=3))
    rows = {(r[0], r[2], r[3], r[4]): r[5] for r in res.rows}
    assert rows["judged", "r", "b.txt", "judged_at_k_a"] == pytest.approx(1 / 3)
    assert rows["judged", "r", "b.txt", "judged_at_k_b"] == pytest.approx(1 / 3)
    assert rows["judged", "r", "b.txt", "judged_at_k_fill"] == pytest.approx(2 / 3)
    # s: d2, d4 (2 results): judged 1 of 2 under each
    assert rows["judged", "s", "b.txt", "judged_at_k_fill"] == pytest.approx(1 / 2)
    # the fill keeps A's grade of d2 (0): s's P_3 under A+B is 0, r's 2/3
    means = {(r[1], r[3], r[4]): r[5] for r in res.rows if r[0] == "runs"}
    assert means["r", "a.txt+b.txt", "mean_b"] == pytest.approx(2 / 3)
    assert means["r", "a.txt+b.txt", "mean_a"] == means["r", "b.txt", "mean_b"] == pytest.approx(1 / 3)
    assert means["s", "a.txt+b.txt", "mean_b"] == 0.0 and means["s", "b.txt", "mean_b"] == pytest.approx(1 / 3)
    assert [f.name for f in res.fills] == ["a.txt+b.txt"]
    assert res.status == 0


def test_several_sets_and_the_rows_of_all_sets(trec, tmp_path):
    root, qa, qb, runs, cfg = trec
    qc = tmp_path / "c.txt"
    qc.write_text(qb.read_text().replace(" 3\n", " 2\n"))
    res = compare_judgements(_config(tmp_path, qa, runs, METRICS="map"), [qb, qc],
                             JudgesOptions(fill=("A+C",), score_runs=True))
    grades = {r[3] for r in res.rows if r[0] == "labels"}
    assert grades == {"b.txt", "c.txt", "all"}
    assert {r[3] for r in res.rows if r[0] == "ranking"} == {"b.txt", "c.txt", "a.txt+c.txt"}
    assert {r[3] for r in res.rows if r[0] == "judged"} == {"c.txt"}
    fleiss = [r for r in res.rows if r[:5] == ("labels", "all", "graded", "all", "fleiss_kappa")]
    assert len(fleiss) == 1 and 0.0 < fleiss[0][5] < 1.0


def test_undefined_figures_are_dashes(tmp_path):
    """One topic where both sets give every document grade 0: κ, α and the binary ratios are undefined."""
    qa = _qrels(tmp_path / "a.txt", ["1 0 d1 0", "1 0 d2 0", "2 0 d1 1", "2 0 d2 0"])
    qb = _qrels(tmp_path / "b.txt", ["1 0 d1 0", "1 0 d2 0", "2 0 d1 1", "2 0 d2 1"])
    runs = tmp_path / "runs"
    runs.mkdir()
    (runs / "unused.txt").write_text("not read\n")
    printed = []
    status = run_assessments(_config(tmp_path, qa, runs), AssessOptions(judgements_b=(str(qb),), fmt="tsv",
                                                                         judges=JudgesOptions(score_runs=False)),
                             echo=lambda text="", err=False, nl=True: printed.append(text))
    assert status == 0
    rows = _tsv_rows("".join(printed))
    for q in ("kappa", "kappa_linear", "alpha_ordinal", "precision", "recall", "f1", "jaccard"):
        assert rows["labels", "1", "graded", "b.txt", q] == "-", q
    assert rows["labels", "1", "graded", "b.txt", "agreement"] == "1.0"
    assert rows["labels", "1", "graded", "b.txt", "bias"] == "0.0"
    # topic 2: A (1, 0), B (1, 1): po 1/2, pe (1/2)(1)... = 1/2: kappa 0
    assert float(rows["labels", "2", "graded", "b.txt", "kappa"]) == 0.0
    assert float(rows["labels", "2", "binary", "b.txt", "precision"]) == 0.5


def _pool(path: Path, topic: str, pool: str, files: dict[str, list[tuple]]) -> None:
    body = []
    for f, rows in files.items():
        els = "".join(f'    <element path="{p}" exhaustivity="{e}" size="{s}" rsize="{r}"/>\n' for p, e, s, r in rows)
        body.append(f'  <file name="{f}">\n{els}  </file>\n')
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f'<?xml version="1.0"?>\n<assessments pool="{pool}" topic="{topic}">\n'
                    f'  <inex_topic topic_id="{topic}" query_type="CO"/>\n{"".join(body)}</assessments>\n')


def test_inex_pools_as_judgement_sets(tmp_path):
    """Elements graded 0 (rsize 0) or 1-3 (S1-S3 of rsize/size): A a1/art S2 (2/3), a1/sec1 S1 (1/3),
    a2/art 0; B a1/art S2, a1/sec1 S3, a2/art S1, a3/art S3 (B only).  Both: 3, graded agreement 1/3;
    binary: A relevant {a1/art, a1/sec1}, B all three: precision 2/3, recall 1."""
    art, sec = "/article[1]", "/article[1]/sec[1]"
    _pool(tmp_path / "a" / "pool-1.xml", "900", "1", {"a1": [(art, "2", 300, 200), (sec, "1", 150, 50)],
                                                       "a2": [(art, "0", 100, 0)]})
    _pool(tmp_path / "b" / "pool-2.xml", "900", "2", {"a1": [(art, "2", 300, 200), (sec, "2", 150, 150)],
                                                       "a2": [(art, "1", 100, 10)], "a3": [(art, "2", 50, 50)]})
    runs = tmp_path / "runs"
    runs.mkdir()
    (runs / "r.xml").write_text('<?xml version="1.0"?>\n<inex-submission participant-id="1" run-id="r" '
                                'task="CO.Thorough">\n  <topic topic-id="900">\n    <result><file>a1</file>'
                                '<path>/article[1]</path></result>\n  </topic>\n</inex-submission>\n')
    config = _config(tmp_path, tmp_path / "a", runs, TASK="CO.Thorough", METRICS="ep/gr", QUANT_FUNCTIONS="gen")
    res = compare_judgements(config, [tmp_path / "b"], JudgesOptions(score_runs=False))
    rows = {(r[1], r[2], r[4]): r[5] for r in res.rows if r[0] == "labels"}
    assert (rows["900", "graded", "both"], rows["900", "graded", "only_a"], rows["900", "graded", "only_b"]) == (3, 0, 1)
    assert rows["900", "graded", "agreement"] == pytest.approx(1 / 3)
    assert rows["900", "binary", "precision"] == pytest.approx(2 / 3)
    assert rows["900", "binary", "recall"] == 1.0
    assert rows["900", "graded", "confusion_1_3"] == 1 and rows["900", "graded", "confusion_0_1"] == 1
    # the runs are scored under B's pools too (one run: no correlation, one topic)
    res = compare_judgements(config, [tmp_path / "b"], JudgesOptions())
    assert {r[0] for r in res.rows} >= {"labels", "ranking", "runs"}
    code, out = _cli("-config", _write_prop(tmp_path, config), "--judgements-b", tmp_path / "runs" / "r.xml",
                     "--fill", "A+B")
    assert code == 2 and "fills document judgements" in out
    # a file that holds no pool file; the option named once
    qrels = tmp_path / "q.txt"
    qrels.write_text("900 0 a1 1\n")
    code, out = _cli("-config", _write_prop(tmp_path, config), "--judgements-b", qrels)
    assert (code, out.strip()) == (2, f"inexeval: error: --judgements-b: {qrels} holds no INEX pool file (*.xml): for "
                                      "TASK CO.Thorough a judgement set is a directory (or file) of pool files; without "
                                      "it the second assessor is a topic's other pool file under ASSESSMENTS_DIR")


def _write_prop(root: Path, config: dict) -> Path:
    path = root / "c.prop"
    path.write_text("".join(f"{k}: {v}\n" for k, v in config.items()))
    return path


def test_fol_qrels_as_judgement_sets(tmp_path):
    """Articles graded by the specificity of their highlighted share: 100 (30 of 200: S1) and 101 (0:
    grade 0) for A; 100 (150 of 200: S3) and 101 (10 of 300: S1) for B."""
    qa = _qrels(tmp_path / "a.txt", ["1 Q0 100 30 200 0 10:30", "1 Q0 101 0 300 0"])
    qb = _qrels(tmp_path / "b.txt", ["1 Q0 100 150 200 0 0:150", "1 Q0 101 10 300 0 0:10"])
    runs = tmp_path / "runs"
    runs.mkdir()
    (runs / "unused.txt").write_text("not read\n")
    res = compare_judgements(_config(tmp_path, qa, runs, TASK="FOL.Focused"), [qb], JudgesOptions(score_runs=False))
    rows = {(r[1], r[2], r[4]): r[5] for r in res.rows if r[0] == "labels"}
    assert rows["1", "graded", "confusion_1_3"] == 1 and rows["1", "graded", "confusion_0_1"] == 1
    assert rows["1", "graded", "bias"] == pytest.approx(1.5)  # (3 - 1 + 1 - 0) / 2
    assert rows["1", "binary", "recall"] == 1.0 and rows["1", "binary", "precision"] == 0.5


def test_refusals(trec, tmp_path):
    root, qa, qb, runs, cfg = trec
    for args, words in ((["--top", "3"], "--top is an option of comparing judgement sets"),
                        (["--judgements-b", qb, "--fill", "A+C"], "--fill: 'A+C'"),
                        (["--judgements-b", qb, "--missing", "zero"], "--missing"),
                        (["--judgements-b", qb, "--labels-only", "--fill", "A+B"], "--labels-only"),
                        (["--judgements-b", qb, "--measure", "nothing"], "--measure"),
                        (["--judgements-b", tmp_path / "none.txt"], "no such file"),
                        (["--judgements-b", qb, "--samples", "50"], "--samples is a parameter"),
                        (["--judgements-b", qb, "--test", "tukey", "--seed", "3"], "--seed is a parameter")):
        code, out = _cli("-config", cfg, *args)
        assert code == 2 and words in out, (args, out)
    bad = _qrels(tmp_path / "bad.txt", ["1 0 d1 x"])
    code, out = _cli("-config", cfg, "--judgements-b", bad)
    assert code != 0 and "bad.txt:1" in out


def test_an_unknown_test_names_the_option_once(trec):
    root, qa, qb, runs, cfg = trec
    with pytest.raises(ConfigError) as info:
        compare_judgements(cfg, [qb], JudgesOptions(test="sign"))
    assert str(info.value).startswith("--test: unknown significance test 'sign' (one of ")


def test_option_errors_name_the_option_once(trec, tmp_path):
    """One line each, the option named once (it was "--missing: --missing 'zero'"), and a directory
    given as a file is a command-line error (exit 2) like a missing file, not an unreadable input (1)."""
    root, qa, qb, runs, cfg = trec
    none = tmp_path / "none.txt"
    for args, line in (
            (["--judgements-b", qb, "--fill", "A+C"],
             "inexeval: error: --fill: 'A+C': expected A+X with X the letter of a --judgements-b set (B; B is the first)"),
            (["--judgements-b", qb, "--missing", "zero"],
             "inexeval: error: --missing: 'zero': expected default:G with G an integer grade (default:0)"),
            (["--judgements-b", none], f"inexeval: error: --judgements-b: {none}: no such file"),
            (["--judgements-b", qb, "--judgements-b", tmp_path],
             f"inexeval: error: --judgements-b: {tmp_path}: a directory, not a file")):
        code, out = _cli("-config", cfg, *args)
        assert (code, out.strip()) == (2, line), (args, out)


def test_table_output(trec):
    root, qa, qb, runs, cfg = trec
    code, out = _cli("-config", cfg, "--judgements-b", qb, "--quiet")
    assert code == 0, out
    for words in ("Label agreement with a.txt (A)", "Confusion matrix of the grades", "Run rankings under a.txt",
                  "Significance decisions between the runs (paired t test, Holm-corrected, α = 0.05)"):
        assert words in out
    assert not math.isnan(len(out))


def test_report_shows_the_comparison(tmp_path):
    """report --judgements-b: the task page's "Judgements compared" section holds the tables the command
    prints, from the same figures (kappa and tau-b of the assessments.tsv rows, to 3 decimals)."""
    import re

    a, b, runs = _trec_data(tmp_path)
    cfg = tmp_path / "c.prop"
    cfg.write_text("".join(f"{k}: {v}\n" for k, v in _config(tmp_path, a, runs).items()))
    res = CliRunner().invoke(main, ["assessments", "-config", str(cfg), "--judgements-b", str(b), "--format", "tsv",
                                    "--quiet"], catch_exceptions=False)
    assert res.exit_code == 0, res.output
    rows = _tsv_rows(res.stdout)
    res = CliRunner().invoke(main, ["report", "-config", str(cfg), "--judgements-b", str(b), "--html",
                                    str(tmp_path / "site"), "--quiet", "--panels", "0"], catch_exceptions=False)
    assert res.exit_code == 0, res.output
    page = (tmp_path / "site" / "trec" / "index.html").read_text()
    section = page[page.index('<h2 id="judgements">'):page.index('<h2 id="validation">')]
    cells = [re.sub(r"<[^>]+>", "", c) for c in re.findall(r"<td[^>]*>.*?</td>", section)]
    kappa = float(rows[("labels", "all", "graded", "b.txt", "kappa")])
    tau = float(rows[("ranking", "all", "map", "b.txt", "tau_b")])
    label_row = cells[cells.index("graded") - 1:cells.index("graded") + 18]
    assert label_row[0] == "b.txt" and label_row[6] == f"{kappa:.3f}"
    at = next(i for i in range(len(cells) - 1) if cells[i] == "b.txt" and cells[i + 1] == "map")
    assert cells[at + 3] == f"{tau:.3f}"  # set, measure, runs, tau-b
    # without the option: no such section
    res = CliRunner().invoke(main, ["report", "-config", str(cfg), "--html", str(tmp_path / "site"), "--quiet",
                                    "--panels", "0"], catch_exceptions=False)
    assert res.exit_code == 0 and 'id="judgements"' not in (tmp_path / "site" / "trec" / "index.html").read_text()
