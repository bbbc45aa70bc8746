"""trec_eval's arithmetic, not only its formulas (docs/measures.md §8): cases where the printed
4th decimal depends on the order of a sum or on the form of an expression.

Each case is written out with its arithmetic; the expected value is computed here the way trec_eval
computes it (a C loop adding left to right), and the test also checks that the other order prints
another digit, so that a change of order in inexeval fails it.  Both paths are checked: the
trec-eval drop-in and a ``TASK: trec`` config printed with ``--format trec_eval --digits 4``.
"""

from __future__ import annotations

import io
import math

import numpy as np
import pytest

from inexeval.measures import classic_base
from inexeval.measures.classic_base import seg_cumsum, seg_sum
from inexeval.dropins.trec_eval.cli import main as trec_eval_main


def _drop_in(*argv: str) -> tuple[int, str, str]:
    out, err = io.BytesIO(), io.StringIO()
    status = trec_eval_main(list(argv), out, err)
    return status, out.getvalue().decode(), err.getvalue()


def _config(tmp_path, qrels, run, *flags: str, metrics: str = "") -> str:
    from inexeval.cli.command import main as cli_main
    from click.testing import CliRunner

    cfg = tmp_path / "t.prop"
    cfg.write_text(f"TASK: trec\nASSESSMENTS_DIR: {qrels}\nSUBMISSIONRUNS_DIR: {run}\nRESULTS_DIR: {tmp_path}/out\n"
                   + (f"METRICS: {metrics}\n" if metrics else ""))
    res = CliRunner().invoke(cli_main, ["-config", str(cfg), "--format", "trec_eval", "--digits", "4", *flags])
    assert res.exit_code == 0, res.output
    return res.stdout


def _value(output: str, label: str, topic: str = "all") -> str:
    for line in output.splitlines():
        f = line.split("\t")
        if f[0].strip() == label and f[1] == topic:
            return f[2].strip()
    raise AssertionError(f"{label} {topic} not in\n{output}")


def _files(tmp_path, topics: dict[str, tuple[str, int]]):
    """Qrels and a run from PATTERN strings: '1' a relevant document at that rank, '0' a judged
    non-relevant one; R − (relevant retrieved) more relevant documents are judged but not retrieved."""
    q, r = [], []
    for t, (pattern, R) in topics.items():
        for i, ch in enumerate(pattern):
            q.append(f"{t} 0 {t}-d{i:03d} {ch}\n")
            r.append(f"{t} Q0 {t}-d{i:03d} {i + 1} {1000 - i} run\n")
        for j in range(R - pattern.count("1")):
            q.append(f"{t} 0 {t}-unret{j} 1\n")
    (tmp_path / "qrels").write_text("".join(q))
    (tmp_path / "run").write_text("".join(r))
    return tmp_path / "qrels", tmp_path / "run"


def _ap_terms(pattern: str) -> list[float]:
    """count(i)/i at each relevant rank i of PATTERN."""
    count, terms = 0, []
    for i, ch in enumerate(pattern, 1):
        if ch == "1":
            count += 1
            terms.append(count / i)
    return terms


def _left_to_right(values) -> float:
    acc = 0.0
    for v in values:
        acc += v
    return acc


def test_average_precision_is_summed_left_to_right(tmp_path):
    """Ranks 1-3, 5, 6, 8, 12, 15, 16 relevant, R = 10:
    AP = (1/1 + 2/2 + 3/3 + 4/5 + 5/6 + 6/8 + 7/12 + 8/15 + 9/16) / 10.  Added left to right the sum is
    7.062499999999999 (0.7062 printed); numpy's pairwise sum gives 7.0625 (0.7063)."""
    pattern = "111011010001001100"
    terms = _ap_terms(pattern)
    assert terms == [1.0, 1.0, 1.0, 4 / 5, 5 / 6, 6 / 8, 7 / 12, 8 / 15, 9 / 16]
    ours = _left_to_right(terms) / 10
    pairwise = float(np.add.reduce(np.array(terms))) / 10
    assert (f"{ours:.4f}", f"{pairwise:.4f}") == ("0.7062", "0.7063")
    q, r = _files(tmp_path, {"1": (pattern, 10)})
    status, out, _ = _drop_in("-m", "map", "-m", "map_cut.20", "-m", "yaap", str(q), str(r))
    assert status == 0
    assert _value(out, "map") == _value(out, "map_cut_20") == "0.7062"
    # yaap = log((1 + sum) / (1 + R - sum)) on the same left-to-right sum
    s = _left_to_right(terms)
    assert _value(out, "yaap") == f"{math.log((1.0 + s) / (1.0 + 10 - s)):6.4f}".strip()
    assert _value(_config(tmp_path, q, r, metrics="map, map_cut_20"), "map_cut_20") == "0.7062"


