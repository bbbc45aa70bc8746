"""Best in Context (docs/measures.md §7): docs/measures.md Example 12 and hand-worked cases."""

from __future__ import annotations

import random
from fractions import Fraction as Fr

import pytest

from inexeval.errors import InputError
from inexeval.measures.bep import best_in_context_topic
from inexeval.model import FileAssessment, Judgement, TopicAssessment
from inexeval.readers.collection import Collection

A_VALUES = ["0.01", "0.1", "1", "10", "100"]


def topic_of(files, name="T") -> TopicAssessment:
    """files: file -> (listed (path, size, rsize) rows, best entry points)."""
    t = TopicAssessment(topic=name, pool=None, query_type=None, source=f"{name}.xml")
    for line, (file, (rows, beps)) in enumerate(files.items(), start=10):
        fa = FileAssessment(file=file, beps=list(beps), line=line)
        for path, size, rsize in rows:
            fa.elements[path] = Judgement(path, None, size, rsize)
        t.files[file] = fa
    return t


def offsets(table):
    return lambda file, path: table.get((file, path))


def check(result, expected):
    for key, value in expected.items():
        assert result[key] == pytest.approx(float(value), rel=1e-9, abs=1e-12), key


# Example 12: f1's entry point at offset 100, f2's at 0; f3 judged, nothing relevant.
EX12_TOPIC = {
    "f1": ([("/article[1]", 2000, 700), ("/article[1]/sec[1]", 400, 400)], ["/article[1]/sec[1]"]),
    "f2": ([("/article[1]", 500, 100)], ["/article[1]"]),
    "f3": ([], []),
}
EX12_OFFSETS = {
    ("f1", "/article[1]/sec[1]"): 100,
    ("f1", "/article[1]/sec[2]"): 300,
    ("f2", "/article[1]"): 0,
    ("f3", "/article[1]"): 0,
}
# (f1, 300), (f3, 0), (f2, 0), (f1, 100): the last is f1's second result, dropped
EX12_RUN = [("f1", "/article[1]/sec[2]"), ("f3", "/article[1]"), ("f2", "/article[1]"), ("f1", "/article[1]/sec[1]")]


def eprum_example_12(s1: Fr) -> Fr:
    """EPRUM for F = s1, s1, s1 + 1 and B = 2 (target 2ρ), written out exactly.

    2ρ <= s1: k_ρ = 2ρ/s1, precision s1.
    s1 < 2ρ <= s1 + 1: k_ρ = 2 + (2ρ − s1)/1, precision 2ρ/(2 + 2ρ − s1).
    above: 0.
    """
    total = Fr(0)
    for p in range(1, 101):
        t = 2 * Fr(p, 100)
        if t <= s1:
            total += s1
        elif t <= s1 + 1:
            total += t / (2 + t - s1)
    return total / 100


@pytest.mark.parametrize(
    "a, s1, bepd, eprum_6",
    [
        ("0.01", Fr(1, 21), Fr(11, 21), 0.105530),  # AL = 10: 10/210
        ("0.1", Fr(1, 3), Fr(2, 3), 0.214984),  # AL = 100: 100/300
        ("1", Fr(5, 6), Fr(11, 12), 0.604822),  # AL = 1000: 1000/1200
        ("10", Fr(50, 51), Fr(101, 102), 0.774499),  # 10000/10200
        ("100", Fr(500, 501), Fr(1001, 1002), 0.785215),  # 100000/100200
    ],
)
def test_example_12(a, s1, bepd, eprum_6):
    warnings = []
    r = best_in_context_topic(
        topic_of(EX12_TOPIC), EX12_RUN, offset_of=offsets(EX12_OFFSETS), a_values=[a], avg_doc_length=1000.0,
        warn=warnings.append,
    )
    assert s1 == Fr(a) * 1000 / (Fr(a) * 1000 + 200)
    assert bepd == (s1 + 0 + 1) / 2
    exact = eprum_example_12(s1)
    check(r, {f"BEPD(A={a})": bepd, f"EPRUM(A={a})": exact})
    assert round(r[f"EPRUM(A={a})"], 6) == eprum_6
    assert len(warnings) == 1 and "f1" in warnings[0] and "dropped" in warnings[0]


def test_example_12_curve_at_a_1():
    r = best_in_context_topic(
        topic_of(EX12_TOPIC), EX12_RUN, offset_of=offsets(EX12_OFFSETS), a_values=["1"], avg_doc_length=1000.0
    )
    # p <= 41: 5/6; p = 42..91: 3p/(3p + 175); p >= 92: 0
    check(
        r,
        {
            "EPRUM(A=1)@0.01": Fr(5, 6),
            "EPRUM(A=1)@0.41": Fr(5, 6),
            "EPRUM(A=1)@0.42": Fr(18, 43),
            "EPRUM(A=1)@0.91": Fr(39, 64),
            "EPRUM(A=1)@0.92": 0,
            "EPRUM(A=1)@1.00": 0,
        },
    )
    exact = (41 * Fr(5, 6) + sum(Fr(3 * p, 3 * p + 175) for p in range(42, 92))) / 100
    check(r, {"EPRUM(A=1)": exact})
    assert len([k for k in r if k.startswith("EPRUM(A=1)@")]) == 100


