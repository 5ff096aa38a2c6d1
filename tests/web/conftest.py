"""A small seed-002 event (小棋王, 甲组) shared by the web tests: built once, copied per test.

Eight players with real-looking personal data (ID numbers, phones, birth dates, certificate
numbers) so the tests can prove none of it reaches a public page; one player is called
``<script>alert(1)</script>`` to prove names are escaped. Round 1 is paired and published.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from dataclasses import dataclass, replace
from datetime import date, datetime
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from tests.conftest import REGULATIONS, built_once
from yisai.registry.idcard import check_digit
from yisai.registry.person import Gender, Player
from yisai.services.accounts import create_user
from yisai.services.context import open_context
from yisai.services.entries import register_player
from yisai.services.events import create_event
from yisai.services.identity import Actor, Role
from yisai.services.publishing import publish_round
from yisai.services.rounds import pair
from yisai.services.settings import Settings
from yisai.vocabulary.rank import Rank
from yisai.web.app import create_app

SEED_002 = REGULATIONS / "2025-xiaoqiwang.toml"
XSS = "<script>alert(1)</script>"
PASSWORDS = {"director": "director-pw", "referee": "referee-pw", "leader": "leader-pw", "operator": "operator-pw"}
ROLES = {"director": Role.CHIEF_REFEREE, "referee": Role.REFEREE, "leader": Role.TEAM_LEADER,
         "operator": Role.OPERATOR}
NOW = datetime(2025, 4, 10, 9, 30)  # inside seed 002's registration window (closes 04-18 17:00)


def id_number(born: date, seq: int) -> str:
    first17 = f"330106{born:%Y%m%d}{seq:03d}"
    return first17 + check_digit(first17)


def people() -> list[Player]:
    out = []
    for i in range(8):
        gender = Gender.MALE if i % 2 == 0 else Gender.FEMALE
        born = date(2013, 1 + i, 10 + i)
        name = XSS if i == 7 else f"棋手{i + 1}"
        out.append(Player(
            id="", name=name, gender=gender, birth_date=born,
            id_number=id_number(born, 101 + 2 * i + (0 if gender is Gender.MALE else 1)),
            rank=Rank.parse(f"{1 + i % 5}段"), certificate_no=f"CERT-{9100 + i}", region="中国大陆",
            province="浙江", city="杭州", phone=f"1390000{1000 + i}",
        ))
    return out


class Clock:
    """The server's clock, moved by a test (Settings.clock is injected, never read from the OS)."""

    def __init__(self, moment: datetime) -> None:
        self.moment = moment

    def __call__(self) -> datetime:
        return self.moment


@dataclass
class Site:
    db: str
    clock: Clock
    client: TestClient

    def new_client(self) -> TestClient:
        return TestClient(self.client.app)

    def login(self, who: str, client: TestClient | None = None) -> TestClient:
        c = client or self.new_client()
        c.get("/console/login")
        r = c.post("/console/login", data={"login": who, "password": PASSWORDS[who], "csrf": csrf_of(c)},
                   follow_redirects=False)
        assert r.status_code == 303, r.text
        return c


def csrf_of(client: TestClient) -> str:
    """The CSRF token the page embeds for this client's session."""
    import re

    r = client.get("/console/login")
    m = re.search(r'name="csrf" value="([^"]+)"', r.text)
    assert m, r.text
    return m.group(1)


def build(database: str) -> None:
    """The shared event in any database (SQLite file or PostgreSQL URL)."""
    settings = Settings(database=database, clock=lambda: NOW)
    director = Actor.cli("tester", Role.CHIEF_REFEREE)
    with open_context(settings) as ctx:
        with ctx.work(actor=director) as work:
            event = create_event(work, SEED_002, seed=7)
            for p in people():
                register_player(work, event, p, division="jia", fee_paid=True)
        with ctx.work(actor=director) as work:
            pair(work, str(event.id), "jia", 1)
            publish_round(work, str(event.id), "jia", 1)
        with ctx.work(actor=Actor.system()) as work:
            for login, role in ROLES.items():
                create_user(work, login, f"测试{login}", role, PASSWORDS[login],
                            event_id=event.id if role is Role.TEAM_LEADER else None)


@pytest.fixture(scope="session")
def template_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The shared event on SQLite, built once per session (``built_once``); tests copy it."""
    return built_once(tmp_path_factory, "web-site.sqlite", lambda path: build(str(path)))


@pytest.fixture
def site(template_db: Path, tmp_path: Path) -> Iterator[Site]:
    db = tmp_path / "site.sqlite"
    shutil.copy(template_db, db)
    clock = Clock(NOW)
    app = create_app(replace(Settings(database=str(db)), clock=clock), secret="test-secret", refresh_seconds=0)
    with TestClient(app) as client:
        yield Site(str(db), clock, client)


@pytest.fixture
def pg_site() -> Iterator[Site]:
    """The same site on PostgreSQL (a fresh schema, dropped after); skipped locally without
    YISAI_TEST_POSTGRES_URL, required in CI."""
    import uuid

    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    from tests.store.conftest import ensure_database, postgres_base_url
    from yisai.store import upgrade_database

    base = postgres_base_url()
    ensure_database(base)
    schema = f"yisai_web_{uuid.uuid4().hex[:12]}"
    admin = create_engine(base)
    with admin.begin() as conn:
        conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    url = make_url(base).update_query_dict({"options": f"-csearch_path={schema}"}).render_as_string(
        hide_password=False)
    try:
        upgrade_database(url)
        build(url)
        clock = Clock(NOW)
        app = create_app(replace(Settings(database=url), clock=clock), secret="test-secret", refresh_seconds=0)
        with TestClient(app) as client:
            yield Site(url, clock, client)
    finally:
        with admin.begin() as conn:
            conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()
