"""The classic measures (docs/measures.md §8): their names and their computation for a ranking.

One row per measure family, in :data:`FAMILIES` (a :class:`Family`): its canonical name, how its
names are written (:data:`Family.names`: the bare name, a cut-off ``P_10``, a fraction
``iprec_at_recall_0.10``, trec_eval's parameters ``ndcg_1=3,2=9`` or ``utility_2,-1,0,0``,
inexeval's ``nDCG@10(b=3,agr)``: each syntax says which parameters it takes and checks them), the
line ``inexeval metrics`` shows, its kernel, and how its values are summarised and printed.
:func:`parse_measure` reads a ``METRICS`` name (case-insensitively, written canonically) with these
rows; :func:`compute` runs the kernels.  trec_eval's measures are named as trec_eval prints them
(the labels of :mod:`inexeval.measures.trec_catalogue`, docs/measures.md §8.2, §8.5), inexeval's
graded ones as docs/measures.md §8.3 writes them.

A new classic measure is one row here and its kernel (a method of the states below:
:mod:`inexeval.measures.classic_trec`, :mod:`inexeval.measures.classic_trec_gains`,
:mod:`inexeval.measures.classic_graded`), and for a measure of trec_eval's its row in trec_eval's
catalogue; docs/adding-a-measure.md §8.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

from inexeval.errors import ConfigError
from inexeval.measures.classic_base import Ranking
from inexeval.measures.classic_graded import GradedState
from inexeval.measures.classic_irm import IRM, RANX, judged_at, parse_ir_measures, variant_ranking
from inexeval.measures.classic_trec import ELEVEN_LEVELS, TrecState, relstrings
from inexeval.measures.classic_trec_gains import GainState, Levels, ndcg_cut, rbp_resid
from inexeval.measures.trec_catalogue import CATALOGUE, measure_labels
from inexeval.readers.trec_numbers import atol
from inexeval.records import field, record

if TYPE_CHECKING:  # (the trec-eval drop-in loads no registry)
    from inexeval.measures.registry import Params

#: a number as trec_eval's parameters write one
_NUMBER = r"^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$"


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else repr(float(x))


@record(frozen=True)
class MeasureSpec:
    """A parsed measure name: its family, cut-off and parameters."""

    name: str  # canonical
    family: str
    k: int | None = None
    params: tuple[tuple[str, float], ...] = field(default=())
    values: tuple[float, ...] = field(default=())  # trec_eval's list parameters (utility, 11pt_avg, set_F)

    def param(self, key: str, default: float) -> float:
        return dict(self.params).get(key, default)


# ------------------------------------------------------------------ how names are written ----
#
# Each syntax recognises the names of a family (KEY: its name in lower case) in a name written in
# lower case without blanks (``match``), and builds the parsed name from the match (``spec``),
# raising ConfigError for a bad parameter.  (Plain classes, not records: the trec-eval drop-in
# imports this module, and a class is quicker to create.)

class _Name:
    """The name being parsed: as written (TEXT) and where (SOURCE, LINE), for error messages."""

    __slots__ = ("text", "source", "line")

    def __init__(self, text: str, source: object | None, line: int | None):
        self.text, self.source, self.line = text, source, line

    def error(self, why: str) -> ConfigError:
        """``measure 'TEXT'`` followed by WHY (``: …`` or `` needs …``)."""
        return ConfigError(f"measure {self.text!r}{why}", self.source, self.line)


class Syntax:
    """The family's name followed by what matches TAIL (a regular expression), to the end."""

    tail = ""

    def match(self, key: str, low: str) -> re.Match | None:
        return re.match(f"^{re.escape(key)}{self.tail}$", low)

    def spec(self, fam: Family, m: re.Match, name: _Name) -> MeasureSpec:
        raise NotImplementedError


class Plain(Syntax):
    """The name alone: ``map``, ``ndcg``."""

    def spec(self, fam: Family, m: re.Match, name: _Name) -> MeasureSpec:
        return MeasureSpec(fam.name, fam.name)


class Cut(Syntax):
    """``name_k``, a rank cut-off k >= 1: ``P_10`` (:attr:`MeasureSpec.k`); read as trec_eval reads it
    (C's ``atol``: past 2^63 - 1 it is 2^63 - 1, ``P_9223372036854775807``)."""

    tail = r"_(\d+)"

    def spec(self, fam: Family, m: re.Match, name: _Name) -> MeasureSpec:
        k = atol(m.group(1))
        if k < 1:
            raise name.error(": the cut-off must be >= 1")
        return MeasureSpec(f"{fam.name}_{k}", fam.name, k)


