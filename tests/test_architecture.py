"""The layering (docs/services.md, "Layers, as the test enforces them"), checked on the source:
the pure core (regulation, registry, pairing, standings, awards, game, qualifier, record,
vocabulary, lot, i18n, bursts) imports nothing from the layers around it (store, formats, services,
reach, cli, web, live, bench) — not even inside a function, not by a relative import, not by a
module named in a string — nor a database, web or process library (sqlalchemy, fastapi, gc, os …),
and opens no file; the store and formats import only the core; reach imports neither the store nor
formats; the services import no front end (cli, web, live, bench); front ends never import the
store or sqlalchemy (they catch the services' errors), and only the front ends they may; no two
packages (and no two modules) import each other, directly or round a longer loop; and the live
server's modules reach no private attribute of another module's object.

Every check reads a source tree given as ``root``; ``test_each_planted_violation_fails`` plants
each kind of violation in a copy of the tree and sees the check fail."""

from __future__ import annotations

import ast
import re
import shutil
from functools import cache
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src" / "yisai"
CORE = ("regulation", "registry", "pairing", "standings", "awards", "game", "qualifier", "record", "vocabulary",
        "lot", "i18n", "bursts")  # fmt: skip
OUTER = ("store", "formats", "services", "reach", "cli", "web", "live", "bench")
FRONT = ("cli", "web", "live", "bench")
# What the core never imports: a database, web, terminal or network library, the process's own
# machinery (the cycle collector, the environment, subprocesses) and file handling (the core
# parses text an outer layer read; docs/services.md, "Layers").
CORE_NEVER = ("sqlalchemy", "alembic", "psycopg", "redis", "fastapi", "starlette", "uvicorn", "typer", "click",
              "rich", "httpx", "gc", "os", "io", "shutil", "tempfile", "socket", "subprocess", "sqlite3",
              "urllib", "http")  # fmt: skip
# What a front end never imports: the database library (errors arrive as the services' own).
FRONT_NEVER = ("sqlalchemy", "alembic", "psycopg")
# Calls that open or read a file (``open``, ``Path.read_text`` …): none in the core.
FILE_CALLS = ("open", "read_text", "read_bytes", "write_text", "write_bytes")
_MODULE_STRING = re.compile(r"yisai(\.[A-Za-z_]\w*)+")


def _module_name(path: Path, root: Path = SRC) -> str:
    parts = path.relative_to(root.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@cache
def _modules(root: Path = SRC) -> dict[str, Path]:
    return {_module_name(p, root): p for p in root.rglob("*.py")}


def _absolute(path: Path, level: int, module: str | None, root: Path) -> str:
    """The absolute name of ``from {'.' * level}{module} import …`` written in ``path``."""
    package = _module_name(path, root).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    base = package[: len(package) - (level - 1)] if level > 1 else package
    return ".".join([*base, module] if module else base)


def _imports(path: Path, root: Path = SRC) -> list[tuple[int, str]]:
    """Every module a file imports, at any depth, relative imports made absolute (``from pkg
    import mod`` names the module ``pkg.mod`` when it is one)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom) and (node.module or node.level):
            module = _absolute(path, node.level, node.module, root) if node.level else str(node.module)
            subs = [f"{module}.{a.name}" for a in node.names if f"{module}.{a.name}" in _modules(root)]
            found += [(node.lineno, m) for m in subs] or [(node.lineno, module)]
    return found


def _docstrings(tree: ast.AST) -> set[int]:
    return {id(body[0].value) for node in ast.walk(tree)
            if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
            and (body := node.body) and isinstance(body[0], ast.Expr)
            and isinstance(body[0].value, ast.Constant)}  # fmt: skip


def _string_imports(path: Path, root: Path = SRC) -> list[tuple[int, str]]:
    """Modules named by a string in a file that imports by name (``importlib.import_module`` or
    ``__import__``): every string there that names a module of the tree, outside docstrings
    (``"yisai.store"`` in a table of modules to load, the constant head of an f-string). A
    module named only to start a process (``python -m yisai.cli.app``) is no import."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    if not any(isinstance(n, ast.Name | ast.Attribute) and (n.id if isinstance(n, ast.Name) else n.attr)
               in ("import_module", "__import__") for n in ast.walk(tree)):  # fmt: skip
        return []
    skip = _docstrings(tree)
    found = []
    for node in ast.walk(tree):
        text = None
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip:
            text = node.value
        elif isinstance(node, ast.JoinedStr) and node.values and isinstance(node.values[0], ast.Constant):
            text = str(node.values[0].value).rstrip(".")
        if text and _MODULE_STRING.fullmatch(text) and text in _modules(root):
            found.append((node.lineno, text))
    return found


