"""The JSON API under /api/ (OpenAPI at /docs): events, public entries, rounds, results,
standings; results can be written with a bearer token from POST /api/token.

Public endpoints give public fields only (no ID numbers, phones, birth dates, certificates).
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import Response
from itsdangerous import BadSignature
from pydantic import BaseModel, Field

from yisai.formats.regulation_summary import summarize
from yisai.i18n import Text
from yisai.services.accounts import authenticate, session_epoch, user_actor
from yisai.services.entries import list_entries
from yisai.services.errors import NotFoundError, ServiceError
from yisai.services.events import list_events, regulation_of, resolve_event
from yisai.services.identity import Actor
from yisai.services.publishing import is_published, rounds_index
from yisai.services.rounds import round_view
from yisai.services.teams import list_teams
from yisai.web import reports, views
from yisai.web.console import client_of, save_result
from yisai.web.core import PUBLIC, login_source, state
from yisai.web.requests import MAX_ID, Body, Id

TOKEN_AGE = 12 * 3600


class ErrorOut(BaseModel):
    """Every error of the API: a stable code, its parameters, the message in the request's language."""

    code: str
    params: dict[str, Any] = {}
    hint: str | None = None
    message: str
    details: list[str] = []


def _errors(*statuses: int) -> dict[int | str, dict[str, Any]]:
    words = {400: "bad request: body, query or reference (each problem named)", 401: "no or invalid token",
             403: "the role may not do this", 404: "no such object, or an id outside 1..2147483647",
             409: "refused by the regulation, or a stale version", 429: "too many failed logins"}
    return {s: {"model": ErrorOut, "description": words[s]} for s in statuses}


router = APIRouter(prefix="/api", tags=["api"], responses=_errors(400, 404, 409))


class TokenRequest(Body):
    login: str
    password: str


class TokenAnswer(BaseModel):
    token: str
    expires_in: int = TOKEN_AGE
    role: str


class ResultIn(Body):
    board: int = Field(ge=1, le=MAX_ID)
    result: str = Field(min_length=1, max_length=40, description="黑胜 / 白胜 / 和 / B+R / W+T / 1 / 2 / = …")
    version: int = Field(ge=1, le=MAX_ID, description="the game's version as read from GET …/rounds/{division}/{round}")
    group: str | None = Field(default=None, max_length=100)
    note: str = Field(default="", max_length=2000)


class Unauthorised(ServiceError):
    status = 401
    default_code = "unauthorised"


def _bearer(request: Request) -> Actor:
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token:
        raise Unauthorised(Text("需要令牌 (Authorization: Bearer …)", "a bearer token is required"))
    try:
        data = state(request).token_signer.loads(token.strip(), max_age=TOKEN_AGE)
    except BadSignature:
        raise Unauthorised(Text("令牌无效或已过期", "the token is invalid or expired")) from None
    with state(request).ctx.work(actor=PUBLIC) as work:
        actor = user_actor(work, int(data.get("u", 0)), int(data.get("e", 0))) if isinstance(data, dict) else None
    if actor is None:
        raise Unauthorised(Text("账号不存在或已停用", "the account is gone or disabled"))
    return actor


@router.post("/token", response_model=TokenAnswer, responses=_errors(401, 429))
def token(request: Request, body: TokenRequest) -> TokenAnswer:
    """Exchange a login and password for a bearer token (rate-limited like the login page)."""
    web = state(request)
    source = login_source(request, body.login, client_of(request))
    web.limiter.check(source, body.login)
    try:
        with web.ctx.work(actor=PUBLIC) as work:
            actor = authenticate(work, body.login, body.password)
    except ServiceError as exc:
        web.limiter.failed(source, body.login)
        if exc.code == "bad_credentials":  # a wrong login or password: 401, as HTTP says, not 409
            raise Unauthorised(exc.text, code="bad_credentials") from None
        raise
    web.limiter.succeeded(source, body.login)
    with web.ctx.work(actor=PUBLIC) as work:
        epoch = session_epoch(work, int(actor.id))
    return TokenAnswer(token=web.token_signer.dumps({"u": int(actor.id), "e": epoch}), role=actor.role.value)


@router.get("/events")
def events(request: Request) -> list[dict[str, Any]]:
    """Every event with its divisions."""
    with state(request).ctx.work(actor=PUBLIC) as work:
        return [
            {"id": e.id, "name": e.name, "regulation": e.regulation_id,
             "divisions": [{"id": d, "name": n} for d, n in views.divisions_of(regulation_of(e))]}
            for e in list_events(work)
        ]


@router.get("/events/{event_id}")
def event(request: Request, event_id: Id) -> dict[str, Any]:
    """One event: divisions, the regulation summary, the rounds paired so far."""
    with state(request).ctx.work(actor=PUBLIC) as work:
        e = resolve_event(work, str(event_id))
        reg = regulation_of(e)
        rounds = rounds_index(work, e.id)
    return {
        "id": e.id, "name": e.name, "regulation": e.regulation_id,
        "divisions": [{"id": d, "name": n} for d, n in views.divisions_of(reg)],
        "summary": [{"section": title, "lines": lines} for title, lines in views.summary_sections(summarize(reg))],
        "rounds": [r.__dict__ for r in rounds],
    }


@router.get("/events/{event_id}/entries")
def entries(request: Request, event_id: Id) -> dict[str, Any]:
    """Entries (approved and pending) and teams, public fields only."""
    with state(request).ctx.work(actor=PUBLIC) as work:
        e = resolve_event(work, str(event_id))
        return {"entries": views.public_entries(list_entries(work, e)),
                "teams": views.public_teams(list_teams(work, e))}


