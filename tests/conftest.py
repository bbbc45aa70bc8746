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


def require_system_tool(name: str, available: bool) -> None:
    """Skip the calling test, with a visible reason, when the system tool NAME is not available; fail
    instead when INEXEVAL_REQUIRE_SYSTEM_TOOLS=1 (``.ci/run`` installs the tools and sets it)."""
    import os

    if available:
        return
    if os.environ.get("INEXEVAL_REQUIRE_SYSTEM_TOOLS") == "1":
        pytest.fail(f"{name} is not available, and INEXEVAL_REQUIRE_SYSTEM_TOOLS=1 requires it")
    pytest.skip(f"{name} is not available (install it to run this test; .ci/run does)")
