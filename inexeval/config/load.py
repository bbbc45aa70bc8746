"""EvalJ-style configuration (.prop), YAML or a dict, into one frozen Config (docs/config.md).

``load_config(path, overrides)`` reads a ``.prop`` file (EvalJ's format, seed
000 §6 and seed 002 "Running XCG") or a ``.yaml``/``.yml`` file with the same
keys; ``load_config_mapping(mapping)`` takes the same keys from a Python dict.
Both apply ``--set KEY=VALUE`` overrides, check every value and expand the
path values into files.  Every problem is collected and raised together as
one :class:`~inexeval.errors.ConfigErrors`, each entry naming the file and
line (docs/config.md, docs/formats.md §9.3).

The keys are one table, :data:`SCHEMA`: each :class:`Key` row gives the
key's name, aliases, the Config field it fills, its parser, its default and
its documentation.  :data:`KEYS`, :data:`KEY_ALIASES`, :data:`REQUIRED_KEYS`
and docs/config.md (``python -m inexeval.devtools.configdoc``) are derived
from it; OVERLAP, METRICS, DCV and MAX_RESULTS default per task, from the
task table (:mod:`inexeval.tasks`).

The ``.prop`` rules (docs/config.md): ``KEY: value`` or ``KEY = value`` with
case-insensitive keys; ``#`` starts a comment; blank lines are ignored; a
line that does not start with a known key and starts with white space, a
digit or a comma continues the previous key's value (seed 000 §6.1 POOLS);
lists are comma-separated with trimmed items and empty items dropped.
"""

from __future__ import annotations

import difflib
import glob
import numbers
import os
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple


if TYPE_CHECKING:
    import yaml

from inexeval.config.values import (
    MAX_RANK,
    Parser,
    Problem,
    one,
    parse_alpha,
    parse_answer_match,
    parse_avg_doc_length,
    parse_bep_a,
    parse_bep_distance,
    parse_dcv,
    parse_f_beta,
    parse_gains,
    parse_id_set,
    parse_max_results,
    parse_metrics,
    parse_overlap,
    parse_q_beta,
    parse_quant,
    parse_rel_level,
    parse_t2i_tolerance,
    parse_task,
    parse_text,
    parse_trec_eval_version,
    split_items,
)
from inexeval.errors import ConfigError, ConfigErrors
from inexeval.tasks import TASKS, Task


class InputFile(NamedTuple):
    """A file matched by a path value, with the root (file, dir or glob base) it was found under.

    ``problem`` says why an entry of a directory listing or a glob cannot be
    read (a dangling symbolic link, a FIFO, ...); the reader of that input
    reports it with the path instead of reading it (docs/formats.md §1.5).
    The path ``-`` is standard input.
    """

    path: Path
    root: Path
    problem: str | None = None


@dataclass(frozen=True)
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
    source: Path | None = None  # the config file (None for a dict)
    key_lines: tuple[tuple[str, int], ...] = ()  # (KEY, line) where each key was set, for messages
    overridden: tuple[str, ...] = ()  # KEYs whose value came from --set (not in key_lines)

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
BOOKKEEPING_FIELDS = ("strategy", "source", "key_lines", "overridden")
#: Where a value given by ``--set`` comes from, in messages.
OVERRIDE_SOURCE = "--set"
#: The path that stands for standard input (ASSESSMENTS_DIR, SUBMISSIONRUNS_DIR).
STDIN = "-"
_KEY_LINE = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s*[:=](.*)$")


# --------------------------------------------------------------------------
# Paths


def _absolute(base: Path, text: str) -> Path:
    """TEXT relative to BASE (``~`` expanded), absolute and normalised, links kept."""
    return Path(os.path.abspath(os.path.join(base, os.path.expanduser(text))))


def _is_file(path: Path) -> bool:
    """``path.is_file()``, False when the path cannot be examined (e.g. PermissionError;
    found by tests/test_fuzz.py on a symlink into /proc)."""
    try:
        return path.is_file()
    except OSError:
        return False


def _is_dir(path: Path) -> bool:
    """``path.is_dir()``, False when the path cannot be examined (see _is_file)."""
    try:
        return path.is_dir()
    except OSError:
        return False


