"""The ``inexeval assessments`` workflow: read the judgements as evaluation selects them, compute the
rows of :mod:`inexeval.assessments.tables`, print them, and write ``RESULTS_DIR/<TASK>/assessments/``
(docs/formats.md §10).

The official judgements are read by the readers evaluation uses, with the config's TOPICS, POOLS
and QUERY_TYPE (:mod:`inexeval.readers.assessments`, :mod:`inexeval.readers.trec`,
:mod:`inexeval.readers.fol`).  The second assessor is, for INEX assessment files, a topic's other
pool file under ASSESSMENTS_DIR (whatever POOLS says: POOLS chooses the official one), and for
TREC and FOL qrels the file of ``--qrels-b``.  For INEX 2006 pools of a topic judged twice, the
``<passage>``s are read too and placed in COLLECTION_DIR (:mod:`inexeval.assessments.highlights`), so that the
highlighted characters are compared as for FOL (level ``text``).  With ``--agreement`` every run is evaluated under
each assessor's judgements of the topics judged by both (the config otherwise unchanged) and the two
rankings are compared (:func:`inexeval.assessments.tables.ranking_rows`).  With ``judgements_b``
(``--judgements-b``, and ``--qrels-b`` on the command line) the sets given are compared with the
config's by :func:`inexeval.assessments.judges.compare_judgements` (docs/formats.md §10.4), whose rows
are written with these; the first of them is then the second assessor of qrels.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np

from inexeval.assessments import tables as A
from inexeval.assessments.judgement_sets import check_named_files
from inexeval.aggregate import natural_key
from inexeval.api import Echo
from inexeval.config.source import ConfigSource, load
from inexeval.errors import ConfigError, InputError
from inexeval.names import cell, one_line
from inexeval.records import field, record, replace

FORMATS = ("table", "tsv", "json")


@record(frozen=True)
class AssessOptions:
    """The options of ``inexeval assessments`` as one value."""

    agreement: bool = False  # evaluate the runs under each assessor and compare the rankings
    qrels_b: str | os.PathLike | None = None  # the second qrels file (TREC, FOL); the rows of §10.1 only
    #: --judgements-b (and --qrels-b on the command line): the sets compared with the config's (§10.4)
    judgements_b: tuple = ()
    judges: object = None  # their JudgesOptions (None: the defaults), inexeval.assessments.judges
    fmt: str = "table"
    gnuplot: bool = False
    png: bool = False
    overrides: tuple[str, ...] = ()
    results_dir: str | os.PathLike | None = None
    quiet: bool = False
    jobs: int = 1


@record
class Loaded:
    """Both assessors' judgements of every selected topic, and how to compare them."""

    kind: str  # "inex", "trec", "fol"
    grades: tuple[str, ...]
    official: dict[str, A.Judged]
    additional: dict[str, A.Judged] = field(default_factory=dict)
    stats_levels: tuple[str, ...] = ("element",)
    agreement_levels: tuple[str, ...] = ("article", "element")
    ma_level: str = "element"
    warnings: list[str] = field(default_factory=list)
    problems: list[InputError] = field(default_factory=list)
    kappa_rows: list = field(default_factory=list)  # TREC: Cohen's κ per topic
    text_topics: set = field(default_factory=set)  # topics whose highlighted characters are compared


# --------------------------------------------------------------------------- reading


def _load_inex(config) -> Loaded:
    from inexeval.inputs import placed
    from inexeval.errors import EmptySelection
    from inexeval.readers import assessments as reader

    problems: list[InputError] = []
    try:
        a = reader.load_assessments(config.assessments, pools=config.pools, topics=config.topics,
                                    query_type=config.query_type, problems=problems)
    except EmptySelection as err:
        raise placed(err, config) from None
    warnings = list(a.warnings)
    # the other pool files of each selected topic (their header errors were reported above)
    others: dict[str, list] = {}
    headers: dict[str, reader.PoolHeader] = {}
    for f in config.assessments:
        if f.problem is not None or not f.path.name.lower().endswith(reader.ASSESSMENT_NAMES):
            continue
        try:
            h = reader.read_header(f)
        except InputError:
            continue
        headers[h.source] = h
        ta = a.topics.get(h.topic)
        if ta is not None and h.source != ta.source:
            others.setdefault(h.topic, []).append(h)
    second = {}
    for topic in sorted(others, key=natural_key):
        hs = others[topic]
        if len(hs) > 1:
            listing = "; ".join(f"pool {h.pool or '?'}: {h.source}" for h in hs)
            warnings.append(f"topic {topic} has {len(hs)} other pool files ({listing}): which is the "
                            "additional assessor is not known, so its agreement is left out")
            continue
        try:
            second[topic] = reader.read_pool_file(hs[0], False, warnings)
        except InputError as exc:
            problems.append(InputError(f"{exc.message}; the agreement of topic {topic} is left out",
                                       exc.file, exc.line))
    has_e = any(j.e is not None for ta in (*a.topics.values(), *second.values())
                for fa in ta.files.values() for j in fa.elements.values())
    grades = (*A.E_GRADES, *A.S_GRADES) if has_e else A.S_GRADES
    loaded = Loaded("inex", grades, {t: A.from_inex(ta, grades) for t, ta in a.topics.items()},
                    {t: A.from_inex(ta, grades) for t, ta in second.items()}, warnings=warnings, problems=problems)
    _inex_highlights(config, loaded, {t: headers.get(a.topics[t].source) for t in second},
                     {t: headers.get(ta.source) for t, ta in second.items()})
    return loaded


