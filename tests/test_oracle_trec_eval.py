"""``inexeval trec-eval`` against trec_eval 10.0's own C binary, byte for byte, on random inputs.

Each case is generated from its seed (tests/trecgen.py), written into a folder of its own, and given to
both programs with the same command line (run from that folder, so the file names are short):
trec_eval 10.0 built from NIST's source (tests/oracles.py; skipped where the oracle folder is missing)
as a subprocess, and :func:`inexeval.dropins.trec_eval.cli.main` in this process.  Standard output, standard
error and the exit status must be identical.  On a difference the assertion shows the command, the
first differing lines and the case folder, where both programs' outputs are saved next to the inputs
(``trec_eval.out``/``.err``, ``inexeval.out``/``.err``, ``command.txt``).

Coverage: the option combinations of :data:`OPTION_SETS` (every flag, the measure sets, single measures
with parameters, combinations with ``-c``/``-J``/``-M``/``-l``, the preference and judgement-group
formats, ``-Z``), :func:`test_random_options` (random mixtures of them), runs that rank a docno twice
(trec_eval stops, status 4) and a few bad inputs.  Nothing here states an expected output: trec_eval's
is the expectation.

Inputs where trec_eval 10.0's own result is undefined behaviour are kept out, as they have no reference
output: topics whose judgements are all negative (trecgen.NEGATIVE_ONLY), negative judgements under
``-R qrels_prefs`` (trecgen.PREFS_NEGATIVE), ``rbp`` next to other measures and two of ndcg/dcg/ideal_dcg
with gain parameters (:data:`NOT_MIXED`), Z-score look-ups past the end of the file
(trecgen.zscores_file).  A crash of trec_eval itself fails the test with that explanation.
"""

from __future__ import annotations

import difflib
import io
import random
import shlex
import subprocess
import traceback
from dataclasses import dataclass
from pathlib import Path

import pytest

from inexeval.dropins.trec_eval.cli import main
import trecgen
from oracles import trec_eval_binary

pytestmark = pytest.mark.slow  # trec_eval 10.0, one process per case: minutes (skipped without the oracles)

SEEDS = 5  # per option set: 5 x ~165 option sets, ~35 ms a test


@pytest.fixture(scope="module")
def trec_eval() -> Path:
    return trec_eval_binary()


# ------------------------------------------------------------------ running both ----

@dataclass(frozen=True)
class Outcome:
    status: int
    stdout: bytes
    stderr: bytes


def run_oracle(binary: Path, argv: list[str], folder: Path) -> Outcome:
    p = subprocess.run([str(binary), *argv], cwd=folder, capture_output=True, timeout=120)
    return Outcome(p.returncode, p.stdout, p.stderr)


def run_inexeval(argv: list[str]) -> Outcome:
    """The drop-in in this process (the caller has changed into the case folder)."""
    out, err = io.BytesIO(), io.StringIO()
    status = main(list(argv), out, err)
    return Outcome(status, out.getvalue(), err.getvalue().encode("utf-8", "surrogateescape"))


def _diff(a: bytes, b: bytes, limit: int = 30) -> str:
    al = a.decode("utf-8", "backslashreplace").splitlines(keepends=True)
    bl = b.decode("utf-8", "backslashreplace").splitlines(keepends=True)
    lines = list(difflib.unified_diff(al, bl, "trec_eval", "inexeval", n=1))
    shown = [repr(line.rstrip("\n"))[1:-1] if not line.startswith(("---", "+++")) else line.rstrip("\n")
             for line in lines[:limit]]
    more = f"\n      ... {len(lines) - limit} more diff lines" if len(lines) > limit else ""
    return "\n".join("      " + s for s in shown) + more


def describe(argv: list[str], folder: Path, want: Outcome, got: Outcome) -> str:
    cmd = shlex.join(argv)
    parts = [
        "trec_eval 10.0 and inexeval trec-eval differ",
        f"  command:    cd {folder} && trec_eval {cmd}    (vs: inexeval trec-eval {cmd})",
        f"  case files: {folder} (outputs saved there: trec_eval.out/.err, inexeval.out/.err)",
        f"  status:     trec_eval {want.status}, inexeval {got.status}",
    ]
    if want.stderr != got.stderr:
        parts.append(f"  stderr:     trec_eval {want.stderr!r}\n              inexeval  {got.stderr!r}")
    if want.stdout != got.stdout:
        parts.append(f"  stdout ({len(want.stdout.splitlines())} lines vs {len(got.stdout.splitlines())}), "
                     f"first differences:\n" + _diff(want.stdout, got.stdout))
    return "\n".join(parts)


def compare(binary: Path, argv: list[str], folder: Path, monkeypatch) -> Outcome:
    """Run both on ARGV in FOLDER; fail with :func:`describe` unless they agree.  trec_eval's outcome."""
    want = run_oracle(binary, argv, folder)
    if want.status < 0:  # killed by a signal: the input reached undefined behaviour in trec_eval
        pytest.fail(f"trec_eval 10.0 itself crashed (signal {-want.status}, stderr {want.stderr!r}) on\n"
                    f"  cd {folder} && trec_eval {shlex.join(argv)}\nThe generator (tests/trecgen.py) or the "
                    f"option mixtures must keep clear of that input: it has no reference output.", pytrace=False)
    monkeypatch.chdir(folder)
    try:
        got = run_inexeval(argv)
    except Exception:
        pytest.fail(f"inexeval trec-eval raised on\n  cd {folder} && inexeval trec-eval {shlex.join(argv)}\n"
                    f"(trec_eval: status {want.status})\n{traceback.format_exc()}", pytrace=False)
    if want != got:
        (folder / "command.txt").write_text(f"trec_eval {shlex.join(argv)}\n")
        for name, o in (("trec_eval", want), ("inexeval", got)):
            (folder / f"{name}.out").write_bytes(o.stdout)
            (folder / f"{name}.err").write_bytes(o.stderr + f"[exit status {o.status}]\n".encode())
        pytest.fail(describe(argv, folder, want, got), pytrace=False)
    return want


