"""Issue 46 item 4, seed 000: a qualified player confirms the final place and pays in one flow
before the deadline, through the WeChat Pay SDK against the local server (wechat_server.py).

By hand from seed 000: 线下赛赛事服务费 260元 applies to the final → 26000 分 for a place of either
pool. Ten working days from 2025-05-26 → deadline 2025-06-10, the place lapses at 2025-06-11 00:00.
Runs on SQLite and PostgreSQL (``db_url``)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date, datetime
from pathlib import Path

import pytest

from tests.conftest import REGULATIONS
from tests.payments.wechat_server import Keys, WeChatPayServer
from tests.qualification.conftest import closed, fields, player
from yisai.registry.ledger import ENTRY, PLACE
from yisai.services import fees, live
from yisai.services import qualification as q
from yisai.services.context import Context, open_context
from yisai.services.errors import Forbidden, Refused
from yisai.services.events import create_event
from yisai.services.identity import Actor, Role
from yisai.services.payments import flow, refunds
from yisai.services.payments.registry import providers_from_environment
from yisai.services.settings import Settings
from yisai.services.simulation import SimClock
from yisai.store import audit_rows, entry_rows, notice_rows, qualification_rows

__all__ = ["closed"]

KEYS = Keys()
NOTIFIER = Actor("pay-notify", "支付通知", Role.PLAYER)
FEE = 26_000  # 260元
DUE_BY = datetime(2025, 6, 11, 0, 0)  # the midnight ending 2025-06-10


@pytest.fixture
def server() -> Iterator[WeChatPayServer]:
    with WeChatPayServer(KEYS) as s:
        yield s


@pytest.fixture
def world(db_url: str, server: WeChatPayServer, tmp_path: Path) -> Iterator[tuple[Context, SimClock]]:
    """The qualification fixture's world with WeChat Pay configured (overrides conftest's)."""
    clock = SimClock(datetime(2025, 5, 6, 10, 0))
    settings = Settings(database=db_url, clock=clock, actor=Actor.cli("裁判长", Role.CHIEF_REFEREE),
                        payments=providers_from_environment(KEYS.environment(tmp_path, server.gateway)))
    ctx = open_context(settings)
    with ctx.work() as work:
        create_event(work, REGULATIONS / "2025-shanhai-cup.toml")
    try:
        yield ctx, clock
    finally:
        ctx.close()


Closed = tuple[Context, SimClock, live.LiveConfig]


def _place(ctx: Context, who: str) -> q.PlaceView:
    with ctx.work(player(who)) as work:
        (mine,) = q.my_places(work, None)
    return mine


def _callback(ctx: Context, server: WeChatPayServer, trade_no: str) -> str:
    server.pay(trade_no)
    headers, body = server.notification(trade_no)
    with ctx.work(actor=NOTIFIER) as work:
        return flow.apply_callback(work, "wechat", headers, body)


def _line(ctx: Context, kind: str, sid: int) -> tuple[int, int] | None:
    with ctx.work() as work:
        ledger = fees.fee_ledger(work, None)
    found = [(ln.due, ln.paid) for ln in ledger.lines if ln.kind == kind and ln.id == sid]
    return found[0] if found else None


def _confirmed_sms(ctx: Context, place_id: int) -> list[str]:
    with ctx.work() as work:
        return [n.key for n in notice_rows.listing(work.session, None, None, 1000) if n.key == f"confirmed:{place_id}"]


def test_confirm_and_pay_then_the_final_entry_is_paid_once(closed: Closed, server: WeChatPayServer) -> None:
    ctx, clock, _ = closed
    t01 = _place(ctx, "T01")
    assert _line(ctx, PLACE, t01.id) == (FEE, 0)  # a held place owes the final's 260元 in the ledger
    with pytest.raises(Refused) as exc, ctx.work(player("T01")) as work:  # online configured: pay to confirm
        q.confirm_place(work, None, t01.id, fields("张三", date(1990, 3, 1), 1))
    assert exc.value.code == "payment_required"

    clock.now = datetime(2025, 6, 10, 23, 50)  # ten minutes before the place lapses
    checkout = q.confirm_and_pay(ctx, player("T01"), None, t01.id, fields("张三", date(1990, 3, 1), 1),
                                 "wechat", "native")
    order = checkout.order
    assert order.amount_fen == FEE and order.items == ((PLACE, t01.id, FEE),)
    assert server.orders[order.out_trade_no]["total"] == FEE  # the SDK sent 26000 分, signed
    assert order.expires_at == DUE_BY  # 23:50 + 30 min would pass 24:00: the order ends with the place
    assert server.orders[order.out_trade_no]["time_expire"] == "2025-06-11T00:00:00+08:00"
    mine = _place(ctx, "T01")
    assert (mine.status, mine.status_label.zh, mine.division) == ("unpaid", "待缴费", "open")
    assert _confirmed_sms(ctx, t01.id) == []  # not before the money

    assert _callback(ctx, server, order.out_trade_no) == flow.APPLIED
    assert _place(ctx, "T01").status == "confirmed"
    assert _confirmed_sms(ctx, t01.id) == [f"confirmed:{t01.id}"]
    assert _line(ctx, PLACE, t01.id) == (FEE, FEE)

    clock.now = datetime(2025, 6, 12, 9, 0)
    with ctx.work() as work:
        q.apply_final(work, None)
    with ctx.work() as work:
        ledger = fees.fee_ledger(work, None)
        assert all(ln.id != t01.id for ln in ledger.of(PLACE))  # the place's line is gone
        (entry_line,) = [ln for ln in ledger.of(ENTRY) if ln.paid]
        assert (entry_line.due, entry_line.paid, entry_line.balance) == (FEE, FEE, 0)  # paid once, owed 0
        assert ledger.totals.paid == FEE  # one payment in the whole ledger, not two
        entry = entry_rows.get_entry(work.session, entry_line.id)
        assert entry.fee_paid and entry.fee_due == 260  # 已缴费, as a manual mark would show it
        (carried,) = [a for a in audit_rows.audit_log(work.session, ledger.event.id, "fee") if a.action == "fee_carried"]
        assert carried.entity_id == f"entry:{entry_line.id}"
        (payment,) = ledger.payments
        assert (payment.subject_kind, payment.subject_id, payment.channel) == (ENTRY, entry_line.id, "wechat")


def test_an_unpaid_place_lapses_but_not_while_its_order_is_open(closed: Closed, server: WeChatPayServer) -> None:
    ctx, clock, _ = closed
    t02, t03 = _place(ctx, "T02"), _place(ctx, "T03")
    clock.now = datetime(2025, 6, 10, 10, 0)
    first = q.confirm_and_pay(ctx, player("T02"), None, t02.id, fields("李四", date(1990, 3, 2), 2), "wechat",
                              "native").order
    assert first.expires_at == datetime(2025, 6, 10, 10, 30)  # the provider's 30 minutes, well before 24:00
    clock.now = datetime(2025, 6, 10, 10, 31)
    assert flow.settle_open_orders(ctx) == {"paid": 0, "closed": 1, "open": 0}
    assert _place(ctx, "T02").status == "unpaid"  # still held until the deadline: 去缴费 opens a new order
    again = flow.pay_place(ctx, player("T02"), None, t02.id, "wechat", "h5", "203.0.113.9").order
    assert again.amount_fen == FEE and server.orders[again.out_trade_no]["kind"] == "h5"
    # T03 pays at 23:55; WeChat Pay takes the money, but the callback is late
    clock.now = datetime(2025, 6, 10, 23, 55)
    late = q.confirm_and_pay(ctx, player("T03"), None, t03.id, fields("王五", date(1990, 3, 3), 3), "wechat",
                             "native").order
    server.pay(late.out_trade_no)

    clock.now = datetime(2025, 6, 11, 0, 1)
    with ctx.work() as work:
        lapsed = {p.player for p in q.lapse_overdue(work, None)}
    # of the 40 places (T01…T37, X1…X3) the 38 that never answered lapse; T02 and T03 have an open order each
    assert "T02" not in lapsed and "T03" not in lapsed and len(lapsed) == 40 - 2
    assert _place(ctx, "T02").status == "unpaid" and _place(ctx, "T03").status == "unpaid"
    assert flow.settle_open_orders(ctx) == {"paid": 1, "closed": 1, "open": 0}  # T03 booked, T02's closed
    assert _place(ctx, "T03").status == "confirmed"  # paid before 24:00: the place is his
    with ctx.work() as work:
        assert [p.player for p in q.lapse_overdue(work, None)] == ["T02"]
    assert _place(ctx, "T02").status == "lapsed"
    with ctx.work(player("T02")) as work:
        (notice,) = [n for n in q.my_notices(work, None) if n.kind == "lapsed"]
    assert "逾期未完善信息或未缴费, 视为弃权" in notice.zh
    assert _line(ctx, PLACE, t02.id) is None  # lapsed, nothing paid: not in the ledger
    with pytest.raises(Refused) as exc:
        flow.pay_place(ctx, player("T02"), None, t02.id, "wechat", "native")
    assert exc.value.code == "confirm_late"


def test_a_payment_for_a_place_no_longer_held_is_booked_and_refundable(closed: Closed,
                                                                         server: WeChatPayServer) -> None:
    ctx, clock, _ = closed
    t04 = _place(ctx, "T04")
    clock.now = datetime(2025, 6, 1, 9, 0)
    order = q.confirm_and_pay(ctx, player("T04"), None, t04.id, fields("赵六", date(1990, 3, 4), 4), "wechat",
                              "native").order
    with ctx.work() as work:  # meanwhile an amended list withdraws the place (as close_period's amendment does)
        qualification_rows.update_place(work.session, t04.id, work.now, status="revoked")
    assert _callback(ctx, server, order.out_trade_no) == flow.APPLIED  # never lost
    assert _place(ctx, "T04").status == "revoked"
    assert _line(ctx, PLACE, t04.id) == (0, FEE)  # owes nothing, 260元 stand on it
    with ctx.work() as work:
        (late,) = [a for a in audit_rows.audit_log(work.session, order.event_id, "qualifier_place") if a.action == "paid_after_close"]
        assert late.after == {"paid_fen": FEE, "order": order.out_trade_no}
        (requested,) = fees.refund_fee(work, None, PLACE, t04.id, None, "名单更正, 名额取消")
    (sent,) = refunds.send_requested_refunds(ctx, None, None, only=[requested.id])  # after the commit
    assert sent.status == "done" and server.orders[order.out_trade_no]["refunded"] == FEE  # the refund API
    with ctx.work() as work:
        (line,) = [ln for ln in fees.fee_ledger(work, None).of(PLACE) if ln.id == t04.id]
    assert (line.paid, line.refunded, line.kept) == (FEE, FEE, 0)


def test_another_player_cannot_pay_or_see_the_place(closed: Closed, server: WeChatPayServer) -> None:
    ctx, _, _ = closed
    t05 = _place(ctx, "T05")
    with pytest.raises(Forbidden) as exc:
        q.confirm_and_pay(ctx, player("T06"), None, t05.id, fields("孙七", date(1990, 3, 5), 5), "wechat", "native")
    assert exc.value.code == "not_your_place" and server.orders == {}
    order = q.confirm_and_pay(ctx, player("T05"), None, t05.id, fields("孙七", date(1990, 3, 5), 5), "wechat",
                              "native").order
    with pytest.raises(Forbidden):
        flow.pay_place(ctx, player("T06"), None, t05.id, "wechat", "native")
    with pytest.raises(Forbidden), ctx.work(player("T06")) as work:
        flow.order_for(work, None, order.out_trade_no)
    with pytest.raises(Forbidden):
        flow.check_order(ctx, player("T06"), None, order.out_trade_no)
    with ctx.work(player("T05")) as work:
        assert flow.order_for(work, None, order.out_trade_no).amount_fen == FEE
    assert len(server.orders) == 1


def test_without_a_provider_the_place_is_confirmed_at_once(closed: Closed, db_url: str) -> None:
    ctx, clock, _ = closed
    t07 = _place(ctx, "T07")
    with open_context(Settings(database=db_url, clock=clock, actor=Actor.cli("裁判长", Role.CHIEF_REFEREE))) as plain:
        with plain.work(player("T07")) as work:
            assert q.place_fee(work, None, t07) == 0  # no provider: no pay button
            done = q.confirm_place(work, None, t07.id, fields("周八", date(1990, 3, 7), 7))
        assert done.status == "confirmed"
        assert _confirmed_sms(plain, t07.id) == [f"confirmed:{t07.id}"]
        with plain.work() as work:
            assert flow.orders(work, None) == []
    assert _line(ctx, PLACE, t07.id) == (FEE, 0)  # still owed: the director marks the final's entry 已缴费 by hand
