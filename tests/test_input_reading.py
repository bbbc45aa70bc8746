"""Reading input files (issue 15, docs/formats.md §1.5): byte order marks and wide encodings, directory
entries that are not regular files, assessment files that cannot be used, parse-error lines, XML parser
limits, empty runs, standard input, and the collection's documents.

Never a silent wrong number: whatever is skipped is reported with its path (exit status 1) and the rest is
scored; an input in another encoding scores exactly as its UTF-8 form.
"""

from __future__ import annotations

import gzip
import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from inexeval.cli.command import main
from inexeval.config import InputFile, load_config
from inexeval.errors import ConfigErrors, InputError
from inexeval.readers import as_utf8, wide_encoding
from inexeval.readers.assessments import load_assessments
from inexeval.readers.collection import Collection, parse_document
from inexeval.readers.runs import read_run
from test_fuzz import ASSESSMENTS, RUN_TEXT, RUN_XML

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "sample_data"

ASSESSMENTS_2 = ASSESSMENTS.replace(b'pool="11" topic="1"', b'pool="12" topic="2"').replace(
    b'topic_id="1"', b'topic_id="2"')
CONFIG = ("TASK: CO.Focussed\nMETRICS: nxCG\nQUANT_FUNCTIONS: gen\nOVERLAP: on\nDCV: 1, 2\n"
          "ASSESSMENTS_DIR: assess\nSUBMISSIONRUNS_DIR: runs\nRESULTS_DIR: out\n")


def _write(path: Path, data: bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return path


def _setup(tmp_path: Path, config: str = CONFIG) -> Path:
    """Two topics (pool-11: topic 1, pool-12: topic 2), an XML and a text run."""
    _write(tmp_path / "assess" / "pool-11.xml", ASSESSMENTS)
    _write(tmp_path / "assess" / "pool-12.xml", ASSESSMENTS_2)
    _write(tmp_path / "runs" / "a.xml", RUN_XML)
    _write(tmp_path / "runs" / "b.txt", RUN_TEXT)
    return _write(tmp_path / "c.prop", config.encode())


def _cli(*args, stdin: bytes | None = None):
    res = CliRunner().invoke(main, [str(a) for a in args], input=stdin)
    assert "Traceback" not in res.output and res.exception is None or isinstance(res.exception, SystemExit)
    return res.exit_code, res.stdout, res.stderr


def _skipped(stderr: str) -> list[str]:
    """The lines of the final list of skipped inputs."""
    lines = stderr.splitlines()
    at = [i for i, line in enumerate(lines) if line.startswith("inexeval: ") and "input(s) skipped:" in line]
    return [line[4:] for line in lines[at[0] + 1:]] if at else []


# --------------------------------------------------------------------------- encodings


def test_utf8_bom_in_every_inex_input_changes_nothing(tmp_path):
    cfg = _setup(tmp_path)
    plain = _cli("-config", cfg, "-q")
    assert plain[0] == 0
    for path in [*tmp_path.glob("assess/*"), *tmp_path.glob("runs/*"), cfg]:
        path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())
    assert _cli("-config", cfg, "-q") == plain


def _encode(data: bytes, encoding: str) -> bytes:
    text = data.decode("utf-8")
    if encoding in ("utf-16-le", "utf-16-be", "utf-32-be"):
        return ("\ufeff" + text).encode(encoding)  # the byte order mark written explicitly
    return text.encode(encoding)


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be", "utf-32", "utf-32-be"])
def test_wide_encodings_score_as_utf8(tmp_path, encoding):
    # UTF-16 runs were refused while UTF-16 assessments were read: both are read now
    cfg = _setup(tmp_path)
    plain = _cli("-config", cfg, "-q")
    for path in [*tmp_path.glob("assess/*"), *tmp_path.glob("runs/*"), cfg]:
        path.write_bytes(_encode(path.read_bytes(), encoding))
    assert _cli("-config", cfg, "-q") == plain


