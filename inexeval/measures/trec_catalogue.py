"""trec_eval 10.0's measure catalogue (docs/trec-eval.md §2, docs/measures.md §8.5): one row per
measure, in the order trec_eval computes and prints them (its ``measures.c``), with how its
parameters read, the rel format its values come from, how its summary aggregates, and the measure
sets (nicknames) it belongs to.

The one copy of these facts: ``inexeval trec-eval``'s ``-m`` (:mod:`inexeval.dropins.trec_eval.options`:
which measures a name or nickname marks, their labels, the help text) and the config path
(``--format trec_eval``'s default set and order, :func:`trec_eval_set`;
:func:`inexeval.measures.classic.printing_order`; the default ``METRICS`` of ``TASK: trec``) read it.

A label is what trec_eval prints and what inexeval names the measure (``P_7``,
``utility_2,-1,0,0``, ``ndcg_1=3,2=9,4=4.5``), except ``runid`` and ``num_q`` (printed by the
writer) and ``relstring``/``relstring_k`` (a string per topic).
"""

from __future__ import annotations

from inexeval.readers.trec_numbers import atof, atol  # C's, as trec_eval reads cut-offs
from inexeval.records import record

#: trec_eval's measure sets (``-m official``), in the order the drop-in's help lists them.
NICKNAME_ORDER = ("official", "set", "all_trec", "all_prefs", "prefs", "qrels_jg")


@record(frozen=True)
class TrecMeasure:
    """One row of trec_eval's measure table.

    kind: ``plain`` (no parameters, the label is the name), ``cut_long`` (integer cut-offs, a label
    ``name_k`` each, default DEFAULT), ``cut_double`` (cut-offs as numbers, labels ``name_%.2f``,
    default DEFAULT), ``param`` (one value whose label is ``name_PARAMS`` when parameters are given),
    ``pairs`` (the same with ``key=value`` pairs), ``special`` (runid, num_q: printed by the writer).

    source: the rel format its values come from: ``qrels``, ``prefs`` (``-R prefs`` or
    ``qrels_prefs``), ``qrels_jg``, or ``any``.

    summary: how the ``all`` line aggregates the topics' values: ``mean``, ``sum`` (a count, printed
    as an integer), ``gmean`` (exp of the mean of log(max(v, 0.00001)); not printed per topic),
    ``count`` (num_q) or ``none`` (runid; relstring, printed per topic only).

    sets: the nicknames (:data:`NICKNAME_ORDER`) that include it.
    """

    name: str
    kind: str = "plain"
    default: tuple = ()
    source: str = "qrels"
    summary: str = "mean"
    sets: tuple[str, ...] = ()

    @property
    def integer(self) -> bool:
        """Whether trec_eval prints its values as integers (its counts)."""
        return self.summary in ("sum", "count")


_CUTS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)
_TENTHS = tuple(x / 10 for x in range(11))
_MULTS = tuple(x / 10 for x in range(2, 21, 2))

# the sets of a row
_EVERY = NICKNAME_ORDER
_OFFICIAL = ("official", "all_trec")
_OFFICIAL_SET = ("official", "set", "all_trec")
_ALL_TREC = ("all_trec",)
_SET = ("set", "all_trec")
_PREFS = ("all_prefs", "prefs")
_ALL_PREFS = ("all_prefs",)
_JG = ("qrels_jg",)

