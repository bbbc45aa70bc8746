"""Atomic writes: an interrupted write leaves the old file (or none) and no partial output."""

from __future__ import annotations

import os

import pytest

from inexeval.writers import files


def test_interrupted_write_leaves_old_content_and_no_temp(tmp_path, monkeypatch):
    target = tmp_path / "out" / "r.tsv"
    files.atomic_write(target, "old\n")

    def interrupted(src, dst):
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "replace", interrupted)
    with pytest.raises(KeyboardInterrupt):
        files.atomic_write(target, "new content that must not appear half-written\n" * 1000)
    assert target.read_text() == "old\n"
    assert [p.name for p in target.parent.iterdir()] == ["r.tsv"]  # the temporary file is gone


def test_interrupted_first_write_leaves_nothing(tmp_path, monkeypatch):
    target = tmp_path / "s.tsv"
    real_fdopen = os.fdopen

    class Boom:
        def __init__(self, fh):
            self.fh = fh

        def __enter__(self):
            return self

        def __exit__(self, *a):
            self.fh.close()

        def write(self, data):
            self.fh.write(data[:10])
            raise KeyboardInterrupt  # killed half-way through writing

    monkeypatch.setattr(os, "fdopen", lambda fd, mode: Boom(real_fdopen(fd, mode)))
    with pytest.raises(KeyboardInterrupt):
        files.atomic_write(target, "x" * 100)
    assert list(tmp_path.iterdir()) == []


def test_written_files_have_normal_permissions(tmp_path):
    p = tmp_path / "a.tsv"
    files.atomic_write(p, "x\n")
    assert p.stat().st_mode & 0o777 == files.FILE_MODE


def test_run_file_lines_are_fmt_of_each_value():
    """A result file's lines are ``measure TAB topic TAB fmt(value)`` in natural topic order, then the
    ``all`` line, whether a measure's values include an undefined one (fmt one by one) or not (the C
    loops): ints, floats at rounding edges, NaN, infinities, -0.0, numpy floats."""
    import numpy as np

    from inexeval.model import RunResult
    from inexeval.names import cell
    from inexeval.writers.files import fmt, run_file_text

    per_topic = {"10": {"a": 3, "b": 0.1 + 0.2, "c": None},
                 "9": {"a": 0, "b": float("nan"), "c": -0.0},
                 "x\tz": {"a": 2**40, "b": float("-inf"), "c": np.float64(1 / 3)}}
    result = RunResult("r", "default", ["a", "b", "c"], per_topic, {"a": 1.5, "b": None, "c": 2})
    expected = []
    for m in ("a", "b", "c"):
        lines = [f"{m}\t{cell(t)}\t{fmt(per_topic[t][m])}" for t in ("9", "10", "x\tz")]
        lines.append(f"{m}\tall\t{fmt(result.average[m])}\n")
        expected.append("\n".join(lines))
    assert run_file_text(result) == "".join(expected)
    assert "a\t9\t0.0\n" in run_file_text(result) and "c\t10\t-\n" in run_file_text(result)
