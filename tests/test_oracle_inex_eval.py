"""``inexeval inex-eval`` against the official inex_eval.jar (version 3.1), byte for byte, on random inputs.

Each batch is one seeded qrels file and several runs (tests/fol_oracle_gen.py), written into a folder of
its own and given to both programs with the same command line, run from that folder: the jar as
``LC_ALL=C java -jar inex_eval.jar ARGS`` (located by tests/oracles.py; skipped where the oracle folder
or java is missing) and :func:`inexeval.dropins.inex_eval.main` in this process.  The jar is slow to start, so
each invocation scores several runs (the tool takes any number).  What is compared is what
docs/inex_eval.md promises:

- standard output, byte for byte, and the exit status (0: every run processed, rejected runs included);
- standard error: empty for both, or, for a bad ``-n``/``-irr``/``-beta`` value, the same
  ``Argument must be ...`` line;
- where the tool dies on a run (a non-integer OFFSET or LENGTH, §4.4 rank bookkeeping, §10) it prints a
  Java exception and evaluates no later run, while inexeval reports the input error, prints only what
  the tool printed while reading that run and goes on (D16).  So a batch holds at most one such run, put
  last; there the tool's standard output must be inexeval's followed by nothing (death while reading)
  or by the ``<eval`` header and, with ``-q``, exactly the per-topic lines the tool prints before dying
  (``FolOutcome.printed_before_death``); both exit with status 1, and the exception inexeval names is
  the one the tool throws.

Every task (-t -f -r -b -i) is run with every option (-q, -c, -n N, -beta B, -irr N, each also for the
tasks that ignore it, and several task flags where the last wins) in shuffled order, and with
:data:`OPTION_VALUES`' corner values (``-n 0``, negative ``-irr``, ``-beta NaN``, ``.5``, ``2d``,
hexadecimal ...).  Then fixed cases: a topic that comes back and joins its last rank (the T2I bug,
D25), ints past 2^31 - 1 (D17, D26), the command line itself (usage, illegal option, bad values,
missing files), qrels the tool dies on, Unicode topic ids (D14, under a UTF-8 locale), and the config
path (``--format inex_eval`` of the ``FOL.*`` tasks) against the same jar output.  About 40 s (2 cores).

On a difference the assertion shows the command, the first differing lines and the batch folder, where
the inputs and both programs' outputs are kept (``jar.out``/``.err``, ``inexeval.out``/``.err``,
``command.txt``).
"""

from __future__ import annotations

import difflib
import os
import random
import re
import shlex
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner
from fol_helpers import drop_in
from fol_oracle_gen import oracle_case

from inexeval.cli.command import main as cli_main
from inexeval.measures.fol import score_fol_run
from inexeval.readers.fol import read_fol_qrels, read_fol_run

pytestmark = pytest.mark.slow  # inex_eval.jar, one JVM per case: minutes (skipped without the oracles)

try:
    from oracles import inex_eval_jar
except ImportError:  # pragma: no cover - tests/ itself on sys.path only
    from oracles import inex_eval_jar

TASKS = "tfrbi"
#: batches per (task, option set); each batch is one jar invocation scoring RUNS_PER_BATCH runs
SEEDS = 4
RUNS_PER_BATCH = 7
#: the option sets every task is run with (values drawn from OPTION_VALUES by the batch's seed)
OPTION_SETS = {
    "plain": [],
    "q": ["-q"],
    "c": ["-c"],
    "qc": ["-q", "-c"],
    "n": ["-q", "-n"],
    "beta": ["-q", "-beta"],
    "irr": ["-q", "-irr"],
    "all": ["-q", "-c", "-n", "-beta", "-irr"],
    "last-task-wins": ["-q", "TASKS"],
}
OPTION_VALUES = {
    "-n": ["0", "1", "20", "250", "500", "20000", "-5", "+7", "0012"],
    "-beta": ["0", "0.5", "2", "1e-1", ".5", "2d", "NaN", "Infinity", "0x1p-2", "-1", " 1 ", "0x1p1024", "-0x1p99999d",
              "1e400", "0x1.fffffffffffff8p1023"],
    "-irr": ["0", "1", "50", "-5", "1000", "+20"],
}


