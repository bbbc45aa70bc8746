"""``inexeval trec-eval``: a drop-in for trec_eval 10.0 (docs/trec-eval.md).

Same command line (:mod:`inexeval.dropins.trec_eval.options`), same reading
(:mod:`inexeval.dropins.trec_eval.read`), same output byte for byte, same exit
statuses and messages for bad input.  The values of the qrels measures come
from the classic family table (:mod:`inexeval.measures.classic`, docs/measures.md §8),
whose names are trec_eval's printed labels; the preference measures
(``-R prefs``, ``-R qrels_prefs``) and the judgement-group measures
(``-R qrels_jg``) from :mod:`inexeval.dropins.trec_eval.prefs` and
:mod:`inexeval.dropins.trec_eval.jg`.

Which topics are evaluated and how: :mod:`inexeval.dropins.trec_eval.evaluate`; this module
reads the command line and the files, and prints.
"""

from __future__ import annotations

import io
import math
import sys
from typing import BinaryIO, TextIO

from inexeval.dropins.trec_eval.options import (
    USAGE, VERSION, Options, Selected, TrecEvalExit, mark_measures, parse_args, select_measures,
)
from inexeval.dropins.trec_eval.read import RawRun, read_bytes, read_qrels, read_run, read_zscores
from inexeval.dropins.trec_eval.evaluate import Evaluation, evaluate_qrels, wrong_format
from inexeval.measures.classic_engine import MISSING_ZSCORE
from inexeval.measures.trec_catalogue import CATALOGUE, NICKNAMES

_REL_FORMATS = ("qrels", "prefs", "qrels_prefs", "qrels_jg")


def _help_text() -> str:
    names = ", ".join(m.name for m in CATALOGUE)
    nick = ", ".join(NICKNAMES)
    return (
        f"inexeval trec-eval: a drop-in for trec_eval {VERSION} (docs/trec-eval.md)\n\n"
        "inexeval trec-eval [-h] [-v] [-q] [-m measure[.params]] [-c] [-n] [-l <num>] [-D <num>[.qid]]\n"
        "                   [-J] [-N <num>] [-M <num>] [-R rel_format] [-T results_format] [-Z zfile]\n"
        "                   rel_info_file results_file\n\n"
        "  -h, --help                       this help\n"
        "  -v, --version                    trec_eval's version, on standard error\n"
        "  --trec-eval-version=V            inexeval's own: 10.0's numbers (default) or 9.0.8's\n"
        "  -q, --query_eval_wanted          per-topic values as well as the summary\n"
        "  -m, --measure NAME[.PARAMS]      measure or set to print (repeatable; default: official);\n"
        "                                   parameters after the dot, comma-separated (P.5,10; ndcg.1=3,2=9)\n"
        "  -c, --complete_rel_info_wanted   topics of the qrels missing from the run score as empty rankings\n"
        "  -l, --level_for_rel NUM          smallest judgement counted as relevant (default 1)\n"
        "  -n, --nosummary                  no summary lines\n"
        "  -D, --Debug_level NUM[.QID]      with .QID: evaluate that topic only\n"
        "  -J, --Judged_docs_only           drop unjudged documents from the rankings first\n"
        "  -N, --Number_docs_in_coll NUM    collection size (accepted; no measure here uses it)\n"
        "  -M, --Max_retrieved_per_topic N  keep the first N results of each ranking\n"
        "  -R, --Rel_info_format FMT        qrels (default), prefs, qrels_prefs, qrels_jg\n"
        "  -T, --Results_format FMT         trec_results (the only one)\n"
        "  -Z, --Zscore FILE                print Z scores from FILE's 'qid measure mean stddev' lines\n"
        "  -C, --ci                         inexeval's own: after each mean, its 95 % t confidence interval\n"
        "                                   (<measure>_ci_lower and _ci_upper lines; docs/measures.md §12.1)\n\n"
        "A results file '-' is read from standard input; gzip files are read as they are.\n"
        f"Measure sets: {nick}.\nMeasures: {names}.\n"
    )


# ------------------------------------------------------------------ printing ----


def _zscore(z: dict, qid: bytes, label: str, value: float) -> float:
    got = z.get((qid, label))
    if got is None:
        return MISSING_ZSCORE
    mean, std = got
    if std:
        return (value - mean) / std
    return 0.0 if value == mean else MISSING_ZSCORE


def _number(value: float) -> bytes:
    """C's ``%6.4f``: NaN as ``-nan`` or ``nan`` by its sign bit (0/0 gives ``-nan`` on x86), padded to 6."""
    if value != value:
        return b"%6s" % (b"-nan" if math.copysign(1.0, value) < 0 else b"nan")
    return b"%6.4f" % value


