"""The syntax of a configuration: ``.prop`` text, YAML, a mapping of keys and ``--set KEY=VALUE``,
read into raw entries (canonical KEY, raw value, where it came from), nothing checked yet (docs/config.md).

The ``.prop`` rules: ``KEY: value`` or ``KEY = value`` with case-insensitive
keys; ``#`` starts a comment; blank lines are ignored; a line that does not
start with a known key and starts with white space, a digit or a comma
continues the previous key's value (seed 000 §6.1 POOLS); lists are
comma-separated (:func:`inexeval.config.values.split_items` splits them).
A YAML file holds the same keys as one mapping, each keeping its line; a
dict holds them without lines.  An unknown key is an error with the nearest
valid key as a hint; values are text, checked by the loader
(:mod:`inexeval.config.load`) with the parsers of the key table
(:mod:`inexeval.config.schema`), which also names the keys read here.
"""

from __future__ import annotations

import numbers
import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    import yaml

from inexeval.config.schema import KEY_ALIASES, KEY_TABLE, KEYS, OVERRIDE_SOURCE
from inexeval.errors import ConfigError, ConfigErrors

_KEY_LINE = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s*[:=](.*)$")
#: ``#`` starts a comment of a ``.prop`` line, unless written ``\#`` (a ``#`` of the value).
_COMMENT = re.compile(r"(?<!\\)#")


class Entry(NamedTuple):
    """One key as read: canonical KEY, raw value, and where it came from."""

    key: str
    value: str
    line: int | None
    source: str
    base: Path  # directory that relative paths of this value are relative to
    written: str = ""  # the key as written in a dict (for a duplicate's message)
    commented: bool = False  # a ``.prop`` line whose ``#`` started a comment (a hint in its errors)


def canonical_key(name: str) -> str | None:
    """The canonical key for NAME (case-insensitive, aliases resolved), or None."""
    upper = name.strip().upper()
    if upper in KEY_TABLE:
        return upper
    return KEY_ALIASES.get(upper)


def unknown_key(name: str, source: str, line: int | None) -> ConfigError:
    """An 'unknown key' error with the nearest valid key (difflib) as a hint."""
    import difflib  # here: only a mistake needs it

    candidates = list(KEYS) + list(KEY_ALIASES)
    close = difflib.get_close_matches(name.upper(), candidates, n=1, cutoff=0.6)
    hint = f"; did you mean {close[0]}?" if close else ""
    return ConfigError(f"unknown key {name!r}{hint}", source, line)


