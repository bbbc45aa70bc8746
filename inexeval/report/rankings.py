"""A run's ranking per topic as evaluation reads it, each result with its judgement: what the side-by-side
panels show (:mod:`inexeval.report.panels`).  Nothing here writes HTML.

One ranker per result unit (the task table's ``unit``, :data:`inexeval.inputs.UNITS` reads the inputs):

- ``document`` (TASK trec): the TREC run ordered as trec_eval orders it (score descending, ties by
  docno descending in byte order, the rank column ignored; a repeated docno keeps its first line;
  MAX_RESULTS cuts after ordering); each docno's qrels grade, relevant at REL_LEVEL and above,
  "unjudged" when the qrels have no line for it;
- ``element`` (the INEX 2005/2006 tasks): the results in file order after run hygiene (docs/formats.md
  §1.3); an element of a document the topic's pool assessed is judged: its exhaustivity and its
  highlighted characters of its length (``rsize`` of ``size``), an element the pool does not list has
  no highlighted text (§1.2); an element of a document outside the pool is "unjudged";
- ``passage`` (the FOL tasks): the topic's lines in file order (RANK and RSV are not read); outside
  Focused a line of the same article as the line before joins its rank, as inex_eval ranks them
  (docs/inex_eval.md §4.1: an in-context rank is an article).  Each passage's relevant characters
  (§5: what it covers of the article's relevant passages; Thorough's novelty is not taken off), the
  article's relevant characters of its length, "unjudged" for an article without a qrels line;
  an unknown passage (``X``, ``-1``) has 18 characters, none relevant;
- ``answer`` (TASK qa): the answers by position, the first MAX_RESULTS, marked as the scores mark
  them (:func:`inexeval.measures.qa.mark`); a question without answer data is "unjudged".

:func:`read_rankings` reads the judgements once and each run file at most once (the files in
SUBMISSIONRUNS_DIR's order until every run id asked for is found, as evaluation names them: the first
readable file with an id wins); a run read from standard input cannot be read again and is not found.
Ranks count the topic's own results only (a FOL topic whose lines come in several blocks: the tool's
current-state rule, docs/inex_eval.md §4.4, is not followed).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import Any

from inexeval.errors import ConfigError, InputError
from inexeval.records import field, record

__all__ = ["Piece", "Result", "RunRanking", "Rankings", "read_rankings", "RELEVANT", "NOT_RELEVANT",
           "UNJUDGED", "MALFORMED"]

#: A result's verdict: what its judgement says of it
RELEVANT, NOT_RELEVANT, UNJUDGED, MALFORMED = "relevant", "not relevant", "unjudged", "malformed"


@record(frozen=True)
class Piece:
    """One part of a result: an element (its path), a passage (``offset:length`` as written), or the
    whole of a document or answer (``where`` empty); its relevant characters of its length where the
    unit counts characters (None otherwise, or when unknown)."""

    where: str
    relevant: int | None = None
    length: int | None = None
    note: str = ""


@record(frozen=True)
class Result:
    """One ranked result of a run for a topic."""

    rank: int
    item: str  # the docno, file id, article id or answer text
    key: Hashable | None  # equal keys: the same result (None: never the same as another)
    verdict: str  # RELEVANT, NOT_RELEVANT, UNJUDGED or MALFORMED
    grade: str  # the judgement in words: "rel 2", "E 2", "article: 757 of 5473 characters relevant", ...
    pieces: tuple[Piece, ...] = ()
    score: float | None = None  # TREC: the score it was ordered by
    tied: bool = False  # TREC: the same score as the result before (trec_eval breaks the tie by docno)
    extent: tuple = ()  # what overlap compares: an element's steps, a passage's (start, end) spans

    @property
    def relevant(self) -> int | None:
        """The relevant characters of its pieces (None when no piece counts them)."""
        known = [p.relevant for p in self.pieces if p.relevant is not None]
        return sum(known) if known else None


@record
class RunRanking:
    """One run: its id, its file, and its results per topic asked for (a topic it lacks is absent)."""

    run_id: str
    source: str
    topics: dict[str, list[Result]] = field(default_factory=dict)


@record
class Rankings:
    """The runs asked for, with what the page says of their results."""

    task: str
    order: str  # how a run's results are ranked and judged, in words
    runs: dict[str, RunRanking]
    judged: dict[str, bool]  # per topic asked for: whether the judgements have it
    overlap: Callable[[Result, Result], bool]  # two different results sharing text (elements, passages)
    counts_characters: bool  # results carry relevant characters of a length


def read_rankings(config, run_ids: Sequence[str], topics: Iterable[str] | None = None, *,
                  depth: int | None = None) -> Rankings:
    """The rankings of the runs ``run_ids`` of ``config`` (a :class:`~inexeval.config.schema.Config`)
    for ``topics`` (None: every topic of those runs), each result judged; with ``depth``, each topic's
    first ``depth`` results only (what is kept of many runs stays bounded).  ConfigError for a task
    whose results cannot be shown this way, or a run id that no readable run file of the config has."""
    from inexeval.resultsdir import runs_outside_results

    ranker = _RANKERS.get(config.task_def.unit)
    if ranker is None:
        raise ConfigError(f"side-by-side panels are not available for TASK {config.task}", config.source)
    config, _ = runs_outside_results(config)  # (its runs: those evaluation reads)
    wanted = list(dict.fromkeys(run_ids))
    judgements = ranker.load(config)
    found = _find_runs(config, ranker, judgements, wanted)
    asked = list(dict.fromkeys(topics)) if topics is not None else None
    runs = {}
    for run_id in wanted:
        source, raw = found[run_id]
        names = asked if asked is not None else ranker.topics_of(raw)
        ranking = RunRanking(run_id, source)
        for t in names:
            results = ranker.ranked(raw, t, judgements, config)
            if results is not None:
                ranking.topics[t] = results if depth is None else results[:depth]
        runs[run_id] = ranking
    every = asked if asked is not None else list(dict.fromkeys(t for r in runs.values() for t in r.topics))
    return Rankings(config.task, ranker.order_of(config), runs, {t: ranker.judged(judgements, t) for t in every},
                    ranker.overlap, ranker.counts_characters)


def _find_runs(config, ranker: _Ranker, judgements, wanted: list[str]) -> dict[str, tuple[str, Any]]:
    """run id -> (its file, what the ranker read), for every id of WANTED: the config's run files read in
    order, each at most once, until all are found."""
    found: dict[str, tuple[str, Any]] = {}
    unreadable = 0
    for f in config.runs:
        if len(found) == len(wanted):
            break
        if f.problem is not None or str(f.path) == "-":
            continue
        cheap = ranker.id_from_path(f.path)
        if cheap is not None and (cheap not in wanted or cheap in found):
            continue
        try:
            run_id, raw = ranker.read(f.path, config, judgements)
        except InputError:
            unreadable += 1  # evaluation reports it and scores no run from it
            continue
        if run_id in wanted and run_id not in found:
            found[run_id] = (str(f.path), raw)
    missing = [r for r in wanted if r not in found]
    if missing:
        more = f"; {unreadable} run file(s) could not be read" if unreadable else ""
        raise ConfigError(f"no run of TASK {config.task} has the run id "
                          + ", ".join(repr(r) for r in missing)
                          + f" (the run files of SUBMISSIONRUNS_DIR, not one read from standard input{more})",
                          config.source)
    return found


# ----------------------------------------------------------------------------------------- the rankers


class _Ranker:
    """How one unit's judgements and runs are read, and a run's results for a topic ranked and judged."""

    order = ""
    counts_characters = False

    def order_of(self, config) -> str:
        """How the runs' results are ranked and judged, in words."""
        return self.order

    def load(self, config):
        """The judgements (read once)."""
        from inexeval.inputs import UNITS

        return UNITS[config.task_def.unit].load(config)

    def id_from_path(self, path) -> str | None:
        """The run id when the file's name alone gives it (None: the file must be read)."""
        return None

    def read(self, path, config, judgements) -> tuple[str, Any]:
        """(run id, the run as read); InputError when it cannot be read."""
        from inexeval.inputs import UNITS

        run = UNITS[config.task_def.unit].read_run(path, config, judgements)
        return run.run_id, run

    def topics_of(self, raw) -> list[str]:
        return list(raw.topics)

    def judged(self, judgements, topic: str) -> bool:
        return topic in judgements.topics

    def ranked(self, raw, topic: str, judgements, config) -> list[Result] | None:
        raise NotImplementedError

    @staticmethod
    def overlap(a: Result, b: Result) -> bool:
        return False


