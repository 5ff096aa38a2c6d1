"""Issue 41's rules as organisers write them (迟到, 弃权取消资格, 积分编排淘汰制, a division's board),
on sentences in the corpus's wording; expected values read from each sentence."""

from __future__ import annotations

import pytest

from yisai.regulation.draft import draft

HEAD = "2020年某杯围棋赛\n一、主办单位:某协会\n二、比赛时间:2020年5月1日\n三、竞赛办法:\n"


@pytest.mark.parametrize(("sentence", "rule"), [
    # 以上 includes the limit: a player 15 minutes late is already past it; 做弃权处理 forfeits the round
    ("迟到15分钟以上者做弃权处理,判对手胜;", {"minutes": 15, "inclusive": True, "outcome": "forfeit"}),
    ("比赛迟到15分钟判弃权负,累计两轮弃权不再编排。", {"minutes": 15, "inclusive": True, "outcome": "forfeit"}),
    # 加倍扣時: until the limit, twice the lateness comes off the clock
    ("比賽遲到加倍扣時,遲到20分鐘裁定敗。", {"minutes": 20, "inclusive": True, "outcome": "loss", "clock_factor": 2}),
    ("遲到10分鐘(含)以上者裁定敗。", {"minutes": 10, "inclusive": True, "outcome": "loss"}),
    # 超过10分钟: at exactly 10 minutes the player still plays
    ("比赛迟到超过10分钟者判负。", {"minutes": 10, "inclusive": False, "outcome": "loss"}),
    ("棋手迟到15分钟该局判负,弃权1次取消竞赛资格。", {"minutes": 15, "inclusive": True, "outcome": "loss"}),
    ("开赛15分钟后未到赛场者,视为本轮弃权,弃权两轮者不再参与。", {"minutes": 15, "inclusive": True, "outcome": "forfeit"}),
])
def test_lateness_as_organisers_write_it(sentence: str, rule: dict[str, object]) -> None:
    d = draft(HEAD + "1、" + sentence + "\n")
    assert d.doc["lateness"] == rule
    assert d.sources[("lateness",)]


@pytest.mark.parametrize(("sentence", "n"), [
    ("比赛迟到15分钟判弃权负,累计两轮弃权不再编排。", 2),
    ("弃权1次取消竞赛资格。", 1),
    ("弃权一次后不在编排下轮比赛。", 1),
    ("开赛15分钟后未到赛场者,视为本轮弃权,弃权两轮者不再参与。", 2),
])
def test_exclusion_after_forfeits(sentence: str, n: int) -> None:
    assert draft(HEAD + "1、" + sentence + "\n").doc["withdrawal"]["exclude_after_forfeits"] == n


def test_a_forfeit_without_a_consequence_excludes_no_one() -> None:
    d = draft(HEAD + "1、取得資格者如有棄權,則由後一名遞補。\n")
    assert "withdrawal" not in d.doc


def test_elimination_inside_a_swiss() -> None:
    d = draft(HEAD + "1、采用七轮积分编排淘汰制,三轮以后0分淘汰,四轮以后2分淘汰。\n")
    fmt = d.doc["stages"][0]["format"]
    assert fmt["kind"] == "swiss" and fmt["rounds"] == 7
    assert fmt["elimination"] == {"after_rounds": [{"round": 3, "score_at_most": 0}, {"round": 4, "score_at_most": 2}]}
    d = draft(HEAD + "1、瑞士制三敗淘汰。\n")
    assert d.doc["stages"][0]["format"]["elimination"] == {"losses": 3}  # out after the third loss
    assert not any("格式不能表示" in q.question for q in d.open)  # the format states it now


def test_a_division_on_a_smaller_board() -> None:
    d = draft("2021年某县中小学生围棋比赛\n一、主办单位:某局\n二、比赛分组\n幼儿组:各幼儿园在园学生\n"
              "小学组:各小学在校学生\n三、采用最新规则进行比赛,幼儿组采用13路棋盘。\n")
    boards = {x["name"]: x.get("board_size") for x in d.doc["divisions"]}
    assert boards == {"幼儿组": 13, "小学组": None}  # the others play on rules.board_size (19)
