"""GNU Go's regression positions: complete games replay legally; ko cycles meet the ko rule.

The cycles were worked out by hand on GNU Go's diagrams (see each docstring) and are
re-checked independently here: replaying the same moves on sgfmill's board (which knows
nothing about ko) must bring back the starting position exactly. Under positional superko the
move that completes the cycle must be refused; under simple ko it must be allowed.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from sgfmill import boards

from yisai.game.board import BLACK, EMPTY, WHITE, Board, IllegalMove, Reason
from yisai.game.flow import EndReason, GameFlow, Phase
from yisai.game.sgf import read_sgf, replay
from yisai.regulation.rules import PlayRules

from .helpers import load_position, play_line

GAMES = Path("gnugo/regression/games")


def _sgfmill_final(record_path: Path) -> dict[tuple[int, int], str | None]:
    """Replay a game on sgfmill's board (setup + moves) and return its colours by (x, y)."""
    from sgfmill import sgf

    game = sgf.Sgf_game.from_bytes(record_path.read_bytes())
    size = game.get_size()
    b = boards.Board(size)
    for node in game.get_main_sequence():
        ab, aw, ae = node.get_setup_stones()
        if ab or aw or ae:
            b.apply_setup(ab, aw, ae)
        colour, move = node.get_move()
        if colour and move:
            b.play(move[0], move[1], colour)
    return {(x, size - 1 - row): b.get(row, x) for row in range(size) for x in range(size)}


def test_every_scoring_game_replays_legally_under_both_ko_rules(testdata: Path) -> None:
    files = sorted((testdata / GAMES / "scoring").glob("*.sgf"))
    assert len(files) >= 58
    code = {BLACK: "b", WHITE: "w", EMPTY: None}
    for path in files:
        record = read_sgf(path.read_bytes())
        assert len(record.moves) > 0, path.name
        for superko in ("positional", "simple_ko"):
            rules = PlayRules(board_size=record.size, superko=superko)
            board = replay(record, rules)  # raises IllegalRecord on any illegal move
            assert board.audit() == [], path.name
        expected = _sgfmill_final(path)
        ours = {(x, y): code[board[board.point(x, y)]] for (x, y) in expected}
        assert ours == expected, path.name


def _start_colors(board: Board) -> list[int]:
    return list(board.color)


def _sgfmill_repeats(path: Path, line: str) -> bool:
    """Does this line of moves bring sgfmill's board back to the starting position?"""
    from sgfmill import sgf

    game = sgf.Sgf_game.from_bytes(path.read_bytes())
    size = game.get_size()
    b = boards.Board(size)
    for node in game.get_main_sequence():
        ab, aw, ae = node.get_setup_stones()
        if ab or aw or ae:
            b.apply_setup(ab, aw, ae)
    start = b.list_occupied_points()
    letters = "abcdefghjklmnopqrst"
    for token in line.split():
        col = letters.index(token[1])
        row = int(token[2:]) - 1
        b.play(row, col, token[0].lower())
    return sorted(b.list_occupied_points()) == sorted(start)


CYCLES = [
    # Triple ko: kos at d3/d4, e1/f1 and a2/a3. B d4 takes d3, W e1 takes f1, B a3 takes a2,
    # W d3 takes d4, B f1 takes e1, W a2 takes a3: the 6th move recreates the start.
    ("seki_exotics/threeko1.sgf", "Bd4 We1 Ba3 Wd3 Bf1 Wa2"),
    # The same triple ko with the third ko at a4/a5.
    ("seki_exotics/threeko2.sgf", "Ba4 We1 Bd4 Wa5 Bf1 Wd3"),
    # Four-ko position; the cycle uses three of them: B f3 takes e3, W c3 takes b3, B b1 takes
    # c1, W e3 takes f3, B b3 takes c3, W c1 takes b1 -- back to the start.
    ("seki_exotics/fourko.sgf", "Bf3 Wc3 Bb1 We3 Bb3 Wc1"),
    # Eternal life (长生, junkan-ko): B e7, W throws in f4, B e6 takes f6-f7, W f3 takes e3-e4,
    # B e4, W f6, B e3 takes f3-f4, W f7 takes e6-e7 -- no single-stone ko anywhere.
    ("seki_exotics/junkan-ko.sgf", "Be7 Wf4 Be6 Wf3 Be4 Wf6 Be3 Wf7"),
]


