"""``inexeval init``: a commented starter config for a task, and the sample data to try it on.

The config is generated from the key table (:data:`inexeval.config.schema.SCHEMA`) and the task table, as
docs/config.md is, so it lists every key with its meaning and its default for the task and never goes
stale.  With ``sample=True`` the keys of the shipped sample config of the task (``configs/*.prop``) are
set, their paths rewritten to the copy of ``sample_data/`` written next to the config.

The shipped configs and sample data are found in the package (``inexeval/_data/``, where a wheel puts
them: setup.py copies them at build time) or, in a clone or an editable install, in the repository
beside the package (docs/decisions.md, "Packaging").  The config module (and so PyYAML) is imported
only when a config is written: ``inexeval --version`` and ``--help`` stay light.
"""

from __future__ import annotations

import filecmp
import os
import shutil
import tempfile
import textwrap
from pathlib import Path

from inexeval._version import __version__
from inexeval.errors import ConfigError, OutputError
from inexeval.records import record
from inexeval.tasks import TASKS, Task, find_task, unknown_task_message

#: the task of ``inexeval init`` without --task (the README's first evaluation)
DEFAULT_TASK = "CO.Thorough"
#: the shipped reference config (every key, for INEX 2005): not a task's sample config
REFERENCE_CONFIG = "inex2005.prop"
#: the path keys of a config, rewritten for the copied sample data
PATH_KEYS = ("ASSESSMENTS_DIR", "SUBMISSIONRUNS_DIR", "RESULTS_DIR", "COLLECTION_DIR")


def data_root() -> Path:
    """The directory holding the shipped ``configs/`` and ``sample_data/``."""
    package = Path(__file__).resolve().parent
    for root in (package / "_data", package.parent):
        if (root / "configs").is_dir() and (root / "sample_data").is_dir():
            return root
    raise OutputError(f"the sample data is not installed (looked in {package / '_data'} and "
                      f"{package.parent}); reinstall inexeval from its wheel or a clone")


def resolve_task(name: str) -> Task:
    """The task called ``name`` (aliases accepted); ConfigError naming --task otherwise."""
    task = find_task(name)
    if task is None:
        raise ConfigError(unknown_task_message(name), "--task")
    return task


def sample_config(task: Task, root: Path | None = None) -> Path | None:
    """The shipped sample config of ``task``: the first ``configs/*.prop`` (by name) whose TASK is it."""
    from inexeval.config.syntax import parse_prop_text

    root = data_root() if root is None else root
    for path in sorted((root / "configs").glob("*.prop")):
        if path.name == REFERENCE_CONFIG:
            continue
        entries = parse_prop_text(path.read_text(encoding="utf-8"), str(path))
        if any(k == "TASK" and find_task(v) is task for k, v, _ in entries):
            return path
    return None


def _default(key, task: Task, base: Path) -> tuple[str, str]:
    """KEY's default for TASK (a :class:`inexeval.config.schema.Key`): (the value as written in a config, ""
    when unset; the words of the comment)."""
    from inexeval.config.schema import PER_TASK, Computed, value_as_written

    if isinstance(key.default, Computed):
        value = key.default.make(base)
        written = Path(value).relative_to(base).as_posix() if Path(value).is_relative_to(base) else str(value)
        return written, key.default.doc
    value = key.default_for(task, base)
    if value is None or value == ():
        return "", key.unset
    per_task = f" for {task.name}" if key.default is PER_TASK else ""
    return value_as_written(value), f"`{value_as_written(value)}`{per_task}"


def _placeholder(key, task: Task) -> str:
    """The value a required path key is given in a config without sample data."""
    if key.name == "ASSESSMENTS_DIR":
        return "qrels.txt" if task.facts.qrels_file else "assessments/"
    return "runs/"


def _comment(text: str) -> list[str]:
    return textwrap.wrap(text, 96, initial_indent="# ", subsequent_indent="# ", break_long_words=False,
                         break_on_hyphens=False)


def _rebase(value: str) -> str:
    """A sample config's path value for a config written next to the copied sample_data/: each comma
    item's leading ``../`` dropped (the shipped configs live in configs/, beside sample_data/)."""
    return ", ".join(item.strip()[3:] if item.strip().startswith("../") else item.strip()
                     for item in value.split(",") if item.strip())


def starter_text(task: Task, *, sample: dict[str, str] | None = None, base: Path = Path(".")) -> str:
    """The text of the starter config of ``task``: every key of the key table, with its meaning and
    default; the required keys set (to placeholders, or to ``sample``'s values), and with ``sample``
    (KEY -> raw value) every key the sample config sets."""
    from inexeval.config.schema import SCHEMA

    sample = sample or {}
    lines = [
        f"# inexeval starter config for {task.name}, written by `inexeval init` (inexeval {__version__}).",
        "# One `KEY: value` per line; `#` starts a comment; a relative path is relative to this file.",
        "# Every key is listed: a key left commented out keeps the default shown above it.",
    ]
    if sample:
        lines.append("# The keys set here evaluate the sample data in sample_data/ (copied by --sample).")
    else:
        lines += ["# Point ASSESSMENTS_DIR and SUBMISSIONRUNS_DIR at your data; `inexeval init --sample`",
                  "# writes a config that scores the sample data instead."]
    for key in SCHEMA:
        written, words = _default(key, task, base)
        lines += ["", f"## {key.name}" + (" (required)" if key.required else ""), *_comment(key.doc)]
        if key.note:
            lines += _comment(key.note)
        if key.aliases:
            lines += _comment("Also written " + ", ".join(key.aliases) + " (EvalJ's names).")
        if key.name == "TASK":
            lines.append(f"TASK: {task.name}")
        elif key.name in sample:
            if not key.required:
                lines += _comment(f"Default: {words}.")
            lines.append(f"{key.name}: {sample[key.name]}")
        elif key.required:
            lines.append(f"{key.name}: {_placeholder(key, task)}")
        else:
            lines += _comment(f"Default: {words}.")
            lines.append(f"#{key.name}: {written}".rstrip())
    return "\n".join(lines) + "\n"


