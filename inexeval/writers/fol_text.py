"""``--format inex_eval``: what the INEX 2007–2010 tool prints, for the runs of a FOL task's config.

For each run of the config, in run-file order, the text
``inexeval inex-eval`` prints for it (:func:`inexeval.writers.inex_eval.format_outcome`):
the ``Impossible recall point`` lines, then the ``<eval …>`` block (``-q``:
with the per-topic lines; ``-e``: every qrels topic included, inex_eval's
``-c``), or the tool's rejection lines.  The runs are read and scored again
with the config's F_BETA, BEP_DISTANCE and T2I_TOLERANCE; ``file=`` is the
run's path as the config found it.  A run that cannot be read prints
nothing (its error is reported with the others).  docs/fol.md §5.
"""

from __future__ import annotations

from inexeval.errors import InexevalError


def inex_eval_text(ev, *, per_query: bool) -> str:
    """The tool's text for every run of the Evaluation ``ev`` of a FOL task."""
    from inexeval.inputs import UNITS
    from inexeval.measures.fol import score_fol_run
    from inexeval.writers.inex_eval import format_outcome

    config, p = ev.config, ev.params
    task = config.task_def.tool_option
    inputs = UNITS["passage"]
    recall_base = inputs.load(config)
    parts = []
    for f in config.runs:
        label = str(f.path)
        try:
            run = inputs.read_run(f.path, config, recall_base)
        except InexevalError:
            continue
        outcome = score_fol_run(recall_base.data, run.fol, task, complete=ev.empty_as_zero, n=p.bep_distance,
                                beta=p.f_beta, irr=p.t2i_tolerance, run_label=label)
        parts.append(format_outcome(outcome, task, label, per_query=per_query))
    return "".join(parts)