def _inex_highlights(config, loaded: Loaded, official: dict, additional: dict) -> None:
    """Both assessors' highlighted spans of the topics judged twice (INEX 2006 ``<passage>``s placed
    in the collection, :mod:`inexeval.assessments.highlights`), so that level ``text`` is compared."""
    from inexeval.assessments.highlights import article_spans
    from inexeval.readers import assessments as reader

    raw: dict[tuple[str, str], dict] = {}
    for which, heads in (("a", official), ("b", additional)):
        for topic, h in heads.items():
            if h is None:
                continue
            try:
                raw[which, topic] = reader.read_passages(h)
            except InputError as exc:
                loaded.problems.append(InputError(f"{exc.message}; the agreement on highlighted text of topic "
                                                  f"{topic} is left out", exc.file, exc.line))
    pairs = [t for t in official if ("a", t) in raw and ("b", t) in raw]
    if not any(raw["a", t] or raw["b", t] for t in pairs):
        return  # no <passage> (INEX 2005): nothing to compare at level text
    if config.collection_dir is None:
        loaded.warnings.append("the agreement on highlighted text (level text) places the pools' <passage>s in the "
                               "documents, so it needs COLLECTION_DIR: left out")
        return
    from inexeval.readers.collection import Collection

    collection = Collection(config.collection_dir)
    for t in pairs:
        ja, jb = loaded.official[t], loaded.additional[t]
        ja.spans = article_spans(raw["a", t], collection, ja.source, loaded.problems)
        jb.spans = article_spans(raw["b", t], collection, jb.source, loaded.problems)
        loaded.text_topics.add(t)


def _trec_topics(qrels, config, source: str) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    qid = qrels.qid
    order = np.argsort(qid, kind="stable")
    names, starts = np.unique(qid[order], return_index=True)
    ends = np.append(starts[1:], len(order))
    out = {}
    for name, s, e in zip(names.tolist(), starts, ends):
        topic = name.decode("utf-8", "replace")
        if config.topics is None or topic in config.topics:
            rows = order[s:e]
            out[topic] = (qrels.docno[rows], qrels.rel[rows])
    return out


def _load_trec(config, qrels_b) -> Loaded:
    from inexeval.inputs import one_qrels_file
    from inexeval.readers.trec import read_qrels

    path, problems = one_qrels_file(config)
    a = _trec_topics(read_qrels(path), config, str(path))
    b = _trec_topics(read_qrels(qrels_b), config, str(qrels_b)) if qrels_b is not None else {}
    if config.topics is not None and not a:
        raise ConfigError("TOPICS selects none of the topics of the qrels", config.source, config.line_of("TOPICS"))
    levels = sorted({int(v) for _, rel in (*a.values(), *b.values()) for v in np.unique(rel).tolist()})
    grades = tuple(str(v) for v in levels)
    rl = config.rel_level

    def judged(topics, source):
        return {t: A.from_trec(t, d, r, rl, grades, source) for t, (d, r) in topics.items()}

    loaded = Loaded("trec", grades, judged(a, str(path)), judged({t: b[t] for t in b if t in a}, str(qrels_b)),
                    stats_levels=("article",), agreement_levels=("article",), ma_level="article",
                    problems=problems)
    for t in sorted(loaded.additional, key=natural_key):
        loaded.kappa_rows += A.topic_kappa(t, *a[t], *b[t], rl)
    _warn_unpaired(loaded, a, b, qrels_b)
    return loaded


def _warn_unpaired(loaded: Loaded, a, b, qrels_b) -> None:
    if qrels_b is None:
        return
    only = sorted(set(b) - set(a), key=natural_key)
    if only:
        loaded.warnings.append(f"{qrels_b}: topics not in ASSESSMENTS_DIR (or not selected), left out: "
                               + ", ".join(only))


