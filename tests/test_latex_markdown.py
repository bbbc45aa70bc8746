"""Issue 31, item 3: ``--format latex`` and ``--format markdown`` (docs/formats.md §9.2.1, §9.2.6).

- on the sample configs, every value of the tables is the ``--format tsv`` value rounded to 4
  decimals (a count as an integer), and compare's tables are its files' values;
- bold is on exactly the best value of each column: every tied best, the smallest where the measure
  declares lower is better (E@k), never on a measure that does not rank runs (num_ret, num_rel);
- hostile run ids (``\\&%$#_{}~^|*``, a newline, a backtick, ``[``, ``<``, non-ASCII) are escaped: each
  id cell reads back to the id (LaTeX and Markdown unescaped, then :func:`inexeval.names.uncell`);
- the LaTeX tables compile with pdflatex where it is installed (skipped otherwise, with the reason;
  a failure under INEXEVAL_REQUIRE_SYSTEM_TOOLS=1: ``.ci/run`` installs a minimal TeX);
- every Markdown table parses as a pipe table (as many cells in every row as in its header);
- the outputs are deterministic.
"""

from __future__ import annotations

import csv
import io
import math
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import require_system_tool

from inexeval.cli.command import main
from inexeval.config.source import load
from inexeval.measures.registry import output_facts
from inexeval.names import uncell
from inexeval.plan import plan_config

REPO = Path(__file__).resolve().parent.parent
#: a run id with every character LaTeX or Markdown would read, a newline, a backtick, '[', '<', non-ASCII
HOSTILE = "M\\&%$#_{}~^|*\nx`[z<é--"
HOSTILE_XML = "M\\&amp;%$#_{}~^|*&#10;x`[z&lt;é--"
#: a TREC run id (one whitespace-free field) with the same characters
HOSTILE_TREC = "[bad]\\&%$#_{}~^|*`<''"
CONFIGS = ["co-thorough", "trec", "qa", "best-in-context", "fol-focused", "hixeval", "relevant-in-context"]
TREC_METRICS = "METRICS=map,E@5,F@5,num_ret,num_rel,num_rel_ret,P_5,iprec_at_recall_0.00,recip_rank"


def run(*args) -> str:
    res = CliRunner().invoke(main, [str(a) for a in args])
    assert res.exit_code == 0, res.output[-2000:]
    return res.output


@pytest.fixture(scope="module")
def sample(tmp_path_factory):
    """A copy of configs/ and sample_data/ with a hostile run id in the 2005 and the TREC runs."""
    root = tmp_path_factory.mktemp("sample")
    shutil.copytree(REPO / "configs", root / "configs")
    shutil.copytree(REPO / "sample_data", root / "sample_data")
    medium = root / "sample_data" / "inex2005" / "runs" / "CO" / "Medium.xml"
    text = medium.read_text(encoding="utf-8")
    assert 'run-id="Medium"' in text
    medium.write_text(text.replace('run-id="Medium"', f'run-id="{HOSTILE_XML}"'), encoding="utf-8")
    poor = root / "sample_data" / "trec" / "runs" / "poor.txt"
    poor.write_text("".join(line.rsplit(" ", 1)[0] + f" {HOSTILE_TREC}\n"
                            for line in poor.read_text().splitlines()), encoding="utf-8")
    return root


def evaluate(sample, config: str, fmt: str, *extra) -> str:
    sets = ["--set", TREC_METRICS] if config == "trec" else []
    return run("-config", sample / "configs" / f"{config}.prop", "--format", fmt, *sets, *extra,
               "--results-dir", sample / "results" / fmt, "--quiet")


def tsv_values(text: str) -> dict:
    """--format tsv: {(setting, run, topic): {measure: float | None}} and the columns per setting."""
    out, header = {}, None
    for line in text.splitlines():
        cells = line.split("\t")
        if cells[:4] == ["task", "setting", "run", "topic"]:
            header = cells
            continue
        values = {m: None if v == "-" else float(v) for m, v in zip(header[4:], cells[4:])}
        out[(cells[1], uncell(cells[2]), uncell(cells[3]))] = values
    return out


