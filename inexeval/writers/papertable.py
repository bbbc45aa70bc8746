"""Tables for papers and READMEs: what ``--format latex`` and ``--format markdown`` print (docs/formats.md
§9.2.1, §9.2.6), as one neutral :class:`Table` that :mod:`inexeval.writers.latex` and
:mod:`inexeval.writers.markdown` each write in their syntax.

Nothing here computes a measure: the values are the ``RunResult``s' (or compare's) as given.  What
is decided here is the layout and which values are bold: in the summary table, per column, the
runs ranked first on it as the report ranks them (:func:`inexeval.report.data.ranks`: the measure's
declared direction, ``lower_is_better``; values within the relative tolerance of docs/measures.md
§10 tied, so every tied best is bold); a column of a measure that does not rank runs (counts such
as ``num_ret``, the QA synset numbers) has no bold value.
"""

from __future__ import annotations

import math
from typing import Sequence

#: decimals of the values (as ``--format table``), and of compare's correlations (as its text)
DIGITS = 4
CORRELATION_DIGITS = 2


class Num:
    """A number cell: VALUE (None or NaN: undefined) with DIGITS decimals; BOLD; COUNT: an integral
    value printed as an integer (``num_ret``); SIGNED: a difference, printed with its sign; SUP: a
    superscript after it (a run's significance group letters, docs/measures.md §12.4)."""

    __slots__ = ("value", "digits", "bold", "count", "signed", "sup")

    def __init__(self, value: float | None, digits: int = DIGITS, *, bold: bool = False, count: bool = False,
                 signed: bool = False, sup: str = ""):
        self.value, self.digits, self.bold, self.count, self.signed = value, digits, bold, count, signed
        self.sup = sup

    @property
    def defined(self) -> bool:
        return self.value is not None and not (isinstance(self.value, float) and math.isnan(self.value))

    def text(self) -> str:
        """The number as ASCII (``-0.1234``, ``+0.0100``, ``80``, ``inf``); '' when undefined."""
        if not self.defined:
            return ""
        v = float(self.value)
        if math.isinf(v):
            return "-inf" if v < 0 else ("+inf" if self.signed else "inf")
        if self.count and v == int(v):
            return str(int(v))
        text = f"{v:+.{self.digits}f}" if self.signed else f"{v:.{self.digits}f}"
        if text.lstrip("+-").strip("0.") == "":  # -0.0000 is 0.0000 (the sign of a rounded zero says nothing)
            text = ("+" if self.signed else "") + text.lstrip("+-")
        return text


class Id(str):
    """A part of a caption that is an id (run, topic, measure, setting): written as a cell
    (:func:`inexeval.names.cell`), then escaped; the other parts are inexeval's own words, escaped."""

    __slots__ = ()


#: the caption's part that stands for the undefined value (each writer's own marker)
UNDEFINED = object()


def ids(names: Sequence[str]) -> list:
    """NAMES as caption parts separated by ', '."""
    out: list = []
    for i, n in enumerate(names):
        out += [", "] if i else []
        out.append(Id(n))
    return out


def undefined(rows: list[list]) -> list:
    """The caption's parts saying how an undefined value shows, when ROWS hold one."""
    if any(isinstance(c, Num) and not c.defined for row in rows for c in row):
        return [" (undefined: ", UNDEFINED, ")"]
    return []


class Table:
    """One table: CAPTION (a list of parts: str, :class:`Id` or :data:`UNDEFINED`), LABEL (a LaTeX label
    of ASCII letters, digits and ``:.-``), HEADER (column titles, ids as they are), ALIGN (``l``/``r``
    per column), ROWS (cells: a str, an id or text, escaped by the writer; or a :class:`Num`), NOTES
    (lists of caption parts, printed under the table), and RULES (row indexes before which a rule separates groups)."""

    __slots__ = ("caption", "label", "header", "align", "rows", "notes", "rules")

    def __init__(self, caption: list, label: str, header: Sequence[str], align: str, rows: list[list],
                 notes: Sequence[str] = (), rules: Sequence[int] = ()):
        self.caption, self.label, self.header, self.align = caption, label, list(header), align
        self.rows, self.notes, self.rules = rows, list(notes), list(rules)


def label(*parts: str) -> str:
    """A LaTeX label from PARTS: every character outside ``[A-Za-z0-9.-]`` as ``-`` (labels stay
    plain ASCII; two settings whose names differ only there share a label, which LaTeX warns about)."""
    import re

    return ":".join(re.sub(r"[^A-Za-z0-9.-]", "-", p) for p in parts)


def best_runs(values: dict[str, float | None], measure: str, facts: dict) -> set[str]:
    """The runs whose value of MEASURE is best (rank 1 as the report ranks: ties all best; none for a
    measure that does not rank runs or a count; none when no value is defined)."""
    from inexeval.ranks import ranks

    f = facts.get(measure)
    if f is not None and f.count:
        return set()
    return {run for run, rank in ranks(values, measure, facts).items() if rank == 1}


