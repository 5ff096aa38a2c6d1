"""Paying inside WeChat's browser over HTTP (WeChat Pay JSAPI): with ``MicroMessenger`` in the
User-Agent the pay forms offer 微信内支付 and not H5; elsewhere H5 and the QR code as before. The
first JSAPI payment goes through the 公众号's silent authorisation (the local server stands in for
WeChat): the state must come back to the browser that started it, once; the openid then stays in
the signed session and never appears on a page; the order page carries the call WeChat's bridge
makes, signed by the merchant's key, and the callback books the payment once."""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest
from fastapi.testclient import TestClient

from tests.payments.wechat_server import APPID, PAYER_OPENID, Keys, WeChatPayServer
from tests.services.fee_event import NOW, fee_event
from yisai.services import appeals
from yisai.services.accounts import create_user
from yisai.services.context import open_context
from yisai.services.identity import Actor, Role
from yisai.services.payments.registry import providers_from_environment
from yisai.services.rounds import pair
from yisai.services.settings import Settings
from yisai.store import team_rows
from yisai.web.app import create_app

KEYS = Keys()
PASSWORD = "liaoning-password"
PUBLIC_URL = "https://yisai.example"
WECHAT_UA = ("Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
             "Mobile/15E148 MicroMessenger/8.0.47(0x18002f2c) NetType/WIFI Language/zh_CN")
PHONE_UA = ("Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
            "Chrome/124.0.0.0 Mobile Safari/537.36")
PC_UA = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36"


@dataclass
class Site:
    app: object
    server: WeChatPayServer
    event_id: int
    team: int
    appeal: int

    def login(self, user_agent: str) -> TestClient:
        c = TestClient(self.app, headers={"User-Agent": user_agent})  # type: ignore[arg-type]
        r = c.post("/console/login", data={"login": "ln", "password": PASSWORD, "csrf": _csrf(c, "/console/login")},
                   follow_redirects=False)
        assert r.status_code == 303, r.text
        return c

    @property
    def fees(self) -> str:
        return f"/console/events/{self.event_id}/fees"


def _csrf(c: TestClient, path: str) -> str:
    m = re.search(r'name="csrf" value="([^"]+)"', c.get(path).text)
    assert m
    return m.group(1)


def _build(tmp_path: Path, server: WeChatPayServer, public_url: str) -> Iterator[Site]:
    db = str(tmp_path / "fees.sqlite")
    with open_context(Settings(database=db, clock=lambda: NOW, actor=Actor.cli("裁判长", Role.CHIEF_REFEREE))) as ctx:
        event = fee_event(ctx, tmp_path)
        with ctx.work() as w:
            team = int(next(t for t in team_rows.list_teams(w.session, event.id) if t.name == "辽宁队").id)
            pair(w, event.id, "jia", 1)
            appeal = appeals.file_appeal(w, str(event.id), "jia", 1, appellant="辽宁队", subject="对第1台判罚有异议")
        with ctx.work(actor=Actor.system()) as w:
            create_user(w, "ln", "辽宁领队", Role.TEAM_LEADER, PASSWORD, event_id=event.id, team_id=team)
    payments = providers_from_environment(KEYS.environment(tmp_path, server.gateway, jsapi=True))
    app = create_app(Settings(database=db, clock=lambda: NOW, payments=payments), secret="s", refresh_seconds=0,
                     public_url=public_url)
    with TestClient(app):
        yield Site(app, server, event.id, team, int(appeal.id))


@pytest.fixture
def site(tmp_path: Path) -> Iterator[Site]:
    with WeChatPayServer(KEYS) as server:
        yield from _build(tmp_path, server, PUBLIC_URL)


def _offered(page: str, form_action: str) -> list[str]:
    form = re.search(rf'<form[^>]*action="[^"]*{re.escape(form_action)}".*?</form>', page, re.S)
    assert form, form_action
    return re.findall(r'<option value="(\w+)"', form.group(0))


def _pay(c: TestClient, site: Site, what: str, mode: str) -> httpx.Response:
    return c.post(f"{site.fees}/pay/{what}", data={"csrf": _csrf(c, site.fees), "provider": "wechat", "mode": mode},
                  follow_redirects=False)


def _through_wechat(site: Site, authorize: str, *, state: str | None = None) -> str:
    """What WeChat does with the browser at its authorize page: back to our callback with a code
    (and the state, or another one); the callback's path and query on this site."""
    assert authorize.startswith(site.server.gateway + "/connect/oauth2/authorize?")
    q = parse_qs(urlsplit(authorize).query)
    assert (q["appid"], q["scope"], q["redirect_uri"]) == ([APPID], ["snsapi_base"], [PUBLIC_URL + "/pay/wechat/openid"])
    back = httpx.get(authorize, headers={"User-Agent": WECHAT_UA}, follow_redirects=False)
    assert back.status_code == 302
    target = urlsplit(back.headers["location"])
    assert f"{target.scheme}://{target.netloc}" == PUBLIC_URL
    query = target.query if state is None else target.query.replace(f"state={q['state'][0]}", f"state={state}")
    return f"{target.path}?{query}"


