"""Console pages for the fee ledger (issue 46) and the payment providers' callbacks.

``/console/events/{id}/fees``: due, paid and refunded per entry, team and appeal, with totals; a
team leader sees his own team's lines and a pay button for each configured provider; the chief
referee refunds. ``/pay/{provider}/notify``: a provider's callback, unauthenticated by design (the
provider cannot sign in): the provider's signature is what is checked, then the stored order.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import date, timedelta
from typing import Any
from urllib.parse import quote

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response

from yisai.formats import fees_export
from yisai.i18n import Text, tr
from yisai.registry.ledger import ENTRY, KIND_LABELS, KINDS, TEAM, Line, totals
from yisai.services import fees
from yisai.services.context import Context
from yisai.services.errors import Forbidden, InputError, NotFoundError, Refused, ServiceError
from yisai.services.identity import Action, Actor, Role
from yisai.services.payments import alipay, flow, refunds
from yisai.services.payments.base import MODE_LABELS
from yisai.services.payments.flow import OrderRecord
from yisai.services.payments.reconcile import reconcile
from yisai.vocabulary.money import yuan_text
from yisai.web.console import _event_context, _form, _text, acting, back, client_of, require_login
from yisai.web.core import page, state
from yisai.web.requests import Id
from yisai.web.wechat_pay import check_mode, pay_modes, resumable, with_payer

router = APIRouter(include_in_schema=False)
log = logging.getLogger("yisai.payments")
SETTLE_SECONDS = 60  # how often open orders are asked about and expired ones closed


def _leader_lines(actor: Actor, ledger: fees.FeeLedger, members: dict[int, set[int]]) -> list[Line]:
    """What a team leader may see: his teams and their members' entries."""
    own = {int(t) for t in actor.own_teams}
    entries = {e for t in own for e in members.get(t, set())}
    return [ln for ln in ledger.lines if (ln.kind == TEAM and ln.id in own) or (ln.kind == ENTRY and ln.id in entries)]


@router.get("/console/events/{event_id}/fees", response_class=HTMLResponse)
def fees_page(request: Request, event_id: Id, msg: str = "", err: str = "") -> Response:
    with acting(request) as work:
        ctx = _event_context(work, event_id)
        if work.actor.role not in (Role.CHIEF_REFEREE, Role.REFEREE, Role.OPERATOR, Role.TEAM_LEADER):
            raise Forbidden(Text("无权查看费用", "may not see the fees"))
        ledger = fees.fee_ledger(work, str(event_id))
        members = fees.team_entries(work, event_id)
        lines = _leader_lines(work.actor, ledger, members) if work.actor.role is Role.TEAM_LEADER else ledger.lines
        providers = flow.offered(work)
        own_orders = [o for t in sorted(work.actor.own_teams) for o in flow.orders(work, str(event_id), int(t))] \
            if work.actor.role is Role.TEAM_LEADER else flow.orders(work, str(event_id))
        names = {ln.id: ln.label for ln in ledger.of(TEAM)} | fees.team_names(work, event_id)
        owed = {tid: total for tid in sorted(int(t) for t in work.actor.own_teams)
                if (total := sum(a for _, _, a in flow.team_items(work, ledger.event, tid))) > 0} \
            if work.actor.role is Role.TEAM_LEADER and providers else {}
    groups = [(k, KIND_LABELS[k].render(), [ln for ln in lines if ln.kind == k]) for k in KINDS]
    labels = {(ln.kind, ln.id): f"{KIND_LABELS[ln.kind].render()} · {ln.label}" for ln in lines}
    shown = [r for r in ledger.refunds if (r.subject_kind, r.subject_id) in labels]  # a leader: his own lines'
    return page(request, "console/fees.html", groups=groups, total=totals(lines), yuan=yuan_text,
                refund_rows=[(labels[(r.subject_kind, r.subject_id)], r) for r in shown][-50:],
                refund_label=lambda s: refunds.STATUS_LABELS[s].render() if s in refunds.STATUS_LABELS else s,
                providers=providers, mode_label=lambda m: MODE_LABELS[m].render(),
                modes=lambda p: pay_modes(request, p),
                channel_label=lambda c: fees.CHANNEL_LABELS[c].render() if c in fees.CHANNEL_LABELS else c, orders=own_orders[-20:],
                may_refund=work.actor.may(Action.APPROVE), leader=work.actor.role is Role.TEAM_LEADER,
                team_names=names, team_owed=owed, msg=msg, err=err, **ctx)


