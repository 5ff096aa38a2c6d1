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


def _forfeit_points(outcome: str, result: Result, scoring: Scoring) -> int:
    if result == Result.BOTH_LOSE:
        return scoring.both_forfeit
    if outcome == "W":
        return scoring.forfeit_win
    if outcome == "L":
        return scoring.forfeit_loss
    if outcome == "D":
        return scoring.draw
    return 0


def _game_points(outcome: str, scoring: Scoring) -> int:
    if outcome == "W":
        return scoring.win
    if outcome == "D":
        return scoring.draw
    if outcome == "L":
        return scoring.loss
    return 0


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
    seen: set[tuple[int, int]] = set()

    def claim(pid: str, r0: int, g: Game) -> int:
        i = index.get(pid)
        if i is None:
            raise ValueError(f"第{g.round}轮对局中的选手 {pid!r} 不在选手名单中")
        if (i, r0) in seen:
            raise ValueError(f"选手 {pid!r} 在第{g.round}轮有两盘对局")
        seen.add((i, r0))
        return i

    for g in games:
        if g.round < 1 or g.round > rounds:
            continue
        r0 = g.round - 1
        if g.white is None:  # bye
            i = claim(g.black, r0, g)
            kind[i][r0] = BYE
            out = g.outcome_for(g.black)
            outcome[i][r0] = out
            points[i][r0] = scoring.bye if out == "W" else scoring.loss
            continue
        b = claim(g.black, r0, g)
        w = claim(g.white, r0, g)
        for me, other, pid, col in ((b, w, g.black, "B"), (w, b, g.white, "W")):
            out = g.outcome_for(pid)
            opponent[me][r0] = other
            outcome[me][r0] = out
            colour[me][r0] = col
            if g.played:
                kind[me][r0] = PLAYED
                points[me][r0] = _game_points(out, scoring)
                counted[me][r0] = out != "?"
            else:
                kind[me][r0] = FORFEIT
                points[me][r0] = _forfeit_points(out, g.result, scoring)
                counted[me][r0] = scoring.forfeit_counts_in_sos and out != "?"
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
