"""The document collection: element start offsets and text lengths (docs/formats.md §1.4).

A document ``<file id>.xml`` is parsed once, and one pass over its tree gives
every element's normalised path (docs/formats.md §1.1), its **start offset** (text
characters before it in document order) and its **text length** (characters
of all its descendant text).  Text is counted in Unicode code points after
parsing, whitespace-only text included; a tail belongs to the enclosing
element; attributes, comments and processing instructions are not text.

Parsing is safe: no network, no DTD loaded, no entity expanded, and a
document that declares entities (internal DTD subset) is refused.  The five
predefined entities and character references are ordinary characters.  An
entity reference that the absent external DTD would define (IEEE documents
use ``&ndash;`` and the like with a DOCTYPE) stays unexpanded and counts as
one character, like any reference.
"""

from __future__ import annotations

import os
from collections import OrderedDict
from pathlib import Path

from lxml import etree

from inexeval.errors import InputError
from inexeval.readers import as_utf8, entry_problem, refuse_entity_declarations, xml_error

#: (start offset, text length) of every element of a document, by normalised path.
ElementTable = dict[str, tuple[int, int]]


def _parser() -> etree.XMLParser:
    return etree.XMLParser(
        load_dtd=False,
        no_network=True,
        resolve_entities=False,
        dtd_validation=False,
        huge_tree=False,
    )


def _tag(el: etree._Element) -> str:
    """The element's tag as a path step name: lower-cased, ``prefix:local`` for namespaced tags."""
    q = etree.QName(el)
    name = q.localname if not el.prefix else f"{el.prefix}:{q.localname}"
    return name.lower()


def parse_document(source: Path) -> etree._Element:
    """Parse ``source`` safely and return its root; InputError (file, line) on bad XML.

    UTF-16 and UTF-32 documents with a byte order mark are read like UTF-8
    ones (docs/formats.md §1.5); an entity declaration is refused with the
    line it is on; only regular files are read (a FIFO would block).
    """
    problem = entry_problem(source)
    if problem is not None:
        raise InputError(f"cannot read document: {problem}", source)
    try:
        data = Path(source).read_bytes()
    except OSError as exc:
        raise InputError(f"cannot read document: {exc.strerror or exc}", source) from None
    data = as_utf8(data, source)
    try:
        refuse_entity_declarations(data, source)
    except InputError as exc:
        raise InputError("document declares entities (refused for safety)", source, exc.line) from None
    parser = _parser()
    try:
        root = etree.fromstring(data, parser)
    except etree.XMLSyntaxError as exc:
        raise xml_error(exc, parser.error_log, source, "malformed XML document") from None
    dtd = root.getroottree().docinfo.internalDTD
    if dtd is not None and any(True for _ in dtd.iterentities()):
        raise InputError("document declares entities (refused for safety)", source, 1)
    return root


def _text_len(node) -> int:
    """Characters a node's own content contributes: an unexpanded entity reference is one."""
    if isinstance(node, etree._Entity):
        return 1
    if isinstance(node, (etree._Comment, etree._ProcessingInstruction)):
        return 0
    return len(node.text) if node.text else 0


def element_table(root: etree._Element) -> ElementTable:
    """Start offset and text length of every element under (and including) ``root``.

    One iterative pass in document order; ``offset`` counts text characters
    seen so far.  For an element: start = offset on entry; its text, each
    child's content and each child's tail are added; length = offset on
    exit − start.
    """
    table: ElementTable = {}
    offset = 0
    root_path = "/" + _tag(root) + "[1]"
    starts: dict[str, int] = {}
    # stack items: (node, path or None for non-elements, leaving?)
    stack: list[tuple[object, str | None, bool]] = [(root, root_path, False)]
    while stack:
        node, path, leaving = stack.pop()
        if leaving:
            start = starts.pop(path)
            table[path] = (start, offset - start)
            tail = node.tail if node is not root else None
            offset += len(tail) if tail else 0
            continue
        if path is None:  # comment, PI or entity reference: content (if text) then tail
            offset += _text_len(node)
            offset += len(node.tail) if node.tail else 0
            continue
        starts[path] = offset
        offset += _text_len(node)
        stack.append((node, path, True))
        counts: dict[str, int] = {}
        children = []
        for child in node:
            if isinstance(child, etree._Element) and isinstance(child.tag, str):
                name = _tag(child)
                counts[name] = counts.get(name, 0) + 1
                children.append((child, f"{path}/{name}[{counts[name]}]", False))
            else:
                children.append((child, None, False))
        stack.extend(reversed(children))
    return table


