"""Qualification tests run on SQLite and PostgreSQL (the store tests' ``db_url`` fixture), with
an event made from seed 000's regulation and an injected Beijing clock."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date, datetime
from pathlib import Path

import pytest

from tests.conftest import REGULATIONS
from tests.idnumbers import make_id_number
from tests.store.conftest import db_url
from yisai.game.board import WHITE
from yisai.qualifier.session import Kind
from yisai.registry.person import Gender
from yisai.services import live
from yisai.services import qualification as q
from yisai.services.accounts import create_user
from yisai.services.context import Context, open_context
from yisai.services.events import create_event
from yisai.services.identity import Actor, Role
from yisai.services.settings import Settings
from yisai.services.simulation import SimClock, epoch
from yisai.store import live_rows

__all__ = ["CLOSE", "build_site_db", "closed", "db_url", "fields", "player", "world"]

CLOSE = datetime(2025, 5, 26, 0, 0)  # period 1 is 2025-05-06 … 05-25: closes at midnight after


@pytest.fixture
def world(db_url: str) -> Iterator[tuple[Context, SimClock]]:
    clock = SimClock(datetime(2025, 5, 6, 10, 0))
    ctx = open_context(db_url, actor="裁判长", now=clock)
    with ctx.work() as work:
        create_event(work, REGULATIONS / "2025-shanhai-cup.toml")
    try:
        yield ctx, clock
    finally:
        ctx.close()


def player(pid: str) -> Actor:
    return Actor(pid, pid, Role.PLAYER)


def fields(name: str, born: date, seq: int, gender: Gender = Gender.MALE, **extra: str) -> dict[str, str]:
    return {"name": name, "gender": gender.label, "id_number": make_id_number("330102", born, seq, gender),
            "certificate_no": f"ZJ{seq:05d}", "rank": "5段", "region": "中国大陆", **extra}



def _line(ctx: Context, cfg: live.LiveConfig, winner: str, loser: str, t: float) -> None:
    with ctx.work() as work:
        info, game = live.start_game(work, cfg, period=1, pool="open", black=(winner, winner),
                                     white=(loser, loser), start=t)
        game.act(WHITE, Kind.RESIGN, game.version, t + 60)
        live.finish_game(work, cfg, info.id, game)


@pytest.fixture
def closed(world: tuple[Context, SimClock]) -> tuple[Context, SimClock, live.LiveConfig]:
    """Period 1 by hand: T01…T37 win twice (4 points), X1…X3 win once (2 points, 1 win) — X1…X3
    share place 38; L01…L40 only lose. Closed and published at the boundary."""
    ctx, clock = world
    with ctx.work() as work:
        cfg = live.live_config(work, None)
    t = epoch(datetime(2025, 5, 10, 12, 0))
    losers = [f"L{i:02d}" for i in range(1, 41)]
    k = 0
    for i in range(1, 38):
        for _ in range(2):
            _line(ctx, cfg, f"T{i:02d}", losers[k % 40], t + k)
            k += 1
    for x in ("X1", "X2", "X3"):
        _line(ctx, cfg, x, losers[k % 40], t + k)
        k += 1
    clock.now = CLOSE
    with ctx.work() as work:
        q.close_period(work, None, 1)
    return ctx, clock, cfg


def build_site_db(db: Path, password: str) -> tuple[int, str, int]:
    """Seed 000's event; period 1 played by hand (the player account wins twice, X1–X3 share
    place 38) and closed. Returns the event, the player's live id and X1's game."""
    clock = SimClock(datetime(2025, 5, 10, 12, 0))
    with open_context(Settings(database=str(db), clock=clock), actor=Actor.system()) as ctx:
        with ctx.work() as work:
            event = create_event(work, REGULATIONS / "2025-shanhai-cup.toml")
            create_user(work, "director", "裁判长甲", Role.CHIEF_REFEREE, password)
            me = create_user(work, "player1", "棋手甲", Role.PLAYER, password, phone="13900001111")
            cfg = live.live_config(work, None)
        winners = [str(me.id)] + [f"T{i:02d}" for i in range(2, 38)]
        t = epoch(clock.now)
        k = 0
        x1_game = 0
        for pid, times in [(w, 2) for w in winners] + [(x, 1) for x in ("X1", "X2", "X3")]:
            for _ in range(times):
                with ctx.work() as work:
                    name = "棋手甲" if pid == str(me.id) else pid
                    info, game = live.start_game(work, cfg, period=1, pool="open", black=(pid, name),
                                                 white=(f"L{k % 40:02d}", f"L{k % 40:02d}"), start=t + k)
                    game.act(WHITE, Kind.RESIGN, game.version, t + k + 60)
                    live.finish_game(work, cfg, info.id, game)
                x1_game = info.id if pid == "X1" else x1_game
                k += 1
        clock.now = datetime(2025, 5, 26, 0, 0)
        with ctx.work() as work:
            q.close_period(work, None, 1)
        with ctx.work() as work:
            assert live_rows.get_game(work.session, x1_game).info.black == "X1"
        return event.id, str(me.id), x1_game
