"""The fields for lateness, exclusion after forfeits and per-division boards and clocks: what
they mean (values computed from the rule's sentence), how `check` refuses contradictions (a
Chinese message naming the field and its line), and what the summary prints."""

from __future__ import annotations

import pytest

from tests.regulation_text import issues_of, line_of
from yisai.formats.regulation_summary import summarize
from yisai.i18n import use_language
from yisai.record.games import Result
from yisai.record.parse import parse_result
from yisai.regulation import loads
from yisai.regulation.divisions import stones_to_win
from yisai.regulation.lateness import Lateness
from yisai.regulation.rules import PlayRules

BASE = """
schema_version = 1
id = "t"
name = "测试赛"
year = 2026
[issued]
by = "测试协会"
on = 2026-01-10
[organisers]
hosts = ["测试协会"]
[[divisions]]
id = "jia"
name = "甲组"
[[divisions.rankings]]
id = "all"
name = "甲组"
[[divisions]]
id = "yi"
name = "乙组(成长组)"
{yi}
[[divisions.rankings]]
id = "all"
name = "乙组"
[[stages]]
id = "main"
name = "比赛"
kind = "main"
divisions = ["jia", "yi"]
[stages.format]
kind = "swiss"
rounds = 5
[stages.time_control]
main_minutes = 60
{tail}
"""


def text(yi: str = "", tail: str = "") -> str:
    return BASE.format(yi=yi, tail=tail)


@pytest.mark.parametrize(("rule", "late", "loses"), [
    # "迟到15分钟判负": 15 minutes late is already a loss, 14 is not.
    (Lateness(minutes=15), 14, False), (Lateness(minutes=15), 15, True),
    # "迟到超过10分钟者判负": 10 is not more than 10; 11 is.
    (Lateness(minutes=10, inclusive=False), 10, False), (Lateness(minutes=10, inclusive=False), 11, True),
])
def test_the_limit_as_the_sentence_says(rule: Lateness, late: int, loses: bool) -> None:
    assert rule.decide(late).loses is loses


def test_below_the_limit_the_clock_loses_the_minutes_or_twice_them() -> None:
    # "遲到加倍扣時, 遲到20分鐘裁定敗": 7 minutes late → 14 minutes off the clock.
    assert Lateness(minutes=20, clock_factor=2).decide(7).clock_minutes == 14
    assert Lateness(minutes=20).decide(7).clock_minutes == 7
    assert Lateness(minutes=15).decide(20).reason == "迟到判负"
    assert Lateness(minutes=15, outcome="forfeit").decide(20).reason == "弃权"


def test_minutes_late_are_read_from_the_result_word() -> None:
    p = parse_result("黑迟到17分钟")
    assert (p.result, p.played, p.late_minutes) == (Result.WHITE_WINS, False, 17)
    assert parse_result("白方迟到 5").late_minutes == 5
    assert parse_result("白迟到20分").result == Result.BLACK_WINS
    assert parse_result("白迟到负").late_minutes is None  # the referee's own decision


@pytest.mark.parametrize(("size", "komi", "needs"), [
    (19, 7.5, 185),  # 黑贴3又3/4子, 黑185子取胜
    (9, 7.5, 45),    # 九路围空: 黑贴3又3/4子, 黑45子取胜
    (13, 7.5, 89),   # (169 + 7.5) / 2 = 88.25 → 89
    (9, 7.0, 45),    # (81 + 7) / 2 = 44 is a draw; 45 wins
])
def test_stones_black_needs(size: int, komi: float, needs: int) -> None:
    assert stones_to_win(PlayRules(board_size=size, komi=komi)) == needs


def test_a_lateness_limit_that_empties_the_clock_is_refused() -> None:
    # 60 minutes of main time; "遲到加倍扣時" with a 40-minute limit: a player 39 minutes late
    # still plays but loses 78 minutes of clock.
    src = text(tail="[lateness]\nminutes = 40\nclock_factor = 2\n")
    (issue,) = issues_of(src)
    assert f"f.toml:{line_of(src, 'minutes = 40')}: lateness.minutes:" in issue
    assert "迟到39分钟仍可对局" in issue and "扣时78分钟" in issue and "60分钟" in issue
    # 30 minutes doubled: 29 × 2 = 58 < 60 is fine.
    loads(text(tail="[lateness]\nminutes = 30\nclock_factor = 2\n"))


def test_a_division_clock_counts_too() -> None:
    src = text(yi="[divisions.time_control]\nmain_minutes = 20\n", tail="[lateness]\nminutes = 21\n")
    (issue,) = issues_of(src)
    assert "lateness.minutes" in issue and "乙组(成长组)" in issue and "20分钟" in issue


def test_excluded_as_without_a_limit_is_refused() -> None:
    src = text(tail='[withdrawal]\nexcluded_as = "disqualified"\n')
    (issue,) = issues_of(src)
    assert f"f.toml:{line_of(src, 'excluded_as')}: withdrawal.excluded_as:" in issue
    assert "exclude_after_forfeits" in issue


def test_a_komi_no_side_can_overcome_is_refused() -> None:
    src = text(yi="board_size = 5\nkomi = 30\n")
    (issue,) = issues_of(src)
    assert f"f.toml:{line_of(src, 'komi = 30')}: divisions.1.komi:" in issue and "25个点" in issue


def test_the_summary_says_each_rule_and_each_division_board() -> None:
    reg = loads(text(
        yi="board_size = 13\n[divisions.time_control]\nmain_minutes = 20\n",
        tail='[lateness]\nminutes = 15\noutcome = "forfeit"\n[withdrawal]\nexclude_after_forfeits = 2\n'))
    with use_language("zh"):
        lines = summarize(reg)
    body = "\n".join(lines)
    assert "迟到15分钟者该轮按弃权处理" in body
    assert "弃权满2轮者取消其后比赛资格, 不再编排, 已赛成绩有效 (按退赛处理)（默认）" in body
    assert "  - 本组棋盘13路, 贴7.5目(3又3/4子), 黑89子胜" in lines
    assert "  - 本组用时: 20分钟, 超时判负（默认）" in lines
    assert reg.play_rules_for("jia").board_size == 19 and reg.play_rules_for("yi").board_size == 13
    assert reg.time_control_for("yi", reg.stages[0]).main_minutes == 20  # type: ignore[union-attr]
    assert reg.time_control_for("jia", reg.stages[0]).main_minutes == 60  # type: ignore[union-attr]


def test_a_division_board_in_online_play_is_refused_as_doing_nothing() -> None:
    src = text(yi="board_size = 13\n").replace(
        '[stages.format]\nkind = "swiss"\nrounds = 5',
        '[[stages.periods]]\nnumber = 1\nstart = 2026-02-01\nend = 2026-02-07\n'
        '[stages.format]\nkind = "online_ladder"\nqualifiers = { jia = 8, yi = 8 }')
    assert "online_ladder" in src
    issues = issues_of(src)
    assert any(f"f.toml:{line_of(src, 'board_size = 13')}: divisions.1.board_size:" in i
               and "网络海选赛" in i and "不起作用" in i for i in issues), issues
