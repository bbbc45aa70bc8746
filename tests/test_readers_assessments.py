"""Assessment reader (docs/formats.md §1.2): parsing, errors with file:line, warnings, selection, safety."""

from __future__ import annotations

import io
import textwrap
from pathlib import Path

import pytest

from inexeval.config import InputFile
from inexeval.errors import InputError
from inexeval.model import E_TOO_SMALL, Judgement
from inexeval.readers import safe_iterparse
from inexeval.readers.assessments import load_assessments


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return path


def pool_xml(topic="202", pool="1234", query_type="CO+S", body=""):
    root = " ".join(f'{k}="{v}"' for k, v in (("pool", pool), ("topic", topic)) if v is not None)
    qt = "" if query_type is None else f' query_type="{query_type}"'
    return f'<?xml version="1.0"?>\n<assessments {root}>\n<inex_topic topic_id="{topic}"{qt}/>\n{body}\n</assessments>\n'


def load(root: Path, **kw):
    files = [InputFile(p, root) for p in sorted(root.rglob("*")) if p.is_file()]
    return load_assessments(files, **kw)


# --------------------------------------------------------------------------- parsing


SAMPLE = """
<?xml version="1.0" encoding="UTF-8"?>
<assessments pool="1234" topic="202" version="2">
  <inex_topic topic_id="202" query_type="CO+S" ct_no="12"><title>xml retrieval</title></inex_topic>
  <file collection="ieee" name="co/2000/r7108">
    <passage start="/article[1]/bdy[1]/sec[2]/p[1]/text()[1].0" end="/article[1]/bdy[1]/sec[2]/p[3]/text()[1].15" size="615"/>
    <best-entry-point path="/article[1]/bdy[1]/sec[2]"/>
    <best-entry-point path="/article/bdy/sec[1]"/>
    <element path="/article[1]" exhaustivity="2" size="2,064" rsize="1,000"/>
    <element path="/article[1]/bdy[1]" E="1" size="2000" rsize="1000"/>
    <element path="/article/bdy/sec[2]" exhaustiveness="?" size="600" rsize="600"/>
    <element path="/article[1]/bdy[1]/sec[1]" exhaustivity="0" size="400" rsize="400"/>
  </file>
  <file collection="ieee" name="an/1995/a1004"></file>
  <file collection="ieee" name="./an/1995/a1005.xml"/>
  <file collection="ieee" name="co/2000/r7109">
    <element path="/article[1]" size="10" rsize="0"/>
  </file>
</assessments>
"""


def test_sample_pool_file(tmp_path):
    p = write(tmp_path / "a" / "pool.xml", SAMPLE)
    a = load(tmp_path / "a")
    assert list(a.topics) == ["202"]
    t = a.topics["202"]
    assert (t.topic, t.pool, t.query_type, t.source) == ("202", "1234", "CO+S", str(p))
    # Every <file> is kept, empty ones as judged documents with no elements, in file order.
    assert list(t.files) == ["co/2000/r7108", "an/1995/a1004", "an/1995/a1005", "co/2000/r7109"]
    f = t.files["co/2000/r7108"]
    assert f.line == 4
    # Synonyms exhaustivity / E / exhaustiveness; "?" -> E_TOO_SMALL; thousands separators.
    assert list(f.elements.values()) == [
        Judgement("/article[1]", 2, 2064, 1000, 8),
        Judgement("/article[1]/bdy[1]", 1, 2000, 1000, 9),
        Judgement("/article[1]/bdy[1]/sec[2]", E_TOO_SMALL, 600, 600, 10),
        Judgement("/article[1]/bdy[1]/sec[1]", 0, 400, 400, 11),
    ]
    assert f.beps == ["/article[1]/bdy[1]/sec[2]", "/article[1]/bdy[1]/sec[1]"]
    assert t.files["an/1995/a1004"].elements == {} and t.files["an/1995/a1004"].beps == []
    assert t.files["an/1995/a1005"].line == 14
    # Absent exhaustivity (2006 style) is unknown: None.
    assert t.files["co/2000/r7109"].elements["/article[1]"] == Judgement("/article[1]", None, 10, 0, 16)
    assert a.warnings == []


