"""The tables ``inexeval assessments`` prints (the default ``--format table``), from its rows
(:mod:`inexeval.assessments.tables`): seed 001 Table 1 (statistics across topics), Table 2 (agreement per
topic and level), Table 3 (mutually agreed elements), the agreement on highlighted text, Cohen's κ
and the ranking correlations.  The files hold every value at full precision (docs/formats.md §10).
"""

from __future__ import annotations

from collections.abc import Sequence

from inexeval.aggregate import natural_key
from inexeval.names import cell

_ACROSS = ("mean", "min", "max", "median", "stdev")


def _align(rows: Sequence[Sequence[str]], left: int = 1) -> str:
    """Columns padded to their widths: the first LEFT to the left, the others to the right."""
    widths = [max(len(r[k]) for r in rows if k < len(r)) for k in range(max(len(r) for r in rows))]
    out = []
    for r in rows:
        parts = [c.ljust(widths[k]) if k < left else c.rjust(widths[k]) for k, c in enumerate(r)]
        out.append("  ".join(parts).rstrip())
    return "\n".join(out)


def _num(v, digits: int) -> str:
    if v is None:
        return "-"
    if isinstance(v, int):
        return str(v)
    return f"{v:.{digits}f}"


class _Rows:
    """Row look-up by (section, topic, level, grade, quantity)."""

    def __init__(self, rows):
        self.value = {tuple(r[:5]): r[5] for r in rows}
        self.topics = {}
        for s, t, lv, g, q, v in rows:
            if t not in (*_ACROSS, "min_topic", "max_topic"):
                self.topics.setdefault((s, lv), {})[t] = None

    def get(self, *key):
        return self.value.get(key)

    def topics_of(self, section: str, level: str) -> list[str]:
        return sorted(self.topics.get((section, level), {}), key=natural_key)


def _stats(r: _Rows, level: str, grades: Sequence[str]) -> list[str]:
    topics = r.topics_of("stats", level)
    if not topics:
        return []
    table = [["grade", "value", "count", "avg_size", "avg_rsize_pct"]]
    for g in ("all", *grades):
        if r.get("stats", "mean", level, g, "count") is None and r.get("stats", topics[0], level, g, "count") is None:
            continue
        for k, name in enumerate(_ACROSS):
            cells = [g if k == 0 else "", name]
            for q, digits in (("count", 1), ("avg_size", 1), ("avg_rsize_pct", 1)):
                v = r.get("stats", name, level, g, q)
                text = _num(int(v) if q == "count" and name in ("min", "max") and v is not None else v, digits)
                if name in ("min", "max") and v is not None:
                    text += f" ({cell(str(r.get('stats', name + '_topic', level, g, q)))})"
                cells.append(text)
            table.append(cells)
    return [f"Statistics per grade, {level} level, across {len(topics)} topic(s) "
            "(count; average size in characters; average rsize/size in %)", _align(table, 2), ""]


def _agreement(r: _Rows, level: str, grades: Sequence[str]) -> list[str]:
    topics = r.topics_of("agreement", level)
    if not topics or r.get("agreement", topics[0], level, "all", "union") is None:
        return []
    present = [g for g in grades if r.get("agreement", topics[0], level, g, "ratio") is not None
               or r.get("agreement", topics[0], level, g, "union") is not None]
    table = [["topic", "union", "inter", "ratio", *(f"{g} ratio" for g in present)]]
    for t in (*topics, "mean"):
        table.append([cell(t), _num(r.get("agreement", t, level, "all", "union"), 1 if t == "mean" else 0),
                      _num(r.get("agreement", t, level, "all", "intersection"), 1 if t == "mean" else 0),
                      _num(r.get("agreement", t, level, "all", "ratio"), 2),
                      *(_num(r.get("agreement", t, level, g, "ratio"), 2) for g in present)])
    return [f"Agreement between the two assessors, {level} level (union: relevant for either; inter: for both; "
            "per grade: ratio of the items of that grade)", _align(table), ""]