class Fraction(Syntax):
    """``name_x``, a number, written with two decimals: ``Rprec_mult_0.20`` (parameter ``x``);
    BOUNDS, if given: the range it must lie in, and WHAT it is, for the message."""

    tail = r"_(\d*\.?\d+)"

    def __init__(self, bounds: tuple[float, float] | None = None, what: str = ""):
        self.bounds, self.what = bounds, what

    def spec(self, fam: Family, m: re.Match, name: _Name) -> MeasureSpec:
        x = float(m.group(1))
        if not math.isfinite(x):  # (hundreds of digits; trec_eval's C then casts infinity: undefined)
            raise name.error(": the number is past the largest double")
        if self.bounds is not None and not self.bounds[0] <= x <= self.bounds[1]:
            lo, hi = self.bounds
            raise name.error(f": {self.what} must be in [{_num(lo)}, {_num(hi)}]")
        return MeasureSpec(f"{fam.name}_{x:.2f}", fam.name, params=(("x", x),))


class Pairs(Syntax):
    """trec_eval's ``name_key=value,…``, kept as written: gains per relevance level (LEVELS, an
    integer key: ``ndcg_1=3,2=9``) and/or the persistence (P: ``rbp_p=0.8``)."""

    tail = r"_([^_].*=.*)"

    def __init__(self, levels: bool = True, p: bool = False):
        self.levels, self.p = levels, p

    def spec(self, fam: Family, m: re.Match, name: _Name) -> MeasureSpec:
        raw = m.group(1)
        pairs = []
        for item in raw.split(","):
            key, eq, val = item.partition("=")
            ok_key = (self.p and key == "p") or (self.levels and bool(re.fullmatch(r"[+-]?\d+", key)))
            if not eq or not ok_key or not re.match(_NUMBER, val):
                want = " or ".join((["p=x"] if self.p else []) + (["level=gain"] if self.levels else []))
                raise name.error(f": {item!r} is not {want}")
            pairs.append((key, float(val)))
        return MeasureSpec(f"{fam.name}_{raw}", fam.name, params=tuple(pairs))


class Numbers(Syntax):
    """trec_eval's ``name_x,y,…``, numbers kept as written (``utility_2,-1,0,0``,
    :attr:`MeasureSpec.values`); COUNT: how many it takes, if fixed."""

    tail = r"_(.+)"

    def __init__(self, count: int | None = None):
        self.count = count

    def spec(self, fam: Family, m: re.Match, name: _Name) -> MeasureSpec:
        raw = m.group(1)
        items = raw.split(",")
        if not all(re.match(_NUMBER, v) for v in items):
            raise name.error(": the parameters must be numbers, comma-separated")
        if self.count is not None and len(items) != self.count:
            raise name.error(f": {fam.name} takes {self.count} number(s)")
        return MeasureSpec(f"{fam.name}_{raw}", fam.name, values=tuple(float(v) for v in items))


class Graded(Syntax):
    """inexeval's ``name@k(key=value,flag)``.

    K: the rank cut-off is ``needed``, ``none`` (refused) or ``optional``.  PARAMS: the ``key=value``
    parameters it takes, each with its default (left out of the canonical name when given; None: no
    default written in the name) and the check of its value.  FLAGS: the flags it takes (``agr``).
    IMPLIES: parameters the name itself sets (``AGR`` is ``AWP(agr)``).  Parameters are written in
    the canonical name sorted, flags last: ``R(beta=0.5,agr)``.
    """

    tail = r"(?:@(\d+))?(?:\((.*)\))?"

    def __init__(self, k: str, params: dict[str, tuple[float | None, Callable[[float], bool]]] | None = None,
                 flags: tuple[str, ...] = (), implies: tuple[tuple[str, float], ...] = ()):
        self.k, self.params, self.flags, self.implies = k, params or {}, flags, implies

    def spec(self, fam: Family, m: re.Match, name: _Name) -> MeasureSpec:
        k = atol(m.group(1)) if m.group(1) else None  # (as Cut reads it)
        if self.k == "needed" and k is None:
            raise name.error(f" needs a rank cut-off, e.g. {fam.name}@10")
        if self.k == "none" and k is not None:
            raise name.error(" takes no rank cut-off")
        if k is not None and k < 1:
            raise name.error(": the cut-off must be >= 1")
        params: dict[str, float] = {}
        for item in filter(None, (m.group(2) or "").split(",")):
            key, eq, val = item.partition("=")
            flag = key in self.flags
            if not (flag or key in self.params) or flag == bool(eq):
                raise name.error(f": unknown parameter {item!r}")
            try:
                params[key] = 1.0 if flag else float(val)
            except ValueError:
                raise name.error(f": bad value {val!r}") from None
            if not flag and not self.params[key][1](params[key]):
                raise name.error(f": {key} out of range")
        for key, (default, _) in self.params.items():
            if default is not None and params.get(key) == default:
                del params[key]
        text = fam.name + (f"@{k}" if k is not None else "")
        shown = [f"{key}={_num(v)}" for key, v in sorted(params.items()) if key not in self.flags]
        shown += [f for f in self.flags if f in params]
        if shown:
            text += "(" + ",".join(shown) + ")"
        params.update(self.implies)
        return MeasureSpec(text, fam.name, k, tuple(sorted(params.items())))


