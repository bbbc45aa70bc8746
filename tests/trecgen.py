"""Seeded random TREC inputs for the differential tests against trec_eval (tests/test_oracle_*.py).

Every generator takes a :class:`random.Random` and returns text, so a case is reproduced from its seed
alone.  :func:`qrels_and_run` makes a qrels file (``qid iter docno rel``) and a run
(``qid Q0 docno rank score runid``) that between them cover the shapes trec_eval treats specially:

- judgements binary, graded (0-4), negative (-1, -2: judged "unjudged"), topics with nothing relevant,
  topics with 1-5 relevant documents, some shaped as :data:`AWKWARD_TOPICS` or :data:`AWKWARD_RANKINGS`
  (values then land on exact halves of the 4th decimal, 9/160 = 0.05625 ..., where ``%6.4f`` rounds on
  the last bit);
- topics only in the qrels (missing from the run) or only in the run;
- topic ids that sort differently by bytes and by number (``9``, ``10``, ``010``, ``A``, ``a``, ``_x``);
- score ties; near-ties that differ only beyond single precision (``0.1`` and ``0.1 + 1e-12``); equal
  scores on docnos that differ only in byte order (``d1``, ``D1``, ``_1``, ``d10``); negative and zero
  scores (``-0``, ``0.0``), integers and exponents; long docnos (more than 8 bytes);
- rankings of 1 to a few hundred results; rank fields that disagree with the scores; shuffled lines;
  occasionally comment and blank lines in the run, a comment line in the qrels, a run id that changes
  on the last line (trec_eval prints the last line's);
- never a topic whose judgements are all negative (:data:`NEGATIVE_ONLY`; ``nonnegative=True`` for
  ``-R qrels_prefs``: :data:`PREFS_NEGATIVE`);
- with ``duplicates=True`` only: a docno twice in one topic of the run (trec_eval stops, status 4).

:func:`prefs_file` (``-R prefs``: ``qid jg jsg docno level``, consistent within each judgement group),
:func:`zscores_file` (``-Z``) and :func:`write_case` complete it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path

#: Topic ids whose byte order differs from their numeric order, and letters of both cases.
TOPIC_IDS = ["1", "2", "3", "9", "10", "11", "19", "100", "010", "301", "42", "A", "B", "a", "b", "Z", "z",
             "_x", "q1", "q10", "q9", "T-7", "x.1"]
#: Run-only topics (not in the qrels), added now and then.
EXTRA_TOPICS = ["999", "8", "0", "c", "zz", "Q"]

#: Why no topic has only negative judgements: trec_eval 10.0's te_form_res_rels sizes its per-level
#: counts by the largest judgement + 1 and reuses the previous topic's buffer.  With all judgements
#: negative that size is 0 or less: on the first topic it stops ("Can't calculate measure", status 4),
#: later it reads the previous topic's counts (max -1) or memsets a negative length and crashes (max -2).
NEGATIVE_ONLY = "undefined behaviour in trec_eval 10.0 (form_res_rels.c, rel_levels of size max_rel + 1)"

#: Why -R qrels_prefs cases have no negative judgements: a negative level makes a class below the
#: non-relevant (0) class, and prefs_avgjg_Rnonrel's recalculate() (m_prefs_avgjg_Rnonrel.c) then takes
#: the R documents of the *lowest* class as the non-relevant ones, reading past its end when it has
#: fewer than R documents.  The prefs format itself declares levels non-negative.
PREFS_NEGATIVE = "out-of-bounds read in trec_eval 10.0 (m_prefs_avgjg_Rnonrel.c, recalculate)"

#: (R relevant, rr of them retrieved, L results) where rr*rr/(L*R) -- set_map, also rr/L times rr/R --
#: is a 5th-decimal half (3*3/(40*4) = 0.05625): the last bit of the computation then decides the
#: printed 4th decimal.  All such triples with R <= 5, L <= 300.
AWKWARD_TOPICS = [
    (1, 1, 32), (1, 1, 160), (2, 1, 16), (2, 1, 80), (2, 2, 64), (3, 3, 32), (3, 3, 96), (3, 3, 160), (4, 1, 8),
    (4, 1, 40), (4, 1, 200), (4, 2, 32), (4, 2, 160), (4, 3, 8), (4, 3, 24), (4, 3, 40), (4, 3, 72), (4, 3, 120),
    (4, 3, 200), (4, 4, 128), (5, 1, 32), (5, 1, 160), (5, 2, 128), (5, 3, 32), (5, 3, 96), (5, 3, 160),
    (5, 3, 288), (5, 5, 32), (5, 5, 160),
]
#: (ranks of the relevant documents, L results): average precision exactly on a 5th-decimal half
#: (ranks 1, 6, 8, 15 of 21: (1 + 2/6 + 3/8 + 4/15) / 4 = 0.49375), where summing the precisions left to
#: right (trec_eval) and in numpy's pairwise order round to different sides.
AWKWARD_RANKINGS = [
    ((8, 10, 12, 20), 34), ((4, 10, 16, 20, 32), 32), ((1, 3, 5, 12, 16, 30), 36), ((1, 4, 15, 25, 32), 33),
    ((8, 10, 15, 16), 17), ((1, 6, 8, 15), 21), ((1, 5, 8, 25), 30), ((1, 4, 9, 25, 30, 32), 34),
    ((1, 5, 8, 20), 22), ((3, 6, 8, 12), 26), ((10, 16, 18, 30), 39), ((4, 5, 8, 10), 19), ((2, 6, 8, 15), 23),
]

LEVEL_SCHEMES = {
    "binary": [0, 1],
    "graded": [0, 1, 2, 3, 4],
    "negative": [-2, -1, 0, 1, 2],
    "norel": [0],
    "norel_neg": [0, -1, -2],
    "mostly_zero": [0, 0, 0, 0, 1, 2],
    "high": [0, 3, 4],
}


@dataclass
class Case:
    """One generated input pair and the shapes it holds (``shapes``, for the coverage checks)."""

    qrels: str
    run: str
    qrels_topics: list[str]
    run_topics: list[str]
    shapes: set[str] = field(default_factory=set)


def _docno(rng: random.Random, style: str, i: int) -> str:
    if style == "short":
        return f"d{i}"
    if style == "long":
        return f"FBIS3-{i:05d}-LA{rng.randint(10, 99)}"
    if style == "case":  # byte order differs from a natural order: D1 < _1 < d1 < d10 < d2
        return rng.choice(["d", "D", "_", "", "d0", "e"]) + str(i)
    return f"doc{i:03d}" if i % 3 else f"WSJ{i}"  # mixed


def _docnos(rng: random.Random, n: int, start: int, style: str) -> list[str]:
    out, seen, i = [], set(), start
    while len(out) < n:
        d = _docno(rng, style, i)
        i += 1
        if d not in seen:
            seen.add(d)
            out.append(d)
    return out


def _score_text(rng: random.Random, mode: str, k: int, n: int) -> str:
    """The score field of the K-th of N results of a topic under MODE."""
    if mode == "distinct":
        return repr(rng.uniform(-5, 20))
    if mode == "coarse":  # many ties
        return repr(rng.randint(0, 5) / 2)
    if mode == "all_equal":
        return "1"
    if mode == "neartie":  # equal in single precision, not in double
        base = rng.choice([0.1, 0.3, 1.0, 2.5, 100.0, 7.0])
        return repr(base + rng.choice([0.0, 0.0, 1e-12, -1e-12, base * 1e-9, base * -1e-9]))
    if mode == "negzero":
        return rng.choice(["0", "-0", "0.0", "-0.0", "-1.5", "-3", "-1e-3", "2", "-2.25", "1e-300"])
    if mode == "integer":
        return str(rng.randint(-3, 3) if rng.random() < 0.5 else n - k)
    if mode == "exponent":
        return rng.choice(["1e-3", "2.5E+2", "1E0", "3e-1", "0.3", "250", "-1e2", ".5", "5."])
    raise ValueError(mode)


SCORE_MODES = ["distinct", "coarse", "all_equal", "neartie", "negzero", "integer", "exponent"]


def _levels_for_topic(rng: random.Random, shapes: set[str], schemes: list[str] | None = None
                      ) -> tuple[str, list[int] | None]:
    scheme = rng.choice(schemes or list(LEVEL_SCHEMES) + ["few", "few", "few"])
    shapes.add(f"rel:{scheme}")
    return scheme, (None if scheme == "few" else LEVEL_SCHEMES[scheme])


def qrels_and_run(rng: random.Random, *, duplicates: bool = False, missing: float = 0.15,
                  extra: float = 0.4, max_topics: int = 7, long_runs: float = 0.15, n_topics: int | None = None,
                  nonnegative: bool = False, awkward: float = 0.15, schemes: list[str] | None = None) -> Case:
    """A qrels file and a run (see the module docstring).  MISSING: the chance that a qrels topic is left
    out of the run; EXTRA: the chance of run-only topics; DUPLICATES: one topic of the run ranks a docno
    twice; LONG_RUNS: the chance of a topic with 100-400 results; N_TOPICS: exactly that many qrels
    topics (else 1 to MAX_TOPICS); NONNEGATIVE: judgements -1 and -2 become 0 (:data:`PREFS_NEGATIVE`);
    AWKWARD: the chance that a topic is one of :data:`AWKWARD_TOPICS`; SCHEMES: the judgement schemes to
    draw from (:data:`LEVEL_SCHEMES` and ``few``, 1-5 relevant documents)."""
    shapes: set[str] = set()
    n = n_topics if n_topics is not None else rng.randint(1, max_topics)
    pool = TOPIC_IDS + [f"t{i}" for i in range(max(0, n - len(TOPIC_IDS)))]
    topics = rng.sample(pool, n)
    style = rng.choice(["short", "long", "case", "mixed"])
    shapes.add(f"docno:{style}")
    qlines: list[str] = []
    rlines: list[tuple[str, str, str]] = []  # (qid, docno, score)
    run_topics: list[str] = []
    next_doc = 0
    for qid in topics:
        awk = rng.choice(AWKWARD_TOPICS) if rng.random() < awkward else None
        if awk and rng.random() < 0.4:  # (R, ranks, L): the relevant documents at those ranks
            ranks, length = rng.choice(AWKWARD_RANKINGS)
            awk = (len(ranks), ranks, length)
        scheme, levels = ("few", None) if awk else _levels_for_topic(rng, shapes, schemes)
        njudged = rng.choice([rng.randint(1, 12), rng.randint(1, 40), rng.randint(20, 120)])
        if awk:
            njudged = max(njudged, awk[0])
        judged = _docnos(rng, njudged, next_doc, style)
        next_doc += njudged + 5
        if levels is None:  # 1-5 relevant, the rest not relevant (or judged -1 now and then)
            nrel = awk[0] if awk else min(rng.randint(1, 5), njudged)
            rels = [rng.randint(1, 3) for _ in range(nrel)] + [rng.choice([0, 0, 0, -1]) for _ in range(njudged - nrel)]
            rng.shuffle(rels)
        else:
            rels = [rng.choice(levels) for _ in range(njudged)]
        if max(rels) < 0:  # (see NEGATIVE_ONLY)
            rels[rng.randrange(njudged)] = 0
        if nonnegative:
            rels = [max(r, 0) for r in rels]
        iters = rng.choice(["0", "Q0", "iter"])
        for d, r in zip(judged, rels):
            qlines.append(f"{qid} {iters if rng.random() < 0.9 else '1'} {d} {r}\n")
        if rng.random() < missing:
            shapes.add("topic:qrels_only")
            continue
        run_topics.append(qid)
        if awk and isinstance(awk[1], tuple):  # the relevant documents at the ranks given, in that order
            shapes.add("run:awkward_ranking")
            ranks, length = awk[1], awk[2]
            relevant = [d for d, r in zip(judged, rels) if r > 0]
            others = [d for d, r in zip(judged, rels) if r <= 0]
            filler = rng.sample(others, min(len(others), rng.randint(0, length - len(ranks))))
            filler += _docnos(rng, length - len(ranks) - len(filler), next_doc, style)
            next_doc += length + 5
            rng.shuffle(filler)
            docs = []
            for k in range(1, length + 1):
                docs.append(relevant.pop() if k in ranks else filler.pop())
            for k, d in enumerate(docs):  # decreasing scores: the rank order is the file's
                rlines.append((qid, d, repr(float(length - k)) if k % 2 else str(length - k)))
            continue
        if awk:  # rr of the R relevant, then non-relevant or unjudged documents up to L
            length = awk[2]
            shapes.add("run:awkward")
            relevant = [d for d, r in zip(judged, rels) if r > 0]
            others = [d for d, r in zip(judged, rels) if r <= 0]
            pool = rng.sample(relevant, awk[1]) + rng.sample(others, rng.randint(0, min(len(others), length - awk[1])))
        else:
            if rng.random() < long_runs:
                length = rng.randint(100, 400)
                shapes.add("run:long")
            else:
                length = rng.choice([1, 2, 3, rng.randint(1, 12), rng.randint(1, 40), rng.randint(1, 80)])
            shapes.add("run:single" if length == 1 else "run:some")
            pool = rng.sample(judged, min(njudged, rng.randint(0, length)))
        n_from_judged = len(pool)
        unjudged = _docnos(rng, length - n_from_judged, next_doc, style)
        next_doc += length + 5
        docs = pool + unjudged
        rng.shuffle(docs)
        mode = rng.choice(SCORE_MODES)
        shapes.add(f"score:{mode}")
        for k, d in enumerate(docs):
            rlines.append((qid, d, _score_text(rng, mode, k, len(docs))))
    if rng.random() < extra:
        for qid in rng.sample(EXTRA_TOPICS, rng.randint(1, 2)):
            shapes.add("topic:run_only")
            run_topics.append(qid)
            for k, d in enumerate(_docnos(rng, rng.randint(1, 6), next_doc, style)):
                rlines.append((qid, d, _score_text(rng, "distinct", k, 6)))
            next_doc += 20
    if not rlines:  # a run needs a line: one run-only topic
        run_topics.append("999")
        rlines.append(("999", "dx", "1.0"))
    if duplicates:
        shapes.add("run:duplicate")
        qid, d, _ = rng.choice(rlines)
        rlines.append((qid, d, _score_text(rng, rng.choice(["distinct", "coarse"]), 0, 1)))
    return Case(_qrels_text(rng, qlines, shapes), _run_text(rng, rlines, shapes), topics, run_topics, shapes)


def _qrels_text(rng: random.Random, lines: list[str], shapes: set[str]) -> str:
    if rng.random() < 0.5:
        rng.shuffle(lines)
    if rng.random() < 0.1 and len(lines) > 1:  # one comment line (never the last line, never two in a row)
        lines.insert(rng.randrange(len(lines) - 1), "# judged by the generator\n")
        shapes.add("qrels:comment")
    return "".join(lines)


def _run_text(rng: random.Random, rlines: list[tuple[str, str, str]], shapes: set[str]) -> str:
    order = rng.choice(["shuffled", "as_made", "by_topic"])
    if order == "shuffled":
        rng.shuffle(rlines)
    elif order == "by_topic":
        rlines.sort(key=lambda x: x[0])
    tag = rng.choice(["runA", "my-run.v2", "R"])
    out = []
    for k, (qid, d, s) in enumerate(rlines):
        rank = rng.choice([str(k + 1), "1", str(rng.randint(0, 999))]) if rng.random() < 0.2 else str(k + 1)
        out.append(f"{qid} Q0 {d} {rank} {s} {tag}\n")
    if rng.random() < 0.1:
        out.insert(rng.randrange(len(out) + 1), "# a comment line\n")
        out.insert(rng.randrange(len(out) + 1), "\n")
        shapes.add("run:comment")
    if rng.random() < 0.1:  # trec_eval prints the run id of the file's last line
        out[-1] = out[-1].rsplit(" ", 1)[0] + " lastTag\n" if not out[-1].startswith(("#", "\n")) else out[-1]
        shapes.add("run:tag_changes")
    return "".join(out)


def qrels_jg_text(rng: random.Random, case: Case) -> str:
    """CASE's qrels with its second field turned into judgement groups (``-R qrels_jg``): each topic's
    judgements copied into 1-3 groups, each group re-judging a part of them."""
    out = []
    by_topic: dict[str, list[tuple[str, int]]] = {}
    for line in case.qrels.splitlines():
        if line.startswith("#"):
            continue
        qid, _, d, r = line.split()
        by_topic.setdefault(qid, []).append((d, int(r)))
    for qid, judged in by_topic.items():
        for g in range(rng.randint(1, 3)):
            group = rng.choice(["u1", "u2", "ann", "0", "1"])
            for d, r in judged:
                if g and rng.random() < 0.3:
                    continue
                rr = r if rng.random() < 0.7 else rng.choice([0, 1, 2])
                out.append(f"{qid} {group}{g} {d} {rr}\n")
    rng.shuffle(out)
    return "".join(out)


def prefs_file(rng: random.Random, case: Case) -> str:
    """A ``-R prefs`` file on CASE's topics and judged docnos: per topic 1-3 judgement groups, each with
    1-3 sub-groups.  Levels come from one hidden order per group (so no group contradicts itself; a
    document keeps its level, 0 or not, in every sub-group), and sub-groups judge subsets of documents."""
    out = []
    by_topic: dict[str, list[str]] = {}
    for line in case.qrels.splitlines():
        if line.startswith("#"):
            continue
        qid, _, d, _ = line.split()
        by_topic.setdefault(qid, []).append(d)
    for qid, docs in by_topic.items():
        for g in range(rng.randint(1, 3)):
            jg = f"jg{g}"
            members = rng.sample(docs, min(len(docs), rng.randint(1, 25)))
            level = {d: rng.choice([0.0, 0.0, 1.0, 2.0, 2.5, 3.0]) for d in members}
            nsub = rng.randint(1, 3)
            for s in range(nsub):
                sub = members if nsub == 1 else rng.sample(members, rng.randint(1, len(members)))
                for d in sub:
                    out.append(f"{qid} {jg} s{s} {d} {level[d]!r}\n")
    if rng.random() < 0.5:
        rng.shuffle(out)
    return "".join(out)


def zscores_file(rng: random.Random, topics: list[str], labels: list[str]) -> str:
    """A ``-Z`` file (``qid measure mean stddev``) for TOPICS and LABELS, some missing, some with a zero
    deviation.  Every topic listed also has a label ``zzz`` and the file a last topic ``~~~``: trec_eval's
    binary search reads one entry past the end when a key sorts after all of them, so nothing looked up
    may do that."""
    out = []
    for qid in topics + ["~~~"]:
        if qid != "~~~" and rng.random() < 0.15:
            continue
        for lab in labels + ["zzz"]:
            if lab != "zzz" and rng.random() < 0.1:
                continue
            std = rng.choice([0.0, 0.1, 0.25, 1.0, 2.0]) if lab != "zzz" else 1.0
            out.append(f"{qid} {lab} {rng.choice([0.0, 0.1, 0.5, 3.0])!r} {std!r}\n")
    rng.shuffle(out)
    return "".join(out)


def nul_places(text: str, judgements: bool) -> list[int]:
    """The lines of TEXT before which a NUL byte may start a line: trec_eval ends the file there
    (docs/trec-eval.md §3).  Only after the first data line (a line neither blank nor ``#``): a file
    without one leaves trec_eval a record it never filled, with no defined output (§7).  Not a line
    after a ``#`` line (trec_eval reads it as data without looking: past its buffer); of judgements
    (qrels or qrels_jg, the judgement fourth) only a line before which every topic has a judgement
    >= 0, as the cut file must keep clear of :data:`NEGATIVE_ONLY`.  Judgements are read as C's atol
    reads them."""
    from inexeval.readers.trec_numbers import atol

    lines = text.split("\n")  # (only a newline ends a line for trec_eval; splitlines also cuts at \v, \f)
    if lines[-1] == "":
        lines.pop()
    # (nor after a "#" line: trec_eval skips it and reads the next line without looking for the NUL)
    after_comment = {k + 1 for k, line in enumerate(lines) if line.lstrip(" \t\v\f\r").startswith("#")}
    first = next((k for k, line in enumerate(lines)
                  if line.strip(" \t\v\f\r") and not line.lstrip(" \t\v\f\r").startswith("#")), None)
    if first is None:  # (no data line)
        return []
    if not judgements:
        return [k for k in range(first + 1, len(lines)) if k not in after_comment]
    places, negative_only, judged = [], set(), set()
    for k, line in enumerate(lines):
        if k > first and not negative_only and k not in after_comment:
            places.append(k)
        f = line.split()
        if len(f) < 4 or line.startswith("#"):
            continue
        if atol(f[3]) >= 0:
            negative_only.discard(f[0])
        elif f[0] not in judged:
            negative_only.add(f[0])
        judged.add(f[0])
    return places


def write_case(folder: Path, files: dict[str, str]) -> dict[str, Path]:
    """Write FILES (name -> text) into FOLDER (created); their paths, by name."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = {}
    for name, text in files.items():
        p = folder / name
        p.write_bytes(text.encode("utf-8"))
        paths[name] = p
    return paths
