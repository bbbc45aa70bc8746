"""Tests of the configuration loader (docs/config.md, docs/measures.md §3, §5, §8; seed 000 §6)."""

from __future__ import annotations

from pathlib import Path

import pytest

from inexeval import records
from inexeval.config import (
    Config,
    InputFile,
    expand_paths,
    load_config,
    parse_prop_text,
)
from inexeval.errors import ConfigError, ConfigErrors
from inexeval.tasks import TASKS

# ---------------------------------------------------------------------------
# helpers


def touch(path: Path, text: str = "x") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def make_inputs(tmp: Path) -> None:
    """assess/ with two topic directories and runs/ with two runs."""
    touch(tmp / "assess" / "t1" / "pool-1.xml")
    touch(tmp / "assess" / "t2" / "pool-2.xml")
    touch(tmp / "runs" / "a.xml")
    touch(tmp / "runs" / "b.txt")


def write_prop(tmp: Path, body: str, name: str = "c.prop") -> Path:
    path = tmp / name
    path.write_text(body)
    return path


MINIMAL = "TASK: CO.Thorough\nASSESSMENTS_DIR: assess\nSUBMISSIONRUNS_DIR: runs\n"


def load_with(tmp: Path, extra: str, task: str = "CO.Thorough") -> Config:
    """Load MINIMAL (with TASK replaced) plus EXTRA lines."""
    make_inputs(tmp)
    body = MINIMAL.replace("CO.Thorough", task) + extra
    return load_config(write_prop(tmp, body))


def errors_of(tmp: Path, extra: str, task: str = "CO.Thorough") -> list[ConfigError]:
    with pytest.raises(ConfigErrors) as info:
        load_with(tmp, extra, task)
    return info.value.errors


def single_error(tmp: Path, extra: str, task: str = "CO.Thorough") -> ConfigError:
    errors = errors_of(tmp, extra, task)
    assert len(errors) == 1, [str(e) for e in errors]
    return errors[0]


def files(inputs: tuple[InputFile, ...], tmp: Path) -> list[tuple[str, str]]:
    """(path, root) relative to TMP, as posix strings, for readable asserts."""
    return [(f.path.relative_to(tmp).as_posix(), f.root.relative_to(tmp).as_posix()) for f in inputs]


# ---------------------------------------------------------------------------
# .prop syntax (docs/config.md)


def test_parse_prop_key_forms_comments_and_blank_lines():
    text = (
        "# a whole-line comment\n"
        "TASK: SSCAS #or SVCAS, VSCAS, VVCAS\n"
        "\n"
        "alpha = 0.5\n"
        "   \n"
        "Dcv:10, 25,50  \n"
        "  METRICS : nxCG\n"
    )
    assert parse_prop_text(text, "x.prop") == [
        ("TASK", "SSCAS", 2),
        ("ALPHA", "0.5", 4),
        ("DCV", "10, 25,50", 6),
        ("METRICS", "nxCG", 7),
    ]


def test_parse_prop_aliases_are_canonical_keys():
    text = "expanded_fullRB: a\nINEXDOCCOLL_DIR = b\n"
    assert parse_prop_text(text, "x.prop") == [("ASSESSMENTS_DIR", "a", 1), ("COLLECTION_DIR", "b", 2)]


def test_parse_prop_continuation_lines_seed000_pools():
    # seed 000 §6.1 (continuation at column 0) and §6.3 (indented continuation)
    flush = "POOLS: 275,297,273,353,300,283,309,327,292,319,321, 325,301,315,265,361,\n364,349,279\n"
    indented = "POOLS: 275,297,273,353,300,283,309,327,292,319,321,325,301,315,265,361,\n       364,349,279\n"
    expected_items = "275 297 273 353 300 283 309 327 292 319 321 325 301 315 265 361 364 349 279".split()
    for text in (flush, indented):
        [(key, value, line)] = parse_prop_text(text, "x.prop")
        assert (key, line) == ("POOLS", 1)
        assert [v.strip() for v in value.split(",") if v.strip()] == expected_items


def test_parse_prop_continuation_starting_with_comma_and_after_empty_value():
    text = "DCV:\n  10\n, 25\n50\n"
    [(key, value, line)] = parse_prop_text(text, "x.prop")
    assert (key, line) == ("DCV", 1)
    assert [v.strip() for v in value.split(",") if v.strip()] == ["10", "25", "50"]


def test_parse_prop_syntax_errors_are_collected():
    text = (
        "  10, 20\n"  # 1: continuation with nothing before it
        "TASK: trec\n"
        "ASSESMENTS_DIR: a\n"  # 3: misspelt key
        "   , b\n"  # continues the misspelt key: not reported again
        "hello world\n"  # 5: not KEY: value
        "    POOLZ: 1\n"  # 6: an indented misspelt key is a key, not a continuation
    )
    with pytest.raises(ConfigErrors) as info:
        parse_prop_text(text, "x.prop")
    got = [(e.file, e.line, e.message) for e in info.value.errors]
    assert got == [
        ("x.prop", 1, "continuation line without a key before it"),
        ("x.prop", 3, "unknown key 'ASSESMENTS_DIR'; did you mean ASSESSMENTS_DIR?"),
        ("x.prop", 5, "expected 'KEY: value', got 'hello world'"),
        ("x.prop", 6, "unknown key 'POOLZ'; did you mean POOLS?"),
    ]