def expected_text(v: float | None, count: bool) -> str | None:
    if v is None or math.isnan(v):
        return None
    if count and v == int(v):
        return str(int(v))
    text = f"{v:.4f}"
    return "0.0000" if text == "-0.0000" else text


# ------------------------------------------------------------------------------------------ parsing

def md_split(row: str) -> list[str]:
    """A pipe-table row's cells (GFM: a backslash escapes the next character, ``\\|`` is no separator)."""
    assert row.startswith("|") and row.endswith("|") and not row.endswith("\\|"), row
    cells, cur, i, body = [], "", 0, row[1:-1]
    while i < len(body):
        ch = body[i]
        if ch == "\\" and i + 1 < len(body):
            cur += body[i:i + 2]
            i += 2
            continue
        if ch == "|":
            cells.append(cur)
            cur = ""
        else:
            cur += ch
        i += 1
    cells.append(cur)
    return [c.strip() for c in cells]


def md_unescape(text: str) -> str:
    return re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", text)


def md_tables(text: str) -> list[tuple[str, list[str], list[list[str]]]]:
    """(caption, header, rows) of every table; checks each parses as a pipe table."""
    tables, lines = [], text.splitlines()
    for i, line in enumerate(lines):
        if not line.startswith("Table: "):
            continue
        assert lines[i + 1] == "", "a blank line between the caption and the table"
        header = md_split(lines[i + 2])
        delim = md_split(lines[i + 3])
        assert len(delim) == len(header) and all(re.fullmatch(r":?-{3,}:?", d) for d in delim), lines[i + 3]
        rows = []
        for row in lines[i + 4:]:
            if not row.startswith("|"):
                break
            cells = md_split(row)
            assert len(cells) == len(header), (row, header)
            rows.append(cells)
        tables.append((line[len("Table: "):], header, rows))
    return tables


_TEX = {r"\textbackslash{}": "\\", r"\textasciitilde{}": "~", r"\textasciicircum{}": "^", r"\textless{}": "<",
        r"\textgreater{}": ">", r"\textbar{}": "|", "{}": ""}


def tex_unescape(text: str) -> str:
    pattern = "|".join(map(re.escape, _TEX)) + r"|\\([&%$#_{}])"
    return re.sub(pattern, lambda m: m[1] if m[1] else _TEX[m[0]], text)


def tex_split(row: str) -> list[str]:
    assert row.endswith(r" \\"), row
    return [c.strip() for c in re.split(r"(?<!\\)&", row[:-3])]


def tex_tables(text: str) -> list[tuple[str, list[str], list[list[str]]]]:
    """(caption, header, rows) of every table; checks the booktabs rules and the column count."""
    tables = []
    for block in re.findall(r"\\begin\{table\}\[htbp\]\n(.*?)\\end\{table\}", text, re.S):
        lines = block.splitlines()
        caption = re.fullmatch(r"\\caption\{(.*)\}", lines[1])[1]
        spec = re.fullmatch(r"\\begin\{tabular\}\{@\{\}([lr]+)@\{\}\}", lines[3])[1]
        assert lines[4] == r"\toprule" and lines[6] == r"\midrule", lines
        header = tex_split(lines[5])
        end = lines.index(r"\bottomrule")
        rows = [tex_split(r) for r in lines[7:end] if r != r"\midrule"]
        assert all(len(r) == len(header) == len(spec) for r in rows), (header, spec)
        tables.append((caption, header, rows))
    return tables


def number(cell: str, fmt: str) -> tuple[str | None, bool]:
    """(the number as ASCII or None when undefined, bold)."""
    if fmt == "latex":
        m = re.fullmatch(r"\\textbf\{(.*)\}", cell)
        bold, text = (True, m[1]) if m else (False, cell)
        text = text.replace("$-$", "-").replace("$+$", "+")
        return (None if text == "--" else text), bold
    m = re.fullmatch(r"\*\*(.*)\*\*", cell)
    bold, text = (True, m[1]) if m else (False, cell)
    return (None if text == "-" else text), bold


def id_of(cell: str, fmt: str) -> str:
    return uncell(tex_unescape(cell) if fmt == "latex" else md_unescape(cell))


