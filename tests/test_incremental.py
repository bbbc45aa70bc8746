"""--incremental (docs/formats.md §9.2.8): after each kind of change, an incremental evaluation
writes the same bytes (every file of RESULTS_DIR/<TASK>, standard output) as a full evaluation of
the same inputs into an empty directory, and says on standard error what it reused and why."""

from __future__ import annotations

import gzip
import json
import os
import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

import inexeval
import inexeval.stamp
from inexeval import incremental
from inexeval.cli.command import main

pytestmark = pytest.mark.slow  # --incremental against full evaluations, every cache field tampered

ROOT = Path(__file__).resolve().parent.parent

#: config -> (runs dir, an assessment file, a config line that changes the numbers), under sample_data/
TASKS = {
    "co-focussed": ("inex2005/runs/CO", "inex2005/assessments/CO+S/main/pool-263.xml", "QUANT_FUNCTIONS: strict"),
    "co-thorough": ("inex2005/runs/CO", "inex2005/assessments/CO+S/main/pool-263.xml", "ALPHA: 0.5"),
    "co-fetchbrowse": ("inex2005/runs/CO", "inex2005/assessments/CO+S/main/pool-263.xml", "ALPHA: 0.5"),
    "hixeval": ("inex2005/runs/CO", "inex2005/assessments/CO+S/main/pool-263.xml", "DCV: 5"),
    "thorough-2006": ("inex2006/runs/Thorough", "inex2006/assessments/main/pool-1024.xml", "QUANT_FUNCTIONS: strict"),
    "best-in-context": ("inex2006/runs/BestInContext", "inex2006/assessments/main/pool-1024.xml", "BEP_A: 1"),
    "relevant-in-context": ("inex2006/runs/RelevantInContext", "inex2006/assessments/main/pool-1024.xml", "DCV: 5"),
    "fol-focused": ("inex2009-2010/runs/original", "inex2009-2010/qrels.txt.gz", "TOPICS: 2009001"),
    "fol-best-in-context": ("inex2009-2010/runs/bic", "inex2009-2010/qrels.txt.gz", "BEP_DISTANCE: 100"),
    "fol-relevant-in-context": ("inex2009-2010/runs/blockgrouped", "inex2009-2010/qrels.txt.gz", "F_BETA: 0.5"),
    "trec": ("trec/runs", "trec/qrels.txt", "REL_LEVEL: 2"),
}
#: the tasks that go through every kind of change (the others: the common ones)
FULL = ("co-focussed", "best-in-context", "fol-focused", "trec")


@pytest.fixture
def ws(tmp_path):
    """A copy of configs/ and sample_data/ that the tests may edit."""
    shutil.copytree(ROOT / "configs", tmp_path / "configs")
    shutil.copytree(ROOT / "sample_data", tmp_path / "sample_data")
    return tmp_path


def invoke(ws: Path, name: str, results: Path, *flags: str):
    res = CliRunner().invoke(main, ["-config", str(ws / "configs" / f"{name}.prop"), "--results-dir", str(results),
                                    *(() if "--jobs" in flags else ("--jobs", "1")), *flags],
                            catch_exceptions=False)
    return res.exit_code, res.stdout, res.stderr


def files(results: Path) -> dict[str, bytes]:
    """Every file under RESULTS (hidden ones included) but the cache, by relative path."""
    return {p.relative_to(results).as_posix(): p.read_bytes() for p in sorted(results.rglob("*"))
            if p.is_file() and p.name not in (incremental.CACHE, incremental.RECALL)}


def check(ws: Path, name: str, inc: Path, tmp: Path, *flags: str) -> tuple[str, dict[str, bytes]]:
    """An incremental evaluation into INC and a full one into a new directory: the same exit status,
    standard output and files.  Returns the incremental one's standard error and the files."""
    code, out, err = invoke(ws, name, inc, "--incremental", *flags)
    full = tmp / f"full-{len(list(tmp.glob('full-*')))}"
    code_f, out_f, _ = invoke(ws, name, full, *flags)
    assert (code, out) == (code_f, out_f)
    got, want = files(inc), files(full)
    assert sorted(got) == sorted(want)
    for k in want:
        assert got[k] == want[k], f"{k} differs from a full evaluation's"
    assert [p.name for p in inc.glob(f"*/{incremental.CACHE}")] == [incremental.CACHE]
    return err, want


