"""The players' side of the online qualifier (线上海选): sign-in by mobile number and one-time
code (or an optional password), the profile, the play page with the board client, the player's
own games with SGF downloads, the spectators' pages, and the developer outbox.

The board itself is ``static/play/*.jsx`` (Shudan on Preact, bundled by esbuild into
``static/build/``); it talks to the live WebSocket (``yisai.live.server``) with the ticket this
module issues: the player's account id, profile name and the division the birth date decides.
Every POST carries the CSRF token; phone numbers and birth dates appear only on the player's own
profile page.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response

from yisai.i18n import Text
from yisai.live.server import issue_ticket
from yisai.live.state import DEFAULT_SPECTATOR_DELAY
from yisai.qualifier import otp, proof
from yisai.qualifier.periods import closed_reason, open_period
from yisai.services import live as live_svc
from yisai.services import notices
from yisai.services.accounts import set_own_password
from yisai.services.context import Work
from yisai.services.errors import NotFoundError, ServiceError
from yisai.services.identity import Action, Actor
from yisai.services.notices import masked
from yisai.services.oauth_providers import Provider
from yisai.services.profiles import (
    FIELD_LABELS,
    Profile,
    ProfileInvalid,
    get_profile,
    pool_for,
    save_profile,
)
from yisai.web.console import client_of, current_actor, password_login
from yisai.web.core import HERE, PUBLIC, check_csrf, lang_of, page, signed_in, signed_out, state
from yisai.web.notices import kick, sender_of
from yisai.web.requests import Id, read_form

log = logging.getLogger("yisai.web.play")
router = APIRouter(prefix="/play", include_in_schema=False)
BUNDLE = HERE / "static" / "build" / "play.js"


@dataclass
class PlayState:
    """What the play pages share in this process: the qualifier event, whether the developer
    outbox page is shown (``yisai serve --dev-outbox``) and the outbox it reads (filled by the
    outbox sender when no SMS provider is configured), the configured WeChat/QQ sign-in providers
    and the site's public address their callbacks are registered at."""

    event: str | None
    dev_outbox: bool = False
    outbox: otp.OutboxSender = field(default_factory=otp.OutboxSender)
    event_id: int | None = None  # the resolved event (for links), found on first use
    spectator_delay: float = DEFAULT_SPECTATOR_DELAY  # what watchers are told (yisai serve --spectator-delay)
    providers: Mapping[str, Provider] = field(default_factory=dict)
    public_url: str = ""  # e.g. https://yisai.example.cn; empty: no WeChat/QQ sign-in
    proof_bits: int = proof.DEFAULT_BITS  # the work asked before a code is sent (YISAI_CODE_PROOF_BITS)

    def __post_init__(self) -> None:
        # A provider's callback is built only from the configured public address: from the
        # request's Host header, anyone could have the code sent to a host of their choosing.
        if self.providers and not self.public_url.strip():
            log.warning("WeChat/QQ sign-in is off: it needs the site's public address (the public address, YISAI_PUBLIC_URL)")
            self.providers = {}


def play_state(request: Request) -> PlayState:
    found: PlayState = request.app.state.play
    return found


def _config(work: Work, request: Request) -> live_svc.LiveConfig:
    event = play_state(request).event
    if event is None:
        raise NotFoundError(Text("本站未开放网络海选",
                                 "no online qualifier on this site"),
                            code="no_qualifier")
    return live_svc.live_config(work, event)


def _page(request: Request, name: str, http_status: int = 200, **context: Any) -> Response:
    """A play page: the navigation links to the event's public ladder."""
    ps = play_state(request)
    if ps.event_id is None and ps.event is not None:
        try:
            with state(request).ctx.work(actor=PUBLIC) as work:
                ps.event_id = live_svc.live_config(work, ps.event).event_id
        except ServiceError:
            ps.event_id = None
    context.setdefault("event_id", ps.event_id)
    return page(request, name, http_status=http_status, reasons=REASONS, **context)


