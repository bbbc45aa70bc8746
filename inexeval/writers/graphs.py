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
from pathlib import Path
from typing import Sequence

from inexeval.aggregate import natural_key
from inexeval.names import NameTable, cell
from inexeval.records import record
from inexeval.writers.files import atomic_write, fmt

#: the colours of both writers: Okabe and Ito's colour-blind-safe palette (its yellow left out: too pale
#: on white), strongest contrasts first
PALETTE = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000")
#: dash patterns of both writers, as on-off lengths in line widths (() a solid line): matplotlib draws
#: ``(0, pattern)``, gnuplot ``dashtype (pattern)``, so the .svg and the .png draw a run alike
DASHES = ((), (6, 2), (1.5, 1.5), (6, 2, 1.5, 2), (6, 1.5, 1.5, 1.5, 1.5, 1.5), (1.5, 4))
#: a marker per run, beside its colour and dash: runs stay apart in grey print and for colour-blind readers
MARKERS = ("o", "s", "^", "D", "v", "p", "X", "P", "*", "h")
#: gnuplot's point type nearest each marker (filled circle, square, triangles, diamond, pentagon; x, +, *;
#: gnuplot has no hexagon: its open pentagon)
GP_POINTTYPES = (7, 5, 9, 13, 11, 15, 2, 1, 3, 14)
#: the vertical lines of the cut-offs marked on a rank axis (the DCV values of nxCG)
MARK_COLOUR = "#666666"


def run_style(i: int) -> tuple[str, object, str]:
    """(colour, matplotlib line style, marker) of the i-th run drawn: PALETTE[i % 7], DASHES[i % 6],
    MARKERS[i % 10], so the triples of the first 210 runs all differ, and two runs drawn one after the
    other differ in all three."""
    dash = DASHES[i % len(DASHES)]
    return PALETTE[i % len(PALETTE)], (0, dash) if dash else "-", MARKERS[i % len(MARKERS)]


def gp_style(i: int) -> str:
    """The gnuplot ``set linetype`` options of the i-th run drawn: :func:`run_style`'s colour, dash and
    marker."""
    dash = DASHES[i % len(DASHES)]
    dashtype = "(" + ",".join(f"{d:g}" for d in dash) + ")" if dash else "solid"
    return (f"linecolor rgb '{PALETTE[i % len(PALETTE)]}' dashtype {dashtype} "
            f"pointtype {GP_POINTTYPES[i % len(GP_POINTTYPES)]}")


@record
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
    marks: tuple[float, ...] = ()  # x values marked by a vertical line (a rank curve's DCV cut-offs)

    @property
    def slug(self) -> str:
        return re.sub(r"[^A-Za-z0-9.=+-]+", "-", self.title).strip("-") + "_" + self.setting


def collect_curves(ev, topic: str | None = None) -> list[Curve]:
    """The curves of an Evaluation, from its RunResults (averages, or one topic's values).  A rank curve
    (nxCG) also gets the points of the config's DCV cut-offs (``ev.params.dcv``) its measure computes,
    and those cut-offs as its ``marks``."""
    curves = []
    for s in ev.settings:
        results = [r for r in ev.results if r.setting == s.name]
        if not results:
            continue
        for m in ev.measures:
            for decl in m.curves(ev.params):
                xs, names, marks = [float(x) for x in decl.xs], list(decl.names), ()
                if decl.xscale == "log":
                    xs, names, marks = with_cutoffs(xs, names, m.outputs(ev.params), getattr(ev.params, "dcv", ()))
                series = {}
                for r in results:
                    src = r.average if topic is None else r.per_topic.get(topic)
                    if src is None:
                        continue
                    series[r.run_id] = [src.get(n) for n in names]
                if series:
                    curves.append(Curve(decl.title, s.name, xs, series, decl.xlabel, decl.ylabel, m.bounded,
                                        decl.xscale, marks))
    return curves


