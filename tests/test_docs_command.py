"""``inexeval docs [NAME [§N]]`` in a clone (issue 31): the list of docs, a doc, one numbered section
(its subsections included), the refusals (exit 2, naming what there is), and the proof that every
"docs/NAME.md §N" the package cites can be followed with it.  The wheel's copy of the docs is checked
by tests/test_packaging.py."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from inexeval.cli.command import main
from inexeval.docs_files import Doc, docs_root, find_doc

ROOT = Path(__file__).resolve().parents[1]
DOCS = sorted((ROOT / "docs").glob("*.md"))


def _docs(*args: str):
    return CliRunner().invoke(main, ["docs", *args])


def _title(path: Path) -> str:
    return next(line for line in path.read_text(encoding="utf-8").splitlines()
                if line.startswith("# ")).removeprefix("# ").replace("`", "")


def test_a_clone_reads_the_docs_folder_beside_the_package():
    assert docs_root() == ROOT / "docs"


def test_without_a_name_it_lists_every_doc_with_its_title():
    result = _docs()
    assert result.exit_code == 0, result.output
    rows = [line.split(None, 1) for line in result.stdout.splitlines()]
    assert rows == [[p.stem, _title(p)] for p in DOCS]
    assert ["formats", "Input and output formats"] in rows


@pytest.mark.parametrize("path", DOCS, ids=lambda p: p.stem)
def test_every_doc_is_printed_whole_and_every_numbered_section_of_it(path):
    result = _docs(path.stem)
    assert result.exit_code == 0, result.output
    assert result.stdout == path.read_text(encoding="utf-8")
    doc = find_doc(path.stem)
    headings = {h.number: h for h in doc.headings if h.number is not None}
    assert sorted(headings) == sorted(doc.numbers)  # no number twice in a doc
    for number, heading in headings.items():
        section = _docs(path.stem, f"§{number}")
        assert section.exit_code == 0, section.output
        assert section.stdout.splitlines()[0] == "#" * heading.level + " " + heading.title
        assert section.stdout in result.stdout


def test_a_doc_by_its_file_name_or_path():
    text = (ROOT / "docs" / "formats.md").read_text(encoding="utf-8")
    for name in ("formats", "formats.md", "docs/formats.md"):
        assert _docs(name).stdout == text


def test_a_section_runs_to_the_next_heading_of_its_level_or_higher():
    section = _docs("formats", "§9.2")
    assert section.exit_code == 0, section.output
    lines = section.stdout.splitlines()
    assert lines[0] == "### 9.2 Outputs"
    assert [line for line in lines if line.startswith("#### ")] == \
        [line for line in (ROOT / "docs" / "formats.md").read_text(encoding="utf-8").splitlines()
         if line.startswith("#### 9.2.")]  # 9.2.1 to 9.2.8
    assert not any(line.startswith("### 9.3") for line in lines)
    # a subsection stops at its parent's sibling; a top-level section holds its subsections
    assert "### 9.3 " not in _docs("formats", "9.2.8").stdout
    top = _docs("measures", "§8").stdout
    assert top.startswith("## 8. Classic measures") and "### 8.5 " in top and "## 10. " not in top


@pytest.mark.parametrize("spelling", ["9.2", "§ 9.2", "9.2.", "§9.2"])
def test_the_section_sign_is_optional(spelling):
    assert _docs("formats", spelling).stdout == _docs("formats", "§9.2").stdout
    assert _docs("formats", spelling).stdout.startswith("### 9.2 Outputs\n")


def test_headings_in_code_blocks_are_not_headings(tmp_path):
    doc = tmp_path / "guide.md"
    doc.write_text("# A `guide`\n\nintro\n\n## 1. One\n\na\n\n### 1.1 Sub\n\nb\n\n```sh\n# not a heading\n"
                   "## 2. nor this\n```\n\nafter the block\n\n## 2. Two\n\nc\n", encoding="utf-8")
    parsed = Doc(doc)
    assert parsed.title == "A guide"
    assert parsed.numbers == ["1", "1.1", "2"]
    one = parsed.section("§1")
    assert one.startswith("## 1. One\n") and "### 1.1 Sub" in one and "## 2. nor this" in one
    assert one.endswith("after the block\n")
    assert parsed.section("1.1").startswith("### 1.1 Sub\n") and parsed.section("1.1").endswith("after the block\n")
    assert parsed.section("2") == "## 2. Two\n\nc\n"
    # in the shipped docs: config.md's sample .prop comment, fol.md's config in §1
    assert not [h for h in find_doc("config").headings if h.title.startswith("COS.Focussed")]
    fol = _docs("fol", "1").stdout
    assert "# configs/fol-focused.prop" in fol and "## 2. " not in fol


def test_an_unknown_name_exits_2_listing_the_docs():
    result = _docs("nosuch")
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr == ("inexeval: error: no doc called 'nosuch'; the docs: "
                             + ", ".join(p.stem for p in DOCS) + "\n")


def test_an_unknown_section_exits_2_listing_the_sections():
    result = _docs("formats", "§4")
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.startswith("inexeval: error: docs/formats.md has no section §4; its sections: §1, §1.1, ")
    assert "§9.2.8, §9.3, " in result.stderr
    unnumbered = _docs("config", "§1")
    assert unnumbered.exit_code == 2
    assert "docs/config.md has no numbered sections" in unnumbered.stderr
    assert "'inexeval docs config' prints it whole" in unnumbered.stderr


def test_the_top_level_help_says_how_to_follow_a_reference():
    text = " ".join(CliRunner().invoke(main, ["--help"]).output.split())
    assert "\"docs/NAME.md §N\" in a help text or an error is printed by 'inexeval docs NAME §N'" in text
    assert "docs " in CliRunner().invoke(main, ["--help"]).output  # listed among the commands


#: "docs/name.md" (lower case: "docs/NAME.md" is a placeholder), then "§N" and further "§M" joined by a comma,
#: a dash, "and" or "to"
_REFERENCE = re.compile(r"docs/([a-z0-9_][a-z0-9_-]*)\.md((?:\s*§\s*\d+(?:\.\d+)*(?:\s*(?:,|–|-|and|to)\s*§\s*\d+(?:\.\d+)*)*)?)")


def _references() -> list[tuple[str, str, str | None]]:
    """(where, doc name, section number or None) for every docs/NAME.md [§N[, §M]] in inexeval/**/*.py."""
    found = []
    for path in sorted((ROOT / "inexeval").rglob("*.py")):
        for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for m in _REFERENCE.finditer(line):
                where = f"{path.relative_to(ROOT)}:{i}"
                numbers = re.findall(r"§\s*(\d+(?:\.\d+)*)", m.group(2))
                found += [(where, m.group(1), n) for n in numbers] or [(where, m.group(1), None)]
    return found


def test_every_reference_in_the_package_can_be_followed_with_the_command():
    references = _references()
    assert len(references) > 100 and sum(n is not None for _, _, n in references) > 100  # the search works
    broken = []
    for where, name, number in references:
        result = _docs(name) if number is None else _docs(name, f"§{number}")
        if result.exit_code != 0:
            said = result.stderr.strip().removeprefix("inexeval: error: ").split("; ")[0]
            broken.append(f"{where}: docs/{name}.md{'' if number is None else ' §' + number}: {said}")
        elif number is not None:
            assert re.match(rf"#+ {re.escape(number)}[. ]", result.stdout), (where, result.stdout[:80])
    assert not broken, "references 'inexeval docs' cannot follow:\n" + "\n".join(broken)