class _Documents(_Ranker):
    """TREC qrels and runs (TASK trec)."""

    order = ("ranked as trec_eval ranks them: by score, ties by docno in descending byte order (the rank column "
             "is not read; a docno repeated in a topic keeps its first line; MAX_RESULTS cuts after ordering); "
             "judged by the qrels, relevant at REL_LEVEL and above")

    def read(self, path, config, judgements):
        from inexeval.measures.classic_join import run_id_of
        from inexeval.readers.trec import read_run

        run = read_run(path)
        return run_id_of(run, lambda message: None), _TrecRows(run)

    def topics_of(self, raw: _TrecRows) -> list[str]:
        return list(raw.rows)

    def ranked(self, raw: _TrecRows, topic: str, judgements, config) -> list[Result] | None:
        import numpy as np

        rows = raw.rows.get(topic)
        if rows is None:
            return None
        run = raw.run
        scores = run.score[rows]
        if config.trec_eval_version == "9.0.8":  # trec_eval 9.0.8 keeps scores as C floats
            scores = scores.astype(np.float32).astype(np.float64)
        first: dict[bytes, float] = {}
        for docno, score in zip(run.docno[rows].tolist(), scores.tolist()):
            if docno not in first:
                first[docno] = score + 0.0  # -0.0 ties with 0.0
        ordered = sorted(((s, d) for d, s in first.items()), reverse=True)  # score, then docno, descending
        if config.max_results is not None:
            ordered = ordered[:config.max_results]
        qrels = _qrels_of(judgements.data, topic)
        level = judgements.data.rel_level
        out = []
        for rank, (score, docno) in enumerate(ordered, 1):
            rel = qrels.get(docno)
            if rel is None:
                verdict, grade = UNJUDGED, "no qrels line"
            else:
                verdict, grade = (RELEVANT if rel >= level else NOT_RELEVANT), f"rel {rel}"
            name = docno.decode("utf-8", "replace")
            tied = rank > 1 and ordered[rank - 2][0] == score
            out.append(Result(rank, name, docno, verdict, grade, (Piece(""),), score, tied))
        return out


