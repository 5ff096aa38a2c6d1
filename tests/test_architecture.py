"""DESIGN.md's layering, checked on the source: the pure core (regulation, registry, pairing,
standings, awards, game, record, vocabulary, i18n) imports nothing from the layers around it
(store, formats, services, cli, web, live, bench) — not even inside a function."""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "yisai"
CORE = ("regulation", "registry", "pairing", "standings", "awards", "game", "record", "vocabulary", "i18n")
OUTER = ("store", "formats", "services", "cli", "web", "live", "bench")


def _imports(path: Path) -> list[tuple[int, str]]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append((node.lineno, node.module))
    return found


def test_the_core_imports_no_outer_layer() -> None:
    files = [p for name in CORE for p in ((SRC / name).rglob("*.py") if (SRC / name).is_dir() else [SRC / f"{name}.py"])]
    assert len(files) > 50
    wrong = [f"{p.relative_to(SRC)}:{line}: {module}" for p in files for line, module in _imports(p)
             if module.split(".")[:2] in (["yisai", o] for o in OUTER)]  # fmt: skip
    assert wrong == []


def test_services_store_and_formats_import_no_front_end() -> None:
    inner = ("services", "store", "formats")
    front = ("cli", "web", "bench")
    files = [p for name in inner for p in (SRC / name).rglob("*.py")]
    wrong = [f"{p.relative_to(SRC)}:{line}: {module}" for p in files for line, module in _imports(p)
             if module.split(".")[:2] in (["yisai", o] for o in front)]  # fmt: skip
    assert wrong == []
