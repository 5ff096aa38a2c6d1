"""The web application: public site, director's console and JSON API on one FastAPI app.

``create_app(settings)`` opens the one services context of this process; ``yisai serve`` runs
it under uvicorn (``app_from_environment`` is the factory each worker process calls).
"""

from __future__ import annotations

import asyncio
import gc
import os
import secrets
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from dataclasses import replace
from typing import Any
from urllib.parse import quote

from fastapi import FastAPI, Request
from fastapi.exception_handlers import http_exception_handler
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from yisai.i18n import Text, tr
from yisai.live.tasks import stop_task
from yisai.qualifier.proof import MAX_BITS
from yisai.reach.config import SmsConfig, build_sender, load_sms_config
from yisai.services.context import open_context
from yisai.services.counters import REDIS_PREFIX, shared_counters
from yisai.services.errors import ServiceError
from yisai.services.metrics import worker_gone
from yisai.services.oauth_providers import Provider, providers_from_environment
from yisai.services.payments.registry import providers_from_environment as payment_providers
from yisai.services.settings import Settings, settings_from_environment
from yisai.web import (
    accounts,
    api,
    appeals,
    console,
    drafts,
    fees,
    members,
    notices,
    observe,
    papers,
    play,
    prize_decisions,
    public,
    qualification,
    registration,
    team_matches,
    wechat_pay,
)
from yisai.web import oauth as oauth_routes
from yisai.web.bodies import BodyLimitMiddleware, BodyLimits, limits_from_environment
from yisai.web.core import (
    HERE,
    LanguageMiddleware,
    PageCache,
    SecurityHeadersMiddleware,
    SharedLoginLimiter,
    StampCache,
    WebState,
    answers_json,
    lang_of,
    page,
)
from yisai.web.hints import web_dict, web_message
from yisai.web.requests import BadBody, bad_request

SECRET_ENV = "YISAI_WEB_SECRET"
PUBLIC_URL_ENV = "YISAI_PUBLIC_URL"  # the site's address as players see it (WeChat/QQ callbacks)
WS_PER_ADDRESS_ENV = "YISAI_WS_PER_ADDRESS"
WS_PER_PLAYER_ENV = "YISAI_WS_PER_PLAYER"
PROOF_BITS_ENV = "YISAI_CODE_PROOF_BITS"
REDIS_PREFIX_ENV = "YISAI_REDIS_PREFIX"  # several sites on one Redis: each its own prefix
DEV_OUTBOX_ENV = "YISAI_DEV_OUTBOX"  # "1": the developer outbox page shows sign-in codes
UNREADABLE = Text("请求体无法读取 (应为UTF-8编码的JSON)", "the body cannot be read (it must be JSON in UTF-8)")
HTTP_WORDS = {404: Text("没有这个页面或对象", "not found"), 405: Text("此地址不接受这种请求方法", "method not allowed"),
              413: Text("请求体过大", "body too large")}


