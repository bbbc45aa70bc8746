"""Value parsers of the configuration keys and path expansion (docs/config.md).

Every parser takes (raw value, base directory) and returns the value of a
:class:`~inexeval.config.schema.Config` field, or raises :class:`Problem` with
messages that the loader prefixes with the key and locates by file and line.
Only the path keys (ASSESSMENTS_DIR, SUBMISSIONRUNS_DIR, RESULTS_DIR,
COLLECTION_DIR) use the base directory: their parsers, at the end, expand
files, directories, globs and comma lists into :class:`InputFile` rows
(:func:`expand_paths`); :data:`~inexeval.readers.STDIN` (``-``) is standard input.

This is the bottom of :mod:`inexeval.config`: it knows no key table (that is
:mod:`inexeval.config.schema`, which names these parsers in its rows) and no
config syntax (:mod:`inexeval.config.syntax`).
"""

from __future__ import annotations

import fnmatch
import glob
import math
import os
import re
from collections.abc import Callable, Sequence
from pathlib import Path

from inexeval.errors import ConfigError, ConfigErrors, cut_text
from inexeval.readers import STDIN
from inexeval.tasks import find_task, unknown_task_message
from inexeval.model import InputFile  # (re-exported: the config's listing of input files)

#: (raw value, base directory) -> value; raises Problem.
Parser = Callable[[str, Path], object]
#: Upper bound of rank counts (DCV, MAX_RESULTS): larger ones made the measures
#: allocate per-rank arrays they cannot hold (found by tests/test_fuzz.py).
MAX_RANK = 1_000_000

_QUANT_NAMES = {"strict": "strict", "gen": "gen", "genlifted": "genLifted"}


class Problem(ValueError):
    """A bad value (one message or several); each becomes a ConfigError ``KEY: message``
    with the entry's file and line."""

    def __init__(self, *messages: str):
        super().__init__(*messages)
        self.messages = messages


_ITEM_COMMA = re.compile(r"(?<!\\),")


def split_items(raw: str) -> list[str]:
    """Comma-separated items, trimmed, empty ones dropped; ``\\,`` is a comma inside an item
    (docs/config.md)."""
    if "\\," not in raw:
        return [item.strip() for item in raw.split(",") if item.strip()]
    return [item.strip().replace("\\,", ",") for item in _ITEM_COMMA.split(raw) if item.strip()]


def unique(items: Sequence) -> tuple:
    """ITEMS without repeats, first occurrence kept."""
    return tuple(dict.fromkeys(items))


def listed(raw: str) -> list[str]:
    """The items of RAW; none at all is a problem."""
    items = split_items(raw)
    if not items:
        raise Problem("no value given")
    return items


def one(raw: str) -> str:
    """The single item of RAW (keys that take one value)."""
    items = listed(raw)
    if len(items) > 1:
        raise Problem(f"takes one value, got {len(items)}: {raw.strip()!r}")
    return items[0]


def _number(text: str, what: str) -> float:
    """TEXT as a finite float; otherwise "TEXT is not WHAT"."""
    try:
        value = float(text)
    except ValueError:
        raise Problem(f"{text!r} is not {what}") from None
    if not math.isfinite(value):
        raise Problem(f"{text!r} is not {what}")
    return value


def _integer(text: str, what: str) -> int:
    """TEXT as an int; otherwise "TEXT is not WHAT"."""
    try:
        return int(text)
    except ValueError:
        raise Problem(f"{text!r} is not {what}") from None


def _positive_int(text: str) -> int:
    """TEXT as an integer >= 1."""
    value = _integer(text, "a positive integer")
    if value < 1:
        raise Problem(f"{text!r} is not a positive integer")
    return value


def _rank_count(text: str) -> int:
    """A positive integer no larger than MAX_RANK (DCV, MAX_RESULTS)."""
    value = _positive_int(text)
    if value > MAX_RANK:
        raise Problem(f"{text!r} is too large (at most {MAX_RANK})")
    return value


def _positive_float(text: str) -> float:
    """TEXT as a finite number > 0."""
    value = _number(text, "a positive number")
    if value <= 0:
        raise Problem(f"{text!r} is not a positive number")
    return value


def parse_task(raw: str, base: Path) -> str:
    """TASK: a name of the task table (case-insensitive, Focussed = Focused, aliases)."""
    text = one(raw)
    task = find_task(text)
    if task is None:
        raise Problem(unknown_task_message(text))
    return task.name


