"""Users have only the repository: nothing in the README, docs/ or inexeval/ points outside it."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: References to the developers' specifications, which users do not have.
OUTSIDE = re.compile(r"\bSPEC(?:_FOL)?\b|SPEC(?:_FOL)?\.md|EXAMPLES\.md|DESIGN\.md|\.\./shared|/work/")


def _files():
    yield ROOT / "README.md"
    yield from sorted((ROOT / "docs").glob("*.md"))
    yield from sorted((ROOT / "inexeval").rglob("*.py"))
    yield from sorted((ROOT / "configs").glob("*"))


def test_nothing_points_outside_the_repository():
    found = [f"{p.relative_to(ROOT)}:{i}: {line.strip()}"
             for p in _files() for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
             if OUTSIDE.search(line)]
    assert not found, "references users cannot follow:\n" + "\n".join(found)


def test_cited_docs_sections_exist():
    """Every `docs/<file>.md §N` cited in code or docs names a section heading of that file."""
    headings: dict[str, set[str]] = {}
    for doc in (ROOT / "docs").glob("*.md"):
        headings[doc.name] = set(re.findall(r"^#+ (\d+(?:\.\d+)*)[. ]", doc.read_text(encoding="utf-8"), re.M))
    cite = re.compile(r"docs/(\w[\w-]*\.md) §(\d+(?:\.\d+)*)")
    missing = []
    for p in _files():
        for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1):
            for doc, sec in cite.findall(line):
                if doc not in headings:
                    missing.append(f"{p.relative_to(ROOT)}:{i}: docs/{doc} does not exist")
                elif sec not in headings[doc]:
                    missing.append(f"{p.relative_to(ROOT)}:{i}: docs/{doc} has no section {sec}")
    assert not missing, "\n".join(missing)
