"""WeChat Pay JSAPI (paying inside WeChat's browser) through the SDK against the local server
(``wechat_server.py``): the order goes to ``/v3/pay/transactions/jsapi`` with the payer's openid
and answers a prepay_id; the page's parameters are signed by the merchant's key (checked here
with the merchant's public key, independently of the SDK); the WeChat client's bridge pays, and
the callback books it once. The 公众号's silent authorisation gives the openid once per code."""

from __future__ import annotations

import base64
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import padding

from tests.payments.wechat_server import APPID, MP_SECRET, PAYER_OPENID, Keys, WeChatPayServer
from tests.services.fee_event import NOW, fee_event
from yisai.registry.ledger import ENTRY, TEAM
from yisai.services import fees
from yisai.services.context import Context, open_context
from yisai.services.errors import InputError, Refused
from yisai.services.identity import Actor, Role
from yisai.services.oauth_providers import ProviderError, authorization_url, fetch_openid, wechat_mp
from yisai.services.payments import flow
from yisai.services.payments.base import JSAPI, BridgeCall, modes_for
from yisai.services.payments.registry import providers_from_environment
from yisai.services.settings import Settings
from yisai.store import EventRecord, team_rows

KEYS = Keys()
NOTIFIER = Actor("pay-notify", "支付通知", Role.PLAYER)
WECHAT_UA = ("Mozilla/5.0 (Linux; Android 14; V2309A) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 "
             "Chrome/116.0.0.0 Mobile Safari/537.36 XWEB/1160065 MMWEBSDK/20231202 MicroMessenger/8.0.47.2560"
             "(0x28002F30) WeChat/arm64 Weixin NetType/WIFI Language/zh_CN ABI/arm64")


@dataclass
class World:
    ctx: Context
    event: EventRecord
    server: WeChatPayServer
    settings: Settings


@pytest.fixture
def world(tmp_path: Path, db_url: str) -> Iterator[World]:
    with WeChatPayServer(KEYS) as server:
        env = KEYS.environment(tmp_path, server.gateway, jsapi=True)
        settings = Settings(database=db_url, clock=lambda: NOW, payments=providers_from_environment(env),
                            actor=Actor.cli("裁判长", Role.CHIEF_REFEREE))
        with open_context(settings) as ctx:
            yield World(ctx, fee_event(ctx, tmp_path), server, settings)


def _team(w: World, name: str) -> int:
    with w.ctx.work() as work:
        return int(next(t for t in team_rows.list_teams(work.session, w.event.id) if t.name == name).id)


def _leader(w: World, team_id: int) -> Actor:
    return Actor("7", "辽宁领队", Role.TEAM_LEADER, team=str(team_id), event=w.event.id)


def _signed_by_merchant(call: BridgeCall) -> bool:
    """WeChat's JSAPI 调起支付 rule: paySign = base64(RSA-SHA256(appId\\ntimeStamp\\nnonceStr\\npackage\\n))."""
    message = f"{call.app_id}\n{call.time_stamp}\n{call.nonce_str}\n{call.package}\n".encode()
    try:
        KEYS.merchant.public_key().verify(base64.b64decode(call.pay_sign), message, padding.PKCS1v15(), hashes.SHA256())
    except InvalidSignature:
        return False
    return True


def test_a_leader_pays_inside_wechat_and_the_callback_books_it_once(world: World) -> None:
    team = _team(world, "辽宁队")
    assert JSAPI in world.settings.payments.by_name["wechat"].modes
    checkout = flow.pay_team(world.ctx, _leader(world, team), str(world.event.id), team, "wechat", JSAPI,
                             "203.0.113.7", PAYER_OPENID)
    order = checkout.order
    sent = world.server.orders[order.out_trade_no]
    # 报名费600元 + 6 × 赛事服务费260元 = 2160元 = 216000 分, ordered through /v3/pay/transactions/jsapi
    assert (sent["kind"], sent["total"], sent["openid"]) == ("jsapi", 216_000, PAYER_OPENID)
    assert ("POST", "/v3/pay/transactions/jsapi") in world.server.requests and world.server.refused == []
    call = checkout.target.bridge
    assert call is not None and checkout.target.url == f"prepay_id={sent['prepay_id']}"
    assert (call.app_id, call.package, call.sign_type) == (APPID, f"prepay_id={sent['prepay_id']}", "RSA")
    assert call.time_stamp.isdigit() and 0 < len(call.nonce_str) <= 32 and _signed_by_merchant(call)
    assert set(call.as_bridge()) == {"appId", "timeStamp", "nonceStr", "package", "signType", "paySign"}

    with world.ctx.work() as work:  # the order page later: the stored package, signed afresh
        stored = flow.order_for(work, str(world.event.id), order.out_trade_no)
    again = flow.bridge_for(world.settings, stored)
    assert again is not None and again.package == call.package and _signed_by_merchant(again)
    forged = BridgeCall(APPID, call.time_stamp, call.nonce_str, "prepay_id=wx" + "0" * 28, call.pay_sign)
    assert not _signed_by_merchant(forged)  # the signature covers the package

    assert world.server.bridge(forged.as_bridge())[0] == "get_brand_wcpay_request:fail"
    assert world.server.bridge(call.as_bridge()) == ("get_brand_wcpay_request:ok", order.out_trade_no)
    headers, body = world.server.notification(order.out_trade_no)
    for expected in (flow.APPLIED, flow.DUPLICATE):  # delivered twice: booked once
        with world.ctx.work(actor=NOTIFIER) as work:
            assert flow.apply_callback(work, "wechat", headers, body) == expected
    with world.ctx.work() as work:
        ledger = fees.fee_ledger(work, str(world.event.id))
        assert next(ln for ln in ledger.of(TEAM) if ln.id == team).paid == 60_000
        assert sorted(ln.paid for ln in ledger.of(ENTRY) if ln.paid) == [26_000] * 6
        assert flow.bridge_for(world.settings, flow.order_for(work, str(world.event.id), order.out_trade_no)) is None


