"""`inexeval report`: the static results site on the sample data (links, HTML, numbers, ranks, escaping,
determinism, atomic replacement), and in a real browser (chromium through playwright)."""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
from click.testing import CliRunner
from lxml import etree

import inexeval
from conftest import require_system_tool
from inexeval.cli.command import main
from inexeval.names import file_component
from inexeval.ranks import ranks

pytestmark = pytest.mark.slow  # the report over the sample configs: minutes

ROOT = Path(__file__).resolve().parent.parent
CONFIGS = ["co-thorough", "co-focussed", "trec", "fol-focused", "best-in-context", "relevant-in-context"]


def report(*args):
    return CliRunner().invoke(main, ["report", *args], catch_exceptions=False)


def config_args(names=CONFIGS):
    return [a for n in names for a in ("-config", str(ROOT / "configs" / f"{n}.prop"))]


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """The report of six sample configs; the results evaluated (no result files yet)."""
    base = tmp_path_factory.mktemp("report")
    res = report(*config_args(), "--results-dir", str(base / "results"), "--html", str(base / "site"), "--quiet")
    assert res.exit_code == 0, res.output
    return base


def parse(path: Path):
    """The page parsed by lxml's HTML parser without error recovery (an error raises)."""
    parser = etree.HTMLParser(recover=False)
    tree = etree.parse(str(path), parser)
    assert not parser.error_log, (path, [str(e) for e in parser.error_log])
    return tree