def test_tiny_case():
    # B = 1, entry point at 0, one result at 1000, A = 1, L = 1000: s = 1000/2000 = 1/2
    # ρ <= 1/2: k_ρ = ρ/(1/2) = 2ρ, precision 1/2; above: 0. EPRUM = 50·(1/2)/100
    t = topic_of({"x": ([("/a[1]", 10, 5)], ["/a[1]"])})
    off = offsets({("x", "/a[1]"): 0, ("x", "/a[1]/b[1]"): 1000})
    r = best_in_context_topic(t, [("x", "/a[1]/b[1]")], offset_of=off, a_values=["1"], avg_doc_length=1000.0)
    check(
        r,
        {"BEPD(A=1)": Fr(1, 2), "EPRUM(A=1)": Fr(1, 4), "EPRUM(A=1)@0.50": Fr(1, 2), "EPRUM(A=1)@0.51": 0},
    )


def test_bepd_with_offsets_from_a_real_document(tmp_path):
    # d1: fm "0123456789" (0..10), sec[1] 40 chars (10..50), sec[2] 50 chars (50..100): length 100
    (tmp_path / "d1.xml").write_text(
        "<article><fm>0123456789</fm><bdy><sec>" + "a" * 40 + "</sec><sec>" + "b" * 50 + "</sec></bdy></article>"
    )
    # d2: p[1] 20 chars (0..20), p[2] 40 chars (20..60): length 60
    (tmp_path / "d2.xml").write_text("<article><p>" + "c" * 20 + "</p><p>" + "d" * 40 + "</p></article>")
    coll = Collection(tmp_path)
    L = coll.average_length()
    assert L == (100 + 60) / 2
    t = topic_of(
        {
            "d1": ([("/article[1]", 100, 50), ("/article[1]/bdy[1]", 90, 50), ("/article[1]/bdy[1]/sec[2]", 50, 50)],
                   ["/article[1]/bdy[1]/sec[2]"]),
            "d2": ([("/article[1]", 60, 40), ("/article[1]/p[2]", 40, 40)], ["/article[1]/p[2]"]),
        }
    )
    # d1: fm at 0, entry point at 50: d = 50; d2: the entry point itself: d = 0, s = 1
    run = [("d1", "/article[1]/fm[1]"), ("d2", "/article[1]/p[2]")]
    r = best_in_context_topic(t, run, offset_of=coll.offset_of, a_values=["0.1", "10"], avg_doc_length=L)
    # A = 0.1: AL = 8, s(d1) = 8/(8 + 50) = 4/29; BEPD = (4/29 + 1)/2 = 33/58
    # A = 10: AL = 800, s(d1) = 800/850 = 16/17; BEPD = (16/17 + 1)/2 = 33/34
    check(r, {"BEPD(A=0.1)": Fr(33, 58), "BEPD(A=10)": Fr(33, 34)})


def test_eprum_two_topics_average():
    # X: the tiny case, EPRUM 1/4 (curve 1/2 up to 0.50, then 0)
    x = topic_of({"x": ([("/a[1]", 10, 5)], ["/a[1]"])})
    rx = best_in_context_topic(
        x, [("x", "/a[1]/b[1]")], offset_of=offsets({("x", "/a[1]"): 0, ("x", "/a[1]/b[1]"): 1000}),
        a_values=["1"], avg_doc_length=1000.0,
    )
    # Y: B = 2, a non-relevant article first, then both entry points exactly: F = 0, 1, 2
    # ρ <= 1/2: k = 2, k_ρ = 1 + 2ρ; ρ > 1/2: k = 3, k_ρ = 2 + (2ρ − 1) = 1 + 2ρ
    # precision 2ρ/(1 + 2ρ) = 2p/(100 + 2p) at ρ = p/100
    y = topic_of({"y1": ([("/a[1]", 10, 5)], ["/a[1]"]), "y2": ([("/a[1]", 10, 5)], ["/a[1]"]), "n": ([], [])})
    ry = best_in_context_topic(
        y, [("n", "/a[1]"), ("y1", "/a[1]"), ("y2", "/a[1]")],
        offset_of=offsets({("y1", "/a[1]"): 7, ("y2", "/a[1]"): 0}), a_values=["1"], avg_doc_length=1000.0,
    )
    eprum_y = sum(Fr(2 * p, 100 + 2 * p) for p in range(1, 101)) / 100
    check(ry, {"EPRUM(A=1)": eprum_y, "BEPD(A=1)": 1, "EPRUM(A=1)@0.50": Fr(1, 2)})
    assert (rx["EPRUM(A=1)"] + ry["EPRUM(A=1)"]) / 2 == pytest.approx(float((Fr(1, 4) + eprum_y) / 2), rel=1e-9)
    # curves average point by point: at 0.50 (1/2 + 1/2)/2, at 0.51 (0 + 102/202)/2
    assert (rx["EPRUM(A=1)@0.51"] + ry["EPRUM(A=1)@0.51"]) / 2 == pytest.approx(51 / 202, rel=1e-9)


