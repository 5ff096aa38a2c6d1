"""Operator jobs on the store itself: schema upgrades (role-checked like every write), and the
scratch schemas benchmarks and simulations write into instead of a database with real events."""

from __future__ import annotations

from yisai.i18n import Text
from yisai.services.errors import InputError
from yisai.services.identity import Action
from yisai.services.settings import Settings
from yisai.store import StoreError, upgrade_database
from yisai.store.database import drop_schema, fresh_schema, prepare_mappers, shown_url


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



def shown_database(url: str) -> str:
    """A database address as a message may show it: the password hidden."""
    return shown_url(url)


def preload() -> None:
    """Load the store and configure its mappers now: a resident process does it once before
    it forks, so its children start with them ready."""
    prepare_mappers()
