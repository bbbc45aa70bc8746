"""Question answering: the marking of each run, for organisers to check by hand (docs/measures.md §11).

``inexeval -config qa.prop -q`` prints, after the tables, every answer of
every evaluated run with its position, the mark it got (the level, or
none) and why: the answer string and synset it matched, a synset already
marked higher up, NIL not at rank 1, no match, an empty answer, or dropped
beyond MAX_RESULTS.  From Python::

    from inexeval.qa import marking
    rows = marking("configs/qa.prop")      # one dict per answer of every run

The marking is computed by the same code as the scores
(:func:`inexeval.measures.qa.mark`), from the same config.
"""

from __future__ import annotations

from inexeval.writers.qa_marking import marking_rows, marking_text

__all__ = ["marking", "marking_rows", "marking_text"]


def marking(config, **overrides) -> list[dict]:
    """The marking of every run of ``config`` (a path, a mapping of config keys or a Config; keys as
    :func:`inexeval.evaluate` takes them): one dict per answer, keys ``run``, ``question``,
    ``position``, ``rank``, ``line``, ``answer``, ``mark`` (S, A, B, a number, or ``-``), ``gain``,
    ``matched``, ``synset``, ``why``, ``source``."""
    from inexeval.config.source import load, override_strings
    from inexeval.errors import ConfigError
    from inexeval.inputs import UNITS

    cfg = load(config, override_strings(overrides))
    if not cfg.task_def.facts.marks_answers:
        raise ConfigError(f"the marking is that of TASK qa, not of {cfg.task}", cfg.source)
    rb = UNITS["answer"].load(cfg)
    return marking_rows(cfg, rb, [f.path for f in cfg.runs if f.problem is None])
