"""Console pages for registration papers (报名附件) and check-in (报到).

A team leader downloads their team's uniform entry form, uploads the stamped form and one
identity proof per player and sees each paper's state; the referees see every team with what is
missing, the chief referee accepts or returns papers; on arrival day a referee ticks arrivals on
a phone. Every rule (who may see which team, file type by content, size, deadline) is the
services' (``yisai.services.papers``, ``yisai.services.checkin``); these pages only call them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from yisai.i18n import Text, tr
from yisai.services import checkin, papers
from yisai.services.context import Work
from yisai.services.errors import InputError, ServiceError
from yisai.services.identity import Action, Role
from yisai.web.console import _event_context, _form, _text, acting, back
from yisai.web.core import lang_of, page
from yisai.web.hints import web_message
from yisai.web.requests import Id

router = APIRouter(prefix="/console", include_in_schema=False)
HARD_CAP = 64 * 1024 * 1024  # far above any regulation's per-file limit; the service names the limit


@dataclass(frozen=True)
class Slot:
    """One paper a team owes: the stamped form or one player's proof, with its latest state."""

    kind: str
    player_id: str | None
    label: Text
    paper: papers.PaperView | None

    @property
    def state(self) -> str:
        return self.paper.paper.status if self.paper else "missing"


def _slots(team: papers.TeamPapers, people: tuple[checkin.Arrival1, ...], rules: Any) -> list[Slot]:
    latest: dict[tuple[str, str | None], papers.PaperView] = {}
    for v in sorted(team.papers, key=lambda v: v.paper.id):
        pid = str(v.paper.player_id) if v.paper.player_id is not None else None
        latest[(v.paper.kind, pid)] = v
    out = []
    if rules.entry_form:
        out.append(Slot(papers.ENTRY_FORM, None, papers.KINDS[papers.ENTRY_FORM],
                        latest.get((papers.ENTRY_FORM, None))))
    if rules.identity_proofs:
        for p in people:
            out.append(Slot(papers.IDENTITY_PROOF, p.player_id,
                            Text(f"身份证明: {p.name}", f"identity proof: {p.name}"),
                            latest.get((papers.IDENTITY_PROOF, p.player_id))))
    return out


def _papers_context(work: Work, event_id: int) -> dict[str, Any]:
    ctx = _event_context(work, event_id)
    event = ctx["event"]
    rules = papers.attachment_rules(ctx["reg"])
    teams = papers.list_papers(work, event)
    people = {t.team_id: t.people for t in checkin.list_arrivals(work, event)}
    rows = [(t, _slots(t, people.get(t.team_id, ()), rules)) for t in teams]
    return {"rules": rules, "teams": rows, "official": work.actor.role in papers.OFFICIALS,
            "may_decide": work.actor.may(Action.APPROVE), "may_upload": work.actor.may(Action.REGISTER),
            # after the deadline only the chief referee uploads, with the reason (force + note)
            "papers_closed": rules.deadline is not None and work.now > rules.deadline,
            "kinds": papers.KINDS, "status_labels": papers.STATUS, **ctx}


@router.get("/events/{event_id}/papers", response_class=HTMLResponse)
def papers_page(request: Request, event_id: Id, msg: str = "", err: str = "",
                missing: int = 0) -> Response:
    with acting(request) as work:
        ctx = _papers_context(work, event_id)
    return page(request, "console/papers.html", msg=msg, err=err, only_missing=bool(missing), **ctx)


@router.get("/events/{event_id}/papers/form.xlsx")
def form_download(request: Request, event_id: Id, team: str = "") -> Response:
    with acting(request) as work:
        ctx = _event_context(work, event_id)
        name, data = papers.entry_form(work, ctx["event"], team or None)
    return Response(data, media_type="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
                    headers={"Content-Disposition": f"attachment; filename=\"entry-form.xlsx\"; "
                                                    f"filename*=UTF-8''{quote(name)}"})


