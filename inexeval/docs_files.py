"""The documentation, docs/*.md, wherever the installation keeps it: each file's name and title and its
numbered sections, for ``inexeval docs`` (inexeval/cli/docs.py), so that a reference such as
"docs/formats.md §9.2" in a help text or an error can be followed without a clone.

A wheel ships docs/*.md as ``inexeval/_data/docs/`` (setup.py); a clone or an editable install reads
``docs/`` beside the package.  A section is a heading whose title starts with its number (``### 9.2
Outputs``, ``## 3. Tasks``) and everything up to the next heading of the same or a higher level, its
subsections included; lines in fenced code blocks are never headings.
"""

from __future__ import annotations

import re
from functools import cached_property
from pathlib import Path

from inexeval.errors import ConfigError, OutputError
from inexeval.records import record

_HEADING = re.compile(r"^(#{1,6})[ \t]+(.*?)[ \t]*$")
_NUMBER = re.compile(r"(\d+(?:\.\d+)*)\.?(?=\s|$)")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")


def docs_root() -> Path:
    """The directory holding the Markdown docs: the wheel's copy, else the clone's ``docs/``."""
    package = Path(__file__).resolve().parent
    places = (package / "_data" / "docs", package.parent / "docs")
    for root in places:
        if root.is_dir() and any(root.glob("*.md")):
            return root
    raise OutputError(f"the documentation is not installed (looked in {places[0]} and {places[1]}); "
                      "reinstall inexeval from its wheel or a clone")


@record(frozen=True)
class Heading:
    """A Markdown heading: its level (the number of ``#``), its title, the section number its title
    starts with ("9.2" for ``### 9.2 Outputs``; None when unnumbered) and its line (0-based)."""

    level: int
    title: str
    number: str | None
    line: int


class Doc:
    """One file of docs/: ``name`` is its file name without ``.md`` (``formats``)."""

    def __init__(self, path: Path):
        self.path = path
        self.name = path.stem

    def __repr__(self) -> str:
        return f"Doc({self.name!r})"

    @cached_property
    def text(self) -> str:
        return self.path.read_text(encoding="utf-8")

    @cached_property
    def headings(self) -> list[Heading]:
        found: list[Heading] = []
        fence: str | None = None
        for i, line in enumerate(self.text.splitlines()):
            opened = _FENCE.match(line)
            if fence is not None:
                closing = line.strip()
                if opened and closing == opened.group(1) and closing[0] == fence[0] and len(closing) >= len(fence):
                    fence = None
                continue
            if opened:
                fence = opened.group(1)
                continue
            m = _HEADING.match(line)
            if m:
                title = m.group(2)
                number = _NUMBER.match(title)
                found.append(Heading(len(m.group(1)), title, number.group(1) if number else None, i))
        return found

    @property
    def title(self) -> str:
        """The first heading's title, without Markdown's backquotes."""
        return self.headings[0].title.replace("`", "") if self.headings else self.name

    @property
    def numbers(self) -> list[str]:
        """The section numbers, in the order of the file."""
        return [h.number for h in self.headings if h.number is not None]

    def section(self, number: str) -> str:
        """Section ``number`` ("9.2", "§9.2", "§ 9.2", "9.2."): its heading and everything up to the next
        heading of the same or a higher level.  ConfigError (exit 2) listing the numbers when there is none."""
        wanted = normalise_section(number)
        lines = self.text.splitlines()
        for k, heading in enumerate(self.headings):
            if heading.number != wanted:
                continue
            end = next((h.line for h in self.headings[k + 1:] if h.level <= heading.level), len(lines))
            return "\n".join(lines[heading.line:end]).rstrip() + "\n"
        numbers = self.numbers
        if not numbers:
            raise ConfigError(f"docs/{self.name}.md has no numbered sections (there is no §{wanted}); "
                              f"'inexeval docs {self.name}' prints it whole")
        raise ConfigError(f"docs/{self.name}.md has no section §{wanted}; its sections: "
                          + ", ".join(f"§{n}" for n in numbers))


def normalise_section(number: str) -> str:
    """"§9.2", "§ 9.2", "9.2." -> "9.2"."""
    return number.strip().lstrip("§").strip().rstrip(".")


def docs(root: Path | None = None) -> list[Doc]:
    """Every doc, by name."""
    root = docs_root() if root is None else root
    return [Doc(p) for p in sorted(root.glob("*.md"))]


def find_doc(name: str, root: Path | None = None) -> Doc:
    """The doc called ``name`` ("formats", "formats.md", "docs/formats.md"); ConfigError (exit 2)
    listing the names otherwise."""
    every = docs(root)
    wanted = name.strip().removeprefix("./").removeprefix("docs/").removesuffix(".md")
    for doc in every:
        if doc.name == wanted:
            return doc
    raise ConfigError(f"no doc called {name!r}; the docs: " + ", ".join(d.name for d in every))
