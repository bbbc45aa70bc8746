"""Run and topic ids from users' files as file names and table cells (inexeval.names; docs/formats.md §9.2.2)."""

from __future__ import annotations

import html
import json
import re
import subprocess

import pytest
from click.testing import CliRunner
from conftest import require_gnuplot
from hypothesis import given, settings
from hypothesis import strategies as st
from names_helpers import check_outputs, evaluate_all_formats, write_inex

from inexeval.cli.command import main
from inexeval.names import MAX_NAME, NameTable, cell, file_component, id_hash, text_columns, uncell
from inexeval.validate import validate_runs

SAFE = re.compile(r"[A-Za-z0-9_+][A-Za-z0-9._+~-]*")

#: (id, its file name): every kind of awkward id the issue lists
CASES = [
    ("myrun", "myrun"), ("run-1.b+c", "run-1.b+c"), ("007", "007"),
    ("a\tb", "a_b"), ("a\nb", "a_b"), ("a\rb", "a_b"), ("a\x00b", "a_b"), ("a\x7fb", "a_b"),
    ("a\u2028b", "a_b"), ("a\u2029b", "a_b"), ("a\x85b", "a_b"), ("a/b", "a_b"), ("a\\b", "a_b"),
    ("../../x", "_.._.._x"), (".", "_."), ("..", "_.."), (".hidden", "_.hidden"), ("-rf", "_-rf"),
    ("", "_"), ("con", "_con"), ("NUL.txt", "_NUL.txt"), ("com1", "_com1"), ("Lpt9.x.y", "_Lpt9.x.y"),
    ("console", "console"), ("é", "_"),
]


@pytest.mark.parametrize("rid, name", CASES)
def test_file_component(rid, name):
    assert file_component(rid) == name
    assert SAFE.fullmatch(file_component(rid))


@pytest.mark.parametrize("rid", ["L" * 300, "é" * 201, "a/" * 150, "x" * (MAX_NAME + 1)])
def test_long_ids_are_cut_and_end_with_their_hash(rid):
    name = file_component(rid)
    assert len(name.encode()) == MAX_NAME and name.endswith("~" + id_hash(rid)) and SAFE.fullmatch(name)
    assert file_component("x" * MAX_NAME) == "x" * MAX_NAME, "the limit itself is kept"
    assert file_component(rid + "z") != name, "two long ids with one prefix differ"


def test_name_table_is_one_to_one_ignoring_case_and_first_come_first_served():
    t = NameTable()
    assert t.assign("a/b") == "a_b"
    assert t.assign("a_b") == "a_b~" + id_hash("a_b")
    assert t.assign("A_B") == "A_B~" + id_hash("A_B"), "case-insensitive file systems: A_B.tsv is a_b.tsv"
    assert t.assign("a/b") is None, "the same id twice has no second name"
    assert t.owner("A_b") == "a/b"
    long = "L" * 300
    assert t.assign(long) == file_component(long)
    assert t.assign(long.lower()) == file_component(long.lower()), "hash differs"


@settings(max_examples=300, deadline=None, derandomize=True, database=None)
@given(st.lists(st.text(st.sampled_from("aA_/.\\-\t\n\x00~é\u2028 "), max_size=6) | st.text(max_size=300),
                unique=True, max_size=12))
def test_name_table_gives_distinct_safe_names(ids):
    t = NameTable()
    names = [t.assign(i) for i in ids]
    assert None not in names
    assert len({n.lower() for n in names}) == len(names)
    assert all(SAFE.fullmatch(n) and len(n) <= MAX_NAME for n in names)


