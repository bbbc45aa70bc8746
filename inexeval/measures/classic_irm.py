"""ir_measures' measure names on the classic engine (docs/measures.md §8.6).

The measures ir_measures computes through its ``pytrec_eval`` and ``judged`` providers, named as
ir_measures writes and prints them (``P@5``, ``P(rel=2)@5``, ``nDCG@10``, ``AP``, ``SetF(beta=0.5)``,
``Judged@10``), with the parameters ir_measures takes for each (:data:`IRM`).  A name is read
case-sensitively, as ir_measures reads it, by :func:`parse_ir_measures`: the measure's name, its
parameters ``(key=value,…)`` as Python literals, then ``@`` and its cut-off (IPrec: its recall).
Its canonical spelling is ir_measures' ``str(measure)``: the parameters in the order written, those
at their default left out, the ``@`` value last.

The values are trec_eval's (the classic engine's kernels) on a variant of the run's ranking: the
relevance level ``rel`` (trec_eval ``-l``), ``judged_only`` (trec_eval ``-J``), nDCG's ``gains``
(the qrels values mapped, as ir_measures maps them before calling pytrec_eval), see
:func:`variant_ranking`; ``Judged`` is ir_measures' own (:func:`judged_at`).  The mean is
ir_measures': over every qrels topic, a topic the run lacks scoring 0 (counts summed).
"""

from __future__ import annotations

import ast
import math
import re

import numpy as np

from inexeval.errors import ConfigError
from inexeval.measures.classic_base import JUDGED_NEGATIVE, NOT_JUDGED, Ranking
from inexeval.readers.trec_numbers import LONG_MAX
from inexeval.records import field, record, replace

#: a parameter without a default (ir_measures' NOT_PROVIDED)
NONE = object()


@record(frozen=True)
class IrmFamily:
    """One ir_measures measure: its name, its ``@`` parameter (``cutoff``, IPrec's ``recall``; None:
    none), whether that is required, its other parameters (key -> (type, default)), what trec_eval
    computes for it (for ``inexeval metrics`` and the docs) and how ir_measures aggregates it."""

    name: str
    at: str | None
    at_required: bool
    params: dict = field(default_factory=dict)
    trec: str = ""
    aggregate: str = "mean"  # mean or sum (NumQ, NumRel, NumRet)
    choices: dict = field(default_factory=dict)  # key -> the values pytrec_eval takes

    @property
    def integer(self) -> bool:
        return self.aggregate == "sum"

    def pattern(self) -> str:
        """The name pattern ``inexeval metrics`` shows: ``P(rel=1,judged_only=False)@k``."""
        shown = []
        for key, (kind, default) in self.params.items():
            if key == self.at:
                continue
            if default is NONE:
                shown.append(f"{key}=…" if kind is not dict else f"{key}={{level:gain,…}}")
            else:
                shown.append(f"{key}={default!r}")
        text = self.name + (f"({','.join(shown)})" if shown else "")
        if self.at is not None:
            at = "k" if self.at == "cutoff" else "x"
            text += f"@{at}" if self.at_required else f"[@{at}]"
        return text


_REL = ("rel", (int, 1))
_JO = ("judged_only", (bool, False))
_CUT = ("cutoff", (int, NONE))

