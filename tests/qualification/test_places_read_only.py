"""One deadline rule, and reading never writes: the deadline table (`yisai qualifier deadlines`)
gives the date the places carry; listing places past that date changes nothing in the store
(the place shows as lapsed); only the lapse duty writes it, once."""

from __future__ import annotations

from datetime import date, datetime

from sqlalchemy import text

from yisai.services import live
from yisai.services import qualification as q
from yisai.services.context import Context
from yisai.services.simulation import SimClock


def _snapshot(ctx: Context) -> list[tuple[object, ...]]:
    with ctx.work() as work:
        places = work.session.execute(text("SELECT * FROM qual_places ORDER BY id")).all()
        audit = work.session.execute(text("SELECT COUNT(*) FROM audit")).scalar()
    return [*map(tuple, places), (audit,)]


def test_the_table_and_the_places_agree(closed: tuple[Context, SimClock, live.LiveConfig]) -> None:
    ctx, _, _ = closed
    with ctx.work() as work:
        (stage,) = q.confirmation_deadlines(live.live_config(work, None).regulation)
        places = q.all_places(work, None)
    table = {p.number: p.deadline for p in stage.periods}
    assert places and {p.deadline for p in places} == {table[1]} == {date(2025, 6, 10)}


def test_listing_after_the_deadline_writes_nothing(closed: tuple[Context, SimClock, live.LiveConfig]) -> None:
    ctx, clock, _ = closed
    clock.now = datetime(2025, 6, 11, 9, 0)  # the day after period 1's deadline (2025-06-10)
    before = _snapshot(ctx)
    with ctx.work() as work:
        shown = q.all_places(work, None)
    assert {p.status for p in shown} == {"lapsed"}  # shown as lapsed …
    assert _snapshot(ctx) == before  # … but nothing written
    with ctx.work() as work:
        done = q.lapse_overdue(work, None)
    assert len(done) == len(shown) and _snapshot(ctx) != before
    with ctx.work() as work:
        assert q.lapse_overdue(work, None) == []  # once
