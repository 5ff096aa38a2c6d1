"""赛程: stages (海选/分站/复赛/总决赛, stages named in the organiser's words, or one main
stage), their dates, venues, platforms, periods and formats (积分编排 with its elimination,
分AB组+同名次决赛, 循环, 淘汰, 积分晋级制 in ladder.py); each stage's clock is stage_clocks.py."""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import datetime, time, timedelta
from typing import Any

from yisai.regulation.draft import divisions as divs
from yisai.regulation.draft import ladder, stage_clocks, stage_names
from yisai.regulation.draft.common import after_colon, clause, find, first
from yisai.regulation.draft.model import Draft
from yisai.regulation.draft.numbers import NUM, date_range, dates, make_date, span, to_int
from yisai.regulation.draft.stage_names import KINDS, pieces, stage_index, stage_of, stages
from yisai.regulation.draft.text import Sentence, norm, simplified


def read(draft: Draft) -> None:
    all_ids = [d["id"] for d in divs.divisions(draft)]
    present = [k for k in KINDS if any(any(w in s.norm for w in k[2]) for s in draft.sentences)]
    named = stage_names.declared(draft.sentences) if len(present) < 2 else []
    if named:
        present = []
        for at, n in enumerate(named):
            draft.put(("stages", at), {"id": n.id, "name": n.name, "kind": n.kind, "divisions": all_ids})
            draft.stage_words[at] = n.words
        _divisions_by_rank(draft, named)
    elif not present:
        draft.put(("stages", 0), {"id": "main", "name": "比赛", "kind": "main", "divisions": all_ids})
    for at, (sid, kind, words, label) in enumerate(present):
        draft.put(("stages", at), {"id": sid, "name": label, "kind": kind, "divisions": all_ids})
        _phase(draft, at, words, label)
    _dates(draft)
    _venues(draft)
    for i, st in enumerate(stages(draft)):
        if st["kind"] == "online_qualifier":
            ladder.read(draft, i)
    _formats(draft)
    _first_round(draft)
    stage_clocks.read(draft)
    _timetable(draft)
    for i, st in enumerate(stages(draft)):
        if "format" not in st:
            stage_words: tuple[str, ...] = next((w for sid, _, w, _ in KINDS if sid == st["id"]), ())
            found = next(((s, m) for s, m in find(draft, "组织形式另行通知")
                          if any(w in s.norm for w in stage_words)),
                         None) or first(draft, "组织形式另行通知")
            draft.put(("stages", i, "format"), {"kind": "announced_later", "note": "组织形式另行通知"},
                      *([found[0]] if found else []))
            about = _format_clause(draft, i) if not found else None
            if about is not None:
                draft.unread(("stages", i, "format"), f"{st['name']}的赛制", about, "赛制", "另行通知 (announced_later)")
            elif not found and not any(q.said is not None and q.path == ("stages", i, "format") for q in draft.open):
                draft.ask(("stages", i, "format"), f"{st['name']}的赛制",
                          f"{st['name']}采用什么赛制（积分编排制、循环赛、淘汰赛）？ / Which system?",
                          "另行通知 (announced_later)")


def _divisions_by_rank(draft: Draft, named: list[stage_names.Named]) -> None:
    """Stages of the players below and above a rank (5级及以下组 / 4级及以上组) take the divisions
    whose 段级位 bounds fall on their side; a division without bounds (6级以下男子, 4周岁组) goes
    to the weaker side, with an open point asking."""
    if not all(n.rank for n in named):
        return
    sides: dict[int, list[str]] = {at: [] for at in range(len(named))}
    unplaced: list[str] = []
    for d in divs.divisions(draft):
        low, high = d.get("eligibility", {}).get("min_rank"), d.get("eligibility", {}).get("max_rank")
        at = next((k for k, n in enumerate(named) if (n.side == "以下" and high and
                                                      divs.strength(high) <= divs.strength(str(n.rank)))
                   or (n.side == "以上" and low and divs.strength(low) >= divs.strength(str(n.rank)))), None)
        if at is None:
            unplaced.append(d["id"])
        else:
            sides[at].append(d["id"])
    weaker = next((k for k, n in enumerate(named) if n.side == "以下"), 0)
    sides[weaker] += unplaced
    for at, ids in sides.items():
        draft.put(("stages", at, "divisions"), ids or [d["id"] for d in divs.divisions(draft)])
    if unplaced:
        draft.ask(("stages", weaker, "divisions"), "组别属于哪个比赛日",
                  f"{'、'.join(d['name'] for d in divs.divisions(draft) if d['id'] in unplaced)} 的段级位无法判断属于哪一组比赛日，已放入{named[weaker].name}：对吗？ "
                  "/ Which day do these divisions play?", named[weaker].name, "（规程按段级位分日，此细节请确认）")


