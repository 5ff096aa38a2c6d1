"""The second round of issue 40's families (divisions by rank, grants by place, steps by wins,
rounds by division, prize rows place by place, graded awards, timetables, …自理), each on short
texts written for these tests in the styles real organisers use (not copied from any 规程).
Expected values are read by hand from the sentences."""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from yisai.regulation.draft import draft

HEAD = "2031年某市少儿围棋段级位赛规程\n一、主办单位：某市围棋协会\n二、比赛时间：2031年6月6日\n"


def _draft(body: str) -> Any:
    return draft(HEAD + body + "\n")


def _division(d: Any, name: str) -> dict[str, Any]:
    return next(x for x in d.doc["divisions"] if x["name"] == name)


def test_division_rank_bounds_from_names_and_descriptions() -> None:
    d = _draft("三、分组情况：\n1、甲组：4段及以上的棋手\n2、乙组：1段的棋手\n3、丙组：3—5级女子\n"
               "4、丁组：6级以下男子\n")
    assert _division(d, "甲组")["eligibility"] == {"min_rank": "4段"}
    assert _division(d, "乙组")["eligibility"] == {"min_rank": "1段", "max_rank": "1段"}
    # 3—5级: 5级 is the weaker rank, so the minimum; 女子 limits the gender
    assert _division(d, "丙组")["eligibility"] == {"min_rank": "5级", "max_rank": "3级", "genders": ["F"]}
    # 6级以下 of kyu has no floor the format can write: the gender only
    assert _division(d, "丁组")["eligibility"] == {"genders": ["M"]}
    d = _draft("三、组别：无级组、15-11级组、2-3段组\n")
    assert _division(d, "15-11级组")["eligibility"] == {"min_rank": "15级", "max_rank": "11级"}
    assert _division(d, "2-3段组")["eligibility"] == {"min_rank": "2段", "max_rank": "3段"}
    assert "eligibility" not in _division(d, "无级组")


def test_divisions_listed_under_a_label_line() -> None:
    d = _draft("三、参赛要求\n本市职工均可参赛。\n组别设置：\n甲组（机关职工）\n乙组（社会爱好者）\n")
    assert [x["name"] for x in d.doc["divisions"]] == ["甲组", "乙组"]


def test_rank_grants_place_by_place_and_per_division() -> None:
    d = _draft("三、分组情况：\n1、A组：2段的棋手\n2、B组：2-4级\n3、C组：5级\n4、D组：6级\n"
               "四、升段、升级\n1、A组前4名升为3段。\n2、B组前3名升为1段，第4、5名升为1级，其余棋手在原级位上升一级。\n"
               "3、C、D组第一名可直接定为3级。\n")
    rules = {r["division"]: r["grants"] for r in d.doc["rank_awards"]}
    ids = {x["name"]: x["id"] for x in d.doc["divisions"]}
    assert rules[ids["A组"]] == [{"from": 1, "to": 4, "rank": "3段"}]
    assert rules[ids["B组"]] == [{"from": 1, "to": 3, "rank": "1段"}, {"from": 4, "to": 5, "rank": "1级"}]
    assert rules[ids["C组"]] == rules[ids["D组"]] == [{"from": 1, "to": 1, "rank": "3级"}]
    # 其余棋手…升一级 is a rule the format cannot state: quoted, not dropped
    assert any(q.said is not None and "其余棋手在原级位上升一级" in q.question for q in d.open)


def test_a_grant_after_other_awards_of_the_same_place() -> None:
    d = _draft("三、录取名次及奖励：录取前六名。\n第一名获奖杯一座，奖金3000元，并授予业余5段；第二至第六名授予业余4段。\n")
    assert d.doc["rank_awards"][0]["grants"] == [{"from": 1, "to": 1, "rank": "5段"},
                                                 {"from": 2, "to": 6, "rank": "4段"}]


def test_steps_by_wins_per_division_line() -> None:
    d = _draft("三、组别：无级组，8-5级组\n四、升级标准：\n（1）无级组：5胜定10级，4胜、3胜定12级（共6轮）\n"
               "（2）8-5级组：3胜升1级；5胜升2级（共6轮）\n五、竞赛办法：比赛共6轮，采用积分编排制。\n")
    rules = {r["division"]: r for r in d.doc["promotions"]}
    ids = {x["name"]: x["id"] for x in d.doc["divisions"]}
    fixed = rules[ids["无级组"]]
    assert fixed["steps"] == [{"wins": 5, "rank": "10级"}, {"wins": 4, "rank": "12级"}, {"wins": 3, "rank": "12级"}]
    assert fixed["rounds"] == 6 and fixed["unranked"] is True
    assert rules[ids["8-5级组"]]["steps"] == [{"wins": 3, "promote": 1}, {"wins": 5, "promote": 2}]


