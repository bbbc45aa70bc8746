"""Judging the judges: the config's judgements (A) against one or more other sets (B, C, …) of the
task's kind, in one call (docs/formats.md §10.4, docs/measures.md §13).

:func:`compare_judgements` reads every set (:mod:`inexeval.assessments.judgement_sets`) and gives
the rows of

1. ``labels``: how far the grades agree, per topic and over all topics
   (:mod:`inexeval.assessments.label_rows`);
2. ``ranking`` and ``runs``: per measure of the config that ranks runs, how far the run ranking under
   A agrees with the one under each set (:mod:`inexeval.assessments.run_rankings`);
3. ``significance``: per tested measure, which significance decisions between runs survive
   (:mod:`inexeval.assessments.decisions`);
4. ``judged`` (with ``fill``, TREC qrels): each run's Judged@k under A, under B and under A filled
   with B's judgements of the documents A left unjudged; the fill is also compared as a set
   (``ranking``, ``significance``, named ``A's name+B's name``).

The runs are scored (every config key as evaluation reads it, the engine of ``inexeval -config``)
under each set on the topics both it and A judge, A's scores on those topics being shared by every
set with the same topics; with ``score_runs`` off only the labels are compared.
"""

from __future__ import annotations

import math
import tempfile
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from inexeval.aggregate import natural_key
from inexeval.assessments import decisions as D
from inexeval.assessments import judgement_sets as J
from inexeval.assessments import label_rows as LR
from inexeval.assessments.run_rankings import ranking_rows
from inexeval.errors import ConfigError
from inexeval.names import one_line
from inexeval.records import field, record

SECTIONS = ("labels", "ranking", "runs", "significance", "judged")


@record(frozen=True)
class JudgesOptions:
    """What :func:`compare_judgements` computes (the options of ``inexeval assessments``)."""

    missing: int | None = None  # --missing default:G: also compare the union, a missing grade being G
    top: int = 10  # --top K: tau over the K best runs under A
    measures: tuple[str, ...] = ()  # --measure: the measures tested (): the task's headline measure
    test: str = "t"  # --test: t | randomisation | bootstrap | tukey | randomised-tukey
    samples: int = 10000
    seed: int = 0
    alpha: float = 0.05
    fill: tuple[str, ...] = ()  # --fill A+B ...: A's judgements filled with another set's
    judged_k: int = 10  # --judged-k K: the k of Judged@k
    score_runs: bool = True  # False (--labels-only): labels only, no run is read
    jobs: int = 1
    quiet: bool = False


@record
class JudgesResult:
    """What :func:`compare_judgements` found: the rows, the sets, and the exit status."""

    sets: list  # [A, B, …] (:class:`~inexeval.assessments.judgement_sets.JudgementSet`)
    rows: list[tuple] = field(default_factory=list)  # (section, topic, level, grade, quantity, value)
    status: int = 0  # 1 when some input was skipped
    fills: list = field(default_factory=list)  # the fill sets (A+B, …)
    tested: list[str] = field(default_factory=list)  # the measures of the significance rows
    headline: list[str] = field(default_factory=list)  # the measures the table prints (HEADLINE that rank runs)
    options: JudgesOptions = JudgesOptions()
    notes: list[str] = field(default_factory=list)  # what a reader of the table needs to know

    def section(self, name: str) -> list[tuple]:
        return [r for r in self.rows if r[0] == name]


def _check(options: JudgesOptions) -> None:
    if options.test not in D.TESTS:
        raise ConfigError(f"unknown significance test {options.test!r} (one of {', '.join(D.TESTS)})",
                          "--test")
    if options.top < 1 or options.judged_k < 1 or options.samples < 1:
        raise ConfigError("--top, --judged-k and --samples take a positive integer", "--top")
    if not 0.0 < options.alpha < 1.0:
        raise ConfigError(f"--alpha must be between 0 and 1, not {options.alpha}", "--alpha")


def parse_missing(text: str | None) -> int | None:
    """``default:G`` -> G (an integer grade); None -> None."""
    if text is None:
        return None
    kind, _, grade = str(text).partition(":")
    try:
        if kind.strip() == "default":
            return int(grade)
    except ValueError:
        pass
    raise ConfigError(f"{text!r}: expected default:G with G an integer grade (default:0)", "--missing")


