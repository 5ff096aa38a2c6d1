"""Normalised regulation models as flat ``path → value`` maps, list items keyed by their id (or
division, number, who, name), so that two files can be compared field by field (the drafter's
tests and ``yisai bench draft`` compare drafts with the values a director reads this way)."""

from __future__ import annotations

from typing import Any

KEYS = ("id", "division", "number", "who", "name")


def item_key(item: dict[str, Any]) -> str | None:
    """The key a list item is known by in a flat path (``stages[final]``), None when it has none."""
    return next((str(item[k]) for k in KEYS if isinstance(item.get(k), str | int)), None)


def flat(node: Any, path: str = "") -> dict[str, Any]:
    out: dict[str, Any] = {}
    if isinstance(node, dict):
        for k, v in node.items():
            out.update(flat(v, f"{path}.{k}" if path else k))
    elif isinstance(node, list) and node and all(isinstance(x, dict) for x in node):
        for i, v in enumerate(node):
            key = item_key(v)
            out.update(flat(v, f"{path}[{key if key is not None else i}]"))
    else:
        out[path] = node
    return out


def covered(path: str, patterns: dict[str, str]) -> bool:
    """Whether ``path`` is one of ``patterns`` (exact, or a prefix ending in ``.``/``[``)."""
    return any(path == p or (p.endswith((".", "[")) and path.startswith(p)) for p in patterns)