def _metrics_items(raw: str) -> list[str]:
    """The METRICS names of ``raw``, split at the commas that separate names: not one inside
    parentheses (``Q(beta=0.5,agr)``), i.e. not one whose next parenthesis is a ``)``.  One pass
    from the end (linear: a 200,000-name list takes milliseconds)."""
    cuts, closing = [], False  # closing: the next parenthesis after this position is ')'
    for i in range(len(raw) - 1, -1, -1):
        c = raw[i]
        if c == ")":
            closing = True
        elif c == "(":
            closing = False
        elif c == "," and not closing:
            cuts.append(i)
    bounds = [-1, *reversed(cuts), len(raw)]
    return [raw[a + 1:b].strip() for a, b in zip(bounds, bounds[1:]) if raw[a + 1:b].strip()]


def repeated_metrics(raw: str) -> list[str]:
    """The METRICS names of ``raw`` given more than once (as :func:`parse_metrics` reads them), each once,
    in order: the loader warns about them (a repeat is counted once)."""
    seen: dict[str, int] = {}
    for name in _join_trec_params(_metrics_items(raw)):
        seen[name.lower()] = seen.get(name.lower(), 0) + 1
    return [name for name, n in seen.items() if n > 1]


_TREC_LIST_LABEL = re.compile(r"^(utility|11pt_avg|set_f)_", re.I)
_TREC_PAIR_LABEL = re.compile(r"^(ndcg_rel|ndcg|rndcg|g|rbp)_[^_]*=", re.I)
_PARAM_NUMBER = re.compile(r"^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$")
_PARAM_PAIR = re.compile(r"^([+-]?\d+|p)=\S+$", re.I)


def _join_trec_params(items: list[str]) -> list[str]:
    """trec_eval's labels keep their commas: ``utility_2,-1,0,0`` and ``ndcg_1=3,2=9`` are one
    METRICS item each (a number or ``level=gain`` is never a measure name of its own)."""
    out: list[str] = []
    for item in items:
        if out and ((_TREC_LIST_LABEL.match(out[-1]) and _PARAM_NUMBER.match(item))
                    or (_TREC_PAIR_LABEL.match(out[-1]) and _PARAM_PAIR.match(item))):
            out[-1] += "," + item
        else:
            out.append(item)
    return out


def parse_metrics(raw: str, base: Path) -> tuple[str, ...]:
    """METRICS: names lower-cased (not those written with an ir_measures name), repeats dropped
    (resolved against the measures later); commas inside a name's parentheses belong to the name."""
    names = _join_trec_params(_metrics_items(raw))
    if not names:
        raise Problem("no value given")
    return unique(_metric_case(item) for item in names)


def metric_names(raw: str) -> dict[str, str]:
    """Each METRICS name of ``raw`` as :func:`parse_metrics` reads it -> as written (the first spelling)."""
    out: dict[str, str] = {}
    for item in _join_trec_params(_metrics_items(raw)):
        out.setdefault(_metric_case(item), item)
    return out


def _metric_case(name: str) -> str:
    """A METRICS name lower-cased, except one written with an ir_measures name (``P(rel=2)@5``,
    ``nDCG@10``), whose case is its meaning (docs/measures.md §8.6)."""
    from inexeval.measures.classic_irm import IRM

    head = re.match(r"\s*([A-Za-z_]\w*)", name)
    return name if head is not None and head.group(1) in IRM else name.lower()


def parse_alpha(raw: str, base: Path) -> float:
    """ALPHA: overlap intolerance, a number in [0, 1]."""
    text = one(raw)
    value = _number(text, "a number in [0, 1]")
    if not 0.0 <= value <= 1.0:
        raise Problem(f"{text!r} is not in [0, 1]")
    return value


def parse_overlap(raw: str, base: Path) -> tuple[str, ...]:
    """OVERLAP: ``on``/``off`` items, case-insensitive, in the order given."""
    out = []
    for item in listed(raw):
        low = item.lower()
        if low not in ("on", "off"):
            raise Problem(f"{item!r} is not 'on' or 'off'")
        out.append(low)
    return unique(out)


def parse_quant(raw: str, base: Path) -> tuple[str, ...]:
    """QUANT_FUNCTIONS: strict | gen | genLifted, case-insensitive (docs/measures.md §4.1)."""
    out = []
    for item in listed(raw):
        name = _QUANT_NAMES.get(item.lower())
        if name is None:
            import difflib  # here: only a mistake needs it

            close = difflib.get_close_matches(item.lower(), list(_QUANT_NAMES), n=1)
            hint = f"; did you mean {_QUANT_NAMES[close[0]]}?" if close else ""
            raise Problem(f"unknown quantisation {item!r} (strict, gen or genLifted){hint}")
        out.append(name)
    return unique(out)


