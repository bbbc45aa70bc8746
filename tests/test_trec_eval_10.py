"""Every all_trec measure against trec_eval 10.0's own test outputs, and 9.0.8 against pytrec_eval.

tests/data/trec_eval-10.0/ holds files of trec_eval 10.0's test folder (NIST, usnistgov/trec_eval;
notice in its LICENSE.md), unchanged: qrels.test, qrels.rel_level, results.test and the outputs
out.test.aq (``-m all_trec -q``), out.test.aql (``-m all_trec -mrelstring.20 -q -l2`` on
qrels.rel_level) and out.test.meas_params (measure parameters).  Each printed value must be what
inexeval computes, rounded to trec_eval's 4 decimals (counts as integers), per topic and summary.
"""

from __future__ import annotations

import math
import random
from pathlib import Path

import numpy as np
import pytest
import pytrec_eval

from inexeval.measures import trec_catalogue
from inexeval.measures.classic import parse_measure
from inexeval.measures.classic_join import read_ranked_run, topic_table
from inexeval.measures.classic_trec import relstrings, round_half_away
from inexeval.readers.trec import read_qrels
from inexeval.trec import evaluate_trec
from test_trec_pytrec import make_case, write

DATA = Path(__file__).parent / "data" / "trec_eval-10.0"
TOL = dict(rel=1e-9, abs=1e-9)
SKIP = ("runid", "num_q")


def printed(name: str) -> list[tuple[str, str, str]]:
    """(label, topic, value) lines of a trec_eval output file."""
    rows = []
    for line in (DATA / name).read_text().splitlines():
        label, topic, value = line.split("\t")
        rows.append((label.strip(), topic, value))
    return rows


def as_printed(value: float, text: str) -> str:
    return str(int(value)) if text.lstrip("-").isdigit() else f"{value:.4f}"


def numeric_labels(rows) -> list[str]:
    return list(dict.fromkeys(lab for lab, _, _ in rows if lab not in SKIP and not lab.startswith("relstring")))


@pytest.mark.parametrize("out, qrels, rel_level", [
    ("out.test.aq", "qrels.test", 1),
    ("out.test.aql", "qrels.rel_level", 2),
    ("out.test.meas_params", "qrels.test", 1),
])
def test_trec_eval_10_outputs(out, qrels, rel_level):
    rows = printed(out)
    labels = numeric_labels(rows)
    (res,), errors = evaluate_trec(DATA / qrels, [DATA / "results.test"], measures=labels, rel_level=rel_level,
                                   warn=lambda m: None)
    assert errors == []
    checked = 0
    for label, topic, text in rows:
        if label in SKIP or label.startswith("relstring"):
            continue
        got = res.average[label] if topic == "all" else res.per_topic[topic][label]
        assert as_printed(got, text) == text, (label, topic, got)
        checked += 1
    assert checked > 80


def test_relstring_matches_trec_eval():
    for out, qrels, n, level in (("out.test.aq", "qrels.test", 10, 1), ("out.test.aql", "qrels.rel_level", 20, 2)):
        table = topic_table(read_qrels(DATA / qrels), level)
        ranking = read_ranked_run(DATA / "results.test", table).ranking
        strings = dict(zip(table.names, relstrings(ranking, n)))
        want = {t: v for lab, t, v in printed(out) if lab.startswith("relstring")}
        assert want and {t: f"'{strings[t]}'" for t in want} == want


def test_all_trec_labels_in_trec_eval_order():
    """trec_eval_set('all_trec') lists what -m all_trec -q prints per topic and in the summary, in order."""
    rows = printed("out.test.aq")
    per_topic = [lab for lab, t, _ in rows if t == "301"]
    summary = [lab for lab, t, _ in rows if t == "all"]
    labels = trec_catalogue.trec_eval_set("all_trec")
    assert [x for x in labels if x not in ("runid", "num_q", "gm_map", "gm_bpref")] == per_topic
    assert [x for x in labels if x != "relstring"] == summary
    assert trec_catalogue.trec_eval_set() == [
        "runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec", "bpref", "recip_rank"] + \
        [f"iprec_at_recall_{x / 10:.2f}" for x in range(11)] + [f"P_{k}" for k in trec_catalogue.BY_NAME["P"].default]


