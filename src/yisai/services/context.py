"""Units of work: one front-end command = one transaction, with who is acting and when.

Every service function takes a ``Work`` as its first argument and never commits; the caller's
``with`` block commits when it ends normally and rolls everything back on any exception, so a
failed command leaves nothing half-saved.
"""

from __future__ import annotations

import getpass
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from zoneinfo import ZoneInfo

from sqlalchemy.orm import Session

from yisai.store import Database, Repository, StoreError, open_database

BEIJING = ZoneInfo("Asia/Shanghai")


class ServiceError(Exception):
    """A command cannot be done; ``str()`` is the Chinese message for the user."""

    exit_code = 2

    def __init__(self, message: str, details: list[str] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.details = list(details or [])


class InputError(ServiceError):
    """Bad input (file, option, reference): exit code 2."""


class Refused(ServiceError):
    """Input understood but the regulation says no (ineligible, composition broken): exit 1.

    ``details`` lists every reason; the director may override with ``force`` and a note.
    """

    exit_code = 1


def clock() -> datetime:
    """Beijing wall time (naive), or ``YISAI_NOW`` (ISO) to replay a registration as of a date."""
    fixed = os.environ.get("YISAI_NOW")
    if fixed:
        try:
            return datetime.fromisoformat(fixed).replace(tzinfo=None)
        except ValueError:
            raise InputError(f"YISAI_NOW 不是有效的时间: {fixed} (应为如 2025-04-10T09:00)") from None
    return datetime.now(BEIJING).replace(tzinfo=None, microsecond=0)


def default_actor() -> str:
    explicit = os.environ.get("YISAI_ACTOR")
    if explicit:
        return explicit
    try:
        return getpass.getuser()
    except Exception:  # no user name in some containers
        return "unknown"


@dataclass
class Work:
    """One open transaction: the session, the repository bound to it, the actor and the time."""

    session: Session
    repo: Repository
    actor: str
    now: datetime


class Context:
    """An opened store plus the actor and clock every unit of work stamps its changes with."""

    def __init__(
        self, database: Database, actor: str | None = None, now: Callable[[], datetime] | None = None
    ) -> None:
        self.database = database
        self.actor = actor or default_actor()
        self._now = now or clock

    @contextmanager
    def work(self, actor: str | None = None) -> Iterator[Work]:
        moment = self._now()
        with self.database.session() as session:
            who = actor or self.actor
            yield Work(session, Repository(session, who, moment), who, moment)

    def close(self) -> None:
        self.database.dispose()

    def __enter__(self) -> Context:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def open_context(
    db: str | None = None, *, actor: str | None = None, now: Callable[[], datetime] | None = None
) -> Context:
    """``db`` is a path or URL; None means ``YISAI_DATABASE_URL``, ``YISAI_DB``, ./yisai.sqlite."""
    try:
        return Context(open_database(db), actor, now)
    except StoreError as exc:
        raise InputError(str(exc)) from exc


@contextmanager
def unit_of_work(
    db: str | None = None, *, actor: str | None = None, now: Callable[[], datetime] | None = None
) -> Iterator[Work]:
    """Open the store, run one transaction, close: what a single CLI command needs."""
    with open_context(db, actor=actor, now=now) as ctx, ctx.work() as work:
        yield work
