"""Disconnections and escapes (断线与逃跑) in online play, with time passed in.

The regulation (seed 000): "一局比赛中断线总时长超过2分钟，或断线次数大于2次，即视为逃跑（不在
弈战平台中即算中断，每次中断超过60秒即算断线）". With the defaults of
``yisai.regulation.rules.DisconnectionRules``:

* An *absence* runs from a disconnect event to the next connect event of that player.
* An absence becomes *one disconnection* once it lasts more than 60 s (exactly 60 s is not).
* Escape (逃跑) once disconnections exceed 2 -- i.e. when the third absence passes 60 s -- or
  once the total of absences exceeds 120 s (short absences count too, unless the regulation's
  ``short_absences_count_in_total`` is false, in which case only absences over 60 s count).
* The escape happens at an exact instant, ``escape_instant()``: the player is escaped at any
  time strictly after it (the limits are "超过", more than). A server schedules its check there.
* The game clock is *not* stopped by an absence; the clock and this tracker run side by side.
* Both players away at once: each side is tracked independently. ``check(now)`` returns every
  side whose escape instant has passed, earliest first; if both escape at the very same
  instant both are escapes (双方逃跑) and the referee applies the regulation to each.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

from yisai.game.board import BLACK, WHITE
from yisai.regulation.rules import DisconnectionRules


@dataclass(slots=True)
class Attendance:
    """One player's record in one game."""

    away_since: float | None = None  # None: connected
    absences: list[tuple[float, float]] = field(default_factory=list)  # finished (from, to)
    escaped_at: float | None = None


@dataclass(frozen=True, slots=True)
class PresenceStatus:
    connected: bool
    disconnections: int
    total_absence: float  # seconds that count toward the total limit
    escaped_at: float | None


class Presence:
    """Connect/disconnect events for both players of one game."""

    def __init__(
        self,
        rules: DisconnectionRules | None = None,
        start: float = 0.0,
        present: tuple[int, ...] = (BLACK, WHITE),
    ) -> None:
        self.rules = rules or DisconnectionRules()
        self.closed_at: float | None = None
        self.players = {c: Attendance(None if c in present else start) for c in (BLACK, WHITE)}

    # ----- events ------------------------------------------------------------------------
    def disconnect(self, color: int, now: float) -> None:
        a = self.players[color]
        if a.away_since is None and self.closed_at is None:
            a.away_since = now

    def connect(self, color: int, now: float) -> None:
        self._settle(color, now)
        a = self.players[color]
        if a.away_since is not None:
            a.absences.append((a.away_since, now))
            a.away_since = None

    def close(self, now: float) -> None:
        """The game is over: absences stop counting (escapes already due are recorded first)."""
        for c in (BLACK, WHITE):
            self._settle(c, now)
            a = self.players[c]
            if a.away_since is not None:
                a.absences.append((a.away_since, now))
                a.away_since = None
        self.closed_at = now

    # ----- queries -----------------------------------------------------------------------
    def status(self, color: int, now: float) -> PresenceStatus:
        a = self.players[color]
        spans = list(a.absences)
        if a.away_since is not None:
            spans.append((a.away_since, now))
        limit = self.rules.disconnection_after_seconds
        disconnections = sum(1 for s, e in spans if e - s > limit)
        if self.rules.short_absences_count_in_total:
            total = sum(e - s for s, e in spans)
        else:
            total = sum(e - s for s, e in spans if e - s > limit)
        escaped = a.escaped_at
        if escaped is None:
            instant = self.escape_instant(color)
            if instant is not None and now > instant:
                escaped = instant
        return PresenceStatus(a.away_since is None, disconnections, total, escaped)

    def escape_instant(self, color: int) -> float | None:
        """When the current absence turns into an escape (None: connected or already settled).

        The player has escaped at any moment strictly later than this instant.
        """
        a = self.players[color]
        if a.escaped_at is not None:
            return a.escaped_at
        if a.away_since is None or self.closed_at is not None:
            return None
        r = self.rules
        limit = float(r.disconnection_after_seconds)
        done = [e - s for s, e in a.absences]
        earlier_disconnections = sum(1 for d in done if d > limit)
        if r.short_absences_count_in_total:
            banked = sum(done)
            by_total = max(r.max_total_absence_seconds - banked, 0.0)
        else:
            banked = sum(d for d in done if d > limit)
            by_total = max(r.max_total_absence_seconds - banked, limit)
        candidates = [by_total]
        if earlier_disconnections + 1 > r.max_disconnections:
            candidates.append(limit)
        return a.away_since + min(candidates)

    def deadline(self) -> float | None:
        """The earliest escape instant of either player (when the server should look)."""
        instants = [t for c in (BLACK, WHITE) if (t := self._pending(c)) is not None]
        return min(instants) if instants else None

    def check(self, now: float) -> list[tuple[int, float]]:
        """Record and return every (colour, instant) escape that has happened by ``now``."""
        for c in (BLACK, WHITE):
            self._settle(c, now)
        found = [(c, a.escaped_at) for c, a in self.players.items() if a.escaped_at is not None]
        return sorted(found, key=lambda item: (item[1], item[0]))

    # ----- snapshot ----------------------------------------------------------------------
    def snapshot(self) -> dict:
        return {
            "rules": self.rules.model_dump(),
            "closed_at": self.closed_at,
            "players": {str(c): asdict(a) for c, a in self.players.items()},
        }

    @classmethod
    def restore(cls, data: dict) -> Presence:
        p = cls.__new__(cls)
        p.rules = DisconnectionRules(**data["rules"])
        p.closed_at = data["closed_at"]
        p.players = {
            int(c): Attendance(
                a["away_since"], [(float(s), float(e)) for s, e in a["absences"]], a["escaped_at"]
            )
            for c, a in data["players"].items()
        }
        return p

    # ----- internals ---------------------------------------------------------------------
    def _pending(self, color: int) -> float | None:
        if self.players[color].escaped_at is not None:
            return None
        return self.escape_instant(color)

    def _settle(self, color: int, now: float) -> None:
        a = self.players[color]
        if a.escaped_at is None:
            instant = self.escape_instant(color)
            if instant is not None and now > instant:
                a.escaped_at = instant


__all__ = ["Attendance", "Presence", "PresenceStatus"]
