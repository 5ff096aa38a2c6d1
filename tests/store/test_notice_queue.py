"""#35 item 2: the SMS queue on SQLite and PostgreSQL — exactly once with several workers
(each with its own connections, as separate processes have), retries with back-off, refusals in
words, per-event switches, the player's opt-out, the daily budget with its 80 % alert, and
every notice in the audit. Deliveries go through the Tencent Cloud SDK to the local server that
verifies the signature (tests/reach/providers.py)."""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from datetime import datetime, timedelta

import pytest
from sqlalchemy import select

from tests.conftest import REGULATIONS
from tests.reach.providers import Provider, serve
from yisai.qualifier.notices import FEE_DUE, SIGN_IN_CODE, NoticeLimits
from yisai.reach.senders import OutboxSms, ProviderAccount, TencentCloudSms
from yisai.services import notices
from yisai.services.context import Context, open_context
from yisai.services.errors import Refused
from yisai.services.events import create_event
from yisai.services.identity import Actor, Role
from yisai.services.settings import Settings
from yisai.store import account_rows, audit_rows, notice_rows
from yisai.store.models import AuditRow

START = datetime(2025, 5, 6, 10, 0)
SID, KEY = "AKIDqueuetest0000000", "queue-test-key-00000"


class Clock:
    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> datetime:
        return self.now


def _ctx(db_url: str, clock: Clock, budget: int = 0) -> Context:
    return open_context(replace(Settings(database=db_url), notice_limits=NoticeLimits(event_daily_budget=budget)),
                        actor="运营", now=clock)  # fmt: skip


def _event(ctx: Context) -> int:
    with ctx.work() as w:
        return create_event(w, REGULATIONS / "2025-xiaoqiwang.toml", seed=3).id


def _fee(ctx: Context, event: int, n: int, first: int = 0) -> list[int]:
    made = []
    with ctx.work() as w:
        for i in range(first, first + n):
            nid = notices.enqueue(w, FEE_DUE, f"1390000{i:04d}", {"event": "小棋王", "amount": "100"},
                                  key=f"fee:{event}:{i}", event_id=event)  # fmt: skip
            assert nid is not None
            made.append(nid)
    return made


def _tencent() -> Provider:
    return Provider(SID, KEY, "弈赛", {"2001", "2002"}, app_id="1400000009")


def _sender(p: Provider) -> TencentCloudSms:
    return TencentCloudSms(ProviderAccount(secret_id=SID, secret_key=KEY, sign_name="弈赛", app_id=p.app_id,
                                           templates={FEE_DUE: "2001", SIGN_IN_CODE: "2002"},
                                           endpoint=p.endpoint, scheme="http", timeout=5))  # fmt: skip


