"""Opening the store: migrations, SQLite settings, column types, transactions."""

from __future__ import annotations

from datetime import date

import pytest
from sqlalchemy import inspect, text

from yisai.cli.hints import cli_message
from yisai.registry.person import Gender, Player
from yisai.services.context import Context, open_context
from yisai.services.settings import database_from
from yisai.store import audit_rows, event_rows, open_database, player_rows, resolve_url, roster_rows
from yisai.store.database import head_revision

TABLES = {
    "events", "players", "teams", "team_members", "entries", "rounds", "games",
    "result_changes", "audit", "alembic_version",
}  # fmt: skip


def test_migrations_create_every_table_and_reopen_is_a_no_op(db_url: str) -> None:
    db = open_database(db_url)
    try:
        assert set(inspect(db.engine).get_table_names()) >= TABLES
        with db.engine.connect() as conn:
            assert conn.execute(text("SELECT version_num FROM alembic_version")).scalar() == head_revision()
    finally:
        db.dispose()
    again = open_database(db_url)
    again.dispose()


def test_id_and_phone_columns_are_text(db_url: str) -> None:
    db = open_database(db_url)
    try:
        cols = {c["name"]: c["type"] for c in inspect(db.engine).get_columns("players")}
        for name in ("id_number", "phone", "certificate_no"):
            assert cols[name].python_type is str, name
    finally:
        db.dispose()


def test_sqlite_uses_wal_and_foreign_keys(tmp_path) -> None:  # type: ignore[no-untyped-def]
    db = open_database(str(tmp_path / "x.sqlite"))
    try:
        with db.engine.connect() as conn:
            assert conn.execute(text("PRAGMA journal_mode")).scalar() == "wal"
            assert conn.execute(text("PRAGMA foreign_keys")).scalar() == 1
    finally:
        db.dispose()


def test_location_resolution() -> None:
    """The documented precedence: option > YISAI_DATABASE_URL > YISAI_DB > ./yisai.sqlite."""
    assert resolve_url(database_from(None, {})) == "sqlite:///yisai.sqlite"
    env = {"YISAI_DB": "/tmp/a.sqlite"}
    assert resolve_url(database_from(None, env)) == "sqlite:////tmp/a.sqlite"
    env["YISAI_DATABASE_URL"] = "postgresql+psycopg://u@h/db"
    assert resolve_url(database_from(None, env)) == "postgresql+psycopg://u@h/db"
    assert resolve_url(database_from("other.sqlite", env)) == "sqlite:///other.sqlite"


def test_store_layers_never_read_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("YISAI_DB", "/tmp/should-not-be-used.sqlite")
    monkeypatch.setenv("YISAI_DATABASE_URL", "postgresql+psycopg://u@h/db")
    assert resolve_url(None) == "sqlite:///yisai.sqlite"


def test_a_failing_unit_of_work_saves_nothing(ctx: Context) -> None:
    with ctx.work() as w:
        event = event_rows.add_event(w.session, w.stamp, "测试赛", "t", "测试规程", "id = 't'", 7)
    with pytest.raises(RuntimeError), ctx.work() as w:
        player_rows.add_player(w.session, w.stamp, event.id, Player(id="", name="甲", gender=Gender.MALE, birth_date=date(2010, 1, 1)))
        raise RuntimeError("boom")
    with ctx.work() as w:
        assert roster_rows.list_players(w.session, event.id) == []
        assert [a.entity for a in audit_rows.audit_log(w.session, event.id)] == ["event"]


def test_bad_location_is_a_clear_error(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from yisai.services.context import InputError

    with pytest.raises(InputError, match="数据库所在目录不存在"):
        open_context(str(tmp_path / "missing" / "x.sqlite"))
    with pytest.raises(InputError, match="是一个目录"):
        open_context(str(tmp_path))


def test_an_out_of_date_schema_is_refused_until_db_upgrade(db_url: str, tmp_path) -> None:  # type: ignore[no-untyped-def]
    from alembic import command
    from sqlalchemy import create_engine

    from yisai.services.context import InputError
    from yisai.services.maintenance import upgrade
    from yisai.services.settings import Settings
    from yisai.store.database import _alembic_config

    engine = create_engine(db_url)
    from yisai.store import (
        fee_models,  # noqa: F401 (the fee ledger's tables)
        live_models,  # noqa: F401 (and the live tables)
        notice_models,  # noqa: F401 (and the notices' tables)
        qualification_models,  # noqa: F401 (puts the qualifier's tables on Base)
        side_models,  # noqa: F401 (papers, check-ins, profiles, line-ups, appeals, ...)
    )
    from yisai.store.models import Base

    # Every table the program knows, in dependency order: the qualifier's tables are on Base only
    # once their module is imported (PostgreSQL refuses to drop live_games under their keys).
    Base.metadata.drop_all(engine)
    with engine.begin() as conn:
        conn.execute(text("DROP TABLE IF EXISTS alembic_version"))
    cfg = _alembic_config()
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "0001")
    engine.dispose()
    with pytest.raises(InputError) as info:
        open_context(db_url)
    assert info.value.code == "schema_outdated" and info.value.hint == "upgrade_db"
    assert "yisai db upgrade --db" in cli_message(info.value, "zh")  # the CLI words the hint
    assert upgrade(Settings(database=db_url)) == ("0001", head_revision())
    open_context(db_url).close()


def test_the_recorded_schema_head_is_alembics_head() -> None:
    from yisai.store.database import SCHEMA_HEAD, alembic_head

    assert alembic_head() == SCHEMA_HEAD


def test_a_store_refusal_is_worded_in_both_languages_and_the_service_keeps_both(tmp_path) -> None:  # type: ignore[no-untyped-def]
    # The store words nothing in a reader's language: its refusal carries both, and the
    # service that turns it into an InputError hands both on (it used to copy one into both).
    from yisai.i18n import use_language
    from yisai.services.errors import InputError
    from yisai.store import StoreError

    with use_language("en"), pytest.raises(StoreError) as err:
        resolve_url("mysql://u@h/db")
    assert err.value.text.zh.startswith("不支持的数据库地址 mysql://…; 支持的数据库: SQLite 文件路径")
    assert err.value.text.en.startswith("unsupported database address mysql://…; supported databases:")
    assert str(err.value).startswith("不支持的数据库地址")  # rendered where it is read: Chinese here
    with use_language("en"):
        assert str(err.value).startswith("unsupported")
    with use_language("en"), pytest.raises(InputError) as refused:
        open_context(str(tmp_path))  # a folder, not a file
    assert refused.value.render("zh").startswith("数据库路径是一个目录")
    assert refused.value.render("en").startswith("the database path is a folder")
