"""Run validator (inexeval.validate): one crafted run per finding, formats, tasks, output.

Every XML run below is written one element per line, so a result's line is
its position in the list ``lines`` + 1 (the ``<?xml?>`` declaration is line 1).
"""

from __future__ import annotations

import gzip
import io
import json
import sys

import pytest

from inexeval.errors import ConfigError, InputError
from inexeval.model import Assessments, TopicAssessment
from inexeval.readers.runs import read_run
from inexeval.validate import (
    PROBLEM_KINDS,
    WARNING_KINDS,
    Finding,
    RunReport,
    assessments_from,
    canonical_task,
    exit_status,
    format_reports,
    validate_run,
    validate_runs,
)
from inexfiles import write_t1_assessments

A = "/article[1]"
S1 = "/article[1]/sec[1]"
S2 = "/article[1]/sec[2]"
P1 = "/article[1]/sec[1]/p[1]"


def res(file, path, rank=None, rsv=None):
    r = "" if rank is None else f"<rank>{rank}</rank>"
    s = "" if rsv is None else f"<rsv>{rsv}</rsv>"
    return f"<result><file>{file}</file><path>{path}</path>{r}{s}</result>"


def xml_run(tmp_path, topics, *, attrs='run-id="r1" task="CO.Focussed"', name="run.xml"):
    """topics: list of (topic id, [result lines]); one element per line."""
    lines = ['<?xml version="1.0"?>', f"<inex-submission {attrs}>"]
    for tid, results in topics:
        lines.append(f'<topic topic-id="{tid}">')
        lines.extend(results)
        lines.append("</topic>")
    lines.append("</inex-submission>")
    p = tmp_path / name
    p.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return p


def kinds(findings):
    return [(f.kind, f.topic, f.line) for f in findings]


def assessments(*topics):
    return Assessments(topics={t: TopicAssessment(topic=t, pool=None, query_type=None, source="a.xml")
                               for t in topics})


# --------------------------------------------------------------------------- a clean run


def test_clean_xml_run_summary(tmp_path):
    p = xml_run(tmp_path, [
        ("202", [res("co/2000/r7108", S1, 1, 3.5),       # line 4
                 res("co/2000/r7108", S2, 2, 3.5),       # line 5: equal rsv is fine
                 res("an/1995/a1004", A, 5, 1)]),        # line 6: gaps in ranks are fine
        ("203", [res("an/1995/a1004", A, 0, 2)]),        # line 9: ranks may start at 0
    ])
    r = validate_run(p)
    assert r == RunReport(path=str(p), format="xml", run_id="r1", run_id_line=2, task="CO.Focussed", run_task="CO.Focussed",
                          topics=2, results_per_topic={"202": 3, "203": 1}, problems=[], warnings=[])
    assert r.valid
    assert exit_status([r]) == 0
    assert format_reports([r]) == (f"{p}: VALID (xml, run r1, task CO.Focussed, 2 topic(s), "
                                   "4 result(s) (1 to 3 per topic); 0 problem(s), 0 warning(s))")


def test_clean_text_run(tmp_path):
    p = tmp_path / "run.txt"
    p.write_text("1 Q0 f1 1 2.0 T /article[1]/sec[1]\n\n1 Q0 f1 2 1.5 T /article[1]/sec[2]\n"
                 "2 Q0 f2 1 9 T /article[1]\n")
    r = validate_run(p, task="focussed")  # the 2006 task name "Focused" (docs/measures.md §3)
    assert (r.format, r.run_id, r.task, r.run_task) == ("text", "T", "Focused", None)
    assert (r.topics, r.results_per_topic) == (2, {"1": 2, "2": 1})
    assert r.problems == [] and r.warnings == []


def test_gzip_run_is_read(tmp_path):
    p = xml_run(tmp_path, [("1", [res("f", A)])])
    gz = tmp_path / "run.xml.gz"
    gz.write_bytes(gzip.compress(p.read_bytes()))
    r = validate_run(gz)
    assert (r.format, r.run_id, r.results_per_topic, r.valid) == ("xml", "r1", {"1": 1}, True)


