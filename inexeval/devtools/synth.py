"""Deterministic synthetic INEX data: collections, assessments, runs, configs.

Two entry points, both byte-deterministic for a given seed (every random
choice comes from ``random.Random`` seeded with a string derived from
``seed``; nothing iterates a set or depends on hash order):

``generate_sample(out, seed=1)``
    The small sample shipped in ``sample_data/``:

    - ``out/inex2005/``: an IEEE-style collection (``collection/co/2000/r7108.xml``
      style sub-paths; article/fm/bdy/sec/ss1/p/fig with inline it/b/ref),
      INEX 2005 assessments (docs/formats.md §1.2; CO+S topics under
      ``assessments/CO+S/main/``, second pools of three topics under
      ``assessments/CO+S/second/``, CAS topics under ``assessments/CAS/``)
      and runs (docs/formats.md §1.3) under ``runs/CO/`` and ``runs/CAS/``.
    - ``out/inex2006/``: a Wikipedia-style collection (``collection/<number>.xml``),
      2006 assessments (``assessments/main/``; no exhaustivity, ``best-entry-point`` per relevant
      file) and runs under ``runs/<task>/`` for Thorough, Focused,
      RelevantInContext and BestInContext.

``generate_workload(out, *, seed, n_topics, max_elements, n_runs, results_per_topic)``
    A benchmark-sized INEX 2005 recall-base and run set without documents:
    element sizes are synthesised directly (``out/assessments/``,
    ``out/runs/``, ``out/focussed.prop``, ``out/thorough.prop``).
    ``SCALES`` holds the presets of the command line (``inex2005``: 29 topics,
    up to 15,000 assessed elements per topic, 55 runs x 1,500 results per
    topic; ``inex2005x10``: the same with 300 topics).

Assessments are consistent with the INEX propagation rule (docs/formats.md §1.2, docs/measures.md §4.3):
every ancestor of a listed element is listed; ``rsize`` of an element is its
own highlighted text plus its children's; exhaustivity never increases from
a parent to a child (order ``? < 1 < 2``); ``?`` marks elements of fewer than
``SMALL`` characters.  Where documents are written, ``size`` is the element's
text length (docs/formats.md §1.4: all descendant text, in code points after parsing)
and ``rsize`` counts the highlighted characters, both computed from the
parsed document.

Command line: ``python -m inexeval.devtools.synth --out DIR [--seed N]
[--scale sample|inex2005|inex2005x10]``.

The module was ``inexeval.synth`` before it moved to the developer tools; the
random stream names (``inexeval-synth/...``) and the runs' ``<description>``
keep that name, so that the same seed still writes the same bytes.
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

from lxml import etree

from inexeval.paths import is_ancestor, parent
from inexeval.records import field, record

__all__ = ["SCALES", "SMALL", "generate_sample", "generate_workload", "main"]

#: Elements with fewer text characters than this are judged too small (``?``).
SMALL = 50

#: ``--scale`` presets for :func:`generate_workload`.
SCALES: dict[str, dict[str, int]] = {
    "inex2005": dict(n_topics=29, max_elements=15_000, n_runs=55, results_per_topic=1500),
    "inex2005x10": dict(n_topics=300, max_elements=15_000, n_runs=55, results_per_topic=1500),
}

_E_RANK = {"?": 0, "1": 1, "2": 2}

_IEEE_WORDS = (
    "query retrieval element structure index ranking model score document node "
    "path algorithm system network protocol latency cache memory compiler thread "
    "kernel parallel vector matrix graph tree search evaluation precision recall "
    "relevance user interface design software hardware processor circuit signal "
    "image pixel texture rendering shader database transaction schema relational "
    "distributed cluster server client packet routing wireless sensor energy "
    "security encryption key certificate attack privacy learning neural feature "
    "classifier training data set sample estimate error bound complexity proof "
    "theorem lemma method approach result experiment benchmark workload analysis "
    "component module object class method interface language semantics type"
).split()

_WIKI_WORDS = (
    "history city river mountain century king empire war treaty population "
    "language culture music album band film actor season league team player "
    "species genus family plant animal island coast climate economy industry "
    "railway station bridge church castle village county province university "
    "school museum painting novel author poet saga festival café Zürich naïve "
    "Ångström São Paulo Kraków AT&T R&D x<y a>b"
).split()

_XLINK = "http://www.w3.org/1999/xlink"
_SAFE_PARSER = etree.XMLParser(load_dtd=False, no_network=True, resolve_entities=False)


# --------------------------------------------------------------------------
# small helpers


def _rng(seed: int, part: str) -> random.Random:
    """An independent stream per part, so that editing one part leaves the others' bytes unchanged.

    The stream name keeps the module's former name (module docstring).
    """
    return random.Random(f"inexeval-synth/{seed}/{part}")


def _words(rng: random.Random, vocab, lo: int, hi: int) -> str:
    return " ".join(rng.choice(vocab) for _ in range(rng.randint(lo, hi)))


def _esc(s: str) -> str:
    """Escape text for an XML attribute or element body."""
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def _write(path: Path, text: str | bytes, written: list[Path]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text.encode("utf-8") if isinstance(text, str) else text)
    written.append(path)


def _overlaps(a: str, b: str) -> bool:
    return a == b or is_ancestor(a, b) or is_ancestor(b, a)


def _tag_of(path: str) -> str:
    return path[path.rfind("/") + 1 : path.rfind("[")]


def _short_form(path: str) -> str:
    """``/article[1]/bdy[1]/sec[2]`` -> ``/article/bdy/sec[2]`` (docs/formats.md §1.1 adds the [1] back)."""
    return path.replace("[1]", "")


# --------------------------------------------------------------------------
# documents and highlighting (sample scale)


@record
class _Doc:
    """A parsed collection document: its elements by normalised path, in document order."""

    fid: str
    elements: dict[str, etree._Element]


def _parse_doc(fid: str, data: bytes) -> _Doc:
    root = etree.fromstring(data, _SAFE_PARSER)
    elements: dict[str, etree._Element] = {}

    def walk(el, path):
        elements[path] = el
        counts: dict[str, int] = {}
        for child in el:
            if isinstance(child.tag, str):  # skip comments and PIs
                n = counts[child.tag] = counts.get(child.tag, 0) + 1
                walk(child, f"{path}/{child.tag}[{n}]")

    walk(root, f"/{root.tag}[1]")
    return _Doc(fid, elements)


def _measure(doc: _Doc, full: dict[str, None], partial: dict[str, int]) -> dict[str, tuple[int, int]]:
    """(size, rsize) of every element, document order (docs/formats.md §1.4).

    size = own text + children's sizes + children's tails (comments' tails
    included, comments' text not).  rsize counts the same characters when
    the element or an ancestor is in ``full``; otherwise the first
    ``partial[path]`` characters of the element's own text plus the
    children's rsize.  So rsize(parent) = own highlighted text + sum of the
    children's rsize, which is the INEX propagation rule.
    """
    out: dict[str, tuple[int, int]] = {}

    def walk(el, path, hl):
        out[path] = (0, 0)  # keep document order
        hl = hl or path in full
        size = len(el.text or "")
        rsize = size if hl else min(partial.get(path, 0), size)
        counts: dict[str, int] = {}
        for child in el:
            tail = len(child.tail or "")
            if isinstance(child.tag, str):
                n = counts[child.tag] = counts.get(child.tag, 0) + 1
                cs, cr = walk(child, f"{path}/{child.tag}[{n}]", hl)
                size += cs
                rsize += cr
            size += tail
            rsize += tail if hl else 0
        out[path] = (size, rsize)
        return size, rsize

    walk(next(iter(doc.elements.values())), next(iter(doc.elements)), False)
    return out


def _exhaustivity(measured, rng: random.Random, forced: dict[str, str]) -> dict[str, str]:
    """Exhaustivity of each element with rsize > 0, monotone along the tree.

    Base value: ``forced`` if given, ``?`` below SMALL characters, else 1 or 2
    at random; then every parent takes the maximum of its own and its
    children's values (``? < 1 < 2``), so no child exceeds its parent.
    """
    listed = [p for p, (_, r) in measured.items() if r > 0]
    e: dict[str, str] = {}
    for p in listed:
        e[p] = forced.get(p) or ("?" if measured[p][0] < SMALL else rng.choice("12"))
    for p in reversed(listed):  # descendants come before their ancestors
        q = parent(p)
        if q is not None and _E_RANK[e[p]] > _E_RANK[e[q]]:
            e[q] = e[p]
    return e


def _pick_disjoint(rng, candidates: list[str], k: int, taken: list[str]) -> list[str]:
    """Up to k candidates (random order) overlapping nothing in ``taken`` nor each other."""
    pool = list(candidates)
    rng.shuffle(pool)
    picked = []
    for c in pool:
        if len(picked) == k:
            break
        if not any(_overlaps(c, t) for t in taken + picked):
            picked.append(c)
    return picked


@record
class _FileJudgement:
    fid: str
    elements: list[tuple[str, str | None, int, int]]  # (path, e or None, size, rsize), document order
    passages: list[str] = field(default_factory=list)  # highlighted roots, document order
    partial: list[str] = field(default_factory=list)


@record
class _Pool:
    topic: str
    pool: str
    query_type: str
    relevant: list[_FileJudgement]
    nonrelevant: list[str]
    title: str
    castitle: str | None


def _judge_file(rng, doc: _Doc, passage_tags, n_passages, *, exh: bool, tie: bool) -> _FileJudgement:
    """Highlight some disjoint elements fully and one paragraph partly; measure; judge.

    With ``tie``, one section-like element and its large paragraphs are
    forced to exhaustivity 2 (all fully highlighted): gen ties between an
    element and its ancestor.
    """
    cands = [p for p in doc.elements if _tag_of(p) in passage_tags]
    forced: dict[str, str] = {}
    taken: list[str] = []
    if tie:
        secs = [p for p in doc.elements if _tag_of(p) in ("sec", "ss1", "section")]
        sec = _pick_disjoint(rng, secs, 1, [])
        taken += sec
    passages = taken + _pick_disjoint(rng, cands, n_passages, taken)
    paras = [p for p in doc.elements if _tag_of(p) == "p" and (doc.elements[p].text or "").strip()]
    partial = _pick_disjoint(rng, paras, 1, passages)
    full = {p: None for p in passages}
    part = {p: rng.randint(1, len(doc.elements[p].text)) for p in partial}
    measured = _measure(doc, full, part)
    if tie and exh:
        forced[passages[0]] = "2"
        for p in doc.elements:
            if is_ancestor(passages[0], p) and _tag_of(p) in ("p", "ip1") and measured[p][0] >= SMALL:
                forced[p] = "2"
    e = _exhaustivity(measured, rng, forced) if exh else {}
    elements = [(p, e.get(p) if exh else None, s, r) for p, (s, r) in measured.items() if r > 0]
    order = list(doc.elements)
    return _FileJudgement(doc.fid, elements, sorted(passages, key=order.index), partial)


def _assessment_xml(pool: _Pool, collection: str, *, doctype: bool = False, commas: bool = False) -> str:
    """One pool file in the format of docs/formats.md §1.2 (2006 form when exhaustivity is None)."""

    def num(n: int) -> str:
        return f"{n:,}" if commas else str(n)

    out = ['<?xml version="1.0" encoding="UTF-8"?>']
    if doctype:
        out.append('<!DOCTYPE assessments SYSTEM "assessments.dtd">')
    out.append(f'<assessments pool="{pool.pool}" topic="{pool.topic}" version="2">')
    out.append(f'  <inex_topic topic_id="{pool.topic}" query_type="{pool.query_type}" ct_no="{int(pool.topic) % 97}">')
    out.append(f"    <title>{_esc(pool.title)}</title>")
    if pool.castitle:
        out.append(f"    <castitle>{_esc(pool.castitle)}</castitle>")
    out.append("  </inex_topic>")
    files = [(f.fid, f) for f in pool.relevant] + [(fid, None) for fid in pool.nonrelevant]
    for fid, fj in sorted(files, key=lambda x: x[0]):
        if fj is None:
            out.append(f'  <file collection="{collection}" name="{fid}"/>')
            continue
        out.append(f'  <file collection="{collection}" name="{fid}">')
        root_rsize = fj.elements[0][3]
        if fj.elements[0][1] is None:  # 2006: entry point and passage first
            out.append(f'    <best-entry-point path="{fj.passages[0]}"/>')
        out.append(f'    <passage start="{fj.passages[0]}.0" end="{fj.passages[-1]}.end" size="{root_rsize}"/>')
        for path, e, size, rsize in fj.elements:
            ex = "" if e is None else f' exhaustivity="{e}"'
            out.append(f'    <element path="{path}"{ex} size="{num(size)}" rsize="{num(rsize)}"/>')
        out.append("  </file>")
    out.append("</assessments>")
    return "\n".join(out) + "\n"


# --------------------------------------------------------------------------
# runs


def _xml_run(run_id, task, collection, topics: dict[str, list[tuple[str, str]]], *, quirks=False) -> str:
    """An INEX submission (docs/formats.md §1.3); ``quirks`` adds tolerated oddities.

    Quirks: ranks start at 0, every 7th result has no rsv, topic ids carry
    stray spaces, and the first topic holds its own ``<collections>``.
    """
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<inex-submission participant-id="99" run-id="{run_id}"' + (f' task="{task}"' if task else "")
        + ' query="automatic">',
        '  <topic-fields title="yes" castitle="no" description="no" narrative="no"/>',
        # the former module name, as in the shipped sample_data (module docstring)
        f"  <description>Synthetic run {run_id} (inexeval.synth).</description>",
        f"  <collections><collection>{collection}</collection></collections>",
    ]
    for ti, (topic, results) in enumerate(topics.items()):
        out.append(f'  <topic topic-id=" {topic} ">' if quirks else f'  <topic topic-id="{topic}">')
        if quirks and ti == 0:
            out.append(f"    <collections><collection>{collection}</collection></collections>")
        n = len(results)
        for i, (fid, path) in enumerate(results):
            rank = i if quirks else i + 1
            rsv = "" if quirks and i % 7 == 6 else f"<rsv>{(n - i) / n:.4f}</rsv>"
            out.append(
                f"    <result><file>{_esc(fid)}</file><path>{_esc(path)}</path><rank>{rank}</rank>{rsv}</result>"
            )
        out.append("  </topic>")
    out.append("</inex-submission>")
    return "\n".join(out) + "\n"


def _text_run(run_id, topics: dict[str, list[tuple[str, str]]]) -> str:
    """A 7-column text run: ``topic Q0 file rank rsv run-id path`` (docs/formats.md §1.3)."""
    lines = []
    for topic, results in topics.items():
        n = len(results)
        for i, (fid, path) in enumerate(results):
            lines.append(f"{topic} Q0 {fid} {i + 1} {(n - i) / n:.4f} {run_id} {path}")
    return "\n".join(lines) + "\n"


def _gen(e: str | None, size: int, rsize: int) -> float:
    """gen quantisation (docs/measures.md §4.1); unknown e counts as 1, ``?`` as 0."""
    ev = 1 if e is None else (0 if e == "?" else int(e))
    return ev * rsize / size if size else 0.0


def _listed(pool: _Pool):
    """(fid, path, e, size, rsize, depth, order) for every listed element of a pool."""
    rows = []
    for fj in pool.relevant:
        for k, (path, e, size, rsize) in enumerate(fj.elements):
            rows.append((fj.fid, path, e, size, rsize, path.count("/"), k))
    return rows


def _ideal_ranking(pool: _Pool, unlisted: tuple[str, str] | None) -> list[tuple[str, str]]:
    """Listed elements by gen (then specificity), shallow first on ties; one unlisted element at rank 3."""
    rows = sorted(_listed(pool), key=lambda r: (-_gen(r[2], r[3], r[4]), -r[4] / r[3], r[5], r[0], r[6]))
    ranking = [(r[0], r[1]) for r in rows]
    if unlisted is not None:
        ranking.insert(2, unlisted)
    return ranking


def _unlisted_in(rng, fj: _FileJudgement, doc: _Doc) -> str:
    listed = {p for p, *_ in fj.elements}
    return rng.choice([p for p in doc.elements if p not in listed])


def _medium_ranking(rng, pool: _Pool, docs: dict[str, _Doc]) -> list[tuple[str, str]]:
    """A plausible run with overlap, near-misses and interleaved articles.

    File 0: an ancestor before its descendant; file 1: a descendant before
    its ancestor; every relevant file: a few listed elements (``?`` ones
    included), a parent of a highlighted passage (near-miss) and one
    unlisted element; plus elements of judged non-relevant files.  Articles
    are interleaved, so an article is retrieved at several places.
    """
    per_file: list[list[tuple[str, str]]] = []
    for k, fj in enumerate(pool.relevant):
        listed = [p for p, *_ in fj.elements]
        deep = [p for p in listed if p.count("/") >= 3]
        picks: list[str] = []
        if k < 2 and deep:
            child = rng.choice(deep)
            pair = [parent(child), child]
            picks += pair if k == 0 else pair[::-1]
        near = [parent(p) for p in fj.passages if parent(p)]
        picks += rng.sample(near, min(1, len(near)))
        picks += rng.sample(listed, min(3, len(listed)))
        picks.append(_unlisted_in(rng, fj, docs[fj.fid]))
        seen: dict[str, None] = {}
        for p in picks:
            seen.setdefault(p, None)
        per_file.append([(fj.fid, p) for p in seen])
    for fid in pool.nonrelevant:
        per_file.append([(fid, rng.choice(list(docs[fid].elements)))])
    ranking: list[tuple[str, str]] = []
    while any(per_file):  # interleave: take one or two results from a random non-empty file
        live = [f for f in per_file if f]
        f = rng.choice(live)
        for _ in range(min(len(f), rng.randint(1, 2))):
            ranking.append(f.pop(0))
    return ranking


def _poor_ranking(rng, pool: _Pool, docs: dict[str, _Doc], n: int) -> list[tuple[str, str]]:
    """Mostly random elements of the whole collection, two listed ones, no duplicates."""
    fids = sorted(docs)
    ranking: dict[tuple[str, str], None] = {}
    listed = [(r[0], r[1]) for r in _listed(pool)]
    for item in rng.sample(listed, min(2, len(listed))):
        ranking[item] = None
    while len(ranking) < n:
        fid = rng.choice(fids)
        ranking.setdefault((fid, rng.choice(list(docs[fid].elements))), None)
    items = list(ranking)
    rng.shuffle(items)
    return items


# --------------------------------------------------------------------------
# INEX 2005 sample


def _ieee_file_ids(rng, n: int) -> list[str]:
    journals = ("an", "cg", "co", "cs", "dt", "ex", "ic", "it", "mi", "so", "tc", "tk")
    ids: dict[str, None] = {}
    while len(ids) < n:
        ids[f"{rng.choice(journals)}/{rng.randint(1995, 2004)}/{rng.choice('abdgrsx')}{rng.randint(1000, 9999)}"] = None
    return sorted(ids)


def _ieee_para(rng, parent_el, tag="p"):
    p = etree.SubElement(parent_el, tag)
    p.text = _words(rng, _IEEE_WORDS, 8, 40) + " "
    for _ in range(rng.randint(0, 3)):
        inline = etree.SubElement(p, rng.choice(("it", "b", "ref")))
        inline.text = _words(rng, _IEEE_WORDS, 1, 3)
        inline.tail = " " + _words(rng, _IEEE_WORDS, 3, 15) + " "
    return p


def _ieee_article(rng, fid: str) -> bytes:
    """An IEEE-style article: fno, doi, fm (title, author, abstract), bdy (sec/ss1/p/fig), bm (bib)."""
    art = etree.Element("article")
    name = fid.rsplit("/", 1)[1]
    etree.SubElement(art, "fno").text = name.upper()
    etree.SubElement(art, "doi").text = f"10.1109/{name.upper()}.{fid.split('/')[1]}"
    fm = etree.SubElement(art, "fm")
    tig = etree.SubElement(fm, "tig")
    etree.SubElement(tig, "atl").text = _words(rng, _IEEE_WORDS, 3, 8).title()
    au = etree.SubElement(fm, "au")
    etree.SubElement(au, "fnm").text = rng.choice(("Ada", "Alan", "Grace", "Edsger", "Barbara", "Donald"))
    etree.SubElement(au, "snm").text = rng.choice(("Lovelace", "Turing", "Hopper", "Dijkstra", "Liskov", "Knuth"))
    abs_ = etree.SubElement(fm, "abs")
    _ieee_para(rng, abs_)
    bdy = etree.SubElement(art, "bdy")
    for _ in range(rng.randint(3, 5)):
        sec = etree.SubElement(bdy, "sec")
        etree.SubElement(sec, "st").text = _words(rng, _IEEE_WORDS, 2, 5).title()
        for _ in range(rng.randint(1, 3)):
            _ieee_para(rng, sec, rng.choice(("p", "p", "p", "ip1")))
        for _ in range(rng.randint(0, 2)):
            ss1 = etree.SubElement(sec, "ss1")
            etree.SubElement(ss1, "st").text = _words(rng, _IEEE_WORDS, 2, 4).title()
            for _ in range(rng.randint(1, 3)):
                _ieee_para(rng, ss1)
            if rng.random() < 0.5:
                fig = etree.SubElement(ss1, "fig")
                etree.SubElement(fig, "fgc").text = "Figure. " + _words(rng, _IEEE_WORDS, 4, 12)
    bm = etree.SubElement(art, "bm")
    bibl = etree.SubElement(etree.SubElement(bm, "bib"), "bibl")
    for _ in range(rng.randint(2, 4)):
        bb = etree.SubElement(bibl, "bb")
        etree.SubElement(bb, "ti").text = _words(rng, _IEEE_WORDS, 3, 7).title()
    depth = fid.count("/")
    doctype = f'<!DOCTYPE article SYSTEM "{"../" * depth}xmlarticle.dtd">'
    return etree.tostring(art, pretty_print=True, xml_declaration=True, encoding="UTF-8", doctype=doctype)


_IEEE_PASSAGE_TAGS = ("p", "ip1", "ss1", "sec", "fig", "abs", "st")


def _sample_2005(out: Path, seed: int, written: list[Path]) -> None:
    rng = _rng(seed, "2005/collection")
    docs: dict[str, _Doc] = {}
    for fid in _ieee_file_ids(rng, 14):
        data = _ieee_article(rng, fid)
        _write(out / "collection" / f"{fid}.xml", data, written)
        docs[fid] = _parse_doc(fid, data)
    fids = list(docs)

    def make_pool(rng, topic, pool_id, qtype, castitle, chosen=None):
        chosen = chosen or rng.sample(fids, 5)
        relevant = [
            _judge_file(rng, docs[f], _IEEE_PASSAGE_TAGS, rng.randint(1, 3), exh=True, tie=(k == 0))
            for k, f in enumerate(chosen[:3])
        ]
        title = _words(rng, _IEEE_WORDS, 2, 4)
        cas = f"//article[about(., {title})]//sec[about(., {_words(rng, _IEEE_WORDS, 1, 2)})]" if castitle else None
        return _Pool(topic, pool_id, qtype, relevant, sorted(chosen[3:]), title, cas)

    rng = _rng(seed, "2005/assessments")
    pool_ids = [str(p) for p in rng.sample(range(250, 400), 8)]
    # CO+S topics: (topic, query_type, has a castitle i.e. is a COS topic)
    co_topics = [
        ("202", "CO+S", True),
        ("203", "CO+S", True),
        ("205", "CO+S", False),
        ("207", "COS", True),
        ("209", "CO+S", False),
    ]
    co_pools = [make_pool(rng, t, pool_ids[k], q, c) for k, (t, q, c) in enumerate(co_topics)]
    same_docs = [r.fid for r in co_pools[0].relevant] + co_pools[0].nonrelevant
    second = make_pool(rng, "202", pool_ids[5], "CO+S", True, chosen=same_docs)
    cas_pools = [make_pool(rng, t, pool_ids[6 + k], "CAS", True) for k, t in enumerate(("244", "247"))]
    for pool in co_pools:
        _write(out / "assessments" / "CO+S" / "main" / f"pool-{pool.pool}.xml", _assessment_xml(pool, "ieee"), written)
    second_path = out / "assessments" / "CO+S" / "second" / f"pool-{second.pool}.xml"
    _write(second_path, _assessment_xml(second, "ieee"), written)
    for pool in cas_pools:
        _write(out / "assessments" / "CAS" / f"pool-{pool.pool}.xml", _assessment_xml(pool, "ieee"), written)
    # second pools of 203 and 205 (the same documents judged again), from a stream of their own so
    # that every other file stays as it was; pool ids above those of the first pools
    rng = _rng(seed, "2005/second-pools")
    for pool_id, main in zip(rng.sample(range(400, 500), 2), co_pools[1:3]):
        again = make_pool(rng, main.topic, str(pool_id), main.query_type, main.castitle is not None,
                          chosen=[r.fid for r in main.relevant] + main.nonrelevant)
        _write(out / "assessments" / "CO+S" / "second" / f"pool-{again.pool}.xml", _assessment_xml(again, "ieee"),
               written)

    rng = _rng(seed, "2005/runs")

    def unlisted(pool):
        fj = pool.relevant[-1]
        return (fj.fid, _unlisted_in(rng, fj, docs[fj.fid]))

    ideal = {p.topic: _ideal_ranking(p, unlisted(p)) for p in co_pools}
    medium = {p.topic: _medium_ranking(rng, p, docs) for p in co_pools}
    text = {p.topic: _medium_ranking(rng, p, docs) for p in co_pools}
    poor = {p.topic: _poor_ranking(rng, p, docs, 25) for p in co_pools}
    # Poor: a duplicate (202), an invalid path and an id with .xml and a short path (203),
    # and a topic that is in no assessment file (299).
    poor["202"].insert(5, poor["202"][1])
    fid = poor["203"][0][0]
    poor["203"].insert(3, (fid, "/article[1]//p[2]"))
    poor["203"][7] = (poor["203"][7][0] + ".xml", _short_form(poor["203"][7][1]))
    poor["299"] = [(f, "/article[1]") for f in fids[:3]]
    runs = out / "runs"
    # runs/CO/ serves every CO and COS config: the good runs name no task (a task attribute would be
    # another task than most configs', a warning that demonstrates nothing); Poor, the run of quirks,
    # was submitted for CO.Focussed, so the Thorough and FetchBrowse configs show that warning once
    _write(runs / "CO" / "NearIdeal.xml", _xml_run("NearIdeal", None, "ieee", ideal), written)
    _write(runs / "CO" / "Medium.xml", _xml_run("Medium", None, "ieee", medium), written)
    _write(runs / "CO" / "Poor.xml", _xml_run("Poor", "CO.Focussed", "ieee", poor, quirks=True), written)
    _write(runs / "CO" / "TextRun.txt", _text_run("TextRun", text), written)
    cas_good = {p.topic: _ideal_ranking(p, unlisted(p)) for p in cas_pools}
    cas_poor = {p.topic: _poor_ranking(rng, p, docs, 20) for p in cas_pools}
    _write(runs / "CAS" / "CasGood.xml", _xml_run("CasGood", "SSCAS", "ieee", cas_good), written)
    _write(runs / "CAS" / "CasPoor.xml", _xml_run("CasPoor", "SSCAS", "ieee", cas_poor), written)


# --------------------------------------------------------------------------
# INEX 2006 sample


def _wiki_para(rng, parent_el, ids: list[str]):
    p = etree.SubElement(parent_el, "p")
    p.text = _words(rng, _WIKI_WORDS, 8, 35) + " "
    for _ in range(rng.randint(0, 3)):
        kind = rng.choice(("emph2", "collectionlink", "emph3"))
        inline = etree.SubElement(p, kind)
        if kind == "collectionlink":
            inline.set(f"{{{_XLINK}}}type", "simple")
            inline.set(f"{{{_XLINK}}}href", f"{rng.choice(ids)}.xml")
        inline.text = _words(rng, _WIKI_WORDS, 1, 3)
        inline.tail = " " + _words(rng, _WIKI_WORDS, 3, 12) + " "
    return p


def _wiki_article(rng, fid: str, ids: list[str]) -> bytes:
    """A Wikipedia-style article: name, body with p and nested sections, a comment (not text)."""
    art = etree.Element("article", nsmap={"xlink": _XLINK})
    name = etree.SubElement(art, "name", id=fid)
    name.text = _words(rng, _WIKI_WORDS, 1, 4).title()
    etree.SubElement(art, "conversionwarning").text = "0"
    body = etree.SubElement(art, "body")
    for _ in range(rng.randint(1, 2)):
        _wiki_para(rng, body, ids)
    body.append(etree.Comment(" converted from wikitext "))
    for _ in range(rng.randint(2, 4)):
        sec = etree.SubElement(body, "section")
        etree.SubElement(sec, "title").text = _words(rng, _WIKI_WORDS, 1, 4).title()
        for _ in range(rng.randint(1, 3)):
            _wiki_para(rng, sec, ids)
        if rng.random() < 0.5:
            sub = etree.SubElement(sec, "section")
            etree.SubElement(sub, "title").text = _words(rng, _WIKI_WORDS, 1, 3).title()
            for _ in range(rng.randint(1, 2)):
                _wiki_para(rng, sub, ids)
    return etree.tostring(art, pretty_print=True, xml_declaration=True, encoding="UTF-8")


def _sample_2006(out: Path, seed: int, written: list[Path]) -> None:
    rng = _rng(seed, "2006/collection")
    ids = [str(n) for n in sorted(rng.sample(range(10_000, 3_000_000), 12))]
    docs: dict[str, _Doc] = {}
    for fid in ids:
        data = _wiki_article(rng, fid, ids)
        _write(out / "collection" / f"{fid}.xml", data, written)
        docs[fid] = _parse_doc(fid, data)

    rng = _rng(seed, "2006/assessments")
    pools = []
    for k, (topic, pool_id) in enumerate(zip(("289", "290", "293", "294"), rng.sample(range(1000, 2000), 4))):
        chosen = rng.sample(ids, 6)
        relevant = [
            _judge_file(rng, docs[f], ("p", "section", "title"), rng.randint(1, 3), exh=False, tie=False)
            for f in chosen[:4]
        ]
        pool = _Pool(topic, str(pool_id), "CO+S", relevant, sorted(chosen[4:]), _words(rng, _WIKI_WORDS, 2, 4), None)
        pools.append(pool)
        xml = _assessment_xml(pool, "wikipedia", doctype=True, commas=(k == 0))
        # under main/: sample_data/inex2006/assessments/second/ holds a hand-made second pool of a topic
        _write(out / "assessments" / "main" / f"pool-{pool.pool}.xml", xml, written)

    rng = _rng(seed, "2006/runs")
    runs = out / "runs"

    def by_trel(pool):
        return sorted(pool.relevant, key=lambda f: (-f.elements[0][3], f.fid))

    def focused(pool):  # passages and partial paragraphs: no overlap
        res = []
        for fj in by_trel(pool):
            res += [(fj.fid, p) for p in fj.passages + fj.partial]
        return res

    def ric(pool):  # grouped by article, no overlap, one unlisted element per article
        res = []
        for fj in by_trel(pool):
            own = fj.passages + fj.partial
            extra = _pick_disjoint(rng, [p for p in docs[fj.fid].elements if _tag_of(p) == "p"], 1, own)
            order = list(docs[fj.fid].elements)
            res += [(fj.fid, p) for p in sorted(own + extra, key=order.index)]
        for fid in pool.nonrelevant:
            res.append((fid, "/article[1]"))
        return res

    def ric_poor(pool):
        res = []
        for fid in rng.sample(ids, 5):
            paras = [p for p in docs[fid].elements if _tag_of(p) in ("p", "section")]
            picked = _pick_disjoint(rng, paras, rng.randint(1, 3), [])
            res += [(fid, p) for p in sorted(picked, key=list(docs[fid].elements).index)]
        res.append((res[-1][0], "/article[1]/body[1]/section[99]"))  # no such element: no text
        return res

    def bic(pool):  # one result per article: the BEP, or the element after it
        res = []
        for k, fj in enumerate(by_trel(pool)):
            order = list(docs[fj.fid].elements)
            bep = fj.passages[0]
            res.append((fj.fid, bep if k % 2 == 0 else order[min(order.index(bep) + 1, len(order) - 1)]))
        res += [(fid, "/article[1]") for fid in pool.nonrelevant]
        return res

    def bic_poor(pool):
        res = [(fid, rng.choice(list(docs[fid].elements))) for fid in rng.sample(ids, 6)]
        res.insert(3, (res[0][0], "/article[1]"))  # the first article again: dropped, warned
        return res

    def thorough(pool):
        return _ideal_ranking(pool, None)

    def poor(pool):
        return _poor_ranking(rng, pool, docs, 20)

    tasks = [
        ("Thorough", [("ThoroughGood", thorough), ("ThoroughPoor", poor)]),
        ("Focused", [("FocusedGood", focused), ("FocusedPoor", poor)]),
        ("RelevantInContext", [("RicGood", ric), ("RicPoor", ric_poor)]),
        ("BestInContext", [("BicGood", bic), ("BicPoor", bic_poor)]),
    ]
    for task, variants in tasks:
        for run_id, make in variants:
            ranking = {p.topic: make(p) for p in pools}
            _write(runs / task / f"{run_id}.xml", _xml_run(run_id, task, "wikipedia", ranking), written)


def generate_sample(out: Path, seed: int = 1) -> list[Path]:
    """Write the sample data set under ``out/inex2005`` and ``out/inex2006``.

    Returns the written files, in writing order.  Existing files are
    overwritten; stale files are not removed.
    """
    out = Path(out)
    written: list[Path] = []
    _sample_2005(out / "inex2005", seed, written)
    _sample_2006(out / "inex2006", seed, written)
    _sample_trec(out / "trec", seed, written)
    return written


def _sample_trec(out: Path, seed: int, written: list[Path]) -> None:
    """A small TREC set for ``TASK: trec``: graded qrels (0-3) and three runs.

    Four topics of 30 documents; one topic has no relevant document (it has
    no value, docs/measures.md §10); runs tie scores on purpose (trec_eval breaks ties by
    docno, descending) and one run misses a topic.
    """
    rng = random.Random(seed * 7919 + 8)
    topics = ["401", "402", "403", "404"]
    rel: dict[str, dict[str, int]] = {}
    lines = []
    for t in topics:
        rel[t] = {}
        for d in range(30):
            doc = f"DOC-{t}-{d:03d}"
            level = 0 if t == "404" else rng.choices([0, 1, 2, 3], weights=[60, 20, 12, 8])[0]
            if rng.random() < 0.7:  # judged
                rel[t][doc] = level
                lines.append(f"{t} 0 {doc} {level}\n")
    _write(out / "qrels.txt", "".join(lines), written)
    for name, quality, skip in (("good", 0.8, None), ("medium", 0.4, None), ("poor", 0.05, "402")):
        rlines = []
        for t in topics:
            if t == skip:
                continue
            docs = [f"DOC-{t}-{d:03d}" for d in range(30)]
            scored = sorted(docs, key=lambda d: -(rel[t].get(d, 0) * quality + rng.random()))[:20]
            for k, doc in enumerate(scored):
                score = round(20 - k - (k % 3 == 1) * 1.0, 1)  # every third pair tied
                rlines.append(f"{t} Q0 {doc} {k + 1} {score} {name}\n")
        _write(out / "runs" / f"{name}.txt", "".join(rlines), written)


# --------------------------------------------------------------------------
# benchmark workload (no documents)


def _synth_topic(rng, target: int) -> tuple[list[str], list[tuple[str, str, float]], list[str]]:
    """A recall-base of at most ``target`` listed elements, without documents.

    Files are article[1]/bdy[1]/sec[i]/p[j] with inline too-small children
    (it/b/ref).  Sizes are synthesised bottom-up: size(parent) = sum of its
    listed children's sizes + unlisted text; rsize(parent) = sum of the
    children's rsize (+ own highlighted text for a partly highlighted p), so
    the propagation rule holds.  Returns (XML lines of the <file> blocks,
    listed elements as (file, path, gen), relevant file ids).
    """
    lines: list[str] = []
    listed: list[tuple[str, str, float]] = []
    fids: list[str] = []
    used: dict[str, None] = {}
    count = 0
    while target - count >= 4:  # article, bdy, sec, p
        fid = f"co/{rng.randint(1995, 2004)}/r{rng.randint(1000, 99999)}"
        if fid in used:
            continue
        used[fid] = None
        count += 2
        secs = []  # (sec path, [(p path, e, size, rsize, [(inline path, size)])])
        for s in sorted(rng.sample(range(1, 9), rng.randint(1, 4))):
            if target - count < 2:
                break
            count += 1
            spath = f"/article[1]/bdy[1]/sec[{s}]"
            paras = []
            for j in sorted(rng.sample(range(1, 13), rng.randint(1, 5))):
                room = target - count - 1
                if room < 0:
                    break
                ppath = f"{spath}/p[{j}]"
                n_inline = rng.randint(0, 30)
                sizes = [rng.randint(3, 30) for _ in range(n_inline)]
                own = rng.randint(SMALL, 700)
                if rng.random() < 0.4:  # fully highlighted paragraph
                    chosen = list(range(n_inline))
                    own_hl = own
                else:
                    chosen = [k for k in range(n_inline) if rng.random() < 0.5]
                    own_hl = rng.randint(1, own)
                chosen = chosen[:room]
                counts: dict[str, int] = {}
                inline = []
                for k in range(n_inline):
                    tag = ("it", "b", "ref")[k % 3]
                    counts[tag] = counts.get(tag, 0) + 1
                    if k in chosen:
                        inline.append((f"{ppath}/{tag}[{counts[tag]}]", sizes[k]))
                size = own + sum(sizes)
                rsize = own_hl + sum(sz for _, sz in inline)
                paras.append((ppath, rng.choice("12"), size, rsize, inline))
                count += 1 + len(inline)
            secs.append((spath, paras))
        sec_rows = []
        for spath, paras in secs:
            e = max([rng.choice("12")] + [p[1] for p in paras])
            size = sum(p[2] for p in paras) + rng.randint(20, 4000)
            sec_rows.append((spath, e, size, sum(p[3] for p in paras), paras))
        e_b = max([rng.choice("12")] + [s[1] for s in sec_rows])
        size_b = sum(s[2] for s in sec_rows) + rng.randint(0, 20_000)
        rsize_b = sum(s[3] for s in sec_rows)
        size_a = size_b + rng.randint(500, 4000)
        fids.append(fid)
        block = [f'  <file collection="ieee" name="{fid}">']
        top = (("/article[1]", e_b, size_a, rsize_b), ("/article[1]/bdy[1]", e_b, size_b, rsize_b))
        for path, e, size, rsize in top:
            block.append(f'    <element path="{path}" exhaustivity="{e}" size="{size}" rsize="{rsize}"/>')
            listed.append((fid, path, int(e) * rsize / size))
        for spath, e, size, rsize, paras in sec_rows:
            block.append(f'    <element path="{spath}" exhaustivity="{e}" size="{size}" rsize="{rsize}"/>')
            listed.append((fid, spath, int(e) * rsize / size))
            for ppath, pe, psize, prsize, inline in paras:
                block.append(f'    <element path="{ppath}" exhaustivity="{pe}" size="{psize}" rsize="{prsize}"/>')
                listed.append((fid, ppath, int(pe) * prsize / psize))
                for ipath, isize in inline:
                    block.append(f'    <element path="{ipath}" exhaustivity="?" size="{isize}" rsize="{isize}"/>')
                    listed.append((fid, ipath, 0.0))
        block.append("  </file>")
        lines += block
    return lines, listed, fids


def _workload_run(rng, q: float, ranked, fids, n: int) -> list[str]:
    """One topic of a run of quality q in (0, 1).

    ``ranked``: the topic's listed elements as (file, path, gen), best first.
    The run retrieves int(0.6 q n) of them, sampled from the best
    ``k + (1 - q) |ranked|``, and fills up to n with unlisted figures;
    results are ordered by gen/2 * q + noise * (1 - q).
    """
    k_rel = min(len(ranked), int(n * q * 0.6))
    top = ranked[: min(len(ranked), k_rel + int((1 - q) * len(ranked)))]
    scored = [(g / 2 * q + rng.random() * (1 - q), fid, path) for fid, path, g in rng.sample(top, k_rel)]
    for j in range(n - k_rel):  # unlisted filler: figures (never listed) in relevant or unjudged files
        fid = rng.choice(fids) if rng.random() < 0.5 else f"tc/{rng.randint(1995, 2004)}/x{rng.randint(1000, 9999)}"
        scored.append((rng.random() * (1 - q), fid, f"/article[1]/bdy[1]/sec[{rng.randint(1, 8)}]/fig[{j + 1}]"))
    scored.sort(key=lambda x: -x[0])
    return [
        f"<result><file>{fid}</file><path>{path}</path><rank>{i + 1}</rank><rsv>{s:.6f}</rsv></result>"
        for i, (s, fid, path) in enumerate(scored)
    ]


_WORKLOAD_PROP = """\
# Benchmark workload written by inexeval.devtools.synth (seed {seed}).
TASK: {task}
METRICS: nxCG, ep/gr, q
ALPHA: 1.0
OVERLAP: {overlap}
QUANT_FUNCTIONS: gen, strict, genLifted
DCV: 10, 25, 50
ASSESSMENTS_DIR: assessments/
QUERY_TYPE: CO+S
SUBMISSIONRUNS_DIR: runs/
RESULTS_DIR: results
"""


def generate_workload(
    out: Path,
    *,
    seed: int = 1,
    n_topics: int = 29,
    max_elements: int = 15_000,
    n_runs: int = 55,
    results_per_topic: int = 1500,
) -> dict[str, int]:
    """Write a benchmark-sized INEX 2005 data set (no collection documents).

    - ``out/assessments/pool-NNN.xml``: one pool per topic (ids 202, 203, ...);
      the first topic has exactly ``max_elements`` listed elements, the others
      between a quarter of it and all of it; most are ``?`` inline elements.
    - ``out/runs/run-NN.xml``: ``n_runs`` runs of decreasing quality, each
      with exactly ``results_per_topic`` distinct results per topic.
    - ``out/focussed.prop`` and ``out/thorough.prop`` (CO.Focussed, CO.Thorough).

    Returns counts: ``topics``, ``elements`` (listed), ``runs``, ``results``.
    """
    out = Path(out)
    written: list[Path] = []
    rng = _rng(seed, "workload/assessments")
    topics = []
    n_elements = 0
    for t in range(n_topics):
        topic = str(202 + t)
        target = max_elements if t == 0 else rng.randint(max(4, max_elements // 4), max(4, max_elements))
        lines, listed, fids = _synth_topic(rng, target)
        n_elements += len(listed)
        pool = str(1000 + t)
        head = [
            '<?xml version="1.0" encoding="UTF-8"?>',
            f'<assessments pool="{pool}" topic="{topic}" version="2">',
            f'  <inex_topic topic_id="{topic}" query_type="CO+S"><title>synthetic topic {topic}</title></inex_topic>',
        ]
        junk = [f'  <file collection="ieee" name="an/{1995 + k % 10}/n{1000 + k}"/>' for k in range(rng.randint(5, 50))]
        text = "\n".join(head + lines + junk + ["</assessments>"]) + "\n"
        _write(out / "assessments" / f"pool-{pool}.xml", text, written)
        topics.append((topic, sorted(listed, key=lambda x: -x[2]), fids))
    rng = _rng(seed, "workload/runs")
    for r in range(n_runs):
        q = 0.9 - 0.85 * r / max(1, n_runs - 1)
        run_id = f"run-{r + 1:02d}"
        parts = [
            '<?xml version="1.0" encoding="UTF-8"?>',
            f'<inex-submission participant-id="{r + 1}" run-id="{run_id}" task="CO.Focussed" query="automatic">',
        ]
        for topic, listed, fids in topics:
            parts.append(f'<topic topic-id="{topic}">')
            parts += _workload_run(rng, q, listed, fids, results_per_topic)
            parts.append("</topic>")
        parts.append("</inex-submission>")
        _write(out / "runs" / f"{run_id}.xml", "\n".join(parts) + "\n", written)
    _write(out / "focussed.prop", _WORKLOAD_PROP.format(seed=seed, task="CO.Focussed", overlap="on"), written)
    _write(out / "thorough.prop", _WORKLOAD_PROP.format(seed=seed, task="CO.Thorough", overlap="off"), written)
    n_results = n_runs * n_topics * results_per_topic
    return {"topics": n_topics, "elements": n_elements, "runs": n_runs, "results": n_results}


# --------------------------------------------------------------------------
# command line


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m inexeval.devtools.synth", description="Write deterministic synthetic INEX data."
    )
    ap.add_argument("--out", required=True, type=Path, help="output directory")
    ap.add_argument("--seed", type=int, default=1, help="random seed (default 1: the shipped sample_data)")
    ap.add_argument("--scale", choices=["sample", *SCALES], default="sample")
    args = ap.parse_args(argv)
    if args.scale == "sample":
        files = generate_sample(args.out, args.seed)
        print(f"wrote {len(files)} files under {args.out}")
    else:
        counts = generate_workload(args.out, seed=args.seed, **SCALES[args.scale])
        print(", ".join(f"{v} {k}" for k, v in counts.items()) + f" under {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
