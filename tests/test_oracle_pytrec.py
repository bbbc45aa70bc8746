"""``inexeval trec-eval --trec-eval-version=9.0.8`` against pytrec_eval (trec_eval 9.0.8's C code) on random inputs.

The cases are tests/trecgen.py's (graded and negative judgements, topics without relevant documents,
score ties and near-ties that differ only beyond single precision -- trec_eval 9.0.8 keeps scores as C
floats, so those are ties there --, long docnos, topic ids in byte versus numeric order ...), with every
qrels topic in the run (pytrec_eval evaluates only the topics of the run, and ``-c`` is left out).

pytrec_eval gives each topic's values as doubles; the drop-in prints 4 decimals.  To compare at 1e-9
the drop-in is run twice through its command line (:func:`inexeval.dropins.trec_eval.cli.main`, in this process):

- plainly: every printed line must be what trec_eval prints for pytrec_eval's value (``%6.4f`` of a value
  within 1e-9 of it; counts as integers), the same labels for the same topics;
- with ``-Z`` and a Z-score file giving every (topic, label) mean 0 and deviation 2**-20: trec_eval
  prints (value - 0) / 2**-20, so each printed Z score times 2**-20 is the value to about 5e-11 (the
  scaling by a power of two is exact), per topic and in the summary (the mean of the topics' Z scores,
  i.e. the mean of the values scaled).  ``gm_map``/``gm_bpref`` are left out of the Z comparison: trec_eval
  takes the geometric mean of the topics' Z scores, which is no longer the scaled geometric mean; their
  summaries are checked in the plain run.

Summaries from pytrec_eval's per-topic values follow trec_eval: the mean over the evaluated topics
(``num_*``: the sum; ``gm_*``: exp of the mean of pytrec_eval's per-topic log(max(v, 0.00001))).
Tolerance: rel/abs 1e-9.
"""

from __future__ import annotations

import io
import math
import random
import shlex

import pytest
import pytrec_eval
from pytrec_eval_ext import RelevanceEvaluator

from inexeval.dropins.trec_eval.cli import main
import trecgen

pytestmark = pytest.mark.slow  # random qrels and runs against pytrec_eval

TOL = 1e-9
SCALE = 2.0 ** -20  # the Z-score file's deviation: printed Z = value / SCALE, exactly
#: Measures whose printed label carries its parameters in trec_eval (utility_2,-1,0,0) but not in
#: pytrec_eval's result (utility).
PARAM_LABELS = ("utility", "11pt_avg", "set_F", "G", "ndcg", "ndcg_rel", "Rndcg", "binG")
NOT_VALUES = ("runid", "num_q", "relstring")

MEASURE_SETS = {
    "official": ["official"],
    "all_trec": ["all_trec"],
    "cutoffs": ["P.3,7", "ndcg_cut.3", "map_cut.2,5", "iprec_at_recall.0.25,0.5", "Rprec_mult.0.5,1.5",
                "success.2", "recall.4", "relative_P.5"],
    "params": ["utility.2,-1,0,0", "11pt_avg.0.25,0.5,0.75", "set_F.0.5", "G", "ndcg", "ndcg_rel", "Rndcg",
               "binG", "infAP", "gm_bpref", "set_map", "set_recall", "set_P", "set_relative_P",
               "num_nonrel_judged_ret"],
    # each gain measure with parameters next to the others without (their labels then differ)
    "gains_ndcg": ["ndcg.1=3,2=9", "G", "ndcg_rel", "Rndcg", "binG"],
    "gains_G": ["G.1=2", "ndcg", "ndcg_rel", "Rndcg"],
    "gains_fractional": ["ndcg.1=0.5,2=2.25", "G", "ndcg_rel"],
    "gains_Rndcg": ["Rndcg.1=2,3=7", "ndcg", "G"],
    "gains_ndcg_rel": ["ndcg_rel.0=1,1=2,2=4", "ndcg", "Rndcg"],
}
OPTIONS = {"l1": (1, False), "l2": (2, False), "l3": (3, False), "J": (1, True), "l2J": (2, True)}
SEEDS = 6


def pytrec_measures(names: list[str]) -> set[str]:
    out: set[str] = set()
    for n in names:
        out |= set(pytrec_eval.supported_nicknames[n]) if n in pytrec_eval.supported_nicknames else {n}
    return out - {"runid", "relstring"}


def parse_qrels(text: str) -> dict[str, dict[str, int]]:
    q: dict[str, dict[str, int]] = {}
    for line in text.splitlines():
        if line.startswith("#"):
            continue
        qid, _, docno, rel = line.split()
        q.setdefault(qid, {})[docno] = int(rel)
    return q


def parse_run(text: str) -> dict[str, dict[str, float]]:
    r: dict[str, dict[str, float]] = {}
    for line in text.splitlines():
        f = line.split()
        if not f or f[0].startswith("#"):
            continue
        r.setdefault(f[0], {})[f[2]] = float(f[4])
    return r


def run_cli(argv: list[str]) -> tuple[int, list[tuple[str, str, str]], str]:
    out, err = io.BytesIO(), io.StringIO()
    status = main(list(argv), out, err)
    rows = []
    for line in out.getvalue().decode("utf-8", "surrogateescape").splitlines():
        label, qid, value = line.split("\t")
        rows.append((label.strip(), qid, value.strip()))
    return status, rows, err.getvalue()