class _TrecRows:
    """A TREC run and its rows per topic (file order)."""

    def __init__(self, run):
        import numpy as np

        self.run = run
        self.rows: dict[str, Any] = {}
        if not run.qid.size:
            return
        ids, inverse = np.unique(run.qid, return_inverse=True)
        inverse = inverse.ravel()
        order = np.argsort(inverse, kind="stable")
        ends = np.cumsum(np.bincount(inverse, minlength=len(ids)))
        starts = ends - np.bincount(inverse, minlength=len(ids))
        blocks = {}
        for i, qid in enumerate(ids.tolist()):
            name = qid.decode("utf-8", "replace")
            part = order[starts[i]:ends[i]]
            blocks[name] = np.sort(np.concatenate([blocks[name], part])) if name in blocks else part
        first_row = {name: int(rows[0]) for name, rows in blocks.items()}
        self.rows = {name: blocks[name] for name in sorted(blocks, key=first_row.__getitem__)}  # file order


def _qrels_of(table, topic: str) -> dict[bytes, int]:
    """The qrels of TOPIC: docno -> grade (empty when the qrels lack the topic)."""
    i = table.index.get(topic)
    if i is None:
        return {}
    a, b = int(table.qstart[i]), int(table.qstart[i + 1])
    return dict(zip(table.qdocno[a:b].tolist(), table.qrel[a:b].tolist()))


