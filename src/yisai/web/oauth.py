"""WeChat (微信扫码) and QQ sign-in for players (issue 35): the redirect to the provider, its
callback, and the one-time phone check that links the identity to the player's account.

The ``state`` is a fresh random value kept on the server (its digest, ``oauth_links.issue_state``)
and in the browser's signed session cookie: the callback must bring the cookie's value (the
sign-in started in this browser) and removes the server's copy in one statement, so a forged,
stale (``STATE_SECONDS``) or replayed callback -- even with the cookie from before it -- is
refused, in every worker. The callback address is built only from the site's configured public
address (``--public-url``), never from the request's Host header; without one, WeChat/QQ
sign-in is not offered. Neither provider accepts PKCE. An identity not yet linked waits in
the signed session (``LINK_SECONDS``) while the person proves their number with a code; after
that one link, the provider signs them straight into the same account. A provider that is not
configured has no button and its addresses answer 404.
"""

from __future__ import annotations

import hmac
import secrets
import time
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from yisai.i18n import Text
from yisai.services import live as live_svc
from yisai.services.errors import NotFoundError, ServiceError
from yisai.services.oauth_links import (
    STATE_SECONDS,
    issue_state,
    link_with_code,
    linked_actor,
    take_state,
)
from yisai.services.oauth_providers import Identity, Provider, authorization_url, fetch_identity
from yisai.web.core import (
    PUBLIC,
    check_csrf,
    lang_of,
    page,
    session_of,
    signed_in,
    state,
    write_session,
)
from yisai.web.notices import kick
from yisai.web.play import check_proof, deliver_code, play_state, signin_page
from yisai.web.requests import read_form

router = APIRouter(prefix="/play/oauth", include_in_schema=False)
LINK_SECONDS = 1800  # from the callback to the phone code that links the identity
STATE_KEY, PENDING_KEY = "os", "ol"
PARAM_MAX = 512  # a code or state longer than this is not one the provider issued


def _provider(request: Request, key: str) -> Provider:
    ps = play_state(request)
    found = ps.providers.get(key) if ps.public_url else None
    if found is None:
        raise NotFoundError(Text("本站未开通此登录方式", "this sign-in method is not available here"),
                            code="oauth_off")  # fmt: skip
    return found


def callback_url(request: Request, key: str) -> str:
    """The address registered with the provider: the site's public address (``YISAI_PUBLIC_URL``)
    only -- a Host header chosen by the client never makes it (``_provider`` refuses without one)."""
    base = play_state(request).public_url
    if not base:
        raise NotFoundError(Text("本站未开通此登录方式", "this sign-in method is not available here"), code="oauth_off")
    return base.rstrip("/") + f"/play/oauth/{key}/callback"


def _with_session(request: Request, response: Response, data: dict[str, Any]) -> Response:
    data.setdefault("c", secrets.token_urlsafe(24))
    write_session(request, response, data)
    return response


@router.get("/link", response_class=HTMLResponse)
def link_form(request: Request) -> Response:
    pending = _pending(request)
    if pending is None:
        return RedirectResponse("/play/signin", status_code=303)
    return _link_page(request, pending)


@router.get("/{key}")
def start(request: Request, key: str) -> Response:
    """To the provider's page with a fresh ``state`` bound to this browser."""
    provider = _provider(request, key)
    data = session_of(request)
    try:
        with state(request).ctx.work(actor=PUBLIC) as work:
            token = issue_state(work, key)
    except ServiceError as exc:
        return signin_page(request, status=exc.status, error=exc.render(lang_of(request)))
    data[STATE_KEY] = {"p": key, "s": token, "t": int(time.time())}
    target = authorization_url(provider, callback_url(request, key), token)
    return _with_session(request, RedirectResponse(target, status_code=303), data)


