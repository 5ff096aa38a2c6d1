"""Issue 41, wrong today: a tie that pays more than ``prizes.pool`` broke `yisai prizes`,
`yisai match standings` (exit 1) and the public team page ("暂时无法计算团体名次"). The team
table never depends on money; the overrun is an open decision for the chief referee, shown
with the prizes.

The example league with a stated pool of 19000 yuan (8000 + 5000 + 3000 for places 1–3 and
three board prizes of 1000: exactly what the table can pay, so `regulation check` accepts it),
tied places each paid in full and no tie-break between teams. Four teams, round 1: the team
registered first in each match wins all three boards, so the two winners share place 1 (2 match
points) and the two losers share place 3. Paid by the table: 2 × 8000 + 2 × 3000 = 22000 yuan,
3000 more than the pool.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import date
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from tests.cli_runner import as_director, run_cli
from tests.conftest import REGULATIONS
from tests.web.conftest import Clock
from yisai.registry.person import Gender, Player
from yisai.registry.team import Team
from yisai.services import reports
from yisai.services.context import open_context
from yisai.services.entries import register_player
from yisai.services.events import create_event
from yisai.services.identity import Actor, Role
from yisai.services.publishing import publish_round
from yisai.services.round_results import record_result
from yisai.services.rounds import pair
from yisai.services.settings import Settings
from yisai.services.team_matches import team_round_view
from yisai.services.teams import add_team

TEAMS = ["东湖", "江汉", "黄鹤", "汉阳"]


def _regulation(tmp_path: Path, prizes: str) -> Path:
    text = (REGULATIONS / "examples" / "team-league.toml").read_text(encoding="utf-8")
    text = text.replace('tied_places = "share"', prizes)
    text = text.replace('tie_breaks = ["board_points", "direct", "board1_points", "opponent_match_points", "lot"]',
                        "tie_breaks = []")
    path = tmp_path / "league.toml"
    path.write_text(text, encoding="utf-8")
    return path


def round_one(tmp_path: Path, prizes: str = 'tied_places = "each_full"\npool = 19000') -> tuple[str, set[str]]:
    """Round 1 of the league played (the team registered first wins 3:0); ``prizes`` replaces
    the regulation's ``tied_places`` line. Returns the database and the two winning teams."""
    from tests.web.team_league import NOW

    db = str(tmp_path / "pool.sqlite")
    settings = Settings(database=db, clock=lambda: NOW)
    director = Actor.cli("tester", Role.CHIEF_REFEREE)
    with open_context(settings) as ctx:
        with ctx.work(actor=director) as work:
            event = create_event(work, _regulation(tmp_path, prizes), seed=2026)
            for i, t in enumerate(TEAMS):
                members = []
                for k, suffix in enumerate(("一", "二", "三", "女")):
                    p = Player(id="", name=f"{t}{suffix}", gender=Gender.FEMALE if suffix == "女" else Gender.MALE,
                               birth_date=date(1990 + k, 1 + i, 15), id_number=None)
                    members.append((register_player(work, event, p, division="league").player.id, None))
                add_team(work, event, Team(name=f"{t}队"), members)
        with ctx.work(actor=director) as work:
            pair(work, "1", "league", 1)
            publish_round(work, "1", "league", 1)
        with ctx.work(actor=director) as work:
            view = team_round_view(work, 1, 1)
            names = view.player_names
            winners = set()
            for m in view.matches:
                winner = min(m.name_a, m.name_b, key=lambda n: TEAMS.index(n[:2]))
                winners.add(winner)
                for b in m.boards:
                    game = view.games[view.tables[(m.number, b.board)]]
                    word = "黑胜" if names[game.black].startswith(winner[:2]) else "白胜"
                    record_result(work, "1", "league", 1, view.tables[(m.number, b.board)], word)
    return db, winners


def test_an_overrun_leaves_the_team_table_and_the_prizes_standing(tmp_path: Path) -> None:
    db, winners = round_one(tmp_path)
    with open_context(db, actor="裁判长") as ctx, ctx.work() as w:
        view = reports.prizes(w, 1)
    places = {r.name: r.place for r in view.teams[0].rows}
    assert places == {f"{t}队": 1 if f"{t}队" in winners else 3 for t in TEAMS}
    report = view.report
    assert sorted(ln.amount for ln in report.list("teams").lines) == [3000, 3000, 8000, 8000]
    assert report.total == 22000 and report.pool == 19000 and report.overrun == 3000
    summary = view.prize_tables[-1]
    assert any("超过规程写明的奖金总额19000元3000元" in n and "待裁判长决定" in n for n in summary.notes)


def test_the_cli_and_the_public_team_page_still_answer(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.web.team_league import NOW
    from yisai.web.app import create_app

    db, _winners = round_one(tmp_path)
    as_director(monkeypatch, Path(db), "2026-03-20T10:00")
    standings = run_cli("match", "standings")
    assert "东湖队" in standings and "汉阳队" in standings
    prizes = run_cli("prizes")
    assert "22000" in prizes and "待裁判长决定" in prizes
    app = create_app(replace(Settings(database=db), clock=Clock(NOW)), secret="test-secret", refresh_seconds=0)
    with TestClient(app) as client:
        page = client.get("/events/1/teams")
    assert page.status_code == 200
    assert "暂时无法计算团体名次" not in page.text and "东湖队" in page.text
