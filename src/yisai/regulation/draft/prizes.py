"""录取名次与奖励: prize lists (who, how many places, what is handed out, the amounts by
place range), their conditions (名次不再顺延, 可累积, 不足N人按总人数减1录取), special awards
(最佳女棋手, N岁以上), participation awards and 税前."""

from __future__ import annotations

import re
from typing import Any

from yisai.regulation.draft import divisions as divs
from yisai.regulation.draft.common import items
from yisai.regulation.draft.model import Draft
from yisai.regulation.draft.numbers import NUM, place_range, to_int
from yisai.regulation.draft.text import Sentence

_ROW = re.compile(rf"(冠军|亚军|季军|第[^元,、;。:]{{1,12}}?名)(?::)?(?:奖励|获得?|可获得?)?(?:颁发[^元:]{{0,20}}?)?"
                  rf"(?:每人|各)?(?:价值|奖金)?(?:人民币|新台币)?({NUM}(?:\.\d{{1,2}})?)(万)?元")
_SPREAD = re.compile(rf"第({NUM})(?:名)?(?:至|到|-)第?({NUM})名分别(?:获得?)?(?:奖金)?((?:{NUM}元、?)+)")
"""``第二至第八名分别获奖金1000元、800元、500元…``: one amount per place, in order."""
_HEAD = re.compile(rf"^(.{{0,40}}?)(?:分别)?录取前({NUM})名")
_TAKE = re.compile(rf"^(.{{0,20}}?)取((?:男子|女子)?)前({NUM})名((?:、(?:男子|女子)前{NUM}名)*)")
"""``个人:取男子前八名、女子前三名``, ``个人取前八名``, ``各组团体取前六名``: one head per list."""


_TEAM_TOP = re.compile(rf"^(团体|男子团体|女子团体)前({NUM})名")


def _takes(t: str) -> list[tuple[str, int]]:
    """The (who, places) of a 取前N名 sentence."""
    m = _TAKE.match(t)
    if not m or "段" in m.group(1):
        m = _TEAM_TOP.match(t)  # 团体前三名队伍获得优胜证书及奖品: a head without 取
        return [(m.group(1), to_int(m.group(2)) or 1)] if m else []
    out = [(m.group(1).rstrip(":：") + (":" + m.group(2) if m.group(2) else ""), to_int(m.group(3)) or 1)]
    for more in re.finditer(rf"、(男子|女子)前({NUM})名", m.group(4)):
        out.append((re.split(r"[:：]", m.group(1))[0] + ":" + more.group(1), to_int(more.group(2)) or 1))
    return out
MAX_HEADS = 100
"""录取 sentences read; a 规程 has a dozen (each may name several divisions)."""


_SEGMENT = re.compile(rf"冠军|亚军|季军|第{NUM}(?:名)?(?:(?:至|到|-)第?{NUM})?名|(?:本赛)?(?:{NUM}强|半决赛|决赛)败者")
"""Where a place's part of a prize sentence starts (第一名…; 第二至第八名…; 本赛8强败者…)."""


