"""``--incremental``: re-score only the run files that changed (docs/formats.md §9.2.8).

An incremental evaluation writes, beside the stamp, the cache
``RESULTS_DIR/<TASK>/.inexeval-runs.json``: the SHA-256 of every input
(assessment, collection and run file), the inexeval (and Python, numpy,
lxml) version, the normalised config and ``-e``, the SHA-256 of the stamp,
and for each run file scored what the engine keeps of its outcome that no
result file holds (the path it was read from, the line of its run id, its
warnings, the topics with nothing relevant) with the SHA-256 of each of its
result files; and ``.inexeval-recallbase.pickle``, the prepared recall-base.
The cache ends with its own SHA-256 (``seal``, over the rest of it).

Nothing reused is taken from the cache on trust: a cache whose seal is not
its content's is not used (a full evaluation, saying so); the numbers
(measures, per-topic values, averages) are read back from the result files,
each checked against its SHA-256; the run id from the stamp (checked against
its SHA-256), which lists every result file with its run id; the settings
must be the config's, in its order, one result file each.  So a cache edited
by hand, or damaged, gives either a full evaluation's outputs or a full
evaluation.  The next ``--incremental`` evaluation of the same task directory:

- evaluates everything when it cannot prove that the cache describes the
  files in ``RESULTS_DIR/<TASK>`` (no cache, unreadable cache, a stamp or a
  result file that is not the one recorded) or when a version, the config,
  ``-e``, an assessment file or a collection file changed;
- otherwise stages the result files of every run file whose content and
  path are unchanged (hard links, checked against their recorded SHA-256)
  and rebuilds their outcome from those files, the stamp and the cache (as
  said above); the engine takes the
  recall-base from the pickle (when its SHA-256, owner and mode are right;
  else it reads the assessments), scores the other runs and goes on exactly
  as a full evaluation does (run names, the summary, the stamp, the graphs,
  the tables), so the outputs are the same bytes.

File contents are hashed (streamed SHA-256), except that a file whose
``(size, mtime_ns, ctime_ns, inode, device)`` are those recorded when it was
hashed is taken as unchanged when both its times were more than
:data:`RACY_NS` older than that hashing: any later write, truncation or
replacement sets its ctime (which no program can set back) to a later time.
"""

from __future__ import annotations

import hashlib
import json
import os
import secrets
import shutil
import stat
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from inexeval.config.schema import Config
from inexeval.engine import Outcome
from inexeval.model import RunResult
from inexeval.names import one_line, uncell
from inexeval.readers import STDIN
from inexeval.records import field, record
from inexeval.stamp import config_key
from inexeval.writers.files import FILE_MODE, commit_pending, discard_pending, run_file_path, write_pending

CACHE = ".inexeval-runs.json"
#: the prepared recall-base of the evaluation, pickled (read back only as the module docstring says)
RECALL = ".inexeval-recallbase.pickle"
#: the cache's format; 4: the pickled recall-base's element keys are numbers (recallbase.TopicElements),
#: so a cache of format 3 is not read (a full evaluation, saying so)
FORMAT = 4
#: a file's stat is trusted only when its times are this much older than when it was hashed (ns)
RACY_NS = 2_000_000_000
#: config fields that do not change any number or message of a run (where outputs go, where keys were written)
PREFIX = "inexeval: incremental:"


class CacheError(Exception):
    """The cache does not prove what it should: evaluate everything (the message says why)."""


# ------------------------------------------------------------------ hashing

