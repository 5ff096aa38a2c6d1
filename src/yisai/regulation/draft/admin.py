"""Around the games: fees and refunds, registration windows and documents, 报到, appeals,
officials, obligations and conduct rules."""

from __future__ import annotations

import re
from datetime import date, datetime
from typing import Any

from yisai.regulation.draft import stages as stg
from yisai.regulation.draft.common import clause, find, first, items
from yisai.regulation.draft.model import Draft
from yisai.regulation.draft.numbers import NUM, dates, make_date, span, to_int

_FEE_WORDS = ("食宿费", "交通费", "住宿费", "餐费", "差旅费", "费")


def read(draft: Draft) -> None:
    _rules(draft)
    _fees(draft)
    _registration(draft)
    _documents(draft)
    _appeals(draft)
    _officials(draft)
    _conduct(draft)


def _rules(draft: Draft) -> None:
    found = first(draft, r"(?:采用|执行)((?:(?!采用|执行)[^,;。:《])*?(?:《[^》]{1,40}规则[^》]{0,20}》|规则))")
    if found:  # the rules named, without the verb and the clauses after it (贴目, 用时)
        draft.put(("rules", "rules_text"), found[1].group(1), found[0])
    komi = first(draft, r"贴(3又3/4|3¾|三又四分之三|3.75)子|贴目7.5|贴7目半")
    half = first(draft, r"贴还?(?:六目半|6目半|6\.5目)")
    if komi:
        draft.put(("rules", "komi"), 7.5, komi[0])
    elif half:
        draft.put(("rules", "komi"), 6.5, half[0])
    else:
        draft.ask(("rules", "komi"), "贴目", "规程未写贴目：按中国规则黑贴3¾子 (7.5目)？ / Komi?", "7.5")
    online = any(st["kind"] == "online_qualifier" for st in stg.stages(draft))
    if online:
        draft.assume(("rules", "superko"), "positional", "全局同形与循环劫",
                     "线上对局由服务器判定：按全局同形禁止 (positional)？线下对局如何判？ / Superko?")
    else:
        draft.assume(("rules", "superko"), "simple_ko", "全局同形与循环劫",
                     "线下对局按简单劫 (simple_ko)、出现循环劫判无胜负 (cycle_result = void)？ / Superko?")
        draft.assume(("rules", "cycle_result"), "void", "全局同形与循环劫",
                     "出现循环劫判无胜负 (void) 还是和棋 (draw)？ / A triple ko: void or draw?")


_SUBJECT = re.compile(r"^(?:预选赛|决赛|本赛)?(?:所有|各)[\u4e00-\u9fff]{0,4}?(?:棋手|选手|队员|代表队|队)")
"""``所有参赛棋手`` / ``各代表队``: who pays, not what is paid."""


def _self_paid(words: list[str]) -> list[str]:
    """``食宿、交通费`` → 食宿费, 交通费: the last item's 费 applies to the items before it."""
    if len(words) > 1 and words[-1].endswith("费"):
        return [w if w.endswith(("费", "费用")) else w + "费" for w in words]
    return words


def _self_paid_words(phrase: str) -> list[str]:
    """What a ``…自理`` clause says the players pay themselves (所有参赛棋手食宿及交通费 → 食宿费,
    交通费; 参赛期间各项费用; 食宿), or nothing when the clause is not about costs."""
    phrase = _SUBJECT.sub("", phrase.strip())
    words = [w for w in items(phrase) if w]
    if not words or not re.search(r"费|食宿|住宿|交通|差旅|车旅", phrase):
        return []
    return _self_paid(words)


