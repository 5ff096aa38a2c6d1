"""A four-team league (the example team league's regulation) for the web tests and screenshots:
teams registered, accounts made (the 东湖 leader is tied to his team), round 1 paired and published."""

from __future__ import annotations

from datetime import date, datetime

from tests.conftest import REGULATIONS
from tests.web.conftest import PASSWORDS, XSS
from yisai.registry.person import Gender, Player
from yisai.registry.team import Team
from yisai.services.accounts import create_user
from yisai.services.context import open_context
from yisai.services.entries import register_player
from yisai.services.events import create_event
from yisai.services.identity import Actor, Role
from yisai.services.publishing import publish_round
from yisai.services.rounds import pair
from yisai.services.settings import Settings
from yisai.services.teams import add_team

LEAGUE = REGULATIONS / "examples" / "team-league.toml"
NOW = datetime(2026, 3, 20, 9, 30)
TEAMS = ["东湖", "江汉", "黄鹤", "汉阳"]


def build_league(database: str, *, paired: bool = True) -> dict[str, str]:
    """The event (id 1) and its team ids by name; 汉阳's woman is called <script>…"""
    settings = Settings(database=database, clock=lambda: NOW)
    director = Actor.cli("tester", Role.CHIEF_REFEREE)
    ids: dict[str, str] = {}
    with open_context(settings) as ctx:
        with ctx.work(actor=director) as work:
            event = create_event(work, LEAGUE, seed=2026)
            for i, t in enumerate(TEAMS):
                members = []
                for k, suffix in enumerate(("一", "二", "三", "女")):
                    name = XSS if (t, suffix) == ("汉阳", "女") else f"{t}{suffix}"
                    p = Player(id="", name=name, gender=Gender.FEMALE if suffix == "女" else Gender.MALE,
                               birth_date=date(1990 + k, 1 + i, 15), phone=f"1390000{i}{k:03d}",
                               id_number=None)
                    members.append((register_player(work, event, p, division="league").player.id, None))
                ids[t] = add_team(work, event, Team(name=f"{t}队"), members).team.id
        if paired:
            with ctx.work(actor=director) as work:
                pair(work, "1", "league", 1)
                publish_round(work, "1", "league", 1)
        with ctx.work(actor=Actor.system()) as work:
            create_user(work, "director", "裁判长", Role.CHIEF_REFEREE, PASSWORDS["director"])
            create_user(work, "referee", "裁判员", Role.REFEREE, PASSWORDS["referee"])
            create_user(work, "leader", "东湖领队", Role.TEAM_LEADER, PASSWORDS["leader"], event_id=1,
                        team_id=int(ids["东湖"]))
    return ids
