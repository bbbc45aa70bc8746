"""trec_eval's preference measures (``-R prefs``, ``-R qrels_prefs``), docs/trec-eval.md §4.

Judgements are preferences between documents, grouped as trec_eval groups
them: a *judgement group* (JG, one assessor's information need) holds
*sub-groups* (JSG); within a sub-group a document with a higher level is
preferred to every document with a lower one.  ``-R prefs`` reads
``qid jg jsg docno level`` lines; ``-R qrels_prefs`` reads a qrels file as
preferences (the second field is the group, one sub-group, the judgement
the level).  Level 0 means non-relevant, > 0 relevant.

Per topic, the judged documents the run retrieves (within ``-M``) are
numbered 0 … J_r − 1 in rank order, the other judged ones J_r … J − 1 in
docno order.  A preference A > B is *fulfilled* when A's number is lower.
Per group:

- one sub-group: the documents of each level form a class, every pair of
  documents from two classes is a preference;
- several sub-groups: the preferences of all sub-groups, closed under
  transitivity (A > B and B > C give A > C).

Each group's preferences are counted by where A and B are: both retrieved
(fulfilled or not), one retrieved (``imp``: fulfilled when A is the
retrieved one), neither (never fulfilled).  The measures
(``prefs_simp``, ``prefs_pair``, ``prefs_avgjg``, ``prefs_avgjg_Rnonrel``,
their ``_ret`` and ``_imp`` variants, and the counts
``prefs_num_prefs_poss``/``_ful``/``_ful_ret``) are ratios of these
counts, as trec_eval defines them (docs/trec-eval.md §4 gives each).
"""

from __future__ import annotations

import numpy as np

from inexeval.dropins.trec_eval.options import Options, Selected, TrecEvalExit, atof
from inexeval.dropins.trec_eval.read import RawRun, qrels_lines
from inexeval.records import record


@record
class Prefs:
    """Preference lines in file order: topic, group, sub-group, docno (bytes arrays) and level."""

    qid: np.ndarray
    jg: np.ndarray
    jsg: np.ndarray
    docno: np.ndarray
    level: np.ndarray


def read_prefs(data: bytes, path: str, fmt: str) -> Prefs:
    """A ``prefs`` file (5 fields) or, for FMT ``qrels_prefs``, a qrels file read as preferences."""
    if fmt == "prefs":
        rows = qrels_lines(data, path, "get_prefs", 5)
        cols = [np.array([r[i] for r in rows], dtype=bytes) for i in range(4)]
        level = [r[4] for r in rows]
    else:
        rows = qrels_lines(data, path, "get_qrels_prefs", 4)
        cols = [np.array([r[0] for r in rows], dtype=bytes), np.array([r[1] for r in rows], dtype=bytes),
                np.full(len(rows), b"0", dtype=bytes), np.array([r[2] for r in rows], dtype=bytes)]
        level = [r[3] for r in rows]
    return Prefs(*cols, np.array([atof(x.decode("latin-1")) for x in level], dtype=np.float64))


@record
class GroupCounts:
    """One judgement group's preference counts (trec_eval's JG)."""

    ful_ret: int = 0
    poss_ret: int = 0  # includes ful_ret
    ful_imp: int = 0
    poss_imp: int = 0  # includes ful_imp
    notoccur: int = 0
    num_rel: int = 0
    num_rel_ret: int = 0
    num_nonrel: int = 0
    num_nonrel_ret: int = 0
    ecs: list | None = None  # one sub-group: the classes' document numbers, levels decreasing
    pa: np.ndarray | None = None  # several: the closed preference matrix
    rel_array: np.ndarray | None = None  # several: each document's level (-1: not in the group)


class PrefsError(Exception):
    """A topic whose preferences trec_eval cannot count (message for standard error)."""


def _cdiv(a: float, b: float) -> float:
    """C's double division (x/0 is inf or NaN, not an error)."""
    if b == 0:
        return float("nan") if a == 0 else (float("inf") if a > 0 else float("-inf"))
    return a / b


