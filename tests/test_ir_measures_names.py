"""ir_measures' measure names on TASK trec (docs/measures.md §8.6): every name of ir_measures'
pytrec_eval and judged providers, with their parameters, equals ir_measures (pytrec_eval provider;
judged provider for Judged) at 1e-9 per topic and mean under TREC_EVAL_VERSION 9.0.8, on random
qrels and runs; the names round-trip (inexeval prints ``str(measure)``); METRICS, ``--set``,
``compare --measure`` and the Python API take them; inexeval's Järvelin–Kekäläinen nDCG is
``nDCG_JK@k`` and the old ``nDCG@k(b=…)``/``ndcg@k`` spellings are refused naming it; ranx's
spellings are refused naming ir_measures'.
"""

from __future__ import annotations

import math
import random
from pathlib import Path

import pytest

ir_measures = pytest.importorskip("ir_measures")
pytest.importorskip("pytrec_eval")

import inexeval  # noqa: E402
from inexeval.errors import ConfigError, ConfigErrors  # noqa: E402
from inexeval.measures.classic import MEASURES, parse_measure  # noqa: E402

#: every measure of the issue's list, with a variety of parameters
NAMES = [
    "P@1", "P@5", "P(rel=2)@5", "P(judged_only=True)@3", "P(rel=2,judged_only=True)@10",
    "R@10", "R@100", "R(rel=2)@5", "R(judged_only=True)@5",
    "AP", "AP(rel=2)", "AP@5", "AP(judged_only=True)", "AP(rel=3)@10",
    "RR", "RR(rel=2)", "RR(judged_only=True)",
    "nDCG", "nDCG@1", "nDCG@10", "nDCG(judged_only=True)@5", "nDCG(gains={0:1,1:1,2:5,3:10})@10",
    "nDCG(gains={1:0,2:1,3:4})", "nDCG(dcg='log2')@3",
    "Rprec(rel=1)", "Rprec(rel=2)", "Rprec(judged_only=True)",
    "Bpref", "Bpref(rel=2)", "infAP(rel=1)", "infAP(rel=2)",
    "IPrec@0.0", "IPrec@0.5", "IPrec@1.0", "IPrec(rel=2)@0.25", "IPrec(judged_only=True)@0.3",
    "SetP", "SetP(relative=True)", "SetP(rel=2,judged_only=True)", "SetR", "SetR(rel=2)",
    "SetF", "SetF(beta=0.5)", "SetF(rel=2,beta=2.0)", "SetF(judged_only=True)", "SetAP", "SetAP(rel=2)",
    "Success@1", "Success@10", "Success(rel=2)@5", "Success(judged_only=True)@3",
    "NumQ", "NumRel", "NumRet", "NumRet(rel=1)", "NumRet(rel=2)",
    "Judged", "Judged@1", "Judged@5", "Judged@10",
]


def _data(seed: int):
    """Random graded qrels (levels -1 … 3; every topic with a judgement >= 0: trec_eval's levels of a
    topic judged only negatively are those of the topic before, undefined for the first one, and
    pytrec_eval may then loop) and three runs: ties in score (scores exact in single precision, as
    9.0.8 keeps them), topics missing on either side, one-document rankings, an empty run."""
    rng = random.Random(seed)
    qrels = {}
    for q in range(rng.randint(1, 9)):
        docs = rng.sample(range(30), rng.randint(1, 12))
        judged = {f"d{x}": rng.choice([-1, 0, 0, 1, 1, 2, 3]) for x in docs}
        judged[f"d{docs[0]}"] = rng.choice([0, 1, 2])
        qrels[f"q{q}"] = judged
    runs = {}
    for r in range(3):
        run = {}
        for q in range(11):  # q9, q10: topics the qrels lack
            if rng.random() < 0.25:
                continue
            docs = rng.sample(range(35), rng.choice([1, 1, 2, 5, 10, 20]))
            run[f"q{q}"] = {f"d{x}": float(rng.choice([1, 2, 3, 0.5, 4, -1.25])) for x in docs}
        runs[f"r{r}"] = run
    runs["empty"] = {}
    return qrels, runs


