"""Every output of the shipped configs, drop-ins and analysis commands on the sample data is what
the committed manifest says (``tests/golden/outputs.manifest``, checksums of each command's status,
standard output, standard error and result files: ``inexeval/devtools/snapshot.py``).

A change that means to change outputs regenerates it with
``python -m inexeval.devtools.snapshot --write tests/golden/outputs.manifest`` (and ``--keep DIR``
before and after, to diff what changed); a restructuring must leave it as it is.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from inexeval.devtools.snapshot import snapshot

pytestmark = pytest.mark.slow  # every output of the shipped configs and drop-ins: about a minute

MANIFEST = Path(__file__).parent / "golden" / "outputs.manifest"


@pytest.mark.slow
def test_every_output_is_unchanged(tmp_path):
    got = snapshot(keep=tmp_path / "outputs")
    want = MANIFEST.read_text().splitlines()
    assert len(got) > 900, "the snapshot runs every shipped config and drop-in"
    changed = sorted(set(want) ^ set(got))
    assert not changed, ("outputs differ from tests/golden/outputs.manifest (kept under "
                         f"{tmp_path / 'outputs'}):\n" + "\n".join(changed[:40]))


def test_statistics_files_are_checksummed_at_ten_digits():
    """compare's statistics files are checksummed with their numbers at 10 significant digits (their
    last digits differ between numpy/scipy releases and CPUs); every other output byte for byte."""
    from inexeval.devtools.snapshot import canonical

    row = b"gen_off\tMAep\tR1.5x\tv2\t5\t0.12697308293463694\t-1.4768819225038574e-05\t3E+5\t12.\tNaN\tTrue\n"
    assert canonical("r/CO.Thorough/tukey.tsv", row) == (
        b"gen_off\tMAep\tR1.5x\tv2\t5\t0.1269730829\t-1.476881923e-05\t300000\t12\tNaN\tTrue\n")
    # two computations of the same p-value that differ in the 16th digit checksum alike
    for name in ("anova", "groups", "significance", "tukey"):
        a = canonical(f"r/x/{name}.json", b'{"p": 8.484790158560427e-14, "topics": 5}')
        assert a == canonical(f"r/x/{name}.json", b'{"p": 8.48479015856042e-14, "topics": 5}')
        assert a == b'{"p": 8.484790159e-14, "topics": 5}'
    # a change in the 10th digit is still a change; other files are not touched
    assert canonical("r/x/anova.tsv", b"0.5279943812") != canonical("r/x/anova.tsv", b"0.5279943813")
    for what in ("r/CO.Thorough/summary.tsv", "stdout", "r/x/tukey.txt", "r/x/mytukey.tsv"):
        assert canonical(what, row) == row
