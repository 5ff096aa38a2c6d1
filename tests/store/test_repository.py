"""The repository on both backends: round trips, text identifiers, conflicts, rounds and results
with history, and the audit trail with before/after values."""

from __future__ import annotations

from datetime import date

import pytest

from tests.store.conftest import NOW
from yisai.i18n import Text
from yisai.record import Game, Result
from yisai.registry.entry import Entry, EntryStatus
from yisai.registry.person import Gender, Player, ProStatus
from yisai.registry.team import Team, TeamMember
from yisai.services.context import Context
from yisai.store import (
    Conflict,
    EventRecord,
    NotFound,
    audit_rows,
    entry_rows,
    event_rows,
    player_rows,
    roster_rows,
    round_rows,
    team_rows,
)
from yisai.vocabulary.rank import Rank


def _event(ctx: Context) -> EventRecord:
    with ctx.work() as w:
        return event_rows.add_event(w.session, w.stamp, "测试赛", "test", "测试规程", "id = \"test\"\n", 2**62)


def _players(ctx: Context, event_id: int, n: int) -> list[Player]:
    with ctx.work() as w:
        return [
            player_rows.add_player(w.session, w.stamp,
                event_id,
                Player(id="", name=f"棋手{i}", gender=Gender.MALE if i % 2 else Gender.FEMALE,
                       birth_date=date(2000, 1, 1 + i), rank=Rank.dan(1 + i % 5)),
            )
            for i in range(n)
        ]


def test_event_round_trip_keeps_text_and_big_seed(ctx: Context) -> None:
    ev = _event(ctx)
    with ctx.work() as w:
        got = event_rows.get_event(w.session, ev.id)
        assert got.regulation_toml == 'id = "test"\n'
        assert got.seed == 2**62
        assert got.created_at == NOW and got.created_by == "测试裁判"
        assert [e.id for e in event_rows.events_named(w.session, "测试赛")] == [ev.id]
        with pytest.raises(NotFound, match="没有编号为999的比赛"):
            event_rows.get_event(w.session, 999)


def test_player_identifiers_stay_text(ctx: Context) -> None:
    ev = _event(ctx)
    p = Player(
        id="", name="欧阳小雪", gender=Gender.FEMALE, birth_date=date(2014, 2, 28),
        id_number="11010519491231002X", phone="013800138000", certificate_no="000123",
        rank=Rank.kyu(25), pro_status=ProStatus.NEW_PRO, province="北京", city="北京",
    )  # fmt: skip
    with ctx.work() as w:
        saved = player_rows.add_player(w.session, w.stamp, ev.id, p)
    with ctx.work() as w:
        got = player_rows.get_player(w.session, saved.id)
        assert got == p.model_copy(update={"id": saved.id})
        assert got.phone == "013800138000" and got.certificate_no == "000123"
        assert player_rows.find_player(w.session, ev.id, id_number="11010519491231002X") == got
        assert player_rows.find_player(w.session, ev.id, name="欧阳小雪", birth_date=date(2014, 2, 28)) == got
        with pytest.raises(Conflict, match="身份证号11010519491231002X已登记"):
            player_rows.add_player(w.session, w.stamp, ev.id, p)


def test_update_player_is_audited_with_before_and_after(ctx: Context) -> None:
    ev = _event(ctx)
    [p] = _players(ctx, ev.id, 1)
    with ctx.work() as w:
        player_rows.update_player(w.session, w.stamp, p.model_copy(update={"rank": Rank.dan(3)}), note="证书更新")
    with ctx.work() as w:
        log = audit_rows.audit_log(w.session, ev.id, "player", p.id)
    assert [a.action for a in log] == ["create", "update"]
    assert log[1].before["rank"] == "1段" and log[1].after["rank"] == "3段"
    assert log[1].note == "证书更新" and log[1].actor == "测试裁判" and log[1].at == NOW


def test_entries_and_their_status_changes(ctx: Context) -> None:
    ev = _event(ctx)
    [p] = _players(ctx, ev.id, 1)
    with ctx.work() as w:
        e = entry_rows.add_entry(w.session, w.stamp, ev.id, Entry(player_id=p.id, division="open", fee_due=260, reasons=("原因一",)))
        with pytest.raises(Conflict):
            entry_rows.add_entry(w.session, w.stamp, ev.id, Entry(player_id=p.id, division="open"))
        entry_rows.add_entry(w.session, w.stamp, ev.id, Entry(player_id=p.id, division="open", stage="final"))
    with ctx.work() as w:
        entry_rows.update_entry(w.session, w.stamp, e.model_copy(update={"status": EntryStatus.APPROVED, "fee_paid": True}), "approve")
    with ctx.work() as w:
        got = entry_rows.get_entry(w.session, e.id)
        assert (got.status, got.fee_paid, got.fee_due, got.reasons) == (EntryStatus.APPROVED, True, 260, (Text("原因一", "原因一"),))
        assert len(roster_rows.list_entries(w.session, ev.id, status=EntryStatus.APPROVED)) == 1
        assert len(roster_rows.list_entries(w.session, ev.id, division="open")) == 2
        assert entry_rows.count_entries(w.session, ev.id) == {("open", "approved"): 1, ("open", "pending"): 1}
        [change] = [a for a in audit_rows.audit_log(w.session, ev.id, "entry", e.id) if a.action == "approve"]
        assert change.before["status"] == "pending" and change.after["status"] == "approved"


