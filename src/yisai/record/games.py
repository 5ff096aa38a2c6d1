"""One game (or bye) as the rest of the core sees it.

Pairing reads it to avoid rematches and balance colours; standings reads it to score. A bye is a
game with ``white is None``. ``played`` is False for forfeits (弃权) and byes, which matters for
对手分 under the regulation's settings; a loss on time (超时判负) is a played game.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass, replace
from enum import StrEnum


class Result(StrEnum):
    BLACK_WINS = "B+"
    WHITE_WINS = "W+"
    DRAW = "="
    BOTH_LOSE = "0-0"  # 双方弃权 / both lost
    BOTH_WIN = "1-1"  # OpenGotha's "both win" (rare, by referee decision)
    UNKNOWN = "?"  # not yet entered


@dataclass(frozen=True, slots=True)
class Game:
    round: int
    black: str
    white: str | None  # None: bye (轮空) for ``black``
    result: Result = Result.UNKNOWN
    played: bool = True  # False: forfeit (弃权) or bye, not a game over the board
    board: int = 0
    handicap: int = 0
    reason: str = ""  # free text: 超时判负, 迟到判负, 中盘胜 ...

    @property
    def is_bye(self) -> bool:
        return self.white is None

    def opponent(self, player: str) -> str | None:
        if player == self.black:
            return self.white
        if player == self.white:
            return self.black
        raise KeyError(player)

    def colour_of(self, player: str) -> str:
        """'B' or 'W' (a bye counts as no colour: '')."""
        if self.is_bye:
            return ""
        return "B" if player == self.black else "W"

    def outcome_for(self, player: str) -> str:
        """'W' win, 'L' loss, 'D' draw, '?' unknown, from ``player``'s side."""
        r = self.result
        if self.is_bye:
            return "W" if r != Result.BOTH_LOSE else "L"
        if r == Result.UNKNOWN:
            return "?"
        if r == Result.DRAW:
            return "D"
        if r == Result.BOTH_LOSE:
            return "L"
        if r == Result.BOTH_WIN:
            return "W"
        black_won = r == Result.BLACK_WINS
        return "W" if black_won == (player == self.black) else "L"


def forfeited_by(games: Iterable[Game], players: Collection[str]) -> list[Game]:
    """The ledger with every game of ``players`` scored as their loss (取消资格, 已赛对局全部判负):
    each is won by the opponent (both in ``players`` → both lose). A game played over the board
    stays played (its colours and its place in 对手分 are facts); byes and games not yet
    decided are left as they are, and so is every game of nobody in ``players``."""
    gone = set(players)
    out: list[Game] = []
    for g in games:
        b_gone, w_gone = g.black in gone, g.white in gone
        if g.is_bye or g.result == Result.UNKNOWN or not (b_gone or w_gone):
            out.append(g)
            continue
        if b_gone and w_gone:
            result = Result.BOTH_LOSE
        else:
            result = Result.WHITE_WINS if b_gone else Result.BLACK_WINS
        out.append(replace(g, result=result, reason="取消资格"))
    return out