class _Elements(_Ranker):
    """INEX assessments and element runs (the INEX 2005/2006 tasks)."""

    counts_characters = True
    order = ("in file order after run hygiene (invalid results skipped, repeated ones dropped, MAX_RESULTS; "
             "the rank values are not read); judged by the topic's pool: E is the exhaustivity, the characters "
             "are the element's highlighted ones of its length; an element the pool does not list in an assessed "
             "document has no highlighted text; a document outside the pool is unjudged")

    def ranked(self, raw, topic: str, judgements, config) -> list[Result] | None:
        from inexeval.model import E_TOO_SMALL

        keys = raw.topics.get(topic)
        if keys is None:
            return None
        assessed = judgements.topics.get(topic)
        out = []
        for rank, (file, path) in enumerate(keys, 1):
            doc = assessed.files.get(file) if assessed is not None else None
            steps = tuple(path.split("/")[1:])
            if doc is None:
                piece = Piece(path)
                verdict, grade = UNJUDGED, "document not assessed" if assessed is not None else "topic not assessed"
            else:
                j = doc.elements.get(path)
                note = "best entry point" if doc.beps and doc.beps[0] == path else ""
                if j is None:
                    piece = Piece(path, 0, None, note)
                    verdict, grade = NOT_RELEVANT, "not listed by the pool: nothing highlighted"
                else:
                    piece = Piece(path, j.rsize, j.size, note)
                    verdict = RELEVANT if j.rsize > 0 else NOT_RELEVANT
                    if j.e is None:  # (2006 pools: no exhaustivity)
                        grade = "highlighted" if j.rsize > 0 else "nothing highlighted"
                    else:
                        grade = "E ? (too small)" if j.e == E_TOO_SMALL else f"E {j.e}"
            out.append(Result(rank, file, (file, path), verdict, grade, (piece,), extent=steps))
        return out

    @staticmethod
    def overlap(a: Result, b: Result) -> bool:
        """One element is the other's ancestor (or the same element)."""
        if a.item != b.item or a.key is None or b.key is None:
            return False
        n = min(len(a.extent), len(b.extent))
        return a.extent[:n] == b.extent[:n]


#: inex_eval's task options (docs/fol.md §1) under which every line is a rank of its own (docs/inex_eval.md
#: §4.1); under the others a line of the previous line's article joins its rank.
_LINE_RANKS = frozenset({"f"})


class _Passages(_Ranker):
    """FOL qrels and passage runs (the FOL tasks)."""

    counts_characters = True
    order = ("the characters are each passage's relevant ones of its length (docs/inex_eval.md §5), the "
             "article's from its qrels line; an article without a qrels line is unjudged; an unknown passage "
             "(X) has 18 characters, none relevant")

    def order_of(self, config) -> str:
        if config.task_def.tool_option in _LINE_RANKS:
            return "in file order, each line a rank (RANK and RSV are not read); " + self.order
        return ("in file order (RANK and RSV are not read), a line of the same article as the line before "
                "joining its rank as inex_eval ranks them; " + self.order)

    def id_from_path(self, path) -> str | None:
        from inexeval.readers.runnames import run_id_from_name

        return run_id_from_name(str(path))  # FOL runs are named by their file (docs/fol.md §2)

    def ranked(self, raw, topic: str, judgements, config) -> list[Result] | None:
        lines = raw.topics.get(topic)
        if lines is None:
            return None
        _, raws, every = raw.fol.columns()
        joins = config.task_def.tool_option not in _LINE_RANKS
        qtopic = judgements.data.topics.get(topic)
        groups: list[tuple[str, list[tuple[Piece, tuple[int, int] | None, bool]]]] = []
        previous = None
        for i in lines:
            fields = every[i]
            article = fields[2] if len(fields) > 2 else ""
            part = _passage(fields, raws[i], qtopic.judgements.get(article) if qtopic is not None else None)
            if joins and groups and article == previous and len(fields) == 8:
                groups[-1][1].append(part)
            else:
                groups.append((article, [part]))
            previous = article
        out = []
        for rank, (article, parts) in enumerate(groups, 1):
            judgement = qtopic.judgements.get(article) if qtopic is not None else None
            pieces = tuple(p for p, _, _ in parts)
            spans = tuple(s for _, s, _ in parts if s is not None)
            if not all(ok for _, _, ok in parts):
                verdict, grade = MALFORMED, "a line inex_eval cannot read"
            elif judgement is None:
                verdict, grade = UNJUDGED, "article without a qrels line"
            elif judgement.rel_chars > 0:
                found = sum(p.relevant or 0 for p in pieces)
                verdict = RELEVANT if found > 0 else NOT_RELEVANT
                grade = (f"article: {judgement.rel_chars} of {judgement.doc_length} characters relevant"
                         + (f", best entry point at {judgement.bep}" if judgement.bep > -1 else ""))
            else:
                verdict, grade = NOT_RELEVANT, "article judged not relevant"
            if joins:
                key = article if verdict != MALFORMED else None
            else:
                key = (article, spans[0]) if spans else None
            out.append(Result(rank, article, key, verdict, grade, pieces, extent=spans))
        return out

    @staticmethod
    def overlap(a: Result, b: Result) -> bool:
        """Passages of one article sharing text (touching ones do not, docs/inex_eval.md §4.2)."""
        if a.item != b.item:
            return False
        return any(s2 < e and e2 > s for s, e in a.extent for s2, e2 in b.extent)


