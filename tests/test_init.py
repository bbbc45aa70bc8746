"""``inexeval init`` (inexeval/starter.py, inexeval/cli/init.py): the starter config lists every key of the
key table with the task's defaults (uncommented, they change nothing), sets the required keys, and with
--sample scores the copied sample data as the shipped config does; nothing existing is overwritten
without --force."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from inexeval import records, starter
from inexeval.cli.command import main
from inexeval.config import BOOKKEEPING_FIELDS, SCHEMA, load_config, parse_prop_text
from inexeval.tasks import TASKS

ROOT = Path(__file__).resolve().parent.parent


def invoke(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def _fields(config, root: Path) -> dict:
    """A Config's key-filled fields, paths relative to ``root`` (to compare configs in two places)."""
    out = {}
    for f in records.fields(config):
        if f.name in BOOKKEEPING_FIELDS:
            continue
        v = getattr(config, f.name)
        if f.name in ("assessments", "runs"):
            v = sorted(Path(i.path).relative_to(root).as_posix() for i in v)
        elif f.name in ("results_dir", "collection_dir") and v is not None:
            v = Path(v).relative_to(root).as_posix()
        out[f.name] = v
    return out


def test_init_writes_the_config_and_says_so(tmp_path):
    res = invoke("init", tmp_path / "new")
    assert res.exit_code == 0, res.output
    path = tmp_path / "new" / "CO.Thorough.prop"
    assert res.stdout.splitlines()[0] == f"wrote {path}"
    assert "set ASSESSMENTS_DIR and SUBMISSIONRUNS_DIR" in res.stdout
    text = path.read_text()
    set_keys = [k for k, _, _ in parse_prop_text(text, str(path))]
    assert set_keys == ["TASK", "ASSESSMENTS_DIR", "SUBMISSIONRUNS_DIR"]
    assert not (tmp_path / "new" / "sample_data").exists()
    # pointed at data with --set, it evaluates
    runs = ROOT / "sample_data" / "inex2005" / "runs" / "CO"
    ev = invoke("-config", path, "--set", f"ASSESSMENTS_DIR={ROOT}/sample_data/inex2005/assessments/CO+S/*/",
                "--set", f"SUBMISSIONRUNS_DIR={runs}", "--quiet", "--jobs", "1")
    assert ev.exit_code == 0 and "== CO.Thorough  gen_off ==" in ev.stdout
    # before that, the placeholders are reported with the file and line
    ev = invoke("-config", path)
    line = text.splitlines().index("ASSESSMENTS_DIR: assessments/") + 1
    assert ev.exit_code == 2 and f"{path}:{line}:" in ev.stderr


@pytest.mark.parametrize("task", list(TASKS))
def test_every_key_is_listed_and_the_defaults_change_nothing(tmp_path, task):
    """Each key of the table appears once, set or commented; uncommenting every default shown gives the
    same config; the sample's keys give the shipped sample config's values."""
    t = TASKS[task]
    written = starter.init(tmp_path, task, sample=True)
    text = written.config.read_text()
    for key in SCHEMA:
        assert len(re.findall(rf"^#?{key.name}:", text, re.M)) == 1, key.name
        assert f"## {key.name}" in text
    plain = load_config(written.config)
    shipped = load_config(starter.sample_config(t))
    assert _fields(plain, tmp_path) == _fields(shipped, ROOT)
    uncommented = tmp_path / "all.prop"
    uncommented.write_text(re.sub(r"^#([A-Z_]+: \S.*)$", r"\1", text, flags=re.M))
    every = load_config(uncommented)
    assert _fields(every, tmp_path) == _fields(plain, tmp_path)
    assert len(every.key_lines) > len(plain.key_lines)  # the defaults were read, not skipped


def test_sample_config_evaluates_from_any_directory(tmp_path, monkeypatch):
    res = invoke("init", "--task", "trec", "--sample", tmp_path / "t")
    assert res.exit_code == 0, res.output
    assert res.stdout.splitlines()[-1] == f"next: inexeval -config {tmp_path / 't' / 'trec.prop'}"
    monkeypatch.chdir(tmp_path)
    ev = invoke("-config", tmp_path / "t" / "trec.prop", "--jobs", "1", "--format", "tsv")
    assert ev.exit_code == 0, ev.output
    assert (tmp_path / "t" / "results" / "trec" / "summary.tsv").is_file()