_FORMAT_WORDS = re.compile(r"赛制|编排|淘汰|循环|番棋|[三五]局[二两三]胜|细则|秩序册")


def _format_clause(draft: Draft, i: int) -> Sentence | None:
    """The clause on stage ``i``'s system the drafter could not read (of stages named in the
    organiser's words, one naming that stage) (决赛由挑战者与上届冠军进行三局两胜制的比赛; 各组别参照当地标准设定赛制): it is
    quoted, never called unstated."""
    for s in draft.sentences:
        if s.under("报名", "奖", "录取") or s.norm.endswith(":") or (s.headings and s.text.rstrip("：:") == s.headings[-1]):
            continue  # a heading line (比赛人数、赛制、时间: / 五、竞赛细则) states no system
        if not draft.stage_words:  # one stage: a clause on the system (比赛将进行三轮,首先抽签轮空一人…)
            if _FORMAT_WORDS.search(s.norm) or (s.under("赛制") and re.search(r"轮|抽签", s.norm)):
                return s
            continue
        if not _FORMAT_WORDS.search(s.norm):
            continue
        for idxs, part in pieces(draft, s):
            if i in idxs and _FORMAT_WORDS.search(norm(part)):
                return s
    return None


def _first_round(draft: Draft) -> None:
    """``报名结束后,由裁判组抽签``: the first round is drawn by lot, not seeded by rank."""
    found = first(draft, r"(?:报名结束后|赛前|第一轮)[,，]?(?:由)?[^,，。;]{0,6}抽签(?:配对|编排)?(?:[。;,，]|$)(?!决定)")
    if found and not re.search(r"抽签(?:决定|确定)(?:名次)?", found[0].norm[found[1].start():found[1].end() + 4]):
        draft.put(("pairing", "round1_seeding"), ["lot"], found[0])


def _phase(draft: Draft, at: int, words: tuple[str, ...], label: str) -> None:
    for s in draft.sentences:
        if "阶段" not in s.norm:
            continue
        pos = min((s.norm.find(w) for w in words if w in s.norm), default=-1)
        if pos < 0:
            continue
        phases = [(m.start(), to_int(m.group(1))) for m in re.finditer(rf"第({NUM})阶段", s.norm[:pos])]
        if phases and phases[-1][1]:
            phase = phases[-1][1]
            draft.put(("stages", at, "phase"), phase, s)
            draft.put(("stages", at, "name"), f"第{'一二三四五'[phase - 1] if phase <= 5 else phase}阶段·{label}")
            seg = s.norm[pos:pos + 30]
            scope = re.match(r"[^,、()]*\(([^)]*)\)", seg)
            if scope:
                named = divs.named_in(draft, scope.group(1))
                if named:
                    draft.put(("stages", at, "divisions"),
                              [divs.divisions(draft)[j]["id"] for j in named], s)
            return


_NOT_PLAY = re.compile(r"^(报名|报到|截止|名单公示|公示|领取|离会|颁奖)|报名(时间|日期|期|截止)|出生|以后|以前|之前")
"""A dated sentence that is not about the days of play: registration and check-in sections
give a window or a check-in day, a birth date is eligibility."""


def plays_on(s: Sentence) -> bool:
    """Whether a sentence can state the days of play: it sits under a 比赛时间/日期/日程 heading
    (or starts with 比赛时间:) and not under, or about, 报名 / 报到 / 资格."""
    if s.furniture and not re.match(r"^(比赛|竞赛)?(时间|日期)", s.norm):
        return False
    if s.under("报名", "报到", "资格", "对象", "组别", "分组") or _NOT_PLAY.search(s.norm):
        return False
    return s.under("日期", "时间", "日程", "赛程", "日 期") or bool(
        re.match(r"^(比赛|竞赛|本赛|初赛|决赛|预选赛|复赛)?(时间|日期)[:：]", s.norm))


