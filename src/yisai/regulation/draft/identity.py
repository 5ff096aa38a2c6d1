"""名称、年份、发文单位与日期、主办/支持/冠名/承办单位、竞赛项目、解释权、争议."""

from __future__ import annotations

import re
from datetime import date

from yisai.regulation.draft.common import after_colon, clause, find, first, items
from yisai.regulation.draft.model import Draft
from yisai.regulation.draft.numbers import dates
from yisai.regulation.draft.text import Sentence, norm

ROLES = (
    ("hosts", ("主办", "举办")),
    ("supporters", ("支持", "指导")),
    ("title_sponsors", ("冠名",)),
    ("organisers", ("承办", "执行")),
    ("co_organisers", ("协办",)),
)


_TITLE_END = re.compile(r"(规程|办法|章程|补充规定|通知|比赛|赛|站|选拔)[』”」]?$")


def _title(draft: Draft) -> tuple[str, list[Sentence]]:
    """The event's name: the first line(s) before the numbered clauses that read as a title
    (ending in 赛/规程/办法/通知), never a dateline, byline, salutation (各学校:) or contact; else
    the event a notice's preamble announces (决定举办…).  A title cut into pieces by spaces
    (``丹阳市第八届“水博士”少儿围棋段位赛 主办单位:…``) gives its first piece."""
    head: list[Sentence] = []
    for s in draft.sentences:
        if s.section:
            break
        head.append(s)
    for at, s in enumerate(head[:8]):
        if s.furniture or re.search(r"[:：]$", s.norm) or len(s.norm) < 4:
            continue
        text, used = s.text.strip(), [s]
        nxt = head[at + 1] if at + 1 < len(head) else None
        if nxt is not None and (re.match(r"^\s*(暨|及|之)", nxt.text) or (
                len(nxt.text.strip()) <= 20 and re.search(r"(规程|办法|辦法)$", nxt.norm)
                and not re.search(r"(规程|办法|辦法)$", s.norm))):  # a title over two lines: …赛 / 暨…赛规程
            text, used = text + nxt.text.strip(), [s, nxt]
        for piece in re.split(r"\s+", text):
            piece = re.sub(r"(竞赛规程|规程|比赛办法|比賽辦法|比赛章程|章程|办法|辦法)?(\(更新\)|（更新）)?(发布)?$", "",
                           piece)
            if len(piece) >= 4 and _TITLE_END.search(norm(piece)) and not re.search(r"[，。,]", piece):
                return piece, used
    found = first(draft, r"(?:决定|拟|特)(?:组织)?(?:举办|开展)(.{4,60}?)(?:[,。]|现将|$)")
    if found:
        return found[1].group(1), [found[0]]
    return "", []


def read(draft: Draft) -> None:
    name, head = _title(draft)
    if name:
        draft.put(("name",), name, *head)
    m = re.search(r"(20\d{2}|19\d{2})", name)
    year = int(m.group(1)) if m else None
    issued = _issued(draft, year)
    if year is None and issued is not None:
        year = issued.year
    title_line = next((x for x in head[:2] if not x.furniture and re.search(r"(?:19|20)\d{2}年", x.norm)), None)
    if year is None and title_line is not None:  # 二月份 2024年 院生培訓: the year on the title line
        year = int(re.findall(r"((?:19|20)\d{2})年", title_line.norm)[0])
        head = [title_line]
    if year is not None:
        draft.year = year
        draft.put(("year",), year, *head)
    else:
        mentioned = _year_mentioned(draft)
        if mentioned is not None:
            draft.year, draft.year_said = mentioned[0], mentioned[1].index
    _organisers(draft)
    _events(draft)
    for s, _ in find(draft, r"解释权"):
        draft.put(("interpretation",), clause(s), s)
    for s, _ in find(draft, r"非裁判类争议|争议.*(提交|处理)"):
        draft.put(("disputes",), clause(s), s)
        break
    found = first(draft, r"官方网站(地址)?:([A-Za-z0-9.\-/:]+)")
    if found:
        s, m = found
        site = m.group(2).rstrip("，,。")
        account = re.search(r"微信公众号:([A-Za-z0-9_\-]+)", s.norm)
        draft.put(("website",), f"{site}（微信公众号 {account.group(1)}）" if account else site, s)


def _year_mentioned(draft: Draft) -> tuple[int, Sentence] | None:
    """A year the text mentions outside rule citations, birth dates and 年度 lists, else the
    year of a dateline (作者:组委会 2020-02-19): what a date without a year most likely means.
    Not written as the event's year by itself: the open point quotes the sentence it came from
    (unless the days of play give the year)."""
    for s in draft.sentences:
        if s.furniture or re.search(r"规则|审定|颁发|颁布|版|出生|年度|会费|排行|排名", s.norm):
            continue
        m = re.search(r"((?:19|20)\d{2})年", s.norm)
        if m:
            return int(m.group(1)), s
    for s in draft.sentences:
        m = re.search(r"(?<!\d)((?:19|20)\d{2})[-.年/]\d{1,2}[-.月/]\d{1,2}", s.norm) if s.furniture else None
        if m:
            return int(m.group(1)), s
    return None


