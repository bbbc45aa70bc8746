"""``TASK: trec`` scores a large run by ranges of topics (issue 35, target 2;
inexeval.measures.classic_family.RANGE_ROWS): every per-topic value and every average must be the
whole run's, bit for bit, whatever the ranges.

Random qrels and runs (tests/trecgen.py) with topics judged only negatively added (they take the
levels of the topic evaluated before: a range must not separate them) and trec_eval's -c stand-in
document judged in some topics (each stand-in gets its topic's code), every classic measure of
trec_eval's all_trec set, with and without -e, under ranges of 1 row and more.  The oracle here is
the same engine scoring the whole run at once, itself compared with trec_eval 10.0 in
test_oracle_trec_eval.py and test_trec_one_engine.py.
"""

from __future__ import annotations

import math
import random
from pathlib import Path

import numpy as np
import pytest

from inexeval.engine import evaluate
from inexeval.config.source import load
from inexeval.measures import classic_family
from inexeval.measures.classic_base import BOGUS_DOCNO
from inexeval.measures.classic_family import topic_ranges
from inexeval.measures.trec_catalogue import trec_eval_set
from inexeval.topic_columns import TopicColumns
import trecgen

#: every numeric label of all_trec (relstring is text, which a config does not print)
MEASURES = [lab for lab in trec_eval_set("all_trec") if lab not in ("runid", "num_q", "relstring")]
GRADED = ["ndcg", "ndcg_cut_5", "Rndcg", "ndcg_rel", "G", "rbp", "binG", "P_5", "map", "gm_map", "bpref", "infAP"]


def _negative_only(rng: random.Random, case: trecgen.Case) -> tuple[str, str]:
    """CASE's qrels and run with 1-3 more topics whose every judgement is negative (-1 or -2), each
    ranked by the run, and their ids between the others' in byte order."""
    qrels, run = case.qrels, case.run
    for k in range(rng.randint(1, 3)):
        topic = rng.choice(case.qrels_topics) + f"n{k}"  # (sorts right after an existing topic)
        docs = [f"neg{k}_{i}" for i in range(rng.randint(1, 6))]
        qrels += "".join(f"{topic} 0 {d} {rng.choice([-1, -2])}\n" for d in docs)
        ranked = docs + [f"other{k}_{i}" for i in range(rng.randint(0, 4))]
        rng.shuffle(ranked)
        run += "".join(f"{topic} Q0 {d} {i + 1} {100 - i} tag\n" for i, d in enumerate(ranked))
    return qrels, run


def _scores(tmp_path: Path, qrels: str, run: str, measures: list[str], complete: bool) -> list:
    (tmp_path / "qrels.txt").write_text(qrels)
    (tmp_path / "runs").mkdir(exist_ok=True)
    (tmp_path / "runs" / "run.txt").write_text(run)
    config = load({"TASK": "trec", "ASSESSMENTS_DIR": str(tmp_path / "qrels.txt"),
                   "SUBMISSIONRUNS_DIR": str(tmp_path / "runs"), "RESULTS_DIR": str(tmp_path / "results"),
                   "METRICS": measures})
    ev = evaluate(config, empty_as_zero=complete)
    assert not ev.problems, ev.problems
    out = []
    for r in ev.results:
        assert isinstance(r.per_topic, TopicColumns)
        rows = {t: {m: _exact(v) for m, v in r.per_topic[t].items()} for t in r.per_topic}
        out.append((r.run_id, rows, {m: _exact(v) for m, v in r.average.items()}))
    return out


def _exact(v):
    """V as text that tells every float apart (NaN equal to NaN, -0.0 apart from 0.0)."""
    return v if v is None or isinstance(v, str) else (float(v).hex() if not math.isnan(v) else "nan")


@pytest.mark.parametrize("seed", range(30))
def test_ranges_give_the_whole_runs_values(tmp_path, monkeypatch, seed):
    rng = random.Random(seed)
    case = trecgen.qrels_and_run(rng, n_topics=rng.randint(3, 14), missing=0.3)
    qrels, run = _negative_only(rng, case) if seed % 3 else (case.qrels, case.run)
    for topic in rng.sample(case.qrels_topics, min(3, len(case.qrels_topics))):
        # trec_eval's -c stand-in document, judged: each stand-in must get its own topic's code
        qrels += f"{topic} 0 {BOGUS_DOCNO.decode()} {rng.choice([0, 1, 2])}\n"
    measures = MEASURES if seed % 2 else GRADED
    complete = seed % 4 in (1, 2)
    whole = _scores(tmp_path, qrels, run, measures, complete)
    for rows in (1, rng.randint(2, 30), rng.randint(30, 300)):
        monkeypatch.setattr(classic_family, "RANGE_ROWS", rows)
        assert _scores(tmp_path, qrels, run, measures, complete) == whole, rows


def test_topic_ranges_cover_the_table_and_start_at_topics_with_levels():
    """Every range but the first starts at an evaluated topic judged >= 0 somewhere; together they
    cover every table topic once, in order; ranges hold about RANGE_ROWS rows."""
    from inexeval.measures.classic_base import Ranking, TopicTable

    rng = np.random.default_rng(5)
    for _ in range(200):
        T = int(rng.integers(1, 40))
        per_topic = rng.integers(1, 4, T)
        qstart = np.concatenate(([0], np.cumsum(per_topic))).astype(np.int64)
        qrel = rng.choice([-2, -1, 0, 1, 2], int(qstart[-1]))
        table = TopicTable(np.array([b"%03d" % i for i in range(T)]), [f"{i:03d}" for i in range(T)], qstart, qrel,
                           np.array([b"d"] * qrel.size), 1, np.zeros(T, np.int64), np.zeros(T, np.int64),
                           np.array([b"d"]), np.zeros(qrel.size, np.int64))
        length = rng.integers(0, 8, T)
        start = np.concatenate(([0], np.cumsum(length))).astype(np.int64)
        ranking = Ranking(table, start, np.zeros(int(start[-1]), np.int64))
        evaluated = np.flatnonzero(length > 0) if rng.random() < 0.5 else np.arange(T)
        if not evaluated.size:
            continue
        stand_in = length[evaluated] == 0
        limit = int(rng.integers(1, 20))
        classic_family.RANGE_ROWS, saved = limit, classic_family.RANGE_ROWS
        try:
            ranges = topic_ranges(ranking, evaluated, stand_in)
        finally:
            classic_family.RANGE_ROWS = saved
        assert ranges[0][0] == 0 and ranges[-1][1] == T
        assert all(a[1] == b[0] and a[0] < a[1] for a, b in zip(ranges, ranges[1:]))
        own = np.array([(qrel[qstart[t]:qstart[t + 1]] >= 0).any() for t in range(T)])
        rows = np.zeros(T, np.int64)
        rows[evaluated] = length[evaluated] + stand_in
        for lo, hi in ranges[1:]:
            assert lo in set(evaluated.tolist()) and own[lo]
        for lo, hi in ranges:  # a range ends at the first topic with levels once it holds RANGE_ROWS rows
            inside = evaluated[(evaluated >= lo) & (evaluated < hi)]
            j = int(np.searchsorted(np.cumsum(rows[inside]), limit, side="left")) + 1
            assert not own[inside[j:]].any()
