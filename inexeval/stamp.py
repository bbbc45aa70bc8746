"""Up-to-date checks for result files: ``RESULTS_DIR/<TASK>/.inexeval-stamp.json``.

The stamp records what produced the result files (the resolved config, the
-e flag, every input file's size and modification time, the version) and
which files were written, and what the evaluation skipped and warned
about.  ``inexeval compare`` reuses the files when the stamp still
matches, and re-evaluates otherwise; reusing them, it reports the skipped
inputs and warnings again (same exit status).

``RESULTS_DIR/<TASK>/.inexeval-compare.json`` records, for every file
``inexeval compare`` wrote there (``correlations.*``, ``significance.*``,
``correlations-average.*``, its ``graphs/differences_*``), the result files
it was computed from (path, run id, SHA-256; and whether those were all the
runs).  An evaluation replaces ``RESULTS_DIR/<TASK>`` whole
(:mod:`inexeval.resultsdir`); :func:`write_stamp` carries each of compare's
files over into the new set while the result files it was computed from are
byte for byte those of the new set (the same runs, ids and settings), and
drops it otherwise, with a warning naming it.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Sequence
from pathlib import Path

from inexeval._version import __version__
from inexeval.config.schema import Config
from inexeval.errors import InexevalError
from inexeval.model import RunResult
from inexeval.names import file_component, uncell
from inexeval.records import fields, is_record
from inexeval.writers.files import atomic_write, run_file_path

STAMP = ".inexeval-stamp.json"
#: what each file ``inexeval compare`` wrote in a task directory was computed from (module notes)
COMPARE_STAMP = ".inexeval-compare.json"
#: the files ``inexeval compare`` writes in a task directory (beside those, only its ``graphs/differences_*``
#: and, with --reliability, ``graphs/asl_*``)
COMPARE_FILES = tuple(f"{stem}.{ext}" for stem in ("correlations", "significance", "correlations-average",
                                                   "groups", "anova", "tukey", "reliability", "asl", "swap-rates",
                                                   "correlations-parameters")
                      for ext in ("tsv", "json"))


#: Config fields that do not change a run's numbers or messages (the inputs are fingerprinted apart).
NOT_KEYED = ("runs", "assessments", "results_dir", "key_lines", "overridden")


def _norm(v):
    """A config value as JSON, the same in every process (sets sorted, paths as strings)."""
    if isinstance(v, (set, frozenset)):
        return sorted((_norm(x) for x in v), key=repr)
    if isinstance(v, (tuple, list)):
        return [_norm(x) for x in v]
    if isinstance(v, Path):
        return str(v)
    if isinstance(v, dict):
        return [[_norm(k), _norm(x)] for k, x in sorted(v.items(), key=lambda kv: repr(_norm(kv[0])))]
    if is_record(v) and not isinstance(v, type):
        return {f.name: _norm(getattr(v, f.name)) for f in fields(v)}
    if v is None or isinstance(v, (bool, int, str)):
        return v
    return repr(v)


def config_key(config: Config) -> dict:
    """Every config field that can change a run's numbers or messages, normalised."""
    return {f.name: _norm(getattr(config, f.name)) for f in fields(config) if f.name not in NOT_KEYED}


def fingerprint(config: Config, empty_as_zero: bool) -> dict:
    """What the result files were computed from; CONFIG is the plan's config (:mod:`inexeval.plan`:
    its runs are those the evaluation reads)."""
    inputs = []
    for f in (*config.assessments, *config.runs):
        try:
            st = f.path.stat()
            inputs.append([str(f.path), st.st_size, st.st_mtime_ns])
        except OSError:
            inputs.append([str(f.path), None, None])
    # where the results go and where keys were written do not change them; sets sorted, so the
    # stamp of one config is the same in every process (repr() of a set is not)
    return {"version": __version__, "config": config_key(config), "empty_as_zero": empty_as_zero, "inputs": inputs}


def write_stamp(config: Config, empty_as_zero: bool, results: list[RunResult],
                problems: Sequence[InexevalError] = (), warnings: Sequence[str] = (),
                results_dir: Path | None = None) -> None:
    """The stamp of RESULTS, in ``results_dir`` (default RESULTS_DIR; a staging directory while
    :func:`inexeval.resultsdir.staged` writes a new set); with the inputs the evaluation skipped
    (PROBLEMS) and its WARNINGS, so that reusing the files reports them again, with the same exit status.
    Written in a staging directory, the new set also gets the files ``inexeval compare`` wrote in the
    set it replaces while they still describe it (:func:`carry_compare_outputs`); a warning naming
    those dropped is appended to WARNINGS (when a list) after the stamp is written."""
    results_dir = Path(config.results_dir if results_dir is None else results_dir)
    base = results_dir / config.task
    files = [[str(run_file_path(results_dir, config.task, r).relative_to(base)), r.run_id]
             for r in results]
    skipped = [[type(p).__name__, p.message, p.file, p.line] for p in problems]
    atomic_write(base / STAMP, json.dumps({"fingerprint": fingerprint(config, empty_as_zero), "files": files,
                                           "problems": skipped, "warnings": list(warnings)},
                                          indent=1) + "\n")
    if base != Path(config.results_dir) / config.task:  # a new set, staged: compare's files carried over
        notes = carry_compare_outputs(Path(config.results_dir) / config.task, base, files)
        if isinstance(warnings, list):  # (this evaluation's news, not recorded: reusing the files says nothing)
            warnings.extend(notes)


