"""Property tests on random games, checked against sgfmill's independent board and recomputation.

sgfmill's ``boards.Board`` (a different implementation: flood fill on every move) is the oracle
for captures and for what counts as suicide; ``Board.audit`` recomputes every chain, liberty
statistic and the Zobrist hash from the colours alone.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st
from sgfmill import boards

from yisai.game.board import BLACK, EMPTY, WHITE, Board, Reason
from yisai.game.scoring import area_count

GAMES = st.tuples(st.integers(2, 9), st.integers(0, 2**32), st.integers(1, 150), st.booleans())


def _oracle_play(oracle: boards.Board, board: Board, color: int, p: int) -> None:
    x, y = board.xy(p)
    oracle.play(board.size - 1 - y, x, "b" if color == BLACK else "w")


def _oracle_colors(oracle: boards.Board, board: Board) -> list[int]:
    code = {None: EMPTY, "b": BLACK, "w": WHITE}
    return [
        code[oracle.get(board.size - 1 - y, x)]
        for y in range(board.size)
        for x in range(board.size)
    ]


def _our_colors(board: Board) -> list[int]:
    return [board[board.point(x, y)] for y in range(board.size) for x in range(board.size)]


def _random_game(size: int, seed: int, length: int, superko: bool):
    """Yield (board, colour, point, reason) for each attempted move of a seeded random game."""
    rng = random.Random(seed)
    board = Board(size, superko=superko)
    color = BLACK
    for _ in range(length):
        candidates = list(board.empties)
        rng.shuffle(candidates)
        for p in candidates[:6]:
            reason = board.check(color, p)
            yield board, color, p, reason
            if reason == Reason.OK:
                break
        else:
            board.pass_move(color)
        color = 3 - color


@settings(max_examples=60, deadline=None)
@given(GAMES)
def test_random_games_agree_with_sgfmill_and_recomputation(game) -> None:
    size, seed, length, superko = game
    oracle = boards.Board(size)
    placed = {BLACK: 0, WHITE: 0}
    for board, color, p, reason in _random_game(size, seed, length, superko):
        if reason == Reason.SUICIDE:
            # sgfmill plays suicide by removing the mover's own chain: the stone must vanish.
            probe = oracle.copy()
            x, y = board.xy(p)
            probe.play(size - 1 - y, x, "b" if color == BLACK else "w")
            assert probe.get(size - 1 - y, x) is None
            continue
        if reason != Reason.OK:
            assert reason in (Reason.KO, Reason.SUPERKO)
            continue
        before = board.state()
        board.play(color, p)
        placed[color] += 1
        _oracle_play(oracle, board, color, p)
        assert _our_colors(board) == _oracle_colors(oracle, board)
        # Stones on the board plus stones captured by the opponent account for every move.
        assert len(board.stones(BLACK)) + board.captures[WHITE] == placed[BLACK]
        assert len(board.stones(WHITE)) + board.captures[BLACK] == placed[WHITE]
        # Incremental tables and hash equal a recomputation from scratch.
        assert board.audit() == []
        # Undo restores the exact state (checked on a copy to keep the game going).
        twin = board.copy()
        twin.undo()
        assert twin.state() == before


@settings(max_examples=30, deadline=None)
@given(GAMES)
def test_positional_superko_never_repeats_a_position(game) -> None:
    size, seed, length, _ = game
    seen = set()
    last = None
    for board, color, p, reason in _random_game(size, seed, length, True):
        key = tuple(board.color)
        if key != last:  # passes and refused moves leave the position as it is
            assert key not in seen
            seen.add(key)
            last = key
        if reason == Reason.OK:
            board.play(color, p)


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 19), st.integers(0, 2**32))
def test_area_of_a_filled_board_adds_up_to_its_size(size: int, seed: int) -> None:
    rng = random.Random(seed)
    board = Board(size)
    black = [p for p in board.empties if rng.random() < 0.5]
    white = [p for p in board.empties if p not in set(black) and rng.random() < 0.8]
    board.setup(black=black, white=white)
    count = area_count(board, 7.5)
    assert count.black_area + count.white_area + count.dame == size * size
    assert count.black_count + count.white_count == size * size
    assert count.black_stones == len(black) and count.white_stones == len(white)
    # Every empty point of a full board of stones is territory or dame, never both.
    empty = size * size - len(black) - len(white)
    assert count.black_territory + count.white_territory + count.dame == empty


@settings(max_examples=20, deadline=None)
@given(st.integers(2, 9), st.integers(0, 2**32))
def test_random_game_to_the_end_counts_to_board_size(size: int, seed: int) -> None:
    from yisai.bench.board import random_game

    board, _, _ = random_game(random.Random(seed), size)
    count = area_count(board, 0)
    assert count.black_count + count.white_count == size * size
    assert board.audit() == []
