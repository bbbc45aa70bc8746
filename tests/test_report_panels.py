"""Side-by-side panels (issue 33, inexeval.report.panels): two runs' top k results for a topic next to each
other, judged, on the shipped sample configs (TREC, CO.Thorough, FOL.Focused, FOL.RelevantInContext, qa)
and on hostile ids.

Hand-checked against sample_data (the expected values below were read off the files, not the code):

- trec, topic 401, run medium: its file ranks DOC-401-012 2nd and DOC-401-015 3rd with the same score
  18.0; trec_eval breaks the tie by docno descending, so 015 is 2nd and 012 3rd; likewise 001/006 (12.0)
  become 006 8th, 001 9th.  DOC-401-013 (6th) and DOC-401-011 (10th) have no qrels line: unjudged.
  DOC-401-007 is rel 3, DOC-401-026 rel 0.  good has DOC-401-001 3rd: shared with medium's 9th.
- CO.Thorough, topic 202 (pool-355.xml): Medium's 2nd result ex/2001/s6716 /article[1]/bdy[1] has
  E 2, size 3627, rsize 1191; its 4th ex/1995/a3801 /article[1]/fm[1] E 2, 630, 511; its 1st
  cs/1998/s4858 /article[1]/fm[1]/au[1] is in an assessed document but not listed (nothing
  highlighted); Poor's 1st, cg/1996/a3025, is a document outside the pool: unjudged.
- FOL.Focused, topic 2009001: bert_inex_converted's 1st line 1528075 9760:1848 lies inside the relevant
  passage 124:28818 (1848 relevant characters); its 2nd, article 198076, has no qrels line (unjudged);
  its 5th, 21598 3793:1946, meets the relevant passages 3575:1962 (ends at 5537) and 5543:4750:
  1744 + 196 = 1940 of 1946 characters.  bert_inex_converted_1 has no line for topic 2009002.
"""

from __future__ import annotations

import gzip
import re
from pathlib import Path

import pytest
from lxml import etree

from inexeval.config import load_config, load_config_mapping
from inexeval.errors import ConfigError
from inexeval.names import cell
from inexeval.report.panels import PANEL_CSS, panel_html, write_panels

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "sample_data"


def config(name: str, tmp_path: Path):
    """A shipped sample config (panels write no result file: TMP_PATH is not used)."""
    return load_config(ROOT / "configs" / f"{name}.prop")


def parse(text: str):
    """The page parsed by lxml's HTML parser without error recovery (an error raises)."""
    parser = etree.HTMLParser(recover=False)
    root = etree.fromstring(text.encode("utf-8"), parser)
    assert not parser.error_log, [str(e) for e in parser.error_log]
    return root


def column(root, side: str) -> list[dict]:
    """The results of one column, rank order: rank, the first code (docno, file, article), the codes
    below it (path, passages), judgement text, classes, data-shared, links of its cell."""
    out = []
    for cell_ in root.xpath(f'//td[starts-with(@id, "{side}-")]'):
        judgement = cell_.getnext()
        codes = [c.xpath("string()") for c in cell_.xpath(".//code")]
        out.append({"rank": int(cell_.get("id").split("-")[1]), "item": codes[0], "parts": codes[1:],
                    "classes": cell_.get("class").split(), "shared": cell_.get("data-shared"),
                    "links": [a.get("href") for a in cell_.xpath(".//a")],
                    "text": cell_.xpath("string()"),
                    "verdict": judgement.xpath("string(strong)"), "judgement": judgement.xpath("string()"),
                    "judgement_classes": judgement.get("class").split()})
    assert [r["rank"] for r in out] == list(range(1, len(out) + 1))
    return out


# ----------------------------------------------------------------------------------------- TREC


def trec_order(path: Path, topic: str) -> list[tuple[str, float]]:
    """The test's own trec_eval order: score descending, ties by docno descending, first line of a docno."""
    seen: dict[str, float] = {}
    for line in path.read_text().splitlines():
        f = line.split()
        if f and f[0] == topic and f[2] not in seen:
            seen[f[2]] = float(f[4])
    return [(d, s) for s, d in sorted(((s, d) for d, s in seen.items()), reverse=True)]


