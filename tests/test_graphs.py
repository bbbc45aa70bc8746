"""Graph writers: gnuplot scripts run under real gnuplot; .dat columns equal the averages;
PNGs are real images with more than one colour."""

from __future__ import annotations

import subprocess
from pathlib import Path
from types import SimpleNamespace

import numpy as np
from conftest import require_gnuplot

from inexeval.measures import registry
from inexeval.measures.registry import Params, Setting
from inexeval.measures.xcg import CURVE_LABELS
from inexeval.model import RunResult
from inexeval.writers import graphs


def fake_evaluation(tmp_path: Path, n_runs: int = 3):
    params = Params(dcv=(10,), max_results=100)
    measures = [registry.find("nxcg", "thorough"), registry.find("ep/gr", "thorough")]
    names = [n for m in measures for n in m.outputs(params)]
    rng = np.random.default_rng(0)
    results = []
    for s in ("gen_off", "strict_off"):
        for i in range(n_runs):
            avg = {n: float(v) for n, v in zip(names, np.sort(rng.random(len(names)))[::-1])}
            avg[names[3]] = None  # an undefined point must not break anything
            results.append(RunResult(f"run {i}", s, names, {"1": avg}, avg))
    config = SimpleNamespace(results_dir=tmp_path, task="CO.Thorough")
    return SimpleNamespace(config=config, settings=[Setting("gen", "off", 1.0), Setting("strict", "off", 1.0)],
                           measures=measures, params=params, results=results)


def test_dat_columns_are_the_averages_at_full_precision(tmp_path):
    ev = fake_evaluation(tmp_path)
    graphs.write_graphs(ev, gnuplot=True, png=False)
    out = tmp_path / "CO.Thorough" / "graphs"
    dat = (out / "ep-gr_gen_off.dat").read_text().splitlines()
    assert dat[1].split("\t") == ["x", "run 0", "run 1", "run 2"]
    rows = [line.split("\t") for line in dat[2:]]
    assert len(rows) == 100
    runs = [r for r in ev.results if r.setting == "gen_off"]
    for k, row in enumerate(rows):
        assert float(row[0]) == (k + 1) / 100
        for j, r in enumerate(runs):
            v = r.average[f"ep@{CURVE_LABELS[k]}"]
            assert row[j + 1] == repr(v)  # full precision: the same float
    nx = (out / "nxCG_strict_off.dat").read_text().splitlines()
    assert [line.split("\t")[0] for line in nx[2:5]] == ["1.0", "2.0", "3.0"]


def test_gnuplot_scripts_run_as_written(tmp_path):
    require_gnuplot()
    ev = fake_evaluation(tmp_path)
    written = graphs.write_graphs(ev, gnuplot=True, png=False)
    scripts = [p for p in written if p.suffix == ".gp"]
    assert len(scripts) == 4  # 2 settings x (nxCG, ep/gr)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    for gp in scripts:
        proc = subprocess.run(["gnuplot", str(gp)], cwd=elsewhere, capture_output=True, text=True)
        assert proc.returncode == 0, proc.stderr
        svg = gp.with_suffix(".svg")
        assert svg.stat().st_size > 1000 and "<svg" in svg.read_text()[:500]
        assert "polyline" in svg.read_text() or "path" in svg.read_text()
    assert not list(elsewhere.iterdir())  # output goes next to the script, not the cwd


def test_png_images(tmp_path):
    import matplotlib.image as mpimg

    ev = fake_evaluation(tmp_path, n_runs=12)  # > 8 runs: legend outside, dashes cycle
    written = graphs.write_graphs(ev, gnuplot=False, png=True)
    assert len(written) == 4
    for p in written:
        img = mpimg.imread(p)
        assert img.shape[0] >= 400 and img.shape[1] >= 600
        colours = np.unique(img[..., :3].reshape(-1, 3).round(2), axis=0)
        assert len(colours) > 10  # lines in several colours, not a blank canvas


def test_per_topic_graphs_in_subdirectory(tmp_path):
    ev = fake_evaluation(tmp_path)
    written = graphs.write_graphs(ev, gnuplot=True, png=False, per_topic=True)
    assert any("topics/1/" in str(p) for p in written)