def _files(*packages: str, root: Path = SRC) -> list[Path]:
    return [p for name in packages
            for p in ((root / name).rglob("*.py") if (root / name).is_dir() else [root / f"{name}.py"])
            if p.exists()]  # fmt: skip


def _wrong(files: list[Path], forbidden: tuple[str, ...], root: Path = SRC) -> list[str]:
    """Imports of a forbidden package of the tree, by statement or by a module named in a string."""
    return [f"{p.relative_to(root)}:{line}: {module}" for p in files
            for line, module in (*_imports(p, root), *_string_imports(p, root))
            if module.split(".")[:2] in ([root.name, o] for o in forbidden)]  # fmt: skip


def _foreign(files: list[Path], forbidden: tuple[str, ...], root: Path = SRC) -> list[str]:
    """Imports of a forbidden library (``sqlalchemy``, ``sqlalchemy.exc``, ``gc`` …)."""
    return [f"{p.relative_to(root)}:{line}: {module}" for p in files for line, module in _imports(p, root)
            if module.split(".")[0] in forbidden]  # fmt: skip


def _file_calls(files: list[Path], root: Path = SRC) -> list[str]:
    """Calls that open or read a file: ``open(…)``, ``x.open(…)``, ``x.read_text(…)`` …"""
    found = []
    for p in files:
        for node in ast.walk(ast.parse(p.read_text(encoding="utf-8"), str(p))):
            if isinstance(node, ast.Call):
                f = node.func
                name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
                if name in FILE_CALLS:
                    found.append(f"{p.relative_to(root)}:{node.lineno}: {ast.unparse(f)}")
    return found


def core_violations(root: Path = SRC) -> list[str]:
    """The core importing an outer layer or a forbidden library, or opening a file."""
    files = _files(*CORE, root=root)
    return _wrong(files, OUTER, root) + _foreign(files, CORE_NEVER, root) + _file_calls(files, root)


def front_end_violations(root: Path = SRC) -> list[str]:
    """A front end importing the store or the database library, or a front end it may not."""
    wrong = [w for front in FRONT
             for w in _wrong(_files(front, root=root), tuple(set(FRONT) - FRONT_MAY_IMPORT[front] - {front}), root)]
    files = _files(*FRONT, root=root)
    return _wrong(files, ("store",), root) + _foreign(files, FRONT_NEVER, root) + wrong  # fmt: skip


def middle_violations(root: Path = SRC) -> list[str]:
    """The store, formats, services and reach out of their rows of docs/services.md's table."""
    return (_wrong(_files("services", "store", "formats", root=root), (*FRONT, "reach"), root)
            + _wrong(_files("store", root=root), ("formats", "services"), root)
            + _wrong(_files("formats", root=root), ("store", "services"), root)
            + _wrong(_files("reach", root=root), ("store", "formats", *FRONT), root))  # fmt: skip


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
    assert core_violations() == []


def test_services_store_and_formats_import_no_front_end() -> None:
    files = _files("services", "store", "formats")
    assert SRC / "services" / "live.py" in files
    assert _wrong(files, FRONT) == []


def test_store_and_formats_import_only_the_core() -> None:
    """Not the services, no front end, not each other (docs/services.md's table); reach (the SMS
    senders, built by the entry points) imports neither the store nor formats."""
    assert SRC / "store" / "live_rows.py" in _files("store")
    assert SRC / "formats" / "h9.py" in _files("formats")
    assert SRC / "reach" / "senders.py" in _files("reach")
    assert middle_violations() == []


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
    """Front ends reach the store through services only (migrations and scratch schemas too),
    and catch the services' errors, never sqlalchemy's."""
    files = _files(*FRONT)
    assert SRC / "cli" / "qualifier.py" in files and SRC / "live" / "bench.py" in files
    assert _wrong(files, ("store",)) == []
    assert _foreign(files, FRONT_NEVER) == []


