"""Seeded simulation of a whole Swiss: synthetic fields and results where the stronger player
wins more often. Used by the benchmark and by ``yisai demo``; pure (the seed is the only
source of randomness).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from yisai.lot import lot
from yisai.pairing.model import Entrant, RoundPairing
from yisai.pairing.swiss import pair_round
from yisai.record import Game, Result
from yisai.regulation.rules import PairingRules, Scoring
from yisai.vocabulary.rank import Rank


def synthetic_field(n: int, seed: int, teams: int = 0, prefix: str = "P") -> list[Entrant]:
    """``n`` players from 10 kyu to 7 dan (more in the middle), ratings around their rank."""
    rnd = random.Random(lot(seed, "field", n))
    out = []
    width = len(str(n))
    for i in range(n):
        value = max(-10, min(6, round(rnd.gauss(0.0, 3.0))))
        rating = 2100 + 100 * value + rnd.randint(-60, 60)
        team = f"T{rnd.randrange(teams) + 1}" if teams else None
        out.append(Entrant(f"{prefix}{i + 1:0{width}d}", Rank(value), rating, team=team,
                           province=team))
    return out


def strength(p: Entrant) -> float:
    """Elo-like strength: the rating if known, else 100 points per grade."""
    return float(p.rating) if p.rating else 2100.0 + 100.0 * p.rank.value


def black_win_probability(black: Entrant, white: Entrant) -> float:
    return 1.0 / (1.0 + 10 ** ((strength(white) - strength(black)) / 400.0))


def simulated_result(black: Entrant, white: Entrant, rnd: random.Random) -> Result:
    return Result.BLACK_WINS if rnd.random() < black_win_probability(black, white) else Result.WHITE_WINS


def play_round(pairing: RoundPairing, players: dict[str, Entrant], seed: int) -> list[Game]:
    """The round's games with simulated results (byes as bye records)."""
    rnd = random.Random(lot(seed, "results", pairing.round))
    games = [
        Game(pairing.round, b.black, b.white, simulated_result(players[b.black], players[b.white], rnd),
             board=b.board)
        for b in pairing.boards
    ]
    games += [y.game(pairing.round) for y in pairing.byes]
    return games


@dataclass(slots=True)
class SwissRun:
    pairings: list[RoundPairing] = field(default_factory=list)
    games: list[Game] = field(default_factory=list)


def simulate_swiss(
    players: Sequence[Entrant],
    rounds: int,
    *,
    rules: PairingRules | None = None,
    scoring: Scoring | None = None,
    seed: int = 0,
    games: Sequence[Game] = (),
    first_round: int = 1,
    on_round: Callable[[RoundPairing, list[Game]], None] | None = None,
) -> SwissRun:
    """Pair and play ``rounds`` rounds from ``first_round`` on, starting from ``games``."""
    by_id = {p.id: p for p in players}
    run = SwissRun(games=list(games))
    for r in range(first_round, first_round + rounds):
        pairing = pair_round(players, run.games, r, rules=rules, scoring=scoring, seed=seed)
        played = play_round(pairing, by_id, seed)
        run.pairings.append(pairing)
        run.games.extend(played)
        if on_round is not None:
            on_round(pairing, played)
    return run
