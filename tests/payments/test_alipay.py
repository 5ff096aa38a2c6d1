"""Alipay through its official SDK (alipay-sdk-python) against the local protocol-faithful gateway
(``alipay_gateway.py``): page and wap pay orders, the async notification POSTed to the site and
applied once (also twice at the same moment), forged and mismatched notifications refused, the
order queried when its notification was lost and closed after its timeout, the upheld appeal's
fee refunded through alipay.trade.refund, and the day's bill read back. Each test given ``world``
runs for an app in 普通公钥模式 (the 支付宝公钥) and in 公钥证书模式 (the three certificates)."""

from __future__ import annotations

import io
import logging
import threading
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit
from urllib.request import urlopen

import pytest

from tests.payments.alipay_gateway import (
    APP_ID,
    CERTIFICATE,
    PUBLIC_KEY,
    AlipayGateway,
    Keys,
    new_key,
)
from tests.services.fee_event import NOW, fee_event
from yisai.registry.ledger import APPEAL, ENTRY, TEAM
from yisai.services import appeals, fees
from yisai.services.context import Context, Work, open_context
from yisai.services.errors import InputError, Refused
from yisai.services.identity import Actor, Role
from yisai.services.payments import flow, reconcile, refunds
from yisai.services.payments.alipay import (
    alipay_from_environment,
    bill_lines,
    callback_answer,
)
from yisai.services.payments.base import PAGE, BadCallback, ProviderError
from yisai.services.payments.registry import providers_from_environment
from yisai.services.rounds import pair
from yisai.services.settings import Settings
from yisai.store import EventRecord, audit_rows, entry_rows, fee_rows, team_rows
from yisai.vocabulary.money import fen_of_yuan

KEYS = {mode: Keys(mode=mode) for mode in (PUBLIC_KEY, CERTIFICATE)}  # generated once per run, never committed
NOTIFIER = Actor("pay-notify", "支付通知", Role.PLAYER)


class Site:
    """The site's notification address on 127.0.0.1 as ``web/fees.py`` serves it (the body handed
    to ``flow.apply_callback``, Alipay answered ``success`` or ``fail``), with the outcomes kept:
    the gateway POSTs to it over HTTP as Alipay would."""

    def __init__(self) -> None:
        self.ctx: Context | None = None
        self.outcomes: list[str] = []
        site = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                assert site.ctx is not None
                try:
                    with site.ctx.work(actor=NOTIFIER) as work:
                        outcome = flow.apply_callback(work, "alipay", dict(self.headers.items()), body)
                    taken = True  # applied, already applied, not paid, or a mismatch kept in the audit log
                except InputError as exc:
                    outcome, taken = exc.code, False
                site.outcomes.append(outcome)
                status, text = callback_answer(taken)
                self.send_response(status)
                self.send_header("Content-Type", "text/plain")
                self.end_headers()
                self.wfile.write(text.encode())

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/pay/alipay/notify"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@dataclass
class World:
    ctx: Context
    event: EventRecord
    gateway: AlipayGateway
    site: Site
    clock: list  # [now]: moved by a test


@pytest.fixture(params=[PUBLIC_KEY, CERTIFICATE])
def world(request: pytest.FixtureRequest, tmp_path: Path, db_url: str) -> Iterator[World]:
    site = Site()
    try:
        with AlipayGateway(KEYS[request.param]) as gateway:
            clock = [NOW]
            env = gateway.keys.environment(tmp_path, gateway.url, site.url)
            settings = Settings(database=db_url, clock=lambda: clock[0], payments=providers_from_environment(env),
                                actor=Actor.cli("裁判长", Role.CHIEF_REFEREE))
            with open_context(settings) as ctx:
                site.ctx = ctx
                yield World(ctx, fee_event(ctx, tmp_path), gateway, site, clock)
    finally:
        site.stop()


def _team(w: World, name: str) -> int:
    with w.ctx.work() as work:
        return int(next(t for t in team_rows.list_teams(work.session, w.event.id) if t.name == name).id)


