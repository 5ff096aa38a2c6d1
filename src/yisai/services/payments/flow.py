"""Paying through a provider: an order for what a team (or an appeal) owes, the provider's
callback applied once (a refund notification handed to ``refunds``), open orders queried and
closed after their timeout. Refunds: ``services.payments.refunds``.

The order is stored before the provider is asked (its ``out_trade_no`` is ours), so a callback
always finds it. A callback is applied only when its amount, currency, merchant and order match
the stored order, and only once: its notification id is kept under a unique constraint, the
order moves ``open`` → ``paid`` by a conditional update, and each payment row is unique per
(order, subject). Two workers receiving the same callback at once: one applies it, the other
finds it applied (``tests/payments/test_wechat_pay.py``).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from yisai.i18n import Text
from yisai.registry.ledger import APPEAL, ENTRY, PLACE, TEAM, appeal_due, entry_due, team_due
from yisai.services import place_fees
from yisai.services.context import Context, InputError, Refused, Work
from yisai.services.errors import Forbidden, NotFoundError
from yisai.services.events import regulation_of, resolve_event
from yisai.services.identity import Action, Actor, Role
from yisai.services.payments import refunds
from yisai.services.payments.base import (
    APPLIED,
    DUPLICATE,
    JSAPI,
    MISMATCH,
    NOT_PAID,
    BadCallback,
    BridgeCall,
    Notice,
    OrderRequest,
    PayTarget,
    Provider,
    ProviderError,
    RefundNotice,
)
from yisai.services.settings import Settings
from yisai.store import (
    EventRecord,
    NotFound,
    audit_rows,
    entry_rows,
    qualification_rows,
    roster_rows,
    team_rows,
    web_rows,
)
from yisai.store import fee_rows as rows
from yisai.store.fee_rows import OrderRecord
from yisai.vocabulary.money import yuan_text


@dataclass(frozen=True)
class Checkout:
    order: OrderRecord
    target: PayTarget


def offered(work: Work) -> list[Provider]:
    """The providers configured for this process (none: only the manual 已缴费 path)."""
    return list(work.settings.payments)


def provider_named(work: Work, name: str) -> Provider:
    return provider_named_in(work.settings, name)


def provider_named_in(settings: Settings, name: str) -> Provider:
    return settings.payments.named(name)


def refused(exc: ProviderError) -> Refused:
    return Refused(exc.text, code=exc.code)


def team_items(work: Work, event: EventRecord, team_id: int) -> list[tuple[str, int, int]]:
    """What a team still owes: the team's own fee and each member's entry, (kind, id, 分)."""
    try:
        team = team_rows.get_team(work.session, team_id)
    except NotFound:
        team = None
    if team is None or team.id not in {t.id for t in team_rows.list_teams(work.session, event.id)}:
        raise NotFoundError(Text(f"本赛事没有编号为{team_id}的参赛队", f"no team {team_id} in this event"), code="no_team")
    sums = rows.sums(work.session, event.id)
    items: list[tuple[str, int, int]] = []
    paid, _ = sums.get((TEAM, team_id), (0, 0))
    if (owed := team_due(regulation_of(event)) - paid) > 0:
        items.append((TEAM, team_id, owed))
    members = {m.player_id for m in team.members}
    for e in roster_rows.list_entries(work.session, event.id):
        if e.player_id in members and not e.status.has_left and e.status.value != "rejected":
            paid, _ = sums.get((ENTRY, int(e.id)), (0, 0))
            if (owed := entry_due(e) - paid) > 0:
                items.append((ENTRY, int(e.id), owed))
    return items


def _new_trade_no(event_id: int, tag: str) -> str:
    """``YS`` + event + subject tag + 12 random hex digits: ≤ 32 ASCII characters, unique."""
    return f"YS{event_id}{tag}{secrets.token_hex(6).upper()}"[:32]


@dataclass(frozen=True)
class _Pending:
    """An order stored and committed, the provider not yet asked."""

    order: OrderRecord
    mode: str
    payer_ip: str


def _store(work: Work, event: EventRecord, provider: Provider, mode: str, items: list[tuple[str, int, int]],
           team_id: int | None, tag: str, description: str, payer_ip: str, until: datetime | None = None) -> _Pending:
    """The order row for ``items``; it expires after the provider's order minutes, or at ``until``
    when that comes first (a qualifier's place: never after the place's deadline)."""
    if mode not in provider.modes:
        raise InputError(Text("不支持的支付方式", "this payment mode is not offered"), code="bad_pay_mode")
    if not items:
        raise Refused(Text("没有需要缴纳的费用", "nothing is owed"), code="nothing_owed")
    expires = work.now + timedelta(minutes=provider.order_minutes)
    if until is not None:
        expires = min(expires, until)
    order = rows.add_order(work.session, work.stamp, event.id, _new_trade_no(event.id, tag), provider.name,
                           mode, team_id, items, description[:60], expires)
    work.emit("order_created", event.id, order=order.id)
    return _Pending(order, mode, payer_ip)


def _checkout(ctx: Context, actor: Actor | None, prepare: Callable[[Work], _Pending], openid: str = "") -> Checkout:
    """Three steps so that no database transaction is open while the provider is asked (on
    SQLite an open write transaction holds the file's lock for everyone): the order row is
    stored and committed, the provider is called with no transaction open, and its answer is
    recorded in a new transaction. A provider that fails leaves the order ``failed``. ``openid``:
    the payer's, for JSAPI (WeChat's browser); never stored."""
    with ctx.work(actor=actor) as work:
        pending = prepare(work)
    order = pending.order
    provider = provider_named_in(ctx.settings, order.provider)
    try:
        target = provider.create_order(OrderRequest(order.out_trade_no, order.amount_fen, order.description,
                                                    order.expires_at, pending.payer_ip, openid), pending.mode)
    except ProviderError as exc:
        with ctx.work(actor=actor) as work:
            rows.move_order(work.session, work.stamp, order, "failed")
        raise refused(exc) from None
    with ctx.work(actor=actor) as work:
        rows.set_pay_url(work.session, order.id, target.url)
    return Checkout(order, target)


def _payer_known(mode: str, openid: str) -> None:
    if mode == JSAPI and not openid:
        raise InputError(Text("微信内支付需要先经微信授权取得付款人身份, 请在微信中重新点击支付",
                              "paying inside WeChat needs the payer's WeChat authorisation first; tap pay again in WeChat"),
                         code="no_payer_openid")


def pay_team(ctx: Context, actor: Actor | None, event_ref: str | None, team_id: int, provider_name: str, mode: str,
             payer_ip: str = "", openid: str = "") -> Checkout:
    """A team leader (or an official) pays everything his team owes in one order."""
    _payer_known(mode, openid)

    def prepare(work: Work) -> _Pending:
        work.require(Action.REGISTER)
        event = resolve_event(work, event_ref)
        work.check_event(event.id)
        if work.actor.role is Role.TEAM_LEADER and not work.actor.leads(team_id):
            raise Forbidden(Text("领队只能为本队缴费", "a team leader pays for the own team only"), code="not_own_team")
        provider = provider_named(work, provider_name)
        items = team_items(work, event, team_id)
        name = team_rows.get_team(work.session, team_id).name
        total = sum(a for _, _, a in items)
        return _store(work, event, provider, mode, items, team_id, f"T{team_id}",
                      f"{event.name[:30]} {name[:16]} 报名费 {yuan_text(total)}元", payer_ip)

    return _checkout(ctx, actor, prepare, openid)


def pay_appeal(ctx: Context, actor: Actor | None, event_ref: str | None, appeal_id: int, provider_name: str,
               mode: str, payer_ip: str = "", openid: str = "") -> Checkout:
    """The appeal fee of a filed appeal, paid through a provider."""
    _payer_known(mode, openid)

    def prepare(work: Work) -> _Pending:
        work.require(Action.REGISTER)
        event = resolve_event(work, event_ref)
        work.check_event(event.id)
        appeal = web_rows.get_appeal(work.session, appeal_id)
        if appeal is None or appeal.event_id != event.id:
            raise NotFoundError(Text(f"没有编号为{appeal_id}的申诉", f"no appeal {appeal_id}"), code="no_appeal")
        provider = provider_named(work, provider_name)
        paid, _ = rows.subject_sums(work.session, event.id, APPEAL, appeal_id)
        owed = appeal_due(appeal.fee) - paid
        items = [(APPEAL, appeal_id, owed)] if owed > 0 else []
        return _store(work, event, provider, mode, items, None, f"A{appeal_id}",
                      f"{event.name[:30]} 申诉费 {yuan_text(owed)}元", payer_ip)

    return _checkout(ctx, actor, prepare, openid)


def pay_place(ctx: Context, actor: Actor | None, event_ref: str | None, place_id: int, provider_name: str,
              mode: str, payer_ip: str = "", before: Callable[[Work], None] | None = None,
              openid: str = "") -> Checkout:
    """A qualified player pays his place's fee (the final's entry fee) through a provider. Only the
    player himself (a player has no 登记报名 right: the place's owner is checked instead). ``before``
    runs first in the same transaction: the details stored and the place moved to ``unpaid``
    (``qualification.confirm_and_pay``); without it the place must already wait for its fee
    (去缴费). The order expires by the place's deadline (24:00 of the deadline day). JSAPI (inside
    WeChat) with the payer's ``openid``, as the team's and the appeal's fees."""
    _payer_known(mode, openid)

    def prepare(work: Work) -> _Pending:
        event = resolve_event(work, event_ref)
        work.check_event(event.id)
        place_fees.own_place(work, event, place_id)  # 403 before anything about the place is told
        provider = provider_named(work, provider_name)
        if mode not in provider.modes:
            raise InputError(Text("不支持的支付方式", "this payment mode is not offered"), code="bad_pay_mode")
        if before is not None:
            before(work)
        place, owed, until = place_fees.payable(work, event, place_id)
        items = [(PLACE, place.id, owed)] if owed > 0 else []
        return _store(work, event, provider, mode, items, None, f"P{place.id}",
                      f"{event.name[:30]} 总决赛赛事服务费 {yuan_text(owed)}元", payer_ip, until)

    return _checkout(ctx, actor, prepare, openid)


