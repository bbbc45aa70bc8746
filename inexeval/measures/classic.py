"""Names of the classic measures (docs/measures.md §8) and their computation for a ranking.

Measure names (``METRICS``; matched case-insensitively, written canonically):

trec_eval's, named as trec_eval prints them, with its meanings (see
:mod:`inexeval.measures.classic_trec` and :mod:`inexeval.measures.classic_trec_more`):
``num_ret``, ``num_rel``, ``num_rel_ret``, ``map``, ``gm_map``, ``Rprec``,
``bpref``, ``recip_rank``, ``iprec_at_recall_x`` (x = 0.00 … 1.00, two
decimals), ``P_k``, ``recall_k``, ``ndcg``, ``ndcg_cut_k`` (any k >= 1;
the default set uses trec_eval's cut-offs 5, 10, 15, 20, 30, 100, 200, 500,
1000), ``infAP``, ``gm_bpref``, ``Rprec_mult_x``, ``utility``, ``11pt_avg``,
``binG``, ``G``, ``ndcg_rel``, ``Rndcg``, ``map_cut_k``, ``relative_P_k``,
``success_k``, ``set_P``, ``set_relative_P``, ``set_recall``, ``set_map``,
``set_F``, ``num_nonrel_judged_ret``, ``rbp``, ``rbp_resid``, ``unj_k``, and
the parameterised labels trec_eval prints: ``utility_2,-1,0,0``,
``11pt_avg_.25,.5,.75``, ``set_F_0.5``, ``ndcg_1=3,2=9`` (also ``ndcg_rel_…``,
``Rndcg_…``, ``G_…``: level=gain pairs), ``rbp_p=0.8``.  :func:`trec_eval_set`
lists trec_eval's ``official`` (default), ``all_trec`` and ``set`` measure sets
in its order; :func:`trec_eval_labels` turns ``-m name.params`` into labels.

Beyond trec_eval (see :mod:`inexeval.measures.classic_graded`); parameters
go in parentheses, ``name=value``, comma-separated, and are written only
when they differ from the default:

- ``F@k`` and ``E@k``, optional ``b`` (default 1): ``F@10``, ``E@10(b=0.5)``;
- ``CG@k``; ``DCG@k`` and ``nDCG@k``, optional log base ``b`` (default 2):
  ``nDCG@10``, ``DCG@10(b=3)``;
- ``AWP``, ``R-WP``; ``Q`` and ``R`` with optional ``beta`` (default: the
  ``Q_BETA`` setting): ``Q``, ``Q(beta=0.5)``;
- the flag ``agr`` on ``AWP``, ``R-WP``, ``Q``, ``R`` and ``CG``/``DCG``/
  ``nDCG`` uses Sakai's topic-adjusted gains: ``Q(agr)``,
  ``R(beta=0.5,agr)``; ``AGR`` is Sakai's name for ``AWP(agr)``;
- ``MRR@k``: reciprocal rank with rank threshold k; ``MRR`` without k is
  ``recip_rank``.

trec_eval's ``ndcg_cut_10`` (log2(i+1) discount, gain = rel) and
``nDCG@10`` (Järvelin–Kekäläinen discount, ``GAINS``) are different measures.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from inexeval.errors import ConfigError
from inexeval.measures.classic_base import Ranking
from inexeval.measures.classic_graded import GradedState
from inexeval.measures.classic_trec import TrecState, relstrings
from inexeval.measures.classic_trec_gains import GainState, Levels, ndcg_cut, rbp_resid
from inexeval.measures.registry import Params

#: trec_eval's default cut-offs for P, recall and ndcg_cut.
CUTOFFS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)
RECALL_POINTS = tuple(f"{p / 10:.2f}" for p in range(11))
_ELEVEN = tuple(p / 10 for p in range(11))

#: The default measure set: trec_eval's standard measures plus recall and ndcg (docs/measures.md §8).
DEFAULT_MEASURES: tuple[str, ...] = (
    ("num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec", "bpref", "recip_rank")
    + tuple(f"iprec_at_recall_{x}" for x in RECALL_POINTS)
    + tuple(f"P_{k}" for k in CUTOFFS)
    + tuple(f"recall_{k}" for k in CUTOFFS)
    + ("ndcg",)
    + tuple(f"ndcg_cut_{k}" for k in CUTOFFS)
)

#: Measures whose value over topics is a sum, not a mean (trec_eval).
SUMMED = frozenset({"num_ret", "num_rel", "num_rel_ret"})
#: Measures printed as integers by trec_eval.
INTEGER = SUMMED

#: Supported measure names (patterns) with one-line descriptions, for ``inexeval metrics``.
MEASURES: dict[str, str] = {
    "num_ret": "trec_eval: number of results retrieved (summed over topics)",
    "num_rel": "trec_eval: number of relevant documents (summed over topics)",
    "num_rel_ret": "trec_eval: number of relevant documents retrieved (summed over topics)",
    "map": "trec_eval: mean average precision",
    "gm_map": "trec_eval: geometric mean of average precision (floor 0.00001)",
    "Rprec": "trec_eval: precision at rank R (number of relevant documents)",
    "bpref": "trec_eval: binary preference (Buckley and Voorhees)",
    "recip_rank": "trec_eval: reciprocal rank of the first relevant result",
    "iprec_at_recall_x": "trec_eval: interpolated precision at recall x (0.00 ... 1.00); x*R rounded (10.0) "
                         "or truncated after + 0.9 (9.0.8), TREC_EVAL_VERSION",
    "P_k": "trec_eval: precision at rank k",
    "recall_k": "trec_eval: recall at rank k",
    "ndcg": "trec_eval: nDCG over the whole list (gain = rel, discount log2(i+1))",
    "ndcg_cut_k": "trec_eval: nDCG cut at rank k",
    "F@k(b=1)": "seed 004: F-measure at rank k (b weights recall)",
    "E@k(b=1)": "seed 004: E-measure at rank k, 1 - F@k(b)",
    "CG@k": "seed 004: cumulated gain at rank k (GAINS)",
    "DCG@k(b=2)": "seed 004: Jarvelin-Kekalainen DCG at rank k, log base b",
    "nDCG@k(b=2)": "seed 004: DCG@k over the ideal DCG@k",
    "AWP": "seed 003: average weighted precision (Kando et al.)",
    "R-WP": "seed 003: R-weighted precision, cg(R)/cig(R)",
    "Q(beta=Q_BETA)": "seed 003: Sakai's Q-measure",
    "R(beta=Q_BETA)": "seed 003: Sakai's R-measure",
    "AGR": "seed 003: average gain ratio, AWP with topic-adjusted gains; 'agr' flag on AWP, R-WP, Q, R, CG, DCG, nDCG",
    "MRR@k": "seed 004: reciprocal rank with rank threshold k (MRR: no threshold)",
    "infAP": "trec_eval: inferred AP (Yilmaz and Aslam), qrels value -1 = pooled but unjudged",
    "gm_bpref": "trec_eval: geometric mean of bpref (floor 0.00001)",
    "Rprec_mult_x": "trec_eval: precision at rank trunc(x*R + 0.9) (x = 0.20 ... 2.00)",
    "utility": "trec_eval: set utility a*rel_ret + b*nonrel_ret + c*rel_not_ret + d*nonrel_not_ret "
               "(utility_a,b,c,d; default 1,-1,0,0)",
    "11pt_avg": "trec_eval: mean interpolated precision at recall 0.0, 0.1, ... 1.0 (11pt_avg_x,y,...)",
    "binG": "trec_eval: binary G, mean over relevant of 1/log2(2 + nonrelevant above)",
    "G": "trec_eval: normalised gain G (gains: G_level=gain,...)",
    "ndcg_level=gain,...": "trec_eval: ndcg with the given gains per relevance level",
    "ndcg_rel": "trec_eval: ndcg averaged over the relevant documents (ndcg_rel_level=gain,...)",
    "Rndcg": "trec_eval: ndcg averaged at the ranks where the ideal gain changes (Rndcg_level=gain,...)",
    "map_cut_k": "trec_eval: average precision over the first k results",
    "relative_P_k": "trec_eval: precision at k over the best possible, count(k)/min(k, R)",
    "success_k": "trec_eval: 1 if a relevant result is in the first k",
    "set_P": "trec_eval: relevant retrieved / retrieved",
    "set_relative_P": "trec_eval: relevant retrieved / min(retrieved, R)",
    "set_recall": "trec_eval: relevant retrieved / R",
    "set_map": "trec_eval: set_P * set_recall",
    "set_F": "trec_eval: (x+1)PR/(xP+R) of set_P and set_recall, x = 1 (set_F_x)",
    "num_nonrel_judged_ret": "trec_eval: judged non-relevant documents retrieved (summed over topics)",
    "rbp": "trec_eval: rank-biased precision, persistence p = 0.9 (rbp_p=x)",
    "rbp_resid": "trec_eval: rank-biased precision residual of the unjudged results (p = 0.9; rbp_resid_p=x)",
    "unj_k": "trec_eval 10.0: fraction of unjudged results in the first k",
    "dcg": "trec_eval 10.0: DCG of the whole list (gain = rel, discount log2(i+1); dcg_level=gain,...)",
    "ideal_dcg": "trec_eval 10.0: DCG of the ideal list (ideal_dcg_level=gain,...)",
    "yaap": "trec_eval 10.0: log((1 + sum of precisions at relevant) / (1 + R - that sum))",
}

_FIXED = {
    n.lower(): n
    for n in ("num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec", "bpref", "recip_rank", "ndcg",
              "infAP", "gm_bpref", "utility", "11pt_avg", "binG", "G", "ndcg_rel", "Rndcg", "set_P",
              "set_relative_P", "set_recall", "set_map", "set_F", "num_nonrel_judged_ret", "rbp", "rbp_resid",
              "dcg", "ideal_dcg", "yaap")
}
_CUT_CANON = {"p": "P", "recall": "recall", "ndcg_cut": "ndcg_cut", "map_cut": "map_cut",
              "relative_p": "relative_P", "success": "success", "unj": "unj"}
_TREC_CUT = re.compile(r"^(p|recall|ndcg_cut|map_cut|relative_p|success|unj)_(\d+)$")
_IPREC = re.compile(r"^iprec_at_recall_(\d*\.?\d+)$")
_RPREC_MULT = re.compile(r"^rprec_mult_(\d*\.?\d+)$")
#: trec_eval's name=value parameters, printed after the name: ndcg_1=3,2=9
_PAIRS = re.compile(r"^(ndcg_rel|ndcg|rndcg|g|rbp_resid|rbp|ideal_dcg|dcg)_([^_].*=.*)$")
#: trec_eval's comma-separated numbers, printed after the name: utility_2,-1,0,0
_LISTS = re.compile(r"^(utility|11pt_avg|set_f)_(.+)$")
_PARAM_CANON = {"ndcg_rel": "ndcg_rel", "ndcg": "ndcg", "rndcg": "Rndcg", "g": "G", "rbp": "rbp",
                "rbp_resid": "rbp_resid", "dcg": "dcg", "ideal_dcg": "ideal_dcg",
                "utility": "utility", "11pt_avg": "11pt_avg", "set_f": "set_F"}
_NUMBER = re.compile(r"^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$")
_EXTRA = re.compile(r"^(f|e|cg|dcg|ndcg|awp|r-wp|q|r|agr|mrr)(?:@(\d+))?(?:\((.*)\))?$")
_EXTRA_CANON = {"f": "F", "e": "E", "cg": "CG", "dcg": "DCG", "ndcg": "nDCG", "awp": "AWP",
                "r-wp": "R-WP", "q": "Q", "r": "R", "agr": "AGR", "mrr": "MRR"}
_NEEDS_K = {"F", "E", "CG", "DCG", "nDCG"}
_NO_K = {"AWP", "R-WP", "Q", "R", "AGR"}
_PARAMS = {"F": {"b"}, "E": {"b"}, "DCG": {"b", "agr"}, "nDCG": {"b", "agr"}, "CG": {"agr"},
           "AWP": {"agr"}, "R-WP": {"agr"}, "Q": {"beta", "agr"}, "R": {"beta", "agr"},
           "AGR": set(), "MRR": set()}


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else repr(float(x))


@dataclass(frozen=True)
class MeasureSpec:
    """A parsed measure name: its family, cut-off and parameters."""

    name: str  # canonical
    family: str
    k: int | None = None
    params: tuple[tuple[str, float], ...] = field(default=())
    values: tuple[float, ...] = field(default=())  # trec_eval's list parameters (utility, 11pt_avg, set_F)

    def param(self, key: str, default: float) -> float:
        return dict(self.params).get(key, default)


def parse_measure(raw: str, *, source: object | None = None, line: int | None = None) -> MeasureSpec:
    """Parse one measure name (case-insensitive) into its canonical spec; ConfigError if unknown."""
    text = raw.strip()
    low = text.lower().replace(" ", "")
    if low in _FIXED:
        return MeasureSpec(_FIXED[low], _FIXED[low])
    m = _TREC_CUT.match(low)
    if m:
        fam = _CUT_CANON[m.group(1)]
        k = int(m.group(2))
        if k < 1:
            raise ConfigError(f"measure {text!r}: the cut-off must be >= 1", source, line)
        return MeasureSpec(f"{fam}_{k}", fam, k)
    m = _IPREC.match(low)
    if m:
        x = float(m.group(1))
        if not 0.0 <= x <= 1.0:
            raise ConfigError(f"measure {text!r}: recall must be in [0, 1]", source, line)
        return MeasureSpec(f"iprec_at_recall_{x:.2f}", "iprec_at_recall", params=(("x", x),))
    if low == "relstring" or low.startswith("relstring_"):
        raise ConfigError(f"measure {text!r} is text (trec_eval's relevance string), not a number: "
                          "'inexeval trec-eval' prints it (docs/measures.md §8.5)", source, line)
    m = _RPREC_MULT.match(low)
    if m:
        x = float(m.group(1))
        return MeasureSpec(f"Rprec_mult_{x:.2f}", "Rprec_mult", params=(("x", x),))
    spec = _parse_trec_params(text, low, source, line)
    if spec is not None:
        return spec
    m = _EXTRA.match(low)
    if not m:
        raise ConfigError(f"unknown measure {text!r} (see 'inexeval metrics')", source, line)
    fam = _EXTRA_CANON[m.group(1)]
    k = int(m.group(2)) if m.group(2) else None
    if fam in _NEEDS_K and k is None:
        raise ConfigError(f"measure {text!r} needs a rank cut-off, e.g. {fam}@10", source, line)
    if fam in _NO_K and k is not None:
        raise ConfigError(f"measure {text!r} takes no rank cut-off", source, line)
    if k is not None and k < 1:
        raise ConfigError(f"measure {text!r}: the cut-off must be >= 1", source, line)
    params: dict[str, float] = {}
    for item in filter(None, (m.group(3) or "").split(",")):
        key, eq, val = item.partition("=")
        if key not in _PARAMS[fam] or (key == "agr") == bool(eq):
            raise ConfigError(f"measure {text!r}: unknown parameter {item!r}", source, line)
        try:
            params[key] = 1.0 if key == "agr" else float(val)
        except ValueError:
            raise ConfigError(f"measure {text!r}: bad value {val!r}", source, line) from None
        bad = (key == "b" and fam in ("DCG", "nDCG") and not params[key] > 1) or (
            key in ("b", "beta") and not (np.isfinite(params[key]) and params[key] >= 0)
        )
        if bad:
            raise ConfigError(f"measure {text!r}: {key} out of range", source, line)
    default_b = 2.0 if fam in ("DCG", "nDCG") else 1.0
    if params.get("b") == default_b:
        del params["b"]
    name = fam + (f"@{k}" if k is not None else "")
    shown = [f"{key}={_num(v)}" for key, v in sorted(params.items()) if key != "agr"]
    if "agr" in params:
        shown.append("agr")
    if shown:
        name += "(" + ",".join(shown) + ")"
    if fam == "AGR":
        params["agr"] = 1.0
    return MeasureSpec(name, fam, k, tuple(sorted(params.items())))


def _parse_trec_params(text: str, low: str, source: object | None, line: int | None) -> MeasureSpec | None:
    """trec_eval's parameterised labels (``utility_2,-1,0,0``, ``ndcg_1=3,2=9``), or None."""
    m = _PAIRS.match(low)
    if m:
        fam, raw = _PARAM_CANON[m.group(1)], m.group(2)
        pairs = []
        for item in raw.split(","):
            key, eq, val = item.partition("=")
            persistence = fam in ("rbp", "rbp_resid") and key == "p"
            ok_key = persistence or (fam != "rbp_resid" and bool(re.fullmatch(r"[+-]?\d+", key)))
            if not eq or not ok_key or not _NUMBER.match(val):
                want = {"rbp": "p=x or level=gain", "rbp_resid": "p=x"}.get(fam, "level=gain")
                raise ConfigError(f"measure {text!r}: {item!r} is not {want}", source, line)
            pairs.append((key, float(val)))
        return MeasureSpec(f"{fam}_{raw}", fam, params=tuple(pairs))
    m = _LISTS.match(low)
    if m:
        fam, raw = _PARAM_CANON[m.group(1)], m.group(2)
        items = raw.split(",")
        if not all(_NUMBER.match(v) for v in items):
            raise ConfigError(f"measure {text!r}: the parameters must be numbers, comma-separated", source, line)
        want = {"utility": 4, "set_F": 1}.get(fam)
        if want is not None and len(items) != want:
            raise ConfigError(f"measure {text!r}: {fam} takes {want} number(s)", source, line)
        return MeasureSpec(f"{fam}_{raw}", fam, values=tuple(float(v) for v in items))
    return None