class Text(Syntax):
    """A measure whose values are text, printed by ``inexeval trec-eval`` only (``relstring``,
    ``relstring_k``, WHAT it is): not a ``METRICS`` name, refused with a message saying so."""

    def __init__(self, what: str):
        self.what = what

    def match(self, key: str, low: str) -> bool:
        return low == key or low.startswith(key + "_")

    def spec(self, fam: Family, m: object, name: _Name) -> MeasureSpec:
        raise name.error(f" is text ({self.what}), not a number: 'inexeval trec-eval' prints it "
                         "(docs/measures.md §8.5)")


def _non_negative(v: float) -> bool:
    return math.isfinite(v) and v >= 0


def _log_base(v: float) -> bool:
    return v > 1 and _non_negative(v)


# ------------------------------------------------------------------ the family table ----

def _never(p: Params, s: MeasureSpec) -> bool:
    return False


@record(frozen=True)
class Family:
    """One classic measure family: its names, its ``inexeval metrics`` line, its kernel, how it averages
    and how trec_eval prints it."""

    name: str  # canonical spelling (MeasureSpec.family); names are matched in lower case
    names: tuple[Syntax, ...]  # how its names are written, and the parameters each way takes
    shown: str  # its name pattern in `inexeval metrics` ("": not listed)
    description: str  # its line there
    kernel: Callable[[Kernels, MeasureSpec], np.ndarray | list]  # values for every topic of the ranking
    aggregate: str = "mean"  # over topics: mean, sum, gmean (docs/measures.md §10) or none (text)
    integer: bool = False  # a count, printed as an integer
    per_topic_reported: bool = True  # False: trec_eval -q does not print it per topic
    bounded: bool = True  # values in [0, 1]
    lower_is_better: bool = False  # E@k = 1 - F@k: the smaller, the better
    #: whether the ideal run (the relevant documents by decreasing relevance) scores 1 on every topic
    ideal: Callable[[Params, MeasureSpec], bool] = _never
    also_shown: tuple[tuple[str, str], ...] = ()  # more lines of `inexeval metrics`: (pattern, description)


class Kernels:
    """The per-run states the kernels read: trec_eval's, its gain states (one per set of gain
    parameters), and the graded ones (plain and agr).  EVALUATED: the topics trec_eval evaluates, in
    its order (a topic judged only negatively takes the levels of the one before, see
    :mod:`inexeval.measures.classic_trec_gains`); None: every topic."""

    def __init__(self, ranking: Ranking, gains: dict[int, float] | None, q_beta: float,
                 version: str = "10.0", num_docs: int = 0, evaluated: np.ndarray | None = None):
        self.trec = TrecState(ranking, version, num_docs)
        self.ranking, self.gains, self.q_beta = ranking, gains, q_beta
        self.version, self.num_docs = version, num_docs
        self._variants: dict[tuple, Kernels] = {}
        self.evaluated = evaluated
        self._graded: dict[bool, GradedState] = {}
        self._levels: Levels | None = None
        self._gain_states: dict[tuple, GainState] = {}

    @property
    def levels(self) -> Levels:
        if self._levels is None:
            self._levels = Levels(self.ranking, self.evaluated)
        return self._levels

    def gain_state(self, pairs: tuple[tuple[str, float], ...] = (), rescale: bool = False) -> GainState:
        """The gains given by PAIRS (``name=value`` parameters), RESCALE: rbp's mapping to [0, 1]."""
        key = (tuple(pairs), rescale)
        if key not in self._gain_states:
            self._gain_states[key] = GainState(self.ranking, self.levels, tuple(pairs), rescale)
        return self._gain_states[key]

    def variant(self, rel: int, judged_only: bool = False, gains: tuple | None = None) -> Kernels:
        """The kernels of the ranking at relevance level REL, with JUDGED_ONLY and nDCG's GAINS
        (ir_measures' parameters, :func:`inexeval.measures.classic_irm.variant_ranking`)."""
        key = (rel, judged_only, gains or None)
        if key == (self.ranking.table.rel_level, False, None):
            return self
        got = self._variants.get(key)
        if got is None:
            got = self._variants[key] = Kernels(variant_ranking(self.ranking, rel, judged_only, gains or None),
                                                self.gains, self.q_beta, self.version, self.num_docs, self.evaluated)
        return got

    def graded(self, agr: bool = False) -> GradedState:
        if agr not in self._graded:
            self._graded[agr] = GradedState(self.ranking, self.gains, agr)
        return self._graded[agr]


def _agr(s: MeasureSpec) -> bool:
    return bool(s.param("agr", 0.0))


def _always(p: Params, s: MeasureSpec) -> bool:
    return True


def _gains_follow_levels(p: Params, s: MeasureSpec) -> bool:
    """Whether gain(level) (GAINS, else the level) is positive and non-decreasing over the relevant
    levels: then decreasing relevance is decreasing gain, as in the ideal vector (also with agr,
    whose adjusted gain of a level lies between its own and the next lower level's)."""
    g = dict(p.gains or ())
    seq = [g.get(x, float(x)) for x in range(p.rel_level, max(g, default=p.rel_level) + 2)]
    return all(v > 0 for v in seq) and all(a <= b for a, b in zip(seq, seq[1:]))


