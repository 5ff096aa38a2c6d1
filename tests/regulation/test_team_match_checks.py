"""A file that says something must do it (issue 23): team settings that would be ignored are
refused, each on its line and field, with what to write instead."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from tests.conftest import REGULATIONS
from tests.regulation_text import issues_of as _issues
from tests.regulation_text import line_of as _line_of
from yisai.cli.app import app
from yisai.formats.regulation_file import load
from yisai.regulation.team_match import TeamMatchFormat

runner = CliRunner()
LEAGUE = REGULATIONS / "examples" / "team-league.toml"
LEAGUE_TEXT = LEAGUE.read_text(encoding="utf-8")
SHANHAI_TEXT = (REGULATIONS / "2025-shanhai-cup.toml").read_text(encoding="utf-8")




def test_the_example_team_league_loads_with_its_stated_settings() -> None:
    reg = load(LEAGUE)
    fmt = reg.stage("league").format
    assert isinstance(fmt, TeamMatchFormat)
    assert (fmt.system, fmt.boards, fmt.min_women, fmt.competition) == ("round_robin", 3, 1, "league")
    assert (fmt.match_points.win, fmt.match_points.draw, fmt.match_points.loss) == (2, 1, 0)
    assert [p.name for p in fmt.board_prizes] == ["最佳主将", "最佳二台", "最佳三台"]
    assert reg.fees.items[0].per == "team"


def test_match_points_with_no_team_match_stage_is_refused() -> None:
    # The issue's silent failure: a Swiss individual stage and method = "match_points".
    text = LEAGUE_TEXT.replace('kind = "team_match"\nsystem = "round_robin"', 'kind = "swiss"\nrounds = 5')
    cut = text.index("boards = 3")
    text = text[:cut] + text[text.index("[stages.time_control]"):]
    issues = _issues(text)
    line = _line_of(text, 'method = "match_points"')
    assert any(i.startswith(f"f.toml:{line}: teams.competitions.0.method: 场分 (match_points) 来自团体赛")
               and 'competition = "league"' in i for i in issues), issues


def test_individual_tie_breaks_on_match_points_are_refused() -> None:
    text = LEAGUE_TEXT.replace('tie_breaks = ["board_points", "direct"', 'tie_breaks = ["best_place", "direct"')
    (issue,) = _issues(text)
    assert issue.startswith(f"f.toml:{_line_of(text, 'best_place')}: teams.competitions.0.tie_breaks.0: best_place")
    assert "board1_points" in issue  # what is allowed


def test_ranking_on_match_points_has_no_effect_and_is_refused() -> None:
    text = LEAGUE_TEXT.replace('method = "match_points"', 'method = "match_points"\nranking = "players"')
    (issue,) = _issues(text)
    line = _line_of(text, 'ranking = "players"')
    assert issue.startswith(f"f.toml:{line}: teams.competitions.0.ranking:")
    assert "无效" in issue


def test_match_tie_breaks_on_sum_of_scores_are_refused() -> None:
    text = SHANHAI_TEXT.replace('tie_breaks = ["sos", "best_place", "next_place"]',
                                'tie_breaks = ["board1_points", "lot"]', 1)
    (issue,) = _issues(text)
    assert f":{_line_of(text, 'board1_points')}: teams.competitions.0.tie_breaks.0: board1_points 只用于场分制" in issue


def test_sum_of_scores_without_a_ranking_is_refused() -> None:
    # Before: accepted, every member had no place and no team was ranked.
    text = SHANHAI_TEXT.replace('method = "sum_of_scores"\ncomplete_only = true\nranking = "mixed"\n',
                                'method = "sum_of_scores"\ncomplete_only = true\n', 1)
    (issue,) = _issues(text)
    # the missing key is reported on its table's line
    assert issue.startswith(f"f.toml:{_line_of(text, '[[teams.competitions]]')}: ")
    assert "teams.competitions.0.ranking: sum_of_scores 要计算队员的个人名次或积分, 但没有指定名次表" in issue


def test_team_match_stage_references_are_checked() -> None:
    text = LEAGUE_TEXT.replace('competition = "league"\n# 六（二）', 'competition = "leag"\n# 六（二）')
    issues = _issues(text)
    line = _line_of(text, 'competition = "leag"')
    assert any(f":{line}: stages.0.format.competition: 未知团体项目: leag" in i for i in issues)
    # and the competition it no longer feeds is refused too
    assert any("teams.competitions.0.method" in i for i in issues)


def test_team_match_numbers_tie_to_each_other() -> None:
    text = LEAGUE_TEXT.replace("min_women = 1", "min_women = 4").replace("size = 3", "size = 4")
    text = text.replace("match_points = { win = 2, draw = 1, loss = 0 }", "match_points = { win = 1, draw = 1, loss = 0 }")
    issues = "\n".join(_issues(text))
    assert "stages.0.format.min_women: 至少4名女棋手, 多于每场台数3" in issues
    assert "teams.competitions.0.size: 计成绩人数 4 与每场台数 3 不同" in issues
    assert "stages.0.format.match_points: 场分 胜1 平1 负0 不合理" in issues
    swiss = LEAGUE_TEXT.replace('system = "round_robin"', 'system = "swiss"')
    assert any("stages.0.format.rounds: 团体积分编排须写明轮数" in i for i in _issues(swiss))


def test_show_prints_the_team_match_rules_and_marks_defaults(tmp_path: Path) -> None:
    zh = runner.invoke(app, ["regulation", "show", str(LEAGUE)])
    assert zh.exit_code == 0, zh.output
    assert "赛制: 团体赛, 单循环 (贝格尔编排表), 每场3台" in zh.output
    assert "场分: 胜2 平1 负0 (局分多者胜该场, 相同为平)" in zh.output
    assert "场分: 胜2 平1 负0 (局分多者胜该场, 相同为平)（默认）" not in zh.output  # stated
    assert "轮空: 记胜一场, 各台记胜局局分（默认）" in zh.output  # not stated
    assert "最佳主将: 第1台该台局分最多 (至少3场), 取1名, 奖金1000元" in zh.output
    assert "报名费: 600元/队" in zh.output
    en = runner.invoke(app, ["--lang", "en", "regulation", "show", str(LEAGUE)])
    assert "match points: win 2, draw 1, loss 0" in en.output and "600 yuan per team" in en.output.replace("600元", "600 yuan")


def test_a_match_points_competition_without_tie_breaks_gets_the_match_default_not_a_refusal() -> None:
    import re

    from yisai.regulation.loader import loads

    text = (Path(__file__).resolve().parents[2] / "regulations" / "examples" / "team-league.toml").read_text("utf-8")
    bare = re.sub(r"\ntie_breaks = \[[^\]]*\]\n", "\n", text, count=1)
    assert bare != text
    comp = next(c for c in loads(bare, "league.toml").teams.competitions if c.method == "match_points")
    # 局分, then 直胜, then 主将台局分: values a 场分 table has (no individual places to compare)
    assert comp.tie_breaks == ["board_points", "direct", "board1_points"]
    assert "tie_breaks" not in comp.model_fields_set  # shown as a default, not as the file's words
