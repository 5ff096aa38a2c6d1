"""The period list (pure): more wins first at equal points, everyone tied at the quota qualifies,
and what an earlier qualifier does to the quota under each regulation choice (hand-made table)."""

from __future__ import annotations

from tests.conftest import REGULATIONS
from yisai.awards.qualifier import period_list
from yisai.formats.regulation_file import load
from yisai.qualifier.periods import ladder_stage

REG = load(REGULATIONS / "2025-shanhai-cup.toml")
_, LADDER = ladder_stage(REG)

# A01…A37: 4 points, 2 wins; B: 2 points with 2 wins (2 wins, 1 loss); C1, C2: 2 points, 1 win.
LINES = {f"A{i:02d}": (f"A{i:02d}", 4, 2, 2) for i in range(1, 38)}
LINES |= {"B": ("B", 2, 2, 3), "C1": ("C1", 2, 1, 1), "C2": ("C2", 2, 1, 1)}


def test_more_wins_first_then_the_quota() -> None:
    rows = {r.player: r for r in period_list(LADDER, "open", LINES, {})}
    assert rows["B"].place == 38 and rows["B"].qualified and rows["B"].tied_at is None
    assert rows["C1"].place == rows["C2"].place == 39 and not rows["C1"].qualified
    assert sum(r.qualified for r in rows.values()) == 38


def test_earlier_qualifier_keeps_the_place_by_default() -> None:
    assert LADDER.earlier_qualifier_place == "kept"  # seed 000 is silent: the regulation file's choice
    rows = {r.player: r for r in period_list(LADDER, "open", LINES, {"A01": 1})}
    a01 = rows["A01"]
    assert a01.place == 1 and not a01.qualified and a01.note() == "已在第1期晋级"
    assert rows["B"].qualified and not rows["C1"].qualified
    assert sum(r.qualified for r in rows.values()) == 37  # nobody moves up


def test_place_passed_on_when_the_regulation_says_so() -> None:
    ladder = LADDER.model_copy(update={"earlier_qualifier_place": "passed_on"})
    rows = {r.player: r for r in period_list(ladder, "open", LINES, {"A01": 1})}
    assert rows["A01"].place == 0 and not rows["A01"].qualified
    assert rows["B"].place == 37
    assert rows["C1"].qualified and rows["C2"].qualified and rows["C1"].place == 38
    assert rows["C1"].note() == "并列第38名，一同晋级"
    assert sum(r.qualified for r in rows.values()) == 39  # 36 A + B + the two tied for 38th