def _load_fol(config, qrels_b) -> Loaded:
    from inexeval.inputs import one_qrels_file
    from inexeval.readers.fol import read_fol_qrels

    path, problems = one_qrels_file(config)
    qa = read_fol_qrels(path)
    qb = read_fol_qrels(qrels_b) if qrels_b is not None else None

    def chosen(q):
        return {t: v for t, v in q.topics.items() if config.topics is None or t in config.topics}

    a = chosen(qa)
    b = chosen(qb) if qb is not None else {}
    if config.topics is not None and not a:
        raise ConfigError("TOPICS selects none of the topics of the qrels", config.source, config.line_of("TOPICS"))
    loaded = Loaded("fol", A.S_GRADES, {t: A.from_fol(t, v, qa.source) for t, v in a.items()},
                    {t: A.from_fol(t, v, qb.source) for t, v in b.items() if t in a},
                    stats_levels=("article", "text"), agreement_levels=("article",), ma_level="article",
                    problems=problems)
    _warn_unpaired(loaded, a, b, qrels_b)
    return loaded


def load_judgements(config, qrels_b=None) -> Loaded:
    """Both assessors' judgements of the selected topics (module docstring)."""
    load = _LOADERS.get(config.task_def.unit)
    if load is None:
        raise ConfigError(f"inexeval assessments has no statistics of the judgements of TASK {config.task} "
                          f"(INEX pools, TREC and FOL qrels)", config.source, config.line_of("TASK"))
    return load(config, qrels_b)


def second_qrels(config, others) -> str | os.PathLike | None:
    """The second assessor of the rows of §10.1 when sets are given with --judgements-b: the first of
    them for qrels (TREC, FOL); for INEX pools still a topic's other pool file (None)."""
    return others[0] if others and _SECOND_FROM_OTHERS.get(config.task_def.unit, False) else None


def _load_pools(config, qrels_b) -> Loaded:
    if qrels_b is not None:
        raise ConfigError(f"--qrels-b names a second qrels file (TREC and FOL tasks); for {config.task} the "
                          "second assessor is a topic's other pool file under ASSESSMENTS_DIR", "--qrels-b")
    return _load_inex(config)


#: How each result unit's judgements are loaded (the units without any are refused).
_LOADERS = {"element": _load_pools, "document": _load_trec, "passage": _load_fol}
#: Whether the rows of §10.1 compare the first --judgements-b set (qrels) or the pools' other files.
_SECOND_FROM_OTHERS = {"element": False, "document": True, "passage": True}


# --------------------------------------------------------------------------- computing


def compute_rows(loaded: Loaded) -> list[tuple]:
    """Every row: per-topic rows of each section, each followed by its rows across topics."""
    topics = sorted(loaded.official, key=natural_key)
    stats = [r for t in topics for r in A.topic_stats(loaded.official[t], loaded.stats_levels, loaded.grades)]
    both = [t for t in topics if t in loaded.additional]
    agree = []
    ma = []
    for t in both:
        a, b = loaded.official[t], loaded.additional[t]
        agree += A.topic_agreement(a, b, loaded.agreement_levels, loaded.grades)
        if loaded.kind == "fol" or t in loaded.text_topics:
            agree += A.topic_text_agreement(a, b)
        ma += A.topic_ma(a, b, loaded.ma_level, loaded.grades)
    agree += loaded.kappa_rows
    out = []
    for part in (stats, agree, ma):
        out += part + A.across_topics(part)
    return out


def ranking(config, loaded: Loaded, qrels_b, jobs: int, say: Echo, quiet: bool) -> tuple[list[tuple], int]:
    """The rows of ``--agreement``: every run evaluated under each assessor (module docstring)."""
    from inexeval.api import report
    from inexeval.model import InputFile
    from inexeval.engine import evaluate

    both = sorted((t for t in loaded.official if t in loaded.additional), key=natural_key)
    if not both:
        raise ConfigError("--agreement: no selected topic is judged by two assessors "
                          + ("(no topic has a second pool file under ASSESSMENTS_DIR)" if loaded.kind == "inex"
                             else "(give --qrels-b FILE, a qrels file sharing topics with ASSESSMENTS_DIR)"),
                          config.source)
    keep = frozenset(both)
    if loaded.kind == "inex":
        pa = [loaded.official[t].pool for t in both]
        pb = [loaded.additional[t].pool for t in both]
        if None in pa or None in pb or set(pa) & set(pb):
            raise ConfigError("--agreement selects each assessor's files by pool id: every pool file of the "
                              "topics judged twice needs its own pool id (pool attribute or pool-NNN.xml name)",
                              config.source)
        cfg_a = replace(config, topics=keep, pools=frozenset(pa), query_type=None)
        cfg_b = replace(config, topics=keep, pools=frozenset(pb), query_type=None)
    else:
        path = Path(qrels_b)
        cfg_a = replace(config, topics=keep)
        cfg_b = replace(config, topics=keep, assessments=(InputFile(path, path),))
    ev_a = evaluate(cfg_a, jobs=jobs)
    ev_b = evaluate(cfg_b, jobs=jobs)
    report(ev_a, say, quiet)
    seen = {str(p) for p in ev_a.problems}
    for p in ev_b.problems:
        if str(p) not in seen:
            say(one_line(f"inexeval: error: {p}"), err=True)
    status = 1 if ev_a.problems or ev_b.problems else 0
    return A.ranking_rows(ev_a.results, ev_b.results, ev_a.columns), status


