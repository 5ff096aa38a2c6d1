"""组别: names (from 竞赛项目/组别), birth-date windows, entry conditions and routes, and the
ranking lists each division needs (added by the prize and 段位 readers)."""

from __future__ import annotations

import re
from datetime import date
from typing import Any

from yisai.regulation.draft.common import clause, find, first, items
from yisai.regulation.draft.model import Draft
from yisai.regulation.draft.numbers import NUM, make_date, to_int
from yisai.regulation.draft.text import Sentence, norm

IDS = {
    "公开": "open", "少年": "junior", "幼儿": "kids", "中老年": "senior", "老年": "senior",
    "少儿": "youth", "青少年": "youth", "儿童": "children", "成年": "adult", "青年": "young",
    "甲": "jia", "乙": "yi", "丙": "bing", "丁": "ding", "戊": "wu",
    "男子": "men", "女子": "women", "段位": "dan", "级位": "kyu", "定级": "grading",
    "高段": "high-dan", "低段": "low-dan", "业余": "amateur", "职业": "pro", "专业": "pro",
    "A": "a", "B": "b", "C": "c", "D": "d", "比赛": "main", "团体": "team",
}
MAX_DIVISIONS = 40
"""A 规程 has a handful of 组别; names past this are not read (a hostile text could list
thousands, and every later reader looks at each division)."""
_GROUP = r"([\u4e00-\u9fffA-Z]{1,4}组)"
_D = r"(\d{4})年(\d{1,2})月(\d{1,2})日"


def division_id(name: str, taken: set[str]) -> str:
    base = IDS.get(name.removesuffix("组"), "")
    if not base or base in taken:
        base = f"d{len(taken) + 1}"
    return base


def divisions(draft: Draft) -> list[dict[str, Any]]:
    return draft.doc.setdefault("divisions", [])


def by_name(draft: Draft, name: str) -> int | None:
    """The index of the division called ``name`` (甲组, 甲, 少年组男子 → 少年组)."""
    for i, d in enumerate(divisions(draft)):
        if name in (d["name"], d["name"].removesuffix("组")):
            return i
    return None


def named_in(draft: Draft, text: str) -> list[int]:
    """The divisions a sentence names, in order of mention; a parent (少儿组) names its children;
    ``甲乙丙组`` names three."""
    hits: list[tuple[float, int]] = []
    for i, d in enumerate(divisions(draft)):
        short = d["name"].removesuffix("组")
        for word in (d["name"], short + "组"):
            at = text.find(word)
            if at >= 0:
                hits.append((at, i))
                break
        else:
            m = re.search(rf"([{''.join(_single())}]{{2,5}})组", text)
            if m and len(short) == 1 and short in m.group(1):
                hits.append((m.start() + m.group(1).index(short), i))
            elif d.get("parent") and d["parent"] in text:
                hits.append((text.find(d["parent"]) + i / 100, i))
    return [i for _, i in sorted(set(hits))]


def _single() -> list[str]:
    return [k for k in IDS if len(k) == 1]


def read(draft: Draft) -> None:
    names, sources = _names(draft)
    windows = list(_windows(draft))
    parents: dict[str, str] = {}
    for s, m in find(draft, r"([\u4e00-\u9fff]{1,4}?组)分为([\u4e00-\u9fff]{1,4}?)和([\u4e00-\u9fff]{1,4}?)(?:两个)?小?组"):
        parent = m.group(1)
        parents[_grp(m.group(2))] = parent
        parents[_grp(m.group(3))] = parent
        if parent in names:
            at = names.index(parent)
            names[at:at + 1] = [_grp(m.group(2)), _grp(m.group(3))]
        draft.use(s)
    for name, *_ in windows:
        if name not in names:
            names.append(name)
    if len(names) > MAX_DIVISIONS:
        draft.lack(("divisions",), f"规程中出现 {len(names)} 个组别名称, 只读取了前 {MAX_DIVISIONS} 个; 请检查")
        names = names[:MAX_DIVISIONS]
    said = first(draft, r"同组|男、女|男女分|男子\S{0,12}女子") if not names else None
    if said is not None:  # 男、女同组比赛分别录取名次: one division, stated; quoted to confirm
        names = ["比赛组"]
        draft.unread(("divisions", 0, "name"), "组别", said[0], "组别（按此句只设一个组别）", "比赛组")
    if not names:
        names = ["比赛组"]
        draft.ask(("divisions", 0, "name"), "组别",
                  "规程没有写明组别：只设一个组别（比赛组）吗？ / No division named: is there a single one?",
                  "比赛组")
    taken: set[str] = set()
    for i, name in enumerate(names):
        div_id = division_id(name, taken)
        taken.add(div_id)
        draft.put(("divisions", i, "id"), div_id)
        draft.put(("divisions", i, "name"), name, *sources.get(name, []))
        if name in parents:
            draft.put(("divisions", i, "parent"), parents[name])
    for name, born_from, born_to, s in windows:
        found = by_name(draft, name)
        if found is None:
            continue
        if born_from:
            draft.put(("divisions", found, "eligibility", "born_from"), born_from, s)
        if born_to:
            draft.put(("divisions", found, "eligibility", "born_to"), born_to, s)
    _conditions(draft)
    _rank_bounds(draft)
    _boards(draft)
    _labelled_rules(draft)