def reuse_lines(err: str) -> list[str]:
    return [line for line in err.splitlines() if line.startswith(incremental.PREFIX)]


# ------------------------------------------------------------------ editing inputs

def read_text(p: Path) -> str:
    data = p.read_bytes()
    return (gzip.decompress(data) if p.suffix == ".gz" else data).decode("utf-8")


def write_text(p: Path, text: str) -> None:
    data = text.encode("utf-8")
    p.write_bytes(gzip.compress(data, mtime=0) if p.suffix == ".gz" else data)


def edit_run(p: Path) -> None:
    """One result fewer (the first)."""
    text = read_text(p)
    if text.lstrip().startswith("<"):
        new = re.sub(r"<result>.*?</result>\s*", "", text, count=1, flags=re.S)
    else:
        lines = text.splitlines(keepends=True)
        new = "".join(lines[1:])
    assert new != text
    write_text(p, new)


def set_run_id(p: Path, run_id: str) -> None:
    text = read_text(p)
    if text.lstrip().startswith("<"):
        new = re.sub(r'run-id="[^"]*"', f'run-id="{run_id}"', text, count=1)
    else:
        new = "".join(" ".join([*f[:5], run_id, *f[6:]]) + "\n" for f in (line.split() for line in text.splitlines()))
    assert new != text
    write_text(p, new)


def edit_assessments(p: Path) -> None:
    """One assessed document fewer (XML) or one judgement fewer (qrels)."""
    text = read_text(p)
    if text.lstrip().startswith("<"):
        new = re.sub(r"<file .*?</file>\s*", "", text, count=1, flags=re.S)
    else:
        new = "".join(text.splitlines(keepends=True)[1:])
    assert new != text
    write_text(p, new)


def set_key(config: Path, line: str) -> None:
    key = line.split(":")[0]
    text = config.read_text()
    if re.search(rf"^{key}\s*:", text, flags=re.M):
        text = re.sub(rf"^{key}\s*:.*$", line, text, flags=re.M)
    else:
        text += line + "\n"
    config.write_text(text)


def summary(fs: dict[str, bytes]) -> bytes:
    return b"".join(v for k, v in sorted(fs.items()) if k.endswith("summary.tsv"))


# ------------------------------------------------------------------ every kind of change

