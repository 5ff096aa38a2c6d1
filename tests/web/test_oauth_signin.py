"""WeChat and QQ sign-in over HTTP against local servers that behave as the providers'
documented endpoints do (tests/web/oauth_servers.py): the code exchange through Authlib, the
state, the one-time phone link to the player's account, the providers' errors in words, and no
button for a provider that is not configured."""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest
from fastapi.testclient import TestClient

from tests.conftest import REGULATIONS
from tests.web.conftest import Clock
from tests.web.oauth_servers import FakeProvider, Person, QQServer, WeChatServer
from tests.web.proof import TEST_PROOF_BITS, proved
from tests.web.test_play_pages import ADULT, IN_PERIOD_1, PHONE, code_from_outbox, csrf, sign_in
from yisai.services.accounts import create_user
from yisai.services.context import open_context
from yisai.services.errors import InputError
from yisai.services.events import create_event
from yisai.services.identity import Actor, Role
from yisai.services.oauth_providers import Provider, providers_from_environment, qq, wechat
from yisai.services.settings import Settings
from yisai.web.app import create_app

WX_APP, WX_SECRET = "wx0123456789abcdef", "wechat-app-secret-32-characters!"
QQ_APP, QQ_KEY = "101234567", "qq-app-key-0123456789abcdef"
ZHANG_WX = Person("oWX_zhang_openid_0001", "uZHANG_union_0001", "张三的微信")
ZHANG_QQ = Person("QQOPENIDZHANG000000000000000001", "UID_QQ_ZHANG_0001", "张三的QQ")
LI_WX = Person("oWX_li_openid_0002", None, "李四")
PUBLIC_URL = "http://testserver"  # the site's public address: the only base of a callback (#44)


@pytest.fixture
def providers() -> Iterator[tuple[FakeProvider, WeChatServer, FakeProvider, QQServer]]:
    wx = FakeProvider(WX_APP, WX_SECRET, callback_domain="testserver", person=ZHANG_WX)
    qq_app = FakeProvider(QQ_APP, QQ_KEY, callback_domain="testserver", person=ZHANG_QQ)
    wx_server, qq_server = WeChatServer(wx), QQServer(qq_app)
    yield wx, wx_server, qq_app, qq_server
    wx_server.stop()
    qq_server.stop()


def make_site(tmp_path: Path, oauth: dict[str, Provider]) -> TestClient:
    db = str(tmp_path / "oauth.sqlite")
    with open_context(db) as ctx, ctx.work() as w:
        event = create_event(w, REGULATIONS / "2025-shanhai-cup.toml", seed=1)
    app = create_app(Settings(database=db, clock=Clock(IN_PERIOD_1)), secret="oauth-test",
                     qualifier_event=str(event.id), dev_outbox=True, oauth=oauth, public_url=PUBLIC_URL, proof_bits=TEST_PROOF_BITS)  # fmt: skip
    return TestClient(app)


@pytest.fixture
def site(tmp_path: Path, providers: tuple[FakeProvider, WeChatServer, FakeProvider, QQServer]) -> TestClient:
    _, wx_server, _, qq_server = providers
    return make_site(tmp_path, {"wechat": wechat(WX_APP, WX_SECRET, open_base=wx_server.url, api_base=wx_server.url),
                                "qq": qq(QQ_APP, QQ_KEY, base=qq_server.url)})  # fmt: skip


def to_provider(client: TestClient, key: str) -> str:
    """Click the button: the app's redirect to the provider (with its state)."""
    r = client.get(f"/play/oauth/{key}", follow_redirects=False)
    assert r.status_code == 303, r.text
    return r.headers["location"]


def at_provider(url: str) -> str:
    """The person scans (WeChat) or clicks 授权 (QQ): the provider sends the browser back."""
    r = httpx.get(url.split("#")[0], follow_redirects=False, trust_env=False)
    assert r.status_code == 302, r.text
    return r.headers["location"]


def back_to_site(client: TestClient, location: str) -> httpx.Response:
    parts = urlsplit(location)
    assert parts.netloc == "testserver" and parts.path.startswith("/play/oauth/")
    return client.get(f"{parts.path}?{parts.query}", follow_redirects=False)


def round_trip(client: TestClient, key: str) -> httpx.Response:
    return back_to_site(client, at_provider(to_provider(client, key)))