def parse_dcv(raw: str, base: Path) -> tuple[int, ...]:
    """DCV: rank counts, repeats dropped, in the order given."""
    return unique(_rank_count(item) for item in listed(raw))


def parse_headline(raw: str, base: Path) -> tuple[str, ...]:
    """HEADLINE: output names as the tables print them (case kept), repeats dropped; commas inside a
    name's parentheses belong to the name (checked against the config's outputs by the plan)."""
    names = _join_trec_params(_metrics_items(raw))
    if not names:
        raise Problem("no value given")
    return unique(name.strip() for name in names)


def parse_title(raw: str, base: Path) -> str:
    """TITLE: the whole value, commas and spaces included (white space runs as one space)."""
    text = " ".join(raw.split())
    if not text:
        raise Problem("no value given")
    return text


def parse_text(raw: str, base: Path) -> str:
    """One value, as written (QUERY_TYPE)."""
    return one(raw)


def parse_id_set(raw: str, base: Path) -> frozenset[str]:
    """A set of ids (POOLS, TOPICS)."""
    return frozenset(listed(raw))


def parse_max_results(raw: str, base: Path) -> int:
    """MAX_RESULTS: one rank count."""
    return _rank_count(one(raw))


def parse_bep_a(raw: str, base: Path) -> tuple[str, ...]:
    """BEP_A: positive numbers, kept as written (they name output columns, docs/formats.md §9.2)."""
    items = listed(raw)
    for item in items:
        _positive_float(item)
    return unique(items)


def parse_avg_doc_length(raw: str, base: Path) -> float:
    """AVG_DOC_LENGTH: one positive number."""
    return _positive_float(one(raw))


#: The largest β (Q_BETA, F_BETA) and gain (GAINS) taken: far beyond any meaningful weight, and small
#: enough that β·(cumulated gain) and β² cannot overflow a double (a NaN score, never a number).
WEIGHT_MAX = 1e6


def _weight(text: str, value: float, what: str) -> float:
    if value < 0:
        raise Problem(f"{text!r} is negative")
    if value > WEIGHT_MAX:
        raise Problem(f"{text!r} is above {WEIGHT_MAX:g}: {what} that large would overflow the arithmetic")
    return value


def parse_q_beta(raw: str, base: Path) -> float:
    """Q_BETA: β of Q/R (seed 003), a number from 0 to WEIGHT_MAX."""
    text = one(raw)
    return _weight(text, _number(text, "a number >= 0"), "a β")


#: The largest value of a Java int: inex_eval's -n and -irr are ints (docs/fol.md §4).
JAVA_INT_MAX = 2**31 - 1


def parse_f_beta(raw: str, base: Path) -> float:
    """F_BETA: β of the per-article F of FOL Relevant in Context, a number from 0 to WEIGHT_MAX."""
    text = one(raw)
    return _weight(text, _number(text, "a number >= 0"), "a β")


def parse_bep_distance(raw: str, base: Path) -> int:
    """BEP_DISTANCE: n of FOL Best in Context, a positive integer that fits a Java int."""
    text = one(raw)
    value = _positive_int(text)
    if value > JAVA_INT_MAX:
        raise Problem(f"{text!r} is too large (at most {JAVA_INT_MAX})")
    return value


def parse_t2i_tolerance(raw: str, base: Path) -> int:
    """T2I_TOLERANCE: T of FOL T2I, an integer >= 0 that fits a Java int."""
    text = one(raw)
    value = _integer(text, "an integer >= 0")
    if value < 0:
        raise Problem(f"{text!r} is not an integer >= 0")
    if value > JAVA_INT_MAX:
        raise Problem(f"{text!r} is too large (at most {JAVA_INT_MAX})")
    return value


def parse_rel_level(raw: str, base: Path) -> int:
    """REL_LEVEL: one positive integer."""
    return _positive_int(one(raw))


#: trec_eval versions whose numbers the classic measures reproduce (docs/measures.md §8.4).
TREC_EVAL_VERSIONS = ("10.0", "9.0.8")


def parse_trec_eval_version(raw: str, base: Path) -> str:
    """TREC_EVAL_VERSION: ``10.0`` or ``9.0.8``."""
    text = one(raw).strip()
    if text not in TREC_EVAL_VERSIONS:
        raise Problem(f"{text!r} is not a trec_eval version inexeval follows (10.0 or 9.0.8)")
    return text


