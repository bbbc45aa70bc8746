"""The common properties of every registered measure, driven by the registry (issue 13, item 9).

For every strategy of the task table (:data:`inexeval.tasks.TASKS`) a seeded
generator builds a random recall-base (several topics, one with nothing
relevant) and random runs.  Every measure the registry has for the strategy
(plus, for strategies whose measure names are patterns, the default set and
the generator's sample of names) is scored through the real
:class:`~inexeval.engine.Scorer`, so that the ``prepare`` hooks run, and
must satisfy:

1. the computed keys are the declared outputs, for every defined topic;
2. values are finite, and in [0, 1] when the measure is ``bounded``; the
   ``scalars``, the curves' names and ``ideal_one`` are among the outputs;
3. the ideal run of the strategy scores 1 on every output the measure
   declares in ``ideal_one``;
4. an empty run scores 0 (or None, declared undefined) on every bounded
   output under ``-e``, and has no topic without it; a topic missing from a
   run is scored as an empty ranking under ``-e``;
5. a topic with nothing relevant is None for every output of every measure,
   is declared undefined, and leaves the averages as they are without it;
6. scoring is deterministic: twice, in a fresh scorer, with the topics in
   another order, and each measure alone, give identical values;
7. ``--jobs 2`` gives the results of ``--jobs 1`` (a shipped config per
   strategy, every measure of the strategy).

No measure is named here, except the pattern names a generator must list:
a new family is picked up by its strategy; a new strategy fails the
meta-test until it has a generator in :data:`GENERATORS`.
"""

from __future__ import annotations

import copy
import math
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import pytest

from inexeval import records
from inexeval.aggregate import natural_key
from inexeval.config.load import load_config
from inexeval.engine import Scorer, evaluate
from inexeval.inputs import RecallBase
from inexeval.measures import classic, registry
from inexeval.measures.classic_join import read_ranked_run, topic_table
from inexeval.measures.registry import AGGREGATIONS, Measure, Params, Setting
from inexeval.model import FileAssessment, Judgement, Run, TopicAssessment
from inexeval.paths import parent
from inexeval.readers.trec import read_qrels
from inexeval.recallbase import quantise
from inexeval.tasks import TASKS
from inexeval.writers.files import run_file_path, run_file_text
from folgen import ideal_run as fol_ideal_rows
from folgen import qrels_text, random_qrels, random_run, run_text
from randomtrees import all_paths, random_text_tree, random_topic
from recallbase_paths import ideal_elements

pytestmark = pytest.mark.slow  # every measure through the common property checks

#: The quantisation functions (docs/measures.md §4.1).
QUANTS = ("strict", "gen", "genLifted")

ROOT = Path(__file__).resolve().parent.parent
SEEDS = range(6)
TOL = 1e-9
#: The strategies of the task table: each needs an input generator.
STRATEGIES = sorted({t.strategy for t in TASKS.values()})


# ------------------------------------------------------------------ cases ----

@dataclass
class Case:
    """A random recall-base, random runs, and what the measures of one strategy need.

    ``topics`` maps each recall-base topic to its assessment (None for trec,
    whose recall-base is ``data``, the qrels table); ``nothing_relevant``
    lists the topics with nothing relevant under any setting; ``shuffled``
    and ``without`` rebuild the case with its topics in another order or
    with fewer of them.
    """

    strategy: str
    params: Params
    settings: list[Setting]
    topics: dict[str, Any]
    runs: list[Any]
    nothing_relevant: list[str]
    ideal_run: Callable[[Setting], Any]  # the strategy's ideal run under a setting
    empty_run: Callable[[], Any]
    shuffled: Callable[[random.Random], "Case"]  # the same case, topics in another order
    without: Callable[[list[str]], "Case"]  # the same case without some recall-base topics
    data: Any = None
    collection: Any = None
    pattern_names: list[str] = field(default_factory=list)  # names resolved by the strategy's resolvers
    empty_scores_one: frozenset[str] = frozenset()  # measures an empty ranking scores 1 (lower is better)

    def recall_base(self) -> RecallBase:
        """A fresh copy (a scorer may release the assessment objects once prepared)."""
        return RecallBase(copy.deepcopy(self.topics), self.data)


def _element_run(run_id: str, topics: dict[str, list[tuple[str, str]]]) -> Run:
    return Run(run_id=run_id, source=f"{run_id}.xml", topics=topics)


def _random_element_runs(rng: random.Random, candidates: dict[str, list], always: list[str],
                         n: int = 3) -> list[Run]:
    """N runs: each topic (and an unknown one) present with probability 0.85 (those in ALWAYS always;
    the first run misses the first topic), a random sample of its candidate results (no repeats), 0 to
    15 of them."""
    runs = []
    for j in range(n):
        topics = {}
        for t, cands in list(candidates.items()) + [("999", [("d0", "/article[1]")])]:
            if (rng.random() < 0.85 or t in always) and (j, t) != (0, next(iter(candidates))):
                topics[t] = rng.sample(cands, k=rng.randint(0, min(len(cands), 15)))
        runs.append(_element_run(f"run{j}", topics))
    return runs


def _element_case(strategy, params, settings, topics, runs, nothing, ideal_ranking, collection=None) -> Case:
    """A case over INEX topics; ``ideal_ranking(ta, setting)`` is the strategy's ideal ranking of a topic."""

    def ideal_run(s: Setting) -> Run:
        return _element_run("ideal", {t: ideal_ranking(ta, s) for t, ta in topics.items()})

    def shuffled(rng: random.Random) -> Case:
        order = list(topics)
        rng.shuffle(order)
        new_runs = []
        for r in runs:
            ts = list(r.topics)
            rng.shuffle(ts)
            new_runs.append(_element_run(r.run_id, {t: r.topics[t] for t in ts}))
        return _element_case(strategy, params, settings, {t: topics[t] for t in order}, new_runs, nothing,
                             ideal_ranking, collection)

    def without(drop: list[str]) -> Case:
        return _element_case(strategy, params, settings, {t: ta for t, ta in topics.items() if t not in drop},
                             runs, [t for t in nothing if t not in drop], ideal_ranking, collection)

    return Case(strategy, params, settings, topics, runs, nothing, ideal_run,
                lambda: _element_run("empty", {}), shuffled, without, collection=collection)