def _labelled_rules(draft: Draft) -> None:
    """What a division's own line says of its game: 九路… is played on 9 lines; 胜1局积2分 is the
    format's win (a game scored otherwise — 胜1局积1分 of two capture games a round — is quoted)."""
    for j, d in enumerate(divisions(draft)):
        line = next((s for s in draft.sentences if s.norm.startswith(norm(d["name"]) + ":")), None)
        if line is None:
            continue
        if d["name"].startswith(("九路", "9路")):
            draft.put(("divisions", j, "board_size"), 9, line)
        elif d["name"].startswith(("十三路", "13路")):
            draft.put(("divisions", j, "board_size"), 13, line)
        said = draft.line_of(line)
        win = re.search(rf"胜1局积({NUM})分", "".join(x.norm for x in said))
        if win and to_int(win.group(1)) == 2:
            draft.put(("divisions", j, "scoring"), {"win": 2}, *said)
        elif win:
            draft.unread(("divisions", j, "scoring"), "积分", line, f"{d['name']}的计分（{win.group(0)}）", "胜2分")


def _boards(draft: Draft) -> None:
    """``幼儿组采用13路棋盘``: a division playing on another board than the event's."""
    for s, m in find(draft, rf"([\u4e00-\u9fffA-Z\d-]{{1,8}}组)(?:采用|用|使用)({NUM})路棋盘"):
        size = to_int(m.group(2))
        if size is None or not 5 <= size <= 25 or size == 19:
            continue
        for j in named_in(draft, m.group(1)):
            draft.put(("divisions", j, "board_size"), size, s)


def strength(rank: str) -> int:
    """A rank's place on one scale (1级 < 1段; 10级 < 9级)."""
    return _strength(rank)


def _strength(rank: str) -> int:
    """A rank's place on one scale (1级 < 1段; 10级 < 9级)."""
    n = to_int(rank[:-1]) or 0
    return n - 1 if rank.endswith("段") else -n


def _bounds(text: str) -> tuple[str | None, str | None] | None:
    """(min_rank, max_rank) a division's name or its description states: 3段及以上, 2-4级, 1段的棋手,
    10-9级 (the weaker rank is the minimum); None when it states none it can bound ("6级以下" of
    kyu has no floor the format can write)."""
    m = re.match(rf"^(?:业余)?({NUM})-({NUM})([段级])", text)
    if m:
        a, b = f"{to_int(m.group(1))}{m.group(3)}", f"{to_int(m.group(2))}{m.group(3)}"
        return (a, b) if _strength(a) <= _strength(b) else (b, a)
    m = re.match(rf"^(?:业余)?({NUM})([段级])(?:\(含\))?(及|或)?(以上|以下)?", text)
    if not m:
        return ("", "1级") if re.match(r"^未(?:获得|取得)段位", text) else None
    rank = f"{to_int(m.group(1))}{m.group(2)}"
    if m.group(4) == "以上":
        return rank, None
    if m.group(4) == "以下":
        return (None, rank) if m.group(2) == "段" else None
    rest = text[m.end():]
    if m.group(3) or not re.match(r"^(?:的)?(?:棋手|选手|男子|女子|男|女|组|$|[,，;。)])", rest):
        return None
    return rank, rank


