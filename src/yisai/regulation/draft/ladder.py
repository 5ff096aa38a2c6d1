"""The online qualifier's ladder (积分晋级制): points per win and loss, escapes, places per
period by division, confirmation days, replays, play hours, free entry, disconnection limits."""

from __future__ import annotations

import re
from typing import Any

from yisai.regulation.draft import divisions as divs
from yisai.regulation.draft.common import clause, find, first
from yisai.regulation.draft.model import Draft
from yisai.regulation.draft.numbers import NUM, to_int
from yisai.regulation.draft.text import Sentence


def read(draft: Draft, i: int) -> None:
    """Stage ``i`` is an online qualifier: its format is the ladder the text describes."""
    fmt: dict[str, Any] = {"kind": "online_ladder"}
    path = ("stages", i, "format")
    srcs: list[Sentence] = [s for s, _ in find(draft, r"积分晋级制")]
    for s, m in find(draft, rf"胜得?({NUM})分"):
        if "晋级" in s.norm or "匹配" in s.norm:
            fmt["win"] = to_int(m.group(1))
            loss = re.search(r"负(?:得|扣)?(-?\d+)分", s.norm)
            if loss:
                fmt["loss"] = -abs(int(loss.group(1)))
            esc = re.search(r"逃跑(?:扣除|扣|得)(-?\d+)分", s.norm)
            if esc:
                fmt["escape"] = -abs(int(esc.group(1)))
            opp = re.search(r"对手得(\d+)分", s.norm)
            if opp:
                fmt["escape_opponent"] = int(opp.group(1))
            srcs.append(s)
    quotas: dict[str, int] = {}
    pools: dict[str, list[str]] = {}
    for s, _ in find(draft, r"每期录取前"):
        for m in re.finditer(rf"([\u4e00-\u9fff]{{1,4}}组)每期录取前({NUM})名", s.norm):
            j = divs.by_name(draft, m.group(1))
            n = to_int(m.group(2))
            if n is None:
                continue
            if j is not None:
                quotas[divs.divisions(draft)[j]["id"]] = n
            else:
                children = [d["id"] for d in divs.divisions(draft) if d.get("parent") == m.group(1)]
                if children:
                    key = divs.IDS.get(m.group(1).removesuffix("组"), "pool")
                    pools[key] = children
                    quotas[key] = n
        if "胜局数" in s.norm:
            fmt["tie_break"] = ["wins"]
        fmt["all_tied_qualify"] = "并列一同晋级" in s.norm
        if "总决赛" in s.norm:
            fmt["qualifies_for"] = "final"
        srcs.append(s)
    if pools:
        fmt["pools"] = pools
    if quotas:
        fmt["qualifiers"] = quotas
        used = {d for p in pools.values() for d in p} | set(quotas)
        draft.put(("stages", i, "divisions"), [d["id"] for d in divs.divisions(draft) if d["id"] in used])
    else:
        draft.lack((*path, "qualifiers"), "网络海选赛每期录取多少名？ / How many qualify per period?")
    found = first(draft, rf"({NUM})个工作日内")
    if found:
        fmt["confirm_within_working_days"] = to_int(found[1].group(1))
        srcs.append(found[0])
    found = first(draft, r"可重新参加下一期")
    if found:
        fmt["may_replay_next_period"] = True
        srcs.append(found[0])
    found = first(draft, r"比赛时间为(全天任意时段.*)")
    if found:
        fmt["play_hours"] = clause(found[0]).split("比赛时间为", 1)[1]
        srcs.append(found[0])
    draft.put(path, fmt, *srcs)
    draft.ask((*path, "earlier_qualifier_place"), "前期已晋级棋手在后一期再次进入录取名次",
              "已在前一期晋级的棋手再次名列前茅时，名额是否顺延给下一名？ / Does the place pass on?",
              "kept（名额不顺延）")
    draft.ask((*path, "guardian_under_age"), "未成年晋级选手的监护人信息",
              "未成年晋级选手是否须填写监护人？几岁以下？ / Must minors give a guardian?", "18")
    for s, _ in find(draft, r"全天任意时段|线上赛全程免费"):
        if "免费" in s.norm:
            draft.put(("stages", i, "fee_note"), clause(s), s)
    for s in draft.sentences:
        if s.under("线上赛") and s.under("参赛资格") and "均可报名" in s.norm:
            draft.put(("stages", i, "entry_note"), clause(s), s)
    for s, m in find(draft, rf"断线总时长超过({NUM})分钟"):
        rules: dict[str, Any] = {"max_total_absence_seconds": (to_int(m.group(1)) or 0) * 60}
        times = re.search(rf"断线次数(?:大于|超过)({NUM})次", s.norm)
        if times:
            rules["max_disconnections"] = to_int(times.group(1))
        each = re.search(rf"每次中断超过({NUM})秒", s.norm)
        if each:
            rules["disconnection_after_seconds"] = to_int(each.group(1))
        draft.put(("stages", i, "disconnection"), rules, s)
        draft.ask(("stages", i, "disconnection", "short_absences_count_in_total"), "断线总时长",
                  "断线总时长是否计入不足一次断线的短暂中断？ / Do short absences count in the total?",
                  "计入 (true)")
