"""One game from the first move to its result: play, pass, resign, the scoring phase, the end.

The life cycle (中国围棋竞赛规则, as played online):

* PLAYING: players alternate moves or passes. Two consecutive passes open SCORING.
* SCORING: the automatic proposal (``deadstones.propose_dead``) is shown pre-marked; either
  player toggles a whole chain dead/alive; any change withdraws both acceptances. When both
  accept, the area count decides and the game is FINISHED. If either rejects, play resumes
  with the player whose turn it would have been after the two passes.
* FINISHED: by count, resignation (``B+R``), loss on time (``W+T``), forfeit or escape
  (``B+F``), or -- under simple ko only -- a cycle (循环劫): when the same whole-board position
  arises for the third time nobody is giving way, and the regulation's ``cycle_result`` makes
  it void (``Void``, 无胜负) or a draw (``0``, 和棋).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

from yisai.game.board import BLACK, EMPTY, PASS, WHITE, Board, color_letter
from yisai.game.deadstones import propose_dead
from yisai.game.scoring import AreaCount, area_count
from yisai.i18n import tr
from yisai.regulation.rules import PlayRules

CYCLE_OCCURRENCES = 3  # the third appearance of one position ends a simple-ko game


class Phase(StrEnum):
    PLAYING = "playing"
    SCORING = "scoring"
    FINISHED = "finished"


class EndReason(StrEnum):
    SCORE = "score"  # 数子
    RESIGN = "resign"  # 中盘认输
    TIME = "time"  # 超时判负
    FORFEIT = "forfeit"  # 弃权
    ESCAPE = "escape"  # 逃跑 (disconnections)
    CYCLE = "cycle"  # 循环劫


class GameOver(RuntimeError):
    """An action that the current phase does not allow."""


@dataclass(frozen=True, slots=True)
class Outcome:
    winner: int  # BLACK, WHITE, or EMPTY for a draw / void game
    reason: EndReason
    sgf: str  # SGF RE value: B+R, W+T, B+F, B+2.5, 0, Void
    count: AreaCount | None = None
    void: bool = False

    @property
    def text(self) -> str:
        """A human sentence in the user's language."""
        if self.count is not None:
            return self.count.count_form
        if self.void:
            return tr("循环劫，无胜负", "cycle: no result")
        if self.winner == EMPTY:
            return tr("和棋", "draw")
        side = tr("黑", "Black") if self.winner == BLACK else tr("白", "White")
        how = {
            EndReason.RESIGN: tr("中盘胜", " wins by resignation"),
            EndReason.TIME: tr("胜(对方超时)", " wins on time"),
            EndReason.FORFEIT: tr("胜(对方弃权)", " wins by forfeit"),
            EndReason.ESCAPE: tr("胜(对方逃跑)", " wins (opponent escaped)"),
            EndReason.CYCLE: tr("胜", " wins"),
        }[self.reason]
        return side + how