REASONS = {"score": Text("数子", "count"), "resign": Text("中盘认输", "resignation"),
           "time": Text("超时判负", "time"), "forfeit": Text("弃权", "forfeit"),
           "escape": Text("逃跑", "escape"), "cycle": Text("循环劫", "cycle")}  # fmt: skip


def my_outcome(result: str, color: str) -> Text:
    """胜 / 负 / 和 of a finished game for the player of ``color`` ("B"/"W")."""
    if result == "Void":
        return Text("负 (双方)", "loss (both)")
    if result.startswith(("B+", "W+")):
        return Text("胜", "win") if result[0] == color else Text("负", "loss")
    return Text("和", "draw") if result == "0" else Text(result, result)


def _uid(actor: Actor | None) -> int | None:
    return int(actor.id) if actor is not None and actor.id.isdigit() else None


# ------------------------------------------------------------------ sign-in


def signin_page(request: Request, *, status: int = 200, phone: str = "", error: str = "",
                message: str = "") -> Response:  # fmt: skip
    """The players' sign-in page (code, password, and the configured WeChat/QQ buttons)."""
    ps = play_state(request)
    return _page(request, "play/signin.html", http_status=status, phone=phone, error=error,
                message=message, outbox=ps.dev_outbox, providers=ps.providers)  # fmt: skip


@router.get("/signin", response_class=HTMLResponse)
def signin_form(request: Request) -> Response:
    if _uid(current_actor(request)) is not None:
        return RedirectResponse("/play", status_code=303)
    return signin_page(request)


async def _fields(request: Request) -> dict[str, str]:
    await check_csrf(request)
    form = await read_form(request)
    return {k: v.strip() if isinstance(v, str) else "" for k, v in form.items()}


@router.get("/proof")
def proof_challenge(request: Request) -> JSONResponse:
    """A fresh challenge for the proof asked before a code is sent (``static/proof.js`` solves
    it; an API client does the same: docs/web.md, "验证码与第三方登录的防滥用")."""
    bits = play_state(request).proof_bits
    challenge = proof.issue(state(request).secret, bits, time.time())
    return JSONResponse({"challenge": challenge, "bits": bits, "seconds": proof.PROOF_SECONDS},
                        headers={"Cache-Control": "no-store"})


class ProofRefused(ServiceError):
    """A code request without a fresh, solved, unused proof: nothing counted, nothing sent."""

    status = 400
    default_code = "proof_refused"


PROOF_WORDS = {
    proof.MISSING: Text("获取验证码前须完成安全验证 (请启用浏览器的JavaScript后重试)",
                        "a code needs the browser's short check first (turn JavaScript on and retry)"),
    proof.FORGED: Text("安全验证无效, 请刷新页面后重试", "the check is not valid; reload the page and retry"),
    proof.WRONG: Text("安全验证未通过, 请刷新页面后重试", "the check failed; reload the page and retry"),
    proof.STALE: Text(f"安全验证已超过{proof.PROOF_SECONDS // 60}分钟, 请重新获取验证码",
                      f"the check is older than {proof.PROOF_SECONDS // 60} minutes; ask for a code again"),
    "used": Text("该安全验证已用过, 请重新获取验证码", "that check was used already; ask for a code again"),
}  # fmt: skip


def check_proof(request: Request, form: Mapping[str, str]) -> None:
    """Refuse a code request whose proof is missing, forged, stale, unsolved or used before —
    checked before any limit is counted, so an attacker's requests cost his own work first.
    A proof is used once across all workers (``services.counters``)."""
    ps, web = play_state(request), state(request)
    why, nonce = proof.verify(web.secret, form.get("proof_challenge", ""), form.get("proof_solution", ""),
                              ps.proof_bits, time.time())
    if why is None and web.counters is not None and not web.counters.once(f"proof:{nonce}", proof.PROOF_SECONDS + 60):
        why = "used"
    if why is not None:
        raise ProofRefused(PROOF_WORDS[why], code=f"proof_{why}")