def _passage(fields, raw: str, judgement) -> tuple[Piece, tuple[int, int] | None, bool]:
    """One run line as a piece, its (start, end) when it is a known passage, and whether inex_eval can
    read it."""
    from inexeval.measures.fol import UNKNOWN_SIZE, relevant_chars
    from inexeval.readers.fol import java_int, wrap_int

    if len(fields) != 8:
        return Piece(raw, None, None, f"{len(fields)} fields, not 8"), None, False
    offset, length = fields[6], fields[7]
    if offset == "X" or offset == "-1":
        return Piece(offset, 0, UNKNOWN_SIZE, "unknown passage"), None, True
    start, size = java_int(offset), java_int(length)
    if start is None or size is None:
        return Piece(f"{offset}:{length}", None, None, "OFFSET and LENGTH are not both integers"), None, False
    end = start + size
    if not -2147483648 <= end <= 2147483647:
        end = wrap_int(end)
    relevant = relevant_chars(start, end, judgement.spans) if judgement is not None and judgement.rel_chars > 0 else 0
    return Piece(f"{start}:{size}", relevant, size), (start, end), True


class _Answers(_Ranker):
    """Answer files and runs of ranked exact answers (TASK qa)."""

    order = ("by position (rank, then file order), the first MAX_RESULTS; marked as the scores mark them: an "
             "answer matching a string of a synset not marked higher up gets the string's level; a question "
             "without answer data is unjudged")

    def ranked(self, raw, topic: str, judgements, config) -> list[Result] | None:
        from inexeval.measures.qa import gains_of, mark, match_key, match_table

        answers = raw.topics.get(topic)
        if answers is None:
            return None
        question = judgements.topics.get(topic)
        mode = config.answer_match
        if question is None:
            return [Result(r, a, match_key(a, mode), UNJUDGED, "no answer data", (Piece(""),))
                    for r, a in enumerate(answers, 1)]
        marks = mark(answers, match_table(question, mode, gains_of(config.gains)), mode)
        out = []
        for m in marks:
            level = m.level if isinstance(m.level, str) or m.level is None else f"{m.level:g}"
            grade = (f"level {level}, synset {m.synset}" if m.gain > 0 else m.reason)
            out.append(Result(m.position, m.answer, match_key(m.answer, mode),
                              RELEVANT if m.gain > 0 else NOT_RELEVANT, grade, (Piece(""),)))
        return out


_RANKERS: dict[str, _Ranker] = {"document": _Documents(), "element": _Elements(), "passage": _Passages(),
                                "answer": _Answers()}