@pytest.mark.parametrize("text, shown", [
    ("myrun", "myrun"), ("a b", "a b"), ("é", "é"), ("a\tb", r"a\tb"), ("a\nb", r"a\nb"), ("a\rb", r"a\rb"),
    ("a\x00b", r"a\x00b"), ("a\x7fb", r"a\x7fb"), ("a\x85b", r"a\x85b"), ("a\u2028b", r"a\u2028b"),
    ("a\u2029b", r"a\u2029b"), ("a\\tb", r"a\\tb"), ("\U000e0001", r"\U000e0001"), ("a\u00a0b", r"a\xa0b"),
])
def test_cell_escapes_visibly(text, shown):
    assert cell(text) == shown and uncell(shown) == text


@settings(max_examples=500, deadline=None, derandomize=True, database=None)
@given(st.text(), st.text())
def test_cell_is_one_to_one_printable_and_reversible(a, b):
    assert cell(a).isprintable() and uncell(cell(a)) == a
    assert (cell(a) == cell(b)) == (a == b)


def test_text_columns():
    assert text_columns([["202", "1"], ["203", "-4"]], [0, 1]) == []
    assert text_columns([["007", "1"], ["1e3", "1_000"]], [0, 1]) == [0, 1]
    assert text_columns([["nan", "2"]], [0]) == [0]


# --------------------------------------------------------------------------- end to end

AWKWARD = ["a/b", "a_b", "A_B", "..", "-x", "L" * 300, "t\tab", "nl\nx", "cr\rx", "del\x7fx", "nel\x85x",
           "ls\u2028x", "ps\u2029x", "back\\slash", "con", "007", "$\\frac$", "_under", "quote'd", 'dq"', "-"]


def test_every_output_is_well_formed_inside_and_one_to_one(tmp_path):
    cfg = write_inex(tmp_path, AWKWARD, ["../../x", "2\t3"])
    ev, status, stdout = evaluate_all_formats(cfg)
    assert status == 0 and sorted(r.run_id for r in ev.results) == sorted(AWKWARD)
    check_outputs(tmp_path, tmp_path / "out", ev, stdout)
    assert not (tmp_path / "x").exists() and not (tmp_path.parent / "x").exists()
    topics = sorted(p.name for p in (tmp_path / "out" / "CO.Thorough" / "graphs" / "topics").iterdir())
    assert topics == ["2_3", "_.._.._x"]
    # gnuplot draws one line per run, titled with the run's cell
    gp = tmp_path / "out" / "CO.Thorough" / "graphs" / "ep-gr_gen_off.gp"
    require_gnuplot()
    subprocess.run(["gnuplot", str(gp)], check=True, capture_output=True, timeout=60)
    svg = gp.with_suffix(".svg").read_text()
    titles = [html.unescape(t) for t in re.findall(r"<title>([^<]*)</title>", svg)][1:]
    assert titles == [cell(r) for r in dict.fromkeys(r.run_id for r in ev.results)]


def test_png_legends_and_renames_are_reported(tmp_path):
    cfg = write_inex(tmp_path, ["a/b", "a_b", "$\\frac$", "_under", "007"], ["../x"])
    res = CliRunner().invoke(main, ["-config", str(cfg), "-q", "-png", "--topic-graphs"])
    assert res.exit_code == 0, res.output
    assert "r0.xml:2: run id 'a/b' written as 'a_b'" in res.stderr  # line 2: <inex-submission run-id=...>
    assert f"r1.xml:2: run id 'a_b' written as 'a_b~{id_hash('a_b')}', as run id 'a/b' (" in res.stderr
    assert "topic '../x': its graphs are written to topics/_.._x" in res.stderr
    assert (tmp_path / "out" / "CO.Thorough" / "graphs" / "topics" / "_.._x" / "ep-gr_gen_off.png").exists()
    assert "\n007 " in res.stdout, "a run id that looks like a number is printed as written"