# ------------------------------------------------------------------ cases ----

def make_files(kind: str, rng: random.Random) -> tuple[dict[str, str], trecgen.Case]:
    """The files of a case of KIND: ``complete`` (every qrels topic in the run), ``missing`` (some are
    not), ``many`` (16 or 32 topics, all in the run), ``awkward`` (values on 4th-decimal halves), ``dup``
    (a docno twice in the run), ``prefs`` (a prefs file), ``jg`` (qrels_jg); ``_nonneg``: no negative
    judgements (trecgen.PREFS_NEGATIVE)."""
    nonneg = kind.endswith("_nonneg")
    kind = kind.removesuffix("_nonneg")
    if kind == "complete":
        case = trecgen.qrels_and_run(rng, missing=0.0, nonnegative=nonneg)
    elif kind == "missing":
        case = trecgen.qrels_and_run(rng, missing=0.35, nonnegative=nonneg)
    elif kind == "many":  # 16 or 32 topics: means of P_10 (P_5) values are k/160, on 4th-decimal halves
        case = trecgen.qrels_and_run(rng, missing=0.0, n_topics=rng.choice([16, 32]), long_runs=0.02)
    elif kind == "awkward":  # mostly trecgen.AWKWARD_TOPICS: values on 4th-decimal halves
        case = trecgen.qrels_and_run(rng, missing=0.0, n_topics=rng.randint(4, 12), awkward=0.8)
    elif kind == "dup":
        case = trecgen.qrels_and_run(rng, missing=0.0, duplicates=True)
    elif kind in ("prefs", "prefs_missing"):
        case = trecgen.qrels_and_run(rng, missing=0.3 if kind == "prefs_missing" else 0.0, long_runs=0.05)
        return {"qrels": trecgen.prefs_file(rng, case), "run": case.run}, case
    elif kind in ("jg", "jg_missing"):
        case = trecgen.qrels_and_run(rng, missing=0.3 if kind == "jg_missing" else 0.0)
        return {"qrels": trecgen.qrels_jg_text(rng, case), "run": case.run}, case
    else:
        raise ValueError(kind)
    return {"qrels": case.qrels, "run": case.run}, case


def expand(options: list[str], case: trecgen.Case, rng: random.Random) -> list[str]:
    """OPTIONS with ``{qid}`` replaced by one of the case's qrels topics (now and then one it lacks)."""
    qid = rng.choice(case.qrels_topics) if rng.random() < 0.9 else "nosuchtopic"
    return [o.replace("{qid}", qid) for o in options]


#: Single measures with parameters (trec_eval's -m syntax).
MEASURES = [
    "P.3,7", "ndcg.1=3,2=9", "ndcg_cut.3", "map_cut.2,5", "iprec_at_recall.0.25,0.5", "Rprec_mult.0.5,1.5",
    "utility.2,-1,0,0", "11pt_avg.0.25,0.5,0.75", "set_F.0.5", "rbp.p=0.8", "rbp_resid.p=0.95",
    "relstring.20", "G.1=2", "Rndcg", "ndcg_rel", "dcg", "ideal_dcg", "yaap", "unj.3", "success.2", "infAP",
    "binG", "gm_bpref", "gm_map", "map", "Rprec", "bpref", "recip_rank", "recall.4", "relative_P.5", "set_P",
    "set_recall", "set_relative_P", "set_map", "num_nonrel_judged_ret", "relstring", "rbp", "rbp_resid",
    "unj", "utility", "ndcg", "ndcg_cut", "P", "G", "ndcg_rel.0=1,1=2,2=4", "Rndcg.1=2,3=7",
    "ndcg.1=0.5,2=2.25", "dcg.1=2,2=3", "success", "map_cut", "iprec_at_recall", "Rprec_mult", "11pt_avg",
    "set_F", "set_F.2", "relative_P",
]
#: Modifiers combined with each measure under -c, on cases with topics missing from the run.
MODIFIERS = [["-J"], ["-M", "3"], ["-l", "2"], ["-J", "-M", "2"], ["-l", "2", "-J"], [], ["-M", "1"],
             ["-l", "2", "-M", "5"]]