def test_utf16_xml_without_bom_is_read(tmp_path):
    cfg = _setup(tmp_path)
    plain = _cli("-config", cfg, "-q")
    run = tmp_path / "runs" / "a.xml"
    data = run.read_text(encoding="utf-8").encode("utf-16-le")
    assert data.startswith(b"<\x00") and wide_encoding(data[:4]) == "UTF-16-LE"
    run.write_bytes(data)
    assert _cli("-config", cfg, "-q") == plain


def test_xml_declaration_of_a_converted_input_says_utf8():
    data = '<?xml version="1.0" encoding="UTF-16"?>\n<a>é</a>\n'.encode("utf-16")
    assert as_utf8(data, "x") == '<?xml version="1.0" encoding="UTF-8"?>\n<a>é</a>\n'.encode()
    assert as_utf8(b"\xef\xbb\xbf<a/>", "x") == b"\xef\xbb\xbf<a/>"  # UTF-8 is left as it is


def test_invalid_utf16_names_its_line(tmp_path):
    run = _write(tmp_path / "r.txt", RUN_TEXT.decode().encode("utf-16-le"))
    data = bytearray(b"\xff\xfe" + run.read_bytes())
    at = data.index("\n".encode("utf-16-le")) + 2  # start of line 2
    at = data.index("\n".encode("utf-16-le"), at) + 2  # start of line 3
    data[at:at] = b"\x00\xd8"  # a lone high surrogate
    run.write_bytes(bytes(data))
    with pytest.raises(InputError) as exc:
        read_run(run)
    assert (exc.value.line, exc.value.message.split(" (")[0]) == (3, "not valid UTF-16-LE text")


def test_text_run_with_nul_is_refused_naming_the_line(tmp_path):
    # UTF-16 without a byte order mark: every other byte is NUL
    run = _write(tmp_path / "r.txt", RUN_TEXT.replace(b"2 Q0 f1 1 1 textrun", b"2 Q0 f1 1 1 text\x00run"))
    with pytest.raises(InputError) as exc:
        read_run(run)
    assert exc.value.line == 5 and "UTF-16 without a byte order mark" in exc.value.message


def test_config_in_utf16_and_with_bom(tmp_path):
    cfg = _setup(tmp_path)
    expected = load_config(cfg)
    for data in (CONFIG.encode("utf-16"), b"\xef\xbb\xbf" + CONFIG.encode()):
        cfg.write_bytes(data)
        assert load_config(cfg) == expected
    yaml = _write(tmp_path / "c.yaml", "\ufeffTASK: CO.Focussed\nASSESSMENTS_DIR: assess\n"
                                       "SUBMISSIONRUNS_DIR: runs\n".encode("utf-16"))
    assert load_config(yaml).task == "CO.Focussed"


def test_latin1_config_error_names_the_line(tmp_path):
    cfg = _write(tmp_path / "c.prop", CONFIG.replace("DCV: 1, 2", "DCV: 1, 2 # caf\xe9").encode("latin-1"))
    code, _out, err = _cli("-config", cfg)
    assert code == 2 and f"{cfg}:5: not UTF-8 text" in err


# --------------------------------------------------------------------------- FOL inputs


def _fol_setup(tmp_path: Path) -> Path:
    shutil.copy(SAMPLE / "inex2009-2010" / "qrels.txt.gz", tmp_path / "qrels.txt.gz")
    runs = tmp_path / "runs"
    runs.mkdir()
    with gzip.open(SAMPLE / "inex2009-2010" / "runs" / "original" / "bert_inex_converted.run.gz") as fh:
        (runs / "run.txt").write_bytes(fh.read())
    return _write(tmp_path / "fol.prop", b"TASK: FOL.Focused\nASSESSMENTS_DIR: qrels.txt.gz\n"
                                         b"SUBMISSIONRUNS_DIR: runs\nRESULTS_DIR: out\n")


