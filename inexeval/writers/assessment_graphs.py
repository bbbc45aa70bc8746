"""Graphs of ``inexeval assessments`` (``-gnu``: ``.dat`` + ``.gp``; ``-png``: matplotlib), under
``RESULTS_DIR/<TASK>/assessments/graphs/`` (docs/formats.md §10.3):

- ``agreement_<level>``: per topic judged twice, ∩/∪ of every grade (``all`` first), a bar group a topic;
- ``sizes_<level>``: how many items of each grade have a size in each half-decade bin
  (1–3.2, 3.2–10, 10–32, ... characters), over every topic of the official assessments.
"""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np

from inexeval.aggregate import natural_key
from inexeval.names import cell
from inexeval.writers.files import atomic_write, fmt


def _gp_text(title: str, xlabel: str, ylabel: str, columns: list[str], *, bars: bool) -> str:
    quoted = cell(title).replace("'", "''")
    lines = ["base = ARG0[1:strlen(ARG0)-3]", "set terminal svg size 900,500 dynamic noenhanced",
             "set output base.'.svg'", "set datafile separator tab", "set datafile missing '-'",
             f"set title '{quoted}' noenhanced", f"set xlabel '{xlabel}'", f"set ylabel '{ylabel}'",
             "set key outside right noenhanced"]
    if bars:
        lines += ["set style data histogram", "set style histogram clustered gap 1", "set style fill solid 0.8",
                  "set yrange [0:1]", "set xtics rotate by 90"]
        plots = [f"base.'.dat' using {k + 2}:xtic(1) title '{cell(c)}'" for k, c in enumerate(columns)]
    else:
        lines += ["set logscale x", "set style data linespoints"]
        plots = [f"base.'.dat' using 2:{k + 3} title '{cell(c)}'" for k, c in enumerate(columns)]
    return "\n".join(lines + ["plot " + ", ".join(plots)]) + "\n"


def _png(path: Path, title: str, xlabel: str, ylabel: str, labels, columns, matrix, *, bars: bool, x=None) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(max(8, 0.4 * len(labels) * max(1, len(columns)) / 3), 4), dpi=100)
    if bars:
        width = 0.8 / max(1, len(columns))
        for k, c in enumerate(columns):
            ax.bar(np.arange(len(labels)) + k * width, np.nan_to_num(matrix[:, k]), width, label=cell(c))
        ax.set_xticks(np.arange(len(labels)) + 0.4 - width / 2, [cell(t).replace("$", r"\$") for t in labels],
                      rotation=90, fontsize="small")
        ax.set_ylim(0, 1)
    else:
        for k, c in enumerate(columns):
            ax.plot(x, matrix[:, k], marker="o", label=cell(c))
        ax.set_xscale("log")
    ax.set(xlabel=xlabel, ylabel=ylabel)
    ax.set_title(cell(title).replace("$", r"\$"), fontsize="medium")
    ax.legend(fontsize="small")
    fig.tight_layout()
    buf = io.BytesIO()
    fig.savefig(buf, format="png", metadata={"Software": None})
    plt.close(fig)
    atomic_write(path, buf.getvalue())


def write_graphs(out: Path, rows, loaded, task: str, *, gnuplot: bool, png: bool) -> list[Path]:
    """Write the graphs of the module docstring; returns the files written."""
    written: list[Path] = []
    value = {tuple(r[:5]): r[5] for r in rows if r[0] == "agreement"}
    both = sorted((t for t in loaded.official if t in loaded.additional), key=natural_key)
    for level in loaded.agreement_levels:
        columns = [g for g in ("all", *loaded.grades) if ("agreement", both[0] if both else "", level, g, "ratio")
                   in value]
        if not both or not columns:
            continue
        m = np.array([[np.nan if (v := value.get(("agreement", t, level, g, "ratio"))) is None else v
                       for g in columns] for t in both], dtype=float)
        stem, title = f"agreement_{level}", f"{task}: agreement between assessors per grade, {level} level"
        written += _write(out, stem, title, "topic", "intersection / union", both, columns, m, gnuplot, png,
                          bars=True)
    for level in loaded.stats_levels:
        grades = [g for g in ("all", *loaded.grades)]
        sizes = {g: [] for g in grades}
        for j in loaded.official.values():
            it = j.levels.get(level)
            if it is None:
                continue
            for g in grades:
                if g == "all" or g in it.grades:
                    s = it.size[it.relevant if g == "all" else it.grades[g]]
                    sizes[g].append(s[~np.isnan(s) & (s > 0)])
        flat = {g: np.concatenate(v) if v else np.array([]) for g, v in sizes.items()}
        biggest = max((float(v.max()) for v in flat.values() if v.size), default=0.0)
        if biggest <= 0:
            continue  # sizes unknown (TREC)
        edges = 10.0 ** np.arange(0.0, np.log10(biggest) + 0.5 + 1e-9, 0.5)
        if edges[-1] <= biggest:
            edges = np.append(edges, edges[-1] * 10 ** 0.5)
        columns = [g for g in grades if flat[g].size]
        m = np.array([np.histogram(flat[g], bins=edges)[0] for g in columns], dtype=float).T
        labels = [f"{a:.0f}-{b:.0f}" for a, b in zip(edges[:-1], edges[1:])]
        stem, title = f"sizes_{level}", f"{task}: sizes of the {level}s of each grade"
        written += _write(out, stem, title, "size (characters)", "items", labels, columns, m, gnuplot, png,
                          bars=False, x=np.sqrt(edges[:-1] * edges[1:]), lower=edges[:-1], upper=edges[1:])
    return written


def _write(out, stem, title, xlabel, ylabel, labels, columns, m, gnuplot, png, *, bars, x=None,
           lower=None, upper=None) -> list[Path]:
    written = []
    if gnuplot:
        if bars:
            head = "# topic\t" + "\t".join(cell(c) for c in columns)
            body = ["\t".join([cell(t), *(fmt(None if np.isnan(v) else float(v)) for v in row)])
                    for t, row in zip(labels, m)]
        else:
            head = "# from\tmiddle\t" + "\t".join(cell(c) for c in columns) + "\tto"
            body = ["\t".join([fmt(float(a)), fmt(float(mid)), *(str(int(v)) for v in row), fmt(float(b))])
                    for a, mid, row, b in zip(lower, x, m, upper)]
            # (the middle of each bin on a log scale is what the lines join; 'to' is the bin's upper edge)
        atomic_write(out / f"{stem}.dat", "\n".join([head, *body]) + "\n")
        atomic_write(out / f"{stem}.gp", _gp_text(title, xlabel, ylabel, columns, bars=bars))
        written += [out / f"{stem}.dat", out / f"{stem}.gp"]
    if png:
        _png(out / f"{stem}.png", title, xlabel, ylabel, labels, columns, m, bars=bars, x=x)
        written.append(out / f"{stem}.png")
    return written