def tables_of(text: str, fmt: str):
    return tex_tables(text) if fmt == "latex" else md_tables(text)


def setting_of(caption: str, fmt: str) -> str:
    text = tex_unescape(caption) if fmt == "latex" else md_unescape(caption)
    return re.match(r"[^,]+, setting ([^ ,:]+)[,:] ", text)[1]


# --------------------------------------------------------------------------------------------- tests

@pytest.mark.parametrize("fmt", ["latex", "markdown"])
@pytest.mark.parametrize("config", CONFIGS)
@pytest.mark.parametrize("per_query", [False, True])
def test_values_and_bold_are_the_tsv_values_and_the_best_per_column(sample, config, fmt, per_query):
    flags = ["-q"] if per_query else []
    tsv = tsv_values(evaluate(sample, config, "tsv", "-q"))
    text = evaluate(sample, config, fmt, *flags)
    plan = plan_config(load(sample / "configs" / f"{config}.prop",
                            (TREC_METRICS,) if config == "trec" else (), None))
    facts = output_facts(plan.measures, plan.params)
    tables = tables_of(text, fmt)
    assert len(tables) == len({k[0] for k in tsv}) >= 1
    seen = 0
    for caption, header, rows in tables:
        setting = setting_of(caption, fmt)
        measures = [id_of(h, fmt) for h in header[2 if per_query else 1:]]
        assert measures == list(plan.columns)
        got = {}
        for row in rows:
            run_id = id_of(row[0], fmt)
            topic = id_of(row[1], fmt) if per_query else "all"
            got[(run_id, topic)] = dict(zip(measures, row[2 if per_query else 1:]))
        want = {(r, t): v for (s, r, t), v in tsv.items() if s == setting and (per_query or t == "all")}
        assert set(got) == set(want)
        for topic in {t for _, t in want}:
            keys = [k for k in want if k[1] == topic]
            for m in measures:
                f = facts.get(m)
                count = f is not None and f.count
                values = {k: want[k][m] for k in keys}
                defined = {k: v for k, v in values.items() if v is not None and not math.isnan(v)}
                best = set()
                if defined and not (f is not None and (f.count or not f.ranks_runs)):
                    top = (min if f is not None and f.lower_is_better else max)(defined.values())
                    best = {k for k, v in defined.items() if abs(v - top) <= 1e-9 * max(abs(v), abs(top))}
                for k in keys:
                    shown, bold = number(got[k][m], fmt)
                    assert shown == expected_text(values[k], count), (setting, k, m, got[k][m], values[k])
                    assert bold == (k in best), (setting, k, m, "bold" if bold else "not bold", best)
                    seen += 1
    assert seen


def test_bold_rules_on_the_trec_sample(sample):
    """Ties all bold; E@5 (lower is better) bold on the smallest; counts never bold."""
    (_, header, rows), = md_tables(evaluate(sample, "trec", "markdown"))
    col = {md_unescape(h): i for i, h in enumerate(header)}
    by_run = {id_of(r[0], "markdown"): r for r in rows}
    assert by_run["good"][col["E@5"]] == "**0.3771**" and by_run["medium"][col["E@5"]] == "0.4188"
    assert by_run["good"][col["iprec_at_recall_0.00"]] == by_run["medium"][col["iprec_at_recall_0.00"]] == "**0.7500**"
    for m in ("num_ret", "num_rel", "num_rel_ret"):
        assert not any(r[col[m]].startswith("**") for r in rows), m
    assert by_run["good"][col["num_ret"]] == "80"


@pytest.mark.parametrize("fmt", ["latex", "markdown"])
def test_hostile_run_ids_are_escaped(sample, fmt):
    for config, hostile in (("co-thorough", HOSTILE), ("trec", HOSTILE_TREC)):
        text = evaluate(sample, config, fmt)
        for _, _, rows in tables_of(text, fmt):
            ids = [id_of(r[0], fmt) for r in rows]
            assert hostile in ids, ids
            cell = rows[ids.index(hostile)][0]
            if fmt == "latex":  # no LaTeX special character left unescaped
                bare = re.sub(r"\\(textbackslash|textasciitilde|textasciicircum|textless|textgreater|textbar)\{\}"
                              r"|\\[&%$#_{}]|\{\}", "", cell)
                assert not set(bare) & set("\\&%$#_{}~^<>|\n"), cell
                assert cell[0] not in "[*" and "--" not in cell and "''" not in cell, cell
            else:
                bare = re.sub(r"\\[!-/:-@\[-`{-~]", "", cell)
                assert not set(bare) & set("\\`*_|<>[]~&$\n"), cell
    # the caption escapes the ids it names, and a newline never splits a line of the table
    text = evaluate(sample, "co-thorough", fmt, "-q")
    for line in text.splitlines():
        if line.startswith(("|", "M")):
            assert "\n" not in line


