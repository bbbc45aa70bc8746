"""What the report shows of one config: its results (reused or evaluated), ranks, comparisons, validation.

The results come from ``RESULTS_DIR/<TASK>`` when its stamp says they are
up to date (as ``inexeval compare`` reuses them, :mod:`inexeval.stamp`);
otherwise the config is evaluated and the result files written, through
:func:`inexeval.api.evaluate_and_write` (so the next report, or compare,
reuses them).  Nothing here writes HTML.
"""

from __future__ import annotations

import os
from pathlib import Path
from types import SimpleNamespace
from typing import TYPE_CHECKING

from inexeval.records import field, record

if TYPE_CHECKING:
    from inexeval.config.schema import Config
    from inexeval.model import RunResult
    from inexeval.validate import RunReport


@record
class TaskData:
    """Everything the pages of one config show."""

    config: Config
    ev: SimpleNamespace  # config, settings, measures, params, results, columns (what collect_curves reads)
    reused: bool  # the result files of RESULTS_DIR were up to date and read back
    problems: list = field(default_factory=list)  # inputs the evaluation skipped (InexevalError)
    warnings: list[str] = field(default_factory=list)
    reports: list[RunReport] = field(default_factory=list)  # inexeval validate, one per run file
    validation_note: str | None = None  # why validation ran without the assessments, if it did
    headline: list[str] = field(default_factory=list)  # the outputs shown first (HEADLINE, plan.headline)
    judges: object | None = None  # report --judgements-b: the JudgesResult of the other judgement sets
    _summaries: dict = field(default_factory=dict, repr=False, compare=False)  # (setting, measure) -> topic_summary

    @property
    def facts(self) -> dict:
        """Each output's declared facts (direction, ranked or not, a count)."""
        from inexeval.measures.registry import output_facts

        return output_facts(self.ev.measures, self.ev.params)

    @property
    def settings(self) -> list[str]:
        return list(dict.fromkeys(r.setting for r in self.ev.results))

    @property
    def runs(self) -> list[str]:
        return list(dict.fromkeys(r.run_id for r in self.ev.results))

    def public(self, text: object) -> str:
        """``text`` without the organiser's absolute paths (:func:`public_text`)."""
        return public_text(text, self.config)

    def page_names(self) -> dict[str, str]:
        """Each run's page name under ``runs/`` (one-to-one over the runs, in order: NameTable)."""
        from inexeval.names import NameTable

        names = NameTable()
        return {run: names.assign(run) for run in self.runs}

    def ranking_headline(self) -> list[str]:
        """The headline outputs that rank runs (not counts such as num_rel, a property of the topics)."""
        from inexeval.ranks import ranked
        from inexeval.tasks import COUNT_NAMES

        facts = self.facts
        return [m for m in self.headline if m in self.ev.columns and ranked(facts, m) and m not in COUNT_NAMES]

    def topic_summary(self, setting: str, measure: str) -> dict[str, tuple[float, float, float]]:
        """Per topic, (best, median, worst) of MEASURE over the runs of SETTING that have a value there
        (:func:`inexeval.report.figures.per_topic_summary`), computed once for every run page."""
        key = (setting, measure)
        if key not in self._summaries:
            from inexeval.aggregate import natural_key
            from inexeval.ranks import lower_is_better
            from inexeval.report.figures import per_topic_summary

            results = self.results_of(setting)
            values = {r.run_id: {t: v.get(measure) for t, v in r.per_topic.items()} for r in results}
            topics = sorted({t for r in results for t in r.per_topic}, key=natural_key)
            self._summaries[key] = per_topic_summary(values, topics,
                                                     lower_better=lower_is_better(self.facts, measure))
        return self._summaries[key]

    def results_of(self, setting: str) -> list[RunResult]:
        return [r for r in self.ev.results if r.setting == setting]


