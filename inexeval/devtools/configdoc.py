"""docs/config.md, generated from the key table and the task table.

``python -m inexeval.devtools.configdoc > docs/config.md`` rewrites it;
``tests/test_configdoc.py`` fails when the file and :func:`config_reference`
differ.  The per-key sections come from :data:`inexeval.config.schema.SCHEMA`, the
per-task defaults from :data:`inexeval.tasks.TASKS`; only the preface on the
file formats is written here.
"""

from __future__ import annotations

import sys
import textwrap

from inexeval.config.schema import PER_TASK, SCHEMA, Computed, Key, value_as_written
from inexeval.tasks import TASKS

COMMAND = "python -m inexeval.devtools.configdoc > docs/config.md"

_PREFACE = f"""\
# Configuration

<!-- Generated from the key table of inexeval/config/schema.py and the task table of
inexeval/tasks.py; edit those, not this file, then run
{COMMAND} -->

A configuration says which task to evaluate, where the assessments and the
runs are, and how to score them. It is a `.prop` file in the format of
EvalJ, the INEX evaluation program, or a YAML file with the same keys. Only
`TASK`, `ASSESSMENTS_DIR` and `SUBMISSIONRUNS_DIR` are required; every other
key has a default, listed with the key below.

## `.prop` files

```
# COS.Focussed, two quantisations, 19 pools
TASK: COS.Focussed
QUANT_FUNCTIONS: gen, strict
ASSESSMENTS_DIR: ../adhoc2005/official/CO+S/*/
SUBMISSIONRUNS_DIR: runs/
POOLS: 275,297,273,353,300,283,309,327,292,319,321,325,301,315,265,361,
       364,349,279
```

- One key per line, written `KEY: value` or `KEY = value`. Key names may be
  written in any case, and the old EvalJ names listed as aliases below are
  accepted too.
- `#` begins a comment that runs to the end of the line, so
  `TASK: SSCAS #or SVCAS` sets `SSCAS`. Blank lines do not matter. A `#`
  that belongs to a value is written `\\#`: `SUBMISSIONRUNS_DIR: runs \\#2/`
  names the directory `runs #2`. When a path value with a comment on its line
  names nothing, the error says that `#` starts a comment.
- A line that begins with a space, a tab, a digit or a comma, and not with a
  known key, continues the value of the key above it (as more list items),
  as `POOLS` does in the example.
- A list is written with commas. Spaces around an item are removed and empty
  items are ignored, so a trailing comma is harmless. A comma that belongs to
  an item (a path with a comma) is written `\\,`, in every form of a config
  (`.prop`, a YAML string, `--set`): `ASSESSMENTS_DIR: qrels\\,2024.txt`.
- An unknown key (with the nearest valid one as a hint), a key set twice, or
  a value that is not allowed is an error naming the line. All the errors of
  a file are reported together, and nothing is evaluated (exit status 2). A
  value quoted in a message is cut to its start and end when it is longer
  than 200 characters, with its length.
- A measure named twice in `METRICS` is computed and shown once, with a
  warning naming the repeats.

## Path values

`ASSESSMENTS_DIR` and `SUBMISSIONRUNS_DIR` name files. Their value is a
comma list whose items are each

- a file;
- a directory, standing for every file below it at any depth, except hidden
  files and hidden directories (names that begin with `.`);
- or a glob: `*` and `?` match within one name, `**` matches any number of
  directories, and a directory that matches stands for the files below it.
  `[` is an ordinary character;
- or `-`: standard input (for one of the two keys only; docs/formats.md §1.5).

An entry of a directory or glob that is not a regular file (a dangling
symbolic link, a FIFO, a link to a directory) is reported as a skipped
input, never silently dropped (docs/formats.md §1.5). An item that matches
no file is an error. A relative path is relative to
the directory of the configuration file, not to the current directory, and
`~` is the home directory. `RESULTS_DIR` and `COLLECTION_DIR` take one
directory each, without globs.

## YAML

A `.yaml` or `.yml` file holds the same keys as one mapping, with the same
defaults and checks; errors name the line of the key. A list may be a YAML
list or a comma-separated string; an item of a YAML list is one item, commas
and all (`- "runs #1,2024/"`), and in a string a comma of a path is written
`\\,`. YAML's own rules say when `#` starts a comment (after a space, outside
quotes); `\\#` is not needed there. Values are taken as written, so `on` and
`off` stay words rather than becoming booleans. `GAINS` may also be a
mapping from level to gain.

```yaml
TASK: CO.Focussed
QUANT_FUNCTIONS: [gen, strict]
ASSESSMENTS_DIR: ../adhoc2005/official/CO+S/*/
SUBMISSIONRUNS_DIR: runs/
```

## `--set` on the command line

`--set KEY=VALUE`, which may be repeated for different keys, replaces a key
of the file or supplies one the file lacks; a key set twice by `--set` is an
error (neither value is silently dropped), as is `--set RESULTS_DIR=...`
together with `--results-dir`. Relative paths
in a `--set` value are relative to the current directory, and its errors
are reported as `--set: ...`. A `#` there is part of the value (no comments).

## From Python

`inexeval.config.load.load_config_mapping(mapping, base=..., overrides=...)`
takes the keys from a dict, with the same checks and defaults. A value may
be a string, a number, a path, or a list or tuple of those (a comma list;
a `pathlib.Path` and each item of a list are one item, commas and all);
relative paths, and the default `RESULTS_DIR`, are relative to `base`, the
current directory by default. Errors name `<dict>` (or the `source` given)
instead of a file and line.

## Keys

"""


