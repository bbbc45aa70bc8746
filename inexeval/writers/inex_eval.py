"""The text inex_eval 3.1 prints for one run (``docs/inex_eval.md §9``).

Layout of a scored run::

    [Impossible recall point: B lines]
    <eval run-id="RUN_ID" file="RUN">
    [per-topic lines, with -q]
    all lines
    </eval>

A measure line is NAME, a separator, TOPIC (or ``all``), a TAB and the
value; the separator is two TABs when NAME has fewer than 8 characters and
one TAB otherwise.  Counts are decimal integers; doubles are printed as
Java's ``Double.toString`` prints them (:func:`java_double`, D15).  A
rejected run prints its error lines instead of the block.
"""

from __future__ import annotations

import math

from inexeval.names import cell

__all__ = ["java_double", "format_value", "format_outcome", "measure_line"]


def java_double(x: float) -> str:
    """``Double.toString(x)``: the shortest digits that read back as ``x`` (Python's ``repr`` digits).

    ``NaN``, ``Infinity``, ``-Infinity``, ``0.0``, ``-0.0``; plain form with
    at least one fraction digit for 10⁻³ ≤ |x| < 10⁷ (``0.4``, ``1.0``,
    ``1234567.5``); otherwise ``d.ddd…E±n`` with at least one fraction digit
    and no ``+`` (``3.332222592469177E-4``, ``1.0E7``).
    """
    x = float(x)
    if x != x:
        return "NaN"
    if math.isinf(x):
        return "Infinity" if x > 0 else "-Infinity"
    if x == 0:
        return "-0.0" if math.copysign(1.0, x) < 0 else "0.0"
    ax = abs(x)
    sign = "-" if x < 0 else ""
    text = repr(ax)
    if 1e-3 <= ax < 1e7:
        # repr is in plain form in this range (its scientific form starts below 1e-4 and at 1e16)
        return sign + (text if "." in text else text + ".0")
    mantissa, _, exp = text.partition("e")
    whole, _, fraction = mantissa.partition(".")
    digits = whole + fraction
    significant = digits.lstrip("0")
    exponent = (int(exp) if exp else 0) + len(whole) - (len(digits) - len(significant)) - 1
    significant = significant.rstrip("0") or "0"
    return f"{sign}{significant[0]}.{significant[1:] or '0'}E{exponent}"


def format_value(v: int | float) -> str:
    """An int as a decimal integer, a float as :func:`java_double`."""
    if isinstance(v, int):
        return str(v)
    return java_double(v)


def _name_column(name: str) -> str:
    """A measure's name and the tabs after it, as the tool aligns them (two below 8 characters)."""
    return name + ("\t\t" if len(name) < 8 else "\t")


def measure_line(name: str, topic: str, value: int | float) -> str:
    """One measure line (without its line end)."""
    return f"{_name_column(name)}{cell(topic)}\t{format_value(value)}"


def _value_texts():
    """:func:`format_value`, remembering the text of each non-zero float (equal non-zero floats have
    one text; 0.0 and -0.0, equal but printed apart, are not remembered): a run's per-topic values
    repeat (counts, gP at the cutoffs, 0.0)."""
    memo: dict[float, str] = {}

    def text(v: int | float) -> str:
        if type(v) is not float or not v:
            return format_value(v)
        t = memo.get(v)
        if t is None:
            t = memo[v] = java_double(v)
        return t

    return text


def format_outcome(outcome, task: str, run_label: str, *, per_query: bool) -> str:
    """Exactly what the tool prints for one run, ending with a newline ('' when it prints nothing).

    ``outcome`` is a :class:`~inexeval.measures.fol.FolOutcome`; ``run_label``
    the RUN path as given on the command line.  A run on which the tool
    would die (``outcome.death``) is printed like a rejected run: only what
    the tool printed while reading it (its ``Impossible recall point`` lines).
    """
    lines = list(outcome.impossible)
    if outcome.rejected is not None:
        lines += outcome.rejected
    elif outcome.death is None:
        # ids and path as inex_eval prints them, but control characters escaped (docs/inex_eval.md §9.1)
        lines.append(f'<eval run-id="{cell(outcome.run_id)}" file="{cell(run_label)}">')
        text = _value_texts()
        if per_query:
            for topic in outcome.topics:
                row = outcome.per_topic[topic]
                tab_topic = f"{cell(topic)}\t"
                lines += [_name_column(name) + tab_topic + text(value) for name, value in row.items()]
        for name, value in outcome.all.items():
            lines.append(measure_line(name, "all", value))
        lines.append("</eval>")
    return "\n".join(lines) + "\n" if lines else ""