#: The measures of ir_measures' pytrec_eval and judged providers, with the parameters they take there.
IRM: dict[str, IrmFamily] = {f.name: f for f in (
    IrmFamily("P", "cutoff", True, dict((_CUT, _REL, _JO)), "precision at k (trec_eval P_k)"),
    IrmFamily("R", "cutoff", True, dict((_CUT, _REL, _JO)), "recall at k (trec_eval recall_k)"),
    IrmFamily("AP", "cutoff", False, dict((_CUT, _REL, _JO)), "average precision (trec_eval map; AP@k: map_cut_k)"),
    IrmFamily("RR", None, False, dict((_REL, _JO)), "reciprocal rank (trec_eval recip_rank)"),
    IrmFamily("nDCG", "cutoff", False,
              dict((_CUT, ("dcg", (str, "log2")), ("gains", (dict, NONE)), _JO)),
              "nDCG, gain = relevance or gains={level:gain}, log2(i+1) discount (trec_eval ndcg; nDCG@k: ndcg_cut_k)",
              choices={"dcg": ("log2",)}),
    IrmFamily("Rprec", None, False, dict((_REL, _JO)), "precision at R (trec_eval Rprec)"),
    IrmFamily("Bpref", None, False, dict((_REL,)), "binary preference (trec_eval bpref)"),
    IrmFamily("infAP", None, False, dict((_REL,)), "inferred AP (trec_eval infAP)"),
    IrmFamily("IPrec", "recall", True, dict((("recall", (float, NONE)), _REL, _JO)),
              "interpolated precision at recall x, x rounded to 2 decimals (trec_eval iprec_at_recall_x)"),
    IrmFamily("SetP", None, False, dict((_REL, ("relative", (bool, False)), _JO)),
              "set precision (trec_eval set_P; relative=True: set_relative_P)"),
    IrmFamily("SetR", None, False, dict((_REL,)), "set recall (trec_eval set_recall)"),
    IrmFamily("SetF", None, False, dict((_REL, ("beta", (float, 1.0)), _JO)), "set F (trec_eval set_F_beta)"),
    IrmFamily("SetAP", None, False, dict((_REL, _JO)), "set AP, SetP x SetR (trec_eval set_map)"),
    IrmFamily("Success", "cutoff", True, dict((_CUT, _REL, _JO)), "1 if a relevant result is in the first k (trec_eval success_k)"),
    IrmFamily("NumQ", None, False, {}, "number of topics the run has among the qrels' (summed)", "sum"),
    IrmFamily("NumRel", None, False, dict((_REL,)), "relevant documents in the qrels of the run's topics (summed; rel=1 only)",
              "sum", choices={"rel": (1,)}),
    IrmFamily("NumRet", None, False, dict((("rel", (int, NONE)),)),
              "results retrieved (summed); NumRet(rel=r): those judged >= r (trec_eval num_ret, num_rel_ret)", "sum"),
    IrmFamily("Judged", "cutoff", False, dict((_CUT,)),
              "fraction of the first k results that are in the qrels (ties by doc id ascending, as ir_measures)"),
)}

#: ir_measures names whose canonical spelling is a trec_eval label (that label keeps trec_eval's
#: meaning; ir_measures' measure is written with its rel: ``Rprec(rel=1)``).
TREC_LABELS = frozenset({"Rprec", "infAP"})

#: Spellings of ranx (and other lower-case ones) inexeval refuses, with the name to write instead.
RANX = {
    "ndcg": "nDCG@k (ir_measures' nDCG = trec_eval's ndcg_cut_k) or nDCG_JK@k (inexeval's Järvelin–Kekäläinen nDCG)",
    "ndcg_burges": "nDCG(gains={level:gain,…})@k with the gains you mean",
    "map": "AP@k (ir_measures' = trec_eval's map_cut_k), or map for trec_eval's map over the whole run",
    "precision": "P@k (trec_eval's P_k)",
    "p": "P@k (trec_eval's P_k)",
    "recall": "R@k (trec_eval's recall_k)",
    "r-precision": "Rprec",
    "hit_rate": "Success@k",
    "hits": "P@k times k",
    "f1": "F@k (the F-measure of P@k and R@k, as ranx's f1@k), or SetF (trec_eval's set_F, over every result)",
    "rr": "RR",
}


class _Bad(Exception):
    pass


def _literal(node: ast.AST) -> object:
    try:
        return ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError):
        raise _Bad("parameter values must be numbers, True/False, 'text' or {level:gain,…}") from None


