"""Shared fixtures: what standard input held is forgotten between tests (inexeval.readers.stdin_bytes
keeps it for the process, as a command reads it once)."""

import pytest

from inexeval import readers


@pytest.fixture(autouse=True)
def _fresh_stdin():
    readers._reset_stdin()
    yield
    readers._reset_stdin()


def require_system_tool(name: str, available: bool) -> None:
    """Skip the calling test, with a visible reason, when the system tool NAME is not available; fail
    instead when INEXEVAL_REQUIRE_SYSTEM_TOOLS=1 (``.ci/run`` installs the tools and sets it)."""
    import os

    if available:
        return
    if os.environ.get("INEXEVAL_REQUIRE_SYSTEM_TOOLS") == "1":
        pytest.fail(f"{name} is not available, and INEXEVAL_REQUIRE_SYSTEM_TOOLS=1 requires it")
    pytest.skip(f"{name} is not available (install it to run this test; .ci/run does)")
