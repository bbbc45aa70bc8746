"""``inexeval assessments``: statistics per grade, agreement between two assessors, and how much the
run ranking depends on the assessor (docs/formats.md §10; seed 001 §2, Tables 1–3).

Every assessment format is first turned into the same form, one :class:`Judged` per topic and
assessor: for each level (``article``, ``element``, ``text``) an :class:`Items` table of the judged
items (key, size, rsize, relevant, and a boolean mask per grade).  Statistics, agreement and the
agreement on mutually agreed elements are then computed by one code path on those tables, with numpy:

- INEX 2005/2006 assessment files: elements (key ``file TAB path``) and articles (the file; relevant
  when any element is; graded by its root element); grades ``E?``, ``E1``, ``E2`` where exhaustivity
  is given, and ``S1`` (0, 1/3], ``S2`` (1/3, 2/3], ``S3`` (2/3, 1] of specificity rsize / size,
  compared in integers (3·rsize ≤ size ...), so a boundary lands where the interval says;
- TREC qrels: documents (level ``article``), one grade per relevance level;
- FOL passage qrels: articles (size the document length, rsize the relevant characters, grades
  ``S1``–``S3``) and passages (level ``text``), whose character positions give the agreement on
  highlighted text; INEX 2006 pools get the same spans from their ``<passage>``s
  (:mod:`inexeval.assessments.highlights`).

A grade that an item belongs to requires the item to be relevant (rsize > 0), except the TREC
levels, which are the judgements themselves (level 0 included).  Rows are
``(section, topic, level, grade, quantity, value)``; :func:`across_topics` adds the rows of
``mean``, ``min``, ``max``, ``median``, ``stdev`` (population) over the topics where a value is
defined, and ``min_topic`` / ``max_topic`` naming where each minimum and maximum is.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

import numpy as np

from inexeval.aggregate import natural_key
from inexeval.records import field, record

E_GRADES = ("E?", "E1", "E2")
S_GRADES = ("S1", "S2", "S3")
LEVELS = ("article", "element", "text")
ACROSS = ("mean", "min", "max", "median", "stdev")
#: E codes of :class:`inexeval.model.Judgement` (E_TOO_SMALL = -1) -> grade; unknown e is -9 here
_E_CODE = {"E?": -1, "E1": 1, "E2": 2}

Row = tuple  # (section, topic, level, grade, quantity, value)


@record
class Items:
    """The judged items of one level of one topic for one assessor."""

    keys: np.ndarray  # str, unique
    size: np.ndarray  # float64, NaN when unknown
    rsize: np.ndarray  # float64, NaN when unknown
    relevant: np.ndarray  # bool
    grades: dict[str, np.ndarray] = field(default_factory=dict)  # grade -> bool mask

    def keys_of(self, grade: str) -> np.ndarray:
        """The keys of the relevant items (``all``) or of the items of ``grade``."""
        return self.keys[self.relevant if grade == "all" else self.grades[grade]]


@record
class Judged:
    """One assessor's judgements of one topic, as :class:`Items` per level."""

    topic: str
    source: str
    levels: dict[str, Items]
    #: article -> highlighted character spans ``(start, end)``, where positions are known (FOL)
    spans: dict[str, np.ndarray] | None = None
    pool: str | None = None


# --------------------------------------------------------------------------- grades


def specificity_grades(size: np.ndarray, rsize: np.ndarray, relevant: np.ndarray) -> dict[str, np.ndarray]:
    """S1 (0, 1/3], S2 (1/3, 2/3], S3 (2/3, 1] of rsize / size, in exact integer arithmetic."""
    s = np.asarray(size, dtype=np.int64)
    r3 = 3 * np.asarray(rsize, dtype=np.int64)
    rel = np.asarray(relevant, dtype=bool) & (s > 0)
    return {"S1": rel & (r3 <= s), "S2": rel & (r3 > s) & (r3 <= 2 * s), "S3": rel & (r3 > 2 * s)}


def _items(keys: Sequence[str], size, rsize, relevant, grades: dict[str, np.ndarray]) -> Items:
    return Items(np.array(keys, dtype=str) if len(keys) else np.array([], dtype="U1"),
                 np.asarray(size, dtype=float), np.asarray(rsize, dtype=float),
                 np.asarray(relevant, dtype=bool), grades)


def _inex_grades(e: np.ndarray, size: np.ndarray, rsize: np.ndarray, relevant: np.ndarray,
                 grade_names: Sequence[str]) -> dict[str, np.ndarray]:
    spec = specificity_grades(size, rsize, relevant)
    out = {}
    for g in grade_names:
        out[g] = (relevant & (e == _E_CODE[g])) if g in _E_CODE else spec[g]
    return out