def _trec_gains(p: Params, s: MeasureSpec) -> bool:
    """trec_eval's ndcg gains every document with rel > 0: the ideal run has them all at REL_LEVEL 1
    (with gains given in the name, ``ndcg_1=3,2=9``, decreasing relevance need not be decreasing gain)."""
    return p.rel_level == 1 and not s.params


def _p(s: MeasureSpec, default: float = 0.9) -> float:
    """rbp's persistence: its last ``p=`` parameter (trec_eval), else DEFAULT."""
    p = default
    for key, value in s.params:
        if key == "p":
            p = value
    return p


def _rbp(k: Kernels, s: MeasureSpec) -> np.ndarray:
    gains = tuple(x for x in s.params if x[0] != "p")
    return k.gain_state(gains, rescale=k.version == "10.0").rbp(_p(s))


def _irm(k: Kernels, s: MeasureSpec, rel: bool = True, judged_only: bool = True, gains: bool = False) -> Kernels:
    """The kernels of the ranking an ir_measures name S is computed on (its rel, judged_only, gains)."""
    return k.variant(int(s.param("rel", 1)) if rel else 1, bool(s.param("judged_only", False)) if judged_only else False,
                     s.param("gains", None) if gains else None)


def _irm_ndcg(k: Kernels, s: MeasureSpec) -> np.ndarray:
    v = _irm(k, s, rel=False, gains=True)
    return ndcg_cut(v.gain_state(), s.k) if s.k is not None else v.gain_state().ndcg()


_IRM_KERNELS: dict[str, Callable[[Kernels, MeasureSpec], np.ndarray]] = {
    "P": lambda k, s: _irm(k, s).trec.precision(s.k),
    "R": lambda k, s: _irm(k, s).trec.recall(s.k),
    "AP": lambda k, s: _irm(k, s).trec.map_cut(s.k) if s.k is not None else _irm(k, s).trec.ap(),
    "RR": lambda k, s: _irm(k, s).trec.recip_rank(),
    "nDCG": _irm_ndcg,
    "Rprec": lambda k, s: _irm(k, s).trec.rprec(),
    "Bpref": lambda k, s: _irm(k, s, judged_only=False).trec.bpref(),
    "infAP": lambda k, s: _irm(k, s, judged_only=False).trec.infap(),
    # (pytrec_eval is given the recall written with two decimals: iprec_at_recall_%.2f)
    "IPrec": lambda k, s: _irm(k, s).trec.iprec_at_recall(float(f"{s.param('recall', 0.0):.2f}")),
    "SetP": lambda k, s: (_irm(k, s).trec.set_relative_p() if s.param("relative", False)
                          else _irm(k, s).trec.set_p()),
    "SetR": lambda k, s: _irm(k, s, judged_only=False).trec.set_recall(),
    "SetF": lambda k, s: _irm(k, s).trec.set_f(s.param("beta", 1.0)),
    "SetAP": lambda k, s: _irm(k, s).trec.set_map(),
    "Success": lambda k, s: _irm(k, s).trec.success(s.k),
    "NumQ": lambda k, s: np.ones(k.ranking.table.size),
    "NumRel": lambda k, s: _irm(k, s, judged_only=False).trec.num_rel_(),
    "NumRet": lambda k, s: (k.trec.num_ret() if dict(s.params).get("rel") is None
                            else _irm(k, s, judged_only=False).trec.num_rel_ret_()),
    "Judged": lambda k, s: judged_at(k.ranking, s.k),
}


def _irm_kernel(name: str) -> Callable[[Kernels, MeasureSpec], np.ndarray]:
    return _IRM_KERNELS[name]


_PLAIN = (Plain(),)
_CUT = (Cut(),)
_GAINS = (Plain(), Pairs())  # trec_eval's gain measures: ndcg, ndcg_1=3,2=9
_B = (1.0, _non_negative)  # F's and E's b
_LOG_BASE = (2.0, _log_base)  # DCG's and nDCG's b
_BETA = (None, _non_negative)  # Q's and R's beta (default: Q_BETA, never written)
_TE = "trec_eval: "
_TE10 = "trec_eval 10.0: "

