"""inex_eval 3.1's reading of a FOL run (``fol._read_run``) as array operations, up to the first line it must walk.

:func:`walk` computes, for a text run, what the tool's line walk
(``docs/inex_eval.md §4``-``§7``) computes -- the run id, the ``Impossible
recall point`` lines, each qrels topic's state -- over whole columns of the
run's bytes with numpy, for its lines up to the first line of a qrels topic
that comes back after another one (``Prefix.stop``): there the tool keeps
the current state (D5), and the walk goes on from the state handed over,
up to the next topic met for the first time, from whose line (``start``)
the arrays read on (``fol.score_fol_run``).  It answers None, leaving the
rest of the run to the walk, unless every line is a plain 8-field line
(fields split at ASCII white space, no NUL byte, no TOPIC or ARTICLE longer
than ``fol_qrels_arrays.NAME_BYTES``) and, from ``start`` up to ``stop``:

- every OFFSET is ``X``, ``-1`` or 1 to 9 ASCII digits, every LENGTH of a
  known passage 1 to 9 digits and not 0: ``end = OFFSET + LENGTH`` is exact
  and passages are non-empty;
- no passage overlaps another of its article in its topic (so each line's
  Thorough novelty is the whole passage, D7), no article comes back in an
  in-context task (#3), no article has two lines in Best in Context (#4);
- the qrels have no int problem and the sizes add up to at most 2^31 - 1:
  no int arithmetic wraps around (D17), nothing is refused (formats §1.7).

Rejections, deaths and everything else are the walk's.  Per line, with
``s`` = OFFSET, ``e = s + LENGTH`` and the judgement's passages ``[k, l)``
(``relevant_chars``: its cases are this intersection when ``k <= l``):

    rel = sum over passages of max(0, min(e, l) - max(s, k))

and the size is LENGTH, or 18 for an unknown passage (0 in Thorough when
the article is relevant).  Focused and Thorough: per topic, with the
cumulative sums ``ret`` and ``relret`` over its lines, ``precision = relret
/ ret``, ``recall = relret / rel_size`` (IEEE division), bin ``b =
floor(100 * recall)`` (NaN: 0), ``iP[b] = max(iP[b], precision)`` for
``0 <= b <= 100``, else an impossible recall point.  In context: an entry
per rank (a run of lines of one article), the sums of its sizes and
relevant characters; Best in Context: ``(n - |BEP - s|) / n`` within
``n``.  Integer sums are exact in int64 and every double comes from the
same single IEEE operation as in the walk: the values are the walk's, bit
for bit (tests/test_fol_arrays.py).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from inexeval.measures.fol_t2i import Stretches, stretches, t2i_scores
from inexeval.readers.bytekeys import block_starts, byte_matrix, distinct, short_keys
from inexeval.readers.fol import INT_MAX, UNKNOWN_SIZE, UNKNOWN_START, FolQrels, FolRunFile
from inexeval.readers.fol_qrels_arrays import digit_values, field_strings
from inexeval.readers.fol_run_arrays import field_bounds

__all__ = ["walk", "forget_run", "Prefix", "RankColumns", "TopicRanks", "curve", "curves"]


class Prefix(NamedTuple):
    """The walk's state after the lines before ``stop`` (the run's length: every line).

    ``states``: per qrels topic met, ``(R, num_ret, num_rel_ret, ret_size, rel_ret_size, iP, entries)``
    as ``fol._TopicRun`` holds them (iP: 101 values for -f/-t; entries: ``[size, rel, rel_chars,
    num_rel_ret, judgement, record]`` per rank for -r/-i, ``[score, rel_chars, num_rel_ret]`` for -b);
    ``last_topic``, ``counter``, ``prev`` and ``table`` (article -> passages) the current state;
    ``reset_at`` the line that reset it; ``run_ret``, ``run_relret`` the characters retrieved.
    """

    stop: int
    run_id: str
    impossible: list[str]
    states: dict[str, tuple]
    last_topic: str | None
    counter: int
    prev: str
    table: dict[str, list]
    reset_at: int
    run_ret: int
    run_relret: int


class _Judged:
    """The qrels as columns, built once per qrels (:func:`_judged`)."""

    def __init__(self, qrels: FolQrels):
        self._pairs: tuple | None = None
        self._stretches: Stretches | None = None
        self.topic_names = list(qrels.topics)
        self.topic_index = {t: i for i, t in enumerate(self.topic_names)}
        read = qrels.columns  # (readers.fol.ReadColumns) the columns the qrels were read from, if any
        if read is not None and read.topics is qrels.topics and len(read.judgements) == sum(
                len(t.judgements) for t in qrels.topics.values()):
            self._from_columns(read.judgements, read.arrays)
            return
        self.judgements = []
        jt, articles, first, count, ks, ls = [], [], [], [], [], []
        for t, (topic_id, topic) in enumerate(qrels.topics.items()):
            for article, j in topic.judgements.items():
                self.judgements.append(j)
                jt.append(t)
                articles.append(article.encode("utf-8", "surrogatepass"))
                first.append(len(ks))
                count.append(len(j.spans))
                for k, l in j.spans:
                    ks.append(k)
                    ls.append(l)
        names = [t.encode("utf-8", "surrogatepass") for t in self.topic_names]
        self.usable = not any(b"\0" in x for x in names + articles)  # S arrays drop trailing NULs
        self.topics = np.array(names, dtype=bytes)
        self.articles = np.array(articles, dtype=bytes)
        self.jt = np.array(jt, dtype=np.int64)
        js = self.judgements
        self.rel_chars = np.array([j.rel_chars for j in js] + [0], dtype=np.int64)  # [-1]: not judged
        self.bep = np.array([j.bep for j in js] + [-1], dtype=np.int64)
        self.doc_length = np.array([j.doc_length for j in js] + [0], dtype=np.int64)
        self.first = np.array(first + [0], dtype=np.int64)
        self.count = np.array(count + [0], dtype=np.int64)
        self.k = np.array(ks, dtype=np.int64)
        self.l = np.array(ls, dtype=np.int64)
        self.rel_size = np.array([qrels.topics[t].rel_size for t in self.topic_names], dtype=np.int64)

    def stretches(self) -> Stretches:
        """The union of each judgement's passages (:func:`inexeval.measures.fol_t2i.stretches`), made
        once per qrels."""
        if self._stretches is None:
            self._stretches = stretches(self.first, self.count, self.k, self.l)
        return self._stretches

    def pair_index(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The distinct articles judged (sorted ``S`` array), the key ``topic * their count + article``
        of each judgement, sorted, and the judgement of each key; made once per qrels."""
        if self._pairs is None:
            names, name = distinct(self.articles)
            pairs = self.jt * names.size + name
            by = np.argsort(pairs)
            self._pairs = (names, pairs[by], by)
        return self._pairs

    def _from_columns(self, judgements, c) -> None:
        """The same columns from those of the qrels reader (``fol_qrels_arrays.QrelsColumns``: the
        judgements in the same order, topic by topic; the reader reads no text with a NUL byte)."""
        self.judgements = judgements
        self.usable = True
        self.topics = np.array([t.encode("ascii") for t in self.topic_names], dtype=bytes)
        self.articles = c.articles
        self.jt = c.jt
        self.rel_chars = np.append(c.rel_chars, 0)
        self.bep = np.append(c.bep, -1)
        self.doc_length = np.append(c.doc_length, 0)
        self.first = np.append(c.first, 0)
        self.count = np.append(c.count, 0)
        self.k, self.l, self.rel_size = c.k, c.l, c.rel_size


