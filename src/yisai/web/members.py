"""Console: import the member register (会员名单) a regulation's ``members_of`` asks for; the same
service as `yisai member import`."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import Response

from yisai.i18n import tr
from yisai.services.identity import Action
from yisai.services.members import import_members
from yisai.web.console import _event_context, _form, _text, _upload, acting, back
from yisai.web.requests import Id

router = APIRouter(prefix="/console", include_in_schema=False)


@router.post("/events/{event_id}/members")
async def members_upload(request: Request, event_id: Id) -> Response:
    with acting(request) as work:  # who may, and for which event, before the upload is read
        _event_context(work, event_id)
        work.require(Action.APPROVE)
    form = await _form(request)
    filename, data = await _upload(form, "members")
    with acting(request) as work:
        _event_context(work, event_id)
        done = import_members(work, str(event_id), data, filename, _text(form, "note"))
    return back(f"/console/events/{event_id}/entries",
                tr(f"已导入“{done.register}”名单 {done.members} 人; {done.rechecked} 条待审报名的资格原因已更新",
                   f"register imported: {done.members} members; {done.rechecked} pending entries rechecked"))