OPTION_SETS: list[tuple[str, list[str], str]] = [
    ("default", [], "complete"),
    ("q", ["-q"], "complete"),
    ("q_missing_topic", ["-q"], "missing"),  # trec_eval stops at the first qrels topic the run lacks
    ("c", ["-q", "-c"], "missing"),
    ("c_complete", ["-c"], "complete"),
    ("n", ["-n"], "complete"),
    ("nq", ["-n", "-q"], "complete"),
    ("l2", ["-q", "-l", "2"], "complete"),
    ("l3_c", ["-q", "-c", "-l", "3"], "missing"),
    ("l0", ["-q", "-l", "0"], "complete"),
    ("J", ["-q", "-J"], "complete"),
    ("cJ", ["-q", "-c", "-J"], "missing"),
    ("M1", ["-q", "-M", "1"], "complete"),
    ("M3", ["-q", "-M", "3"], "complete"),
    ("M7_J", ["-q", "-M", "7", "-J"], "complete"),
    ("D", ["-q", "-D", "0.{qid}"], "complete"),
    ("D_c", ["-q", "-c", "-D", "0.{qid}"], "missing"),
    ("D_summary_c", ["-c", "-D", "0.{qid}", "-m", "all_trec"], "missing"),
    ("N", ["-q", "-N", "50", "-m", "utility.1,-1,0,0.5"], "complete"),
    ("N_c", ["-q", "-c", "-N", "1000", "-m", "utility.2,-1,-0.5,1"], "missing"),
    ("official", ["-q", "-m", "official"], "complete"),
    ("all_trec", ["-q", "-m", "all_trec"], "complete"),
    ("all_trec_c", ["-q", "-c", "-m", "all_trec"], "missing"),
    ("all_trec_J", ["-q", "-J", "-m", "all_trec"], "complete"),
    ("all_trec_cJ", ["-q", "-c", "-J", "-m", "all_trec"], "missing"),
    ("all_trec_l2", ["-q", "-l", "2", "-m", "all_trec"], "complete"),
    ("all_trec_M3", ["-q", "-M", "3", "-m", "all_trec"], "complete"),
    ("all_trec_cM2l2", ["-q", "-c", "-M", "2", "-l", "2", "-m", "all_trec"], "missing"),
    ("set", ["-q", "-m", "set"], "complete"),
    ("set_c", ["-q", "-c", "-m", "set"], "missing"),
    ("many_m", ["-q", "-m", "P.3", "-m", "P", "-m", "map", "-m", "ndcg_cut.3,1"], "complete"),
    ("prefs_all", ["-q", "-R", "prefs", "-m", "all_prefs"], "prefs"),
    ("prefs_off", ["-q", "-R", "prefs", "-m", "prefs"], "prefs"),
    ("prefs_c", ["-q", "-c", "-R", "prefs", "-m", "all_prefs"], "prefs_missing"),
    ("prefs_M", ["-q", "-M", "4", "-R", "prefs", "-m", "all_prefs"], "prefs"),
    ("prefs_default", ["-q", "-R", "prefs"], "prefs"),
    ("qrels_prefs", ["-q", "-R", "qrels_prefs", "-m", "all_prefs"], "complete_nonneg"),
    ("qrels_prefs_c", ["-q", "-c", "-R", "qrels_prefs", "-m", "all_prefs"], "missing_nonneg"),
    ("qrels_prefs_JM", ["-q", "-J", "-M", "5", "-R", "qrels_prefs", "-m", "prefs"], "complete_nonneg"),
    ("qrels_jg", ["-q", "-R", "qrels_jg", "-m", "qrels_jg"], "jg"),
    ("qrels_jg_params", ["-q", "-R", "qrels_jg", "-m", "P_avgjg.3,7", "-m", "Rprec_mult_avgjg.0.5,1.5",
                         "-m", "map_avgjg"], "jg"),
    ("qrels_jg_c", ["-q", "-c", "-R", "qrels_jg", "-m", "qrels_jg"], "jg_missing"),
    ("qrels_jg_lJM", ["-q", "-l", "2", "-J", "-M", "4", "-R", "qrels_jg", "-m", "qrels_jg"], "jg"),
    ("qrels_measure_on_prefs", ["-q", "-R", "prefs", "-m", "map"], "prefs"),
    # a measure the format cannot serve: trec_eval meets that at its first topic, after the topic's checks
    ("qrels_measure_on_prefs_missing", ["-q", "-R", "prefs", "-m", "map"], "prefs_missing"),
    ("qrels_measure_on_prefs_D", ["-q", "-D", "0.{qid}", "-R", "prefs", "-m", "prefs_simp", "-m", "map"],
     "prefs_missing"),
    ("official_on_jg_missing", ["-R", "qrels_jg"], "jg_missing"),
    ("official_on_jg_D", ["-D", "0.{qid}", "-R", "qrels_jg"], "jg_missing"),
    ("prefs_measure_on_qrels_dup", ["-q", "-m", "map", "-m", "prefs_simp"], "dup"),
    ("jg_measure_on_prefs_missing", ["-c", "-R", "prefs", "-m", "prefs_simp", "-m", "map_avgjg"], "prefs_missing"),
    # -c -D: the summary divides by every topic of the file, whatever its format
    ("prefs_cD", ["-c", "-D", "0.{qid}", "-R", "prefs", "-m", "all_prefs", "-m", "num_q"], "prefs_missing"),
    ("qrels_prefs_cD", ["-q", "-c", "-D", "0.{qid}", "-R", "qrels_prefs", "-m", "all_prefs", "-m", "num_q"],
     "missing_nonneg"),
    ("qrels_jg_cD", ["-c", "-D", "0.{qid}", "-R", "qrels_jg", "-m", "qrels_jg", "-m", "num_q"], "jg_missing"),
    ("dup", ["-q"], "dup"),
    ("dup_M", ["-q", "-M", "3"], "dup"),
    ("dup_all_trec_c", ["-q", "-c", "-m", "all_trec"], "dup"),
    ("dup_qrels_prefs", ["-q", "-R", "qrels_prefs", "-m", "prefs"], "dup"),
    ("dup_num_q", ["-q", "-m", "num_q"], "dup"),  # (no measure reads the ranking: no docno is compared)
    ("dup_runid_num_q_c", ["-c", "-m", "runid", "-m", "num_q"], "dup"),
    ("dup_num_q_qrels_prefs", ["-R", "qrels_prefs", "-m", "num_q"], "dup"),
    ("prefs_num_q", ["-q", "-R", "prefs", "-m", "runid", "-m", "num_q"], "prefs_missing"),
    ("M0", ["-q", "-M", "0"], "complete"),
    ("M0_c", ["-q", "-c", "-M", "0", "-m", "all_trec"], "missing"),  # (the stand-in ranking cut away too)
    ("M0_cJ", ["-q", "-c", "-J", "-M", "0", "-m", "official"], "missing"),
    ("many_official", ["-m", "official", "-m", "set"], "many"),
    ("many_P", ["-m", "P.5,10", "-m", "set_P", "-m", "map", "-m", "recall.10,40"], "many"),
    ("many_P_l2J", ["-l", "2", "-J", "-m", "P.5,10", "-m", "recip_rank"], "many"),
    ("many_all_trec_c", ["-c", "-m", "all_trec"], "many"),
    ("many_gm", ["-m", "gm_map", "-m", "gm_bpref", "-l", "2"], "many"),
    ("awkward_set", ["-q", "-m", "set", "-m", "P.8,16,32,40,160", "-m", "recall.8,16,32,40"], "awkward"),
    ("awkward_all_trec", ["-q", "-m", "all_trec"], "awkward"),
    ("awkward_rank", ["-q", "-m", "map", "-m", "bpref", "-m", "rbp", "-m", "rbp_resid", "-m", "Rprec"], "awkward"),
]
for _i, _m in enumerate(MEASURES):
    OPTION_SETS.append((f"m[{_m}]", ["-q", "-m", _m], "complete"))
    _mods = MODIFIERS[_i % len(MODIFIERS)]
    OPTION_SETS.append((f"m[{_m}]_c{''.join(_mods)}", ["-q", "-c", *_mods, "-m", _m], "missing"))


