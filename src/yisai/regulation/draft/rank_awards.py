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


_VERB_RANK = re.compile(rf"(?:授予|升为|可?直接定为|定为|可申报|可获得?|获得?|升)(?:市|中国围棋协会)?(?:业余)?({NUM})([段级])(?:证书)?"
                        rf"(?:\(顺延到前({NUM})名\)|,?可顺延至前({NUM})名)?")
_WHO = re.compile(r"^(?:[\u4e00-\u9fffA-Z\d-]{1,6}组(?:、[\u4e00-\u9fffA-Z\d-]{1,6}组?)*|[A-Z甲乙丙丁](?:、[A-Z甲乙丙丁])+组)")
_OTHERS = re.compile(rf"其余棋手[^,;。]*?(?:上?升一级|跳一级|定为{NUM}[段级])|每组前\S{{1,3}}名可跳一级")
"""Clauses of the rest of a division (其余棋手在原级位上升一级, 可跳一级): the format grants ranks
by place, so these are quoted for the director, not read."""


def _grants(clause: str) -> list[tuple[tuple[int, int], re.Match[str]]]:
    """(places, rank match) for each place in the clause that is granted a rank: the place's part
    runs to the next place (第一名获奖杯壹座,奖金2000元,并授予市业余5段)."""
    starts = [m for m in re.finditer(
        r"前[两二三四五六七八九十\d]{1,3}名|第[0-9一二三四五六七八九十、\-至到第]{1,14}名|\d{1,3}-\d{1,3}名",
        clause)]
    out = []
    for k, m in enumerate(starts):
        end = starts[k + 1].start() if k + 1 < len(starts) else len(clause)
        rank = _VERB_RANK.search(clause, m.end(), end)
        rng = _places(m.group(0))
        if rank and rng:
            out.append((rng, rank))
    return out


def _found(clause: str) -> list[tuple[tuple[int, int], str, str | None, int]]:
    """(places, rank, 顺延到前N名, end) of each grant: 前两名7段(顺延到前8名) as the seeds write
    them, else place by place (第一名…并授予市业余5段, 第3、4名升为1级)."""
    out = []
    for m in _GRANT.finditer(clause):
        rng = _places(m.group(1))
        if rng is not None:
            out.append((rng, f"{to_int(m.group(2))}段", m.group(3) or m.group(4), m.end()))
    taken = {p for rng, *_ in out for p in range(rng[0], rng[1] + 1)}
    for rng, m in _grants(clause):
        if not taken & set(range(rng[0], rng[1] + 1)):
            out.append((rng, f"{to_int(m.group(1))}{m.group(2)}", m.group(3) or m.group(4), m.end()))
    return sorted(out, key=lambda g: g[3])


def _subgroups(draft: Draft, group: list[Sentence]) -> list[list[Sentence]]:
    """A section's sentences split where a sentence starts by naming its division (B组前5名…;
    J、K、M组第一名…): each such sentence begins the grants of the divisions it names."""
    out: list[list[Sentence]] = []
    for s in group:
        if not out or (_WHO.match(s.norm) and divs.named_in(draft, _WHO.match(s.norm).group(0))):  # type: ignore[union-attr]
            out.append([s])
        else:
            out[-1].append(s)
    return out


def read(draft: Draft) -> None:
    blocks: dict[str, list[Sentence]] = {}
    for s in draft.sentences:
        granted = re.search(r"授予|可申报|升为|定为|升\d", s.norm) and _grants(s.norm)
        if granted or (len(s.headings) >= 2 and any("段位" in h for h in s.headings) and (
                _GRANT.search(s.norm) or _COND_RANK.search(s.norm) or _COND_ALL.search(s.norm))):
            blocks.setdefault(s.section, []).append(s)
    rules: list[dict[str, Any]] = []
    for block in blocks.values():
        for group in _subgroups(draft, block):
            _rule(draft, group, rules)
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


def _rule(draft: Draft, group: list[Sentence], rules: list[dict[str, Any]]) -> None:
    text = "".join(s.norm for s in group)
    who = _WHO.match(text)
    named = divs.named_in(draft, who.group(0)) if who else divs.named_in(draft, text)
    if who and len(named) < len(re.findall(r"[A-Z甲乙丙丁](?=、|组)", who.group(0))):
        named = [i for w in re.findall(r"[A-Z甲乙丙丁](?=、|组)", who.group(0))
                 if (i := divs.by_name(draft, w)) is not None]
    if (not named and re.search(r"[\u4e00-\u9fffA-Z\d-]{1,6}组", text)) or re.search(r"男子|女子", text):
        # a group the drafter did not read as a division, or grants split by gender: quoted,
        # not merged into a wrong grant
        for s in group:
            draft.unread(("rank_awards",), "段位", s, "分组别/性别的段位授予", "不填")
        return
    for s in group:
        if _OTHERS.search(s.norm):
            draft.unread(("rank_awards",), "段位", s, "其余棋手的升级（格式只按名次授予）", "不填")
    grants: list[dict[str, Any]] = []
    when: list[dict[str, Any]] = []
    for clause in re.split(r"[;。]", _OTHERS.sub("", text)):
        found = _conditions(clause)
        if found:
            when = found
        for rng, rank, extend, end in _found(clause):
            grant: dict[str, Any] = {"from": rng[0], "to": rng[1], "rank": rank}
            if extend:
                grant["extend_to"] = to_int(extend)
            if when:
                grant["when"] = [dict(c) for c in when]
            grants.append(grant)
            pro = _PRO.match(clause, end)
            if pro:
                extra: dict[str, Any] = {"from": rng[0], "to": rng[1], "rank": "职业初段", "professional": True,
                                         "alternative_to": grant["rank"]}
                if pro.group(1):
                    extra["note"] = pro.group(1)
                grants.append(extra)
    if not grants:
        return
    for j in named or [0]:
        div = divs.divisions(draft)[j]
        mine = [dict(g) for g in grants]
        tiers = {repr(g.get("when")) for g in mine if g.get("when")}
        if len(tiers) > 1:
            for g in mine:
                if g.get("when"):
                    g["tier_group"] = div["id"]
        rank_id = divs.ranking(draft, j, "mixed", group[0],
                               name=f"{div['name']}男女混合排名（段位授予）" if "男女混合" in text else None)
        at = next((k for k, r in enumerate(rules) if r["division"] == div["id"]), None)
        if at is None:
            rules.append({"division": div["id"], "ranking": rank_id, "grants": mine})
            at = len(rules) - 1
        else:
            rules[at]["grants"] += mine
        draft.cite(("rank_awards", at), *group)