@pytest.mark.parametrize("encoding", ["utf-8-sig", "utf-16"])
@pytest.mark.parametrize("which", ["qrels", "run"])
def test_fol_bom_and_utf16_score_as_utf8(tmp_path, encoding, which):
    # a byte order mark was kept in the first topic id (as inex_eval keeps it): that topic scored wrong
    cfg = _fol_setup(tmp_path)
    plain = _cli("-config", cfg, "-q")
    assert plain[0] == 0 and "2009001" in plain[1]
    if which == "qrels":
        path = tmp_path / "qrels.txt.gz"
        path.write_bytes(gzip.compress(gzip.decompress(path.read_bytes()).decode().encode(encoding)))
    else:
        path = tmp_path / "runs" / "run.txt"
        path.write_bytes(path.read_text(encoding="utf-8").encode(encoding))
    assert _cli("-config", cfg, "-q") == plain


def test_fol_qrels_beside_a_dangling_link_is_read_and_the_link_reported(tmp_path):
    cfg = _fol_setup(tmp_path)
    plain = _cli("-config", cfg)
    (tmp_path / "qrels").mkdir()
    shutil.move(tmp_path / "qrels.txt.gz", tmp_path / "qrels" / "qrels.txt.gz")
    os.symlink(tmp_path / "gone", tmp_path / "qrels" / "old.txt")
    cfg.write_text(cfg.read_text().replace("ASSESSMENTS_DIR: qrels.txt.gz", "ASSESSMENTS_DIR: qrels"))
    code, out, err = _cli("-config", cfg)
    assert (code, out) == (1, plain[1])
    assert _skipped(err) == [f"{tmp_path}/qrels/old.txt: assessment file not read: a dangling symbolic link "
                             f"(to {tmp_path}/gone)"]


# --------------------------------------------------------------------------- directory entries


def test_gzipped_assessment_file_is_read(tmp_path):
    # it was skipped without a word: its topic disappeared, exit 0
    cfg = _setup(tmp_path)
    plain = _cli("-config", cfg, "-q")
    pool = tmp_path / "assess" / "pool-12.xml"
    (tmp_path / "assess" / "pool-12.xml.gz").write_bytes(gzip.compress(pool.read_bytes()))
    pool.unlink()
    assert _cli("-config", cfg, "-q") == plain
    files = [InputFile(p, tmp_path) for p in sorted((tmp_path / "assess").iterdir())]
    assert load_assessments(files).topics["2"].pool == "12"


def test_other_files_of_the_assessments_directory_are_named_in_a_warning(tmp_path):
    cfg = _setup(tmp_path)
    _write(tmp_path / "assess" / "README", b"notes")
    code, _out, err = _cli("-config", cfg)
    assert code == 0
    assert (f"inexeval: warning: ASSESSMENTS_DIR: 1 file(s) not read, their names do not end in .xml or "
            f".xml.gz: {tmp_path}/assess/README") in err


def test_dangling_link_socket_and_directory_link_are_reported(tmp_path):
    cfg = _setup(tmp_path)
    plain = _cli("-config", cfg)
    runs = tmp_path / "runs"
    os.symlink(tmp_path / "nowhere.xml", runs / "dangling.xml")
    os.symlink(tmp_path / "assess", runs / "linked")
    with socket.socket(socket.AF_UNIX) as sock:
        sock.bind(str(runs / "sock"))
        code, out, err = _cli("-config", cfg)
    assert (code, out) == (1, plain[1])  # the runs that can be read are scored as before
    assert _skipped(err) == [
        f"{runs}/dangling.xml: run not read: a dangling symbolic link (to {tmp_path}/nowhere.xml)",
        f"{runs}/linked: run not read: a symbolic link to a directory, not followed",
        f"{runs}/sock: run not read: a socket, not a regular file",
    ]