# --- thorough, focussed, fetchbrowse: INEX 2005 assessments (exhaustivity, size, rsize) ---------------

def _quants(ta: TopicAssessment, quant: str) -> dict[str, dict[str, float]]:
    """file -> path -> quant, computed from the judgements (not from the evaluator's recall-base)."""
    return {f: {p: quantise(quant, j) for p, j in fa.elements.items()} for f, fa in ta.files.items()}


def _ideal_of_file(qs: dict[str, float], overlap: str) -> list[str]:
    """The file's recall-base (the ideal elements with overlap on, every relevant one off), by decreasing quant."""
    paths = ideal_elements(qs) if overlap == "on" else [p for p, q in qs.items() if q > 0]
    return sorted(paths, key=lambda p: -qs[p])


def xcg_ideal(ta: TopicAssessment, s: Setting) -> list[tuple[str, str]]:
    """The recall-base (full or ideal, by OVERLAP) in decreasing quant (docs/measures.md §4.2)."""
    qs = _quants(ta, s.quant)
    ranked = [(f, p) for f in qs for p in _ideal_of_file(qs[f], s.overlap)]
    return sorted(ranked, key=lambda k: -qs[k[0]][k[1]])


def fetchbrowse_ideal(ta: TopicAssessment, s: Setting) -> list[tuple[str, str]]:
    """Relevant articles by decreasing article gain, each with its recall-base in decreasing quant."""
    qs = _quants(ta, s.quant)
    gain = {f: max(q.values(), default=0.0) for f, q in qs.items()}
    files = sorted((f for f in qs if gain[f] > 0), key=lambda f: -gain[f])
    return [(f, p) for f in files for p in _ideal_of_file(qs[f], s.overlap)]


def _nothing_relevant_2005(topic: str) -> TopicAssessment:
    """A topic whose judged elements have no highlighted text, and a judged empty file."""
    ta = TopicAssessment(topic=topic, pool=None, query_type=None, source="random")
    fa = FileAssessment(file="d0")
    fa.elements["/article[1]"] = Judgement("/article[1]", 0, 120, 0)
    fa.elements["/article[1]/sec[1]"] = Judgement("/article[1]/sec[1]", 0, 40, 0)
    ta.files["d0"] = fa
    ta.files["d1"] = FileAssessment(file="d1")
    return ta


def inex2005_case(strategy: str, ideal_ranking) -> Callable[[int, Path], Case]:
    def make(seed: int, tmp_path: Path) -> Case:
        rng = random.Random(seed)
        topics: dict[str, TopicAssessment] = {}
        for i in range(rng.randint(3, 5)):
            ta = random_topic(1000 * seed + i, n_files=rng.randint(1, 4))
            ta.topic = str(i + 8)  # 8, 9, 10, ...: natural order differs from string order
            topics[ta.topic] = ta
        empty = str(len(topics) + 8)
        topics[empty] = _nothing_relevant_2005(empty)
        cands = {t: all_paths(ta) + [("zz", "/article[1]")] for t, ta in topics.items()}
        runs = _random_element_runs(rng, cands, [empty])
        alpha = rng.choice([1.0, 0.5, 0.0])
        settings = [Setting(q, o, alpha) for q in QUANTS for o in ("off", "on")]
        params = Params(dcv=(1, 3, 10), max_results=20, q_beta=rng.choice([1.0, 0.5]))
        return _element_case(strategy, params, settings, topics, runs, [empty], ideal_ranking)
    return make


# --- relevantincontext, bestincontext: INEX 2006 assessments (highlighting, best entry points) -------

class StubCollection:
    """Text sizes and start offsets of the elements of random documents (docs/formats.md §1.4):
    an element's own text comes first, then its children's, in document order."""

    def __init__(self, docs: dict[str, dict[str, int]]):
        self.sizes = docs
        self.offsets: dict[str, dict[str, int]] = {}
        for file, sizes in docs.items():
            children: dict[str, list[str]] = {p: [] for p in sizes}
            for p in sizes:  # post-order from random_text_tree: children in document order
                if parent(p) in children:
                    children[parent(p)].append(p)
            offsets: dict[str, int] = {}

            def place(p: str, start: int) -> None:
                offsets[p] = start
                at = start + sizes[p] - sum(sizes[c] for c in children[p])
                for c in children[p]:
                    place(c, at)
                    at += sizes[c]

            place("/article[1]", 0)
            self.offsets[file] = offsets

    def size_of(self, file: str, path: str) -> int | None:
        return self.sizes.get(file, {}).get(path)

    def offset_of(self, file: str, path: str) -> int | None:
        return self.offsets.get(file, {}).get(path)

    def average_length(self) -> float:
        return sum(s["/article[1]"] for s in self.sizes.values()) / len(self.sizes)


def _own_text(rng: random.Random, leaf: bool) -> tuple[int, int]:
    return (rng.randint(1, 40) if leaf else rng.randint(0, 10)), 0


def _highlight(rng: random.Random, topic: str, collection: StubCollection, files: list[str]) -> TopicAssessment:
    """Judge FILES for a topic: each leaf wholly highlighted or not (an inner element's own text never),
    so that the highlighted text is exactly a set of elements; most highlighted files get a best entry
    point among their highlighted elements."""
    ta = TopicAssessment(topic=topic, pool=None, query_type=None, source=f"{topic}.xml")
    for line, file in enumerate(files, start=3):
        sizes = collection.sizes[file]
        inner = {parent(p) for p in sizes}
        lit = {p for p in sizes if p not in inner and rng.random() < 0.4}
        rsize = dict.fromkeys(sizes, 0)
        for p in lit:
            a = p
            while a is not None and a in rsize:
                rsize[a] += sizes[p]
                a = parent(a)
        fa = FileAssessment(file=file, line=line)
        for p in sorted(sizes, key=lambda p: (collection.offset_of(file, p), p.count("/"))):  # document order
            if rsize[p] > 0:
                fa.elements[p] = Judgement(p, None, sizes[p], rsize[p])
        if fa.elements and rng.random() < 0.85:
            fa.beps.append(rng.choice(list(fa.elements)))
        ta.files[file] = fa
    return ta