def _walk(root: Path) -> list[InputFile]:
    """Every file below ROOT, hidden files and hidden directories skipped.

    An entry that is not a regular file (a dangling symbolic link, a FIFO, a
    socket, a device, one that cannot be examined) or a symbolic link to a
    directory (not followed) is listed with its ``problem``, so that it is
    reported rather than silently left out (docs/formats.md §1.5).
    """
    found = []
    for here, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        for name in dirs:
            path = Path(here, name)
            if path.is_symlink():
                found.append(InputFile(path, root, "a symbolic link to a directory, not followed"))
        for name in files:
            path = Path(here, name)
            if not name.startswith("."):
                found.append(_listed(path, root))
    return found


def _listed(path: Path, root: Path) -> InputFile:
    """The InputFile of an entry a listing or glob found: with a ``problem`` unless a regular file."""
    if _is_file(path):
        return InputFile(path, root)
    from inexeval.readers import entry_problem

    return InputFile(path, root, entry_problem(path) or "cannot be examined")


def _expand_item(item: str, base: Path) -> list[InputFile]:
    """The files one path item names: ``-`` (standard input), a file, a directory, or a glob (* ? **).

    A named path that exists but is not a regular file (a pipe such as
    ``/dev/stdin``) is read as it is: it was named on purpose."""
    if item == STDIN:
        return [InputFile(Path(STDIN), Path(STDIN))]
    if "*" not in item and "?" not in item:
        path = _absolute(base, item)
        if _is_dir(path):
            return _walk(path)
        return [InputFile(path, path)] if _is_file(path) or _exists(path) else []
    # Only *, ? and ** are wildcards (docs/config.md): a '[' is a literal character.
    pattern = os.path.expanduser(item).replace("[", "[[]")
    if not os.path.isabs(pattern):
        pattern = os.path.join(glob.escape(str(base)), pattern)
    # The root of everything a glob matches is its fixed prefix (the directories
    # before the first wildcard), so that `CO+S/*/` and `CO+S*/` both keep a
    # `main/` directory below the root (pool selection, docs/formats.md §1.2).
    fixed = []
    for part in Path(pattern).parts:
        if "*" in part or "?" in part:
            break
        fixed.append(part)
    root = Path(os.path.abspath(os.path.join(*fixed).replace("[[]", "["))) if fixed else Path(base)
    found = []
    for match in glob.glob(pattern, recursive=True):
        path = Path(os.path.abspath(match))
        if _is_dir(path):
            found.extend(InputFile(f.path, root, f.problem) for f in _walk(path))
        else:
            found.append(_listed(path, root))
    return found


def _exists(path: Path) -> bool:
    try:
        return path.exists()
    except OSError:
        return False


def _find_files(value: str, base: Path) -> tuple[tuple[InputFile, ...], list[str]]:
    """The files of a path value (see expand_paths), or the problems (messages without the key)."""
    items = split_items(value)
    if not items:
        return (), ["no path given"]
    found: list[InputFile] = []
    problems: list[str] = []
    for item in items:
        matched = _expand_item(item, Path(base))
        if not matched:
            problems.append(f"{item!r} matches no file")
        found.extend(matched)
    if problems:
        return (), problems
    found.sort(key=lambda f: (f.path.parts, f.root.parts))
    unique: dict[Path, InputFile] = {}
    for f in found:
        unique.setdefault(f.path, f)
    if not any(f.problem is None for f in unique.values()):
        return (), [f"{f.path}: {f.problem}" for f in unique.values()]
    return tuple(unique.values()), []


def expand_paths(value: str, base: Path, key: str, source: object, line: int | None) -> tuple[InputFile, ...]:
    """The files of a path value (docs/config.md), sorted, each file once.

    Each comma-separated item is a file (its own root), a directory (searched
    recursively, hidden files and directories skipped; the directory is the
    root) or a glob with ``*``, ``?``, ``**`` (a matched directory is searched
    like a directory; the root of every match is the glob's fixed prefix, the
    directories before its first wildcard).  Relative items are relative to BASE.  Files are sorted by
    path; a file reached under several roots keeps the outermost one.  An
    item that matches no file is an error naming KEY, SOURCE and LINE; all
    such errors are raised together as ConfigErrors.
    """
    found, problems = _find_files(value, Path(base))
    if problems:
        raise ConfigErrors([ConfigError(f"{key}: {problem}", source, line) for problem in problems])
    return found


