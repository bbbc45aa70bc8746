"""TREC readers, run hygiene, measure names and trec_eval's output layout (docs/formats.md §8, §9.3)."""

from __future__ import annotations

import gzip
import io
import sys

import pytest

from inexeval.errors import ConfigError, InputError
from inexeval.measures.classic import DEFAULT_MEASURES, parse_measure
from inexeval.readers.trec import read_qrels, read_run
from inexeval.trec import MEASURES, evaluate_trec, format_trec_eval

QRELS = "# comment\n1 0 a 1\n1 0 b 2\n1 0 c 0\n\n2 0 x 1\n"
RUN = "1 Q0 c 1 3.0 tagA\n# note\n1 Q0 b 2 2.0 tagA\n1 Q0 a 3 2.0 tagA\n2 Q0 x 1 1 tagA\n"


def files(tmp_path, qrels=QRELS, run=RUN):
    q, r = tmp_path / "qrels.txt", tmp_path / "run.txt"
    q.write_text(qrels)
    r.write_text(run)
    return q, r


def test_reader_skips_comments_and_keeps_line_numbers(tmp_path):
    q, r = files(tmp_path)
    qr = read_qrels(q)
    assert qr.docno.tolist() == [b"a", b"b", b"c", b"x"]
    assert qr.line.tolist() == [2, 3, 4, 6]
    run = read_run(r)
    assert run.line.tolist() == [1, 3, 4, 5]
    assert run.tags == ["tagA"]


@pytest.mark.parametrize(
    "text, line, what",
    [
        ("1 0 a 1\n1 0 b\n", 2, "expected 4 columns, found 3"),
        ("1 0 a 1\n1 0 b 1 extra\n", 2, "found 5"),
        ("1 0 a 1\n\n1 0 b x\n", 3, "bad relevance value"),
        ("1 0 a 1\n1 0 a 2\n", 2, "duplicate judgement"),
    ],
)
def test_bad_qrels_lines(tmp_path, text, line, what):
    q, _ = files(tmp_path, qrels=text)
    with pytest.raises(InputError) as e:
        read_qrels(q)
    assert e.value.line == line and what in e.value.message and e.value.file == str(q)


@pytest.mark.parametrize(
    "text, line, what",
    [
        ("1 Q0 a 1 1.0 t\n1 Q0 b 2 t\n", 2, "expected 6 columns, found 5"),
        ("1 Q0 a 1 1.0 t\n1 Q0 b 2 high t\n", 2, "bad score"),
        ("1 Q0 a 1 nan t\n", 1, "bad score"),
    ],
)
def test_bad_run_lines(tmp_path, text, line, what):
    _, r = files(tmp_path, run=text)
    with pytest.raises(InputError) as e:
        read_run(r)
    assert e.value.line == line and what in e.value.message


@pytest.mark.parametrize("text", ["", "# only a comment\n\n"])
def test_an_empty_run_retrieved_nothing(tmp_path, text):
    """As for INEX runs (issue 15): no rows, no tag; evaluation names it after its file and warns."""
    _, r = files(tmp_path, run=text)
    run = read_run(r)
    assert run.qid.size == run.docno.size == run.score.size == run.line.size == 0 and run.tags == []


def test_gzip_and_stdin(tmp_path, monkeypatch):
    q, r = files(tmp_path)
    gz = tmp_path / "run.gz"
    gz.write_bytes(gzip.compress(RUN.encode()))
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(gzip.compress(QRELS.encode()))))
    (a,), _ = evaluate_trec("-", [gz], measures=["map", "P_5"], warn=lambda m: None)
    (b,), _ = evaluate_trec(q, [r], measures=["map", "P_5"], warn=lambda m: None)
    assert a.per_topic == b.per_topic and a.average == b.average


def test_ordering_ties_duplicates_and_tags(tmp_path):
    # b and a tie at 2.0: docno descending puts b first; the rank column is ignored.
    run = "1 Q0 a 1 2.0 t1\n1 Q0 c 9 3.0 t2\n1 Q0 b 5 2.0 t1\n1 Q0 a 7 9.0 t1\n"
    q, r = files(tmp_path, run=run)
    warnings: list[str] = []
    (res,), _ = evaluate_trec(q, [r], measures=["recip_rank", "num_ret", "map"], warn=warnings.append)
    # order c (0), b (2), a (1): the later duplicate "a 9.0" is dropped
    assert res.per_topic["1"]["num_ret"] == 3.0
    assert res.per_topic["1"]["recip_rank"] == 0.5
    assert res.per_topic["1"]["map"] == pytest.approx((1 / 2 + 2 / 3) / 2, rel=1e-12)
    assert res.run_id == "run.txt"  # tags disagree: the file name
    assert any("duplicate" in w for w in warnings) and any("run ids" in w for w in warnings)


def test_bad_run_is_reported_and_others_scored(tmp_path):
    q, r = files(tmp_path)
    bad = tmp_path / "bad.txt"
    bad.write_text("1 Q0 a 1 1.0\n")
    results, errors = evaluate_trec(q, [bad, r], measures=None, warn=lambda m: None)
    assert [res.run_id for res in results] == ["tagA"]
    assert len(errors) == 1 and errors[0].file == str(bad) and errors[0].line == 1


def test_max_results_applies_after_ordering(tmp_path):
    q, r = files(tmp_path)
    (res,), _ = evaluate_trec(q, [r], measures=["num_ret", "num_rel_ret"], max_results=1, warn=lambda m: None)
    assert res.per_topic["1"] == {"num_ret": 1.0, "num_rel_ret": 0.0}  # only c (score 3.0) is kept