def _fees(draft: Draft) -> None:
    fees: list[dict[str, Any]] = []
    self_paid: list[str] = []
    notes: list[str] = []
    online = [st["id"] for st in stg.stages(draft) if st["kind"] == "online_qualifier"]
    offline = [st["id"] for st in stg.stages(draft) if st["kind"] != "online_qualifier"]
    for s in draft.sentences:
        if not s.under("费用", "收费", "经费") and not re.search(r"报名费|参赛费", s.norm):
            continue
        t = s.norm
        if len(re.findall(r"(?:报名费|参赛费)[^元,;。]{0,8}?\d+元", t)) > 1:
            draft.unread(("fees", "items"), "报名", s, "不同组别的报名费", "不填")
            continue
        if m := re.search(r"^(.*?)(?:全程)?免费(?:参与|报名)", t):
            fees.append({"name": f"{m.group(1) or ''}报名费", "amount": 0,
                         **({"applies_to": online} if "线上" in t and online else {}), "note": clause(s)})
            draft.cite(("fees", "items"), s)
        elif m := re.search(rf"^(.*?)收取(\S*?费)({NUM})元", t):
            fee: dict[str, Any] = {"name": f"{m.group(1)}{m.group(2)}", "amount": to_int(m.group(3))}
            if "线下" in m.group(1) and offline:
                fee["applies_to"] = offline
            refund = next((x for x in draft.line_of(s) if "不予退还" in x.norm), None)
            if refund is not None:
                fee["refundable_if_absent"] = False
                fee["note"] = clause(refund)
                draft.cite(("fees", "items"), refund)
            fees.append(fee)
            draft.cite(("fees", "items"), s)
            paid = re.search(r"([\u4e00-\u9fff]*?)交通食宿费由参赛选手自理", t)
            if paid:
                self_paid += [f"{paid.group(1)}交通费", f"{paid.group(1)}食宿费"]
                draft.cite(("fees", "self_paid"), s)
        elif m := re.search(r"免收(\S*?费)", t):
            fees.append({"name": m.group(1), "amount": 0, "note": clause(s)})
            draft.cite(("fees", "items"), s)
        elif m := re.search(r"^([\u4e00-\u9fff、]+费)自理", t):
            words = items(_SUBJECT.sub("", m.group(1)))
            fee_word = next((w for w in _FEE_WORDS if words[0].endswith(w) and w != "费"), words[0])
            prefix = words[0].removesuffix(fee_word)
            self_paid += _self_paid([w if w.startswith(prefix) else prefix + w for w in words])
            draft.cite(("fees", "self_paid"), s)
        elif "费" in t and ("不退" in t or "详见" in t):
            notes.append(clause(s))
            draft.cite(("fees", "notes"), s)
        elif m := re.search(rf"(报名费|参赛费)(?:为|每人|:每人|:)?({NUM})元", t) or re.search(
                rf"(报名费|参赛费)[^元,;。]{{0,8}}?({NUM})元", t):
            fee = {"name": m.group(1), "amount": to_int(m.group(2))}
            if re.search(r"每队\S{0,3}(报名费|参赛费)", t):
                fee["per"] = "team"
            refund = next((x for x in draft.line_of(s) if "不予退还" in x.norm or "不退" in x.norm), None)
            if refund is not None:
                fee["refundable_if_absent"] = False
                draft.cite(("fees", "items"), refund)
            fees.append(fee)
            draft.cite(("fees", "items"), s)
    if fees:
        draft.put(("fees", "items"), fees)
    if not self_paid:
        for s, m in find(draft, r"(?:^|[,;:])([^,;:。]{2,30}?)均?自理"):
            words = _self_paid_words(m.group(1))
            if words:
                self_paid = words
                draft.cite(("fees", "self_paid"), s)
                break
    if self_paid:
        draft.put(("fees", "self_paid"), self_paid)
    if notes:
        draft.put(("fees", "notes"), notes)


def _capacity(draft: Draft) -> None:
    """限报40名 / 限额100人 (the whole event's entries) and 额满提前截止 (closes when full); a
    team's or a unit's quota (每队限报1名领队) is not the event's limit."""
    found = first(draft, rf"(?<![队位省市校部会区县])限(?:报|额|报名额)({NUM})(?:名|人)(?!领队|教练|队员)")
    if found is None or (n := to_int(found[1].group(1))) is None or n < 1:
        return
    draft.put(("registration", "capacity"), n, found[0])
    full = first(draft, r"额满(?:提前)?(?:截止|即止|为止)")
    if full is not None:
        draft.put(("registration", "close_when_full"), True, full[0])


