"""The SMS notices on the site: the background worker that sends the queue, the operator's
page (``/console/events/{id}/notices``: what was sent, what failed and why in the provider's
words, send again, per-event switches and the daily budget). The player's opt-out is on the
profile page (``web.play``).

Every web process runs the worker loop (``run_notice_worker``); the claim in the store makes
each notice go out once however many run. A request that queued a sign-in code also asks for
one pass right after its response (``kick``), so the code does not wait for the next tick.
"""

from __future__ import annotations

import asyncio
import logging

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response
from starlette.background import BackgroundTask

from yisai.i18n import Text, tr
from yisai.qualifier.notices import KINDS, Sender
from yisai.services import notices
from yisai.services.context import Context
from yisai.services.errors import InputError
from yisai.web.console import _event_context, _form, _text, acting, back
from yisai.web.core import page, state
from yisai.web.requests import Id, form_number

router = APIRouter(include_in_schema=False)
log = logging.getLogger("yisai.notices")
WORKER_SECONDS = 5.0  # how often each web process looks for due notices (retries, reminders)


def work_once(ctx: Context, sender: Sender) -> notices.PassResult:
    """One pass; a failing pass is logged and the next one tries again."""
    try:
        return notices.work_queue(ctx, sender)
    except Exception:
        log.exception("SMS notice worker pass failed")
        return notices.PassResult()


async def run_notice_worker(ctx: Context, sender: Sender, every: float = WORKER_SECONDS) -> None:
    while True:
        done = await asyncio.to_thread(work_once, ctx, sender)
        if done.sent or done.failed:
            log.info("SMS notices: %d sent, %d retrying, %d failed", done.sent, done.retrying, done.failed)
        await asyncio.sleep(every)


def sender_of(request: Request) -> Sender:
    found: Sender = request.app.state.notice_sender
    return found


def kick(request: Request) -> BackgroundTask:
    """Send what is due right after this response (the request itself never waits on it)."""
    return BackgroundTask(work_once, state(request).ctx, sender_of(request))


# ------------------------------------------------------------------ the operator's page
STATES = ("failed", "queued", "sent", "skipped")


@router.get("/console/events/{event_id}/notices", response_class=HTMLResponse)
def notices_page(request: Request, event_id: Id, msg: str = "", err: str = "", show: str = "") -> Response:
    with acting(request) as work:
        ctx = _event_context(work, event_id)
        summary = notices.notice_summary(work, event_id)
        listed = notices.notice_list(work, event_id, show if show in STATES else None, limit=200)
    optional = [k for k in KINDS.values() if k.optional]
    return page(request, "console/notices.html", summary=summary, listed=listed, kinds=optional, show=show,
                states=STATES, state_labels=notices.STATE_LABELS, provider=sender_of(request).name,
                msg=msg, err=err, **ctx)  # fmt: skip


@router.post("/console/events/{event_id}/notices/switch")
async def switch(request: Request, event_id: Id) -> Response:
    form = await _form(request)
    on = [k for k in KINDS if KINDS[k].optional and form.get(f"on_{k}") == "1"]
    with acting(request) as work:
        _event_context(work, event_id)
        for key in KINDS:
            if KINDS[key].optional:
                notices.switch_kind(work, event_id, key, key in on)
    return back(f"/console/events/{event_id}/notices", tr("通知开关已保存", "switches saved"))


@router.post("/console/events/{event_id}/notices/budget")
async def budget(request: Request, event_id: Id) -> Response:
    form = await _form(request)
    raw = _text(form, "budget")
    value = form_number(raw, Text("每日预算", "daily budget")) if raw else None
    if raw and value is None:
        raise InputError(Text("每日预算应为整数", "the daily budget must be a whole number"), code="bad_budget")
    with acting(request) as work:
        _event_context(work, event_id)
        notices.set_budget(work, event_id, value)
    return back(f"/console/events/{event_id}/notices", tr("每日短信预算已保存", "daily SMS budget saved"))


@router.post("/console/events/{event_id}/notices/{notice_id}/retry")
async def retry(request: Request, event_id: Id, notice_id: Id) -> Response:
    await _form(request)
    with acting(request) as work:
        _event_context(work, event_id)
        notices.requeue(work, notice_id)
    response = back(f"/console/events/{event_id}/notices", tr(f"通知{notice_id}已重新排队", f"notice {notice_id} queued again"))
    response.background = kick(request)
    return response


__all__ = ["kick", "router", "run_notice_worker", "sender_of", "work_once"]
