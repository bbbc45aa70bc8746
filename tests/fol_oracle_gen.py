"""Seeded random FOL qrels and runs for the differential test against inex_eval.jar (tests/test_oracle_inex_eval.py).

Unlike tests/folgen.py (well-formed data, runs valid for their task), these
inputs go after the corners of docs/inex_eval.md, because the official tool,
not a statement of the rules, decides what is right:

- qrels (§2): topics whose string order is not their numeric order, article
  ids shared between topics, 5-, 6- and 7+-field lines, REL_CHARS > 0, 0 and
  < 0, REL_CHARS that disagree with the passages, passages unsorted,
  overlapping, of length 0 or negative, past DOC_LENGTH, BEP -1 or anywhere,
  repeated judgement lines (D2), ``+``-signed and zero-padded integers,
  TABs, VT, FF, runs of blanks, trailing blanks and CRLF line ends (D22), a
  topic with nothing relevant, now and then values whose sums leave the int
  range (REL_CHARS 2000000000, DOC_LENGTH 2^31 - 1, ends that wrap: D17);
- runs (§3, §4): the file order as the ranking with RANK and RSV junk (D3),
  lines of topics missing from the qrels with junk fields (D19), topics in
  several blocks (D5; including the -i rank entries a returning topic joins),
  unknown passages ``X`` and ``-1`` (any LENGTH), ``-01`` and other negative
  offsets, zero lengths, offsets past the article, huge passages and a
  negative LENGTH that wraps into an accepted one (D17), long rankings (past
  rank 50), RSV with a 0x1C character (white space to Python, not to Java),
  CR and CRLF line ends, the run id changing (D23) and, in the runs made
  to be rejected or to kill the tool: interleaved articles, repeated
  articles for -b, overlaps, negative lengths, int wrap-around (D17), lines
  with too many or too few fields, a leading blank, an empty line, a
  non-integer OFFSET or LENGTH (§10).

Everything is ASCII (the tool reads with the JVM's default charset).
:func:`oracle_case` gives the texts; nothing here knows the expected scores.
"""

from __future__ import annotations

import random

__all__ = ["TOPIC_POOL", "random_qrels_text", "random_run_text", "oracle_case"]

#: Topic ids whose Java String order (D14) is not their numeric or insertion order.
TOPIC_POOL = ("1", "10", "9", "100", "A", "a", "B2", "b", "2009001")
ARTICLES = ("d1", "d2", "d3", "d4", "d5", "d6", "d7")


def _int(rng: random.Random, v: int) -> str:
    """V as Java's Integer.parseInt accepts it: mostly plain, sometimes ``+``-signed or zero-padded."""
    r = rng.random()
    if r < 0.04 and v >= 0:
        return f"+{v}"
    if r < 0.07 and v >= 0:
        return f"00{v}"
    return str(v)


def _join(rng: random.Random, fields: list[str]) -> str:
    """Fields joined by one blank, sometimes by TABs or runs of blanks, sometimes with trailing blanks."""
    if rng.random() < 0.85:
        line = " ".join(fields)
    else:  # Java's \s: also VT and FF
        line = "".join(f + rng.choice([" ", "\t", "  ", " \t ", "\x0b", "\x0c "]) for f in fields[:-1]) + fields[-1]
    if rng.random() < 0.05:
        line += rng.choice([" ", "\t", "  "])
    return line


def random_qrels_text(rng: random.Random, topics: list[str] | None = None) -> tuple[str, dict[str, list[str]]]:
    """(qrels text, {topic: judged article ids}) with the corners of docs/inex_eval.md §2."""
    if topics is None:
        topics = rng.sample(TOPIC_POOL, rng.randint(1, 4))
    lines: list[str] = []
    judged: dict[str, list[str]] = {}
    nothing_relevant = rng.choice(topics) if len(topics) > 1 and rng.random() < 0.3 else None
    for topic in topics:
        arts = rng.sample(ARTICLES, rng.randint(1, 6))
        judged[topic] = arts
        for art in arts:
            for _ in range(2 if rng.random() < 0.1 else 1):  # D2: a repeated judgement line
                r = rng.random()
                if topic == nothing_relevant or r < 0.25:
                    rel = rng.choice([0, 0, 0, -3])
                else:
                    rel = rng.randint(1, 400) if rng.random() > 0.03 else 2000000000  # D17: sums wrap
                doc_length = rng.choice([rng.randint(50, 1200), rng.randint(50, 1200), 0, rng.randint(-20, 30)])
                if rng.random() < 0.02:
                    doc_length = rng.choice([2147483647, -2147483648])
                fields = [topic, "Q0", art, _int(rng, rel), _int(rng, doc_length)]
                shape = rng.random()
                if shape < 0.12:
                    pass  # 5 fields: no BEP, no passages
                elif shape < 0.17:
                    fields.append(_int(rng, rng.randint(0, 300)))  # a 6th field is ignored
                else:
                    bep = rng.choice([-1, rng.randint(0, 900), rng.randint(0, 900), rng.randint(0, 100)])
                    fields.append(_int(rng, bep))
                    for _ in range(rng.randint(1, 4)):
                        offset = rng.randint(0, 900)
                        length = rng.choice([rng.randint(1, 250), rng.randint(1, 250), 0, rng.randint(-30, -1)])
                        if rng.random() < 0.02:  # D17: an end that wraps, differences past 2^31
                            offset, length = rng.choice([(2000000000, 2000000000), (-2000000000, 2000000000),
                                                         (0, 2147483647), (-2147483648, 5)])
                        fields.append(f"{_int(rng, offset)}:{_int(rng, length)}")
                lines.append(_join(rng, fields))
    if rng.random() < 0.3:
        rng.shuffle(lines)
    end = "\r\n" if rng.random() < 0.1 else "\n"
    return end.join(lines) + end, judged


