"""Large runs read in pieces of whole topics (issue 35, target 2): the chunker, and the trec-eval
drop-in's piecewise scoring against trec_eval 10.0 itself, with pieces made a few lines long."""

from __future__ import annotations

import random

import pytest

import trecgen
from inexeval.dropins.trec_eval import blocks
from inexeval.readers import trec_chunks
from inexeval.readers.trec_chunks import topic_chunks, topic_cut
from oracles import trec_eval_binary
from test_oracle_trec_eval import compare, expand, make_files, random_options


# ------------------------------------------------------------------ the chunker ----

def _first_fields(piece: bytes) -> set[bytes]:
    out = set()
    for line in piece.split(b"\n"):
        f = line.split(None, 1)
        if f and not f[0].startswith(b"#"):
            out.add(f[0])
    return out


def test_topic_cut_finds_the_last_topics_first_line():
    buf = b"1 a\n1 b\n2 c\n# note\n\n2 d\n2 e\npartial"
    assert topic_cut(buf) == buf.index(b"2 c")  # (the comment and blank lines go with topic 2)
    assert topic_cut(b"1 a\n1 b\n") == 0  # one topic: no cut
    assert topic_cut(b"no newline") == 0
    assert topic_cut(b" 1 a\n\t2 b\n") == 5  # (leading white space before the topic)


@pytest.mark.parametrize("seed", range(30))
def test_pieces_are_whole_topics_and_lose_nothing(tmp_path, seed):
    rng = random.Random(seed)
    lines = []
    for t in range(rng.randint(1, 12)):
        for k in range(rng.choice([1, 2, 5, 40])):
            lines.append(f"{' ' * rng.randint(0, 1)}{100 + t} Q0 d{k} {k + 1} {rng.random():.3f} r\n")
            if rng.random() < 0.05:
                lines.append(rng.choice(["# c\n", "\n", "  \n"]))
    text = "".join(lines).encode()
    if rng.random() < 0.3:
        text = text.rstrip(b"\n")  # no newline at the end
    path = tmp_path / "run"
    path.write_bytes(text)
    chunk = rng.choice([1, 7, 50, 400, 10_000])
    pieces = list(topic_chunks(path, chunk))
    assert b"".join(p for p, _ in pieces) == text
    line = 1
    seen: set[bytes] = set()
    for piece, first in pieces:
        assert first == line
        line += piece.count(b"\n")
        topics = _first_fields(piece)
        assert seen.isdisjoint(topics)
        seen |= topics
    assert all(p.endswith(b"\n") for p, _ in pieces[:-1])
    assert [first for _, first in topic_chunks(path, chunk, lines=False)] == [0] * len(pieces)


def test_streamable_only_for_large_plain_files(tmp_path, monkeypatch):
    import gzip

    monkeypatch.setattr(trec_chunks, "STREAM_FROM", 10)
    plain, small, gz, utf16 = (tmp_path / n for n in ("plain", "small", "gz", "utf16"))
    plain.write_bytes(b"1 Q0 d 1 1.0 r\n" * 3)
    small.write_bytes(b"1 Q0\n")
    gz.write_bytes(gzip.compress(b"1 Q0 d 1 1.0 r\n" * 3))
    utf16.write_bytes("1 Q0 d 1 1.0 r\n".encode("utf-16"))
    assert trec_chunks.streamable(plain)
    assert not any(trec_chunks.streamable(p) for p in (small, gz, utf16, "-", tmp_path / "absent", tmp_path))


# ------------------------------------------------------------------ the drop-in, piece by piece ----

@pytest.fixture(scope="module")
def trec_eval():
    return trec_eval_binary()


@pytest.fixture
def pieces(monkeypatch):
    """Every run file read in pieces of a few lines; the outcomes of blocks.evaluate_file recorded
    (None: the file was read whole)."""
    outcomes: list[object] = []
    real = blocks.evaluate_file

    def spy(*args, **kw):
        got = real(*args, **kw)
        outcomes.append(got)
        return got

    monkeypatch.setattr(trec_chunks, "STREAM_FROM", 0)
    monkeypatch.setattr(blocks, "evaluate_file", spy)
    return outcomes


