"""EvalJ-style configuration (.prop), YAML or a dict, into one frozen Config (docs/config.md).

``load_config(path, overrides)`` reads a ``.prop`` file (EvalJ's format, seed
000 §6 and seed 002 "Running XCG") or a ``.yaml``/``.yml`` file with the same
keys; ``load_config_mapping(mapping)`` takes the same keys from a Python dict.
Both apply ``--set KEY=VALUE`` overrides, check every value and expand the
path values into files.  Every problem is collected and raised together as
one :class:`~inexeval.errors.ConfigErrors`, each entry naming the file and
line (docs/config.md, docs/formats.md §9.3).

This module is the glue of :mod:`inexeval.config`: the syntax
(:mod:`inexeval.config.syntax`) gives raw entries, the parsers of the key
table (:mod:`inexeval.config.schema`, :mod:`inexeval.config.values`) check
each value, the checks between keys (the task's, METRICS against the
registered measures, standard input read once) are here, and the defaults of
the key table fill the rest of the :class:`~inexeval.config.schema.Config`.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path

from inexeval.config.schema import KEY_TABLE, OVERRIDE_SOURCE, REQUIRED_KEYS, SCHEMA, Config
from inexeval.config.syntax import Entry, mapping_entries, parse_override, read_entries
from inexeval.config.values import PATH_PARSERS, Problem, metric_names, repeated_metrics
from inexeval.errors import ConfigError, ConfigErrors, cut_text
from inexeval.readers import STDIN
from inexeval.tasks import TASKS


def _build(entries: list[Entry], errors: list[ConfigError], overrides: Sequence[str], *,
           source: str, base: Path, config_file: Path | None) -> Config:
    """Check ENTRIES (and OVERRIDES on top) into a Config, or raise every problem as ConfigErrors.

    SOURCE names the configuration in messages about it as a whole (a missing
    key); BASE is the directory of the computed defaults (RESULTS_DIR).
    """
    chosen: dict[str, Entry] = {}
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
        key, value, error = parse_override(text)
        if error is not None:
            errors.append(error)
        elif key in overridden:  # the later one would silently win
            errors.append(ConfigError(f"{key} is set twice (give each key once)", OVERRIDE_SOURCE))
        else:
            overridden.add(key)
            chosen.pop(key, None)  # keep the --set order among overridden keys
            chosen[key] = Entry(key, value, None, OVERRIDE_SOURCE, cwd)

    def fail(entry: Entry, message: str) -> None:
        if entry.commented and KEY_TABLE[entry.key].parse in PATH_PARSERS:
            message += r" (`#` starts a comment in a .prop line: write `\#` for a `#` of a path)"
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
        for message in unknown_metrics(values["metrics"], task, metric_names(chosen["METRICS"].value)):
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

    notes = []
    if "METRICS" in chosen:
        repeated = repeated_metrics(chosen["METRICS"].value)
        if repeated:
            entry = chosen["METRICS"]
            where = "" if entry.source is None else f"{entry.source}:{entry.line}: " if entry.line else f"{entry.source}: "
            shown = ", ".join(cut_text(n, 60) for n in repeated[:10]) + (f" and {len(repeated) - 10} more" if len(repeated) > 10 else "")
            notes.append(f"{where}METRICS: {len(repeated)} name(s) given more than once, each computed and "
                         f"shown once: {shown}")
    row = TASKS[values["task"]]
    for spec in SCHEMA:
        if spec.field not in values:
            values[spec.field] = spec.default_for(row, base)
    return Config(
        strategy=row.strategy,
        source=config_file,
        key_lines=tuple((k, e.line) for k, e in chosen.items() if e.line is not None),
        overridden=tuple(k for k, e in chosen.items() if e.source == OVERRIDE_SOURCE),
        notes=tuple(notes),
        **values,
    )


def unknown_metrics(names: Sequence[str], task: str, written: Mapping[str, str] | None = None) -> list[str]:
    """Problems of METRICS NAMES for TASK, all at once (an empty list when every name is a measure of
    the task): unknown names together, with the known name each is close to, and each bad parameter
    of a measure-name pattern.  ``written`` maps a name as read (lower-cased) to the user's spelling,
    which the messages show (:func:`~inexeval.config.values.metric_names`)."""
    import difflib

    from inexeval.measures import registry

    strategy = TASKS[task].strategy
    shown = (lambda name: name) if written is None else (lambda name: written.get(name, name))
    unknown, problems = [], []
    for name in names:
        try:
            if registry.find(name, strategy) is None:
                unknown.append(name)
        except ConfigError as err:  # a measure-name pattern with a bad parameter, or an unknown trec name
            problems.append(err.message.removeprefix("METRICS: ").replace(repr(name), repr(shown(name)), 1))
    if unknown:
        known = registry.names_for(strategy)
        listed_names = ", ".join(repr(shown(n)) for n in unknown)
        verb = "is not a measure" if len(unknown) == 1 else "are not measures"
        close = {shown(n): difflib.get_close_matches(n, known, n=1, cutoff=0.6) for n in unknown}
        guesses = [c[0] if len(unknown) == 1 else f"{c[0]} for {n!r}" for n, c in close.items() if c]
        hints = f"; did you mean {', '.join(guesses)}?" if guesses else ""
        problems.insert(0, f"{listed_names} {verb} of task {task}{hints} (known: "
                           f"{', '.join(known)}; `inexeval metrics` lists every name)")
    return problems



def load_config(path: str | Path, overrides: Sequence[str] = ()) -> Config:
    """Read, check and expand a configuration file (docs/config.md).

    PATH is YAML when it ends in ``.yaml``/``.yml`` and EvalJ ``.prop``
    otherwise; its relative paths are relative to its directory.  OVERRIDES
    are ``KEY=VALUE`` strings (``--set``), applied after the file, each
    replacing that key; their relative paths are relative to the current
    directory, and their errors name ``--set``.  Defaults come from the key
    table, :data:`~inexeval.config.schema.SCHEMA` (OVERLAP, METRICS, DCV and
    MAX_RESULTS from the task table); OVERLAP is an error for the tasks
    without it.  All problems are raised together as ConfigErrors.
    """
    path = Path(path)
    entries, errors = read_entries(path)
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
    entries, errors = mapping_entries(mapping, source, base)
    return _build(entries, errors, overrides, source=source, base=base, config_file=None)