@router.get("/console/events/{event_id}/fees/reconcile", response_class=HTMLResponse)
def reconcile_page(request: Request, event_id: Id, provider: str = "wechat", day: str = "") -> Response:
    """对账: the provider's bill of a day against this event's paid orders, differences in words."""
    with acting(request) as work:
        ctx = _event_context(work, event_id)
        try:
            chosen = date.fromisoformat(day) if day else (work.now - timedelta(days=1)).date()
        except ValueError:
            raise InputError(Text(f"日期应为如 2025-04-10: {day[:20]}", f"the day is like 2025-04-10: {day[:20]}"),
                             code="bad_day") from None
        differences = reconcile(work, provider, chosen, event_id)
    return page(request, "console/fee_reconcile.html", differences=differences, day=chosen, provider=provider, **ctx)


@router.get("/console/events/{event_id}/fees.{fmt}")
def fees_export_file(request: Request, event_id: Id, fmt: str) -> Response:
    if fmt not in ("csv", "xlsx"):
        raise NotFoundError(Text("只能导出 csv 或 xlsx", "export as csv or xlsx"), code="bad_format")
    with acting(request) as work:
        ctx = _event_context(work, event_id)
        ledger = fees.official_ledger(work, str(event_id))
    name = f"{ctx['event'].name}-费用.{fmt}"
    disposition = f"attachment; filename=\"fees.{fmt}\"; filename*=UTF-8''{quote(name)}"
    if fmt == "csv":
        data = fees_export.to_csv(ledger.lines, ledger.totals).encode("utf-8-sig")
        return Response(data, media_type="text/csv; charset=utf-8", headers={"Content-Disposition": disposition})
    data = fees_export.to_xlsx(ctx["event"].name, ledger.lines, ledger.totals)
    return Response(data, media_type="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
                    headers={"Content-Disposition": disposition})


def _checkout_page(request: Request, event_id: int, checkout: flow.Checkout) -> Response:
    return back(f"/console/events/{event_id}/fees/orders/{checkout.order.out_trade_no}")


def _pay_team(request: Request, intent: dict[str, Any], openid: str) -> Response:
    event_id = int(intent["e"])
    checkout = flow.pay_team(state(request).ctx, require_login(request), str(event_id), int(intent["i"]),
                             str(intent["p"]), str(intent["m"]), client_of(request), openid)
    return _checkout_page(request, event_id, checkout)


def _pay_appeal(request: Request, intent: dict[str, Any], openid: str) -> Response:
    event_id = int(intent["e"])
    checkout = flow.pay_appeal(state(request).ctx, require_login(request), str(event_id), int(intent["i"]),
                               str(intent["p"]), str(intent["m"]), client_of(request), openid)
    return _checkout_page(request, event_id, checkout)


resumable("team", _pay_team)  # a JSAPI payment waiting for the payer's openid (web/wechat_pay.py)
resumable("appeal", _pay_appeal)


async def _pay(request: Request, kind: str, event_id: int, subject_id: int) -> Response:
    """The team's or the appeal's fee through the chosen provider and mode (checked against what
    this browser was offered); JSAPI first learns the payer's openid from WeChat."""
    form = await _form(request)
    with acting(request) as work:
        _event_context(work, event_id)
    provider, mode = _text(form, "provider"), _text(form, "mode")
    check_mode(request, provider, mode)
    intent = {"k": kind, "e": event_id, "i": subject_id, "p": provider, "m": mode}
    pay = _pay_team if kind == "team" else _pay_appeal
    return with_payer(request, mode, intent, lambda openid: pay(request, intent, openid))


@router.post("/console/events/{event_id}/fees/pay/team/{team_id}")
async def pay_team(request: Request, event_id: Id, team_id: Id) -> Response:
    return await _pay(request, "team", event_id, team_id)


@router.post("/console/events/{event_id}/fees/pay/appeal/{appeal_id}")
async def pay_appeal(request: Request, event_id: Id, appeal_id: Id) -> Response:
    return await _pay(request, "appeal", event_id, appeal_id)


@router.get("/console/events/{event_id}/fees/orders/{out_trade_no}", response_class=HTMLResponse)
def order_page(request: Request, event_id: Id, out_trade_no: str) -> Response:
    with acting(request) as work:
        ctx = _event_context(work, event_id)
        order = flow.order_for(work, str(event_id), out_trade_no)
    return order_view(request, order, f"/console/events/{event_id}/fees/orders/{out_trade_no}",
                      f"/console/events/{event_id}/fees", tr("返回费用台账", "Back to the fee ledger"), nav=True, **ctx)


def order_view(request: Request, order: OrderRecord, order_url: str, back_url: str, back_text: str, *, nav: bool,
               **context: Any) -> Response:
    """One order's page: the QR code (Native), the payment link (H5/wap), or its outcome, and
    「我已支付, 查询结果」 (POST ``order_url``/check). Shared by the console's fee page and a
    qualified player's page (``nav``: the console's navigation)."""
    qr = ""
    if order.mode == "native" and order.status == "open" and order.pay_url:
        import segno  # the QR code as inline SVG (text only: no image files, no script)

        qr = segno.make(order.pay_url, error="m").svg_inline(scale=5, title=tr("微信扫码支付", "scan to pay"))
    bridge = flow.bridge_for(state(request).ctx.settings, order)  # JSAPI: signed now, never the key
    return page(request, "console/fee_order.html", order=order, qr=qr, yuan=yuan_text,
                mode_label=MODE_LABELS[order.mode].render(), bridge=bridge.as_bridge() if bridge else None,
                order_url=order_url, back_url=back_url, back_text=back_text, nav=nav, **context)


