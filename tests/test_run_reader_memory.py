"""The run reader holds what MAX_RESULTS keeps, not what a run holds (docs/formats.md §1.3).

A long topic (an XML ``<topic>`` or consecutive text lines) is handed to the
hygiene in blocks of at most ``runs._BLOCK`` results; the XML tree is cut
between two chunks fed to the parser.  These tests check, on structure
sizes (never timings or memory), that what is held stays bounded, and that
the outcome (topics, warnings, validation findings, scores) is exactly that
of reading the topic as one block.
"""

from __future__ import annotations

import random

import pytest

import inexeval
import inexeval.readers as readers_module
import inexeval.readers.runs as runs_module
from inexeval.errors import InputError
from inexeval.readers.runs import RunObserver, RunReader, _RunBuilder, read_run
from inexeval.validate import format_reports, validate_run
from inexfiles import write_config, write_t1_assessments
from t1data import EL

pytestmark = pytest.mark.slow  # long topics read in blocks

MAX = 50
N = 20_000


def filler(i: int) -> tuple[str, str]:
    """An unlisted element (not in T1's recall-base), distinct for each i."""
    return ("f9", f"/article[1]/sec[{i // 100 + 1}]/p[{i % 100 + 1}]")


def long_topic() -> list[tuple[str, str]]:
    """20,000 results: T1's listed elements among the first 50, then fillers, with T1 again later
    (beyond MAX_RESULTS: they must not count)."""
    keys = [filler(i) for i in range(N)]
    for at, k in zip((0, 3, 7, 12, 20, 33, 49, 60, 9000, 19_999), ("A", "S1", "P1", "P2", "S2", "P3", "B", "B1", "S3", "P4")):
        keys[at] = EL[k]
    return keys


def xml_run(path, keys, topic="1", run_id="R", task="CO.Thorough"):
    results = "\n".join(f"<result><file>{f}</file><path>{p}</path><rank>{i}</rank><rsv>{-i}</rsv></result>"
                        for i, (f, p) in enumerate(keys, 1))
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f'<?xml version="1.0"?>\n<inex-submission run-id="{run_id}" task="{task}">\n'
                    f'<topic topic-id="{topic}">\n{results}\n</topic>\n</inex-submission>\n')
    return path


def text_run(path, keys, topic="1", run_id="R"):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(f"{topic} Q0 {f} {i} {-i} {run_id} {p}\n" for i, (f, p) in enumerate(keys, 1)))
    return path


@pytest.mark.parametrize("fmt", ["xml", "text"])
@pytest.mark.parametrize("task", ["CO.Thorough", "CO.Focussed"])
def test_long_topic_scores_as_the_truncated_run(tmp_path, fmt, task):
    """20,000 results under MAX_RESULTS 50 score exactly as the run of its first 50 results."""
    write_t1_assessments(tmp_path / "assess" / "pool-11.xml")
    keys = long_topic()
    write = xml_run if fmt == "xml" else text_run
    ext = "xml" if fmt == "xml" else "txt"
    write(tmp_path / "long" / f"r.{ext}", keys)
    write(tmp_path / "short" / f"r.{ext}", keys[:MAX])
    scores = {}
    for name in ("long", "short"):
        config = write_config(tmp_path / f"{name}.prop", task=task, assessments_dir="assess",
                              submissionruns_dir=name, results_dir=f"out-{name}", quant_functions="gen,strict",
                              max_results=MAX)
        res = inexeval.evaluate(config)
        scores[name] = {s: (res.per_topic("R", setting=s), res.average("R", setting=s)) for s in res.settings}
    assert scores["long"] == scores["short"]
    assert any(v for per, avg in scores["short"].values() for v in avg.values())  # not all zero
    run = read_run(tmp_path / "long" / f"r.{ext}", max_results=MAX)
    assert run.topics == {"1": keys[:MAX]}
    assert run.warnings == [f"{run.source}: {N - MAX} results beyond MAX_RESULTS={MAX} dropped (topic 1)"]


class Held(RunObserver):
    """Records, each time it is told something, how much the reader holds."""

    wants_rsv = True

    def __init__(self, builder: _RunBuilder):
        self.builder = builder
        self.tree_results = []  # <result> elements in the XML tree at each block
        self.block_sizes = []
        self.kept = []  # keys kept so far per topic, at each block

    def issue(self, issue):
        self.builder.issue(issue)

    def block(self, block, kept, keys):
        self.block_sizes.append(block.n)
        lines = block.line
        if isinstance(lines, runs_module._XmlLines):
            self.tree_results.append(sum(1 for _ in lines._topic.getroottree().iter("result")))
        self.builder.block(block, kept, keys)
        self.kept.append(max(map(len, self.builder.topics.values())))


