"""inexeval.records against the standard library's dataclasses, which it stands in for (issue 35:
start-up): the same class, made by each, behaves the same on everything inexeval uses — every way
of calling ``__init__`` (the errors' messages included), defaults and factories, ``__post_init__``,
``repr``, ``==``, ``hash``, frozen fields, ``__slots__``, inheritance, a method the class writes
itself, ``fields``, ``replace``, ``asdict``, pickling — and the errors when a class is made.  Then:
every record class of the package has its annotated fields, no module imports dataclasses, and the
commands' fast paths do not load it.
"""

from __future__ import annotations

import dataclasses
import importlib
import itertools
import pickle
import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

import inexeval
from inexeval import records

ROOT = Path(__file__).resolve().parent.parent

#: (decorator options, the class body's fields) of each case; a field is (name, default) where the
#: default is "-" (none), ("value", v), ("factory", f) or ("field", dict of field() options).
CASES = {
    "plain": ({}, [("a", "-"), ("b", ("value", "x")), ("c", ("factory", list))]),
    "frozen": ({"frozen": True}, [("a", "-"), ("b", "-"), ("c", ("value", 1.5))]),
    "slots": ({"slots": True}, [("a", "-"), ("b", ("value", None)), ("c", ("factory", dict))]),
    "frozen slots": ({"frozen": True, "slots": True}, [("a", "-"), ("b", "-"), ("c", "-")]),
    "no eq": ({"eq": False}, [("a", "-"), ("b", ("value", 2))]),
    "frozen no eq": ({"frozen": True, "eq": False}, [("a", "-"), ("b", ("factory", list))]),
    "field options": ({}, [("a", "-"), ("b", ("field", {"default": 3, "repr": False})),
                           ("c", ("field", {"default": None, "init": False, "repr": False, "compare": False})),
                           ("d", ("field", {"default_factory": list, "compare": False}))]),
    "frozen field options": ({"frozen": True}, [("a", ("field", {"default": 0})),
                                               ("b", ("field", {"default_factory": tuple, "init": False}))]),
    "one field": ({"frozen": True}, [("a", "-")]),
    "no field": ({}, []),
}


def make(kind: str, case: str, extra: dict | None = None, base: type | None = None):
    """The class of CASE made by the standard library (KIND "dataclasses") or by records; EXTRA: more
    of the class body (methods); BASE: its base class."""
    opts, spec = CASES[case]
    lib = dataclasses if kind == "dataclasses" else records
    body: dict = {"__annotations__": {}, "__module__": __name__, "__qualname__": "Thing"}
    for name, default in spec:
        body["__annotations__"][name] = "object"
        if default == "-":
            continue
        how, v = default
        body[name] = v if how == "value" else lib.field(default_factory=v) if how == "factory" else lib.field(**v)
    body.update(extra or {})
    cls = type("Thing", (base,) if base else (), body)
    decorate = dataclasses.dataclass if kind == "dataclasses" else records.record
    return decorate(**opts)(cls)


def outcome(f, *args, **kwargs):
    """What calling F does: ("ok", result) or (the exception's type name, its message)."""
    try:
        return "ok", f(*args, **kwargs)
    except Exception as exc:  # noqa: BLE001  (compared, whatever it is)
        return type(exc).__name__, str(exc)


def calls(names: list[str]):
    """Argument lists to try on an __init__ of fields NAMES: every count of positional arguments (one
    too many included), with every subset of the rest as keywords, a repeated and an unknown one."""
    for k in range(len(names) + 2):
        args = tuple(f"p{i}" for i in range(k))
        rest = names[k:]
        for r in range(len(rest) + 1):
            for chosen in itertools.combinations(rest, r):
                yield args, {n: f"k{n}" for n in chosen}
        yield args, {"zzz": 1}
        if k and names:
            yield args, {names[0]: "again"}


def state(obj) -> tuple:
    """The attributes an instance holds (a field left unset shows as a marker)."""
    names = [f.name for f in (dataclasses.fields(obj) if dataclasses.is_dataclass(obj) else records.fields(obj))]
    return tuple(getattr(obj, n, "<unset>") for n in names)