def from_inex(ta, grade_names: Sequence[str]) -> Judged:
    """A :class:`~inexeval.model.TopicAssessment` -> element and article items."""
    keys, art, size, rsize, e, root = [], [], [], [], [], []
    for f, fa in ta.files.items():
        for p, j in fa.elements.items():
            keys.append(f"{f}\t{p}")
            art.append(f)
            size.append(j.size)
            rsize.append(j.rsize)
            e.append(-9 if j.e is None else j.e)
            root.append(p.count("/") == 1)
    size_a, rsize_a = np.array(size, dtype=np.int64), np.array(rsize, dtype=np.int64)
    e_a, root_a = np.array(e, dtype=np.int64), np.array(root, dtype=bool)
    rel = rsize_a > 0
    element = _items(keys, size_a, rsize_a, rel, _inex_grades(e_a, size_a, rsize_a, rel, grade_names))
    # articles: every judged file; relevant when an element is; graded (and sized) by its root element
    files = list(ta.files)
    index = {f: k for k, f in enumerate(files)}
    art_idx = np.array([index[f] for f in art], dtype=np.int64)
    a_rel = np.bincount(art_idx[rel], minlength=len(files)) > 0
    a_size, a_rsize = np.full(len(files), np.nan), np.full(len(files), np.nan)
    a_size[art_idx[root_a]] = size_a[root_a]
    a_rsize[art_idx[root_a]] = rsize_a[root_a]
    a_grades = {}
    for g, mask in element.grades.items():
        m = np.zeros(len(files), dtype=bool)
        m[art_idx[root_a & mask]] = True
        a_grades[g] = m & a_rel
    article = _items(files, a_size, a_rsize, a_rel, a_grades)
    return Judged(ta.topic, ta.source, {"article": article, "element": element}, pool=ta.pool)


def from_trec(topic: str, docnos: np.ndarray, rels: np.ndarray, rel_level: int, levels: Sequence[str],
              source: str) -> Judged:
    """One topic of TREC qrels -> documents (level ``article``), one grade per relevance level."""
    docnos = np.asarray(docnos)
    rels = np.asarray(rels, dtype=np.int64)
    docs, first = np.unique(docnos, return_index=True)  # a document judged twice: its first line
    rels = rels[first]
    grades = {g: rels == int(g) for g in levels}
    nan = np.full(len(docs), np.nan)
    return Judged(topic, source, {"article": Items(docs, nan, nan.copy(), rels >= rel_level, grades)})


def from_fol(topic: str, fol_topic, source: str) -> Judged:
    """One topic of FOL qrels -> articles (document length, relevant characters) and passages (``text``)."""
    arts = list(fol_topic.judgements)
    size = np.array([j.doc_length for j in fol_topic.judgements.values()], dtype=np.int64)
    rsize = np.array([j.rel_chars for j in fol_topic.judgements.values()], dtype=np.int64)
    rel = rsize > 0
    article = _items(arts, size, rsize, rel, specificity_grades(np.maximum(size, rsize), rsize, rel))
    pkeys, plen, spans = [], [], {}
    for a, j in fol_topic.judgements.items():
        for o, n in j.passages:
            pkeys.append(f"{a}\t{o}\t{n}")
            plen.append(n)
        if j.spans:
            spans[a] = np.array(j.spans, dtype=np.int64)
    plen_a = np.array(plen, dtype=np.int64)
    text = _items(pkeys, plen_a, plen_a, plen_a > 0, {})
    return Judged(topic, source, {"article": article, "text": text}, spans=spans)


# --------------------------------------------------------------------------- statistics


def _mean(v: np.ndarray) -> float | None:
    return float(v.mean()) if v.size else None


def topic_stats(j: Judged, levels: Sequence[str], grades: Sequence[str]) -> list[Row]:
    """Seed 001 Table 1, one topic: per level and grade, the number of items, their average size and
    their average proportion of relevant text (100 · rsize / size, over the items of size > 0)."""
    rows = []
    for level in levels:
        it = j.levels.get(level)
        if it is None:
            continue
        for g in ("all", *(g for g in grades if g in it.grades)):
            mask = it.relevant if g == "all" else it.grades[g]
            size, rsize = it.size[mask], it.rsize[mask]
            known = ~np.isnan(size)
            sized = known & (size > 0)
            rows += [("stats", j.topic, level, g, "count", int(mask.sum())),
                     ("stats", j.topic, level, g, "avg_size", _mean(size[known])),
                     ("stats", j.topic, level, g, "avg_rsize_pct", _mean(100.0 * rsize[sized] / size[sized]))]
            if level == "text":
                rows.append(("stats", j.topic, level, g, "total_rsize", float(rsize[known].sum())))
    return rows


