"""个人名次计算 (criteria in the text's order, 全胜者冠军) and 团体名次计算 (competitions)."""

from __future__ import annotations

import re
from typing import Any

from yisai.regulation.criteria import CRITERIA, CRITERION_LABELS, Scope, criterion_by_name, names_in
from yisai.regulation.draft import divisions as divs
from yisai.regulation.draft.common import find, first
from yisai.regulation.draft.model import Draft
from yisai.regulation.draft.numbers import NUM, to_int
from yisai.regulation.draft.text import Sentence
from yisai.regulation.teams import MAX_TEAM

_LOCAL = {"逐轮递减对手分": "sos_cut", "逐轮递减": "sos_cut", "得分": "score", "小分": "sos",
          "只有两人的胜者": "direct", "两人之间的胜者": "direct", "两人相遇的胜者": "direct",
          "抽签确定": "lot", "抽签决定": "lot"}
"""Other words organisers use for a criterion (逐轮递减 = 逐轮减去对手分; in an individual ranking
小分 is the opponents' scores; 只有两人的胜者名次列前 is the direct encounter)."""
_NAMES = sorted([*CRITERION_LABELS.values(), "直胜", "胜局数", "后手胜局数", "逐轮减去对手分",
                 "小分", "大分", *_LOCAL], key=len, reverse=True)
_RX = re.compile("|".join(re.escape(n) for n in _NAMES))


def criteria_in(text: str) -> list[str]:
    """The criteria a sentence names, in its order (胜对手分 is not read as 对手分)."""
    out: list[str] = []
    for m in _RX.finditer(text):
        if m.group(0) in _LOCAL:
            if _LOCAL[m.group(0)] not in out:
                out.append(_LOCAL[m.group(0)])
            continue
        found = criterion_by_name(m.group(0))
        if found and found[0].value not in out:
            out.append(found[0].value)
    return out


# A 团体赛 text names its match tie-breaks (and 抽签) by the registry's team labels.
_TEAM_TIES = {CRITERIA[n].label_in(Scope.TEAM).zh: n for n in sorted(names_in(Scope.TEAM))
              if CRITERIA[n].team_basis == "matches" or n == "lot"}
_TEAM_RX = re.compile("|".join(sorted(_TEAM_TIES, key=len, reverse=True)))


def read(draft: Draft) -> None:
    _individual(draft)
    _teams(draft)


def _individual(draft: Draft) -> None:
    sources = [s for s in draft.sentences
               if (re.search(r"个人名次|区分(个人)?名次|名次计算|名次排列|名次依次按|名次区分|确定名次|区分名次", s.norm)
                   or s.under("名次区分", "名次计算", "名次排列", "区分名次")
                   or (re.search(r"名次|相同|依次比较", s.norm) and len(criteria_in(s.norm)) >= 2
                       and not re.search(r"晋级|出线|每期录取", s.norm)))
               and not re.search(r"团体", s.norm) and not s.under("报名")]
    criteria: list[str] = []
    for s in sources:
        if re.search(r"全胜者冠军|全胜(?:者)?自动(?:排名|获得)?第一", s.norm):
            draft.put(("ranking", "undefeated_champion"), True, s)
        criteria += [c for c in criteria_in(s.norm) if c not in criteria]
        draft.cite(("ranking", "criteria"), s)
    if criteria[:2] == ["total_score", "score"] and not any("总得分相同" in s.norm for s in sources):
        criteria = criteria[1:]  # 按总得分排列名次 then 积分高者… (no 总得分相同): the items are what 总得分 means
    if criteria:
        draft.put(("ranking", "criteria"), criteria)
        if "total_score" in criteria:
            draft.ask(("ranking", "total_score"), "总得分的计算公式",
                      "规程用总得分排名次，其算法请确认：默认 总得分 = 积分 + 对手分，对吗？ / How is 总得分 computed?",
                      "积分 + 对手分", why="（规程已有规定，此细节请确认）")
        if "sos_cut" in criteria:
            draft.ask(("ranking", "criteria"), "逐轮减去对手分的方向",
                      "逐轮减去对手分从第1轮起还是从最后一轮起？ / SOS cut from round 1 or from the last?",
                      "从第1轮起", why="（规程已有规定，此细节请确认）")
    elif (said := first(draft, r"个人(?:成绩|名次)(?:录取)?(?:按|以|依)")) is not None:
        draft.unread(("ranking", "criteria"), "名次", said[0], "个人名次的计算办法", "积分、对手分、累进分")
    else:
        draft.ask(("ranking", "criteria"), "个人名次计算办法",
                  "规程未规定个人名次的计算办法：依次比较哪些指标？ / Which tie-breaks, in which order?",
                  "积分、对手分、累进分")
    draft.ask(("scoring", "forfeit_counts_in_sos"), "弃权局是否计入对手分",
              "未下的弃权局是否计入对手分？ / Does a forfeited game count in SOS?", "不计入 (false)")


