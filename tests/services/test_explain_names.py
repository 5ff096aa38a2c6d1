"""Explanations show players' names, and numbers that are not players stay numbers."""

from __future__ import annotations

from yisai.pairing import Entrant, pair_round
from yisai.record import Game, Result
from yisai.vocabulary.rank import Rank

# Ids that look like the numbers in the reasons ("2分组", "(3人)", "第1名"): the hard case.
FIELD = [Entrant(str(i), Rank(6 - i)) for i in range(1, 6)]
NAMES = {e.id: f"棋手{chr(0x7532 + int(e.id))}" for e in FIELD}


def test_round1_heads_carry_names_and_reasons_keep_their_numbers() -> None:
    rp = pair_round(FIELD, [], 1)
    plain, named = rp.explain(), rp.explain(names=NAMES)
    assert len(plain) == len(named)
    for b in rp.boards:
        head = f"第{b.board}台 {NAMES[b.black]}(黑, 0分) — {NAMES[b.white]}(白, 0分): "
        [line] = [ln for ln in named if ln.startswith(f"第{b.board}台 ")]
        assert line.startswith(head)
        # "同分组配对(0分组第1名对第3名, 共4人); 黑白由抽签决定": no player id inside, unchanged.
        assert line[len(head):] == "; ".join((*b.reasons, b.colour_reason))
    [bye] = rp.byes
    assert f"轮空 {NAMES[bye.player]} (+2分): {bye.reason}" in named
    assert named[: len(rp.explanations)] == list(rp.explanations)  # round-level lines untouched


def test_a_float_reason_names_the_player_and_keeps_the_scores() -> None:
    r1 = pair_round(FIELD, [], 1)
    games = [Game(1, b.black, b.white, Result.BLACK_WINS, board=b.board) for b in r1.boards]
    games += [Game(1, y.player, None, Result.BLACK_WINS, False, reason="轮空") for y in r1.byes]
    r2 = pair_round(FIELD, games, 2)  # three players on 2 points: one floats down to 0
    floats = [(b, r) for b in r2.boards for r in b.reasons if "从2分组降至0分组" in r]
    assert len(floats) == 1
    board, reason = floats[0]
    mover = reason.split(" ", 1)[0]
    assert mover in (board.black, board.white)
    [line] = [ln for ln in r2.explain(names=NAMES) if ln.startswith(f"第{board.board}台 ")]
    assert f"{NAMES[mover]} 从2分组降至0分组: 2分组(含降入者)人数为奇数(3人)" in line
    assert f" {mover} " not in line


def test_without_names_nothing_changes() -> None:
    rp = pair_round(FIELD, [], 1)
    assert rp.explain() == rp.explain(names={}) == rp.explain(names=None)