# --------------------------------------------------------------------------- runs


def _passage(rng: random.Random, at: int) -> tuple[str, str]:
    """(OFFSET, LENGTH) of an ordinary passage at AT, or an unknown one."""
    r = rng.random()
    if r < 0.06:
        return "X", rng.choice(["0", "25", "junk", "-3"])
    if r < 0.1:
        return "-1", rng.choice(["0", "40"])
    if r < 0.12:
        return "-01", str(rng.randint(0, 30))  # an ordinary (negative) offset, not unknown
    if r < 0.13:
        return str(-rng.randint(2, 400)), str(rng.randint(0, 600))  # starts before the article
    if r < 0.137:  # D17: huge passages, a negative LENGTH that wraps into an accepted one
        return rng.choice([("-2000000000", "2000000000"), ("2000000000", "147483647"), ("0", "2147483647"),
                           ("-2000000000", "-1000000000"), ("-2147483648", "10")])
    return str(at), str(rng.choice([rng.randint(1, 300), rng.randint(1, 300), rng.randint(1, 60), 0]))


def _article_lines(rng: random.Random, count: int, overlap: bool) -> list[tuple[str, str]]:
    """COUNT passages of one article in reading order; they overlap only when OVERLAP."""
    out = []
    at = rng.randint(0, 700)
    for _ in range(count):
        offset, length = _passage(rng, at)
        out.append((offset, length))
        if offset.isdigit():
            step = int(length)
            at = at + (rng.randint(0, max(0, step)) if overlap else step + rng.choice([0, 0, rng.randint(1, 200)]))
    if not overlap and rng.random() < 0.3:  # passages of an article need not come in offset order
        rng.shuffle(out)
        known = sorted((int(o), int(n)) for o, n in out if o.isdigit())
        if any(a + n > b for (a, n), (b, _) in zip(known, known[1:])):
            out.sort(key=lambda p: int(p[0]) if p[0].lstrip("-").isdigit() else -1)
    return out


