"""What every page and API call shares: the one services context of this process, signed
session cookies, CSRF tokens, the login rate limit, the language, templates and a page cache.

Nothing here must be shared between worker processes: sessions live in signed cookies and caches
are keyed by the database's change stamp. The login rate limit of a served site is counted in
the store the workers share (``SharedLoginLimiter``: Redis or the database); an app built for one
process (tests) may count in memory (``LoginLimiter``).
"""

from __future__ import annotations

import gzip
import hashlib
import hmac
import json
import secrets
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import parse_qs

from fastapi import Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.templating import Jinja2Templates
from itsdangerous import BadSignature, URLSafeTimedSerializer

from yisai.i18n import normalise, tr, use_language
from yisai.services.accounts import end_own_sessions, session_epoch, user_actor
from yisai.services.context import Context
from yisai.services.counters import Counters, digest
from yisai.services.errors import Refused, ServiceError
from yisai.services.identity import ACTION_LABELS, Action, Actor, Role
from yisai.web.refresh import Background
from yisai.web.requests import parse_json, read_form

HERE = Path(__file__).resolve().parent
SESSION_COOKIE = "yisai_session"
LANG_COOKIE = "yisai_lang"
SESSION_AGE = 12 * 3600
DEVICE_COOKIE = "yisai_device"
DEVICE_AGE = 180 * 24 * 3600  # a browser that signed in keeps its own allowance this long
PUBLIC = Actor(id="public", name="public", role=Role.PLAYER)

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]
T = TypeVar("T")


class RateLimited(Refused):
    status = 429
    default_code = "rate_limited"


MAX_KEY_CHARS = 64  # a login or source longer than this is counted under its digest


def _bounded(text: str) -> str:
    """A key part of bounded length: short ones as they are, a long one (no real login is that
    long) as its digest, so 1 MB login names cost 64 bytes each, not 1 MB."""
    if len(text) <= MAX_KEY_CHARS:
        return text
    return "#" + hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=24).hexdigest()


