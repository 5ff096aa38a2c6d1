"""Sessions end on the server (#30 item 4): a copied session cookie or API token stops working
after logout, a password change, disabling the account or a new binding, in every worker (two
app instances on one database stand for two workers)."""

from __future__ import annotations

from dataclasses import replace

from fastapi.testclient import TestClient

from tests.web.conftest import PASSWORDS, Site
from tests.web.test_console import token_of
from yisai.services.accounts import reset_password, set_account_active
from yisai.services.context import open_context
from yisai.services.identity import Actor
from yisai.services.settings import Settings
from yisai.web.app import create_app
from yisai.web.core import SESSION_COOKIE


def _copy(cookie: str, site: Site) -> TestClient:
    """Another browser (an attacker who copied the cookie), on a second worker."""
    other = TestClient(create_app(replace(Settings(database=site.db), clock=site.clock), secret="test-secret",
                                  refresh_seconds=0))
    other.cookies.set(SESSION_COOKIE, cookie)
    return other


def _opens_console(c: TestClient) -> bool:
    return c.get("/console", follow_redirects=False).status_code == 200


def test_logout_ends_a_copied_cookie_in_another_worker(site: Site) -> None:
    director = site.login("director")
    stolen = _copy(director.cookies[SESSION_COOKIE], site)
    assert _opens_console(stolen)
    r = director.post("/console/logout", data={"csrf": token_of(director)}, follow_redirects=False)
    assert r.status_code == 303
    assert not _opens_console(stolen) and not _opens_console(director)
    assert _opens_console(site.login("director"))  # signing in again works


def test_a_new_password_or_disabling_ends_every_session_and_token(site: Site) -> None:
    director = site.login("director")
    referee = site.login("referee")
    token = site.new_client().post("/api/token", json={"login": "referee", "password": PASSWORDS["referee"]}).json()
    api = site.new_client()
    api.headers["Authorization"] = f"Bearer {token['token']}"
    grid = "/api/events/1/rounds/jia/1"
    assert _opens_console(referee)
    with open_context(Settings(database=site.db), actor=Actor.system()) as ctx, ctx.work() as work:
        reset_password(work, "referee", "a-new-password-2026")
    assert not _opens_console(referee)
    after = api.post(f"{grid}/results", json={"board": 1, "result": "黑胜", "version": 1})
    assert after.status_code == 401, after.text  # the token's generation is gone: refused before any check
    assert _opens_console(director)  # another account's session is untouched
    with open_context(Settings(database=site.db), actor=Actor.system()) as ctx, ctx.work() as work:
        set_account_active(work, "director", False)
    assert not _opens_console(director)