def gather(config: Config, *, empty_as_zero: bool, reevaluate: bool, jobs: int) -> TaskData:
    """The results of ``config``: reused when fresh, else evaluated and written (its runs are validated
    with the graphs, :func:`validate_config`)."""
    from inexeval.api import evaluate_and_write
    from inexeval.plan import plan_config
    from inexeval.resultsdir import locked
    from inexeval.stamp import read_if_fresh, stamped_report

    plan = plan_config(config)
    measures, params, columns = list(plan.measures), plan.params, plan.columns
    with locked(config.results_dir, config.task):  # the files read belong to one complete set
        results = None if reevaluate else read_if_fresh(plan.config, empty_as_zero)
        reused = results is not None
        if reused:
            problems, warnings = stamped_report(config)
            settings = list(plan.settings)
        else:
            ev = evaluate_and_write(config, empty_as_zero=empty_as_zero, jobs=jobs, keep=set(columns), plan=plan)
            problems, warnings, results = list(ev.problems), list(ev.warnings), ev.results
            settings, measures, params, columns = ev.settings, ev.measures, ev.params, ev.columns
    view = SimpleNamespace(config=config, settings=settings, measures=measures, params=params, results=results,
                           columns=columns, empty_as_zero=empty_as_zero)
    return TaskData(config, view, reused=reused, problems=problems, warnings=warnings,
                    headline=[h for h in plan.headline if h in columns])


def validate_config(config: Config) -> tuple[list[RunReport], str | None]:
    """``inexeval validate`` on every run file of the config (as evaluation reads them: not those under
    RESULTS_DIR), against the recall-base the evaluation uses; a run read from standard input cannot be
    read again and is not validated.  Returns the reports and, when the assessments could not be read,
    why they were not used."""
    from inexeval import validate
    from inexeval.errors import InexevalError
    from inexeval.inputs import UNITS
    from inexeval.plan import plan_config
    from inexeval.tasks import DEFAULT_MAX_RESULTS

    config = plan_config(config).config  # (its runs: those evaluation reads)
    paths = [str(f.path) for f in config.runs if f.problem is None and str(f.path) != "-"]
    note = None
    try:
        assessments = UNITS[config.task_def.unit].load(config).data
    except InexevalError as err:
        assessments, note = None, f"checked without the assessments, which could not be read: {err}"
    reports = validate.validate_runs(paths, task=config.task, assessments=assessments,
                                     max_results=config.max_results or DEFAULT_MAX_RESULTS)
    return reports, note


def report_key(report: RunReport) -> str | None:
    """The run id evaluation gives the run a validation report is about (FOL runs: their file name)."""
    from inexeval.readers.runs import run_id_from_name
    from inexeval.validate import fol_task_letter

    if fol_task_letter(report.task) is not None:
        return run_id_from_name(report.path)
    return report.run_id


#: What ends a path inside a message: white space, quotes, markup, and the separators messages put after a path.
_PATH_TAIL = r"(?:/[^\s'\"<>:;,()\[\]]*)*"


def public_text(text: object, config: Config) -> str:
    """``text`` (a message, a note, a finding) as a page may show it: every absolute path of the
    organiser's machine in it (the config's input files and directories, the results directory, the
    working and home directories, and anything under them) as :func:`display_path` shows a path.  The one
    function every string of a page that may hold a path goes through (docs/decisions.md)."""
    import re

    s = str(text)
    known = _private_paths(config)
    if not any(k in s for k in known):
        return s
    stop = r"\s'\"<>:;,()\[\]"  # a path starts and ends at one of these (or the text's ends)
    pattern = re.compile(f"(?<![^{stop}])(?:" + "|".join(re.escape(k) for k in known) + f")(?![^{stop}/])"
                         + _PATH_TAIL)  # longest known path first: one holding spaces is matched whole
    return pattern.sub(lambda m: display_path(m.group(0), config), s)


def _private_paths(config: Config) -> list[str]:
    """The absolute paths whose text may not reach a page, longest first (the longest match wins)."""
    found: set[str] = set()

    def add(p: object, *, parent: bool = True) -> None:
        if p is None or str(p) in ("", "-"):
            return
        path = Path(str(p))
        for q in (path, path.parent) if parent else (path,):
            if q.is_absolute() and str(q) != q.anchor:
                found.add(str(q))
                try:
                    found.add(str(q.resolve()))
                except OSError:
                    pass

    for f in (*config.runs, *config.assessments):
        add(f.path)
    for p in (config.results_dir, config.collection_dir, config.source):
        add(Path(p).absolute() if p is not None else None)
    add(Path.cwd(), parent=False)
    add(Path.home(), parent=False)
    return sorted(found, key=len, reverse=True)


def display_path(path: str | os.PathLike, config: Config) -> str:
    """A path as the pages show it: relative to the config file's directory when under it, else its name
    (the site is published: the organiser's directories stay out of it)."""
    p = Path(path)
    base = Path(config.source).parent if config.source else Path.cwd()
    try:
        return str(p.resolve().relative_to(base.resolve()))
    except (ValueError, OSError):
        return p.name
