"""The agreement between judgement sets (docs/measures.md §13) against independent implementations, at 1e-9:

- TREC AutoJudge's evaluator (``autojudge-evaluate``): its ``grade_agreement`` and ``set_overlap``
  (``qrel-evaluate``) on random pairs of graded qrels, and its ``tauap_b`` (Urbano and Marrero's
  τ_AP-b, the ``pyircore`` port) on random run means with and without ties;
- scikit-learn's ``cohen_kappa_score`` (κ unweighted, linear, quadratic), the ``krippendorff``
  package (α nominal, ordinal, interval, two or more sets, missing values) and statsmodels'
  ``fleiss_kappa``.

The label figures are taken from the rows ``inexeval.assessments.judges.compare_judgements`` writes
for qrels files (the whole path: reading, pairing by topic and document, the per-topic and pooled
confusion matrices).  Where the oracle's convention differs the test says so and compares where
both are defined.

autojudge-evaluate's package ``__init__`` (and autojudge_base's) downloads NLTK data when imported,
which this machine cannot; its modules are loaded without running those ``__init__`` files
(:func:`_autojudge`), so the functions compared are its own, unchanged.
"""

from __future__ import annotations

import importlib.util
import math
import sys
import types
import warnings
from pathlib import Path

import numpy as np
import pytest

from inexeval.assessments import labels as L
from inexeval.assessments.judges import JudgesOptions, compare_judgements
from inexeval.assessments.tau_ap import tau_ap, tau_ap_b

krippendorff = pytest.importorskip("krippendorff", reason="krippendorff (test-only dependency) is not installed")
sk_metrics = pytest.importorskip("sklearn.metrics", reason="scikit-learn (test-only dependency) is not installed")
inter_rater = pytest.importorskip("statsmodels.stats.inter_rater", reason="statsmodels is not installed")


def _autojudge():
    """(nugget_doc_eval, pyircore, qrels) modules of autojudge-evaluate / autojudge-base, their packages'
    ``__init__`` not run (module docstring); skip when the package is not installed."""
    for name in ("autojudge_base", "autojudge_evaluate"):
        if name in sys.modules:
            continue  # already imported (whole, or as here)
        spec = importlib.util.find_spec(name)
        if spec is None or spec.submodule_search_locations is None:
            pytest.skip("autojudge-evaluate (test-only dependency) is not installed")
        package = types.ModuleType(name)
        package.__path__ = list(spec.submodule_search_locations)
        sys.modules[name] = package
    from autojudge_base import qrels
    from autojudge_evaluate import nugget_doc_eval, pyircore

    return nugget_doc_eval, pyircore, qrels


# --------------------------------------------------------------------------- random qrels


def _random_qrels(rng, top: int, topics: int = 8) -> tuple[dict, dict]:
    """Two sets of graded qrels (grades 0..TOP) sharing most documents: some judged by one side only,
    one topic judged by A only and one by B only; B's grades often A's, sometimes off by one or more."""
    a, b = {}, {}
    for t in range(topics):
        docs = [f"D{t}-{i}" for i in range(int(rng.integers(4, 40)))]
        ga = {d: int(rng.integers(0, top + 1)) for d in docs if rng.random() < 0.85}
        noise = rng.integers(-2, 3, len(docs))
        gb = {d: int(np.clip(ga.get(d, rng.integers(0, top + 1)) + (noise[k] if rng.random() < 0.4 else 0), 0, top))
              for k, d in enumerate(docs) if rng.random() < 0.85}
        if t != topics - 1:
            a[str(t + 1)] = ga
        if t != topics - 2:
            b[str(t + 1)] = gb
    return a, b


def _write(path: Path, qrels: dict) -> Path:
    path.write_text("".join(f"{t} 0 {d} {g}\n" for t, docs in qrels.items() for d, g in docs.items()))
    return path


def _config(tmp: Path, qa: Path) -> dict:
    runs = tmp / "runs"
    runs.mkdir(exist_ok=True)
    (runs / "unused.txt").write_text("not read without scoring the runs\n")
    return {"TASK": "trec", "ASSESSMENTS_DIR": str(qa), "SUBMISSIONRUNS_DIR": str(runs), "RESULTS_DIR": str(tmp / "r")}


