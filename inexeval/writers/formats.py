"""The output formats of an evaluation's standard output, one row each: its name, the result units it
serves (None: every task's) and the writer of its text.  ``--format`` offers exactly these, the
command line's help and the Python API read them, and no code compares a format with a unit."""

from __future__ import annotations

from collections.abc import Callable


class Format:
    """One output format: NAME, TEXT(evaluation, digits, per_query), the UNITS it serves (None: all),
    and whether it takes ``--digits`` (decimals of the values).  (A plain class: the command line
    imports this table at its start.)"""

    __slots__ = ("name", "text", "units", "digits")

    def __init__(self, name: str, text: Callable[..., str], units: frozenset[str] | None = None,
                 digits: bool = False):
        self.name, self.text, self.units, self.digits = name, text, units, digits


def _tables(fmt: str) -> Callable[..., str]:
    def text(ev, digits: int | None, per_query: bool) -> str:
        import json

        from inexeval.writers.table import render

        counts: frozenset[str] = frozenset()
        if fmt == "table":  # counts as integers (num_ret); the other formats keep full precision
            from inexeval.measures.registry import output_facts

            counts = frozenset(c for c, f in output_facts(ev.measures, ev.params).items() if f.count)
        parts, json_rows = [], []
        for s in ev.settings:
            rs = [r for r in ev.results if r.setting == s.name]
            if not rs:
                continue
            out = render(ev.config.task, s.name, rs, ev.columns, per_topic=per_query, fmt=fmt,
                         intervals=ev.intervals,
                         symmetric=ev.interval_options is None or ev.interval_options.symmetric, counts=counts)
            if fmt == "json":
                json_rows.extend(json.loads(out))
            else:
                parts.append(out + ("\n\n" if fmt == "table" else "\n"))
        if fmt == "json":
            parts.append(json.dumps(json_rows, indent=1) + "\n")
        return "".join(parts)

    return text


def _paper(fmt: str) -> Callable[..., str]:
    def text(ev, digits: int | None, per_query: bool) -> str:
        from inexeval.writers import latex, markdown
        from inexeval.writers.papertable import summary_tables

        return (latex if fmt == "latex" else markdown).tables(summary_tables(ev, per_query))

    return text


def _trec_eval(ev, digits: int | None, per_query: bool) -> str:
    from inexeval.writers.trec_eval import format_evaluation

    return format_evaluation(ev, digits, per_query=per_query)


def _inex_eval(ev, digits: int | None, per_query: bool) -> str:
    from inexeval.writers.fol_text import inex_eval_text

    return inex_eval_text(ev, per_query=per_query)


#: The format table.
FORMATS: dict[str, Format] = {f.name: f for f in (
    Format("table", _tables("table")),
    Format("tsv", _tables("tsv")),
    Format("csv", _tables("csv")),
    Format("json", _tables("json")),
    Format("trec_eval", _trec_eval, digits=True),
    Format("inex_eval", _inex_eval, units=frozenset({"passage"})),
    Format("latex", _paper("latex")),
    Format("markdown", _paper("markdown")),
)}

#: The formats ``inexeval compare --format`` prints its tables in (table: its text, the default).
COMPARE_FORMATS = ("table", "latex", "markdown")


def serves(fmt: str, unit: str) -> bool:
    """Whether the format FMT prints the results of tasks of UNIT."""
    units = FORMATS[fmt].units
    return units is None or unit in units