def files(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_every_page_parses_and_every_link_and_image_exists(site):
    root = site / "site"
    pages = sorted(root.rglob("*.html"))
    assert (root / "index.html") in pages and (root / "CO.Thorough" / "index.html") in pages
    checked = 0
    for page in pages:
        text = page.read_text(encoding="utf-8")
        assert text.startswith("<!DOCTYPE html>\n"), page
        tree = parse(page)
        assert tree.getroot().get("lang") == "en"
        assert tree.findtext(".//title").strip(), page
        assert len(tree.findall(".//h1")) == 1, page
        ids = {e.get("id") for e in tree.iter() if e.get("id")}
        for el, attr in ((".//a", "href"), (".//img", "src"), (".//link", "href"), (".//script", "src")):
            for e in tree.findall(el):
                url = e.get(attr)
                assert url, (page, etree.tostring(e))
                if url.startswith("data:"):
                    continue
                parts = urlsplit(url)
                assert not parts.scheme and not parts.netloc, (page, url)  # nothing from the network
                if parts.path:
                    target = (page.parent / unquote(parts.path)).resolve()
                    assert target.is_file(), (page, url)
                    assert root.resolve() in target.parents, (page, url)
                    if parts.fragment:
                        assert f'id="{parts.fragment}"' in target.read_text(encoding="utf-8"), (page, url)
                else:
                    assert parts.fragment in ids, (page, url)
                if el == ".//img":
                    assert target.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", (page, url)
                    assert e.get("alt"), (page, url)
                checked += 1
    assert checked > 100


def test_one_page_per_run_with_its_curves(site):
    root = site / "site"
    top = parse(root / "index.html")
    # the tasks table links each task's page, in the order of the configs (the leaderboards then link runs)
    task_links = [a.get("href") for a in top.findall(".//a") if a.get("href").endswith("/index.html")]
    assert task_links == [
        "CO.Thorough/index.html", "CO.Focussed/index.html", "trec/index.html", "FOL.Focused/index.html",
        "BestInContext/index.html", "RelevantInContext/index.html"]
    assert all(a.get("href").split("/")[1] in ("index.html", "runs") for a in top.findall(".//a"))
    for name in CONFIGS:
        res = inexeval.evaluate(ROOT / "configs" / f"{name}.prop", results_dir=site / "unused")
        task = root / file_component(res.task)
        assert sorted(p.stem for p in (task / "runs").glob("*.html")) == sorted(file_component(r) for r in res.runs)
        curves = res.curves()
        # the report adds TREC's interpolated precision-recall curve (one per setting) to the measures' own
        from inexeval.report.site import IPREC

        extra = len(res.settings) if all(n in res.measures for n in IPREC) else 0
        assert extra == (len(res.settings) if name == "trec" else 0)
        for run in res.runs:
            page = parse(task / "runs" / f"{file_component(run)}.html")
            srcs = [img.get("src") for img in page.findall(".//img")]
            assert len(srcs) == len([c for c in curves if run in c.series]) + extra, (name, run)
            assert page.findtext(".//h1") == run
        # the index shows every run's averaged curves, the per-topic distribution of the headline measure
        # (one per setting), and the comparisons with more than one run
        index = parse(task / "index.html")
        assert len(index.findall(".//img")) == len(curves) + extra + len(res.settings)
        assert (index.find(".//*[@id='comparisons']") is not None) == (len(res.runs) > 1)


def test_run_curves_are_drawn_over_the_others(site):
    """A run page's PNG is its own drawing (the run in colour, the others grey), not the index's."""
    from PIL import Image

    from inexeval.writers.graphs import PALETTE

    first, second = (tuple(int(c[k:k + 2], 16) for k in (1, 3, 5)) for c in PALETTE[:2])
    task = site / "site" / "CO.Thorough"
    shared = Image.open(task / "graphs" / "ep-gr_gen_off.png").convert("RGB")
    colours = {}
    for run in ("Medium", "Poor"):
        img = Image.open(task / "runs" / run / "ep-gr_gen_off.png").convert("RGB")
        assert img.size == shared.size and img.tobytes() != shared.tobytes()
        colours[run] = {c for _, c in img.getcolors(1 << 20)}
        assert first in colours[run]  # the highlighted run: the palette's first colour
        assert second not in colours[run]  # no other run in its own colour
    assert second in {c for _, c in shared.getcolors(1 << 20)}


def test_summary_table_numbers_and_ranks(site):
    res = inexeval.evaluate(ROOT / "configs" / "co-thorough.prop")
    page = parse(site / "site" / "CO.Thorough" / "index.html")
    tables = page.findall(".//table[@class='sortable summary']")
    assert len(tables) == len(res.settings) == 3
    for setting, table in zip(res.settings, tables):
        heads = [th.findtext("button") for th in table.findall("thead/tr/th")]
        assert heads == ["Run", *res.measures]
        rows = table.findall("tbody/tr")
        assert [tr.find("td/a").text for tr in rows] == res.runs
        for tr, run in zip(rows, res.runs):
            avg = res.average(run, setting)
            for td, m in zip(tr.findall("td")[1:], res.measures):
                v = avg[m]
                assert td.get("data-value") == ("" if v is None else repr(v))  # full precision, exactly
                assert td.text == ("\u2013" if v is None else f"{v:.4f}")
    # ranks on the run page: 1 + the runs strictly better
    poor = parse(site / "site" / "CO.Thorough" / "runs" / "Poor.html")
    rows = poor.findall(".//table")[0].findall("tbody/tr")
    maep = {run: res.average(run, "gen_off")["MAep"] for run in res.runs}
    expected = 1 + sum(v > maep["Poor"] for v in maep.values())
    assert [r.findtext("td[3]") for r in rows if r.findtext("td[1]") == "MAep"] == [f"{expected} of 4"]


def test_ranks_share_ties_and_skip_undefined():
    """Ranks follow what the measures declare: E@k smaller is better, counts are not ranked."""
    from inexeval.measures import registry
    from inexeval.measures.registry import Params, output_facts

    measures = [registry.find(n, "trec") for n in ("map", "E@10", "num_ret", "P_5")]
    facts = output_facts(measures, Params())
    assert (facts["E@10"].lower_is_better, facts["num_ret"].ranks_runs, facts["num_ret"].count) == (True, False, True)
    assert not facts["map"].lower_is_better and facts["map"].ranks_runs
    assert ranks({"a": 0.5, "b": 0.7, "c": 0.5 + 1e-12, "d": None}, "map", facts) == {"a": 2, "b": 1, "c": 2, "d": None}
    assert ranks({"a": 0.5, "b": 0.7}, "E@10", facts) == {"a": 1, "b": 2}  # 1 - F: the smaller the better
    assert ranks({"a": 5.0, "b": 7.0}, "num_ret", facts) == {"a": None, "b": None}  # a count, not ranked
    assert ranks({"a": 5.0, "b": 7.0}, "undeclared", facts) == {"a": 2, "b": 1}


def test_validation_findings_on_the_run_page(site):
    # Poor.xml has an invalid path and a duplicate (sample_data/README.md): validate reports them
    page = (site / "site" / "CO.Focussed" / "runs" / "Poor.html").read_text(encoding="utf-8")
    assert "INVALID" in page and "Poor.xml:" in page
    index = parse(site / "site" / "CO.Focussed" / "index.html")
    verdicts = {tr.findtext("td[2]/a"): tr.findtext("td[3]") for tr in
                index.find(".//h2[@id='validation']").getnext().getnext().findall(".//tbody/tr")}
    assert verdicts == {"Medium": "valid", "NearIdeal": "valid", "Poor": "INVALID", "TextRun": "valid"}


def test_same_inputs_same_bytes(site, tmp_path):
    """The report from result files read back, and re-evaluated, is the first one byte for byte (PNGs too)."""
    first = files(site / "site")
    assert any(k.endswith(".png") for k in first)
    res = report(*config_args(), "--results-dir", str(site / "results"), "--html", str(tmp_path / "reused"),
                 "--quiet")
    assert res.exit_code == 0, res.output
    assert files(tmp_path / "reused") == first
    res = report(*config_args(["co-thorough", "trec"]), "--results-dir", str(site / "results"),
                 "--html", str(tmp_path / "again"), "--reevaluate", "--quiet")
    assert res.exit_code == 0, res.output
    again = files(tmp_path / "again")
    # in one process (the command line validates and draws in one per core): the same bytes
    from inexeval.report import build_report

    assert build_report([ROOT / "configs" / "co-thorough.prop"], tmp_path / "one", results_dir=site / "results",
                        jobs=1) == 0
    one = files(tmp_path / "one")
    assert {k: v for k, v in one.items() if k.startswith("CO.Thorough/")} == \
        {k: v for k, v in first.items() if k.startswith("CO.Thorough/")}
    for name in ("CO.Thorough/index.html", "CO.Thorough/runs/Medium.html", "CO.Thorough/graphs/ep-gr_gen_off.png",
                 "CO.Thorough/runs/Medium/ep-gr_gen_off.png", "trec/index.html", "report.js"):
        assert again[name] == first[name], name


def test_names_escaped_and_safe_as_file_names(tmp_path):
    runs = tmp_path / "runs"
    shutil.copytree(ROOT / "sample_data" / "inex2005" / "runs" / "CO", runs)
    nasty = '<script>alert("x")</script> & co'
    medium = (runs / "Medium.xml").read_text(encoding="utf-8")
    (runs / "Medium.xml").write_text(medium.replace('run-id="Medium"', 'run-id="&lt;script&gt;alert(&quot;x&quot;)'
                                                                       '&lt;/script&gt; &amp; co"'), encoding="utf-8")
    cfg = tmp_path / "c.prop"
    cfg.write_text((ROOT / "configs" / "co-focussed.prop").read_text(encoding="utf-8")
                   .replace("../sample_data", str(ROOT / "sample_data"))
                   .replace(f"SUBMISSIONRUNS_DIR: {ROOT / 'sample_data'}/inex2005/runs/CO/", f"SUBMISSIONRUNS_DIR: {runs}"),
                   encoding="utf-8")
    (runs / "broken.xml").write_text('<inex-submission run-id="broken">\n<topic topic-id="202">\n',
                                     encoding="utf-8")
    res = report("-config", str(cfg), "--html", str(tmp_path / "site"), "--results-dir", str(tmp_path / "r"),
                 "--quiet")
    assert res.exit_code == 1, res.output  # the broken run skipped, as evaluation skips it; the rest reported
    site = tmp_path / "site" / "CO.Focussed"
    page = site / "runs" / f"{file_component(nasty)}.html"
    assert page.is_file() and re.fullmatch(r"[A-Za-z0-9._+~-]+", page.stem)
    for p in (tmp_path / "site").rglob("*.html"):
        text = p.read_text(encoding="utf-8")
        assert "<script>alert" not in text and '"x"' not in text, p
        assert all(s.get("src", "").endswith("report.js") for s in parse(p).iter("script")), p
    assert parse(page).findtext(".//h1") == nasty
    index = parse(site / "index.html")
    links = [a for a in index.iter("a") if a.text == nasty]
    assert links and all(a.get("href") == f"runs/{page.name}" for a in links)
    # the run evaluation skipped: not scored, with validate's finding and evaluation's message
    rows = [[td.xpath("string()") for td in tr.findall("td")] for tr in index.find(".//h2[@id='validation']")
            .getnext().getnext().findall(".//tbody/tr")]
    assert ["runs/broken.xml", "broken (not scored)", "INVALID", "1"] in [r[:4] for r in rows]
    text = (site / "index.html").read_text(encoding="utf-8")
    assert "broken.xml:3</code>: problem: unreadable: malformed XML" in text and "Inputs skipped" in text
    assert not (site / "runs" / "broken.html").exists()


def test_an_earlier_report_is_replaced_and_other_directories_refused(tmp_path):
    args = [*config_args(["trec"]), "--results-dir", str(tmp_path / "results"), "--quiet"]
    own = tmp_path / "mine"
    own.mkdir()
    (own / "notes.txt").write_text("keep me")
    res = report(*args, "--html", str(own))
    assert res.exit_code == 2 and "holds no inexeval report" in res.output
    assert sorted(os.listdir(own)) == ["notes.txt"]
    site = tmp_path / "site"
    assert report(*args, "--html", str(site)).exit_code == 0
    (site / "trec" / "runs" / "gone.html").write_text("an old page")
    assert report(*args, "--html", str(site)).exit_code == 0
    assert not (site / "trec" / "runs" / "gone.html").exists()
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]  # no staging directory left
    for inside in ("results", "results/trec", "results/trec/site", "."):
        res = report(*args, "--html", str(tmp_path / inside))
        assert res.exit_code == 2 and "would replace, or be replaced with, the result files" in res.output, inside
    (tmp_path / "file").write_text("")
    res = report(*args, "--html", str(tmp_path / "file"))
    assert res.exit_code == 2 and "not a directory" in res.output