@pytest.mark.parametrize("seed", range(SEEDS))
@pytest.mark.parametrize("name, options, kind", OPTION_SETS, ids=[o[0] for o in OPTION_SETS])
def test_option_set(trec_eval, tmp_path, monkeypatch, name, options, kind, seed):
    rng = random.Random(f"{name}/{seed}")
    files, case = make_files(kind, rng)
    trecgen.write_case(tmp_path, files)
    compare(trec_eval, [*expand(options, case, rng), "qrels", "run"], tmp_path, monkeypatch)


#: The options test_random_options mixes.
FLAGS = [(0.7, ["-q"]), (0.4, ["-c"]), (0.08, ["-n"]), (0.2, ["-l", "2"]), (0.25, ["-J"]),
         (0.1, ["-M", "1"]), (0.1, ["-M", "4"]), (0.08, ["-D", "0.{qid}"]), (0.05, ["-N", "30"]),
         (0.04, ["-M", "0"])]


#: Left out of the mixtures, where trec_eval's result would depend on undefined behaviour:
#: - rbp: te_calc_rbp (m_rbp.c) normalises the gains with ``min`` and ``max`` that are never initialised,
#:   so its value depends on what the measure computed just before it left on the stack (``-m G -m
#:   rbp.p=0.8`` gives 0.1 for a ranking that ``-m rbp.p=0.8`` alone scores 0.2).  It is tested alone
#:   and in ``all_trec`` (after num_nonrel_judged_ret), so ``all_trec`` is not mixed with ``yaap``, the
#:   one measure computed between those two;
#: - two of ndcg, dcg, ideal_dcg when one has gain parameters: the three share one static PARAMS
#:   (m_ndcg.c default_ndcg_gains), which is then freed twice (trec_eval aborts or segfaults).
NOT_MIXED = ("rbp",)
NDCG_FAMILY = ("ndcg", "dcg", "ideal_dcg")


def _mixable(measures: list[str]) -> bool:
    if "all_trec" in measures and "yaap" in measures:
        return False
    family = [m for m in measures if m.split(".")[0] in NDCG_FAMILY or m == "all_trec"]  # (all_trec has ndcg)
    return len(family) < 2 or not any("." in m for m in family)


def random_options(rng: random.Random) -> list[str]:
    opts: list[str] = []
    for p, flag in FLAGS:
        if rng.random() < p:
            opts += flag
    pool = [m for m in MEASURES if not m.startswith(NOT_MIXED)] + ["official", "all_trec", "set"]
    while True:
        measures = rng.sample(pool, rng.choice([0, 1, 1, 2, 3]))
        if _mixable(measures):
            break
    for m in measures:
        opts += ["-m", m]
    return opts


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(200))
def test_random_options(trec_eval, tmp_path, monkeypatch, seed):
    """Random mixtures of the options above, on random cases (topics missing from the run when -c)."""
    rng = random.Random(f"random/{seed}")
    opts = random_options(rng)
    files, case = make_files("missing" if "-c" in opts or rng.random() < 0.1 else "complete", rng)
    trecgen.write_case(tmp_path, files)
    compare(trec_eval, [*expand(opts, case, rng), "qrels", "run"], tmp_path, monkeypatch)


# ------------------------------------------------------------------ corner options ----