#: The classic family table (docs/measures.md §8): trec_eval's measures in its printing order
#: (:mod:`inexeval.measures.trec_catalogue`), then inexeval's graded ones.  A name is parsed by
#: the row whose name it is (``map``, ``dcg``: a bare name is trec_eval's), else by the row with the
#: longest name among those whose syntax matches it (``ndcg_rel_2=5`` is ndcg_rel's, not ndcg's).
FAMILIES: dict[str, Family] = {f.name: f for f in (
    # trec_eval's (docs/measures.md §8.2)
    Family("num_ret", _PLAIN, "num_ret", _TE + "number of results retrieved (summed over topics)",
           lambda k, s: k.trec.num_ret(), "sum", integer=True, bounded=False),
    Family("num_rel", _PLAIN, "num_rel", _TE + "number of relevant documents (summed over topics)",
           lambda k, s: k.trec.num_rel_(), "sum", integer=True, bounded=False),
    Family("num_rel_ret", _PLAIN, "num_rel_ret", _TE + "number of relevant documents retrieved (summed over topics)",
           lambda k, s: k.trec.num_rel_ret_(), "sum", integer=True, bounded=False),
    Family("map", _PLAIN, "map", _TE + "mean average precision",
           lambda k, s: k.trec.ap(), ideal=_always),
    Family("gm_map", _PLAIN, "gm_map", _TE + "geometric mean of average precision (floor 0.00001)",
           lambda k, s: k.trec.ap(), "gmean", per_topic_reported=False, ideal=_always),
    Family("Rprec", _PLAIN, "Rprec", _TE + "precision at rank R (number of relevant documents)",
           lambda k, s: k.trec.rprec(), ideal=_always),
    Family("bpref", _PLAIN, "bpref", _TE + "binary preference (Buckley and Voorhees)",
           lambda k, s: k.trec.bpref(), ideal=_always),
    Family("recip_rank", _PLAIN, "recip_rank", _TE + "reciprocal rank of the first relevant result",
           lambda k, s: k.trec.recip_rank(), ideal=_always),
    Family("iprec_at_recall", (Fraction((0.0, 1.0), "recall"),), "iprec_at_recall_x",
           _TE + "interpolated precision at recall x (0.00 ... 1.00); x*R rounded (10.0) "
           "or truncated after + 0.9 (9.0.8), TREC_EVAL_VERSION",
           lambda k, s: k.trec.iprec_at_recall(s.param("x", 0.0)), ideal=_always),
    Family("P", _CUT, "P_k", _TE + "precision at rank k",
           lambda k, s: k.trec.precision(s.k)),
    # text, printed by the trec-eval drop-in only (not a METRICS name)
    Family("relstring", (Text("trec_eval's relevance string"),), "", "",
           lambda k, s: relstrings(k.ranking, int(s.values[0]) if s.values else 10), "none", bounded=False),
    Family("recall", _CUT, "recall_k", _TE + "recall at rank k",
           lambda k, s: k.trec.recall(s.k)),
    Family("infAP", _PLAIN, "infAP", _TE + "inferred AP (Yilmaz and Aslam), qrels value -1 = pooled but unjudged",
           lambda k, s: k.trec.infap()),
    Family("gm_bpref", _PLAIN, "gm_bpref", _TE + "geometric mean of bpref (floor 0.00001)",
           lambda k, s: k.trec.bpref(), "gmean", per_topic_reported=False),
    Family("Rprec_mult", (Fraction(),), "Rprec_mult_x",
           _TE + "precision at rank trunc(x*R + 0.9) (x = 0.20 ... 2.00)",
           lambda k, s: k.trec.rprec_mult(s.param("x", 1.0))),
    Family("utility", (Plain(), Numbers(4)), "utility",
           _TE + "set utility a*rel_ret + b*nonrel_ret + c*rel_not_ret + d*nonrel_not_ret "
           "(utility_a,b,c,d; default 1,-1,0,0)",
           lambda k, s: k.trec.utility(*(s.values or (1.0, -1.0, 0.0, 0.0))), bounded=False),
    Family("11pt_avg", (Plain(), Numbers()), "11pt_avg",
           _TE + "mean interpolated precision at recall 0.0, 0.1, ... 1.0 (11pt_avg_x,y,...)",
           lambda k, s: k.trec.eleven_pt_avg(s.values or ELEVEN_LEVELS)),
    Family("binG", _PLAIN, "binG", _TE + "binary G, mean over relevant of 1/log2(2 + nonrelevant above)",
           lambda k, s: k.trec.bin_g()),
    Family("G", _GAINS, "G", _TE + "normalised gain G (gains: G_level=gain,...)",
           lambda k, s: k.gain_state(s.params).g_measure(), bounded=False),
    Family("dcg", _GAINS, "dcg",
           _TE10 + "DCG of the whole list (gain = rel, discount log2(i+1); dcg_level=gain,...)",
           lambda k, s: k.gain_state(s.params).dcg(), bounded=False),
    Family("ideal_dcg", _GAINS, "ideal_dcg", _TE10 + "DCG of the ideal list (ideal_dcg_level=gain,...)",
           lambda k, s: k.gain_state(s.params).ideal_dcg(), bounded=False),
    Family("ndcg", _GAINS, "ndcg", _TE + "nDCG over the whole list (gain = rel, discount log2(i+1))",
           lambda k, s: k.gain_state(s.params).ndcg(), ideal=_trec_gains,
           also_shown=(("ndcg_level=gain,...", _TE + "ndcg with the given gains per relevance level"),)),
    Family("ndcg_rel", _GAINS, "ndcg_rel", _TE + "ndcg averaged over the relevant documents (ndcg_rel_level=gain,...)",
           lambda k, s: k.gain_state(s.params).ndcg_rel(), bounded=False),
    Family("Rndcg", _GAINS, "Rndcg",
           _TE + "ndcg averaged at the ranks where the ideal gain changes (Rndcg_level=gain,...)",
           lambda k, s: k.gain_state(s.params).rndcg(k.trec.num_rel), bounded=False),
    Family("ndcg_cut", _CUT, "ndcg_cut_k", _TE + "nDCG cut at rank k",
           lambda k, s: ndcg_cut(k.gain_state(), s.k), ideal=_trec_gains),
    Family("map_cut", _CUT, "map_cut_k", _TE + "average precision over the first k results",
           lambda k, s: k.trec.map_cut(s.k)),
    Family("relative_P", _CUT, "relative_P_k", _TE + "precision at k over the best possible, count(k)/min(k, R)",
           lambda k, s: k.trec.relative_p(s.k)),
    Family("success", _CUT, "success_k", _TE + "1 if a relevant result is in the first k",
           lambda k, s: k.trec.success(s.k)),
    Family("set_P", _PLAIN, "set_P", _TE + "relevant retrieved / retrieved",
           lambda k, s: k.trec.set_p()),
    Family("set_relative_P", _PLAIN, "set_relative_P", _TE + "relevant retrieved / min(retrieved, R)",
           lambda k, s: k.trec.set_relative_p()),
    Family("set_recall", _PLAIN, "set_recall", _TE + "relevant retrieved / R",
           lambda k, s: k.trec.set_recall()),
    Family("set_map", _PLAIN, "set_map", _TE + "set_P * set_recall",
           lambda k, s: k.trec.set_map()),
    Family("set_F", (Plain(), Numbers(1)), "set_F",
           _TE + "(x+1)PR/(xP+R) of set_P and set_recall, x = 1 (set_F_x)",
           lambda k, s: k.trec.set_f(s.values[0] if s.values else 1.0)),
    Family("num_nonrel_judged_ret", _PLAIN, "num_nonrel_judged_ret",
           _TE + "judged non-relevant documents retrieved (summed over topics)",
           lambda k, s: k.trec.num_nonrel_judged_ret(), "sum", integer=True, bounded=False),
    Family("yaap", _PLAIN, "yaap",
           _TE10 + "log((1 + sum of precisions at relevant) / (1 + R - that sum))",
           lambda k, s: k.trec.yaap(), bounded=False),
    Family("rbp", (Plain(), Pairs(p=True)), "rbp", _TE + "rank-biased precision, persistence p = 0.9 (rbp_p=x)",
           _rbp, bounded=False),
    Family("rbp_resid", (Plain(), Pairs(levels=False, p=True)), "rbp_resid",
           _TE + "rank-biased precision residual of the unjudged results (p = 0.9; rbp_resid_p=x)",
           lambda k, s: rbp_resid(k.ranking, _p(s))),
    Family("unj", _CUT, "unj_k", _TE10 + "fraction of unjudged results in the first k",
           lambda k, s: k.trec.unj(s.k)),
    # inexeval's graded measures (docs/measures.md §8.3)
    Family("F", (Graded("needed", {"b": _B}),), "F@k(b=1)", "seed 004: F-measure at rank k (b weights recall)",
           lambda k, s: k.graded().f_measure(s.k, s.param("b", 1.0))),
    Family("E", (Graded("needed", {"b": _B}),), "E@k(b=1)", "seed 004: E-measure at rank k, 1 - F@k(b)",
           lambda k, s: k.graded().e_measure(s.k, s.param("b", 1.0)), lower_is_better=True),
    Family("CG", (Graded("needed", flags=("agr",)),), "CG@k", "seed 004: cumulated gain at rank k (GAINS)",
           lambda k, s: k.graded(_agr(s)).cg_at(s.k), bounded=False),
    Family("DCG_JK", (Graded("needed", {"b": _LOG_BASE}, ("agr",)),), "DCG_JK@k(b=2)",
           "seed 004: Jarvelin-Kekalainen DCG at rank k, log base b (formerly DCG@k, a name that means another "
           "discount in ranx)",
           lambda k, s: k.graded(_agr(s)).dcg_at(s.k, s.param("b", 2.0)), bounded=False),
    Family("nDCG_JK", (Graded("needed", {"b": _LOG_BASE}, ("agr",)),), "nDCG_JK@k(b=2)",
           "seed 004: Jarvelin-Kekalainen DCG@k over the ideal DCG@k (formerly nDCG@k, which is now ir_measures' nDCG)",
           lambda k, s: k.graded(_agr(s)).ndcg_at(s.k, s.param("b", 2.0)), ideal=_gains_follow_levels),
    Family("AWP", (Graded("none", flags=("agr",)),), "AWP", "seed 003: average weighted precision (Kando et al.)",
           lambda k, s: k.graded(_agr(s)).awp(), ideal=_gains_follow_levels),
    Family("R-WP", (Graded("none", flags=("agr",)),), "R-WP", "seed 003: R-weighted precision, cg(R)/cig(R)",
           lambda k, s: k.graded(_agr(s)).r_wp(), ideal=_gains_follow_levels),
    Family("Q", (Graded("none", {"beta": _BETA}, ("agr",)),), "Q(beta=Q_BETA)", "seed 003: Sakai's Q-measure",
           lambda k, s: k.graded(_agr(s)).q_measure(s.param("beta", k.q_beta)), ideal=_gains_follow_levels),
    Family("R", (Graded("none", {"beta": _BETA}, ("agr",)),), "R(beta=Q_BETA)", "seed 003: Sakai's R-measure",
           lambda k, s: k.graded(_agr(s)).r_measure(s.param("beta", k.q_beta)), ideal=_gains_follow_levels),
    Family("AGR", (Graded("none", implies=(("agr", 1.0),)),), "AGR",
           "seed 003: average gain ratio, AWP with topic-adjusted gains; 'agr' flag on AWP, R-WP, Q, R, CG, DCG_JK, nDCG_JK",
           lambda k, s: k.graded(_agr(s)).awp(), ideal=_gains_follow_levels),
    Family("MRR", (Graded("optional"),), "MRR@k", "seed 004: reciprocal rank with rank threshold k (MRR: no threshold)",
           lambda k, s: k.graded().mrr(s.k), ideal=_always),
    # ir_measures' names (docs/measures.md §8.6; inexeval.measures.classic_irm), family "irm:<name>"
    *(Family(f"irm:{f.name}", (), f.pattern(), "ir_measures: " + f.trec, _irm_kernel(f.name),
             "sum" if f.integer else "mean", integer=f.integer, bounded=not f.integer and f.name != "NumQ")
      for f in IRM.values()),
)}

