"""``evaluate_trec``: TREC qrels and runs scored from Python without a config file.

A convenience over the one evaluation path (:func:`inexeval.engine.evaluate`
with ``TASK: trec``): the same reading, measures, ``-e`` policy and averages.
Measure names are those of :mod:`inexeval.measures.classic` (docs/measures.md §8).
"""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from inexeval.config.load import load_config_mapping
from inexeval.model import InputFile
from inexeval.errors import ConfigError, InputError
from inexeval.measures.classic import DEFAULT_MEASURES, MEASURES
from inexeval.model import RunResult
from inexeval.writers import trec_eval as _writer

__all__ = ["evaluate_trec", "format_trec_eval", "MEASURES", "DEFAULT_MEASURES"]


def evaluate_trec(
    qrels_path: str | Path,
    run_paths: Sequence[str | Path],
    *,
    measures: Sequence[str] | None,
    rel_level: int = 1,
    gains: dict[int, float] | None = None,
    q_beta: float = 1.0,
    empty_as_zero: bool = False,
    max_results: int | None = None,
    warn: Callable[[str], None] | None = None,
    trec_eval_version: str = "10.0",
) -> tuple[list[RunResult], list[InputError]]:
    """Score every run of RUN_PATHS against the qrels.

    ``measures``: classic names (None: the default set).  A bad measure name
    or ``rel_level`` < 1 raises ConfigError; a bad qrels file raises
    InputError; a bad run file is returned in the error list and the other
    runs are still scored.  Warnings go to ``warn`` (default: standard error).
    ``trec_eval_version``: ``10.0`` (default) or ``9.0.8``, whose numbers to give
    (TREC_EVAL_VERSION, docs/measures.md §8.4).
    """
    from inexeval.engine import evaluate

    say = warn or (lambda msg: print(f"warning: {msg}", file=sys.stderr))
    if rel_level < 1:
        raise ConfigError(f"REL_LEVEL must be >= 1, not {rel_level}")
    if max_results is not None and max_results < 1:
        raise ConfigError(f"MAX_RESULTS must be >= 1, not {max_results}")
    # paths are set after loading: "-" (standard input) is not a file a config key can name
    keys: dict = {"TASK": "trec", "ASSESSMENTS_DIR": ".", "SUBMISSIONRUNS_DIR": ".", "REL_LEVEL": rel_level,
                  "Q_BETA": q_beta, "TREC_EVAL_VERSION": trec_eval_version}
    if measures is not None:
        keys["METRICS"] = list(measures)
    if max_results is not None:
        keys["MAX_RESULTS"] = max_results
    if gains:
        keys["GAINS"] = dict(gains)
    config = dataclasses.replace(
        load_config_mapping(keys, source="evaluate_trec"),
        assessments=(InputFile(Path(qrels_path), Path(qrels_path)),),
        runs=tuple(InputFile(Path(p), Path(p)) for p in run_paths))
    ev = evaluate(config, empty_as_zero=empty_as_zero)
    for w in ev.warnings:
        say(w)
    return ev.results, [p for p in ev.problems if isinstance(p, InputError)]


def format_trec_eval(results: RunResult | Sequence[RunResult], digits: int | None = None, *,
                     per_query: bool = False) -> str:
    """Classic results in trec_eval's layout (:func:`inexeval.writers.trec_eval.format_trec_eval`),
    counts as integers and gm_map not per topic, as the classic family table declares."""
    from inexeval.measures.classic_engine import resolve

    runs = [results] if isinstance(results, RunResult) else list(results)
    names = {n for r in runs for n in r.measures}
    declared = {n: resolve(n) for n in names}
    return _writer.format_trec_eval(
        runs, digits, per_query=per_query,
        integer=frozenset(n for n, m in declared.items() if m.integer),
        not_per_topic=frozenset(n for n, m in declared.items() if not m.per_topic_reported))
