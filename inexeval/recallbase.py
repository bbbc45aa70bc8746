"""Quantisation and recall-bases (docs/measures.md §4.1, §4.2; seed 000 §2–§3).

A :class:`QuantisedTopic` is built once per (topic, quantisation) and shared
by every measure, run and overlap setting that uses it.
"""

from __future__ import annotations

from array import array
from functools import cached_property
from itertools import repeat

import numpy as np

from inexeval.errors import InputError
from inexeval.model import E_TOO_SMALL, Judgement, TopicAssessment
from inexeval.numeric import TOLERANCE
from inexeval.paths import ancestors_or_self

def quantise(name: str, j: Judgement) -> float:
    """quant(e, s) with s = rsize / size (docs/measures.md §4.1; seed 000 eq. 1–3).

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


def quantise_all(name: str, judgements: list[Judgement]) -> np.ndarray:
    """:func:`quantise` of every judgement, as float64 (the same operations on the same doubles,
    so the same values bit for bit)."""
    n = len(judgements)
    if name not in ("gen", "strict", "genLifted") or (name != "gen" and any(j.e is None for j in judgements)):
        return np.array([quantise(name, j) for j in judgements], dtype=float)  # raises the error
    size = np.fromiter((j.size for j in judgements), dtype=np.float64, count=n)  # < 2^53: exact
    rsize = np.fromiter((j.rsize for j in judgements), dtype=np.float64, count=n)
    e = np.fromiter((-2 if j.e is None else j.e for j in judgements), dtype=np.int64, count=n)
    s = np.zeros(n)
    np.divide(rsize, size, out=s, where=size > 0)
    if name == "gen":
        return np.where(e == -2, s, np.maximum(e, 0) * s)
    if name == "strict":
        return np.where((e == 2) & (size > 0) & (rsize == size), 1.0, 0.0)
    lifted = (np.where(e == E_TOO_SMALL, 0, e) + 1) * s
    return np.where(e == 0, 0.0, lifted)


class TopicElements:
    """The listed elements of one topic, numbered once and shared by every quantisation.

    Columnar, so that forked workers share it without copying (no
    per-element Python objects): element ids follow file order, each file's
    ids are ``file_slices[file]`` = (start, end); the ``(file, path)`` keys
    are one sorted int64 array searched with :meth:`ids`, each key the
    file's number in ``file_slices`` times 2^32 plus the path's number among
    the topic's distinct paths (``_path_number``: one string per distinct
    path, which files repeat, not per element); ``size[i]`` is the
    element's size; ``up[i]`` the nearest listed proper ancestor (-1: none);
    :attr:`parent` the id of its listed parent (-1: none, a root or a parent
    the file does not list), which is ``up`` but for the few elements below
    an unlisted parent (``_gaps``), so it is not stored; ``children(i)`` the
    ids of its listed children.  ``unlisted_above`` holds the unlisted
    ancestors of listed elements (empty for files that follow the INEX rule
    of listing every ancestor).  Scalars are read in Python loops, so ``up``
    and ``size`` are array.array (list-speed access, 4 bytes an entry; 8
    for sizes of 2^31 or more).
    """

    def __init__(self, topic: TopicAssessment):
        self.file_slices: dict[str, tuple[int, int]] = {}
        n = sum(len(fa.elements) for fa in topic.files.values())
        up = array("i", [-1]) * n
        gaps = array("i")
        self.unlisted_above: set[tuple[str, str]] = set()
        keys: list[int] = []
        start = 0
        #: path -> its number among the topic's distinct paths (the low 32 bits of a key)
        self._path_number: dict[str, int] = {}
        path_number = self._path_number.setdefault
        for number, (f, fa) in enumerate(topic.files.items()):
            high = number << 32
            local = {p: start + k for k, p in enumerate(fa.elements)}  # this file only, then dropped
            for p, i in local.items():
                cut = p.rfind("/")  # (paths.parent, inlined: once per assessed element)
                a = p[:cut] if cut > 0 else None
                up[i] = j = local.get(a, -1)
                if j < 0 and a is not None:  # a gap in the listing: look further up, noting it
                    gaps.append(i)
                    for a in ancestors_or_self(a):
                        up[i] = local.get(a, -1)
                        if up[i] >= 0:
                            break
                        self.unlisted_above.add((f, a))
                keys.append(high | path_number(p, len(self._path_number)))
            self.file_slices[f] = (start, start + len(local))
            start += len(local)
        self.up = up
        self._gaps = gaps
        self._number = {f: number for number, f in enumerate(self.file_slices)}
        self._files = list(self.file_slices)
        sizes = [j.size for fa in topic.files.values() for j in fa.elements.values()]
        try:
            self.size = array("i", sizes)
        except OverflowError:  # a size of 2^31 or more
            self.size = array("q", sizes)
        arr = np.array(keys, dtype=np.int64)  # (< 2^31 files and paths a topic: int32 ids)
        order = np.argsort(arr, kind="stable")
        self._sorted = arr[order]
        self._sorted_ids = order.astype(np.int32)

    @cached_property
    def _rank(self) -> np.ndarray:
        """Where element i's key is in the sorted keys (built for :meth:`key`, rarely needed in a run)."""
        rank = np.empty(len(self._sorted_ids), dtype=np.int32)
        rank[self._sorted_ids] = np.arange(len(rank), dtype=np.int32)
        return rank

    @property
    def parent(self) -> np.ndarray:
        """The id of each element's listed parent (-1: none, a root or a parent the file does not list)."""
        par = np.frombuffer(self.up, dtype=np.int32).copy()
        par[np.frombuffer(self._gaps, dtype=np.int32)] = -1
        return par

    @cached_property
    def _child_index(self) -> tuple[array, array]:
        """Children in CSR form: those of i are ``ids[start[i]:start[i + 1]]``."""
        par = self.parent.astype(np.int64)
        listed = np.flatnonzero(par >= 0)
        order = listed[np.argsort(par[listed], kind="stable")]
        counts = np.bincount(par[listed], minlength=len(par))
        start = np.zeros(len(par) + 1, dtype=np.int32)
        np.cumsum(counts, out=start[1:])
        return array("i", start.tobytes()), array("i", order.astype(np.int32).tobytes())

    @cached_property
    def up_chain(self) -> tuple[np.ndarray, int]:
        """(``up`` with -1 appended, the most listed proper ancestors of an element): a walk up from
        any ids (``ids = chain[ids]``, that many times) reaches -1 and stays there, where an array
        one longer than the elements holds what is above every root in its last place (overlap on:
        :func:`inexeval.gains.seen_ranks`)."""
        up = np.frombuffer(self.up, dtype=np.int32)
        depth, cur = 0, up[up >= 0]
        while cur.size:
            depth += 1
            cur = up[cur]
            cur = cur[cur >= 0]
        return np.append(up, np.int32(-1)), depth

    def children(self, i: int) -> array:
        """The ids of element i's listed children, in file order."""
        start, ids = self._child_index
        return ids[start[i]:start[i + 1]]

    def __len__(self) -> int:
        return len(self._sorted_ids)

    def ids(self, ranking) -> np.ndarray:
        """Element ids of a ranking of ``(file, path)`` pairs, -1 for results that are not listed."""
        n = len(ranking)
        if n == 0 or len(self._sorted) == 0:
            return np.full(n, -1, dtype=np.int64)
        files, paths = zip(*ranking)
        high = np.array(list(map(self._number.get, files, repeat(-1, n))), dtype=np.int64)
        low = np.array(list(map(self._path_number.get, paths, repeat(-1, n))), dtype=np.int64)
        wanted = (high << 32) | low  # (a file or path the topic does not list: negative, no key)
        pos = np.minimum(np.searchsorted(self._sorted, wanted), len(self._sorted) - 1)
        return np.where(self._sorted[pos] == wanted, self._sorted_ids[pos].astype(np.int64), -1)

    @cached_property
    def _paths(self) -> list[str]:
        """The topic's distinct paths by number (for :meth:`key`)."""
        return list(self._path_number)

    def key(self, i: int) -> tuple[str, str]:
        """The ``(file, path)`` of element i."""
        key = int(self._sorted[self._rank[i]])
        return self._files[key >> 32], self._paths[key & 0xFFFFFFFF]


