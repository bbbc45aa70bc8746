"""Every output of the official inex_eval 3.1 on the public INEX 2009/2010 data, reproduced byte for byte.

The data (qrels, runs and what the tool printed for ``-<task> -q [-c]
qrels.txt <run>``) live outside the repository, in ``shared/data/inex2009-2010``
beside it (``$INEXEVAL_SHARED`` overrides where ``shared`` is).  The tool was
run on the uncompressed files, named as its headers show them
(``file="bert_inex_converted_1.run"``), so the tests uncompress them into a
temporary folder and run there.  Without the data the tests are skipped,
saying so.
"""

from __future__ import annotations

import gzip
import os
import subprocess
import sys
from pathlib import Path

import pytest
from fol_helpers import drop_in

from inexeval.measures.fol import score_fol_run
from inexeval.readers.fol import read_fol_qrels, read_fol_run

pytestmark = pytest.mark.slow  # every inex_eval.jar output on the public data


def _shared() -> Path:
    env = os.environ.get("INEXEVAL_SHARED")
    return Path(env) if env else Path(__file__).resolve().parents[2] / "shared"


DATA = _shared() / "data" / "inex2009-2010"
EXPECTED = sorted((DATA / "expected").glob("*.txt.gz")) if (DATA / "expected").is_dir() else []
needs_data = pytest.mark.skipif(not EXPECTED, reason=f"public INEX 2009/2010 data not found in {DATA} "
                                                     "(set INEXEVAL_SHARED to the folder holding data/)")


def _case(path: Path) -> tuple[str, str, bool]:
    """(task, run file name, -c) from ``<task>.<run>[.c].txt.gz``."""
    stem = path.name.removesuffix(".txt.gz")
    task, _, rest = stem.partition(".")
    complete = rest.endswith(".c")
    return task, rest.removesuffix(".c") + ".run", complete


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    folder = tmp_path_factory.mktemp("inex2009-2010")
    (folder / "qrels.txt").write_bytes(gzip.decompress((DATA / "qrels.txt.gz").read_bytes()))
    for run in (DATA / "runs").glob("*.run.gz"):
        (folder / run.name.removesuffix(".gz")).write_bytes(gzip.decompress(run.read_bytes()))
    return folder


@needs_data
def test_every_expected_file_is_known():
    """The 31 outputs listed in the data's README: -f/-t on the runs, -r/-i blockgrouped, -b bic, the rejection."""
    cases = [_case(p) for p in EXPECTED]
    assert len(cases) == 31
    assert {t for t, _, _ in cases} == {"f", "t", "r", "i", "b"}


@needs_data
@pytest.mark.parametrize("expected", EXPECTED, ids=[p.name.removesuffix(".txt.gz") for p in EXPECTED])
def test_byte_identical(expected, workdir, monkeypatch):
    task, run, complete = _case(expected)
    monkeypatch.chdir(workdir)
    argv = [f"-{task}", "-q"] + (["-c"] if complete else []) + ["qrels.txt", run]
    out, err, status = drop_in(*argv)
    assert out.encode("utf-8") == gzip.decompress(expected.read_bytes())
    assert (err, status) == ("", 0)


@needs_data
def test_headline_values_and_impossible_recall_lines(workdir):
    """The README's headline numbers, read from the outcome (not the text), and the 238 warning lines (D5).

    The warnings start at recall point 105 and climb (111, 125, … 189) as
    topic 2009079's second block keeps finding its relevant text again.
    """
    qrels = read_fol_qrels(workdir / "qrels.txt")
    full = score_fol_run(qrels, read_fol_run(workdir / "bert_inex_converted.run"), "f")
    assert full.all["MAiP"] == 0.16055908648278275
    assert len(full.impossible) == 238
    assert full.impossible[:10] == ["Impossible recall point: 105"] * 9 + ["Impossible recall point: 111"]
    printed = gzip.decompress((DATA / "expected" / "f.bert_inex_converted.txt.gz").read_bytes()).decode()
    assert full.impossible == [ln for ln in printed.splitlines() if ln.startswith("Impossible")]
    one = score_fol_run(qrels, read_fol_run(workdir / "bert_inex_converted_1.run"), "f")
    assert (one.all["num_q"], one.all["num_ret"], one.all["num_rel_ret"]) == (60, 6000, 1548)
    assert one.all["MAiP"] == 0.1188986981155596
    for task, suffix, value in [("r", "blockgrouped", 0.08595768186673867), ("i", "blockgrouped", 0.07583963533990397),
                                ("b", "bic", 0.057596448942435735)]:
        run = read_fol_run(workdir / f"bert_inex_converted_1.{suffix}.run")
        assert score_fol_run(qrels, run, task).all["MAgP"] == value


@needs_data
def test_gzip_inputs_score_as_plain(workdir):
    """The compressed files as shipped give the same outcome as the uncompressed ones."""
    plain = score_fol_run(read_fol_qrels(workdir / "qrels.txt"), read_fol_run(workdir / "bert_inex_converted_2.run"),
                          "t", complete=True)
    packed = score_fol_run(read_fol_qrels(DATA / "qrels.txt.gz"),
                           read_fol_run(DATA / "runs" / "bert_inex_converted_2.run.gz"), "t", complete=True)
    assert packed.per_topic == plain.per_topic
    assert packed.all == plain.all  # no NaN in these values


@needs_data
def test_command_line_byte_identical(workdir):
    """Through the real command (``python -m inexeval inex-eval``): standard output bytes and exit status."""
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[1]))
    for name, argv in [
        ("r.bert_inex_converted.grouped", ["-r", "-q", "qrels.txt", "bert_inex_converted.grouped.run"]),
        ("f.bert_inex_converted_1.c", ["-f", "-q", "-c", "qrels.txt", "bert_inex_converted_1.run"]),
    ]:
        expected = DATA / "expected" / f"{name}.txt.gz"
        done = subprocess.run([sys.executable, "-m", "inexeval", "inex-eval", *argv], cwd=workdir, env=env,
                              capture_output=True, check=False)
        assert done.stdout == gzip.decompress(expected.read_bytes())
        assert (done.stderr, done.returncode) == (b"", 0)
