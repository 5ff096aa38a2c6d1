"""The team double round robin on the web (issue 41: "第二循环双方执黑执白互换"): six teams of the
example league with ``system = "double_round_robin"``, ten rounds played and published.

By hand (as tests/services/test_team_double_round_robin.py): round 5+k repeats round k's matches
with the same team A and every board's colours the other way round — 3 matches × 3 boards = 9
boards a round, 45 in a cycle, all 45 swapped; the team registered earlier wins every board, so
场分 (2 a win) over both cycles is 东湖 20, 江汉 16, 黄鹤 12, 汉阳 8, 武昌 4, 青山 0. The console
lists rounds 1–10 (the second cycle reachable from the page), and after round 10 the team table
is final: one table, no 暂定."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import replace
from datetime import date
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from tests.conftest import REGULATIONS
from tests.web.conftest import PASSWORDS, Clock, Site
from tests.web.team_league import NOW
from yisai.registry.person import Gender, Player
from yisai.registry.team import Team
from yisai.services.accounts import create_user
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
from yisai.web.app import create_app

TEAMS = ["东湖", "江汉", "黄鹤", "汉阳", "武昌", "青山"]


def _build(db: Path) -> None:
    text = (REGULATIONS / "examples" / "team-league.toml").read_text(encoding="utf-8")
    reg = db.parent / "double-league.toml"
    reg.write_text(text.replace('system = "round_robin"', 'system = "double_round_robin"'), encoding="utf-8")
    director = Actor.cli("tester", Role.CHIEF_REFEREE)
    with open_context(replace(Settings(database=str(db)), clock=lambda: NOW)) as ctx:
        with ctx.work(actor=director) as w:
            event = create_event(w, reg, seed=2026)
            for i, t in enumerate(TEAMS):
                members = []
                for k, suffix in enumerate(("一", "二", "三", "女")):
                    p = Player(id="", name=f"{t}{suffix}", gender=Gender.FEMALE if suffix == "女" else Gender.MALE,
                               birth_date=date(1990 + k, 1 + i, 15), id_number=None)
                    members.append((register_player(w, event, p, division="league").player.id, None))
                add_team(w, event, Team(name=f"{t}队"), members)
        for rnd in range(1, 11):
            with ctx.work(actor=director) as w:
                pair(w, event.id, "league", rnd)
                view = team_round_view(w, event.id, rnd)
                for m in view.matches:
                    for b in m.boards:
                        table = view.tables[(m.number, b.board)]
                        game = view.games[table]
                        black, white = view.player_names[game.black], view.player_names[game.white]
                        winner = min(black[:2], white[:2], key=TEAMS.index)
                        record_result(w, event.id, "league", rnd, table, "黑胜" if black[:2] == winner else "白胜")
                publish_round(w, str(event.id), "league", rnd)
        with ctx.work(actor=Actor.system()) as w:
            create_user(w, "director", "裁判长", Role.CHIEF_REFEREE, PASSWORDS["director"])


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    db = tmp_path_factory.mktemp("team-drr-web") / "l.sqlite"
    _build(db)
    app = create_app(replace(Settings(database=str(db)), clock=Clock(NOW)), secret="test-secret", refresh_seconds=0)
    with TestClient(app) as client:
        yield Site(str(db), Clock(NOW), client)


def _boards(html: str) -> dict[tuple[str, str, str], str]:
    """(team A, team B, board) → team A's colour, from the public round page."""
    out = {}
    for head, body in re.findall(r"<h3>第\d+场 · (.*?)\s*<span.*?<tbody>(.*?)</tbody>", html, re.S):
        a, b = (x.strip() for x in head.split("—"))
        for board, colour in re.findall(r"<tr[^>]*><td>(\d+)</td><td>[^<]*</td><td>([黑白])</td>", body):
            out[(a, b, board)] = colour
    return out


def test_every_board_of_the_second_cycle_has_its_colours_swapped(site: Site) -> None:
    swapped = 0
    for k in range(1, 6):
        first = _boards(site.client.get(f"/events/1/rounds/league/{k}").text)
        second = _boards(site.client.get(f"/events/1/rounds/league/{k + 5}").text)
        assert len(first) == 9 and set(first) == set(second)  # the same matches, team A the same
        swapped += sum(1 for key, colour in first.items() if second[key] != colour)
    assert swapped == 45  # 5 rounds × 3 matches × 3 boards


def test_the_console_lists_both_cycles_and_the_team_table_is_final(site: Site) -> None:
    director = site.login("director")
    page = director.get("/console/events/1").text
    for r in range(1, 11):
        assert f'href="/console/events/1/rounds/league/{r}"' in page
    assert "第10轮" in page
    teams = site.client.get("/events/1/teams").text
    assert "暂定" not in teams and "暂时无法计算" not in teams
    assert teams.count("<h2>团体名次</h2>") == 1
    # by hand: 场分 20, 16, 12, 8, 4, 0 and 局分 30, 24, 18, 12, 6, 0 in the order registered
    table = teams.split("<h2>团体名次</h2>")[1].split("</table>")[0]
    rows = re.findall(r"<tr><td>(\d+)</td><td>([^<]+)</td><td>(\d+)</td><td>(\d+)</td>", table)
    assert rows == [(str(k), f"{t}队", str(20 - 4 * (k - 1)), str(30 - 6 * (k - 1)))
                    for k, t in enumerate(TEAMS, start=1)]