def with_cutoffs(xs: list[float], names: list[str], outputs: Sequence[str], cutoffs: Sequence[int]
                 ) -> tuple[list[float], list[str], tuple[float, ...]]:
    """A rank curve (output names ``<name>@<rank>``) with the points at ``cutoffs`` within its ranks that
    the measure outputs and the curve lacks, in rank order, and those cut-offs within its ranks (its
    marks); a cut-off beyond its last rank (MAX_RESULTS) neither."""
    prefix = names[0].rpartition("@")[0] if names else ""
    if not prefix or any(x != int(x) or n != f"{prefix}@{int(x)}" for n, x in zip(names, xs)):
        return xs, names, ()
    hi = max(xs)
    within = sorted({int(k) for k in cutoffs if 1 <= k <= hi and k == int(k)})
    have, known = set(xs), set(outputs)
    extra = [k for k in within if k not in have and f"{prefix}@{k}" in known]
    points = sorted([*zip(xs, names), *((float(k), f"{prefix}@{k}") for k in extra)], key=lambda p: p[0])
    marks = tuple(float(k) for k in within)
    return [x for x, _ in points], [n for _, n in points], marks


#: the top of the y axis of a curve within [0, 1]: headroom, so a curve at 1 is not drawn on the frame
Y_TOP = 1.05
#: the labelled ticks of a log axis, where they fall within its range
LOG_TICKS = (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 20000, 50000, 100000)


@record(frozen=True)
class Axes:
    """The axes both writers draw a curve on (docs/decisions.md: readable graph axes)."""

    xscale: str  # "linear" or "log"
    xrange: tuple[float, float] | None  # None: fitted to the data
    xticks: tuple[float, ...]  # labelled ticks of a log axis; () leaves the writer's own
    yrange: tuple[float, float] | None  # None: fitted to the data (a measure not within [0, 1])
    xmarks: tuple[float, ...] = ()  # x values marked by a labelled vertical line (DCV cut-offs)


def axes(c: Curve, *, gnuplot: bool = False) -> Axes:
    """The axes of a curve: x over [0, 1] for a recall axis, a log axis from rank 1 (or the first point,
    below 1) to the last point for a rank axis, y over [0, Y_TOP] for a measure within [0, 1] (for gnuplot
    every curve: its autoscaling would round the range out to whole tick steps); the curve's marks within
    the x range."""
    lo, hi = min(c.xs), max(c.xs)
    yrange = (0.0, Y_TOP) if c.bounded or gnuplot else None
    if c.xscale == "log" and lo > 0 and hi > lo:
        lo = min(lo, 1.0)
        xticks = tuple(t for t in LOG_TICKS if lo <= t <= hi)
        return Axes("log", (lo, hi), xticks, yrange, tuple(k for k in c.marks if lo <= k <= hi))
    xrange = (0.0, 1.0) if hi <= 1 else None
    lo, hi = xrange or (lo, hi)
    return Axes("linear", xrange, (), yrange, tuple(k for k in c.marks if lo <= k <= hi))


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
    # each run's colour, dash and point type as the PNG writer draws them (run_style)
    styles = "\n".join(f"set linetype {i + 1} {gp_style(i)}" for i in range(n))
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
        *_gp_marks(axes(c, gnuplot=True)),
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


def _gp_marks(a: Axes) -> list[str]:
    """The .gp lines of the marks: a dotted vertical line behind the curves, labelled ``@k`` at its top."""
    lines = []
    for i, k in enumerate(a.xmarks):
        lines.append(f"set arrow {i + 1} from {k:g}, graph 0 to {k:g}, graph 1 nohead back "
                     f"linecolor rgb '{MARK_COLOUR}' dashtype (1.5,1.5) linewidth 1")
        lines.append(f"set label {i + 1} '@{k:g}' at {k:g}, graph 0.985 left offset character 0.3, 0 "
                     f"front noenhanced font ',9' textcolor rgb '{MARK_COLOUR}'")
    return lines


