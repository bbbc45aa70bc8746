"""Quantisation and recall-bases (SPEC §4.1, §4.2; seed 000 §2–§3).

A :class:`QuantisedTopic` is built once per (topic, quantisation) and shared
by every measure, run and overlap setting that uses it.
"""

from __future__ import annotations

from array import array
from functools import cached_property

import numpy as np

from inexeval.errors import InputError
from inexeval.model import E_TOO_SMALL, Judgement, TopicAssessment
from inexeval.paths import ancestors_or_self, depth, parent

#: Relative tolerance of every tie and threshold test (SPEC §10).
TOL = 1e-9

QUANT_FUNCTIONS = ("strict", "gen", "genLifted")


def quantise(name: str, j: Judgement) -> float:
    """quant(e, s) with s = rsize / size (SPEC §4.1; seed 000 eq. 1–3).

    - strict(e, s) = 1 if e = 2 and rsize = size > 0, else 0
    - gen(e, s) = e · s (``?`` counts as e = 0; unknown e gives s)
    - genLifted(e, s) = (e + 1) · s for e in {?, 1, 2}; 0 for an explicit 0
    """
    e, size, rsize = j.e, j.size, j.rsize
    s = rsize / size if size > 0 else 0.0
    if name == "gen":
        if e is None:
            return s
        return (e if e > 0 else 0) * s
    if e is None:
        raise InputError(f"{name} quantisation needs exhaustivity, absent for {j.path}", line=j.line)
    if name == "strict":
        return 1.0 if (e == 2 and size > 0 and rsize == size) else 0.0
    if name == "genLifted":
        if e == 0:
            return 0.0
        return ((0 if e == E_TOO_SMALL else e) + 1) * s
    raise ValueError(f"unknown quantisation {name!r}")


def _greater(a: float, b: float) -> bool:
    """a > b beyond the relative tolerance of SPEC §10."""
    return a - b > TOL * max(abs(a), abs(b), 1.0)


class TopicElements:
    """The listed elements of one topic, numbered once and shared by every quantisation.

    ``keys[i]`` is element i as ``(file, path)`` (file order), ``index`` the
    reverse map; ``size[i]`` its size; ``parent[i]`` the id of its listed
    parent (-1 for none: a root, or a parent the file does not list);
    ``up[i]`` the nearest listed proper ancestor (-1 for none); ``children[i]``
    the ids of its listed children.  ``unlisted_above`` holds the unlisted
    ancestors of listed elements (empty for files that follow the INEX
    rule of listing every ancestor).
    """

    def __init__(self, topic: TopicAssessment):
        self.keys: list[tuple[str, str]] = [(f, p) for f, fa in topic.files.items() for p in fa.elements]
        self.index: dict[tuple[str, str], int] = {k: i for i, k in enumerate(self.keys)}
        #: each file's elements are the ids start..end-1 (keys are grouped by file)
        self.file_slices: dict[str, tuple[int, int]] = {}
        start = 0
        for f, fa in topic.files.items():
            self.file_slices[f] = (start, start + len(fa.elements))
            start += len(fa.elements)
        self._topic = topic

    # The tree links are needed by overlap = on only; built on first use, as
    # array.array (8 bytes an entry, list-speed scalar access).
    @cached_property
    def size(self) -> array:
        return array("q", (j.size for fa in self._topic.files.values() for j in fa.elements.values()))

    @cached_property
    def _links(self) -> tuple[array, array, set[tuple[str, str]]]:
        n = len(self.keys)
        par, up = array("q", [-1]) * n, array("q", [-1]) * n
        unlisted_above: set[tuple[str, str]] = set()
        index = self.index
        for i, (f, p) in enumerate(self.keys):
            a = parent(p)
            j = index.get((f, a), -1) if a is not None else -1
            par[i] = up[i] = j
            while j < 0 and a is not None:  # a gap in the listing: look further up
                unlisted_above.add((f, a))
                a = parent(a)
                j = index.get((f, a), -1) if a is not None else -1
                up[i] = j
        return par, up, unlisted_above

    @property
    def parent(self) -> array:
        return self._links[0]

    @property
    def up(self) -> array:
        return self._links[1]

    @property
    def unlisted_above(self) -> set[tuple[str, str]]:
        return self._links[2]

    @cached_property
    def _child_index(self) -> tuple[array, array]:
        """Children in CSR form: those of i are ``ids[start[i]:start[i + 1]]``."""
        par = np.frombuffer(self.parent, dtype=np.int64)
        listed = np.flatnonzero(par >= 0)
        order = listed[np.argsort(par[listed], kind="stable")]
        counts = np.bincount(par[listed], minlength=len(par))
        start = np.zeros(len(par) + 1, dtype=np.int64)
        np.cumsum(counts, out=start[1:])
        return array("q", start.tobytes()), array("q", order.astype(np.int64).tobytes())

    def children(self, i: int) -> array:
        """The ids of element i's listed children, in file order."""
        start, ids = self._child_index
        return ids[start[i]:start[i + 1]]

    def __len__(self) -> int:
        return len(self.keys)

    def ids(self, ranking) -> np.ndarray:
        """Element ids of a ranking, -1 for results that are not listed."""
        get = self.index.get
        return np.fromiter((get(r, -1) for r in ranking), dtype=np.int64, count=len(ranking))