def test_each_notice_goes_out_exactly_once_with_several_workers(db_url: str) -> None:
    clock = Clock()
    setup = _ctx(db_url, clock)
    try:
        event = _event(setup)
        made = _fee(setup, event, 40)
    finally:
        setup.close()
    with serve("tencent", _tencent()) as p:
        sender = _sender(p)
        errors: list[BaseException] = []

        def worker(n: int) -> None:
            ctx = _ctx(db_url, clock)  # its own engine and connections, like another process
            try:
                while notices.work_queue(ctx, sender, limit=3, worker=f"w{n}") != notices.PassResult():
                    pass
            except BaseException as exc:  # reported below
                errors.append(exc)
            finally:
                ctx.close()

        threads = [threading.Thread(target=worker, args=(n,)) for n in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(120)
    assert errors == []
    sent = Counter(int(a["SessionContext"]) for a in p.accepted)
    assert sorted(sent) == sorted(made) and set(sent.values()) == {1}  # every notice, each once
    assert p.accepted[0]["TemplateParamSet"] == ["小棋王", "100"]
    check = _ctx(db_url, clock)
    try:
        with check.work() as w:
            assert {v.state for v in notices.notice_list(w, event)} == {"sent"}
            log = audit_rows.audit_log(w.session, event, "notice")
            delivered = list(w.session.scalars(select(AuditRow).where(
                (AuditRow.entity == "notice") & (AuditRow.action == "deliver"))))
        # the delivery lines name the event inside (the event's own stream is its change stamp)
        assert len(delivered) == 40 and {(a.after or {}).get("state") for a in delivered} == {"sent"}
        assert {(a.after or {}).get("event") for a in delivered} == {event}
        assert len([a for a in log if a.action == "notice"]) == 40
    finally:
        check.close()


def test_a_key_makes_one_notice_and_a_sent_code_is_not_kept(db_url: str) -> None:
    clock = Clock()
    ctx = _ctx(db_url, clock)
    try:
        event = _event(ctx)
        with ctx.work() as w:
            first = notices.enqueue(w, SIGN_IN_CODE, "13800138000", {"code": "654321", "minutes": "5"},
                                    key="code:1", event_id=event)  # fmt: skip
            again = notices.enqueue(w, SIGN_IN_CODE, "13800138000", {"code": "654321", "minutes": "5"},
                                    key="code:1", event_id=event)  # fmt: skip
        assert first is not None and again is None
        outbox = OutboxSms()
        assert notices.work_queue(ctx, outbox) == notices.PassResult(sent=1)
        assert "654321" in outbox.outbox.messages[-1].text
        with ctx.work() as w:
            record = notice_rows.get(w.session, first)
        assert record is not None and record.state == "sent" and record.params["code"] == "******"
        assert record.provider == "outbox"
    finally:
        ctx.close()


def test_retries_back_off_and_a_refusal_is_shown_in_words(db_url: str) -> None:
    clock = Clock()
    ctx = _ctx(db_url, clock)
    try:
        event = _event(ctx)
        [nid] = _fee(ctx, event, 1)
        with serve("tencent", _tencent()) as p:
            p.fail_next.append("LimitExceeded.PhoneNumberOneHourLimit")
            assert notices.work_queue(ctx, _sender(p)) == notices.PassResult(retrying=1)
            with ctx.work() as w:
                [view] = notices.notice_list(w, event)
            assert view.state == "queued" and view.attempts == 1
            assert view.next_at == START + timedelta(seconds=30)  # the first back-off
            assert "一小时内" in view.why().zh
            clock.now = START + timedelta(seconds=29)
            assert notices.work_queue(ctx, _sender(p)) == notices.PassResult()  # not yet due
            clock.now = START + timedelta(seconds=30)
            assert notices.work_queue(ctx, _sender(p)) == notices.PassResult(sent=1)
            [second] = _fee(ctx, event, 1, first=7)
            broken = TencentCloudSms(replace(_sender(p).account, templates={FEE_DUE: "9999"}))
            assert notices.work_queue(ctx, broken) == notices.PassResult(failed=1)  # never retried
            with ctx.work() as w:
                failed = notices.notice_list(w, event, "failed")
            assert [f.id for f in failed] == [second]
            assert failed[0].why().zh.startswith("模板未审核通过") and "TemplateIncorrectOrUnapproved" in failed[0].why().zh
            with ctx.work() as w:
                assert notices.requeue(w, second).state == "queued"
            assert notices.work_queue(ctx, _sender(p)) == notices.PassResult(sent=1)
        assert nid != second
    finally:
        ctx.close()


def test_switches_opt_out_budget_and_the_80_percent_alert(db_url: str) -> None:
    clock = Clock()
    ctx = _ctx(db_url, clock, budget=5)
    try:
        event = _event(ctx)
        with ctx.work() as w:
            notices.switch_kind(w, event, FEE_DUE, on=False)
            off = notices.enqueue(w, FEE_DUE, "13900000001", {"event": "e", "amount": "1"}, key="a", event_id=event)
            notices.switch_kind(w, event, FEE_DUE, on=True)
            user = account_rows.add_user(w.session, w.stamp, "13800000002", "选手", "player", None, phone="13800000002")
        player = Actor(id=str(user.id), name="选手", role=Role.PLAYER)
        with ctx.work(player) as w:
            notices.set_my_opt_out(w, True)
            assert notices.my_opt_out(w)
        with ctx.work() as w:
            out = notices.enqueue(w, FEE_DUE, "13800000002", {"event": "e", "amount": "1"}, key="b",
                                  event_id=event, account=str(user.id))  # fmt: skip
            code = notices.enqueue(w, SIGN_IN_CODE, "13800000002", {"code": "1", "minutes": "5"}, key="c",
                                   event_id=event, account=str(user.id))  # fmt: skip  # a code is never refused
        with ctx.work() as w:
            views = {v.id: v for v in notices.notice_list(w, event)}
        assert (views[off].state, views[off].reason) == ("skipped", "switched_off")
        assert (views[out].state, views[out].reason) == ("skipped", "opted_out")
        assert views[code].state == "queued"
        _fee(ctx, event, 3)  # 1 code + 3 = 4 of 5: the 80 % alert
        with ctx.work() as w:
            alerts = [a for a in audit_rows.audit_log(w.session, event, "notices") if a.action == "budget_alert"]
            assert len(alerts) == 1 and alerts[0].after == {"used": 4, "budget": 5, "day": "2025-05-06"}
            assert notices.notice_summary(w, event).alerted_today
        _fee(ctx, event, 1, first=10)  # the 5th: still within the budget, no second alert
        with ctx.work() as w:
            over = notices.enqueue(w, FEE_DUE, "13900000099", {"event": "e", "amount": "1"}, key="z", event_id=event)
            assert notices.notice_list(w, event)[0].reason == "over_budget" and over is not None
            assert len([a for a in audit_rows.audit_log(w.session, event, "notices") if a.action == "budget_alert"]) == 1
        with pytest.raises(Refused) as refused, ctx.work() as w:
            notices.check_budget(w, event)
        assert refused.value.code == "sms_budget" and "2025-05-07 00:00 后再试" in refused.value.render("zh")
        clock.now = START + timedelta(days=1)  # a new day, a new budget
        with ctx.work() as w:
            notices.check_budget(w, event)
    finally:
        ctx.close()


def test_a_claim_left_by_a_dead_worker_is_not_sent_twice(db_url: str) -> None:
    clock = Clock()
    ctx = _ctx(db_url, clock)
    try:
        event = _event(ctx)
        [nid] = _fee(ctx, event, 1)
        with ctx.work() as w:  # a worker claims it and dies before recording the outcome
            assert [r.id for r in notice_rows.claim(w.session, "dead:1", w.now, 10)] == [nid]
        outbox = OutboxSms()
        # The sweep measures a claim's age on its own clock, from the pass that first saw it
        # open (issue 43: workers on clocks apart closed each other's live claims).
        clock.now = START + timedelta(minutes=1)
        assert notices.work_queue(ctx, outbox) == notices.PassResult()
        clock.now = START + timedelta(minutes=notices.STALE_MINUTES)
        assert notices.work_queue(ctx, outbox) == notices.PassResult()
        with ctx.work() as w:
            assert [v.state for v in notices.notice_list(w, event)] == ["sending"]  # 9 minutes seen
        clock.now = START + timedelta(minutes=notices.STALE_MINUTES + 1)
        assert notices.work_queue(ctx, outbox) == notices.PassResult()
        assert outbox.count == 0
        with ctx.work() as w:
            [view] = notices.notice_list(w, event)
        assert view.state == "failed" and view.reason == "unknown" and "无法确定是否送达" in view.why().zh
    finally:
        ctx.close()


class _SweptWhileSending:
    """A sender whose delivery takes long enough for another process's worker pass to run."""

    name = "slow"

    def __init__(self, during: Callable[[], object]) -> None:
        self.during = during
        self.count = 0

    def deliver(self, sms: object) -> str:
        self.during()
        self.count += 1
        return "slow-1"


def test_a_delivered_message_is_never_marked_failed_by_a_worker_on_another_clock(db_url: str) -> None:
    """The notice worker's clock is 30 minutes behind the web workers' (another host): while it
    delivers, a web worker's pass sweeps. The claim is 30 minutes old by the web worker's clock,
    but it has not seen it open for 10 minutes of its own: it leaves it; the delivery is sent,
    not failed, and nothing is offered for 重发."""
    behind, ahead = Clock(), Clock()
    ahead.now = START + timedelta(minutes=30)
    worker, web = _ctx(db_url, behind), _ctx(db_url, ahead)
    try:
        event = _event(worker)
        [nid] = _fee(worker, event, 1)
        sweeps: list[notices.PassResult] = []
        sender = _SweptWhileSending(lambda: sweeps.append(notices.work_queue(web, OutboxSms())))
        assert notices.work_queue(worker, sender) == notices.PassResult(sent=1)
        assert sweeps == [notices.PassResult()] and sender.count == 1
        with worker.work() as w:
            [view] = notices.notice_list(w, event)
            assert (view.id, view.state) == (nid, "sent")
            with pytest.raises(Refused):
                notices.requeue(w, nid)  # only a failed notice can be sent again
    finally:
        worker.close()
        web.close()


def test_a_delivery_that_ends_after_a_sweep_gave_it_up_is_recorded_as_sent(db_url: str) -> None:
    """A provider that hangs past the sweep: the sweep marks the claim "delivery unknown"; when
    the provider then answers with its id, the message did leave: it is sent, not failed."""
    clock = Clock()
    ctx = _ctx(db_url, clock)
    try:
        event = _event(ctx)
        [nid] = _fee(ctx, event, 1)

        def hang() -> None:
            for minutes in (1, notices.STALE_MINUTES + 2):  # two passes of another worker
                clock.now = START + timedelta(minutes=minutes)
                notices.work_queue(ctx, OutboxSms())
            with ctx.work() as w:
                assert notice_rows.get(w.session, nid).state == "failed"  # type: ignore[union-attr]

        assert notices.work_queue(ctx, _SweptWhileSending(hang)).sent == 1
        with ctx.work() as w:
            [view] = notices.notice_list(w, event)
        assert view.state == "sent"
    finally:
        ctx.close()
