"""Open the event store: turn the user's words into a URL, connect, check the schema.

SQLite (a file, WAL, foreign keys on) by default; PostgreSQL when the location is a URL.
Migrations are explicit (``yisai db upgrade`` → ``upgrade_database``): opening a store whose
schema is behind the code is refused with that command, so several server workers never race to
migrate. The one exception is a brand-new SQLite file, created at head on first open.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, event, inspect, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, SQLAlchemyError
from sqlalchemy.orm import Session, sessionmaker

from yisai.i18n import Text
from yisai.record.text import shown
from yisai.store.errors import DatabaseFailure

MIGRATIONS = Path(__file__).with_name("migrations")
DEFAULT_PATH = "yisai.sqlite"


def shown_url(url: str) -> str:
    """A database address as it may be shown: the password hidden."""
    return make_url(url).render_as_string(hide_password=True)


def prepare_mappers() -> None:
    """Configure every ORM mapper now (a resident process does it once before it forks)."""
    from sqlalchemy.orm import configure_mappers

    configure_mappers()


class StoreError(Exception):
    """The store cannot be opened or used; the message says what to fix. The store words it in
    both languages (``text``), never in a reader's: ``str()`` is the caller's language."""

    def __init__(self, text: Text | str) -> None:
        self.text = text if isinstance(text, Text) else Text(text, text)
        super().__init__(self.text.zh)

    def __str__(self) -> str:
        return self.text.render()


def joined(*parts: Text) -> Text:
    """Messages one after the other, in each language."""
    return Text("".join(p.zh for p in parts), "".join(p.en for p in parts))


class SchemaOutdated(StoreError):
    """The database's schema is behind the code: run ``yisai db upgrade``."""

    def __init__(self, url: str, current: str | None, head: str) -> None:
        shown = make_url(url).render_as_string(hide_password=True)
        self.url, self.current, self.head = url, current, head
        super().__init__(Text(
            f"数据库结构版本为 {current or '空'}, 程序需要 {head}; 请先升级数据库结构 ({shown})",
            f"the database schema is at {current or 'none'}, the program needs {head}; upgrade the "
            f"database schema first ({shown})"))


def _checked_url(raw: str) -> str:
    """``raw`` when it is an address the store can open, else StoreError naming the supported
    forms. Decided from the text and an installed-module look-up, so SQLAlchemy is never asked to
    load an unknown dialect or a missing driver (which ends in a traceback)."""
    # backend → synchronous driver → the module it imports ("" for a bare postgresql://: the
    # driver SQLAlchemy picks, psycopg2 before 2.1 and psycopg from 2.1, read from its dialect).
    drivers: dict[str, dict[str, str]] = {
        "sqlite": {"": "sqlite3", "pysqlite": "sqlite3"},
        "postgresql": {"": "", "psycopg": "psycopg", "psycopg2": "psycopg2", "pg8000": "pg8000"},
    }
    forms = Text(
        "支持的数据库: SQLite 文件路径 (如 yisai.sqlite 或 ./data/比赛.sqlite)、sqlite:///路径, "
        "或 PostgreSQL 地址 postgresql://用户@主机:端口/库名 (可指定驱动: postgresql+psycopg://、"
        "postgresql+psycopg2://、postgresql+pg8000://, 须已安装)",
        "supported databases: an SQLite file path (yisai.sqlite, ./data/event.sqlite), "
        "sqlite:///path, or a PostgreSQL address postgresql://user@host:port/dbname (a driver may "
        "be named: postgresql+psycopg://, postgresql+psycopg2://, postgresql+pg8000://; it must "
        "be installed)",
    )
    scheme = shown(raw.split("://", 1)[0])
    backend, _, driver = raw.split("://", 1)[0].partition("+")  # case matters to SQLAlchemy
    if driver not in drivers.get(backend, {}):
        raise StoreError(joined(
            Text(f"不支持的数据库地址 {scheme}://…; ", f"unsupported database address {scheme}://…; "), forms))
    try:
        url = make_url(raw)
        _ = url.port  # a non-numeric port fails here at the latest
    except (ArgumentError, ValueError):
        raise StoreError(joined(
            Text(f"数据库地址无法识别: {scheme}://…; ", f"unreadable database address {scheme}://…; "), forms)) from None
    if backend == "sqlite" and (url.host or url.username or url.password or url.port):
        raise StoreError(
            Text(
                "SQLite 地址不能有主机或用户 (应为 sqlite:///相对路径 或 sqlite:////绝对路径)",
                "an SQLite address has no host or user "
                "(sqlite:///relative/path or sqlite:////absolute/path)",
            )
        )
    module = drivers[backend][driver]
    if not module:
        default = url.get_dialect().driver  # SQLAlchemy's dialect module only, not the driver
        module = drivers[backend].get(default) or default
    if importlib.util.find_spec(module) is None:
        raise StoreError(joined(
            Text(
                f"数据库驱动 {module} 未安装 (地址 {scheme}://…); ",
                f"the database driver {module} is not installed (address {scheme}://…); ",
            ), forms))
    return raw


