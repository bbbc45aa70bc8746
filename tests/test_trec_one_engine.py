"""One classic engine: a ``TASK: trec`` config printed with ``--format trec_eval --digits 4`` prints,
run by run, exactly the lines ``inexeval trec-eval`` prints with the corresponding options (``-e`` =
``-c``, ``REL_LEVEL`` = ``-l``, ``MAX_RESULTS`` = ``-M``, ``TREC_EVAL_VERSION`` =
``--trec-eval-version``), on the shipped sample and on random inputs (tests/trecgen.py).

Where trec_eval stops (a qrels topic the run lacks, without ``-c``) the config still scores the run,
over the topics it has: that is the drop-in's output on the qrels of those topics.
"""

from __future__ import annotations

import io
import random
from pathlib import Path

import pytest
from click.testing import CliRunner

from inexeval.cli.command import main as cli_main
from inexeval.measures.trec_catalogue import trec_eval_set
from inexeval.dropins.trec_eval.cli import main as trec_eval_main
import trecgen

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "sample_data" / "trec"
#: trec_eval's all_trec set: the drop-in's -m, and as METRICS (relstring is text: the drop-in prints
#: it, a config cannot; its lines are left out of the comparison)
ALL_TREC = (["all_trec"], [lab for lab in trec_eval_set("all_trec") if lab not in ("runid", "num_q", "relstring")])
#: a list of measures; a config's output opens each run with runid and num_q (it may hold several
#: runs), as the drop-in's does with -m runid -m num_q
SOME = (["runid", "num_q", "map", "P.5", "ndcg_cut.3", "set_map", "bpref", "11pt_avg"],
        ["map", "P_5", "ndcg_cut_3", "set_map", "bpref", "11pt_avg"])


def drop_in(argv: list[str]) -> tuple[int, str]:
    out, err = io.BytesIO(), io.StringIO()
    status = trec_eval_main(argv, out, err)
    return status, out.getvalue().decode("utf-8", "surrogateescape")


def config_output(tmp_path: Path, qrels: Path, run: Path, keys: dict[str, str], flags: list[str]) -> str:
    cfg = tmp_path / "c.prop"
    lines = ["TASK: trec", f"ASSESSMENTS_DIR: {qrels}", f"SUBMISSIONRUNS_DIR: {run}",
             f"RESULTS_DIR: {tmp_path / 'results'}"] + [f"{k}: {v}" for k, v in keys.items()]
    cfg.write_text("\n".join(lines) + "\n")
    res = CliRunner().invoke(cli_main, ["-config", str(cfg), "--format", "trec_eval", "--digits", "4", "--quiet",
                                        *flags])
    assert res.exit_code == 0, res.output
    return res.stdout


def without_runid(text: str) -> list[str]:
    """The lines but runid's (a run whose id changes on its last line: trec_eval prints the last one,
    a config names the run by its file) and relstring's."""
    return [line for line in text.splitlines() if not line.startswith(("runid ", "relstring "))]


def restricted_qrels(qrels: Path, run: Path, out: Path) -> Path:
    """QRELS with only the topics RUN has (what a config without -e averages over)."""
    topics = {line.split()[0] for line in run.read_text().splitlines() if line.strip() and not line.lstrip().startswith("#")}
    keep = [line for line in qrels.read_text().splitlines(keepends=True)
            if line.strip() and not line.startswith("#") and line.split()[0] in topics]
    out.write_text("".join(keep))
    return out


def compare(tmp_path: Path, qrels: Path, run: Path, *, complete=False, level=1, cut=None, metrics=None,
            version="10.0", per_topic=True) -> None:
    argv = (["-q"] if per_topic else []) + (["-c"] if complete else []) + ["-l", str(level)]
    keys = {"REL_LEVEL": str(level), "TREC_EVAL_VERSION": version}
    flags = (["-q"] if per_topic else []) + (["-e"] if complete else [])
    if cut is not None:
        argv += ["-M", str(cut)]
        keys["MAX_RESULTS"] = str(cut)
    if version != "10.0":
        argv.append(f"--trec-eval-version={version}")
    if metrics is not None:
        for m in metrics[0]:
            argv += ["-m", m]
        keys["METRICS"] = ", ".join(metrics[1])
    status, want = drop_in(argv + [str(qrels), str(run)])
    if status == 4 and not complete:  # a qrels topic the run lacks: trec_eval stops, the config does not
        only = restricted_qrels(qrels, run, tmp_path / "only-run-topics")
        status, want = drop_in(argv + [str(only), str(run)]) if only.stat().st_size else (7, "")
    if status == 7:  # no topic of the run is judged: trec_eval stops, the config's averages are undefined
        got = config_output(tmp_path, qrels, run, keys, flags)
        assert [line.split()[0] for line in got.splitlines()] == ["runid", "num_q"], got
        return
    assert status == 0, want
    got = config_output(tmp_path, qrels, run, keys, flags)
    assert without_runid(got) == without_runid(want), f"{argv}"


@pytest.mark.parametrize("options", [
    {}, {"complete": True}, {"level": 2}, {"cut": 5}, {"metrics": ALL_TREC}, {"metrics": ALL_TREC, "complete": True},
    {"version": "9.0.8"}, {"level": 2, "complete": True, "cut": 3, "metrics": ALL_TREC},
], ids=lambda o: ",".join(f"{k}={'all_trec' if k == 'metrics' else v}" for k, v in o.items()) or "default")
@pytest.mark.parametrize("run", ["good", "medium", "poor"])
def test_sample_config_prints_the_drop_in_lines(tmp_path, run, options):
    compare(tmp_path, SAMPLE / "qrels.txt", SAMPLE / "runs" / f"{run}.txt", **options)


@pytest.mark.parametrize("seed", range(40))
def test_random_config_prints_the_drop_in_lines(tmp_path, seed):
    rng = random.Random(seed)
    case = trecgen.qrels_and_run(rng)
    files = trecgen.write_case(tmp_path, {"qrels": case.qrels, "run": case.run})
    options = dict(complete=rng.random() < 0.5, level=rng.choice([1, 1, 2]),
                   cut=rng.choice([None, None, 1, 4, 20]), version=rng.choice(["10.0", "10.0", "9.0.8"]),
                   metrics=rng.choice([None, ALL_TREC, SOME]))
    compare(tmp_path, files["qrels"], files["run"], **options)