@pytest.fixture(scope="module")
def jar() -> Path:
    return inex_eval_jar()


# ------------------------------------------------------------------ running both ----

@dataclass(frozen=True)
class Outcome:
    status: int
    stdout: bytes
    stderr: bytes


def start_jar(jar: Path, argv: list[str], folder: Path, locale: str = "C") -> subprocess.Popen:
    """The jar on ARGV in FOLDER, started (the JVM starts while inexeval runs in this process)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LC_", "JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS"))}
    env.update(LC_ALL=locale, LANG=locale)
    return subprocess.Popen(["java", "-Xshare:auto", "-XX:TieredStopAtLevel=1", "-jar", str(jar), *argv],
                            cwd=folder, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def finish(proc: subprocess.Popen) -> Outcome:
    out, err = proc.communicate(timeout=120)
    return Outcome(proc.returncode, out, err)


def run_inexeval(argv: list[str], folder: Path, monkeypatch) -> Outcome:
    with monkeypatch.context() as m:
        m.chdir(folder)
        out, err, status = drop_in(*argv)
    return Outcome(status, out.encode("utf-8"), err.encode("utf-8"))


def both(jar: Path, argv: list[str], folder: Path, monkeypatch, locale: str = "C") -> tuple[Outcome, Outcome]:
    proc = start_jar(jar, argv, folder, locale)
    try:
        got = run_inexeval(argv, folder, monkeypatch)
    except BaseException:
        proc.kill()
        proc.communicate()
        raise
    want = finish(proc)
    (folder / "command.txt").write_text(shlex.join(argv) + "\n")
    for name, o in (("jar", want), ("inexeval", got)):
        (folder / f"{name}.out").write_bytes(o.stdout)
        (folder / f"{name}.err").write_bytes(o.stderr)
    return want, got


def _diff(a: bytes, b: bytes, limit: int = 24) -> str:
    al = a.decode("utf-8", "backslashreplace").splitlines(keepends=True)
    bl = b.decode("utf-8", "backslashreplace").splitlines(keepends=True)
    lines = list(difflib.unified_diff(al, bl, "inex_eval.jar", "inexeval", n=1))
    shown = [repr(x.rstrip("\n"))[1:-1] if not x.startswith(("---", "+++")) else x.rstrip("\n") for x in lines[:limit]]
    more = f"\n      ... {len(lines) - limit} more diff lines" if len(lines) > limit else ""
    return "\n".join("      " + s for s in shown) + more


def describe(argv: list[str], folder: Path, want: Outcome, got: Outcome, what: str = "") -> str:
    parts = [f"inex_eval.jar and inexeval inex-eval differ{': ' + what if what else ''}",
             f"  command: cd {folder} && java -jar inex_eval.jar {shlex.join(argv)}",
             f"  case files and both outputs: {folder}",
             f"  status:  jar {want.status}, inexeval {got.status}"]
    if want.stdout != got.stdout:
        parts.append("  standard output:\n" + _diff(want.stdout, got.stdout))
    if want.stderr != got.stderr:
        parts.append("  standard error:\n" + _diff(want.stderr, got.stderr, 8))
    return "\n".join(parts)


def assert_same(argv: list[str], folder: Path, want: Outcome, got: Outcome) -> None:
    assert (want.status, want.stdout, want.stderr) == (got.status, got.stdout, got.stderr), \
        describe(argv, folder, want, got)


# ------------------------------------------------------------------ batches ----

def _options(rng: random.Random, task: str, names: list[str]) -> list[str]:
    """The option set NAMES with values, and the task flag, in a shuffled order."""
    groups = []
    for name in names:
        if name == "TASKS":  # several task flags: the last one counts
            others = rng.sample([t for t in TASKS if t != task], 2)
            groups.append([f"-{others[0]}", f"-{others[1]}", f"-{task}"])
        elif name in OPTION_VALUES:
            groups.append([name, rng.choice(OPTION_VALUES[name])])
        else:
            groups.append([name])
    if "TASKS" not in names:
        groups.append([f"-{task}"])
    task_group = next(g for g in groups if g[-1] == f"-{task}")
    rng.shuffle(groups)
    if "TASKS" in names:  # no other task flag may come after the group
        groups.remove(task_group)
        groups.append(task_group)
    return [a for g in groups for a in g]


def _values(argv: list[str]) -> dict:
    """The -c/-n/-beta/-irr values of ARGV as score_fol_run takes them (valid values only)."""
    from inexeval.dropins.inex_eval import java_parse_double
    from inexeval.readers.fol import java_int

    kw = {"complete": "-c" in argv}
    for opt, key, parse in (("-n", "n", java_int), ("-beta", "beta", java_parse_double), ("-irr", "irr", java_int)):
        if opt in argv:
            kw[key] = parse(argv[argv.index(opt) + 1])
    return kw


def make_batch(folder: Path, task: str, seed: int, option_names: list[str]) -> tuple[list[str], list, int]:
    """Write a batch; returns (argv, [FolOutcome per run, in argv order], runs dropped).

    Runs the tool would die on are found with the in-process scorer; the first is put last, the
    others are left out (the tool evaluates nothing after a death).
    """
    qrels_text, runs = oracle_case(seed, task, RUNS_PER_BATCH)
    rng = random.Random(f"options-{seed}-{task}-{option_names}")
    opts = _options(rng, task, option_names)
    (folder / "qrels.txt").write_bytes(qrels_text.encode())
    qrels = read_fol_qrels(folder / "qrels.txt")
    kw = _values(opts)
    alive, dying = [], []
    for k, text in enumerate(runs):
        name = f"run{k}.txt" if k % 3 else f"run-{k}.trec"
        (folder / name).write_bytes(text.encode())
        outcome = score_fol_run(qrels, read_fol_run(folder / name), task, run_label=name, **kw)
        (dying if outcome.death is not None else alive).append((name, outcome))
    ordered = alive + dying[:1]
    return [*opts, "qrels.txt", *(n for n, _ in ordered)], [o for _, o in ordered], max(0, len(dying) - 1)


def _exception(message: str) -> str:
    m = re.search(r"\((\w+Exception)\)", message)
    assert m, f"inexeval names no Java exception for a run the tool dies on: {message}"
    return m.group(1)


def check_batch(argv: list[str], folder: Path, outcomes: list, want: Outcome, got: Outcome) -> None:
    last = outcomes[-1] if outcomes else None
    if last is None or last.death is None:
        assert_same(argv, folder, want, got)
        return
    # the tool dies on the last run: everything before it, and what it prints while reading it, must be
    # identical; after that, the tool prints the <eval> header and (-q) the lines of the topics it scored
    what = "the last run is one the tool dies on (D16)"
    assert want.status == got.status == 1, describe(argv, folder, want, got, what)
    assert want.stdout.startswith(got.stdout), describe(argv, folder, want, got, what)
    rest = want.stdout[len(got.stdout):].decode().splitlines()
    errors = got.stderr.decode().splitlines()
    assert len(errors) == 1 and errors[0].startswith(f"inexeval: error: {argv[-1]}:"), \
        describe(argv, folder, want, got, what)
    exception = _exception(errors[0])
    assert re.match(rf"Exception in thread \"main\" java\.lang\.{exception}\b", want.stderr.decode()), \
        describe(argv, folder, want, got, what + f"; inexeval says {exception}")
    if "cannot score it" in errors[0]:  # dies while scoring: after the header and the lines before
        assert rest and rest[0].startswith('<eval run-id="'), describe(argv, folder, want, got, what)
        printed = last.printed_before_death if "-q" in argv else 0
        assert len(rest) == 1 + printed, describe(argv, folder, want, got, what + f"; {printed} lines expected")
    else:  # dies while reading the run
        assert rest == [], describe(argv, folder, want, got, what)


def batch_seed(option_set: str, seed: int) -> int:
    return 100 * seed + list(OPTION_SETS).index(option_set)


@pytest.mark.parametrize("seed", range(SEEDS))
@pytest.mark.parametrize("option_set", list(OPTION_SETS))
@pytest.mark.parametrize("task", list(TASKS))
def test_random_batches(jar, tmp_path, monkeypatch, task, option_set, seed):
    argv, outcomes, _ = make_batch(tmp_path, task, batch_seed(option_set, seed), OPTION_SETS[option_set])
    want, got = both(jar, argv, tmp_path, monkeypatch)
    check_batch(argv, tmp_path, outcomes, want, got)


def test_the_batches_reach_what_they_are_meant_to(tmp_path):
    """The generator's runs are mostly scored, some rejected, a few fatal, and topics come back (D5)."""
    scored = rejected = dying = comeback = 0
    for task in TASKS:
        for seed in (batch_seed(o, s) for o in OPTION_SETS for s in range(SEEDS)):
            qrels_text, runs = oracle_case(seed, task, RUNS_PER_BATCH)
            (tmp_path / "q.txt").write_text(qrels_text)
            qrels = read_fol_qrels(tmp_path / "q.txt")
            for text in runs:
                (tmp_path / "r.txt").write_text(text)
                o = score_fol_run(qrels, read_fol_run(tmp_path / "r.txt"), task)
                scored += o.rejected is None and o.death is None
                rejected += o.rejected is not None
                dying += o.death is not None
                topics = [ln.split()[0] for ln in text.splitlines() if ln.split()]
                blocks = [t for i, t in enumerate(topics) if i == 0 or topics[i - 1] != t]
                comeback += len(blocks) > len(set(blocks))
    total = scored + rejected + dying
    assert scored > 0.6 * total and rejected > 0.08 * total and dying > 0.01 * total, (scored, rejected, dying)
    assert comeback > 0.2 * total


