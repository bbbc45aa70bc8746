"""The INEX 2007–2010 passage tasks as measure families: what inex_eval prints, per topic and for the run.

One family per FOL task strategy (:mod:`inexeval.tasks`), each scoring a whole
run at once (``compute_all``) with the tool's kernel
(:func:`inexeval.measures.fol.score_fol_run`, called once per run and
setting, memoised in :attr:`RunInput.memo`).  Output names are the tool's
(docs/fol.md §3):

- Focused and Thorough: ``num_q``, the counts ``num_ret`` … ``rel_ret_size``,
  ``art_prec`` … ``char_f1``, ``iP[0.00]`` ``iP[0.01]`` ``iP[0.05]``
  ``iP[0.10]``, ``AiP``, ``MAiP`` and the 101-point curve ``ircl_prn.0.00`` …
  ``ircl_prn.1.00``;
- Relevant in Context, Best in Context, T2I: ``num_q``, the counts,
  ``gP[k]`` and ``gR[k]`` (k = 1, 2, 3, 5, 10, 25, 50), ``AgP``, ``MAgP`` and
  the 11-point curve ``ircl_prn.0.00`` … ``ircl_prn.1.00``.

Per topic, each is the tool's per-topic value; ``num_q`` is 1, ``MAiP`` /
``MAgP`` the topic's AiP / AgP and ``ircl_prn.x`` the topic's interpolated
precision at recall x.  For the run (``all``) every value is the tool's own
``all`` line (``aggregate`` ``run``), which no rule over the counted topics
gives: the in-context counts sum over every qrels topic (D11), a NaN topic
value makes its mean NaN (D12); ``AiP`` / ``AgP`` are then MAiP / MAgP.

A run the tool rejects, or on which it would stop, is an
:class:`~inexeval.errors.InputError` of that run (file and line): it is not
scored.  ``Impossible recall point`` lines become one warning per run.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from inexeval.errors import InputError
from inexeval.measures.registry import Curve, Measure, Params, RunInput, register
from inexeval.tasks import TASKS

if TYPE_CHECKING:
    import numpy as np

#: Strategy -> inex_eval's task option (the task table's ``tool_option``).
TASK_OPTION = {t.strategy: t.tool_option for t in TASKS.values() if t.tool_option is not None}
COUNTS = ("num_ret", "num_rel", "num_rel_ret", "ret_size", "rel_size", "rel_ret_size")
RATIOS = ("art_prec", "art_rec", "art_f1", "char_prec", "char_rec", "char_f1")
IP_POINTS = ("iP[0.00]", "iP[0.01]", "iP[0.05]", "iP[0.10]")
#: inex_eval's cut-offs of gP[k] and gR[k].
CUTOFFS = (1, 2, 3, 5, 10, 25, 50)
FOCUSED_CURVE = tuple(f"ircl_prn.{i / 100:.2f}" for i in range(101))
CONTEXT_CURVE = tuple(f"ircl_prn.{i / 10:.2f}" for i in range(11))
GP = tuple(n for k in CUTOFFS for n in (f"gP[{k}]", f"gR[{k}]"))


def _focused_outputs(p: Params) -> list[str]:
    return ["num_q", *COUNTS, *RATIOS, *IP_POINTS, "AiP", "MAiP", *FOCUSED_CURVE]


def _context_outputs(p: Params) -> list[str]:
    return ["num_q", *COUNTS, *GP, "AgP", "MAgP", *CONTEXT_CURVE]


def _run(name: str) -> str:
    return "run"


def _score(r: RunInput, task: str):
    """The tool's outcome for the run (once per run and setting)."""
    outcome = r.memo.get("fol")
    if outcome is None:
        from inexeval.measures.fol import score_fol_run
        from inexeval.readers.passages import paused_gc

        p = r.params
        with paused_gc():
            outcome = r.memo["fol"] = score_fol_run(r.recall_base, r.run.fol, task, complete=r.empty_as_zero,
                                                    n=p.bep_distance, beta=p.f_beta, irr=p.t2i_tolerance,
                                                    run_label=r.run.source, bounded=True)  # (formats.md §1.7)
    return outcome


