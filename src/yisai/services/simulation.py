"""A whole online-qualifier period simulated through the real services (no web, no sockets).

What is real: the matching (``qualifier.matching.Matchmaker`` waves, seeded, stored with
``store_wave``), ``start_game`` and ``finish_game`` (result, SGF, ladder lines in one
transaction), the live game itself (``LiveGame``: clocks, presence, escape), the period close and
the qualification list. What is simulated: the players' play — a game is a few moves, then the
weaker side (by a hidden strength, seeded) resigns, runs out of time or escapes by staying away
over 120 s; the SGF is that short record. Waves come at fixed steps across the period's days.
"""

from __future__ import annotations

import random
import time as walltime
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from yisai.game.board import BLACK, WHITE
from yisai.qualifier.matching import Matchmaker
from yisai.qualifier.periods import pool_of, window
from yisai.qualifier.session import Kind, LiveGame
from yisai.services.context import Context
from yisai.services.live import LiveConfig, finish_game, live_config, start_game, store_wave

BEIJING_OFFSET = 8 * 3600


class SimClock:
    """The injected Beijing wall clock of the simulation (``Settings.clock``)."""

    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now


def epoch(beijing: datetime) -> float:
    """Epoch seconds of a naive Beijing wall time (the live server's clock)."""
    return (beijing - datetime(1970, 1, 1)).total_seconds() - BEIJING_OFFSET


@dataclass
class SimReport:
    players: int
    games: int = 0
    escapes: int = 0
    waves: int = 0
    wall_seconds: float = 0.0
    cpu_seconds: float = 0.0
    by_pool: dict[str, int] = field(default_factory=dict)


def _play_out(cfg: LiveConfig, game: LiveGame, start: float, loser: int, how: str, moves: int) -> None:
    at = start
    board = game.flow.board
    for i in range(moves):  # a short opening on the 4-4 / 3-4 points, alternating colours
        color = BLACK if i % 2 == 0 else WHITE
        at += 5.0 + (i % 7)
        point = board.parse_gtp(("D4", "Q16", "Q4", "D16", "C3", "R17", "R3", "C17")[i % 8])
        if board[point] != 0:
            break
        game.act(color, Kind.MOVE, game.version, at, point=point)
    at += 10.0
    if how == "escape":
        game.attach(loser, "sim", at)
        game.detach(loser, "sim", at)
        game.tick(at + cfg.rules.disconnection.max_total_absence_seconds + 1)
    else:
        game.act(loser, Kind.RESIGN, game.version, at)


def simulate_period(
    ctx: Context,
    clock: SimClock,
    event_ref: str | int | None,
    period: int,
    players: int,
    *,
    seed: int = 1,
    waves: int = 40,
    join_rate: float = 0.6,
    escape_rate: float = 0.02,
    youth_share: float = 0.3,
    moves: int = 6,
    batch: int = 400,
    progress: Callable[[str], None] | None = None,
) -> SimReport:
    """Play ``waves`` matching waves over period ``period``; each wave every simulated player joins
    the queue with probability ``join_rate``. Returns counts and timings (wall and CPU)."""
    rng = random.Random(f"yisai-simulate/{seed}")
    with ctx.work() as work:
        cfg = live_config(work, event_ref, lag_cap=0.0)
    p = next(x for x in cfg.stage.periods if x.number == period)
    w = window(p)
    members = [d for d in cfg.stage.divisions]
    youth = [d for d in members if pool_of(cfg.ladder, d) != d] or members[1:] or members
    strength: dict[str, float] = {}
    division: dict[str, str] = {}
    for n in range(players):
        pid = f"sim{n:06d}"
        strength[pid] = rng.gauss(0, 1)
        division[pid] = rng.choice(youth) if rng.random() < youth_share else members[0]
    mm = Matchmaker(seed)
    report = SimReport(players)
    step = (w.closes - w.opens - timedelta(hours=1)) / waves
    t0, c0 = walltime.perf_counter(), walltime.process_time()
    for k in range(waves):
        at = w.opens + step * k
        clock.now = at
        now = epoch(at)
        for pid in strength:
            if rng.random() < join_rate:
                mm.enqueue(pool_of(cfg.ladder, division[pid]), pid, now)
        pairs = []
        for pool in cfg.pools:
            if mm.waiting(pool) < 2:
                continue
            wave = mm.run_wave(pool, now)
            if wave.pairs:
                with ctx.work() as work:
                    store_wave(work, cfg, at.date(), wave)
                mm.confirm(wave)
                report.waves += 1
                pairs += [(pool, m.black, m.white) for m in wave.pairs]
        for q in mm.queues.values():  # whoever was not paired leaves; next wave they may return
            q.clear()
        for i in range(0, len(pairs), batch):
            chunk = pairs[i:i + batch]
            started = []
            with ctx.work() as work:
                for pool, b, wh in chunk:
                    info, game = start_game(work, cfg, period=period, pool=pool, black=(b, f"棋手{b[3:]}"),
                                            white=(wh, f"棋手{wh[3:]}"), start=now)
                    started.append((info, game, b, wh))
            clock.now = at + timedelta(minutes=20)
            with ctx.work() as work:
                for info, game, b, wh in started:
                    black_wins = rng.random() < 1 / (1 + 10 ** ((strength[wh] - strength[b]) / 1.5))
                    loser = WHITE if black_wins else BLACK
                    how = "escape" if rng.random() < escape_rate else "resign"
                    _play_out(cfg, game, now, loser, how, moves)
                    finish_game(work, cfg, info.id, game)
                    report.games += 1
                    report.escapes += how == "escape"
                    report.by_pool[info.pool] = report.by_pool.get(info.pool, 0) + 1
            clock.now = at
        if progress is not None and (k + 1) % max(1, waves // 10) == 0:
            progress(f"wave {k + 1}/{waves}: {report.games} games")
    report.wall_seconds = walltime.perf_counter() - t0
    report.cpu_seconds = walltime.process_time() - c0
    clock.now = w.closes
    return report


__all__ = ["SimClock", "SimReport", "epoch", "simulate_period"]
