"""Operator jobs on the store itself: schema upgrades (role-checked like every write)."""

from __future__ import annotations

from yisai.i18n import Text
from yisai.services.errors import InputError
from yisai.services.identity import Action
from yisai.services.settings import Settings
from yisai.store import StoreError, upgrade_database


def upgrade(settings: Settings) -> tuple[str | None, str]:
    """Migrate the settings' database to head: (revision before, revision after)."""
    settings.actor.require(Action.MIGRATE)
    try:
        return upgrade_database(settings.database)
    except StoreError as exc:
        raise InputError(Text(str(exc), str(exc)), code="upgrade_failed") from exc