#: The names TASK trec takes (patterns) with one-line descriptions, for ``inexeval metrics``.
MEASURES: dict[str, str] = {
    pattern: text for f in FAMILIES.values() for pattern, text in ((f.shown, f.description), *f.also_shown) if pattern
}

#: The default measure set of TASK trec: trec_eval's official measures plus recall_k, ndcg and
#: ndcg_cut_k, with trec_eval's default cut-offs, in its order (docs/measures.md §8.2).
DEFAULT_MEASURES: tuple[str, ...] = tuple(
    label for m in CATALOGUE
    if m.kind != "special" and ("official" in m.sets or m.name in ("recall", "ndcg", "ndcg_cut"))
    for label in measure_labels(m)[0]
)


# ------------------------------------------------------------------ parsing ----

@functools.cache
def _tables() -> tuple[dict[str, Family], list[tuple[Family, Syntax]]]:
    """The rows by bare name, and every (row, syntax) that takes more than the bare name, longest
    name first (rows in table order among equal lengths); built on first use."""
    bare = {f.name.lower(): f for f in FAMILIES.values() if any(isinstance(x, Plain) for x in f.names)}
    rest = [(f, x) for f in FAMILIES.values() for x in f.names if not isinstance(x, Plain)]
    rest.sort(key=lambda fx: -len(fx[0].name))
    return bare, rest


