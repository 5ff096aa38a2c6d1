"""The game life cycle: passes, the scoring phase, acceptance, rejection and other endings."""

from __future__ import annotations

import pytest

from yisai.game.board import BLACK, EMPTY, PASS, WHITE, Board, IllegalMove
from yisai.game.flow import EndReason, GameFlow, GameOver, Phase
from yisai.regulation.rules import PlayRules

from .test_scoring import BENSON, NINE, board_from


def _flow(diagram: str, **rules) -> GameFlow:
    board = board_from(diagram)
    return GameFlow.from_position(board, PlayRules(board_size=board.size, **rules))


def test_two_passes_open_scoring_with_the_proposal_premarked() -> None:
    flow = _flow(BENSON)
    flow.play(BLACK, PASS)
    assert flow.phase == Phase.PLAYING
    flow.play(WHITE, PASS)
    assert flow.phase == Phase.SCORING
    b5 = flow.board.parse_gtp("b5")
    assert flow.proposal == {b5} and flow.dead == {b5}
    assert flow.accepted == set()  # nothing is final until both accept


def test_a_move_between_passes_resets_the_count() -> None:
    flow = GameFlow(PlayRules(board_size=9))
    flow.pass_move(BLACK)
    flow.play(WHITE, flow.board.parse_gtp("e5"))
    flow.pass_move(BLACK)
    assert flow.phase == Phase.PLAYING


def test_toggle_marks_a_whole_chain_and_withdraws_acceptance() -> None:
    flow = _flow(NINE)
    flow.pass_move(BLACK)
    flow.pass_move(WHITE)
    assert flow.dead == set()
    flow.accept(BLACK)
    flow.toggle(flow.board.parse_gtp("e3"))  # the whole black wall, 9 stones
    assert len(flow.dead) == 9 and flow.accepted == set()
    flow.toggle(flow.board.parse_gtp("e9"))
    assert flow.dead == set()
    with pytest.raises(ValueError):
        flow.toggle(flow.board.parse_gtp("a1"))  # empty point


def test_both_accept_gives_the_area_result() -> None:
    flow = _flow(NINE)
    flow.pass_move(BLACK)
    flow.pass_move(WHITE)
    flow.toggle(flow.board.parse_gtp("b8"))
    flow.accept(WHITE)
    assert flow.phase == Phase.SCORING
    flow.accept(BLACK)
    assert flow.phase == Phase.FINISHED
    out = flow.outcome
    assert out is not None and out.reason == EndReason.SCORE
    assert out.sgf == "B+1.5" and out.winner == BLACK  # 45 - 36 - 7.5
    assert out.text == "黑方45子，黑胜3/4子"


def test_reject_resumes_play_with_the_next_player() -> None:
    flow = _flow(NINE)
    flow.pass_move(BLACK)
    flow.pass_move(WHITE)
    flow.toggle(flow.board.parse_gtp("b8"))
    flow.reject(WHITE)
    assert flow.phase == Phase.PLAYING and flow.dead == set() and flow.passes == 0
    assert flow.to_move == BLACK
    flow.play(BLACK, flow.board.parse_gtp("a8"))
    assert flow.board[flow.board.parse_gtp("a8")] == BLACK


@pytest.mark.parametrize(
    ("action", "loser", "sgf", "reason"),
    [
        ("resign", BLACK, "W+R", EndReason.RESIGN),
        ("lose_on_time", WHITE, "B+T", EndReason.TIME),
        ("forfeit", WHITE, "B+F", EndReason.FORFEIT),
        ("escape", BLACK, "W+F", EndReason.ESCAPE),
    ],
)
def test_other_endings(action: str, loser: int, sgf: str, reason: EndReason) -> None:
    flow = GameFlow()
    getattr(flow, action)(loser)
    assert flow.phase == Phase.FINISHED
    assert flow.outcome is not None
    assert (flow.outcome.sgf, flow.outcome.reason, flow.outcome.winner) == (sgf, reason, 3 - loser)
    with pytest.raises(GameOver):
        flow.play(BLACK, flow.board.parse_gtp("d4"))
    with pytest.raises(GameOver):
        flow.resign(WHITE)


def test_turn_order_and_illegal_moves() -> None:
    flow = GameFlow(PlayRules(board_size=9))
    with pytest.raises(GameOver):
        flow.play(WHITE, flow.board.parse_gtp("e5"))
    flow.play(BLACK, flow.board.parse_gtp("e5"))
    with pytest.raises(IllegalMove):
        flow.play(WHITE, flow.board.parse_gtp("e5"))
    assert flow.to_move == WHITE


def test_handicap_stones_give_white_the_first_move() -> None:
    board = Board(19)
    stones = [board.parse_gtp(c) for c in ("d4", "q16")]
    flow = GameFlow(PlayRules(), handicap=stones)
    assert flow.to_move == WHITE
    assert all(flow.board[p] == BLACK for p in stones)
    assert flow.board[flow.board.parse_gtp("d16")] == EMPTY
