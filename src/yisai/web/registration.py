"""Team leaders' registration pages: a whole team (slots from the regulation) or one player's
individual entry, with each row checked as it is typed (``/register/check``)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response
from pydantic import StringConstraints

from yisai.i18n import Text, tr
from yisai.services import capacity
from yisai.services.eligibility import LIVE
from yisai.services.entries import list_entries
from yisai.services.errors import InputError
from yisai.services.event_data import players_by_id
from yisai.services.identity import Action
from yisai.services.player_changes import approve_change, list_changes, reject_change
from yisai.services.team_registration import (
    FIELD_HEADERS,
    MemberIn,
    check_member,
    entry_outcome,
    next_steps,
    register_individual,
    register_team,
    team_slots,
    window_refusal,
)
from yisai.services.teams import list_teams, replace_team_member
from yisai.web import views
from yisai.web.console import _event_context, _form, _text, acting, back
from yisai.web.core import lang_of, page, read_json
from yisai.web.requests import Id

router = APIRouter(prefix="/console", include_in_schema=False)
FIELDS = [("姓名", "name"), ("出生日期", "birth"), ("身份证号", "id"), ("段位", "rank"), ("证书编号", "cert"),
          ("省份", "province"), ("城市", "city")]


@router.get("/events/{event_id}/register", response_class=HTMLResponse)
def register_page(request: Request, event_id: Id, msg: str = "", err: str = "") -> Response:
    with acting(request) as work:
        ctx = _event_context(work, event_id)
        work.require(Action.REGISTER)
        reg = ctx["reg"]
        slots = team_slots(reg) if reg.teams else []
        closed = window_refusal(reg, reg.teams, work.now) if reg.teams else None
        may_late = work.actor.may(Action.APPROVE)
        places = [p.text.render(lang_of(request)) for p in capacity.event_places(work, event_id, reg)]
    individual = [(d.id, d.name) for d in reg.divisions if "direct" in d.eligibility.routes]
    # After the deadline the form is offered only to whom it can serve: the chief referee's late
    # path (逾期报名 + reason); everyone else reads the notice instead of a form that is refused.
    late_only = closed is not None and closed.code == "registration_closed"
    show_form = closed is None or (late_only and may_late)
    return page(request, "console/register.html", slots=slots, fields=FIELDS, individual=individual,
                closed=closed.render(lang_of(request)) if closed else "", show_form=show_form,
                late_form=late_only and may_late, teams=reg.teams, msg=msg, err=err, places=places, **ctx)


def _fields(form: dict[str, object], prefix: str, gender: str | None) -> dict[str, str]:
    out = {h: str(form.get(f"{prefix}{key}") or "").strip() for h, key in FIELDS}
    out["性别"] = {"M": "男", "F": "女"}.get(gender or str(form.get(f"{prefix}gender") or ""), "")
    out["地区"] = "中国大陆"
    return out


@router.post("/events/{event_id}/register/team")
async def team(request: Request, event_id: Id) -> Response:
    form = await _form(request)
    with acting(request) as work:
        ctx = _event_context(work, event_id)
        slots = team_slots(ctx["reg"])
        members = [MemberIn(s.division, _fields(form, f"m{k}_", s.gender), s.label or None)
                   for k, s in enumerate(slots)]
        view = register_team(work, str(event_id), name=_text(form, "team"), province=_text(form, "province"),
                             city=_text(form, "city"), leader=_text(form, "leader"), coach=_text(form, "coach"),
                             members=members, late=_text(form, "late") == "1", note=_text(form, "note"))
        outcome = entry_outcome(work, str(event_id), [p.id for p in view.players])
        steps = next_steps(work, str(event_id), view.team)
    who = Text(f"队伍“{view.team.name}”已登记{len(view.players)}名队员", f"team {view.team.name} "
               f"registered with {len(view.players)} players")
    lang = lang_of(request)
    message = ("。" if lang == "zh" else ". ").join([outcome.text(who).render(lang), *(s.render(lang) for s in steps)])
    return back(f"/console/events/{event_id}/register", message, ok=not outcome.reasons)


@router.post("/events/{event_id}/register/individual")
async def individual(request: Request, event_id: Id) -> Response:
    form = await _form(request)
    with acting(request) as work:
        _event_context(work, event_id)
        entry = register_individual(work, str(event_id), _text(form, "division"), _fields(form, "p_", None))
        outcome = entry_outcome(work, str(event_id), [entry.player_id])
    name = _text(form, "p_name")
    who = Text(f"{name}已报名", f"{name} entered")
    return back(f"/console/events/{event_id}/register", outcome.text(who).render(lang_of(request)),
                ok=not outcome.reasons)


@router.post("/events/{event_id}/register/check")
async def check(request: Request, event_id: Id) -> Response:
    """One typed row → its problems (JSON), for checking as the leader types."""
    with acting(request) as work:  # login and the account's event before the body is read
        _event_context(work, event_id)
    body = await read_json(request, dict[str, Annotated[str, StringConstraints(max_length=200)] | None])
    fields = {h: str(body.get(h) or "") for h in FIELD_HEADERS}
    with acting(request) as work:
        _event_context(work, event_id)
        reasons = check_member(work, str(event_id), str(body.get("division") or ""), fields)
    return JSONResponse({"reasons": reasons})


# ------------------------------------------------------------------ pending changes (chief referee)


@router.get("/events/{event_id}/changes", response_class=HTMLResponse)
def changes_page(request: Request, event_id: Id, msg: str = "", err: str = "") -> Response:
    """Changes to registered players waiting for the chief referee (after approval or the deadline)."""
    with acting(request) as work:
        ctx = _event_context(work, event_id)
        rows = list_changes(work, str(event_id))
    return page(request, "console/changes.html", rows=rows, msg=msg, err=err, **ctx)


@router.post("/events/{event_id}/changes/{change_id}")
async def decide_change(request: Request, event_id: Id, change_id: Id) -> Response:
    form = await _form(request)
    decision, note = _text(form, "decision"), _text(form, "note")
    with acting(request) as work:
        _event_context(work, event_id)
        work.require(Action.APPROVE)
        if decision == "approve":
            approve_change(work, change_id, note)
            message = tr(f"已批准更改 #{change_id}", f"change #{change_id} approved")
        elif decision == "reject":
            reject_change(work, change_id, note)
            message = tr(f"已驳回更改 #{change_id}", f"change #{change_id} rejected")
        else:
            raise InputError(Text(f"未知操作: {decision}", f"unknown decision: {decision}"), code="bad_decision")
    return back(f"/console/events/{event_id}/changes", message)


# ------------------------------------------------------------------ teams and 递补 (chief referee)


@router.get("/events/{event_id}/teams", response_class=HTMLResponse)
def teams_page(request: Request, event_id: Id, msg: str = "", err: str = "") -> Response:
    """The event's teams for the referees, each with a link to its own page (递补 there)."""
    with acting(request) as work:
        ctx = _event_context(work, event_id)
        work.require(Action.RECORD_RESULT)
        rows = list_teams(work, ctx["event"]) if ctx["reg"].teams else []
    return page(request, "console/teams.html", rows=rows, msg=msg, err=err, **ctx)


