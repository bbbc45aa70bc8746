"""Fuzz: mutated assessments, runs, configs and documents never crash a loader or the CLI.

Every input is also written with a UTF-8 byte order mark and in UTF-16 and
UTF-32: each reader gives what it gives for the UTF-8 form (issue 15).

Each test starts from a valid seed file and applies a few random mutations
(byte-level: delete, insert, duplicate a span; value-level: replace an
attribute value or an element's text with an awkward token).  Every outcome
must be a result or a typed error (an InexevalError subclass); from the CLI,
exit status 0, 1 or 2, no uncaught exception and no traceback.  The
validator must never raise, and must report what the run reader finds: the
reader refuses a run exactly when the validator finds it unreadable or
malformed (at one of those findings), each kind of warning of the reader is
a kind of finding of the validator, and a run the validator calls valid is
read without any result dropped.

Deterministic: ``derandomize=True`` and no example database.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import tempfile
from pathlib import Path
from unittest import mock

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

import inexeval.config.values as config_module
from inexeval.cli.command import main
from inexeval.config import MAX_RANK, InputFile, load_config
from inexeval.errors import ConfigErrors, EmptySelection, InexevalError, InputError, InvalidPath
from inexeval.paths import normalise_path
from inexeval.readers.assessments import load_assessments
from inexeval.readers.runs import read_run
from inexeval.validate import RunReport, format_reports, validate_run

pytestmark = pytest.mark.slow  # hypothesis over the readers and the command line: about a minute

FUZZ = settings(max_examples=150, deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.too_slow])

# --------------------------------------------------------------------------- seeds

ASSESSMENTS = b"""<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE assessments SYSTEM "assessments.dtd">
<assessments pool="11" topic="1" version="2">
  <inex_topic topic_id="1" query_type="CO+S" ct_no="12"/>
  <file collection="ieee" name="f1">
    <passage start="/article[1]/sec[1]" end="/article[1]/sec[2]" size="615"/>
    <best-entry-point path="/article[1]/sec[1]"/>
    <element path="/article[1]" exhaustivity="2" size="2,000" rsize="700"/>
    <element path="/article[1]/sec[1]" exhaustivity="2" size="400" rsize="400"/>
    <element path="/article[1]/sec[1]/p[1]" E="2" size="200" rsize="200"/>
    <element path="/article[1]/sec[1]/p[2]" exhaustiveness="1" size="200" rsize="200"/>
    <element path="/article[1]/sec[2]" exhaustivity="2" size="600" rsize="200"/>
    <element path="/article[1]/sec[2]/p[2]" exhaustivity="?" size="100" rsize="100"/>
  </file>
  <file collection="ieee" name="f2">
    <best-entry-point path="/article[1]/p[1]"/>
    <element path="/article[1]" exhaustivity="1" size="500" rsize="100"/>
    <element path="/article[1]/p[1]" exhaustivity="1" size="100" rsize="100"/>
  </file>
  <file collection="ieee" name="f3"/>
</assessments>
"""

RUN_XML = b"""<?xml version="1.0"?>
<inex-submission participant-id="24" run-id="myrun" task="CO.Focussed" query="automatic">
  <topic-fields title="yes" castitle="no" description="no" narrative="no"/>
  <description>fuzz</description>
  <collections><collection>ieee</collection></collections>
  <topic topic-id="1">
    <result><file>f1</file><path>/article[1]/sec[1]</path><rank>1</rank><rsv>12.5</rsv></result>
    <result><file>f2</file><path>/article[1]/p[1]</path><rank>2</rank><rsv>11</rsv></result>
    <result><file>f1</file><path>/article[1]/sec[2]/p[2]</path><rank>3</rank><rsv>10</rsv></result>
    <result><file>f3</file><path>/article[1]</path><rank>4</rank><rsv>9</rsv></result>
  </topic>
  <topic topic-id="2">
    <result><file>f1</file><path>/article[1]</path><rank>1</rank><rsv>1</rsv></result>
  </topic>
</inex-submission>
"""

RUN_TEXT = b"""1 Q0 f1 1 12.5 textrun /article[1]/sec[1]
1 Q0 f2 2 11 textrun /article[1]/p[1]
1 Q0 f1 3 10 textrun /article[1]/sec[2]/p[2]
1 Q0 f3 4 9 textrun /article[1]
2 Q0 f1 1 1 textrun /article[1]
"""

CONFIG_PROP = b"""# fuzz seed
TASK: CO.Focussed
METRICS: nxCG, ep/gr, q
ALPHA: 1.0
OVERLAP: on, off
QUANT_FUNCTIONS: gen, strict, genLifted
DCV: 1, 2,
     5
