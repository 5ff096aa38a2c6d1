"""WeChat sign-in in a real browser (Debian's chromium through Playwright) on a phone-sized
screen, against the real `yisai serve` configured by its environment variables and a local
WeChat stand-in (tests/web/oauth_servers.py): click 微信登录, follow the redirects through the
provider and back, prove the number once, fill in the profile, land on the play page; sign out
and sign in by WeChat again, straight in."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import REGULATIONS
from tests.web import server as served
from tests.web.oauth_servers import FakeProvider, Person, WeChatServer
from tests.web.server import Server, free_port
from tests.web.test_browser import ARGS, CHROMIUM, PHONE, _shot, browser, playwright_api, pytestmark
from yisai.services.context import open_context
from yisai.services.events import create_event

__all__ = ["ARGS", "CHROMIUM", "browser", "playwright_api", "pytestmark"]

WX_APP, WX_SECRET = "wx9f8e7d6c5b4a3921", "browser-test-wechat-secret-0001"
NUMBER = "13655556666"
WAIT = 20_000


@pytest.fixture
def wechat() -> Iterator[tuple[FakeProvider, WeChatServer]]:
    app = FakeProvider(WX_APP, WX_SECRET, person=Person("oWX_browser_0001", "uBROWSER_0001", "王大力"))
    server = WeChatServer(app)
    yield app, server
    server.stop()


def test_wechat_sign_in_on_a_phone(browser: Any, tmp_path: Path, wechat: tuple[FakeProvider, WeChatServer],
                                   monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    app, provider = wechat
    db = tmp_path / "oauth.sqlite"
    with open_context(str(db)) as ctx, ctx.work() as w:
        event = create_event(w, REGULATIONS / "2025-shanhai-cup.toml", seed=1)
    for name, value in {"YISAI_WECHAT_APPID": WX_APP, "YISAI_WECHAT_SECRET": WX_SECRET,
                        "YISAI_WECHAT_OPEN_URL": provider.url, "YISAI_WECHAT_API_URL": provider.url}.items():  # fmt: skip
        monkeypatch.setenv(name, value)
    port = free_port()  # WeChat/QQ sign-in is offered only with the site's public address (#44)
    monkeypatch.setattr(served, "free_port", lambda: port)
    monkeypatch.setenv("YISAI_PUBLIC_URL", f"http://127.0.0.1:{port}")
    with Server(db, now="2025-05-10T12:00", args=("--qualifier", str(event.id), "--dev-outbox")) as srv:
        base = srv.url
        app.callback_domain = f"127.0.0.1:{srv.port}"  # the 授权回调域 registered with WeChat
        phone = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True, device_scale_factor=2)
        page = phone.new_page()
        page.goto(base + "/play/signin")
        assert page.locator("#oauth-wechat").inner_text() == "微信登录"
        assert page.locator("#oauth-qq").count() == 0  # QQ is not configured: no button
        _shot(page, "oauth-phone-signin")

        page.click("#oauth-wechat")  # → the provider's QR page → back with code and state
        page.wait_for_url(re.compile(r".*/play/oauth/link(#wechat_redirect)?$"), timeout=WAIT)  # a 302
        # keeps the fragment of WeChat's address, as browsers do
        assert "首次使用微信登录" in page.inner_text("h1")
        page.fill("#link-code-form input[name=phone]", NUMBER)
        page.click("#link-code-form button[type=submit]")
        page.wait_for_selector("p.ok")
        _shot(page, "oauth-phone-link")
        outbox = phone.new_page()
        outbox.goto(base + "/play/dev/outbox")
        row = outbox.locator("tr", has=outbox.locator(f"td.phone:text-is('{NUMBER}')")).first
        code = re.search(r"验证码为 ?(\d{6})", row.inner_text())
        assert code, row.inner_text()
        outbox.close()
        page.fill("#link-form input[name=code]", code.group(1))
        page.click("#link-form button[type=submit]")
        page.wait_for_url(base + "/play/profile", timeout=WAIT)  # a new account: the profile first
        page.fill("input[name=name]", "王大力")
        page.select_option("select[name=gender]", "M")
        page.fill("input[name=birth]", "1988-07-01")
        page.fill("input[name=region]", "浙江杭州")
        page.click("form.profile button[type=submit]")
        page.wait_for_url(base + "/play", timeout=WAIT)
        assert "公开组" in page.inner_text("body")

        # sign out, then WeChat again: straight onto the play page, no phone code
        page.goto(base + "/play/profile")
        page.locator("form[action='/play/signout'] button").first.click()
        page.wait_for_url(re.compile(r".*/play/signin$"), timeout=WAIT)
        page.click("#oauth-wechat")
        page.wait_for_url(re.compile(r".*/play(#wechat_redirect)?$"), timeout=WAIT)
        assert "王大力" in page.inner_text("body")
        _shot(page, "oauth-phone-signed-in")
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]  # no sideways scroll
        phone.close()