def _check(fam: IrmFamily, key: str, value: object) -> object:
    """VALUE of parameter KEY of FAM checked as ir_measures checks it (an int where ir_measures wants
    a float is taken as that float), and in the range pytrec_eval computes."""
    if key not in fam.params:
        raise _Bad(f"{fam.name} takes no parameter {key!r}"
                   + (f" (it takes {', '.join(fam.params)})" if fam.params else ""))
    kind, _ = fam.params[key]
    if kind is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise _Bad(f"{key} must be an integer")
        value = min(value, LONG_MAX)  # (as trec_eval reads an integer parameter: C's atol)
    if kind is float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise _Bad(f"{key} must be a number")
        try:
            value = float(value)
        except OverflowError:  # (an int past the largest double)
            value = math.inf
        if not math.isfinite(value):
            raise _Bad(f"{key} must be a finite number")
    if kind is bool and not isinstance(value, bool):
        raise _Bad(f"{key} must be True or False")
    if kind is str and not isinstance(value, str):
        raise _Bad(f"{key} must be 'text'")
    if kind is dict:
        if not isinstance(value, dict) or not all(isinstance(x, int) and not isinstance(x, bool)
                                                  for kv in value.items() for x in kv):
            raise _Bad(f"{key} must be {{level:gain,…}} with integer levels and gains")
        if any(level < 0 for level in value):
            raise _Bad(f"{key}: gains of negative levels are not supported (the engine knows judgements "
                       "below 0 only as judged non-relevant)")
    if key in fam.choices and value not in fam.choices[key]:
        raise _Bad(f"{key}={value!r} is not computed by ir_measures' pytrec_eval provider "
                   f"(it takes {', '.join(map(repr, fam.choices[key]))})")
    if key == "cutoff" and value < 1:
        raise _Bad("the cut-off must be >= 1")
    if key == "rel" and value < 1:
        raise _Bad("rel must be >= 1 (pytrec_eval refuses a relevance level below 1)")
    if key == "recall" and not 0.0 <= value <= 1.0:
        raise _Bad("the recall must be in [0, 1]")
    if key == "beta" and value < 0:
        raise _Bad("beta must be >= 0")
    return value


def _repr(value: object) -> str:
    """A parameter's value as ir_measures prints it (a dict without its level:level entries)."""
    if isinstance(value, dict):
        return "{" + ",".join(f"{k}:{v}" for k, v in sorted(value.items()) if k != v) + "}"
    return repr(value)


def _read(text: str) -> tuple[IrmFamily, dict[str, object]] | None:
    """The family and parameters (as written, in order) of TEXT; None if TEXT does not start with an
    ir_measures name; _Bad if it does but is not a well-formed name of it."""
    m = re.match(r"\s*([A-Za-z_]\w*)", text)
    if m is None or m.group(1) not in IRM:
        return None
    fam = IRM[m.group(1)]
    try:
        node = ast.parse(text.strip(), mode="eval").body
    except SyntaxError:
        raise _Bad("not ir_measures' syntax, Name(key=value,…)@k") from None
    at = NONE
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.MatMult):
        at, node = _literal(node.right), node.left
    params: dict[str, object] = {}
    if isinstance(node, ast.Call):
        if node.args or any(k.arg is None for k in node.keywords):
            raise _Bad("parameters are written key=value")
        for kw in node.keywords:
            if kw.arg in params:
                raise _Bad(f"{kw.arg} given twice")
            params[kw.arg] = _literal(kw.value)
        node = node.func
    if not isinstance(node, ast.Name) or node.id != fam.name:
        raise _Bad("not ir_measures' syntax, Name(key=value,…)@k")
    if at is not NONE:
        if fam.at is None:
            raise _Bad(f"{fam.name} takes no @ parameter"
                       + (" (RR@k is not computed by ir_measures' pytrec_eval provider; MRR@k is inexeval's)"
                          if fam.name == "RR" else ""))
        params[fam.at] = at
    for key in list(params):
        params[key] = _check(fam, key, params[key])
    if fam.at_required and fam.at not in params:
        raise _Bad(f"{fam.name} needs {'a cut-off' if fam.at == 'cutoff' else 'a recall'}, "
                   f"e.g. {fam.name}@{10 if fam.at == 'cutoff' else 0.5}")
    return fam, params


def canonical(fam: IrmFamily, params: dict[str, object]) -> str:
    """ir_measures' ``str(measure)`` for FAM with PARAMS (in the order written); a spelling that would
    be a trec_eval label (``Rprec``) is written with its rel (``Rprec(rel=1)``)."""
    shown = [f"{k}={_repr(v)}" for k, v in params.items()
             if k != fam.at and not (fam.params[k][1] is not NONE and v == fam.params[k][1])]
    text = fam.name + (f"({','.join(shown)})" if shown else "")
    if fam.at is not None and fam.at in params:
        text += f"@{params[fam.at]}"
    if text in TREC_LABELS:
        text = f"{fam.name}(rel={params.get('rel', 1)})"
    return text


