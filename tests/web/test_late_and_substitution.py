"""The chief referee's late team on the web and 递补 in the console (issue 43, item 5 and item 1's
console half), through the web client for each role.

Seed 002 (规程 十三(三)): teams register by 2025-04-18 17:00; after it only the chief referee
admits a team, with a reason (逾期报名), recorded as `yisai import --late --note` records it. A
team member is replaced (递补) by a registered player of the seat's division; her entry is
withdrawn so she stands in no list.
"""

from __future__ import annotations

from datetime import date, datetime

from fastapi.testclient import TestClient

from tests.web.conftest import NOW, XSS, Site, id_number
from tests.web.test_console import token_of
from tests.web.test_registration import _team_002
from yisai.registry.entry import EntryStatus
from yisai.registry.person import Gender, Player
from yisai.services.context import open_context
from yisai.services.entries import register_player
from yisai.services.events import resolve_event
from yisai.services.identity import Actor, Role
from yisai.services.settings import Settings
from yisai.store import audit_rows, roster_rows, team_rows
from yisai.vocabulary.rank import Rank

AFTER = datetime(2025, 4, 18, 17, 1)  # one minute after the team deadline
REASON = "因暴雨航班取消, 组委会同意"


def _entries_and_audit(site: Site) -> tuple[dict[str, tuple[str, EntryStatus, str]], list[str]]:
    """Every entry by player name → (division, status, note), and every audit note."""
    with open_context(Settings(database=site.db, clock=lambda: site.clock.moment)) as ctx, \
            ctx.work(actor=Actor.cli("check", Role.CHIEF_REFEREE)) as work:
        players = roster_rows.players_by_id(work.session, "1")
        entries = {players[e.player_id].name: (e.division, e.status, e.note or "")
                   for e in roster_rows.list_entries(work.session, "1")}
        notes = [r.note for r in audit_rows.audit_log(work.session, 1) if r.note]
    return entries, notes


def _teams(site: Site) -> list[dict]:
    """The public API's teams, each with its number in the store added (``id``)."""
    with open_context(Settings(database=site.db)) as ctx, ctx.work(actor=Actor.system()) as work:
        ids = {t.name: t.id for t in team_rows.list_teams(work.session, 1)}
    return [{**t, "id": ids[t["name"]]} for t in site.client.get("/api/events/1/entries").json()["teams"]]


def test_after_the_deadline_only_the_chief_referee_registers_a_team_late(site: Site) -> None:
    site.clock.moment = AFTER
    leader, referee, director = site.login("leader"), site.login("referee"), site.login("director")
    # a leader and a referee read the notice; no form with an enabled 提交报名 is offered
    for c in (leader, referee):
        page = c.get("/console/events/1/register").text
        assert "报名已截止" in page and "2025-04-18 17:00" in page
        assert 'id="teamform"' not in page and "提交报名" not in page and 'name="late"' not in page
        assert "只有裁判长可以逾期报名" in page
    # the chief referee has the form with the late path: a 逾期报名 tick and a reason
    page = director.get("/console/events/1/register").text
    assert 'id="teamform"' in page and 'name="late"' in page and 'name="note"' in page
    # posted anyway: the leader and the referee are refused on the server, late or not
    for c in (leader, referee):
        token = token_of(c)
        assert c.post("/console/events/1/register/team", data=_team_002(token)).status_code == 409
        late = {**_team_002(token), "late": "1", "note": REASON}
        r = c.post("/console/events/1/register/team", data=late)
        assert r.status_code == 403, r.text
    # the chief referee without the tick is refused too, and with it but without a reason
    token = token_of(director)
    r = director.post("/console/events/1/register/team", data=_team_002(token))
    assert r.status_code == 409 and "报名已截止" in r.text
    r = director.post("/console/events/1/register/team", data={**_team_002(token), "late": "1", "note": " "})
    assert r.status_code == 400 and "须写明理由" in r.text
    assert _teams(site) == []
    r = director.post("/console/events/1/register/team", data={**_team_002(token), "late": "1", "note": REASON},
                      follow_redirects=False)
    assert r.status_code == 303, r.text
    teams = _teams(site)
    assert [t["name"] for t in teams] == ["江苏队"] and len(teams[0]["members"]) == 6
    entries, notes = _entries_and_audit(site)
    late = f"逾期报名 (裁判长批准: {REASON})"  # the CLI's words (services.registration_window.late_note)
    assert {k: entries[f"江苏{k}号"][2] for k in range(1, 7)} == {k: late for k in range(1, 7)}
    assert REASON in notes
    # the team keeps why it came late; the console's team page shows it
    team_page = director.get(f"/console/events/1/teams/{teams[0]['id']}").text
    assert late in team_page


