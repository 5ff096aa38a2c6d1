"""Stages named in the organiser's words (预选赛/本赛, 初赛/决赛, 预复赛/决赛) and team rankings inside
individual events, on texts written for these tests in the corpus's wording; expected values read
from the sentences."""

from __future__ import annotations

from datetime import date
from typing import Any

from yisai.regulation.draft import Draft, draft
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


def _teams(text: str) -> tuple[list[dict[str, Any]], Draft]:
    d = draft(text)
    return d.doc["teams"]["competitions"], d


def test_a_team_ranking_inside_an_individual_event_by_the_best_places() -> None:
    comps, d = _teams("2016年某市机关围棋比赛\n一、主办单位:某工会\n二、比赛时间:2016年9月20日\n"
                      "三、比赛办法:个人赛同时计算团体成绩。团体名次录取按同队两人最好名次相加计算。\n")
    [team] = comps
    # 同队两人最好名次相加: the two best places of the team added, the lower sum ahead
    assert (team["method"], team["size"]) == ("sum_of_places", 2)
    assert team["ranking"] == "mixed"  # the places of the division's ranking
    assert d.doc["teams"]["max_players"] == 2 and any(q.path == ("teams", "max_players") and q.said is not None
                                                     for q in d.open)  # how many may enter: asked, quoting


def test_a_team_ranking_in_every_division_by_the_sum_of_scores() -> None:
    comps, d = _teams("2011年某市少儿围棋赛\n一、主办单位:某协会\n二、比赛时间:2011年6月4日\n"
                      "三、各组运动员男女及人数不限,各组团体运动员为3人\n"
                      "四、组别: A组(12周岁)——1998年9月1日后出生 B组(10周岁)——2000年9月1日后出生\n"
                      "五、竞赛办法: 1、个人成绩按照总得分;各组团体成绩以个人总得分相加,总得分相同看个人名次,高者列前。\n")
    assert [(c["name"], c["method"], c["size"], c["tie_breaks"]) for c in comps] == [
        ("A组团体", "sum_of_scores", 3, ["best_place"]), ("B组团体", "sum_of_scores", 3, ["best_place"])]
    assert d.doc["teams"]["max_players"] == 100  # 人数不限: the format's most


def test_a_team_rule_that_does_not_say_sum_of_places_or_of_scores_is_quoted() -> None:
    comps, d = _teams("某省围棋赛补充规定\n一、主办单位:某协会\n"
                      "二、累计同单位3名最佳成绩者的个人名次分决定团体名次,3名最佳棋手个人名次总分相同的队则比较个人最高名次。\n")
    [team] = comps
    assert (team["size"], team["tie_breaks"]) == (3, ["best_place"])
    [point] = [q for q in d.open if q.path == ("teams", "competitions", 0, "method")]
    assert point.said is not None and "名次分" in point.question  # 名次分: places or points per place?


def test_prize_heads_that_say_取前N名_one_list_per_gender_and_per_division() -> None:
    d = draft("2016年某市机关围棋比赛\n一、主办单位:某工会\n二、比赛时间:2016年9月20日\n"
              "三、比赛办法:团体名次录取按同队两人最好名次相加计算。\n四、录取名次\n"
              "(一)个人:取男子前八名、女子前三名,颁发证书。\n(二)团体:取前三名,颁发证书。\n")
    lists = {pl["name"]: pl["places"] for pl in d.doc["prizes"]["lists"]}
    assert lists == {"男子": 8, "女子": 3, "团体": 3}  # 男子前八名, 女子前三名; 团体 前三名
    d = draft("2011年某市少儿围棋赛\n一、主办单位:某协会\n二、比赛时间:2011年6月4日\n"
              "三、组别: A组(12周岁)——1998年9月1日后出生 B组(10周岁)——2000年9月1日后出生\n"
              "四、竞赛办法: 1、各组团体成绩以个人总得分相加。\n"
              "五、录取名次和奖励: 1 个人赛:个人取前八名。 2 团体赛:各组团体取前六名,颁发奖杯。\n")
    lists = {pl["name"]: (pl["places"], pl["kind"]) for pl in d.doc["prizes"]["lists"]}
    # 个人取前八名 in an event of two 组 names no 组: each 组 takes eight; 各组团体: six teams each
    assert lists == {"A组个人": (8, "honour"), "B组个人": (8, "honour"),
                     "A组团体": (6, "honour"), "B组团体": (6, "honour")}


