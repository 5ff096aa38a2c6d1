"""No request makes the server answer 5xx: every route of the app's route table, walked with
wrong methods, bad bodies, bad ids and bad query values, as an anonymous visitor and as the
signed-in chief referee (with a valid CSRF token and a bearer token), on SQLite and PostgreSQL.

The routes come from the FastAPI app object, so a new route is walked without touching this
file. What the answers *are* (400 / 401 / 403 / 404 / 405 …) is checked where it matters in
the tests below the walk; the walk itself only asserts that nothing is a server error.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.routing import APIRoute, RouteContext, iter_route_contexts
from fastapi.testclient import TestClient
from httpx import Cookies

from tests.web.conftest import PASSWORDS, Site, csrf_of
from yisai.web.requests import MAX_ID

INT_MAX = 2**31 - 1  # PostgreSQL's INTEGER; the ids and numbers of the store
BAD_INTS = ["0", "-1", str(INT_MAX + 1), str(2**63), "327881703499557699584", "abc", "1.5", "０"]  # fullwidth 0
LONG = "x" * 5000
BAD_STRS = [LONG, "%00", "棋" * 300, "%ff", "327881703499557699584"]
GOOD_STRS = {"division": "jia", "kind": "pairings", "login": "referee", "entry_id": "1", "path": "style.css"}
# form and JSON field names the routes read (a wrong value in each at once)
FIELDS = ["csrf", "login", "password", "name", "division", "round", "board", "result", "version", "note",
          "group", "decision", "status", "team", "kind", "player", "periods", "period", "phone", "code",
          "outcome", "appellant", "subject", "fix", "forbid", "sit_out", "replace", "change", "role",
          "event", "display", "gender", "birth", "id", "rank", "cert", "province", "city", "leader",
          "coach", "p_name", "m0_name", "m0_birth", "m0_id", "reason", "game", "verdict"]
FILES = ["regulation", "roster", "sheet", "file", "paper"]


@dataclass
class Probe:
    """One request; ``body`` is (label, httpx keyword arguments)."""

    method: str
    url: str
    body: tuple[str, dict[str, Any]] = ("no body", {})


@dataclass
class Walk:
    failures: list[str] = field(default_factory=list)
    count: int = 0


def api_routes(app: FastAPI) -> list[RouteContext]:
    """Every endpoint of the app's route table, included routers flattened (FastAPI's own walk)."""
    return [r for r in iter_route_contexts(app.routes) if isinstance(r.original_route, APIRoute)]


def _path_params(route: RouteContext) -> dict[str, type]:
    """Each path parameter with its Python type (int for ids and numbers, else str)."""
    return {f.name: int if f.field_info.annotation is int else str for f in route.dependant.path_params}


def _query_params(route: RouteContext) -> list[str]:
    return [f.name for f in route.dependant.query_params]


def _fill(route: RouteContext, values: dict[str, str]) -> str:
    url = route.path_format
    for name, value in values.items():
        url = url.replace("{" + name + "}", value)
    return url


def _good(route: RouteContext) -> dict[str, str]:
    return {n: "1" if t is int else GOOD_STRS.get(n, "x") for n, t in _path_params(route).items()}


def bodies(csrf: str) -> list[tuple[str, dict[str, Any]]]:
    """Every kind of body a client could send to any POST route."""
    json_h = {"content-type": "application/json"}
    return [
        ("empty", {"content": b""}),
        ("empty json", {"content": b"", "headers": json_h}),
        ("form", {"data": {"csrf": csrf, "x": "1"}}),
        ("form of long strings", {"data": {k: (csrf if k == "csrf" else LONG) for k in FIELDS}}),
        ("form of huge numbers", {"data": {k: (csrf if k == "csrf" else "327881703499557699584") for k in FIELDS}}),
        ("form of negative numbers", {"data": {k: (csrf if k == "csrf" else "-1") for k in FIELDS}}),
        ("form of numbers past INTEGER", {"data": {k: (csrf if k == "csrf" else str(INT_MAX + 1)) for k in FIELDS}}),
        ("form with repeated fields", {"content": f"csrf={csrf}&board=1&board=2&board=&note=%ZZ".encode(),
                                       "headers": {"content-type": "application/x-www-form-urlencoded"}}),
        ("form of raw bytes", {"content": b"\xff\xfe=\x00&%%%=&&==",
                               "headers": {"content-type": "application/x-www-form-urlencoded"}}),
        ("form sent as json type", {"content": f"csrf={csrf}&board=1".encode(), "headers": json_h}),
        ("invalid json", {"content": b'{"board": 1,', "headers": json_h}),
        ("json not utf-8", {"content": b'{"note": "\xff\xfe"}', "headers": json_h}),
        ("json list", {"json": [1, 2, 3]}),
        ("json string", {"json": "黑胜"}),
        ("json null", {"json": None}),
        ("json of wrong types", {"json": {k: [] for k in FIELDS} | {"board": "x", "version": {"a": 1},
                                                                    "result": 7, "division": 5}}),
        ("json of huge numbers", {"json": {k: 327881703499557699584 for k in FIELDS} | {"result": "黑胜"}}),
        ("json of numbers past INTEGER", {"json": {k: INT_MAX + 1 for k in FIELDS} | {"result": "黑胜"}}),
        ("json of negative numbers", {"json": {k: -1 for k in FIELDS} | {"result": "黑胜"}}),
        ("json of floats", {"json": {"board": 1.5, "version": 1e300, "result": "黑胜"}}),
        ("json of long strings", {"json": {k: LONG for k in FIELDS}}),
        ("json nested deep", {"content": b"[" * 5000 + b"]" * 5000, "headers": json_h}),
        ("multipart junk files", {"data": {"csrf": csrf, "name": "x", "kind": "entry_form"},
                                  "files": {k: (f"{k}.xlsx", b"PK\x03\x04 not a zip" * 10) for k in FILES}}),
        ("multipart files without names", {"data": {"csrf": csrf},
                                           "files": {k: ("", b"") for k in FILES}}),
        ("multipart broken", {"content": b"--zz\r\nContent-Disposition: form-data; name=\"csrf\"\r\n\r\n" + csrf.encode(),
                              "headers": {"content-type": "multipart/form-data; boundary=zz"}}),
        ("multipart without boundary", {"content": b"--zz\r\n\r\n", "headers": {"content-type": "multipart/form-data"}}),
        ("xml", {"content": b"<a>1</a>", "headers": {"content-type": "application/xml"}}),
    ]


# what a visitor who is not signed in can get past the CSRF check with: the body's parsing
PARSING = {"empty", "form of long strings", "form of huge numbers", "form with repeated fields", "form of raw bytes",
           "invalid json", "json list", "json of wrong types", "json nested deep", "multipart junk files",
           "multipart broken", "multipart without boundary"}


def probes(routes: list[RouteContext], csrf: str, *, ids: bool = True, every_body: bool = True) -> Iterator[Probe]:
    """Each route: its methods and wrong ones on good ids; each path parameter bad in turn and
    each query parameter bad (unless not ``ids``); every body on the POST routes (or, unless
    ``every_body``, those that test the parsing)."""
    chosen = [b for b in bodies(csrf) if every_body or b[0] in PARSING]
    for route in routes:
        good = _good(route)
        url = _fill(route, good)
        methods = sorted(route.methods or {"GET"})
        for method in ("GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"):
            yield Probe(method, url)
        if not ids:
            if "POST" in methods:
                yield from (Probe("POST", url, body) for body in chosen)
            continue
        for name, kind in _path_params(route).items():
            for bad in BAD_INTS if kind is int else BAD_STRS:
                bad_url = _fill(route, {**good, name: bad})
                for method in methods:
                    yield Probe(method, bad_url, ("form", {"data": {"csrf": csrf}}) if method == "POST" else ("no body", {}))
        for name in _query_params(route):
            for bad in ["327881703499557699584", str(INT_MAX + 1), "-1", LONG, "%00"]:
                for method in methods:
                    yield Probe(method, f"{url}?{name}={bad}")
        if "POST" in methods:
            for body in chosen:
                yield Probe("POST", url, body)


def _send(client: TestClient, jar: Cookies, probe: Probe, headers: dict[str, str], walk: Walk) -> None:
    client.cookies = Cookies(jar)  # a probe that signs out must not sign out the next one
    kwargs = dict(probe.body[1])
    kwargs["headers"] = {**headers, **kwargs.get("headers", {})}
    walk.count += 1
    try:
        r = client.request(probe.method, probe.url, follow_redirects=False, **kwargs)
    except Exception as exc:  # the app raised instead of answering
        walk.failures.append(f"{probe.method} {probe.url[:120]} [{probe.body[0]}] raised {exc!r}")
        return
    if r.status_code >= 500:
        walk.failures.append(f"{probe.method} {probe.url[:120]} [{probe.body[0]}] -> {r.status_code}: "
                             f"{_cause(client, probe, kwargs)}")


def _cause(client: TestClient, probe: Probe, kwargs: dict[str, Any]) -> str:
    """The exception behind a 5xx (the same request again, with the app's errors raised)."""
    again = TestClient(client.app)
    again.cookies = Cookies(client.cookies)
    try:
        r = again.request(probe.method, probe.url, follow_redirects=False, **kwargs)
    except Exception as exc:
        return f"{type(exc).__name__}: {str(exc)[:160]}"
    return f"{r.status_code} {r.text[:160]}"


def _client(site: Site) -> TestClient:
    return TestClient(site.client.app, raise_server_exceptions=False)


def walk_everything(site: Site) -> Walk:
    app = site.client.app
    routes = api_routes(app)
    assert len(routes) > 60  # the whole table, not a part of it
    walk = Walk()
    anonymous = _client(site)
    anonymous_csrf = csrf_of(anonymous)  # a visitor's session: CSRF passes, the login check decides
    bare = _client(site)
    director = site.login("director", _client(site))
    director_csrf = csrf_of(director)
    token = director.post("/api/token", json={"login": "director", "password": PASSWORDS["director"]}).json()["token"]
    actors = [
        ("anonymous", anonymous, anonymous_csrf, {"x-csrf-token": anonymous_csrf}),
        ("no session", bare, "", {}),
        ("director", director, director_csrf, {"x-csrf-token": director_csrf, "authorization": f"Bearer {token}"}),
    ]
    for who, client, csrf, headers in actors:
        jar = Cookies(client.cookies)
        before = len(walk.failures)
        for probe in probes(routes, csrf, ids=who != "no session", every_body=who == "director"):
            _send(client, jar, probe, headers, walk)
            if who == "director" and probe.method == "POST" and probe.body[0].startswith(("form", "multipart")):
                # the same body without the CSRF header: the form field (or nothing) decides
                _send(client, jar, probe, {k: v for k, v in headers.items() if k != "x-csrf-token"}, walk)
        walk.failures[before:] = [f"{who}: {f}" for f in walk.failures[before:]]
    for bad in ["/static/..%2f..%2fapp.py", "/static/" + LONG, "/static/%00", "/" + LONG, "/%ff"]:
        _send(anonymous, Cookies(anonymous.cookies), Probe("GET", bad), {}, walk)
    return walk


def _assert_clean(walk: Walk) -> None:
    assert walk.count > 5000  # (about 6,000: docs/web.md)
    assert not walk.failures, f"{len(walk.failures)} of {walk.count} requests answered 5xx:\n" + "\n".join(
        walk.failures)


def test_no_route_answers_5xx_on_sqlite(site: Site) -> None:
    _assert_clean(walk_everything(site))


def test_no_route_answers_5xx_on_postgresql(pg_site: Site) -> None:
    _assert_clean(walk_everything(pg_site))


# ------------------------------------------------------------------ what the answers are


def test_every_integer_path_parameter_is_bounded_to_the_store() -> None:
    """Each id or number in a path is the bounded type, so a new route cannot forget it."""
    from yisai.services.settings import Settings
    from yisai.web.app import create_app

    app = create_app(Settings(database="sqlite://"), secret="x")
    unbounded = []
    for route in api_routes(app):
        for f in route.dependant.path_params:
            if f.field_info.annotation is int:
                le = [m.le for m in f.field_info.metadata if getattr(m, "le", None) is not None]
                ge = [m.ge for m in f.field_info.metadata if getattr(m, "ge", None) is not None]
                if le != [MAX_ID] or ge != [1]:
                    unbounded.append(f"{route.path} {f.name}")
    assert MAX_ID == INT_MAX
    assert not unbounded


@pytest.mark.parametrize("url", ["/api/events/327881703499557699584", f"/api/events/{INT_MAX + 1}",
                                 "/api/events/0", "/api/events/-1", "/api/events/abc",
                                 f"/api/events/1/rounds/jia/{INT_MAX + 1}", "/api/events/1/teams/rounds/0"])
def test_ids_outside_the_store_are_404_json_on_the_api(site: Site, url: str) -> None:
    r = _client(site).get(url)
    assert r.status_code == 404 and r.json()["code"] == "not_found", r.text
    assert r.json()["message"] == "没有这个页面或对象 (编号超出范围或格式不对)"
    r = _client(site).get(url + "?lang=en")
    assert r.json()["message"] == "no such page or object (the number is out of range or malformed)"


def test_ids_outside_the_store_are_404_pages_on_the_site(site: Site) -> None:
    r = _client(site).get(f"/events/{INT_MAX + 1}/standings/jia")
    assert r.status_code == 404 and "text/html" in r.headers["content-type"]
    assert "没有这个页面或对象" in r.text


def test_largest_integer_is_an_ordinary_unknown_event(site: Site) -> None:
    r = _client(site).get(f"/api/events/{INT_MAX}")
    assert r.status_code == 404 and r.json()["code"] == "event_not_found"  # in range: names nothing


def _grid(site: Site) -> tuple[TestClient, str, str]:
    director = site.login("director", _client(site))
    return director, csrf_of(director), "/console/events/1/rounds/jia/1/result"


@pytest.mark.parametrize(("label", "kwargs", "reason"), [
    ("form", {"data": {"board": "1", "version": "1", "result": "黑胜"}}, "请求体应为JSON"),
    ("invalid", {"content": b'{"board": 1,', "headers": {"content-type": "application/json"}},
     "请求体不是有效的JSON"),
    ("list", {"json": [1, 2]}, "请求体应为JSON对象"),
    ("string", {"json": "黑胜"}, "请求体应为JSON对象"),
])
def test_the_grid_answers_400_json_naming_what_is_wrong_with_the_body(
        site: Site, label: str, kwargs: dict[str, Any], reason: str) -> None:
    director, csrf, url = _grid(site)
    kwargs = {**kwargs, "headers": {"x-csrf-token": csrf, **kwargs.get("headers", {})}}
    r = director.post(url, **kwargs)
    assert r.status_code == 400, r.text
    body = r.json()
    assert body["code"] == "bad_body"
    assert reason in body["message"]
    en = director.post(url + "?lang=en", **kwargs).json()
    assert en["message"].startswith("bad request: the body")


def test_the_grid_still_takes_a_good_body(site: Site) -> None:
    director, csrf, url = _grid(site)
    r = director.post(url, json={"board": 1, "version": 1, "result": "1"}, headers={"x-csrf-token": csrf})
    assert r.status_code == 200 and r.json()["result"] == "黑胜", r.text


def test_the_grid_checks_login_before_the_body(site: Site) -> None:
    anonymous = _client(site)
    csrf = csrf_of(anonymous)
    r = anonymous.post("/console/events/1/rounds/jia/1/result", content=b"{not json",
                       headers={"x-csrf-token": csrf, "content-type": "application/json"})
    assert r.status_code == 401 and r.json()["code"] == "login_required"
    r = anonymous.post("/console/events/1/register/check", data={"x": "1"}, headers={"x-csrf-token": csrf})
    assert r.status_code == 401 and r.json()["code"] == "login_required"


def test_register_check_answers_400_on_a_form_body(site: Site) -> None:
    leader = site.login("leader", _client(site))
    csrf = csrf_of(leader)
    r = leader.post("/console/events/1/register/check", data={"姓名": "x"}, headers={"x-csrf-token": csrf})
    assert r.status_code == 400 and r.json()["code"] == "bad_body", r.text
    ok = leader.post("/console/events/1/register/check", json={"division": "jia", "姓名": "张三"},
                     headers={"x-csrf-token": csrf})
    assert ok.status_code == 200 and isinstance(ok.json()["reasons"], list), ok.text


def test_api_body_problems_are_400_with_each_field_named(site: Site) -> None:
    c = _client(site)
    r = c.post("/api/events/1/rounds/jia/1/results", json={"board": "x", "version": 0})
    assert r.status_code == 400 and r.json()["code"] == "bad_body", r.text
    details = r.json()["details"]
    assert "board: 应为整数" in details and "version: 应不小于1" in details and "result: 缺少此项" in details
    en = _client(site).post("/api/events/1/rounds/jia/1/results?lang=en", json={"board": "x", "version": 0}).json()
    assert "board: must be a whole number" in en["details"]  # (?lang=en is remembered by that client)
    r = c.post("/api/token", content=b"{", headers={"content-type": "application/json"})
    assert r.status_code == 400 and "请求体不是有效的JSON" in " ".join(r.json()["details"]), r.text
    r = c.post("/api/token", json=[1])
    assert r.status_code == 400, r.text


def test_form_numbers_past_the_store_are_refused_by_name(site: Site) -> None:
    director = site.login("director", _client(site))
    csrf = csrf_of(director)
    r = director.post("/console/events/1/appeals", data={"csrf": csrf, "division": "jia", "round": "327881703499557699584",
                                                         "appellant": "x", "subject": "y"})
    assert r.status_code == 400 and "轮次" in r.text, r.text[:500]


def test_json_wrong_types_in_the_grid_are_400(site: Site) -> None:
    director, csrf, url = _grid(site)
    for body in ({"board": [], "version": 1, "result": "1"}, {"board": 1, "version": 2**70, "result": "1"},
                 {"board": 1, "version": 1, "result": {"x": 1}}, {"board": 1, "version": 1, "result": "1", "group": 5}):
        r = director.post(url, content=json.dumps(body), headers={"x-csrf-token": csrf, "content-type": "application/json"})
        assert r.status_code == 400 and r.json()["code"] == "bad_body", (body, r.text)


def test_the_frameworks_own_answers_have_the_api_error_shape(site: Site) -> None:
    c = _client(site)
    r = c.get("/api/no-such-thing")
    assert r.status_code == 404 and r.json()["code"] == "not_found" and r.json()["message"] == "没有这个页面或对象"
    r = c.delete("/api/events")
    assert r.status_code == 405 and r.json()["code"] == "method_not_allowed" and "GET" in r.headers["allow"]
    r = c.post("/api/token", content=b'{"login": "\xff"}', headers={"content-type": "application/json"})
    assert r.status_code == 400 and r.json()["code"] == "bad_body", r.text
    assert "请求体无法读取" in r.json()["message"]
