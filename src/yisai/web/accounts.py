"""The operator's accounts page (账号管理): create accounts, reset passwords, disable or enable
them, bind a team leader to a team registered from the CLI or a roster file.

Operators only, checked here on the server for every request (the page is not linked for others)
and again by the accounts services; every form carries the session's CSRF token; passwords are
taken from a form field and hashed by the service, never shown or logged.
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from yisai.i18n import Text, tr
from yisai.services.accounts import (
    MIN_PASSWORD,
    ROLE_CHOICES,
    add_account,
    bind_team,
    list_accounts,
    reset_password,
    set_account_active,
    set_account_event,
    set_max_teams,
    unlock_account,
)
from yisai.services.context import Work
from yisai.services.errors import Forbidden, InputError, ServiceError
from yisai.services.events import list_events
from yisai.services.identity import Role
from yisai.services.teams import list_teams
from yisai.web.console import _form, _text, acting, back
from yisai.web.core import lang_of, page, state
from yisai.web.hints import web_message

router = APIRouter(prefix="/console/accounts", include_in_schema=False)
ROLES = [Role.CHIEF_REFEREE, Role.REFEREE, Role.TEAM_LEADER, Role.OPERATOR]
HOME = "/console/accounts"


def _operator_only(work: Work) -> None:
    if work.actor.role is not Role.OPERATOR:
        raise Forbidden(Text("账号管理只对运营账号开放", "only operators manage accounts"), code="operator_only")


def _teams(work: Work) -> list[tuple[str, str]]:
    """(value, label) for the team choice: ``event:team`` so a team's number is never ambiguous."""
    out = []
    for event in list_events(work):
        out += [(f"{event.id}:{v.team.id}", f"{v.team.name} (#{v.team.id}) · {event.name}")
                for v in list_teams(work, event)]
    return out


def _split_team(value: str) -> tuple[str | None, str | None]:
    event, sep, team = value.partition(":")
    if not value:
        return None, None
    if not sep or not event.isdigit() or not team:
        raise InputError(Text("请从列表中选择队伍", "choose the team from the list"), code="bad_team_choice")
    return event, team


@router.get("", response_class=HTMLResponse)
def accounts_page(request: Request, msg: str = "", err: str = "") -> Response:
    with acting(request) as work:
        _operator_only(work)
        rows = list_accounts(work)
        teams = _teams(work)
        events = list_events(work)
    return page(request, "console/accounts.html", rows=rows, teams=teams, roles=ROLES, msg=msg, err=err,
                events=events,
                min_password=MIN_PASSWORD, role_choices=ROLE_CHOICES)


async def _do(request: Request, action: str, login: str = "") -> Response:
    """One form post: its result as a message on the list, or the error worded for the web."""
    form = await _form(request)
    lang = lang_of(request)
    try:
        with acting(request) as work:
            _operator_only(work)
            if action == "add":
                event, team = _split_team(_text(form, "team"))
                scope = _text(form, "event") or None
                if team is not None and scope is not None and scope != event:
                    raise InputError(Text("所选队伍不在所选比赛中", "the team chosen is not in the event chosen"),
                                     code="bad_team_choice")
                user = add_account(work, _text(form, "login"), _text(form, "role"),
                                   str(form.get("password") or ""), display_name=_text(form, "name"),
                                   team=team, event_ref=event or scope)
                message = tr(f"已建立账号 {user.login}", f"account {user.login} created")
            elif action == "password":
                user = reset_password(work, login, str(form.get("password") or ""))
                message = tr(f"已重设账号 {user.login} 的密码", f"password of {user.login} reset")
            elif action in ("disable", "enable"):
                user = set_account_active(work, login, action == "enable")
                message = (tr(f"已恢复账号 {user.login}", f"account {user.login} enabled") if user.active
                           else tr(f"已停用账号 {user.login}, 其登录随即失效",
                                   f"account {user.login} disabled; its sessions have ended"))
            elif action == "unlock":
                user = unlock_account(work, login)
                state(request).limiter.unlock(user.login)
                message = tr(f"已解除账号 {user.login} 的登录限制", f"sign-in throttling of {user.login} cleared")
            elif action == "event":
                view = set_account_event(work, login, _text(form, "event") or None)
                message = (tr(f"账号 {login} 只能操作 {view.event_name}", f"{login} is limited to {view.event_name}")
                           if view.user.event_id is not None
                           else tr(f"账号 {login} 不再限定比赛", f"{login} is no longer limited to one event"))
            elif action == "max-teams":
                try:
                    count = int(_text(form, "count"))
                except ValueError:
                    raise InputError(Text("队伍数须为数字", "the number of teams must be a number"),
                                     code="bad_max_teams") from None
                view = set_max_teams(work, login, count)
                message = tr(f"领队账号 {login} 最多可登记{count}支队伍", f"{login} may register up to {count} teams")
            else:  # "team"
                event, team = _split_team(_text(form, "team"))
                if team is None:
                    raise InputError(Text("请选择队伍", "choose a team"), code="bad_team_choice")
                view = bind_team(work, login, team, event)
                message = tr(f"领队账号 {view.user.login} 已绑定队伍“{view.team_name}”",
                             f"{view.user.login} now leads team {view.team_name}")
    except ServiceError as exc:
        if exc.status == 403:
            raise
        text = "；".join([web_message(exc, lang), *exc.render_details(lang)])
        return back(HOME, text, ok=False)
    return back(HOME, message)


@router.post("")
async def add(request: Request) -> Response:
    return await _do(request, "add")


@router.post("/{login}/password")
async def password(request: Request, login: str) -> Response:
    return await _do(request, "password", login)


@router.post("/{login}/disable")
async def disable(request: Request, login: str) -> Response:
    return await _do(request, "disable", login)


@router.post("/{login}/enable")
async def enable(request: Request, login: str) -> Response:
    return await _do(request, "enable", login)


@router.post("/{login}/unlock")
async def unlock(request: Request, login: str) -> Response:
    return await _do(request, "unlock", login)


@router.post("/{login}/event")
async def event_scope(request: Request, login: str) -> Response:
    return await _do(request, "event", login)


@router.post("/{login}/max-teams")
async def max_teams(request: Request, login: str) -> Response:
    return await _do(request, "max-teams", login)


@router.post("/{login}/team")
async def team(request: Request, login: str) -> Response:
    return await _do(request, "team", login)
