"""File-id and XPath normalisation and element ancestry (docs/formats.md §1.1).

A normalised path is a string such as ``/article[1]/bdy[1]/sec[2]``: every
step has an explicit index and a lower-case tag. With that form, ancestry is
a string-prefix test, which is what keeps the per-result work cheap.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from inexeval.errors import InvalidPath

_STEP = re.compile(r"^([A-Za-z_][A-Za-z0-9_.:\-]*)\s*(?:\[\s*([0-9]+)\s*\])?$")
_path_cache: dict[str, str] = {}


def normalise_file_id(raw: str) -> str:
    """Trim, ``\\`` -> ``/``, drop a leading ``./`` or ``/`` and a trailing ``.xml``."""
    s = raw.strip().replace("\\", "/")
    while s.startswith("./"):
        s = s[2:]
    s = s.lstrip("/")
    if s.lower().endswith(".xml"):
        s = s[:-4]
    if not s:
        raise InvalidPath("empty file id")
    return s


def normalise_path(raw: str) -> str:
    """Normalise an XPath to ``/tag[n]/tag[n]...`` or raise :class:`InvalidPath`.

    Trim; drop a trailing ``/``; add a leading ``/``; add ``[1]`` to steps
    without an index; lower-case tags.  ``//``, ``*``, ``text()``, predicates
    other than ``[n]`` with n >= 1, and empty steps are invalid.
    """
    cached = _path_cache.get(raw)
    if cached is not None:
        return cached
    s = raw.strip()
    if s.endswith("/") and len(s) > 1:
        s = s[:-1]
    if not s.startswith("/"):
        s = "/" + s
    steps = s[1:].split("/")
    out = []
    for step in steps:
        step = step.strip()
        m = _STEP.match(step)
        if m is None:
            raise InvalidPath(f"invalid path step {step!r} in {raw.strip()!r}")
        digits = m.group(2)
        if digits is not None and len(digits.lstrip("0")) > 18:  # no document has 10^18 siblings
            raise InvalidPath(f"invalid index [{digits[:20]}...] in {raw.strip()[:80]!r}")
        index = int(digits) if digits is not None else 1
        if index < 1:
            raise InvalidPath(f"invalid index [{m.group(2)}] in {raw.strip()!r}")
        out.append(f"{m.group(1).lower()}[{index}]")
    norm = "/" + "/".join(out)
    if len(_path_cache) < 1_000_000:
        _path_cache[raw] = norm
    return norm


def parent(path: str) -> str | None:
    """The parent path, or None for a root (one-step) path."""
    cut = path.rfind("/")
    return path[:cut] if cut > 0 else None


def depth(path: str) -> int:
    """Number of steps (a root has depth 1)."""
    return path.count("/")


def is_ancestor(a: str, b: str) -> bool:
    """True iff ``a`` is a proper ancestor of ``b`` (same file assumed)."""
    return len(b) > len(a) and b.startswith(a) and b[len(a)] == "/"


def proper_ancestors(path: str) -> Iterator[str]:
    """Yield each proper ancestor of ``path``, nearest first (nothing for a root)."""
    p = parent(path)
    while p is not None:
        yield p
        p = parent(p)


def ancestors_or_self(path: str) -> Iterator[str]:
    """Yield ``path`` and then each ancestor, nearest first."""
    yield path
    yield from proper_ancestors(path)