def _dates(draft: Draft) -> None:
    year = draft.year
    if draft.get(("year",)) is None:
        for s in draft.sentences:
            m = re.search(r"((?:19|20)\d{2})年\d{1,2}月|(?:日期|时间)[:：]((?:19|20)\d{2})(?!\d{3})", s.norm)
            if m and plays_on(s):  # 比賽日期:201892()開賽: a copy that lost 年月日 still gives the year
                year = draft.year = int(m.group(1) or m.group(2))
                draft.put(("year",), year, s)
                break
    seen: dict[int, Sentence] = {}
    label = False  # after a bare 比赛时间: line, its numbered items (1)… (2)… are the days of play
    for s in draft.sentences:
        if re.match(r"^(比赛|竞赛)(时间|日期):", s.norm):
            label = True
        else:
            label = label and bool(re.match(r"^[(（]?\d", s.section or "-"))
        if not (plays_on(s) or (label and not _NOT_PLAY.search(s.norm))):
            continue
        if draft.stage_words:
            for idxs, part in pieces(draft, s):
                days = span(norm(part), year)
                for k in idxs:
                    if days is not None:
                        _put_days(draft, k, days, s, seen)
            continue
        found = span(s.norm, year)
        if found is None:
            continue
        i = stage_of(draft, s.norm.split(":")[0] if ":" in s.norm else s.norm)
        if i is None:
            continue
        if re.match(r"^第\d+期", s.norm):
            continue
        if not _put_days(draft, i, found, s, seen):
            continue
        month = found[0].month
        m = re.search(r"(?:其中|,)(?:\d{1,2}月)?(\d{1,2})[号日](?:\d{1,2}:\d{2}|[上中下]午)?报到", s.norm)
        if m:
            day = make_date(found[0].year, month, int(m.group(1)))
            draft.put(("stages", i, "check_in"), day, s)
        m = re.search(r"(\d{1,2})[号日]([上中下]午)?离会", s.norm)
        if m:
            day = make_date(found[1].year, found[1].month, int(m.group(1)))
            draft.put(("stages", i, "departure"), f"{day} {m.group(2) or ''}离会", s)
    title_year = draft.get(("year",))
    for i, st in enumerate(stages(draft)):
        if st.get("start") and isinstance(title_year, int) and st["start"].year != title_year and i in seen:
            draft.ask(("stages", i, "start"), "比赛年份",
                      f"标题写{title_year}年，{seen[i].quote} 写的是{st['start'].year}年：哪一个对？ "
                      "/ The title's year and the dates' year differ: which is right?",
                      f"{st['start']}", "（两处写法不一致，请确认）")
    periods = []
    first_day = first(draft, r"每期的?首日比赛从(\d{1,2})[点时:]")
    for s, m in find(draft, r"^第(\d+)期(.*)"):
        found = date_range(m.group(2), year)
        if not found:
            continue
        period: dict[str, Any] = {"number": int(m.group(1)), "start": found[0], "end": found[1]}
        if first_day and int(first_day[1].group(1)) < 24:
            period["first_day_start"] = time(int(first_day[1].group(1)))
        periods.append(period)
        i = stage_of(draft, "网络海选")
        if i is not None:
            draft.cite(("stages", i, "periods"), s)
    i = stage_of(draft, "网络海选")
    if periods and i is not None and stages(draft)[i]["kind"] == "online_qualifier":
        draft.put(("stages", i, "periods"), periods, *([first_day[0]] if first_day else []))
    for s, _ in find(draft, r"平行赛事|无递进关系"):
        i = stage_of(draft, "网络海选")
        if i is not None:
            draft.put(("stages", i, "details_note"), re.sub(r"^说明[：:]", "", clause(s)), s)


