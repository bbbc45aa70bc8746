"""``inexeval compare --reliability``: how reliable each measure is (docs/measures.md §12.7).

Per setting and measure (every column that ranks runs), over the runs compared and the topics they
all have a value for: Sakai's discriminative power (the share of run pairs significant at alpha) with
its achieved-significance-level (ASL) curve, and Voorhees and Buckley's swap rates binned by the mean
difference; and the rank correlation between the parameter settings of one measure (``P@5``,
``P@10``; ``nDCG(gains={2:5})@10`` and ``nDCG@10``; Q under several ``GAINS`` from several configs).

Nothing here prints: the ``*_rows`` give the rows of ``reliability``, ``asl`` and ``swap-rates``
(.tsv/.json), :func:`format_reliability` the text, :func:`write_asl_graphs` the ASL curves.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from inexeval.names import cell
from inexeval.records import record

DP_TESTS = ("bootstrap", "randomised-tukey")


@record(frozen=True)
class ReliabilityOptions:
    """``--dp-test``, ``--alpha``, ``--samples``, ``--seed``, ``--subset-size`` (None: half the topics)."""

    test: str = "bootstrap"
    alpha: float = 0.05
    samples: int = 1000
    seed: int = 0
    subset_size: int | None = None


@record
class MeasureReliability:
    """One measure's reliability under one setting (a NOTE when it cannot be computed)."""

    setting: str
    measure: str
    runs: int = 0
    topics: int = 0
    power: object | None = None  # inexeval.compare.reliability.DiscriminativePower
    swaps: object | None = None  # inexeval.compare.reliability.SwapRate
    note: str = ""


def measure_reliability(results, setting: str, measure: str, runs: Sequence[str] | None,
                        options: ReliabilityOptions) -> MeasureReliability:
    """The reliability of MEASURE over RESULTS (RunResults) of SETTING, for RUNS (None: all)."""
    from inexeval.compare.matrix import topic_matrix
    from inexeval.compare.reliability import discriminative_power, swap_rate

    out = MeasureReliability(setting, measure)
    chosen = [r for r in results if r.setting == setting and (not runs or r.run_id in runs)]
    try:
        _, run_ids, x = topic_matrix(chosen, measure, setting)
    except ValueError:
        out.note = f"no topic where every run has a value of {measure}"
        return out
    out.runs, out.topics = x.shape[1], x.shape[0]
    if x.shape[1] < 2 or x.shape[0] < 2:
        out.note = f"{x.shape[0]} topic(s) x {x.shape[1]} run(s): two of each are needed"
        return out
    out.power = discriminative_power(x, test=options.test, alpha=options.alpha, samples=options.samples,
                                     seed=options.seed)
    c = options.subset_size if options.subset_size is not None else x.shape[0] // 2
    if 2 * c > x.shape[0]:
        out.note = f"swap rates: two disjoint subsets of {c} topics need {2 * c} topics; there are {x.shape[0]}"
    else:
        out.swaps = swap_rate(x, c, samples=options.samples, seed=options.seed)
    return out


def reliability_rows(task: str, items: Sequence[MeasureReliability], options: ReliabilityOptions) -> list[dict]:
    """``reliability``: a row per setting and measure."""
    rows = []
    for r in items:
        dp = r.power
        pairs = len(dp.pairs) if dp is not None else 0
        swaps = r.swaps
        rows.append({"task": task, "setting": r.setting, "measure": r.measure, "runs": r.runs, "topics": r.topics,
                     "pairs": pairs, "significant": int(round(dp.share * pairs)) if dp is not None else None,
                     "discriminative_power": dp.share if dp is not None else None, "test": options.test,
                     "alpha": options.alpha, "samples": options.samples, "seed": options.seed,
                     "subset_size": swaps.subset_size if swaps is not None else None,
                     "swap_rate": (float(swaps.swaps.sum() / swaps.pairs.sum())
                                   if swaps is not None and swaps.pairs.sum() else None),
                     "note": r.note})
    return rows


def asl_rows(task: str, items: Sequence[MeasureReliability], run_names: dict[str, list[str]] | None = None
             ) -> list[dict]:
    """``asl``: each measure's p-values sorted ascending (the ASL curve), a row per pair of runs."""
    rows = []
    for r in items:
        if r.power is None:
            continue
        for rank, p in enumerate(r.power.asl.tolist(), 1):
            rows.append({"task": task, "setting": r.setting, "measure": r.measure, "rank": rank, "p": p})
    return rows