def _rank_bounds(draft: Draft) -> None:
    """段级位 bounds of each division, from its name (10-9级组) or the sentence that describes it
    (A组:3段及以上的棋手, 级位组(未获得段位证书者)); 男子/女子 in that description limits the gender."""
    for i, d in enumerate(divisions(draft)):
        name = d["name"]
        found = _bounds(name.removesuffix("组"))
        source = draft.sources.get(("divisions", i, "name"))
        cited = [draft.sentences[k] for k in sorted(source or [])][:1]
        desc: Sentence | None = None
        for s in draft.sentences:
            m = re.match(rf"^(?:\d+[、.])?{re.escape(name)}[:(]([^)]*)", s.norm)
            if m:
                desc = s
                text = m.group(1)
                break
        if found is None and desc is not None:
            found = _bounds(text)
            cited = [desc]
        if found is not None:
            low, high = found
            if low:
                draft.put(("divisions", i, "eligibility", "min_rank"), low, *cited)
            if high:
                draft.put(("divisions", i, "eligibility", "max_rank"), high, *cited)
        if desc is not None:
            genders = re.findall(r"(男子|女子)(?:$|[,，;。)])", text)
            if len(genders) == 1:
                draft.put(("divisions", i, "eligibility", "genders"), ["M" if genders[0] == "男子" else "F"], desc)


def _grp(word: str) -> str:
    return word if word.endswith("组") else word + "组"


def _names(draft: Draft) -> tuple[list[str], dict[str, list[Sentence]]]:
    names: list[str] = []
    sources: dict[str, list[Sentence]] = {}
    listing = False  # after a label line "组别设置:" the lines "甲组(…)" list the divisions
    for s in draft.sentences:
        label = re.fullmatch(r"(?:比赛|竞赛)?(?:组别设置|组别|分组|设置组别)(?:情况)?:", s.norm)
        if label:
            listing = True
            continue
        if listing and not re.match(rf"^{_GROUP}[:(]", s.norm):
            listing = False
        if not listing and (
                not s.headings or not re.search(r"竞赛项目|比赛项目|组别|竞赛组别|分组", norm(s.headings[0]))):
            continue
        text = s.norm
        m = re.match(r"^(?:竞赛|比赛)?组别:(.*)", text)
        if m:
            found = [w for w in items(re.sub(r"\(.*?\)", "", m.group(1)).rstrip("。").replace(";", "、"))
                     if w.endswith("组")]
        else:
            g = re.match(rf"^{_GROUP}", text)
            found = [g.group(1)] if g and (len(s.headings) > 1 or re.match(rf"^{_GROUP}[:(]", text)) else []
            if len(re.findall(r"([A-Z])组\(", text)) > 1:  # A组(…)——…B组(…)——… on one line
                found = [f"{x}组" for x in re.findall(r"([A-Z])组\(", text)]
        for w in found:
            if w not in names:
                names.append(w)
                sources.setdefault(w, []).append(s)
    if not names:
        for called, s in _labelled(draft):
            names.append(called)
            sources.setdefault(called, []).append(s)
    return names, sources


def _labelled(draft: Draft) -> list[tuple[str, Sentence]]:
    """``分为三组`` followed by three label lines (``九路吃子:无级,7级…``, ``19路围空:4级以上…``):
    the labels are the divisions, whatever they are called."""
    for s, m in find(draft, rf"分为({NUM})(?:个)?组"):
        count = to_int(m.group(1)) or 0
        found: list[tuple[str, Sentence]] = []
        for x in draft.sentences[s.index + 1: s.index + 2 + 2 * count]:
            label = re.match(r"^([\u4e00-\u9fff\dA-Z]{2,6}):", x.norm)
            if label:
                found.append((x.text[:x.text.index(":") if ":" in x.text else x.text.index("：")].strip(), x))
        if 2 <= count == len(found[:count]) and count <= 12:
            return found[:count]
    return []


