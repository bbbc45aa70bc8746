"""The task table: every ``TASK`` inexeval evaluates, in one place (docs/measures.md §3).

A task row says what a run of that task is scored with and how: its
*strategy* (the measure families registered for it, see
:mod:`inexeval.measures.registry`), its defaults (OVERLAP, METRICS, DCV,
MAX_RESULTS), whether its settings are quantisation × overlap, what one
result of a run is (its unit), and which checks the run must pass.  Config
loading, evaluation and validation read these rows; nothing else compares
task names.

Adding a task is adding a row; adding a measure family for a new strategy is
a kernel module that registers its measures for that strategy, plus the row.
"""

from __future__ import annotations

from inexeval.records import record


#: Default cut-offs of the measures "at k" (docs/config.md, DCV).
DEFAULT_DCV: tuple[int, ...] = (10, 25, 50)
#: Results counted per topic (docs/config.md, MAX_RESULTS; INEX 2005/2006 allowed 1500).
DEFAULT_MAX_RESULTS = 1500

#: Run checks a task may ask for (validation refuses a run that fails them; docs/formats.md §1.3).
#: ``overlap``: no result overlaps an earlier one of the topic (Focussed, Best in Context);
#: ``one_per_article``: a second result from an article is dropped (Best in Context);
#: ``contiguous_articles``: an article's results are contiguous (Relevant in Context).
RUN_CHECKS = ("overlap", "one_per_article", "contiguous_articles")


class UnitFacts:
    """One row of the unit table: what a result unit means for the config keys and the commands, so
    that no code compares unit names (how its inputs are read: :data:`inexeval.inputs.UNITS`).
    (A plain class: every command loads this table.)

    - ``pools``: the judgements come in pool files (INEX): POOLS and QUERY_TYPE select them;
    - ``qrels_file``: the judgements are one file (a qrels or answer file), not a directory of pools;
    - ``counts_every_result``: every result of a run counts (no MAX_RESULTS key), as the official
      tool counts them;
    - ``max_results_note``: why ``validate --max-results`` has no effect on these runs (None: it has);
    - ``max_results_from_task``: validate's default --max-results is the task's MAX_RESULTS
      (question answering: L');
    - ``gains_by_letter``: GAINS are given to answer levels (S, A, B), not to integer levels;
    - ``marks_answers``: runs are marked against answer synsets (``inexeval.qa.marking``).
    """

    __slots__ = ("name", "pools", "qrels_file", "counts_every_result", "max_results_note", "max_results_from_task",
                 "gains_by_letter", "marks_answers")

    def __init__(self, name: str, *, pools: bool = False, qrels_file: bool = False, counts_every_result: bool = False,
                 max_results_note: str | None = None, max_results_from_task: bool = False,
                 gains_by_letter: bool = False, marks_answers: bool = False):
        self.name, self.pools, self.qrels_file = name, pools, qrels_file
        self.counts_every_result, self.max_results_note = counts_every_result, max_results_note
        self.max_results_from_task, self.gains_by_letter, self.marks_answers = \
            max_results_from_task, gains_by_letter, marks_answers


#: The unit table: ``Task.unit`` -> its facts.
UNIT_FACTS: dict[str, UnitFacts] = {u.name: u for u in (
    UnitFacts("element", pools=True),
    UnitFacts("document", qrels_file=True,
              max_results_note="results beyond it are cut off as trec_eval -M does, which no run fails"),
    UnitFacts("passage", qrels_file=True, counts_every_result=True,
              max_results_note="every result counts, as inex_eval counts them"),
    UnitFacts("answer", max_results_from_task=True, gains_by_letter=True, marks_answers=True),
)}


@record(frozen=True)
class Task:
    """One row of the task table."""

    name: str  # canonical, as printed and used in RESULTS_DIR/<TASK>
    strategy: str  # which registered measures apply (seed 000 §3: thorough, focussed, fetchbrowse, ...)
    aliases: tuple[str, ...] = ()
    overlap: tuple[str, ...] = ()  # default OVERLAP; () when the task takes no OVERLAP key
    metrics: tuple[str, ...] = ()  # default METRICS; (): the default set of the strategy's family
    dcv: tuple[int, ...] = DEFAULT_DCV  # default DCV
    #: default MAX_RESULTS; None: every result is kept unless the config sets MAX_RESULTS
    max_results: int | None = DEFAULT_MAX_RESULTS
    #: settings are QUANT_FUNCTIONS × OVERLAP (the XCG tasks); otherwise one setting, "default"
    quantised: bool = False
    #: what one result of a run is: "element" (file, XPath), "document" (a TREC docno) or
    #: "passage" (file, offset, length: INEX 2007-2010 FOL runs, docs/fol.md §2) or "answer" (an exact
    #: answer string of a question-answering run, docs/formats.md §11)
    unit: str = "element"
    run_checks: frozenset[str] = frozenset()
    #: measures whose per-topic differences ``compare --runs A,B`` shows besides the tested one
    differences: tuple[str, ...] = ()
    #: the FOL tasks: inex_eval 3.1's option letter for the task (t, f, r, b, i)
    tool_option: str | None = None
    #: the outputs shown first (HEADLINE's default): the task's official measures, then counts
    headline: tuple[str, ...] = ()

    @property
    def facts(self) -> UnitFacts:
        """The unit table's row of the task's unit."""
        return UNIT_FACTS[self.unit]

    @property
    def takes_overlap(self) -> bool:
        """Whether OVERLAP may be set for this task."""
        return bool(self.overlap)


