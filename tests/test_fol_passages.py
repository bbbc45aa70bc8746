"""Passage runs of the FOL tasks (docs/fol.md §2): which reader reads a run, and element runs turned
into passages through the collection, with the FOL offsets (characters of the article's text from its
start, tags excluded, an entity or character reference one character)."""

from __future__ import annotations

import gzip
import re
from pathlib import Path

import pytest

from inexeval.errors import InputError
from inexeval.readers.collection import Collection
from inexeval.readers.passages import element_run_as_fol, run_kind

# A hand-made article.  Its text, character by character from the article's start (tags left out,
# "&amp;", "&#233;" and the undeclared "&ndash;" one character each, the CRLF read as one "\n"):
#   0  "\n"                article.text
#   1  "Ab&c"              title                      -> title: (1, 4)
#   5  "\n"                title.tail
#   6  "One "              body/p[1].text             -> p[1]: (6, 13), b: (10, 3)
#   10 "two"               b
#   13 " three"            b.tail
#   19 "x"                 p[2].text                  -> p[2]: (19, 5)   "x\u00e9y" + "-" + "z"
#   20 "\u00e9"            &#233;
#   21 "y"
#   22 "-"                 &ndash; (undeclared: one character)
#   23 "z"
#   24 "\n"                p[2].tail (CRLF)           -> body: (6, 19)
#   25 ""                  sec: empty element         -> sec: (25, 0)
#   25 "\n"                body.tail                  -> article: (0, 26)
ARTICLE = ('<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE article SYSTEM "article.dtd">\n'
           "<article>\n<title>Ab&amp;c</title>\n"
           "<body><p>One <b>two</b> three</p><p>x&#233;y&ndash;z</p>\r\n<sec/></body>\n</article>\n")
EXPECTED = {
    "/article[1]": (0, 26),
    "/article[1]/title[1]": (1, 4),
    "/article[1]/body[1]": (6, 19),
    "/article[1]/body[1]/p[1]": (6, 13),
    "/article[1]/body[1]/p[1]/b[1]": (10, 3),
    "/article[1]/body[1]/p[2]": (19, 5),
    "/article[1]/body[1]/sec[1]": (25, 0),
}


def _fol_text_offsets(xml: str) -> dict[str, tuple[int, int]]:
    """An independent reading of the FOL offsets: walk the raw text, skip markup, count an entity or
    character reference as one character and a CRLF as one; (offset, length) of every element."""
    body = xml[xml.index("<article"):].replace("\r\n", "\n")
    offset, stack, counts, out = 0, [], [{}], {}
    for m in re.finditer(r"<(/?)([A-Za-z_][\w.:-]*)[^>]*?(/?)>|&[^;]+;|[^<&]+", body):
        token = m.group(0)
        if not token.startswith("<"):
            offset += 1 if token.startswith("&") else len(token)
            continue
        closing, name, empty = m.group(1), m.group(2).lower(), m.group(3)
        if closing:
            path, start = stack.pop()
            counts.pop()
            out[path] = (start, offset - start)
            continue
        n = counts[-1][name] = counts[-1].get(name, 0) + 1
        path = (stack[-1][0] if stack else "") + f"/{name}[{n}]"
        if empty:
            out[path] = (offset, 0)
        else:
            stack.append((path, offset))
            counts.append({})
    return out


def test_collection_offsets_are_fol_offsets(tmp_path):
    (tmp_path / "a1.xml").write_text(ARTICLE, encoding="utf-8", newline="")
    table = Collection(tmp_path).table("a1")
    assert table == EXPECTED
    assert _fol_text_offsets(ARTICLE) == EXPECTED  # the independent reading agrees with the hand count


def _write_collection(root: Path) -> None:
    root.mkdir()
    (root / "a1.xml").write_text(ARTICLE, encoding="utf-8", newline="")
    (root / "a2.xml").write_text("<article><p>0123456789</p><p>abc</p></article>", encoding="utf-8")