@router.get("/events/{event_id}/teams/{team_id}", response_class=HTMLResponse)
def team_page(request: Request, event_id: Id, team_id: Id, msg: str = "", err: str = "") -> Response:
    """One team: its seats, each member's entry, and for the chief referee the 递补 form, whose
    choices are the players holding a live entry in one of the team's divisions and no team."""
    with acting(request) as work:
        ctx = _event_context(work, event_id)
        work.require(Action.RECORD_RESULT)
        event = ctx["event"]
        view = next((v for v in list_teams(work, event) if str(v.team.id) == str(team_id)), None)
        if view is None:
            raise InputError(Text(f"本比赛没有编号为{team_id}的队伍", f"this event has no team {team_id}"),
                             code="unknown_team")
        entries = list_entries(work, event)
    names = dict(views.divisions_of(ctx["reg"]))
    status = {(e.entry.player_id, e.entry.division): e.entry for e in entries}
    members = [(m, p, names.get(m.division or "", ""), status.get((p.id, m.division or "")))
               for m, p in zip(view.team.members, view.players, strict=True)]
    seats = {m.division for m in view.team.members}
    candidates = [e for e in entries if e.team is None and e.entry.status in LIVE
                  and (e.entry.division in seats or None in seats)]
    return page(request, "console/team.html", view=view, members=members, candidates=candidates,
                may_replace=work.actor.may(Action.APPROVE), status_label=views.status_label,
                msg=msg, err=err, **ctx)


@router.post("/events/{event_id}/teams/{team_id}/replace")
async def replace_member(request: Request, event_id: Id, team_id: Id) -> Response:
    """递补: the chief referee seats a registered player in place of a member, with the reason;
    the outgoing member's entry is withdrawn by the service."""
    form = await _form(request)
    with acting(request) as work:
        ctx = _event_context(work, event_id)
        work.require(Action.APPROVE)
        players = players_by_id(work, ctx["event"])
        out_ref, in_ref = _text(form, "out"), _text(form, "in")
        if not out_ref or not in_ref:
            raise InputError(Text("请选择离队的队员和递补的棋手", "choose the outgoing member and the incoming player"),
                             code="bad_replacement")
        view = replace_team_member(work, ctx["event"], team_id, out_ref, in_ref, note=_text(form, "note"))
    out_name = players[out_ref].name if out_ref in players else out_ref
    in_name = players[in_ref].name if in_ref in players else in_ref
    message = tr(f"已递补: {in_name}接替{out_name} ({view.team.name}); {out_name}的报名已撤回",
                 f"replaced: {in_name} takes {out_name}'s seat in {view.team.name}; {out_name}'s entry is withdrawn")
    if view.reasons:
        message += tr("。组队规定提示: ", ". Team rules: ") + "；".join(view.reasons)
    return back(f"/console/events/{event_id}/teams/{team_id}", message)
