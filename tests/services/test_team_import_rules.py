"""Team rosters through the import service: 计划单列市 teams (seed 002) and the city team's
extra players entered as individuals (seed 000 十一(二)2)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date, datetime
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import REGULATIONS
from tests.formats.roster_files import team_rows, write_csv
from tests.idnumbers import make_id_number
from yisai.cli.hints import cli_message
from yisai.registry.entry import EntryStatus
from yisai.registry.person import Gender, Player
from yisai.services import entries, events, roster_import, teams, withdrawal
from yisai.services.context import Context, Refused, open_context
from yisai.store import audit_rows, event_rows, round_rows
from yisai.vocabulary.rank import Rank


@pytest.fixture
def ctx(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[Context]:
    """Seed 002 registers until 2025-04-18 17:00; seed 000's city teams 6/1–10/8."""
    when = datetime(2025, 7, 1, 9) if "city_roster" in request.node.name else datetime(2025, 4, 10, 9)
    with open_context(str(tmp_path / "t.sqlite"), actor="裁判长", now=when) as c:
        yield c


def test_a_planned_city_fields_its_own_team_beside_its_province(ctx: Context, tmp_path: Path) -> None:
    rows = team_rows("辽宁队", "辽宁省", "沈阳", "210102", 1)
    rows += team_rows("大连队", "辽宁省", "大连", "210202", 2)
    path = write_csv(tmp_path / "r.csv", rows, "utf-8")
    with ctx.work() as w:
        event = events.create_event(w, REGULATIONS / "2025-xiaoqiwang.toml", seed=3)
    with ctx.work() as w:
        w_event = events.resolve_event(w, event.id)
        report = roster_import.import_roster(w, w_event, path.read_bytes(), path.name,
                                            require_team=True)
    assert report.teams_created == 2
    # A second 辽宁 provincial team is still one too many.
    more = write_csv(tmp_path / "m.csv", team_rows("辽宁二队", "辽宁省", "鞍山", "210302", 3), "utf-8")
    with pytest.raises(Refused) as info, ctx.work() as w:
        roster_import.import_roster(w, events.resolve_event(w, event.id), more.read_bytes(), more.name,
                                   require_team=True)
    assert any("辽宁" in d for d in info.value.details)


def _city_player(name: str, gender: Gender, k: int) -> list[Any]:
    born = date(1990, 1, k)
    return [k, name, gender.label, born.isoformat(), make_id_number("330102", born, k, gender), "5段",
            f"HZ{k}", "浙江省", "杭州", "", f"1390000{k:04d}", "公开组", "杭州队", "钱领队", ""]


def test_a_city_roster_with_four_men_keeps_three_and_enters_the_fourth_alone(
    ctx: Context, tmp_path: Path
) -> None:
    people = [("男一", Gender.MALE), ("男二", Gender.MALE), ("男三", Gender.MALE),
              ("男四", Gender.MALE), ("女一", Gender.FEMALE), ("女二", Gender.FEMALE)]
    path = write_csv(tmp_path / "city.csv",
                     [_city_player(n, g, k) for k, (n, g) in enumerate(people, start=1)], "utf-8")
    with ctx.work() as w:
        event = events.create_event(w, REGULATIONS / "2025-shanhai-cup.toml", seed=3)
    with ctx.work() as w:
        report = roster_import.import_roster(w, events.resolve_event(w, event.id), path.read_bytes(),
                                            path.name, require_team=True)
    assert report.teams_created == 1 and report.members_added == 5
    assert any("男四" in n and "个人名义" in n for n in report.warnings), report.warnings
    with ctx.work() as w:
        ev = events.resolve_event(w, event.id)
        (team,) = teams.list_teams(w, ev)
        entry_of = {v.player.name: v.entry for v in entries.list_entries(w, ev)}
    assert {p.name for p in team.players} == {"男一", "男二", "男三", "女一", "女二"}
    assert entry_of["男四"].division == "open"  # still plays, as an individual


def test_a_player_holds_one_live_entry_per_stage(ctx: Context) -> None:
    with ctx.work() as w:
        event = events.create_event(w, REGULATIONS / "2025-xiaoqiwang.toml", seed=3)
    girl = Player(id="", name="林雨欣", gender=Gender.FEMALE, birth_date=date(2014, 7, 1),
                  rank=Rank.parse("3段"), certificate_no="C1", region="中国大陆", province="浙江")
    with ctx.work() as w:
        first = entries.register_player(w, event, girl, division="yi")
    with pytest.raises(Refused) as info, ctx.work() as w:
        entries.register_player(w, event, girl, division="甲组")
    assert info.value.code == "second_live_entry" and "乙组" in info.value.render("zh")
    with ctx.work() as w:
        assert first.entry is not None
        withdrawal.withdraw_entry(w, first.entry.id, "改报甲组")
        moved = entries.register_player(w, event, girl, division="甲组")
    assert moved.entry is not None and moved.entry.division == "jia"
    with ctx.work() as w:
        statuses = sorted(v.entry.status for v in entries.list_entries(w, event))
    assert statuses.count(EntryStatus.WITHDRAWN) == 1 and len(statuses) == 2


