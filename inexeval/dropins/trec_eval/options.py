"""trec_eval 10.0's command line for ``inexeval trec-eval`` (docs/trec-eval.md §1, §2).

Two parts:

- :func:`parse_args`: GNU ``getopt_long`` as trec_eval uses it (short options
  ``hvqm:cl:nD:JN:M:R:T:oZ:``, values attached or separate, flags grouped,
  long options with ``=`` or a separate value and unambiguous prefixes,
  operands anywhere, ``--`` ends the options);
- :func:`select_measures`: ``-m name[.params]`` and the nicknames (``official``,
  ``all_trec``, ``set``, ``all_prefs``, ``prefs``, ``qrels_jg``) turned into the
  printed labels, in trec_eval's measure order, with each measure's parameters
  (the first ``-m`` of a measure that carries parameters wins).

Errors are :class:`TrecEvalExit` carrying trec_eval's message and exit status.
"""

from __future__ import annotations

from dataclasses import dataclass, field

VERSION = "10.0-rc3"
USAGE = (
    "Usage: inexeval trec-eval [-h] [-q] {-m measure}* trec_rel_file trec_top_file\n"
    "   -h: full help (options, measures named with -m)\n"
    "   -q: per-topic values as well as the summary\n"
    "   -m: measure or measure set to print (default: official)\n"
)


class TrecEvalExit(Exception):
    """Stop with MESSAGE (lines for standard error, may be empty) and STATUS, as trec_eval would."""

    def __init__(self, message: str, status: int):
        super().__init__(message)
        self.message = message
        self.status = status


# ------------------------------------------------------------------ options ----

_SHORT = "hvqm:cl:nD:JN:M:R:T:oZ:"
_LONG = {  # long name -> (short letter, takes a value)
    "help": ("h", False), "version": ("v", False), "query_eval_wanted": ("q", False),
    "measure": ("m", True), "complete_rel_info_wanted": ("c", False), "level_for_rel": ("l", True),
    "nosummary": ("n", False), "Debug_level": ("D", True), "Judged_docs_only": ("J", False),
    "Number_docs_in_coll": ("N", True), "Max_retrieved_per_topic": ("M", True),
    "Rel_info_format": ("R", True), "Results_format": ("T", True), "Output_old_results_format": ("o", True),
    "Zscore": ("Z", True),
    "trec-eval-version": ("", True),  # inexeval's own: 10.0 (default) or 9.0.8's numbers
}
#: The trec_eval versions whose numbers --trec-eval-version gives (docs/measures.md §8.4).
NUMBERS_OF = ("10.0", "9.0.8")


def _takes_value(letter: str) -> bool | None:
    i = _SHORT.find(letter)
    if i < 0 or letter == ":":
        return None
    return _SHORT[i + 1 : i + 2] == ":"


def atol(text: str) -> int:
    """C's ``atol`` (glibc): optional blanks and sign, then the leading digits (0 if none), clamped to
    the range of a 64-bit long."""
    s = text.lstrip(" \t\n\v\f\r")
    sign, i = 1, 0
    if s[:1] in "+-" and s[:1]:
        sign, i = (-1 if s[0] == "-" else 1), 1
    j = i
    while j < len(s) and s[j].isdigit() and s[j].isascii():
        j += 1
    value = sign * int(s[i:j]) if j > i else 0
    return max(-(1 << 63), min(value, (1 << 63) - 1))


def atof(text: str) -> float:
    """C's ``atof``: the longest leading part that is a number (0.0 if none)."""
    import re

    m = re.match(r"[ \t\n\v\f\r]*([+-]?(?:(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|inf(?:inity)?|nan))", text,
                 re.IGNORECASE)
    return float(m.group(1)) if m else 0.0


@dataclass
class Options:
    """trec_eval's settings after the command line (its ``EPI``)."""

    query: bool = False
    complete: bool = False
    summary: bool = True
    judged_only: bool = False
    level: int = 1
    max_per_topic: int | None = None  # None: no cap
    num_docs_in_coll: int = 0
    debug_level: int = 0
    debug_query: str | None = None
    rel_format: str = "qrels"
    results_format: str = "trec_results"
    zscores: str | None = None
    help: bool = False
    version: bool = False
    measures: list[str] = field(default_factory=list)  # raw -m arguments, in order
    numbers_of: str = "10.0"  # --trec-eval-version
    files: list[str] = field(default_factory=list)


