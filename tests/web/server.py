"""Start the real `yisai serve` on a free loopback port for browser tests; stop it by its pid.

The database is a SQLite file or any database URL (``fresh_postgres`` makes a PostgreSQL
schema of its own); ``env`` adds settings (``YISAI_REDIS_URL`` and a ``YISAI_REDIS_PREFIX`` of its
own for several workers sharing Redis)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
import uuid
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
START_TIMEOUT = 90


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    def __init__(self, db: Path | str, now: str | None = None, workers: int = 1, args: tuple[str, ...] = (),
                 env: Mapping[str, str] | None = None) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "YISAI_WEB_SECRET": "browser-test", **(env or {})}
        env.pop("YISAI_DB", None)
        if now:
            env["YISAI_NOW"] = now
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "yisai.cli.app", "serve", "--db", str(db), "--port", str(self.port),
             "--workers", str(workers), *args],
            env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        )
        # generous: two workers on a loaded two-core machine (parallel test workers) start slowly;
        # the loop returns as soon as the server answers
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited: {self.proc.stdout.read() if self.proc.stdout else ''}")
            try:
                with urllib.request.urlopen(self.url + "/api/events", timeout=1):
                    return
            except OSError:
                time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"server did not start in {START_TIMEOUT} s")

    def stop(self) -> None:
        if self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGINT)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.kill(self.proc.pid, signal.SIGKILL)
                self.proc.wait()

    def __enter__(self) -> Server:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


@contextmanager
def fresh_postgres() -> Iterator[str]:
    """A PostgreSQL URL whose tables live in a schema of their own, at the newest migration,
    dropped afterwards (skipped locally without ``YISAI_TEST_POSTGRES_URL``, required in CI)."""
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    from tests.store.conftest import ensure_database, postgres_base_url
    from yisai.store import upgrade_database

    base = postgres_base_url()
    ensure_database(base)
    schema = f"yisai_srv_{uuid.uuid4().hex[:12]}"
    admin = create_engine(base)
    with admin.begin() as conn:
        conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    url = make_url(base).update_query_dict({"options": f"-csearch_path={schema}"}).render_as_string(
        hide_password=False)
    try:
        upgrade_database(url)
        yield url
    finally:
        with admin.begin() as conn:
            conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()


def redis_keys_gone(prefix: str) -> None:
    """Remove a test's Redis keys (those beginning with ``prefix:``)."""
    import redis

    r = redis.Redis.from_url("redis://127.0.0.1:6379/0")
    for key in r.scan_iter(f"{prefix}:*", count=1000):
        r.delete(key)
    r.close()
