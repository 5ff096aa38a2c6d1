"""比赛用时 as organisers write it: 每方用时45分钟,超时判负 / 每人75分钟包干 / 每轮次每个选手用时60分钟 /
每方1小时后3次30秒读秒 / 比赛用时为30/30/3 / 基本时限各30分钟,用完读秒(30秒三次) / 每方2小时45分钟,保留5次1分钟读秒.

包干 means the whole game in the main time: no byo-yomi (it does not mean no loss on time).
双方共用(时)60分钟 is the two clocks together: 30 minutes on each player's clock (an odd total,
which no clock splits in whole minutes, stays a note). What the regulation format cannot state —
an increment per move (每步加10秒), a referee adding time (加钟) — is returned as a note for an
open point."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from yisai.regulation.draft.numbers import NUM, to_int

_WHO = r"(?:每方|每人|每位选手|每个选手|每名选手|双方共用|双方|单方|各方|基本时限各?|每局各?)"
_HOW = r"(?:各用时|用时|使用|时限|包干|共用时?|各|时)?"
_MAIN = re.compile(rf"{_WHO}{_HOW}(?:为)?({NUM}|半个?)(?:个)?(小时|分钟)(?:({NUM})分钟)?")
_BYO = (
    re.compile(rf"({NUM})次({NUM})(秒|分钟)"),  # 3次30秒读秒, 五次1分钟读秒, 一次一分钟读秒
    re.compile(rf"({NUM})(秒|分钟)({NUM})次"),  # 30秒3次读秒, 读秒60秒3次, (30秒三次)
)
_LOSS = re.compile(r"超时(?:判|作|即|则|者)?负|超时判定?为?负|超时.{0,12}(?:判负|作负|判为负)|超时裁定败")
TOPIC_WORDS = re.compile(r"用时|时限|包干|读秒|保留时间|(?:每方|每人|单方)[^,;。]{0,8}(?:分钟|小时)|每步加|共用时?(?:\d|[一二三四五六七八九十半])")
"""A sentence with one of these speaks of the time control."""


@dataclass
class Reading:
    """What one sentence says of the time control."""

    control: dict[str, Any] | None = None
    cannot_state: list[str] = field(default_factory=list)
    """What the format cannot hold (shared time, increment, 加钟), in the director's words."""


def _minutes(amount: str, unit: str, extra: str | None) -> int | None:
    n = 0.5 if amount.startswith("半") else to_int(amount)
    if n is None:
        return None
    total = n * 60 if unit == "小时" else n
    if extra:
        more = to_int(extra)
        if more is None:
            return None
        total += more
    return int(total)


def read(text: str) -> Reading:
    """The time control ``text`` (``norm`` output) states, if any."""
    out = Reading()
    if not TOPIC_WORDS.search(text):
        return out
    m = _MAIN.search(text)
    shared = bool(re.search(r"双方共用|共用时", text))
    if shared and (m is None or (_minutes(m.group(1), m.group(2), m.group(3)) or 1) % 2):
        out.cannot_state.append("双方共用时间（格式只能写每方用时）")
    if re.search(r"每(?:走)?一?步(?:加|增加|追加)", text):
        out.cannot_state.append("每步加秒（费舍尔加秒，格式不能表示）")
    if re.search(r"加钟|放钟", text):
        out.cannot_state.append("裁判加钟/放钟（格式不能表示）")
    slash = re.search(r"用时(?:为|是)?(\d{1,3})/(\d{1,3})/(\d{1,2})(?!\d|/)", text)
    if m is None and slash and not shared:  # 30/30/3: minutes / seconds per period / periods
        out.control = {"main_minutes": int(slash.group(1)), "byoyomi_periods": int(slash.group(3)),
                       "byoyomi_seconds": int(slash.group(2))}
        if _LOSS.search(text):
            out.control["loss_on_time"] = True
        return out
    if m is None or (shared and out.cannot_state and "双方共用" in out.cannot_state[0]):
        return out
    main = _minutes(m.group(1), m.group(2), m.group(3))
    if main is None:
        return out
    if shared:
        main //= 2  # the two clocks together: half on each
    tc: dict[str, Any] = {"main_minutes": main}
    rest = text[m.end():]
    if "包干" in text:
        tc["byoyomi_periods"] = 0
    elif "读秒" in text or "保留" in text:
        for rx in _BYO:
            b = rx.search(rest)
            if not b:
                continue
            if rx is _BYO[0]:
                periods, amount, unit = b.group(1), b.group(2), b.group(3)
            else:
                amount, unit, periods = b.group(1), b.group(2), b.group(3)
            p, a = to_int(periods), to_int(amount)
            if p is not None and a is not None:
                tc["byoyomi_periods"] = p
                tc["byoyomi_seconds"] = a * 60 if unit == "分钟" else a
            break
    if _LOSS.search(text):
        tc["loss_on_time"] = True
    out.control = tc
    return out
