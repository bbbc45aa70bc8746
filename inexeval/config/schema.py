"""The configuration keys: the key table and the Config it fills (docs/config.md).

The keys are one table, :data:`SCHEMA`: each :class:`Key` row gives the
key's name, aliases, the :class:`Config` field it fills, its parser (from
:mod:`inexeval.config.values`), its default and its documentation.
:data:`KEYS`, :data:`KEY_ALIASES`, :data:`REQUIRED_KEYS` and docs/config.md
(``python -m inexeval.devtools.configdoc``) are derived from it; OVERLAP,
METRICS, DCV and MAX_RESULTS default per task, from the task table
(:mod:`inexeval.tasks`).

The keys the measures read are marked ``param=True`` in their row: they are
the attributes of :class:`inexeval.measures.registry.Params`, named like
their Config field, with the defaults of :data:`PARAM_DEFAULTS`, and
:func:`inexeval.plan.params_of` copies them from a Config.  A measure
family that needs a new key adds its row here (and its Config field), with
``param=True``, and names the key in its measures' ``params``: neither
Params nor params_of lists the keys.

This module knows no syntax (:mod:`inexeval.config.syntax` reads files into
entries) and checks nothing itself (:mod:`inexeval.config.load` runs the
parsers and the checks between keys).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from inexeval.config.values import (
    MAX_RANK,
    InputFile,
    Parser,
    default_results_dir,
    parse_alpha,
    parse_answer_match,
    parse_avg_doc_length,
    parse_bep_a,
    parse_bep_distance,
    parse_collection_dir,
    parse_dcv,
    parse_f_beta,
    parse_gains,
    parse_id_set,
    parse_input_files,
    parse_max_results,
    parse_metrics,
    parse_overlap,
    parse_q_beta,
    parse_quant,
    parse_rel_level,
    parse_results_dir,
    parse_t2i_tolerance,
    parse_task,
    parse_headline,
    parse_text,
    parse_title,
    parse_trec_eval_version,
)
from inexeval.records import fields, record
from inexeval.tasks import TASKS, Task

__all__ = ["Config", "InputFile", "Key", "Computed", "PER_TASK", "SCHEMA", "KEY_TABLE", "KEYS", "KEY_ALIASES",
           "REQUIRED_KEYS", "PARAM_DEFAULTS", "BOOKKEEPING_FIELDS", "OVERRIDE_SOURCE", "value_as_written"]


@record(frozen=True)
class Config:
    """A checked configuration.  Every field but the bookkeeping ones
    (:data:`BOOKKEEPING_FIELDS`) is filled by one key of :data:`SCHEMA`, which
    also holds the defaults."""

    task: str  # canonical name from the task table (e.g. "CO.Focussed")
    strategy: str  # the task's strategy (inexeval.tasks)
    metrics: tuple[str, ...]  # lower-cased items of METRICS, or the task default
    alpha: float
    overlap: tuple[str, ...]  # "on"/"off" in the order given; () for tasks without OVERLAP
    quant_functions: tuple[str, ...]  # "strict" | "gen" | "genLifted", order given
    dcv: tuple[int, ...]
    assessments: tuple[InputFile, ...]  # every file matched by ASSESSMENTS_DIR
    runs: tuple[InputFile, ...]  # every file matched by SUBMISSIONRUNS_DIR
    results_dir: Path
    query_type: str | None
    pools: frozenset[str] | None
    topics: frozenset[str] | None
    collection_dir: Path | None
    max_results: int | None  # None: every result kept (the task's default)
    bep_a: tuple[str, ...]  # as written, trimmed
    avg_doc_length: float | None
    q_beta: float
    rel_level: int
    gains: tuple[tuple[int | str, float], ...] | None  # GAINS: level (trec: integer; qa: S/A/B) -> gain
    trec_eval_version: str  # TREC_EVAL_VERSION: "10.0" or "9.0.8"
    f_beta: float  # F_BETA (FOL Relevant in Context)
    bep_distance: int  # BEP_DISTANCE (FOL Best in Context)
    t2i_tolerance: int  # T2I_TOLERANCE (FOL T2I)
    answer_match: str  # ANSWER_MATCH (qa): "exact" | "normalised"
    headline: tuple[str, ...] | None  # HEADLINE: the outputs shown first (None: the task's)
    title: str | None  # TITLE: the track's name on the report's index
    description: str | None  # DESCRIPTION: a paragraph under the title on the report's index
    source: Path | None = None  # the config file (None for a dict)
    key_lines: tuple[tuple[str, int], ...] = ()  # (KEY, line) where each key was set, for messages
    overridden: tuple[str, ...] = ()  # KEYs whose value came from --set (not in key_lines)
    notes: tuple[str, ...] = ()  # warnings of the loader (repeated METRICS names), evaluation prints them

    @property
    def task_def(self) -> Task:
        """The task table row of TASK."""
        return TASKS[self.task]

    def line_of(self, key: str) -> int | None:
        """The line of the config file where KEY was set (None if defaulted)."""
        return dict(self.key_lines).get(key.upper())

    def origin(self, key: str) -> tuple[str | None, int | None]:
        """(file, line) to name in a message about KEY: ``("--set", None)`` when overridden."""
        key = key.upper()
        if key in self.overridden:
            return OVERRIDE_SOURCE, None
        return (None if self.source is None else str(self.source)), self.line_of(key)


#: Config fields that no key fills: the task's strategy and where the keys came from.
BOOKKEEPING_FIELDS = ("strategy", "source", "key_lines", "overridden", "notes")
#: Where a value given by ``--set`` comes from, in messages.
OVERRIDE_SOURCE = "--set"


# --------------------------------------------------------------------------
# The key table


class _PerTask:
    """The type of PER_TASK (one instance, compared with ``is``)."""

    def __repr__(self) -> str:
        return "PER_TASK"


#: A default taken from the task table: the Task attribute named like the Config field.
PER_TASK = _PerTask()


def value_as_written(value: object) -> str:
    """A key's value (a default, say) as written in a config file: items joined by ``, ``, floats
    in their shortest form (``inexeval init``'s starter configs and docs/config.md)."""
    if isinstance(value, (tuple, list)):
        return ", ".join(value_as_written(v) for v in value)
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


@record(frozen=True)
class Computed:
    """A default computed from the base directory (the config file's, or a dict's ``base``)."""

    make: Callable[[Path], object]
    doc: str  # how docs/config.md states it


@record(frozen=True)
class Key:
    """One configuration key: what the loader and docs/config.md know about it."""

    name: str  # canonical, upper case
    field: str  # the Config field it fills
    parse: Parser  # (raw value, base directory) -> the field's value; raises Problem
    doc: str  # one line: what it means
    #: a value, PER_TASK, or a Computed; unused when required
    default: object = None
    required: bool = False
    aliases: tuple[str, ...] = ()  # old EvalJ names
    #: what a default of None or () means, in docs/config.md
    unset: str = "none"
    note: str = ""  # longer explanation for docs/config.md
    #: the measures read it: it is an attribute of :class:`inexeval.measures.registry.Params`, named
    #: like ``field``, that :func:`inexeval.plan.params_of` copies from the Config (ALPHA, OVERLAP
    #: and QUANT_FUNCTIONS reach the measures as their Setting, COLLECTION_DIR as the collection)
    param: bool = False

    def default_for(self, task: Task, base: Path) -> object:
        """The value of the key when the configuration does not set it."""
        if self.default is PER_TASK:
            return getattr(task, self.field)
        if isinstance(self.default, Computed):
            return self.default.make(base)
        return self.default


def _task_names() -> str:
    """The task names of the table, with their aliases, for the TASK note."""
    names = [f"`{t.name}`" + (f" (alias {', '.join(f'`{a}`' for a in t.aliases)})" if t.aliases else "")
             for t in TASKS.values()]
    return ", ".join(names)


#: Every key, in documentation order (docs/config.md is generated from this table).
SCHEMA: tuple[Key, ...] = (
    Key("TASK", "task", parse_task, required=True,
        doc="The evaluation task: which measures apply, which settings are evaluated and which checks "
            "a run must pass (docs/measures.md §3).",
        note=f"One of {_task_names()}. Names are case-insensitive, and `Focussed` and `Focused` are "
             "the same word."),
    Key("METRICS", "metrics", parse_metrics, default=PER_TASK, unset="trec_eval's standard set",
        doc="The measures to report: measure families or single measures of the task, as a list.",
        note="Names are case-insensitive and repeats are ignored. A family may be named by one of its "
             "measures (`MAep` selects `ep/gr`); the whole family is reported. `hixeval` can be added "
             "to every INEX task. A name the task does not know is an error; `inexeval metrics` lists "
             "every name. For `trec` the names are the labels trec_eval prints (`map`, `P_10`, "
             "`ndcg_cut_10`, `utility_2,-1,0,0`, `ndcg_1=3,2=9`, ...; the commas of a label's parameters "
             "stay with it) and its extensions (docs/measures.md §8); without METRICS, `--format trec_eval` "
             "prints trec_eval's own default set (§8.5). Each FOL task has one "
             "family, every value inex_eval prints (docs/fol.md §3)."),
    Key("ALPHA", "alpha", parse_alpha, default=1.0,
        doc="Overlap intolerance α, a number in [0, 1]: with OVERLAP on, how much less a result "
            "earns for text that was already seen higher in the ranking (1: nothing again).",
        note="HiXEval uses α = ALPHA with OVERLAP on and α = 0 with OVERLAP off; for the tasks "
             "without OVERLAP (Relevant and Best in Context) it uses ALPHA (docs/measures.md §4.3, "
             "§5)."),
    Key("OVERLAP", "overlap", parse_overlap, default=PER_TASK,
        unset="none (the task has no OVERLAP; setting it is an error)",
        doc="`on`, `off`, or both: score against the ideal recall-base with overlapping results "
            "penalised (on), or against the full recall-base (off).",
        note="Case-insensitive; repeats are ignored. Each value is a separate setting: several "
             "OVERLAP and QUANT_FUNCTIONS values evaluate every combination, written under "
             "`<quant>_<overlap>` (`gen_on`)."),
    Key("QUANT_FUNCTIONS", "quant_functions", parse_quant, default=("gen",),
        doc="Quantisation functions `strict`, `gen`, `genLifted`: how exhaustivity and specificity "
            "become a gain (docs/measures.md §4.1).",
        note="Case-insensitive; each one is a separate setting. Only the XCG tasks use it ("
             f"{', '.join(f'`{t.name}`' for t in TASKS.values() if t.quantised)}); the others "
             "accept and ignore it. `strict` and `genLifted` need exhaustivity values, which INEX "
             "2006 assessments do not have."),
    Key("DCV", "dcv", parse_dcv, param=True, default=PER_TASK,
        doc="Rank cut-offs k of the measures reported at a rank: nxCG@k, MAnxCG@k, HiXEval's "
            "P/R/F@k, gP@k and gR@k.",
        note=f"Positive integers up to {MAX_RANK:,}; repeats are ignored. `trec` does not use DCV "
             "(its cut-offs are trec_eval's, in the measure names), nor do the FOL tasks (gP[k] and "
             "gR[k] at inex_eval's k = 1, 2, 3, 5, 10, 25, 50)."),
    Key("ASSESSMENTS_DIR", "assessments", parse_input_files, required=True, aliases=("EXPANDED_FULLRB",),
        doc="The assessments: INEX XML assessment files (docs/formats.md §1.2), or the one qrels "
            "file of `trec` or of a FOL task (docs/fol.md §2).",
        note="A path value. When a topic has several assessment files, POOLS chooses one; without "
             "POOLS, the one under a directory named `main` below the value's root (for a glob, "
             "the directories before its first wildcard) is used."),
    Key("SUBMISSIONRUNS_DIR", "runs", parse_input_files, required=True,
        doc="The runs to evaluate: INEX XML submissions or text runs (docs/formats.md §1.3), TREC "
            "runs for `trec`, FOL runs (or element runs) for the FOL tasks (docs/fol.md §2); plain "
            "or gzip-compressed.",
        note="A path value; every file it names is read as a run."),
    Key("RESULTS_DIR", "results_dir", parse_results_dir,
        default=Computed(default_results_dir, "`results` in the config file's directory"),
        doc="Where the result files go: `RESULTS_DIR/<TASK>/<setting>/<run-id>.tsv` and the "
            "summaries (docs/formats.md §9.2).",
        note="One path, relative to the config file; it is created when needed. `--results-dir` "
             "replaces it, relative to the current directory."),
    Key("QUERY_TYPE", "query_type", parse_text, unset="none (every topic is kept)",
        doc="Keep only the topics whose assessment file gives this `inex_topic/@query_type` (e.g. "
            "`CO+S`).",
        note="Compared ignoring case, spaces and `+` (`CO+S` matches `COS`). A topic whose file "
             "gives no query type is kept, with a warning. An error for `trec` and the FOL tasks (their "
             "qrels have no query types)."),
    Key("POOLS", "pools", parse_id_set, unset="none (every pool)",
        doc="Pool ids to use: a topic's assessments are taken from a file of a listed pool.",
        note="Topics without a listed pool are left out, and listed pools without a file are "
             "reported, as warnings. An error for `trec` and the FOL tasks (one qrels file, no pools)."),
    Key("TOPICS", "topics", parse_id_set, unset="none (every topic of the assessments)",
        doc="Topic ids to evaluate; the other topics of the assessments are left out.",
        note="Applied before POOLS and QUERY_TYPE. For `trec` and the FOL tasks, the other topics "
             "of the qrels are left out before anything is computed. Ids that no assessment has are "
             "reported; TOPICS matching none is an error."),
    Key("COLLECTION_DIR", "collection_dir", parse_collection_dir, aliases=("INEXDOCCOLL_DIR",),
        doc="The documents (docs/formats.md §1.4): sizes of retrieved elements the assessments do "
            "not list, character offsets for Best in Context, and the passages of element runs "
            "evaluated by a FOL task (docs/fol.md §2).",
        note="One directory, which must exist. A file id is looked up as `<dir>/<id>.xml`, else by "
             "a unique suffix match. Needing a size or an offset without COLLECTION_DIR is an "
             "error that says so."),
    Key("MAX_RESULTS", "max_results", parse_max_results, param=True, default=PER_TASK,
        unset="none (every result is kept)",
        doc="Results counted per topic; the ones after them are dropped.",
        note=f"A positive integer up to {MAX_RANK:,}. In an INEX run the first results in file "
             "order count and the dropped ones are reported in a warning; the nxCG curve's ranks "
             "are ⌈p · MAX_RESULTS / 100⌉, p = 1 … 100. In a `trec` run the first results after "
             "ordering by score count, as with trec_eval's `-M`. The FOL tasks count every result, "
             "as inex_eval does: setting MAX_RESULTS for them is an error. For `qa` it is L′, the answers "
             "counted per question (default 5, as at NTCIR QAC), after ordering by rank."),
    Key("BEP_A", "bep_a", parse_bep_a, param=True, default=("0.01", "0.1", "1", "10", "100"),
        doc="The A values of BEPD and EPRUM (Best in Context): positive numbers.",
        note="Kept as written (trimmed), since they name the output columns: `BEP_A: 1.0` gives "
             "`BEPD(A=1.0)`."),
    Key("AVG_DOC_LENGTH", "avg_doc_length", parse_avg_doc_length, param=True,
        unset="the mean text length of the `.xml` documents under COLLECTION_DIR (hidden files "
              "skipped)",
        doc="L of BEPD and EPRUM (Best in Context): the average document length in characters, a "
            "positive number."),
    Key("Q_BETA", "q_beta", parse_q_beta, param=True, default=1.0, aliases=("BETA",),
        doc="β of the Q-measure and R-measure, a number from 0 to 10⁶ (`q` of the XCG tasks, `Q` and `R` of "
            "`trec` and `qa`; docs/measures.md §4.6, §8, §11)."),
    Key("REL_LEVEL", "rel_level", parse_rel_level, param=True, default=1,
        doc="`trec` only: the lowest qrels relevance level that counts as relevant, a positive "
            "integer."),
    Key("GAINS", "gains", parse_gains, param=True,
        unset="`trec`: each level's gain is the level itself; `qa`: `S:3, A:2, B:1`",
        doc="`trec` and `qa` only: the gain of each relevance level for the graded measures, as "
            "`level:gain` items (gains from 0 to 10⁶): levels ≥ 1 for `trec`, the answer levels `S`, `A`, `B` "
            "for `qa`.",
        note="`trec`: levels not listed keep their level as gain. `qa`: levels not listed keep "
             "`S:3, A:2, B:1`; a numeric level in the answer file is its own gain (docs/measures.md "
             "§11). In YAML (and in a dict) it may also be a mapping `{1: 1, 2: 2}`."),
    Key("TREC_EVAL_VERSION", "trec_eval_version", parse_trec_eval_version, param=True, default="10.0",
        doc="`trec` only: whose numbers the classic measures give, trec_eval `10.0` or `9.0.8` (the "
            "one pytrec_eval and ir_measures embed).",
        note="They differ where a recall level becomes a rank cut-off (`iprec_at_recall`, `11pt_avg`: "
             "10.0 rounds x·R half away from zero, 9.0.8 truncates x·R + 0.9) and in `rbp`, whose gains "
             "10.0 rescales to [0, 1] when a level is above 1 (docs/measures.md §8.4)."),
    Key("F_BETA", "f_beta", parse_f_beta, param=True, default=0.25,
        doc="`FOL.RelevantInContext` only: β of each article's F score, a number from 0 to 10⁶ (inex_eval's "
            "`-beta`; docs/fol.md §4).",
        note="β < 1 weights precision more than recall; the INEX 2007–2010 default is 0.25."),
    Key("BEP_DISTANCE", "bep_distance", parse_bep_distance, param=True, default=500,
        doc="`FOL.BestInContext` only: n, the distance in characters from the best entry point "
            "beyond which a result scores 0, a positive integer (inex_eval's `-n`; docs/fol.md §4).",
        note="A result at distance d ≤ n scores (n − d)/n."),
    Key("T2I_TOLERANCE", "t2i_tolerance", parse_t2i_tolerance, param=True, default=300,
        doc="`FOL.T2I` only: T, the characters of irrelevant text a reader tolerates before "
            "leaving an article, an integer ≥ 0 (inex_eval's `-irr`; docs/fol.md §4)."),
    Key("ANSWER_MATCH", "answer_match", parse_answer_match, param=True, default="normalised",
        doc="`qa` only: how a run's answer is compared with the answer strings: `exact` (the same "
            "characters) or `normalised` (both Unicode NFKC, case-folded, white space runs as one "
            "space; docs/measures.md §11).",
        note="Surrounding white space of a column is never part of it. Two strings of different "
             "synsets of one question that become the same are an error of that question "
             "(docs/decisions.md)."),
    Key("HEADLINE", "headline", parse_headline, unset="the task's official measures",
        doc="The outputs shown first: in the report's headline tables and leaderboard (with confidence "
            "intervals and significance groups), `compare`'s correlation tables and its default tested "
            "measure (the first that ranks runs). Names as the tables print them (`MAep`, `nxCG@10`, "
            "`map`, `P_10`).",
        note="A name the config's measures do not output is an error. Without it: for `trec` `map`, "
             "`P_10`, `ndcg_cut_10`, `recip_rank`, `bpref`, `Rprec` and the counts `num_ret`, `num_rel`, "
             "`num_rel_ret`; for the INEX tasks their official measures (docs/measures.md §3); only "
             "those the config computes are shown, and when none is, every output is."),
    Key("TITLE", "title", parse_title, unset="none",
        doc="The track's name, shown at the top of the report's index (`inexeval report`), e.g. "
            "`TREC 2026 Example Track, ad hoc task`.",
        note="The whole line is the title: commas and spaces are kept."),
    Key("DESCRIPTION", "description", parse_title, unset="none",
        doc="A sentence or two on the track (task, collection, topics), shown under the title on the "
            "report's index.",
        note="The whole line is the text (as TITLE); several configs' descriptions are shown one after "
             "another, each once."),
)

#: The key table by canonical name.
KEY_TABLE: dict[str, Key] = {k.name: k for k in SCHEMA}
#: Keys in documentation order.
KEYS: tuple[str, ...] = tuple(KEY_TABLE)
#: Old EvalJ key names.
KEY_ALIASES: dict[str, str] = {alias: k.name for k in SCHEMA for alias in k.aliases}
REQUIRED_KEYS: tuple[str, ...] = tuple(k.name for k in SCHEMA if k.required)


def _param_default(key: Key) -> object:
    """The default of KEY's Params attribute: its default, or for a per-task default the task
    table's own (the default of the Task field, what a row that does not set it takes)."""
    if key.default is PER_TASK:
        return {f.name: f.default for f in fields(Task)}[key.field]
    if isinstance(key.default, Computed):
        raise TypeError(f"{key.name}: a key the measures read (param=True) has no computed default")
    return key.default


#: The attributes of :class:`inexeval.measures.registry.Params` and their defaults: the Config field
#: and the default of every key marked ``param``, in key table order.
PARAM_DEFAULTS: dict[str, object] = {k.field: _param_default(k) for k in SCHEMA if k.param}