def test_same_id_twice_is_an_error_and_validate_agrees(tmp_path):
    """Two runs with one id (INEX, text runs as TREC's): the later is skipped, exit 1; validate says the same."""
    cfg = write_inex(tmp_path, ["same", "same", "a/b", "a_b", "L" * 300], ["1"])
    res = CliRunner().invoke(main, ["-config", str(cfg)])
    assert res.exit_code == 1 and "r1.xml: run id 'same' is also the id (or file name) of" in res.stderr
    assert res.stdout.count("same") == 1
    reports = validate_runs(sorted((tmp_path / "runs").iterdir()))
    kinds = [([f.kind for f in r.problems], [f.kind for f in r.warnings]) for r in reports]
    assert [f.line for r in reports for f in r.problems + r.warnings] == [2, 2, 2, 2], "the run id's line"
    assert kinds == [([], []), (["duplicate_run_id"], []), ([], ["run_name"]), ([], ["run_name"]),
                     ([], ["run_name"])]
    assert reports[3].warnings[0].message == (f"run id 'a_b' will be written as 'a_b~{id_hash('a_b')}', "
                                              f"as 'a/b' ({reports[2].path}) has 'a_b'")
    assert "will be written as 'LLLL" in reports[4].warnings[0].message


def test_trec_runs_with_one_tag(tmp_path):
    """The issue's case: two TREC runs with one run tag; the later is skipped and reported, exit 1."""
    (tmp_path / "runs").mkdir()
    (tmp_path / "qrels").write_text("1 0 d1 1\n1 0 d2 0\n")
    for name in ("a", "b"):
        (tmp_path / "runs" / name).write_text("1 Q0 d1 1 2.0 tag\n1 Q0 d2 2 1.0 tag\n")
    (tmp_path / "c.prop").write_text("TASK: trec\nMETRICS: map\nASSESSMENTS_DIR: qrels\nSUBMISSIONRUNS_DIR: runs/\n"
                                     "RESULTS_DIR: out\n")
    res = CliRunner().invoke(main, ["-config", str(tmp_path / "c.prop"), "--format", "tsv"])
    assert res.exit_code == 1 and "runs/b: run id 'tag' is also the id (or file name) of" in res.stderr
    assert res.stdout.count("\ttag\t") == 1
    assert [p.name for p in (tmp_path / "out" / "trec" / "default").iterdir()] == ["tag.tsv"]


def test_trec_tags_with_control_characters(tmp_path):
    """TREC tags may hold what XML cannot: NUL, DEL, NEL, U+2028."""
    (tmp_path / "runs").mkdir()
    (tmp_path / "qrels").write_text("1 0 d1 1\n1 0 d2 0\n")
    tags = ["n\x00l", "d\x7fl", "n\x85l", "l\u2028s", "../up"]
    for i, tag in enumerate(tags):
        (tmp_path / "runs" / f"r{i}").write_text(f"1 Q0 d1 1 2.0 {tag}\n1 Q0 d2 2 1.0 {tag}\n", encoding="utf-8")
    (tmp_path / "c.prop").write_text("TASK: trec\nMETRICS: map\nASSESSMENTS_DIR: qrels\nSUBMISSIONRUNS_DIR: runs/\n"
                                     "RESULTS_DIR: out\n")
    for fmt in ("table", "tsv", "csv", "trec_eval"):
        res = CliRunner().invoke(main, ["-config", str(tmp_path / "c.prop"), "--format", fmt, "-q"])
        assert res.exit_code == 0, res.output
        assert all(line.replace("\t", "").isprintable() for line in res.stdout.split("\n")), fmt
        for tag in tags:
            assert cell(tag) in res.stdout
    names = sorted(p.name for p in (tmp_path / "out" / "trec" / "default").iterdir())
    assert len(names) == len(tags) and all(SAFE.fullmatch(n) for n in names)
    summary = json.loads((tmp_path / "out" / "trec" / "summary.json").read_text())
    assert sorted(r["run"] for r in summary) == sorted(tags)


