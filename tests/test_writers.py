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
