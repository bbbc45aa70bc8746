"""trec_eval's measure sets and labels (docs/measures.md §8.5): which labels ``-m official``,
``-m all_trec`` and ``-m set`` print, in trec_eval's order, how ``-m name.params`` becomes labels,
and how each label is summarised over topics.

A label is the inexeval measure name (``P_7``, ``utility_2,-1,0,0``, ``ndcg_1=3,2=9,4=4.5``),
except ``runid`` and ``num_q`` (printed by the writer) and ``relstring``/``relstring_k`` (a
string per topic, :func:`inexeval.measures.classic_trec.relstrings`).
"""

from __future__ import annotations

#: trec_eval 10.0's measures in the order it computes and prints them (measures.c).
ORDER: tuple[str, ...] = (
    "runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec", "bpref",
    "recip_rank", "iprec_at_recall", "P", "relstring", "recall", "infAP", "gm_bpref", "Rprec_mult",
    "utility", "11pt_avg", "binG", "G", "dcg", "ideal_dcg", "ndcg", "ndcg_rel", "Rndcg", "ndcg_cut", "map_cut",
    "relative_P", "success", "set_P", "set_relative_P", "set_recall", "set_map", "set_F",
    "num_nonrel_judged_ret",
    "prefs_num_prefs_poss", "prefs_num_prefs_ful", "prefs_num_prefs_ful_ret", "prefs_simp",
    "prefs_pair", "prefs_avgjg", "prefs_avgjg_Rnonrel", "prefs_simp_ret", "prefs_pair_ret",
    "prefs_avgjg_ret", "prefs_avgjg_Rnonrel_ret", "prefs_simp_imp", "prefs_pair_imp",
    "prefs_avgjg_imp", "map_avgjg", "P_avgjg", "Rprec_mult_avgjg", "yaap",
    "rbp", "rbp_resid", "unj",
)

_CUTS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)
#: default cut-offs of the families printed once per cut-off
LONG_CUTOFFS: dict[str, tuple[int, ...]] = {
    "P": _CUTS, "recall": _CUTS, "ndcg_cut": _CUTS, "map_cut": _CUTS, "relative_P": _CUTS,
    "success": (1, 5, 10), "unj": (5, 10, 20), "P_avgjg": _CUTS,
}
DOUBLE_CUTOFFS: dict[str, tuple[float, ...]] = {
    "iprec_at_recall": tuple(p / 10 for p in range(11)),
    "Rprec_mult": tuple(p / 10 for p in range(2, 21, 2)),
    "Rprec_mult_avgjg": tuple(p / 10 for p in range(2, 21, 2)),
}
#: families with one value named ``name_<params as written>`` when given parameters
RAW_PARAMS = frozenset({"utility", "11pt_avg", "set_F", "ndcg", "ndcg_rel", "Rndcg", "G", "rbp", "relstring",
                        "dcg", "ideal_dcg", "rbp_resid"})

SETS: dict[str, tuple[str, ...]] = {
    "official": ("runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec", "bpref",
                 "recip_rank", "iprec_at_recall", "P"),
    "all_trec": ("runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec", "bpref",
                 "recip_rank", "iprec_at_recall", "P", "relstring", "recall", "infAP", "gm_bpref", "utility",
                 "11pt_avg", "ndcg", "relative_P", "Rprec_mult", "success", "map_cut", "ndcg_cut", "ndcg_rel",
                 "Rndcg", "binG", "G", "set_P", "set_recall", "set_relative_P", "set_map", "set_F",
                 "num_nonrel_judged_ret", "rbp", "rbp_resid", "unj"),
    "set": ("runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "utility", "set_P", "set_recall",
            "set_relative_P", "set_map", "set_F"),
}

#: how trec_eval summarises a family over topics: mean unless listed; "none": not summarised
SUMMARY: dict[str, str] = {
    "num_ret": "sum", "num_rel": "sum", "num_rel_ret": "sum", "num_nonrel_judged_ret": "sum",
    "gm_map": "gmean", "gm_bpref": "gmean", "relstring": "none", "runid": "none", "num_q": "count",
}


def _long(text: str) -> int:
    """C's ``atol``: the leading integer of TEXT (``23.4`` -> 23)."""
    text = text.strip()
    sign, digits = 1, ""
    if text[:1] in "+-":
        sign, text = (-1 if text[0] == "-" else 1), text[1:]
    for ch in text:
        if not ch.isdigit():
            break
        digits += ch
    return sign * int(digits or 0)


def _double(text: str) -> float:
    """C's ``atof`` on a plain number (0.0 when it is not one)."""
    try:
        return float(text)
    except ValueError:
        return 0.0


def labels(family: str, params: str | None = None) -> list[str]:
    """The labels trec_eval prints for ``-m family[.params]`` (family as trec_eval spells it):
    cut-offs sorted (``P.5,7,3`` -> P_3, P_5, P_7), recall levels and multiples with two decimals
    (``Rprec_mult.5.0`` -> Rprec_mult_5.00), other parameters as written (``utility_2,-1,0,0``).
    ValueError for a family trec_eval does not know or a bad cut-off."""
    if family not in ORDER:
        raise ValueError(f"trec_eval has no measure {family!r}")
    if family in LONG_CUTOFFS:
        cuts = LONG_CUTOFFS[family] if params is None else tuple(sorted(_long(p) for p in params.split(",")))
        if min(cuts) <= 0 or len(set(cuts)) != len(cuts):
            raise ValueError(f"{family}: cut-offs must be positive and distinct")
        return [f"{family}_{k}" for k in cuts]
    if family in DOUBLE_CUTOFFS:
        xs = DOUBLE_CUTOFFS[family] if params is None else tuple(sorted(_double(p) for p in params.split(",")))
        if len(set(xs)) != len(xs):
            raise ValueError(f"{family}: duplicate cut-offs")
        return [f"{family}_{x:3.2f}" for x in xs]
    if family in RAW_PARAMS and params is not None:
        return [f"{family}_{params}"]
    return [family]


def trec_eval_set(name: str = "official") -> list[str]:
    """The labels of trec_eval's measure set NAME (``official``, its default; ``all_trec``; ``set``),
    with default parameters, in the order trec_eval prints them."""
    members = set(SETS[name])
    return [lab for fam in ORDER if fam in members for lab in labels(fam)]


def summary(label: str) -> str:
    """How trec_eval summarises LABEL over topics: ``mean``, ``sum``, ``gmean`` (exp of the mean
    log of max(v, 0.00001)), ``count`` (num_q) or ``none`` (runid, relstring)."""
    fam = label
    if fam not in SUMMARY:
        for f in sorted(ORDER, key=len, reverse=True):
            if label == f or label.startswith(f + "_"):
                fam = f
                break
    return SUMMARY.get(fam, "mean")


def printing_order(names: list[str]) -> list[str]:
    """NAMES (classic measure names, canonical) in the order trec_eval prints them: by its measure
    order (:data:`ORDER`), a family's cut-offs ascending, parameterised labels as given; measures
    trec_eval does not have (``Q``, ``nDCG@10``, …) after its own, as given."""
    from inexeval.measures.classic import parse_measure

    def key(item: tuple[int, str]):
        i, name = item
        spec = parse_measure(name)
        if spec.family not in ORDER:
            return (len(ORDER), 0.0, i)
        cut = float(spec.k) if spec.k is not None else dict(spec.params).get("x", 0.0)
        return (ORDER.index(spec.family), cut, i)

    return [n for _, n in sorted(enumerate(names), key=key)]
