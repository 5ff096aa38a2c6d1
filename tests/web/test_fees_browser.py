"""Issue 46 in a real browser (Debian's chromium) against the real `yisai serve` configured for
WeChat Pay (YISAI_WECHATPAY_*, keys generated for the test) and the local WeChat Pay server: a
team leader pays his team's fees by QR code, the server's callback books it; the chief referee
pays an appeal fee, upholds the appeal and sees the fee refunded through the refund API.
Screenshots (1280 px and 390 px) go to out/screens/ for review."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.payments.wechat_server import Keys, WeChatPayServer
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
from yisai.services import appeals
from yisai.services.accounts import create_user
from yisai.services.context import open_context
from yisai.services.identity import Actor, Role
from yisai.services.rounds import pair
from yisai.services.settings import Settings
from yisai.services.withdrawal import withdraw_entry
from yisai.store import roster_rows, team_rows

__all__ = ["ARGS", "CHROMIUM", "browser", "playwright_api", "pytestmark"]

PASSWORDS = {"director": "director-password", "ln": "liaoning-password"}
PHONE_UA = ("Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
            "Chrome/124.0.0.0 Mobile Safari/537.36")  # a phone's browser outside WeChat: H5 first


def _login(page: Any, base: str, who: str) -> None:
    page.goto(base + "/console/login")
    page.fill("input[name=login]", who)
    page.fill("input[name=password]", PASSWORDS[who])
    page.click("button[type=submit]")
    page.wait_for_url(base + "/console")


def _deliver(server: Server, pay: WeChatPayServer, trade_no: str) -> None:
    """What WeChat Pay does once the payer has paid: POST the signed, encrypted notification."""
    pay.pay(trade_no)
    headers, body = pay.notification(trade_no)
    r = httpx.post(server.url + "/pay/wechat/notify", content=body, headers=headers, timeout=30)
    assert r.status_code == 204, r.text


def test_a_team_fee_and_an_appeal_fee_paid_and_the_appeal_fee_refunded(browser: Any, tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    db = tmp_path / "fees.sqlite"
    keys = Keys()
    with open_context(Settings(database=str(db), clock=lambda: NOW, actor=Actor.cli("裁判长", Role.CHIEF_REFEREE))) as ctx:
        event = fee_event(ctx, tmp_path)
        with ctx.work() as w:
            team = next(t for t in team_rows.list_teams(w.session, event.id) if t.name == "辽宁队")
            pair(w, event.id, "jia", 1)
            appeal = appeals.file_appeal(w, str(event.id), "jia", 1, appellant="山东队", subject="对第1台判罚有异议")
        with ctx.work(actor=Actor.system()) as w:
            create_user(w, "director", "裁判长", Role.CHIEF_REFEREE, PASSWORDS["director"])
            create_user(w, "ln", "辽宁领队", Role.TEAM_LEADER, PASSWORDS["ln"], event_id=event.id, team_id=int(team.id))
    with WeChatPayServer(keys) as pay:
        for key, value in keys.environment(tmp_path, pay.gateway).items():
            monkeypatch.setenv(key, value)
        with Server(db, now=NOW.isoformat()) as server:
            fees_url = f"{server.url}/console/events/{event.id}/fees"
            leader = browser.new_context(viewport=PHONE, locale="zh-CN", user_agent=PHONE_UA)
            page = leader.new_page()
            _login(page, server.url, "ln")
            page.goto(fees_url)
            assert "山东队" not in page.inner_text("table.fees")
            _shot(page, "fees-leader-phone")
            form = page.locator(f"form[action$='/fees/pay/team/{team.id}']")
            assert form.locator("select[name=mode]").input_value() == "h5"  # a phone's browser: its link first
            form.locator("select[name=mode]").select_option("native")  # the QR code, for a PC
            form.locator("button").click()
            page.wait_for_selector("figure.qr svg")
            assert "2160.00" in page.inner_text("main")  # 600 + 6 × 260 元
            _shot(page, "fees-order-qr-phone")
            (trade_no,) = pay.orders
            _deliver(server, pay, trade_no)
            page.click("text=我已支付, 查询结果")
            page.wait_for_selector("p.ok")
            assert "已支付" in page.inner_text("main")
            page.goto(fees_url)
            assert "0.00" in page.inner_text("table.fees tfoot")
            leader.close()

            with open_context(Settings(database=str(db), clock=lambda: NOW,
                                       actor=Actor.cli("裁判长", Role.CHIEF_REFEREE))) as ctx, ctx.work() as w:
                absent = roster_rows.list_entries(w.session, event.id, player_id=team.members[0].player_id)[0]
                withdraw_entry(w, absent.id, "无故未到场")  # a no-show of 辽宁队, whose 260元 was paid online

            director = browser.new_context(viewport=DESKTOP, locale="zh-CN")
            page = director.new_page()
            _login(page, server.url, "director")
            page.goto(fees_url)
            # the no-show's fee: the regulation keeps it, and the page says so in its words
            row = page.locator("table.fees tr", has=page.locator(
                f"form:has(input[name=kind][value=entry]):has(input[name=id][value='{absent.id}'])"))
            row.locator("summary").click()
            row.locator("input[name=reason]").fill("家长要求退费")
            row.locator("form button").click()
            page.wait_for_selector("p.error[role=alert]")  # back on the ledger page, the reason above it
            assert "报名后无故不参加比赛者，赛事服务费不予退还" in page.inner_text("p.error")
            assert page.url.startswith(fees_url)
            _shot(page, "fees-no-show-refused-desktop")
            assert not any(r.get("refunded") for r in pay.orders.values())  # nothing went to the refund API
            page.goto(fees_url)
            page.click(f"form[action$='/fees/pay/appeal/{appeal.id}'] button")
            page.wait_for_selector("figure.qr svg")
            assert "1000.00" in page.inner_text("main")  # seed 002: 申诉费1000元
            appeal_trade = next(no for no in pay.orders if no != trade_no)
            _deliver(server, pay, appeal_trade)
            page.goto(f"{server.url}/console/events/{event.id}/appeals")
            form = page.locator(f"form[action$='/appeals/{appeal.id}']")
            form.locator("select[name=outcome]").select_option("upheld")
            form.locator("input[name=decision]").fill("裁判判罚有误, 申诉成立")
            form.locator("button").click()
            page.wait_for_selector("p.ok")
            # the decision committed first, then the refund went through the refund API
            assert "已退款 1000.00 元" in page.inner_text("p.ok")
            assert pay.orders[appeal_trade]["refunded"] == 100_000  # through the refund API
            page.goto(fees_url)
            row = page.locator("table.fees tr", has_text="山东队 · 甲组 第1轮")
            # due 1000.00, paid 1000.00, refunded 1000.00, owed 0.00: no pay button again
            assert row.inner_text().split()[-4:] == ["1000.00", "1000.00", "1000.00", "0.00"]
            assert row.locator("form").count() == 0
            refund = page.locator("table.refunds tr", has_text="山东队 · 甲组 第1轮")
            assert "1000.00" in refund.inner_text() and "已退款" in refund.inner_text()
            _shot(page, "fees-director-desktop")
            page.set_viewport_size(PHONE)
            _shot(page, "fees-director-phone")
            director.close()
