"""``yisai event export`` / ``yisai event import``: one event from one store to another (the
venue laptop to the public server and back), role-checked, with its uploaded papers; the rows
themselves are copied by ``store.portable``."""

from __future__ import annotations

from pathlib import Path

from yisai.services.context import unit_of_work
from yisai.services.errors import InputError
from yisai.services.events import resolve_event
from yisai.services.identity import Action
from yisai.services.settings import Settings
from yisai.store import StoreError, audit_rows
from yisai.store.files import default_files_dir
from yisai.store.portable import Exported, export_event, import_event


def _files_root(settings: Settings) -> Path:
    return settings.files_dir or default_files_dir(settings.database)


def export(settings: Settings, event_ref: str | int | None, target: Path) -> tuple[int, Exported]:
    """Write the event to ``target``: (its id, what was written and what was left out). The
    file holds personal data (ID numbers, phones) like the database: officials only."""
    settings.actor.require(Action.MIGRATE)
    with unit_of_work(settings) as work:
        event_id = resolve_event(work, event_ref).id
    try:
        return event_id, export_event(settings.database, event_id, _files_root(settings), target)
    except StoreError as exc:
        raise InputError(exc.text, code="export_failed") from exc


def import_file(settings: Settings, path: Path) -> tuple[int, dict[str, int]]:
    """Read an exported event into this store with new ids (one transaction); then the import
    goes on the new event's audit log (one line, naming the file)."""
    settings.actor.require(Action.MIGRATE)
    try:
        event_id, counts = import_event(settings.database, path, _files_root(settings))
    except StoreError as exc:
        raise InputError(exc.text, code="import_failed") from exc
    with unit_of_work(settings) as work:
        audit_rows.audit(work.session, work.stamp, event_id, "import", "event", event_id, None, {"file": path.name, "rows": counts})
    return event_id, counts
