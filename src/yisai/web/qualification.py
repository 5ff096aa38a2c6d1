"""Pages from the online qualifier to the final (issue 14).

* public ``/events/{id}/qualification`` — each closed period's published list (积分, 胜局数, the
  tie note, earlier qualifiers) with the amendments, names and figures only;
* player ``/qualification/{id}`` — my places, the deadline, notices, and the form completing the
  final's details (checked by the same rules as the CLI); with a payment provider configured the
  form is 提交信息并缴费 and the place waits 待缴费 until its order is paid (``…/orders/{no}``:
  the QR code or the phone's payment link, 我已支付);
* console ``/console/events/{id}/qualification`` — close a period, places by state (who lapsed),
  reminders, the final's entry list preview and apply;
* console ``/console/events/{id}/fairplay`` — the review queue by signal, annul / change /
  restore a game with a reason, suspensions;
* console ``/console/events/{id}/operations`` — the operator's dashboard with SVG plots.

Every write is a POST with the session's CSRF token; the services check the role.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any
from urllib.parse import quote

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from markupsafe import Markup

from yisai.awards.final_entries import SOURCE_LABELS
from yisai.formats.svg_chart import bar_chart
from yisai.i18n import Text, tr
from yisai.services import fairplay, operations
from yisai.services import qualification as q
from yisai.services.context import Context
from yisai.services.errors import InputError, ServiceError
from yisai.services.events import regulation_of, resolve_event
from yisai.services.identity import Action, Actor
from yisai.services.live import pool_names
from yisai.services.payments import flow
from yisai.services.payments.base import JSAPI, MODE_LABELS
from yisai.vocabulary.money import yuan_text
from yisai.web.console import acting, client_of, require_login
from yisai.web.core import PUBLIC, check_csrf, lang_of, page, state
from yisai.web.fees import order_view
from yisai.web.hints import web_message
from yisai.web.notices import kick
from yisai.web.requests import Id, read_form
from yisai.web.wechat_pay import check_mode, pay_modes, payer_openid, resumable, with_payer

router = APIRouter(include_in_schema=False)


log = logging.getLogger("yisai.qualification")
DUTY_SECONDS = 600.0  # how often the server looks for due reminders and overdue places


SIGNALS_PER_PASS = 2000  # a busy day's finished games between two passes, with room to spare


def qualifier_duties(ctx: Context, event: str) -> int:
    """One pass of the server's own scheduled work for the qualifier: overdue places lapse and
    the reminders that are due are made (in-app, and queued as SMS notices for the notice
    worker), so nobody has to press the console's button for the deadline rule to hold; and the fair-play
    signals of games finished since the last pass are computed (its own transaction: a clash
    with another worker computing the same game fails only that part, retried next pass)."""
    with ctx.work(Actor.system()) as work:
        outgoing = q.send_reminders(work, event)
    with ctx.work(Actor.system()) as work:
        fairplay.refresh_signals(work, event, limit=SIGNALS_PER_PASS)
    return len(outgoing)


async def run_duties(ctx: Context, event: str, every: float = DUTY_SECONDS) -> None:
    """``qualifier_duties`` every ``every`` seconds while the server runs (each pass is
    idempotent, so several worker processes doing it at once send each reminder once)."""
    while True:
        try:
            sent = await asyncio.to_thread(qualifier_duties, ctx, event)
            if sent:
                log.info("qualifier reminders sent: %d", sent)
        except Exception:  # a failing pass is logged and tried again next time
            log.exception("qualifier duties failed")
        await asyncio.sleep(every)


async def _form(request: Request) -> dict[str, str]:
    await check_csrf(request)
    form = await read_form(request)
    return {k: v.strip() for k, v in form.items() if isinstance(v, str)}


def _back(url: str, message: str = "", *, ok: bool = True) -> RedirectResponse:
    key = "msg" if ok else "err"
    return RedirectResponse(url + (f"?{key}={quote(message)}" if message else ""), status_code=303)


def _error_text(exc: ServiceError, lang: str) -> str:
    return "；".join([web_message(exc, lang), *exc.render_details(lang)])


# ------------------------------------------------------------------ public list
@router.get("/events/{event_id}/qualification", response_class=HTMLResponse)
def public_lists(request: Request, event_id: Id) -> Response:
    with state(request).ctx.work(actor=PUBLIC) as work:
        event = resolve_event(work, str(event_id))
        reg = regulation_of(event)
        lists = q.published_lists(work, event_id)
    return page(request, "qualification/public.html", event=event, lists=lists, pools=pool_names(reg),
                user=None)


# ------------------------------------------------------------------ the player's page
def _mine(request: Request, event_id: int, *, given: dict[str, str] | None = None, place_id: int = 0,
          msg: str = "", err: str = "", reasons: list[str] | None = None, http_status: int = 200) -> Response:
    """The player's page: each place, its deadline and state, the fee and the pay buttons when a
    provider is configured, offered by the browser as the fee page offers them (``pay_modes``)."""
    with acting(request) as work:
        event = resolve_event(work, str(event_id))
        places = q.my_places(work, event_id)
        notices = q.my_notices(work, event_id)
        filled = {p.id: (given if given is not None and p.id == place_id else q.prefill(work, p)) for p in places}
        fees = q.place_fees_of(work, event_id, places)
        providers = flow.offered(work)
    modes = {pr.name: list(pay_modes(request, pr)) for pr in providers}  # this browser's, likeliest first
    return page(request, "qualification/mine.html", http_status=http_status, event=event, places=places,
                notices=notices, filled=filled, msg=msg, err=err, reasons=reasons or [], fees=fees,
                providers=providers, modes=modes, yuan=yuan_text, mode_label=lambda m: MODE_LABELS[m].render())


@router.get("/qualification/{event_id}", response_class=HTMLResponse)
def my_page(request: Request, event_id: Id, msg: str = "", err: str = "") -> Response:
    return _mine(request, event_id, msg=msg, err=err)


def _via(form: dict[str, str]) -> tuple[str, str]:
    """The form's 支付方式 ``wechat:native`` → (provider, mode); the service refuses what is not offered."""
    provider, _, mode = form.get("via", "").partition(":")
    return provider, mode


