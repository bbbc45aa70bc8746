"""The measure registry: what every METRICS name computes, declared by the families themselves.

A measure family is one module of :mod:`inexeval.measures`: its numeric
kernels and, at the end, the :func:`register` calls that declare its
measures (docs/adding-a-measure.md).  This module imports every module of the
package on first use, so a new family module registers itself; the scorer,
the writers and the graphs work only from the declarations (a strategy of
:data:`STRATEGY_FAMILIES` loads only the modules named there):

- ``outputs(params)``: every output name, in order, and ``scalars(params)``
  the ones tables print; ``curves(params)``: the :class:`Curve` values drawn,
  with their axis labels;
- ``bounded``: every output lies in [0, 1] (checked by the property suite);
- ``nan_is_value``: a value may be NaN (a ratio over nothing, e.g. recall
  on a topic with nothing relevant) and is then a value like any other:
  averaged (the average is NaN), never undefined — inex_eval's rule
  (docs/fol.md §3); otherwise values are finite and a topic without a value
  is None (undefined, left out of the averages);
- ``ideal_one(params)``: the outputs that are 1 on every topic for the
  ideal run of the measure's tasks (checked by the property suite): the
  relevant results in the ideal order of the quantised recall-base (full
  or ideal, by OVERLAP), articles by decreasing gain for FetchBrowse, each
  relevant article's highlighted text for Relevant in Context, each best
  entry point for Best in Context, the relevant documents by decreasing
  relevance for ``trec``;
- ``aggregate``: how an output is averaged over topics (``mean``, ``sum``,
  ``gmean``; docs/measures.md §10), or ``run``: the run-level measure
  (``compute_all``) supplies the run's value itself, in
  :attr:`RunInput.averages`, for averages no rule over the counted topics
  gives (inex_eval's counts over every qrels topic, docs/fol.md §3);
- ``prepare``: what must be built per topic before any run is scored (and
  before workers fork, so that they share it);
- ``compute(TopicInput)``: one topic's values (None: undefined for the topic),
  or ``compute_all(RunInput, topics)`` for families whose kernels score every
  topic of a run at once (the classic measures).

Families whose names are patterns (``P_10``, ``nDCG_JK@10(b=3)``) register a
*resolver* that builds the measure from the name.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any, Callable, Sequence

from inexeval.records import FrozenInstanceError, field, record

if TYPE_CHECKING:
    from inexeval.model import TopicAssessment

#: Aggregations over topics (docs/measures.md §10); ``run``: the value is the run-level measure's own
#: (:attr:`RunInput.averages`), not computed from the per-topic values.
AGGREGATIONS = ("mean", "sum", "gmean", "run")


@record(frozen=True)
class Setting:
    """One evaluation setting: quantisation and overlap (None where the task has none)."""

    quant: str | None
    overlap: str | None
    alpha: float

    @property
    def name(self) -> str:
        return f"{self.quant}_{self.overlap}" if self.quant else "default"


def _param_defaults() -> dict[str, object]:
    """The attributes of :class:`Params` and their defaults: the key table's keys marked ``param``
    (:data:`inexeval.config.schema.PARAM_DEFAULTS`).  Imported on first use, not with this module:
    the trec_eval drop-in loads the registry for the classic measures and builds no Params, so it
    loads no key table."""
    from inexeval.config.schema import PARAM_DEFAULTS

    return PARAM_DEFAULTS


class Params:
    """Measure parameters taken from the config (docs/config.md): a frozen view of the config keys
    the measures read.

    The attributes are not listed here: they are the keys of the key table
    (:data:`inexeval.config.schema.SCHEMA`) whose row says ``param=True``,
    each named like its Config field (``p.dcv``, ``p.max_results``,
    ``p.q_beta``, ``p.bep_a``, ``p.gains``, ``p.answer_match``, ...), with the
    key's default (a per-task default: the task table's own, ``DEFAULT_DCV``
    and ``DEFAULT_MAX_RESULTS``).  :func:`inexeval.plan.params_of` fills
    every one of them from a Config.  So a family that needs a new key adds
    its row to the key table, with ``param=True``, names the key in its
    measures' ``params`` and reads ``p.<field>``: neither this class nor
    ``params_of`` changes.

    ``Params(dcv=(10,), max_results=100)`` takes keyword arguments only, each
    an attribute; those not given keep their default, an unknown one is a
    TypeError.  Like a frozen record (:mod:`inexeval.records`), a Params cannot be
    changed, and two are equal (and hash alike) when their values are.
    """

    def __init__(self, **values: Any):
        defaults = _param_defaults()
        for name in values:
            if name not in defaults:
                raise TypeError(f"Params.__init__() got an unexpected keyword argument {name!r}")
        for name, default in defaults.items():
            object.__setattr__(self, name, values.get(name, default))

    def __setattr__(self, name: str, value: Any) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return vars(self) == vars(other)

    def __hash__(self) -> int:
        return hash(tuple(vars(self).items()))

    def __repr__(self) -> str:
        return f"Params({', '.join(f'{name}={value!r}' for name, value in vars(self).items())})"


@record(frozen=True)
class Curve:
    """A curve a measure draws: its output names at x values, and the axes of its graph."""

    title: str
    names: list[str]
    xs: list[float]
    xlabel: str
    ylabel: str
    xscale: str = "linear"  # or "log"


class TopicContext:
    """One recall-base topic and what measures prepared for it (shared by runs and settings)."""

    __slots__ = ("assessment", "prepared", "topic")

    def __init__(self, topic: str, assessment: Any):
        self.topic = topic
        self.assessment = assessment  # TopicAssessment for INEX tasks
        self.prepared: dict[Any, Any] = {}  # memo of the families' prepared structures

    def memo(self, key: Any, build: Callable[[], Any]) -> Any:
        """``prepared[key]``, built by ``build()`` the first time."""
        try:
            return self.prepared[key]
        except KeyError:
            value = self.prepared[key] = build()
            return value


@record
class TopicInput:
    """What a per-topic measure sees for one (run, topic, setting).

    ``memo`` is shared by the measures of one (run, topic, setting), so that
    e.g. the XCG gain vectors are computed once for nxCG, ep/gr and Q;
    ``run_memo`` is shared by the settings of one (run, topic).
    """

    context: TopicContext
    ranking: Sequence[Any]  # the run's results for the topic, rank order (unit keys)
    setting: Setting
    params: Params
    collection: Any = None  # readers.collection.Collection, or one that explains it is missing
    warn: Callable[[str], None] = lambda msg: None
    memo: dict = field(default_factory=dict)
    run_memo: dict = field(default_factory=dict)

    @property
    def topic(self) -> TopicAssessment:
        return self.context.assessment


@record
class RunInput:
    """What a run-level measure (``compute_all``) sees: the run as read, and a memo shared by
    the measures of one (run, setting).

    ``empty_as_zero`` is ``-e`` (every recall-base topic counted).  A measure
    whose outputs aggregate as ``run`` puts the run's value of each of them
    in ``averages`` (an output it leaves out averages to None).
    """

    run: Any
    setting: Setting
    params: Params
    recall_base: Any
    warn: Callable[[str], None] = lambda msg: None
    memo: dict = field(default_factory=dict)
    empty_as_zero: bool = False
    averages: dict[str, float | None] = field(default_factory=dict)
    measures: tuple[str, ...] = ()  # the names of every measure scored in this (run, setting)


def _mean(name: str) -> str:
    return "mean"


@record(frozen=True)
class Measure:
    """A measure as its family declares it (:func:`register`; the module notes say what each field
    means): its name in METRICS, the strategies (tasks) it serves, its outputs and how each is computed,
    averaged and printed."""

    name: str  # as written in METRICS (lower case), or canonical for resolved names
    strategies: frozenset[str]
    description: str
    params: tuple[str, ...]  # config keys it reads
    outputs: Callable[[Params], list[str]]  # every output name, in order
    scalars: Callable[[Params], list[str]]  # the ones printed in tables (no curve points)
    compute: Callable[[TopicInput], dict[str, float] | None] | None = None  # None: undefined for the topic
    aliases: tuple[str, ...] = ()
    curves: Callable[[Params], list[Curve]] = lambda p: []
    bounded: bool = True  # every output in [0, 1]
    ideal_one: Callable[[Params], list[str]] = lambda p: []  # outputs that are 1 for the ideal run
    aggregate: Callable[[str], str] = _mean  # output name -> one of AGGREGATIONS ("run": compute_all only)
    #: per-topic preparation, run once per (topic, setting) before any run is scored
    prepare: Callable[[TopicContext, Setting, Params], None] | None = None
    #: run-level scoring: (RunInput, counted topics) -> per-topic values (None: undefined)
    compute_all: Callable[[RunInput, list[str]], list[dict[str, float] | None]] | None = None
    #: False for measures that read only what ``prepare`` built, not the assessment objects:
    #: those are then released once every topic is prepared (memory)
    needs_assessments: bool = True
    integer: bool = False  # outputs are counts (printed as integers in trec_eval's format)
    nan_is_value: bool = False  # a value may be NaN, averaged as a value (inex_eval, docs/fol.md §3)
    per_topic_reported: bool = True  # False: trec_eval's -q does not print it per topic (gm_map)
    #: output name -> whether it is a count, printed as an integer (None: ``integer`` for every output)
    counts: Callable[[str], bool] | None = None
    #: output name -> whether a smaller value is better (E@k = 1 - F@k); otherwise a larger one is
    lower_is_better: Callable[[str], bool] = lambda n: False
    #: output name -> whether runs are ranked on it (not on counts such as num_rel, a property of the topics)
    ranks_runs: Callable[[str], bool] = lambda n: True
    #: the outputs an organiser reads first, in order (compare's default tested measure is the first)
    headline: tuple[str, ...] = ()
    #: output name -> whether its average is the arithmetic mean of its per-topic values, so that a
    #: confidence interval applies (docs/measures.md §12.1); None: when it is aggregated as "mean"
    topic_mean: Callable[[str], bool] | None = None

    def topic_mean_of(self, name: str) -> bool:
        """Whether the average of output NAME is the mean of its per-topic values (intervals apply)."""
        return self.topic_mean(name) if self.topic_mean is not None else self.aggregate(name) == "mean"

    def is_count(self, name: str) -> bool:
        """Whether the output NAME is a count (printed as an integer)."""
        return self.counts(name) if self.counts is not None else self.integer

    def __post_init__(self):
        if (self.compute is None) == (self.compute_all is None):
            raise TypeError(f"measure {self.name}: give exactly one of compute and compute_all")


REGISTRY: list[Measure] = []
#: strategy -> functions building a measure from a name pattern (or None)
RESOLVERS: dict[str, list[Callable[[str], Measure | None]]] = {}
#: strategy -> the METRICS used when a config of a task with no default METRICS gives none
DEFAULT_SETS: dict[str, Callable[[], list[str]]] = {}
_loaded = False

#: strategy -> the family modules that register every measure, resolver and default set of the
#: strategy: a config of such a task imports only these (a FOL task: fol_family, not the classic
#: measures, XCG, ...), the other families when another strategy or every measure is asked for.
#: tests/test_registry_families.py checks, in fresh interpreters, that these modules alone give the
#: strategy's measures, and that loading everything afterwards gives the same registry as at once.
STRATEGY_FAMILIES: dict[str, tuple[str, ...]] = {
    s: ("fol_family",) for s in ("fol-thorough", "fol-focused", "fol-relevantincontext", "fol-bestincontext",
                                 "fol-t2i")}
#: the family modules imported so far, by name; the rank (in the order :func:`load_families` imports
#: them) of the module being imported by :func:`_import_family`, None outside one
_imported: set[str] = set()
_importing: int | None = None
#: the rank of each entry of REGISTRY and of each strategy's RESOLVERS, where it came from: so that
#: loading some families first and the rest later leaves them in the order of one whole load
_RANKS: list[int] = []
_RESOLVER_RANKS: dict[str, list[int]] = {}


def register(m: Measure) -> Measure:
    """Declare a measure (called by family modules at import)."""
    REGISTRY.append(m)
    _RANKS.append(_rank())
    return m


def register_resolver(strategy: str, resolve: Callable[[str], Measure | None],
                      default_set: Callable[[], list[str]] | None = None) -> None:
    """Declare a family whose measure names are patterns (e.g. ``P_10``) for ``strategy``."""
    RESOLVERS.setdefault(strategy, []).append(resolve)
    _RESOLVER_RANKS.setdefault(strategy, []).append(_rank())
    if default_set is not None:
        DEFAULT_SETS[strategy] = default_set


def _rank() -> int:
    """The rank of what registers now: the family module being imported; outside the loads (a module
    imported some other way first) before every family, where a whole load leaves it too."""
    return _importing if _importing is not None else -1


def _family_modules() -> list[str]:
    """The family modules of :mod:`inexeval.measures`, in the order a whole load imports them."""
    import pkgutil

    package = importlib.import_module(__name__.rpartition(".")[0])  # the package, not inexeval.measures()
    return [info.name for info in pkgutil.iter_modules(package.__path__) if info.name != "registry"]


def _import_family(name: str, rank: int) -> None:
    """Import the family module NAME (its registrations ranked RANK), once."""
    global _importing
    if name in _imported:
        return
    _imported.add(name)
    outer, _importing = _importing, rank
    try:
        importlib.import_module(f"{__name__.rpartition('.')[0]}.{name}")
    finally:
        _importing = outer


def load_families(strategy: str | None = None) -> None:
    """Import every module of :mod:`inexeval.measures` once, so that each registers its measures;
    with ``strategy`` one of :data:`STRATEGY_FAMILIES`, only the modules that register its measures."""
    global _loaded
    if _loaded:
        return
    if strategy in STRATEGY_FAMILIES:
        wanted = STRATEGY_FAMILIES[strategy]
        if not all(name in _imported for name in wanted):
            for rank, name in enumerate(_family_modules()):
                if name in wanted:
                    _import_family(name, rank)
        return
    _loaded = True
    partial = bool(_imported)
    for rank, name in enumerate(_family_modules()):
        _import_family(name, rank)
    if partial:  # some families were loaded before the others: put every entry in whole-load order
        _reorder()


def _reorder() -> None:
    """REGISTRY and every strategy's RESOLVERS sorted (stably) by the rank of their family module."""
    order = sorted(range(len(REGISTRY)), key=_RANKS.__getitem__)
    REGISTRY[:] = [REGISTRY[i] for i in order]
    _RANKS[:] = [_RANKS[i] for i in order]
    for strategy, found in RESOLVERS.items():
        ranks = _RESOLVER_RANKS[strategy]
        order = sorted(range(len(found)), key=ranks.__getitem__)
        found[:] = [found[i] for i in order]
        ranks[:] = [ranks[i] for i in order]


