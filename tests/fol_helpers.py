"""Helpers of the FOL (inex_eval 3.1) tests: write small qrels/run files, run the drop-in, read its lines."""

from __future__ import annotations

import io
from pathlib import Path

from inexeval.inex_eval import main as inex_eval_main


def write(path: Path, lines: list[str] | str) -> Path:
    """Write LINES (a list: each ended by '\\n'; a str: as it is) to PATH, creating folders."""
    path.parent.mkdir(parents=True, exist_ok=True)
    text = lines if isinstance(lines, str) else "".join(ln + "\n" for ln in lines)
    path.write_bytes(text.encode("utf-8"))
    return path


def run_lines(topic: str, specs: list[tuple[str, object, object]], run_id: str = "R") -> list[str]:
    """8-column run lines from (article, offset, length) triples, RANK 1 and RSV 1 throughout."""
    return [f"{topic} Q0 {art} 1 1 {run_id} {off} {length}" for art, off, length in specs]


def drop_in(*argv: str) -> tuple[str, str, int]:
    """(standard output, standard error, exit status) of ``inexeval inex-eval ARGV``."""
    out, err = io.StringIO(), io.StringIO()
    status = inex_eval_main(list(argv), out, err)
    return out.getvalue(), err.getvalue(), status


def values(output: str) -> dict[tuple[str, str], str]:
    """{(NAME, TOPIC): VALUE} of the measure lines of OUTPUT, checking the one/two-TAB layout."""
    found = {}
    for line in output.splitlines():
        if line.startswith("<") or "\t" not in line or line.startswith(("\t", "ERROR", "Error")):
            continue
        name, rest = line.split("\t", 1)
        assert rest.startswith("\t") == (len(name) < 8), line
        topic, value = rest.lstrip("\t").split("\t")
        found[(name, topic)] = value
    return found


def ircl(points: int, ranges: list[tuple[int, int, str]]) -> list[str]:
    """The ``ircl_prn`` lines of the ``all`` block: RANGES are (first, last, value) in points of POINTS."""
    lines = []
    for first, last, value in ranges:
        for p in range(first, last + 1):
            label = f"{p * 100 // points // 100}.{p * 100 // points % 100:02d}"
            lines.append(f"ircl_prn.{label}\tall\t{value}")
    assert len(lines) == points + 1
    return lines