def _put_days(draft: Draft, i: int, found: tuple[Any, Any], s: Sentence, seen: dict[int, Sentence]) -> bool:
    """Stage ``i`` is played on ``found`` (widened by another clause within a week of it; two
    clauses further apart are an open point): whether the days were written."""
    st = stages(draft)[i]
    if i in seen and st.get("start"):
        if found[0] > st["end"] + timedelta(days=7) or found[1] < st["start"] - timedelta(days=7):
            draft.ask(("stages", i, "start"), "比赛日期",
                      f"两处比赛日期不一致：{seen[i].quote} / {s.quote}；以哪一处为准？ "
                      "/ Two clauses give different days of play: which one holds?",
                      f"{st['start']}–{st['end']}", "（两处写法不一致，请确认）")
            return False
        found = (min(found[0], st["start"]), max(found[1], st["end"]))
    seen.setdefault(i, s)
    draft.put(("stages", i, "start"), found[0], s)
    draft.put(("stages", i, "end"), found[1], s)
    return True


_VENUE = re.compile(r"(?:^|[,，;；\s])(?:比赛|竞赛|本赛|选拔|初赛、决赛|预选赛)?地\s*点\s*[:：]\s*(.+)")
_HELD_AT = re.compile(r"(?:均|将)?在(.{2,60}?)(?:举行|进行)")


def venue_words(text: str) -> str | None:
    """The venue a clause names, cut before a contact (``TEL…``, ``联系电话…``) or the next
    clause; None when what is left is not a place (a date, 具体待定, a phone number)."""
    text = text.strip().rstrip("。")
    text = re.split(r"\s{2,}|\s(?=\S+[:：])|TEL|Tel|tel|电话|聯絡|联系", text)[0].strip()
    depth = 0
    for k, ch in enumerate(text):  # the first separator outside brackets ends the place
        depth += (ch in "(（") - (ch in ")）")
        if depth <= 0 and ch in "，,;；。":
            text = text[:k]
            break
    text = re.sub(r"\([^)]*$|（[^）]*$", "", text).strip()  # a bracket the contact cut open
    if len(text) < 2 or re.search(r"\d{1,2}月|待定|另行|\d{7,}|@", text):
        return None
    return text


def _venues(draft: Draft) -> None:
    """A venue is taken from a clause that says 地点 (or a section titled 地点), never from a
    报名/报到 section or a contact line; two clauses naming different venues → an open point."""
    seen: dict[int, Sentence] = {}
    for s in draft.sentences:
        if s.under("报名", "报到") or re.match(r"^(报名|报到)", s.norm):
            continue
        if draft.stage_words:
            if not s.furniture:
                for idxs, part in pieces(draft, s):
                    m = _VENUE.search(simplified(part))
                    held = _HELD_AT.search(part) if s.under("地点", "时间") and "线上" not in part else None
                    place = venue_words(part[m.start(1):] if m else held.group(1) if held else "")
                    if held and re.match(r"均", part[held.start():]):
                        idxs = list(draft.stage_words)  # 均在…举行: every stage
                    for k in idxs if place else []:
                        _put_venue(draft, k, str(place), s, seen)
            continue
        if s.under("平台") and s.under("地点") and ":" in s.norm:
            _platform(draft, s, s.norm.split(":", 1)[0])
            continue
        m = _VENUE.search(simplified(s.text))
        body: str | None = None
        head = ""
        before = draft.sentences[s.index - 1] if s.index else None
        if not m and s.under("地点") and ":" in s.norm and not s.furniture:
            # under a 地点 heading, one line per stage: （四）总决赛（…）：<venue> / （二）线下分站赛：详见补充通知
            head = s.norm.split(":", 1)[0]
            value = after_colon(s).rstrip("。")
            if head in ("时间", "报到时间") or re.search(r"\d{1,2}月\d{1,2}日", value) or not value or \
                    not re.search(r"地点|场地|赛", head) or re.search(r"时间|日期|安排|公示|报名", head):
                continue  # 时间安排:周末、节假日 / 19路围空:4级以上 is no place
            i = stage_of(draft, head) if head not in ("地点", "比赛地点") else stage_of(draft, "")
            if i is not None:
                seen.setdefault(i, s)
                draft.put(("stages", i, "venue"), value, s)
            continue
        if m:
            body = s.text[m.start(1):]
            head = s.norm[:s.norm.find("地点")] if "地点" in s.norm else ""
        elif before is not None and before.norm in ("地点", "比赛地点", "地点:", "比赛地点:"):
            body = s.text
            draft.use(before)
        elif s.under("地点") and s.headings[-1] and norm_title(s.headings[-1]).endswith("地点") \
                and s.text.rstrip("：:") != s.headings[-1] and not re.search(r"[:：]|年|月|日|轮|时间", s.norm) \
                and re.search(r"[省市区县镇村路街号楼层馆室院校园场所厦店心]", s.norm):
            body = s.text  # a line that names a place (not the next heading, 比赛赛制)
        elif s.under("地点", "时间") and (held := _HELD_AT.search(s.text)) and "线上" not in s.norm:
            if any(stages(draft)[i].get("venue") for i in range(len(stages(draft)))):
                continue
            body = held.group(1)
        if body is None:
            continue
        place = venue_words(body)
        if place is None:
            continue
        i = stage_of(draft, head) if head.strip(":：") not in ("", "比赛", "竞赛") else stage_of(draft, "")
        if i is None:
            continue
        _put_venue(draft, i, place, s, seen)