def _open_cashier(url: str) -> str:
    """The payer's browser follows the pay link to Alipay's cashier."""
    with urlopen(url, timeout=30) as page:
        return str(page.read().decode("utf-8"))


def _ordered(w: World, team: str, mode: str = PAGE) -> flow.Checkout:
    checkout = flow.pay_team(w.ctx, None, str(w.event.id), _team(w, team), "alipay", mode)
    assert "支付宝收银台" in _open_cashier(checkout.target.url)
    return checkout


def _status(work: Work, out_trade_no: str) -> str:
    order = fee_rows.order_by_trade_no(work.session, out_trade_no)
    assert order is not None
    return order.status


def _ledger(w: World) -> fees.FeeLedger:
    with w.ctx.work() as work:
        return fees.fee_ledger(work, str(w.event.id))


def test_amounts_go_between_yuan_and_fen_by_the_digits() -> None:
    # "2160.00" 元 = 2160 × 100 = 216000 分; "0.01" = 1 分; "1000" = 100000 分
    assert (fen_of_yuan("2160.00"), fen_of_yuan("0.01"), fen_of_yuan("1000")) == (216_000, 1, 100_000)
    assert fen_of_yuan("2160.5") == 216_050  # 2160 × 100 + 50
    assert [fen_of_yuan(t) for t in ("1e3", "2160.001", "-1.00", "", "01.00", "NaN")] == [None] * 6