@pytest.mark.parametrize("name", list(TASKS))
def test_each_change_gives_a_full_evaluations_bytes(ws, tmp_path, name):
    runs_dir, assessment, numbers_line = TASKS[name]
    runs_dir, assessment = ws / "sample_data" / runs_dir, ws / "sample_data" / assessment
    config = ws / "configs" / f"{name}.prop"
    inc = tmp_path / "inc"
    runs = sorted(p for p in runs_dir.iterdir() if p.is_file())
    n = len(runs)

    err, before = check(ws, name, inc, tmp_path)  # no cache yet
    assert "full evaluation: no cache" in err

    err, same = check(ws, name, inc, tmp_path)  # nothing changed
    assert f"{n} run(s) unchanged, reused; 0 scored; 0 removed" in err
    assert same == before

    edit_run(runs[0])  # a run edited
    err, after = check(ws, name, inc, tmp_path)
    assert f"{n - 1} run(s) unchanged, reused; 1 scored" in err
    assert re.search(rf"1 run\(s\) edited, re-scored: .*{re.escape(runs[0].name)}", err)
    assert summary(after) != summary(before), "the edit must change some number (else the test proves nothing)"

    added = runs_dir / f"added{''.join(runs[-1].suffixes)}"  # a run added
    shutil.copy(runs[-1], added)
    set_run_id(added, "added")
    err, _ = check(ws, name, inc, tmp_path, "-q")
    assert re.search(rf"1 run\(s\) added.*: .*{re.escape(added.name)}", err)
    assert f"{n} run(s) unchanged, reused; 1 scored" in err

    edit_assessments(assessment)  # assessments edited: everything again
    err, after = check(ws, name, inc, tmp_path)
    assert "full evaluation: assessments changed (edited: " in err and assessment.name in err
    assert len(reuse_lines(err)) == 1
    before, _ = after, None
    if name not in FULL:
        return

    added.unlink()  # a run removed
    err, _ = check(ws, name, inc, tmp_path, "--jobs", "2")
    assert re.search(rf"1 run\(s\) removed: .*{re.escape(added.name)}", err)
    assert f"{n} run(s) unchanged, reused; 0 scored; 1 removed" in err

    renamed = runs[1].with_name("renamed-" + runs[1].name)  # a run file renamed
    runs[1].rename(renamed)
    err, _ = check(ws, name, inc, tmp_path)
    assert re.search(rf"1 run\(s\) renamed, re-scored.*{re.escape(runs[1].name)} -> .*{re.escape(renamed.name)}", err)
    assert f"{n - 1} run(s) unchanged, reused; 1 scored; 0 removed" in err

    set_run_id(renamed, "another-id")  # the run id changed inside a file
    err, after = check(ws, name, inc, tmp_path, "-q", "--format", "tsv")
    assert re.search(rf"1 run\(s\) edited, re-scored: .*{re.escape(renamed.name)}", err)
    assert (b"another-id" in summary(after)) != name.startswith("fol")  # (FOL text runs: the file name is the id)

    set_key(config, numbers_line)  # a config setting that changes numbers: everything again
    err, after = check(ws, name, inc, tmp_path)
    key = numbers_line.split(":")[0]
    assert f"full evaluation: config changed ({key}): every run re-scored" in err
    assert summary(after) != summary(before)

    with config.open("a") as fh:  # a comment, and other output options only: everything reused
        fh.write("# a comment changes no number\n")
    flags = ("--format", "trec_eval", "-q") if name == "trec" else \
        ("--format", "inex_eval") if name.startswith("fol") else ("-q", "-gnu", "--format", "csv")
    err, _ = check(ws, name, inc, tmp_path, *flags)
    assert f"{n} run(s) unchanged, reused; 0 scored; 0 removed" in err

    err, _ = check(ws, name, inc, tmp_path, "-e")  # -e: everything again
    assert "full evaluation: -e changed" in err


def test_version_change_rescores_everything(ws, tmp_path, monkeypatch):
    inc = tmp_path / "inc"
    check(ws, "co-thorough", inc, tmp_path)
    import inexeval._version

    monkeypatch.setattr(inexeval._version, "__version__", "99.0")  # (the one place it is written)
    monkeypatch.setattr(inexeval.stamp, "__version__", "99.0")
    err, _ = check(ws, "co-thorough", inc, tmp_path)
    assert "full evaluation: inexeval version changed (0.1.0 -> 99.0): every run re-scored" in err
    assert len(reuse_lines(err)) == 1
    err, _ = check(ws, "co-thorough", inc, tmp_path)
    assert "4 run(s) unchanged, reused" in err


def test_reuse_report_is_not_silenced_by_quiet(ws, tmp_path):
    inc = tmp_path / "inc"
    check(ws, "trec", inc, tmp_path, "--quiet")
    err, _ = check(ws, "trec", inc, tmp_path, "--quiet")
    assert reuse_lines(err) == [f"{incremental.PREFIX} 3 run(s) unchanged, reused; 0 scored; 0 removed"]
    assert "warning" not in err


def test_api_option(ws, tmp_path):
    from inexeval.api import EvalOptions, run_evaluation

    cfg = ws / "configs" / "co-focussed.prop"
    opts = EvalOptions(incremental=True, results_dir=str(tmp_path / "inc"), keep_per_topic=True)
    ev1, _ = run_evaluation(cfg, opts)
    ev2, _ = run_evaluation(cfg, opts)
    assert "full evaluation" in ev1.incremental[0] and "4 run(s) unchanged, reused" in ev2.incremental[0]
    assert [(r.run_id, r.setting, r.measures, r.per_topic, r.average, r.source, r.file_name) for r in ev1.results] \
        == [(r.run_id, r.setting, r.measures, r.per_topic, r.average, r.source, r.file_name) for r in ev2.results]
    assert ev1.warnings == ev2.warnings


