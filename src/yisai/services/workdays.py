"""China's working-day calendar (法定节假日与调休) for deadlines such as "十个工作日内".

Backed by the chinese-calendar package, which knows the State Council's arrangements for the
years it ships (2004–2026 at the time of writing). Later years are announced each winter; until
the package knows them, put the arrangement in a TOML file named by ``YISAI_CALENDAR``:

    holidays = [2027-01-01, 2027-02-06]   # days off that would be working days
    workdays = [2027-02-14]               # 调休: weekend days that are working days

A year that neither knows is an error, never a silent guess.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable
from datetime import date
from functools import lru_cache
from pathlib import Path

import chinese_calendar

from yisai.i18n import Text
from yisai.services.context import InputError


@lru_cache(maxsize=4)
def _overrides(path: str | None) -> tuple[dict[date, bool], set[int]]:
    if not path:
        return {}, set()
    try:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise InputError(Text(f"无法读取工作日历文件 {path}: {exc}", f"cannot read the calendar file {path}: {exc}"),
                         code="calendar_unreadable", params={"file": path}) from None
    table: dict[date, bool] = {}
    for key, working in (("holidays", False), ("workdays", True)):
        for i, d in enumerate(data.get(key, [])):
            if not isinstance(d, date):
                raise InputError(Text(f"{path}: {key}[{i}] 应为日期 (YYYY-MM-DD): {d!r}",
                                      f"{path}: {key}[{i}] must be a date (YYYY-MM-DD): {d!r}"),
                                 code="bad_calendar", params={"file": path})
            table[d] = working
    return table, {d.year for d in table}


def china_workday_calendar(path: str | Path | None = None) -> Callable[[date], bool]:
    """``is_workday(day)`` with the overrides file (``Settings.calendar_file``) applied first."""
    table, years = _overrides(str(path) if path else None)

    def is_workday(day: date) -> bool:
        if day in table:
            return table[day]
        try:
            return bool(chinese_calendar.is_workday(day))
        except NotImplementedError:
            if day.year in years:  # the file describes this year: unlisted days follow the week
                return day.weekday() < 5
            raise InputError(
                Text(f"没有{day.year}年的法定节假日安排: 请在 YISAI_CALENDAR 指定的 TOML 文件中写明"
                     f"该年的 holidays 与 workdays (调休), 或升级 chinese-calendar",
                     f"no public holiday arrangement for {day.year}: write that year's holidays and "
                     "workdays (调休) in the TOML file named by YISAI_CALENDAR, or upgrade "
                     "chinese-calendar"),
                code="calendar_year_unknown", params={"year": day.year},
            ) from None

    return is_workday
