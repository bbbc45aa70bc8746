"""The assessment reader's two paths (inexeval/readers/assessments.py): a ``<file>`` at a time for the
usual layout, event by event for any other; both give the same topic, and errors come from the event
reader (its messages and lines)."""

from __future__ import annotations

import pytest

from inexeval.config import InputFile
from inexeval.errors import InputError
from inexeval.readers.assessments import _Header, _read_by_event, _read_by_file, _Unusual, load_assessments

HEAD = '<?xml version="1.0"?>\n<assessments pool="1" topic="7">\n<inex_topic topic_id="7" query_type="CO"/>\n'


def _topic(ta):
    return [(f, fa.line, fa.beps, [(j.path, j.e, j.size, j.rsize, j.line) for j in fa.elements.values()])
            for f, fa in ta.files.items()]


def _header(path):
    return _Header(InputFile(path, path.parent), "7", "1", "CO")


def test_by_file_equals_by_event_on_varied_attributes(tmp_path):
    body = """<file name="a/b">
  <best-entry-point path="/article/bdy/sec[1]"/>
  <element path="/article[1]" exhaustivity="2" size="2,064" rsize="1,000"/>
  <element path="/article[1]/bdy[1]" E="1" size="2000" rsize="1000"/>
  <element path="/article/bdy/sec[2]" exhaustiveness=" ? " size=" 600" rsize="600"/>
  <element path="/ARTICLE[1]/bdy[1]/sec[1]" exhaustivity="0" E="0" size="400" rsize="400"/>
  <element path="/article[1]/bdy[1]/sec[3]" exhaustivity="?" size="0" rsize="0"/>
  <element path="/article[1]/bdy[1]/sec[4]" size="10" rsize="3"><element path="/article[1]/bdy[1]/sec[4]/p[1]"
     exhaustivity="1" size="5" rsize="3"/></element>
</file>
<file name="c/d.xml"/>
<file name="a/b"><element path="/article[1]/bdy[1]/sec[9]" exhaustivity="1" size="7" rsize="7"/></file>
</assessments>
"""
    p = tmp_path / "pool.xml"
    p.write_text(HEAD + body)
    data = p.read_bytes()
    assert _topic(_read_by_file(data, _header(p), False)) == _topic(_read_by_event(data, _header(p), False))
    assert len(_topic(_read_by_file(data, _header(p), False))[0][3]) == 8


@pytest.mark.parametrize("body, line, message", [
    ('<element path="/a[1]" exhaustivity="1" size="1" rsize="1"/>\n<file name="f"/>\n', 4, "<element> outside <file>"),
    ('<file name="f"/>\n<best-entry-point path="/a[1]"/>\n', 5, "<best-entry-point> outside <file>"),
    ('<file name="f"><element path="/a[1]" exhaustivity="1" size="1" rsize="1"/>\n'
     '<element path="/a" exhaustivity="2" size="1" rsize="1"/></file>\n', 5, "duplicate element (f, /a[1])"),
    ('<file name="f"><element path="/a[1]" exhaustivity="1" size="1" rsize="2"/></file>\n', 4, "rsize 2 exceeds"),
    ('<file name="f"><element path="/a[1]" exhaustivity="3" size="1" rsize="1"/></file>\n', 4, "exhaustivity '3'"),
    ('<file name="f"><element path="/a[1]" size="1" rsize="1"/></file>\n', 4, "without exhaustivity"),
    ('<file name="f"><element path="/a[1]" exhaustivity="1" size="-1" rsize="1"/></file>\n', 4, "negative size"),
    ('<file name="f"><element path="/a[1]" exhaustivity="1" size="1" rsize="1"/>\n<oops></file>\n', 5, "malformed"),
    ('<file name="f"><file name="g"/><element path="/a[1]" exhaustivity="1" size="1" rsize="1"/></file>\n', 4,
     "<element> outside <file>"),
])
def test_errors_are_the_event_readers(tmp_path, body, line, message):
    p = tmp_path / "pool-1.xml"
    p.write_text(HEAD + body + "</assessments>\n")
    with pytest.raises(InputError) as err:
        load_assessments([InputFile(p, tmp_path)], require_exhaustivity=True)
    assert err.value.line == line and message in str(err.value)


def test_unusual_layouts_are_left_to_the_event_reader(tmp_path):
    p = tmp_path / "pool.xml"
    p.write_text(HEAD + '<group><file name="f"><element path="/a[1]" exhaustivity="1" size="1" rsize="1"/>'
                        '</file></group>\n</assessments>\n')
    with pytest.raises(_Unusual):
        _read_by_file(p.read_bytes(), _header(p), True)
    got = load_assessments([InputFile(p, tmp_path)], require_exhaustivity=True)
    assert _topic(got.topics["7"]) == [("f", 4, [], [("/a[1]", 1, 1, 1, 4)])]


@pytest.mark.parametrize("data, may", [
    (b'<a><e E="1"/></a>', True),
    (b'<a><e\tE="1"/></a>', True),
    (b'<a><e\nE ="1"/></a>', True),
    (b'<a><e\r\nE= "1"/></a>', True),
    (b'<a><e exhaustiveness="1"/></a>', True),
    ('<a><e E="1"/></a>'.encode("utf-16-le"), True),  # NUL bytes: not ASCII-compatible, not examined
    (b"\x4c\x81\x4e", True),  # does not start with '<' (EBCDIC, say)
    (b'<a>' + b'xE' * 1001 + b'</a>', True),  # too many capitals to look at: assumed
    (b'\xef\xbb\xbf <a><e exhaustivity="1" path="/TEXT[1]"/>TITLE E</a>', True),  # white space, then E
    (b'\xef\xbb\xbf <a><e exhaustivity="1" path="/TEXT[1]"/>TITLE</a>', False),
    (b'<?xml version="1.0"?>\n<a><e exhaustivity="2" size="1" rsize="1"/></a>', False),
])
def test_which_files_may_hold_an_exhaustivity_synonym(data, may):
    from inexeval.readers.assessments import _may_have_synonyms

    assert _may_have_synonyms(data) is may


def test_a_synonym_after_any_white_space_is_read(tmp_path):
    """The fast reader skips looking for E and exhaustiveness only in files without them: one after
    a newline, a tab or a carriage return is still read (and disagreement still reported)."""
    body = ('<file name="f">\n<element path="/a[1]" size="9" rsize="9"\nE="2"/>\n'
            '<element path="/a[1]/b[1]" size="5" rsize="5"\texhaustiveness="?"/>\n'
            '<element path="/a[1]/b[2]" size="4" rsize="1"\rE="1"/>\n</file>\n</assessments>\n')
    p = tmp_path / "pool-1.xml"
    p.write_text(HEAD + body)
    got = load_assessments([InputFile(p, tmp_path)], require_exhaustivity=True)
    assert [(j.path, j.e) for j in got.topics["7"].files["f"].elements.values()] == [
        ("/a[1]", 2), ("/a[1]/b[1]", -1), ("/a[1]/b[2]", 1)]
    p.write_text(HEAD + '<file name="f"><element path="/a[1]" size="9" rsize="9" exhaustivity="2"\n'
                        'E="1"/></file>\n</assessments>\n')
    with pytest.raises(InputError, match="exhaustivity and E disagree"):
        load_assessments([InputFile(p, tmp_path)], require_exhaustivity=True)