# ------------------------------------------------------------------ what cannot be proven: a full evaluation

def _cache(inc: Path, task: str) -> Path:
    return inc / task / incremental.CACHE


def _edit_cache(inc: Path, change, reseal: bool = True, task: str = "CO.Thorough") -> None:
    """CHANGE the cache; RESEAL: and its seal with it (as a forger would: the checks behind the seal)."""
    cache = json.loads(_cache(inc, task).read_text())
    change(cache)
    if reseal:
        cache["seal"] = incremental.seal(cache)
    _cache(inc, task).write_text(json.dumps(cache))


@pytest.mark.parametrize("damage, message", [
    (lambda inc: _cache(inc, "CO.Thorough").write_bytes(_cache(inc, "CO.Thorough").read_bytes()[:500]),
     "cache unreadable"),
    (lambda inc: _cache(inc, "CO.Thorough").write_text("[]"), "cache of another format"),
    (lambda inc: _cache(inc, "CO.Thorough").unlink(), "no cache of an earlier incremental evaluation"),
    (lambda inc: (inc / "CO.Thorough" / inexeval.stamp.STAMP).unlink(), "the stamp"),
    (lambda inc: (inc / "CO.Thorough" / "gen_off" / "Poor.tsv").write_text("nxCG@10\tall\t0.5\n"),
     "is not the one the cache describes"),
    (lambda inc: (inc / "CO.Thorough" / "gen_off" / "Poor.tsv").unlink(), "unreadable"),
    (lambda inc: _edit_cache(inc, lambda c: c["runs"][0]["outcome"]["results"][0].update(file="../../evil.tsv")),
     "cache unreadable (result file '../../evil.tsv'"),
    (lambda inc: _edit_cache(inc, lambda c: c["runs"].append({"path": "x"})), "cache unreadable"),
    (lambda inc: _edit_cache(inc, lambda c: c["runs"][1]["outcome"].update(results=None)), "cache unreadable"),
])
def test_damaged_cache_gives_a_full_evaluation(ws, tmp_path, damage, message):
    inc = tmp_path / "inc"
    check(ws, "co-thorough", inc, tmp_path)
    damage(inc)
    err, _ = check(ws, "co-thorough", inc, tmp_path)
    lines = reuse_lines(err)
    assert len(lines) == 1 and "full evaluation" in lines[0] and message in lines[0], lines
    assert not list((inc).glob(".*staging*"))


def test_odd_recorded_state_is_hashed_again(ws, tmp_path):
    """A recorded state that does not make sense: the file is hashed, and scored as edited."""
    inc = tmp_path / "inc"
    check(ws, "co-thorough", inc, tmp_path)
    _edit_cache(inc, lambda c: c["runs"][2]["state"].update(checked_ns="soon", sha256=None))
    err, _ = check(ws, "co-thorough", inc, tmp_path)
    assert "3 run(s) unchanged, reused; 1 scored" in err and "1 run(s) edited, re-scored" in err


def test_cache_of_another_evaluation_is_not_used(ws, tmp_path):
    """A task directory with the cache of another evaluation of it (here: with -e): the stamp differs."""
    inc, other = tmp_path / "inc", tmp_path / "other"
    check(ws, "co-thorough", inc, tmp_path)
    check(ws, "co-thorough", other, tmp_path, "-e")
    shutil.copy(_cache(other, "CO.Thorough"), _cache(inc, "CO.Thorough"))
    err, _ = check(ws, "co-thorough", inc, tmp_path)
    assert "not those the cache describes (stamp changed)" in err


