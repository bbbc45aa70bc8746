"""``inexeval trec-eval`` against trec_eval 10.0 on odd text and odd spellings of the command line.

tests/test_oracle_trec_eval.py draws clean files; here the same cases (tests/trecgen.py) are written
the many ways a file or a command line may come: any blank C's ``isspace`` takes between fields, blanks
before and after them, a carriage return before the line end or CRLF throughout, extra run fields,
blank and ``#`` lines, no final newline; judgements and scores spelled as C's ``atol``/``atof`` read
them (``+1``, ``01``, ``1x``, ``inf``, ``1e400``, ``0x1p3``, ``abc``); bytes above 127 and control
characters in docnos; a line that starts with a NUL byte; and options as glibc's getopt takes them
(long names, ``--name=value``, abbreviations, values attached, flags grouped, files before options,
``--``).  Nothing here states an expected output: trec_eval's is the expectation, byte for byte.
A fuzz campaign of this kind (about 124,000 cases) found the differences listed in CHANGELOG.md.
"""

from __future__ import annotations

import random

import pytest

import trecgen
from oracles import trec_eval_binary
from test_oracle_trec_eval import compare, expand, make_files, random_options

pytestmark = pytest.mark.slow  # trec_eval 10.0, one process per case (skipped without the oracles)

#: Separators between fields: the blanks C's isspace takes, but never a line end.
BLANKS = [" ", "  ", "\t", " \t", "\v", "\f"]
#: Judgements as atol reads them: the same value written otherwise (a sign, leading zeros), or with a
#: tail it ignores (the value is kept: trecgen keeps clear of judgements trec_eval has no result for).
REL_SPELLINGS = ["{sign}0{abs}", "{sign}00{abs}", "{value}x", "{value}.5", "{value}e9", "{value}_1"]
#: Scores atof reads, whatever the score was.
SCORES = ["inf", "-inf", "INF", "infinity", "1e400", "-1e400", "1e-400", "0x1p3", "0X.8", "+5", "+.5", "-.0",
          "00012", "4.9e-324", "1,5", "0x", ".e1", "+-1", "abc", "nan", "-nan"]
#: Long spellings of the short options (glibc takes any unambiguous prefix of them).
LONG = {"-q": "--query_eval_wanted", "-c": "--complete_rel_info_wanted", "-n": "--nosummary",
        "-l": "--level_for_rel", "-J": "--Judged_docs_only", "-M": "--Max_retrieved_per_topic",
        "-D": "--Debug_level", "-N": "--Number_docs_in_coll", "-m": "--measure"}
TAKES_VALUE = {"-l", "-M", "-D", "-N", "-m"}


def odd_lines(rng: random.Random, text: str, run: bool) -> str:
    """TEXT with its lines re-spaced and commented as described in the module (each line keeps its
    fields; a qrels ``#`` line never follows another, where trec_eval would read the second as data)."""
    lines = text.split("\n")
    final = lines[-1] == ""
    if final:
        lines.pop()
    share = rng.choice([0.05, 0.3, 1.0])
    out = []
    for line in lines:
        f = line.split()
        if line.startswith("#") or not f or rng.random() >= share:
            out.append(line)
            continue
        sep = rng.choice(BLANKS)
        s = sep.join(f)
        if rng.random() < 0.3:
            s += rng.choice([" ", "\t", "\r", " \r"])
        if rng.random() < 0.15:
            s = rng.choice([" ", "\t"]) + s
        if run and rng.random() < 0.15:
            s += " " + rng.choice(["extra", "x y z", "#c"])
        out.append(s)
    if rng.random() < 0.2:
        for _ in range(rng.randint(1, 3)):
            at = rng.randrange(len(out) + 1)
            if run:
                out.insert(at, rng.choice(["", "   ", "\t", "#x", "  # y"]))
            elif 0 < at < len(out) and not out[at - 1].startswith("#") and not out[at].startswith("#"):
                out.insert(at, rng.choice(["#", "# a b c"]))
    body = "\n".join(out) + ("\n" if final or rng.random() < 0.5 else "")
    return body.replace("\n", "\r\n") if rng.random() < 0.05 else body