def test_summary_mean_adds_topic_values_in_order(tmp_path):
    """Four topics with AP 1, (1/1 + 2/2 + 3/3)/5 = 0.6, (1/1 + 2/4)/4 = 0.375, (1 + 1 + 3/4)/5 = 0.55:
    trec_eval adds them in topic order, 0.6312500000000001 after the division (0.6313 printed); an
    exactly rounded sum (math.fsum) gives 0.63125 (0.6312)."""
    topics = {"1": ("1", 1), "2": ("111000", 5), "3": ("10010", 4), "4": ("110100", 5)}
    aps = [_left_to_right(_ap_terms(p)) / R for p, R in topics.values()]
    assert aps == [1.0, 0.6, 0.375, 0.55]
    assert f"{_left_to_right(aps) / 4:.4f}" == "0.6313" and f"{math.fsum(aps) / 4:.4f}" == "0.6312"
    q, r = _files(tmp_path, topics)
    status, out, _ = _drop_in("-m", "map", str(q), str(r))
    assert (status, _value(out, "map")) == (0, "0.6313")
    assert _value(_config(tmp_path, q, r, metrics="map"), "map") == "0.6313"


def test_set_map_is_one_expression(tmp_path):
    """3 relevant among 1000 retrieved, R = 4: set_map = (3·3)/(1000·4) = 0.00225 as trec_eval divides
    (0.0022 printed); set_P·set_recall = 0.003·0.75 = 0.0022500000000000003 (0.0023)."""
    assert (f"{(3.0 * 3.0) / (1000.0 * 4.0):.4f}", f"{(3 / 1000) * (3 / 4):.4f}") == ("0.0022", "0.0023")
    pattern = "111" + "0" * 997
    q, r = _files(tmp_path, {"7": (pattern, 4)})
    status, out, _ = _drop_in("-m", "set_map", str(q), str(r))
    assert (status, _value(out, "set_map")) == (0, "0.0022")
    assert _value(_config(tmp_path, q, r, metrics="set_map"), "set_map") == "0.0022"


def test_eleven_point_average_adds_its_levels_from_the_last(tmp_path):
    """11pt_avg adds the interpolated precisions from recall 1.0 down to 0.0 (m_11pt_avg.c walks
    the ranking backwards), then divides by 11."""
    from inexeval.measures.classic_join import rank_run, topic_table
    from inexeval.measures.classic_trec import TrecState
    from inexeval.readers.trec import read_qrels, read_run

    pattern = "1001011010010001"
    q, r = _files(tmp_path, {"1": (pattern, 9)})
    table = topic_table(read_qrels(q))
    ranking, _ = rank_run(read_run(r), table)
    state = TrecState(ranking)
    levels = tuple(x / 10 for x in range(11))
    vals = [float(v[0]) for v in state.iprec_levels(levels)]
    backwards = _left_to_right(reversed(vals)) / 11
    assert float(state.eleven_pt_avg(levels)[0]) == backwards
    # the interpolated precisions by hand: relevant at ranks 1, 4, 6, 7, 9, 12, 16 (7 of R = 9);
    # level x needs k = lround(9x) relevant: the maximum of count(i)/i from the k-th relevant on
    prec = {1: 1 / 1, 2: 2 / 4, 3: 3 / 6, 4: 4 / 7, 5: 5 / 9, 6: 6 / 12, 7: 7 / 16}
    want = []
    for x in levels:
        k = max(int(math.floor(9 * x + 0.5)), 1)
        want.append(max(prec[j] for j in range(k, 8)) if k <= 7 else 0.0)
    assert vals == want