def minutes_later(client: TestClient, minutes: int = 2) -> None:
    """Move the server's clock (a code may be asked for once a minute per number)."""
    clock = client.app.state.web.ctx.settings.clock  # type: ignore[attr-defined]
    clock.moment += timedelta(minutes=minutes)


def link_phone(client: TestClient, phone: str = PHONE) -> httpx.Response:
    minutes_later(client)
    page = client.get("/play/oauth/link")
    assert page.status_code == 200 and "验证手机号" in page.text
    token = re.search(r'name="csrf" value="([^"]+)"', page.text)
    assert token
    sent = client.post("/play/oauth/link/code", data=proved(client, {"csrf": token.group(1), "phone": phone}))
    assert sent.status_code == 200 and "验证码已发送" in sent.text, sent.text
    return client.post("/play/oauth/link", data={"csrf": token.group(1), "phone": phone,
                                                 "code": code_from_outbox(client, phone)}, follow_redirects=False)  # fmt: skip


def profile_name(client: TestClient) -> str:
    found = re.search(r'name="name"[^>]*value="([^"]*)"', client.get("/play/profile").text)
    assert found
    return found.group(1)


def rows(client: TestClient, sql: str) -> list[tuple[object, ...]]:
    db = client.app.state.web.ctx.settings.database  # type: ignore[attr-defined]
    with sqlite3.connect(db) as con:
        return con.execute(sql).fetchall()


def test_wechat_authorize_request_is_the_documented_one(site: TestClient) -> None:
    url = to_provider(site, "wechat")
    parts = urlsplit(url)
    assert parts.path == "/connect/qrconnect" and parts.fragment == "wechat_redirect"
    q = parse_qs(parts.query)
    assert list(q) == ["appid", "redirect_uri", "response_type", "scope", "state"]  # the documented order
    assert q["appid"] == [WX_APP] and q["scope"] == ["snsapi_login"] and q["response_type"] == ["code"]
    assert q["redirect_uri"] == ["http://testserver/play/oauth/wechat/callback"]
    assert len(q["state"][0]) >= 32 and WX_SECRET not in url


def test_new_person_links_once_then_goes_straight_in_and_qq_reaches_the_same_account(
        site: TestClient, providers: tuple[FakeProvider, WeChatServer, FakeProvider, QQServer]) -> None:  # fmt: skip
    wx, _, qq_app, _ = providers
    # first WeChat sign-in: the phone code once, then the profile of the new account
    r = round_trip(site, "wechat")
    assert r.status_code == 303 and r.headers["location"] == "/play/oauth/link"
    assert site.get("/play", follow_redirects=False).headers["location"] == "/play/signin"  # not signed in yet
    linked = link_phone(site)
    assert linked.status_code == 303 and linked.headers["location"] == "/play"
    token = csrf(site, "/play/profile")
    assert site.post("/play/profile", data={"csrf": token, **ADULT}, follow_redirects=False).status_code == 303
    # what the token endpoint received: the documented parameters, the secret only there
    sent = wx.exchanges[-1]
    assert sent["appid"] == WX_APP and sent["secret"] == WX_SECRET and sent["grant_type"] == "authorization_code"

    # the same person again, in another browser: straight in, same profile, no phone code
    again = TestClient(site.app)
    r = round_trip(again, "wechat")
    assert r.status_code == 303 and r.headers["location"] == "/play"
    assert profile_name(again) == "张三"

    # the same person by QQ: the phone code once links QQ to the same account
    by_qq = TestClient(site.app)
    r = round_trip(by_qq, "qq")
    assert r.headers["location"] == "/play/oauth/link"
    assert link_phone(by_qq).headers["location"] == "/play"
    assert profile_name(by_qq) == "张三"
    assert qq_app.exchanges[-1]["redirect_uri"] == "http://testserver/play/oauth/qq/callback"
    # later QQ sign-ins go straight in; and the phone code alone is still the same account
    later = TestClient(site.app)
    assert round_trip(later, "qq").headers["location"] == "/play"
    by_code = TestClient(site.app)
    minutes_later(site)
    sign_in(by_code)
    assert profile_name(by_code) == "张三"

    players = rows(site, "SELECT id FROM users WHERE role = 'player'")
    assert len(players) == 1  # one person, one account (one ladder line)
    links = rows(site, "SELECT provider, openid, unionid, user_id FROM oauth_links ORDER BY provider")
    assert links == [("qq", ZHANG_QQ.openid, ZHANG_QQ.unionid, players[0][0]),
                     ("wechat", ZHANG_WX.openid, ZHANG_WX.unionid, players[0][0])]  # fmt: skip
    audited = rows(site, "SELECT action, after FROM audit WHERE entity = 'oauth_link' ORDER BY id")
    assert [a for a, _ in audited] == ["link", "link"]
    assert all(ZHANG_WX.openid not in str(after) and ZHANG_QQ.openid not in str(after) for _, after in audited)