def test_docs_list_the_catalogue():
    """The measure order and sets of docs/trec-eval.md §2 and docs/measures.md §8.5 are the catalogue's,
    and each family row of a trec_eval measure summarises as the catalogue says."""
    import re

    from inexeval.measures.classic import FAMILIES

    docs = Path(__file__).resolve().parents[1] / "docs"
    cat = trec_catalogue.CATALOGUE
    text = " ".join((docs / "trec-eval.md").read_text(encoding="utf-8").split())
    order = re.search(r"fixed order \((.*?)\), not in the order given", text).group(1).split(", ")
    groups = {"the preference measures (§4)": [m.name for m in cat if m.source == "prefs"],
              "the judgement-group measures (§5)": [m.name for m in cat if m.source == "qrels_jg"]}
    assert [n for x in order for n in groups.get(x, [x])] == [m.name for m in cat]
    extra = re.search(r"official plus (.*?)\), `set`", text).group(1).split(", ")
    extra = [n for x in extra for n in ([m.name for m in cat if m.name.startswith("set_")]
                                        if x == "the set_ measures" else [x])]
    nick = trec_catalogue.NICKNAMES
    assert sorted(extra) == sorted(set(nick["all_trec"]) - set(nick["official"]))

    section = (docs / "measures.md").read_text(encoding="utf-8").split("### 8.5")[1]
    bullets = section.split("The sets, in trec_eval's printing order")[1].split("\n\n")[1].split("\n- ")
    assert len(bullets) == 3
    for item in bullets:
        name = re.match(r"(?:- )?`(\w+)`", item).group(1)
        named = [trec_catalogue.of_label(x) for x in re.findall(r"`(\w[\w.]*)`", item)[1:]]
        listed = [m.name for m in named if m is not None]
        if name == "all_trec":
            listed = list(nick["official"]) + listed
        assert list(dict.fromkeys(listed)) == list(nick[name]), name

    for m in cat:
        if m.name in FAMILIES:
            f = FAMILIES[m.name]
            assert (f.aggregate, f.integer, f.per_topic_reported) == (m.summary, m.summary == "sum",
                                                                      m.summary != "gmean"), m.name


def test_labels_of_measure_parameters():
    assert trec_catalogue.labels("P", "5,7,3") == ["P_3", "P_5", "P_7"]
    assert trec_catalogue.labels("ndcg_cut", "10,20,23.4") == ["ndcg_cut_10", "ndcg_cut_20", "ndcg_cut_23"]
    assert trec_catalogue.labels("Rprec_mult", "5.0,0.2,0.35") == ["Rprec_mult_0.20", "Rprec_mult_0.35",
                                                                   "Rprec_mult_5.00"]
    assert trec_catalogue.labels("iprec_at_recall", ".10,.20,.25,.75,.50")[-1] == "iprec_at_recall_0.75"
    assert trec_catalogue.labels("utility", "2,-1,0,0") == ["utility_2,-1,0,0"]
    assert trec_catalogue.labels("ndcg", "1=3,2=9,4=4.5") == ["ndcg_1=3,2=9,4=4.5"]
    assert trec_catalogue.labels("relstring", "20") == ["relstring_20"]
    with pytest.raises(ValueError):
        trec_catalogue.labels("P", "5,5")
    with pytest.raises(ValueError):
        trec_catalogue.labels("nosuch")
    assert [trec_catalogue.summary(x) for x in ("num_ret", "num_nonrel_judged_ret", "gm_bpref", "gm_map",
                                                "relstring_20", "P_5", "utility_2,-1,0,0")] == \
        ["sum", "sum", "gmean", "gmean", "none", "mean", "mean"]


def test_every_all_trec_label_is_a_measure_name():
    for label in trec_catalogue.trec_eval_set("all_trec"):
        if label not in ("runid", "num_q", "relstring"):
            assert parse_measure(label).name == label
    for label in ("utility_2,-1,0,0", "11pt_avg_.25,.5,.75", "ndcg_1=3,2=9,4=4.5", "Rprec_mult_5.00",
                  "ndcg_rel_1=2", "Rndcg_2=0.5", "G_1=3", "rbp_p=0.8", "set_F_0.5", "success_20", "unj_7"):
        assert parse_measure(label).name == label
        assert parse_measure(label.lower()).name == label


@pytest.mark.parametrize("bad", ["utility_1,2", "ndcg_x=3", "rbp_q=1", "11pt_avg_a,b", "set_F_1,2"])
def test_bad_parameters_are_refused(bad):
    from inexeval.errors import ConfigError

    with pytest.raises(ConfigError):
        parse_measure(bad)


def test_versions_differ_where_trec_eval_says():
    """10.0 rounds x·R half away from zero; 9.0.8 truncates x·R + 0.9 (the issue's figures)."""
    names = ["iprec_at_recall_0.10", "iprec_at_recall_0.60", "11pt_avg", "Rprec_mult_0.20"]
    runs = {}
    for version in ("10.0", "9.0.8"):
        (runs[version],), _ = evaluate_trec(DATA / "qrels.test", [DATA / "results.test"], measures=names,
                                            trec_eval_version=version, warn=lambda m: None)
    assert [f"{runs['10.0'].average[n]:.4f}" for n in names[:2]] == ["0.3885", "0.0858"]
    assert [f"{runs['9.0.8'].average[n]:.4f}" for n in names[:2]] == ["0.3884", "0.0822"]
    assert runs["10.0"].average["Rprec_mult_0.20"] == runs["9.0.8"].average["Rprec_mult_0.20"]
    assert round_half_away(np.array([0.5, 1.5, 2.4999999999999996, 2.5, 0.0])).tolist() == [1, 2, 2, 3, 0]