def test_rndcg_skips_the_last_point_when_the_ranking_is_one_longer_than_its_ideal(tmp_path):
    """One relevant document (ideal list of length M = 1) at rank 2 of a 2-document ranking:
    the ideal gain changes after position 1, point DCG(1)/IDCG(1) = 0/1; trec_eval adds the point
    DCG(L)/IDCG(M) only when L > M + 1 (m_Rndcg.c's loop ends at i = M + 1 = L), so Rndcg = 0.
    With a third document (L = 3 > M + 1) it adds DCG(3)/IDCG(1) = (1/log2(3))/1: Rndcg = 0.3155."""
    (tmp_path / "q").write_text("1 0 rel 1\n1 0 other 0\n")
    (tmp_path / "r2").write_text("1 Q0 other 1 2 x\n1 Q0 rel 2 1 x\n")
    (tmp_path / "r3").write_text("1 Q0 other 1 3 x\n1 Q0 rel 2 2 x\n1 Q0 third 3 1 x\n")
    assert _value(_drop_in("-m", "Rndcg", str(tmp_path / "q"), str(tmp_path / "r2"))[1], "Rndcg") == "0.0000"
    want = f"{(0.0 + (1.0 / math.log2(3)) / 1.0) / 2:.4f}"
    assert want == "0.3155"
    assert _value(_drop_in("-m", "Rndcg", str(tmp_path / "q"), str(tmp_path / "r3"))[1], "Rndcg") == want


def test_complete_with_judged_only_prints_nan_for_a_missing_topic(tmp_path):
    """-c -J on a topic the run lacks: its stand-in document is unjudged, -J removes it, and
    m_iprec_at_recall.c divides 0 relevant by 0 retrieved: -nan for recall 0.0 (lround(0·R) = 0
    relevant needed), 0 for the other levels; the summary adds the NaN in: -nan."""
    (tmp_path / "q").write_text("1 0 a 1\n2 0 b 1\n")
    (tmp_path / "r").write_text("1 Q0 a 1 1 x\n")
    status, out, _ = _drop_in("-q", "-c", "-J", "-m", "iprec_at_recall.0,0.5", str(tmp_path / "q"), str(tmp_path / "r"))
    assert status == 0
    assert _value(out, "iprec_at_recall_0.00", "2") == "-nan"
    assert _value(out, "iprec_at_recall_0.50", "2") == "0.0000"
    assert _value(out, "iprec_at_recall_0.00", "all") == "-nan"
    assert out.count("  -nan\n") == 2  # (%6.4f pads to six characters)


def test_only_the_plain_labels_are_reset_after_a_stand_in(tmp_path):
    """trec_eval.c resets num_ret, utility, rbp_resid, unj* and relstring by their printed label after
    a stand-in ranking: utility_1,-1,0,0 and relstring_5 keep the stand-in's values (-1, '-')."""
    (tmp_path / "q").write_text("1 0 a 1\n2 0 b 1\n")
    (tmp_path / "r").write_text("1 Q0 a 1 1 x\n")
    args = ["-q", "-c", "-m", "utility", "-m", "relstring", str(tmp_path / "q"), str(tmp_path / "r")]
    out = _drop_in(*args)[1]
    assert (_value(out, "utility", "2"), _value(out, "relstring", "2")) == ("0.0000", "''")
    args = ["-q", "-c", "-m", "utility.1,-1,0,0", "-m", "relstring.5", str(tmp_path / "q"), str(tmp_path / "r")]
    out = _drop_in(*args)[1]
    assert (_value(out, "utility_1,-1,0,0", "2"), _value(out, "relstring_5", "2")) == ("-1.0000", "'-'")


def test_max_zero_cuts_the_stand_in_ranking_away_too(tmp_path):
    """-c -M 0: form_res_rels.c caps the stand-in ranking of a topic the run lacks as it caps every
    ranking, so topic 2 is scored on no result at all: iprec_at_recall at 0.0 divides 0 relevant
    by 0 retrieved (-nan, as for topic 1, whose one result -M 0 cuts away too), utility_1,-1,0,0
    counts no unjudged stand-in document (0, where without -M it is -1: the test above) and
    relstring_5 is empty."""
    (tmp_path / "q").write_text("1 0 a 1\n2 0 b 1\n")
    (tmp_path / "r").write_text("1 Q0 a 1 1 x\n")
    args = ["-q", "-c", "-M", "0", "-m", "iprec_at_recall.0,0.5", "-m", "utility.1,-1,0,0", "-m", "relstring.5",
            str(tmp_path / "q"), str(tmp_path / "r")]
    status, out, _ = _drop_in(*args)
    assert status == 0
    for topic in ("1", "2", "all"):
        assert _value(out, "iprec_at_recall_0.00", topic) == "-nan"
        assert _value(out, "iprec_at_recall_0.50", topic) == "0.0000"
        assert _value(out, "utility_1,-1,0,0", topic) == "0.0000"
    assert _value(out, "relstring_5", "2") == "''"



