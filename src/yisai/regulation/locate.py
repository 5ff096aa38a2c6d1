"""Map a field path such as ``divisions.2.eligibility.born_from`` to its line in a TOML text.

tomllib reports no positions, so we scan the text once and record where each key, table header
and inline-table array item starts. The scanner understands the TOML our files use (tables,
arrays of tables, dotted keys, multi-line arrays of inline tables); for anything it cannot place
it falls back to the nearest ancestor it could.
"""

from __future__ import annotations

import re

Path = tuple[str | int, ...]

_HEADER = re.compile(r"^\s*(\[\[?)\s*([^\]]+?)\s*\]\]?\s*(?:#.*)?$")
_KEY = re.compile(r"""^\s*((?:"[^"]*"|'[^']*'|[A-Za-z0-9_\-]+)(?:\s*\.\s*(?:"[^"]*"|'[^']*'|[A-Za-z0-9_\-]+))*)\s*=""")
_INLINE_KEY = re.compile(r"""(?:^|[{,])\s*("[^"]*"|[A-Za-z0-9_\-]+)\s*=""")


def _split_key(dotted: str) -> list[str]:
    parts = re.findall(r'"([^"]*)"|\'([^\']*)\'|([A-Za-z0-9_\-]+)', dotted)
    return [a or b or c for a, b, c in parts]


def key_lines(text: str) -> dict[Path, int]:
    """Every located path → 1-based line number."""
    lines: dict[Path, int] = {}
    array_counts: dict[tuple[str, ...], int] = {}
    table: Path = ()
    open_array: Path | None = None  # path of a multi-line array value being read
    item_index = -1
    depth = 0
    for number, raw in enumerate(text.splitlines(), start=1):
        line = _strip_comment(raw)
        if open_array is not None:
            item_index = _scan_array_line(line, open_array, item_index, number, lines)
            depth += line.count("[") - line.count("]")
            if depth <= 0:
                open_array = None
            continue
        header = _HEADER.match(line)
        if header:
            names = _split_key(header.group(2))
            if header.group(1) == "[[":
                key = tuple(names)
                index = array_counts.get(key, -1) + 1
                array_counts[key] = index
                # Reset counts of nested arrays below this new item.
                for k in [k for k in array_counts if len(k) > len(key) and k[: len(key)] == key]:
                    del array_counts[k]
                table = (*_resolve(names[:-1], array_counts), names[-1], index)
            else:
                table = _resolve(names, array_counts)
            lines.setdefault(table, number)
            lines.setdefault(table[:-1] if isinstance(table[-1], int) else table, number)
            continue
        found = _KEY.match(line)
        if found:
            path = (*table, *_split_key(found.group(1)))
            lines.setdefault(path, number)
            value = line[found.end():]
            if value.strip().startswith("[") and value.count("[") > value.count("]"):
                open_array, item_index = path, -1
                depth = value.count("[") - value.count("]")
                item_index = _scan_array_line(value.strip()[1:], open_array, item_index, number, lines)
            elif value.strip().startswith("["):
                _scan_array_line(value.strip()[1:], path, -1, number, lines)
            elif value.strip().startswith("{"):
                for m in _INLINE_KEY.finditer(value):
                    lines.setdefault((*path, m.group(1).strip('"')), number)
    return lines


def _resolve(names: list[str], counts: dict[tuple[str, ...], int]) -> Path:
    """Insert the current index after each prefix that is an array of tables."""
    out: list[str | int] = []
    for i, name in enumerate(names):
        out.append(name)
        prefix = tuple(names[: i + 1])
        if prefix in counts:
            out.append(counts[prefix])
    return tuple(out)


def _scan_array_line(line: str, path: Path, index: int, number: int, lines: dict[Path, int]) -> int:
    stripped = line.strip()
    if not stripped or stripped in ("]", "],"):
        return index
    if "{" in stripped:
        items = stripped.count("{")
    else:
        content = stripped.split("]")[0]
        items = len([x for x in content.split(",") if x.strip()])
    for _ in range(items):
        index += 1
        lines.setdefault((*path, index), number)
    for m in _INLINE_KEY.finditer(stripped):
        lines.setdefault((*path, index, m.group(1).strip('"')), number)
    return index


def _strip_comment(line: str) -> str:
    out, quote = [], ""
    for ch in line:
        if quote:
            if ch == quote:
                quote = ""
        elif ch in "\"'":
            quote = ch
        elif ch == "#":
            break
        out.append(ch)
    return "".join(out)


def line_of(lines: dict[Path, int], path: Path) -> int:
    """The line of ``path`` or of its nearest located ancestor (1 if nothing is known)."""
    for cut in range(len(path), -1, -1):
        found = lines.get(tuple(path[:cut]))
        if found is not None:
            return found
    return 1