def file_state(path: Path, known: dict | None = None) -> dict | None:
    """``{"sha256", "stat", "checked_ns"}`` of the regular file at PATH (None when it is not one or
    cannot be read); KNOWN (a state recorded earlier) is returned as is when the stat shortcut
    applies (module docstring)."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    if not stat.S_ISREG(st.st_mode):
        return None
    now = [st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino, st.st_dev]
    if isinstance(known, dict) and known.get("stat") == now and isinstance(known.get("checked_ns"), int) \
            and isinstance(known.get("sha256"), str) \
            and max(st.st_mtime_ns, st.st_ctime_ns) < known["checked_ns"] - RACY_NS:
        return known
    checked = time.time_ns()
    h = hashlib.sha256()
    try:
        with open(path, "rb") as fh:
            while chunk := fh.read(1 << 20):
                h.update(chunk)
            st2 = os.fstat(fh.fileno())
    except OSError:
        return None
    after = [st2.st_size, st2.st_mtime_ns, st2.st_ctime_ns, st2.st_ino, st2.st_dev]
    return {"sha256": h.hexdigest(), "stat": now if after == now else None, "checked_ns": checked}


def same_stat(path: Path, state: dict) -> bool:
    """Whether PATH still has the stat recorded in STATE (the file was not touched since it was hashed)."""
    try:
        st = os.stat(path)
    except OSError:
        return False
    return state.get("stat") == [st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino, st.st_dev]


# ------------------------------------------------------------------ the key

def collection_files(config: Config) -> list[Path]:
    """Every file under COLLECTION_DIR (documents are read from it when a measure or a run needs them)."""
    if config.collection_dir is None:
        return []
    root = Path(config.collection_dir)
    if root.is_file():
        return [root]
    out = []
    for d, _dirs, files in os.walk(root):
        out.extend(Path(d) / f for f in files)
    return sorted(out)


def version() -> str:
    from inexeval._version import __version__

    return __version__


def runtime() -> str:
    """The versions of what computes and pickles the numbers besides inexeval."""
    import sys
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as dist_version

    import numpy

    try:
        lxml = dist_version("lxml")
    except PackageNotFoundError:  # pragma: no cover
        lxml = "?"
    return f"Python {sys.version.split()[0]}, numpy {numpy.__version__}, lxml {lxml}"


# ------------------------------------------------------------------ the plan

@record
class Plan:
    """What an incremental evaluation reuses, and what it records for the next one."""

    config: Config
    head: dict  # version, config, -e, assessment and collection states
    runs: dict[str, dict | None]  # run path -> its state now (None: not hashable)
    reused: dict[Path, Outcome] = field(default_factory=dict)
    digests: dict[str, dict[str, str]] = field(default_factory=dict)  # reused run path -> setting -> file SHA-256
    done: list[Outcome] = field(default_factory=list)  # outcomes whose result files were put in place
    lines: list[str] = field(default_factory=list)  # the report, one line per reason
    recall_entry: dict | None = None  # the cache's record of the pickled recall-base, when it may be used
    root: Path = Path(".")  # the staging directory
    recall_pending: Path | None = None  # the pickled recall-base, staged (the earlier one, or this one's)
    recall_digest: str | None = None  # its SHA-256

    def load(self):
        """Engine callback: the prepared recall-base (RecallBase, contexts) of the earlier evaluation of
        the same inputs, or None (then the assessments are read)."""
        import pickle

        entry, self.recall_entry = self.recall_entry, None
        if entry is None or any(str(f.path) == STDIN for f in self.config.runs):
            return None  # (reading the assessments also reads standard input ahead, for the workers)
        path = Path(self.config.results_dir) / self.config.task / RECALL
        try:
            st = os.stat(path)
            if st.st_uid != os.getuid() or st.st_mode & 0o022:
                raise CacheError(f"{path} is not this user's own file (or others may write it)")
            self.recall_pending = staged_file(path, self.root / self.config.task / RECALL, entry["sha256"])
            with open(self.recall_pending, "rb") as fh:  # (checked before it is unpickled)
                state = pickle.load(fh)
        except (CacheError, OSError, KeyError, TypeError, ValueError, EOFError, AttributeError, ImportError,
                pickle.UnpicklingError) as e:
            why = str(e) if isinstance(e, CacheError) else f"{path}: {type(e).__name__}: {one_line(str(e))}"
            self.lines.append(f"{PREFIX} recall-base cache not used ({why}): assessments read again")
            if self.recall_pending is not None:
                discard_pending(self.recall_pending)
                self.recall_pending = None
            return None
        self.recall_digest = entry["sha256"]
        return state

    def keep(self, recall_base, contexts) -> None:
        """Engine callback: the recall-base it prepared, pickled for the next evaluation (not when a run
        is read from standard input, or when something in it cannot be pickled)."""
        import pickle

        if any(str(f.path) == STDIN for f in self.config.runs):
            return
        tmp = None
        try:
            base = self.root / self.config.task
            fd, tmp = tempfile.mkstemp(prefix=f".{RECALL}.incremental-", suffix=".tmp", dir=base)
            with os.fdopen(fd, "wb") as fh:
                out = _Hashing(fh)
                pickle.dump((recall_base, contexts), out, protocol=pickle.HIGHEST_PROTOCOL)
            os.chmod(tmp, FILE_MODE)
            self.recall_pending, self.recall_digest = Path(tmp), out.hash.hexdigest()
        except (pickle.PicklingError, TypeError, AttributeError, RecursionError, OSError):
            if tmp is not None:  # not kept: the next evaluation reads the assessments
                discard_pending(Path(tmp))

    def discard(self) -> None:
        """Remove the staged earlier pickle (when no cache is written: it must not stay in the new set)."""
        if self.recall_pending is not None:
            discard_pending(self.recall_pending)
            self.recall_pending = None

    def committed(self, outcome: Outcome) -> None:
        """Engine callback: OUTCOME's result files are in place (in the staging directory)."""
        self.done.append(outcome)

    def write(self, root: Path) -> None:
        """The cache, in the staging directory ROOT (after the stamp, whose hash it records)."""
        from inexeval.stamp import STAMP
        from inexeval.writers.files import atomic_write

        base = root / self.config.task
        runs = []
        # an assessment or collection file changed while it was read: nothing recorded (all scored next time)
        stable = all(state is not None and same_stat(Path(path), state)
                     for kind in ("assessments", "collection") for path, state in self.head[kind])
        for o in self.done if stable else ():
            state = self.runs.get(o.path)
            if state is None or not same_stat(Path(o.path), state) or not _plain(o.results):
                continue  # not hashable, touched while it was read, or values a file cannot give back
            known = self.digests.get(o.path, {})
            results = []
            for r in o.results:  # (the numbers are the files', the run id the stamp's)
                file = run_file_path(root, self.config.task, r)
                digest = known.get(r.setting) or hashlib.sha256(file.read_bytes()).hexdigest()
                results.append({"setting": r.setting, "file": file.relative_to(base).as_posix(), "sha256": digest})
            runs.append({"path": o.path, "state": state,
                         "outcome": {"run_id_line": o.run_id_line, "source": o.source,
                                     "warnings": list(o.warnings),
                                     "undefined": {s: sorted(t) for s, t in o.undefined.items()},
                                     "results": results}})
        recall = None
        if not stable:
            self.discard()
        if self.recall_pending is not None:
            commit_pending(self.recall_pending, base / RECALL)
            self.recall_pending = None
            recall = {"file": RECALL, "sha256": self.recall_digest}
        stamp = hashlib.sha256((base / STAMP).read_bytes()).hexdigest()
        cache = {"format": FORMAT, **self.head, "stamp": stamp, "runs": runs, "recall_base": recall}
        atomic_write(base / CACHE, json.dumps({**cache, "seal": seal(cache)}, separators=(",", ":")) + "\n")