def parse_measures(names: list[str] | tuple[str, ...] | None) -> list[MeasureSpec]:
    """Parse a METRICS list (None: the default set), dropping repeated measures."""
    specs, seen = [], set()
    for raw in DEFAULT_MEASURES if names is None else names:
        spec = parse_measure(raw)
        if spec.name not in seen:
            seen.add(spec.name)
            specs.append(spec)
    return specs


class Kernels:
    """The per-run states the kernels read: trec_eval's, its gain states (one per set of gain
    parameters), and the graded ones (plain and agr).  EVALUATED: the topics trec_eval evaluates, in
    its order (a topic judged only negatively takes the levels of the one before, see
    :mod:`inexeval.measures.classic_trec_gains`); None: every topic."""

    def __init__(self, ranking: Ranking, gains: dict[int, float] | None, q_beta: float,
                 version: str = "10.0", num_docs: int = 0, evaluated: np.ndarray | None = None):
        self.trec = TrecState(ranking, version, num_docs)
        self.ranking, self.gains, self.q_beta = ranking, gains, q_beta
        self.version = version
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

    def graded(self, agr: bool = False) -> GradedState:
        if agr not in self._graded:
            self._graded[agr] = GradedState(self.ranking, self.gains, agr)
        return self._graded[agr]


def _agr(s: MeasureSpec) -> bool:
    return bool(s.param("agr", 0.0))


