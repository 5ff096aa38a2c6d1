"""Issue #30 item 8: a security matrix over every state-changing route of the app.

The routes are read from the FastAPI app itself, never from a hand list: a new POST route that
is not classified below fails ``test_every_state_changing_route_is_classified``. For each
classified route, each attacker is refused (401, 403 or a redirect to the login page) and the
database is unchanged afterwards, row for row:

* no session at all;
* a signed-in account without the CSRF token (of a role the route allows);
* each role the route does not allow (with a valid CSRF token);
* the leader of another team (routes a team leader may use, aimed at a team that is not his);
* a chief referee and a referee limited to another event (every route of an event).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text

from tests.conftest import REGULATIONS
from tests.formats.roster_files import team_rows
from tests.web.conftest import NOW, Site
from tests.web.test_authorisation import _file, _upload
from tests.web.test_console import token_of
from yisai.services.accounts import create_user
from yisai.services.context import open_context
from yisai.services.events import create_event, resolve_event
from yisai.services.identity import Actor, Role
from yisai.services.roster_import import import_roster
from yisai.services.settings import Settings
from yisai.store import roster_rows
from yisai.store import team_rows as store_teams

OPERATOR, CHIEF, REFEREE, LEADER = Role.OPERATOR, Role.CHIEF_REFEREE, Role.REFEREE, Role.TEAM_LEADER
STAFF = frozenset({OPERATOR, CHIEF, REFEREE, LEADER})
LOGIN_OF = {OPERATOR: "operator", CHIEF: "director", REFEREE: "referee", LEADER: "leader"}
PASSWORDS = {"operator": "operator-pw", "director": "director-pw", "referee": "referee-pw", "leader": "leader-pw",
             "zj": "zj-leader-pw", "chief2": "chief2-password", "ref2": "ref2-password"}
REFUSED = {401, 403}


@dataclass(frozen=True)
class Rule:
    """How a route is protected: ``allowed`` roles (console session + CSRF); ``kind`` says what
    else it is: "console" (the default), "public" (no account needed by design: the login form
    itself), "player" (a player's own sign-in), "token" (the API's bearer token)."""

    allowed: frozenset[Role] = frozenset()
    kind: str = "console"
    event: bool = True  # an event's route: scoped accounts of another event are refused
    leader_body: Callable[[dict[str, str]], dict[str, Any]] | None = None  # aimed at another team
    why: str = ""


def _lineup(ids: dict[str, str]) -> dict[str, Any]:
    return {"team": ids["zj_team"], "b1": ids["zj_player"]}


def _checkin(ids: dict[str, str]) -> dict[str, Any]:
    return {"player": ids["zj_player"], "action": "arrive"}


def _paper(ids: dict[str, str]) -> dict[str, Any]:
    return {"team": ids["zj_team"], "kind": "entry_form", "__file": ("file", "f.pdf", b"%PDF-1.4 x")}


def _individual(ids: dict[str, str]) -> dict[str, Any]:
    return {"division": "甲组", "p_name": "浙江1号", "p_birth": ids["zj_birth"], "p_id": ids["zj_id_number"],
            "p_rank": "1段", "p_cert": "X-1", "p_gender": "M"}


def _team(ids: dict[str, str]) -> dict[str, Any]:
    return {"team": "冒名队", "m0_name": "浙江1号", "m0_birth": ids["zj_birth"], "m0_id": ids["zj_id_number"],
            "m0_rank": "1段", "m0_cert": "X-1"}


def _roster(ids: dict[str, str]) -> dict[str, Any]:
    return {"__file": ("roster", "zj.xlsx", ids["zj_roster"].encode("latin-1"))}


REGISTER = frozenset({OPERATOR, CHIEF, REFEREE, LEADER})
ROUTES: dict[tuple[str, str], Rule] = {
    ("POST", "/console/login"): Rule(kind="public", event=False, why="the login form (rate limited)"),
    ("POST", "/console/logout"): Rule(kind="public", event=False, why="ends the visitor's own session"),
    ("POST", "/console/accounts"): Rule(frozenset({OPERATOR}), event=False),
    ("POST", "/console/accounts/{login}/password"): Rule(frozenset({OPERATOR}), event=False),
    ("POST", "/console/accounts/{login}/disable"): Rule(frozenset({OPERATOR}), event=False),
    ("POST", "/console/accounts/{login}/enable"): Rule(frozenset({OPERATOR}), event=False),
    ("POST", "/console/accounts/{login}/unlock"): Rule(frozenset({OPERATOR}), event=False),
    ("POST", "/console/accounts/{login}/event"): Rule(frozenset({OPERATOR}), event=False),
    ("POST", "/console/accounts/{login}/max-teams"): Rule(frozenset({OPERATOR}), event=False),
    ("POST", "/console/accounts/{login}/team"): Rule(frozenset({OPERATOR}), event=False),
    ("POST", "/console/events"): Rule(frozenset({OPERATOR, CHIEF}), event=False),
    ("POST", "/console/drafts"): Rule(frozenset({OPERATOR, CHIEF}), event=False),
    ("POST", "/console/drafts/event"): Rule(frozenset({OPERATOR, CHIEF}), event=False),
    ("POST", "/console/events/{event_id}/entries/{entry_id}"): Rule(frozenset({CHIEF})),
    ("POST", "/console/events/{event_id}/roster"): Rule(REGISTER, leader_body=_roster),
    ("POST", "/console/events/{event_id}/pair"): Rule(frozenset({CHIEF})),
    ("POST", "/console/events/{event_id}/rounds/{division}/{number}/result"): Rule(frozenset({CHIEF, REFEREE})),
    ("POST", "/console/events/{event_id}/rounds/{division}/{number}/publish"): Rule(frozenset({CHIEF})),
    ("POST", "/console/events/{event_id}/rounds/{division}/{number}/unpublish"): Rule(frozenset({CHIEF})),
    ("POST", "/console/events/{event_id}/rounds/{division}/{number}/sheet"): Rule(frozenset({CHIEF, REFEREE})),
    ("POST", "/api/token"): Rule(kind="public", event=False, why="exchanges a login and password for a token"),
    ("POST", "/api/events/{event_id}/rounds/{division}/{number}/results"): Rule(kind="token"),
    ("POST", "/console/events/{event_id}/appeals"): Rule(REGISTER),
    ("POST", "/console/events/{event_id}/appeals/{appeal_id}"): Rule(frozenset({CHIEF})),
    ("POST", "/console/events/{event_id}/register/team"): Rule(REGISTER, leader_body=_team),
    ("POST", "/console/events/{event_id}/register/individual"): Rule(REGISTER, leader_body=_individual),
    ("POST", "/console/events/{event_id}/register/check"): Rule(STAFF, why="reads only: checks one typed row"),
    ("POST", "/console/events/{event_id}/changes/{change_id}"): Rule(frozenset({CHIEF})),
    ("POST", "/console/events/{event_id}/teams/{team_id}/replace"): Rule(frozenset({CHIEF})),
    ("POST", "/console/events/{event_id}/members"): Rule(frozenset({CHIEF})),
    ("POST", "/console/events/{event_id}/prizes/dock"): Rule(frozenset({CHIEF})),
    ("POST", "/console/events/{event_id}/prizes/judge"): Rule(frozenset({CHIEF})),
    ("POST", "/console/events/{event_id}/prizes/pool"): Rule(frozenset({CHIEF})),
    ("POST", "/console/events/{event_id}/papers/upload"): Rule(REGISTER, leader_body=_paper),
    ("POST", "/console/events/{event_id}/papers/{paper_id}"): Rule(frozenset({CHIEF})),
    ("POST", "/console/events/{event_id}/checkin"): Rule(frozenset({CHIEF, REFEREE, LEADER}), leader_body=_checkin),
    ("POST", "/console/events/{event_id}/lineups/{number}"): Rule(frozenset({CHIEF, LEADER}), leader_body=_lineup),
    ("POST", "/console/events/{event_id}/qualification/close/{period}"): Rule(frozenset({OPERATOR, CHIEF})),
    ("POST", "/console/events/{event_id}/qualification/reminders"): Rule(frozenset({OPERATOR, CHIEF})),
    ("POST", "/console/events/{event_id}/qualification/final"): Rule(frozenset({CHIEF})),
    ("POST", "/console/events/{event_id}/fairplay/games/{game_id}"): Rule(frozenset({CHIEF})),
    ("POST", "/console/events/{event_id}/fairplay/suspend"): Rule(frozenset({CHIEF})),
    ("POST", "/qualification/{event_id}/places/{place_id}"): Rule(kind="player", why="a player confirms a place"),
    ("POST", "/qualification/{event_id}/places/{place_id}/pay"): Rule(
        kind="player", why="a player pays his own place's fee (the service checks the place is his)"),
    ("POST", "/qualification/{event_id}/orders/{out_trade_no}/check"): Rule(
        kind="player", why="asks the provider about the player's own order (the service checks it is his)"),
    ("POST", "/play/code"): Rule(kind="public", event=False, why="asks for a sign-in code (rate limited)"),
    ("POST", "/play/signin"): Rule(kind="public", event=False, why="a player's sign-in"),
    ("POST", "/play/password"): Rule(kind="public", event=False, why="a player's sign-in with a password (rate limited)"),
    ("POST", "/play/signout"): Rule(kind="public", event=False, why="ends the visitor's own session"),
    ("POST", "/play/oauth/link/code"): Rule(kind="public", event=False,
                                             why="a code to link a WeChat/QQ identity waiting in the signed session (rate limited)"),
    ("POST", "/play/oauth/link"): Rule(kind="public", event=False,
                                        why="links the WeChat/QQ identity waiting in the signed session by a phone code"),
    ("POST", "/play/profile"): Rule(kind="player", event=False),
    ("POST", "/play/notices"): Rule(kind="player", event=False, why="a player's own SMS opt-out"),
    ("POST", "/console/events/{event_id}/fees/pay/team/{team_id}"): Rule(REGISTER),
    ("POST", "/console/events/{event_id}/fees/pay/appeal/{appeal_id}"): Rule(REGISTER),
    ("POST", "/console/events/{event_id}/fees/orders/{out_trade_no}/check"): Rule(REGISTER),
    ("POST", "/console/events/{event_id}/fees/refund"): Rule(frozenset({CHIEF})),
    ("POST", "/pay/{provider}/notify"): Rule(kind="public", event=False,
                                           why="a payment provider's callback: the provider's signature is its "
                                               "credential, checked before anything is written (docs/fees.md)"),
    ("POST", "/console/events/{event_id}/notices/switch"): Rule(frozenset({OPERATOR, CHIEF})),
    ("POST", "/console/events/{event_id}/notices/budget"): Rule(frozenset({OPERATOR, CHIEF})),
    ("POST", "/console/events/{event_id}/notices/{notice_id}/retry"): Rule(frozenset({OPERATOR, CHIEF})),
}
WRITES = ("POST", "PUT", "PATCH", "DELETE")


def state_changing_routes(app: FastAPI) -> list[tuple[str, str]]:
    """(method, path) of every route that may change state, walking included routers."""
    out: list[tuple[str, str]] = []

    def walk(routes: list[Any], prefix: str) -> None:
        for r in routes:
            if hasattr(r, "original_router"):  # FastAPI's included router
                walk(r.original_router.routes, prefix + r.include_context.prefix)
            elif hasattr(r, "routes") and hasattr(r, "path") and not getattr(r, "methods", None):
                walk(r.routes, prefix + r.path)  # a mount of routes
            for m in sorted(getattr(r, "methods", None) or ()):
                if m in WRITES:
                    out.append((m, prefix + r.path))

    walk(list(app.routes), "")
    return out


def test_every_state_changing_route_is_classified(site: Site) -> None:
    found = set(state_changing_routes(site.client.app))  # type: ignore[arg-type]
    assert len(found) >= 30  # the walk itself works (a FastAPI change would make it see nothing)
    unknown = sorted(found - set(ROUTES))
    assert not unknown, f"classify these routes in ROUTES (who may call them): {unknown}"
    gone = sorted(set(ROUTES) - found)
    assert not gone, f"routes classified but no longer in the app: {gone}"


# ------------------------------------------------------------------ the world the attacks run in


def _snapshot(db: str) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table; the audit lines of refused result entries are the one write a
    refusal makes on purpose (the audit keeps refused attempts), so they are left out, and so is
    the event's ``revision``, which the database moves for any new audit line (migration 0022)."""
    engine = create_engine(f"sqlite:///{db}")
    with engine.connect() as c:
        tables = [t for t in c.execute(text("SELECT name FROM sqlite_master WHERE type = 'table'")).scalars()
                  if t != "alembic_version"]
        out = {t: [tuple(r) for r in c.execute(text(f'SELECT * FROM "{t}"'))] for t in tables}
        out["audit"] = [tuple(r) for r in c.execute(text("SELECT * FROM audit WHERE action != 'result_refused'"))]
        columns = [r[1] for r in c.execute(text('PRAGMA table_info("events")')) if r[1] != "revision"]
        out["events"] = [tuple(r) for r in c.execute(text(f'SELECT {", ".join(columns)} FROM events'))]
    engine.dispose()
    return out


