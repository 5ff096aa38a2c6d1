"""升段/升级: per division, ``7局胜6局及以上者升一段`` (wins out of rounds → steps up), 全胜,
``最高升至业余5段``."""

from __future__ import annotations

import re
from typing import Any

from yisai.regulation.draft import divisions as divs
from yisai.regulation.draft.model import Draft
from yisai.regulation.draft.numbers import NUM, to_int

_STEP = re.compile(rf"({NUM})局(?:胜({NUM})局(?:及以上|以上)?|全胜)者?升({NUM})([段级])")


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
    if rules:
        draft.ask(("promotions",), "升段的弃权与轮空",
                  "对方弃权的胜局、轮空是否计入胜局数？须参加全部轮次吗？ / Do forfeits and byes count as wins?",
                  "不计入；须参加全部轮次")
