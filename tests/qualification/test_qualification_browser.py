"""In a real browser (Debian's chromium through Playwright) against the real server: a qualified
player confirms through the web form; the chief referee annuls a game in the fair-play queue and
the public qualification list shows the amendment. Screenshots go to out/screens/."""

from __future__ import annotations

import os
from datetime import date
from pathlib import Path

import pytest

from tests.qualification.conftest import build_site_db, fields
from tests.web.server import Server
from tests.web.test_browser import CHROMIUM, _shot, browser

PASSWORD = "qualify-pw"
pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists() and not os.environ.get("CI"),
                                reason="chromium is installed by scripts/setup.sh")
__all__ = ["browser"]  # the shared browser fixture of tests/web/test_browser.py


def _login(page, base: str, who: str) -> None:  # type: ignore[no-untyped-def]
    page.goto(base + "/console/login")
    page.fill("input[name=login]", who)
    page.fill("input[name=password]", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url(base + "/console")


def test_confirm_in_the_form_and_annulment_shown_publicly(browser, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    db = tmp_path / "q.sqlite"
    event_id, _, x1_game = build_site_db(db, PASSWORD)
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
        ref.goto(f"{server.url}/console/events/{event_id}/qualification")
        assert "已确认 1" in ref.inner_text("main")
        _shot(ref, "qualification-console")
        ref.goto(f"{server.url}/console/events/{event_id}/operations")
        assert ref.locator("svg.chart").count() == 3
        _shot(ref, "qualification-operations")

        public = browser.new_context(locale="zh-CN").new_page()
        public.goto(f"{server.url}/events/{event_id}/qualification")
        section = public.inner_text("#p1-open")
        assert "已更正" in section and "经查使用AI软件" in section
        assert "X1" not in section  # the annulled game was X1's only one
        assert "并列第38名，一同晋级" in section  # X2, X3 still share place 38
        assert details["id_number"] not in public.content() and "13900001111" not in public.content()
        _shot(public, "qualification-public-amended")