@pytest.mark.parametrize("case", sorted(CASES))
def test_init_repr_eq_hash_as_dataclasses(case):
    dc, rc = make("dataclasses", case), make("records", case)
    names = [n for n, _ in CASES[case][1]]
    made = []
    for args, kwargs in calls(names):
        d, r = outcome(dc, *args, **kwargs), outcome(rc, *args, **kwargs)
        assert d[0] == r[0], (args, kwargs, d, r)
        if d[0] != "ok":
            assert d[1] == r[1], (args, kwargs)  # the same message
            continue
        a, b = d[1], r[1]
        made.append((a, b))
        assert state(a) == state(b)
        assert repr(a) == repr(b)
        a2, b2 = dc(*args, **kwargs), rc(*args, **kwargs)
        assert (a == a2) == (b == b2)
        assert (a == 1) == (b == 1) is False
        assert outcome(hash, a)[0] == outcome(hash, b)[0]
        if outcome(hash, a)[0] == "ok" and CASES[case][0].get("eq", True):
            assert (hash(a) == hash(a2)) and (hash(b) == hash(b2))
    assert made
    for (a, b), (a2, b2) in itertools.product(made, repeat=2):  # equal and unequal pairs alike
        assert (a == a2) == (b == b2) and (a != a2) == (b != b2)


@pytest.mark.parametrize("case", sorted(CASES))
def test_frozen_fields_slots_and_match_args_as_dataclasses(case):
    dc, rc = make("dataclasses", case), make("records", case)
    names = [n for n, _ in CASES[case][1]]
    n = sum(1 for f in dataclasses.fields(dc) if f.init)
    a, b = dc(*range(n)), rc(*range(n))
    for name in (*names, "other"):
        sa, sb = outcome(setattr, a, name, 9), outcome(setattr, b, name, 9)
        if str(sa[1]).startswith("super(type, obj)"):  # Python 3.11's frozen slots dataclass checks the class it
            sa = ("FrozenInstanceError", f"cannot assign to field {name!r}")  # replaced (CPython gh-90055)
        assert sa[0] == sb[0] and sa[1] == sb[1], (name, sa, sb)
        if sa[0] == "FrozenInstanceError":
            with pytest.raises(AttributeError):  # (records' own class, an AttributeError as dataclasses' is)
                setattr(b, name, 9)
        da, db = outcome(delattr, a, name), outcome(delattr, b, name)
        if str(da[1]).startswith("super(type, obj)"):
            da = ("FrozenInstanceError", f"cannot delete field {name!r}")
        assert da[0] == db[0], (name, da, db)
    assert hasattr(a, "__dict__") == hasattr(b, "__dict__")
    assert getattr(dc, "__slots__", None) == getattr(rc, "__slots__", None)
    assert dc.__match_args__ == rc.__match_args__
    assert [(f.name, f.default, f.default_factory, f.init, f.repr, f.compare) for f in dataclasses.fields(dc)] == \
           [(f.name, f.default if f.default is not records.MISSING else dataclasses.MISSING,
             f.default_factory if f.default_factory is not records.MISSING else dataclasses.MISSING,
             f.init, f.repr, f.compare) for f in records.fields(rc)]
    for name in names:  # class attributes: the defaults, as dataclasses leaves them
        assert outcome(getattr, dc, name)[0] == outcome(getattr, rc, name)[0]


@pytest.mark.parametrize("case", sorted(CASES))
def test_replace_and_asdict_as_dataclasses(case):
    dc, rc = make("dataclasses", case), make("records", case)
    init = [f.name for f in dataclasses.fields(dc) if f.init]
    a, b = dc(*([[1, {"k": (2, 3)}]] * len(init))), rc(*([[1, {"k": (2, 3)}]] * len(init)))
    assert state(dataclasses.replace(a)) == state(records.replace(b))
    for name in [f.name for f in dataclasses.fields(dc)] + ["zzz"]:
        d, r = outcome(dataclasses.replace, a, **{name: 7}), outcome(records.replace, b, **{name: 7})
        if d[0] == "TypeError" and "init=False" in d[1]:  # Python 3.13's dataclasses; 3.10-3.12 (and records):
            d = ("ValueError", d[1])  # a ValueError
        assert d[0] == r[0], (name, d, r)
        if d[0] == "ok":
            assert state(d[1]) == state(r[1])
    assert dataclasses.asdict(a) == records.asdict(b)
    if init:
        assert records.asdict(b)[init[0]] is not getattr(b, init[0])  # copied, as dataclasses does
    assert outcome(records.replace, rc)[0] == outcome(dataclasses.replace, dc)[0] == "TypeError"
    assert records.is_record(b) and records.is_record(rc) and not records.is_record(a)


