"""团体对阵单 and the team standings on paper: a four-team league after round 1, every match
with its boards, colours, results, 局分 and 场分 (worked out from the results entered here)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.printing.conftest import pdftotext
from tests.web.team_league import NOW, build_league
from yisai.services.context import InputError, open_context
from yisai.services.identity import Actor, Role
from yisai.services.printing import PrintOptions, print_pdf
from yisai.services.round_results import record_result
from yisai.services.settings import Settings
from yisai.services.team_matches import team_round_view


def _flat(text: str) -> str:
    return re.sub(r"\s+", "", text)


def test_match_sheets_and_team_standings(tmp_path: Path) -> None:
    db = str(tmp_path / "league.sqlite")
    build_league(db)
    settings = Settings(database=db, clock=lambda: NOW)
    with open_context(settings) as ctx, ctx.work(actor=Actor.cli("t", Role.CHIEF_REFEREE)) as w:
        view = team_round_view(w, 1, 1)
        first, second = view.matches
        # match 1: team A (Black on boards 1 and 3 in round 1) wins every board with Black → 2:1
        for t in first.tables:
            record_result(w, 1, "league", 1, t, "黑胜")
        # match 2: its second board is forfeited by White
        record_result(w, 1, "league", 1, second.tables[1], "白弃权")
    with open_context(settings) as ctx, ctx.work() as w:
        sheets = pdftotext(print_pdf(w, 1, "matches", PrintOptions(round=1)))
        teams = pdftotext(print_pdf(w, 1, "teams"))
    flat = _flat(sheets)
    assert "第1轮团体对阵单" in flat
    assert f"第1轮第1场{first.name_a}—{first.name_b}" in flat
    assert "2:1,场分2:0" in flat  # match 1 finished
    assert "(弃权)" in sheets and "领队签字" in flat and "裁判员" in flat
    assert "&lt;script&gt;" not in sheets and "<script>alert(1)</script>" in sheets  # printed as written
    # team standings: match 1's winner first with 2 场分 and 2 局分; columns of the tie-breaks
    head = next(line for line in teams.splitlines() if "场分" in line and "局分" in line)
    assert "直胜" in head and "主将台局分" in head and "抽签" in head
    row = next(line for line in teams.splitlines() if first.name_a in line)
    assert re.search(rf"1\s+{first.name_a}\s+2\s+2\b", row), row


def test_match_sheets_need_a_team_match_stage(tmp_path: Path) -> None:
    from tests.conftest import REGULATIONS
    from yisai.services.events import create_event

    db = str(tmp_path / "swiss.sqlite")
    with open_context(Settings(database=db)) as ctx, ctx.work(actor=Actor.cli("t", Role.CHIEF_REFEREE)) as w:
        create_event(w, REGULATIONS / "2025-xiaoqiwang.toml", seed=1)
    with pytest.raises(InputError) as info, open_context(Settings(database=db)) as ctx, ctx.work() as w:
        print_pdf(w, 1, "团体对阵单")
    assert info.value.code == "no_team_match_stage"