def _windows(draft: Draft) -> Any:
    """(division name, born_from, born_to, sentence) for each birth-date window."""
    rx_range = re.compile(rf"{_GROUP}(?:出生日期为|:|：)?{_D}(?:\(含\))?(?:至|到|-+){_D}(?:\(含\))?(?:期间)?(?:出生)?")
    rx_after = re.compile(rf"{_GROUP}(?:出生日期为|:)?{_D}(?:\(含\))?(?:及|或)?以后出生")
    rx_before = re.compile(rf"{_GROUP}(?:出生日期为|:)?{_D}(?:\(含\))?(?:及|或)?以前出生")
    rx_aside = re.compile(rf"([A-Z]组)\([^()]{{0,30}}\)-*{_D}(?:\(含\))?(?:及|或)?以?后出生")
    for s in draft.sentences:
        for m in rx_range.finditer(s.norm):
            a = make_date(*(int(x) for x in m.group(2, 3, 4)))
            b = make_date(*(int(x) for x in m.group(5, 6, 7)))
            if a and b and a <= b:
                yield _clean(m.group(1)), a, b, s
        for m in rx_after.finditer(s.norm):
            yield _clean(m.group(1)), make_date(*(int(x) for x in m.group(2, 3, 4))), None, s
        for m in rx_aside.finditer(s.norm):  # A组(12周岁,…)——1998年9月1日后出生
            yield m.group(1), make_date(*(int(x) for x in m.group(2, 3, 4))), None, s
        for m in rx_before.finditer(s.norm):
            yield _clean(m.group(1)), None, make_date(*(int(x) for x in m.group(2, 3, 4))), s


def _clean(name: str) -> str:
    for lead in ("其中", "参加", "各", "和", "及"):
        name = name.removeprefix(lead)
    return name


_ROUTES = (("选拔产生", "qualified"), ("代表队", "team"), ("外卡", "wildcard"), ("特邀", "invited"),
           ("邀请", "invited"), ("直接", "direct"))


def _all(draft: Draft, key: str, value: Any, s: Sentence) -> None:
    for i in range(len(divisions(draft))):
        draft.put(("divisions", i, "eligibility", key), value, s)


def _conditions(draft: Draft) -> None:
    for s, _ in find(draft, r"业余段级位证书|段级位证书"):
        _all(draft, "certificate_required", True, s)
    for s, _ in find(draft, r"须为.{0,30}业余棋手|仅限业余棋手参赛|限业余棋手"):
        _all(draft, "professionals", "forbidden", s)
    for s, _ in find(draft, r"当年新定段的职业棋手按业余"):
        _all(draft, "professionals", "new_pro_as_amateur", s)
    for s, _ in find(draft, r"仅限(中国)?大陆"):
        _all(draft, "regions", ["中国大陆"], s)
    for s, m in find(draft, r"(港澳台)地区?棋手参赛事宜另行规定"):
        _all(draft, "region_notes", {m.group(1): clause(s)}, s)
    for s, _ in find(draft, r"不得以大打小|按照出生日期对应的组别"):
        _all(draft, "exact_age_group", True, s)
    for s, m in find(draft, rf"须为{_D}(?:\(含\))?(?:及|或)?以后出生"):
        day = make_date(*(int(x) for x in m.group(1, 2, 3)))
        if day is not None:
            _all(draft, "born_from", day, s)
    for s, m in find(draft, rf"^{_GROUP}:持有业余({NUM})([段级])(?:至|到|-)({NUM})([段级])"):
        at = by_name(draft, m.group(1))
        low, high = f"{to_int(m.group(2))}{m.group(3)}", f"{to_int(m.group(4))}{m.group(5)}"
        if at is not None:
            if m.group(3) == "级":  # 5级至1级: the lower rank is the larger number
                low, high = (low, high) if (to_int(m.group(2)) or 0) >= (to_int(m.group(4)) or 0) else (high, low)
            draft.put(("divisions", at, "eligibility", "min_rank"), low, s)
            draft.put(("divisions", at, "eligibility", "max_rank"), high, s)
    for s, m in find(draft, rf"(?:业余)?({NUM})段(?:\(含{NUM}段\))?以上(?:\(含{NUM}段\))?(?:的)?(?:棋手|棋士|围棋爱好者|选手)"):
        if (s.under("资格", "对象") or "资格" in s.norm) and len(divisions(draft)) == 1 and \
                not re.search(r"组|男子|女子", s.norm):
            _all(draft, "min_rank", f"{to_int(m.group(1))}段", s)  # 业余4段以上(含4段)的围棋爱好者
    for s, m in find(draft, rf"(?:出生于|须为)?{_D}(?:\(含\))?(?:及|或)?以后出生"):
        if len(divisions(draft)) == 1 and (s.under("资格", "对象", "报名") or "资格" in s.norm) and \
                not re.search(r"组:|组\(|父母|家长|亲属", s.norm):
            day = make_date(*(int(x) for x in m.group(1, 2, 3)))
            if day is not None:
                _all(draft, "born_from", day, s)
    found = first(draft, r"须代表.*参赛")
    if found:
        _all(draft, "represent_rule", clause(found[0]), found[0])
    for s in draft.sentences:  # 获得2025年全国围棋定段赛少年男子组第15-21名: entry by places won elsewhere
        if s.under("资格", "对象") and re.match(r"^获得.{2,40}?(?:第\d|前\d|第[一二三四五六七八九十])", s.norm):
            _all(draft, "routes", ["qualified"], s)
            break
    for s in draft.sentences:
        if "参赛选手为" not in s.norm and not re.search(r"参赛选手可?直接", s.norm):
            continue
        targets = named_in(draft, s.norm.split("参赛选手")[0])
        routes = [r for w, r in _ROUTES if w in s.norm and not (r == "invited" and "外卡" in s.norm)]
        for i in targets:
            draft.put(("divisions", i, "eligibility", "routes"), list(dict.fromkeys(routes)), s)
        if "审核通过后方可参赛" in s.norm:
            for i in targets:
                draft.put(("divisions", i, "eligibility", "approval_required"), True, s)
            draft.put(("registration", "approval_required"), True, s)
        elif targets:
            for i in targets:
                draft.put(("divisions", i, "eligibility", "approval_required"), False, s)
    for s, m in find(draft, r"\(棋手也可选择参加(\S{1,4}组)比赛\)"):
        _instead(draft, s, m.group(1))
    for s, m in find(draft, r"根据参赛人数确定单独成组或与(\S{1,4}组)合并"):
        _merge(draft, s, m.group(1))


