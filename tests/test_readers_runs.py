"""The run reader (docs/formats.md §1.3, §9.3): XML submissions, text runs, run hygiene, issues, units, safety."""

from __future__ import annotations

import gzip
import io
import sys
import textwrap
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from inexeval.errors import InputError, InvalidPath
from inexeval.paths import normalise_file_id, normalise_path
from inexeval.readers import runs as runs_module
from inexeval.readers import units as units_module
from inexeval.readers.runs import RunObserver, RunReader, read_run
from inexeval.readers.units import ELEMENT, UNITS, Unit, unit_named
from inexeval.validate import validate_run

pytestmark = pytest.mark.slow  # run readers, hypothesis and large runs

A = "/article[1]"
S1 = "/article[1]/sec[1]"
S2 = "/article[1]/sec[2]"
S3 = "/article[1]/sec[3]"


def write(tmp_path, name, text):
    p = tmp_path / name
    p.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return p


def result(file, path, rank=None):
    r = "" if rank is None else f"<rank>{rank}</rank>"
    return f"<result><file>{file}</file><path>{path}</path>{r}</result>"


def submission(body, root_attrs='run-id="r1" task="CO.Focussed"'):
    return f'<?xml version="1.0"?>\n<inex-submission {root_attrs}>\n{body}\n</inex-submission>\n'


class Recorder(RunObserver):
    """Records everything a RunReader tells (as validation does)."""

    wants_rsv = True

    def __init__(self):
        self.issues = []
        self.blocks = []  # (topic, n, lines, ranks, rsvs, kept keys with their lines)

    def issue(self, issue):
        self.issues.append(issue)

    def block(self, block, kept, keys):
        lines = block.lines()
        kept_lines = lines[: len(keys)] if kept is None else [lines[i] for i in kept]
        self.blocks.append((block.topic, block.n, lines, block.ranks, block.rsvs, list(zip(keys, kept_lines))))


def issues_of(path, **kwargs):
    seen = Recorder()
    RunReader(path, **kwargs).read(seen)
    return [(i.kind, i.topic, i.line, i.message, i.value, i.count) for i in seen.issues]


# --------------------------------------------------------------------------- XML variants