def qrels(path: Path) -> dict[tuple[str, str], int]:
    rows = [line.split() for line in path.read_text().splitlines() if line.strip()]
    return {(r[0], r[2]): int(r[3]) for r in rows}


def test_trec_both_lists_ranked_and_judged_as_trec_eval(tmp_path):
    c = config("trec", tmp_path)
    judged = qrels(SAMPLE / "trec" / "qrels.txt")
    for topic in ("401", "402", "403", "404"):
        root = parse(panel_html(c, "good", "medium", topic, k=10))
        for side, name in (("a", "good"), ("b", "medium")):
            shown = column(root, side)
            expected = trec_order(SAMPLE / "trec" / "runs" / f"{name}.txt", topic)[:10]
            assert [r["item"] for r in shown] == [d for d, _ in expected]
            for r in shown:
                rel = judged.get((topic, r["item"]))
                if rel is None:
                    assert r["verdict"] == "unjudged" and "unjudged" in r["judgement_classes"]
                else:
                    assert r["verdict"] == ("relevant" if rel >= 1 else "not relevant")
                    assert f"rel {rel}" in r["judgement"]


def test_trec_hand_checked_ranks_judgements_and_shared_results(tmp_path):
    root = parse(panel_html(config("trec", tmp_path), "good", "medium", "401", k=10))
    a, b = column(root, "a"), column(root, "b")
    assert [r["item"] for r in b[:3]] == ["DOC-401-007", "DOC-401-015", "DOC-401-012"]
    assert [r["item"] for r in b[7:9]] == ["DOC-401-006", "DOC-401-001"]
    assert "(tie)" in b[2]["text"] and "(tie)" not in b[1]["text"]
    assert (b[5]["item"], b[5]["verdict"]) == ("DOC-401-013", "unjudged")
    assert (b[9]["item"], b[9]["verdict"]) == ("DOC-401-011", "unjudged")
    assert (a[0]["item"], a[0]["verdict"], "rel 3" in a[0]["judgement"]) == ("DOC-401-007", "relevant", True)
    assert (a[7]["item"], a[7]["verdict"]) == ("DOC-401-026", "not relevant")
    # DOC-401-001: A's 3rd, B's 9th: the same data-shared number, linked both ways
    assert a[2]["item"] == "DOC-401-001" and "shared" in a[2]["classes"] and "#b-9" in a[2]["links"]
    assert "shared" in b[8]["classes"] and "#a-3" in b[8]["links"] and a[2]["shared"] == b[8]["shared"]
    assert "also at rank 9 in B" in a[2]["text"]
    # DOC-401-021 (A's 9th) is not in medium at all
    assert a[8]["item"] == "DOC-401-021" and "shared" not in a[8]["classes"] and a[8]["shared"] is None
    # a shared result beyond B's top 10 is named, not linked
    assert a[4]["item"] == "DOC-401-022" and "also at rank 15 in B (not shown)" in a[4]["text"]
    assert a[4]["links"] == []
    shared = {r["shared"] for r in a if r["shared"]}
    assert len(shared) == len([r for r in a if r["shared"]])  # one number per result


def test_k_is_respected_and_a_missing_topic_is_said(tmp_path):
    c = config("trec", tmp_path)
    for k in (1, 3, 25):
        root = parse(panel_html(c, "good", "poor", "401", k=k))
        assert len(column(root, "a")) == min(k, 20) and len(column(root, "b")) == min(k, 20)
        assert len(root.xpath("//table[contains(@class, 'panel')]/tbody/tr")) == min(k, 20)
    root = parse(panel_html(c, "good", "poor", "402", k=5))
    assert len(column(root, "a")) == 5 and column(root, "b") == []
    assert "B: no result for this topic." in root.xpath("string(//main)")
    with pytest.raises(ConfigError, match="k must be"):
        panel_html(c, "good", "poor", "401", k=0)