def create_app(settings: Settings, *, secret: str | None = None, secure_cookies: bool = False,
               refresh_seconds: float = 2.0, qualifier_event: str | None = None,
               dev_outbox: bool = False, redis_url: str | None = None,
               spectator_delay: float | None = None, sms: SmsConfig | None = None,
               notice_seconds: float = notices.WORKER_SECONDS, oauth: Mapping[str, Provider] | None = None,
               public_url: str = "", freeze_start: bool = False, body_limits: BodyLimits | None = None,
               sockets: tuple[int | None, int | None] = (None, None), proof_bits: int | None = None,
               redis_prefix: str = REDIS_PREFIX) -> FastAPI:
    """The app over the database of ``settings`` (its clock is the server's clock); a public
    table is re-rendered at most every ``refresh_seconds`` while results come in. With
    ``qualifier_event`` the live games and the players' pages (/play) are served; ``dev_outbox``
    shows the sign-in codes the outbox sender kept (/play/dev/outbox), for development only.
    ``sms`` (read by the entry point, ``yisai.reach.config``) names the SMS provider and the
    limits; without it notices go to the developer outbox. The notice worker looks for due
    notices every ``notice_seconds`` (and right after a request that queued a code). ``oauth``:
    the WeChat/QQ sign-in providers configured, whose callbacks are registered at ``public_url``
    (the site's public address; without one WeChat/QQ sign-in is off). ``freeze_start``
    (a server process, ``app_from_environment``): what start-up made is frozen out of the
    cycle collector's full collections (``gc.freeze``). ``body_limits``: the request body limits
    (``web/bodies.py``; the defaults when None). ``sockets``: the live sockets one process keeps
    open at once per client address and per player (``LiveOptions``' defaults where None).
    ``proof_bits``: the proof of work asked before a sign-in code is sent (``qualifier.proof``).
    ``redis_prefix``: what this site's Redis keys begin with (several sites or tests on one Redis)."""
    sms = sms or SmsConfig()
    ctx = open_context(replace(settings, notice_limits=sms.limits))
    play_state = play.PlayState(qualifier_event, dev_outbox, providers=dict(oauth or {}), public_url=public_url)
    if proof_bits is not None:
        play_state.proof_bits = proof_bits
    sender = build_sender(sms, play_state.outbox)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        if freeze_start:
            # What start-up made (modules, templates, the app: about 185,000 objects) lives as
            # long as the process: out of the collector's sight, a full collection costs the
            # caches' objects only, not 160-250 ms of scanning them all while every connection
            # waits. Only a server process: a test suite building apps would keep their cycles.
            gc.collect()
            gc.freeze()
        duties = None
        if qualifier_event:  # reminders before the confirmation deadline, lapses after it
            duties = asyncio.create_task(qualification.run_duties(ctx, qualifier_event))
        worker = asyncio.create_task(notices.run_notice_worker(ctx, sender, notice_seconds))  # the SMS queue
        # open payment orders: asked about when no callback came, closed after their timeout
        settle = asyncio.create_task(fees.run_settlement(ctx)) if settings.payments else None
        yield
        await stop_task(settle)
        await stop_task(duties)
        await stop_task(worker)
        app.state.web.background.shutdown()
        ctx.close()
        worker_gone(os.getpid())  # multiprocess metrics: this worker's live gauges end with it

    app = FastAPI(
        title="yisai 弈赛 API",
        description="Events, entries (public fields), rounds, results and standings. "
        "Write results with a bearer token from POST /api/token.",
        docs_url="/docs", redoc_url=None, openapi_url="/api/openapi.json", lifespan=lifespan,
    )
    counters = shared_counters(ctx, redis_url, redis_prefix)  # what every worker counts alike: logins, used proofs
    app.state.web = WebState(ctx, secret or secrets.token_urlsafe(32), secure_cookies,
                             limiter=SharedLoginLimiter(counters), cache=PageCache(min_age=refresh_seconds),
                             stamps=StampCache(ttl=refresh_seconds / 2), counters=counters)
    app.state.redis_url = redis_url  # /healthz pings it
    app.include_router(observe.router)
    app.mount("/static", StaticFiles(directory=str(HERE / "static")), name="static")
    app.include_router(public.router)
    app.include_router(accounts.router)
    app.include_router(console.router)
    app.include_router(drafts.router)
    app.include_router(api.router)
    app.include_router(appeals.router)
    app.include_router(fees.router)
    app.include_router(wechat_pay.router)  # the payer's openid for WeChat Pay inside WeChat (JSAPI)
    app.include_router(prize_decisions.router)
    app.include_router(members.router)
    app.include_router(registration.router)
    app.include_router(papers.router)
    app.state.play = play_state
    app.state.notice_sender = sender
    app.include_router(notices.router)
    app.state.web.templates.env.globals["play_on"] = bool(qualifier_event)  # the header's 对弈 link
    app.include_router(oauth_routes.router)  # before play's routes: /play/oauth/... is its own
    app.include_router(play.router)
    app.include_router(qualification.router)
    app.include_router(team_matches.public_router)
    app.include_router(team_matches.console_router)
    if qualifier_event:  # the online qualifier's live games (WebSocket /live/ws) for that event
        from yisai.live.server import LiveOptions, create_live_router

        live = LiveOptions(event=qualifier_event, secret=app.state.web.secret, redis_url=redis_url,
                           redis_prefix=f"{redis_prefix}:live")
        if spectator_delay is not None:
            live.spectator_delay = spectator_delay
        per_address, per_player = sockets
        live.sockets_per_address = per_address or live.sockets_per_address
        live.sockets_per_player = per_player or live.sockets_per_player
        app.state.play.spectator_delay = live.spectator_delay  # the watch pages say it
        app.include_router(create_live_router(ctx, live))
    app.add_middleware(BodyLimitMiddleware, limits=body_limits or BodyLimits(), web=app.state.web)
    app.add_middleware(SecurityHeadersMiddleware)
    app.add_middleware(LanguageMiddleware)
    app.add_middleware(observe.ObserveMiddleware)  # outermost: every answer counted and logged

    _document_errors(app)

    @app.exception_handler(ServiceError)
    async def service_error(request: Request, exc: ServiceError) -> Response:
        lang = lang_of(request)
        if request.url.path.startswith("/api/"):  # API clients get the hint as a kind, not words
            return JSONResponse(exc.as_dict(lang), status_code=exc.status)
        if answers_json(request):  # a console script's endpoint, or a JSON request
            return JSONResponse(web_dict(exc, lang), status_code=exc.status)
        return page(request, "error.html", http_status=exc.status, title=tr("无法完成", "Not done"),
                    message=web_message(exc, lang), details=exc.render_details(lang))

    @app.exception_handler(console.LoginRequired)
    async def login_required(request: Request, exc: console.LoginRequired) -> Response:
        if request.method == "GET":
            return RedirectResponse("/console/login?next=" + quote(request.url.path), status_code=303)
        return JSONResponse({"code": "login_required", "message": tr("请先登录", "log in first")},
                            status_code=401)

    @app.exception_handler(play.SignInRequired)
    async def sign_in_required(request: Request, exc: play.SignInRequired) -> Response:
        if request.method == "GET":
            return RedirectResponse("/play/signin", status_code=303)
        return JSONResponse({"code": "login_required", "message": tr("请先登录", "sign in first")},
                            status_code=401)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
        # FastAPI's own answers (an unreadable body, no such route, a wrong method) in the shape
        # and language of every other error; the headers (Allow on a 405) are kept
        if exc.status_code == 400:
            return await service_error(request, BadBody([UNREADABLE]))
        if not answers_json(request):
            return await http_exception_handler(request, exc)
        words = HTTP_WORDS.get(exc.status_code, Text("请求未能完成", "the request was not done"))
        body: dict[str, Any] = {"code": words.en.replace(" ", "_") if exc.status_code in HTTP_WORDS else "http_error",
                "params": {}, "hint": None, "message": words.render(lang_of(request)), "details": []}
        return JSONResponse(body, status_code=exc.status_code, headers=getattr(exc, "headers", None))

    @app.exception_handler(RequestValidationError)
    async def invalid_request(request: Request, exc: RequestValidationError) -> Response:
        # a path id outside the store (or not a number) → 404; a bad body or query → 400, each
        # field named in the request's language (web/requests.py)
        return await service_error(request, bad_request(exc.errors()))

    return app