# ---------------------------------------------------------------------------
# seed 000 §6: the official inex2005.prop blocks, verbatim.  Their paths start
# with ".." (the parent of the config's directory) or "..." (which on a POSIX
# file system is an ordinary directory name); the tree below makes both exist
# inside tmp_path.

SEED_6_1_CO = """\
TASK: CO.Focussed
METRICS: nxCG, ep/gr, q
ALPHA: 1.0
OVERLAP: on
QUANT_FUNCTIONS: gen, strict, genLifted
DCV: 10, 25, 50
ASSESSMENTS_DIR: ../adhoc2005/official/CO+S*/
QUERY_TYPE: CO+S
SUBMISSIONRUNS_DIR: ../inex2005_runs*/
"""

SEED_6_1_COS = """\
TASK: COS.Focussed
METRICS: nxCG, ep/gr, q
ALPHA: 1.0
OVERLAP: on
QUANT_FUNCTIONS: gen, strict, genLifted
DCV: 10, 25, 50
ASSESSMENTS_DIR: .../adhoc2005/official/CO+S/*/
QUERY_TYPE: CO+S
SUBMISSIONRUNS_DIR: .../inex2005_runs/*/
POOLS: 275,297,273,353,300,283,309,327,292,319,321, 325,301,315,265,361,
364,349,279
"""

SEED_6_2_CO = """\
TASK: CO.Thorough
METRICS: nxCG, ep/gr, q
ALPHA: 1.0
OVERLAP: off
QUANT_FUNCTIONS: gen, strict, genLifted
DCV: 10, 25, 50
ASSESSMENTS_DIR: .../adhoc2005/official/CO+S/*/
QUERY_TYPE: CO+S
SUBMISSIONRUNS_DIR: .../inex2005_runs/*/
"""

SEED_6_2_COS = SEED_6_2_CO.replace("CO.Thorough", "COS.Thorough") + (
    "POOLS: 275,297,273,353,300,283,309,327,292,319,321,325,301,315,265,361,\n364,349,279\n"
)

SEED_6_3_CO = """\
TASK: CO.FetchBrowse
METRICS: ep/gr
ALPHA: 1.0
OVERLAP: on, off
QUANT_FUNCTIONS: gen, strict, genLifted
DCV: 10, 25, 50
ASSESSMENTS_DIR: ../adhoc2005/official/CO+S/*/
QUERY_TYPE: CO+S
SUBMISSIONRUNS_DIR: ../inex2005_runs/*/
"""

SEED_6_3_COS = SEED_6_3_CO.replace("CO.FetchBrowse", "COS.FetchBrowse") + (
    "POOLS: 275,297,273,353,300,283,309,327,292,319,321,325,301,315,265,361,\n       364,349,279\n"
)

SEED_6_4 = """\
TASK: SSCAS #or SVCAS, VSCAS, VVCAS
METRICS: nxCG, ep/gr, q
ALPHA: 1.0
OVERLAP: off
QUANT_FUNCTIONS: gen, strict, genLifted
DCV: 10, 25, 50
ASSESSMENTS_DIR: .../official/SSCAS/ #or .../SVCAS/, .../VSCAS/, .../VVCAS/
QUERY_TYPE: CAS
SUBMISSIONRUNS_DIR: .../inex2005_runs*/
"""

SEED_POOLS = frozenset(
    "275 297 273 353 300 283 309 327 292 319 321 325 301 315 265 361 364 349 279".split()
)


@pytest.fixture
def inex2005(tmp_path: Path) -> Path:
    """The tree the seed 000 §6 configs point at; returns the config directory."""
    conf = tmp_path / "evalj"
    for top in (tmp_path, conf / "..."):
        touch(top / "adhoc2005" / "official" / "CO+S" / "topic-202" / "pool-1.xml")
        touch(top / "adhoc2005" / "official" / "CO+S" / "topic-203" / "pool-2.xml")
        touch(top / "inex2005_runs" / "group1" / "run1.xml")
        touch(top / "inex2005_runs" / "group2" / "run2.xml")
    touch(conf / "..." / "official" / "SSCAS" / "topic-250.xml")
    return conf


def load_text(conf: Path, text: str) -> Config:
    path = conf / "inex2005.prop"
    path.write_text(text)
    return load_config(path)