def test_only_xml_names_are_read(tmp_path):
    write(tmp_path / "a" / "README.txt", "not xml at all <")
    write(tmp_path / "a" / "upper.XML", pool_xml(topic="5", body='<file name="f"/>'))
    a = load(tmp_path / "a")
    assert list(a.topics) == ["5"]


def test_topics_sorted_naturally(tmp_path):
    for t in ("10", "9", "100"):
        write(tmp_path / "a" / f"t{t}.xml", pool_xml(topic=t, pool=t))
    assert list(load(tmp_path / "a").topics) == ["9", "10", "100"]


def test_topics_sorted_with_the_writers_key(tmp_path):
    """Non-numeric ids too: digit runs by value, as aggregate.natural_key orders the result files."""
    ids = ("a10", "10", "a9", "2b", "9")
    for k, t in enumerate(ids):
        write(tmp_path / "a" / f"p{k}.xml", pool_xml(topic=t, pool=str(k)))
    assert list(load(tmp_path / "a").topics) == ["2b", "9", "10", "a9", "a10"]


def test_require_exhaustivity(tmp_path):
    p = write(tmp_path / "a" / "p.xml", SAMPLE)
    with pytest.raises(InputError) as info:
        load(tmp_path / "a", require_exhaustivity=True)
    assert (info.value.file, info.value.line) == (str(p), 16)
    assert "exhaustivity" in info.value.message


# --------------------------------------------------------------------------- errors


def element_error(tmp_path, element, fragment, line=6):  # lines: decl, root, inex_topic, <file>, first element, this one
    body = f'<file name="f">\n<element path="/article[1]" exhaustivity="2" size="100" rsize="50"/>\n{element}\n</file>'
    p = write(tmp_path / "a" / "p.xml", pool_xml(body=body))
    with pytest.raises(InputError) as info:
        load(tmp_path / "a")
    assert info.value.file == str(p)
    assert info.value.line == line
    assert fragment in info.value.message


@pytest.mark.parametrize(
    "element, fragment",
    [
        ('<element path="/article[1]/p[1]" E="1" size="10" rsize="11"/>', "rsize 11 exceeds size 10"),
        ('<element path="/article[1]/p[1]" E="1" size="0" rsize="3"/>', "size is 0 but rsize is 3"),
        ('<element path="/article[1]/p[1]" E="1" size="-10" rsize="0"/>', "negative size"),
        ('<element path="/article[1]/p[1]" E="1" size="10" rsize="-1"/>', "negative rsize"),
        ('<element path="/article[1]/p[1]" E="1" size="ten" rsize="1"/>', "size 'ten' is not a character count"),
        ('<element path="/article[1]/p[1]" E="1" size="10.5" rsize="1"/>', "not a character count"),
        ('<element path="/article[1]/p[1]" E="1" size="2,06" rsize="1"/>', "not a character count"),
        ('<element path="/article[1]/p[1]" E="1" rsize="1"/>', "without a size attribute"),
        ('<element path="/article[1]/p[1]" E="3" size="10" rsize="1"/>', "not one of 2, 1, 0, ?"),
        ('<element path="/article[1]/p[1]" E="1" exhaustivity="2" size="10" rsize="1"/>', "disagree"),
        ('<element path="/article[1]//p" E="1" size="10" rsize="1"/>', "invalid path"),
        ('<element path="/article[1]/p[0]" E="1" size="10" rsize="1"/>', "invalid path"),
        ('<element E="1" size="10" rsize="1"/>', "without a path attribute"),
        ('<best-entry-point path="/article[1]/*"/>', "invalid path"),
        ('<element path="/article" E="1" size="10" rsize="1"/>', "duplicate element (f, /article[1])"),
    ],
)
def test_element_errors_name_file_and_line(tmp_path, element, fragment):
    element_error(tmp_path, element, fragment)


