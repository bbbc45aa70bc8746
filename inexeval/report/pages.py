"""The report's pages: a task's index (summary, ranking, curves, comparisons, validation, notes) and a
run's page (ranks, curves over the others, per-topic values, findings).  Text only: the graphs are drawn
(and the runs validated) before, by :mod:`inexeval.report.site`."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

from inexeval.aggregate import natural_key
from inexeval.ranks import lower_is_better, ranked, ranks
from inexeval.records import record
from inexeval.report.data import TaskData, display_path
from inexeval.report.html import data_value, esc, esc_id, number, page, table, td, th, value_text


@record(frozen=True)
class Comparing:
    """What the comparison tables use (``inexeval compare``'s options, same defaults)."""

    measure: str | None = None  # the measure of the significance tests (None: MAep, else the first)
    test: str = "t"
    samples: int = 10000
    seed: int = 0
    alpha: float = 0.05
    ci: str = "t"  # the interval of each run's mean (docs/measures.md §12.1)
    ci_level: float = 0.95
    tukey: str = "classic"  # Tukey HSD and its significance groups (§12.3, §12.4)
    panels: int = 10  # the results shown per run on the side-by-side pages (0: no such pages)

    @property
    def stats(self):
        """The :class:`~inexeval.compare.runstats.StatsOptions` of these options."""
        from inexeval.compare.runstats import StatsOptions

        return StatsOptions(ci=self.ci, ci_level=self.ci_level, tukey=self.tukey, alpha=self.alpha,
                            samples=self.samples, seed=self.seed)


def task_page(data: TaskData, pages: dict[str, str], curves, reports, comparing: Comparing, out: Path,
              distributions: dict[str, tuple[str, str]] | None = None) -> str:
    """A task's page; DISTRIBUTIONS: {setting: (measure, PNG name under graphs/)} already drawn."""
    task = esc(data.config.task)
    ev = data.ev
    source = esc(Path(str(data.config.source)).name) if data.config.source else "a mapping of config keys"
    parts = [f"<h1>{task}</h1>",
             f'<p class="note">Config <code>{source}</code>; {len(data.runs)} run(s); settings: '
             + ", ".join(f'<a href="#s-{esc(s)}">{esc(s)}</a>' for s in data.settings)
             + ("; -e: topics missing from a run score 0" if ev.empty_as_zero else "")
             + ".</p>"]
    if not data.runs:
        parts.append("<p>No run was scored.</p>")
    for s in data.settings:
        results = data.results_of(s)
        parts.append(f'<h2 id="s-{esc(s)}">{esc(s)}</h2>')
        headline = [m for m in data.headline if m in ev.columns] or list(ev.columns)
        parts.append("<h3>Headline</h3>\n" + _headline_table(data, s, headline, pages, comparing))
        others = [m for m in ev.columns if m not in headline]
        parts.append(f"<details><summary>Every measure ({len(ev.columns)})</summary>\n"
                     + _summary_table(results, ev.columns, pages, data.facts)
                     + '<p class="note">Click a measure to sort the runs by it (best first, then reversed). '
                     "A value's tooltip has its full precision and rank. Every value is in "
                     "<code>summary.tsv</code> of the results directory.</p></details>")
        parts.append("<h3>Ranking per measure</h3>\n" + _ranking_table(results, headline, pages, data.facts))
        if others:
            parts.append(f"<details><summary>Ranking per measure, the other {len(others)}</summary>\n"
                         + _ranking_table(results, others, pages, data.facts) + "</details>")
        if s in (distributions or {}):
            measure, name = distributions[s]
            width, height = png_size(out / "graphs" / name)
            parts.append(f"<h3>Per topic: {esc(measure)}</h3>\n"
                         f'<div class="graphs"><figure><img src="graphs/{esc(name)}" alt="{esc(measure)} per '
                         f'topic, each run ({esc(s)})" width="{width}" height="{height}"><figcaption>Each run\'s '
                         f"values of {esc(measure)} over the topics: box from the first to the third quartile, "
                         "line at the median, diamond at the mean, whiskers to the furthest value within 1.5 "
                         "interquartile ranges, a dot per topic; the runs best first.</figcaption></figure></div>")
        mine = [c for c in curves if c.setting == s]
        if mine:
            parts.append("<h3>Curves</h3>\n" + _figures(mine, out / "graphs", "graphs/", "all runs"))
    if len(data.runs) > 1:
        parts.append(_comparisons(data, comparing))
    if data.judges is not None:
        parts.append(_judges_section(data.judges))
    parts.append(_validation_section(data, pages, reports))
    parts.append(_notes(data))
    return page(f"{task} results", "\n".join(p for p in parts if p) + "\n", root="../",
                crumbs=[("Results", "../index.html"), (task, None)])


def _headline_table(data: TaskData, setting: str, headline: Sequence[str], pages: dict[str, str],
                    comparing: Comparing) -> str:
    """The headline outputs of SETTING: each run's mean ± its 95 % t margin of error over its topics,
    with its significance group as a superscript (Tukey HSD at alpha over the topics every run has,
    docs/measures.md §12; none when fewer than two topics are common to the runs); counts as integers.
    Runs by the first headline measure that ranks them, best first (by its groups, or by the means
    when there are none; undefined means last)."""
    from inexeval.compare import runstats
    from inexeval.compare.intervals import IntervalOptions, run_intervals

    results = data.results_of(setting)
    facts = data.facts
    means = [m for m in headline if ranked(facts, m) and not (facts.get(m) is not None and facts[m].count)]
    stats = {m: runstats.run_groups(results, setting, m, comparing.stats) for m in means}
    stats = {m: g for m, g in stats.items() if g}
    first = next(iter(stats), None)
    if first is not None:
        order = list(stats[first])
    elif means:
        rank = ranks({r.run_id: r.average.get(means[0]) for r in results}, means[0], facts)
        order = sorted(rank, key=lambda run: (rank[run] is None, rank[run] or 0))  # (stable: file order in a tie)
    else:
        order = [r.run_id for r in results]
    order += [r.run_id for r in results if r.run_id not in order]
    by_run = {r.run_id: r for r in results}
    head = [th("Run", sort="text", cls="id"),
            *(th(esc(m), sort="number", better_low=lower_is_better(facts, m)) for m in headline)]
    rows = []
    for run in order:
        r = by_run[run]
        row = [td(f'<a href="{pages[run] if "/" in pages[run] else "runs/" + pages[run]}.html">{esc_id(run)}</a>',
                  value=esc_id(run), cls="id")]
        for m in headline:
            v = r.average.get(m)
            g = stats.get(m, {}).get(run)  # the run's significance group
            if m in means and v is not None:
                # the interval of the run's own mean (its topics, as the mean); the group over the common ones
                found, _ = run_intervals(r.per_topic, r.average, [m], IntervalOptions(level=comparing.ci_level))
                low, high = found.get(m, (None, None))
                half = (high - low) / 2 if low is not None and low == low else None
                text = (number(v) + (f' <span class="rank">&plusmn;{number(half)}</span>' if half is not None else "")
                        + (f'<sup class="group">{esc(g)}</sup>' if g is not None else ""))
            else:
                text = _value_text(v, m, facts)
            row.append(td(text, value=data_value(v), title=f"{esc(m)} = {data_value(v) or 'undefined'}"))
        rows.append(row)
    level = f"{comparing.stats.ci_level * 100:g}&nbsp;%"
    groups = (f"superscript letters: runs sharing one are not significantly different (Tukey HSD at "
              f"{comparing.alpha}, over the topics every run has; docs/measures.md &sect;12)" if stats else
              "no significance groups: fewer than two topics are common to the runs")
    note = (f'<p class="note">Mean &plusmn; its {level} t margin of error over the run\'s topics; {groups}. '
            "Counts are integers.</p>") if means else ""
    return '<div class="scroll">' + table(head, rows, sortable=True, cls="summary headline") + "</div>" + note


def _value_text(v: float | None, measure: str, facts: dict) -> str:
    """A value of MEASURE as the tables print it (:func:`~inexeval.report.html.value_text`: its facts say
    whether it is a count)."""
    return value_text(v, facts.get(measure) is not None and facts[measure].count)


def _summary_table(results, columns: Sequence[str], pages: dict[str, str], facts: dict) -> str:
    all_ranks = {m: ranks({r.run_id: r.average.get(m) for r in results}, m, facts) for m in columns}
    head = [th("Run", sort="text", cls="id"),
            *(th(esc(m), sort="number", better_low=lower_is_better(facts, m)) for m in columns)]
    rows = []
    for r in results:
        row = [td(f'<a href="runs/{pages[r.run_id]}.html">{esc_id(r.run_id)}</a>', value=esc_id(r.run_id), cls="id")]
        for m in columns:
            v, k = r.average.get(m), all_ranks[m][r.run_id]
            tip = f"{esc(m)} = {data_value(v) or 'undefined'}" + (f", rank {k} of {len(results)}" if k else "")
            row.append(td(_value_text(v, m, facts), value=data_value(v), title=tip))
        rows.append(row)
    return '<div class="scroll">' + table(head, rows, sortable=True, cls="summary") + "</div>"


def _ranking_table(results, columns: Sequence[str], pages: dict[str, str], facts: dict) -> str:
    """Position 1..n per measure: the runs in rank order (ties in run order, marked ``=k``)."""
    order = {r.run_id: i for i, r in enumerate(results)}
    shown = [m for m in columns if ranked(facts, m)]
    by_measure = {}
    for m in shown:
        rk = ranks({r.run_id: r.average.get(m) for r in results}, m, facts)
        by_measure[m] = sorted(rk, key=lambda run: (rk[run] is None, rk[run] or 0, order[run]))
        by_measure[m] = [(run, rk[run]) for run in by_measure[m]]
    rows = []
    for pos in range(len(results)):
        row = [td(str(pos + 1))]
        for m in shown:
            run, k = by_measure[m][pos]
            mark = "&ndash;" if k is None else "" if k == pos + 1 else f"={k}"
            row.append(td(f'<a href="runs/{pages[run]}.html">{esc_id(run)}</a>'
                          + (f' <span class="rank">{mark}</span>' if mark else ""), cls="id"))
        rows.append(row)
    return table([th("#"), *(th(esc(m), cls="id") for m in shown)], rows)


def _figures(curves, where: Path, prefix: str, what: str) -> str:
    """The PNGs of ``curves`` in ``where`` (already written), linked as ``prefix`` + name, with their sizes."""
    figs = []
    for c in curves:
        width, height = png_size(where / f"{c.slug}.png")
        figs.append(f'<figure><img src="{prefix}{c.slug}.png" alt="{esc(c.title)} ({esc(c.setting)}), {what}" '
                    f'width="{width}" height="{height}"><figcaption>{esc(c.title)}</figcaption></figure>')
    return '<div class="graphs">\n' + "\n".join(figs) + "\n</div>"


def png_size(path: Path) -> tuple[int, int]:
    """Width and height of a PNG, from its IHDR chunk."""
    with open(path, "rb") as f:
        head = f.read(24)
    return int.from_bytes(head[16:20], "big"), int.from_bytes(head[20:24], "big")


def _comparisons(data: TaskData, comparing: Comparing) -> str:
    """Correlations between the measures' (and quantisations') run rankings, and the pairwise significance
    tests on one measure: ``inexeval compare``'s tables (:mod:`inexeval.compare.tables`)."""
    from inexeval.compare import tables as compare

    ev, task = data.ev, data.config.task
    parts = ['<h2 id="comparisons">Comparisons</h2>']
    columns = list(ev.columns)
    if not columns:
        return ""
    from inexeval.tasks import COUNT_NAMES

    # the measures that rank runs (not counts such as num_rel, a property of the topics)
    ranking = [m for m in columns if ranked(data.facts, m) and m not in COUNT_NAMES]
    shown = [m for m in data.headline if m in ranking]
    tables = []
    for method in ("kendall", "spearman"):
        tables += compare.measure_correlations(ev.results, data.settings, ranking, method)
        tables += compare.quantisation_correlations(ev.results, data.settings, shown or ranking, method)
    head = compare.headline_view(tables, shown) if len(shown) >= 2 else tables
    parts.append("<h3>Rank correlations</h3>\n<p class=\"note\">Kendall &tau;-b and Spearman &rho; between the "
                 "run rankings (ties: values within the relative tolerance 1e-9); &ndash;: undefined"
                 + (f"; between the headline measures, the {len(ranking)} that rank runs below"
                    if head is not tables else "") + ".</p>")
    groups = [("measures", "measures", head, True), ("quantisations", "quantisation functions", head, False)]
    if head is not tables:
        groups.append(("measures", f"all {len(ranking)} measures that rank runs", tables, False))
    for kind, what, source, open_ in groups:
        mine = [t for t in source if t.kind == kind]
        if not mine:
            continue
        parts.append(f"<details{' open' if open_ else ''}><summary>Between {what} "
                     f"({len(mine)} table(s))</summary>")
        for t in mine:
            name = "Kendall &tau;-b" if t.method == "kendall" else "Spearman &rho;"
            parts.append(f'<h4>{name}, {esc(t.scope)}</h4>\n<div class="scroll">'
                         + _triangle(t.names, t.matrix) + "</div>")
        parts.append("</details>")
    chosen = compare.tested_measure(columns, comparing.measure, data.headline)
    parts.append(f"<h3>Significance: {esc(chosen)}</h3>\n<p class=\"note\">Paired {esc(comparing.test)} test over "
                 f"the topics both runs have, Holm&ndash;Bonferroni corrected; bold: significant at "
                 f"{comparing.alpha}.</p>")
    for s in data.settings:
        rows = compare.significance_rows(task, ev.results, s, chosen, test=comparing.test,
                                         samples=comparing.samples, seed=comparing.seed, alpha=comparing.alpha,
                                         runs=None)
        parts.append(f"<h4>{esc(s)}</h4>\n" + _significance_table(rows))
    parts.append(_statistics(data, chosen, comparing))
    return "\n".join(parts)


def _statistics(data: TaskData, chosen: str, comparing: Comparing) -> str:
    """Per setting, the statistics of the tested measure (:mod:`inexeval.compare.runstats`): each run's
    mean with its interval and significance group, the two-way ANOVA, and Tukey HSD's pairs."""
    from inexeval.compare import runstats

    o = comparing.stats
    tukey = ("Tukey HSD on the two-way ANOVA residual V_E" if o.tukey == "classic"
             else f"randomised Tukey HSD ({o.samples} permutations, seed {o.seed})")
    parts = [f"<h3>Statistics: {esc(chosen)}</h3>\n<p class=\"note\">Means over the topics every run has, with "
             f"their {o.ci_level * 100:g}&nbsp;% {'t' if o.ci == 't' else 'bootstrap'} intervals; groups: "
             f"{esc(tukey)} at {o.alpha} &mdash; runs sharing a letter are not significantly different "
             "(docs/measures.md &sect;12).</p>"]
    for s in data.settings:
        st = runstats.setting_stats(data.config.task, data.ev.results, s, chosen, None, o)
        parts.append(f"<h4>{esc(s)}</h4>")
        if st.means is None:
            parts.append(f"<p>{esc(st.note)}.</p>")
            continue
        head = [th("Run", sort="text", cls="id"), th("mean", sort="number"), th("lower", sort="number"),
                th("upper", sort="number"), th("group", sort="text")]
        body = [[td(esc_id(r["run"]), value=esc_id(r["run"]), cls="id"), td(number(r["mean"]),
                                                                            value=data_value(r["mean"])),
                 td(number(r["ci_lower"]), value=data_value(r["ci_lower"])),
                 td(number(r["ci_upper"]), value=data_value(r["ci_upper"])),
                 td(f"<sup>{esc(r['group'])}</sup>", value=esc(r["group"]))] for r in runstats.group_rows(st)]
        parts.append(table(head, body, sortable=True))
        if st.left_out:
            parts.append(f'<p class="note">{len(st.left_out)} topic(s) left out: a run has no value there, or NaN.</p>')
        head = [th("source"), th("SS"), th("df"), th("MS"), th("F"), th("p")]
        body = [[td(r["source"]), td(number(r["ss"], 6)), td(str(r["df"])), td(number(r["ms"], 6)),
                 td(number(r["f"])), td(number(r["p"]))] for r in runstats.anova_rows(st)]
        parts.append("<details><summary>Two-way ANOVA without replication (runs &times; topics)</summary>\n"
                     + table(head, body) + "</details>")
        head = [th("Run A", sort="text", cls="id"), th("Run B", sort="text", cls="id"),
                th("A &minus; B", sort="number"), th("lower", sort="number"), th("upper", sort="number"),
                th("p", sort="number", better_low=True), th("ES<sub>E</sub>", sort="number"),
                th("d<sub>z</sub>", sort="number")]
        body = [[td(esc_id(r["run_a"]), value=esc_id(r["run_a"]), cls="id"),
                 td(esc_id(r["run_b"]), value=esc_id(r["run_b"]), cls="id"),
                 *(td(number(r[k]), value=data_value(r[k]), cls="sig" if k == "p" and r["significant"] else "")
                   for k in ("diff", "ci_lower", "ci_upper", "p", "es_e", "d_z"))] for r in runstats.tukey_rows(st)]
        parts.append(f"<details><summary>{esc(tukey)}: every pair, simultaneous "
                     f"{(1 - o.alpha) * 100:g}&nbsp;% intervals, effect sizes</summary>\n"
                     + table(head, body, sortable=True) + "</details>")
    return "\n".join(parts)


def _judges_section(result) -> str:
    """``report --judgements-b``: the config's judgements against the other sets, the tables
    ``inexeval assessments --judgements-b`` prints (labels over all topics, run rankings, significance
    decisions; docs/measures.md §13); every topic's figures in its assessments.tsv."""
    import html as _html

    from inexeval.assessments.judges_text import judges_tables
    from inexeval.names import cell

    sets = "; ".join(f"{esc(s.label)} <code>{_html.escape(cell(s.name))}</code> ({len(s.topics)} topic(s))"
                     for s in result.sets)
    parts = ['<h2 id="judgements">Judgements compared</h2>',
             f'<p class="note">Judgement sets: {sets}. A is the config\'s; how far each other set agrees with it '
             "on the labels, and whether the runs' ranking and significance decisions survive the change "
             "(docs/measures.md &sect;13). Every topic's figures: <code>inexeval assessments --judgements-b</code>'s "
             "assessments.tsv.</p>"]
    for title, headers, rows in judges_tables(result):
        body = [[td(_html.escape(c), cls="id" if i < 2 else "") for i, c in enumerate(row)] for row in rows]
        parts.append(f"<h3>{_html.escape(title)}</h3>\n"
                     + table([th(_html.escape(h), cls="id" if i < 2 else "") for i, h in enumerate(headers)], body))
    parts += [f'<p class="note">{esc(n)}</p>' for n in result.notes]
    return "\n".join(parts)


def _triangle(names: Sequence[str], matrix) -> str:
    head = [th(""), *(th(esc(n)) for n in names[:-1])]
    rows = []
    for i, a in enumerate(names[1:], start=1):
        rows.append([th(esc(a), cls="id"), *(td(number(float(matrix[i, j]), 2)) for j in range(i)),
                     *(td("") for _ in range(i, len(names) - 1))])
    return table(head, rows)


def _significance_table(rows: list[dict]) -> str:
    if not rows:
        return "<p>No pair of runs to compare.</p>"
    head = [th("Run A", sort="text", cls="id"), th("Run B", sort="text", cls="id"), th("topics", sort="number"),
            th("mean A", sort="number"), th("mean B", sort="number"), th("A &minus; B", sort="number"),
            th("p", sort="number", better_low=True), th("p (Holm)", sort="number", better_low=True)]
    body = []
    for r in rows:
        sig = "sig" if r["significant"] else ""
        body.append([td(esc_id(r["run_a"]), value=esc_id(r["run_a"]), cls="id"),
                     td(esc_id(r["run_b"]), value=esc_id(r["run_b"]), cls="id"),
                     td(str(r["topics"]), value=str(r["topics"])),
                     *(td(number(r[k]), value=data_value(r[k]), cls=sig if k == "p_holm" else "")
                       for k in ("mean_a", "mean_b", "diff", "p", "p_holm"))])
    notes = [f"<li>{esc_id(r['run_a'])} vs {esc_id(r['run_b'])}: {esc(r['note'])}</li>" for r in rows if r["note"]]
    return table(head, body, sortable=True) + (f'<ul class="note">{"".join(notes)}</ul>' if notes else "")


def _validation_section(data: TaskData, pages: dict[str, str], reports) -> str:
    parts = ['<h2 id="validation">Validation</h2>',
             '<p class="note">Every run file checked as <code>inexeval validate</code> checks it, against the '
             "assessments of the evaluation.</p>"]
    if data.validation_note:
        parts.append(f'<p class="warning">{esc(data.public(data.validation_note))}</p>')
    head = [th("Run file", sort="text", cls="id"), th("Run", sort="text", cls="id"), th("verdict", sort="text"),
            th("problems", sort="number", better_low=True), th("warnings", sort="number", better_low=True)]
    rows = []
    for key, reps in sorted(reports.items(), key=lambda kv: (kv[0] is None, 0)):
        for r in reps:
            run = (f'<a href="runs/{pages[key]}.html">{esc_id(key)}</a>' if key is not None
                   else esc_id(r.run_id or "") + " (not scored)")
            path = esc(display_path(r.path, data.config))
            rows.append([td(path, value=path, cls="id"), td(run, value=esc_id(key or r.run_id or ""), cls="id"),
                         td("valid" if r.valid else "INVALID", cls="" if r.valid else "problem"),
                         td(str(len(r.problems)), value=str(len(r.problems))),
                         td(str(len(r.warnings)), value=str(len(r.warnings)))])
    parts.append(table(head, rows, sortable=True) if rows else "<p>No run file to check.</p>")
    unscored = reports.get(None, [])
    for r in unscored:
        parts.append(f"<h3>{esc(display_path(r.path, data.config))}</h3>\n" + _findings(r, data))
    return "\n".join(parts)


def _findings(report, data: TaskData) -> str:
    items = []
    path = esc(display_path(report.path, data.config))
    for cls, label, found in (("problem", "problem", report.problems), ("warning", "warning", report.warnings)):
        for f in found:
            where = f"{path}:{f.line}" if f.line is not None else path
            items.append(f'<li class="{cls}"><code>{where}</code>: {label}: {esc(f.kind)}: {esc(data.public(f.message))}</li>')
    if not items:
        return "<p>No problem and no warning.</p>"
    return "<ul>\n" + "\n".join(items) + "\n</ul>"


def _notes(data: TaskData) -> str:
    parts = []
    if data.problems:
        parts.append("<h3>Inputs skipped</h3>\n<ul>" + "".join(
            f'<li class="problem">{esc(data.public(p))}</li>' for p in data.problems) + "</ul>")
    if data.warnings:
        parts.append("<h3>Warnings</h3>\n<ul>" + "".join(
            f'<li class="warning">{esc(data.public(w))}</li>' for w in data.warnings) + "</ul>")
    return ('<h2 id="notes">Evaluation notes</h2>\n' + "\n".join(parts)) if parts else ""


# ----------------------------------------------------------------------------------------- a run


def run_page(data: TaskData, run: str, name: str, curves, reports, out: Path,
             panels: dict[str, tuple[str, str]] | None = None) -> str:
    """A run's page; PANELS: {topic: (href of its side-by-side page from the task directory, the other
    run)}."""
    ev = data.ev
    task = esc(data.config.task)
    files = ", ".join(f"<code>{esc(display_path(r.path, data.config))}</code>" for r in reports)
    parts = [f"<h1>{esc_id(run)}</h1>",
             f'<p class="note">Run of <a href="../index.html">{task}</a>{"; run file " + files if files else ""}; '
             "settings: " + ", ".join(f'<a href="#s-{esc(s)}">{esc(s)}</a>' for s in data.settings) + ".</p>"]
    for s in data.settings:
        results = data.results_of(s)
        mine = next((r for r in results if r.run_id == run), None)
        parts.append(f'<h2 id="s-{esc(s)}">{esc(s)}</h2>')
        if mine is None:
            parts.append("<p>Not scored under this setting.</p>")
            continue
        head = [th("measure", cls="id"), th("value"), th("rank")]
        rows = []
        for m in ev.columns:
            k = ranks({r.run_id: r.average.get(m) for r in results}, m, data.facts)[run]
            rows.append([td(esc(m), cls="id"), td(_value_text(mine.average.get(m), m, data.facts),
                                                  title=data_value(mine.average.get(m))),
                         td(f"{k} of {len(results)}" if k is not None else "&ndash;")])
        first = [m for m in data.headline if m in ev.columns]
        at = {m: i for i, m in enumerate(ev.columns)}
        parts.append("<h3>Averages and ranks</h3>\n" + table(head, [rows[at[m]] for m in first] if first else rows))
        if first and len(first) < len(ev.columns):
            rest = [rows[i] for i, m in enumerate(ev.columns) if m not in first]
            parts.append(f"<details><summary>Every other measure ({len(rest)})</summary>\n" + table(head, rest)
                         + "</details>")
        own = [c for c in curves if c.setting == s]
        if own:
            parts.append("<h3>Curves</h3>\n<p class=\"note\">This run in colour, the other runs in grey.</p>\n"
                         + _figures(own, out / "runs" / name, f"{name}/", "this run over the others"))
        headline = data.ranking_headline()
        if headline and len(results) > 1:
            side = ("; <em>side by side</em> shows this run's top results for the topic beside those of the "
                    "run best there" if panels else "")
            parts.append("<h3>Per topic, against the other runs</h3>\n<p class=\"note\">As a TREC appendix: each "
                         "topic's value of this run, the best, median and worst of all runs that have a value "
                         "there, and this run's difference from the median (the bars: above the median blue, "
                         f"below vermillion; a cross: undefined){side}.</p>\n"
                         + "\n".join(f"<h4>{esc(m)}</h4>\n" + _against_others(data.topic_summary(s, m), mine, m,
                                                                               panels or {})
                                     for m in headline))
        parts.append(f"<details><summary>Per topic, every measure ({len(mine.per_topic)} topics)</summary>\n"
                     + '<div class="scroll">' + _per_topic_table(mine, ev.columns, data.facts) + "</div></details>")
    parts.append('<h2 id="validation">Validation</h2>')
    for r in reports:
        parts.append(f"<p><code>{esc(display_path(r.path, data.config))}</code>: "
                     f"{'valid' if r.valid else '<span class=problem>INVALID</span>'}</p>\n" + _findings(r, data))
    if not reports:
        parts.append("<p>Its run file was not validated (read from standard input).</p>")
    return page(f"{esc_id(run)} ({task})", "\n".join(parts) + "\n", root="../../",
                crumbs=[("Results", "../../index.html"), (task, "../index.html"), (esc_id(run), None)])


def _against_others(summary: dict, mine, measure: str, panels: dict[str, tuple[str, str]]) -> str:
    """This run's per-topic value of MEASURE beside the best, median and worst of all runs (SUMMARY:
    :meth:`~inexeval.report.data.TaskData.topic_summary`), the difference from the median as bars
    (:func:`~inexeval.report.figures.median_difference_svg`) and in the table, each topic's side-by-side
    page linked (PANELS, :func:`run_page`)."""
    from inexeval.report.figures import median_difference_svg

    topics = sorted((t for t in mine.per_topic if mine.per_topic[t].get(measure) is not None), key=natural_key)
    numeric = all(re.fullmatch(r"-?[0-9]{1,15}", t) for t in topics)
    head = [th("topic", sort="number" if numeric else "text", cls="id"), th("this run", sort="number"),
            th("best", sort="number"), th("median", sort="number"), th("worst", sort="number"),
            th("&minus; median", sort="number")] + ([th("side by side", cls="id")] if panels else [])
    rows, diffs = [], []
    for t in topics:
        v = mine.per_topic[t][measure]
        best, median, worst = summary.get(t, (None, None, None))
        diff = v - median if v == v and median is not None else None
        diffs.append(diff)
        row = [td(esc_id(t), value=esc_id(t), cls="id"), td(number(v), value=data_value(v)),
               td(number(best), value=data_value(best)), td(number(median), value=data_value(median)),
               td(number(worst), value=data_value(worst)),
               td(("+" if diff is not None and diff > 0 else "") + number(diff), value=data_value(diff))]
        if panels:
            href, other = panels.get(t, (None, None))
            row.append(td(f'<a href="../{esc(href)}">vs {esc_id(other)}</a>' if href else "&ndash;", cls="id"))
        rows.append(row)
    if not rows:
        return "<p>No topic.</p>"
    return (f'<div class="scroll">{median_difference_svg(measure, topics, diffs)}</div>\n'
            + table(head, rows, sortable=True))


def _per_topic_table(result, columns: Sequence[str], facts: dict) -> str:
    topics = sorted(result.per_topic, key=natural_key)
    numeric = all(re.fullmatch(r"-?[0-9]{1,15}", t) for t in topics)  # topic ids sorted as numbers when they are
    head = [th("topic", sort="number" if numeric else "text", cls="id"),
            *(th(esc(m), sort="number", better_low=lower_is_better(facts, m)) for m in columns)]
    rows = [[td(esc_id(t), value=esc_id(t), cls="id"),
             *(td(number(result.per_topic[t].get(m)), value=data_value(result.per_topic[t].get(m))) for m in columns)]
            for t in topics]
    return table(head, rows, sortable=True) if rows else "<p>No topic.</p>"


# ----------------------------------------------------------------------------------------- the index


def site_date(tasks: Sequence[TaskData]) -> str:
    """The date the index shows (UTC, YYYY-MM-DD): SOURCE_DATE_EPOCH when set (reproducible builds),
    else the newest modification time of the configs and the files they read, so that the same inputs
    give the same site."""
    import datetime
    import os

    epoch = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    if epoch.isdigit():
        stamp = int(epoch)
    else:
        stamp = 0
        for data in tasks:
            c = data.config
            paths = [c.source] if c.source else []
            paths += [f.path for f in (*c.assessments, *c.runs)]
            for p in paths:
                try:
                    stamp = max(stamp, int(Path(p).stat().st_mtime))
                except (OSError, TypeError, ValueError):
                    continue
    return datetime.datetime.fromtimestamp(stamp, datetime.timezone.utc).strftime("%Y-%m-%d")


def index_page(tasks: Sequence[TaskData], names: Sequence[str], comparing: Comparing) -> str:
    """The site's front page: the track's TITLE and DESCRIPTION, the date, inexeval's version, the configs used with
    their topics and runs, and per task a leaderboard on its first headline measure."""
    from inexeval._version import __version__

    titles = list(dict.fromkeys(d.config.title for d in tasks if d.config.title))
    title = " / ".join(titles) or "Evaluation results"
    parts = [f"<h1>{esc(title)}</h1>",
             *(f"<p>{esc(text)}</p>" for text in dict.fromkeys(d.config.description for d in tasks
                                                                if d.config.description)),
             f'<p class="note">{esc(site_date(tasks))}; inexeval {esc(__version__)}; '
             f"{len(tasks)} config(s).</p>"]
    rows = []
    for data, name in zip(tasks, names):
        topics = {t for r in data.ev.results for t in r.per_topic}  # (those some run has a value for)
        source = esc(Path(str(data.config.source)).name) if data.config.source else "a mapping of config keys"
        rows.append([td(f'<a href="{name}/index.html">{esc(data.config.task)}</a>', cls="id"),
                     td(f"<code>{source}</code>", cls="id"), td(str(len(topics))), td(str(len(data.runs))),
                     td(str(len(data.settings))), td(str(len(data.problems)))])
    parts.append("<h2>Tasks</h2>\n" + table([th("Task", cls="id"), th("config", cls="id"), th("topics scored"),
                                              th("runs"), th("settings"), th("inputs skipped")], rows))
    for data, name in zip(tasks, names):
        if not data.runs:
            continue
        setting = data.settings[0]
        lead = next(iter(data.ranking_headline()), None)
        if lead is None:
            continue
        pages = {run: f"{name}/runs/{page_name}" for run, page_name in data.page_names().items()}
        parts.append(f"<h2>Leaderboard: {esc(data.config.task)}, {esc(lead)}"
                     + (f" ({esc(setting)})" if len(data.settings) > 1 else "") + "</h2>\n"
                     + _headline_table(data, setting, [lead], pages, comparing))
    return page(esc(title), "\n".join(parts) + "\n", root="")