def test_full_2005_submission(tmp_path):
    p = write(
        tmp_path,
        "run.xml",
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <inex-submission participant-id="24" run-id="myrun" task="CO.Focussed" query="automatic">
          <topic-fields title="yes" castitle="no" description="no" narrative="no"/>
          <description>BM25 on sections</description>
          <collections><collection>ieee</collection></collections>
          <topic topic-id="202">
            <result><file>co/2000/r7108</file><path>/article[1]/bdy[1]/sec[2]</path><rank>1</rank><rsv>12.5</rsv></result>
            <result><file>./co/2000/r7108.xml</file><path>/article/bdy</path><rank>2</rank><rsv>11</rsv></result>
          </topic>
          <topic topic-id="203">
            <result><file>an/1995/a1004</file><path>article[1]/</path><rank>1</rank><rsv>3</rsv></result>
          </topic>
        </inex-submission>
        """,
    )
    run = read_run(p)
    assert run.run_id == "myrun"
    assert run.task == "CO.Focussed"
    assert run.source == str(p)
    assert run.topics == {
        "202": [("co/2000/r7108", "/article[1]/bdy[1]/sec[2]"), ("co/2000/r7108", "/article[1]/bdy[1]")],
        "203": [("an/1995/a1004", "/article[1]")],
    }
    assert run.warnings == []


def test_tolerated_variants_2006_wikipedia(tmp_path):
    # No topic-fields/description/collections; <collections> inside <topic>;
    # extra attributes; stray spaces in attribute values; missing rank/rsv;
    # ranks starting at 0 -- none of these is a warning.
    p = write(
        tmp_path,
        "wiki.xml",
        """
        <inex-submission participant-id=" 5 " run-id="  wiki run  " task=" Focused " submission-type="manual">
          <topic topic-id=" 289 " topic-part="1" result-type="element">
            <collections><collection>wikipedia</collection></collections>
            <result><file> 1000143 </file><path> /article[1]/section[2] </path><rank>0</rank></result>
            <result><file>1000143</file><path>/article[1]/section[3]</path><rank>1</rank><rsv>0.5</rsv></result>
            <result><file>2001</file><path>/article[1]</path></result>
          </topic>
        </inex-submission>
        """,
    )
    run = read_run(p)
    assert run.run_id == "wiki run"
    assert run.task == "Focused"
    assert run.topics == {
        "289": [("1000143", "/article[1]/section[2]"), ("1000143", "/article[1]/section[3]"), ("2001", "/article[1]")]
    }
    assert run.warnings == []


def test_run_id_falls_back_to_file_stem_and_task_absent(tmp_path):
    p = write(tmp_path, "stemmed.xml", submission(f'<topic topic-id="1">{result("f", A)}</topic>', root_attrs=""))
    run = read_run(p)
    assert run.run_id == "stemmed"
    assert run.task is None


def test_ranking_is_document_order_and_rank_disagreement_is_one_counted_warning(tmp_path):
    # Ranks 1, 3, 2, 2: the 3rd (2 <= 3) and 4th (2 <= 2) disagree -> 2; topic 5: 7, 1 -> 1.
    body = (
        '<topic topic-id="4">'
        + result("f", A, 1)
        + result("f", S1, 3)
        + result("f", S2, 2)
        + result("f", S3, 2)
        + '</topic>\n<topic topic-id="5">'
        + result("g", A, 7)
        + result("g", S1, 1)
        + "</topic>"
    )
    run = read_run(write(tmp_path, "r.xml", submission(body)))
    assert run.topics["4"] == [("f", A), ("f", S1), ("f", S2), ("f", S3)]
    assert run.topics["5"] == [("g", A), ("g", S1)]
    assert len(run.warnings) == 1
    assert "rank disagrees with document order for 3 results (topics 4, 5;" in run.warnings[0]
    assert "document order used" in run.warnings[0]


def test_non_integer_rank_is_a_counted_warning(tmp_path):
    body = '<topic topic-id="4">' + result("f", A, "first") + result("f", S1, 2) + "</topic>"
    run = read_run(write(tmp_path, "r.xml", submission(body)))
    assert run.topics["4"] == [("f", A), ("f", S1)]
    assert len(run.warnings) == 1
    assert "1 non-integer rank value ignored (topic 4;" in run.warnings[0]


# --------------------------------------------------------------------------- hygiene


def test_max_results_truncation_exact_warning(tmp_path):
    # 5 results, MAX_RESULTS = 3 -> results 4 and 5 dropped: 5 - 3 = 2.
    body = '<topic topic-id="202">' + "".join(result("f", f"/article[1]/p[{i}]") for i in range(1, 6)) + "</topic>"
    p = write(tmp_path, "run.xml", submission(body))
    run = read_run(p, max_results=3)
    assert run.topics["202"] == [("f", f"/article[1]/p[{i}]") for i in (1, 2, 3)]
    assert run.warnings == [f"{p}: 2 results beyond MAX_RESULTS=3 dropped (topic 202)"]


def test_truncation_comes_before_duplicate_removal(tmp_path):
    # Submitted: A, A (dup), S1, S2.  The first 3 submitted count: A, A, S1;
    # the dup is dropped afterwards, so only 2 remain and S2 is still beyond.
    body = '<topic topic-id="1">' + result("f", A) + result("f.xml", "/article") + result("f", S1) + result("f", S2) + "</topic>"
    p = write(tmp_path, "run.xml", submission(body))
    run = read_run(p, max_results=3)
    assert run.topics["1"] == [("f", A), ("f", S1)]
    assert run.warnings == [
        f"{p}: 1 result beyond MAX_RESULTS=3 dropped (topic 1)",
        f"{p}: 1 duplicate result dropped (topic 1; first at line 3)",
    ]


def test_duplicates_aggregated_once_per_run_with_topics(tmp_path):
    # topic 202: A twice (spelled differently) -> 1; topic 203: S1 three times -> 2; total 3.
    body = (
        '<topic topic-id="202">' + result("f", A) + result("/f", "article") + "</topic>"
        '<topic topic-id="203">' + result("g", S1) + result("g", S1) + result("g", "/article/sec") + "</topic>"
    )
    p = write(tmp_path, "run.xml", submission(body))
    run = read_run(p)
    assert run.topics == {"202": [("f", A)], "203": [("g", S1)]}
    assert run.warnings == [f"{p}: 3 duplicate results dropped (topics 202, 203; first at line 3)"]


def test_invalid_results_keep_their_place_then_are_skipped(tmp_path):
    # MAX_RESULTS = 4.  Submitted: //sec (invalid), A, sec[0] (invalid), S1, S2.
    # The first 4 are //sec, A, sec[0], S1: two invalid skipped, S2 is beyond.
    body = (
        '<topic topic-id="7">'
        + result("f", "//sec")
        + result("f", A)
        + result("f", "/article[1]/sec[0]")
        + result("f", S1)
        + result("f", S2)
        + "</topic>"
    )
    p = write(tmp_path, "run.xml", submission(body))
    run = read_run(p, max_results=4)
    assert run.topics["7"] == [("f", A), ("f", S1)]
    assert len(run.warnings) == 2
    assert run.warnings[0] == f"{p}: 1 result beyond MAX_RESULTS=4 dropped (topic 7)"
    assert run.warnings[1].startswith(f"{p}: 2 invalid results skipped (topic 7); first at line 3: ")


@pytest.mark.parametrize(
    "res",
    [
        result("f", "/article[1]/*"),
        result("f", "/article[1]/text()"),
        result("f", "/article[1][@id='x']"),
        result("f", "/article[1]//p"),
        result("", A),
        result(" ./ ", A),
        "<result><file>f</file></result>",
        f"<result><path>{A}</path></result>",
    ],
)
def test_each_invalid_result_kind_is_counted(tmp_path, res):
    body = '<topic topic-id="1">' + res + result("f", S1) + "</topic>"
    run = read_run(write(tmp_path, "run.xml", submission(body)))
    assert run.topics["1"] == [("f", S1)]
    assert len(run.warnings) == 1
    assert ": 1 invalid result skipped (topic 1); first at line 3" in run.warnings[0]


def test_empty_topic_is_absent_and_repeated_topic_continues(tmp_path):
    # Topic 1 appears twice: its second part continues the ranking, and
    # MAX_RESULTS (2) and duplicates span both parts.  Topic 2 is empty.
    body = (
        '<topic topic-id="1">' + result("f", A) + "</topic>\n"
        '<topic topic-id="2"></topic>\n'
        '<topic topic-id="3"><collections><collection>ieee</collection></collections></topic>\n'
        '<topic topic-id="1">' + result("f", A) + result("f", S1) + result("f", S2) + "</topic>"
    )
    p = write(tmp_path, "run.xml", submission(body))
    run = read_run(p, max_results=3)
    assert run.topics == {"1": [("f", A), ("f", S1)]}
    assert run.warnings == [
        f"{p}: 1 result beyond MAX_RESULTS=3 dropped (topic 1)",
        f"{p}: 1 duplicate result dropped (topic 1; first at line 6)",
    ]


def test_topic_whose_results_are_all_invalid_is_present_and_empty(tmp_path):
    body = '<topic topic-id="9">' + result("f", "//x") + "</topic>"
    run = read_run(write(tmp_path, "run.xml", submission(body)))
    assert run.topics == {"9": []}


def test_topic_list_in_warning_is_capped(tmp_path):
    body = "".join(f'<topic topic-id="{t}">{result("f", A)}{result("f", A)}</topic>' for t in range(1, 13))
    run = read_run(write(tmp_path, "run.xml", submission(body)))
    assert run.warnings[0].endswith("12 duplicate results dropped (topics 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 and 2 more; "
                                   "first at line 3)")


# --------------------------------------------------------------------------- XML errors


def expect_error(path, line, fragment):
    with pytest.raises(InputError) as info:
        read_run(path)
    err = info.value
    assert err.file == str(path)
    assert err.line == line
    assert fragment in err.message
    return err


def test_malformed_xml_names_file_and_line(tmp_path):
    p = write(
        tmp_path,
        "bad.xml",
        """
        <inex-submission run-id="r">
          <topic topic-id="1">
            <result><file>f</file><path>/a</path></result>
            <result><file>f</file><path>/b</pth></result>
          </topic>
        </inex-submission>
        """,
    )
    expect_error(p, 4, "malformed XML")


def test_truncated_xml_is_an_error(tmp_path):
    p = write(tmp_path, "cut.xml", '<inex-submission run-id="r">\n<topic topic-id="1">\n<result><file>f</file>')
    with pytest.raises(InputError) as info:
        read_run(p)
    assert info.value.file == str(p) and info.value.line == 3


def test_result_outside_topic(tmp_path):
    p = write(tmp_path, "r.xml", submission(result("f", A)))
    expect_error(p, 3, "<result> outside <topic>")


def test_topic_without_id(tmp_path):
    p = write(tmp_path, "r.xml", submission(f'<topic topic-id="  ">{result("f", A)}</topic>'))
    expect_error(p, 3, "topic-id")


def test_wrong_root_element(tmp_path):
    p = write(tmp_path, "r.xml", '<?xml version="1.0"?>\n<assessments topic="1">\n<topic topic-id="1"/>\n</assessments>\n')
    expect_error(p, 2, "not an INEX submission")
    q = write(tmp_path, "s.xml", "<foo/>\n")
    expect_error(q, None, "not an INEX submission")


# --------------------------------------------------------------------------- safety


def test_doctype_with_missing_external_dtd_parses(tmp_path):
    p = write(
        tmp_path,
        "dtd.xml",
        '<?xml version="1.0"?>\n<!DOCTYPE inex-submission SYSTEM "/nonexistent/inex-submission.dtd">\n'
        + submission(f'<topic topic-id="1">{result("f", A)}</topic>').split("\n", 1)[1],
    )
    assert read_run(p).topics == {"1": [("f", A)]}


BILLION_LAUGHS = """<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
 <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
 <!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">
 <!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;">
 <!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;">
 <!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;">
 <!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">
]>
<inex-submission run-id="&lol9;"><topic topic-id="1"><result><file>&lol9;</file><path>/a</path></result></topic></inex-submission>
"""


def test_billion_laughs_refused(tmp_path):
    p = tmp_path / "lol.xml"
    p.write_text(BILLION_LAUGHS)
    expect_error(p, 3, "entity declarations are not allowed")


def test_external_entity_refused_and_not_read(tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP-SECRET-42")
    p = tmp_path / "xxe.xml"
    p.write_text(
        '<?xml version="1.0"?>\n'
        '<!-- a comment mentioning <!ENTITY is not a declaration -->\n'
        f'<!DOCTYPE r [\n  <!ENTITY xxe SYSTEM "file://{secret}">\n]>\n'
        '<inex-submission run-id="r"><topic topic-id="1"><result><file>&xxe;</file>'
        "<path>/a</path></result></topic></inex-submission>\n"
    )
    err = expect_error(p, 4, "entity declarations are not allowed")
    assert "TOP-SECRET-42" not in str(err)


def test_etc_passwd_entity_refused(tmp_path):
    p = tmp_path / "passwd.xml"
    p.write_text(
        '<!DOCTYPE foo [ <!ENTITY xxe SYSTEM "file:///etc/passwd"> ]>\n'
        '<inex-submission run-id="&xxe;"><topic topic-id="1"/></inex-submission>\n'
    )
    expect_error(p, 1, "entity declarations are not allowed")


# --------------------------------------------------------------------------- compression, stdin


def test_gzip_xml_run_and_stem(tmp_path):
    xml = submission(f'<topic topic-id="1">{result("f", A)}</topic>', root_attrs="")
    p = tmp_path / "zipped.xml.gz"
    p.write_bytes(gzip.compress(xml.encode()))
    run = read_run(p)
    assert run.run_id == "zipped"
    assert run.topics == {"1": [("f", A)]}


def test_corrupt_gzip_is_an_input_error(tmp_path):
    p = tmp_path / "bad.gz"
    p.write_bytes(b"\x1f\x8b\x08\x00garbage")
    with pytest.raises(InputError) as info:
        read_run(p)
    assert info.value.file == str(p)


def test_gzip_truncated_in_the_middle_is_an_input_error(tmp_path):
    """A gzip run is decompressed as it is parsed: corruption far from the start is still
    an InputError naming the file (and the message of the decompressor), not a traceback."""
    body = "".join(f'<topic topic-id="{t}">' + "".join(result("f", f"/article[1]/p[{i}]") for i in range(1, 200))
                   + "</topic>" for t in range(1, 200))
    packed = gzip.compress(submission(body).encode())
    p = tmp_path / "cut.xml.gz"
    p.write_bytes(packed[: len(packed) * 2 // 3])
    with pytest.raises(InputError) as info:
        read_run(p)
    assert info.value.file == str(p) and "gzip" in info.value.message


def test_runs_are_streamed_never_read_whole(tmp_path, monkeypatch):
    """Memory (issue 9): XML and text runs, plain or gzip, are read from a stream a bounded piece at a time."""
    p = write(tmp_path, "run.xml", submission(f'<topic topic-id="1">{result("f", A)}{result("f", S1)}</topic>'))
    text = b"\xef\xbb\xbf1 Q0 f 1 2.5 tr /article[1]\n1 Q0 f 2 2.0 tr /article[1]/sec[1]"  # BOM, no final newline
    t = tmp_path / "run.txt"
    t.write_bytes(text)
    tz = tmp_path / "run.txt.gz"
    tz.write_bytes(gzip.compress(text))
    pz = tmp_path / "run.xml.gz"
    pz.write_bytes(gzip.compress(p.read_bytes()))
    read = runs_module._Guarded.read
    sizes = []

    def bounded(self, n=-1):
        sizes.append(n)
        assert 0 < n <= runs_module._CHUNK, f"read({n})"
        return read(self, n)

    monkeypatch.setattr(runs_module._Guarded, "read", bounded)
    assert read_run(p).topics == read_run(pz).topics == {"1": [("f", A), ("f", S1)]}
    assert read_run(t).topics == read_run(tz).topics == {"1": [("f", A), ("f", S1)]}
    assert sizes  # the XML parser and the head pull bounded pieces; text lines are iterated


TEXT_LINES = ["1 Q0 f 1 1 tr /article[1]", "1 Q0 f 2 1 tr /article[1]/sec[1]", "1 Q0 f\u00e9 3 1 tr /article[1]",
              "x y", "", "\u4e2d\u6587", "2 Q0 f one 1 tr /a", "2 Q0 f 1 high tr /a"]


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(lines=st.lists(st.sampled_from(TEXT_LINES), min_size=1, max_size=12),
       bad_at=st.lists(st.integers(min_value=0, max_value=11), max_size=3))
def test_text_run_problems_in_file_order(tmp_path, lines, bad_at):
    """Every line the reader cannot take is one ``malformed`` issue at its line (a byte that is not
    UTF-8 at the line of that byte); the evaluator refuses the run at the first of them."""
    data = [line.encode("utf-8") for line in lines]
    for i in bad_at:
        if i < len(data):
            data[i] += b"\xff"
    p = tmp_path / "run.txt"
    p.write_bytes(b"\n".join(data))
    expected = []  # (line, what)
    for n, raw in enumerate(data, 1):
        try:
            cols = raw.decode("utf-8").split()
        except UnicodeDecodeError:
            expected.append((n, "UTF-8"))
            continue
        if cols and len(cols) != 7:
            expected.append((n, "columns"))
        elif cols and not cols[3].isdigit():
            expected.append((n, "is not an integer"))
        elif cols and cols[4] == "high":
            expected.append((n, "is not a number"))
    seen = Recorder()
    RunReader(p).read(seen)
    malformed = [(i.line, i.message) for i in seen.issues if i.kind == "malformed"]
    assert [line for line, _ in malformed] == [line for line, _ in expected]
    assert all(what in message for (_, message), (_, what) in zip(malformed, expected))
    if expected:
        with pytest.raises(InputError) as info:
            read_run(p)
        assert (info.value.line, info.value.message) == malformed[0]
    else:
        read_run(p)


def test_head_reads_past_a_long_prolog_comment(tmp_path, monkeypatch):
    """The prolog is read up to the root tag, however long, and a tag-like text inside an
    unclosed-so-far comment is not taken for the root: the declaration after it is found."""
    monkeypatch.setattr(runs_module, "_CHUNK", 16)
    p = tmp_path / "long.xml"
    p.write_text('<?xml version="1.0"?>\n<!-- a long comment with <tags> inside ' + "x" * 100 + ' -->\n'
                 '<!DOCTYPE inex-submission [ <!ENTITY e "boom"> ]>\n<inex-submission run-id="r"/>\n')
    head = runs_module.RunInput(p, str(p)).head()
    assert b"]>\n<i" in head, "read up to the root's start tag, not the <tags> of the comment"
    with pytest.raises(InputError) as info:
        read_run(p)
    assert "entity declarations" in info.value.message and info.value.line == 3


def test_missing_run_file_is_an_input_error(tmp_path):
    with pytest.raises(InputError) as info:
        read_run(tmp_path / "nope.xml")
    assert info.value.file == str(tmp_path / "nope.xml")


class _Stdin:
    def __init__(self, data: bytes):
        self.buffer = io.BytesIO(data)


def test_stdin_text_run(monkeypatch):
    monkeypatch.setattr(sys, "stdin", _Stdin(b"1 Q0 f 1 2.5 piped /article[1]\n"))
    run = read_run("-")
    assert run.source == "<stdin>"
    assert run.run_id == "piped"
    assert run.topics == {"1": [("f", A)]}


def test_stdin_gzip_xml_run(monkeypatch):
    xml = submission(f'<topic topic-id="1">{result("f", A)}</topic>')
    monkeypatch.setattr(sys, "stdin", _Stdin(gzip.compress(xml.encode())))
    run = read_run("-")
    assert run.run_id == "r1"
    assert run.topics == {"1": [("f", A)]}


# --------------------------------------------------------------------------- text runs


def test_text_run_file_order_and_run_tag(tmp_path):
    p = write(
        tmp_path,
        "run.txt",
        """
        202 Q0 co/2000/r7108 1 12.5 myrun /article[1]/bdy[1]/sec[2]

        202 Q0 co/2000/r7108.xml 2 11 myrun /article/bdy
        203\tQ0\t1000143\t1\t3e-1\tmyrun\t/article[1]
        202 Q0 x 3 1 myrun //bad
        """,
    )
    run = read_run(p)
    assert run.run_id == "myrun"
    assert run.task is None
    assert run.topics == {
        "202": [("co/2000/r7108", "/article[1]/bdy[1]/sec[2]"), ("co/2000/r7108", "/article[1]/bdy[1]")],
        "203": [("1000143", "/article[1]")],
    }
    assert len(run.warnings) == 1
    assert run.warnings[0].startswith(f"{p}: 1 invalid result skipped (topic 202); first at line 5: ")


def test_text_run_disagreeing_tags_warn_and_first_is_used(tmp_path):
    p = write(
        tmp_path,
        "run.txt",
        """
        1 Q0 f 1 3 alpha /article[1]
        1 Q0 f 2 2 beta /article[1]/sec[1]
        1 Q0 f 3 1 gamma /article[1]/sec[2]
        """,
    )
    run = read_run(p)
    assert run.run_id == "alpha"
    assert run.topics == {"1": [("f", A), ("f", S1), ("f", S2)]}
    assert run.warnings == [f"{p}: 2 lines with a run tag other than 'alpha' (first at line 2: 'beta'); 'alpha' used"]


def test_text_run_hygiene_and_rank_warning(tmp_path):
    # Ranks 2, 1 disagree with file order; MAX_RESULTS = 2 drops the 3rd; the 2nd is a dup.
    p = write(
        tmp_path,
        "run.txt",
        """
        1 Q0 f 2 3 r /article[1]
        1 Q0 f 1 2 r /article[1]
        1 Q0 f 3 1 r /article[1]/sec[1]
        """,
    )
    run = read_run(p, max_results=2)
    assert run.topics == {"1": [("f", A)]}
    assert run.warnings[0] == f"{p}: 1 result beyond MAX_RESULTS=2 dropped (topic 1)"
    assert run.warnings[1] == f"{p}: 1 duplicate result dropped (topic 1; first at line 2)"
    assert run.warnings[2].startswith(f"{p}: rank disagrees with document order for 1 result (topic 1; first at line 2)")


@pytest.mark.parametrize(
    "line, fragment",
    [
        ("1 Q0 f 1 2.0 r", "expected 7 columns"),
        ("1 Q0 f 1 2.0 r /a extra", "expected 7 columns"),
        ("1 Q0 f one 2.0 r /a", "rank 'one' is not an integer"),
        ("1 Q0 f 1 high r /a", "score 'high' is not a number"),
    ],
)
def test_text_run_malformed_line(tmp_path, line, fragment):
    p = write(tmp_path, "run.txt", f"1 Q0 f 1 2.0 r /article[1]\n\n{line}\n")
    expect_error(p, 3, fragment)


def test_text_run_not_utf8(tmp_path):
    p = tmp_path / "run.txt"
    p.write_bytes(b"1 Q0 f 1 2 r /article[1]\n1 Q0 \xff 2 1 r /article[1]\n")
    expect_error(p, 2, "UTF-8")


def test_gzip_text_run(tmp_path):
    p = tmp_path / "t.run.gz"
    p.write_bytes(gzip.compress(b"  \n5 Q0 f 1 1 tr /article[1]/sec[3]\n"))
    run = read_run(p)
    assert (run.run_id, run.topics) == ("tr", {"5": [("f", S3)]})


def test_empty_text_run_has_no_topics_and_stem_as_id(tmp_path):
    p = tmp_path / "empty.txt"
    p.write_text("\n \n")
    run = read_run(p)
    # an empty run is scored as retrieving nothing, with a warning (issue 15: it was silent)
    assert (run.run_id, run.topics) == ("empty", {})
    assert run.warnings == [f"{p}: the run has no result (an empty file?): every topic is missing from it, so "
                            "its averages are undefined (0 with -e)"]


def test_xml_with_bom_or_leading_blank_lines_is_xml(tmp_path):
    body = f'<topic topic-id="1">{result("f", A)}</topic>'
    p = tmp_path / "bom.run"
    p.write_bytes(b"\xef\xbb\xbf" + submission(body).encode())
    assert read_run(p).topics == {"1": [("f", A)]}
    q = tmp_path / "blank.run"
    q.write_text("\n\n  " + submission(body).split("\n", 1)[1])  # no XML declaration
    assert read_run(q).topics == {"1": [("f", A)]}


def test_entity_text_in_a_comment_is_not_a_declaration(tmp_path):
    p = tmp_path / "c.xml"
    p.write_text(
        '<?xml version="1.0"?>\n<!-- we never use <!ENTITY declarations -->\n'
        '<!DOCTYPE inex-submission SYSTEM "inex.dtd">\n'
        f'<inex-submission run-id="c"><topic topic-id="1">{result("f", A)}</topic></inex-submission>\n'
    )
    assert read_run(p).topics == {"1": [("f", A)]}



# --------------------------------------------------------------------------- one reader: structure, lists, single results
#
# read_run and validate read with the one RunReader.  An XML submission is read a <topic> at a
# time, its fields taken as lists and the hygiene applied to whole lists; anything unusual is done
# one result at a time through the same hygiene.  runs._BULK = False forces the latter everywhere:
# the outcome must not change.


def outcome(path, max_results=1500):
    """(run id, task, topics, warnings) of read_run, or its InputError as (file, line, message)."""
    try:
        run = read_run(path, max_results=max_results)
    except InputError as exc:
        return ("error", exc.file, exc.line, exc.message)
    return (run.run_id, run.task, run.topics, run.warnings)


def one_at_a_time(monkeypatch, function, *args, **kwargs):
    """``function(*args, **kwargs)`` with every list shortcut of the reader turned off."""
    with monkeypatch.context() as m:
        m.setattr(runs_module, "_BULK", False)
        return function(*args, **kwargs)


def test_clean_submission_is_read_in_lists_with_exact_warnings(tmp_path, monkeypatch):
    # Line 1 is the XML declaration, 2 the root, 3 <topic 7>, so result i of topic 7 is
    # on line 3 + i.  Ranks 1, 2, 2, 5, 4: 3rd (2 <= 2) and 5th (4 <= 5) disagree -> 2,
    # first at line 3 + 3 = 6.  Topic 8 (lines 10-12) has ranks 9, 1 -> 1 more: 3 in all.  MAX_RESULTS = 4: topic 7
    # submits 5, 5 - 4 = 1 beyond.  Topic 8 has a duplicate (A twice): its keys are made one
    # result at a time; topic 7's as one list.
    ranks = [1, 2, 2, 5, 4]
    lines = ['<topic topic-id="7">']
    lines += [result("f", f"/article[1]/p[{i}]", r) for i, r in enumerate(ranks, 1)]
    lines += ["</topic>", '<topic topic-id="8">', result("g", A, 9), result("g.xml", "/article", 1), "</topic>"]
    p = write(tmp_path, "run.xml", submission("\n".join(lines)))
    expected = (
        "r1",
        "CO.Focussed",
        {"7": [("f", f"/article[1]/p[{i}]") for i in (1, 2, 3, 4)], "8": [("g", A)]},
        [
            f"{p}: 1 result beyond MAX_RESULTS=4 dropped (topic 7)",
            f"{p}: 1 duplicate result dropped (topic 8; first at line 12)",
            f"{p}: rank disagrees with document order for 3 results (topics 7, 8; first at line 6); document order used",
        ],
    )
    single = []
    key = ELEMENT.key
    monkeypatch.setattr(ELEMENT, "key", lambda *raw, **kw: single.append(raw) or key(*raw, **kw))
    assert outcome(p, 4) == expected
    assert single == [("g", A), ("g.xml", "/article")]  # topic 8 only
    assert one_at_a_time(monkeypatch, outcome, p, 4) == expected
    # what validation is told: the same hygiene, issue by issue
    assert issues_of(p, max_results=4) == [
        ("rank_order", "7", 6, "", (2, 2), 2),
        ("beyond", "7", 8, "", None, 1),
        ("rank_order", "8", 12, "", (1, 9), 1),
        ("duplicate", "8", 12, "", ("g", A), 1),
    ]


def test_rank_line_and_invalid_line(tmp_path, monkeypatch):
    # Lines: 1 declaration, 2 root, 3 <topic 1>, 4 rank 3, 5 rank 1 (disagrees), 6 </topic>,
    # 7 <topic 2>, 8 the invalid path.
    body = "\n".join(
        [
            '<topic topic-id="1">',
            result("f", A, 3),
            result("f", S1, 1),
            "</topic>",
            '<topic topic-id="2">',
            result("f", "/article[1]/sec[0]", 1),
            "</topic>",
        ]
    )
    p = write(tmp_path, "run.xml", submission(body))
    expected = [
        f"{p}: 1 invalid result skipped (topic 2); first at line 8: invalid index [0] in '/article[1]/sec[0]'",
        f"{p}: rank disagrees with document order for 1 result (topic 1; first at line 5); document order used",
    ]
    assert outcome(p)[3] == expected
    assert one_at_a_time(monkeypatch, outcome, p)[3] == expected


@pytest.mark.parametrize(
    "body, line, message",
    [
        # a <result> directly under the root, before and after the topics (line 3: the first line of the body)
        (result("f", A) + f'<topic topic-id="1">{result("f", S1)}</topic>', 3, "<result> outside <topic>"),
        (f'<topic topic-id="1">{result("f", S1)}</topic>\n' + result("f", A), 4, "<result> outside <topic>"),
        # a <result> one level too deep (in a topic, and in a result)
        (f'<topic topic-id="1">\n<group>{result("f", A)}</group>{result("f", S1)}</topic>', 4,
         "<result> outside <topic>"),
        (f'<topic topic-id="1">\n<result><file>f</file><path>/a</path>\n{result("g", A)}</result></topic>', 5,
         "<result> outside <topic>"),
        # a topic with results but no id, after a good one
        (f'<topic topic-id="1">{result("f", A)}</topic>\n<topic>{result("f", A)}</topic>', 4,
         "<topic> without a topic-id attribute"),
        # a topic inside a topic (or anything but the root) holding results
        (f'<topic topic-id="1">{result("f", A)}\n<topic topic-id="2">{result("g", A)}</topic></topic>', 4,
         "<topic> inside <topic>"),
        (f'<description>\n<topic topic-id="2">{result("g", A)}</topic></description>', 4,
         "<topic> inside <description>"),
    ],
)
def test_structure_errors(tmp_path, monkeypatch, body, line, message):
    p = write(tmp_path, "run.xml", submission(body))
    assert outcome(p) == ("error", str(p), line, message)
    assert one_at_a_time(monkeypatch, outcome, p) == ("error", str(p), line, message)
    assert [i[:4] for i in issues_of(p) if i[0] == "malformed"] == [("malformed", None, line, message)]


def test_every_structure_error_is_found_and_reading_goes_on(tmp_path):
    # Lines: 3 stray result, 4 <topic 1> with a good result, 5 a stray in a <group>, 6 an id-less topic,
    # 7 a nested topic (inside topic 3), 8 a result of topic 3, 9 a stray after the last topic.
    body = "\n".join([
        result("f", A),
        f'<topic topic-id="1">{result("f", A)}',
        f'<group>{result("f", S2)}</group></topic>',
        f'<topic>{result("f", A)}</topic>',
        f'<topic topic-id="3"><topic topic-id="4">{result("g", A)}</topic>',
        f'{result("h", A)}</topic>',
        result("f", S1),
    ])
    p = write(tmp_path, "run.xml", submission(body))
    seen = Recorder()
    RunReader(p).read(seen)
    assert [(i.kind, i.line, i.message) for i in seen.issues] == [
        ("malformed", 3, "<result> outside <topic>"),
        ("malformed", 5, "<result> outside <topic>"),
        ("malformed", 6, "<topic> without a topic-id attribute"),
        ("malformed", 7, "<topic> inside <topic>"),
        ("malformed", 9, "<result> outside <topic>"),
    ]
    assert [(b[0], b[5]) for b in seen.blocks] == [("1", [(("f", A), 4)]), ("3", [(("h", A), 8)])]


def test_result_tags_in_comments_or_cdata_are_not_results(tmp_path):
    body = f'<!-- <result> --><topic topic-id="1">{result("f", A)}<x><![CDATA[<result/>]]></x></topic>'
    p = write(tmp_path, "run.xml", submission(body))
    assert outcome(p) == ("r1", "CO.Focussed", {"1": [("f", A)]}, [])


@pytest.mark.parametrize(
    "file_xml, expected",
    [
        ("f", "f"),
        ("<![CDATA[f]]>", "f"),  # CDATA is text
        ("f<!-- c -->g", "fg"),  # comments and processing instructions are dropped, the text around joined
        ("f<?pi x?>g", "fg"),
        ("&#102;", "f"),
        (" f&amp;g ", "f&g"),
        ("f<b/>x", "f"),  # the text before the first child element
        ("<b/>f", None),  # none: missing
        ("", None),
    ],
)
def test_a_field_is_the_text_of_its_last_element_before_any_child(tmp_path, monkeypatch, file_xml, expected):
    # (an external DTD that is not read: its entity references are refused, below)
    doctype = '<!DOCTYPE inex-submission SYSTEM "/nonexistent/inex.dtd">\n'
    body = f'<topic topic-id="1"><result><file>x</file><file>{file_xml}</file><path>/a</path></result></topic>'
    p = write(tmp_path, "run.xml", submission(body).replace("<inex-submission", doctype + "<inex-submission"))
    want = {"1": [(expected, "/a[1]")]} if expected is not None else {"1": []}
    assert outcome(p)[2] == want
    assert one_at_a_time(monkeypatch, outcome, p)[2] == want
    if expected is None:
        assert outcome(p)[3] == [f"{p}: 1 invalid result skipped (topic 1); first at line 4: missing <file>"]


@pytest.mark.parametrize("body, line, name", [
    ('<topic topic-id="1"><result><file>f&ent;g</file><path>/a</path></result></topic>', 4, "ent"),
    ('<topic topic-id="1"><result><file>f</file>\n<path>/article[1]/&sec;</path></result></topic>', 5, "sec"),
    ('<topic topic-id="&t;"><result><file>f</file><path>/a</path></result></topic>', 4, "t"),
])
def test_an_entity_reference_of_an_unread_external_dtd_refuses_the_run(tmp_path, monkeypatch, body, line, name):
    """The external DTD is never read, so the value of &ent; is unknown; libxml2 dropped the reference
    without an error: '/article[1]/&sec;' was scored as '/article[1]/' (another element), and
    topic-id="&t;" was an empty id (an EvalJ user's review).  The run is refused at the line."""
    doctype = '<!DOCTYPE inex-submission SYSTEM "/nonexistent/inex.dtd">\n'
    p = write(tmp_path, "run.xml", submission(body).replace("<inex-submission", doctype + "<inex-submission"))
    want = ("error", str(p), line, f"entity reference &{name}; in a document whose DTD is external "
            "(/nonexistent/inex.dtd), which is never read: its value is unknown; write the text itself")
    assert outcome(p) == want
    assert one_at_a_time(monkeypatch, outcome, p) == want
    # the same text in a comment or a CDATA section, and the predefined and character references, are read
    quiet = body.replace(f"&{name};", "&amp;&#102;") + f"<!-- &{name}; --><x><![CDATA[&{name};]]></x>"
    p = write(tmp_path, "run.xml", submission(quiet).replace("<inex-submission", doctype + "<inex-submission"))
    assert outcome(p)[0] != "error"


def test_rank_and_rsv_texts_handed_over(tmp_path):
    # the last <rank> / <rsv> counts; absent ones are None; text runs hand every column over
    body = ('<topic topic-id="1"><result><file>f</file><path>/a</path><rank>9</rank><rank>1</rank>'
            "<rsv>x</rsv><rsv> 2.5 </rsv></result>\n<result><file>f</file><path>/b</path></result></topic>")
    seen = Recorder()
    RunReader(write(tmp_path, "run.xml", submission(body))).read(seen)
    ((topic, n, lines, ranks, rsvs, kept),) = seen.blocks
    assert (topic, n, lines, ranks, rsvs) == ("1", 2, [3, 4], ["1", None], [" 2.5 ", None])
    seen = Recorder()
    RunReader(write(tmp_path, "run.txt", "1 Q0 f 3 0.5 r /a\n\n1 Q0 g 4 0.25 r /b\n")).read(seen)
    assert [b[:5] for b in seen.blocks] == [("1", 2, [1, 3], ["3", "4"], ["0.5", "0.25"])]


def test_repeated_and_empty_topics_are_notes(tmp_path):
    # evaluation says nothing about them (absent / continued); validation reports them
    body = "\n".join([f'<topic topic-id="1">{result("f", A)}</topic>', '<topic topic-id="2"/>',
                      f'<topic topic-id="3">{result("f", A)}</topic>',
                      f'<topic topic-id="1">{result("f", S1)}</topic>'])
    p = write(tmp_path, "run.xml", submission(body))
    assert [i[:3] for i in issues_of(p)] == [("empty_topic", "2", 4), ("repeated_topic", "1", 6)]
    assert outcome(p)[3] == []
    t = write(tmp_path, "run.txt", "1 Q0 f 1 1 r /a\n2 Q0 f 1 1 r /a\n1 Q0 f 2 1 r /b\n1 Q0 f 3 1 s /c\n")
    # (a text block's hygiene is applied when the block ends: after the issues of its lines)
    assert sorted(i[:3] + i[4:5] for i in issues_of(t)) == [("repeated_topic", "1", 3, None), ("run_tag", "1", 4, "s")]


# Raw inner XML of <file>, <path> and <rank>: plain values, values every
# normalisation step changes, invalid values, and markup that makes ``.text``
# differ from the element's string value (CDATA, comments, PIs, references,
# child elements, entity references with an unread external DTD).
FILE_XML = ["f", "co/2000/r7108", "./f.xml", "/f", " f ", "F.XML", "", " ", "a\\b", "1000143", "f&amp;g",
            "<![CDATA[f]]>", "f<!-- c -->", "&#102;", "f<b/>", "<b/>f", "f<?pi x?>", "&ent;f", "x&ent;", "é", "f\u00a0"]
PATH_XML = ["/article[1]", "/article", "article[1]/", "/ARTICLE[1]/sec[2]", "/article[1]/sec[02]", "/article[1]/sec[0]",
            "//sec", "/article[1]/*", " /article[1] ", "/article[1]/p[10]", "<![CDATA[/article[1]]]>",
            "/article[1]<x/>", "", "/a[1]/b.c:d-e[3]", "/1a[1]", "/article[1]/sec[1234567890123456789]",
            "/article[1]/sec[123456789012345678]", "&ent;/article[1]", "/article[1]&#10;"]
RANK_XML = ["1", "2", "3", "10", "0", " 4 ", "+5", "x", "", "\u0663", "99999999999999999999", "1_0", "<b/>", "-1"]
RSV_XML = ["0.5", "0.4", "1", "2e3", "inf", "x", "", "<b/>"]


def mostly(plain, odd):
    """Mostly ``plain`` values (the list shortcuts), sometimes ``odd`` ones (one result at a time)."""
    return st.sampled_from(plain * (3 * len(odd) // len(plain) + 1) + odd)


FILE_TEXT = mostly(FILE_XML[:2] + ["1000143", "g"], FILE_XML)
PATH_TEXT = mostly([A, S1, S2, "/article[1]/p[10]", "/a[1]/b.c:d-e[3]"], PATH_XML)
RANK_TEXT = mostly(["1", "2", "3", "10", "0"], RANK_XML)
RSV_TEXT = mostly(["0.5", "0.3"], RSV_XML)


@st.composite
def result_xml(draw):
    if draw(st.sampled_from(range(4))):  # the usual layout
        children = [("file", draw(FILE_TEXT)), ("path", draw(PATH_TEXT))]
        if draw(st.sampled_from(range(4))):
            children.append(("rank", draw(RANK_TEXT)))
        children.append(("rsv", draw(RSV_TEXT)))
    else:  # any order, any count
        child = st.one_of(
            st.tuples(st.just("file"), st.sampled_from(FILE_XML)),
            st.tuples(st.just("path"), st.sampled_from(PATH_XML)),
            st.tuples(st.just("rank"), st.sampled_from(RANK_XML)),
            st.tuples(st.just("rsv"), st.sampled_from(RSV_XML)),
            st.tuples(st.just("note"), st.just("x")),
        )
        children = draw(st.lists(child, max_size=5))
    sep = draw(st.sampled_from(["", "\n"]))
    inner = sep.join(f"<{tag}>{text}</{tag}>" for tag, text in children)
    return f"<result>{inner}</result>"


@st.composite
def topic_xml(draw, depth=0):
    tid = draw(mostly(['topic-id="1"', 'topic-id=" 2 "', 'topic-id="3"'], ['topic-id=""', ""]))
    items = []
    for _ in range(draw(st.integers(0, 6))):
        kind = draw(st.sampled_from(range(16)))
        if kind == 0:
            items.append("<collections><collection>x</collection></collections>")
        elif kind == 1:
            items.append(f"<group>{draw(result_xml())}</group>")
        elif kind == 2 and depth == 0:
            items.append(draw(topic_xml(depth=1)))
        else:
            items.append(draw(result_xml()))
    return f"<topic {tid}>" + "\n".join(items) + "</topic>"


@st.composite
def submission_xml(draw):
    parts = [draw(topic_xml()) if draw(st.sampled_from(range(12))) else draw(result_xml()) for _ in range(draw(st.integers(0, 5)))]
    doctype = draw(st.sampled_from(["", '<!DOCTYPE inex-submission SYSTEM "/nonexistent/inex.dtd">\n']))
    return f'<?xml version="1.0"?>\n{doctype}<inex-submission run-id="r" task="t">\n' + "\n".join(parts) + "\n</inex-submission>\n"


def _report(path, max_results):
    return validate_run(path, max_results=max_results, task="CO.Focussed")


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(xml=submission_xml(), max_results=st.sampled_from([1, 2, 3, 1500]))
def test_lists_and_single_results_give_the_same_outcome(tmp_path, monkeypatch, xml, max_results):
    """read_run and validate_run, whatever shortcut the reader takes or not."""
    p = tmp_path / "run.xml"
    p.write_text(xml, encoding="utf-8")
    assert outcome(p, max_results) == one_at_a_time(monkeypatch, outcome, p, max_results)
    assert _report(p, max_results) == one_at_a_time(monkeypatch, _report, p, max_results)


# --------------------------------------------------------------------------- units


def test_element_unit():
    assert unit_named("element") is ELEMENT and UNITS == {"element": ELEMENT}
    with pytest.raises(ValueError, match="document"):
        unit_named("document")  # TREC runs have their own reader
    assert ELEMENT.key(" ./co/2000/r7108.xml ", "article/bdy") == ("co/2000/r7108", "/article[1]/bdy[1]")
    with pytest.raises(InvalidPath, match="missing <path>"):
        ELEMENT.key("f", None)
    assert ELEMENT.keys([["f", "/g"], [A, "article"]]) == [("f", A), ("g", A)]
    assert ELEMENT.keys([["f", "g"], [A, "//x"]]) is None
    assert ELEMENT.describe(("f", A)) == "f /article[1]"
    assert ELEMENT.text_columns == ("topic", "Q0", "file", "rank", "rsv", "run-id", "path")


class SpanUnit(Unit):
    """A passage-like unit (file, offset, length), to show that a unit is all a new kind of result needs."""

    name = "span"
    fields = ("file", "offset", "length")
    text_columns = ("topic", "Q0", "file", "rank", "rsv", "run-id", "offset", "length")
    xml_xpaths = ("file[last()]/node()[1]", "fol[last()]/@offset", "fol[last()]/@length")

    def xml_values(self, result):
        fol = result.findall("fol")
        return (result.findtext("file"),) + ((fol[-1].get("offset"), fol[-1].get("length")) if fol else (None, None))

    def key(self, file_raw, offset, length, *, strings=None):  # (no strings to share: numbers)
        if not isinstance(offset, str) or not isinstance(length, str):
            raise InvalidPath("missing <fol>")
        try:
            return normalise_file_id(file_raw), int(offset), int(length)
        except ValueError:
            raise InvalidPath(f"bad passage {offset}:{length}") from None


def test_another_unit_goes_through_the_same_hygiene(tmp_path):
    # MAX_RESULTS 3: the 4th line is beyond; line 2 is invalid, line 3 a duplicate of line 1.
    t = write(tmp_path, "fol.txt", "5 Q0 a.xml 1 9 r 10 20\n5 Q0 a 2 8 r x 20\n5 Q0 a 3 7 r 10 20\n5 Q0 b 4 6 r 0 5\n")
    builder = runs_module._RunBuilder(str(t), 3)
    reader = RunReader(t, unit=SpanUnit(), max_results=3)
    reader.read(builder)
    assert (reader.format, reader.run_id, builder.topics) == ("text", "r", {"5": [("a", 10, 20)]})
    assert builder.warnings(reader.run_id) == [
        f"{t}: 1 result beyond MAX_RESULTS=3 dropped (topic 5)",
        f"{t}: 1 invalid result skipped (topic 5); first at line 2: bad passage x:20",
        f"{t}: 1 duplicate result dropped (topic 5; first at line 3)",
    ]
    x = write(tmp_path, "fol.xml", submission(
        '<topic topic-id="5"><result><file>a</file><fol offset="10" length="20"/></result>'
        '<result><file>b</file></result><result><file>a</file><fol offset="10" length="20"/></result></topic>'))
    seen = Recorder()
    RunReader(x, unit=SpanUnit()).read(seen)
    assert [(i.kind, i.line, i.message, i.value) for i in seen.issues] == [
        ("invalid", 3, "missing <fol>", None), ("duplicate", 3, "", ("a", 10, 20))]
    assert seen.blocks[0][5] == [(("a", 10, 20), 3)]
    with pytest.raises(InputError, match="expected 8 columns 'topic Q0 file rank rsv run-id offset length', found 7"):
        RunReader(write(tmp_path, "bad.txt", "5 Q0 a 1 9 r 10\n"), unit=SpanUnit()).read(runs_module._RunBuilder("", 9))


# --------------------------------------------------------------------------- bulk helpers


ID_ALPHABET = "aAxXmMlL./\\ \t\n0123456789_-:*é\u00a0\u2028\u0130"
PATH_ALPHABET = "aAzZ_./[]:-*@ \t0123456789é\u0130"


@settings(max_examples=500, deadline=None)
@given(st.lists(st.text(alphabet=ID_ALPHABET, max_size=12), min_size=1, max_size=4))
def test_plain_file_ids_are_left_unchanged_by_normalise_file_id(raws):
    if units_module.plain_file_ids(raws):
        assert [normalise_file_id(r) for r in raws] == raws


@pytest.mark.parametrize("raw", ["co/2000/r7108", "1000143", "an/1995/a1004", "f.xm", "f.xmlx", "a:b_c-d", ".", "..//x"])
def test_usual_file_ids_are_plain(raw):
    assert normalise_file_id(raw) == raw
    assert units_module.plain_file_ids([raw, raw])


@pytest.mark.parametrize("raw", ["/f", "./f", "f.xml", "f.XmL", " f", "f ", "", "a\\b", "f\u00a0"])
def test_file_ids_that_normalisation_changes_are_not_plain(raw):
    assert units_module.plain_file_ids(["co/2000/r7108", raw]) is False


def _normalises_to_itself(path):
    try:
        return normalise_path(path) == path
    except InvalidPath:
        return False


@settings(max_examples=500, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.text(alphabet=PATH_ALPHABET, max_size=16),
            st.lists(
                st.tuples(
                    st.sampled_from(["article", "sec", "P", "h1", "_x", "1a", "a.b:c-d", "", "a b"]),
                    st.sampled_from(["[1]", "[12]", "[10]", "[0]", "[01]", "", "[ 2 ]", "[]", "[123456789012345678]",
                                     "[1234567890123456789]"]),
                ),
                min_size=1,
                max_size=4,
            ).map(lambda steps: "".join(f"/{t}{i}" for t, i in steps)),
        ),
        min_size=1,
        max_size=4,
    )
)
def test_plain_paths_are_exactly_the_normalised_paths(raws):
    # For paths the check is exact both ways: a list is plain iff normalise_path
    # returns each of its paths unchanged.
    assert units_module.plain_paths(raws) == all(_normalises_to_itself(r) for r in raws)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(RANK_XML[:-2] + ["7", "8", "9", "9223372036854775807", "9223372036854775808", "5"]),
                min_size=1, max_size=6))