def _write(tmp_path: Path, qrels: dict, runs: dict) -> tuple[Path, Path]:
    qfile = tmp_path / "qrels.txt"
    qfile.write_text("".join(f"{q} 0 {d} {v}\n" for q, ds in qrels.items() for d, v in ds.items()))
    rdir = tmp_path / "runs"
    rdir.mkdir()
    for rid, run in runs.items():
        (rdir / rid).write_text("".join(f"{q} Q0 {d} {i} {s!r} {rid}\n"
                                        for q, ds in run.items() for i, (d, s) in enumerate(ds.items())))
    return qfile, rdir


def _config(qfile: Path, rdir: Path, tmp_path: Path, metrics: str, **more) -> dict:
    return {"TASK": "trec", "ASSESSMENTS_DIR": str(qfile), "SUBMISSIONRUNS_DIR": str(rdir), "METRICS": metrics,
            "TREC_EVAL_VERSION": "9.0.8", "RESULTS_DIR": str(tmp_path / "results"), **more}


def _expected(name: str, qrels: dict, run: dict):
    """ir_measures' mean and per-topic values of NAME (one measure per call: ir_measures files a
    parameterless NumRet under another measure's pytrec_eval call, judged_only included)."""
    m = ir_measures.parse_measure(name)
    provider = ir_measures.judged if m.NAME == "Judged" else ir_measures.pytrec_eval
    if m.NAME == "Judged":  # (ir_measures' Judged divides by zero on an empty ranking: absent is 0)
        run = {q: ds for q, ds in run.items() if ds}
    mean = provider.calc_aggregate([m], qrels, run)[m]
    per = {x.query_id: x.value for x in provider.iter_calc([m], qrels, run)}
    return m, mean, per


def _same(got, want) -> bool:
    """Equal at 1e-9 (NaN equals NaN: trec_eval's iprec_at_recall of a ranking -J emptied is -nan)."""
    if isinstance(want, float) and math.isnan(want):
        return got is not None and math.isnan(got)
    return got is not None and abs(got - want) <= 1e-9


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("empty_as_zero", [False, True])
def test_every_name_equals_ir_measures(tmp_path, seed, empty_as_zero):
    qrels, runs = _data(seed)
    qfile, rdir = _write(tmp_path, qrels, runs)
    res = inexeval.evaluate(_config(qfile, rdir, tmp_path, ", ".join(NAMES)), empty_as_zero=empty_as_zero)
    printed = [str(ir_measures.parse_measure(n)) for n in NAMES]
    printed = [p if p not in ("Rprec", "infAP") else n for p, n in zip(printed, NAMES)]  # (§8.6: trec_eval's labels)
    assert res.measures == printed
    for rid, run in runs.items():
        average, per_topic = res.average(rid), res.per_topic(rid)
        for name, shown in zip(NAMES, printed):
            m, mean, per = _expected(name, qrels, run)
            assert _same(average[shown], mean), (rid, name, average[shown], mean)
            for q, want in per.items():
                if q in per_topic:  # the run's topics (every qrels topic with -e), 0 where it has none
                    assert _same(per_topic[q][shown], want), (rid, name, q, per_topic[q][shown], want)
            if empty_as_zero:
                assert set(per_topic) == set(qrels)
            else:
                assert set(per_topic) == {q for q, ds in run.items() if ds and q in qrels}


def test_names_round_trip():
    for name in NAMES + ["P(judged_only=True,rel=2)@5", "nDCG(gains={0:0,1:1,2:5})@10", "SetF(beta=1.0)",
                         "P(rel=1)@5", "NumRet(rel=1)", "IPrec@0.5", "AP(cutoff=5)"]:
        want = str(ir_measures.parse_measure(name))
        got = parse_measure(name).name
        assert got == (want if want not in ("Rprec", "infAP") else got) and parse_measure(got).name == got, name
    assert parse_measure("SetF(beta=1)").name == "SetF"  # an integer where ir_measures wants a float
    assert parse_measure("IPrec@1").name == "IPrec@1.0"


