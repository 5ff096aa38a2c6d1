"""Round robin and knockout in a regulation file: the example loads and shows its choices;
settings that cannot work or would have no effect are refused on their line with the reason."""

from __future__ import annotations

import pytest

from tests.conftest import REGULATIONS
from tests.regulation_text import issues_of as _issues
from tests.regulation_text import line_of as _line_of
from yisai.formats.regulation_summary import summarize
from yisai.regulation import loads
from yisai.regulation.stages import RoundRobinFormat

EXAMPLE = (REGULATIONS / "examples" / "round-robin-knockout.toml").read_text(encoding="utf-8")
XIAO = (REGULATIONS / "2025-xiaoqiwang.toml").read_text(encoding="utf-8")




def test_the_example_loads_and_shows_groups_bracket_and_rules() -> None:
    reg = loads(EXAMPLE, "e.toml")
    fmt = reg.stages[0].format
    assert isinstance(fmt, RoundRobinFormat) and fmt.knockout is not None
    assert (fmt.groups, fmt.knockout.qualifiers_per_group, fmt.knockout.third_place) == (["A", "B", "C", "D"], 2, True)
    assert reg.ranking.mini_league
    text = "\n".join(summarize(reg))
    assert "分A、B、C、D4组单循环" in text
    assert "交叉对阵 A1–B2、C1–D2、B1–A2、D1–C2" in text
    assert "半决赛负者进行季军赛" in text
    assert "积分、小循环" in text
    bracket_lines = [x for x in text.splitlines() if "淘汰赛" in x or "单循环" in x]
    assert bracket_lines and not any("（默认）" in x for x in bracket_lines)  # every bracket setting is stated


def test_unstated_knockout_settings_are_marked_as_defaults() -> None:
    text = EXAMPLE.replace('on_draw = "replay"\n', "").replace('third_place = true\n', "")
    shown = "\n".join(summarize(loads(text, "e.toml")))
    assert "不设季军赛, 半决赛负者并列第3名（默认）" in shown
    assert "淘汰赛和棋: 重赛（默认）" in shown


@pytest.mark.parametrize("old, new, where, words", [
    ('groups = ["A", "B", "C", "D"]', 'groups = ["A", "B", "C"]', "bracket", "交叉对阵须有2、4、8"),
    ("qualifiers_per_group = 2", "qualifiers_per_group = 3", "qualifiers_per_group", "交叉对阵 (cross) 须每组2人出线"),
    ('groups = ["A", "B", "C", "D"]', 'groups = ["A", "A", "C", "D"]', "groups", "组名重复"),
])
def test_impossible_brackets_are_refused_on_their_line(old: str, new: str, where: str, words: str) -> None:
    text = EXAMPLE.replace(old, new)
    issues = _issues(text)
    assert any(words in i for i in issues), issues
    hit = next(i for i in issues if words in i)
    assert f".format.knockout.{where}" in hit or f".format.{where}" in hit


def test_groups_without_a_knockout_are_refused() -> None:
    start = EXAMPLE.index("[stages.format.knockout]")
    end = EXAMPLE.index("[stages.time_control]")
    issues = _issues(EXAMPLE[:start] + EXAMPLE[end:])
    assert any("分4组循环但没有淘汰赛" in i and "stages.0.format.groups" in i for i in issues), issues


def test_third_place_without_semi_finals_is_refused() -> None:
    text = EXAMPLE.replace('groups = ["A", "B", "C", "D"]', 'groups = ["A"]').replace(
        'bracket = "cross"', 'bracket = "seeded"')
    issues = _issues(text)
    assert any("没有半决赛, 季军赛无从进行" in i for i in issues), issues
    assert issues[0].startswith(f"f.toml:{_line_of(text, 'third_place')}:")


def test_mini_league_needs_a_round_robin_and_makes_a_following_direct_useless() -> None:
    swiss = XIAO.replace("undefeated_champion = true", "undefeated_champion = true\nmini_league = true")
    issues = _issues(swiss)
    assert any("小循环只用于循环赛" in i and "ranking.mini_league" in i for i in issues), issues
    doubled = EXAMPLE.replace('criteria = ["score", "sodos"', 'criteria = ["score", "direct", "sodos"')
    issues = _issues(doubled)
    assert any("紧随其后的直胜不会起作用" in i and "ranking.criteria.1" in i for i in issues), issues
