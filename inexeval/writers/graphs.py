"""Graphs of the averaged curves (docs/formats.md §9.2; issue "Graphs").

For each (setting, curve): ``-gnu`` writes ``<curve>_<setting>.dat`` (one
column per run, a header naming them) and ``.gp`` (a gnuplot script that
plots the .dat next to it into an .svg next to it: ``gnuplot file.gp`` from
any directory); ``-png`` renders the same values with matplotlib (headless
Agg backend, imported only here).  Values are the averages the tables print.
With per-topic graphs, each topic's curves go to ``topics/<topic>/``, the topic id made a
one-to-one directory name (:mod:`inexeval.names`); run ids are cells in the ``.dat`` header
(and so in the gnuplot titles) and in the PNG legends.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from inexeval.aggregate import natural_key
from inexeval.names import NameTable, cell
from inexeval.writers.files import atomic_write, fmt

#: tab10, the colour cycle of both writers
PALETTE = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
           "#bcbd22", "#17becf")
#: matplotlib dash patterns paired with gnuplot's dashtypes 1-6
DASHES = ("-", "--", ":", "-.", (0, (5, 1, 1, 1, 1, 1)), (0, (1, 3)))
#: a marker per run, beside its colour and dash: runs stay apart in grey print and for colour-blind
#: readers (run i: PALETTE[i % 10], DASHES[i % 6], MARKERS[i % 10]; the triples repeat after 30 runs)
MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*", "<", ">")


def run_style(i: int) -> tuple[str, object, str]:
    """(colour, dash, marker) of the i-th run drawn."""
    return PALETTE[i % len(PALETTE)], DASHES[i % len(DASHES)], MARKERS[i % len(MARKERS)]

@dataclass
class Curve:
    """One graph: x values and one y series per run (None where undefined), with the axes the
    measure declares (measures.registry.Curve)."""

    title: str
    setting: str
    xs: list[float]
    series: dict[str, list[float | None]]  # run id -> y values
    xlabel: str = "x"
    ylabel: str = "y"
    bounded: bool = True  # the measure's values lie in [0, 1]
    xscale: str = "linear"  # or "log" (a rank axis)

    @property
    def slug(self) -> str:
        return re.sub(r"[^A-Za-z0-9.=+-]+", "-", self.title).strip("-") + "_" + self.setting


def collect_curves(ev, topic: str | None = None) -> list[Curve]:
    """The curves of an Evaluation, from its RunResults (averages, or one topic's values)."""
    curves = []
    for s in ev.settings:
        results = [r for r in ev.results if r.setting == s.name]
        if not results:
            continue
        for m in ev.measures:
            for decl in m.curves(ev.params):
                series = {}
                for r in results:
                    src = r.average if topic is None else r.per_topic.get(topic)
                    if src is None:
                        continue
                    series[r.run_id] = [src.get(n) for n in decl.names]
                if series:
                    curves.append(Curve(decl.title, s.name, [float(x) for x in decl.xs], series,
                                        decl.xlabel, decl.ylabel, m.bounded, decl.xscale))
    return curves


#: the top of the y axis of a curve within [0, 1]: headroom, so a curve at 1 is not drawn on the frame
Y_TOP = 1.05
#: the labelled ticks of a log axis, where they fall within its range
LOG_TICKS = (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 20000, 50000, 100000)


@dataclass(frozen=True)
class Axes:
    """The axes both writers draw a curve on (docs/decisions.md: readable graph axes)."""

    xscale: str  # "linear" or "log"
    xrange: tuple[float, float] | None  # None: fitted to the data
    xticks: tuple[float, ...]  # labelled ticks of a log axis; () leaves the writer's own
    yrange: tuple[float, float] | None  # None: fitted to the data (a measure not within [0, 1])


def axes(c: Curve, *, gnuplot: bool = False) -> Axes:
    """The axes of a curve: x over [0, 1] for a recall axis, a log axis from the first to the last point
    for a rank axis, y over [0, Y_TOP] for a measure within [0, 1] (for gnuplot every curve: its
    autoscaling would round the range out to whole tick steps)."""
    lo, hi = min(c.xs), max(c.xs)
    if c.xscale == "log" and lo > 0 and hi > lo:
        xrange, xticks = (lo, hi), tuple(t for t in LOG_TICKS if lo <= t <= hi)
        return Axes("log", xrange, xticks, (0.0, Y_TOP) if c.bounded or gnuplot else None)
    xrange = (0.0, 1.0) if hi <= 1 else None
    return Axes("linear", xrange, (), (0.0, Y_TOP) if c.bounded or gnuplot else None)


def dat_text(c: Curve) -> str:
    runs = list(c.series)
    lines = ["# " + c.title + " " + c.setting, "\t".join(["x", *(cell(r) for r in runs)])]
    for i, x in enumerate(c.xs):
        lines.append("\t".join([repr(x), *(fmt(c.series[r][i]) for r in runs)]))
    return "\n".join(lines) + "\n"


def _gp_quote(s: str) -> str:
    return "'" + s.replace("'", "''") + "'"


def gp_text(c: Curve, task: str) -> str:
    xl, yl = c.xlabel, c.ylabel
    n = len(c.series)
    # 10 colours x 6 dash patterns: 60 distinguishable lines (as the PNG writer)
    styles = "\n".join(f"set linetype {i + 1} linecolor rgb '{PALETTE[i % 10]}' dashtype {1 + (i // 10) % 6}"
                       for i in range(n))
    lines = [
        "# gnuplot script written by inexeval; run: gnuplot " + c.slug + ".gp",
        "base = ARG0[1:strlen(ARG0)-3]",
        "set terminal svg size 900,600 dynamic noenhanced",
        "set output base.'.svg'",
        "set datafile separator tab",
        "set datafile missing '-'",
        f"set title {_gp_quote(f'{task} {c.title} ({c.setting})')} noenhanced",
        f"set xlabel {_gp_quote(xl)}",
        f"set ylabel {_gp_quote(yl)}",
        *_gp_axes(axes(c, gnuplot=True)),
        # outside the plot: inside it would cover a curve at 1 (nxCG) or near 1 (ep/gr at low recall)
        "set key outside right top noenhanced",
        "set grid",
        styles,
        _plot_line(list(c.series), len(c.xs)),
    ]
    return "\n".join(line for line in lines if line) + "\n"


def _gp_axes(a: Axes) -> list[str]:
    """The .gp lines of the axes."""
    lines = [f"set yrange [0:{a.yrange[1]}]" if a.yrange else "set autoscale y"]
    if a.xscale == "log":
        lines.append("set logscale x")
        lines.append("set xtics (" + ", ".join(str(t) for t in a.xticks) + ")")
        lines.append("set mxtics 10")
    lines.append(f"set xrange [{a.xrange[0]:g}:{a.xrange[1]:g}]" if a.xrange else "set autoscale x")
    return lines


def _plot_line(runs: list[str], points: int = 0) -> str:
    """The .gp plot command: titles from the .dat header, unless gnuplot would read one of them
    differently (a '"' or '\\', or "-", the missing-value mark): then each title written in the script."""
    n = len(runs)
    every = max(1, points // 10)  # a point marker every tenth of the curve, as the PNGs draw them
    if all(r and r != "-" and not set(cell(r)) & {'"', "\\"} for r in runs):
        return (f"plot for [i=2:{n + 1}] base.'.dat' using 1:i with linespoints linetype (i-1) "
                f"pointtype 1+(i-2)%10 dashtype 1+(i-2)%6 pointinterval {every} linewidth 1.5 "
                "title columnheader(i)")
    return "plot " + ", \\\n     ".join(f"base.'.dat' using 1:{i + 2} with linespoints linetype {i + 1} "
                                      f"dashtype {i % 6 + 1} pointtype {i % 10 + 1} pointinterval {every} linewidth 1.5 "
                                      f"title {_gp_quote(cell(r))}" for i, r in enumerate(runs))


def write_gnuplot(curves: Sequence[Curve], out: Path, task: str) -> list[Path]:
    written = []
    for c in curves:
        atomic_write(out / f"{c.slug}.dat", dat_text(c))
        atomic_write(out / f"{c.slug}.gp", gp_text(c, task))
        written += [out / f"{c.slug}.dat", out / f"{c.slug}.gp"]
    return written


def write_png(curves: Sequence[Curve], out: Path, task: str, highlight: str | None = None) -> list[Path]:
    """One PNG per curve in ``out``; with ``highlight`` (a run id), that run drawn in colour over the
    others in grey, and only it named in the legend (the report's run pages)."""
    import io

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    written = []
    for c in curves:
        fig = figure(c, task, highlight)
        path = out / f"{c.slug}.png"
        buf = io.BytesIO()
        try:
            fig.savefig(buf, format="png", metadata={"Software": None})
        finally:
            plt.close(fig)
        atomic_write(path, buf.getvalue())
        written.append(path)
    return written


def figure(c: Curve, task: str, highlight: str | None = None):
    """The matplotlib Figure of one curve (the caller closes it); with ``highlight`` (a run id), that
    run in colour over the others in grey, only it named in the legend."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    n = len(c.series)
    fig, ax = plt.subplots(figsize=(9 if n > 8 else 7, 5), dpi=100)
    for i, (run, ys) in enumerate(c.series.items()):
        y = [float("nan") if v is None else v for v in ys]
        if highlight is None:
            colour, dash, marker = run_style(i)
            ax.plot(c.xs, y, color=colour, linestyle=dash, marker=marker, markersize=4,
                    markevery=0.1, linewidth=1.4, label=_legend_label(run))  # markers a tenth of the axes apart
        else:
            mine = run == highlight
            first_other = not mine and all(r == highlight for r in list(c.series)[:i])
            ax.plot(c.xs, y, color=PALETTE[0] if mine else "#b8b8b8", linewidth=2.2 if mine else 0.9,
                    zorder=3 if mine else 2,
                    label=_legend_label(run) if mine else "other runs" if first_other else "_nolegend_")
    xl, yl = c.xlabel, c.ylabel
    ax.set(title=f"{task} {c.title} ({c.setting})", xlabel=xl, ylabel=yl)
    _set_axes(ax, axes(c))
    ax.grid(True, alpha=0.3)
    if n > 8 and highlight is None:
        ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1), fontsize="x-small", ncol=1 + n // 30)
    else:
        ax.legend(loc="best", fontsize="small")  # where it covers the fewest points
    fig.tight_layout()
    return fig


def _set_axes(ax, a: Axes) -> None:
    """Draw a matplotlib Axes as ``a`` says."""
    if a.xscale == "log":
        from matplotlib.ticker import FixedLocator, NullFormatter, ScalarFormatter

        ax.set_xscale("log")
        ax.xaxis.set_major_locator(FixedLocator(a.xticks))
        ax.xaxis.set_major_formatter(ScalarFormatter())
        ax.xaxis.set_minor_formatter(NullFormatter())
    if a.xrange:
        ax.set_xlim(*a.xrange)
    if a.yrange:
        ax.set_ylim(*a.yrange)


def _legend_label(run: str) -> str:
    """A run id as matplotlib shows it: a cell, ``$`` not read as mathtext, and a leading ``_``
    (which hides a line from the legend) kept visible by a space before it."""
    label = cell(run).replace("$", r"\$")
    return " " + label if label.startswith("_") else label


def topic_dirs(topics: Sequence[str], warnings: list[str] | None = None) -> dict[str, str]:
    """The directory name of each topic's graphs: one-to-one (:class:`inexeval.names.NameTable`);
    a topic whose directory is not named by its id is reported in ``warnings``."""
    table = NameTable()
    out = {}
    for t in topics:
        out[t] = table.assign(t)
        if out[t] != t and warnings is not None:
            warnings.append(f"topic {t!r}: its graphs are written to topics/{out[t]}")
    return out


def write_graphs(ev, *, gnuplot: bool, png: bool, per_topic: bool = False,
                 warnings: list[str] | None = None, results_dir: Path | None = None) -> list[Path]:
    """Write the requested graphs under RESULTS_DIR/<TASK>/graphs/ (and topics/<topic>/ with per_topic;
    a topic whose directory is not named by its id is reported in ``warnings``); ``results_dir``
    replaces RESULTS_DIR (a staging directory, see :mod:`inexeval.resultsdir`)."""
    out = Path(ev.config.results_dir if results_dir is None else results_dir) / ev.config.task / "graphs"
    jobs = [(out, collect_curves(ev))]
    if per_topic:
        topics = sorted({t for r in ev.results for t in r.per_topic}, key=natural_key)
        dirs = topic_dirs(topics, warnings)
        jobs += [(out / "topics" / dirs[t], collect_curves(ev, t)) for t in topics]
    written = []
    for where, curves in jobs:
        if gnuplot:
            written += write_gnuplot(curves, where, ev.config.task)
        if png:
            written += write_png(curves, where, ev.config.task)
    return written
