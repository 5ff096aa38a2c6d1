"""The store's errors (shared by every row module) and the numbered-row lookup that raises them."""

from __future__ import annotations

from typing import TypeVar

from sqlalchemy.orm import Session

from yisai.i18n import Text
from yisai.record import Game

T = TypeVar("T")


def _as_text(message: str | Text) -> Text:
    return message if isinstance(message, Text) else Text(message, message)


class DatabaseFailure(Exception):
    """The database refused or lost a transaction (the driver's or SQLAlchemy's own error,
    translated at the session's edge so no caller above the store names ``sqlalchemy``).

    ``kind`` is the original error's class name, ``detail`` the driver's own words when it
    gave them (else the whole error), ``full`` the whole error as SQLAlchemy words it."""

    def __init__(self, kind: str, detail: str, full: str) -> None:
        self.kind, self.detail, self.full = kind, detail, full
        super().__init__(full)


class NotFound(LookupError):
    """A referenced row does not exist; names what was asked for.

    ``text`` holds the message in both languages (services hand it on to their own errors);
    ``str()`` is the Chinese text, as it always was.
    """

    def __init__(self, message: str | Text) -> None:
        self.text = _as_text(message)
        super().__init__(self.text.zh)


class Conflict(ValueError):
    """A change would break a uniqueness or state rule; the message says which (``text``: both
    languages, ``str()``: Chinese)."""

    def __init__(self, message: str | Text) -> None:
        self.text = _as_text(message)
        super().__init__(self.text.zh)


class StaleVersion(Conflict):
    """Someone else changed the row after the caller read it (optimistic concurrency)."""

    def __init__(self, message: str | Text, current: Game | None = None) -> None:
        super().__init__(message)
        self.current = current


def by_number(s: Session, model: type[T], ident: str | int, what: str, what_en: str) -> T:
    """The row numbered ``ident``, or NotFound naming ``what`` (报名, 队伍 …) in Chinese."""
    try:
        key = int(ident)
    except (TypeError, ValueError):
        raise NotFound(Text(f"{what}编号应为数字: {ident!r}",
                            f"the {what_en} number must be a number: {ident!r}")) from None
    row = s.get(model, key)
    if row is None:
        raise NotFound(Text(f"没有编号为{ident}的{what}", f"no {what_en} numbered {ident}"))
    return row