def seal(cache: dict) -> str:
    """The SHA-256 of CACHE (without its seal), keys sorted: what the cache says of itself."""
    body = {k: v for k, v in cache.items() if k != "seal"}
    return hashlib.sha256(json.dumps(body, sort_keys=True, separators=(",", ":")).encode("utf-8")).hexdigest()


def _plain(results: list[RunResult]) -> bool:
    """Whether every value held is a float or None (what a result file gives back)."""
    return all(v is None or type(v) is float for r in results for v in r.average.values()) and all(
        v is None or type(v) is float for r in results for d in r.per_topic.values() for v in d.values())


#: what a cache of the right format but the wrong shape raises while it is used
MALFORMED = (KeyError, TypeError, ValueError, AttributeError, IndexError)


def plan(config: Config, empty_as_zero: bool, root: Path, keep: set[str] | None,
         parts: Sequence[Path] = ()) -> Plan:
    """Decide what to reuse, and stage the reused result files in ROOT (the staging directory);
    a Plan that reuses nothing (and says why) when the cache cannot be used.  PARTS (``--incremental-from``):
    other results directories written by incremental evaluations of the same config with other run
    files (``--set SUBMISSIONRUNS_DIR=…``, one machine or job each): their unchanged runs are reused
    too, as the cache of RESULTS_DIR's own are; a part whose cache cannot be used is said and left out."""
    task_dir = Path(config.results_dir) / config.task
    try:
        cache = _read_cache(task_dir)
        p = _hashed(config, empty_as_zero, cache)
        why = _changed(cache, p.head)
    except CacheError as e:
        cache, why = None, str(e)
    except MALFORMED as e:
        cache, why = None, f"cache unreadable ({task_dir / CACHE}: {type(e).__name__}: {one_line(str(e))})"
    if cache is None:
        p = _hashed(config, empty_as_zero, {})
    p.root = root
    sources = _part_sources(p, parts)
    if why and not sources:
        p.lines.append(f"{PREFIX} full evaluation: {why}")
        return p
    if why:
        p.lines.append(f"{PREFIX} {task_dir} not reused: {why}")
    own = {} if why else {r["path"]: (r, task_dir, Stamped(cache)) for r in cache["runs"]}
    try:
        _reuse(p, {**sources, **own}, root, keep, set(own))
        p.recall_entry = None if why else cache["recall_base"]
    except (CacheError, *MALFORMED) as e:
        _unstage(p)
        why = str(e) if isinstance(e, CacheError) else f"cache unreadable ({type(e).__name__})"
        p.lines = [f"{PREFIX} full evaluation: {why}"]
    return p


