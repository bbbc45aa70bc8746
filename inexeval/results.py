"""What :func:`inexeval.evaluate` returns: the numbers of one evaluation, by run, setting and topic.

A thin read-only view of an :class:`~inexeval.engine.Evaluation`: the
values are those the result files hold (``RESULTS_DIR/<TASK>/<setting>/
<run>.tsv``, docs/formats.md §9.2), as floats, with None where a value is
undefined (docs/measures.md §10).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

from inexeval.aggregate import natural_key

if TYPE_CHECKING:
    from inexeval.config.schema import Config
    from inexeval.errors import InexevalError
    from inexeval.engine import Evaluation
    from inexeval.model import RunResult
    from inexeval.writers.graphs import Curve


class Results:
    """Per run and setting, the averages and per-topic values of every measure.

    ``runs``, ``settings`` and ``measures`` (the scalar measures the tables
    show) name what there is; :meth:`average`, :meth:`per_topic` and
    :meth:`value` read it; iterating gives one
    :class:`~inexeval.model.RunResult` per run and setting; :meth:`to_rows`
    gives plain dicts (``pandas.DataFrame(results.to_rows())``), :meth:`to_dataframe`
    the long table (run, topic, measure, value).  The
    ``setting`` argument may be left out when there is a single setting.
    """

    def __init__(self, evaluation: Evaluation):
        self.evaluation = evaluation
        self._by_key = {(r.run_id, r.setting): r for r in evaluation.results}

    def __repr__(self) -> str:
        return (f"<Results {self.task}: {len(self.runs)} run(s), settings {', '.join(self.settings)}, "
                f"{len(self.problems)} problem(s)>")

    @property
    def config(self) -> Config:
        return self.evaluation.config

    @property
    def task(self) -> str:
        return self.evaluation.config.task

    @property
    def runs(self) -> list[str]:
        """Run ids, in the order the run files were read."""
        return list(dict.fromkeys(r.run_id for r in self.evaluation.results))

    @property
    def settings(self) -> list[str]:
        """Setting names (``gen_off``, …; ``default`` for tasks without quantisation)."""
        return [s.name for s in self.evaluation.settings]

    @property
    def measures(self) -> list[str]:
        """The scalar measures (the tables' columns), in order."""
        return list(self.evaluation.columns)

    @property
    def outputs(self) -> list[str]:
        """Every value the result files hold, curve points included, in order."""
        names: dict[str, None] = {}
        for r in self.evaluation.results:
            names.update(dict.fromkeys(r.measures))
        return list(names)

    @property
    def problems(self) -> list[InexevalError]:
        """Inputs that could not be read or scored (each names its file and line)."""
        return list(self.evaluation.problems)

    @property
    def warnings(self) -> list[str]:
        return list(self.evaluation.warnings)

    def __iter__(self) -> Iterator[RunResult]:
        return iter(self.evaluation.results)

    def __len__(self) -> int:
        return len(self.evaluation.results)

    def _setting(self, setting: str | None) -> str:
        if setting is None:
            if len(self.settings) != 1:
                raise ValueError(f"{len(self.settings)} settings ({', '.join(self.settings)}): name one")
            return self.settings[0]
        if setting not in self.settings:
            raise KeyError(f"no setting {setting!r} (settings: {', '.join(self.settings)})")
        return setting

    def result(self, run: str, setting: str | None = None) -> RunResult:
        """The :class:`~inexeval.model.RunResult` of one run under one setting."""
        s = self._setting(setting)
        try:
            return self._by_key[run, s]
        except KeyError:
            raise KeyError(f"no run {run!r} (runs: {', '.join(self.runs)})") from None

    def average(self, run: str, setting: str | None = None) -> dict[str, float | None]:
        """Every measure's average over the topics (``all`` in the result files)."""
        r = self.result(run, setting)
        return {m: r.average.get(m) for m in r.measures}

    def per_topic(self, run: str, setting: str | None = None) -> dict[str, dict[str, float | None]]:
        """{topic: {measure: value}}, topics in natural order."""
        r = self.result(run, setting)
        return {t: {m: r.per_topic[t].get(m) for m in r.measures} for t in sorted(r.per_topic, key=natural_key)}

    def value(self, run: str, measure: str, setting: str | None = None, topic: str = "all") -> float | None:
        """One value: the average (``topic="all"``) or one topic's; None where undefined."""
        r = self.result(run, setting)
        if measure not in r.measures:
            raise KeyError(f"no measure {measure!r} (measures: {', '.join(r.measures)})")
        if topic == "all":
            return r.average.get(measure)
        if topic not in r.per_topic:
            raise KeyError(f"run {run!r} has no value for topic {topic!r} (a topic it does not answer is "
                           "scored only with empty_as_zero)")
        return r.per_topic[topic].get(measure)

    def to_rows(self, per_topic: bool = False, measures: Sequence[str] | None = None) -> list[dict]:
        """One dict per run and setting (``run``, ``setting``, ``topic`` = ``all``, then the
        measures), and with ``per_topic`` one per topic before it; ``measures``: which
        columns (default: :attr:`measures`; :attr:`outputs` for every value)."""
        cols = list(self.measures if measures is None else measures)
        rows = []
        for r in self.evaluation.results:
            topics = sorted(r.per_topic, key=natural_key) if per_topic else []
            for t in topics:
                rows.append({"run": r.run_id, "setting": r.setting, "topic": t,
                             **{c: r.per_topic[t].get(c) for c in cols}})
            rows.append({"run": r.run_id, "setting": r.setting, "topic": "all", **{c: r.average.get(c) for c in cols}})
        return rows

    def to_dataframe(self, measures: Sequence[str] | None = None):
        """A long pandas DataFrame: one row per run, topic and measure, with the columns ``run``,
        ``topic`` (``all`` for the average over the topics, after each run's topics in natural order),
        ``measure`` and ``value`` (a float; NaN where undefined); with more than one setting, a column
        ``setting`` after ``run``.  ``measures``: which (default: :attr:`measures`; :attr:`outputs`
        for every value).  pandas is imported here only: without it, an ImportError saying so
        (:meth:`to_rows` gives the same values as plain dicts)."""
        try:
            import pandas as pd
        except ImportError:
            raise ImportError("Results.to_dataframe() needs pandas, which is not installed (pip install pandas); "
                              "Results.to_rows() gives the same values as plain dicts") from None
        cols = list(self.measures if measures is None else measures)
        several = len(self.settings) > 1
        run, setting, topic, measure, value = [], [], [], [], []
        for r in self.evaluation.results:
            blocks = [(t, r.per_topic[t]) for t in sorted(r.per_topic, key=natural_key)] + [("all", r.average)]
            for t, values in blocks:
                for c in cols:
                    v = values.get(c)
                    run.append(r.run_id)
                    setting.append(r.setting)
                    topic.append(t)
                    measure.append(c)
                    value.append(float("nan") if v is None else float(v))
        data = {"run": run, **({"setting": setting} if several else {}), "topic": topic, "measure": measure,
                "value": pd.array(value, dtype="float64")}
        return pd.DataFrame(data)

    def curves(self, setting: str | None = None, topic: str | None = None) -> list[Curve]:
        """The averaged curves the graphs draw (ep/gr, nxCG, …), or one topic's; each with
        ``title``, ``setting``, ``xs`` and ``series`` (run id -> y values)."""
        from inexeval.writers.graphs import collect_curves

        curves = collect_curves(self.evaluation, topic)
        if setting is None:
            return curves
        name = self._setting(setting)
        return [c for c in curves if c.setting == name]
