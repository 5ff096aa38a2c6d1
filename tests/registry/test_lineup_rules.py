"""Line-up rules of issue 41 by hand: "每场至少1名18岁以下棋手出场" (ages counted on the stage's
first day, 2026-04-18), a leader who may or may not play.

Five registered, in this order: 甲 (born 1990), 乙 (born 2008-04-19: 17 on 2026-04-18, one day
short of 18), 丙 (woman, born 1995), 丁 (born 2008-04-18: 18 that very day), 戊 (born 2012).
Under 18 on 2026-04-18: 乙 and 戊 only. 甲 is also the team's leader (领队).
"""

from __future__ import annotations

from datetime import date

from yisai.registry.lineup import default_lineup, lineup_problems
from yisai.registry.person import Player
from yisai.registry.team import Team, TeamMember
from yisai.regulation.team_match import TeamMatchFormat
from yisai.vocabulary import Gender

DAY = date(2026, 4, 18)
BORN = {"甲": date(1990, 1, 1), "乙": date(2008, 4, 19), "丙": date(1995, 5, 5), "丁": date(2008, 4, 18),
        "戊": date(2012, 1, 1)}
PLAYERS = {pid: Player(id=pid, name=pid, gender=Gender.FEMALE if pid == "丙" else Gender.MALE, birth_date=b)
           for pid, b in BORN.items()}
TEAM = Team(id="3", name="三队", leaders=("甲",), members=tuple(TeamMember(player_id=p) for p in BORN))
YOUTH = {"youth_quota": {"players": 1, "under_age": 18}}


def fmt(**kw: object) -> TeamMatchFormat:
    return TeamMatchFormat.model_validate({"kind": "team_match", "system": "swiss", "rounds": 5,
                                           "boards": 3, "competition": "c", **kw})


def texts(problems: list) -> list[str]:
    return [p.zh for p in problems]


def test_the_youth_quota_counts_ages_on_the_first_day() -> None:
    assert lineup_problems(TEAM, ["甲", "乙", "丙"], PLAYERS, fmt(**YOUTH), age_on=DAY) == []
    # 丁 turns 18 on the day: not under 18
    assert texts(lineup_problems(TEAM, ["甲", "丙", "丁"], PLAYERS, fmt(**YOUTH), age_on=DAY)) == [
        "规程: 每场至少1名18岁以下棋手出场; 名单中2026年4月18日未满18周岁的棋手0名"]
    two = fmt(youth_quota={"players": 2, "under_age": 18})
    assert texts(lineup_problems(TEAM, ["甲", "乙", "丁"], PLAYERS, two, age_on=DAY)) == [
        "规程: 每场至少2名18岁以下棋手出场; 名单中2026年4月18日未满18周岁的棋手1名"]
    assert lineup_problems(TEAM, ["乙", "丁", "戊"], PLAYERS, two, age_on=DAY) == []


def test_a_leader_may_play_unless_the_regulation_says_not() -> None:
    assert lineup_problems(TEAM, ["甲", "乙", "丙"], PLAYERS, fmt()) == []
    assert texts(lineup_problems(TEAM, ["甲", "乙", "丙"], PLAYERS, fmt(leader_may_play=False))) == [
        "规程: 领队不得兼任队员出场; 甲 是三队的领队"]


def test_the_default_line_up_meets_the_youth_quota() -> None:
    # registered order 甲 乙 丙 already has 乙
    assert default_lineup(TEAM, PLAYERS, fmt(**YOUTH), age_on=DAY) == ["甲", "乙", "丙"]
    # 乙 absent: 甲 丙 丁 has nobody under 18; 丁 (lowest-registered, not needed elsewhere) gives way to 戊
    assert default_lineup(TEAM, PLAYERS, fmt(**YOUTH), ["甲", "丙", "丁", "戊"], age_on=DAY) == ["甲", "丙", "戊"]
    # two boards, 甲 丙 戊 present: 甲 丙 has nobody under 18, so the lowest-registered, 丙, gives
    # way to 戊 — unless one woman is required: then 丙 stays and 甲 gives way
    assert default_lineup(TEAM, PLAYERS, fmt(boards=2, **YOUTH), ["甲", "丙", "戊"], age_on=DAY) == ["甲", "戊"]
    both = fmt(boards=2, min_women=1, **YOUTH)
    assert default_lineup(TEAM, PLAYERS, both, ["甲", "丙", "戊"], age_on=DAY) == ["丙", "戊"]
    # a leader who may not play is left out of the default: 乙 丙 丁
    assert default_lineup(TEAM, PLAYERS, fmt(leader_may_play=False)) == ["乙", "丙", "丁"]
