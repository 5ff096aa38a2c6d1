"""Berger tables against FIDE's published tables (Handbook C.05, annex 1), copied by hand.

In the published tables the first-named seat moves first (White in chess); in Go that seat
takes Black, which is what ``BergerPair.black`` holds.
"""

from __future__ import annotations

from itertools import combinations

import pytest

from yisai.pairing.berger import BergerPair, berger_rounds, round_count

# FIDE Berger tables, round by round, "first-named – second" as printed.
FIDE_4 = [
    [(1, 4), (2, 3)],
    [(4, 3), (1, 2)],
    [(2, 4), (3, 1)],
]
FIDE_6 = [
    [(1, 6), (2, 5), (3, 4)],
    [(6, 4), (5, 3), (1, 2)],
    [(2, 6), (3, 1), (4, 5)],
    [(6, 5), (1, 4), (2, 3)],
    [(3, 6), (4, 2), (5, 1)],
]
FIDE_8 = [
    [(1, 8), (2, 7), (3, 6), (4, 5)],
    [(8, 5), (6, 4), (7, 3), (1, 2)],
    [(2, 8), (3, 1), (4, 7), (5, 6)],
    [(8, 6), (7, 5), (1, 4), (2, 3)],
    [(3, 8), (4, 2), (5, 1), (6, 7)],
    [(8, 7), (1, 6), (2, 5), (3, 4)],
    [(4, 8), (5, 3), (6, 2), (7, 1)],
]


@pytest.mark.parametrize("n, table", [(4, FIDE_4), (6, FIDE_6), (8, FIDE_8)])
def test_matches_the_published_table_board_by_board(n: int, table: list[list[tuple[int, int]]]) -> None:
    rounds = berger_rounds(n)
    assert [r.number for r in rounds] == list(range(1, n))
    assert [[tuple(p) for p in r.pairs] for r in rounds] == table
    assert all(r.bye is None for r in rounds)


def test_first_named_seat_takes_black() -> None:
    first = berger_rounds(4)[1].pairs[0]
    assert first == BergerPair(black=4, white=3)


def test_odd_field_uses_the_table_of_n_plus_1_and_gives_the_dummy_opponent_a_bye() -> None:
    # 5 players play the 6-seat table; seat 6 is nobody, so its opponent rests:
    # rounds 1..5 above pair seat 6 with 1, 4, 2, 5, 3.
    rounds = berger_rounds(5)
    assert [r.bye for r in rounds] == [1, 4, 2, 5, 3]
    assert [[tuple(p) for p in r.pairs] for r in rounds] == [
        [(2, 5), (3, 4)],
        [(5, 3), (1, 2)],
        [(3, 1), (4, 5)],
        [(1, 4), (2, 3)],
        [(4, 2), (5, 1)],
    ]


def test_three_players_each_rest_once() -> None:
    rounds = berger_rounds(3)
    assert [r.bye for r in rounds] == [1, 3, 2]
    assert [[tuple(p) for p in r.pairs] for r in rounds] == [[(2, 3)], [(1, 2)], [(3, 1)]]


@pytest.mark.parametrize("n", range(2, 21))
def test_everyone_meets_everyone_once_and_colours_balance(n: int) -> None:
    rounds = berger_rounds(n)
    assert len(rounds) == round_count(n)
    met = [frozenset(p) for r in rounds for p in r.pairs]
    assert sorted(map(sorted, met)) == sorted(map(sorted, (set(c) for c in combinations(range(1, n + 1), 2))))
    for r in rounds:
        seats = [s for p in r.pairs for s in p] + ([r.bye] if r.bye else [])
        assert sorted(seats) == list(range(1, n + 1))
    blacks = {s: sum(1 for r in rounds for p in r.pairs if p.black == s) for s in range(1, n + 1)}
    games = n - 1
    # Berger's colours: each seat has ⌊(n−1)/2⌋ or ⌈(n−1)/2⌉ Blacks.
    assert all(games // 2 <= b <= (games + 1) // 2 for b in blacks.values())


@pytest.mark.parametrize("n", [0, 1, 1001])
def test_refuses_impossible_sizes(n: int) -> None:
    with pytest.raises(ValueError):
        berger_rounds(n)
