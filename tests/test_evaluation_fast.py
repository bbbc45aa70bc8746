"""The evaluation's command line without click (inexeval/cli/evaluation_fast.py): what it accepts,
click accepts with the same values, and the evaluation then prints, writes and exits as the click
command's does.  Everything else is left to click."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import click
import pytest

from inexeval.api import EvalOptions
from inexeval.cli import evaluation_fast
from inexeval.cli.command import main as click_main

ROOT = Path(__file__).resolve().parents[1]
CONFIG = str(ROOT / "configs" / "trec.prop")


def _click_params(argv: list[str]) -> tuple[dict, dict] | None:
    """The parameters click's command reads from ARGV: (those given, all of them with the defaults),
    or None when click refuses ARGV while parsing it."""
    try:
        ctx = click_main.make_context("inexeval", list(argv), resilient_parsing=False)
    except (click.UsageError, click.BadParameter):
        return None
    except click.exceptions.Exit:  # --help, --version
        return None
    return ({name: value for name, value in ctx.params.items()
             if ctx.get_parameter_source(name) is not click.core.ParameterSource.DEFAULT}, ctx.params)


def _click_options(full: dict) -> EvalOptions:
    """EvalOptions from click's parameters FULL, every field named (what evaluation_fast.options, which
    the click command uses too, must give from the parameters given alone)."""
    return EvalOptions(per_query=bool(full["per_query"]), empty_as_zero=bool(full["empty_as_zero"]),
                       gnuplot=bool(full["gnuplot"]), png=bool(full["png"]), topic_graphs=bool(full["topic_graphs"]),
                       fmt=full["fmt"], digits=full["digits"], jobs=full["jobs"], quiet=bool(full["quiet"]),
                       overrides=tuple(full["overrides"] or ()), results_dir=full["results_dir"],
                       incremental=bool(full["incremental"]), incremental_from=tuple(full["incremental_from"] or ()),
                       ci=full["ci"], ci_level=full["ci_level"], ci_samples=full["samples"], ci_seed=full["seed"])


def _tokens(rng: random.Random, tmp: Path) -> list[str]:
    """A command line from the fast path's options, their near misses and click's other options."""
    values = {
        "-config": [CONFIG, str(tmp), "", "-q", str(tmp / "missing.prop")],
        "--config": [CONFIG],
        "--jobs": ["1", "2", "12", "0", "01", "-1", "x", " 2", "+2"],
        "--results-dir": [str(tmp / "out"), str(tmp / "file.txt"), str(tmp), "", "--quiet"],
        "--format": ["table", "tsv", "json", "latex", "markdown", "trec_eval", "inex_eval", "csv", "bogus", "TSV"],
        "--set": ["DCV=5", "METRICS=map", "X", "", "-q", "A=B=C"],
        "--digits": ["4"], "--ci": ["t", "bootstrap"], "--seed": ["3"], "--samples": ["10"], "--ci-level": ["0.9"],
        "--incremental-from": [str(tmp)],
    }
    alone = [*evaluation_fast.FLAGS, "--list-metrics", "-h", "--version", "--", "compare", "-x", "--jobs=2",
             "--config=" + CONFIG, "-qe", "--per"]
    argv = ["-config", CONFIG] if rng.random() < 0.8 else []
    for _ in range(rng.randrange(0, 6)):
        if rng.random() < 0.55:
            option = rng.choice(sorted(values))
            argv += [option, rng.choice(values[option])] if rng.random() < 0.95 else [option]
        else:
            argv.append(rng.choice(alone) if rng.random() < 0.3 else rng.choice(list(evaluation_fast.FLAGS)))
    if rng.random() < 0.3:
        rng.shuffle(argv)
    return argv


def test_what_the_fast_path_accepts_click_reads_the_same(tmp_path):
    (tmp_path / "file.txt").write_text("x")
    rng = random.Random(35)
    accepted = refused = 0
    for _ in range(3000):
        argv = _tokens(rng, tmp_path)
        fast = evaluation_fast.parse(argv)
        if fast is None:
            refused += 1
            continue
        accepted += 1
        slow = _click_params(argv)
        assert slow is not None, argv
        given, full = slow
        assert given == fast, argv
        assert evaluation_fast.options(fast) == _click_options(full), argv
    # both kinds of command line were generated in numbers (the comparison above is not vacuous)
    assert accepted > 300 and refused > 300, (accepted, refused)


@pytest.mark.parametrize("argv", [
    ["-config", CONFIG, "-config", CONFIG],  # given twice: click refuses
    ["-config", CONFIG, "--jobs", "0"],
    ["-config", CONFIG, "--topic-graphs"],  # no effect without -q and -gnu/-png: click refuses
    ["-config", CONFIG, "--format", "trec_eval", "--digits", "4"],  # --digits: click's
    ["-config", CONFIG, "-h"],
    ["-config", CONFIG, "compare"],
    ["-config", "-q"],  # click reads "-q" as the config's name
    ["-config", str(ROOT / "configs")],  # a directory
    ["--config=" + CONFIG],
    ["-q", "-config", CONFIG, "--set"],
])
def test_left_to_click(argv):
    assert evaluation_fast.parse(argv) is None


def test_a_common_command_line_is_read_here():
    assert evaluation_fast.parse(["-config", CONFIG, "-q", "-e", "--quiet", "--jobs", "2", "--set", "A=1", "--set",
                                  "B=2", "--format", "tsv"]) == {
        "config_path": CONFIG, "per_query": True, "empty_as_zero": True, "quiet": True, "jobs": 2,
        "overrides": ("A=1", "B=2"), "fmt": "tsv"}


def _run(argv: list[str], cwd: Path, via_click: bool) -> subprocess.CompletedProcess:
    code = ("import sys; from inexeval.cli.command import main; main(sys.argv[1:], prog_name='inexeval')"
            if via_click else "import sys; from inexeval.launch import main; main()")
    env = dict(os.environ, COLUMNS="100", LC_ALL="C.UTF-8", PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-c", code, *argv], capture_output=True, cwd=cwd, env=env, timeout=300)


def _files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("case", ["trec", "trec-per-topic-tsv", "fol-inex-eval", "skipped-run", "bad-config",
                                  "unicode-run"])
def test_the_evaluation_prints_writes_and_exits_as_clicks(tmp_path, case):
    runs = tmp_path / "runs"
    runs.mkdir()
    for name in ("good.txt", "poor.txt"):
        (runs / name).write_bytes((ROOT / "sample_data" / "trec" / "runs" / name).read_bytes())
    qrels = ROOT / "sample_data" / "trec" / "qrels.txt"
    config = tmp_path / "c.prop"
    config.write_text(f"TASK: trec\nASSESSMENTS_DIR: {qrels}\nSUBMISSIONRUNS_DIR: {runs}\n")
    extra: list[str] = []
    if case == "trec-per-topic-tsv":
        extra = ["-q", "-e", "--format", "tsv", "--set", "METRICS=map,P_10"]
    elif case == "fol-inex-eval":
        config = ROOT / "configs" / "fol-focused.prop"
        extra = ["--format", "inex_eval", "-q"]
    elif case == "skipped-run":
        (runs / "broken.txt").write_text("301 Q0 doc 1\n")
    elif case == "bad-config":
        config.write_text("TASK: nonsense\n")
    elif case == "unicode-run":
        # a run id that is not ASCII: the table goes through click.echo itself
        text = (runs / "good.txt").read_text()
        (runs / "r\u00e9sum\u00e9.txt").write_text("".join(line.rsplit(None, 1)[0] + " r\u00e9sum\u00e9\n"
                                                             for line in text.splitlines()))
    results = {}
    for via_click in (False, True):
        out = tmp_path / f"results-{via_click}"
        argv = ["-config", str(config), "--results-dir", str(out), *extra]
        assert (evaluation_fast.parse(argv) is not None), argv
        proc = _run(argv, ROOT / "configs", via_click)
        results[via_click] = (proc.returncode, proc.stdout, proc.stderr.replace(str(out).encode(), b"<out>"),
                              _files(out) if out.exists() else {})
    fast, slow = results[False], results[True]
    assert fast[0] == slow[0] and fast[1] == slow[1] and fast[2] == slow[2]
    assert fast[3].keys() == slow[3].keys()
    for name in fast[3]:
        if name != "stamp.json":  # (when it was written)
            assert fast[3][name].replace(b"results-False", b"results-True") == slow[3][name], name
    expected_status = {"skipped-run": 1, "bad-config": 2}.get(case, 0)
    assert fast[0] == expected_status, fast[2].decode()
    assert fast[1] or expected_status == 2
    if case == "unicode-run":
        assert "r\u00e9sum\u00e9" in fast[1].decode()


#: runs ``inexeval`` and says, as the process ends (an exit handler: the command may end the process
#: without returning), whether click was loaded
_CLICK_PROBE = ("import atexit, sys\n"
                "atexit.register(lambda: sys.stderr.write(f'\\nclick loaded: {\"click\" in sys.modules}'))\n"
                "from inexeval.launch import main\n"
                "main()\n")


@pytest.mark.parametrize("first", [True, False])
def test_the_fast_path_loads_no_click(tmp_path, first):
    code = _CLICK_PROBE
    argv = ["-config", CONFIG, "--quiet", "--results-dir", str(tmp_path / "r")]
    if not first:  # -config anywhere on the line
        argv = argv[2:] + argv[:2]
    proc = subprocess.run([sys.executable, "-c", code, *argv], capture_output=True, text=True, cwd=ROOT / "configs",
                          env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert proc.stderr.endswith("click loaded: False"), proc.stderr
    assert "map" in proc.stdout


def test_a_subcommand_with_config_is_clicks(tmp_path):
    code = _CLICK_PROBE
    proc = subprocess.run([sys.executable, "-c", code, "validate", "-config", CONFIG], capture_output=True, text=True,
                          cwd=ROOT / "configs", env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert proc.stderr.endswith("click loaded: True"), proc.stderr