def _put_venue(draft: Draft, i: int, place: str, s: Sentence, seen: dict[int, Sentence]) -> None:
    """Stage ``i`` is played at ``place``; a second clause naming another is an open point."""
    have = stages(draft)[i].get("venue")
    if have and have != place and i in seen:
        draft.ask(("stages", i, "venue"), "比赛地点",
                  f"两处比赛地点不同：{seen[i].quote} / {s.quote}；以哪一处为准？ "
                  "/ Two clauses name different venues: which one holds?", have, "（两处写法不一致，请确认）")
        return
    seen.setdefault(i, s)
    draft.put(("stages", i, "venue"), place, s)


def norm_title(title: str) -> str:
    return "".join(title.split())


def _platform(draft: Draft, s: Sentence, head: str) -> None:
    i = stage_of(draft, "网络海选")
    body = after_colon(s).rstrip("。")
    name = re.split(r"[（(]", body)[0]
    for j in divs.named_in(draft, head):
        div_id = divs.divisions(draft)[j]["id"]
        if i is not None:
            draft.put(("stages", i, "platforms", div_id), body, s)
        draft.put(("divisions", j, "platform"), name, s)


def _format_of(draft: Draft, s: Sentence) -> dict[str, Any] | None:
    t = s.norm
    boards = re.search(rf"每场({NUM})台", t)
    if boards and ("循环" in t or "积分编排" in t):
        fmt: dict[str, Any] = {"kind": "team_match", "system": "round_robin" if "循环" in t else "swiss",
                               "boards": to_int(boards.group(1)), "competition": "team"}
        rounds = re.search(rf"(?:赛|共)({NUM})轮", t)
        if rounds:
            fmt["rounds"] = to_int(rounds.group(1))
        for x in draft.sentences:
            match = re.search(rf"胜一场得({NUM})分,平一场得({NUM})分,负一场得({NUM})分", x.norm)
            if match:
                fmt["match_points"] = dict(zip(("win", "draw", "loss"), (to_int(g) for g in match.groups()),
                                               strict=True))
                draft.cite(("stages", 0, "format"), x)
            board = re.search(r"每盘胜局得(\d+(?:\.\d)?)分,和局得(\d+(?:\.\d)?)分,负局得(\d+(?:\.\d)?)分", x.norm)
            if board:
                fmt["board_points"] = dict(zip(("win", "draw", "loss"), (float(g) for g in board.groups()),
                                               strict=True))
        return fmt
    swiss_words = _SWISS.search(t)
    if not swiss_words and (("循环" in t and "小组" in t) or re.search(r"[单双]循环|循环赛|循环制", t)):
        groups = re.search(r"分为?([A-H](?:、?[A-H]){0,7})(?:[一二三四五六七八]个?)?小?组", t) or re.search(
            r"([A-H](?:、?[A-H]){1,7})(?:[一二三四五六七八]个?)?小?组", t)
        fmt = {"kind": "round_robin", "groups": re.findall(r"[A-H]", groups.group(1)) if groups else ["A"]}
        fmt["split"] = "lot" if "抽签分" in t else "snake"
        out = re.search(rf"各(?:小)?组前({NUM})名(?:出线|进入)", t)
        if out and "淘汰" in t:
            fmt["knockout"] = {"qualifiers_per_group": to_int(out.group(1)),
                               "third_place": bool(re.search(r"三、四名决赛|季军赛|第三名决赛", t))}
        return fmt
    if "分AB组" in t or "分A、B组" in t:
        m = re.search(rf"分A、?B组赛?({NUM})轮", t)
        final = re.search(rf"第({NUM})轮各组前({NUM})名同名次决赛", t)
        if m and final:
            return {"kind": "two_group_swiss", "groups": ["A", "B"], "group_rounds": to_int(m.group(1)),
                    "placement_final": {"round": to_int(final.group(1)), "top": to_int(final.group(2))}}
    if swiss_words:
        fmt = {"kind": "swiss"}
        elimination = _elimination(t)
        if elimination:
            fmt["elimination"] = elimination
        count = rounds_in(t)
        if count is not None:
            fmt["rounds"] = count[0]
            if count[1] or "视报名" in t:
                fmt["rounds_provisional"] = True
        return fmt
    if re.search(r"单败淘汰|淘汰赛|淘汰制", t) and "积分" not in t:
        return {"kind": "knockout"}
    return None