def compare_judgements(config, others: Sequence, options: JudgesOptions = JudgesOptions(), *,
                       echo=None) -> JudgesResult:
    """The config's judgements (A) against each set of OTHERS (paths of the task's kind: TREC or FOL
    qrels files, directories of INEX pool files), as rows (module docstring).

    CONFIG: a config file, a mapping of keys or a loaded Config.  Warnings (unless ``quiet``) and the
    inputs skipped go to ECHO (``echo(text, err=True)``).  Raises
    :class:`~inexeval.errors.ConfigError` for a bad option or config and
    :class:`~inexeval.errors.InputError` (file and line) for a set that cannot be read.
    """
    from inexeval.config.source import load

    _check(options)
    say = echo if echo is not None else (lambda *a, **k: None)
    config = load(config)
    if not others:
        raise ConfigError(f"{J.OPTION}: give at least one judgement set to compare with the config's", J.OPTION)
    kind = J.kind_of(config)
    sets = J.read_sets(config, list(others))
    result = JudgesResult(sets, options=options)
    for s in sets:
        if not options.quiet:
            for w in s.warnings:
                say(one_line(f"inexeval: warning: {w}"), err=True)
        for p in s.problems:
            say(one_line(f"inexeval: error: {p}"), err=True)
        if s.problems:
            result.status = 1
    values = LR.grade_values(sets, options.missing)
    threshold = kind.threshold(config)
    for b in sets[1:]:
        result.rows += LR.pair_rows(sets[0], b, values, threshold, options.missing)
    if len(sets) > 2:
        result.rows += LR.joint_rows(sets, values, threshold, options.missing)
    fills = _fill_pairs(sets, options.fill, kind)
    if options.score_runs:
        _Scorer(config, kind, options, say, result).score(sets, fills)
    elif fills:
        raise ConfigError("--fill scores the runs: not with --labels-only", "--fill")
    order = {s: k for k, s in enumerate(SECTIONS)}
    result.rows.sort(key=lambda r: order.get(r[0], len(order)))  # stable: each section keeps its order
    result.rows = [(*r[:5], plain(r[5])) for r in result.rows]
    return result


def plain(v):
    """V as the rows hold it: None for an undefined value (NaN), Python int, float or str."""
    if v is None or isinstance(v, str):
        return v
    if isinstance(v, (bool, np.bool_)):
        return int(v)
    if isinstance(v, (int, np.integer)):
        return int(v)
    v = float(v)
    return None if math.isnan(v) else v


def _fill_pairs(sets: list, fill: Sequence[str], kind) -> list[tuple]:
    """[(A, X)] of each ``A+X`` of FILL (X a set's letter: B the first --judgements-b)."""
    out = []
    labels = {s.label: s for s in sets[1:]}
    for f in fill:
        first, _, second = str(f).replace(" ", "").partition("+")
        if first != "A" or second not in labels:
            raise ConfigError(f"{f!r}: expected A+X with X the letter of a --judgements-b set "
                              f"({', '.join(labels) or 'none given'}; B is the first)", "--fill")
        if not kind.fills:
            raise ConfigError("--fill fills document judgements (TREC qrels); it is not defined for "
                              f"{kind.item} judgements", "--fill")
        if (sets[0], labels[second]) not in out:
            out.append((sets[0], labels[second]))
    return out