def test_interrupted_incremental_evaluation_leaves_the_previous_set(ws, tmp_path, monkeypatch):
    inc = tmp_path / "inc"
    _, first = check(ws, "co-thorough", inc, tmp_path)
    cache = _cache(inc, "CO.Thorough").read_bytes()

    def interrupted(self, root):
        raise KeyboardInterrupt

    edit_run(ws / "sample_data/inex2005/runs/CO/Poor.xml")
    with monkeypatch.context() as m:
        m.setattr(incremental.Plan, "write", interrupted)
        code, _, err = invoke(ws, "co-thorough", inc, "--incremental")
    assert code == 130
    assert files(inc) == first and _cache(inc, "CO.Thorough").read_bytes() == cache
    err, _ = check(ws, "co-thorough", inc, tmp_path)
    assert "3 run(s) unchanged, reused; 1 scored" in err


def test_duplicate_run_ids_stay_as_a_full_evaluation_has_them(ws, tmp_path):
    """A run whose id another run already has is skipped (exit 1), not cached, and scored again."""
    inc = tmp_path / "inc"
    runs = ws / "sample_data/inex2005/runs/CO"
    shutil.copy(runs / "Poor.xml", runs / "Poor2.xml")
    check(ws, "co-thorough", inc, tmp_path)
    err, _ = check(ws, "co-thorough", inc, tmp_path)
    assert "4 run(s) unchanged, reused; 1 scored" in err
    assert re.search(r"1 run\(s\) added \(or not cached.*Poor2.xml", err)
    set_run_id(runs / "Poor2.xml", "Poor2")
    err, _ = check(ws, "co-thorough", inc, tmp_path)
    assert "4 run(s) unchanged, reused; 1 scored" in err


# ------------------------------------------------------------------ hashing and the stat shortcut

