"""The platform in a real browser (Debian's chromium through Playwright) against the real server.

A director creates seed 002's event from its regulation file, uploads a roster, approves the
pending entry, pairs round 1, publishes, enters every result in the keyboard grid; a public
standings page open in a second browser context shows the new order without a reload. A team
leader registers a province team before the deadline and finds the page closed after it. Screenshots of the
main pages (desktop and phone) are written to out/screens/ for review.
"""

from __future__ import annotations

import csv
import os
from collections.abc import Iterator
from datetime import date, datetime
from pathlib import Path

import pytest

from tests.web.conftest import PASSWORDS, ROLES, SEED_002, XSS, id_number
from tests.web.server import ROOT, Server
from yisai.services.accounts import create_user
from yisai.services.context import open_context
from yisai.services.events import create_event
from yisai.services.identity import Actor, Role
from yisai.services.settings import Settings

playwright_api = pytest.importorskip("playwright.sync_api") if not os.environ.get("CI") else __import__(
    "playwright.sync_api", fromlist=["sync_playwright"])
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]
SCREENS = ROOT / "out" / "screens"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}

pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists() and not os.environ.get("CI"),
                                reason="chromium is installed by scripts/setup.sh")


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    with playwright_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


def _accounts(db: Path, event_id: int | None = None) -> None:
    with open_context(Settings(database=str(db))) as ctx, ctx.work(actor=Actor.system()) as work:
        for login, role in ROLES.items():
            create_user(work, login, f"演示{login}", role, PASSWORDS[login],
                        event_id=event_id if role is Role.TEAM_LEADER else None)


def _login(page, base: str, who: str) -> None:  # type: ignore[no-untyped-def]
    page.goto(base + "/console/login")
    page.fill("input[name=login]", who)
    page.fill("input[name=password]", PASSWORDS[who])
    page.click("button[type=submit]")
    page.wait_for_url(base + "/console")


def _shot(page, name: str) -> None:  # type: ignore[no-untyped-def]
    SCREENS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENS / f"{name}.png"), full_page=True)


def _roster(path: Path) -> Path:
    rows = [["姓名", "性别", "出生日期", "身份证号", "段位", "证书编号", "地区", "省份", "组别"]]
    for i in range(8):
        born = date(2013, 1 + i, 5)
        gender = "男" if i % 2 == 0 else "女"
        name = XSS if i == 6 else f"选手{i + 1}"
        rows.append([name, gender, born.isoformat(), id_number(born, 11 + 2 * i + (0 if gender == "男" else 1)),
                     f"{1 + i % 5}段", "" if i == 7 else f"C{i}", "中国大陆", "浙江", "甲组"])
    with path.open("w", encoding="utf-8", newline="") as f:
        csv.writer(f).writerows(rows)
    return path


