"""Console page for the chief referee's prize decisions (issue 41): the prize lists as paid
(gross, docking, tax, net), docking a winner who missed the 颁奖仪式, naming the winners of a
judged award (最佳进步奖), and the decision on a pool overrun — the same services as
`yisai prize dock|judge|pool`."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from yisai.i18n import tr
from yisai.services import prize_decisions as decisions
from yisai.services.errors import ServiceError
from yisai.web.console import _event_context, _form, _text, acting, back
from yisai.web.core import page
from yisai.web.hints import web_message
from yisai.web.requests import Id

router = APIRouter(prefix="/console", include_in_schema=False)


@router.get("/events/{event_id}/prizes", response_class=HTMLResponse)
def prizes_page(request: Request, event_id: Id, msg: str = "", err: str = "") -> Response:
    from yisai.services import reports

    with acting(request) as work:
        ctx = _event_context(work, event_id)
        problem = ""
        try:
            view = reports.prizes(work, str(event_id), teams=False)
            tables, report = view.prize_tables, view.report
        except ServiceError as exc:
            tables, report, problem = [], None, web_message(exc)
        paying = [pl for pl in report.lists if any(ln.amount for ln in pl.lines)] if report else []
    reg = ctx["reg"]
    return page(request, "console/prizes.html", tables=tables, report=report, paying=paying, problem=problem,
                ceremony=reg.prizes.ceremony_absence, judged=reg.prizes.judged, msg=msg, err=err, **ctx)


@router.post("/events/{event_id}/prizes/dock")
async def dock(request: Request, event_id: Id) -> Response:
    form = await _form(request)
    with acting(request) as work:
        _event_context(work, event_id)
        decisions.dock_prize(work, str(event_id), _text(form, "list"), _text(form, "holder"),
                             yuan=_text(form, "yuan") or None, note=_text(form, "note"))
    return back(f"/console/events/{event_id}/prizes", tr("已记录扣除", "docking recorded"))


@router.post("/events/{event_id}/prizes/judge")
async def judge(request: Request, event_id: Id) -> Response:
    form = await _form(request)
    with acting(request) as work:
        _event_context(work, event_id)
        decisions.name_judged_winner(work, str(event_id), _text(form, "award"), _text(form, "player"),
                                     note=_text(form, "note"), remove=_text(form, "remove") == "1")
    return back(f"/console/events/{event_id}/prizes", tr("已记录评定", "decision recorded"))


@router.post("/events/{event_id}/prizes/pool")
async def pool(request: Request, event_id: Id) -> Response:
    form = await _form(request)
    with acting(request) as work:
        _event_context(work, event_id)
        decisions.decide_pool(work, str(event_id), _text(form, "note"))
    return back(f"/console/events/{event_id}/prizes", tr("已记录裁判长的决定", "decision recorded"))