def _registration(draft: Draft) -> None:
    year = draft.year
    for s, m in find(draft, r"于(\d{1,2})月(\d{1,2})日(\d{1,2}):(\d{2})前(?:填写|报名|提交)"):
        if year is None:
            break
        day = make_date(year, int(m.group(1)), int(m.group(2)))
        if day is None or int(m.group(3)) > 23 or int(m.group(4)) > 59:
            continue
        closes = datetime(day.year, day.month, day.day, int(m.group(3)), int(m.group(4)))
        who = re.split(r"于", s.text, maxsplit=1)[0]
        draft.put(("registration", "windows"), [{"who": who, "closes": closes}], s)
        if draft.get(("teams",)) is not None:
            draft.put(("teams", "registration_to"), closes, s)
        if "上传" in s.norm and "附件" in s.norm:
            draft.put(("registration", "attachments", "deadline"), closes, s)
            draft.put(("registration", "attachments", "deadline_wording"), clause(s), s)
            pattern = first(draft, r"附件名称命名为“(.+?)”$|附件名称命名为“(.+)”")
            if pattern:
                found = re.search(r"命名为“(.+)”", pattern[0].text)
                if found:
                    draft.put(("registration", "attachments", "name_pattern"), found.group(1), pattern[0])
            draft.ask(("registration", "attachments", "max_mb"), "报名附件的文件大小与格式",
                      "附件接受哪些格式、每个文件多大？ / Which file kinds and sizes?", "PDF、JPEG、PNG，10MB")
    contacts = [_contact(clause(s)) for s, _ in find(draft, r"@|联系[:人]|\d{11}") if not s.under("争议")]
    if contacts:
        draft.put(("registration", "contacts"), contacts,
                  *(s for s, _ in find(draft, r"@|联系[:人]|\d{11}") if not s.under("争议")))
    notes = [clause(s) for s, _ in find(draft, r"负有.*责任|完善.*参赛信息.*弃权")]
    if notes:
        draft.put(("registration", "notes"), notes, *(s for s, _ in find(draft, r"负有.*责任|完善.*参赛信息.*弃权")))
    for s, m in find(draft, r"报名时间为(\d{1,2})月(\d{1,2})日-+(\d{1,2})月(\d{1,2})日"):
        if year is None:
            break
        who = "城市代表队参赛棋手" if "城市代表队" in s.norm else "参赛棋手"
        opens = make_date(year, int(m.group(1)), int(m.group(2)))
        closes_on = make_date(year, int(m.group(3)), int(m.group(4)))
        if opens is None or closes_on is None:
            continue
        window = {"who": who, "opens": opens, "closes": closes_on}
        have = draft.get(("registration", "windows"), [])
        draft.put(("registration", "windows"), [*have, window], s)
    _capacity(draft)
    _channels(draft)
    if not draft.get(("registration", "windows")):
        _window(draft)
    arrival = first(draft, r"^报到时间:")
    if arrival and year is not None:
        days = dates(arrival[0].norm, year)
        place = first(draft, r"^报到地点:(.+)")
        if days:
            draft.put(("registration", "arrival", "day"), days[0], arrival[0])
            if place:
                draft.put(("registration", "arrival", "place"), place[0].text.split("：", 1)[-1].rstrip("。"),
                          place[0])
            insurance = first(draft, r"人身意外(伤害)?保险")
            if place:
                draft.put(("registration", "check_in"),
                          f"{days[0]} 报到，地点：{place[0].text.split('：', 1)[-1].rstrip('。')}", arrival[0], place[0])
            if insurance:
                draft.put(("registration", "arrival", "insurance_required"), True, insurance[0])
                draft.put(("registration", "arrival", "insurance_wording"), clause(insurance[0]), insurance[0])
            draft.ask(("registration", "arrival", "late_entry_from_round"), "未报到棋手与第一轮编排",
                      "未报到的棋手从第几轮起可补入编排？ / From which round may a late player join?", "第2轮")


