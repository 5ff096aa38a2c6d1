"""Open the event store: pick the database from the user's words, connect, migrate to head.

SQLite (a file, WAL, foreign keys on) by default; PostgreSQL or anything SQLAlchemy speaks when
the location is a URL. Migrations run on every open so a store is never behind the code.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError
from sqlalchemy.orm import Session, sessionmaker

MIGRATIONS = Path(__file__).with_name("migrations")
DEFAULT_PATH = "yisai.sqlite"


class StoreError(Exception):
    """The store cannot be opened or used; the message says what to fix (Chinese)."""


def resolve_url(db: str | None = None) -> str:
    """``db`` (path or URL) wins, then ``YISAI_DATABASE_URL``, then ``YISAI_DB``, then ./yisai.sqlite."""
    raw = db or os.environ.get("YISAI_DATABASE_URL") or os.environ.get("YISAI_DB") or DEFAULT_PATH
    if "://" in raw:
        try:
            make_url(raw)
        except ArgumentError:
            raise StoreError(f"数据库地址无法识别: {raw}") from None
        return raw
    path = Path(raw).expanduser()
    if path.is_dir():
        raise StoreError(f"数据库路径是一个目录, 请给出文件名: {path}")
    return f"sqlite:///{path}"


def _sqlite_pragmas(dbapi_connection, _record) -> None:  # type: ignore[no-untyped-def]
    cur = dbapi_connection.cursor()
    cur.execute("PRAGMA foreign_keys=ON")
    cur.execute("PRAGMA busy_timeout=10000")
    if cur.execute("PRAGMA journal_mode").fetchone()[0] != "memory":
        cur.execute("PRAGMA journal_mode=WAL")
    cur.close()


def make_engine(url: str) -> Engine:
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        if parsed.database and parsed.database != ":memory:":
            parent = Path(parsed.database).expanduser().resolve().parent
            if not parent.is_dir():
                raise StoreError(f"数据库所在目录不存在: {parent}")
        engine = create_engine(url)
        event.listen(engine, "connect", _sqlite_pragmas)
        return engine
    return create_engine(url, pool_pre_ping=True)


def _alembic_config() -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    return cfg


def head_revision() -> str:
    head = ScriptDirectory.from_config(_alembic_config()).get_current_head()
    assert head is not None
    return head


def migrate(engine: Engine) -> None:
    """Bring the schema to the newest revision (no-op when already there)."""
    head = head_revision()
    with engine.connect() as conn:
        if MigrationContext.configure(conn).get_current_revision() == head:
            return
    cfg = _alembic_config()
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "head")


class Database:
    """An engine plus a session factory; ``session()`` is one transaction (commit or roll back)."""

    def __init__(self, url: str, engine: Engine) -> None:
        self.url = url
        self.engine = engine
        self._sessions = sessionmaker(engine, expire_on_commit=False)

    @contextmanager
    def session(self) -> Iterator[Session]:
        with self._sessions() as session, session.begin():
            yield session

    def dispose(self) -> None:
        self.engine.dispose()


def open_database(db: str | None = None, *, upgrade: bool = True) -> Database:
    url = resolve_url(db)
    engine = make_engine(url)
    try:
        if upgrade:
            migrate(engine)
    except StoreError:
        engine.dispose()
        raise
    except Exception as exc:
        engine.dispose()
        raise StoreError(f"无法打开数据库 {make_url(url).render_as_string(hide_password=True)}: {exc}") from exc
    return Database(url, engine)