def _default_text(key: Key, value: object) -> str:
    """VALUE (a default of KEY) for the docs: in backticks, or the key's words for "unset"."""
    if value is None or value == ():
        return key.unset
    return f"`{value_as_written(value)}`"


def _default_lines(key: Key) -> list[tuple[str, str]]:
    """The "Required" or "Default" bullets of KEY as (bullet, text); per-task defaults grouped
    by value, in task table order."""
    if key.required:
        return [("- ", "Required.")]
    if isinstance(key.default, Computed):
        return [("- ", f"Default: {key.default.doc}.")]
    if key.default is not PER_TASK:
        return [("- ", f"Default: {_default_text(key, key.default)}.")]
    groups: dict[object, list[str]] = {}
    for task in TASKS.values():
        groups.setdefault(getattr(task, key.field), []).append(f"`{task.name}`")
    lines = [("- ", "Default, per task:")]
    for value, names in groups.items():
        lines.append(("  - ", f"{_default_text(key, value)}: {', '.join(names)}."))
    return lines


def _summary_default(key: Key) -> str:
    """KEY's default in the summary table."""
    if key.required:
        return "required"
    if key.default is PER_TASK:
        return "per task"
    if isinstance(key.default, Computed):
        return key.default.doc
    return _default_text(key, key.default)


def _table() -> list[str]:
    """The summary table of the keys."""
    lines = ["| Key | Aliases | Default |", "|---|---|---|"]
    for key in SCHEMA:
        aliases = ", ".join(f"`{a}`" for a in key.aliases)
        lines.append(f"| [`{key.name}`](#{key.name.lower()}) | {aliases} | {_summary_default(key)} |")
    return lines


def _wrap(text: str, bullet: str = "") -> list[str]:
    """TEXT as lines of at most 78 characters after BULLET, continuation lines indented under it."""
    return textwrap.wrap(text, 78, initial_indent=bullet, subsequent_indent=" " * len(bullet),
                         break_long_words=False, break_on_hyphens=False)


def _section(key: Key) -> list[str]:
    """The section of KEY: what it means, its default and aliases, the note."""
    lines = [f"### {key.name}", "", *_wrap(key.doc), ""]
    bullets = _default_lines(key)
    if key.aliases:
        bullets.append(("- ", f"Aliases: {', '.join(f'`{a}`' for a in key.aliases)}."))
    for bullet, text in bullets:
        lines += _wrap(text, bullet)
    if key.note:
        lines += ["", *_wrap(key.note)]
    return lines + [""]


def config_reference() -> str:
    """The text of docs/config.md."""
    lines = _table() + [""]
    for key in SCHEMA:
        lines += _section(key)
    return _PREFACE + "\n".join(lines).rstrip("\n") + "\n"


def main() -> None:
    """Print docs/config.md."""
    sys.stdout.write(config_reference())


if __name__ == "__main__":
    main()