def test_the_year_where_the_text_gives_it_and_quoted_where_it_is_only_mentioned() -> None:
    d = draft("二月份 2024年 院生培訓\n一、主辦單位:某棋院\n二、比賽日期:2月3日\n")
    assert d.doc["year"] == 2024  # the title line's year
    d = draft("某杯比賽辦法\n一、主辦單位:某棋院\n二、比賽日期:201892()開賽。\n三、2017年獎金排行前6名為種子\n")
    assert d.doc["year"] == 2018  # 比賽日期:2018…: the year survives the lost 年月日; 2017年獎金排行 is not it
    d = draft("作者:组委会 2020-02-19\n某擂台赛\n一、主办单位:某协会\n二、首局开赛时间为2月19日21:00\n")
    assert d.doc["year"] == 2020
    [point] = [q for q in d.open if q.path == ("year",)]
    assert point.said is not None and "2020" in point.question  # taken from the dateline: quoted, asked


def test_a_detail_or_a_disagreement_of_a_stated_rule_is_never_called_unstated() -> None:
    from yisai.formats.regulation_draft import to_toml

    d = draft("2014年某市升段赛规程\n一、主办单位:某协会\n二、比赛时间:2013年6月1-2日\n"
              "三、名次:积分相同比较逐轮减去对手分。\n")
    asked = {q.topic: q for q in d.open}
    # 标题写2014年, 比赛时间写2013年: two clauses disagree; 逐轮减去 from which end: a detail
    assert asked["比赛年份"].why and asked["逐轮减去对手分的方向"].why
    toml = to_toml(d, "x.txt")
    assert "两处写法不一致" in toml and "此细节请确认" in toml
    d = draft("某三人赛\n一、主办单位:某协会\n二、比赛人数、赛制、时间:\n"
              "1、比赛共三人参加。比赛将进行三轮,首先抽签轮空一人,第二轮由首轮败者对阵轮空者。\n")
    points = [q for q in d.open if q.path == ("stages", 0, "format")]
    assert points and all(q.said is not None for q in points)  # quoted, never "规程未写明"
    assert any("首先抽签轮空一人" in q.question for q in points)
    assert any("败者再赛的淘汰" in q.question for q in points)  # what the format cannot state, named


def test_small_families_read_from_their_sentences() -> None:
    d = draft("“衢州烂柯杯”国际儿童友好围棋锦标赛\n中国区预选赛规程\n一、主办单位:某协会\n"
              "二、参赛资格:\n获得2025年全国围棋定段赛少年男子组第15-21名。\n"
              "三、报名办法:\n联系人:张某,电话:15658222244,电话不受理报名。报名结束后,由裁判组抽签。\n"
              "四、参赛凭出具公安局户籍证明为准。\n五、名次区分:1、按总得分排列名次。全胜自动排名第一\n"
              "2、积分高者名次列前。\n3、直胜列前(两人)。\n4、抽签确定名次。\n")
    assert d.doc["name"] == "“衢州烂柯杯”国际儿童友好围棋锦标赛中国区预选赛"  # a title over two lines
    assert d.doc["divisions"][0]["eligibility"]["routes"] == ["qualified"]  # places won in another event
    assert d.doc["registration"]["contacts"] == ["联系人:张某,电话:15658222244"]  # the remark after it dropped
    assert d.doc["pairing"]["round1_seeding"] == ["lot"]  # 报名结束后,由裁判组抽签
    assert d.doc["registration"]["required_documents"] == ["公安局户籍证明"]
    # 按总得分排列名次 then its items (no 总得分相同): 积分, 直胜, 抽签; 全胜自动排名第一
    assert d.doc["ranking"]["criteria"] == ["score", "direct", "lot"]
    assert d.doc["ranking"]["undefeated_champion"] is True
    d = draft("丹阳市第八届“水博士”少儿围棋段位赛 主办单位:某中心 赞助单位:丹阳市水博士纯净水厂\n")
    assert d.doc["organisers"]["title_sponsors"] == ["丹阳市水博士纯净水厂"]  # the sponsor the name carries
    assert draft("『託福杯』國際新銳圍棋對抗賽台灣代表選拔辦法\n一、主辦單位:台灣棋院\n").doc["name"] == \
        "『託福杯』國際新銳圍棋對抗賽台灣代表選拔"