def test_front_ends_import_only_the_front_ends_they_may() -> None:
    assert set(FRONT_MAY_IMPORT) == set(FRONT)
    assert front_end_violations() == []


def test_the_import_checks_can_fail() -> None:
    """The checks above read real imports: a store import inside a function is found."""
    sample = SRC / "cli" / "qualifier.py"
    assert any(m.startswith("yisai.services.maintenance") for _, m in _imports(sample))
    assert _wrong([SRC / "services" / "maintenance.py"], ("store",)) != []


# One planted file per violation of issue 42 item 8: (where, its source, the check that must fail).
PLANTED: dict[str, tuple[str, str, str]] = {
    "relative store import in the core": ("standings/planted.py", "from ..store import roster_rows\n", "core"),
    "relative import of a sibling outer module": ("regulation/planted.py", "from ..services import errors\n", "core"),
    "sqlalchemy in the core": ("pairing/planted.py", "import sqlalchemy\n", "core"),
    "sqlalchemy inside a core function": ("game/planted.py", "def f():\n    from sqlalchemy.orm import Session\n", "core"),
    "the collector switched off by the core": ("standings/planted.py", "import gc\n\ngc.disable()\n", "core"),
    "the core opening a file": ("regulation/planted.py", "def f(p):\n    return open(p).read()\n", "core"),
    "the core reading a path": ("regulation/planted.py", "def f(p):\n    return p.read_text()\n", "core"),
    "the core reading bytes": ("registry/planted.py", "def f(p):\n    return p.read_bytes()\n", "core"),
    "the core importing the store by a string":
        ("awards/planted.py", "import importlib\n\nimportlib.import_module('yisai.store')\n", "core"),
    "reach importing the store": ("reach/planted.py", "from yisai.store import roster_rows\n", "middle"),
    "reach importing the store relatively": ("reach/planted.py", "from ..store import errors\n", "middle"),
    "the CLI importing the store by a string":
        ("cli/planted.py", "import importlib\n\nPRELOAD = ('yisai.store',)\n"
                           "for name in PRELOAD:\n    importlib.import_module(name)\n", "front"),
    "the CLI importing the store by __import__": ("cli/planted.py", "__import__('yisai.store.database')\n", "front"),
    "the CLI importing a store module by an f-string":
        ("cli/planted.py", "import importlib\n\ndef f(m):\n    return importlib.import_module(f'yisai.store.{m}')\n",
         "front"),
    "the CLI catching sqlalchemy.exc":
        ("cli/planted.py", "def f(g):\n    from sqlalchemy.exc import SQLAlchemyError\n\n    try:\n        g()\n"
                           "    except SQLAlchemyError:\n        pass\n", "front"),
    "the web importing sqlalchemy": ("web/planted.py", "import sqlalchemy.exc\n", "front"),
    "the store importing the services relatively": ("store/planted.py", "from ..services import errors\n", "middle"),
}  # fmt: skip

CHECKS = {"core": core_violations, "front": front_end_violations, "middle": middle_violations}


@pytest.fixture(scope="module")
def tree_copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the source tree (the same package name, so its modules are ``yisai.…``)."""
    root = tmp_path_factory.mktemp("tree") / "yisai"
    shutil.copytree(SRC, root, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    return root


@pytest.mark.parametrize("name", sorted(PLANTED))
def test_each_planted_violation_fails(name: str, tree_copy: Path) -> None:
    """The copy passes every check; with the violation planted, its check names the file."""
    where, source, check = PLANTED[name]
    target = tree_copy / where
    assert CHECKS[check](tree_copy) == []
    target.write_text(source, encoding="utf-8")
    try:
        _modules.cache_clear()
        found = CHECKS[check](tree_copy)
    finally:
        target.unlink()
        _modules.cache_clear()
    assert found and all(w.startswith(where) for w in found), found


def test_the_string_check_reads_only_module_names() -> None:
    """A docstring or a word that merely starts with the package's name is no import."""
    modules = _modules()
    assert "yisai.store" in modules and "yisai.sqlite" not in modules
    assert any(m == "yisai.services.maintenance" for _, m in _string_imports(SRC / "cli" / "resident.py"))
    assert _string_imports(SRC / "bench" / "web.py") == []  # names yisai.cli.app to start a server process
