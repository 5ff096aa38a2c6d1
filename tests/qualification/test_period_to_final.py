"""A whole simulated period through the real services with injected time: the close at the exact
boundary, the qualification list (ties at the quota), confirmations against the working-day
deadline, reminders and lapses, and the final's entry list from every source with conflicts."""

from __future__ import annotations

from datetime import date, datetime

import pytest

from tests.idnumbers import make_id_number
from tests.qualification.conftest import CLOSE, fields, player
from yisai.game.board import WHITE
from yisai.qualifier.periods import queue_refusal
from yisai.qualifier.session import Kind
from yisai.registry.person import Gender, Player
from yisai.registry.team import Team
from yisai.services import live
from yisai.services import qualification as q
from yisai.services.approvals import approve_entry
from yisai.services.context import Context
from yisai.services.entries import register_player
from yisai.services.errors import Forbidden, Refused
from yisai.services.events import resolve_event
from yisai.services.rounds import pair
from yisai.services.simulation import SimClock, epoch, simulate_period
from yisai.services.teams import add_team
from yisai.store import audit_rows, live_rows, player_rows, roster_rows

# Ten working days counted from 2025-05-26 (Mon), by hand from the State Council's 2025
# arrangement: 端午 5/31–6/2 off (6/2 Monday is a holiday), no 调休 workday in between:
# 5/27 28 29 30, 6/3 4 5 6, 6/9, 6/10 → the 10th working day is 2025-06-10.
DEADLINE = date(2025, 6, 10)


def test_whole_period_close_and_ties(world: tuple[Context, SimClock]) -> None:
    ctx, clock = world
    report = simulate_period(ctx, clock, None, 1, 2000, seed=7, waves=3, join_rate=0.6)
    assert report.games > 1500 and report.by_pool["open"] > 0 and report.by_pool["youth"] > 0
    with ctx.work() as work:
        cfg = live.live_config(work, None)
    # One second before the boundary the period is open: queueing allowed, closing refused.
    clock.now = datetime(2025, 5, 25, 23, 59, 59)
    assert queue_refusal(cfg.stage, clock.now) is None
    with ctx.work() as work:
        late = live.start_game(work, cfg, period=1, pool="open", black=("late-b", "晚黑"),
                               white=("late-w", "晚白"), start=epoch(clock.now))[1]
    with pytest.raises(Refused) as exc, ctx.work() as work:
        q.close_period(work, None, 1)
    assert exc.value.code == "period_open"
    # At the boundary: no queueing; the game in progress blocks the list until it ends.
    clock.now = CLOSE
    refusal = queue_refusal(cfg.stage, clock.now)
    assert refusal is not None and "第2期" in refusal.zh
    with pytest.raises(Refused) as exc, ctx.work() as work:
        q.close_period(work, None, 1)
    assert exc.value.code == "games_in_progress"
    clock.now = datetime(2025, 5, 26, 0, 1)  # the game goes on after the boundary
    late.act(WHITE, Kind.RESIGN, late.version, epoch(clock.now))
    with ctx.work() as work:
        gid = live_rows.games_with_status(work.session, "playing")[0].info.id
        live.finish_game(work, cfg, gid, late)
        q.close_period(work, None, 1)
        lists = q.close_period(work, None, 1)  # closing twice publishes nothing new
        ladder = {pool: live_rows.ladder_lines(work.session, cfg.event_id, "online", 1, pool)
                  for pool in cfg.pools}
    assert [x.version for x in lists] == [1, 1]
    by_pool = {x.pool: x for x in lists}
    assert {r.player for r in by_pool["open"].rows} >= {"late-b", "late-w"}  # finished after the close, counted
    for pool, quota in (("open", 38), ("youth", 30)):
        # Independent check of 十(一)1: sort by (points, wins); everyone level with the quota-th qualifies.
        keyed = sorted(((r.points, r.wins), r.player) for r in ladder[pool])[::-1]
        cut = keyed[quota - 1][0]
        expected = {p for k, p in keyed if k >= cut}
        got = {r.player for r in by_pool[pool].rows if r.qualified}
        assert got == expected and len(got) >= quota
        tied = [r for r in by_pool[pool].rows if r.tied_at is not None]
        if len(expected) > quota:
            assert tied and all(r.note() == f"并列第{r.tied_at}名，一同晋级" for r in tied)
    with ctx.work() as work:
        places = q.all_places(work, None)
    assert len(places) == sum(1 for x in lists for r in x.rows if r.qualified)
    assert {p.deadline for p in places} == {DEADLINE}