def parse_args(argv: list[str]) -> Options:
    """The settings of ARGV (without the program name); TrecEvalExit for a bad command line.

    ``-v`` stops at once (status 0), as in trec_eval; the operands are checked by the caller.
    """
    opts = Options()
    operands: list[str] = []
    i = 0
    while i < len(argv):
        arg = argv[i]
        i += 1
        if arg == "--":
            operands.extend(argv[i:])
            break
        if arg.startswith("--"):
            name, eq, value = arg[2:].partition("=")
            exact = [n for n in _LONG if n == name]
            matches = exact or [n for n in _LONG if n.startswith(name)]
            if not matches:
                raise TrecEvalExit(f"trec_eval: unrecognized option '--{name}'\n" + USAGE, 1)
            if len(matches) > 1:
                raise TrecEvalExit(f"trec_eval: option '--{name}' is ambiguous\n" + USAGE, 1)
            letter, needs = _LONG[matches[0]]
            if needs and not eq:
                if i >= len(argv):
                    raise TrecEvalExit(f"trec_eval: option '--{matches[0]}' requires an argument\n" + USAGE, 1)
                value, i = argv[i], i + 1
            elif not needs and eq:
                raise TrecEvalExit(f"trec_eval: option '--{matches[0]}' doesn't allow an argument\n" + USAGE, 1)
            _apply(opts, letter, value if needs else None)
            continue
        if arg.startswith("-") and arg != "-":
            j = 1
            while j < len(arg):
                letter = arg[j]
                needs = _takes_value(letter)
                if needs is None:
                    raise TrecEvalExit(f"trec_eval: invalid option -- '{letter}'\n" + USAGE, 1)
                if needs:
                    value = arg[j + 1 :]
                    if not value:
                        if i >= len(argv):
                            raise TrecEvalExit(f"trec_eval: option requires an argument -- '{letter}'\n" + USAGE, 1)
                        value, i = argv[i], i + 1
                    _apply(opts, letter, value)
                    break
                _apply(opts, letter, None)
                j += 1
            continue
        operands.append(arg)
    opts.files = operands
    return opts


def _apply(opts: Options, letter: str, value: str | None) -> None:
    if letter == "":  # --trec-eval-version
        if value not in NUMBERS_OF:
            raise TrecEvalExit(f"trec_eval: --trec-eval-version: {value!r} is not one of "
                               f"{', '.join(NUMBERS_OF)}\n" + USAGE, 1)
        opts.numbers_of = value
    elif letter == "h":
        opts.help = True
    elif letter == "v":
        raise TrecEvalExit(f"trec_eval version {VERSION}\n", 0)
    elif letter == "q":
        opts.query = True
    elif letter == "m":
        opts.measures.append(value or "")
    elif letter == "c":
        opts.complete = True
    elif letter == "l":
        opts.level = atol(value or "")
    elif letter == "n":
        opts.summary = False
    elif letter == "D":
        level, dot, qid = (value or "").partition(".")
        opts.debug_level = atol(level)
        opts.debug_query = qid if dot else None
    elif letter == "J":
        opts.judged_only = True
    elif letter == "N":
        opts.num_docs_in_coll = atol(value or "")
    elif letter == "M":
        opts.max_per_topic = atol(value or "")
    elif letter == "R":
        opts.rel_format = value or ""
    elif letter == "T":
        opts.results_format = value or ""
    elif letter == "Z":
        opts.zscores = value
    # "o": trec_eval's obsolete old-format flag, accepted and ignored


# ------------------------------------------------------------------ measures ----

_CUTS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)
_TENTHS = tuple(x / 10 for x in range(11))
_MULTS = tuple(x / 10 for x in range(2, 21, 2))