def _cover(fa: FileAssessment) -> list[str]:
    """The largest wholly highlighted elements (rsize = size > 0): exactly the highlighted text."""
    full = [p for p, j in fa.elements.items() if j.rsize == j.size > 0]
    return [p for p in full if not any(q != p and p.startswith(q + "/") for q in full)]


def context_ideal(ta: TopicAssessment, s: Setting) -> list[tuple[str, str]]:
    """Each relevant article retrieved as exactly its highlighted text."""
    return [(f, p) for f, fa in ta.files.items() for p in _cover(fa)]


def bep_ideal(ta: TopicAssessment, s: Setting) -> list[tuple[str, str]]:
    """Each article with highlighted text retrieved at its (first) best entry point."""
    return [(f, fa.beps[0]) for f, fa in ta.files.items() if fa.beps and fa.elements]


def inex2006_case(strategy: str, ideal_ranking) -> Callable[[int, Path], Case]:
    def make(seed: int, tmp_path: Path) -> Case:
        rng = random.Random(seed)
        docs = {f"doc{d}": {p: s for p, (s, _r) in random_text_tree(rng, _own_text).items()}
                for d in range(rng.randint(3, 6))}
        collection = StubCollection(docs)
        topics: dict[str, TopicAssessment] = {}
        while not any(fa.beps for ta in topics.values() for fa in ta.files.values()):
            # (again until some file has a best entry point: else no topic defines BEPD, as for seed
            # 200008 of a longer campaign, and the properties would be checked on nothing)
            topics = {}
            for i in range(rng.randint(3, 5)):
                t = str(i + 8)
                topics[t] = _highlight(rng, t, collection, rng.sample(sorted(docs), rng.randint(1, min(4, len(docs)))))
        empty = str(len(topics) + 8)
        topics[empty] = TopicAssessment(topic=empty, pool=None, query_type=None, source=f"{empty}.xml",
                                        files={f: FileAssessment(file=f) for f in sorted(docs)[:2]})
        elements = [(f, p) for f in docs for p in docs[f]]
        extra = [("doc0", "/article[1]/fig[7]"), ("zz", "/article[1]")]  # not in the document; unjudged
        runs = _random_element_runs(rng, {t: elements + extra for t in topics}, [empty])
        settings = [Setting(None, None, rng.choice([1.0, 0.5]))]
        avg = rng.choice([None, 500.0])  # unset: the collection's average length, as params_of gives it
        params = Params(dcv=(1, 3, 10), bep_a=("0.01", "1", "100"),
                        avg_doc_length=collection.average_length() if avg is None else avg)
        return _element_case(strategy, params, settings, topics, runs, [empty], ideal_ranking, collection)
    return make


# --- trec: qrels and TREC runs, as files -------------------------------------------------------------

#: A sample of the names the classic resolver builds (with TREC_ONE_WHEN_EMPTY, every family of
#: classic.FAMILIES, several parameters); the default set (trec_eval's) is added to it.
TREC_PATTERNS = [
    "nDCG_JK@10", "nDCG_JK@3(b=3)", "nDCG_JK@5(agr)", "DCG_JK@5", "DCG_JK@4(b=3,agr)", "CG@5", "CG@3(agr)",
    "AWP", "AWP(agr)", "AGR", "R-WP", "R-WP(agr)", "Q", "Q(beta=0.5)", "Q(agr)", "R", "R(beta=0.5,agr)",
    "F@5(b=0.5)", "F@10", "MRR@3", "MRR", "P_3", "recall_7", "ndcg_cut_2", "iprec_at_recall_0.35",
    "infAP", "gm_bpref", "Rprec_mult_0.40", "utility", "11pt_avg", "11pt_avg_.25,.5", "binG", "G", "G_1=2,2=1",
    "ndcg_1=3,2=9", "ndcg_rel", "ndcg_rel_2=5", "Rndcg", "Rndcg_1=2", "map_cut_10", "relative_P_5", "success_3",
    "set_P", "set_relative_P", "set_recall", "set_map", "set_F", "set_F_0.5", "num_nonrel_judged_ret", "rbp",
    "rbp_p=0.5", "rbp_resid", "unj_5", "dcg", "ideal_dcg", "dcg_1=2", "yaap", "rbp_1=2,p=0.8",
    # ir_measures' names (docs/measures.md §8.6)
    "P@5", "P(rel=2,judged_only=True)@3", "R@10", "AP", "AP(rel=2)@5", "RR", "nDCG@10", "nDCG(gains={0:0,1:1,2:5})",
    "Rprec(rel=2)", "Bpref", "infAP(rel=2)", "IPrec@0.5", "SetP(relative=True)", "SetR", "SetF(beta=0.5)", "SetAP",
    "Success@5", "NumQ", "NumRel", "NumRet(rel=1)", "Judged@5",
]
#: E@k = 1 - F@k is lower-is-better: an empty ranking scores 1 on it, not 0; and trec_eval -c resets
#: only the label ``rbp_resid`` after scoring its stand-in ranking (one unjudged document), so
#: ``rbp_resid_p=x`` keeps the stand-in's p + (1 - p) = 1 (trec_eval.c).
TREC_ONE_WHEN_EMPTY = ["E@5", "E@3(b=2)", "rbp_resid_p=0.95"]


