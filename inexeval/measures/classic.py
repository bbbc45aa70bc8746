"""Names of the classic measures (SPEC §8) and their computation for a ranking.

Measure names (``METRICS``; matched case-insensitively, written canonically):

trec_eval's, with its meanings (see :mod:`inexeval.measures.classic_trec`):
``num_ret``, ``num_rel``, ``num_rel_ret``, ``map``, ``gm_map``, ``Rprec``,
``bpref``, ``recip_rank``, ``iprec_at_recall_x`` (x = 0.00 … 1.00, two
decimals), ``P_k``, ``recall_k``, ``ndcg``, ``ndcg_cut_k`` (any k >= 1;
the default set uses trec_eval's cut-offs 5, 10, 15, 20, 30, 100, 200, 500,
1000).

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
from dataclasses import dataclass, field

import numpy as np

from inexeval.errors import ConfigError
from inexeval.measures.classic_base import Ranking
from inexeval.measures.classic_graded import GradedState
from inexeval.measures.classic_trec import TrecState

#: trec_eval's default cut-offs for P, recall and ndcg_cut.
CUTOFFS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)
RECALL_POINTS = tuple(f"{p / 10:.2f}" for p in range(11))

#: The default measure set: trec_eval's standard measures plus recall and ndcg (SPEC §8).
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
    "iprec_at_recall_x": "trec_eval: interpolated precision at recall x (0.00 ... 1.00)",
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
}

_FIXED = {
    n.lower(): n
    for n in ("num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec", "bpref", "recip_rank", "ndcg")
}
_TREC_CUT = re.compile(r"^(p|recall|ndcg_cut)_(\d+)$")
_IPREC = re.compile(r"^iprec_at_recall_(\d*\.?\d+)$")
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
        fam = {"p": "P", "recall": "recall", "ndcg_cut": "ndcg_cut"}[m.group(1)]
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


def parse_measures(names: list[str] | tuple[str, ...] | None) -> list[MeasureSpec]:
    """Parse a METRICS list (None: the default set), dropping repeated measures."""
    specs, seen = [], set()
    for raw in DEFAULT_MEASURES if names is None else names:
        spec = parse_measure(raw)
        if spec.name not in seen:
            seen.add(spec.name)
            specs.append(spec)
    return specs


def compute(
    ranking: Ranking,
    specs: list[MeasureSpec],
    *,
    gains: dict[int, float] | None = None,
    q_beta: float = 1.0,
) -> dict[str, np.ndarray]:
    """Per-topic values (one float per topic of ``ranking.table``) of every measure in SPECS."""
    trec = TrecState(ranking)
    graded: dict[bool, GradedState] = {}

    def g(agr: bool) -> GradedState:
        if agr not in graded:
            graded[agr] = GradedState(ranking, gains, agr)
        return graded[agr]

    out: dict[str, np.ndarray] = {}
    for s in specs:
        f, k = s.family, s.k
        agr = bool(s.param("agr", 0.0))
        if f == "num_ret":
            v = trec.num_ret()
        elif f == "num_rel":
            v = trec.num_rel_()
        elif f == "num_rel_ret":
            v = trec.num_rel_ret_()
        elif f in ("map", "gm_map"):
            v = trec.ap()
        elif f == "Rprec":
            v = trec.rprec()
        elif f == "bpref":
            v = trec.bpref()
        elif f == "recip_rank":
            v = trec.recip_rank()
        elif f == "iprec_at_recall":
            v = trec.iprec_at_recall(s.param("x", 0.0))
        elif f == "P":
            v = trec.precision(k)
        elif f == "recall":
            v = trec.recall(k)
        elif f == "ndcg":
            v = trec.ndcg()
        elif f == "ndcg_cut":
            v = trec.ndcg(k)
        elif f == "F":
            v = g(False).f_measure(k, s.param("b", 1.0))
        elif f == "E":
            v = g(False).e_measure(k, s.param("b", 1.0))
        elif f == "CG":
            v = g(agr).cg_at(k)
        elif f == "DCG":
            v = g(agr).dcg_at(k, s.param("b", 2.0))
        elif f == "nDCG":
            v = g(agr).ndcg_at(k, s.param("b", 2.0))
        elif f in ("AWP", "AGR"):
            v = g(agr).awp()
        elif f == "R-WP":
            v = g(agr).r_wp()
        elif f == "Q":
            v = g(agr).q_measure(s.param("beta", q_beta))
        elif f == "R":
            v = g(agr).r_measure(s.param("beta", q_beta))
        elif f == "MRR":
            v = g(False).mrr(k)
        else:  # pragma: no cover - parse_measure only yields the families above
            raise AssertionError(f)
        out[s.name] = np.asarray(v, dtype=np.float64)
    return out