def test_rbp_rescales_gains_in_10_only():
    (a,), _ = evaluate_trec(DATA / "qrels.rel_level", [DATA / "results.test"], measures=["rbp"],
                            warn=lambda m: None)
    (b,), _ = evaluate_trec(DATA / "qrels.rel_level", [DATA / "results.test"], measures=["rbp"],
                            trec_eval_version="9.0.8", warn=lambda m: None)
    assert b.per_topic["302"]["rbp"] == pytest.approx(3 * a.per_topic["302"]["rbp"], **TOL)  # grades 0-3 there


# ------------------------------------------------------------------ 9.0.8 against pytrec_eval ----

#: every measure pytrec_eval has, with trec_eval's parameter syntax -> our labels (pytrec_eval
#: cannot take utility's or the gain measures' parameters: utility always fails its parameter count
#: and a level=gain list aborts it; those are checked against trec_eval 10.0's outputs above and below)
PYTREC = {
    "num_ret": ["num_ret"], "num_rel": ["num_rel"], "num_rel_ret": ["num_rel_ret"], "map": ["map"],
    "Rprec": ["Rprec"], "bpref": ["bpref"], "recip_rank": ["recip_rank"],
    "iprec_at_recall": trec_catalogue.labels("iprec_at_recall"), "P.3,10,50": ["P_3", "P_10", "P_50"],
    "recall.4,100": ["recall_4", "recall_100"], "infAP": ["infAP"],
    "Rprec_mult": trec_catalogue.labels("Rprec_mult"), "Rprec_mult.0.35,3.0": ["Rprec_mult_0.35", "Rprec_mult_3.00"],
    "11pt_avg": ["11pt_avg"], "11pt_avg.0.25,0.5,0.75": ["11pt_avg_0.25,0.5,0.75"],
    "binG": ["binG"], "G": ["G"], "ndcg": ["ndcg"], "ndcg_rel": ["ndcg_rel"], "Rndcg": ["Rndcg"],
    "ndcg_cut.3,10": ["ndcg_cut_3", "ndcg_cut_10"], "map_cut.2,10,200": ["map_cut_2", "map_cut_10", "map_cut_200"],
    "relative_P.5,50": ["relative_P_5", "relative_P_50"], "success.1,3,10": ["success_1", "success_3", "success_10"],
    "set_P": ["set_P"], "set_relative_P": ["set_relative_P"], "set_recall": ["set_recall"], "set_map": ["set_map"],
    "set_F": ["set_F"], "set_F.0.5": ["set_F_0.5"], "num_nonrel_judged_ret": ["num_nonrel_judged_ret"],
    "gm_map": ["gm_map"], "gm_bpref": ["gm_bpref"],
}
GEO = {"gm_map", "gm_bpref"}


def pytrec_values(qrels, run, rel_level, spec):
    """pytrec_eval's per-topic values of one measure spec, keyed by our labels."""
    ev = pytrec_eval.RelevanceEvaluator(qrels, {spec}, relevance_level=rel_level)
    out = ev.evaluate(run)
    return out


def _their_key(spec: str, label: str) -> str:
    """pytrec_eval's key of LABEL: the same, except parameterised single measures keep the family."""
    fam = spec.split(".")[0]
    if fam in ("11pt_avg", "set_F") and "." in spec:
        return fam
    return label