class LoginLimiter:
    """At most ``limit`` failed logins per (client, login) in ``window`` seconds, per process.

    Bounded three ways, so a flood of failures costs a fixed amount of memory that is given back:
    keys are at most ``MAX_KEY_CHARS`` (``_bounded``); a key whose last failure is older than the
    window is dropped (the keys are kept in the order of their last failure, so the expired ones
    are at the front and each call drops them); at most ``max_keys`` keys are kept, the longest
    idle dropped first (evicting a guesser's own key takes ``max_keys`` other failures within
    the window, each a password hash on the server).
    """

    def __init__(self, limit: int = 5, window: float = 300.0, max_keys: int = 10000,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.limit, self.window, self.max_keys = limit, window, max_keys
        self._clock = clock
        self._failures: OrderedDict[tuple[str, str], deque[float]] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        with self._lock:
            self._expire(self._clock())
            return len(self._failures)

    @staticmethod
    def _key(client: str, login: str) -> tuple[str, str]:
        return _bounded(client), _bounded(login.strip().lower())

    def _expire(self, now: float) -> None:
        while self._failures:
            key, q = next(iter(self._failures.items()))
            if q and now - q[-1] <= self.window:
                break
            del self._failures[key]

    def _recent(self, key: tuple[str, str], now: float) -> deque[float]:
        self._expire(now)
        q = self._failures.get(key)
        if q is None:
            return deque(maxlen=self.limit)
        while q and now - q[0] > self.window:
            q.popleft()
        return q

    def check(self, client: str, login: str) -> None:
        now = self._clock()
        with self._lock:
            q = self._recent(self._key(client, login), now)
            if len(q) >= self.limit:
                wait = int(self.window - (now - q[0])) + 1
                raise RateLimited(
                    tr(f"登录失败次数过多, 请{wait}秒后再试", f"too many failed logins; try again in {wait} s"),
                    code="rate_limited", params={"retry_after": wait},
                )

    def failed(self, client: str, login: str) -> None:
        now = self._clock()
        key = self._key(client, login)
        with self._lock:
            q = self._recent(key, now)
            q.append(now)  # at most ``limit`` kept: the count never needs more
            self._failures[key] = q
            self._failures.move_to_end(key)
            while len(self._failures) > self.max_keys:
                self._failures.popitem(last=False)

    def unlock(self, login: str) -> int:
        """The operator's unlock: forget every failure counted for ``login`` (any source) in this
        process; the number of sources that were counting."""
        key = _bounded(login.strip().lower())
        with self._lock:
            gone = [k for k in self._failures if k[1] == key]
            for k in gone:
                del self._failures[k]
        return len(gone)

    def succeeded(self, client: str, login: str) -> None:
        with self._lock:
            self._failures.pop(self._key(client, login), None)


class SharedLoginLimiter:
    """The same allowance counted in the store every worker shares (``services.counters``:
    Redis, else the database): ``limit`` failed logins per (source, login) in a window of
    ``window`` seconds from the first failure, whichever worker answers each try. The key is
    the digests of both parts (a 1 MB login name costs 71 bytes); a window's key is gone when
    the window ends (Redis expiry; the database drops ended rows on each hit)."""

    def __init__(self, counters: Counters, limit: int = 5, window: float = 300.0) -> None:
        self.counters, self.limit, self.window = counters, limit, window

    @staticmethod
    def _key(client: str, login: str) -> str:
        return f"login:{digest(login.strip().lower())}:{digest(client)}"

    def check(self, client: str, login: str) -> None:
        count, left = self.counters.peek(self._key(client, login))
        if count >= self.limit:
            wait = int(left) + 1
            raise RateLimited(
                tr(f"登录失败次数过多, 请{wait}秒后再试", f"too many failed logins; try again in {wait} s"),
                code="rate_limited", params={"retry_after": wait},
            )

    def failed(self, client: str, login: str) -> None:
        self.counters.hit(self._key(client, login), self.window)

    def succeeded(self, client: str, login: str) -> None:
        self.counters.forget(self._key(client, login))

    def unlock(self, login: str) -> None:
        """The operator's unlock: every source's count for ``login``, in every worker."""
        self.counters.clear(f"login:{digest(login.strip().lower())}:")


Limiter = LoginLimiter | SharedLoginLimiter


GZIP_FROM = 1024  # bytes: below this a table is sent as it is


def takes_gzip(accept_encoding: str) -> bool:
    """Whether an Accept-Encoding header accepts gzip (``gzip;q=0`` refuses it)."""
    for part in accept_encoding.lower().split(","):
        name, _, params = part.strip().partition(";")
        if name.strip() in ("gzip", "x-gzip"):
            q = params.strip().removeprefix("q=").strip() if params.strip().startswith("q=") else "1"
            try:
                return float(q) > 0
            except ValueError:
                return False
    return False


class PageCache:
    """The latest rendering of each table (per page and language) with the change stamp it was
    made at; bounded, per process.

    Stale while revalidating: when the event changed, one request renders the new table while
    the others keep getting the previous one (with its own ETag) instead of queueing behind the
    render, so a slow table never stalls 200 polling clients. A request with no earlier
    rendering to fall back on waits for the one being made.
    """

    def __init__(self, size: int = 512, min_age: float = 1.0, max_age: float = 3600.0) -> None:
        self.size = size
        self.min_age = min_age  # a table is re-rendered at most this often (seconds)
        self.max_age = max_age  # a rendering older than this is dropped (the next visit renders it again)
        self._made: dict[tuple[Any, ...], float] = {}
        # key -> (stamp, body, its gzip or None when too small to be worth it)
        self._items: OrderedDict[tuple[Any, ...], tuple[int, bytes, bytes | None]] = OrderedDict()
        self._lock = threading.Lock()
        self._making: dict[tuple[Any, ...], threading.Event] = {}

    def ready(self, key: tuple[Any, ...], stamp: int) -> tuple[bytes, int] | None:
        """The body to serve now without rendering (fresh, or stale within ``min_age``), if any."""
        with self._lock:
            found = self._items.get(key)
            if found is not None and (found[0] >= stamp or time.monotonic() - self._made.get(key, 0.0) < self.min_age):
                return found[1], found[0]
        return None

    def previous(self, key: tuple[Any, ...]) -> tuple[bytes, int] | None:
        """The latest rendering of ``key`` whatever its stamp (served while a new one is made)."""
        with self._lock:
            found = self._items.get(key)
            return (found[1], found[0]) if found is not None else None

    def put(self, key: tuple[Any, ...], stamp: int, body: bytes) -> None:
        """Keep a rendering made at ``stamp`` unless a newer one is already kept, compressed once
        here (in the rendering thread, not in a request) for the clients that take gzip."""
        packed = gzip.compress(body, 6, mtime=0) if len(body) >= GZIP_FROM else None
        with self._lock:
            current = self._items.get(key)
            if current is None or current[0] <= stamp:
                self._items[key] = (stamp, body, packed)
                self._items.move_to_end(key)
                self._made[key] = time.monotonic()
            while len(self._items) > self.size:
                gone, _ = self._items.popitem(last=False)
                self._made.pop(gone, None)
            now = time.monotonic()
            for old in [k for k, made in self._made.items() if now - made > self.max_age]:
                self._items.pop(old, None)
                self._made.pop(old, None)

    def gzipped(self, key: tuple[Any, ...], stamp: int) -> bytes | None:
        """The gzip of the rendering of ``key`` made at ``stamp`` (None when it is too small to
        be worth it or has been replaced)."""
        with self._lock:
            found = self._items.get(key)
        return found[2] if found is not None and found[0] == stamp else None

    def forget(self, key: tuple[Any, ...]) -> None:
        """Drop a rendering that can no longer be made (the next request renders and shows why)."""
        with self._lock:
            self._items.pop(key, None)
            self._made.pop(key, None)

    def latest(self, key: tuple[Any, ...], stamp: int, make: Callable[[], bytes]) -> tuple[bytes, int]:
        """(body, the stamp it was rendered at) for ``key`` now at ``stamp``."""
        while True:
            with self._lock:
                found = self._items.get(key)
                if found is not None:
                    self._items.move_to_end(key)
                    if found[0] >= stamp or time.monotonic() - self._made.get(key, 0.0) < self.min_age:
                        return found[1], found[0]
                busy = self._making.get(key)
                if busy is None:
                    done = self._making[key] = threading.Event()
                    break
            if found is not None:
                return found[1], found[0]  # someone renders the new one: serve the previous
            busy.wait(timeout=30)
        try:
            body = make()
            self.put(key, stamp, body)
            return body, stamp
        finally:
            with self._lock:
                self._making.pop(key, None)
            done.set()


class StampCache:
    """Each event's change stamp, re-read from the database at most every ``ttl`` seconds: a poll
    answered from memory costs no database round trip (results show up at most ``ttl`` later)."""

    def __init__(self, ttl: float = 0.5, size: int = 4096, keep: float = 600.0) -> None:
        self.ttl = ttl
        self.size, self.keep = size, keep  # bounded: at most ``size`` events, none read longer ago than ``keep``
        self._stamps: OrderedDict[int, tuple[float, int]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, event_id: int) -> int | None:
        with self._lock:
            found = self._stamps.get(event_id)
        if found is None or time.monotonic() - found[0] > self.ttl:
            return None
        return found[1]

    def last(self, event_id: int) -> int | None:
        """The stamp last read, however long ago (served while it is read again)."""
        with self._lock:
            found = self._stamps.get(event_id)
        return None if found is None else found[1]

    def put(self, event_id: int, stamp: int) -> None:
        now = time.monotonic()
        with self._lock:
            self._stamps[event_id] = (now, stamp)
            self._stamps.move_to_end(event_id)  # kept in the order read: the oldest at the front
            while self._stamps and (len(self._stamps) > self.size
                                    or now - next(iter(self._stamps.values()))[0] > self.keep):
                self._stamps.popitem(last=False)

    def __len__(self) -> int:
        with self._lock:
            return len(self._stamps)


@dataclass
class WebState:
    ctx: Context
    secret: str
    secure_cookies: bool = False
    limiter: Limiter = field(default_factory=LoginLimiter)
    cache: PageCache = field(default_factory=PageCache)
    stamps: StampCache = field(default_factory=StampCache)
    background: Background = field(default_factory=Background)
    counters: Counters | None = None  # the workers' shared store (``services.counters``)

    def __post_init__(self) -> None:
        self.signer = URLSafeTimedSerializer(self.secret, salt="yisai-session")
        self.token_signer = URLSafeTimedSerializer(self.secret, salt="yisai-api-token")
        self.templates = Jinja2Templates(directory=str(HERE / "templates"))
        env = self.templates.env
        env.globals["t"] = tr
        env.globals["Action"] = Action
        env.globals["role_label"] = lambda role: Role(role).label.render()
        env.globals["action_label"] = lambda a: ACTION_LABELS[a].render()
        env.filters["plainjson"] = lambda v: json.dumps(v, ensure_ascii=False, default=str)


def state(request: Request) -> WebState:
    found: WebState = request.app.state.web
    return found


def lang_of(request: Request) -> str:
    return str(getattr(request.state, "lang", "zh"))


# ------------------------------------------------------------------ language


class LanguageMiddleware:
    """``?lang=en`` (remembered in a cookie) or the cookie; Chinese by default."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
        chosen = (query.get("lang") or [None])[0]
        cookie = _cookie(scope, LANG_COOKIE)
        lang = normalise(chosen or cookie or "zh")
        scope.setdefault("state", {})["lang"] = lang

        async def send_with_cookie(message: MutableMapping[str, Any]) -> None:
            if chosen and message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                headers.append((b"set-cookie",
                                f"{LANG_COOKIE}={lang}; Path=/; Max-Age=31536000; SameSite=Lax".encode()))
                message["headers"] = headers
            await send(message)

        with use_language(lang):
            await self.app(scope, receive, send_with_cookie)


class SecurityHeadersMiddleware:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_headers(message: MutableMapping[str, Any]) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                headers += [(b"x-content-type-options", b"nosniff"), (b"x-frame-options", b"DENY"),
                            (b"referrer-policy", b"same-origin")]
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, send_headers)


def _cookie(scope: Scope, name: str) -> str | None:
    for key, value in scope.get("headers", []):
        if key == b"cookie":
            jar: SimpleCookie = SimpleCookie()
            try:
                jar.load(value.decode("latin-1"))
            except Exception:
                return None
            if name in jar:
                return jar[name].value
    return None


# ------------------------------------------------------------------ sessions and CSRF


def session_of(request: Request) -> dict[str, Any]:
    """The signed session cookie's content ({"u": user id, "c": CSRF token}); {} if absent."""
    cached = getattr(request.state, "session", None)
    if cached is not None:
        return dict(cached)
    raw = request.cookies.get(SESSION_COOKIE)
    data: dict[str, Any] = {}
    if raw:
        try:
            loaded = state(request).signer.loads(raw, max_age=SESSION_AGE)
            if isinstance(loaded, dict):
                data = loaded
        except BadSignature:
            data = {}
    request.state.session = data
    return dict(data)


def write_session(request: Request, response: Response, data: dict[str, Any]) -> None:
    request.state.session = data
    response.set_cookie(
        SESSION_COOKIE, state(request).signer.dumps(data), max_age=SESSION_AGE, httponly=True,
        samesite="lax", secure=state(request).secure_cookies, path="/",
    )


def signed_in(request: Request, url: str, user_id: int) -> RedirectResponse:
    """Go to ``url`` with a new session for the account (and a fresh CSRF token), at the
    account's current session generation (a logout or a new password raises it)."""
    with state(request).ctx.work(actor=PUBLIC) as work:
        epoch = session_epoch(work, user_id)
    response = RedirectResponse(url, status_code=303)
    write_session(request, response, {"u": user_id, "e": epoch, "c": secrets.token_urlsafe(24)})
    return response


def remember_device(request: Request, response: Response, login: str) -> None:
    """After a correct password: a signed device cookie naming the login (OWASP's device cookie),
    so this browser's tries are counted apart from everyone else's and guesses from other
    clients cannot lock it out."""
    value = state(request).signer.dumps({"l": login.strip().lower(), "d": secrets.token_urlsafe(12)})
    response.set_cookie(DEVICE_COOKIE, value, max_age=DEVICE_AGE, httponly=True, samesite="lax",
                        secure=state(request).secure_cookies, path="/")


def login_source(request: Request, login: str, client: str) -> str:
    """Whose tries a login attempt counts against: this browser's device cookie when it holds a
    valid one for ``login``, else the client's address (shared by everyone behind it)."""
    raw = request.cookies.get(DEVICE_COOKIE)
    if raw:
        try:
            data = state(request).signer.loads(raw, max_age=DEVICE_AGE)
        except BadSignature:
            data = None
        if isinstance(data, dict) and data.get("l") == login.strip().lower() and isinstance(data.get("d"), str):
            return f"device:{data['d']}"
    return client


def signed_out(request: Request, url: str) -> RedirectResponse:
    """Sign out: every session and token of the account end on the server (a copied cookie
    too, in every worker), then this browser gets an empty session."""
    data = session_of(request)
    uid, epoch = data.get("u"), data.get("e", 0)
    if isinstance(uid, int) and isinstance(epoch, int):
        with state(request).ctx.work(actor=PUBLIC) as work:
            actor = user_actor(work, uid, epoch)
        if actor is not None:
            with state(request).ctx.work(actor=actor) as work:
                end_own_sessions(work)
    response = RedirectResponse(url, status_code=303)
    write_session(request, response, {"c": secrets.token_urlsafe(24)})
    return response


def csrf_token(request: Request) -> str:
    """This visitor's CSRF token (created with the session if there is none yet)."""
    data = session_of(request)
    token = data.get("c")
    if not isinstance(token, str) or not token:
        token = secrets.token_urlsafe(24)
        data["c"] = token
        request.state.session = data
        request.state.session_dirty = True
    return token


async def check_csrf(request: Request) -> None:
    """Every POST from a page carries the session's token (form field or X-CSRF-Token header)."""
    expected = session_of(request).get("c")
    given = request.headers.get("x-csrf-token")
    if given is None:
        form = await read_form(request)
        value = form.get("csrf")
        given = value if isinstance(value, str) else None
    if not expected or not given or not hmac.compare_digest(str(expected), given):
        raise CsrfFailed()


async def read_json(request: Request, shape: type[T]) -> T:
    """The JSON body a console script sends (grid, registration check), validated as ``shape``:
    its errors are answered as JSON; the CSRF header is checked before the body is read (the
    caller checks the login before this)."""
    request.state.answer_json = True
    await check_csrf(request)
    return await parse_json(request, shape)


def answers_json(request: Request) -> bool:
    """Whether an error is answered as JSON: the API, a JSON request, or a script's endpoint."""
    return (request.url.path.startswith("/api/") or getattr(request.state, "answer_json", False)
            or "application/json" in request.headers.get("content-type", ""))


class CsrfFailed(ServiceError):
    status = 403
    default_code = "csrf"

    def __init__(self) -> None:
        super().__init__("表单已过期或来源不明 (缺少CSRF令牌), 请刷新页面后重试",
                         en="the form expired or did not come from this site (CSRF token missing); reload and retry")


def page(request: Request, name: str, http_status: int = 200, **context: Any) -> HTMLResponse:
    """Render a template with what every page needs (language, user, CSRF token)."""
    context.setdefault("user", getattr(request.state, "actor", None))
    context["lang"] = lang_of(request)
    context["csrf"] = csrf_token(request)
    context["path"] = request.url.path
    response = state(request).templates.TemplateResponse(request, name, context, status_code=http_status)
    if getattr(request.state, "session_dirty", False):
        write_session(request, response, session_of(request))
    return response