def test_a_second_wechat_cannot_take_over_a_linked_number(
        site: TestClient, providers: tuple[FakeProvider, WeChatServer, FakeProvider, QQServer]) -> None:  # fmt: skip
    wx = providers[0]
    round_trip(site, "wechat")
    assert link_phone(site).headers["location"] == "/play"
    wx.person = LI_WX  # another WeChat account, then the same number's code
    other = TestClient(site.app)
    assert round_trip(other, "wechat").headers["location"] == "/play/oauth/link"
    r = link_phone(other)
    assert r.status_code == 409 and "此手机号已关联另一个微信账号" in r.text
    assert len(rows(site, "SELECT * FROM oauth_links")) == 1


def test_a_staff_account_is_not_linked(site: TestClient) -> None:
    """A referee whose login is a mobile number proves it by code, but WeChat does not sign staff in."""
    db = site.app.state.web.ctx.settings.database  # type: ignore[attr-defined]
    with open_context(db) as ctx, ctx.work(actor=Actor.system()) as work:
        create_user(work, PHONE, "裁判甲", Role.REFEREE, "referee-password-1")
    round_trip(site, "wechat")
    r = link_phone(site)
    assert r.status_code == 409 and "工作人员账号不能关联微信登录" in r.text
    assert rows(site, "SELECT * FROM oauth_links") == []


def test_a_replayed_or_foreign_or_wrong_state_is_refused(
        site: TestClient, providers: tuple[FakeProvider, WeChatServer, FakeProvider, QQServer]) -> None:  # fmt: skip
    wx = providers[0]
    location = at_provider(to_provider(site, "wechat"))
    # a callback in another browser (no state in its session): refused, the code not exchanged
    stranger = TestClient(site.app)
    r = back_to_site(stranger, location)
    assert r.status_code == 400 and "登录请求已失效或不是从本页发起的" in r.text
    assert wx.exchanges == []
    # a wrong state in the right browser: refused, and the state is used up
    wrong = location.replace("state=", "state=x")
    r = back_to_site(site, wrong)
    assert r.status_code == 400 and "登录请求已失效" in r.text and wx.exchanges == []
    assert back_to_site(site, location).status_code == 400  # the real state is gone too
    # a good round, then the same callback replayed
    location = at_provider(to_provider(site, "wechat"))
    assert back_to_site(site, location).headers["location"] == "/play/oauth/link"
    r = back_to_site(site, location)
    assert r.status_code == 400 and "登录请求已失效" in r.text
    assert len(wx.exchanges) == 1


def test_provider_errors_are_shown_in_words(
        site: TestClient, providers: tuple[FakeProvider, WeChatServer, FakeProvider, QQServer]) -> None:  # fmt: skip
    wx, _, qq_app, qq_server = providers
    # WeChat: a code it never issued → errcode 40029
    location = at_provider(to_provider(site, "wechat"))
    r = back_to_site(site, re.sub(r"code=[0-9a-f]+", "code=0123456789abcdef", location))
    assert r.status_code == 502 and "微信登录失败: 授权码无效 (可能已过期), 请重新扫码 (40029: invalid code)" in r.text
    # QQ: a code already used by someone else → JSONP error 100020
    location = at_provider(to_provider(site, "qq"))
    code = parse_qs(urlsplit(location).query)["code"][0]
    first = httpx.get(qq_server.url + "/oauth2.0/token", trust_env=False, params={
        "grant_type": "authorization_code", "client_id": QQ_APP, "client_secret": QQ_KEY, "code": code,
        "redirect_uri": "http://testserver/play/oauth/qq/callback"})  # fmt: skip
    assert first.text.startswith("access_token=")
    r = back_to_site(site, location)
    assert r.status_code == 502 and "QQ登录失败: 授权码已被使用, 请重新登录QQ (100020: code is reused error)" in r.text
    # the person refuses on WeChat's page: only the state comes back
    wx.person = None
    r = round_trip(site, "wechat")
    assert r.status_code == 400 and "未获得微信授权 (已取消或被拒绝)" in r.text
    qq_app.person = None
    r = round_trip(site, "qq")
    assert r.status_code == 400 and "未获得QQ授权 (已取消或被拒绝)" in r.text


