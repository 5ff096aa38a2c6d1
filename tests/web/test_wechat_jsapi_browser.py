"""Paying inside WeChat's browser (WeChat Pay JSAPI) in a real browser: Debian's chromium with
WeChat's User-Agent against the real `yisai serve` configured for WeChat Pay and the 公众号's
AppSecret. A team leader taps 缴纳本队费用 (微信内支付 is offered first, H5 not at all); the browser
goes through WeChat's silent authorisation (the local server) and back, the order page hands the
server-signed parameters to ``WeixinJSBridge``. The bridge is the WeChat client's part: here an
injected object that passes the parameters to the local server's bridge endpoint, which checks
paySign with the merchant's public key, marks the order paid and posts the signed callback to the
site; then the page asks for the result and the leader sees 已支付 and 已缴费. Screenshots at
390 px go to out/screens/."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.payments.wechat_server import PAYER_OPENID, Keys, WeChatPayServer
from tests.services.fee_event import NOW, fee_event
from tests.web import server as served
from tests.web.server import Server, free_port
from tests.web.test_browser import ARGS, CHROMIUM, PHONE, _shot, browser, playwright_api, pytestmark
from yisai.services.accounts import create_user
from yisai.services.context import open_context
from yisai.services.identity import Actor, Role
from yisai.services.settings import Settings
from yisai.store import team_rows

__all__ = ["ARGS", "CHROMIUM", "browser", "playwright_api", "pytestmark"]

PASSWORD = "liaoning-password"
WECHAT_UA = ("Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
             "Mobile/15E148 MicroMessenger/8.0.47(0x18002f2c) NetType/WIFI Language/zh_CN")
WAIT = 30_000
# The WeChat client's bridge, as a page inside WeChat sees it: invoke(name, params, callback).
BRIDGE = """
window.WeixinJSBridge = {
  invoke: function (name, params, callback) {
    window.wechatClient(name, params).then(function (answer) { callback(answer); });
  }
};
"""


def wechat_phone(browser: Any, pay: WeChatPayServer) -> tuple[Any, list[dict[str, str]]]:
    """A phone browser inside WeChat: WeChat's User-Agent and its bridge, whose calls (kept in the
    list returned) go to the local server's bridge endpoint, as the WeChat client would pay."""
    calls: list[dict[str, str]] = []

    def wechat_client(source: Any, name: str, params: dict[str, str]) -> dict[str, str]:
        assert name == "getBrandWCPayRequest"
        calls.append(params)
        return dict(httpx.post(pay.gateway + "/test/jsapi/bridge", json=params, timeout=30).json())

    phone = browser.new_context(viewport=PHONE, user_agent=WECHAT_UA, is_mobile=True, has_touch=True, locale="zh-CN")
    phone.expose_binding("wechatClient", wechat_client)
    phone.add_init_script(BRIDGE)
    return phone, calls


def test_a_team_leader_pays_inside_wechat(browser: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "fees.sqlite"
    keys = Keys()
    with open_context(Settings(database=str(db), clock=lambda: NOW, actor=Actor.cli("裁判长", Role.CHIEF_REFEREE))) as ctx:
        event = fee_event(ctx, tmp_path)
        with ctx.work() as w:
            team = next(t for t in team_rows.list_teams(w.session, event.id) if t.name == "辽宁队")
        with ctx.work(actor=Actor.system()) as w:
            create_user(w, "ln", "辽宁领队", Role.TEAM_LEADER, PASSWORD, event_id=event.id, team_id=int(team.id))
    with WeChatPayServer(keys) as pay:
        for key, value in keys.environment(tmp_path, pay.gateway, jsapi=True).items():
            monkeypatch.setenv(key, value)
        port = free_port()  # WeChat sends the payer back to the site's public address only
        monkeypatch.setattr(served, "free_port", lambda: port)
        monkeypatch.setenv("YISAI_PUBLIC_URL", f"http://127.0.0.1:{port}")
        with Server(db, now=NOW.isoformat()) as server:
            pay.oauth_domain = f"127.0.0.1:{port}"  # the 网页授权域名 registered in the 公众号
            pay.notify_to = server.url + "/pay/wechat/notify"  # where WeChat Pay posts (notify_url is https)
            phone, calls = wechat_phone(browser, pay)
            page = phone.new_page()
            page.goto(server.url + "/console/login")
            page.fill("input[name=login]", "ln")
            page.fill("input[name=password]", PASSWORD)
            page.click("button[type=submit]")
            page.wait_for_url(server.url + "/console")
            fees_url = f"{server.url}/console/events/{event.id}/fees"
            page.goto(fees_url)
            form = page.locator(f"form[action$='/fees/pay/team/{team.id}']")
            options = form.locator("select[name=mode] option")
            assert [options.nth(i).get_attribute("value") for i in range(options.count())] == ["jsapi", "native"]
            assert form.locator("select[name=mode]").input_value() == "jsapi"  # 微信内支付 first, no H5
            _shot(page, "fees-wechat-leader-phone")

            form.locator("button").click()  # → WeChat's silent authorisation → back → the order
            page.wait_for_selector("#wxpay-button", timeout=WAIT)
            assert "2160.00" in page.inner_text("main")  # 600 + 6 × 260 元
            assert PAYER_OPENID not in page.content()
            _shot(page, "fees-wechat-order-phone")
            page.click("#wxpay-button")
            page.wait_for_selector("p.ok", timeout=WAIT)  # "ok" → the page asked WeChat Pay: paid
            assert "已支付" in page.inner_text("main")
            (params,) = calls
            (trade_no,) = pay.orders
            assert pay.orders[trade_no]["state"] == "SUCCESS" and params["package"].startswith("prepay_id=wx")
            assert pay.delivered == [204]  # the signed callback was taken by the site
            _shot(page, "fees-wechat-paid-phone")
            page.goto(fees_url)
            assert "本队费用已缴清: 已缴费 2160.00 元" in page.inner_text("main")
            assert page.locator(f"form[action$='/fees/pay/team/{team.id}']").count() == 0
            _shot(page, "fees-wechat-done-phone")
            phone.close()
