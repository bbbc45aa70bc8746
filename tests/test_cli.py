"""End-to-end: the CLI on docs/measures.md's T1 written as INEX XML, exit statuses, formats, outputs."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from fractions import Fraction as F
from pathlib import Path

import pytest
from click.testing import CliRunner

from helpers import assert_close
from inexeval.cli.command import main
from inexfiles import write_config, write_run, write_t1_assessments
from t1data import R1, R2


def read_tsv(path: Path) -> dict[tuple[str, str], str]:
    out = {}
    for line in path.read_text().splitlines():
        m, t, v = line.split("\t")
        out[(m, t)] = v
    return out


@pytest.fixture
def t1_setup(tmp_path):
    write_t1_assessments(tmp_path / "assess" / "main" / "pool-11.xml")
    write_run(tmp_path / "runs" / "r1.xml", "R1", R1)
    write_run(tmp_path / "runs" / "r2.xml", "R2", R2)

    def config(task="CO.Thorough", **extra):
        keys = dict(task=task, assessments_dir="assess", submissionruns_dir="runs", results_dir="out",
                    dcv="5, 10")
        keys.update(extra)
        return str(write_config(tmp_path / "c.prop", **keys))

    return tmp_path, config


def invoke(*args):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def test_thorough_example3_end_to_end(t1_setup):
    tmp, config = t1_setup
    res = invoke("-config", config(quant_functions="gen"), "-q")
    assert res.exit_code == 0, res.output
    v = read_tsv(tmp / "out" / "CO.Thorough" / "gen_off" / "R1.tsv")
    # Example 3 (gen, overlap off): full precision in the file
    assert_close(float(v[("MAep", "1")]), F(16349, 32400), "MAep")
    assert_close(float(v[("MAep", "all")]), F(16349, 32400), "MAep average of one topic")
    assert_close(float(v[("iMAep", "1")]), F(98207171, 216000000), "iMAep")
    assert_close(float(v[("Q", "1")]), F(31788571, 50386050), "Q")
    assert_close(float(v[("R", "1")]), F(437, 587), "R")
    assert_close(float(v[("nxCG@10", "1")]), F(227, 317), "nxCG@10")
    assert_close(float(v[("MAnxCG@5", "1")]), F(17471, 25200), "MAnxCG@5")
    assert_close(float(v[("ep@0.30", "1")]), F(343, 480), "ep@0.30")
    assert_close(float(v[("nxCG@15", "1")]), F(227, 317), "first nxCG curve rank 15")
    assert v[("MAep", "1")] == repr(float(v[("MAep", "1")]))  # repr: full precision
    # printed with 4 decimals, per topic and average
    assert "0.5046" in res.output and "R1" in res.output
    summary = (tmp / "out" / "CO.Thorough" / "summary.tsv").read_text().splitlines()
    assert summary[0].startswith("run\tsetting\tnxCG@5")
    assert {row.split("\t")[0] for row in summary[1:]} == {"R1", "R2"}
    data = json.loads((tmp / "out" / "CO.Thorough" / "summary.json").read_text())
    assert_close([d for d in data if d["run"] == "R1"][0]["measures"]["Q"], F(31788571, 50386050), "json Q")


def test_focussed_examples_4_and_5_end_to_end(t1_setup):
    tmp, config = t1_setup
    assert invoke("-config", config(task="CO.Focussed", quant_functions="gen")).exit_code == 0
    v = read_tsv(tmp / "out" / "CO.Focussed" / "gen_on" / "R1.tsv")
    assert_close(float(v[("MAep", "1")]), F(2431, 6000), "Example 4 MAep")
    assert_close(float(v[("Q", "1")]), F(26759, 39600), "Example 4 Q")
    assert invoke("-config", config(task="CO.Focussed", quant_functions="gen", alpha="0.5")).exit_code == 0
    v = read_tsv(tmp / "out" / "CO.Focussed" / "gen_on" / "R1.tsv")
    assert_close(float(v[("MAep", "1")]), F(4157, 8640), "Example 5 MAep")
    assert_close(float(v[("iMAep", "1")]), F(2676011, 6400000), "Example 5 iMAep")


def test_fetchbrowse_example8_9_end_to_end(t1_setup):
    tmp, config = t1_setup
    assert invoke("-config", config(task="CO.FetchBrowse", quant_functions="gen")).exit_code == 0
    on = read_tsv(tmp / "out" / "CO.FetchBrowse" / "gen_on" / "R2.tsv")
    off = read_tsv(tmp / "out" / "CO.FetchBrowse" / "gen_off" / "R2.tsv")
    for v in (on, off):
        assert_close(float(v[("article.MAep", "1")]), F(11, 24), "article.MAep")
        assert_close(float(v[("article.iMAep", "1")]), F(18767, 48000), "article.iMAep")
    assert_close(float(off[("element.MAep", "1")]), F(5, 7), "element.MAep off")
    assert_close(float(on[("element.iMAep", "1")]), F(1039, 1200), "element.iMAep on")


def test_several_settings_each_written(t1_setup):
    tmp, config = t1_setup
    assert invoke("-config", config(quant_functions="gen, strict, genLifted", overlap="on, off")).exit_code == 0
    settings = sorted(p.name for p in (tmp / "out" / "CO.Thorough").iterdir() if p.is_dir())
    assert settings == sorted(f"{q}_{o}" for q in ("gen", "strict", "genLifted") for o in ("on", "off"))


def test_empty_as_zero_and_undefined_topic(t1_setup):
    tmp, config = t1_setup
    # topic 2 in the recall-base, missing from the runs; topic 3 has nothing relevant under strict
    write_t1_assessments(tmp / "assess" / "main" / "pool-12.xml", topic="2", pool="12")
    (tmp / "assess" / "main" / "pool-13.xml").write_text(
        '<assessments pool="13" topic="3"><file name="x"><element path="/article[1]" exhaustivity="1" '
        'size="10" rsize="5"/></file></assessments>')
    res = invoke("-config", config(quant_functions="strict, gen"), "-e", "-q")
    assert res.exit_code == 0
    assert "nothing relevant under strict_off" in res.output  # mix_stderr default: one warning
    v = read_tsv(tmp / "out" / "CO.Thorough" / "gen_off" / "R1.tsv")
    assert v[("MAep", "2")] == "0.0" and v[("MAep", "3")] == "0.0"
    assert_close(float(v[("MAep", "all")]), F(16349, 32400) / 3, "-e: (MAep + 0 + 0)/3")
    s = read_tsv(tmp / "out" / "CO.Thorough" / "strict_off" / "R1.tsv")
    assert s[("MAep", "3")] == "-"
    res = invoke("-config", config(quant_functions="gen"))
    v = read_tsv(tmp / "out" / "CO.Thorough" / "gen_off" / "R1.tsv")
    assert ("MAep", "2") not in v  # without -e only the run's topics are written and averaged
    assert_close(float(v[("MAep", "all")]), F(16349, 32400), "without -e")


def test_bad_config_exit_2_all_errors(tmp_path):
    cfg = tmp_path / "bad.prop"
    cfg.write_text("TASK: CO.Thorogh\nMETRIX: nxcg\nALPHA: 2\n")
    res = CliRunner().invoke(main, ["-config", str(cfg)])
    assert res.exit_code == 2
    assert "bad.prop:1" in res.output and "bad.prop:2" in res.output and "bad.prop:3" in res.output
    assert "METRICS" in res.output  # did you mean
    assert "Traceback" not in res.output


def test_missing_config_and_no_args():
    res = CliRunner().invoke(main, ["-config", "/nonexistent/x.prop"])
    assert res.exit_code == 2 and "Traceback" not in res.output
    res = CliRunner().invoke(main, [])
    assert res.exit_code == 2 and "-config" in res.output


def test_bad_run_skipped_others_scored_exit_1(t1_setup):
    tmp, config = t1_setup
    (tmp / "runs" / "broken.xml").write_text("<inex-submission run-id='b'>\n<topic topic-id='1'>\n<result>")
    res = CliRunner().invoke(main, ["-config", config(quant_functions="gen")])
    assert res.exit_code == 1
    assert "broken.xml:" in res.output and "skipped" in res.output
    assert (tmp / "out" / "CO.Thorough" / "gen_off" / "R1.tsv").exists()
    assert (tmp / "out" / "CO.Thorough" / "gen_off" / "R2.tsv").exists()


def test_formats_set_and_results_dir(t1_setup):
    tmp, config = t1_setup
    res = invoke("-config", config(), "--format", "json", "--set", "QUANT_FUNCTIONS=strict",
                 "--results-dir", str(tmp / "elsewhere"), "--quiet")
    rows = json.loads(res.output)
    assert {r["setting"] for r in rows} == {"strict_off"} and {r["run"] for r in rows} == {"R1", "R2"}
    assert (tmp / "elsewhere" / "CO.Thorough" / "strict_off" / "R1.tsv").exists()
    res = invoke("-config", config(quant_functions="gen"), "--format", "tsv", "--quiet")
    lines = res.output.splitlines()
    assert lines[0].split("\t")[:4] == ["task", "setting", "run", "topic"]
    r1 = [line for line in lines if "\tR1\t" in line][0].split("\t")
    assert_close(float(r1[lines[0].split("\t").index("MAep")]), F(16349, 32400), "tsv MAep")
    res = invoke("-config", config(quant_functions="gen"), "--format", "csv", "--quiet")
    assert res.output.splitlines()[0].startswith("task,setting,run,topic")


def test_deterministic_byte_identical_outputs(t1_setup):
    tmp, config = t1_setup
    c = config(quant_functions="gen, strict")
    invoke("-config", c, "--results-dir", str(tmp / "a"), "--quiet")
    invoke("-config", c, "--results-dir", str(tmp / "b"), "--quiet")
    fa = sorted(p.relative_to(tmp / "a") for p in (tmp / "a").rglob("*") if p.is_file())
    fb = sorted(p.relative_to(tmp / "b") for p in (tmp / "b").rglob("*") if p.is_file())
    assert fa == fb and fa
    for p in fa:
        assert (tmp / "a" / p).read_bytes() == (tmp / "b" / p).read_bytes()


def test_metrics_listing():
    res = invoke("metrics")
    for name in ("nxcg", "ep/gr", "q", "hixeval", "gp", "bepd"):
        assert name in res.output
    assert invoke("--list-metrics").output == res.output
    assert "-config" in invoke("--help").output


def test_graph_flags_write_files_and_plain_run_does_not_import_matplotlib(t1_setup):
    tmp, config = t1_setup
    c = config(quant_functions="gen")
    invoke("-config", c, "--quiet")
    assert not (tmp / "out" / "CO.Thorough" / "graphs").exists()
    code = ("import sys\nfrom inexeval.cli.command import main\ntry:\n    main(['-config', sys.argv[1], '--quiet'])\n"
            "except SystemExit as e:\n    print('exit', e.code)\nprint('matplotlib' in sys.modules)\n")
    out = subprocess.run([sys.executable, "-c", code, c], capture_output=True, text=True).stdout
    assert out.splitlines()[-2:] == ["exit 0", "False"]
    invoke("-config", c, "-gnu", "-png", "--quiet")
    names = {p.name for p in (tmp / "out" / "CO.Thorough" / "graphs").iterdir()}
    assert {"ep-gr_gen_off.dat", "ep-gr_gen_off.gp", "ep-gr_gen_off.png", "nxCG_gen_off.png"} <= names


class _Stream:
    def __init__(self, tty):
        self.tty, self.text = tty, ""

    def isatty(self):
        return self.tty

    def write(self, s):
        self.text += s

    def flush(self):
        pass


def test_progress_bar_only_on_a_terminal_with_many_runs():
    from inexeval.cli.command import progress

    for tty, n, quiet, shown in [(True, 10, False, True), (False, 10, False, False), (True, 10, True, False),
                                 (True, 2, False, False)]:
        s = _Stream(tty)
        with progress(n, quiet, s) as tick:
            for _ in range(n):
                tick("run")
        assert ("scoring runs" in s.text) == shown, (tty, n, quiet)


def test_jobs_give_identical_output(tmp_path):
    root = Path(__file__).resolve().parent.parent
    runs = tmp_path / "runs"
    shutil.copytree(root / "sample_data" / "inex2005" / "runs" / "CO", runs)
    (runs / "zz-broken.xml").write_text("<inex-submission><topic topic-id='202'><result>")
    shutil.copy(runs / "Medium.xml", runs / "Medium-again.xml")  # a duplicate run id
    cfg = str(root / "configs" / "co-focussed.prop")
    outs = []
    for jobs in ("1", "2", "3"):
        res = CliRunner().invoke(main, ["-config", cfg, "--set", f"SUBMISSIONRUNS_DIR={runs}", "--jobs", jobs,
                                        "--results-dir", str(tmp_path / jobs), "-q"])
        assert res.exit_code == 1  # the broken run and the duplicate id are skipped
        files = {p.relative_to(tmp_path / jobs): p.read_bytes()
                 for p in (tmp_path / jobs).rglob("*") if p.is_file()}
        outs.append((res.output, files))
    assert outs[0] == outs[1] == outs[2]
    assert "zz-broken.xml" in outs[0][0] and "Medium-again.xml" in outs[0][0]


def test_validate_command_exit_status_and_json(t1_setup):
    tmp, _ = t1_setup
    good = write_run(tmp / "v" / "good.xml", "G", ["S1", "P3", "B1"], task="CO.Focussed")
    bad = write_run(tmp / "v" / "bad.xml", "B", ["S1", "P1", "S1"], task="CO.Focussed")  # overlap + duplicate
    res = CliRunner().invoke(main, ["validate", str(good), "--task", "CO.Focussed",
                                    "--assessments", str(tmp / "assess")])
    assert res.exit_code == 0 and "VALID" in res.output
    res = CliRunner().invoke(main, ["validate", str(good), str(bad), "--format", "json"])
    assert res.exit_code == 1
    reports = {r["run_id"]: r for r in json.loads(res.output)}
    assert reports["G"]["valid"] and not reports["B"]["valid"]
    # the duplicate is left out by evaluation (a problem); the overlap is scored as submitted (a warning)
    assert {f["kind"] for f in reports["B"]["problems"]} == {"duplicate"}
    assert "overlap" in {f["kind"] for f in reports["B"]["warnings"]}
    res = CliRunner().invoke(main, ["validate", str(good), "--task", "CO.Focused2"])
    assert res.exit_code == 2 and "Traceback" not in res.output


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_run_ids_that_share_a_file_name_collide(t1_setup, jobs):
    """Workers write each run's files under temporary names; the parent renames them, the first
    run with a file name keeping it and a later one's getting its id's hash (docs/formats.md §9.2.2),
    whichever worker finished first."""
    from inexeval.names import id_hash

    tmp, config = t1_setup
    write_run(tmp / "runs" / "r3.xml", "R 1", R1)  # "R 1" and "R_1" both write R_1.tsv
    write_run(tmp / "runs" / "r4.xml", "R_1", R2)
    res = CliRunner().invoke(main, ["-config", config(quant_functions="gen"), "--jobs", jobs])
    assert res.exit_code == 0, res.output
    # the line is that of <inex-submission run-id=...>, line 2 of write_run's file
    assert f"r4.xml:2: run id 'R_1' written as 'R_1~{id_hash('R_1')}', as run id 'R 1' (" in res.output
    assert "r3.xml:2: run id 'R 1' written as 'R_1'" in res.output
    v = read_tsv(tmp / "out" / "CO.Thorough" / "gen_off" / "R_1.tsv")
    assert_close(float(v[("MAep", "1")]), F(16349, 32400), "the first run keeps its file")
    w = read_tsv(tmp / "out" / "CO.Thorough" / "gen_off" / f"R_1~{id_hash('R_1')}.tsv")
    assert w != v, "the second run has its own file"
    assert not [p for p in (tmp / "out").rglob("*") if p.name.endswith(".tmp")], "no temporary file is left"
