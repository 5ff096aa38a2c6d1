"""段位申报/授予: per division, the entrant-count preconditions, the places and ranks granted
and how far each grant passes down (顺延到前N名)."""

from __future__ import annotations

import re
from typing import Any

from yisai.regulation.draft import divisions as divs
from yisai.regulation.draft.common import find
from yisai.regulation.draft.model import Draft
from yisai.regulation.draft.numbers import NUM, place_range, to_int
from yisai.regulation.draft.text import Sentence

_COND_RANK = re.compile(rf"参赛({NUM})段\(含\)以上棋手(?:达到({NUM})人(?:\(含\))?(?:以上)?(?:不足({NUM})人)?|不足?({NUM})人)")
_COND_ALL = re.compile(rf"参赛(?:棋手|人数)达到({NUM})人(?:\(含\))?(?:以上)?")
_GRANT = re.compile(
    rf"(前[两二三四五六七八九十\d]{{1,3}}名|第[0-9一二三四五六七八九十、\-至到第]{{1,14}}名|\d{{1,3}}-\d{{1,3}}名)"
    rf"(?:选手)?(?:可申报|授予|升为|可获得?|获得?)?(?:市|中国围棋协会)?(?:业余)?({NUM})段(?:证书)?"
    rf"(?:\(顺延到前({NUM})名\)|,?可顺延至前({NUM})名)?")
_PRO = re.compile(r"或职业初段(?:\((.*?)\))?")


def _places(word: str) -> tuple[int, int] | None:
    if word.startswith("前"):
        n = to_int(word[1:-1])
        return (1, n) if n and n >= 1 else None
    if "、" in word:
        nums = [to_int(w) for w in word.removeprefix("第").removesuffix("名").split("、")]
        known = [n for n in nums if n is not None and n >= 1]
        if known and len(known) == len(nums):
            return min(known), max(known)
        return None
    return place_range(word)


def _conditions(text: str) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for m in _COND_RANK.finditer(text):
        cond: dict[str, Any] = {"min_rank": f"{to_int(m.group(1))}段"}
        if m.group(2):
            cond["at_least"] = to_int(m.group(2))
        if m.group(3):
            cond["below"] = to_int(m.group(3))
        if m.group(4):
            cond["below"] = to_int(m.group(4))
        out.append(cond)
    for m in _COND_ALL.finditer(text):
        out.append({"at_least": to_int(m.group(1))})
    return out


def read(draft: Draft) -> None:
    blocks: dict[str, list[Sentence]] = {}
    for s in draft.sentences:
        granted = re.search(r"授予|可申报|升为", s.norm) and _GRANT.search(s.norm)
        if granted or (len(s.headings) >= 2 and any("段位" in h for h in s.headings) and (
                _GRANT.search(s.norm) or _COND_RANK.search(s.norm) or _COND_ALL.search(s.norm))):
            blocks.setdefault(s.section, []).append(s)
    rules: list[dict[str, Any]] = []
    for group in blocks.values():
        text = "".join(s.norm for s in group)
        named = divs.named_in(draft, text)
        if (not named and re.search(r"[\u4e00-\u9fffA-Z\d-]{1,6}组", text)) or re.search(r"男子|女子", text) \
                or re.search(rf"(?:升为?|定为?|授予)({NUM})级|升一级|跳一级", text):
            # a group the drafter did not read as a division, grants split by gender, or 级 grants
            # (the format grants 段 only): quoted, not merged into a wrong grant
            for s in group:
                draft.unread(("rank_awards",), "段位", s, "分组别/性别/级位的段位授予", "不填")
            continue
        j = named[0] if named else 0
        div = divs.divisions(draft)[j]
        grants: list[dict[str, Any]] = []
        when: list[dict[str, Any]] = []
        for clause in re.split(r"[;。]", text):
            found = _conditions(clause)
            if found:
                when = found
            for m in _GRANT.finditer(clause):
                rng = _places(m.group(1))
                if rng is None:
                    continue
                grant: dict[str, Any] = {"from": rng[0], "to": rng[1], "rank": f"{to_int(m.group(2))}段"}
                if m.group(3) or m.group(4):
                    grant["extend_to"] = to_int(m.group(3) or m.group(4))
                if when:
                    grant["when"] = [dict(c) for c in when]
                grants.append(grant)
                pro = _PRO.match(clause, m.end())
                if pro:
                    extra: dict[str, Any] = {"from": rng[0], "to": rng[1], "rank": "职业初段", "professional": True,
                                             "alternative_to": grant["rank"]}
                    if pro.group(1):
                        extra["note"] = pro.group(1)
                    grants.append(extra)
        if not grants:
            continue
        tiers = {repr(g.get("when")) for g in grants if g.get("when")}
        if len(tiers) > 1:
            for g in grants:
                if g.get("when"):
                    g["tier_group"] = div["id"]
        rank_id = divs.ranking(draft, j, "mixed", group[0],
                               name=f"{div['name']}男女混合排名（段位授予）" if "男女混合" in text else None)
        rules.append({"division": div["id"], "ranking": rank_id, "grants": grants})
        draft.cite(("rank_awards", len(rules) - 1), *group)
    if not rules:
        return
    draft.put(("rank_awards",), rules)
    for s, _ in find(draft, r"仅限业余棋手|不含当年新定段的职业棋手"):
        draft.use(s)
        for k, r in enumerate(rules):
            for key in ("amateurs_only", "exclude_new_pros", "places_among_amateurs"):
                draft.put(("rank_awards", k, key), True, s)
            r["skip_if_already_holding"] = True
    for s, _ in find(draft, r"中国围棋业余等级制及管理办法"):
        draft.use(s)
    if any(len({repr(g.get("when")) for g in r["grants"] if g.get("when")}) > 1 for r in rules):
        draft.ask(("rank_awards",), "段位授予的分档",
                  "各档条件（达到90人、60人、30人…）是否只取满足的最高一档？同一句后面不带条件的授予属于哪一档？ "
                  "/ Which tier applies?", "同一组别的带条件授予为一组分档 (tier_group)")