def _parse_prop(text: str, source: str, commented: set[int] | None = None
                ) -> tuple[list[tuple[str, str, int]], list[ConfigError]]:
    """The ``.prop`` lines as (KEY, raw value, line), and the syntax errors; the lines of the entries
    whose line held a comment are added to ``commented``."""
    entries: list[list] = []  # [KEY, value, line], mutable while continuing
    errors: list[ConfigError] = []
    current: list | None = None
    after_bad_key = False  # continuation lines of an unknown key are not reported again
    for number, raw in enumerate(text.splitlines(), start=1):
        parts = _COMMENT.split(raw, 1)
        line = parts[0].rstrip().replace("\\#", "#")
        if not line.strip():
            continue
        had_comment = len(parts) > 1
        match = _KEY_LINE.match(line)
        key = canonical_key(match.group(1)) if match else None
        if key is not None:
            current = [key, match.group(2).strip(), number]
            entries.append(current)
            if had_comment and commented is not None:
                commented.add(number)
            after_bad_key = False
            continue
        # An indented "NAME:" is taken as a (misspelt) key, not as a value;
        # one letter is left alone so that "C:/x" can still continue a path.
        looks_like_key = match is not None and len(match.group(1)) > 1
        if line[0] in " \t," or line[0].isdigit():
            if not looks_like_key:
                if current is not None:
                    current[1] = f"{current[1]},{line.strip()}" if current[1] else line.strip()
                    if had_comment and commented is not None:
                        commented.add(current[2])
                elif not after_bad_key:
                    errors.append(ConfigError("continuation line without a key before it", source, number))
                continue
        if match is not None:
            errors.append(unknown_key(match.group(1), source, number))
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
    GAINS may also be a mapping ``{1: 1, 2: 2}``.  A document that is not YAML, or not a mapping,
    is raised at once, as a file that cannot be read: its keys are unknown, so no key can be said
    to be missing.
    """
    import yaml  # here, not at import: .prop configs never load it

    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
    except RecursionError:  # PyYAML composes recursively (found by tests/test_fuzz.py)
        raise ConfigErrors([ConfigError("invalid YAML: nested too deeply", source)]) from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark is not None else None
        problem = getattr(exc, "problem", None) or str(exc)
        raise ConfigErrors([ConfigError(f"invalid YAML: {problem}", source, line)]) from None
    if root is None:
        return [], []
    if not isinstance(root, yaml.MappingNode):
        raise ConfigErrors([ConfigError("a YAML configuration must be a mapping of keys", source,
                                        root.start_mark.line + 1)])
    entries: list[tuple[str, str, int]] = []
    errors: list[ConfigError] = []
    for key_node, value_node in root.value:
        number = key_node.start_mark.line + 1
        name = _yaml_scalar(key_node)
        key = canonical_key(name) if name else None
        if key is None:
            errors.append(unknown_key(name or "?", source, number))
            continue
        value = _yaml_scalar(value_node)
        if value is None and isinstance(value_node, yaml.SequenceNode):
            items = [_yaml_scalar(item) for item in value_node.value]
            value = None if None in items else join_items(key, items)
        elif value is None and key == "GAINS" and isinstance(value_node, yaml.MappingNode):
            pairs = [(_yaml_scalar(k), _yaml_scalar(v)) for k, v in value_node.value]
            ok = all(k is not None and v is not None for k, v in pairs)
            value = ",".join(f"{k}:{v}" for k, v in pairs) if ok else None
        if value is None:
            errors.append(ConfigError(f"{key}: expected a value or a list of values", source, number))
            continue
        entries.append((key, value, number))
    return entries, errors


def join_items(key: str, items: list[str]) -> str:
    """List ITEMS (a YAML list, a list or a path of a dict) as one comma-separated value of KEY: a comma
    inside an item is written ``\\,`` so that it stays in it (:func:`inexeval.config.values.split_items`);
    METRICS names keep theirs (commas inside parentheses belong to the name)."""
    if key == "METRICS":
        return ",".join(items)
    return ",".join(item.replace(",", "\\,") for item in items)


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
        return join_items(key, [text]) if isinstance(value, os.PathLike) else text  # a path is one item
    if isinstance(value, (list, tuple)):
        items = [_scalar_text(item) for item in value]
        return None if None in items else join_items(key, items)
    if key == "GAINS" and isinstance(value, Mapping):
        pairs = [(_scalar_text(k), _scalar_text(v)) for k, v in value.items()]
        ok = all(k is not None and v is not None for k, v in pairs)
        return ",".join(f"{k}:{v}" for k, v in pairs) if ok else None
    return None


def mapping_entries(mapping: object, source: str, base: Path) -> tuple[list[Entry], list[ConfigError]]:
    """The entries of a dict of config keys, and its errors (unknown keys, values of a wrong type)."""
    if not isinstance(mapping, Mapping):
        raise ConfigErrors([ConfigError(
            f"a configuration must be a mapping of keys, not {type(mapping).__name__}", source)])
    entries: list[Entry] = []
    errors: list[ConfigError] = []
    for name, value in mapping.items():
        key = canonical_key(name) if isinstance(name, str) else None
        if key is None:
            errors.append(unknown_key(str(name), source, None))
            continue
        text = _mapping_value(key, value)
        if text is None:
            errors.append(ConfigError(
                f"{key}: expected a value or a list of values, got {type(value).__name__}", source))
            continue
        entries.append(Entry(key, text, None, source, base, name))
    return entries, errors


def parse_override(text: str) -> tuple[str | None, str, ConfigError | None]:
    """One ``--set KEY=VALUE`` as (KEY, raw value, error)."""
    match = _KEY_LINE.match(text)
    if match is None:
        return None, "", ConfigError(f"expected KEY=VALUE, got {text!r}", OVERRIDE_SOURCE)
    key = canonical_key(match.group(1))
    if key is None:
        return None, "", unknown_key(match.group(1), OVERRIDE_SOURCE, None)
    return key, match.group(2).strip(), None


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


def read_entries(path: Path) -> tuple[list[Entry], list[ConfigError]]:
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
    commented: set[int] = set()
    if path.suffix.lower() in (".yaml", ".yml"):
        triples, errors = _parse_yaml(text, source)
    else:
        triples, errors = _parse_prop(text, source, commented)
    base = path.parent
    return [Entry(key, value, line, source, base, "", line in commented) for key, value, line in triples], errors
