"""EvalJ-style configuration (.prop) and YAML, into one frozen Config (SPEC §2).

``load_config(path, overrides)`` reads a ``.prop`` file (EvalJ's format, seed
000 §6 and seed 002 "Running XCG") or a ``.yaml``/``.yml`` file with the same
keys, applies ``--set KEY=VALUE`` overrides, checks every value and expands
the path values into files.  Every problem of the file is collected and
raised together as one :class:`~inexeval.errors.ConfigErrors`, each entry
naming the file and line (SPEC §2.1, §9.3).

The ``.prop`` rules (SPEC §2.1): ``KEY: value`` or ``KEY = value`` with
case-insensitive keys; ``#`` starts a comment; blank lines are ignored; a
line that does not start with a known key and starts with white space, a
digit or a comma continues the previous key's value (seed 000 §6.1 POOLS);
lists are comma-separated with trimmed items and empty items dropped.
"""

from __future__ import annotations

import difflib
import glob
import math
import os
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

import yaml

from inexeval.errors import ConfigError, ConfigErrors
from inexeval.tasks import DEFAULT_DCV, DEFAULT_MAX_RESULTS, TASKS, Task, find_task, unknown_task_message


class InputFile(NamedTuple):
    """A file matched by a path value, with the root (file, dir or glob base) it was found under."""

    path: Path
    root: Path


@dataclass(frozen=True)
class Config:
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
    query_type: str | None = None
    pools: frozenset[str] | None = None
    topics: frozenset[str] | None = None
    collection_dir: Path | None = None
    max_results: int | None = DEFAULT_MAX_RESULTS  # None: every result kept (the task's default)
    bep_a: tuple[str, ...] = ("0.01", "0.1", "1", "10", "100")  # as written, trimmed
    avg_doc_length: float | None = None
    q_beta: float = 1.0
    rel_level: int = 1
    gains: tuple[tuple[int, float], ...] | None = None  # GAINS: level -> gain
    source: Path | None = None  # the config file
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


#: Keys of SPEC §2.3 (plus REL_LEVEL and GAINS of §8), in documentation order.
KEYS: tuple[str, ...] = (
    "TASK", "METRICS", "ALPHA", "OVERLAP", "QUANT_FUNCTIONS", "DCV",
    "ASSESSMENTS_DIR", "SUBMISSIONRUNS_DIR", "RESULTS_DIR", "QUERY_TYPE",
    "POOLS", "TOPICS", "COLLECTION_DIR", "MAX_RESULTS", "BEP_A",
    "AVG_DOC_LENGTH", "Q_BETA", "REL_LEVEL", "GAINS",
)
#: Old EvalJ key names (SPEC §2.3).
KEY_ALIASES: dict[str, str] = {
    "EXPANDED_FULLRB": "ASSESSMENTS_DIR",
    "INEXDOCCOLL_DIR": "COLLECTION_DIR",
}
REQUIRED_KEYS = ("TASK", "ASSESSMENTS_DIR", "SUBMISSIONRUNS_DIR")
#: Where a value given by ``--set`` comes from, in messages.
OVERRIDE_SOURCE = "--set"

_QUANT_NAMES = {"strict": "strict", "gen": "gen", "genlifted": "genLifted"}
_KEY_LINE = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s*[:=](.*)$")


class _Entry(NamedTuple):
    """One key as read: canonical KEY, raw value, and where it came from."""

    key: str
    value: str
    line: int | None
    source: str
    base: Path  # directory that relative paths of this value are relative to


class _Problem(ValueError):
    """A bad value; turned into a ConfigError with the entry's file and line."""


# --------------------------------------------------------------------------
# Reading the two formats into (KEY, raw value, line)