def test_trec_eval_labels_unchanged():
    for name, canonical, family in [("map", "map", "map"), ("P_5", "P_5", "P"), ("ndcg_cut_10", "ndcg_cut_10", "ndcg_cut"),
                                    ("Rprec", "Rprec", "Rprec"), ("infAP", "infAP", "infAP"), ("NDCG", "ndcg", "ndcg"),
                                    ("bpref", "bpref", "bpref"), ("MAP", "map", "map"), ("mrr", "MRR", "MRR"),
                                    ("R", "R", "R"), ("R(beta=0.5)", "R(beta=0.5)", "R")]:
        spec = parse_measure(name)
        assert (spec.name, spec.family) == (canonical, family), name
    assert parse_measure("Rprec(rel=1)").family == "irm:Rprec"  # ir_measures' Rprec, averaged its way


def test_metrics_mixed_with_trec_eval_labels_and_set(tmp_path):
    qrels, runs = _data(3)
    qfile, rdir = _write(tmp_path, qrels, runs)
    cfg = _config(qfile, rdir, tmp_path, "map, nDCG@10, P_5, P(rel=2)@5, ndcg_cut_10, AP, Judged@10")
    res = inexeval.evaluate(cfg)
    assert res.measures == ["map", "nDCG@10", "P_5", "P(rel=2)@5", "ndcg_cut_10", "AP", "Judged@10"]
    for rid, run in runs.items():
        avg = res.average(rid)
        for name in ("nDCG@10", "P(rel=2)@5", "AP", "Judged@10"):
            assert avg[name] == pytest.approx(_expected(name, qrels, run)[1], abs=1e-9, rel=0)
        if run and set(qrels) <= set(run):  # every topic present: the same numbers as trec_eval's labels
            assert avg["nDCG@10"] == pytest.approx(avg["ndcg_cut_10"], abs=1e-12)
    # --set, as the command line and the API's keywords give it
    res = inexeval.evaluate(cfg, METRICS="SetF(beta=0.5), nDCG(gains={0:0,1:1,2:5})@10")
    assert res.measures == ["SetF(beta=0.5)", "nDCG(gains={2:5})@10"]


def test_api_and_command_line(tmp_path):
    from click.testing import CliRunner

    from inexeval.cli.command import main

    qrels, runs = _data(4)
    qfile, rdir = _write(tmp_path, qrels, runs)
    res = inexeval.evaluate(_config(qfile, rdir, tmp_path, "nDCG@10, P(rel=2)@5"))
    assert res.measures == ["nDCG@10", "P(rel=2)@5"]
    m, mean, _ = _expected("P(rel=2)@5", qrels, runs["r1"])
    assert res.average("r1")["P(rel=2)@5"] == pytest.approx(mean, abs=1e-9, rel=0)
    prop = tmp_path / "trec.prop"
    prop.write_text("".join(f"{k}: {v}\n" for k, v in _config(qfile, rdir, tmp_path, "map, nDCG@10, P(rel=2)@5").items()))
    out = CliRunner().invoke(main, ["compare", "-config", str(prop), "--measure", "P(rel=2)@5"])
    assert out.exit_code in (0, 1), out.output
    assert "P(rel=2)@5" in out.output
    out = CliRunner().invoke(main, ["-config", str(prop), "--set", "METRICS=nDCG@10, Judged@5"])
    assert out.exit_code in (0, 1), out.output
    assert "nDCG@10" in out.output and "Judged@5" in out.output


def test_jk_ndcg_renamed(tmp_path):
    qrels, runs = _data(5)
    qfile, rdir = _write(tmp_path, qrels, runs)
    for old in ("nDCG@10(b=3)", "nDCG@5(agr)", "ndcg@10", "NDCG@10"):
        with pytest.raises((ConfigError, ConfigErrors)) as err:
            inexeval.evaluate(_config(qfile, rdir, tmp_path, f"map, {old}"))
        assert "nDCG_JK@" in str(err.value), old
    res = inexeval.evaluate(_config(qfile, rdir, tmp_path, "nDCG_JK@10, nDCG_JK@10(b=3,agr), nDCG@10"))
    assert res.measures == ["nDCG_JK@10", "nDCG_JK@10(b=3,agr)", "nDCG@10"]
    assert "nDCG_JK@k(b=2)" in MEASURES and "nDCG@k(b=2)" not in MEASURES


@pytest.mark.parametrize("name, hint", [("ndcg@10", "nDCG@k"), ("map@100", "AP@k"), ("precision@5", "P@k"),
                                        ("recall@10", "R@k"), ("r-precision", "Rprec"), ("hit_rate@5", "Success@k"),
                                        ("p@5", "P@k"), ("rr", "RR")])