def _part_sources(p: Plan, parts: Sequence[Path]) -> dict[str, tuple[dict, Path, "Stamped"]]:
    """Run path -> (cache entry, its task directory, its stamp's word) of every usable part (the first
    part listing a run wins); what cannot be used is said in P.lines."""
    out: dict[str, tuple[dict, Path, Stamped]] = {}
    for part in parts:
        task_dir = Path(part) / p.config.task
        try:
            cache = _read_cache(task_dir)
            why = _changed(cache, p.head)
        except CacheError as e:
            why = str(e)
        except MALFORMED as e:
            why = f"cache unreadable ({task_dir / CACHE}: {type(e).__name__}: {one_line(str(e))})"
        if why:
            p.lines.append(one_line(f"{PREFIX} {task_dir} not reused: {why}"))
            continue
        stamped = Stamped(cache)
        for r in cache["runs"]:
            out.setdefault(r["path"], (r, task_dir, stamped))
    return out


def _hashed(config: Config, empty_as_zero: bool, known: dict) -> Plan:
    """A Plan with the key and the state of every input now (KNOWN: the cache, for the stat shortcut)."""
    head = {"version": version(), "runtime": runtime(), "config": config_key(config), "empty_as_zero": empty_as_zero,
            "assessments": _states([f.path for f in config.assessments], known.get("assessments")),
            "collection": _states(collection_files(config), known.get("collection"))}
    old_runs = {r["path"]: r["state"] for r in known.get("runs", ())}
    p = Plan(config, head, {})
    for f in config.runs:
        path = str(f.path)
        p.runs[path] = None if path == STDIN or f.problem else file_state(f.path, old_runs.get(path))
    return p


def _states(paths: list[Path], known: list | None) -> list:
    """[path, state] of each file (state None: standard input or not a readable regular file)."""
    before = {k[0]: k[1] for k in known or () if isinstance(k, list) and len(k) == 2 and isinstance(k[1], dict)}
    return [[str(path), None if str(path) == STDIN else file_state(path, before.get(str(path)))] for path in paths]


def _read_cache(task_dir: Path) -> dict:
    from inexeval.stamp import STAMP

    path = task_dir / CACHE
    if not path.exists():
        raise CacheError(f"no cache of an earlier incremental evaluation ({path})")
    try:
        cache = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(cache, dict) or cache.get("format") != FORMAT:
            raise CacheError(f"cache of another format ({path})")
        if cache.get("seal") != seal(cache):
            raise CacheError(f"the cache was changed after it was written (its seal is not its content's: {path})")
        for key in ("version", "runtime", "config", "empty_as_zero", "assessments", "collection", "stamp", "runs"):
            cache[key]  # noqa: B018 (present)
        for r in cache["runs"]:
            r["path"], r["state"]["sha256"], r["outcome"]["results"]  # noqa: B018
        data = (task_dir / STAMP).read_bytes()
        stamp = hashlib.sha256(data).hexdigest()
    except CacheError:
        raise
    except FileNotFoundError:
        raise CacheError(f"the stamp {task_dir / STAMP} is missing") from None
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise CacheError(f"cache unreadable ({path}: {type(e).__name__}: {one_line(str(e))})") from None
    if stamp != cache["stamp"]:
        raise CacheError(f"the results in {task_dir} are not those the cache describes (stamp changed)")
    try:  # the run id of each result file, from the stamp (checked above): the cache does not hold it
        stamped = json.loads(data.decode("utf-8"))
        cache["run_ids"] = {Path(f).as_posix(): run_id for f, run_id in stamped["files"] if isinstance(run_id, str)}
        cache["warnings"] = {w for w in stamped["warnings"] if isinstance(w, str)}
    except (ValueError, KeyError, TypeError) as e:
        raise CacheError(f"the stamp {task_dir / STAMP} is unreadable ({type(e).__name__})") from None
    return cache


