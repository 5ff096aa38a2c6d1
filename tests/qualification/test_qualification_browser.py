"""In a real browser (Debian's chromium through Playwright) against the real server: a qualified
player confirms through the web form; the chief referee annuls a game in the fair-play queue and
the public qualification list shows the amendment. Screenshots go to out/screens/."""

from __future__ import annotations

import os
from collections.abc import Iterator
from datetime import date, datetime
from pathlib import Path

import pytest

from tests.conftest import REGULATIONS
from tests.qualification.conftest import fields
from tests.web.server import ROOT, Server
from yisai.game.board import WHITE
from yisai.live.session import Kind
from yisai.services import live
from yisai.services import qualification as q
from yisai.services.accounts import create_user
from yisai.services.context import open_context
from yisai.services.events import create_event
from yisai.services.identity import Actor, Role
from yisai.services.settings import Settings
from yisai.services.simulation import SimClock, epoch
from yisai.store import live_rows

playwright_api = pytest.importorskip("playwright.sync_api") if not os.environ.get("CI") else __import__(
    "playwright.sync_api", fromlist=["sync_playwright"])
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"]
SCREENS = ROOT / "out" / "screens"
PASSWORD = "qualify-pw"

pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists() and not os.environ.get("CI"),
                                reason="chromium is installed by scripts/setup.sh")


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    with playwright_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


def _build(db: Path) -> tuple[int, str, int]:
    """Seed 000's event; period 1 played by hand (the player account wins twice, X1–X3 share
    place 38) and closed. Returns the event, the player's live id and X1's game."""
    clock = SimClock(datetime(2025, 5, 10, 12, 0))
    with open_context(Settings(database=str(db), clock=clock), actor=Actor.system()) as ctx:
        with ctx.work() as work:
            event = create_event(work, REGULATIONS / "2025-shanhai-cup.toml")
            create_user(work, "director", "裁判长甲", Role.CHIEF_REFEREE, PASSWORD)
            me = create_user(work, "player1", "棋手甲", Role.PLAYER, PASSWORD, phone="13900001111")
            cfg = live.live_config(work, None)
        winners = [str(me.id)] + [f"T{i:02d}" for i in range(2, 38)]
        t = epoch(clock.now)
        k = 0
        x1_game = 0
        for pid, times in [(w, 2) for w in winners] + [(x, 1) for x in ("X1", "X2", "X3")]:
            for _ in range(times):
                with ctx.work() as work:
                    name = "棋手甲" if pid == str(me.id) else pid
                    info, game = live.start_game(work, cfg, period=1, pool="open", black=(pid, name),
                                                 white=(f"L{k % 40:02d}", f"L{k % 40:02d}"), start=t + k)
                    game.act(WHITE, Kind.RESIGN, game.version, t + k + 60)
                    live.finish_game(work, cfg, info.id, game)
                x1_game = info.id if pid == "X1" else x1_game
                k += 1
        clock.now = datetime(2025, 5, 26, 0, 0)
        with ctx.work() as work:
            q.close_period(work, None, 1)
        with ctx.work() as work:
            assert live_rows.get_game(work.session, x1_game).black == "X1"
        return event.id, str(me.id), x1_game


def _login(page, base: str, who: str) -> None:  # type: ignore[no-untyped-def]
    page.goto(base + "/console/login")
    page.fill("input[name=login]", who)
    page.fill("input[name=password]", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url(base + "/console")


def _shot(page, name: str) -> None:  # type: ignore[no-untyped-def]
    SCREENS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENS / f"{name}.png"), full_page=True)


def test_confirm_in_the_form_and_annulment_shown_publicly(browser, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    db = tmp_path / "q.sqlite"
    event_id, _, x1_game = _build(db)
    details = fields("张三", date(1990, 3, 1), 1)
    with Server(db, now="2025-06-10T23:59") as server:  # the last working day, a minute before 24:00
        player = browser.new_context(viewport={"width": 390, "height": 844}, locale="zh-CN")
        page = player.new_page()
        _login(page, server.url, "player1")
        page.goto(f"{server.url}/qualification/{event_id}")
        assert "2025-06-10 24:00" in page.inner_text(".deadline")
        assert page.input_value("input[name=name]") == "棋手甲"  # prefilled from the account
        assert page.input_value("input[name=phone]") == "13900001111"
        page.fill("input[name=name]", details["name"])
        page.fill("input[name=id_number]", details["id_number"])
        page.fill("input[name=rank]", "5段")
        page.click("form.stack button[type=submit]")  # no certificate number: refused with the reason
        assert "证书" in page.inner_text(".reasons")
        page.fill("input[name=certificate_no]", details["certificate_no"])
        page.click("form.stack button[type=submit]")
        page.wait_for_selector(".flash.ok")
        assert "已确认" in page.inner_text(".status")
        _shot(page, "qualification-confirmed-phone")

        ref = browser.new_context(viewport={"width": 1280, "height": 900}, locale="zh-CN").new_page()
        _login(ref, server.url, "director")
        ref.goto(f"{server.url}/console/events/{event_id}/fairplay")
        row = ref.locator(f"#game-{x1_game}")
        row.locator("summary").click()
        row.locator("select[name=decision]").select_option("annul")
        row.locator("input[name=reason]").fill("经查使用AI软件")
        row.locator("button[type=submit]").click()
        ref.wait_for_selector(".flash.ok")
        assert "晋级名单已更正" in ref.inner_text(".flash.ok")
        _shot(ref, "qualification-fairplay")

        public = browser.new_context(locale="zh-CN").new_page()
        public.goto(f"{server.url}/events/{event_id}/qualification")
        section = public.inner_text("#p1-open")
        assert "已更正" in section and "经查使用AI软件" in section
        assert "X1" not in section  # the annulled game was X1's only one
        assert "并列第38名，一同晋级" in section  # X2, X3 still share place 38
        assert details["id_number"] not in public.content() and "13900001111" not in public.content()
        _shot(public, "qualification-public-amended")