@router.get("/{key}/callback")
def callback(request: Request, key: str) -> Response:
    """The provider sends the browser back here: check and drop the state, exchange the code,
    then sign in (a linked identity) or ask for the phone code once (a new one)."""
    provider = _provider(request, key)
    lang = lang_of(request)
    given = request.query_params.get("state", "")[:PARAM_MAX]
    code = request.query_params.get("code", "")
    data = session_of(request)
    expected = data.pop(STATE_KEY, None)
    request.state.session, request.state.session_dirty = data, True  # the state is used up, whatever follows
    if _state_ok(expected, key, given):
        with state(request).ctx.work(actor=PUBLIC) as work:
            fresh = take_state(work, key, given)  # used up here, in every worker, before the exchange
    else:
        fresh = False
    if not fresh:
        return signin_page(request, status=400, error=Text(
            f"{provider.name.zh}登录请求已失效或不是从本页发起的, 请重新点击“{provider.name.zh}登录”",
            f"the {provider.name.en} sign-in request expired or did not start on this page; "
            f"click “{provider.name.en}” again").render(lang))  # fmt: skip
    if not code:  # WeChat: the person refused (only ``state`` comes back); QQ: ``error``/``usercancel``
        said = request.query_params.get("error_description") or request.query_params.get("error") or ""
        return signin_page(request, status=400, error=Text(
            f"未获得{provider.name.zh}授权 (已取消或被拒绝){': ' + said if said else ''}",
            f"{provider.name.en} did not authorise the sign-in (cancelled or refused){': ' + said if said else ''}",
        ).render(lang)[:300])  # fmt: skip
    try:
        identity = fetch_identity(provider, code, callback_url(request, key))
        with state(request).ctx.work(actor=PUBLIC) as work:
            actor = linked_actor(work, identity)
    except ServiceError as exc:
        return signin_page(request, status=exc.status, error=exc.render(lang))
    if actor is not None:
        return signed_in(request, "/play", int(actor.id))
    data[PENDING_KEY] = {"p": key, "o": identity.openid, "u": identity.unionid, "t": int(time.time())}
    return _with_session(request, RedirectResponse("/play/oauth/link", status_code=303), data)


def _state_ok(expected: object, key: str, given: str) -> bool:
    if not isinstance(expected, dict) or expected.get("p") != key or not given:
        return False
    token, issued = expected.get("s"), expected.get("t")
    if not isinstance(token, str) or not isinstance(issued, int) or time.time() - issued > STATE_SECONDS:
        return False
    return hmac.compare_digest(token.encode(), given.encode())


def _pending(request: Request) -> Identity | None:
    """The identity waiting for its phone code (signed session, not older than ``LINK_SECONDS``)."""
    found = session_of(request).get(PENDING_KEY)
    if not isinstance(found, dict) or found.get("p") not in play_state(request).providers:
        return None
    issued, openid, unionid = found.get("t"), found.get("o"), found.get("u")
    if not isinstance(issued, int) or time.time() - issued > LINK_SECONDS or not isinstance(openid, str):
        return None
    return Identity(str(found["p"]), openid, unionid if isinstance(unionid, str) else None)


def _link_page(request: Request, pending: Identity, *, status: int = 200, phone: str = "", error: str = "",
               message: str = "") -> Response:  # fmt: skip
    ps = play_state(request)
    return page(request, "play/oauth_link.html", http_status=status, provider=ps.providers[pending.provider],
                phone=phone, error=error, message=message, outbox=ps.dev_outbox, event_id=ps.event_id)  # fmt: skip


async def _linking(request: Request) -> tuple[Identity | None, dict[str, str]]:
    await check_csrf(request)
    form = await read_form(request)
    return _pending(request), {k: v.strip() for k, v in form.items() if isinstance(v, str)}


@router.post("/link/code")
async def link_code(request: Request) -> Response:
    """Send the code that proves the number (the same limits as the code sign-in)."""
    pending, form = await _linking(request)
    if pending is None:
        return RedirectResponse("/play/signin", status_code=303)
    phone = form.get("phone", "")
    try:
        check_proof(request, form)
        sent = deliver_code(request, phone)
    except ServiceError as exc:
        return _link_page(request, pending, status=exc.status, phone=phone, error=exc.render(lang_of(request)))
    answer = _link_page(request, pending, phone=phone, message=sent.render(lang_of(request)))
    answer.background = kick(request)  # the notice worker sends the code right after the answer
    return answer


@router.post("/link")
async def link(request: Request) -> Response:
    """A correct code links the waiting identity to the number's account and signs in."""
    pending, form = await _linking(request)
    if pending is None:
        return RedirectResponse("/play/signin", status_code=303)
    phone, code = form.get("phone", ""), form.get("code", "")
    try:
        with state(request).ctx.work(actor=PUBLIC) as work:
            actor = link_with_code(work, pending, phone, code)
        if actor is None:  # the wrong guess is committed (five kill the code), then refused
            raise live_svc.bad_code()
    except ServiceError as exc:
        return _link_page(request, pending, status=exc.status, phone=phone, error=exc.render(lang_of(request)))
    return signed_in(request, "/play", int(actor.id))  # a new session: the waiting identity is gone


__all__ = ["callback_url", "router"]
