"""The console's fee ledger (issue 46) over HTTP: a team leader pays his team's fees through
WeChat Pay (the SDK against the local server), the callback route books it once; the other
team's leader is refused; forged, oversized callbacks are refused; the director exports the
ledger; without a provider only the manual 已缴费 path is offered."""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import openpyxl
import pytest
from fastapi.testclient import TestClient

from tests.payments.wechat_server import Keys, WeChatPayServer, new_key
from tests.services.fee_event import NOW, fee_event
from yisai.services.accounts import create_user
from yisai.services.context import open_context
from yisai.services.identity import Actor, Role
from yisai.services.payments.registry import Providers, providers_from_environment
from yisai.services.settings import Settings
from yisai.store import team_rows
from yisai.web.app import create_app

KEYS = Keys()
PASSWORDS = {"director": "director-password", "ln": "liaoning-password", "sd": "shandong-password"}


@dataclass
class Site:
    app_client: TestClient
    server: WeChatPayServer | None
    event_id: int
    teams: dict[str, int]

    def login(self, who: str) -> TestClient:
        c = TestClient(self.app_client.app)
        token = _csrf(c, "/console/login")
        r = c.post("/console/login", data={"login": who, "password": PASSWORDS[who], "csrf": token},
                   follow_redirects=False)
        assert r.status_code == 303, r.text
        return c


def _csrf(c: TestClient, path: str) -> str:
    m = re.search(r'name="csrf" value="([^"]+)"', c.get(path).text)
    assert m
    return m.group(1)


def _build(tmp_path: Path, providers: Providers, server: WeChatPayServer | None,
           team_fee: bool = True) -> Iterator[Site]:
    db = str(tmp_path / "fees.sqlite")
    with open_context(Settings(database=db, clock=lambda: NOW, actor=Actor.cli("裁判长", Role.CHIEF_REFEREE))) as ctx:
        event = fee_event(ctx, tmp_path, team_fee)
        with ctx.work() as w:
            teams = {t.name: int(t.id) for t in team_rows.list_teams(w.session, event.id)}
        with ctx.work(actor=Actor.system()) as w:
            create_user(w, "director", "裁判长", Role.CHIEF_REFEREE, PASSWORDS["director"])
            create_user(w, "ln", "辽宁领队", Role.TEAM_LEADER, PASSWORDS["ln"], event_id=event.id, team_id=teams["辽宁队"])
            create_user(w, "sd", "山东领队", Role.TEAM_LEADER, PASSWORDS["sd"], event_id=event.id, team_id=teams["山东队"])
    app = create_app(Settings(database=db, clock=lambda: NOW, payments=providers), secret="s", refresh_seconds=0)
    with TestClient(app) as client:
        yield Site(client, server, event.id, teams)


@pytest.fixture
def site(tmp_path: Path) -> Iterator[Site]:
    with WeChatPayServer(KEYS) as server:
        yield from _build(tmp_path, providers_from_environment(KEYS.environment(tmp_path, server.gateway)), server)


def test_a_team_with_no_team_fee_still_pays_its_members_entries(tmp_path: Path) -> None:
    """No 报名费 per team, 赛事服务费260元 per player: the leader's panel owes 6 × 260 = 1560 元."""
    with WeChatPayServer(KEYS) as server:
        for site in _build(tmp_path, providers_from_environment(KEYS.environment(tmp_path, server.gateway)), server,
                           team_fee=False):
            page = site.login("ln").get(f"/console/events/{site.event_id}/fees").text
            assert "<h3>辽宁队: 应缴 1560.00 元</h3>" in page and "缴纳本队费用" in page


