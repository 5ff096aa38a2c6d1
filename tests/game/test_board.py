"""Rules of play on hand-drawn positions: captures, suicide, ko, superko, passes, coordinates."""

from __future__ import annotations

import pytest

from yisai.game.board import BLACK, EMPTY, PASS, WHITE, Board, IllegalMove, Reason
from yisai.regulation.rules import PlayRules

from .helpers import board_from, play_line


@pytest.mark.parametrize("size", [2, 3, 9, 13, 19, 25])
def test_sizes_2_to_25(size: int) -> None:
    board = Board(size)
    assert len(board.empties) == size * size
    assert (
        board.gtp(board.point(size - 1, 0))
        == f"{'ABCDEFGHJKLMNOPQRSTUVWXYZ'[size - 1].lower()}{size}"
    )


@pytest.mark.parametrize("size", [0, 1, 26])
def test_sizes_outside_2_to_25_are_refused(size: int) -> None:
    with pytest.raises(ValueError):
        Board(size)


def test_coordinates_match_sgf_and_gtp() -> None:
    board = Board(19)
    p = board.point(15, 3)  # SGF "pd" is the upper-right star point, GTP Q16
    assert board.sgf(p) == "pd"
    assert board.gtp(p) == "q16"
    assert board.parse_gtp("Q16") == p
    assert board.parse_gtp("a1") == board.point(0, 18)
    assert board.parse_gtp("T19") == board.point(18, 0)
    assert board.parse_gtp("pass") == PASS
    for bad in ("i5", "z1", "q20", "q0", "16", ""):
        with pytest.raises(ValueError):
            board.parse_gtp(bad)


def test_from_rules_reads_size_and_superko() -> None:
    board = Board.from_rules(PlayRules(board_size=13, superko="simple_ko"))
    assert board.size == 13 and not board.superko
    assert Board.from_rules(PlayRules()).superko


def test_single_capture() -> None:
    board = board_from(
        """
        . X .
        X O X
        . . .
        """
    )
    board.play(BLACK, board.parse_gtp("b1"))
    assert board[board.parse_gtp("b2")] == EMPTY
    assert board.captures[BLACK] == 1
    assert board.audit() == []


def test_capture_of_two_chains_at_once() -> None:
    # White b3 and b1 each have b2 as their only liberty.
    board = board_from(
        """
        X O X
        X . X
        X O X
        """
    )
    board.play(BLACK, board.parse_gtp("b2"))
    assert board.captures[BLACK] == 2
    assert board[board.parse_gtp("b3")] == EMPTY and board[board.parse_gtp("b1")] == EMPTY
    assert board.audit() == []


def test_occupied_point_is_refused() -> None:
    board = Board(9)
    board.play(BLACK, board.parse_gtp("e5"))
    with pytest.raises(IllegalMove) as exc:
        board.play(WHITE, board.parse_gtp("e5"))
    assert exc.value.reason == Reason.OCCUPIED
    assert str(exc.value) == "W e5: 不合法: 该点已有棋子"


def test_single_stone_suicide_is_refused() -> None:
    board = board_from(
        """
        . X
        X .
        """
    )
    before = board.state()
    assert board.check(WHITE, board.parse_gtp("a2")) == Reason.SUICIDE
    with pytest.raises(IllegalMove):
        board.play(WHITE, board.parse_gtp("a2"))
    assert board.state() == before
    assert board.check(BLACK, board.parse_gtp("a2")) == Reason.OK  # own stones: fine


def test_multi_stone_suicide_is_refused_unless_allowed() -> None:
    diagram = """
        O . X
        X X X
        . . .
        """
    board = board_from(diagram)
    # White b3 would join a3, whose only liberty is b3: no liberty left, nothing captured.
    assert board.check(WHITE, board.parse_gtp("b3")) == Reason.SUICIDE
    lenient = board_from(diagram, suicide_allowed=True)
    lenient.play(WHITE, lenient.parse_gtp("b3"))
    assert lenient[lenient.parse_gtp("a3")] == EMPTY and lenient[lenient.parse_gtp("b3")] == EMPTY
    assert lenient.captures[BLACK] == 2  # the two white stones count as taken by Black
    assert lenient.audit() == []


