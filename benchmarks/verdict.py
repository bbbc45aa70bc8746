"""One line per target of issue 16, printed by every benchmark script and collected by run_all.py.

    VERDICT<TAB>target<TAB>figure<TAB>reference<TAB>ratio<TAB>met | missed | not measured

``figure`` and ``reference`` are free text with their units; ``ratio`` is
``figure / reference`` where both are times or peaks, else empty.
"""

from __future__ import annotations

PREFIX = "VERDICT\t"


def verdict(target: str, figure: str, reference: str, ratio: float | None, met: bool | None) -> str:
    """Print (and return) one verdict line; ``met=None`` when the target could not be measured here."""
    word = "not measured" if met is None else ("met" if met else "missed")
    line = PREFIX + "\t".join([target, figure, reference, "" if ratio is None else f"{ratio:.2f}", word])
    print(line, flush=True)
    return line


def parse(text: str) -> list[list[str]]:
    """The verdict lines of a script's output, as [target, figure, reference, ratio, verdict]."""
    return [line[len(PREFIX):].split("\t") for line in text.splitlines() if line.startswith(PREFIX)]