# --------------------------------------------------------------------------- each problem


def test_duplicates_after_normalisation(tmp_path):
    p = xml_run(tmp_path, [("1", [
        res("f1", S1),            # line 4
        res("./f1.xml", "article/sec"),  # line 5: same element as line 4 after docs/formats.md §1.1
        res("f1", S2),            # line 6
        res("f1", S1),            # line 7: again
    ])], attrs='run-id="r1"')
    r = validate_run(p)
    assert kinds(r.problems) == [("duplicate", "1", 5), ("duplicate", "1", 7)]
    assert "already returned at line 4" in r.problems[0].message
    assert not r.valid
    assert r.results_per_topic == {"1": 4}  # counted as submitted


def test_beyond_max_results_once_per_topic(tmp_path):
    p = xml_run(tmp_path, [
        ("1", [res("f", f"/article[1]/p[{i}]") for i in range(1, 6)]),  # lines 4..8
        ("2", [res("f", f"/article[1]/p[{i}]") for i in range(1, 4)]),  # lines 11..13
    ], attrs='run-id="r1"')
    r = validate_run(p, max_results=3)
    # topic 1: 5 results, 5 - 3 = 2 beyond, the first of them is the 4th result (line 4 + 3 = 7)
    assert kinds(r.problems) == [("beyond_max_results", "1", 7)]
    assert "5 results, the 2 beyond MAX_RESULTS=3" in r.problems[0].message
    assert r.results_per_topic == {"1": 5, "2": 3}


def test_duplicate_beyond_max_results_is_not_reported(tmp_path):
    # docs/formats.md §1.3: truncation first, then duplicates among what is kept
    p = xml_run(tmp_path, [("1", [res("f", S1), res("f", S2), res("f", S1)])], attrs='run-id="r1"')
    r = validate_run(p, max_results=2)
    assert kinds(r.problems) == [("beyond_max_results", "1", 6)]


def test_invalid_paths(tmp_path):
    p = xml_run(tmp_path, [("1", [
        res("f", "/article[1]//sec"),             # line 4: //
        res("f", "/article[1]/*"),                # line 5: *
        res("f", "/article[0]"),                  # line 6: index 0
        res("f", "/article[1]/text()"),           # line 7: text()
        "<result><path>/article[1]</path></result>",  # line 8: no <file>
        "<result><file>g</file></result>",        # line 9: no <path>
        res(" / ", A),                            # line 10: empty file id
        res("f", A),                              # line 11: fine
    ])], attrs='run-id="r1"')
    r = validate_run(p)
    assert kinds(r.problems) == [("invalid_path", "1", n) for n in range(4, 11)]
    assert "missing <file>" in r.problems[4].message and "missing <path>" in r.problems[5].message


@pytest.mark.parametrize("task", ["CO.Focussed", "cos.focused", "Focused", "BestInContext"])
def test_overlap_in_focussed_and_best_in_context(tmp_path, task):
    p = xml_run(tmp_path, [("1", [
        res("f", S1),   # line 4
        res("f", P1),   # line 5: inside line 4
        res("g", P1),   # line 6: other file, no overlap
        res("f", A),    # line 7: contains line 4 (and 5)
        res("g", S2),   # line 8: not an ancestor of g P1
    ])], attrs='run-id="r1"')
    r = validate_run(p, task=task)
    bic = task == "BestInContext"
    # the verdict is evaluation's: Best in Context leaves out every later result of an article (a problem,
    # also g S2, a second disjoint result of g, docs/measures.md §7); Focussed scores overlap as submitted
    found = r.problems if bic else r.warnings
    assert kinds(found) == [("overlap", "1", 5), ("overlap", "1", 7)] + ([("repeated_article", "1", 8)] if bic else [])
    assert found[0].message.startswith("topic 1: f /article[1]/sec[1]/p[1] is inside the earlier result "
                                       "/article[1]/sec[1] at line 4; ")
    assert found[1].message.startswith("topic 1: f /article[1] contains the earlier result /article[1]/sec[1] "
                                       "at line 4; ")
    assert ("evaluation leaves it out" in found[0].message) == bic
    assert r.valid == (not bic)
    assert (r.warnings if bic else r.problems) == []


