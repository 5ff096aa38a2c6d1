"""The director's console: login, events, entries, roster upload, pairing, the result grid,
result-sheet upload, audit and downloads.

Every write is a POST carrying the session's CSRF token, runs as the signed-in user (the
services check the role with ``work.require``) and is audited by the store; the pages hide what
the user's role may not do, but the server never relies on that.
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from pydantic import Field

from yisai.formats.result_sheet import write_result_sheet
from yisai.formats.standings_export import to_xlsx
from yisai.formats.uploads import read_result_sheet_bytes, safe_name
from yisai.i18n import Text, tr
from yisai.pairing import Controls
from yisai.registry.entry import EntryStatus
from yisai.regulation import RegulationError, loads
from yisai.services.accounts import authenticate, user_actor
from yisai.services.approvals import approve_entry, reject_entry, set_fee_paid
from yisai.services.audit_view import audit_page
from yisai.services.context import Work
from yisai.services.entries import list_entries
from yisai.services.errors import Forbidden, InputError, ServiceError
from yisai.services.events import create_event_from_text, list_events, regulation_of, resolve_event
from yisai.services.identity import Action, Actor, Role
from yisai.services.publishing import (
    publish_round,
    record_refused_attempt,
    results_entered,
    rounds_index,
    unpublish_round,
)
from yisai.services.result_sheets import ImportReport as SheetReport
from yisai.services.result_sheets import import_results
from yisai.services.roster_import import ImportReport as RosterReport
from yisai.services.roster_import import import_roster
from yisai.services.round_results import current_conflict, record_result
from yisai.services.rounds import pair, round_view, sheet_lines, sheet_title
from yisai.services.stage_view import bracket_labels
from yisai.services.withdrawal import disqualify_entry, reinstate_entry, withdraw_entry
from yisai.web import reports, views
from yisai.web.core import (
    PUBLIC,
    check_csrf,
    lang_of,
    login_source,
    page,
    read_json,
    remember_device,
    session_of,
    signed_in,
    signed_out,
    state,
)
from yisai.web.hints import web_dict, web_message
from yisai.web.requests import MAX_ID, Body, Id, QueryNumber, form_number, read_form

router = APIRouter(prefix="/console", include_in_schema=False)

# The grid's one-key results: the only copy (the grid sends what was typed; the page's hint is
# rendered from it).
GRID_WORDS = {"1": "黑胜", "2": "白胜", "=": "和", "0": "双方弃权"}
MAX_UPLOAD = 5 * 1024 * 1024


class GridResult(Body):
    """What the grid's script sends for one board (static/grid.js)."""

    board: int = Field(ge=1, le=MAX_ID)
    version: int = Field(ge=1, le=MAX_ID)
    result: str = Field(default="", max_length=40)
    group: str | None = Field(default=None, max_length=100)
    note: str = Field(default="", max_length=2000)


class LoginRequired(Exception):
    pass


def current_actor(request: Request) -> Actor | None:
    """The signed-in account, read from the store once per request (the page, its navigation and
    the write it guards all ask); a new session written in the request forgets it."""
    session = session_of(request)
    known = getattr(request.state, "actor_for", None)
    if known is not None and known[0] == session:
        request.state.actor = known[1]
        return known[1]
    actor: Actor | None = None
    uid, epoch = session.get("u"), session.get("e", 0)
    if isinstance(uid, int) and isinstance(epoch, int):
        with state(request).ctx.work(actor=PUBLIC) as work:
            actor = user_actor(work, uid, epoch)
    request.state.actor_for = (session, actor)
    request.state.actor = actor  # what the pages' navigation reads
    return actor


def require_login(request: Request) -> Actor:
    actor = current_actor(request)
    if actor is None:
        raise LoginRequired()
    return actor


@contextmanager
def acting(request: Request) -> Iterator[Work]:
    """One transaction as the signed-in user."""
    actor = require_login(request)
    with state(request).ctx.work(actor=actor) as work:
        yield work