@dataclass(frozen=True)
class TrecMeasure:
    """One row of trec_eval's measure table: its name, how its parameters read, and what rel format it needs.

    kind: ``plain`` (no parameters, the label is the name), ``cut_long`` (integer cut-offs, a label
    ``name_k`` each, default DEFAULT), ``cut_double`` (cut-offs as numbers, labels ``name_%.2f``),
    ``param`` (one value whose label is ``name_PARAMS`` when parameters are given), ``pairs`` (the
    same with ``key=value`` pairs), ``special`` (runid, num_q).
    """

    name: str
    kind: str = "plain"
    default: tuple = ()
    source: str = "qrels"  # the rel format its values come from: qrels, prefs, qrels_jg


#: trec_eval 10.0's measures, in the order it computes and prints them.
CATALOGUE: tuple[TrecMeasure, ...] = (
    TrecMeasure("runid", "special", source="any"),
    TrecMeasure("num_q", "special", source="any"),
    TrecMeasure("num_ret"), TrecMeasure("num_rel"), TrecMeasure("num_rel_ret"),
    TrecMeasure("map"), TrecMeasure("gm_map"), TrecMeasure("Rprec"), TrecMeasure("bpref"),
    TrecMeasure("recip_rank"),
    TrecMeasure("iprec_at_recall", "cut_double", _TENTHS),
    TrecMeasure("P", "cut_long", _CUTS),
    TrecMeasure("relstring", "param"),
    TrecMeasure("recall", "cut_long", _CUTS),
    TrecMeasure("infAP"), TrecMeasure("gm_bpref"),
    TrecMeasure("Rprec_mult", "cut_double", _MULTS),
    TrecMeasure("utility", "param"),
    TrecMeasure("11pt_avg", "param"),
    TrecMeasure("binG"), TrecMeasure("G", "pairs"),
    TrecMeasure("dcg", "pairs"), TrecMeasure("ideal_dcg", "pairs"),
    TrecMeasure("ndcg", "pairs"), TrecMeasure("ndcg_rel", "pairs"), TrecMeasure("Rndcg", "pairs"),
    TrecMeasure("ndcg_cut", "cut_long", _CUTS),
    TrecMeasure("map_cut", "cut_long", _CUTS),
    TrecMeasure("relative_P", "cut_long", _CUTS),
    TrecMeasure("success", "cut_long", (1, 5, 10)),
    TrecMeasure("set_P"), TrecMeasure("set_relative_P"), TrecMeasure("set_recall"), TrecMeasure("set_map"),
    TrecMeasure("set_F", "param"),
    TrecMeasure("num_nonrel_judged_ret"),
    *(TrecMeasure(n, source="prefs") for n in (
        "prefs_num_prefs_poss", "prefs_num_prefs_ful", "prefs_num_prefs_ful_ret", "prefs_simp", "prefs_pair",
        "prefs_avgjg", "prefs_avgjg_Rnonrel", "prefs_simp_ret", "prefs_pair_ret", "prefs_avgjg_ret",
        "prefs_avgjg_Rnonrel_ret", "prefs_simp_imp", "prefs_pair_imp", "prefs_avgjg_imp")),
    TrecMeasure("map_avgjg", source="qrels_jg"),
    TrecMeasure("P_avgjg", "cut_long", _CUTS, source="qrels_jg"),
    TrecMeasure("Rprec_mult_avgjg", "cut_double", _MULTS, source="qrels_jg"),
    TrecMeasure("yaap"),
    TrecMeasure("rbp", "pairs"),
    TrecMeasure("rbp_resid", "pairs"),
    TrecMeasure("unj", "cut_long", (5, 10, 20)),
)
BY_NAME = {m.name: m for m in CATALOGUE}

_PREFS_ALL = ("prefs_num_prefs_poss", "prefs_num_prefs_ful", "prefs_num_prefs_ful_ret", "prefs_simp",
              "prefs_pair", "prefs_avgjg", "prefs_avgjg_Rnonrel", "prefs_simp_ret", "prefs_pair_ret",
              "prefs_avgjg_ret", "prefs_avgjg_Rnonrel_ret", "prefs_simp_imp", "prefs_pair_imp", "prefs_avgjg_imp")
_OFFICIAL = ("runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec", "bpref",
             "recip_rank", "iprec_at_recall", "P")
