"""An incomplete team on the public team standings (issue 43 item 8): seed 002 ranks only
teams of six (报满6人的参赛队计算团体成绩). The shared site's event has only 甲组 players, so a
team of its 甲组男 and 甲组女 is incomplete (2 of 6 seats): the page and the API show it
unranked, its sum marked partial with the reason, and the tie-breaks as JSON lists."""

from __future__ import annotations

from tests.web.conftest import Site
from yisai.registry.team import Team
from yisai.services.context import open_context
from yisai.services.events import resolve_event
from yisai.services.identity import Actor, Role
from yisai.services.round_results import record_result
from yisai.services.rounds import round_view
from yisai.services.settings import Settings
from yisai.services.teams import add_team
from yisai.store import roster_rows

DIRECTOR = Actor.cli("tester", Role.CHIEF_REFEREE)


def _incomplete_team_with_results(site: Site) -> None:
    with open_context(Settings(database=site.db, clock=site.clock)) as ctx:
        with ctx.work(actor=DIRECTOR) as w:
            event = resolve_event(w, "1")
            players = roster_rows.list_players(w.session, event.id)
            # 棋手1 (male) and 棋手2 (female): the 甲组男 and 甲组女 seats; four seats stay empty
            add_team(w, event, Team(name="浙江队", province="浙江"),
                     [(players[0].id, "甲组男"), (players[1].id, "甲组女")], force=True, note="测试")
        with ctx.work(actor=DIRECTOR) as w:
            [stored] = round_view(w, "1", "jia", 1).rounds
            for game in stored.games:
                if game.white is not None:
                    record_result(w, "1", "jia", 1, game.board, "黑胜")


def test_incomplete_team_is_unranked_with_a_partial_sum_and_a_reason(site: Site) -> None:
    _incomplete_team_with_results(site)
    data = site.client.get("/api/events/1/teams").json()
    [comp] = [c for c in data["competitions"] if c["id"] == "team"]
    [row] = [r for r in comp["rows"] if r["team"] == "浙江队"]
    assert row["place"] is None and row["complete"] is False
    assert row["partial"] is True and row["counted"] == 2
    assert "不计团体成绩" in row["note"] and "列于所有完整队之后" in comp["notes"][0]
    # 最高个人名次 is a number; 次高名次… the other members' places, a JSON list (never "(…)")
    best, rest = (t["value"] for t in row["tie_breaks"])
    assert isinstance(best, int) and isinstance(rest, list) and len(rest) == 1
    # its value sums the two places played, no stand-in for the four empty seats
    assert row["value"] == best + rest[0]
    page = site.client.get("/events/1/teams").text
    assert f"{row['value']} （部分2/6人）" in page and "列于所有完整队之后" in page