def _order_url(event_id: int, out_trade_no: str) -> str:
    return f"/qualification/{event_id}/orders/{out_trade_no}"


@router.post("/qualification/{event_id}/places/{place_id}")
async def confirm(request: Request, event_id: Id, place_id: Id) -> Response:
    """提交参赛信息; with a provider chosen on the form, 提交信息并缴费 (details stored, the place
    待缴费, an order opened): the service decides whether paying is required."""
    form = await _form(request)
    fields = {k: form.get(k, "") for k in (*q.FORM_FIELDS, *q.GUARDIAN_FIELDS)}
    try:
        if form.get("via"):
            provider, mode = _via(form)
            check_mode(request, provider, mode)
            openid = payer_openid(request) if mode == JSAPI else ""
            if mode == JSAPI and not openid:  # the details kept (待缴费), then WeChat asked who pays
                with acting(request) as work:
                    q.hold_for_payment(work, event_id, place_id, fields)
                return with_payer(request, mode, _intent(event_id, place_id, provider, mode),
                                  lambda known: _pay_place(request, _intent(event_id, place_id, provider, mode), known))
            checkout = q.confirm_and_pay(state(request).ctx, require_login(request), event_id, place_id, fields,
                                         provider, mode, client_of(request), openid)
            return RedirectResponse(_order_url(event_id, checkout.order.out_trade_no), status_code=303)
        with acting(request) as work:
            q.confirm_place(work, event_id, place_id, fields)
    except ServiceError as exc:
        if exc.status == 403:
            raise
        lang = lang_of(request)
        return _mine(request, event_id, given=fields, place_id=place_id, err=exc.render(lang),
                     reasons=exc.render_details(lang), http_status=exc.status)
    return _back(f"/qualification/{event_id}", tr("参赛信息已提交", "details submitted"))