@router.post("/code")
async def send_code(request: Request) -> Response:
    """Store a new code and queue its SMS (limited by the service: number, address, site, the
    event's budget); the notice worker sends it right after this response."""
    form = await _fields(request)
    phone = form.get("phone", "")
    lang = lang_of(request)
    try:
        check_proof(request, form)
        sent = deliver_code(request, phone)
    except ServiceError as exc:
        return signin_page(request, status=exc.status, phone=phone, error=exc.render(lang))
    answer = signin_page(request, phone=phone, message=sent.render(lang))
    answer.background = kick(request)  # after the commit and the answer
    return answer


def deliver_code(request: Request, phone: str) -> Text:
    """Store a new code for ``phone`` and queue its SMS (the service's limits apply) and say
    where it went; the code sign-in and the WeChat/QQ link page both ask through here. The
    caller sends the answer with ``kick`` so the notice worker delivers it right after."""
    with state(request).ctx.work(actor=PUBLIC) as work:
        event_id = _config(work, request).event_id if play_state(request).event else None
        outgoing = live_svc.request_code(work, phone, client=client_of(request), event_id=event_id)
    shown = masked(outgoing.phone)
    return Text(f"验证码已发送至 {shown}, {live_svc.CODE_MINUTES}分钟内有效",
                f"a code was sent to {shown}, valid {live_svc.CODE_MINUTES} minutes")


@router.post("/signin")
async def sign_in(request: Request) -> Response:
    form = await _fields(request)
    phone, code = form.get("phone", ""), form.get("code", "")
    lang = lang_of(request)
    try:
        with state(request).ctx.work(actor=PUBLIC) as work:
            actor = live_svc.sign_in_with_code(work, phone, code)
        if actor is None:  # the wrong guess is committed (five kill the code), then refused
            raise live_svc.bad_code()
    except ServiceError as exc:
        return signin_page(request, status=exc.status, phone=phone, error=exc.render(lang))
    return signed_in(request, "/play", int(actor.id))


@router.post("/password")
async def password_sign_in(request: Request) -> Response:
    """The optional password set on the profile page (same limiter as the console's login)."""
    form = await _fields(request)
    raw = form.get("phone", "")
    try:
        actor = password_login(request, otp.normalise_phone(raw) or raw, form.get("password", ""))
    except ServiceError as exc:
        return signin_page(request, status=exc.status, phone=raw, error=exc.render(lang_of(request)))
    return signed_in(request, "/play", int(actor.id))


@router.post("/signout")
async def sign_out(request: Request) -> Response:
    await check_csrf(request)
    return signed_out(request, "/play/signin")


@router.get("/dev/outbox", response_class=HTMLResponse)
def dev_outbox(request: Request) -> Response:
    """Developer mode only: the codes the outbox sender kept instead of sending an SMS."""
    ps = play_state(request)
    if not ps.dev_outbox or sender_of(request).name != "outbox":
        raise NotFoundError(Text("未开启开发者发件箱", "the developer outbox is off"), code="not_found")
    current_actor(request)
    return _page(request, "play/outbox.html", messages=list(reversed(ps.outbox.messages)))


# ------------------------------------------------------------------ profile


class SignInRequired(Exception):
    """A player's page without a signed-in account: the app redirects GETs to /play/signin."""


def _player(request: Request) -> Actor:
    actor = current_actor(request)
    if actor is None or _uid(actor) is None:
        raise SignInRequired()
    return actor


def _profile_page(request: Request, actor: Actor, values: dict[str, str], *, status: int = 200,
                  problems: dict[str, str] | None = None, error: str = "",
                  details: list[str] | None = None) -> Response:  # fmt: skip
    labels = {k: v.render(lang_of(request)) for k, v in FIELD_LABELS.items()}
    with state(request).ctx.work(actor=actor) as work:
        sms_on = not notices.my_opt_out(work)
    return _page(request, "play/profile.html", http_status=status, values=values, labels=labels,
                problems=problems or {}, error=error, details=details or [], sms_on=sms_on,
                saved=request.query_params.get("saved", ""))  # fmt: skip