def test_tie_at_38_qualifies_all_and_deadline(closed: tuple[Context, SimClock, live.LiveConfig]) -> None:
    ctx, clock, _ = closed
    with ctx.work() as work:
        (open_list, _youth) = q.published_lists(work, None, 1)
    qualified = [r for r in open_list.rows if r.qualified]
    assert len(qualified) == 40  # 37 + the three tied for 38th
    xs = {r.player: r for r in open_list.rows if r.player.startswith("X")}
    assert {r.place for r in xs.values()} == {38}
    assert all(r.qualified and r.note() == "并列第38名，一同晋级" for r in xs.values())
    assert not any(r.qualified for r in open_list.rows if r.player.startswith("L"))

    # Confirmation: T01 on the last working day at 23:59 is accepted; T02 a minute after midnight is refused.
    with ctx.work(player("T01")) as work:
        (mine,) = q.my_places(work, None)
    with ctx.work(player("T02")) as work:
        (t02,) = q.my_places(work, None)
    assert mine.deadline == DEADLINE and mine.status == "qualified"
    clock.now = datetime(2025, 6, 10, 23, 59)
    with ctx.work(player("T01")) as work:
        done = q.confirm_place(work, None, mine.id, fields("张三", date(1990, 3, 1), 1))
    assert done.status == "confirmed" and done.division == "open"
    clock.now = datetime(2025, 6, 11, 0, 1)
    with pytest.raises(Refused) as exc, ctx.work(player("T02")) as work:
        q.confirm_place(work, None, t02.id, fields("李四", date(1990, 3, 2), 2))
    assert exc.value.code == "confirm_late"
    with ctx.work(player("T02")) as work:
        assert [p.status for p in q.my_places(work, None)] == ["lapsed"]  # shown so; reading wrote nothing
    with ctx.work() as work:
        assert len(q.lapse_overdue(work, None)) == 39  # T02 and the 38 others who did not confirm
        assert q.lapse_overdue(work, None) == []
        lapsed = {p.player for p in q.all_places(work, None, "lapsed")}
    assert "T02" in lapsed and "T01" not in lapsed and len(lapsed) == 39


def test_confirmation_rules_and_reminders(closed: tuple[Context, SimClock, live.LiveConfig]) -> None:
    ctx, clock, _ = closed
    clock.now = datetime(2025, 5, 28, 9, 0)
    with ctx.work(player("T03")) as work:
        (place,) = q.my_places(work, None)
    with pytest.raises(Forbidden), ctx.work(player("T04")) as work:  # someone else's place
        q.confirm_place(work, None, place.id, fields("王五", date(1990, 1, 1), 3))
    bad = fields("王五", date(1990, 1, 1), 3)
    bad.pop("certificate_no")
    with pytest.raises(Refused) as exc, ctx.work(player("T03")) as work:
        q.confirm_place(work, None, place.id, bad)
    assert exc.value.code == "ineligible" and any("证书" in d for d in exc.value.details)
    minor = fields("小明", date(2010, 5, 1), 4)  # 15 at the final (2025-11-07): guardian required
    with pytest.raises(Refused) as exc, ctx.work(player("T03")) as work:
        q.confirm_place(work, None, place.id, minor)
    assert any("监护人" in d for d in exc.value.details)
    with ctx.work(player("T03")) as work:
        ok = q.confirm_place(work, None, place.id, {**minor, "guardian": "小明妈妈", "guardian_phone": "13800138000"})
    assert ok.status == "confirmed"
    # Reminders: nothing 4 days before; the 3-day one on 6/7, sent once; the 1-day one on 6/9.
    clock.now = datetime(2025, 6, 6, 9, 0)
    with ctx.work() as work:
        assert q.send_reminders(work, None) == []
    with ctx.work(player("T04")) as work:
        assert not [n for n in q.my_notices(work, None) if n.kind.startswith("reminder")]
    clock.now = datetime(2025, 6, 7, 9, 0)
    with ctx.work() as work:
        q.send_reminders(work, None)
        q.send_reminders(work, None)
    clock.now = datetime(2025, 6, 9, 9, 0)
    with ctx.work() as work:
        q.send_reminders(work, None)
    with ctx.work(player("T04")) as work:
        kinds = sorted(n.kind for n in q.my_notices(work, None))
    assert kinds == ["qualified", "reminder_1", "reminder_3"]
    with ctx.work(player("T03")) as work:  # confirmed: no reminders
        assert sorted(n.kind for n in q.my_notices(work, None)) == ["qualified"]