def parse_ir_measures(text: str, source: object | None = None, line: int | None = None):
    """TEXT read as an ir_measures name: (family name, canonical name, parameters with defaults
    filled in); None if TEXT is not written with one of :data:`IRM`'s names (case-sensitive) or is
    exactly a trec_eval label (``Rprec``, ``infAP``); a ConfigError (returned, not raised) if it is
    but is malformed."""
    if text.strip() in TREC_LABELS:
        return None
    try:
        got = _read(text)
    except _Bad as bad:
        return ConfigError(f"measure {text.strip()!r}: {bad} (ir_measures' name; docs/measures.md §8.6)",
                           source, line)
    if got is None:
        return None
    fam, params = got
    name = canonical(fam, params)
    full = {k: v for k, (_, v) in fam.params.items() if v is not NONE}
    full.update(params)
    return fam.name, name, full


# ------------------------------------------------------------------ the rankings ----

def variant_ranking(ranking: Ranking, rel: int, judged_only: bool = False,
                    gains: tuple[tuple[int, int], ...] | None = None) -> Ranking:
    """RANKING as pytrec_eval sees it for one ir_measures invocation: the qrels values mapped by
    GAINS (level -> gain; a result judged at a level gets its gain, a gain below 0 making it judged
    non-relevant), relevance level REL (trec_eval's ``-l``: num_rel and num_nonrel counted anew),
    and with JUDGED_ONLY (``-J``) the results not judged >= 0 dropped, the others keeping their order."""
    table = ranking.table
    codes = ranking.rel
    if gains or rel != table.rel_level:
        qrel = table.qrel
        if gains:
            qrel, codes = qrel.copy(), codes.copy()
            for level, gain in gains:
                qrel[table.qrel == level] = gain
                codes[ranking.rel == level] = gain if gain >= 0 else JUDGED_NEGATIVE
        topic = np.repeat(np.arange(table.size), np.diff(table.qstart))
        num_rel = np.bincount(topic[qrel >= max(rel, 0)], minlength=table.size).astype(np.int64)
        num_nonrel = np.bincount(topic[(qrel >= 0) & (qrel < rel)], minlength=table.size).astype(np.int64)
        table = replace(table, qrel=qrel, rel_level=rel, num_rel=num_rel, num_nonrel=num_nonrel,
                                    cache={})
    start = ranking.start
    if judged_only:
        keep = codes >= 0
        counts = np.bincount(ranking.topic[keep], minlength=table.size)
        start = np.concatenate(([0], np.cumsum(counts))).astype(np.int64)
        codes = codes[keep]
    return Ranking(table, start, codes)


def judged_at(ranking: Ranking, k: int | None) -> np.ndarray:
    """ir_measures' ``Judged@k`` per topic: the results among the first min(k, L) (k None: L) that
    are in the qrels (judged at any value), over min(k, L); 0 for an empty ranking.  ir_measures
    orders results by score descending, then doc id ascending: within a run of tied scores the
    reverse of trec_eval's order (docno descending), which matters only for the tie the cut-off falls in."""
    start = ranking.start
    length = np.diff(start)
    c = length if k is None else np.minimum(k, length)
    n = ranking.rel.size
    judged = np.concatenate(([0], np.cumsum(ranking.rel != NOT_JUDGED, dtype=np.int64)))
    tied = ranking.tied if ranking.tied is not None else np.zeros(n, dtype=bool)
    first = ~tied
    idx = np.arange(n)
    gstart = np.maximum.accumulate(np.where(first, idx, 0)) if n else idx
    starts = np.flatnonzero(first)
    gend = np.append(starts[1:], n)[np.cumsum(first) - 1] if n else idx
    out = np.zeros(length.size, dtype=np.float64)
    ok = np.flatnonzero(c > 0)
    if ok.size:
        s, cc = start[:-1][ok], c[ok]
        last = s + cc - 1
        gs, ge = gstart[last], gend[last]
        m = s + cc - gs  # how many of the tie the cut-off keeps: its last m in trec_eval's order
        out[ok] = (judged[gs] - judged[s] + judged[ge] - judged[ge - m]) / cc
    return out
