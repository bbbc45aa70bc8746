"""The text inex_eval 3.1 prints (first version: stub)."""

from __future__ import annotations


def java_double(x: float) -> str:
    raise NotImplementedError


def format_value(v) -> str:
    raise NotImplementedError


def format_outcome(outcome, task: str, run_label: str, *, per_query: bool) -> str:
    raise NotImplementedError
