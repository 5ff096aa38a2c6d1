"""The operator's figures from the store: games in progress, games per hour, escapes per day,
matching waits — checked against counts made directly from the simulated period."""

from __future__ import annotations

from datetime import datetime, timedelta

from tests.qualification.conftest import epoch
from yisai.qualifier.matching import Matchmaker
from yisai.services import live, operations
from yisai.services.context import Context
from yisai.services.simulation import SimClock, simulate_period
from yisai.store import live_rows


def test_dashboard_counts(world: tuple[Context, SimClock]) -> None:
    ctx, clock = world
    report = simulate_period(ctx, clock, None, 1, 300, seed=3, waves=2, join_rate=1.0, escape_rate=0.2)
    # waves=2 over the period: at 05-06 10:00 and ten days later; games end 20 minutes after.
    second = datetime(2025, 5, 6, 10, 0) + (datetime(2025, 5, 26) - datetime(2025, 5, 6, 10, 0) - timedelta(hours=1)) / 2
    with ctx.work() as work:
        cfg = live.live_config(work, None)
        finished = live_rows.games_with_status(work.session, "finished", cfg.event_id)
        # one game still being played, and a wave whose two players waited 37 s and 19 s
        live.start_game(work, cfg, period=1, pool="open", black=("p1", "甲"), white=("p2", "乙"),
                        start=epoch(second + timedelta(minutes=25)))
        mm = Matchmaker(5)
        mm.enqueue("youth", "y1", epoch(second + timedelta(minutes=25)))
        mm.enqueue("youth", "y2", epoch(second + timedelta(minutes=25, seconds=18)))
        live.store_wave(work, cfg, second.date(), mm.run_wave("youth", epoch(second + timedelta(minutes=25, seconds=37))))
    clock.now = second + timedelta(minutes=26)
    with ctx.work() as work:
        d = operations.dashboard(work, None)
    last_wave = [g for g in finished if g.finished_at and g.finished_at >= second]
    assert d.playing == 1 and d.online == 4  # two in the game, two in the wave a minute ago
    hour = (second + timedelta(minutes=20)).strftime("%H:00")
    assert dict(d.games_per_hour)[hour] == len(last_wave)
    escapes = {}
    for g in finished:
        if g.info.reason == "escape" and g.finished_at is not None:
            escapes[g.finished_at.strftime("%m-%d")] = escapes.get(g.finished_at.strftime("%m-%d"), 0) + 1
    assert {k: v for k, v in d.escapes_per_day if v} == escapes and report.escapes == sum(escapes.values())
    hist = dict(d.wait_histogram)
    with ctx.work() as work:
        waves = live.day_waves(work, cfg, second.date())
    simulated = sum(len(w["waiting"]) for w in waves if w["at"] < epoch(second) + 1)
    assert hist["≤20s"] == 1 and hist["≤60s"] == 1  # 19 s and 37 s
    assert hist["≤3s"] == simulated  # the simulation queues everyone at the wave's instant