def _input_files(raw: str, base: Path) -> tuple[InputFile, ...]:
    """ASSESSMENTS_DIR / SUBMISSIONRUNS_DIR: every file the value names."""
    found, problems = _find_files(raw, base)
    if problems:
        raise Problem(*problems)
    return found


def _results_dir(raw: str, base: Path) -> Path:
    """RESULTS_DIR: one path, not expanded; it need not exist yet."""
    return _absolute(base, one(raw))


def _collection_dir(raw: str, base: Path) -> Path:
    """COLLECTION_DIR: one existing directory, not expanded."""
    path = _absolute(base, one(raw))
    if not _is_dir(path):
        raise Problem(f"{path} is not a directory")
    return path


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


@dataclass(frozen=True)
class Computed:
    """A default computed from the base directory (the config file's, or a dict's ``base``)."""

    make: Callable[[Path], object]
    doc: str  # how docs/config.md states it


@dataclass(frozen=True)
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
    Key("DCV", "dcv", parse_dcv, default=PER_TASK,
        doc="Rank cut-offs k of the measures reported at a rank: nxCG@k, MAnxCG@k, HiXEval's "
            "P/R/F@k, gP@k and gR@k.",
        note=f"Positive integers up to {MAX_RANK:,}; repeats are ignored. `trec` does not use DCV "
             "(its cut-offs are trec_eval's, in the measure names), nor do the FOL tasks (gP[k] and "
             "gR[k] at inex_eval's k = 1, 2, 3, 5, 10, 25, 50)."),
    Key("ASSESSMENTS_DIR", "assessments", _input_files, required=True, aliases=("EXPANDED_FULLRB",),
        doc="The assessments: INEX XML assessment files (docs/formats.md §1.2), or the one qrels "
            "file of `trec` or of a FOL task (docs/fol.md §2).",
        note="A path value. When a topic has several assessment files, POOLS chooses one; without "
             "POOLS, the one under a directory named `main` below the value's root (for a glob, "
             "the directories before its first wildcard) is used."),
    Key("SUBMISSIONRUNS_DIR", "runs", _input_files, required=True,
        doc="The runs to evaluate: INEX XML submissions or text runs (docs/formats.md §1.3), TREC "
            "runs for `trec`, FOL runs (or element runs) for the FOL tasks (docs/fol.md §2); plain "
            "or gzip-compressed.",
        note="A path value; every file it names is read as a run."),
    Key("RESULTS_DIR", "results_dir", _results_dir,
        default=Computed(lambda base: _absolute(base, "results"),
                         "`results` in the config file's directory"),
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
    Key("COLLECTION_DIR", "collection_dir", _collection_dir, aliases=("INEXDOCCOLL_DIR",),
        doc="The documents (docs/formats.md §1.4): sizes of retrieved elements the assessments do "
            "not list, character offsets for Best in Context, and the passages of element runs "
            "evaluated by a FOL task (docs/fol.md §2).",
        note="One directory, which must exist. A file id is looked up as `<dir>/<id>.xml`, else by "
             "a unique suffix match. Needing a size or an offset without COLLECTION_DIR is an "
             "error that says so."),
    Key("MAX_RESULTS", "max_results", parse_max_results, default=PER_TASK,
        unset="none (every result is kept)",
        doc="Results counted per topic; the ones after them are dropped.",
        note=f"A positive integer up to {MAX_RANK:,}. In an INEX run the first results in file "
             "order count and the dropped ones are reported in a warning; the nxCG curve's ranks "
             "are ⌈p · MAX_RESULTS / 100⌉, p = 1 … 100. In a `trec` run the first results after "
             "ordering by score count, as with trec_eval's `-M`. The FOL tasks count every result, "
             "as inex_eval does: setting MAX_RESULTS for them is an error. For `qa` it is L′, the answers "
             "counted per question (default 5, as at NTCIR QAC), after ordering by rank."),
    Key("BEP_A", "bep_a", parse_bep_a, default=("0.01", "0.1", "1", "10", "100"),
        doc="The A values of BEPD and EPRUM (Best in Context): positive numbers.",
        note="Kept as written (trimmed), since they name the output columns: `BEP_A: 1.0` gives "
             "`BEPD(A=1.0)`."),
    Key("AVG_DOC_LENGTH", "avg_doc_length", parse_avg_doc_length,
        unset="the mean text length of the `.xml` documents under COLLECTION_DIR (hidden files "
              "skipped)",
        doc="L of BEPD and EPRUM (Best in Context): the average document length in characters, a "
            "positive number."),
    Key("Q_BETA", "q_beta", parse_q_beta, default=1.0, aliases=("BETA",),
        doc="β of the Q-measure and R-measure, a number from 0 to 10⁶ (`q` of the XCG tasks, `Q` and `R` of "
            "`trec` and `qa`; docs/measures.md §4.6, §8, §11)."),
    Key("REL_LEVEL", "rel_level", parse_rel_level, default=1,
        doc="`trec` only: the lowest qrels relevance level that counts as relevant, a positive "
            "integer."),
    Key("GAINS", "gains", parse_gains,
        unset="`trec`: each level's gain is the level itself; `qa`: `S:3, A:2, B:1`",
        doc="`trec` and `qa` only: the gain of each relevance level for the graded measures, as "
            "`level:gain` items (gains from 0 to 10⁶): levels ≥ 1 for `trec`, the answer levels `S`, `A`, `B` "
            "for `qa`.",
        note="`trec`: levels not listed keep their level as gain. `qa`: levels not listed keep "
             "`S:3, A:2, B:1`; a numeric level in the answer file is its own gain (docs/measures.md "
             "§11). In YAML (and in a dict) it may also be a mapping `{1: 1, 2: 2}`."),
    Key("TREC_EVAL_VERSION", "trec_eval_version", parse_trec_eval_version, default="10.0",
        doc="`trec` only: whose numbers the classic measures give, trec_eval `10.0` or `9.0.8` (the "
            "one pytrec_eval and ir_measures embed).",
        note="They differ where a recall level becomes a rank cut-off (`iprec_at_recall`, `11pt_avg`: "
             "10.0 rounds x·R half away from zero, 9.0.8 truncates x·R + 0.9) and in `rbp`, whose gains "
             "10.0 rescales to [0, 1] when a level is above 1 (docs/measures.md §8.4)."),
    Key("F_BETA", "f_beta", parse_f_beta, default=0.25,
        doc="`FOL.RelevantInContext` only: β of each article's F score, a number from 0 to 10⁶ (inex_eval's "
            "`-beta`; docs/fol.md §4).",
        note="β < 1 weights precision more than recall; the INEX 2007–2010 default is 0.25."),
    Key("BEP_DISTANCE", "bep_distance", parse_bep_distance, default=500,
        doc="`FOL.BestInContext` only: n, the distance in characters from the best entry point "
            "beyond which a result scores 0, a positive integer (inex_eval's `-n`; docs/fol.md §4).",
        note="A result at distance d ≤ n scores (n − d)/n."),
    Key("T2I_TOLERANCE", "t2i_tolerance", parse_t2i_tolerance, default=300,
        doc="`FOL.T2I` only: T, the characters of irrelevant text a reader tolerates before "
            "leaving an article, an integer ≥ 0 (inex_eval's `-irr`; docs/fol.md §4)."),
    Key("ANSWER_MATCH", "answer_match", parse_answer_match, default="normalised",
        doc="`qa` only: how a run's answer is compared with the answer strings: `exact` (the same "
            "characters) or `normalised` (both Unicode NFKC, case-folded, white space runs as one "
            "space; docs/measures.md §11).",
        note="Surrounding white space of a column is never part of it. Two strings of different "
             "synsets of one question that become the same are an error of that question "
             "(docs/decisions.md)."),
)