def client_of(request: Request) -> str:
    return request.client.host if request.client else "?"


def back(url: str, message: str = "", *, ok: bool = True) -> RedirectResponse:
    from urllib.parse import quote

    target = url + (("&" if "?" in url else "?") + ("msg=" if ok else "err=") + quote(message) if message else "")
    return RedirectResponse(target, status_code=303)


async def _form(request: Request) -> dict[str, Any]:
    await check_csrf(request)
    form = await read_form(request)
    return {k: form.get(k) for k in form}


def _text(form: dict[str, Any], key: str) -> str:
    v = form.get(key)
    return v.strip() if isinstance(v, str) else ""


async def _upload(form: dict[str, Any], key: str) -> tuple[str, bytes]:
    f = form.get(key)
    if f is None or isinstance(f, str) or not getattr(f, "filename", ""):
        raise InputError(Text("请选择要上传的文件", "choose a file to upload"), code="no_file")
    data = await f.read(MAX_UPLOAD + 1)
    if len(data) > MAX_UPLOAD:
        raise InputError(Text("文件超过5MB", "the file is larger than 5 MB"), code="too_large")
    return safe_name(str(f.filename)), data


# ------------------------------------------------------------------ login


def password_login(request: Request, login_name: str, password: str) -> Actor:
    """Check a login and password under the per-client rate limit (console and players)."""
    web = state(request)
    source = login_source(request, login_name, client_of(request))
    web.limiter.check(source, login_name)
    try:
        with web.ctx.work(actor=PUBLIC) as work:
            actor = authenticate(work, login_name, password)
    except ServiceError as exc:
        if exc.code == "bad_credentials":
            web.limiter.failed(source, login_name)
        raise
    web.limiter.succeeded(source, login_name)
    return actor


@router.get("/me", include_in_schema=False)
def my_home(request: Request) -> Response:
    """Where the shared public pages' header link leads (they are cached for every visitor, so
    they know only that a session cookie is there): a player to the play pages, an official
    to the console, anyone whose session has ended to the login form."""
    actor = current_actor(request)
    if actor is None:
        return RedirectResponse("/console/login", status_code=303)
    return RedirectResponse("/play" if actor.role == Role.PLAYER else "/console", status_code=303)


@router.get("/login", response_class=HTMLResponse)
def login_form(request: Request) -> Response:
    current_actor(request)
    return page(request, "login.html", error="")


@router.post("/login")
async def login(request: Request) -> Response:
    form = await _form(request)
    try:
        actor = password_login(request, _text(form, "login"), str(form.get("password") or ""))
    except ServiceError as exc:
        return page(request, "login.html", http_status=429 if exc.code == "rate_limited" else 401,
                    error=exc.render(lang_of(request)))
    response = signed_in(request, "/console", int(actor.id))
    remember_device(request, response, _text(form, "login"))
    return response


@router.post("/logout")
async def logout(request: Request) -> Response:
    await check_csrf(request)
    return signed_out(request, "/")


# ------------------------------------------------------------------ events


@router.get("", response_class=HTMLResponse)
def dashboard(request: Request, msg: str = "", err: str = "") -> Response:
    with acting(request) as work:
        events = [(e, regulation_of(e)) for e in list_events(work)]
        if work.actor.event is not None:
            events = [(e, r) for e, r in events if e.id == work.actor.event]
    return page(request, "console/dashboard.html", events=events, msg=msg, err=err)


@router.post("/events")
async def create_event(request: Request) -> Response:
    form = await _form(request)
    filename, data = await _upload(form, "regulation")
    with acting(request) as work:
        work.require(Action.CREATE_EVENT)
        try:
            regulation = loads(data, filename)
        except RegulationError as exc:
            raise InputError(Text(f"规程文件 {filename} 有{len(exc.issues)}处错误, 未创建比赛",
                                  f"{filename} has {len(exc.issues)} problem(s); no event created"),
                             [i.text for i in exc.issues], code="bad_regulation") from None
        text = data.decode("utf-8-sig")
        event = create_event_from_text(work, text, regulation, name=_text(form, "name") or None)
    return back(f"/console/events/{event.id}", tr("比赛已创建", "event created"))