_LINE = re.compile(r"\bline:? (\d+)")


def rejection(outcome, r: RunInput, task: str) -> InputError:
    """The InputError of a run the tool rejects: its message (without the tool's ``ERROR *** (RUN)``
    prefix), the run file and the line that made the tool reject it."""
    source = r.run.source
    text = " ".join(line.strip() for line in outcome.rejected)
    text = re.sub(rf"^(?:ERROR|Error) \*\*\* \({re.escape(source)}\) ", "", text)
    line = getattr(outcome, "rejected_line", None)
    if line is None:
        m = _LINE.search(text)
        line = int(m.group(1)) if m else _rejecting_line(r, task)
    return InputError(f"inex_eval rejects this run: {text.replace(chr(9), ' ')}", source, line)


def _rejecting_line(r: RunInput, task: str) -> int | None:
    """The line that makes the tool reject the run, when its message does not say (an article that
    comes back in the in-context tasks): the tool checks line by line, so the shortest rejected prefix
    of the run ends with it (found by bisection, scoring prefixes)."""
    from inexeval.measures.fol import score_fol_run
    from inexeval.readers.fol import FolRunFile

    numbers, raw, fields = r.run.fol.columns()
    p = r.params

    def rejected(k: int) -> bool:
        prefix = FolRunFile.from_columns(r.run.source, raw[:k], fields[:k], None if numbers is None else numbers[:k])
        return score_fol_run(r.recall_base, prefix, task, n=p.bep_distance, beta=p.f_beta,
                             irr=p.t2i_tolerance).rejected is not None

    lo, hi = 1, len(raw)  # rejected(hi) holds: the whole run is rejected
    while lo < hi:
        mid = (lo + hi) // 2
        if rejected(mid):
            hi = mid
        else:
            lo = mid + 1
    return hi if numbers is None else numbers[hi - 1]


def _family(strategy: str):
    task = TASK_OPTION[strategy]
    focused = task in ("t", "f")
    mean_name, topic_name = ("MAiP", "AiP") if focused else ("MAgP", "AgP")
    curve = FOCUSED_CURVE if focused else CONTEXT_CURVE

    def compute_all(r: RunInput, topics: list[str]) -> dict[str, np.ndarray] | list:
        outcome = _score(r, task)
        if outcome.rejected is not None:
            raise rejection(outcome, r, task)
        if outcome.death is not None:  # where inex_eval would stop (its message says so)
            raise outcome.death
        if set(outcome.topics) != set(topics):
            raise AssertionError(f"inex_eval includes topics {sorted(outcome.topics)}, the engine {sorted(topics)}")
        if outcome.impossible:
            bins = list(dict.fromkeys(line.rsplit(" ", 1)[-1] for line in outcome.impossible))
            shown = ", ".join(bins[:5]) + (", ..." if len(bins) > 5 else "")
            n = len(outcome.impossible)
            r.warn(f"{n} result{'s' if n != 1 else ''} reach recall above 1 (impossible recall point "
                   f"{shown}): inex_eval leaves them out of the interpolated precision")
        averages = {name: float(v) for name, v in outcome.all.items()}
        averages[topic_name] = averages[mean_name]
        r.averages.update(averages)
        if not topics:
            return []
        # the values as columns aligned with TOPICS (float64: each the tool's double, or its int), which
        # the result files write as C loops (writers.files.run_file_parts)
        import numpy as np

        rows = [outcome.per_topic[t] for t in topics]
        names = list(rows[0])
        out = {name: np.array([row[name] for row in rows], dtype=np.float64) for name in names}
        out["num_q"] = np.ones(len(topics))
        out[mean_name] = out[topic_name]
        points = np.array([outcome.curves[t] for t in topics], dtype=np.float64).reshape(len(topics), len(curve))
        out.update((name, points[:, k]) for k, name in enumerate(curve))
        return out

    return compute_all


