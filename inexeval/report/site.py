"""The report written into a directory (the caller stages it, :mod:`inexeval.report`): runs validated,
graphs drawn, pages written (:mod:`inexeval.report.pages`).

Layout (every name made by :mod:`inexeval.names`, one-to-one)::

    index.html                       the tasks
    report.css, report.js            style and table sorting
    <task>/index.html                summary, ranking, curves, comparisons, validation, notes
    <task>/graphs/<curve>.png        every run's averaged curves (inexeval.writers.graphs)
    <task>/graphs/distribution_<setting>_<measure>.png
                                     the headline measure's per-topic values, per run (report.figures)
    <task>/runs/<run>.html           one run: ranks, curves next to the others, per topic against the
                                     other runs, findings
    <task>/runs/<run>/<curve>.png    its curves drawn over the others in grey
    <task>/runs/<run>/topics/<topic>.html
                                     side by side (report.panels): the run's top results for the topic
                                     beside those of the other run best there
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from inexeval.aggregate import natural_key
from inexeval.names import NameTable
from inexeval.report import assets
from inexeval.report.html import esc, esc_id
from inexeval.report.data import TaskData, report_key
from inexeval.report.pages import Comparing, index_page, run_page, task_page
from inexeval.writers.files import atomic_write

MARKER = ".inexeval-report"  # at the root of every site: a directory without it is never replaced


def write_site(tasks: Sequence[TaskData], out: Path, comparing: Comparing = Comparing(), jobs: int = 1) -> None:
    """Every page of the report of ``tasks`` into the directory ``out``; the runs are validated and the
    graphs drawn in ``jobs`` processes (the same bytes for any number)."""
    out.mkdir(parents=True, exist_ok=True)
    atomic_write(out / MARKER, "inexeval report: this directory is replaced as a whole when the report is "
                               "generated again\n")
    atomic_write(out / "report.css", assets.CSS)
    atomic_write(out / "report.js", assets.JS)
    names = _task_dirs(tasks)
    plans = [_Plan(data, out / name) for data, name in zip(tasks, names)]
    _validate_and_draw(plans, jobs)
    for plan in plans:
        _write_pages(plan, comparing, _write_panels(plan, comparing.panels))
    atomic_write(out / "index.html", index_page(tasks, names, comparing))


def _task_dirs(tasks: Sequence[TaskData]) -> list[str]:
    """One directory name per config: its task's, then ``-2``, ``-3`` for a task given again."""
    table, out = NameTable(), []
    for data in tasks:
        name, i = table.assign(data.config.task), 2
        while name is None:
            name, i = table.assign(f"{data.config.task}-{i}"), i + 1
        out.append(name)
    return out


# ----------------------------------------------------------------------------------------- a task


class _Plan:
    """One config's part of the site: its directory, curves and run page names."""

    def __init__(self, data: TaskData, out: Path):
        from inexeval.names import file_component
        from inexeval.writers.graphs import collect_curves

        self.data, self.out = data, out
        self.curves = collect_curves(data.ev) + precision_recall_curves(data.ev)
        self.pages = data.page_names()
        # per setting, the per-topic distribution of its first headline measure that ranks runs
        first = data.ranking_headline()[:1]
        self.distributions = {s: (m, f"distribution_{file_component(s + '_' + m)}.png")
                              for s in data.settings for m in first}


#: trec_eval's interpolated precision at the 11 standard recall levels (the TREC appendix's graph)
IPREC = tuple(f"iprec_at_recall_{x / 10:.2f}" for x in range(11))


def precision_recall_curves(ev) -> list:
    """TASK trec: each setting's interpolated precision–recall curve of every run, from its averaged
    ``iprec_at_recall_0.00`` … ``_1.00`` (when the config computes all eleven; trec_eval's default set does)."""
    from inexeval.writers.graphs import Curve

    if not all(name in ev.columns for name in IPREC):
        return []
    out = []
    for s in ev.settings:
        series = {r.run_id: [r.average.get(n) for n in IPREC] for r in ev.results if r.setting == s.name}
        if series:
            out.append(Curve("interpolated precision-recall", s.name, [x / 10 for x in range(11)], series,
                             "recall", "interpolated precision", True, "linear"))
    return out


_PLANS: list[_Plan] = []  # what the forked workers of _validate_and_draw read


def _validate_and_draw(plans: list[_Plan], jobs: int) -> None:
    """Each config's runs validated (``data.reports``), its graphs and each run's drawn: the slow part,
    in ``jobs`` forked processes (:func:`inexeval.workers.imap`), one config or run per task."""
    from inexeval.resultsdir import held_fds
    from inexeval.workers import imap

    items = [("validate", i, None) for i in range(len(plans))]
    items += [("graphs", i, None) for i in range(len(plans))]
    items += [("highlight", i, k) for i, p in enumerate(plans) for k in range(len(p.curves))]
    items += [("distribution", i, s) for i, p in enumerate(plans) for s in p.distributions]
    _PLANS[:] = plans
    try:
        if jobs > 1:
            done = list(imap(_work, items, jobs, per_worker=50, close_fds=held_fds(),
                             describe=lambda item: str(plans[item[1]].out)))
        else:
            done = [_work(item) for item in items]
    finally:
        _PLANS.clear()
    for (kind, i, _), value in zip(items, done):
        if kind == "validate":
            plans[i].data.reports, plans[i].data.validation_note = value