@dataclass
class World:
    site: Site
    ids: dict[str, str] = field(default_factory=dict)
    clients: dict[str, TestClient] = field(default_factory=dict)

    def client(self, login: str) -> TestClient:
        if login not in self.clients:
            c = self.site.new_client()
            r = c.post("/console/login", data={"login": login, "password": PASSWORDS[login],
                                               "csrf": token_of(c, "/console/login")}, follow_redirects=False)
            assert r.status_code == 303, (login, r.text)
            self.clients[login] = c
        return self.clients[login]


@pytest.fixture
def world(site: Site, tmp_path: Path) -> Iterator[World]:
    """Event 1 with 江苏队 (leader ``leader``) and 浙江队 (leader ``zj``); event 2 with a chief
    referee and a referee limited to it; a pending entry, a paper and a pending change."""
    w = World(site)
    assert _upload(w.client("leader"), _file(tmp_path, "js.xlsx", team_rows("江苏队", "江苏省", "江苏市", "320102", seq=0))).status_code == 303
    zj_rows = team_rows("浙江队", "浙江省", "浙江市", "330102", seq=0)
    settings = Settings(database=site.db, clock=lambda: NOW)
    chief = Actor.cli("裁判长", Role.CHIEF_REFEREE)
    with open_context(settings) as ctx:
        with ctx.work(actor=chief) as work:
            import_roster(work, resolve_event(work, "1"), _file(tmp_path, "zj.xlsx", zj_rows), "zj.xlsx")
            second = create_event(work, REGULATIONS / "2025-xiaoqiwang.toml", name="第二个比赛", seed=3)
            team = next(t for t in store_teams.list_teams(work.session, 1) if t.name == "浙江队")
            player = next(p for p in roster_rows.players_by_id(work.session, 1).values() if p.name == "浙江1号")
            entry = roster_rows.list_entries(work.session, 1)[0]
        with ctx.work(actor=Actor.system()) as work:
            create_user(work, "zj", "浙江领队", Role.TEAM_LEADER, PASSWORDS["zj"], event_id=1, team_id=int(team.id))
            create_user(work, "chief2", "二号裁判长", Role.CHIEF_REFEREE, PASSWORDS["chief2"], event_id=second.id)
            create_user(work, "ref2", "二号裁判员", Role.REFEREE, PASSWORDS["ref2"], event_id=second.id)
    w.ids = {"zj_team": team.id, "zj_player": player.id, "zj_birth": date(2013, 4, 12).isoformat(),
             "zj_id_number": zj_rows[0][4], "entry": entry.id,
             "zj_roster": _file(tmp_path, "zj2.xlsx", zj_rows).decode("latin-1")}
    yield w