def _event_context(work: Work, event_id: int) -> dict[str, Any]:
    event = resolve_event(work, str(event_id))
    if work.actor.event is not None and work.actor.event != event.id:
        raise Forbidden(Text("此账号只能管理自己的比赛", "this account is limited to another event"))
    reg = regulation_of(event)
    return {"event": event, "reg": reg, "divisions": views.divisions_of(reg),
            "rounds": rounds_index(work, event.id)}


@router.get("/events/{event_id}/rounds-nav", response_class=HTMLResponse)
def rounds_nav(request: Request, event_id: Id) -> Response:
    """The round buttons with their entered/boards counters, polled by every console page."""
    with acting(request) as work:
        ctx = _event_context(work, event_id)
    response = page(request, "console/_rounds.html", **ctx)
    response.headers["Cache-Control"] = "no-store"
    return response


@router.get("/events/{event_id}", response_class=HTMLResponse)
def event_console(request: Request, event_id: Id, msg: str = "", err: str = "") -> Response:
    with acting(request) as work:
        ctx = _event_context(work, event_id)
        counts: dict[str, dict[str, int]] = {}
        for v in list_entries(work, ctx["event"]):
            counts.setdefault(v.entry.division, {}).setdefault(v.entry.status.value, 0)
            counts[v.entry.division][v.entry.status.value] += 1
        brackets = bracket_labels(ctx["reg"])
    return page(request, "console/event.html", counts=counts, msg=msg, err=err, bracket_divisions=brackets, **ctx)


# ------------------------------------------------------------------ entries


@router.get("/events/{event_id}/entries", response_class=HTMLResponse)
def entries(request: Request, event_id: Id, status: str = "", msg: str = "", err: str = "") -> Response:
    with acting(request) as work:
        ctx = _event_context(work, event_id)
        chosen = EntryStatus(status) if status in {s.value for s in EntryStatus} else None
        rows = list_entries(work, ctx["event"], status=chosen)
    return page(request, "console/entries.html", rows=rows, status=status, msg=msg, err=err,
                status_label=views.status_label, gender_label=views.gender_label, **ctx)


@router.post("/events/{event_id}/entries/{entry_id}")
async def decide_entry(request: Request, event_id: Id, entry_id: str) -> Response:
    form = await _form(request)
    decision, note = _text(form, "decision"), _text(form, "note")
    with acting(request) as work:
        _event_context(work, event_id)
        if decision in ("approve", "force"):
            work.require(Action.APPROVE)
            approve_entry(work, entry_id, force=decision == "force", note=note)
        elif decision == "reject":
            work.require(Action.APPROVE)
            reject_entry(work, entry_id, note)
        elif decision in ("paid", "unpaid"):
            work.require(Action.APPROVE)
            set_fee_paid(work, entry_id, decision == "paid", note)
        elif decision == "withdraw":  # 退赛; mid-event the service asks for the chief referee and a reason
            withdraw_entry(work, entry_id, note)
        elif decision == "disqualify":
            work.require(Action.APPROVE)
            disqualify_entry(work, entry_id, note)
        elif decision == "reinstate":
            work.require(Action.APPROVE)
            reinstate_entry(work, entry_id, note)
        else:
            raise InputError(Text(f"未知操作: {decision}", f"unknown decision: {decision}"))
    return back(f"/console/events/{event_id}/entries", tr("已保存", "saved"))


