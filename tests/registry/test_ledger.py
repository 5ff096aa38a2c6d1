"""The fee ledger's arithmetic (issue 46), from the seeds' sentences; money is integers of 分."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.conftest import REGULATIONS
from yisai.formats.regulation_file import load
from yisai.registry.entry import Entry
from yisai.registry.ledger import (
    Line,
    absent_refund_refusal,
    appeal_due,
    appeal_refund_refusal,
    entry_due,
    place_due,
    refund_limit,
    team_due,
    totals,
)
from yisai.vocabulary.money import fen, yuan_text

SHANHAI = load(REGULATIONS / "2025-shanhai-cup.toml")  # seed 000
XIAOQIWANG = load(REGULATIONS / "2025-xiaoqiwang.toml")  # seed 002
TEAM_LEAGUE = load(REGULATIONS / "examples" / "team-league.toml")
SRC = Path(__file__).resolve().parents[2] / "src" / "yisai"
MONEY_MODULES = [SRC / "vocabulary" / "money.py", SRC / "registry" / "ledger.py", SRC / "store" / "fee_models.py",
                 SRC / "store" / "fee_rows.py",
                 SRC / "services" / "fees.py", *sorted((SRC / "services" / "payments").glob("*.py")),
                 SRC / "web" / "fees.py", SRC / "formats" / "fees_export.py"]


def test_the_seeds_fees_in_fen() -> None:
    # seed 000: 线下赛收取赛事服务费260元 → 260 × 100 = 26000 分
    assert entry_due(Entry(player_id="1", division="open", fee_due=260)) == 26_000
    # seed 000: 申诉费2000元 → 200000 分; seed 002: 申诉费1000元 → 100000 分
    assert appeal_due(SHANHAI.appeals.fee) == 200_000 if SHANHAI.appeals else False
    assert appeal_due(XIAOQIWANG.appeals.fee) == 100_000 if XIAOQIWANG.appeals else False
    # team-league: 报名费600元, per = "team" → 60000 分 once per team; the seeds have no team fee
    assert team_due(TEAM_LEAGUE) == 60_000 and team_due(SHANHAI) == 0
    assert fen(1) == 100 and yuan_text(26_000) == "260.00" and yuan_text(-5) == "-0.05" and yuan_text(101) == "1.01"


def test_a_qualifier_place_owes_the_finals_fee() -> None:
    # seed 000: 线下赛赛事服务费 260元 applies to regional/semifinal/final; 线上赛报名费 0元 to online:
    # a place won online owes what the final charges, 26000 分, in the open pool and the youth pool's divisions
    assert [place_due(SHANHAI, d, "final") for d in ("open", "junior", "kids")] == [26_000] * 3
    assert place_due(SHANHAI, "open", "online") == 0  # the qualifier itself is free


def test_one_writer_of_yuan_in_two_styles() -> None:
    """Accounts keep the cents (260.00); prize money is written as people write it (1200, 1187.50)."""
    assert [yuan_text(f, cents=False) for f in (120_000, 118_750, -5, 0)] == ["1200", "1187.50", "-0.05", "0"]
    assert [yuan_text(f) for f in (120_000, 0)] == ["1200.00", "0.00"]


def test_a_line_owes_due_minus_paid_plus_refunded() -> None:
    a = Line("entry", 1, "甲", 26_000, 26_000, 0)  # paid in full: owes 26000 - 26000 = 0
    b = Line("appeal", 2, "乙", 200_000, 200_000, 200_000)  # upheld, refunded: owes nothing again, keeps 0
    c = Line("entry", 3, "丙", 26_000, 0, 0)
    assert (a.balance, b.balance, c.balance) == (0, 0, 26_000)
    assert (a.kept, b.kept) == (26_000, 0)
    assert a.settled and b.settled and not c.settled
    t = totals([a, b, c])
    # due 26000 + 200000 + 26000 = 252000; paid 26000 + 200000 = 226000; refunded 200000;
    # owed 252000 - 226000 = 26000; kept 226000 - 200000 = 26000
    assert (t.due, t.paid, t.refunded, t.balance, t.kept) == (252_000, 226_000, 200_000, 26_000, 26_000)
    assert refund_limit(26_000, 0) == 26_000 and refund_limit(200_000, 200_000) == 0


def test_a_no_show_keeps_nothing_back_where_the_regulation_says_so() -> None:
    # seed 000: 报名后无故不参加比赛者，赛事服务费不予退还 (the offline stages of every division)
    why = absent_refund_refusal(SHANHAI, "open")
    assert why is not None and "报名后无故不参加比赛者，赛事服务费不予退还" in why.zh
    # seed 002 charges no service fee and keeps nothing
    assert absent_refund_refusal(XIAOQIWANG, XIAOQIWANG.divisions[0].id) is None


def test_an_appeal_fee_comes_back_only_when_upheld() -> None:
    # both seeds: 胜诉退还，败诉则不予退还
    assert appeal_refund_refusal(SHANHAI, "upheld") is None
    for status in ("dismissed", "filed"):
        why = appeal_refund_refusal(SHANHAI, status)
        assert why is not None and "胜诉退还，败诉则不予退还" in why.zh


def _money_floats(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id in ("float", "Float", "Numeric", "Decimal"):
            found.append(f"{path.name}:{node.lineno} {node.id}")
        elif isinstance(node, ast.Attribute) and node.attr in ("Float", "Numeric"):
            found.append(f"{path.name}:{node.lineno} {node.attr}")
        elif isinstance(node, ast.Constant) and isinstance(node.value, float):
            found.append(f"{path.name}:{node.lineno} {node.value!r}")
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
            found.append(f"{path.name}:{node.lineno} true division")
    return found


def test_no_float_anywhere_in_money() -> None:
    """Every module that holds money: no float type, no float literal, no true division."""
    present = [p for p in MONEY_MODULES if p.exists()]
    assert len(present) >= 7
    assert [f for p in present for f in _money_floats(p)] == []
