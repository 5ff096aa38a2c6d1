"""升段/升级: per division, ``7局胜6局及以上者升一段`` (wins out of rounds → steps up), 全胜,
``最高升至业余5段``."""

from __future__ import annotations

import re
from typing import Any

from yisai.regulation.draft import divisions as divs
from yisai.regulation.draft.model import Draft
from yisai.regulation.draft.numbers import NUM, to_int

_STEP = re.compile(rf"({NUM})局(?:胜({NUM})局(?:及以上|以上)?|全胜)者?升({NUM})([段级])")
_WINS = re.compile(rf"((?:{NUM}胜、?)+)(定|升)({NUM})([段级])")
"""``4胜定8级`` / ``2胜、1胜定10级`` / ``2胜升1级``: wins (of the rounds the sentence states) → a rank
(定) or steps up (升)."""


def read(draft: Draft) -> None:
    rules: list[dict[str, Any]] = []
    for s in draft.sentences:
        if not s.under("升段", "升级", "定级") or not _STEP.search(s.norm):
            continue
        named = divs.named_in(draft, s.norm.split(":")[0])
        if not named:
            continue
        j = named[0]
        steps: dict[int, int] = {}
        rounds = None
        unit = "段"
        for m in _STEP.finditer(s.norm):
            rounds = to_int(m.group(1))
            wins = to_int(m.group(2)) if m.group(2) else rounds
            promote = to_int(m.group(3))
            if wins is None or promote is None or promote < 1:
                continue
            steps.setdefault(wins, promote)
            unit = m.group(4)
        if not steps:
            continue
        rule: dict[str, Any] = {"division": divs.divisions(draft)[j]["id"], "name": f"升{unit}",
                                "steps": [{"wins": w, "promote": p} for w, p in sorted(steps.items(), reverse=True)]}
        if rounds:
            rule["rounds"] = rounds
        top = re.search(rf"最高升至(?:业余)?({NUM})([段级])", s.norm)
        if top:
            rule["highest"] = f"{to_int(top.group(1))}{top.group(2)}"
        draft.put(("promotions", len(rules)), rule, s)
        rules.append(rule)
    _by_wins(draft, rules)
    if rules:
        draft.ask(("promotions",), "升段的弃权与轮空",
                  "对方弃权的胜局、轮空是否计入胜局数？须参加全部轮次吗？ / Do forfeits and byes count as wins?",
                  "不计入；须参加全部轮次", why="（规程已有规定，此细节请确认）")


def _by_wins(draft: Draft, rules: list[dict[str, Any]]) -> None:
    """``无级组:4胜定8级,3胜定9级;2胜、1胜定10级;(共5轮)``: one rule per division line, steps in
    the text's order; a line that also grants by share (取30%定1段, 升段比例) is left to the
    open points, since a rule read in part would grant wrongly."""
    for s in draft.sentences:
        if not s.under("升段", "升级", "定级") or not _WINS.search(s.norm) or re.search(r"%|比例", s.norm):
            continue
        head = re.match(r"^([^:]{1,12}):", s.norm)
        named = divs.named_in(draft, head.group(1).replace(" ", "")) if head else []
        if len(named) != 1 or any(r["division"] == divs.divisions(draft)[named[0]]["id"] for r in rules):
            continue
        steps: list[dict[str, Any]] = []
        fixed = False
        for m in _WINS.finditer(s.norm):
            n = to_int(m.group(3))
            if n is None:
                continue
            for w in re.findall(rf"({NUM})胜", m.group(1)):
                wins = to_int(w)
                if wins is None:
                    continue
                if m.group(2) == "定":
                    fixed = True
                    steps.append({"wins": wins, "rank": f"{n}{m.group(4)}"})
                elif n >= 1:
                    steps.append({"wins": wins, "promote": n})
        if not steps:
            continue
        div = divs.divisions(draft)[named[0]]
        rule: dict[str, Any] = {"division": div["id"], "name": "定级" if fixed else "升级", "steps": steps}
        if fixed:
            rule["unranked"] = True
        total = re.search(rf"共({NUM})轮", s.norm)
        played = _rounds_of(draft, div["id"])
        stated = to_int(total.group(1)) if total else None
        if stated and played not in (None, stated):
            draft.unread(("promotions", len(rules), "rounds"), "升级轮数", s,
                         f"升级标准写共{stated}轮, 草稿中该组赛制为{played}轮; 轮数", "不填")
        elif stated:
            rule["rounds"] = stated
        draft.put(("promotions", len(rules)), rule, s)
        rules.append(rule)


def _rounds_of(draft: Draft, div_id: str) -> int | None:
    """The rounds the drafted stage plays for a division (its own format, else the stage's)."""
    for st in draft.get(("stages",), []):
        if div_id in st.get("divisions", []):
            fmt = st.get("formats_by_division", {}).get(div_id) or st.get("format", {})
            rounds = fmt.get("rounds")
            return rounds if isinstance(rounds, int) else None
    return None