@pytest.mark.parametrize("fmt", ["latex", "markdown"])
def test_compare_tables_are_compares_values(sample, fmt):
    out = run("compare", "-config", sample / "configs" / "co-thorough.prop", "--test", "randomisation", "--samples",
              "200", "--format", fmt, "--results-dir", sample / "results" / f"compare-{fmt}", "--quiet")
    base = sample / "results" / f"compare-{fmt}" / "CO.Thorough"
    sig = list(csv.DictReader(io.StringIO((base / "significance.tsv").read_text()), delimiter="\t"))
    cor = list(csv.DictReader(io.StringIO((base / "correlations.tsv").read_text()), delimiter="\t"))
    tables = tables_of(out, fmt)
    sig_tables = [t for t in tables if "two-sided paired randomisation test (200 samples, seed 0)" in t[0]]
    assert len(sig_tables) == 3
    checked = 0
    for caption, header, rows in sig_tables:
        assert "Holm" in caption and "MAep" in caption and "0.05" in caption
        setting = setting_of(caption, fmt)
        want = {(uncell(r["run_a"]), uncell(r["run_b"])): r for r in sig if r["setting"] == setting}
        assert len(rows) == len(want)
        for row in rows:
            r = want[(id_of(row[0], fmt), id_of(row[1], fmt))]
            assert row[2] == r["topics"]
            for cell, key in zip(row[3:8], ("mean_a", "mean_b", "diff", "p", "p_holm")):
                shown, bold = number(cell, fmt)
                v = None if r[key] == "-" else float(r[key])
                assert not bold
                assert shown == (None if v is None or math.isnan(v) else f"{v:+.4f}" if key == "diff" else f"{v:.4f}")
            mark = row[8].replace("{}", "").replace("\\", "")
            assert mark == ("*" if r["significant"] == "True" else ""), (row, r["significant"])
            checked += 1
    assert checked and any(HOSTILE == id_of(r[0], fmt) or HOSTILE == id_of(r[1], fmt)
                           for _, _, rows in sig_tables for r in rows)
    cor_tables = [t for t in tables if "between the run rankings" in t[0]]
    # printed: the measures' tables, and the quantisation tables of the headline measures (the task's
    # official MAep and nxCG@10/25/50); the TSV holds every table
    headline = {"MAep", "nxCG@10", "nxCG@25", "nxCG@50"}
    assert len(cor_tables) == len({(r["kind"], r["scope"], r["method"]) for r in cor
                                   if r["kind"] == "measures" or r["scope"].rsplit(" ", 1)[0] in headline})
    values = {(r["scope"], r["method"], r["a"], r["b"]): r["value"] for r in cor}
    for caption, header, rows in cor_tables:
        plain = tex_unescape(caption) if fmt == "latex" else md_unescape(caption)
        method = "kendall" if "Kendall" in plain else "spearman"
        scope = re.search(r"(?:setting|measure and overlap) (.*)\.$", plain)[1].split(" (undefined")[0]
        for row in rows:
            for j, cell in enumerate(row[1:], start=1):
                if cell:
                    v = values[(scope, method, id_of(row[0], fmt), id_of(header[j], fmt))]
                    assert number(cell, fmt)[0] == (None if v == "-" else f"{float(v):.2f}")
                    checked += 1
    assert checked > 3