@pytest.mark.parametrize("fmt, lines, measure, value", [
    ("qrels_jg", "q1 g d1 1\nq2 g d2 1\n", "map_avgjg", "0.5000"),
    ("prefs", "q1 g s d1 1\nq1 g s d2 0\nq2 g s d3 1\nq2 g s d4 0\n", "prefs_simp", "0.5000"),
])
def test_complete_with_one_debug_topic_divides_by_every_topic_of_the_file(tmp_path, fmt, lines, measure, value):
    """-c -D 0.q1: only q1 is evaluated, and meas_avg.c divides its value by every topic of the file,
    whatever its format: q1 ranks its relevant (preferred) document first, 1.0, so the summary is
    1.0 / 2 topics = 0.5, and num_q is 2."""
    (tmp_path / "q").write_text(lines)
    (tmp_path / "r").write_text("q1 Q0 d1 1 1 R\nq1 Q0 d2 2 0.5 R\n")
    status, out, _ = _drop_in("-q", "-c", "-D", "0.q1", "-R", fmt, "-m", measure, "-m", "num_q",
                              str(tmp_path / "q"), str(tmp_path / "r"))
    assert status == 0
    assert _value(out, measure, "q1") == "1.0000"
    assert (_value(out, measure), _value(out, "num_q")) == (value, "2")


@pytest.mark.parametrize("qrels, run", [("1 0 a 1\n", "1 Q0 a 1 1 x\n1 Q0 a 2 0.5 x\n"),  # a docno twice in the run
                                        ("1 0 a 1\n1 0 a 0\n", "1 Q0 a 1 1 x\n")])   # ... in the qrels
def test_a_docno_twice_stops_only_a_measure_that_reads_the_ranking(tmp_path, qrels, run):
    """runid and num_q read no ranking (m_runid.c, m_num_q.c), so trec_eval never compares docnos:
    1 topic, status 0; map reads it (form_res_rels.c) and stops, status 4."""
    (tmp_path / "q").write_text(qrels)
    (tmp_path / "r").write_text(run)
    files = (str(tmp_path / "q"), str(tmp_path / "r"))
    status, out, err = _drop_in("-m", "runid", "-m", "num_q", *files)
    assert (status, out, err) == (0, "runid                 \tall\tx\nnum_q                 \tall\t1\n", "")
    status, out, err = _drop_in("-m", "num_q", "-m", "map", *files)
    assert (status, out) == (4, "") and "duplicate docs a" in err and err.endswith("Can't calculate measure 'map'\n")


def test_a_first_topic_judged_only_below_zero_stops_the_first_measure(tmp_path):
    """Topic 1 (first in byte order) is judged -1 only: form_res_rels.c allocates max_rel + 1 = 0 level
    counters on its first call and gets none, so the first measure reading the ranking cannot be
    computed (status 4, nothing printed); num_q reads no ranking; with -D 0.2 topic 2 comes first
    (AP 1/1 = 1); the same topic after topic 2 takes topic 2's level counts (docs/trec-eval.md §7):
    its AP is 0 (no relevant document), the mean (1 + 0) / 2 = 0.5."""
    (tmp_path / "q").write_text("1 0 d -1\n2 0 e 1\n")
    (tmp_path / "r").write_text("1 Q0 d 1 1 r\n2 Q0 e 1 1 r\n")
    files = (str(tmp_path / "q"), str(tmp_path / "r"))
    assert _drop_in("-m", "map", *files) == (4, "", "trec_eval: Can't calculate measure 'map'\n")
    assert _drop_in("-m", "num_q", *files)[:2] == (0, "num_q                 \tall\t2\n")
    assert _value(_drop_in("-D", "0.2", "-m", "map", *files)[1], "map") == "1.0000"
    (tmp_path / "q").write_text("2 0 e 1\n3 0 d -1\n")
    (tmp_path / "r").write_text("2 Q0 e 1 1 r\n3 Q0 d 1 1 r\n")
    assert _value(_drop_in("-m", "map", *files)[1], "map") == "0.5000"

