"""Shared fixtures: what standard input held is forgotten between tests (inexeval.readers.stdin_bytes
keeps it for the process, as a command reads it once)."""

import pytest

from inexeval import readers


@pytest.fixture(autouse=True)
def _fresh_stdin():
    readers._reset_stdin()
    yield
    readers._reset_stdin()