def measures() -> list[Measure]:
    """Every registered (named) measure."""
    load_families()
    return list(REGISTRY)


def find(name: str, strategy: str) -> Measure | None:
    """The measure called ``name`` (case-insensitive) for a task of ``strategy``, or None."""
    load_families(strategy)
    key = name.lower()
    for m in REGISTRY:
        if strategy in m.strategies and (m.name == key or key in m.aliases):
            return m
    for resolve in RESOLVERS.get(strategy, ()):
        m = resolve(name)
        if m is not None:
            return m
    return None


def names_for(strategy: str) -> list[str]:
    load_families(strategy)
    return [m.name for m in REGISTRY if strategy in m.strategies]


@record(frozen=True)
class OutputFacts:
    """What the measures declare about one output: direction, whether runs are ranked on it, a count."""

    lower_is_better: bool = False
    ranks_runs: bool = True
    count: bool = False


def output_facts(measures: Sequence[Measure], params: Params) -> dict[str, OutputFacts]:
    """Every output of MEASURES (under PARAMS) -> its declared facts."""
    out: dict[str, OutputFacts] = {}
    for m in measures:
        for n in m.outputs(params):
            out[n] = OutputFacts(m.lower_is_better(n), m.ranks_runs(n), m.is_count(n))
    return out


def default_metrics(strategy: str) -> list[str]:
    """The measure names evaluated for ``strategy`` when neither METRICS nor the task row names any."""
    load_families(strategy)
    make = DEFAULT_SETS.get(strategy)
    return make() if make is not None else []
