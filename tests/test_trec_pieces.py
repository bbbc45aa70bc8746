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
