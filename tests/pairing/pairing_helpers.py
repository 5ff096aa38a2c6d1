"""Small builders shared by the pairing tests (imported from the test directory)."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator, Sequence

from yisai.pairing import Entrant
from yisai.record import Game, Result
from yisai.vocabulary.rank import Rank


def field(n: int, teams: int = 0) -> list[Entrant]:
    """p01 strongest … pNN weakest (distinct ranks/ratings, so seeding is fully determined)."""
    return [
        Entrant(f"p{i + 1:02d}", Rank(8 - i), 2700 - 10 * i,
                team=f"T{i % teams}" if teams else None)
        for i in range(n)
    ]


def g(rnd: int, black: str, white: str | None, result: str = "B+", played: bool = True) -> Game:
    if white is None:
        return Game(rnd, black, None, Result.UNKNOWN, played=False)
    return Game(rnd, black, white, Result(result), played=played)


def random_history(ids: Sequence[str], rounds: int, rnd: random.Random) -> list[Game]:
    """Random earlier rounds: random rematch-free pairings (a bye when odd), random results."""
    games: list[Game] = []
    met: set[frozenset[str]] = set()
    for r in range(1, rounds + 1):
        for _ in range(50):
            order = list(ids)
            rnd.shuffle(order)
            bye = order.pop() if len(order) % 2 else None
            pairs = list(zip(order[0::2], order[1::2], strict=True))
            if all(frozenset(p) not in met for p in pairs):
                break
        else:
            return games
        for a, b in pairs:
            met.add(frozenset((a, b)))
            games.append(g(r, a, b, rnd.choice(["B+", "W+"])))
        if bye:
            games.append(g(r, bye, None))
    return games


def perfect_matchings(items: list[str]) -> Iterator[list[tuple[str, str]]]:
    """Every way to pair ``items`` (even length), each pair in ``items`` order."""
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for i, other in enumerate(rest):
        for m in perfect_matchings(rest[:i] + rest[i + 1:]):
            yield [(first, other), *m]


def scores_from_games(ids: Sequence[str], games: Sequence[Game], win: int = 2, bye: int = 2
                      ) -> dict[str, int]:
    """Reference 积分 (win 2, loss 0, bye 2), written independently of the engine."""
    s = dict.fromkeys(ids, 0)
    for gm in games:
        if gm.white is None:
            s[gm.black] += bye
        elif gm.result == Result.BLACK_WINS:
            s[gm.black] += win
        elif gm.result == Result.WHITE_WINS:
            s[gm.white] += win
    return s


def pairs_of(games: Sequence[Game]) -> set[frozenset[str]]:
    return {frozenset((gm.black, gm.white)) for gm in games if gm.white is not None}


__all__ = ["field", "g", "itertools", "pairs_of", "perfect_matchings", "random_history",
           "scores_from_games"]