#: Odd option values and measure parameters (issue 30): numbers read by atol/atof, empty, repeated,
#: fractional and huge parameters, wrong parameter counts, -l below 0.  Each against trec_eval 10.0.
CORNERS: list[tuple[str, list[str], str]] = [
    ("l0", ["-q", "-l", "0"], "complete"),
    ("l-1", ["-q", "-l", "-1", "-m", "all_trec"], "complete"),
    ("l-2_cJ", ["-q", "-l", "-2", "-c", "-J", "-m", "all_trec"], "missing"),
    ("l-3_M", ["-q", "-l", "-3", "-M", "4", "-m", "official", "-m", "11pt_avg.0.3,0.1", "-m", "yaap"], "complete"),
    ("l-1_jg", ["-q", "-l", "-1", "-R", "qrels_jg", "-m", "qrels_jg", "-m", "Rprec_mult_avgjg.0.5,1,2"], "jg"),
    ("l-1_prefs", ["-q", "-l", "-1", "-R", "prefs", "-m", "all_prefs"], "prefs"),
    ("l_abc", ["-q", "-l", "abc"], "complete"),
    ("l_2x", ["-q", "-l", "2x"], "complete"),
    ("l_space2", ["-q", "-l", " 2"], "complete"),
    ("l_1000", ["-q", "-l", "1000", "-m", "P.5", "-m", "map"], "complete"),
    ("l_long_max", ["-q", "-l", "99999999999999999999", "-m", "P.5", "-m", "map"], "complete"),
    ("M0", ["-q", "-M0", "-m", "all_trec"], "complete"),
    ("Mabc", ["-q", "-Mabc"], "complete"),
    ("M2x", ["-q", "-M", "2x"], "complete"),
    ("M_huge", ["-q", "-M", "99999999999999999999"], "complete"),
    ("N_abc", ["-q", "-N", "abc", "-m", "utility.1,-1,0,0.5"], "complete"),
    ("N_negative", ["-q", "-N", "-5", "-m", "utility.1,-1,0,0.5"], "complete"),
    ("D_abc", ["-q", "-D", "abc"], "complete"),
    ("D_garbage", ["-q", "-D", "1x.{qid}"], "complete"),
    ("D_dot", ["-q", "-D", ".{qid}"], "complete"),
    ("set_F_abc", ["-q", "-m", "set_F.abc"], "complete"),
    ("set_F_empty_item", ["-q", "-m", "set_F.,1"], "complete"),
    ("set_F_two", ["-q", "-m", "set_F.1,2"], "complete"),
    ("set_F_inf", ["-q", "-m", "set_F.inf"], "complete"),
    ("set_F_hex", ["-q", "-m", "set_F.0x1p1"], "complete"),
    ("utility_abcd", ["-q", "-m", "utility.a,b,c,d"], "complete"),
    ("utility_2", ["-q", "-m", "utility.1,2"], "complete"),
    ("utility_1", ["-q", "-m", "map", "-m", "utility.1"], "complete"),
    ("utility_3_c", ["-q", "-c", "-m", "map", "-m", "utility.1,2,3"], "missing"),
    ("utility_5", ["-q", "-m", "utility.1,2,3,4,5"], "complete"),
    ("utility_trailing_comma", ["-q", "-m", "utility.1,2,3,4,"], "complete"),
    ("utility_2_dup", ["-q", "-m", "utility.1,2"], "dup"),
    ("ndcg_abc_gain", ["-q", "-m", "ndcg.1=abc"], "complete"),
    ("ndcg_abc_level", ["-q", "-m", "ndcg.abc=2"], "complete"),
    ("ndcg_no_value", ["-q", "-m", "ndcg.="], "complete"),
    ("ndcg_no_pair", ["-q", "-m", "ndcg.1"], "complete"),
    ("ndcg_trailing_comma", ["-q", "-m", "ndcg.1=2,"], "complete"),
    ("ndcg_empty_pair", ["-q", "-m", "ndcg.1=2,,3=4"], "complete"),
    ("ndcg_two_equals", ["-q", "-m", "ndcg.1=2=3"], "complete"),
    ("ndcg_repeated_level", ["-q", "-m", "ndcg.1=2,1=3"], "complete"),
    ("ndcg_huge_level", ["-q", "-m", "ndcg.99999999999999999999=5"], "complete"),
    ("ndcg_hex", ["-q", "-m", "ndcg.0x2=5,2=0x1p2"], "complete"),
    ("rbp_abc", ["-q", "-m", "rbp.p=abc"], "complete"),
    ("rbp_2", ["-q", "-m", "rbp.p=2"], "complete"),
    ("iprec_2", ["-q", "-m", "iprec_at_recall.2"], "complete"),
    ("iprec_abc", ["-q", "-m", "iprec_at_recall.abc"], "complete"),
    ("iprec_negative", ["-q", "-m", "iprec_at_recall.-0.5"], "complete"),
    ("iprec_repeated", ["-q", "-m", "iprec_at_recall.0.5,0.5"], "complete"),
    ("iprec_zero_twice", ["-q", "-m", "iprec_at_recall.-0,0"], "complete"),
    ("iprec_hex", ["-q", "-m", "iprec_at_recall.0x1p-1,0X.Cp0"], "complete"),
    ("iprec_arabic_digit", ["-q", "-m", "iprec_at_recall.\u0661"], "complete"),
    ("iprec_minus_nan", ["-q", "-m", "iprec_at_recall.-nan"], "complete"),
    ("iprec_nan_first", ["-q", "-m", "iprec_at_recall.nan(12),0.5"], "complete"),
    ("iprec_long_labels", ["-q", "-m", "iprec_at_recall.1e10,1e11,123456.789"], "complete"),
    ("Rprec_mult_-1", ["-q", "-m", "Rprec_mult.-1"], "complete"),
    ("Rprec_mult_0", ["-q", "-m", "Rprec_mult.0"], "complete"),
    ("Rprec_mult_abc", ["-q", "-m", "Rprec_mult.abc"], "complete"),
    ("Rprec_mult_long_label", ["-q", "-m", "Rprec_mult.-10000,-20000.5"], "complete"),
    ("11pt_abc", ["-q", "-m", "11pt_avg.abc"], "complete"),
    ("11pt_2", ["-q", "-m", "11pt_avg.2"], "complete"),
    ("11pt_commas", ["-q", "-m", "11pt_avg.,"], "complete"),
    ("relstring_0", ["-q", "-m", "relstring.0"], "complete"),
    ("relstring_-3", ["-q", "-m", "relstring.-3"], "complete"),
    ("relstring_abc", ["-q", "-m", "relstring.abc"], "complete"),
    ("P_empty", ["-q", "-m", "P."], "complete"),
    ("P_comma", ["-q", "-m", "P.,"], "complete"),
    ("P_repeated", ["-q", "-m", "P.5,5"], "complete"),
    ("P_fraction", ["-q", "-m", "P.5.5"], "complete"),
    ("P_fraction_repeated", ["-q", "-m", "P.5.5,5"], "complete"),
    ("P_huge", ["-q", "-m", "P.99999999999999999999"], "complete"),
    ("P_-1", ["-q", "-m", "P.-1"], "complete"),
    ("P_abc", ["-q", "-m", "P.abc"], "complete"),
    ("P_hex", ["-q", "-m", "P.0x10"], "complete"),
    ("P_underscore", ["-q", "-m", "P.1_0"], "complete"),
    ("P_plus", ["-q", "-m", "P.+5"], "complete"),
    ("P_space", ["-q", "-m", "P. 5"], "complete"),
    ("success_0", ["-q", "-m", "success.0"], "complete"),
    ("map_cut_0", ["-q", "-m", "map_cut.0"], "complete"),
    ("recall_underscore", ["-q", "-m", "recall.1_0"], "complete"),
]


