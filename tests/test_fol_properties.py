"""Properties of the FOL tasks on random qrels and runs (tests/folgen.py; docs/fol.md).

- the ratios lie in [0, 1] (NaN only for a topic with nothing relevant), counts are integers ≥ 0;
- the ideal run scores MAiP = 1 (Focused, Thorough) and MAgP = 1 (Relevant and Best in Context);
- a run's XML twin, and its gzip-compressed copy, score exactly as the text run;
- an element run, turned into passages through the collection, scores exactly as the FOL run of
  the same passages (offsets and lengths known by construction of the documents).
"""

from __future__ import annotations

import gzip
import math
import random
from pathlib import Path

import pytest

import inexeval
from folgen import ideal_run, qrels_text, random_qrels, random_run, run_text, run_xml, write

TASKS = {"t": "FOL.Thorough", "f": "FOL.Focused", "r": "FOL.RelevantInContext", "b": "FOL.BestInContext",
         "i": "FOL.T2I"}
SEEDS = range(5)
COUNTS = {"num_q", "num_ret", "num_rel", "num_rel_ret", "ret_size", "rel_size", "rel_ret_size"}
#: Outputs that are NaN for a topic with nothing relevant (recall over nothing, docs/fol.md §3).
NAN_WHEN_NOTHING_RELEVANT = ("art_rec", "char_rec", "gR[", "AgP", "MAgP")


def _evaluate(tmp_path: Path, task: str, qrels: Path, runs: list[Path], empty_as_zero: bool = False, **keys):
    config = {"TASK": TASKS[task], "ASSESSMENTS_DIR": str(qrels), "SUBMISSIONRUNS_DIR": [str(r) for r in runs],
              **keys}
    res = inexeval.evaluate(config, empty_as_zero=empty_as_zero)
    assert not res.problems, res.problems
    return res


def _plain(values: dict) -> dict:
    return {k: "NaN" if isinstance(v, float) and math.isnan(v) else v for k, v in values.items()}


def _all_values(res, run: str) -> tuple:
    return _plain(res.average(run)), {t: _plain(v) for t, v in res.per_topic(run).items()}


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("task", list(TASKS))
def test_ranges_ideal_twins_gzip(task, seed, tmp_path):
    rng = random.Random(seed)
    qrels, nothing = random_qrels(rng)
    q = write(tmp_path / "qrels.txt", qrels_text(qrels))
    rows = random_run(rng, qrels, task)
    text = write(tmp_path / "text.txt", run_text(rows, "T"))
    xml = write(tmp_path / "twin.xml", run_xml(rows, "T"))
    gz = tmp_path / "zipped.txt.gz"
    gz.write_bytes(gzip.compress(text.read_bytes()))
    ideal = write(tmp_path / "ideal.txt", run_text(ideal_run(qrels, task), "I"))
    for e in (False, True):
        res = _evaluate(tmp_path, task, q, [text, xml, gz, ideal], empty_as_zero=e)
        base = _all_values(res, "text")
        assert _all_values(res, "twin") == base, "the XML twin scores as the text run"
        assert _all_values(res, "zipped") == base, "gzip = plain"
        for run in ("text", "ideal"):
            for t, values in [*res.per_topic(run).items(), ("all", res.average(run))]:
                for name, v in values.items():
                    if math.isnan(v):
                        assert t in (nothing, "all") and name.startswith(NAN_WHEN_NOTHING_RELEVANT), (t, name)
                    elif name in COUNTS:
                        assert v >= 0 and v == int(v), (t, name, v)
                    else:
                        assert 0.0 <= v <= 1.0, (run, t, name, v)
        if task != "i" and not e:  # T2I reads on past the relevant text: an ideal article need not score 1
            assert res.value("ideal", "MAiP" if task in "ft" else "MAgP") == 1.0
    assert res.average("text")["num_q"] == len(qrels)


# ------------------------------------------------------------------ element runs ----

def _collection(rng: random.Random, root: Path) -> dict[str, dict[str, tuple[int, int]]]:
    """Random articles written under ROOT; file -> path -> (offset, length), known by construction."""
    root.mkdir()
    docs = {}
    for d in range(4):
        name = f"a{d}"
        text, where, xml = 0, {}, ["<article>"]
        head = "T" * rng.randint(0, 5)
        xml.append(f"<title>{head}&amp;</title>")
        where["/article[1]/title[1]"] = (0, len(head) + 1)
        text = len(head) + 1
        for s in range(1, rng.randint(2, 4)):
            sec_start = text
            xml.append("<sec>")
            for p in range(1, rng.randint(2, 5)):
                words = "x" * rng.randint(0, 60)
                xml.append(f"<p>{words}&#233;</p>")
                where[f"/article[1]/sec[{s}]/p[{p}]"] = (text, len(words) + 1)
                text += len(words) + 1
            xml.append("</sec>")
            where[f"/article[1]/sec[{s}]"] = (sec_start, text - sec_start)
        xml.append("</article>")
        where["/article[1]"] = (0, text)
        (root / f"{name}.xml").write_text("".join(xml), encoding="utf-8")
        docs[name] = where
    return docs


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("task", list(TASKS))
def test_element_run_scores_as_its_passages(task, seed, tmp_path):
    rng = random.Random(seed)
    docs = _collection(rng, tmp_path / "collection")
    lines = []
    for t in ("1", "2", "3"):
        for name, where in docs.items():
            leaves = [p for p in where if "/p[" in p or "/title[" in p]
            passages = rng.sample(leaves, rng.randint(1, min(3, len(leaves))))
            parts = sorted(where[p] for p in passages)
            rel = sum(n for _, n in parts)
            if rel and rng.random() < 0.7:
                lines.append(f"{t} Q0 {name} {rel} {where['/article[1]'][1]} {parts[0][0]} "
                             + " ".join(f"{o}:{n}" for o, n in parts))
            else:
                lines.append(f"{t} Q0 {name} 0 {where['/article[1]'][1]}")
    q = write(tmp_path / "qrels.txt", "\n".join(lines) + "\n")
    element, passage = [], []
    for t in ("1", "2", "3", "9"):
        for name in rng.sample(sorted(docs), rng.randint(1, len(docs))):
            where = docs[name]
            leaves = [p for p in where if "/p[" in p or "/title[" in p]
            chosen = rng.sample(leaves, 1 if task == "b" else rng.randint(1, min(3, len(leaves))))
            if task != "b" and rng.random() < 0.3:
                chosen.append("/article[1]/sec[9]/p[1]")  # not in the document: an unknown passage
            if task in "ft":
                rng.shuffle(chosen)
            for p in chosen:
                element.append(f"{t} Q0 {name} {len(element) + 1} 1.0 E {p}")
                o, n = where.get(p, ("X", 0))
                passage.append(f"{t} Q0 {name} {len(passage) + 1} 1.0 P {o} {n}")
    e = write(tmp_path / "element.txt", "\n".join(element) + "\n")
    p = write(tmp_path / "passage.txt", "\n".join(passage) + "\n")
    res = _evaluate(tmp_path, task, q, [e, p], COLLECTION_DIR=str(tmp_path / "collection"))
    assert _all_values(res, "element") == _all_values(res, "passage")
    unknown = sum(1 for line in element if "sec[9]" in line)
    warned = [w for w in res.warnings if "unknown passages" in w]
    assert len(warned) == (1 if unknown else 0)
