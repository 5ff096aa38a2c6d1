"""Byo-yomi clock at the edges: 19.999 s, 20 s, 40 s, 45 s, 60 s; pause, lag, snapshot."""

from __future__ import annotations

import json

import pytest

from yisai.game.board import BLACK, EMPTY, WHITE
from yisai.game.clock import Clock
from yisai.regulation.rules import TimeControl

SEED_000 = TimeControl(main_minutes=30, byoyomi_periods=3, byoyomi_seconds=20)
BYO_ONLY = TimeControl(main_minutes=0, byoyomi_periods=3, byoyomi_seconds=20)


def _one_move(control: TimeControl, seconds: float, **kw) -> Clock:
    clock = Clock(control, **kw)
    clock.start(1000.0, BLACK)
    clock.move(BLACK, 1000.0 + seconds)
    return clock


@pytest.mark.parametrize(
    ("seconds", "periods_left"),
    [(0.0, 3), (19.999, 3), (20.0, 2), (39.999, 2), (40.0, 1), (45.0, 1), (59.999, 1)],
)
def test_each_full_period_used_costs_one(seconds: float, periods_left: int) -> None:
    clock = _one_move(BYO_ONLY, seconds)
    assert clock.flagged == EMPTY
    assert clock.left[BLACK].periods == periods_left
    assert clock.running == WHITE


def test_the_third_overrun_loses_on_time() -> None:
    clock = Clock(BYO_ONLY)
    clock.start(0.0, BLACK)
    assert clock.move(BLACK, 60.0) is False  # 3 x 20 s all used: "第3次超过20秒未下则判负"
    assert clock.flagged == BLACK


def test_main_time_then_byoyomi() -> None:
    clock = _one_move(SEED_000, 100.0)
    assert clock.left[BLACK].main == 1700.0 and clock.left[BLACK].periods == 3
    clock = _one_move(SEED_000, 1800 + 45.0)  # main time gone, then 45 s: two periods
    assert clock.left[BLACK].main == 0.0 and clock.left[BLACK].periods == 1
    clock = _one_move(SEED_000, 1800.0)  # exactly the main time: no period used yet
    assert clock.left[BLACK].periods == 3


def test_moving_inside_a_period_restores_it() -> None:
    clock = Clock(BYO_ONLY)
    clock.start(0.0, BLACK)
    clock.move(BLACK, 45.0)  # uses two periods, one left
    clock.move(WHITE, 46.0)
    clock.move(BLACK, 46.0 + 19.9)  # inside the last period: it is restored
    assert clock.left[BLACK].periods == 1
    clock.move(WHITE, 70.0)
    assert clock.deadline() == 90.0  # a full 20 s again
    assert clock.move(BLACK, 89.999)
    assert clock.left[BLACK].periods == 1


def test_deadline_and_check() -> None:
    clock = Clock(BYO_ONLY)
    clock.start(1000.0, BLACK)
    assert clock.deadline() == 1060.0
    assert clock.check(1059.999) == EMPTY
    assert clock.check(1060.0) == BLACK
    assert clock.deadline() is None  # stopped


def test_deadline_in_main_time() -> None:
    clock = Clock(SEED_000)
    clock.start(0.0, BLACK)
    assert clock.deadline() == 1800 + 60


def test_time_left_display() -> None:
    clock = Clock(SEED_000)
    clock.start(0.0, BLACK)
    shown = clock.time_left(BLACK, 1800 + 25.0)
    assert shown.in_byoyomi and shown.periods == 2 and shown.period_left == 15.0
    assert clock.time_left(WHITE, 1800 + 25.0).main == 1800.0


def test_pause_and_resume() -> None:
    clock = Clock(BYO_ONLY)
    clock.start(0.0, BLACK)
    clock.pause(10.0)
    assert clock.deadline() is None
    assert clock.check(500.0) == EMPTY
    clock.resume(110.0)
    assert clock.deadline() == 160.0  # 50 s of budget were left at the pause
    clock.move(BLACK, 110.0 + 9.999)  # 19.999 s of running time in all
    assert clock.left[BLACK].periods == 3


def test_lag_allowance_is_capped() -> None:
    clock = Clock(BYO_ONLY, lag_cap=1.0)
    clock.start(0.0, BLACK)
    assert clock.deadline() == 61.0  # the server waits for a late move within the cap
    clock.move(BLACK, 20.5, lag=0.7)  # counted as 19.8 s
    assert clock.left[BLACK].periods == 3
    clock.move(WHITE, 100.0, lag=5.0)  # credit capped at 1 s: 79 s on the clock
    assert clock.flagged == WHITE


def test_no_byoyomi_main_time_only() -> None:
    control = TimeControl(main_minutes=1)
    assert _one_move(control, 59.999).flagged == EMPTY
    assert _one_move(control, 60.0).flagged == BLACK


def test_untimed_never_flags() -> None:
    clock = Clock(TimeControl(main_minutes=0))
    clock.start(0.0, BLACK)
    assert clock.deadline() is None
    assert clock.move(BLACK, 10_000.0)


def test_float_noise_does_not_move_an_edge() -> None:
    clock = Clock(BYO_ONLY)
    clock.start(0.1, BLACK)
    clock.move(BLACK, 20.1)  # 20.1 - 0.1 is 20 s, though not exactly in binary floating point
    assert clock.left[BLACK].periods == 2


def test_snapshot_round_trip_mid_turn() -> None:
    clock = Clock(SEED_000, lag_cap=0.5)
    clock.start(0.0, BLACK)
    clock.move(BLACK, 1830.0)
    clock.pause(1840.0)
    data = json.loads(json.dumps(clock.snapshot()))
    again = Clock.restore(data)
    assert again.snapshot() == clock.snapshot()
    again.resume(2000.0)
    clock.resume(2000.0)
    # White: 1800 s main + 3 x 20 s, 10 s spent before the pause.
    assert again.deadline() == clock.deadline() == 2000.0 + 1850.0 + 0.5
    assert again.left[BLACK].periods == 2


def test_moving_out_of_turn_is_an_error() -> None:
    clock = Clock(SEED_000)
    clock.start(0.0, BLACK)
    with pytest.raises(ValueError):
        clock.move(WHITE, 1.0)
