"""The report's per-topic figures (inexeval.report.figures) and the runs' styles and rank axis of the
curve graphs (inexeval.writers.graphs, issue 33): PNGs valid and the same bytes on every call, written
atomically; best / median / worst per topic by hand; each run its own (colour, dash, marker); nxCG's
axis from rank 1 with the DCV cut-offs marked (read from the matplotlib figures, not the pixels)."""

from __future__ import annotations

import re
import struct
import subprocess
from pathlib import Path
from types import SimpleNamespace

import matplotlib.pyplot as plt
import numpy as np
import pytest
from conftest import require_gnuplot

from inexeval.measures import registry
from inexeval.measures.registry import Params, Setting
from inexeval.model import RunResult
from inexeval.report import figures
from inexeval.writers import graphs

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def png_size(data: bytes) -> tuple[int, int]:
    """(width, height) of a PNG, read from its IHDR chunk, after checking the signature."""
    assert data[:8] == PNG_SIGNATURE
    length, kind = struct.unpack(">I4s", data[8:16])
    assert kind == b"IHDR" and length == 13
    return struct.unpack(">II", data[16:24])


def distribution_args():
    rng = np.random.default_rng(7)
    values = {f"run {i}": [float(v) for v in rng.random(30)] for i in range(6)}
    values["run 2"][4] = float("nan")  # undefined values are left out
    values["a-very-long-run-name-that-needs-shortening-$1"] = [0.2, 0.4, None, 0.9]
    values["no values"] = []
    order = ["run 3", "a-very-long-run-name-that-needs-shortening-$1", "run 0", "run 1", "run 2", "run 4",
             "run 5", "no values"]
    return "CO.Thorough: MAep per topic", "MAep", values, order


WRITERS = {
    "distribution": (figures.topic_distribution_png, distribution_args),
}


@pytest.mark.parametrize("kind", sorted(WRITERS))
def test_the_same_png_bytes_on_every_call(tmp_path, kind):
    write, args = WRITERS[kind]
    a = write(tmp_path / "a" / "f.png", *args())
    b = write(tmp_path / "b" / "f.png", *args())
    assert a == tmp_path / "a" / "f.png" and b == tmp_path / "b" / "f.png"
    assert a.read_bytes() == b.read_bytes()


@pytest.mark.parametrize("kind", sorted(WRITERS))
def test_a_valid_png_written_atomically(tmp_path, kind):
    write, args = WRITERS[kind]
    path = tmp_path / "f.png"
    path.write_bytes(b"old")  # replaced as a whole
    write(path, *args())
    width, height = png_size(path.read_bytes())
    assert width >= 600 and height >= 250
    assert [p.name for p in tmp_path.iterdir()] == ["f.png"]  # no temporary file left
    img = plt.imread(path)
    assert img.shape[:2] == (height, width)
    assert len(np.unique(img[..., :3].reshape(-1, 3).round(2), axis=0)) > 5  # drawn, not blank


def test_distribution_size_follows_the_runs(tmp_path):
    title, measure, values, order = distribution_args()
    few = png_size(figures.topic_distribution_png(tmp_path / "few.png", title, measure, values, order[:2])
                   .read_bytes())
    many = {f"r{i}": [0.5, 0.6] for i in range(40)}
    lots = png_size(figures.topic_distribution_png(tmp_path / "many.png", title, measure, many, list(many))
                    .read_bytes())
    assert few[0] == lots[0] == 800 and lots[1] > few[1]


def test_difference_bars_by_hand():
    """Three topics: +0.2, -0.1, undefined.  The scale is the largest |difference|, 0.2: the plot is 120
    pixels high around its middle y = 8 + 60 = 68, so +0.2 is a bar from y = 68 - 60 = 8 to 68 (height 60)
    and -0.1 one from 68 to 68 + 30 = 98 (height 30); 600 // 3 = 200 pixels per topic, capped at 40."""
    svg = figures.median_difference_svg("map", ["1", "<b>", "3"], [0.2, -0.1, float("nan")])
    rects = re.findall(r'<rect class="(\w+)" x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="([\d.]+)">'
                       r"<title>([^<]*)</title>", svg)
    assert rects == [("up", "47", "8.0", "38", "60.0", "topic 1: +0.2000"),
                     ("down", "87", "68.0", "38", "30.0", "topic &lt;b&gt;: -0.1000")]
    assert "<title>topic 3: undefined</title>" in svg and "&#215;" in svg  # a cross, not a bar of 0
    assert "<b>" not in svg  # ids are text
    assert ">+0.20</text>" in svg and ">-0.20</text>" in svg
    assert svg == figures.median_difference_svg("map", ["1", "<b>", "3"], [0.2, -0.1, float("nan")])
    with pytest.raises(ValueError):
        figures.median_difference_svg("m", ["1", "2"], [0.1])
    flat = figures.median_difference_svg("m", ["1"], [0.0])  # all zero: a scale of 1, a hairline bar
    assert 'height="0.5"' in flat and ">+1.00</text>" in flat
    many = figures.median_difference_svg("m", [str(i) for i in range(500)], [0.1] * 500)
    assert many.count("<rect") == 500 and 'width="2"' in many  # 4 pixels a topic at least, 2 drawn


