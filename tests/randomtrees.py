"""Random INEX-consistent assessments for property tests (seeded, deterministic).

Consistent means the INEX propagation rule holds: every ancestor of a listed
element is listed, a parent's size and rsize are at least its children's
sums, and exhaustivity never increases from a parent to its children.
"""

from __future__ import annotations

import random

from inexeval.model import E_TOO_SMALL, FileAssessment, Judgement, TopicAssessment


def _grow(rng: random.Random, path: str, depth: int, out: list[tuple[str, int, int, int]]):
    """Add (path, e, size, rsize) for this subtree to ``out``; return (e, size, rsize)."""
    kids = []
    if depth < 4:
        counts: dict[str, int] = {}
        for _ in range(rng.randint(0, 3)):
            tag = rng.choice(["sec", "p", "ss1"])
            counts[tag] = counts.get(tag, 0) + 1
            kids.append(f"{path}/{tag}[{counts[tag]}]")
    own_size = rng.randint(0, 60)
    r = rng.random()
    own_hl = own_size if r < 0.3 else (rng.randint(0, own_size) if r < 0.6 else 0)
    size, rsize, e = own_size, own_hl, 0
    start = len(out)
    out.append(None)  # placeholder, keeps document order
    for k in kids:
        ke, ks, kr = _grow(rng, k, depth + 1, out)
        size += ks
        rsize += kr
        e = max(e, ke)
    if rsize > 0:
        own_e = rng.choice([1, 2]) if size > 30 else rng.choice([E_TOO_SMALL, 1, 2])
        e = max(e, own_e) if e >= 0 else own_e
        if e == E_TOO_SMALL and size > 30:
            e = 1
    out[start] = (path, e, size, rsize)
    return e, size, rsize


def random_topic(seed: int, n_files: int = 3) -> TopicAssessment:
    rng = random.Random(seed)
    ta = TopicAssessment(topic=str(seed), pool=None, query_type=None, source="random")
    for f in range(n_files):
        rows: list = []
        _grow(rng, "/article[1]", 0, rows)
        fa = FileAssessment(file=f"d{f}")
        for path, e, size, rsize in rows:
            if rsize > 0:
                fa.elements[path] = Judgement(path, e, size, rsize)
        ta.files[fa.file] = fa
    return ta


def all_paths(ta: TopicAssessment, extra: int = 2) -> list[tuple[str, str]]:
    """Every listed element plus a few unlisted ones, as (file, path)."""
    out = [(f, p) for f, fa in ta.files.items() for p in fa.elements]
    out += [(f, "/article[1]/zz[9]") for f in list(ta.files)[:extra]]
    return out


def random_text_tree(rng: random.Random, own_text) -> dict[str, tuple[int, int]]:
    """A random article tree (depth <= 4, 0-3 children of tags sec/p) with text lengths.

    ``own_text(rng, leaf)`` gives an element's own (size, rsize) (its text
    outside its children); an element's size and rsize are its own plus its
    children's sums.  Returns path -> (size, rsize) for every element.
    """
    nodes: dict[str, tuple[int, int]] = {}

    def build(path: str, depth: int) -> tuple[int, int]:
        n_children = rng.randint(0, 3) if depth < 4 else 0
        size, rsize = own_text(rng, n_children == 0)
        counts: dict[str, int] = {}
        for _ in range(n_children):
            tag = rng.choice(["sec", "p"])
            counts[tag] = counts.get(tag, 0) + 1
            s, r = build(f"{path}/{tag}[{counts[tag]}]", depth + 1)
            size, rsize = size + s, rsize + r
        nodes[path] = (size, rsize)
        return size, rsize

    build("/article[1]", 1)
    return nodes
