"""The public site: no login; event list, regulation summary, entries, pairings, standings,
teams, prizes and 段位 awards. Tables that change during a round are fragments polled by the
page (``static/poll.js``) with an ETag, so results appear without a reload."""

from __future__ import annotations

import zlib
from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from yisai.i18n import tr
from yisai.regulation.summary import summarize
from yisai.services.context import Work
from yisai.services.events import list_events, regulation_of, resolve_event, summarise_event
from yisai.services.publishing import event_stamp, is_published, rounds_index
from yisai.services.registration import list_entries, list_teams
from yisai.services.rounds import round_view
from yisai.standings.ranking import Standings
from yisai.web import reports, views
from yisai.web.core import PUBLIC, lang_of, page, state

router = APIRouter()


def cached(request: Request, work: Work, event_id: int, key: tuple[Any, ...],
           render: Callable[[Work], str], stamp: int | None = None) -> bytes:
    """A table rendered once per change of the event (the stamp) and language, per process."""
    if stamp is None:
        stamp = event_stamp(work, event_id)
    return state(request).cache.get_or_make((*key, lang_of(request), stamp), lambda: render(work).encode())


def fragment_response(request: Request, event_id: int, key: tuple[Any, ...],
                      render: Callable[[Work], str]) -> Response:
    """A polled fragment: 304 while the event's stamp is unchanged, else the cached render."""
    lang = lang_of(request)
    with state(request).ctx.work(actor=PUBLIC) as work:
        stamp = event_stamp(work, event_id)
        etag = f'W/"{event_id}-{stamp}-{lang}-{zlib.crc32(repr(key).encode())}"'
        headers = {"ETag": etag, "Cache-Control": "no-cache"}
        if request.headers.get("if-none-match") == etag:
            return Response(status_code=304, headers=headers)
        body = cached(request, work, event_id, key, render, stamp)
    return HTMLResponse(body, headers=headers)


def _event_nav(work: Work, event_id: int) -> dict[str, Any]:
    event = resolve_event(work, str(event_id))
    reg = regulation_of(event)
    return {"event": event, "reg": reg, "divisions": views.divisions_of(reg),
            "rounds": rounds_index(work, event.id)}


@router.get("/", response_class=HTMLResponse, include_in_schema=False)
def index(request: Request) -> Response:
    with state(request).ctx.work(actor=PUBLIC) as work:
        events = [(e, regulation_of(e)) for e in list_events(work)]
    return page(request, "index.html", events=events)


@router.get("/events/{event_id}", response_class=HTMLResponse, include_in_schema=False)
def event_page(request: Request, event_id: int) -> Response:
    with state(request).ctx.work(actor=PUBLIC) as work:
        nav = _event_nav(work, event_id)
        summary = summarise_event(work, nav["event"])
    sections = views.summary_sections(summarize(nav["reg"]))
    return page(request, "event.html", sections=sections, summary=summary, **nav)


@router.get("/events/{event_id}/entries", response_class=HTMLResponse, include_in_schema=False)
def entries_page(request: Request, event_id: int) -> Response:
    with state(request).ctx.work(actor=PUBLIC) as work:
        nav = _event_nav(work, event_id)
        entries = views.public_entries(list_entries(work, nav["event"]))
        teams = views.public_teams(list_teams(work, nav["event"]))
    by_division: dict[str, list[dict[str, Any]]] = {}
    for e in entries:
        by_division.setdefault(e["division"], []).append(e)
    return page(request, "entries.html", by_division=by_division, teams=teams, **nav)


def _pairings_html(request: Request, event_id: int, division: str, number: int) -> Callable[[Work], str]:
    def render(work: Work) -> str:
        view = round_view(work, str(event_id), division, number)
        published = all(is_published(r.status) for r in view.rounds)
        return state(request).templates.get_template("_pairings.html").render(
            t=tr, published=published, groups=views.board_lines(view) if published else [])
    return render


@router.get("/events/{event_id}/rounds/{division}/{number}", response_class=HTMLResponse,
            include_in_schema=False)
def round_page(request: Request, event_id: int, division: str, number: int) -> Response:
    with state(request).ctx.work(actor=PUBLIC) as work:
        nav = _event_nav(work, event_id)
        table = cached(request, work, event_id, ("pairings", division, number),
                       _pairings_html(request, event_id, division, number)).decode()
    poll = f"/events/{event_id}/rounds/{division}/{number}/fragment"
    return page(request, "round.html", division=division, number=number, table=table, poll=poll, **nav)


@router.get("/events/{event_id}/rounds/{division}/{number}/fragment", include_in_schema=False)
def round_fragment(request: Request, event_id: int, division: str, number: int) -> Response:
    return fragment_response(request, event_id, ("pairings", division, number),
                             _pairings_html(request, event_id, division, number))


def _standings_html(request: Request, event_id: int, division: str) -> Callable[[Work], str]:
    def render(work: Work) -> str:
        st = reports.event_standings(work, str(event_id), division)
        return state(request).templates.get_template("_standings.html").render(
            t=tr, columns=views.standings_columns(st), rows=views.standings_rows(st),
            round=st.round, base=f"/events/{event_id}/standings/{division}")
    return render


@router.get("/events/{event_id}/standings/{division}", response_class=HTMLResponse,
            include_in_schema=False)
def standings_page(request: Request, event_id: int, division: str, explain: str | None = None) -> Response:
    explanation: list[str] = []
    with state(request).ctx.work(actor=PUBLIC) as work:
        nav = _event_nav(work, event_id)
        table = cached(request, work, event_id, ("standings", division),
                       _standings_html(request, event_id, division)).decode()
        if explain:
            st: Standings = reports.event_standings(work, str(event_id), division)
            try:
                explanation = st.explain(explain).text().splitlines()
            except KeyError as exc:
                explanation = [str(exc.args[0]) if exc.args else str(exc)]
    poll = f"/events/{event_id}/standings/{division}/fragment"
    return page(request, "standings.html", division=division, table=table, poll=poll,
                explanation=explanation, **nav)


@router.get("/events/{event_id}/standings/{division}/fragment", include_in_schema=False)
def standings_fragment(request: Request, event_id: int, division: str) -> Response:
    return fragment_response(request, event_id, ("standings", division),
                             _standings_html(request, event_id, division))


@router.get("/events/{event_id}/awards", response_class=HTMLResponse, include_in_schema=False)
def awards_page(request: Request, event_id: int) -> Response:
    with state(request).ctx.work(actor=PUBLIC) as work:
        nav = _event_nav(work, event_id)
        pages = reports.award_pages(work, str(event_id))
    return page(request, "awards.html", pages=pages, **nav)