def parse_gains(raw: str, base: Path) -> tuple[tuple[int | str, float], ...]:
    """GAINS: ``level:gain`` items, gains >= 0; levels are integers >= 1 (``trec``, docs/measures.md
    §8) sorted by level, or the letters S, A, B (``qa``, docs/measures.md §11) in that order.  Which
    kind the task takes is checked once the task is known (:mod:`inexeval.config.load`)."""
    gains: dict[int | str, float] = {}
    for item in listed(raw):
        level_text, sep, gain_text = item.partition(":")
        if not sep:
            raise Problem(f"{item!r} is not 'level:gain'")
        letter = level_text.strip().upper()
        if letter in ANSWER_LEVELS:
            level: int | str = letter
        else:
            level = _integer(level_text.strip(), "a relevance level (an integer >= 1, or S, A, B for qa)")
            if level < 1:
                raise Problem(f"{level_text.strip()!r} is not a relevance level (an integer >= 1)")
        gain = _number(gain_text.strip(), "a gain (a number >= 0)")
        if gain < 0:
            raise Problem(f"gain {gain_text.strip()!r} is negative")
        _weight(f"gain {gain_text.strip()}", gain, "a gain")
        if level in gains:
            raise Problem(f"level {level} is given twice")
        gains[level] = gain
    kinds = {isinstance(level, str) for level in gains}
    if len(kinds) > 1:
        raise Problem("mixes integer levels (trec) and letter levels S, A, B (qa)")
    return tuple(sorted(gains.items(), key=lambda kv: ANSWER_LEVELS.index(kv[0]) if isinstance(kv[0], str)
                        else kv[0]))


#: The answer correctness levels of TASK qa, best first (seed 003 §3.2).
ANSWER_LEVELS = ("S", "A", "B")
#: ANSWER_MATCH values; ``normalized`` is accepted for ``normalised``.
ANSWER_MATCH_MODES = {"exact": "exact", "normalised": "normalised", "normalized": "normalised"}


def parse_answer_match(raw: str, base: Path) -> str:
    """ANSWER_MATCH: ``exact`` or ``normalised`` (docs/measures.md §11), case-insensitive."""
    text = one(raw)
    mode = ANSWER_MATCH_MODES.get(text.lower())
    if mode is None:
        raise Problem(f"{text!r} is not 'exact' or 'normalised'")
    return mode


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
                found.append(InputFile(path, root, _dir_link_problem(path)))
        for name in files:
            path = Path(here, name)
            if not name.startswith("."):
                found.append(_listed(path, root))
    return found


def _dir_link_problem(path: Path) -> str:
    """Why the symbolic link to a directory PATH is not followed (docs/config.md)."""
    if _is_loop(path):
        return f"a symbolic link to a directory that holds it (a loop, to {os.readlink(path)}), not followed"
    return "a symbolic link to a directory, not followed"


def _is_loop(path: Path) -> bool:
    """PATH is a symbolic link to a directory that holds it: followed, it would be found again below
    itself down to the system's limit of 40 links."""
    try:
        target, here = os.path.realpath(path), os.path.realpath(path.parent)
        return os.path.islink(path) and (here == target or here.startswith(target.rstrip(os.sep) + os.sep))
    except (OSError, ValueError):
        return False


def _glob(pattern: str) -> tuple[list[str], list[Path]]:
    """The paths ``glob.glob(pattern, recursive=True)`` matches, except that ``**`` does not enter a
    symbolic link to a directory: such links are returned apart, to be reported (docs/config.md: a
    link to a directory is reported, not followed), so that a link to a directory above it (a loop)
    is named once instead of being followed down to the system's limit of 40 links with every file
    below it found again at each level.  A ``**`` that ends the pattern matches the directory it
    stands in (searched like any matched directory, which gives the same files)."""
    if "**" not in pattern:
        return glob.glob(pattern, recursive=True), []
    links: dict[Path, None] = {}
    parts = pattern.split(os.sep)
    last = len(parts) - 1
    out: list[str] = []

    def match(base: str, i: int) -> None:
        if i > last:
            if os.path.lexists(base):
                out.append(base)
            return
        part = parts[i]
        if part == "":  # a trailing "/" (directories only), or "//"
            if i < last:
                match(base, i + 1)
            elif os.path.isdir(base):
                out.append(base + os.sep)
            return
        if part == "**":
            if i == last or (i == last - 1 and parts[last] == ""):
                if os.path.isdir(base):
                    out.append(base)
                return
            for d in _directories(base, links):
                match(d, i + 1)
            return
        if not _MAGIC.search(part):
            match(os.path.join(base, part), i + 1)
            return
        try:
            names = sorted(e.name for e in os.scandir(base or os.curdir))
        except (OSError, ValueError):
            return
        if not part.startswith("."):
            names = [n for n in names if not n.startswith(".")]
        for name in fnmatch.filter(names, part):
            match(os.path.join(base, name), i + 1)

    if parts[0] == "":  # an absolute pattern
        match(os.sep, 1)
    else:
        match("", 0)
    return out, list(links)