@pytest.mark.parametrize("task", ["CO.Thorough", "RelevantInContext", "CO.FetchBrowse"])
def test_overlap_allowed_elsewhere(tmp_path, task):
    p = xml_run(tmp_path, [("1", [res("f", S1), res("f", P1), res("f", A)])], attrs='run-id="r1"')
    assert validate_run(p, task=task).problems == []


def test_overlap_from_run_task_attribute_without_task_option(tmp_path):
    p = xml_run(tmp_path, [("1", [res("f", S1), res("f", P1)])], attrs='run-id="r1" task=" co.FOCUSSED "')
    r = validate_run(p)
    assert r.task == "CO.Focussed"
    assert kinds(r.warnings) == [("overlap", "1", 5)] and r.valid


def test_interleaved_articles_in_relevant_in_context(tmp_path):
    p = xml_run(tmp_path, [("1", [
        res("a", S1),   # line 4
        res("a", S2),   # line 5
        res("b", A),    # line 6
        res("a", P1),   # line 7: a resumes after b
        res("c", A),    # line 8
        res("b", S1),   # line 9: b resumes
        res("b", S2),   # line 10: same block as line 9, reported once
    ])], attrs='run-id="r1" task="AllInContext"')
    r = validate_run(p)
    assert r.task == "RelevantInContext"
    # evaluation scores the ranking as submitted: a warning, the run is valid
    assert kinds(r.warnings) == [("interleaved", "1", 7), ("interleaved", "1", 9)] and r.valid
    assert r.warnings[0].message.startswith("topic 1: article a resumes after other articles (its previous "
                                            "result at line 5); the task's rules forbid it")
    # the same run is without a finding as a Thorough run
    assert [f.kind for f in validate_run(p, task="Thorough").warnings] == ["task"]


def test_unknown_topics_and_missing_topics(tmp_path):
    p = xml_run(tmp_path, [("1", [res("f", A)]), ("99", [res("f", A)])], attrs='run-id="r1"')
    r = validate_run(p, assessments=assessments("1", "2", "3"))
    assert kinds(r.problems) == [("unknown_topic", "99", 7)]
    assert kinds(r.warnings) == [("missing_topic", None, None)]
    assert r.warnings[0].message == "2 assessed topic(s) without results: 2, 3"


def test_assessments_from_directory(tmp_path, monkeypatch):
    write_t1_assessments(tmp_path / "assess" / "pool-11.xml", topic="7")
    monkeypatch.chdir(tmp_path)
    a = assessments_from("assess")
    assert list(a.topics) == ["7"]
    p = xml_run(tmp_path, [("7", [res("f1", A)]), ("8", [res("f1", A)])], attrs='run-id="r1"')
    assert kinds(validate_run(p, assessments=a).problems) == [("unknown_topic", "8", 7)]


# --------------------------------------------------------------------------- warnings


def test_rank_not_increasing_is_a_warning(tmp_path):
    p = xml_run(tmp_path, [("1", [
        res("f", "/a[1]/p[1]", 1),     # line 4
        res("f", "/a[1]/p[2]", 3),     # line 5
        res("f", "/a[1]/p[3]", 3),     # line 6: 3 after 3
        res("f", "/a[1]/p[4]"),        # line 7: no rank, skipped
        res("f", "/a[1]/p[5]", 2),     # line 8: 2 after 3 (compared with the last present rank)
        res("f", "/a[1]/p[6]", "two"),  # line 9: not an integer
        res("f", "/a[1]/p[7]", 10),    # line 10
    ])], attrs='run-id="r1"')
    r = validate_run(p)
    assert r.valid
    # one finding per topic and kind of problem, at the first offending line
    assert kinds(r.warnings) == [("rank", "1", 6), ("rank", "1", 9)]
    assert r.warnings[0].message == ("topic 1: rank does not increase at 2 result(s), first rank 3 after 3; "
                                     "document order is the ranking")
    assert r.warnings[1].message == "topic 1: 1 non-integer rank value(s) ignored, first 'two'"