# --------------------------------------------------------------------------- agreement


def _ratio(inter: int, union: int) -> float | None:
    return inter / union if union else None


def topic_agreement(a: Judged, b: Judged, levels: Sequence[str], grades: Sequence[str]) -> list[Row]:
    """Seed 001 Table 2, one topic: per level, relevant items of either (∪), of both (∩), ∩/∪; then
    the same per grade (items of the grade for either assessor, for both)."""
    rows = []
    for level in levels:
        ia, ib = a.levels.get(level), b.levels.get(level)
        if ia is None or ib is None:
            continue
        for g in ("all", *(g for g in grades if g in ia.grades)):
            ka, kb = ia.keys_of(g), ib.keys_of(g)
            union, inter = len(np.union1d(ka, kb)), len(np.intersect1d(ka, kb))
            rows += [("agreement", a.topic, level, g, "union", union),
                     ("agreement", a.topic, level, g, "intersection", inter),
                     ("agreement", a.topic, level, g, "ratio", _ratio(inter, union))]
    return rows


def topic_ma(a: Judged, b: Judged, level: str, grades: Sequence[str]) -> list[Row]:
    """Seed 001 Table 3, one topic: MA = items relevant for both; per grade, ∪ = MA items the official
    assessor (``a``) put in the grade, ∩ = those the additional one (``b``) put in it too, ∩/∪."""
    ia, ib = a.levels[level], b.levels[level]
    ma = np.intersect1d(ia.keys_of("all"), ib.keys_of("all"))
    rows = [("ma", a.topic, level, "all", "count", len(ma))]
    for g in grades:
        if g not in ia.grades:
            continue
        official = np.intersect1d(ma, ia.keys_of(g))
        inter = len(np.intersect1d(official, ib.keys_of(g)))
        rows += [("ma", a.topic, level, g, "union", len(official)),
                 ("ma", a.topic, level, g, "intersection", inter),
                 ("ma", a.topic, level, g, "ratio", _ratio(inter, len(official)))]
    return rows


def covered(spans: np.ndarray) -> int:
    """Characters covered by ``(start, end)`` spans (overlaps counted once)."""
    if spans is None or len(spans) == 0:
        return 0
    spans = spans[np.argsort(spans[:, 0], kind="stable")]
    starts, ends = spans[:, 0], np.maximum(spans[:, 1], spans[:, 0])
    reach = np.maximum.accumulate(ends)
    new = np.ones(len(starts), dtype=bool)
    new[1:] = starts[1:] > reach[:-1]  # a span starting beyond everything before opens a segment
    first = np.flatnonzero(new)
    last = np.append(first[1:] - 1, len(starts) - 1)
    return int((reach[last] - starts[first]).sum())


def topic_text_agreement(a: Judged, b: Judged) -> list[Row]:
    """Agreement on highlighted characters: ∪, ∩, ∩/∪ over the topic, and the mean of the articles'
    ∩/∪ (over the articles either assessor highlighted)."""
    sa, sb = a.spans or {}, b.spans or {}
    empty = np.zeros((0, 2), dtype=np.int64)
    union = inter = 0
    ratios = []
    for art in sorted(sa.keys() | sb.keys()):
        xa, xb = sa.get(art, empty), sb.get(art, empty)
        u = covered(np.concatenate([xa, xb]))
        i = covered(xa) + covered(xb) - u
        union, inter = union + u, inter + i
        if u:
            ratios.append(i / u)
    return [("agreement", a.topic, "text", "all", "union", union),
            ("agreement", a.topic, "text", "all", "intersection", inter),
            ("agreement", a.topic, "text", "all", "ratio", _ratio(inter, union)),
            ("agreement", a.topic, "text", "all", "article_mean_ratio", _mean(np.array(ratios)))]


def kappa(x: np.ndarray, y: np.ndarray) -> float | None:
    """Cohen's κ of two labellings of the same items: (po - pe) / (1 - pe); None when pe = 1 or no item."""
    x, y = np.asarray(x), np.asarray(y)
    if x.size == 0:
        return None
    labels, codes = np.unique(np.concatenate([x, y]), return_inverse=True)
    cx, cy = codes[:x.size], codes[x.size:]
    po = float(np.mean(cx == cy))
    pe = float(np.bincount(cx, minlength=len(labels)) @ np.bincount(cy, minlength=len(labels))) / x.size ** 2
    return None if pe >= 1.0 else (po - pe) / (1.0 - pe)


