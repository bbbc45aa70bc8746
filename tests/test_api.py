"""The Python API (inexeval.evaluate, inexeval.measures, Results) and the workflows the CLI calls."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from fractions import Fraction as F
from pathlib import Path

import pytest
from click.testing import CliRunner

import inexeval
from helpers import assert_close
from inexeval.api import EvalOptions, metrics_text, run_evaluation
from inexeval.cli.command import main
from inexeval.compare.workflow import CompareOptions, run_compare
from inexeval.errors import ConfigError
from inexfiles import write_config, write_run, write_t1_assessments
from t1data import R1, R2

ROOT = Path(__file__).resolve().parent.parent
THOROUGH = ROOT / "configs" / "co-thorough.prop"
TREC = ROOT / "configs" / "trec.prop"


def cli(*args) -> str:
    res = CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)
    assert res.exit_code == 0, res.output
    return res.output


def files_of(root: Path) -> dict[Path, bytes]:
    return {p.relative_to(root): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def read_result_files(out: Path) -> dict[tuple[str, str], dict[tuple[str, str], str]]:
    """{(setting, run file stem): {(measure, topic): value text}} of every per-run file."""
    found = {}
    for p in out.glob("*/*.tsv"):
        found[p.parent.name, p.stem] = {tuple(line.split("\t")[:2]): line.split("\t")[2]
                                        for line in p.read_text().splitlines()}
    return found


def as_text(v) -> str:
    return "-" if v is None else repr(float(v))


@pytest.mark.parametrize("config, task, flags", [(THOROUGH, "CO.Thorough", ()), (THOROUGH, "CO.Thorough", ("-e",)),
                                                 (TREC, "trec", ()), (TREC, "trec", ("-e",))])
def test_values_equal_the_result_files_the_cli_writes(tmp_path, config, task, flags):
    cli("-config", config, "--results-dir", tmp_path, "--quiet", *flags)
    files = read_result_files(tmp_path / task)
    res = inexeval.evaluate(config, empty_as_zero="-e" in flags)
    assert res.problems == [] and len(res) == len(files) > 0
    assert set(files) == {(s, r) for r in res.runs for s in res.settings}
    for (setting, run), values in files.items():
        got = {(m, "all"): as_text(v) for m, v in res.average(run, setting).items()}
        for topic, row in res.per_topic(run, setting).items():
            got.update({(m, topic): as_text(v) for m, v in row.items()})
        assert got == values, (setting, run)  # every measure, every topic, the same float
        for (m, topic), text in values.items():
            assert as_text(res.value(run, m, setting, topic=topic)) == text


@pytest.fixture
def t1_config(tmp_path):
    write_t1_assessments(tmp_path / "assess" / "main" / "pool-11.xml")
    write_run(tmp_path / "runs" / "r1.xml", "R1", R1)
    write_run(tmp_path / "runs" / "r2.xml", "R2", R2)
    return write_config(tmp_path / "c.prop", task="CO.Thorough", assessments_dir="assess",
                        submissionruns_dir="runs", results_dir="out", quant_functions="gen", dcv="5, 10")


def test_example3_through_the_api(t1_config):
    """docs/measures.md Example 3 (T1, gen, overlap off)."""
    res = inexeval.evaluate(t1_config)
    assert res.runs == ["R1", "R2"] and res.settings == ["gen_off"]
    assert_close(res.value("R1", "MAep"), F(16349, 32400), "MAep")
    assert_close(res.average("R1")["iMAep"], F(98207171, 216000000), "iMAep")
    assert_close(res.per_topic("R1")["1"]["Q"], F(31788571, 50386050), "Q")
    assert_close(res.value("R1", "MAnxCG@5", topic="1"), F(17471, 25200), "MAnxCG@5")
    assert_close(res.value("R1", "ep@0.30"), F(343, 480), "ep@0.30")
    assert not (t1_config.parent / "out").exists()  # nothing written without write=True


def test_overrides_are_config_keys(t1_config):
    res = inexeval.evaluate(t1_config, QUANT_FUNCTIONS=["strict", "gen"], METRICS="q", DCV=[5], ALPHA=1)
    assert res.settings == ["strict_off", "gen_off"] and res.measures == ["Q", "R"]
    assert_close(res.value("R1", "Q", "gen_off"), F(31788571, 50386050), "Q under gen")
    full = inexeval.evaluate(t1_config, QUANT_FUNCTIONS="strict")
    assert res.average("R2", "strict_off") == {m: full.value("R2", m, "strict_off") for m in ("Q", "R")}
    # lower-case keys and old EvalJ names work as with --set; errors name --set
    assert inexeval.evaluate(t1_config, quant_functions="genLifted").settings == ["genLifted_off"]
    with pytest.raises(ConfigError, match="--set"):
        inexeval.evaluate(t1_config, QUANT_FUNCTIONS="fuzzy")
    with pytest.raises(ConfigError, match="NOT_A_KEY"):
        inexeval.evaluate(t1_config, NOT_A_KEY="1")
    with pytest.raises(TypeError, match="METRICS"):
        inexeval.evaluate(t1_config, METRICS=None)


def test_config_object_and_its_limits(t1_config, tmp_path):
    from inexeval.config.load import load_config

    config = load_config(t1_config)
    res = inexeval.evaluate(config, write=True, results_dir=tmp_path / "elsewhere")
    assert_close(res.value("R1", "MAep"), F(16349, 32400), "MAep")
    assert (tmp_path / "elsewhere" / "CO.Thorough" / "gen_off" / "R1.tsv").exists()
    with pytest.raises(TypeError, match="loaded Config"):
        inexeval.evaluate(config, METRICS="q")
    with pytest.raises(TypeError, match="config must be"):
        inexeval.evaluate(42)


def test_per_topic_settings_and_errors():
    res = inexeval.evaluate(THOROUGH, DCV="10")
    topics = list(res.per_topic("Medium", "gen_off"))
    assert topics == sorted(topics, key=int) and len(topics) > 1
    assert set(res.per_topic("Medium", "gen_off")[topics[0]]) == set(res.outputs)
    with pytest.raises(ValueError, match="3 settings"):
        res.average("Medium")
    with pytest.raises(KeyError, match="Nope"):
        res.average("Nope", "gen_off")
    with pytest.raises(KeyError, match="no setting"):
        res.average("Medium", "gen_on")
    with pytest.raises(KeyError, match="no measure"):
        res.value("Medium", "map", "gen_off")
    with pytest.raises(KeyError, match="topic '999'"):
        res.value("Medium", "MAep", "gen_off", topic="999")
    # TASK trec scores a topic with nothing relevant as trec_eval does (sample topic 404): 0, and counted
    trec = inexeval.evaluate(TREC)
    assert trec.value("good", "map", topic="404") == 0.0 and trec.per_topic("good")["404"]["P_10"] == 0.0
    per_topic, total = trec.per_topic("good"), 0.0
    for t in sorted(per_topic):  # (added left to right, as trec_eval adds)
        total += per_topic[t]["map"]
    assert trec.value("good", "map") == total / 4


def test_rows_iteration_and_curves():
    res = inexeval.evaluate(THOROUGH)
    rows = res.to_rows()
    assert len(rows) == len(res) == len(res.runs) * len(res.settings)
    assert list(rows[0]) == ["run", "setting", "topic", *res.measures]
    for row in rows:
        assert row["topic"] == "all"
        assert {m: row[m] for m in res.measures} == {m: res.value(row["run"], m, row["setting"])
                                                    for m in res.measures}
    wide = res.to_rows(per_topic=True, measures=res.outputs)
    per_topic_rows = sum(len(r.per_topic) for r in res)
    assert len(wide) == len(rows) + per_topic_rows and len(wide[0]) == 3 + len(res.outputs)
    assert [(r.run_id, r.setting) for r in res] == [(row["run"], row["setting"]) for row in rows]
    (epgr,) = [c for c in res.curves("strict_off") if c.title == "ep/gr"]
    assert list(epgr.series) == res.runs and len(epgr.xs) == 100
    assert epgr.series["Poor"][29] == res.value("Poor", "ep@0.30", "strict_off")
    topic = next(iter(res.per_topic("Poor", "gen_off")))
    (one,) = [c for c in res.curves("gen_off", topic=topic) if c.title == "ep/gr"]
    assert one.series["Poor"][29] == res.value("Poor", "ep@0.30", "gen_off", topic=topic)


def test_write_gives_the_files_of_the_cli(tmp_path):
    cli("-config", THOROUGH, "--results-dir", tmp_path / "cli", "--quiet", "-e", "--set", "DCV=5,10")
    res = inexeval.evaluate(THOROUGH, write=True, results_dir=tmp_path / "api", empty_as_zero=True, DCV=[5, 10],
                            jobs=2)
    a, b = files_of(tmp_path / "cli"), files_of(tmp_path / "api")
    assert a == b and Path("CO.Thorough/.inexeval-stamp.json") in a and Path("CO.Thorough/summary.tsv") in a
    assert res.per_topic("Medium", "gen_off")  # per-topic values kept in memory too
    # the stamp written by the API lets `compare` reuse the files
    out = CliRunner().invoke(main, ["compare", "-config", str(THOROUGH), "--results-dir", str(tmp_path / "api"),
                                    "-e", "--set", "DCV=5,10"]).output
    assert "reusing up-to-date result files" in out


def test_bad_runs_are_problems_not_exceptions(t1_config):
    (t1_config.parent / "runs" / "broken.xml").write_text("<inex-submission run-id='b'>\n<topic topic-id='1'>")
    res = inexeval.evaluate(t1_config)
    assert res.runs == ["R1", "R2"] and len(res.problems) == 1 and "broken.xml" in str(res.problems[0])


def test_run_evaluation_is_what_the_cli_prints(t1_config, tmp_path):
    for fmt in ("table", "tsv", "json"):
        expected = cli("-config", t1_config, "-q", "--format", fmt, "--quiet", "--results-dir", tmp_path / "a")
        printed = []
        ev, status = run_evaluation(t1_config, EvalOptions(per_query=True, fmt=fmt, quiet=True,
                                                           results_dir=tmp_path / "b"),
                                    echo=lambda text="", err=False, nl=True: printed.append(text + "\n" * nl))
        assert status == 0 and "".join(printed) == expected
        assert files_of(tmp_path / "a") == files_of(tmp_path / "b")
    with pytest.raises(ConfigError):
        run_evaluation(t1_config, EvalOptions(overrides=("TASK=Nope",)))


def test_run_compare_raises_and_prints_only_through_echo(tmp_path, capsys):
    opts = CompareOptions(results_dir=tmp_path, quiet=True, method="kendall")
    assert run_compare([THOROUGH], opts) == 0
    assert capsys.readouterr() == ("", "")  # no echo: nothing printed, files written
    assert (tmp_path / "CO.Thorough" / "correlations.json").exists()
    printed = []
    assert run_compare([THOROUGH], opts, echo=lambda text="", err=False, nl=True: printed.append(text)) == 0
    assert any("kendall correlation of measures" in t for t in printed)
    with pytest.raises(ConfigError, match="Nope"):
        run_compare([THOROUGH], CompareOptions(results_dir=tmp_path, runs=("Nope",)))
    runs = tmp_path / "runs"
    shutil.copytree(ROOT / "sample_data" / "inex2005" / "runs" / "CO", runs)
    (runs / "zz-broken.xml").write_text("<inex-submission><topic topic-id='202'><result>")
    assert run_compare([THOROUGH], CompareOptions(results_dir=tmp_path / "b", overrides=(f"SUBMISSIONRUNS_DIR={runs}",),
                                                  quiet=True)) == 1


def test_measures_listing():
    every = inexeval.measures()
    names = {m.name for m in every}
    assert {"nxcg", "ep/gr", "q", "gp", "bepd", "hixeval", "map", "P_k", "ndcg_cut_k"} <= names
    focussed = inexeval.measures("co.focused")  # any case, Focused = Focussed
    assert {m.name for m in focussed} >= {"nxcg", "ep/gr", "q", "hixeval"}
    assert all("CO.Focussed" in m.tasks and "focussed" in m.strategies for m in focussed)
    (q,) = [m for m in focussed if m.name == "q"]
    assert q.outputs == q.scalars == ("Q", "R") and q.config_keys == ("Q_BETA",) and "Sakai" in q.description
    (gp,) = [m for m in inexeval.measures("RelevantInContext") if m.name == "gp"]
    # outputs with the task's default DCV (5, 10, 25, 50 for Relevant in Context), else 10, 25, 50
    assert "gP@5" in gp.outputs and "gP@5" not in [m for m in every if m.name == "gp"][0].outputs
    trec = inexeval.measures("trec")
    assert {m.tasks for m in trec} == {("trec",)} and "map" in {m.name for m in trec}
    assert not {m.name for m in trec} & {"nxcg", "gp"}
    with pytest.raises(ConfigError, match="did you mean CO.Thorough"):
        inexeval.measures("CO.Thorogh")
    # the CLI's listing is made of the same records
    assert cli("metrics") == metrics_text() + "\n"
    for m in every:
        assert m.name in metrics_text()


def test_import_is_light_and_names_stay_the_api():
    code = ("import sys, inexeval\n"
            "print(sorted(m for m in ('numpy', 'lxml', 'yaml', 'inexeval.api') if m in sys.modules))\n"
            "from inexeval.engine import Scorer\n"  # the engine, and the measures package named like the API function
            "from inexeval.measures import registry\n"
            "print(callable(inexeval.evaluate), callable(inexeval.measures), inexeval.Results.__name__)\n"
            "from inexeval import evaluate, measures\n"
            "print(evaluate is inexeval.api.evaluate, measures is inexeval.api.measures)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                         env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert out.stderr == "" and out.stdout.splitlines() == ["[]", "True True Results", "True True"]
    version = subprocess.run([sys.executable, "-X", "importtime", "-m", "inexeval", "--version"],
                             capture_output=True, text=True, cwd=ROOT, env={"PYTHONPATH": str(ROOT)})
    assert version.stdout.startswith("inexeval, version")
    imported = {line.rsplit("|", 1)[-1].strip() for line in version.stderr.splitlines()}
    assert not imported & {"numpy", "lxml", "yaml"}


def test_summary_written_by_write_matches_averages(tmp_path):
    res = inexeval.evaluate(TREC, write=True, results_dir=tmp_path)
    rows = json.loads((tmp_path / "trec" / "summary.json").read_text())
    assert {r["run"] for r in rows} == set(res.runs)
    for r in rows:
        assert r["measures"] == res.average(r["run"])


def test_a_trec_job_loads_no_xml_parser_and_no_yaml(tmp_path):
    """Start-up (issue 16, target 6): the classic measures' modules, imported with every measure
    family, must not bring lxml in (it once came with the run-name helpers of the XML reader)."""
    code = ("import sys, atexit\n"
            "atexit.register(lambda: print(sorted(m for m in sys.modules if m in ('lxml', 'yaml', 'numpy',"
            " 'inexeval.measures.classic_join'))))\n"
            f"sys.argv = ['inexeval', '-config', {str(ROOT / 'configs' / 'trec.prop')!r}, '--quiet',"
            f" '--results-dir', {str(tmp_path)!r}]\n"
            "from inexeval.cli.command import main\n"
            "main()\n")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                         env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.splitlines()[-1] == "['inexeval.measures.classic_join', 'numpy']"