def test_huge_ranks_compared_exactly(tmp_path):
    big = 10**20  # beyond int64
    p = xml_run(tmp_path, [("1", [res("f", S1, big + 1), res("f", S2, big)])], attrs='run-id="r1"')
    r = validate_run(p)
    assert kinds(r.warnings) == [("rank", "1", 5)]


def test_rsv_increasing_is_a_warning_with_tolerance(tmp_path):
    p = xml_run(tmp_path, [("1", [
        res("f", "/a[1]/p[1]", rsv="1.0"),            # line 4
        res("f", "/a[1]/p[2]", rsv="1.0000000000001"),  # line 5: +1e-13, within 1e-9 relative: a tie
        res("f", "/a[1]/p[3]", rsv="0.5"),            # line 6
        res("f", "/a[1]/p[4]", rsv="0.6"),            # line 7: increases by 0.1 > 1e-9 * 0.6
        res("f", "/a[1]/p[5]", rsv="inf"),            # line 8: not finite
        res("f", "/a[1]/p[6]", rsv="-1e3"),           # line 9
        res("f", "/a[1]/p[7]", rsv="-999.9"),         # line 10: -999.9 > -1000
    ])], attrs='run-id="r1"')
    r = validate_run(p)
    assert r.valid
    assert kinds(r.warnings) == [("rsv", "1", 7), ("rsv", "1", 8)]
    assert r.warnings[0].message == "topic 1: rsv increases down the ranking at 2 result(s), first 0.6 after 0.5"
    assert r.warnings[1].message == "topic 1: 1 rsv value(s) not a finite number, first 'inf'"


def test_task_warnings_and_unknown_task_option(tmp_path):
    p = xml_run(tmp_path, [("1", [res("f", A)])], attrs='run-id="r1" task="CO.Thorough"')
    r = validate_run(p, task="bestincontext")
    assert r.task == "BestInContext"
    assert [f.message for f in r.warnings] == ["run task 'CO.Thorough' differs from --task BestInContext"]
    q = xml_run(tmp_path, [("1", [res("f", S1), res("f", A)])], attrs='run-id="r1" task="Mystery"', name="q.xml")
    r = validate_run(q)
    assert r.task is None and r.problems == []  # no task: no overlap check
    assert [f.message for f in r.warnings] == ["run task 'Mystery' is not a known task; no task-specific checks"]
    with pytest.raises(ConfigError, match="did you mean CO.Focussed"):
        validate_run(p, task="CO.Focusd")
    with pytest.raises(ConfigError):
        validate_run(p, max_results=0)


def test_canonical_task():
    assert canonical_task(" co.focused ") == "CO.Focussed"
    assert canonical_task("allincontext") == "RelevantInContext"
    assert canonical_task("SSCAS") == "SSCAS"
    assert canonical_task("nope") is None


def test_structure_warnings(tmp_path):
    p = xml_run(tmp_path, [("1", [res("f", S1)]),     # topic at 3, result line 4
                           ("2", []),                  # lines 6-7: empty topic
                           ("3", [res("f", A)]),       # result line 9
                           ("1", [res("f", S2)])],     # result line 12: topic 1 continues
                attrs="")
    r = validate_run(p)
    assert r.valid and r.run_id == "run"
    assert kinds(r.warnings) == [("run_id", None, None), ("empty_topic", "2", 6), ("repeated_topic", "1", 12)]
    assert r.results_per_topic == {"1": 2, "3": 1}


