"""The layering (docs/services.md, "Layers, as the test enforces them"), checked on the source:
the pure core (regulation, registry, pairing, standings, awards, game, qualifier, record,
vocabulary, lot, i18n) imports nothing from the layers around it (store, formats, services, reach,
cli, web, live, bench) — not even inside a function; the store and formats import only the core; the
services import no front end (cli, web, live, bench); front ends never import the store and
only the front ends they may; no two packages (and no two modules) import each other, directly
or round a longer loop; and the live server's modules reach no private attribute of another
module's object."""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "yisai"
CORE = ("regulation", "registry", "pairing", "standings", "awards", "game", "qualifier", "record", "vocabulary",
        "lot", "i18n")  # fmt: skip
OUTER = ("store", "formats", "services", "reach", "cli", "web", "live", "bench")
FRONT = ("cli", "web", "live", "bench")


def _module_name(path: Path) -> str:
    parts = path.relative_to(SRC.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@cache
def _modules() -> dict[str, Path]:
    return {_module_name(p): p for p in SRC.rglob("*.py")}


def _imports(path: Path) -> list[tuple[int, str]]:
    """Every ``yisai`` module a file imports, at any depth (``from pkg import mod`` names the
    module ``pkg.mod`` when it is one)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            subs = [f"{node.module}.{a.name}" for a in node.names if f"{node.module}.{a.name}" in _modules()]
            found += [(node.lineno, m) for m in subs] or [(node.lineno, node.module)]
    return found


def _files(*packages: str) -> list[Path]:
    return [p for name in packages
            for p in ((SRC / name).rglob("*.py") if (SRC / name).is_dir() else [SRC / f"{name}.py"])]  # fmt: skip


def _wrong(files: list[Path], forbidden: tuple[str, ...]) -> list[str]:
    return [f"{p.relative_to(SRC)}:{line}: {module}" for p in files for line, module in _imports(p)
            if module.split(".")[:2] in (["yisai", o] for o in forbidden)]  # fmt: skip


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one node (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph.get(root, ()))))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, edges = work[-1]
            nxt = next(edges, None)
            if nxt is not None:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(graph.get(nxt, ())))))
                elif nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_the_core_imports_no_outer_layer() -> None:
    files = _files(*CORE)
    assert len(files) > 60
    assert SRC / "qualifier" / "session.py" in files
    assert _wrong(files, OUTER) == []


def test_services_store_and_formats_import_no_front_end() -> None:
    files = _files("services", "store", "formats")
    assert SRC / "services" / "live.py" in files
    assert _wrong(files, FRONT) == []


def test_store_and_formats_import_only_the_core() -> None:
    """Not the services, no front end, not each other (docs/services.md's table)."""
    assert SRC / "store" / "live_rows.py" in _files("store")
    assert SRC / "formats" / "h9.py" in _files("formats")
    assert _wrong(_files("store"), ("formats", "services", *FRONT)) == []
    assert _wrong(_files("formats"), ("store", "services", *FRONT)) == []


def test_every_package_is_in_a_layer() -> None:
    """A new package must be placed (core or outer), or the two checks above would skip it."""
    packages = {p.name for p in SRC.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    packages |= {p.stem for p in SRC.glob("*.py") if p.stem != "__init__"}
    assert packages - set(CORE) - set(OUTER) == set()


def test_no_cycle_between_packages() -> None:
    graph: dict[str, set[str]] = {}
    for name, path in _modules().items():
        here = name.split(".")[1] if "." in name else name
        for _, module in _imports(path):
            there = module.split(".")
            if there[0] == "yisai" and len(there) > 1 and there[1] != here:
                graph.setdefault(here, set()).add(there[1])
    assert "live" in graph and "qualifier" in graph["live"]
    assert _cycles(graph) == []


def test_no_cycle_between_modules() -> None:
    modules = _modules()
    graph = {name: {m for _, m in _imports(path) if m in modules and m != name} for name, path in modules.items()}
    assert _cycles(graph) == []


def test_the_cycle_finder_finds_a_loop() -> None:
    """The two checks above can fail: a loop of three and a pair are found, a chain is not."""
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": {"a"}}) == [["a", "b"]]
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": set()}) == []


def _private_reaches(label: str, source: str) -> list[str]:
    """``x._name`` where ``x`` is not ``self``/``cls`` and ``_name`` is not one of this module's
    own (a ``self._name``, a ``def _name`` or a ``_name = …`` here): a private attribute of an
    object from another module."""
    tree = ast.parse(source, label)
    own: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            own.add(node.name)
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"):
            own.add(node.attr)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            own.add(node.id)
    return [f"{label}:{node.lineno}: {ast.unparse(node)}" for node in ast.walk(tree)
            if isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__")
            and node.attr not in own
            and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"))]  # fmt: skip


def test_the_live_server_reaches_no_private_attribute() -> None:
    files = _files("live", "qualifier")
    assert SRC / "live" / "server.py" in files
    assert [w for p in files for w in _private_reaches(str(p.relative_to(SRC)), p.read_text(encoding="utf-8"))] == []


def test_the_private_check_can_fail() -> None:
    sample = ("class G:\n    def __init__(self):\n        self._due = 1\n\n"
              "def f(hub, game):\n    return hub._lock, game._due, other._x, hub.__class__\n")
    assert _private_reaches("x.py", sample) == ["x.py:6: hub._lock", "x.py:6: other._x"]


# Which front end may import which (docs/services.md, "Layers"): the command line launches the
# others (`yisai serve`, `yisai bench`); the web app mounts the live server's sockets; the
# benchmarks drive the servers as separate processes and import no other front end.
FRONT_MAY_IMPORT: dict[str, set[str]] = {
    "cli": {"web", "live", "bench"},
    "web": {"live"},
    "live": set(),
    "bench": set(),
}


def test_front_ends_never_import_the_store() -> None:
    """Front ends reach the store through services only (migrations and scratch schemas too)."""
    files = _files(*FRONT)
    assert SRC / "cli" / "qualifier.py" in files and SRC / "live" / "bench.py" in files
    assert _wrong(files, ("store",)) == []


def test_front_ends_import_only_the_front_ends_they_may() -> None:
    assert set(FRONT_MAY_IMPORT) == set(FRONT)
    wrong = [w for front in FRONT
             for w in _wrong(_files(front), tuple(set(FRONT) - FRONT_MAY_IMPORT[front] - {front}))]  # fmt: skip
    assert wrong == []


def test_the_import_checks_can_fail() -> None:
    """The checks above read real imports: a store import inside a function is found."""
    sample = SRC / "cli" / "qualifier.py"
    assert any(m.startswith("yisai.services.maintenance") for _, m in _imports(sample))
    assert _wrong([SRC / "services" / "maintenance.py"], ("store",)) != []
