"""Normalised regulation models as flat ``path → value`` maps, list items keyed by their id (or
division, number, who, name) so that two files can be compared field by field."""

from __future__ import annotations

import json
from typing import Any

from typer.testing import CliRunner

from yisai.cli.app import app

KEYS = ("id", "division", "number", "who", "name")


def flat(node: Any, path: str = "") -> dict[str, Any]:
    out: dict[str, Any] = {}
    if isinstance(node, dict):
        for k, v in node.items():
            out.update(flat(v, f"{path}.{k}" if path else k))
    elif isinstance(node, list) and node and all(isinstance(x, dict) for x in node):
        for i, v in enumerate(node):
            key = next((str(v[k]) for k in KEYS if isinstance(v.get(k), str | int)), str(i))
            out.update(flat(v, f"{path}[{key}]"))
    else:
        out[path] = node
    return out


def shown(path: str) -> dict[str, Any]:
    """``yisai regulation show FILE --format json``, flattened."""
    result = CliRunner().invoke(app, ["regulation", "show", path, "--format", "json"])
    assert result.exit_code == 0, result.output
    return flat(json.loads(result.stdout))


def covered(path: str, patterns: dict[str, str]) -> bool:
    """Whether ``path`` is one of ``patterns`` (exact, or a prefix ending in ``.``/``[``)."""
    return any(path == p or (p.endswith((".", "[")) and path.startswith(p)) for p in patterns)