def summary_tables(ev, per_query: bool) -> list[Table]:
    """One table per setting of the evaluation EV: runs as rows (with ``-q`` each run's topics, then
    its mean), measures as columns; the best value of each column in bold (per topic with ``-q``)."""
    from inexeval.aggregate import natural_key
    from inexeval.measures.registry import output_facts

    facts = output_facts(ev.measures, ev.params)
    columns = list(ev.columns)
    task = ev.config.task
    out = []
    for s in ev.settings:
        rs = [r for r in ev.results if r.setting == s.name]
        if not rs:
            continue
        # (run, topic, values) in the order of --format table; bold decided among the rows of one topic
        lines = []
        for r in rs:
            if per_query:
                lines += [(r.run_id, t, r.per_topic[t]) for t in sorted(r.per_topic, key=natural_key)]
            lines.append((r.run_id, "all", r.average))
        bold: set[tuple[int, str]] = set()
        for topic in dict.fromkeys(t for _, t, _ in lines):
            at = {i: line for i, line in enumerate(lines) if line[1] == topic}
            for c in columns:
                best = best_runs({str(i): v.get(c) for i, (_, _, v) in at.items()}, c, facts)
                bold |= {(int(i), c) for i in best}
        rows, rules = [], []
        for i, (run, topic, values) in enumerate(lines):
            if per_query and i and lines[i - 1][0] != run:
                rules.append(i)
            count = {c: facts[c].count if c in facts else False for c in columns}
            rows.append([run, *([topic] if per_query else []),
                         *(Num(values.get(c), bold=(i, c) in bold, count=count[c]) for c in columns)])
        lower = [c for c in columns if c in facts and facts[c].lower_is_better and facts[c].ranks_runs]
        unranked = [c for c in columns if c in facts and (not facts[c].ranks_runs or facts[c].count)]
        caption = [Id(task), ", setting ", Id(s.name), ": ",
                   "each topic's value and the mean over the topics (all)" if per_query else "the mean over the topics",
                   " of each measure per run", *undefined(rows), ". Bold: the best value of each column",
                   " among the runs on the same topic" if per_query else "", " (ties all bold"]
        if lower:
            caption += ["; lower is better for ", *ids(lower)]
        if unranked:
            caption += ["; not bolded, as they do not rank runs: ", *ids(unranked)]
        caption.append("). No significance test here: see inexeval compare.")
        header = ["run", *(["topic"] if per_query else []), *columns]
        out.append(Table(caption, label("tab", "inexeval", task, s.name), header,
                         "l" * (2 if per_query else 1) + "r" * len(columns), rows, rules=rules))
    return out


_METHOD = {"kendall": "Kendall's tau-b", "spearman": "Spearman's rho"}


def correlation_table(task: str, kind: str, scope: str, method: str, names: Sequence[str], matrix) -> Table:
    """Compare's lower-triangular correlation matrix (rows: names[1:], columns: names[:-1])."""
    rows = []
    for i in range(1, len(names)):
        rows.append([names[i], *(Num(float(matrix[i, j]), CORRELATION_DIGITS, signed=False) for j in range(i)),
                     *[""] * (len(names) - 1 - i)])
    what = (["the measures, setting ", Id(scope)] if kind == "measures"
            else ["the quantisations, measure and overlap ", Id(scope)])
    caption = [Id(task), f": {_METHOD.get(method, method)} between the run rankings of ", *what]
    if undefined(rows):
        caption += [" (undefined, ", UNDEFINED, ": fewer than two runs have a value for both, or one of them ranks "
                    "every run the same)"]
    caption.append(".")
    return Table(caption, label("tab", "inexeval", task, "correlation", method, kind, scope),
                 ["", *names[:-1]], "l" + "r" * (len(names) - 1), rows)


_TESTS = {"t": "paired t test", "randomisation": "paired randomisation test", "bootstrap": "paired bootstrap test"}


def significance_table(rows: Sequence[dict], alpha: float, samples: int | None = None,
                       seed: int | None = None) -> Table:
    """Compare's significance rows (one setting) as a table: each pair of runs, its topics, means,
    difference, p and Holm-Bonferroni corrected p, and * where significant (as compare decides)."""
    first = rows[0]
    test = _TESTS.get(first["test"], first["test"] + " test")
    if first["test"] != "t" and samples is not None:
        test += f" ({samples} samples, seed {seed})"
    body = [[r["run_a"], r["run_b"], Num(r["topics"], count=True),
             *(Num(r[k], signed=k == "diff") for k in ("mean_a", "mean_b", "diff", "p", "p_holm")),
             "*" if r["significant"] else ""] for r in rows]
    caption = [Id(first["task"]), ", setting ", Id(first["setting"]), ", measure ", Id(first["measure"]),
               f": two-sided {test} of every pair of runs over the topics both have a value for; p corrected with "
               f"Holm-Bonferroni over the {sum(Num(r['p']).defined for r in rows)} pair(s) with a p; * significant "
               f"at alpha = {alpha} (corrected p at most alpha)", *undefined(body), "."]
    notes = [[Id(r["run_a"]), " vs ", Id(r["run_b"]), ": ", Id(r["note"])] for r in rows if r["note"]]
    return Table(caption, label("tab", "inexeval", first["task"], "significance", first["setting"], first["measure"]),
                 ["run A", "run B", "topics", "mean A", "mean B", "A - B", "p", "p (Holm)", ""], "llrrrrrrl",
                 body, notes=notes)