#: the counts a headline lists after the measures (shown as integers; no run is ranked on them)
COUNT_NAMES = frozenset({"num_ret", "num_rel", "num_rel_ret", "num_q"})
_XCG_METRICS = ("nxcg", "ep/gr", "q")
#: INEX 2005's official figures (seed 000): MAep and nxCG at the cut-offs DCV gives by default
_XCG_HEADLINE = ("MAep", "nxCG@10", "nxCG@25", "nxCG@50")
_THOROUGH = dict(strategy="thorough", overlap=("off",), metrics=_XCG_METRICS, quantised=True, headline=_XCG_HEADLINE)
_FOCUSSED = dict(strategy="focussed", overlap=("on",), metrics=_XCG_METRICS, quantised=True,
                 run_checks=frozenset({"overlap"}), headline=_XCG_HEADLINE)
_FETCHBROWSE = dict(strategy="fetchbrowse", overlap=("on", "off"), metrics=("ep/gr",), quantised=True,
                    headline=("MAep",))
_FOL_FOCUSED_HEADLINE = ("MAiP", "iP[0.00]", "iP[0.01]", "iP[0.05]", "iP[0.10]")
_FOL_CONTEXT_HEADLINE = ("MAgP", "gP[5]", "gP[10]", "gP[25]", "gP[50]")

#: The INEX 2007-2010 ad hoc tasks, evaluated on passages (FOL: file, offset, length) as the official
#: tool inex_eval 3.1 does (docs/fol.md): every result counts (no MAX_RESULTS), no OVERLAP,
#: one strategy (and measure family) per task; aliases name the INEX years that ran the task.
_YEARS = ("2007", "2008", "2009", "2010")


def _fol(name: str, strategy: str, years: tuple[str, ...], option: str) -> Task:
    base = name.split(".", 1)[1]
    headline = _FOL_FOCUSED_HEADLINE if option in ("t", "f") else _FOL_CONTEXT_HEADLINE
    return Task(name, strategy=strategy, aliases=tuple(f"INEX{y}.{base}" for y in years),
                metrics=(strategy,), max_results=None, unit="passage", tool_option=option, headline=headline)


#: The task table (seed 000 §3 and §6 for 2005, seed 002 for 2006, TREC for the classic measures).
TASKS: dict[str, Task] = {t.name: t for t in (
    Task("CO.Thorough", **_THOROUGH),
    Task("COS.Thorough", **_THOROUGH),
    Task("SSCAS", **_THOROUGH),
    Task("SVCAS", **_THOROUGH),
    Task("VSCAS", **_THOROUGH),
    Task("VVCAS", **_THOROUGH),
    Task("Thorough", **_THOROUGH),
    Task("CO.Focussed", **_FOCUSSED),
    Task("COS.Focussed", **_FOCUSSED),
    Task("Focused", **_FOCUSSED),
    Task("CO.FetchBrowse", **_FETCHBROWSE),
    Task("COS.FetchBrowse", **_FETCHBROWSE),
    Task("RelevantInContext", strategy="relevantincontext", aliases=("AllInContext",), metrics=("gp",),
         dcv=(5, 10, 25, 50), run_checks=frozenset({"contiguous_articles"}),
         headline=("MAgP", "gP@5", "gP@10", "gP@25", "gP@50")),
    Task("BestInContext", strategy="bestincontext", metrics=("bepd", "eprum"),
         run_checks=frozenset({"overlap", "one_per_article"}),
         headline=("BEPD(A=0.01)", "BEPD(A=0.1)", "BEPD(A=1)", "BEPD(A=10)", "BEPD(A=100)")),
    Task("trec", strategy="trec", max_results=None, unit="document",
         headline=("map", "P_10", "ndcg_cut_10", "recip_rank", "bpref", "Rprec", "num_ret", "num_rel",
                   "num_rel_ret")),
    _fol("FOL.Thorough", "fol-thorough", ("2009", "2010"), "t"),
    _fol("FOL.Focused", "fol-focused", _YEARS, "f"),
    _fol("FOL.RelevantInContext", "fol-relevantincontext", _YEARS, "r"),
    _fol("FOL.BestInContext", "fol-bestincontext", _YEARS, "b"),
    _fol("FOL.T2I", "fol-t2i", ("2010",), "i"),
    # question answering (seed 003 §3.2): ranked exact answers, L' = 5 as at NTCIR QAC (docs/measures.md §11)
    Task("qa", strategy="qa", metrics=("qa", "qa-counts"), max_results=5, unit="answer",
         differences=("Q", "RR"), headline=("Q", "R", "RR")),
)}


def _key(name: str) -> str:
    """Task names compare case-insensitively, with Focussed = Focused."""
    return name.strip().lower().replace("focussed", "focused")


_LOOKUP: dict[str, Task] = {}
for _t in TASKS.values():
    for _n in (_t.name, *_t.aliases):
        _LOOKUP[_key(_n)] = _t


def find_task(name: str) -> Task | None:
    """The task called ``name`` (canonical name or alias, any case, Focussed = Focused), or None."""
    return _LOOKUP.get(_key(name))


def unknown_task_message(name: str) -> str:
    """'unknown task ...' with the nearest task name as a hint."""
    import difflib

    close = difflib.get_close_matches(_key(name), list(_LOOKUP), n=1, cutoff=0.6)
    hint = f"; did you mean {_LOOKUP[close[0]].name}?" if close else ""
    return f"unknown task {name.strip()!r}{hint}"


def same_task(a: str, b: str) -> bool:
    """Whether two task names (e.g. a run's ``task`` attribute and TASK) name the same task."""
    ta, tb = find_task(a), find_task(b)
    return ta is tb if ta is not None and tb is not None else _key(a) == _key(b)