#: Above every OFFSET read as 1 to 9 digits (:func:`_integers`): a sort key beside a line number.
_START_SPAN = 1 << 30

_cache: tuple[FolQrels, _Judged] | None = None


def _judged(qrels: FolQrels) -> _Judged:
    global _cache
    if _cache is None or _cache[0] is not qrels:
        _cache = (qrels, _Judged(qrels))
    return _cache[1]


def _integers(data: np.ndarray, s: np.ndarray, e: np.ndarray) -> np.ndarray | None:
    """The fields [s, e) as ints when each is 1 to 9 ASCII digits (Integer.parseInt is then int()), else None."""
    if not s.size:
        return np.zeros(0, dtype=np.int64)
    if ((e - s) > 9).any():
        return None
    return digit_values(data, s, e)


def _ids(known: np.ndarray, found: np.ndarray) -> np.ndarray:
    """Ids of FOUND among KNOWN (``S`` arrays; KNOWN's items distinct): their index in KNOWN, else -1.
    Computed for the first item of each block of equal neighbours when they are few (a run's topics)."""
    starts = block_starts(found)
    if 4 * starts.size <= found.size:
        return np.repeat(_ids(known, found[starts]), np.diff(np.append(starts, found.size)))
    _, inv = distinct(np.concatenate((known, found)))
    lut = np.full(int(inv.max()) + 1 if inv.size else 0, -1, dtype=np.int64)
    lut[inv[:known.size]] = np.arange(known.size)
    return lut[inv[known.size:]]