def _changed(cache: dict, head: dict) -> str:
    """Why nothing can be reused ('' when the version, config, -e, assessments and collection are the same)."""
    if cache["version"] != head["version"]:
        return f"inexeval version changed ({cache['version']} -> {head['version']}): every run re-scored"
    if cache["runtime"] != head["runtime"]:
        return f"{cache['runtime']} -> {head['runtime']}: every run re-scored"
    if cache["config"] != head["config"]:
        keys = sorted(set(cache["config"]) | set(head["config"]))
        diff = [k.upper() for k in keys if cache["config"].get(k) != head["config"].get(k)]
        return f"config changed ({', '.join(diff)}): every run re-scored"
    if cache["empty_as_zero"] != head["empty_as_zero"]:
        return "-e changed: every run re-scored"
    for kind, label in (("assessments", "assessments"), ("collection", "collection (COLLECTION_DIR)")):
        new = {p: (s or {}).get("sha256") for p, s in head[kind]}
        old = {p: (s or {}).get("sha256") for p, s in cache[kind]}
        unread = [p for p, h in new.items() if h is None]
        if unread:
            return (f"{label} not comparable (standard input, or not a readable file: {', '.join(unread)}): "
                    "every run scored")
        if old != new:
            return f"{label} changed ({_diff_files(old, new)}): every run re-scored"
    return ""


def _diff_files(old: dict, new: dict) -> str:
    parts = []
    for what, names in (("edited", [p for p in new if p in old and old[p] != new[p]]),
                        ("added", [p for p in new if p not in old]),
                        ("removed", [p for p in old if p not in new])):
        if names:
            parts.append(f"{what}: {', '.join(names)}")
    return "; ".join(parts)


class Stamped:
    """What the stamp of the earlier evaluation (checked against the SHA-256 the cache records) says
    of its runs: each result file's run id, and its warnings (each reused run's are among them, and
    so are its topics with nothing relevant)."""

    def __init__(self, cache: dict):
        from inexeval.engine import undefined_warning

        self.run_ids: dict[str, str] = cache["run_ids"]
        self.warnings: set[str] = cache["warnings"]
        self.undefined: dict[str, set[str]] = {}  # setting -> topics, as the warnings name them
        before, after = undefined_warning("\0", ()).split("\0")
        before = before.partition(" ")[2]  # (without the count)
        for w in self.warnings:
            count, _, rest = w.partition(" ")
            if count.isdigit() and rest.startswith(before) and after in rest:
                setting, _, topics = rest[len(before):].partition(after)
                self.undefined[setting] = set(topics.split(", "))


def _reuse(p: Plan, old: dict[str, tuple[dict, Path, Stamped]], root: Path, keep: set[str] | None,
           own: set[str]) -> None:
    """Fill P.reused (result files staged in ROOT) from the cache entries OLD whose run file is unchanged
    (each with its task directory and what that evaluation's stamp says of its runs); OWN: the paths
    RESULTS_DIR's own cache lists (a run it had and the config no longer has is "removed")."""
    from inexeval.plan import settings_of

    settings = [s.name for s in settings_of(p.config)]
    now = {str(f.path) for f in p.config.runs}
    gone = {old[path][0]["state"]["sha256"]: path for path in own if path not in now}
    reasons: dict[str, list[str]] = {}
    renamed_from: set[str] = set()
    for f in p.config.runs:
        path, state = str(f.path), p.runs[str(f.path)]
        entry, task_dir, stamped = old.get(path, (None, None, None))
        if state is None:
            why = "read from standard input" if path == STDIN else "not a readable file"
            reasons.setdefault(f"not comparable ({why}), scored", []).append(path)
        elif entry is not None and entry["state"]["sha256"] == state["sha256"]:
            p.reused[f.path] = _outcome(entry, path, task_dir, root, p.config.task, keep, stamped, settings)
            p.digests[path] = {r["setting"]: r["sha256"] for r in entry["outcome"]["results"]}
        elif entry is not None:
            reasons.setdefault("edited, re-scored", []).append(path)
        elif state["sha256"] in gone:
            renamed_from.add(gone[state["sha256"]])
            reasons.setdefault("renamed, re-scored (their path is in their messages)", []).append(
                f"{gone[state['sha256']]} -> {path}")
        else:
            reasons.setdefault("added (or not cached: skipped or unstable last time), scored", []).append(path)
    removed = [path for path in own if path not in now and path not in renamed_from]
    if removed:
        reasons["removed"] = removed
    scored = len(p.config.runs) - len(p.reused)
    p.lines.append(f"{PREFIX} {len(p.reused)} run(s) unchanged, reused; {scored} scored; {len(removed)} removed")
    for why, paths in reasons.items():
        p.lines.append(one_line(f"{PREFIX} {len(paths)} run(s) {why}: {', '.join(paths)}"))