@pytest.mark.parametrize(("name", "line"), CYCLES)
def test_cycles_refused_by_positional_superko_allowed_by_simple_ko(
    testdata: Path, name: str, line: str
) -> None:
    path = testdata / GAMES / name
    assert _sgfmill_repeats(path, line), "the hand-derived line must be a cycle"
    *head, last = line.split()

    strict = load_position(path, "positional")
    play_line(strict, " ".join(head))
    with pytest.raises(IllegalMove) as exc:
        play_line(strict, last)
    assert exc.value.reason == Reason.SUPERKO

    lax = load_position(path, "simple_ko")
    start = _start_colors(lax)
    play_line(lax, " ".join(head))
    assert not lax.last_repeated
    play_line(lax, last)
    assert lax.last_repeated
    assert _start_colors(lax) == start


def test_cycle_under_simple_ko_ends_the_game_by_the_regulation(testdata: Path) -> None:
    path = testdata / GAMES / "seki_exotics/threeko1.sgf"
    position = load_position(path, "simple_ko")
    for result, sgf_result in (("void", "Void"), ("draw", "0")):
        rules = PlayRules(board_size=9, superko="simple_ko", cycle_result=result)
        flow = GameFlow.from_position(position.copy(), rules)
        moves = CYCLES[0][1].split(" ")
        for token in moves * 2:  # twice round: the start position's third appearance
            assert flow.phase == Phase.PLAYING
            flow.play(BLACK if token[0] == "B" else WHITE, flow.board.parse_gtp(token[1:]))
        assert flow.phase == Phase.FINISHED
        assert flow.outcome is not None
        assert flow.outcome.reason == EndReason.CYCLE and flow.outcome.sgf == sgf_result


def test_basic_ko_from_gnugo_is_refused_at_the_immediate_retake(testdata: Path) -> None:
    # ko3.sgf: White c1 has b1 as its last liberty; Black b1 takes it and is then left with
    # c1 as its only liberty -- a ko. The immediate retake is refused under either rule.
    for superko in ("positional", "simple_ko"):
        board = load_position(testdata / GAMES / "ko3.sgf", superko)
        play_line(board, "Bb1")
        with pytest.raises(IllegalMove) as exc:
            play_line(board, "Wc1")
        assert exc.value.reason == Reason.KO
        play_line(board, "Wj9 Bj8 Wc1")  # after an exchange elsewhere the retake is legal
        assert board[board.parse_gtp("b1")] == EMPTY


def test_tiny_boards_replay(testdata: Path) -> None:
    for path in sorted((testdata / GAMES / "tiny").glob("*.sgf")):
        board = replay(read_sgf(path.read_bytes()))
        assert board.size <= 4 and board.audit() == []


def test_ko_retake_after_passes_is_a_repetition(testdata: Path) -> None:
    # ko3.sgf again: after B b1 and two passes, W c1 recreates the position before b1.
    strict = load_position(testdata / GAMES / "ko3.sgf", "positional")
    play_line(strict, "Bb1")
    strict.pass_move(WHITE)
    strict.pass_move(BLACK)
    with pytest.raises(IllegalMove) as exc:
        play_line(strict, "Wc1")
    assert exc.value.reason == Reason.SUPERKO
    lax = load_position(testdata / GAMES / "ko3.sgf", "simple_ko")
    start = list(lax.color)
    play_line(lax, "Bb1")
    lax.pass_move(WHITE)
    lax.pass_move(BLACK)
    play_line(lax, "Wc1")
    assert lax.last_repeated and list(lax.color) == start