def test_empty_run(tmp_path):
    p = tmp_path / "empty.txt"
    p.write_text("\n  \n")
    r = validate_run(p)
    assert (r.format, r.topics, r.valid) == ("text", 0, True)
    assert kinds(r.warnings) == [("empty", None, None)]


def test_text_run_several_run_tags(tmp_path):
    p = tmp_path / "t.txt"
    p.write_text("1 Q0 f 1 2 A /article[1]\n1 Q0 g 2 1 B /article[1]\n")
    r = validate_run(p)
    assert r.run_id == "A"
    assert [f.message for f in r.warnings] == ["several run tags; 'A' is used, also found 'B' (line 2)"]


# --------------------------------------------------------------------------- unreadable / malformed


def test_malformed_xml_is_unreadable_with_line(tmp_path):
    p = tmp_path / "bad.xml"
    p.write_text('<inex-submission run-id="x">\n<topic topic-id="1">\n<result><file>f</file>\n</topic>\n')
    r = validate_run(p)
    assert r.format == "xml" and not r.valid
    assert [(f.kind, f.line) for f in r.problems] == [("unreadable", 4)]
    assert r.problems[0].message.startswith("malformed XML")
    assert exit_status([r]) == 1


def test_missing_file_is_unreadable(tmp_path):
    r = validate_run(tmp_path / "nope.xml")
    assert (r.format, r.run_id, r.valid) == ("unknown", None, False)
    assert r.problems[0].kind == "unreadable" and "cannot read run" in r.problems[0].message


def test_bad_gzip_is_unreadable(tmp_path):
    p = tmp_path / "r.xml.gz"
    p.write_bytes(b"\x1f\x8bnot gzip")
    r = validate_run(p)
    assert r.format == "unknown" and [f.kind for f in r.problems] == ["unreadable"]


def test_wrong_root_and_entities_are_unreadable(tmp_path):
    p = tmp_path / "a.xml"
    p.write_text('<?xml version="1.0"?>\n<assessments topic="1">\n<topic><result/></topic>\n</assessments>\n')
    r = validate_run(p)
    assert [(f.kind, f.line) for f in r.problems] == [("unreadable", 2)]
    assert "root element is <assessments>" in r.problems[0].message
    q = tmp_path / "e.xml"
    q.write_text('<?xml version="1.0"?>\n<!DOCTYPE x [\n<!ENTITY a "aaaa">\n]>\n<inex-submission/>\n')
    r = validate_run(q)
    assert [(f.kind, f.line) for f in r.problems] == [("unreadable", 3)]


def test_xml_structure_problems_are_malformed(tmp_path):
    p = xml_run(tmp_path, [("", [res("f", A), res("f", S1)]),  # line 3: topic without id, 2 results
                           ("2", [res("f", A)])], attrs='run-id="r1"')
    text = p.read_text().replace("</inex-submission>", f"{res('f', A)}\n</inex-submission>")  # line 10
    p.write_text(text)
    r = validate_run(p)
    # the reader's findings, with the evaluator's words and lines: the <topic> (its results skipped),
    # the stray <result> itself
    assert kinds(r.problems) == [("malformed", None, 3), ("malformed", None, 10)]
    assert [f.message for f in r.problems] == ["<topic> without a topic-id attribute", "<result> outside <topic>"]
    assert r.results_per_topic == {"2": 1}
    with pytest.raises(InputError) as info:  # the evaluator stops at the first
        read_run(p)
    assert (info.value.line, info.value.message) == (3, "<topic> without a topic-id attribute")


