"""A 规程 text as numbered sentences, each with the section it sits in (八、(三)) and the
titles of the headings above it. Everything the drafter reads goes through here.

The input is bounded first (MAX_TEXT_CHARS, MAX_LINE_CHARS, MAX_SENTENCES) so every later
pass is linear in a small text; nothing here can loop on hostile input.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property

MAX_TEXT_CHARS = 200_000
"""A 规程 is 5–15 thousand characters; a text past this is refused before it is split."""
MAX_LINE_CHARS = 4_000
"""One line longer than this is cut into pieces (a PDF without line breaks)."""
MAX_SENTENCES = 5_000


class TextTooLong(ValueError):
    """The text is longer than MAX_TEXT_CHARS (the caller names the file)."""


_FULL_WIDTH = {i: i - 0xFEE0 for i in range(0xFF01, 0xFF5F)}
_FULL_WIDTH.update({0x3000: 0x20, 0x2014: 0x2D, 0x2013: 0x2D, 0x2015: 0x2D, 0x2212: 0x2D,
                    0x301C: 0x2D, 0x3002: 0x3002})


_TRADITIONAL = str.maketrans(
    "辦賽時間點參資報組規則獎勵讀輪負勝與單費額屆場敗決戰萬兩鐘個週遲貼還業餘選證書對數員會國職體團聯電話"
    "後準進級計應經發現條審當開積區隊礎種類給歲齡滿屬範圍圍碁棋譜錄達實際須說務環幣",
    "办赛时间点参资报组规则奖励读轮负胜与单费额届场败决战万两钟个周迟贴还业余选证书对数员会国职体团联电话"
    "后准进级计应经发现条审当开积区队础种类给岁龄满属范围围棋棋谱录达实际须说务环币")
"""Traditional characters of the words the drafter reads (比賽辦法, 讀秒, 單敗淘汰 …) as
simplified, so a Taiwan or Hong Kong 比賽辦法 is read by the same patterns."""


def simplified(text: str) -> str:
    """``text`` with the traditional domain characters as simplified, same length (a match in
    it is sliced from the original)."""
    return text.translate(_TRADITIONAL)


def norm(text: str) -> str:
    """Full-width digits, letters and punctuation as ASCII, dashes as ``-``, traditional
    characters of the domain words as simplified, no whitespace: the form every pattern of the
    drafter is written against (quotes keep the original)."""
    out = re.sub(r"\s+", "", text.translate(_FULL_WIDTH).translate(_TRADITIONAL))
    return _lost(out) if "\ufffd" in out else out


_LOST = (  # a copy that lost characters (shown as U+FFFD) where only one fits
    (re.compile(r"((?:19|20)\d{2})\ufffd(\d{1,2})\ufffd(\d{1,2})(?:\ufffd|日)?"), r"\1年\2月\3日"),
    (re.compile(r"(\d{1,2})\ufffd(\d{1,2})(分钟|秒)读秒"), r"\1次\2\3读秒"),
    (re.compile(r"(\d{1,2}月\d{1,2}日)\ufffd(\d{1,2})日"), r"\1至\2日"),
    (re.compile(r"(\d{1,2})\ufffd(\d{2})(?!\d)"), r"\1:\2"),
    (re.compile(r"\ufffd$"), "。"),
)


def _lost(text: str) -> str:
    """The characters a stored copy lost, where the shape leaves one reading: 2019�11�20日 is a
    date, 5�1分钟读秒 five periods, 12�30 a time, a final � the full stop."""
    for rx, to in _LOST:
        text = rx.sub(to, text)
    return text


FURNITURE = re.compile(
    r"发布时间|更新时间|发布日期|作者[:：]|来源[:：]|新闻(编号|来源|录入)|https?://|www\.|专稿|^\d{4}[.年-]\d{1,2}"
    r"[.月-]\d{1,2}日?\d{1,2}:\d{2}")
"""A dateline or byline: ``2013.12.25 TOM 专稿``, ``发布时间: 2023-04-27``, ``作者:组委会 2020-02-19``."""
CONTACT = re.compile(r"电话|联系人|联系方式|咨询(?!服务)|邮箱|[A-Za-z0-9_.-]{1,64}@|\d{7,}|TEL", re.IGNORECASE)
"""A contact line: what it says is a phone number or an address to write to, never a venue."""

_CN = "零〇一二两三四五六七八九十百"
_MARKERS: tuple[tuple[int, re.Pattern[str]], ...] = (
    (1, re.compile(rf"^\s*([{_CN}]+\s*[、.．])")),
    (2, re.compile(rf"^\s*([（(]\s*[{_CN}]+\s*[）)])")),
    (3, re.compile(r"^\s*(\d{1,2}\s*[、.．](?!\d))")),
    (4, re.compile(r"^\s*([（(]\s*\d{1,2}\s*[）)])")),
)
_SPLIT = re.compile(r"(?<=[。！？!?])")


@dataclass(frozen=True)
class Sentence:
    index: int
    line: int
    section: str
    """The markers of the headings it sits under, e.g. ``八、(三)``."""
    headings: tuple[str, ...]
    """The titles of those headings (比赛用时, 竞赛办法 …), outermost first."""
    text: str
    """As written, without its heading marker."""
    norm: str

    @property
    def quote(self) -> str:
        """The source comment: section and sentence."""
        return f"{self.section} {self.text}".strip()

    def under(self, *words: str) -> bool:
        """Whether one of the heading titles above it mentions one of ``words`` (``日 期`` is
        ``日期``: organisers space out short titles)."""
        return any(w in h for h in self._heading_norms for w in words)

    @cached_property
    def _heading_norms(self) -> tuple[str, ...]:
        return tuple(norm(h) for h in self.headings)

    @cached_property
    def furniture(self) -> bool:
        """Page furniture, not a clause: a dateline, a byline, a news header, a link, or a
        contact line (phone, e-mail, 联系人). Never a source of a value but a contact's."""
        return bool(FURNITURE.search(self.norm) or CONTACT.search(self.norm))