def pytrec_key(label: str, keys) -> str | None:
    """pytrec_eval's name for the printed LABEL (``ndcg_rel_0=1,2=4`` -> ``ndcg_rel``, not ``ndcg``)."""
    if label in keys:
        return label
    bases = [b for b in PARAM_LABELS if label.startswith(b + "_") and b in keys]
    return max(bases, key=len) if bases else None


def summary(label: str, values: list[float]) -> float:
    if label.startswith("num_"):
        return math.fsum(values)
    if label.startswith("gm_"):
        return math.exp(math.fsum(values) / len(values))
    return math.fsum(values) / len(values)


def prints_as(text: str, want: float, integer: bool) -> bool:
    """Whether TEXT is what trec_eval prints for a value within TOL of WANT (NaN: C's ``-nan``/``nan``)."""
    if math.isnan(want):
        return text in ("-nan", "nan")
    if integer:
        return text.lstrip("-").isdigit() and int(text) == round(want)
    slack = TOL * max(1.0, abs(want))
    return text in {("%6.4f" % v).strip() for v in (want - slack, want, want + slack)}


@pytest.mark.parametrize("seed", range(SEEDS))
@pytest.mark.parametrize("opt", list(OPTIONS))
@pytest.mark.parametrize("mset", list(MEASURE_SETS))
def test_against_pytrec_eval(tmp_path, monkeypatch, mset, opt, seed):
    rng = random.Random(f"pytrec/{mset}/{opt}/{seed}")
    case = trecgen.qrels_and_run(rng, missing=0.0)
    trecgen.write_case(tmp_path, {"qrels": case.qrels, "run": case.run})
    monkeypatch.chdir(tmp_path)
    level, judged_only = OPTIONS[opt]
    measures = MEASURE_SETS[mset]

    qrels, run = parse_qrels(case.qrels), parse_run(case.run)
    ev = RelevanceEvaluator(query_relevance=qrels, measures=pytrec_measures(measures), relevance_level=level,
                            judged_docs_only_flag=judged_only)
    theirs = ev.evaluate({q: docs for q, docs in run.items() if q in qrels})
    topics = sorted(theirs)
    assert topics == sorted(qrels)  # every qrels topic is in the run

    argv = ["--trec-eval-version=9.0.8", "-q", "-l", str(level), *(["-J"] if judged_only else [])]
    for m in measures:
        argv += ["-m", m]
    argv += ["qrels", "run"]
    where = f"\n  command: cd {tmp_path} && inexeval trec-eval {shlex.join(argv)}"

    # plain: the printed values are trec_eval's rendering of pytrec_eval's
    status, rows, err = run_cli(argv)
    assert (status, err) == (0, ""), f"status {status}, stderr {err!r}{where}"
    keys = set(theirs[topics[0]])
    seen: dict[str, set[str]] = {}
    for label, qid, text in rows:
        key = pytrec_key(label, keys)
        if key is None or label in NOT_VALUES:
            continue
        seen.setdefault(key, set()).add(qid)
        integer = label.startswith("num_")
        if qid == "all":
            want = summary(key, [theirs[t][key] for t in topics])
        else:
            want = theirs[qid][key]
        assert prints_as(text, want, integer), f"{label} {qid}: printed {text}, pytrec_eval {want!r}{where}"
    for key in keys - set(NOT_VALUES):
        want_topics = {"all"} if key.startswith("gm_") else set(topics) | {"all"}
        assert seen.get(key) == want_topics, f"{key}: printed for {sorted(seen.get(key, ()))}{where}"

    # -Z with deviation 2**-20: the values to ~5e-11
    labels = sorted({label for label, _, _ in rows if label not in NOT_VALUES})
    (tmp_path / "zscores").write_text("".join(f"{t} {lab} 0 {SCALE!r}\n" for t in topics for lab in labels))
    zargv = argv[:-2] + ["-Z", "zscores", "qrels", "run"]
    where = f"\n  command: cd {tmp_path} && inexeval trec-eval {shlex.join(zargv)}"
    status, zrows, err = run_cli(zargv)
    assert (status, err) == (0, ""), f"status {status}, stderr {err!r}{where}"
    checked = 0
    for zlabel, qid, text in zrows:
        label = zlabel[1:]
        key = pytrec_key(label, keys)
        if not zlabel.startswith("Z") or key is None or label in NOT_VALUES or key.startswith("gm_"):
            continue
        got = float(text) * SCALE
        if qid == "all":
            want = summary(key, [theirs[t][key] for t in topics])
        else:
            want = theirs[qid][key]
        assert got == pytest.approx(want, rel=TOL, abs=TOL, nan_ok=True), \
            f"{label} {qid}: {got!r} vs pytrec_eval {want!r}{where}"
        checked += 1
    assert checked >= len(topics)


def test_generator_has_near_ties():
    """Some cases rank scores equal in single precision but not in double (ties in 9.0.8 only)."""
    import numpy as np

    found = 0
    for seed in range(SEEDS):
        rng = random.Random(f"pytrec/official/l1/{seed}")
        run = parse_run(trecgen.qrels_and_run(rng, missing=0.0).run)
        for docs in run.values():
            s = list(docs.values())
            found += len(set(np.float32(s).tolist())) < len(set(s))
    assert found