def test_nothing_is_overwritten_without_force(tmp_path):
    assert invoke("init", "--sample", tmp_path).exit_code == 0
    config = tmp_path / "CO.Thorough.prop"
    config.write_text("# mine\n")
    res = invoke("init", tmp_path)
    assert res.exit_code == 2 and f"{config} already exists; nothing written (--force replaces them)" in res.stderr
    assert config.read_text() == "# mine\n"
    # another task beside it: the sample data already there is the same, so it is kept, not a clash
    assert invoke("init", "--task", "FOL.Focused", "--sample", tmp_path).exit_code == 0
    assert (tmp_path / "FOL.Focused.prop").is_file()
    # a changed sample file is a clash: nothing written, not even the new config
    poor = tmp_path / "sample_data" / "inex2005" / "runs" / "CO" / "Poor.xml"
    poor.write_text("changed")
    res = invoke("init", "--task", "trec", "--sample", tmp_path)
    assert res.exit_code == 2 and f"{poor} already exists" in res.stderr
    assert not (tmp_path / "trec.prop").exists() and poor.read_text() == "changed"
    res = invoke("init", "--sample", "--force", tmp_path)
    assert res.exit_code == 0
    assert config.read_text().startswith("# inexeval starter config for CO.Thorough")
    assert poor.read_bytes() == (ROOT / "sample_data" / "inex2005" / "runs" / "CO" / "Poor.xml").read_bytes()


def test_bad_task_and_task_without_sample_data(tmp_path, monkeypatch):
    res = invoke("init", "--task", "CO.Thorogh", tmp_path)
    assert res.exit_code == 2 and "--task: unknown task 'CO.Thorogh'; did you mean CO.Thorough?" in res.stderr
    assert not list(tmp_path.iterdir())
    data = tmp_path / "data"
    (data / "configs").mkdir(parents=True)
    (data / "sample_data").mkdir()
    (data / "configs" / "trec.prop").write_text((ROOT / "configs" / "trec.prop").read_text())
    monkeypatch.setattr(starter, "data_root", lambda: data)
    res = invoke("init", "--task", "BestInContext", "--sample", tmp_path / "out")
    assert res.exit_code == 2
    assert "--task: no sample data for task BestInContext; tasks with sample data: trec" in res.stderr
    assert not (tmp_path / "out").exists()


def test_unwritable_directory_is_an_error_not_a_traceback(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("")
    res = invoke("init", blocker / "sub")
    assert res.exit_code == 2 and "Traceback" not in res.output
    assert res.stderr.startswith("inexeval: error: ") and str(blocker) in res.stderr


def _init_with_file_size_limit(args, limit: int, cwd: Path):
    """``inexeval init ARGS`` in a process that may write no file beyond ``limit`` bytes (RLIMIT_FSIZE:
    a write past it fails with EFBIG, as a full disk fails with ENOSPC; Python ignores SIGXFSZ)."""
    import resource
    import subprocess
    import sys

    def limited():
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return subprocess.run([sys.executable, "-m", "inexeval", "init", *map(str, args)], cwd=cwd,
                          capture_output=True, text=True, preexec_fn=limited)


@pytest.mark.parametrize("where", ["new", "existing"])
def test_a_full_disk_is_one_line_and_leaves_nothing_half_written(tmp_path, where):
    """The sample data holds files larger than the limit: init fails with one line naming the file it
    could not write, leaves no folder or file behind (a new directory is removed, an existing one is as it
    was), and a retry without the limit then succeeds."""
    largest = max(p.stat().st_size for p in (ROOT / "sample_data").rglob("*") if p.is_file())
    out = tmp_path / "try"
    if where == "existing":
        out.mkdir()
        (out / "mine.txt").write_text("keep")
    res = _init_with_file_size_limit(["--sample", out], largest // 2, tmp_path)
    assert res.returncode == 2, res.stderr
    lines = res.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("inexeval: error: ") and "Traceback" not in res.stderr
    assert "File too large; nothing written" in lines[0] and f"{out}/" in lines[0]
    assert len(lines[0]) < 400
    if where == "new":
        assert not out.exists()
    else:
        assert sorted(p.name for p in out.iterdir()) == ["mine.txt"]
    retry = invoke("init", "--sample", out)
    assert retry.exit_code == 0, retry.output
    assert (out / "CO.Thorough.prop").is_file()
    assert sorted(p.relative_to(out / "sample_data") for p in (out / "sample_data").rglob("*")) == sorted(
        p.relative_to(ROOT / "sample_data") for p in (ROOT / "sample_data").rglob("*")
        if "__pycache__" not in p.parts)


def test_a_full_disk_while_writing_the_config_leaves_nothing(tmp_path, monkeypatch):
    """The sample data fits but the config does not: no sample_data/ and no temporary file is left."""
    import errno

    def full(path, text):
        raise OSError(errno.ENOSPC, "No space left on device", str(path))

    monkeypatch.setattr(starter, "_written_aside", full)
    out = tmp_path / "try"
    res = invoke("init", "--sample", out)
    assert res.exit_code == 2
    assert res.stderr == f"inexeval: error: {out / 'CO.Thorough.prop'}: cannot write: No space left on device; nothing written\n"
    assert not out.exists()
