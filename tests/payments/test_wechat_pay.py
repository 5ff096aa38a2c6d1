"""WeChat Pay API v3 through the SDK (wechatpayv3) against the local protocol-faithful server
(``wechat_server.py``): orders, callbacks applied once (also by two threads at once), forged and
mismatched callbacks refused, orders queried when no callback came and closed after their
timeout, the appeal fee refunded through the refund API when upheld and kept when dismissed.
Each test runs for a merchant in public-key mode (微信支付公钥) and in platform-certificate mode
(平台证书, downloaded from ``/v3/certificates``)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path

import pytest

from tests.hangs import no_hang
from tests.payments.wechat_server import CERTIFICATE, PUBLIC_KEY, Keys, WeChatPayServer, new_key
from tests.services.fee_event import NOW, fee_event
from yisai.registry.ledger import APPEAL, ENTRY, TEAM
from yisai.services import appeals, fees
from yisai.services.context import Context, open_context
from yisai.services.errors import InputError, Refused
from yisai.services.identity import Action, Actor, Role
from yisai.services.payments import flow, refunds
from yisai.services.payments.reconcile import reconcile
from yisai.services.payments.registry import providers_from_environment
from yisai.services.rounds import pair
from yisai.services.settings import Settings
from yisai.services.withdrawal import withdraw_entry
from yisai.store import EventRecord, audit_rows, entry_rows, team_rows

KEYS = {mode: Keys(mode=mode) for mode in (PUBLIC_KEY, CERTIFICATE)}  # generated once per run, never committed
NOTIFIER = Actor("pay-notify", "支付通知", Role.PLAYER)


@dataclass
class World:
    ctx: Context
    event: EventRecord
    server: WeChatPayServer
    clock: list  # [now]: moved by a test


@pytest.fixture(params=[PUBLIC_KEY, CERTIFICATE])
def world(request: pytest.FixtureRequest, tmp_path: Path, db_url: str) -> Iterator[World]:
    with WeChatPayServer(KEYS[request.param]) as server:
        env = server.keys.environment(tmp_path, server.gateway)
        clock = [NOW]
        settings = Settings(database=db_url, clock=lambda: clock[0],
                            payments=providers_from_environment(env), actor=Actor.cli("裁判长", Role.CHIEF_REFEREE))
        with open_context(settings) as ctx:
            yield World(ctx, fee_event(ctx, tmp_path), server, clock)


def _team(w: World, name: str) -> int:
    with w.ctx.work() as work:
        return int(next(t for t in team_rows.list_teams(work.session, w.event.id) if t.name == name).id)


def _leader(w: World, team_id: int) -> Actor:
    return Actor("7", "辽宁领队", Role.TEAM_LEADER, team=str(team_id), event=w.event.id)


def _callback(w: World, headers: dict[str, str], body: bytes) -> str:
    with w.ctx.work(actor=NOTIFIER) as work:
        return flow.apply_callback(work, "wechat", headers, body)


def test_a_team_leader_pays_his_team_by_native_qr_and_the_callback_books_it_once(world: World) -> None:
    team = _team(world, "辽宁队")
    checkout = flow.pay_team(world.ctx, _leader(world, team), str(world.event.id), team, "wechat", "native")
    order = checkout.order
    # what the team owes: 报名费600元 once + 6 players × 赛事服务费260元 = 600 + 1560 = 2160元 = 216000 分
    assert order.amount_fen == 216_000 and len(order.items) == 7
    assert world.server.orders[order.out_trade_no]["total"] == 216_000  # the SDK sent 分, signed
    assert checkout.target.url.startswith("weixin://wxpay/bizpayurl?pr=")
    assert world.server.refused == []

    world.server.pay(order.out_trade_no)
    headers, body = world.server.notification(order.out_trade_no)
    assert _callback(world, headers, body) == flow.APPLIED
    assert _callback(world, headers, body) == flow.DUPLICATE  # delivered again: applied once
    with world.ctx.work() as work:
        ledger = fees.fee_ledger(work, str(world.event.id))
        liaoning = next(ln for ln in ledger.of(TEAM) if ln.id == team)
        assert (liaoning.paid, liaoning.balance) == (60_000, 0)
        paid_entries = [ln for ln in ledger.of(ENTRY) if ln.paid]
        assert len(paid_entries) == 6 and all(ln.paid == 26_000 for ln in paid_entries)
        assert len(ledger.payments) == 7 and {p.channel for p in ledger.payments} == {"wechat"}
        assert {p.transaction_id for p in ledger.payments} == {world.server.orders[order.out_trade_no]["transaction_id"]}
        assert sum(entry_rows.get_entry(work.session, ln.id).fee_paid for ln in paid_entries) == 6  # 已缴费, as by hand
        assert [a.action for a in audit_rows.audit_log(work.session, world.event.id, "order")] == ["order_created", "order_paid"]


def test_a_slow_provider_blocks_no_other_writer(world: World) -> None:
    """The order is committed before WeChat Pay is asked: while the provider has not answered, no
    database transaction is open, so another writer (on SQLite: the file's one write lock) goes on."""
    team = _team(world, "辽宁队")
    world.server.hold = threading.Event()
    done: list[flow.Checkout] = []
    payer = threading.Thread(target=lambda: done.append(
        flow.pay_team(world.ctx, _leader(world, team), str(world.event.id), team, "wechat", "native")))
    payer.start()
    try:
        assert world.server.arrived.wait(300)  # the provider is being asked and does not answer yet
        with no_hang(120), world.ctx.work() as work:  # another writer, while the provider is slow
            audit_rows.audit(work.session, work.stamp, world.event.id, "note", "event", world.event.id, None, {"text": "另一位裁判的修改"})
        with world.ctx.work() as work:
            (pending,) = flow.orders(work, str(world.event.id))
            assert pending.status == "open" and pending.pay_url == ""  # stored, the provider's answer not yet
    finally:
        world.server.hold.set()
        payer.join(300)
    (checkout,) = done
    with world.ctx.work() as work:
        (order,) = flow.orders(work, str(world.event.id))
    assert order.pay_url == checkout.target.url and order.pay_url.startswith("weixin://")


def test_asking_a_slow_provider_about_an_open_order_blocks_no_other_writer(world: World) -> None:
    """The payer's 「我已支付, 查询结果」 and the server's timer ask the provider between transactions."""
    team = _team(world, "辽宁队")
    order = flow.pay_team(world.ctx, None, str(world.event.id), team, "wechat", "native").order
    world.server.pay(order.out_trade_no)  # paid; the callback never comes
    world.server.hold = threading.Event()
    done: list[str] = []
    asker = threading.Thread(target=lambda: done.append(
        flow.check_order(world.ctx, None, str(world.event.id), order.out_trade_no).status))
    asker.start()
    try:
        assert world.server.arrived.wait(300)  # the query is at the provider, unanswered
        with no_hang(120), world.ctx.work() as work:  # another writer meanwhile
            audit_rows.audit(work.session, work.stamp, world.event.id, "note", "event", world.event.id, None, {"text": "另一位裁判的修改"})
    finally:
        world.server.hold.set()
        asker.join(300)
    assert done == ["paid"]


def test_the_other_teams_leader_cannot_pay_or_see_it(world: World) -> None:
    liaoning, shandong = _team(world, "辽宁队"), _team(world, "山东队")
    with pytest.raises(Exception) as info:
        flow.pay_team(world.ctx, _leader(world, shandong), str(world.event.id), liaoning, "wechat", "native")
    assert getattr(info.value, "code", "") == "not_own_team"
    assert world.server.orders == {}


def test_two_workers_receiving_the_same_callback_at_once_apply_it_once(world: World) -> None:
    team = _team(world, "辽宁队")
    order = flow.pay_team(world.ctx, None, str(world.event.id), team, "wechat", "h5", "203.0.113.7").order
    assert world.server.orders[order.out_trade_no]["kind"] == "h5"
    world.server.pay(order.out_trade_no)
    same = world.server.notification(order.out_trade_no)
    other = world.server.notification(order.out_trade_no)  # a second notification id for the same payment
    outcomes: list[str] = []
    start = threading.Barrier(3)

    def deliver(headers: dict[str, str], body: bytes) -> None:
        start.wait(timeout=30)
        outcomes.append(_callback(world, headers, body))

    threads = [threading.Thread(target=deliver, args=n) for n in (same, same, other)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert sorted(outcomes) == [flow.APPLIED, flow.DUPLICATE, flow.DUPLICATE]
    with world.ctx.work() as work:
        assert len(fees.fee_ledger(work, str(world.event.id)).payments) == 7  # the order's 7 items, once


def test_forged_and_mismatched_callbacks_change_nothing(world: World) -> None:
    team = _team(world, "辽宁队")
    order = flow.pay_team(world.ctx, None, str(world.event.id), team, "wechat", "native").order
    world.server.pay(order.out_trade_no)
    headers, body = world.server.notification(order.out_trade_no, signer=new_key())  # not the platform's key
    with pytest.raises(InputError) as info:
        _callback(world, headers, body)
    assert info.value.code == "bad_callback"
    headers, body = world.server.notification(order.out_trade_no)
    with pytest.raises(InputError):
        _callback(world, headers, body.replace(b'"TRANSACTION.SUCCESS"', b'"TRANSACTION.SUCCESX"'))  # tampered
    # signed correctly, but 1 分 where 216000 were due, or to another merchant
    assert _callback(world, *world.server.notification(order.out_trade_no, total=1)) == flow.MISMATCH
    assert _callback(world, *world.server.notification(order.out_trade_no, mchid="1900000999")) == flow.MISMATCH
    with world.ctx.work() as work:
        assert fees.fee_ledger(work, str(world.event.id)).payments == []
        assert flow.order_for(work, str(world.event.id), order.out_trade_no).status == "open"


def test_no_callback_the_order_is_queried_and_an_unpaid_one_closed_after_its_timeout(world: World) -> None:
    liaoning, shandong = _team(world, "辽宁队"), _team(world, "山东队")
    paid = flow.pay_team(world.ctx, None, str(world.event.id), liaoning, "wechat", "native").order
    unpaid = flow.pay_team(world.ctx, None, str(world.event.id), shandong, "wechat", "native").order
    world.server.pay(paid.out_trade_no)  # paid, but the callback never comes
    assert flow.settle_open_orders(world.ctx) == {"paid": 1, "closed": 0, "open": 1}
    world.clock[0] = NOW + timedelta(minutes=31)  # the order's 30 minutes are over
    assert flow.settle_open_orders(world.ctx) == {"paid": 0, "closed": 1, "open": 0}
    with world.ctx.work() as work:
        assert flow.order_for(work, str(world.event.id), unpaid.out_trade_no).status == "closed"
        assert flow.order_for(work, str(world.event.id), paid.out_trade_no).status == "paid"
        assert len(fees.fee_ledger(work, str(world.event.id)).payments) == 7
    assert world.server.orders[unpaid.out_trade_no]["state"] == "CLOSED"
    # the day's bill lists the one paid order: 216000 分 as "2160.00"
    provider = world.ctx.settings.payments.get("wechat")
    assert provider is not None
    (line,) = provider.bill(NOW.date())
    assert (line.out_trade_no, line.amount_fen, line.state) == (paid.out_trade_no, 216_000, "SUCCESS")


def _paid_appeal(world: World) -> tuple[int, str]:
    with world.ctx.work() as work:
        pair(work, world.event.id, "jia", 1)
        filed = appeals.file_appeal(work, str(world.event.id), "jia", 1, appellant="辽宁队", subject="对判罚有异议")
    order = flow.pay_appeal(world.ctx, None, str(world.event.id), filed.id, "wechat", "native").order
    assert order.amount_fen == 100_000  # seed 002: 申诉费1000元 = 100000 分
    world.server.pay(order.out_trade_no)
    assert _callback(world, *world.server.notification(order.out_trade_no)) == flow.APPLIED
    return filed.id, order.out_trade_no


def test_an_upheld_appeal_is_refunded_through_the_refund_api(world: World) -> None:
    appeal, trade_no = _paid_appeal(world)
    with world.ctx.work() as work:
        appeals.decide_appeal(work, str(world.event.id), appeal, upheld=True, decision="裁判判罚有误")
    assert world.server.refunds == {}  # the decision's transaction asks no provider
    (sent,) = refunds.send_requested_refunds(world.ctx, None, str(world.event.id))  # after its commit
    assert sent.status == "done"
    assert world.server.orders[trade_no]["refunded"] == 100_000  # the whole fee, back the way it came
    with world.ctx.work() as work:
        line = fees.subject_line(work, world.event, APPEAL, appeal)
        assert (line.paid, line.refunded) == (100_000, 100_000)
        (refund,) = fees.fee_ledger(work, str(world.event.id)).refunds
        assert (refund.channel, refund.status, refund.decided_by) == ("wechat", "done", "裁判长")
        assert refund.provider_refund_id


def test_a_dismissed_appeal_keeps_its_fee_with_the_regulation_quoted(world: World) -> None:
    appeal, trade_no = _paid_appeal(world)
    with world.ctx.work() as work:
        appeals.decide_appeal(work, str(world.event.id), appeal, upheld=False, decision="维持原判")
    with pytest.raises(Refused) as info, world.ctx.work() as work:
        fees.refund_fee(work, str(world.event.id), APPEAL, appeal, None, "请求退还", action=Action.APPEAL)
    assert "胜诉退还，败诉则不予退还" in info.value.render("zh")
    assert world.server.orders[trade_no]["refunded"] == 0 and world.server.refunds == {}


def test_a_request_not_signed_by_the_merchants_key_is_refused_by_the_server(world: World, tmp_path: Path) -> None:
    # a key WeChat Pay does not know (platform-certificate mode: the certificates already downloaded are read from
    # the directory at start, so the first request is the order)
    env = world.server.keys.environment(tmp_path, world.server.gateway, merchant=new_key())
    settings = Settings(database=world.ctx.settings.database, clock=lambda: NOW,
                        payments=providers_from_environment(env), actor=Actor.cli("裁判长", Role.CHIEF_REFEREE))
    team = _team(world, "辽宁队")
    with open_context(settings) as ctx, pytest.raises(Refused) as info:
        flow.pay_team(ctx, None, str(world.event.id), team, "wechat", "native")
    assert "SIGN_ERROR" in info.value.render("zh") and world.server.refused == ["signature"]
    with world.ctx.work() as work:
        # the order row was committed before the provider was asked; the refusal marks it failed
        (kept,) = flow.orders(work, str(world.event.id))
        assert kept.status == "failed" and kept.pay_url in ("", None)


def test_the_daily_bill_is_matched_against_the_ledger(world: World) -> None:
    liaoning, shandong = _team(world, "辽宁队"), _team(world, "山东队")
    booked = flow.pay_team(world.ctx, None, str(world.event.id), liaoning, "wechat", "native").order
    lost = flow.pay_team(world.ctx, None, str(world.event.id), shandong, "wechat", "native").order
    world.server.pay(booked.out_trade_no)
    assert _callback(world, *world.server.notification(booked.out_trade_no)) == flow.APPLIED
    world.server.pay(lost.out_trade_no)  # paid at WeChat Pay; its callback and queries never reached us
    with world.ctx.work() as work:
        (only,) = reconcile(work, "wechat", NOW.date())
    assert (only.out_trade_no, only.kind, only.theirs_fen) == (lost.out_trade_no, "not_booked", 216_000)
    assert "账单中已支付 2160.00 元" in only.text.zh
    world.server.orders[booked.out_trade_no]["total"] = 215_999  # the bill disagrees by 1 分
    with world.ctx.work() as work:
        kinds = {d.out_trade_no: (d.kind, d.ours_fen, d.theirs_fen) for d in reconcile(work, "wechat", NOW.date())}
    assert kinds[booked.out_trade_no] == ("amount", 216_000, 215_999)


def test_a_no_show_paid_online_keeps_nothing_back_and_another_refund_is_partial(world: World) -> None:
    team = _team(world, "辽宁队")
    order = flow.pay_team(world.ctx, None, str(world.event.id), team, "wechat", "native").order
    world.server.pay(order.out_trade_no)
    assert _callback(world, *world.server.notification(order.out_trade_no)) == flow.APPLIED
    first, second = [sid for kind, sid, _ in order.items if kind == ENTRY][:2]
    with world.ctx.work() as work:
        withdraw_entry(work, first, "报名后无故未到")
    with pytest.raises(Refused) as info, world.ctx.work() as work:
        fees.refund_fee(work, str(world.event.id), ENTRY, first, None, "退还服务费")
    assert "报名后无故不参加比赛者，赛事服务费不予退还" in info.value.render("zh")
    # the organiser returns one player's 260元 for another reason: 26000 of the order's 216000 分
    with world.ctx.work() as work:
        (made,) = fees.refund_fee(work, str(world.event.id), ENTRY, second, None, "组委会同意退赛退费")
    assert (made.amount_fen, made.channel, made.status) == (26_000, "wechat", "requested")
    (made,) = refunds.send_requested_refunds(world.ctx, None, str(world.event.id), [made.id])
    assert (made.amount_fen, made.channel, made.status) == (26_000, "wechat", "done")
    assert world.server.orders[order.out_trade_no]["refunded"] == 26_000 and world.server.refused == []
    with pytest.raises(InputError) as bad, world.ctx.work() as work:  # nothing left to give back
        fees.refund_fee(work, str(world.event.id), ENTRY, second, 1, "再退1分")
    assert bad.value.code == "bad_refund_amount"
