"""Checks that every output of an evaluation stays well-formed, inside RESULTS_DIR and one-to-one
whatever the run and topic ids hold (issue 15, "names from users' files"; docs/formats.md §9.2.2)."""

from __future__ import annotations

import csv
import io
import json
import os
from pathlib import Path
from xml.sax.saxutils import quoteattr

from inexeval.names import MAX_NAME, file_component, uncell

#: one INEX pool with two judged topics, T1 and T2 (placeholders)
ASSESSMENTS = """<?xml version="1.0" encoding="UTF-8"?>
<assessments pool="11" topic={topic} version="2">
  <inex_topic topic_id={topic} query_type="CO+S" ct_no="12"/>
  <file collection="ieee" name="f1">
    <element path="/article[1]" exhaustivity="2" size="2000" rsize="700"/>
    <element path="/article[1]/sec[1]" exhaustivity="2" size="400" rsize="400"/>
    <element path="/article[1]/sec[2]" exhaustivity="1" size="600" rsize="200"/>
  </file>
  <file collection="ieee" name="f2">
    <element path="/article[1]" exhaustivity="1" size="500" rsize="100"/>
  </file>
</assessments>
"""

RESULTS = [("f1", "/article[1]/sec[1]"), ("f2", "/article[1]"), ("f1", "/article[1]/sec[2]"),
           ("f1", "/article[1]")]

CONFIG = """TASK: CO.Thorough
METRICS: ep/gr
QUANT_FUNCTIONS: gen
ASSESSMENTS_DIR: assess/
SUBMISSIONRUNS_DIR: runs/
RESULTS_DIR: out
"""


def xml_attr(text: str) -> str:
    """``text`` as an XML attribute value that reads back as ``text`` (tab, newline, CR as references)."""
    return quoteattr(text, {"\t": "&#9;", "\n": "&#10;", "\r": "&#13;"})


def write_inex(root: Path, run_ids: list[str], topics: list[str]) -> Path:
    """A config, one assessment pool per topic and one XML run per run id (each answering every topic,
    in a different order); returns the config."""
    (root / "assess").mkdir(parents=True)
    (root / "runs").mkdir()
    for i, t in enumerate(topics):
        (root / "assess" / f"pool-{i}.xml").write_text(ASSESSMENTS.format(topic=xml_attr(t)), encoding="utf-8")
    for i, rid in enumerate(run_ids):
        order = RESULTS[i % 4:] + RESULTS[: i % 4]
        body = "".join(f"<topic topic-id={xml_attr(t)}>" + "".join(
            f"<result><file>{f}</file><path>{p}</path></result>" for f, p in order) + "</topic>" for t in topics)
        (root / "runs" / f"r{i}.xml").write_text(
            f'<?xml version="1.0"?>\n<inex-submission run-id={xml_attr(rid)} task="CO.Thorough">{body}'
            "</inex-submission>\n", encoding="utf-8")
    cfg = root / "c.prop"
    cfg.write_text(CONFIG, encoding="utf-8")
    return cfg


def inside(path: Path, root: Path) -> bool:
    return os.path.commonpath([os.path.realpath(path), os.path.realpath(root)]) == os.path.realpath(root)


def single_line_fields(text: str, sep: str = "\t") -> list[list[str]]:
    """The lines of ``text`` split on ``sep``; every line must have the header's number of fields,
    and no character that other tools take for a line end may hide inside one."""
    assert text.endswith("\n") or not text
    lines = text.split("\n")[:-1] if text.endswith("\n") else text.split("\n")
    for line in lines:
        assert line == line.strip("\r") and len(line.splitlines()) <= 1, repr(line)
        assert line.replace(sep, "").isprintable(), repr(line)
    rows = [line.split(sep) for line in lines]
    assert len({len(r) for r in rows}) <= 1, rows
    return rows