PATH_VALUES = {"event_id": "1", "entry_id": "1", "division": "jia", "number": "1", "login": "referee",
               "appeal_id": "1", "change_id": "1", "paper_id": "1", "period": "1", "game_id": "1", "place_id": "1",
               "notice_id": "1", "team_id": "1", "out_trade_no": "YS1T1ABCDEF", "provider": "wechat"}


def _url(path: str) -> str:
    for k, v in PATH_VALUES.items():
        path = path.replace("{" + k + "}", v)
    return path


def _send(client: TestClient, path: str, body: dict[str, Any], token: str | None) -> Any:
    """A plausible request for the route: JSON for the grid and the row check, a form (with a
    file where the route takes one) for the rest; the CSRF token where ``token`` is given."""
    body = dict(body)
    upload = body.pop("__file", None)
    if path.endswith("/result") or path.endswith("/register/check") or path.endswith("/results"):
        headers = {"X-CSRF-Token": token} if token else {}
        return client.post(_url(path), json={"board": 1, "version": 1, "result": "黑胜", **body},
                           headers=headers, follow_redirects=False)
    data = {"decision": "approve", "note": "n", "reason": "r", "login": "x9", "role": "referee",
            "password": "long-password", "round": "1", "division": "jia", "count": "5", "event": "",
            "player": "1", "team": "", "kind": "entry_form", "outcome": "upheld", "subject": "s",
            "appellant": "a", "action": "annul", **body}
    if token:
        data["csrf"] = token
    files = {upload[0]: (upload[1], upload[2])} if upload else None
    if files is None and path.endswith(("/roster", "/sheet", "/papers/upload", "/console/events", "/drafts")):
        files = {"roster": ("r.xlsx", b"x"), "sheet": ("s.xlsx", b"x"), "file": ("f.pdf", b"%PDF-1.4"),
                 "regulation": ("r.toml", b"x"), "source": ("s.txt", "一、主办单位\n中国围棋协会".encode())}
    return client.post(_url(path), data=data, files=files, follow_redirects=False)


