"""Random FOL qrels and runs for the tests of the INEX 2007-2010 tasks (docs/fol.md).

The qrels are well formed: one line per (topic, article), relevant passages
that do not overlap, REL_CHARS = their total length and a best entry point
at the start of the first one; one topic has nothing relevant.  Runs are
valid for the task they are made for (no overlap within an article except
for Thorough, each article's results together for the in-context tasks, one
result per article for Best in Context), each topic's lines one block, in
random (file) order, with unjudged articles, passages that miss or partly hit
the relevant text, unknown passages (``X``) and a topic the qrels do not have.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path

#: topic -> article -> (rel_chars, doc_length, bep, [(offset, length)])
Qrels = dict[str, dict[str, tuple[int, int, int, list[tuple[int, int]]]]]
#: A run: (topic, article, offset, length) rows in file order; offset "X" for an unknown passage.
Rows = list[tuple[str, str, str, str]]

IN_CONTEXT = frozenset("rbi")


@dataclass
class FolCase:
    qrels: Qrels
    runs: dict[str, Rows]  # run name -> rows
    nothing_relevant: list[str] = field(default_factory=list)


def random_qrels(rng: random.Random, n_topics: int | None = None) -> tuple[Qrels, str]:
    """Topics 8, 9, … (natural order differs from string order); the last has nothing relevant."""
    qrels: Qrels = {}
    n = n_topics or rng.randint(3, 5)
    for i in range(n):
        t = str(i + 8)
        arts = {}
        for a in range(rng.randint(2, 7)):
            length = rng.randint(50, 1500)
            passages = []
            if i < n - 1 and (a == 0 or rng.random() < 0.5):
                at = rng.randint(0, 40)
                while at < length - 5 and len(passages) < 3:
                    ln = rng.randint(1, min(300, length - at))
                    passages.append((at, ln))
                    at += ln + rng.randint(1, 200)
            rel = sum(ln for _, ln in passages)
            arts[f"a{i}_{a}"] = (rel, length, passages[0][0] if passages else -1, passages)
        qrels[t] = arts
    return qrels, str(n - 1 + 8)


def qrels_text(qrels: Qrels) -> str:
    lines = []
    for t, arts in qrels.items():
        for a, (rel, length, bep, passages) in arts.items():
            if passages:
                lines.append(f"{t} Q0 {a} {rel} {length} {bep} " + " ".join(f"{o}:{n}" for o, n in passages))
            else:
                lines.append(f"{t} Q0 {a} {rel} {length}")
    return "\n".join(lines) + "\n"


def _passages(rng: random.Random, length: int, k: int, overlap: bool) -> list[tuple[str, str]]:
    """K passages of an article of LENGTH characters (some beyond its end, some unknown)."""
    out: list[tuple[str, str]] = []
    at = rng.randint(0, max(0, length // 2))
    for _ in range(k):
        if rng.random() < 0.08:
            out.append(("X", str(rng.randint(0, 50))))
            continue
        ln = rng.randint(0, 400)
        out.append((str(at), str(ln)))
        at = at + rng.randint(0, ln) if overlap else at + ln + rng.randint(0, 100)
    return out


def random_run(rng: random.Random, qrels: Qrels, task: str, skip: str | None = None) -> Rows:
    """A run valid for TASK (docs/fol.md §2); topic SKIP left out; topic 999 is not in the qrels."""
    blocks = []
    for t, arts in list(qrels.items()) + [("999", {"zz": (0, 100, -1, [])})]:
        if t == skip or (rng.random() > 0.85 and t != list(qrels)[-1]):
            continue
        pool = list(arts) + ["u1", "u2"]  # u*: unjudged
        chosen = rng.sample(pool, rng.randint(1, len(pool)))
        rows = []
        for a in chosen:
            length = arts[a][1] if a in arts else 500
            k = 1 if task == "b" else rng.randint(1, 3)
            rows.append([(t, a, o, ln) for o, ln in _passages(rng, length, k, task == "t")])
        if task in IN_CONTEXT:
            block = [r for rs in rows for r in rs]
        else:  # articles may interleave, each article's passages in order
            block = [r for rs in rows for r in rs]
            keys = sorted(range(len(block)), key=lambda i: rng.random())
            by_article: dict[str, list] = {}
            for r in block:
                by_article.setdefault(r[1], []).append(r)
            block = [by_article[block[i][1]].pop(0) for i in keys]
        blocks.append(block)
    return [r for b in blocks for r in b]


def ideal_run(qrels: Qrels, task: str) -> Rows:
    """Every relevant passage exactly (Best in Context: each relevant article at its best entry point)."""
    rows: Rows = []
    for t, arts in qrels.items():
        for a, (rel, _length, bep, passages) in arts.items():
            if rel <= 0:
                continue
            if task == "b":
                rows.append((t, a, str(bep), "1"))
            else:
                rows.extend((t, a, str(o), str(n)) for o, n in passages)
    return rows


def run_text(rows: Rows, run_id: str = "R") -> str:
    """8-column lines, with ranks and scores that disagree with the file order (never read)."""
    return "".join(f"{t} Q0 {a} {len(rows) - i} {i * 0.5} {run_id} {o} {n}\n" for i, (t, a, o, n) in enumerate(rows))


def run_xml(rows: Rows, run_id: str = "R", task: str = "Focused") -> str:
    """The XML twin of a run (INEX 2008 FOL submission, one <topic> per block of a topic)."""
    out = [f'<inex-submission participant-id="1" run-id="{run_id}" task="{task}" result-type="fol">']
    current = None
    for t, a, o, n in rows:
        if t != current:
            if current is not None:
                out.append("</topic>")
            out.append(f'<topic topic-id="{t}">')
            current = t
        out.append(f'  <result><file>{a}</file><fol offset="{o}" length="{n}"/><rank>1</rank></result>')
    if current is not None:
        out.append("</topic>")
    out.append("</inex-submission>")
    return "\n".join(out) + "\n"


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path
