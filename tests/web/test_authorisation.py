"""Issue #30 items 2 and 5: a team leader touches only the own team, by every route; a change to a
registered player after approval or the deadline waits for the chief referee; one team per leader
account unless the operator allows more; a referee made for one event is refused every other."""

from __future__ import annotations

from datetime import date, datetime
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import pytest
from sqlalchemy import create_engine, text

from tests.cli_runner import run_cli
from tests.conftest import REGULATIONS
from tests.formats.roster_files import team_rows, write_xlsx
from tests.idnumbers import make_id_number
from tests.web.conftest import NOW, Site
from tests.web.test_console import token_of
from yisai.registry.person import Gender, Player
from yisai.services.accounts import create_user
from yisai.services.approvals import approve_all_eligible
from yisai.services.context import open_context
from yisai.services.errors import Forbidden
from yisai.services.events import create_event, resolve_event
from yisai.services.identity import Actor, Role
from yisai.services.roster_import import import_roster
from yisai.services.settings import Settings
from yisai.store import player_rows, roster_rows
from yisai.store import team_rows as store_teams
from yisai.vocabulary.rank import Rank

SEED_002 = REGULATIONS / "2025-xiaoqiwang.toml"
CHIEF = Actor.cli("裁判长", Role.CHIEF_REFEREE)


def _file(tmp: Path, name: str, rows: list[list[Any]]) -> bytes:
    return write_xlsx(tmp / name, rows).read_bytes()


def _settings(site: Site) -> Settings:
    return Settings(database=site.db, clock=lambda: site.clock.moment)


def _upload(client: Any, data: bytes, name: str = "roster.xlsx") -> Any:
    return client.post("/console/events/1/roster", data={"csrf": token_of(client)},
                       files={"roster": (name, data)}, follow_redirects=False)


