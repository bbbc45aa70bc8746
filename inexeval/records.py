"""Records: classes of named fields, made as the standard library's :mod:`dataclasses` makes them, but
without compiling code when a class is made (issue 35: start-up).

``@dataclass`` writes each method it adds (``__init__``, ``__repr__``, ``__eq__``, ``__hash__``, and a
frozen class's ``__setattr__`` and ``__delattr__``) as Python source and compiles it: about 0.5 ms a
class on Python 3.11.  A FOL config made 28 classes as it started, 15 ms of its 0.17 s; the
``trec-eval`` drop-in 17 (7.5 ms).  :func:`record` adds the same methods as closures shared by every class, with
the same behaviour for what inexeval uses (tests/test_records.py checks it against ``@dataclass``):

- fields from the class's annotations, in order, after those of record base classes; defaults,
  ``field(default=..., default_factory=..., init=..., repr=..., compare=...)``; a default after
  which a field without one is a TypeError, an unhashable default (a list) a ValueError;
- ``__init__(*fields)`` (``__post_init__()`` called after, if defined), ``__repr__``, ``__eq__`` (same
  class, field tuples equal), ``__hash__`` (frozen and eq: the field tuple's; eq only: unhashable),
  ``__match_args__``; a method the class defines itself is kept;
- ``frozen``: assigning or deleting a field raises :class:`FrozenInstanceError` (an AttributeError);
- ``slots``: the class is remade with ``__slots__`` of its fields (a frozen one pickles by its
  ``__getstate__`` and ``__setstate__``);
- :func:`fields`, :func:`replace`, :func:`asdict` and :func:`is_record`, as ``dataclasses.fields``,
  ``replace``, ``asdict`` and ``is_dataclass``.

Where Python's versions differ, records behave as 3.11's dataclasses: a slots class holds only the
slots its bases do not (3.10 repeated them), ``replace`` given a field ``__init__`` does not take
raises a ValueError (3.13: a TypeError), and a frozen slots instance refuses any attribute with
:class:`FrozenInstanceError` (3.11's dataclasses raise a TypeError from ``super()`` there).  The
tests pass on 3.10–3.13.

Not supported (inexeval has none): ``ClassVar`` and ``InitVar`` annotations, ``kw_only``, ``order``,
``unsafe_hash``.  ``__init__`` takes its arguments as ``*args, **kwargs`` and binds them itself; the
errors for missing, unexpected or repeated arguments say what Python's would.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:  # (typing costs 3 ms to import: annotations only)
    from typing import Any

__all__ = ["record", "field", "fields", "replace", "asdict", "is_record", "Field", "FrozenInstanceError",
           "MISSING"]


class _Missing:
    __slots__ = ()

    def __repr__(self) -> str:
        return "MISSING"


#: No default (a field's ``default`` or ``default_factory`` left out).
MISSING: Any = _Missing()

#: The attribute holding a record class's fields (name -> :class:`Field`, in order).
_FIELDS = "__record_fields__"


class FrozenInstanceError(AttributeError):
    """A field of a frozen record assigned or deleted (``dataclasses.FrozenInstanceError``'s role)."""


class Field:
    """One field of a record: its name, default or default factory, and whether ``__init__`` takes it,
    ``__repr__`` shows it and ``__eq__`` and ``__hash__`` compare it."""

    __slots__ = ("name", "default", "default_factory", "init", "repr", "compare")

    def __init__(self, default: Any = MISSING, default_factory: Any = MISSING, init: bool = True,
                 repr: bool = True, compare: bool = True):
        if default is not MISSING and default_factory is not MISSING:
            raise ValueError("cannot specify both default and default_factory")
        self.name: str = ""
        self.default, self.default_factory = default, default_factory
        self.init, self.repr, self.compare = init, repr, compare

    def __repr__(self) -> str:
        return (f"Field(name={self.name!r}, default={self.default!r}, default_factory={self.default_factory!r}, "
                f"init={self.init}, repr={self.repr}, compare={self.compare})")


def field(*, default: Any = MISSING, default_factory: Any = MISSING, init: bool = True, repr: bool = True,
          compare: bool = True) -> Any:
    """A field's options, written as its class attribute (``dataclasses.field``)."""
    return Field(default, default_factory, init, repr, compare)


def record(cls: type | None = None, /, *, frozen: bool = False, eq: bool = True, slots: bool = False):
    """Make CLS a record class (``@record`` or ``@record(frozen=True, eq=False, slots=True)``): the module
    docstring says what it adds."""

    def wrap(c: type) -> type:
        return _process(c, frozen, eq, slots)

    return wrap if cls is None else wrap(cls)


def fields(obj: Any) -> tuple[Field, ...]:
    """The fields of a record class or instance, in order (TypeError for anything else)."""
    found = getattr(obj, _FIELDS, None)
    if found is None:
        raise TypeError("must be called with a record type or instance")
    return tuple(found.values())


def is_record(obj: Any) -> bool:
    """Whether OBJ is a record class or instance."""
    return hasattr(obj if isinstance(obj, type) else type(obj), _FIELDS)


def replace(obj: Any, /, **changes: Any) -> Any:
    """A new record like OBJ with CHANGES (``dataclasses.replace``: a field ``__init__`` does not take
    cannot be changed, and gets its default again)."""
    if isinstance(obj, type) or not is_record(obj):
        raise TypeError("replace() should be called on record instances")
    for f in getattr(obj, _FIELDS).values():
        if not f.init:
            if f.name in changes:
                raise ValueError(f"field {f.name} is declared with init=False, it cannot be specified with replace()")
            continue
        if f.name not in changes:
            changes[f.name] = getattr(obj, f.name)
    return obj.__class__(**changes)


def asdict(obj: Any) -> dict[str, Any]:
    """A record instance as a dict of its fields, records, lists, tuples and dicts inside it converted
    likewise and other values deep-copied (``dataclasses.asdict``)."""
    if isinstance(obj, type) or not is_record(obj):
        raise TypeError("asdict() should be called on record instances")
    import copy

    def convert(v: Any) -> Any:
        if is_record(v) and not isinstance(v, type):
            return {f.name: convert(getattr(v, f.name)) for f in fields(v)}
        if isinstance(v, tuple) and hasattr(v, "_fields"):  # a named tuple
            return type(v)(*[convert(x) for x in v])
        if isinstance(v, (list, tuple)):
            return type(v)(convert(x) for x in v)
        if isinstance(v, dict):
            return type(v)((convert(k), convert(x)) for k, x in v.items())
        return copy.deepcopy(v)

    return convert(obj)


# ------------------------------------------------------------------ making the class ----


def _own_fields(cls: type) -> list[Field]:
    """The fields CLS declares itself (its annotations), each class attribute set as dataclasses sets it."""
    out = []
    for name in cls.__dict__.get("__annotations__", {}):
        value = cls.__dict__.get(name, MISSING)
        f = value if isinstance(value, Field) else Field(default=value)
        f.name = name
        if f.default is not MISSING and type(f.default).__hash__ is None:
            raise ValueError(f"mutable default {type(f.default)} for field {name} is not allowed: use default_factory")
        if isinstance(value, Field):
            if f.default is MISSING:
                delattr(cls, name)
            else:
                setattr(cls, name, f.default)
        out.append(f)
    return out


def _process(cls: type, frozen: bool, eq: bool, slots: bool) -> type:
    every: dict[str, Field] = {}
    for base in reversed(cls.__mro__[1:]):
        inherited = base.__dict__.get(_FIELDS)
        if inherited is not None:
            if base.__dict__["__record_frozen__"] != frozen:
                raise TypeError("cannot inherit a frozen record from a non-frozen one, or the other way")
            every.update(inherited)
    for f in _own_fields(cls):
        every[f.name] = f
    seen_default = False
    for f in every.values():
        if not f.init:
            continue
        has_default = f.default is not MISSING or f.default_factory is not MISSING
        if seen_default and not has_default:
            raise TypeError(f"non-default argument {f.name!r} follows default argument")
        seen_default = seen_default or has_default
    if slots:
        cls = _with_slots(cls, tuple(every), frozen)
    setattr(cls, _FIELDS, every)
    setattr(cls, "__record_frozen__", frozen)
    own = cls.__dict__
    explicit_hash = "__hash__" in own and not (own["__hash__"] is None and "__eq__" in own)  # (before __eq__ is added)
    ordered = list(every.values())
    _set_new(cls, "__init__", _init(cls, ordered, frozen))
    _set_new(cls, "__repr__", _repr(tuple(f.name for f in ordered if f.repr)))
    compared = tuple(f.name for f in ordered if f.compare)
    if eq:
        _set_new(cls, "__eq__", _eq(compared))
    if eq and not explicit_hash:
        cls.__hash__ = _hash(compared) if frozen else None  # type: ignore[method-assign,assignment]
    if frozen:
        for name, method in _frozen_methods(cls, frozenset(every)).items():
            if name in own:
                raise TypeError(f"cannot overwrite attribute {name} in class {cls.__name__}")
            setattr(cls, name, method)
    _set_new(cls, "__match_args__", tuple(f.name for f in ordered if f.init))
    if not cls.__doc__:
        cls.__doc__ = f"{cls.__name__}({', '.join(every)})"
    return cls


def _set_new(cls: type, name: str, value: Any) -> None:
    """Set NAME on CLS unless the class defines it itself (a method it wrote is kept)."""
    if name not in cls.__dict__:
        setattr(cls, name, value)


def _with_slots(cls: type, names: tuple[str, ...], frozen: bool) -> type:
    """CLS remade with ``__slots__`` of its fields (those a base class does not already hold)."""
    inherited = set()
    for base in cls.__mro__[1:-1]:
        held = base.__dict__.get("__slots__", ())
        inherited.update((held,) if isinstance(held, str) else held)
    body = dict(cls.__dict__)
    body["__slots__"] = tuple(n for n in names if n not in inherited)
    for name in (*names, "__dict__", "__weakref__"):
        body.pop(name, None)
    made = type(cls)(cls.__name__, cls.__bases__, body)
    made.__qualname__ = cls.__qualname__
    if frozen and "__getstate__" not in body:
        made.__getstate__ = _getstate  # type: ignore[attr-defined]
        made.__setstate__ = _setstate  # type: ignore[attr-defined]
    return made


def _getstate(self: Any) -> list[Any]:
    return [getattr(self, name) for name in getattr(self, _FIELDS)]


def _setstate(self: Any, state: list[Any]) -> None:
    for name, value in zip(getattr(self, _FIELDS), state):
        object.__setattr__(self, name, value)


# ------------------------------------------------------------------ the methods ----


def _init(cls: type, ordered: list[Field], frozen: bool):
    """``__init__`` of the fields ORDERED: positional or keyword arguments for the init fields, then the
    defaults of the others; ``__post_init__()`` last, if the class has one."""
    taken = [f for f in ordered if f.init]
    names = tuple(f.name for f in taken)
    n = len(names)
    specs = tuple((f.name, f.default, f.default_factory) for f in taken)
    rest = tuple((f.name, f.default, f.default_factory) for f in ordered
                 if not f.init and (f.default is not MISSING or f.default_factory is not MISSING))
    post_init = hasattr(cls, "__post_init__")
    qualname = f"{cls.__qualname__}.__init__()"
    assign = object.__setattr__ if frozen else setattr
    required = 1 + sum(1 for f in taken if f.default is MISSING and f.default_factory is MISSING)  # (self)
    takes = f"{n + 1} positional argument{'s' if n else ''}" if required == n + 1 else \
        f"from {required} to {n + 1} positional arguments"  # (as Python words it)

    place = {name: i for i, name in enumerate(names)}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        given = len(args)
        for name in kwargs:  # (the errors in the order Python finds them in a call)
            at = place.get(name)
            if at is None:
                raise TypeError(f"{qualname} got an unexpected keyword argument {name!r}")
            if at < given:
                raise TypeError(f"{qualname} got multiple values for argument {name!r}")
        if given > n:
            raise TypeError(f"{qualname} takes {takes} but {given + 1} were given")
        for name, value in zip(names, args):
            assign(self, name, value)
        if given < n:
            for name, default, factory in specs[given:]:
                if name in kwargs:
                    value = kwargs[name]
                elif default is not MISSING:
                    value = default
                elif factory is not MISSING:
                    value = factory()
                else:
                    missing = [m for m, d, f in specs[given:] if d is MISSING and f is MISSING and m not in kwargs]
                    raise TypeError(f"{qualname} missing {_listed(missing)}")
                assign(self, name, value)
        for name, default, factory in rest:
            assign(self, name, default if default is not MISSING else factory())
        if post_init:
            self.__post_init__()

    __init__.__qualname__ = qualname[:-2]
    return __init__


def _listed(missing: list[str]) -> str:
    """``N required positional argument(s): 'a', 'b', and 'c'``, as Python words it."""
    names = [repr(m) for m in missing]
    if len(names) == 1:
        return f"1 required positional argument: {names[0]}"
    listed = f"{names[0]} and {names[1]}" if len(names) == 2 else f"{', '.join(names[:-1])}, and {names[-1]}"
    return f"{len(names)} required positional arguments: {listed}"


def _repr(shown: tuple[str, ...]):
    def __repr__(self: Any) -> str:
        return f"{self.__class__.__qualname__}({', '.join(f'{n}={getattr(self, n)!r}' for n in shown)})"

    return __repr__


def _eq(compared: tuple[str, ...]):
    def __eq__(self: Any, other: Any) -> Any:
        if other.__class__ is self.__class__:
            return tuple(getattr(self, n) for n in compared) == tuple(getattr(other, n) for n in compared)
        return NotImplemented

    return __eq__


def _hash(compared: tuple[str, ...]):
    def __hash__(self: Any) -> int:
        return hash(tuple(getattr(self, n) for n in compared))

    return __hash__


def _frozen_methods(cls: type, names: frozenset[str]) -> dict[str, Any]:
    """``__setattr__`` and ``__delattr__`` refusing the fields of CLS (and any attribute of an instance
    of CLS itself, as dataclasses does)."""

    def __setattr__(self: Any, name: str, value: Any) -> None:
        if type(self) is cls or name in names:
            raise FrozenInstanceError(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)

    def __delattr__(self: Any, name: str) -> None:
        if type(self) is cls or name in names:
            raise FrozenInstanceError(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)

    return {"__setattr__": __setattr__, "__delattr__": __delattr__}