def test_missing_result_path_scores_0_and_uses_the_article():
    t = topic_of({"x": ([("/a[1]", 10, 5)], ["/a[1]"])})
    warnings = []
    run = [("x", "/a[1]/zz[3]"), ("x", "/a[1]")]
    r = best_in_context_topic(
        t, run, offset_of=offsets({("x", "/a[1]"): 0}), a_values=["1"], avg_doc_length=100.0, warn=warnings.append
    )
    # s = 0 for the missing path; the exact hit is x's second result, dropped
    check(r, {"BEPD(A=1)": 0, "EPRUM(A=1)": 0})
    assert any("/a[1]/zz[3]" in w and "T" in w for w in warnings)
    assert any("dropped" in w for w in warnings)


def test_article_without_entry_point_is_warned_and_not_counted():
    t = topic_of({"x": ([("/a[1]", 10, 5)], ["/a[1]"]), "y": ([("/a[1]", 10, 5)], [])})
    warnings = []
    r = best_in_context_topic(
        t, [("y", "/a[1]"), ("x", "/a[1]")], offset_of=offsets({("x", "/a[1]"): 0}), a_values=["1"],
        avg_doc_length=100.0, warn=warnings.append,
    )
    # B = 1; y scores 0 at rank 1, x scores 1 at rank 2: BEPD = 1, EPRUM precision ρ/(1 + ρ)
    check(r, {"BEPD(A=1)": 1, "EPRUM(A=1)": sum(Fr(p, 100 + p) for p in range(1, 101)) / 100})
    assert len(warnings) == 1 and "y" in warnings[0]


def test_no_entry_point_is_undefined():
    t = topic_of({"y": ([("/a[1]", 10, 5)], []), "n": ([], [])})
    assert best_in_context_topic(t, [("y", "/a[1]")], offset_of=offsets({}), a_values=["1"], avg_doc_length=1.0) is None


def test_entry_point_without_highlighted_text_is_an_error():
    t = topic_of({"x": ([("/a[1]", 10, 5)], ["/a[1]"]), "n": ([("/a[1]", 10, 0)], ["/a[1]"])})
    with pytest.raises(InputError) as err:
        best_in_context_topic(t, [], offset_of=offsets({("x", "/a[1]"): 0, ("n", "/a[1]"): 0}), a_values=["1"],
                              avg_doc_length=1.0)
    assert err.value.file == "T.xml" and err.value.line == 11 and "document n," in err.value.message


def test_entry_point_not_in_document_is_an_error():
    t = topic_of({"x": ([("/a[1]", 10, 5)], ["/a[1]/b[4]"])})
    with pytest.raises(InputError) as err:
        best_in_context_topic(t, [], offset_of=offsets({}), a_values=["1"], avg_doc_length=1.0)
    assert err.value.file == "T.xml" and "document x" in err.value.message and "/a[1]/b[4]" in err.value.message


def test_properties_on_random_topics():
    rng = random.Random(6)
    for _ in range(300):
        files, table, beps = {}, {}, []
        for f in range(rng.randint(1, 6)):
            name = f"d{f}"
            paths = [f"/article[1]/p[{i}]" for i in range(1, rng.randint(2, 6))]
            for p in paths:
                table[(name, p)] = rng.randint(0, 5000)
            relevant = rng.random() < 0.6
            bep = rng.choice(paths) if relevant else None
            files[name] = ([("/article[1]", 100, 50 if relevant else 0)], [bep] if bep else [])
            if bep:
                beps.append((name, bep))
        t = topic_of(files)
        L = rng.choice([10.0, 1234.5])
        if not beps:
            assert best_in_context_topic(t, [], offset_of=offsets(table), a_values=A_VALUES, avg_doc_length=L) is None
            continue
        # every relevant article's entry point retrieved, in any order, among other results: BEPD = 1
        others = [k for k in table if k[0] not in {b[0] for b in beps}]
        hit = rng.sample(beps + others, len(beps) + len(others))
        r = best_in_context_topic(t, hit, offset_of=offsets(table), a_values=A_VALUES, avg_doc_length=L)
        for a in A_VALUES:
            assert r[f"BEPD(A={a})"] == pytest.approx(1.0, rel=1e-9)
        # a random run: every value within [0, 1]
        run = rng.sample(list(table), rng.randint(0, len(table)))
        r = best_in_context_topic(t, run, offset_of=offsets(table), a_values=A_VALUES, avg_doc_length=L)
        for key, value in r.items():
            assert -1e-12 <= value <= 1 + 1e-9, (key, value)