def _outcome(entry: dict, path: str, task_dir: Path, root: Path, task: str, keep: set[str] | None,
             stamped: Stamped, settings: list[str]) -> Outcome:
    """The outcome of a reused run: its result files copied into ROOT (pending, as the engine's
    are), its numbers read back from them (each checked against its SHA-256), its run id the
    stamp's, one result file for each of SETTINGS, in order; its warnings and topics with nothing
    relevant must be among those of the stamp (STAMPED)."""
    rec = entry["outcome"]
    out = Outcome(path=path)
    try:
        for r in rec["results"]:
            parts = r["file"].split("/")
            if len(parts) != 2 or parts[0] != r["setting"] or parts[1] in ("", ".", "..") or "\\" in r["file"] \
                    or os.sep in parts[1] or not parts[1].endswith(".tsv"):
                raise CacheError(f"cache unreadable (result file {r['file']!r} of {path})")
        if [r["setting"] for r in rec["results"]] != settings:
            raise CacheError(f"cache unreadable (the settings of {path} are not the config's)")
        ids = {stamped.run_ids.get(r["file"]) for r in rec["results"]}
        if len(ids) != 1 or None in ids:
            raise CacheError(f"cache unreadable (the result files of {path} are not those the stamp lists)")
        run_id = ids.pop()
        if not all(isinstance(w, str) and w in stamped.warnings for w in rec["warnings"]) or not all(
                s in settings and set(t) <= stamped.undefined.get(s, set()) for s, t in rec["undefined"].items()):
            raise CacheError(f"cache unreadable (the warnings of {path} are not among those the stamp records)")
        out = Outcome(path=path, run_id=run_id, run_id_line=rec["run_id_line"], source=rec["source"],
                      warnings=list(rec["warnings"]),
                      undefined={s: set(t) for s, t in rec["undefined"].items()})
        for r in rec["results"]:
            file = task_dir / r["file"]
            final = root / task / r["file"]
            tmp, data = staged_copy(file, final, r["sha256"])
            out.pending.append((tmp, final))
            measures, per_topic, average = parse_result_file(data, keep, file)
            out.results.append(RunResult(run_id=run_id, setting=r["setting"], measures=measures,
                                         per_topic=per_topic, average=average, source=rec["source"]))
    except (KeyError, TypeError, AttributeError) as e:
        _discard(out)
        raise CacheError(f"cache unreadable (entry of {path}: {type(e).__name__})") from None
    except BaseException:
        _discard(out)
        raise
    return out


def staged_copy(src: Path, final: Path, sha256: str) -> tuple[Path, bytes]:
    """SRC staged as a pending file for FINAL (:func:`inexeval.writers.files.write_pending`): a hard
    link when the file system allows it and SRC has the mode a new file gets, else a copy; with its
    bytes, read from the staged file.  CacheError when they are not those of SHA256."""
    tmp = None
    try:
        if os.stat(src).st_mode & 0o7777 == FILE_MODE:
            final.parent.mkdir(parents=True, exist_ok=True)
            tmp = final.with_name(f".{final.name}.incremental-{os.getpid()}-{secrets.token_hex(4)}.tmp")
            try:
                os.link(src, tmp)
            except OSError:
                tmp = None
        data = (tmp or src).read_bytes()
    except OSError as e:
        if tmp is not None:
            discard_pending(tmp)
        raise CacheError(f"{src} unreadable ({e.strerror or e})") from None
    if hashlib.sha256(data).hexdigest() != sha256:
        if tmp is not None:
            discard_pending(tmp)
        raise CacheError(f"{src} is not the one the cache describes")
    return (tmp or write_pending(final, data, "incremental-")), data


