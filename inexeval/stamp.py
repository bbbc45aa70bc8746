"""Up-to-date checks for result files: ``RESULTS_DIR/<TASK>/.inexeval-stamp.json``.

The stamp records what produced the result files (the resolved config, the
-e flag, every input file's size and modification time, the version) and
which files were written, and what the evaluation skipped and warned
about.  ``inexeval compare`` reuses the files when the stamp still
matches, and re-evaluates otherwise; reusing them, it reports the skipped
inputs and warnings again (same exit status).
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from pathlib import Path

from inexeval._version import __version__
from inexeval.config.schema import Config
from inexeval.errors import InexevalError
from inexeval.model import RunResult
from inexeval.names import file_component, uncell
from inexeval.writers.files import atomic_write, run_file_path

STAMP = ".inexeval-stamp.json"


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
    if dataclasses.is_dataclass(v) and not isinstance(v, type):
        return {f.name: _norm(getattr(v, f.name)) for f in dataclasses.fields(v)}
    if v is None or isinstance(v, (bool, int, str)):
        return v
    return repr(v)


def config_key(config: Config) -> dict:
    """Every config field that can change a run's numbers or messages, normalised."""
    return {f.name: _norm(getattr(config, f.name)) for f in dataclasses.fields(config) if f.name not in NOT_KEYED}


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
    (PROBLEMS) and its WARNINGS, so that reusing the files reports them again, with the same exit status."""
    results_dir = Path(config.results_dir if results_dir is None else results_dir)
    base = results_dir / config.task
    files = [[str(run_file_path(results_dir, config.task, r).relative_to(base)), r.run_id]
             for r in results]
    skipped = [[type(p).__name__, p.message, p.file, p.line] for p in problems]
    atomic_write(base / STAMP, json.dumps({"fingerprint": fingerprint(config, empty_as_zero), "files": files,
                                           "problems": skipped, "warnings": list(warnings)},
                                          indent=1) + "\n")


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