@pytest.mark.parametrize("fmt", ["xml", "text"])
def test_reader_holds_at_most_a_block_and_max_results_keys(tmp_path, monkeypatch, fmt):
    """A 20,000-result topic, blocks of 500, chunks of 4 KiB: the tree never holds more than a block and
    a chunk's results, the keys kept never exceed MAX_RESULTS, and every result is seen once."""
    monkeypatch.setattr(runs_module, "_BLOCK", 500)
    monkeypatch.setattr(readers_module, "FEED_BYTES", 4096)
    keys = long_topic()
    path = (xml_run if fmt == "xml" else text_run)(tmp_path / f"r.{fmt}", keys)
    held = Held(_RunBuilder(str(path), MAX))
    RunReader(path, max_results=MAX).read(held)
    assert sum(held.block_sizes) == N
    assert max(held.kept) == MAX and held.builder.topics == {"1": keys[:MAX]}
    if fmt == "xml":  # handed over between chunks once the topic holds more than a block
        per_chunk = 4096 // len("<result><file>f9</file><path>/article[1]</path><rank>1</rank><rsv>-1</rsv></result>")
        assert max(held.block_sizes) <= 500 + per_chunk and len(held.block_sizes) >= N // (500 + per_chunk)
        assert max(held.tree_results) <= 500 + per_chunk + 1
    else:  # blocks of exactly 500 lines
        assert held.block_sizes == [500] * (N // 500)
    assert held.builder.warnings("R") == [f"{path}: {N - MAX} results beyond MAX_RESULTS={MAX} dropped (topic 1)"]


def test_default_block_bounds_the_tree(tmp_path):
    """With the shipped sizes, a topic of 20,000 results is never held whole."""
    keys = long_topic()
    path = xml_run(tmp_path / "r.xml", keys)
    held = Held(_RunBuilder(str(path), MAX))
    RunReader(path, max_results=MAX).read(held)
    assert len(held.block_sizes) > 1
    assert max(held.tree_results) <= runs_module._BLOCK + readers_module.FEED_BYTES // 60 + 1 < N


# ----------------------------------------------------------------------- splitting changes nothing


def _messy_xml(rnd: random.Random, *, nested: bool, no_id: bool, outside: int) -> str:
    """A submission with duplicates, invalid paths, rank disorder, non-integer ranks, absent fields,
    repeated and empty topics, other children; optionally nested results, a topic without id, results outside topics."""
    files = ["an/2001/a1001", "an/2001/a1002.xml", "cg/1999/g0001"]
    paths = ["/article[1]", "/article[1]/sec[{}]", "/article[1]/sec[2]/p[{}]", "/article[1]/sec[0]"]

    def result(i: int) -> str:
        f = rnd.choice(files)
        p = rnd.choice(paths[:3] if rnd.random() > 0.005 else paths).format(rnd.randint(1, 40))
        x = rnd.random()
        rank = "" if x < 0.002 else f"<rank>{'n/a' if x < 0.004 else i - 3 if x < 0.01 else i}</rank>"
        path = "" if rnd.random() < 0.001 else f"<path>{p}</path>"
        inner = f"<x>{result(i)}</x>" if nested and rnd.random() < 0.001 else ""
        return f"<result><file>{f}</file>{path}{rank}<rsv>{-i}</rsv>{inner}</result>"

    parts = ['<?xml version="1.0"?>', '<inex-submission run-id="m" task="CO.Focussed">']
    parts += [result(0) for _ in range(outside)]
    for t, n in (("1", 3000), ("2", 40), ("3", 0), ("1", 2500), ("4", 1200)):
        ident = "" if no_id and t == "2" else f' topic-id="{t}"'
        parts.append(f"<topic{ident}>")
        parts += [result(i) for i in range(1, n + 1)]
        if t == "4":  # other children after the results: what is left at the end holds no result
            parts += [f"<note>{i}</note>" for i in range(60)]
        parts.append("</topic>")
    parts.append("</inex-submission>")
    return "\n".join(parts) + "\n"


def _messy_text(rnd: random.Random) -> str:
    lines = []
    for t, n in (("1", 3000), ("2", 40), ("1", 2500), ("4", 1200)):
        for i in range(1, n + 1):
            rank = i - 3 if rnd.random() < 0.01 else i
            lines.append(f"{t} Q0 an/2001/a{rnd.randint(1000, 1003)} {rank} {-i} m /article[1]/sec[{rnd.randint(1, 40)}]")
    return "\n".join(lines) + "\n"


def _everything(path, max_results):
    try:
        run = read_run(path, max_results=max_results)
        outcome = (run.run_id, run.task, run.topics, run.warnings)
    except InputError as exc:
        outcome = ("error", exc.file, exc.line, exc.message)
    report = format_reports([validate_run(path, max_results=max_results)], max_per_kind=None)
    return outcome, report


@pytest.mark.parametrize("kind", ["clean", "nested", "no_id", "outside", "text"])
def test_blocks_give_the_outcome_of_whole_topics(tmp_path, monkeypatch, kind):
    """Topics cut in blocks of 7 or 300 results (chunks of 1 KiB): evaluation's topics and warnings (or its
    error) and validation's report are exactly those of reading every topic whole."""
    rnd = random.Random(15)
    if kind == "text":
        path = tmp_path / "m.txt"
        path.write_text(_messy_text(rnd))
    else:
        path = tmp_path / "m.xml"
        path.write_text(_messy_xml(rnd, nested=kind == "nested", no_id=kind == "no_id",
                                   outside=700 if kind == "outside" else 0))
    wholes = []
    for max_results in (5, 1500, 10_000):
        with monkeypatch.context() as m:
            m.setattr(runs_module, "_BLOCK", 10**9)
            whole = _everything(path, max_results)
        wholes.append(whole)
        for block in (7, 300):
            with monkeypatch.context() as m:
                m.setattr(runs_module, "_BLOCK", block)
                m.setattr(readers_module, "FEED_BYTES", 1024)
                assert _everything(path, max_results) == whole, (block, max_results)
    outcome, report = wholes[0]  # MAX_RESULTS 5
    if kind in ("clean", "text"):  # the cases must exercise the hygiene, not only read results
        assert "beyond MAX_RESULTS" in report and "rank" in report
        assert "duplicate" in wholes[1][1] and "beyond MAX_RESULTS" in wholes[1][1]
        assert outcome[0] == "m" and any("duplicate" in w for w in wholes[1][0][3])
    else:  # evaluation refuses these runs, validation lists what it found
        assert outcome[0] == "error" and "malformed" in report
