"""Memory of a run with one very long topic: bounded by what MAX_RESULTS keeps, not by what is read.

    .venv/bin/python benchmarks/bench_long_topic.py [--results 1000000] [--max-results 1500]
                                                    [--scale inex2005] [--repeat R] [--seed N]

Takes the first run of the ``bench_inex.py`` workload of ``--scale`` (generated
there if absent) and writes, under ``benchmarks/work/inex/long-topic-.../``:

- ``normal.xml``: that run as it is (every topic 1,500 results);
- ``long.xml``: the same run whose first topic has ``--results`` results in
  all: its own, then distinct unlisted elements (ranks going on, rsv 0);
- ``normal.txt`` and ``long.txt``: the same results as text runs
  (``topic Q0 file rank rsv run-id path``).

Each is evaluated alone by ``python -m inexeval -config thorough.prop --quiet
--set SUBMISSIONRUNS_DIR=<file> --set MAX_RESULTS=<--max-results> --set
QUANT_FUNCTIONS=gen --jobs 1``, as a child process, measured as in
``bench_inex.py`` (wall time; peak = the tree's summed PSS sampled every 0.1 s,
at least the largest RSS).  Since the results beyond MAX_RESULTS are dropped,
the long run's scores are those of the normal one; the target (issues 15 and
16) is that its peak stays within ``BOUND`` (2) x the normal run's peak, for
XML and for text.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_inex import ROOT, WORK, best_of, cores, input_files, workload, yes  # noqa: E402
from bytecode import compile_checkout  # noqa: E402
from verdict import verdict  # noqa: E402

BOUND = 2.0  # peak(long run) <= BOUND x peak(normal run)


def _text_lines(xml: Path) -> list[str]:
    """The text-run lines of an XML run of the workload (every result has file, path, rank, rsv)."""
    from lxml import etree

    lines = []
    run_id = None
    for _event, elem in etree.iterparse(str(xml), events=("end",), tag=("topic", "inex-submission")):
        if elem.tag == "inex-submission":
            break
        if run_id is None:
            run_id = elem.getparent().get("run-id")
        topic = elem.get("topic-id")
        for r in elem.iterchildren("result"):
            lines.append(f"{topic} Q0 {r.findtext('file')} {r.findtext('rank')} {r.findtext('rsv')} "
                         f"{run_id} {r.findtext('path')}\n")
        elem.clear()
    return lines


def _filler(i: int) -> tuple[str, str]:
    """The i-th extra result: an element of a file the workload never assesses, distinct for each i."""
    return f"co/2099/z{i // 1000:05d}", f"/article[1]/bdy[1]/sec[{i % 1000 // 20 + 1}]/p[{i % 20 + 1}]"


def long_topic_runs(src: Path, d: Path, n_results: int) -> dict[str, Path]:
    """normal/long x xml/txt runs under D (written once; ``done`` marks a complete set)."""
    paths = {f"{kind}.{ext}": d / f"{kind}.{ext}" for kind in ("normal", "long") for ext in ("xml", "txt")}
    stamp = d / "done"
    if stamp.exists():
        return paths
    d.mkdir(parents=True, exist_ok=True)
    text = src.read_text(encoding="utf-8")
    paths["normal.xml"].write_text(text, encoding="utf-8")
    end = text.index("</topic>")
    first = text[:end]
    own = first.count("<result>")
    extra = n_results - own
    with open(paths["long.xml"], "w", encoding="utf-8") as fh:
        fh.write(first)
        for i in range(extra):
            f, p = _filler(i)
            fh.write(f"<result><file>{f}</file><path>{p}</path><rank>{own + i + 1}</rank><rsv>0</rsv></result>\n")
        fh.write(text[end:])
    lines = _text_lines(src)
    paths["normal.txt"].write_text("".join(lines), encoding="utf-8")
    topic, _q0, _f, _rank, _rsv, run_id, _p = lines[0].split()
    with open(paths["long.txt"], "w", encoding="utf-8") as fh:
        fh.writelines(lines[:own])
        for i in range(extra):
            f, p = _filler(i)
            fh.write(f"{topic} Q0 {f} {own + i + 1} 0 {run_id} {p}\n")
        fh.writelines(lines[own:])
    stamp.write_text("")
    return paths


def main(argv: list[str] | None = None) -> int:
    compile_checkout()  # timed as installed: with bytecode
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--scale", default="inex2005")
    ap.add_argument("--results", type=int, default=1_000_000, help="results of the long topic")
    ap.add_argument("--max-results", type=int, default=1500)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--write", nargs=3, help=argparse.SUPPRESS)  # the child that writes the runs
    a = ap.parse_args(argv)
    if a.write:
        long_topic_runs(Path(a.write[0]), Path(a.write[1]), int(a.write[2]))
        return 0
    os.environ.setdefault("PYTHONPATH", str(ROOT))  # the children run this checkout unless told otherwise
    d, _info = workload(a.scale, None, a.seed)
    _assessments, runs = input_files(d)
    out = WORK / f"long-topic-{d.name}-{runs[0].stem}-n{a.results}"
    t0 = time.perf_counter()
    # written by a child: a child forked by a large parent would count the parent's pages in its max RSS
    subprocess.run([sys.executable, __file__, "--write", str(runs[0]), str(out), str(a.results)], check=True)
    paths = long_topic_runs(runs[0], out, a.results)
    print(f"runs: {runs[0].name} of {d.name}, its first topic made {a.results:,} results long, "
          f"under {out.name}/; {time.perf_counter() - t0:.1f} s to write or find")
    print(f"machine: {cores()} cores; inexeval --jobs 1, MAX_RESULTS={a.max_results}, best of {a.repeat}")
    from tabulate import tabulate

    rows, ok = [], True
    for ext in ("xml", "txt"):
        t = {}
        for kind in ("normal", "long"):
            p = paths[f"{kind}.{ext}"]
            cmd = [sys.executable, "-m", "inexeval", "-config", str(d / "thorough.prop"), "--quiet",
                   "--set", f"SUBMISSIONRUNS_DIR={p}", "--set", f"MAX_RESULTS={a.max_results}",
                   "--set", "QUANT_FUNCTIONS=gen", "--set", f"RESULTS_DIR={out / ('results-' + kind + '-' + ext)}",
                   "--jobs", "1"]
            t[kind] = best_of(a.repeat, cmd, d)
            rows.append([f"{ext} {kind}", f"{p.stat().st_size / 2**20:.0f}", t[kind].wall, t[kind].peak_mb,
                         t[kind].max_rss_mb, ""])
        ratio = t["long"].peak_mb / t["normal"].peak_mb
        ok &= ratio <= BOUND
        rows[-1][-1] = f"{ratio:.2f} x normal [{yes(ratio <= BOUND)}]"
        verdict(f"3 memory: {ext} run, one topic of {a.results:,} results, peak <= {BOUND:g} x normal run",
                f"{t['long'].peak_mb:.0f} MB", f"normal run {t['normal'].peak_mb:.0f} MB", ratio, ratio <= BOUND)
    print()
    print(tabulate(rows, headers=["run", "file MB", "wall s", "peak MB", "max RSS MB", "long / normal peak"],
                   floatfmt=".2f", tablefmt="simple"))
    print(f"\ntarget: peak of the long run <= {BOUND:g} x peak of the normal run, XML and text: {yes(ok)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
