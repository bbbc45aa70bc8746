"""Every command of the README's fenced blocks that can run on the sample data runs (issue 31, item 5).

The commands are read from the README at test time: every line of a ```sh (or ```bash, ```console, or
unlabelled) fenced block that calls ``inexeval`` (at the start of the line, after a ``$`` prompt, after
``&&``, or as ``.venv/bin/inexeval``).  Each is run with ``bash`` in a fresh clone of the repository
(``git clone`` of the committed HEAD; a copy of ``configs/`` and ``sample_data/`` where there is no git
checkout), in README order, with this environment's ``inexeval`` first on ``PATH``.  It must exit with
the status the README gives it (0 unless :data:`EXPECTED_STATUS` says otherwise) and print no traceback;
where the README shows its output (a ``$`` line followed by output in the same block, or an unlabelled
block right after a one-command ``sh`` block), every shown line (but ``...``) is in what it prints.

A command that cannot run on the sample data is listed in :data:`NOT_RUN` with the reason, by pattern;
everything else runs, so a command added to the README is tried by default.  Install steps inside a
command line (``python3 -m venv``, ``pip install``) are left out of the line with the reason in
:data:`LEFT_OUT_OF_A_LINE` and the rest of the line is run.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
README = REPO / "README.md"
BIN = Path(sys.executable).parent  # this environment's bin/: inexeval, python

#: commands not run, by pattern (searched in the command line), with the reason
NOT_RUN: dict[str, str] = {
    r"\[-|\[OPTIONS\]|\bFILE\b|\bRUN\.\.\.|\bDIR\b|\bTASK\b|\bKEY=VALUE\b": "a synopsis with placeholders, not a command",
    r"\bqrels\.txt\b|\brun\d*\.(?:txt|gz|tsv)\b|\bprefs\.txt\b|\banswers\.tsv\b":
        "names your own qrels and run files, which the sample does not ship under those names",
}

#: parts of a ``&&`` chain left out of a line that is otherwise run, with the reason
LEFT_OUT_OF_A_LINE: dict[str, str] = {
    r"^python3? -m venv\b": "creates a venv (this test uses the one it runs in)",
    r"^\S*pip install\b": "installs the package and its dependencies from the package index (tests/test_packaging.py "
                          "installs the wheel offline)",
    r"^\S*python3? -m build\b": "builds the sdist and wheel (tests/test_packaging.py does)",
}

#: exit status by pattern, where the README gives one other than 0
EXPECTED_STATUS: dict[str, int] = {}


@dataclass
class Command:
    line: str            # as written in the README (prompt and comment included)
    number: int          # its line number in the README
    run: str = ""        # what is given to bash
    output: list[str] = field(default_factory=list)  # the output the README shows, if any
    not_run: str = ""    # why it is not run


FENCE = re.compile(r"^\s*(```+|~~~+)\s*([\w+-]*)\s*$")
SHELL_BLOCKS = {"", "sh", "bash", "shell", "console"}
#: a command calling inexeval: at the start (``inexeval``, ``.venv/bin/inexeval``) or after ``&&``
CALLS_INEXEVAL = re.compile(r"(?:^|&&\s*)(?:\S*/)?inexeval(?:\s|$)")


@dataclass
class Block:
    lang: str
    first: int           # README line number of its first line inside the fence
    end: int             # README line number of its closing fence
    lines: list[str]


def fenced_blocks(text: str) -> list[Block]:
    """Every fenced block of a markdown text."""
    blocks, lines, i = [], text.splitlines(), 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        fence, j = m.group(1), i + 1
        while j < len(lines) and not lines[j].strip().startswith(fence):
            j += 1
        blocks.append(Block(m.group(2).lower(), i + 2, j + 1, lines[i + 1:j]))
        i = j + 1
    return blocks


def _strip_comment(line: str) -> str:
    """The line without a trailing shell comment (``#`` after white space, outside quotes)."""
    quote = None
    for k, ch in enumerate(line):
        if quote:
            if ch == quote:
                quote = None
        elif ch in "'\"":
            quote = ch
        elif ch == "#" and (k == 0 or line[k - 1].isspace()):
            return line[:k].rstrip()
    return line.rstrip()


def readme_commands(text: str) -> list[Command]:
    """Every command line calling inexeval in the README's shell and unlabelled fenced blocks, with the
    output the README shows for it, and why it is not run (or what is run)."""
    commands: list[Command] = []
    blocks = fenced_blocks(text)
    lines = text.splitlines()
    for b, block in enumerate(blocks):
        if block.lang not in SHELL_BLOCKS:
            continue
        found: list[Command] = []
        prompted = None  # the last command written after a $ prompt: the lines below are its output
        for k, raw in enumerate(block.lines):
            line = raw.strip()
            prompt = line.startswith("$ ")
            cmd = _strip_comment(line[2:] if prompt else line)
            if CALLS_INEXEVAL.search(cmd):
                found.append(Command(line=raw, number=block.first + k, run=cmd))
                prompted = found[-1] if prompt else None
            elif prompted is not None:
                prompted.output.append(raw)
        # an unlabelled block right after a one-command sh block shows that command's output
        if block.lang in ("sh", "bash") and len(found) == 1 and b + 1 < len(blocks):
            after = blocks[b + 1]
            between = lines[block.end:after.first - 2]
            if after.lang == "" and not any(s.strip() for s in between) \
                    and not any(CALLS_INEXEVAL.search(s.strip()) for s in after.lines):
                found[0].output = list(after.lines)
        commands += found
    for c in commands:
        for pattern, reason in NOT_RUN.items():
            if re.search(pattern, c.run):
                c.not_run = reason
                break
        else:
            kept = [part.strip() for part in c.run.split("&&")
                    if not any(re.search(p, part.strip()) for p in LEFT_OUT_OF_A_LINE)]
            c.run = " && ".join(re.sub(r"^\.venv/bin/", "", part) for part in kept)
    return commands


def expected_status(command: Command) -> int:
    for pattern, status in EXPECTED_STATUS.items():
        if re.search(pattern, command.run):
            return status
    return 0


def fresh_checkout(dest: Path) -> Path:
    """A fresh clone of the repository's committed HEAD at DEST (no results/, no venv, nothing untracked);
    a copy of configs/ and sample_data/ where the repository is not a git checkout (an unpacked sdist)."""
    if (REPO / ".git").exists() and shutil.which("git"):
        p = subprocess.run(["git", "clone", "-q", str(REPO), str(dest)], capture_output=True, text=True)
        assert p.returncode == 0, p.stderr
    else:
        dest.mkdir(parents=True)
        for part in ("configs", "sample_data"):
            shutil.copytree(REPO / part, dest / part)
    return dest


def command_env(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("INEXEVAL_")}
    env.update(PATH=f"{BIN}{os.pathsep}{env.get('PATH', '')}", HOME=str(home), LC_ALL="C.UTF-8",
               COLUMNS="200")
    env.pop("PYTHONPATH", None)
    return env


COMMANDS = readme_commands(README.read_text(encoding="utf-8"))


def test_the_readme_has_commands_and_each_is_run_or_says_why_not():
    run = [c for c in COMMANDS if not c.not_run]
    assert len(run) >= 5, [c.line for c in COMMANDS]
    # every pattern of NOT_RUN still matches a README command: a stale pattern hides nothing
    for pattern in NOT_RUN:
        assert any(re.search(pattern, c.line) for c in COMMANDS), f"no README command matches {pattern!r}"


def test_the_extraction_on_a_small_readme():
    text = "\n".join([
        "```sh", "python3 -m venv .venv && .venv/bin/pip install -q -e . && .venv/bin/inexeval -config a.prop",
        "inexeval validate RUN... [--task T]", "```", "", "```", "$ inexeval metrics --quiet", "line one", "...",
        "  [--runs A,B]", "```", "", "```sh", "inexeval -config b.prop   # a comment", "```", "", "```",
        "run  Q", "```", "", "```python", "inexeval.evaluate('x')", "```", "", "```make", "\tinexeval -config c", "```"])
    got = [(c.number, c.run, c.not_run != "", c.output) for c in readme_commands(text)]
    assert got == [(2, "inexeval -config a.prop", False, []),
                   (3, "inexeval validate RUN... [--task T]", True, []),
                   (7, "inexeval metrics --quiet", False, ["line one", "...", "  [--runs A,B]"]),
                   (14, "inexeval -config b.prop", False, ["run  Q"])]


@pytest.mark.slow
def test_every_readme_command_that_can_run_on_the_sample_runs(tmp_path):
    if not shutil.which("inexeval", path=str(BIN)):
        pytest.skip(f"no inexeval in {BIN} (pip install -e '.[test]')")
    checkout = fresh_checkout(tmp_path / "clone")
    env = command_env(tmp_path / "home")
    (tmp_path / "home").mkdir()
    failures = []
    for c in COMMANDS:
        if c.not_run:
            print(f"README:{c.number}: not run ({c.not_run}): {c.line.strip()}")
            continue
        p = subprocess.run(["bash", "-c", c.run], cwd=checkout, env=env, capture_output=True, text=True,
                           timeout=600)
        want = expected_status(c)
        problems = []
        if p.returncode != want:
            problems.append(f"exit status {p.returncode}, the README says {want}")
        if "Traceback" in p.stderr or "Traceback" in p.stdout:
            problems.append("a traceback")
        shown = [s.rstrip() for s in c.output if s.strip() and s.strip() != "..."]
        missing = [s for s in shown if s not in p.stdout]
        if missing:
            problems.append(f"output the README shows is not printed: {missing[:3]}")
        if problems:
            failures.append(f"README:{c.number}: {c.run}: {'; '.join(problems)}\n{p.stdout[-1500:]}\n"
                            f"{p.stderr[-1500:]}")
        print(f"README:{c.number}: status {p.returncode}: {c.run}")
    assert not failures, "\n\n".join(failures)


def test_the_measures_table_has_one_row_per_task():
    """Every task of the task table is named in the first column of exactly one row of the README's
    Measures table (its aliases may be named with it)."""
    from inexeval.tasks import TASKS

    text = README.read_text(encoding="utf-8")
    section = text[text.index("\n## Measures\n"):]
    section = section[:section.index("\n## ", 1)]
    rows = [line.split("|")[1] for line in section.splitlines() if line.startswith("| `")]
    for name in TASKS:
        holding = [r for r in rows if re.search(rf"`{re.escape(name)}`", r)]
        assert len(holding) == 1, (name, holding)


def test_formats_9_1_lists_every_subcommand():
    """docs/formats.md §9.1 names every subcommand of the command line, in its synopsis and its table."""
    import click

    from inexeval.cli.command import main

    text = (REPO / "docs" / "formats.md").read_text(encoding="utf-8")
    section = text[text.index("\n### 9.1 "):text.index("\n### 9.2 ")]
    for name in main.list_commands(click.Context(main)):
        assert f"\ninexeval {name}" in section, f"§9.1's synopsis lacks inexeval {name}"
        assert f"\n| `{name}` |" in section, f"§9.1's table lacks {name}"
