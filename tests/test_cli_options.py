"""Issue 15: options and config keys that used to give a traceback, a wrong number or a silent choice.

- every ``--format`` works for every task family (or is refused, exit 2, with a message), with and
  without -q/-e; trec_eval's ``num_q`` is the number of topics scored;
- a selection (TOPICS, POOLS, QUERY_TYPE) matching nothing is a config error naming the key and where
  it was set; every unknown METRICS name is reported with the config's other errors;
- options given twice, or without effect with the others given, are refused on every command;
- ``compare``: ``--measure`` checked first; run twice, same exit status and same bad runs reported; pairs
  of runs with different topic sets say which topics were used and why a value is undefined.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from inexeval import records
from inexeval.cli.command import main

REPO = Path(__file__).resolve().parent.parent


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


@pytest.fixture(scope="module")
def sample(tmp_path_factory):
    """A copy of configs/ and sample_data/ (results written inside the copy)."""
    root = tmp_path_factory.mktemp("sample")
    shutil.copytree(REPO / "configs", root / "configs")
    shutil.copytree(REPO / "sample_data", root / "sample_data")
    return root


# --------------------------------------------------------------------------- --format x task


#: one config per task family: XCG, Best in Context, FOL Focused, FOL in context, trec
FAMILIES = ["co-thorough", "best-in-context", "fol-focused", "fol-relevant-in-context", "trec"]
FORMATS = ["table", "tsv", "csv", "json", "trec_eval", "inex_eval"]


@pytest.mark.parametrize("family", FAMILIES)
def test_every_format_works_or_is_refused_for_every_task(sample, family, tmp_path):
    config = sample / "configs" / f"{family}.prop"
    fol = family.startswith("fol")
    for fmt in FORMATS:
        for flags in ([], ["-q"], ["-q", "-e"]):  # -e alone takes the -q-less path again
            res = run("-config", config, "--format", fmt, *flags, "--results-dir", tmp_path / "out", "--quiet")
            label = (family, fmt, flags, res.output[-300:])
            assert "Traceback" not in res.output and not isinstance(res.exception, KeyError), label
            if fmt == "inex_eval" and not fol:
                assert res.exit_code == 2 and "--format inex_eval" in res.output and "FOL" in res.output, label
            else:
                assert res.exit_code == 0, label


@pytest.mark.parametrize("family", FAMILIES)
def test_trec_eval_num_q_is_the_number_of_topics_scored(sample, family, tmp_path):
    """num_q was 0 without -q (the per-topic values were already freed), and twice for FOL tasks."""
    config = sample / "configs" / f"{family}.prop"
    plain = run("-config", config, "--format", "trec_eval", "--results-dir", tmp_path / "a", "--quiet")
    per_topic = run("-config", config, "--format", "trec_eval", "-q", "--results-dir", tmp_path / "b", "--quiet")
    assert plain.exit_code == per_topic.exit_code == 0
    for out in (plain.output, per_topic.output):
        runs = out.split("runid                 \tall\t")[1:]
        assert runs
        for block in runs:
            num_q = [line for line in block.splitlines() if line.startswith("num_q ")]
            assert len(num_q) == 1, num_q
            assert int(num_q[0].split("\t")[2]) > 0
    # with -q: num_q counts the topics printed per topic for the run (the FOL tasks: the tool's own count,
    # every qrels topic, which the run need not answer)
    counted: list[int] = []
    topics: set[str] = set()
    for line in per_topic.output.splitlines():
        measure, topic, value = line.split("\t")
        if topic != "all":
            topics.add(topic)
        elif measure.strip() == "num_q":
            counted.append(int(value))
            if not family.startswith("fol"):
                assert int(value) == len(topics), (line, topics)
            topics = set()
    plain_num_q = [int(line.split("\t")[2]) for line in plain.output.splitlines() if line.startswith("num_q ")]
    assert plain_num_q == counted


def test_trec_eval_prints_fol_counts_as_integers(sample, tmp_path):
    res = run("-config", sample / "configs" / "fol-focused.prop", "--format", "trec_eval", "-q",
              "--results-dir", tmp_path, "--quiet")
    counts = [line.split("\t") for line in res.output.splitlines()
              if line.split("\t")[0].strip() in ("num_ret", "num_rel", "rel_size", "num_q")]
    assert counts and all(re.fullmatch(r"\d+", value) for _, _, value in counts), counts


def test_trec_eval_digits(sample, tmp_path):
    res = run("-config", sample / "configs" / "trec.prop", "--format", "trec_eval", "--digits", "3",
              "--results-dir", tmp_path, "--quiet")
    assert res.exit_code == 0
    values = [line.split("\t")[2] for line in res.output.splitlines() if line.startswith("map ")]
    assert values and all(re.fullmatch(r"\d\.\d{3}", v) for v in values)


# --------------------------------------------------------------------------- selections and METRICS


@pytest.mark.parametrize("key, value, family", [
    ("TOPICS", "999", "co-thorough"), ("POOLS", "nopool", "co-thorough"), ("QUERY_TYPE", "XX", "co-focussed"),
    ("TOPICS", "999", "fol-focused"),
])
def test_selection_matching_nothing_is_a_config_error_at_its_line(sample, tmp_path, key, value, family):
    text = (sample / "configs" / f"{family}.prop").read_text()
    text = "\n".join(line for line in text.splitlines() if not line.upper().startswith(key))
    config = sample / "configs" / f"sel-{key}-{family}.prop"
    config.write_text(text + f"\n{key}: {value}\n")
    line = len(text.splitlines()) + 1
    res = run("-config", config, "--results-dir", tmp_path)
    assert res.exit_code == 2, res.output
    assert f"{config}:{line}: {key}: " in res.output, res.output
    assert "ASSESSMENTS_DIR" not in res.output
    # the same from --set: named as --set
    res = run("-config", sample / "configs" / f"{family}.prop", "--set", f"{key}={value}", "--results-dir", tmp_path)
    assert res.exit_code == 2 and f"--set: {key}: " in res.output, res.output


def test_selection_keeping_some_topics_still_evaluates(sample, tmp_path):
    res = run("-config", sample / "configs" / "co-thorough.prop", "--set", "TOPICS=202,999",
              "--results-dir", tmp_path)
    assert res.exit_code == 0 and "TOPICS without an assessment file: 999" in res.output


def test_every_unknown_metrics_name_is_reported_with_the_other_errors(tmp_path, sample):
    config = tmp_path / "c.prop"
    config.write_text(f"TASK: CO.Thorough\nALPHA: 3\nMETRICS: q, nope, zilch\n"
                      f"ASSESSMENTS_DIR: {sample}/sample_data/inex2005/assessments/CO\n"
                      f"SUBMISSIONRUNS_DIR: {sample}/sample_data/inex2005/runs/CO\n")
    res = run("-config", config, "--results-dir", tmp_path / "out")
    assert res.exit_code == 2
    assert f"{config}:2: ALPHA:" in res.output
    assert f"{config}:3: METRICS: 'nope', 'zilch' are not measures of task CO.Thorough" in res.output
    assert not (tmp_path / "out").exists()


# --------------------------------------------------------------------------- options


@pytest.mark.parametrize("args, words", [
    (["-config", "C", "-config", "C"], "--config given more than once"),
    (["-config", "C", "--format", "json", "--format", "tsv"], "--format given more than once"),
    (["-config", "C", "--results-dir", "O", "--results-dir", "O"], "--results-dir given more than once"),
    (["-config", "C", "--set", "DCV=5", "--set", "dcv=6"], "--set: DCV is set twice"),
    (["-config", "C", "--set", "RESULTS_DIR=O", "--results-dir", "O"], "--results-dir and --set RESULTS_DIR"),
    (["compare", "-config", "C", "--set", "ALPHA=1", "--set", "ALPHA=0"], "--set: ALPHA is set twice"),
    (["-config", "C", "--digits", "3"], "Error: --digits rounds the values of --format trec_eval only; "
                                        "--format table rounds as its layout does (docs/formats.md §9.2.1)"),
    (["-config", "C", "--format", "json", "--digits", "3"], "Error: --digits rounds the values of --format trec_eval "
                                                            "only; --format json prints full precision"),
    (["-config", "C", "--topic-graphs", "-q"], "--topic-graphs"),
    (["-config", "C", "--topic-graphs", "-gnu"], "--topic-graphs"),
    (["--list-metrics", "-config", "C"], "--list-metrics"),
    (["-q", "compare", "-config", "C"], "not of 'inexeval compare'"),
    (["--quiet", "validate", "R"], "not of 'inexeval validate'"),
    (["compare", "-config", "C", "--samples", "50"], "--samples"),
    (["compare", "-config", "C", "--seed", "5"], "--seed"),
    (["compare", "-config", "C", "-png"], "-gnu and -png"),
    (["compare", "-config", "C", "--runs", "Medium,Medium"], "given twice"),
    (["compare", "-config", "C", "--measure", "Q", "--measure", "MAep"], "--measure given more than once"),
    (["compare", "-config", "C", "--test", "t", "--test", "bootstrap"], "--test given more than once"),
    (["validate", "R", "--task", "CO.Focussed", "--task", "Thorough"], "--task given more than once"),
    (["validate", "R", "--format", "json", "--format", "text"], "--format given more than once"),
    (["validate", "R", "--task", "FOL.Focused", "--max-results", "5"], "--max-results has no effect"),
    (["validate", "R", "--task", "trec", "--max-results", "5"], "--max-results has no effect"),
])
def test_repeated_and_ineffective_options_are_refused(sample, tmp_path, args, words):
    names = {"C": sample / "configs" / "co-thorough.prop", "O": tmp_path / "out",
             "R": sample / "sample_data" / "inex2005" / "runs" / "CO" / "Poor.xml"}
    res = run(*[names.get(a, a) for a in args])
    assert res.exit_code == 2, res.output
    assert words in res.output, res.output
    assert not (tmp_path / "out").exists()


def test_options_that_may_repeat_still_do(sample, tmp_path):
    config = sample / "configs" / "co-thorough.prop"
    res = run("-config", config, "-q", "-q", "--set", "DCV=5", "--set", "QUANT_FUNCTIONS=gen",
              "--results-dir", tmp_path / "a", "--quiet")
    assert res.exit_code == 0, res.output
    res = run("compare", "-config", config, "-config", sample / "configs" / "co-focussed.prop",
              "--results-dir", tmp_path / "b", "--quiet")
    assert res.exit_code == 0, res.output
    res = run("compare", "-config", config, "--test", "bootstrap", "--samples", "50", "--seed", "2",
              "--runs", "Medium,Poor", "-gnu", "--results-dir", tmp_path / "c", "--quiet")
    assert res.exit_code == 0, res.output


def test_debug_before_a_subcommand_is_honoured(sample, tmp_path):
    res = run("--debug", "compare", "-config", sample / "configs" / "co-thorough.prop", "--measure", "nope",
              "--results-dir", tmp_path)
    assert res.exit_code == 2
    assert "Traceback" in res.output  # what --debug after the subcommand shows


# --------------------------------------------------------------------------- compare


def test_compare_unknown_measure_is_refused_before_evaluating(sample, tmp_path):
    res = run("compare", "-config", sample / "configs" / "co-thorough.prop", "--measure", "nope",
              "--results-dir", tmp_path / "out")
    assert res.exit_code == 2 and "--measure: 'nope'" in res.output
    assert not (tmp_path / "out").exists()  # nothing evaluated, nothing written


def test_compare_measure_is_checked_in_every_config_before_evaluating(sample, tmp_path):
    res = run("compare", "-config", sample / "configs" / "co-thorough.prop", "-config",
              sample / "configs" / "trec.prop", "--measure", "MAep", "--results-dir", tmp_path / "out")
    assert res.exit_code == 2 and "trec.prop: --measure: 'MAep' is not a measure of trec" in res.output
    assert not (tmp_path / "out").exists()  # not even the first config was evaluated


def _with_bad_run(sample, tmp_path) -> Path:
    runs = tmp_path / "runs"
    shutil.copytree(sample / "sample_data" / "inex2005" / "runs" / "CO", runs)
    (runs / "Broken.xml").write_text("<inex-submission run-id='Broken'><topic topic-id='202'><result>")
    config = tmp_path / "c.prop"
    text = (sample / "configs" / "co-thorough.prop").read_text()
    text = re.sub(r"(?m)^SUBMISSIONRUNS_DIR:.*$", f"SUBMISSIONRUNS_DIR: {runs}", text)
    text = re.sub(r"(?m)^ASSESSMENTS_DIR: \.\./", f"ASSESSMENTS_DIR: {sample}/", text)
    config.write_text(text)
    return config


def test_compare_twice_same_status_and_same_bad_runs(sample, tmp_path):
    config = _with_bad_run(sample, tmp_path)
    first = run("compare", "-config", config, "--results-dir", tmp_path / "out")
    second = run("compare", "-config", config, "--results-dir", tmp_path / "out")
    assert "reusing up-to-date result files" in second.output
    assert first.exit_code == second.exit_code == 1

    def errors(out):
        return [line for line in out.splitlines() if line.startswith("inexeval: error:")]

    assert errors(first.output) and errors(first.output) == errors(second.output)
    assert "Broken.xml" in errors(second.output)[0]
    third = run("compare", "-config", config, "--results-dir", tmp_path / "out", "--reevaluate")
    assert third.exit_code == 1 and errors(third.output) == errors(first.output)


def test_compare_pairs_over_different_topics_say_which_and_why(tmp_path):
    qrels = tmp_path / "qrels.txt"
    qrels.write_text("1 0 a 1\n1 0 b 0\n2 0 c 1\n3 0 d 1\n3 0 e 0\n")
    runs = tmp_path / "runs"
    runs.mkdir()
    (runs / "x.txt").write_text("1 Q0 a 1 2 X\n1 Q0 b 2 1 X\n2 Q0 c 1 1 X\n")  # topics 1, 2
    (runs / "y.txt").write_text("3 Q0 d 1 2 Y\n3 Q0 e 2 1 Y\n")  # topic 3: nothing in common with X
    (runs / "z.txt").write_text("1 Q0 b 1 2 Z\n1 Q0 a 2 1 Z\n3 Q0 d 1 1 Z\n")  # topics 1, 3
    config = tmp_path / "c.prop"
    config.write_text(f"TASK: trec\nMETRICS: map\nASSESSMENTS_DIR: {qrels}\nSUBMISSIONRUNS_DIR: {runs}\n"
                      f"RESULTS_DIR: {tmp_path}/out\n")
    res = run("compare", "-config", config)
    assert res.exit_code == 0, res.output
    assert "nan" not in res.output
    assert "X vs Y: p undefined: no common topic (X has no value for topic(s) 3; Y has no value for " \
           "topic(s) 1, 2)" in res.output
    assert "X vs Z: p undefined: the t test needs 2 common topics, there is 1 (X has no value for topic(s) 3; " \
           "Z has no value for topic(s) 2)" in res.output
    rows = {(r["run_a"], r["run_b"]): r for r in json.loads((tmp_path / "out" / "trec" / "significance.json")
                                                            .read_text())}
    assert rows["X", "Y"]["topics"] == 0 and rows["X", "Z"]["topics"] == 1 and rows["Y", "Z"]["topics"] == 1
    assert rows["X", "Y"]["p"] is None and rows["X", "Y"]["note"].startswith("p undefined: no common topic")
    # randomisation over the one common topic is defined: the note says which topics were used
    res = run("compare", "-config", config, "--test", "randomisation", "--runs", "X,Z")
    assert "X vs Z: compared over the 1 common topic(s): X has no value for topic(s) 3; Z has no value " \
           "for topic(s) 2" in res.output
    assert "left out (one of the runs has no value there): 2, 3" in res.output


def test_trec_topics_selects_qrels_topics(sample):
    """TOPICS used to be ignored by TASK trec (a silent average over every topic): it now keeps those
    topics, with the same per-topic values, and their average."""
    import inexeval

    config = sample / "configs" / "trec.prop"
    full = inexeval.evaluate(config, METRICS="map, P_10, ndcg")
    part = inexeval.evaluate(config, METRICS="map, P_10, ndcg", TOPICS="401, 402, 999")
    assert "TOPICS without a judgement in the qrels: 999" in part.warnings
    for run in full.runs:
        got = part.per_topic(run)
        assert set(got) <= {"401", "402"} and got
        for topic, values in got.items():
            assert values == full.per_topic(run)[topic]
        for m in ("map", "P_10", "ndcg"):
            assert part.average(run)[m] == pytest.approx(sum(v[m] for v in got.values()) / len(got), rel=1e-12)


@pytest.mark.parametrize("family", ["trec", "fol-focused"])
@pytest.mark.parametrize("key", ["POOLS", "QUERY_TYPE"])
def test_pools_and_query_type_are_refused_without_pools(sample, tmp_path, family, key):
    res = run("-config", sample / "configs" / f"{family}.prop", "--set", f"{key}=x", "--results-dir", tmp_path)
    assert res.exit_code == 2 and f"--set: {key}: task " in res.output and "remove it" in res.output


def test_the_api_refuses_what_the_command_line_refuses(sample, tmp_path):
    from inexeval.api import EvalOptions, run_evaluation
    from inexeval.compare.workflow import CompareOptions, run_compare
    from inexeval.errors import ConfigError

    config = sample / "configs" / "trec.prop"
    for options, message in (
            (EvalOptions(fmt="json", digits=3),
             "--digits rounds the values of --format trec_eval only; --format json prints full precision"),
            (EvalOptions(topic_graphs=True, per_query=True),
             "--topic-graphs draws every topic's curves: it needs -q and -gnu or -png"),
            (EvalOptions(fmt="xml"),
             "--format: unknown format 'xml' (one of table, tsv, csv, json, trec_eval, inex_eval, latex, markdown)"),
            (EvalOptions(incremental_from=(tmp_path / "none",)),
             f"--incremental-from {tmp_path / 'none'}: no such directory (give the RESULTS_DIR of an --incremental "
             "evaluation of the same config)"),
            (EvalOptions(incremental_from=(config,)),
             f"--incremental-from {config}: not a directory (give the RESULTS_DIR of an --incremental "
             "evaluation of the same config)")):
        with pytest.raises(ConfigError) as info:  # the option named once
            run_evaluation(config, records.replace(options, results_dir=tmp_path / "out"))
        assert str(info.value) == message
    with pytest.raises(ConfigError, match="two runs"):
        run_compare([config], CompareOptions(gnuplot=True, runs=("good",), results_dir=tmp_path / "out"))
    assert not (tmp_path / "out").exists()


def test_a_misspelt_part_directory_is_refused(sample, tmp_path):
    """--incremental-from naming no directory (a misspelt part of a track split over machines) is an
    error: it was a note, and the part's runs were scored again unnoticed."""
    res = run("-config", sample / "configs" / "trec.prop", "--incremental-from", tmp_path / "nome",
              "--results-dir", tmp_path / "out")
    assert res.exit_code == 2
    assert res.output.strip().splitlines()[-1] == (
        f"Error: --incremental-from {tmp_path / 'nome'}: no such directory (give the RESULTS_DIR of an --incremental "
        "evaluation of the same config)")
    assert not (tmp_path / "out").exists()


