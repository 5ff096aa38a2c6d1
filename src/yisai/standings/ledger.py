"""The games of rounds 1..r turned into one "round card" per player and round.

Every criterion reads these cards instead of re-scanning the games, so a full table costs a few
passes over players × rounds (the 10,000 × 9 benchmark depends on it). The cards apply the
regulation's ``Scoring``: points for wins, draws, losses, forfeits (弃权), byes (轮空) and absent
rounds, and whether an opponent counts in 对手分.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable, Iterable, Mapping, Sequence
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


Card = tuple[int, tuple[str, int, str, str, bool]]  # (opponent index, (kind, points, outcome, colour, counted))


class _Faces:
    """What each result gives Black and White (kind, points, outcome, colour, counted), made
    once per scoring so the loop over games only stores two small tuples per game."""

    def __init__(self, scoring: Scoring) -> None:
        self.absent: Card = (NO_OPPONENT, (ABSENT, scoring.points("absent", ""), "", "", False))
        self.face: dict[tuple[Result, bool], tuple[tuple[str, int, str, str, bool], ...]] = {}
        for res, (b_out, w_out) in _OUTCOMES.items():
            both_lose = res == Result.BOTH_LOSE
            for played in (True, False):
                k: RoundKind = PLAYED if played else FORFEIT
                pts = (scoring.points(k, b_out, both_lose=both_lose),
                       scoring.points(k, w_out, both_lose=both_lose))
                if played:
                    cnt = b_out != "?"
                elif both_lose:
                    cnt = scoring.forfeit_counts_in_sos
                else:
                    cnt = scoring.forfeit_counts_in_sos and b_out != "?"
                self.face[(res, played)] = ((k, pts[0], b_out, "B", cnt), (k, pts[1], w_out, "W", cnt))
        self.bye_win: Card = (NO_OPPONENT, (BYE, scoring.points(BYE, "W"), "W", "", False))
        self.bye_loss: Card = (NO_OPPONENT, (BYE, scoring.points(BYE, "L"), "L", "", False))

    def column(self, index: Mapping[str, int], games: Sequence[Game]) -> list[Card]:
        """Every player's card of one round (absent unless a game says otherwise)."""
        column = [self.absent] * len(index)
        seen = bytearray(len(index))

        def claim(pid: str, g: Game) -> int:
            i = index.get(pid)
            if i is None:
                raise ValueError(f"第{g.round}轮对局中的选手 {pid!r} 不在选手名单中")
            if seen[i]:
                raise ValueError(f"选手 {pid!r} 在第{g.round}轮有两盘对局")
            seen[i] = 1
            return i

        for g in games:
            if g.white is None:  # bye
                i = claim(g.black, g)
                column[i] = self.bye_loss if g.result == Result.BOTH_LOSE else self.bye_win
                continue
            b = index.get(g.black, -1)
            w = index.get(g.white, -1)
            if b < 0 or w < 0 or seen[b] or seen[w] or b == w:
                b = claim(g.black, g)  # slow path: raises the precise error
                w = claim(g.white, g)
            seen[b] = seen[w] = 1
            fb, fw = self.face[(g.result, g.played)]
            column[b] = (w, fb)
            column[w] = (b, fw)
        return column


class RoundColumns:
    """One round's cards for every player, kept under (players, round, the round's games key,
    scoring): entering a result re-makes that round's column only. The key is the caller's
    promise that the round's games are the same whenever it is (the store's round revisions
    make it so); a caller with no such key passes none and nothing is kept."""

    def __init__(self, capacity: int = 256) -> None:  # a 10,000-player column is 80 KB
        self._capacity = capacity
        self._items: OrderedDict[tuple[object, ...], list[Card]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: tuple[object, ...]) -> list[Card] | None:
        with self._lock:
            found = self._items.get(key)
            if found is not None:
                self._items.move_to_end(key)
            return found

    def put(self, key: tuple[object, ...], column: list[Card]) -> None:
        with self._lock:
            self._items[key] = column
            while len(self._items) > self._capacity:
                self._items.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()


COLUMNS = RoundColumns()


def build_ledger(
    ids: Sequence[str], games: Iterable[Game], rounds: int, scoring: Scoring,
    round_keys: Mapping[int, Hashable] | None = None,
) -> Ledger:
    """Cards for rounds 1..``rounds``; games of later rounds are ignored. With ``round_keys``
    (round number → a key that changes whenever that round's games do) each round's column is
    kept in ``COLUMNS`` and only rounds with a new key are made again.

    Raises ValueError naming the game when it refers to an unknown player or gives a player two
    games in one round: standings on a broken ledger would be silently wrong.
    """
    n = len(ids)
    index = {pid: i for i, pid in enumerate(ids)}
    if len(index) != n:
        raise ValueError("选手编号重复 (duplicate player id)")
    by_round: dict[int, list[Game]] = {}
    for g in games:
        if 1 <= g.round <= rounds:
            by_round.setdefault(g.round, []).append(g)
    faces = _Faces(scoring)
    players = tuple(ids) if round_keys is not None else ()
    columns: list[list[Card]] = []
    for rnd in range(1, rounds + 1):
        key = round_keys.get(rnd) if round_keys is not None else None
        memo = (players, rnd, key, scoring) if key is not None else None
        column = COLUMNS.get(memo) if memo is not None else None
        if column is None:
            column = faces.column(index, by_round.get(rnd, ()))
            if memo is not None:
                COLUMNS.put(memo, column)
        columns.append(column)
    rows = zip(*columns, strict=True) if rounds else iter([()] * n)  # one row of cards per player

    opponent = []
    kind = []
    points = []
    outcome = []
    colour = []
    counted = []
    for row in rows:
        opps, sides = zip(*row, strict=True) if rounds else ((), ())
        opponent.append(list(opps))
        kinds, pts, outs, cols, cnts = zip(*sides, strict=True) if rounds else ((), (), (), (), ())
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