def test_rounds_by_division() -> None:
    d = _draft("三、组别：无级组，10-9级组，8-3级组\n四、竞赛办法：\n"
               "1、无级组、9级组、10级组比赛进行5轮，其他组别比赛进行7轮，采用积分编排制。\n")
    st = d.doc["stages"][0]
    ids = {x["name"]: x["id"] for x in d.doc["divisions"]}
    assert st["format"]["rounds"] == 7
    assert {k: v["rounds"] for k, v in st["formats_by_division"].items()} == {ids["无级组"]: 5, ids["10-9级组"]: 5}


def test_prize_rows_place_by_place() -> None:
    d = _draft("三、录取名次及奖励：录取前十名。\n第一名获奖杯一座，奖金3000元（税前）；第二至第五名分别获奖金1500元、1000元、800元、600元；"
               "第六至十名各发给奖品300元。\n")
    rows = d.doc["prizes"]["lists"][0]["rows"]
    assert [(r["from"], r["to"], r.get("amount")) for r in rows] == [
        (1, 1, 3000), (2, 2, 1500), (3, 3, 1000), (4, 4, 800), (5, 5, 600), (6, 10, None)]
    assert "300" in rows[-1]["gift"]
    # a list of the one division the text never names is just 个人
    assert d.doc["prizes"]["lists"][0]["name"] == "个人"


def test_knockout_losers_share_places() -> None:
    d = _draft("三、奖金\n冠军获得20万元\n亚军获得8万元\n半决赛败者获得30000元\n八强败者获得10000元\n")
    rows = d.doc["prizes"]["lists"][0]["rows"]
    assert [(r["from"], r["to"], r["amount"]) for r in rows] == [
        (1, 1, 200000), (2, 2, 80000), (3, 4, 30000), (5, 8, 10000)]


def test_graded_awards_are_places_in_order() -> None:
    d = _draft("三、奖项设置\n设一等奖2名、二等奖3名、三等奖5名，并给予一定的物质奖励。\n")
    pl = d.doc["prizes"]["lists"][0]
    assert pl["places"] == 10 and pl["kind"] == "gift"
    assert [(r["from"], r["to"]) for r in pl["rows"]] == [(1, 2), (3, 5), (6, 10)]


def test_timetable_from_days_and_hour() -> None:
    d = draft("2031年某市围棋选拔赛规程\n一、主办单位：某市围棋协会\n二、比赛规则：采用4轮积分编排赛制。\n"
              "三、比赛日程：6月6日、6月7日、6月9日、6月10日。\n每个比赛日13:30开始比赛\n")
    assert d.doc["stages"][0]["timetable"] == [
        {"at": datetime(2031, 6, day, 13, 30), "round": k + 1} for k, day in enumerate((6, 7, 9, 10))]


def test_self_paid_without_the_subject() -> None:
    d = _draft("三、其他\n所有参赛棋手住宿及差旅费自理。\n")
    assert d.doc["fees"]["self_paid"] == ["住宿费", "差旅费"]


def test_rules_text_is_the_rules_name() -> None:
    d = _draft("三、竞赛办法\n1、执行《中国围棋竞赛规则(2002年版)》，黑贴3又3/4子。\n")
    assert d.doc["rules"]["rules_text"] == "《中国围棋竞赛规则(2002年版)》"


def test_organiser_labels_with_a_qualifier() -> None:
    d = _draft("三、联合主办：某某文化中心\n")
    assert "某某文化中心" in d.doc["organisers"]["hosts"]
    assert date(2031, 6, 6) == d.doc["stages"][0]["start"]


def test_tie_breaks_in_organisers_words() -> None:
    d = _draft("三、竞赛办法\n个人名次按得分确定，得分相同算小分、再同只有两人的胜者名次列前，最后抽签。\n")
    assert d.doc["ranking"]["criteria"][:4] == ["score", "sos", "direct", "lot"]


def test_a_sign_off_on_one_line_and_a_refused_late_entry() -> None:
    d = _draft("三、报名时间：报名截止2031年5月20日，逾期一律不得报名\n某市少年宫围棋教室 2031年5月1日")
    assert d.doc["issued"] == {"by": "某市少年宫围棋教室", "on": date(2031, 5, 1)}
    window = d.doc["registration"]["windows"][0]
    assert window["closes"] == date(2031, 5, 20) and window["enforce"] is True


def test_appeals_go_to_the_body_the_text_names() -> None:
    d = _draft("三、申诉\n对裁判判决有异议，须赛后20分钟内向仲裁委员会书面申诉，并交申诉费300元，胜诉退还。\n")
    assert d.doc["appeals"]["handled_by"] == "仲裁委员会"
    assert (d.doc["appeals"]["window_minutes"], d.doc["appeals"]["fee"]) == (20, 300)