def _incoming(site: Site, name: str, born: date, gender: Gender, seq: int) -> str:
    """A 乙组 player entered by the chief referee before the deadline (not in any team)."""
    with open_context(Settings(database=site.db, clock=lambda: NOW)) as ctx, \
            ctx.work(actor=Actor.cli("director", Role.CHIEF_REFEREE)) as work:
        event = resolve_event(work, "1")
        saved = register_player(work, event, Player(
            id="", name=name, gender=gender, birth_date=born, id_number=id_number(born, seq),
            rank=Rank.parse("1段"), certificate_no=f"Y-{seq}", region="中国大陆", province="江苏", city="南京"),
            division="yi")
        return saved.player.id


def _jiangsu(site: Site) -> dict:
    leader = site.login("leader")
    r = leader.post("/console/events/1/register/team", data=_team_002(token_of(leader)), follow_redirects=False)
    assert r.status_code == 303, r.text
    return _teams(site)[0]


def test_the_chief_referee_replaces_a_member_on_the_teams_page(site: Site) -> None:
    team = _jiangsu(site)
    out = next(m for m in team["members"] if m["slot"] == "乙组女")
    assert out["name"] == "江苏4号"
    incoming = _incoming(site, "递补小红", date(2016, 9, 9), Gender.FEMALE, 613)
    url = f"/console/events/1/teams/{team['id']}"
    director, referee, leader = site.login("director"), site.login("referee"), site.login("leader")
    page = director.get(url).text
    assert 'id="replace"' in page and "递补小红" in page
    assert "须先有该席位组别的报名" in page and 'href="/console/events/1/entries"' in page
    assert XSS not in page and "&lt;script&gt;" in page  # the fixture's 甲组 players are candidates too
    assert 'id="replace"' not in referee.get(url).text  # a referee sees the team, not the form
    assert leader.get(url).status_code == 403
    form = {"out": _member_id(site, "江苏4号"), "in": incoming, "note": "江苏4号因病退出"}
    # refused on the server for a referee and a team leader, and without the session's token
    for c in (referee, leader):
        r = c.post(f"{url}/replace", data={**form, "csrf": token_of(c)})
        assert r.status_code == 403, r.text
    assert director.post(f"{url}/replace", data=form).status_code == 403
    r = director.post(f"{url}/replace", data={**form, "note": "", "csrf": token_of(director)})
    assert r.status_code == 400 and "递补须写明理由" in r.text
    assert [m["name"] for m in _teams(site)[0]["members"] if m["slot"] == "乙组女"] == ["江苏4号"]
    r = director.post(f"{url}/replace", data={**form, "csrf": token_of(director)}, follow_redirects=False)
    assert r.status_code == 303, r.text
    after = director.get(r.headers["location"]).text
    assert "递补小红接替江苏4号" in after
    seats = {m["slot"]: m["name"] for m in _teams(site)[0]["members"]}
    assert seats["乙组女"] == "递补小红" and "江苏4号" not in seats.values()
    entries, notes = _entries_and_audit(site)
    assert entries["江苏4号"][1] is EntryStatus.WITHDRAWN and "江苏4号因病退出" in entries["江苏4号"][2]
    assert entries["递补小红"][:2] == ("yi", EntryStatus.APPROVED)
    assert "江苏4号因病退出" in notes  # the reason in the audit
    public = site.client.get("/events/1/entries").text
    assert "递补小红" in public and "江苏4号" not in public


def _member_id(site: Site, name: str) -> str:
    with open_context(Settings(database=site.db)) as ctx, ctx.work(actor=Actor.system()) as work:
        return next(p.id for p in roster_rows.players_by_id(work.session, "1").values() if p.name == name)


def test_an_incoming_player_without_an_entry_in_the_seats_division_is_refused(site: Site) -> None:
    team = _jiangsu(site)
    director: TestClient = site.login("director")
    out_id = _member_id(site, "江苏4号")
    jia_player = _member_id(site, "棋手2")  # a 甲组 girl: no 乙组 entry
    r = director.post(f"/console/events/1/teams/{team['id']}/replace",
                      data={"out": out_id, "in": jia_player, "note": "换人", "csrf": token_of(director)})
    assert r.status_code == 409 and "没有乙组的有效报名" in r.text
    entries, _ = _entries_and_audit(site)
    assert entries["江苏4号"][1] is EntryStatus.APPROVED