def odd_values(rng: random.Random, text: str, run: bool) -> str:
    """TEXT with some judgements (qrels) or scores (run) spelled as atol/atof read them."""
    share = rng.choice([0.05, 0.2])
    out = []
    for line in text.split("\n"):
        f = line.split(" ")
        if line.startswith("#") or len(f) < (6 if run else 4) or rng.random() >= share:
            out.append(line)
            continue
        if run:
            f[4] = rng.choice(SCORES) if rng.random() < 0.6 else f[4] + rng.choice(["x", "e", "e+", ".", "_"])
        elif f[3].lstrip("-").isdigit():
            v = int(f[3])
            sign = "-" if v < 0 else rng.choice(["", "+"])
            f[3] = rng.choice(REL_SPELLINGS).format(sign=sign, abs=abs(v), value=v)
        out.append(" ".join(f))
    return "\n".join(out)


def odd_bytes(rng: random.Random, text: str, judgements: bool) -> bytes:
    """TEXT's bytes with, now and then, bytes above 127 or control characters in docnos, or a NUL byte
    that starts a line (trecgen.nul_places: not the first, where trec_eval reads past its buffer)."""
    data = text.encode("utf-8")
    r = rng.random()
    if r < 0.05:
        return data.replace(b"d1", b"d\xe91").replace(b"doc0", b"doc\xc3\xa90")
    if r < 0.08:
        return data.replace(b"d2", b"d\x1c2").replace(b"doc02", b"doc\x1f02")
    if r < 0.11:
        places = trecgen.nul_places(text, judgements)
        if places:
            lines = text.split("\n")
            at = rng.choice(places)
            return ("\n".join(lines[:at]) + "\n\0" + "\n".join(lines[at:])).encode("utf-8")
    return data


def spelled(rng: random.Random, options: list[str]) -> list[str]:
    """OPTIONS (short forms, each value a separate argument) spelled as getopt also takes them."""
    items: list[list[str]] = []
    i = 0
    while i < len(options):
        takes = options[i] in TAKES_VALUE
        items.append(options[i:i + 2] if takes else options[i:i + 1])
        i += 2 if takes else 1
    argv: list[str] = []
    for item in items:
        flag, style = item[0], rng.random()
        if len(item) == 2 and style < 0.2:
            argv.append(flag + item[1])  # -M5
        elif len(item) == 2 and style < 0.35:
            argv.append(f"{LONG[flag]}={item[1]}")
        elif flag in LONG and style < 0.5:
            name = LONG[flag]
            argv += [name[:rng.randint(len(name) - 4, len(name))], *item[1:]]  # (still unambiguous)
        else:
            argv += item
    grouped: list[str] = []
    for a in argv:  # flags run together now and then: -qc
        if rng.random() < 0.3 and a in ("-q", "-c", "-n", "-J") and grouped and grouped[-1][:1] == "-" \
                and grouped[-1][1:2] != "-" and set(grouped[-1][1:]) <= set("qcnJ") and len(grouped[-1]) > 1:
            grouped[-1] += a[1:]
        else:
            grouped.append(a)
    return grouped


@pytest.fixture(scope="module")
def trec_eval():
    return trec_eval_binary()


@pytest.mark.parametrize("seed", range(150))
def test_odd_text_and_spellings(trec_eval, tmp_path, monkeypatch, seed):
    rng = random.Random(f"text/{seed}")
    options = random_options(rng)
    files, case = make_files("missing" if "-c" in options or rng.random() < 0.1 else "complete", rng)
    if rng.random() < 0.7:
        files["qrels"] = odd_values(rng, odd_lines(rng, files["qrels"], False), False)
    if rng.random() < 0.7:
        files["run"] = odd_values(rng, odd_lines(rng, files["run"], True), True)
    paths = trecgen.write_case(tmp_path, files)
    for name in ("qrels", "run"):
        paths[name].write_bytes(odd_bytes(rng, files[name], name == "qrels"))
    argv = spelled(rng, expand(options, case, rng))
    where = rng.random()
    if where < 0.1:
        argv = ["qrels", *argv, "run"]  # (getopt moves the files after the options)
    elif where < 0.15:
        argv = [*argv, "--", "qrels", "run"]
    else:
        argv = [*argv, "qrels", "run"]
    compare(trec_eval, argv, tmp_path, monkeypatch)