def test_compare_names_run_ids_with_commas_through_repeated_run(tmp_path):
    """--runs splits at commas; --run takes one id as written, so any id can be named (issue 15)."""
    ids = ["a,b", "c, d"]
    cfg = write_inex(tmp_path, [*ids, "d"], ["1", "2"])
    res = CliRunner().invoke(main, ["compare", "-config", str(cfg), "--run", "a,b", "--run", "c, d"])
    assert res.exit_code == 0, res.output
    sig = json.loads((tmp_path / "out" / "CO.Thorough" / "significance.json").read_text())
    assert {(r["run_a"], r["run_b"]) for r in sig} == {("a,b", "c, d")}
    both = CliRunner().invoke(main, ["compare", "-config", str(cfg), "--runs", "d", "--run", "a,b"])
    assert both.exit_code == 2 and "--runs and --run both name runs" in both.stderr
    twice = CliRunner().invoke(main, ["compare", "-config", str(cfg), "--run", "a,b", "--run", "a,b"])
    assert twice.exit_code == 2 and "run id(s) given twice: 'a,b'" in twice.stderr


def test_compare_outputs_with_awkward_ids(tmp_path):
    ids = ["a\tb", "c/d'e"]
    cfg = write_inex(tmp_path, [*ids, "a_b"], ["1", "2\n3", 'q"t'])
    args = ["compare", "-config", str(cfg), "--runs", ",".join(ids), "-gnu"]
    res = CliRunner().invoke(main, args)
    assert res.exit_code == 0, res.output
    again = CliRunner().invoke(main, args)
    assert "reusing up-to-date result files" in again.stderr and again.stdout == res.stdout, \
        "result files named by hash and escaped topics read back as they were written"
    assert all(line.replace("\t", "").isprintable() for line in res.stdout.split("\n"))
    assert r"a\tb - c/d'e per topic" in res.stdout and "\n2\\n3\t" in res.stdout
    out = tmp_path / "out" / "CO.Thorough"
    for name in ("significance.tsv", "correlations.tsv"):
        lines = (out / name).read_text().split("\n")[:-1]
        assert len({len(line.split("\t")) for line in lines}) == 1
    sig = json.loads((out / "significance.json").read_text())
    assert {(r["run_a"], r["run_b"]) for r in sig} == {tuple(ids)}
    hist = list((out / "graphs").iterdir())
    assert sorted(p.suffix for p in hist) == [".dat", ".gp"]
    assert all(p.parent == out / "graphs" for p in hist)
    gp = next(p for p in hist if p.suffix == ".gp")
    assert r"set title 'CO.Thorough gen_off MAep: a\tb - c/d''e' noenhanced" in gp.read_text()
    require_gnuplot()
    subprocess.run(["gnuplot", str(gp)], check=True, capture_output=True, timeout=60)
    labels = {html.unescape(t) for t in re.findall(r">([^<]*)</text>", gp.with_suffix(".svg").read_text())}
    assert {"1", r"2\n3", 'q"t'} <= labels, "the topics label their bars as cells"