def _positions(known: np.ndarray, found: np.ndarray) -> np.ndarray:
    """Index of each item of FOUND in KNOWN (``S`` arrays, KNOWN's items distinct and sorted), else -1;
    compared as 8-byte numbers when both hold at most 8 bytes an item (:func:`short_keys`: the same order)."""
    if not known.size:
        return np.full(found.size, -1, dtype=np.int64)
    if known.dtype.itemsize <= 8 and found.dtype.itemsize <= 8:
        known, found = short_keys(byte_matrix(known), 8), short_keys(byte_matrix(found), 8)
    at = np.minimum(np.searchsorted(known, found), known.size - 1)
    return np.where(known[at] == found, at, -1)


def _records(rank_j: np.ndarray, rank_of: np.ndarray, start: np.ndarray, end: np.ndarray,
             known: np.ndarray, lo: int = 0, hi: int | None = None) -> list:
    """T2I's article record of each rank LO to HI (default: every rank): for a judged rank (RANK_J >= 0)
    its known passages as ``(start, end)`` in order, else None; RANK_OF is each line's rank."""
    hi = rank_j.size if hi is None else hi
    line_judged = rank_j[rank_of] >= 0
    pick = np.flatnonzero(known & line_judged & (rank_of >= lo) & (rank_of < hi))
    rank = rank_of[pick] - lo
    by = np.lexsort((end[pick], start[pick], rank))
    pairs = list(zip(start[pick][by].tolist(), end[pick][by].tolist()))
    bounds = np.concatenate(([0], np.cumsum(np.bincount(rank, minlength=hi - lo)))).tolist()
    records: list = [None] * (hi - lo)
    for r in np.flatnonzero(rank_j[lo:hi] >= 0).tolist():
        records[r] = pairs[bounds[r]:bounds[r + 1]]
    return records


