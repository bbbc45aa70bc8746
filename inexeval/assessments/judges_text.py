"""What ``inexeval assessments --judgements-b`` prints (``--format table``) from a
:class:`~inexeval.assessments.judges.JudgesResult`: the figures over all topics (every topic's are in
assessments.tsv), the ranking and significance agreement, and Judged@k (docs/formats.md §10.4)."""

from __future__ import annotations

from tabulate import tabulate

from inexeval.names import cell

_LABEL_COLUMNS = (("both", "both"), ("only_a", "only A"), ("only_b", "only B"), ("agreement", "agree"),
                  ("kappa", "κ"), ("kappa_linear", "κ lin"), ("kappa_quadratic", "κ quad"),
                  ("alpha_nominal", "α nom"), ("alpha_ordinal", "α ord"), ("alpha_interval", "α int"),
                  ("precision", "P"), ("recall", "R"), ("f1", "F1"), ("jaccard", "Jacc."), ("bias", "bias"),
                  ("loa_low", "LoA low"), ("loa_high", "LoA high"))
_RANK_COLUMNS = (("runs", "runs"), ("tau_b", "τ-b"), ("tau_ap", "τ_AP"), ("tau_ap_b", "τ_AP-b"), ("rho", "ρ"),
                 ("pearson", "r"), ("tau_top_k", "τ top-k"), ("max_rank_change", "max rank change"),
                 ("max_rank_change_run", "of run"))
_SIG_COLUMNS = ("pairs", "both_same", "reversed", "only_a", "only_b", "neither")
_TEST_NAMES = {"t": "paired t test, Holm-corrected", "randomisation": "randomisation test, Holm-corrected",
               "bootstrap": "bootstrap test, Holm-corrected", "tukey": "Tukey HSD",
               "randomised-tukey": "randomised Tukey HSD"}


def _num(v, digits: int = 3) -> str:
    if v is None:
        return "-"
    if isinstance(v, str):
        return cell(v)
    if isinstance(v, int):
        return str(v)
    return f"{v:.{digits}f}"


def _table(rows: list[list], headers: list[str]) -> str:
    return tabulate(rows, headers=headers, disable_numparse=True, stralign="right")


def _labels(result) -> list[tuple]:
    value = {(r[1], r[2], r[3], r[4]): r[5] for r in result.section("labels")}
    a = result.sets[0]
    levels = list(dict.fromkeys(r[2] for r in result.section("labels")))
    out = []
    names = [s.name for s in result.sets[1:]]
    table = [[cell(n), lv, *(_num(value.get(("all", lv, n, q))) for q, _ in _LABEL_COLUMNS)]
             for n in names for lv in levels]
    if table:
        missing = result.options.missing
        out.append((f"Label agreement with {cell(a.name)} (A), all topics pooled: graded and relevant-or-not, on the "
                    "items both judged" + (f"; *_union: on the items either judged, a missing grade {missing}"
                                           if missing is not None else ""),
                    ["set", "level", *(h for _, h in _LABEL_COLUMNS)], table))
    if len(names) > 1:
        joint = [[lv, *(_num(value.get(("all", lv, "all", q))) for q in
                        ("alpha_nominal", "alpha_ordinal", "alpha_interval", "fleiss_kappa"))] for lv in levels]
        out.append((f"All {len(names) + 1} sets together, all topics (α: every item; Fleiss' κ: the items every set "
                    "judged)", ["level", "α nom", "α ord", "α int", "Fleiss κ"], joint))
    for n in names:
        cells = {q[len("confusion_"):]: v for (t, lv, g, q), v in value.items()
                 if t == "all" and lv == "graded" and g == n and q.startswith("confusion_")}
        grades = list(dict.fromkeys(k.split("_", 1)[0] for k in cells)) if cells else []
        if grades:
            rows = [[f"A {ga}", *(_num(cells.get(f"{ga}_{gb}")) for gb in grades)] for ga in grades]
            out.append((f"Confusion matrix of the grades, all topics: rows {cell(a.name)} (A), columns {cell(n)}",
                        ["", *(f"{cell(n)} {gb}" for gb in grades)], rows))
    return out


