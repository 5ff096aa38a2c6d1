"""十个工作日内: deadlines over China's statutory holidays and 调休 (hand-counted from the State
Council's published 2025 arrangement)."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.conftest import REGULATIONS
from yisai.awards.qualifier import confirm_deadline
from yisai.cli.app import app
from yisai.services.context import InputError
from yisai.services.workdays import china_workday_calendar


def test_plain_weeks() -> None:
    # Period 6 ends Wed 2025-09-03: Sep 4,5,8,9,10,11,12,15,16,17 → the 10th is Sep 17.
    assert confirm_deadline(date(2025, 9, 3), 10, china_workday_calendar("")) == date(2025, 9, 17)


def test_dragon_boat_holiday_is_skipped() -> None:
    # Period 1 ends Sun 2025-05-25; May 31–Jun 2 off (端午): May 26–30 (5), Jun 3–6 (9), Jun 9 (10).
    assert confirm_deadline(date(2025, 5, 25), 10, china_workday_calendar("")) == date(2025, 6, 9)


def test_national_day_with_weekend_makeup_days() -> None:
    # 2025: Oct 1–8 off; Sun Sep 28 and Sat Oct 11 are working days (调休).
    # From Fri Sep 26: Sep 28, 29, 30, Oct 9, 10, 11, 13, 14, 15, 16 → Oct 16.
    cal = china_workday_calendar("")
    assert cal(date(2025, 9, 28)) and cal(date(2025, 10, 11)) and not cal(date(2025, 10, 8))
    assert confirm_deadline(date(2025, 9, 26), 10, cal) == date(2025, 10, 16)


def test_unknown_year_fails_loudly_and_an_override_file_fills_it(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="没有2099年的法定节假日安排"):
        confirm_deadline(date(2099, 1, 1), 3, china_workday_calendar(""))
    f = tmp_path / "cal.toml"
    f.write_text("holidays = [2099-01-02]\nworkdays = [2099-01-03]\n", encoding="utf-8")
    cal = china_workday_calendar(str(f))
    # 2099-01-01 is a Thursday: Fri 2 is a holiday, Sat 3 a make-up day, then Mon 5.
    assert confirm_deadline(date(2099, 1, 1), 2, cal) == date(2099, 1, 5)


def test_cli_prints_every_period() -> None:
    r = CliRunner().invoke(app, ["qualifier", "deadlines", "--regulation",
                                 str(REGULATIONS / "2025-shanhai-cup.toml")])
    assert r.exit_code == 0, r.output
    # counted from the day each list can be published, the day after the period's last day (as
    # the places count): period 1 from Mon 2025-05-26: May 27–30 (4), Jun 3–6 (8), Jun 9, 10;
    # period 6 from Thu Sep 4: Sep 5, 8–12, 15–18 → Sep 18
    assert "│ 2025-05-26 │ 2025-06-10" in r.output and "│ 2025-09-04 │ 2025-09-18" in r.output
    assert "10个工作日" in r.output
