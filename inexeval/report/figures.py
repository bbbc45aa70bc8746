"""The report's per-topic figures (issue 33): how one measure's per-topic values spread in each run, and
one run's per-topic difference from the median of all runs (a TREC appendix's bar chart); and the
per-topic best, median and worst of all runs that the run pages' tables print beside them.

Each writer draws with matplotlib (headless Agg backend, imported when drawing) and writes its PNG as
:func:`inexeval.writers.graphs.save_png` writes every graph of the package: atomically, and the same
bytes for the same arguments (the jitter of the points comes from a fixed seed).
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np

from inexeval.names import cell
from inexeval.writers.graphs import PALETTE, save_png

#: the longest run name or topic id drawn in full on an axis; a longer one keeps its start and end
LABEL_CHARS = 24
#: the most topic labels the difference chart writes under its bars (every k-th beyond that)
MAX_TOPIC_LABELS = 40
#: the seed of the points' jitter in the distribution plot: the same PNG every time
JITTER_SEED = 0
#: bars above the median, bars below (Okabe and Ito's blue and vermillion: apart for colour-blind readers)
ABOVE, BELOW = PALETTE[0], PALETTE[1]


def short_label(name: str, limit: int = LABEL_CHARS) -> str:
    """``name`` as an axis label: a table cell (:func:`inexeval.names.cell`), its start and end around an
    ellipsis when longer than ``limit`` characters (runs often differ at the end), ``$`` not read as
    matplotlib's mathtext."""
    text = cell(name)
    if len(text) > limit:
        head = (limit - 1) - (limit - 1) // 3
        text = text[:head] + "\u2026" + text[len(text) - ((limit - 1) - head):]
    return text.replace("$", r"\$")


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


def topic_ticks(n: int, most: int = MAX_TOPIC_LABELS) -> list[int]:
    """The positions of the labelled topics among ``n``: all of them up to ``most``, else every k-th from
    the first (k the smallest step that leaves at most ``most``)."""
    step = max(1, math.ceil(n / most))
    return list(range(0, n, step))


def median_difference_png(path: Path, title: str, measure: str, topics: list[str], diffs: list[float]) -> Path:
    """Write to ``path`` a TREC appendix's bar chart of one run: per topic (in the order of ``topics``),
    its value of ``measure`` minus the median of all runs, a bar up (blue) or down (vermillion) from 0;
    an undefined difference (None, NaN or infinite) draws a grey cross on the 0 line instead of a bar.  Topic ids
    label the x axis, every k-th of them beyond :data:`MAX_TOPIC_LABELS` (:func:`topic_ticks`).  Returns
    ``path``."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    if len(topics) != len(diffs):
        raise ValueError(f"{len(topics)} topics but {len(diffs)} differences")
    n = len(topics)
    ys = [float("nan") if d is None or math.isinf(float(d)) else float(d) for d in diffs]
    fig, ax = plt.subplots(figsize=(min(14.0, max(6.0, 0.18 * n + 2)), 4), dpi=100)
    x = np.arange(n)
    heights = [0.0 if y != y else y for y in ys]
    colours = [ABOVE if y >= 0 else BELOW for y in heights]
    ax.bar(x, heights, width=0.8, color=colours, linewidth=0)
    undefined = [i for i, y in enumerate(ys) if y != y]
    if undefined:  # told apart from a difference of 0
        ax.plot(undefined, [0.0] * len(undefined), linestyle="none", marker="x", color="#666666", markersize=5,
                gid="undefined")
    ax.axhline(0, color="black", linewidth=0.8)
    ticks = topic_ticks(n)
    ax.set_xticks(ticks, [short_label(topics[i], 12) for i in ticks], rotation=90, fontsize="small")
    ax.set_xticks(x, minor=True)
    ax.set_xlim(-0.6, max(n, 1) - 0.4)
    top = max((abs(y) for y in heights), default=0.0)
    top = top * 1.08 if top > 0 else 1.0
    ax.set_ylim(-top, top)
    ax.set_xlabel("topic")
    ax.set_ylabel(cell(measure).replace("$", r"\$") + " \u2212 median")
    ax.set_title(cell(title).replace("$", r"\$"), fontsize="medium")
    ax.grid(True, axis="y", alpha=0.3)
    fig.tight_layout()
    return save_png(fig, path)