def _canonical_key(name: str) -> str | None:
    """The canonical key for NAME (case-insensitive, aliases resolved), or None."""
    upper = name.strip().upper()
    if upper in KEYS:
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
    """Split ``.prop`` TEXT into (KEY, raw value, line) triples (SPEC §2.1).

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
    if not isinstance(node, yaml.ScalarNode):
        return None
    if node.tag == "tag:yaml.org,2002:null":
        return ""
    return str(node.value).strip()


def _parse_yaml(text: str, source: str) -> tuple[list[tuple[str, str, int]], list[ConfigError]]:
    """A YAML mapping as (KEY, raw value, line), and its errors (SPEC §2.2).

    The document is composed with PyYAML's safe loader so that each key keeps
    its line; values are read as written and go through the same checks as
    ``.prop`` values.  A list becomes the comma-joined string of its items;
    GAINS may also be a mapping ``{1: 1, 2: 2}``.
    """
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
# Values


def _items(raw: str) -> list[str]:
    """Comma-separated items, trimmed, empty ones dropped (SPEC §2.1)."""
    return [item.strip() for item in raw.split(",") if item.strip()]


def _unique(items: Sequence) -> tuple:
    """ITEMS without repeats, first occurrence kept."""
    return tuple(dict.fromkeys(items))


def _list(raw: str) -> list[str]:
    items = _items(raw)
    if not items:
        raise _Problem("no value given")
    return items


def _one(raw: str) -> str:
    items = _list(raw)
    if len(items) > 1:
        raise _Problem(f"takes one value, got {len(items)}: {raw.strip()!r}")
    return items[0]


def _number(text: str, what: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise _Problem(f"{text!r} is not {what}") from None
    if not math.isfinite(value):
        raise _Problem(f"{text!r} is not {what}")
    return value


def _integer(text: str, what: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise _Problem(f"{text!r} is not {what}") from None


#: Upper bound of rank counts (DCV, MAX_RESULTS): larger ones made the measures
#: allocate per-rank arrays they cannot hold (found by tests/test_fuzz.py).
MAX_RANK = 1_000_000


def _positive_int(text: str) -> int:
    value = _integer(text, "a positive integer")
    if value < 1:
        raise _Problem(f"{text!r} is not a positive integer")
    return value


def _rank_count(text: str) -> int:
    """A positive integer no larger than MAX_RANK (DCV, MAX_RESULTS)."""
    value = _positive_int(text)
    if value > MAX_RANK:
        raise _Problem(f"{text!r} is too large (at most {MAX_RANK})")
    return value


def _positive_float(text: str) -> float:
    value = _number(text, "a positive number")
    if value <= 0:
        raise _Problem(f"{text!r} is not a positive number")
    return value


def _alpha(raw: str) -> float:
    """ALPHA: overlap intolerance, a number in [0, 1] (SPEC §2.3)."""
    text = _one(raw)
    value = _number(text, "a number in [0, 1]")
    if not 0.0 <= value <= 1.0:
        raise _Problem(f"{text!r} is not in [0, 1]")
    return value


def _q_beta(raw: str) -> float:
    """Q_BETA: β of Q/R (seed 003), a number >= 0."""
    text = _one(raw)
    value = _number(text, "a number >= 0")
    if value < 0:
        raise _Problem(f"{text!r} is negative")
    return value


def _overlap(raw: str) -> tuple[str, ...]:
    """OVERLAP: ``on``/``off`` items, case-insensitive, in the order given."""
    out = []
    for item in _list(raw):
        low = item.lower()
        if low not in ("on", "off"):
            raise _Problem(f"{item!r} is not 'on' or 'off'")
        out.append(low)
    return _unique(out)


def _quant(raw: str) -> tuple[str, ...]:
    """QUANT_FUNCTIONS: strict | gen | genLifted, case-insensitive (SPEC §4.1)."""
    out = []
    for item in _list(raw):
        name = _QUANT_NAMES.get(item.lower())
        if name is None:
            close = difflib.get_close_matches(item.lower(), list(_QUANT_NAMES), n=1)
            hint = f"; did you mean {_QUANT_NAMES[close[0]]}?" if close else ""
            raise _Problem(f"unknown quantisation {item!r} (strict, gen or genLifted){hint}")
        out.append(name)
    return _unique(out)


def _bep_a(raw: str) -> tuple[str, ...]:
    """BEP_A: positive numbers, kept as written (they name output columns, SPEC §9.2)."""
    items = _list(raw)
    for item in items:
        _positive_float(item)
    return _unique(items)


def _gains(raw: str) -> tuple[tuple[int, float], ...]:
    """GAINS: ``level:gain`` items (SPEC §8), levels >= 1, gains >= 0, sorted by level."""
    gains: dict[int, float] = {}
    for item in _list(raw):
        level_text, sep, gain_text = item.partition(":")
        if not sep:
            raise _Problem(f"{item!r} is not 'level:gain'")
        level = _integer(level_text.strip(), "a relevance level (an integer >= 1)")
        if level < 1:
            raise _Problem(f"{level_text.strip()!r} is not a relevance level (an integer >= 1)")
        gain = _number(gain_text.strip(), "a gain (a number >= 0)")
        if gain < 0:
            raise _Problem(f"gain {gain_text.strip()!r} is negative")
        if level in gains:
            raise _Problem(f"level {level} is given twice")
        gains[level] = gain
    return tuple(sorted(gains.items()))


def _task(raw: str) -> str:
    """TASK: a name of the task table (case-insensitive, Focussed = Focused, aliases)."""
    text = _one(raw)
    task = find_task(text)
    if task is None:
        raise _Problem(unknown_task_message(text))
    return task.name


#: Value parsers of the keys that do not depend on the task or on paths.
_PARSERS: dict[str, Callable[[str], object]] = {
    "TASK": _task,
    "METRICS": lambda raw: _unique(item.lower() for item in _list(raw)),
    "ALPHA": _alpha,
    "OVERLAP": _overlap,
    "QUANT_FUNCTIONS": _quant,
    "DCV": lambda raw: _unique(_rank_count(item) for item in _list(raw)),
    "QUERY_TYPE": _one,
    "POOLS": lambda raw: frozenset(_list(raw)),
    "TOPICS": lambda raw: frozenset(_list(raw)),
    "MAX_RESULTS": lambda raw: _rank_count(_one(raw)),
    "BEP_A": _bep_a,
    "AVG_DOC_LENGTH": lambda raw: _positive_float(_one(raw)),
    "Q_BETA": _q_beta,
    "REL_LEVEL": lambda raw: _positive_int(_one(raw)),
    "GAINS": _gains,
}
_FIELDS = {
    "TASK": "task", "METRICS": "metrics", "ALPHA": "alpha", "OVERLAP": "overlap",
    "QUANT_FUNCTIONS": "quant_functions", "DCV": "dcv", "QUERY_TYPE": "query_type",
    "POOLS": "pools", "TOPICS": "topics", "MAX_RESULTS": "max_results", "BEP_A": "bep_a",
    "AVG_DOC_LENGTH": "avg_doc_length", "Q_BETA": "q_beta", "REL_LEVEL": "rel_level",
    "GAINS": "gains",
}


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
    """Every file below ROOT, hidden files and hidden directories skipped."""
    found = []
    for here, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        for name in files:
            path = Path(here, name)
            if not name.startswith(".") and _is_file(path):
                found.append(InputFile(path, root))
    return found


def _expand_item(item: str, base: Path) -> list[InputFile]:
    """The files one path item names: a file, a directory, or a glob (* ? **)."""
    if "*" not in item and "?" not in item:
        path = _absolute(base, item)
        if _is_dir(path):
            return _walk(path)
        return [InputFile(path, path)] if _is_file(path) else []
    # Only *, ? and ** are wildcards (SPEC §2.1): a '[' is a literal character.
    pattern = os.path.expanduser(item).replace("[", "[[]")
    if not os.path.isabs(pattern):
        pattern = os.path.join(glob.escape(str(base)), pattern)
    # The root of everything a glob matches is its fixed prefix (the directories
    # before the first wildcard), so that `CO+S/*/` and `CO+S*/` both keep a
    # `main/` directory below the root (pool selection, SPEC §1.2).
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
            found.extend(InputFile(f.path, root) for f in _walk(path))
        elif _is_file(path):
            found.append(InputFile(path, root))
    return found


def expand_paths(value: str, base: Path, key: str, source: object, line: int | None) -> tuple[InputFile, ...]:
    """The files of a path value (SPEC §2.1), sorted, each file once.

    Each comma-separated item is a file (its own root), a directory (searched
    recursively, hidden files and directories skipped; the directory is the
    root) or a glob with ``*``, ``?``, ``**`` (a matched directory is searched
    like a directory; the root of every match is the glob's fixed prefix, the
    directories before its first wildcard).  Relative items are relative to BASE.  Files are sorted by
    path; a file reached under several roots keeps the outermost one.  An
    item that matches no file is an error naming KEY, SOURCE and LINE; all
    such errors are raised together as ConfigErrors.
    """
    items = _items(value)
    if not items:
        raise ConfigErrors([ConfigError(f"{key}: no path given", source, line)])
    found: list[InputFile] = []
    errors: list[ConfigError] = []
    for item in items:
        matched = _expand_item(item, Path(base))
        if not matched:
            errors.append(ConfigError(f"{key}: {item!r} matches no file", source, line))
        found.extend(matched)
    if errors:
        raise ConfigErrors(errors)
    found.sort(key=lambda f: (f.path.parts, f.root.parts))
    unique: dict[Path, InputFile] = {}
    for f in found:
        unique.setdefault(f.path, f)
    return tuple(unique.values())


def _single_path(entry: _Entry, must_exist: bool) -> Path:
    """RESULTS_DIR / COLLECTION_DIR: one path, relative to the entry's base, not expanded."""
    path = _absolute(entry.base, _one(entry.value))
    if must_exist and not _is_dir(path):
        raise _Problem(f"{path} is not a directory")
    return path