def test_ranx_spellings_refused(name, hint):
    with pytest.raises(ConfigError) as err:
        parse_measure(name)
    assert hint in str(err.value)


@pytest.mark.parametrize("bad", ["P", "P@0", "RR@5", "NumRel(rel=2)", "P(rel=2.0)@5", "P(rel=0)@5", "nDCG(dcg='exp-log2')",
                                 "nDCG(gains={-1:2})", "IPrec@1.5", "SetF(beta=-1.0)", "P(foo=1)@5", "Judged(rel=2)",
                                 "P(rel=2)(judged_only=True)@5"])
def test_bad_parameters_refused(bad):
    with pytest.raises(ConfigError):
        parse_measure(bad)


@pytest.mark.parametrize("written, read", [
    ("P@9223372036854775808", "P@9223372036854775807"), ("nDCG@" + "9" * 30, "nDCG@9223372036854775807"),
    ("Judged@" + "9" * 30, "Judged@9223372036854775807"), ("AP(rel=9223372036854775808)", "AP(rel=9223372036854775807)"),
    ("P_9223372036854775808", "P_9223372036854775807"), ("ndcg_cut_" + "9" * 5000, "ndcg_cut_9223372036854775807"),
    ("MRR@" + "9" * 30, "MRR@9223372036854775807")])
def test_an_integer_past_2_63_is_read_as_trec_eval_reads_it(written, read):
    """C's atol: 2^63 - 1 (the trec-eval drop-in's P.9223372036854775808 is P_9223372036854775807 too);
    the value is the measure's at that cut-off: the whole ranking."""
    qrels, run = {"q": {"a": 1, "b": 0}}, {"q": {"a": 1.0, "b": 2.0}}
    got = inexeval.evaluate_trec(qrels, run, measures=[written]).average("run")
    assert list(got) == [read]
    assert got[read] == inexeval.evaluate_trec(qrels, run, measures=[read]).average("run")[read]


@pytest.mark.parametrize("bad", ["SetF(beta=1e400)", "SetF(beta=1" + "0" * 400 + ")", "IPrec@1e400"])
def test_a_parameter_past_the_largest_double_is_refused(bad):
    with pytest.raises(ConfigError):
        parse_measure(bad)


def test_a_trec_eval_label_past_the_largest_double_is_refused_and_a_huge_one_scored_quietly(recwarn):
    with pytest.raises(ConfigError, match="past the largest double"):
        parse_measure("Rprec_mult_" + "9" * 400)
    # 1e300 x R past the range of a C long: x86-64's conversion (-2^63, a cut-off of nothing), as
    # trec_eval 10.0 prints 0.0000 for -m Rprec_mult.1e300, and no numpy warning
    got = inexeval.evaluate_trec({"q": {"a": 1}}, {"q": {"a": 1.0}}, measures=["Rprec_mult_1" + "0" * 300])
    assert list(got.average("run").values()) == [0.0]
    assert not [w for w in recwarn if issubclass(w.category, RuntimeWarning)]


def test_set_f_beta_as_written_where_pytrec_eval_reads_an_exponent_as_beta_1():
    """SetF(beta=1e-05): trec_eval's set_F_x with x = beta as ir_measures passes it, F = (x + 1) P R /
    (x P + R); P = 1/2, R = 1/3, x = 1e-5: (1.00001 / 6) / (0.000005 + 1/3) = 0.49999750003749...
    (close to P); ir_measures/pytrec_eval give F1 = 0.4 there (docs/measures.md §8.6)."""
    qrels, run = {"q": {"a": 1, "b": 1, "c": 1, "d": 0}}, {"q": {"a": 3.0, "x": 1.0}}
    x, P, R = 1e-5, 0.5, 1 / 3
    got = inexeval.evaluate_trec(qrels, run, measures=["SetF(beta=1e-05)"], trec_eval_version="9.0.8")
    value = got.average("run")["SetF(beta=1e-05)"]
    assert value == pytest.approx((x + 1) * P * R / (x * P + R), rel=1e-12, abs=0)
    assert round(value, 12) == 0.499997500037