@pytest.mark.parametrize("rel_level", [1, 2])
@pytest.mark.parametrize("seed", range(10))
def test_9_0_8_against_pytrec_eval(tmp_path, seed, rel_level):
    qrels, run = make_case(seed)
    rng = random.Random(seed)
    for docs in qrels.values():  # some pooled-but-unjudged documents (-1) for infAP and friends
        for d in rng.sample(sorted(docs), len(docs) // 6):
            docs[d] = -1
    qpath, rpath = write(tmp_path, qrels, run)
    labels = [lab for labs in PYTREC.values() for lab in labs]
    (res,), errors = evaluate_trec(qpath, [rpath], measures=labels, rel_level=rel_level, warn=lambda m: None,
                                   trec_eval_version="9.0.8")
    assert errors == []
    evaluated = sorted(set(qrels) & set(run))  # every judged topic of the run, also one with nothing relevant
    for spec, labs in PYTREC.items():
        theirs = pytrec_values(qrels, run, rel_level, spec)
        for lab in labs:
            key = _their_key(spec, lab)
            vals = []
            for t in evaluated:
                ours = res.per_topic[t][lab]
                want = theirs[t][key]
                if lab in GEO:  # pytrec_eval gives log(max(v, 1e-5)) per topic
                    assert math.log(max(ours, 1e-5)) == pytest.approx(want, **TOL), (t, lab)
                else:
                    assert ours == pytest.approx(want, **TOL), (t, lab, spec)
                vals.append(want)
            if not evaluated:
                continue
            if lab in GEO:
                expect = math.exp(sum(vals) / len(vals))
            elif trec_catalogue.summary(lab) == "sum":
                expect = sum(vals)
            else:
                expect = sum(vals) / len(vals)
            assert res.average[lab] == pytest.approx(expect, **TOL), lab


def test_9_0_8_on_trec_eval_test_data_against_pytrec_eval():
    """The 10.0 test data scored under 9.0.8 equals pytrec_eval on every measure it has."""
    qrels: dict[str, dict[str, int]] = {}
    for line in (DATA / "qrels.rel_level").read_text().splitlines():
        q, _, d, r = line.split()
        qrels.setdefault(q, {})[d] = int(r)
    run: dict[str, dict[str, float]] = {}
    for line in (DATA / "results.test").read_text().splitlines():
        q, _, d, _, s, _ = line.split()
        run.setdefault(q, {})[d] = float(s)
    labels = [lab for labs in PYTREC.values() for lab in labs]
    (res,), _ = evaluate_trec(DATA / "qrels.rel_level", [DATA / "results.test"], measures=labels, rel_level=2,
                              trec_eval_version="9.0.8", warn=lambda m: None)
    for spec, labs in PYTREC.items():
        theirs = pytrec_values(qrels, run, 2, spec)
        for lab in labs:
            for t in run:
                want = theirs[t][_their_key(spec, lab)]
                ours = res.per_topic[t][lab]
                if lab in GEO:
                    ours = math.log(max(ours, 1e-5))
                assert ours == pytest.approx(want, **TOL), (t, lab)


def test_metrics_keep_the_commas_of_trec_eval_labels(tmp_path):
    from inexeval.config.load import load_config_mapping

    cfg = load_config_mapping({"TASK": "trec", "ASSESSMENTS_DIR": str(DATA / "qrels.test"),
                               "SUBMISSIONRUNS_DIR": str(DATA / "results.test"),
                               "METRICS": "map, utility_2,-1,0,0, ndcg_1=3,2=9, 11pt_avg_.2,.8, ndcg_cut_10"},
                              source="t")
    assert cfg.metrics == ("map", "utility_2,-1,0,0", "ndcg_1=3,2=9", "11pt_avg_.2,.8", "ndcg_cut_10")


def test_gain_parameters_scale_as_they_should():
    """On binary qrels, ndcg, ndcg_rel and Rndcg are ratios of DCGs (a common gain factor cancels),
    G with level 1's gain 1 is G, and rbp with p given as the default is rbp."""
    names = ["ndcg", "ndcg_1=2.5", "ndcg_rel", "ndcg_rel_1=4", "Rndcg", "Rndcg_1=3", "G", "G_1=1", "G_1=2",
             "rbp", "rbp_p=0.9", "rbp_p=0.5"]
    (res,), _ = evaluate_trec(DATA / "qrels.test", [DATA / "results.test"], measures=names, warn=lambda m: None)
    for t, v in res.per_topic.items():
        for a, b in (("ndcg", "ndcg_1=2.5"), ("ndcg_rel", "ndcg_rel_1=4"), ("Rndcg", "Rndcg_1=3"), ("G", "G_1=1"),
                     ("rbp", "rbp_p=0.9")):
            assert v[a] == pytest.approx(v[b], **TOL), (t, a, b)
        assert v["G"] != pytest.approx(v["G_1=2"], **TOL)
        assert v["rbp"] != pytest.approx(v["rbp_p=0.5"], **TOL)


def test_format_trec_eval_without_metrics_prints_trec_eval_default_set(tmp_path):
    """The labels of `--format trec_eval` without METRICS are trec_eval's default set, in its order;
    the result files keep inexeval's default set (recall_k, ndcg, ndcg_cut_k as well)."""
    from click.testing import CliRunner

    from inexeval.cli.command import main
    from inexeval.measures.classic import DEFAULT_MEASURES

    root = Path(__file__).resolve().parent.parent
    res = CliRunner().invoke(main, ["-config", str(root / "configs" / "trec.prop"), "--format", "trec_eval",
                                    "--quiet", "--results-dir", str(tmp_path)])
    assert res.exit_code == 0, res.output
    first_run = res.output.split("\nrunid")[0].splitlines()
    assert [line.split("\t")[0].strip() for line in first_run] == trec_catalogue.trec_eval_set("official")
    written = (tmp_path / "trec" / "summary.tsv").read_text().splitlines()[0].split("\t")
    assert set(DEFAULT_MEASURES) <= set(written)