def test_seed000_6_1_co_focussed(inex2005: Path):
    c = load_text(inex2005, SEED_6_1_CO)
    top = inex2005.parent
    assert (c.task, c.strategy) == ("CO.Focussed", "focussed")
    assert c.metrics == ("nxcg", "ep/gr", "q")
    assert c.alpha == 1.0
    assert c.overlap == ("on",)
    assert c.quant_functions == ("gen", "strict", "genLifted")
    assert c.dcv == (10, 25, 50)
    assert c.query_type == "CO+S"
    assert c.pools is None and c.topics is None
    # "CO+S*/" matches the directory CO+S, searched recursively; the root is the
    # glob's fixed prefix, the directory that holds CO+S
    co_s = "adhoc2005/official/CO+S"
    assert files(c.assessments, top) == [
        (f"{co_s}/topic-202/pool-1.xml", "adhoc2005/official"),
        (f"{co_s}/topic-203/pool-2.xml", "adhoc2005/official"),
    ]
    assert files(c.runs, top) == [
        ("inex2005_runs/group1/run1.xml", "."),
        ("inex2005_runs/group2/run2.xml", "."),
    ]
    assert c.results_dir == inex2005 / "results"
    assert c.source == inex2005 / "inex2005.prop"
    assert c.line_of("task") == 1 and c.line_of("SUBMISSIONRUNS_DIR") == 9
    assert c.line_of("POOLS") is None


def test_seed000_6_1_cos_focussed_with_pools_continuation(inex2005: Path):
    c = load_text(inex2005, SEED_6_1_COS)
    assert c.task == "COS.Focussed"
    assert c.pools == SEED_POOLS
    assert c.line_of("POOLS") == 10
    # "CO+S/*/" matches each topic directory: each is the root of its files
    base = inex2005 / "..."
    co_s = "adhoc2005/official/CO+S"
    assert files(c.assessments, base) == [
        (f"{co_s}/topic-202/pool-1.xml", co_s),
        (f"{co_s}/topic-203/pool-2.xml", co_s),
    ]
    assert files(c.runs, base) == [
        ("inex2005_runs/group1/run1.xml", "inex2005_runs"),
        ("inex2005_runs/group2/run2.xml", "inex2005_runs"),
    ]


@pytest.mark.parametrize(
    "text, task, strategy, overlap, metrics, pools",
    [
        (SEED_6_2_CO, "CO.Thorough", "thorough", ("off",), ("nxcg", "ep/gr", "q"), None),
        (SEED_6_2_COS, "COS.Thorough", "thorough", ("off",), ("nxcg", "ep/gr", "q"), SEED_POOLS),
        (SEED_6_3_CO, "CO.FetchBrowse", "fetchbrowse", ("on", "off"), ("ep/gr",), None),
        (SEED_6_3_COS, "COS.FetchBrowse", "fetchbrowse", ("on", "off"), ("ep/gr",), SEED_POOLS),
    ],
)
def test_seed000_6_2_and_6_3(inex2005: Path, text, task, strategy, overlap, metrics, pools):
    c = load_text(inex2005, text)
    assert (c.task, c.strategy, c.overlap, c.metrics, c.pools) == (task, strategy, overlap, metrics, pools)
    assert c.quant_functions == ("gen", "strict", "genLifted")
    assert c.dcv == (10, 25, 50) and c.alpha == 1.0 and c.query_type == "CO+S"
    assert [f.path.name for f in c.assessments] == ["pool-1.xml", "pool-2.xml"]
    assert [f.path.name for f in c.runs] == ["run1.xml", "run2.xml"]


def test_seed000_6_4_cas_with_comments(inex2005: Path):
    c = load_text(inex2005, SEED_6_4)
    assert (c.task, c.strategy, c.overlap, c.query_type) == ("SSCAS", "thorough", ("off",), "CAS")
    base = inex2005 / "..."
    assert files(c.assessments, base) == [("official/SSCAS/topic-250.xml", "official/SSCAS")]
    assert files(c.runs, base) == [
        ("inex2005_runs/group1/run1.xml", "."),
        ("inex2005_runs/group2/run2.xml", "."),
    ]


# ---------------------------------------------------------------------------
# keys, defaults and values (docs/config.md, docs/measures.md §3, §5, §8)


def test_defaults(tmp_path: Path):
    c = load_with(tmp_path, "")
    assert c.task == "CO.Thorough" and c.strategy == "thorough"
    assert c.metrics == ("nxcg", "ep/gr", "q")
    assert c.alpha == 1.0
    assert c.overlap == ("off",)
    assert c.quant_functions == ("gen",)
    assert c.dcv == (10, 25, 50)
    assert c.results_dir == tmp_path / "results"
    assert (c.query_type, c.pools, c.topics, c.collection_dir) == (None, None, None, None)
    assert c.max_results == 1500
    assert c.bep_a == ("0.01", "0.1", "1", "10", "100")
    assert c.avg_doc_length is None
    assert c.q_beta == 1.0 and c.rel_level == 1 and c.gains is None
    assert c.key_lines == (("TASK", 1), ("ASSESSMENTS_DIR", 2), ("SUBMISSIONRUNS_DIR", 3))
    assert c.overridden == ()