def test_metrics_listing_names_them():
    for pattern in ("P(rel=1,judged_only=False)@k", "nDCG(dcg='log2',gains={level:gain,…},judged_only=False)[@k]",
                    "Judged[@k]", "IPrec(rel=1,judged_only=False)@x", "NumQ"):
        assert pattern in MEASURES, pattern


def test_result_files_name_them(tmp_path):
    qrels, runs = _data(2)
    qfile, rdir = _write(tmp_path, qrels, runs)
    inexeval.evaluate(_config(qfile, rdir, tmp_path, "P(rel=2)@5, nDCG@10, map"), write=True)
    text = "\n".join(p.read_text(errors="replace") for p in (tmp_path / "results").rglob("*") if p.is_file()
                     and p.suffix in (".tsv", ".json", ".txt", ""))
    assert "P(rel=2)@5" in text and "nDCG@10" in text


def test_format_trec_eval_prints_ir_measures_names_with_their_values(tmp_path):
    """--format trec_eval --digits 4 on the shipped trec config: each ir_measures name's line holds
    ir_measures' mean of the sample's qrels and run, rounded as trec_eval prints (%.4f; counts whole)."""
    import subprocess
    import sys

    root = Path(__file__).resolve().parent.parent
    names = ["nDCG@10", "P(rel=2)@5", "AP", "RR", "NumRet", "Judged@10"]
    res = subprocess.run([sys.executable, "-m", "inexeval", "-config", str(root / "configs" / "trec.prop"),
                          "--set", "METRICS=" + ", ".join(names), "--set", "TREC_EVAL_VERSION=9.0.8",
                          "--results-dir", str(tmp_path), "--quiet", "--format", "trec_eval", "--digits", "4"],
                         capture_output=True, text=True, cwd=root)
    assert res.returncode == 0, res.stderr
    printed: dict[str, dict[str, str]] = {}
    run = None
    for line in res.stdout.splitlines():
        label, _, value = (part.strip() for part in line.split("\t"))
        if label == "runid":
            run = value
        else:
            printed.setdefault(run, {})[label] = value
    qrels = list(ir_measures.read_trec_qrels(str(root / "sample_data" / "trec" / "qrels.txt")))
    runs = sorted((root / "sample_data" / "trec" / "runs").iterdir())
    assert len(printed) == len(runs) >= 2
    for path in runs:
        scored = list(ir_measures.read_trec_run(str(path)))
        tag = path.read_text().split()[5]  # the run's id (its tag column)
        agg = ir_measures.calc_aggregate([ir_measures.parse_measure(n) for n in names], qrels, scored)
        assert {str(m) for m in agg} == set(names)
        for measure, value in agg.items():
            want = f"{value:.0f}" if str(measure) == "NumRet" else f"{value:.4f}"
            assert printed[tag][str(measure)] == want, (path.name, str(measure), printed[tag][str(measure)], value)


def test_judged_at_k_hand_worked_with_a_tie_at_the_cut_off():
    """Judged@k by hand.  qrels of q: d1 relevant (1), d3 judged non-relevant (0); d2 and d4 unjudged.
    Run: d1 3.0, d2 2.0, d3 2.0, d4 1.0 (d2 and d3 tied).  ir_measures orders a tie by doc id
    ascending: d1, d2, d3, d4 (trec_eval: docno descending, d1, d3, d2, d4).
      Judged@2  = |{d1}| / 2      = 1/2   (trec_eval's order would give d1, d3: 2/2)
      Judged@3  = |{d1, d3}| / 3  = 2/3
      Judged@10 = |{d1, d3}| / min(10, 4) = 2/4 = 1/2
      Judged    = 2/4 = 1/2 (no cut-off: the whole ranking)"""
    run = {"q": {"d1": 3.0, "d2": 2.0, "d3": 2.0, "d4": 1.0}}
    res = inexeval.evaluate_trec({"q": {"d1": 1, "d3": 0}}, {"r": run},
                                 measures=["Judged@2", "Judged@3", "Judged@10", "Judged"])
    got = res.per_topic("r")["q"]
    assert (got["Judged@2"], got["Judged@3"], got["Judged@10"], got["Judged"]) == (0.5, 2 / 3, 0.5, 0.5)
    assert res.average("r")["Judged@2"] == 0.5
