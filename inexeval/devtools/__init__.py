"""Tools for developers, not used by evaluation.

Nothing under ``inexeval.devtools`` is imported by the evaluator, its readers,
measures or writers; these modules write test and benchmark data
(:mod:`inexeval.devtools.synth`) and generated documentation
(:mod:`inexeval.devtools.configdoc`).
"""