def test_a_team_member_is_replaced_in_the_same_seat_with_a_note(ctx: Context, tmp_path: Path) -> None:
    """递补: a registered player of the seat's division takes the seat; audited; wrong ones refused."""
    from yisai.services.errors import InputError

    path = write_csv(tmp_path / "t.csv", team_rows("辽宁队", "辽宁省", "沈阳", "210102", 1), "utf-8")
    with ctx.work() as w:
        event = events.create_event(w, REGULATIONS / "2025-xiaoqiwang.toml", seed=3)
        roster_import.import_roster(w, event, path.read_bytes(), path.name, require_team=True)
        sub = entries.register_player(w, event, Player(
            id="", name="替补甲", gender=Gender.MALE, birth_date=date(2013, 6, 1), rank=Rank.parse("2段"),
            certificate_no="S1", region="中国大陆", province="辽宁"), division="甲组")
        other = entries.register_player(w, event, Player(
            id="", name="丙组生", gender=Gender.MALE, birth_date=date(2018, 6, 1), rank=Rank.parse("1段"),
            certificate_no="S2", region="中国大陆", province="辽宁"), division="丙组")
        (team,) = teams.list_teams(w, event)
        leaving = next(p for p in team.players if p.name == "辽宁1号")  # the 甲组 boy
    with pytest.raises(InputError), ctx.work() as w:
        teams.replace_team_member(w, event, "辽宁队", leaving.id, sub.player.id, note="")
    with pytest.raises(Refused) as info, ctx.work() as w:  # a 丙组 player cannot take a 甲组 seat
        teams.replace_team_member(w, event, "辽宁队", leaving.id, other.player.id, note="伤病")
    assert info.value.code == "no_entry_for_seat"
    with ctx.work() as w:
        view = teams.replace_team_member(w, event, "辽宁队", leaving.id, sub.player.id, note="伤病递补")
    assert "替补甲" in {p.name for p in view.players} and "辽宁1号" not in {p.name for p in view.players}
    seat = next(m for m in view.team.members if m.player_id == sub.player.id)
    before = next(m for m in team.team.members if m.player_id == leaving.id)
    assert seat.slot == before.slot
    with ctx.work() as w:
        log = [a for a in audit_rows.audit_log(w.session, event.id, "team") if a.action == "replace-member"]
    assert len(log) == 1 and log[0].note == "伤病递补"
    # The player who gave up her seat leaves the event with it: withdrawn, with the reason, so
    # no pairing, standings row, count or prize line includes her.
    with ctx.work() as w:
        left = [v.entry for v in entries.list_entries(w, event) if v.entry.player_id == leaving.id]
        came = [v.entry for v in entries.list_entries(w, event) if v.entry.player_id == sub.player.id]
    assert [e.status for e in left] == [EntryStatus.WITHDRAWN]
    assert "替补甲" in left[0].note and "伤病递补" in left[0].note
    assert [e.status for e in came] == [EntryStatus.APPROVED]


def test_a_provisional_round_count_is_set_before_pairing_beyond_it(ctx: Context) -> None:
    """规程 (002 八): 暂定7轮, 视报名情况而定: round 8 needs the chief referee's decision first."""
    from yisai.services.round_results import record_result
    from yisai.services.rounds import pair, set_round_count

    with ctx.work() as w:
        event = events.create_event(w, REGULATIONS / "2025-xiaoqiwang.toml", seed=3)
        for i in range(1, 21):
            entries.register_player(w, event, Player(
                id="", name=f"棋手{i}", gender=Gender.MALE, birth_date=date(2013, 1, i),
                rank=Rank.parse("1段"), certificate_no=f"P{i}", region="中国大陆", province="浙江"),
                division="jia")
    for n in range(1, 8):
        with ctx.work() as w:
            paired = pair(w, event.id, "jia", n)
            for b in paired.parts[0][1].boards:
                record_result(w, event.id, "jia", n, b.board, "黑胜")
    with pytest.raises(Refused) as info, ctx.work() as w:
        pair(w, event.id, "jia", 8)
    assert info.value.code == "round_count_not_set" and info.value.hint == "set_rounds"
    assert "yisai event rounds -d " in cli_message(info.value, "zh")  # the CLI words the hint
    with ctx.work() as w:
        set_round_count(w, event.id, "甲组", 8, note="报名人数较多")
    with ctx.work() as w:
        pair(w, event.id, "jia", 8)
        assert event_rows.get_event(w.session, event.id).decided_rounds("jia") == 8
    with ctx.work() as w:  # results for round 8, then round 9 is refused: 8 were decided
        for g in [g for r in round_rows.list_rounds(w.session, event.id, "jia") if r.number == 8 for g in r.games if g.white]:
            record_result(w, event.id, "jia", 8, g.board, "白胜")
    with pytest.raises(Refused), ctx.work() as w:
        pair(w, event.id, "jia", 9)


def test_a_late_roster_names_the_closed_window_once_for_all_teams(tmp_path: Path) -> None:
    rows = team_rows("辽宁队", "辽宁省", "沈阳", "210102", 1)
    rows += team_rows("大连队", "辽宁省", "大连", "210202", 2)
    path = write_csv(tmp_path / "late.csv", rows, "utf-8")
    with open_context(str(tmp_path / "l.sqlite"), now=datetime(2025, 4, 19, 9)) as c:
        with c.work() as w:
            event = events.create_event(w, REGULATIONS / "2025-xiaoqiwang.toml", seed=3)
        with pytest.raises(Refused) as info, c.work() as w:
            roster_import.import_roster(w, event, path.read_bytes(), path.name, require_team=True)
    window = [d for d in info.value.details if "报名时间" in d]
    assert len(window) == 1 and "2支队" in window[0] and "辽宁队" in window[0] and "大连队" in window[0]