KINDS = ["complete", "missing", "many", "awkward", "dup"]


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(160))
def test_pieces_score_as_trec_eval(trec_eval, tmp_path, monkeypatch, pieces, seed):
    """Random option mixtures on random cases (grouped, or not: read whole), pieces of 1 byte to a few
    lines: trec_eval's output, byte for byte."""
    rng = random.Random(f"pieces/{seed}")
    monkeypatch.setattr(trec_chunks, "CHUNK", rng.choice([1, 60, 300, 2000]))
    opts = random_options(rng)
    kind = "missing" if "-c" in opts else rng.choice(KINDS)
    files, case = make_files(kind, rng)
    trecgen.write_case(tmp_path, files)
    compare(trec_eval, [*expand(opts, case, rng), "qrels", "run"], tmp_path, monkeypatch)
    assert len(pieces) <= 1



@pytest.mark.parametrize("seed", range(6))
def test_a_nul_at_a_line_start_ends_a_run_read_in_pieces_too(trec_eval, tmp_path, monkeypatch, pieces, seed):
    """A line of the run that starts with a NUL byte ends the file for trec_eval: the piece that has
    it sends the drop-in back to reading the whole file, where the rest is cut (read.until_nul_line)."""
    rng = random.Random(f"pieces-nul/{seed}")
    monkeypatch.setattr(trec_chunks, "CHUNK", rng.choice([1, 60, 300]))
    while True:  # (a place after the run's first data line, not after a "#" line: trecgen.nul_places)
        files, _ = make_files("missing", rng)
        places = trecgen.nul_places(files["run"], False)
        if places:
            break
    lines = files["run"].split("\n")
    at = rng.choice(places)
    lines[at] = "\0" + lines[at]
    files["run"] = "\n".join(lines)
    trecgen.write_case(tmp_path, files)
    compare(trec_eval, ["-q", "-c", "-m", "official", "qrels", "run"], tmp_path, monkeypatch)
    assert pieces == [None]  # (read whole)


@pytest.mark.parametrize("seed", range(4))
def test_a_topic_judged_only_below_zero_is_read_whole(trec_eval, tmp_path, monkeypatch, pieces, seed):
    """What trec_eval does with a topic judged only below 0 depends on the topics before it (the first
    one stops it, a later one takes the previous level counts): such qrels are read with the whole run."""
    rng = random.Random(f"pieces-negative/{seed}")
    files, _ = make_files("complete", rng)
    files["qrels"] = "!neg 0 n1 -1\n" + files["qrels"]
    files["run"] = "!neg Q0 n1 1 1 r\n" + files["run"]
    trecgen.write_case(tmp_path, files)
    compare(trec_eval, ["-q", "-m", rng.choice(["official", "map", "num_q"]), "qrels", "run"], tmp_path, monkeypatch)
    assert pieces == [None]

@pytest.mark.slow
def test_most_generated_runs_are_scored_in_pieces(trec_eval, tmp_path, monkeypatch, pieces):
    """The test above reaches the piecewise path: runs grouped by topic are scored in pieces (the
    generator also writes shuffled runs, read whole)."""
    streamed = 0
    for seed in range(40):
        rng = random.Random(f"grouped/{seed}")
        monkeypatch.setattr(trec_chunks, "CHUNK", 60)
        files, case = make_files(rng.choice(KINDS), rng)
        folder = tmp_path / str(seed)
        folder.mkdir()
        trecgen.write_case(folder, files)
        compare(trec_eval, ["-q", "-c", "-m", "all_trec", "qrels", "run"], folder, monkeypatch)
        streamed += pieces[-1] is not None
    assert streamed >= 15, streamed


# ------------------------------------------------------------------ TASK: trec, piece by piece ----