class _Scorer:
    """Scores the runs under every set (cached per set and topics) and adds the rows of sections
    ``ranking``, ``runs``, ``significance`` and ``judged`` to RESULT."""

    def __init__(self, config, kind, options: JudgesOptions, say, result: JudgesResult):
        from inexeval.records import replace

        from inexeval.compare.tables import tested_measure
        from inexeval.measures.registry import default_metrics, output_facts
        from inexeval.plan import plan_config

        self.options, self.say, self.result, self.kind = options, say, result, kind
        plan = plan_config(config)
        columns = plan.columns
        self.facts = output_facts(plan.measures, plan.params)
        from inexeval.ranks import ranked

        self.measures = [c for c in columns if ranked(self.facts, c)]
        result.headline = [h for h in plan.headline if h in self.measures]
        tested = list(options.measures) or [tested_measure(columns, None, plan.headline)]
        unknown = [m for m in tested if m not in columns]
        if unknown:
            raise ConfigError(f"--measure: {', '.join(map(repr, unknown))} is not a measure of {config.task} "
                              f"({', '.join(columns)})", config.source)
        result.tested = tested
        self.judged = f"Judged@{options.judged_k}"
        if options.fill and self.judged not in columns:
            metrics = config.metrics or tuple(default_metrics(config.strategy))
            config = replace(config, metrics=(*metrics, self.judged))
        self.config = config
        self.cache: dict[tuple, list] = {}
        self.seen: set[str] = set()

    def results(self, s, topics: Sequence[str]) -> list:
        """The RunResults of every run scored under set S on TOPICS (each problem reported once)."""
        from inexeval.engine import evaluate

        key = (s.label, tuple(topics))
        if key not in self.cache:
            ev = evaluate(J.scoring_config(self.config, s, topics), jobs=self.options.jobs)
            for w in ev.warnings:
                if not self.options.quiet and w not in self.seen:
                    self.seen.add(w)
                    self.say(one_line(f"inexeval: warning: {w}"), err=True)
            for p in ev.problems:
                if str(p) not in self.seen:
                    self.seen.add(str(p))
                    self.say(one_line(f"inexeval: error: {p}"), err=True)
                self.result.status = 1
            self.cache[key] = ev.results
        return self.cache[key]

    def score(self, sets: list, fills: list) -> None:
        a = sets[0]
        with tempfile.TemporaryDirectory(prefix="inexeval-fill-") as tmp:
            for b in sets[1:]:
                self.compare(a, b, self.common(a, b))
            for a_, b in fills:
                f = J.fill_set(a_, b, Path(tmp))
                self.result.fills.append(f)
                topics = self.common(a_, b)
                self.compare(a_, f, topics)
                self.judged_rows(a_, b, f, topics)

    def common(self, a, b) -> list[str]:
        topics = sorted(set(a.topics) & set(b.topics), key=natural_key)
        if not topics:
            self.result.notes.append(f"{b.name}: no topic judged by both {a.name} and it: its runs are not compared")
        return topics

    def compare(self, a, b, topics: list[str]) -> None:
        """The ``ranking``, ``runs`` and ``significance`` rows of set B against A on TOPICS."""
        from inexeval.ranks import lower_is_better

        if not topics:
            return
        ra, rb = self.results(a, topics), self.results(b, topics)
        settings = list(dict.fromkeys(r.setting for r in ra))
        for s in settings:
            by_a = {r.run_id: r for r in ra if r.setting == s}
            by_b = {r.run_id: r for r in rb if r.setting == s}
            runs = [r for r in by_a if r in by_b]
            for m in self.measures:
                level = m if len(settings) == 1 else f"{s} {m}"
                low = lower_is_better(self.facts, m)
                rows, per_run = ranking_rows(b.name, level, {r: by_a[r].average.get(m) for r in runs},
                                             {r: by_b[r].average.get(m) for r in runs}, self.options.top, low)
                self.result.rows += rows + per_run
            for m in self.result.tested:
                level = m if len(settings) == 1 else f"{s} {m}"
                o = self.options
                dec = [D.decisions({r: {t: v.get(m) for t, v in by[r].per_topic.items()} for r in runs}, o.test,
                                   samples=o.samples, seed=o.seed, alpha=o.alpha) for by in (by_a, by_b)]
                self.result.rows += D.significance_rows(b.name, level, *dec, lower_is_better(self.facts, m))

    def judged_rows(self, a, b, f, topics: list[str]) -> None:
        """Each run's Judged@k under A, B and the fill F (section ``judged``, grade B's name)."""
        if not topics:
            return
        k = self.judged
        under = [{r.run_id: r.average.get(k) for r in self.results(s, topics)} for s in (a, b, f)]
        for run in under[0]:
            for q, values in zip(("judged_at_k_a", "judged_at_k_b", "judged_at_k_fill"), under):
                v = values.get(run)
                self.result.rows.append(("judged", "all", run, b.name, q,
                                         None if v is None or (isinstance(v, float) and math.isnan(v)) else v))


__all__ = ["JudgesOptions", "JudgesResult", "compare_judgements", "parse_missing", "SECTIONS"]