def orders(work: Work, event_ref: str | None, team_id: int | None = None) -> list[OrderRecord]:
    event = resolve_event(work, event_ref)
    work.check_event(event.id)
    if work.actor.role is Role.TEAM_LEADER and (team_id is None or not work.actor.leads(team_id)):
        raise Forbidden(Text("领队只能查看本队的订单", "a team leader sees the own team's orders only"), code="not_own_team")
    return rows.orders_of(work.session, event.id, team_id)


def bridge_for(settings: Settings, order: OrderRecord) -> BridgeCall | None:
    """An open JSAPI order's call for WeChat's bridge, signed now by its provider (the stored
    ``pay_url`` is the package "prepay_id=…"); None for any other order."""
    provider = settings.payments.get(order.provider)
    sign = getattr(provider, "bridge_call", None)
    if order.mode != JSAPI or order.status != "open" or not order.pay_url.startswith("prepay_id=") or sign is None:
        return None
    found = sign(order.pay_url)
    return found if isinstance(found, BridgeCall) else None


# ----- callbacks and queries ------------------------------------------------------------------------
def _apply(work: Work, provider: Provider, order: OrderRecord, transaction_id: str) -> bool:
    """Move the order to paid and book each item once; False when another writer did it first."""
    if not rows.move_order(work.session, work.stamp, order, "paid", transaction_id=transaction_id):
        return False
    for kind, sid, amount in order.items:
        rows.add_payment(work.session, work.stamp, order.event_id, kind, sid, amount, provider.name,
                         transaction_id=transaction_id, order_id=order.id, note=order.out_trade_no)
        if kind == ENTRY:
            sync_entry_flag(work, sid, order.out_trade_no)
        elif kind == PLACE:
            place_fees.place_paid(work, order, sid, amount)
    work.emit("order_paid", order.event_id, order=order.id, amount_fen=order.amount_fen)
    return True


