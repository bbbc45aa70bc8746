"""Shared fixtures: what standard input held is forgotten between tests (inexeval.readers.stdin_bytes
keeps it for the process, as a command reads it once)."""

import pytest

from inexeval import readers


@pytest.fixture(autouse=True)
def _fresh_stdin():
    readers._reset_stdin()
    yield
    readers._reset_stdin()


#: set by .ci/run: a system tool the tests need (gnuplot) is required there, so a missing one fails
REQUIRE_SYSTEM_TOOLS = "INEXEVAL_REQUIRE_SYSTEM_TOOLS"


def require_gnuplot() -> str:
    """The path of gnuplot; where it is not installed the calling test is skipped with the reason shown
    (``pytest -rs``), or fails when INEXEVAL_REQUIRE_SYSTEM_TOOLS=1 (``.ci/run`` sets it and installs gnuplot)."""
    import os
    import shutil

    path = shutil.which("gnuplot")
    if path:
        return path
    reason = "gnuplot is not installed (Debian: apt-get install gnuplot-nox; .ci/run installs it)"
    if os.environ.get(REQUIRE_SYSTEM_TOOLS) == "1":
        pytest.fail(f"{reason}, and {REQUIRE_SYSTEM_TOOLS}=1 requires it", pytrace=False)
    pytest.skip(reason)