class QuantisedTopic:
    """One topic's assessments under one quantisation function.

    ``q_ext[i]`` is quant of element i of ``elements`` (a
    :class:`TopicElements` shared by the topic's quantisations), with a
    trailing 0 so that ``q_ext[ids]`` scores unlisted results (id -1) as 0.
    Only arrays are kept, and everything is computed from them, so the
    topic's assessment objects may be released once the quantisations a run
    needs are built (:meth:`inexeval.engine.Scorer.prepare`).
    """

    def __init__(self, topic: TopicAssessment, quant_name: str, elements: TopicElements | None = None):
        self.elements = elements if elements is not None else TopicElements(topic)
        #: quant by id plus a trailing 0, as array.array (fast scalar reads in the overlap-on walk);
        #: ``q_ext`` is a numpy view of the same memory
        self.q_array = array("d", quantise_all(quant_name, [j for fa in topic.files.values()
                                                             for j in fa.elements.values()]).tobytes())
        self.q_array.append(0.0)
        self.q_ext = np.frombuffer(self.q_array, dtype=float)

    @property
    def q(self) -> np.ndarray:
        """quant of every listed element, by element id."""
        return self.q_ext[:-1]

    def file_quants(self, file: str) -> dict[str, float]:
        """path -> quant for the listed elements of one file, in file order."""
        start, end = self.elements.file_slices.get(file, (0, 0))
        el = self.elements
        return {el.key(i)[1]: float(self.q_ext[i]) for i in range(start, end)}

    # -- full recall-base -------------------------------------------------
    @cached_property
    def full_vector(self) -> np.ndarray:
        """xI for overlap = off: quant of every relevant element, decreasing."""
        v = self.q
        return -np.sort(-v[v > 0])

    # -- ideal recall-base ------------------------------------------------
    @cached_property
    def ideal_ids(self) -> array:
        """The ideal elements (docs/measures.md §4.2) as ids, in file order (see :func:`ideal_element_ids`)."""
        return array("i", ideal_element_ids(self.q, self.elements.up))

    @cached_property
    def ideal(self) -> dict[str, list[str]]:
        """The ideal elements per file, each file's list in file order."""
        out: dict[str, list[str]] = {}
        for i in self.ideal_ids:
            f, p = self.elements.key(i)
            out.setdefault(f, []).append(p)
        return out

    @cached_property
    def ideal_vector(self) -> np.ndarray:
        """xI for overlap = on: quant of the ideal elements, decreasing."""
        v = self.q[np.frombuffer(self.ideal_ids, dtype=np.int32)]
        return -np.sort(-v)

    def ideal_gain_vector(self, overlap: str) -> np.ndarray:
        return self.ideal_vector if overlap == "on" else self.full_vector

    # -- article level (FetchBrowse) ----------------------------------------
    @cached_property
    def article_gain(self) -> dict[str, float]:
        """Article gain = highest quant of any element in it (docs/measures.md §4.7)."""
        q = self.q_ext
        return {f: float(q[a:b].max()) if b > a else 0.0 for f, (a, b) in self.elements.file_slices.items()}