def test_bad_measure_is_refused_before_any_work(tmp_path):
    res = report(*config_args(["trec"]), "--results-dir", str(tmp_path / "r"), "--html", str(tmp_path / "s"),
                 "--measure", "nope")
    assert res.exit_code == 2 and "--measure: 'nope' is not a measure of trec" in res.output
    assert not (tmp_path / "s").exists() and not (tmp_path / "r").exists()
    res = report(*config_args(["trec"]), "--results-dir", str(tmp_path / "r"), "--html", str(tmp_path / "s"),
                 "--measure", "P_10", "--test", "bootstrap", "--quiet")
    assert res.exit_code == 0, res.output
    text = (tmp_path / "s" / "trec" / "index.html").read_text(encoding="utf-8")
    assert "<h3>Significance: P_10</h3>" in text and "Paired bootstrap test" in text


# ------------------------------------------------------------------------------------ in a browser

CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]


@pytest.fixture(scope="module")
def browser_tools():
    """chromium's path and playwright (checked before the site is built: skipping costs nothing)."""
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    require_system_tool("chromium (Debian: apt-get install chromium)", chromium is not None)
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        sync_playwright = None
    require_system_tool("the Python package playwright (pip install -e '.[test]')", sync_playwright is not None)
    return chromium, sync_playwright