_APPROVAL = "报名后，主办方审核通过后方可参赛"


def _channels(draft: Draft) -> None:
    """Registration channels without dates: ``中老年组参赛选手可直接登陆…进行报名``, a section
    ``邀请队报名方式``: windows with who, channel and the approval note, nothing enforced."""
    for s in draft.sentences:
        who = channel = None
        m = re.search(r"([\u4e00-\u9fff]{2,10}?参赛选手)可?直接登[陆录](.+?)进行报名", s.text)
        if m:
            who, channel = m.group(1), f"{m.group(2)} 直接报名"
        elif s.headings and s.headings[0].endswith("报名方式") and s.text != s.headings[0]:
            who = s.headings[0].removesuffix("报名方式")
            channel = re.split(r"[，,]报名后", s.text)[0].rstrip("。")
        if who and channel:
            window: dict[str, Any] = {"who": who, "channel": channel}
            if "审核通过后方可参赛" in s.norm:
                window["note"] = _APPROVAL
            have = draft.get(("registration", "windows"), [])
            draft.put(("registration", "windows"), [*have, window], s)


def _appeals(draft: Draft) -> None:
    found = first(draft, r"申诉")
    for s, m in find(draft, rf"({NUM})分钟内.*申诉费({NUM})元|申诉.*?({NUM})分钟内.*?申诉费({NUM})元"):
        minutes = to_int(m.group(1) or m.group(3))
        fee = to_int(m.group(2) or m.group(4))
        appeal: dict[str, Any] = {"window_minutes": minutes, "fee": fee, "written": "书面" in s.norm,
                                  "refunded_if_upheld": "胜诉退还" in s.norm}
        who = re.search(r"交(?:与|由)(\S+?)(?:处置|处理)", s.norm) or re.search(
            r"向([\u4e00-\u9fff]{0,12}?(?:仲裁委员会|仲裁组|组委会|裁判委员会))(?:提出|递交|书面)?申诉", s.norm)
        if who:  # 交由仲裁委员会处理 / 向仲裁委员会书面申诉
            appeal["handled_by"] = who.group(1)
        draft.put(("appeals",), appeal, s)
        break
    else:
        if found:
            draft.use(found[0])
    for s, m in find(draft, r"非裁判类争议(提交\S+处理)"):
        draft.put(("appeals", "non_referee_disputes"), m.group(1).rstrip("。"), s)


def _officials(draft: Draft) -> None:
    found = first(draft, r"裁判长由(\S+?)选派")
    if not found:
        return
    s = found[0]
    draft.put(("officials", "chief_referee"), "由" + s.text.split("由", 1)[1].split("，")[0].split(",")[0], s)
    rest = re.split(r"[，,]", s.text, maxsplit=1)
    if len(rest) == 2:
        draft.put(("officials", "others"), rest[1].rstrip("。"), s)
        roles = re.match(r"(.+?)等技术官员", rest[1])
        names = ["裁判长", *items(roles.group(1))] if roles else ["裁判长"]
        draft.put(("officials", "roles"), names, s)


def _conduct(draft: Draft) -> None:
    conduct: list[str] = []
    for s, _ in find(draft, r"严格执行《"):
        conduct += [f"严格执行{m}" for m in re.findall(r"《[^》]{1,60}》", s.text)]
        draft.cite(("conduct",), s)
    for s in draft.sentences:
        if s.under("安全") and len(s.headings) > 1:
            conduct.append(clause(s))
            draft.cite(("conduct",), s)
    if conduct:
        draft.put(("conduct",), conduct)
    for s, m in find(draft, r"有义务参加(.+?活动),否则.*采取(.+?)等处罚"):
        duty = re.search(r"有义务(参加.+?活动)", s.text)
        penalties = items(m.group(2))
        draft.put(("obligations",), [{"duty": duty.group(1) if duty else m.group(1), "penalties": penalties}], s)


