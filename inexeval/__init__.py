"""inexeval: an evaluator for INEX XML and focused-retrieval runs.

It reimplements what EvalJ computed for INEX 2005/2006 (XCG, HiXEval,
Relevant and Best in Context) and classic trec_eval-style measures.
"""

__version__ = "0.1.0"