class GameFlow:
    """The state machine around a Board (no clock, no I/O: the server drives it)."""

    def __init__(self, rules: PlayRules | None = None, handicap: Iterable[int] = ()) -> None:
        self.rules = rules or PlayRules()
        self.board = Board.from_rules(self.rules)
        stones = tuple(handicap)
        if stones:
            self.board.setup(black=stones)
            self.board.to_move = WHITE
        self.phase = Phase.PLAYING
        self.passes = 0
        self.dead: set[int] = set()
        self.proposal: frozenset[int] = frozenset()
        self.accepted: set[int] = set()
        self.outcome: Outcome | None = None
        self._seen: Counter[int] = Counter({self.board.hash: 1})

    @classmethod
    def from_position(cls, board: Board, rules: PlayRules | None = None) -> GameFlow:
        """Continue from an existing position (a study position, or a game resumed after replay)."""
        flow = cls(rules or PlayRules(board_size=board.size))
        flow.board = board
        flow._seen = Counter({board.hash: 1})
        return flow

    @property
    def to_move(self) -> int:
        return self.board.to_move

    def _require(self, phase: Phase) -> None:
        if self.phase != phase:
            raise GameOver(
                tr(f"当前阶段为 {self.phase}，不能进行此操作", f"not allowed in phase {self.phase}")
            )

    def _require_turn(self, color: int) -> None:
        if color != self.board.to_move:
            raise GameOver(tr("还没轮到该方下棋", f"it is not {color_letter(color)}'s turn"))

    # ----- playing -----------------------------------------------------------------------
    def play(self, color: int, point: int) -> None:
        """A stone or ``PASS``; raises IllegalMove (board unchanged) or GameOver."""
        if point == PASS:
            self.pass_move(color)
            return
        self._require(Phase.PLAYING)
        self._require_turn(color)
        self.board.play(color, point)
        self.passes = 0
        self._seen[self.board.hash] += 1
        if not self.board.superko and self._seen[self.board.hash] >= CYCLE_OCCURRENCES:
            void = self.rules.cycle_result == "void"
            self._finish(Outcome(EMPTY, EndReason.CYCLE, "Void" if void else "0", void=void))

    def pass_move(self, color: int) -> None:
        self._require(Phase.PLAYING)
        self._require_turn(color)
        self.board.pass_move(color)
        self.passes += 1
        if self.passes >= 2:
            self.phase = Phase.SCORING
            self.proposal = frozenset(propose_dead(self.board))
            self.dead = set(self.proposal)
            self.accepted = set()

    # ----- scoring phase -----------------------------------------------------------------
    def toggle(self, point: int) -> None:
        """Mark or unmark the whole chain at ``point`` as dead; withdraws both acceptances."""
        self._require(Phase.SCORING)
        chain = self.board.chain(point)
        if not chain:
            raise ValueError(tr("该点没有棋子", "there is no stone on that point"))
        if point in self.dead:
            self.dead.difference_update(chain)
        else:
            self.dead.update(chain)
        self.accepted.clear()

    def count(self) -> AreaCount:
        """The count with the current marks (for display during the scoring phase too)."""
        return area_count(self.board, self.rules.komi, self.dead)

    def accept(self, color: int) -> None:
        self._require(Phase.SCORING)
        self.accepted.add(color)
        if self.accepted >= {BLACK, WHITE}:
            count = self.count()
            self._finish(Outcome(count.winner, EndReason.SCORE, count.point_form, count))

    def reject(self, color: int) -> None:
        """Disagreement about dead stones: marks are dropped and play resumes."""
        self._require(Phase.SCORING)
        self.phase = Phase.PLAYING
        self.passes = 0
        self.dead = set()
        self.accepted = set()

    # ----- other endings -----------------------------------------------------------------
    def resign(self, color: int) -> None:
        self._end_against(color, EndReason.RESIGN, "R")

    def lose_on_time(self, color: int) -> None:
        self._end_against(color, EndReason.TIME, "T")

    def forfeit(self, color: int) -> None:
        self._end_against(color, EndReason.FORFEIT, "F")

    def escape(self, color: int) -> None:
        """逃跑 is recorded like a forfeit in SGF (``B+F``); the reason keeps the difference."""
        self._end_against(color, EndReason.ESCAPE, "F")

    def _end_against(self, loser: int, reason: EndReason, code: str) -> None:
        if self.phase == Phase.FINISHED:
            raise GameOver(tr("对局已结束", "the game is over"))
        winner = WHITE if loser == BLACK else BLACK
        self._finish(Outcome(winner, reason, f"{color_letter(winner)}+{code}"))

    def _finish(self, outcome: Outcome) -> None:
        self.phase = Phase.FINISHED
        self.outcome = outcome


__all__ = ["CYCLE_OCCURRENCES", "EndReason", "GameFlow", "GameOver", "Outcome", "Phase"]