def test_a_team_leader_pays_by_qr_code_and_the_callback_marks_the_team_paid(site: Site) -> None:
    ln = site.login("ln")
    fees_url = f"/console/events/{site.event_id}/fees"
    page = ln.get(fees_url).text
    assert "辽宁队" in page and "山东队" not in page  # the own team's lines only
    assert "缴纳本队费用" in page and "<h3>辽宁队: 应缴 2160.00 元</h3>" in page  # 600 + 6 × 260 = 2160 元 owed
    team = site.teams["辽宁队"]
    r = ln.post(f"{fees_url}/pay/team/{team}", data={"csrf": _csrf(ln, fees_url), "provider": "wechat",
                                                     "mode": "native"}, follow_redirects=False)
    assert r.status_code == 303, r.text
    order_url = r.headers["location"]
    order_page = ln.get(order_url).text
    assert "<svg" in order_page and "请用微信扫一扫支付" in order_page and "2160.00" in order_page
    assert site.server is not None
    (trade_no,) = site.server.orders
    site.server.pay(trade_no)
    headers, body = site.server.notification(trade_no)
    anyone = TestClient(site.app_client.app)  # the provider has no session and no CSRF token
    assert anyone.post("/pay/wechat/notify", content=body, headers=headers).status_code == 204
    assert anyone.post("/pay/wechat/notify", content=body, headers=headers).status_code == 204  # again: once
    page = ln.get(fees_url).text
    assert "已支付" in page and "2160.00" in page
    entries = site.login("director").get(f"/console/events/{site.event_id}/entries").text
    assert entries.count("260元 已缴") == 6


def test_the_other_leader_cannot_pay_for_a_team_that_is_not_his(site: Site) -> None:
    sd = site.login("sd")
    fees_url = f"/console/events/{site.event_id}/fees"
    r = sd.post(f"{fees_url}/pay/team/{site.teams['辽宁队']}", data={"csrf": _csrf(sd, fees_url),
                                                                     "provider": "wechat", "mode": "native"},
                follow_redirects=False)
    assert r.status_code == 403 and "领队只能为本队缴费" in r.text
    assert site.server is not None and site.server.orders == {}


def test_forged_and_oversized_callbacks_are_refused(site: Site) -> None:
    ln = site.login("ln")
    fees_url = f"/console/events/{site.event_id}/fees"
    ln.post(f"{fees_url}/pay/team/{site.teams['辽宁队']}", data={"csrf": _csrf(ln, fees_url), "provider": "wechat",
                                                                 "mode": "h5"}, follow_redirects=False)
    assert site.server is not None
    (trade_no,) = site.server.orders
    site.server.pay(trade_no)
    anyone = TestClient(site.app_client.app)
    headers, body = site.server.notification(trade_no, signer=new_key())
    r = anyone.post("/pay/wechat/notify", content=body, headers=headers)
    assert r.status_code == 400 and r.json()["code"] == "FAIL"
    r = anyone.post("/pay/wechat/notify", content=b"{" + b" " * (70 * 1024) + b"}",
                    headers={"Content-Type": "application/json"})
    assert r.status_code == 413  # 64 KB for a callback (web/bodies.py)
    assert anyone.post("/pay/alipay/notify", content=body, headers=headers).status_code == 400  # not configured
    page = ln.get(fees_url).text
    assert "待支付" in page and "已支付" not in page  # nothing booked


def test_the_director_exports_the_ledger(site: Site) -> None:
    director = site.login("director")
    r = director.get(f"/console/events/{site.event_id}/fees.csv")
    assert r.status_code == 200
    rows = list(csv.reader(io.StringIO(r.content.decode("utf-8-sig"))))
    assert rows[0] == ["类别", "编号", "名称", "应缴(元)", "已缴(元)", "已退(元)", "未缴(元)"]
    # 12 entries × 260 + 2 teams × 600 = 3120 + 1200 = 4320 元 due, none paid
    assert rows[-1] == ["合计", "", "", "4320.00", "0.00", "0.00", "4320.00"]
    book = openpyxl.load_workbook(io.BytesIO(director.get(f"/console/events/{site.event_id}/fees.xlsx").content))
    sheet = book.active
    assert sheet is not None
    values = [[c.value for c in row] for row in sheet.iter_rows()]
    assert values[-1][3:] == ["4320.00", "0.00", "0.00", "4320.00"] and len(values) == 2 + 14 + 1
    assert site.login("ln").get(f"/console/events/{site.event_id}/fees.csv").status_code == 403


def test_without_a_provider_only_the_manual_path_is_offered(tmp_path: Path) -> None:
    for s in _build(tmp_path, Providers(), None):
        ln = s.login("ln")
        page = ln.get(f"/console/events/{s.event_id}/fees").text
        assert "本站未开通在线支付" in page and "缴纳本队费用" not in page
        r = ln.post(f"/console/events/{s.event_id}/fees/pay/team/{s.teams['辽宁队']}",
                    data={"csrf": _csrf(ln, f"/console/events/{s.event_id}/fees"), "provider": "wechat",
                          "mode": "native"}, follow_redirects=False)
        assert r.status_code == 409 and "该支付方式未开通" in r.text