def test_final_entry_list_from_all_sources(closed: tuple[Context, SimClock, live.LiveConfig]) -> None:
    ctx, clock, cfg = closed
    clock.now = datetime(2025, 6, 3, 10, 0)
    same_id = fields("赵六", date(1988, 8, 8), 6)
    for pid, f in (("T05", same_id), ("T06", same_id),  # one person, two accounts: qualified twice
                   ("T07", fields("钱七", date(1985, 1, 7), 7)),
                   ("T08", fields("孙八", date(1986, 2, 8), 8))):
        with ctx.work(player(pid)) as work:
            (place,) = q.my_places(work, None)
            q.confirm_place(work, None, place.id, f)
    with ctx.work() as work:
        event = resolve_event(work, None)
        # A city team whose first man is 孙八 (also a qualifier); a youth wild card; a senior.
        members = []
        for k, (name, born, g) in enumerate([("孙八", date(1986, 2, 8), Gender.MALE),
                                             ("周九", date(1991, 1, 9), Gender.MALE),
                                             ("吴十", date(1992, 1, 10), Gender.MALE),
                                             ("郑一", date(1993, 1, 11), Gender.FEMALE),
                                             ("王二", date(1994, 1, 12), Gender.FEMALE)]):
            seq = 8 if name == "孙八" else 20 + k
            p = Player(id="", name=name, gender=g, birth_date=born, rank="5段", region="中国大陆",
                       id_number=make_id_number("330102", born, seq, g), certificate_no=f"T{k}",
                       province="浙江", city="杭州")
            members.append((register_player(work, event, p, division="open").player.id, None))
        add_team(work, event, Team(name="杭州队", province="浙江", city="杭州", region="中国大陆"), members)
        kid = Player(id="", name="小外卡", gender=Gender.FEMALE, birth_date=date(2014, 3, 3), rank="3段",
                     region="中国大陆", certificate_no="WC1",
                     id_number=make_id_number("330102", date(2014, 3, 3), 40, Gender.FEMALE))
        senior = Player(id="", name="老将", gender=Gender.MALE, birth_date=date(1960, 6, 6), rank="6段",
                        region="中国大陆", certificate_no="SN1",
                        id_number=make_id_number("330102", date(1960, 6, 6), 41, Gender.MALE))
        for p, d in ((kid, "junior"), (senior, "senior")):
            e = register_player(work, event, p, division=d).entry
            assert e is not None
            approve_entry(work, e.id)
        late = Player(id="", name="迟到", gender=Gender.MALE, birth_date=date(1961, 1, 1), rank="5段",
                      region="中国大陆", certificate_no="SN2",
                      id_number=make_id_number("330102", date(1961, 1, 1), 42, Gender.MALE))
        registered = register_player(work, event, late, division="senior")
        assert registered.entry is not None
        approve_entry(work, registered.entry.id)
        # corrected after the approval: the certificate number was a mistake
        player_rows.update_player(work.session, work.stamp, registered.player.model_copy(update={"certificate_no": None}), "证书编号有误")
        plan = q.final_preview(work, None)
    sources = {c.source for c, _ in plan.items}
    assert sources == {"qualifier", "team", "wildcard", "direct"}
    texts = [c.text.zh for c in plan.conflicts]
    assert any("赵六" in t and "网络海选晋级" in t for t in texts)  # qualified twice
    assert any("孙八" in t and "城市代表队" in t for t in texts)  # qualifier also in the city team
    assert any("迟到" in t and "不符合参赛资格" in t and "证书" in t for t in texts)  # ineligible now
    assert "迟到" in {c.name for c in plan.left_out}
    assert {c.key for c in plan.to_apply if c.source == "qualifier"} == {"1/T05", "1/T07"}
    with ctx.work() as work:
        applied = q.apply_final(work, None)
        again = q.apply_final(work, None)  # idempotent
        entries = roster_rows.list_entries(work.session, cfg.event_id, division="open", status=None)
        audit = [a for a in audit_rows.audit_log(work.session, cfg.event_id) if a.action == "final_entries"]
    assert len(applied.to_apply) == 2 + 5 + 2 and again.to_apply == []
    assert len(again.already) == len(applied.to_apply)
    assert len({e.player_id for e in entries}) == len(entries) == 7  # 5 team members + 赵六 + 钱七; 孙八 once
    assert len(audit) == 2
    # The offline final runs on the existing pairing code.
    with ctx.work() as work:
        paired = pair(work, None, "open", 1)
    seated = [p for _, part in paired.parts for g in part.games() for p in (g.black, g.white) if p]
    assert sorted(seated) == sorted(e.player_id for e in entries if e.status.value == "approved")


def test_earlier_qualifier_shown_in_the_next_period(closed: tuple[Context, SimClock, live.LiveConfig]) -> None:
    ctx, clock, cfg = closed
    t = epoch(datetime(2025, 6, 1, 12, 0))
    for k, (winner, loser) in enumerate([("T01", "N1"), ("N2", "N3"), ("T01", "N4")]):
        with ctx.work() as work:
            info, game = live.start_game(work, cfg, period=2, pool="open", black=(winner, winner),
                                         white=(loser, loser), start=t + k)
            game.act(WHITE, Kind.RESIGN, game.version, t + k + 60)
            live.finish_game(work, cfg, info.id, game)
    clock.now = datetime(2025, 6, 15, 0, 0)  # period 2 ends 06-14
    with ctx.work() as work:
        (open2, _) = q.close_period(work, None, 2)
        period2 = {p.player for p in q.all_places(work, None) if p.period == 2}
    rows = {r.player: r for r in open2.rows}
    assert rows["T01"].place == 1 and not rows["T01"].qualified and rows["T01"].note() == "已在第1期晋级"
    assert rows["N2"].qualified and "T01" not in period2 and "N2" in period2
