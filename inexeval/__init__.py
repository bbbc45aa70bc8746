"""inexeval: an evaluator for INEX XML and focused-retrieval runs.

It reimplements what EvalJ computed for INEX 2005/2006 (XCG, HiXEval,
Relevant and Best in Context) and classic trec_eval-style measures.

From Python::

    import inexeval
    res = inexeval.evaluate("configs/co-thorough.prop", QUANT_FUNCTIONS="gen")
    res.average("Medium")["MAep"]
    inexeval.measures()
    res = inexeval.evaluate_trec({"q1": {"d1": 1}}, {"bm25": {"q1": {"d1": 2.5, "d2": 1.0}}})
    res.to_dataframe()                     # run, topic, measure, value (needs pandas)

:func:`evaluate`, :func:`measures`, :class:`Results` and :class:`MeasureInfo`
come from :mod:`inexeval.api`, :func:`evaluate_trec` (TREC qrels and runs as files or
data in memory) is :func:`inexeval.trec.evaluate`, each imported on first use:
``import inexeval`` loads neither numpy nor lxml.
"""

import sys
import types
from typing import TYPE_CHECKING

from inexeval._version import __version__

if TYPE_CHECKING:  # what a type checker sees of the names loaded on first use (py.typed)
    from inexeval.api import MeasureInfo as MeasureInfo, evaluate as evaluate, measures as measures
    from inexeval.results import Results as Results
    from inexeval.trec import evaluate as evaluate_trec

__all__ = ["evaluate", "evaluate_trec", "measures", "Results", "MeasureInfo", "__version__"]  # a literal
#: names of the API, from inexeval.api (Results from inexeval.results) on first use
_API = tuple(__all__[:-1])


def __getattr__(name: str):
    if name == "Results":
        from inexeval.results import Results

        return Results
    if name == "evaluate_trec":
        from inexeval.trec import evaluate

        return evaluate
    if name in _API:
        from inexeval import api

        return getattr(api, name)
    raise AttributeError(f"module 'inexeval' has no attribute {name!r}")


def __dir__():
    return sorted({*globals(), *_API})


class _Package(types.ModuleType):
    """The package's module type: ``inexeval.evaluate`` and ``inexeval.measures`` stay the API
    functions once the engine module (inexeval/evaluate.py) and the measures package of the same
    names are imported (the import system would otherwise set them as the package's attributes).
    Those are reached by ``from inexeval.engine import ...`` and ``from inexeval.measures import ...``."""

    def __setattr__(self, name, value):
        if name in _API and isinstance(value, types.ModuleType):
            return
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package
