"""What one result of a run is: its *unit* (the ``unit`` column of the task table, :mod:`inexeval.tasks`).

The run reader (:mod:`inexeval.readers.runs`) knows a run's layout (XML
``<topic>``/``<result>`` or text lines), its topic, rank and rsv, and the run
hygiene; a :class:`Unit` knows the rest of a result:

- its raw *fields* and where they are written: ``text_columns``, the columns
  of a text-run line (the reader takes ``topic``, ``rank``, ``rsv`` and
  ``run-id`` from there and the unit's fields by name); ``xml_xpaths``, one
  XPath per field from a ``<result>``, each selecting at most one node per
  result (the reader evaluates them for a whole ``<topic>`` at once), and
  :meth:`Unit.xml_values`, the same values read from one ``<result>``
  element (used where the XPaths cannot be, e.g. a result without a field);
- its *key*: the raw fields normalised into the hashable value that stands
  for the result in :attr:`inexeval.model.Run.topics` and that duplicates
  are detected on (:meth:`Unit.key`, raising :class:`~inexeval.errors.InvalidPath`
  with the reason for an invalid result, and :meth:`Unit.keys`, the same for
  whole columns at once, or None to let the reader go result by result);
- how a key is written in messages (:meth:`Unit.describe`).

One unit is implemented: ``element``, ``(file id, XPath)`` normalised as
docs/formats.md §1.1 says (:mod:`inexeval.paths`), from the 7-column text
line ``topic Q0 file rank rsv run-id path`` or the ``<file>`` and ``<path>``
children of a ``<result>`` (the last of each name counts; its text before
any child element).  A ``passage`` unit (file, offset, length) would be one
more class: text columns ``topic Q0 file rank rsv run-id offset length``,
XPaths ``file[last()]/node()[1]``, ``fol[last()]/@offset`` and
``fol[last()]/@length``, a key ``(file id, offset, length)``; the reader and
its hygiene (MAX_RESULTS, invalid results, duplicates, ranks) stay as they
are.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Hashable, Sequence
from typing import TYPE_CHECKING

from inexeval.errors import InvalidPath
from inexeval.paths import normalise_file_id, normalise_path

if TYPE_CHECKING:  # (annotations only: a text run never loads lxml)
    from lxml import etree

__all__ = ["Unit", "ElementUnit", "ELEMENT", "UNITS", "unit_named"]


class Unit:
    """What one result of a run is; see the module docstring.  Subclasses set the class attributes."""

    #: The unit's name in the task table (``Task.unit``).
    name: str = ""
    #: Names of the raw fields of one result, in the order :meth:`key` takes them.
    fields: tuple[str, ...] = ()
    #: The columns of one text-run line; holds ``topic``, ``rank``, ``rsv``, ``run-id`` and every field.
    text_columns: tuple[str, ...] = ()
    #: Per field, an XPath from a ``<result>`` selecting the node that holds it (at most one per result).
    xml_xpaths: tuple[str, ...] = ()

    def xml_values(self, result: etree._Element) -> tuple[str | None, ...]:
        """The raw fields of one ``<result>`` element (None: absent), as :attr:`xml_xpaths` select them."""
        raise NotImplementedError

    def key(self, *raw: str | None, strings: dict[str, str] | None = None) -> Hashable:
        """The key of one result from its raw fields; InvalidPath (with the reason) if it is invalid.

        ``strings``: the reader's table of the strings its keys hold so far (equal strings are one
        object in the run's keys: a run repeats its file ids and paths); None: a table of its own.
        """
        raise NotImplementedError

    def keys(self, columns: Sequence[list], strings: dict[str, str] | None = None) -> list[Hashable] | None:
        """:meth:`key` of every result at once (``columns``: one list per field, aligned), or None.

        None (the caller then calls :meth:`key` one result at a time) when a
        result is invalid or a value is not a string; may be None in other
        cases too.  Never differs from :meth:`key` otherwise.
        """
        strings = {} if strings is None else strings
        try:
            return [self.key(*raw, strings=strings) for raw in zip(*columns)]
        except (InvalidPath, TypeError):
            return None

    def describe(self, key: Hashable) -> str:
        """A key as messages write it."""
        return " ".join(map(str, key)) if isinstance(key, tuple) else str(key)


# --------------------------------------------------------------------------- elements


class _Normalised(dict):
    """Raw string -> normalised form, or None when invalid; computed on the first look-up.

    Runs repeat few distinct file ids and paths (within a run and across the
    runs of one collection), so each is normalised once per process.  At most
    ``limit`` strings are kept; later new ones are normalised on every
    look-up.  A value that is not a string (an element node, in a malformed
    result) gives None and is not stored.
    """

    __slots__ = ("_limit", "_normalise")

    def __init__(self, normalise: Callable[[str], str], limit: int):
        super().__init__()
        self._normalise = normalise
        self._limit = limit

    def __missing__(self, raw: object) -> str | None:
        if type(raw) is not str:
            return None
        try:
            value = self._normalise(raw)
        except InvalidPath:
            value = None
        if len(self) < self._limit:
            self[raw] = value
        return value


_FILE_IDS = _Normalised(normalise_file_id, 200_000)
_PATHS = _Normalised(normalise_path, 200_000)


def _ascii_classes(classes: dict[str, str]) -> dict[int, str]:
    """A ``str.translate`` table: the given characters to their class, other ASCII to ``?``."""
    table = {chr(c): "?" for c in range(128)}
    for chars, cls in classes.items():
        table.update(dict.fromkeys(chars, cls))
    return str.maketrans(table)


_LETTERS = "abcdefghijklmnopqrstuvwxyz"
_DIGITS = "0123456789"

#: File-id characters by class: ``/`` and ``.`` kept, ``x m l`` in either
#: case lower-cased (a ``.xml`` ending), white space, controls and ``\\`` to
#: ``?``, any other printable ASCII ``a``; non-ASCII is left as it is.
_FILE_ID_CLASSES = _ascii_classes(
    {
        "".join(chr(c) for c in range(33, 127) if chr(c) not in "\\/."): "a",
        "/": "/",
        ".": ".",
        "xX": "x",
        "mM": "m",
        "lL": "l",
        "\0": "\0",
    }
)
#: The shape of a file id that :func:`~inexeval.paths.normalise_file_id`
#: leaves as it is (docs/formats.md §1.1): not empty, no white space or ``\\``,
#: no leading ``/`` or ``./``, no ``.xml`` ending.
_PLAIN_FILE_ID = re.compile(r"(?!/|\./)[axml./]+(?<!\.xml)")

#: Path characters by class: tag start ``a`` (``a-z _``), digit ``0`` (1-9)
#: or ``z`` (0), other tag character ``.`` (``. : -``), ``/ [ ]`` kept, any
#: other ASCII ``?`` (upper case, white space, ...); non-ASCII is left as it is.
_PATH_CLASSES = _ascii_classes(
    {_LETTERS + "_": "a", _DIGITS[1:]: "0", "0": "z", ".:-": ".", "/": "/", "[": "[", "]": "]", "\0": "\0"}
)
#: The shape of a normalised path (docs/formats.md §1.1, what
#: :func:`~inexeval.paths.normalise_path` writes): steps ``/tag[n]``, a
#: lower-case tag ``[a-z_][a-z0-9_.:-]*``, n without leading zeros,
#: 1 <= n < 10^18.
_NORMAL_PATH = re.compile(r"(?:/a[a.0z]*\[0[0z]{0,17}\])+")

_file_id_shapes: dict[str, bool] = {}
_path_shapes: dict[str, bool] = {}


def plain_file_ids(raws: list[str]) -> bool:
    """True only if :func:`~inexeval.paths.normalise_file_id` leaves every one of ``raws`` unchanged."""
    return _all_plain(raws, _FILE_ID_CLASSES, _PLAIN_FILE_ID, _file_id_shapes)


def plain_paths(raws: list[str]) -> bool:
    """True only if :func:`~inexeval.paths.normalise_path` leaves every one of ``raws`` unchanged."""
    return _all_plain(raws, _PATH_CLASSES, _NORMAL_PATH, _path_shapes)


def _all_plain(raws: list[str], classes: dict[int, str], plain: re.Pattern[str], known: dict[str, bool]) -> bool:
    """True only if every string of ``raws``, mapped to character classes, fully matches ``plain``.

    The strings are mapped all at once (joined by NUL, which no XML text
    holds) and split again; a run has few distinct shapes (``/article[1]/p[10]``
    -> ``/aaaaaaa[0]/a[0z]``), each matched once and remembered in ``known``.
    This replaces a look-up per result by C-level work on the whole list.
    May be False for a plain string (e.g. an id with inner white space): the
    caller then normalises one by one.
    """
    if not raws:
        return True
    try:
        shapes = "\0".join(raws).translate(classes).split("\0")
    except TypeError:  # an element node, in a malformed result
        return False
    if len(shapes) != len(raws):  # a NUL inside a string
        return False
    for shape in set(shapes):
        ok = known.get(shape)
        if ok is None:
            ok = plain.fullmatch(shape) is not None
            if len(known) < 10_000:
                known[shape] = ok
        if not ok:
            return False
    return True


class ElementUnit(Unit):
    """An XML element: ``(file id, path)``, both normalised (docs/formats.md §1.1).

    A run's keys hold one string object per distinct file id and path (the
    reader's table of them, ``strings``): a run repeats them.  A table per
    run, not ``sys.intern``: interning added and later removed every new
    string in the interpreter's table of all interned strings, a third of
    the time of :meth:`keys` (about 10 ms of an INEX 2005 run's 0.15 s).
    """

    name = "element"
    fields = ("file", "path")
    text_columns = ("topic", "Q0", "file", "rank", "rsv", "run-id", "path")
    #: The leading text node of the result's last ``<file>`` / ``<path>``: libxml2 merges
    #: adjacent text (CDATA included), so this is the element's ``.text`` whenever it is a
    #: string; any other node (a child element first) stands for an absent text.
    xml_xpaths = ("file[last()]/node()[1]", "path[last()]/node()[1]")

    def xml_values(self, result: etree._Element) -> tuple[str | None, str | None]:
        """``.text`` of the last ``<file>`` and of the last ``<path>`` child (None when absent)."""
        file_raw = path_raw = None
        for child in result:
            tag = child.tag
            if tag == "file":
                file_raw = child.text
            elif tag == "path":
                path_raw = child.text
        return file_raw, path_raw

    def key(self, file_raw: str | None, path_raw: str | None, *,
            strings: dict[str, str] | None = None) -> tuple[str, str]:
        if type(file_raw) is not str:
            raise InvalidPath("missing <file>")
        fid = _FILE_IDS[file_raw]
        if fid is None:  # invalid: normalise again for the message
            fid = normalise_file_id(file_raw)
        if type(path_raw) is not str:
            raise InvalidPath("missing <path>")
        norm = _PATHS[path_raw]
        if norm is None:
            norm = normalise_path(path_raw)
        same = ({} if strings is None else strings).setdefault
        return same(fid, fid), same(norm, norm)

    def keys(self, columns: Sequence[list], strings: dict[str, str] | None = None) -> list[tuple[str, str]] | None:
        """Whole lists: most runs write every id and path in normal form already, which two
        C-level passes recognise (:func:`plain_file_ids`, :func:`plain_paths`)."""
        fids, norms = columns
        if not plain_file_ids(fids):
            fids = list(map(_FILE_IDS.__getitem__, fids))
            if None in fids:
                return None
        if not plain_paths(norms):
            norms = list(map(_PATHS.__getitem__, norms))
            if None in norms:
                return None
        same = ({} if strings is None else strings).setdefault
        return list(zip(map(same, fids, fids), map(same, norms, norms)))


ELEMENT = ElementUnit()

#: The units the run reader reads, by name (``Task.unit``).
UNITS: dict[str, Unit] = {u.name: u for u in (ELEMENT,)}


def unit_named(name: str) -> Unit:
    """The unit called ``name``; ValueError for a unit this reader does not read (e.g. ``document``)."""
    try:
        return UNITS[name]
    except KeyError:
        raise ValueError(f"no run reader for results of unit {name!r}") from None