def resolve_url(db: str | None = None) -> str:
    """A path or URL as the user wrote it → a SQLAlchemy URL (None: ./yisai.sqlite).

    Plain paths are SQLite files; URLs must be SQLite or PostgreSQL with an installed
    synchronous driver; anything else is a StoreError listing the supported forms.
    """
    raw = db or DEFAULT_PATH
    if "://" in raw:
        return _checked_url(raw)
    if "\0" in raw:
        raise StoreError(Text("数据库路径中有空字符 (NUL)", "the database path contains a NUL character"))
    path = Path(raw).expanduser()
    if path.is_dir():
        where = shown(str(path), None)
        raise StoreError(
            Text(
                f"数据库路径是一个目录, 请给出文件名: {where}",
                f"the database path is a folder; give a file name: {where}",
            )
        )
    return f"sqlite:///{path}"


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
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


SCHEMA_HEAD = "0025"  # the newest migration; a test checks it against Alembic's own head


def _alembic_config() -> Any:
    from alembic.config import Config  # Alembic loads only to migrate, not on every open

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    return cfg


def head_revision() -> str:
    return SCHEMA_HEAD


def alembic_head() -> str:
    from alembic.script import ScriptDirectory

    head = ScriptDirectory.from_config(_alembic_config()).get_current_head()
    assert head is not None
    return head


def current_revision(engine: Engine) -> str | None:
    """The schema revision recorded in the database (None for an empty one)."""
    if "alembic_version" not in inspect(engine).get_table_names():
        return None
    with engine.connect() as conn:
        return conn.execute(text("SELECT version_num FROM alembic_version")).scalar()


def _is_empty(engine: Engine) -> bool:
    return not inspect(engine).get_table_names()


def migrate(engine: Engine) -> None:
    """Bring the schema to the newest revision (no-op when already there)."""
    if current_revision(engine) == head_revision():
        return
    from alembic import command

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
        """One transaction; a database error in it (or at its commit) leaves as ``DatabaseFailure``."""
        try:
            with self._sessions() as session, session.begin():
                yield session
        except SQLAlchemyError as exc:
            orig = getattr(exc, "orig", None)
            raise DatabaseFailure(exc.__class__.__name__, str(orig if orig is not None else exc), str(exc)) from exc

    def dispose(self) -> None:
        self.engine.dispose()


def _check_schema(url: str, engine: Engine, auto_upgrade: bool) -> None:
    head = head_revision()
    current = current_revision(engine)
    if current == head:
        return
    if current is None and auto_upgrade and engine.dialect.name == "sqlite" and _is_empty(engine):
        migrate(engine)  # a brand-new file: nobody else can be using it yet
        return
    raise SchemaOutdated(url, current, head)


