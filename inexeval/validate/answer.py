"""``inexeval validate --task qa``: question-answering runs checked as evaluation reads them
(docs/formats.md §11.2, §9.2.7).

Findings (:class:`inexeval.validate.report.Finding`), with the verdict of evaluation:

==================== ======= =====================================================
kind                 level   meaning
==================== ======= =====================================================
unreadable           problem the file cannot be read, decompressed or decoded
malformed            problem a line without 3 or 4 tab-separated columns, an empty
                             question id, a rank that is not an integer: evaluation
                             refuses the run
beyond_max_results   problem a question with more answers than L′ = MAX_RESULTS (one
                             per question, at the first dropped answer's line)
unknown_topic        problem with the answer file: a question it does not have
left_out_question    problem with the answer file: a question evaluation leaves out, for
                             an error of the answer file (the file and line are in the
                             message), such as two synsets holding one answer under
                             ANSWER_MATCH
duplicate_rank       warning two answers of a question with one rank (positions follow
                             the file order)
empty_answer         warning an empty answer string (it keeps its position, wrong)
run_id               warning no run tag (the file name is the run id), or several
empty                warning no answer at all
missing_topic        warning with the answer file: questions absent from the run
==================== ======= =====================================================
"""

from __future__ import annotations

import os
from pathlib import Path

from inexeval.config.values import expand_paths
from inexeval.errors import InputError
from inexeval.readers.answers import AnswerSet
from inexeval.readers.qa_runs import read_answer_lines
from inexeval.validate.report import Finding, RunReport, missing_topics, refused

__all__ = ["validate_qa_run", "read_answer_assessments"]


def validate_qa_run(path: str | Path, task: str, data: AnswerSet | None, max_results: int) -> RunReport:
    """The report of one QA run."""
    try:
        f = read_answer_lines(path)
    except InputError as exc:
        return refused(str(path), task, exc)
    report = RunReport(path=f.source, format="text", run_id=f.run_id, task=task)
    report.results_per_topic = {q: len(a) for q, a in f.questions.items()}
    report.topics = len(f.questions)
    for err in f.malformed:
        report.problems.append(Finding("malformed", None, err.line, err.message))
    for qid, answers in f.questions.items():
        if len(answers) > max_results:
            extra = len(answers) - max_results
            report.problems.append(Finding(
                "beyond_max_results", qid, answers[max_results].line,
                f"question {qid}: {len(answers)} answers, the {extra} beyond MAX_RESULTS={max_results} "
                "(by rank, then file order) are dropped"))
        seen: dict[int, int] = {}
        for a in answers:
            if a.rank in seen:
                report.warnings.append(Finding("duplicate_rank", qid, a.line,
                                               f"question {qid}: rank {a.rank} also at line {seen[a.rank]}; "
                                               f"file order gives this answer position {a.position}"))
            else:
                seen[a.rank] = a.line
            if not a.text:
                report.warnings.append(Finding("empty_answer", qid, a.line,
                                               f"question {qid}: empty answer at position {a.position} (wrong)"))
    if f.tag is None and f.questions:
        report.warnings.append(Finding("run_id", None, None, f"no run tag; the file name {f.run_id!r} is used"))
    for line, tag in f.other_tags:
        report.warnings.append(Finding("run_id", None, line, f"run tag {tag!r} differs from {f.run_id!r} "
                                                             f"(first line's); {f.run_id!r} is used"))
    if not f.questions:
        report.warnings.append(Finding("empty", None, None, "the run has no answer"))
    if data is not None:
        for problem in data.problems:
            report.problems.append(Finding("left_out_question", None, None, f"answer file {problem}"))
        for qid, a in f.questions.items():
            if qid not in data.questions and qid not in data.left_out:
                report.problems.append(Finding("unknown_topic", qid, min(x.line for x in a),
                                               f"question {qid} is not in the answer file; evaluation ignores it"))
        missing_topics([q for q in data.questions if q not in f.questions], "question(s) of the answer file",
                       report)
    report.problems.sort(key=lambda x: (x.line is not None, x.line or 0))
    report.warnings.sort(key=lambda x: (x.line is not None, x.line or 0))
    return report


def read_answer_assessments(path: str | Path, source: str, answer_match: str = "normalised") -> AnswerSet:
    """The answer files under ``path`` (file, directory or glob, docs/config.md) as evaluation reads
    them with ANSWER_MATCH ``answer_match``: the questions it leaves out are in ``problems`` (each
    run's report lists them); when no question is left at all, an input error lists every problem,
    as evaluation's does (:func:`inexeval.engine._require_topics`)."""
    from inexeval.measures.qa import DEFAULT_GAINS, leave_out_clashes
    from inexeval.readers.answers import read_answer_files

    files = expand_paths(str(path), Path.cwd(), "ASSESSMENTS_DIR", source, None)
    answers = read_answer_files([_shown(f.path) for f in files if f.problem is None])
    answers.problems[:0] = [InputError(f"assessment file not read: {f.problem}", _shown(f.path))
                            for f in files if f.problem is not None]
    leave_out_clashes(answers, answer_match, dict(DEFAULT_GAINS))
    if answers.problems and not answers.questions:
        raise InputError("no question is left to check the runs against: every one has a problem"
                         + "".join(f"; skipped: {p}" for p in answers.problems), _shown(path))
    return answers


def _shown(path: str | Path) -> str:
    """``path`` relative to the working directory when under it (as the user named it), else as is."""
    rel = os.path.relpath(path) if os.path.isabs(path) else str(path)
    return str(path) if rel.startswith("..") else rel