def test_registration_by_whom_and_how_and_details_left_to_a_supplement() -> None:
    d = draft("2011年某市少儿围棋赛\n一、主办单位:某协会\n二、比赛时间:2011年6月4日\n"
              "三、报名:参赛各队报名单于2011年5月30日前用电子邮件报名。\n"
              "四、比赛具体细则将在《竞赛补充规定》中另行公布。\n")
    [window] = d.doc["registration"]["windows"]
    assert (window["who"], window["channel"], window["closes"]) == ("参赛各队", "电子邮件", date(2011, 5, 30))
    assert d.doc["stages"][0]["details_note"] == "比赛具体细则将在《竞赛补充规定》中另行公布"
    d = draft("2012年某杯\n一、主办单位:某协会\n二、比赛时间:2012年8月9日\n"
              "三、报名方式:所有棋手均需在新浪网报名,截止日期为8月1日。\n")
    assert d.doc["registration"]["windows"][0]["channel"] == "新浪网"
    d = draft("2013年某高校教师围棋团体赛\n一、主办单位:某协会\n二、比赛时间:2013年6月1日\n"
              "三、竞赛办法:每队可报4名参赛选手,由领队赛前制定名单,上场三人进行团体赛;\n")
    assert d.doc["teams"]["max_players"] == 4


def test_players_below_and_above_a_rank_play_on_different_days() -> None:
    d = draft("某少儿围棋段位赛 主办单位:某中心 比赛地点:某活动中心 "
              "比赛时间:(1)5级及以下组2010年8月22号,上午8:00开始 (2)4级及以上组2010年8月23、24号两天,上午8:00开始\n"
              "一、分组情况:\n1、A组:3段及以上的棋手\n2、E组:2—4级男子\n3、G组:5级男子\n4、M组:4周岁组\n"
              "二、竞赛办法:\n1、比赛共6轮,采用积分编排制。\n")
    below, above = d.doc["stages"]
    assert (below["name"], below["start"], below["end"]) == ("5级及以下组", date(2010, 8, 22), date(2010, 8, 22))
    assert (above["name"], above["start"], above["end"]) == ("4级及以上组", date(2010, 8, 23), date(2010, 8, 24))
    names = {x["id"]: x["name"] for x in d.doc["divisions"]}
    # A组 3段+ and E组 2-4级 are at or above 4级; G组 5级 at or below 5级; M组 has no rank: the weaker day, asked
    assert [names[i] for i in above["divisions"]] == ["A组", "E组"]
    assert [names[i] for i in below["divisions"]] == ["G组", "M组"]
    assert any(q.path == ("stages", 0, "divisions") and "M组" in q.question and q.why for q in d.open)
    assert below["venue"] == above["venue"] == "某活动中心"
    assert below["format"] == above["format"] == {"kind": "swiss", "rounds": 6}  # 比赛共6轮: every stage


def test_divisions_named_by_their_game_after_分为三组() -> None:
    d = draft("少年纵横棋王赛5月北京站规程\n主办单位:少年纵横\n二、比赛时间&地点\n2024年5月12日(周日)09:00-12:00\n"
              "比赛赛制\n2、参赛棋手按水平等级进行分组,分为三组。根据当前级别选择参赛组别。\n"
              "九路吃子:无级,7级(25级),每轮交换黑白下两局,每局先吃到五子者获胜,胜1局积1分。\n"
              "九路围空:6级(20级),5级(15级),黑贴3又3/4子,黑45子取胜。胜1局积2分。\n"
              "19路围空:4级(10级)以上,黑贴3又3/4子,黑185子取胜。胜1局积2分。\n")
    got = [(x["name"], x.get("board_size"), x.get("scoring")) for x in d.doc["divisions"]]
    # 九路: 9 lines; 胜1局积2分 is the format's win; 胜1局积1分 of two capture games a round is quoted
    assert got == [("九路吃子", 9, None), ("九路围空", 9, {"win": 2}), ("19路围空", None, {"win": 2})]
    assert any(q.path == ("divisions", 0, "scoring") and q.said is not None for q in d.open)