def test_an_unknown_keyword_of_the_python_api_is_named_as_a_keyword(sample):
    """It was named '--set', which a Python caller did not write."""
    import inexeval
    from inexeval.errors import ConfigError

    with pytest.raises(ConfigError) as info:
        inexeval.evaluate(sample / "configs" / "trec.prop", METRIC="map", incremental_from=("x",))
    assert str(info.value).splitlines() == ["keyword argument: unknown key 'METRIC'; did you mean METRICS?",
                                            "keyword argument: unknown key 'incremental_from'"]


@pytest.mark.parametrize("args, named, close", [
    (["-confg", "c.prop"], "-confg", ["--config", "-config"]),
    (["-Config", "c.prop"], "-Config", ["--config", "-config"]),
    (["-confg=c.prop"], "-confg", ["--config", "-config"]),
    (["-gnuplot", "-config", "c.prop"], "-gnuplot", ["--gnuplot"]),
    (["compare", "-confg", "c.prop"], "-confg", ["--config", "-config"]),
])
def test_a_misspelt_one_dash_option_is_named_as_written(args, named, close):
    """click reads ``-confg`` as the flags -c -o -n ... and named '-c', which the user never wrote."""
    res = CliRunner().invoke(main, args)
    assert res.exit_code == 2
    last = res.output.strip().splitlines()[-1]
    assert f"No such option '{named}'" in last, res.output
    assert all(f"'{c}'" in last for c in close), res.output
    assert "'-c'" not in res.output and "'-C'" not in res.output and "'-g'" not in res.output