def _window(draft: Draft) -> None:
    """报名时间 in the forms seen (报名截止3月16日, 即日起至2月20日下午17:00止, 6月7日-18日 under a
    报名时间 heading, 于9月8日前将报名表报送…): one window for all entrants, wording kept."""
    year = draft.year
    if year is None:
        return
    for s in draft.sentences:
        if not (s.under("报名") or "报名" in s.norm) or (s.furniture and not re.search(r"截止|前|至", s.norm)):
            continue
        if re.search(r"出生|比赛时间|比赛日期|^报到", s.norm) or s.under("比赛时间", "比赛日期"):
            continue
        cut = s.norm.find("截止")
        found = span(s.norm[cut:] if cut >= 0 else s.norm, year)
        if found is None:
            continue
        who = re.match(r"^(?:[^:]{0,6}:)?(参赛各队|各参赛队|各队|各单位|参赛单位)", s.norm)
        window: dict[str, Any] = {"who": who.group(1) if who else "参赛棋手", "note": clause(s)}
        channel = re.search(r"用(电子邮件|邮件|电子邮箱|微信|电话)报名|在([\u4e00-\u9fffA-Za-z0-9.]{2,16}?)报名", s.norm)
        if channel:  # 用电子邮件报名 / 所有棋手均需在新浪网报名
            window["channel"] = channel.group(1) or channel.group(2)
        if cut >= 0:
            found = (found[0], found[0])  # 报名截止5月12日 领取参赛证5月19日: the first date closes
        elif found[0] != found[1] and "即日起" not in s.norm:
            window["opens"] = found[0]
        window["closes"] = _at_hour(s.norm, found[1])
        if re.search(r"逾期一?律?不(?:得|予|能|再)(?:报名|受理|接受|补报)|逾时不能补报|过期不候", s.norm):
            window["enforce"] = True  # the text refuses late entries: the window is applied
        draft.put(("registration", "windows"), [window], s)
        return


def _at_hour(text: str, day: date) -> date | datetime:
    """The closing day with the hour the text writes after it (2月20日(星期一)下午17:00止,
    9月8日下午6:00前 → 18:00), else the day."""
    for m in re.finditer(r"(\d{1,2})月(\d{1,2})[日号]?(?:\([^)]{0,4}\))?(上午|下午|晚上|中午)?(\d{1,2})[:：](\d{2})", text):
        if (int(m.group(1)), int(m.group(2))) != (day.month, day.day):
            continue
        hour, minute = int(m.group(4)), int(m.group(5))
        if m.group(3) in ("下午", "晚上") and hour < 12:
            hour += 12
        if hour <= 23 and minute <= 59:
            return datetime(day.year, day.month, day.day, hour, minute)
    return day


def _contact(text: str) -> str:
    """A contact line without the remarks after its last name, number or address
    (联系人:张永明,电话:15658222244,电话不受理报名 → …15658222244)."""
    parts = re.split(r"(?<=[,，;；])", text)
    while len(parts) > 1 and not re.search(r"\d{5,}|@|联系|电话[:：]", parts[-1]):
        parts.pop()
    return "".join(parts).rstrip(",，;； ")


_DOCUMENT = re.compile(r"(?:凭|须提供|须出示|需提供|需出示|须携带|需携带)(?:出具)?(?:的)?"
                       r"([^,，。;；()（）]{2,16}?(?:证明|证件|身份证|户口本|证书))")


def _documents(draft: Draft) -> None:
    """What an entrant shows (参赛凭出具公安局户籍证明为准, 参赛棋手须提供身份证明), where the
    drafter did not already read a list of papers."""
    if draft.get(("registration", "required_documents")):
        return
    found = [(s, m.group(1)) for s, m in find(draft, _DOCUMENT.pattern) if not s.under("奖", "录取", "申诉")]
    if found:
        draft.put(("registration", "required_documents"), list(dict.fromkeys(d for _, d in found)),
                  *(s for s, _ in found))