def test_no_openid_no_jsapi_order_and_an_openid_of_another_app_is_refused_by_wechat_pay(world: World) -> None:
    team = _team(world, "辽宁队")
    with pytest.raises(InputError) as info:
        flow.pay_team(world.ctx, _leader(world, team), str(world.event.id), team, "wechat", JSAPI)
    assert info.value.code == "no_payer_openid" and world.server.orders == {}
    with pytest.raises(Refused) as refused:  # WeChat Pay: PARAM_ERROR appid和openid不匹配
        flow.pay_team(world.ctx, _leader(world, team), str(world.event.id), team, "wechat", JSAPI, "",
                      "oAnotherAppsOpenid0000000000")
    assert "PARAM_ERROR" in refused.value.render("zh")
    with world.ctx.work() as work:
        (failed,) = flow.orders(work, str(world.event.id))
    assert failed.status == "failed"


def test_without_the_mp_secret_jsapi_is_not_offered(tmp_path: Path) -> None:
    env = KEYS.environment(tmp_path, "http://127.0.0.1:9")
    payments = providers_from_environment(env)
    assert JSAPI not in payments.by_name["wechat"].modes and payments.wechat_mp is None
    with_secret = providers_from_environment(KEYS.environment(tmp_path, "http://127.0.0.1:9", jsapi=True))
    assert with_secret.wechat_mp is not None and MP_SECRET not in repr(with_secret.wechat_mp)
    assert with_secret.by_name["wechat"].modes == ("native", "h5", "jsapi")


PHONE_UA = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/124.0.0.0 Mobile Safari/537.36"
PC_UA = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/124.0.0.0 Safari/537.36"


@pytest.mark.parametrize(("modes", "ua", "offered"), [
    # WeChat Pay with JSAPI: inside WeChat JSAPI then the QR code, never H5; outside never JSAPI
    (("native", "h5", "jsapi"), WECHAT_UA, ("jsapi", "native")),
    (("native", "h5", "jsapi"), PHONE_UA, ("h5", "native")),
    (("native", "h5", "jsapi"), PC_UA, ("native", "h5")),
    (("native", "h5"), WECHAT_UA, ("native",)),  # no 公众号 secret: inside WeChat only the QR code
    (("native",), PHONE_UA, ("native",)),  # YISAI_WECHATPAY_H5=0
    # Alipay: inside WeChat as in any browser; a phone gets the wap page first, a PC the web page
    (("page", "h5"), WECHAT_UA, ("h5", "page")),
    (("page", "h5"), PHONE_UA, ("h5", "page")),
    (("page", "h5"), PC_UA, ("page", "h5")),
])
def test_which_modes_a_browser_is_offered(modes: tuple[str, ...], ua: str, offered: tuple[str, ...]) -> None:
    assert modes_for(modes, ua) == offered


def test_the_silent_authorisation_gives_the_openid_once(world: World) -> None:
    redirect = "https://yisai.example/pay/wechat/openid"
    app = wechat_mp(APPID, MP_SECRET, open_base=world.server.gateway, api_base=world.server.gateway)
    url = authorization_url(app, redirect, "state-123")
    parts = urlsplit(url)
    assert parts.path == "/connect/oauth2/authorize" and url.endswith("#wechat_redirect")
    assert parse_qs(parts.query) == {"appid": [APPID], "redirect_uri": [redirect], "response_type": ["code"],
                                     "scope": ["snsapi_base"], "state": ["state-123"]}
    outside = httpx.get(url, follow_redirects=False)
    assert outside.status_code == 200 and "请在微信客户端打开链接" in outside.text  # WeChat's page elsewhere
    back = httpx.get(url, headers={"User-Agent": WECHAT_UA}, follow_redirects=False)
    assert back.status_code == 302
    given = parse_qs(urlsplit(back.headers["location"]).query)
    assert given["state"] == ["state-123"]
    code = given["code"][0]
    assert fetch_openid(app, code, redirect) == PAYER_OPENID
    sent = world.server.exchanges[-1]  # the documented parameters (Authlib adds redirect_uri, ignored)
    assert {k: sent.get(k) for k in ("appid", "secret", "code", "grant_type")} == {
        "appid": APPID, "secret": MP_SECRET, "code": code, "grant_type": "authorization_code"}
    with pytest.raises(ProviderError) as used:
        fetch_openid(app, code, redirect)
    assert "40163" in used.value.render("zh")
    back = httpx.get(url, headers={"User-Agent": WECHAT_UA}, follow_redirects=False)
    wrong = wechat_mp(APPID, "not-the-secret", open_base=world.server.gateway, api_base=world.server.gateway)
    with pytest.raises(ProviderError) as bad_secret:
        fetch_openid(wrong, parse_qs(urlsplit(back.headers["location"]).query)["code"][0], redirect)
    said = bad_secret.value.render("zh")
    assert "40125" in said and "YISAI_WECHATPAY_MP_SECRET" in said and "not-the-secret" not in said