@pytest.mark.parametrize(
    "written, canonical",
    [
        ("co.focused", "CO.Focussed"),
        ("CO.FOCUSSED", "CO.Focussed"),
        ("cos.Focused", "COS.Focussed"),
        ("focussed", "Focused"),
        ("FOCUSED", "Focused"),
        ("allincontext", "RelevantInContext"),
        ("AllInContext", "RelevantInContext"),
        ("relevantInContext", "RelevantInContext"),
        ("bestincontext", "BestInContext"),
        ("sscas", "SSCAS"),
        ("thorough", "Thorough"),
        ("co.fetchbrowse", "CO.FetchBrowse"),
        ("TREC", "trec"),
    ],
)
def test_task_names_case_insensitive_and_focussed_spellings(tmp_path: Path, written, canonical):
    c = load_with(tmp_path, "", task=written)
    assert c.task == canonical
    assert c.strategy == TASKS[canonical].strategy


@pytest.mark.parametrize(
    "task, overlap, metrics",
    [
        ("Focused", ("on",), ("nxcg", "ep/gr", "q")),
        ("COS.FetchBrowse", ("on", "off"), ("ep/gr",)),
        ("RelevantInContext", (), ("gp",)),
        ("BestInContext", (), ("bepd", "eprum")),
        ("trec", (), ()),
    ],
)
def test_task_defaults(tmp_path: Path, task, overlap, metrics):
    c = load_with(tmp_path, "", task=task)
    assert (c.overlap, c.metrics) == (overlap, metrics)


def test_unknown_task_did_you_mean(tmp_path: Path):
    e = single_error(tmp_path, "", task="CO.Focusd")
    assert (e.line, e.message) == (1, "TASK: unknown task 'CO.Focusd'; did you mean CO.Focussed?")
    e = single_error(tmp_path, "", task="zzz")
    assert (e.line, e.message) == (1, "TASK: unknown task 'zzz'")


@pytest.mark.parametrize("task", ["BestInContext", "RelevantInContext", "AllInContext", "trec"])
def test_overlap_is_an_error_for_tasks_without_it(tmp_path: Path, task):
    e = single_error(tmp_path, "OVERLAP: on\n", task=task)
    canonical = {"AllInContext": "RelevantInContext"}.get(task, task)
    assert (e.line, e.message) == (4, f"OVERLAP: task {canonical} has no OVERLAP setting; remove it")


def test_values_of_every_key(tmp_path: Path):
    touch(tmp_path / "coll" / "doc.xml")
    c = load_with(
        tmp_path,
        "METRICS: nxCG, EP/GR, hixeval, nxcg\n"
        "ALPHA: 0\n"
        "OVERLAP: OFF, On, off\n"
        "QUANT_FUNCTIONS: GENLIFTED, Strict, gen\n"
        "DCV: 5, 10, 5\n"
        "RESULTS_DIR: out/here\n"
        "QUERY_TYPE: CO+S\n"
        "POOLS: 1, 2,, 3 ,\n"
        "TOPICS: 202,203\n"
        "COLLECTION_DIR: coll\n"
        "MAX_RESULTS: 1000\n"
        "BEP_A: 0.010 , 1e2\n"
        "AVG_DOC_LENGTH: 2500.5\n"
        "Q_BETA: 0\n"
        "REL_LEVEL: 2\n"
        "GAINS: 3:3, 1:1, 2 : 2.5\n",
    )
    assert c.metrics == ("nxcg", "ep/gr", "hixeval")  # lower-cased, repeats dropped
    assert c.alpha == 0.0
    assert c.overlap == ("off", "on")
    assert c.quant_functions == ("genLifted", "strict", "gen")
    assert c.dcv == (5, 10)
    assert c.results_dir == tmp_path / "out" / "here"
    assert c.query_type == "CO+S"
    assert c.pools == frozenset({"1", "2", "3"})
    assert c.topics == frozenset({"202", "203"})
    assert c.collection_dir == tmp_path / "coll"
    assert c.max_results == 1000
    assert c.bep_a == ("0.010", "1e2")  # kept as written (trimmed)
    assert c.avg_doc_length == 2500.5
    assert c.q_beta == 0.0
    assert c.rel_level == 2
    assert c.gains == ((1, 1.0), (2, 2.5), (3, 3.0))
    assert c.line_of("gains") == 19


