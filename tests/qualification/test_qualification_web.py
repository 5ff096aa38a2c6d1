"""The qualification pages over HTTP: personal data never public, roles checked on the server,
CSRF on every form, someone else's place refused, the operator's dashboard draws its plots."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import date, datetime
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from tests.qualification.conftest import build_site_db, fields
from yisai.services.accounts import create_user
from yisai.services.context import open_context
from yisai.services.identity import Actor, Role
from yisai.services.profiles import save_profile
from yisai.services.settings import Settings
from yisai.store import account_rows
from yisai.web.app import create_app

PASSWORD = "web-pw-123"


class Clock:
    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
def site(tmp_path: Path) -> Iterator[tuple[TestClient, Clock, int, int]]:
    db = tmp_path / "w.sqlite"
    event_id, _, x1_game = build_site_db(db, PASSWORD)
    with open_context(Settings(database=str(db)), actor=Actor.system()) as ctx, ctx.work() as work:
        create_user(work, "referee", "裁判员乙", Role.REFEREE, PASSWORD)
        create_user(work, "other", "棋手乙", Role.PLAYER, PASSWORD)
    clock = Clock(datetime(2025, 6, 3, 10, 0))
    app = create_app(Settings(database=str(db), clock=clock), secret="s", refresh_seconds=0)
    with TestClient(app) as client:
        yield client, clock, event_id, x1_game


def login(client: TestClient, who: str) -> TestClient:
    c = TestClient(client.app)
    token = csrf(c, "/console/login")
    r = c.post("/console/login", data={"login": who, "password": PASSWORD, "csrf": token}, follow_redirects=False)
    assert r.status_code == 303, r.text
    return c


def csrf(c: TestClient, path: str) -> str:
    m = re.search(r'name="csrf" value="([^"]+)"', c.get(path).text)
    assert m, path
    return m.group(1)


def test_confirm_privacy_roles_and_csrf(site: tuple[TestClient, Clock, int, int]) -> None:
    client, _, event_id, x1_game = site
    me = login(client, "player1")
    page = me.get(f"/qualification/{event_id}").text
    place = int(re.search(r'/places/(\d+)"', page).group(1))  # type: ignore[union-attr]
    details = fields("张三", date(1990, 3, 1), 1, phone="13900001111")
    url = f"/qualification/{event_id}/places/{place}"
    assert me.post(url, data=details).status_code == 403  # no CSRF token
    r = me.post(url, data={**details, "csrf": csrf(me, f"/qualification/{event_id}")}, follow_redirects=False)
    assert r.status_code == 303
    other = login(client, "other")  # another player posting to my place
    r = other.post(url, data={**details, "csrf": csrf(other, f"/qualification/{event_id}")})
    assert r.status_code == 403
    public = client.get(f"/events/{event_id}/qualification").text
    assert "棋手甲" in public and details["id_number"] not in public and "13900001111" not in public
    assert "并列第38名，一同晋级" in public
    english = client.get(f"/events/{event_id}/qualification?lang=en").text
    assert "tied for place 38: all qualify" in english and "Period 1" in english
    referee = login(client, "referee")
    r = referee.post(f"/console/events/{event_id}/fairplay/games/{x1_game}",
                     data={"decision": "annul", "reason": "x", "csrf": csrf(referee, f"/console/events/{event_id}/fairplay")})
    assert r.status_code == 403 and "裁判员无权审查对局与处罚" in r.text
    director = login(client, "director")
    console = director.get(f"/console/events/{event_id}/qualification").text
    assert "总决赛报名名单" in console and "张三" in console
    ops = director.get(f"/console/events/{event_id}/operations").text
    assert ops.count("<svg") == 3 and 'id="playing">0<' in ops


def test_lapsed_shown_in_console_after_the_deadline(site: tuple[TestClient, Clock, int, int]) -> None:
    client, clock, event_id, _ = site
    director = login(client, "director")
    clock.now = datetime(2025, 6, 10, 23, 59, 59)  # the tenth working day, still open
    page = director.get(f"/console/events/{event_id}/qualification").text
    assert re.search(r"逾期弃权 (\d+)", page).group(1) == "0"  # type: ignore[union-attr]
    clock.now = datetime(2025, 6, 11, 0, 0)  # the first instant after it: all 40 unconfirmed lapse
    page = director.get(f"/console/events/{event_id}/qualification").text
    assert re.search(r"逾期弃权 (\d+)", page).group(1) == "40"  # type: ignore[union-attr]


def test_form_prefilled_from_the_profile(site: tuple[TestClient, Clock, int, int], tmp_path: Path) -> None:
    client, _, event_id, _ = site

    db = tmp_path / "w.sqlite"
    with open_context(Settings(database=str(db)), actor=Actor.system()) as ctx, ctx.work() as work:
        me = account_rows.find_user(work.session, "player1")
        assert me is not None
        uid = me[0].id
    with open_context(Settings(database=str(db)), actor=Actor(str(uid), "棋手甲", Role.PLAYER)) as ctx, \
            ctx.work() as work:  # the player's own profile (services.profiles, issue 13)
        save_profile(work, uid, {"name": "李小龙", "gender": "男", "birth": "1991-02-03", "region": "中国大陆",
                                 "rank": "4段"})
    page = login(client, "player1").get(f"/qualification/{event_id}").text
    assert 'name="name" value="李小龙"' in page and 'value="1991-02-03"' in page and 'value="4段"' in page