def test_short_labels():
    assert figures.short_label("run 1") == "run 1"
    long = figures.short_label("team-a-rather-long-run-name-bm25-title-7")
    assert len(long) == figures.LABEL_CHARS and "\u2026" in long and long.endswith("title-7")
    assert long.startswith("team-a-rather")
    assert figures.short_label("a$b") == r"a\$b"  # not matplotlib's mathtext
    assert figures.short_label("tab\there") == r"tab\there"  # a cell: escaped, one line


def test_per_topic_summary_by_hand():
    values = {
        "a": {"1": 0.5, "2": 0.1, "3": 0.9},
        "b": {"1": 0.3, "2": 0.4},  # no value for topic 3
        "c": {"1": 0.8, "2": None, "3": 0.2},  # None: no value
        "d": {"1": 0.1, "2": float("nan"), "3": 0.6},  # NaN: no value
    }
    got = figures.per_topic_summary(values, ["3", "1", "2", "4"])
    assert list(got) == ["3", "1", "2"]  # the order of TOPICS; topic 4 has no value in any run
    # topic 1: four values 0.1 0.3 0.5 0.8: an even count, the median the mean of 0.3 and 0.5
    assert got["1"] == (0.8, pytest.approx(0.4), 0.1)
    assert got["2"] == (0.4, pytest.approx(0.25), 0.1)  # 0.1 and 0.4 (b's), two values
    assert got["3"] == (0.9, 0.6, 0.2)  # 0.9 0.2 0.6: an odd count
    low = figures.per_topic_summary(values, ["1"], lower_better=True)
    assert low["1"] == (0.1, pytest.approx(0.4), 0.8)
    assert figures.per_topic_summary({}, ["1"]) == {}


# --------------------------------------------------------------------- the curve graphs (writers.graphs)


def test_style_cycle_distinct_for_the_first_runs():
    n = len(graphs.PALETTE) * len(graphs.DASHES) * len(graphs.MARKERS) // 2  # lcm(7, 6, 10) = 210
    styles = [graphs.run_style(i) for i in range(n)]
    assert len({(c, str(d), m) for c, d, m in styles}) == n == 210
    assert all(a != b for i in range(n - 1) for a, b in zip(styles[i], styles[i + 1]))  # neighbours: all 3
    gp = [graphs.gp_style(i) for i in range(n)]
    assert len(set(gp)) == n
    assert gp[0] == "linecolor rgb '#0072B2' dashtype solid pointtype 7"
    assert gp[1] == "linecolor rgb '#D55E00' dashtype (6,2) pointtype 5"
    assert len(graphs.GP_POINTTYPES) == len(graphs.MARKERS) == len(set(graphs.GP_POINTTYPES))


def test_lines_drawn_in_their_style():
    c = graphs.Curve("ep/gr", "gen_off", [i / 10 for i in range(11)],
                     {f"r{i}": [0.5] * 11 for i in range(4)}, "gain-recall", "effort-precision")
    fig = graphs.figure(c, "CO.Thorough")
    try:
        lines = [line for line in fig.axes[0].lines if line.get_label().startswith("r")]
        got = [(line.get_color(), line.get_marker()) for line in lines]
        dashes = [line.get_linestyle() for line in lines]
    finally:
        plt.close(fig)
    assert got == [(graphs.run_style(i)[0], graphs.run_style(i)[2]) for i in range(4)]
    assert dashes == ["-", "--", "--", "--"]  # solid, then dash patterns (matplotlib names each "--")


def nxcg_evaluation(tmp_path: Path, dcv=(10, 25, 50), max_results=1500, runs=3):
    params = Params(dcv=dcv, max_results=max_results)
    measures = [registry.find("nxcg", "thorough")]
    names = measures[0].outputs(params)
    results = []
    for i in range(runs):
        avg = {n: 0.2 + 0.1 * i for n in names}
        results.append(RunResult(f"run {i}", "gen_off", names, {"1": avg}, avg))
    return SimpleNamespace(config=SimpleNamespace(results_dir=tmp_path, task="CO.Thorough"),
                           settings=[Setting("gen", "off", 1.0)], measures=measures, params=params,
                           results=results)


def marks_of(fig) -> tuple[list[float], list[str], list[str]]:
    """(x of each mark line, the mark labels, the legend's texts) of a figure's axes."""
    ax = fig.axes[0]
    xs = []
    for line in ax.lines:
        if line.get_gid() == "mark":
            x0, x1 = line.get_xdata()
            assert x0 == x1  # vertical
            xs.append(float(x0))
    labels = [t.get_text().strip() for t in ax.texts if t.get_gid() == "mark-label"]
    return xs, labels, [t.get_text() for t in ax.get_legend().get_texts()]