@pytest.mark.parametrize(
    "line, message",
    [
        ("ALPHA: 1.5", "ALPHA: '1.5' is not in [0, 1]"),
        ("ALPHA: -0.1", "ALPHA: '-0.1' is not in [0, 1]"),
        ("ALPHA: nan", "ALPHA: 'nan' is not a number in [0, 1]"),
        ("ALPHA: high", "ALPHA: 'high' is not a number in [0, 1]"),
        ("ALPHA: 0.5, 1", "ALPHA: takes one value, got 2: '0.5, 1'"),
        ("ALPHA:", "ALPHA: no value given"),
        ("DCV: 10, 0", "DCV: '0' is not a positive integer"),
        ("DCV: 2.5", "DCV: '2.5' is not a positive integer"),
        ("MAX_RESULTS: -1", "MAX_RESULTS: '-1' is not a positive integer"),
        ("Q_BETA: -1", "Q_BETA: '-1' is negative"),
        # beta * cumulated gain overflowed to a NaN score with a beta of 1e308 (issue 16's fuzz warnings)
        ("Q_BETA: 1e308", "Q_BETA: '1e308' is above 1e+06: a β that large would overflow the arithmetic"),
        ("F_BETA: 2e6", "F_BETA: '2e6' is above 1e+06: a β that large would overflow the arithmetic"),
        ("GAINS: 1:1e300", "GAINS: 'gain 1e300' is above 1e+06: a gain that large would overflow the arithmetic"),
        ("BEP_A: 1, 0", "BEP_A: '0' is not a positive number"),
        ("BEP_A: 1, x", "BEP_A: 'x' is not a positive number"),
        ("AVG_DOC_LENGTH: 0", "AVG_DOC_LENGTH: '0' is not a positive number"),
        ("AVG_DOC_LENGTH: inf", "AVG_DOC_LENGTH: 'inf' is not a positive number"),
        ("REL_LEVEL: 0", "REL_LEVEL: '0' is not a positive integer"),
        ("GAINS: 1=1", "GAINS: '1=1' is not 'level:gain'"),
        ("GAINS: 0:1", "GAINS: '0' is not a relevance level (an integer >= 1)"),
        ("GAINS: x:1", "GAINS: 'x' is not a relevance level (an integer >= 1, or S, A, B for qa)"),
        ("GAINS: a:1", "GAINS: task CO.Thorough gives gains to integer relevance levels (`1:1, 2:2`); "
         "S, A, B are the answer levels of TASK qa"),
        ("GAINS: 1:-2", "GAINS: gain '-2' is negative"),
        ("GAINS: 1:1, 1:2", "GAINS: level 1 is given twice"),
        ("OVERLAP: yes", "OVERLAP: 'yes' is not 'on' or 'off'"),
        ("QUANT_FUNCTIONS: gen, genlift", "QUANT_FUNCTIONS: unknown quantisation 'genlift' "
         "(strict, gen or genLifted); did you mean genLifted?"),
        ("METRICS: ,", "METRICS: no value given"),
        ("COLLECTION_DIR: nowhere", "COLLECTION_DIR: {tmp}/nowhere is not a directory"),
        ("RESULTS_DIR: a, b", "RESULTS_DIR: takes one value, got 2: 'a, b' (a comma separates values: "
         "write `\\,` for a comma of a path)"),
    ],
)
def test_bad_values_name_the_line(tmp_path: Path, line, message):
    e = single_error(tmp_path, line + "\n")
    assert (e.file, e.line) == (str(tmp_path / "c.prop"), 4)
    assert e.message == message.format(tmp=tmp_path)


def test_boundaries_are_accepted(tmp_path: Path):
    c = load_with(tmp_path, "ALPHA: 1\nDCV: 1\nMAX_RESULTS: 1\nREL_LEVEL: 1\nGAINS: 1:0\n")
    assert (c.alpha, c.dcv, c.max_results, c.rel_level, c.gains) == (1.0, (1,), 1, 1, ((1, 0.0),))


def test_all_errors_of_a_file_are_reported_together(tmp_path: Path):
    make_inputs(tmp_path)
    path = write_prop(
        tmp_path,
        "TASK: CO.Focused\n"  # 1 (fine)
        "ASSESMENTS_DIR: assess\n"  # 2 misspelt key
        "ALPHA: 2\n"  # 3 bad value
        "DCV: 10, ten\n"  # 4 bad value
        "task: Thorough\n"  # 5 duplicate key
        "RESULT_DIR: out\n"  # 6 misspelt key
        "SUBMISSIONRUNS_DIR: runs, missing*/\n",  # 7 an item matching nothing
    )
    with pytest.raises(ConfigErrors) as info:
        load_config(path)
    src = str(path)
    # in line order, then the errors without a line
    assert [(e.file, e.line, e.message) for e in info.value.errors] == [
        (src, 2, "unknown key 'ASSESMENTS_DIR'; did you mean ASSESSMENTS_DIR?"),
        (src, 3, "ALPHA: '2' is not in [0, 1]"),
        (src, 4, "DCV: 'ten' is not a positive integer"),
        (src, 5, "duplicate key TASK (first set on line 1)"),
        (src, 6, "unknown key 'RESULT_DIR'; did you mean RESULTS_DIR?"),
        (src, 7, "SUBMISSIONRUNS_DIR: 'missing*/' matches no file"),
        (src, None, "missing required key ASSESSMENTS_DIR"),
    ]
    assert all(isinstance(e, ConfigError) for e in info.value.errors)
    assert info.value.exit_status == 2
    assert str(info.value).splitlines()[0] == f"{src}:2: unknown key 'ASSESMENTS_DIR'; did you mean ASSESSMENTS_DIR?"


