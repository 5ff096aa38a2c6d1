"""The server's scheduled qualifier work: reminders go out and overdue places lapse without anyone
pressing the console's button (seed 000 十(一)3: 十个工作日内 … 逾期默认视为弃权)."""

from __future__ import annotations

from datetime import datetime

import pytest

from tests.qualification.conftest import player
from yisai.services import live
from yisai.services import qualification as q
from yisai.services.context import Context
from yisai.services.errors import Forbidden
from yisai.services.identity import Actor, Role
from yisai.services.simulation import SimClock
from yisai.store import audit_rows
from yisai.web.qualification import qualifier_duties


def test_scheduled_passes_remind_once_then_lapse(closed: tuple[Context, SimClock, live.LiveConfig]) -> None:
    ctx, clock, _ = closed
    event = str(closed[2].event_id)
    clock.now = datetime(2025, 6, 6, 9, 0)  # four days before the deadline day (6/10): nothing due
    qualifier_duties(ctx, event)
    with ctx.work(player("T04")) as work:
        assert [n.kind for n in q.my_notices(work, None)] == ["qualified"]
    clock.now = datetime(2025, 6, 7, 9, 0)
    qualifier_duties(ctx, event)
    qualifier_duties(ctx, event)  # a second pass (or a second worker) adds nothing
    with ctx.work(player("T04")) as work:
        assert sorted(n.kind for n in q.my_notices(work, None)) == ["qualified", "reminder_3"]
    clock.now = datetime(2025, 6, 11, 0, 0)  # the tenth working day ended at 24:00
    qualifier_duties(ctx, event)
    with ctx.work() as work:
        lapsed = q.all_places(work, None, "lapsed")
        assert len(lapsed) == 40 and not q.all_places(work, None, "qualified")
        audit = [a for a in audit_rows.audit_log(work.session, closed[2].event_id, "qualifier_place") if a.action == "lapse"]
    assert len(audit) == 40 and {a.actor for a in audit} == {"system"}


def test_reminders_and_lapses_are_officials_work(closed: tuple[Context, SimClock, live.LiveConfig]) -> None:
    ctx, _, _ = closed
    for actor in (Actor("r1", "裁判员甲", Role.REFEREE), player("T04")):
        with pytest.raises(Forbidden), ctx.work(actor) as work:
            q.send_reminders(work, None)
        with pytest.raises(Forbidden), ctx.work(actor) as work:
            q.lapse_overdue(work, None)


def test_scheduled_pass_computes_the_signals_of_finished_games(
        closed: tuple[Context, SimClock, live.LiveConfig]) -> None:
    from yisai.store import qualification_rows as rows

    ctx, _clock, cfg = closed
    with ctx.work() as work:
        waiting = rows.games_without_signals(work.session, cfg.event_id)
    assert len(waiting) == 77  # 37 × 2 + 3 games of the fixture, none reviewed yet
    qualifier_duties(ctx, str(cfg.event_id))
    with ctx.work() as work:
        assert rows.games_without_signals(work.session, cfg.event_id) == []
        queued = rows.signal_queue(work.session, cfg.event_id, 100)
    assert sorted(gid for gid, _score, _signals in queued) == sorted(waiting)