def _plot_line(runs: list[str], points: int = 0) -> str:
    """The .gp plot command: titles from the .dat header, unless gnuplot would read one of them
    differently (a '"' or '\\', or "-", the missing-value mark): then each title written in the script."""
    n = len(runs)
    every = max(1, points // 10)  # a point marker every tenth of the curve, as the PNGs draw them
    # the colour, dash and point type of each run are its linetype's (gp_style)
    if all(r and r != "-" and not set(cell(r)) & {'"', "\\"} for r in runs):
        return (f"plot for [i=2:{n + 1}] base.'.dat' using 1:i with linespoints linetype (i-1) "
                f"pointinterval {every} linewidth 1.5 title columnheader(i)")
    return "plot " + ", \\\n     ".join(f"base.'.dat' using 1:{i + 2} with linespoints linetype {i + 1} "
                                      f"pointinterval {every} linewidth 1.5 "
                                      f"title {_gp_quote(cell(r))}" for i, r in enumerate(runs))


def write_gnuplot(curves: Sequence[Curve], out: Path, task: str) -> list[Path]:
    written = []
    for c in curves:
        atomic_write(out / f"{c.slug}.dat", dat_text(c))
        atomic_write(out / f"{c.slug}.gp", gp_text(c, task))
        written += [out / f"{c.slug}.dat", out / f"{c.slug}.gp"]
    return written


def png_bytes(fig) -> bytes:
    """The PNG of a matplotlib Figure, which it closes: the same bytes for the same figure (no
    ``Software`` or date in its metadata).  Every PNG of the package is made here, but for the run
    pages' graphs, which :func:`write_highlighted_pngs` encodes from the canvas with Pillow (matplotlib's
    own PNG writer) the same way."""
    import io

    import matplotlib.pyplot as plt

    buf = io.BytesIO()
    try:
        fig.savefig(buf, format="png", metadata={"Software": None})
    finally:
        plt.close(fig)
    return buf.getvalue()


def save_png(fig, path: Path) -> Path:
    """Write :func:`png_bytes` of ``fig`` (closed) to ``path`` atomically (a temporary file in its
    directory, then a rename); returns ``path``."""
    atomic_write(path, png_bytes(fig))
    return path


def write_png(curves: Sequence[Curve], out: Path, task: str, highlight: str | None = None) -> list[Path]:
    """One PNG per curve in ``out``; with ``highlight`` (a run id), that run drawn in colour over the
    others in grey, and only it named in the legend (the report's run pages)."""
    return [save_png(figure(c, task, highlight), out / f"{c.slug}.png") for c in curves]


def write_highlighted_pngs(c: Curve, outs: dict[str, Path], task: str) -> list[Path]:
    """For each run of ``outs`` (run id -> directory), its PNG of curve ``c`` in that directory: the run
    in colour over every run in grey, only it named in the legend (the report's run pages; as
    :func:`figure` with ``highlight``).  The grey runs, axes and marks are drawn once; each run's line
    and legend are then drawn over a copy of that picture (matplotlib's blitting), so a curve with n
    runs costs one drawing and n lines, not n drawings.  The same bytes for the same arguments."""
    import io

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.lines import Line2D
    from PIL import Image

    fig, ax = plt.subplots(figsize=(9 if len(c.series) > 8 else 7, 5), dpi=100)
    written = []
    try:
        ys = {run: [float("nan") if v is None else v for v in vs] for run, vs in c.series.items()}
        for run, y in ys.items():
            ax.plot(c.xs, y, color=GREY, linewidth=0.9, zorder=2)
        ax.set(title=f"{task} {c.title} ({c.setting})", xlabel=c.xlabel, ylabel=c.ylabel)
        a = axes(c)
        _set_axes(ax, a)
        _draw_marks(ax, a)
        ax.grid(True, alpha=0.3)
        fig.subplots_adjust(**MARGINS)
        canvas = fig.canvas
        canvas.draw()
        background = canvas.copy_from_bbox(fig.bbox)
        marks = [line for line in ax.get_lines() if line.get_gid() == "mark"][:1]
        other = Line2D([], [], color=GREY, linewidth=0.9)
        for run, where in outs.items():
            canvas.restore_region(background)
            (line,) = ax.plot(c.xs, ys[run], color=PALETTE[0], linewidth=2.2, zorder=3, animated=True)
            handles = [line, *([other] if len(ys) > 1 else []), *marks]
            labels = [_legend_label(run), *(["other runs"] if len(ys) > 1 else []), *(["DCV cut-offs"] if marks else [])]
            legend = ax.legend(handles, labels, loc="best", fontsize="small")
            legend.set_animated(True)
            ax.draw_artist(line)
            ax.draw_artist(legend)
            width, height = canvas.get_width_height()
            buf = io.BytesIO()
            Image.frombuffer("RGBA", (width, height), canvas.buffer_rgba(), "raw", "RGBA", 0, 1).save(buf, "png")
            atomic_write(Path(where) / f"{c.slug}.png", buf.getvalue())
            written.append(Path(where) / f"{c.slug}.png")
            line.remove()
            legend.remove()
    finally:
        plt.close(fig)
    return written


#: the grey of the other runs on a run's own graphs
GREY = "#b8b8b8"

#: the distance between two markers of a curve, and the step between the first markers of two runs
#: drawn one after the other, in fractions of the axes' diagonal (markers sparse, and not on each other)
MARK_EVERY, MARK_STAGGER = 0.1, 0.01


def figure(c: Curve, task: str, highlight: str | None = None):
    """The matplotlib Figure of one curve (the caller closes it): run i drawn in :func:`run_style` (i),
    markers a tenth of the axes apart; the curve's marks (DCV cut-offs) dotted vertical lines labelled
    ``@k``.  With ``highlight`` (a run id), that run in colour over the others in grey, only it named in
    the legend."""
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
                    markevery=((i % 10) * MARK_STAGGER, MARK_EVERY), linewidth=1.4, label=_legend_label(run))
        else:
            mine = run == highlight
            first_other = not mine and all(r == highlight for r in list(c.series)[:i])
            ax.plot(c.xs, y, color=PALETTE[0] if mine else GREY, linewidth=2.2 if mine else 0.9,
                    zorder=3 if mine else 2,
                    label=_legend_label(run) if mine else "other runs" if first_other else "_nolegend_")
    xl, yl = c.xlabel, c.ylabel
    ax.set(title=f"{task} {c.title} ({c.setting})", xlabel=xl, ylabel=yl)
    a = axes(c)
    _set_axes(ax, a)
    _draw_marks(ax, a)
    ax.grid(True, alpha=0.3)
    if n > 8 and highlight is None:
        ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1), fontsize="x-small", ncol=1 + n // 30)
        fig.tight_layout()  # (room for the legend beside the axes, however wide its names)
    else:
        ax.legend(loc="best", fontsize="small")  # where it covers the fewest points
        fig.subplots_adjust(**MARGINS)
    return fig


