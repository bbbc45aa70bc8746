"""The report's per-topic figures (issue 33): how one measure's per-topic values spread in each run (a
PNG on the task page), and one run's per-topic difference from the median of all runs (a TREC
appendix's bar chart, inline SVG on the run pages); and the per-topic best, median and worst of all
runs that the run pages' tables print beside them.

The distribution is drawn with matplotlib (headless Agg backend, imported when drawing) and written as
:func:`inexeval.writers.graphs.save_png` writes every graph of the package: atomically, and the same
bytes for the same arguments (the jitter of the points comes from a fixed seed).  The bar chart is
text: hundreds of run pages cost no drawing, and each bar's tooltip gives its topic and value.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np

from inexeval.names import cell
from inexeval.writers.graphs import PALETTE, save_png

#: the longest run name or topic id drawn in full on an axis; a longer one keeps its start and end
LABEL_CHARS = 24
#: the seed of the points' jitter in the distribution plot: the same PNG every time
JITTER_SEED = 0
#: bars above the median, bars below (Okabe and Ito's blue and vermillion: apart for colour-blind readers)
ABOVE, BELOW = PALETTE[0], PALETTE[1]


def shorten(name: str, limit: int = LABEL_CHARS) -> str:
    """``name`` as a table cell (:func:`inexeval.names.cell`), its start and end around an ellipsis when
    longer than ``limit`` characters (runs often differ at the end)."""
    text = cell(name)
    if len(text) > limit:
        head = (limit - 1) - (limit - 1) // 3
        text = text[:head] + "\u2026" + text[len(text) - ((limit - 1) - head):]
    return text


def short_label(name: str, limit: int = LABEL_CHARS) -> str:
    """``name`` as a matplotlib axis label: :func:`shorten`, ``$`` not read as mathtext."""
    return shorten(name, limit).replace("$", r"\$")


def _defined(values) -> list[float]:
    """The values as floats, None and NaN (undefined) left out."""
    return [float(v) for v in values if v is not None and v == v]


def _finite(values) -> list[float]:
    """The values that can be drawn: None, NaN and infinities left out."""
    return [v for v in _defined(values) if not math.isinf(v)]


def per_topic_summary(values_by_run: dict[str, dict[str, float | None]], topics: list[str], *,
                      lower_better: bool = False) -> dict[str, tuple[float, float, float]]:
    """Per topic of ``topics``, (best, median, worst) of the values of the runs that have one there
    (``values_by_run``: run -> topic -> value; a missing topic, None or NaN is no value).  The median is
    numpy's: the middle value of an odd count, the mean of the two middle values of an even count.  Best
    is the largest value (the smallest with ``lower_better``).  A topic no run has a value for is left
    out; the others keep the order of ``topics``."""
    out: dict[str, tuple[float, float, float]] = {}
    for t in topics:
        vs = _defined(run.get(t) for run in values_by_run.values())
        if vs:
            lo, hi = min(vs), max(vs)
            out[t] = (lo if lower_better else hi, float(np.median(vs)), hi if lower_better else lo)
    return out


def topic_distribution_png(path: Path, title: str, measure: str, values: dict[str, list[float]],
                           order: list[str]) -> Path:
    """Write to ``path`` the per-topic distribution of ``measure`` in each run: a box (quartiles, median,
    whiskers to the furthest value within 1.5 interquartile ranges) over the run's per-topic values, drawn
    as jittered points, and the mean as a white diamond; one row per run of ``order`` (the first at the
    top; a run of ``values`` not in ``order`` is not drawn; None, NaN and infinite values are left out, a
    run without any value says so), run names on the y axis (shortened, :func:`short_label`).  Returns
    ``path``."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    runs = [r for r in order if r in values]
    data = [_finite(values[r]) for r in runs]
    n = len(runs)
    fig, ax = plt.subplots(figsize=(8, max(2.5, 1.4 + 0.32 * n)), dpi=100)
    rows = np.arange(n)
    drawn = [i for i in range(n) if data[i]]
    if drawn:
        ax.boxplot([data[i] for i in drawn], positions=rows[drawn], **_horizontal(ax), widths=0.6, whis=1.5,
                   showfliers=False, showmeans=True, manage_ticks=False, patch_artist=True,
                   boxprops={"facecolor": "#e8eef4", "edgecolor": "#333333"},
                   medianprops={"color": ABOVE, "linewidth": 2},
                   meanprops={"marker": "D", "markerfacecolor": "white", "markeredgecolor": "#333333",
                              "markersize": 5},
                   whiskerprops={"color": "#333333"}, capprops={"color": "#333333"})
    rng = np.random.default_rng(JITTER_SEED)
    for i in drawn:
        jitter = rng.uniform(-0.18, 0.18, len(data[i]))
        ax.scatter(data[i], i + jitter, s=9, color="#555555", alpha=0.55, linewidths=0, zorder=3)
    for i in range(n):
        if not data[i]:
            ax.text(0.5, i, "no value", transform=ax.get_yaxis_transform(), ha="center", va="center",
                    fontsize="small", color="#666666")
    ax.set_yticks(rows, [short_label(r) for r in runs], fontsize="small" if n <= 30 else "x-small")
    ax.set_ylim(n - 0.5, -0.5)  # the first run of ORDER at the top
    every = [v for d in data for v in d]
    if every and min(every) >= 0 and max(every) <= 1:
        ax.set_xlim(-0.02, 1.02)
    ax.set_xlabel(cell(measure).replace("$", r"\$") + " per topic")
    ax.set_title(cell(title).replace("$", r"\$"), fontsize="medium")
    ax.grid(True, axis="x", alpha=0.3)
    fig.tight_layout()
    return save_png(fig, path)