#: The key table by canonical name.
KEY_TABLE: dict[str, Key] = {k.name: k for k in SCHEMA}
#: Keys in documentation order.
KEYS: tuple[str, ...] = tuple(KEY_TABLE)
#: Old EvalJ key names.
KEY_ALIASES: dict[str, str] = {alias: k.name for k in SCHEMA for alias in k.aliases}
REQUIRED_KEYS: tuple[str, ...] = tuple(k.name for k in SCHEMA if k.required)


# --------------------------------------------------------------------------
# Reading the three sources into entries (KEY, raw value, where)


class _Entry(NamedTuple):
    """One key as read: canonical KEY, raw value, and where it came from."""

    key: str
    value: str
    line: int | None
    source: str
    base: Path  # directory that relative paths of this value are relative to
    written: str = ""  # the key as written in a dict (for a duplicate's message)


def _canonical_key(name: str) -> str | None:
    """The canonical key for NAME (case-insensitive, aliases resolved), or None."""
    upper = name.strip().upper()
    if upper in KEY_TABLE:
        return upper
    return KEY_ALIASES.get(upper)


def _unknown_key(name: str, source: str, line: int | None) -> ConfigError:
    """An 'unknown key' error with the nearest valid key (difflib) as a hint."""
    candidates = list(KEYS) + list(KEY_ALIASES)
    close = difflib.get_close_matches(name.upper(), candidates, n=1, cutoff=0.6)
    hint = f"; did you mean {close[0]}?" if close else ""
    return ConfigError(f"unknown key {name!r}{hint}", source, line)


