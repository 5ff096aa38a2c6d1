"""Small readers every topic module shares."""

from __future__ import annotations

import re
from collections.abc import Iterator

from yisai.regulation.draft.model import Draft
from yisai.regulation.draft.text import Sentence


def find(draft: Draft, pattern: str, *, under: tuple[str, ...] = ()) -> Iterator[tuple[Sentence, re.Match[str]]]:
    """Sentences whose normalised text matches ``pattern`` (optionally only under headings
    mentioning one of ``under``), with the match."""
    rx = re.compile(pattern)
    for s in draft.sentences:
        if under and not s.under(*under):
            continue
        m = rx.search(s.norm)
        if m:
            yield s, m


def first(draft: Draft, pattern: str, *, under: tuple[str, ...] = ()) -> tuple[Sentence, re.Match[str]] | None:
    return next(find(draft, pattern, under=under), None)


def clause(s: Sentence) -> str:
    """The sentence as a value: its text without the final 。 (and a leading 说明/注)."""
    return s.text.rstrip("。；;，, \ufffd").strip()


def items(text: str) -> list[str]:
    """``奖牌、荣誉证书和奖金`` → the items (split on 、 和 及 与 , outside brackets)."""
    out, depth, cur = [], 0, ""
    for ch in text:
        if ch in "（(《“":
            depth += 1
        elif ch in "）)》”":
            depth = max(depth - 1, 0)
        if depth == 0 and ch in "、,，和及与":
            if cur.strip():
                out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


def after_colon(s: Sentence) -> str:
    parts = re.split(r"[：:]", s.text, maxsplit=1)
    return parts[1].strip() if len(parts) == 2 else s.text


def under_heading(draft: Draft, level_title: str) -> list[Sentence]:
    """The sentences under the first top-level heading whose title mentions ``level_title``
    (the heading line itself excluded)."""
    out = []
    for s in draft.sentences:
        if s.headings and level_title in s.headings[0]:
            out.append(s)
    return out
