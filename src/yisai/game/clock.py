"""The game clock: main time, then byo-yomi periods (读秒), time passed in by the caller.

The rule (seed 000: "每方30分钟后，3次20秒读秒，超时判负；20秒内下一步棋，如超过20秒未下棋算1
次，允许超2次，第3次超过20秒未下则判负"):

* Main time runs first. Time beyond it is spent in periods of S seconds.
* Every *full* S seconds spent on one move uses one period: a move after 19.999 s uses none,
  after 20 s one, after 45 s two. Moving inside a period restores it to a full S seconds.
* When the last period is used up (elapsed >= main left + periods x S) the player loses on time.

Why time is injected: the server's clock is authoritative, and tests and replays must get the
same answer as the live game. Every timestamp is a float number of seconds from any origin;
elapsed times are resolved to the microsecond so that 20.1 - 0.1 counts as exactly 20 s.

The lag allowance: a server may credit a move with the measured network delay, at most
``lag_cap`` seconds per move. Because a move may arrive up to ``lag_cap`` late and still be on
time, ``deadline()`` -- when the server should check for a flag -- includes that cap.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass

from yisai.game.board import BLACK, EMPTY, WHITE
from yisai.regulation.rules import TimeControl

RESOLUTION = 6  # decimal places of a second kept in elapsed times


@dataclass(slots=True)
class PlayerTime:
    """One side's remaining allowance between its moves."""

    main: float  # seconds of main time left
    periods: int  # byo-yomi periods left


@dataclass(frozen=True, slots=True)
class TimeLeft:
    """What a display shows at one instant."""

    main: float
    periods: int
    period_left: float  # seconds left in the current period (a full period outside byo-yomi)
    in_byoyomi: bool
    flagged: bool