def _parse_prop(text: str, source: str) -> tuple[list[tuple[str, str, int]], list[ConfigError]]:
    """The ``.prop`` lines as (KEY, raw value, line), and the syntax errors."""
    entries: list[list] = []  # [KEY, value, line], mutable while continuing
    errors: list[ConfigError] = []
    current: list | None = None
    after_bad_key = False  # continuation lines of an unknown key are not reported again
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].rstrip()
        if not line.strip():
            continue
        match = _KEY_LINE.match(line)
        key = _canonical_key(match.group(1)) if match else None
        if key is not None:
            current = [key, match.group(2).strip(), number]
            entries.append(current)
            after_bad_key = False
            continue
        # An indented "NAME:" is taken as a (misspelt) key, not as a value;
        # one letter is left alone so that "C:/x" can still continue a path.
        looks_like_key = match is not None and len(match.group(1)) > 1
        if line[0] in " \t," or line[0].isdigit():
            if not looks_like_key:
                if current is not None:
                    current[1] = f"{current[1]},{line.strip()}" if current[1] else line.strip()
                elif not after_bad_key:
                    errors.append(ConfigError("continuation line without a key before it", source, number))
                continue
        if match is not None:
            errors.append(_unknown_key(match.group(1), source, number))
        else:
            errors.append(ConfigError(f"expected 'KEY: value', got {line.strip()!r}", source, number))
        current = None
        after_bad_key = True
    return [(k, v, n) for k, v, n in entries], errors


def parse_prop_text(text: str, source: str) -> list[tuple[str, str, int]]:
    """Split ``.prop`` TEXT into (KEY, raw value, line) triples (docs/config.md).

    KEY is canonical (upper case, aliases resolved); the value has its
    comment removed and is trimmed; continuation lines are appended to the
    previous value after a comma.  Duplicates are kept (they are rejected
    later, with values from YAML).  Syntax errors (unknown keys, stray lines)
    are raised together as ConfigErrors naming SOURCE.
    """
    entries, errors = _parse_prop(text, source)
    if errors:
        raise ConfigErrors(errors)
    return entries


def _yaml_scalar(node: yaml.Node) -> str | None:
    """A YAML scalar as written (no YAML 1.1 typing: ``on`` stays ``on``)."""
    import yaml

    if not isinstance(node, yaml.ScalarNode):
        return None
    if node.tag == "tag:yaml.org,2002:null":
        return ""
    return str(node.value).strip()