def differences_table(setting: str, measure: str, a: str, b: str, topics, diffs, wins: tuple[int, int, int],
                      left_out: Sequence[str]) -> Table:
    """Compare's per-topic differences A - B of two runs, with the win counts in the caption."""
    wins_a, wins_b, ties = wins
    caption = ["Setting ", Id(setting), ", measure ", Id(measure), ": per-topic difference ", Id(a), " - ", Id(b),
               "; ", Id(a), f" better on {wins_a} topic(s), ", Id(b), f" on {wins_b}, {ties} tied"]
    if left_out:
        caption += ["; left out (one of the runs has no value there): ", *ids(left_out)]
    caption.append(".")
    return Table(caption, label("tab", "inexeval", "differences", setting, measure, a, b),
                 ["topic", "difference"], "lr", [[t, Num(d, signed=True)] for t, d in zip(topics, diffs)])


def stats_tables(st, groups: Sequence[dict], anova: Sequence[dict], tukey: Sequence[dict]) -> list[Table]:
    """Compare's statistics of one setting (:mod:`inexeval.compare.runstats`): the means with their
    intervals and significance groups as superscript letters, the ANOVA, and Tukey HSD's pairs."""
    o = st.options
    level = f"{o.ci_level * 100:g}"
    tukey_name = ("Tukey HSD on the two-way ANOVA residual" if o.tukey == "classic" else
                  f"randomised Tukey HSD ({'exact' if getattr(st.tukey, 'exact', False) else st.tukey.samples} "
                  f"permutations, seed {o.seed})")
    where = [Id(st.task), ", setting ", Id(st.setting), ", measure ", Id(st.measure)]
    means = Table([*where, f": mean over {len(st.topics)} topics with its {level}% "
                   f"{'t' if o.ci == 't' else 'percentile bootstrap'} interval; superscript letters: groups by "
                   f"{tukey_name} at alpha = {o.alpha} (runs sharing a letter are not significantly different)."],
                  label("tab", "inexeval", st.task, "groups", st.setting, st.measure),
                  ["run", "mean", "lower", "upper"], "lrrr",
                  [[r["run"], Num(r["mean"], sup=r["group"]), Num(r["ci_lower"]), Num(r["ci_upper"])]
                   for r in groups])
    body = [[r["source"], Num(r["ss"], 6), Num(r["df"], count=True), Num(r["ms"], 6), Num(r["f"]), Num(r["p"])]
            for r in anova]
    anova_table = Table([*where, ": two-way ANOVA without replication (runs x topics); the residual mean square "
                         "is V_E", *undefined(body), "."],
                        label("tab", "inexeval", st.task, "anova", st.setting, st.measure),
                        ["source", "SS", "df", "MS", "F", "p"], "lrrrrr", body)
    body = [[r["run_a"], r["run_b"], Num(r["diff"], signed=True), Num(r["ci_lower"], signed=True),
             Num(r["ci_upper"], signed=True), Num(r["p"]), "*" if r["significant"] else "", Num(r["es_e"]),
             Num(r["d_z"])] for r in tukey]
    tukey_table = Table([*where, f": {tukey_name}, every pair with its {(1 - o.alpha) * 100:g}% simultaneous "
                         f"interval of A - B; * significant at alpha = {o.alpha}; ES_E = (A - B)/sqrt(V_E); d_z: "
                         "the mean over the standard deviation of the paired differences", *undefined(body), "."],
                        label("tab", "inexeval", st.task, "tukey", st.setting, st.measure),
                        ["run A", "run B", "A - B", "lower", "upper", "p", "", "ES_E", "d_z"], "llrrrrlrr", body)
    return [means, anova_table, tukey_table]


def reliability_table(task: str, rows: Sequence[dict], test: str) -> Table:
    """Compare's reliability rows (docs/measures.md §12.7): per setting and measure, the discriminative
    power and the swap rate."""
    first = rows[0]
    body = [[r["setting"], r["measure"], Num(r["runs"], count=True), Num(r["topics"], count=True),
             Num(r["significant"], count=True), Num(r["pairs"], count=True), Num(r["discriminative_power"]),
             Num(r["subset_size"], count=True), Num(r["swap_rate"])] for r in rows]
    caption = [Id(task), f": reliability of each measure; discriminative power: the share of run pairs significant "
               f"at alpha = {first['alpha']} by the {test} ({first['samples']} samples, seed {first['seed']}); swap "
               "rate: the share of run pairs two disjoint topic subsets of the given size order differently",
               *undefined(body), "."]
    return Table(caption, label("tab", "inexeval", task, "reliability"),
                 ["setting", "measure", "runs", "topics", "significant", "pairs", "power", "subset", "swap rate"],
                 "llrrrrrrr", body)