#: trec_eval 10.0's measures, in the order it computes and prints them.
CATALOGUE: tuple[TrecMeasure, ...] = (
    TrecMeasure("runid", "special", source="any", summary="none", sets=_EVERY),
    TrecMeasure("num_q", "special", source="any", summary="count", sets=_EVERY),
    TrecMeasure("num_ret", summary="sum", sets=_OFFICIAL_SET),
    TrecMeasure("num_rel", summary="sum", sets=_OFFICIAL_SET),
    TrecMeasure("num_rel_ret", summary="sum", sets=_OFFICIAL_SET),
    TrecMeasure("map", sets=_OFFICIAL),
    TrecMeasure("gm_map", summary="gmean", sets=_OFFICIAL),
    TrecMeasure("Rprec", sets=_OFFICIAL),
    TrecMeasure("bpref", sets=_OFFICIAL),
    TrecMeasure("recip_rank", sets=_OFFICIAL),
    TrecMeasure("iprec_at_recall", "cut_double", _TENTHS, sets=_OFFICIAL),
    TrecMeasure("P", "cut_long", _CUTS, sets=_OFFICIAL),
    TrecMeasure("relstring", "param", summary="none", sets=_ALL_TREC),
    TrecMeasure("recall", "cut_long", _CUTS, sets=_ALL_TREC),
    TrecMeasure("infAP", sets=_ALL_TREC),
    TrecMeasure("gm_bpref", summary="gmean", sets=_ALL_TREC),
    TrecMeasure("Rprec_mult", "cut_double", _MULTS, sets=_ALL_TREC),
    TrecMeasure("utility", "param", sets=_SET),
    TrecMeasure("11pt_avg", "param", sets=_ALL_TREC),
    TrecMeasure("binG", sets=_ALL_TREC),
    TrecMeasure("G", "pairs", sets=_ALL_TREC),
    TrecMeasure("dcg", "pairs"),
    TrecMeasure("ideal_dcg", "pairs"),
    TrecMeasure("ndcg", "pairs", sets=_ALL_TREC),
    TrecMeasure("ndcg_rel", "pairs", sets=_ALL_TREC),
    TrecMeasure("Rndcg", "pairs", sets=_ALL_TREC),
    TrecMeasure("ndcg_cut", "cut_long", _CUTS, sets=_ALL_TREC),
    TrecMeasure("map_cut", "cut_long", _CUTS, sets=_ALL_TREC),
    TrecMeasure("relative_P", "cut_long", _CUTS, sets=_ALL_TREC),
    TrecMeasure("success", "cut_long", (1, 5, 10), sets=_ALL_TREC),
    TrecMeasure("set_P", sets=_SET),
    TrecMeasure("set_relative_P", sets=_SET),
    TrecMeasure("set_recall", sets=_SET),
    TrecMeasure("set_map", sets=_SET),
    TrecMeasure("set_F", "param", sets=_SET),
    TrecMeasure("num_nonrel_judged_ret", summary="sum", sets=_ALL_TREC),
    TrecMeasure("prefs_num_prefs_poss", source="prefs", summary="sum", sets=_PREFS),
    TrecMeasure("prefs_num_prefs_ful", source="prefs", summary="sum", sets=_PREFS),
    TrecMeasure("prefs_num_prefs_ful_ret", source="prefs", summary="sum", sets=_PREFS),
    TrecMeasure("prefs_simp", source="prefs", sets=_PREFS),
    TrecMeasure("prefs_pair", source="prefs", sets=_PREFS),
    TrecMeasure("prefs_avgjg", source="prefs", sets=_PREFS),
    TrecMeasure("prefs_avgjg_Rnonrel", source="prefs", sets=_ALL_PREFS),
    TrecMeasure("prefs_simp_ret", source="prefs", sets=_ALL_PREFS),
    TrecMeasure("prefs_pair_ret", source="prefs", sets=_ALL_PREFS),
    TrecMeasure("prefs_avgjg_ret", source="prefs", sets=_ALL_PREFS),
    TrecMeasure("prefs_avgjg_Rnonrel_ret", source="prefs", sets=_ALL_PREFS),
    TrecMeasure("prefs_simp_imp", source="prefs", sets=_ALL_PREFS),
    TrecMeasure("prefs_pair_imp", source="prefs", sets=_ALL_PREFS),
    TrecMeasure("prefs_avgjg_imp", source="prefs", sets=_ALL_PREFS),
    TrecMeasure("map_avgjg", source="qrels_jg", sets=_JG),
    TrecMeasure("P_avgjg", "cut_long", _CUTS, source="qrels_jg", sets=_JG),
    TrecMeasure("Rprec_mult_avgjg", "cut_double", _MULTS, source="qrels_jg", sets=_JG),
    TrecMeasure("yaap"),
    TrecMeasure("rbp", "pairs", sets=_ALL_TREC),
    TrecMeasure("rbp_resid", "pairs", sets=_ALL_TREC),
    TrecMeasure("unj", "cut_long", (5, 10, 20), sets=_ALL_TREC),
)
BY_NAME: dict[str, TrecMeasure] = {m.name: m for m in CATALOGUE}
#: trec_eval's nicknames: each set's measures, in trec_eval's order.
NICKNAMES: dict[str, tuple[str, ...]] = {
    nick: tuple(m.name for m in CATALOGUE if nick in m.sets) for nick in NICKNAME_ORDER
}


