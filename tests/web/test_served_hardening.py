"""Issue 44's probes against the real `yisai serve --workers 2`, on SQLite and on PostgreSQL
with Redis: each item holds whichever worker answers each request.

One server per backend for the module (about 10-20 s to start each), every request on
127.0.0.1 and their number bounded. Which worker answered a connection is read from
``/proc`` (the worker process holding the accepted socket), so a test can spread its requests
over both workers on purpose instead of hoping the kernel does.

* ``sqlite``: two workers, no Redis: the login limit is counted in the database.
* ``sqlite+redis`` and ``postgres+redis``: two workers serving the qualifier (which needs Redis
  with several workers): login limit and socket caps in Redis, code limits under the database's
  row lock, the sign-in proof used once.
"""

from __future__ import annotations

import asyncio
import http.client
import json
import os
import re
import socket
import time
import uuid
from collections.abc import Iterator
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest
from sqlalchemy import create_engine, text
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from tests.conftest import REGULATIONS
from tests.web.server import Server, fresh_postgres, redis_keys_gone
from yisai.qualifier import proof
from yisai.services.accounts import create_user
from yisai.services.context import open_context
from yisai.services.events import create_event
from yisai.services.identity import Actor, Role

SECRET = "browser-test"  # what tests/web/server.py gives the served site
NOW = "2025-05-06T10:30"  # inside the qualifier's first period (2025-shanhai-cup)
PROOF_BITS = 8  # the difficulty asked, by setting (256 tries on average)
PER_ADDRESS = 4  # live sockets per client address, by setting
LOGIN_LIMIT = 5  # failed logins per source and login (the default)
BACKENDS = ["sqlite", "sqlite+redis", "postgres+redis"]
QUALIFIER = ["sqlite+redis", "postgres+redis"]
BOTH_WORKERS_SECONDS = 120  # a hang guard: the second worker of a loaded machine starts late


@dataclass
class Served:
    backend: str
    server: Server
    database: str


def _redis_up() -> bool:
    with socket.socket() as s:
        s.settimeout(1)
        return s.connect_ex(("127.0.0.1", 6379)) == 0


def _prepare(url: str) -> int:
    """The qualifier event and a chief referee account."""
    with open_context(url, actor="测试裁判") as ctx:
        with ctx.work() as work:
            event = create_event(work, REGULATIONS / "2025-shanhai-cup.toml")
        with ctx.work(Actor.system()) as work:
            create_user(work, "director", "测试裁判长", Role.CHIEF_REFEREE, "director-pw")
    return int(event.id)


