"""The registry's partial loading (inexeval.measures.registry.STRATEGY_FAMILIES): a strategy listed
there gets, from its modules alone, the measures, resolvers and default set a whole load gives it;
and loading every family afterwards leaves the registry as one whole load leaves it (same measures,
same order).  Each case runs in a fresh interpreter: this test process has loaded every family.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from inexeval.measures import registry

ROOT = Path(__file__).resolve().parent.parent

_DESCRIBE = """
import json, sys
from inexeval.measures import registry as r

def describe(strategy=None):
    names = r.names_for(strategy) if strategy is not None else None  # (loads first)
    out = {"registry": [m.name + "/" + ",".join(sorted(m.strategies)) for m in r.REGISTRY],
           "resolvers": {s: [f.__module__ + "." + f.__qualname__ for f in fs] for s, fs in r.RESOLVERS.items()},
           "defaults": sorted(r.DEFAULT_SETS)}
    if strategy is not None:
        out["names"] = names
        out["default"] = r.default_metrics(strategy)
        out["found"] = [r.find(n, strategy).name for n in out["names"]]
    return out
"""


def _run(code: str) -> dict:
    proc = subprocess.run([sys.executable, "-c", _DESCRIBE + code], cwd=ROOT, capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


@pytest.mark.parametrize("strategy", sorted(registry.STRATEGY_FAMILIES))
def test_a_strategys_modules_give_its_measures(strategy):
    found = _run(f"""
part = describe({strategy!r})
loaded = sorted(m for m in sys.modules if m.startswith("inexeval.measures."))
r.load_families()
print(json.dumps({{"part": part, "loaded": loaded, "after": describe({strategy!r})}}))
""")
    whole = _run(f"r.load_families()\nprint(json.dumps(describe({strategy!r})))")
    part, after = found["part"], found["after"]
    for key in ("names", "default", "found"):
        assert part[key] == whole[key], key
        assert after[key] == whole[key], key
    assert part["names"], strategy
    mine = [e for e in whole["registry"] if strategy in e.split("/")[1].split(",")]
    assert [e for e in part["registry"] if strategy in e.split("/")[1].split(",")] == mine
    assert part["resolvers"].get(strategy) == whole["resolvers"].get(strategy)
    assert (strategy in part["defaults"]) == (strategy in whole["defaults"])
    # the whole load after the partial one: the registry of one whole load, in its order
    assert after["registry"] == whole["registry"]
    assert after["resolvers"] == whole["resolvers"] and after["defaults"] == whole["defaults"]
    # and the partial load imported the strategy's modules, not the others
    wanted = {f"inexeval.measures.{m}" for m in registry.STRATEGY_FAMILIES[strategy]}
    assert wanted <= set(found["loaded"])
    assert not {"inexeval.measures.classic_engine", "inexeval.measures.classic_family",
                "inexeval.measures.xcg"} & set(found["loaded"])


def test_every_measure_is_listed_as_before():
    """measures() in a fresh interpreter: every family's measures, registered in module order."""
    listed = subprocess.run([sys.executable, "-c", "from inexeval.measures import registry as r\n"
                             "print('\\n'.join(m.name for m in r.measures()))"], cwd=ROOT, capture_output=True,
                            text=True, timeout=300)
    fol_first = subprocess.run([sys.executable, "-c", "from inexeval.measures import registry as r\n"
                                "r.find('fol-t2i', 'fol-t2i')\n"
                                "print('\\n'.join(m.name for m in r.measures()))"], cwd=ROOT, capture_output=True,
                               text=True, timeout=300)
    assert listed.returncode == 0 and fol_first.returncode == 0, listed.stderr + fol_first.stderr
    assert listed.stdout == fol_first.stdout
    assert "fol-t2i" in listed.stdout.split() and len(listed.stdout.split()) > 10