def test_duplicate_across_repeated_file_in_one_pool(tmp_path):
    body = (
        '<file name="f"><element path="/article[1]" E="1" size="9" rsize="9"/></file>\n'
        '<file name="f.xml">\n<element path="article[1]/" E="1" size="9" rsize="9"/></file>'
    )
    p = write(tmp_path / "a" / "p.xml", pool_xml(body=body))
    with pytest.raises(InputError) as info:
        load(tmp_path / "a")
    # Line 4: first <file> with its element; line 5: <file name="f.xml">; line 6: the duplicate.
    assert (info.value.file, info.value.line) == (str(p), 6)
    assert "first at line 4" in info.value.message


def test_element_outside_file_and_bad_file_name(tmp_path):
    element_error(tmp_path, '</file><element path="/a" E="1" size="1" rsize="1"/><file name="g">', "<element> outside <file>")
    element_error(tmp_path, '</file><file name=" / ">', "invalid file id")


def test_malformed_xml_names_file_and_line(tmp_path):
    p = write(tmp_path / "a" / "p.xml", pool_xml(body='<file name="f">\n<element path="/a" size="1" rsize="1">\n</file>'))
    with pytest.raises(InputError) as info:
        load(tmp_path / "a")
    assert (info.value.file, info.value.line) == (str(p), 6)
    assert "malformed XML" in info.value.message


def test_not_an_assessment_file(tmp_path):
    p = write(tmp_path / "a" / "topics.xml", '<?xml version="1.0"?>\n<inex_topic topic_id="1"/>\n')
    with pytest.raises(InputError) as info:
        load(tmp_path / "a")
    assert (info.value.file, info.value.line) == (str(p), 2)


def test_no_topic_anywhere_is_an_error(tmp_path):
    p = write(tmp_path / "a" / "p.xml", '<assessments pool="1">\n<file name="f"/>\n</assessments>\n')
    with pytest.raises(InputError) as info:
        load(tmp_path / "a")
    assert (info.value.file, info.value.line) == (str(p), 1)
    assert "no topic id" in info.value.message


# --------------------------------------------------------------------------- warnings


def test_inconsistent_children_counted_once_per_file(tmp_path):
    body = """
    <file name="f">
      <element path="/article[1]" E="1" size="100" rsize="50"/>
      <element path="/article[1]/sec[1]" E="2" size="50" rsize="50"/>
      <element path="/article[1]/sec[2]" E="1" size="150" rsize="10"/>
      <element path="/article[1]/sec[3]" E="1" size="60" rsize="60"/>
      <element path="/article[1]/sec[3]/p[1]" E="?" size="10" rsize="10"/>
      <element path="/article[1]/sec[4]" E="?" size="10" rsize="10"/>
      <element path="/article[1]/sec[4]/p[1]" E="0" size="10" rsize="10"/>
      <element path="/article[1]/sec[5]" size="10" rsize="10"/>
    </file>
    <file name="g">
      <element path="/article[1]" E="1" size="10" rsize="5"/>
      <element path="/article[1]/p[1]" E="1" size="10" rsize="5"/>
    </file>
    """
    p = write(tmp_path / "a" / "p.xml", pool_xml(body=body))
    a = load(tmp_path / "a")
    # sec[1] (line 7): e 2 > 1; sec[2]: size 150 > 100; sec[3]: rsize 60 > 50 -> 3.
    # Not counted: ? under 1, 0 under ? (equal rank), unknown e, and equal sizes in g.
    assert a.warnings == [
        f"{p}: 3 elements are inconsistent with the listed parent (larger size, rsize or exhaustivity; first at line 7)"
    ]
    assert len(a.topics["202"].files["f"].elements) == 8


# --------------------------------------------------------------------------- topic and pool ids