def test_values_table(tmp_path):
    c = config("trec", tmp_path)
    root = parse(panel_html(c, "good", "medium", "401", values={"good": {"map": 0.5, "P_10": 0.7},
                                                                "medium": {"map": 0.25}}))
    rows = [[td.xpath("string()") for td in tr.xpath("td")]
            for tr in root.xpath("//h2[text()='Values for this topic']/following::table[1]/tbody/tr")]
    assert rows == [["map", "0.5000", "0.2500", "+0.2500"], ["P_10", "0.7000", "–", "–"]]
    assert "Values for this topic" not in panel_html(c, "good", "medium", "401")


def test_unknown_run_id_is_a_config_error(tmp_path):
    with pytest.raises(ConfigError, match="no run of TASK trec has the run id 'nosuch'"):
        panel_html(config("trec", tmp_path), "good", "nosuch", "401")


def test_write_panels_reads_each_input_once_and_is_deterministic(tmp_path, monkeypatch):
    import inexeval.readers.trec as trec

    calls = {"qrels": 0, "run": []}
    real_qrels, real_run = trec.read_qrels, trec.read_run

    def counted_qrels(path):
        calls["qrels"] += 1
        return real_qrels(path)

    def counted_run(path):
        calls["run"].append(Path(path).name)
        return real_run(path)

    monkeypatch.setattr(trec, "read_qrels", counted_qrels)
    monkeypatch.setattr(trec, "read_run", counted_run)
    c = config("trec", tmp_path)
    values = {"good": {"401": {"map": 0.5}}, "medium": {"401": {"map": 0.25}}}
    names = write_panels(c, "good", "medium", ["401", "402", "403", "404"], tmp_path / "one", k=5,
                         values_by_run=values)
    assert names == {t: f"{t}.html" for t in ("401", "402", "403", "404")}
    assert calls == {"qrels": 1, "run": ["good.txt", "medium.txt"]}  # poor.txt not needed, not read
    write_panels(c, "good", "medium", ["401", "402", "403", "404"], tmp_path / "two", k=5, values_by_run=values)
    one = {p.name: p.read_bytes() for p in sorted((tmp_path / "one").iterdir())}
    two = {p.name: p.read_bytes() for p in sorted((tmp_path / "two").iterdir())}
    assert one == two and sorted(one) == ["401.html", "402.html", "403.html", "404.html"]
    page = one["401.html"].decode()
    assert page == panel_html(c, "good", "medium", "401", k=5, values={"good": {"map": 0.5}, "medium": {"map": 0.25}})
    assert 'href="../../report.css"' in page and 'href="../../index.html"' in page
    parse(page)


# ----------------------------------------------------------------------------------------- hostile ids

HOSTILE_TOPIC = "<t&\"1'>"
HOSTILE_DOCS = ["<d&\"'1>", "a\x01b</td>", "p\u2028q&amp;", "x<script>y"]
HOSTILE_TAG = "r<b>&\"'\x02"


def test_hostile_trec_ids_are_text(tmp_path):
    (tmp_path / "runs").mkdir()
    q = [f"{HOSTILE_TOPIC} 0 {HOSTILE_DOCS[0]} 1", f"{HOSTILE_TOPIC} 0 {HOSTILE_DOCS[1]} 0"]
    (tmp_path / "qrels.txt").write_text("\n".join(q) + "\n", encoding="utf-8")
    run_a = [f"{HOSTILE_TOPIC} Q0 {d} {i} {10 - i} {HOSTILE_TAG}" for i, d in enumerate(HOSTILE_DOCS, 1)]
    run_b = [f"{HOSTILE_TOPIC} Q0 {d} {i} {10 - i} ..\\b" for i, d in enumerate(reversed(HOSTILE_DOCS), 1)]
    (tmp_path / "runs" / "a.txt").write_text("\n".join(run_a) + "\n", encoding="utf-8")
    (tmp_path / "runs" / "b.txt").write_text("\n".join(run_b) + "\n", encoding="utf-8")
    c = load_config_mapping({"TASK": "trec", "ASSESSMENTS_DIR": str(tmp_path / "qrels.txt"),
                             "SUBMISSIONRUNS_DIR": str(tmp_path / "runs"), "RESULTS_DIR": str(tmp_path / "res")})
    names = write_panels(c, HOSTILE_TAG, "..\\b", [HOSTILE_TOPIC, "../../etc/passwd"], tmp_path / "site" / "x" / "y")
    assert set(names) == {HOSTILE_TOPIC, "../../etc/passwd"}
    for name in names.values():
        assert re.fullmatch(r"[A-Za-z0-9._+~-]+\.html", name) and not name.startswith((".", "-"))
    assert sorted(p.name for p in (tmp_path / "site" / "x" / "y").iterdir()) == sorted(names.values())
    text = (tmp_path / "site" / "x" / "y" / names[HOSTILE_TOPIC]).read_text()
    for raw in ("<d&", "<t&", "<b>&", "<script>", "b</td>", "\x01", "\x02", "\u2028"):
        assert raw not in text
    root = parse(text)
    a, b = column(root, "a"), column(root, "b")
    assert [r["item"] for r in a] == [cell(d) for d in HOSTILE_DOCS]
    assert [r["item"] for r in b] == [cell(d) for d in reversed(HOSTILE_DOCS)]
    assert [r["verdict"] for r in a] == ["relevant", "not relevant", "unjudged", "unjudged"]
    assert all("shared" in r["classes"] for r in a + b)
    other = "..\\b"
    assert root.xpath("string(//h1)") == f"Topic {cell(HOSTILE_TOPIC)}: {cell(HOSTILE_TAG)} and {cell(other)}"
    assert not root.xpath("//script[not(@src)]") and len(root.xpath("//script")) == 1  # only report.js


