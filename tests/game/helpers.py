"""Small helpers for the game tests: boards from ASCII diagrams, GNU Go test positions."""

from __future__ import annotations

from pathlib import Path

from yisai.game.board import BLACK, WHITE, Board
from yisai.game.sgf import read_sgf, replay
from yisai.regulation.rules import PlayRules


def board_from(diagram: str, *, superko: bool = True, suicide_allowed: bool = False) -> Board:
    """Rows from the top: X black, O white, . empty (spaces ignored)."""
    rows = [r.replace(" ", "") for r in diagram.strip().splitlines()]
    size = len(rows)
    assert all(len(r) == size for r in rows), "diagram must be square"
    board = Board(size, superko=superko, suicide_allowed=suicide_allowed)
    black = [board.point(x, y) for y, r in enumerate(rows) for x, ch in enumerate(r) if ch == "X"]
    white = [board.point(x, y) for y, r in enumerate(rows) for x, ch in enumerate(r) if ch == "O"]
    board.setup(black=black, white=white)
    return board


def load_position(path: Path, superko: str) -> Board:
    """Replay a GNU Go test file (setup and moves) under the given ko rule."""
    record = read_sgf(path.read_bytes())
    rules = PlayRules(board_size=record.size, superko=superko)  # type: ignore[arg-type]
    return replay(record, rules)


def play_line(board: Board, line: str) -> None:
    """Play 'Bd4 We1 ...' (GTP coordinates); raises IllegalMove on a refused move."""
    for token in line.split():
        color = BLACK if token[0] == "B" else WHITE
        board.play(color, board.parse_gtp(token[1:]))