# --- the primitive ---------------------------------------------------------------------------


def _reference_cumsum(x: np.ndarray, start: np.ndarray) -> np.ndarray:
    out = np.empty(x.size)
    for s, e in zip(start[:-1].tolist(), start[1:].tolist()):
        acc = 0.0
        for i in range(s, e):
            acc += float(x[i])
            out[i] = acc
    return out


@pytest.mark.parametrize("block", [classic_base.BLOCK, 64, 7])
@pytest.mark.parametrize("seed", range(40))
def test_segment_sums_are_left_to_right(seed, block, monkeypatch):
    """seg_cumsum equals a C loop over each segment, bit for bit: equal and unequal segment lengths,
    empty segments, segments longer than a block, integer-valued floats."""
    monkeypatch.setattr(classic_base, "BLOCK", block)
    rng = np.random.default_rng(seed)
    lens = rng.integers(0, 60, rng.integers(1, 25))
    if seed % 3 == 0:
        lens[:] = rng.integers(1, 40)
    start = np.concatenate(([0], np.cumsum(lens))).astype(np.int64)
    x = rng.random(int(start[-1])) / rng.integers(1, 9, int(start[-1]))
    if seed % 5 == 0:
        x = np.round(x * 10)
    want = _reference_cumsum(x, start)
    assert np.array_equal(seg_cumsum(x, start), want)
    sums = seg_sum(x, start)
    for t in range(lens.size):
        assert sums[t] == (want[start[t + 1] - 1] if lens[t] else 0.0)


def test_the_pairwise_sum_would_differ():
    """The case above that numpy's own sum gets wrong, through seg_sum: the order is what decides."""
    terms = np.array(_ap_terms("111011010001001100"))
    start = np.array([0, terms.size])
    assert seg_sum(terms, start)[0] == _left_to_right(terms.tolist()) != float(np.add.reduce(terms))


def test_rbp_powers_are_repeated_products(tmp_path):
    """rbp_resid (p = 0.9) of topic 1, 15 unjudged results: p^15 + (1 − p)·Σ_{i<15} p^i, and of topic 2,
    3 unjudged then 1 relevant: p^4 + (1 − p)(1 + p + p²); p^i formed as trec_eval forms it,
    ``cur_p = cur_p * p``: the mean is 0.96355 (0.9636 printed); with the C library's pow it is
    0.9635499999999999 (0.9635)."""
    p = 0.9

    def resid(codes, power):
        s = 0.0
        for i, c in enumerate(codes):
            if c < 0:
                s += power(i)
        return power(len(codes)) + (1 - p) * s

    def product(i):
        c = 1.0
        for _ in range(i):
            c *= p
        return c

    topics = ([-1] * 15, [-1, -1, -1, 1])
    ours = (resid(topics[0], product) + resid(topics[1], product)) / 2
    with_pow = (resid(topics[0], lambda i: math.pow(p, i)) + resid(topics[1], lambda i: math.pow(p, i))) / 2
    assert (f"{ours:.4f}", f"{with_pow:.4f}") == ("0.9636", "0.9635")
    q = "2 0 rel 1\n1 0 judged 0\n"
    run = "".join(f"1 Q0 u{i:02d} {i + 1} {100 - i} x\n" for i in range(15))
    run += "".join(f"2 Q0 v{i} {i + 1} {100 - i} x\n" for i in range(3)) + "2 Q0 rel 4 1 x\n"
    (tmp_path / "q").write_text(q)
    (tmp_path / "r").write_text(run)
    status, out, _ = _drop_in("-m", "rbp_resid", str(tmp_path / "q"), str(tmp_path / "r"))
    assert (status, _value(out, "rbp_resid")) == (0, "0.9636")
    assert _value(_config(tmp_path, tmp_path / "q", tmp_path / "r", metrics="rbp_resid"), "rbp_resid") == "0.9636"
    table = classic_base.powers(p, 2000)
    assert table.tolist() == [product(i) for i in range(2001)]