def _title(body: str) -> str:
    head = re.split(r"[：:。]", body, maxsplit=1)[0]
    return head.strip()[:40]


_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


_INLINE_MARKER = re.compile(rf"\s+(?=[{_CN[:-1]}]{{1,3}}\s*、|[（(]\s*[{_CN[:-1]}\d]{{1,2}}\s*[）)]|\d{{1,2}}、"
                            r"|(?:主办|承办|协办|赞助|指导)单位[:：]|比赛(?:地点|时间)[:：])"
                            r"|(?<=[;；])(?=[1-9]、(?!\d))")
"""A numbered clause that starts after a space inside a line: a web copy that lost its line
breaks (``… 四、比赛时间:2013年6月1-2日 五、比赛地点:…``) is cut back into its clauses; so is one
after a semicolon (``…三局二胜制;3、每局棋单方时限1小时``)."""


def _lines(text: str) -> list[str]:
    out: list[str] = []
    for raw in (piece for line in text.splitlines() for piece in _INLINE_MARKER.split(line)):
        line = _CONTROL.sub(" ", raw).strip()
        while len(line) > MAX_LINE_CHARS:
            out.append(line[:MAX_LINE_CHARS])
            line = line[MAX_LINE_CHARS:]
        if line:
            out.append(line)
    return out


def split(text: str) -> list[Sentence]:
    """The text's sentences in order; heading lines are sentences too (their title is kept
    for the sentences below)."""
    if len(text) > MAX_TEXT_CHARS:
        raise TextTooLong(len(text))
    stack: list[tuple[int, str, str]] = []  # (level, marker, title)
    out: list[Sentence] = []
    line_no = 0
    for line_no, line in enumerate(_lines(text), start=1):
        body = line
        for level, pattern in _MARKERS:
            m = pattern.match(body)
            if m:
                marker = re.sub(r"\s+", "", m.group(1)).translate(_FULL_WIDTH)
                body = body[m.end():].strip()
                stack = [s for s in stack if s[0] < level]
                stack.append((level, marker, _title(body)))
                break
        section = "".join(s[1] for s in stack)
        headings = tuple(s[2] for s in stack)
        for piece in _SPLIT.split(body):
            piece = piece.strip()
            if not piece:
                continue
            if len(out) >= MAX_SENTENCES:
                return out
            out.append(Sentence(len(out), line_no, section, headings, piece, norm(piece)))
    return out
