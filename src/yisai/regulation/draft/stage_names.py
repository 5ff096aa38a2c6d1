"""Stages an organiser names in his own words: 预选赛 and 本赛, 初赛 and 决赛, 预复赛 and 决赛,
男子初賽 and 男子決賽. A text declares them either in one clause (比赛分为预选赛及本赛两个阶段) or
by giving two of them days in one section (初赛时间:2023年2月25日 / 决赛时间:2023年2月26日;
预复赛于5月28日…决赛于5月30日). One named stage alone (本賽日期 of the event a qualifier selects
for) declares nothing.

A sentence about several stages is cut into segments at each stage word, so a clause's date,
venue, format or clock goes to the stage it names (预选赛定于8月9日至12日在中国棋院进行,本赛时间另行
通知); a stage word followed only by 、和及与 joins the next (初赛、决赛地点:…). Here too: the stage list itself and which stage a phrase names
(``stage_of``), which every stage reader shares."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from yisai.regulation.draft.model import Draft
from yisai.regulation.draft.text import Sentence, simplified

_FULL_WIDTH = {i: i - 0xFEE0 for i in range(0xFF01, 0xFF5F)}

# the stage word → (id, kind); longer words first, so 预复赛 is not read as 复赛
_WORDS: tuple[tuple[str, str, str], ...] = (
    ("预选赛", "qualifier", "regional"),
    ("预复赛", "prelim", "regional"),
    ("总决赛", "final", "final"),
    ("初赛", "prelim", "regional"),
    ("预赛", "prelim", "regional"),
    ("复赛", "semifinal", "semi_final"),
    ("本赛", "main", "main"),
    ("决赛", "final", "final"),
)
_ALIASES = {"预复赛": ("预赛", "复赛")}
"""Words that name the same stage: 预复赛 is the 预赛 and the 复赛 played together."""
WORD = "|".join(w for w, _, _ in _WORDS)
_GENDER = {"男子": "men", "女子": "women"}
_DECLARED = re.compile(rf"(?:^|[,;:。，；：])((?:男子|女子)?(?:组)?(?:{WORD}))(?:比赛)?(?:时间|日期)?(?:定?于|:)"
                       rf"(?:\d{{4}}年)?\d{{1,2}}月")
_PARTS = re.compile(rf"分为?((?:(?:{WORD})(?:及|、|和|与)?){{2,3}})(?:两|三|2|3)个?阶段")


@dataclass(frozen=True)
class Named:
    name: str
    """As the text writes it (男子初賽 keeps its characters)."""
    id: str
    kind: str
    words: tuple[str, ...]
    """What a later sentence says to name it (simplified): 男子初赛, 初赛."""
    rank: str | None = None
    """A stage of the players at or below / at or above a rank (5级及以下组): the rank, and ``side``."""
    side: str | None = None


def key(text: str) -> str:
    """``text`` with full-width forms as ASCII and the domain words simplified, same length (a
    match in it is sliced from ``text``)."""
    return simplified(text.translate(_FULL_WIDTH))


def _named(name: str, original: str) -> Named:
    gender = next((g for g in _GENDER if name.startswith(g)), "")
    bare = name.removeprefix(gender).removeprefix("组")
    _, sid, kind = next(x for x in _WORDS if x[0] == bare)
    words = tuple(dict.fromkeys((name, bare, *_ALIASES.get(bare, ()))))
    return Named(original, f"{_GENDER[gender]}-{sid}" if gender else sid, kind, words)


def declared(sentences: list[Sentence]) -> list[Named]:
    """The stages the text names, in order (two or three), else []."""
    for s in sentences:
        m = _PARTS.search(key(s.text).replace(" ", ""))
        if m:
            names = re.findall(WORD, m.group(1))
            if len(set(names)) >= 2:
                return _unique([_named(n, n) for n in dict.fromkeys(names)])
    by_section: dict[str, list[Named]] = {}
    for s in sentences:
        text = key(s.text)
        for m in _DECLARED.finditer(text):
            found = _named(m.group(1), s.text[m.start(1):m.end(1)])
            group = by_section.setdefault(s.headings[0] if s.headings else "", [])
            if found.words[0] not in (x.words[0] for x in group):
                group.append(found)
    for group in by_section.values():
        if len(group) >= 2:
            return _unique(group)
    return _by_rank(sentences)


_RANK_GROUP = re.compile(r"(?:^|[:：)）,，])((\d{1,2})([段级])(?:及|或)?(以上|以下)组)(?:(?:19|20)\d{2}年)?\d{1,2}月")


def _by_rank(sentences: list[Sentence]) -> list[Named]:
    """``比赛时间:(1)5级及以下组2010年8月22号 (2)4级及以上组2010年8月23、24号``: the players below
    and above a rank play on different days, two stages named by their rank group."""
    found: list[Named] = []
    for s in sentences:
        for m in _RANK_GROUP.finditer(key(s.text)):
            name = s.text[m.start(1):m.end(1)]
            if name not in (n.name for n in found):
                found.append(Named(name, f"{'below' if m.group(4) == '以下' else 'above'}-{m.group(2)}"
                                   f"{'k' if m.group(3) == '级' else 'd'}", "main", (key(name),),
                                   f"{m.group(2)}{m.group(3)}", m.group(4)))
    return found if len(found) >= 2 else []

def _unique(found: list[Named]) -> list[Named]:
    ids: set[str] = set()
    out = []
    for n in found:
        sid, k = n.id, 2
        while sid in ids:
            sid, k = f"{n.id}{k}", k + 1
        ids.add(sid)
        out.append(Named(n.name, sid, n.kind, n.words, n.rank, n.side))
    return out


def mentions(words: dict[int, tuple[str, ...]], text: str) -> list[tuple[int, int, int]]:
    """(start, end, stage) of each stage word in ``text`` (a ``key`` form), in order; 半决赛 is a
    round, not the 决赛, and 预复赛 is not the 复赛 of another stage."""
    hits: list[tuple[int, int, int]] = []
    for i, ws in words.items():
        for w in ws:
            for m in re.finditer(re.escape(w), text):
                before = text[max(m.start() - 1, 0):m.start()]
                if (w.startswith("决赛") and before in ("半", "总")) or (w == "复赛" and before == "预"
                                                                         and "预复赛" not in ws):
                    continue
                hits.append((m.start(), m.end(), i))
    hits.sort(key=lambda h: (h[0], -(h[1] - h[0])))
    out: list[tuple[int, int, int]] = []
    for h in hits:
        if not out or h[0] >= out[-1][1]:
            out.append(h)
    return out


def segments(words: dict[int, tuple[str, ...]], text: str) -> list[tuple[list[int], int, int]]:
    """``text`` cut at each stage word: (the stages it names, start, end); a stage word joined to
    the next by 、和及与 names both. Text before the first stage word is not a segment."""
    found = mentions(words, key(text))
    out: list[tuple[list[int], int, int]] = []
    pending: list[int] = []
    start = 0
    for k, (a, b, i) in enumerate(found):
        if not pending:
            start = a
        pending.append(i)
        end = found[k + 1][0] if k + 1 < len(found) else len(text)
        if re.fullmatch(r"[、和及与,，]?", text[b:end].strip()):
            continue  # 初赛、决赛地点 → both
        out.append((list(dict.fromkeys(pending)), start, end))
        pending = []
    return out


KINDS = (  # (id, kind, words, label)
    ("online", "online_qualifier", ("网络海选", "线上海选"), "网络海选赛"),
    ("regional", "regional", ("分站赛",), "线下分站赛"),
    ("semifinal", "semi_final", ("复赛",), "复赛"),
    ("final", "final", ("总决赛",), "总决赛"),
)


def stages(draft: Draft) -> list[dict[str, Any]]:
    return draft.doc.setdefault("stages", [])


def stage_of(draft: Draft, text: str) -> int | None:
    """The stage a phrase names (线上海选赛 → online), or the only stage."""
    if draft.stage_words:
        hits = mentions(draft.stage_words, key(text))
        return hits[0][2] if hits else None
    for i, st in enumerate(stages(draft)):
        words = next((w for sid, _, w, _ in KINDS if sid == st["id"]), ())
        if any(w in text for w in words):
            return i
    return 0 if len(stages(draft)) == 1 else None


def stage_index(draft: Draft, stage_id: str) -> int | None:
    return next((i for i, st in enumerate(stages(draft)) if st["id"] == stage_id), None)


def pieces(draft: Draft, s: Sentence) -> list[tuple[list[int], str]]:
    """Stages named in the organiser's words: the parts of ``s`` (original text) each about the
    stages it names; a sentence naming none is about all of them, unless it names another
    stage word (本賽日期 of the event a qualifier selects for) — then about none."""
    found = segments(draft.stage_words, s.text)
    if found:
        return [(idxs, s.text[a:b]) for idxs, a, b in found]
    if re.search(WORD, key(s.text)):
        return []
    return [(list(draft.stage_words), s.text)]