def test_in_a_browser_from_file_urls(browser_tools, site):
    chromium, sync_playwright = browser_tools
    root = site / "site" / "CO.Thorough"
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page()
            errors = []
            page.on("console", lambda m: errors.append(m.text) if m.type in ("error", "warning") else None)
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.on("requestfailed", lambda r: errors.append(f"failed: {r.url}"))
            for url in ((root / "index.html").as_uri(), (root / "runs" / "Medium.html").as_uri()):
                page.goto(url, wait_until="load")
                images = page.eval_on_selector_all("img", "imgs => imgs.map(i => [i.complete, i.naturalWidth])")
                assert images and all(done and width > 0 for done, width in images), (url, images)
                assert errors == [], (url, errors)
            page.goto((root / "index.html").as_uri(), wait_until="load")
            table = page.locator("table.headline").first  # (the headline table: open, runs best first)
            column = table.locator("thead th").evaluate_all("ths => ths.map(t => t.textContent)").index("MAep")

            def values():
                return [float(v) for v in table.locator(f"tbody tr td:nth-child({column + 1})")
                        .evaluate_all("tds => tds.map(t => t.dataset.value)")]

            before = values()
            table.locator("thead th").nth(column).locator("button").click()
            after = values()
            assert before == after == sorted(before, reverse=True)  # shown best first; the click keeps it
            assert len(set(before)) > 1
            assert table.locator("thead th").nth(column).get_attribute("aria-sort") == "descending"
            table.locator("thead th").nth(column).locator("button").click()
            assert values() == sorted(before)
            runs = table.locator("tbody tr td:first-child").evaluate_all("tds => tds.map(t => t.textContent)")
            res = inexeval.evaluate(ROOT / "configs" / "co-thorough.prop", QUANT_FUNCTIONS="gen")
            assert runs == sorted(res.runs, key=lambda r: res.average(r)["MAep"])
            assert errors == []
        finally:
            browser.close()


