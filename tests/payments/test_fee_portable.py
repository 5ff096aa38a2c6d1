"""`yisai event export/import` carries the fee ledger: an order paid through WeChat Pay (with
its notification), its payments, a refund and a manual 已缴费 mark arrive in another store with
new ids, and the ledger read there is the ledger read here. Imported twice into one store, the
copy's order gets a new number (the provider knows only the original's)."""

from __future__ import annotations

from pathlib import Path

from tests.payments.wechat_server import Keys, WeChatPayServer
from tests.services.fee_event import NOW, fee_event
from yisai.registry.ledger import ENTRY
from yisai.services import fees
from yisai.services.context import open_context
from yisai.services.identity import Actor, Role
from yisai.services.payments import flow
from yisai.services.payments.registry import providers_from_environment
from yisai.services.settings import Settings
from yisai.store import audit_rows, entry_rows, fee_rows, roster_rows, team_rows
from yisai.store.portable import export_event, import_event

KEYS = Keys()
NOTIFIER = Actor("pay-notify", "支付通知", Role.PLAYER)


def _ledger(settings: Settings, event_id: int) -> dict[str, object]:
    """The ledger by names and amounts (ids differ between the stores)."""
    with open_context(settings) as ctx, ctx.work() as work:
        ledger = fees.fee_ledger(work, str(event_id))
        labels = {(ln.kind, ln.id): ln.label for ln in ledger.lines}
        orders = fee_rows.orders_of(work.session, event_id)
        return {
            "lines": sorted((ln.kind, ln.label, ln.due, ln.paid, ln.refunded) for ln in ledger.lines),
            "totals": ledger.totals,
            "payments": sorted((labels[(p.subject_kind, p.subject_id)], p.amount_fen, p.channel, p.transaction_id or "")
                               for p in ledger.payments),
            "refunds": sorted((labels[(r.subject_kind, r.subject_id)], r.amount_fen, r.channel, r.reason)
                              for r in ledger.refunds),
            "orders": [(o.status, o.amount_fen, sorted((k, labels[(k, i)], a) for k, i, a in o.items)) for o in orders],
            "entries_paid": sum(e.fee_paid for e in roster_rows.list_entries(work.session, event_id)),
        }


def test_the_fee_ledger_survives_export_and_import(tmp_path: Path) -> None:
    with WeChatPayServer(KEYS) as server:
        venue = Settings(database=str(tmp_path / "venue.sqlite"), clock=lambda: NOW,
                         payments=providers_from_environment(KEYS.environment(tmp_path, server.gateway)),
                         actor=Actor.cli("裁判长", Role.CHIEF_REFEREE))
        with open_context(venue) as ctx:
            event = fee_event(ctx, tmp_path)
            with ctx.work() as work:
                liaoning, shandong = (int(t.id) for t in team_rows.list_teams(work.session, event.id))
            order = flow.pay_team(ctx, None, str(event.id), liaoning, "wechat", "native").order
            server.pay(order.out_trade_no)
            with ctx.work(actor=NOTIFIER) as work:
                assert flow.apply_callback(work, "wechat", *server.notification(order.out_trade_no)) == flow.APPLIED
            second = [sid for kind, sid, _ in order.items if kind == ENTRY][1]
            with ctx.work() as work:
                fees.refund_fee(work, str(event.id), ENTRY, second, 10_000, "组委会同意退还100元")
                shandong_entry = next(e for e in roster_rows.list_entries(work.session, event.id)
                                      if e.player_id in {m.player_id for m in team_rows.get_team(work.session, shandong).members})
                fees.record_manual(work, event.id, shandong_entry, True, "现场缴纳")
                entry_rows.update_entry(work.session, work.stamp, shandong_entry.model_copy(update={"fee_paid": True}), "fee", "现场缴纳")
    before = _ledger(venue, event.id)
    # 辽宁队 paid online: 600 + 6 × 260 = 2160元; 山东队 one player by hand: 260元; 100元 refunded
    assert before["totals"].paid == 216_000 + 26_000 and before["totals"].refunded == 10_000
    assert before["entries_paid"] == 7

    export_event(venue.database, event.id, tmp_path / "files", tmp_path / "e.yisai")
    server_db = Settings(database=str(tmp_path / "server.sqlite"), actor=Actor.cli("裁判长", Role.CHIEF_REFEREE))
    first, _ = import_event(server_db.database, tmp_path / "e.yisai", tmp_path / "server.files")
    again, _ = import_event(server_db.database, tmp_path / "e.yisai", tmp_path / "server.files")
    assert _ledger(server_db, first) == before and _ledger(server_db, again) == before
    with open_context(server_db) as ctx, ctx.work() as work:
        (one,) = fee_rows.orders_of(work.session, first)
        (two,) = fee_rows.orders_of(work.session, again)
        assert one.out_trade_no == order.out_trade_no and two.out_trade_no != order.out_trade_no
        assert one.transaction_id == two.transaction_id == server.orders[order.out_trade_no]["transaction_id"]
        # the notification came along once: delivered again to the server's store, it is a duplicate
        assert not fee_rows.claim_notice(work.session, "wechat", _notify_id(venue), order.out_trade_no, NOW)
        fee_actions = {a.action for a in audit_rows.audit_log(work.session, first, "fee")}
        assert {"fee_paid", "fee_refunded"} <= fee_actions
        assert all(a.entity_id.split(":")[1] in {str(ln.id) for ln in fees.fee_ledger(work, str(first)).lines}
                   for a in audit_rows.audit_log(work.session, first, "fee"))


def _notify_id(settings: Settings) -> str:
    from sqlalchemy import select

    from yisai.store.fee_models import PaymentNoticeRow

    with open_context(settings) as ctx, ctx.work() as work:
        return str(work.session.execute(select(PaymentNoticeRow.notify_id)).scalar_one())