def test_topic_and_pool_fallbacks(tmp_path):
    # topic from inex_topic/@topic_id; pool from pool-NNN.xml.
    write(tmp_path / "a" / "x" / "pool-77.xml", '<assessments>\n<inex_topic topic_id=" 301 "/>\n</assessments>\n')
    # topic from a topic-NNN directory.
    write(tmp_path / "a" / "topic-302" / "pool-78.xml", '<assessments>\n<file name="f"/>\n</assessments>\n')
    a = load(tmp_path / "a")
    assert {t: (ta.pool, ta.query_type) for t, ta in a.topics.items()} == {"301": ("77", None), "302": ("78", None)}
    assert list(a.topics["302"].files) == ["f"]


def test_root_attributes_win_over_fallbacks(tmp_path):
    write(tmp_path / "a" / "topic-9" / "pool-1.xml", pool_xml(topic="400", pool="55"))
    a = load(tmp_path / "a")
    assert list(a.topics) == ["400"] and a.topics["400"].pool == "55"


# --------------------------------------------------------------------------- pool selection


def two_pools(tmp_path, main=None):
    """Topic 202 in pools 1 and 2 (pool 2 under ``main`` if asked), topic 203 in pool 3."""
    d = tmp_path / "a"
    write(d / ("main" if main == "2" else "x") / "p2.xml", pool_xml(pool="2", body='<file name="two"/>'))
    write(d / ("main" if main == "1" else "y") / "p1.xml", pool_xml(pool="1", body='<file name="one"/>'))
    write(d / "p3.xml", pool_xml(topic="203", pool="3"))
    return d


def test_ambiguous_pools_are_an_error_listing_them(tmp_path):
    d = two_pools(tmp_path)
    with pytest.raises(InputError) as info:
        load(d)
    msg = info.value.message
    assert "topic 202 has 2 assessment files" in msg
    assert "pool 1: " in msg and "pool 2: " in msg


@pytest.mark.parametrize("pools", [None, frozenset({"2"})])
def test_files_of_the_same_pool_are_said_to_be_so(tmp_path, pools):
    """Two files of one topic and one pool (a copy beside the original): POOLS cannot choose, so
    the message does not tell the user to set POOLS."""
    d = tmp_path / "a"
    write(d / "p2.xml", pool_xml(pool="2", body='<file name="two"/>'))
    write(d / "p2-copy.xml", pool_xml(pool="2", body='<file name="two"/>'))
    with pytest.raises(InputError) as info:
        load(d, pools=pools)
    msg = info.value.message
    assert msg.startswith("topic 202 has 2 assessment files of the same pool 2, which POOLS cannot tell apart: "
                          "remove all but one, or put the one to use in a 'main' directory (")
    assert "p2.xml" in msg and "p2-copy.xml" in msg


def test_main_directory_decides(tmp_path):
    d = two_pools(tmp_path, main="2")
    a = load(d)
    assert a.topics["202"].pool == "2" and list(a.topics["202"].files) == ["two"]
    assert a.topics["203"].pool == "3"


def test_main_directory_above_root_does_not_count(tmp_path):
    d = two_pools(tmp_path / "main")
    with pytest.raises(InputError):
        load(d)


def test_pools_whitelist(tmp_path):
    d = two_pools(tmp_path, main="2")
    a = load(d, pools=frozenset({"1", "99"}))
    # POOLS beats the main directory; topic 203 has no whitelisted pool.
    assert list(a.topics) == ["202"]
    assert a.topics["202"].pool == "1"
    assert a.warnings == ["POOLS without an assessment file: 99", "topics with no pool in POOLS, left out: 203"]


def test_unselected_broken_pool_is_never_read_in_full(tmp_path):
    d = tmp_path / "a"
    write(d / "good.xml", pool_xml(pool="1", body='<file name="f"/>'))
    write(d / "bad.xml", pool_xml(pool="2", body='<file name="f"><element path="//x" size="1" rsize="9"/></file>'))
    assert list(load(d, pools=frozenset({"1"})).topics["202"].files) == ["f"]
    with pytest.raises(InputError):
        load(d, pools=frozenset({"2"}))