def staged_file(src: Path, final: Path, sha256: str) -> Path:
    """SRC staged as a pending file for FINAL, a hard link (else a copy), checked by a streamed
    SHA-256 of the staged file (CacheError when it is not SHA256): a large file is never held whole."""
    final.parent.mkdir(parents=True, exist_ok=True)
    tmp = final.with_name(f".{final.name}.incremental-{os.getpid()}-{secrets.token_hex(4)}.tmp")
    try:
        try:
            if os.stat(src).st_mode & 0o7777 != FILE_MODE:
                raise OSError("another mode")
            os.link(src, tmp)
        except OSError:
            shutil.copyfile(src, tmp)
            os.chmod(tmp, FILE_MODE)
        h = hashlib.sha256()
        with open(tmp, "rb") as fh:
            while chunk := fh.read(1 << 20):
                h.update(chunk)
    except OSError as e:
        discard_pending(tmp)
        raise CacheError(f"{src} unreadable ({e.strerror or e})") from None
    if h.hexdigest() != sha256:
        discard_pending(tmp)
        raise CacheError(f"{src} is not the one the cache describes")
    return tmp


class _Hashing:
    """A binary file that hashes what is written to it (SHA-256)."""

    def __init__(self, fh):
        self.fh, self.hash = fh, hashlib.sha256()

    def write(self, data) -> int:
        self.hash.update(data)
        return self.fh.write(data)


def _discard(out: Outcome) -> None:
    for tmp, _final in out.pending:
        discard_pending(tmp)


def _unstage(p: Plan) -> None:
    for o in p.reused.values():
        _discard(o)
    p.reused.clear()
    p.digests.clear()


def parse_result_file(data: bytes, keep: set[str] | None,
                      path: Path) -> tuple[list[str], dict[str, dict[str, float | None]], dict[str, float | None]]:
    """A result file (docs/formats.md §9.2.1) back into measures, per-topic values and averages as
    the engine holds them once it has written the file (``keep`` as :func:`inexeval.engine.evaluate`:
    None every value, an empty set no per-topic value, else those measures' for every topic)."""
    measures: list[str] = []
    average: dict[str, float | None] = {}
    per_topic: dict[str, dict[str, float | None]] | None = None
    try:
        lines = data.decode("utf-8").split("\n")
        if lines.pop() != "":
            raise ValueError("no final newline")
        size = 0  # lines per measure: one per topic, then the average (the first block tells)
        while size < len(lines) and lines[size].split("\t", 1)[0] == lines[0].split("\t", 1)[0]:
            size += 1
        if size == 0 or len(lines) % size:
            raise ValueError("not blocks of one measure's lines")
        for i in range(0, len(lines), size):
            m = lines[i].split("\t", 1)[0]
            last = lines[i + size - 1].split("\t")
            if len(last) != 3 or last[:2] != [m, "all"] or (i + size < len(lines) and
                                                            lines[i + size].startswith(m + "\t")):
                raise ValueError(f"lines {i + 1}-{i + size}: not a block of {m!r} ending with its average")
            measures.append(m)
            average[m] = None if last[2] == "-" else float(last[2])
            if per_topic is None or keep is None or m in keep:
                block = [line.split("\t") for line in lines[i:i + size - 1]]
                if any(len(b) != 3 or b[0] != m for b in block):
                    raise ValueError(f"lines {i + 1}-{i + size}: not a block of {m!r}")
                topics = [uncell(b[1]) for b in block]
                if per_topic is None:
                    per_topic = {t: {} for t in topics}
                elif list(per_topic) != topics:
                    raise ValueError(f"line {i + 1}: measure {m!r} has other topics")
                if keep is None or m in keep:
                    for t, b in zip(topics, block):
                        per_topic[t][m] = None if b[2] == "-" else float(b[2])
    except (ValueError, UnicodeDecodeError) as e:
        raise CacheError(f"result file {path} unreadable ({e})") from None
    return measures, (per_topic or {}) if keep is None or keep else {}, average


__all__ = ["CACHE", "Plan", "plan", "CacheError", "file_state", "parse_result_file", "RACY_NS"]