async def _file(form: dict[str, Any], key: str) -> tuple[str, bytes]:
    f = form.get(key)
    if f is None or isinstance(f, str) or not getattr(f, "filename", ""):
        raise InputError(Text("请选择要上传的文件", "choose a file to upload"), code="no_file")
    data = await f.read(HARD_CAP + 1)
    if len(data) > HARD_CAP:
        raise InputError(Text(f"文件超过{HARD_CAP // 1048576}MB", f"the file is over {HARD_CAP // 1048576} MB"),
                         code="file_too_large")
    return str(f.filename), data


@router.post("/events/{event_id}/papers/upload")
async def upload(request: Request, event_id: Id) -> Response:
    """The stamped form or one player's identity proof (multipart); a refusal (file type by
    content, size, deadline) is shown on the papers page with the service's message."""
    form = await _form(request)
    kind = _text(form, "kind") or papers.ENTRY_FORM
    try:
        filename, data = await _file(form, "file")
        with acting(request) as work:
            ctx = _event_context(work, event_id)
            view = papers.upload(work, ctx["event"], _text(form, "team") or None, kind, data, filename,
                                 player_ref=_text(form, "player") or None, force=_text(form, "force") == "1",
                                 note=_text(form, "note"))
    except ServiceError as exc:
        if exc.status == 403:
            raise
        with acting(request) as work:
            ctx = _papers_context(work, event_id)
        return page(request, "console/papers.html", http_status=exc.status, msg="",
                    err=web_message(exc, lang_of(request)), only_missing=False, **ctx)
    return back(f"/console/events/{event_id}/papers",
                tr(f"已上传: {view.paper.file_name}", f"uploaded: {view.paper.file_name}"))


@router.post("/events/{event_id}/papers/{paper_id}")
async def decide(request: Request, event_id: Id, paper_id: Id) -> Response:
    form = await _form(request)
    decision = _text(form, "decision")
    with acting(request) as work:
        _event_context(work, event_id)
        work.require(Action.APPROVE)
        if decision == "accept":
            view = papers.accept(work, paper_id)
        elif decision == "return":
            view = papers.return_paper(work, paper_id, _text(form, "reason"))
        else:
            raise InputError(Text(f"未知操作: {decision}", f"unknown decision: {decision}"))
    return back(f"/console/events/{event_id}/papers",
                tr(f"{view.team} {view.kind_label.zh}: {view.status_label.zh}",
                   f"{view.team} {view.kind_label.en}: {view.status_label.en}"))


@router.get("/events/{event_id}/papers/{paper_id}/file")
def paper_download(request: Request, event_id: Id, paper_id: Id) -> Response:
    """The file itself (the service writes every download to the audit log)."""
    with acting(request) as work:
        _event_context(work, event_id)
        got = papers.download(work, paper_id)
    return Response(got.data, media_type=got.content_type, headers={
        "Content-Disposition": f"attachment; filename=\"paper\"; filename*=UTF-8''{quote(got.file_name)}",
        "Cache-Control": "no-store"})


# ------------------------------------------------------------------ check-in


@router.get("/events/{event_id}/checkin", response_class=HTMLResponse)
def checkin_page(request: Request, event_id: Id, msg: str = "", err: str = "") -> Response:
    with acting(request) as work:
        ctx = _event_context(work, event_id)
        teams = checkin.list_arrivals(work, ctx["event"])
        rules = checkin.arrival_rules(ctx["reg"])
    return page(request, "console/checkin.html", teams=teams, arrival=rules, msg=msg, err=err,
                may_tick=work.actor.may(Action.RECORD_RESULT) or bool(teams and work.actor.role is Role.TEAM_LEADER),
                **ctx)


@router.post("/events/{event_id}/checkin")
async def tick(request: Request, event_id: Id) -> Response:
    form = await _form(request)
    player = _text(form, "player")
    arrived = _text(form, "action") != "undo"
    with acting(request) as work:
        ctx = _event_context(work, event_id)
        saved = checkin.tick(work, ctx["event"], player, arrived=arrived, insured=bool(form.get("insured")))
    word = tr("已报到", "checked in") if arrived else tr("已撤销报到", "check-in undone")
    return RedirectResponse(f"/console/events/{event_id}/checkin?msg={quote(word)}#p{saved.player_id}",
                            status_code=303)
