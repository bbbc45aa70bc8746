"""`inexeval compare`: correlations between measures and quantisations, significance
between runs, per-topic differences (seed 000 §7, seed 001 §4, seed 004 §3).

Works on :class:`~inexeval.model.RunResult` lists, so it serves a fresh
evaluation and result files read back alike.  Nothing here prints; the
``format_*`` functions return text and the ``*_rows`` functions the rows
written to ``correlations.tsv/json`` and ``significance.tsv/json``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Sequence

import numpy as np

from inexeval.compare import stats as analysis
from inexeval.aggregate import natural_key
from inexeval.errors import ConfigError
from inexeval.model import RunResult
from inexeval.names import cell
from inexeval.records import record
from inexeval.writers.files import atomic_write, fmt


@record
class CorrelationTable:
    """One matrix: the correlation of run rankings between ``names`` (measures or quantisations)."""

    kind: str  # "measures" or "quantisations"
    scope: str  # the setting (for measures) or "<measure> <overlap>" (for quantisations)
    method: str  # "kendall" | "spearman"
    names: list[str]
    matrix: np.ndarray


def headline_view(tables: Sequence[CorrelationTable], shown: Sequence[str]) -> list[CorrelationTable]:
    """TABLES as printed by default: the matrices between measures restricted to SHOWN (the headline
    outputs that rank runs) when two or more of them are there, the quantisation tables of SHOWN's
    measures only; the files keep every table whole."""
    keep = set(shown)
    out = []
    for t in tables:
        if t.kind == "measures":
            idx = [i for i, n in enumerate(t.names) if n in keep]
            if len(idx) >= 2 and len(idx) < len(t.names):
                t = CorrelationTable(t.kind, t.scope, t.method, [t.names[i] for i in idx], t.matrix[np.ix_(idx, idx)])
            out.append(t)
        elif t.kind == "quantisations":
            if not keep or t.scope.rsplit(" ", 1)[0] in keep:
                out.append(t)
        else:
            out.append(t)
    return out


def _scores(results: Sequence[RunResult], setting: str, measure: str) -> dict[str, float | None]:
    return {r.run_id: r.average.get(measure) for r in results if r.setting == setting}


def measure_correlations(results: Sequence[RunResult], settings: Sequence[str], measures: Sequence[str],
                         method: str) -> list[CorrelationTable]:
    """Per setting: correlation between the run rankings of every pair of measures (seed 000 Table 1)."""
    out = []
    for s in settings:
        scores = {m: _scores(results, s, m) for m in measures}
        names, mat = analysis.correlation_matrix(scores, method)
        out.append(CorrelationTable("measures", s, method, names, mat))
    return out


def quantisation_correlations(results: Sequence[RunResult], settings: Sequence[str], measures: Sequence[str],
                              method: str) -> list[CorrelationTable]:
    """Per measure and overlap: correlation between quantisation functions (seed 000 Table 2)."""
    by_overlap: dict[str, list[str]] = {}
    for s in settings:
        quant, _, overlap = s.rpartition("_")
        if quant:
            by_overlap.setdefault(overlap, []).append(s)
    out = []
    for overlap, ss in by_overlap.items():
        if len(ss) < 2:
            continue
        for m in measures:
            scores = {s.rpartition("_")[0]: _scores(results, s, m) for s in ss}
            names, mat = analysis.correlation_matrix(scores, method)
            out.append(CorrelationTable("quantisations", f"{m} {overlap}", method, names, mat))
    return out


def averaged(tables: Sequence[CorrelationTable], kind: str, method: str) -> CorrelationTable | None:
    """Average over tasks/settings of the tables of one kind (seed 000 Tables 1-2)."""
    chosen = [(t.names, t.matrix) for t in tables if t.kind == kind and t.method == method]
    if len(chosen) < 2:
        return None
    names, mat = analysis.average_matrices(chosen)
    return CorrelationTable(kind, "average", method, names, mat)


def correlation_rows(task: str, tables: Sequence[CorrelationTable]) -> list[dict]:
    rows = []
    for t in tables:
        for i, a in enumerate(t.names):
            for j in range(i):
                v = float(t.matrix[i, j])
                rows.append({"task": task, "kind": t.kind, "scope": t.scope, "method": t.method,
                             "a": a, "b": t.names[j], "value": None if np.isnan(v) else v})
    return rows


def paper_text(fmt: str, tables: list, *, preamble: bool = False) -> str:
    """TABLES (:mod:`inexeval.writers.papertable`) in FMT, ``latex`` or ``markdown``."""
    from inexeval.writers import latex, markdown

    if fmt == "latex":
        return latex.tables(tables, preamble=preamble).rstrip("\n")
    return markdown.tables(tables).rstrip("\n")


def format_correlations(tables: Sequence[CorrelationTable], task: str, fmt: str = "table") -> str:
    """The correlation TABLES as text: FMT ``table`` (compare's own), ``latex`` or ``markdown``."""
    if fmt != "table":
        from inexeval.writers.papertable import correlation_table

        return paper_text(fmt, [correlation_table(task, t.kind, t.scope, t.method, t.names, t.matrix) for t in tables],
                      preamble=True)
    blocks = []
    for t in tables:
        title = f"== {task}  {t.method} correlation of {t.kind}  ({t.scope}) =="
        block = title + "\n" + analysis.format_lower_triangle(t.names, t.matrix, digits=2)
        if t.names and np.isnan(t.matrix[np.tril_indices(len(t.names), -1)]).any():
            block += ("\n- : undefined: fewer than two runs have a value for both, or one of them ranks "
                      "every run the same")
        blocks.append(block)
    return "\n\n".join(blocks)


def significance_rows(task: str, results: Sequence[RunResult], setting: str, measure: str, *, test: str,
                      samples: int, seed: int, alpha: float, runs: Sequence[str] | None) -> list[dict]:
    per_topic = {r.run_id: {t: v.get(measure) for t, v in r.per_topic.items()}
                 for r in results if r.setting == setting and (not runs or r.run_id in runs)}
    rows = analysis.pairwise_significance(per_topic, test=test, samples=samples, seed=seed, alpha=alpha)
    return [{"task": task, "setting": setting, "measure": measure, "test": test, **r._asdict()} for r in rows]


def p_text(v) -> str:
    """A p-value as the tables print it: 4 decimals, or ``<0.0001`` (a p-value is never 0)."""
    if v is None or (isinstance(v, float) and np.isnan(v)):
        return "-"
    return "<0.0001" if 0 < v < 0.00005 else f"{v:.4f}"


def format_significance(rows: Sequence[dict], alpha: float, fmt: str = "table", *, samples: int | None = None,
                        seed: int | None = None) -> str:
    """The significance ROWS of one setting as text: FMT ``table`` (compare's own), ``latex`` or
    ``markdown`` (whose caption names the test, with SAMPLES and SEED for the resampling tests)."""
    from tabulate import tabulate

    if not rows:
        return "% no pair of runs to compare" if fmt == "latex" else "(no pair of runs to compare)"
    if fmt != "table":
        from inexeval.writers.papertable import significance_table

        return paper_text(fmt, [significance_table(rows, alpha, samples, seed)])
    head = f"== {rows[0]['task']}  {rows[0]['setting']}  {rows[0]['measure']}  {rows[0]['test']} test, " \
           f"Holm-corrected, * = significant at {alpha} =="
    def num(v: float) -> str:
        return "-" if v is None or np.isnan(v) else f"{v:.4f}"

    table = [[cell(r["run_a"]), cell(r["run_b"]), r["topics"], *(num(r[k]) for k in ("mean_a", "mean_b", "diff")),
              *(p_text(r[k]) for k in ("p", "p_holm")),
              "*" if r["significant"] else ""] for r in rows]
    text = head + "\n" + tabulate(table, headers=["run A", "run B", "topics", "mean A", "mean B", "A - B", "p",
                                                  "p (Holm)", ""], disable_numparse=True,
                                   colalign=("left", "left", "right", *["right"] * 5, "left"))
    notes = [f"  {cell(r['run_a'])} vs {cell(r['run_b'])}: {r['note']}" for r in rows if r["note"]]
    if notes:
        text += "\nmeans and p are over the topics where both runs have a value (topics); - : undefined:\n" + "\n".join(notes)
    return text


def topic_difference_text(results: Sequence[RunResult], setting: str, measure: str, a: str, b: str,
                          fmt: str = "table"):
    """(text, topics, differences): seed 004's precision histogram as a table with win counts (FMT:
    ``table``, compare's own text, ``latex`` or ``markdown``)."""
    ra = next((r for r in results if r.setting == setting and r.run_id == a), None)
    rb = next((r for r in results if r.setting == setting and r.run_id == b), None)
    if ra is None or rb is None:
        raise ConfigError(f"--runs: no results for {a if ra is None else b!r} under {setting}")
    va = {t: v.get(measure) for t, v in ra.per_topic.items()}
    vb = {t: v.get(measure) for t, v in rb.per_topic.items()}
    topics, diffs = analysis.topic_differences(va, vb)
    wins_a, wins_b, ties = analysis.win_counts(va, vb)
    if fmt != "table":
        from inexeval.writers.papertable import differences_table

        left = sorted((set(va) | set(vb)) - set(topics), key=natural_key)
        return paper_text(fmt, [differences_table(setting, measure, a, b, topics, diffs, (wins_a, wins_b, ties),
                                              left)]), topics, diffs
    a, b = cell(a), cell(b)
    lines = [f"== {setting}  {measure}: {a} - {b} per topic ==",
             *(f"{cell(t)}\t{d:+.4f}" for t, d in zip(topics, diffs)),
             f"{a} better on {wins_a} topic(s), {b} on {wins_b}, {ties} tied"]
    left_out = [t for t in sorted((set(va) | set(vb)) - set(topics), key=natural_key)]
    if left_out:
        lines.append(f"left out (one of the runs has no value there): {', '.join(cell(t) for t in left_out)}")
    return "\n".join(lines), topics, diffs


def write_histogram(out: Path, stem: str, title: str, topics, diffs, *, gnuplot: bool, png: bool) -> list[Path]:
    """The precision histogram (seed 004 Fig. 3.5 style) as a .dat/.gp pair and/or a PNG bar chart."""
    written = []
    if gnuplot:
        dat = "# topic\tdifference\n" + "".join(f"{cell(t)}\t{fmt(d)}\n" for t, d in zip(topics, diffs))
        gp = "\n".join([
            "base = ARG0[1:strlen(ARG0)-3]",
            "set terminal svg size 900,500 dynamic noenhanced",
            "set output base.'.svg'",
            "set datafile separator tab",
            "set title '" + cell(title).replace("'", "''") + "' noenhanced",
            "set style fill solid 0.8", "set boxwidth 0.8", "set yrange [-1:1]",
            "set xlabel 'topic'", "set ylabel 'difference'", "set xtics rotate by 90", "unset key",
            *_topic_tics(topics),
        ]) + "\n"
        atomic_write(out / f"{stem}.dat", dat)
        atomic_write(out / f"{stem}.gp", gp)
        written += [out / f"{stem}.dat", out / f"{stem}.gp"]
    if png:
        import io

        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        fig, ax = plt.subplots(figsize=(max(6, 0.25 * len(topics)), 4), dpi=100)
        colours = ["#2ca02c" if d > 0 else "#d62728" for d in diffs]
        ax.bar(range(len(topics)), diffs, color=colours)
        ax.set_xticks(range(len(topics)), [cell(t).replace("$", r"\$") for t in topics], rotation=90,
                      fontsize="small")
        ax.axhline(0, color="black", linewidth=0.8)
        ax.set(ylim=(-1, 1), title=cell(title).replace("$", r"\$"), xlabel="topic", ylabel="difference")
        fig.tight_layout()
        buf = io.BytesIO()
        fig.savefig(buf, format="png", metadata={"Software": None})
        plt.close(fig)
        atomic_write(out / f"{stem}.png", buf.getvalue())
        written.append(out / f"{stem}.png")
    return written


def _topic_tics(topics) -> list[str]:
    """The histogram's plot command: topic labels from the .dat, unless gnuplot would read one
    differently (a '"' or '\\', or "-"): then the labels written in the script, as cells."""
    if all(str(t) != "-" and not set(cell(str(t))) & {'"', "\\"} for t in topics):
        return ["plot base.'.dat' using 0:2:xtic(1) with boxes linecolor rgb '#1f77b4'"]
    tics = ", ".join("'" + cell(str(t)).replace("'", "''") + f"' {i}" for i, t in enumerate(topics))
    return [f"set xtics ({tics})", "plot base.'.dat' using 0:2 with boxes linecolor rgb '#1f77b4'"]


def write_tables(out: Path, name: str, rows: list[dict]) -> list[Path]:
    """``name.tsv`` (header + rows, full precision) and ``name.json``; returns their paths."""
    cols = list(rows[0]) if rows else []
    lines = ["\t".join(cols)]
    for r in rows:
        lines.append("\t".join(fmt(None if isinstance(v, float) and v != v else v)
                               if isinstance(v, float) or v is None else cell(str(v)) for v in r.values()))
    atomic_write(out / f"{name}.tsv", "\n".join(lines) + "\n")
    # an undefined value (NaN) is null, as in the result files' "-" (docs/measures.md §10), and an infinite
    # one (F with V_E = 0, d_z of constant differences) the string "inf" or "-inf": JSON has neither
    clean = [{k: _json_number(v) for k, v in r.items()} for r in rows]
    atomic_write(out / f"{name}.json", json.dumps(clean, indent=1, default=_jsonable, allow_nan=False) + "\n")
    return [out / f"{name}.tsv", out / f"{name}.json"]


def _json_number(v):
    if isinstance(v, (float, np.floating)):
        if np.isnan(v):
            return None
        if np.isinf(v):
            return "inf" if v > 0 else "-inf"
    return v


def _jsonable(v):
    if isinstance(v, (np.bool_,)):
        return bool(v)
    if isinstance(v, np.floating):
        return float(v)
    raise TypeError(type(v))


def sorted_settings(results: Sequence[RunResult]) -> list[str]:
    return list(dict.fromkeys(r.setting for r in results))


def tested_measure(columns: Sequence[str], measure: str | None, headline: Sequence[str] = ()) -> str:
    """The measure of the significance tests: ``measure``, or by default the first HEADLINE output that
    is a column and ranks runs (a count such as num_ret does not: listed last in a task's headline),
    else the first column."""
    from inexeval.tasks import COUNT_NAMES

    return measure or next((h for h in headline if h in columns and h not in COUNT_NAMES), None) or \
        next((h for h in headline if h in columns), columns[0])


def headline(measures) -> list[str]:
    """The headline outputs the MEASURES declare, in order."""
    return [h for m in measures for h in m.headline]