def _values(p: Profile | None) -> dict[str, str]:
    if p is None:
        return {}
    return {"name": p.name, "gender": p.gender.value, "birth": p.birth.isoformat(), "region": p.region,
            "rank": p.rank, "guardian_phone": p.guardian_phone or ""}  # fmt: skip


@router.get("/profile", response_class=HTMLResponse)
def profile_form(request: Request) -> Response:
    actor = _player(request)
    with state(request).ctx.work(actor=actor) as work:
        found = get_profile(work, int(actor.id))
    return _profile_page(request, actor, _values(found))


@router.post("/notices")
async def notices_choice(request: Request) -> Response:
    """The player's opt-out of every SMS notice but the sign-in code (the profile page's form)."""
    form = await _fields(request)
    actor = _player(request)
    with state(request).ctx.work(actor=actor) as work:
        notices.set_my_opt_out(work, form.get("sms") != "1")
    return RedirectResponse("/play/profile?saved=notices#notices", status_code=303)


@router.post("/profile")
async def profile_save(request: Request) -> Response:
    form = await _fields(request)
    actor = _player(request)
    lang = lang_of(request)
    try:
        with state(request).ctx.work(actor=actor) as work:
            played = bool(play_state(request).event) and bool(live_svc.player_games(work, _config(work, request), actor.id))
            save_profile(work, int(actor.id), form, birth_locked=played)
            if form.get("password"):
                set_own_password(work, form["password"])
    except ProfileInvalid as exc:
        problems = {k: v.render(lang) for k, v in exc.problems.items()}
        return _profile_page(request, actor, form, status=400, problems=problems, error=exc.render(lang),
                             details=exc.render_details(lang))
    except ServiceError as exc:
        problems = {"password": exc.render(lang)} if exc.code == "weak_password" else {}
        return _profile_page(request, actor, form, status=exc.status, problems=problems,
                             error=exc.render(lang))
    return RedirectResponse("/play", status_code=303)


# ------------------------------------------------------------------ playing


@router.get("/ticket")
def play_ticket(request: Request) -> Response:
    """A fresh live ticket for the open board page (the socket refused an expired one)."""
    actor = current_actor(request)
    if actor is None or _uid(actor) is None:  # a fetch: a status, not a redirect to the sign-in page
        return JSONResponse({"error": "signin"}, status_code=401, headers=NO_STORE)
    with state(request).ctx.work(actor=actor) as work:
        cfg = _config(work, request)
        profile = get_profile(work, int(actor.id))
    if profile is None:
        return JSONResponse({"error": "profile"}, status_code=409, headers=NO_STORE)
    ticket, _, _ = _ticket(request, actor, cfg, profile)
    return JSONResponse({"ticket": ticket}, headers=NO_STORE)


NO_STORE = {"Cache-Control": "no-store"}


def _ticket(request: Request, actor: Actor, cfg: live_svc.LiveConfig, profile: Profile) -> tuple[str, str, str]:
    """The player's live ticket, with the division and pool it names (from the birth date)."""
    division, pool = pool_for(cfg.regulation, cfg.stage, cfg.ladder, profile.birth)
    return issue_ticket(state(request).secret, actor.id, profile.name, division), division, pool


@router.get("", response_class=HTMLResponse)
def play_page(request: Request) -> Response:
    actor = _player(request)
    standing = None
    with state(request).ctx.work(actor=actor) as work:
        cfg = _config(work, request)
        profile = get_profile(work, int(actor.id))
        if profile is None:
            return RedirectResponse("/play/profile", status_code=303)
        ticket, division, pool = _ticket(request, actor, cfg, profile)
        period = open_period(cfg.stage, state(request).ctx.settings.clock())
        if period is not None:  # the player's line in this period's table, if they have played
            rows = live_svc.ladder_table(work, cfg, period.number, pool)
            standing = next((r for r in rows if r.line.player == actor.id), None)
    return _board_page(request, cfg, mode="play", ticket=ticket, me=profile.name, standing=standing,
                       division=cfg.regulation.division(division).name, pool=live_svc.pool_names(cfg.regulation).get(pool, pool))


