"""Request body limits, enforced while the body streams in (before any form is parsed or spooled).

Why a middleware: Starlette reads a whole JSON body into memory and spools a multipart file to
the temporary folder before a route sees either, so a route's own size check came after the
damage (a 1 GB file part to the login form was written to disk before the CSRF check refused
it). Here every request is counted as it arrives: a ``Content-Length`` past the limit is refused
at once, unread; a chunked body is cut off the moment it passes the limit. Either way the answer
is 413 with the limit in words, and the connection is closed.

Two limits: a small one for every route (``YISAI_MAX_BODY_KB``) and a larger one for the upload
routes (``YISAI_MAX_UPLOAD_MB``), each upload route capped further at what its own file limit
needs. A body that may pass the small limit is read only for a signed-in account: the session
cookie is checked before the first byte of the body is taken (the CSRF token of a multipart form
travels in the body, so it is checked by the route as before).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, MutableMapping
from dataclasses import dataclass
from html import escape
from typing import Any

from itsdangerous import BadSignature
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request

from yisai.i18n import Text
from yisai.services.accounts import user_actor
from yisai.services.identity import Actor
from yisai.web.core import (
    PUBLIC,
    SESSION_AGE,
    SESSION_COOKIE,
    ASGIApp,
    Receive,
    Scope,
    Send,
    WebState,
)

MAX_BODY_ENV = "YISAI_MAX_BODY_KB"
MAX_UPLOAD_ENV = "YISAI_MAX_UPLOAD_MB"
DEFAULT_MAX_BODY = 1024 * 1024  # every form, JSON body and API call of the site fits in 1 MB
DEFAULT_MAX_UPLOAD = 70 * 1024 * 1024  # the papers' 64 MB hard cap and the form around it
FORM_MARGIN = 256 * 1024  # a multipart form's boundaries, headers and other fields around the file

# The upload routes and what each needs at most: its own file limit and the form around it.
_MB = 1024 * 1024
UPLOAD_ROUTES: tuple[tuple[re.Pattern[str], int], ...] = (
    (re.compile(r"/console/events"), 5 * _MB + FORM_MARGIN),  # a regulation (console.MAX_UPLOAD)
    (re.compile(r"/console/events/[^/]+/roster"), 5 * _MB + FORM_MARGIN),
    (re.compile(r"/console/events/[^/]+/rounds/[^/]+/[^/]+/sheet"), 5 * _MB + FORM_MARGIN),
    (re.compile(r"/console/drafts"), 5 * _MB + FORM_MARGIN),
    # the corrected draft: a regulation of up to 1 MB and the source text, percent-encoded (×3)
    (re.compile(r"/console/drafts/event"), 8 * _MB),
    (re.compile(r"/console/events/[^/]+/papers/upload"), 64 * _MB + FORM_MARGIN),  # papers.HARD_CAP
)


# Unauthenticated machine routes that need little: a payment provider's callback is a few KB of
# JSON (WeChat Pay's encrypted resource), so anything past 64 KB is refused unread.
CALLBACK_LIMIT = 64 * 1024
SMALL_ROUTES: tuple[tuple[re.Pattern[str], int], ...] = (
    (re.compile(r"/pay/[a-z]+/notify"), CALLBACK_LIMIT),
)


@dataclass(frozen=True)
class BodyLimits:
    """The two settings, in bytes."""

    body: int = DEFAULT_MAX_BODY
    upload: int = DEFAULT_MAX_UPLOAD

    def for_path(self, path: str) -> tuple[int, bool]:
        """(the limit for a request to ``path``, whether it is an upload route)."""
        for pattern, cap in SMALL_ROUTES:
            if pattern.fullmatch(path):
                return min(self.body, cap), False
        for pattern, need in UPLOAD_ROUTES:
            if pattern.fullmatch(path):
                return max(self.body, min(self.upload, need)), True
        return self.body, False


def limits_from_environment(env: Mapping[str, str]) -> BodyLimits:
    """The limits a server process runs with; a setting that is not a positive whole number
    stops the start with a message naming it."""
    def number(name: str, default: int, unit: int) -> int:
        raw = env.get(name, "").strip()
        if not raw:
            return default
        if not raw.isascii() or not raw.isdigit() or int(raw) < 1:
            raise ValueError(f"{name}={raw}: 应为正整数 (must be a positive whole number)")
        return int(raw) * unit

    return BodyLimits(body=number(MAX_BODY_ENV, DEFAULT_MAX_BODY, 1024),
                      upload=number(MAX_UPLOAD_ENV, DEFAULT_MAX_UPLOAD, _MB))


def _size(n: int) -> str:
    return f"{n // _MB} MB" if n >= _MB and n % _MB == 0 else f"{n // 1024} KB"


def too_large(limit: int) -> Text:
    return Text(f"请求体过大: 超过本站对此地址的上限 {_size(limit)}, 未读取",
                f"the request body is too large: over this address's limit of {_size(limit)}; it was not read")


LOGIN_FIRST = Text("请先登录 (登录后才可上传超过上限的内容)", "log in first (only a signed-in account may send a large body)")


class BodyLimitMiddleware:
    """Counts each request's body as it streams in; see the module's docstring."""

    def __init__(self, app: ASGIApp, limits: BodyLimits, web: WebState) -> None:
        self.app, self.limits, self.web = app, limits, web

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit, upload = self.limits.for_path(scope.get("path", ""))
        declared = _content_length(scope)
        # whether the whole body has come in (no body at all: yes); an answer given before it
        # has closes the connection, so the server does not go on reading (and dropping) the rest
        done = not (declared or _header(scope, b"transfer-encoding"))
        if declared is not None and declared > limit:
            await _answer(scope, send, 413, "body_too_large", too_large(limit), {"limit": limit})
            return
        if upload and (declared is None or declared > self.limits.body) and not await self._signed_in(scope):
            # a body that may pass the small limit is read only for an account: checked before its first byte
            await _answer(scope, send, 401, "login_required", LOGIN_FIRST, {})
            return
        counted = 0
        exceeded = False
        started = False

        async def counting_receive() -> MutableMapping[str, Any]:
            nonlocal counted, exceeded, done
            if exceeded:
                return {"type": "http.disconnect"}
            message = await receive()
            if message["type"] == "http.request":
                done = done or not message.get("more_body", False)
                counted += len(message.get("body", b""))
                if counted > limit:
                    exceeded = True  # the app sees the client gone; the rest of the body is never read
                    return {"type": "http.disconnect"}
            return message

        async def guarded_send(message: MutableMapping[str, Any]) -> None:
            nonlocal started
            if exceeded:
                return  # whatever the app says to a body it could not read, the answer is the 413
            if message["type"] == "http.response.start":
                started = True
                if not done:
                    message["headers"] = [*message.get("headers", []), (b"connection", b"close")]
            await send(message)

        try:
            await self.app(scope, counting_receive, guarded_send)
        except Exception:
            if not exceeded or started:
                raise
        if exceeded and not started:
            await _answer(scope, send, 413, "body_too_large", too_large(limit), {"limit": limit})

    async def _signed_in(self, scope: Scope) -> bool:
        """Whether the request carries the session of an account that may sign in now (the
        signature, its age, and the account's session generation in the store). What it read is
        kept on the request (``core.session_of``, ``console.current_actor`` reuse it), so the
        route decodes no session and builds no actor again."""
        raw = Request(scope).cookies.get(SESSION_COOKIE)
        if not raw:
            return False
        try:
            data = self.web.signer.loads(raw, max_age=SESSION_AGE)
        except BadSignature:
            return False
        if not isinstance(data, dict) or not isinstance(data.get("u"), int) or not isinstance(data.get("e", 0), int):
            return False
        uid, epoch = int(data["u"]), int(data.get("e", 0))

        def look() -> Actor | None:
            with self.web.ctx.work(actor=PUBLIC) as work:
                return user_actor(work, uid, epoch)

        actor = await run_in_threadpool(look)
        kept = scope.setdefault("state", {})
        kept["session"], kept["actor_for"] = data, (dict(data), actor)
        return actor is not None


def _header(scope: Scope, name: bytes) -> bytes | None:
    for key, value in scope.get("headers", []):
        if key == name:
            return bytes(value)
    return None


def _content_length(scope: Scope) -> int | None:
    value = _header(scope, b"content-length")
    text = value.decode("latin-1").strip() if value is not None else ""
    return int(text) if text.isdigit() else None


def _wants_json(scope: Scope) -> bool:
    if str(scope.get("path", "")).startswith("/api/"):
        return True
    for key, value in scope.get("headers", []):
        if key in (b"content-type", b"accept") and b"application/json" in value:
            return True
    return False


async def _answer(scope: Scope, send: Send, status: int, code: str, words: Text, params: dict[str, Any]) -> None:
    """The refusal in the request's language, as JSON (API and scripts) or a small page; the
    connection is closed, so the unread rest of the body is never taken."""
    lang = str(scope.get("state", {}).get("lang", "zh"))
    message = words.render(lang)
    if _wants_json(scope):
        body = json.dumps({"code": code, "params": params, "hint": None, "message": message, "details": []},
                          ensure_ascii=False).encode("utf-8")
        kind = b"application/json"
    else:
        title = "无法完成" if lang == "zh" else "Not done"
        body = (f'<!doctype html><html lang="{"zh-CN" if lang == "zh" else "en"}"><meta charset="utf-8">'
                f"<title>{title}</title><h1>{title}</h1><p>{escape(message)}</p></html>").encode()
        kind = b"text/html; charset=utf-8"
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", kind), (b"content-length", str(len(body)).encode()),
                            (b"connection", b"close")]})
    await send({"type": "http.response.body", "body": body})
