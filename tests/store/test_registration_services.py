"""Registration use cases on both backends, with the two seed regulations."""

from __future__ import annotations

from datetime import date

import pytest

from tests.conftest import REGULATIONS
from tests.idnumbers import make_id_number
from yisai.registry.entry import EntryStatus
from yisai.registry.person import Gender, Player
from yisai.registry.team import Team
from yisai.services import approvals, entries, events, teams, withdrawal
from yisai.services.context import Context, InputError, Refused
from yisai.store import EventRecord, audit_rows


def _event(ctx: Context, name: str, seed: int | None = None) -> EventRecord:
    with ctx.work() as w:
        return events.create_event(w, REGULATIONS / f"{name}.toml", seed=seed)


def kid(name: str, born: date, gender: Gender = Gender.MALE, seq: int = 1, **kw: object) -> Player:
    fields: dict[str, object] = {
        "id": "", "name": name, "gender": gender, "birth_date": born,
        "id_number": make_id_number("330282", born, seq, gender), "certificate_no": f"C{seq}",
        "province": "浙江",
    }  # fmt: skip
    fields.update(kw)
    return Player(**fields)  # type: ignore[arg-type]


def test_event_keeps_the_regulation_text_and_seed(ctx: Context) -> None:
    ev = _event(ctx, "2025-shanhai-cup", seed=20250430)
    text = (REGULATIONS / "2025-shanhai-cup.toml").read_text(encoding="utf-8")
    with ctx.work() as w:
        again = events.resolve_event(w, None)
        assert again.regulation_toml == text and again.seed == 20250430
        assert events.resolve_event(w, str(ev.id)) == again
        assert events.resolve_event(w, ev.name) == again
        assert events.regulation_of(again).id == "2025-shanhai-cup"
    drawn = _event(ctx, "2025-xiaoqiwang")
    assert 100_000_000 <= drawn.seed < 1_000_000_000
    with pytest.raises(InputError, match=r"数据库中有\d+个比赛"), ctx.work() as w:
        events.resolve_event(w, None)


def test_bad_regulation_file_reports_lines(ctx: Context, tmp_path) -> None:  # type: ignore[no-untyped-def]
    bad = tmp_path / "bad.toml"
    bad.write_text('id = "x"\nname = 3\n', encoding="utf-8")
    with pytest.raises(InputError) as err, ctx.work() as w:
        events.create_event(w, bad)
    assert any(d.startswith(f"{bad}:2:") for d in err.value.details)


def test_entry_needs_no_approval_when_eligible_and_not_required(ctx: Context) -> None:
    ev = _event(ctx, "2025-xiaoqiwang")
    with ctx.work() as w:
        done = entries.register_player(w, ev, kid("张一", date(2013, 3, 3)), division="甲组")
    assert done.entry is not None and done.entry.status is EntryStatus.APPROVED
    assert done.entry.reasons == () and done.entry.fee_due == 0


def test_shanhai_junior_waits_for_approval_and_fee_is_260(ctx: Context) -> None:
    ev = _event(ctx, "2025-shanhai-cup")
    with ctx.work() as w:
        done = entries.register_player(w, ev, kid("李二", date(2012, 1, 1)), division="少年组")
        online = entries.register_player(w, ev, kid("李二", date(2012, 1, 1)), division="junior", stage="online")
    assert done.entry is not None and done.entry.status is EntryStatus.PENDING
    assert done.entry.fee_due == 260  # 线下赛收取赛事服务费260元
    assert online.entry is not None and online.entry.fee_due == 0  # 线上赛全程免费
    assert not online.player_created  # same ID number: the same person


