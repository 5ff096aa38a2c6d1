"""The games of rounds 1..r turned into one "round card" per player and round.

Every criterion reads these cards instead of re-scanning the games, so a full table costs a few
passes over players × rounds (the 10,000 × 9 benchmark depends on it). The cards apply the
regulation's ``Scoring``: points for wins, draws, losses, forfeits (弃权), byes (轮空) and absent
rounds, and whether an opponent counts in 对手分.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Final

from yisai.record import Game, Result
from yisai.regulation.rules import RoundKind, Scoring

NO_OPPONENT = -1

# Round kinds: what happened to a player in one round.
PLAYED: Final = "game"  # a game over the board (a loss on time is one)
FORFEIT: Final = "forfeit"  # a paired game not played: 弃权 (either side)
BYE: Final = "bye"  # 轮空
ABSENT: Final = "absent"  # neither paired nor bye: withdrawn, absent, not yet paired


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


_gc_lock = threading.Lock()
_gc_users = 0
_gc_was_enabled = False


@contextmanager
def gc_paused() -> Iterator[None]:
    """Pause the cycle collector during a burst of acyclic allocations (lists and tuples per
    player and round): it would otherwise rescan them repeatedly, about a third of the time.

    Scoped to the call and safe across threads: the first caller in pauses, the last one out
    restores what it found, so concurrent standings requests never leave it off."""
    global _gc_users, _gc_was_enabled
    with _gc_lock:
        if _gc_users == 0:
            _gc_was_enabled = gc.isenabled()
            gc.disable()
        _gc_users += 1
    try:
        yield
    finally:
        with _gc_lock:
            _gc_users -= 1
            if _gc_users == 0 and _gc_was_enabled:
                gc.enable()


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
    absent_card = (NO_OPPONENT, (ABSENT, scoring.points("absent", ""), "", "", False))
    cards = [[absent_card] * rounds for _ in range(n)]
    seen = bytearray(n * rounds)
    # (kind, points, outcome, colour, counted) for Black and White, per (result, played):
    # computed once so the loop over games only stores two small tuples per game.
    face: dict[tuple[Result, bool], tuple[tuple, tuple]] = {}
    for res, (b_out, w_out) in _OUTCOMES.items():
        both_lose = res == Result.BOTH_LOSE
        for played in (True, False):
            k: RoundKind = PLAYED if played else FORFEIT
            pts = (scoring.points(k, b_out, both_lose=both_lose), scoring.points(k, w_out, both_lose=both_lose))
            if played:
                cnt = b_out != "?"
            elif both_lose:
                cnt = scoring.forfeit_counts_in_sos
            else:
                cnt = scoring.forfeit_counts_in_sos and b_out != "?"
            face[(res, played)] = ((k, pts[0], b_out, "B", cnt), (k, pts[1], w_out, "W", cnt))
    bye_win = (NO_OPPONENT, (BYE, scoring.points(BYE, "W"), "W", "", False))
    bye_loss = (NO_OPPONENT, (BYE, scoring.points(BYE, "L"), "L", "", False))

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
            cards[i][r0] = bye_loss if g.result == Result.BOTH_LOSE else bye_win
            continue
        b = index.get(g.black, -1)
        w = index.get(g.white, -1)
        if b < 0 or w < 0 or seen[b * rounds + r0] or seen[w * rounds + r0] or b == w:
            b = claim(g.black, r0, g)  # slow path: raises the precise error
            w = claim(g.white, r0, g)
        seen[b * rounds + r0] = seen[w * rounds + r0] = 1
        fb, fw = face[(g.result, g.played)]
        cards[b][r0] = (w, fb)
        cards[w][r0] = (b, fw)

    opponent = []
    kind = []
    points = []
    outcome = []
    colour = []
    counted = []
    for row in cards:
        opps, faces = zip(*row, strict=True) if rounds else ((), ())
        opponent.append(list(opps))
        kinds, pts, outs, cols, cnts = zip(*faces, strict=True) if rounds else ((), (), (), (), ())  # type: ignore[assignment]
        kind.append(list(kinds))
        points.append(list(pts))
        outcome.append(list(outs))
        colour.append(list(cols))
        counted.append(list(cnts))
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