def test_post_init_runs_last_as_dataclasses():
    def post(self):
        self.seen = state(self)

    dc = make("dataclasses", "plain", {"__post_init__": post})
    rc = make("records", "plain", {"__post_init__": post})
    assert dc(1).seen == rc(1).seen == (1, "x", [])
    assert outcome(rc)[1] == outcome(dc)[1]  # no __post_init__ without the arguments


def test_methods_the_class_writes_are_kept_as_dataclasses():
    body = {"__repr__": lambda self: "mine", "__eq__": lambda self, other: True, "__hash__": lambda self: 5}
    for case in ("plain", "frozen"):
        a, b = make("dataclasses", case, body)(1, 2), make("records", case, body)(1, 2)
        assert repr(a) == repr(b) == "mine" and (a == 3) == (b == 3) is True and hash(a) == hash(b) == 5
    unhashable = {"__hash__": None}  # set by the class itself: kept
    assert outcome(hash, make("dataclasses", "frozen", unhashable)(1, 2))[0] == \
           outcome(hash, make("records", "frozen", unhashable)(1, 2))[0] == "TypeError"
    eq_only = {"__eq__": lambda self, other: True}  # (Python sets __hash__ = None beside it)
    assert outcome(hash, make("dataclasses", "frozen", eq_only)(1, 2))[0] == \
           outcome(hash, make("records", "frozen", eq_only)(1, 2))[0] == "ok"

    def init(self, a, b):
        object.__setattr__(self, "a", a * 2)

    a, b = make("dataclasses", "plain", {"__init__": init})(1, 2), make("records", "plain", {"__init__": init})(1, 2)
    assert a.a == b.a == 2


def test_slots_inheritance_as_dataclasses():
    """A slots record whose base is one (readers.passages.PassageRun on model.Run)."""
    for lib in (dataclasses, records):
        decorate = lib.dataclass if lib is dataclasses else lib.record
        base = decorate(slots=True)(type("Base", (), {"__annotations__": {"a": "int", "b": "list"},
                                                     "b": lib.field(default_factory=list), "__module__": __name__}))
        sub = decorate(slots=True)(type("Sub", (base,), {"__annotations__": {"c": "int"}, "c": 0,
                                                        "__module__": __name__}))
        x = sub(1)
        assert (x.a, x.b, x.c) == (1, [], 0) and not hasattr(x, "__dict__")
        # only the slot the base does not hold (Python 3.10's dataclasses made all three again)
        assert sub.__slots__ == ("c",) or (lib is dataclasses and sys.version_info < (3, 11))
        assert [f.name for f in lib.fields(sub)] == ["a", "b", "c"]
        assert repr(x).endswith("Sub(a=1, b=[], c=0)")


@pytest.mark.parametrize("opts, spec, error", [
    ({}, {"a": 1, "b": "-"}, TypeError),  # a field without a default after one with a default
    ({}, {"a": []}, ValueError),  # an unhashable default
    ({}, {"a": {}}, ValueError),
    ({"frozen": True}, {"__setattr__": "method"}, TypeError),  # a frozen class writing its own __setattr__
])
def test_errors_when_a_class_is_made_as_dataclasses(opts, spec, error):
    for lib in (dataclasses, records):
        body: dict = {"__annotations__": {}, "__module__": __name__}
        for name, v in spec.items():
            if v == "method":
                body[name] = lambda self, n, x: None
                continue
            body["__annotations__"][name] = "object"
            if v != "-":
                body[name] = v
        decorate = lib.dataclass if lib is dataclasses else lib.record
        with pytest.raises(error):
            decorate(**opts)(type("Bad", (), body))