@router.post("/qualification/{event_id}/places/{place_id}/pay")
async def pay(request: Request, event_id: Id, place_id: Id) -> Response:
    """去缴费: a new order for a place waiting for its fee (待缴费), until the deadline."""
    form = await _form(request)
    provider, mode = _via(form)
    try:
        check_mode(request, provider, mode)
    except ServiceError as exc:
        return _back(f"/qualification/{event_id}", _error_text(exc, lang_of(request)), ok=False)
    intent = _intent(event_id, place_id, provider, mode)
    return with_payer(request, mode, intent, lambda openid: _pay_place(request, intent, openid))


def _intent(event_id: int, place_id: int, provider: str, mode: str) -> dict[str, Any]:
    """What a JSAPI payment waiting for the payer's openid will pay (web/wechat_pay.py)."""
    return {"k": "place", "e": event_id, "i": place_id, "p": provider, "m": mode}


def _pay_place(request: Request, intent: dict[str, Any], openid: str) -> Response:
    """An order for the place's fee, then its page; a refusal back on the player's page in words."""
    event_id = int(intent["e"])
    try:
        checkout = flow.pay_place(state(request).ctx, require_login(request), str(event_id), int(intent["i"]),
                                  str(intent["p"]), str(intent["m"]), client_of(request), openid=openid)
    except ServiceError as exc:
        if exc.status == 403:
            raise
        return _back(f"/qualification/{event_id}", _error_text(exc, lang_of(request)), ok=False)
    return RedirectResponse(_order_url(event_id, checkout.order.out_trade_no), status_code=303)


resumable("place", _pay_place)


@router.get("/qualification/{event_id}/orders/{out_trade_no}", response_class=HTMLResponse)
def order(request: Request, event_id: Id, out_trade_no: str) -> Response:
    """The player's own order: the QR code or the phone's payment link, then its outcome."""
    with acting(request) as work:
        event = resolve_event(work, str(event_id))
        found = flow.order_for(work, str(event_id), out_trade_no)  # his own place's order only
    return order_view(request, found, _order_url(event_id, out_trade_no), f"/qualification/{event_id}",
                      tr("返回我的总决赛资格", "Back to my place"), nav=False, event=event)


@router.post("/qualification/{event_id}/orders/{out_trade_no}/check")
async def check(request: Request, event_id: Id, out_trade_no: str) -> Response:
    """我已支付: the provider asked now; paid, the place is confirmed."""
    await _form(request)
    found = flow.check_order(state(request).ctx, require_login(request), str(event_id), out_trade_no)
    word = {"paid": tr("已支付, 名额已确认", "paid: the place is confirmed"),
            "closed": tr("订单已关闭", "the order is closed")}.get(found.status, tr("尚未支付", "not paid yet"))
    return _back(_order_url(event_id, out_trade_no), word)


# ------------------------------------------------------------------ console: close, places, final
@router.get("/console/events/{event_id}/qualification", response_class=HTMLResponse)
def console_page(request: Request, event_id: Id, msg: str = "", err: str = "") -> Response:
    with acting(request) as work:
        event = resolve_event(work, str(event_id))
        reg = regulation_of(event)
        places = q.all_places(work, event_id)  # overdue places show as lapsed; the duty writes it
        lists = q.published_lists(work, event_id)
        preview = q.final_preview(work, event_id) if work.actor.may(Action.APPROVE) else None
        stage = next(s for s in reg.stages if getattr(s.format, "kind", "") == "online_ladder")
    published = {pl.period for pl in lists}
    return page(request, "qualification/console.html", event=event, places=places, lists=lists,
                periods=stage.periods, published=published, preview=preview, labels=SOURCE_LABELS,
                pools=pool_names(reg), msg=msg, err=err)


@router.post("/console/events/{event_id}/qualification/close/{period}")
async def close(request: Request, event_id: Id, period: Id) -> Response:
    await _form(request)
    url = f"/console/events/{event_id}/qualification"
    try:
        with acting(request) as work:
            q.close_period(work, event_id, period)
    except ServiceError as exc:
        if exc.status == 403:
            raise
        return _back(url, _error_text(exc, lang_of(request)), ok=False)
    return _back(url, tr(f"第{period}期名单已公布", f"period {period} published"))


