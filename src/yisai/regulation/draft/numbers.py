"""Numbers, dates, times and ranges as 规程 write them: 三十二, 两, full-width digits,
``5月6日-9月3日``, ``第四到八名``. Patterns work on ``text.norm`` output (ASCII digits)."""

from __future__ import annotations

import re
from datetime import date

_DIGITS = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6,
           "七": 7, "八": 8, "九": 9,
           # 大写 (financial) numerals, as prize tables write amounts: 伍萬元, 參萬元, 壹萬元
           "壹": 1, "贰": 2, "貳": 2, "叁": 3, "參": 3, "参": 3, "肆": 4, "伍": 5, "陆": 6, "陸": 6, "柒": 7,
           "捌": 8, "玖": 9}
_UNITS = {"十": 10, "百": 100, "千": 1000, "万": 10_000, "拾": 10, "佰": 100, "仟": 1000}

NUM = r"(?:\d{1,9}|[零〇一二两三四五六七八九十百千万壹贰貳叁參参肆伍陆陸柒捌玖拾佰仟]{1,8})"
"""One number, Arabic or Chinese (bounded length: no pattern can backtrack far)."""


def to_int(word: str) -> int | None:
    """``32``, ``三十二``, ``两``, ``十``, ``一百`` → int; None when it is not a number."""
    if not word:
        return None
    if word.isdigit():
        return int(word) if len(word) <= 9 else None
    total, section, current = 0, 0, 0
    for ch in word:
        if ch in _DIGITS:
            current = _DIGITS[ch]
        elif ch == "万":
            total += (section + current) * 10_000
            section, current = 0, 0
        elif ch in _UNITS:
            section += (current or 1) * _UNITS[ch]
            current = 0
        else:
            return None
    return total + section + current


_DATE = re.compile(r"(?:(\d{4})年)?(\d{1,2})月(\d{1,2})[日号]")
_DATE_RANGE = re.compile(
    r"(?:(\d{4})年)?(\d{1,2})月(\d{1,2})[日号]?(?:-+|至|到|~)(?:(\d{4})年)?(?:(\d{1,2})月)?(\d{1,2})[日号]")


def make_date(year: int | None, month: int, day: int) -> date | None:
    if year is None:
        return None
    try:
        return date(year, month, day)
    except ValueError:
        return None


def dates(text: str, year: int | None) -> list[date]:
    """Every full date in ``text`` (a missing year is ``year``)."""
    out = []
    for m in _DATE.finditer(text):
        d = make_date(int(m.group(1)) if m.group(1) else year, int(m.group(2)), int(m.group(3)))
        if d is not None:
            out.append(d)
    return out


_DOTTED = re.compile(r"(?<!\d)((?:19|20)\d{2})[./-](\d{1,2})[./-](\d{1,2})(?![\d.])")
_ASIDE = re.compile(r"\((?:周|星期|礼拜)?[一二三四五六日天]\)|\((?:周|星期)[一二三四五六日天]\)")
_DAY_LIST = re.compile(r"(?:(\d{4})年)?(\d{1,2})月(\d{1,2})(?:[日号]?、(\d{1,2}))+[日号]")
"""``8月23、24号``, ``7月20日、27日``: days of one month."""


def date_words(text: str) -> str:
    """Dates as the patterns expect them: ``2017.10.21`` → ``2017年10月21日``, weekday asides
    (``5月28日(周日)``, ``7月10日(四)``) dropped; ``text`` is ``norm`` output."""
    text = _DOTTED.sub(lambda m: f"{m.group(1)}年{int(m.group(2))}月{int(m.group(3))}日", text)
    return _ASIDE.sub("", text)


def span(text: str, year: int | None) -> tuple[date, date] | None:
    """The first and last day a sentence names, whatever the form: a range (``6月1-2日``,
    ``3月18日至6月18日``, ``6月4日——6月6日``), a list (``8月23、24号``, ``8月26日、8月27日…``), or
    one day. A year written in the sentence wins over ``year``; None without any year."""
    text = date_words(text)
    days: list[date] = []
    for m in _DATE_RANGE.finditer(text):
        found = date_range(m.group(0), year)
        if found:
            days += found
    for m in _DAY_LIST.finditer(text):
        y = int(m.group(1)) if m.group(1) else year
        for d in re.findall(r"\d{1,2}", m.group(0)[m.group(0).index("月") + 1:]):
            day = make_date(y, int(m.group(2)), int(d))
            if day:
                days.append(day)
    last_year = year
    for m in _DATE.finditer(text):
        if m.group(1):
            last_year = int(m.group(1))
        day = make_date(last_year, int(m.group(2)), int(m.group(3)))
        if day:
            days.append(day)
    return (min(days), max(days)) if days else None


def date_range(text: str, year: int | None) -> tuple[date, date] | None:
    """``5月6日-9月3日``, ``2025年5月1日-4日``, ``11月7日--11月11日`` → (start, end)."""
    m = _DATE_RANGE.search(text)
    if not m:
        return None
    y1 = int(m.group(1)) if m.group(1) else year
    start = make_date(y1, int(m.group(2)), int(m.group(3)))
    y2 = int(m.group(4)) if m.group(4) else y1
    end = make_date(y2, int(m.group(5)) if m.group(5) else int(m.group(2)), int(m.group(6)))
    if start is None or end is None or end < start:
        return None
    return start, end


PLACE = rf"(?:冠军|亚军|季军|第?{NUM}名?)"
_PLACE_WORDS = {"冠军": 1, "亚军": 2, "季军": 3}


def place(word: str) -> int | None:
    """``冠军`` → 1, ``第四名`` → 4, ``第十一名`` → 11, ``八`` → 8."""
    if word in _PLACE_WORDS:
        return _PLACE_WORDS[word]
    return to_int(word.removeprefix("第").removesuffix("名"))


_RANGE = re.compile(rf"({PLACE})(?:(?:-+|至|到|~)({PLACE}))?")


def place_range(text: str) -> tuple[int, int] | None:
    """``第五名至第六名`` / ``第四到八名`` / ``第2-4名`` / ``冠军`` → (from, to)."""
    m = _RANGE.fullmatch(text)
    if not m:
        return None
    a = place(m.group(1))
    b = place(m.group(2)) if m.group(2) else a
    if a is None or b is None or not 1 <= a <= b:
        return None
    return a, b


def amount(text: str) -> int | None:
    """``60000元``, ``1万元``, ``800元`` → yuan."""
    m = re.search(rf"({NUM}(?:\.\d{{1,2}})?)(万)?元", text)
    if not m:
        return None
    if "." in m.group(1):
        whole = float(m.group(1))
        return round(whole * (10_000 if m.group(2) else 1))
    n = to_int(m.group(1))
    if n is None:
        return None
    return n * (10_000 if m.group(2) else 1)