# ------------------------------------------------------------------ fixed cases ----

QRELS = "A Q0 a1 50 500 0 0:50\nA Q0 a2 50 500 0 100:50\nA Q0 a3 28 500 0 0:28\nB Q0 b1 10 100 0 0:10\n"
RUN = "A Q0 a1 1 1 R 0 50\nA Q0 a2 1 1 R 400 50\nB Q0 b1 1 1 R 0 10\nA Q0 a3 1 1 R 0 28\n"


@pytest.mark.parametrize("task", list(TASKS))
def test_a_topic_that_comes_back_joins_its_last_rank(jar, tmp_path, monkeypatch, task):
    """The T2I bug: topic A comes back after B and its line joins A's rank 2 (D5, D25)."""
    (tmp_path / "q.txt").write_text(QRELS)
    (tmp_path / "r.txt").write_text(RUN)
    argv = [f"-{task}", "-q", "-c", "q.txt", "r.txt"]
    want, got = both(jar, argv, tmp_path, monkeypatch)
    assert_same(argv, tmp_path, want, got)


#: (qrels lines, run lines) of topic {T} (and {U}) that take the tool's ints past 2^31 - 1 (D17, D26)
WRAP_CASES = [
    (["{T} Q0 a1 2000000000 500 0 0:50", "{T} Q0 a2 2000000000 500 0 0:50"],  # rel_size wraps
     ["{T} Q0 a1 1 1 R 0 50", "{T} Q0 a2 1 1 R 0 50"]),
    (["{T} Q0 a1 100 500 0 0:50"],  # ret_size wraps
     ["{T} Q0 a1 1 1 R 0 2000000000", "{T} Q0 a2 1 1 R 0 2000000000", "{T} Q0 a1x 1 1 R 0 50"]),
    (["{T} Q0 a1 1 2147483647 0 0:2000000000", "{T} Q0 a2 1 2147483647 0 0:2000000000"],  # rel_ret_size wraps
     ["{T} Q0 a1 1 1 R 0 2000000000", "{T} Q0 a2 1 1 R 0 2000000000"]),
    (["{T} Q0 a1 10 500 0 -2000000000:2000000000 0:2000000000"],  # a rank's ret and relret wrap
     ["{T} Q0 a1 1 1 R -2000000000 2000000000", "{T} Q0 a1 1 1 R 0 2000000000"]),
    (["{T} Q0 a1 10 2147483647 0 0:10"], ["{T} Q0 a1 1 1 R -2000000000 10"]),  # a T2I gap past 2^31
    (["{T} Q0 a1 10 2147483647 0 0:10 5:-2000000000"],  # T2I: a relevant passage of negative length
     ["{T} Q0 a1 1 1 R -2000000000 10", "{T} Q0 a1 1 1 R 20 10"]),
    (["{T} Q0 a1 10 500 0 2000000000:2000000000"], ["{T} Q0 a1 1 1 R 0 2147483647"]),  # relevant chars wrap
    (["{T} Q0 a1 2000000000 500 0 0:50", "{U} Q0 b1 2000000000 500 0 0:50"],  # the counts of all wrap
     ["{T} Q0 a1 1 1 R 0 50", "{U} Q0 b1 1 1 R 0 50"]),
    (["{T} Q0 a1 10 500 2147483647 0:10", "{T} Q0 a2 10 500 0 0:10"],  # |BEP - start| wraps
     ["{T} Q0 a1 1 1 R -2 10", "{T} Q0 a2 1 1 R -2147483648 10"]),
    (["{T} Q0 a1 10 2147483647 0 -2147483648:2147483647 100:-2147483647"],
     ["{T} Q0 a1 1 1 R -2147483648 2147483647", "{T} Q0 a1 1 1 R 2147483000 647"]),
    (["{T} Q0 a1 10 -2147483648 0 0:10"], ["{T} Q0 a1 1 1 R 2147483000 647"]),
    (["{T} Q0 a1 50 500 0 0:50"], ["{T} Q0 a1 1 1 R -2000000000 -1000000000"]),  # a negative size passes
]
#: the option variants of the wrap-around cases, per task
WRAP_OPTIONS = {"t": [["-c"]], "f": [["-c"]], "r": [["-c"], ["-beta", "2"]], "b": [["-c"], ["-n", "2147483647"]],
                "i": [["-c"], ["-irr", "2147483647"], ["-irr", "2000000000"], ["-irr", "-2147483648"]]}


