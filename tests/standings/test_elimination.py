"""积分编排淘汰制 (issue 41) computed by hand from the rule's sentence.

Six players a–f, [scoring] as the default (win 2, loss 0, bye 2, forfeit win 2). The games:
  R1 a>b  c>d  e>f            → a2 b0 c2 d0 e2 f0
  R2 a>c  e>b  d>f (f forfeits) → a4 b0 c2 d2 e4 f0
  R3 a>e  d>c  f>b            → a6 b0 c2 d4 e4 f2
  R4 a>d  e>c  f bye          → a8 c2 d4 e6 f4
  R5 e>a  d>f                 → a8 d6 e8 f4
"三轮以后0分淘汰, 四轮以后2分淘汰": after round 3 only b has 0 points (f has 2 from beating b);
after round 4 only c has 2 or fewer (f's bye made 4). "三败淘汰" read with 2 losses: b and f
(f's forfeit counts) lose twice by round 2, c by round 3 (R2, R3), d by round 4 (R1, R4).
"""

from __future__ import annotations

from yisai.i18n import use_language
from yisai.record import Game
from yisai.record.games import Result
from yisai.regulation.rules import Scoring
from yisai.regulation.stages import Elimination, EliminationStep
from yisai.standings.elimination import Leaving, complete_rounds, elimination_order, leavings

B, W = Result.BLACK_WINS, Result.WHITE_WINS
GAMES = [
    Game(1, "a", "b", B), Game(1, "c", "d", B), Game(1, "e", "f", B),
    Game(2, "a", "c", B), Game(2, "e", "b", B), Game(2, "d", "f", B, played=False),
    Game(3, "a", "e", B), Game(3, "d", "c", B), Game(3, "f", "b", B),
    Game(4, "a", "d", B), Game(4, "e", "c", B), Game(4, "f", None, B, played=False),
    Game(5, "e", "a", B), Game(5, "d", "f", B),
]
PLAYERS = list("abcdef")
TEXT_17 = Elimination(after_rounds=[EliminationStep(round=3, score_at_most=0),
                                    EliminationStep(round=4, score_at_most=2)])


def _out(rule: Elimination, games: list[Game] = GAMES, up_to: int | None = None) -> dict[str, tuple[int, str, int]]:
    return {p: (x.after_round, x.how, x.value) for p, x in leavings(rule, games, Scoring(), PLAYERS, up_to).items()}


def test_low_scores_go_out_after_the_stated_rounds() -> None:
    assert _out(TEXT_17) == {"b": (3, "score", 0), "c": (4, "score", 2)}


def test_only_the_rounds_played_so_far_apply() -> None:
    assert _out(TEXT_17, up_to=3) == {"b": (3, "score", 0)}
    assert _out(TEXT_17, up_to=2) == {}


def test_a_round_not_fully_entered_is_not_applied() -> None:
    open_r4 = [*GAMES[:9], Game(4, "a", "d", B), Game(4, "e", "c")]  # e–c not entered yet
    assert complete_rounds(open_r4) == 3
    assert _out(TEXT_17, open_r4) == {"b": (3, "score", 0)}


def test_losses_count_forfeits() -> None:
    assert _out(Elimination(losses=2)) == {
        "b": (2, "losses", 2), "f": (2, "losses", 2), "c": (3, "losses", 2), "d": (4, "losses", 2)}


def test_the_promotion_mark_stops_pairing_without_eliminating() -> None:
    # wins: a R1 R2 R3 → 3 after round 3; e R1 R2 R4 → after round 4; d R2 R3 R5 → after round 5;
    # f R3 and the R4 bye → 2 only
    out = leavings(Elimination(stop_at_wins=3), GAMES, Scoring(), PLAYERS)
    assert {p: (x.after_round, x.how) for p, x in out.items()} == {"a": (3, "wins"), "e": (4, "wins"),
                                                                  "d": (5, "wins")}
    assert not any(x.eliminated for x in out.values())


def test_the_eliminated_are_placed_below_the_survivors_later_first() -> None:
    # a ranking where c (out after round 4) stood 2nd and e, d shared 3rd
    ranked = [(1, "a"), (2, "c"), (3, "e"), (3, "d"), (5, "b"), (6, "f")]
    left = {"c": Leaving("c", 4, "score", 2), "b": Leaving("b", 3, "score", 0)}
    with use_language("zh"):
        order = elimination_order(ranked, left)
    assert [(place, pid) for place, pid, _why in order] == [
        (1, "a"), (2, "e"), (2, "d"), (4, "f"), (5, "c"), (6, "b")]
    assert order[4][2] == "第4轮后积分2, 淘汰"
    assert order[0][2] == "未被淘汰"