def test_inside_wechat_the_pay_forms_offer_jsapi_and_not_h5(site: Site) -> None:
    page = site.login(WECHAT_UA).get(site.fees).text
    assert _offered(page, f"/fees/pay/team/{site.team}") == ["jsapi", "native"]
    assert "微信内支付" in page and "手机支付" not in page
    # another phone's browser: H5 first; a PC: the QR code first; never JSAPI outside WeChat
    assert _offered(site.login(PHONE_UA).get(site.fees).text, f"/fees/pay/team/{site.team}") == ["h5", "native"]
    assert _offered(site.login(PC_UA).get(site.fees).text, f"/fees/pay/team/{site.team}") == ["native", "h5"]


def test_a_mode_this_browser_was_not_offered_is_refused(site: Site) -> None:
    r = _pay(site.login(WECHAT_UA), site, f"team/{site.team}", "h5")  # WeChat Pay refuses H5 inside WeChat
    assert r.status_code == 400 and "此浏览器中不提供该支付方式" in r.text
    r = _pay(site.login(PHONE_UA), site, f"team/{site.team}", "jsapi")  # no bridge outside WeChat
    assert r.status_code == 400 and "此浏览器中不提供该支付方式" in r.text
    assert site.server.orders == {}


def test_paying_inside_wechat_asks_wechat_once_for_the_openid_and_the_callback_books_it(site: Site) -> None:
    ln = site.login(WECHAT_UA)
    r = _pay(ln, site, f"team/{site.team}", "jsapi")
    assert r.status_code == 303 and site.server.orders == {}  # first the payer's openid
    r = ln.get(_through_wechat(site, r.headers["location"]), follow_redirects=False)
    assert r.status_code == 303 and "/fees/orders/YS" in r.headers["location"], r.text
    (trade_no,) = site.server.orders
    sent = site.server.orders[trade_no]
    assert (sent["kind"], sent["openid"], sent["total"]) == ("jsapi", PAYER_OPENID, 216_000)  # 600 + 6 × 260 元
    page = ln.get(r.headers["location"]).text
    found = re.search(r'data-wxpay="([^"]+)"', page)
    assert found and "/static/wxpay.js" in page and "2160.00" in page
    call = json.loads(html.unescape(found.group(1)))
    assert call["package"] == f"prepay_id={sent['prepay_id']}" and call["appId"] == APPID and call["signType"] == "RSA"
    assert PAYER_OPENID not in page and PAYER_OPENID not in ln.get(site.fees).text  # never on a page

    assert site.server.bridge(call) == ("get_brand_wcpay_request:ok", trade_no)  # the WeChat client pays
    headers, body = site.server.notification(trade_no)
    wechat_pay = TestClient(site.app)  # type: ignore[arg-type]
    assert wechat_pay.post("/pay/wechat/notify", content=body, headers=headers).status_code == 204
    assert wechat_pay.post("/pay/wechat/notify", content=body, headers=headers).status_code == 204  # once
    order_url = f"{site.fees}/orders/{trade_no}"
    r = ln.post(f"{order_url}/check", data={"csrf": _csrf(ln, order_url)})  # what wxpay.js submits after "ok"
    assert r.status_code == 200 and "已支付" in r.text and "data-wxpay" not in r.text

    # the same session pays the appeal fee: the openid is known, no second trip to WeChat
    r = _pay(ln, site, f"appeal/{site.appeal}", "jsapi")
    assert r.status_code == 303 and "/fees/orders/YS" in r.headers["location"]
    (appeal_no,) = set(site.server.orders) - {trade_no}
    assert site.server.orders[appeal_no]["total"] == 100_000  # seed 002: 申诉费1000元


def test_a_state_that_is_not_this_browsers_or_used_twice_is_refused(site: Site) -> None:
    ln = site.login(WECHAT_UA)
    r = _pay(ln, site, f"team/{site.team}", "jsapi")
    forged = ln.get(_through_wechat(site, r.headers["location"], state="forged-state"), follow_redirects=False)
    assert forged.status_code == 400 and "微信授权请求已失效" in forged.text and site.server.orders == {}
    # a callback in another browser (no payment started there) is refused too
    r = _pay(ln, site, f"team/{site.team}", "jsapi")
    callback = _through_wechat(site, r.headers["location"])
    other = site.login(WECHAT_UA)
    assert other.get(callback, follow_redirects=False).status_code == 400 and site.server.orders == {}
    r = _pay(ln, site, f"team/{site.team}", "jsapi")
    callback = _through_wechat(site, r.headers["location"])
    assert ln.get(callback, follow_redirects=False).status_code == 303 and len(site.server.orders) == 1
    again = ln.get(callback, follow_redirects=False)  # the same callback replayed: used up
    assert again.status_code == 400 and len(site.server.orders) == 1


def test_without_the_sites_public_address_jsapi_is_not_offered(tmp_path: Path) -> None:
    with WeChatPayServer(KEYS) as server:
        for site in _build(tmp_path, server, ""):
            page = site.login(WECHAT_UA).get(site.fees).text
            assert _offered(page, f"/fees/pay/team/{site.team}") == ["native"] and "微信内支付" not in page