@router.post("/events/{event_id}/roster")
async def roster_upload(request: Request, event_id: Id) -> Response:
    form = await _form(request)
    filename, data = await _upload(form, "roster")

    def run() -> RosterReport:  # off the event loop: reading a workbook waits for its own process
        with acting(request) as work:
            ctx = _event_context(work, event_id)
            work.require(Action.REGISTER)
            return import_roster(work, ctx["event"], data, filename, note=_text(form, "note"),
                                 late=_text(form, "late") == "1")

    report = await run_in_threadpool(run)
    message = tr(f"导入{report.rows}行: 新增棋手{report.players_created}人, 报名{report.entries_created}项 "
                 f"(待审核{report.entries_pending}), 队伍{report.teams_created}支",
                 f"{report.rows} rows: {report.players_created} players, {report.entries_created} entries "
                 f"({report.entries_pending} pending), {report.teams_created} teams")
    if report.changes_pending:
        message += tr(f"; {report.changes_pending}名已登记棋手的资料更改须裁判长批准, 暂未生效",
                      f"; {report.changes_pending} change(s) to registered players wait for the chief referee")
    return back(f"/console/events/{event_id}/entries", message)


# ------------------------------------------------------------------ rounds


def _pairs(text: str) -> tuple[tuple[str, str], ...]:
    out = []
    for part in text.replace("，", ",").split(","):
        a, sep, b = part.strip().partition("-")
        if part.strip() and (not sep or not a.strip() or not b.strip()):
            raise InputError(Text(f"应为 编号-编号: {part.strip()}", f"expected ID-ID: {part.strip()}"))
        if sep:
            out.append((a.strip(), b.strip()))
    return tuple(out)


def _ids(text: str) -> tuple[str, ...]:
    return tuple(p.strip() for p in text.replace("，", ",").split(",") if p.strip())


@router.post("/events/{event_id}/pair")
async def pair_round(request: Request, event_id: Id) -> Response:
    form = await _form(request)
    division = _text(form, "division")
    number = form_number(_text(form, "round"), Text("轮次", "the round"))
    if number is None:
        raise InputError(Text("轮次须为数字", "the round must be a number"), code="bad_round")
    controls = Controls(fixed_pairs=_pairs(_text(form, "fix")), forbidden_pairs=_pairs(_text(form, "forbid")),
                        sit_outs=_ids(_text(form, "sit_out")))
    try:
        with acting(request) as work:
            _event_context(work, event_id)
            work.require(Action.PAIR)
            pair(work, str(event_id), division, number, controls=controls, replace=bool(form.get("replace")))
    except ServiceError as exc:
        if exc.code != "previous_round_incomplete":
            raise
        lang = lang_of(request)  # the boards to finish, and the way to their grid
        grid = f"/console/events/{event_id}/rounds/{exc.params['division']}/{exc.params['previous']}"
        return page(request, "error.html", http_status=exc.status, title=tr("无法编排", "Cannot pair"),
                    message=web_message(exc, lang), details=exc.render_details(lang), link=grid,
                    link_text=tr(f"去录入第{exc.params['previous']}轮成绩", f"Enter round {exc.params['previous']}'s results"))
    return back(f"/console/events/{event_id}/rounds/{division}/{number}", tr("已编排", "paired"))


@router.get("/events/{event_id}/rounds/{division}/{number}", response_class=HTMLResponse)
def round_console(request: Request, event_id: Id, division: str, number: Id,
                  msg: str = "", err: str = "") -> Response:
    with acting(request) as work:
        ctx = _event_context(work, event_id)
        view = round_view(work, str(event_id), division, number)
        matches = (views.match_cards(work, event_id, number)
                   if views.is_team_division(work, event_id, division) else [])
    published = all(r.status == "published" for r in view.rounds)
    return page(request, "console/round.html", division=division, number=number, view=view, matches=matches,
                groups=views.board_lines(view), left_out=views.left_out(view), published=published, msg=msg,
                err=err, grid_words=GRID_WORDS,
                results_entered=results_entered(view.rounds),
                post=f"/console/events/{event_id}/rounds/{division}/{number}/result", **ctx)


@router.post("/events/{event_id}/rounds/{division}/{number}/result")
async def post_result(request: Request, event_id: Id, division: str, number: Id) -> Response:
    """One board from the grid (JSON); a conflict answers 409 with the stored result."""
    actor = require_login(request)  # before the body is read
    body = await read_json(request, GridResult)
    return save_result(request, actor, event_id, division, number, body.board, body.result, body.version,
                       body.group, body.note)