@pytest.fixture(scope="module", params=BACKENDS)
def served(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    backend: str = request.param
    if backend.endswith("+redis") and not _redis_up():
        if os.environ.get("CI"):
            pytest.fail("CI is set but Redis is not answering on 127.0.0.1:6379")
        pytest.skip("Redis not running on 127.0.0.1:6379")
    with ExitStack() as stack:
        if backend.startswith("postgres"):
            url = stack.enter_context(fresh_postgres())
            db: str = url
        else:
            path = tmp_path_factory.mktemp("served") / "site.sqlite"
            url, db = f"sqlite:///{path}", str(path)
        event_id = _prepare(url)
        env = {"YISAI_CODE_PROOF_BITS": str(PROOF_BITS), "YISAI_WS_PER_ADDRESS": str(PER_ADDRESS),
               "YISAI_WECHAT_APPID": "wx-test", "YISAI_WECHAT_SECRET": "wx-secret",
               "YISAI_WECHAT_API_URL": "http://127.0.0.1:9", "YISAI_PUBLIC_URL": "http://127.0.0.1"}
        args: tuple[str, ...] = ("--dev-outbox",)
        if backend.endswith("+redis"):
            prefix = f"yisai-test:{uuid.uuid4().hex[:10]}"
            stack.callback(redis_keys_gone, prefix)
            env |= {"YISAI_REDIS_URL": "redis://127.0.0.1:6379/0", "YISAI_REDIS_PREFIX": prefix}
            args += ("--qualifier", str(event_id))
        server = stack.enter_context(Server(db, now=NOW, workers=2, args=args, env=env))
        yield Served(backend, server, url)


# the qualifier with two workers needs Redis (yisai serve refuses it without)
on_the_qualifier = pytest.mark.parametrize("served", QUALIFIER, indirect=True)


# ------------------------------------------------------------------ which worker answers


def _descendants(pid: int) -> list[int]:
    found, todo = [], [pid]
    while todo:
        p = todo.pop()
        try:
            kids = Path(f"/proc/{p}/task/{p}/children").read_text().split()
        except OSError:
            kids = []
        found += [int(k) for k in kids]
        todo += [int(k) for k in kids]
    return found


def _owner(server: Server, client_port: int) -> int:
    """The worker process holding the server side of the connection from ``client_port``."""
    inode = ""
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        if fields[1].endswith(f":{server.port:04X}") and fields[2].endswith(f":{client_port:04X}"):
            inode = fields[9]
    assert inode, "the connection is not in /proc/net/tcp"
    for pid in _descendants(server.proc.pid):
        try:
            for fd in os.listdir(f"/proc/{pid}/fd"):
                if os.readlink(f"/proc/{pid}/fd/{fd}") == f"socket:[{inode}]":
                    return pid
        except OSError:
            continue
    raise AssertionError("no worker holds the connection")


class Conn:
    """One keep-alive connection (so one worker) with its own cookies."""

    def __init__(self, server: Server) -> None:
        self.http = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
        self.cookies: dict[str, str] = {}
        self.request("GET", "/healthz")
        self.worker = _owner(server, self.http.sock.getsockname()[1])

    def request(self, method: str, path: str, body: bytes | None = None,
                headers: dict[str, str] | None = None) -> tuple[int, str, dict[str, str]]:
        sent = dict(headers or {})
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        self.http.request(method, path, body=body, headers=sent)
        r = self.http.getresponse()
        raw = r.read()
        for name, value in r.getheaders():
            if name.lower() == "set-cookie":
                key, _, rest = value.partition("=")
                self.cookies[key] = rest.split(";", 1)[0]
        return r.status, raw.decode("utf-8", "replace"), {k.lower(): v for k, v in r.getheaders()}

    def form(self, path: str, data: dict[str, str]) -> tuple[int, str]:
        status, body, _ = self.request("POST", path, urlencode(data).encode(),
                                       {"Content-Type": "application/x-www-form-urlencoded"})
        return status, body

    def json(self, path: str, data: object) -> tuple[int, str]:
        status, body, _ = self.request("POST", path, json.dumps(data).encode(), {"Content-Type": "application/json"})
        return status, body

    def close(self) -> None:
        self.http.close()


def _one_per_worker(server: Server) -> tuple[Conn, Conn]:
    """Two connections answered by different workers: new connections (the spares closed at
    once) until the kernel has handed one to each. A worker still starting on a loaded machine
    takes none, so this waits for it; the deadline only catches a worker that never comes."""
    seen: dict[int, Conn] = {}
    deadline = time.monotonic() + BOTH_WORKERS_SECONDS
    while len(seen) < 2 and time.monotonic() < deadline:
        c = Conn(server)
        if c.worker in seen:
            c.close()
            time.sleep(0.05)
        else:
            seen[c.worker] = c
    assert len(seen) == 2, f"one worker answered every connection for {BOTH_WORKERS_SECONDS} s"
    a, b = seen.values()
    return a, b


# ------------------------------------------------------------------ item 1: bodies, item 7: statuses


def _declared(server: Server, path: str, size: int, kind: str) -> tuple[int, str]:
    """Send only the headers of a body of ``size`` bytes; the answer and what was read of it."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=30) as s:
        s.sendall(f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: {kind}\r\n"
                  f"Content-Length: {size}\r\n\r\n".encode())
        data = b""
        while b"\r\n\r\n" not in data or len(data) < data.index(b"\r\n\r\n") + 4 + 10:
            got = s.recv(65536)
            if not got:
                break
            data += got
    head, _, body = data.partition(b"\r\n\r\n")
    return int(head.split()[1]), body.decode("utf-8", "replace")


def test_a_body_past_the_limit_is_413_before_it_is_read(served: Served) -> None:
    status, body = _declared(served.server, "/console/login", 1024 * 1024 * 1024, "multipart/form-data; boundary=x")
    assert status == 413 and "请求体过大" in body
    status, body = _declared(served.server, "/api/token", 300 * 1024 * 1024, "application/json")
    assert status == 413 and "body_too_large" in body


def test_the_status_codes_are_the_conventional_ones(served: Served) -> None:
    c = Conn(served.server)
    try:
        status, body = c.json("/api/token", {"login": "director", "password": "wrong-password"})
        assert status == 401 and "bad_credentials" in body
        assert c.request("GET", "/api/events/2147483647")[0] == 404
        assert c.request("GET", "/api/events/abc")[0] == 404
    finally:
        c.close()


# ------------------------------------------------------------------ item 2: the login limit


def test_failed_logins_spread_over_both_workers_lock_after_the_limit(served: Served) -> None:
    """5 failures, alternating between the workers (3 on one, 2 on the other): the sixth try is
    refused on either. Counted per worker, each would have seen at most 3 and let it through."""
    a, b = _one_per_worker(served.server)
    login = f"ghost-{uuid.uuid4().hex[:8]}"
    try:
        for i in range(LOGIN_LIMIT):
            status, _ = (a if i % 2 == 0 else b).json("/api/token", {"login": login, "password": "guess-guess"})
            assert status == 401, f"try {i + 1}"
        for c in (a, b):
            status, body = c.json("/api/token", {"login": login, "password": "guess-guess"})
            assert status == 429 and "登录失败次数过多" in body
        # another login from the same address is not locked by it
        assert a.json("/api/token", {"login": login + "x", "password": "guess-guess"})[0] == 401
    finally:
        a.close()
        b.close()


# ------------------------------------------------------------------ item 3: codes and the proof


def _signin_csrf(c: Conn) -> str:
    status, page, _ = c.request("GET", "/play/signin")
    assert status == 200
    found = re.search(r'name="csrf" value="([^"]+)"', page)
    assert found
    return found.group(1)


def _fresh_proof(c: Conn) -> dict[str, str]:
    status, body, headers = c.request("GET", "/play/proof")
    got = json.loads(body)
    assert status == 200 and got["bits"] == PROOF_BITS and headers.get("cache-control") == "no-store"
    return {"proof_challenge": got["challenge"], "proof_solution": proof.solve(got["challenge"], got["bits"])}


def _codes_queued(served: Served) -> int:
    engine = create_engine(served.database)
    try:
        with engine.connect() as conn:
            return int(conn.execute(text("SELECT count(*) FROM notices WHERE kind = 'sign_in_code'")).scalar() or 0)
    finally:
        engine.dispose()


@on_the_qualifier
def test_a_code_needs_a_fresh_solved_proof_used_once(served: Served) -> None:
    a, b = _one_per_worker(served.server)
    phone = f"139{uuid.uuid4().int % 10**8:08d}"
    try:
        csrf_a, csrf_b = _signin_csrf(a), _signin_csrf(b)
        before = _codes_queued(served)
        stale = proof.issue(SECRET, PROOF_BITS, time.time() - proof.PROOF_SECONDS - 60)
        forged = proof.issue("another-secret", PROOF_BITS, time.time())
        weak = proof.issue(SECRET, 1, time.time())  # fewer bits than the site asks
        refusals = [
            ({}, "获取验证码前须完成安全验证"),
            ({"proof_challenge": stale, "proof_solution": proof.solve(stale, PROOF_BITS)}, "安全验证已超过5分钟"),
            ({"proof_challenge": forged, "proof_solution": proof.solve(forged, PROOF_BITS)}, "安全验证无效"),
            ({"proof_challenge": weak, "proof_solution": proof.solve(weak, 1)}, "安全验证无效"),
        ]
        for extra, words in refusals:
            status, page = a.form("/play/code", {"csrf": csrf_a, "phone": phone, **extra})
            assert status == 400 and words in page, words
        solved = _fresh_proof(a)
        status, page = a.form("/play/code", {"csrf": csrf_a, "phone": phone, **solved})
        assert status == 200 and "验证码已发送" in page
        # the same proof again, to the other worker, for another number: refused, nothing sent
        status, page = b.form("/play/code", {"csrf": csrf_b, "phone": phone[:-1] + str((int(phone[-1]) + 1) % 10),
                                             **solved})
        assert status == 400 and "该安全验证已用过" in page
        assert _codes_queued(served) == before + 1  # only the one with a good proof
    finally:
        a.close()
        b.close()


@on_the_qualifier
def test_one_code_a_minute_per_number_whichever_worker_is_asked(served: Served) -> None:
    a, b = _one_per_worker(served.server)
    phone = f"137{uuid.uuid4().int % 10**8:08d}"
    try:
        csrf_a, csrf_b = _signin_csrf(a), _signin_csrf(b)
        status, page = a.form("/play/code", {"csrf": csrf_a, "phone": phone, **_fresh_proof(a)})
        assert status == 200 and "验证码已发送" in page
        status, page = b.form("/play/code", {"csrf": csrf_b, "phone": phone, **_fresh_proof(b)})
        assert status == 409 and "验证码发送过于频繁" in page
    finally:
        a.close()
        b.close()


# ------------------------------------------------------------------ item 5: OAuth state


def test_an_oauth_state_is_used_once_across_workers(served: Served) -> None:
    """The callback takes the state away before the code exchange (here the provider is a closed
    port, so the exchange fails); the same cookie and state replayed to the other worker is
    refused as expired."""
    a, b = _one_per_worker(served.server)
    try:
        status, _, headers = a.request("GET", "/play/oauth/wechat")
        assert status == 303
        state = parse_qs(urlsplit(headers["location"]).query)["state"][0]
        b.cookies = dict(a.cookies)  # the cookie from before the callback, replayed later
        callback = "/play/oauth/wechat/callback?" + urlencode({"state": state, "code": "code-1"})
        status, page, _ = a.request("GET", callback)
        assert "登录请求已失效" not in page  # the state was good: it went on to the (failing) exchange
        status, page, _ = b.request("GET", callback)
        assert status == 400 and "登录请求已失效" in page
    finally:
        a.close()
        b.close()


# ------------------------------------------------------------------ item 6: WebSocket caps


@on_the_qualifier
def test_the_sockets_per_address_are_capped_across_workers(served: Served) -> None:
    """``PER_ADDRESS`` sockets from 127.0.0.1 held by both workers, then the next is refused
    with 4429; counted per worker, each would have had room for ``PER_ADDRESS`` of its own."""
    url = f"ws://127.0.0.1:{served.server.port}/live/ws"
    for c in _one_per_worker(served.server):  # both workers are up
        c.close()

    async def open_one() -> tuple[ClientConnection, int] | None:
        ws = await connect(url)
        if json.loads(await asyncio.wait_for(ws.recv(), 20))["t"] != "welcome":  # a place not yet freed
            await ws.close()
            return None
        return ws, _owner(served.server, ws.local_address[1])

    async def run() -> tuple[set[int], dict[str, object], int | None]:
        opened: list[tuple[ClientConnection, int]] = []
        try:
            for _ in range(40):  # new sockets until PER_ADDRESS are open on both workers (bounded)
                got = await open_one()
                if got is None:
                    await asyncio.sleep(0.2)
                    continue
                workers = {w for _, w in opened} | {got[1]}
                if len(opened) == PER_ADDRESS - 1 and len(workers) < 2:
                    await got[0].close()  # the last place goes to the other worker: try again
                    await asyncio.sleep(0.2)
                    continue
                opened.append(got)
                if len(opened) == PER_ADDRESS:
                    break
            extra = await connect(url)
            try:
                first = json.loads(await asyncio.wait_for(extra.recv(), 20))
                with pytest.raises(ConnectionClosed):
                    await asyncio.wait_for(extra.recv(), 20)
                return {w for _, w in opened}, first, extra.close_code
            finally:
                await extra.close()
        finally:
            for ws, _ in opened:
                await ws.close()

    workers, first, code = asyncio.run(run())
    assert len(workers) == 2, "the open sockets did not span both workers"
    assert first.get("code") == "too_many_connections" and code == 4429