def topic_kappa(topic: str, docs_a, rels_a, docs_b, rels_b, rel_level: int) -> list[Row]:
    """Cohen's κ over the documents judged in both qrels: relevant or not (``kappa``), and over the
    relevance levels themselves (``kappa_levels``)."""
    da, ia = np.unique(np.asarray(docs_a), return_index=True)
    db, ib = np.unique(np.asarray(docs_b), return_index=True)
    _, pa, pb = np.intersect1d(da, db, assume_unique=True, return_indices=True)
    ra, rb = np.asarray(rels_a)[ia][pa], np.asarray(rels_b)[ib][pb]
    return [("agreement", topic, "article", "all", "judged_both", int(len(pa))),
            ("agreement", topic, "article", "all", "kappa", kappa(ra >= rel_level, rb >= rel_level)),
            ("agreement", topic, "article", "all", "kappa_levels", kappa(ra, rb))]


# --------------------------------------------------------------------------- across topics


def across_topics(rows: Iterable[Row]) -> list[Row]:
    """Per (section, level, grade, quantity): mean, min, max, median and population stdev (ddof=0)
    of the per-topic values over the topics where they are defined, and ``min_topic`` / ``max_topic``
    (the first such topic in natural order)."""
    groups: dict[tuple, list[tuple[str, float]]] = {}
    for section, topic, level, grade, quantity, value in rows:
        key = (section, level, grade, quantity)
        slot = groups.setdefault(key, [])
        if isinstance(value, (int, float)) and value is not None and not math.isnan(value):
            slot.append((topic, float(value)))
    out = []
    for (section, level, grade, quantity), pairs in groups.items():
        pairs.sort(key=lambda tv: natural_key(tv[0]))
        v = np.array([x for _, x in pairs], dtype=float)
        if v.size:
            stats = {"mean": float(v.mean()), "min": float(v.min()), "max": float(v.max()),
                     "median": float(np.median(v)), "stdev": float(v.std(ddof=0)),
                     "min_topic": pairs[int(np.argmin(v))][0], "max_topic": pairs[int(np.argmax(v))][0]}
        else:
            stats = dict.fromkeys((*ACROSS, "min_topic", "max_topic"))
        out += [(section, name, level, grade, quantity, value) for name, value in stats.items()]
    return out


# --------------------------------------------------------------------------- ranking


def _defined(v) -> bool:
    return v is not None and not (isinstance(v, float) and math.isnan(v))


def ranking_rows(results_a, results_b, columns: Sequence[str]) -> list[Row]:
    """How the run ranking depends on the assessor: per setting and measure, Kendall's τ-b and
    Spearman's ρ between the run averages under each assessor's judgements (:mod:`inexeval.compare.stats`),
    and the largest change of a run's rank (rank 1 the best, ties sharing their mean rank)."""
    from inexeval.assessments.run_rankings import max_rank_change
    from inexeval.compare import stats as analysis

    by_a = {(r.run_id, r.setting): r for r in results_a}
    by_b = {(r.run_id, r.setting): r for r in results_b}
    settings = list(dict.fromkeys(r.setting for r in results_a))
    rows = []
    for s in settings:
        runs = [run for (run, setting) in by_a if setting == s and (run, s) in by_b]
        for m in columns:
            pairs = [(run, by_a[run, s].average.get(m), by_b[run, s].average.get(m)) for run in runs]
            pairs = [(run, x, y) for run, x, y in pairs if _defined(x) and _defined(y)]
            x = [p[1] for p in pairs]
            y = [p[2] for p in pairs]
            tau = analysis.kendall_tau_b(x, y) if len(pairs) >= 2 else math.nan
            rho = analysis.spearman_rho(x, y) if len(pairs) >= 2 else math.nan
            change, who = max_rank_change([p[0] for p in pairs], x, y) if pairs else (None, None)
            rows += [("ranking", "all", s, m, "kendall_tau_b", None if math.isnan(tau) else tau),
                     ("ranking", "all", s, m, "spearman_rho", None if math.isnan(rho) else rho),
                     ("ranking", "all", s, m, "max_rank_change", change),
                     ("ranking", "all", s, m, "max_rank_change_run", who)]
    return rows


__all__ = ["Items", "Judged", "from_inex", "from_trec", "from_fol", "specificity_grades", "topic_stats",
           "topic_agreement", "topic_ma", "topic_text_agreement", "topic_kappa", "kappa", "covered",
           "across_topics", "ranking_rows"]
