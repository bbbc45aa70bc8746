"""The reference implementations the differential tests run: trec_eval 10.0 (built here) and inex_eval.jar.

The oracles are not shipped with the repository (their licences and size keep them out of it; never
commit them).  They live in one folder:

- ``$INEXEVAL_ORACLES`` when that environment variable is set,
- else ``<repository>/../shared/oracles`` (next to the checkout).

It holds ``trec_eval-10.0.tar.gz`` (NIST's trec_eval 10.0 source) and ``inex_eval.jar`` (the INEX 2010
evaluation tool); its README.md says where they come from.

:func:`trec_eval_binary` builds trec_eval from the tarball with ``make`` and the system C compiler, once,
into a cache folder outside the repository: ``$INEXEVAL_ORACLE_CACHE`` if set, else
``~/.cache/inexeval-oracles/``.  The build happens in a temporary folder beside the final one, which is
then renamed into place, so two processes (pytest-xdist workers, two checkouts) never see a half-built
tree; the one that loses the race throws its copy away.  The cached build is keyed by the tarball's
SHA-256, so a new tarball is built afresh.  :func:`inex_eval_jar` only locates the jar and checks that
``java`` is there (run it as ``LC_ALL=C java -jar <jar> ...``).

Skipping rules, for the test that calls them:

- the oracle folder or file is missing: ``pytest.skip`` with the reason (point ``INEXEVAL_ORACLES`` at a
  folder that has the files to run those tests);
- the folder is there but a tool is missing (``gcc``/``cc``, ``make``, ``tar`` is Python's own; ``java``
  for the jar): :func:`tests.conftest.require_system_tool`, which skips, or fails when
  ``INEXEVAL_REQUIRE_SYSTEM_TOOLS=1`` (``.ci/run``);
- a build that fails is a test failure (with make's output), not a skip.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import tarfile
import tempfile
from functools import lru_cache
from pathlib import Path

import pytest

from conftest import require_system_tool

REPO = Path(__file__).resolve().parent.parent
ORACLES_ENV = "INEXEVAL_ORACLES"
CACHE_ENV = "INEXEVAL_ORACLE_CACHE"
TREC_EVAL_TARBALL = "trec_eval-10.0.tar.gz"
TREC_EVAL_DIR = "trec_eval-10.0"
INEX_EVAL_JAR = "inex_eval.jar"


def oracle_dir() -> Path:
    """The oracle folder (``$INEXEVAL_ORACLES``, else ``<repo>/../shared/oracles``); skips if it is missing."""
    env = os.environ.get(ORACLES_ENV)
    folder = Path(env).expanduser() if env else REPO.parent / "shared" / "oracles"
    if not folder.is_dir():
        pytest.skip(f"the reference implementations (oracles) are not shipped with the repository and the "
                    f"oracle folder {folder} does not exist; set {ORACLES_ENV} to a folder holding "
                    f"{TREC_EVAL_TARBALL} and {INEX_EVAL_JAR} to run this test")
    return folder


def oracle_file(name: str) -> Path:
    """The file NAME of the oracle folder; skips if it is missing."""
    path = oracle_dir() / name
    if not path.is_file():
        pytest.skip(f"{path} is missing (the oracles are not shipped with the repository; set {ORACLES_ENV} "
                    f"to a folder that has {name})")
    return path


def cache_dir() -> Path:
    env = os.environ.get(CACHE_ENV)
    return Path(env).expanduser() if env else Path.home() / ".cache" / "inexeval-oracles"


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def _works(binary: Path) -> bool:
    if not (binary.is_file() and os.access(binary, os.X_OK)):
        return False
    try:
        p = subprocess.run([str(binary), "-v"], capture_output=True, timeout=30)
    except OSError:
        return False
    return p.returncode == 0 and p.stderr.startswith(b"trec_eval version 10.0")


def _extract(tarball: Path, into: Path) -> None:
    with tarfile.open(tarball) as tar:
        try:
            tar.extractall(into, filter="data")
        except TypeError:  # Python without extraction filters
            tar.extractall(into)


@lru_cache(maxsize=None)
def _build(tarball: Path) -> Path:
    final = cache_dir() / f"trec_eval-10.0-{_sha256(tarball)[:16]}"
    binary = final / TREC_EVAL_DIR / "trec_eval"
    if _works(binary):
        return binary
    cc = shutil.which("gcc") or shutil.which("cc")
    require_system_tool("gcc (a C compiler, to build trec_eval 10.0)", cc is not None)
    require_system_tool("make (to build trec_eval 10.0)", shutil.which("make") is not None)
    final.parent.mkdir(parents=True, exist_ok=True)
    scratch = Path(tempfile.mkdtemp(prefix=".build-", dir=final.parent))
    try:
        _extract(tarball, scratch)
        make = ["make", "-C", str(scratch / TREC_EVAL_DIR)]
        if not shutil.which("gcc"):
            make.append(f"CC={cc}")
        p = subprocess.run(make, capture_output=True, text=True, timeout=600)
        if p.returncode != 0 or not _works(scratch / TREC_EVAL_DIR / "trec_eval"):
            pytest.fail(f"building trec_eval 10.0 from {tarball} failed (status {p.returncode}):\n"
                        f"{p.stdout[-3000:]}\n{p.stderr[-3000:]}", pytrace=False)
        os.chmod(scratch, 0o755)  # (mkdtemp makes it private)
        try:
            os.rename(scratch, final)  # atomic; fails if another process got there first
        except OSError:
            if not _works(binary):  # a stale, broken build: replace it
                shutil.rmtree(final, ignore_errors=True)
                os.rename(scratch, final)
    finally:
        if scratch.exists():
            shutil.rmtree(scratch, ignore_errors=True)
    if not _works(binary):
        pytest.fail(f"the trec_eval 10.0 built at {binary} does not run", pytrace=False)
    return binary


def trec_eval_binary() -> Path:
    """trec_eval 10.0's binary, built from the oracle tarball on first use (see the module docstring)."""
    return _build(oracle_file(TREC_EVAL_TARBALL))


def inex_eval_jar() -> Path:
    """inex_eval.jar (run it as ``LC_ALL=C java -jar <jar> ...``); skips where it or ``java`` is missing."""
    jar = oracle_file(INEX_EVAL_JAR)
    require_system_tool("java (to run inex_eval.jar)", shutil.which("java") is not None)
    return jar