class QuantisedTopic:
    """One topic's assessments under one quantisation function.

    ``q_ext[i]`` is quant of element i of ``elements`` (a
    :class:`TopicElements` shared by the topic's quantisations), with a
    trailing 0 so that ``q_ext[ids]`` scores unlisted results (id -1) as 0.
    Only arrays are kept per quantisation; per-file dictionaries are built
    on demand (:meth:`file_quants`), which keeps memory small for large
    recall-bases.
    """

    def __init__(self, topic: TopicAssessment, quant_name: str, elements: TopicElements | None = None):
        self.topic = topic
        self.quant_name = quant_name
        self.elements = elements if elements is not None else TopicElements(topic)
        q = np.fromiter((quantise(quant_name, j) for fa in topic.files.values() for j in fa.elements.values()),
                        dtype=float, count=len(self.elements))
        self.q_ext = np.append(q, 0.0)

    @property
    def q(self) -> np.ndarray:
        """quant of every listed element, by element id."""
        return self.q_ext[:-1]

    def file_quants(self, file: str) -> dict[str, float]:
        """path -> quant for the listed elements of one file, in file order."""
        start, end = self.elements.file_slices.get(file, (0, 0))
        return dict(zip((p for _, p in self.elements.keys[start:end]), self.q_ext[start:end].tolist()))

    @cached_property
    def quant(self) -> dict[tuple[str, str], float]:
        """quant(c) by ``(file, path)`` for every listed element (0 included)."""
        return dict(zip(self.elements.keys, self.q.tolist()))

    # -- full recall-base -------------------------------------------------
    @cached_property
    def full_vector(self) -> np.ndarray:
        """xI for overlap = off: quant of every relevant element, decreasing."""
        v = self.q
        return -np.sort(-v[v > 0])

    # -- ideal recall-base ------------------------------------------------
    @cached_property
    def ideal(self) -> dict[str, list[str]]:
        """The ideal elements per file (SPEC §4.2), each file's list in file order."""
        gains = self.article_gain
        return {f: ideal_elements(self.file_quants(f)) for f in self.elements.file_slices if gains[f] > 0}

    @cached_property
    def ideal_vector(self) -> np.ndarray:
        """xI for overlap = on: quant of the ideal elements, decreasing."""
        index = self.elements.index
        v = self.q[[index[(f, p)] for f, ps in self.ideal.items() for p in ps]]
        return -np.sort(-v)

    def ideal_gain_vector(self, overlap: str) -> np.ndarray:
        return self.ideal_vector if overlap == "on" else self.full_vector

    # -- article level (FetchBrowse) ----------------------------------------
    @cached_property
    def article_gain(self) -> dict[str, float]:
        """Article gain = highest quant of any element in it (SPEC §4.7)."""
        q = self.q_ext
        return {f: float(q[a:b].max()) if b > a else 0.0 for f, (a, b) in self.elements.file_slices.items()}


def ideal_elements(qs: dict[str, float]) -> list[str]:
    """The ideal recall-base of one file (SPEC §4.2).

    1. leaves: relevant elements with no relevant descendant;
    2. for each leaf, the listed ancestor-or-self with the highest quant,
       the shallowest on a tie;
    3. drop every picked element that has a picked ancestor.
    """
    relevant = [p for p, q in qs.items() if q > 0]
    above: set[str] = set()
    for p in relevant:
        a = parent(p)
        while a is not None and a not in above:
            above.add(a)
            a = parent(a)
    picked: set[str] = set()
    for leaf in relevant:
        if leaf in above:
            continue
        best, best_q = None, 0.0
        # shallowest first, so that a later (deeper) one must be strictly better
        for a in reversed(list(ancestors_or_self(leaf))):
            q = qs.get(a)
            if q is not None and (best is None or _greater(q, best_q)):
                best, best_q = a, q
        picked.add(best)
    keep = [p for p in picked if not any(a in picked for a in _proper_ancestors(p))]
    order = {p: i for i, p in enumerate(qs)}
    keep.sort(key=lambda p: (order.get(p, len(order)), depth(p), p))
    return keep


def _proper_ancestors(path: str):
    a = parent(path)
    while a is not None:
        yield a
        a = parent(a)