def check_outputs(root: Path, out: Path, ev, stdout: dict[str, str]) -> None:
    """Every output of one evaluation of :func:`write_inex` files (``ev``, written to ``out``, with
    ``-q -gnu --topic-graphs``) and its standard output in each format (``stdout``: format -> text)."""
    ids = list(dict.fromkeys(r.run_id for r in ev.results))
    assert len(ids) == len({r.run_id for r in ev.results if r.setting == "gen_off"}), "one row per run"
    inputs = {p for p in root.rglob("*") if p.is_file() and not inside(p, out)}
    assert all(p.parent.name in ("assess", "runs") or p.name == "c.prop" for p in inputs), \
        f"written outside RESULTS_DIR: {inputs}"
    for p in out.rglob("*"):
        assert inside(p, out), p
        assert len(p.name.encode()) <= 255
        assert not p.name.endswith(".tmp"), p
    task = out / "CO.Thorough"
    # result files: one per run, each named by one run only
    files = sorted((task / "gen_off").iterdir())
    assert len(files) == len(ids), (files, ids)
    assert len({p.name.lower() for p in files}) == len(files), "distinct also ignoring case"
    for p in files:
        assert len(p.stem) <= MAX_NAME and p.stem[0] not in ".-"
        for m, t, v in single_line_fields(p.read_text(encoding="utf-8")):
            assert uncell(t) in ev.results[0].per_topic or t == "all"
    assert (task / "gen_off" / f"{file_component(ids[0])}.tsv").exists(), "the first run keeps its plain name"
    stamp = json.loads((task / ".inexeval-stamp.json").read_text())
    assert sorted(rid for _f, rid in stamp["files"]) == sorted(ids)
    assert sorted(f for f, _rid in stamp["files"]) == sorted(f"gen_off/{p.name}" for p in files)
    # summaries
    rows = single_line_fields((task / "summary.tsv").read_text(encoding="utf-8"))
    assert [uncell(r[0]) for r in rows[1:]] == ids
    assert [r["run"] for r in json.loads((task / "summary.json").read_text())] == ids
    # standard output in every format
    topics = sorted(ev.results[0].per_topic)
    n_rows = len(ids) * (len(topics) + 1)
    tsv = single_line_fields(stdout["tsv"].rstrip("\n") + "\n")
    assert len(tsv) == 1 + n_rows and sorted({uncell(r[2]) for r in tsv[1:]}) == sorted(ids)
    assert sorted({uncell(r[3]) for r in tsv[1:]} - {"all"}) == topics
    assert len(stdout["csv"].rstrip("\n").split("\n")) == 1 + n_rows
    parsed = list(csv.reader(io.StringIO(stdout["csv"])))
    assert len(parsed) == 1 + n_rows and sorted({uncell(r[2]) for r in parsed[1:]}) == sorted(ids)
    data = json.loads(stdout["json"])
    assert len(data) == n_rows and sorted({d["run"] for d in data}) == sorted(ids)
    table = stdout["table"].rstrip("\n").split("\n")
    assert len(table) == 3 + n_rows and all(line.isprintable() for line in table)
    for line in stdout["trec_eval"].rstrip("\n").split("\n"):
        assert len(line.split("\t")) == 3 and line.replace("\t", "").isprintable(), repr(line)
    assert stdout["trec_eval"].count("\nrunid") + stdout["trec_eval"].startswith("runid") == len(ids)
    # graphs: .dat header one column per run, .gp titles from it, one directory per topic
    graphs = task / "graphs"
    dat = single_line_fields((graphs / "ep-gr_gen_off.dat").read_text(encoding="utf-8").split("\n", 1)[1])
    assert [uncell(c) for c in dat[0][1:]] == ids and len(dat) == 101
    assert all(line.isprintable() for line in (graphs / "ep-gr_gen_off.gp").read_text().split("\n"))
    dirs = sorted((graphs / "topics").iterdir())
    assert len(dirs) == len(topics) and len({d.name.lower() for d in dirs}) == len(dirs)
    for d in dirs:
        assert d.parent == graphs / "topics" and d.name not in (".", "..") and d.name[0] not in ".-"
        assert sorted(p.name for p in d.iterdir()) == ["ep-gr_gen_off.dat", "ep-gr_gen_off.gp"]


def evaluate_all_formats(cfg: Path):
    """Evaluate ``cfg`` as ``-q -gnu --topic-graphs`` does; (evaluation, exit status, stdout per format)."""
    from inexeval.api import EvalOptions, results_text, run_evaluation

    ev, status = run_evaluation(cfg, EvalOptions(per_query=True, gnuplot=True, topic_graphs=True, quiet=True))
    formats = ("table", "tsv", "csv", "json", "trec_eval")
    return ev, status, {f: results_text(ev, fmt=f, digits=None, per_query=True) for f in formats}