def _trec_files(tmp_path: Path, tag: str, qrels: list[tuple[str, str, int]],
                runs: dict[str, list[tuple[str, str, float]]]):
    """Write the qrels and runs (run id -> (topic, docno, score) rows) and read them as inexeval does."""
    q = tmp_path / f"qrels-{tag}.txt"
    q.write_text("".join(f"{t} 0 {d} {rel}\n" for t, d, rel in qrels))
    paths = []
    for run_id, rows in runs.items():
        p = tmp_path / f"{run_id}-{tag}.txt"
        p.write_text("".join(f"{t} Q0 {d} {i + 1} {s!r} {run_id}\n" for i, (t, d, s) in enumerate(rows)))
        paths.append(p)
    return q, paths


def trec_case(seed: int, tmp_path: Path) -> Case:
    rng = random.Random(seed)
    rel_level = rng.choice([1, 1, 2])
    gains = rng.choice([None, None, ((1, 1.0), (2, 2.5), (3, 4.0)), ((1, 3.0), (2, 1.0))])
    params = Params(max_results=None, q_beta=rng.choice([1.0, 0.5]), rel_level=rel_level, gains=gains)
    qrels: list[tuple[str, str, int]] = []
    ids = rng.sample(range(1, 400), rng.randint(3, 6))
    for n, t in enumerate(ids):
        levels = [0, 1] if n == 0 else rng.choice([[0, 1], [0, 1, 2, 3], [0, 0, 1, 2], [-1, 0, 1, 2]])
        docs = {f"D{rng.randint(0, 80)}": rng.choice(levels) for _ in range(rng.randint(1, 25))}
        if n == 0:  # the topic with nothing relevant (also at REL_LEVEL 2)
            docs = {d: min(rel, 0) for d, rel in docs.items()}
        elif n == 1:  # a topic with something relevant (also at REL_LEVEL 2)
            docs[f"D{rng.randint(81, 99)}"] = 3
        qrels += [(str(t), d, rel) for d, rel in docs.items()]
    nothing = sorted({t for t, _, _ in qrels} - {t for t, _, rel in qrels if rel >= rel_level})
    runs = {}
    for j in range(3):
        rows = []
        for t in [str(t) for t in ids] + ["9999"]:
            if (rng.random() < 0.8 or t in nothing) and (j, t) != (0, str(ids[1])):
                pool = sorted({d for q, d, _ in qrels if q == t} | {f"D{i}" for i in range(100, 140)})
                coarse = rng.random() < 0.5  # coarse scores give ties (broken by docno)
                rows += [(t, d, rng.randint(0, 4) / 2 if coarse else rng.uniform(-5, 5))
                         for d in rng.sample(pool, rng.randint(1, min(30, len(pool))))]
        runs[f"run{j}"] = rows

    def make(qrels, runs, tag: str) -> Case:
        qpath, rpaths = _trec_files(tmp_path, tag, qrels, runs)
        table = topic_table(read_qrels(qpath), rel_level)
        read = [read_ranked_run(p, table, max_results=None) for p in rpaths]
        relevant = [(t, d, rel) for t, d, rel in qrels if rel >= rel_level]

        def ideal_run(s: Setting):
            # every relevant document, by decreasing relevance (score = rel)
            _, (p,) = _trec_files(tmp_path, tag, qrels, {"ideal": [(t, d, float(rel)) for t, d, rel in relevant]})
            return read_ranked_run(p, table, max_results=None)

        def empty_run():
            # a run with no topic of the qrels (an empty file is not a run)
            _, (p,) = _trec_files(tmp_path, tag, qrels, {"empty": [("unjudged", "D1", 1.0)]})
            return read_ranked_run(p, table, max_results=None)

        def shuffled(r: random.Random) -> Case:
            q2 = list(qrels)
            r.shuffle(q2)
            runs2 = {}
            for k, rows in runs.items():
                rows = list(rows)
                r.shuffle(rows)
                runs2[k] = rows
            return make(q2, runs2, tag + "s")

        def without(drop: list[str]) -> Case:
            return make([row for row in qrels if row[0] not in drop], runs, tag + "w")

        names = list(table.names)
        return Case("trec", params, [Setting(None, None, 1.0)], dict.fromkeys(names), read,
                    [t for t in nothing if t in names], ideal_run, empty_run, shuffled, without, data=table,
                    pattern_names=TREC_PATTERNS + TREC_ONE_WHEN_EMPTY,
                    empty_scores_one=frozenset(registry.find(n, "trec").name for n in TREC_ONE_WHEN_EMPTY))

    return make(qrels, runs, "a")


# --- the FOL tasks (INEX 2007-2010): FOL qrels and passage runs, as files ------------------------------

def fol_case(strategy: str) -> Callable[[int, Path], Case]:
    """Random FOL qrels (a topic with nothing relevant) and runs valid for the strategy's task
    (tests/folgen.py), read as inexeval reads them."""
    from inexeval.measures.fol_family import TASK_OPTION
    from inexeval.readers.fol import read_fol_qrels
    from inexeval.readers.passages import read_passage_run

    task = TASK_OPTION[strategy]

    def make(seed: int, tmp_path: Path) -> Case:
        rng = random.Random(seed)
        qrels, nothing = random_qrels(rng)
        first = next(iter(qrels))
        rows = {f"run{j}": random_run(rng, qrels, task, skip=first if j == 0 else None) for j in range(3)}
        params = Params(f_beta=rng.choice([0.25, 1.0]), bep_distance=rng.choice([500, 100]),
                        t2i_tolerance=rng.choice([300, 50]))

        def build(qrels, rows, tag: str) -> Case:
            d = tmp_path / f"{strategy}-{seed}-{tag}"
            d.mkdir(parents=True, exist_ok=True)
            (d / "qrels.txt").write_text(qrels_text(qrels))
            data = read_fol_qrels(d / "qrels.txt")

            def run_of(name: str, r) -> Any:
                (d / f"{name}.txt").write_text(run_text(r, name))
                return read_passage_run(d / f"{name}.txt", lambda: None)

            def shuffled(r: random.Random) -> Case:
                order = list(qrels)
                r.shuffle(order)
                new_rows = {}
                for name, rs in rows.items():
                    blocks: dict[str, list] = {}
                    for row in rs:
                        blocks.setdefault(row[0], []).append(row)
                    ts = list(blocks)
                    r.shuffle(ts)
                    new_rows[name] = [row for t in ts for row in blocks[t]]
                return build({t: qrels[t] for t in order}, new_rows, tag + "s")

            def without(drop: list[str]) -> Case:
                return build({t: v for t, v in qrels.items() if t not in drop}, rows, tag + "w")

            return Case(strategy, params, [Setting(None, None, 1.0)], dict.fromkeys(data.topics),
                        [run_of(name, r) for name, r in rows.items()], [t for t in [nothing] if t in qrels],
                        lambda s: run_of("ideal", fol_ideal_rows(qrels, task)), lambda: run_of("empty", []),
                        shuffled, without, data=data)

        return build(qrels, rows, "a")

    return make