@pytest.mark.parametrize("highlight", [None, "run 1"])
def test_nxcg_axis_starts_at_rank_1_with_the_dcv_cutoffs_marked(tmp_path, highlight):
    ev = nxcg_evaluation(tmp_path)
    (nx,) = graphs.collect_curves(ev)
    assert nx.title == "nxCG" and nx.marks == (10, 25, 50)
    # the curve's 100 ranks 15, 30, ..., 1500, and the cut-offs 10, 25 and 50 in rank order
    assert nx.xs[:6] == [10, 15, 25, 30, 45, 50] and len(nx.xs) == 103 and nx.xs == sorted(nx.xs)
    assert nx.series["run 0"][0] == pytest.approx(0.2)  # nxCG@10 read, not undefined
    fig = graphs.figure(nx, "CO.Thorough", highlight)
    try:
        ax = fig.axes[0]
        assert ax.get_xscale() == "log" and ax.get_xlim() == (1, 1500)
        assert [t.get_text() for t in ax.get_xticklabels()][:4] == ["1", "2", "5", "10"]
        xs, labels, legend = marks_of(fig)
        if highlight:
            greys = [line for line in ax.lines if line.get_color() == "#b8b8b8"]
            assert len(greys) == 2 and legend == ["other runs", "run 1", "DCV cut-offs"]
    finally:
        plt.close(fig)
    assert xs == [10, 25, 50] and labels == ["@10", "@25", "@50"]
    assert "DCV cut-offs" in legend


def test_nxcg_marks_in_the_gnuplot_script(tmp_path):
    ev = nxcg_evaluation(tmp_path, dcv=(5, 10, 2000), max_results=100)
    (nx,) = graphs.collect_curves(ev)
    assert nx.xs == list(range(1, 101)) and nx.marks == (5, 10)  # 2000 beyond the curve: not marked
    gp = graphs.gp_text(nx, "CO.Thorough").splitlines()
    assert "set xrange [1:100]" in gp
    arrows = [line for line in gp if line.startswith("set arrow")]
    assert [line.split()[4] for line in arrows] == ["5,", "10,"]
    assert sum(line.startswith("set label") and "'@10'" in line for line in gp) == 1
    require_gnuplot()
    written = graphs.write_gnuplot([nx], tmp_path / "g", "CO.Thorough")
    proc = subprocess.run(["gnuplot", str(written[1])], capture_output=True, text=True)
    assert proc.returncode == 0 and not proc.stderr, proc.stderr


def test_curves_without_a_rank_axis_have_no_marks(tmp_path):
    ev = nxcg_evaluation(tmp_path)
    ev.measures = [registry.find("ep/gr", "thorough")]
    ev.results = [RunResult("r", "gen_off", [], {}, {n: 0.5 for n in ev.measures[0].outputs(ev.params)})]
    (ep,) = graphs.collect_curves(ev)
    assert ep.marks == () and len(ep.xs) == 100 and graphs.axes(ep).xmarks == ()
    fig = graphs.figure(ep, "CO.Thorough")
    try:
        assert marks_of(fig)[:2] == ([], [])
    finally:
        plt.close(fig)


def test_curve_pngs_the_same_bytes(tmp_path):
    ev = nxcg_evaluation(tmp_path, runs=12)
    curves = graphs.collect_curves(ev)
    one = graphs.write_png(curves, tmp_path / "one", "CO.Thorough")
    two = graphs.write_png(curves, tmp_path / "two", "CO.Thorough", highlight=None)
    assert [p.read_bytes() for p in one] == [p.read_bytes() for p in two]
    png_size(one[0].read_bytes())


def test_highlighted_pngs_one_per_run_its_line_in_colour(tmp_path):
    """The run pages' graphs drawn once and blitted per run: each PNG has its run in the palette's first
    colour, the others grey (no second colour), a different picture per run, the same bytes again, and
    the size of ``figure(c, task, highlight=run)``'s picture."""
    from PIL import Image

    ev = nxcg_evaluation(tmp_path, runs=3)
    (c,) = [c for c in graphs.collect_curves(ev) if c.title == "nxCG"][:1]
    outs = {run: tmp_path / "a" / f"page{i}" for i, run in enumerate(c.series)}
    written = graphs.write_highlighted_pngs(c, outs, "CO.Thorough")
    assert written == [outs[run] / f"{c.slug}.png" for run in c.series]
    again = graphs.write_highlighted_pngs(c, {r: tmp_path / "b" / p.name for r, p in outs.items()}, "CO.Thorough")
    assert [p.read_bytes() for p in written] == [p.read_bytes() for p in again]
    first, second = (tuple(int(h[k:k + 2], 16) for k in (1, 3, 5)) for h in graphs.PALETTE[:2])
    pictures = []
    for run, path in zip(c.series, written):
        img = Image.open(path).convert("RGB")
        colours = {rgb for _, rgb in img.getcolors(1 << 20)}
        assert first in colours and second not in colours, run
        reference = Image.open(graphs.save_png(graphs.figure(c, "CO.Thorough", highlight=run),
                                               tmp_path / f"ref{len(pictures)}.png")).convert("RGB")
        assert img.size == reference.size
        pictures.append(img.tobytes())
    assert len(set(pictures)) == len(pictures)
