"""团体赛 pages: the public team table and matches, and the line-up form (team leader for his own
team, or the chief referee) in the console.

The public round page, the console's round page and the API show a team round's matches from
``views.match_cards``; board results are entered on the console's ordinary result grid.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from yisai.i18n import tr
from yisai.services.context import Work
from yisai.services.event_data import players_by_id
from yisai.services.identity import Action
from yisai.services.publishing import is_published
from yisai.services.team_matches import (
    lineups,
    submit_lineup,
    team_match_stage,
    team_round_parts,
    team_rounds,
)
from yisai.web import reports, views
from yisai.web.console import _event_context, _form, _text, acting, back
from yisai.web.core import page
from yisai.web.public import _event_nav, _template, serve_cached
from yisai.web.requests import Id

public_router = APIRouter(include_in_schema=False)
console_router = APIRouter(prefix="/console", include_in_schema=False)


@public_router.get("/events/{event_id}/teams", response_class=HTMLResponse)
async def teams_page(request: Request, event_id: Id) -> Response:
    """团体名次 (场分, 局分, the regulation's tie-breaks) and every round's match scores."""

    def render(work: Work) -> str:
        nav = _event_nav(work, event_id)
        pages = reports.award_pages(work, str(event_id))
        rounds = []
        found = team_match_stage(nav["reg"])
        for n in team_rounds(work, nav["event"]):
            if found is None:
                break
            stage, division, _fmt = found
            stored = team_round_parts(work, nav["event"], division, stage, n)
            if stored and all(is_published(r.status) for r in stored):  # unpublished rounds stay hidden
                rounds.append((n, views.match_cards(work, event_id, n)))
        return _template(request, "teams.html", pages=pages, match_rounds=rounds, **nav)

    return await serve_cached(request, event_id, ("teams",), render)


# ------------------------------------------------------------------ line-ups (console)


@console_router.get("/events/{event_id}/lineups/{number}", response_class=HTMLResponse)
def lineup_page(request: Request, event_id: Id, number: Id, msg: str = "", err: str = "") -> Response:
    """出场名单: the teams this account may hand one in for (a leader: his own team only)."""
    with acting(request) as work:
        ctx = _event_context(work, event_id)
        found = team_match_stage(ctx["reg"])
        teams: list[dict[str, Any]] = []
        boards = 0
        paired = False
        if found is not None:
            stage, division, fmt = found
            boards = fmt.boards
            paired = bool(team_round_parts(work, ctx["event"], division, stage, number))
            players = players_by_id(work, ctx["event"])
            director = work.actor.may(Action.PAIR)
            for tid, lu in lineups(work, ctx["event"], division, stage, fmt, number).items():
                if not director and not work.actor.leads(tid):
                    continue
                teams.append({"id": tid, "name": lu.team.name, "source": lu.source.render(),
                              "current": list(lu.players),
                              "members": [(m.player_id, players[m.player_id].name) for m in lu.team.members]})
    return page(request, "console/lineups.html", number=number, teams=teams, boards=boards, paired=paired,
                fmt=found[2] if found else None, msg=msg, err=err, **ctx)


@console_router.post("/events/{event_id}/lineups/{number}")
async def lineup_submit(request: Request, event_id: Id, number: Id) -> Response:
    form = await _form(request)
    team = _text(form, "team")
    chosen = [_text(form, f"b{k}") for k in range(1, 21)]
    while chosen and not chosen[-1]:
        chosen.pop()
    with acting(request) as work:
        _event_context(work, event_id)
        saved = submit_lineup(work, str(event_id), team, number, [c for c in chosen if c])
    return back(f"/console/events/{event_id}/lineups/{number}",
                tr(f"已保存{saved.team.name}第{number}轮出场名单", f"line-up of {saved.team.name} for round {number} saved"))