def test_capturing_move_is_not_suicide() -> None:
    board = board_from(
        """
        . X O
        X O .
        O . .
        """
    )
    # White a3 has no empty neighbour, but Black b3 and a2 each have a3 as last liberty.
    assert board.check(WHITE, board.parse_gtp("a3")) == Reason.OK
    board.play(WHITE, board.parse_gtp("a3"))
    assert board.captures[WHITE] == 2
    assert board.audit() == []


KO = """
    . X O .
    X O . O
    . X O .
    . . . .
    """


def test_simple_ko_immediate_recapture_refused_under_both_rules() -> None:
    for superko in (True, False):
        board = board_from(KO, superko=superko)
        board.play(BLACK, board.parse_gtp("c3"))  # takes the white stone on b3
        assert board.ko_point == board.parse_gtp("b3")
        assert board.check(WHITE, board.parse_gtp("b3")) == Reason.KO
        # After a ko threat exchange elsewhere the retake is legal.
        play_line(board, "Wd1 Ba1 Wb3")
        assert board[board.parse_gtp("c3")] == EMPTY


def test_retake_after_two_passes_is_superko_but_allowed_by_simple_ko() -> None:
    # After the ko capture and two passes, White's retake would recreate the position before
    # Black's capture: positional superko forbids it, simple ko does not.
    strict = board_from(KO, superko=True)
    strict.play(BLACK, strict.parse_gtp("c3"))
    strict.pass_move(WHITE)
    strict.pass_move(BLACK)
    assert strict.check(WHITE, strict.parse_gtp("b3")) == Reason.SUPERKO
    lax = board_from(KO, superko=False)
    lax.play(BLACK, lax.parse_gtp("c3"))
    lax.pass_move(WHITE)
    lax.pass_move(BLACK)
    lax.play(WHITE, lax.parse_gtp("b3"))
    assert lax.last_repeated


def test_legal_moves_lists_only_legal_points() -> None:
    board = board_from(
        """
        X .
        . X
        """
    )
    # Both empty points are single-point eyes of Black's two stones (each with 2 liberties).
    assert board.legal_moves(WHITE) == []
    assert sorted(board.legal_moves(BLACK)) == sorted(
        [board.parse_gtp("b2"), board.parse_gtp("a1")]
    )


def test_pass_clears_ko_and_counts_as_move() -> None:
    board = board_from(KO, superko=False)
    board.play(BLACK, board.parse_gtp("c3"))
    board.play(WHITE, PASS)
    assert board.ko_point == 0
    assert board.moves == 2 and board.to_move == BLACK


def test_copy_is_independent() -> None:
    board = Board(9)
    play_line(board, "Be5 Wd5")
    twin = board.copy()
    twin.play(BLACK, twin.parse_gtp("c5"))
    assert board[board.parse_gtp("c5")] == EMPTY
    assert twin[twin.parse_gtp("c5")] == BLACK
    assert board.state() != twin.state()
    assert twin.audit() == [] and board.audit() == []


def test_undo_restores_capture_and_ko() -> None:
    board = board_from(KO)
    before = board.state()
    board.play(BLACK, board.parse_gtp("c3"))
    after_capture = board.state()
    board.pass_move(WHITE)
    board.undo()
    assert board.state() == after_capture
    board.undo()
    assert board.state() == before
    assert board.check(BLACK, board.parse_gtp("c3")) == Reason.OK


def test_undo_with_nothing_to_undo() -> None:
    with pytest.raises(ValueError):
        Board(5).undo()


def test_setup_off_board_is_refused() -> None:
    with pytest.raises(ValueError):
        Board(5).setup(black=[0])