def _horizontal(ax) -> dict:
    """The boxplot argument of horizontal boxes: ``orientation`` from matplotlib 3.10, ``vert`` before."""
    import inspect

    if "orientation" in inspect.signature(ax.boxplot).parameters:
        return {"orientation": "horizontal"}
    return {"vert": False}


def median_difference_svg(measure: str, topics: list[str], diffs: list[float | None]) -> str:
    """A TREC appendix's bar chart of one run as inline SVG: per topic (in the order of ``topics``), its
    value of ``measure`` minus the median of all runs, a bar up (blue) or down (vermillion) from 0 on a
    scale symmetric about 0; an undefined difference (None, NaN or infinite) is a grey cross on the 0
    line, told apart from a difference of 0.  Each bar's tooltip (``<title>``) names its topic and
    difference; the first and last topics label the axis.  Text only (nothing to draw or load), every
    id escaped; the same text for the same arguments."""
    from inexeval.report.html import esc, esc_id, number

    if len(topics) != len(diffs):
        raise ValueError(f"{len(topics)} topics but {len(diffs)} differences")
    n = len(topics)
    ys = [None if d is None or d != d or math.isinf(float(d)) else float(d) for d in diffs]
    step = max(4, min(40, 600 // max(n, 1)))  # pixels per topic: at least 4, a short chart 600 wide
    left, top, plot_h = 46, 8, 120
    width, height = left + max(n, 1) * step + 8, top + plot_h + 30
    scale = max((abs(y) for y in ys if y is not None), default=0.0) or 1.0
    mid = top + plot_h / 2

    def y_of(v: float) -> float:
        return mid - v / scale * (plot_h / 2)

    out = [f'<svg class="bars" xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" role="img" aria-label="{esc(measure)} minus the median, per topic">']
    for v in (scale, 0.0, -scale):
        out.append(f'<text x="{left - 4}" y="{y_of(v) + 4:.1f}" text-anchor="end">'
                   f'{"+" if v > 0 else ""}{number(v, 2)}</text>')
    for i, (t, y) in enumerate(zip(topics, ys)):
        x = left + i * step
        tip = f"topic {esc_id(t)}: " + ("undefined" if y is None else ("+" if y > 0 else "") + number(y))
        if y is None:
            out.append(f'<text class="undefined" x="{x + step / 2:.1f}" y="{mid + 4:.1f}" text-anchor="middle">'
                       f"&#215;<title>{tip}</title></text>")
            continue
        y0, y1 = sorted((mid, y_of(y)))
        cls = "up" if y >= 0 else "down"
        out.append(f'<rect class="{cls}" x="{x + 1}" y="{y0:.1f}" width="{step - 2}" height="{max(y1 - y0, 0.5):.1f}">'
                   f"<title>{tip}</title></rect>")
    out.append(f'<line x1="{left}" y1="{mid:.1f}" x2="{left + max(n, 1) * step}" y2="{mid:.1f}" class="axis"/>')
    if n:
        out.append(f'<text x="{left}" y="{height - 8}">{esc(shorten(topics[0], 12))}</text>')
        if n > 1:
            out.append(f'<text x="{left + n * step}" y="{height - 8}" text-anchor="end">'
                       f'{esc(shorten(topics[-1], 12))}</text>')
    out.append("</svg>")
    return "".join(out)