_MAGIC = re.compile(r"[*?[]")


def _directories(base: str, links: dict[Path, None]) -> list[str]:
    """BASE and every directory below it, hidden ones skipped; a symbolic link to a directory is
    not entered but added to LINKS."""
    found = [base]
    for here, dirs, _files in os.walk(base or os.curdir):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in list(dirs):
            path = os.path.join(here, name) if base else os.path.relpath(os.path.join(here, name))
            if os.path.islink(path):
                links[Path(os.path.abspath(path))] = None
                dirs.remove(name)
            else:
                found.append(path)
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
    matches, links = _glob(pattern)
    found = [InputFile(link, root, _dir_link_problem(link)) for link in links]
    for match in matches:
        path = Path(os.path.abspath(match))
        if _is_loop(path) and _is_dir(path):  # (a match of * that holds itself: not searched)
            found.append(InputFile(path, root, _dir_link_problem(path)))
        elif _is_dir(path):
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
    if problems and len(items) > 1 and _expand_item(value.strip(), Path(base)):
        problems = [f"{value.strip()!r} names a file or directory, but a comma separates paths: write `\\,` "
                    "for a comma of a path"]
    if problems:
        return (), problems
    found.sort(key=lambda f: (f.path.parts, f.root.parts))
    unique: dict[Path, InputFile] = {}
    for f in found:
        unique.setdefault(f.path, f)
    unique = _once_each(unique)
    if not any(f.problem is None for f in unique.values()):
        return (), [f"{f.path}: {f.problem}" for f in unique.values()]
    return tuple(unique.values()), []


def _once_each(listed: dict[Path, InputFile]) -> dict[Path, InputFile]:
    """LISTED (sorted by path) with each file once: of the names of one file (a symbolic link to a file
    listed, the same file through a linked directory) the one without a link is kept, else the first;
    an entry that is reported (a link to a directory, ...) is reported once, under its first name."""
    keys: dict[Path, tuple | None] = {}
    for path, f in listed.items():
        keys[path] = None
        if str(path) != STDIN:
            try:
                st = os.stat(path) if f.problem is None else os.lstat(path)
                keys[path] = (f.problem is None, st.st_dev, st.st_ino)
            except (OSError, ValueError):
                pass
    best: dict[tuple, Path] = {}
    for path, key in keys.items():
        if key is not None:
            other = best.setdefault(key, path)
            if other != path and key[0] and _is_real(path) and not _is_real(other):
                best[key] = path
    return {p: f for p, f in listed.items() if keys[p] is None or best[keys[p]] == p}


def _is_real(path: Path) -> bool:
    """PATH (absolute, normalised) names its file without a symbolic link."""
    return os.path.realpath(path) == str(path)


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


def parse_input_files(raw: str, base: Path) -> tuple[InputFile, ...]:
    """ASSESSMENTS_DIR / SUBMISSIONRUNS_DIR: every file the value names."""
    found, problems = _find_files(raw, base)
    if problems:
        raise Problem(*problems)
    return found


def default_results_dir(base: Path) -> Path:
    """RESULTS_DIR when the configuration does not set it: ``results`` in the base directory."""
    return _absolute(base, "results")


def _one_path(raw: str) -> str:
    """The single path of RAW (a comma separates values: a path with a comma is written with ``\\,``)."""
    try:
        return one(raw)
    except Problem as p:
        raise Problem(*(m + " (a comma separates values: write `\\,` for a comma of a path)"
                        for m in p.messages)) from None


def parse_results_dir(raw: str, base: Path) -> Path:
    """RESULTS_DIR: one path, not expanded; it need not exist yet."""
    return _absolute(base, _one_path(raw))


def parse_collection_dir(raw: str, base: Path) -> Path:
    """COLLECTION_DIR: one existing directory, not expanded."""
    path = _absolute(base, _one_path(raw))
    if not _is_dir(path):
        raise Problem(f"{cut_text(path)} is not a directory")
    return path


#: The parsers of the keys whose value is a path (or a list of paths): a ``#`` in them needs ``\#``.
PATH_PARSERS = (parse_input_files, parse_results_dir, parse_collection_dir)