def test_team_members_are_unique_across_teams(ctx: Context) -> None:
    ev = _event(ctx)
    ps = _players(ctx, ev.id, 3)
    with ctx.work() as w:
        t = team_rows.add_team(w.session, w.stamp,
            ev.id,
            Team(name="浙江队", province="浙江", leaders=("王",), members=(TeamMember(player_id=ps[0].id, slot="甲组男"),)),
        )
        team_rows.add_team_member(w.session, w.stamp, t.id, TeamMember(player_id=ps[1].id))
    with ctx.work() as w:
        got = team_rows.find_team(w.session, ev.id, "浙江队")
        assert got is not None
        assert [(m.player_id, m.slot) for m in got.members] == [(ps[0].id, "甲组男"), (ps[1].id, None)]
        assert got.leaders == ("王",)
    with pytest.raises(Conflict, match="已在浙江队中"), ctx.work() as w:
        team_rows.add_team(w.session, w.stamp, ev.id, Team(name="江苏队", members=(TeamMember(player_id=ps[0].id),)))
    with pytest.raises(Conflict, match="队名“浙江队”已存在"), ctx.work() as w:
        team_rows.add_team(w.session, w.stamp, ev.id, Team(name="浙江队"))
    with ctx.work() as w:
        assert [t.name for t in team_rows.list_teams(w.session, ev.id)] == ["浙江队"]


def test_rounds_games_results_and_history(ctx: Context) -> None:
    ev = _event(ctx)
    a, b, c = (p.id for p in _players(ctx, ev.id, 3))
    games = [Game(round=1, black=a, white=b, board=1), Game(round=1, black=c, white=None, board=2, result=Result.BLACK_WINS, played=False)]
    with ctx.work() as w:
        rnd = round_rows.save_round(w.session, w.stamp, ev.id, "open", 1, games, stage="final", group="A", info={"seed": 5})
        with pytest.raises(Conflict, match="已编排"):
            round_rows.save_round(w.session, w.stamp, ev.id, "open", 1, games, stage="final", group="A")
    with ctx.work() as w:
        round_rows.record_result(w.session, w.stamp, rnd.id, 1, Result.WHITE_WINS, reason="中盘胜")
    with ctx.work() as w:
        round_rows.record_result(w.session, w.stamp, rnd.id, 1, Result.BLACK_WINS, played=False, reason="白方迟到判负", note="更正")
    with ctx.work() as w:
        got = round_rows.get_round(w.session, ev.id, "open", 1, stage="final", group="A")
        assert got is not None and got.info == {"seed": 5}
        assert got.games[0] == Game(round=1, black=a, white=b, board=1, result=Result.BLACK_WINS, played=False, reason="白方迟到判负")
        assert got.games[1].is_bye and got.games[1].outcome_for(c) == "W"
        history = round_rows.result_history(w.session, rnd.id, 1)
        assert [(h.previous, h.result) for h in history] == [
            (Result.UNKNOWN, Result.WHITE_WINS),
            (Result.WHITE_WINS, Result.BLACK_WINS),
        ]
        assert round_rows.games(w.session, ev.id, "open") == list(got.games)
        assert round_rows.games(w.session, ev.id, "open", group="B") == []
        audit = audit_rows.audit_log(w.session, ev.id, "game")
        assert [x.after["result"] for x in audit] == ["W+", "B+"]
        assert audit[1].before["result"] == "W+" and audit[1].note == "更正"
        with pytest.raises(Conflict, match="已有成绩"):
            round_rows.save_round(w.session, w.stamp, ev.id, "open", 1, games, stage="final", group="A", replace=True)


def test_repairing_a_round_without_results_replaces_it(ctx: Context) -> None:
    ev = _event(ctx)
    a, b, c, d = (p.id for p in _players(ctx, ev.id, 4))
    with ctx.work() as w:
        round_rows.save_round(w.session, w.stamp, ev.id, "open", 1, [Game(1, a, b, board=1), Game(1, c, d, board=2)])
    with ctx.work() as w:
        new = round_rows.save_round(w.session, w.stamp, ev.id, "open", 1, [Game(1, a, c, board=1), Game(1, b, d, board=2)], replace=True)
        assert [(g.black, g.white) for g in new.games] == [(a, c), (b, d)]
        with pytest.raises(Conflict, match="台次重复"):
            round_rows.save_round(w.session, w.stamp, ev.id, "open", 2, [Game(2, a, b, board=1), Game(2, c, d, board=1)])
    with ctx.work() as w:
        assert len(round_rows.list_rounds(w.session, ev.id)) == 1
        assert [x.action for x in audit_rows.audit_log(w.session, ev.id, "round")] == ["create", "replace"]