_TEAM_RULE = re.compile(r"团体成绩(比较|按|为|计算|以)|团体名次(计算|按|录取)|决定团体名次")
_BEST = re.compile(rf"(?:同队|同单位)?({NUM}|两)(?:名|人)(?:的)?(?:最好|最佳)|(?:最好|最佳)的?({NUM}|两)(?:名|人)"
                   rf"|团体(?:运动员|队员)?为({NUM})人")
"""The players who count for the team: 同队两人最好名次, 同单位3名最佳成绩者, 成绩最好的3人, 团体运动员为3人."""


def _team_size(draft: Draft, text: str) -> tuple[int | None, Sentence | None]:
    """How many players' results make the team's, from the rule's clause or anywhere it is said."""
    for where, s in [(text, None), *((x.norm, x) for x in draft.sentences if "团体" in x.norm)]:
        m = re.search(rf"报满({NUM})人", where) or _BEST.search(where)
        if m:
            word = next(g for g in m.groups() if g)
            return (2 if word == "两" else to_int(word)), s
    return None, None


def _team_entry(draft: Draft, size: int, s: Sentence) -> None:
    """An individual event that also ranks teams: how many a team may enter. 人数不限 is the
    format's most; a text that does not say gets the counted players, asked."""
    if draft.get(("teams", "max_players")) is not None:
        return
    free = next((x for x in draft.sentences if re.search(r"人数不限|不限人数", x.norm)), None)
    if free is not None:
        draft.put(("teams", "max_players"), MAX_TEAM, free)
        return
    draft.put(("teams", "max_players"), max(size, 1))
    draft.unread(("teams", "max_players"), "每队报名人数", s, f"每队最多可报几人（此句只说计算成绩的{size}人）",
                 str(max(size, 1)))