def test_topics_whitelist(tmp_path):
    d = two_pools(tmp_path)
    # Topic 202 is ambiguous, but TOPICS leaves it out before pool selection.
    a = load(d, topics=frozenset({"203", "999"}))
    assert list(a.topics) == ["203"]
    assert a.warnings == ["TOPICS without an assessment file: 999"]


# --------------------------------------------------------------------------- QUERY_TYPE


def test_query_type_filter(tmp_path):
    d = tmp_path / "a"
    write(d / "1.xml", pool_xml(topic="1", pool="1", query_type="CO+S"))
    write(d / "2.xml", pool_xml(topic="2", pool="2", query_type="COS"))
    write(d / "3.xml", pool_xml(topic="3", pool="3", query_type="CO"))
    write(d / "4.xml", pool_xml(topic="4", pool="4", query_type=None))
    write(d / "5.xml", pool_xml(topic="5", pool="5", query_type="cas"))
    a = load(d, query_type="CO+S")
    assert list(a.topics) == ["1", "2", "4"]
    assert a.warnings == ["QUERY_TYPE CO+S: 1 assessment file has no inex_topic/@query_type, kept (topics 4)"]
    assert list(load(d, query_type="cos").topics) == ["1", "2", "4"]
    assert list(load(d, query_type="CO").topics) == ["3", "4"]


# --------------------------------------------------------------------------- safety


def test_doctype_with_missing_external_dtd(tmp_path):
    write(
        tmp_path / "a" / "p.xml",
        '<?xml version="1.0"?>\n<!DOCTYPE assessments SYSTEM "http://inex.invalid/assessments.dtd">\n'
        '<assessments pool="1" topic="7"><file name="f"/></assessments>\n',
    )
    assert list(load(tmp_path / "a").topics["7"].files) == ["f"]


def test_billion_laughs_refused(tmp_path):
    lol = "".join(f' <!ENTITY lol{i} "{f"&lol{i - 1};" * 10}">\n' for i in range(2, 10))
    p = write(
        tmp_path / "a" / "p.xml",
        f'<?xml version="1.0"?>\n<!DOCTYPE assessments [\n <!ENTITY lol1 "lol">\n{lol}]>\n'
        '<assessments pool="1" topic="7"><file name="&lol9;"/></assessments>\n',
    )
    with pytest.raises(InputError) as info:
        load(tmp_path / "a")
    assert (info.value.file, info.value.line) == (str(p), 3)
    assert info.value.message == "entity declarations are not allowed"


def test_external_entity_refused(tmp_path):
    p = write(
        tmp_path / "a" / "p.xml",
        '<!DOCTYPE assessments [\n<!ENTITY xxe SYSTEM "file:///etc/passwd">\n]>\n'
        '<assessments pool="1" topic="&xxe;"><file name="f"/></assessments>\n',
    )
    with pytest.raises(InputError) as info:
        load(tmp_path / "a")
    assert (info.value.file, info.value.line) == (str(p), 2)
    assert "root:" not in str(info.value)


def test_lxml_view_of_the_dtd_is_a_second_defence():
    # A "<" in the DTD's system literal ends the byte-level prolog scan early;
    # the check of lxml's internal DTD still refuses the declaration, unexpanded.
    data = b'<!DOCTYPE a SYSTEM "<x" [<!ENTITY e SYSTEM "file:///etc/passwd">]>\n<a>&e;</a>\n'
    with pytest.raises(InputError) as info:
        list(safe_iterparse(io.BytesIO(data), "doc.xml"))
    assert info.value.message == "entity declarations are not allowed"
    assert info.value.file == "doc.xml"


