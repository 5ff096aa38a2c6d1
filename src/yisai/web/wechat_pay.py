"""Paying inside WeChat's own browser (WeChat Pay JSAPI, issue 46): which payment modes a page
offers the browser it is shown in, and the payer's openid from the 公众号's silent web
authorisation (``snsapi_base``).

``pay_modes`` is the one place a page asks what to offer (the team fee, the appeal fee, and any
later page that pays): inside WeChat (``MicroMessenger`` in the User-Agent) JSAPI and not H5, on
another phone H5 first, on a PC the QR code first; a POST is checked against the same choice.

JSAPI needs the payer's openid under the merchant's appid. The first JSAPI payment of a session
sends the browser to WeChat's authorize page with a fresh ``state`` (stored as a digest on the
server, ``oauth_links.issue_state``, and in the signed session with what was being paid); WeChat
sends it back to ``/pay/wechat/openid`` with a code, the state is used up (a forged, stale or
replayed one is refused), the code is exchanged for the openid, and the payment the person asked
for (a CSRF-checked POST) is made then. The openid stays in the signed session only, for
paying: never shown on a page, never stored, never logged.
"""

from __future__ import annotations

import hmac
import time
from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse, Response

from yisai.i18n import Text
from yisai.services.errors import InputError, NotFoundError
from yisai.services.oauth_links import STATE_SECONDS, issue_state, take_state
from yisai.services.oauth_providers import WECHAT_MP, authorization_url, fetch_openid
from yisai.services.oauth_providers import Provider as OAuthApp
from yisai.services.payments.base import JSAPI, Provider, modes_for
from yisai.web.core import PUBLIC, session_of, state, write_session

router = APIRouter(include_in_schema=False)
OPENID_KEY, INTENT_KEY = "wxo", "wxi"  # in the signed session: the payer's openid; a payment waiting for it
CALLBACK_PATH = "/pay/wechat/openid"
PARAM_MAX = 512

Resume = Callable[[Request, dict[str, Any], str], Response]
RESUMERS: dict[str, Resume] = {}  # what a waiting payment was ("team", "appeal", …) → how to make it


def resumable(kind: str, resume: Resume) -> None:
    """A page that pays registers how its payment is made once the openid is known."""
    RESUMERS[kind] = resume


def _mp(request: Request) -> OAuthApp | None:
    return state(request).ctx.settings.payments.wechat_mp


def _public_url(request: Request) -> str:
    play = getattr(request.app.state, "play", None)
    return str(getattr(play, "public_url", "") or "")


def jsapi_ready(request: Request) -> bool:
    """JSAPI needs the 公众号's AppSecret and the site's public address (WeChat sends the payer back
    there; a Host header never makes it)."""
    return _mp(request) is not None and bool(_public_url(request))


def pay_modes(request: Request, provider: Provider) -> tuple[str, ...]:
    """The modes ``provider`` is offered in on this page, the likeliest first."""
    modes = modes_for(provider.modes, request.headers.get("user-agent", ""))
    return modes if jsapi_ready(request) else tuple(m for m in modes if m != JSAPI)


def check_mode(request: Request, provider_name: str, mode: str) -> None:
    """A POST asks only for what the page offered this browser (H5 inside WeChat is refused by
    WeChat Pay; JSAPI outside WeChat has no bridge to call)."""
    provider = state(request).ctx.settings.payments.get(provider_name)
    if provider is not None and mode not in pay_modes(request, provider):
        raise InputError(Text("此浏览器中不提供该支付方式, 请在费用页重新选择", "this payment mode is not offered in this "
                              "browser; choose again on the fees page"), code="bad_pay_mode", params={"mode": mode[:16]})


def payer_openid(request: Request) -> str:
    """The payer's openid under the merchant's appid, from the signed session ("" if not known)."""
    mp, found = _mp(request), session_of(request).get(OPENID_KEY)
    if mp is None or not isinstance(found, dict) or found.get("a") != mp.appid:
        return ""
    openid = found.get("o")
    return openid if isinstance(openid, str) else ""


def with_payer(request: Request, mode: str, intent: dict[str, Any], pay: Callable[[str], Response]) -> Response:
    """Pay now (``pay(openid)``; "" for every mode but JSAPI), or, for JSAPI without the payer's
    openid yet, ask WeChat for it first and pay when it comes back (``intent``: what
    ``RESUMERS[intent["k"]]`` needs)."""
    if mode != JSAPI:
        return pay("")
    openid = payer_openid(request)
    if openid:
        return pay(openid)
    mp = _mp(request)
    if mp is None or not _public_url(request) or intent.get("k") not in RESUMERS:
        raise InputError(Text("本站未开通微信内支付", "paying inside WeChat is not configured here"), code="bad_pay_mode")
    with state(request).ctx.work(actor=PUBLIC) as work:
        token = issue_state(work, WECHAT_MP)
    data = session_of(request)
    data[INTENT_KEY] = {**intent, "s": token, "t": int(time.time())}
    response = RedirectResponse(authorization_url(mp, _callback_url(request), token), status_code=303)
    write_session(request, response, data)
    return response


def _callback_url(request: Request) -> str:
    return _public_url(request).rstrip("/") + CALLBACK_PATH


def _intent_ok(intent: object, given: str) -> bool:
    if not isinstance(intent, dict) or not given:
        return False
    token, issued = intent.get("s"), intent.get("t")
    if not isinstance(token, str) or not isinstance(issued, int) or time.time() - issued > STATE_SECONDS:
        return False
    return hmac.compare_digest(token.encode(), given.encode())


@router.get(CALLBACK_PATH)
def openid_callback(request: Request) -> Response:
    """WeChat sends the payer back with ``code`` and ``state``: the state is checked against this
    browser's session and used up on the server, the code exchanged for the openid, then the
    payment that waited for it is made."""
    mp = _mp(request)
    if mp is None or not _public_url(request):
        raise NotFoundError(Text("本站未开通微信内支付", "paying inside WeChat is not configured here"), code="jsapi_off")
    given = request.query_params.get("state", "")[:PARAM_MAX]
    code = request.query_params.get("code", "")[:PARAM_MAX]
    data = session_of(request)
    intent = data.pop(INTENT_KEY, None)
    request.state.session, request.state.session_dirty = data, True  # used up, whatever follows
    fresh = False
    if _intent_ok(intent, given):
        with state(request).ctx.work(actor=PUBLIC) as work:
            fresh = take_state(work, WECHAT_MP, given)
    if not fresh or not isinstance(intent, dict) or intent.get("k") not in RESUMERS:
        raise InputError(Text("微信授权请求已失效或不是从本站的支付页发起的, 请回到费用页重新支付",
                              "the WeChat authorisation expired or did not start on this site's payment page; "
                              "start the payment again from the fees page"), code="wechat_mp_state")
    if not code:
        raise InputError(Text("未获得微信授权, 请回到费用页重新支付", "WeChat did not authorise; start the payment again"),
                         code="wechat_mp_refused")
    openid = fetch_openid(mp, code, _callback_url(request))
    data[OPENID_KEY] = {"a": mp.appid, "o": openid}
    request.state.session = data
    response = RESUMERS[intent["k"]](request, intent, openid)  # an error page carries the session too
    write_session(request, response, data)
    return response


__all__ = ["check_mode", "jsapi_ready", "pay_modes", "payer_openid", "resumable", "router", "with_payer"]