# --- qa: answer files and runs of ranked exact answers, as files ---------------------------------------

def qa_case(seed: int, tmp_path: Path) -> Case:
    """Random answer data (a question whose synsets all have gain 0: nothing relevant; a NIL question;
    synsets of letter and numeric levels) and runs with repeats, NIL, wrong answers, case variants,
    tied and gapped ranks, read as inexeval reads them."""
    from inexeval.measures.qa import gains_of, match_key
    from inexeval.readers.answers import read_answer_files
    from inexeval.readers.qa_runs import read_qa_run

    rng = random.Random(seed)
    gains = (("S", rng.choice([3.0, 1.0, 5.0])), ("A", rng.choice([2.0, 1.0])), ("B", 0.0))
    params = Params(max_results=rng.choice([5, 3, 10]), q_beta=rng.choice([1.0, 0.5, 2.0]), gains=gains,
                    answer_match=rng.choice(["exact", "normalised"]))
    levels = ["S", "A", "B", "2.5", "0.5"]
    questions: dict[str, list[tuple[str, str, str]]] = {}  # qid -> (synset, level, text)
    for n in range(rng.randint(3, 6)):
        qid = f"Q{rng.randint(0, 9)}{n}"
        if n == 0:  # nothing relevant: every string of level B, whose gain is 0
            questions[qid] = [(f"s{i}", "B", f"n{n} a{i}") for i in range(rng.randint(1, 3))]
        elif n == 1:
            questions[qid] = [("nil", rng.choice("SAB"), "NIL")]
        else:
            questions[qid] = [(f"s{i}", rng.choice(levels), f"q{n} a{i} v{j}")
                              for i in range(rng.randint(1, 3)) for j in range(rng.randint(1, 3))]  # R <= L′
    qids = list(questions)
    if all(lv == "B" for q in qids[2:] for _, lv, _ in questions[q]):
        # (every string of the answered questions of level B, gain 0: no topic might define the measures,
        # as for seed 300009 of a longer campaign, and the properties would be checked on nothing)
        sid, _, text = questions[qids[2]][0]
        questions[qids[2]][0] = (sid, "S", text)

    def answer(qid: str) -> str:
        pool = [t for _, _, t in questions[qid]]
        k = rng.random()
        if k < 0.55:
            text = rng.choice(pool)
            return text.upper() if rng.random() < 0.2 else text  # a case variant: only normalised matches it
        return "NIL" if k < 0.7 else f"wrong {rng.randint(0, 5)}"

    runs = {}
    for j in range(3):
        lines = []
        for qid in qids:
            if (rng.random() < 0.85 or qid == qids[0]) and (j, qid) != (0, qids[1]):
                for _ in range(rng.randint(1, 7)):
                    lines.append((qid, rng.choice([1, 2, 2, 3, 5, 8]), answer(qid)))
        runs[f"run{j}"] = lines

    def build(questions, runs, tag: str) -> Case:
        d = tmp_path / f"qa-{seed}-{tag}"
        d.mkdir(parents=True, exist_ok=True)
        (d / "answers.tsv").write_text("".join(f"{q}\t{s}\t{lv}\t{t}\n" for q, rows in questions.items()
                                               for s, lv, t in rows))
        data = read_answer_files([d / "answers.tsv"])
        assert not data.problems, data.problems

        def run_of(name: str, lines) -> Any:
            (d / f"{name}.tsv").write_text("".join(f"{q}\t{r}\t{a}\t{name}\n" for q, r, a in lines))
            return read_qa_run(d / f"{name}.tsv", max_results=params.max_results)

        def ideal_run(s: Setting):
            g = gains_of(gains)
            lines = []
            for q in questions:
                best: dict[str, tuple[float, str]] = {}
                for sid, lv, text in questions[q]:
                    gain = g[lv] if lv in g else float(lv)
                    if sid not in best or gain > best[sid][0]:
                        best[sid] = (gain, text)
                ranked = sorted(best.values(), key=lambda b: -b[0])
                lines += [(q, i + 1, text) for i, (_, text) in enumerate(ranked)]
            return run_of("ideal", lines)

        def shuffled(r: random.Random) -> Case:
            order = list(questions)
            r.shuffle(order)
            runs2 = {}
            for k, lines in runs.items():
                blocks: dict[str, list] = {}
                for line in lines:
                    blocks.setdefault(line[0], []).append(line)  # a question's own lines keep their order
                ts = list(blocks)
                r.shuffle(ts)
                runs2[k] = [line for t in ts for line in blocks[t]]
            return build({q: questions[q] for q in order}, runs2, tag + "s")

        def without(drop: list[str]) -> Case:
            return build({q: v for q, v in questions.items() if q not in drop}, runs, tag + "w")

        assert all(match_key(t, params.answer_match) for rows in questions.values() for _, _, t in rows)
        return Case("qa", params, [Setting(None, None, 1.0)], dict(data.questions),
                    [run_of(name, lines) for name, lines in runs.items()], [q for q in qids[:1] if q in questions],
                    ideal_run, lambda: run_of("empty", []), shuffled, without, data=data)

    return build(questions, runs, "a")