def _elimination(t: str) -> dict[str, Any]:
    """积分编排淘汰制 in a clause: 三败淘汰 (out after three losses), 三轮以后0分淘汰 (after round
    3, a score of at most 0 is out)."""
    out: dict[str, Any] = {}
    losses = re.search(rf"({NUM})败淘汰", t)
    if losses and (n := to_int(losses.group(1))):
        out["losses"] = n
    steps = [{"round": to_int(m.group(1)), "score_at_most": to_int(m.group(2))}
             for m in re.finditer(rf"第?({NUM})轮(?:以后|之后|后|结束后)({NUM})分(?:及以下)?(?:者|的棋手)?(?:被)?淘汰", t)]
    steps = [x for x in steps if x["round"] and x["score_at_most"] is not None]
    if steps:
        out["after_rounds"] = steps
    return out


_SWISS = re.compile(r"积分编排|编排制|瑞士制|电脑编排|积分循环\S{0,4}编排|编排赛制")
_ROUNDS = re.compile(rf"(暂定)?(?:赛|共|比赛|进行|共进行|各组比赛)?({NUM})轮(?!次|之|以|后|比赛时间|起)")


def rounds_in(t: str) -> tuple[int, bool] | None:
    """The number of rounds a clause states (``进行九轮``, ``赛6轮``, ``比赛共进行5轮``, ``采用8轮
    积分编排``) and whether it is provisional (暂定); None for ``第3轮`` or ``三轮以后``."""
    for m in _ROUNDS.finditer(t):
        if "第" in t[max(m.start() - 1, 0):m.start() + 1] or t[max(m.start(2) - 1, 0)] in "第-~至":
            continue
        n = to_int(m.group(2))
        if n is not None and 1 <= n <= 30:
            return n, bool(m.group(1))
    return None


def _formats_of_named_stages(draft: Draft) -> None:
    """Each stage named in the organiser's words takes the first system a part of a sentence
    naming it states (预选赛为公开赛模式,采用分组单败淘汰制); a sentence naming no stage sets none."""
    for s in draft.sentences:
        if s.under("报名", "奖", "录取"):
            continue
        for idxs, part in (stage_names.segments(draft.stage_words, s.text) and pieces(draft, s)) or []:
            fmt = _format_of(draft, replace(s, norm=norm(part)))
            for i in idxs if fmt else []:
                if "format" not in stages(draft)[i]:
                    draft.put(("stages", i, "format"), dict(fmt or {}), s)
    for s in draft.sentences:  # 比赛共6轮,采用积分编排制, naming no stage: every stage still without one
        if s.under("报名", "奖", "录取") or re.search(stage_names.WORD, stage_names.key(s.text)) \
                or stage_names.segments(draft.stage_words, s.text):
            continue
        fmt = _format_of(draft, s)
        for i, st in enumerate(stages(draft)) if fmt else []:
            if "format" not in st:
                draft.put(("stages", i, "format"), dict(fmt or {}), s)