def _require_file(url: str) -> None:
    """A command that only reads or changes an event never creates a database: a relative
    ``YISAI_DB`` read from another folder would otherwise open a new, empty file silently."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite" or not parsed.database or parsed.database == ":memory:":
        return
    path = Path(parsed.database)
    if path.exists():
        return
    where = path.resolve()
    raise StoreError(Text(
        f"数据库文件不存在: {where} (当前目录 {Path.cwd()}); 请检查所用的数据库路径 (YISAI_DB 或数据库选项, "
        "相对路径按当前目录计算), 或先建立比赛",
        f"no database file at {where} (current folder {Path.cwd()}); check the database path in use "
        "(YISAI_DB or the database option; a relative path is read from the current folder), or create an event first"))


def open_database(db: str | None = None, *, auto_upgrade: bool = True,
                  must_exist: bool = False) -> Database:
    """Open a store whose schema is at head (a brand-new SQLite file is created at head,
    unless ``must_exist``)."""
    url = resolve_url(db)
    if must_exist:
        _require_file(url)
    engine = make_engine(url)
    try:
        _check_schema(url, engine, auto_upgrade)
    except StoreError:
        engine.dispose()
        raise
    except Exception as exc:
        engine.dispose()
        raise StoreError(f"无法打开数据库 {make_url(url).render_as_string(hide_password=True)}: {exc}") from exc
    return Database(url, engine)


def upgrade_database(db: str | None = None) -> tuple[str | None, str]:
    """``yisai db upgrade``: migrate to head; returns (revision before, revision after)."""
    url = resolve_url(db)
    engine = make_engine(url)
    try:
        before = current_revision(engine)
        migrate(engine)
        return before, head_revision()
    except StoreError:
        raise
    except Exception as exc:
        raise StoreError(f"无法升级数据库 {make_url(url).render_as_string(hide_password=True)}: {exc}") from exc
    finally:
        engine.dispose()


def fresh_schema(db: str, prefix: str = "yisai_sim") -> str:
    """A new empty PostgreSQL schema on the server of ``db``; returns the URL that uses it
    (``search_path``), to be migrated with ``upgrade_database``. Benchmarks and simulations
    write there instead of into a database that holds real events."""
    import uuid

    url = resolve_url(db)
    if not url.startswith("postgresql"):
        raise StoreError(Text("只有 PostgreSQL 可以新建 schema", "only PostgreSQL has schemas"))
    name = f"{prefix}_{uuid.uuid4().hex[:10]}"
    engine = make_engine(url)
    try:
        with engine.begin() as conn:
            conn.execute(text(f'CREATE SCHEMA "{name}"'))
    except Exception as exc:
        raise StoreError(f"无法新建 schema {name}: {exc}") from exc
    finally:
        engine.dispose()
    return make_url(url).update_query_dict({"options": f"-csearch_path={name}"}).render_as_string(
        hide_password=False)


def fresh_database(db: str, prefix: str = "yisai_bench") -> str:
    """A new empty PostgreSQL database on the server of ``db``; returns its URL. What a backup
    is restored into (a restore wants a whole empty database, not a schema)."""
    import uuid

    url = resolve_url(db)
    if not url.startswith("postgresql"):
        raise StoreError(Text("只有 PostgreSQL 可以新建数据库", "only PostgreSQL can make a new database here"))
    name = f"{prefix}_{uuid.uuid4().hex[:10]}"
    engine = create_engine(make_url(url).set(database="postgres"), isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as conn:
            conn.execute(text(f'CREATE DATABASE "{name}"'))
    except Exception as exc:
        raise StoreError(f"无法新建数据库 {name}: {exc}") from exc
    finally:
        engine.dispose()
    return make_url(url).set(database=name).render_as_string(hide_password=False)


def drop_database(url: str) -> None:
    """Drop a database made by ``fresh_database`` (connections to it are ended)."""
    parsed = make_url(url)
    if not url.startswith("postgresql") or not parsed.database:
        raise StoreError(Text("这个地址不是 PostgreSQL 数据库", "this URL names no PostgreSQL database"))
    engine = create_engine(parsed.set(database="postgres"), isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{parsed.database}" WITH (FORCE)'))
    finally:
        engine.dispose()


def drop_schema(url: str) -> None:
    """Drop the PostgreSQL schema a ``fresh_schema`` URL names (its ``search_path``)."""
    parsed = make_url(url)
    options = str(parsed.query.get("options", ""))
    prefix = "-csearch_path="
    if not url.startswith("postgresql") or not options.startswith(prefix):
        raise StoreError(Text("这个地址没有指定 schema", "this URL names no schema"))
    name = options[len(prefix):]
    base = parsed.difference_update_query(["options"]).render_as_string(hide_password=False)
    engine = make_engine(base)
    try:
        with engine.begin() as conn:
            conn.execute(text(f'DROP SCHEMA IF EXISTS "{name}" CASCADE'))
    finally:
        engine.dispose()