def test_parse_measure_names():
    assert parse_measure("rprec").name == "Rprec"
    assert parse_measure("p_10").name == "P_10"
    assert parse_measure("NDCG_CUT_5").name == "ndcg_cut_5"
    assert parse_measure("iprec_at_recall_0.1").name == "iprec_at_recall_0.10"
    assert parse_measure("ndcg_jk@10").name == "nDCG_JK@10"
    assert parse_measure("nDCG_JK@10(b=2)").name == "nDCG_JK@10"
    assert parse_measure("nDCG@10").name == "nDCG@10" and parse_measure("nDCG@10").family == "irm:nDCG"
    assert parse_measure("e@10(b=0.50)").name == "E@10(b=0.5)"
    assert parse_measure("q(agr,beta=0.5)").name == "Q(beta=0.5,agr)"
    assert parse_measure("Q(beta=1)").name == "Q(beta=1)"
    assert parse_measure("mrr@10").name == "MRR@10"
    assert parse_measure("r").name == "R" and parse_measure("r-wp").name == "R-WP"
    for bad in ["P_0", "F", "Q@5", "nDCG_JK@5(b=1)", "ndcg@10", "nDCG@5(b=2)", "Q(gamma=1)", "E@5(b=-1)", "iprec_at_recall_1.5", "mapp", "Q(agr=1)"]:
        with pytest.raises(ConfigError):
            parse_measure(bad)


def test_measures_listing_and_default_set():
    assert "map" in MEASURES and "Q(beta=Q_BETA)" in MEASURES
    for name in DEFAULT_MEASURES:
        assert parse_measure(name).name == name
    assert len(DEFAULT_MEASURES) == 8 + 11 + 9 + 9 + 1 + 9


def test_rel_level_must_be_positive(tmp_path):
    q, r = files(tmp_path)
    with pytest.raises(ConfigError):
        evaluate_trec(q, [r], measures=None, rel_level=0)


def test_format_trec_eval_layout(tmp_path):
    q, r = files(tmp_path)
    (res,), _ = evaluate_trec(q, [r], measures=["num_ret", "map", "gm_map", "P_5"], warn=lambda m: None)
    # topic 1: c(0) b(2) a(1): AP = (1/2 + 2/3)/2 = 7/12; topic 2: x at rank 1, AP = 1
    text = format_trec_eval(res, 4, per_query=True)
    assert text == (
        "num_ret               \t1\t3\n"
        "map                   \t1\t0.5833\n"
        "P_5                   \t1\t0.4000\n"
        "num_ret               \t2\t1\n"
        "map                   \t2\t1.0000\n"
        "P_5                   \t2\t0.2000\n"
        "runid                 \tall\ttagA\n"
        "num_q                 \tall\t2\n"
        "num_ret               \tall\t4\n"
        "map                   \tall\t0.7917\n"
        "gm_map                \tall\t0.7638\n"
        "P_5                   \tall\t0.3000\n"
    )
    full = format_trec_eval([res], None)
    assert res.average["map"] == pytest.approx((7 / 12 + 1) / 2, rel=1e-12)
    assert f"map                   \tall\t{res.average['map']!r}\n" in full  # repr: full precision
    assert "\t1\t" not in full  # no per-topic lines without per_query


def test_cli_trec_eval_layout_matches_pytrec_eval_on_sample_data():
    """End to end: `inexeval -config configs/trec.prop -q --format trec_eval` against pytrec_eval."""
    from pathlib import Path

    import pytrec_eval
    from click.testing import CliRunner

    from inexeval.cli.command import main

    root = Path(__file__).resolve().parent.parent
    res = CliRunner().invoke(main, ["-config", str(root / "configs" / "trec.prop"), "-q", "--format", "trec_eval",
                                    "--set", "METRICS=map, P_10, ndcg_cut_10, bpref, recip_rank",
                                    "--quiet", "--results-dir", "/tmp/inexeval-trec-test"])
    assert res.exit_code == 0, res.output
    qrels: dict = {}
    for line in (root / "sample_data" / "trec" / "qrels.txt").read_text().splitlines():
        q, _, d, r = line.split()
        qrels.setdefault(q, {})[d] = int(r)
    ours: dict = {}
    pending: list = []  # trec_eval prints a run's per-topic lines, then its summary with "runid"
    for line in res.output.splitlines():
        m, t, v = [x.strip() for x in line.split("\t")]
        if m == "runid":
            ours.update({(v, pm, pt): pv for pm, pt, pv in pending})
            pending = []
        elif t != "all" and m in ("map", "P_10", "ndcg_cut_10", "bpref", "recip_rank"):
            pending.append((m, t, float(v)))
    checked = 0
    for name in ("good", "medium", "poor"):
        run: dict = {}
        for line in (root / "sample_data" / "trec" / "runs" / f"{name}.txt").read_text().splitlines():
            q, _, d, _, s, _ = line.split()
            run.setdefault(q, {})[d] = float(s)
        ev = pytrec_eval.RelevanceEvaluator(qrels, {"map", "P.10", "ndcg_cut.10", "bpref", "recip_rank"})
        for t, vals in ev.evaluate(run).items():
            if not any(r > 0 for r in qrels[t].values()):
                continue  # no relevant document: no value (docs/measures.md §10), not printed
            for m, key in (("map", "map"), ("P_10", "P_10"), ("ndcg_cut_10", "ndcg_cut_10"), ("bpref", "bpref"),
                           ("recip_rank", "recip_rank")):
                assert abs(ours[(name, m, t)] - vals[key]) <= 1e-9, (name, m, t)
                checked += 1
    assert checked >= 35
