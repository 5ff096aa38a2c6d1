"""Request bodies are limited while they stream in (issue 44, item 1), against the real `yisai serve`.

On the code before this change a 1 GB multipart part to the login form was spooled to disk before
the CSRF check refused it, and a 300 MB JSON body to /api/token took 1.5 GB of memory. Here each
such body is offered in a bounded way (at most 16 MB, in 64 KB pieces, over a raw socket) and the
server's own counters show what it took: ``rchar`` of /proc/PID/io counts every byte the process
read from any socket or file, ``VmRSS`` its memory. Timeouts only catch a hang.
"""

from __future__ import annotations

import json
import re
import select
import shutil
import socket
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient

from tests.web.conftest import PASSWORDS, Site
from tests.web.server import Server
from yisai.web.bodies import DEFAULT_MAX_BODY, BodyLimits, limits_from_environment

MB = 1024 * 1024
PIECE = 64 * 1024
OFFERED = 16 * MB  # what a hostile client offers when the body streams (chunked)


@pytest.fixture(scope="module")
def server(template_db: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    db = tmp_path_factory.mktemp("bodies") / "served.sqlite"
    shutil.copy(template_db, db)
    with Server(db, now="2025-04-10T09:30") as running:
        yield running


def _processes(pid: int) -> list[int]:
    """The server process and its worker processes (``--workers 2``: uvicorn's children)."""
    children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    return [pid, *(int(c) for c in children)]


def _io(server: Server) -> tuple[int, int]:
    """(bytes the server's processes have read from sockets and files, their resident memory in
    bytes), summed over the workers."""
    rchar = rss = 0
    for pid in _processes(server.proc.pid):
        io = Path(f"/proc/{pid}/io").read_text()
        rchar += int(re.search(r"^rchar: (\d+)", io, re.M).group(1))  # type: ignore[union-attr]
        status = Path(f"/proc/{pid}/status").read_text()
        rss += int(re.search(r"^VmRSS:\s+(\d+) kB", status, re.M).group(1)) * 1024  # type: ignore[union-attr]
    return rchar, rss


def _head(path: str, headers: dict[str, str]) -> bytes:
    lines = [f"POST {path} HTTP/1.1", "Host: 127.0.0.1", *(f"{k}: {v}" for k, v in headers.items()), "", ""]
    return "\r\n".join(lines).encode("latin-1")


def _response(sock: socket.socket) -> tuple[int, str]:
    """The status and body of the answer (read until the server closes or the body is complete)."""
    data = b""
    while True:
        try:
            piece = sock.recv(65536)
        except ConnectionResetError:
            break
        if not piece:
            break
        data += piece
        head, sep, body = data.partition(b"\r\n\r\n")
        if sep:
            m = re.search(rb"content-length: (\d+)", head, re.I)
            if m and len(body) >= int(m.group(1)):
                break
    head, _, body = data.partition(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1]) if head.startswith(b"HTTP/1.1 ") else 0
    return status, body.decode("utf-8", "replace")


def _declared(server: Server, path: str, size: int, kind: str, cookie: str = "") -> tuple[int, str]:
    """Send the headers of a ``size``-byte body and none of it: the answer must come unread."""
    headers = {"Content-Type": kind, "Content-Length": str(size)}
    if cookie:
        headers["Cookie"] = cookie
    with socket.create_connection(("127.0.0.1", server.port), timeout=60) as sock:
        sock.sendall(_head(path, headers))
        return _response(sock)


def _streamed(server: Server, path: str, kind: str, cookie: str = "") -> tuple[int, str, int]:
    """Stream up to OFFERED bytes chunked (no Content-Length), stopping as soon as the server
    answers or closes; (status, body, bytes sent)."""
    headers = {"Content-Type": kind, "Transfer-Encoding": "chunked"}
    if cookie:
        headers["Cookie"] = cookie
    piece = b"%x\r\n" % PIECE + b"a" * PIECE + b"\r\n"
    opening = OPENINGS[kind.split(";")[0]]
    sent = 0
    with socket.create_connection(("127.0.0.1", server.port), timeout=60) as sock:
        sock.sendall(_head(path, headers) + b"%x\r\n" % len(opening) + opening + b"\r\n")
        while sent < OFFERED:
            ready, _, _ = select.select([sock], [], [], 0)
            if ready:
                break  # the server answered (or closed) before the body was all sent
            try:
                sock.sendall(piece)
            except (BrokenPipeError, ConnectionResetError):
                break
            sent += PIECE
        status, body = _response(sock)
    return status, body, sent