#: strategy -> seeded case generator (seed, tmp_path) -> Case.
GENERATORS: dict[str, Callable[[int, Path], Case]] = {
    "thorough": inex2005_case("thorough", xcg_ideal),
    "focussed": inex2005_case("focussed", xcg_ideal),
    "fetchbrowse": inex2005_case("fetchbrowse", fetchbrowse_ideal),
    "relevantincontext": inex2006_case("relevantincontext", context_ideal),
    "bestincontext": inex2006_case("bestincontext", bep_ideal),
    "trec": trec_case,
    "qa": qa_case,
    **{s: fol_case(s) for s in ("fol-thorough", "fol-focused", "fol-relevantincontext", "fol-bestincontext",
                                "fol-t2i")},
}


def make_case(strategy: str, seed: int, tmp_path: Path) -> Case:
    if strategy not in GENERATORS:
        pytest.fail(f"strategy {strategy!r} of the task table has no input generator: add one to GENERATORS "
                    "in tests/test_registry_properties.py")
    return GENERATORS[strategy](seed, tmp_path)


# ------------------------------------------------------------------ scoring ----

def measures_for(case: Case) -> list[Measure]:
    """Every registered measure of the case's strategy, its default set and the generator's pattern names."""
    out = [m for m in registry.measures() if case.strategy in m.strategies]
    for name in registry.default_metrics(case.strategy) + case.pattern_names:
        m = registry.find(name, case.strategy)
        assert m is not None, f"{name} does not resolve for {case.strategy}"
        if m not in out:
            out.append(m)
    return out


def scorer_for(case: Case, measures: list[Measure], settings: list[Setting] | None = None) -> Scorer:
    """A Scorer on a fresh copy of the recall-base, prepared as evaluate() prepares it."""
    s = Scorer(None, measures, settings or case.settings, case.params, case.collection)
    rb = case.recall_base()
    if s.releases_assessments:  # each topic prepared as it is read, then its assessment objects released
        for ta in rb.topics.values():
            s.prepare_topic(ta)
    s.recall_base = rb
    s.prepare()
    return s


def score(scorer: Scorer, run, empty_as_zero: bool):
    scorer.undefined = {}
    return scorer.score(run, empty_as_zero, [])


def _recording(m: Measure, log: dict[str, list]) -> Measure:
    """M, with every value it returns appended to log[m.name]."""
    if m.compute is not None:
        def compute(ti, f=m.compute):
            v = f(ti)
            log.setdefault(m.name, []).append(v)
            return v
        return records.replace(m, compute=compute)

    def compute_all(ri, topics, f=m.compute_all):
        vs = f(ri, topics)
        if isinstance(vs, dict):  # columns aligned with the topics: one dictionary per topic
            rows = [{n: (c[i] if isinstance(c, list) else float(c[i])) for n, c in vs.items()} for i in range(len(topics))]
            log.setdefault(m.name, []).extend(rows)
        else:
            log.setdefault(m.name, []).extend(vs)
        return vs
    return records.replace(m, compute_all=compute_all)


def _nan_as_text(values: dict) -> dict:
    """NaN (a value of the measures whose ``nan_is_value``) as the text 'NaN', so that equal results compare equal."""
    return {k: "NaN" if isinstance(v, float) and math.isnan(v) else v for k, v in values.items()}


def _values(results) -> list:
    """What must not change: per run and setting, the per-topic values (in order) and the averages."""
    return [(r.run_id, r.setting, [(t, _nan_as_text(v)) for t, v in r.per_topic.items()], _nan_as_text(r.average))
            for r in results]


def _in_unit(v: float) -> bool:
    return -TOL <= v <= 1 + TOL


# ------------------------------------------------------------------ properties ----