def _ma(r: _Rows, level: str, grades: Sequence[str]) -> list[str]:
    topics = r.topics_of("ma", level)
    if not topics:
        return []
    present = [g for g in grades if r.get("ma", topics[0], level, g, "union") is not None]
    head = ["topic", "MA"]
    for g in present:
        head += [f"{g} union", f"{g} ratio"]
    table = [head]
    for t in (*topics, "mean"):
        row = [cell(t), _num(r.get("ma", t, level, "all", "count"), 1 if t == "mean" else 0)]
        for g in present:
            row += [_num(r.get("ma", t, level, g, "union"), 1 if t == "mean" else 0), _num(r.get("ma", t, level, g, "ratio"), 2)]
        table.append(row)
    return [f"Mutually agreed (MA) {level}s: per grade, those the official assessor put in it (union) and the "
            "fraction the additional assessor put in it too (ratio)", _align(table), ""]


def _text(r: _Rows) -> list[str]:
    topics = r.topics_of("agreement", "text")
    if not topics:
        return []
    table = [["topic", "union", "inter", "ratio", "article mean"]]
    for t in (*topics, "mean"):
        d = 1 if t == "mean" else 0
        table.append([cell(t), _num(r.get("agreement", t, "text", "all", "union"), d),
                      _num(r.get("agreement", t, "text", "all", "intersection"), d),
                      _num(r.get("agreement", t, "text", "all", "ratio"), 2),
                      _num(r.get("agreement", t, "text", "all", "article_mean_ratio"), 2)])
    return ["Agreement on highlighted characters", _align(table), ""]


def _kappa(r: _Rows) -> list[str]:
    topics = r.topics_of("agreement", "article")
    if not topics or r.get("agreement", topics[0], "article", "all", "kappa") is None and \
            r.get("agreement", topics[0], "article", "all", "judged_both") is None:
        return []
    table = [["topic", "judged both", "kappa", "kappa levels"]]
    for t in (*topics, "mean"):
        table.append([cell(t), _num(r.get("agreement", t, "article", "all", "judged_both"), 1 if t == "mean" else 0),
                      _num(r.get("agreement", t, "article", "all", "kappa"), 3),
                      _num(r.get("agreement", t, "article", "all", "kappa_levels"), 3)])
    return ["Cohen's kappa over the documents judged in both qrels (relevant or not; relevance levels)",
            _align(table), ""]


def _ranking(rows) -> list[str]:
    mine = [x for x in rows if x[0] == "ranking"]
    if not mine:
        return []
    value = {(x[2], x[3], x[4]): x[5] for x in mine}
    table = [["setting", "measure", "tau_b", "rho", "max rank change", "of run"]]
    for s, m in dict.fromkeys((x[2], x[3]) for x in mine):
        run = value.get((s, m, "max_rank_change_run"))
        table.append([s, m, _num(value.get((s, m, "kendall_tau_b")), 3), _num(value.get((s, m, "spearman_rho")), 3),
                      _num(value.get((s, m, "max_rank_change")), 1), "-" if run is None else cell(str(run))])
    return ["Run rankings under the official and the additional assessor (topics judged by both)",
            _align(table, 2), ""]


def table_text(rows, loaded, task: str) -> str:
    """What ``--format table`` prints."""
    r = _Rows(rows)
    n, m = len(loaded.official), sum(1 for t in loaded.official if t in loaded.additional)
    out = [f"Assessments of {task}: {n} topic(s), {m} judged by two assessors", ""]
    for level in loaded.stats_levels:
        out += _stats(r, level, loaded.grades)
    for level in loaded.agreement_levels:
        out += _agreement(r, level, loaded.grades)
    out += _text(r) + _kappa(r) + _ma(r, loaded.ma_level, loaded.grades) + _ranking(rows)
    return "\n".join(out).rstrip("\n")