def test_director_runs_round_one_and_the_public_page_follows(browser, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    db = tmp_path / "b.sqlite"
    with open_context(Settings(database=str(db))):
        pass
    _accounts(db)
    with Server(db, now="2025-04-10T09:00") as server:
        base = server.url
        director = browser.new_context(viewport=DESKTOP)
        page = director.new_page()
        dialogs: list[str] = []
        page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
        _login(page, base, "director")
        page.set_input_files("input[name=regulation]", str(SEED_002))
        page.click("form[action='/console/events'] button")
        page.wait_for_url(f"{base}/console/events/1*")
        _shot(page, "console-event")
        page.click("text=报名审核")
        page.set_input_files("input[name=roster]", str(_roster(tmp_path / "roster.csv")))
        page.click("form[action$='/roster'] button")
        page.wait_for_selector("p.ok")
        assert "导入8行" in page.inner_text("p.ok")
        # 选手8 has no certificate number: pending with the reason shown; the director forces it
        row = page.locator("tr", has_text="选手8")
        assert "证书" in row.inner_text()
        row.locator("input[name=note]").fill("证书已补交")
        row.locator("select[name=decision]").select_option("force")
        row.locator("button").click()
        page.wait_for_selector("p.ok")
        assert "已通过" in page.locator("tr", has_text="选手8").inner_text()
        _shot(page, "console-entries")
        page.goto(f"{base}/console/events/1")
        page.select_option("select[name=division]", "jia")
        page.fill("input[name=round]", "1")
        page.click("form[action$='/pair'] button")
        page.wait_for_url(f"{base}/console/events/1/rounds/jia/1*")
        page.click("#publish")
        page.wait_for_selector("text=已公布")
        # the public standings page, in another browser context, before any result
        public = browser.new_context(viewport=PHONE).new_page()
        public.goto(f"{base}/events/1/standings/jia?ranking=mixed")  # the whole field (the page opens on 甲组男子)
        public.evaluate("window.__noReload = 1")
        scores = "rows => rows.map(r => r.children[6].innerText)"  # 名次 姓名 性别 单位 段位 总得分 积分
        assert set(public.eval_on_selector_all("#standings tbody tr", scores)) == {"0"}
        _shot(public, "public-standings-before-phone")
        # keyboard grid: "2" (White wins) + Enter on every board; the cursor moves by itself
        boards = page.locator("table.grid input.res")
        n = boards.count()
        assert n == 4
        boards.nth(0).click()
        for k in range(n):
            page.keyboard.type("2")
            page.keyboard.press("Enter")
            page.wait_for_function(f"document.querySelectorAll('table.grid td.state.ok').length >= {k + 1}")
        _shot(page, "console-grid")
        whites = page.eval_on_selector_all(
            "table.grid tbody tr", "rows => rows.map(r => r.children[2].innerText.split(' ')[0])")
        # the poll may first swap in a table rendered while results were still coming in: wait
        # for the one with every board's result (4 winners), not for the first swap
        public.wait_for_function(
            "document.querySelector('#standings').getAttribute('data-updated') !== null && "
            "[...document.querySelectorAll('#standings tbody tr')]"
            ".filter(r => r.children[6].innerText === '2').length === 4", timeout=30000)
        assert public.evaluate("window.__noReload") == 1  # same document: no reload happened
        top = public.inner_text("#standings tbody tr:first-child td:nth-child(2)")
        assert top in whites  # after a round White won everywhere, a White player leads
        after = public.eval_on_selector_all("#standings tbody tr", scores)
        assert after == ["2"] * 4 + ["0"] * 4  # winners (2 points, 规程: 胜2分) above losers
        _shot(public, "public-standings-after-phone")
        # names are text: the XSS player shows literally, no script ran
        public.goto(f"{base}/events/1/entries")
        assert public.locator("td", has_text=XSS).count() == 1
        assert dialogs == []
        _shot(public, "public-entries-phone")
        public.goto(f"{base}/events/1/rounds/jia/1")
        _shot(public, "public-round-phone")
        page.goto(f"{base}/events/1")
        _shot(page, "public-event-desktop")
        page.goto(f"{base}/events/1/standings/jia")
        _shot(page, "public-standings-desktop")
        # a referee's forbidden action by URL, and a POST without CSRF token, are refused
        referee = browser.new_context().new_page()
        _login(referee, base, "referee")
        referee.goto(f"{base}/console/events/1")
        status = referee.evaluate("""async () => {
            const csrf = document.querySelector("input[name=csrf]").value;
            const f = new FormData(); f.append("csrf", csrf); f.append("division", "jia"); f.append("round", "2");
            const forbidden = (await fetch("/console/events/1/pair", {method: "POST", body: f})).status;
            const g = new FormData(); g.append("division", "jia"); g.append("round", "2");
            const nocsrf = (await fetch("/console/events/1/pair", {method: "POST", body: g})).status;
            return [forbidden, nocsrf]; }""")
        assert status == [403, 403]


def test_team_leader_registers_before_the_deadline_and_is_refused_after(browser, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    db = tmp_path / "t.sqlite"
    with open_context(Settings(database=str(db), clock=lambda: datetime(2025, 4, 1, 9, 0))) as ctx, \
            ctx.work(actor=Actor.cli("t", Role.CHIEF_REFEREE)) as work:
        create_event(work, SEED_002, seed=3)
    _accounts(db, event_id=1)
    births = [date(2013, 3, 1), date(2014, 4, 2), date(2015, 5, 3), date(2016, 6, 4), date(2018, 7, 5),
              date(2019, 8, 6)]
    genders = ["M", "F", "M", "F", "M", "F"]
    with Server(db, now="2025-04-18T16:30") as server:
        page = browser.new_context(viewport=DESKTOP).new_page()
        _login(page, server.url, "leader")
        page.goto(f"{server.url}/console/events/1/register")
        page.fill("input[name=team]", "江苏队")
        page.fill("input[name=province]", "江苏")
        page.fill("input[name=leader]", "王领队")
        page.fill("input[name=coach]", "李教练")
        for k, born in enumerate(births):
            # the 乙组 boy is first typed with a 甲组 birth date: the row says why before submitting
            typed = date(2013, 1, 5) if k == 2 else born
            page.fill(f"input[name=m{k}_name]", f"江苏{k + 1}号")
            page.fill(f"input[name=m{k}_birth]", typed.isoformat())
            page.fill(f"input[name=m{k}_id]", id_number(born, 201 + 2 * k + (0 if genders[k] == "M" else 1)))
            page.fill(f"input[name=m{k}_rank]", "1段")
            page.fill(f"input[name=m{k}_cert]", f"Z-{k}")
            page.fill(f"input[name=m{k}_province]", "江苏")
        row = page.locator("tr[data-prefix=m2_] td.state")
        page.wait_for_function("document.querySelector('tr[data-prefix=m2_] td.state').textContent.includes('2015')")
        _shot(page, "register-checked-as-typed")
        page.fill("input[name=m2_birth]", births[2].isoformat())
        page.wait_for_function("document.querySelector('tr[data-prefix=m2_] td.state').textContent === '✓'")
        assert row.inner_text() == "✓"
        page.click("#teamform button[type=submit]")
        page.wait_for_selector("p.ok")
        assert "江苏队" in page.inner_text("p.ok")
        phone = browser.new_context(viewport=PHONE).new_page()
        _login(phone, server.url, "leader")
        phone.goto(f"{server.url}/console/events/1/register")
        _shot(phone, "register-phone")
    with Server(db, now="2025-04-18T17:01") as server:
        page = browser.new_context(viewport=DESKTOP).new_page()
        _login(page, server.url, "leader")
        page.goto(f"{server.url}/console/events/1/register")
        text = page.inner_text("main")
        assert "报名已截止" in text and "2025-04-18 17:00" in text
        # issue 43: no form that would only be refused; the leader is told who admits a late team
        assert page.locator("#teamform").count() == 0 and "只有裁判长可以逾期报名" in text
        _shot(page, "register-refused")