class RankColumns:
    """The ranks of a run read by :func:`walk` for an in-context task, topic after topic, as columns:
    ``rel_chars`` and ``found`` (num_rel_ret so far) of each rank; Best in Context (a rank per line)
    its ``score``; Relevant in Context and T2I the characters retrieved (``size``) and relevant
    (``rel``) of each rank, its judgement (``rank_j`` into the qrels' ``judged``: :class:`_Judged`,
    -1: none) and, T2I, its article record (``records``, made when first asked for from
    ``record_parts``: each line's rank, passage and whether it is known).  ``entries`` gives the walk's list form (``fol._TopicRun.entries``)."""

    __slots__ = ("task", "rel_chars", "found", "score", "size", "rel", "rank_j", "record_parts", "judged",
                 "_records", "_scores")

    def __init__(self, task: str, rel_chars: np.ndarray, found: np.ndarray, *, score=None, size=None, rel=None,
                 rank_j=None, record_parts=None, judged=None):
        self.task = task
        self.rel_chars, self.found, self.score = rel_chars, found, score
        self.size, self.rel, self.rank_j = size, rel, rank_j
        self.record_parts, self.judged = record_parts, judged
        self._records: list | None = None
        self._scores: dict = {}

    @property
    def records(self) -> list | None:
        """T2I's article record of each rank (:func:`_records`; None for the other tasks)."""
        if self._records is None and self.record_parts is not None:
            self._records = _records(self.rank_j, *self.record_parts)
        return self._records

    def entries(self, lo: int, hi: int) -> list[list]:
        """Ranks LO to HI as the walk's entries: ``[score, rel_chars, found]`` (-b), else ``[size, rel,
        rel_chars, found, judgement, record]``."""
        if self.task == "b":
            return list(map(list, zip(self.score[lo:hi].tolist(), self.rel_chars[lo:hi].tolist(),
                                      self.found[lo:hi].tolist())))
        judgements = self.judged.judgements
        if self._records is not None:
            records = self._records[lo:hi]
        elif self.record_parts is not None:
            records = _records(self.rank_j, *self.record_parts, lo, hi)
        else:
            records = [None] * (hi - lo)
        return list(map(list, zip(self.size[lo:hi].tolist(), self.rel[lo:hi].tolist(),
                                  self.rel_chars[lo:hi].tolist(), self.found[lo:hi].tolist(),
                                  [judgements[j] if j >= 0 else None for j in self.rank_j[lo:hi].tolist()],
                                  records)))

    def scores(self, bb: float, irr: int, t2i) -> np.ndarray:
        """Each rank's document score, as ``fol._rank_curve`` computes it from an entry: the BEP
        score (-b); F with beta^2 = BB of the rank's precision and recall, 0 without relevant characters
        retrieved (-r); T2I's ``t2i(record, judgement, IRR)``, 0 for a rank not judged (-i)."""
        key = (bb, irr)
        s = self._scores.get(key)
        if s is not None:
            return s
        if self.task == "b":
            s = self.score
        elif self.task == "r":
            relret = self.rel
            with np.errstate(divide="ignore", invalid="ignore"):
                p = relret / self.size
                rc = relret / self.rel_chars
                s = np.where(relret > 0, (((1 + bb) * p) * rc) / (bb * p + rc), 0.0)
        else:  # every rank at once (fol_t2i), the ranks it leaves one at a time (the walk's int arithmetic)
            s, done = t2i_scores(self.rank_j, *self.record_parts, self.judged.stretches(), self.judged.doc_length, irr)
            left = np.flatnonzero(~done).tolist()
            if left:
                records, judgements = self.records, self.judged.judgements
                for r in left:
                    s[r] = t2i(records[r], judgements[int(self.rank_j[r])], irr)
        self._scores[key] = s
        return s


class TopicRanks:
    """A topic's ranks ``lo`` to ``hi`` of :class:`RankColumns` (``fol._TopicRun.entries`` of a run read
    by :func:`walk`); :func:`curve` scores them."""

    __slots__ = ("columns", "lo", "hi")

    def __init__(self, columns: RankColumns, lo: int, hi: int):
        self.columns, self.lo, self.hi = columns, lo, hi

    def __len__(self) -> int:
        return self.hi - self.lo

    def entries(self) -> list[list]:
        return self.columns.entries(self.lo, self.hi)