def test_compare_differences_of_two_runs(sample):
    out = run("compare", "-config", sample / "configs" / "trec.prop", "--measure", "map", "--runs",
              f"good,{HOSTILE_TREC}", "--format", "markdown", "--results-dir", sample / "results" / "cmp-diff",
              "--quiet")
    diffs = [t for t in md_tables(out) if "per-topic difference" in t[0]]
    assert len(diffs) == 1
    caption, header, rows = diffs[0]
    assert uncell(md_unescape(caption)).startswith(f"Setting default, measure map: per-topic difference good - "
                                                   f"{HOSTILE_TREC}; good better on ")
    assert all(re.fullmatch(r"[+-]\d\.\d{4}", r[1]) for r in rows), rows


def test_compare_default_format_is_its_text(sample):
    args = ["compare", "-config", sample / "configs" / "trec.prop", "--measure", "map", "--results-dir",
            sample / "results" / "cmp-text", "--quiet"]
    assert run(*args) == run(*args, "--format", "table")
    assert "\\begin{table}" not in run(*args) and "Table: " not in run(*args)


@pytest.mark.parametrize("fmt", ["latex", "markdown"])
def test_deterministic(sample, fmt):
    assert evaluate(sample, "co-thorough", fmt, "-q") == evaluate(sample, "co-thorough", fmt, "-q")


def test_latex_compiles_with_pdflatex(sample, tmp_path):
    pdflatex = shutil.which("pdflatex")
    # .ci/run installs it (texlive-latex-recommended without its recommends: about 80 MB, 25 s)
    require_system_tool("pdflatex (Debian: apt-get install --no-install-recommends texlive-latex-recommended)",
                        pdflatex is not None)
    parts = [evaluate(sample, "co-thorough", "latex"), evaluate(sample, "trec", "latex", "-q"),
             evaluate(sample, "qa", "latex"),
             run("compare", "-config", sample / "configs" / "co-thorough.prop", "--format", "latex",
                 "--results-dir", sample / "results" / "cmp-tex", "--quiet"),
             run("compare", "-config", sample / "configs" / "trec.prop", "--measure", "map", "--runs",
                 f"good,{HOSTILE_TREC}", "--format", "latex", "--results-dir", sample / "results" / "cmp-tex2",
                 "--quiet")]
    (tmp_path / "tables.tex").write_text("\n".join(parts), encoding="utf-8")
    (tmp_path / "paper.tex").write_text(
        "\\documentclass{article}\n\\usepackage[T1]{fontenc}\n\\usepackage[utf8]{inputenc}\n"
        # 50 tables, most of them deferred to the end behind a matrix too large for a page: LaTeX's default
        # \maxdeadcycles (100) is too few to flush them (docs/formats.md §9.2.6 says so to users)
        "\\usepackage{booktabs}\n\\extrafloats{200}\n\\maxdeadcycles=1000\n\\begin{document}\n"
        "\\input{tables}\n\\end{document}\n",
        encoding="utf-8")
    res = subprocess.run([pdflatex, "-interaction=nonstopmode", "-halt-on-error", "paper.tex"], cwd=tmp_path,
                         capture_output=True, text=True, timeout=300, errors="replace")
    log = (tmp_path / "paper.log").read_text(errors="replace") if (tmp_path / "paper.log").exists() else ""
    assert res.returncode == 0, res.stdout[-3000:]
    assert (tmp_path / "paper.pdf").stat().st_size > 0
    assert "Undefined control sequence" not in log and "Missing character" not in log


def test_measure_names_and_ids_escape():
    from inexeval.writers import latex, markdown

    for name in ("P(rel=2)@5", "nxCG@10", "ep/gr", "MAep"):  # nothing to escape
        assert latex.escape_id(name) == name and markdown.escape_id(name) == name
    assert latex.escape_id("P_10") == r"P\_10" and markdown.escape_id("P_10") == r"P\_10"
    assert latex.escape_id("a\tb\\c") == r"a\textbackslash{}tb\textbackslash{}\textbackslash{}c"
    assert latex.escape_id("[x]") == "{}[x]" and latex.escape_id("a--b") == "a-{}-b"
    assert markdown.escape_id("a|b\nc") == r"a\|b\\nc" and markdown.escape_id("-x") == r"\-x"
    assert latex.escape_id("é") == markdown.escape_id("é") == "é"  # non-ASCII left as UTF-8
