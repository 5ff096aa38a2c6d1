"""The games of rounds 1..r turned into one "round card" per player and round.

Every criterion reads these cards instead of re-scanning the games, so a full table costs a few
passes over players × rounds (the 10,000 × 9 benchmark depends on it). The cards apply the
regulation's ``Scoring``: points for wins, draws, losses, forfeits (弃权), byes (轮空) and absent
rounds, and whether an opponent counts in 对手分.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from yisai.record import Game, Result
from yisai.regulation.rules import Scoring

NO_OPPONENT = -1

# Round kinds: what happened to a player in one round.
PLAYED = "game"  # a game over the board (a loss on time is one)
FORFEIT = "forfeit"  # a paired game not played: 弃权 (either side)
BYE = "bye"  # 轮空
ABSENT = "absent"  # neither paired nor bye: withdrawn, absent, not yet paired


@dataclass(slots=True)
class Ledger:
    """Per player (by index) and per round (0-based) cards for rounds 1..``rounds``."""

    ids: list[str]
    index: dict[str, int]
    rounds: int
    kind: list[list[str]]
    opponent: list[list[int]]  # index of the opponent, NO_OPPONENT for bye/absent
    points: list[list[int]]  # points earned that round under the Scoring
    outcome: list[list[str]]  # 'W' 'L' 'D' '?' ('' when absent)
    colour: list[list[str]]  # 'B' 'W' or ''
    counted: list[list[bool]]  # does this round's opponent count in 对手分?
    win_points: int

    def __len__(self) -> int:
        return len(self.ids)


#: (Black's, White's) outcome letter for each result; "both lose" and "both win" included.
_OUTCOMES: dict[Result, tuple[str, str]] = {
    Result.BLACK_WINS: ("W", "L"),
    Result.WHITE_WINS: ("L", "W"),
    Result.DRAW: ("D", "D"),
    Result.BOTH_LOSE: ("L", "L"),
    Result.BOTH_WIN: ("W", "W"),
    Result.UNKNOWN: ("?", "?"),
}


def build_ledger(
    ids: Sequence[str], games: Iterable[Game], rounds: int, scoring: Scoring
) -> Ledger:
    """Cards for rounds 1..``rounds``; games of later rounds are ignored.

    Raises ValueError naming the game when it refers to an unknown player or gives a player two
    games in one round: standings on a broken ledger would be silently wrong.
    """
    n = len(ids)
    index = {pid: i for i, pid in enumerate(ids)}
    if len(index) != n:
        raise ValueError("选手编号重复 (duplicate player id)")
    kind = [[ABSENT] * rounds for _ in range(n)]
    opponent = [[NO_OPPONENT] * rounds for _ in range(n)]
    points = [[scoring.absent] * rounds for _ in range(n)]
    outcome = [[""] * rounds for _ in range(n)]
    colour = [[""] * rounds for _ in range(n)]
    counted = [[False] * rounds for _ in range(n)]
    seen = bytearray(n * rounds)
    game_pts = {"W": scoring.win, "D": scoring.draw, "L": scoring.loss, "?": 0}
    forfeit_pts = {"W": scoring.forfeit_win, "D": scoring.draw, "L": scoring.forfeit_loss, "?": 0}
    count_forfeits = scoring.forfeit_counts_in_sos

    def claim(pid: str, r0: int, g: Game) -> int:
        i = index.get(pid)
        if i is None:
            raise ValueError(f"第{g.round}轮对局中的选手 {pid!r} 不在选手名单中")
        if seen[i * rounds + r0]:
            raise ValueError(f"选手 {pid!r} 在第{g.round}轮有两盘对局")
        seen[i * rounds + r0] = 1
        return i

    for g in games:
        rnd = g.round
        if rnd < 1 or rnd > rounds:
            continue
        r0 = rnd - 1
        if g.white is None:  # bye
            i = claim(g.black, r0, g)
            kind[i][r0] = BYE
            out = "L" if g.result == Result.BOTH_LOSE else "W"
            outcome[i][r0] = out
            points[i][r0] = scoring.bye if out == "W" else scoring.loss
            continue
        b = index.get(g.black, -1)
        w = index.get(g.white, -1)
        if b < 0 or w < 0 or seen[b * rounds + r0] or seen[w * rounds + r0] or b == w:
            b = claim(g.black, r0, g)  # slow path: raises the precise error
            w = claim(g.white, r0, g)
        seen[b * rounds + r0] = seen[w * rounds + r0] = 1
        b_out, w_out = _OUTCOMES[g.result]
        opponent[b][r0] = w
        opponent[w][r0] = b
        outcome[b][r0] = b_out
        outcome[w][r0] = w_out
        colour[b][r0] = "B"
        colour[w][r0] = "W"
        if g.played:
            kind[b][r0] = kind[w][r0] = PLAYED
            points[b][r0] = game_pts[b_out]
            points[w][r0] = game_pts[w_out]
            counted[b][r0] = counted[w][r0] = b_out != "?"
        else:
            kind[b][r0] = kind[w][r0] = FORFEIT
            if g.result == Result.BOTH_LOSE:
                points[b][r0] = points[w][r0] = scoring.both_forfeit
            else:
                points[b][r0] = forfeit_pts[b_out]
                points[w][r0] = forfeit_pts[w_out]
            counted[b][r0] = counted[w][r0] = count_forfeits and b_out != "?"
    return Ledger(
        ids=list(ids),
        index=index,
        rounds=rounds,
        kind=kind,
        opponent=opponent,
        points=points,
        outcome=outcome,
        colour=colour,
        counted=counted,
        win_points=scoring.win,
    )