def test_hostile_element_ids_with_newlines_are_text(tmp_path):
    """INEX XML ids may hold newlines (character references): run id, topic id and file id."""
    (tmp_path / "a").mkdir()
    (tmp_path / "r").mkdir()
    topic_xml = "t&lt;1&#10;&amp;&quot;'"
    (tmp_path / "a" / "pool-1.xml").write_text(
        f'<assessments pool="1" topic="{topic_xml}" version="2">\n'
        '  <file collection="ieee" name="d&lt;1&amp;">\n'
        '    <element path="/article[1]" exhaustivity="2" size="10" rsize="5"/>\n'
        "  </file>\n</assessments>\n")
    for name, run_id, files in (("one", "r&#10;&lt;b&gt;&amp;&quot;'", ["d&lt;1&amp;", "e&amp;2"]),
                                ("two", "s&#13;2", ["e&amp;2", "d&lt;1&amp;"])):
        results = "".join(f"<result><file>{f}</file><path>/article[1]</path></result>\n" for f in files)
        (tmp_path / "r" / f"{name}.xml").write_text(
            f'<inex-submission participant-id="1" run-id="{run_id}">\n<topic topic-id="{topic_xml}">\n'
            f"{results}</topic>\n</inex-submission>\n")
    c = load_config_mapping({"TASK": "CO.Thorough", "ASSESSMENTS_DIR": str(tmp_path / "a"),
                             "SUBMISSIONRUNS_DIR": str(tmp_path / "r"), "RESULTS_DIR": str(tmp_path / "res")})
    topic, run_a, run_b = "t<1\n&\"'", "r\n<b>&\"'", "s\r2"
    names = write_panels(c, run_a, run_b, [topic], tmp_path / "out")
    text = (tmp_path / "out" / names[topic]).read_text()
    assert "\n<b>" not in text and "<1" not in text and "\r" not in text
    root = parse(text)
    assert root.xpath("string(//h1)") == f"Topic {cell(topic)}: {cell(run_a)} and {cell(run_b)}"
    a, b = column(root, "a"), column(root, "b")
    assert [(r["item"], r["verdict"]) for r in a] == [("d<1&", "relevant"), ("e&2", "unjudged")]
    assert "5 of 10 characters relevant (50" in a[0]["judgement"]
    assert a[0]["shared"] == b[1]["shared"] and "#b-2" in a[0]["links"]


# ----------------------------------------------------------------------------------------- INEX elements


def pool_elements(path: Path) -> dict[tuple[str, str], tuple[str, int, int]]:
    tree = etree.parse(str(path))
    return {(f.get("name"), e.get("path")): (e.get("exhaustivity"), int(e.get("size")), int(e.get("rsize")))
            for f in tree.iter("file") for e in f.iter("element")}