def test_html_may_be_a_symbolic_link_to_a_directory(tmp_path):
    """--html LINK, LINK naming a directory (new, empty or an earlier report): the site is written where
    the link points and the link still names it; a link to nothing or to a file is refused (exit 2)."""
    args = [*config_args(["trec"]), "--results-dir", str(tmp_path / "results"), "--quiet"]
    real = tmp_path / "www" / "site"
    real.mkdir(parents=True)
    link = tmp_path / "public_html"
    link.symlink_to(real)
    for _ in range(2):  # into the empty directory, then over the earlier report
        res = report(*args, "--html", str(link))
        assert res.exit_code == 0, res.output
        assert link.is_symlink() and os.readlink(link) == str(real)
        assert (real / "trec" / "index.html").is_file() and (link / "index.html").is_file()
    assert not [p for p in (tmp_path / "www").iterdir() if p.name != "site"]  # no staging directory left
    (tmp_path / "file").write_text("")
    for target, what in ((tmp_path / "nowhere", "nothing"), (tmp_path / "file", "something that is not a directory")):
        bad = tmp_path / f"link-{target.name}"
        bad.symlink_to(target)
        res = report(*args, "--html", str(bad))
        assert res.exit_code == 2 and f"a symbolic link to {what}" in res.output, res.output
    into_results = tmp_path / "link-results"
    into_results.symlink_to(tmp_path / "results")
    res = report(*args, "--html", str(into_results))
    assert res.exit_code == 2 and "would replace, or be replaced with, the result files" in res.output


def test_no_page_holds_a_path_of_the_organisers_machine(tmp_path):
    """Every shipped config reported from a checkout under a home directory: no page holds the checkout's
    or the home directory's absolute path (the evaluation notes name the runs with a duplicate result,
    the validation findings the files), although the messages on the terminal do."""
    home = tmp_path / "home" / "organiser"
    checkout = home / "work" / "inexeval"
    for part in ("configs", "sample_data"):
        shutil.copytree(ROOT / part, checkout / part)
    configs = sorted((checkout / "configs").glob("*.prop"))
    env = {**os.environ, "HOME": str(home)}
    args = [a for c in configs for a in ("-config", str(c))]
    import subprocess
    import sys

    res = subprocess.run([sys.executable, "-m", "inexeval", "report", *args, "--html", str(checkout / "site"),
                          "--results-dir", str(checkout / "results")], cwd=checkout, env=env,
                         capture_output=True, text=True)
    assert res.returncode == 0, res.stderr
    assert f"{checkout}/sample_data/inex2005/runs" in res.stderr  # the terminal names the files in full
    pages = sorted((checkout / "site").rglob("*.html"))
    assert len(pages) > len(configs)
    for page in pages:
        text = page.read_text(encoding="utf-8")
        for private in (str(home), str(checkout), str(tmp_path), str(home.resolve())):
            assert private not in text, (page, private, text[max(0, text.find(private) - 200):][:400])
    noted = [p for p in pages if "Poor.xml: 1 duplicate result" in p.read_text(encoding="utf-8")]
    assert noted and all("Evaluation notes" in p.read_text(encoding="utf-8") for p in noted)


#: where the browser test leaves its screenshots for a person to look at (build/ is not committed)
SCREENSHOTS = ROOT / "build" / "screenshots"


def _hostile_trec_site(tmp_path: Path) -> tuple[Path, str, str]:
    """A TREC report whose run id and topic id are markup (the reliability issue's hostile ids)."""
    run_id, topic = "<img/src=x/onerror=alert(1)>&run", "<b>402</b>"
    runs = tmp_path / "hostile-runs"
    runs.mkdir()
    for src in (ROOT / "sample_data" / "trec" / "runs").iterdir():
        lines = src.read_text().splitlines()
        name = run_id if src.stem == "good" else src.stem
        (runs / src.name).write_text("".join(
            f"{topic if f[0] == '402' else f[0]} {f[1]} {f[2]} {f[3]} {f[4]} {name}\n"
            for f in (line.split() for line in lines) if f))
    qrels = tmp_path / "qrels.txt"
    qrels.write_text("".join(line.replace("402 ", f"{topic} ", 1) + "\n" if line.startswith("402 ") else line + "\n"
                             for line in (ROOT / "sample_data" / "trec" / "qrels.txt").read_text().splitlines()))
    cfg = tmp_path / "hostile.prop"
    cfg.write_text((ROOT / "configs" / "trec.prop").read_text()
                   .replace("../sample_data/trec/runs/", str(runs) + "/")
                   .replace("../sample_data/trec/qrels.txt", str(qrels))
                   .replace("../results", str(tmp_path / "results")))
    res = report("-config", str(cfg), "--html", str(tmp_path / "hostile"), "--quiet")
    assert res.exit_code == 0, res.output
    return tmp_path / "hostile", run_id, topic


