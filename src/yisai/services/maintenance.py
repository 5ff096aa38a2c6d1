"""Operator jobs on the store itself: schema upgrades and backups (role-checked like every write), and the
scratch schemas benchmarks and simulations write into instead of a database with real events."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sqlalchemy import func, select, text

from yisai.services.context import Context
from yisai.services.errors import InputError
from yisai.services.identity import Action
from yisai.services.settings import Settings
from yisai.store import StoreError, upgrade_database
from yisai.store.backup import Manifest, make_backup, restore_backup
from yisai.store.database import (
    current_revision,
    drop_database,
    drop_schema,
    fresh_database,
    fresh_schema,
    head_revision,
    prepare_mappers,
    shown_url,
)
from yisai.store.files import default_files_dir
from yisai.store.notice_models import NoticeRow


def upgrade(settings: Settings) -> tuple[str | None, str]:
    """Migrate the settings' database to head: (revision before, revision after)."""
    settings.actor.require(Action.MIGRATE)
    try:
        return upgrade_database(settings.database)
    except StoreError as exc:
        raise InputError(exc.text, code="upgrade_failed") from exc


def scratch_database(db: str, prefix: str) -> str:
    """A new, empty PostgreSQL schema on ``db``'s server, migrated to head; returns its URL.
    Touches no existing data, so no role is needed; ``drop_scratch`` removes it."""
    try:
        url = fresh_schema(db, prefix)
        upgrade_database(url)
    except StoreError as exc:
        raise InputError(exc.text, code="scratch_failed") from exc
    return url


def drop_scratch(url: str) -> None:
    """Remove a schema made by ``scratch_database``."""
    try:
        drop_schema(url)
    except StoreError as exc:
        raise InputError(exc.text, code="scratch_failed") from exc



def scratch_whole_database(db: str, prefix: str) -> str:
    """A new, empty PostgreSQL database on ``db``'s server (not migrated: a restore target or a
    store to upgrade); ``drop_scratch_database`` removes it."""
    try:
        return fresh_database(db, prefix)
    except StoreError as exc:
        raise InputError(exc.text, code="scratch_failed") from exc


def drop_scratch_database(url: str) -> None:
    """Remove a database made by ``scratch_whole_database``."""
    try:
        drop_database(url)
    except StoreError as exc:
        raise InputError(exc.text, code="scratch_failed") from exc


def shown_database(url: str) -> str:
    """A database address as a message may show it: the password hidden."""
    return shown_url(url)


def preload() -> None:
    """Load the store and configure its mappers now: a resident process does it once before
    it forks, so its children start with them ready."""
    prepare_mappers()


def _files_dir(settings: Settings) -> Path:
    return settings.files_dir or default_files_dir(settings.database)


def backup(settings: Settings, folder: Path, keep: int) -> tuple[Path, Manifest, list[Path]]:
    """One backup of the settings' store and its uploaded files into ``folder``, keeping the
    newest ``keep`` there: (archive, manifest, archives removed)."""
    settings.actor.require(Action.MIGRATE)
    try:
        return make_backup(settings.database, _files_dir(settings), folder, keep)
    except StoreError as exc:
        raise InputError(exc.text, code="backup_failed") from exc


def restore(settings: Settings, archive: Path) -> Manifest:
    """Restore ``archive`` into the settings' (empty) database and files folder."""
    settings.actor.require(Action.MIGRATE)
    try:
        return restore_backup(archive, settings.database, _files_dir(settings))
    except StoreError as exc:
        raise InputError(exc.text, code="restore_failed") from exc


def health(ctx: Context, redis_url: str | None = None) -> dict[str, Any]:
    """What ``/healthz`` answers: the database answers and is at this program's schema, and
    Redis answers when one is configured. ``status`` is ``ok`` only when every check is."""
    report: dict[str, Any] = {"status": "ok", "schema_expected": head_revision()}
    try:
        with ctx.database.engine.connect() as conn:
            conn.execute(text("SELECT 1"))
        revision = current_revision(ctx.database.engine)
        report["database"] = "ok"
        report["schema"] = revision
        if revision != head_revision():
            report["status"] = "fail"
    except Exception as exc:  # any failure is the answer, never a 500
        report.update(status="fail", database=f"error: {type(exc).__name__}")
    if redis_url:
        try:
            import redis

            client = redis.Redis.from_url(redis_url, socket_connect_timeout=2, socket_timeout=2)
            client.ping()
            client.close()
            report["redis"] = "ok"
        except Exception as exc:
            report.update(status="fail", redis=f"error: {type(exc).__name__}")
    else:
        report["redis"] = "not configured"
    return report


def queued_notices(ctx: Context) -> int | None:
    """SMS notices waiting to be sent (None when the database does not answer)."""
    try:
        with ctx.database.session() as session:
            return int(session.scalar(select(func.count()).select_from(NoticeRow).where(NoticeRow.state == "queued"))
                       or 0)
    except Exception:
        return None
