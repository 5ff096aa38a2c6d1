"""#35 in a real browser (Debian's chromium, phone size) against the real `yisai serve --qualifier`
configured for Tencent Cloud SMS (YISAI_SMS_CONFIG, the key pair in the environment): the player
asks for a code, the server's notice worker sends it through the SDK to the local Tencent server
(signature verified there), the player types the code the provider received and signs in, then
turns the event text messages off on the profile page; the operator sees the message on the
console's 短信通知 page. Screenshots go to out/screens/ for review."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import REGULATIONS
from tests.reach.providers import Provider, serve
from tests.web.server import Server
from tests.web.test_browser import ARGS, CHROMIUM, PHONE, _shot, browser, playwright_api, pytestmark
from yisai.services.accounts import create_user
from yisai.services.context import open_context
from yisai.services.events import create_event
from yisai.services.identity import Role

__all__ = ["ARGS", "CHROMIUM", "browser", "playwright_api", "pytestmark"]

SID, KEY = "AKIDbrowser000000000", "browser-secret-key-0"
NUMBER = "13600007777"


def _code(p: Provider) -> str:
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        for a in p.accepted:
            if a["PhoneNumber"] == f"+86{NUMBER}":
                return str(a["TemplateParamSet"][0])
        time.sleep(0.1)
    raise AssertionError(f"no code reached the provider; refused: {p.refused}")


def test_a_player_signs_in_with_a_code_sent_by_tencent_cloud(browser: Any, tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    db = tmp_path / "sms.sqlite"
    with open_context(str(db)) as ctx, ctx.work() as w:
        event = create_event(w, REGULATIONS / "2025-shanhai-cup.toml", seed=1)
        create_user(w, "ops", "运营", Role.OPERATOR, "operator-password")
    provider = Provider(SID, KEY, "弈赛", {"880001"}, app_id="1400880001")
    with serve("tencent", provider) as p:
        config = tmp_path / "sms.toml"
        config.write_text(f'provider = "tencent"\nsign_name = "弈赛"\napp_id = "1400880001"\n'
                          f'endpoint = "{p.endpoint}"\nscheme = "http"\n'
                          f'[templates]\nsign_in_code = "880001"\n[limits]\nper_client_hour = 3\n', encoding="utf-8")
        monkeypatch.setenv("YISAI_SMS_CONFIG", str(config))
        monkeypatch.setenv("YISAI_SMS_SECRET_ID", SID)
        monkeypatch.setenv("YISAI_SMS_SECRET_KEY", KEY)
        with Server(db, now="2025-05-10T12:00:00", args=("--qualifier", str(event.id))) as server:
            context = browser.new_context(viewport=PHONE, locale="zh-CN")
            page = context.new_page()
            page.goto(server.url + "/play/signin")
            page.fill("#code-form input[name=phone]", NUMBER)
            page.click("#code-form button[type=submit]")
            page.wait_for_selector("p.ok")
            assert "验证码已发送至 136****7777" in page.inner_text("p.ok")
            assert page.locator("a[href='/play/dev/outbox']").count() == 0
            _shot(page, "sms-code-sent-phone")
            page.fill("#signin-form input[name=code]", _code(p))
            page.click("#signin-form button[type=submit]")
            page.wait_for_url(server.url + "/play/profile")
            box = page.locator("form[action='/play/notices'] input[name=sms]")
            assert box.is_checked()
            box.uncheck()
            page.click("form[action='/play/notices'] button[type=submit]")
            page.wait_for_selector("text=短信通知设置已保存")
            assert not page.locator("form[action='/play/notices'] input[name=sms]").is_checked()
            _shot(page, "sms-profile-opt-out-phone")
            context.close()

            ops = browser.new_context(viewport=PHONE, locale="zh-CN")
            console = ops.new_page()
            console.goto(server.url + "/console/login")
            console.fill("input[name=login]", "ops")
            console.fill("input[name=password]", "operator-password")
            console.click("form button[type=submit]")
            console.wait_for_url(server.url + "/console**")
            console.goto(server.url + f"/console/events/{event.id}/notices")
            text = console.inner_text("main")
            assert "腾讯云短信" in text and "登录验证码" in text and "已发送" in text and "136****7777" in text
            assert NUMBER not in console.content()
            _shot(console, "sms-console-notices-phone")
            ops.close()
    assert len([a for a in p.accepted if a["PhoneNumber"] == f"+86{NUMBER}"]) == 1 and p.refused == []
