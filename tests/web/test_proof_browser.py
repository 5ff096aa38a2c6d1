"""The proof before a sign-in code, in a real browser (Debian's chromium) against the real
`yisai serve --qualifier --dev-outbox`: the sign-in page's own script asks for a challenge,
solves it with Web Crypto and posts the form, and the code arrives in the developer outbox;
with JavaScript off the request is refused in words and nothing is sent. Screenshots (1280 px
and 390 px) go to out/screens/ for review."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from tests.conftest import REGULATIONS
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
from yisai.services.context import open_context
from yisai.services.events import create_event

__all__ = ["ARGS", "CHROMIUM", "browser", "playwright_api", "pytestmark"]

BITS = "12"  # by setting: the test's own difficulty (4,096 tries on average)


def test_the_page_solves_the_proof_and_the_code_reaches_the_outbox(browser: Any, tmp_path: Path) -> None:
    db = tmp_path / "proof.sqlite"
    with open_context(str(db)) as ctx, ctx.work() as w:
        event = create_event(w, REGULATIONS / "2025-shanhai-cup.toml", seed=1)
    with Server(db, now="2025-05-10T12:00", args=("--qualifier", str(event.id), "--dev-outbox"),
                env={"YISAI_CODE_PROOF_BITS": BITS}) as server:
        for viewport, number, name in ((DESKTOP, "13600001111", "proof-code-sent"),
                                       (PHONE, "13600002222", "proof-code-sent-phone")):
            context = browser.new_context(viewport=viewport, locale="zh-CN")
            page = context.new_page()
            page.goto(server.url + "/play/signin")
            page.fill("#code-form input[name=phone]", number)
            page.click("#code-form button[type=submit]")
            page.wait_for_selector("p.ok", timeout=60_000)
            assert f"验证码已发送至 {number[:3]}****{number[-4:]}" in page.inner_text("p.ok")
            _shot(page, name)
            outbox = context.new_page()
            outbox.goto(server.url + "/play/dev/outbox")
            row = outbox.locator("tr", has=outbox.locator(f"td.phone:text-is('{number}')")).first
            assert re.search(r"验证码为 ?\d{6}", row.inner_text()), row.inner_text()
            context.close()

        plain = browser.new_context(viewport=PHONE, locale="zh-CN", java_script_enabled=False)
        page = plain.new_page()
        page.goto(server.url + "/play/signin")
        assert "请启用浏览器的JavaScript" in page.inner_text("#code-form")  # said before the try
        page.fill("#code-form input[name=phone]", "13600003333")
        page.click("#code-form button[type=submit]")
        page.wait_for_selector("p.error")
        assert "获取验证码前须完成安全验证" in page.inner_text("p.error")
        _shot(page, "proof-refused-without-script-phone")
        outbox = plain.new_page()
        outbox.goto(server.url + "/play/dev/outbox")
        assert "13600003333" not in outbox.inner_text("body")
        plain.close()