def _ec_group(ranks: np.ndarray, levels: np.ndarray, njr: int, ca: np.ndarray) -> GroupCounts:
    """Counts of a one-sub-group JG: classes of equal level, every cross-class pair a preference."""
    g = GroupCounts()
    order = np.lexsort((ranks, -levels))
    ranks, levels = ranks[order], levels[order]
    cut = np.flatnonzero(levels[1:] != levels[:-1]) + 1
    ecs = [(float(lv[0]), r) for lv, r in zip(np.split(levels, cut), np.split(ranks, cut))]
    g.ecs = ecs
    for i, (lv, r1) in enumerate(ecs):
        ret = int(np.count_nonzero(r1 < njr))  # ranks are increasing: the retrieved ones come first
        if lv > 0.0:
            g.num_rel_ret += ret
            g.num_rel += r1.size
        else:
            g.num_nonrel_ret += ret
            g.num_nonrel += r1.size
        for _, r2 in ecs[i + 1 :]:
            p1 = np.repeat(r1, r2.size)
            p2 = np.tile(r2, r1.size)
            np.add.at(ca, (p1, p2), 1)
            same = np.flatnonzero(p1 == p2)
            if same.size:
                raise PrefsError("trec_eval.form_prefs_counts: Internal docid "
                                 f"{int(p1[same[0]])} occurs with different rel_level in same jsg\n")
            up = p1 < p2
            g.ful_ret += int(np.count_nonzero(up & (p2 < njr)))
            g.ful_imp += int(np.count_nonzero(up & (p2 >= njr) & (p1 < njr)))
            g.notoccur += int(np.count_nonzero(up & (p1 >= njr)))
            down = ~up
            g.poss_ret += int(np.count_nonzero(down & (p1 < njr)))
            g.poss_imp += int(np.count_nonzero(down & (p1 >= njr) & (p2 < njr)))
            g.notoccur += int(np.count_nonzero(down & (p1 >= njr) & (p2 >= njr)))
    g.poss_ret += g.ful_ret
    g.poss_imp += g.ful_imp
    return g


def _pa_group(jsg: np.ndarray, ranks: np.ndarray, levels: np.ndarray, docno: np.ndarray, nj: int, njr: int,
              ca: np.ndarray) -> GroupCounts:
    """Counts of a JG with several sub-groups: the preference matrix, closed under transitivity."""
    g = GroupCounts()
    pa = np.zeros((nj, nj), dtype=bool)
    rel = np.full(nj, -1.0)
    _, jcode = np.unique(jsg, return_inverse=True)
    jcode = jcode.ravel()
    order = np.lexsort((ranks, -levels, jcode))
    for i in order.tolist():  # trec_eval's consistency check, in its order
        r, lv = int(ranks[i]), float(levels[i])
        if (rel[r] > 0.0 and lv == 0.0) or (rel[r] == 0.0 and lv > 0.0):
            raise PrefsError("trec_eval.form_prefs_counts: doc "
                             f"'{bytes(docno[i]).decode('utf-8', 'surrogateescape')}' has both 0 and non-0 "
                             "rel_level assigned\n")
        rel[r] = lv
    for j in np.unique(jcode).tolist():
        rows = np.flatnonzero(jcode == j)
        r, lv = ranks[rows], levels[rows]
        pa[np.ix_(r, r)] |= lv[:, None] > lv[None, :]
    # reflexive-transitive closure, then without the diagonal
    np.fill_diagonal(pa, True)
    while True:
        nxt = (pa.astype(np.int32) @ pa.astype(np.int32)) > 0
        if np.array_equal(nxt, pa):
            break
        pa = nxt
    np.fill_diagonal(pa, False)
    if (pa & pa.T).any():
        i, j = (int(x) for x in np.argwhere(pa & pa.T)[0])
        raise PrefsError("trec_eval.form_prefs_counts: Pref inconsistency found\n"
                         f"      internal rank {i} and internal rank {j} are conflicted\n")
    g.pa, g.rel_array = pa, rel
    g.num_rel_ret = int(np.count_nonzero(rel[:njr] > 0.0))
    g.num_nonrel_ret = int(np.count_nonzero(rel[:njr] == 0.0))
    g.num_rel = g.num_rel_ret + int(np.count_nonzero(rel[njr:] > 0.0))
    g.num_nonrel = g.num_nonrel_ret + int(np.count_nonzero(rel[njr:] == 0.0))
    ca += pa
    top = pa[:njr, :njr]
    g.ful_ret = int(np.count_nonzero(np.triu(top, 1)))
    g.poss_ret = int(np.count_nonzero(np.tril(top, -1))) + g.ful_ret
    g.ful_imp = int(np.count_nonzero(pa[:njr, njr:]))
    g.poss_imp = int(np.count_nonzero(pa[njr:, :njr])) + g.ful_imp
    g.notoccur = int(np.count_nonzero(pa[njr:, njr:]))
    return g


