"""Shared fixtures: what standard input held is forgotten between tests (inexeval.readers.stdin_bytes
keeps it for the process, as a command reads it once).  The seeds of the randomised tests, and a
longer campaign on new ones (:data:`SEEDS_ENV`).  The system tools a test needs."""

import os

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


#: ``INEXEVAL_SEEDS=START`` or ``START:SCALE``: a longer randomised campaign on new inputs (README,
#: "Running the tests").  Every test parametrized over ``seed`` with the seeds 0 … n − 1 (each case
#: drawn from its seed: the same cases on every run, so a failure is run again by its test id) runs
#: instead on START … START + n·SCALE − 1.  The tests keep their shares of the campaign; loops over
#: seeds inside a test (the checks that a generator covers every shape) keep their own seeds.
SEEDS_ENV = "INEXEVAL_SEEDS"
#: the campaign's (START, SCALE), None without one, kept in pytest's config
_CAMPAIGN = pytest.StashKey["tuple[int, int] | None"]()


def campaign(spec: str) -> tuple[int, int]:
    """(START, SCALE) of an :data:`SEEDS_ENV` value; ValueError, with what is accepted, for a bad one."""
    start, colon, scale = spec.strip().partition(":")
    try:
        got = int(start), int(scale) if colon else 1
    except ValueError:
        got = (-1, 0)
    if got[0] < 0 or got[1] < 1:
        raise ValueError(f"{SEEDS_ENV}={spec!r}: expected START or START:SCALE, whole numbers, START 0 or "
                         "more, SCALE 1 or more (e.g. 100000:3: seeds from 100000, three times as many)")
    return got


def campaign_seeds(values: object, start: int, scale: int) -> range | None:
    """The campaign's seeds in place of VALUES when those are 0 … n − 1 (n ≥ 1); None: left as they are."""
    try:
        values = list(values)
    except TypeError:
        return None
    if not values or values != list(range(len(values))):
        return None
    return range(start, start + len(values) * scale)


def pytest_configure(config):
    spec = os.environ.get(SEEDS_ENV)
    try:
        config.stash[_CAMPAIGN] = campaign(spec) if spec else None
    except ValueError as e:
        raise pytest.UsageError(str(e)) from None


def pytest_report_header(config):
    got = config.stash.get(_CAMPAIGN, None)
    if got is not None:
        return (f"{SEEDS_ENV}: the randomised tests run on seeds from {got[0]}, {got[1]} × as many as usual "
                "(new inputs)")
    return None


@pytest.hookimpl(tryfirst=True)
def pytest_generate_tests(metafunc):
    """Under :data:`SEEDS_ENV`, a ``seed`` parametrization 0 … n − 1 becomes the campaign's seeds
    (before pytest applies the test's ``parametrize`` marks)."""
    got = metafunc.config.stash.get(_CAMPAIGN, None)
    if got is None:
        return
    marks = metafunc.definition.own_markers
    for i, mark in enumerate(marks):
        if mark.name != "parametrize" or len(mark.args) < 2 or mark.args[0] != "seed":
            continue
        seeds = campaign_seeds(mark.args[1], *got)
        if seeds is not None:
            marks[i] = pytest.mark.parametrize("seed", seeds, *mark.args[2:], **mark.kwargs).mark
