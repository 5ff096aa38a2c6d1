"""Everything a front end decides for the services: which database, which language, which
calendar, what time it is, and who is acting. Passed in, never read from the environment below
the entry points (``settings_from_environment`` is for those entry points only).

Database precedence (documented in the README): an explicit option, then ``YISAI_DATABASE_URL``,
then ``YISAI_DB``, then ``./yisai.sqlite``.
"""

from __future__ import annotations

import getpass
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

from yisai.i18n import Text, normalise
from yisai.qualifier.notices import NoticeLimits
from yisai.services.errors import InputError
from yisai.services.identity import Actor, Role
from yisai.services.payments.registry import Providers

BEIJING = ZoneInfo("Asia/Shanghai")
DEFAULT_DATABASE = "yisai.sqlite"


def beijing_now() -> datetime:
    """Beijing wall time (naive, whole seconds): the clock the regulations are written in."""
    return datetime.now(BEIJING).replace(tzinfo=None, microsecond=0)


def fixed_clock(moment: datetime) -> Callable[[], datetime]:
    return lambda: moment


def running_clock(moment: datetime) -> Callable[[], datetime]:
    """A clock that starts at ``moment`` and runs (a local qualifier inside a past period)."""
    import time

    began = time.monotonic()
    return lambda: (moment + timedelta(seconds=time.monotonic() - began)).replace(microsecond=0)


@dataclass(frozen=True)
class Settings:
    database: str = DEFAULT_DATABASE  # a path or a sqlite/postgresql URL
    language: str = "zh"
    calendar_file: Path | None = None  # working-day overrides (years chinese-calendar lacks)
    clock: Callable[[], datetime] = field(default=beijing_now, compare=False)
    actor: Actor = field(default_factory=Actor.system)
    auto_upgrade: bool = True  # migrate a brand-new SQLite file on open (never an existing one)
    must_exist: bool = False  # refuse a SQLite file that is not there (commands that create nothing)
    files_dir: Path | None = None  # uploaded papers; default: a folder next to the SQLite file
    notice_limits: NoticeLimits = field(default_factory=NoticeLimits)  # SMS limits (yisai.reach.config)
    # the payment providers configured at the entry point (services.payments.registry); none: manual only
    payments: Providers = field(default_factory=Providers, compare=False, repr=False)


def database_from(option: str | None, env: Mapping[str, str]) -> str:
    """The one precedence: option > YISAI_DATABASE_URL > YISAI_DB > ./yisai.sqlite."""
    return (
        option
        or env.get("YISAI_DATABASE_URL")
        or env.get("YISAI_DB")
        or DEFAULT_DATABASE
    )


def _os_user() -> str:
    try:
        return getpass.getuser()
    except Exception:  # no user name in some containers
        return "unknown"


def clock_from(text: str | None, *, running: bool = False) -> Callable[[], datetime]:
    """``YISAI_NOW`` (ISO) replays a registration as of a date; otherwise Beijing wall time.
    ``running`` (``YISAI_NOW_RUNS=1``): the clock starts at that moment and runs on."""
    if not text:
        return beijing_now
    try:
        moment = datetime.fromisoformat(text).replace(tzinfo=None)
    except ValueError:
        raise InputError(
            Text(f"YISAI_NOW 不是有效的时间: {text} (应为如 2025-04-10T09:00)",
                 f"YISAI_NOW is not a valid time: {text} (e.g. 2025-04-10T09:00)"),
            code="bad_clock",
        ) from None
    return running_clock(moment) if running else fixed_clock(moment)


def settings_from_environment(
    env: Mapping[str, str],
    *,
    database: str | None = None,
    language: str | None = None,
    actor: str | None = None,
    role: str | None = None,
) -> Settings:
    """What an entry point (CLI, server) builds from its options and environment variables."""
    who = actor or env.get("YISAI_ACTOR") or _os_user()
    try:
        chosen_role = Role.parse(role or env.get("YISAI_ROLE") or Role.CHIEF_REFEREE.value)
    except ValueError:
        raise InputError(
            Text(f"未知角色: {role} (允许: {', '.join(r.value for r in Role)})",
                 f"unknown role: {role} (allowed: {', '.join(r.value for r in Role)})"),
            code="bad_role",
        ) from None
    calendar = env.get("YISAI_CALENDAR")
    return Settings(
        database=database_from(database, env),
        language=normalise(language or env.get("YISAI_LANG")),
        calendar_file=Path(calendar) if calendar else None,
        clock=clock_from(env.get("YISAI_NOW"), running=env.get("YISAI_NOW_RUNS") == "1"),
        actor=Actor.cli(who, chosen_role),
        files_dir=Path(files) if (files := env.get("YISAI_FILES")) else None,
    )