def test_an_oversized_answer_is_refused_before_it_is_parsed(
        site: TestClient, providers: tuple[FakeProvider, WeChatServer, FakeProvider, QQServer]) -> None:  # fmt: skip
    providers[0].padding = 70_000  # above the 64 KB any documented answer stays far below
    r = round_trip(site, "wechat")
    assert r.status_code == 502 and "answer larger than 65536 bytes" in r.text
    assert rows(site, "SELECT * FROM oauth_links") == []


def test_a_wrong_secret_is_named_for_the_operator(
        tmp_path: Path, providers: tuple[FakeProvider, WeChatServer, FakeProvider, QQServer]) -> None:  # fmt: skip
    _, wx_server, _, qq_server = providers
    client = make_site(tmp_path, {"wechat": wechat(WX_APP, "not-the-secret", open_base=wx_server.url, api_base=wx_server.url),
                                  "qq": qq(QQ_APP, "not-the-key", base=qq_server.url)})  # fmt: skip
    r = round_trip(client, "wechat")
    assert r.status_code == 502 and "AppSecret 无效, 请运营人员检查微信登录设置 (40125: invalid appsecret)" in r.text
    r = round_trip(client, "qq")
    assert r.status_code == 502 and "AppKey 无效, 请运营人员检查QQ登录设置 (100006: client secret is wrong)" in r.text
    assert "not-the-secret" not in r.text


def test_a_provider_not_configured_is_not_shown(
        tmp_path: Path, providers: tuple[FakeProvider, WeChatServer, FakeProvider, QQServer]) -> None:  # fmt: skip
    _, wx_server, _, _ = providers
    only_wechat = make_site(tmp_path, {"wechat": wechat(WX_APP, WX_SECRET, open_base=wx_server.url,
                                                        api_base=wx_server.url)})  # fmt: skip
    page = only_wechat.get("/play/signin").text
    assert 'href="/play/oauth/wechat"' in page and "微信登录" in page
    assert "/play/oauth/qq" not in page and "QQ登录" not in page
    assert "Sign in with WeChat" in only_wechat.get("/play/signin?lang=en").text  # English on request
    assert only_wechat.get("/play/oauth/qq", follow_redirects=False).status_code == 404
    assert only_wechat.get("/play/oauth/qq/callback?code=x&state=y").status_code == 404


def test_no_provider_no_buttons(tmp_path: Path) -> None:
    plain = make_site(tmp_path, {})
    page = plain.get("/play/signin").text
    assert "/play/oauth/" not in page and "微信" not in page
    assert plain.get("/play/oauth/link", follow_redirects=False).headers["location"] == "/play/signin"


def test_settings_come_from_the_environment_or_a_file(tmp_path: Path) -> None:
    assert providers_from_environment({}) == {}
    secret_file = tmp_path / "wx-secret"
    secret_file.write_text(WX_SECRET + "\n", encoding="utf-8")
    found = providers_from_environment({"YISAI_WECHAT_APPID": WX_APP, "YISAI_WECHAT_SECRET_FILE": str(secret_file),
                                        "YISAI_QQ_APPID": QQ_APP, "YISAI_QQ_APPKEY": QQ_KEY})  # fmt: skip
    assert found["wechat"].secret == WX_SECRET and found["wechat"].token_url == \
        "https://api.weixin.qq.com/sns/oauth2/access_token"
    assert found["qq"].authorize_url == "https://graph.qq.com/oauth2.0/authorize"
    assert WX_SECRET not in repr(found) and QQ_KEY not in repr(found)  # never in a log line
    with pytest.raises(InputError) as half:
        providers_from_environment({"YISAI_QQ_APPID": QQ_APP})
    assert "QQ登录设置不完整: 缺少 YISAI_QQ_APPKEY" in half.value.render("zh")
    with pytest.raises(InputError) as missing:
        providers_from_environment({"YISAI_WECHAT_APPID": WX_APP,
                                    "YISAI_WECHAT_SECRET_FILE": str(tmp_path / "absent")})  # fmt: skip
    assert "YISAI_WECHAT_SECRET_FILE 无法读取" in missing.value.render("zh")


