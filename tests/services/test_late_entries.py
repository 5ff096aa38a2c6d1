"""逾期报名: after seed 002's deadline (省队报名截止 2025-04-18 17:00) only the chief referee
admits a team, with a reason; only the deadline is waived, the other rules still apply; the
entries say so, and a team leader cannot do it."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date, datetime
from pathlib import Path

import pytest

from tests.conftest import REGULATIONS
from tests.formats.roster_files import write_csv, xqw_rows
from tests.idnumbers import make_id_number
from yisai.registry.person import Gender, Player
from yisai.services import entries, events, roster_import, teams
from yisai.services.context import Context, Forbidden, InputError, Refused, open_context
from yisai.services.errors import Hint
from yisai.services.identity import Actor, Role
from yisai.vocabulary.rank import Rank

AFTER = datetime(2025, 4, 19, 9, 0)  # the day after the deadline
REASON = "省协会补报材料齐全, 经裁判长同意"


@pytest.fixture
def ctx(tmp_path: Path) -> Iterator[Context]:
    with open_context(str(tmp_path / "l.sqlite"), actor="裁判长", now=AFTER) as c:
        with c.work() as w:
            events.create_event(w, REGULATIONS / "2025-xiaoqiwang.toml", seed=3)
        yield c


def _roster(tmp_path: Path, rows: list[list[object]] | None = None) -> Path:
    return write_csv(tmp_path / "浙江队.csv", rows or xqw_rows(), "utf-8")


def _said(error: Refused) -> str:
    return " ".join([error.render(), *(d.zh for d in error.detail_texts)])


def _import(work, path: Path, **kw):  # type: ignore[no-untyped-def]
    return roster_import.import_roster(work, events.resolve_event(work, 1), path.read_bytes(), path.name,
                                      require_team=True, **kw)


def test_after_the_deadline_the_refusal_points_to_the_late_admission(ctx: Context, tmp_path: Path) -> None:
    with pytest.raises(Refused) as info, ctx.work() as w:
        _import(w, _roster(tmp_path))
    assert "不在省队报名时间" in _said(info.value) and info.value.hint is Hint.LATE_IMPORT


def test_the_chief_referee_admits_a_team_late_with_a_reason(ctx: Context, tmp_path: Path) -> None:
    with pytest.raises(InputError), ctx.work() as w:
        _import(w, _roster(tmp_path), late=True)  # no reason given
    with ctx.work() as w:
        report = _import(w, _roster(tmp_path), late=True, note=REASON)
        listed = entries.list_entries(w, events.resolve_event(w, 1))
        (team,) = teams.list_teams(w, events.resolve_event(w, 1))
    assert (report.teams_created, report.entries_created) == (1, 6)
    assert [v.entry.note for v in listed] == [f"逾期报名 (裁判长批准: {REASON})"] * 6
    assert all(v.entry.status.value == "approved" for v in listed)  # nothing else was wrong
    assert any("逾期报名" in str(r) for r in team.reasons)


def test_late_waives_the_deadline_alone(ctx: Context, tmp_path: Path) -> None:
    rows = xqw_rows()
    extra = list(rows[0])  # a second 甲组 boy: 每队…甲乙丙组男、女各1名队员 still applies
    extra[0], extra[1], extra[3], extra[6] = 7, "陈浩宇", "2013-05-02", "ZJ2024007"
    extra[4] = make_id_number("330282", date(2013, 5, 2), 7, Gender.MALE)
    with pytest.raises(Refused) as info, ctx.work() as w:
        _import(w, _roster(tmp_path, [*rows, extra]), late=True, note=REASON)
    text = _said(info.value)
    assert "报名时间" not in text and info.value.hint is Hint.FORCE_IMPORT, text


def test_a_team_leader_cannot_admit_late(ctx: Context, tmp_path: Path) -> None:
    leader = Actor("9", "周领队", Role.TEAM_LEADER)
    with pytest.raises(Forbidden), ctx.work(leader) as w:
        _import(w, _roster(tmp_path), late=True, note=REASON)


def _player(name: str) -> Player:
    born = date(2016, 3, 4)
    return Player(id="", name=name, gender=Gender.FEMALE, birth_date=born, rank=Rank.parse("1段"),
                  certificate_no="ZJ9", region="中国大陆", province="浙江",
                  id_number=make_id_number("330282", born, 9, Gender.FEMALE))


def test_a_referee_cannot_enter_a_player_after_the_deadline(ctx: Context) -> None:
    """The team deadline binds a division entered through teams only (seed 002: 乙组 routes =
    ["team"]) whoever adds the player: a referee is refused and told who may admit it; the
    chief referee admits it with a reason, which the entry then carries."""
    referee = Actor("7", "李裁判", Role.REFEREE)
    with pytest.raises(Refused) as info, ctx.work(referee) as w:
        entries.register_player(w, events.resolve_event(w, 1), _player("周小雨"), division="乙组")
    assert info.value.code == "registration_closed" and "裁判长" in info.value.render()
    with pytest.raises(Forbidden), ctx.work(referee) as w:  # nor may a referee say "late"
        entries.register_player(w, events.resolve_event(w, 1), _player("周小雨"), division="乙组",
                                late=True, note=REASON)
    with ctx.work() as w:
        assert not [v for v in entries.list_entries(w, events.resolve_event(w, 1))]
        done = entries.register_player(w, events.resolve_event(w, 1), _player("周小雨"),
                                       division="乙组", late=True, note=REASON)
    assert done.entry is not None and done.entry.note == f"逾期报名 (裁判长批准: {REASON})"