# What a body starts with before the long part: a valid beginning, so no parser refuses it early.
OPENINGS = {
    "application/json": b'{"login": "',
    "multipart/form-data": b'--x\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\n'
                           b"Content-Type: text/csv\r\n\r\n",
}


def _cookie_of(client: httpx.Client) -> str:
    return "; ".join(f"{k}={v}" for k, v in client.cookies.items())


def _director(server: Server) -> httpx.Client:
    client = httpx.Client(base_url=server.url, timeout=60)
    m = re.search(r'name="csrf" value="([^"]+)"', client.get("/console/login").text)
    assert m
    r = client.post("/console/login", data={"login": "director", "password": PASSWORDS["director"],
                                            "csrf": m.group(1)})
    assert r.status_code == 303, r.text[:300]
    return client


def _still_serving(server: Server) -> None:
    assert server.proc.poll() is None
    assert httpx.get(server.url + "/api/events", timeout=30).status_code == 200


@pytest.mark.parametrize(("path", "size", "kind"), [
    ("/console/login", 1024 * MB, "multipart/form-data; boundary=x"),  # the probe's 1,024 MB file part
    ("/api/token", 300 * MB, "application/json"),
    ("/api/events/1/rounds/jia/1/results", 200 * MB, "application/json"),
    ("/console/events/1/rounds/jia/1/result", 2 * MB, "application/x-www-form-urlencoded"),
])
def test_a_declared_body_over_the_limit_is_refused_before_a_byte_is_read(
        server: Server, path: str, size: int, kind: str) -> None:
    before, _ = _io(server)
    status, body = _declared(server, path, size, kind)
    read, _ = _io(server)
    assert status == 413
    assert "请求体过大: 超过本站对此地址的上限 1 MB, 未读取" in (json.loads(body)["message"] if "json" in kind or
                                                             path.startswith("/api/") else body)
    assert read - before < 64 * 1024  # the headers, not the body
    _still_serving(server)


@pytest.mark.parametrize(("path", "kind"), [
    ("/api/token", "application/json"),
    ("/console/login", "multipart/form-data; boundary=x"),
    ("/api/events/1/rounds/jia/1/results", "application/json"),
])
def test_a_streamed_body_is_cut_off_at_the_limit(server: Server, path: str, kind: str) -> None:
    _streamed(server, path, kind)  # once first: what the first request of a kind allocates is not the body
    before_read, before_rss = _io(server)
    status, body, sent = _streamed(server, path, kind)
    read, rss = _io(server)
    assert status == 413, body[:300]
    assert "请求体过大" in body
    # the server read at most the limit and what was in flight, never the 16 MB offered
    assert read - before_read < DEFAULT_MAX_BODY + 2 * MB
    assert rss - before_rss < OFFERED // 2
    assert sent <= OFFERED
    _still_serving(server)