def parse_measure(raw: str, *, source: object | None = None, line: int | None = None) -> MeasureSpec:
    """Parse one measure name into its canonical spec; ConfigError if unknown.

    ir_measures' names are read first, case-sensitively (``P(rel=2)@5``, ``nDCG@10``; docs/measures.md
    §8.6); then trec_eval's labels and inexeval's graded names, case-insensitively.  A name that is
    ir_measures' but malformed there may still be an inexeval name (``R``, ``R(beta=0.5)``: Sakai's R).
    ``ndcg@k`` in any other case, once inexeval's Järvelin–Kekäläinen nDCG, is refused with the names
    to write (``nDCG_JK@k``, ``nDCG@k``), and so is ``dcg@k`` in any case (now ``DCG_JK@k``), as are
    ranx's spellings (``map@100``, ``precision@5``)."""
    text = raw.strip()
    irm = parse_ir_measures(text, source, line)
    if isinstance(irm, tuple):
        family, name, params = irm
        k = params.get("cutoff")
        items = tuple(sorted((key, tuple(sorted(v.items())) if isinstance(v, dict) else v)
                             for key, v in params.items() if key != "cutoff"))
        return MeasureSpec(name, f"irm:{family}", k, items)
    low = text.lower().replace(" ", "")
    if re.match(r"^ndcg(@|\()", low) and (irm is None or "b=" in low or "agr" in low):
        raise ConfigError(
            f"measure {text!r}: inexeval's Järvelin–Kekäläinen nDCG is now named nDCG_JK@k "
            f"({re.sub(r'^ndcg', 'nDCG_JK', low)}); nDCG@k, in ir_measures' case, is ir_measures' nDCG "
            "(trec_eval's ndcg_cut_k); ranx's ndcg@k is neither (docs/measures.md §8.6)", source, line)
    if re.match(r"^dcg(@|\()", low):
        raise ConfigError(
            f"measure {text!r}: inexeval's Järvelin–Kekäläinen DCG is now named DCG_JK@k "
            f"({re.sub(r'^dcg', 'DCG_JK', low)}); DCG@k means other discounts in other tools (ranx's dcg@k divides "
            "the gain at rank r by log2(r + 1)) (docs/measures.md §8.6)", source, line)
    bare, rest = _tables()
    if low in bare:
        return MeasureSpec(bare[low].name, bare[low].name)
    for fam, syntax in rest:
        m = syntax.match(fam.name.lower(), low)
        if m:
            return syntax.spec(fam, m, _Name(text, source, line))
    if "." in text or irm is None:
        labels = _trec_eval_labels(text)
        if labels is not None:
            raise ConfigError(f"measure {text!r}: {labels} (docs/measures.md §8)", source, line)
    if isinstance(irm, ConfigError):
        raise irm
    head = re.match(r"^([a-z_\-0-9]*?)(@|$)", low)
    if head and head.group(1) in RANX:
        raise ConfigError(f"measure {text!r} is not taken (ranx's or a lower-case spelling, whose meaning "
                          f"differs between tools): write {RANX[head.group(1)]} (docs/measures.md §8.6)",
                          source, line)
    close = _close_name(low)
    hint = f"; did you mean {close}?" if close else ""
    raise ConfigError(f"unknown measure {text!r}{hint} (see 'inexeval metrics')", source, line)