@router.get("/events/{event_id}/rounds")
def rounds(request: Request, event_id: Id) -> list[dict[str, Any]]:
    """Paired rounds: division, number, published, boards, results entered."""
    with state(request).ctx.work(actor=PUBLIC) as work:
        resolve_event(work, str(event_id))
        return [r.__dict__ for r in rounds_index(work, event_id)]


@router.get("/events/{event_id}/rounds/{division}/{number}")
def round_(request: Request, event_id: Id, division: str, number: Id) -> dict[str, Any]:
    """A published round's boards with scores before the round, results and game versions."""
    with state(request).ctx.work(actor=PUBLIC) as work:
        view = round_view(work, str(event_id), division, number)
    if not all(is_published(r.status) for r in view.rounds):
        raise NotFoundError(Text(f"第{number}轮对阵尚未公布", f"round {number} is not published yet"),
                            code="not_published")
    return views.round_json(view)


@router.get("/events/{event_id}/standings/{division}")
def standings(request: Request, event_id: Id, division: str, ranking: str = "") -> dict[str, Any]:
    """The division's standings with every tie-break criterion of the regulation; ``ranking``
    chooses one of the regulation's lists (``rankings`` names them; default: the whole division)."""
    with state(request).ctx.work(actor=PUBLIC) as work:
        lists = reports.event_rankings(work, str(event_id), division)
    if ranking and all(r.id != ranking for r in lists):  # a mistyped list is not the whole division
        known = "、".join(f"{r.id} ({r.name})" for r in lists)
        raise NotFoundError(Text(f"本组没有名为 {ranking} 的名次表, 现有: {known}",
                                 f"no ranking list {ranking} in this division; the lists are: {known}"),
                            code="no_such_ranking")
    chosen = reports.ranking_of(lists, ranking)
    return {**views.standings_json(chosen.standings), "ranking": chosen.id,
            "rankings": [{"id": r.id, "name": r.name} for r in lists]}


@router.get("/events/{event_id}/brackets/{division}")
def brackets(request: Request, event_id: Id, division: str) -> dict[str, Any]:
    """A round-robin / knockout division: each group's crosstable (places by the regulation's
    ranking), the bracket so far (published rounds) and the final places once decided."""
    from dataclasses import asdict

    from yisai.services.stage_view import stage_view

    with state(request).ctx.work(actor=PUBLIC) as work:
        view = stage_view(work, str(event_id), division, published_only=True)
    return {
        "event": view.event.id, "division": view.division, "stage": view.stage.id,
        "groups": [asdict(g) for g in view.groups],
        "bracket": [asdict(c) for c in view.bracket],
        "places": [{"place": p, "shared": shared, "name": name} for p, shared, name in view.places],
    }


def _json_value(v: object) -> Any:
    """A tie-break value as JSON: numbers and text as they are, a sequence (次好名次: the other
    members' places) as a list, never Python's text of a tuple; anything else as text."""
    if v is None or isinstance(v, bool | int | float | str):
        return v
    if isinstance(v, tuple | list):
        return [_json_value(x) for x in v]
    return str(v)


@router.get("/events/{event_id}/teams")
def team_standings(request: Request, event_id: Id) -> dict[str, Any]:
    """Team standings of every team competition (团体赛: 场分, 局分 and the tie-breaks)."""
    from yisai.services.reports import prizes
    from yisai.standings.teams import partial_note

    with state(request).ctx.work(actor=PUBLIC) as work:
        view = prizes(work, str(event_id))
    return {"competitions": [
        {"id": t.competition.id, "name": t.competition.name, "method": t.competition.method,
         "notes": [partial_note()] if any(r.partial for r in t.rows) else [],
         "rows": [{"place": r.place, "team": r.name, "value": r.value, "board_points": r.board_points,
                   # an incomplete team is not ranked (place null): its value sums only the
                   # ``counted`` members with a place, and the note says why
                   "complete": r.complete, "partial": r.partial, "counted": r.counted, "note": r.note,
                   "tie_breaks": [{"name": k, "value": _json_value(v)} for k, v in r.tie_values]}
                  for r in t.rows]}
        for t in view.teams]}


@router.get("/events/{event_id}/teams/rounds/{number}")
def team_round(request: Request, event_id: Id, number: Id) -> dict[str, Any]:
    """A published team round: each match with its boards (players' names only), 局分 and 场分."""
    from yisai.services.team_matches import team_match_stage, team_round_parts

    with state(request).ctx.work(actor=PUBLIC) as work:
        e = resolve_event(work, str(event_id))
        found = team_match_stage(regulation_of(e))
        stored = team_round_parts(work, e, found[1], found[0], number) if found is not None else []
        if not stored or not all(is_published(r.status) for r in stored):
            raise NotFoundError(Text(f"第{number}轮团体对阵尚未公布", f"team round {number} is not published yet"),
                                code="not_published")
        return {"round": number, "matches": views.match_cards(work, event_id, number)}


@router.post("/events/{event_id}/rounds/{division}/{number}/results", responses=_errors(401, 403))
def post_result(request: Request, event_id: Id, division: str, number: Id, body: ResultIn) -> Response:
    """Enter one board's result (bearer token; referee or chief referee). 409 on a stale version."""
    actor = _bearer(request)
    return save_result(request, actor, event_id, division, number, body.board, body.result, body.version,
                       body.group, body.note)