def test_co_thorough_elements_judged_by_the_pool(tmp_path):
    c = config("co-thorough", tmp_path)
    pool = SAMPLE / "inex2005" / "assessments" / "CO+S" / "main" / "pool-355.xml"
    elements = pool_elements(pool)
    files = {f for f, _ in elements} | {e.get("name") for e in etree.parse(str(pool)).iter("file")}
    root = parse(panel_html(c, "Medium", "Poor", "202", k=12))
    a, b = column(root, "a"), column(root, "b")
    assert len(a) == 12 and len(b) == 12
    for r in a + b:
        key = (r["item"], r["parts"][0])
        if r["item"] not in files:
            assert r["verdict"] == "unjudged" and "document not assessed" in r["judgement"]
        elif key not in elements:
            assert r["verdict"] == "not relevant" and "nothing highlighted" in r["judgement"]
        else:
            e, size, rsize = elements[key]
            assert r["verdict"] == ("relevant" if rsize > 0 else "not relevant")
            assert f"E {e}" in r["judgement"] and f"{rsize} of {size} characters relevant" in r["judgement"]
    # hand-checked (module docstring)
    assert (a[1]["item"], a[1]["parts"]) == ("ex/2001/s6716", ["/article[1]/bdy[1]"])
    assert "E 2" in a[1]["judgement"] and "1191 of 3627 characters relevant (32" in a[1]["judgement"]
    assert (a[3]["item"], a[3]["parts"], a[3]["verdict"]) == ("ex/1995/a3801", ["/article[1]/fm[1]"], "relevant")
    assert "511 of 630 characters relevant" in a[3]["judgement"]
    assert (a[0]["item"], a[0]["verdict"]) == ("cs/1998/s4858", "not relevant")
    assert (b[0]["item"], b[0]["parts"], b[0]["verdict"]) == \
        ("cg/1996/a3025", ["/article[1]/bdy[1]/sec[3]/ss1[2]/p[1]"], "unjudged")
    # Medium's file order is the ranking (its <rank> values agree here; Poor's start at 0)
    run = etree.parse(str(SAMPLE / "inex2005" / "runs" / "CO" / "Medium.xml"))
    order = [(f.findtext("file"), f.findtext("path")) for f in run.xpath("//topic[@topic-id='202']/result")]
    assert [(r["item"], r["parts"][0]) for r in a] == order[:12]


def test_co_thorough_shared_and_overlapping_elements(tmp_path):
    root = parse(panel_html(config("co-thorough", tmp_path), "Medium", "NearIdeal", "202", k=10))
    a, b = column(root, "a"), column(root, "b")
    keys_b = {(r["item"], r["parts"][0]): r for r in b}
    for r in a:
        other = keys_b.get((r["item"], r["parts"][0]))
        if other is not None:
            assert r["shared"] == other["shared"] is not None and f"#b-{other['rank']}" in r["links"]
    # NearIdeal's 2nd, ex/2001/s6716 /article[1]/bdy[1]/sec[1], lies inside Medium's 2nd (/article[1]/bdy[1])
    # and contains its 6th (.../sec[1]/p[1]): not the same element, text shared with both
    assert b[1]["parts"] == ["/article[1]/bdy[1]/sec[1]"] and b[1]["shared"] is None
    assert "shares text with A's rank(s) 2, 6" in b[1]["text"] and b[1]["links"] == ["#a-2", "#a-6"]


def test_a_topic_without_judgements_is_said(tmp_path):
    root = parse(panel_html(config("co-thorough", tmp_path), "Poor", "Medium", "299", k=5))
    assert "The judgements have no topic 299" in root.xpath("string(//main)")
    assert [r["verdict"] for r in column(root, "a")] == ["unjudged"] * 3 and column(root, "b") == []


# ----------------------------------------------------------------------------------------- FOL passages


def fol_qrels() -> dict[tuple[str, str], tuple[int, int, list[tuple[int, int]]]]:
    out = {}
    with gzip.open(SAMPLE / "inex2009-2010" / "qrels.txt.gz", "rt") as f:
        for line in f:
            p = line.split()
            spans = [(int(x.split(":")[0]), int(x.split(":")[0]) + int(x.split(":")[1])) for x in p[6:]]
            out[(p[0], p[2])] = (int(p[3]), int(p[4]), spans)
    return out