@pytest.mark.parametrize("args, named", [(["-qx"], "-x"), (["-q", "-x", "-xyz"], "-x")])
def test_an_unknown_letter_in_a_cluster_is_still_named_alone(args, named):
    res = CliRunner().invoke(main, args)
    assert res.exit_code == 2
    assert res.output.strip().splitlines()[-1] == f"Error: No such option '{named}'."


def test_an_unknown_command_close_to_one_says_which(tmp_path):
    res = CliRunner().invoke(main, ["comapre"])
    assert res.exit_code == 2
    assert res.output.strip().splitlines()[-1] == "Error: no command 'comapre'; did you mean 'compare'?"
    res = CliRunner().invoke(main, ["zzz"])
    assert res.exit_code == 2
    assert res.output.strip().splitlines()[-1] == "Error: No such command 'zzz'."


@pytest.mark.parametrize("name, exists", [("my.prop", False), ("my.yaml", False), ("settings.txt", True)])
def test_a_config_given_without_dash_config_says_so(tmp_path, monkeypatch, name, exists):
    monkeypatch.chdir(tmp_path)
    if exists:
        (tmp_path / name).write_text("TASK: trec\n")
    res = CliRunner().invoke(main, [name, "-q"])
    assert res.exit_code == 2
    assert res.output.strip().splitlines()[-1] == (
        f"Error: no command '{name}': to evaluate a config, give it after -config (inexeval -config {name})")


