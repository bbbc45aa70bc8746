"""Collection reader: start offsets and text lengths (docs/formats.md §1.4)."""

from __future__ import annotations

from pathlib import Path

import pytest

from inexeval.errors import InputError
from inexeval.readers.collection import Collection

# Text nodes, in document order, with running offsets:
#   article.text "\n  "        0..3
#   fm.text "T&C" + "é"        3..8   (&amp; and &#233; are one character each; "é" literal is 1)
#   fm.tail "\n  "             8..11
#   bdy.text None; comment " note " is not text, its tail None
#   sec[1].text "ab"           11..13
#   b.text "cd"                13..15
#   b.tail "ef"                15..17 (belongs to sec[1])
#   PI "pi data" is not text, its tail "gh"  17..19 (belongs to sec[1])
#   sec[1].tail "\n  "         19..22 (belongs to bdy)
#   sec[2].text "x"            22..23
#   sec[2].tail " " (whitespace-only)  23..24
#   sec[3].text "  " (whitespace-only) 24..26
#   bdy.tail "\n"              26..27
DOC = (
    '<?xml version="1.0" encoding="UTF-8"?>\n'
    "<article>\n  <fm>T&amp;C&#233;é</fm>\n  "
    "<bdy><!-- note --><sec>ab<b>cd</b>ef<?pi data?>gh</sec>\n  <sec>x</sec> <SEC>  </SEC></bdy>\n"
    "</article>\n"
)


def write(root: Path, rel: str, text: str) -> Path:
    p = root / rel
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(text, encoding="utf-8")
    return p


def test_offsets_and_lengths(tmp_path):
    write(tmp_path, "d1.xml", DOC)
    c = Collection(tmp_path)
    assert c.element_info("d1", "/article[1]") == (0, 27)
    assert c.element_info("d1", "/article[1]/fm[1]") == (3, 5)  # "T&Céé"
    assert c.element_info("d1", "/article[1]/bdy[1]") == (11, 26 - 11)
    assert c.element_info("d1", "/article[1]/bdy[1]/sec[1]") == (11, 19 - 11)  # "abcdefgh"
    assert c.element_info("d1", "/article[1]/bdy[1]/sec[1]/b[1]") == (13, 2)
    assert c.element_info("d1", "/article[1]/bdy[1]/sec[2]") == (22, 1)
    # <SEC> is the third sec: tags are lower-cased in paths (docs/formats.md §1.1)
    assert c.element_info("d1", "/article[1]/bdy[1]/sec[3]") == (24, 2)
    assert c.size_of("d1", "/article[1]/fm[1]") == 5
    assert c.offset_of("d1", "/article[1]/bdy[1]/sec[2]") == 22


def test_missing_path_is_none(tmp_path):
    write(tmp_path, "d1.xml", DOC)
    c = Collection(tmp_path)
    assert c.element_info("d1", "/article[1]/bdy[1]/sec[4]") is None
    assert c.size_of("d1", "/article[2]") is None
    assert c.offset_of("d1", "/article[1]/fm[1]/b[1]") is None


def test_missing_document_names_it(tmp_path):
    write(tmp_path, "d1.xml", DOC)
    with pytest.raises(InputError) as err:
        Collection(tmp_path).element_info("nope/42", "/article[1]")
    assert "nope/42" in str(err.value)


def test_ieee_sub_paths(tmp_path):
    write(tmp_path, "co/2000/r7108.xml", "<article><p>abc</p></article>")
    write(tmp_path, "ieee/xml/an/1995/a1004.xml", "<article><p>abcd</p></article>")
    c = Collection(tmp_path)
    assert c.element_info("co/2000/r7108", "/article[1]/p[1]") == (0, 3)
    # found below an extra prefix directory, by the sub-path
    assert c.element_info("an/1995/a1004", "/article[1]") == (0, 4)
    with pytest.raises(InputError):
        c.element_info("1995/zz", "/article[1]")


def test_parsed_once(tmp_path):
    p = write(tmp_path, "d1.xml", DOC)
    c = Collection(tmp_path)
    assert c.size_of("d1", "/article[1]") == 27
    p.unlink()  # later look-ups use the cached table
    assert c.size_of("d1", "/article[1]/fm[1]") == 5


def test_undefined_entity_of_absent_dtd_is_one_character(tmp_path):
    # lxml keeps &ndash; as an unexpanded reference; the DTD is neither fetched nor required
    write(
        tmp_path,
        "d2.xml",
        '<!DOCTYPE article SYSTEM "http://example.invalid/xmlarticle.dtd">'
        "<article><p>a&ndash;b</p><p>c</p></article>",
    )
    c = Collection(tmp_path)
    assert c.element_info("d2", "/article[1]/p[1]") == (0, 3)  # "a" + 1 + "b"
    assert c.element_info("d2", "/article[1]/p[2]") == (3, 1)


def test_entity_declarations_are_refused(tmp_path):
    write(
        tmp_path,
        "bomb.xml",
        '<!DOCTYPE a [<!ENTITY x "xxxxxxxxxx"><!ENTITY y "&x;&x;&x;">]><a>&y;</a>',
    )
    with pytest.raises(InputError) as err:
        Collection(tmp_path).element_info("bomb", "/a[1]")
    assert err.value.file.endswith("bomb.xml")


def test_external_entity_is_not_read(tmp_path):
    secret = write(tmp_path, "secret.txt", "SECRET")
    write(
        tmp_path,
        "xxe.xml",
        f'<!DOCTYPE a [<!ENTITY e SYSTEM "file://{secret}">]><a>&e;</a>',
    )
    with pytest.raises(InputError):
        Collection(tmp_path).element_info("xxe", "/a[1]")


def test_malformed_document_has_file_and_line(tmp_path):
    write(tmp_path, "bad.xml", "<article>\n<p>x</q>\n</article>")
    with pytest.raises(InputError) as err:
        Collection(tmp_path).element_info("bad", "/article[1]")
    assert err.value.file.endswith("bad.xml")
    assert err.value.line == 2


def test_average_length_skips_hidden(tmp_path):
    write(tmp_path, "d1.xml", DOC)  # 27 characters
    write(tmp_path, "sub/d2.xml", "<a>12345<b>678</b></a>")  # 8 characters
    write(tmp_path, ".hidden.xml", "<a>" + "z" * 1000 + "</a>")
    write(tmp_path, ".git/x.xml", "<a>" + "z" * 1000 + "</a>")
    write(tmp_path, "notes.txt", "not a document")
    assert Collection(tmp_path).average_length() == pytest.approx((27 + 8) / 2, rel=1e-9, abs=1e-9)
