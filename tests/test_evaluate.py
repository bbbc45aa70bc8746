"""evaluate(): result files written as runs are scored, and what is kept in memory afterwards."""

from __future__ import annotations

from pathlib import Path

import pytest

from inexeval.config.load import load_config
from inexeval.engine import evaluate
from inexeval.writers.files import run_file_path, run_file_text

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("jobs", [1, 2])
def test_files_written_by_workers_equal_full_results_and_keep_trims_memory(tmp_path, jobs):
    config = load_config(ROOT / "configs" / "co-focussed.prop", ["QUANT_FUNCTIONS=gen,strict"])
    full = evaluate(config, jobs=1)  # nothing written, everything kept
    assert full.results and all(r.per_topic for r in full.results)
    out = tmp_path / "out"
    trimmed = evaluate(config, jobs=jobs, write_to=out, keep={"MAep"})
    none = evaluate(config, jobs=jobs, write_to=tmp_path / "none", keep=set())
    assert [(r.run_id, r.setting) for r in trimmed.results] == [(r.run_id, r.setting) for r in full.results]
    for f, t, n in zip(full.results, trimmed.results, none.results):
        assert run_file_path(out, config.task, t).read_text() == run_file_text(f), "files hold every value"
        assert t.average == f.average == n.average, "averages are always kept"
        assert t.per_topic == {topic: {"MAep": v["MAep"]} for topic, v in f.per_topic.items()}
        assert n.per_topic == {}
    assert not [p for p in tmp_path.rglob("*") if p.name.endswith(".tmp")]


class _Stop(Exception):
    pass


@pytest.mark.parametrize("jobs", [1, 2])
def test_interrupted_evaluation_leaves_no_temporary_files(tmp_path, jobs):
    """Ctrl-C (here: the progress callback raising) after the first run: the workers are stopped
    and every result file they had prepared under a temporary name is removed; files already put
    in place stay complete."""
    config = load_config(ROOT / "configs" / "co-focussed.prop", ["QUANT_FUNCTIONS=gen,strict"])
    assert len(config.runs) >= 3
    seen = []

    def interrupt(path):
        seen.append(path)
        if len(seen) == 2:
            raise _Stop

    out = tmp_path / "out"
    with pytest.raises(_Stop):
        evaluate(config, jobs=jobs, write_to=out, keep=set(), on_run=interrupt)
    files = [p for p in out.rglob("*") if p.is_file()]
    assert not [p for p in files if p.name.endswith(".tmp")], "no temporary file is left"
    full = {(r.run_id, r.setting): r for r in evaluate(config, jobs=1).results}
    assert len(files) == 2, "the first run's two settings were put in place, nothing else"
    for p in files:
        r = next(r for (rid, s), r in full.items() if s == p.parent.name and p.stem == rid)
        assert p.read_text() == run_file_text(r)