def test_sixty_runs_get_distinct_styles(tmp_path):
    ev = fake_evaluation(tmp_path, n_runs=60)
    written = graphs.write_graphs(ev, gnuplot=True, png=True)
    gp = next(p for p in written if p.name == "ep-gr_gen_off.gp").read_text()
    styles = [line.split(" ", 3)[3] for line in gp.splitlines() if line.startswith("set linetype")]
    assert len(styles) == 60 and len(set(styles)) == 60  # colour x dash pairs all differ
    require_gnuplot()
    subprocess.run(["gnuplot", str(tmp_path / "CO.Thorough" / "graphs" / "ep-gr_gen_off.gp")], check=True)


def test_rank_axes_are_log_with_headroom_above_one(tmp_path):
    """nxCG's ranks on a log axis from rank 1 (the early ranks readable, nxCG@10 on the plot), its points
    at ranks 15..1500 and at the DCV cut-off 10, y up to 1.05 (a curve at 1 is not drawn on the frame); a
    recall axis stays [0, 1]; the gnuplot script and the PNG agree."""
    ev = fake_evaluation(tmp_path)
    ev.params = Params(dcv=(10,), max_results=1500)
    ev.results = [RunResult("ideal", "gen_off", [], {}, {f"nxCG@{k}": 1.0 for k in range(1, 1501)}
                            | {f"ep@{x}": 1.0 for x in CURVE_LABELS})]
    curves = {c.title: c for c in graphs.collect_curves(ev)}
    nx, ep = curves["nxCG"], curves["ep/gr"]
    assert nx.xs[:3] == [10, 15, 30] and nx.xs[-1] == 1500 and nx.series["ideal"] == [1.0] * 101
    a = graphs.axes(nx)
    assert (a.xscale, a.xrange, a.yrange, a.xmarks) == ("log", (1, 1500), (0.0, 1.05), (10,))
    assert a.xticks == (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000)
    assert graphs.axes(ep) == graphs.Axes("linear", (0.0, 1.0), (), (0.0, 1.05))

    gp = graphs.gp_text(nx, "CO.Thorough").splitlines()
    assert "set logscale x" in gp and "set xrange [1:1500]" in gp and "set yrange [0:1.05]" in gp
    assert "set xtics (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000)" in gp
    gp_ep = graphs.gp_text(ep, "CO.Thorough").splitlines()
    assert "set logscale x" not in gp_ep and "set xrange [0:1]" in gp_ep and "set yrange [0:1.05]" in gp_ep

    import matplotlib.pyplot as plt

    for c, scale, xlim in ((nx, "log", (1, 1500)), (ep, "linear", (0, 1))):
        fig = graphs.figure(c, "CO.Thorough")
        try:
            ax = fig.axes[0]
            assert ax.get_xscale() == scale and ax.get_xlim() == xlim and ax.get_ylim() == (0, 1.05)
            labels = [t.get_text() for t in ax.get_xticklabels()]
        finally:
            plt.close(fig)
        if scale == "log":
            assert labels == ["1", "2", "5", "10", "20", "50", "100", "200", "500", "1000"]  # not 10^k
    require_gnuplot()
    written = graphs.write_gnuplot([nx], tmp_path, "CO.Thorough")
    proc = subprocess.run(["gnuplot", str(written[1])], capture_output=True, text=True)
    assert proc.returncode == 0 and not proc.stderr, proc.stderr


def test_runs_differ_in_colour_dash_and_marker():
    """Runs stay apart in grey print: the first 30 runs have distinct (colour, dash, marker) triples, and
    any two of the first 10 differ in colour, dash or marker each (issue 33)."""
    from inexeval.writers.graphs import run_style

    styles = [run_style(i) for i in range(30)]
    assert len({(c, str(d), m) for c, d, m in styles}) == 30
    assert len({m for _, _, m in styles[:10]}) == 10
    assert all(styles[i][1] != styles[i + 1][1] for i in range(29))  # neighbours never share a dash