@router.post("/console/events/{event_id}/fees/orders/{out_trade_no}/check")
async def check_order(request: Request, event_id: Id, out_trade_no: str) -> Response:
    await _form(request)
    with acting(request) as work:
        _event_context(work, event_id)
    order = flow.check_order(state(request).ctx, require_login(request), str(event_id), out_trade_no)
    word = {"paid": tr("已支付", "paid"), "closed": tr("已关闭", "closed")}.get(order.status, tr("尚未支付", "not paid yet"))
    return back(f"/console/events/{event_id}/fees/orders/{out_trade_no}", word)


@router.post("/console/events/{event_id}/fees/refund")
async def refund(request: Request, event_id: Id) -> Response:
    form = await _form(request)
    kind = _text(form, "kind")
    raw_id = _text(form, "id")
    with acting(request) as work:
        _event_context(work, event_id)
        action = fees.refund_action(kind)
        work.require(action)  # the role first: nothing about the form is told to one who may not refund
        if kind not in KINDS or not raw_id.isdigit():
            raise InputError(Text("请选择要退款的报名、参赛队或申诉", "choose the entry, team or appeal to refund"),
                             code="bad_fee_subject")
        try:
            amount = fees.amount_fen(_text(form, "amount"))
            made = fees.refund_fee(work, str(event_id), kind, int(raw_id), amount, _text(form, "reason"),
                                   action=action)
        except (Refused, InputError) as exc:  # nothing written: the ledger page again, with the reason
            return back(f"/console/events/{event_id}/fees", exc.render(), ok=False)
    # committed: only now is the provider asked (no transaction open while it answers)
    sent = refunds.send_requested_refunds(state(request).ctx, require_login(request), str(event_id),
                                          [r.id for r in made])
    now = {r.id: r for r in sent}
    return back(f"/console/events/{event_id}/fees", refunds.summary([now.get(r.id, r) for r in made]).render())


# ----- the providers' callbacks ----------------------------------------------------------------------
NOTIFIER = Actor(id="pay-notify", name="支付通知", role=Role.PLAYER)  # writes only what a verified callback says


@router.post("/pay/{provider}/notify")
async def notify(request: Request, provider: str) -> Response:
    """WeChat Pay API v3: answer 200 (or 204) with no body when taken, a 4xx/5xx with
    ``{"code": "FAIL", "message": …}`` to be called again. Alipay: the text ``success`` when
    taken (a mismatch too: written to the audit log, sending it again would not help), else ``fail``."""
    body = await request.body()
    headers = {k: v for k, v in request.headers.items()}
    ctx: Context = request.app.state.web.ctx
    try:
        with ctx.work(actor=NOTIFIER) as work:
            outcome = flow.apply_callback(work, provider, headers, body)
    except ServiceError as exc:
        log.warning("payment callback refused: provider=%s code=%s", provider[:16], exc.code)
        status = 400 if exc.status < 500 else 500
        if provider == "alipay":  # Alipay reads the body only: anything but "success" is sent again
            return PlainTextResponse(alipay.callback_answer(False)[1], status_code=status)
        return JSONResponse({"code": "FAIL", "message": exc.render("zh")}, status_code=status)
    log.info("payment callback: provider=%s outcome=%s", provider[:16], outcome)
    if provider == "alipay":
        return PlainTextResponse(alipay.callback_answer(True)[1])
    return Response(status_code=204)


async def run_settlement(ctx: Context, every: int = SETTLE_SECONDS) -> None:
    """The server's timer: open orders asked about, expired ones closed (``flow.settle_open_orders``);
    refunds left ``requested`` sent again, ``processing`` ones asked about (``refunds.settle_refunds``)."""
    while True:
        await asyncio.sleep(every)
        try:
            await asyncio.to_thread(_settle_once, ctx)
        except Exception:  # a provider or database hiccup: try again next time
            log.exception("settling open payment orders failed")


def _settle_once(ctx: Context) -> None:
    """Orders, then refunds: a failure of one does not keep the other from its turn."""
    if not ctx.settings.payments:
        return
    for settle in (flow.settle_open_orders, refunds.settle_refunds):
        try:
            settle(ctx, Actor.system())
        except Exception:  # a provider or database hiccup: try again next time
            log.exception("payments timer: %s failed", settle.__name__)