def _recalc(g: GroupCounts, njr: int, retrieved_only: bool) -> tuple[int, int]:
    """trec_eval's recount for ``prefs_avgjg_Rnonrel`` (and ``_ret``) when a group has more non-relevant
    (retrieved) documents than relevant ones: only the first R non-relevant documents take part."""
    ful = poss = 0
    if g.ecs:
        keep = g.num_rel_ret if retrieved_only else g.num_rel
        new_nonrel = g.ecs[-1][1][:keep]

        def count(r1: np.ndarray, r2: np.ndarray) -> tuple[int, int]:
            if retrieved_only:  # each loop stops at the first unretrieved document (ranks increase)
                r1, r2 = r1[r1 < njr], r2[r2 < njr]
            p1 = np.repeat(r1, r2.size)
            p2 = np.tile(r2, r1.size)
            f = (p1 < p2) if retrieved_only else ((p1 < p2) & (p1 < njr))
            n = int(np.count_nonzero(f))
            return n, p1.size - n

        ecs = [r for _, r in g.ecs]
        for a in range(len(ecs)):
            for b in range(a + 1, len(ecs) - 1):
                f, p = count(ecs[a], ecs[b])
                ful, poss = ful + f, poss + p
        for a in range(len(ecs)):
            f, p = count(ecs[a], new_nonrel)
            ful, poss = ful + f, poss + p
        return ful, poss + ful
    rel, pa = g.rel_array, g.pa
    nj = pa.shape[0]
    limit = njr if retrieved_only else nj
    zeros = np.flatnonzero(rel[:limit] == 0.0)
    first_discarded = int(zeros[g.num_rel]) if zeros.size > g.num_rel else limit
    idx = np.arange(nj)
    alive = ~((idx >= first_discarded) & (rel == 0.0))
    a = pa & alive[:, None] & alive[None, :]
    top = a[:njr, :njr]
    ful = int(np.count_nonzero(np.triu(top, 1)))
    poss = int(np.count_nonzero(np.tril(top, -1)))
    if not retrieved_only:
        ful += int(np.count_nonzero(a[:njr, njr:]))
        poss += int(np.count_nonzero(a[njr:, :njr])) + int(np.count_nonzero(a[njr:, njr:]))
    return ful, poss + ful


def _pair(ca: np.ndarray, njr: int, nj: int, part: str) -> float:
    """prefs_pair (``all``), prefs_pair_ret (``ret``), prefs_pair_imp (``imp``): the mean over document
    pairs with a preference of the share of that pair's preferences that are fulfilled."""
    c = ca.astype(np.float64)
    sums: list[float] = []
    npairs = 0
    blocks = [(np.triu_indices(njr, 1))]
    if part != "ret":
        ii, jj = np.meshgrid(np.arange(njr), np.arange(njr, nj), indexing="ij")
        blocks.append((ii.ravel(), jj.ravel()))
    for i, j in blocks:
        a, b = c[i, j], c[j, i]
        has = (a > 0) | (b > 0)
        sums.extend((a[has] / (a[has] + b[has])).tolist())
        npairs += int(np.count_nonzero(has))
    if part == "all":
        i, j = np.triu_indices(nj, 1)
        sel = i >= njr
        npairs += int(np.count_nonzero((c[i[sel], j[sel]] > 0) | (c[j[sel], i[sel]] > 0)))
    total = 0.0
    for x in sums:
        total += x
    return total / npairs if npairs else 0.0