def test_stat_shortcut(tmp_path, monkeypatch):
    p = tmp_path / "run.txt"
    p.write_text("1 Q0 d 1 1.0 x\n")
    first = incremental.file_state(p)
    assert first["sha256"] and first["stat"]
    # just written: its times are within RACY_NS of the hashing, so it is hashed again
    again = incremental.file_state(p, {**first, "sha256": "stale"})
    assert again["sha256"] == first["sha256"]
    monkeypatch.setattr(incremental, "RACY_NS", -10**15)  # as if hashed long after it was written
    assert incremental.file_state(p, {**first, "sha256": "recorded"})["sha256"] == "recorded"
    st = os.stat(p)
    p.write_text("1 Q0 e 1 1.0 x\n")  # same size, modification time set back: the ctime still moves
    os.utime(p, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert incremental.file_state(p, {**first, "sha256": "recorded"})["sha256"] != first["sha256"]
    assert incremental.file_state(tmp_path) is None


def test_result_file_round_trip(tmp_path):
    from inexeval.model import RunResult
    from inexeval.writers.files import run_file_text

    r = RunResult("x", "default", ["a", "b"], {"all": {"a": 0.1, "b": None}, "2": {"a": float("nan"), "b": -0.0},
                                               "10": {"a": 1e-300, "b": 2.0}},
                  {"a": 1 / 3, "b": None})
    data = run_file_text(r).encode()
    measures, per_topic, average = incremental.parse_result_file(data, None, tmp_path)
    assert measures == ["a", "b"] and list(per_topic) == ["2", "10", "all"]
    assert repr(per_topic) == repr({t: r.per_topic[t] for t in ("2", "10", "all")}) and average == r.average
    assert incremental.parse_result_file(data, set(), tmp_path)[1] == {}
    assert incremental.parse_result_file(data, {"b"}, tmp_path)[1] == {"2": {"b": -0.0}, "10": {"b": 2.0},
                                                                      "all": {"b": None}}
    with pytest.raises(incremental.CacheError):
        incremental.parse_result_file(data[:-5], None, tmp_path)
    assert json.loads(json.dumps(1 / 3)) == 1 / 3


# ------------------------------------------------------------------ the pickled recall-base

def test_recall_base_is_reused_and_checked(ws, tmp_path, monkeypatch):
    """With the assessments unchanged the prepared recall-base is read back, not the assessments; a
    pickle that is not the one recorded, or that others may write, is not loaded (the assessments are
    read again, the outputs are the same)."""
    from inexeval.inputs import ElementInputs

    inc = tmp_path / "inc"
    check(ws, "co-focussed", inc, tmp_path)
    edit_run(ws / "sample_data/inex2005/runs/CO/Poor.xml")

    def no_reading(*args, **kwargs):
        raise AssertionError("assessments read")

    with monkeypatch.context() as m:
        m.setattr(ElementInputs, "load", no_reading)
        code, out, err = invoke(ws, "co-focussed", inc, "--incremental", "-q")
    assert code == 0 and "3 run(s) unchanged, reused; 1 scored" in err
    code_f, out_f, _ = invoke(ws, "co-focussed", tmp_path / "full", "-q")
    assert (code, out) == (code_f, out_f) and files(inc) == files(tmp_path / "full")

    pickled = inc / "CO.Focussed" / incremental.RECALL
    pickled.write_bytes(pickled.read_bytes() + b"\0")
    edit_run(ws / "sample_data/inex2005/runs/CO/Poor.xml")
    err, _ = check(ws, "co-focussed", inc, tmp_path)
    assert "recall-base cache not used (" in err and "is not the one the cache describes" in err
    assert "3 run(s) unchanged, reused; 1 scored" in err

    pickled.chmod(0o664)
    err, _ = check(ws, "co-focussed", inc, tmp_path)
    assert "is not this user's own file (or others may write it)" in err
    assert "4 run(s) unchanged, reused; 0 scored" in err


def test_no_run_left_leaves_nothing_of_the_cache(ws, tmp_path):
    """Every run unreadable: no result, so no stamp and no cache; the staged earlier pickle is not left behind."""
    inc = tmp_path / "inc"
    check(ws, "co-thorough", inc, tmp_path)
    for run in (ws / "sample_data/inex2005/runs/CO").iterdir():
        run.write_text("not a run\n")
    code, out, err = invoke(ws, "co-thorough", inc, "--incremental")
    code_f, out_f, _ = invoke(ws, "co-thorough", tmp_path / "full", "--incremental")
    assert code == code_f == 1 and out == out_f
    assert files(inc) == files(tmp_path / "full")
    assert not [p for p in inc.rglob("*") if p.is_file()]


def test_run_from_standard_input_is_always_scored(ws, tmp_path):
    runs = ws / "sample_data/inex2005/runs/CO"
    stdin = (runs / "Poor.xml").read_bytes().replace(b'run-id="Poor"', b'run-id="FromStdin"')
    args = ["-config", str(ws / "configs/co-thorough.prop"), "--jobs", "2",
            "--set", f"SUBMISSIONRUNS_DIR={runs / 'Medium.xml'},{runs / 'NearIdeal.xml'},-"]

    def run(results, *flags):
        res = CliRunner().invoke(main, [*args, "--results-dir", str(results), *flags], input=stdin,
                                 catch_exceptions=False)
        return res.exit_code, res.stdout, res.stderr

    run(tmp_path / "inc", "--incremental")
    code, out, err = run(tmp_path / "inc", "--incremental")
    assert "2 run(s) unchanged, reused; 1 scored" in err
    assert "1 run(s) not comparable (read from standard input), scored: -" in err
    assert (code, out) == run(tmp_path / "full")[:2]
    assert files(tmp_path / "inc") == files(tmp_path / "full")
    assert b"FromStdin" in files(tmp_path / "full")["CO.Thorough/summary.tsv"]


# ------------------------------------------------------------------ nothing reused on the cache's word

def _leaves(obj, path=()):
    """(path, value) of every leaf of a JSON value (an empty list or object is a leaf)."""
    if isinstance(obj, dict) and obj:
        for k, v in obj.items():
            yield from _leaves(v, (*path, k))
    elif isinstance(obj, list) and obj:
        for i, v in enumerate(obj):
            yield from _leaves(v, (*path, i))
    else:
        yield path, obj


def _kind(path) -> tuple:
    """The field a leaf is an instance of: list indices and config keys as '*'."""
    return tuple("*" if isinstance(p, int) or (i == 1 and path[0] == "config") else p for i, p in enumerate(path))


def _forged(v):
    if isinstance(v, bool):
        return not v
    if isinstance(v, int):
        return v + 1
    if isinstance(v, float):
        return v * 1.5 + 0.125
    if isinstance(v, str):
        return v[:-1] + ("0" if v[-1:] != "0" else "1") if len(v) == 64 else v + "x"
    if v is None:
        return 1
    return ["forged"] if isinstance(v, list) else {"gen_off": ["202"], "default": ["1"]}


def _set(obj, path, value) -> None:
    for p in path[:-1]:
        obj = obj[p]
    obj[path[-1]] = value


#: what the cache alone says (no result file or stamp holds it): protected by the seal only, so a forger
#: who seals what they wrote is believed on these (the run id's line and its source, in messages; and a
#: warning or a topic with nothing relevant taken out, not one added: those must be the stamp's); every
#: other field is checked or derived
SEALED_ONLY = {("runs", "*", "outcome", f) for f in ("run_id_line", "source")}


@pytest.mark.parametrize("name, task", [("trec", "trec"), ("co-thorough", "CO.Thorough")])
def test_every_cached_field_tampered_gives_a_full_evaluations_bytes(ws, tmp_path, name, task):
    """Each field of the cache edited by hand: the cache is refused (its seal), the outputs are a full
    evaluation's, byte for byte, and the reuse report says so.  Edited and sealed again (a forger):
    the result files, the stamp and the run files still decide (the outputs are a full evaluation's),
    but for the few fields that only the cache holds (SEALED_ONLY)."""
    pristine, full = tmp_path / "pristine", tmp_path / "full"
    invoke(ws, name, pristine, "--incremental")
    code_f, out_f, err_f = invoke(ws, name, full)
    want = files(full)
    original = json.loads(_cache(pristine, task).read_text())
    assert original["seal"] == incremental.seal(original)
    kinds = {}
    for path, value in _leaves(original):
        if path[0] != "seal":
            kinds.setdefault(_kind(path), (path, value))
    assert ("runs", "*", "outcome", "results", "*", "sha256") in kinds and ("stamp",) in kinds
    assert not {k for k in kinds if k[-1] in ("average", "measures", "run_id")}, "numbers and ids are not cached"
    believed = []
    for kind, (path, value) in sorted(kinds.items(), key=repr):
        for reseal in (False, True):
            inc = tmp_path / f"inc-{len(list(tmp_path.glob('inc-*')))}"
            shutil.copytree(pristine, inc)
            _edit_cache(inc, lambda c: _set(c, path, _forged(value)), reseal=reseal, task=task)
            code, out, err = invoke(ws, name, inc, "--incremental")
            same = (code, out, [x for x in err.splitlines() if not x.startswith(incremental.PREFIX)], files(inc)) \
                == (code_f, out_f, err_f.splitlines(), want)
            if not reseal:
                assert same, f"{path} edited: not a full evaluation's outputs"
                assert re.search(r"full evaluation: (the cache was changed after it was written|cache of another "
                                 r"format)", err), path
            elif not same:
                believed.append(kind)
            shutil.rmtree(inc)
    assert {k[:4] for k in believed} <= SEALED_ONLY, believed


def test_topics_with_nothing_relevant_are_reused_as_the_stamp_names_them(ws, tmp_path):
    """A topic with nothing relevant under one setting (strict: no exhaustivity 2 left): the runs are
    reused, their topics with nothing relevant checked against the stamp's warning; one added in
    the cache (sealed again) is refused."""
    pool = ws / "sample_data/inex2005/assessments/CO+S/main/pool-263.xml"
    pool.write_text(pool.read_text().replace('exhaustivity="2"', 'exhaustivity="1"'))
    inc = tmp_path / "inc"
    err, _ = check(ws, "co-thorough", inc, tmp_path)
    assert "1 topic(s) have nothing relevant under strict_off and are left out of every average: 205" in err
    undefined = [r["outcome"]["undefined"] for r in json.loads(_cache(inc, "CO.Thorough").read_text())["runs"]]
    assert {"strict_off": ["205"]} in undefined
    err, _ = check(ws, "co-thorough", inc, tmp_path)
    assert "4 run(s) unchanged, reused; 0 scored" in err

    def forged(c):
        c["runs"][0]["outcome"]["undefined"] = {"strict_off": ["205", "202"]}

    _edit_cache(inc, forged)
    err, _ = check(ws, "co-thorough", inc, tmp_path)
    assert "full evaluation: cache unreadable (the warnings of " in err


@pytest.mark.parametrize("reseal", [False, True])
def test_averages_come_from_the_checked_result_files_not_the_cache(ws, tmp_path, reseal):
    """Issue 30: an average edited in the cache was printed (the table, summary.tsv) while the result
    files held the true one.  The cache holds no average now; one written into it is not read (sealed
    again) or makes the cache refused (not sealed again): the outputs are a full evaluation's."""
    inc = tmp_path / "inc"
    check(ws, "trec", inc, tmp_path)
    entry = json.loads(_cache(inc, "trec").read_text())["runs"][0]["outcome"]["results"][0]
    assert set(entry) == {"setting", "file", "sha256"}
    _edit_cache(inc, lambda c: c["runs"][0]["outcome"]["results"][0].update(average={"map": 0.99}),
                reseal=reseal, task="trec")
    err, fs = check(ws, "trec", inc, tmp_path)
    assert b"0.99" not in summary(fs)
    assert ("3 run(s) unchanged, reused" in err) == reseal
    assert ("full evaluation: the cache was changed after it was written" in err) != reseal


@pytest.mark.parametrize("name", ["co-focussed", "fol-focused", "trec"])
def test_parts_merged_by_incremental_from(ws, tmp_path, name):
    """--incremental-from: each run file scored alone into a part (--set SUBMISSIONRUNS_DIR), then the
    parts put together: the bytes of one full evaluation, every run reused; a part of another config,
    or whose cache was edited, is named and its runs are scored again."""
    runs = sorted(p for p in (ws / "sample_data" / TASKS[name][0]).iterdir() if p.is_file())
    parts = []
    for i, run in enumerate(runs):
        parts.append(tmp_path / f"part{i}")
        code, _, err = invoke(ws, name, parts[-1], "--incremental", "--set", f"SUBMISSIONRUNS_DIR={run}")
        assert code in (0, 1), err
    full = tmp_path / "full"
    code_full, out_full, _ = invoke(ws, name, full)
    merged = tmp_path / "merged"
    code, out, err = invoke(ws, name, merged, *[a for p in parts for a in ("--incremental-from", str(p))])
    assert (code, out) == (code_full, out_full)
    assert files(merged) == files(full)
    reused = len([p for p in parts if list(p.rglob(incremental.CACHE))])
    assert f"{reused} run(s) unchanged, reused; {len(runs) - reused} scored" in err
    # a part of another config (a key that changes the numbers) and a part whose cache was edited
    set_key(ws / "configs" / f"{name}.prop", TASKS[name][2])
    other = tmp_path / "other"
    invoke(ws, name, other, "--incremental", "--set", f"SUBMISSIONRUNS_DIR={runs[0]}")
    (ws / "configs" / f"{name}.prop").write_text(read_text(ROOT / "configs" / f"{name}.prop")
                                                 .replace("../sample_data", str(ws / "sample_data")))
    cache = next(parts[-1].rglob(incremental.CACHE))
    text = cache.read_text()
    assert '"empty_as_zero":false' in text
    cache.write_text(text.replace('"empty_as_zero":false', '"empty_as_zero":true', 1))  # (not sealed again)
    code2, out2, err2 = invoke(ws, name, tmp_path / "again", "--incremental-from", str(other),
                               *[a for p in parts[1:] for a in ("--incremental-from", str(p))])
    assert (code2, out2) == (code_full, out_full)
    assert files(tmp_path / "again") == files(full)
    assert re.search(r"other/\S+ not reused: config changed", err2)
    assert re.search(rf"part{len(runs) - 1}/\S+ not reused: the cache was changed", err2)
