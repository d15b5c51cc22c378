"""The package's imports run one way: no module imports, directly or round a circle, one that imports it.

Every import counts, wherever it stands (at the top, inside a function, under `if TYPE_CHECKING:`): a
circle hidden in a function is still a circle in the design."""
from __future__ import annotations

import ast
from pathlib import Path

import ombre_rules

ROOT = Path(ombre_rules.__file__).parent


def module_names(root: Path = ROOT) -> dict[str, Path]:
    """Dotted name -> file, for every module of the package (a package's face is its `__init__.py`)."""
    out = {}
    for path in sorted(root.rglob("*.py")):
        parts = list(path.relative_to(root.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def imports_of(name: str, path: Path, known: set[str]) -> set[str]:
    """The package's modules that the module `name` (in `path`) imports anywhere in its text."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")
                up = up[:len(up) - node.level + 1]
                base = ".".join(up + ([node.module] if node.module else []))
            # `from X import y`: the module X.y when there is one, else (a name defined in X) X itself
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in known else base for a in node.names]
        else:
            continue
        for t in targets:
            while t and t not in known:  # `import a.b.c` of a name inside a module: the module
                t = t.rpartition(".")[0]
            if t and t != name:
                out.add(t)
    return out


def import_graph(root: Path = ROOT) -> dict[str, set[str]]:
    mods = module_names(root)
    known = set(mods)
    return {name: imports_of(name, path, known) for name, path in mods.items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One circle (first module repeated at the end) for each group of modules that import each other."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def strongconnect(v: str) -> None:  # Tarjan's strongly connected components
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                strongconnect(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            strongconnect(v)
    return [_circle(graph, set(g)) for g in groups]


def _circle(graph: dict[str, set[str]], group: set[str]) -> list[str]:
    """A shortest circle through the group's first module, staying inside the group."""
    start = min(group)
    paths = {start: [start]}
    todo = [start]
    while todo:
        v = todo.pop(0)
        for w in sorted(graph[v] & group):
            if w == start:
                return paths[v] + [start]
            if w not in paths:
                paths[w] = paths[v] + [w]
                todo.append(w)
    raise AssertionError(f"no circle through {start}")


def test_no_import_cycles():
    graph = import_graph()
    found = cycles(graph)
    assert not found, "import circles:\n" + "\n".join(" -> ".join(c) for c in found)


# the layers of the design, low to high: a module imports only from its own layer and the ones below
LAYERS = [
    ("errors", "resources", "cards", "checks", "outfile", "infile", "kernel"),
    ("spec",),
    ("lang",),
    ("envs", "ruleset", "explain"),  # envs: what expressions see, for the ruleset's tables and the engine's deals
    ("engine",),
    ("bots", "players", "records", "checking", "log", "scenario", "session", "bench", "book", "obs", "openspiel",
     "openspiel_text", "pettingzoo", "solve", "obs_session"),
    ("sim", "analysis"),
    ("cli", "book_cli", "tty", "messages", "__main__", "", "web"),
]
# the one arrow upwards: `pile(seat)` in an expression reads the piles of the engine (a module without imports)
UPWARD = {("ombre_rules.envs", "ombre_rules.engine.piles")}


def layer(module: str) -> int:
    first = module.split(".")[1] if "." in module else ""
    found = next((i for i, names in enumerate(LAYERS) if first in names), None)
    assert found is not None, f"{module} is in no layer: add it to LAYERS"
    return found


def test_imports_run_down_the_layers():
    graph = import_graph()
    up = sorted(f"{m} -> {t}" for m, targets in graph.items() for t in targets
                if layer(t) > layer(m) and (m, t) not in UPWARD)
    assert not up, "imports from a higher layer:\n" + "\n".join(up)
    assert all(t in graph[m] for m, t in UPWARD), "an allowed upward import is gone: drop it from UPWARD"


def test_the_graph_sees_every_kind_of_import():
    graph = import_graph()
    assert "ombre_rules.ruleset" in graph["ombre_rules.engine.state"]  # from ..ruleset import …
    assert "ombre_rules.engine.view" in graph["ombre_rules.engine.state"]  # inside a method
    assert "ombre_rules.ruleset.base" in graph["ombre_rules.ruleset.settlement"]  # under TYPE_CHECKING
    assert "ombre_rules.sim.speed" in graph["ombre_rules.cli"]  # from .sim import speed
    assert "ombre_rules.bench" in graph["ombre_rules.cli"]  # from . import bench as bench_mod
    assert "ombre_rules.engine" in graph["ombre_rules"]  # from .engine import State: the package's face


def test_cycles_are_found_and_shown():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set(), "e": {"e2"}, "e2": {"e"}}
    assert cycles(graph) == [["a", "b", "c", "a"], ["e", "e2", "e"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_relative_imports_resolve(tmp_path):
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("from .sub import mod\n")
    (pkg / "top.py").write_text("")
    (pkg / "sub" / "__init__.py").write_text("")
    (pkg / "sub" / "mod.py").write_text("def f():\n    from ..top import x\n    from . import other\n")
    (pkg / "sub" / "other.py").write_text("import pkg.sub.mod\n")
    assert import_graph(pkg) == {"pkg": {"pkg.sub.mod"}, "pkg.top": set(), "pkg.sub": set(),
                                 "pkg.sub.mod": {"pkg.top", "pkg.sub.other"}, "pkg.sub.other": {"pkg.sub.mod"}}
    assert cycles(import_graph(pkg)) == [["pkg.sub.mod", "pkg.sub.other", "pkg.sub.mod"]]
