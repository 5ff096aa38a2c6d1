"""Fair-play signals of one game from its record (pure): how a player's thinking time behaves.

赛风赛纪 (seed 000 十一(三)): suspicious online games must be reviewable. These signals only sort
the referees' review queue; they decide nothing. From each player's moves (the time between the
previous action and the move, as the server stamped them):

* **regularity** — 1 − the coefficient of variation of the thinking times (clamped to 0…1). People
  play some moves at once and think long over others; a steady rhythm whatever the position
  looks like a relayed move.
* **obvious vs hard** — a move is *obvious* when it is played in contact with the opponent's
  previous move (within one point, diagonals included: the answer to an atari, a hane, a
  capture nearby); every other move is *hard*. People answer obvious moves faster than they
  find the hard ones, so the ratio of median times (hard / obvious) is well above 1; a ratio
  near 1 scores ``evenness`` = 1 − |ln ratio| (clamped to 0…1).
* **focus** — the number of times the player's client reported the page losing focus (a
  protocol field the client may send; a client can lie, so it only adds weight), scaled so
  ``FOCUS_FULL`` losses count fully.

``score`` = 0.4 regularity + 0.4 evenness + 0.2 focus, per player; the game's score is the
higher of the two. A player with fewer than ``MIN_MOVES`` moves (or fewer than ``MIN_GROUP``
obvious or hard moves) gets 0 for that part: short games say nothing.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from yisai.game.board import BLACK, WHITE

MIN_MOVES = 20
MIN_GROUP = 5
FOCUS_FULL = 10
WEIGHTS = (0.4, 0.4, 0.2)


@dataclass(frozen=True, slots=True)
class Think:
    color: int
    seconds: float
    obvious: bool


@dataclass(frozen=True, slots=True)
class PlayerSignals:
    moves: int
    mean_seconds: float
    regularity: float
    obvious_median: float | None
    hard_median: float | None
    evenness: float
    focus_losses: int
    score: float

    def to_dict(self) -> dict[str, float | int | None]:
        return {"moves": self.moves, "mean_seconds": round(self.mean_seconds, 2),
                "regularity": round(self.regularity, 3), "obvious_median": self.obvious_median,
                "hard_median": self.hard_median, "evenness": round(self.evenness, 3),
                "focus_losses": self.focus_losses, "score": round(self.score, 3)}  # fmt: skip


def _near(a: int, b: int, stride: int) -> bool:
    ay, ax = divmod(a, stride)
    by, bx = divmod(b, stride)
    return max(abs(ax - bx), abs(ay - by)) <= 1


def think_times(actions: Sequence[tuple[int, str, int | None, float]], start: float, size: int) -> list[Think]:
    """Each move's thinking time and whether it was obvious; ``actions`` are (colour, kind,
    point, at) in order, ``start`` when Black's clock started."""
    out = []
    previous_at, previous_point = start, None
    stride = size + 2
    for color, kind, point, at in actions:
        if kind == "move" and point is not None:
            obvious = previous_point is not None and _near(point, previous_point, stride)
            out.append(Think(color, max(0.0, at - previous_at), obvious))
            previous_point = point
        elif kind == "pass":
            previous_point = None
        previous_at = at
    return out


def player_signals(thinks: Sequence[Think], color: int, focus_losses: int = 0) -> PlayerSignals:
    mine = [t for t in thinks if t.color == color]
    times = [t.seconds for t in mine]
    mean = statistics.fmean(times) if times else 0.0
    regularity = 0.0
    if len(times) >= MIN_MOVES and mean > 0:
        regularity = max(0.0, min(1.0, 1 - statistics.pstdev(times) / mean))
    obvious = [t.seconds for t in mine if t.obvious]
    hard = [t.seconds for t in mine if not t.obvious]
    om = statistics.median(obvious) if obvious else None
    hm = statistics.median(hard) if hard else None
    evenness = 0.0
    if len(obvious) >= MIN_GROUP and len(hard) >= MIN_GROUP and om and hm:
        evenness = max(0.0, min(1.0, 1 - abs(math.log(hm / om))))
    focus = min(1.0, focus_losses / FOCUS_FULL)
    score = WEIGHTS[0] * regularity + WEIGHTS[1] * evenness + WEIGHTS[2] * focus
    return PlayerSignals(len(times), mean, regularity, om, hm, evenness, focus_losses, score)


def game_signals(
    actions: Sequence[tuple[int, str, int | None, float]],
    start: float,
    size: int,
    focus: Mapping[int, int],
) -> dict[int, PlayerSignals]:
    """Signals per colour (``focus``: colour → focus losses reported)."""
    thinks = think_times(actions, start, size)
    return {c: player_signals(thinks, c, focus.get(c, 0)) for c in (BLACK, WHITE)}


__all__ = ["FOCUS_FULL", "MIN_GROUP", "MIN_MOVES", "PlayerSignals", "Think", "game_signals",
           "player_signals", "think_times"]  # fmt: skip