def _formats(draft: Draft) -> None:
    if draft.stage_words:
        _formats_of_named_stages(draft)
        _format_fallbacks(draft)
        return
    for s in draft.sentences:
        fmt = _format_of(draft, s)
        if fmt is None:
            continue
        head = s.norm.split(":")[0] if ":" in s.norm else s.norm
        i = stage_of(draft, head)
        if i is None:
            continue
        st = stages(draft)[i]
        named = [divs.divisions(draft)[j]["id"] for j in divs.named_in(draft, head)]
        if "format" not in st:
            if fmt["kind"] == "round_robin" and len(fmt["groups"]) > 1 and "knockout" not in fmt:
                draft.unread(("stages", i, "format"), "赛制", s,
                             f"分{len(fmt['groups'])}组各自循环、不合成总名次（格式不能表示，已按一组写入）", "一组循环")
                fmt["groups"] = ["A"]
            draft.put(("stages", i, "format"), fmt, s)
            if fmt["kind"] == "two_group_swiss":
                draft.assume(("stages", i, "format", "split"), "snake", "分组方式",
                             "A、B组如何分：按段位/等级分蛇形 (snake) 还是抽签 (lot)？ / How are the groups split?")
                draft.assume(("stages", i, "format", "placement_final", "below_rule"), "interleave",
                             "同名次决赛以外的名次",
                             "同名次决赛以外的名次如何排列？默认按组内名次交替排列A、B组 / Places below the final?")
            if "rounds" not in fmt and fmt["kind"] == "swiss":
                draft.ask(("stages", i, "format", "rounds"), "轮数",
                          "比赛共几轮？规程说视报名情况而定 / How many rounds?", "视报名情况而定（不填）", "（规程说视报名情况而定）")
        else:
            for div_id in named:
                draft.put(("stages", i, "formats_by_division", div_id), fmt, s)
            if "rounds" not in fmt:
                draft.ask(("stages", i, "formats_by_division"), "轮数",
                          f"{'、'.join(named) or '这些组别'}共几轮？规程说视报名情况而定 / How many rounds?",
                          "视报名情况而定（不填）", "（规程说视报名情况而定）")
    _format_fallbacks(draft)
    _rounds_by_division(draft)
    for s, _ in find(draft, r"比赛细则将在|具体比赛细则|细则将在|具体细则将"):
        head = s.norm.split(":")[0] if ":" in s.norm else ""
        i = stage_of(draft, head) if head else None
        if i is None:
            i = stage_index(draft, "final") if "竞赛补充规定" in s.norm else None
        if i is None and len(stages(draft)) == 1:
            i = 0  # the one stage's details are left to a supplement
        if i is None:
            continue
        text = after_colon(s) if ":" in s.norm else s.text
        text = text.rstrip("。")
        if stages(draft)[i]["kind"] == "regional" and "若干场" in text:
            text = "设若干场，" + text.split("，", 1)[-1].replace("比赛细则", "比赛细则")
        draft.put(("stages", i, "details_note"), text, s)


def _timetable(draft: Draft) -> None:
    """Rounds at a date and time, where the text gives both: ``比赛日程:8月26日、8月27日…`` with
    ``每个比赛日12:00开始比赛`` and one day per round (as many days as the stage's rounds), or
    ``首局开赛时间为…2月19日21:00`` (round 1)."""
    if len(stages(draft)) != 1:
        return
    st = stages(draft)[0]
    rounds = st.get("format", {}).get("rounds")
    clock = first(draft, r"每(?:个|一)?比赛日(?:均于|于)?(\d{1,2})[:：](\d{2})开始")
    if clock and isinstance(rounds, int):
        for s in draft.sentences:
            days = sorted(set(dates(s.norm, draft.year)))
            if not s.under("日程", "赛程") or len(days) != rounds or rounds < 2:
                continue
            hour, minute = int(clock[1].group(1)), int(clock[1].group(2))
            if hour > 23 or minute > 59:
                return
            draft.put(("stages", 0, "timetable"), [
                {"at": datetime.combine(d, time(hour, minute)), "round": k + 1} for k, d in enumerate(days)],
                s, clock[0])
            return
    found = first(draft, rf"首(?:局|轮)(?:比赛)?开赛时间为?(?:北京时间)?(?:{NUM}年)?(\d{{1,2}})月(\d{{1,2}})日(\d{{1,2}})[:：](\d{{2}})")
    if found and draft.year:
        _, m = found
        day = make_date(draft.year, int(m.group(1)), int(m.group(2)))
        hour, minute = int(m.group(3)), int(m.group(4))
        if day is not None and hour <= 23 and minute <= 59:
            draft.put(("stages", 0, "timetable"), [{"at": datetime.combine(day, time(hour, minute)), "round": 1}],
                      found[0])