def curve(ranks: TopicRanks, num_rel: int, bb: float, irr: int, t2i) -> tuple | None:
    """``(gP, gR, iP, sum)`` of a topic's ranks as ``fol._rank_curve`` computes them, bit
    for bit: with ``s`` the document scores (:meth:`RankColumns.scores`), ``gP[k] = (s_1 + ... + s_k) / k``
    summed left to right from 0.0, ``gR[k] = found_k / NUM_REL``, the 11-point ``iP[b]`` the largest gP
    (not NaN, above 0.0) in recall bin ``b = int(10 gR)``, and ``sum`` the gP of the ranks with relevant
    characters, summed left to right (``cumsum``: sequential, as the loop).  None where the loop must
    decide: no relevant line (NUM_REL <= 0) or a recall bin outside 0 to 10 (the tool can die there)."""
    c = ranks.columns
    lo, hi = ranks.lo, ranks.hi
    if num_rel <= 0:
        return None
    gr = c.found[lo:hi] / num_rel
    x = 10 * gr
    if not ((x >= 0.0) & (x < 11.0)).all():
        return None
    s = c.scores(bb, irr, t2i)[lo:hi]
    total = np.cumsum(np.concatenate(([0.0], s)))[1:]
    gp = total / np.arange(1, hi - lo + 1)
    iP = np.zeros(11)
    np.fmax.at(iP, x.astype(np.int64), gp)
    sum_gp = float(np.cumsum(np.concatenate(([0.0], np.where(c.rel_chars[lo:hi] > 0, gp, 0.0))))[-1])
    return gp, gr, iP.tolist(), sum_gp


#: :func:`curves` lays the topics' ranks out in a matrix of a row per topic when it has at most this many
#: cells per rank (plus a few thousand): a run with one long topic among many short ones is scored topic by
#: topic (:func:`curve`).
_PADDING = 4


def curves(ranks: list[TopicRanks], num_rel: list[int], bb: float, irr: int, t2i) -> list[tuple | None] | None:
    """:func:`curve` of each topic's RANKS (all of one :class:`RankColumns`) with its NUM_REL, at once:
    the same values bit for bit, None for a topic where :func:`curve` answers None; None when the ranks
    are not of one RankColumns or too unequal in length (:data:`_PADDING`) to be laid out at once.

    The ranks are laid out in a matrix, a row per topic after a column of 0.0, and padded with 0.0:
    ``cumsum`` along a row adds left to right from 0.0 as :func:`curve`'s does, and the padding comes
    after the sums that are read; iP takes each topic's values in its own 11 cells, rank after rank."""
    if not ranks:
        return []
    c = ranks[0].columns
    if any(r.columns is not c for r in ranks):
        return None
    lo = np.array([r.lo for r in ranks], dtype=np.int64)
    lens = np.array([r.hi - r.lo for r in ranks], dtype=np.int64)
    rel = np.array(num_rel, dtype=np.int64)
    t, width = lens.size, int(lens.max())
    total_ranks = int(lens.sum())
    if t * width > _PADDING * total_ranks + 4096 or not width:
        return None
    row = np.repeat(np.arange(t), lens)
    col = np.arange(total_ranks) - np.repeat(np.cumsum(lens) - lens, lens)
    flat = lo[row] + col
    rel_row = rel[row]
    with np.errstate(divide="ignore", invalid="ignore"):
        gr = c.found[flat] / rel_row
    x = 10 * gr
    bad = ~((x >= 0.0) & (x < 11.0)) | (rel_row <= 0)
    ok = (np.bincount(row[bad], minlength=t) == 0) & (rel > 0)
    s = np.zeros((t, width + 1))
    s[row, col + 1] = c.scores(bb, irr, t2i)[flat]
    gp = np.cumsum(s, axis=1)[:, 1:] / np.arange(1, width + 1)
    gp_flat = gp[row, col]
    good = ok[row]
    iP = np.zeros(t * 11)
    np.fmax.at(iP, row[good] * 11 + x[good].astype(np.int64), gp_flat[good])
    w = np.zeros((t, width + 1))
    w[row, col + 1] = np.where(c.rel_chars[flat] > 0, gp_flat, 0.0)
    sums = np.cumsum(w, axis=1)[np.arange(t), lens].tolist()
    iPs = iP.reshape(t, 11).tolist()
    bounds = np.concatenate(([0], np.cumsum(lens))).tolist()
    return [(gp[i, :bounds[i + 1] - bounds[i]], gr[bounds[i]:bounds[i + 1]], iPs[i], sums[i]) if good_i else None
            for i, good_i in enumerate(ok.tolist())]