@pytest.mark.parametrize("task", list(TASKS))
def test_int_wrap_around(jar, tmp_path, monkeypatch, task):
    """Sums, differences and counts past 2^31 - 1 wrap around in the tool; inexeval's too (D17, D26)."""
    qrels, runs = [], []
    for k, (q, r) in enumerate(WRAP_CASES):
        names = {"T": f"T{k}", "U": f"U{k}"}
        qrels += [line.format(**names) for line in q]
        runs.append(f"wrap{k}.txt")
        (tmp_path / runs[-1]).write_text("".join(line.format(**names) + "\n" for line in r))
    (tmp_path / "qrels.txt").write_text("".join(line + "\n" for line in qrels))
    for options in WRAP_OPTIONS[task]:
        argv = [f"-{task}", "-q", *options, "qrels.txt", *runs]
        want, got = both(jar, argv, tmp_path, monkeypatch)
        assert_same(argv, tmp_path, want, got)


@pytest.mark.parametrize("argv,files", [
    (["-f"], {}),  # fewer than 2 arguments: the usage
    ([], {}),
    (["-f", "-z", "q.txt"], {}),  # an illegal option
    (["-q", "q.txt"], {}),  # no task
    (["-f", "-n", "x", "q.txt"], {}),
    (["-b", "-n", "2147483648", "q.txt"], {}),
    (["-i", "-irr", "1.5", "q.txt"], {}),
    (["-r", "-beta", "1,5", "q.txt"], {}),
    (["-r", "-beta", "0x1p", "q.txt"], {}),
    (["-f", "-n"], {}),  # a value option at the end: the tool dies
    (["-f", "-q", "-c"], {}),  # no QRELS: the tool dies
    (["-f", "q.txt", "nope.txt", "r.txt"], {"q.txt": QRELS, "r.txt": RUN}),  # a run that cannot be opened
    (["-r", "-q", "nope.txt", "r.txt"], {"r.txt": RUN}),  # qrels that cannot be opened: no topics
    (["-f", "q.txt", "-n", "r.txt"], {"q.txt": QRELS, "r.txt": RUN}),  # after QRELS everything is a run
])
def test_command_line(jar, tmp_path, monkeypatch, argv, files):
    """docs/inex_eval.md §1: usage texts differ (inexeval prints its own), everything else is the tool's."""
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    want, got = both(jar, argv, tmp_path, monkeypatch)
    what = "command line"
    assert want.status == got.status, describe(argv, tmp_path, want, got, what)
    if len(argv) < 2 or b"Usage" in want.stdout:  # the first line (the error, if any) is the tool's
        first = want.stdout.split(b"\n", 1)[0]
        if first.startswith(b"ERROR"):
            assert got.stdout.startswith(first + b"\n"), describe(argv, tmp_path, want, got, what)
        assert want.stderr == got.stderr == b"", describe(argv, tmp_path, want, got, what)
    elif want.stderr.startswith(b"Exception in thread"):  # the tool dies: inexeval reports it (D16)
        assert want.stdout == got.stdout == b"", describe(argv, tmp_path, want, got, what)
        assert got.stderr.startswith(b"inexeval: error: "), describe(argv, tmp_path, want, got, what)
    else:
        assert_same(argv, tmp_path, want, got)