#: trec_eval's measure nicknames.
NICKNAMES: dict[str, tuple[str, ...]] = {
    "official": _OFFICIAL,
    "set": ("runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "utility", "set_P", "set_recall",
            "set_relative_P", "set_map", "set_F"),
    "all_trec": _OFFICIAL + ("relstring", "recall", "infAP", "gm_bpref", "utility", "11pt_avg", "ndcg",
                             "relative_P", "Rprec_mult", "success", "map_cut", "ndcg_cut", "ndcg_rel", "Rndcg",
                             "binG", "G", "set_P", "set_recall", "set_relative_P", "set_map", "set_F",
                             "num_nonrel_judged_ret", "rbp", "rbp_resid", "unj"),
    "all_prefs": ("runid", "num_q") + _PREFS_ALL,
    "prefs": ("runid", "num_q") + _PREFS_ALL[:6],
    "qrels_jg": ("runid", "num_q", "map_avgjg", "P_avgjg", "Rprec_mult_avgjg"),
}


@dataclass(frozen=True)
class Selected:
    """A measure to compute: its catalogue row and the labels it prints (with their cut-off values)."""

    measure: TrecMeasure
    labels: tuple[str, ...]
    cutoffs: tuple = ()


def _cannot_init(name: str, why: str) -> TrecEvalExit:
    return TrecEvalExit(f"trec_eval: {why}\ntrec_eval: Cannot initialize measure '{name}'\n", 2)


def _cut_long(name: str, params: str) -> tuple[int, ...]:
    cuts = sorted(atol(p) for p in params.split(","))
    if cuts[0] <= 0:
        raise _cannot_init(name, "Negative cutoff detected")
    if any(a == b for a, b in zip(cuts, cuts[1:])):
        raise _cannot_init(name, "duplicate cutoffs detected")
    return tuple(cuts)


def _cut_double(name: str, params: str) -> tuple[float, ...]:
    cuts = sorted(atof(p) for p in params.split(","))
    if any(a == b for a, b in zip(cuts, cuts[1:])):
        raise _cannot_init(name, "duplicate cutoffs detected")
    return tuple(cuts)


def _check_pairs(name: str, params: str) -> None:
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
        raise _cannot_init(name, f"malformed pair parameters in '{params}'")


def mark_measures(args: list[str]) -> tuple[set[str], dict[str, str]]:
    """The measure names that ``-m`` ARGS mark and each one's parameters (first given wins).

    TrecEvalExit (status 1) for an unknown name or an empty parameter list.
    """
    marked: set[str] = set()
    params: dict[str, str] = {}
    for arg in args or ["official"]:
        name, dot, par = arg.partition(".")
        if dot:
            if not par:
                raise TrecEvalExit(f"trec_eval: improper measure in parameter '{name}'\n"
                                   f"trec_eval: illegal measure '{name}'\n", 1)
            params.setdefault(name, par)
        names = NICKNAMES.get(name, (name,))
        for n in names:
            if n not in BY_NAME:
                raise TrecEvalExit(f"trec_eval: illegal measure '{name}'\n", 1)
            marked.add(n)
    return marked, params


def select_measures(args: list[str]) -> list[Selected]:
    """The measures ``-m`` ARGS ask for (the official set without any), in trec_eval's order, with labels.

    A bad parameter list raises TrecEvalExit with status 2 (trec_eval's "Cannot initialize measure").
    """
    marked, params = mark_measures(args)
    out = []
    for m in CATALOGUE:
        if m.name not in marked:
            continue
        par = params.get(m.name)
        if m.kind == "cut_long":
            cuts = _cut_long(m.name, par) if par is not None else m.default
            out.append(Selected(m, tuple(f"{m.name}_{k}" for k in cuts), cuts))
        elif m.kind == "cut_double":
            cuts = _cut_double(m.name, par) if par is not None else m.default
            out.append(Selected(m, tuple(f"{m.name}_{x:3.2f}" for x in cuts), cuts))
        elif m.kind in ("param", "pairs"):
            if par is not None and m.kind == "pairs":
                _check_pairs(m.name, par)
            out.append(Selected(m, (m.name if par is None else f"{m.name}_{par}",)))
        else:
            out.append(Selected(m, (m.name,)))
    return out