def test_text_run_malformed_lines_all_reported(tmp_path):
    p = tmp_path / "t.txt"
    p.write_bytes(b"1 Q0 f 1 2.5 T /article[1]\n"
                  b"1 Q0 f 2 2.0 T\n"                 # line 2: 6 columns
                  b"1 Q0 f x 2.0 T /article[1]\n"     # line 3: rank
                  b"1 Q0 f 3 high T /article[1]\n"    # line 4: score
                  b"1 Q0 \xff 4 1 T /article[1]\n"    # line 5: not UTF-8
                  b"1 Q0 g 5 1 T /article[1]\n")
    r = validate_run(p)
    assert kinds(r.problems) == [("malformed", None, 2), ("malformed", "1", 3), ("malformed", "1", 4),
                                 ("malformed", None, 5)]
    assert r.results_per_topic == {"1": 2}


def test_validator_agrees_with_reader_on_what_it_refuses(tmp_path):
    # The evaluator's reader refuses each of these runs; the validator marks each invalid.
    bad = {
        "cols.txt": "1 Q0 f 1 2.0 T\n",
        "rank.txt": "1 Q0 f one 2.0 T /a\n",
        "outside.xml": '<inex-submission><result><file>f</file><path>/a</path></result></inex-submission>',
        "noid.xml": '<inex-submission><topic><result><file>f</file><path>/a</path></result></topic></inex-submission>',
    }
    for name, text in bad.items():
        p = tmp_path / name
        p.write_text(text)
        with pytest.raises(InputError):
            read_run(p)
        assert not validate_run(p).valid, name


# --------------------------------------------------------------------------- several runs, output


def test_validate_runs_flags_duplicate_run_ids(tmp_path):
    a = xml_run(tmp_path, [("1", [res("f", A)])], name="a.xml")
    b = xml_run(tmp_path, [("1", [res("f", A)])], name="b.xml")
    c = xml_run(tmp_path, [("1", [res("f", A)])], attrs='run-id="other"', name="c.xml")
    ra, rb, rc = validate_runs([a, b, c])
    assert ra.valid and rc.valid
    assert kinds(rb.problems) == [("duplicate_run_id", None, 2)]  # the line of run-id="r1"
    assert rb.problems[0].message == f"run id 'r1' is also the id of {a}; evaluation skips this run"
    assert exit_status([ra, rb, rc]) == 1


def test_format_text_and_json(tmp_path):
    p = xml_run(tmp_path, [("1", [res("f", S1, 2, 1.0), res("f", S1, 1, 2.0)])])
    r = validate_run(p)
    text = format_reports([r])
    assert text.splitlines() == [
        f"{p}: INVALID (xml, run r1, task CO.Focussed, 1 topic(s), 2 result(s) (2 to 2 per topic); "
        "1 problem(s), 2 warning(s))",
        f"{p}:5: duplicate: topic 1: f /article[1]/sec[1] already returned at line 4",
        f"{p}:5: warning: rank: topic 1: rank does not increase at 1 result(s), first rank 1 after 2; "
        "document order is the ranking",
        f"{p}:5: warning: rsv: topic 1: rsv increases down the ranking at 1 result(s), first 2.0 after 1.0",
    ]
    data = json.loads(format_reports([r], "json"))
    assert data == [{
        "path": str(p), "format": "xml", "run_id": "r1", "run_id_line": 2, "task": "CO.Focussed", "run_task": "CO.Focussed",
        "topics": 1, "results_per_topic": {"1": 2}, "valid": False,
        "problems": [{"kind": "duplicate", "topic": "1", "line": 5,
                      "message": "topic 1: f /article[1]/sec[1] already returned at line 4"}],
        "warnings": [{"kind": "rank", "topic": "1", "line": 5, "message": r.warnings[0].message},
                     {"kind": "rsv", "topic": "1", "line": 5, "message": r.warnings[1].message}],
    }]
    with pytest.raises(ValueError):
        format_reports([r], "xml")