def _board_page(request: Request, cfg: live_svc.LiveConfig, **context: Any) -> Response:
    lang = lang_of(request)
    beijing = state(request).ctx.settings.clock()
    period = open_period(cfg.stage, beijing)
    if period is not None:
        period_text = Text(f"第{period.number}期进行中 ({period.start} – {period.end})",
                           f"period {period.number} is open ({period.start} – {period.end})").render(lang)
    else:
        period_text = closed_reason(cfg.stage, beijing).render(lang)
    tc = cfg.rules.time
    setup = {"mode": context["mode"], "ticket": context.pop("ticket", ""), "game": context.get("game"),
             "lang": lang, "main": tc.main_minutes * 60, "periods": tc.byoyomi_periods,
             "period": tc.byoyomi_seconds, "komi": cfg.rules.play.komi}  # fmt: skip
    return _page(request, "play/board.html", setup=setup, period_text=period_text,
                bundle=BUNDLE.exists(), event_id=cfg.event_id, **context)  # fmt: skip


@router.get("/games", response_class=HTMLResponse)
def my_games(request: Request) -> Response:
    actor = _player(request)
    with state(request).ctx.work(actor=actor) as work:
        cfg = _config(work, request)
        games = live_svc.player_games(work, cfg, actor.id)
    rows = [(g, my_outcome(g.result, "B" if g.black == actor.id else "W").render(lang_of(request))
             if g.status != "playing" else "") for g in games]
    return _page(request, "play/games.html", rows=rows, pools=live_svc.pool_names(cfg.regulation))


@router.get("/games/{game_id}.sgf")
def game_sgf(request: Request, game_id: Id) -> Response:
    """A finished game's record, for its two players (and officials)."""
    actor = _player(request)
    with state(request).ctx.work(actor=actor) as work:
        info = live_svc.game_info(work, game_id)
        if actor.id not in (info.black, info.white) and not actor.may(Action.MANAGE_USERS):
            raise NotFoundError(Text(f"没有对局 {game_id}", f"no game {game_id}"), code="no_game")
        sgf = live_svc.game_sgf(work, game_id)
    if not sgf:
        raise NotFoundError(Text("对局尚未结束, 还没有棋谱", "the game is not over; no record yet"),
                            code="no_sgf")
    return Response(sgf.encode("utf-8"), media_type="application/x-go-sgf",
                    headers={"content-disposition": f'attachment; filename="game-{game_id}.sgf"'})


# ------------------------------------------------------------------ watching


@router.get("/watch", response_class=HTMLResponse)
def watch_list(request: Request) -> Response:
    current_actor(request)
    with state(request).ctx.work(actor=PUBLIC) as work:
        cfg = _config(work, request)
        games = live_svc.games_in_play(work, cfg)
    return _page(request, "play/watch.html", games=games, pools=live_svc.pool_names(cfg.regulation), event_id=cfg.event_id,
                 delay=play_state(request).spectator_delay)


@router.get("/watch/{game_id}", response_class=HTMLResponse)
def watch_game(request: Request, game_id: Id) -> Response:
    """A read-only board: the socket is a spectator's (no ticket)."""
    current_actor(request)
    with state(request).ctx.work(actor=PUBLIC) as work:
        cfg = _config(work, request)
        info = live_svc.game_info(work, game_id)
    return _board_page(request, cfg, mode="watch", game=info.id, delay=play_state(request).spectator_delay,
                       title_names=f"{info.black_name} – {info.white_name}")


__all__ = ["PlayState", "ProofRefused", "SignInRequired", "check_proof", "deliver_code", "router", "signin_page"]
