"""Operator jobs on the store itself: schema upgrades and backups (role-checked like every write), and the
scratch schemas benchmarks and simulations write into instead of a database with real events."""

from __future__ import annotations

from pathlib import Path

from yisai.i18n import Text
from yisai.services.errors import InputError
from yisai.services.identity import Action
from yisai.services.settings import Settings
from yisai.store import StoreError, upgrade_database
from yisai.store.backup import Manifest, make_backup, restore_backup
from yisai.store.database import drop_schema, fresh_schema
from yisai.store.files import default_files_dir


def upgrade(settings: Settings) -> tuple[str | None, str]:
    """Migrate the settings' database to head: (revision before, revision after)."""
    settings.actor.require(Action.MIGRATE)
    try:
        return upgrade_database(settings.database)
    except StoreError as exc:
        raise InputError(Text(str(exc), str(exc)), code="upgrade_failed") from exc


def scratch_database(db: str, prefix: str) -> str:
    """A new, empty PostgreSQL schema on ``db``'s server, migrated to head; returns its URL.
    Touches no existing data, so no role is needed; ``drop_scratch`` removes it."""
    try:
        url = fresh_schema(db, prefix)
        upgrade_database(url)
    except StoreError as exc:
        raise InputError(Text(str(exc), str(exc)), code="scratch_failed") from exc
    return url


def drop_scratch(url: str) -> None:
    """Remove a schema made by ``scratch_database``."""
    try:
        drop_schema(url)
    except StoreError as exc:
        raise InputError(Text(str(exc), str(exc)), code="scratch_failed") from exc



def _files_dir(settings: Settings) -> Path:
    return settings.files_dir or default_files_dir(settings.database)


def backup(settings: Settings, folder: Path, keep: int) -> tuple[Path, Manifest, list[Path]]:
    """One backup of the settings' store and its uploaded files into ``folder``, keeping the
    newest ``keep`` there: (archive, manifest, archives removed)."""
    settings.actor.require(Action.MIGRATE)
    try:
        return make_backup(settings.database, _files_dir(settings), folder, keep)
    except StoreError as exc:
        raise InputError(Text(str(exc), str(exc)), code="backup_failed") from exc


def restore(settings: Settings, archive: Path) -> Manifest:
    """Restore ``archive`` into the settings' (empty) database and files folder."""
    settings.actor.require(Action.MIGRATE)
    try:
        return restore_backup(archive, settings.database, _files_dir(settings))
    except StoreError as exc:
        raise InputError(Text(str(exc), str(exc)), code="restore_failed") from exc