@pytest.mark.parametrize("config, metrics, line", [
    ("co-thorough", "nxCGG", "METRICS: 'nxCGG' is not a measure of task CO.Thorough; did you mean nxcg? (known: "
                             "hixeval, nxcg, ep/gr, q; `inexeval metrics` lists every name)"),
    ("co-thorough", "nxCGG,Q,HiXevall,zzz", "METRICS: 'nxCGG', 'HiXevall', 'zzz' are not measures of task "
                                            "CO.Thorough; did you mean nxcg for 'nxCGG', hixeval for 'HiXevall'? "
                                            "(known: hixeval, nxcg, ep/gr, q; `inexeval metrics` lists every name)"),
    ("trec", "MAPP", "METRICS: unknown measure 'MAPP'; did you mean map? (see 'inexeval metrics')"),
    ("trec", "ndcg_cutt_10", "METRICS: unknown measure 'ndcg_cutt_10'; did you mean ndcg_cut_10? "
                             "(see 'inexeval metrics')"),
    ("trec", "map,Recip_Rnk", "METRICS: unknown measure 'Recip_Rnk'; did you mean recip_rank? (see 'inexeval metrics')"),
    ("trec", "P_1O", "METRICS: unknown measure 'P_1O' (see 'inexeval metrics')"),
])
def test_an_unknown_measure_is_shown_as_written_with_the_name_it_is_close_to(sample, tmp_path, config, metrics, line):
    """METRICS is read lower-cased; the message shows the user's spelling (it showed 'p_1o', 'nxcgg')."""
    res = run("-config", sample / "configs" / f"{config}.prop", "--set", f"METRICS={metrics}",
              "--results-dir", tmp_path / "out")
    assert (res.exit_code, res.output.strip()) == (2, f"inexeval: error: --set: {line}")
    prop = sample / "configs" / f"unknown-measure-{config}.prop"  # (beside the original: its relative paths)
    kept = [x for x in (sample / "configs" / f"{config}.prop").read_text().splitlines() if not x.startswith("METRICS")]
    prop.write_text("\n".join([*kept, f"METRICS: {metrics}"]) + "\n")
    n = len(kept) + 1
    res = run("-config", prop, "--results-dir", tmp_path / "out")
    assert (res.exit_code, res.output.strip()) == (2, f"inexeval: error: {prop}:{n}: {line}")


