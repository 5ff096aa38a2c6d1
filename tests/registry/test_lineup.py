"""出场名单 rules (团体赛): registered order, substitutes, minimum women, and the default line-up."""

from __future__ import annotations

from yisai.registry.lineup import default_lineup, lineup_problems
from yisai.registry.person import Player
from yisai.registry.team import Team, TeamMember
from yisai.regulation.team_match import TeamMatchFormat
from yisai.vocabulary import Gender


def fmt(**kw: object) -> TeamMatchFormat:
    return TeamMatchFormat.model_validate({"kind": "team_match", "system": "swiss", "rounds": 5,
                                           "boards": 3, "competition": "c", **kw})


# 5 registered, in this order: 男1 男2 女3 男4 女5
PLAYERS = {pid: Player(id=pid, name=pid, gender=Gender.FEMALE if pid.startswith("女") else Gender.MALE)
           for pid in ("男1", "男2", "女3", "男4", "女5")}
TEAM = Team(id="7", name="七队", members=tuple(TeamMember(player_id=p) for p in PLAYERS))


def texts(problems: list) -> list[str]:
    return [p.zh for p in problems]


def test_a_substitute_may_play_when_the_order_is_kept() -> None:
    assert lineup_problems(TEAM, ["男1", "女3", "男4"], PLAYERS, fmt()) == []
    assert lineup_problems(TEAM, ["男2", "女3", "女5"], PLAYERS, fmt(min_women=2)) == []


def test_a_player_above_one_registered_before_him_is_refused() -> None:
    (p,) = texts(lineup_problems(TEAM, ["男1", "男4", "女3"], PLAYERS, fmt()))
    assert p == "台次顺序须按报名顺序: 女3 (报名第3位) 不能排在 男4 (报名第4位) 之后"
    assert lineup_problems(TEAM, ["男1", "男4", "女3"], PLAYERS, fmt(fixed_order=False)) == []


def test_every_broken_rule_is_reported() -> None:
    got = texts(lineup_problems(TEAM, ["男1", "男1", "外援", "男2"], PLAYERS, fmt(min_women=1)))
    assert "出场4人, 多于每场台数3" in got
    assert "男1 在名单中出现两次" in got
    assert "第3台 外援 不是七队的报名队员" in got
    assert "出场名单须至少有1名女棋手, 现有0名" in got


def test_a_short_line_up_is_allowed_its_last_boards_are_forfeited() -> None:
    assert lineup_problems(TEAM, ["男1", "女3"], PLAYERS, fmt()) == []
    assert texts(lineup_problems(TEAM, [], PLAYERS, fmt())) == ["出场名单不能为空"]


def test_default_line_up_is_the_registered_order_with_enough_women() -> None:
    assert default_lineup(TEAM, PLAYERS, fmt()) == ["男1", "男2", "女3"]
    # two women needed: the lowest man of the first three (男2) gives way to the next woman (女5)
    assert default_lineup(TEAM, PLAYERS, fmt(min_women=2)) == ["男1", "女3", "女5"]
    # fewer players than boards: the last board stays empty
    two = Team(id="8", name="八队", members=TEAM.members[:2])
    assert default_lineup(two, PLAYERS, fmt()) == ["男1", "男2"]