def test_missing_required_keys(tmp_path: Path):
    path = write_prop(tmp_path, "# nothing\n")
    with pytest.raises(ConfigErrors) as info:
        load_config(path)
    assert [(e.line, e.message) for e in info.value.errors] == [
        (None, "missing required key TASK"),
        (None, "missing required key ASSESSMENTS_DIR"),
        (None, "missing required key SUBMISSIONRUNS_DIR"),
    ]


def test_aliases(tmp_path: Path):
    make_inputs(tmp_path)
    touch(tmp_path / "coll" / "d.xml")
    path = write_prop(
        tmp_path, "TASK: trec\nEXPANDED_FULLRB: assess\nSUBMISSIONRUNS_DIR: runs\ninexdoccoll_dir: coll\n"
    )
    c = load_config(path)
    assert [f.path.name for f in c.assessments] == ["pool-1.xml", "pool-2.xml"]
    assert c.collection_dir == tmp_path / "coll"
    assert c.line_of("ASSESSMENTS_DIR") == 2 and c.line_of("COLLECTION_DIR") == 4


def test_alias_and_key_together_are_a_duplicate(tmp_path: Path):
    e = single_error(tmp_path, "EXPANDED_FULLRB: assess\n")
    assert (e.line, e.message) == (4, "duplicate key ASSESSMENTS_DIR (first set on line 2)")


def test_config_file_not_found(tmp_path: Path):
    with pytest.raises(ConfigErrors) as info:
        load_config(tmp_path / "none.prop", ["TASK=trec"])
    assert str(info.value) == f"{tmp_path / 'none.prop'}: configuration file not found"


def test_config_file_not_utf8(tmp_path: Path):
    path = tmp_path / "latin1.prop"
    path.write_bytes(b"# settings\nTASK: trec # caf\xe9\n")
    with pytest.raises(ConfigErrors) as info:
        load_config(path)
    # the line of the first byte that is not UTF-8 (issue 15: a Latin-1 file had no line number)
    assert [(e.line, e.message) for e in info.value.errors] == [
        (2, "not UTF-8 text (invalid continuation byte at byte 17 of the line): save the file as UTF-8")]


# ---------------------------------------------------------------------------
# path values (docs/config.md)


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """A small tree with hidden files and directories."""
    for rel in (
        "data/t1/a.xml",
        "data/t1/b.txt",
        "data/t1/.hidden.xml",
        "data/t1/sub/c.xml",
        "data/t2/d.xml",
        "data/.git/e.xml",
        "data/top.xml",
        "other/f[1].xml",
    ):
        touch(tmp_path / rel)
    return tmp_path


def expand(tmp: Path, value: str) -> list[tuple[str, str]]:
    return files(expand_paths(value, tmp, "ASSESSMENTS_DIR", "c.prop", 7), tmp)


def test_directory_is_searched_recursively_hidden_skipped(tree: Path):
    assert expand(tree, "data") == [
        ("data/t1/a.xml", "data"),
        ("data/t1/b.txt", "data"),  # no filtering by extension
        ("data/t1/sub/c.xml", "data"),
        ("data/t2/d.xml", "data"),
        ("data/top.xml", "data"),
    ]


def test_single_file_is_its_own_root(tree: Path):
    assert expand(tree, "data/t2/d.xml") == [("data/t2/d.xml", "data/t2/d.xml")]
    assert expand(tree, str(tree / "data" / "top.xml")) == [("data/top.xml", "data/top.xml")]  # absolute


def test_glob_star_matching_directories_and_files(tree: Path):
    # data/* matches t1, t2 (directories: searched) and top.xml; the root is "data"
    assert expand(tree, "data/*") == [
        ("data/t1/a.xml", "data"),
        ("data/t1/b.txt", "data"),
        ("data/t1/sub/c.xml", "data"),
        ("data/t2/d.xml", "data"),
        ("data/top.xml", "data"),
    ]
    # a trailing / matches directories only
    assert [p for p, _ in expand(tree, "data/*/")] == [
        "data/t1/a.xml", "data/t1/b.txt", "data/t1/sub/c.xml", "data/t2/d.xml"
    ]


def test_glob_question_mark_and_double_star(tree: Path):
    assert expand(tree, "data/t?/*.xml") == [
        ("data/t1/a.xml", "data"),
        ("data/t2/d.xml", "data"),
    ]
    # ** crosses directories; hidden ones are not entered
    assert [p for p, _ in expand(tree, "data/**/*.xml")] == [
        "data/t1/a.xml", "data/t1/sub/c.xml", "data/t2/d.xml", "data/top.xml"
    ]