# --------------------------------------------------------------------------- output


def _value_text(v) -> str:
    if v is None or (isinstance(v, float) and np.isnan(v)):
        return "-"
    if isinstance(v, (bool, np.bool_)):
        return str(int(v))
    if isinstance(v, (int, np.integer)):
        return str(int(v))
    if isinstance(v, float):
        return repr(v)
    return cell(str(v))


def tsv_text(rows) -> str:
    """``section TAB topic TAB level TAB grade TAB quantity TAB value`` lines (docs/formats.md §10)."""
    return "".join("\t".join((s, cell(str(t)), lv, cell(str(g)), q, _value_text(v))) + "\n"
                   for s, t, lv, g, q, v in rows)


def json_text(rows) -> str:
    keys = ("section", "topic", "level", "grade", "quantity", "value")
    clean = []
    for r in rows:
        v = r[5]
        if isinstance(v, float) and np.isnan(v):
            v = None
        elif isinstance(v, np.integer):
            v = int(v)
        clean.append(dict(zip(keys, (*r[:5], v))))
    return json.dumps(clean, indent=1, allow_nan=False) + "\n"


def write_outputs(config, rows, loaded: Loaded, options: AssessOptions) -> Path:
    """``RESULTS_DIR/<TASK>/assessments/`` written as a whole (staged, then swapped in), under the
    lock of ``RESULTS_DIR/<TASK>`` (:mod:`inexeval.resultsdir`)."""
    from inexeval.resultsdir import locked, staged
    from inexeval.writers.assessment_graphs import write_graphs
    from inexeval.writers.files import atomic_write

    with locked(config.results_dir, config.task) as results_dir:
        task_dir = results_dir / config.task
        with staged(task_dir, "assessments") as root:
            out = root / "assessments"
            atomic_write(out / "assessments.tsv", tsv_text(rows))
            atomic_write(out / "assessments.json", json_text(rows))
            if options.gnuplot or options.png:
                write_graphs(out / "graphs", rows, loaded, config.task, gnuplot=options.gnuplot, png=options.png)
    return task_dir / "assessments"


def run_assessments(config: ConfigSource, options: AssessOptions = AssessOptions(), *,
                    echo: Echo | None = None) -> int:
    """``inexeval assessments``: returns the exit status (1 when some input was skipped)."""
    from inexeval.writers.assessment_table import table_text

    say = echo if echo is not None else (lambda *a, **k: None)
    config = load(config, options.overrides, options.results_dir)
    if options.qrels_b is not None:
        check_named_files([options.qrels_b], "--qrels-b")
    others = tuple(options.judgements_b)
    if others and options.qrels_b is not None:
        raise ConfigError("give the second set once: qrels_b (the rows of §10.1 only) or judgements_b", "--qrels-b")
    check_named_files(others, "--judgements-b", directories=True)  # (the task's own rule: read_sets)
    judged = None
    if others:  # the sets are read (and their errors reported) before anything else is computed
        from inexeval.assessments.judges import JudgesOptions, compare_judgements

        jo = options.judges if options.judges is not None else JudgesOptions()
        jo = replace(jo, quiet=options.quiet, jobs=options.jobs)
        judged = compare_judgements(config, others, jo, echo=say)
    loaded = load_judgements(config, second_qrels(config, others) if others else options.qrels_b)
    status = 1 if loaded.problems or (judged is not None and judged.status) else 0
    if not options.quiet:
        for w in loaded.warnings:
            say(one_line(f"inexeval: warning: {w}"), err=True)
    told = {str(x) for s in judged.sets for x in s.problems} if judged is not None else set()
    for p in loaded.problems:
        if str(p) not in told:  # the sets' own problems were reported as they were read
            say(one_line(f"inexeval: error: {p}"), err=True)
    rows = compute_rows(loaded)
    if options.agreement and judged is None:  # with --judgements-b the runs are compared in §10.4's rows
        extra, st = ranking(config, loaded, options.qrels_b, options.jobs, say, options.quiet)
        rows += extra
        status = max(status, st)
    legacy = list(rows)
    if judged is not None:
        rows += judged.rows
    write_outputs(config, rows, loaded, options)
    if options.fmt == "tsv":
        say(tsv_text(rows), nl=False)
    elif options.fmt == "json":
        say(json_text(rows), nl=False)
    else:
        from inexeval.assessments.judges_text import judges_text

        say(table_text(legacy, loaded, config.task))
        if judged is not None:
            say("\n" + judges_text(judged))
    return status