@pytest.mark.parametrize("seed", range(2))
@pytest.mark.parametrize("name, options, kind", CORNERS, ids=[c[0] for c in CORNERS])
def test_corner_option(trec_eval, tmp_path, monkeypatch, name, options, kind, seed):
    rng = random.Random(f"corner/{name}/{seed}")
    files, case = make_files(kind, rng)
    trecgen.write_case(tmp_path, files)
    compare(trec_eval, [*expand(options, case, rng), "qrels", "run"], tmp_path, monkeypatch)


#: Corner options where trec_eval 10.0 crashes (docs/trec-eval.md §7): the drop-in gives a result.
CRASHES = [
    ("M_negative", ["-q", "-M", "-1"]),  # form_res_rels.c takes -1 as the number of results
    ("l_past_the_levels", ["-q", "-l", "100000"]),  # m_bpref.c reads rel_levels[0 .. l-1]
]


@pytest.mark.parametrize("name, options", CRASHES, ids=[c[0] for c in CRASHES])
def test_corner_option_where_trec_eval_crashes(trec_eval, tmp_path, monkeypatch, name, options):
    files, _ = make_files("complete", random.Random(f"crash/{name}"))
    trecgen.write_case(tmp_path, files)
    argv = [*options, "qrels", "run"]
    assert run_oracle(trec_eval, argv, tmp_path).status < 0  # (the reason this one is documented)
    monkeypatch.chdir(tmp_path)
    got = run_inexeval(argv)
    assert got.status == 0 and got.stderr == b"" and b"num_ret" in got.stdout


def test_cutoffs_2_to_the_31_apart(trec_eval, tmp_path, monkeypatch):
    """trec_eval sorts cut-offs with an int of their difference (comp_long, meas_init.c), which
    overflows: P_4294967296 before P_1, and P_1 computed as the last cut-off (docs/trec-eval.md §7).
    The drop-in sorts them by value and gives each its own value."""
    files, _ = make_files("complete", random.Random("cutoffs"))
    trecgen.write_case(tmp_path, files)
    argv = ["-m", "P.4294967296,1", "qrels", "run"]
    want = run_oracle(trec_eval, argv, tmp_path)
    assert [ln.split()[0] for ln in want.stdout.splitlines()] == [b"P_4294967296", b"P_1"]
    monkeypatch.chdir(tmp_path)
    got = run_inexeval(argv)
    assert [ln.split()[0] for ln in got.stdout.splitlines()] == [b"P_1", b"P_4294967296"]
    one = run_inexeval(["-m", "P.1", "qrels", "run"])
    assert got.stdout.splitlines()[0] == one.stdout.splitlines()[0]


# ------------------------------------------------------------------ -Z ----

ZMEASURES = [["-m", "official"], ["-m", "all_trec"], ["-m", "gm_map", "-m", "gm_bpref", "-m", "map"],
             ["-m", "relstring", "-m", "P.2"]]