def _refused(r: Any) -> bool:
    if r.status_code in REFUSED:
        return True
    return r.status_code == 303 and "/login" in r.headers.get("location", "")


def _attacks(world: World, method: str, path: str, rule: Rule) -> Iterator[tuple[str, Callable[[], Any]]]:
    site = world.site
    if rule.kind in ("player", "token") or (rule.kind == "console"):
        def anonymous() -> Any:
            c = site.new_client()
            return _send(c, path, {}, token_of(c, "/console/login"))

        yield "no session", anonymous
    if rule.kind == "token":
        yield "bad token", lambda: site.new_client().post(_url(path), json={"board": 1, "result": "黑胜", "version": 1},
                                                          headers={"Authorization": "Bearer forged"})
    if rule.kind != "console":
        return
    allowed = sorted(rule.allowed, key=str)
    holder = world.client(LOGIN_OF[allowed[0]])
    yield "no CSRF token", lambda: _send(holder, path, {}, None)
    yield "foreign CSRF token", lambda: _send(holder, path, {}, token_of(site.new_client(), "/console/login"))
    for role in sorted(STAFF - rule.allowed, key=str):
        c = world.client(LOGIN_OF[role])
        yield f"role {role.value}", (lambda c=c: _send(c, path, {}, token_of(c)))
    if rule.leader_body is not None:
        c = world.client("leader")
        body = rule.leader_body(world.ids)
        yield "leader of another team", (lambda c=c, body=body: _send(c, path, body, token_of(c)))
    if rule.event:
        for login in ("chief2", "ref2"):
            c = world.client(login)
            yield f"{login} (another event)", (lambda c=c: _send(c, path, {}, token_of(c)))


@pytest.mark.parametrize("route", sorted(ROUTES), ids=lambda r: f"{r[0]} {r[1]}")
def test_every_attack_on_the_route_is_refused_and_writes_nothing(world: World, route: tuple[str, str]) -> None:
    method, path = route
    rule = ROUTES[route]
    if rule.kind == "public":
        assert rule.why, "a route open without an account says why"
        return
    for name, attack in _attacks(world, method, path, rule):
        before = _snapshot(world.site.db)
        r = attack()
        assert _refused(r), f"{method} {path}: {name} got {r.status_code}: {r.text[:300]}"
        assert _snapshot(world.site.db) == before, f"{method} {path}: {name} changed the database"