def _parse_yaml(text: str, source: str) -> tuple[list[tuple[str, str, int]], list[ConfigError]]:
    """A YAML mapping as (KEY, raw value, line), and its errors (docs/config.md).

    The document is composed with PyYAML's safe loader so that each key keeps
    its line; values are read as written and go through the same checks as
    ``.prop`` values.  A list becomes the comma-joined string of its items;
    GAINS may also be a mapping ``{1: 1, 2: 2}``.
    """
    import yaml  # here, not at import: .prop configs never load it

    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
    except RecursionError:  # PyYAML composes recursively (found by tests/test_fuzz.py)
        return [], [ConfigError("invalid YAML: nested too deeply", source)]
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark is not None else None
        problem = getattr(exc, "problem", None) or str(exc)
        return [], [ConfigError(f"invalid YAML: {problem}", source, line)]
    if root is None:
        return [], []
    if not isinstance(root, yaml.MappingNode):
        return [], [ConfigError("a YAML configuration must be a mapping of keys", source, root.start_mark.line + 1)]
    entries: list[tuple[str, str, int]] = []
    errors: list[ConfigError] = []
    for key_node, value_node in root.value:
        number = key_node.start_mark.line + 1
        name = _yaml_scalar(key_node)
        key = _canonical_key(name) if name else None
        if key is None:
            errors.append(_unknown_key(name or "?", source, number))
            continue
        value = _yaml_scalar(value_node)
        if value is None and isinstance(value_node, yaml.SequenceNode):
            items = [_yaml_scalar(item) for item in value_node.value]
            value = None if None in items else ",".join(items)
        elif value is None and key == "GAINS" and isinstance(value_node, yaml.MappingNode):
            pairs = [(_yaml_scalar(k), _yaml_scalar(v)) for k, v in value_node.value]
            ok = all(k is not None and v is not None for k, v in pairs)
            value = ",".join(f"{k}:{v}" for k, v in pairs) if ok else None
        if value is None:
            errors.append(ConfigError(f"{key}: expected a value or a list of values", source, number))
            continue
        entries.append((key, value, number))
    return entries, errors


def _scalar_text(value: object) -> str | None:
    """A dict value as config text: a string (trimmed), a number or a path; None for anything else."""
    if isinstance(value, str):
        return value.strip()
    if isinstance(value, os.PathLike):
        path = os.fspath(value)
        return path if isinstance(path, str) else None
    if isinstance(value, numbers.Real) and not isinstance(value, bool):
        return str(value)
    return None


def _mapping_value(key: str, value: object) -> str | None:
    """A dict value as the text a ``.prop`` line would hold, or None when it is not one.

    None is an empty value (like a YAML null); a list or tuple is joined with
    commas; GAINS may also be a dict ``{level: gain}``.
    """
    if value is None:
        return ""
    text = _scalar_text(value)
    if text is not None:
        return text
    if isinstance(value, (list, tuple)):
        items = [_scalar_text(item) for item in value]
        return None if None in items else ",".join(items)
    if key == "GAINS" and isinstance(value, Mapping):
        pairs = [(_scalar_text(k), _scalar_text(v)) for k, v in value.items()]
        ok = all(k is not None and v is not None for k, v in pairs)
        return ",".join(f"{k}:{v}" for k, v in pairs) if ok else None
    return None


def _mapping_entries(mapping: object, source: str, base: Path) -> tuple[list[_Entry], list[ConfigError]]:
    """The entries of a dict of config keys, and its errors (unknown keys, values of a wrong type)."""
    if not isinstance(mapping, Mapping):
        raise ConfigErrors([ConfigError(
            f"a configuration must be a mapping of keys, not {type(mapping).__name__}", source)])
    entries: list[_Entry] = []
    errors: list[ConfigError] = []
    for name, value in mapping.items():
        key = _canonical_key(name) if isinstance(name, str) else None
        if key is None:
            errors.append(_unknown_key(str(name), source, None))
            continue
        text = _mapping_value(key, value)
        if text is None:
            errors.append(ConfigError(
                f"{key}: expected a value or a list of values, got {type(value).__name__}", source))
            continue
        entries.append(_Entry(key, text, None, source, base, name))
    return entries, errors


def _parse_override(text: str) -> tuple[str | None, str, ConfigError | None]:
    """One ``--set KEY=VALUE`` as (KEY, raw value, error)."""
    match = _KEY_LINE.match(text)
    if match is None:
        return None, "", ConfigError(f"expected KEY=VALUE, got {text!r}", OVERRIDE_SOURCE)
    key = _canonical_key(match.group(1))
    if key is None:
        return None, "", _unknown_key(match.group(1), OVERRIDE_SOURCE, None)
    return key, match.group(2).strip(), None


# --------------------------------------------------------------------------
# Loading