@pytest.mark.parametrize("qrels", [
    "A Q0 a1 5 100 0 0:5\n\nA Q0 a2 5 100 0 0:5\n",  # an empty line
    "A Q0 a1 5 100\nA Q0 a2 5\n",  # too few fields
    "A Q0 a1 5.0 100\n",  # REL_CHARS not an int
    "A Q0 a1 5 100 0 0-5\n",  # a passage without ':'
    "A Q0 a1 5 100 x 0:5\n",  # BEP not an int
    "A Q0 a1 5 100 0 0:5:7 9:x\n",  # a passage part not an int
])
def test_qrels_the_tool_dies_on(jar, tmp_path, monkeypatch, qrels):
    (tmp_path / "q.txt").write_text(qrels)
    (tmp_path / "r.txt").write_text(RUN)
    argv = ["-f", "q.txt", "r.txt"]
    want, got = both(jar, argv, tmp_path, monkeypatch)
    assert want.status == got.status == 1 and want.stdout == got.stdout == b"", describe(argv, tmp_path, want, got)
    assert want.stderr.startswith(b"Exception in thread") and got.stderr.startswith(b"inexeval: error: q.txt:")


def test_unicode_topic_ids_in_java_string_order(jar, tmp_path, monkeypatch):
    """D14: U+1F600 (a surrogate pair) sorts before U+FF21 in Java; the tool reads UTF-8 under C.UTF-8."""
    topics = ["\U0001F600", "\uff21", "\u00e9", "e", "E\u0301"]
    qrels = "".join(f"{t} Q0 a{k} {10 + k} 500 0 0:{10 + k}\n" for k, t in enumerate(topics))
    run = "".join(f"{t} Q0 a{k} 1 1 R\u00fc 0 {5 + k}\n" for k, t in enumerate(reversed(topics)))
    (tmp_path / "q.txt").write_text(qrels, encoding="utf-8")
    (tmp_path / "r.txt").write_text(run, encoding="utf-8")
    for task in TASKS:
        argv = [f"-{task}", "-q", "q.txt", "r.txt"]
        want, got = both(jar, argv, tmp_path, monkeypatch, locale="C.UTF-8")
        if "\U0001F600".encode() not in want.stdout:
            pytest.skip("the JVM does not read UTF-8 under LC_ALL=C.UTF-8 here")
        assert_same(argv, tmp_path, want, got)



