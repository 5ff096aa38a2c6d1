"""The papers (报名附件) and check-in (报到) pages over HTTP, and check-in on a phone in a browser.

Seed 002 with three provincial teams (浙江队, 江苏队, 上海队; six players each, two of them in
甲组): a team leader per team, the chief referee (director) and a referee.
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Iterator
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from httpx import Response

from tests.papers.helpers import EXE, PDF, UNITS, make_event, papers_context, team_id
from tests.web.conftest import Clock
from yisai.services import players, rounds
from yisai.services.accounts import create_user
from yisai.services.context import open_context
from yisai.services.identity import Actor, Role
from yisai.services.settings import Settings
from yisai.store import audit_rows
from yisai.web.app import create_app

THREE = [u for u in UNITS if u[0] in ("浙江队", "江苏队", "上海队")]
NOW = datetime(2025, 4, 10, 9, 30)  # before 4月18日17:00
PASSWORD = "papers-pw"


@dataclass
class PapersSite:
    db: Path
    files: Path
    clock: Clock
    event_id: int
    teams: dict[str, str]  # team name → id
    jia: dict[str, str]  # 甲组 player name → id
    app: FastAPI

    def login(self, who: str) -> TestClient:
        c = TestClient(self.app)
        r = c.post("/console/login", data={"login": who, "password": PASSWORD, "csrf": csrf(c, "/console/login")},
                   follow_redirects=False)
        assert r.status_code == 303, r.text
        return c


def csrf(client: TestClient, path: str) -> str:
    m = re.search(r'name="csrf" value="([^"]+)"', client.get(path).text)
    assert m
    return m.group(1)


def build(tmp: Path) -> tuple[Path, int, dict[str, str], dict[str, str]]:
    with papers_context(tmp, NOW) as ctx:
        event = make_event(ctx, tmp, THREE)
        with ctx.work() as w:
            teams = {n: team_id(w, event, n) for n in ("浙江队", "江苏队", "上海队")}
            jia = {p.player.name: p.player.id for p in players.list_players(w, event, division="甲组")}
            create_user(w, "director", "裁判长", Role.CHIEF_REFEREE, PASSWORD)
            create_user(w, "referee", "裁判员", Role.REFEREE, PASSWORD)
            create_user(w, "zj", "浙江领队", Role.TEAM_LEADER, PASSWORD, event_id=event.id,
                        team_id=int(teams["浙江队"]))
            create_user(w, "js", "江苏领队", Role.TEAM_LEADER, PASSWORD, event_id=event.id,
                        team_id=int(teams["江苏队"]))
        return tmp / "p.sqlite", event.id, teams, jia


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, int, dict[str, str], dict[str, str]]:
    return build(tmp_path_factory.mktemp("papersweb"))


@pytest.fixture
def site(template: tuple[Path, int, dict[str, str], dict[str, str]], tmp_path: Path) -> Iterator[PapersSite]:
    src, event_id, teams, jia = template
    db = tmp_path / "site.sqlite"
    shutil.copy(src, db)
    files = tmp_path / "files"
    clock = Clock(NOW)
    app = create_app(replace(Settings(database=str(db), files_dir=files), clock=clock),
                     secret="test-secret", refresh_seconds=0)
    with TestClient(app):
        yield PapersSite(db, files, clock, event_id, teams, jia, app)


def _upload(c: TestClient, site: PapersSite, data: bytes, name: str, *, team: str = "浙江队",
            kind: str = "entry_form", player: str = "", token: str | bool | None = None) -> Response:
    base = f"/console/events/{site.event_id}/papers"
    fields = {"team": site.teams[team], "kind": kind, "player": player}
    if token is not False:
        fields["csrf"] = token if isinstance(token, str) else csrf(c, base)
    return c.post(base + "/upload", data=fields, files={"file": (name, data, "application/pdf")},
                  follow_redirects=False)


def test_leader_downloads_the_form_uploads_a_pdf_and_sees_it(site: PapersSite) -> None:
    c = site.login("zj")
    base = f"/console/events/{site.event_id}/papers"
    page = c.get(base).text
    assert "浙江队" in page and "江苏队" not in page  # own team only
    assert "2025-04-18 17:00" in page  # the regulation's deadline
    form = c.get(base + f"/form.xlsx?team={site.teams['浙江队']}")
    assert form.status_code == 200 and form.content[:2] == b"PK"  # an xlsx (zip) file
    r = _upload(c, site, PDF, "scan.pdf")
    assert r.status_code == 303, r.text
    page = c.get(r.headers["location"]).text
    assert "浙江队_2025“银边庙山杯”首届中国围棋小棋王大赛报名表.pdf" in page
    row = re.search(r'data-slot="entry_form" data-state="(\w+)"', page)
    assert row and row.group(1) == "submitted"
    m = re.search(rf'href="({base}/(\d+)/file)"', page)
    assert m
    got = c.get(m.group(1))
    assert got.status_code == 200 and got.content == PDF
    # one proof for 浙江1号, then the director returns it with a reason the leader sees
    r = _upload(c, site, PDF, "id.pdf", kind="identity_proof", player=site.jia["浙江1号"])
    assert r.status_code == 303, r.text
    d = site.login("director")
    proof = re.search(rf'data-slot="identity_proof-{site.jia["浙江1号"]}" data-state="submitted">.*?'
                      rf'action="{base}/(\d+)"', d.get(base).text, re.S)
    assert proof
    r = d.post(f"{base}/{proof.group(1)}", data={"csrf": csrf(d, base), "decision": "return",
                                                 "reason": "照片不清晰"}, follow_redirects=False)
    assert r.status_code == 303
    ref = site.login("referee")  # only the chief referee decides (the service refuses a referee)
    assert "退回理由" not in ref.get(base).text
    r = ref.post(f"{base}/{proof.group(1)}", data={"csrf": csrf(ref, base), "decision": "accept"},
                 follow_redirects=False)
    assert r.status_code == 403
    page = c.get(base).text
    assert re.search(rf'data-slot="identity_proof-{site.jia["浙江1号"]}" data-state="returned">.*?照片不清晰',
                     page, re.S)


def test_a_disguised_exe_is_refused_with_the_services_message(site: PapersSite) -> None:
    c = site.login("zj")
    r = _upload(c, site, EXE, "报名表.pdf")
    assert r.status_code == 409
    assert "Windows 可执行程序" in r.text and "改扩展名无效" in r.text
    assert not any(site.files.rglob("*.pdf")) if site.files.exists() else True


def test_oversize_and_late_uploads_are_refused_with_the_limit_and_the_regulations_words(
        site: PapersSite) -> None:
    c = site.login("zj")
    big = PDF + bytes(10 * 1024 * 1024)  # seed 002: max_mb = 10 per file
    r = _upload(c, site, big, "big.pdf")
    assert r.status_code == 409
    assert "超过规定的每个文件 10 MB 上限" in r.text
    site.clock.moment = datetime(2025, 4, 18, 17, 1)  # one minute after 4月18日17:00
    r = _upload(c, site, PDF, "late.pdf")
    assert r.status_code == 409
    assert "报名附件已截止上传" in r.text and "各队负责人于4月18日17:00前" in r.text
    assert 'data-state="missing"' in r.text  # the page is shown again, nothing stored


def test_a_leader_cannot_fetch_another_teams_paper_by_its_url(site: PapersSite) -> None:
    js = site.login("js")
    assert _upload(js, site, PDF, "js.pdf", team="江苏队").status_code == 303
    page = js.get(f"/console/events/{site.event_id}/papers").text
    m = re.search(r"/papers/(\d+)/file", page)
    assert m
    zj = site.login("zj")
    for paper in (m.group(1), "9999"):  # another team's paper, and one that does not exist
        r = zj.get(f"/console/events/{site.event_id}/papers/{paper}/file")
        assert r.status_code in (403, 404)
        assert PDF not in r.content
    # nor upload into another team, nor download its entry form
    assert _upload(zj, site, PDF, "x.pdf", team="江苏队").status_code == 403
    assert zj.get(f"/console/events/{site.event_id}/papers/form.xlsx?team={site.teams['江苏队']}").status_code == 403


def test_an_upload_without_the_csrf_token_is_refused(site: PapersSite) -> None:
    c = site.login("zj")
    r = _upload(c, site, PDF, "scan.pdf", token=False)
    assert r.status_code == 403
    assert "CSRF" in r.text
    assert "data-state=\"missing\"" in c.get(f"/console/events/{site.event_id}/papers").text


def test_the_directors_missing_papers_view_lists_every_team(site: PapersSite) -> None:
    assert _upload(site.login("zj"), site, PDF, "scan.pdf").status_code == 303
    d = site.login("director")
    page = d.get(f"/console/events/{site.event_id}/papers?missing=1").text
    sections = re.findall(r'<section class="panel team-papers" data-team="(\d+)">\s*<h3>(\S+)', page)
    assert sorted(name for _, name in sections) == ["上海队", "江苏队", "浙江队"]
    # 浙江队 has its form, still 6 proofs missing; the others miss the form and 6 proofs
    assert "缺6项" in page and page.count("缺7项") == 2
    event_page = d.get(f"/console/events/{site.event_id}").text
    assert f"/console/events/{site.event_id}/papers?missing=1" in event_page
    assert f"/console/events/{site.event_id}/checkin" in event_page


def test_a_referee_ticks_two_players_and_round_one_pairs_only_them(site: PapersSite) -> None:
    ref = site.login("referee")
    base = f"/console/events/{site.event_id}/checkin"
    token = csrf(ref, base)
    for name in ("浙江1号", "江苏2号"):
        r = ref.post(base, data={"csrf": token, "player": site.jia[name], "action": "arrive", "insured": "1"},
                     follow_redirects=False)
        assert r.status_code == 303, r.text
    page = ref.get(base).text
    assert set(re.findall(r'data-player="(\d+)" data-arrived="1"', page)) == {site.jia["浙江1号"], site.jia["江苏2号"]}
    d = site.login("director")
    r = d.post(f"/console/events/{site.event_id}/pair",
               data={"csrf": csrf(d, f"/console/events/{site.event_id}"), "division": "jia", "round": "1"},
               follow_redirects=False)
    assert r.status_code == 303, r.text
    with open_context(Settings(database=str(site.db))) as ctx, \
            ctx.work(actor=Actor.cli("t", Role.CHIEF_REFEREE)) as w:
        view = rounds.round_view(w, str(site.event_id), "jia", 1)
        seated = {g.black for r1 in view.rounds for g in r1.games} | \
                 {g.white for r1 in view.rounds for g in r1.games if g.white}
    assert seated == {site.jia["浙江1号"], site.jia["江苏2号"]}


# ------------------------------------------------------------------ the phone, in a browser

CHROMIUM = "/usr/bin/chromium"


@pytest.mark.skipif(not Path(CHROMIUM).exists() and not os.environ.get("CI"),
                    reason="chromium is installed by scripts/setup.sh")
def test_a_leader_uploads_and_a_referee_ticks_arrivals_on_a_phone(
        template: tuple[Path, int, dict[str, str], dict[str, str]], tmp_path: Path) -> None:
    from tests.web.server import ROOT, Server
    from tests.web.test_browser import ARGS, PHONE, playwright_api

    src, event_id, _teams, jia = template
    db = tmp_path / "phone.sqlite"
    shutil.copy(src, db)
    shots = ROOT / "out" / "screens"
    shots.mkdir(parents=True, exist_ok=True)
    scan = tmp_path / "scan.pdf"
    scan.write_bytes(PDF)

    def login(page: Any, base: str, who: str) -> None:
        page.goto(base + "/console/login")
        page.fill("input[name=login]", who)
        page.fill("input[name=password]", PASSWORD)
        page.click("button[type=submit]")
        page.wait_for_url(base + "/console")

    with playwright_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            with Server(db, now="2025-04-10T09:30:00") as server:  # before the papers deadline
                page = browser.new_context(viewport=PHONE).new_page()
                login(page, server.url, "zj")
                page.goto(f"{server.url}/console/events/{event_id}/papers")
                for slot in ("entry_form", f"identity_proof-{jia['浙江1号']}"):
                    page.set_input_files(f"tr[data-slot='{slot}'] input[type=file]", str(scan))
                    page.click(f"tr[data-slot='{slot}'] button[type=submit]")
                    page.wait_for_selector(f"tr[data-slot='{slot}'][data-state='submitted']")
                page.screenshot(path=str(shots / "papers-leader-phone.png"), full_page=True)
                desk = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
                login(desk, server.url, "director")
                desk.goto(f"{server.url}/console/events/{event_id}/papers?missing=1")
                assert desk.locator("section.team-papers").count() == 3
                desk.screenshot(path=str(shots / "papers-director.png"), full_page=True)
            with Server(db, now="2025-05-01T08:00:00") as server:  # arrival day
                page = browser.new_context(viewport=PHONE).new_page()
                login(page, server.url, "referee")
                page.goto(f"{server.url}/console/events/{event_id}/checkin")
                for name in ("浙江1号", "上海2号"):
                    page.click(f"#p{jia[name]} button.tick")
                    page.wait_for_selector(f"#p{jia[name]}[data-arrived='1']")
                assert page.locator("li[data-arrived='1']").count() == 2
                assert "08:00" in page.locator(f"#p{jia['浙江1号']}").inner_text()
                width = page.evaluate("document.documentElement.scrollWidth")
                assert width <= PHONE["width"]  # no sideways scrolling on a phone
                page.screenshot(path=str(shots / "checkin-phone.png"), full_page=True)
        finally:
            browser.close()


def test_after_the_deadline_only_the_chief_referee_uploads_a_paper_with_the_reason(site: PapersSite) -> None:
    """Issue 43 item 5: the web form has the chief referee's late path (`papers upload --force
    --note`); a leader and a referee get a notice, not an upload field, and are refused if they post."""
    site.clock.moment = datetime(2025, 4, 18, 17, 1)  # one minute after 4月18日17:00
    base = f"/console/events/{site.event_id}/papers"
    leader = site.login("zj")
    page = leader.get(base).text
    assert "报名附件已截止上传" in page and "请联系裁判长" in page and 'type="file"' not in page
    director = site.login("director")
    page = director.get(base).text
    assert 'name="force"' in page and 'name="note"' in page and 'type="file"' in page
    late = {"team": site.teams["浙江队"], "kind": "entry_form", "force": "1", "note": "邮寄延误, 裁判长同意补交"}
    for who in ("zj", "referee"):
        c = site.login(who)
        r = c.post(base + "/upload", data={**late, "csrf": csrf(c, base)},
                   files={"file": ("form.pdf", PDF, "application/pdf")}, follow_redirects=False)
        assert r.status_code == 403, r.text
    r = director.post(base + "/upload", data={**late, "force": "", "csrf": csrf(director, base)},
                      files={"file": ("form.pdf", PDF, "application/pdf")}, follow_redirects=False)
    assert r.status_code == 409 and "报名附件已截止上传" in r.text
    r = director.post(base + "/upload", data={**late, "note": "", "csrf": csrf(director, base)},
                      files={"file": ("form.pdf", PDF, "application/pdf")}, follow_redirects=False)
    assert r.status_code == 400 and "截止后补交须写明理由" in r.text
    r = director.post(base + "/upload", data={**late, "csrf": csrf(director, base)},
                      files={"file": ("form.pdf", PDF, "application/pdf")}, follow_redirects=False)
    assert r.status_code == 303, r.text
    assert 'data-slot="entry_form" data-state="submitted"' in director.get(base).text
    with open_context(Settings(database=str(site.db))) as ctx, ctx.work(actor=Actor.system()) as work:
        notes = [r.note for r in audit_rows.audit_log(work.session, site.event_id, "paper")]
    assert notes == ["邮寄延误, 裁判长同意补交"]