ASSESSMENTS_DIR: assess/
SUBMISSIONRUNS_DIR: runs/*.xml, runs/*.txt
MAX_RESULTS: 1500
Q_BETA = 1
"""

CONFIG_YAML = b"""TASK: CO.Thorough
METRICS: [nxcg, ep/gr]
OVERLAP: [off]
QUANT_FUNCTIONS: gen, strict
DCV: [1, 2, 5]
ASSESSMENTS_DIR: assess
SUBMISSIONRUNS_DIR: runs
POOLS: [11]
"""

CONFIG_2006 = b"""TASK: BestInContext
BEP_A: 0.1, 1
ASSESSMENTS_DIR: assess
SUBMISSIONRUNS_DIR: runs
COLLECTION_DIR: docs
"""
DOCUMENTS = {
    "f1": b"<article><sec><p>one one</p><p>two</p></sec><sec><p>x</p><p>y y</p><p>z</p></sec><sec>s</sec></article>",
    "f2": b"<article><p>bee</p><p>cee</p></article>",
    "f3": b"<article>zed</article>",
}

# Values chosen to hit parsers' edge cases: numbers, paths, markup, encodings.
TOKENS = [
    b"", b" ", b"\t", b"\n", b"<", b">", b"</", b"/>", b'"', b"'", b"&", b"&amp;", b"&#0;", b"&#x110000;",
    b"&nbsp;", b"]]>", b"<![CDATA[x]]>", b"<!--c-->", b"<?pi x?>", b"<!DOCTYPE a [<!ENTITY e 'x'>]>",
    b"<?xml version='1.0' encoding='utf-16'?>", b"<?xml version='1.0' encoding='bogus'?>",
    b"\x00", b"\xff\xfe", b"\xef\xbb\xbf", b"\xc3\x28", b"\xe2\x80\xa8", b"\x1f\x8b",
    b"0", b"1", b"2", b"?", b"-1", b"- 1", b"+3", b"1_000", b"2,064", b"1,00", b"3.5", b"1e400", b"-1e400",
    b"nan", b"inf", b"99999999999999999999", b"\xd9\xa3",
    b"/", b"//", b"/article[1]", b"/article[0]", b"/article[1]/sec[1]", b"/article[1]/sec[1]/p[1]",
    b"article/sec", b"/article[1]/*", b"text()", b"[", b"]", b"[1]", b"./f1.xml", b"\\f1", b"f1", b"f2",
    b"f9", b"topic", b"file", b"result", b"element", b"path", b"rank", b"rsv", b"best-entry-point",
    b"inex-submission", b"assessments", b"#", b":", b"=", b",", b",,", b"KEY: v", b"TASK: Thorough",
    b"TOPICS: 1", b"POOLS: 11", b"POOLS: 99", b"MAX_RESULTS: 2", b"MAX_RESULTS: 0", b"ALPHA: 2",
    b"OVERLAP: sideways", b"QUANT_FUNCTIONS: genlifted", b"DCV: 0", b"TASK: BestInContext",
    b"TASK: RelevantInContext", b"TASK: CO.FetchBrowse", b"TASK: trec", b"COLLECTION_DIR: docs",
    b"COLLECTION_DIR: nowhere", b"QUERY_TYPE: CO", b"BEP_A: 1, x", b"GAINS: 1:1, 2:2", b"REL_LEVEL: 2",
    b"Q_BETA: -1", b"AVG_DOC_LENGTH: 0", b"- a", b"{a: b}", b"[a, [b]]", b"!!python/object:os.system",
    b"*anchor", b"&anchor x", b"---", b"...", b"~",
    # found crashes (regression tests below): over-long numbers, deep YAML, huge rank counts
    b"9" * 5000, b"[" * 1000, b"1000000000000", b"99999999999999999999999", "\u00b2".encode(),
]

#: Values that are valid somewhere in a config, so that many mutated configs still load.
CONFIG_TOKENS = TOKENS + [
    b"on", b"off", b"on, off", b"gen", b"strict", b"genLifted", b"1", b"0.5", b"10, 25", b"CO.Thorough",
    b"Focused", b"assess", b"assess/", b"runs", b"runs/a.xml", b"runs/*", b"nxcg", b"ep/gr, q", b"11", b"1500",
] * 2


# Spans a value-level mutation replaces: in XML an attribute value or an element's
# text; in text runs and configs a word or what follows a "KEY:".
_XML_VALUE = re.compile(rb'"[^"<>]*"|>[^<>]*<')
_TEXT_VALUE = re.compile(rb":[^\n]*\n|\S+")
_OPS = ["value"] * 4 + ["insert", "delete", "duplicate", "bytes"]


@st.composite
def mutated(draw, seed: bytes, max_ops: int = 3, tokens: list[bytes] = TOKENS) -> bytes:
    """``seed`` after a few random mutations, mostly value-level (see the module docstring)."""
    data = bytearray(seed)
    pattern = _XML_VALUE if seed.lstrip().startswith(b"<") else _TEXT_VALUE
    for _ in range(draw(st.integers(0, max_ops))):
        op = draw(st.sampled_from(_OPS))
        n = len(data)
        if op == "value":
            spans = list(pattern.finditer(bytes(data)))
            if spans:
                m = draw(st.sampled_from(spans))
                lo, hi = m.span()
                keep_l = 1 if m.group()[:1] in (b'"', b">", b":") else 0
                keep_r = 1 if m.group()[-1:] in (b'"', b"<", b"\n") else 0
                data[lo + keep_l:hi - keep_r] = draw(st.sampled_from(tokens))
            continue
        i = draw(st.integers(0, n))
        if op == "insert":
            data[i:i] = draw(st.sampled_from(tokens))
        elif op == "bytes":
            data[i:i] = draw(st.binary(min_size=1, max_size=6))
        else:
            j = draw(st.integers(i, min(n, i + 80)))
            if op == "delete":
                del data[i:j]
            else:
                data[j:j] = data[i:j]
    return bytes(data)


def _write(path: Path, data: bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return path


@contextlib.contextmanager
def _sandbox(root: Path):
    """Keep config paths inside ``root``: a mutated value such as ``/`` or ``~`` must not walk the disk.

    A path outside ``root`` becomes a missing one (so the loader reports it), a glob outside matches nothing.
    """
    real_absolute, real_expand = config_module._absolute, config_module._expand_item

    def inside(path) -> bool:
        return os.path.commonpath([str(root), os.path.abspath(path)]) == str(root)

    def absolute(base, text):
        path = real_absolute(base, text)
        return path if inside(path) else root / "outside-sandbox"

    def expand(item, base):
        return real_expand(item, base) if inside(os.path.join(base, os.path.expanduser(item))) else []

    with mock.patch.object(config_module, "_absolute", absolute), \
            mock.patch.object(config_module, "_expand_item", expand):
        yield


# --------------------------------------------------------------------------- loaders


@FUZZ
@given(a=mutated(ASSESSMENTS), b=st.none() | mutated(ASSESSMENTS, 2),
       require_e=st.booleans(), query_type=st.sampled_from([None, "CO+S", "CO"]),
       pools=st.sampled_from([None, frozenset({"11"}), frozenset({"11", "12"})]))
def test_fuzz_assessments_loader(a, b, require_e, query_type, pools):
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        files = [InputFile(_write(root / "main" / "topic-1" / "pool-11.xml", a), root)]
        if b is not None:  # a second pool file: pool selection and header fallbacks
            files.append(InputFile(_write(root / "other" / "pool-12.xml", b), root))
        try:
            result = load_assessments(files, pools=pools, query_type=query_type, require_exhaustivity=require_e)
        except EmptySelection as exc:  # a config error: the caller places it at the key (tests/test_config.py)
            assert exc.key in ("POOLS", "QUERY_TYPE") and exc.file is None, exc
            return
        except InexevalError as exc:
            assert exc.file is not None, exc
            return
        for ta in result.topics.values():
            for fa in ta.files.values():
                for j in fa.elements.values():
                    assert 0 <= j.rsize <= j.size


@FUZZ
@given(data=st.one_of(mutated(RUN_XML), mutated(RUN_TEXT)),
       task=st.sampled_from([None, "CO.Focussed", "BestInContext", "RelevantInContext", "CO.Thorough"]),
       max_results=st.sampled_from([1500, 1500, 1500, 2]))
def test_fuzz_run_reader_and_validator_agree(data, task, max_results):
    with tempfile.TemporaryDirectory() as tmp:
        path = _write(Path(tmp) / "run.xml", data)
        report = validate_run(path, task=task, max_results=max_results)  # never raises
        assert isinstance(report, RunReport)
        assert report.format in ("xml", "text", "unknown")
        assert format_reports([report]).startswith(f"{path}: {'VALID' if report.valid else 'INVALID'} ")
        assert json.loads(format_reports([report], "json"))[0]["valid"] == report.valid
        refusing = [f for f in report.problems if f.kind in ("unreadable", "malformed")]
        try:
            run = read_run(path, max_results=max_results)
        except InexevalError as exc:
            assert isinstance(exc, InputError) and exc.file == str(path)
            # the one reader: the evaluator stops at one of the validator's findings
            assert (exc.line, exc.message) in [(f.line, f.message) for f in refusing], exc
            return
        assert not refusing, refusing
        # every kind of issue the evaluator warns about is a finding of the validator, and back
        kinds = {f.kind for f in report.problems + report.warnings}
        for words, kind in [("beyond MAX_RESULTS", "beyond_max_results"), ("invalid result", "invalid_path"),
                            ("duplicate result", "duplicate"), ("rank", "rank")]:
            assert any(words in w for w in run.warnings) == (kind in kinds), (words, run.warnings, kinds)
        if not report.valid:
            return
        # valid: nothing was dropped, and the task's rules hold in what the evaluator reads
        assert {t: len(rs) for t, rs in run.topics.items()} == report.results_per_topic
        for results in run.topics.values():
            if report.task == "BestInContext":  # evaluation would leave out a later result of an article
                files = [f for f, _ in results]
                assert len(files) == len(set(files))
        # overlap (Focussed) and interleaving (RelevantInContext) are scored as submitted: warnings
        for kind in ("overlap", "interleaved"):
            assert kind not in {f.kind for f in report.problems}


#: Evaluation's warnings about a run that it scores with some of its results left out -> the validator's
#: finding of the same reason (Best in Context's later results of an article: overlapping or not).
_LEFT_OUT = {r"beyond MAX_RESULTS=\d+ dropped": "beyond_max_results", r"invalid results? skipped": "invalid_path",
             r"duplicate results? dropped": "duplicate", r"not in the recall-base ignored": "unknown_topic",
             r"later result\(s\) of the article dropped": "article"}
_SAME_REASON = {"overlap": "article", "repeated_article": "article"}


def _evaluation_verdict(res, path: Path) -> set[str]:
    """{'skipped'} (a problem), or why some results were left out (empty: scored as submitted)."""
    if res.problems:
        return {"skipped"}
    return {kind for pattern, kind in _LEFT_OUT.items()
            if any(str(path) in w and re.search(pattern, w) for w in res.warnings)}


def _validation_verdict(report: RunReport) -> set[str]:
    if any(f.kind in ("unreadable", "malformed") for f in report.problems):
        return {"skipped"}
    return {_SAME_REASON.get(f.kind, f.kind) for f in report.problems}


#: A run against the task rules: overlap (Focussed), an article resumed (RelevantInContext), a second
#: result of an article (BestInContext).
RUN_AGAINST_RULES = b"""1 Q0 f1 1 3 rules /article[1]/sec[1]
1 Q0 f2 2 2 rules /article[1]/p[1]
1 Q0 f1 3 1 rules /article[1]/sec[1]/p[1]
"""


@settings(FUZZ, max_examples=80)
@given(data=st.one_of(mutated(RUN_XML), mutated(RUN_TEXT), mutated(RUN_AGAINST_RULES, 1)),
       task=st.sampled_from(["CO.Focussed", "BestInContext", "RelevantInContext", "CO.Thorough"]),
       max_results=st.sampled_from([1500, 1500, 2]))
def test_fuzz_validate_gives_evaluations_verdict(data, task, max_results):
    """The same run, validated (with the assessments) and evaluated: validate is INVALID exactly when
    evaluation skips the run or leaves some of its results out, and says why at the same line."""
    import inexeval
    from inexeval.validate import assessments_from

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        _write(root / "assess" / "pool-11.xml", ASSESSMENTS)
        for d, body in DOCUMENTS.items():
            _write(root / "docs" / f"{d}.xml", body)
        path = _write(root / "runs" / "run.xml", data)
        report = validate_run(path, task=task, assessments=assessments_from(str(root / "assess")),
                              max_results=max_results)
        res = inexeval.evaluate({"TASK": task, "ASSESSMENTS_DIR": str(root / "assess"),
                                 "SUBMISSIONRUNS_DIR": str(root / "runs"), "COLLECTION_DIR": str(root / "docs"),
                                 "MAX_RESULTS": max_results, "RESULTS_DIR": str(root / "out")})
        verdict = _evaluation_verdict(res, path)
        assert _validation_verdict(report) == verdict, (report.problems, res.problems, res.warnings)
        assert report.valid == (not verdict)
        if verdict == {"skipped"}:
            (problem,) = res.problems
            assert (problem.line, problem.message) in [(f.line, f.message) for f in report.problems]


#: (seed, file name): the name decides the format; the last pair feeds .prop text to the YAML reader.
CONFIG_SEEDS = [(CONFIG_PROP, "c.prop"), (CONFIG_YAML, "c.yaml"), (CONFIG_2006, "c.prop"), (CONFIG_PROP, "c.yml")]
OVERRIDES = ["DCV=3", "TASK=Thorough", "OVERLAP=on", "COLLECTION_DIR=docs", "POOLS=11", "MAX_RESULTS=2",
             "ALPHA=x", "NOPE=1", "=", "POOLS="]


@FUZZ
@given(data=st.data(), seed=st.sampled_from(CONFIG_SEEDS),
       overrides=st.lists(st.sampled_from(OVERRIDES), max_size=2))
def test_fuzz_config_loader(data, seed, overrides):
    text, name = seed
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        _write(root / "assess" / "pool-11.xml", ASSESSMENTS)
        _write(root / "runs" / "a.xml", RUN_XML)
        _write(root / "runs" / "b.txt", RUN_TEXT)
        (root / "docs").mkdir()
        cfg = _write(root / name, data.draw(mutated(text, tokens=CONFIG_TOKENS), label="config"))
        try:
            with _sandbox(root):
                config = load_config(cfg, overrides)
        except InexevalError as exc:
            assert exc.file is not None, exc
            return
        assert config.task and config.assessments and config.runs


# --------------------------------------------------------------------------- encodings (issue 15)

FOL_QRELS = (b"2009001 Q0 851 7300 10656 100 1205:3431 4643:720\n2009001 Q0 21 0 500\n"
             b"2009002 Q0 9 10 100 5 5:10\n")
FOL_RUN = b"2009001 Q0 851 1 0.5 r 1205 100\n2009001 Q0 21 2 0.4 r 0 50\n2009002 Q0 9 1 0.2 r 5 10\n"

#: every kind of input but TREC (its reader is another branch's): (seed, file name, reader)
ENCODED_INPUTS = {
    "assessments": (ASSESSMENTS, "pool-11.xml"),
    "run.xml": (RUN_XML, "run.xml"),
    "run.txt": (RUN_TEXT, "run.txt"),
    "fol qrels": (FOL_QRELS, "qrels.txt"),
    "fol run": (FOL_RUN, "fol.txt"),
    "config.prop": (CONFIG_PROP, "c.prop"),
    "config.yaml": (CONFIG_YAML, "c.yaml"),
}
#: how an input is written: a UTF-8 byte order mark, or a wide encoding with its byte order mark
ENCODINGS = ["utf-8-sig", "utf-16", "utf-16-le", "utf-16-be", "utf-32", "utf-32-be"]


def _encoded(text: str, encoding: str) -> bytes:
    if encoding in ("utf-16-le", "utf-16-be", "utf-32-be"):
        return ("\ufeff" + text).encode(encoding)
    return text.encode(encoding)


def _outcome(kind: str, path: Path):
    """What the reader of ``kind`` makes of ``path``: its result, or its error without columns."""
    from inexeval.readers.fol import read_fol_qrels, read_fol_run

    try:
        if kind == "assessments":
            a = load_assessments([InputFile(path, path.parent)])
            return ({t: {f: sorted(fa.elements.items()) for f, fa in ta.files.items()} for t, ta in a.topics.items()},
                    a.warnings)
        if kind.startswith("run"):
            run = read_run(path)
            return run.run_id, run.topics, run.warnings
        if kind == "fol qrels":
            return read_fol_qrels(path)
        if kind == "fol run":
            return [(line.line, line.fields) for line in read_fol_run(path).lines]
        return load_config(path)
    except ConfigErrors as exc:
        return [(e.line, e.message) for e in exc.errors]
    except InexevalError as exc:
        return type(exc), exc.line, re.sub(r", column \d+", "", exc.message)


@FUZZ
@given(data=st.data(), kind=st.sampled_from(sorted(ENCODED_INPUTS)), encoding=st.sampled_from(ENCODINGS))
def test_fuzz_bom_and_wide_encodings_read_as_utf8(data, kind, encoding):
    """An input with a byte order mark, or in UTF-16/32, gives what its UTF-8 form gives: the same
    result, or the same error on the same line (a BOM changed the first topic id; UTF-16 runs were
    refused while UTF-16 assessments were read)."""
    seed, name = ENCODED_INPUTS[kind]
    tokens = CONFIG_TOKENS if kind.startswith("config") else TOKENS
    raw = data.draw(mutated(seed, tokens=tokens), label=kind)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return  # not text in any encoding
    # an XML declaration naming an encoding, a NUL (UTF-16 without a BOM) or a BOM already there
    # are what the conversion itself looks at: the plain form is another input then
    if "encoding" in text or "\x00" in text or text.startswith("\ufeff"):
        return
    with tempfile.TemporaryDirectory() as tmp:
        path = _write(Path(tmp) / name, raw)
        with _sandbox(Path(tmp)):
            plain = _outcome(kind, path)
            path.write_bytes(_encoded(text, encoding))
            assert _outcome(kind, path) == plain


# --------------------------------------------------------------------------- CLI end to end


#: (config seed, file name, --set overrides that switch it to another task)
CLI_SEEDS = [
    (CONFIG_PROP, "c.prop", [["TASK=CO.Focussed"], ["TASK=CO.Thorough"], ["TASK=CO.FetchBrowse", "METRICS=ep/gr"]]),
    (CONFIG_YAML, "c.yaml", [["TASK=CO.Thorough"], ["TASK=COS.Focussed"]]),
    (CONFIG_2006, "c.prop", [["TASK=BestInContext"], ["TASK=RelevantInContext", "METRICS=gp"]]),
]


#: Extreme but well-formed settings, so that the measures meet them too.
CLI_EXTRA_SETS = ["DCV=1", "DCV=1000000000000", "DCV=99999999999999999999999", "MAX_RESULTS=1",
                  "MAX_RESULTS=1000000000000000000000", "ALPHA=0", "Q_BETA=0", "Q_BETA=1e308",
                  "BEP_A=1e-320", "AVG_DOC_LENGTH=1e308", "QUANT_FUNCTIONS=strict,genLifted", "TOPICS=1",
                  "POOLS=12", "QUERY_TYPE=CO"]


@settings(FUZZ, max_examples=100)
@given(data=st.data(), seed=st.sampled_from(CLI_SEEDS), extra=st.lists(st.sampled_from(CLI_EXTRA_SETS), max_size=2),
       target=st.sampled_from(["nothing", "config", "assessments", "run.xml", "run.txt", "document"]),
       flags=st.lists(st.sampled_from(["-q", "-e", "--format=json", "--format=csv"]), max_size=2, unique=True),
       encoding=st.sampled_from([None, None, None, "utf-8-sig", "utf-16", "utf-32-be"]))
def test_fuzz_cli_exit_status_and_no_traceback(data, seed, extra, target, flags, encoding):
    """One input mutated per example, so that the others still reach the measures; that input is
    sometimes written with a byte order mark or in UTF-16/32 (issue 15)."""
    text, name, tasks = seed
    sets = data.draw(st.sampled_from(tasks), label="--set")
    files = {name: text, "assess/pool-11.xml": ASSESSMENTS, "runs/a.xml": RUN_XML, "runs/b.txt": RUN_TEXT}
    files.update({f"docs/{d}.xml": body for d, body in DOCUMENTS.items()})
    key = {"config": name, "assessments": "assess/pool-11.xml", "run.xml": "runs/a.xml",
           "run.txt": "runs/b.txt", "document": "docs/f1.xml"}.get(target)
    if key is not None:
        tokens = CONFIG_TOKENS if target == "config" else TOKENS
        files[key] = data.draw(mutated(files[key], tokens=tokens), label=target)
        if encoding is not None:
            with contextlib.suppress(UnicodeDecodeError):
                files[key] = _encoded(files[key].decode("utf-8"), encoding)
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        for rel, body in files.items():
            _write(root / rel, body)
        args = ["-config", str(root / name), "--results-dir", str(root / "out"), *flags]
        args += [a for kv in [*sets, *extra] for a in ("--set", kv)]
        with _sandbox(root):
            result = CliRunner().invoke(main, args)
        assert result.exception is None or isinstance(result.exception, SystemExit), result.exc_info
        assert result.exit_code in (0, 1, 2), result.output
        assert "Traceback" not in result.output


# --------------------------------------------------------------------------- regressions (crashes found)


def test_regression_deep_yaml_is_a_config_error(tmp_path):
    # PyYAML composes recursively: a deeply nested value raised RecursionError
    cfg = _write(tmp_path / "c.yaml", b"TASK: " + b"[" * 1000 + b"\n")
    with pytest.raises(ConfigErrors) as exc:
        load_config(cfg)
    assert [(e.file, e.message) for e in exc.value.errors][0] == (str(cfg), "invalid YAML: nested too deeply")


def test_regression_over_long_count_is_an_input_error(tmp_path):
    # a 5000-digit size exceeded Python's int-from-text limit: ValueError escaped
    data = ASSESSMENTS.replace(b'size="400"', b'size="' + b"9" * 5000 + b'"')
    path = _write(tmp_path / "pool-11.xml", data)
    with pytest.raises(InputError) as exc:
        load_assessments([InputFile(path, tmp_path)])
    assert (exc.value.file, exc.value.line) == (str(path), 9)  # the element of sec[1]
    assert exc.value.message == "size 99999999999999999999... (5000 characters) is too large"


@pytest.mark.parametrize("key", ["DCV", "MAX_RESULTS"])
def test_regression_huge_rank_counts_are_config_errors(tmp_path, key):
    # DCV=10**12 made nxCG allocate 7 TiB; MAX_RESULTS=10**21 overflowed a C long;
    # DCV=10**23 gave an object array used as an index.  Now bounded by MAX_RANK.
    _write(tmp_path / "assess" / "pool-11.xml", ASSESSMENTS)
    _write(tmp_path / "runs" / "a.xml", RUN_XML)
    cfg = _write(tmp_path / "c.prop", b"TASK: CO.Focussed\nASSESSMENTS_DIR: assess\nSUBMISSIONRUNS_DIR: runs\n")
    assert load_config(cfg, [f"{key}={MAX_RANK}"]).dcv  # the bound itself is accepted
    with pytest.raises(ConfigErrors) as exc:
        load_config(cfg, [f"{key}={MAX_RANK + 1}"])
    assert [e.message for e in exc.value.errors] == [f"{key}: '{MAX_RANK + 1}' is too large (at most {MAX_RANK})"]
    result = CliRunner().invoke(main, ["-config", str(cfg), "--set", f"{key}=1000000000000",
                                       "--results-dir", str(tmp_path / "out")])
    assert result.exit_code == 2 and "Traceback" not in result.output


def test_regression_unexaminable_path_is_skipped(tmp_path):
    # a symlink into /proc made Path.is_file() raise PermissionError while walking a directory
    _write(tmp_path / "assess" / "pool-11.xml", ASSESSMENTS)
    _write(tmp_path / "runs" / "a.xml", RUN_XML)
    _write(tmp_path / "runs" / "locked.xml", RUN_XML)
    cfg = _write(tmp_path / "c.prop", b"TASK: CO.Focussed\nASSESSMENTS_DIR: assess\nSUBMISSIONRUNS_DIR: runs\n")
    real_is_file = Path.is_file

    def is_file(self):
        if self.name == "locked.xml":
            raise PermissionError(13, "Permission denied", str(self))
        return real_is_file(self)

    with mock.patch.object(Path, "is_file", is_file):
        config = load_config(cfg)
    # listed with why it is not read, so that the evaluation reports it (issue 15), not dropped silently
    assert [(f.path.name, f.problem) for f in config.runs] == [("a.xml", None), ("locked.xml", "cannot be examined")]


def test_regression_topic_ids_that_int_refuses(tmp_path):
    # "²" is a digit to str.isdigit() but not to int(); 5000 digits exceed int()'s limit.
    # Both made the assessment loader's topic sort raise ValueError.
    files = []
    for n, topic in enumerate(["\u00b2", "9" * 5000, "10", "9", "a"]):
        data = ASSESSMENTS.replace(b'topic="1"', f'topic="{topic}"'.encode()).replace(b'topic_id="1"', b"")
        files.append(InputFile(_write(tmp_path / f"pool-{n}.xml", data), tmp_path))
    assert list(load_assessments(files).topics) == ["9", "10", "9" * 5000, "a", "\u00b2"]


# paths.normalise_path and aggregate.natural_key called int() on text that int() refuses.


def test_regression_path_index_beyond_int_limit_is_an_invalid_path(tmp_path):
    huge = "9" * 5000
    with pytest.raises(InvalidPath):
        normalise_path(f"/article[{huge}]")
    run = _write(tmp_path / "run.xml", RUN_XML.replace(b"/article[1]/p[1]", f"/article[{huge}]".encode()))
    assert sum(map(len, read_run(run).topics.values())) == 4  # 5 results, the invalid one skipped
    assert [f.kind for f in validate_run(run).problems] == ["invalid_path"]
    data = ASSESSMENTS.replace(b'"/article[1]/p[1]"', f'"/article[{huge}]"'.encode())
    assess = _write(tmp_path / "a" / "pool-11.xml", data)
    with pytest.raises(InputError):
        load_assessments([InputFile(assess, tmp_path)])


@pytest.mark.parametrize("topic", ["\u00b2", "9" * 5000])
def test_regression_run_topic_id_that_int_refuses(tmp_path, topic):
    _write(tmp_path / "assess" / "pool-11.xml", ASSESSMENTS)
    _write(tmp_path / "runs" / "a.xml", RUN_XML.replace(b'topic-id="2"', f'topic-id="{topic}"'.encode()))
    cfg = _write(tmp_path / "c.prop", b"TASK: CO.Focussed\nASSESSMENTS_DIR: assess\nSUBMISSIONRUNS_DIR: runs\n")
    result = CliRunner().invoke(main, ["-config", str(cfg), "--results-dir", str(tmp_path / "out")])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exc_info
    assert result.exit_code == 0
    assert f"1 topic(s) not in the recall-base ignored: {topic}" in result.output


TREC_QRELS = b"1 0 d1 1\n1 0 d2 0\n2 0 d3 2\n"
TREC_RUN = b"1 Q0 d1 1 2.5 tr\n1 Q0 d2 2 1.5 tr\n2 Q0 d3 1 9 tr\n2 Q0 d9 2 8 tr\n"


@settings(FUZZ, max_examples=80)
@given(data=mutated(TREC_RUN))
def test_fuzz_validate_trec_gives_evaluations_verdict(data):
    """`validate --task trec` and evaluation on the same TREC run: the same run skipped at the same line
    with the same message, the same results left out."""
    import inexeval
    from inexeval.validate import assessments_from

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        qrels = _write(root / "qrels.txt", TREC_QRELS)
        path = _write(root / "runs" / "run.txt", data)
        report = validate_run(path, task="trec", assessments=assessments_from(str(qrels), task="trec"))
        res = inexeval.evaluate({"TASK": "trec", "ASSESSMENTS_DIR": str(qrels), "METRICS": "map",
                                 "SUBMISSIONRUNS_DIR": str(root / "runs"), "RESULTS_DIR": str(root / "out")})
        assert report.valid == (not res.problems and not any(
            re.search("duplicate|not in the qrels", w) for w in res.warnings)), (report, res.warnings)
        if res.problems:
            (problem,) = res.problems
            assert [(f.kind, f.line, f.message) for f in report.problems] == [
                ("malformed", problem.line, problem.message)]
        else:
            assert sorted(f"{path}: {f.message}" for f in report.problems) == sorted(  # (validate names the file once)
                w for w in res.warnings if re.search("duplicate|not in the qrels", w))


#: Command-line pieces, valid or not, combined at random (CONFIG: the config file, OUT: a results dir).
_MAIN_OPTIONS = [["-config", "CONFIG"], ["-config", "CONFIG"], ["-q"], ["-e"], ["-gnu"], ["--topic-graphs"],
                 ["--set", "DCV=3"], ["--set", "TOPICS=9"], ["--set", "METRICS=nope"], ["--results-dir", "OUT"],
                 ["--format", "table"], ["--format", "json"], ["--format", "trec_eval"], ["--format", "inex_eval"],
                 ["--format", "csv"], ["--digits", "3"], ["--jobs", "1"], ["--quiet"], ["--list-metrics"]]
_COMPARE_OPTIONS = [["-config", "CONFIG"], ["-e"], ["--measure", "MAep"], ["--measure", "nope"],
                    ["--test", "bootstrap"], ["--samples", "20"], ["--seed", "3"], ["--runs", "myrun,textrun"],
                    ["--runs", "myrun,myrun"], ["-gnu"], ["--results-dir", "OUT"], ["--reevaluate"], ["--quiet"]]
_VALIDATE_OPTIONS = [["--task", "CO.Focussed"], ["--task", "trec"], ["--format", "json"], ["--max-results", "1"],
                     ["--assessments", "ASSESS"], ["--format", "text"]]


@settings(FUZZ, max_examples=60)
@given(command=st.sampled_from(["main", "compare", "validate", "metrics"]), data=st.data())
def test_fuzz_option_combinations_never_give_a_traceback(command, data):
    """Random combinations of options (repeated, contradictory, without effect) on every command: exit
    status 0, 1 or 2 and a message, never a traceback."""
    pool = {"main": _MAIN_OPTIONS, "compare": _COMPARE_OPTIONS, "validate": _VALIDATE_OPTIONS,
            "metrics": _MAIN_OPTIONS[2:4]}[command]
    picked = data.draw(st.lists(st.sampled_from(pool), max_size=5), label="options")
    before = data.draw(st.lists(st.sampled_from(_MAIN_OPTIONS[2:]), max_size=1), label="before")
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        _write(root / "assess" / "pool-11.xml", ASSESSMENTS)
        _write(root / "runs" / "a.xml", RUN_XML)
        _write(root / "runs" / "b.txt", RUN_TEXT)
        config = _write(root / "c.prop", CONFIG_PROP)
        names = {"CONFIG": str(config), "OUT": str(root / "out"), "ASSESS": str(root / "assess")}
        args = [names.get(a, a) for option in picked for a in option]
        if command == "compare" and "-config" not in args:
            args += ["-config", str(config)]
        if command == "validate":
            args += [str(root / "runs" / "a.xml")]
        args = ([] if command == "main" else [*(a for o in before for a in o), command]) + args
        result = CliRunner().invoke(main, args)
        assert result.exception is None or isinstance(result.exception, SystemExit), (args, result.exc_info)
        assert result.exit_code in (0, 1, 2), (args, result.output)
        assert "Traceback" not in result.output, args
        if result.exit_code == 2:
            assert "rror" in result.output, (args, result.output)


# --------------------------------------------------------------------------- names from users' files

#: characters of awkward run and topic ids: control characters, line and path separators, case, dots
_NAME_CHARS = st.sampled_from(list("aA.-_/\\~ é$'\"<&#") + ["\t", "\n", "\r", "\x7f", "\x85", "\u2028", "\u2029"])
_NAMES = (st.text(_NAME_CHARS, min_size=1, max_size=6) | st.sampled_from([".", "..", "-", "con", "../../x"])
          | st.text(_NAME_CHARS, min_size=250, max_size=300))


@settings(FUZZ, max_examples=80)
@given(run_ids=st.lists(_NAMES, min_size=1, max_size=4), topics=st.lists(_NAMES, min_size=1, max_size=2))
def test_fuzz_names_every_output_well_formed_inside_and_one_to_one(run_ids, topics):
    """Run ids and topic ids with control characters, path separators, dots and 300 characters:
    every output (result files, summaries, stdout in every format, .dat/.gp, per-topic graphs)
    stays well-formed, inside RESULTS_DIR, one file per run and one directory per topic."""
    from names_helpers import check_outputs, evaluate_all_formats, write_inex

    from inexeval.errors import InputError

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        cfg = write_inex(root, run_ids, topics)
        try:
            ev, status, stdout = evaluate_all_formats(cfg)
        except InputError as exc:  # e.g. topics the reader strips to nothing: no topic assessed
            assert exc.file is not None
            event("no topic assessed")
            return
        if not ev.results:
            event("no run scored")
            return
        event("outputs checked")
        check_outputs(root, root / "out", ev, stdout)
        ids = [r.run_id for r in ev.results]
        assert status == (0 if len(set(ids)) == len(run_ids) else 1), "an id used twice skips a run, exit 1"
