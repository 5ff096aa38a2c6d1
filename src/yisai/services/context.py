"""Units of work: one front-end command = one transaction, with who is acting and when.

Every service function takes a ``Work`` as its first argument and never commits; the caller's
``with`` block commits when it ends normally and rolls everything back on any exception, so a
failed command leaves nothing half-saved. A write checks the actor's role (``work.require``)
and records what it changed (``work.emit``): after the commit the front end publishes
``work.events`` (the web pushes them to pages, the live server to players).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path
from typing import Any

from sqlalchemy.orm import Session

from yisai.i18n import Text
from yisai.services.errors import (
    Conflict,
    Forbidden,
    Hint,
    InputError,
    Refused,
    ServiceError,
    StoreFailed,
)
from yisai.services.identity import Action, Actor
from yisai.services.settings import BEIJING, Settings, fixed_clock
from yisai.store import (
    Database,
    DatabaseFailure,
    SchemaOutdated,
    StoreError,
    open_database,
)
from yisai.store.audit_rows import WRITTEN
from yisai.store.records import Stamp

write_log = logging.getLogger("yisai.writes")

__all__ = [
    "BEIJING",
    "Conflict",
    "Context",
    "DomainEvent",
    "Forbidden",
    "InputError",
    "Refused",
    "ServiceError",
    "Work",
    "open_context",
    "unit_of_work",
]


@dataclass(frozen=True)
class DomainEvent:
    """What a write changed, for the web and live servers to publish after the commit."""

    kind: str  # round_paired, result_recorded, entry_approved, event_created, ...
    event_id: int | None
    data: dict[str, Any] = field(default_factory=dict)


@dataclass
class Work:
    """One open transaction: the session, the actor and the time."""

    session: Session
    actor: Actor
    now: datetime
    settings: Settings
    events: list[DomainEvent] = field(default_factory=list)

    def require(self, action: Action, event_id: int | None = None) -> None:
        """The actor's role may do ``action`` (and, given ``event_id``, in that event)."""
        self.actor.require(action)
        self.actor.check_event(event_id)

    def check_event(self, event_id: int | None) -> None:
        """An account limited to one event (``--event``) is refused any other."""
        self.actor.check_event(event_id)

    def emit(self, kind: str, event_id: int | None, **data: Any) -> DomainEvent:
        ev = DomainEvent(kind, event_id, data)
        self.events.append(ev)
        return ev

    @property
    def stamp(self) -> Stamp:
        """Who writes and when, for a row module's write (``x_rows.fn(work.session, work.stamp, …)``)."""
        return Stamp(self.actor.audit_name, self.now)

    @property
    def calendar_file(self) -> Path | None:
        return self.settings.calendar_file


class Context:
    """An opened store plus the settings every unit of work runs with."""

    def __init__(self, database: Database, settings: Settings) -> None:
        self.database = database
        self.settings = settings

    @property
    def actor(self) -> Actor:
        return self.settings.actor

    @contextmanager
    def work(self, actor: Actor | None = None) -> Iterator[Work]:
        who = actor or self.settings.actor
        moment = self.settings.clock()
        try:
            with self.database.session() as session:
                if who.id.startswith("cli:"):
                    who = _account_scope(session, who)
                if who.event is not None:
                    guard_event_scope(session, who)
                yield Work(session, who, moment, self.settings)
                written = session.info.pop(WRITTEN, [])
        except DatabaseFailure as exc:  # the store's own error, in the services' words
            raise StoreFailed(exc.kind, exc.detail, exc.full) from exc
        _log_writes(who, written)  # committed: one line per audited write

    def close(self) -> None:
        self.database.dispose()

    def __enter__(self) -> Context:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _log_writes(who: Actor, written: list[tuple[int | None, str, str, str]]) -> None:
    """One log line per committed write, naming the actor by id (``cli:LOGIN``, an account's
    number, ``system``, ``public``), the action and the row: never the values written."""
    if not written or not write_log.isEnabledFor(logging.INFO):
        return
    for event_id, action, entity, entity_id in written:
        write_log.info("write %s %s %s event=%s actor=%s", action, entity, entity_id, event_id, who.id,
                       extra={"actor": who.id, "action": action, "entity": entity, "entity_id": entity_id,
                              "event": event_id})


def _account_scope(session: Session, who: Actor) -> Actor:
    """A command-line actor named like an account (``--actor ref1``) keeps that account's limits:
    its event, and for a 领队 its teams. The role stays the one the command line gives."""
    from yisai.store import account_rows

    found = account_rows.find_user(session, who.name)
    if found is None or found[0].role == "player":
        return who
    user = found[0]
    teams = frozenset(str(t) for t in account_rows.teams_of_account(session, user.id))
    return replace(who, event=user.event_id, team=str(user.team_id) if user.team_id is not None else None,
                   teams=teams, max_teams=user.max_teams)


def guard_event_scope(session: Session, who: Actor) -> None:
    """The last line behind every service's own check: whatever a unit of work writes for an
    account limited to one event must belong to that event. Any row with an ``event_id`` (new,
    changed or deleted; audit lines included, and every write is audited) naming another event
    makes the flush, and so the whole unit of work, fail with ``Forbidden``."""
    from sqlalchemy import event as sa_event

    def check(s: Session, _context: object, _instances: object) -> None:
        for obj in [*s.new, *s.dirty, *s.deleted]:
            event_id = getattr(obj, "event_id", None)
            if isinstance(event_id, int):
                who.check_event(event_id)

    sa_event.listen(session, "before_flush", check)


def _settings(
    where: Settings | str | None,
    actor: Actor | str | None,
    now: Callable[[], datetime] | datetime | None,
) -> Settings:
    settings = where if isinstance(where, Settings) else Settings(database=where or Settings().database)
    if actor is not None:
        settings = replace(settings, actor=actor if isinstance(actor, Actor) else Actor.cli(actor))
    if now is not None:
        settings = replace(settings, clock=fixed_clock(now) if isinstance(now, datetime) else now)
    return settings


def open_context(
    where: Settings | str | None = None,
    *,
    actor: Actor | str | None = None,
    now: Callable[[], datetime] | datetime | None = None,
) -> Context:
    """Open the store named by ``where`` (settings, or a path/URL with the default settings).

    A plain string actor is a CLI user acting as chief referee.
    """
    settings = _settings(where, actor, now)
    try:
        return Context(open_database(settings.database, auto_upgrade=settings.auto_upgrade,
                                     must_exist=settings.must_exist), settings)
    except SchemaOutdated as exc:
        raise InputError(
            Text(f"数据库结构版本为 {exc.current or '空'}, 程序需要 {exc.head}",
                 f"the database schema is {exc.current or 'empty'}, the program needs {exc.head}"),
            code="schema_outdated", params={"current": exc.current, "head": exc.head, "database": exc.url},
            hint=Hint.UPGRADE_DB,
        ) from exc
    except StoreError as exc:
        raise InputError(exc.text, code="store_unavailable") from exc


@contextmanager
def unit_of_work(
    where: Settings | str | None = None,
    *,
    actor: Actor | str | None = None,
    now: Callable[[], datetime] | datetime | None = None,
) -> Iterator[Work]:
    """Open the store, run one transaction, close: what a single CLI command needs."""
    with open_context(where, actor=actor, now=now) as ctx, ctx.work() as work:
        yield work

