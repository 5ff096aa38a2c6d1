"""Importing rosters through the registration service: all or nothing, and never twice."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from pathlib import Path

import pytest

from tests.conftest import REGULATIONS
from tests.formats.roster_files import write_csv, write_xls, write_xlsx, xqw_rows
from yisai.registry.entry import EntryStatus
from yisai.services import events, roster_import, teams
from yisai.services.context import Context, InputError, Refused, open_context
from yisai.store import EventRecord, roster_rows, team_rows


def upload(path: Path) -> tuple[bytes, str]:
    """What a front end hands the service: the file's bytes and its name."""
    return path.read_bytes(), path.name


@pytest.fixture
def ctx(tmp_path) -> Iterator[Context]:  # type: ignore[no-untyped-def]
    with open_context(str(tmp_path / "t.sqlite"), actor="裁判", now=lambda: datetime(2025, 4, 10, 9)) as c:
        yield c


@pytest.fixture
def event(ctx: Context) -> EventRecord:
    with ctx.work() as w:
        return events.create_event(w, REGULATIONS / "2025-xiaoqiwang.toml", seed=1)


def counts(ctx: Context, ev: EventRecord) -> tuple[int, int, int]:
    with ctx.work() as w:
        return (len(roster_rows.list_players(w.session, ev.id)), len(roster_rows.list_entries(w.session, ev.id)), len(team_rows.list_teams(w.session, ev.id)))


def test_good_file_imports_players_entries_and_the_team(ctx: Context, event: EventRecord, tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = write_xlsx(tmp_path / "浙江队.xlsx", xqw_rows())
    with ctx.work() as w:
        report = roster_import.import_roster(w, event, *upload(path))
    assert (report.rows, report.players_created, report.entries_created, report.teams_created) == (6, 6, 6, 1)
    assert report.ineligible == []
    with ctx.work() as w:
        [team] = teams.list_teams(w, event)
        assert [m.slot for m in team.team.members] == ["甲组男", "甲组女", "乙组男", "乙组女", "丙组男", "丙组女"]
        assert team.team.leaders == ("周领队",) and team.team.province == "浙江省"
        assert all(e.status is EntryStatus.APPROVED for e in roster_rows.list_entries(w.session, event.id))


@pytest.mark.parametrize("writer", ["xlsx", "xls", "csv-gb18030"])
def test_importing_the_same_file_twice_duplicates_nobody(ctx: Context, event: EventRecord, tmp_path, writer: str) -> None:  # type: ignore[no-untyped-def]
    rows = xqw_rows()
    path = {
        "xlsx": lambda: write_xlsx(tmp_path / "r.xlsx", rows),
        "xls": lambda: write_xls(tmp_path / "r.xls", rows),
        "csv-gb18030": lambda: write_csv(tmp_path / "r.csv", rows, "gb18030"),
    }[writer]()
    for _ in range(2):
        with ctx.work() as w:
            roster_import.import_roster(w, event, *upload(path))
    assert counts(ctx, event) == (6, 6, 1)
    with ctx.work() as w:
        second = roster_import.import_roster(w, event, *upload(path))
    assert (second.players_created, second.entries_created, second.teams_created, second.members_added) == (0, 0, 0, 0)


def test_match_on_name_and_birth_date_without_id(ctx: Context, event: EventRecord, tmp_path) -> None:  # type: ignore[no-untyped-def]
    rows = [[*r[:4], "", *r[5:]] for r in xqw_rows()]  # no ID numbers at all
    path = write_csv(tmp_path / "r.csv", rows, "utf-8-sig")
    for _ in range(2):
        with ctx.work() as w:
            roster_import.import_roster(w, event, *upload(path))
    assert counts(ctx, event) == (6, 6, 1)
    # A later file with ID numbers updates the same people instead of adding new ones.
    with ctx.work() as w:
        roster_import.import_roster(w, event, *upload(write_csv(tmp_path / "ids.csv", xqw_rows(), "utf-8")))
    assert counts(ctx, event) == (6, 6, 1)
    with ctx.work() as w:
        assert all(p.id_number for p in roster_rows.list_players(w.session, event.id))


def test_a_file_with_one_bad_row_imports_nothing(ctx: Context, event: EventRecord, tmp_path) -> None:  # type: ignore[no-untyped-def]
    rows = xqw_rows()
    rows[5][3] = "2019/13/01"
    path = write_xlsx(tmp_path / "r.xlsx", rows)
    with pytest.raises(InputError) as err, ctx.work() as w:
        roster_import.import_roster(w, event, *upload(path))
    assert err.value.message == "r.xlsx 有1处错误, 未导入任何数据"
    assert err.value.details == ["报名表 第7行 D列(出生日期): 2019/13/01不是存在的日期, 请写成如 2012-05-01"]
    assert counts(ctx, event) == (0, 0, 0)


def test_a_team_breaking_its_rules_imports_nothing(ctx: Context, event: EventRecord, tmp_path) -> None:  # type: ignore[no-untyped-def]
    rows = xqw_rows()
    rows[1][13] = "另一位领队"  # two different leaders named for 浙江队
    with pytest.raises(Refused) as err, ctx.work() as w:
        roster_import.import_roster(w, event, *upload(write_xlsx(tmp_path / "r.xlsx", rows)))
    assert err.value.details == ["浙江队(第2、3、4、5、6、7行): 领队2人(周领队、另一位领队), 超过限报1人"]
    assert counts(ctx, event) == (0, 0, 0)


def test_ineligible_rows_import_as_pending_with_reasons(ctx: Context, event: EventRecord, tmp_path) -> None:  # type: ignore[no-untyped-def]
    rows = xqw_rows()
    rows[0][6] = ""  # no certificate
    with ctx.work() as w:
        report = roster_import.import_roster(w, event, *upload(write_csv(tmp_path / "r.csv", rows, "utf-8")))
    assert report.entries_pending == 1
    assert report.ineligible == ["陈浩然(甲组): 缺少中国围棋协会监制的业余段级位证书(请填写证书编号)"]


def test_team_import_requires_a_team_name_on_every_row(ctx: Context, event: EventRecord, tmp_path) -> None:  # type: ignore[no-untyped-def]
    rows = xqw_rows()
    rows[2][12] = ""
    with pytest.raises(InputError) as err, ctx.work() as w:
        roster_import.import_roster(w, event, *upload(write_csv(tmp_path / "r.csv", rows, "utf-8")), require_team=True)
    assert err.value.details == ["r.csv 第4行: 缺少队名, 导入队伍时每行都须填写“队名”"]
    assert counts(ctx, event) == (0, 0, 0)