_ISSUER_END = "协会|中心|棋院|委员会|工会|局|俱乐部|基金会|组委会|教室|学校|棋社|学院"


def _issued(draft: Draft, year: int | None) -> date | None:
    """The issuer and date: the last dated line of the text, the line before it the issuer."""
    tail = draft.sentences[-4:]
    for i in range(len(tail) - 1, -1, -1):
        s = tail[i]
        found = re.fullmatch(r"(\d{4})年(\d{1,2})月(\d{1,2})日", s.norm) if not s.furniture else None
        if found:
            on = dates(s.norm, None)
            by = tail[i - 1] if i > 0 else None
            if on:
                draft.put(("issued", "on"), on[0], s)
            if by is not None and len(by.text) <= 40 and not re.search(r"[，。：:]", by.text):
                draft.put(("issued", "by"), by.text, by)
            return on[0] if on else None
        joined = re.fullmatch(rf"([^\d,;:。]{{4,40}}?(?:{_ISSUER_END}))\s*(\d{{4}})年(\d{{1,2}})月(\d{{1,2}})日",
                              s.text.strip()) if not s.furniture else None
        if joined:  # 某市青少年活动中心某围棋教室 2010年8月5日: the sign-off on one line
            on = dates(joined.group(0), None)
            if on:
                draft.put(("issued", "on"), on[0], s)
                draft.put(("issued", "by"), joined.group(1).strip(), s)
                return on[0]
    last = draft.sentences[-1] if draft.sentences else None
    if (last is not None and len(last.text) <= 40 and not re.search(r"[，。：:、]", last.text) and last.section
            and not last.furniture and re.search(r"(协会|中心|棋院|委员会|工会|局|俱乐部|基金会|组委会)$", last.norm)):
        draft.put(("issued", "by"), last.text, last)
    return None


_LABEL = re.compile(r"^(?:联合|媒体)?(主办|举办|支持|指导|冠名|承办|协办|执行)(?:单位[:：]?|[:：])")
_ROLE_OF = {w: key for key, words in ROLES for w in words}


def _names(body: str) -> list[str]:
    """``A、B和C`` or names set apart by spaces (``珠海市围棋协会 珠海市珠江棋院``)."""
    body = body.strip().rstrip("。")
    out: list[str] = []
    for item in items(body) if "、" in body and len(body) < 80 else [body]:
        parts = re.split(r"\s+", item.strip())
        out += parts if len(parts) > 1 and all(len(p) >= 4 for p in parts) else [item.strip()]
    return out


def _organisers(draft: Draft) -> None:
    """Roles from a heading (二、承办单位) or from a line's own label (主办单位:…) — a label wins
    over the heading it sits under (一、组织机构 / 主办、承办单位), and unlabelled lines right after a
    label, in the same clause, continue it."""
    names: dict[str, list[str]] = {key: [] for key, _ in ROLES}
    last: tuple[str, str] | None = None  # (role, section) of the last labelled line
    for s in draft.sentences:
        label = _LABEL.match(s.norm)
        if label:
            key = _ROLE_OF[label.group(1)]
            body = after_colon(s) if re.search(r"[:：]", s.text) else s.text[label.end():]
            last = (key, s.section)
            if body.strip():
                names[key] += _names(body)
                draft.cite(("organisers", key), s)
            else:
                draft.use(s)
            continue
        if last and s.section == last[1] and len(s.text) <= 40 and not re.search(r"[:：，,。;；]", s.text):
            names[last[0]] += _names(s.text)
            draft.cite(("organisers", last[0]), s)
            continue
        last = None
        for key, words in ROLES:
            if len(s.headings) != 1 or not any(w in norm(s.headings[0]) for w in words):
                continue
            if "单位" not in norm(s.headings[0]) and len(s.headings[0]) > 8:
                continue
            if s.section and s.text.rstrip("：:") == s.headings[0]:
                draft.use(s)
                break
            body = after_colon(s) if s.text.startswith(s.headings[0]) else s.text
            if not body.rstrip("。"):
                draft.use(s)
                break
            names[key] += _names(body)
            draft.cite(("organisers", key), s)
            break
    sponsor = first(draft, r"^赞助单位[:：](\S+)")
    quoted = re.findall(r"“([^”]{2,8})”", str(draft.get(("name",)) or ""))
    if sponsor and any(w in sponsor[1].group(1) for w in quoted):  # “水博士”…赛, 赞助单位:…水博士纯净水厂
        names["title_sponsors"] += _names(after_colon(sponsor[0]))
        draft.cite(("organisers", "title_sponsors"), sponsor[0])
    for key, found in names.items():
        if found:
            draft.put(("organisers", key), list(dict.fromkeys(found)))


def _events(draft: Draft) -> None:
    out = []
    for s in draft.sentences:
        if not s.headings or ("竞赛项目" not in s.headings[0] and "比赛项目" not in s.headings[0]):
            continue
        if len(s.headings) == 1 and s.text.rstrip("：:") == s.headings[0]:
            draft.use(s)
            continue
        text = after_colon(s) if re.match(r"^(竞赛|比赛)(项目|组别)[:：]", s.norm) else s.text
        out.append(text.rstrip("。"))
        draft.cite(("events",), s)
    if out:
        draft.put(("events",), out)