def test_integer_ranks_are_int_of_each_text(raws):
    """A rank is [+-]ASCII digits, XML white space around ignored (docs/formats.md §1.7): not Python's
    int() syntax (``1_0``, other scripts' digits)."""
    import re

    got = runs_module._integer_ranks(raws)
    if not all(re.fullmatch(r"[+-]?[0-9]+", r.strip(" \t\n\r")) for r in raws):
        assert got is None
        return
    want = [int(r) for r in raws]
    if any(not -(2**63) <= v < 2**63 for v in want):
        assert got is None
    else:
        assert got is not None and got.tolist() == want


def test_consecutive_ranks_shortcut():
    # "4" .. "1503": recognised by comparison, values 4 + i; 1500 values end at 4 + 1499 = 1503.
    got = runs_module._integer_ranks([str(i) for i in range(4, 1504)])
    assert got.tolist() == list(range(4, 1504)) and int(got[-1]) == 4 + 1499
    assert Fraction(int(got.sum())) == Fraction((4 + 1503) * 1500, 2)


@pytest.mark.parametrize("bulk", [True, False])
@pytest.mark.parametrize("fmt", ["xml", "text"])
def test_a_runs_equal_strings_are_one_object(tmp_path, monkeypatch, bulk, fmt):
    # memory: a run repeats its file ids and paths, within a topic and across topics, and its keys
    # hold each distinct one once, whether made as lists or one result at a time (topic 2 holds an
    # invalid result, so its keys are made one at a time; "f.xml" normalises to "f")
    topics = {"1": [("f", A), ("f", S1), ("g", A)], "2": [("f.xml", S1), ("g", S2), ("f", "//sec"), ("g", A)]}
    if fmt == "xml":
        body = "".join(f'<topic topic-id="{t}">' + "".join(result(f, p) for f, p in rs) + "</topic>"
                       for t, rs in topics.items())
        p = write(tmp_path, "run.xml", submission(body))
    else:
        p = write(tmp_path, "run.txt", "".join(f"{t} Q0 {f} {i + 1} 1 r {q}\n"
                                               for t, rs in topics.items() for i, (f, q) in enumerate(rs)))
    with monkeypatch.context() as m:
        m.setattr(runs_module, "_BULK", bulk)
        run = read_run(p)
    keys = [k for t in ("1", "2") for k in run.topics[t]]
    assert keys == [("f", A), ("f", S1), ("g", A), ("f", S1), ("g", S2), ("g", A)]
    strings = [s for k in keys for s in k]
    for s in strings:
        assert all(s is other for other in strings if other == s), s