def test_a_page_pay_order_is_paid_once_though_its_notification_comes_twice_at_once(world: World) -> None:
    checkout = _ordered(world, "辽宁队")
    order = checkout.order
    # 报名费600元 once + 6 players × 赛事服务费260元 = 600 + 1560 = 2160元 = 216000 分
    assert order.amount_fen == 216_000 and len(order.items) == 7
    trade = world.gateway.trades[order.out_trade_no]
    assert (trade["total"], trade["kind"], trade["notify_url"]) == (216_000, "FAST_INSTANT_TRADE_PAY", world.site.url)
    assert world.gateway.refused == []

    world.gateway.pay(order.out_trade_no)
    params = world.gateway.notification(order.out_trade_no)
    answers: list[tuple[int, str]] = []
    start = threading.Barrier(2)

    def deliver() -> None:
        start.wait(timeout=30)
        answers.append(world.gateway.deliver(order.out_trade_no, params))

    threads = [threading.Thread(target=deliver) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert answers == [(200, "success"), (200, "success")]  # both taken: Alipay stops sending
    assert sorted(world.site.outcomes) == [flow.APPLIED, flow.DUPLICATE]
    ledger = _ledger(world)
    team = _team(world, "辽宁队")
    assert next((ln.paid, ln.balance) for ln in ledger.of(TEAM) if ln.id == team) == (60_000, 0)
    paid_entries = [ln for ln in ledger.of(ENTRY) if ln.paid]
    assert len(paid_entries) == 6 and all(ln.paid == 26_000 for ln in paid_entries)
    assert len(ledger.payments) == 7 and {p.channel for p in ledger.payments} == {"alipay"}
    assert {p.transaction_id for p in ledger.payments} == {trade["trade_no"]}
    with world.ctx.work() as work:
        assert sum(entry_rows.get_entry(work.session, ln.id).fee_paid for ln in paid_entries) == 6  # 已缴费, as by hand
    # a later notification of the same trade (a new notify_id, e.g. TRADE_FINISHED) books nothing more
    later = world.gateway.notification(order.out_trade_no, override={"trade_status": "TRADE_FINISHED"})
    assert world.gateway.deliver(order.out_trade_no, later) == (200, "success")
    assert world.site.outcomes[-1] == flow.DUPLICATE and len(_ledger(world).payments) == 7


def test_forged_wrong_amount_and_other_app_notifications_change_nothing(world: World) -> None:
    order = _ordered(world, "辽宁队", mode="h5").order
    assert world.gateway.trades[order.out_trade_no]["kind"] == "QUICK_WAP_WAY"
    world.gateway.pay(order.out_trade_no)
    forged = world.gateway.notification(order.out_trade_no, signer=new_key())  # not Alipay's key
    assert world.gateway.deliver(order.out_trade_no, forged) == (400, "fail")
    tampered = world.gateway.notification(order.out_trade_no) | {"total_amount": "0.01"}  # changed after signing
    assert world.gateway.deliver(order.out_trade_no, tampered) == (400, "fail")
    assert world.site.outcomes == ["bad_callback", "bad_callback"]
    # signed by Alipay's key, but 0.01元 = 1 分 where 216000 分 are due, or for another app / seller
    for override in ({"total_amount": "0.01"}, {"app_id": "2021000149600099"}, {"seller_id": "2088000000000999"}):
        params = world.gateway.notification(order.out_trade_no, override=override)
        assert world.gateway.deliver(order.out_trade_no, params) == (200, "success")  # ignored, not sent again
    assert world.site.outcomes[2:] == [flow.MISMATCH] * 3
    with world.ctx.work() as work:
        assert fees.fee_ledger(work, str(world.event.id)).payments == []
        assert _status(work, order.out_trade_no) == "open"
        assert [a.action for a in audit_rows.audit_log(work.session, world.event.id, "order")].count("order_mismatch") == 3


def test_a_lost_notification_is_settled_by_query_and_an_unpaid_order_closed_after_its_timeout(world: World) -> None:
    paid = _ordered(world, "辽宁队").order
    # the payer never opens this one's cashier: Alipay does not know it
    never_opened = flow.pay_team(world.ctx, None, str(world.event.id), _team(world, "山东队"), "alipay", PAGE).order
    world.gateway.pay(paid.out_trade_no)  # paid; the notification is lost
    assert flow.settle_open_orders(world.ctx) == {"paid": 1, "closed": 0, "open": 1}
    assert world.gateway.calls.count("alipay.trade.query") == 2
    world.clock[0] = NOW + timedelta(minutes=31)  # the order's 30 minutes are over
    assert flow.settle_open_orders(world.ctx) == {"paid": 0, "closed": 1, "open": 0}
    with world.ctx.work() as work:
        assert _status(work, never_opened.out_trade_no) == "closed"
        assert _status(work, paid.out_trade_no) == "paid"
    assert world.gateway.calls[-1] == "alipay.trade.close"  # asked, though Alipay answers TRADE_NOT_EXIST
    ledger = _ledger(world)
    assert len(ledger.payments) == 7 and ledger.totals_of(TEAM).paid == 60_000  # one team's 600元
    assert world.site.outcomes == []  # no notification came at all


def test_an_opened_cashier_left_unpaid_is_closed_at_alipay(world: World) -> None:
    order = _ordered(world, "山东队").order
    world.clock[0] = NOW + timedelta(minutes=30)  # created at NOW, 30 minutes to pay: over at NOW + 30
    assert flow.settle_open_orders(world.ctx) == {"paid": 0, "closed": 1, "open": 0}
    assert world.gateway.trades[order.out_trade_no]["state"] == "TRADE_CLOSED"


def _paid_appeal(world: World) -> tuple[int, str]:
    with world.ctx.work() as work:
        pair(work, world.event.id, "jia", 1)
        filed = appeals.file_appeal(work, str(world.event.id), "jia", 1, appellant="辽宁队", subject="对判罚有异议")
    checkout = flow.pay_appeal(world.ctx, None, str(world.event.id), filed.id, "alipay", "h5")
    order = checkout.order
    assert order.amount_fen == 100_000  # seed 002: 申诉费1000元 = 100000 分
    _open_cashier(checkout.target.url)
    world.gateway.pay(order.out_trade_no)
    assert world.gateway.deliver(order.out_trade_no, world.gateway.notification(order.out_trade_no)) == (200, "success")
    return filed.id, order.out_trade_no


def test_an_upheld_appeals_fee_goes_back_through_the_refund_api(world: World) -> None:
    appeal, trade_no = _paid_appeal(world)
    with world.ctx.work() as work:
        appeals.decide_appeal(work, str(world.event.id), appeal, upheld=True, decision="裁判判罚有误")
    assert "alipay.trade.refund" not in world.gateway.calls  # not inside the decision's transaction
    (sent,) = refunds.send_requested_refunds(world.ctx, None, str(world.event.id))  # after its commit
    assert sent.status == "done"
    # upheld: the decision itself gives the whole 1000元 back the way it came: one alipay.trade.refund of "1000.00" with our out_request_no
    ((refunded_trade, request_no), amount), = world.gateway.refunds.items()
    assert (refunded_trade, amount) == (trade_no, 100_000) and request_no.startswith("RF")
    with world.ctx.work() as work:
        line = fees.subject_line(work, world.event, APPEAL, appeal)
        # due 1000元 - paid 1000元 = 0 owed: a refund never makes the fee owed again
        assert (line.paid, line.refunded, line.balance) == (100_000, 100_000, 0)
        (refund,) = fees.fee_ledger(work, str(world.event.id)).refunds
        assert (refund.channel, refund.status, refund.decided_by) == ("alipay", "done", "裁判长")
        assert refund.out_refund_no == request_no
        assert refund.provider_refund_id == world.gateway.trades[trade_no]["trade_no"]
    # the day's bill (alipay.data.dataservice.bill.downloadurl.query, then the zip): the payment and its refund
    provider = world.ctx.settings.payments.get("alipay")
    assert provider is not None
    lines = provider.bill(NOW.date())
    assert [(ln.out_trade_no, ln.amount_fen, ln.state) for ln in lines] == [
        (trade_no, 100_000, "SUCCESS"), (trade_no, -100_000, "REFUND")]


def _upheld_and_sent(world: World, appeal: int) -> fee_rows.RefundRecord:
    """The chief referee upholds the appeal (its transaction), then the refund is sent (after it)."""
    with world.ctx.work() as work:
        appeals.decide_appeal(work, str(world.event.id), appeal, upheld=True, decision="裁判判罚有误")
    (sent,) = refunds.send_requested_refunds(world.ctx, None, str(world.event.id))
    return sent


def _appeal_line(world: World, appeal: int) -> tuple[int, int]:
    with world.ctx.work() as work:
        line = fees.subject_line(work, world.event, APPEAL, appeal)
    return line.paid, line.refunded


def test_a_refund_with_fund_change_n_is_queried_until_alipay_says_refund_success(world: World) -> None:
    appeal, trade_no = _paid_appeal(world)
    world.gateway.refunds_pending = True  # Alipay takes the refund, the money not moved yet: fund_change = N
    processing = _upheld_and_sent(world, appeal)
    assert processing.status == "processing" and processing.out_refund_no is not None
    assert _appeal_line(world, appeal) == (100_000, 100_000)  # on its way: counted, never given twice
    timer = Actor.system()
    # alipay.trade.fastpay.refund.query answers without refund_status ("退款请求未收到或者退款失败"): the
    # refund is sent again with the same out_request_no, as Alipay's document says; Alipay holds it: N again
    assert refunds.settle_refunds(world.ctx, timer) == {"processing": 0, "done": 0, "failed": 0, "unchanged": 1}
    assert world.gateway.calls[-2:] == ["alipay.trade.fastpay.refund.query", "alipay.trade.refund"]
    world.gateway.finish_refunds()
    assert refunds.settle_refunds(world.ctx, timer) == {"processing": 0, "done": 1, "failed": 0, "unchanged": 0}
    assert world.gateway.calls[-1] == "alipay.trade.fastpay.refund.query"  # REFUND_SUCCESS
    assert [r.status for r in _ledger(world).refunds] == ["done"]
    # sent twice, refunded once: 1000.00 of the trade's 1000.00
    assert world.gateway.refunds == {(trade_no, processing.out_refund_no): 100_000}
    assert world.gateway.trades[trade_no]["refunded"] == 100_000


def test_alipay_unreachable_leaves_the_refund_requested_and_a_refusal_fails_it(world: World) -> None:
    appeal, trade_no = _paid_appeal(world)
    world.gateway.down = True
    kept = _upheld_and_sent(world, appeal)
    assert kept.status == "requested" and world.gateway.refunds == {}
    timer = Actor.system()
    assert refunds.settle_refunds(world.ctx, timer)["unchanged"] == 1  # still down: asked again next time
    world.gateway.down = False
    world.gateway.refuse_refunds = ("40004", "ACQ.SELLER_BALANCE_NOT_ENOUGH", "卖家余额不足")
    assert refunds.settle_refunds(world.ctx, timer)["failed"] == 1
    (failed,) = _ledger(world).refunds
    assert failed.status == "failed" and "ACQ.SELLER_BALANCE_NOT_ENOUGH" in failed.message
    assert _appeal_line(world, appeal) == (100_000, 0) and world.gateway.trades[trade_no]["refunded"] == 0


def test_a_request_not_signed_by_the_apps_key_is_refused_by_the_gateway(world: World, tmp_path: Path) -> None:
    keys = world.gateway.keys
    if keys.chain is None:  # a key Alipay does not know
        env, refusal = keys.environment(tmp_path, world.gateway.url, world.site.url, app=new_key()), "isv.invalid-signature"
    else:  # 公钥证书模式: a key Alipay does not know comes in a certificate it never issued, named by its SN
        env = keys.other_app_cert(new_key()).environment(tmp_path, world.gateway.url, world.site.url)
        refusal = "isv.app-cert-not-exist"
    provider = alipay_from_environment(env)
    with pytest.raises(ProviderError) as info:
        provider.query("YS1T1ABCDEF")
    assert refusal in info.value.text.zh and world.gateway.refused == [refusal]
    # an answer not signed by Alipay's key is refused by the SDK: a provider given another 支付宝公钥 (or a
    # certificate of the same names and serials, so of the same SNs, for another key)
    other = Keys(app=keys.app, mode=keys.mode)
    provider = alipay_from_environment(other.environment(tmp_path, world.gateway.url, world.site.url))
    with pytest.raises(ProviderError) as info:
        provider.query("YS1T1ABCDEF")
    assert "应答签名验证失败" in info.value.text.zh


def test_the_settings_read_keys_from_files_and_name_what_is_missing(tmp_path: Path) -> None:
    env = KEYS[PUBLIC_KEY].environment(tmp_path, "https://openapi.alipay.com/gateway.do", "https://yisai.example/pay/alipay/notify",
                           pkcs8=True)  # the key tool's bare base64 PKCS#8 is read too
    provider = alipay_from_environment(env)
    assert provider.merchant_id == APP_ID and repr(provider) == f"AlipayProvider(app_id={APP_ID})"
    assert "PRIVATE" not in repr(providers_from_environment(env))
    for missing in ("YISAI_ALIPAY_NOTIFY_URL", "YISAI_ALIPAY_PRIVATE_KEY_FILE"):
        with pytest.raises((ProviderError, InputError)) as info:
            alipay_from_environment({k: v for k, v in env.items() if k != missing})
        assert missing in info.value.text.zh
    (tmp_path / "bad.txt").write_text("not a key")
    with pytest.raises(ProviderError) as info:
        alipay_from_environment(env | {"YISAI_ALIPAY_PUBLIC_KEY_FILE": str(tmp_path / "bad.txt")})
    assert "YISAI_ALIPAY_PUBLIC_KEY_FILE" in info.value.text.zh and "not a key" not in info.value.text.zh
    assert not providers_from_environment({k: v for k, v in env.items() if k != "YISAI_ALIPAY_APP_ID"})


def test_without_alipay_configured_it_is_not_offered(tmp_path: Path) -> None:
    with open_context(str(tmp_path / "f.sqlite"), actor="裁判长", now=NOW) as ctx:
        event = fee_event(ctx, tmp_path)
        with ctx.work() as work:
            assert flow.offered(work) == []
        with pytest.raises(Refused) as info:
            flow.pay_team(ctx, None, str(event.id), 1, "alipay", PAGE)
    assert info.value.code == "provider_not_configured"


def test_the_pay_link_carries_the_signed_order_and_no_secret_is_logged(world: World, tmp_path: Path,
                                                                        caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    checkout = _ordered(world, "辽宁队")
    world.gateway.pay(checkout.order.out_trade_no)
    assert flow.settle_open_orders(world.ctx)["paid"] == 1  # a query too: signed request, signed answer
    private = (tmp_path / "app_private_key.txt").read_text().splitlines()[1]  # a line of the key's base64
    assert private not in caplog.text and "sign=" not in caplog.text
    query = dict(parse_qsl(urlsplit(checkout.target.url).query))
    assert query["method"] == "alipay.trade.page.pay" and query["sign_type"] == "RSA2" and query["app_id"] == APP_ID
    assert '"total_amount":"2160.00"' in query["biz_content"]  # 216000 分 sent as yuan with two decimals
    assert '"time_expire":"2025-04-10 09:30:00"' in query["biz_content"]  # NOW + 30 minutes, Beijing time


def test_malformed_notifications_and_bills_are_refused_without_a_crash(world: World) -> None:
    provider = world.ctx.settings.payments.get("alipay")
    assert provider is not None
    order = _ordered(world, "辽宁队").order
    world.gateway.pay(order.out_trade_no)
    good = world.gateway.notification(order.out_trade_no)
    bodies = [b"", b"\xff\xfe", b"%%%&&=", b"sign=x&sign_type=RSA2&sign=y",  # nothing, not ASCII, not a form, twice
              urlencode(good | {"sign_type": "RSA"}).encode(),  # RSA (SHA1) is not what the app signed up for
              urlencode({k: v for k, v in good.items() if k != "sign"}).encode(),  # no sign at all
              urlencode(good | {"sign": "not base64!"}).encode()]
    for body in bodies:
        with pytest.raises(BadCallback):
            provider.parse_callback({}, body)
    assert provider.parse_callback({}, urlencode(good).encode()).amount_fen == 216_000  # the good one reads
    for raw in (b"not a zip", b""):
        with pytest.raises(ProviderError):
            bill_lines(raw)
    bad = io.BytesIO()  # a trade row whose amount is not yuan: refused, never silently left out
    with zipfile.ZipFile(bad, "w") as bundle:
        bundle.writestr("x_业务明细.csv", "支付宝交易号,商户订单号,业务类型,订单金额（元）\n2025041022001,YS1,交易,2160,00\n"
                        .replace("2160,00", "二千").encode("gbk"))
    with pytest.raises(ProviderError, match="bad amount"):
        bill_lines(bad.getvalue())


def test_the_days_bill_is_matched_against_the_ledger(world: World) -> None:
    booked, lost = _ordered(world, "辽宁队").order, _ordered(world, "山东队").order
    for order in (booked, lost):
        world.gateway.pay(order.out_trade_no)
    assert world.gateway.deliver(booked.out_trade_no, world.gateway.notification(booked.out_trade_no)) == (
        200, "success")
    with world.ctx.work() as work:  # the other's notification was lost and no query ran yet
        (difference,) = reconcile.reconcile(work, "alipay", NOW.date())
    # 山东队: 报名费600元 + 6 × 260元 = 2160元 = 216000 分, in Alipay's bill, not booked here
    assert (difference.out_trade_no, difference.kind, difference.theirs_fen) == (lost.out_trade_no, "not_booked",
                                                                                 216_000)
    assert flow.settle_open_orders(world.ctx)["paid"] == 1
    with world.ctx.work() as work:
        assert reconcile.reconcile(work, "alipay", NOW.date()) == []
