"""What every run reader says of a run's name and of an empty run, without importing a parser (a TREC
job loads no lxml)."""

from __future__ import annotations


def empty_run_warning(source: str, averages: str = "so its averages are undefined (0 with -e)") -> str:
    """The warning for a run without any result (an empty file is a run that retrieved nothing)."""
    return f"{source}: the run has no result (an empty file?): every topic is missing from it, {averages}"


def run_id_from_name(source: str) -> str:
    """Run id fallback: the file name without ``.gz`` and one more suffix."""
    from pathlib import Path  # (here: the trec-eval drop-in imports this module and never calls it)

    name = Path(source).name
    if name.lower().endswith(".gz"):
        name = name[:-3]
    return Path(name).stem or name
