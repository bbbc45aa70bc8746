"""Q-measure against pyNTCIREVAL's QMeasure on seeded random inputs (docs/measures.md §8: "Q must equal
NTCIREVAL's Q-measure for the same gains and beta")."""

from __future__ import annotations

import random

import pytest
from pyNTCIREVAL import Labeler
from pyNTCIREVAL.metrics import QMeasure

from inexeval.trec import evaluate_trec

TOL = dict(rel=1e-9, abs=1e-9)


def make_case(seed: int):
    rng = random.Random(seed)
    qrels, run = {}, {}
    for t in range(rng.randint(2, 10)):
        qid = f"T{t}"
        qrels[qid] = {f"d{rng.randint(0, 300)}": rng.choice([0, 0, 1, 1, 2, 3]) for _ in range(rng.randint(1, 50))}
        if not any(qrels[qid].values()):
            qrels[qid]["dextra"] = 1
        pool = list(qrels[qid]) + [f"u{i}" for i in range(100)]
        docs = rng.sample(pool, rng.randint(1, min(len(pool), 120)))
        # distinct scores: the ranking is unambiguous for both tools
        scores = rng.sample(range(100000), len(docs))
        run[qid] = dict(zip(docs, (s / 7 for s in scores)))
    return qrels, run


@pytest.mark.parametrize("beta", [1.0, 0.5])
@pytest.mark.parametrize("grades", [(1, 2, 3), (1, 4, 9)])
@pytest.mark.parametrize("seed", range(10))
def test_q_measure_equals_ntcireval(tmp_path, seed, grades, beta):
    qrels, run = make_case(seed)
    q, r = tmp_path / "q", tmp_path / "r"
    q.write_text("".join(f"{t} 0 {d} {v}\n" for t, ds in qrels.items() for d, v in ds.items()))
    r.write_text("".join(f"{t} Q0 {d} 0 {s!r} tag\n" for t, ds in run.items() for d, s in ds.items()))
    gains = {1: grades[0], 2: grades[1], 3: grades[2]}
    (res,), errors = evaluate_trec(q, [r], measures=["Q"], gains=gains, q_beta=beta, warn=lambda m: None)
    assert not errors
    for t, ds in run.items():
        ranked = [d for d, _ in sorted(ds.items(), key=lambda x: -x[1])]
        labeler = Labeler(qrels[t])
        xrelnum = labeler.compute_per_level_doc_num(4)
        want = QMeasure(xrelnum, list(grades), beta).compute(labeler.label(ranked))
        assert res.per_topic[t]["Q"] == pytest.approx(want, **TOL), t


def test_beta_in_the_name_overrides_q_beta(tmp_path):
    qrels, run = make_case(3)
    q, r = tmp_path / "q", tmp_path / "r"
    q.write_text("".join(f"{t} 0 {d} {v}\n" for t, ds in qrels.items() for d, v in ds.items()))
    r.write_text("".join(f"{t} Q0 {d} 0 {s!r} tag\n" for t, ds in run.items() for d, s in ds.items()))
    (res,), _ = evaluate_trec(q, [r], measures=["Q(beta=0.5)", "Q"], q_beta=1.0, warn=lambda m: None)
    for t, ds in run.items():
        ranked = [d for d, _ in sorted(ds.items(), key=lambda x: -x[1])]
        labeler = Labeler(qrels[t])
        xrelnum = labeler.compute_per_level_doc_num(4)
        ranked_l = labeler.label(ranked)
        assert res.per_topic[t]["Q(beta=0.5)"] == pytest.approx(QMeasure(xrelnum, [1, 2, 3], 0.5).compute(ranked_l), **TOL)
        assert res.per_topic[t]["Q"] == pytest.approx(QMeasure(xrelnum, [1, 2, 3], 1.0).compute(ranked_l), **TOL)