def _snapshot(db: str) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of the tables a registration could write (audit lines included)."""
    engine = create_engine(f"sqlite:///{db}")
    with engine.connect() as c:
        out = {t: [tuple(r) for r in c.execute(text(f"SELECT * FROM {t} ORDER BY id"))]
               for t in ("players", "entries", "teams", "team_members", "users", "audit", "player_changes")}
    engine.dispose()
    return out


def _rank_of(db: str, name: str) -> int | None:
    engine = create_engine(f"sqlite:///{db}")
    with engine.connect() as c:
        value = c.execute(text("SELECT rank FROM players WHERE name = :n"), {"n": name}).scalar_one()
    engine.dispose()
    return None if value is None else int(value)


@pytest.fixture
def two_teams(site: Site, tmp_path: Path) -> Site:
    """Leader ``leader`` registers 江苏队 from a roster file (and is bound to it); the chief
    referee imports 浙江队, whose leader account ``zj`` is bound to it; every entry approved."""
    leader = site.login("leader")
    r = _upload(leader, _file(tmp_path, "js.xlsx", team_rows("江苏队", "江苏省", "江苏市", "320102", seq=0)))
    assert r.status_code == 303 and "err=" not in r.headers["location"], r.text
    with open_context(_settings(site)) as ctx:
        with ctx.work(actor=CHIEF) as work:
            event = resolve_event(work, "1")
            import_roster(work, event, _file(tmp_path, "zj.xlsx", team_rows("浙江队", "浙江省", "浙江市", "330102", seq=0)), "zj.xlsx")
        with ctx.work(actor=Actor.system()) as work:
            team = next(t for t in store_teams.list_teams(work.session, 1) if t.name == "浙江队")
            create_user(work, "zj", "浙江领队", Role.TEAM_LEADER, "zj-leader-pw", event_id=1, team_id=int(team.id))
        with ctx.work(actor=CHIEF) as work:
            approve_all_eligible(work, resolve_event(work, "1"))
    return site


def test_a_leaders_file_naming_another_team_is_refused_whole_with_the_row(two_teams: Site, tmp_path: Path) -> None:
    site = two_teams
    before = _snapshot(site.db)
    intruder = team_rows("浙江队", "浙江省", "浙江市", "330102", seq=0)[0]
    rows = [team_rows("江苏队", "江苏省", "江苏市", "320102", seq=0)[0], intruder]
    rows[1][1] = "混入者"
    rows[1][4] = make_id_number("330102", date(2013, 4, 12), 40, Gender.MALE)
    r = _upload(site.login("leader"), _file(tmp_path, "mixed.xlsx", rows))
    assert r.status_code == 403, r.text
    assert "第3行" in r.text and "浙江队" in r.text and "不是本账号的队伍" in r.text
    assert _snapshot(site.db) == before  # nothing at all written, not even the own team's row
    # a row for a player of another team (matched by ID number) under the own team's name
    stolen = team_rows("浙江队", "浙江省", "浙江市", "330102", seq=0)[0]
    stolen[12] = "江苏队"
    r = _upload(site.login("leader"), _file(tmp_path, "stolen.xlsx", [stolen]))
    assert r.status_code == 403 and "浙江1号是浙江队的队员" in r.text
    assert _snapshot(site.db) == before


def test_a_change_to_an_approved_player_waits_for_the_chief_referee(two_teams: Site, tmp_path: Path) -> None:
    site = two_teams
    assert _rank_of(site.db, "江苏1号") == Rank.parse("5段").value
    rows = team_rows("江苏队", "江苏省", "江苏市", "320102", seq=0)
    rows[0][5] = "1段"
    r = _upload(site.login("leader"), _file(tmp_path, "again.xlsx", rows))
    assert r.status_code == 303, r.text
    assert "1名已登记棋手的资料更改须裁判长批准" in unquote(r.headers["location"])
    assert _rank_of(site.db, "江苏1号") == Rank.parse("5段").value  # not straight into the data
    director = site.login("director")
    page = director.get("/console/events/1/changes").text
    assert "江苏1号" in page and "报名已审核通过" in page
    change = int(page.split('data-change="')[1].split('"')[0])
    # nobody else decides it
    for who in ("leader", "referee"):
        c = site.login(who)
        assert c.post(f"/console/events/1/changes/{change}", data={"csrf": token_of(c), "decision": "approve"}
                      ).status_code == 403
    assert _rank_of(site.db, "江苏1号") == Rank.parse("5段").value
    r = director.post(f"/console/events/1/changes/{change}", data={"csrf": token_of(director), "decision": "approve",
                                                                  "note": "证书核实"}, follow_redirects=False)
    assert r.status_code == 303
    assert _rank_of(site.db, "江苏1号") == Rank.parse("1段").value
    audit = director.get("/console/events/1/audit").text
    assert "申请修改" in audit and "批准修改" in audit and "证书核实" in audit


def test_after_the_deadline_a_change_waits_and_the_chief_referee_may_reject_it(
        site: Site, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    leader = site.login("leader")
    rows = team_rows("江苏队", "江苏省", "江苏市", "320102", seq=0)
    assert _upload(leader, _file(tmp_path, "js.xlsx", rows)).status_code == 303
    site.clock.moment = datetime(2025, 4, 19, 9, 0)  # seed 002 closes 04-18 17:00
    rows[2][5] = "6段"
    r = _upload(leader, _file(tmp_path, "late.xlsx", rows))
    assert r.status_code == 303, r.text
    assert _rank_of(site.db, "江苏3号") == Rank.parse("2段").value
    with open_context(_settings(site)) as ctx, ctx.work(actor=CHIEF) as work:
        from yisai.services.player_changes import list_changes

        [view] = list_changes(work, "1")
        assert view.change.why == "deadline" and view.change.after == {"rank": "6段"}
    # the chief referee on the command line: listed, then rejected with a reason
    _cli_env(monkeypatch, site.db, "2025-04-19T10:00")
    listed = run_cli("change", "list")
    assert "江苏3号" in listed and "报名已截止" in listed and "6段" in listed
    run_cli("change", "reject", str(view.change.id), code=2)  # a reason is required
    out = run_cli("change", "reject", str(view.change.id), "--reason", "截止后不得更改段位")
    assert "已驳回" in out
    assert _rank_of(site.db, "江苏3号") == Rank.parse("2段").value
    assert "没有待审更改" in run_cli("change", "list")
    run_cli("change", "approve", str(view.change.id), code=1)  # decided already


def test_one_account_registers_one_team_unless_the_operator_allows_more(two_teams: Site, tmp_path: Path) -> None:
    site = two_teams
    leader = site.login("leader")
    second = _file(tmp_path, "ah.xlsx", team_rows("安徽队", "安徽省", "安徽市", "340102", seq=0))
    before = _snapshot(site.db)
    r = _upload(leader, second)
    assert r.status_code == 409 and "每个领队账号对应一支队伍" in r.text
    assert _snapshot(site.db) == before
    operator = site.login("operator")
    r = operator.post("/console/accounts/leader/max-teams", data={"csrf": token_of(operator), "count": "2"},
                      follow_redirects=False)
    assert r.status_code == 303 and "err=" not in r.headers["location"]
    assert "可登记2支队" in operator.get("/console/accounts").text
    r = _upload(leader, second)
    assert r.status_code == 303 and "err=" not in r.headers["location"], r.text
    papers = leader.get("/console/events/1/papers").text  # both teams are this account's own now
    assert "安徽队" in papers and "江苏队" in papers and "浙江队" not in papers
    assert _upload(leader, _file(tmp_path, "x.xlsx", team_rows("上海队", "上海省", "上海市", "310102", seq=0))).status_code == 409


def test_a_leader_submits_papers_and_line_ups_for_the_own_team_only(two_teams: Site) -> None:
    site = two_teams
    leader = site.login("leader")
    with open_context(_settings(site)) as ctx, ctx.work(actor=CHIEF) as work:
        zj = next(t for t in store_teams.list_teams(work.session, 1) if t.name == "浙江队")
    r = leader.post("/console/events/1/papers/upload", data={"csrf": token_of(leader), "team": zj.id,
                                                              "kind": "entry_form"},
                    files={"file": ("f.pdf", b"%PDF-1.4 test")})
    assert r.status_code == 403
    assert "浙江队" not in leader.get("/console/events/1/papers").text


# ------------------------------------------------------------------ event scope (item 5)


def _cli_env(monkeypatch: pytest.MonkeyPatch, db: str, now: str = "2025-04-10T09:00") -> None:
    monkeypatch.setenv("YISAI_DB", db)
    monkeypatch.setenv("YISAI_NOW", now)
    for name in ("YISAI_DATABASE_URL", "YISAI_EVENT", "YISAI_ROLE", "YISAI_ACTOR"):
        monkeypatch.delenv(name, raising=False)


def _second_event(db: str) -> int:
    with open_context(Settings(database=db, clock=lambda: NOW)) as ctx, ctx.work(actor=CHIEF) as work:
        return create_event(work, SEED_002, name="第二个比赛", seed=3).id


def test_account_add_event_limits_a_referee_to_that_event(site: Site, monkeypatch: pytest.MonkeyPatch) -> None:
    other = _second_event(site.db)
    _cli_env(monkeypatch, site.db)
    out = run_cli("account", "add", "ref1", "--role", "referee", "--event", "1", "--password-stdin",
               stdin="ref1-password\n")
    assert "限第1号比赛" in out
    listed = run_cli("account", "list")
    line = next(x for x in listed.splitlines() if "ref1" in x)
    assert "#1" in line
    # an operator is platform-wide: the option is refused, not ignored
    run_cli("account", "add", "op2", "--role", "operator", "--event", "1", "--password-stdin",
         stdin="op2-password\n", code=2)
    # the web: 403 on the other event, its pages and its writes
    c = site.new_client()
    c.post("/console/login", data={"login": "ref1", "password": "ref1-password",
                                   "csrf": token_of(c, "/console/login")})
    assert c.get(f"/console/events/{other}").status_code == 403
    r = c.post(f"/console/events/{other}/checkin", data={"csrf": token_of(c), "player": "1"})
    assert r.status_code == 403
    assert c.get("/console/events/1").status_code == 200
    # the command line, acting as that account: refused on the other event, allowed on its own
    player = ["player", "add", "--name", "范围测试", "--gender", "男", "--birth", "2013-03-03",
              "--rank", "1段", "--cert", "C-1", "--region", "中国大陆", "--division", "甲组"]
    out = run_cli("--actor", "ref1", "--role", "referee", *player, "-e", str(other), code=1)
    assert "只限第1号比赛" in out
    run_cli("--actor", "ref1", "--role", "referee", *player, "-e", "1")
    # the operator lifts the limit (console), then sets it again
    operator = site.login("operator")
    assert operator.post("/console/accounts/ref1/event", data={"csrf": token_of(operator), "event": ""},
                         follow_redirects=False).status_code == 303
    assert c.get(f"/console/events/{other}").status_code == 200
    operator.post("/console/accounts/ref1/event", data={"csrf": token_of(operator), "event": str(other)})
    assert f'data-scope="{other}"' in operator.get("/console/accounts").text
    assert c.get("/console/events/1").status_code == 403
    out = run_cli("account", "scope", "ref1", "--clear")
    assert "不再限定" in out


def test_every_write_of_a_scoped_account_stays_in_its_event(site: Site) -> None:
    """The unit of work's guard: even a write that skips the services' checks cannot land in
    another event (here a player added straight through the repository)."""
    other = _second_event(site.db)
    scoped = Actor(id="cli:ref9", name="ref9", role=Role.REFEREE, event=1)
    with open_context(_settings(site)) as ctx:
        with pytest.raises(Forbidden) as caught, ctx.work(actor=scoped) as work:
            player_rows.add_player(work.session, work.stamp, other, Player(id="", name="越界", gender=Gender.MALE))
        assert caught.value.code == "event_scope"
        with ctx.work(actor=CHIEF) as work:
            assert roster_rows.list_players(work.session, other) == []
