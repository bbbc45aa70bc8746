"""The package's layout rules (README "Development", docs/adding-a-measure.md), read from the code:

- no import cycle between modules, counting imports made inside functions (an import inside a
  function is for start-up time only, never to break a cycle);
- no module of the package imports the package face (``inexeval/__init__.py``, which loads the
  Python API lazily): ``__version__`` comes from ``inexeval/_version.py``;
- no comparison of a task, strategy or unit name outside the tables that hold those facts
  (``tasks.py``, ``inputs.py``): code reads a row's declaration instead;
- the drop-ins' fast path (``inexeval/dropins/``, ``inexeval/launch.py``) imports no click.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "inexeval"


def _module_name(path: Path) -> str:
    rel = path.relative_to(PACKAGE.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {_module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _is_type_checking(node: ast.If) -> bool:
    t = node.test
    return (isinstance(t, ast.Name) and t.id == "TYPE_CHECKING") or \
        (isinstance(t, ast.Attribute) and t.attr == "TYPE_CHECKING")


def _imports(path: Path, name: str) -> list[tuple[str, int]]:
    """(module imported, line) for every import of PATH inside the package, at any depth, but those
    only made for type checkers (``if TYPE_CHECKING:``)."""
    tree = ast.parse(path.read_text(), str(path))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: list[tuple[str, int]] = []

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _is_type_checking(node):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name == "inexeval" or alias.name.startswith("inexeval."):
                    found.append((_existing(alias.name), node.lineno))
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                up = parts[: len(parts) - (node.level - 1)]
                base = ".".join(up + ([base] if base else []))
            if base == "inexeval" or base.startswith("inexeval."):
                for alias in node.names:
                    sub = f"{base}.{alias.name}"
                    found.append((sub if sub in MODULES else _existing(base), node.lineno))
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return found


def _existing(name: str) -> str:
    while name not in MODULES and "." in name:
        name = name.rpartition(".")[0]
    return name


GRAPH = {name: _imports(path, name) for name, path in MODULES.items()}


def _cycles() -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan), or a module importing itself."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []
    counter = [0]

    def strong(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w, _ in GRAPH.get(v, ()):
            if w == v or w not in MODULES:
                continue
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    import sys

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10000))
    try:
        for v in MODULES:
            if v not in index:
                strong(v)
    finally:
        sys.setrecursionlimit(limit)
    return out


def test_no_import_cycle():
    cycles = _cycles()
    described = []
    for comp in cycles:
        edges = [f"{a} -> {b} (line {line})" for a in comp for b, line in GRAPH[a] if b in comp and b != a]
        described.append(", ".join(comp) + ":\n    " + "\n    ".join(edges))
    assert not cycles, "import cycles:\n" + "\n".join(described)


def test_no_module_imports_the_package_face():
    bad = [f"{name} (line {line})" for name, imports in GRAPH.items() if name != "inexeval"
           for target, line in imports if target == "inexeval"]
    assert not bad, "modules importing inexeval/__init__.py (take __version__ from inexeval._version): " + \
        ", ".join(bad)


#: The modules that hold the task and unit tables, where those names are compared by design.
TABLES = {"inexeval.tasks", "inexeval.inputs"}
_NAME_WORDS = ("unit", "task", "strategy")


def _names_of_tables() -> set[str]:
    from inexeval.inputs import UNITS
    from inexeval.tasks import TASKS

    names = set(UNITS)
    for t in TASKS.values():
        names |= {t.name, t.strategy, *t.aliases}
    return names


def test_no_task_or_unit_name_is_compared_outside_the_tables():
    names = _names_of_tables()
    bad = []
    for name, path in MODULES.items():
        if name in TABLES:
            continue
        tree = ast.parse(path.read_text(), str(path))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Compare):
                continue
            sides = [node.left, *node.comparators]
            consts = []
            for s in sides:
                if isinstance(s, ast.Constant) and isinstance(s.value, str):
                    consts.append(s.value)
                elif isinstance(s, (ast.Tuple, ast.List, ast.Set)):
                    consts += [e.value for e in s.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
            others = [ast.unparse(s) for s in sides if not isinstance(s, (ast.Constant, ast.Tuple, ast.List, ast.Set))]
            if any(c in names for c in consts) and any(w in o.lower() for o in others for w in _NAME_WORDS):
                bad.append(f"{path.relative_to(PACKAGE.parent)}:{node.lineno}: {ast.unparse(node)}")
    assert not bad, "task or unit names compared outside tasks.py/inputs.py:\n" + "\n".join(bad)


@pytest.mark.parametrize("module", sorted(n for n in MODULES if n.startswith("inexeval.dropins") or n == "inexeval.launch"))
def test_the_drop_ins_fast_path_does_not_import_click(module):
    seen, todo = set(), [module]
    while todo:
        m = todo.pop()
        if m in seen:
            continue
        seen.add(m)
        path = MODULES[m]
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Import) and any(a.name == "click" or a.name.startswith("click.") for a in node.names):
                if m != "inexeval.launch":
                    pytest.fail(f"{m} imports click")
        todo += [t for t, _ in GRAPH[m] if t.startswith("inexeval.dropins") or t == "inexeval.launch"]


@pytest.mark.parametrize("module, name", [
    ("inexeval", "evaluate"), ("inexeval", "measures"), ("inexeval", "Results"), ("inexeval", "__version__"),
    ("inexeval.cli", "main"), ("inexeval.config", "load_config"), ("inexeval.config", "load_config_mapping"),
    ("inexeval.qa", "marking"), ("inexeval.trec", "evaluate_trec"), ("inexeval.trec", "format_trec_eval"),
    ("inexeval.validate", "validate_runs"),
])
def test_the_public_names_stay_importable(module, name):
    import importlib

    assert getattr(importlib.import_module(module), name) is not None
