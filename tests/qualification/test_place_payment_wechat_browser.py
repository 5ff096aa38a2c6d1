"""The qualifier's confirm-and-pay inside WeChat's own browser (WeChat Pay JSAPI), in Debian's
chromium with WeChat's User-Agent against the real `yisai serve`: the player completes the final's
details and taps 提交信息并缴费 with 微信内支付 (offered first, H5 not at all); the details are kept
(待缴费) while WeChat's silent authorisation (the local server) tells the site who pays; the order
page hands the server-signed call to ``WeixinJSBridge`` (an injected object standing for the WeChat
client, which passes it to the local server's bridge endpoint: paySign checked with the merchant's
public key, the order paid, the signed callback posted); the place is 已确认 and 已缴费 260.00 元.
Screenshots at 390 px go to out/screens/."""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Any

import pytest

from tests.payments.wechat_server import PAYER_OPENID, Keys, WeChatPayServer
from tests.qualification.conftest import build_site_db, fields
from tests.web import server as served
from tests.web.server import Server, free_port
from tests.web.test_browser import ARGS, CHROMIUM, _shot, browser, playwright_api, pytestmark
from tests.web.test_wechat_jsapi_browser import WAIT, wechat_phone

__all__ = ["ARGS", "CHROMIUM", "browser", "playwright_api", "pytestmark"]

PASSWORD = "qualify-pw"


def test_a_qualifier_confirms_and_pays_inside_wechat(browser: Any, tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "q.sqlite"
    event_id, _, _ = build_site_db(db, PASSWORD)  # period 1 closed 2025-05-26: deadline 2025-06-10
    details = fields("张三", date(1990, 3, 1), 1)
    keys = Keys()
    with WeChatPayServer(keys) as pay:
        for key, value in keys.environment(tmp_path, pay.gateway, jsapi=True).items():
            monkeypatch.setenv(key, value)
        port = free_port()  # WeChat sends the payer back to the site's public address only
        monkeypatch.setattr(served, "free_port", lambda: port)
        monkeypatch.setenv("YISAI_PUBLIC_URL", f"http://127.0.0.1:{port}")
        with Server(db, now="2025-06-10T21:00") as server:
            pay.oauth_domain = f"127.0.0.1:{port}"
            pay.notify_to = server.url + "/pay/wechat/notify"
            phone, calls = wechat_phone(browser, pay)
            page = phone.new_page()
            page.goto(server.url + "/console/login")
            page.fill("input[name=login]", "player1")
            page.fill("input[name=password]", PASSWORD)
            page.click("button[type=submit]")
            page.wait_for_url(server.url + "/console")
            mine = f"{server.url}/qualification/{event_id}"
            page.goto(mine)
            for name in ("name", "id_number", "certificate_no"):
                page.fill(f"input[name={name}]", details[name])
            page.fill("input[name=rank]", "5段")
            via = page.locator("form.stack select[name=via]")
            offered = [o.get_attribute("value") for o in via.locator("option").all()]
            assert offered[0] == "wechat:jsapi" and "wechat:h5" not in offered  # inside WeChat: no H5
            _shot(page, "place-wechat-form-phone")
            page.locator("form.stack button[type=submit]").click()  # → WeChat's authorisation → the order
            page.wait_for_selector("#wxpay-button", timeout=WAIT)
            assert "260.00" in page.inner_text("main") and PAYER_OPENID not in page.content()
            _shot(page, "place-wechat-order-phone")
            page.click("#wxpay-button")
            page.wait_for_selector("p.ok", timeout=WAIT)
            (params,) = calls
            (trade_no,) = pay.orders
            assert pay.orders[trade_no]["total"] == 26_000 and params["package"].startswith("prepay_id=")
            assert pay.delivered == [204]
            page.goto(mine)
            assert page.inner_text(".status") == "已确认"
            assert page.inner_text(".paid") == "已缴费 260.00 元"
            _shot(page, "place-wechat-paid-phone")
            phone.close()
