"""Names from users' files made safe: run and topic ids as file names and as table cells (docs/formats.md §9.2.2).

Run ids and topic ids come from the runs and the assessments, so they may
hold anything: tabs, newlines, ``/``, ``..``, a thousand characters.

- :func:`file_component` turns an id into one file-name component: every
  character outside ``[A-Za-z0-9._+-]`` becomes ``_`` (empty: ``_``); a name
  that would start with ``.`` or ``-``, or whose part before the first ``.``
  is a Windows device name (``con``, ``nul``, ``com1``…), gets ``_`` in front;
  a name longer than :data:`MAX_NAME` bytes is cut and ends with ``~`` and 8
  hex digits of the id's SHA-256.  Ordinary ids (``myrun``, ``run-1.b``)
  are unchanged.
- :class:`NameTable` keeps the names of one evaluation one-to-one, also on
  case-insensitive file systems: an id whose name (compared ignoring case) is
  taken by another id gets ``~`` and its hash instead; the caller reports
  every id whose name is not the id itself.
- :func:`cell` makes an id one table cell, visibly and reversibly
  (:func:`uncell`): ``\\`` becomes ``\\\\``, tab, newline and carriage return
  ``\\t``, ``\\n``, ``\\r``, and every other character that is not printable
  (control characters, U+0085, U+2028, U+2029, format characters, non-space
  separators) ``\\xNN``, ``\\uNNNN`` or ``\\UNNNNNNNN``.  Ids without these
  characters are unchanged.
"""

from __future__ import annotations

import re

__all__ = ["MAX_NAME", "file_component", "NameTable", "cell", "uncell", "id_hash", "one_line", "text_columns"]

#: longest file-name component, in bytes (ASCII): with ``.tsv`` and the temporary name's
#: ``.<name>.tsv.inexeval-<pid>-<8 random>.tmp`` it stays below the usual 255-byte limit
MAX_NAME = 200

_UNSAFE = re.compile(r"[^A-Za-z0-9._+-]")
_RESERVED = frozenset({"con", "prn", "aux", "nul", *(f"com{i}" for i in range(10)),
                       *(f"lpt{i}" for i in range(10))})


def id_hash(name: str) -> str:
    """8 hex digits of the SHA-256 of the id (UTF-8; lone surrogates kept)."""
    import hashlib  # (here: OpenSSL's module takes 5 ms to load, and most names need no hash)

    return hashlib.sha256(name.encode("utf-8", "surrogatepass")).hexdigest()[:8]


def _with_hash(base: str, name: str, limit: int) -> str:
    return base[: limit - 9] + "~" + id_hash(name)


def file_component(name: str, limit: int = MAX_NAME) -> str:
    """The file-name component for the id ``name`` (see the module docstring); at most ``limit`` bytes."""
    s = _UNSAFE.sub("_", name) or "_"
    if s[0] in ".-" or s.split(".", 1)[0].lower() in _RESERVED:
        s = "_" + s
    if len(s) > limit:
        s = _with_hash(s, name, limit)
    return s


class NameTable:
    """One-to-one file names for the ids of one evaluation, in the order they are assigned."""

    def __init__(self, limit: int = MAX_NAME):
        self.limit = limit
        self._owner: dict[str, str] = {}  # lower-cased name -> the id it was given to
        self.names: dict[str, str] = {}  # id -> its name

    def owner(self, name: str) -> str | None:
        """The id that was given ``name`` (compared ignoring case), or None."""
        return self._owner.get(name.lower())

    def assign(self, name: str) -> str | None:
        """The file name for the id ``name``: its :func:`file_component`, or with ``~hash`` when
        another id has that name; None when even that is taken (or the id was assigned already)."""
        if name in self.names:
            return None
        s = file_component(name, self.limit)
        if s.lower() in self._owner:
            s = _with_hash(s if "~" not in s else s[: s.rindex("~")], name, self.limit)
            if s.lower() in self._owner:
                return None
        self._owner[s.lower()] = name
        self.names[name] = s
        return s


_ESCAPES = {"\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r"}


def _escape(ch: str) -> str:
    if ch in _ESCAPES:
        return _ESCAPES[ch]
    o = ord(ch)
    return f"\\x{o:02x}" if o < 0x100 else f"\\u{o:04x}" if o < 0x10000 else f"\\U{o:08x}"


def cell(text: str) -> str:
    """``text`` as one table cell: backslashes and non-printable characters escaped (one-to-one)."""
    if text.isprintable() and "\\" not in text:
        return text
    return "".join(ch if ch.isprintable() and ch != "\\" else _escape(ch) for ch in text)


def one_line(text: str) -> str:
    """``text`` with its non-printable characters but tab escaped as :func:`cell` escapes them,
    backslashes kept: a message naming ids stays one line (not reversible; for messages, not cells)."""
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() or ch == "\t" else _escape(ch) for ch in text)


_UNESCAPE = re.compile(r"\\(\\|t|n|r|x[0-9a-f]{2}|u[0-9a-f]{4}|U[0-9a-f]{8})")
_UNESCAPES = {"\\": "\\", "t": "\t", "n": "\n", "r": "\r"}


def uncell(text: str) -> str:
    """The id :func:`cell` made ``text`` from."""
    if "\\" not in text:
        return text
    return _UNESCAPE.sub(lambda m: _UNESCAPES.get(m[1]) or chr(int(m[1][1:], 16)), text)


_PLAIN_INT = re.compile(r"-?(0|[1-9][0-9]*)")


def text_columns(rows: list[list], columns: list[int]) -> list[int]:
    """Which of ``columns`` (id columns of ``rows``) tabulate must not read as numbers: those with a
    value that would not print back as itself (``007``, ``1e3``, ``1_000``, ``nan``).  A column of
    plain integers (topic ids ``202``) keeps tabulate's number alignment."""
    return [j for j in columns if not all(isinstance(r[j], str) and _PLAIN_INT.fullmatch(r[j]) for r in rows)]