def fol_lines(name: str, topic: str) -> list[list[str]]:
    with gzip.open(SAMPLE / "inex2009-2010" / "runs" / "original" / f"{name}.run.gz", "rt") as f:
        return [p for p in (line.split() for line in f) if p and p[0] == topic]


def test_fol_focused_passages_judged_by_the_qrels(tmp_path):
    c = config("fol-focused", tmp_path)
    judged = fol_qrels()
    root = parse(panel_html(c, "bert_inex_converted", "bert_inex_converted_1", "2009001", k=15))
    for side, name in (("a", "bert_inex_converted"), ("b", "bert_inex_converted_1")):
        shown = column(root, side)
        lines = fol_lines(name, "2009001")[:15]
        assert [(r["item"], r["parts"]) for r in shown] == [(p[2], [f"{p[6]}:{p[7]}"]) for p in lines]
        for r, p in zip(shown, lines):
            j = judged.get(("2009001", p[2]))
            if j is None:
                assert r["verdict"] == "unjudged"
                continue
            s, e = int(p[6]), int(p[6]) + int(p[7])
            found = sum(max(0, min(e, hi) - max(s, lo)) for lo, hi in j[2])
            assert f"{found} of {p[7]} characters relevant" in r["judgement"]
            assert f"article: {j[0]} of {j[1]} characters relevant" in r["judgement"]
            assert r["verdict"] == ("relevant" if found else "not relevant")
    a = column(root, "a")
    assert (a[0]["item"], a[0]["parts"], a[0]["verdict"]) == ("1528075", ["9760:1848"], "relevant")
    assert "1848 of 1848 characters relevant" in a[0]["judgement"]
    assert (a[1]["item"], a[1]["verdict"]) == ("198076", "unjudged")
    assert (a[4]["item"], a[4]["parts"]) == ("21598", ["3793:1946"])
    assert "1940 of 1946 characters relevant (99" in a[4]["judgement"]
    root = parse(panel_html(c, "bert_inex_converted", "bert_inex_converted_1", "2009002", k=4))
    assert len(column(root, "a")) == 4 and column(root, "b") == []


def test_fol_shared_passages(tmp_path):
    c = config("fol-focused", tmp_path)
    root = parse(panel_html(c, "bert_inex_converted", "bert_inex_converted_1", "2009001", k=10))
    a, b = column(root, "a"), column(root, "b")
    lines_b = [(p[2], f"{p[6]}:{p[7]}") for p in fol_lines("bert_inex_converted_1", "2009001")]
    for r in a:
        key = (r["item"], r["parts"][0])
        if key in lines_b:
            rank = lines_b.index(key) + 1
            assert "shared" in r["classes"] and f"also at rank {rank} in B" in r["text"]
        else:
            assert "shared" not in r["classes"]
    # a passage of the same article that shares text with one of the other column is named
    for r in b:
        if "shared" in r["classes"]:
            continue
        s, n = map(int, r["parts"][0].split(":"))
        near = [o["rank"] for o in a if o["item"] == r["item"]
                and int(o["parts"][0].split(":")[0]) < s + n and int(o["parts"][0].split(":")[0])
                + int(o["parts"][0].split(":")[1]) > s]
        assert (f"#a-{near[0]}" in r["links"]) == bool(near)


def test_fol_in_context_ranks_are_articles(tmp_path):
    """Relevant in Context: a rank is an article with its consecutive passages (blockgrouped runs)."""
    c = config("fol-relevant-in-context", tmp_path)
    root = parse(panel_html(c, "bert_inex_converted.blockgrouped", "bert_inex_converted_1.blockgrouped",
                            "2009001", k=3))
    a = column(root, "a")
    assert [r["item"] for r in a] == ["1528075", "198076", "21201"]
    assert len(a[0]["parts"]) == 30 and "30 passages" in a[0]["text"]
    assert "49257 of 56268 characters relevant" in a[0]["judgement"]  # all of the article's relevant text
    assert a[1]["parts"] == ["1946:1439", "0:1946"] and a[1]["verdict"] == "unjudged"
    assert all("shared" in r["classes"] for r in a[:1])


