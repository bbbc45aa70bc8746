"""EvalJ-style configuration (.prop) and YAML, into one frozen Config (SPEC §2).

PARSER TO BE WRITTEN (helper): see load_config() below.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple


class InputFile(NamedTuple):
    """A file matched by a path value, with the root (file, dir or glob base) it was found under."""

    path: Path
    root: Path


#: Task table of SPEC §3: canonical name -> (strategy, default overlap, default metrics).
TASKS: dict[str, tuple[str, tuple[str, ...], tuple[str, ...]]] = {
    "CO.Thorough": ("thorough", ("off",), ("nxcg", "ep/gr", "q")),
    "COS.Thorough": ("thorough", ("off",), ("nxcg", "ep/gr", "q")),
    "SSCAS": ("thorough", ("off",), ("nxcg", "ep/gr", "q")),
    "SVCAS": ("thorough", ("off",), ("nxcg", "ep/gr", "q")),
    "VSCAS": ("thorough", ("off",), ("nxcg", "ep/gr", "q")),
    "VVCAS": ("thorough", ("off",), ("nxcg", "ep/gr", "q")),
    "Thorough": ("thorough", ("off",), ("nxcg", "ep/gr", "q")),
    "CO.Focussed": ("focussed", ("on",), ("nxcg", "ep/gr", "q")),
    "COS.Focussed": ("focussed", ("on",), ("nxcg", "ep/gr", "q")),
    "Focused": ("focussed", ("on",), ("nxcg", "ep/gr", "q")),
    "CO.FetchBrowse": ("fetchbrowse", ("on", "off"), ("ep/gr",)),
    "COS.FetchBrowse": ("fetchbrowse", ("on", "off"), ("ep/gr",)),
    "RelevantInContext": ("relevantincontext", (), ("gp",)),
    "BestInContext": ("bestincontext", (), ("bepd", "eprum")),
    "trec": ("trec", (), ()),
}
TASK_ALIASES = {"AllInContext": "RelevantInContext"}


@dataclass(frozen=True)
class Config:
    task: str  # canonical name from TASKS (e.g. "CO.Focussed")
    strategy: str  # TASKS[task][0]
    metrics: tuple[str, ...]  # lower-cased items of METRICS, or the task default
    alpha: float
    overlap: tuple[str, ...]  # "on"/"off" in the order given; () for tasks without OVERLAP
    quant_functions: tuple[str, ...]  # "strict" | "gen" | "genLifted", order given
    dcv: tuple[int, ...]
    assessments: tuple[InputFile, ...]  # every file matched by ASSESSMENTS_DIR
    runs: tuple[InputFile, ...]  # every file matched by SUBMISSIONRUNS_DIR
    results_dir: Path
    query_type: str | None = None
    pools: frozenset[str] | None = None
    topics: frozenset[str] | None = None
    collection_dir: Path | None = None
    max_results: int = 1500
    bep_a: tuple[str, ...] = ("0.01", "0.1", "1", "10", "100")  # as written, trimmed
    avg_doc_length: float | None = None
    q_beta: float = 1.0
    rel_level: int = 1
    gains: tuple[tuple[int, float], ...] | None = None  # GAINS: level -> gain
    source: Path | None = None  # the config file
    key_lines: tuple[tuple[str, int], ...] = ()  # (KEY, line) where each key was set, for messages

    def line_of(self, key: str) -> int | None:
        """The line of the config file where KEY was set (None if defaulted)."""
        return dict(self.key_lines).get(key.upper())
