"""The points ladder of the online qualifier (积分晋级制), per period and pool (pure).

Seed 000 十(一)1: "胜一局积2分，负一局扣2分；逃跑扣2分，对手加2分". The numbers come from the
regulation's ``LadderFormat`` (win, loss, escape, escape_opponent). Choices the text leaves open,
made explicit here:

* the opponent of an escaper gets ``escape_opponent`` points; whether that game is one of
  their 胜局 (the tie-break on equal points) is the regulation's ``escape_win_counts``
  (default no: seed 000 scores a win "胜得2分" and an escape "逃跑扣除2分，对手得2分" in
  separate clauses and never calls the escaper's opponent a winner; the game record still
  says ``B+F``);
* a loss on time or by resignation is an ordinary loss;
* a game with no winner (a void cycle, or both escaping at once) gives 0 points and no win;
  each escaper of a double escape still loses the escape points;
* every finished game counts in ``games``.

The qualification list itself is ``yisai.awards.qualifier.qualify_period`` (points, then 胜局数,
still tied → all qualify); ``table`` feeds it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from yisai.awards.qualifier import LadderRecord, QualifierList, qualify_period
from yisai.game.board import BLACK, EMPTY, WHITE
from yisai.game.flow import EndReason, Outcome
from yisai.regulation.stages import LadderFormat


@dataclass(frozen=True, slots=True)
class Delta:
    """What one finished game adds to one player's line."""

    points: int
    win: bool
    loss: bool
    escape: bool


@dataclass(frozen=True, slots=True)
class LadderLine:
    player: str
    name: str = ""
    points: int = 0  # 积分
    wins: int = 0  # 胜局数
    losses: int = 0
    games: int = 0
    escapes: int = 0

    def add(self, d: Delta) -> LadderLine:
        return replace(
            self, points=self.points + d.points, wins=self.wins + d.win,
            losses=self.losses + d.loss, games=self.games + 1, escapes=self.escapes + d.escape,
        )  # fmt: skip


def deltas(ladder: LadderFormat, outcome: Outcome, escaped: Iterable[int] = ()) -> dict[int, Delta]:
    """Points for Black and White after a finished game."""
    fled = set(escaped)
    if outcome.reason == EndReason.ESCAPE and not fled:
        fled = {WHITE if outcome.winner == BLACK else BLACK}
    out: dict[int, Delta] = {}
    for c in (BLACK, WHITE):
        if c in fled:
            out[c] = Delta(ladder.escape, False, True, True)
        elif outcome.winner == EMPTY:
            out[c] = Delta(0, False, False, False)
        elif outcome.winner == c:
            won_by_escape = outcome.reason == EndReason.ESCAPE
            if won_by_escape:
                out[c] = Delta(ladder.escape_opponent, ladder.escape_win_counts, False, False)
            else:
                out[c] = Delta(ladder.win, True, False, False)
        else:
            out[c] = Delta(ladder.loss, False, True, False)
    return out


def table(ladder: LadderFormat, pool: str, lines: Iterable[LadderLine]) -> tuple[QualifierList, dict[str, LadderLine]]:
    """The qualification list (places, ties, who qualifies) and the lines by player."""
    by_player = {line.player: line for line in lines}
    records = {p: LadderRecord(line.points, line.wins) for p, line in by_player.items()}
    return qualify_period(ladder, pool, records), by_player


__all__ = ["Delta", "LadderLine", "deltas", "table"]
