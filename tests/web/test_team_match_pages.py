"""团体赛 on the web: the public round page shows matches board by board, the team page shows
场分/局分; a team leader hands in his own team's line-up (CSRF, role-checked), not another's;
board results go through the console's ordinary result grid."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from tests.web.conftest import XSS, Clock, Site
from tests.web.team_league import NOW, build_league
from yisai.services.context import open_context
from yisai.services.settings import Settings
from yisai.services.team_matches import team_round_view
from yisai.web.app import create_app


@pytest.fixture
def league(tmp_path: Path) -> Iterator[tuple[Site, dict[str, str]]]:
    db = tmp_path / "league.sqlite"
    ids = build_league(str(db), paired=False)
    app = create_app(replace(Settings(database=str(db)), clock=Clock(NOW)), secret="test-secret",
                     refresh_seconds=0)
    with TestClient(app) as client:
        yield Site(str(db), Clock(NOW), client), ids


def _csrf(client: TestClient, url: str) -> str:
    m = re.search(r'name="csrf" value="([^"]+)"', client.get(url).text)
    assert m
    return m.group(1)


def test_leader_submits_his_own_line_up_and_the_pairing_lays_it_on_the_boards(league) -> None:  # type: ignore[no-untyped-def]
    site, ids = league
    leader = site.login("leader")
    page = leader.get("/console/events/1/lineups/1")
    assert page.status_code == 200
    assert "东湖队" in page.text and "江汉队" not in page.text  # only his own team
    players = re.findall(r'<option value="(\d+)"[^>]*>(东湖[^<]*)</option>', page.text)
    by_name = dict((name, pid) for pid, name in players)
    token = _csrf(leader, "/console/events/1/lineups/1")
    # 东湖三 on board 1 above 东湖一: refused (fixed order), nothing saved
    bad = leader.post("/console/events/1/lineups/1", data={
        "csrf": token, "team": ids["东湖"], "b1": by_name["东湖三"], "b2": by_name["东湖一"], "b3": by_name["东湖女"]})
    assert bad.status_code == 400 and "台次顺序须按报名顺序" in bad.text
    # without the CSRF token: refused
    assert leader.post("/console/events/1/lineups/1", data={
        "team": ids["东湖"], "b1": by_name["东湖一"]}).status_code == 403
    # another team's line-up: refused by role
    other = leader.post("/console/events/1/lineups/1", data={"csrf": token, "team": ids["江汉"], "b1": "5"})
    assert other.status_code == 403 and "领队只能提交本队的出场名单" in other.text
    ok = leader.post("/console/events/1/lineups/1", data={
        "csrf": token, "team": ids["东湖"], "b1": by_name["东湖二"], "b2": by_name["东湖三"],
        "b3": by_name["东湖女"]}, follow_redirects=False)
    assert ok.status_code == 303
    # the director pairs; the stored line-up is on the boards, the others play in registered order
    director = site.login("director")
    token = _csrf(director, "/console/events/1")
    r = director.post("/console/events/1/pair", data={"csrf": token, "division": "league", "round": "1"},
                      follow_redirects=False)
    assert r.status_code == 303
    with open_context(Settings(database=site.db)) as ctx, ctx.work() as work:
        view = team_round_view(work, 1, 1)
    seated = {view.player_names[pid] for m in view.matches for b in m.boards for pid in (b.player_a, b.player_b) if pid}
    assert {"东湖二", "东湖三", "东湖女"} <= seated and "东湖一" not in seated
    assert {"江汉一", "江汉二", "江汉女"} <= seated and "江汉三" not in seated  # default: woman on board 3
    # after the pairing the line-up is closed
    late = leader.post("/console/events/1/lineups/1", data={"csrf": _csrf(leader, "/console/events/1/lineups/1"),
                                                          "team": ids["东湖"], "b1": by_name["东湖一"]})
    assert late.status_code == 409 and "第1轮已编排, 出场名单已截止" in late.text


def test_public_pages_show_matches_and_team_standings_after_grid_entry(league) -> None:  # type: ignore[no-untyped-def]
    site, _ids = league
    director = site.login("director")
    token = _csrf(director, "/console/events/1")
    director.post("/console/events/1/pair", data={"csrf": token, "division": "league", "round": "1"})
    public = site.new_client()
    assert "尚未公布" in public.get("/events/1/rounds/league/1").text
    assert public.get("/api/events/1/teams/rounds/1").status_code == 404  # not published yet
    director.post("/console/events/1/rounds/league/1/publish", data={"csrf": token})
    referee = site.login("referee")
    grid = referee.get("/console/events/1/rounds/league/1").text
    rtoken = re.search(r'data-csrf="([^"]+)"', grid).group(1)  # type: ignore[union-attr]
    with open_context(Settings(database=site.db)) as ctx, ctx.work() as work:
        view = team_round_view(work, 1, 1)
    first = view.matches[0]
    for table in first.tables:  # Black wins every board of match 1
        r = referee.post("/console/events/1/rounds/league/1/result",
                         json={"board": table, "version": 1, "result": "1"}, headers={"X-CSRF-Token": rtoken})
        assert r.status_code == 200, r.text
    # board points of match 1 from the colours: team A is Black on boards 1 and 3 in round 1
    page = public.get("/events/1/rounds/league/1").text
    assert first.name_a in page and "2 : 1" in page and "场分" in page
    assert XSS not in page and "&lt;script&gt;" in page  # names are escaped
    assert "1390000" not in page  # no phone numbers on public pages
    teams = public.get("/events/1/teams").text
    assert "团体名次" in teams and "局分" in teams and "场分" in teams
    # the match winner leads with 2 场分 (won 2:1); the loser has 1 局分
    rows = re.findall(r"<tr><td>(\d+)</td><td>([^<]+)</td><td>(\d+)</td><td>([\d.]+)</td>", teams)
    assert (rows[0][1], rows[0][2], rows[0][3]) == (first.name_a, "2", "2")
    api = public.get("/api/events/1/teams/rounds/1").json()
    m1 = api["matches"][0]
    assert (m1["a"], m1["points"], m1["match"]) == (first.name_a, "2 : 1", "2 : 0")
    assert [b["board"] for b in m1["boards"]] == [1, 2, 3] and "1390000" not in str(api)
    standings = public.get("/api/events/1/teams").json()["competitions"][0]
    assert standings["method"] == "match_points"
    top = standings["rows"][0]
    assert (top["team"], top["place"], top["value"], top["board_points"]) == (first.name_a, 1, 2, 2)
    assert [t["name"] for t in top["tie_breaks"]] == ["局分", "直胜", "主将台局分", "对手场分", "抽签"]


def test_team_pages_in_english(league) -> None:  # type: ignore[no-untyped-def]
    site, _ids = league
    director = site.login("director")
    token = _csrf(director, "/console/events/1")
    director.post("/console/events/1/pair", data={"csrf": token, "division": "league", "round": "1"})
    director.post("/console/events/1/rounds/league/1/publish", data={"csrf": token})
    page = site.new_client().get("/events/1/teams?lang=en").text
    for words in ("Team standings", "match points", "board points", "direct encounter", "board-1 points",
                  "Match 1", "in progress"):
        assert words in page, words


def test_a_team_tie_break_of_several_places_is_a_json_list() -> None:
    """Issue 43: 次好名次 (the other members' places) came back as the text "(1, 4, 4, 8, 10)"."""
    from yisai.web.api import _json_value

    assert _json_value((1, 4, 4, 8, 10)) == [1, 4, 4, 8, 10]
    assert _json_value(()) == [] and _json_value(None) is None and _json_value(2.5) == 2.5
