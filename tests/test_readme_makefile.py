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


def readme_makefile() -> str:
    blocks = [b for b in fenced_blocks(README.read_text(encoding="utf-8")) if b.lang == "make"]
    assert len(blocks) == 1, "the README has one Makefile example"
    return "\n".join(blocks[0].lines) + "\n"


def test_the_readme_makefile_uses_tabs_and_names_the_sample():
    text = readme_makefile()
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