def test_every_page_kind_in_a_browser(browser_tools, site, tmp_path):
    """Each page kind (index, task, run, side by side; TREC, element and passage tasks) opened in chromium:
    every image loads, nothing fails; a wide table keeps its run column in view when scrolled; a
    side-by-side page shows both lists; hostile ids are text (no script runs).  Screenshots are left in
    build/screenshots/."""
    chromium, sync_playwright = browser_tools
    root = site / "site"
    hostile, run_id, topic = _hostile_trec_site(tmp_path)
    kinds = {"index": root / "index.html", "task-trec": root / "trec" / "index.html",
             "run-trec": root / "trec" / "runs" / "good.html", "panel-trec": root / "trec" / "runs" / "good" / "topics"
             / "401.html", "task-co-thorough": root / "CO.Thorough" / "index.html",
             "run-co-thorough": root / "CO.Thorough" / "runs" / "Medium.html",
             "panel-co-thorough": next((root / "CO.Thorough" / "runs" / "Medium" / "topics").iterdir()),
             "panel-fol-focused": next(next((root / "FOL.Focused" / "runs").glob("*/topics")).iterdir()),
             "run-hostile": hostile / "trec" / "runs" / f"{file_component(run_id)}.html"}
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 900, "height": 900})
            errors, dialogs = [], []
            page.on("console", lambda m: errors.append(m.text) if m.type in ("error", "warning") else None)
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.on("requestfailed", lambda r: errors.append(f"failed: {r.url}"))
            page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
            for kind, path in kinds.items():
                page.goto(path.as_uri(), wait_until="load")
                images = page.eval_on_selector_all("img", "imgs => imgs.map(i => [i.complete, i.naturalWidth])")
                assert all(done and width > 0 for done, width in images), (kind, images)
                assert errors == [] and dialogs == [], (kind, errors, dialogs)
                page.screenshot(path=str(SCREENSHOTS / f"{kind}.png"), full_page=True)
                if kind.startswith("panel"):
                    for side in ("a", "b"):
                        cells = page.locator(f'td[id^="{side}-"]')
                        assert cells.count() > 0 and cells.first.is_visible(), (kind, side)
            # the run column in view while the wide summary table scrolls to its far right
            page.goto(kinds["task-trec"].as_uri(), wait_until="load")
            page.locator("details > summary", has_text="Every measure").first.click()
            box = page.locator("table.summary:not(.headline)").first.locator("xpath=..")  # its scrolling box
            assert box.evaluate("b => b.scrollWidth > b.clientWidth + 200")  # wide: it does scroll
            box.evaluate("b => { b.scrollLeft = b.scrollWidth; }")
            run_cell = box.locator("tbody td.id").first
            left, right = box.bounding_box()["x"], run_cell.bounding_box()["x"]
            assert abs(right - left) < 2, (left, right)  # stuck to the left edge, not scrolled away
            assert run_cell.is_visible() and run_cell.text_content() in ("good", "medium", "poor")
            page.screenshot(path=str(SCREENSHOTS / "task-trec-scrolled.png"))
            # hostile ids: the text itself, in the heading and in the side-by-side link's page
            page.goto(kinds["run-hostile"].as_uri(), wait_until="load")
            assert page.locator("h1").text_content() == run_id
            assert page.locator("img[src=x]").count() == 0 and page.locator("td b").count() == 0
            row = page.locator("tbody tr").filter(has_text=topic).first
            assert row.locator("td").first.text_content() == topic
            row.locator("a", has_text="vs ").click()
            page.wait_for_load_state("load")
            assert page.locator("h1").text_content().startswith(f"Topic {topic}: {run_id} and ")
            assert page.locator("h1 b").count() == 0 and page.locator("img[src=x]").count() == 0
            assert dialogs == [] and errors == [], (dialogs, errors)
            page.screenshot(path=str(SCREENSHOTS / "panel-hostile.png"), full_page=True)
        finally:
            browser.close()
    assert {p.stem for p in SCREENSHOTS.glob("*.png")} >= {*kinds, "task-trec-scrolled", "panel-hostile"}