def ideal_element_ids(q, up) -> list[int]:
    """The ideal recall-base by element id (docs/measures.md §4.2).

    ``q[i]`` is quant of element i, ``up[i]`` its nearest listed ancestor
    (-1 for none).  Leaves are relevant elements with no relevant listed
    descendant; each picks the listed ancestor-or-self with the highest
    quant, the shallowest on a tie; picked elements below another picked
    element are dropped.  Returned in id (file) order.  (The tests check it
    against the same rule stated on paths, tests/recallbase_paths.py.)

    Computed level by level from the roots down: ``best[i]``, the pick of a
    leaf at i, is i itself when its quant is greater (beyond the tolerance)
    than that of its parent's pick, else its parent's pick, which is the
    walk from the shallowest ancestor down, one level at a time for all.
    """
    q = np.asarray(q, dtype=np.float64)
    up = np.frombuffer(up, dtype=np.int32) if isinstance(up, array) else np.asarray(up, dtype=np.int32)
    n = len(q)
    if n == 0:
        return []
    levels = _levels(up)
    relevant = q > 0
    has_rel_desc = np.zeros(n, dtype=bool)
    cur = up[relevant]
    while cur.size:
        cur = cur[cur >= 0]
        cur = cur[~has_rel_desc[cur]]  # already marked: so are its ancestors
        has_rel_desc[cur] = True
        cur = up[cur]
    best = np.arange(n, dtype=np.int32)
    above = np.zeros(n, dtype=bool)  # a picked proper ancestor (filled below)
    for ids in levels[1:]:
        a, b = q[ids], q[best[up[ids]]]
        greater = a - b > TOLERANCE * np.maximum(np.maximum(np.abs(a), np.abs(b)), 1.0)
        best[ids] = np.where(greater, ids, best[up[ids]])
    picked = np.zeros(n, dtype=bool)
    picked[best[relevant & ~has_rel_desc]] = True
    for ids in levels[1:]:
        p = up[ids]
        above[ids] = picked[p] | above[p]
    return np.flatnonzero(picked & ~above).tolist()


def _levels(up: np.ndarray) -> list[np.ndarray]:
    """Element ids by depth in the listed tree (roots first), each level in id order."""
    if len(up) == 0:
        return []
    depth = np.zeros(len(up), dtype=np.int32)
    cur = up.copy()
    live = np.flatnonzero(cur >= 0)
    while live.size:
        depth[live] += 1
        cur[live] = up[cur[live]]
        live = live[cur[live] >= 0]
    order = np.argsort(depth, kind="stable").astype(np.int32)
    bounds = np.searchsorted(depth[order], np.arange(depth.max() + 2))
    return [order[bounds[d]:bounds[d + 1]] for d in range(len(bounds) - 1)]
