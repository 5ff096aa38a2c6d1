"""Sign-in throttling an attacker cannot turn against the director (#30 item 3): five wrong
passwords from the director's own address (a shared NAT) no longer lock out a browser that signed
in before (its device cookie counts its own tries); an unknown client is still slowed; and behind
``yisai serve`` a rotated X-Forwarded-For header does not reset the count (proxy headers are
trusted only from ``--forwarded-allow-ips``, none by default)."""

from __future__ import annotations

import re
from pathlib import Path

import httpx

from tests.web.conftest import PASSWORDS, Site
from tests.web.server import Server
from tests.web.test_browser import _accounts
from yisai.services.context import open_context
from yisai.services.settings import Settings
from yisai.web.core import DEVICE_COOKIE


def _try(client, login: str, password: str) -> int:  # type: ignore[no-untyped-def]
    page = client.get("/console/login").text
    csrf = re.search(r'name="csrf" value="([^"]+)"', page)
    data = {"login": login, "password": password, "csrf": csrf.group(1) if csrf else ""}
    return client.post("/console/login", data=data, follow_redirects=False).status_code


def test_guesses_from_the_same_address_do_not_lock_out_a_known_browser(site: Site) -> None:
    director = site.new_client()
    assert _try(director, "director", PASSWORDS["director"]) == 303
    assert director.cookies.get(DEVICE_COOKIE)
    attacker = site.new_client()  # the same address (TestClient's), no device cookie
    codes = [_try(attacker, "director", f"guess-{i}") for i in range(7)]
    assert codes[:5] == [401] * 5 and codes[5:] == [429, 429]  # the guesser is slowed …
    assert _try(attacker, "director", PASSWORDS["director"]) == 429  # … even with the right one
    assert _try(director, "director", PASSWORDS["director"]) == 303  # the director still signs in


def test_a_device_cookie_for_another_login_or_forged_counts_as_unknown(site: Site) -> None:
    referee = site.new_client()
    assert _try(referee, "referee", PASSWORDS["referee"]) == 303
    for _ in range(5):
        assert _try(referee, "director", "guess") == 401  # the referee's cookie names another login
    assert _try(referee, "director", PASSWORDS["director"]) == 429
    forged = site.new_client()
    forged.cookies.set(DEVICE_COOKIE, "not-signed")
    assert _try(forged, "director", "guess") == 429  # still the same address's count


def test_rotating_x_forwarded_for_against_the_real_server_is_throttled(tmp_path: Path) -> None:
    db = tmp_path / "x.sqlite"
    with open_context(Settings(database=str(db))):
        pass
    _accounts(db)
    with Server(db) as server, httpx.Client(base_url=server.url) as c:
        codes = []
        for i in range(8):
            page = c.get("/console/login").text
            csrf = re.search(r'name="csrf" value="([^"]+)"', page)
            r = c.post("/console/login", data={"login": "director", "password": f"guess-{i}",
                                               "csrf": csrf.group(1) if csrf else ""},
                       headers={"X-Forwarded-For": f"203.0.113.{i + 1}"})
            codes.append(r.status_code)
    assert codes[:5] == [401] * 5 and set(codes[5:]) == {429}, codes


def test_an_operator_unlocks_a_throttled_login(site: Site) -> None:
    attacker = site.new_client()
    for i in range(5):
        assert _try(attacker, "director", f"guess-{i}") == 401
    assert _try(attacker, "director", PASSWORDS["director"]) == 429
    operator = site.new_client()
    assert _try(operator, "operator", PASSWORDS["operator"]) == 303
    page = operator.get("/console/accounts").text
    csrf = re.search(r'name="csrf" value="([^"]+)"', page)
    assert csrf and "/console/accounts/director/unlock" in page
    r = operator.post("/console/accounts/director/unlock", data={"csrf": csrf.group(1)}, follow_redirects=False)
    assert r.status_code == 303
    assert _try(attacker, "director", PASSWORDS["director"]) == 303  # the count is gone
    director = site.new_client()  # a referee may not unlock
    assert _try(director, "referee", PASSWORDS["referee"]) == 303
    page = director.get("/console").text
    token = re.search(r'name="csrf" value="([^"]+)"', page)
    r = director.post("/console/accounts/director/unlock", data={"csrf": token.group(1) if token else ""},
                      follow_redirects=False)
    assert r.status_code == 403
