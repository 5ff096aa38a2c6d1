"""Chinese area counting, both result forms, and the dead-stone proposal (hand-counted)."""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction

import pytest

from yisai.game.board import BLACK, WHITE, Board
from yisai.game.deadstones import pass_alive, propose_dead
from yisai.game.scoring import area_count, format_stones
from yisai.i18n import language, set_language

from .helpers import board_from


@pytest.fixture
def english() -> Iterator[None]:
    before = language()
    set_language("en")
    yield
    set_language(before)


def _filled(black: int, size: int = 19) -> Board:
    """A board full of stones: the first ``black`` points (row by row) black, the rest white."""
    board = Board(size)
    pts = list(board.geo.points)
    board.setup(black=pts[:black], white=pts[black:])
    return board


def test_185_stones_wins_by_three_quarters() -> None:
    # 361 / 2 = 180.5; komi 7.5 points = 3.75 stones, half of it is Black's burden: 184.25.
    count = area_count(_filled(185), 7.5)
    assert count.black_needs == Fraction(737, 4)  # 184.25
    assert count.black_count == 185 and count.white_count == 176
    assert count.margin_stones == Fraction(3, 4)
    assert count.count_form == "黑方185子，黑胜3/4子"
    assert count.point_form == "B+1.5"  # 185 - 176 - 7.5
    assert count.winner == BLACK


def test_184_stones_loses_by_a_quarter() -> None:
    count = area_count(_filled(184), 7.5)
    assert count.count_form == "黑方184子，白胜1/4子"
    assert count.point_form == "W+0.5"  # 184 - 177 - 7.5
    assert count.winner == WHITE


def test_count_form_in_english(english: None) -> None:
    assert area_count(_filled(185), 7.5).count_form == "Black 185 stones, Black wins by 3/4 stones"


def test_walls_and_territory_on_19x19() -> None:
    board = Board(19)
    board.setup(
        black=[board.point(9, y) for y in range(19)],
        white=[board.point(10, y) for y in range(19)],
    )
    count = area_count(board, 7.5)
    # Black: 19 wall stones + 9 columns of territory; White: 19 + 8 columns.
    assert (count.black_area, count.white_area, count.dame) == (190, 171, 0)
    assert count.point_form == "B+11.5"
    assert count.count_form == "黑方190子，黑胜5又3/4子"  # 190 - 184.25


def test_dame_is_shared_half_and_half() -> None:
    board = Board(19)
    board.setup(
        black=[board.point(9, y) for y in range(19)],
        white=[board.point(11, y) for y in range(19)],
    )
    count = area_count(board, 7.5)
    # Column 10 touches both walls: 19 shared points, 9.5 to each side.
    assert (count.black_area, count.white_area, count.dame) == (190, 152, 19)
    assert count.black_count == Fraction(399, 2)  # 199.5
    assert count.point_form == "B+30.5"  # 190 - 152 - 7.5
    assert count.count_form == "黑方199.5子，黑胜15又1/4子"  # 199.5 - 184.25


NINE = """
    . . . . X O . . .
    . O . . X O . . .
    . . . . X O . . .
    . . . . X O . . .
    . . . . X O . . .
    . . . . X O . . .
    . . . . X O . . .
    . . . . X O . . .
    . . . . X O . . .
    """


def test_dead_stone_becomes_the_other_sides_area() -> None:
    board = board_from(NINE)
    lone = board.parse_gtp("b8")
    alive = area_count(board, 7.5)
    # Left of the black wall touches the white stone: no territory for anyone.
    assert (alive.black_area, alive.white_area, alive.dame) == (9, 37, 35)
    dead = area_count(board, 7.5, [lone])
    # 9x9: half is 40.5, Black needs 44.25; Black has 9 + 36 = 45.
    assert (dead.black_area, dead.white_area, dead.dame) == (45, 36, 0)
    assert dead.dead_white == 1
    assert dead.count_form == "黑方45子，黑胜3/4子"
    assert dead.point_form == "B+1.5"


def test_integer_komi_can_draw() -> None:
    board = board_from(NINE)
    count = area_count(board, 9, [board.parse_gtp("b8")])
    assert count.point_form == "0"
    assert count.count_form == "黑方45子，和棋"
    assert count.winner == 0


def test_format_stones() -> None:
    assert format_stones(Fraction(3, 4)) == "3/4"
    assert format_stones(Fraction(7, 4)) == "1又3/4"
    assert format_stones(Fraction(2)) == "2"
    assert format_stones(Fraction(1, 2)) == "1/2"


# ----- dead-stone proposal ------------------------------------------------------------
BENSON = """
    . X . X O . .
    X X X X O . .
    . O . X O . .
    X X X X O . .
    O O O O O . .
    . . . . . . .
    . . . . . . .
    """


def test_benson_finds_the_two_eyed_group() -> None:
    board = board_from(BENSON)
    # Black's chain has three small regions whose empty points all touch it (a7, c7 and the
    # a5-c5 pocket): unconditionally alive. White's wall has no eye at all.
    assert pass_alive(board, BLACK) == {board.grp[board.parse_gtp("b6")]}
    assert pass_alive(board, WHITE) == set()


def test_proposal_marks_the_stone_with_no_room_for_eyes() -> None:
    board = board_from(BENSON)
    # b5 sits in a three-point pocket every point of which touches Black's living chain.
    assert propose_dead(board) == {board.parse_gtp("b5")}


def test_proposal_marks_a_small_group_in_settled_territory() -> None:
    board = board_from(
        """
        . O . . X
        X X X X X
        . . . . .
        . . . . .
        . . . . .
        """
    )
    # The black wall is not pass-alive (one eye-region only) but is settled: 5 liberties below,
    # 8 in all against the white stone's 2, and the edge strip has no room for an eye.
    assert propose_dead(board) == {board.parse_gtp("b5")}


def test_proposal_leaves_open_positions_alone() -> None:
    assert propose_dead(Board(9)) == set()
    board = board_from(NINE)
    # The white stone at b8 has a whole open area around it: not "clearly" dead.
    assert propose_dead(board) == set()