def _instead(draft: Draft, s: Sentence, other: str) -> None:
    j = by_name(draft, other)
    mine = named_in(draft, s.norm.split("(")[0])
    if j is None:
        return
    for i in mine:
        if i != j:
            draft.put(("divisions", i, "may_enter_instead"), [divisions(draft)[j]["id"]], s)


def _merge(draft: Draft, s: Sentence, other: str) -> None:
    j = by_name(draft, other)
    mine = [i for i in named_in(draft, s.norm.split("根据")[0]) if i != j]
    if j is None or not mine:
        return
    for i in mine:
        draft.put(("divisions", i, "merge"), {
            "into": divisions(draft)[j]["id"],
            "decided_by": f"根据参赛人数确定单独成组或与{other}合并竞赛",
            "separate_ranking": "分别计算名次" in s.norm,
        }, s)


def is_youth(draft: Draft, i: int) -> bool:
    """A division of children (its oldest players under 18 in the event's year)."""
    born_from = draft.get(("divisions", i, "eligibility", "born_from"))
    name = divisions(draft)[i]["name"]
    if any(w in name for w in ("少年", "幼儿", "少儿", "儿童", "小")):
        return True
    return isinstance(born_from, date) and draft.year is not None and draft.year - born_from.year < 18


def ranking(draft: Draft, i: int, kind: str, s: Sentence | None = None, name: str | None = None,
            **extra: Any) -> str:
    """The id of division ``i``'s ranking list of ``kind`` (mixed / M / F / age N), created
    when missing."""
    youth = is_youth(draft, i)
    rank_id = {"mixed": "mixed", "M": "boys" if youth else "men", "F": "girls" if youth else "women"}.get(
        kind, kind)
    lists = divisions(draft)[i].setdefault("rankings", [])
    for at, r in enumerate(lists):
        if r["id"] == rank_id:
            if s is not None:
                draft.cite(("divisions", i, "rankings", at), s)
            return rank_id
    div_name = divisions(draft)[i]["name"]
    default = {"mixed": f"{div_name}个人", "M": f"{div_name}男子", "F": f"{div_name}女子"}.get(kind, div_name)
    entry: dict[str, Any] = {"id": rank_id, "name": name or default}
    if kind in ("M", "F"):
        entry["gender"] = kind
    entry.update(extra)
    lists.append(entry)
    if s is not None:
        draft.cite(("divisions", i, "rankings", len(lists) - 1), s)
    return rank_id