def test_bracket_is_not_a_wildcard(tree: Path):
    assert expand(tree, "other/f[1].xml") == [("other/f[1].xml", "other/f[1].xml")]
    assert expand(tree, "other/f[1]*") == [("other/f[1].xml", "other")]


def test_list_is_sorted_and_deduplicated_keeping_outer_root(tree: Path):
    # t2's file is reached three times; the outermost root (data) is kept
    assert expand(tree, "data/t2/d.xml, data/t2, data") == [
        ("data/t1/a.xml", "data"),
        ("data/t1/b.txt", "data"),
        ("data/t1/sub/c.xml", "data"),
        ("data/t2/d.xml", "data"),
        ("data/top.xml", "data"),
    ]


def test_items_matching_nothing_are_errors(tree: Path):
    (tree / "empty").mkdir()
    with pytest.raises(ConfigErrors) as info:
        expand_paths("data/t2, nope, nothing*/, empty", tree, "ASSESSMENTS_DIR", "c.prop", 7)
    assert [str(e) for e in info.value.errors] == [
        "c.prop:7: ASSESSMENTS_DIR: 'nope' matches no file",
        "c.prop:7: ASSESSMENTS_DIR: 'nothing*/' matches no file",
        "c.prop:7: ASSESSMENTS_DIR: 'empty' matches no file",
    ]


def test_hidden_directory_named_explicitly_is_used(tree: Path):
    assert expand(tree, "data/.git") == [("data/.git/e.xml", "data/.git")]


def test_paths_are_relative_to_the_config_directory(tmp_path: Path, monkeypatch):
    conf = tmp_path / "conf"
    make_inputs(conf)
    write_prop(conf, MINIMAL + "RESULTS_DIR: ../out\n")
    monkeypatch.chdir(tmp_path)
    c = load_config(Path("conf") / "c.prop")
    assert c.source == Path("conf/c.prop")
    assert c.results_dir == tmp_path / "out"
    assert [f.path for f in c.runs] == [conf / "runs" / "a.xml", conf / "runs" / "b.txt"]


# ---------------------------------------------------------------------------
# YAML (docs/config.md)


def test_yaml_gives_the_same_config_as_prop(tmp_path: Path):
    make_inputs(tmp_path)
    touch(tmp_path / "coll" / "d.xml")
    prop = write_prop(
        tmp_path,
        "TASK: co.focused\n"
        "METRICS: nxCG, ep/gr\n"
        "ALPHA: 0.5\n"
        "OVERLAP: on, off\n"
        "QUANT_FUNCTIONS: gen, strict\n"
        "DCV: 5, 10\n"
        "ASSESSMENTS_DIR: assess/*/\n"
        "SUBMISSIONRUNS_DIR: runs\n"
        "POOLS: 1,2,\n"
        "  3\n"
        "BEP_A: 0.01, 100\n"
        "inexdoccoll_dir: coll\n"
        "GAINS: 1:1, 2:2\n",
    )
    yml = write_prop(
        tmp_path,
        "task: co.focused\n"
        "Metrics: [nxCG, ep/gr]\n"
        "ALPHA: 0.5\n"
        "OVERLAP: [on, off]\n"  # YAML 1.1 booleans stay the words on/off
        "QUANT_FUNCTIONS:\n"
        "  - gen\n"
        "  - strict\n"
        "DCV: 5, 10\n"
        "ASSESSMENTS_DIR: assess/*/\n"
        "SUBMISSIONRUNS_DIR: [runs]\n"
        "POOLS: [1, 2, 3]\n"
        "BEP_A: [0.01, 100]\n"
        "INEXDOCCOLL_DIR: coll\n"
        "GAINS: {1: 1, 2: 2}\n",
        name="c.yaml",
    )
    a, b = load_config(prop), load_config(yml)
    assert b.source == yml and b.line_of("GAINS") == 14 and b.line_of("DCV") == 8
    strip = dict(source=None, key_lines=())
    assert records.replace(a, **strip) == records.replace(b, **strip)
    assert b.overlap == ("on", "off") and b.bep_a == ("0.01", "100") and b.pools == frozenset("123")


def test_yml_extension_and_comments(tmp_path: Path):
    make_inputs(tmp_path)
    path = write_prop(
        tmp_path, "TASK: SSCAS #or SVCAS\nASSESSMENTS_DIR: assess\nSUBMISSIONRUNS_DIR: runs\n", name="c.yml"
    )
    assert load_config(path).task == "SSCAS"


def test_yaml_errors_carry_lines(tmp_path: Path):
    make_inputs(tmp_path)
    path = write_prop(
        tmp_path,
        "TASK: trec\n"
        "ASSESSMENTS_DIR: assess\n"
        "SUBMISSIONRUNS_DIR: runs\n"
        "Task: trec\n"  # duplicate (keys are case-insensitive)
        "ALPHA: {a: 1}\n"  # not a value or list
        "POLS: [1]\n"  # misspelt
        "DCV: [10, 0]\n",
        name="c.yaml",
    )
    with pytest.raises(ConfigErrors) as info:
        load_config(path)
    assert [(e.line, e.message) for e in info.value.errors] == [
        (4, "duplicate key TASK (first set on line 1)"),
        (5, "ALPHA: expected a value or a list of values"),
        (6, "unknown key 'POLS'; did you mean POOLS?"),
        (7, "DCV: '0' is not a positive integer"),
    ]


