"""Topic T1 and runs R1/R2 of docs/measures.md (Appendix A), built directly as model objects."""

from __future__ import annotations

from inexeval.model import E_TOO_SMALL, FileAssessment, Judgement, TopicAssessment

# key: (file, path, e, size, rsize)  — the table "Topic T1 and run R1"
T1_ROWS = {
    "A": ("f1", "/article[1]", 2, 2000, 700),
    "S1": ("f1", "/article[1]/sec[1]", 2, 400, 400),
    "P1": ("f1", "/article[1]/sec[1]/p[1]", 2, 200, 200),
    "P2": ("f1", "/article[1]/sec[1]/p[2]", 1, 200, 200),
    "S2": ("f1", "/article[1]/sec[2]", 2, 600, 200),
    "P3": ("f1", "/article[1]/sec[2]/p[1]", 2, 100, 100),
    "P4": ("f1", "/article[1]/sec[2]/p[2]", E_TOO_SMALL, 100, 100),
    "S3": ("f1", "/article[1]/sec[3]", 1, 100, 100),
    "B": ("f2", "/article[1]", 1, 500, 100),
    "B1": ("f2", "/article[1]/p[1]", 1, 100, 100),
}
#: unlisted elements: Z (f3 root, text length 50), U (f1 sec[2]/p[3], text length 400)
Z = ("f3", "/article[1]")
U = ("f1", "/article[1]/sec[2]/p[3]")
EL = {k: (v[0], v[1]) for k, v in T1_ROWS.items()}
EL["Z"], EL["U"] = Z, U


def topic_from_rows(topic: str, rows, empty_files=()) -> TopicAssessment:
    ta = TopicAssessment(topic=topic, pool=None, query_type=None, source="test")
    for f, p, e, size, rsize in rows:
        fa = ta.files.setdefault(f, FileAssessment(file=f))
        fa.elements[p] = Judgement(p, e, size, rsize)
    for f in empty_files:
        ta.files.setdefault(f, FileAssessment(file=f))
    return ta


def t1() -> TopicAssessment:
    return topic_from_rows("T1", T1_ROWS.values(), empty_files=("f3",))


def run(*keys: str) -> list[tuple[str, str]]:
    return [EL[k] for k in keys]


R1 = ("P2", "P1", "S2", "P3", "A", "B1", "Z", "B")
R2 = ("Z", "B1", "S1", "P1", "B", "P3")