def _document_errors(app: FastAPI) -> None:
    """The OpenAPI document says what the API answers: FastAPI's 422 "Validation Error" is never
    sent (a bad body or query is a 400 ``ErrorOut``, a bad path id a 404), so it is left out."""
    made = app.openapi

    def openapi() -> dict[str, Any]:
        spec = made()
        for operations in spec.get("paths", {}).values():
            for operation in operations.values():
                operation.get("responses", {}).pop("422", None)
        for name in ("HTTPValidationError", "ValidationError"):
            spec.get("components", {}).get("schemas", {}).pop(name, None)
        return spec

    app.openapi = openapi  # type: ignore[method-assign]


def app_from_environment() -> FastAPI:
    """What each uvicorn worker builds: database, clock and secret from the environment."""
    from yisai.services.collector import pause_collector_during_standings

    pause_collector_during_standings()  # this process is ours: standings bursts pause the collector
    observe.configure_logging()  # YISAI_LOG_FORMAT: text or json lines
    settings = settings_from_environment(os.environ)
    # the payment providers configured (docs/fees.md); their keys stay in this process's memory
    settings = replace(settings, payments=payment_providers(os.environ))
    sms = load_sms_config(os.environ)  # credentials stay in this process's memory, never stored
    secret = os.environ.get(SECRET_ENV)
    refresh = float(os.environ.get("YISAI_WEB_REFRESH", "2"))
    return create_app(settings, secret=secret, secure_cookies=os.environ.get("YISAI_SECURE_COOKIES") == "1",
                      refresh_seconds=refresh, qualifier_event=os.environ.get("YISAI_QUALIFIER_EVENT"),
                      dev_outbox=os.environ.get(DEV_OUTBOX_ENV) == "1",
                      redis_url=os.environ.get("YISAI_REDIS_URL") or None,
                      spectator_delay=float(delay) if (delay := os.environ.get("YISAI_SPECTATOR_DELAY")) else None,
                      sms=sms, oauth=providers_from_environment(os.environ),
                      public_url=os.environ.get(PUBLIC_URL_ENV, ""), freeze_start=True,
                      body_limits=limits_from_environment(os.environ), sockets=sockets_from_environment(os.environ),
                      proof_bits=proof_bits_from_environment(os.environ),
                      redis_prefix=os.environ.get(REDIS_PREFIX_ENV, "").strip() or REDIS_PREFIX)


def proof_bits_from_environment(env: Mapping[str, str]) -> int | None:
    """``YISAI_CODE_PROOF_BITS``: the proof of work before a sign-in code (None: the default)."""
    raw = env.get(PROOF_BITS_ENV, "").strip()
    if not raw:
        return None
    if not raw.isascii() or not raw.isdigit() or not 1 <= int(raw) <= MAX_BITS:
        raise ValueError(f"{PROOF_BITS_ENV}={raw}: 应为1至{MAX_BITS}之间的整数 (a whole number from 1 to {MAX_BITS})")
    return int(raw)


def sockets_from_environment(env: Mapping[str, str]) -> tuple[int | None, int | None]:
    """``YISAI_WS_PER_ADDRESS`` / ``YISAI_WS_PER_PLAYER``: the live sockets open at once per
    client address and per player, per process (docs/web.md, Security); None: the default."""
    values: list[int | None] = []
    for name in (WS_PER_ADDRESS_ENV, WS_PER_PLAYER_ENV):
        raw = env.get(name, "").strip()
        if raw and (not raw.isascii() or not raw.isdigit() or int(raw) < 1):
            raise ValueError(f"{name}={raw}: 应为正整数 (must be a positive whole number)")
        values.append(int(raw) if raw else None)
    return values[0], values[1]
