"""``inexeval inex-eval``: a drop-in replacement of the INEX 2007-2010 tool inex_eval 3.1.

    inexeval inex-eval (-t|-f|-r|-b|-i) [-q] [-c] [-n INT] [-beta NUM] [-irr INT] QRELS [RUN ...]

Standard output is byte for byte the tool's (``docs/inex_eval.md §1``,
``§9``): arguments are options for as long as they begin
with ``-`` (the last task option wins), the first other argument is QRELS
and the rest are RUN files, evaluated one after the other, each run's output
written as soon as it is done.  Fewer than two arguments print the usage
(status 0); an unknown option prints ``ERROR *** Illegal command line
option: OPT`` and the usage (status 0); no task prints ``ERROR *** no task
specified`` and the usage (status 0); a bad ``-n`` / ``-irr`` / ``-beta``
value prints ``Argument must be an integer`` / ``… a number`` on standard
error (status 1).  A run or qrels file that cannot be opened prints
``IOException error: PATH (reason)`` and is skipped (the qrels then have no
topic), as the tool does.  A rejected run prints the tool's error lines.

Where the tool itself would die with a Java exception (D16) -- qrels it
cannot parse, a non-integer OFFSET or LENGTH in a run, a topic whose lines
come back after other topics in a way that breaks the tool's in-context rank
bookkeeping, a missing QRELS or option value -- inexeval does not stop: it
reports the bad input on standard error as ``inexeval: error: FILE:LINE:
message``, treats that run like a rejected one (standard output gets only
what the tool prints while reading a run, i.e. its ``Impossible recall
point`` lines, and no ``<eval>`` block), goes on with the next runs and
exits with status 1 at the end.  Bad qrels stop everything (nothing can be
evaluated), also with status 1.  Otherwise the status is 0, rejected and
unreadable runs included (D24).

Runs may also be gzip-compressed or INEX 2008 XML FOL submissions (D4),
which the tool itself does not read.  Through the ``inexeval`` command a
lone ``--`` argument is taken by the command-line library as the end of its
own options and never reaches the drop-in (the tool would call it an
illegal option).
"""

from __future__ import annotations

import gc
import io
import math
import re
import sys
from typing import TextIO

from inexeval.errors import InputError
from inexeval.measures.fol import score_fol_run
from inexeval.readers.fol import FolOpenError, FolQrels, java_int, read_fol_qrels, read_fol_run
from inexeval.writers.inex_eval import format_outcome

__all__ = ["main", "run_cli", "USAGE", "java_parse_double"]

USAGE = """\
Usage: inexeval inex-eval (-t|-f|-r|-b|-i) [-q] [-c] [-n INT] [-beta NUM] [-irr INT] QRELS [RUN ...]
INEX 2007-2010 passage (FOL) evaluation, output as inex_eval 3.1 prints it.

Task (required; the last one given wins):
        -t : thorough (AiP over 101 recall points, novel text only)
        -f : focused (AiP over 101 recall points)
        -r : relevant in context (MAgP; F-beta of each article)
        -b : best in context (MAgP; distance to the best entry point)
        -i : relevant in context with T2I (MAgP; tolerance to irrelevance)
Options:
        -q : print per-topic values too
        -c : average over every topic of the qrels (topics missing from a run count 0)
    -n INT : maximal best-entry-point distance of -b (default 500)
 -beta NUM : weight of recall in the F measure of -r (default 0.25)
  -irr INT : irrelevant characters tolerated by -i (default 300)

QRELS: TOPIC Q0 ARTICLE REL_CHARS DOC_LENGTH [BEP OFFSET:LENGTH ...] lines.
RUN: TOPIC Q0 ARTICLE RANK RSV RUN_ID OFFSET LENGTH lines (ranking = file order;
OFFSET X or -1: unknown passage), gzip-compressed or not, or INEX 2008 XML FOL.
Options end at the first argument that does not begin with '-'.
Exit status: 0 all runs processed (rejected runs included); 1 bad input that
inex_eval 3.1 would die on (reported on standard error; the other runs are evaluated).
"""

_TASKS = {"-t": "t", "-f": "f", "-r": "r", "-b": "b", "-i": "i"}
_DECIMAL = r"(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?"
_HEX = r"0[xX](?:[0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)[pP][+-]?[0-9]+"
_JAVA_DOUBLE = re.compile(rf"([+-]?)(?:(NaN|Infinity)|({_DECIMAL})[fFdD]?|({_HEX})[fFdD]?)")


