"""Tests of the synthetic data generator (inexeval/devtools/synth.py) and of the shipped sample_data/."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest
from lxml import etree

from inexeval.devtools.synth import SMALL, generate_sample, generate_workload
from inexeval.paths import is_ancestor, parent

REPO = Path(__file__).resolve().parent.parent
SAMPLE = REPO / "sample_data"
PARSER = etree.XMLParser(load_dtd=False, no_network=True, resolve_entities=False)
E_ORDER = {"?": 0, "1": 1, "2": 2}


# ---------------------------------------------------------------- helpers


def tree_bytes(root: Path) -> dict[str, bytes]:
    """Every file under root (README.md excluded) by relative path."""
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and p.name != "README.md"
    }


def read_pool(path: Path):
    """(topic, query_type, {file: {path: (e, size, rsize)}}, {file: [bep]}, [empty files]) of a pool file."""
    root = etree.parse(str(path), PARSER).getroot()
    files: dict[str, dict[str, tuple[str | None, int, int]]] = {}
    beps: dict[str, list[str]] = {}
    empty = []
    for f in root.iter("file"):
        name = f.get("name")
        els = {}
        for el in f.iter("element"):
            size, rsize = (int(el.get(a).replace(",", "")) for a in ("size", "rsize"))
            els[el.get("path")] = (el.get("exhaustivity"), size, rsize)
        if els:
            files[name] = els
            beps[name] = [b.get("path") for b in f.iter("best-entry-point")]
        else:
            empty.append(name)
    qt = root.find("inex_topic").get("query_type")
    return root.get("topic"), qt, files, beps, empty


def pools(base: Path) -> list[Path]:
    return sorted(base.rglob("pool-*.xml"))


def check_propagation(files) -> None:
    """Every listed element's parent is listed, and sizes, rsizes and exhaustivity are monotone."""
    for name, els in files.items():
        children: dict[str, list[str]] = {}
        for p, (e, size, rsize) in els.items():
            assert 0 < rsize <= size, (name, p)
            q = parent(p)
            if q is None:
                continue
            assert q in els, f"{name}: parent of {p} not listed"
            children.setdefault(q, []).append(p)
            pe, psize, prsize = els[q]
            assert rsize <= prsize and size <= psize, (name, p)
            if e is not None:
                assert E_ORDER[e] <= E_ORDER[pe], f"{name}: exhaustivity increases at {p}"
        for q, kids in children.items():
            assert sum(els[k][2] for k in kids) <= els[q][2], (name, q)
            assert sum(els[k][1] for k in kids) <= els[q][1], (name, q)


def text_len(el) -> int:
    """docs/formats.md §1.4: all descendant text, in code points (comments and PIs are not text)."""
    return len(el.xpath("string()"))


def load_doc(collection: Path, fid: str):
    return etree.parse(str(collection / f"{fid}.xml"), PARSER).getroot().getroottree()


def read_xml_run(path: Path) -> dict[str, list[tuple[str, str]]]:
    """Topic (stripped) -> results (file, path) in document order; repeated topics continue."""
    root = etree.parse(str(path), PARSER).getroot()
    out: dict[str, list[tuple[str, str]]] = {}
    for t in root.iter("topic"):
        out.setdefault(t.get("topic-id").strip(), []).extend(
            (r.findtext("file").strip(), r.findtext("path").strip()) for r in t.iter("result")
        )
    return out


def overlaps(a: str, b: str) -> bool:
    return a == b or is_ancestor(a, b) or is_ancestor(b, a)