# ----------------------------------------------------------------------------------------- qa


def test_qa_answers_marked(tmp_path):
    root = parse(panel_html(config("qa", tmp_path), "AF", "noAF", "QA-001", k=5))
    a, b = column(root, "a"), column(root, "b")
    assert [r["item"] for r in a] == ["McCartney", "Lennon", "Paul", "George Harrison", "Starr"]
    assert a[2]["verdict"] == "not relevant" and "synset 1 already marked at position 1" in a[2]["judgement"]
    assert a[0]["verdict"] == "relevant" and "level A" in a[0]["judgement"]
    assert b[3]["item"] == "George Harrison" and a[3]["shared"] == b[3]["shared"] is not None


def test_panel_css_names_the_classes():
    for name in ("panel", "rel", "nonrel", "unjudged", "shared"):
        assert f".{name}" in PANEL_CSS


# ----------------------------------------------------------------------------------------- compare --runs A,B


def test_compare_runs_writes_side_by_side_pages(tmp_path):
    """compare --runs good,poor: an index of every topic either run has, with map per topic and A − B,
    one page per topic (both columns), the style sheet beside them; written again as a whole."""
    from click.testing import CliRunner

    from inexeval.cli import main

    results = tmp_path / "results"
    args = ["compare", "-config", str(ROOT / "configs" / "trec.prop"), "--results-dir", str(results), "--quiet"]
    res = CliRunner().invoke(main, [*args, "--runs", "good,poor"], catch_exceptions=False)
    assert res.exit_code == 0, res.output
    out = results / "trec" / "panels" / "good_vs_poor"
    assert sorted(p.name for p in out.iterdir()) == ["index.html", "report.css", "report.js", "topics"]
    assert sorted(p.name for p in (out / "topics").iterdir()) == ["401.html", "402.html", "403.html", "404.html"]
    index = parse((out / "index.html").read_text())
    rows = [[td.xpath("string()") for td in tr.findall("td")] for tr in index.xpath("//tbody/tr")]
    per_topic = {}
    for run in ("good", "poor"):
        for line in (results / "trec" / "default" / f"{run}.tsv").read_text().splitlines():
            m, t, v = line.split("\t")
            if m == "map" and t != "all":
                per_topic[run, t] = float(v)
    # poor has no topic 402: its value and the difference are undefined
    assert rows[1] == ["402", f"{per_topic['good', '402']:.4f}", "\u2013", "\u2013"]
    diff = per_topic["good", "401"] - per_topic["poor", "401"]
    assert rows[0] == ["401", f"{per_topic['good', '401']:.4f}", f"{per_topic['poor', '401']:.4f}", f"+{diff:.4f}"]
    page = parse((out / "topics" / "401.html").read_text())
    assert column(page, "a") and column(page, "b")  # both lists
    assert page.xpath("string(//h1)") == "Topic 401: good and poor"
    (out / "stale.html").write_text("from an earlier comparison")
    res = CliRunner().invoke(main, [*args, "--runs", "good,poor"], catch_exceptions=False)
    assert res.exit_code == 0 and not (out / "stale.html").exists()
    assert not [p for p in out.parent.iterdir() if p.name != out.name]  # no staging folder left
    res = CliRunner().invoke(main, [*args, "--runs", "good,medium", "--panels", "0"], catch_exceptions=False)
    assert res.exit_code == 0 and not (out.parent / "good_vs_medium").exists()


def test_depth_keeps_each_topics_first_results(tmp_path):
    """read_rankings(depth=D): each topic's first D results, the same as the whole ranking's first D (the
    report keeps max(100, 10 K) of every run, so that a hundred runs stay small)."""
    from inexeval.report.rankings import read_rankings

    c = config("trec", tmp_path)
    whole = read_rankings(c, ["good", "poor"])
    cut = read_rankings(c, ["good", "poor"], depth=3)
    for run in ("good", "poor"):
        assert whole.runs[run].topics.keys() == cut.runs[run].topics.keys()
        for t, results in whole.runs[run].topics.items():
            assert len(results) > 3 and cut.runs[run].topics[t] == results[:3]