#: The spellings of a NaN score C's atof reads (docs/trec-eval.md §3), and the options of each input format
#: run with NaN scores: trec_eval's qsort orders them by their docno (§3), in every format.
NAN_SCORES = ("nan", "-nan", "NaN", "nan(7)", "NAN")
NAN_FORMATS = [
    ("qrels", ["-q", "-m", "all_trec"], "complete"),
    ("qrels_c_J", ["-q", "-c", "-J", "-m", "official"], "missing"),
    ("qrels_M", ["-q", "-M", "3", "-m", "P.1,2,3", "-m", "map", "-m", "relstring.5"], "complete"),
    ("qrels_jg", ["-q", "-R", "qrels_jg", "-m", "qrels_jg"], "jg"),
    ("qrels_jg_J_M", ["-q", "-J", "-M", "4", "-R", "qrels_jg", "-m", "qrels_jg"], "jg"),
    ("prefs", ["-q", "-R", "prefs", "-m", "all_prefs"], "prefs"),
    ("qrels_prefs", ["-q", "-R", "qrels_prefs", "-m", "all_prefs"], "complete_nonneg"),
]


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("name, options, kind", NAN_FORMATS, ids=[f[0] for f in NAN_FORMATS])
def test_nan_scores(trec_eval, tmp_path, monkeypatch, name, options, kind, seed):
    """Runs where some scores are NaN (a third of the lines, or all of a topic's), in every input format."""
    rng = random.Random(f"nan/{name}/{seed}")
    files, _ = make_files(kind, rng)
    every = rng.random() < 0.25
    lines = []
    for line in files["run"].splitlines(keepends=True):
        f = line.split()
        if len(f) == 6 and (every or rng.random() < 0.35):
            f[4] = rng.choice(NAN_SCORES)
            line = " ".join(f) + "\n"
        lines.append(line)
    files["run"] = "".join(lines)
    trecgen.write_case(tmp_path, files)
    compare(trec_eval, [*options, "qrels", "run"], tmp_path, monkeypatch)



@pytest.mark.parametrize("seed", range(20))
def test_first_topic_judged_only_below_zero(trec_eval, tmp_path, monkeypatch, seed):
    """A first topic (in byte order) whose judgements are all below 0: trec_eval's first allocation of
    its level counts (form_res_rels.c, max_rel + 1 <= 0 of them) gives none, and the first measure that
    reads the ranking stops it (status 4), unless -D picks another topic, the run lacks it (without -c:
    "not found" first) or no measure reads the ranking.  (A later such topic is undefined behaviour:
    trecgen.NEGATIVE_ONLY.)"""
    rng = random.Random(f"negative-first/{seed}")
    opts = random_options(rng)
    files, case = make_files("missing" if "-c" in opts else "complete", rng)
    docs = [f"neg{i}" for i in range(rng.randint(1, 3))]
    files["qrels"] = "".join(f"!neg 0 {d} {rng.choice([-1, -2])}\n" for d in docs) + files["qrels"]
    if rng.random() < 0.7:  # (the run has the topic; else -c scores it on its stand-in)
        files["run"] = "".join(f"!neg Q0 {d} {k + 1} {10 - k} r\n" for k, d in enumerate(docs + ["other"])) \
            + files["run"]
    trecgen.write_case(tmp_path, files)
    compare(trec_eval, [*expand(opts, case, rng), "qrels", "run"], tmp_path, monkeypatch)


#: The input formats whose files get a NUL byte at the start of a line (:func:`test_nul_at_a_line_start`).
NUL_FORMATS = [
    ("qrels", ["-q", "-m", "official"], "missing"),
    ("qrels_c", ["-q", "-c", "-m", "official"], "missing"),
    ("qrels_jg", ["-q", "-R", "qrels_jg", "-m", "qrels_jg"], "jg"),
    ("prefs", ["-q", "-R", "prefs", "-m", "all_prefs"], "prefs"),
    ("qrels_prefs", ["-q", "-R", "qrels_prefs", "-m", "all_prefs"], "complete_nonneg"),
]


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("name, options, kind", NUL_FORMATS, ids=[f[0] for f in NUL_FORMATS])
def test_nul_at_a_line_start(trec_eval, tmp_path, monkeypatch, name, options, kind, seed):
    """A NUL byte that starts a line (not the first) of the judgements or the run: trec_eval's readers
    end the file there (docs/trec-eval.md §3)."""
    rng = random.Random(f"nul/{name}/{seed}")
    judged = kind not in ("prefs", "complete_nonneg")  # (qrels and qrels_jg: their 4th field)
    while True:
        files, _ = make_files(kind, rng)
        places = {k: trecgen.nul_places(files[k], k == "qrels") for k in ("qrels", "run") if judged or k == "run"}
        if any(places.values()):
            break
    which = rng.choice([k for k, v in places.items() if v])
    lines = files[which].split("\n")
    at = rng.choice(places[which])
    lines[at] = "\0" + lines[at][rng.choice([0, 0, 1]):]  # (in place of its first byte, or before it)
    files[which] = "\n".join(lines)
    trecgen.write_case(tmp_path, files)
    compare(trec_eval, [*options, "qrels", "run"], tmp_path, monkeypatch)


@pytest.mark.parametrize("seed", range(12))
def test_zscores(trec_eval, tmp_path, monkeypatch, seed):
    """``-Z``: a Z-score file on the labels trec_eval prints for the case (some topics and labels absent,
    some zero deviations)."""
    rng = random.Random(f"zscores/{seed}")
    with_c = rng.random() < 0.5  # -c, on a case with topics missing from the run
    files, case = make_files("missing" if with_c else "complete", rng)
    trecgen.write_case(tmp_path, files)
    measures = ZMEASURES[seed % len(ZMEASURES)]
    opts = ["-q", *(["-c"] if with_c else []), *measures]
    plain = run_oracle(trec_eval, [*opts, "qrels", "run"], tmp_path)
    labels = sorted({line.split(b"\t")[0].strip().decode() for line in plain.stdout.splitlines()} - {"runid"})
    (tmp_path / "zscores").write_text(trecgen.zscores_file(rng, case.qrels_topics, labels))
    compare(trec_eval, [*opts, "-Z", "zscores", "qrels", "run"], tmp_path, monkeypatch)