ELEMENT_TEXT = """\
T1 Q0 a1 1 0.9 R /article[1]/body[1]/p[2]
T1 Q0 a1 2 0.8 R /article[1]/title[1]
T1 Q0 a2 3 0.7 R /article[1]/p[9]
T2 Q0 a2 1 0.9 R /article[1]/p[2]
T2 Q0 a2 2 0.9 R /article[1]/p[2]
T1 Q0 a2 4 0.5 R /article[1]
"""


def test_element_text_run_as_fol(tmp_path):
    _write_collection(tmp_path / "c")
    run = tmp_path / "run.txt"
    run.write_text(ELEMENT_TEXT)
    fol, warnings = element_run_as_fol(run, Collection(tmp_path / "c"))
    assert [line.fields for line in fol.lines] == [
        ["T1", "Q0", "a1", "1", "0", "R", "19", "5"],
        ["T1", "Q0", "a1", "2", "0", "R", "1", "4"],
        ["T1", "Q0", "a2", "3", "0", "R", "X", "0"],  # no such element: an unknown passage
        ["T2", "Q0", "a2", "1", "0", "R", "10", "3"],  # the repeated result is dropped (run hygiene)
        ["T1", "Q0", "a2", "4", "0", "R", "0", "13"],  # file order kept: T1 comes back
    ]
    assert [line.line for line in fol.lines] == [1, 2, 3, 4, 6]
    assert all(line.raw == " ".join(line.fields) for line in fol.lines)
    assert fol.source == str(run) and not fol.xml
    assert any("1 duplicate result dropped" in w for w in warnings)
    (x,) = [w for w in warnings if "unknown passages" in w]
    assert x.startswith(f"{run}: 1 result whose path is not in its document") and "line 3: a2 /article[1]/p[9]" in x


def test_element_xml_run_as_fol_and_kinds(tmp_path):
    _write_collection(tmp_path / "c")
    xml = ('<inex-submission participant-id="1" run-id="E1" task="Focused">\n'
           '<topic topic-id="T1">\n'
           '  <result><file>a2</file><path>/article[1]/p[1]</path><rank>1</rank></result>\n'
           '  <result><file>a1</file><path>/article[1]/body[1]</path><rank>2</rank></result>\n'
           '</topic>\n</inex-submission>\n')
    run = tmp_path / "run.xml.gz"
    run.write_bytes(gzip.compress(xml.encode()))
    assert run_kind(run) == "element"
    fol, warnings = element_run_as_fol(run, Collection(tmp_path / "c"))
    assert [line.fields[6:] for line in fol.lines] == [["0", "10"], ["6", "19"]]
    assert [line.fields[5] for line in fol.lines] == ["E1", "E1"]
    assert [line.line for line in fol.lines] == [3, 4] and fol.xml and warnings == []


@pytest.mark.parametrize("text,kind", [
    ("T1 Q0 a1 1 0.9 R 0 10\n", "fol"),
    ("\n\n  T1 Q0 a1 1 0.9 R /article[1]\n", "element"),
    ("T1 Q0 a1 1 0.9 R 10\n", "fol"),  # 7 columns without an XPath: inex_eval rejects it ("fields missing")
    ("", "fol"),
    ('<inex-submission run-id="F" task="Focused" result-type="fol">\n<topic topic-id="1">\n'
     '<result><file>a</file><fol offset="1" length="2"/></result></topic></inex-submission>\n', "fol"),
    ('<inex-submission run-id="E">\n<topic topic-id="1">\n'
     '<result><file>a</file><path>/article[1]</path></result></topic></inex-submission>\n', "element"),
    ('<inex-submission run-id="E"></inex-submission>\n', "fol"),
])
def test_run_kind(tmp_path, text, kind):
    p = tmp_path / "run"
    p.write_text(text)
    assert run_kind(p) == kind


def test_missing_document_is_an_error_of_the_run(tmp_path):
    _write_collection(tmp_path / "c")
    run = tmp_path / "run.txt"
    run.write_text("T1 Q0 a1 1 0.9 R /article[1]\nT1 Q0 zz 2 0.8 R /article[1]\n")
    with pytest.raises(InputError) as e:
        element_run_as_fol(run, Collection(tmp_path / "c"))
    assert e.value.file == str(run) and e.value.line == 2 and "'zz' not found" in e.value.message
