"""Issue 41's prize rules, each from a sentence of a real 规程, on the kids' example regulation:

* 等级奖 by share: "按参赛人数的5%、10%、15%的获奖比例分别评出一、二、三等奖" (corpus text 04);
* 等级奖 by wins: "7胜 一等奖, 4–6胜 二等奖, 1–3胜 三等奖";
* 最佳进步奖 given by the chief referee's judgement (named, no place);
* docking a fixed share for missing the 颁奖仪式, tax withheld;
* and the contradictions `regulation check` refuses, each naming its field.

Every expected value is worked out in the comments from the sentence.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from tests.awards.awardfields import REGULATIONS, player, results, table
from yisai.awards.decisions import Docking, JudgedWinner, PrizeDecisions
from yisai.awards.prizes import compute_prizes
from yisai.formats.regulation_summary import summarize
from yisai.record import Game, Result
from yisai.regulation.loader import RegulationError, loads

KIDS = (REGULATIONS / "examples" / "2026-kids-dan-grading.toml").read_text("utf-8")

SHARE = """
[[prizes.graded]]
id = "dan-grades"
name = "段位组等级奖"
division = "dan"
by = "share"
grades = [
  { name = "一等奖", percent = 5, gift = "奖杯" },
  { name = "二等奖", percent = 10, gift = "奖牌" },
  { name = "三等奖", percent = 15, gift = "奖品" },
]
"""

WINS = """
[[prizes.graded]]
id = "kyu-grades"
name = "级位组等级奖"
division = "kyu"
by = "wins"
kind = "cash"
grades = [
  { name = "一等奖", min_wins = 7, amount = 300 },
  { name = "二等奖", min_wins = 4, max_wins = 6, amount = 200 },
  { name = "三等奖", min_wins = 1, max_wins = 3, amount = 100 },
]
"""

JUDGED = """
[[prizes.judged]]
id = "progress"
name = "最佳进步奖"
count = 2
kind = "cash"
amount = 500
"""


def _reg(extra: str, prizes_head: str = "pre_tax = false"):  # type: ignore[no-untyped-def]
    return loads(KIDS.replace("pre_tax = false", prizes_head, 1) + extra, "kids.toml")


def test_grades_by_share_of_entrants() -> None:
    # 30 entrants: 5% = 1.5 → 2, 10% = 3, 15% = 4.5 → 5 (rounded half up): cuts after places 2,
    # 5 and 10. Two players share place 5, so both are inside the 二等奖 cut; the next is 7th.
    reg = _reg(SHARE)
    ids = [f"d{i}" for i in range(1, 31)]
    places = [1, 2, 3, 4, 5, 5, *range(7, 31)]
    r = results(reg, [player(p) for p in ids], [table("dan", "all", ids, places=places)],
                entrants={"dan": ids})
    grades = {ln.player_id: ln.note.split("；")[0] for ln in compute_prizes(r).list("dan-grades").lines}
    assert grades == {"d1": "一等奖", "d2": "一等奖", "d3": "二等奖", "d4": "二等奖", "d5": "二等奖",
                      "d6": "二等奖", "d7": "三等奖", "d8": "三等奖", "d9": "三等奖", "d10": "三等奖"}
    # rounded down: 1, 3, 4 → cuts 1, 4, 8
    down = _reg(SHARE.replace('by = "share"', 'by = "share"\nrounding = "down"'))
    lines = compute_prizes(replace(r, regulation=down)).list("dan-grades").lines
    assert [ln.player_id for ln in lines if ln.note.startswith("三等奖")] == ["d5", "d6", "d7", "d8"]


def test_grades_by_wins() -> None:
    # seven rounds; k1 wins all 7, k2 wins 4, k3 wins 1 (and a bye, not a win), k4 none
    reg = _reg(WINS)
    ids = ["k1", "k2", "k3", "k4"]
    games = []
    for rnd in range(1, 8):
        games.append(Game(rnd, "k1", "k4", Result.BLACK_WINS))
        games.append(Game(rnd, "k2", "k3", Result.BLACK_WINS if rnd <= 4 else Result.WHITE_WINS if rnd == 5
                          else Result.BLACK_WINS if rnd == 6 else Result.UNKNOWN))
    games = [g for g in games if g.result is not Result.UNKNOWN] + [Game(7, "k3", None, Result.BLACK_WINS,
                                                                        played=False)]
    r = results(reg, [player(p, rank="5级") for p in ids], [table("kyu", "all", ids)],
                entrants={"kyu": ids}, games={"kyu": games})
    # k2: rounds 1–4 and 6 → 5 wins; k3: round 5 → 1 win (the bye in round 7 is no win)
    lines = compute_prizes(r).list("kyu-grades").lines
    assert [(ln.player_id, ln.amount, ln.note) for ln in lines] == [
        ("k1", 300, "一等奖；7胜"), ("k2", 200, "二等奖；5胜"), ("k3", 100, "三等奖；1胜")]


def test_judged_award_named_by_the_chief_referee() -> None:
    reg = _reg(JUDGED)
    ids = ["d1", "d2", "d3"]
    r = results(reg, [player(p) for p in ids], [table("dan", "all", ids)], entrants={"dan": ids})
    assert compute_prizes(r).list("progress").lines == ()
    assert "待裁判长评定" in compute_prizes(r).list("progress").note
    named = replace(r, prize_decisions=PrizeDecisions(judged=(JudgedWinner("progress", "d3", "较上届提高5名"),)))
    (line,) = compute_prizes(named).list("progress").lines
    assert (line.player_id, line.place, line.amount) == ("d3", None, 500)
    assert "裁判长评定：较上届提高5名" in line.note


def test_fixed_docking_and_tax() -> None:
    # "未参加颁奖仪式者扣除奖金的20%" (a fixed share, no amount to decide) and 20% tax withheld,
    # on the 500-yuan judged award of a winner who missed the ceremony
    reg = _reg(JUDGED, "pre_tax = true\nceremony_absence = { docking = \"fixed\", percent = 20 }\n"
                       "tax_withheld_percent = 20")
    ids = ["d1", "d2", "d3"]
    r = results(reg, [player(p) for p in ids], [table("dan", "all", ids)], entrants={"dan": ids})
    named = replace(r, prize_decisions=PrizeDecisions(
        judged=(JudgedWinner("progress", "d2", "进步显著"),), docked=(Docking("progress", "d2", None, "未到场"),)))
    (line,) = compute_prizes(named).list("progress").lines
    # 500 yuan: docked 20% = 100 yuan; tax 20% of 400 = 80 yuan; net 320 yuan
    assert (line.amount, line.docked, line.tax, line.net) == (500, 10000, 8000, 32000)


def test_summary_states_the_new_rules() -> None:
    reg = _reg(SHARE + WINS + JUDGED, "pre_tax = true\nceremony_absence = { docking = \"decided\", percent = 50 }\n"
                                      "tax_withheld_percent = 20")
    text = "\n".join(summarize(reg))
    assert "最佳进步奖 (全体参赛者): 由裁判长评定, 至多2名, 500元" in text
    assert "段位组等级奖 (段位组, 按参赛人数比例 (依名次)): 5% 一等奖 奖杯、10% 二等奖 奖牌、15% 三等奖 奖品" in text
    assert "7胜以上 一等奖" in text and "4–6胜 二等奖" in text and "1–3胜 三等奖" in text
    assert "未参加颁奖仪式者由裁判长决定扣除部分奖金 (最多50%)" in text
    assert "按20%代扣个人所得税" in text


@pytest.mark.parametrize(("head", "extra", "field"), [
    ("pre_tax = false\ntax_withheld_percent = 20", "", "tax_withheld_percent"),
    ("pre_tax = false", SHARE.replace("percent = 15", "percent = 90"), "graded"),
    ("pre_tax = false", WINS.replace("max_wins = 6", "max_wins = 7"), "graded"),
    ("pre_tax = false", WINS.replace('by = "wins"', 'by = "share"'), "graded"),
    ("pre_tax = false", JUDGED.replace('count = 2', 'count = 2\ndivision = "nope"'), "judged"),
])
def test_contradictions_are_refused_naming_the_field(head: str, extra: str, field: str) -> None:
    with pytest.raises(RegulationError) as err:
        _reg(extra, head)
    text = str(err.value)
    assert "prizes" in text and field in text