def test_yaml_syntax_error_and_non_mapping(tmp_path: Path):
    bad = write_prop(tmp_path, "TASK: trec\nDCV: [10, 25\n", name="bad.yaml")
    with pytest.raises(ConfigErrors) as info:
        load_config(bad)
    first = info.value.errors[0]
    assert first.file == str(bad) and first.message.startswith("invalid YAML:") and first.line == 3
    # the one error: the keys of a document that could not be read are unknown, none is "missing"
    assert len(info.value.errors) == 1, info.value.errors
    listed = write_prop(tmp_path, "- TASK: trec\n", name="list.yaml")
    with pytest.raises(ConfigErrors) as info:
        load_config(listed)
    assert [(e.line, e.message) for e in info.value.errors] == [
        (1, "a YAML configuration must be a mapping of keys")
    ]


# ---------------------------------------------------------------------------
# --set overrides


def test_overrides_replace_keys_and_are_relative_to_cwd(tmp_path: Path, monkeypatch):
    conf = tmp_path / "conf"
    make_inputs(conf)
    touch(tmp_path / "elsewhere" / "r.xml")
    path = write_prop(conf, MINIMAL + "ALPHA: 0.5\n")
    monkeypatch.chdir(tmp_path)
    c = load_config(path, ["SUBMISSIONRUNS_DIR = elsewhere", "RESULTS_DIR=res", "ALPHA=0"])
    assert c.alpha == 0.0
    assert files(c.runs, tmp_path) == [("elsewhere/r.xml", "elsewhere")]
    assert c.results_dir == tmp_path / "res"
    assert c.overridden == ("SUBMISSIONRUNS_DIR", "RESULTS_DIR", "ALPHA")  # order of their --set
    # a key set twice: neither value silently wins
    with pytest.raises(ConfigErrors) as err:
        load_config(path, ["alpha=0.25", "RESULTS_DIR=res", "ALPHA=0"])
    assert [str(e) for e in err.value.errors] == ["--set: ALPHA is set twice (give each key once)"]
    assert c.line_of("ALPHA") is None and c.line_of("TASK") == 1
    assert c.origin("alpha") == ("--set", None)
    assert c.origin("TASK") == (str(path), 1)


def test_override_supplies_a_missing_key_and_hides_a_bad_value(tmp_path: Path):
    make_inputs(tmp_path)
    path = write_prop(tmp_path, "TASK: Focused\nASSESSMENTS_DIR: assess\nALPHA: 7\n")
    c = load_config(path, [f"SUBMISSIONRUNS_DIR={tmp_path / 'runs'}", "ALPHA=1"])
    assert [f.path.name for f in c.runs] == ["a.xml", "b.txt"] and c.alpha == 1.0


def test_override_errors_name_set(tmp_path: Path, monkeypatch):
    make_inputs(tmp_path)
    monkeypatch.chdir(tmp_path / "assess")  # relative override paths resolve here
    path = write_prop(tmp_path, MINIMAL)
    with pytest.raises(ConfigErrors) as info:
        load_config(path, ["ALPA=1", "novalue", "DCV=0", "SUBMISSIONRUNS_DIR=runs", "OVERLAP=on"])
    # malformed --set first, then bad values in --set order; OVERLAP=on is fine here
    assert [str(e) for e in info.value.errors] == [
        "--set: unknown key 'ALPA'; did you mean ALPHA?",
        "--set: expected KEY=VALUE, got 'novalue'",
        "--set: DCV: '0' is not a positive integer",
        "--set: SUBMISSIONRUNS_DIR: 'runs' matches no file",
    ]


def test_overlap_override_for_best_in_context_is_an_error(tmp_path: Path):
    make_inputs(tmp_path)
    path = write_prop(tmp_path, MINIMAL.replace("CO.Thorough", "BestInContext"))
    with pytest.raises(ConfigErrors) as info:
        load_config(path, ["OVERLAP=off"])
    assert [str(e) for e in info.value.errors] == [
        "--set: OVERLAP: task BestInContext has no OVERLAP setting; remove it"
    ]


def test_cwd_is_not_used_for_file_paths(tmp_path: Path, monkeypatch):
    make_inputs(tmp_path)
    path = write_prop(tmp_path, MINIMAL)
    elsewhere = tmp_path / "assess"
    monkeypatch.chdir(elsewhere)
    c = load_config(path)
    assert files(c.assessments, tmp_path) == [("assess/t1/pool-1.xml", "assess"), ("assess/t2/pool-2.xml", "assess")]