_run_cache: tuple | None = None


def forget_run() -> None:
    """Let go of the columns :func:`walk` keeps for a run's next segment (``fol.score_fol_run``, when done)."""
    global _run_cache
    _run_cache = None


def _run_columns(judged: _Judged, run: FolRunFile) -> tuple | None:
    """(bytes, field starts, field ends, each line's article as bytes, each line's qrels topic or -1) of
    RUN, or None when :func:`walk` cannot read it; kept for the run's next segment (:func:`walk`'s START)."""
    global _run_cache
    if _run_cache is not None and _run_cache[0] is run and _run_cache[1] is judged:
        return _run_cache[2]
    found = None
    fields = field_bounds(run) if judged.usable else None
    if fields is not None:
        data, fs, fe = fields
        topics, articles = field_strings(data, fs[:, 0], fe[:, 0]), field_strings(data, fs[:, 2], fe[:, 2])
        if topics is not None and articles is not None:  # (else an id too long to be read as arrays)
            found = (data, fs, fe, articles, _ids(judged.topics, topics))
    _run_cache = (run, judged, found)
    return found


def walk(qrels: FolQrels, run: FolRunFile, task: str, n: int, start: int = 0, met=(),
         sums: tuple[int, int] = (0, 0)) -> Prefix | None:
    """The walk's state after the run's lines up to the first comeback of a topic, or None (see the module).

    From line START on (the first line of a topic met for the first time), the topics MET before
    coming back there too, and SUMS the characters retrieved and relevant retrieved before
    (``Prefix.run_ret``, ``run_relret``): a run whose topics come back is read in segments, the line
    walk reading from each comeback to the next topic met for the first time (``fol.score_fol_run``)."""
    if qrels.int_problem is not None:
        return None
    judged = _judged(qrels)
    columns = _run_columns(judged, run)
    if columns is None:
        return None
    data, fs, fe, run_articles, rt = columns
    lines = fs.shape[0]
    kept = np.flatnonzero(rt >= 0)  # D19: the tool skips the other lines
    if start:
        kept = kept[kept >= start]
    if not kept.size:
        return Prefix(lines, "", [], {}, None, 0, "", {}, -1, *sums)
    tk = rt[kept]
    cut = np.flatnonzero(tk[1:] != tk[:-1]) + 1
    block_topics = tk[np.concatenate(([0], cut))].tolist()
    m = kept.size
    stop = lines
    met = {judged.topic_index[t] for t in met}
    for b, t in enumerate(block_topics):
        if t in met:  # a topic comes back: from its line on the walk goes on
            if b == 0:
                return None  # (START is a topic met for the first time)
            m = int(cut[b - 1])
            stop = int(kept[m])
            break
        met.add(t)
    kept, tk = kept[:m], tk[:m]
    block_start = np.concatenate(([0], np.flatnonzero(tk[1:] != tk[:-1]) + 1))
    order = tk[block_start]  # qrels topic index of each block (= topic) in run order
    lens = np.diff(np.append(block_start, m))
    tid = np.repeat(np.arange(order.size), lens)

    fs, fe = fs[kept], fe[kept]
    # article names: the run's own ids (NAME), and the judgement of each line: its (topic, article) pair
    # among the qrels' (Judged.pair_index)
    run_names, name = distinct(run_articles[kept])
    names_count = run_names.size
    known_names, sorted_pairs, by_pair = judged.pair_index()
    line_known = _positions(known_names, run_names)[name]
    jx = np.full(m, -1, dtype=np.int64)
    if sorted_pairs.size:
        wanted = tk * known_names.size + line_known
        at = np.minimum(np.searchsorted(sorted_pairs, wanted), sorted_pairs.size - 1)
        match = (sorted_pairs[at] == wanted) & (line_known >= 0)
        jx[match] = by_pair[at[match]]
    # each line's article record: the first line of (topic, article) (unjudged names told apart too)
    key = tid * names_count + name
    o = np.argsort(key, kind="stable")
    ks = key[o]
    new = np.ones(m, dtype=bool)
    new[1:] = ks[1:] != ks[:-1]
    first = np.empty(m, dtype=np.int64)
    first[o] = np.repeat(o[new], np.diff(np.append(np.flatnonzero(new), m)))
    is_first = first == np.arange(m)
    new_rank = np.ones(m, dtype=bool)
    new_rank[1:] = first[1:] != first[:-1]
    new_rank[block_start] = True
    if task in "rbi" and (new_rank & ~is_first).any():
        return None  # an article comes back: interleaved (#3)
    if task == "b" and not new_rank.all():
        return None  # several lines of one article (#4)

    # the passages
    os_, oe = fs[:, 6], fe[:, 6]
    width = oe - os_
    c0 = data[os_]
    unknown = ((width == 1) & (c0 == ord("X"))) | ((width == 2) & (c0 == ord("-")) & (data[os_ + 1] == ord("1")))
    known = ~unknown
    start = np.full(m, UNKNOWN_START, dtype=np.int64)
    size = np.full(m, UNKNOWN_SIZE, dtype=np.int64)
    parsed_start = _integers(data, os_[known], oe[known])
    parsed_size = _integers(data, fs[known, 7], fe[known, 7])
    if parsed_start is None or parsed_size is None or not parsed_size.all():
        return None  # a number the walk parses (or dies on), or an empty passage
    start[known] = parsed_start
    size[known] = parsed_size
    end = start + size
    kn = np.flatnonzero(known)
    if kn.size > 1:  # no passage overlaps another of its article record (#5)
        by = np.argsort(first[kn] * _START_SPAN + start[kn], kind="stable")  # (record, start): 0 <= start < 10^9
        g, s, e = first[kn][by], start[kn][by], end[kn][by]
        if ((g[1:] == g[:-1]) & (s[1:] < e[:-1])).any():
            return None

    rel_chars = judged.rel_chars[jx]
    relevant = rel_chars > 0
    rel = np.zeros(m, dtype=np.int64)
    hit = np.flatnonzero(known & relevant & (judged.count[jx] > 0))
    if hit.size:
        j = jx[hit]
        cnt = judged.count[j]
        offs = np.cumsum(cnt) - cnt
        owner = np.repeat(np.arange(hit.size), cnt)
        span = np.repeat(judged.first[j] - offs, cnt) + np.arange(int(cnt.sum()))
        inter = np.minimum(end[hit][owner], judged.l[span]) - np.maximum(start[hit][owner], judged.k[span])
        np.maximum(inter, 0, out=inter)
        rel[hit] = np.add.reduceat(inter, offs)
    if task == "t":
        size[unknown & relevant] = 0  # the tool sums the novel pieces of a relevant article: none
    run_ret, run_relret = sums
    if task != "b":
        run_ret, run_relret = run_ret + int(size.sum()), run_relret + int(rel.sum())
        if run_ret > INT_MAX or run_relret > INT_MAX:
            return None  # the sizes add up past 2^31 - 1 (D17; the config path refuses the run)

    names = [judged.topic_names[t] for t in order.tolist()]
    first_rel = is_first & relevant
    num_ret = np.add.reduceat(is_first, block_start, dtype=np.int64)
    num_rel_ret = np.add.reduceat(first_rel, block_start, dtype=np.int64)
    ranks = (lens if task == "f" else np.add.reduceat(new_rank, block_start, dtype=np.int64)).tolist()
    impossible: list[str] = []
    states: dict[str, tuple] = {}
    last = m - 1
    run_id = data[fs[last, 5]:fe[last, 5]].tobytes().decode("utf-8", "surrogatepass")
    if task in "ft":
        ret_total = np.add.reduceat(size, block_start)
        rel_total = np.add.reduceat(rel, block_start)
        ret = np.cumsum(size) - np.repeat(np.cumsum(ret_total) - ret_total, lens)
        relret = np.cumsum(rel) - np.repeat(np.cumsum(rel_total) - rel_total, lens)
        with np.errstate(divide="ignore", invalid="ignore"):
            precision = relret / ret
            recall = relret / judged.rel_size[tk]
        x = 100 * recall
        b = np.floor(np.clip(np.nan_to_num(x, nan=0.0, posinf=INT_MAX), -INT_MAX - 1, INT_MAX)).astype(np.int64)
        bad = (b < 0) | (b > 100)
        if bad.any():
            impossible = [f"Impossible recall point: {v}" for v in b[bad].tolist()]
        ok = ~bad & ~np.isnan(precision)
        iP = np.zeros(order.size * 101)
        np.fmax.at(iP, tid[ok] * 101 + b[ok], precision[ok])
        rows = iP.reshape(order.size, 101).tolist()
        for i, t in enumerate(names):
            states[t] = (ranks[i], int(num_ret[i]), int(num_rel_ret[i]), int(ret_total[i]), int(rel_total[i]),
                         rows[i], [])
    else:
        found = np.cumsum(first_rel) - np.repeat(np.cumsum(num_rel_ret) - num_rel_ret, lens)  # num_rel_ret so far
        rank_start = np.flatnonzero(new_rank)
        if task == "b":
            bep = judged.bep[jx]
            distance = np.abs(bep - start)
            with np.errstate(divide="ignore", invalid="ignore"):
                score = np.where(relevant & (bep > -1) & (distance <= n), (float(n) - distance) / n, 0.0)
            columns = RankColumns(task, rel_chars, found, score=score)
            ret_total = rel_total = [0] * order.size
        else:
            rank_j = jx[rank_start]
            parts = (np.cumsum(new_rank) - 1, start, end, known) if task == "i" else None
            columns = RankColumns(task, rel_chars[rank_start], found[rank_start],
                                  size=np.add.reduceat(size, rank_start), rel=np.add.reduceat(rel, rank_start),
                                  rank_j=rank_j, record_parts=parts, judged=judged)
            ret_total = np.add.reduceat(size, block_start).tolist()
            rel_total = np.add.reduceat(rel, block_start).tolist()
        bounds = np.concatenate(([0], np.cumsum(ranks))).tolist()
        for i, t in enumerate(names):
            ranked = TopicRanks(columns, bounds[i], bounds[i + 1])
            states[t] = (ranks[i], int(num_ret[i]), int(num_rel_ret[i]), ret_total[i], rel_total[i], None, ranked)
        if stop < lines:  # the walk goes on appending to the current topic's entries (and a comeback's: fol._read_run)
            current = states[names[-1]]
            states[names[-1]] = current[:6] + (current[6].entries(),)
    if stop == lines:
        return Prefix(stop, run_id, impossible, states, names[-1], ranks[-1], "", {}, -1, run_ret, run_relret)
    # the current state, for the walk to go on with: the last topic's article records
    a = int(block_start[-1])
    text = [data[fs[i, 2]:fe[i, 2]].tobytes().decode("utf-8", "surrogatepass") for i in range(a, m)]
    table: dict[str, list] = {}
    kept_known = known.tolist()
    for i, article in enumerate(text, a):
        record = table.setdefault(article, [])
        if kept_known[i]:
            record.append((int(start[i]), int(end[i])))
    if task != "t":
        for record in table.values():
            record.sort()
    if task == "i":  # the entries hold the records the walk goes on adding to
        entries_last = states[names[-1]][6]
        for entry, i in zip(entries_last, np.flatnonzero(new_rank[a:]).tolist()):
            entry[5] = table[text[i]]
    return Prefix(stop, run_id, impossible, states, names[-1], ranks[-1], text[-1], table, int(kept[a]),
                  run_ret, run_relret)