def test_format_text_limits_lines_per_kind(tmp_path):
    p = xml_run(tmp_path, [("1", [res("f", S1) for _ in range(5)])], attrs='run-id="r1"')
    r = validate_run(p)
    assert len(r.problems) == 4  # 4 duplicates of line 4
    lines = format_reports([r], max_per_kind=2).splitlines()
    assert lines[1:] == [f"{p}:5: duplicate: topic 1: f /article[1]/sec[1] already returned at line 4",
                         f"{p}:6: duplicate: topic 1: f /article[1]/sec[1] already returned at line 4",
                         f"{p}: ... and 2 more duplicate"]
    assert len(format_reports([r], max_per_kind=None).splitlines()) == 5


def test_format_two_runs_and_no_line():
    r1 = RunReport(path="a", format="text", run_id="x", topics=0)
    r2 = RunReport(path="b", format="unknown", problems=[Finding("unreadable", None, None, "cannot read run: gone")])
    assert format_reports([r1, r2]) == (
        "a: VALID (text, run x, task -, 0 topic(s), 0 result(s); 0 problem(s), 0 warning(s))\n\n"
        "b: INVALID (unknown, no run id, task -, 0 topic(s), 0 result(s); 1 problem(s), 0 warning(s))\n"
        "b: unreadable: cannot read run: gone")


def test_kinds_are_disjoint():
    assert not set(PROBLEM_KINDS) & set(WARNING_KINDS)


def test_stdin_gzip_run(monkeypatch, tmp_path):
    p = xml_run(tmp_path, [("1", [res("f", A), res("f", A)])])

    class Stdin:
        buffer = io.BytesIO(gzip.compress(p.read_bytes()))

    monkeypatch.setattr(sys, "stdin", Stdin)
    r = validate_run("-")
    assert (r.path, r.format, r.run_id) == ("<stdin>", "xml", "r1")
    assert kinds(r.problems) == [("duplicate", "1", 5)]


def test_nested_topic_is_malformed_as_for_the_evaluator(tmp_path):
    p = tmp_path / "n.xml"
    p.write_text('<inex-submission run-id="n">\n<topic topic-id="1">' + res("f", A)
                 + '\n<topic topic-id="2">' + res("g", A) + "</topic></topic>\n</inex-submission>\n")
    r = validate_run(p)
    assert [(f.kind, f.line, f.message) for f in r.problems] == [("malformed", 3, "<topic> inside <topic>")]
    assert r.results_per_topic == {"1": 1}
    with pytest.raises(InputError) as info:
        read_run(p)
    assert (info.value.line, info.value.message) == (3, "<topic> inside <topic>")


@pytest.mark.parametrize("block", [3, 4, 8192])
def test_rsv_check_across_blocks_keeps_only_its_state(tmp_path, monkeypatch, block):
    """The rsv check runs block by block (issue 15: it kept every rsv of a topic); an increase at a
    block boundary and a bad value in a later block are found as in one piece."""
    from inexeval.readers import runs as runs_module

    from inexeval import readers as readers_module
    from inexeval.validate import element as validate_module

    monkeypatch.setattr(runs_module, "_BLOCK", block)
    monkeypatch.setattr(readers_module, "FEED_BYTES", 64)  # the reader hands blocks over between chunks
    calls = []
    add = validate_module._Topic.add_rsvs
    monkeypatch.setattr(validate_module._Topic, "add_rsvs", lambda self, t, ln: calls.append(len(t)) or add(self, t, ln))
    rsvs = ["9", "8", "7", "7.5", "6", "x", "5", "5.5", "4"]  # lines 4..12; up at 7.5 (line 7) and 5.5 (line 11)
    results = [res("f", f"/article[1]/p[{i + 1}]", rsv=r) for i, r in enumerate(rsvs)]
    p = xml_run(tmp_path, [("1", results)])
    r = validate_run(p)
    rsv = [(f.line, f.message) for f in r.warnings if f.kind == "rsv"]
    assert rsv == [(7, "topic 1: rsv increases down the ranking at 2 result(s), first 7.5 after 7.0"),
                   (9, "topic 1: 1 rsv value(s) not a finite number, first 'x'")]
    assert sum(calls) == 9 and (len(calls) > 1) == (block < 9), calls


