"""Console pages for appeals (申诉): list per event, record a written appeal, decide it."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from yisai.i18n import Text, tr
from yisai.services.appeals import (
    STATUS_LABELS,
    appeal_terms,
    decide_appeal,
    file_appeal,
    list_appeals,
)
from yisai.services.errors import InputError
from yisai.services.payments import refunds
from yisai.web.console import _event_context, _form, _text, acting, back, require_login
from yisai.web.core import page, state
from yisai.web.requests import Id, form_number

router = APIRouter(prefix="/console", include_in_schema=False)


@router.get("/events/{event_id}/appeals", response_class=HTMLResponse)
def appeals_page(request: Request, event_id: Id, msg: str = "", err: str = "") -> Response:
    with acting(request) as work:
        ctx = _event_context(work, event_id)
        appeals = list_appeals(work, str(event_id))
        terms = appeal_terms(work, str(event_id))
    return page(request, "console/appeals.html", appeals=appeals, terms=terms, msg=msg, err=err,
                status_label=lambda s: STATUS_LABELS[s].render(),
                division_names=dict(ctx["divisions"]), **ctx)  # 乙组, never "yi"


@router.post("/events/{event_id}/appeals")
async def file(request: Request, event_id: Id) -> Response:
    form = await _form(request)
    number = form_number(_text(form, "round"), Text("轮次", "round"))
    if number is None:
        raise InputError(Text("请填写轮次", "the round is required"), code="bad_number")
    with acting(request) as work:
        _event_context(work, event_id)
        saved = file_appeal(work, str(event_id), _text(form, "division"), number,
                            appellant=_text(form, "appellant"), subject=_text(form, "subject"),
                            board=form_number(_text(form, "board"), Text("台次", "board")))
    return back(f"/console/events/{event_id}/appeals",
                tr(f"申诉{saved.id}已登记, 申诉费{saved.fee}元", f"appeal {saved.id} filed, fee {saved.fee} yuan"))


@router.post("/events/{event_id}/appeals/{appeal_id}")
async def decide(request: Request, event_id: Id, appeal_id: Id) -> Response:
    form = await _form(request)
    with acting(request) as work:
        _event_context(work, event_id)
        saved = decide_appeal(work, str(event_id), appeal_id, upheld=_text(form, "outcome") == "upheld",
                              decision=_text(form, "decision"))
    said = tr(f"申诉{saved.id}: {STATUS_LABELS[saved.status].zh}", f"appeal {saved.id}: {saved.status}")
    if saved.refunded:  # the decision committed its refund as requested: now the provider is asked
        sent = refunds.send_requested_refunds(state(request).ctx, require_login(request), str(event_id))
        if sent:
            said += "; " + refunds.summary(sent).render()
    return back(f"/console/events/{event_id}/appeals", said)