@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("strategy", STRATEGIES)
def test_outputs_bounds_and_declarations(strategy, seed, tmp_path):
    """1, 2: computed keys = declared outputs; finite values, in [0, 1] when bounded; declarations."""
    case = make_case(strategy, seed, tmp_path)
    measures = measures_for(case)
    p = case.params
    for m in measures:
        outputs = m.outputs(p)
        assert len(set(outputs)) == len(outputs), f"{m.name}: repeated output names"
        assert set(m.scalars(p)) <= set(outputs), f"{m.name}: scalars not among the outputs"
        assert set(m.ideal_one(p)) <= set(outputs), f"{m.name}: ideal_one not among the outputs"
        assert all(m.aggregate(n) in AGGREGATIONS for n in outputs), m.name
        for c in m.curves(p):
            assert set(c.names) <= set(outputs), f"{m.name}: curve {c.title} names not among the outputs"
            assert len(c.xs) == len(c.names), f"{m.name}: curve {c.title}"
    log: dict[str, list] = {}
    scorer = scorer_for(case, [_recording(m, log) for m in measures])
    for run in case.runs:
        for e in (False, True):
            for r in score(scorer, run, e):
                rows = list(r.per_topic.items()) + [("average", r.average)]
                for t, vals in rows:
                    assert set(vals) == set(scorer.names), f"topic {t}: {sorted(set(vals) ^ set(scorer.names))}"
                    for m in measures:
                        got = [vals[n] for n in m.outputs(p)]
                        if t != "average":
                            assert all(v is None for v in got) or None not in got, f"{m.name} topic {t}"
                        for n, v in zip(m.outputs(p), got):
                            assert v is None or math.isfinite(v) or (m.nan_is_value and math.isnan(v)), \
                                f"{m.name} {n} topic {t} ({r.setting}): {v}"
                            if m.bounded and v is not None and not math.isnan(v):
                                assert _in_unit(v), f"{m.name} {n} topic {t} ({r.setting}): {v} not in [0, 1]"
    for m in measures:
        computed = [v for v in log.get(m.name, []) if v is not None]
        assert computed, f"{m.name}: no topic defined in the generated case"
        for v in computed:
            assert set(v) == set(m.outputs(p)) and len(v) == len(m.outputs(p)), \
                f"{m.name} computed {sorted(set(v) ^ set(m.outputs(p)))} beyond or short of its outputs"


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("strategy", STRATEGIES)
def test_ideal_run_scores_one(strategy, seed, tmp_path):
    """3: the strategy's ideal run scores 1 on every output a measure declares in ideal_one."""
    case = make_case(strategy, seed, tmp_path)
    measures = measures_for(case)
    checked = dict.fromkeys((m.name for m in measures), 0)
    for s in case.settings:
        (r,) = score(scorer_for(case, measures, [s]), case.ideal_run(s), False)
        for m in measures:
            names = m.ideal_one(case.params)
            for t, vals in r.per_topic.items():
                if not names or vals[names[0]] is None:
                    continue
                for n in names:
                    assert abs(vals[n] - 1) <= TOL, f"{m.name} {n} = {vals[n]!r} for the ideal run (topic {t}, {s})"
                checked[m.name] += 1
    for m in measures:
        assert checked[m.name] or not m.ideal_one(case.params), f"{m.name}: no defined topic to check"


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("strategy", STRATEGIES)
def test_empty_run_and_missing_topics(strategy, seed, tmp_path):
    """4: an empty run scores 0 (or None, declared undefined) under -e and has no topic without -e;
    a topic missing from a run is scored as an empty ranking under -e."""
    case = make_case(strategy, seed, tmp_path)
    measures = measures_for(case)
    scorer = scorer_for(case, measures)
    empty = score(scorer, case.empty_run(), True)
    undefined = scorer.undefined
    for r in empty:
        assert list(r.per_topic) == sorted(case.topics, key=natural_key), "every recall-base topic"
        for t, vals in r.per_topic.items():
            for m in measures:
                want = 1.0 if m.name in case.empty_scores_one else 0.0
                for n in m.outputs(case.params):
                    v = vals[n]
                    if v is None:
                        assert t in undefined.get(r.setting, ()), f"{m.name} {n} topic {t}: None, not declared"
                    elif m.bounded:
                        assert v == want, f"{m.name} {n} = {v} for an empty ranking (topic {t}, {r.setting})"
    for r in score(scorer, case.empty_run(), False):
        # no topic: every average is undefined, except those a run-level measure gives itself
        assert r.per_topic == {} and all(v is None for n, v in r.average.items() if scorer.how[n] != "run")
    by_setting = {r.setting: r for r in empty}
    missing = 0
    for run in case.runs:
        for r in score(scorer, run, True):
            for t in set(case.topics) - set(run.topics):
                missing += 1
                assert _nan_as_text(r.per_topic[t]) == _nan_as_text(by_setting[r.setting].per_topic[t]), \
                    f"missing topic {t} ({r.setting})"
    assert missing, "the generator leaves no topic out of a run"


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("strategy", STRATEGIES)
def test_undefined_topics(strategy, seed, tmp_path):
    """5: a topic with nothing relevant is None for every output of every measure, is declared
    undefined, and the averages are those of the recall-base without it; for the measures whose NaN
    is a value (``nan_is_value``), it has values, some NaN, and the averages of those are NaN."""
    case = make_case(strategy, seed, tmp_path)
    assert case.nothing_relevant, "the generator makes a topic with nothing relevant"
    measures = measures_for(case)
    if strategy == "trec":
        _scored_as_trec_eval_scores_them(case, measures)
        return
    if any(m.nan_is_value for m in measures):
        assert all(m.nan_is_value for m in measures), "a strategy mixing both kinds needs its own check"
        _nan_topics(case, measures)
        return
    scorer = scorer_for(case, measures)
    smaller = case.without(case.nothing_relevant)
    reduced = scorer_for(smaller, measures)
    for run, run2 in zip(case.runs, smaller.runs, strict=True):  # (trec: the same run joined to the smaller qrels)
        assert set(case.nothing_relevant) <= set(run.topics), "the runs retrieve for the undefined topics"
        for e in (False, True):
            full = score(scorer, run, e)
            for r in full:
                for t in case.nothing_relevant:
                    assert all(v is None for v in r.per_topic[t].values()), f"topic {t} ({r.setting})"
                    assert t in scorer.undefined[r.setting]
            for a, b in zip(full, score(reduced, run2, e), strict=True):
                assert a.average == b.average, f"{a.run_id} {a.setting}: averages change with an undefined topic"
                assert {t: v for t, v in a.per_topic.items() if t not in case.nothing_relevant} == b.per_topic


def _scored_as_trec_eval_scores_them(case: Case, measures: list[Measure]) -> None:
    """trec (docs/measures.md §10.2): a topic with nothing relevant is scored as trec_eval scores it,
    never None, never undefined, and counted in the averages: each average is trec_eval's summary of
    the per-topic values (added left to right in byte order of the topic ids, over their number;
    sums for counts; exp of the mean log of max(v, 0.00001) for gm_)."""
    scorer = scorer_for(case, measures)
    for run in case.runs:
        assert set(case.nothing_relevant) <= set(run.topics), "the runs retrieve for the topics with nothing relevant"
        for e in (False, True):
            for r in score(scorer, run, e):
                assert not scorer.undefined, "no topic is undefined"
                topics = sorted(r.per_topic, key=lambda t: t.encode())
                assert set(case.nothing_relevant) <= set(topics)
                for n in r.measures:
                    vals = [r.per_topic[t][n] for t in topics]
                    assert None not in vals, n
                    m = next(m for m in measures if n in m.outputs(case.params))
                    if n == "num_rel" and e:  # trec_eval 10.0 -c: the judgements > 0 of every topic
                        continue
                    acc = 0.0
                    if n.startswith("gm_"):
                        for v in vals:
                            acc += math.log(max(v, 0.00001))
                        want = math.exp(acc / len(vals))
                    else:
                        for v in vals:
                            acc += v
                        # ir_measures' names (docs/measures.md §8.6): over every qrels topic, 0 where the run has none
                        irm = classic.parse_measure(n).family.startswith("irm:")
                        want = acc if m.integer else acc / (len(scorer.recall_base.topics) if irm else len(vals))
                    assert _nan_as_text({n: r.average[n]}) == _nan_as_text({n: want}), (n, r.average[n], want)