def swap_rows(task: str, items: Sequence[MeasureReliability]) -> list[dict]:
    """``swap-rates``: each measure's bins of |mean difference| with their pairs, swaps and rate."""
    rows = []
    for r in items:
        s = r.swaps
        if s is None:
            continue
        for k in range(s.pairs.size):
            rows.append({"task": task, "setting": r.setting, "measure": r.measure, "subset_size": s.subset_size,
                         "bin_lower": float(s.edges[k]), "bin_upper": float(s.edges[k + 1]),
                         "pairs": int(s.pairs[k]), "swaps": int(s.swaps[k]),
                         "rate": None if math.isnan(s.rate[k]) else float(s.rate[k])})
    return rows


def format_reliability(task: str, items: Sequence[MeasureReliability], options: ReliabilityOptions,
                       fmt: str = "table") -> str:
    """The reliability of every measure as text (FMT ``table``; ``latex``/``markdown`` tables)."""
    rows = reliability_rows(task, items, options)
    test = "paired bootstrap test" if options.test == "bootstrap" else "randomised Tukey HSD"
    if fmt != "table":
        from inexeval.compare.tables import paper_text
        from inexeval.writers.papertable import reliability_table

        return paper_text(fmt, [reliability_table(task, rows, test)]) if rows else ""
    from tabulate import tabulate

    def num(v) -> str:
        return "-" if v is None else f"{v:.4f}"

    body = [[cell(r["setting"]), cell(r["measure"]), r["runs"], r["topics"],
             "-" if r["significant"] is None else f"{r['significant']}/{r['pairs']}", num(r["discriminative_power"]),
             "-" if r["subset_size"] is None else r["subset_size"], num(r["swap_rate"]), cell(r["note"])]
            for r in rows]
    head = (f"== {cell(task)}  reliability of each measure: discriminative power ({test}, {options.samples} "
            f"samples, seed {options.seed}, alpha {options.alpha}) and swap rate over disjoint topic subsets ==")
    return head + "\n" + tabulate(body, headers=["setting", "measure", "runs", "topics", "significant pairs",
                                                 "disc. power", "subset", "swap rate", ""], disable_numparse=True)


def format_swap_rates(task: str, items: Sequence[MeasureReliability]) -> str:
    """Each measure's swap rates by bin of |mean difference| (compare's own text)."""
    from tabulate import tabulate

    blocks = []
    for r in items:
        s = r.swaps
        if s is None:
            continue
        body = [[f"[{s.edges[k]:.2f}, {s.edges[k + 1]:.2f})", int(s.pairs[k]), int(s.swaps[k]),
                 "-" if math.isnan(s.rate[k]) else f"{s.rate[k]:.4f}"] for k in range(s.pairs.size) if s.pairs[k]]
        blocks.append(f"== {cell(task)}  {cell(r.setting)}  {cell(r.measure)}: swap rates, {s.samples} pairs of "
                      f"disjoint subsets of {s.subset_size} topics ==\n"
                      + tabulate(body, headers=["|difference|", "pairs", "swaps", "rate"], disable_numparse=True))
    return "\n\n".join(blocks)


def write_asl_graphs(out: Path, task: str, setting: str, items: Sequence[MeasureReliability], *, gnuplot: bool,
                     png: bool) -> list[Path]:
    """The ASL curves of SETTING (one line per measure: p against the rank of the pair) as
    ``asl_<setting>.dat``/``.gp`` and/or ``.png`` under OUT; returns the paths written."""
    from inexeval.names import file_component
    from inexeval.writers.files import atomic_write

    curves = [(r.measure, r.power.asl) for r in items if r.setting == setting and r.power is not None]
    if not curves:
        return []
    stem = file_component(f"asl_{setting}")
    written = []
    if gnuplot:
        lines = []
        for i, (measure, asl) in enumerate(curves):
            lines.append(f"# {cell(measure)}")
            lines += [f"{k}\t{p!r}" for k, p in enumerate(asl.tolist(), 1)]
            lines += ["", ""] if i + 1 < len(curves) else []
        atomic_write(out / f"{stem}.dat", "\n".join(lines) + "\n")
        plots = ", ".join(f"base.'.dat' index {i} with lines title '{_gp(m)}'" for i, (m, _) in enumerate(curves))
        atomic_write(out / f"{stem}.gp", "\n".join([
            "# ASL curves: each measure's p-values of every pair of runs, sorted (Sakai 2006)",
            f"base = '{stem}'", "set terminal pngcairo size 800,500", "set output base.'.png'",
            f"set title '{_gp(task)} {_gp(setting)}: achieved significance level'",
            "set xlabel 'run pairs sorted by p'", "set ylabel 'p'", "set yrange [0:1]", "set key top left",
            f"plot {plots}", ""]))
        written += [out / f"{stem}.dat", out / f"{stem}.gp"]
    if png:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        fig, ax = plt.subplots(figsize=(8, 5))
        for measure, asl in curves:
            ax.plot(np.arange(1, asl.size + 1), asl, label=cell(measure))
        ax.set_xlabel("run pairs sorted by p")
        ax.set_ylabel("p")
        ax.set_ylim(0, 1)
        ax.set_title(f"{cell(task)} {cell(setting)}: achieved significance level")
        ax.legend(loc="upper left")
        out.mkdir(parents=True, exist_ok=True)
        tmp = out / f".{stem}.png.tmp"
        fig.savefig(tmp, format="png")
        plt.close(fig)
        tmp.replace(out / f"{stem}.png")
        written.append(out / f"{stem}.png")
    return written