@pytest.mark.parametrize("metrics, line", [
    ("ndcg_cut", "measure 'ndcg_cut': ndcg_cut takes its parameters in the name: write the labels you want "
                 "(trec_eval's -m ndcg_cut prints ndcg_cut_5, ndcg_cut_10, ndcg_cut_15, ndcg_cut_20, ...) "
                 "(docs/measures.md §8)"),
    ("success", "measure 'success': success takes its parameters in the name: write the labels you want "
                "(trec_eval's -m success prints success_1, success_5, success_10) (docs/measures.md §8)"),
    ("Rprec_mult", "measure 'Rprec_mult': Rprec_mult takes its parameters in the name: write the labels you want "
                   "(trec_eval's -m Rprec_mult prints Rprec_mult_0.20, Rprec_mult_0.40, Rprec_mult_0.60, "
                   "Rprec_mult_0.80, ...) (docs/measures.md §8)"),
    ("P.10", "measure 'P.10': METRICS names trec_eval's labels: write P_10 (docs/measures.md §8)"),
    ("dcg@10", "measure 'dcg@10': inexeval's Järvelin–Kekäläinen DCG is now named DCG_JK@k (DCG_JK@10); DCG@k means "
               "other discounts in other tools (ranx's dcg@k divides the gain at rank r by log2(r + 1)) "
               "(docs/measures.md §8.6)"),
    ("DCG@5(b=3)", "measure 'DCG@5(b=3)': inexeval's Järvelin–Kekäläinen DCG is now named DCG_JK@k (DCG_JK@5(b=3)); "
                   "DCG@k means other discounts in other tools (ranx's dcg@k divides the gain at rank r by "
                   "log2(r + 1)) (docs/measures.md §8.6)"),
    ("f1@10", "measure 'f1@10' is not taken (ranx's or a lower-case spelling, whose meaning differs between "
              "tools): write F@k (the F-measure of P@k and R@k, as ranx's f1@k), or SetF (trec_eval's set_F, over "
              "every result) (docs/measures.md §8.6)"),
])
def test_trec_eval_and_ranx_spellings_say_what_to_write(sample, tmp_path, metrics, line):
    """pytrec_eval's and trec_eval's -m spellings get the labels to write (the hint named the same
    rejected name: "unknown measure 'ndcg_cut'; did you mean ndcg_cut?"); ranx's dcg@k, silently
    inexeval's Järvelin–Kekäläinen DCG before, is refused (it is now DCG_JK@k)."""
    res = run("-config", sample / "configs" / "trec.prop", "--set", f"METRICS={metrics}",
              "--results-dir", tmp_path / "out")
    assert (res.exit_code, res.output.strip()) == (2, f"inexeval: error: --set: METRICS: {line}")


def test_dcg_jk_is_the_former_dcg(sample, tmp_path):
    """DCG_JK@k: a relevant document at rank 2 is not discounted (log2(2) = 1): 1.0, where ranx's
    dcg@k gives 1/log2(3) = 0.6309."""
    import inexeval

    res = inexeval.evaluate_trec({"1": {"a": 1, "b": 0}}, {"r": {"1": {"b": 2.0, "a": 1.0}}},
                                 measures=["DCG_JK@10", "DCG_JK@10(b=3)"])
    assert res.average("r") == {"DCG_JK@10": 1.0, "DCG_JK@10(b=3)": 1.0}
