"""Question-answering runs: ranked exact answers (docs/formats.md §11.2).

One line per answer, tab-separated::

    question-id  rank  answer string  [run-tag]

plain or gzip (or ``-``, standard input), UTF-8 (UTF-16/32 with a byte
order mark), blank lines and ``#`` comment lines skipped, CRLF accepted.
The *position* r of an answer is its place in its question's list after
sorting by rank, answers of one rank in file order (so gaps in the ranks
do not matter).  Only the first ``max_results`` positions (L′) count: the
answers after them are dropped (one warning per run).  A repeated answer
keeps its position (the marking gives it nothing, seed 003 Figure 1); an
empty answer keeps its position and is wrong (a warning).

This reader is not :mod:`inexeval.readers.runs`: its columns are tabs (an
answer holds spaces), its order is the ranks' (not the file's), and it
keeps repeated answers, where the INEX reader drops duplicates
(docs/decisions.md).

:func:`read_answer_lines` gives everything found (for ``validate`` and the
marking report); :func:`read_qa_run` is evaluation's reader: a malformed
line refuses the run (InputError with file and line).
"""

from __future__ import annotations

from pathlib import Path

from inexeval.errors import InputError
from inexeval.model import Run
from inexeval.records import field, record

__all__ = ["Answer", "QaRunFile", "read_answer_lines", "read_qa_run", "DEFAULT_QA_MAX_RESULTS"]

#: L′ of NTCIR QAC (seed 003 §1): five answers per question.
DEFAULT_QA_MAX_RESULTS = 5


@record(frozen=True)
class Answer:
    """One answer of a run as read: its rank, text, line and its position after sorting."""

    rank: int
    text: str
    line: int
    position: int = 0  # 1-based, after sorting by rank then line


@record
class QaRunFile:
    """Everything read from one QA run file."""

    source: str
    run_id: str
    tag: str | None = None  # the first line's run tag
    questions: dict[str, list[Answer]] = field(default_factory=dict)  # sorted, every answer (also beyond L′)
    malformed: list[InputError] = field(default_factory=list)
    other_tags: list[tuple[int, str]] = field(default_factory=list)  # (line, tag) of lines with another tag

    def kept(self, max_results: int | None) -> dict[str, list[Answer]]:
        """Each question's first ``max_results`` positions (all when None)."""
        return {q: a if max_results is None else a[:max_results] for q, a in self.questions.items()}


def read_answer_lines(path: str | Path) -> QaRunFile:
    """Read a QA run; malformed lines are recorded (``malformed``), not raised.  InputError only
    when the file itself cannot be read, decompressed or decoded."""
    from inexeval.readers.answers import read_bytes, text_lines
    from inexeval.readers.runs import run_id_from_name
    from inexeval.readers.trec_numbers import decimal_integer

    source = str(path)
    lines = text_lines(read_bytes(path, source, "run"), source)
    out = QaRunFile(source=source, run_id=run_id_from_name(source))
    raw: dict[str, list[Answer]] = {}
    for n, line in enumerate(lines, 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if "\t" not in line:
            out.malformed.append(InputError("expected tab-separated columns 'question-id rank answer "
                                            "[run-tag]' (no tab found)", source, n))
            continue
        cols = line.split("\t")
        if len(cols) not in (3, 4):
            out.malformed.append(InputError(f"expected 3 or 4 tab-separated columns 'question-id rank answer "
                                            f"[run-tag]', found {len(cols)}", source, n))
            continue
        qid, rank_text, text = cols[0].strip(), cols[1].strip(), cols[2].strip()
        if not qid:
            out.malformed.append(InputError("empty question id", source, n))
            continue
        rank = decimal_integer(rank_text)  # (docs/formats.md §1.7: not 1_0, 1.0 or another script's digits)
        if rank is None:
            out.malformed.append(InputError(f"rank {rank_text!r} is not an integer", source, n))
            continue
        tag = cols[3].strip() if len(cols) == 4 else ""
        if tag:
            if out.tag is None:
                out.tag = tag
                out.run_id = tag
            elif tag != out.tag:
                out.other_tags.append((n, tag))
        raw.setdefault(qid, []).append(Answer(rank, text, n))
    for qid, answers in raw.items():
        ordered = sorted(answers, key=lambda a: (a.rank, a.line))
        out.questions[qid] = [Answer(a.rank, a.text, a.line, i) for i, a in enumerate(ordered, 1)]
    return out


def read_qa_run(path: str | Path, *, max_results: int | None = DEFAULT_QA_MAX_RESULTS) -> Run:
    """Evaluation's reader: a :class:`~inexeval.model.Run` whose topics map each question to its
    answer strings by position (the first ``max_results``), with one warning per kind of issue."""
    f = read_answer_lines(path)
    if f.malformed:
        raise f.malformed[0]
    warnings = []
    src = f.source
    if not f.questions:
        from inexeval.readers.runs import empty_run_warning

        warnings.append(empty_run_warning(src))
    beyond = {q: len(a) - max_results for q, a in f.questions.items()
              if max_results is not None and len(a) > max_results}
    if beyond:
        n = sum(beyond.values())
        warnings.append(f"{src}: {n} answer{'s' if n != 1 else ''} beyond MAX_RESULTS={max_results} dropped "
                        f"({_listed(beyond)})")
    kept = f.kept(max_results)
    empty = [a for answers in kept.values() for a in answers if not a.text]
    if empty:
        warnings.append(f"{src}: {len(empty)} empty answer(s) scored as wrong (first at line {empty[0].line})")
    if f.other_tags:
        line, tag = f.other_tags[0]
        warnings.append(f"{src}: {len(f.other_tags)} line(s) with a run tag other than {f.run_id!r} "
                        f"(first at line {line}: {tag!r}); {f.run_id!r} used")
    return Run(run_id=f.run_id, source=src, topics={q: [a.text for a in answers] for q, answers in kept.items()},
               warnings=warnings, unit="answer")


def _listed(counts: dict[str, int], limit: int = 10) -> str:
    ids = list(counts)
    more = f" and {len(ids) - limit} more" if len(ids) > limit else ""
    return f"question{'s' if len(ids) != 1 else ''} {', '.join(ids[:limit])}{more}"