def _ideal_focused(p: Params) -> list[str]:
    # every relevant passage exactly, nothing else: precision 1 at every recall, recall 1 in the end
    return [*RATIOS, *IP_POINTS, "AiP", "MAiP", *FOCUSED_CURVE]


def _ideal_context(p: Params) -> list[str]:
    # each relevant article once, scoring 1 (its relevant passages / its best entry point), nothing else
    return [*(f"gP[{k}]" for k in CUTOFFS), "AgP", "MAgP", *CONTEXT_CURVE]


#: One row per FOL family: strategy, description, whether the property suite's ideal run (each relevant
#: passage or article once) scores 1 on its outputs (T2I's tolerance makes no such promise).
_FAMILIES = (
    ("fol-thorough", "Thorough: interpolated precision over the novel retrieved characters (overlap allowed, "
                     "seen text counts once)", True),
    ("fol-focused", "Focused: interpolated precision over the retrieved characters, iP[x] and MAiP", True),
    ("fol-relevantincontext", "Relevant in Context: generalised precision of each article's F_BETA score, "
                              "gP[k], gR[k] and MAgP", True),
    ("fol-bestincontext", "Best in Context: generalised precision of the distance to the best entry point "
                          "(BEP_DISTANCE), gP[k], gR[k] and MAgP", True),
    ("fol-t2i", "Relevant in Context with tolerance to irrelevance (T2I_TOLERANCE), gP[k], gR[k] and MAgP", False),
)

for _strategy, _text, _ideal in _FAMILIES:
    _focused = TASK_OPTION[_strategy] in ("t", "f")
    register(Measure(
        name=_strategy,
        aliases=("maip", "aip", "ip") if _focused else ("magp", "agp", "gp"),
        strategies=frozenset({_strategy}),
        description=f"INEX 2007-2010 {_text}, every value inex_eval prints (docs/fol.md §3)",
        params={"fol-relevantincontext": ("F_BETA",), "fol-bestincontext": ("BEP_DISTANCE",),
                "fol-t2i": ("T2I_TOLERANCE",)}.get(_strategy, ()) + ("COLLECTION_DIR",),
        outputs=_focused_outputs if _focused else _context_outputs,
        # the official INEX 2007-2010 figures; the result files and summaries hold every value
        scalars=(lambda p: ["MAiP", *IP_POINTS]) if _focused
        else (lambda p: ["MAgP", "gP[5]", "gP[10]", "gP[25]", "gP[50]"]),
        # the tool's ircl_prn points: iP over character recall (-t, -f), interpolated gP over gR (-r, -b, -i)
        curves=(lambda p, c=FOCUSED_CURVE: [Curve(
            "iP", list(c), [float(n[len("ircl_prn."):]) for n in c],
            "recall", "interpolated precision")]) if _focused
        else (lambda p, c=CONTEXT_CURVE: [Curve(
            "gP", list(c), [float(n[len("ircl_prn."):]) for n in c],
            "generalised recall", "interpolated generalised precision")]),
        compute_all=_family(_strategy),
        aggregate=_run,
        counts=lambda n: n in COUNTS,  # printed as integers, as inex_eval prints them
        ranks_runs=lambda n: n not in COUNTS,  # sizes and numbers of the topics and retrieved text
        # the tool's means over topics (an interval is given where its all line is that mean, §12.1)
        topic_mean=lambda n: n not in COUNTS and n != "num_q",
        bounded=False,  # counts; and recall can exceed 1 (docs/fol.md §3)
        ideal_one=(_ideal_focused if _focused else _ideal_context) if _ideal else (lambda p: []),
        nan_is_value=True,
    ))
