"""``--format latex``: the tables of :mod:`inexeval.writers.papertable` as LaTeX (docs/formats.md §9.2.1).

Each table is a ``table`` float: its ``\\caption`` (task, setting, measure, and in compare's
significance table the test and the Holm-Bonferroni correction), a ``\\label``, and a booktabs
``tabular`` (``\\toprule``, ``\\midrule``, ``\\bottomrule``; needs ``\\usepackage{booktabs}``).
Best values are ``\\textbf``; an undefined value is ``--``; a negative number has a math minus.

Ids (run, topic and measure names, settings) are first made cells as in every format
(:func:`inexeval.names.cell`: a backslash doubled, control characters as ``\\n``, ``\\t``,
``\\xNN``...), then escaped for LaTeX: ``\\ & % $ # _ { } ~ ^`` and ``< > |`` (which the default
OT1 font encoding would print as other glyphs) as commands, ``--``, ``''``, ````` and ``,,``
ligatures broken, and a ``[`` or ``*`` that opens a cell after ``\\\\`` kept from being read as its
argument.  Other non-ASCII characters are left as UTF-8: pdflatex reads them (UTF-8 has been its
default input encoding since 2018; older ones need ``\\usepackage[utf8]{inputenc}``) when the
fonts have them (accented Latin letters: ``\\usepackage[T1]{fontenc}``); other scripts need
XeLaTeX or LuaLaTeX.
"""

from __future__ import annotations

from typing import Sequence

from inexeval.names import cell
from inexeval.writers.papertable import UNDEFINED, Id, Num, Table

_SPECIAL = {
    "\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_", "{": r"\{",
    "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}", "<": r"\textless{}",
    ">": r"\textgreater{}", "|": r"\textbar{}",
}
_LIGATURE = "-`',!?"  # a second one of these after one of them would make a ligature (--, ``, '', ,, !` ?`)
_WORDS = (("Holm-Bonferroni", "Holm--Bonferroni"), ("alpha", r"$\alpha$"), ("Kendall's tau-b", r"Kendall's $\tau_b$"),
          ("Spearman's rho", r"Spearman's $\rho$"))  # in inexeval's own words only (not in ids)
UNDEFINED_MARK = "--"
PREAMBLE = ("% inexeval --format latex: needs \\usepackage{booktabs}; "
            "ids are UTF-8 (docs/formats.md §9.2.1)\n")


def escape(text: str) -> str:
    """TEXT (already a cell, or inexeval's own words) as LaTeX text."""
    out = []
    for i, ch in enumerate(text):
        out.append(_SPECIAL.get(ch, ch))
        if ch in _LIGATURE and i + 1 < len(text) and text[i + 1] in _LIGATURE:
            out.append("{}")
    s = "".join(out)
    return "{}" + s if s[:1] in ("[", "*") else s


def escape_id(name: str) -> str:
    """An id (run, topic, measure, setting) as LaTeX text: a cell, escaped."""
    return escape(cell(str(name)))


def _words(text: str) -> str:
    s = escape(text)
    for plain, tex in _WORDS:
        s = s.replace(escape(plain), tex)
    return s


def _parts(parts: Sequence) -> str:
    return "".join(UNDEFINED_MARK if p is UNDEFINED else escape_id(p) if isinstance(p, Id) else _words(p)
                   for p in parts)


def _number(n: Num) -> str:
    text = n.text()
    if not text:
        return UNDEFINED_MARK
    if text.startswith("-"):
        text = "$-$" + text[1:] if text[1:2].isdigit() else "$-\\infty$"
    elif text.startswith("+"):
        text = "$+$" + text[1:] if text[1:2].isdigit() else "$+\\infty$"
    elif text == "inf":
        text = "$\\infty$"
    text = f"\\textbf{{{text}}}" if n.bold else text
    return text + (f"$^{{\\mathrm{{{escape(n.sup)}}}}}$" if n.sup else "")


def _cell(c) -> str:
    return _number(c) if isinstance(c, Num) else escape_id(c) if c else ""


def table(t: Table) -> str:
    """One table float."""
    lines = ["\\begin{table}[htbp]", "\\centering", f"\\caption{{{_parts(t.caption)}}}", f"\\label{{{t.label}}}",
             f"\\begin{{tabular}}{{@{{}}{t.align}@{{}}}}", "\\toprule",
             " & ".join(escape_id(h) for h in t.header) + " \\\\", "\\midrule"]
    for i, row in enumerate(t.rows):
        if i in t.rules:
            lines.append("\\midrule")
        lines.append(" & ".join(_cell(c) for c in row) + " \\\\")
    lines += ["\\bottomrule", "\\end{tabular}"]
    if t.notes:
        lines.append("\\par\\smallskip\\footnotesize")
        lines += [_parts(n) + ("\\\\" if i + 1 < len(t.notes) else "") for i, n in enumerate(t.notes)]
    lines.append("\\end{table}")
    return "\n".join(lines) + "\n"


def tables(ts: Sequence[Table], *, preamble: bool = True) -> str:
    """TS one after the other (a blank line between), after a comment naming the packages needed."""
    return (PREAMBLE if preamble else "") + "\n".join(table(t) for t in ts)
