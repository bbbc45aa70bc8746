"""The marking of question-answering runs as rows and as the tables ``-q`` prints (docs/measures.md §11):
every answer of every run with its position, the mark it got and why.  The marking is computed by the
same code as the scores (:func:`inexeval.measures.qa.mark`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable

if TYPE_CHECKING:
    from inexeval.config.schema import Config

#: the recall-base of a QA evaluation (inexeval.inputs.RecallBase)
RecallBase = Any


def _level(level) -> str:
    if level is None:
        return "-"
    return level if isinstance(level, str) else f"{level:g}"


def marking_rows(config: Config, recall_base: RecallBase, run_paths: Iterable) -> list[dict]:
    """One row per answer of each readable run at ``run_paths``, for the questions of the answer data."""
    from inexeval.aggregate import natural_key
    from inexeval.errors import InputError
    from inexeval.measures.qa import gains_of, mark, match_table
    from inexeval.readers.qa_runs import read_answer_lines

    gains = gains_of(config.gains)
    tables = {}
    rows: list[dict] = []
    for path in run_paths:
        try:
            f = read_answer_lines(path)
        except InputError:
            continue  # evaluation reports it
        if f.malformed:
            continue
        for qid in sorted(f.questions, key=natural_key):
            q = recall_base.topics.get(qid)
            if q is None:
                continue
            table = tables.get(qid)
            if table is None:
                table = tables[qid] = match_table(q, config.answer_match, gains)
            answers = f.questions[qid]
            kept = answers if config.max_results is None else answers[:config.max_results]
            marks = mark([a.text for a in kept], table, config.answer_match)
            for a, m in zip(kept, marks):
                rows.append({"run": f.run_id, "question": qid, "position": a.position, "rank": a.rank,
                             "line": a.line, "answer": a.text, "mark": _level(m.level), "gain": m.gain,
                             "matched": m.matched, "synset": m.synset, "why": m.reason, "source": f.source})
            for a in answers[len(kept):]:
                rows.append({"run": f.run_id, "question": qid, "position": a.position, "rank": a.rank,
                             "line": a.line, "answer": a.text, "mark": "-", "gain": 0.0, "matched": None,
                             "synset": None, "why": f"dropped: beyond MAX_RESULTS={config.max_results}",
                             "source": f.source})
    return rows


def marking_text(config: Config, recall_base: RecallBase, run_paths: Iterable) -> str:
    """The rows of :func:`marking_rows` as one table per run (what ``-q`` prints)."""
    from tabulate import tabulate

    from inexeval.names import cell

    by_run: dict[tuple[str, str], list[dict]] = {}
    for row in marking_rows(config, recall_base, run_paths):
        by_run.setdefault((row["run"], row["source"]), []).append(row)
    parts = []
    for (run, source), rows in by_run.items():
        body = [[cell(r["question"]), r["position"], r["rank"], r["line"], cell(r["answer"]), r["mark"],
                 f"{r['gain']:g}", cell(r["matched"]) if r["matched"] is not None else "-",
                 cell(r["synset"]) if r["synset"] is not None else "-", r["why"]] for r in rows]
        parts.append(f"== qa marking: {cell(run)} ({source}) ==\n"
                     + tabulate(body, headers=["question", "position", "rank", "line", "answer", "mark", "gain", "matched",
                                               "synset", "why"], tablefmt="simple", disable_numparse=True)
                     + "\n\n")
    return "".join(parts)


def evaluation_marking(ev) -> str:
    """The marking text of the runs an evaluation scored (``-q`` with the table format)."""
    from inexeval.inputs import UNITS

    sources = list(dict.fromkeys(r.source for r in ev.results))
    return marking_text(ev.config, UNITS[ev.config.task_def.unit].load(ev.config), sources) if sources else ""
