"""The README's Makefile ("Running in cron / Makefiles") works in a fresh clone (issue 31, item 5).

The Makefile is the README's ```make block, written as it is (the README says to change only CONFIG,
RUNS, ASSESS and OUT for your own data; in a clone they name the sample, so nothing is changed) into a
fresh ``git clone`` of the repository (no ``results/`` yet), and ``make`` is run with this environment's
``inexeval`` first on PATH: it scores the sample, a second ``make`` does nothing, a changed run makes it
score again, and a run that cannot be read (inexeval's exit status 1) still gives the target.
Skipped, with the reason, where ``make`` is not installed (a failure under INEXEVAL_REQUIRE_SYSTEM_TOOLS=1;
``.ci/run`` installs it).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import time

import pytest

from conftest import require_system_tool
from test_readme_commands import BIN, README, command_env, fenced_blocks, fresh_checkout


def readme_makefile(which: int = 0) -> str:
    """The README's Makefile examples: the first re-scores a config when its inputs change, the second
    splits the TREC sample by run file (``make -j``) and merges the parts."""
    blocks = [b for b in fenced_blocks(README.read_text(encoding="utf-8")) if b.lang == "make"]
    assert len(blocks) == 2, "the README has two Makefile examples"
    return "\n".join(blocks[which].lines) + "\n"


def test_the_readme_makefile_uses_tabs_and_names_the_sample():
    for which in (0, 1):
        text = readme_makefile(which)
        recipe = [line for line in text.splitlines() if line.startswith("\t")]
        assert recipe, "a recipe line starts with a tab"
        assert "mkdir -p" in text  # the shell opens the redirect before inexeval creates RESULTS_DIR


def _age(folder):
    old = time.time() - 3600
    for path in [folder, *folder.rglob("*")]:
        os.utime(path, (old, old), follow_symlinks=False)


def _make(checkout, env, *args):
    return subprocess.run(["make", *args], cwd=checkout, env=env, capture_output=True, text=True, timeout=600)


@pytest.mark.slow
def test_the_readme_makefile_runs_in_a_fresh_clone(tmp_path):
    require_system_tool("make (Debian: apt-get install make)", shutil.which("make") is not None)
    if not shutil.which("inexeval", path=str(BIN)):
        pytest.skip(f"no inexeval in {BIN} (pip install -e '.[test]')")
    checkout = fresh_checkout(tmp_path / "clone")
    assert not (checkout / "results").exists()
    (checkout / "Makefile").write_text(readme_makefile(), encoding="utf-8")
    home = tmp_path / "home"
    home.mkdir()
    env = command_env(home)

    first = _make(checkout, env)
    assert first.returncode == 0, first.stdout + first.stderr
    assert "Traceback" not in first.stderr
    summary = checkout / "results" / "CO.Focussed" / "summary.tsv"
    table = checkout / "results" / "CO.Focussed.txt"
    assert summary.is_file() and table.is_file()
    assert "NearIdeal" in table.read_text(encoding="utf-8") and "MAep" in table.read_text(encoding="utf-8")

    again = _make(checkout, env, "-q")  # -q: status 0 when the target is up to date
    assert again.returncode == 0, "nothing changed: nothing to do"

    _age(checkout / "results")  # the results an hour old, so a file written now is newer
    run = checkout / "sample_data" / "inex2005" / "runs" / "CO" / "Medium.xml"
    run.touch()
    assert _make(checkout, env, "-q").returncode == 1, "a changed run makes the target out of date"
    before = summary.stat().st_mtime_ns
    second = _make(checkout, env)
    assert second.returncode == 0, second.stdout + second.stderr
    assert summary.stat().st_mtime_ns != before

    # a run inexeval cannot read: exit status 1, the others scored, and the target still made
    broken = checkout / "sample_data" / "inex2005" / "runs" / "CO" / "Broken.xml"
    broken.write_text("<inex-submission participant-id='1' run-id='Broken'", encoding="utf-8")
    _age(checkout / "results")
    third = _make(checkout, env)
    assert third.returncode == 0, third.stdout + third.stderr
    assert _make(checkout, env, "-q").returncode == 0
    assert "NearIdeal" in table.read_text(encoding="utf-8")


@pytest.mark.slow
def test_the_readme_scale_out_makefile_merges_the_parts(tmp_path):
    """make -j2 with the README's second Makefile in a fresh clone: one part per TREC sample run, merged
    by --incremental-from into the same bytes as one evaluation of all of them; nothing to do again;
    a changed run re-scores its part alone, and the merge reuses every part."""
    require_system_tool("make (Debian: apt-get install make)", shutil.which("make") is not None)
    if not shutil.which("inexeval", path=str(BIN)):
        pytest.skip(f"no inexeval in {BIN} (pip install -e '.[test]')")
    checkout = fresh_checkout(tmp_path / "clone")
    (checkout / "Makefile").write_text(readme_makefile(1), encoding="utf-8")
    home = tmp_path / "home"
    home.mkdir()
    env = command_env(home)
    first = _make(checkout, env, "-j2")
    assert first.returncode == 0, first.stdout + first.stderr
    assert "Traceback" not in first.stderr
    runs = sorted(p.stem for p in (checkout / "sample_data" / "trec" / "runs").glob("*.txt"))
    assert sorted(p.name for p in (checkout / "parts").iterdir()) == runs
    assert f"{len(runs)} run(s) unchanged, reused; 0 scored" in first.stderr
    def full_evaluation():
        done = subprocess.run([str(BIN / "inexeval"), "-config", "configs/trec.prop", "--quiet", "--results-dir",
                               str(tmp_path / "full")], cwd=checkout, env=env, capture_output=True, text=True,
                              timeout=600)
        assert done.returncode == 0, done.stderr
        return done

    full = full_evaluation()
    cache = {".inexeval-runs.json", ".inexeval-recallbase.pickle"}  # (the merge's own incremental cache)

    def files(root):
        return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*"))
                if p.is_file() and p.name not in cache}

    merged, one = files(checkout / "results" / "trec"), files(tmp_path / "full" / "trec")
    assert merged.keys() == one.keys() and merged == one  # the stamp included: compare and report reuse it
    assert (checkout / "results" / "trec.txt").read_text(encoding="utf-8") == full.stdout

    assert _make(checkout, env, "-q").returncode == 0, "nothing changed: nothing to do"
    _age(checkout)  # every file an hour old, then one run changed now
    (checkout / "sample_data" / "trec" / "runs" / "medium.txt").touch()
    second = _make(checkout, env, "-j2")
    assert second.returncode == 0, second.stdout + second.stderr
    # the part of medium alone was made again (its cache reused its unchanged content), then the merge
    assert second.stdout.count("--results-dir parts/") == 1 and "parts/medium" in second.stdout
    assert f"{len(runs)} run(s) unchanged, reused; 0 scored" in second.stderr
    full_evaluation()  # (its stamp names the run's new time)
    assert files(checkout / "results" / "trec") == files(tmp_path / "full" / "trec")