def _nan_topics(case: Case, measures: list[Measure]) -> None:
    """A topic with nothing relevant is a topic like any other, with NaN recall values that make their
    averages NaN (inex_eval, docs/fol.md §3): never None, never declared undefined."""
    scorer = scorer_for(case, measures)
    nan_seen = 0
    for run in case.runs:
        assert set(case.nothing_relevant) <= set(run.topics), "the runs retrieve for the topics with nothing relevant"
        for e in (False, True):
            for r in score(scorer, run, e):
                assert not scorer.undefined, "no topic is undefined"
                for t in case.nothing_relevant:
                    values = r.per_topic[t]
                    assert None not in values.values(), f"topic {t} ({r.setting})"
                    nans = [n for n, v in values.items() if math.isnan(v)]
                    nan_seen += len(nans)
                    for n in nans:
                        assert math.isnan(r.average[n]), f"{r.run_id} {n}: NaN at topic {t}, not in the average"
    assert nan_seen, "the topics with nothing relevant have NaN values"


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("strategy", STRATEGIES)
def test_determinism(strategy, seed, tmp_path):
    """6: the same values twice, in a fresh scorer, with topics in another order, each measure alone."""
    case = make_case(strategy, seed, tmp_path)
    measures = measures_for(case)
    scorer = scorer_for(case, measures)
    other = case.shuffled(random.Random(seed))
    shuffled = scorer_for(other, measures)
    for run, run2 in zip(case.runs, other.runs, strict=True):
        for e in (False, True):
            first = _values(score(scorer, run, e))
            assert _values(score(scorer, run, e)) == first, "scored twice"
            assert _values(score(scorer_for(case, measures), run, e)) == first, "a fresh scorer"
            assert _values(score(shuffled, run2, e)) == first, "topics in another order"
            for m in measures:
                names = m.outputs(case.params)
                alone = score(scorer_for(case, [m]), run, e)
                for (_, _, topics, avg), r in zip(first, alone, strict=True):
                    assert [(t, {n: v[n] for n in names}) for t, v in topics] == \
                        [(t, _nan_as_text(v)) for t, v in r.per_topic.items()], m.name
                    assert {n: avg[n] for n in names} == _nan_as_text(r.average), m.name


def _shipped_config(strategy: str) -> Path:
    for path in sorted((ROOT / "configs").glob("*.prop")):
        if load_config(path).strategy == strategy:
            return path
    pytest.fail(f"no config in configs/ for strategy {strategy!r}: ship one (the --jobs check uses it)")


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_jobs_invariance(strategy, tmp_path):
    """7: --jobs 2 gives the results, warnings and files of --jobs 1 (every measure of the strategy)."""
    case = make_case(strategy, 0, tmp_path)
    names = [m.name for m in measures_for(case)]
    config = load_config(_shipped_config(strategy), [f"RESULTS_DIR={tmp_path / 'results'}",
                                                     f"METRICS={', '.join(names)}"])
    assert len(config.runs) >= 2, "two runs at least, so that two workers score them"
    one = evaluate(config, jobs=1, write_to=tmp_path / "j1")
    two = evaluate(config, jobs=2, write_to=tmp_path / "j2")
    assert one.results and not one.problems
    assert _values(one.results) == _values(two.results)
    assert one.warnings == two.warnings and [str(p) for p in one.problems] == [str(p) for p in two.problems]
    for r in one.results:
        assert run_file_path(tmp_path / "j2", config.task, r).read_text() == run_file_text(r)
    files = sorted(p.relative_to(tmp_path / "j1") for p in (tmp_path / "j1").rglob("*") if p.is_file())
    assert files == sorted(p.relative_to(tmp_path / "j2") for p in (tmp_path / "j2").rglob("*") if p.is_file())


# ------------------------------------------------------------------ coverage ----

def test_every_strategy_has_a_generator():
    missing = sorted(set(STRATEGIES) - set(GENERATORS))
    assert not missing, (f"strategies {missing} of the task table have no input generator: add one to "
                         "GENERATORS in tests/test_registry_properties.py")
    assert not set(GENERATORS) - set(STRATEGIES), "a generator for a strategy no task has"


def test_every_measure_is_covered():
    """Every registered measure belongs to strategies of the task table (so the suite scores it), and
    every strategy whose names are patterns has a sample of names in its generator."""
    for m in registry.measures():
        assert m.strategies and m.strategies <= set(STRATEGIES), f"{m.name}: strategies {sorted(m.strategies)}"
    for strategy in registry.RESOLVERS:
        assert strategy in STRATEGIES
    # the trec sample reaches every family of the classic resolver
    families = {classic.parse_measure(n).family for n in TREC_PATTERNS + TREC_ONE_WHEN_EMPTY}
    families |= {classic.parse_measure(n).family for n in registry.default_metrics("trec")}
    assert families == set(classic.FAMILIES) - {"relstring"}, \
        f"add names of the classic families {sorted(set(classic.FAMILIES) - families)} to TREC_PATTERNS"


def test_measures_for_takes_every_registered_measure(tmp_path):
    """measures_for really gives each strategy every registered measure of it (and nothing else)."""
    for strategy in STRATEGIES:
        case = make_case(strategy, 0, tmp_path)
        got = measures_for(case)
        registered = [m for m in registry.measures() if strategy in m.strategies]
        assert all(m in got for m in registered)
        assert all(strategy in m.strategies for m in got)
        if registry.RESOLVERS.get(strategy):
            assert len(got) > len(registered), "the default set and the pattern names are added"
