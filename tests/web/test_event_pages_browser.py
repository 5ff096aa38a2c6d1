"""Issue 22 items 3, 4 and 6 in a real browser (Debian's chromium through Playwright) against
the real server: a province team with two empty slots registers; the standings page's ranking
tabs (男子 / 女子 / 混合) work without JavaScript, on a phone too; round 10's boards and the
final standings of seed 000 say who plays for which places and why a place was given.
Screenshots (desktop and 390×844) go to /tmp/eventweb-shots/ for review."""

from __future__ import annotations

import re
from datetime import date, datetime
from pathlib import Path

from tests.services.test_final_order import final  # noqa: F401  (the fixture)
from tests.web.conftest import NOW, SEED_002, Clock, id_number
from tests.web.server import Server
from tests.web.test_browser import (  # noqa: F401  (browser: the fixture)
    DESKTOP,
    PHONE,
    _accounts,
    _login,
    browser,
    pytestmark,
)
from tests.web.test_rankings import _field
from yisai.services.context import Context, open_context
from yisai.services.events import create_event
from yisai.services.identity import Actor, Role
from yisai.services.publishing import publish_round
from yisai.services.settings import Settings

SHOTS = Path("/tmp/eventweb-shots")



def _shot(page, name: str) -> None:  # type: ignore[no-untyped-def]
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def test_a_team_with_two_empty_slots_registers(browser, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    db = tmp_path / "t.sqlite"
    with open_context(Settings(database=str(db), clock=lambda: datetime(2025, 4, 1, 9, 0))) as ctx, \
            ctx.work(actor=Actor.cli("t", Role.CHIEF_REFEREE)) as work:
        create_event(work, SEED_002, seed=3)
    _accounts(db, event_id=1)
    # slots 0 甲组男, 3 乙组女, 4 丙组男, 5 丙组女 typed; 1 甲组女 and 2 乙组男 left empty
    typed = {0: ("江苏1号", date(2013, 3, 1), "M"), 3: ("江苏4号", date(2016, 6, 4), "F"),
             4: ("江苏5号", date(2018, 7, 5), "M"), 5: ("江苏6号", date(2019, 8, 6), "F")}
    with Server(db, now="2025-04-10T10:00") as server:
        def form(page) -> None:  # type: ignore[no-untyped-def]
            page.goto(f"{server.url}/console/events/1/register")
            page.fill("input[name=team]", "江苏队")
            page.fill("input[name=province]", "江苏")
            for k, (name, born, g) in typed.items():
                page.fill(f"input[name=m{k}_name]", name)
                page.fill(f"input[name=m{k}_birth]", born.isoformat())
                page.fill(f"input[name=m{k}_id]", id_number(born, 201 + 2 * k + (0 if g == "M" else 1)))
                page.fill(f"input[name=m{k}_rank]", "1段")
                page.fill(f"input[name=m{k}_cert]", f"Z-{k}")
                page.fill(f"input[name=m{k}_province]", "江苏")

        phone = browser.new_context(viewport=PHONE).new_page()
        _login(phone, server.url, "leader")
        form(phone)
        _shot(phone, "register-four-of-six-phone")
        page = browser.new_context(viewport=DESKTOP).new_page()
        _login(page, server.url, "leader")
        form(page)
        # a birth date alone in the 乙组男 row: the row and the refusal name the slot and the field
        page.fill("input[name=m2_birth]", "2015-05-03")
        page.wait_for_function(
            "document.querySelector('tr[data-prefix=m2_] td.state').textContent.includes('姓名')")
        _shot(page, "register-partial-row-desktop")
        page.click("#teamform button[type=submit]")
        page.wait_for_selector("p.error")
        text = page.inner_text("main")
        assert "第3名队员(乙组男): 姓名: 姓名不能为空" in text and "表头" not in text
        _shot(page, "register-partial-refused-desktop")
        form(page)
        page.click("#teamform button[type=submit]")
        page.wait_for_selector("p.ok")
        assert "江苏队" in page.inner_text("p.ok") and "4名队员" in page.inner_text("p.ok")
        _shot(page, "register-four-of-six-done-desktop")
        entries = browser.new_context(viewport=DESKTOP).new_page()
        entries.goto(f"{server.url}/events/1/entries")
        text = entries.inner_text("main")
        assert all(n in text for n, _b, _g in typed.values())


def test_ranking_tabs_work_without_javascript(browser, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    from tests.web.conftest import build

    db = tmp_path / "r.sqlite"
    build(str(db))
    event_id = _field(str(db), Clock(NOW))
    with Server(db) as server:
        url = f"{server.url}/events/{event_id}/standings/jia"
        for viewport, suffix in ((DESKTOP, "desktop"), (PHONE, "phone")):
            page = browser.new_context(viewport=viewport, java_script_enabled=False).new_page()
            page.goto(url)
            assert page.inner_text("nav.tabs a[aria-current=page]") == "甲组男子"  # 男女分别录取
            _shot(page, f"standings-boys-{suffix}")
            page.click("text=甲组女子")
            page.wait_for_url(re.compile(r".*ranking=girls$"))
            rows = page.eval_on_selector_all("#standings tbody tr", "rs => rs.map(r => r.innerText.split('\\t').slice(0, 3))")
            assert rows == [["1", "女一", "女"], ["2", "女二", "女"]]
            _shot(page, f"standings-girls-{suffix}")
            page.click("#standings tbody tr:nth-child(2) a")  # 为何 for 女二, still in the girls' list
            # by hand: 总得分 女一 6 + (4 + 2 + 0) = 12, 女二 2 + (6 + 4 + 0) = 12; then 积分 6 against 2
            assert "总得分都相同, 由积分决定: 2 对 6 (高者列前)" in page.inner_text(".explain")
            _shot(page, f"standings-girls-why-{suffix}")


def test_round_ten_and_the_final_standings(browser, final: tuple[Context, int]) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    ctx, event_id = final
    with ctx.work() as w:
        for n in range(1, 11):
            publish_round(w, str(event_id), "open", n)
    _accounts(Path(ctx.settings.database))
    with Server(Path(ctx.settings.database)) as server:
        console = browser.new_context(viewport=DESKTOP).new_page()
        _login(console, server.url, "director")
        console.goto(f"{server.url}/console/events/{event_id}/rounds/open/10")
        assert "A组第1名 — B组第1名 (争第1–2名)" in console.inner_text("tr[data-board='1'] td:first-child")
        _shot(console, "final-round10-console-desktop")
        for viewport, suffix in ((DESKTOP, "desktop"), (PHONE, "phone")):
            page = browser.new_context(viewport=viewport).new_page()
            page.goto(f"{server.url}/events/{event_id}/rounds/open/10")
            first = page.inner_text("table.pairings tr.matchup td")
            assert first == "A组第1名 — B组第1名 (争第1–2名)"
            _shot(page, f"final-round10-{suffix}")
            page.goto(f"{server.url}/events/{event_id}/standings/open")
            assert page.inner_text("#standings thead th:nth-child(6)") == "分组"
            _shot(page, f"final-standings-{suffix}")
            page.click("#standings tbody tr:first-child a")
            assert re.search(r"同名次决赛 [AB]组第1名胜[AB]组第1名, 获第1名", page.inner_text(".explain"))
            _shot(page, f"final-why-first-{suffix}")
            page.click("#standings tbody tr:nth-child(33) a")
            assert "同名次决赛只决定第1–32名" in page.inner_text(".explain")
            _shot(page, f"final-why-33-{suffix}")
