"""Issue 46 item 4 in a real browser (Debian's chromium) against the real `yisai serve` configured
for WeChat Pay (keys generated for the test) and the local WeChat Pay server: a qualified player
signs in, completes the final's details, pays the 260元 fee by Native QR code in one flow, and sees
the place 已确认 and 已缴费. Screenshots (1280 px and 390 px) go to out/screens/ for review."""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.payments.wechat_server import Keys, WeChatPayServer
from tests.qualification.conftest import build_site_db, fields
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

__all__ = ["ARGS", "CHROMIUM", "browser", "playwright_api", "pytestmark"]

PASSWORD = "qualify-pw"
PHONE_UA = ("Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
            "Chrome/126.0 Mobile Safari/537.36")


def _login(page: Any, base: str, who: str) -> None:
    page.goto(base + "/console/login")
    page.fill("input[name=login]", who)
    page.fill("input[name=password]", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url(base + "/console")


def test_a_qualifier_completes_the_details_and_pays_the_final_fee_by_qr(browser: Any, tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    db = tmp_path / "q.sqlite"
    event_id, _, _ = build_site_db(db, PASSWORD)  # period 1 closed 2025-05-26: deadline 2025-06-10
    details = fields("张三", date(1990, 3, 1), 1)
    keys = Keys()
    with WeChatPayServer(keys) as pay:
        for key, value in keys.environment(tmp_path, pay.gateway).items():
            monkeypatch.setenv(key, value)
        with Server(db, now="2025-06-10T21:00") as server:  # the last working day
            mine = f"{server.url}/qualification/{event_id}"
            player = browser.new_context(viewport=PHONE, locale="zh-CN", user_agent=PHONE_UA)
            page = player.new_page()
            _login(page, server.url, "player1")
            page.goto(mine)
            assert "2025-06-10 24:00" in page.inner_text(".deadline")
            assert page.inner_text(".due") == "260.00 元"  # seed 000: 线下赛赛事服务费 260元
            assert page.inner_text(".status") == "待完善信息"
            page.fill("input[name=name]", details["name"])
            page.fill("input[name=id_number]", details["id_number"])
            page.fill("input[name=certificate_no]", details["certificate_no"])
            page.fill("input[name=rank]", "5段")
            form = page.locator("form.stack")
            assert form.locator("select[name=via]").input_value() == "wechat:h5"  # a phone's link comes first
            _shot(page, "place-pay-form-phone")
            page.set_viewport_size(DESKTOP)  # the player moves to a PC: the QR code
            form.locator("select[name=via]").select_option("wechat:native")
            form.locator("button[type=submit]").click()
            page.wait_for_selector("figure.qr svg")
            assert "260.00" in page.inner_text("main")
            _shot(page, "place-order-qr-desktop")
            (trade_no,) = pay.orders
            assert pay.orders[trade_no]["total"] == 26_000 and pay.refused == []
            assert pay.orders[trade_no]["time_expire"] == "2025-06-10T21:30:00+08:00"

            page.goto(mine)  # before the money: 待缴费, and the way back to the open order
            assert page.inner_text(".status") == "待缴费"
            assert page.locator(f"a[href$='/orders/{trade_no}']").count() == 1
            assert page.locator("form.pay select[name=via]").count() == 1  # 去缴费: a new order, until the deadline
            _shot(page, "place-unpaid-desktop")
            page.goto(f"{mine}/orders/{trade_no}")

            pay.pay(trade_no)  # the player scans and pays; WeChat Pay calls the site back
            headers, body = pay.notification(trade_no)
            r = httpx.post(server.url + "/pay/wechat/notify", content=body, headers=headers, timeout=30)
            assert r.status_code == 204, r.text
            page.click("text=我已支付, 查询结果")
            page.wait_for_selector("p.ok")
            assert "已支付" in page.inner_text("main")
            page.click("text=返回我的总决赛资格")
            page.wait_for_url(mine)
            assert page.inner_text(".status") == "已确认"
            assert page.inner_text(".paid") == "已缴费 260.00 元"
            assert page.locator("form.pay").count() == 0  # nothing left to pay
            _shot(page, "place-paid-desktop")
            page.set_viewport_size(PHONE)
            _shot(page, "place-paid-phone")
            player.close()

            other = browser.new_context(viewport=DESKTOP, locale="zh-CN").new_page()
            _login(other, server.url, "director")
            other.goto(f"{server.url}/console/events/{event_id}/fees")
            row = other.locator("table.fees tr", has_text="张三")
            assert "晋级名额" in row.inner_text()  # the place's line, held until the final's entries are made
            assert row.locator("td.num").all_inner_texts() == ["260.00", "260.00", "0.00", "0.00"]  # due paid refunded owed
            _shot(other, "place-fees-director-desktop")
