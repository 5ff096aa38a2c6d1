"""The 规程 drafter: a 竞赛规程's text → a regulation document, each value with the sentence it
came from, the open points, and the sentences that set nothing. Rules and phrase tables only
(no network, no model); pure, like the rest of the core. ``yisai.formats.regulation_draft``
reads files and writes the TOML."""

from __future__ import annotations

import re
from datetime import date

from yisai.regulation.draft import (
    admin,
    divisions,
    identity,
    lateness,
    prizes,
    promotions,
    rank_awards,
    ranking,
    stages,
    teams,
)
from yisai.regulation.draft.model import Draft, Missing, OpenQuestion, Path
from yisai.regulation.draft.text import MAX_TEXT_CHARS, Sentence, TextTooLong, split

__all__ = ["MAX_TEXT_CHARS", "Draft", "Missing", "OpenQuestion", "Sentence", "TextTooLong", "draft"]


def draft(text: str, event_id: str | None = None) -> Draft:
    """Read a 规程 text (raises TextTooLong past MAX_TEXT_CHARS)."""
    result = Draft(split(text))
    identity.read(result)
    divisions.read(result)
    stages.read(result)
    teams.read(result)
    ranking.read(result)
    prizes.read(result)
    rank_awards.read(result)
    promotions.read(result)
    lateness.read(result)
    admin.read(result)
    _finish(result, event_id)
    return result


def _required(d: Draft) -> None:
    """Every value the format requires is written: what the text does not give becomes a default
    with an open point saying so (the draft passes ``regulation check``; the director answers)."""
    start = next((st.get("start") for st in d.get(("stages",), []) if st.get("start")), None)
    if not d.get(("name",)):
        d.assume(("name",), "（请填写比赛名称）", "比赛名称",
                 "规程文本没有标题：比赛的正式名称是什么？ / The text has no title: the event's name?")
    if d.get(("year",)) is None:
        d.year = start.year if start else d.year or 2000
        if d.year_said is not None:
            d.put(("year",), d.year)
            d.unread(("year",), "比赛年份", d.sentences[d.year_said], f"比赛年份（已按此句写{d.year}年）", str(d.year))
        else:
            d.assume(("year",), d.year, "比赛年份",
                     "规程没有写明比赛年份：是哪一年？ / Which year? (the text does not say)")
    hosts = d.get(("organisers", "hosts"))
    if not hosts:
        fallback = (d.get(("organisers", "organisers")) or [d.get(("issued", "by"))])[0] or "（请填写主办单位）"
        d.assume(("organisers", "hosts"), [fallback], "主办单位",
                 "规程没有写主办单位：由谁主办？ / Who hosts the event? (the text does not say)")
    if not d.get(("issued", "by")):
        d.assume(("issued", "by"), d.get(("organisers", "hosts"))[0], "发布单位",
                 "规程没有落款：由哪个单位发布？ / Who issued the regulation? (no sign-off)")
    if not d.get(("issued", "on")):
        d.assume(("issued", "on"), start or date(d.year or 2000, 1, 1), "发布日期",
                 "规程没有落款日期：哪天发布？默认写比赛首日 / When was it issued? (no date)")


_TOPICS: tuple[tuple[str, str, Path, tuple[str, ...]], ...] = (
    # (topic, words, where the value would go, the generic questions a quoted clause replaces)
    ("名次", r"对手分|直胜|小分|名次区分|名次计算|积分相同|得分相同|逐轮", ("ranking", "criteria"),
     ("个人名次计算办法",)),
    ("报名", r"报名", ("registration",), ()),
    ("组别", r"组别|分组|设定?\S{0,3}组|段组|[A-Z甲乙丙丁]组[:(（]|[\u4e00-\u9fff\d-]{1,8}组[:：(（,，、;]", ("divisions",), ("组别",)),
    ("段位", r"授予|升段|升级|定段|段位证书|级位证书|升为|定为|段资格", ("rank_awards",), ()),
    ("奖金", r"奖金|\d元|万元|奖励", ("prizes",), ()),
    ("资格", r"参赛资格|参赛对象|参加资格|周岁|出生|年龄|以上(棋手|者)", ("divisions", 0, "eligibility"), ()),
    ("团体", r"团体|每队|队员|主将|胜场|场分|局分", ("teams",), ()),
)
"""Topics a director must see (用时 and 赛制 are quoted by the stage reader): a clause on one of
them the drafter did not use becomes an open point quoting it (未能读出, 请核对), never a
"规程未写明"."""


def _said_but_not_read(d: Draft) -> None:
    replaced: set[str] = set()
    for s in d.sentences:
        if s.index in d.used or (s.headings and s.text.rstrip("：:") == s.headings[-1]) or len(s.norm) < 4:
            continue
        if s.norm.endswith(":") or re.search(r"均可(报名|参加|参赛)|^附(?:件|表)?[:：]", s.norm):
            continue  # a label line, open entry (the default), or the list of attachments
        for topic, words, path, replaces in _TOPICS:
            if topic == "报名" and s.furniture:
                continue
            if re.search(words, s.norm):
                d.unread(path, topic, s, topic, "见上文默认" if replaces else "不填")
                replaced.update(replaces)
                break
    if replaced:
        d.open = [q for q in d.open if not (q.said is None and q.topic in replaced)]


def _finish(d: Draft, event_id: str | None) -> None:
    """The id (the text never states one) and the sentences that only head a section."""
    _required(d)
    _said_but_not_read(d)
    year = d.year or 2000
    d.doc["schema_version"] = 1
    if event_id:
        d.put(("id",), event_id)
    else:
        d.assume(("id",), f"{year}-event", "比赛标识",
                 "比赛的短标识（小写字母、数字、连字符），如 2025-shanhai-cup？ / The event's short id?")
    for i, division in enumerate(divisions.divisions(d)):
        if not division.get("rankings"):
            divisions.ranking(d, i, "mixed")
    _cite_items(d, ("divisions",))
    _cite_items(d, ("stages",))
    for s in d.sentences:
        if s.headings and s.text.rstrip("：:") == s.headings[-1] and len(s.text) <= 20:
            d.use(s)  # a heading line sets nothing by itself; its section is cited below it


def _cite_items(d: Draft, path: tuple[str, ...]) -> None:
    """A list item (a division, a stage) made from several sentences cites the first of them,
    so its id and name carry a source too."""
    for i, _ in enumerate(d.get(path, [])):
        item: tuple[str | int, ...] = (*path, i)
        if item in d.sources:
            continue
        under = [idx for p, cited in d.sources.items() if p[: len(item)] == item for idx in cited]
        if under:
            d.cite(item, d.sentences[min(under)])