def stamped_report(config: Config) -> tuple[list[InexevalError], list[str]]:
    """The problems (inputs skipped) and warnings the stamp recorded, as the evaluation reported them."""
    from inexeval import errors

    try:
        stamp = json.loads((Path(config.results_dir) / config.task / STAMP).read_text())
    except (OSError, ValueError):  # removed since read_if_fresh read it: nothing recorded
        return [], []
    problems = []
    for kind, message, file, line in stamp.get("problems", []):
        cls = {"ConfigError": errors.ConfigError, "InexevalError": InexevalError}.get(kind, errors.InputError)
        problems.append(cls(message, file, line))
    return problems, list(stamp.get("warnings", []))


def read_if_fresh(config: Config, empty_as_zero: bool) -> list[RunResult] | None:
    """The results recorded by the stamp, or None when they are missing or out of date."""
    base = Path(config.results_dir) / config.task
    try:
        stamp = json.loads((base / STAMP).read_text())
        if stamp["fingerprint"] != json.loads(json.dumps(fingerprint(config, empty_as_zero))):
            return None
        return [read_run_file(base / f, run_id) for f, run_id in stamp["files"]]
    except (OSError, ValueError, KeyError):
        return None


def read_run_file(path: Path, run_id: str) -> RunResult:
    """Read a ``measure TAB topic TAB value`` result file back."""
    per_topic: dict[str, dict[str, float | None]] = {}
    average: dict[str, float | None] = {}
    measures: dict[str, None] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        m, t, v = line.split("\t")
        t = uncell(t)  # topic ids are written as cells (inexeval.names)
        measures[m] = None
        val = None if v == "-" else float(v)
        if t == "all":
            average[m] = val
        else:
            per_topic.setdefault(t, {})[m] = val
    return RunResult(run_id=run_id, setting=path.parent.name, measures=list(measures), per_topic=per_topic,
                     average=average, source=str(path),
                     file_name=path.stem if path.stem != file_component(run_id) else None)


# ------------------------------------------------------------------ compare's files

def compare_source(task_dir: Path, results: Sequence[RunResult], complete: bool) -> dict:
    """What compare read in TASK_DIR: the result file of each of RESULTS (path relative to TASK_DIR,
    run id, SHA-256), the settings, and whether RESULTS are every run of the directory (no --runs)."""
    task_dir = Path(task_dir)
    files = []
    for r in results:
        rel = Path(r.setting) / f"{r.file_name or file_component(r.run_id)}.tsv"
        files.append([rel.as_posix(), r.run_id, _sha256(task_dir / rel)])
    return {"dir": str(task_dir.resolve()), "complete": complete,
            "settings": sorted({r.setting for r in results}), "files": files}


def record_compare_outputs(task_dir: Path, written: Sequence[Path], sources: Sequence[dict] | None) -> None:
    """Record in TASK_DIR that compare wrote WRITTEN (paths under TASK_DIR) from SOURCES
    (:func:`compare_source`); SOURCES None: forget what WRITTEN were computed from (before they are
    written again: a compare stopped half-way leaves no file with another file's record).  Call
    under the lock of TASK_DIR."""
    task_dir = Path(task_dir)
    here = task_dir.resolve()
    entries = {k: v for k, v in _compare_record(task_dir).items() if (task_dir / k).is_file()}
    for path in written:
        name = Path(path).relative_to(task_dir).as_posix()
        if sources is None:
            entries.pop(name, None)
        else:
            entries[name] = [{**src, "dir": _relative(src["dir"], here)} for src in sources]
    _write_compare_record(task_dir, entries)


def _relative(other: str, here: Path) -> str:
    """OTHER (a task directory) relative to HERE (``.`` when it is HERE; absolute when it cannot be)."""
    try:
        return Path(os.path.relpath(other, here)).as_posix()
    except ValueError:  # (another drive)
        return other