def _trec_eval_labels(text: str) -> str | None:
    """For trec_eval's ``-m`` spelling of a measure that takes parameters (``ndcg_cut``, ``P.5,10``),
    which METRICS writes as the labels trec_eval prints: what to write instead, or None."""
    from inexeval.measures.trec_catalogue import BY_NAME, labels

    written, _, params = text.partition(".")
    name = {n.lower(): n for n in BY_NAME}.get(written.lower())  # (METRICS is read lower-cased)
    m = BY_NAME.get(name)
    if m is None or m.kind in ("plain", "special"):
        return None
    try:
        written = labels(name, params or None)
    except ValueError:
        return None
    if params:
        return f"METRICS names trec_eval's labels: write {', '.join(written)}"
    return (f"{name} takes its parameters in the name: write the labels you want (trec_eval's -m {name} "
            f"prints {', '.join(written[:4])}{', ...' if len(written) > 4 else ''})")


def _close_name(low: str) -> str | None:
    """A trec_eval or inexeval measure name close to the unknown name ``low``, with its parameters
    (``mapp`` -> ``map``, ``ndcg_cutt_10`` -> ``ndcg_cut_10``), or None (never ``low`` itself)."""
    import difflib

    names = {f.name.lower(): f.name for f in FAMILIES.values() if not f.name.startswith("irm:")}
    head, tail = re.match(r"(.*?)((?:_[0-9.,=+-]+)*)\Z", low).groups()
    close = difflib.get_close_matches(head, [n for n in names if n != head], n=1, cutoff=0.75)
    return names[close[0]] + tail if close else None


def parse_measures(names: list[str] | tuple[str, ...] | None) -> list[MeasureSpec]:
    """Parse a METRICS list (None: the default set), dropping repeated measures."""
    specs, seen = [], set()
    for raw in DEFAULT_MEASURES if names is None else names:
        spec = parse_measure(raw)
        if spec.name not in seen:
            seen.add(spec.name)
            specs.append(spec)
    return specs


def printing_order(names: list[str]) -> list[str]:
    """NAMES (classic measure names, canonical) in the order trec_eval prints them: by its measure
    order (:data:`inexeval.measures.trec_catalogue.CATALOGUE`), a family's cut-offs ascending,
    parameterised labels as given; measures trec_eval does not have (``Q``, ``nDCG@10``, …) after
    its own, as given."""
    order = {m.name: i for i, m in enumerate(CATALOGUE)}

    def key(item: tuple[int, str]):
        i, name = item
        spec = parse_measure(name)
        if spec.family not in order:
            return (len(order), 0.0, i)
        cut = float(spec.k) if spec.k is not None else dict(spec.params).get("x", 0.0)
        return (order[spec.family], cut, i)

    return [n for _, n in sorted(enumerate(names), key=key)]


# ------------------------------------------------------------------ computing ----

def compute(
    ranking: Ranking,
    specs: list[MeasureSpec],
    *,
    gains: dict[int, float] | None = None,
    q_beta: float = 1.0,
    version: str = "10.0",
    num_docs: int = 0,
    evaluated: np.ndarray | None = None,
    kernels: Kernels | None = None,
) -> dict[str, np.ndarray | list]:
    """Per-topic values (one per topic of ``ranking.table``; strings for relstring) of every measure
    in SPECS; ``num_docs`` is the collection size (trec_eval ``-N``, used by ``utility``), EVALUATED
    the topics trec_eval evaluates, in order (see :class:`Kernels`)."""
    if kernels is None:
        kernels = Kernels(ranking, gains, q_beta, version, num_docs, evaluated)
    out: dict[str, np.ndarray | list] = {}
    for s in specs:
        got = FAMILIES[s.family].kernel(kernels, s)
        out[s.name] = got if isinstance(got, list) else np.asarray(got, dtype=np.float64)
    return out


#: The strategies whose METRICS are classic measure names (the task table's ``trec``).
STRATEGIES = frozenset({"trec"})