def _task_trec_case(rng: random.Random) -> tuple[bytes, bytes]:
    """Qrels and a run with what the piecewise reading must carry over: topics the qrels lack,
    duplicates, ties, several tags, comment lines, a byte-order mark; grouped or not."""
    qrels = []
    topics = [f"{rng.choice(['', 'q'])}{t}" for t in rng.sample(range(1, 60), rng.randint(1, 9))]
    for t in topics:
        for d in rng.sample(range(40), rng.randint(1, 12)):
            qrels.append(f"{t} 0 d{d} {rng.choice([0, 1, 1, 2, -1])}\n")
    run = []
    for t in topics + [f"x{k}" for k in range(rng.choice([0, 0, 2]))]:  # (x: topics the qrels lack)
        if rng.random() < 0.15:
            continue  # a qrels topic the run lacks
        for k in range(rng.choice([1, 3, 30])):
            score = rng.choice([f"{rng.random():.2f}", "1", "0.5"])
            run.append(f"{t} Q0 d{rng.randrange(40)} {k + 1} {score} {rng.choice(['tagA'] * 9 + ['tagB'])}\n")
    if rng.random() < 0.3:
        rng.shuffle(run)
    if rng.random() < 0.2:
        run.insert(rng.randrange(len(run) + 1), "# a comment\n")
    text = "".join(run).encode()
    if rng.random() < 0.1:
        text = b"\xef\xbb\xbf" + text
    return "".join(qrels).encode(), text


@pytest.mark.parametrize("seed", range(60))
def test_task_trec_pieces_rank_as_the_whole_file(tmp_path, monkeypatch, seed):
    """read_ranked_file (TASK: trec's reading) in pieces of a few lines gives the whole file's ranking,
    topics, run id and warnings (or reads the file whole: a run not grouped by topic)."""
    from inexeval.measures import classic_pieces
    from inexeval.measures.classic_join import read_ranked_run, topic_table
    from inexeval.readers.trec import read_qrels

    rng = random.Random(f"task/{seed}")
    qrels_text, run_text = _task_trec_case(rng)
    (tmp_path / "qrels").write_bytes(qrels_text)
    (tmp_path / "run").write_bytes(run_text)
    table = topic_table(read_qrels(tmp_path / "qrels"), rng.choice([1, 2]))
    cap = rng.choice([None, None, 2])
    whole = read_ranked_run(tmp_path / "run", table, max_results=cap)
    monkeypatch.setattr(trec_chunks, "STREAM_FROM", 0)
    monkeypatch.setattr(classic_pieces, "PIECE", rng.choice([1, 40, 200]))
    calls = []
    real = classic_pieces.ranked_in_pieces
    monkeypatch.setattr(classic_pieces, "ranked_in_pieces", lambda *a, **k: calls.append(real(*a, **k)) or calls[-1])
    got = classic_pieces.read_ranked_file(tmp_path / "run", table, max_results=cap)
    assert calls and (got is calls[0] or calls[0] is None)
    assert (got.run_id, got.source, got.topics, got.warnings, got.run_id_line) == \
        (whole.run_id, whole.source, whole.topics, whole.warnings, whole.run_id_line)
    assert got.ranking.start.tolist() == whole.ranking.start.tolist()
    assert got.ranking.rel.dtype == whole.ranking.rel.dtype
    assert got.ranking.rel.tolist() == whole.ranking.rel.tolist()
    assert [None if r.tied is None else r.tied.tolist() for r in (got.ranking, whole.ranking)] == \
        [None if whole.ranking.tied is None else whole.ranking.tied.tolist()] * 2


def test_task_trec_pieces_are_used_for_grouped_runs(tmp_path, monkeypatch):
    """The test above reaches the piecewise path (a grouped run of several pieces, topics out of
    table order so that the segments are gathered)."""
    from inexeval.measures import classic_pieces
    from inexeval.measures.classic_join import read_ranked_run, topic_table
    from inexeval.readers.trec import read_qrels

    (tmp_path / "qrels").write_text("".join(f"{t} 0 d{d} 1\n" for t in (1, 2, 3) for d in range(3)))
    (tmp_path / "run").write_text("".join(f"{t} Q0 d{d} {d} {1 / (d + 1)} r\n" for t in (3, 1, 2) for d in range(5)))
    table = topic_table(read_qrels(tmp_path / "qrels"))
    whole = read_ranked_run(tmp_path / "run", table)
    monkeypatch.setattr(trec_chunks, "STREAM_FROM", 0)
    monkeypatch.setattr(classic_pieces, "PIECE", 30)
    direct = classic_pieces.ranked_in_pieces(tmp_path / "run", table)
    assert direct is not None
    assert direct.ranking.rel.tolist() == whole.ranking.rel.tolist() == [1, 1, 1, -1, -1] * 3
    assert list(direct.topics) == ["1", "2", "3"]