def test_three_bodies_at_once_cost_at_most_three_limits(server: Server) -> None:
    import threading

    answers: list[int] = []
    before_read, before_rss = _io(server)
    threads = [threading.Thread(target=lambda: answers.append(_streamed(server, "/api/token", "application/json")[0]))
               for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    read, rss = _io(server)
    assert answers == [413, 413, 413]
    assert read - before_read < 3 * (DEFAULT_MAX_BODY + 2 * MB)
    assert rss - before_rss < OFFERED  # the probe's three 150 MB bodies added 823 MB
    _still_serving(server)


@pytest.mark.parametrize("path", ["/console/events/1/roster", "/console/events/1/papers/upload", "/console/drafts"])
def test_an_upload_route_reads_a_large_body_only_for_a_signed_in_account(server: Server, path: str) -> None:
    before, _ = _io(server)
    status, body = _declared(server, path, 4 * MB, "multipart/form-data; boundary=x")
    assert status == 401 and "请先登录" in body
    status, body, _ = _streamed(server, path, "multipart/form-data; boundary=x")
    assert status == 401 and "请先登录" in body
    forged = "yisai_session=eyJ1IjoxfQ.forged.signature"
    status, body = _declared(server, path, 4 * MB, "multipart/form-data; boundary=x", cookie=forged)
    assert status == 401
    read, _ = _io(server)
    assert read - before < 2 * MB  # none of the three bodies was read past what was in flight
    _still_serving(server)


def test_a_signed_in_upload_past_the_routes_need_is_cut_off(server: Server) -> None:
    director = _director(server)
    cookie = _cookie_of(director)
    # the roster route takes a 5 MB file and the form around it
    status, body = _declared(server, "/console/events/1/roster", 50 * MB, "multipart/form-data; boundary=x", cookie)
    assert status == 413 and "上限 5 MB" not in body and "请求体过大" in body
    before, _ = _io(server)
    status, body, _ = _streamed(server, "/console/events/1/roster", "multipart/form-data; boundary=x", cookie)
    read, _ = _io(server)
    assert status == 413, body[:300]
    assert read - before < 5 * MB + 256 * 1024 + 2 * MB
    # a body within the route's limit still reaches the route, which says what is wrong with it
    small = director.post("/console/events/1/roster", data={"csrf": "wrong"}, files={"roster": ("a.csv", b"x")})
    assert small.status_code == 403  # the CSRF check, as before
    _still_serving(server)


def test_the_limits_are_settings(site: Site) -> None:
    assert limits_from_environment({}) == BodyLimits()
    limits = limits_from_environment({"YISAI_MAX_BODY_KB": "64", "YISAI_MAX_UPLOAD_MB": "2"})
    assert limits == BodyLimits(body=64 * 1024, upload=2 * MB)
    # an upload route takes the smaller of the setting and its own need, never less than the small limit
    assert limits.for_path("/console/events/1/papers/upload") == (2 * MB, True)
    assert limits.for_path("/console/login") == (64 * 1024, False)
    with pytest.raises(ValueError, match="YISAI_MAX_BODY_KB=abc"):
        limits_from_environment({"YISAI_MAX_BODY_KB": "abc"})
    from yisai.services.settings import Settings
    from yisai.web.app import create_app

    app = create_app(Settings(database=site.db), secret="s", refresh_seconds=0, body_limits=BodyLimits(body=64 * 1024))
    with TestClient(app) as client:
        r = client.post("/api/token", json={"login": "x" * (65 * 1024), "password": "p"})
        assert r.status_code == 413 and r.json()["code"] == "body_too_large"
        assert r.json()["message"] == "请求体过大: 超过本站对此地址的上限 64 KB, 未读取"
        assert r.json()["params"] == {"limit": 64 * 1024}
        r = client.post("/api/token?lang=en", json={"login": "x" * (65 * 1024), "password": "p"})
        assert r.json()["message"].startswith("the request body is too large")
        r = client.post("/api/token", json={"login": "x" * (60 * 1024), "password": "p"})
        assert r.status_code == 401  # under the limit: read, and a wrong login as before


def test_an_answer_given_before_the_body_closes_the_connection(server: Server) -> None:
    """The grid checks the login before it reads the form: its 401 closes the connection, so the
    server does not go on reading and dropping the 16 MB (it read 13 MB of them before)."""
    before, _ = _io(server)
    status, body, _ = _streamed(server, "/console/events/1/rounds/jia/1/result", "application/json")
    read, _ = _io(server)
    assert status == 401 and "请先登录" in body
    assert read - before < 2 * MB
    _still_serving(server)


def test_two_workers_refuse_alike(template_db: Path, tmp_path: Path) -> None:
    """``--workers 2``: each worker limits its own requests (the probes land on either)."""
    db = tmp_path / "two.sqlite"
    shutil.copy(template_db, db)
    with Server(db, now="2025-04-10T09:30", workers=2) as two:
        assert len(_processes(two.proc.pid)) >= 3  # the supervisor, two workers (and a resource tracker)
        for _ in range(4):
            _streamed(two, "/api/token", "application/json")  # warm both workers up
        before_read, before_rss = _io(two)
        for _ in range(4):
            status, _ = _declared(two, "/console/login", 1024 * MB, "multipart/form-data; boundary=x")
            assert status == 413
            status, _, _ = _streamed(two, "/api/token", "application/json")
            assert status == 413
        read, rss = _io(two)
        assert read - before_read < 4 * (DEFAULT_MAX_BODY + 2 * MB)  # four 16 MB bodies offered
        assert rss - before_rss < OFFERED