def _matches(provider: Provider, order: OrderRecord, notice_amount: int, currency: str, merchant: str) -> bool:
    return (notice_amount == order.amount_fen and currency == order.currency and merchant == provider.merchant_id
            and order.provider == provider.name)


def apply_callback(work: Work, provider_name: str, headers: dict[str, str], body: bytes) -> str:
    """A provider's notification: verified by the provider (signature, decryption), then compared
    with the stored order and applied once. Returns what happened (applied, duplicate, …); an
    unverifiable callback is refused (400) and changes nothing."""
    provider = provider_named(work, provider_name)
    try:
        notice = provider.parse_callback(headers, body)
    except BadCallback as exc:
        raise InputError(exc.text, code=exc.code) from None
    if isinstance(notice, RefundNotice):
        return refunds.apply_refund_notice(work, provider, notice)
    if not notice.notify_id or not rows.claim_notice(work.session, provider.name, notice.notify_id,
                                                     notice.out_trade_no, work.now):
        return DUPLICATE
    order = rows.order_by_trade_no(work.session, notice.out_trade_no, lock=True)
    if order is None or not _matches(provider, order, notice.amount_fen, notice.currency, notice.merchant_id):
        audit_rows.audit(work.session, work.stamp, order.event_id if order else None, "order_mismatch", "order",
                        order.id if order else notice.out_trade_no, None,
                        {"out_trade_no": notice.out_trade_no, "amount_fen": notice.amount_fen,
                         "currency": notice.currency, "merchant": notice.merchant_id})
        return MISMATCH
    if not notice.paid:
        return NOT_PAID
    return APPLIED if _apply(work, provider, order, notice.transaction_id) else DUPLICATE


