"""#35 item 2: each notice kind is made by the use case that causes it and goes through a real
provider SDK to the local server that checks its signature: pairing published (board, colour,
opponent, time), appeal decided, fee due (Tencent Cloud); place to confirm with its deadline,
the reminder before it lapses and the final entry confirmed (Alibaba Cloud). Runs on SQLite and
PostgreSQL."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import date, datetime

from tests.conftest import REGULATIONS
from tests.qualification.conftest import fields
from tests.reach.providers import Provider, serve
from yisai.game.board import WHITE
from yisai.qualifier import notices as kinds
from yisai.qualifier.session import Kind
from yisai.reach.senders import AlibabaCloudSms, ProviderAccount, TencentCloudSms
from yisai.registry.person import Gender, Player
from yisai.services import live, notices
from yisai.services import qualification as q
from yisai.services.appeals import decide_appeal, file_appeal
from yisai.services.approvals import approve_entry
from yisai.services.context import open_context
from yisai.services.entries import register_player
from yisai.services.events import create_event, resolve_event
from yisai.services.identity import Actor, Role
from yisai.services.publishing import publish_round, unpublish_round
from yisai.services.round_results import rounds_of
from yisai.services.rounds import pair
from yisai.services.simulation import SimClock, epoch
from yisai.store import account_rows, entry_rows, roster_rows
from yisai.vocabulary.rank import Rank

SID, KEY = "AKIDproducers0000000", "producers-key-000000"
TEMPLATES = {k: f"T{i}" for i, k in enumerate(kinds.KINDS, 1)}


def _account(p: Provider) -> ProviderAccount:
    return ProviderAccount(secret_id=SID, secret_key=KEY, sign_name="弈赛", app_id=p.app_id, templates=TEMPLATES,
                           endpoint=p.endpoint, scheme="http", timeout=5)  # fmt: skip


def test_pairings_appeals_and_fees_reach_the_players(db_url: str) -> None:
    ctx = open_context(db_url, actor="裁判长", now=datetime(2025, 5, 2, 8, 0))
    try:
        with ctx.work() as w:
            event = create_event(w, REGULATIONS / "2025-xiaoqiwang.toml", seed=11)
            for i in range(1, 5):
                p = Player(id="", name=f"选手{i}", gender=Gender.MALE, birth_date=date(2013, i, 1),
                           rank=Rank.parse(f"{i}段"), certificate_no=f"C{i}", region="中国大陆", province="浙江",
                           phone=f"1390000000{i}")  # fmt: skip
                reg = register_player(w, resolve_event(w, None), p, division="jia", late=True,
                                      note="赛事当天补报")  # 5/2 is after the deadline (4/18)
                if reg.entry.status.value != "approved":
                    approve_entry(w, reg.entry.id, force=True, note="测试")
            pair(w, None, "jia", 1)
            publish_round(w, None, "jia", 1)
            games = [g for r in rounds_of(w, None, "jia", 1)[2] for g in r.games]
            names = {pid: pl.name for pid, pl in roster_rows.players_by_id(w.session, event.id).items()}
            phones = {pid: pl.phone for pid, pl in roster_rows.players_by_id(w.session, event.id).items()}
        with ctx.work() as w:  # published again after a correction: nobody is told twice
            unpublish_round(w, None, "jia", 1)
            publish_round(w, None, "jia", 1)
        expected = {}
        for g in games:
            assert g.white is not None
            expected[f"+86{phones[g.black]}"] = [event.name, "1", str(g.board), "黑", names[g.white], "按竞赛日程"]
            expected[f"+86{phones[g.white]}"] = [event.name, "1", str(g.board), "白", names[g.black], "按竞赛日程"]
        with ctx.work() as w:
            appeal = file_appeal(w, None, "jia", 1, appellant="选手3", subject="对方超时未判")
            decide_appeal(w, None, appeal.id, upheld=True, decision="计时钟故障, 重赛")
            entry = roster_rows.list_entries(w.session, event.id, player_id=next(k for k, v in names.items() if v == "选手2"))[0]
            entry_rows.update_entry(w.session, w.stamp, entry.model_copy(update={"fee_due": 200}), "fee", "测试: 报名费")
        with ctx.work() as w:
            assert notices.remind_fees(w, event.id) == 1
            assert notices.remind_fees(w, event.id) == 0  # once a day
        tencent = Provider(SID, KEY, "弈赛", set(TEMPLATES.values()), app_id="1400000042")
        with serve("tencent", tencent) as p:
            assert notices.work_queue(ctx, TencentCloudSms(_account(p))) == notices.PassResult(sent=6)
        by_template: dict[str, list[dict[str, object]]] = {}
        for a in p.accepted:
            by_template.setdefault(str(a["TemplateId"]), []).append(a)
        pairing = by_template[TEMPLATES[kinds.PAIRING_PUBLISHED]]
        assert {str(a["PhoneNumber"]): a["TemplateParamSet"] for a in pairing} == expected
        [told] = by_template[TEMPLATES[kinds.APPEAL_DECIDED]]
        assert told["PhoneNumber"] == "+8613900000003"
        assert told["TemplateParamSet"] == [event.name, "1", "申诉成立，申诉费退还"]
        [fee] = by_template[TEMPLATES[kinds.FEE_DUE]]
        assert fee["PhoneNumber"] == "+8613900000002" and fee["TemplateParamSet"] == [event.name, "200"]
    finally:
        ctx.close()


def test_a_qualified_player_is_told_the_deadline_reminded_and_confirmed(db_url: str) -> None:
    clock = SimClock(datetime(2025, 5, 6, 10, 0))
    ctx = open_context(db_url, actor="裁判长", now=clock)
    try:
        with ctx.work() as w:
            create_event(w, REGULATIONS / "2025-shanhai-cup.toml")
            winner = account_rows.add_user(w.session, w.stamp, "13700000001", "选手甲", "player", None, phone="13700000001")
            cfg = live.live_config(w, None)
            event_name = resolve_event(w, None).name
            assert len(event_name) == 34  # the seed's name: every place notice would be two parts
        me = str(winner.id)
        t = epoch(datetime(2025, 5, 10, 12, 0))
        for k, loser in enumerate(("L1", "L2")):
            with ctx.work() as w:
                info, game = live.start_game(w, cfg, period=1, pool="open", black=(me, "选手甲"),
                                             white=(loser, loser), start=t + k)  # fmt: skip
                game.act(WHITE, Kind.RESIGN, game.version, t + k + 60)
                live.finish_game(w, cfg, info.id, game)
        clock.now = datetime(2025, 5, 26, 0, 0)
        with ctx.work() as w:
            q.close_period(w, None, 1)
        with ctx.work(Actor(me, "选手甲", Role.PLAYER)) as w:
            [place] = q.my_places(w, None)
        clock.now = datetime(2025, 6, 7, 9, 0)  # three days before the deadline day
        with ctx.work() as w:
            assert len(q.send_reminders(w, None)) == 3  # all three qualify (fewer than 38 played)
        with ctx.work(Actor(me, "选手甲", Role.PLAYER)) as w:
            q.confirm_place(w, None, place.id, fields("张三", date(1990, 3, 1), 1))
        aliyun = Provider(SID, KEY, "弈赛", set(TEMPLATES.values()))
        with serve("aliyun", aliyun) as p:
            sender = AlibabaCloudSms(replace(_account(p), app_id=""))
            assert notices.work_queue(ctx, sender) == notices.PassResult(sent=3)
        got = {a["TemplateCode"]: json.loads(str(a["TemplateParam"])) for a in p.accepted}
        assert {a["PhoneNumbers"] for a in p.accepted} == {"13700000001"}
        deadline = f"{place.deadline:%Y-%m-%d}"
        # The regulation's short name, not the 34-character name: each notice is one SMS part
        # (70 characters with the signature 【弈赛】, counted by hand for the place notice:
        # 4 + 41 fixed characters + 8 (山海杯棋王争霸赛) + 1 (period) + 10 (the date) = 64).
        assert got[TEMPLATES[kinds.PLACE_TO_CONFIRM]] == {"event": "山海杯棋王争霸赛", "period": "1",
                                                          "deadline": deadline}
        assert all(values["event"] == "山海杯棋王争霸赛" for values in got.values())
        assert kinds.sms_length(kinds.PLACE_TO_CONFIRM, got[TEMPLATES[kinds.PLACE_TO_CONFIRM]]) == 64
        assert kinds.sms_length(kinds.PLACE_TO_CONFIRM, {**got[TEMPLATES[kinds.PLACE_TO_CONFIRM]],
                                                         "event": event_name}) == 90  # two parts
        assert got[TEMPLATES[kinds.CONFIRM_REMINDER]]["deadline"] == deadline
        assert got[TEMPLATES[kinds.FINAL_ENTRY_CONFIRMED]]["division"] == "公开组"
        with ctx.work() as w:
            views = notices.notice_list(w, None)
        skipped = [v for v in views if v.state == "skipped"]
        assert len(skipped) == 4 and {v.reason for v in skipped} == {"no_phone"}  # L1, L2: no account
    finally:
        ctx.close()