def _line(label: str, qid: bytes, value, integer: bool, zmode: bool) -> bytes:
    name = label.encode("utf-8", "surrogateescape")
    if isinstance(value, (str, bytes)):  # relstring: printed between single quotes
        text = value.encode("utf-8", "surrogateescape") if isinstance(value, str) else value
        if not (len(text) >= 2 and text[:1] == b"'" and text[-1:] == b"'"):
            text = b"'" + text + b"'"
        return b"%-22s\t%s\t%s\n" % (name, qid, text)
    if zmode:
        return b"Z%-22s\t%s\t%s\n" % (name, qid, _number(value))
    if integer:
        return b"%-22s\t%s\t%d\n" % (name, qid, int(value))
    return b"%-22s\t%s\t%s\n" % (name, qid, _number(value))


def render(ev: Evaluation, selected: list[Selected], opts: Options, run_id: bytes,
           zscores: dict | None) -> list[bytes]:
    """trec_eval's standard output for EV: per-topic lines (``-q``), then the summary (the classic
    engine's :func:`~inexeval.measures.classic_engine.summary_value`)."""
    from inexeval.measures.classic_engine import ClassicEvaluation, accumulated, summary_value

    out: list[bytes] = []
    zmode = zscores is not None
    labels = [lab for s in selected if s.measure.kind != "special" for lab in s.labels if lab in ev.columns]
    zfun = None
    if zmode:
        zfun = lambda i, label, value: _zscore(zscores, ev.topics[i], label, value)  # noqa: E731

    if opts.query:
        shown = {lab: ev.columns[lab].values if not zmode or ev.columns[lab].aggregate == "none" else
                 [zfun(i, lab, v) for i, v in enumerate(ev.columns[lab].values)] for lab in labels
                 if ev.columns[lab].per_topic}
        for i, qid in enumerate(ev.topics):
            for lab in labels:
                col = ev.columns[lab]
                if col.per_topic:
                    out.append(_line(lab, qid, shown[lab][i], col.integer, zmode))
    if ev.stop is not None or not opts.summary:
        return out
    n = ev.num_queries if ev.num_queries is not None else len(ev.topics)
    whole = ClassicEvaluation(list(range(len(ev.topics))), ev.columns, n)
    complete = ev.num_rel_summary is not None
    for s in selected:
        if s.measure.name == "runid":
            out.append(b"%-22s\t%s\t%s\n" % (b"runid", b"all", run_id))
            continue
        if s.measure.name == "num_q":
            out.append(_line("num_q", b"all", float(n), True, zmode))
            continue
        for lab in s.labels:
            col = ev.columns[lab]
            if col.aggregate == "none":
                continue
            vals = accumulated(col, zfun)
            value = summary_value(col, vals, whole, complete, ev.num_rel_summary)
            out.append(_line(lab, b"all", value, col.integer, zmode))
            if opts.ci and col.aggregate == "mean":
                out += _interval_lines(lab, vals, n, zmode)
    return out


def _interval_lines(label: str, vals: list[float], n: int, zmode: bool) -> list[bytes]:
    """``-C``: the mean's 95 % t interval over the N topics it averages (a topic -c adds without results
    counts 0, as in the mean), as ``<label>_ci_lower`` and ``<label>_ci_upper`` summary lines."""
    from inexeval.compare.intervals import confidence_interval

    values = list(vals) + [0.0] * max(0, n - len(vals))
    finite = all(v == v and abs(v) != math.inf for v in values)
    low, high = confidence_interval(values) if finite else (math.nan, math.nan)
    return [_line(label + "_ci_lower", b"all", low, False, zmode), _line(label + "_ci_upper", b"all", high, False, zmode)]


# ------------------------------------------------------------------ main ----


def main(argv: list[str], out: BinaryIO, err: TextIO) -> int:
    """Run trec_eval 10.0's command line ARGV; standard output to OUT (bytes), messages to ERR; the exit status.

    numpy's floating-point warnings are off: trec_eval's arithmetic on odd parameters (a NaN recall
    level, 0/0) prints nothing on standard error, and neither does the drop-in."""
    import numpy as np

    try:
        with np.errstate(all="ignore"):
            return _main(argv, out, err)
    except TrecEvalExit as e:
        out.flush()
        err.write(e.message)
        err.flush()
        return e.status


