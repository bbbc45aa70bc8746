"""``INEXEVAL_SEEDS``: the randomised tests on new seeds (tests/conftest.py; README, "Running the tests").

The parsing of the variable, which parametrizations it replaces, and, in a pytest process of its own,
that the tests collected are those of the new seeds (and that a bad value stops pytest with the
reason, before anything runs).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import SEEDS_ENV, campaign, campaign_seeds

TESTS = Path(__file__).resolve().parent


@pytest.mark.parametrize("spec,expected", [
    ("0", (0, 1)), ("7", (7, 1)), ("100000:3", (100000, 3)), (" 5:2 ", (5, 2)), ("12:1", (12, 1)),
])
def test_campaign_reads_start_and_scale(spec, expected):
    assert campaign(spec) == expected


@pytest.mark.parametrize("spec", ["-1", "x", "1:0", "1:-2", "1:x", "1:2:3", ":", ":3", "1.5", "1:"])
def test_campaign_rejects_what_it_cannot_read(spec):
    """(``1:`` too: a colon with no scale is a slip, not a scale of 1.)"""
    with pytest.raises(ValueError, match=re.escape(f"{SEEDS_ENV}={spec!r}: expected START or START:SCALE")):
        campaign(spec)


def test_campaign_seeds_replace_only_zero_to_n():
    assert campaign_seeds(range(4), 100, 1) == range(100, 104)
    assert campaign_seeds([0, 1, 2], 50, 3) == range(50, 59)
    assert campaign_seeds(range(1), 9, 2) == range(9, 11)
    for kept in ([], [1, 2], [0, 2], [0, 1, 1], ["a"], [3], 7, None):
        assert campaign_seeds(kept, 100, 2) is None, kept


#: a plugin for the pytest process below: every collected item's test name and seed ("-": none)
_RECORDER = """
import os

def pytest_collection_modifyitems(items):
    with open(os.environ["SEEDS_RECORD"], "w") as f:
        for item in items:
            spec = getattr(item, "callspec", None)
            seed = spec.params.get("seed", "-") if spec is not None else "-"
            f.write(f"{item.originalname} {seed}\\n")
"""


def _collect(tmp_path: Path, env_value: str | None, module: str) -> tuple[subprocess.CompletedProcess, list[tuple[str, str]]]:
    """pytest --collect-only of MODULE with INEXEVAL_SEEDS=ENV_VALUE (None: unset), and the (test name,
    seed) of every item collected."""
    (tmp_path / "seeds_recorder.py").write_text(_RECORDER)
    record = tmp_path / f"items-{env_value}.txt"
    env = {k: v for k, v in os.environ.items() if k != SEEDS_ENV}
    env.update(PYTHONPATH=os.pathsep.join(filter(None, [str(tmp_path), env.get("PYTHONPATH")])), SEEDS_RECORD=str(record))
    if env_value is not None:
        env[SEEDS_ENV] = env_value
    got = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
                          "-p", "seeds_recorder", str(TESTS / module)],
                         capture_output=True, text=True, env=env, cwd=TESTS.parent)
    items = [tuple(line.split(" ")) for line in record.read_text().splitlines()] if record.exists() else []
    return got, items


def test_a_campaign_collects_the_new_seeds(tmp_path):
    """tests/test_xcg_properties.py parametrizes seven of its tests over ``seed`` (0 … n − 1), times
    other parameters: with 500:2 each runs on seeds 500 … 500 + 2n − 1 instead, with as many items per
    seed as before; its other tests are collected as before."""
    usual, before = _collect(tmp_path, None, "test_xcg_properties.py")
    more, after = _collect(tmp_path, "500:2", "test_xcg_properties.py")
    assert usual.returncode == 0 and more.returncode == 0, usual.stdout + usual.stderr + more.stdout + more.stderr
    names = sorted({name for name, _ in before})
    assert names == sorted({name for name, _ in after}) and len(names) == 10
    seeded = 0
    for name in names:
        old = sorted(seed for n, seed in before if n == name)
        new = sorted(seed for n, seed in after if n == name)
        if old[0] == "-":
            assert new == old, name
            continue
        seeded += 1
        n = len(set(old))
        per_seed = len(old) // n
        assert sorted(map(int, set(old))) == list(range(n)), name
        assert sorted(map(int, new)) == sorted(s for s in range(500, 500 + 2 * n) for _ in range(per_seed)), name
    assert seeded == 7


def test_a_bad_value_stops_pytest_with_the_reason(tmp_path):
    got, items = _collect(tmp_path, "1:0", "test_xcg_properties.py")
    assert not items
    assert got.returncode == 4, got.stdout + got.stderr  # pytest's usage error
    assert f"{SEEDS_ENV}='1:0': expected START or START:SCALE" in got.stderr, got.stderr
    assert "Traceback" not in got.stderr
