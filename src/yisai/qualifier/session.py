"""One live game, server-authoritative: the pure game library driven by versioned actions.

A ``LiveGame`` owns a ``GameFlow`` (board, passes, scoring phase), a ``Clock`` and a
``Presence`` tracker; the rules themselves stay in ``yisai.game``. It does no I/O and never
reads a clock: every call takes ``now`` (seconds, any origin -- the server passes wall time so a
restarted process can continue the same numbers).

Versions and idempotence. The game's ``version`` is the number of actions accepted so far. A
client sends the version it has seen with each action:

* ``version == game.version``: the action is checked and, when legal, accepted (version + 1);
* ``version < game.version`` and the action that was accepted at that version is *the same*
  (same colour, kind and point): a resend -- acknowledged again as a duplicate, applied once;
* anything else is stale (``LiveRefused`` code ``stale``) and changes nothing; the client
  resyncs from ``state()``. A resignation is accepted whatever version it carries.

Presence from connection frames. Every frame received from a player (a move, a pong) dates
them; a player's absence starts at the *last frame received* from any of their connections
when the last one closes or falls silent (``sweep``), and ends when a frame arrives again -- a
move arriving while the player is counted away reconnects them first. Several tabs of one
player are several connections of one colour.

Time. ``tick(now)`` settles what happened by ``now``: a loss on time (the clock's flag instant)
or an escape (``Presence``), whichever came first; every action calls it first, so a move that
arrives after the flag is refused with the game already over. During the scoring phase the clock
is paused; a rejection resumes it for the player to move. Lag compensation: an action may carry
the measured one-way network delay; the clock credits at most ``LiveRules.lag_cap`` seconds.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from yisai.game.board import BLACK, BORDER, EMPTY, PASS, WHITE, Reason
from yisai.game.clock import Clock, TimeLeft
from yisai.game.flow import EndReason, GameFlow, Outcome, Phase
from yisai.game.presence import Presence
from yisai.game.scoring import AreaCount
from yisai.game.sgf import SgfRecord
from yisai.i18n import Text
from yisai.regulation.rules import DisconnectionRules, PlayRules, TimeControl

DEFAULT_LAG_CAP = 0.5  # seconds of network delay credited per move at most


class Kind(StrEnum):
    MOVE = "move"  # a stone; point = board index
    PASS = "pass"
    RESIGN = "resign"
    TOGGLE = "toggle"  # scoring phase: mark / unmark a chain dead
    ACCEPT = "accept"  # scoring phase: agree to the marks
    REJECT = "reject"  # scoring phase: disagree, play resumes


@dataclass(frozen=True, slots=True)
class LiveRules:
    """Everything a game needs from the regulation, JSON-ready for the store."""

    play: PlayRules
    time: TimeControl
    disconnection: DisconnectionRules
    lag_cap: float = DEFAULT_LAG_CAP

    def to_dict(self) -> dict[str, Any]:
        return {
            "play": self.play.model_dump(),
            "time": self.time.model_dump(),
            "disconnection": self.disconnection.model_dump(),
            "lag_cap": self.lag_cap,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> LiveRules:
        return cls(
            PlayRules(**data["play"]),
            TimeControl(**data["time"]),
            DisconnectionRules(**data["disconnection"]),
            float(data["lag_cap"]),
        )


@dataclass(frozen=True, slots=True)
class Action:
    """One accepted action; ``seq`` is the game's version once it was accepted (1, 2, ...)."""

    seq: int
    color: int
    kind: Kind
    point: int | None  # MOVE / TOGGLE only
    at: float
    lag: float = 0.0

    def same_as(self, color: int, kind: Kind, point: int | None) -> bool:
        return (self.color, self.kind, self.point) == (color, kind, point)

    def to_dict(self) -> dict[str, Any]:
        return {"seq": self.seq, "color": self.color, "kind": self.kind.value,
                "point": self.point, "at": self.at, "lag": self.lag}  # fmt: skip


class LiveRefused(Exception):
    """An action the game does not take; nothing changed. ``code`` is stable for clients."""

    def __init__(self, code: str, text: Text, version: int) -> None:
        super().__init__(text.zh)
        self.code = code
        self.text = text
        self.version = version


