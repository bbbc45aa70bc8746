"""Atomic writes: an interrupted write leaves the old file (or none) and no partial output."""

from __future__ import annotations

import os

import pytest

from inexeval.writers import files


def test_interrupted_write_leaves_old_content_and_no_temp(tmp_path, monkeypatch):
    target = tmp_path / "out" / "r.tsv"
    files.atomic_write(target, "old\n")

    def interrupted(src, dst):
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "replace", interrupted)
    with pytest.raises(KeyboardInterrupt):
        files.atomic_write(target, "new content that must not appear half-written\n" * 1000)
    assert target.read_text() == "old\n"
    assert [p.name for p in target.parent.iterdir()] == ["r.tsv"]  # the temporary file is gone


def test_interrupted_first_write_leaves_nothing(tmp_path, monkeypatch):
    target = tmp_path / "s.tsv"
    real_fdopen = os.fdopen

    class Boom:
        def __init__(self, fh):
            self.fh = fh

        def __enter__(self):
            return self

        def __exit__(self, *a):
            self.fh.close()

        def write(self, data):
            self.fh.write(data[:10])
            raise KeyboardInterrupt  # killed half-way through writing

    monkeypatch.setattr(os, "fdopen", lambda fd, mode: Boom(real_fdopen(fd, mode)))
    with pytest.raises(KeyboardInterrupt):
        files.atomic_write(target, "x" * 100)
    assert list(tmp_path.iterdir()) == []


def test_written_files_have_normal_permissions(tmp_path):
    p = tmp_path / "a.tsv"
    files.atomic_write(p, "x\n")
    assert p.stat().st_mode & 0o777 == files.FILE_MODE


def test_run_file_lines_are_fmt_of_each_value():
    """A result file's lines are ``measure TAB topic TAB fmt(value)`` in natural topic order, then the
    ``all`` line, whether a measure's values include an undefined one (fmt one by one) or not (the C
    loops): ints, floats at rounding edges, NaN, infinities, -0.0, numpy floats."""
    import numpy as np

    from inexeval.model import RunResult
    from inexeval.names import cell
    from inexeval.writers.files import fmt, run_file_text

    per_topic = {"10": {"a": 3, "b": 0.1 + 0.2, "c": None},
                 "9": {"a": 0, "b": float("nan"), "c": -0.0},
                 "x\tz": {"a": 2**40, "b": float("-inf"), "c": np.float64(1 / 3)}}
    result = RunResult("r", "default", ["a", "b", "c"], per_topic, {"a": 1.5, "b": None, "c": 2})
    expected = []
    for m in ("a", "b", "c"):
        lines = [f"{m}\t{cell(t)}\t{fmt(per_topic[t][m])}" for t in ("9", "10", "x\tz")]
        lines.append(f"{m}\tall\t{fmt(result.average[m])}\n")
        expected.append("\n".join(lines))
    assert run_file_text(result) == "".join(expected)
    assert "a\t9\t0.0\n" in run_file_text(result) and "c\t10\t-\n" in run_file_text(result)


def _float_columns(rng, n):
    """Float64 columns of N values of the shapes a run's per-topic columns take: few distinct values
    (precision at a cut-off, 1/rank), -0.0 beside 0.0, NaN, infinities, subnormals, values a bit
    apart (the same decimal digits to 15 places), many distinct values, and mixtures."""
    import numpy as np

    tiny = np.array([5e-324, -5e-324, 2.2250738585072014e-308, 1e-310])
    edge = np.array([0.1 + 0.2, 0.3, np.nextafter(0.3, 1.0), np.nextafter(0.3, 0.0), 1 / 3, 2 / 3])
    special = np.array([0.0, -0.0, np.nan, np.inf, -np.inf, 1e16, 1e-5, 123456789012345678.0])
    return {
        "cut-off": rng.integers(0, 11, n) / 10.0,
        "reciprocal rank": 1.0 / rng.integers(1, 101, n),
        "signed zeros": rng.choice(np.array([0.0, -0.0, 1.0]), n),
        "special": rng.choice(np.concatenate((special, tiny)), n),
        "near ties": rng.choice(edge, n),
        "many": rng.random(n),
        "mostly zero": np.where(rng.random(n) < 0.6, 0.0, rng.random(n)),
        "one value": np.full(n, 0.25),
    }