def topic_values(prefs_rows: np.ndarray, prefs: Prefs, ranked_docnos: np.ndarray) -> dict[str, float]:
    """Every preference measure for one topic: its preference rows and the run's docnos in rank order."""
    docno = prefs.docno[prefs_rows]
    judged, dcode = np.unique(docno, return_inverse=True)
    dcode = dcode.ravel()
    if ranked_docnos.size:
        pos = np.minimum(np.searchsorted(judged, ranked_docnos), judged.size - 1)
        ret_codes = pos[judged[pos] == ranked_docnos]  # the judged ones, in rank order
    else:
        ret_codes = np.zeros(0, dtype=np.int64)
    njr, nj = ret_codes.size, judged.size
    number = np.full(nj, -1, dtype=np.int64)
    number[ret_codes] = np.arange(njr)
    rest = np.flatnonzero(number < 0)  # unretrieved, in docno order
    number[rest] = njr + np.arange(rest.size)
    ranks = number[dcode]
    ca = np.zeros((nj, nj), dtype=np.int64)
    jg, jsg, level = prefs.jg[prefs_rows], prefs.jsg[prefs_rows], prefs.level[prefs_rows]
    groups: list[GroupCounts] = []
    for g in np.unique(jg).tolist():
        rows = np.flatnonzero(jg == g)
        if np.unique(jsg[rows]).size > 1:
            groups.append(_pa_group(jsg[rows], ranks[rows], level[rows], docno[rows], nj, njr, ca))
        else:
            groups.append(_ec_group(ranks[rows], level[rows], njr, ca))

    v: dict[str, float] = {}
    ful = sum(g.ful_ret + g.ful_imp for g in groups)
    poss = sum(g.poss_ret + g.poss_imp + g.notoccur for g in groups)
    v["prefs_num_prefs_poss"] = float(poss)
    v["prefs_num_prefs_ful"] = float(ful)
    v["prefs_num_prefs_ful_ret"] = float(sum(g.ful_ret for g in groups))
    v["prefs_simp"] = ful / poss if poss else 0.0
    v["prefs_pair"] = _pair(ca, njr, nj, "all")
    v["prefs_avgjg"] = _avgjg(groups, lambda g: (g.ful_ret + g.ful_imp, g.poss_ret + g.poss_imp + g.notoccur))
    v["prefs_avgjg_Rnonrel"] = _rnonrel(groups, njr, False)
    fr, pr = sum(g.ful_ret for g in groups), sum(g.poss_ret for g in groups)
    v["prefs_simp_ret"] = fr / pr if pr else 0.0
    v["prefs_pair_ret"] = _pair(ca, njr, nj, "ret")
    v["prefs_avgjg_ret"] = _avgjg(groups, lambda g: (g.ful_ret, g.poss_ret))
    v["prefs_avgjg_Rnonrel_ret"] = _rnonrel(groups, njr, True)
    fi, pi = sum(g.ful_ret + g.ful_imp for g in groups), sum(g.poss_ret + g.poss_imp for g in groups)
    v["prefs_simp_imp"] = fi / pi if pi else 0.0
    v["prefs_pair_imp"] = _pair(ca, njr, nj, "imp")
    v["prefs_avgjg_imp"] = _avgjg(groups, lambda g: (g.ful_ret + g.ful_imp, g.poss_ret + g.poss_imp))
    return v


def _avgjg(groups: list[GroupCounts], parts) -> float:
    total = 0.0
    for g in groups:
        f, p = parts(g)
        if p:
            total += f / p
    return total / len(groups) if total > 0.0 else 0.0


def _rnonrel(groups: list[GroupCounts], njr: int, retrieved_only: bool) -> float:
    total = 0.0
    for g in groups:
        R, N = (g.num_rel_ret, g.num_nonrel_ret) if retrieved_only else (g.num_rel, g.num_nonrel)
        if R >= N:
            if retrieved_only:
                f = g.ful_ret + g.num_rel_ret * (R - N)
                p = g.poss_ret + g.num_rel * (R - N)
            else:
                f = g.ful_ret + g.ful_imp + g.num_rel_ret * (R - N)
                p = g.poss_ret + g.poss_imp + g.notoccur + g.num_rel * (R - N)
        else:
            f, p = _recalc(g, njr, retrieved_only)
        total += _cdiv(f, p)
    return total / len(groups) if total > 0.0 else 0.0


def evaluate_prefs(prefs: Prefs, run: RawRun, opts: Options, selected: list[Selected]):
    """The preference measures of SELECTED on the topics trec_eval evaluates (``-R prefs``/``qrels_prefs``)."""
    from inexeval.dropins.trec_eval.evaluate import Column, Evaluation, first_measure, topic_codes, prepare_topics
    from inexeval.dropins.trec_eval.read import RawQrels

    # trec_eval orders a topic's results by score, ties by docno ascending here (its form_prefs_counts)
    q = RawQrels(prefs.qid, prefs.docno, np.zeros(prefs.qid.size, dtype=np.int64))
    keys, evaluated, kept, stop = prepare_topics(q, run, opts, selected, ties="ascending")
    measures = [s.measure for s in selected if s.measure.kind != "special"]
    labels = [m.name for m in measures]
    # the counts (prefs_num_prefs_*) are summed and printed as integers, as the catalogue says
    columns = {m.name: Column(m.name, [], integer=m.integer, aggregate=m.summary) for m in measures}
    pt = topic_codes(keys, prefs.qid)
    rt = topic_codes(keys, run.qid[kept])
    done: list[bytes] = []
    for t in evaluated:
        if not labels:  # (runid, num_q: trec_eval reads no ranking)
            done.append(bytes(keys[t]))
            continue
        rows = np.flatnonzero(pt == t)
        ranked = run.docno[kept[rt == t]]
        try:
            vals = topic_values(rows, prefs, ranked)
        except PrefsError as e:
            stop = TrecEvalExit(str(e) + f"trec_eval: Can't calculate measure '{first_measure(selected)}'\n", 4)
            break
        for lab in labels:
            columns[lab].values.append(vals[lab])
        done.append(bytes(keys[t]))
    # -c: the summary divides by every topic of the file, also under -D (meas_avg.c), as for -R qrels
    return Evaluation(done, columns, stop, num_queries=keys.size if opts.complete else None)
