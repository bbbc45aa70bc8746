"""Packaging (issue 19): ``python -m build`` gives an sdist and a wheel (the wheel built from the sdist);
the wheel, installed in a fresh venv, runs ``inexeval init --sample`` and an evaluation with the data it
ships, and ``inexeval --version`` prints the version written once, in inexeval/__init__.py.

Issue 31: both carry the LICENSE (the wheel under ``.dist-info/licenses/``, named by ``License-File``
beside the SPDX ``License-Expression: MIT`` and no ``License ::`` classifier, PEP 639), the wheel has
``py.typed`` and docs/*.md (as inexeval/_data/docs/), the build prints no setuptools deprecation
warning, and the installed wheel's ``inexeval docs formats §9.2`` prints that section of its own copy.

Offline: the build uses the test environment's setuptools and wheel (``--no-isolation``; both are in the
test extra), and the venv sees this environment's dependencies through a .pth file while its own
site-packages, holding the wheel's inexeval, comes first.  Takes 15-30 s.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner

import inexeval
from inexeval.cli.command import main

ROOT = Path(__file__).resolve().parent.parent
#: what a copy of the source tree leaves out (local state, not sources)
IGNORE = shutil.ignore_patterns(".git", ".venv", "results", "build", "dist", "*.egg-info", "__pycache__",
                                ".hypothesis", ".pytest_cache", "work")


def _run(args, cwd, **kw):
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    proc = subprocess.run([str(a) for a in args], cwd=cwd, env=env, capture_output=True, text=True, timeout=300, **kw)
    assert proc.returncode == 0, f"{args}: exit {proc.returncode}\n{proc.stdout}\n{proc.stderr}"
    return proc


@pytest.mark.slow
def test_wheel_installs_and_scores_the_sample_data_in_a_fresh_venv(tmp_path):
    src = tmp_path / "src"
    shutil.copytree(ROOT, src, ignore=IGNORE)
    dist = tmp_path / "dist"
    built = _run([sys.executable, "-m", "build", "--no-isolation", "--outdir", dist, src], tmp_path)
    log = built.stdout + built.stderr
    assert "SetuptoolsDeprecationWarning" not in log and "deprecated" not in log.lower(), log
    version = inexeval.__version__
    wheel, sdist = dist / f"inexeval-{version}-py3-none-any.whl", dist / f"inexeval-{version}.tar.gz"
    assert sorted(p.name for p in dist.iterdir()) == sorted([wheel.name, sdist.name])

    with tarfile.open(sdist) as tar:
        names = {n.split("/", 1)[1] for n in tar.getnames() if "/" in n}
    docs = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "docs").glob("*.md"))
    assert {"setup.py", "MANIFEST.in", "LICENSE", "inexeval/py.typed", "configs/co-thorough.prop",
            "sample_data/inex2005/runs/CO/Poor.xml", *docs} <= names
    shipped = sorted([*(p.relative_to(ROOT).as_posix() for d in ("configs", "sample_data")
                        for p in (ROOT / d).rglob("*") if p.is_file() and "__pycache__" not in p.parts), *docs])
    with zipfile.ZipFile(wheel) as whl:
        data = sorted(n[len("inexeval/_data/"):] for n in whl.namelist() if n.startswith("inexeval/_data/"))
        info = f"inexeval-{version}.dist-info"
        licence = whl.read(f"{info}/licenses/LICENSE").decode()
        metadata = whl.read(f"{info}/METADATA").decode().split("\n\n", 1)[0].splitlines()
        typed = "inexeval/py.typed" in whl.namelist()
    assert data == shipped  # every config and sample file and docs/*.md, nothing else
    assert typed
    assert licence == (ROOT / "LICENSE").read_text() and "Copyright (c) 2026 the inexeval authors" in licence
    assert {"License-Expression: MIT", "License-File: LICENSE", "Classifier: Typing :: Typed",
            "Classifier: Intended Audience :: Science/Research"} <= set(metadata)
    assert not [line for line in metadata if line.startswith(("License:", "Classifier: License ::"))]

    venv = tmp_path / "venv"
    _run([sys.executable, "-m", "venv", "--without-pip", venv], tmp_path)
    _run([sys.executable, "-m", "pip", "--python", venv / "bin" / "python", "install", "-q", "--no-deps",
          "--no-index", wheel], tmp_path)
    site = next((venv / "lib").glob("python3*/site-packages"))
    deps = [p for p in sys.path if p.endswith(("site-packages", "dist-packages")) and Path(p).is_dir()]
    (site / "test-deps.pth").write_text("\n".join(deps) + "\n")

    user = tmp_path / "user"
    user.mkdir()
    where = _run([venv / "bin" / "python", "-c", "import inexeval; print(inexeval.__file__)"], user).stdout
    assert Path(where.strip()).is_relative_to(site)  # the wheel's inexeval, not the repository's
    assert _run([venv / "bin" / "inexeval", "--version"], user).stdout == f"inexeval, version {version}\n"

    # the docs the help texts cite, from the wheel's own copy
    section = _run([venv / "bin" / "inexeval", "docs", "formats", "§9.2"], user).stdout
    assert section.startswith("### 9.2 Outputs\n") and "#### 9.2.8 " in section and "### 9.3 " not in section
    assert section == CliRunner().invoke(main, ["docs", "formats", "§9.2"]).output  # the clone's docs/
    listed = _run([venv / "bin" / "inexeval", "docs"], user).stdout
    assert [line.split()[0] for line in listed.splitlines()] == [Path(d).stem for d in docs]
    where = _run([venv / "bin" / "python", "-c", "from inexeval.docs_files import docs_root; print(docs_root())"],
                 user).stdout.strip()
    assert Path(where) == site / "inexeval" / "_data" / "docs"

    init = _run([venv / "bin" / "inexeval", "init", "--sample", "first"], user)
    assert init.stdout.splitlines()[0] == "wrote first/CO.Thorough.prop"
    scored = _run([venv / "bin" / "inexeval", "-config", "first/CO.Thorough.prop", "--jobs", "1"], user)
    assert (user / "first" / "results" / "CO.Thorough" / "summary.tsv").is_file()
    # the same tables as the repository's sample config gives
    here = CliRunner().invoke(main, ["-config", str(ROOT / "configs" / "co-thorough.prop"), "--jobs", "1",
                                     "--results-dir", str(tmp_path / "here"), "--quiet"])
    assert here.exit_code == 0 and scored.stdout == here.stdout
    assert scored.stderr.count("warning") == 4  # the four about Poor.xml (README)