@dataclass(frozen=True, slots=True)
class Ack:
    action: Action
    duplicate: bool  # a resend of an action already accepted (applied once)
    version: int  # the game's version now
    outcome: Outcome | None  # set when this action ended the game


@dataclass(frozen=True, slots=True)
class Ending:
    """How and when a game ended, with who escaped (both, in the rare simultaneous case)."""

    outcome: Outcome
    at: float
    escaped: tuple[int, ...] = ()


@dataclass(slots=True)
class _Links:
    """One player's open connections and the time of the last frame from each."""

    last: dict[str, float] = field(default_factory=dict)
    last_frame: float | None = None


class LiveGame:
    """The authoritative state of one game; the server serialises calls per game."""

    def __init__(
        self,
        rules: LiveRules,
        start: float,
        *,
        present: tuple[int, ...] = (),
    ) -> None:
        self.rules = rules
        self.flow = GameFlow(rules.play)
        self.clock = Clock(rules.time, lag_cap=rules.lag_cap)
        self.presence = Presence(rules.disconnection, start, present)
        self.start = start
        self.actions: list[Action] = []
        self.ending: Ending | None = None
        self.links = {BLACK: _Links(), WHITE: _Links()}
        for c in present:
            self.links[c].last_frame = start
        self.clock.start(start, BLACK)
        self._due: float | bool | None = False  # deadline() cached; False = to compute

    # ----- reading ------------------------------------------------------------------------
    @property
    def version(self) -> int:
        return len(self.actions)

    @property
    def over(self) -> bool:
        return self.ending is not None

    @property
    def phase(self) -> Phase:
        return self.flow.phase

    def time_left(self, color: int, now: float) -> TimeLeft:
        return self.clock.time_left(color, now)

    def deadline(self) -> float | None:
        """When the server should next call ``tick`` (a flag or an escape may fall due).

        It depends on the clock and presence state only (not on the time asked), so it is
        cached until the next call that can change them: the server asks for every game it
        owns twice a second, and thousands of games change far less often."""
        if self._due is False:
            if self.over:
                self._due = None
            else:
                times = [t for t in (self.clock.deadline(), self.presence.deadline()) if t is not None]
                self._due = min(times) if times else None
        assert self._due is not True
        return self._due

    def count(self) -> AreaCount | None:
        return self.flow.count() if self.flow.phase == Phase.SCORING else None

    # ----- connections --------------------------------------------------------------------
    def attach(self, color: int, conn: str, now: float) -> None:
        """A connection of ``color`` opened (a second tab is a second connection)."""
        self._due = False
        self.tick(now)
        self.links[color].last[conn] = now
        self._seen(color, now)

    def frame(self, color: int, conn: str, now: float) -> None:
        """Any frame from the player (pong, move): they are on the platform at ``now``."""
        self._due = False
        self.tick(now)
        self.links[color].last[conn] = now
        self._seen(color, now)

    def detach(self, color: int, conn: str, now: float) -> None:
        """A connection closed; with none left the player is away since their last frame."""
        self._due = False
        self.tick(now)
        links = self.links[color]
        links.last.pop(conn, None)
        if not links.last and not self.over:
            self.presence.disconnect(color, links.last_frame if links.last_frame is not None else now)
            self.tick(now)

    def sweep(self, now: float, silence: float) -> list[tuple[int, str]]:
        """Drop connections silent for more than ``silence`` seconds; returns those dropped."""
        dropped = [
            (c, conn)
            for c, links in self.links.items()
            for conn, last in list(links.last.items())
            if now - last > silence
        ]
        for c, conn in dropped:
            self.detach(c, conn, now)
        return dropped

    def connected(self, color: int) -> bool:
        return bool(self.links[color].last)

    def _seen(self, color: int, now: float) -> None:
        links = self.links[color]
        links.last_frame = now if links.last_frame is None else max(links.last_frame, now)
        if not self.over and self.presence.players[color].away_since is not None:
            self.presence.connect(color, now)

    # ----- time ---------------------------------------------------------------------------
    def tick(self, now: float) -> Ending | None:
        """Settle a loss on time or an escape that fell due by ``now`` (earliest first)."""
        self._due = False
        if self.ending is not None:
            return self.ending
        flag_at = self.clock.deadline()
        escapes = sorted(
            (t, c)
            for c in (BLACK, WHITE)
            if (t := self.presence.escape_instant(c)) is not None and now > t
        )
        if flag_at is not None and now >= flag_at and (not escapes or flag_at <= escapes[0][0]):
            loser = self.clock.running
            self.clock.check(now)
            self.clock.flagged = loser
            self.flow.lose_on_time(loser)
            return self._end(flag_at)
        if escapes:
            first = escapes[0][0]
            self.presence.check(now)
            escaped = tuple(c for t, c in escapes if t == first)
            if len(escaped) == 1:
                self.flow.escape(escaped[0])
            else:  # both sides escaped at the same instant (双方逃跑): no winner
                self.flow.phase = Phase.FINISHED
                self.flow.outcome = Outcome(EMPTY, EndReason.ESCAPE, "Void", void=True)
            return self._end(first, escaped)
        return None

    def _end(self, at: float, escaped: tuple[int, ...] = ()) -> Ending:
        assert self.flow.outcome is not None
        self.clock.stop(at)
        self.presence.close(at)
        self.ending = Ending(self.flow.outcome, at, escaped)
        return self.ending

    # ----- actions ------------------------------------------------------------------------
    def act(
        self,
        color: int,
        kind: Kind,
        version: int,
        now: float,
        *,
        point: int | None = None,
        conn: str | None = None,
        lag: float = 0.0,
    ) -> Ack:
        """Apply one action from ``color`` sent at ``version``; raises ``LiveRefused``."""
        self._due = False
        self.frame(color, conn or "-", now) if conn is not None else self._arrive(color, now)
        if kind in (Kind.MOVE, Kind.TOGGLE):
            board = self.flow.board
            if point is None or not 0 <= point < len(board.color) or board[point] == BORDER:
                raise LiveRefused("bad_point", Text("落点无效", "not a point on the board"),
                                  self.version)
        else:
            point = None
        last = self.actions[-1] if self.actions else None
        if kind == Kind.RESIGN and self.ending is not None and last is not None \
                and last.same_as(color, kind, point):
            return Ack(last, True, self.version, self.ending.outcome)
        if 0 <= version < self.version and kind != Kind.RESIGN:
            done = self.actions[version]
            if done.same_as(color, kind, point):
                outcome = self.ending.outcome if self.ending and done is last else None
                return Ack(done, True, self.version, outcome)
        if self.ending is not None:
            raise LiveRefused("game_over", Text("对局已结束", "the game is over"), self.version)
        if version != self.version and kind != Kind.RESIGN:
            raise LiveRefused(
                "stale",
                Text(f"棋局已更新到第{self.version}步, 请同步后再下",
                     f"the game is at version {self.version}; resync and try again"),
                self.version,
            )
        lag = min(max(lag, 0.0), self.rules.lag_cap)
        self._apply(color, kind, point, now, lag)
        self._due = False
        action = Action(self.version + 1, color, kind, point, now, lag)
        self.actions.append(action)
        outcome = self.ending.outcome if self.ending is not None else None
        return Ack(action, False, self.version, outcome)

    def _arrive(self, color: int, now: float) -> None:
        self.tick(now)
        self._seen(color, now)

    def _refuse(self, code: str, zh: str, en: str) -> LiveRefused:
        return LiveRefused(code, Text(zh, en), self.version)

    def _apply(self, color: int, kind: Kind, point: int | None, now: float, lag: float) -> None:
        """Check first, then change: a refused action leaves everything as it was."""
        flow = self.flow
        if kind in (Kind.MOVE, Kind.PASS):
            if flow.phase != Phase.PLAYING:
                raise self._refuse("wrong_phase", "现在是数子阶段, 不能落子",
                                   "the game is in the scoring phase")
            if color != flow.to_move:
                raise self._refuse("not_your_turn", "还没轮到你下", "it is not your turn")
            if kind == Kind.MOVE:
                assert point is not None
                reason = flow.board.check(color, point)
                if reason != Reason.OK:
                    raise self._refuse("illegal", f"不合法的着手 ({_zh(reason)})",
                                       f"illegal move ({reason.label})")
            if not self.clock.move(color, now, lag):  # after the flag, lag credit included
                flow.lose_on_time(color)
                self._end(now)
                raise self._refuse("game_over", "已超时判负", "lost on time")
            if kind == Kind.MOVE:
                assert point is not None
                flow.play(color, point)
            else:
                flow.pass_move(color)
            if flow.phase == Phase.SCORING:
                self.clock.pause(now)
            elif flow.phase == Phase.FINISHED:  # a cycle under simple ko
                self._end(now)
            return
        if kind == Kind.RESIGN:
            flow.resign(color)
            self._end(now)
            return
        if flow.phase != Phase.SCORING:
            raise self._refuse("wrong_phase", "现在不是数子阶段", "the game is not in the scoring phase")
        if kind == Kind.TOGGLE:
            assert point is not None
            if not flow.board.chain(point):
                raise self._refuse("bad_point", "该点没有棋子", "there is no stone on that point")
            flow.toggle(point)
        elif kind == Kind.ACCEPT:
            flow.accept(color)
            if flow.phase == Phase.FINISHED:
                self._end(now)
        elif kind == Kind.REJECT:
            flow.reject(color)
            self.clock.resume(now)

    # ----- views --------------------------------------------------------------------------
    def clocks(self, now: float) -> dict[str, dict[str, Any]]:
        """Each side's clock and presence as a display shows them at ``now``."""
        clocks = {}
        for c, name in ((BLACK, "B"), (WHITE, "W")):
            t = self.clock.time_left(c, now)
            s = self.presence.status(c, now)
            instant = self.presence.escape_instant(c) if not self.over else None
            clocks[name] = {
                "main": round(t.main, 3), "periods": t.periods,
                "period_left": round(t.period_left, 3), "byoyomi": t.in_byoyomi,
                "connected": self.connected(c), "disconnections": s.disconnections,
                "absence": round(s.total_absence, 3),
                "escape_in": None if instant is None else round(max(instant - now, 0.0), 3),
            }  # fmt: skip
        return clocks

    def presence_view(self, now: float) -> tuple[bool, int, bool, int]:
        """What changes a presence message: each side's connection and disconnections."""
        b = self.presence.status(BLACK, now).disconnections
        w = self.presence.status(WHITE, now).disconnections
        return (self.connected(BLACK), b, self.connected(WHITE), w)

    def state(self, now: float) -> dict[str, Any]:
        """Everything a client needs to (re)draw the game: the resync message."""
        board = self.flow.board
        clocks = self.clocks(now)
        out: dict[str, Any] = {
            "version": self.version,
            "phase": self.flow.phase.value,
            "to_move": "B" if board.to_move == BLACK else "W",
            "size": board.size,
            "moves": [self.describe(a) for a in self.actions],
            "clocks": clocks,
            "running": {BLACK: "B", WHITE: "W"}.get(self.clock.running),
        }
        if self.flow.phase == Phase.SCORING:
            count = self.flow.count()
            out["dead"] = sorted(board.gtp(p).upper() for p in self.flow.dead)
            out["accepted"] = sorted("B" if c == BLACK else "W" for c in self.flow.accepted)
            out["count"] = {"black": float(count.black_count), "result": count.point_form}
        if self.ending is not None:
            out["result"] = self.ending.outcome.sgf
            out["reason"] = self.ending.outcome.reason.value
        return out

    def describe(self, a: Action) -> dict[str, Any]:
        d: dict[str, Any] = {"seq": a.seq, "color": "B" if a.color == BLACK else "W",
                             "kind": a.kind.value}  # fmt: skip
        if a.point is not None:
            d["point"] = self.flow.board.gtp(a.point).upper()
        return d

    def sgf(self, *, black: str = "", white: str = "", date: str = "", event: str = "") -> bytes:
        """The record of the moves played (scoring-phase marks are not moves)."""
        rec = SgfRecord.create(self.rules.play, black=black, white=white, date=date, event=event,
                               time_control=self.rules.time)  # fmt: skip
        for a in self.actions:
            if a.kind == Kind.MOVE:
                assert a.point is not None
                rec.append_move(a.color, self.flow.board.xy(a.point))
            elif a.kind == Kind.PASS:
                rec.append_move(a.color, None)
        if self.ending is not None:
            rec.set_result(self.ending.outcome.sgf)
        return rec.to_bytes()

    # ----- persistence --------------------------------------------------------------------
    def snapshot(self) -> dict[str, Any]:
        """Clock and presence (the board is rebuilt from the actions)."""
        return {"clock": self.clock.snapshot(), "presence": self.presence.snapshot()}

    @classmethod
    def restore(
        cls,
        rules: LiveRules,
        start: float,
        actions: list[Action],
        snapshot: dict[str, Any],
        *,
        down_from: float,
        up_at: float,
    ) -> LiveGame:
        """Rebuild a game after a restart without charging anyone for the outage.

        The board is replayed from ``actions`` (flow rules only), the clock and presence come
        from the ``snapshot`` saved with the last action. The server was last known alive at
        ``down_from`` and is back at ``up_at``: the running clock is paused over that gap, a
        player who was away keeps the absence up to ``down_from`` and continues it from
        ``up_at``, and a player who was connected is counted away from ``up_at`` until they
        reconnect (their connection died with the old process).
        """
        game = cls(rules, start)
        for a in actions:
            flow = game.flow
            if a.kind == Kind.MOVE:
                assert a.point is not None
                flow.play(a.color, a.point)
            elif a.kind == Kind.PASS:
                flow.pass_move(a.color)
            elif a.kind == Kind.RESIGN:
                flow.resign(a.color)
            elif a.kind == Kind.TOGGLE:
                assert a.point is not None
                flow.toggle(a.point)
            elif a.kind == Kind.ACCEPT:
                flow.accept(a.color)
            elif a.kind == Kind.REJECT:
                flow.reject(a.color)
            game.actions.append(a)
        game.clock = Clock.restore(snapshot["clock"])
        game.presence = Presence.restore(snapshot["presence"])
        gap = max(up_at - down_from, 0.0)
        if game.clock.since is not None:
            game.clock.pause(down_from)
            game.clock.resume(up_at)
        for c in (BLACK, WHITE):
            att = game.presence.players[c]
            if att.away_since is not None:
                att.away_since = min(att.away_since, down_from) + gap
            elif att.escaped_at is None and game.presence.closed_at is None:
                game.presence.disconnect(c, up_at)
        if game.flow.phase == Phase.FINISHED:
            assert game.flow.outcome is not None
            game.ending = Ending(game.flow.outcome, actions[-1].at if actions else start)
        game._due = False  # clock and presence replaced above
        return game


@dataclass(frozen=True)
class LiveGameInfo:
    """A live game in a word: who plays whom (ids and names) in which period and pool, and how it
    stands (status, version, result). The one record of it: the store's ``LiveGameRecord`` holds
    one, the live server keeps one per game and sends it to another process as a dict."""

    id: int
    period: int
    pool: str
    black: str
    white: str
    black_name: str
    white_name: str
    status: str
    version: int
    result: str
    reason: str

    def color_of(self, player: str) -> int | None:
        return BLACK if player == self.black else WHITE if player == self.white else None


def color_name(color: int) -> str:
    return "B" if color == BLACK else "W" if color == WHITE else ""


def parse_color(text: str) -> int:
    t = text.strip().upper()
    if t in ("B", "BLACK", "黑"):
        return BLACK
    if t in ("W", "WHITE", "白"):
        return WHITE
    raise ValueError(text)


__all__ = [
    "DEFAULT_LAG_CAP",
    "PASS",
    "Ack",
    "Action",
    "Ending",
    "Kind",
    "LiveGame",
    "LiveRefused",
    "LiveRules",
    "color_name",
    "parse_color",
]


def _zh(reason: Reason) -> str:
    from yisai.i18n import use_language

    with use_language("zh"):
        return reason.text