#: the margins of a graph whose legend is inside its axes, as fractions of the figure (7 × 5 inches): room
#: for the title, the axis labels and the tick labels (tight_layout would measure them by drawing it twice)
MARGINS = {"left": 0.1, "right": 0.975, "bottom": 0.105, "top": 0.93}


def _draw_marks(ax, a: Axes) -> None:
    """The marks of ``a``: dotted grey vertical lines behind the curves (gid ``mark``; the first named
    "DCV cut-offs" in the legend), each labelled ``@k`` at the top, in the headroom above 1."""
    for i, k in enumerate(a.xmarks):
        ax.axvline(k, color=MARK_COLOUR, linestyle=(0, (1.5, 1.5)), linewidth=0.9, zorder=1, gid="mark",
                   label="DCV cut-offs" if i == 0 else "_nolegend_")
        ax.text(k, 0.995, f" @{k:g}", transform=ax.get_xaxis_transform(), ha="left", va="top",
                fontsize="x-small", color=MARK_COLOUR, gid="mark-label")


def _set_axes(ax, a: Axes) -> None:
    """Draw a matplotlib Axes as ``a`` says."""
    if a.xscale == "log":
        from matplotlib.ticker import FixedLocator, NullLocator, ScalarFormatter

        ax.set_xscale("log")
        ax.xaxis.set_major_locator(FixedLocator(a.xticks))
        ax.xaxis.set_major_formatter(ScalarFormatter())
        ax.xaxis.set_minor_locator(NullLocator())  # no minor ticks: a third of the drawing time
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
