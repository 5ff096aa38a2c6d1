"""Alipay in a real browser (Debian's chromium) against the real `yisai serve` configured by
YISAI_ALIPAY_* (keys generated for the test) and the local Alipay gateway: a team leader pays his
team's fees by 电脑网站支付, follows the link to the cashier, Alipay's notification books it, and
the order page shows it paid. Screenshots (1280 px and 390 px) go to out/screens/ for review."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import httpx
import pytest

from tests.payments.alipay_gateway import AlipayGateway, Keys
from tests.services.fee_event import NOW, fee_event
from tests.web.server import Server
from tests.web.test_browser import (
    ARGS,
    CHROMIUM,
    DESKTOP,
    PHONE,
    _shot,
    browser,
    playwright_api,
    pytestmark,
)
from yisai.services.accounts import create_user
from yisai.services.context import open_context
from yisai.services.identity import Actor, Role
from yisai.services.settings import Settings
from yisai.store import team_rows

__all__ = ["ARGS", "CHROMIUM", "browser", "playwright_api", "pytestmark"]

PASSWORD = "liaoning-password"


def test_a_team_leader_pays_by_alipay_in_the_browser(browser: Any, tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "fees.sqlite"
    with open_context(Settings(database=str(db), clock=lambda: NOW, actor=Actor.cli("裁判长", Role.CHIEF_REFEREE))) as ctx:
        event = fee_event(ctx, tmp_path)
        with ctx.work() as w:
            team = next(t for t in team_rows.list_teams(w.session, event.id) if t.name == "辽宁队")
        with ctx.work(actor=Actor.system()) as w:
            create_user(w, "ln", "辽宁领队", Role.TEAM_LEADER, PASSWORD, event_id=event.id, team_id=int(team.id))
    keys = Keys()
    with AlipayGateway(keys) as gateway:
        notify = "https://yisai.example/pay/alipay/notify"  # the public address; the test posts to the server itself
        for key, value in keys.environment(tmp_path, gateway.url, notify).items():
            monkeypatch.setenv(key, value)
        with Server(db, now=NOW.isoformat()) as server:
            fees_url = f"{server.url}/console/events/{event.id}/fees"
            leader = browser.new_context(viewport=DESKTOP, locale="zh-CN")
            page = leader.new_page()
            page.goto(server.url + "/console/login")
            page.fill("input[name=login]", "ln")
            page.fill("input[name=password]", PASSWORD)
            page.click("button[type=submit]")
            page.wait_for_url(server.url + "/console")
            page.goto(fees_url)
            form = page.locator(f"form[action$='/fees/pay/team/{team.id}']")
            assert "支付宝" in form.inner_text()
            form.locator("select[name=mode]").select_option("page")
            form.locator("button").click()
            page.wait_for_selector("a.button")
            assert "2160.00" in page.inner_text("main")  # 600 + 6 × 260 元
            order_url = page.url
            _shot(page, "fees-alipay-order-desktop")
            page.set_viewport_size(PHONE)
            _shot(page, "fees-alipay-order-phone")
            page.click("a.button")  # to Alipay's cashier (the local gateway), with the signed order
            page.wait_for_selector("text=支付宝收银台")
            (trade_no,) = gateway.trades
            gateway.pay(trade_no)
            body = urlencode(gateway.notification(trade_no))
            r = httpx.post(server.url + "/pay/alipay/notify", content=body, timeout=30,
                           headers={"Content-Type": "application/x-www-form-urlencoded; charset=utf-8"})
            assert (r.status_code, r.text) == (200, "success")
            page.goto(order_url)  # back from the cashier: the notification has booked it
            page.wait_for_selector("p.ok")
            assert "已支付" in page.inner_text("main") and gateway.refused == []
            _shot(page, "fees-alipay-paid-phone")
            leader.close()