def test_count_beyond_any_document_is_an_error(tmp_path):
    """A size of 10^22 characters is refused with file and line (it would overflow integer arrays)."""
    from inexeval.config import InputFile
    from inexeval.errors import InputError
    from inexeval.readers.assessments import MAX_COUNT, load_assessments

    p = tmp_path / "a.xml"
    p.write_text('<assessments pool="1" topic="1">\n<file name="x">\n'
                 '<element path="/article[1]" exhaustivity="2" size="9999999999999999999999" rsize="1"/>\n'
                 '</file></assessments>')
    with pytest.raises(InputError) as e:
        load_assessments([InputFile(p, tmp_path)])
    assert e.value.line == 3 and "too large" in str(e.value)
    p.write_text(f'<assessments pool="1" topic="1"><file name="x"><element path="/article[1]" exhaustivity="2" '
                 f'size="{MAX_COUNT}" rsize="{MAX_COUNT}"/></file></assessments>')
    assert load_assessments([InputFile(p, tmp_path)]).topics["1"].files["x"].elements["/article[1]"].size == MAX_COUNT


def test_an_entity_reference_of_an_unread_external_dtd_is_refused(tmp_path):
    """exhaustivity="&two;" under an external DTD (never read) was read as "" (libxml2 drops the
    reference without an error), and refused for a value it did not have (an EvalJ user's review)."""
    doctype = '<!DOCTYPE assessments SYSTEM "assessments.dtd">\n'
    body = ('<file name="f">\n<element path="/article[1]" exhaustivity="&two;" size="10" rsize="10"/>\n'
            '</file>')
    p = write(tmp_path / "a" / "p.xml", pool_xml(body=body).replace("<assessments", doctype + "<assessments", 1))
    with pytest.raises(InputError) as info:
        load(tmp_path / "a")
    assert (info.value.file, info.value.line) == (str(p), 6)
    assert info.value.message == ("entity reference &two; in a document whose DTD is external (assessments.dtd), "
                                  "which is never read: its value is unknown; write the text itself")
    # the predefined references and a character reference are read as ever
    write(tmp_path / "a" / "p.xml", pool_xml(body=body.replace("&two;", "&#50;")).replace(
        "<assessments", doctype + "<assessments", 1))
    assert load(tmp_path / "a").topics["202"].files


@pytest.mark.parametrize("parse", ["iterparse", "pullparse"])
@pytest.mark.parametrize("events, tag", [(("start", "end"), None), (("end",), "no-such-tag")])
@pytest.mark.parametrize("doc, line", [
    (b'<!DOCTYPE a SYSTEM "x.dtd">\n<a c="&e;"/>', 2),  # in the last tag: what a read leaves for the next
    (b'<?xml version="1.0"?>\n<!DOCTYPE a SYSTEM "x.dtd">\n<a>\n<b>x&e;y</b></a>', 4),
    (b'<!DOCTYPE a PUBLIC "-//X//DTD x//EN" "x.dtd">\n<a>' + b"<b/>\n" * 20000 + b'<b c="&e;"/></a>', 20002),
])
def test_the_reference_watch_reads_every_byte(parse, events, tag, doc, line):
    """Wherever the reference is (the last tag, past the first reads) and whenever the parser says the
    DTD is external (its first event, or only at the end when no event is asked for), it is refused."""
    from inexeval.readers import safe_pullparse

    parser = safe_iterparse if parse == "iterparse" else safe_pullparse
    with pytest.raises(InputError) as info:
        list(parser(io.BytesIO(doc), "doc.xml", events=events, tag=tag))
    assert (info.value.line, info.value.message.split(" in ")[0]) == (line, "entity reference &e;")
    fine = doc.replace(b"&e;", b"&amp;&#101;")  # the predefined and character references: read whole
    got = [(e, el.tag) for e, el in parser(io.BytesIO(fine), "doc.xml", events=events, tag=tag) if e is not None]
    elements = doc.count(b"<a") + doc.count(b"<b")
    assert len(got) == (0 if tag else 2 * elements)
