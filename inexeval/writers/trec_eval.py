"""trec_eval's output layout (docs/formats.md §9.2): ``"%-22s\\t%s\\t%s\\n"`` (measure, topic, value)."""

from __future__ import annotations

import math
from collections.abc import Sequence

from inexeval.model import RunResult
from inexeval.names import cell


def _fmt(name: str, value: float, digits: int | None, integer: frozenset[str]) -> str:
    if name in integer and float(value).is_integer():
        return str(int(value))
    if digits is None:
        return repr(float(value))
    return c_fixed(value, digits)


def c_fixed(value: float, digits: int = 4) -> str:
    """C's ``%{digits+2}.{digits}f``, trec_eval's ``%6.4f``: a NaN is ``-nan`` or ``nan`` by its sign bit."""
    value = float(value)
    if value != value:
        return f"{'-nan' if math.copysign(1.0, value) < 0 else 'nan':>{digits + 2}}"
    return f"{value:{digits + 2}.{digits}f}"


def format_trec_eval(results: RunResult | Sequence[RunResult], digits: int | None = None, *,
                     per_query: bool = False, integer: frozenset[str] = frozenset(),
                     not_per_topic: frozenset[str] = frozenset(), label_settings: bool = False,
                     intervals: dict | None = None) -> str:
    """Results in trec_eval's layout, one block per run and setting.

    With ``label_settings`` (a task with settings: quantisations, overlap), each block's ``runid``
    line names its setting after the run id, ``runid all Medium[gen_off]`` (no space: still three
    columns), so that the blocks of one run can be told apart.

    Values in full precision (``repr``) by default, ``digits=4`` for
    trec_eval's ``%.4f``; the ``integer`` measures (counts) as integers.
    With ``per_query`` (trec_eval ``-q``), each topic's lines first, topics
    in byte order and undefined values skipped (trec_eval never evaluates
    them), the ``not_per_topic`` measures (gm_map) not printed per topic, as
    trec_eval; then the summary under ``all``, opened by ``runid`` and ``num_q`` (a block's per-topic
    lines come before its ``runid`` line, as trec_eval prints them).  ``intervals`` (``--ci``:
    {(run id, setting): {measure: (low, high)}}): after a measure's ``all`` line, its
    ``<measure>_ci_lower`` and ``<measure>_ci_upper`` lines (te-rust's ``-C`` layout).
    """
    runs = [results] if isinstance(results, RunResult) else list(results)
    out: list[str] = []
    for res in runs:
        if per_query:
            # byte order, as trec_eval prints topics (not aggregate.natural_key)
            for topic in sorted(res.per_topic, key=lambda t: t.encode("utf-8")):
                vals = res.per_topic[topic]
                for name in res.measures:
                    v = vals.get(name)
                    if v is not None and name not in not_per_topic and name != "num_q":
                        out.append(f"{name:<22}\t{cell(topic)}\t{_fmt(name, v, digits, integer)}\n")
        # a measure's own num_q (the FOL tasks: inex_eval's topic count) is the one printed
        num_q = res.average.get("num_q")
        if num_q is None:
            num_q = sum(1 for v in res.per_topic.values() if any(x is not None for x in v.values()))
        label = f"{cell(res.run_id)}[{cell(res.setting)}]" if label_settings else cell(res.run_id)
        out.append(f"{'runid':<22}\tall\t{label}\n")
        out.append(f"{'num_q':<22}\tall\t{_fmt('num_q', num_q, digits, frozenset({'num_q'}))}\n")
        found = (intervals or {}).get((res.run_id, res.setting)) or {}
        for name in res.measures:
            v = res.average.get(name)
            if v is not None and name != "num_q":
                out.append(f"{name:<22}\tall\t{_fmt(name, v, digits, integer)}\n")
                if name in found:
                    out += interval_lines(name, found[name], digits)
    return "".join(out)


def interval_lines(name: str, interval: tuple[float, float], digits: int | None) -> list[str]:
    """A measure's ``all`` interval lines: ``<name>_ci_lower`` and ``<name>_ci_upper``."""
    return [f"{name + suffix:<22}\tall\t{_fmt('', bound, digits, frozenset())}\n"
            for suffix, bound in zip(("_ci_lower", "_ci_upper"), interval)]


def format_evaluation(ev, digits: int | None = None, *, per_query: bool = False) -> str:
    """An Evaluation's results in trec_eval's layout, with its measures' declarations."""
    integer = frozenset(n for m in ev.measures for n in m.outputs(ev.params) if m.is_count(n))
    hidden = frozenset(n for m in ev.measures if not m.per_topic_reported for n in m.outputs(ev.params))
    return format_trec_eval(_trec_default_set(ev), digits, per_query=per_query, integer=integer,
                            not_per_topic=hidden, label_settings=ev.config.task_def.quantised,
                            intervals=ev.intervals)


def _trec_default_set(ev) -> list[RunResult]:
    """The measures of a ``trec`` evaluation in trec_eval's printing order; without METRICS,
    trec_eval's own default set, not inexeval's larger default (docs/measures.md §8.5)."""
    from inexeval.records import replace

    from inexeval.measures.classic import STRATEGIES, printing_order
    from inexeval.measures.trec_catalogue import trec_eval_set

    if ev.config.strategy not in STRATEGIES:
        return ev.results
    keep = None if ev.config.metrics else set(trec_eval_set("official"))
    return [replace(r, measures=printing_order([n for n in r.measures if keep is None or n in keep]))
            for r in ev.results]