def _ask(settings: Settings, order: OrderRecord, now: datetime) -> tuple[str, Notice | None]:
    """Ask the provider about one open order, with no database transaction open: ``paid`` (and
    the provider's notice), ``closed`` once its time is over (closed at the provider first), or
    ``open`` (not paid yet, or the provider could not be reached: asked again next time)."""
    provider = settings.payments.get(order.provider)
    if provider is None:
        return "open", None
    try:
        notice = provider.query(order.out_trade_no)
    except ProviderError:
        return "open", None
    if notice.paid and _matches(provider, order, notice.amount_fen, notice.currency, notice.merchant_id):
        return "paid", notice
    if now >= order.expires_at and not notice.paid:
        try:
            provider.close(order.out_trade_no)
        except ProviderError:
            return "open", None
        return "closed", None
    return "open", None


def _record(work: Work, order: OrderRecord, outcome: str, notice: Notice | None) -> bool:
    """The provider's answer about ``order``, written in its own transaction; False when another
    writer (a callback, another worker) moved the order first."""
    if outcome == "paid" and notice is not None:
        return _apply(work, provider_named(work, order.provider), order, notice.transaction_id)
    if outcome == "closed":
        return rows.move_order(work.session, work.stamp, order, "closed")
    return False


def _settle(ctx: Context, actor: Actor | None, order: OrderRecord, now: datetime, counts: dict[str, int]) -> None:
    outcome, notice = _ask(ctx.settings, order, now)
    if outcome == "open":
        counts["open"] += 1
        return
    with ctx.work(actor=actor) as work:
        counts[outcome] += _record(work, order, outcome, notice)


def settle_open_orders(ctx: Context, actor: Actor | None = None) -> dict[str, int]:
    """For every open order: ask the provider (no callback may have come); book it if paid, close
    it at the provider and here once its time is over. The web server runs this on a timer. The
    provider is asked between transactions (a slow provider holds no lock); each answer is
    written in a transaction of its own."""
    with ctx.work(actor=actor) as work:
        work.require(Action.SETTLE_PAYMENTS)
        pending, now = rows.open_orders(work.session), work.now
    counts = {"paid": 0, "closed": 0, "open": 0}
    for order in pending:
        _settle(ctx, actor, order, now, counts)
    return counts


def _players_own(work: Work, order: OrderRecord) -> bool:
    """A player's order: it pays only places, each his own."""
    places = [sid for kind, sid, _ in order.items if kind == PLACE]
    if not places or len(places) != len(order.items):
        return False
    for sid in places:
        place = qualification_rows.place_in(work.session, order.event_id, sid)
        if place is None or place.player != work.actor.id:
            return False
    return True


def order_for(work: Work, event_ref: str | None, out_trade_no: str) -> OrderRecord:
    """One order of the event; a team leader sees his own team's orders only, a player the
    orders for his own qualifier place only."""
    event = resolve_event(work, event_ref)
    work.check_event(event.id)
    order = rows.order_by_trade_no(work.session, out_trade_no)
    if order is None or order.event_id != event.id:
        raise NotFoundError(Text("没有这个订单", "no such order"), code="no_order")
    if work.actor.role is Role.PLAYER:
        if not _players_own(work, order):
            raise Forbidden(Text("只能查看自己的订单", "you see your own orders only"), code="not_your_order")
        return order
    if work.actor.role is Role.TEAM_LEADER and (order.team_id is None or not work.actor.leads(order.team_id)) \
            and order.created_by != work.actor.name:
        raise Forbidden(Text("领队只能查看本队的订单", "a team leader sees the own team's orders only"), code="not_own_team")
    return order


def check_order(ctx: Context, actor: Actor | None, event_ref: str | None, out_trade_no: str) -> OrderRecord:
    """The payer's "I have paid": ask the provider now instead of waiting for its callback (with
    no transaction open while it answers)."""
    with ctx.work(actor=actor) as work:
        if work.actor.role is not Role.PLAYER:  # a player asks about his own place's order only (order_for)
            work.require(Action.REGISTER)
        order = order_for(work, event_ref, out_trade_no)
        now = work.now
    if order.status == "open":
        _settle(ctx, actor, order, now, {"paid": 0, "closed": 0, "open": 0})
    with ctx.work(actor=actor) as work:
        found = rows.order_by_trade_no(work.session, out_trade_no)
    assert found is not None
    return found


def sync_entry_flag(work: Work, entry_id: int, note: str = "") -> None:
    """An entry is 已缴费 when its payments cover what it owes."""
    try:
        entry = entry_rows.get_entry(work.session, entry_id)
    except NotFound:
        return
    event_id = entry_rows.entry_event(work.session, entry_id)
    paid_fen, _ = rows.subject_sums(work.session, event_id, ENTRY, entry_id)
    covered = paid_fen >= entry_due(entry) and paid_fen > 0  # a refund later does not unpay it
    if covered != entry.fee_paid:
        entry_rows.update_entry(work.session, work.stamp, entry.model_copy(update={"fee_paid": covered}), "fee", note)