def text_length(root: etree._Element) -> int:
    """Text length of ``root`` (same rules as :func:`element_table`, without the per-element table)."""
    return sum(
        _text_len(node) + (len(node.tail) if node.tail and node is not root else 0)
        for node in root.iter()
    )


class Collection:
    """Documents under ``root``, found by file id (docs/formats.md §1.4), with per-document caching.

    ``root/<id>.xml`` is tried first; otherwise the collection is indexed
    once (hidden files skipped) and the document whose path relative to
    ``root`` ends with ``<id>.xml`` is used (the shortest such path, then
    the first in sorted order, should several match).
    """

    def __init__(self, root: Path | str, *, cache_size: int = 4096):
        self.root = Path(root)
        self._cache: OrderedDict[str, ElementTable] = OrderedDict()
        self._cache_size = cache_size
        self._index: dict[str, list[str]] | None = None  # file stem -> relative ids
        #: documents left out of :meth:`average_length`, as InputErrors (the evaluation reports them)
        self.problems: list[InputError] = []

    # -- locating documents --------------------------------------------------

    def _documents(self):
        """Every ``.xml`` file under root (hidden files and directories skipped), sorted."""
        found = []
        for dirpath, dirnames, filenames in os.walk(self.root):
            dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
            for name in filenames:
                if name.startswith(".") or not name.lower().endswith(".xml"):
                    continue
                found.append(Path(dirpath) / name)
        return sorted(found)

    def locate(self, file: str) -> Path:
        """The document of file id ``file``; InputError naming it when it is missing."""
        direct = self.root / f"{file}.xml"
        if direct.is_file():
            return direct
        if self._index is None:
            self._index = {}
            for doc in self._documents():
                rel = doc.relative_to(self.root).as_posix()[: -len(".xml")]
                self._index.setdefault(rel.rsplit("/", 1)[-1], []).append(rel)
        stem = file.rsplit("/", 1)[-1]
        matches = [r for r in self._index.get(stem, []) if r == file or r.endswith("/" + file)]
        if not matches:
            raise InputError(f"document {file!r} not found in the collection", self.root)
        best = min(matches, key=lambda r: (len(r), r))
        return self.root / f"{best}.xml"

    # -- element information -------------------------------------------------

    def table(self, file: str) -> ElementTable:
        """The element table of document ``file`` (parsed once, then cached)."""
        cached = self._cache.get(file)
        if cached is not None:
            self._cache.move_to_end(file)
            return cached
        table = element_table(parse_document(self.locate(file)))
        self._cache[file] = table
        if len(self._cache) > self._cache_size:
            self._cache.popitem(last=False)
        return table

    def element_info(self, file: str, path: str) -> tuple[int, int] | None:
        """(start offset, text length) of normalised ``path`` in ``file``; None if no such element."""
        return self.table(file).get(path)

    def size_of(self, file: str, path: str) -> int | None:
        """Text length of the element, or None when the path is not in the document."""
        info = self.element_info(file, path)
        return None if info is None else info[1]

    def offset_of(self, file: str, path: str) -> int | None:
        """Start offset of the element, or None when the path is not in the document."""
        info = self.element_info(file, path)
        return None if info is None else info[0]

    def average_length(self) -> float:
        """Mean text length of every ``.xml`` document under root (docs/config.md, AVG_DOC_LENGTH).

        Hidden files and directories are skipped; 0.0 for a collection without
        documents.  A document that cannot be read or parsed is left out of
        the mean and recorded in :attr:`problems` (reported, exit status 1).
        """
        lengths = []
        for doc in self._documents():
            try:
                lengths.append(text_length(parse_document(doc)))
            except InputError as exc:
                self.problems.append(InputError(f"{exc.message}; left out of the average document length "
                                                "(AVG_DOC_LENGTH)", exc.file, exc.line))
        return sum(lengths) / len(lengths) if lengths else 0.0
