"""A drafted regulation as TOML: every value under a comment quoting the clause it came from,
defaults marked and listed in ``[[open_points]]`` with the director's question, missing required
values named at the top, and the sentences that set nothing listed at the end."""

from __future__ import annotations

import json
from datetime import date, datetime, time
from typing import Any

from yisai.regulation.draft import Draft
from yisai.regulation.draft.model import Path

ORDER = ("schema_version", "id", "name", "year", "website", "events", "disputes", "interpretation",
         "conduct", "issued", "organisers", "rules", "scoring", "ranking", "pairing", "divisions",
         "stages", "teams", "prizes", "rank_awards", "promotions", "fees", "registration", "appeals",
         "officials", "obligations")
MAX_QUOTE = 160
"""Characters of one quoted sentence in a comment."""


def field_name(doc: dict[str, Any], path: Path) -> str:
    """``stages.final.format.split``: list items by their id where they have one."""
    out: list[str] = []
    node: Any = doc
    for key in path:
        try:
            node = node[key]
        except (KeyError, IndexError, TypeError):
            node = None
        if isinstance(key, int):
            out.append(str(node["id"]) if isinstance(node, dict) and "id" in node else str(key))
        else:
            out.append(key)
    return ".".join(out)


def value(v: Any) -> str:
    """One TOML value (inline)."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int | float):
        return repr(v)
    if isinstance(v, datetime):
        return v.replace(tzinfo=None).isoformat()
    if isinstance(v, date | time):
        return v.isoformat()
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False).replace("\x7f", "\\u007f")
    if isinstance(v, list):
        return "[" + ", ".join(value(x) for x in v) + "]"
    if isinstance(v, dict):
        inner = ", ".join(f"{_key(k)} = {value(x)}" for k, x in v.items())
        return "{ " + inner + " }" if inner else "{}"
    raise TypeError(type(v))


def _key(k: str) -> str:
    return k if k.replace("_", "").replace("-", "").isascii() and k.replace("_", "").replace(
        "-", "").isalnum() else json.dumps(k, ensure_ascii=False)


def _scalar(v: Any) -> bool:
    return not isinstance(v, dict | list) or (isinstance(v, list) and all(_scalar(x) for x in v))


def _inline(v: Any) -> bool:
    if _scalar(v):
        return True
    if isinstance(v, dict):
        return len(v) <= 4 and all(_scalar(x) or _inline_dict(x) for x in v.values())
    return all(isinstance(x, dict) and _inline_dict(x) for x in v)


def _inline_dict(v: Any) -> bool:
    return isinstance(v, dict) and len(v) <= 6 and all(
        _scalar(x) or (isinstance(x, list) and all(isinstance(y, dict) and all(_scalar(z) for z in y.values())
                                                   for y in x)) for x in v.values())


class _Writer:
    def __init__(self, draft: Draft) -> None:
        self.d = draft
        self.lines: list[str] = []
        self.defaults = {q.path: q for q in draft.open}

    def comments(self, path: Path) -> None:
        for i in self.d.sources.get(path, []):
            quote = self.d.sentences[i].quote
            if len(quote) > MAX_QUOTE:
                quote = quote[:MAX_QUOTE] + "…"
            self.lines.append(f"# {quote}")
        q = self.defaults.get(path)
        if q is not None and q.said is not None:
            self.lines.append(f"# 默认（规程写了但未能读出，请核对）/ default (stated but not read): {q.question}")
        elif q is not None and q.why:
            self.lines.append(f"# 默认{q.why} / default (a detail or a disagreement to confirm): {q.question}")
        elif q is not None:
            self.lines.append(f"# 默认（规程未写明）/ default (the text does not say): {q.question}")

    def table(self, path: Path, node: dict[str, Any], header: str | None) -> None:
        if header is not None:
            self.lines.append("")
            self.comments(path)
            self.lines.append(header)
        keys = list(node)
        plain = [k for k in keys if _scalar(node[k]) or (path and _inline(node[k]))]
        for k in plain:
            self.comments((*path, k))
            self.lines.append(f"{_key(k)} = {value(node[k])}")
        dotted = ".".join(p for p in path if isinstance(p, str))
        for k in keys:
            if k in plain:
                continue
            name = f"{dotted + '.' if dotted else ''}{_key(k)}"
            if isinstance(node[k], dict):
                self.table((*path, k), node[k], f"[{name}]")
                continue
            self.comments((*path, k))
            for i, item in enumerate(node[k]):
                self.table((*path, k, i), item, f"[[{name}]]")


def to_toml(draft: Draft, source_name: str = "") -> str:
    """The draft as a regulation file."""
    d = draft
    w = _Writer(d)
    w.lines += [
        f"# 规程草稿 / regulation draft — 起草自 {source_name}".rstrip(),
        "# 每个值上方的注释引用它所依据的条款（章节号与原句）；标有「默认」的值规程没有写明，",
        "# 在文末 [[open_points]] 中列出须回答的问题。Comments quote the clause each value comes from;",
        "# values marked 默认/default are not stated and are listed in [[open_points]].",
    ]
    if d.missing:
        w.lines.append("#")
        w.lines.append("# 缺少的必填值 / required values the text does not give (regulation check 会指出):")
        for m in d.missing:
            w.lines.append(f"#   {field_name(d.doc, m.path)}: {m.question}")
    doc = {k: d.doc[k] for k in ORDER if k in d.doc}
    doc.update({k: v for k, v in d.doc.items() if k not in doc})
    w.table((), doc, None)
    seen: set[tuple[str, str, str]] = set()
    points = []
    for q in d.open:
        key = (q.topic, field_name(d.doc, q.path), str(q.said))
        if key in seen:
            continue
        seen.add(key)
        points.append(q)
    if points:
        w.lines += ["", "# 待确认之处（规程未写明，或写了但未能读出）：请逐条回答并修改上面的值 / open points: answer each one"]
    for q in points:
        why = "（规程写了但未能读出，请核对）" if q.said is not None else q.why or "（规程未写明）"
        w.lines += ["[[open_points]]", f"topic = {value(q.topic)}",
                    f"choice = {value('默认 ' + q.default + why)}",
                    f"question = {value(q.question)}", f"field = {value(field_name(d.doc, q.path))}"]
    unused = [s for s in d.sentences if s.index not in d.used]
    if unused:
        w.lines += ["", "# 未用于任何设置的句子 / sentences that set nothing:"]
        w.lines += [f"#   {s.quote[:MAX_QUOTE]}" for s in unused]
    return "\n".join(w.lines).lstrip("\n") + "\n"


def coverage(draft: Draft) -> dict[str, int]:
    """The --report figures: sentences used / not used, fields drafted / defaulted / missing."""
    defaulted = {q.path for q in draft.open if draft.get(q.path) is not None}
    leaves = _leaves(draft.doc, ())
    return {
        "sentences": len(draft.sentences),
        "sentences_used": len(draft.used),
        "sentences_unused": len(draft.sentences) - len(draft.used),
        "fields_drafted": len([p for p in leaves if not any(p[: len(q)] == q for q in defaulted)]),
        "fields_defaulted": len(defaulted),
        "fields_missing": len(draft.missing),
        "open_points": len(draft.open),
    }


def _leaves(node: Any, path: Path) -> list[Path]:
    if isinstance(node, dict):
        return [p for k, v in node.items() for p in _leaves(v, (*path, k))]
    if isinstance(node, list) and node and all(isinstance(x, dict) for x in node):
        return [p for i, v in enumerate(node) for p in _leaves(v, (*path, i))]
    return [path]