@record
class Written:
    """What :func:`init` wrote: the config, and the sample data directory (None without --sample)."""

    config: Path
    sample_data: Path | None


def _clashes(src: Path, dest: Path) -> list[Path]:
    """Files under ``dest`` that exist and differ from their counterpart under ``src``."""
    out = []
    for path in sorted(src.rglob("*")):
        target = dest / path.relative_to(src)
        if path.is_file() and target.exists() and not (target.is_file() and filecmp.cmp(path, target, shallow=False)):
            out.append(target)
    return out


def init(directory: str | Path, task_name: str = DEFAULT_TASK, *, sample: bool = False,
         force: bool = False) -> Written:
    """Write DIRECTORY/<task>.prop (and with ``sample`` DIRECTORY/sample_data/); an existing file is
    replaced only with ``force`` (a sample data file equal to the shipped one is left as it is).
    ConfigError (exit 2) for an unknown task or a task without sample data; OutputError (exit 2)
    when a file exists or cannot be written."""
    from inexeval.config.syntax import parse_prop_text

    task = resolve_task(task_name)
    directory = Path(directory)
    config = directory / f"{task.name}.prop"
    values: dict[str, str] = {}
    root = data_root() if sample else None
    if sample:
        source = sample_config(task, root)
        if source is None:
            with_data = [t.name for t in TASKS.values() if sample_config(t, root) is not None]
            raise ConfigError(f"no sample data for task {task.name}; tasks with sample data: "
                              + ", ".join(with_data), "--task")
        for key, value, _ in parse_prop_text(source.read_text(encoding="utf-8"), str(source)):
            values[key] = _rebase(value) if key in PATH_KEYS else value
    clashes = [config] if config.exists() else []
    if sample:
        clashes += _clashes(root / "sample_data", directory / "sample_data")
    if clashes and not force:
        shown = ", ".join(str(p) for p in clashes[:3]) + (f" and {len(clashes) - 3} more" if len(clashes) > 3 else "")
        raise OutputError(f"{shown} already exist{'s' if len(clashes) == 1 else ''}; nothing written "
                          "(--force replaces them)")
    created = _new_directories(directory)
    staging: Path | None = None
    try:
        directory.mkdir(parents=True, exist_ok=True)
        text = starter_text(task, sample=values, base=directory.resolve())
        if sample:
            staging = Path(tempfile.mkdtemp(prefix=".sample_data.", suffix=".tmp", dir=directory))
            _copy_files(root / "sample_data", staging)
        pending = _written_aside(config, text)
        if staging is not None:
            _move_in(staging, directory / "sample_data")
        os.replace(pending, config)
    except OSError as e:
        for leftover in (staging, *created):  # nothing half-written is left: the staging copy, new folders
            if leftover is not None:
                shutil.rmtree(leftover, ignore_errors=True)
        for p in directory.glob(f".{config.name}.*.tmp"):
            p.unlink(missing_ok=True)
        raise OutputError(f"cannot write: {e.strerror or e}; nothing written", e.filename or directory) from None
    return Written(config, directory / "sample_data" if sample else None)


def _new_directories(directory: Path) -> list[Path]:
    """The outermost directory of ``directory``'s path that does not exist yet (the one to remove when
    writing fails), as a list of at most one."""
    missing = None
    for d in (directory, *directory.parents):
        if d.exists():
            break
        missing = d
    return [missing] if missing is not None else []


def _copy_files(src: Path, dest: Path) -> None:
    """Every file under ``src`` (not ``__pycache__``) copied to ``dest``; the first file that cannot be
    written raises OSError naming it (not a list of every failure, as shutil.copytree's does)."""
    for path in sorted(src.rglob("*")):
        rel = path.relative_to(src)
        if "__pycache__" in rel.parts:
            continue
        target = dest / rel
        if path.is_dir():
            target.mkdir(parents=True, exist_ok=True)
            continue
        try:
            shutil.copyfile(path, target)
        except OSError as e:
            raise OSError(e.errno, e.strerror, str(target)) from None


def _written_aside(path: Path, text: str) -> Path:
    """``text`` written to a temporary file beside ``path`` (renamed onto it when everything is written)."""
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
    except OSError as e:
        os.unlink(tmp)
        raise OSError(e.errno, e.strerror, str(path)) from None
    return Path(tmp)


def _move_in(staging: Path, dest: Path) -> None:
    """The staged copy of the sample data put in place: renamed whole when ``dest`` does not exist, else
    each file renamed over its counterpart (a rename within a directory does not take space)."""
    if not dest.exists():
        os.rename(staging, dest)
        return
    for path in sorted(staging.rglob("*")):
        target = dest / path.relative_to(staging)
        if path.is_dir():
            target.mkdir(exist_ok=True)
        else:
            os.replace(path, target)
    shutil.rmtree(staging)