def test_fifo_in_an_input_directory_is_reported_and_never_opened(tmp_path):
    # a FIFO was skipped silently in the assessments and blocked the reader among the runs
    cfg = _setup(tmp_path)
    os.mkfifo(tmp_path / "runs" / "pipe.xml")
    os.mkfifo(tmp_path / "assess" / "pipe.xml")
    done = subprocess.run([sys.executable, "-m", "inexeval", "-config", str(cfg)], capture_output=True,
                          text=True, timeout=120, cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 1 and "RESULTS" not in done.stderr
    assert [line for line in done.stderr.splitlines() if line.startswith("  - ")] == [
        f"  - {tmp_path}/assess/pipe.xml: assessment file not read: a FIFO (named pipe), not a regular file; "
        "file skipped; its topic is not known, so a topic may be missing from the evaluation",
        f"  - {tmp_path}/runs/pipe.xml: run not read: a FIFO (named pipe), not a regular file",
    ]
    assert "myrun" in done.stdout and "textrun" in done.stdout


def test_a_pipe_named_as_a_run_is_read(tmp_path):
    cfg = _setup(tmp_path)
    plain = _cli("-config", cfg, "-q")
    fifo = tmp_path / "named"
    os.mkfifo(fifo)
    shutil.move(tmp_path / "runs" / "a.xml", tmp_path / "a.xml")
    writer = subprocess.Popen(["sh", "-c", f"cat '{tmp_path}/a.xml' > '{fifo}'"])
    try:
        code, out, _err = _cli("-config", cfg, "-q", "--set", f"SUBMISSIONRUNS_DIR={fifo}, {tmp_path}/runs")
    finally:
        writer.wait(timeout=60)
    assert (code, out) == (0, plain[1])


def test_only_unreadable_entries_is_a_config_error(tmp_path):
    cfg = _setup(tmp_path)
    shutil.rmtree(tmp_path / "runs")
    (tmp_path / "runs").mkdir()
    os.symlink(tmp_path / "gone", tmp_path / "runs" / "a.xml")
    with pytest.raises(ConfigErrors) as exc:
        load_config(cfg)
    assert [e.message for e in exc.value.errors] == [
        f"SUBMISSIONRUNS_DIR: {tmp_path}/runs/a.xml: a dangling symbolic link (to {tmp_path}/gone)"]


# --------------------------------------------------------------------------- assessment files that cannot be used


def _topics_of(out: str) -> set[str]:
    return {line.split()[1] for line in out.splitlines()[3:] if len(line.split()) > 2}


def test_a_malformed_assessment_file_leaves_its_topic_out_and_the_rest_is_scored(tmp_path):
    # it stopped the whole evaluation, though the README says the rest is still scored
    cfg = _setup(tmp_path)
    (tmp_path / "assess" / "pool-12.xml").unlink()
    only_topic_1 = _cli("-config", cfg, "-q")
    # without the DOCTYPE (an external DTD may define any entity), an undefined entity is an error
    bad = ASSESSMENTS_2.replace(b'<!DOCTYPE assessments SYSTEM "assessments.dtd">', b"")
    _write(tmp_path / "assess" / "pool-12.xml", bad.replace(b'name="f2">', b'name="f2">&undefined;'))
    code, out, err = _cli("-config", cfg, "-q")
    assert (code, out) == (1, only_topic_1[1])
    assert _topics_of(out) == {"1", "all"}
    assert _skipped(err) == [f"{tmp_path}/assess/pool-12.xml: malformed XML: Entity 'undefined' not defined; "
                             "topic 2 is left out of the evaluation"]
    assert f"{tmp_path}/assess/pool-12.xml:15: malformed XML" in err  # lxml's real line, not 0


def test_an_assessment_file_without_header_is_skipped_naming_the_unknown_topic(tmp_path):
    cfg = _setup(tmp_path)
    _write(tmp_path / "assess" / "pool-12.xml", b"")
    code, out, err = _cli("-config", cfg, "-q")
    assert code == 1 and _topics_of(out) == {"1", "all"}
    assert _skipped(err) == [f"{tmp_path}/assess/pool-12.xml: malformed XML: no XML element (empty document); file "
                             "skipped; its topic is not known, so a topic may be missing from the evaluation"]
    _write(tmp_path / "assess" / "topic-2" / "pool-12.xml", b"<assessments")
    (tmp_path / "assess" / "pool-12.xml").unlink()
    code, _out, err = _cli("-config", cfg, "-q")
    assert code == 1 and "file skipped, so topic 2 is left out" in err


def test_pool_files_that_cannot_be_chosen_between_leave_the_topic_out(tmp_path):
    cfg = _setup(tmp_path)
    _write(tmp_path / "assess" / "pool-13.xml", ASSESSMENTS_2.replace(b'pool="12"', b'pool="13"'))
    code, out, err = _cli("-config", cfg, "-q")
    assert code == 1 and _topics_of(out) == {"1", "all"}
    assert "topic 2 has 2 assessment files" in err and "topic 2 is left out of the evaluation" in err


def test_no_topic_left_stops_with_the_reasons(tmp_path):
    cfg = _setup(tmp_path)
    for p in (tmp_path / "assess").iterdir():
        p.write_bytes(b"<assessments>")
    code, out, err = _cli("-config", cfg)
    assert (code, out) == (1, "")
    assert "no assessed topic selected" in err and "skipped:" in err and "pool-11.xml" in err
    assert "no assessed topic selected from 2 files (" in err


@pytest.mark.parametrize("text", ["", "\n\n"])
def test_a_qrels_file_without_judgements_is_named(tmp_path, text):
    """The one qrels file is named: with --set ASSESSMENTS_DIR the config has no line to point at."""
    qrels = _write(tmp_path / "empty.qrels", text.encode())
    (tmp_path / "runs").mkdir()
    _write(tmp_path / "runs" / "r.txt", b"1 Q0 d1 1 1.0 r\n")
    cfg = _write(tmp_path / "c.prop", f"TASK: trec\nASSESSMENTS_DIR: {tmp_path / 'other'}\n"
                 f"SUBMISSIONRUNS_DIR: {tmp_path / 'runs'}\n".encode())
    code, out, err = _cli("-config", cfg, "--set", f"ASSESSMENTS_DIR={qrels}")
    assert (code, out, err.strip()) == (1, "", f"inexeval: error: {cfg}: no assessed topic selected from {qrels} "
                                                "(check ASSESSMENTS_DIR, POOLS, TOPICS, QUERY_TYPE)")


def test_loader_without_a_problems_list_still_raises(tmp_path):
    data = ASSESSMENTS.replace(b'<!DOCTYPE assessments SYSTEM "assessments.dtd">', b"<!-- no DTD -->")
    path = _write(tmp_path / "pool-11.xml", data.replace(b'name="f2">', b'name="f2">\n&x;'))
    with pytest.raises(InputError) as exc:
        load_assessments([InputFile(path, tmp_path)])
    assert (exc.value.line, exc.value.message) == (16, "malformed XML: Entity 'x' not defined")
    problems: list[InputError] = []
    assert load_assessments([InputFile(path, tmp_path)], problems=problems).topics == {}
    assert [(p.line, p.message) for p in problems] == [
        (16, "malformed XML: Entity 'x' not defined; topic 1 is left out of the evaluation")]


def test_assessments_from_standard_input(tmp_path):
    cfg = _setup(tmp_path)
    (tmp_path / "assess" / "pool-12.xml").unlink()
    plain = _cli("-config", cfg, "-q")
    code, out, _err = _cli("-config", cfg, "-q", "--set", "ASSESSMENTS_DIR=-", stdin=ASSESSMENTS)
    assert (code, out) == plain[:2]
    code, out, _err = _cli("-config", cfg, "-q", "--set", "ASSESSMENTS_DIR=-", stdin=gzip.compress(ASSESSMENTS))
    assert (code, out) == plain[:2]


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_run_from_standard_input(tmp_path, jobs):
    cfg = _setup(tmp_path)
    (tmp_path / "runs" / "b.txt").unlink()
    plain = _cli("-config", cfg, "-q")
    (tmp_path / "runs" / "a.xml").unlink()
    (tmp_path / "runs" / "b.txt").write_bytes(RUN_TEXT)
    code, out, _err = _cli("-config", cfg, "-q", "--jobs", jobs, "--set", f"SUBMISSIONRUNS_DIR=-, {tmp_path}/runs",
                           stdin=RUN_XML)
    with_text = _setup(tmp_path)
    assert code == 0 and out == _cli("-config", with_text, "-q")[1]
    assert "myrun" in plain[1] and "myrun" in out


def test_standard_input_for_both_keys_is_a_config_error(tmp_path):
    cfg = _setup(tmp_path)
    code, _out, err = _cli("-config", cfg, "--set", "ASSESSMENTS_DIR=-", "--set", "SUBMISSIONRUNS_DIR=-")
    assert code == 2 and "only one of them can be read from standard input" in err


# --------------------------------------------------------------------------- parse errors and limits


def test_parse_errors_give_lxmls_line(tmp_path):
    run = _write(tmp_path / "r.xml", RUN_XML.replace(b"<description>fuzz", b"<description>\n&nbsp;fuzz"))
    with pytest.raises(InputError) as exc:
        read_run(run)
    assert (exc.value.line, exc.value.message) == (5, "malformed XML: Entity 'nbsp' not defined")
    empty = _write(tmp_path / "e.xml", b"")
    with pytest.raises(InputError) as exc:
        load_assessments([InputFile(empty, tmp_path)])
    assert (exc.value.line, exc.value.message) == (None, "malformed XML: no XML element (empty document)")
    prolog = _write(tmp_path / "p.xml", b"<?xml version='1.0'?>\n")
    with pytest.raises(InputError) as exc:
        load_assessments([InputFile(prolog, tmp_path)])
    assert exc.value.line == 2  # where the element was expected
    with pytest.raises(InputError) as exc:
        parse_document(empty)
    assert exc.value.line == 1 and exc.value.message.startswith("malformed XML document: Document is empty")
    doc = _write(tmp_path / "d.xml", b"<article>\n<p>\n&ndash;</p></article>")
    with pytest.raises(InputError) as exc:
        parse_document(doc)
    assert exc.value.line == 3 and "Entity 'ndash' not defined" in exc.value.message
    # with a DOCTYPE, an entity the absent DTD would define stays unexpanded (docs/formats.md §1.4)
    doc.write_bytes(b'<!DOCTYPE article SYSTEM "a.dtd">\n' + doc.read_bytes())
    assert parse_document(doc).tag == "article"


def test_parser_limits_are_explained_without_naming_lxml_options(tmp_path):
    deep = b"<x>" * 300 + b"</x>" * 300
    run = _write(tmp_path / "r.xml", RUN_XML.replace(b"<description>fuzz", b"<description>" + deep))
    with pytest.raises(InputError) as exc:
        read_run(run)
    assert "XML_PARSE_HUGE" not in exc.value.message
    assert exc.value.message.startswith("malformed XML: Excessive depth in document: 256")
    assert "elements nested at most 256 deep" in exc.value.message and "check that the file" in exc.value.message


# --------------------------------------------------------------------------- empty runs


def test_an_empty_run_is_warned_about_and_keeps_the_table_at_4_decimals(tmp_path):
    cfg = _setup(tmp_path)
    _write(tmp_path / "runs" / "empty.txt", b"")
    code, out, err = _cli("-config", cfg)
    assert code == 0
    assert (f"inexeval: warning: {tmp_path}/runs/empty.txt: the run has no result (an empty file?): every topic "
            "is missing from it, so its averages are undefined (0 with -e)") in err
    rows = {line.split()[0]: line.split()[1:] for line in out.splitlines()[3:] if line.strip()}
    assert set(rows["empty"]) == {"-"}
    for value in rows["myrun"] + rows["textrun"]:
        assert len(value.split(".")[1]) == 4, value  # a row of undefined values switched them to full precision


@pytest.mark.parametrize("text", [b"", b"# only a comment\n\n"])
def test_an_empty_trec_run_is_a_warning_as_for_inex(tmp_path, text):
    """It was an error (exit 1) where INEX and FOL runs were scored as retrieving nothing, with a warning."""
    _write(tmp_path / "qrels.txt", b"1 0 d1 1\n1 0 d2 0\n2 0 d3 2\n")
    _write(tmp_path / "runs" / "empty.run", text)
    _write(tmp_path / "runs" / "r.run", b"1 Q0 d2 1 2.0 r\n1 Q0 d1 2 1.0 r\n2 Q0 d3 1 1.0 r\n")
    cfg = _write(tmp_path / "t.prop", b"TASK: trec\nASSESSMENTS_DIR: qrels.txt\nSUBMISSIONRUNS_DIR: runs\n"
                                      b"RESULTS_DIR: out\nMETRICS: map, num_ret\n")
    warning = (f"inexeval: warning: {tmp_path}/runs/empty.run: the run has no result (an empty file?): every "
               "topic is missing from it, so its averages are undefined (0 with -e)")
    for flags, empty_row in (((), ["-", "-"]), (("-e",), ["0.0000", "0"])):  # num_ret, a count: an integer
        code, out, err = _cli("-config", str(cfg), *flags)
        assert code == 0 and warning in err, err
        rows = {line.split()[0]: line.split()[1:] for line in out.splitlines()[3:] if line.strip()}
        # r: AP(1) = (1/2)/1 = 0.5, AP(2) = 1/1 = 1, map = 0.75; 3 results retrieved
        assert rows == {"empty": empty_row, "r": ["0.7500", "3"]}
    from inexeval.validate import validate_runs

    (report,) = validate_runs([tmp_path / "runs" / "empty.run"], task="trec")
    assert report.valid and [f.kind for f in report.warnings] == ["empty"] and report.run_id == "empty"


# --------------------------------------------------------------------------- the collection


DOC_2006 = SAMPLE / "inex2006"


def _bic(tmp_path: Path) -> Path:
    shutil.copytree(DOC_2006, tmp_path / "d")
    return _write(tmp_path / "bic.prop", b"TASK: BestInContext\nBEP_A: 1\nASSESSMENTS_DIR: d/assessments\n"
                                         b"SUBMISSIONRUNS_DIR: d/runs/BestInContext\nCOLLECTION_DIR: d/collection\n"
                                         b"RESULTS_DIR: out\n")


def test_a_document_with_an_entity_declaration_is_reported_and_the_rest_scored(tmp_path):
    # it aborted the whole evaluation (AVG_DOC_LENGTH reads every document)
    cfg = _bic(tmp_path)
    doc = tmp_path / "d" / "collection" / "704998.xml"
    text = doc.read_text()
    at = text.index("<article")
    doc.write_text(text[:at] + '<!DOCTYPE article [\n<!ENTITY x "y">]>\n' + text[at:])
    code, out, err = _cli("-config", cfg)
    assert code == 1 and "BicGood" in out and "BicPoor" in out
    assert f"inexeval: error: {doc}:3: document declares entities (refused for safety); left out of the " \
           "average document length (AVG_DOC_LENGTH)" in err
    collection = Collection(tmp_path / "d" / "collection")
    docs = [p for p in sorted((tmp_path / "d" / "collection").glob("*.xml")) if p != doc]
    from inexeval.readers.collection import text_length

    mean = sum(text_length(parse_document(p)) for p in docs) / len(docs)
    assert collection.average_length() == mean and len(collection.problems) == 1


def test_documents_in_utf16_are_read_like_utf8(tmp_path):
    cfg = _bic(tmp_path)
    plain = _cli("-config", cfg)
    for doc in (tmp_path / "d" / "collection").glob("*.xml"):
        text = doc.read_text(encoding="utf-8")
        doc.write_bytes(text.replace("encoding='UTF-8'", "encoding='UTF-16'").encode("utf-16"))
    assert _cli("-config", cfg) == plain


def test_a_fifo_in_the_collection_does_not_block(tmp_path):
    os.mkfifo(tmp_path / "x.xml")
    with pytest.raises(InputError) as exc:
        parse_document(tmp_path / "x.xml")
    assert exc.value.message == "cannot read document: a FIFO (named pipe), not a regular file"


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_trec_and_fol_runs_from_standard_input(tmp_path, jobs):
    # standard input is read once, before the workers are forked (they would see an empty one)
    shutil.copytree(SAMPLE / "trec", tmp_path / "trec")
    cfg = _write(tmp_path / "t.prop", b"TASK: trec\nASSESSMENTS_DIR: trec/qrels.txt\nSUBMISSIONRUNS_DIR: trec/runs\n"
                                      b"RESULTS_DIR: out\n")
    plain = _cli("-config", cfg, "-q")
    good = (tmp_path / "trec" / "runs" / "good.txt").read_bytes()
    (tmp_path / "trec" / "runs" / "good.txt").unlink()
    code, out, _err = _cli("-config", cfg, "-q", "--jobs", jobs, "--set",
                           f"SUBMISSIONRUNS_DIR=-, {tmp_path}/trec/runs", stdin=good)
    assert (code, out) == plain[:2]  # the run id is the run's tag column
    (tmp_path / "fol").mkdir()
    fol = _fol_setup(tmp_path / "fol")
    plain = _cli("-config", fol, "-q")
    run = (tmp_path / "fol" / "runs" / "run.txt").read_bytes()
    (tmp_path / "fol" / "runs" / "run.txt").unlink()
    _write(tmp_path / "fol" / "runs" / "other.txt", run.replace(b"TREC2INEX", b"OTHER"))
    code, out, _err = _cli("-config", fol, "-q", "--jobs", jobs, "--set", f"SUBMISSIONRUNS_DIR=-, {tmp_path}/fol/runs",
                           stdin=run)
    assert code == 0 and out.count("2009001") == 2 * plain[1].count("2009001"), _err


def test_an_empty_fol_run_is_warned_about(tmp_path):
    cfg = _fol_setup(tmp_path)
    _write(tmp_path / "runs" / "empty.txt", b"")
    code, _out, err = _cli("-config", cfg)
    assert code == 0 and (f"inexeval: warning: {tmp_path}/runs/empty.txt: the run has no result (an empty file?): "
                          "every topic is missing from it, and it is scored as inex_eval scores it") in err


def test_a_bad_file_of_a_topic_that_topics_leaves_out_is_only_a_warning(tmp_path):
    cfg = _setup(tmp_path, CONFIG + "TOPICS: 1\n")
    plain = _cli("-config", cfg, "-q")
    _write(tmp_path / "assess" / "topic-7" / "pool-70.xml", b"<assessments")
    code, out, err = _cli("-config", cfg, "-q")
    assert (code, out) == plain[:2]
    assert f"inexeval: warning: {tmp_path}/assess/topic-7/pool-70.xml:1: malformed XML" in err
    assert "(a file of topic 7, which TOPICS leaves out)" in err


def test_an_unreadable_assessment_file_is_reported_and_the_rest_scored(tmp_path):
    # permissions cannot be tested as root: the file's open() fails as it would without read permission
    from unittest import mock

    cfg = _setup(tmp_path)
    (tmp_path / "assess" / "pool-12.xml").unlink()
    only_topic_1 = _cli("-config", cfg, "-q")
    locked = _write(tmp_path / "assess" / "topic-2" / "pool-12.xml", ASSESSMENTS_2)
    real_open = open

    def fake_open(path, *args, **kwargs):
        if Path(path) == locked:
            raise PermissionError(13, "Permission denied", str(path))
        return real_open(path, *args, **kwargs)

    with mock.patch("inexeval.readers.open", fake_open, create=True):  # readers.whole_input opens it
        code, out, err = _cli("-config", cfg, "-q")
    assert (code, out) == (1, only_topic_1[1])
    assert _skipped(err) == [f"{locked}: cannot read assessment file: Permission denied; file skipped, so topic 2 "
                             "is left out"]


def test_a_rejected_run_is_reported_once_without_how_it_would_have_been_scored(tmp_path):
    """A TREC run given to a FOL task: inex_eval rejects it (fields missing); the warning that its
    topics are not in the recall-base, about a run that is not scored, was printed beside the error."""
    runs = _write(tmp_path / "runs" / "trec.txt", b"301 Q0 FR940202-2-00150 104 2.129133 STANDARD\n").parent
    code, _, err = _cli("-config", ROOT / "configs" / "fol-focused.prop", "--set", f"SUBMISSIONRUNS_DIR={runs}",
                        "--results-dir", tmp_path / "out")
    assert code == 1
    assert err.splitlines()[0] == (f"inexeval: error: {runs}/trec.txt:1: inex_eval rejects this run: fields missing "
                                   "in line 1: 301 Q0 FR940202-2-00150 104 2.129133 STANDARD")
    assert "recall-base" not in err and "warning" not in err