@pytest.mark.parametrize("feed, block", [(32768, 8192), (64, 1)])
def test_repeated_fields_anywhere_on_one_line(tmp_path, monkeypatch, feed, block):
    """Every <result> of the file is looked at, wherever it is (outside topics, nested in a result, in a
    <topic> nested in another element), in the order of their end tags (the inner result before the one
    around it), however the topic is handed over; a result with a <result> child counts its children from
    that child on (its two <rsv> before it are not counted), as the former second pass over the file did."""
    from inexeval import readers as readers_module
    from inexeval.readers import runs as runs_module

    monkeypatch.setattr(readers_module, "FEED_BYTES", feed)
    monkeypatch.setattr(runs_module, "_BLOCK", block)
    p = tmp_path / "one-line.xml"
    p.write_text('<?xml version="1.0"?>\n<inex-submission run-id="r1" task="CO.Focussed">'
                 "<result><file>a</file><rank>1</rank><rank>2</rank></result>"
                 '<topic topic-id="1">'
                 "<result><file>f</file><path>/article[1]</path><path>/article[1]/p[1]</path></result>"
                 "<result><file>f</file><rsv>2</rsv><rsv>1</rsv>"
                 "<result><file>g</file><file>h</file><path>/article[1]</path></result>"
                 "<path>/article[1]/p[2]</path><path>/article[1]/p[4]</path></result>"
                 '<x><topic topic-id="7"><result><file>k</file><file>l</file><path>/a[1]</path></result></topic></x>'
                 "<result><file>f</file><file>f</file><path>/article[1]/p[3]</path></result>"
                 "</topic></inex-submission>\n")
    r = validate_run(p)
    several = "<result> with several {}: the last one of each is used"
    assert [(f.topic, f.line, f.message) for f in r.warnings if f.kind == "repeated_field"] == [
        (None, 2, several.format("<rank>")), ("1", 2, several.format("<path>")), (None, 2, several.format("<file>")),
        ("1", 2, several.format("<path>")), ("7", 2, several.format("<file>")), ("1", 2, several.format("<file>"))]
    assert [f.kind for f in r.problems] == ["malformed"] * 3


def test_repeated_fields_are_found_in_the_one_reading_pass(tmp_path, monkeypatch):
    """Several <file>/<rsv> in one result are told by the run reader as it reads (a second pass over the
    file read the run twice, and once kept a million emptied results of a topic, issue 15): the file is
    parsed once, and the tree still holds a block and a chunk of results, not the topic."""
    from inexeval import readers as readers_module
    from inexeval.readers import runs as runs_module

    monkeypatch.setattr(runs_module, "_BLOCK", 50)
    monkeypatch.setattr(readers_module, "FEED_BYTES", 1024)
    results = [res("f", f"/article[1]/p[{i + 1}]", rsv=1000 - i) for i in range(1000)]
    results[500] = results[500].replace("</result>", "<rsv>1</rsv></result>")
    p = xml_run(tmp_path, [("1", results)])
    parses, held = [], []
    real = runs_module.safe_pullparse

    def spy(*args, **kwargs):
        parses.append(kwargs.get("tag"))
        for event, elem in real(*args, **kwargs):
            if elem is not None:
                held.append(sum(1 for _ in elem.getroottree().iter("result")))
            yield event, elem

    def second_pass(*args, **kwargs):
        raise AssertionError("the run is parsed a second time")

    monkeypatch.setattr(runs_module, "safe_pullparse", spy)
    monkeypatch.setattr(readers_module, "safe_iterparse", second_pass)
    r = validate_run(p)
    assert [(f.kind, f.line) for f in r.warnings if f.kind == "repeated_field"] == [("repeated_field", 504)]
    assert len(parses) == 1
    assert 0 < max(held) <= 50 + 1024 // 60 + 1 < 1000, "the results read before are gone"