class Clock:
    """Both players' clocks; at most one runs at a time."""

    def __init__(self, control: TimeControl, *, lag_cap: float = 0.0) -> None:
        if lag_cap < 0:
            raise ValueError("lag_cap must be >= 0")
        self.period = float(control.byoyomi_seconds) if control.byoyomi_periods else 0.0
        self.periods = control.byoyomi_periods if control.byoyomi_seconds else 0
        self.main = control.main_minutes * 60.0
        self.loss_on_time = control.loss_on_time
        self.lag_cap = float(lag_cap)
        self.left = {
            BLACK: PlayerTime(self.main, self.periods),
            WHITE: PlayerTime(self.main, self.periods),
        }
        self.running = EMPTY  # whose turn it is on the clock (EMPTY before start / after stop)
        self.spent = 0.0  # time of the current turn already banked (before the last pause)
        self.since: float | None = None  # when the current running segment began; None = paused
        self.flagged = EMPTY  # who ran out of time

    @property
    def untimed(self) -> bool:
        return self.main == 0 and self.periods == 0

    # ----- driving the clock -------------------------------------------------------------
    def start(self, now: float, color: int = BLACK) -> None:
        """Start ``color``'s clock (the first move of the game, or after a restore)."""
        self.running = color
        self.spent = 0.0
        self.since = now

    def move(self, color: int, now: float, lag: float = 0.0) -> bool:
        """``color`` has moved at ``now``; charge the turn and start the opponent's clock.

        Returns False (and records the flag) when the move came too late: the player had
        already lost on time. ``lag`` is the credit the server grants, capped at ``lag_cap``.
        """
        if color != self.running:
            raise ValueError("the clock is not running for this player")
        elapsed = self._elapsed(now) - min(max(lag, 0.0), self.lag_cap)
        after = self._charge(self.left[color], max(elapsed, 0.0))
        if after is None:
            self.flagged = color
            self.running = EMPTY
            self.since = None
            return False
        self.left[color] = after
        self.start(now, 3 - color)
        return True

    def pause(self, now: float) -> None:
        """Stop time (scoring phase, server outage); the turn's time so far is kept."""
        if self.since is not None:
            self.spent = self._elapsed(now)
            self.since = None

    def resume(self, now: float) -> None:
        if self.running != EMPTY and self.since is None:
            self.since = now

    def stop(self, now: float) -> None:
        """The game ended: bank nothing more (the last turn is not charged)."""
        self.pause(now)
        self.running = EMPTY

    # ----- reading the clock -------------------------------------------------------------
    def budget(self, color: int) -> float:
        """Seconds ``color`` may spend on its current move before losing on time."""
        t = self.left[color]
        return t.main + t.periods * self.period

    def deadline(self) -> float | None:
        """When the server should check for a flag (None: paused, stopped or untimed)."""
        if self.running == EMPTY or self.since is None or self.untimed:
            return None
        return self.since + (self.budget(self.running) - self.spent) + self.lag_cap

    def check(self, now: float) -> int:
        """Flag the player to move if their time (plus the lag cap) is gone; return who is flagged."""
        if (
            self.flagged == EMPTY
            and self.running != EMPTY
            and not self.untimed
            and self._elapsed(now) - self.lag_cap >= self.budget(self.running)
        ):
            self.flagged = self.running
            self.running = EMPTY
            self.since = None
        return self.flagged

    def time_left(self, color: int, now: float) -> TimeLeft:
        t = self.left[color]
        if color != self.running:
            return TimeLeft(
                t.main,
                t.periods,
                self.period,
                t.main <= 0 and self.periods > 0,
                self.flagged == color,
            )
        elapsed = self._elapsed(now)
        if elapsed < t.main or self.untimed:
            return TimeLeft(t.main - elapsed, t.periods, self.period, False, False)
        after = self._charge(t, elapsed)
        if after is None:
            return TimeLeft(0.0, 0, 0.0, True, True)
        over = round(elapsed - t.main, RESOLUTION)
        into = over - (t.periods - after.periods) * self.period
        return TimeLeft(0.0, after.periods, round(self.period - into, RESOLUTION), True, False)

    # ----- snapshot ----------------------------------------------------------------------
    def snapshot(self) -> dict:
        """Plain data (JSON-ready) to persist a clock and rebuild it after a restart."""
        return {
            "main": self.main,
            "periods": self.periods,
            "period": self.period,
            "loss_on_time": self.loss_on_time,
            "lag_cap": self.lag_cap,
            "left": {str(c): asdict(t) for c, t in self.left.items()},
            "running": self.running,
            "spent": self.spent,
            "since": self.since,
            "flagged": self.flagged,
        }

    @classmethod
    def restore(cls, data: dict) -> Clock:
        clock = cls.__new__(cls)
        clock.main = float(data["main"])
        clock.periods = int(data["periods"])
        clock.period = float(data["period"])
        clock.loss_on_time = bool(data["loss_on_time"])
        clock.lag_cap = float(data["lag_cap"])
        clock.left = {
            int(c): PlayerTime(float(t["main"]), int(t["periods"])) for c, t in data["left"].items()
        }
        clock.running = int(data["running"])
        clock.spent = float(data["spent"])
        clock.since = None if data["since"] is None else float(data["since"])
        clock.flagged = int(data["flagged"])
        return clock

    # ----- internals ---------------------------------------------------------------------
    def _elapsed(self, now: float) -> float:
        running = 0.0 if self.since is None else now - self.since
        return round(self.spent + running, RESOLUTION)

    def _charge(self, t: PlayerTime, elapsed: float) -> PlayerTime | None:
        """Remaining time after a move that took ``elapsed`` seconds; None = lost on time."""
        if self.untimed:
            return t
        if elapsed < t.main:
            return PlayerTime(round(t.main - elapsed, RESOLUTION), t.periods)
        if self.periods == 0:
            return None
        over = round(elapsed - t.main, RESOLUTION)
        used = math.floor(over / self.period)
        if used >= t.periods:
            return None
        return PlayerTime(0.0, t.periods - used)


__all__ = ["Clock", "PlayerTime", "TimeLeft"]