def _teams(draft: Draft) -> None:
    found = first(draft, _TEAM_RULE.pattern)
    comps: list[dict[str, Any]] = []
    if found:
        s = found[0]
        group = [x for x in draft.line_of(s) if x.section == s.section]
        text = "".join(x.norm for x in group)
        named = divs.named_in(draft, text)
        ids = [divs.divisions(draft)[j]["id"] for j in named] or [divs.divisions(draft)[0]["id"]]
        comp: dict[str, Any] = {"id": "team", "name": "团体", "division": ids[0]}
        if len(ids) > 1:
            comp["divisions"] = ids
        count, said = _team_size(draft, text)
        size = re.search(rf"报满({NUM})人", text)
        comp["size"] = count or draft.get(("teams", "max_players"), 1)
        if said is not None:
            group.append(said)
        if "名次分" in text:
            pass  # 个人名次分: a sum of places or of points per place, the text does not say which
        elif "名次之和" in text or "名次相加" in text:
            comp["method"] = "sum_of_places"
        elif "积分之和" in text or "总分" in text or "得分相加" in text:
            comp["method"] = "sum_of_scores"
        elif "场分" in text:
            comp["method"] = "match_points"
        if comp.get("method") != "match_points":
            comp["complete_only"] = bool(size) or "报满" in text
        boards = next((st["format"].get("boards") for st in draft.get(("stages",), [])
                       if st.get("format", {}).get("kind") == "team_match"), None)
        if comp.get("method") == "match_points" and boards:
            comp["size"] = boards
        if "男、女" in text and "名次" in text:
            j = named[0] if named else 0
            comp["place_rankings"] = {"M": divs.ranking(draft, j, "M"), "F": divs.ranking(draft, j, "F")}
            for k in named[1:]:
                divs.ranking(draft, k, "M")
                divs.ranking(draft, k, "F")
        said_team = "".join(x.norm for x in group if "团体" in x.norm)
        said_team = "".join(part for part in re.split(r"[。;；]", said_team) if "团体" in part)
        ties = [_TEAM_TIES[m.group(0)] for m in _TEAM_RX.finditer(said_team.split("相同", 1)[-1])
                ] if "相同" in said_team else []
        if re.search(r"最高个人名次|个人最高名次|相同(?:的队)?(?:则)?看个人名次", said_team):
            ties.append("best_place")
            if "依次" in text:
                ties.append("next_place")
        if ties:
            comp["tie_breaks"] = ties
        comp["method_note"] = "；".join(re.sub(r"^团体名次计算[：:]", "", x.text).rstrip("。")
                                       for x in group if "团体" in x.norm)
        if "各组团体" in text and len(divs.divisions(draft)) > 1 and not named:
            for j, d in enumerate(divs.divisions(draft)):  # 各组团体成绩…: one team ranking in each division
                comps.append({**comp, "id": f"{d['id']}-team", "name": f"{d['name']}团体", "division": d["id"],
                              "ranking": divs.ranking(draft, j, "mixed")})
        else:
            if "place_rankings" not in comp and comp.get("method") != "match_points":
                comp["ranking"] = divs.ranking(draft, named[0] if named else 0, "mixed")
            comps.append(comp)
        draft.put(("teams", "competitions"), comps, *group)
        for k in range(len(comps)) if "method" not in comp else []:
            draft.put(("teams", "competitions", k, "method"), "sum_of_places")
            draft.unread(("teams", "competitions", k, "method"), "团体成绩计算办法", s,
                         "团体成绩按名次之和 (sum_of_places) 还是积分之和 (sum_of_scores)", "sum_of_places")
        _team_entry(draft, comp["size"], s)
        return
    for s, m in find(draft, rf"男子团体({NUM})人组队"):
        women = re.search(rf"女子团体({NUM})人组队", s.norm)
        scope = first(draft, r"男女团体成绩")
        j = 0
        if scope:
            hit = divs.named_in(draft, scope[0].norm)
            j = hit[0] if hit else 0
        div_id = divs.divisions(draft)[j]["id"]
        rank_id = divs.ranking(draft, j, "mixed")
        pairs = [("men", "男子团体", "M", to_int(m.group(1)))]
        if women is not None:
            pairs.append(("women", "女子团体", "F", to_int(women.group(1))))
        for cid, name, gender, count in pairs:
            comps.append({"id": cid, "name": name, "division": div_id, "gender": gender, "size": count,
                          "ranking": rank_id})
        draft.put(("teams", "competitions"), comps, s, *([scope[0]] if scope else []))
        for k in range(len(comps)):
            base = ("teams", "competitions", k)
            draft.assume((*base, "method"), "sum_of_scores", "团体成绩计算办法",
                         "规程未写明团体成绩的计算办法：队员个人积分之和 (sum_of_scores)、名次之和 (sum_of_places)？ "
                         "/ How are teams ranked?")
            draft.assume((*base, "tie_breaks"), ["sos", "best_place", "next_place"], "团体成绩相同时",
                         "团体成绩相同时依次比较什么？ / Team tie-breaks?")
            draft.assume((*base, "complete_only"), True, "只计报满人数的队",
                         "不足人数的队是否计算团体成绩？ / Are incomplete teams ranked?")
        return