#: Malformed UTF-8 in ids: an encoded surrogate (one U+FFFD in Java for its 3 bytes, or 2 when cut),
#: a lone lead byte, a byte no UTF-8 has, a cut 4-byte sequence, an overlong form.
MALFORMED = [b"\xed\xa0\x80", b"\xed\xbf\xbf", b"\xed\xa0", b"\xc3", b"\xff", b"\xf0\x9f\x98", b"\xc0\xaf", b"\xe0\x80\x80"]


def test_malformed_utf8_in_ids_is_replaced_as_java_replaces_it(jar, tmp_path, monkeypatch):
    """The tool reads its files with Java's UTF-8 decoder under a UTF-8 locale, which replaces an encoded
    surrogate as one U+FFFD where Python's ``replace`` makes three (readers/fol.py: JAVA_UTF8)."""
    qrels, run = b"", b""
    for k, bad in enumerate(MALFORMED):
        qrels += b"t%d%s Q0 a%d %d 500 0 0:%d\n" % (k, bad, k, 10 + k, 10 + k)
        run += b"t%d%s Q0 a%d 1 1 R%s 0 %d\n" % (k, bad, k, bad, 5 + k)
    (tmp_path / "q.txt").write_bytes(qrels)
    (tmp_path / "r.txt").write_bytes(run)
    # a run the tool rejects, echoing its line: "too many fields in line 2: ..."
    (tmp_path / "e.txt").write_bytes(run[:run.index(b"\n") + 1] + b"x Q0 a1 1 1 R 0 5 extra\xed\xa0\x80\xc3\n")
    for task in TASKS:
        argv = [f"-{task}", "-q", "q.txt", "r.txt", "e.txt"]
        want, got = both(jar, argv, tmp_path, monkeypatch, locale="C.UTF-8")
        if "\ufffd".encode() not in want.stdout:
            pytest.skip("the JVM does not read UTF-8 under LC_ALL=C.UTF-8 here")
        assert_same(argv, tmp_path, want, got)