def _covers(draft: Draft, j: int, word: str) -> bool:
    """Whether division ``j`` is the one ``word`` (无级组, 9级组) names: by name, or a rank group
    inside the division's 段级位 bounds (9级组 of a 10-9级组)."""
    d = divs.divisions(draft)[j]
    if word in (d["name"], d["name"].removesuffix("组")):
        return True
    m = re.fullmatch(rf"({NUM})([段级])组?", word)
    low, high = d.get("eligibility", {}).get("min_rank"), d.get("eligibility", {}).get("max_rank")
    if not m or not low or not high:
        return False
    n = to_int(m.group(1)) or 0
    value = n - 1 if m.group(2) == "段" else -n

    def scale(r: str) -> int:
        k = to_int(r[:-1]) or 0
        return k - 1 if r.endswith("段") else -k
    return scale(low) <= value <= scale(high)


def _rounds_by_division(draft: Draft) -> None:
    """``无级组、9级组、10级组比赛进行5轮,其他组别比赛进行7轮``: the stage plays the rounds of
    其他组别; the divisions named first play theirs (formats_by_division)."""
    for s, m in find(draft, rf"^((?:[^,;:]{{1,8}}组、?)+)(?:比赛)?(?:进行|共)({NUM})轮,其[他它余](?:各)?组(?:别)?(?:比赛)?(?:进行|共)({NUM})轮"):
        if len(stages(draft)) != 1 or stages(draft)[0].get("format", {}).get("kind") != "swiss":
            continue
        words = [w for w in m.group(1).split("、") if w]
        named = [j for j in range(len(divs.divisions(draft))) if any(_covers(draft, j, w) for w in words)]
        few, rest = to_int(m.group(2)), to_int(m.group(3))
        if not named or not few or not rest:
            continue
        fmt = dict(stages(draft)[0]["format"])
        draft.put(("stages", 0, "format", "rounds"), rest, s)
        for j in named:
            draft.put(("stages", 0, "formats_by_division", divs.divisions(draft)[j]["id"]), {**fmt, "rounds": few}, s)


_CANNOT = (
    (r"双循环", "双循环（格式只能写单循环）"),
    (r"擂台赛", "擂台赛（格式不能表示）"),
    (r"随机配对", "随机配对（格式不能表示）"),
    (r"败者对阵|败者组|败者复活", "败者再赛的淘汰（格式不能表示）"),
    (r"[三五]局[二两三]胜|[三五]番棋|[三五]战[二两三]胜", "番棋/几局几胜（格式不能表示）"),
    (r"挑战赛|挑战权|挑战决赛", "挑战赛（格式不能表示）"),
)


def _format_fallbacks(draft: Draft) -> None:
    """A stage whose clauses name no system but give a number of rounds and speak of 编排
    (``各组比赛7轮``, ``采用…软件进行编排``) is a Swiss; a clause with two round counts for different
    divisions, or a system the format cannot hold, is an open point quoting it."""
    for i, st in enumerate(stages(draft)):
        path = ("stages", i, "format")
        if "format" not in st and len(stages(draft)) == 1:
            rounds = next(((s, r) for s in draft.sentences if (r := rounds_in(s.norm)) and not s.under("报名")), None)
            paired = next((s for s in draft.sentences if "编排" in s.norm), None)
            if rounds and paired and not any("随机配对" in x.norm for x in draft.sentences):
                draft.put(path, {"kind": "swiss", "rounds": rounds[1][0]}, rounds[0], paired)
        fmt = st.get("format") or {}
        said: set[str] = set()
        for s in draft.sentences:
            if s.under("报名", "奖", "录取"):
                continue
            counts = {to_int(m.group(1)) for m in re.finditer(rf"(?<!第)({NUM})轮(?!次|以|之|后)", s.norm)}
            if fmt.get("kind") == "swiss" and len(counts - {None}) > 1 and draft.sources.get(path) and \
                    s.index in draft.sources[path]:
                draft.unread(path, "赛制", s, "各组别不同的轮数（已按第一个写入）", f"{fmt.get('rounds')}轮")
            for pattern, what in _CANNOT:
                if what not in said and re.search(pattern, s.norm):
                    draft.unread(path, "赛制", s, what, fmt.get("kind", "announced_later"))
                    said.add(what)
