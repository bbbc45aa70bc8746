"""Helpers of the FOL (inex_eval 3.1) tests: write small qrels/run files, run the drop-in, read its lines."""

from __future__ import annotations

import io
import random
from pathlib import Path

from inexeval.dropins.inex_eval import main as inex_eval_main


def write(path: Path, lines: list[str] | str) -> Path:
    """Write LINES (a list: each ended by '\\n'; a str: as it is) to PATH, creating folders."""
    path.parent.mkdir(parents=True, exist_ok=True)
    text = lines if isinstance(lines, str) else "".join(ln + "\n" for ln in lines)
    path.write_bytes(text.encode("utf-8"))
    return path


def run_lines(topic: str, specs: list[tuple[str, object, object]], run_id: str = "R") -> list[str]:
    """8-column run lines from (article, offset, length) triples, RANK 1 and RSV 1 throughout."""
    return [f"{topic} Q0 {art} 1 1 {run_id} {off} {length}" for art, off, length in specs]


def drop_in(*argv: str) -> tuple[str, str, int]:
    """(standard output, standard error, exit status) of ``inexeval inex-eval ARGV``."""
    out, err = io.StringIO(), io.StringIO()
    status = inex_eval_main(list(argv), out, err)
    return out.getvalue(), err.getvalue(), status


def values(output: str) -> dict[tuple[str, str], str]:
    """{(NAME, TOPIC): VALUE} of the measure lines of OUTPUT, checking the one/two-TAB layout."""
    found = {}
    for line in output.splitlines():
        if line.startswith("<") or "\t" not in line or line.startswith(("\t", "ERROR", "Error")):
            continue
        name, rest = line.split("\t", 1)
        assert rest.startswith("\t") == (len(name) < 8), line
        topic, value = rest.lstrip("\t").split("\t")
        found[(name, topic)] = value
    return found


def ircl(points: int, ranges: list[tuple[int, int, str]]) -> list[str]:
    """The ``ircl_prn`` lines of the ``all`` block: RANGES are (first, last, value) in points of POINTS."""
    lines = []
    for first, last, value in ranges:
        for p in range(first, last + 1):
            label = f"{p * 100 // points // 100}.{p * 100 // points % 100:02d}"
            lines.append(f"ircl_prn.{label}\tall\t{value}")
    assert len(lines) == points + 1
    return lines


def random_fol_case(rng: random.Random) -> tuple[list[str], list[tuple[str, str, str, str, str, str]]]:
    """Random qrels lines and run results (topic, article, rank, rsv, offset, length) with the usual edge cases."""
    topics = rng.sample(["1", "10", "9", "A", "a", "B2"], rng.randint(1, 4))
    qrels = []
    for topic in topics:
        for art in rng.sample(["d1", "d2", "d3", "d4", "d5"], rng.randint(1, 5)):
            rel = rng.choice([0, 0, rng.randint(1, 300), rng.randint(1, 300), -3])
            if rng.random() < 0.25:
                qrels.append(f"{topic} Q0 {art} {rel} {rng.randint(50, 900)}" + rng.choice(["", " 5"]))
                continue
            passages = [f"{rng.randint(0, 400)}:{rng.choice([rng.randint(0, 150), -5])}"
                        for _ in range(rng.randint(1, 3))]
            qrels.append(f"{topic} Q0 {art} {rel} {rng.randint(50, 900)} {rng.randint(-1, 400)} " + " ".join(passages))
            if rng.random() < 0.1:
                qrels.append(qrels[-1])  # a duplicate judgement line (D2)
    results = []
    run_topics = topics + ["Z"]
    style = rng.choice(["free", "grouped", "bic"])  # bic: one line per article; grouped: no interleaving
    for _ in range(rng.randint(1, 5)):  # blocks; a topic may come back (D5)
        topic = rng.choice(run_topics)
        pool = ["d1", "d2", "d3", "d4", "d5", "x9"]
        if style != "free":
            rng.shuffle(pool)
        count = rng.randint(1, 6)
        for art in pool[:count] if style != "free" else [rng.choice(pool) for _ in range(count)]:
            for _ in range(1 if style == "bic" else rng.choice([1, 1, 2, 3])):
                kind = rng.random()
                if kind < 0.1:
                    offset, length = rng.choice(["X", "-1"]), str(rng.randint(0, 50))
                elif kind < 0.11:
                    offset, length = "1O", "5"  # the tool dies on a qrels topic
                else:
                    offset = str(rng.randint(0, 500))
                    length = str(rng.randint(0, 120) if rng.random() > 0.02 else -4)
                results.append((topic, art, str(rng.randint(1, 9)), f"{rng.random():.3f}", offset, length))
    return qrels, results


def read_random_fol_case(folder: Path, rng: random.Random):
    """A :func:`random_fol_case` written to FOLDER and read back: (FolQrels, FolRunFile)."""
    from inexeval.readers.fol import read_fol_qrels, read_fol_run

    qrels_lines, results = random_fol_case(rng)
    qrels = read_fol_qrels(write(folder / "q.txt", qrels_lines))
    run = read_fol_run(write(folder / "run.txt", [f"{t} Q0 {a} {r} {s} RID {o} {n}" for t, a, r, s, o, n in results]))
    return qrels, run


def topics_by_loop(run) -> dict[str, list[int]]:
    """Each topic's line indices of a FolRunFile, topics in order of their first line, by a loop over
    its lines' fields (what ``readers.passages.topic_lines`` must give)."""
    topics: dict[str, list[int]] = {}
    for i, fields in enumerate(run.columns()[2]):
        if fields:
            topics.setdefault(fields[0], []).append(i)
    return topics