def _write_compare_record(task_dir: Path, entries: dict[str, list]) -> None:
    """The compare record of TASK_DIR: each output's sources, each distinct list of sources once."""
    import hashlib  # (here: OpenSSL's module takes about 3 ms to load, and an evaluation with no compare files
    # to carry over needs no hash)

    specs: dict[str, list] = {}
    outputs = {}
    for name, spec in entries.items():
        key = hashlib.sha256(json.dumps(spec, sort_keys=True).encode()).hexdigest()[:16]
        specs[key] = spec
        outputs[name] = key
    atomic_write(task_dir / COMPARE_STAMP, json.dumps({"format": 1, "outputs": outputs, "sources": specs},
                                                      separators=(",", ":")) + "\n")


def _compare_record(task_dir: Path) -> dict[str, list]:
    """Output -> its sources, as TASK_DIR's compare record has them ({} when there is none or it
    cannot be read)."""
    try:
        record = json.loads((Path(task_dir) / COMPARE_STAMP).read_text(encoding="utf-8"))
        if record.get("format") != 1:
            return {}
        specs = record["sources"]
        return {k: specs[v] for k, v in record["outputs"].items()
                if isinstance(k, str) and isinstance(specs.get(v), list)}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return {}


def _compare_outputs(task_dir: Path) -> list[str]:
    """Compare's files in TASK_DIR, relative to it."""
    found = [name for name in COMPARE_FILES if (task_dir / name).is_file()]
    graphs = task_dir / "graphs"
    if graphs.is_dir() and not graphs.is_symlink():
        found += sorted(f"graphs/{p.name}" for pattern in ("differences_*", "asl_*") for p in graphs.glob(pattern)
                        if p.is_file())
    return found


def carry_compare_outputs(old: Path, new: Path, files: Sequence[Sequence[str]]) -> list[str]:
    """Compare's files of OLD (the task directory being replaced) that still describe NEW (the
    staged one, whose result files are FILES: [path, run id] as the stamp lists them), linked (or
    copied) into NEW with their record; one warning naming those dropped (module notes)."""
    found = _compare_outputs(old) if old.is_dir() else []
    if not found:
        return []
    record = _compare_record(old)
    hashes: dict[Path, str | None] = {}
    carried: dict[str, list] = {}
    changed, unknown = [], []
    for name in found:
        if (new / name).exists():
            continue  # (this evaluation wrote a file of that name: its own)
        spec = record.get(name)
        if spec is None:
            unknown.append(name)
        elif not _still_true(spec, old, new, files, hashes):
            changed.append(name)
        else:
            try:
                (new / name).parent.mkdir(parents=True, exist_ok=True)
                try:
                    os.link(old / name, new / name)
                except OSError:
                    shutil.copy2(old / name, new / name)
            except OSError:
                changed.append(name)
                continue
            carried[name] = spec
    if carried:
        _write_compare_record(new, carried)
    notes = []
    if changed:
        notes.append(f"{old}: {', '.join(changed)} (written by an earlier 'inexeval compare') not kept: the "
                     "result files they were computed from changed; run 'inexeval compare' again")
    if unknown:
        notes.append(f"{old}: {', '.join(unknown)} (written by an earlier 'inexeval compare') not kept: no "
                     "record of the result files they were computed from; run 'inexeval compare' again")
    return notes


def _still_true(sources: list, old: Path, new: Path, files: Sequence[Sequence[str]], hashes: dict) -> bool:
    """Whether each of SOURCES is, byte for byte, what its directory holds now (NEW, the set
    replacing OLD, for ``"."``, with the result files FILES; another task directory, relative to
    OLD, as its stamp lists its files)."""
    try:
        for src in sources:
            where = new if src["dir"] == "." else old / src["dir"]
            listed = files if src["dir"] == "." else _stamped_files(where)
            if listed is None:
                return False
            now = {Path(f).as_posix(): run_id for f, run_id in listed}
            recorded = {f: run_id for f, run_id, _sha in src["files"]}
            if any(now.get(f) != run_id for f, run_id in recorded.items()):
                return False
            if src["complete"] and now != recorded:
                return False
            if sorted({f.split("/")[0] for f in now}) != sorted(src["settings"]):
                return False
            for f, _run_id, sha in src["files"]:
                path = where / f
                if path not in hashes:
                    hashes[path] = _sha256(path)
                if hashes[path] is None or hashes[path] != sha:
                    return False
    except (KeyError, TypeError, ValueError, AttributeError):
        return False
    return True


def _stamped_files(task_dir: Path) -> list | None:
    """[path, run id] of every result file the stamp of TASK_DIR lists (None when unreadable)."""
    try:
        files = json.loads((task_dir / STAMP).read_text(encoding="utf-8"))["files"]
        return [[str(f), str(run_id)] for f, run_id in files]
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _sha256(path: Path) -> str | None:
    import hashlib  # (as in _write_compare_record)

    h = hashlib.sha256()
    try:
        with open(path, "rb") as fh:
            while chunk := fh.read(1 << 20):
                h.update(chunk)
    except OSError:
        return None
    return h.hexdigest()