@pytest.fixture(scope="module")
def sample(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("sample")
    generate_sample(out, seed=1)
    return out


# ---------------------------------------------------------------- determinism, drift


def test_same_seed_same_bytes_other_seed_other_bytes(sample, tmp_path):
    generate_sample(tmp_path / "again", seed=1)
    generate_sample(tmp_path / "other", seed=2)
    first = tree_bytes(sample)
    assert tree_bytes(tmp_path / "again") == first
    other = tree_bytes(tmp_path / "other")
    assert other != first
    assert len(first) == 58  # 54 INEX files + TREC qrels and 3 runs


def test_command_line_in_another_process_gives_the_same_bytes(sample, tmp_path):
    # A different hash seed: output must not depend on set or dict hash order.
    env = dict(os.environ, PYTHONHASHSEED="12345")
    subprocess.run(
        [sys.executable, "-m", "inexeval.devtools.synth", "--out", str(tmp_path), "--seed", "1", "--scale", "sample"],
        check=True, cwd=REPO, env=env, capture_output=True,
    )
    assert tree_bytes(tmp_path) == tree_bytes(sample)


#: Sample data that the generator does not write (a slice of public data, with its licence).
NOT_GENERATED = ("inex2009-2010/", "qa/", "inex2006/assessments/second/")


def test_committed_sample_data_equals_generator_output(sample):
    committed = {k: v for k, v in tree_bytes(SAMPLE).items() if not k.startswith(NOT_GENERATED)}
    assert committed == tree_bytes(sample)
    assert (SAMPLE / "README.md").is_file()


def test_evaluation_modules_do_not_import_the_developer_tools():
    """inexeval.devtools is for developers: no other module of the package imports it."""
    importers = []
    for path in sorted((REPO / "inexeval").rglob("*.py")):
        if "devtools" in path.relative_to(REPO / "inexeval").parts:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            if any(n.startswith("inexeval.devtools") for n in names):
                importers.append(path.name)
    assert importers == []


def test_sample_data_is_small():
    total = sum(p.stat().st_size for p in SAMPLE.rglob("*") if p.is_file())
    assert total < 1_000_000


# ---------------------------------------------------------------- assessments


@pytest.mark.parametrize("year", ["inex2005", "inex2006"])
def test_assessments_follow_the_propagation_rule(sample, year):
    found = pools(sample / year / "assessments")
    assert found
    for pool in found:
        _, _, files, _, empty = read_pool(pool)
        assert files and empty, pool
        check_propagation(files)


@pytest.mark.parametrize("year", ["inex2005", "inex2006"])
def test_sizes_are_text_lengths_and_rsize_is_own_plus_children(sample, year):
    collection = sample / year / "collection"
    for pool in pools(sample / year / "assessments"):
        _, _, files, beps, empty = read_pool(pool)
        for fid in empty:
            assert (collection / f"{fid}.xml").is_file()
        for fid, els in files.items():
            doc = load_doc(collection, fid)
            for path, (e, size, rsize) in els.items():
                [el] = doc.xpath(path)
                assert text_len(el) == size, (pool, fid, path)
                # own highlighted text = rsize - children's rsize, within the element's own text
                kids = [el2 for el2 in el if isinstance(el2.tag, str)]
                own_text = size - sum(text_len(k) for k in kids)
                listed_kids = [p for p in els if parent(p) == path]
                own_hl = rsize - sum(els[p][2] for p in listed_kids)
                assert 0 <= own_hl <= own_text, (pool, fid, path)
            if year == "inex2006":
                assert len(beps[fid]) == 1
                assert doc.xpath(beps[fid][0]), (pool, fid)
                assert all(e is None for e, _, _ in els.values())


def test_2005_exhaustivity_values_and_too_small_elements(sample):
    values = set()
    for pool in pools(sample / "inex2005" / "assessments"):
        _, _, files, _, _ = read_pool(pool)
        for els in files.values():
            for e, size, _ in els.values():
                values.add(e)
                assert (e == "?") == (size < SMALL)
    assert values == {"?", "1", "2"}


def test_2005_has_gen_tie_between_element_and_listed_parent(sample):
    # strict = gen = 2 for both: e = 2 and rsize = size, child and parent
    ties = 0
    for pool in pools(sample / "inex2005" / "assessments" / "CO+S" / "main"):
        _, _, files, _, _ = read_pool(pool)
        for els in files.values():
            for p, (e, size, rsize) in els.items():
                q = parent(p)
                if q and e == "2" and rsize == size and els[q][0] == "2" and els[q][1] == els[q][2]:
                    ties += 1
                    break
    assert ties >= 5  # one per CO+S topic


def test_2005_pools_topics_and_query_types(sample):
    base = sample / "inex2005" / "assessments"
    by_topic: dict[str, list[Path]] = {}
    qtypes = {}
    for pool in pools(base):
        topic, qt, _, _, _ = read_pool(pool)
        by_topic.setdefault(topic, []).append(pool.relative_to(base))
        qtypes[topic] = qt
    two = sorted(t for t, ps in by_topic.items() if len(ps) == 2)
    assert two == ["202", "203", "205"]  # judged twice, for inexeval assessments
    for t in two:
        assert sorted(p.parts[1] for p in by_topic[t]) == ["main", "second"]
    assert sorted(qtypes.values()).count("CAS") == 2
    assert {"CO+S", "COS", "CAS"} == set(qtypes.values())


def test_2006_assessments_exercise_entities_comments_and_separators(sample):
    docs = [p.read_bytes() for p in sorted((sample / "inex2006" / "collection").glob("*.xml"))]
    assert len(docs) == 12
    assert any(b"&amp;" in d for d in docs) and all(b"<!--" in d for d in docs)
    assert any("é".encode() in d for d in docs)  # a code point that is two bytes
    assert any(b'size="1,' in p.read_bytes() for p in pools(sample / "inex2006" / "assessments"))


# ---------------------------------------------------------------- runs


def _relevant(sample, year, sub=""):
    out: dict[str, dict[str, dict]] = {}
    for pool in pools(sample / year / "assessments" / sub):
        topic, _, files, _, _ = read_pool(pool)
        if "second" not in pool.parts:
            out[topic] = files
    return out


def test_2005_runs_exercise_the_required_cases(sample):
    runs = sample / "inex2005" / "runs" / "CO"
    rel = _relevant(sample, "inex2005", "CO+S")
    medium = read_xml_run(runs / "Medium.xml")
    anc_first = desc_first = interleaved = unlisted = 0
    for topic, res in medium.items():
        for i, (f, p) in enumerate(res):
            for f2, p2 in res[i + 1 :]:
                if f2 == f and is_ancestor(p, p2):
                    anc_first += 1
                if f2 == f and is_ancestor(p2, p):
                    desc_first += 1
            listed = rel[topic].get(f, {})
            unlisted += p not in listed
        files = [f for f, _ in res]
        interleaved += any(files[i] != files[i + 1] and files[i] in files[i + 2 :] for i in range(len(files) - 1))
    assert anc_first and desc_first and interleaved and unlisted

    poor = read_xml_run(runs / "Poor.xml")
    assert len(poor["202"]) != len(set(poor["202"]))  # a duplicate result
    assert any("//" in p for _, p in poor["203"])  # an invalid path
    assert "299" in poor and "299" not in rel  # a topic not in the assessments
    assert any(f.endswith(".xml") for f, _ in poor["203"])

    ideal = read_xml_run(runs / "NearIdeal.xml")
    small = [(t, f, p) for t, res in ideal.items() for f, p in res if rel[t].get(f, {}).get(p, ("",))[0] == "?"]
    assert small  # too-small elements are retrieved

    lines = (runs / "TextRun.txt").read_text().splitlines()
    assert lines and all(len(line.split()) == 7 and line.split()[1] == "Q0" for line in lines)


def test_2006_context_runs(sample):
    runs = sample / "inex2006" / "runs"
    for name in ("RicGood", "RicPoor"):
        for topic, res in read_xml_run(runs / "RelevantInContext" / f"{name}.xml").items():
            files = [f for f, _ in res]
            # grouped by article: an article's results are contiguous
            for f in files:
                first = files.index(f)
                assert files[first : first + files.count(f)] == [f] * files.count(f), (name, topic)
            for i, (f, p) in enumerate(res):
                assert not any(f == f2 and overlaps(p, p2) for f2, p2 in res[i + 1 :]), (name, topic)
    good = read_xml_run(runs / "BestInContext" / "BicGood.xml")
    assert all(len({f for f, _ in res}) == len(res) for res in good.values())
    poor = read_xml_run(runs / "BestInContext" / "BicPoor.xml")
    assert all(len({f for f, _ in res}) == len(res) - 1 for res in poor.values())
    for task in ("Thorough", "Focused"):
        assert len(list((runs / task).glob("*.xml"))) == 2


# ---------------------------------------------------------------- workload


def test_small_workload(tmp_path):
    kw = dict(seed=5, n_topics=3, max_elements=300, n_runs=4, results_per_topic=40)
    counts = generate_workload(tmp_path / "a", **kw)
    generate_workload(tmp_path / "b", **kw)
    assert tree_bytes(tmp_path / "a") == tree_bytes(tmp_path / "b")
    assert counts["runs"] == 4 and counts["results"] == 4 * 3 * 40

    found = pools(tmp_path / "a" / "assessments")
    assert len(found) == 3
    n_elements = 0
    for k, pool in enumerate(found):
        _, _, files, _, empty = read_pool(pool)
        check_propagation(files)
        els = [v for f in files.values() for v in f.values()]
        n_elements += len(els)
        assert len(els) == 300 if k == 0 else 75 <= len(els) <= 300
        assert sum(e == "?" for e, _, _ in els) > len(els) / 2  # mostly too-small elements
        assert all((e == "?") == (size < SMALL) for e, size, _ in els)
        assert empty
    assert counts["elements"] == n_elements

    for run in sorted((tmp_path / "a" / "runs").glob("*.xml")):
        topics = read_xml_run(run)
        assert sorted(topics) == ["202", "203", "204"]
        assert all(len(res) == 40 == len(set(res)) for res in topics.values())
    assert (tmp_path / "a" / "focussed.prop").is_file() and (tmp_path / "a" / "thorough.prop").is_file()


def test_workload_quality_decreases(tmp_path):
    generate_workload(tmp_path, seed=2, n_topics=2, max_elements=400, n_runs=3, results_per_topic=60)
    listed = set()
    for pool in pools(tmp_path / "assessments"):
        topic, _, files, _, _ = read_pool(pool)
        listed |= {(topic, f, p) for f, els in files.items() for p in els}
    hits = []
    for run in sorted((tmp_path / "runs").glob("*.xml")):
        hits.append(sum((t, f, p) in listed for t, res in read_xml_run(run).items() for f, p in res))
    assert hits[0] > hits[1] > hits[2]


def test_the_propagation_checker_detects_violations():
    ok = {"f": {"/a[1]": ("2", 10, 6), "/a[1]/b[1]": ("1", 4, 4), "/a[1]/c[1]": ("?", 3, 2)}}
    check_propagation(ok)
    bad = [
        {"f": {"/a[1]/b[1]": ("1", 4, 4)}},  # parent not listed
        {"f": {"/a[1]": ("1", 10, 6), "/a[1]/b[1]": ("2", 4, 4)}},  # exhaustivity increases
        {"f": {"/a[1]": ("2", 10, 3), "/a[1]/b[1]": ("1", 4, 4)}},  # child rsize > parent rsize
        {"f": {"/a[1]": ("2", 10, 6), "/a[1]/b[1]": ("1", 4, 4), "/a[1]/c[1]": ("1", 4, 4)}},  # children sum > parent
        {"f": {"/a[1]": ("2", 10, 11)}},  # rsize > size
    ]
    for files in bad:
        with pytest.raises(AssertionError):
            check_propagation(files)
