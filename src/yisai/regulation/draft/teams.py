"""参赛单位与队伍组成: team kind, count limits, players by gender and seat, staff, the team
registration window."""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

from yisai.regulation.draft import divisions as divs
from yisai.regulation.draft.common import find, first
from yisai.regulation.draft.model import Draft
from yisai.regulation.draft.numbers import NUM, make_date, to_int

KINDS = (("城市代表队", "city", "城市代表队"), ("省", "province", None), ("俱乐部", "club", "俱乐部队"),
         ("学校", "school", "学校队"))


def read(draft: Draft) -> None:
    found = first(draft, rf"(?:每队|每个\S{{0,6}}队)(?:限报|最多可?报|可报{NUM}名)|每队({NUM})人(?!出场)")
    if not found:
        return
    s = found[0]
    line = draft.line_of(s)
    t = "".join(x.norm for x in line)
    team: dict[str, Any] = {}
    kind = next(((k, n) for w, k, n in KINDS if w in t or any(w in x.norm for x in draft.sentences
                                                              if x.under("参赛单位"))), None)
    if kind:
        team["kind"] = kind[0]
        if kind[1]:
            team["name"] = kind[1]
    m = re.search(rf"({NUM})名队员|最多可?报({NUM})人|限报({NUM})人|每队({NUM})人|每队可报({NUM})名", t)
    if m:
        team["max_players"] = to_int(next(g for g in m.groups() if g))
    m = re.search(rf"\(({NUM})男({NUM})女\)", t)
    if m:
        team["max_men"], team["max_women"] = to_int(m.group(1)), to_int(m.group(2))
    m = re.search(rf"({NUM})名领队|领队({NUM})名", t)
    if m:
        team["leaders"] = to_int(m.group(1) or m.group(2))
    m = re.search(rf"至少({NUM})名女棋手", t)
    if m:
        team["min_women"] = to_int(m.group(1))
    m = re.search(rf"({NUM})名教练", t)
    if m:
        team["coaches"] = to_int(m.group(1))
    if "不足或超过可以以个人名义参赛" in t:
        team["extra_players_play_individually"] = True
    slots = re.search(r"分别为(\S+?)组男、女各1名", t)
    if slots:
        named = divs.named_in(draft, slots.group(1) + "组")
        out = []
        for j in named:
            d = divs.divisions(draft)[j]
            for g, word in (("M", "男"), ("F", "女")):
                out.append({"label": f"{d['name']}{word}", "division": d["id"], "gender": g})
        team["slots"] = out
        team["max_men"] = team["max_women"] = len(named)
        for j in range(len(divs.divisions(draft))):
            if "routes" not in divs.divisions(draft)[j].get("eligibility", {}):
                draft.put(("divisions", j, "eligibility", "routes"), ["team"], s)
    m = re.search(r"报名时间为(\d{1,2})月(\d{1,2})日-+(\d{1,2})月(\d{1,2})日", t)
    if m and draft.year:
        a = make_date(draft.year, int(m.group(1)), int(m.group(2)))
        b = make_date(draft.year, int(m.group(3)), int(m.group(4)))
        if a and b:
            team["registration_from"] = datetime(a.year, a.month, a.day)
            team["registration_to"] = datetime(b.year, b.month, b.day, 23, 59, 59)
    draft.put(("teams",), team, *line)
    for s2, m2 in find(draft, rf"限报({NUM})支队(?!伍)"):
        draft.put(("teams", "max_teams"), to_int(m2.group(1)), s2)
    for s2, m2 in find(draft, rf"(?:选拔或组建|限报)({NUM})支队伍"):
        draft.put(("teams", "per_region"), to_int(m2.group(1)), s2)
        if "省" in s2.norm:
            draft.put(("teams", "name"), "省队（" + re.split(r"选拔", s2.text)[0] + "）", s2)
            draft.ask(("teams", "own_associations"), "计划单列市与兵团",
                      "计划单列市、兵团是否各自单独组队（不计入所在省）？ / Do they enter apart?",
                      "规程列出者各报1支队")
    for s2, m2 in find(draft, r"(如果人数不足.*递补)"):
        draft.put(("teams", "backfill_rule"), m2.group(1), s2)
    for s2, _ in find(draft, r"男子团体(\d)人组队"):
        draft.use(s2)
