"""Refunds outside the decision's transaction, and refunds asked about until final (issue 46),
through the SDK (wechatpayv3) against the local WeChat Pay server, on SQLite and PostgreSQL.

The event is seed 000's (2025-shanhai-cup): 申诉费2000元, "胜诉退还，败诉则不予退还" — an upheld
appeal gives back 2000 × 100 = 200000 分. The decision writes its refund ``requested`` and commits;
only then is WeChat Pay asked (``refunds.send_requested_refunds``, what the front ends call after
their transaction), and the server's timer (``refunds.settle_refunds``) sends what was left
``requested`` and asks about what is ``processing``."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date
from pathlib import Path

import pytest

from tests.conftest import REGULATIONS
from tests.hangs import no_hang
from tests.payments.wechat_server import Keys, WeChatPayServer
from tests.services.fee_event import NOW
from yisai.registry.ledger import APPEAL
from yisai.registry.person import Gender, Player
from yisai.services import appeals, approvals, entries, events, fees
from yisai.services.context import Context, open_context
from yisai.services.errors import InputError
from yisai.services.identity import Action, Actor, Role
from yisai.services.payments import flow, refunds
from yisai.services.payments.registry import providers_from_environment
from yisai.services.rounds import pair
from yisai.services.settings import Settings
from yisai.store import EventRecord, audit_rows, event_rows, fee_rows, web_rows
from yisai.vocabulary import Rank
from yisai.web import fees as web_fees

KEYS = Keys()  # generated once per test run, never written to the repository
NOTIFIER = Actor("pay-notify", "支付通知", Role.PLAYER)
FEE = 200_000  # seed 000: 申诉费2000元 = 2000 × 100 分
TIMER = Actor.system()  # the web server's payments timer


@dataclass
class World:
    ctx: Context
    event: EventRecord
    server: WeChatPayServer

    @property
    def ref(self) -> str:
        return str(self.event.id)


def _seed000_event(ctx: Context) -> EventRecord:
    """Seed 000 with four 中老年组 players approved and round 1 paired (an appeal needs a round)."""
    with ctx.work() as w:
        event = events.create_event(w, REGULATIONS / "2025-shanhai-cup.toml", seed=1)
        for i in range(4):
            entries.register_player(w, event, Player(
                id="", name=f"棋手{i}", gender=Gender.MALE, birth_date=date(1960, 5, 1 + i),
                rank=Rank.parse("5段"), certificate_no=f"C{i}",
                region="中国大陆", province="浙江"), division="中老年组")
    with ctx.work() as w:
        approvals.approve_all_eligible(w, event_rows.get_event(w.session, event.id))
        pair(w, event.id, "senior", 1)
    return event


@pytest.fixture
def world(tmp_path: Path, db_url: str) -> Iterator[World]:
    with WeChatPayServer(KEYS) as server:
        settings = Settings(database=db_url, clock=lambda: NOW,
                            payments=providers_from_environment(KEYS.environment(tmp_path, server.gateway)),
                            actor=Actor.cli("裁判长", Role.CHIEF_REFEREE))
        with open_context(settings) as ctx:
            yield World(ctx, _seed000_event(ctx), server)


def _paid_appeal(w: World) -> tuple[int, str]:
    """An appeal filed and its 2000元 paid by WeChat Pay (Native), the callback booked."""
    with w.ctx.work() as work:
        filed = appeals.file_appeal(work, w.ref, "senior", 1, appellant="棋手0", subject="对第1台判罚有异议")
    assert filed.fee == 2000
    order = flow.pay_appeal(w.ctx, None, w.ref, filed.id, "wechat", "native").order
    assert order.amount_fen == FEE
    w.server.pay(order.out_trade_no)
    with w.ctx.work(actor=NOTIFIER) as work:
        assert flow.apply_callback(work, "wechat", *w.server.notification(order.out_trade_no)) == flow.APPLIED
    return filed.id, order.out_trade_no


def _uphold(w: World, appeal: int) -> None:
    """The chief referee's decision, in its own transaction (as the web route's ``with`` block)."""
    with w.ctx.work() as work:
        appeals.decide_appeal(work, w.ref, appeal, upheld=True, decision="裁判判罚有误, 申诉成立")


def _line(w: World, appeal: int) -> tuple[int, int]:
    with w.ctx.work() as work:
        line = fees.subject_line(work, w.event, APPEAL, appeal)
    return line.paid, line.refunded


def _refund_rows(w: World) -> list[fee_rows.RefundRecord]:
    with w.ctx.work() as work:
        return fee_rows.refunds_of(work.session, w.event.id)


def _fee_audit(w: World) -> list[str]:
    with w.ctx.work() as work:
        return [a.action for a in audit_rows.audit_log(work.session, w.event.id, "fee")]


def _refund_posts(w: World) -> int:
    return sum(1 for method, path in w.server.requests if (method, path) == ("POST", "/v3/refund/domestic/refunds"))


def test_the_decision_commits_its_refund_requested_before_the_provider_is_asked(world: World) -> None:
    appeal, trade_no = _paid_appeal(world)
    world.server.hold, world.server.hold_paths = threading.Event(), ("/v3/refund/",)
    sent: list[fee_rows.RefundRecord] = []

    def decide() -> None:  # what the web's decision route does: its transaction, then the provider
        _uphold(world, appeal)
        sent.extend(refunds.send_requested_refunds(world.ctx, None, world.ref))

    referee = threading.Thread(target=decide)
    referee.start()
    try:
        assert world.server.arrived.wait(300)  # the refund request is at WeChat Pay, unanswered
        with no_hang(120), world.ctx.work() as work:  # no transaction is open: another writer goes on
            audit_rows.audit(work.session, work.stamp, world.event.id, "note", "event", world.event.id, None, {"text": "另一位裁判的修改"})
        with world.ctx.work() as work:  # and the decision is committed, its refund requested
            found = web_rows.get_appeal(work.session, appeal)
            assert found is not None and (found.status, found.refunded) == ("upheld", True)
        (waiting,) = _refund_rows(world)
        assert (waiting.status, waiting.amount_fen, waiting.channel) == ("requested", FEE, "wechat")
        assert waiting.out_refund_no and waiting.provider_refund_id is None
        assert _line(world, appeal) == (FEE, FEE)  # requested counts as refunded: never given twice
    finally:
        world.server.hold.set()
        referee.join(300)
    (done,) = sent
    assert (done.id, done.status, done.out_refund_no) == (waiting.id, "done", waiting.out_refund_no)
    assert done.provider_refund_id == world.server.refunds[waiting.out_refund_no]["refund_id"]
    assert world.server.refunds[waiting.out_refund_no]["refund"] == FEE
    assert world.server.orders[trade_no]["refunded"] == FEE
    assert _fee_audit(world) == ["fee_paid", "fee_refunded", "fee_refund_done"]


def test_a_provider_down_leaves_the_refund_requested_and_the_timer_sends_it(world: World) -> None:
    appeal, trade_no = _paid_appeal(world)
    world.server.down = True  # WeChat Pay cannot be reached while the chief referee decides
    _uphold(world, appeal)
    (kept,) = refunds.send_requested_refunds(world.ctx, None, world.ref)
    assert kept.status == "requested" and world.server.dropped == 1 and world.server.refunds == {}
    assert "系统每分钟自动重试" in refunds.summary([kept]).zh
    assert _line(world, appeal) == (FEE, FEE)
    with pytest.raises(InputError) as again, world.ctx.work() as work:  # the same money cannot go twice
        fees.refund_fee(work, world.ref, APPEAL, appeal, None, "再退一次", action=Action.APPEAL)
    assert again.value.code == "bad_refund_amount" and again.value.params["left_fen"] == 0
    assert refunds.settle_refunds(world.ctx, TIMER) == {"processing": 0, "done": 0, "failed": 0, "unchanged": 1}
    world.server.down = False  # reachable again: the web server's next payments timer run sends it
    web_fees._settle_once(world.ctx)
    (done,) = _refund_rows(world)
    assert (done.status, done.out_refund_no) == ("done", kept.out_refund_no)
    assert world.server.orders[trade_no]["refunded"] == FEE and world.server.dropped == 2
    assert refunds.settle_refunds(world.ctx, TIMER) == {"processing": 0, "done": 0, "failed": 0, "unchanged": 0}


def test_two_workers_sending_one_refund_left_behind_book_it_once(world: World) -> None:
    appeal, trade_no = _paid_appeal(world)
    _uphold(world, appeal)  # committed; the process stops before it asks WeChat Pay (a crash)
    world.server.hold, world.server.hold_paths = threading.Event(), ("/v3/refund/",)
    counts: list[dict[str, int]] = []
    start = threading.Barrier(2)

    def worker() -> None:  # two web workers' timers at the same moment
        start.wait(timeout=30)
        counts.append(refunds.settle_refunds(world.ctx, TIMER))

    threads = [threading.Thread(target=worker) for _ in range(2)]
    for t in threads:
        t.start()
    try:
        with no_hang(120):
            while _refund_posts(world) < 2:  # both have sent the same out_refund_no
                world.server.arrived.wait(0.05)
    finally:
        world.server.hold.set()
        for t in threads:
            t.join(300)
    (waiting,) = _refund_rows(world)
    assert world.server.refunds[waiting.out_refund_no]["requests"] == 2  # asked twice, refunded once
    assert world.server.orders[trade_no]["refunded"] == FEE
    assert sorted(c["done"] for c in counts) == [0, 1] and sum(c["unchanged"] for c in counts) == 1
    assert waiting.status == "done" and _fee_audit(world).count("fee_refund_done") == 1
    assert _line(world, appeal) == (FEE, FEE)


def test_a_refused_refund_is_failed_counts_nothing_and_may_be_made_again(world: World) -> None:
    appeal, trade_no = _paid_appeal(world)
    world.server.refuse_refunds = (403, "NOT_ENOUGH", "基本账户余额不足，请充值后重新发起")
    _uphold(world, appeal)
    (failed,) = refunds.send_requested_refunds(world.ctx, None, world.ref)
    assert failed.status == "failed" and "NOT_ENOUGH" in failed.message and "余额不足" in failed.message
    assert "失败" in refunds.summary([failed]).zh
    assert _line(world, appeal) == (FEE, 0)  # nothing went back: a failed refund counts nothing
    assert world.server.orders[trade_no]["refunded"] == 0
    world.server.refuse_refunds = None  # the merchant topped up: the chief referee refunds again
    with world.ctx.work() as work:
        (again,) = fees.refund_fee(work, world.ref, APPEAL, appeal, None, "申诉成立, 重新退款", action=Action.APPEAL)
    assert (again.status, again.amount_fen) == ("requested", FEE) and again.out_refund_no != failed.out_refund_no
    (done,) = refunds.send_requested_refunds(world.ctx, None, world.ref, [again.id])
    assert done.status == "done" and _line(world, appeal) == (FEE, FEE)
    assert list(world.server.refunds) == [again.out_refund_no] and world.server.orders[trade_no]["refunded"] == FEE
    assert _fee_audit(world) == ["fee_paid", "fee_refunded", "fee_refund_failed", "fee_refunded", "fee_refund_done"]


def test_a_processing_refund_is_asked_about_until_it_succeeds(world: World) -> None:
    appeal, _ = _paid_appeal(world)
    world.server.refund_status = "PROCESSING"  # WeChat Pay takes the refund and pays it out later
    _uphold(world, appeal)
    (processing,) = refunds.send_requested_refunds(world.ctx, None, world.ref)
    assert processing.status == "processing" and "退款处理中 2000.00 元" in refunds.summary([processing]).zh
    no = processing.out_refund_no
    assert no is not None
    assert refunds.settle_refunds(world.ctx, TIMER) == {"processing": 0, "done": 0, "failed": 0, "unchanged": 1}
    assert ("GET", f"/v3/refund/domestic/refunds/{no}") in world.server.requests  # 查询单笔退款
    world.server.finish_refund(no, "SUCCESS")
    world.server.refunds[no]["refund"] = FEE - 1  # an answer that is not the ledger's refund changes nothing
    assert refunds.settle_refunds(world.ctx, TIMER) == {"processing": 0, "done": 0, "failed": 0, "unchanged": 1}
    world.server.refunds[no]["refund"] = FEE
    assert refunds.settle_refunds(world.ctx, TIMER) == {"processing": 0, "done": 1, "failed": 0, "unchanged": 0}
    assert [r.status for r in _refund_rows(world)] == ["done"] and _line(world, appeal) == (FEE, FEE)
    assert _fee_audit(world) == ["fee_paid", "fee_refunded", "fee_refund_processing", "refund_mismatch",
                                 "fee_refund_done"]


def test_an_abnormal_refund_is_failed_with_the_reason_and_counts_nothing(world: World) -> None:
    appeal, _ = _paid_appeal(world)
    world.server.refund_status = "PROCESSING"
    _uphold(world, appeal)
    (processing,) = refunds.send_requested_refunds(world.ctx, None, world.ref)
    assert processing.out_refund_no is not None
    world.server.finish_refund(processing.out_refund_no, "ABNORMAL")  # the payer's card could not take it
    assert refunds.settle_refunds(world.ctx, TIMER)["failed"] == 1
    (failed,) = _refund_rows(world)
    assert failed.status == "failed" and "商户平台" in failed.message
    assert _line(world, appeal) == (FEE, 0)


def _notify(w: World, headers: dict[str, str], body: bytes) -> str:
    with w.ctx.work(actor=NOTIFIER) as work:
        return flow.apply_callback(work, "wechat", headers, body)


def test_a_refund_notification_is_checked_against_the_ledger_and_recorded_once(world: World) -> None:
    appeal, _ = _paid_appeal(world)
    world.server.refund_status = "PROCESSING"
    _uphold(world, appeal)
    (processing,) = refunds.send_requested_refunds(world.ctx, None, world.ref)
    no = processing.out_refund_no
    assert no is not None
    world.server.finish_refund(no, "SUCCESS")
    # signed and encrypted by WeChat Pay, but 1 分 where 200000 were refunded, or another merchant's
    assert _notify(world, *world.server.refund_notification(no, refund=1)) == flow.MISMATCH
    assert _notify(world, *world.server.refund_notification(no, mchid="1900000999")) == flow.MISMATCH
    assert [r.status for r in _refund_rows(world)] == ["processing"]
    headers, body = world.server.refund_notification(no)
    assert b'"REFUND.SUCCESS"' in body
    assert _notify(world, headers, body) == flow.APPLIED
    assert _notify(world, headers, body) == flow.DUPLICATE  # delivered again: recorded once
    assert _notify(world, *world.server.refund_notification(no)) == flow.DUPLICATE  # a second id, already done
    (done,) = _refund_rows(world)
    assert done.status == "done" and done.provider_refund_id == world.server.refunds[no]["refund_id"]
    with world.ctx.work() as work:
        assert [a.action for a in audit_rows.audit_log(work.session, world.event.id, "fee")].count("refund_mismatch") == 2
    assert _fee_audit(world).count("fee_refund_done") == 1
    assert refunds.settle_refunds(world.ctx, TIMER)["unchanged"] == 0  # nothing left to ask about