@pytest.mark.parametrize("n", [0, 1, 4095, 4096, 5000, 100_003])
def test_float_texts_are_repr_of_each_value(n):
    """files.float_texts, which writes a column of few distinct values from the repr of each distinct
    bit pattern, gives repr of every value, in order, on columns of every shape and size (below,
    at and above the size it starts probing from, and for both of its ways)."""
    import numpy as np

    rng = np.random.default_rng(n)
    for name, col in _float_columns(rng, n).items():
        assert files.float_texts(col) == [repr(v) for v in col.tolist()], name
        view = col[::-1]  # (a view that is not contiguous)
        assert files.float_texts(view) == [repr(v) for v in view.tolist()], name
    ints = rng.integers(-5, 5, n)  # (an integer column stays as written: 3, not 3.0)
    assert files.float_texts(ints) == [repr(v) for v in ints.tolist()]


def test_float_texts_takes_the_distinct_values_only_where_they_are_few(monkeypatch):
    """The distinct values are looked for in a column whose sample has few of them, not in one of
    many distinct values (where sorting them would cost more than it saves)."""
    import numpy as np

    calls = []
    real = np.unique
    monkeypatch.setattr(np, "unique", lambda a, **k: calls.append((a.size, bool(k))) or real(a, **k))
    rng = np.random.default_rng(7)
    files.float_texts(rng.integers(0, 11, 20_000) / 10.0)
    assert [whole for size, whole in calls] == [False, True] and calls[1][0] == 20_000
    calls.clear()
    files.float_texts(rng.random(20_000))
    assert [whole for size, whole in calls] == [False]


def test_run_file_of_topic_columns_is_fmt_of_each_value():
    """A run's result file from its TopicColumns (many topics: the columns' texts from their distinct
    values) is the file of the same values given topic by topic."""
    import numpy as np

    from inexeval.model import RunResult
    from inexeval.topic_columns import TopicColumns
    from inexeval.writers.files import fmt, run_file_text

    rng = np.random.default_rng(3)
    topics = [str(t) for t in rng.permutation(6000) + 1]
    columns = _float_columns(rng, len(topics))
    names = list(columns)
    as_columns = RunResult("r", "default", names, TopicColumns(topics, columns), {m: 0.5 for m in names})
    text = run_file_text(as_columns)
    order = sorted(range(len(topics)), key=lambda i: int(topics[i]))  # (natural topic order)
    expected = []
    for m in names:
        lines = [f"{m}\t{topics[i]}\t{fmt(columns[m][i])}" for i in order]
        lines.append(f"{m}\tall\t0.5\n")
        expected.append("\n".join(lines))
    assert text == "".join(expected)


@pytest.mark.parametrize("seed", range(30))
def test_run_file_lines_of_per_topic_dicts_are_fmt_of_each_value(seed):
    """run_file_parts on per-topic dicts (INEX, FOL): each line's text is fmt of the topic's value, with
    values repeated across measures and topics, 0.0 and -0.0 among them (equal, printed apart), NaN,
    infinities, integers, booleans, topics lacking a measure and undefined values (None)."""
    import random

    from inexeval.aggregate import natural_key
    from inexeval.model import RunResult

    rng = random.Random(seed)
    pool = [0.0, -0.0, 1.0, 0.5, 1 / 3, float("nan"), float("inf"), -float("inf"), 2, True, 5e-324, 0.1 + 0.2]
    pool += [rng.random() for _ in range(5)]
    topics = [str(rng.randint(1, 400)) for _ in range(rng.randint(1, 25))]
    measures = [f"m@{k}" for k in range(rng.randint(1, 40))]
    undefined = rng.random() < 0.5
    per_topic = {t: {m: (None if undefined and rng.random() < 0.1 else rng.choice(pool))
                     for m in measures if rng.random() < 0.97} for t in topics}
    r = RunResult(run_id="r", setting="gen_on", measures=measures, per_topic=per_topic,
                  average={m: rng.choice(pool) for m in measures})
    order = sorted(per_topic, key=natural_key)
    want = ["\n".join([f"{m}\t{t}\t{files.fmt(per_topic[t].get(m))}" for t in order]
                      + [f"{m}\tall\t{files.fmt(r.average[m])}\n"]) for m in measures]
    assert list(files.run_file_parts(r)) == want