@dataclass(frozen=True)
class Family:
    """One row of the classic family table: its kernel, how it averages, how trec_eval prints it."""

    kernel: Callable[[Kernels, MeasureSpec], np.ndarray]  # values for every topic of the ranking
    aggregate: str = "mean"  # over topics: mean, sum or gmean (docs/measures.md §10)
    integer: bool = False  # a count, printed as an integer
    per_topic_reported: bool = True  # False: trec_eval -q does not print it per topic
    bounded: bool = True  # values in [0, 1]
    lower_is_better: bool = False  # E@k = 1 - F@k: the smaller, the better
    #: whether the ideal run (the relevant documents by decreasing relevance) scores 1 on every topic
    ideal: Callable[[Params, MeasureSpec], bool] = lambda p, s: False


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


#: The classic family table (docs/measures.md §8): measure family -> kernel and aggregation.
FAMILIES: dict[str, Family] = {
    "num_ret": Family(lambda k, s: k.trec.num_ret(), "sum", integer=True, bounded=False),
    "num_rel": Family(lambda k, s: k.trec.num_rel_(), "sum", integer=True, bounded=False),
    "num_rel_ret": Family(lambda k, s: k.trec.num_rel_ret_(), "sum", integer=True, bounded=False),
    "map": Family(lambda k, s: k.trec.ap(), ideal=_always),
    "gm_map": Family(lambda k, s: k.trec.ap(), "gmean", per_topic_reported=False, ideal=_always),
    "Rprec": Family(lambda k, s: k.trec.rprec(), ideal=_always),
    "bpref": Family(lambda k, s: k.trec.bpref(), ideal=_always),
    "recip_rank": Family(lambda k, s: k.trec.recip_rank(), ideal=_always),
    "iprec_at_recall": Family(lambda k, s: k.trec.iprec_at_recall(s.param("x", 0.0)), ideal=_always),
    "P": Family(lambda k, s: k.trec.precision(s.k)),
    "recall": Family(lambda k, s: k.trec.recall(s.k)),
    "ndcg": Family(lambda k, s: k.gain_state(s.params).ndcg(), ideal=_trec_gains),
    "ndcg_cut": Family(lambda k, s: ndcg_cut(k.gain_state(), s.k), ideal=_trec_gains),
    "F": Family(lambda k, s: k.graded().f_measure(s.k, s.param("b", 1.0))),
    "E": Family(lambda k, s: k.graded().e_measure(s.k, s.param("b", 1.0)), lower_is_better=True),
    "CG": Family(lambda k, s: k.graded(_agr(s)).cg_at(s.k), bounded=False),
    "DCG": Family(lambda k, s: k.graded(_agr(s)).dcg_at(s.k, s.param("b", 2.0)), bounded=False),
    "nDCG": Family(lambda k, s: k.graded(_agr(s)).ndcg_at(s.k, s.param("b", 2.0)), ideal=_gains_follow_levels),
    "AWP": Family(lambda k, s: k.graded(_agr(s)).awp(), ideal=_gains_follow_levels),
    "AGR": Family(lambda k, s: k.graded(_agr(s)).awp(), ideal=_gains_follow_levels),
    "R-WP": Family(lambda k, s: k.graded(_agr(s)).r_wp(), ideal=_gains_follow_levels),
    "Q": Family(lambda k, s: k.graded(_agr(s)).q_measure(s.param("beta", k.q_beta)), ideal=_gains_follow_levels),
    "R": Family(lambda k, s: k.graded(_agr(s)).r_measure(s.param("beta", k.q_beta)), ideal=_gains_follow_levels),
    "MRR": Family(lambda k, s: k.graded().mrr(s.k), ideal=_always),
    # trec_eval's all_trec measures (docs/measures.md §8.2)
    "infAP": Family(lambda k, s: k.trec.infap()),
    "gm_bpref": Family(lambda k, s: k.trec.bpref(), "gmean", per_topic_reported=False),
    "Rprec_mult": Family(lambda k, s: k.trec.rprec_mult(s.param("x", 1.0))),
    "utility": Family(lambda k, s: k.trec.utility(*(s.values or (1.0, -1.0, 0.0, 0.0))), bounded=False),
    "11pt_avg": Family(lambda k, s: k.trec.eleven_pt_avg(s.values or _ELEVEN)),
    "binG": Family(lambda k, s: k.trec.bin_g()),
    "G": Family(lambda k, s: k.gain_state(s.params).g_measure(), bounded=False),
    "dcg": Family(lambda k, s: k.gain_state(s.params).dcg(), bounded=False),
    "ideal_dcg": Family(lambda k, s: k.gain_state(s.params).ideal_dcg(), bounded=False),
    "ndcg_rel": Family(lambda k, s: k.gain_state(s.params).ndcg_rel(), bounded=False),
    "Rndcg": Family(lambda k, s: k.gain_state(s.params).rndcg(k.trec.num_rel), bounded=False),
    "map_cut": Family(lambda k, s: k.trec.map_cut(s.k)),
    "relative_P": Family(lambda k, s: k.trec.relative_p(s.k)),
    "success": Family(lambda k, s: k.trec.success(s.k)),
    "set_P": Family(lambda k, s: k.trec.set_p()),
    "set_relative_P": Family(lambda k, s: k.trec.set_relative_p()),
    "set_recall": Family(lambda k, s: k.trec.set_recall()),
    "set_map": Family(lambda k, s: k.trec.set_map()),
    "set_F": Family(lambda k, s: k.trec.set_f(s.values[0] if s.values else 1.0)),
    "num_nonrel_judged_ret": Family(lambda k, s: k.trec.num_nonrel_judged_ret(), "sum", integer=True,
                                    bounded=False),
    "rbp": Family(_rbp, bounded=False),
    "rbp_resid": Family(lambda k, s: rbp_resid(k.ranking, _p(s))),
    "unj": Family(lambda k, s: k.trec.unj(s.k)),
    "yaap": Family(lambda k, s: k.trec.yaap(), bounded=False),
    # text, printed by the trec-eval drop-in only (not a METRICS name)
    "relstring": Family(lambda k, s: relstrings(k.ranking, int(s.values[0]) if s.values else 10), "none",
                        bounded=False),
}


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
