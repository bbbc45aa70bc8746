"""``inexeval compare --runs A,B``'s side-by-side pages (issue 33): for every topic either run has, the two
runs' top K results next to each other (:func:`inexeval.report.panels.panel_page`), and an index of the
topics with each run's value of the compared measure and the difference.

Layout, beside compare's tables (``RESULTS_DIR/<TASK>/``)::

    panels/<A>_vs_<B>/index.html            the topics, linked
    panels/<A>_vs_<B>/topics/<topic>.html   one topic's two columns
    panels/<A>_vs_<B>/report.css, report.js the report's style sheet and script

The folder is written beside the others and then renamed over the old one, so it is never a mixture of
two comparisons.  An evaluation that replaces the task directory leaves it out (it shows the runs'
files as they were); ``compare --runs A,B`` writes it again.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from inexeval.aggregate import natural_key
from inexeval.names import file_component
from inexeval.report import assets
from inexeval.report.html import data_value, esc, esc_id, number, page, table, td, th
from inexeval.writers.files import atomic_write


def write_pair_pages(config, results, run_a: str, run_b: str, measure: str, *, k: int = 10) -> Path:
    """The side-by-side pages of RUN_A and RUN_B of CONFIG (a loaded
    :class:`~inexeval.config.schema.Config`; RESULTS: its run results, every setting) into
    ``RESULTS_DIR/<TASK>/panels/<A>_vs_<B>/``; MEASURE: the value the index lists per topic (of the
    first setting).  Returns the index page's path.  ConfigError for a task without panels (results that
    are not ranked lists) or a run id the config's run files do not have."""
    from inexeval.report.panels import panel_page, topic_file_names
    from inexeval.report.rankings import read_rankings

    rankings = read_rankings(config, [run_a, run_b])
    first = next((r.setting for r in results), None)
    mine = {r.run_id: r for r in results if r.setting == first}
    a, b = mine.get(run_a), mine.get(run_b)
    topics = sorted(set(a.per_topic if a else ()) | set(b.per_topic if b else ())
                    | set(rankings.runs[run_a].topics) | set(rankings.runs[run_b].topics), key=natural_key)
    shown = list(a.measures if a else b.measures if b else [])
    out = Path(config.results_dir) / config.task / "panels" / file_component(f"{run_a}_vs_{run_b}")
    stage = out.with_name(f"{out.name}.tmp-{os.getpid()}")
    shutil.rmtree(stage, ignore_errors=True)
    task = esc(config.task)
    files = topic_file_names(topics)
    rows = []
    for t in topics:
        values = {r.run_id: {m: r.per_topic.get(t, {}).get(m) for m in shown} for r in (a, b) if r is not None}
        crumbs = [(task, None), (f"{esc_id(run_a)} vs {esc_id(run_b)}", "../index.html"), (f"topic {esc_id(t)}", None)]
        atomic_write(stage / "topics" / files[t], panel_page(config, rankings, run_a, run_b, t, k=k, values=values,
                                                             root="../", crumbs=crumbs))
        x = a.per_topic.get(t, {}).get(measure) if a else None
        y = b.per_topic.get(t, {}).get(measure) if b else None
        diff = x - y if x is not None and y is not None and x == x and y == y else None
        rows.append([td(f'<a href="topics/{esc(files[t])}">{esc_id(t)}</a>', value=esc_id(t), cls="id"),
                     td(number(x), value=data_value(x)), td(number(y), value=data_value(y)),
                     td(("+" if diff is not None and diff > 0 else "") + number(diff), value=data_value(diff))])
    head = [th("topic", sort="text", cls="id"), th(f"A: {esc_id(run_a)}", sort="number"),
            th(f"B: {esc_id(run_b)}", sort="number"), th("A &minus; B", sort="number")]
    body = (f"<h1>{esc_id(run_a)} and {esc_id(run_b)}, side by side</h1>\n"
            f'<p class="note">{task}: each topic\'s page shows the top {k} results of both runs next to each '
            f"other, each with its judgement. The table lists {esc(measure)} per topic"
            + (f" ({esc(first)})" if first else "") + "; click a column to sort.</p>\n"
            + (table(head, rows, sortable=True) if rows else "<p>Neither run has a topic.</p>") + "\n")
    atomic_write(stage / "index.html", page(f"{esc_id(run_a)} and {esc_id(run_b)} ({task})", body, root="",
                                            crumbs=[(task, None), (f"{esc_id(run_a)} vs {esc_id(run_b)}", None)]))
    atomic_write(stage / "report.css", assets.CSS)
    atomic_write(stage / "report.js", assets.JS)
    _replace(stage, out)
    return out / "index.html"


def _replace(stage: Path, out: Path) -> None:
    """STAGE renamed to OUT, an older OUT moved aside first and then removed."""
    old = out.with_name(f"{out.name}.old-{os.getpid()}")
    if out.exists():
        os.replace(out, old)
    os.replace(stage, out)
    shutil.rmtree(old, ignore_errors=True)


def compare_pair_pages(configs, options, k: int, say) -> int:
    """After ``inexeval compare --runs A,B`` (OPTIONS: its :class:`~inexeval.compare.workflow.CompareOptions`):
    each config's side-by-side pages from the result files compare left up to date, their index's path
    said through SAY.  A config whose task has no panels, or whose results are not up to date, is
    reported and skipped (and where they went said, unless ``options.quiet``).  Returns 1 when some
    config had no up-to-date results, else 0."""
    from inexeval.compare import tables as compare
    from inexeval.config.source import load
    from inexeval.errors import ConfigError
    from inexeval.plan import plan_config
    from inexeval.resultsdir import locked
    from inexeval.stamp import read_if_fresh

    run_a, run_b = options.runs
    status = 0
    for source in configs:
        config = load(source, options.overrides, options.results_dir)
        plan = plan_config(config)
        with locked(config.results_dir, config.task):
            results = read_if_fresh(plan.config, options.empty_as_zero)
            if results is None:
                say(f"inexeval: {config.task}: no up-to-date result files: side-by-side pages not written", err=True)
                status = 1
                continue
            try:
                index = write_pair_pages(config, results, run_a, run_b,
                                         compare.tested_measure(plan.columns, options.measure, plan.headline), k=k)
            except ConfigError as err:
                say(f"inexeval: {config.task}: {err.message}: side-by-side pages not written", err=True)
                continue
        if not options.quiet:
            say(f"inexeval: side-by-side pages written to {index}", err=True)
    return status