def test_approval_refused_with_reasons_then_forced_with_note(ctx: Context) -> None:
    ev = _event(ctx, "2025-shanhai-cup")
    with ctx.work() as w:
        done = entries.register_player(w, ev, kid("王三", date(2010, 8, 31)), division="少年组")
    entry = done.entry
    assert entry is not None
    assert [r.zh for r in entry.reasons] == ["出生日期2010-08-31不在少年组范围(2011-09-01至2019-08-31)"]
    with pytest.raises(Refused) as err, ctx.work() as w:
        approvals.approve_entry(w, entry.id)
    assert err.value.details == [r.render() for r in entry.reasons] and err.value.exit_code == 1
    with pytest.raises(InputError, match="须写明理由"), ctx.work() as w:
        approvals.approve_entry(w, entry.id, force=True)
    with ctx.work() as w:
        forced = approvals.approve_entry(w, entry.id, force=True, note="组委会特邀外卡")
    assert forced.status is EntryStatus.APPROVED and forced.forced and forced.note == "组委会特邀外卡"
    with ctx.work() as w:
        [log] = [a for a in audit_rows.audit_log(w.session, ev.id, "entry", entry.id) if a.action == "force-approve"]
        assert log.note == "组委会特邀外卡" and log.before["status"] == "pending"


def test_reject_and_withdraw_follow_the_allowed_transitions(ctx: Context) -> None:
    ev = _event(ctx, "2025-shanhai-cup")
    with ctx.work() as w:
        e = entries.register_player(w, ev, kid("赵四", date(2015, 5, 5)), division="少年组").entry
    assert e is not None
    with pytest.raises(InputError, match="须写明理由"), ctx.work() as w:
        approvals.reject_entry(w, e.id, " ")
    with ctx.work() as w:
        assert approvals.reject_entry(w, e.id, "资料不全").status is EntryStatus.REJECTED
        assert withdrawal.withdraw_entry(w, e.id, "本人申请").status is EntryStatus.WITHDRAWN
    with pytest.raises(InputError, match="当前状态为已退赛, 不能改为已通过"), ctx.work() as w:
        approvals.approve_entry(w, e.id)


def test_add_team_with_automatic_slots_and_refusal(ctx: Context) -> None:
    ev = _event(ctx, "2025-xiaoqiwang")
    births = {"甲组": date(2013, 3, 3), "乙组": date(2016, 3, 3), "丙组": date(2018, 3, 3)}
    ids = []
    with ctx.work() as w:
        for i, (division, born) in enumerate(births.items()):
            for j, g in enumerate(Gender):
                p = kid(f"队员{i}{j}", born, g, seq=10 * i + j)
                ids.append(entries.register_player(w, ev, p, division=division).player.id)
        view = teams.add_team(
            w, ev, Team(name="浙江队", province="浙江", leaders=("领队甲",), coaches=("教练乙",)),
            [(pid, None) for pid in ids],
        )  # fmt: skip
    assert [m.slot for m in view.team.members] == ["甲组男", "甲组女", "乙组男", "乙组女", "丙组男", "丙组女"]
    assert view.reasons == ()
    with pytest.raises(Refused) as err, ctx.work() as w:
        teams.add_team(w, ev, Team(name="浙江二队", province="浙江省"))
    assert err.value.details == ["浙江已报1支省队, 每地限报1支"]
    with ctx.work() as w:
        forced = teams.add_team(w, ev, Team(name="浙江二队", province="浙江省"), force=True, note="东道主递补")
        assert forced.reasons == ("浙江已报1支省队, 每地限报1支",)
        assert [t.team.name for t in teams.list_teams(w, ev)] == ["浙江队", "浙江二队"]


def test_team_registration_after_the_deadline_is_refused(db_url: str) -> None:
    from datetime import datetime

    from yisai.services.context import open_context

    with open_context(db_url, actor="t", now=lambda: datetime(2025, 4, 18, 17, 30)) as late:
        with late.work() as w:
            ev = events.create_event(w, REGULATIONS / "2025-xiaoqiwang.toml")
        with pytest.raises(Refused) as err, late.work() as w:
            teams.add_team(w, ev, Team(name="迟到队", province="江苏"))
        assert err.value.details == ["报名时间2025-04-18 17:30不在省队报名时间(截至2025-04-18 17:00)内"]