def test_fol_runs_share_a_run_id_but_not_a_file_name(tmp_path):
    """FOL runs are named by their file (docs/fol.md §2): one RUN_ID in two runs is fine, one file
    name in two directories is the same name twice; validate gives the same verdict."""
    import shutil
    from pathlib import Path

    data = Path(__file__).parent.parent / "sample_data" / "inex2009-2010"
    run = data / "runs" / "original" / "bert_inex_converted.run.gz"
    for d, name in (("x", run.name), ("y", run.name), ("y", "two words.run.gz")):
        (tmp_path / "runs" / d).mkdir(parents=True, exist_ok=True)
        shutil.copy(run, tmp_path / "runs" / d / name)
    (tmp_path / "c.prop").write_text(f"TASK: FOL.Focused\nASSESSMENTS_DIR: {data / 'qrels.txt.gz'}\n"
                                     "SUBMISSIONRUNS_DIR: runs/\nRESULTS_DIR: out\n")
    res = CliRunner().invoke(main, ["-config", str(tmp_path / "c.prop"), "--format", "tsv"])
    assert res.exit_code == 1
    assert "y/bert_inex_converted.run.gz: run id 'bert_inex_converted' is also the id (or file name) of " \
           f"{tmp_path / 'runs' / 'x' / run.name}; run skipped" in res.stderr
    assert "two words.run.gz: run id 'two words' written as 'two_words'" in res.stderr
    rows = [line.split("\t")[2] for line in res.stdout.strip().split("\n")[1:]]
    assert rows == ["bert_inex_converted", "two words"]
    assert sorted(p.name for p in (tmp_path / "out" / "FOL.Focused" / "default").iterdir()) == \
        ["bert_inex_converted.tsv", "two_words.tsv"]
    paths = sorted((tmp_path / "runs").rglob("*.gz"))
    reports = validate_runs(paths, task="FOL.Focused")
    by_path = {Path(r.path).relative_to(tmp_path / "runs").as_posix(): r for r in reports}
    assert [f.kind for f in by_path["x/" + run.name].problems] == []
    assert [f.kind for f in by_path["y/" + run.name].problems] == ["duplicate_run_id"]
    assert [f.kind for f in by_path["y/two words.run.gz"].warnings if f.kind == "run_name"] == ["run_name"]


def test_messages_naming_ids_stay_one_line(tmp_path):
    """Warnings, errors and validate's findings that quote an id hold no raw line end."""
    from inexeval.validate import format_reports

    cfg = write_inex(tmp_path, ["a\nb", "a\nb"], ["1"])
    run = tmp_path / "runs" / "r2.xml"
    result = "<result><file>f1</file><path>/article[1]</path></result>"
    run.write_text(f'<inex-submission run-id="x"><topic topic-id="9&#10;9&#x2028;9">{result}{result}</topic>'
                   "</inex-submission>", encoding="utf-8")  # a duplicate: validate names the topic
    res = CliRunner().invoke(main, ["-config", str(cfg)])
    assert res.exit_code == 1
    assert "r1.xml: run id 'a\\nb' is also the id" in res.stderr
    assert "9\\n9\\u20289" in res.stderr, "the unknown topic is named on one line"
    assert all(line.isprintable() for line in res.stderr.split("\n"))
    text = format_reports(validate_runs([run]))
    assert all(line.isprintable() for line in text.split("\n")) and "9\\n9\\u20289" in text


def test_trec_runs_sharing_a_tag_name_the_line_of_the_tag(tmp_path):
    """The skipped run's error and a renamed run's warning point at the line the run id was read from."""
    from pathlib import Path

    sample = Path(__file__).parent.parent / "sample_data" / "trec"
    body = (sample / "runs" / "good.txt").read_text().splitlines()
    tag = body[0].split()[-1]
    (tmp_path / "runs").mkdir()
    (tmp_path / "runs" / "a.txt").write_text("\n".join(body) + "\n")
    # line 1 a comment, line 2 blank: the tag is read on line 3
    (tmp_path / "runs" / "b.txt").write_text("# again\n\n" + "\n".join(body) + "\n")
    renamed = [" ".join(ln.split()[:-1] + ["x/y"]) for ln in body]
    (tmp_path / "runs" / "c.txt").write_text("\n" + "\n".join(renamed) + "\n")
    (tmp_path / "c.prop").write_text(f"TASK: trec\nASSESSMENTS_DIR: {sample / 'qrels.txt'}\n"
                                     "SUBMISSIONRUNS_DIR: runs/\nRESULTS_DIR: out\n")
    res = CliRunner().invoke(main, ["-config", str(tmp_path / "c.prop"), "--format", "tsv"])
    assert res.exit_code == 1, res.output
    assert f"b.txt:3: run id {tag!r} is also the id (or file name) of {tmp_path / 'runs' / 'a.txt'}:1; " \
           "run skipped" in res.stderr
    assert "c.txt:2: run id 'x/y' written as 'x_y'" in res.stderr