def _config_text(data: bytes, source: str) -> str:
    """The text of a config file: UTF-8 (a byte order mark dropped), or UTF-16/32 with a byte
    order mark (docs/formats.md §1.5); anything else is a ConfigError naming the line of the
    first byte that is not UTF-8."""
    from inexeval.errors import InputError
    from inexeval.readers import as_utf8

    try:
        data = as_utf8(data, source)
    except InputError as exc:
        raise ConfigErrors([ConfigError(exc.message, source, exc.line)]) from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        column = exc.start - data.rfind(b"\n", 0, exc.start)
        raise ConfigErrors([ConfigError(f"not UTF-8 text ({exc.reason} at byte {column} of the line): "
                                        "save the file as UTF-8", source, line)]) from None


def _read_entries(path: Path) -> tuple[list[_Entry], list[ConfigError]]:
    """The entries of the config file at PATH (YAML or .prop by extension).

    A file that cannot be read is raised at once: there is nothing else to report.
    """
    source = str(path)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise ConfigErrors([ConfigError("configuration file not found", source)]) from None
    except OSError as exc:
        raise ConfigErrors([ConfigError(f"cannot read configuration: {exc.strerror or exc}", source)]) from None
    text = _config_text(data, source)
    parse = _parse_yaml if path.suffix.lower() in (".yaml", ".yml") else _parse_prop
    triples, errors = parse(text, source)
    base = path.parent
    return [_Entry(key, value, line, source, base) for key, value, line in triples], errors


def _build(entries: list[_Entry], errors: list[ConfigError], overrides: Sequence[str], *,
           source: str, base: Path, config_file: Path | None) -> Config:
    """Check ENTRIES (and OVERRIDES on top) into a Config, or raise every problem as ConfigErrors.

    SOURCE names the configuration in messages about it as a whole (a missing
    key); BASE is the directory of the computed defaults (RESULTS_DIR).
    """
    chosen: dict[str, _Entry] = {}
    for entry in entries:
        first = chosen.get(entry.key)
        if first is None:
            chosen[entry.key] = entry
        elif first.line is not None:
            errors.append(ConfigError(f"duplicate key {entry.key} (first set on line {first.line})",
                                      entry.source, entry.line))
        else:
            errors.append(ConfigError(f"duplicate key {entry.key} (given as {first.written!r} and as "
                                      f"{entry.written!r})", entry.source, entry.line))
    cwd = Path(os.getcwd())
    overridden: set[str] = set()
    for text in overrides:
        key, value, error = _parse_override(text)
        if error is not None:
            errors.append(error)
        elif key in overridden:  # the later one would silently win
            errors.append(ConfigError(f"{key} is set twice (give each key once)", OVERRIDE_SOURCE))
        else:
            overridden.add(key)
            chosen.pop(key, None)  # keep the --set order among overridden keys
            chosen[key] = _Entry(key, value, None, OVERRIDE_SOURCE, cwd)

    def fail(entry: _Entry, message: str) -> None:
        errors.append(ConfigError(f"{entry.key}: {message}", entry.source, entry.line))

    values: dict[str, object] = {}
    for key, entry in chosen.items():
        spec = KEY_TABLE[key]
        try:
            values[spec.field] = spec.parse(entry.value, entry.base)
        except Problem as problem:
            for message in problem.messages:
                fail(entry, message)

    for key in REQUIRED_KEYS:
        if key not in chosen:
            errors.append(ConfigError(f"missing required key {key}", source))

    task = values.get("task")
    if isinstance(task, str) and "OVERLAP" in chosen and not TASKS[task].takes_overlap:
        fail(chosen["OVERLAP"], f"task {task} has no OVERLAP setting; remove it")
    if isinstance(task, str) and isinstance(values.get("metrics"), tuple):
        for message in unknown_metrics(values["metrics"], task):
            fail(chosen["METRICS"], message)
    for key in ("POOLS", "QUERY_TYPE"):  # only INEX assessment files have pools and query types
        if isinstance(task, str) and key in chosen and not TASKS[task].facts.pools:
            fail(chosen[key], f"task {task} has no {'pools' if key == 'POOLS' else 'query types'} "
                              "(its judgements are one qrels file); remove it")
    if isinstance(task, str) and "MAX_RESULTS" in chosen and TASKS[task].facts.counts_every_result:
        fail(chosen["MAX_RESULTS"], f"task {task} counts every result, as inex_eval does (no MAX_RESULTS); "
                                    "remove it")

    if isinstance(task, str) and isinstance(values.get("gains"), tuple) and values["gains"]:
        letters = isinstance(values["gains"][0][0], str)
        by_letter = TASKS[task].facts.gains_by_letter
        if by_letter and not letters:
            fail(chosen["GAINS"], f"task {task} gives gains to the answer levels S, A, B (`S:3, A:2, B:1`)")
        elif not by_letter and letters:
            fail(chosen["GAINS"], f"task {task} gives gains to integer relevance levels (`1:1, 2:2`); "
                                  "S, A, B are the answer levels of TASK qa")
    if all(any(str(f.path) == STDIN for f in values.get(field) or ()) for field in ("assessments", "runs")):
        fail(chosen["SUBMISSIONRUNS_DIR"], "'-' (standard input) is also ASSESSMENTS_DIR; only one of them "
                                           "can be read from standard input")
    if errors:
        # file errors by line, then those without a line, then those of --set
        errors.sort(key=lambda e: (e.file == OVERRIDE_SOURCE, e.line is None, e.line or 0))
        raise ConfigErrors(errors)

    row = TASKS[values["task"]]
    for spec in SCHEMA:
        if spec.field not in values:
            values[spec.field] = spec.default_for(row, base)
    return Config(
        strategy=row.strategy,
        source=config_file,
        key_lines=tuple((k, e.line) for k, e in chosen.items() if e.line is not None),
        overridden=tuple(k for k, e in chosen.items() if e.source == OVERRIDE_SOURCE),
        **values,
    )


