"""`regulation show` states the prize and place rules the file now holds: the board prize's
tie rule, the pool, the order below a knockout — and 税前 only where some prize is money."""

from __future__ import annotations

from tests.awards.test_league_prize_rules import LEAGUE
from tests.conftest import REGULATIONS
from tests.printing.test_honour_prizes import honours_only, money_and_honours
from yisai.formats.regulation_summary import summarize
from yisai.regulation.loader import loads

RRKO = (REGULATIONS / "examples" / "round-robin-knockout.toml").read_text("utf-8")


def _text(toml: str) -> str:
    return "\n".join(summarize(loads(toml, "x.toml")))


def test_board_prize_tie_rule_and_pool_are_stated() -> None:
    text = _text(LEAGUE)
    assert "最佳主将: 第1台该台胜局最多 (至少3场), 取1名, 奖金1000元; 相同依次比较所在队团体名次; 仍相同者并列" in text
    assert "奖金总额: 8000元" in text
    single = _text(LEAGUE.replace('tie_breaks = ["team_place"]', "single = true"))
    assert "只评此名额, 仍相同抽签" in single


def test_places_below_the_knockout_are_stated() -> None:
    text = _text(RRKO.replace("third_place = true\n", "third_place = true\nplaces_below = [\n"
                              '  { from = 5, to = 8, criteria = ["score", "sos"] },\n'
                              '  { from = 9, criteria = ["group_place", "score", "sos"] },\n]\n', 1))
    assert "第5–8名按小组赛积分、对手分排列 (小组赛成绩), 仍相同者并列" in text
    assert "第9名以后按小组名次、小组赛积分、对手分排列" in text
    assert "未出线者按小组名次排列, 各组同名次者并列" not in text
    assert "未出线者按小组名次排列, 各组同名次者并列" in _text(RRKO)  # the default, when not written


def test_pre_tax_only_where_there_is_money() -> None:
    assert "税前" not in _text(honours_only())
    assert "注: 以上奖金均为税前奖金" in _text(money_and_honours())