def _ranking(result) -> list[tuple]:
    mine = result.section("ranking")
    shown = set(result.headline)
    if len(shown) >= 2:  # the headline measures that rank runs; every measure in assessments.tsv
        mine = [r for r in mine if r[2].rpartition(" ")[2] in shown]
    if not mine:
        return []
    value = {(r[2], r[3], r[4]): r[5] for r in mine}
    table = [[cell(g), cell(lv), *(_num(value.get((lv, g, q)), 1 if q == "max_rank_change" else 3)
                                   for q, _ in _RANK_COLUMNS)]
             for lv, g in dict.fromkeys((r[2], r[3]) for r in mine)]
    top = result.options.top
    return [(f"Run rankings under {cell(result.sets[0].name)} (A) and each set, on the topics both judged "
             f"(τ top-k: the {top} best runs under A; " + ("the headline measures; every measure in assessments.tsv)"
                                                           if len(shown) >= 2 else "every measure)"),
             ["set", "measure", *(h for _, h in _RANK_COLUMNS)], table)]


def _significance(result) -> list[tuple]:
    mine = result.section("significance")
    if not mine:
        return []
    o = result.options
    value = {(r[2], r[3], r[4]): r[5] for r in mine if not r[4].endswith("_pair")}
    table = [[cell(g), cell(lv), *(_num(value.get((lv, g, q))) for q in _SIG_COLUMNS)]
             for lv, g in dict.fromkeys((r[2], r[3]) for r in mine)]
    out = [(f"Significance decisions between the runs ({_TEST_NAMES.get(o.test, o.test)}, α = {o.alpha}) under A "
            "and under each set", ["set", "measure", *_SIG_COLUMNS], table)]
    changed = [r for r in mine if r[4].endswith("_pair") and r[4] != "both_same_pair"]
    if changed:
        out.append(("Decisions that changed (the run better as the deciding set says)",
                    ["set", "measure", "decision", "pair"],
                    [[cell(r[3]), cell(r[2]), r[4][:-len("_pair")], cell(str(r[5]))] for r in changed]))
    return out


def _judged(result) -> list[tuple]:
    mine = result.section("judged")
    if not mine:
        return []
    value = {(r[2], r[3], r[4]): r[5] for r in mine}
    k = result.options.judged_k
    table = [[cell(run), cell(g), *(_num(value.get((run, g, q))) for q in
                                   ("judged_at_k_a", "judged_at_k_b", "judged_at_k_fill"))]
             for run, g in dict.fromkeys((r[2], r[3]) for r in mine)]
    return [(f"Judged@{k}: the share of each run's first {k} results that are judged (mean over the topics)",
             ["run", "set B", "under A", "under B", "under A+B"], table)]


def judges_tables(result) -> list[tuple[str, list[str], list[list[str]]]]:
    """The tables of RESULT, each (title, headers, rows of cells already made text: :func:`~inexeval.names.cell`
    ids, values to 3 decimals, ``-`` undefined): what the command prints and the report shows."""
    return _labels(result) + _ranking(result) + _significance(result) + _judged(result)


def judges_text(result) -> str:
    """The tables of RESULT (module docstring)."""
    sets = "; ".join(f"{s.label} {cell(s.name)} ({len(s.topics)} topic(s))" for s in result.sets)
    out = [f"Judgement sets: {sets}", ""]
    for title, headers, rows in judges_tables(result):
        if headers == ["set", "measure", "decision", "pair"]:  # a list, as the lines of a note
            out += [title + ":"] + [f"  {g}  {m}  {d}: {pair}" for g, m, d, pair in rows] + [""]
        else:
            out += [title, _table(rows, headers), ""]
    out += [f"note: {n}" for n in result.notes]
    return "\n".join(out).rstrip("\n")


__all__ = ["judges_tables", "judges_text"]