# --------------------------------------------------------------------------
# Loading


def _read_entries(path: Path) -> tuple[list[_Entry], list[ConfigError]]:
    """The entries of the config file at PATH (YAML or .prop by extension).

    A file that cannot be read is raised at once: there is nothing else to report.
    """
    source = str(path)
    try:
        text = path.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise ConfigErrors([ConfigError("configuration file not found", source)]) from None
    except UnicodeDecodeError as exc:
        raise ConfigErrors([ConfigError(f"not UTF-8 text ({exc.reason})", source)]) from None
    except OSError as exc:
        raise ConfigErrors([ConfigError(f"cannot read configuration: {exc.strerror or exc}", source)]) from None
    parse = _parse_yaml if path.suffix.lower() in (".yaml", ".yml") else _parse_prop
    triples, errors = parse(text, source)
    base = path.parent
    return [_Entry(key, value, line, source, base) for key, value, line in triples], errors


def load_config(path: str | Path, overrides: Sequence[str] = ()) -> Config:
    """Read, check and expand a configuration (SPEC §2, §3, §5, §8).

    PATH is YAML when it ends in ``.yaml``/``.yml`` and EvalJ ``.prop``
    otherwise.  OVERRIDES are ``KEY=VALUE`` strings (``--set``), applied
    after the file, each replacing that key; their relative paths are
    relative to the current directory, and their errors name ``--set``.
    Defaults are those of SPEC §2.3; OVERLAP and METRICS default per task
    (§3); OVERLAP is an error for the tasks without it (§5: Relevant and Best
    in Context; also trec).  All problems are raised together as ConfigErrors.
    """
    path = Path(path)
    source = str(path)
    entries, errors = _read_entries(path)

    chosen: dict[str, _Entry] = {}
    for entry in entries:
        first = chosen.get(entry.key)
        if first is not None:
            errors.append(ConfigError(f"duplicate key {entry.key} (first set on line {first.line})", source, entry.line))
        else:
            chosen[entry.key] = entry
    cwd = Path(os.getcwd())
    for text in overrides:
        key, value, error = _parse_override(text)
        if error is not None:
            errors.append(error)
        else:
            chosen.pop(key, None)  # keep the --set order among overridden keys
            chosen[key] = _Entry(key, value, None, OVERRIDE_SOURCE, cwd)

    def fail(entry: _Entry, message: str) -> None:
        errors.append(ConfigError(f"{entry.key}: {message}", entry.source, entry.line))

    values: dict[str, object] = {}
    for key, entry in chosen.items():
        try:
            if key in _PARSERS:
                values[_FIELDS[key]] = _PARSERS[key](entry.value)
            elif key == "RESULTS_DIR":
                values["results_dir"] = _single_path(entry, must_exist=False)
            elif key == "COLLECTION_DIR":
                values["collection_dir"] = _single_path(entry, must_exist=True)
            else:  # ASSESSMENTS_DIR, SUBMISSIONRUNS_DIR
                field = "assessments" if key == "ASSESSMENTS_DIR" else "runs"
                values[field] = expand_paths(entry.value, entry.base, key, entry.source, entry.line)
        except _Problem as problem:
            fail(entry, str(problem))
        except ConfigErrors as many:
            errors.extend(many.errors)

    for key in REQUIRED_KEYS:
        if key not in chosen:
            errors.append(ConfigError(f"missing required key {key}", source))

    task = values.get("task")
    if isinstance(task, str):
        row = TASKS[task]
        values["strategy"] = row.strategy
        if "OVERLAP" in chosen and not row.takes_overlap:
            fail(chosen["OVERLAP"], f"task {task} has no OVERLAP setting; remove it")
        values.setdefault("overlap", row.overlap)
        values.setdefault("metrics", row.metrics)
        values.setdefault("dcv", row.dcv)
        values.setdefault("max_results", row.max_results)

    if errors:
        # file errors by line, then those without a line, then those of --set
        errors.sort(key=lambda e: (e.file == OVERRIDE_SOURCE, e.line is None, e.line or 0))
        raise ConfigErrors(errors)

    values.setdefault("alpha", 1.0)
    values.setdefault("quant_functions", ("gen",))
    values.setdefault("dcv", DEFAULT_DCV)
    values.setdefault("results_dir", _absolute(path.parent, "results"))
    return Config(
        source=path,
        key_lines=tuple((k, e.line) for k, e in chosen.items() if e.source != OVERRIDE_SOURCE),
        overridden=tuple(k for k, e in chosen.items() if e.source == OVERRIDE_SOURCE),
        **values,
    )