def _work(item):
    from inexeval.report.data import validate_config
    from inexeval.writers.graphs import write_highlighted_pngs, write_png

    kind, i, run = item
    plan = _PLANS[i]
    task = plan.data.config.task
    if kind == "validate":
        return validate_config(plan.data.config)
    if kind == "distribution":
        _draw_distribution(plan, run)
    elif kind == "graphs":
        write_png(plan.curves, plan.out / "graphs", task)
    else:  # one curve drawn for each of its runs' pages (RUN: the curve's index)
        c = plan.curves[run]
        write_highlighted_pngs(c, {r: plan.out / "runs" / plan.pages[r] for r in c.series}, task)
    return None


def _draw_distribution(plan: _Plan, setting: str) -> None:
    """The task page's per-topic distribution of SETTING's headline measure: the runs best first."""
    from inexeval.ranks import ranks
    from inexeval.report.figures import topic_distribution_png

    data = plan.data
    measure, name = plan.distributions[setting]
    results = data.results_of(setting)
    order = {r.run_id: i for i, r in enumerate(results)}
    rk = ranks({r.run_id: r.average.get(measure) for r in results}, measure, data.facts)
    runs = sorted(order, key=lambda run: (rk[run] is None, rk[run] or 0, order[run]))
    values = {r.run_id: [v.get(measure) for v in r.per_topic.values()] for r in results}
    topic_distribution_png(plan.out / "graphs" / name, f"{data.config.task} ({setting}): {measure} per topic",
                           measure, values, runs)


#: the report's side-by-side pages know each run's first this many results per topic (at least 10 K):
#: a result of the other run further down is not marked as shared
PANEL_DEPTH = 100


def _write_panels(plan: _Plan, k: int) -> dict[str, dict[str, tuple[str, str]]]:
    """The side-by-side pages of every run (k > 0 and a task that has them): per topic it has, the run
    beside the other run with the best value of the first headline measure there (ties: the first in run
    order), ``runs/<run>/topics/<topic>.html``.  Returns {run: {topic: (href from the task directory,
    the other run)}}; {} when there are none."""
    from inexeval.errors import ConfigError
    from inexeval.ranks import lower_is_better
    from inexeval.report.panels import panel_page, topic_file_names
    from inexeval.report.rankings import read_rankings

    data, pages = plan.data, plan.pages
    headline = data.ranking_headline()
    if k <= 0 or len(data.runs) < 2 or not headline or not data.settings:
        return {}
    setting, measure = data.settings[0], headline[0]
    results = data.results_of(setting)
    try:  # (each run's first DEPTH results per topic: a hundred runs of 1,000 stay a few MB)
        rankings = read_rankings(data.config, [r.run_id for r in results], depth=max(PANEL_DEPTH, 10 * k))
    except ConfigError:  # a task without panels (its results are not ranked lists)
        return {}
    sign = -1.0 if lower_is_better(data.facts, measure) else 1.0
    shown = [m for m in data.headline if m in data.ev.columns]
    out: dict[str, dict[str, tuple[str, str]]] = {}
    task = esc(data.config.task)
    best: dict[str, list[str]] = {}  # topic -> its two best runs (the value, then run order)
    for t in {t for r in results for t in r.per_topic}:
        scored = [(-sign * v, i, r.run_id) for i, r in enumerate(results)
                  for v in [r.per_topic.get(t, {}).get(measure)] if v is not None and v == v]
        best[t] = [run for _, _, run in sorted(scored)[:2]]
    for mine in results:
        run = mine.run_id
        topics = sorted(mine.per_topic, key=natural_key)
        files = topic_file_names(topics)
        links = out.setdefault(run, {})
        for t in topics:
            other = next((r for r in best.get(t, ()) if r != run), None)
            if other is None:
                continue
            values = {r.run_id: {m: r.per_topic.get(t, {}).get(m) for m in shown}
                      for r in results if r.run_id in (run, other)}
            href = f"runs/{pages[run]}/topics/{files[t]}"
            crumbs = [("Results", "../../../../index.html"), (task, "../../../index.html"),
                      (esc_id(run), f"../../{pages[run]}.html"), (f"topic {esc_id(t)}", None)]
            atomic_write(plan.out / href, panel_page(data.config, rankings, run, other, t, k=k, values=values,
                                                     root="../../../../", crumbs=crumbs))
            links[t] = (href, other)
    return out


def _write_pages(plan: _Plan, comparing: Comparing, panels: dict[str, dict[str, tuple[str, str]]]) -> None:
    data, out, curves, pages = plan.data, plan.out, plan.curves, plan.pages
    reports = _reports_by_run(data)
    for run, name in pages.items():
        mine = [c for c in curves if run in c.series]
        atomic_write(out / "runs" / f"{name}.html", run_page(data, run, name, mine, reports.get(run, []), out,
                                                             panels.get(run, {})))
    atomic_write(out / "index.html", task_page(data, pages, curves, reports, comparing, out, plan.distributions))


def _reports_by_run(data: TaskData) -> dict[str | None, list]:
    """Validation reports by the run id evaluation scored them under; those of run files it did not score
    (or of a second file with a run id already taken) under None."""
    scored = set(data.runs)
    out: dict[str | None, list] = {}
    for r in data.reports:
        key = report_key(r)
        duplicate = any(f.kind == "duplicate_run_id" for f in r.problems)
        out.setdefault(key if key in scored and not duplicate and key not in out else None, []).append(r)
    return out