def test_the_director_sees_the_bills_differences_and_a_leader_may_not(site: Site) -> None:
    ln = site.login("ln")
    fees_url = f"/console/events/{site.event_id}/fees"
    ln.post(f"{fees_url}/pay/team/{site.teams['辽宁队']}", data={"csrf": _csrf(ln, fees_url), "provider": "wechat",
                                                                 "mode": "native"}, follow_redirects=False)
    assert site.server is not None
    (trade_no,) = site.server.orders
    site.server.pay(trade_no)  # paid at WeChat Pay, no callback, nobody asked yet
    director = site.login("director")
    page = director.get(f"{fees_url}/reconcile", params={"provider": "wechat", "day": NOW.date().isoformat()}).text
    assert "有 1 处不一致" in page and f"订单 {trade_no}: 账单中已支付 2160.00 元, 本站未记为当日已支付" in page
    assert ln.get(f"{fees_url}/reconcile", params={"day": NOW.date().isoformat()}).status_code == 403
    assert director.get(f"{fees_url}/reconcile", params={"day": "昨天"}).status_code == 400


def test_an_order_the_provider_refuses_is_shown_failed(tmp_path: Path) -> None:
    with WeChatPayServer(KEYS) as server:  # the merchant's key is one WeChat Pay does not know: SIGN_ERROR
        env = KEYS.environment(tmp_path, server.gateway, merchant=new_key())
        for site in _build(tmp_path, providers_from_environment(env), server):
            ln = site.login("ln")
            fees_url = f"/console/events/{site.event_id}/fees"
            r = ln.post(f"{fees_url}/pay/team/{site.teams['辽宁队']}",
                        data={"csrf": _csrf(ln, fees_url), "provider": "wechat", "mode": "native"},
                        follow_redirects=False)
            assert r.status_code >= 400 and "SIGN_ERROR" in r.text and server.orders == {}
            page = ln.get(fees_url).text
            assert "未能下单" in page  # the order row was committed first, then marked failed
            trade_no = re.search(r"/fees/orders/(YS\w+)", page)
            assert trade_no is not None
            shown = ln.get(f"{fees_url}/orders/{trade_no.group(1)}").text
            assert "支付平台未能下单" in shown and "请用微信扫一扫支付" not in shown


def test_a_refund_decided_on_the_page_is_sent_after_its_commit_and_its_notification_finishes_it(site: Site) -> None:
    assert site.server is not None
    ln, director = site.login("ln"), site.login("director")
    fees_url = f"/console/events/{site.event_id}/fees"
    ln.post(f"{fees_url}/pay/team/{site.teams['辽宁队']}", data={"csrf": _csrf(ln, fees_url), "provider": "wechat",
                                                                 "mode": "native"}, follow_redirects=False)
    (trade_no,) = site.server.orders
    site.server.pay(trade_no)
    anyone = TestClient(site.app_client.app)
    headers, body = site.server.notification(trade_no)
    assert anyone.post("/pay/wechat/notify", content=body, headers=headers).status_code == 204
    site.server.refund_status = "PROCESSING"  # WeChat Pay takes the refund, pays it out later
    r = director.post(f"{fees_url}/refund", data={"csrf": _csrf(director, fees_url), "kind": "team",
                                                  "id": str(site.teams["辽宁队"]), "amount": "600",
                                                  "reason": "组委会同意退还队费"})
    assert r.status_code == 200 and "退款处理中 600.00 元" in r.text  # 报名费600元 = 60000 分
    (no,) = site.server.refunds
    assert site.server.refunds[no]["refund"] == 60_000
    refunds_table = r.text.split('<table class="refunds">')[1].split("</table>")[0]
    assert "辽宁队" in refunds_table and "退款处理中" in refunds_table and "组委会同意退还队费" in refunds_table
    site.server.finish_refund(no, "SUCCESS")
    headers, body = site.server.refund_notification(no)  # 退款结果通知 on the payments' callback address
    assert anyone.post("/pay/wechat/notify", content=body, headers=headers).status_code == 204
    page = director.get(fees_url).text
    refunds_table = page.split('<table class="refunds">')[1].split("</table>")[0]
    assert "已退款" in refunds_table and "退款处理中" not in refunds_table
    assert "组委会同意退还队费" in ln.get(fees_url).text  # the team's own leader sees its refund
    assert "组委会同意退还队费" not in site.login("sd").get(fees_url).text  # the other team's does not