def _main(argv: list[str], out: BinaryIO, err: TextIO) -> int:
    opts = parse_args(argv)
    mark_measures(opts.measures)  # an unknown measure stops before anything else (status 1)
    if opts.help:
        out.write(_help_text().encode())
        return 0
    if len(opts.files) != 2:
        raise TrecEvalExit(USAGE, 1)
    rel_path, res_path = opts.files
    if opts.rel_format not in _REL_FORMATS:
        raise TrecEvalExit(f"trec_eval: Illegal rel_format '{opts.rel_format}'\n", 2)
    stdin_used = [False]
    rel_data = read_bytes(rel_path, opts.rel_format if opts.rel_format != "qrels" else "qrels", stdin_used)
    rel_info = _read_rel_info(rel_data, rel_path, opts.rel_format)
    if opts.results_format != "trec_results":
        raise TrecEvalExit(f"trec_eval: Illegal retrieval results format '{opts.results_format}'\n", 2)
    streamed = _evaluate_pieces(rel_info, res_path, opts)
    if streamed is None:
        run = read_run(read_bytes(res_path, "results", stdin_used), res_path)
        zscores = read_zscores(opts.zscores, stdin_used) if opts.zscores is not None else None
        selected = select_measures(opts.measures)
        ev, run_id = _evaluate(rel_info, run, opts, selected), run.run_id
    else:
        (ev, run_id), selected = streamed
        zscores = read_zscores(opts.zscores, stdin_used) if opts.zscores is not None else None
    if ev.stop is None and not ev.topics:  # (trec_eval checks before it prints the summary)
        raise TrecEvalExit("trec_eval: No queries with both results and relevance info\n", 7)
    lines = render(ev, selected, opts, run_id, zscores)
    out.write(b"".join(lines))
    if ev.stop is not None:
        raise ev.stop
    return 0


def _read_rel_info(data: bytes, path: str, fmt: str):
    if fmt == "qrels":
        return read_qrels(data, path)
    if fmt == "qrels_jg":
        from inexeval.dropins.trec_eval.jg import read_qrels_jg

        return read_qrels_jg(data, path)
    from inexeval.dropins.trec_eval.prefs import read_prefs

    return read_prefs(data, path, fmt)


def _evaluate_pieces(rel_info, res_path: str, opts: Options):
    """((evaluation, run id), measures) of a large run file read in pieces of whole topics
    (:mod:`inexeval.dropins.trec_eval.blocks`); None: the file is read whole (a small file, one not
    grouped by topic, one with an error, or a command whose errors come in another order then)."""
    from inexeval.readers.trec_chunks import streamable

    if opts.rel_format != "qrels" or not streamable(res_path):
        return None
    try:
        selected = select_measures(opts.measures)
    except TrecEvalExit:
        return None
    if wrong_format(selected, opts.rel_format) is not None:
        return None
    from inexeval.dropins.trec_eval.blocks import evaluate_file

    got = evaluate_file(rel_info, res_path, opts, selected)
    return None if got is None else (got, selected)


def _evaluate(rel_info, run: RawRun, opts: Options, selected: list[Selected]) -> Evaluation:
    stop = wrong_format(selected, opts.rel_format)
    if stop is not None:
        return Evaluation([], {}, _format_stop(rel_info, run, opts, selected, stop))
    if opts.rel_format == "qrels":
        return evaluate_qrels(rel_info, run, opts, selected)
    if opts.rel_format == "qrels_jg":
        from inexeval.dropins.trec_eval.jg import evaluate_jg

        return evaluate_jg(rel_info, run, opts, selected)
    from inexeval.dropins.trec_eval.prefs import evaluate_prefs

    return evaluate_prefs(rel_info, run, opts, selected)


def _format_stop(rel_info, run: RawRun, opts: Options, selected: list[Selected],
                 wrong: TrecEvalExit) -> TrecEvalExit | None:
    """Where trec_eval stops when a selected measure cannot use the judgements' format (WRONG): at the
    first topic it evaluates (trec_eval.c), after that topic's own checks.  No topic to evaluate (-D
    names none of the file's): None, no stop (the caller says no query was evaluated, status 7).  A
    topic the run lacks, without -c: trec_eval says so before it computes anything.  Otherwise the
    measures before the wrong one, in trec_eval's order, are computed on that topic first, and one
    of them may stop first (a docno twice); then WRONG."""
    from inexeval.records import replace

    import numpy as np

    from inexeval.dropins.trec_eval.evaluate import ids, not_found, topic_codes, wrong_format_at

    keys = ids(rel_info.qid)
    if opts.debug_query is not None:
        keys = keys[keys == opts.debug_query.encode("utf-8", "surrogateescape")]
    if not keys.size:
        return None
    first = bytes(keys[0])
    if not opts.complete and not np.any(topic_codes(keys[:1], run.qid) == 0):
        return not_found(first)
    before = selected[:wrong_format_at(selected, opts.rel_format)]
    if any(s.measure.kind != "special" for s in before):
        one = replace(opts, debug_query=first.decode("utf-8", "surrogateescape"), query=False)
        stop = _evaluate(rel_info, run, one, before).stop
        if stop is not None:
            return stop
    return wrong


def run_cli(argv: list[str]) -> int:
    """:func:`main` on the process's standard streams."""
    sys.stdout.flush()
    buffer = getattr(sys.stdout, "buffer", None)
    if buffer is None:  # a text-only stream (an embedding application)
        b = io.BytesIO()
        status = main(argv, b, sys.stderr)
        sys.stdout.write(b.getvalue().decode("utf-8", "replace"))
        return status
    try:
        return main(argv, buffer, sys.stderr)
    finally:
        try:
            buffer.flush()
        except BrokenPipeError:
            pass
