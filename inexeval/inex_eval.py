"""Drop-in replacement of inex_eval 3.1 (first version: stub)."""

from __future__ import annotations


def main(argv: list[str], out, err) -> int:
    raise NotImplementedError
