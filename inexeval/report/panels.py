"""Side-by-side panels (issue 33): two runs' top results for one topic next to each other, each result
marked with its judgement, for judging which run answered the topic better.

:func:`panel_html` writes one topic's page, :func:`write_panels` one page per topic into a directory
(each input file read once for all of them).  The rankings and judgements are
:mod:`inexeval.report.rankings`'s; what a task shows:

- TASK trec: each docno with its score (a tie with the result above marked: trec_eval breaks it by
  docno), its qrels grade (relevant at REL_LEVEL and above), or "unjudged";
- the INEX element tasks: each result's file and path, its exhaustivity and highlighted characters of
  its length (nothing highlighted when the pool does not list it), or "unjudged" (a document outside
  the pool); the first best entry point is marked;
- the FOL tasks: each result's article and passages (``offset:length``), each passage's relevant
  characters of its length, the article's relevant characters, or "unjudged" (an article without a
  qrels line); outside Focused a rank is an article, with all its consecutive passages;
- TASK qa: each answer with the level it was marked with, or why it got none.

A result both runs retrieved (the same docno, element, passage, article or answer) is marked in both
columns (class ``shared``, one ``data-shared`` number per result) with its rank in the other run,
linked when it is shown; an element or passage sharing text with a result of the other column names
that one.  Every id and text from the inputs is escaped (:func:`~inexeval.report.html.esc_id`); anchors
are ``a-<rank>`` and ``b-<rank>``.  The page uses the report's style sheet
(:data:`~inexeval.report.assets.CSS`), whose :data:`PANEL_CSS` holds the rules for the panel's classes.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from inexeval.errors import ConfigError
from inexeval.names import NameTable
from inexeval.report.assets import PANEL_CSS
from inexeval.report.html import esc, esc_id, number, page, table, td, th, value_text
from inexeval.report.rankings import (MALFORMED, NOT_RELEVANT, RELEVANT, UNJUDGED, Rankings, Result,
                                      read_rankings)

__all__ = ["panel_html", "panel_page", "write_panels", "topic_file_names", "PANEL_CSS"]


_CLASS = {RELEVANT: "rel", NOT_RELEVANT: "nonrel", UNJUDGED: "unjudged", MALFORMED: "malformed"}
#: a result with more pieces than this shows them folded
_FOLD = 3
#: the other column's overlapping results named at most
_OVERLAPS_SHOWN = 5


def panel_html(config, run_a: str, run_b: str, topic: str, *, k: int = 10,
               values: Mapping[str, Mapping[str, float | None]] | None = None, root: str = "../../",
               crumbs: Sequence[tuple[str, str | None]] | None = None) -> str:
    """The page of TOPIC: the top K results of RUN_A and RUN_B (run ids of ``config``, a
    :class:`~inexeval.config.schema.Config`) side by side, judged; VALUES ({run: {measure: value}} for
    the topic) as a table when given.  ``root``: the relative path to the site's root; ``crumbs``
    (text already escaped, href or None): the navigation line (default: the site's index, the task,
    the topic).  ConfigError for a task without panels, a run id the config has not, or K < 1."""
    _check_k(k, config)
    rankings = read_rankings(config, [run_a, run_b], [topic])
    return panel_page(config, rankings, run_a, run_b, topic, k=k, values=values, root=root, crumbs=crumbs)


def write_panels(config, run_a: str, run_b: str, topics: Iterable[str], out_dir: Path, *, k: int = 10,
                 values_by_run: Mapping[str, Mapping[str, Mapping[str, float | None]]] | None = None,
                 root: str = "../../") -> dict[str, str]:
    """One page per topic of TOPICS (:func:`panel_html`) written into OUT_DIR (created if needed),
    each input file read once; VALUES_BY_RUN: {run: {topic: {measure: value}}} (a run result's
    ``per_topic``).  Returns {topic: its page's file name}, the names made by
    :class:`~inexeval.names.NameTable` from the topic ids in order."""
    from inexeval.writers.files import atomic_write

    _check_k(k, config)
    topics = list(dict.fromkeys(topics))
    rankings = read_rankings(config, [run_a, run_b], topics)
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    written = topic_file_names(topics)
    for topic, name in written.items():
        values = None
        if values_by_run is not None:
            values = {run: values_by_run[run].get(topic, {}) for run in (run_a, run_b) if run in values_by_run}
        atomic_write(out_dir / name, panel_page(config, rankings, run_a, run_b, topic, k=k, values=values, root=root))
    return written


def topic_file_names(topics: Iterable[str]) -> dict[str, str]:
    """{topic: its page's file name}: ``<name>.html``, the names made by :class:`~inexeval.names.NameTable`
    from the topic ids in order (one-to-one, safe as file names)."""
    names, out = NameTable(), {}
    for topic in dict.fromkeys(topics):
        name, i = names.assign(topic), 2
        while name is None:  # (only when an id's name and its hashed name are both taken)
            name, i = names.assign(f"{topic}\n{i}"), i + 1
        out[topic] = f"{name}.html"
    return out


def _check_k(k: int, config) -> None:
    if not isinstance(k, int) or k < 1:
        raise ConfigError(f"side-by-side panels: k must be a whole number of at least 1, not {k!r}", config.source)


# ----------------------------------------------------------------------------------------- the page


def panel_page(config, rankings: Rankings, run_a: str, run_b: str, topic: str, *, k: int = 10, values=None,
               root: str = "../../", crumbs=None) -> str:
    """The page of :func:`panel_html` from RANKINGS already read (:func:`~inexeval.report.rankings.read_rankings`
    with both runs and the topic): many pages from one reading of the runs."""
    from inexeval.report.data import display_path

    task = esc(config.task)
    ra, rb = rankings.runs[run_a], rankings.runs[run_b]
    a, b = ra.topics.get(topic, []), rb.topics.get(topic, [])
    top_a, top_b = a[:k], b[:k]
    title = f"Topic {esc_id(topic)}: {esc_id(run_a)} and {esc_id(run_b)}"
    parts = [f"<h1>{title}</h1>",
             f'<p class="note">{task}: the top {k} results of each run for topic {esc_id(topic)}, side by side. '
             f"A = <strong>{esc_id(run_a)}</strong> (<code>{esc(display_path(ra.source, config))}</code>), "
             f"B = <strong>{esc_id(run_b)}</strong> (<code>{esc(display_path(rb.source, config))}</code>). "
             f"Results are {esc(rankings.order)}.</p>"]
    if not rankings.judged.get(topic, False):
        parts.append(f'<p class="warning">The judgements have no topic {esc_id(topic)}: every result is '
                     "unjudged, and evaluation does not score the topic.</p>")
    if values:
        parts.append("<h2>Values for this topic</h2>\n" + _values_table(values, run_a, run_b))
    parts.append("<h2>Results</h2>\n" + _summary(top_a, a, top_b, b, rankings.counts_characters))
    parts.append(_panel(top_a, top_b, a, b, rankings))
    parts.append('<p class="note">Each result\'s judgement: relevant, not relevant or unjudged (the judgements '
                 "say nothing of it). A result both runs retrieved says where the other run has it (linked when "
                 "shown) and carries the same <code>data-shared</code> number in both columns"
                 + ("; a result sharing text with results of the other column names them" if
                    rankings.counts_characters else "") + ".</p>")
    if crumbs is None:
        crumbs = [("Results", f"{root}index.html"), (task, None), (f"topic {esc_id(topic)}", None)]
    return page(f"{title} ({task})", "\n".join(parts) + "\n", root=root, crumbs=crumbs)


def _values_table(values, run_a: str, run_b: str) -> str:
    """Measure | A | B | A − B (VALUES: {run: {measure: value}})."""
    va, vb = values.get(run_a, {}), values.get(run_b, {})
    measures = list(dict.fromkeys([*va, *vb]))
    head = [th("measure", cls="id"), th(f"A: {esc_id(run_a)}"), th(f"B: {esc_id(run_b)}"), th("A &minus; B")]
    rows = []
    for m in measures:
        x, y = va.get(m), vb.get(m)
        diff = x - y if x is not None and y is not None and x == x and y == y else None
        rows.append([td(esc(m), cls="id"), td(_count_or_number(x, m)), td(_count_or_number(y, m)),
                     td(("+" if diff is not None and diff > 0 else "") + number(diff))])
    return table(head, rows) if rows else "<p>No value.</p>\n"


def _count_or_number(v: float | None, measure: str) -> str:
    """A count (num_ret, num_rel, ...) as an integer, any other value as the tables print it."""
    from inexeval.tasks import COUNT_NAMES

    return value_text(v, measure in COUNT_NAMES)


def _summary(top_a: list[Result], all_a: list[Result], top_b: list[Result], all_b: list[Result],
             characters: bool) -> str:
    """Per run: results shown of all, relevant, unjudged; how many of A's shown results B has too."""
    items = []
    for label, top, every in (("A", top_a, all_a), ("B", top_b, all_b)):
        if not every:
            items.append(f"<li>{label}: no result for this topic.</li>")
            continue
        rel = sum(r.verdict == RELEVANT for r in top)
        unj = sum(r.verdict == UNJUDGED for r in top)
        text = f"{label}: {len(top)} of {len(every)} result(s) shown; {rel} relevant, {unj} unjudged"
        if characters:
            found = sum(r.relevant or 0 for r in top)
            text += f"; {found} relevant characters"
        items.append(f"<li>{text}.</li>")
    keys_b = {r.key for r in top_b if r.key is not None}
    both = len({r.key for r in top_a if r.key is not None and r.key in keys_b})
    items.append(f"<li>{both} result(s) in both columns.</li>")
    return "<ul>" + "".join(items) + "</ul>"


def _panel(top_a: list[Result], top_b: list[Result], all_a: list[Result], all_b: list[Result],
           rankings: Rankings) -> str:
    """The two columns: one row per rank, each run's result and its judgement."""
    first_a, first_b = _first_ranks(all_a), _first_ranks(all_b)
    shared: dict[object, int] = {}  # key -> its number, in the order the rows show them
    for r in [*top_a, *top_b]:
        if r.key is not None and r.key in first_a and r.key in first_b and r.key not in shared:
            shared[r.key] = len(shared) + 1
    head = [th("#"), th("A: result", cls="id"), th("A: judgement", cls="id"), th("B: result", cls="id"),
            th("B: judgement", cls="id")]
    rows = []
    for i in range(max(len(top_a), len(top_b))):
        row = [td(str(i + 1), cls="pos")]
        for side, mine, other, other_first, other_label, k in (
                ("a", top_a, top_b, first_b, "B", len(top_b)), ("b", top_b, top_a, first_a, "A", len(top_a))):
            if i < len(mine):
                row += _cells(side, mine[i], other, other_first, other_label, k, shared, rankings)
            else:
                row += [td("&ndash;"), td("")]
        rows.append(row)
    if not rows:
        return "<p>Neither run has a result for this topic.</p>\n"
    return table(head, rows, cls="panel")


def _first_ranks(results: list[Result]) -> dict[object, int]:
    """Each key's first rank."""
    out: dict[object, int] = {}
    for r in results:
        if r.key is not None and r.key not in out:
            out[r.key] = r.rank
    return out


def _cells(side: str, r: Result, other_top: list[Result], other_first: dict, other_label: str, shown: int,
           shared: dict, rankings: Rankings) -> list[str]:
    """A result's two cells: what it is (with where the other run has it), and its judgement."""
    lines = [f"<code>{esc_id(r.item)}</code>" if r.item else "<em>(empty)</em>"]
    if r.score is not None:
        lines[0] += f' <span class="rank">score {esc(repr(r.score))}{" (tie)" if r.tied else ""}</span>'
    pieces = [p for p in r.pieces if p.where or p.note]
    many = len(r.pieces) > 1
    texts = []
    for p in pieces:
        text = f"<code>{esc_id(p.where)}</code>" if p.where else ""
        if many and p.relevant is not None:
            text += f' <span class="rank">{_characters(p.relevant, p.length)}</span>'
        if p.note:
            text += f' <span class="note">{esc(p.note)}</span>'
        texts.append(text.strip())
    if len(texts) > _FOLD:
        lines.append(f"<details><summary>{len(texts)} passages</summary>" + "<br>".join(texts) + "</details>")
    else:
        lines += texts
    cls = ["id"]
    attrs = ""
    at = other_first.get(r.key) if r.key is not None else None
    if at is not None:
        cls.append("shared")
        attrs = f' data-shared="{shared[r.key]}"'
        where = f"rank {at} in {other_label}"
        target = "b" if side == "a" else "a"
        lines.append(f'<span class="both">also at <a href="#{target}-{at}">{where}</a></span>' if at <= shown
                     else f'<span class="both">also at {where} (not shown)</span>')
    else:
        near = [o.rank for o in other_top if o.key != r.key and rankings.overlap(r, o)]
        if near:
            target = "b" if side == "a" else "a"
            links = ", ".join(f'<a href="#{target}-{n}">{n}</a>' for n in near[:_OVERLAPS_SHOWN])
            more = f" and {len(near) - _OVERLAPS_SHOWN} more" if len(near) > _OVERLAPS_SHOWN else ""
            lines.append(f'<span class="overlap">shares text with {other_label}\'s rank(s) {links}{more}</span>')
    result = f'<td id="{side}-{r.rank}" class="{" ".join(cls)}"{attrs}>' + "<br>".join(lines) + "</td>"
    verdict = _CLASS[r.verdict]
    judgement = [f"<strong>{esc(r.verdict)}</strong>"]
    if r.grade:
        judgement.append(esc(r.grade))
    if rankings.counts_characters and r.verdict != MALFORMED:
        total = [p.length for p in r.pieces]
        length = sum(total) if all(x is not None for x in total) else None
        if r.relevant is not None:
            judgement.append(_characters(r.relevant, length))
    return [result, f'<td class="id {verdict}">' + "<br>".join(judgement) + "</td>"]


def _characters(relevant: int, length: int | None) -> str:
    """``r of n characters relevant (p %)``, or ``r characters relevant`` when the length is unknown."""
    if length is None:
        return f"{relevant} characters relevant"
    share = f" ({100 * relevant // length}&nbsp;%)" if length > 0 else ""  # (rounded down: 100 % is all)
    return f"{relevant} of {length} characters relevant{share}"