def random_run_text(rng: random.Random, task: str, judged: dict[str, list[str]], *, hostile: bool) -> str:
    """An 8-column run for TASK over the topics of JUDGED (plus a topic the qrels lack).

    Not ``hostile``: valid for TASK (each article's lines together and at most
    one line per article for -b in context, no overlap unless -t, no negative
    length) -- but topics may still come back (D5), which the tool accepts.
    ``hostile``: one or more defects that make the tool reject the run or die.
    """
    topics = list(judged) + ["Z9"]
    blocks: list[tuple[str, int | None]] = []  # (topic, number of articles or None: any)
    for _ in range(rng.randint(1, 5)):  # a topic may come back (D5)
        blocks.append((rng.choice(topics), None))
    if len(judged) > 1 and rng.random() < 0.35:
        # A, B, A: with one article fewer in B than in A's first block, A's first line back makes
        # the state's rank counter equal A's number of rank entries and joins A's last rank (§4.4)
        a, b = rng.sample(list(judged), 2)
        first = rng.randint(2, 4)
        blocks = [(a, first), (b, first - 1 if rng.random() < 0.7 else None), (a, None)] + blocks[: rng.randint(0, 2)]
    in_context = task in "rbi"
    rows: list[list[str]] = []
    run_ids = ["RUN"] if rng.random() < 0.8 else ["RUN", "other-id", "R_2"]
    # the tool's current state (D5): reset at a qrels topic's first line; a topic that comes back
    # continues it, so its articles mostly avoid those the state has met (else: rejected in context)
    seen: set[str] = set()
    state: set[str] = set()
    for topic, count in blocks:
        pool = list(judged.get(topic, [])) + ["u1", "u2", "d9"]
        if topic in judged and topic not in seen:
            seen.add(topic)
            state = set()
        if rng.random() < 0.85:
            pool = [a for a in pool if a not in state] or ["n1", "n2"]
        rng.shuffle(pool)
        if count is not None:
            pool += [f"n{k}" for k in range(count)]
        elif rng.random() < 0.08:  # a long ranking: gP[25], gP[50] and iP past the first ranks
            pool += [f"x{k}" for k in range(rng.randint(20, 70))]
            rng.shuffle(pool)
            count = len(pool) - rng.randint(0, 3)
        arts = pool[: count or rng.randint(1, len(pool))]
        if topic in judged:
            state.update(arts)
        per_article = []
        for art in arts:
            lines_of = 1 if task == "b" else rng.choice([1, 1, 2, 3])
            overlap = task == "t" and rng.random() < 0.5
            per_article.append([(art, o, n) for o, n in _article_lines(rng, lines_of, overlap)])
        if in_context or rng.random() < 0.4:
            lines = [x for group in per_article for x in group]
        else:  # interleave the articles (valid for -f and -t), each article's passages in order
            lines = []
            queues = [list(g) for g in per_article]
            while any(queues):
                q = rng.choice([q for q in queues if q])
                lines.append(q.pop(0))
        for art, offset, length in lines:
            rank = rng.choice([str(rng.randint(1, 9)), "0", "-2", "x"])
            rsv = rng.choice([f"{rng.random():.3f}", "1e-5", "-0.5", "nan", "1\x1c2"])  # 0x1C: no Java blank
            fields = [topic, "Q0", art, rank, rsv, rng.choice(run_ids), offset, length]
            if topic == "Z9" and rng.random() < 0.5:  # D19: only the field count is looked at
                fields[6], fields[7] = "abc", "1O"
            rows.append(fields)
    if hostile and rows:
        _spoil(rng, task, rows)
    text_lines = [_join(rng, f) if isinstance(f, list) else f for f in rows]
    end = rng.choice(["\n"] * 8 + ["\r\n", "\r"])
    return "".join(line + end for line in text_lines)


def _spoil(rng: random.Random, task: str, rows: list) -> None:
    """Put one or two defects into ROWS (docs/inex_eval.md §3.5, §10)."""
    for _ in range(rng.choice([1, 1, 2])):
        i = rng.randrange(len(rows))
        row = rows[i]
        if not isinstance(row, list) or len(row) != 8:
            continue
        kind = rng.choice(["interleave", "repeat", "overlap", "negative", "wrap", "fields", "blank", "nonint",
                           "nonint", "interleave", "overlap"])
        if kind == "interleave" and i > 1:  # an article met earlier in the block comes back
            earlier = rows[i - 2]  # (a line the first defect made may be text, or short: then this line's article)
            same = isinstance(earlier, list) and len(earlier) > 2 and earlier[0] == row[0]
            rows.insert(i + 1, [row[0], "Q0", earlier[2] if same else row[2], "1", "1", row[5], "990", "5"])
        elif kind == "repeat":  # the same article on the next line (-b: rejected; else: joins the rank)
            rows.insert(i + 1, [*row[:6], "995", "3"])
        elif kind == "overlap" and row[6].isdigit():
            rows.insert(i + 1, [*row[:6], str(int(row[6]) + 1), "4"])
        elif kind == "negative":
            row[6], row[7] = str(rng.randint(0, 500)), str(rng.randint(-50, -1))
        elif kind == "wrap":
            row[6], row[7] = "2147483600", str(rng.randint(48, 200))  # end wraps to a negative int
        elif kind == "fields":
            rows[i] = row[:7] if rng.random() < 0.5 else [*row, "extra"]
        elif kind == "blank":
            rows.insert(i, rng.choice(["", " ", " " + " ".join(row)]))  # an empty line, a blank one, a leading blank
        elif kind == "nonint":
            if rng.random() < 0.5:
                row[6] = rng.choice(["1O", "x", "+-1", "99999999999"])
            else:
                row[6], row[7] = "10", rng.choice(["5.0", "", "2147483648"]) or "a"


def oracle_case(seed: int, task: str, runs: int) -> tuple[str, list[str]]:
    """(qrels text, RUNS run texts) for TASK from SEED; about one run in five is hostile."""
    rng = random.Random(f"{seed}-{task}")
    qrels, judged = random_qrels_text(rng)
    texts = [random_run_text(rng, task, judged, hostile=rng.random() < 0.2) for _ in range(runs)]
    return qrels, texts