@router.post("/console/events/{event_id}/qualification/reminders")
async def reminders(request: Request, event_id: Id) -> Response:
    await _form(request)
    with acting(request) as work:
        outgoing = q.send_reminders(work, event_id)
    answer = _back(f"/console/events/{event_id}/qualification",
                   tr(f"已发送提醒 (短信{len(outgoing)}条已排队)", f"reminders sent ({len(outgoing)} text messages queued)"))
    answer.background = kick(request)
    return answer


@router.post("/console/events/{event_id}/qualification/final")
async def apply_final(request: Request, event_id: Id) -> Response:
    await _form(request)
    with acting(request) as work:
        plan = q.apply_final(work, event_id)
    return _back(f"/console/events/{event_id}/qualification",
                 tr(f"总决赛报名已生成: 新增{len(plan.to_apply)}项", f"final entries: {len(plan.to_apply)} added"))


# ------------------------------------------------------------------ console: fair play
@router.get("/console/events/{event_id}/fairplay", response_class=HTMLResponse)
def fairplay_page(request: Request, event_id: Id, msg: str = "", err: str = "") -> Response:
    with acting(request) as work:
        event = resolve_event(work, str(event_id))
        queue = fairplay.review_queue(work, event_id, limit=100)
        sanctions = fairplay.sanctions(work, event_id)
    return page(request, "qualification/fairplay.html", event=event, queue=queue, sanctions=sanctions,
                choices=fairplay.RESULT_CHOICES, msg=msg, err=err)


@router.post("/console/events/{event_id}/fairplay/games/{game_id}")
async def decide(request: Request, event_id: Id, game_id: Id) -> Response:
    form = await _form(request)
    url = f"/console/events/{event_id}/fairplay"
    what, reason = form.get("decision", ""), form.get("reason", "")
    try:
        with acting(request) as work:
            work.require(Action.REVIEW_GAMES, event_id)  # role and event before the form: never "bad input"
            if what == "annul":
                versions = fairplay.annul_game(work, event_id, game_id, reason)
            elif what == "restore":
                versions = fairplay.restore_game(work, event_id, game_id, reason)
            elif what in fairplay.RESULT_CHOICES:
                versions = fairplay.change_result(work, event_id, game_id, what, reason)
            else:
                raise InputError(Text("请选择处理方式", "choose a decision"), code="bad_decision")
    except ServiceError as exc:
        if exc.status == 403:
            raise
        return _back(url, _error_text(exc, lang_of(request)), ok=False)
    note = tr("，晋级名单已更正", "; the qualification list was amended") if versions else ""
    return _back(url, tr(f"对局{game_id}已处理", f"game {game_id} decided") + note)


@router.post("/console/events/{event_id}/fairplay/suspend")
async def suspend(request: Request, event_id: Id) -> Response:
    form = await _form(request)
    url = f"/console/events/{event_id}/fairplay"
    try:
        periods = int(form.get("periods") or "0")
    except ValueError:
        return _back(url, tr("禁赛期数须为整数", "periods must be a whole number"), ok=False)
    try:
        with acting(request) as work:
            fairplay.suspend_player(work, event_id, form.get("player", ""), periods=periods,
                                    reason=form.get("reason", ""))
    except ServiceError as exc:
        if exc.status == 403:
            raise
        return _back(url, _error_text(exc, lang_of(request)), ok=False)
    return _back(url, tr("已记录禁赛", "suspension recorded"))


# ------------------------------------------------------------------ console: operations
@router.get("/console/events/{event_id}/operations", response_class=HTMLResponse)
def operations_page(request: Request, event_id: Id) -> Response:
    with acting(request) as work:
        event = resolve_event(work, str(event_id))
        d = operations.dashboard(work, event_id)
    charts = [
        Markup(bar_chart(d.games_per_hour, title=tr("每小时完成对局数 (近24小时)", "games per hour (24 h)"), every=3)),
        Markup(bar_chart(d.wait_histogram, title=tr("匹配等待时间 (近24小时, 人次)", "matching waits (24 h)"))),
        Markup(bar_chart(d.escapes_per_day, title=tr("每日逃跑局数 (近14天)", "escapes per day (14 days)"), every=2)),
    ]  # bar_chart escapes every label itself
    return page(request, "qualification/operations.html", event=event, d=d, charts=charts)


__all__ = ["router"]
