"""Stages named in the organiser's words (预选赛/本赛, 初赛/决赛, 预复赛/决赛), texts written for
these tests in the corpus's wording; expected values read from the sentences."""

from __future__ import annotations

from datetime import date

from yisai.regulation.draft import draft
from yisai.regulation.draft.numbers import span
from yisai.regulation.draft.text import norm

TWO_PARTS = """2012年某杯围棋赛规程
一、主办单位:某协会
二、比赛办法、时间、地点:
1.比赛分为预选赛及本赛两个阶段。
2.预选赛用时方式为每方2小时,保留5次1分钟读秒,超时判负。本赛用时方式为每方2小时45分钟,保留5次1分钟读秒,超时判负。
3.预选赛为公开赛模式,采用分组单败淘汰制。本赛32强至半决赛的比赛采用单败淘汰制,决赛采用五番棋。
4.预选赛定于2012年8月9日至12日在中国棋院进行,本赛时间另行通知。
"""


def test_two_parts_named_in_one_clause_each_take_their_own_clock_days_and_venue() -> None:
    d = draft(TWO_PARTS)
    qualifier, main = d.doc["stages"]
    assert (qualifier["name"], qualifier["kind"], main["name"], main["kind"]) == ("预选赛", "regional", "本赛", "main")
    # 每方2小时 = 120 minutes; 2小时45分钟 = 120 + 45 = 165; 5次1分钟 = 5 periods of 60 seconds
    assert qualifier["time_control"] == {"main_minutes": 120, "byoyomi_periods": 5, "byoyomi_seconds": 60,
                                         "loss_on_time": True}
    assert main["time_control"] == {"main_minutes": 165, "byoyomi_periods": 5, "byoyomi_seconds": 60,
                                    "loss_on_time": True}
    assert qualifier["format"]["kind"] == main["format"]["kind"] == "knockout"  # 单败淘汰 (半决赛 is 本赛's)
    assert (qualifier["start"], qualifier["end"]) == (date(2012, 8, 9), date(2012, 8, 12))
    assert qualifier["venue"] == "中国棋院"
    assert "start" not in main and "venue" not in main  # 本赛时间另行通知: nothing for the 本赛


DAYS = """2023年某旗职工围棋比赛
一、主办单位:某工会
二、时间及地点
初赛时间:2023年2月25日
决赛时间:2023年2月26日
初赛、决赛地点:某旗奥林匹克体育馆
"""


def test_days_given_per_stage_in_one_section_make_the_stages() -> None:
    d = draft(DAYS)
    prelim, final = d.doc["stages"]
    assert (prelim["name"], prelim["start"], prelim["end"]) == ("初赛", date(2023, 2, 25), date(2023, 2, 25))
    assert (final["name"], final["kind"], final["start"]) == ("决赛", "final", date(2023, 2, 26))
    assert prelim["venue"] == final["venue"] == "某旗奥林匹克体育馆"  # 初赛、决赛地点: both


def test_one_named_stage_alone_declares_nothing() -> None:
    """本賽日期 of the international event a qualifier selects for is not a stage of this event."""
    d = draft("某選拔辦法\n一、主辦單位:某棋院\n二、本賽日期:2014年10月31日至11月3日。\n"
              "三、比賽日期:7月20日、27日。\n")
    assert [st["id"] for st in d.doc["stages"]] == ["main"]


def test_all_stages_at_one_place_and_a_clock_naming_no_stage() -> None:
    d = draft("某杯围棋赛\n一、主办单位:某协会\n二、比赛时间地点:预复赛于5月28日(周日)至5月29日。"
              "决赛于5月30日,均在某市某路5号(某大厦5号,二楼)举行。\n"
              "三、比赛办法:1、比赛分预赛、复赛,采用七轮积分编排;2、每局棋单方时限1小时;超时作负;\n")
    prelim, final = d.doc["stages"]
    assert prelim["venue"] == final["venue"] == "某市某路5号(某大厦5号,二楼)"  # 均在: every stage; the , inside () kept
    assert prelim["format"] == {"kind": "swiss", "rounds": 7}  # 预赛、复赛 are the 预复赛
    assert prelim["time_control"] == final["time_control"] == {"main_minutes": 60, "loss_on_time": True}


def test_days_of_one_month_listed_and_characters_a_copy_lost() -> None:
    assert span(norm("男子初賽:7月20日(日)、27日(日)。"), 2014) == (date(2014, 7, 20), date(2014, 7, 27))
    # 2019�11�20日: the only reading of a four-digit year, two lost characters and a day is a date
    assert span(norm("本赛前二轮于2019\ufffd11\ufffd20日\ufffd21日在北京进行"), None) == (
        date(2019, 11, 20), date(2019, 11, 21))
    assert "5次1分钟读秒" in norm("每方2小时\ufffd5\ufffd1分钟读秒")