def _app_on(db: str, public_url: str, oauth: dict[str, Provider]) -> TestClient:
    """Another worker of the same site: the same database and cookie secret, its own process state."""
    event = rows_of(db, "SELECT id FROM events")[0][0]
    return TestClient(create_app(Settings(database=db, clock=Clock(IN_PERIOD_1)), secret="oauth-test",
                                 qualifier_event=str(event), dev_outbox=True, oauth=oauth, public_url=public_url))  # fmt: skip


def rows_of(db: str, sql: str) -> list[tuple[object, ...]]:
    with sqlite3.connect(db) as con:
        return con.execute(sql).fetchall()


def test_the_state_cookie_from_before_the_callback_is_refused_in_every_worker(
        site: TestClient, providers: tuple[FakeProvider, WeChatServer, FakeProvider, QQServer]) -> None:  # fmt: skip
    """#44 item 5: the state is kept on the server and used once. The person starts on one
    worker and comes back on another (both know the state); then the cookie from before the
    callback is replayed with a fresh code from the provider: refused, the code not exchanged."""
    wx, wx_server = providers[0], providers[1]
    db = site.app.state.web.ctx.settings.database  # type: ignore[attr-defined]
    other = _app_on(db, PUBLIC_URL, {"wechat": wechat(WX_APP, WX_SECRET, open_base=wx_server.url,
                                                      api_base=wx_server.url)})  # fmt: skip
    authorize = to_provider(site, "wechat")
    before = dict(site.cookies)  # the signed session holding the state, as it was before the callback
    for name, value in before.items():
        other.cookies.set(name, value)
    assert back_to_site(other, at_provider(authorize)).headers["location"] == "/play/oauth/link"
    assert len(wx.exchanges) == 1
    site.cookies.clear()
    for name, value in before.items():
        site.cookies.set(name, value)
    r = back_to_site(site, at_provider(authorize))  # the same state, a new code the provider just issued
    assert r.status_code == 400 and "登录请求已失效" in r.text
    assert len(wx.exchanges) == 1
    assert rows_of(db, "SELECT count(*) FROM oauth_states") == [(0,)]


def test_without_a_public_address_wechat_and_qq_are_not_offered(
        tmp_path: Path, providers: tuple[FakeProvider, WeChatServer, FakeProvider, QQServer]) -> None:  # fmt: skip
    """#44 item 5: a callback is built only from the configured public address. Without one the
    buttons are gone and the addresses answer 404, whatever Host the request names; with one,
    a foreign Host header does not change the redirect_uri."""
    _, wx_server, _, qq_server = providers
    oauth = {"wechat": wechat(WX_APP, WX_SECRET, open_base=wx_server.url, api_base=wx_server.url),
             "qq": qq(QQ_APP, QQ_KEY, base=qq_server.url)}  # fmt: skip
    make_site(tmp_path, {})  # the database with its event
    db = str(tmp_path / "oauth.sqlite")
    bare = _app_on(db, "", oauth)
    page = bare.get("/play/signin").text
    assert "/play/oauth/" not in page and "微信登录" not in page and "QQ登录" not in page
    for key in ("wechat", "qq"):
        assert bare.get(f"/play/oauth/{key}", headers={"Host": "evil.example"}, follow_redirects=False).status_code == 404
        assert bare.get(f"/play/oauth/{key}/callback?code=x&state=y").status_code == 404
    public = _app_on(db, "https://yisai.example.cn", oauth)
    r = public.get("/play/oauth/wechat", headers={"Host": "evil.example"}, follow_redirects=False)
    assert r.status_code == 303
    assert parse_qs(urlsplit(r.headers["location"]).query)["redirect_uri"] == [
        "https://yisai.example.cn/play/oauth/wechat/callback"]
