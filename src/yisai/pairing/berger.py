"""Berger tables (贝格尔编排表) for round robins (循环赛): which seat meets which in each round.

Pure and tiny so that individual and team round robins share it. Seats are numbered 1..n as
drawn or seeded; the table is the one FIDE publishes (Handbook C.05, annex 1): seat n stays put,
the others turn round it. The seat the published table names first moves first: White in FIDE's
chess tables, **Black** in Go, so ``BergerPair.black`` is the first-named seat.

With an odd number of seats a dummy seat n+1 is added and whoever meets it has the bye (轮空)
that round, so every seat has exactly one bye over the whole round robin.
"""

from __future__ import annotations

from typing import NamedTuple


class BergerPair(NamedTuple):
    """One board of a Berger round: ``black`` is the seat named first in the table."""

    black: int
    white: int


class BergerRound(NamedTuple):
    """One round: boards in the table's order (board 1 first) and the seat with the bye, if any."""

    number: int
    pairs: tuple[BergerPair, ...]
    bye: int | None


MAX_SEATS = 1000


def berger_rounds(n: int) -> list[BergerRound]:
    """Every round of a round robin among seats 1..``n`` (n − 1 rounds for even n, n for odd).

    Seat ``m`` (n, or n + 1 when n is odd) meets seat p_r = (r − 1)·m/2 mod (m − 1) + 1 in round
    r, moving first in even rounds; board k ≥ 2 pairs p_r + (k − 1) (first) with p_r − (k − 1),
    counted round 1..m − 1. This is the construction behind FIDE's published tables.
    """
    if n < 2 or n > MAX_SEATS:
        raise ValueError(f"a round robin needs 2..{MAX_SEATS} seats, not {n}")
    m = n if n % 2 == 0 else n + 1
    ring = m - 1

    def seat(k: int) -> int:
        return (k - 1) % ring + 1

    rounds: list[BergerRound] = []
    for r in range(1, m):
        p = ((r - 1) * (m // 2)) % ring + 1
        boards: list[BergerPair] = [BergerPair(m, p) if r % 2 == 0 else BergerPair(p, m)]
        for k in range(1, m // 2):
            boards.append(BergerPair(seat(p + k), seat(p - k)))
        bye: int | None = None
        if m != n:
            dummy = next(b for b in boards if m in b)
            bye = dummy.white if dummy.black == m else dummy.black
            boards.remove(dummy)
        rounds.append(BergerRound(r, tuple(boards), bye))
    return rounds


def round_count(n: int) -> int:
    """Rounds a single round robin among ``n`` seats takes."""
    return n - 1 if n % 2 == 0 else n
