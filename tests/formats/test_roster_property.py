"""Whatever people type into a roster, parsing ends in rows or located issues, never a crash."""

from __future__ import annotations

from datetime import date, datetime

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import REGULATIONS
from tests.formats.roster_files import HEADERS, xqw_rows
from yisai.formats.regulation_file import load
from yisai.formats.roster import Sheet, parse_sheets

REG = load(REGULATIONS / "2025-xiaoqiwang.toml")

cells = st.one_of(
    st.none(),
    st.text(max_size=20),
    st.integers(min_value=-(10**20), max_value=10**20),
    st.floats(allow_nan=True, allow_infinity=True),
    st.booleans(),
    st.dates(min_value=date(1, 1, 1)),
    st.datetimes(min_value=datetime(1, 1, 1)),
    st.sampled_from(["男", "女", "5段", "30级", "甲组", "2013-02-29", "11010519491231002X", "是"]),
)


@settings(max_examples=150, deadline=None)
@given(column=st.integers(min_value=0, max_value=len(HEADERS) - 1), row=st.integers(0, 5), value=cells)
def test_any_cell_value_gives_rows_or_issues(column: int, row: int, value: object) -> None:
    rows = xqw_rows()
    rows[row][column] = value
    roster = parse_sheets([Sheet("报名表", [HEADERS, *rows])], REG)
    assert len(roster.rows) + len({i.row for i in roster.issues}) >= 5
    for issue in roster.issues:
        assert issue.sheet == "报名表" and issue.row >= 2 and issue.message