# ------------------------------------------------------------------ bad inputs ----

BAD = [
    ("no_zscore_file", ["-Z", "nosuchfile", "qrels", "run"]),
    ("no_run_file", ["qrels", "nosuchfile"]),
    ("no_qrels_file", ["nosuchfile", "run"]),
    ("empty_run", ["qrels", "empty"]),
    ("empty_qrels", ["empty", "run"]),
    ("unknown_measure", ["-m", "nosuch", "qrels", "run"]),
    ("bad_rel_format", ["-R", "bogus", "qrels", "run"]),
    ("bad_results_format", ["-T", "bogus", "qrels", "run"]),
    ("one_file", ["qrels"]),
    ("three_files", ["qrels", "run", "run"]),
    ("run_as_qrels", ["run", "run"]),
    ("qrels_as_run", ["qrels", "qrels"]),
    ("prefs_measure_on_qrels", ["-m", "prefs_simp", "qrels", "run"]),
    ("jg_measure_on_qrels", ["-m", "map_avgjg", "qrels", "run"]),
    ("no_common_topic", ["qrels", "other_run"]),
    ("bad_cutoff", ["-m", "P.0", "qrels", "run"]),
    ("bad_gain", ["-m", "ndcg.1=", "qrels", "run"]),
    ("empty_param", ["-m", "P.", "qrels", "run"]),
]


#: Command lines that print the usage message: inexeval's is its own text (docs/trec-eval.md §7), so
#: only the status and standard output are compared there.
USAGE_CASES = {"one_file", "three_files"}


@pytest.mark.parametrize("name, argv", BAD, ids=[b[0] for b in BAD])
def test_bad_input(trec_eval, tmp_path, monkeypatch, name, argv):
    files, _ = make_files("complete", random.Random(f"bad/{name}"))
    files["empty"] = ""
    files["other_run"] = "nosuchtopic Q0 d1 1 1.0 r\n"
    trecgen.write_case(tmp_path, files)
    if name in USAGE_CASES:
        from inexeval.dropins.trec_eval.options import USAGE

        want = run_oracle(trec_eval, argv, tmp_path)
        monkeypatch.chdir(tmp_path)
        got = run_inexeval(argv)
        assert (got.status, got.stdout) == (want.status, want.stdout) == (1, b"")
        assert want.stderr.startswith(b"Usage: trec_eval ") and got.stderr == USAGE.encode()
        return
    compare(trec_eval, argv, tmp_path, monkeypatch)


#: Command lines that glibc's getopt refuses: its message (first line) names the program by its argv[0],
#: which inexeval words as ``trec_eval`` (docs/trec-eval.md §7); the usage text after it is inexeval's.
GETOPT = [
    ("invalid_short", ["-x", "qrels", "run"]),
    ("unrecognized_long", ["--nosuch", "qrels", "run"]),
    ("unrecognized_long_value", ["--nosuch=3", "qrels", "run"]),
    ("ambiguous", ["--R", "qrels", "qrels", "run"]),
    ("ambiguous_prefix", ["--Re", "qrels", "qrels", "run"]),
    ("ambiguous_value", ["--R=qrels", "qrels", "run"]),
    ("long_needs_value", ["qrels", "run", "--measure"]),
    ("short_needs_value", ["qrels", "run", "-m"]),
    ("long_takes_none", ["--nosummary=1", "qrels", "run"]),
]


@pytest.mark.parametrize("name, argv", GETOPT, ids=[g[0] for g in GETOPT])
def test_getopt_messages(trec_eval, tmp_path, monkeypatch, name, argv):
    files, _ = make_files("complete", random.Random(f"getopt/{name}"))
    trecgen.write_case(tmp_path, files)
    want = run_oracle(trec_eval, argv, tmp_path)
    monkeypatch.chdir(tmp_path)
    got = run_inexeval(argv)
    assert (got.status, got.stdout) == (want.status, want.stdout) == (1, b"")
    first = want.stderr.splitlines(keepends=True)[0]
    assert first.startswith(str(trec_eval).encode() + b": ")
    assert got.stderr.splitlines(keepends=True)[0] == b"trec_eval" + first[len(str(trec_eval)):]


# ------------------------------------------------------------------ the generator ----

def test_generator_covers_the_shapes():
    """The cases above really hold the shapes the module promises (so a pass means something)."""
    shapes: set[str] = set()
    for name, _, kind in OPTION_SETS:
        for seed in range(SEEDS):
            shapes |= make_files(kind, random.Random(f"{name}/{seed}"))[1].shapes
    want = {"topic:qrels_only", "topic:run_only", "run:long", "run:single", "run:duplicate", "qrels:comment",
            "run:comment", "run:tag_changes", "run:awkward", "run:awkward_ranking"} | {f"score:{m}" for m in trecgen.SCORE_MODES} \
        | {f"rel:{s}" for s in list(trecgen.LEVEL_SCHEMES) + ["few"]} \
        | {f"docno:{s}" for s in ("short", "long", "case", "mixed")}
    assert want - shapes == set()