def test_frozen_and_unfrozen_records_do_not_mix():
    base = records.record(frozen=True)(type("B", (), {"__annotations__": {"a": "int"}}))
    with pytest.raises(TypeError):
        records.record(type("C", (base,), {"__annotations__": {"b": "int"}}))


# module-level classes, as pickle finds them by name
@records.record(frozen=True, slots=True)
class PickledFrozenSlots:
    a: int
    b: tuple = ()


@records.record(frozen=True)
class PickledFrozen:
    a: int
    b: list = records.field(default_factory=list)


@records.record(slots=True)
class PickledSlots:
    a: int
    b: str = "x"


@pytest.mark.parametrize("obj", [PickledFrozenSlots(1, (2,)), PickledFrozen(1, [2]), PickledSlots(3)])
def test_records_pickle(obj):
    for protocol in range(2, pickle.HIGHEST_PROTOCOL + 1):
        back = pickle.loads(pickle.dumps(obj, protocol))
        assert back == obj and back is not obj and type(back) is type(obj)


# ---------------------------------------------------------------- the package's records ----


def _package_modules() -> list[str]:
    names = ["inexeval"]
    for info in pkgutil.walk_packages(inexeval.__path__, "inexeval."):
        if ".devtools." in info.name or info.name.endswith("__main__"):
            continue
        names.append(info.name)
    return names


def test_no_module_of_the_package_uses_dataclasses():
    """Every class of fields is a record: dataclasses would be loaded (with inspect) by any command
    that imports its module."""
    texts = {p: p.read_text() for p in (ROOT / "inexeval").rglob("*.py")}
    bad = [str(p.relative_to(ROOT)) for p, text in texts.items()
           if "import dataclasses" in text or "from dataclasses" in text]
    assert not bad


def test_every_record_of_the_package_has_its_annotated_fields_and_an_init():
    """Every record class of the package (more than 80) has the fields its annotations and its record
    bases' name, in order, and the record's ``__init__`` or one it writes itself."""
    found = []
    for name in _package_modules():
        module = importlib.import_module(name)
        for obj in vars(module).values():
            if isinstance(obj, type) and obj.__module__ == name and records.is_record(obj):
                found.append(obj)
    assert len(found) > 80
    for cls in found:
        fs = records.fields(cls)
        assert [f.name for f in fs] == [n for c in reversed(cls.__mro__) for n in c.__dict__.get("__annotations__", {})]
        assert cls.__init__.__qualname__ == f"{cls.__qualname__}.__init__" or "__init__" in cls.__dict__


@pytest.mark.parametrize("argv", [
    ["trec-eval", "{qrels}", "{run}"],
    ["inex-eval", "-f", "{folqrels}", "{folrun}"],
    ["-config", "{folconfig}", "--quiet", "--results-dir", "{out}"],
    ["--version"],
])
def test_the_fast_paths_do_not_load_dataclasses(tmp_path, argv):
    sample = ROOT / "sample_data"
    qrels = next(sample.glob("trec/*qrels*"))
    run = next(p for p in sorted((sample / "trec").rglob("*")) if p.is_file() and p != qrels)
    folconfig = ROOT / "configs" / "fol-focused.prop"
    from inexeval.config import load_config

    cfg = load_config(folconfig)
    values = {"qrels": qrels, "run": run, "folqrels": cfg.assessments[0].path, "folrun": cfg.runs[0].path,
              "folconfig": folconfig, "out": tmp_path / "out"}
    args = [a.format(**values) for a in argv]
    probe = ("import atexit, os, sys\n"
             "atexit.register(lambda: os.write(2, ('\\nLOADED ' + str('dataclasses' in sys.modules) + '\\n').encode()))\n"
             f"sys.argv = ['inexeval', *{args!r}]\n"
             "from inexeval.launch import main\nmain()\n")
    proc = subprocess.run([sys.executable, "-c", probe], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    loaded = [ln for ln in proc.stderr.splitlines() if ln.startswith("LOADED")]
    assert loaded == ["LOADED False"], proc.stderr
