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