def java_parse_double(text: str) -> float | None:
    """``Double.parseDouble(text)``, or None where Java throws NumberFormatException."""
    start, end = 0, len(text)
    while start < end and text[start] <= " ":
        start += 1
    while end > start and text[end - 1] <= " ":
        end -= 1
    m = _JAVA_DOUBLE.fullmatch(text, start, end)
    if m is None:
        return None
    sign, special, decimal, hexa = m.groups()
    if special:
        value = math.nan if special == "NaN" else math.inf
    elif decimal is not None:
        value = float(decimal)
    else:
        try:
            value = float.fromhex(hexa)
        except OverflowError:  # (Java rounds it to Infinity, as float() does a decimal)
            value = math.inf
    return -value if sign == "-" else value


def _report(err: TextIO, error: InputError) -> None:
    for line in str(error).splitlines():
        err.write(f"inexeval: error: {line}\n")
    err.flush()


def main(argv: list[str], out: TextIO, err: TextIO) -> int:
    """Run the drop-in on ARGV (without the program name); returns the exit status.

    The cyclic garbage collector is paused meanwhile: reading makes many
    small objects and no cycles, and its passes would cost a fifth of the time.
    """
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _main(argv, out, err)
    finally:
        if collecting:
            gc.enable()


def _main(argv: list[str], out: TextIO, err: TextIO) -> int:
    if len(argv) < 2:
        out.write(USAGE)
        return 0
    i = 0
    task = None
    per_query = complete = False
    n, beta, irr = 500, 0.25, 300
    while i < len(argv) and argv[i].startswith("-"):
        arg = argv[i]
        i += 1
        if arg == "-q":
            per_query = True
        elif arg == "-c":
            complete = True
        elif arg in _TASKS:
            task = _TASKS[arg]
        elif arg in ("-n", "-irr", "-beta"):
            if i >= len(argv):
                _report(err, InputError(f"option {arg} needs a value (inex_eval 3.1 dies here)"))
                return 1
            value = argv[i]
            i += 1
            if arg == "-beta":
                parsed = java_parse_double(value)
            else:
                parsed = java_int(value)
            if parsed is None:
                err.write("Argument must be an integer\n" if arg == "-n" else "Argument must be a number\n")
                return 1
            if arg == "-n":
                n = parsed
            elif arg == "-irr":
                irr = parsed
            else:
                beta = parsed
        else:
            out.write(f"ERROR *** Illegal command line option: {arg}\n{USAGE}")
            return 0
    if task is None:
        out.write(f"ERROR *** no task specified\n{USAGE}")
        return 0
    if i >= len(argv):
        _report(err, InputError("QRELS is missing (inex_eval 3.1 dies here)"))
        return 1
    qrels_path = argv[i]
    try:
        qrels = read_fol_qrels(qrels_path)
    except FolOpenError as exc:
        out.write(f"IOException error: {exc.java_message}\n")
        out.flush()
        qrels = FolQrels(topics={}, source=qrels_path)
    except InputError as exc:
        _report(err, exc)
        return 1
    status = 0
    for run_path in argv[i + 1:]:
        try:
            run = read_fol_run(run_path)
        except FolOpenError as exc:
            out.write(f"IOException error: {exc.java_message}\n")
            out.flush()
            continue
        except InputError as exc:
            _report(err, exc)
            status = 1
            continue
        outcome = score_fol_run(qrels, run, task, complete=complete, n=n, beta=beta, irr=irr, run_label=run_path)
        out.write(format_outcome(outcome, task, run_path, per_query=per_query))
        out.flush()
        if outcome.death is not None:
            _report(err, outcome.death)
            status = 1
        # free this run before the next one is read: one run in memory at a time
        del run, outcome
    return status


def run_cli(argv: list[str]) -> int:
    """:func:`main` on the process's standard streams, standard output as UTF-8 with ``\\n`` line ends."""
    sys.stdout.flush()
    buffer = getattr(sys.stdout, "buffer", None)
    if buffer is None:  # a text-only stream (an embedding application): write to it as it is
        return main(argv, sys.stdout, sys.stderr)
    out = io.TextIOWrapper(buffer, encoding="utf-8", errors="replace", newline="\n")
    try:
        return main(argv, out, sys.stderr)
    finally:
        out.flush()
        out.detach()