def save_result(request: Request, actor: Actor, event_id: int, division: str, number: int, board: int,
                text: str, version: int, group: str | None, note: str) -> Response:
    """Enter one board as ``actor``; a refused attempt (conflict, role) is kept in the audit."""
    lang = lang_of(request)
    web = state(request)
    text = GRID_WORDS.get(text.strip(), text.strip())
    try:
        with web.ctx.work(actor=actor) as work:
            _event_context(work, event_id)
            saved = record_result(work, str(event_id), division, number, board, text,
                                  expected_version=version, group=group, note=note)
    except ServiceError as exc:
        if exc.code == "result_conflict" and exc.params.get("version") is None:
            with web.ctx.work(actor=actor) as work:
                exc = current_conflict(work, str(event_id), division, number, board, group)
        if exc.code in ("result_conflict", "forbidden"):
            with web.ctx.work(actor=actor) as work:
                record_refused_attempt(work, str(event_id), division, number, board, text,
                                       {"code": exc.code, "seen_version": version, **exc.params})
        answer = web_dict(exc, lang)
        brief = _grid_refusal(exc, board)
        if brief is not None:
            answer["message"] = brief.render(lang)
        return JSONResponse(answer, status_code=exc.status)
    word = views.result_text(saved.game)
    if not saved.changed:
        return JSONResponse({"board": board, "result": word, "version": saved.version, "warnings": [],
                             "unchanged": True, "message": tr(f"第{board}台已是 {word}, 无需重录",
                                                              f"board {board} already has {word}; nothing to do")})
    message = tr(f"第{board}台已保存: {word}", f"board {board} saved: {word}")
    warnings = [w.render(lang) for w in saved.warnings]
    return JSONResponse({"board": board, "result": word, "version": saved.version, "warnings": warnings,
                         "message": "; ".join([message, *warnings])})


GRID_ACCEPTS = Text("可输入 1 黑胜、2 白胜、= 和、0 双方弃权, 或 黑超时负、白弃权、B+R 等",
                    "type 1 Black wins, 2 White wins, = draw, 0 both forfeit, or 黑超时负, 白弃权, B+R …")


def _grid_refusal(exc: ServiceError, board: int) -> Text | None:
    """One short line for the grid's cell instead of the long list a file import prints."""
    if exc.code == "bad_result":
        typed = str(exc.params.get("text", ""))[:20]
        return Text(f"第{board}台: 无法识别“{typed}”。{GRID_ACCEPTS.zh}",
                    f"board {board}: “{typed}” is not a result; {GRID_ACCEPTS.en}")
    if exc.code == "note_required":
        current = exc.params.get("current", "")
        return Text(f"第{board}台已有成绩 {current}; 更正请先在“理由”栏写明理由, 再输入新成绩",
                    f"board {board} already has {current}; to correct it, write a note first, then the new result")
    return None


@router.post("/events/{event_id}/rounds/{division}/{number}/publish")
async def publish(request: Request, event_id: Id, division: str, number: Id) -> Response:
    form = await _form(request)
    with acting(request) as work:
        _event_context(work, event_id)
        publish_round(work, str(event_id), division, number, _text(form, "note"))
    return back(f"/console/events/{event_id}/rounds/{division}/{number}", tr("已公布", "published"))


@router.post("/events/{event_id}/rounds/{division}/{number}/unpublish")
async def unpublish(request: Request, event_id: Id, division: str, number: Id) -> Response:
    """Take the pairings off the public pages again (refused once a result is entered)."""
    form = await _form(request)
    with acting(request) as work:
        _event_context(work, event_id)
        unpublish_round(work, str(event_id), division, number, _text(form, "note"))
    return back(f"/console/events/{event_id}/rounds/{division}/{number}", tr("已撤回公布", "unpublished"))


