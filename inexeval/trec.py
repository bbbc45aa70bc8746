"""``TASK: trec``: classic measures on TREC qrels and runs, trec_eval's semantics (SPEC §8).

Entry points: :func:`evaluate_trec` (read, score, average) and
:func:`format_trec_eval` (trec_eval's own output layout).  Measure names and
their parameter spelling are documented in :mod:`inexeval.measures.classic`;
:data:`MEASURES` lists them for ``inexeval metrics``.

Per run (trec_eval 9.0.x):

- results are ordered by score descending, ties by docno descending (byte
  order); the rank column is ignored.  A repeated (topic, docno) keeps its
  first line in the file (SPEC §1.3 hygiene; trec_eval refuses such a run),
  counted in one warning.  ``max_results`` (trec_eval ``-M``) keeps the
  first results of each topic *after* ordering; None keeps all.
- topics absent from the qrels are ignored (one warning per run).
- a topic with no relevant document (rel >= ``rel_level``) has no value
  (SPEC §10): its per-topic values are None and it is left out of every
  average, also with ``empty_as_zero``.
- averages are over the run's qrels topics; with ``empty_as_zero`` (``-e``,
  trec_eval ``-c``) over every qrels topic with a relevant document, a topic
  missing from the run scoring 0 for every measure (``num_rel`` included,
  as trec_eval sums ``num_rel`` over evaluated topics only).
- ``num_ret``, ``num_rel``, ``num_rel_ret`` average as sums; ``gm_map``
  per topic is the topic's average precision and averages as
  exp(mean(log(max(AP, 0.00001)))); everything else is an arithmetic mean.
- the run id is the tag column; if the tags disagree, the file name (with
  a warning).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from inexeval.errors import ConfigError, InputError
from inexeval.measures.classic import (
    DEFAULT_MEASURES,
    INTEGER,
    MEASURES,
    SUMMED,
    MeasureSpec,
    compute,
    parse_measures,
)
from inexeval.measures.classic_base import JUDGED_NEGATIVE, NOT_JUDGED, Ranking, TopicTable
from inexeval.measures.classic_trec import gm_mean
from inexeval.model import RunResult
from inexeval.readers.trec import Qrels, TrecRun, read_qrels, read_run

__all__ = ["evaluate_trec", "format_trec_eval", "MEASURES", "DEFAULT_MEASURES", "topic_table", "rank_run"]


def _decode(b: bytes) -> str:
    return b.decode("utf-8", "replace")


def topic_table(qrels: Qrels, rel_level: int = 1) -> TopicTable:
    """Per-topic facts of QRELS (rows already sorted by qid, docno)."""
    keys, first = np.unique(qrels.qid, return_index=True)
    qstart = np.append(first, qrels.qid.size).astype(np.int64)
    topic = np.repeat(np.arange(keys.size), np.diff(qstart))
    rel = qrels.rel
    num_rel = np.bincount(topic[rel >= rel_level], minlength=keys.size).astype(np.int64)
    num_nonrel = np.bincount(topic[(rel >= 0) & (rel < rel_level)], minlength=keys.size).astype(np.int64)
    vocab, code = np.unique(qrels.docno, return_inverse=True)
    qkey = topic * max(vocab.size, 1) + code.astype(np.int64).ravel()  # sorted: rows are by (qid, docno)
    return TopicTable(keys, [_decode(k) for k in keys], qstart, rel, qrels.docno, rel_level, num_rel, num_nonrel,
                      vocab, qkey)


# --- docnos as integers ------------------------------------------------------------------------
#
# The run's docnos and the qrels vocabulary get uint64 keys that order exactly as the byte strings
# (strcmp) and are equal exactly when the strings are: after that, every sort and look-up is
# numeric.  Fast path: the bytes occurring in either are renumbered 1 … m in byte order (NUL, the
# padding, is 0), and a docno of up to W bytes is the base-2^b number of its codes, b = bits(m),
# when W·b <= 64 ("D499-2999": 13 symbols, 4 bits, 9 x 4 = 36 bits).  Shorter strings are padded
# with code 0, so a prefix sorts first, as in strcmp.  Otherwise the key is the rank of the docno
# among the distinct docnos of qrels and run (one string sort).

_BITS = [max(1, (m).bit_length()) for m in range(257)]  # bits for codes 0 … m
_ABSENT = np.uint64(1 << 63)  # flag in a pair code: a byte outside the alphabet


def _byte_matrix(s: np.ndarray) -> np.ndarray:
    """The bytes of an ``S`` array as an ``(n, itemsize)`` uint8 matrix (no copy when contiguous)."""
    s = np.ascontiguousarray(s)
    return s.view(np.uint8).reshape(s.size, s.dtype.itemsize)


def _used_width(b: np.ndarray) -> int:
    """Columns of byte matrix B up to the last one holding a non-NUL byte."""
    for c in range(b.shape[1] - 1, -1, -1):
        if b[:, c].any():
            return c + 1
    return 0


def _pair_codes(alphabet: np.ndarray) -> tuple[np.ndarray, int]:
    """Codes of byte pairs, indexed by the pair read as a little-endian uint16, and bits per byte.

    A byte's code is its rank among the present non-NUL bytes (1 … m), NUL's is 0; a pair's code is
    ``code(first) << bits | code(second)``, with :data:`_ABSENT` set if a byte is not in ALPHABET.
    """
    present = alphabet.copy()
    present[0] = True
    code = np.cumsum(present, dtype=np.uint64) - np.uint64(1)  # NUL -> 0, present bytes 1 … m
    code[~present] = _ABSENT
    bits = _BITS[int(present.sum()) - 1]
    v = np.arange(65536)
    lo, hi = code[v & 255], code[v >> 8]
    return (lo << np.uint64(bits)) | hi | ((lo | hi) & _ABSENT), bits


def _pack(b: np.ndarray, pairs: np.ndarray, bits: int, width: int) -> tuple[np.ndarray, bool]:
    """Keys of the rows of byte matrix B (WIDTH bytes, WIDTH even, B at least that wide, or narrower
    and then NUL-padded): the byte codes as base-2^bits digits.  Also whether every byte had a code."""
    n = b.shape[0]
    have = min(width, b.shape[1] - b.shape[1] % 2)
    if have < width and have < b.shape[1]:  # an odd last column: copy with a NUL column
        b = np.concatenate((b[:, : have + 1], np.zeros((n, 1), dtype=np.uint8)), axis=1)
        have += 2
    u16 = np.ascontiguousarray(b[:, :have]).view(np.uint16) if have else np.zeros((n, 0), dtype=np.uint16)
    acc = np.zeros(n, dtype=np.uint64)
    flags = np.zeros(n, dtype=np.uint64)
    shift = np.uint64(2 * bits)
    for j in range(u16.shape[1]):
        v = pairs[u16[:, j]]
        acc <<= shift
        acc |= v
        flags |= v
    acc <<= np.uint64(bits * (width - have))  # columns past B's width: NUL, code 0
    return acc, not (flags & _ABSENT).any()


def _doc_keys(table: TopicTable, docno: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """uint64 keys of ``table.vocab`` (increasing) and of DOCNO, same order and equality as the bytes."""
    c = table.cache
    if "vocab_bytes" not in c:
        vb = _byte_matrix(table.vocab)
        present = np.zeros(256, dtype=bool)
        present[np.unique(vb)] = True
        c["vocab_bytes"], c["vocab_width"], c["alphabet"] = vb, _used_width(vb), present
    vb, alphabet = c["vocab_bytes"], c["alphabet"]
    rb = _byte_matrix(docno)
    width = max(c["vocab_width"], _used_width(rb), 1)
    width += width % 2
    for attempt in range(2):
        pairs, bits = _pair_codes(alphabet)
        if width * bits > 64:
            break
        dkey, complete = _pack(rb, pairs, bits, width)
        if complete:
            ck = (alphabet.tobytes(), width)
            if c.get("vocab_key_id") != ck:
                c["vocab_key"], _ = _pack(vb, pairs, bits, width)
                c["vocab_key_id"] = ck
            return c["vocab_key"], dkey
        alphabet = alphabet.copy()  # the run has other bytes: extend the alphabet, once
        alphabet[np.unique(rb)] = True
        c["alphabet"] = alphabet
    both = np.concatenate((table.vocab, docno))  # general case: ranks in the union (byte order)
    _, inv = np.unique(both, return_inverse=True)
    inv = inv.ravel().astype(np.uint64)
    return inv[: table.vocab.size], inv[table.vocab.size :]


# --- trec_eval order ---------------------------------------------------------------------------


def _row_topics(qid: np.ndarray, table: TopicTable) -> tuple[np.ndarray, np.ndarray]:
    """Table topic index of every row (-1: not in the qrels), and the distinct unknown ids.

    Runs list a topic's results together, so ids are compared once per block
    of equal consecutive ids, not once per row.
    """
    n = qid.size
    bstart = np.concatenate(([0], np.flatnonzero(qid[1:] != qid[:-1]) + 1))
    uq, binv = np.unique(qid[bstart], return_inverse=True)
    if table.size:
        pos = np.minimum(np.searchsorted(table.keys, uq), table.size - 1)
        known = table.keys[pos] == uq
    else:
        pos, known = np.zeros(uq.size, dtype=np.int64), np.zeros(uq.size, dtype=bool)
    btopic = np.where(known, pos, -1)[binv.ravel()]
    return np.repeat(btopic, np.diff(np.append(bstart, n))), uq[~known]


def _dense_rank(x: np.ndarray) -> tuple[np.ndarray, int]:
    """0-based rank of every value of X among its distinct values, and their number."""
    o = np.argsort(x)
    xs = x[o]
    new = np.empty(xs.size, dtype=bool)
    new[:1] = True
    np.not_equal(xs[1:], xs[:-1], out=new[1:])
    r = np.cumsum(new) - 1
    out = np.empty(x.size, dtype=np.int64)
    out[o] = r
    return out, int(r[-1]) + 1 if r.size else 0


def rank_run(
    run: TrecRun, table: TopicTable, *, max_results: int | None = None, warn: Callable[[str], None] | None = None
) -> tuple[Ranking, np.ndarray]:
    """Order RUN as trec_eval does and look up relevance; also which table topics the run has.

    Returns the :class:`Ranking` over every topic of TABLE (topics the run
    lacks are empty) and a boolean mask of the topics present in the run.

    Steps, all on integer keys (see ``_doc_keys``): (1) sort the rows by
    (topic, docno); equal neighbours are duplicates, of which the first
    line is kept; (2) in that order the (topic, docno) pairs increase, so the
    qrels are searched with sorted needles; (3) the final order (topic
    ascending, score descending, docno descending) is one sort of the key
    ``(topic·S + S−1−score rank)·n + n−1−p``, p being the row's place in
    step 1 (docno order within its topic), S the number of distinct scores.
    """
    say = warn or (lambda msg: None)
    tidx, unknown_ids = _row_topics(run.qid, table)
    docno, score = run.docno, run.score
    if unknown_ids.size:
        unknown = [_decode(q) for q in unknown_ids]
        say(f"{run.source}: {len(unknown)} topic(s) not in the qrels ignored: {', '.join(unknown[:10])}"
            + (" ..." if len(unknown) > 10 else ""))
        keep = np.flatnonzero(tidx >= 0)
        tidx, docno, score = tidx[keep], docno[keep], score[keep]
    n = tidx.size
    vkey, dkey = _doc_keys(table, docno)

    # (1) order by (topic, docno): docno first, then a stable sort on the topic (radix for int16)
    o = np.argsort(dkey)
    if table.size > 1:
        small = np.int16 if table.size <= np.iinfo(np.int16).max else np.int32
        o = o[np.argsort(tidx[o].astype(small), kind="stable")]
    t_s, d_s = tidx[o], dkey[o]
    same = (t_s[1:] == t_s[:-1]) & (d_s[1:] == d_s[:-1])
    if same.any():
        say(f"{run.source}: {int(same.sum())} duplicate result(s) dropped (first occurrence kept)")
        gstart = np.flatnonzero(np.concatenate(([True], ~same)))
        o = np.minimum.reduceat(o, gstart)  # the first line of every (topic, docno)
        t_s, d_s = tidx[o], dkey[o]
        n = o.size
    score_s = score[o] + 0.0  # -0.0 ties with 0.0, as in trec_eval's comparison

    # (2) relevance: vocabulary position, then (topic, position) among the qrels keys
    V = vkey.size
    rel = np.full(n, NOT_JUDGED, dtype=np.int64)
    if V and n:
        vpos = np.searchsorted(vkey, d_s)
        hit = vkey[np.minimum(vpos, V - 1)] == d_s
        rkey = t_s * V + vpos
        p = np.minimum(np.searchsorted(table.qkey, rkey), table.qkey.size - 1)
        hit &= table.qkey[p] == rkey
        r = table.qrel[p]
        rel[hit] = np.where(r[hit] >= 0, r[hit], JUDGED_NEGATIVE)

    # (3) trec_eval order: topic ascending, score descending, docno descending
    srank, S = _dense_rank(score_s)
    pos = np.arange(n, dtype=np.int64)
    if n and table.size * S * n < 2**62:
        fin = np.argsort((t_s * S + (S - 1 - srank)) * n + (n - 1 - pos))  # keys distinct: no tie to break
    else:
        fin = np.lexsort((-pos, -srank, t_s))
    t_o, rel = t_s[fin], rel[fin]
    counts = np.bincount(t_o, minlength=table.size)
    if max_results is not None:
        start0 = np.concatenate(([0], np.cumsum(counts)))
        rank = np.arange(t_o.size) - np.repeat(start0[:-1], counts) + 1
        within = rank <= max_results
        rel, t_o = rel[within], t_o[within]
        counts = np.bincount(t_o, minlength=table.size)
    start = np.concatenate(([0], np.cumsum(counts))).astype(np.int64)
    present = np.bincount(t_s, minlength=table.size) > 0
    return Ranking(table, start, rel), present


def _run_id(run: TrecRun, say: Callable[[str], None]) -> str:
    if len(run.tags) == 1:
        return run.tags[0]
    name = Path(run.source).name
    say(f"{run.source}: the tag column holds {len(run.tags)} different run ids; using the file name {name!r}")
    return name


def _average(name: str, values: list[float]) -> float | None:
    if not values:
        return None
    if name in SUMMED:
        return float(sum(values))
    if name == "gm_map":
        return gm_mean(np.array(values))
    return float(np.mean(values))


def score_run(
    run: TrecRun,
    table: TopicTable,
    specs: list[MeasureSpec],
    *,
    gains: dict[int, float] | None = None,
    q_beta: float = 1.0,
    empty_as_zero: bool = False,
    max_results: int | None = None,
    warn: Callable[[str], None] | None = None,
) -> RunResult:
    """Score one parsed run against TABLE: per-topic values and averages (module docstring)."""
    say = warn or (lambda msg: None)
    ranking, present = rank_run(run, table, max_results=max_results, warn=say)
    values = compute(ranking, specs, gains=gains, q_beta=q_beta)
    names = [s.name for s in specs]
    defined = table.num_rel > 0
    counted = present | empty_as_zero  # -e: every qrels topic (undefined ones stay None)
    missing = counted & ~present
    per_topic: dict[str, dict[str, float | None]] = {}
    columns = {n: values[n].tolist() for n in names}
    for t in np.flatnonzero(counted).tolist():
        if not defined[t]:
            per_topic[table.names[t]] = {n: None for n in names}
        elif missing[t]:
            per_topic[table.names[t]] = {n: 0.0 for n in names}
        else:
            per_topic[table.names[t]] = {n: columns[n][t] for n in names}
    undefined = int((counted & ~defined).sum())
    if undefined:
        say(f"{run.source}: {undefined} topic(s) without relevant documents have no value")
    scored = [v for v in per_topic.values() if v[names[0]] is not None] if names else []
    average = {n: _average(n, [v[n] for v in scored]) for n in names}
    return RunResult(_run_id(run, say), "default", names, per_topic, average, run.source)


def evaluate_trec(
    qrels_path: str | Path,
    run_paths: Sequence[str | Path],
    *,
    measures: Sequence[str] | None,
    rel_level: int = 1,
    gains: dict[int, float] | None = None,
    q_beta: float = 1.0,
    empty_as_zero: bool = False,
    max_results: int | None = None,
    warn: Callable[[str], None] | None = None,
) -> tuple[list[RunResult], list[InputError]]:
    """Score every run of RUN_PATHS against the qrels (SPEC §8).

    ``measures``: names as in :mod:`inexeval.measures.classic` (None: the
    default set).  A bad measure name or ``rel_level`` < 1 raises
    ConfigError; a bad qrels file raises InputError; a bad run file is
    returned in the error list and the other runs are still scored.
    Warnings go to ``warn`` (default: standard error).
    """
    say = warn or (lambda msg: print(f"warning: {msg}", file=sys.stderr))
    if rel_level < 1:
        raise ConfigError(f"REL_LEVEL must be >= 1, not {rel_level}")
    if max_results is not None and max_results < 1:
        raise ConfigError(f"MAX_RESULTS must be >= 1, not {max_results}")
    specs = parse_measures(list(measures) if measures is not None else None)
    table = topic_table(read_qrels(qrels_path), rel_level)
    results: list[RunResult] = []
    errors: list[InputError] = []
    for path in run_paths:
        try:
            run = read_run(path)
        except InputError as exc:
            errors.append(exc)
            continue
        results.append(
            score_run(run, table, specs, gains=gains, q_beta=q_beta, empty_as_zero=empty_as_zero,
                      max_results=max_results, warn=say)
        )
    return results, errors


def _fmt(name: str, value: float, digits: int | None) -> str:
    if name in INTEGER:
        return str(int(round(value)))
    return repr(float(value)) if digits is None else f"{value:.{digits}f}"


def format_trec_eval(
    results: RunResult | Sequence[RunResult], digits: int | None = None, *, per_query: bool = False
) -> str:
    """Results in trec_eval's layout: ``"%-22s\\t%s\\t%s\\n"`` (measure, topic, value).

    Values in full precision (``repr``) by default, ``digits=4`` for
    trec_eval's ``%.4f``; integer measures as integers.  With ``per_query``
    (trec_eval ``-q``), each topic's lines first, topics in byte order and
    undefined topics skipped (trec_eval never evaluates them), ``gm_map``
    not printed per topic (as trec_eval); then the summary under ``all``,
    opened by ``runid`` and ``num_q``.
    """
    runs = [results] if isinstance(results, RunResult) else list(results)
    out: list[str] = []
    for res in runs:
        if per_query:
            # byte order, as trec_eval prints topics (not aggregate.natural_key)
            for topic in sorted(res.per_topic, key=lambda t: t.encode("utf-8")):
                vals = res.per_topic[topic]
                for name in res.measures:
                    v = vals[name]
                    if v is not None and name != "gm_map":
                        out.append(f"{name:<22}\t{topic}\t{_fmt(name, v, digits)}\n")
        num_q = sum(1 for v in res.per_topic.values() if any(x is not None for x in v.values()))
        out.append(f"{'runid':<22}\tall\t{res.run_id}\n")
        out.append(f"{'num_q':<22}\tall\t{num_q}\n")
        for name in res.measures:
            v = res.average[name]
            if v is not None:
                out.append(f"{name:<22}\tall\t{_fmt(name, v, digits)}\n")
    return "".join(out)
