"""Seed 002 lets a province send fewer than six players (规程 十三: 每队限报6人; 报满6人的参赛队
计算团体成绩): a team registered through the web with empty slots is saved with the players it
has, exactly as ``yisai team add`` saves it; a slot typed in part is refused, naming the slot and
the field."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date, datetime
from pathlib import Path

import pytest

from tests.conftest import REGULATIONS
from yisai.registry.idcard import check_digit
from yisai.services.context import Context, InputError, Refused, open_context
from yisai.services.errors import ServiceError
from yisai.services.events import create_event, regulation_of, resolve_event
from yisai.services.team_registration import MemberIn, is_empty_slot, register_team, team_slots
from yisai.store import team_rows

NOW = datetime(2025, 4, 10, 9, 30)  # inside seed 002's window (closes 2025-04-18 17:00)


def _id(born: date, seq: int) -> str:
    first17 = f"320102{born:%Y%m%d}{seq:03d}"
    return first17 + check_digit(first17)


def _typed(name: str, born: date, seq: int) -> dict[str, str]:
    return {"姓名": name, "出生日期": born.isoformat(), "身份证号": _id(born, seq), "段位": "1段",
            "证书编号": f"JS-{seq}", "省份": "江苏", "城市": "南京"}


def _blank() -> dict[str, str]:
    return dict.fromkeys(("姓名", "出生日期", "身份证号", "段位", "证书编号", "省份", "城市"), "")


@pytest.fixture
def ctx(tmp_path: Path) -> Iterator[tuple[Context, int]]:
    with open_context(str(tmp_path / "t.sqlite"), actor="裁判长", now=NOW) as c:
        with c.work() as w:
            event = create_event(w, REGULATIONS / "2025-xiaoqiwang.toml", seed=3)
        yield c, event.id


def _members(ctx: Context, typed: dict[int, dict[str, str]]) -> list[MemberIn]:
    """The six slots as the web form sends them: every row carries the slot's gender and the
    region (the form fills those in), typed fields only where given."""
    with ctx.work() as w:
        slots = team_slots(regulation_of(resolve_event(w, None)))
    return [MemberIn(s.division, {**(typed.get(k) or _blank()), "性别": "男" if s.gender == "M" else "女",
                                  "地区": "中国大陆"}, s.label)
            for k, s in enumerate(slots)]


def test_a_team_of_four_leaves_two_slots_empty(ctx: tuple[Context, int]) -> None:
    c, event_id = ctx
    # 甲组男 (born 2013), 乙组女 (2016), 丙组男 (2018), 丙组女 (2019); 甲组女 and 乙组男 stay empty.
    typed = {0: _typed("江苏甲男", date(2013, 3, 1), 11), 3: _typed("江苏乙女", date(2016, 6, 4), 22),
             4: _typed("江苏丙男", date(2018, 7, 5), 31), 5: _typed("江苏丙女", date(2019, 8, 6), 42)}
    members = _members(c, typed)
    assert [is_empty_slot(m) for m in members] == [False, True, True, False, False, False]
    with c.work() as w:
        view = register_team(w, str(event_id), name="江苏队", province="江苏", members=members)
    assert view.team.name == "江苏队" and view.team.province == "江苏"
    assert [(m.slot, p.name) for m, p in zip(view.team.members, view.players, strict=True)] == [
        ("甲组男", "江苏甲男"), ("乙组女", "江苏乙女"), ("丙组男", "江苏丙男"), ("丙组女", "江苏丙女")]


def test_a_slot_typed_in_part_names_the_slot_and_the_field(ctx: tuple[Context, int]) -> None:
    c, event_id = ctx
    typed = {0: _typed("江苏甲男", date(2013, 3, 1), 11),
             2: {**_blank(), "出生日期": "2015-05-03"}}  # 乙组男: a birth date, no name
    with pytest.raises(ServiceError) as info, c.work() as w:
        register_team(w, str(event_id), name="江苏队", province="江苏", members=_members(c, typed))
    assert isinstance(info.value, Refused) and info.value.code == "team_refused"
    details = [str(d) for d in info.value.details]
    assert details == ["第3名队员(乙组男): 姓名: 姓名不能为空"]
    with c.work() as w:
        assert team_rows.list_teams(w.session, event_id) == []  # all or nothing


def test_a_form_with_every_slot_empty_asks_for_a_player(ctx: tuple[Context, int]) -> None:
    c, event_id = ctx
    with pytest.raises(InputError) as info, c.work() as w:
        register_team(w, str(event_id), name="江苏队", province="江苏", members=_members(c, {}))
    assert info.value.code == "no_members"
