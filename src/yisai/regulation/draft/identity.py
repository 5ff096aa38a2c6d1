"""名称、年份、发文单位与日期、主办/支持/冠名/承办单位、竞赛项目、解释权、争议."""

from __future__ import annotations

import re
from datetime import date

from yisai.regulation.draft.common import after_colon, clause, find, first, items
from yisai.regulation.draft.model import Draft
from yisai.regulation.draft.numbers import dates

ROLES = (
    ("hosts", ("主办",)),
    ("supporters", ("支持", "指导")),
    ("title_sponsors", ("冠名",)),
    ("organisers", ("承办", "执行")),
    ("co_organisers", ("协办",)),
)


def read(draft: Draft) -> None:
    sentences = draft.sentences
    head = [s for s in sentences if not s.section][:3]
    name = "".join(s.text for s in head)
    name = re.sub(r"\s*竞赛规程$|\s*规程$", "", name).strip()
    if name:
        draft.put(("name",), name, *head)
    else:
        draft.lack(("name",), "规程标题（比赛名称）在哪里？ / What is the event's name?")
    m = re.search(r"(20\d{2}|19\d{2})", name)
    year = int(m.group(1)) if m else None
    issued = _issued(draft, year)
    if year is None and issued is not None:
        year = issued.year
    if year is not None:
        draft.year = year
        draft.put(("year",), year, *head)
    else:
        draft.lack(("year",), "比赛年份是哪一年？ / Which year is the event?")
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


def _issued(draft: Draft, year: int | None) -> date | None:
    """The issuer and date: the last dated line of the text, the line before it the issuer."""
    tail = draft.sentences[-4:]
    for i in range(len(tail) - 1, -1, -1):
        s = tail[i]
        found = re.fullmatch(r"(\d{4})年(\d{1,2})月(\d{1,2})日", s.norm)
        if found:
            on = dates(s.norm, None)
            by = tail[i - 1] if i > 0 else None
            if on:
                draft.put(("issued", "on"), on[0], s)
            if by is not None and len(by.text) <= 40 and not re.search(r"[，。：:]", by.text):
                draft.put(("issued", "by"), by.text, by)
            else:
                draft.lack(("issued", "by"), "规程由哪个单位发布（落款）？ / Who issued the regulation?")
            return on[0] if on else None
    draft.lack(("issued", "on"), "规程的发布日期（落款日期）是哪天？ / On which date was it issued?")
    last = draft.sentences[-1] if draft.sentences else None
    if last is not None and len(last.text) <= 40 and not re.search(r"[，。：:、]", last.text) and last.section:
        draft.put(("issued", "by"), last.text, last)
    else:
        draft.lack(("issued", "by"), "规程由哪个单位发布（落款）？ / Who issued the regulation?")
    return None


def _organisers(draft: Draft) -> None:
    for key, words in ROLES:
        names: list[str] = []
        for s in draft.sentences:
            if len(s.headings) != 1 or not any(w in s.headings[0] for w in words):
                continue
            if "单位" not in s.headings[0] and len(s.headings[0]) > 8:
                continue
            if s.section and s.text.rstrip("：:") == s.headings[0]:
                draft.use(s)
                continue
            body = after_colon(s) if s.text.startswith(s.headings[0]) else s.text
            body = body.rstrip("。")
            if not body:
                draft.use(s)
                continue
            found = items(body) if "、" in body and len(body) < 80 else [body]
            names += found
            draft.cite(("organisers", key), s)
        if names:
            draft.put(("organisers", key), names)
    if not draft.get(("organisers", "hosts")):
        draft.lack(("organisers", "hosts"), "主办单位是谁？ / Who hosts the event (主办单位)?")


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