@router.post("/events/{event_id}/rounds/{division}/{number}/sheet")
async def sheet_upload(request: Request, event_id: Id, division: str, number: Id) -> Response:
    form = await _form(request)
    filename, data = await _upload(form, "sheet")

    def run() -> SheetReport:  # off the event loop: reading a workbook waits for its own process
        with acting(request) as work:
            _event_context(work, event_id)
            work.require(Action.RECORD_RESULT)
            sheet = read_result_sheet_bytes(data, filename)
            change = bool(form.get("change"))
            if change:
                work.require(Action.CHANGE_RESULT)
            return import_results(work, str(event_id), division, number, sheet, change=change,
                                  note=_text(form, "note"))

    report = await run_in_threadpool(run)
    return back(f"/console/events/{event_id}/rounds/{division}/{number}",
                tr(f"已导入{len(report.saved)}台成绩", f"{len(report.saved)} results imported"))


@router.get("/events/{event_id}/rounds/{division}/{number}/sheet.xlsx")
def sheet_download(request: Request, event_id: Id, division: str, number: Id) -> Response:
    with acting(request) as work, tempfile.TemporaryDirectory(prefix="yisai-dl-") as tmp:
        _event_context(work, event_id)
        view = round_view(work, str(event_id), division, number)
        path = write_result_sheet(Path(tmp) / "sheet.xlsx", sheet_title(view), sheet_lines(view))
        data = path.read_bytes()
    return _download(data, f"round-{division}-{number}.xlsx")


# ------------------------------------------------------------------ reports, audit


@router.get("/events/{event_id}/print/{kind}.pdf")
def print_download(request: Request, event_id: Id, kind: str, division: str | None = None,
                   round: QueryNumber = None) -> Response:
    """打印: the same PDF as ``yisai print KIND`` (pairing list, table cards, score slips, standings,
    team standings, prize list, rank-award list, certificates, entry list, booklet)."""
    from urllib.parse import quote as url_quote

    from yisai.services.printing import PrintOptions, file_name, print_pdf

    options = PrintOptions(division=division or None, round=round)
    with acting(request) as work:
        ctx = _event_context(work, event_id)
        data = print_pdf(work, event_id, kind, options)
    name = file_name(kind, options, ctx["reg"])  # 成绩表_甲组.pdf, not 成绩表_jia.pdf
    return Response(data, media_type="application/pdf", headers={
        "Content-Disposition": f"attachment; filename=\"document.pdf\"; filename*=UTF-8''{url_quote(name)}"})


def _download(data: bytes, filename: str) -> Response:
    return Response(data, media_type="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
                    headers={"Content-Disposition": f'attachment; filename="{filename}"'})


@router.get("/events/{event_id}/standings/{division}.xlsx")
def standings_xlsx(request: Request, event_id: Id, division: str) -> Response:
    with acting(request) as work:
        _event_context(work, event_id)
        data = to_xlsx(reports.event_standings(work, str(event_id), division))
    return _download(data, f"standings-{division}.xlsx")


@router.get("/events/{event_id}/prizes.xlsx")
def prizes_xlsx(request: Request, event_id: Id) -> Response:
    with acting(request) as work:
        _event_context(work, event_id)
        data = reports.prizes_xlsx(work, str(event_id))
    return _download(data, "prizes.xlsx")


@router.get("/events/{event_id}/awards.xlsx")
def awards_xlsx(request: Request, event_id: Id) -> Response:
    with acting(request) as work:
        _event_context(work, event_id)
        data = reports.awards_xlsx(work, str(event_id))
    return _download(data, "rank-awards.xlsx")


@router.get("/events/{event_id}/audit", response_class=HTMLResponse)
def audit(request: Request, event_id: Id, page_no: Annotated[int | None, Query(ge=1, le=MAX_ID, alias="page")] = None) -> Response:
    """操作记录 in words (names, 旧 → 新), 50 lines a page, newest first."""
    with acting(request) as work:
        ctx = _event_context(work, event_id)
        log = audit_page(work, str(event_id), page_no or 1)
    return page(request, "console/audit.html", log=log, **ctx)
