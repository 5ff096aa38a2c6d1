"""Service errors as data: a stable code, parameters, and the message in both languages.

Front ends decide how to show them: the CLI prints ``render(lang)`` and exits with ``exit_code``
(2 bad input, 1 refused by the regulation or by someone else's change); the web answers with
``status`` and the message in the request's language; the API returns ``as_dict()``.

What the user can do about it is a ``Hint`` kind, never words: the CLI words it with its flags
(``--force --note``), the web with its buttons and fields (cli/hints.py, web/hints.py), so no
page ever tells a director to type a command-line option.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from enum import StrEnum
from typing import Any, ClassVar

from yisai.i18n import Text


def _text(message: str | Text, en: str | None) -> Text:
    if isinstance(message, Text):
        return message
    return Text(message, en if en is not None else message)


class Hint(StrEnum):
    """What the user may do next, as data; each front end words it (cli/hints.py, web/hints.py)."""

    FORCE_APPROVE = "force_approve"  # the chief referee may approve anyway, with a note
    NOTE = "note"  # say why in a note (forced approval, forced team, replacement, late upload)
    REASON = "reason"  # a rejection needs its reason
    FORCE_IMPORT = "force_import"  # the chief referee may import the teams anyway, with a note
    LATE_IMPORT = "late_import"  # only the deadline stands in the way: the chief referee may admit it late
    OVER_CAPACITY = "over_capacity"  # the limit of entries is reached: the chief referee may admit over it
    REPLACE = "replace"  # pair a round without results again
    GROUP = "group"  # name the group (several groups share the board numbers)
    CHANGE = "change"  # allow changing a result already entered
    DIVISION = "division"  # choose the division
    EVENT = "event"  # choose the event
    CREATE_EVENT = "create_event"  # the store has no event yet
    UPGRADE_DB = "upgrade_db"  # the database schema is behind the program
    PASSWORD = "password"  # give the password the way this front end takes it
    SET_ROUNDS = "set_rounds"  # the chief referee sets a division's round count first
    LIST_PLAYERS = "list_players"  # where to find a player's number
    LIST_TEAMS = "list_teams"  # where to find the teams
    LIST_EVENTS = "list_events"  # where to find the events
    SIMULATE_QUALIFIER = "simulate_qualifier"  # an online ladder is simulated a period at a time


class ServiceError(Exception):
    """A use case cannot be done. ``str()`` is the message in the caller's language."""

    exit_code: ClassVar[int] = 2
    status: ClassVar[int] = 400
    default_code: ClassVar[str] = "error"

    def __init__(
        self,
        message: str | Text,
        details: Iterable[str | Text] | None = None,
        *,
        en: str | None = None,
        code: str | None = None,
        params: Mapping[str, Any] | None = None,
        hint: Hint | None = None,
    ) -> None:
        self.text = _text(message, en)
        self.hint = hint
        self.detail_texts = [d if isinstance(d, Text) else Text(d, d) for d in details or ()]
        self.code = code or self.default_code
        self.params = dict(params or {})
        super().__init__(self.text.zh)

    def render(self, lang: str | None = None) -> str:
        return self.text.render(lang)

    def render_details(self, lang: str | None = None) -> list[str]:
        return [d.render(lang) for d in self.detail_texts]

    @property
    def message(self) -> str:
        return self.render()

    @property
    def details(self) -> list[str]:
        return self.render_details()

    def __str__(self) -> str:
        return self.render()

    def as_dict(self, lang: str | None = None) -> dict[str, Any]:
        return {
            "code": self.code,
            "params": self.params,
            "hint": self.hint.value if self.hint else None,
            "message": self.render(lang),
            "details": self.render_details(lang),
        }


class InputError(ServiceError):
    """Bad input (file, option, reference): exit code 2."""

    default_code = "bad_input"


class NotFoundError(InputError):
    """The referenced event, player, round or board does not exist."""

    default_code = "not_found"
    status = 404


class Refused(ServiceError):
    """Input understood but the regulation says no (ineligible, composition broken): exit 1.

    ``details`` lists every reason; the director may override with ``force`` and a note.
    """

    exit_code = 1
    status = 409
    default_code = "refused"


class Conflict(Refused):
    """Someone else changed the thing meanwhile (a result, a round being paired): reload, retry."""

    default_code = "conflict"


class Forbidden(ServiceError):
    """The actor's role does not allow this action."""

    exit_code = 1
    status = 403
    default_code = "forbidden"


class StoreFailed(Exception):
    """The database refused or lost the unit of work (nothing of it was saved). Not a
    ``ServiceError``: it is no verdict on the request, and a web request answers it as any
    unexpected failure. ``kind`` names the database's error, ``detail`` its own words,
    ``full`` the whole error; the CLI words it and exits 1."""

    exit_code: ClassVar[int] = 1

    def __init__(self, kind: str, detail: str, full: str) -> None:
        self.kind, self.detail, self.full = kind, detail, full
        super().__init__(full)