# ------------------------------------------------------------------ parameters and labels ----

def _cut_long(params: str) -> tuple[int, ...]:
    cuts = sorted(atol(p) for p in params.split(","))
    if cuts[0] <= 0:
        raise ValueError("Negative cutoff detected")
    if any(a == b for a, b in zip(cuts, cuts[1:])):
        raise ValueError("duplicate cutoffs detected")
    return tuple(cuts)


def _cut_double(params: str) -> tuple[float, ...]:
    cuts = sorted(atof(p) for p in params.split(","))
    if any(a == b for a, b in zip(cuts, cuts[1:])):
        raise ValueError("duplicate cutoffs detected")
    return tuple(cuts)


def _check_pairs(params: str) -> None:
    """trec_eval's check of ``key=value,...``: every item needs one ``=``, the last character seen decides."""
    last = ","
    for ch in params:
        if ch == ",":
            if last == ",":
                break
            last = ","
        elif ch == "=":
            if last == "=":
                last = ","
                break
            last = "="
    if last != "=":
        raise ValueError(f"malformed pair parameters in '{params}'")


def measure_labels(m: TrecMeasure, params: str | None = None) -> tuple[tuple[str, ...], tuple]:
    """The labels trec_eval prints for ``-m name[.params]`` of M and their cut-offs (PARAMS None: none
    given): cut-offs read as C reads them (``atol``, ``atof``) and sorted (``P.5,7,3`` -> P_3, P_5,
    P_7), fractions with two decimals (``Rprec_mult.5.0`` -> Rprec_mult_5.00), other parameters as
    written (``utility_2,-1,0,0``); parameters of a measure without any are ignored.  ValueError with
    trec_eval's complaint for a bad parameter list."""
    if m.kind == "cut_long":
        cuts = _cut_long(params) if params is not None else m.default
        return tuple(f"{m.name}_{k}" for k in cuts), cuts
    if m.kind == "cut_double":
        cuts = _cut_double(params) if params is not None else m.default
        return tuple(f"{m.name}_{x:3.2f}" for x in cuts), cuts
    if m.kind in ("param", "pairs"):
        if params is not None and m.kind == "pairs":
            _check_pairs(params)
        return (m.name if params is None else f"{m.name}_{params}",), ()
    return (m.name,), ()


def labels(name: str, params: str | None = None) -> list[str]:
    """The labels trec_eval prints for ``-m name[.params]`` (:func:`measure_labels`); ValueError for a
    measure trec_eval does not have or a bad parameter list."""
    m = BY_NAME.get(name)
    if m is None:
        raise ValueError(f"trec_eval has no measure {name!r}")
    return list(measure_labels(m, params)[0])


def trec_eval_set(name: str = "official") -> list[str]:
    """The labels of trec_eval's measure set NAME (``official``, its default; ``all_trec``; ``set``;
    …), with default parameters, in the order trec_eval prints them."""
    return [lab for m in CATALOGUE if name in m.sets for lab in measure_labels(m)[0]]


def of_label(label: str) -> TrecMeasure | None:
    """The measure that prints LABEL (the longest name that is LABEL or starts it followed by ``_``)."""
    best = None
    for m in CATALOGUE:
        if (label == m.name or label.startswith(m.name + "_")) and (best is None or len(m.name) > len(best.name)):
            best = m
    return best


def summary(label: str) -> str:
    """How trec_eval summarises LABEL over topics (:attr:`TrecMeasure.summary`; ``mean`` for a label
    that is not trec_eval's)."""
    m = of_label(label)
    return m.summary if m is not None else "mean"