def _loser_range(word: str) -> tuple[int, int] | None:
    """``半决赛败者`` → (3, 4), ``本赛16强败者`` → (9, 16): the places a knockout round's losers share."""
    if "半决赛" in word:
        return 3, 4
    if word.endswith("决赛败者"):
        return 2, 2
    m = re.search(rf"({NUM})强", word)
    n = to_int(m.group(1)) if m else None
    return (n // 2 + 1, n) if n and n >= 4 and n % 2 == 0 else None


def _segment_rows(text: str) -> list[dict[str, Any]]:
    """Rows read place by place, for sentences that put other awards before the money
    (``第一名获奖杯壹座,奖金2000元``), pay goods (``第九至十二名各发给奖品500元``) or name knockout
    losers (``本赛8强败者获得18000元``)."""
    starts = list(_SEGMENT.finditer(text))
    out: list[dict[str, Any]] = []
    for k, m in enumerate(starts):
        part = text[m.end(): starts[k + 1].start() if k + 1 < len(starts) else len(text)]
        rng = _loser_range(m.group(0)) if "败者" in m.group(0) else place_range(m.group(0))
        if rng is None:
            continue
        spread = re.match(rf"^分别(?:获得?)?(?:奖金)?((?:{NUM}元、?)+)", part)
        if spread:
            amounts = [to_int(x) for x in re.findall(rf"({NUM})元", spread.group(1))]
            if len(amounts) == rng[1] - rng[0] + 1 and None not in amounts:
                out += [{"from": rng[0] + i, "to": rng[0] + i, "amount": n} for i, n in enumerate(amounts)]
            continue
        cash = re.search(rf"(?:奖金|获得?|奖励)(?:人民币)?({NUM}(?:\.\d{{1,2}})?)(万)?元", part)
        goods = re.search(rf"(奖品|纪念品|礼品)(?:价值)?({NUM})元", part)
        if cash and not (goods and goods.start() < cash.start() and goods.end() >= cash.end()):
            amount = _yuan(cash.group(1), cash.group(2))
            if amount is not None:
                out.append({"from": rng[0], "to": rng[1], "amount": amount})
        elif goods:
            out.append({"from": rng[0], "to": rng[1], "gift": f"{goods.group(1)}（价值{goods.group(2)}元）"})
    return out


def _covered(found: list[dict[str, Any]]) -> set[int]:
    return {p for r in found for p in range(r["from"], r["to"] + 1)}


def rows(text: str) -> list[dict[str, Any]]:
    """``冠军60000元，第五名至第六名5000元`` → [{from, to, amount}, …] in the text's order; the
    place-by-place reading when it covers more places."""
    direct = _rows(text)
    by_place = _segment_rows(text)
    return by_place if len(_covered(by_place)) > len(_covered(direct)) else direct


def _rows(text: str) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for m in _ROW.finditer(text):
        rng = place_range(m.group(1).removeprefix("各组").removeprefix("各"))
        amount = _yuan(m.group(2), m.group(3))
        if rng and amount is not None:
            out.append({"from": rng[0], "to": rng[1], "amount": amount})
    for m in _SPREAD.finditer(text):
        a, b = to_int(m.group(1)), to_int(m.group(2))
        amounts = [to_int(x) for x in re.findall(rf"({NUM})元", m.group(3))]
        if a is None or b is None or len(amounts) != b - a + 1 or None in amounts:
            continue
        out += [{"from": a + k, "to": a + k, "amount": n} for k, n in enumerate(amounts) if n is not None]
    return out


def _yuan(number: str, wan: str | None) -> int | None:
    """``1000`` → 1000, ``10`` + 万 → 100000, ``1.5`` + 万 → 15000."""
    if "." in number:
        return round(float(number) * (10_000 if wan else 1))
    n = to_int(number)
    return None if n is None else n * (10_000 if wan else 1)


def _lists(draft: Draft) -> list[dict[str, Any]]:
    return draft.doc.setdefault("prizes", {}).setdefault("lists", [])


def _list_id(draft: Draft, div_id: str, rank_id: str) -> str:
    return f"{div_id}-{rank_id}"


def read(draft: Draft) -> None:
    current: list[int] = []  # indexes of the lists the following table lines fill
    last_div: int | None = None
    prize_sentences = [s for s in draft.sentences if s.under("录取", "奖励", "奖项")]
    heads = [(s, m) for s in prize_sentences if (m := _HEAD.match(s.norm)) and "段" not in m.group(1)]
    takes = {s.index: found for s in prize_sentences if not _HEAD.match(s.norm) and (found := _takes(s.norm))}
    if len(heads) > MAX_HEADS:
        draft.lack(("prizes", "lists"), f"规程中有 {len(heads)} 句录取名次, 只读取了前 {MAX_HEADS} 句; 请检查")
    heads = heads[:MAX_HEADS]
    whos = [(s.index, m.group(1)) for s, m in heads] + [(at, who) for at, found in takes.items() for who, _ in found]
    whos.sort()
    read_heads = {s.index for s, _ in heads}
    for s in prize_sentences:
        t = s.norm
        head = _HEAD.match(t) if s.index in read_heads else None
        if head:
            current, last_div = _header(draft, s, head.group(1), to_int(head.group(2)) or 1, last_div, whos)
            if rows(t):
                _fill(draft, current, s)
            continue
        if s.index in takes:
            for who, places in takes[s.index]:
                made, last_div = _header(draft, s, who, places, last_div, whos)
                current = made
            continue
        per_div = re.match(r"^([^:]{1,8}?)组?男、女:", t)
        if per_div and rows(t):
            named = divs.named_in(draft, per_div.group(1) + "组")
            targets = [i for i, pl in enumerate(_lists(draft))
                       if any(pl["division"] == divs.divisions(draft)[j]["id"] for j in named)
                       and pl.get("ranking") in ("boys", "girls", "men", "women")]
            _fill(draft, targets, s)
            continue
        if rows(t) and current:
            _fill(draft, current, s)
        _special(draft, s, last_div)
        m = re.search(rf"其余棋手获参赛奖,奖励(?:价值)?({NUM})元", t)
        if m:
            ids = [pl["id"] for pl in _lists(draft) if pl.get("ranking")]
            division_ids = list(dict.fromkeys(pl["division"] for pl in _lists(draft) if pl.get("ranking")))
            draft.put(("prizes", "participation"), [{
                "divisions": division_ids, "excluding_lists": ids,
                "kind": "ecard" if "价值" in t else "cash", "amount": to_int(m.group(1))}], s)
        if "税前" in t:
            draft.put(("prizes", "pre_tax"), True, s)
    if not _lists(draft):
        _graded(draft)
    if not _lists(draft):
        _unheaded(draft)
    _whole_tables(draft)
    if not any("税前" in s.norm or "税后" in s.norm for s in draft.sentences) and _lists(draft):
        draft.ask(("prizes", "pre_tax"), "奖金是否为税前",
                  "规程未注明奖金为税前还是税后 / Are the amounts before tax?", "税前 (true)")
    for i, pl in enumerate(_lists(draft)):
        if pl.get("kind") != "honour" and not pl.get("rows"):
            draft.lack(("prizes", "lists", i, "rows"), f"{pl['name']}各名次的奖金是多少？")


def _header(draft: Draft, s: Sentence, who: str, places: int, last_div: int | None,
            whos: list[tuple[int, str]]) -> tuple[list[int], int | None]:
    who = re.split(r"[:：]", who)[-1]  # 录取名次及奖励:录取前十二名: the heading names no one
    named = divs.named_in(draft, who)
    if who.startswith("各组"):
        named = list(range(len(divs.divisions(draft))))
    if not named and last_div is None and len(divs.divisions(draft)) > 1 and not who.startswith(("男子", "女子")) \
            and not any(divs.named_in(draft, w) for _, w in whos):
        named = list(range(len(divs.divisions(draft))))  # 个人取前八名 in an event of several 组: each 组
    if not named:
        named = [last_div if last_div is not None and not who.startswith(("男子", "女子")) else 0]
    made: list[int] = []
    line = draft.line_of(s)
    t = "".join(x.norm for x in line)
    draft.use(*line)
    gave = re.search(r"颁发([^。;:]*)", t)
    things = [w for w in items(gave.group(1).rstrip(",")) if "电商卡" not in w] if gave else []
    ecard = "电商卡" in t
    if ecard:
        things.append("电商卡")
        draft.put(("prizes", "value_note"), (re.search(r"奖励相应价值电商卡", t) and "奖励相应价值电商卡") or "电商卡", s)
    kind = "ecard" if ecard else "cash" if "奖金" in things else "honour"
    if "团体" in who:
        comps = draft.get(("teams", "competitions"), [])
        want = "M" if "男子" in who else "F" if "女子" in who else None
        for comp in comps:
            if want is None or comp.get("gender") == want:
                pl = {"id": comp["id"] if comp["id"] == "team" else f"{comp['id']}-team",
                      "name": comp["name"], "division": comp["division"], "team_competition": comp["id"],
                      "places": places, "kind": kind, "items": things}
                made.append(_add(draft, pl, s))
        return made, last_div
    kinds: list[str]
    if "男、女" in who or "男女分别" in who:
        kinds = ["M", "F"]
    elif "女子" in who:
        kinds = ["F"]
    elif "男子" in who and "女子选手进入" not in t:
        kinds = ["M"]
    else:
        kinds = ["mixed"]
    for j in named:
        div = divs.divisions(draft)[j]
        for k in kinds:
            rank_id = divs.ranking(draft, j, k, s, name=f"{div['name']}{_label(who, div['name'])}"
                                   if k == "mixed" else None)
            only_one = len(kinds) == 1 and k == "mixed" and div["name"] in who and not any(
                p["division"] == div["id"] for p in _lists(draft))
            pl = {"id": div["id"] if only_one and not _more_lists(whos, s, div["name"]) else
                  _list_id(draft, div["id"], rank_id),
                  "name": f"{_shown_name(draft, j)}{_label(who, div['name']) if k == 'mixed' else {'M': '男子', 'F': '女子'}[k]}",
                  "division": div["id"], "ranking": rank_id, "places": places, "kind": kind, "items": things}
            if "名次不再顺延" in t:
                # 男子个人…（如有女子选手进入…名次不再顺延）: a men's list on the mixed places, the
                # women inside keeping theirs; a list of one gender read from a ranking by gender
                # needs no gender of its own (``regulation check`` refuses the flag elsewhere)
                other = "F" if "女子选手进入" in t else "M" if "男子选手进入" in t else None
                if k == "mixed" and other is not None:
                    pl["gender"] = "M" if other == "F" else "F"
                if k != "mixed" or other is not None:
                    pl["others_keep_place"] = True
            if "可累积" in t:
                mixed = [p["id"] for p in _lists(draft) if p["division"] == div["id"] and p.get("ranking") == "mixed"]
                if mixed:
                    pl["cumulative_with"] = mixed
            if re.search(r"不足\d+人,按照?总人数减1录取", t):
                pl["fewer_entrants"] = "n_minus_1"
            made.append(_add(draft, pl, s))
    return made, named[-1]


def _shown_name(draft: Draft, j: int) -> str:
    """The division's name as a list's prefix; none for the one division the drafter made up
    (比赛组, when the text names no 组别: its list is just 个人)."""
    name = str(divs.divisions(draft)[j]["name"])
    invented = len(divs.divisions(draft)) == 1 and ("divisions", j, "name") not in draft.sources
    return "" if invented else name


def _label(who: str, div_name: str) -> str:
    rest = who.replace(div_name, "").removeprefix("各组").strip()
    return rest or "个人"


def _more_lists(whos: list[tuple[int, str]], s: Sentence, div_name: str) -> bool:
    """Whether another 录取 sentence after ``s`` names the same division."""
    return any(at > s.index and div_name in who for at, who in whos)


def _add(draft: Draft, pl: dict[str, Any], s: Sentence) -> int:
    lists = _lists(draft)
    draft.put(("prizes", "lists", len(lists)), pl, s)
    return len(lists) - 1


def _fill(draft: Draft, targets: list[int], s: Sentence) -> None:
    found = rows(s.norm.split("(")[0] if "单设" in s.norm else s.norm)
    for i in targets:
        have = _lists(draft)[i].setdefault("rows", [])
        have += [r for r in found if r not in have]
        if _lists(draft)[i].get("kind") == "honour":
            _lists(draft)[i]["kind"] = "cash"
        draft.cite(("prizes", "lists", i, "rows"), s)


def _special(draft: Draft, s: Sentence, last_div: int | None) -> None:
    t = s.norm
    for m in re.finditer(rf"([\u4e00-\u9fff]{{1,5}}组)单设最佳女棋手奖,奖金({NUM})元", t):
        j = divs.by_name(draft, m.group(1))
        if j is None:
            continue
        div = divs.divisions(draft)[j]
        rank_id = divs.ranking(draft, j, "F", s)
        girl = "girl" if divs.is_youth(draft, j) else "woman"
        at = len(draft.get(("prizes", "special"), []))
        draft.put(("prizes", "special", at), {
            "id": f"{div['id']}-best-{girl}", "name": f"{div['name']}最佳女棋手奖", "division": div["id"],
            "ranking": rank_id, "gender": "F", "places": 1, "kind": "cash", "amount": to_int(m.group(2))}, s)
        draft.assume(("prizes", "special", at, "cumulative"), True, f"{div['name']}最佳女棋手奖与名次奖",
                     "最佳女棋手奖能否与名次奖累积？ / Does it add to a place prize?")
    age_m = re.search(rf"({NUM})岁以上选手第?({NUM})名?(?:至|到|-)第?({NUM})名奖励(.+)", t)
    if age_m and last_div is not None:
        age = to_int(age_m.group(1)) or 60
        div = divs.divisions(draft)[last_div]
        final = next((st for st in draft.get(("stages",), []) if st["kind"] in ("final", "main")), None)
        ref = final.get("start") if final else None
        extra: dict[str, Any] = {"min_age": age}
        if ref is not None:
            extra["age_reference"] = ref
        rank_id = divs.ranking(draft, last_div, f"age{age}", s, name=f"{div['name']}{age}岁以上", **extra)
        at = len(draft.get(("prizes", "special"), []))
        gift = age_m.group(4).rstrip("。")
        draft.put(("prizes", "special", at), {
            "id": f"{div['id']}-{age}plus", "name": f"{div['name']}{age}岁以上选手第一名至第八名",
            "division": div["id"], "ranking": rank_id, "min_age": age,
            "places": to_int(age_m.group(3)), "kind": "gift", "gift": gift}, s)
        if final:
            draft.assume(("prizes", "special", at, "age_reference"), final["id"], f"{age}岁以上的年龄计算日",
                         "年龄按哪一天计算？默认总决赛首日 / On which day is age counted?")
        draft.assume(("prizes", "special", at, "cumulative"), True, f"{age}岁以上奖与名次奖",
                     "能否与名次奖累积？ / Does it add to a place prize?")


_GRADE = re.compile(rf"([一二三四五六七八九十]等奖|优秀奖|鼓励奖|优胜奖)({NUM})名")


def _graded(draft: Draft) -> None:
    """``设一等奖1名、二等奖2名、三等奖4名、优秀奖6名``: graded awards are places in order (一等奖
    the 1st, 二等奖 the 2nd and 3rd, …); the list is of goods when the sentence says 物质奖励/奖品,
    else of honours."""
    for s in draft.sentences:
        found = list(_GRADE.finditer(s.norm))
        if len(found) < 2 or not (s.under("奖", "录取") or s.norm.startswith("设")) or not divs.divisions(draft):
            continue
        table: list[dict[str, Any]] = []
        at = 1
        for m in found:
            n = to_int(m.group(2))
            if not n:
                return
            table.append({"from": at, "to": at + n - 1, "gift": m.group(1)})
            at += n
        current, _ = _header(draft, s, "", at - 1, None, [])
        goods = re.search(r"物质奖励|奖品|礼品|纪念品", s.norm)
        for i in current:
            pl = _lists(draft)[i]
            pl["kind"] = "gift" if goods else "honour"
            pl["rows"] = [dict(r) for r in table]
            draft.cite(("prizes", "lists", i, "rows"), s)
        return


def _unheaded(draft: Draft) -> None:
    """Prize rows without a 录取前N名 sentence (``冠军:1000元``, ``第4-6名:200元``, ``各组第一名…奖金
    1000元``): one list for the places the rows cover, in the (first) division."""
    found: list[tuple[Sentence, list[dict[str, int]]]] = []
    for s in draft.sentences:
        if s.under("报名", "费用", "收费") or re.search(r"报名费|参赛费|申诉费", s.norm) or \
                (re.search(r"对局费", s.norm) and not s.under("奖")):
            continue
        got = rows(s.norm)
        if got and (s.under("奖", "录取") or re.match(r"^(冠军|亚军|季军|第)", s.norm)):
            found.append((s, got))
    if not found or not divs.divisions(draft):
        return
    places = max(r["to"] for _, got in found for r in got)
    every = "各组" in found[0][0].norm and len(divs.divisions(draft)) > 1
    current, _ = _header(draft, found[0][0], "各组" if every else "", places, None, [])
    for s, _ in found:
        _fill(draft, current, s)
    for i in current:
        _lists(draft)[i]["rows"].sort(key=lambda r: r["from"])


def _whole_tables(draft: Draft) -> None:
    """A list's amounts must cover places 1..N without gaps; a table the drafter read only in
    part (a place written as 第一名获奖杯壹座,奖金…, a range it could not read) is not written:
    its clauses become open points to check, and the list stays one of honours."""
    for i, pl in enumerate(_lists(draft)):
        got = sorted(pl.get("rows", []), key=lambda r: r["from"])
        if not got:
            continue
        expect, whole = 1, True
        for r in got:
            whole = whole and r["from"] == expect
            expect = r["to"] + 1
        if whole and expect - 1 == pl["places"]:
            continue
        path = ("prizes", "lists", i, "rows")
        for at in draft.sources.get(path, []):
            draft.unread(path, "奖金", draft.sentences[at], "各名次奖金（只读出一部分，未写入）", "不填")
        pl.pop("rows")
        pl["kind"] = "honour"
        draft.sources.pop(path, None)