def unknown_metrics(names: Sequence[str], task: str) -> list[str]:
    """Problems of METRICS NAMES for TASK, all at once (an empty list when every name is a measure of
    the task): unknown names together, and each bad parameter of a measure-name pattern."""
    from inexeval.measures import registry

    strategy = TASKS[task].strategy
    unknown, problems = [], []
    for name in names:
        try:
            if registry.find(name, strategy) is None:
                unknown.append(name)
        except ConfigError as err:  # a measure-name pattern with a bad parameter
            problems.append(err.message.removeprefix("METRICS: "))
    if unknown:
        listed_names = ", ".join(repr(n) for n in unknown)
        verb = "is not a measure" if len(unknown) == 1 else "are not measures"
        problems.insert(0, f"{listed_names} {verb} of task {task} (known: "
                           f"{', '.join(registry.names_for(strategy))}; `inexeval metrics` lists every name)")
    return problems


def load_config(path: str | Path, overrides: Sequence[str] = ()) -> Config:
    """Read, check and expand a configuration file (docs/config.md).

    PATH is YAML when it ends in ``.yaml``/``.yml`` and EvalJ ``.prop``
    otherwise; its relative paths are relative to its directory.  OVERRIDES
    are ``KEY=VALUE`` strings (``--set``), applied after the file, each
    replacing that key; their relative paths are relative to the current
    directory, and their errors name ``--set``.  Defaults come from
    :data:`SCHEMA` (OVERLAP, METRICS, DCV and MAX_RESULTS from the task
    table); OVERLAP is an error for the tasks without it.  All problems are
    raised together as ConfigErrors.
    """
    path = Path(path)
    entries, errors = _read_entries(path)
    return _build(entries, errors, overrides, source=str(path), base=path.parent, config_file=path)


def load_config_mapping(mapping: Mapping[str, object], *, base: str | Path | None = None,
                        overrides: Sequence[str] = (), source: str = "<dict>") -> Config:
    """A Config from a dict of config keys, with the same checks as a file (docs/config.md).

    Keys are case-insensitive and may be aliases.  A value is a string, a
    number, a path, or a list or tuple of those (joined as a comma list);
    GAINS may also be a dict ``{level: gain}``.  Relative paths (and the
    default RESULTS_DIR) are relative to BASE, the current directory when
    None.  OVERRIDES are ``--set`` strings, as for :func:`load_config`.
    Every problem is raised together as ConfigErrors naming SOURCE (without
    a line); the Config's ``source`` is None.
    """
    base = Path(os.getcwd()) if base is None else Path(base)
    entries, errors = _mapping_entries(mapping, source, base)
    return _build(entries, errors, overrides, source=source, base=base, config_file=None)