def average_scores(results, setting: str, measure: str) -> dict[str, float | None]:
    """Each run's average of MEASURE under SETTING."""
    return {r.run_id: r.average.get(measure) for r in results if r.setting == setting}


def _gp(text: str) -> str:
    """TEXT for a single-quoted gnuplot string."""
    return cell(text).replace("'", "''")


# ---------------------------------------------------------------- parameter settings ----

_PARAMETERS = re.compile(r"^(?P<base>[A-Za-z][A-Za-z_]*?)(?:\(.*\))?(?:@[0-9.]+|[_.][0-9.,=]+)?$")


def family(measure: str) -> str:
    """The measure a name is a parameter setting of: its name without parameters and cut-off
    (``nDCG(gains={2:5})@10`` and ``nDCG@10`` -> ``nDCG``; ``P_5`` -> ``P``; ``MAnxCG@25`` -> ``MAnxCG``;
    ``map`` -> ``map``)."""
    m = _PARAMETERS.match(measure)
    return m.group("base") if m else measure


def parameter_correlations(results, settings: Sequence[str], measures: Sequence[str], method: str) -> list:
    """Per setting and family of two or more measures of MEASURES: the correlation between the run
    orderings of its parameter settings (:class:`~inexeval.compare.tables.CorrelationTable`, kind
    ``parameters``)."""
    from inexeval.compare import stats as analysis
    from inexeval.compare.tables import CorrelationTable

    families: dict[str, list[str]] = {}
    for m in measures:
        families.setdefault(family(m), []).append(m)
    out = []
    for s in settings:
        for base, names in families.items():
            if len(names) < 2:
                continue
            scores = {m: average_scores(results, s, m) for m in names}
            got, mat = analysis.correlation_matrix(scores, method)
            out.append(CorrelationTable("parameters", f"{base} {s}", method, got, mat))
    return out


def config_variant_correlations(loaded: Sequence[tuple], method: str) -> list:
    """Across configs (LOADED: (config, results) pairs of one task): per measure and setting that two or
    more of them have, the correlation between their run orderings, each config named by the measure
    with the config keys it reads that differ between them (``Q(GAINS=3:30, 2:20, 1:10)``).  A measure
    whose run averages are the same under every config (``map`` when only GAINS differs) is left out."""
    from inexeval.compare import stats as analysis
    from inexeval.compare.tables import CorrelationTable
    from inexeval.config.schema import KEY_TABLE, value_as_written
    from inexeval.measures.registry import find

    if len(loaded) < 2:
        return []
    out = []
    columns = [dict.fromkeys(m for r in results for m in r.measures) for _, results in loaded]
    common = [m for m in columns[0] if all(m in c for c in columns[1:])]
    for measure in common:
        strategy = loaded[0][0].strategy
        meas = find(measure, strategy)
        keys = list(meas.params) if meas is not None else []
        keys += [k for k in ("GAINS", "REL_LEVEL", "Q_BETA", "ALPHA", "TREC_EVAL_VERSION") if k not in keys]
        keys = [k for k in keys if k in KEY_TABLE]
        fields = [KEY_TABLE[k].field for k in keys]
        values = [tuple(value_as_written(getattr(c, f)) for f in fields) for c, _ in loaded]
        differ = [i for i in range(len(fields)) if len({v[i] for v in values}) > 1]
        if not differ:
            continue
        names = [f"{measure}(" + ", ".join(f"{keys[i]}={v[i]}" for i in differ) + ")" for v in values]
        if len(set(names)) < len(names):
            continue
        settings = [s for s in dict.fromkeys(r.setting for r in loaded[0][1])
                    if all(any(r.setting == s for r in res) for _, res in loaded[1:])]
        for s in settings:
            scores = {name: average_scores(results, s, measure) for name, (_, results) in zip(names, loaded)}
            if all(v == next(iter(scores.values())) for v in scores.values()):
                continue  # the same scores under every config: the keys that differ do not change this measure
            got, mat = analysis.correlation_matrix(scores, method)
            out.append(CorrelationTable("parameters", f"{measure} {s}", method, got, mat))
    return out
