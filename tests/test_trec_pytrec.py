"""trec_eval measures against pytrec_eval (trec_eval embedded) on seeded random qrels and runs.

Under TREC_EVAL_VERSION 9.0.8, the trec_eval pytrec_eval embeds (10.0's cut-off rounding
is checked against trec_eval 10.0's own test outputs in test_trec_eval_10.py).
pytrec_eval evaluates topic by topic; the averaging rules (docs/measures.md §8, §10)
are applied here by hand to its per-topic values and compared with
inexeval's averages.  Tolerance: abs/rel 1e-9.
"""

from __future__ import annotations

import math
import random

import pytest
import pytrec_eval

from inexeval.measures.classic import DEFAULT_MEASURES
from inexeval.trec import evaluate_trec

TOL = dict(rel=1e-9, abs=1e-9)
PYTREC_MEASURES = {
    "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec", "bpref", "recip_rank",
    "iprec_at_recall", "P", "recall", "ndcg", "ndcg_cut",
}


def make_case(seed: int):
    """Random graded qrels (some negative, some topics without relevant docs) and a run
    with score ties, unjudged documents, topics missing and topics unknown to the qrels."""
    rng = random.Random(seed)
    qrels: dict[str, dict[str, int]] = {}
    run: dict[str, dict[str, float]] = {}
    n_topics = rng.randint(3, 12)
    for t in range(n_topics):
        qid = str(rng.choice([t, 100 + t, 1000 + t]))
        ndocs = rng.randint(1, 60)
        levels = rng.choice([[0, 1], [0, 1, 2, 3], [0], [0, 0, 0, 1, 2], [-1, 0, 1, 2]])
        qrels[qid] = {f"d{rng.randint(0, 400)}": rng.choice(levels) for _ in range(ndocs)}
        if max(qrels[qid].values()) < 0:  # (trecgen.NEGATIVE_ONLY: pytrec_eval's C code crashes or hangs)
            qrels[qid][next(iter(qrels[qid]))] = 0
        if rng.random() < 0.2:
            continue  # topic missing from the run
        length = rng.choice([rng.randint(1, 40), rng.randint(100, 1200)])
        pool = list(qrels[qid]) + [f"d{i}" for i in range(400, 400 + length)]
        docs = rng.sample(pool, min(length, len(pool)))
        coarse = rng.random() < 0.5  # coarse scores give many ties
        run[qid] = {d: (rng.randint(0, 5) / 2 if coarse else rng.uniform(-5, 5)) for d in docs}
    if rng.random() < 0.5:
        run["9999"] = {"dx": 1.0, "dy": 0.5}  # unknown to the qrels
    return qrels, run


def write(tmp_path, qrels, run, tag="runA"):
    q = tmp_path / "qrels.txt"
    r = tmp_path / "run.txt"
    q.write_text("".join(f"{qid} 0 {d} {rel}\n" for qid, docs in qrels.items() for d, rel in docs.items()))
    lines = []
    for qid, docs in run.items():
        for i, (d, s) in enumerate(docs.items()):
            lines.append(f"{qid} Q0 {d} {i + 1} {s!r} {tag}\n")
    random.Random(0).shuffle(lines)  # file order must not matter
    r.write_text("".join(lines))
    return q, r


def expected_average(name, per_topic, topics, missing, above_zero):
    """trec_eval's averaging of pytrec_eval's per-topic values over TOPICS (+ MISSING, scored as
    trec_eval -c scores them: 0); with -c (MISSING given) the summary num_rel is trec_eval 10.0's,
    ABOVE_ZERO, the judgements > 0 of every qrels topic."""
    vals = [per_topic[t][name] for t in topics]
    if name == "num_rel" and above_zero is not None:
        return above_zero
    if name.startswith("num_"):
        return sum(vals)
    n = len(vals) + len(missing)
    if name == "gm_map":  # pytrec_eval gives log(max(AP, 1e-5)) per topic
        return math.exp((sum(vals) + len(missing) * math.log(1e-5)) / n)
    return sum(vals) / n


@pytest.mark.parametrize("rel_level", [1, 2])
@pytest.mark.parametrize("empty_as_zero", [False, True])
@pytest.mark.parametrize("seed", range(12))
def test_against_pytrec_eval(tmp_path, seed, empty_as_zero, rel_level):
    """Every topic of the run that the qrels judge counts, also one with nothing relevant (trec_eval
    scores it, 0 for most measures); with -e every qrels topic, the run's missing ones on trec_eval
    -c's stand-in ranking (0, but num_rel = R)."""
    qrels, run = make_case(seed)
    qpath, rpath = write(tmp_path, qrels, run)
    results, errors = evaluate_trec(
        qpath, [rpath], measures=None, rel_level=rel_level, empty_as_zero=empty_as_zero, warn=lambda m: None,
        trec_eval_version="9.0.8")
    assert errors == []
    (res,) = results
    assert res.run_id == "runA"
    assert res.measures == list(DEFAULT_MEASURES)

    ev = pytrec_eval.RelevanceEvaluator(qrels, PYTREC_MEASURES, relevance_level=rel_level)
    theirs = ev.evaluate(run)
    evaluated = sorted(set(qrels) & set(run))
    missing = sorted(set(qrels) - set(run)) if empty_as_zero else []
    assert set(res.per_topic) == set(evaluated) | set(missing)

    for t in evaluated:
        for name in res.measures:
            ours = res.per_topic[t][name]
            if name == "gm_map":
                assert math.log(max(ours, 1e-5)) == pytest.approx(theirs[t][name], **TOL), (t, name)
            else:
                assert ours == pytest.approx(theirs[t][name], **TOL), (t, name)
    num_rel = {q: sum(r >= rel_level for r in docs.values()) for q, docs in qrels.items()}
    for t in missing:
        assert res.per_topic[t]["num_rel"] == num_rel[t]
        assert all(v == 0.0 for n, v in res.per_topic[t].items() if n != "num_rel")
    above_zero = sum(r > 0 for docs in qrels.values() for r in docs.values()) if empty_as_zero else None
    for name in res.measures:
        if not evaluated and not missing:
            assert res.average[name] is None
        else:
            want = expected_average(name, theirs, evaluated, missing, above_zero)
            assert res.average[name] == pytest.approx(want, **TOL), name


def test_cases_exercise_the_edge_cases():
    """The generator really produces ties, missing topics and topics without relevant documents."""
    ties = missing = norel = 0
    for seed in range(12):
        qrels, run = make_case(seed)
        ties += any(len(set(d.values())) < len(d) for d in run.values())
        missing += any(q not in run for q in qrels)
        norel += any(all(r < 1 for r in d.values()) for d in qrels.values())
    assert ties and missing and norel


def test_extra_cutoffs_against_pytrec_eval(tmp_path):
    """Non-default cut-offs (P_3, recall_7, ndcg_cut_2) follow the same rules."""
    qrels, run = make_case(99)
    qpath, rpath = write(tmp_path, qrels, run)
    (res,), _ = evaluate_trec(qpath, [rpath], measures=["P_3", "recall_7", "ndcg_cut_2"], warn=lambda m: None,
                                trec_eval_version="9.0.8")
    theirs = pytrec_eval.RelevanceEvaluator(qrels, {"P.3", "recall.7", "ndcg_cut.2"}).evaluate(run)
    for t, vals in res.per_topic.items():
        if vals["P_3"] is not None:
            for name in ("P_3", "recall_7", "ndcg_cut_2"):
                assert vals[name] == pytest.approx(theirs[t][name], **TOL)
