"""trec_eval 10.0's command line for ``inexeval trec-eval`` (docs/trec-eval.md §1, §2).

Two parts:

- :func:`parse_args`: GNU ``getopt_long`` as trec_eval uses it (short options
  ``hvqm:cl:nD:JN:M:R:T:oZ:``, values attached or separate, flags grouped,
  long options with ``=`` or a separate value and unambiguous prefixes,
  operands anywhere, ``--`` ends the options);
- :func:`select_measures`: ``-m name[.params]`` and the nicknames (``official``,
  ``all_trec``, ``set``, ``all_prefs``, ``prefs``, ``qrels_jg``) turned into the
  printed labels, in trec_eval's measure order, with each measure's parameters
  (the first ``-m`` of a measure that carries parameters wins); the measures, their
  order, parameters and sets are trec_eval's catalogue
  (:mod:`inexeval.measures.trec_catalogue`).

Errors are :class:`TrecEvalExit` carrying trec_eval's message and exit status.
"""

from __future__ import annotations

from inexeval.measures.classic_base import glibc_msort
from inexeval.measures.trec_catalogue import BY_NAME, CATALOGUE, NICKNAMES, TrecMeasure, measure_labels
from inexeval.readers.trec_numbers import atof, atol
from inexeval.records import field, record

__all__ = ["VERSION", "USAGE", "NUMBERS_OF", "TrecEvalExit", "Options", "parse_args", "atol", "atof", "Selected",
           "mark_measures", "select_measures"]

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

_SHORT = "hvqm:cl:nD:JN:M:R:T:oZ:C"
_LONG = {  # long name -> (short letter, takes a value)
    "help": ("h", False), "version": ("v", False), "query_eval_wanted": ("q", False),
    "measure": ("m", True), "complete_rel_info_wanted": ("c", False), "level_for_rel": ("l", True),
    "nosummary": ("n", False), "Debug_level": ("D", True), "Judged_docs_only": ("J", False),
    "Number_docs_in_coll": ("N", True), "Max_retrieved_per_topic": ("M", True),
    "Rel_info_format": ("R", True), "Results_format": ("T", True), "Output_old_results_format": ("o", True),
    "Zscore": ("Z", True),
    "trec-eval-version": ("", True),  # inexeval's own: 10.0 (default) or 9.0.8's numbers
    "ci": ("C", False),  # inexeval's own: a 95 % t interval after each mean (docs/measures.md §12.1)
}
#: inexeval's own long options: matched whole, so that trec_eval's abbreviations (--c) keep their meaning
_OWN_LONG = frozenset({"ci"})
#: The trec_eval versions whose numbers --trec-eval-version gives (docs/measures.md §8.4).
NUMBERS_OF = ("10.0", "9.0.8")


def _takes_value(letter: str) -> bool | None:
    i = _SHORT.find(letter)
    if i < 0 or letter == ":":
        return None
    return _SHORT[i + 1 : i + 2] == ":"


@record
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
    ci: bool = False  # -C, --ci (inexeval's own): each mean's 95 % t interval after its summary line
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
            matches = exact or [n for n in _LONG if n.startswith(name) and n not in _OWN_LONG]
            # (glibc's getopt words these with the whole argument, any "=value" included, and lists
            # the options an abbreviation could be, in trec_eval's order of them)
            if not matches:
                raise TrecEvalExit(f"trec_eval: unrecognized option '{arg}'\n" + USAGE, 1)
            if len(matches) > 1:
                could = "".join(f" '--{n}'" for n in matches)
                raise TrecEvalExit(f"trec_eval: option '{arg}' is ambiguous; possibilities:{could}\n" + USAGE, 1)
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
    elif letter == "C":
        opts.ci = True
    # "o": trec_eval's obsolete old-format flag, accepted and ignored


# ------------------------------------------------------------------ measures ----


@record(frozen=True)
class Selected:
    """A measure to compute: its catalogue row and the labels it prints (with their cut-off values)."""

    measure: TrecMeasure
    labels: tuple[str, ...]
    cutoffs: tuple = ()


def _cannot_init(name: str, why: str) -> TrecEvalExit:
    return TrecEvalExit(f"trec_eval: {why}\ntrec_eval: Cannot initialize measure '{name}'\n", 2)


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
        if name in NICKNAMES:
            marked.update(NICKNAMES[name])
        elif name in BY_NAME:
            marked.add(name)
        else:
            raise TrecEvalExit(f"trec_eval: illegal measure '{name}'\n", 1)
    return marked, params


def select_measures(args: list[str]) -> list[Selected]:
    """The measures ``-m`` ARGS ask for (the official set without any), in trec_eval's order, with labels.

    A bad parameter list raises TrecEvalExit with status 2 (trec_eval's "Cannot initialize measure").
    """
    marked, params = mark_measures(args)
    out = []
    for m in CATALOGUE:
        if m.name in marked:
            try:
                labels, cutoffs = _labels(m, params.get(m.name))
            except ValueError as e:
                raise _cannot_init(m.name, str(e)) from None
            out.append(Selected(m, labels, cutoffs))
    return out


def _labels(m: TrecMeasure, params: str | None) -> tuple[tuple[str, ...], tuple]:
    """The labels and cut-offs of ``-m name.PARAMS`` for M, as trec_eval 10.0 makes them (``meas_init.c``).

    Cut-offs are read with C's ``atol``/``atof`` (:mod:`inexeval.readers.trec_numbers`: ``0x1p-1`` is
    0.5, ``١`` is 0).  Integer cut-offs are sorted by value and must be > 0 and distinct.  Fractions
    are sorted as glibc's ``qsort`` sorts them with trec_eval's ``comp_double`` (a merge sort, in
    which NaN compares equal to everything), must be distinct, and are labelled ``name_%3.2f`` cut to
    the 9 characters trec_eval allots after the name (``append_double``: ``iprec_at_recall.1e10``
    prints ``iprec_at_recall_10000000``).  ValueError with trec_eval's complaint."""
    if params is None or m.kind not in ("cut_long", "cut_double"):
        return measure_labels(m, params)
    if m.kind == "cut_long":
        cuts = sorted(atol(p) for p in params.split(","))
        if cuts[0] <= 0:
            raise ValueError("Negative cutoff detected")
        if any(a == b for a, b in zip(cuts, cuts[1:])):
            raise ValueError("duplicate cutoffs detected")
        return tuple(f"{m.name}_{k}" for k in cuts), tuple(cuts)
    xs = glibc_msort([atof(p) for p in params.split(",")], _comp_double)
    if any(a == b for a, b in zip(xs, xs[1:])):
        raise ValueError("duplicate cutoffs detected")
    return tuple(f"{m.name}_{_c_fixed2(x)}"[:len(m.name) + 9] for x in xs), tuple(xs)


def _comp_double(a: float, b: float) -> int:
    return -1 if a < b else (1 if a > b else 0)


def _c_fixed2(x: float) -> str:
    """C's ``%3.2f`` of X (a NaN with its sign bit set prints ``-nan``)."""
    import math

    if x != x:
        return "-nan" if math.copysign(1.0, x) < 0 else "nan"
    return "%3.2f" % x