def _rows(tmp: Path, a: dict, b: dict, missing: int | None, *more: dict) -> dict:
    qa = _write(tmp / "a.txt", a)
    others = [_write(tmp / "b.txt", b)] + [_write(tmp / f"x{k}.txt", m) for k, m in enumerate(more)]
    res = compare_judgements(_config(tmp, qa), others, JudgesOptions(missing=missing, score_runs=False))
    return {(r[1], r[2], r[3], r[4]): r[5] for r in res.rows}


def _close(mine, theirs, what) -> None:
    assert mine is not None, (what, theirs)
    assert abs(mine - float(theirs)) <= 1e-9, (what, mine, theirs)


def _aj_qrels(qrels_module, q: dict):
    return qrels_module.Qrels([qrels_module.QrelRow(t, d, g) for t, docs in q.items() for d, g in docs.items()])


# --------------------------------------------------------------------------- labels vs autojudge


@pytest.mark.parametrize("top", [3, 4])
@pytest.mark.parametrize("seed", range(4))
def test_labels_equal_autojudge_grade_agreement_on_the_union(tmp_path, top, seed):
    """autojudge's ``grade_agreement(on_missing="default", default_grade=0)`` pairs the union of both
    sides' documents per topic, a missing one graded 0: our level ``*_union`` with ``--missing
    default:0``.  Its ``kappa_weighted`` is our ``kappa_linear``, ``kripp_alpha`` our ``alpha_ordinal``
    (graded), ``kappa_binary[(1, 1)]`` our binary ``kappa`` and ``jaccard`` our binary ``jaccard`` (with
    REL_LEVEL 1).  autojudge calls κ undefined (NaN) whenever both sides use a single grade, where
    Cohen's formula gives 0 for two different grades: compared where autojudge defines it."""
    nde, _, qm = _autojudge()
    a, b = _random_qrels(np.random.default_rng(seed), top)
    rows = _rows(tmp_path, a, b, 0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        found = nde.grade_agreement(_aj_qrels(qm, a), _aj_qrels(qm, b), on_missing="default", default_grade=0,
                                    truth_max_grade=top, predict_max_grade=top)
    assert {r.topic_id for r in found} == set(a) | set(b)
    compared = 0
    for r in found:
        for theirs, key in ((r.kappa_weighted, ("graded_union", "kappa_linear")),
                            (r.kripp_alpha, ("graded_union", "alpha_ordinal")),
                            (r.kappa_binary[1, 1], ("binary_union", "kappa")),
                            (r.jaccard, ("binary_union", "jaccard"))):
            if theirs is None or math.isnan(theirs):
                continue
            _close(rows[r.topic_id, key[0], "b.txt", key[1]], theirs, (r.topic_id, key))
            compared += 1
    assert compared >= 3 * len(found)


@pytest.mark.parametrize("seed", range(4))
def test_binary_precision_recall_f1_equal_autojudge_set_overlap(tmp_path, seed):
    """autojudge's ``set_overlap`` compares the relevant documents (grade ≥ 1) of each side, judged or
    not by the other: our ``binary_union`` with a missing grade below REL_LEVEL.  It gives 0 where a
    ratio is 0/0 (no relevant document for B, for A, or for either), where we write ``-``."""
    nde, _, qm = _autojudge()
    a, b = _random_qrels(np.random.default_rng(100 + seed), 3)
    rows = _rows(tmp_path, a, b, 0)
    found = nde.set_overlap(_aj_qrels(qm, a), _aj_qrels(qm, b), on_missing="default")
    for r in found:
        for q in ("precision", "recall", "f1"):
            mine = rows.get((r.topic_id, "binary_union", "b.txt", q))
            if mine is None:
                assert getattr(r, q) == 0.0
            else:
                _close(mine, getattr(r, q), (r.topic_id, q))
        # tp, fp, fn are our confusion cells of the binary view
        assert rows[r.topic_id, "binary_union", "b.txt", "confusion_1_1"] == r.tp
        assert rows[r.topic_id, "binary_union", "b.txt", "confusion_0_1"] == r.fp
        assert rows[r.topic_id, "binary_union", "b.txt", "confusion_1_0"] == r.fn


@pytest.mark.parametrize("seed", range(3))
def test_labels_on_the_items_both_judged_equal_autojudge_on_those_items(tmp_path, seed):
    """Level ``graded``/``binary`` (the documents both sets judged) is autojudge's ``grade_agreement``
    fed the qrels restricted to those documents, topics judged by one side only left out
    (``on_missing="skip"``)."""
    nde, _, qm = _autojudge()
    a, b = _random_qrels(np.random.default_rng(200 + seed), 4)
    rows = _rows(tmp_path, a, b, None)
    ra = {t: {d: g for d, g in docs.items() if d in b.get(t, {})} for t, docs in a.items() if t in b}
    rb = {t: {d: g for d, g in docs.items() if d in a.get(t, {})} for t, docs in b.items() if t in a}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        found = nde.grade_agreement(_aj_qrels(qm, ra), _aj_qrels(qm, rb), on_missing="skip", truth_max_grade=4,
                                    predict_max_grade=4)
    assert found
    for r in found:
        for theirs, level, q in ((r.kappa_weighted, "graded", "kappa_linear"), (r.kripp_alpha, "graded", "alpha_ordinal"),
                                 (r.kappa_binary[1, 1], "binary", "kappa"), (r.jaccard, "binary", "jaccard")):
            if not math.isnan(theirs):
                _close(rows[r.topic_id, level, "b.txt", q], theirs, (r.topic_id, level, q))


# --------------------------------------------------------------------------- labels vs sklearn, krippendorff


def _pairs(a: dict, b: dict, topic: str | None) -> tuple[np.ndarray, np.ndarray]:
    """The grades of the documents both judged, of TOPIC (None: every topic, pooled)."""
    xs, ys = [], []
    for t in a:
        if t in b and (topic is None or t == topic):
            for d, g in a[t].items():
                if d in b[t]:
                    xs.append(g)
                    ys.append(b[t][d])
    return np.array(xs), np.array(ys)


@pytest.mark.parametrize("top", [3, 4])
@pytest.mark.parametrize("seed", range(3))
def test_kappas_and_alphas_equal_sklearn_and_krippendorff(tmp_path, top, seed):
    """Per topic and pooled (topic ``all``): κ unweighted, linear and quadratic = scikit-learn's
    ``cohen_kappa_score(a, b, weights=..., labels=range(lowest, highest + 1))`` (the grades' own
    distances); α nominal, ordinal, interval = ``krippendorff.alpha`` of the 2 × n matrix; agreement,
    bias and limits of agreement from numpy directly."""
    a, b = _random_qrels(np.random.default_rng(300 + seed), top)
    rows = _rows(tmp_path, a, b, None)
    labels = list(range(0, top + 1))
    for topic in [*sorted(set(a) & set(b)), None]:
        x, y = _pairs(a, b, topic)
        t = "all" if topic is None else topic
        for weights, q in ((None, "kappa"), ("linear", "kappa_linear"), ("quadratic", "kappa_quadratic")):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                theirs = sk_metrics.cohen_kappa_score(x, y, weights=weights, labels=labels)
            if math.isnan(theirs):
                assert rows[t, "graded", "b.txt", q] is None
            else:
                _close(rows[t, "graded", "b.txt", q], theirs, (t, q))
        for metric in ("nominal", "ordinal", "interval"):
            try:
                theirs = krippendorff.alpha(reliability_data=np.array([x, y], dtype=float), level_of_measurement=metric)
            except ValueError:  # one value only: undefined
                theirs = math.nan
            if math.isnan(theirs):
                assert rows[t, "graded", "b.txt", f"alpha_{metric}"] is None
            else:
                _close(rows[t, "graded", "b.txt", f"alpha_{metric}"], theirs, (t, metric))
        _close(rows[t, "graded", "b.txt", "agreement"], np.mean(x == y), t)
        d = (y - x).astype(float)
        _close(rows[t, "graded", "b.txt", "bias"], d.mean(), t)
        if d.size >= 2:
            _close(rows[t, "graded", "b.txt", "loa_high"], d.mean() + 1.96 * d.std(ddof=1), t)
            _close(rows[t, "graded", "b.txt", "loa_low"], d.mean() - 1.96 * d.std(ddof=1), t)
        assert rows[t, "graded", "b.txt", "both"] == x.size


@pytest.mark.parametrize("seed", range(3))
def test_several_sets_alpha_with_missing_and_fleiss_kappa(tmp_path, seed):
    """Three and four sets: α over every document any set judged, each with the grades of the sets that
    judged it = ``krippendorff.alpha`` with NaN for the missing ones; Fleiss' κ over the documents every
    set judged = statsmodels' ``fleiss_kappa``; with ``--missing default:0`` both on the union, a missing
    judgement graded 0."""
    rng = np.random.default_rng(400 + seed)
    a, b = _random_qrels(rng, 3)
    c, _ = _random_qrels(rng, 3)
    d, _ = _random_qrels(rng, 3)
    sets = [a, b, c, d][: 3 + seed % 2]
    rows = _rows(tmp_path, *sets[:2], 0, *sets[2:])
    domain = list(range(4))
    for topic in [*sorted(set().union(*sets)), None]:
        docs = sorted({dd for s in sets for t, docs in s.items() if topic in (None, t) for dd in
                       ((t, x) for x in docs)})
        data = np.array([[s.get(t, {}).get(x, np.nan) for t, x in docs] for s in sets], dtype=float)
        t = "all" if topic is None else topic
        for level, matrix in (("graded", data), ("graded_union", np.nan_to_num(data, nan=0.0))):
            for metric in ("nominal", "ordinal", "interval"):
                try:
                    theirs = krippendorff.alpha(reliability_data=matrix, level_of_measurement=metric,
                                                value_domain=domain)
                except ValueError:
                    theirs = math.nan
                mine = rows[t, level, "all", f"alpha_{metric}"]
                if math.isnan(theirs):
                    assert mine is None, (t, level, metric)
                else:
                    _close(mine, theirs, (t, level, metric))
            full = matrix[:, ~np.isnan(matrix).any(axis=0)].astype(int)
            mine = rows[t, level, "all", "fleiss_kappa"]
            if full.shape[1] == 0:
                assert mine is None
                continue
            counts = np.stack([(full == g).sum(axis=0) for g in domain], axis=1)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                theirs = inter_rater.fleiss_kappa(counts)
            if math.isnan(theirs):
                assert mine is None
            else:
                _close(mine, theirs, (t, level, "fleiss"))


def test_weighted_kappa_uses_the_grades_distances_not_their_positions():
    """Grades 0, 1 and 3 (none 2): the linear weight of 1 and 3 is 2, as scikit-learn with labels 0..3
    weighs them (without the unused 2 in labels it would weigh them 1)."""
    x = np.array([0, 1, 3, 3, 1, 0, 3])
    y = np.array([0, 3, 3, 1, 1, 1, 0])
    values = np.array([0, 1, 3])
    c = L.confusion(np.searchsorted(values, x), np.searchsorted(values, y), 3)
    theirs = sk_metrics.cohen_kappa_score(x, y, weights="linear", labels=[0, 1, 2, 3])
    _close(L.weighted_kappa(c, values, 1), theirs, "linear")
    assert abs(L.weighted_kappa(c, values, 1) - sk_metrics.cohen_kappa_score(x, y, weights="linear")) > 1e-3


# --------------------------------------------------------------------------- tau_AP vs autojudge


@pytest.mark.parametrize("ties", [False, True])
@pytest.mark.parametrize("seed", range(5))
def test_tau_ap_and_tau_ap_b_equal_autojudge(seed, ties):
    """``tau_ap_b`` = autojudge's ``tauap_b`` (the symmetric mean, larger scores better, ``pyircore``'s
    ``check_inputs`` negating both); ``tau_ap`` = its one-sided ``tauap_b_ties(-x, -y)`` (x the
    reference), which is Yilmaz et al.'s τ_AP when y has no ties.  With ties the scores are multiples
    of 1/8, exact in binary, so that ties are the same for both (ours allow 1e-9, theirs none).
    autojudge gives 0 where every run is tied in one ranking; we call that undefined: not drawn here."""
    _, pyircore, _ = _autojudge()
    rng = np.random.default_rng(seed)
    checked = 0
    for _ in range(60):
        n = int(rng.integers(3, 40))
        if ties:
            x = rng.integers(0, 6, n) / 8
            y = np.clip(x + rng.integers(-2, 3, n) / 8, 0, 1)
        else:
            x = rng.random(n)
            y = x + rng.normal(0, 0.3, n)
        if len(set(x)) < 2 or len(set(y)) < 2:
            continue
        _close(tau_ap_b(x, y), pyircore.tauap_b(x, y), "tau_ap_b")
        _close(tau_ap(x, y), pyircore.tauap_b_ties(-x, -y), "tau_ap")
        if not ties:  # without ties the symmetric mean is the mean of both one-sided tau_AP
            _close(tau_ap_b(x, y), (tau_ap(x, y) + tau_ap(y, x)) / 2, "mean")
        checked += 1
    assert checked >= 40
