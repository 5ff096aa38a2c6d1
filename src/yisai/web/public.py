"""The public site: no login; event list, regulation summary, entries, pairings, standings,
teams, prizes and 段位 awards. Tables that change during a round are fragments polled by the
page (``static/poll.js``) with an ETag, so results appear without a reload.

Public pages carry no session and no form, so each is rendered once per change of its event
(the event's stamp) and language and then served from memory; only a new stamp or a first
visit costs a database read and a rendering.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable
from typing import Any
from urllib.parse import quote

from fastapi import APIRouter, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse, Response

from yisai.formats.regulation_summary import summarize
from yisai.i18n import tr
from yisai.services.context import Work
from yisai.services.entries import list_entries
from yisai.services.events import (
    list_events,
    regulation_of,
    resolve_division,
    resolve_event,
    summarise_event,
)
from yisai.services.publishing import event_stamp, is_published, rounds_index
from yisai.services.results import ranking_lists
from yisai.services.rounds import round_view
from yisai.services.teams import list_teams
from yisai.web import reports, views
from yisai.web.core import PUBLIC, lang_of, session_of, state, takes_gzip
from yisai.web.requests import Id

router = APIRouter()
Render = Callable[[Work], str]


def cached(request: Request, work: Work, event_id: int, key: tuple[Any, ...], render: Render,
           stamp: int | None = None) -> tuple[bytes, int]:
    """A table or page rendered once per change of the event (its stamp) and language, per
    process: (body, the stamp it shows)."""
    if stamp is None:
        stamp = event_stamp(work, event_id)
        state(request).stamps.put(event_id, stamp)  # the polls that follow need not read it again
    return state(request).cache.latest(_cache_key(request, event_id, key), stamp, lambda: render(work).encode())


def _cache_key(request: Request, event_id: int, key: tuple[Any, ...]) -> tuple[Any, ...]:
    """A rendering is the event's own: two events' 甲组 standings never share one; and a
    signed-in visitor's header (我的) is not an anonymous one's (登录)."""
    return (event_id, *key, lang_of(request), _signed(request))


def _signed(request: Request) -> bool:
    """Whether the visitor holds a session of an account (read from the signed cookie only:
    a public page never reads the store for who is looking)."""
    return isinstance(session_of(request).get("u"), int)


async def serve_cached(request: Request, event_id: int, key: tuple[Any, ...], render: Render) -> Response:
    """Answer from memory: the table as rendered at the event's stamp (re-read at most every
    ``StampCache.ttl`` seconds, in the background). An out-of-date table is answered with its
    previous rendering while the new one is made in the background (at most every
    ``PageCache.min_age`` seconds), so no poll waits for a rendering; only a first visit does
    (and every request when ``min_age`` is 0: the server's ``--refresh 0``). 304 when the
    client has it."""
    web = state(request)
    lang = lang_of(request)
    cache_key = _cache_key(request, event_id, key)

    def read_stamp() -> int:
        with web.ctx.work(actor=PUBLIC) as work:
            now = event_stamp(work, event_id)
        web.stamps.put(event_id, now)
        return now

    def rerender() -> None:
        try:
            with web.ctx.work(actor=PUBLIC) as work:
                now = event_stamp(work, event_id)
                body = render(work).encode()
        except Exception:
            web.cache.forget(cache_key)  # the next request renders it and answers why it cannot
            raise
        web.cache.put(cache_key, now, body)

    def render_now() -> tuple[bytes, int]:
        with web.ctx.work(actor=PUBLIC) as work:
            now = event_stamp(work, event_id)
            web.stamps.put(event_id, now)
            return cached(request, work, event_id, key, render, now)

    stamp = web.stamps.get(event_id)
    if web.cache.min_age <= 0:  # `--refresh 0`: every answer current, whatever it costs
        stamp = None
    elif stamp is None:
        stamp = web.stamps.last(event_id)
        if stamp is not None:
            web.background.once(("stamp", event_id), read_stamp)
    ready = web.cache.ready(cache_key, stamp) if stamp is not None else None
    if ready is None:
        ready = web.cache.previous(cache_key) if stamp is not None else None
        if ready is not None:
            web.background.once(("render", cache_key), rerender)
        else:
            ready = await run_in_threadpool(render_now)
    body, shown = ready
    prefix, suffix = _etag_parts(event_id, lang, (*key, _signed(request)))
    etag = f"{prefix}{shown}{suffix}"
    headers = {"ETag": etag, "Cache-Control": "no-cache", "Vary": "Accept-Encoding"}
    held = request.headers.get("if-none-match")
    if held == etag:
        return Response(status_code=304, headers=headers)
    newer = _stamp_held(held, prefix, suffix)
    if held is not None and newer is not None and shown < newer <= (web.stamps.last(event_id) or 0):
        # The client holds a newer rendering of this very table, made by another worker whose
        # rendering is ahead of ours: never send the table back in time; it keeps its copy
        # until ours catches up. Only up to the stamp this worker has read itself, so a forged
        # or pre-restore ETag gets the table as it is.
        return Response(status_code=304, headers={**headers, "ETag": held})
    if takes_gzip(request.headers.get("accept-encoding", "")):
        packed = web.cache.gzipped(cache_key, shown)
        if packed is not None:  # a 2,000-player standings table is 370 KB of HTML
            return HTMLResponse(packed, headers={**headers, "Content-Encoding": "gzip"})
    return HTMLResponse(body, headers=headers)


def _etag_parts(event_id: int, lang: str, key: tuple[Any, ...]) -> tuple[str, str]:
    """A table's ETag around the event's stamp it was rendered at: the same in every worker."""
    return f'W/"{event_id}-', f'-{lang}-{zlib.crc32(repr(key).encode())}"'


def _stamp_held(header: str | None, prefix: str, suffix: str) -> int | None:
    """The stamp of the rendering a client holds, when its If-None-Match names this table."""
    if not header or len(header) > 100 or not (header.startswith(prefix) and header.endswith(suffix)):
        return None
    middle = header[len(prefix):-len(suffix)]
    return int(middle) if middle.isdigit() and len(middle) <= 19 else None  # a stamp is a 64-bit revision


def _template(request: Request, name: str, **context: Any) -> str:
    """A public page: no user, no session, no CSRF token (it has no form)."""
    return state(request).templates.get_template(name).render(
        t=tr, lang=lang_of(request), user=None, signed=_signed(request), csrf="", path=request.url.path,
        **context)


def _event_nav(work: Work, event_id: int) -> dict[str, Any]:
    event = resolve_event(work, str(event_id))
    reg = regulation_of(event)
    from yisai.services.stage_view import bracket_labels

    return {"event": event, "reg": reg, "divisions": views.divisions_of(reg),
            "rounds": rounds_index(work, event.id),
            "bracket_divisions": bracket_labels(reg)}


@router.get("/", response_class=HTMLResponse, include_in_schema=False)
def index(request: Request) -> Response:
    with state(request).ctx.work(actor=PUBLIC) as work:
        events = [(e, regulation_of(e)) for e in list_events(work)]
    return HTMLResponse(_template(request, "index.html", events=events))


@router.get("/events/{event_id}", response_class=HTMLResponse, include_in_schema=False)
async def event_page(request: Request, event_id: Id) -> Response:
    def render(work: Work) -> str:
        nav = _event_nav(work, event_id)
        summary = summarise_event(work, nav["event"])
        sections = views.summary_sections(summarize(nav["reg"], ids=False))  # parents read it: no ids
        return _template(request, "event.html", sections=sections, summary=summary, **nav)

    return await serve_cached(request, event_id, ("event",), render)


@router.get("/events/{event_id}/entries", response_class=HTMLResponse, include_in_schema=False)
async def entries_page(request: Request, event_id: Id) -> Response:
    def render(work: Work) -> str:
        nav = _event_nav(work, event_id)
        entries = views.public_entries(list_entries(work, nav["event"]))
        teams = views.public_teams(list_teams(work, nav["event"]))
        by_division: dict[str, list[dict[str, Any]]] = {}
        for e in entries:
            by_division.setdefault(e["division"], []).append(e)
        return _template(request, "entries.html", by_division=by_division, teams=teams, **nav)

    return await serve_cached(request, event_id, ("entries",), render)


def _pairings_html(request: Request, event_id: int, division: str, number: int) -> Render:
    def render(work: Work) -> str:
        view = round_view(work, str(event_id), division, number)
        published = all(is_published(r.status) for r in view.rounds)
        if views.is_team_division(work, event_id, division):  # 团体赛: matches with their boards
            return state(request).templates.get_template("_team_matches.html").render(
                t=tr, published=published, matches=views.match_cards(work, event_id, number) if published else [])
        return state(request).templates.get_template("_pairings.html").render(
            t=tr, published=published, groups=views.board_lines(view) if published else [],
            left=views.left_out(view) if published else [])
    return render


@router.get("/events/{event_id}/rounds/{division}/{number}", response_class=HTMLResponse,
            include_in_schema=False)
async def round_page(request: Request, event_id: Id, division: str, number: Id) -> Response:
    table = _pairings_html(request, event_id, division, number)

    def render(work: Work) -> str:
        nav = _event_nav(work, event_id)
        body = cached(request, work, event_id, ("pairings", division, number), table)[0].decode()
        poll = f"/events/{event_id}/rounds/{division}/{number}/fragment"
        return _template(request, "round.html", division=division, number=number, table=body, poll=poll, **nav)

    return await serve_cached(request, event_id, ("round-page", division, number), render)


@router.get("/events/{event_id}/rounds/{division}/{number}/fragment", include_in_schema=False)
async def round_fragment(request: Request, event_id: Id, division: str, number: Id) -> Response:
    return await serve_cached(request, event_id, ("pairings", division, number),
                              _pairings_html(request, event_id, division, number))


def _standings_html(request: Request, event_id: int, division: str, ranking: str = "") -> Render:
    def render(work: Work) -> str:
        event = resolve_event(work, str(event_id))
        did = resolve_division(regulation_of(event), division)
        rankings = regulation_of(event).division(did).rankings
        chosen = reports.chosen_ranking(rankings, ranking)  # only this list is renumbered
        (shown,) = ranking_lists(work, event, did, only=chosen)
        st = shown.standings
        flags = {"gender": any(r.gender is not None for r in rankings), "group": views.has_groups(st)}
        return state(request).templates.get_template("_standings.html").render(
            t=tr, columns=views.standings_columns(st, **flags), rows=views.standings_rows(st, **flags),
            round=st.round, ranking=ranking if len(rankings) > 1 else "")
    return render


@router.get("/events/{event_id}/standings/{division}", response_class=HTMLResponse,
            include_in_schema=False)
async def standings_page(request: Request, event_id: Id, division: str, explain: str | None = None,
                         ranking: str = "") -> Response:
    """A division's standings; where the regulation ranks apart (男子 / 女子 / 混合), one tab per
    ranking list — plain links (?ranking=ID), so they work without JavaScript."""

    def render(work: Work) -> str:
        nav = _event_nav(work, event_id)
        rankings = nav["reg"].division(resolve_division(nav["reg"], division)).rankings
        chosen = next(r for r in rankings if r.id == reports.chosen_ranking(rankings, ranking, page=True))
        # the table is computed only when it is not rendered already (or for "why")
        table = _standings_html(request, event_id, division, chosen.id)
        body = cached(request, work, event_id, ("standings", division, chosen.id), table)[0].decode()
        explanation: list[str] = []
        if explain:
            st = reports.ranking_of(reports.event_rankings(work, str(event_id), division), chosen.id).standings
            try:
                explanation = st.explain(explain).text().splitlines()
            except KeyError as exc:
                explanation = [str(exc.args[0]) if exc.args else str(exc)]
        poll = f"/events/{event_id}/standings/{division}/fragment?ranking={quote(chosen.id)}"
        tabs = [(r.id, r.name) for r in rankings] if len(rankings) > 1 else []
        return _template(request, "standings.html", division=division, table=body, poll=poll,
                         explanation=explanation, tabs=tabs, chosen=chosen, **nav)

    return await serve_cached(request, event_id, ("standings-page", division, ranking, explain or ""), render)


@router.get("/events/{event_id}/standings/{division}/fragment", include_in_schema=False)
async def standings_fragment(request: Request, event_id: Id, division: str, ranking: str = "") -> Response:
    return await serve_cached(request, event_id, ("standings", division, ranking),
                              _standings_html(request, event_id, division, ranking))


def _brackets_html(request: Request, event_id: int, division: str) -> Render:
    def render(work: Work) -> str:
        from yisai.services.stage_view import stage_view

        view = stage_view(work, str(event_id), division, published_only=True)
        return state(request).templates.get_template("_brackets.html").render(t=tr, view=view)
    return render


@router.get("/events/{event_id}/brackets/{division}", response_class=HTMLResponse, include_in_schema=False)
async def brackets_page(request: Request, event_id: Id, division: str) -> Response:
    """循环赛 crosstables (one per group, places by the regulation's ranking) and the knockout
    bracket so far; a polled fragment, so results appear without a reload."""
    table = _brackets_html(request, event_id, division)

    def render(work: Work) -> str:
        nav = _event_nav(work, event_id)
        body = cached(request, work, event_id, ("brackets", division), table)[0].decode()
        poll = f"/events/{event_id}/brackets/{division}/fragment"
        return _template(request, "brackets.html", division=division, table=body, poll=poll, **nav)

    return await serve_cached(request, event_id, ("brackets-page", division), render)


@router.get("/events/{event_id}/brackets/{division}/fragment", include_in_schema=False)
async def brackets_fragment(request: Request, event_id: Id, division: str) -> Response:
    return await serve_cached(request, event_id, ("brackets", division), _brackets_html(request, event_id, division))


def _qualifier_html(request: Request, event_id: int) -> Render:
    from yisai.services.live import pool_names, qualifier_lists

    def render(work: Work) -> str:
        pools = pool_names(regulation_of(resolve_event(work, str(event_id))))
        return state(request).templates.get_template("_qualifier.html").render(
            t=tr, lists=qualifier_lists(work, event_id), pools=pools)
    return render


@router.get("/events/{event_id}/qualifier", response_class=HTMLResponse, include_in_schema=False)
async def qualifier_page(request: Request, event_id: Id) -> Response:
    """网络海选: each period's points table per pool with who qualifies (ties noted); the tables
    are a polled fragment, so finished games show up without a reload."""
    lists = _qualifier_html(request, event_id)

    def render(work: Work) -> str:
        nav = _event_nav(work, event_id)
        body = cached(request, work, event_id, ("qualifier-lists",), lists)[0].decode()
        return _template(request, "qualifier.html", table=body, poll=f"/events/{event_id}/qualifier/fragment", **nav)

    return await serve_cached(request, event_id, ("qualifier",), render)


@router.get("/events/{event_id}/qualifier/fragment", response_class=HTMLResponse, include_in_schema=False)
async def qualifier_fragment(request: Request, event_id: Id) -> Response:
    return await serve_cached(request, event_id, ("qualifier-lists",), _qualifier_html(request, event_id))


@router.get("/events/{event_id}/awards", response_class=HTMLResponse, include_in_schema=False)
async def awards_page(request: Request, event_id: Id) -> Response:
    def render(work: Work) -> str:
        nav = _event_nav(work, event_id)
        return _template(request, "awards.html", pages=reports.award_pages(work, str(event_id)), **nav)

    return await serve_cached(request, event_id, ("awards",), render)