# ------------------------------------------------------------------ the config path ----

CONFIG_TASKS = {"t": "FOL.Thorough", "f": "FOL.Focused", "r": "FOL.RelevantInContext", "b": "FOL.BestInContext",
                "i": "FOL.T2I"}


@pytest.mark.parametrize("seed", range(2))
@pytest.mark.parametrize("task", list(TASKS))
def test_config_format_inex_eval_is_the_jar(jar, tmp_path, monkeypatch, task, seed):
    """``--format inex_eval -q [-e]`` of a FOL.* config prints what the jar prints for its runs (fol.md §5)."""
    rng = random.Random(f"config-{task}-{seed}")
    qrels_text, runs = oracle_case(1000 + seed, task, 4)
    (tmp_path / "qrels.txt").write_text(qrels_text)
    qrels = read_fol_qrels(tmp_path / "qrels.txt")
    n, beta, irr = rng.choice([1, 20, 500, 20000]), rng.choice([0.0, 0.25, 2.0, 0.5]), rng.choice([0, 1, 50, 300])
    paths, rejected = [], False
    for k, text in enumerate(runs):
        path = tmp_path / "runs" / f"run{k}.txt"
        path.parent.mkdir(exist_ok=True)
        path.write_text(text)
        outcome = score_fol_run(qrels, read_fol_run(path), task, n=n, beta=beta, irr=irr)
        if outcome.death is None:  # the jar would stop there (D16)
            paths.append(path)
            rejected |= outcome.rejected is not None
            # qrels or a run giving negative sizes: the config's measures refuse the run (docs/formats.md
            # §1.7), an input error, while --format inex_eval prints what the tool prints
            bounded = score_fol_run(qrels, read_fol_run(path), task, n=n, beta=beta, irr=irr, bounded=True)
            rejected |= bounded.death is not None
    complete = seed % 2 == 1  # (odd seeds: the same two cases here, both kinds in a longer campaign)
    cfg = tmp_path / "c.prop"
    cfg.write_text(f"TASK: {CONFIG_TASKS[task]}\nASSESSMENTS_DIR: {tmp_path / 'qrels.txt'}\n"
                   f"SUBMISSIONRUNS_DIR: {', '.join(map(str, paths))}\nRESULTS_DIR: {tmp_path / 'out'}\n"
                   f"BEP_DISTANCE: {n}\nF_BETA: {beta}\nT2I_TOLERANCE: {irr}\n")
    res = CliRunner().invoke(cli_main, ["-config", str(cfg), "--format", "inex_eval", "-q",
                                        *(["-e"] if complete else [])], catch_exceptions=False)
    argv = [f"-{task}", "-q", *(["-c"] if complete else []), "-n", str(n), "-beta", str(beta), "-irr", str(irr),
            str(tmp_path / "qrels.txt"), *map(str, paths)]
    want = finish(start_jar(jar, argv, tmp_path))
    got = Outcome(res.exit_code, res.stdout.encode(), b"")
    # a rejected run is an input error of the config (status 1), and prints the tool's message
    assert want.status == 0 and got.status == int(rejected) and want.stdout == got.stdout, \
        describe(argv, tmp_path, want, got, "the config path (--format inex_eval)")
