"""--jobs not given: one process for small run inputs, else the cores (inexeval.engine.automatic_jobs,
docs/decisions.md)."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from inexeval import engine
from inexeval.cli.command import main
from inexeval.config.load import load_config

ROOT = Path(__file__).resolve().parent.parent


def test_small_inputs_take_one_process_large_ones_the_cores(monkeypatch):
    config = load_config(ROOT / "configs" / "trec.prop")
    size = sum(f.path.stat().st_size for f in config.runs)
    assert engine.automatic_jobs(config) == 1
    monkeypatch.setitem(engine.POOL_MIN_BYTES, "document", size)  # now exactly at the bound: a pool
    monkeypatch.setattr(engine, "available_cores", lambda: 3)
    assert engine.automatic_jobs(config) == 3
    monkeypatch.setitem(engine.POOL_MIN_BYTES, "document", size + 1)
    assert engine.automatic_jobs(config) == 1


def test_the_command_line_default_is_automatic_and_an_explicit_jobs_is_kept(monkeypatch, tmp_path):
    asked = []
    real = engine._outcomes

    def spy(scorer, config, empty_as_zero, jobs, *args):
        asked.append(jobs)
        return real(scorer, config, empty_as_zero, jobs, *args)

    monkeypatch.setattr(engine, "_outcomes", spy)
    monkeypatch.setattr(engine, "available_cores", lambda: 2)
    cfg = str(ROOT / "configs" / "trec.prop")
    for extra in ([], ["--jobs", "2"]):
        res = CliRunner().invoke(main, ["-config", cfg, "--quiet", "--results-dir", str(tmp_path / str(len(extra))),
                                        *extra])
        assert res.exit_code == 0, res.output
    assert asked == [1, 2]
