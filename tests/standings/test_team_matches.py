"""团体赛 standings worked out by hand: 局分 from boards (forfeited boards included), 场分 from
局分, and the team tie-breaks in the regulation's order (局分, 直胜, 主将台局分, 对手场分, 抽签)."""

from __future__ import annotations

from yisai.registry.team import Team
from yisai.regulation.team_match import BoardPrize, MatchPoints
from yisai.regulation.teams import TeamCompetition
from yisai.standings.teams import (
    BoardResult,
    TeamMatch,
    board_prize_rows,
    draw_team_lot,
    team_standings,
)


def comp(*tie_breaks: str) -> TeamCompetition:
    return TeamCompetition(id="league", name="团体", division="d", size=3, method="match_points",
                           tie_breaks=list(tie_breaks))  # type: ignore[arg-type]


def teams(*ids: str) -> list[Team]:
    return [Team(id=t, name=f"{t}队") for t in ids]


def match(rnd: int, a: str, b: str | None, *boards: tuple[float, float]) -> TeamMatch:
    """A finished match from its boards' 局分, board 1 first (players named a1, b1 …)."""
    results = tuple(BoardResult(k, f"{a}{k}", f"{b}{k}" if b else None, pa, pb)
                    for k, (pa, pb) in enumerate(boards, start=1))
    return TeamMatch(rnd, a, b, sum(x for x, _ in boards), sum(y for _, y in boards), results)


def rows(table) -> list[tuple[str, int | None, float]]:
    return [(r.team_id, r.place, r.value) for r in table.rows]


def test_match_points_follow_the_regulations_values_and_a_drawn_match():
    # 场分 胜3 平1 负0 (a regulation may say so): X beats Y 2:1, X draws Z 1.5:1.5, Z beats Y 3:0.
    ms = [match(1, "X", "Y", (1, 0), (1, 0), (0, 1)),
          match(2, "X", "Z", (1, 0), (0.5, 0.5), (0, 1)),
          match(3, "Z", "Y", (1, 0), (1, 0), (1, 0))]
    t = team_standings(comp("board_points"), teams("X", "Y", "Z"), {}, {}, ms,
                       points=MatchPoints(win=3, draw=1, loss=0))
    # X 3+1 = 4 (局分 2+1.5 = 3.5); Z 1+3 = 4 (局分 1.5+3 = 4.5); Y 0.
    assert rows(t) == [("Z", 1, 4), ("X", 2, 4), ("Y", 3, 0)]
    assert [r.board_points for r in t.rows] == [4.5, 3.5, 1]


def test_an_unfinished_match_counts_nothing_yet():
    done = match(1, "X", "Y", (1, 0), (1, 0), (1, 0))
    open_ = TeamMatch(2, "Y", "X", 1, 0, (BoardResult(1, "Y1", "X1", 1, 0),
                                         BoardResult(2, "Y2", "X2", 0, 0, finished=False)), finished=False)
    t = team_standings(comp(), teams("X", "Y"), {}, {}, [done, open_])
    assert rows(t) == [("X", 1, 2), ("Y", 2, 0)]


def test_bye_is_a_won_match():
    t = team_standings(comp("board_points"), teams("X", "Y", "Z"), {}, {},
                       [match(1, "X", "Y", (0, 1), (0, 1), (1, 0)), match(1, "Z", None, (1, 0), (1, 0), (1, 0))])
    # Z: bye = 2 场分 and 3 局分; Y beat X 2:1.
    assert rows(t) == [("Z", 1, 2), ("Y", 2, 2), ("X", 3, 0)]


def test_direct_encounter_between_two_teams_tied_on_match_and_board_points():
    # P and Q both 2 场分 and 4 局分; Q beat P, so Q is ahead although P has more 主将台 points.
    ms = [match(1, "Q", "P", (0, 1), (1, 0), (1, 0)),   # Q 2:1 P (P won board 1)
          match(2, "P", "R", (1, 0), (1, 0), (1, 0)),   # P 3:0 R
          match(3, "Q", "R", (0, 1), (1, 0), (1, 0)),   # Q 2:1 R
          match(4, "R", "S", (1, 0), (1, 0), (1, 0))]   # R 3:0 S → R 2 场分
    t = team_standings(comp("board_points", "direct", "board1_points"), teams("P", "Q", "R", "S"), {}, {}, ms)
    # Q: 4 场分 (beat P, R), 局分 4. P: 2, 局分 1+3 = 4. R: 2, 局分 0+1+3 = 4. S: 0.
    # P, R tied on 2 and 4: they met (P 3:0 R) → P ahead.
    assert rows(t) == [("Q", 1, 4), ("P", 2, 2), ("R", 3, 2), ("S", 4, 0)]
    assert dict(t.rows[1].tie_values)["直胜"] == 2 and dict(t.rows[2].tie_values)["直胜"] == 0


def test_three_tied_teams_that_all_met_use_their_mini_league_then_board_one():
    # A beats B, B beats C, C beats A, all 2:1; each also beats D 3:0 → 4 场分, 局分 4+... equal.
    ms = [match(1, "A", "B", (1, 0), (0, 1), (1, 0)),  # A 2:1 B, A won board 1
          match(2, "B", "C", (0, 1), (1, 0), (1, 0)),  # B 2:1 C, C won board 1
          match(3, "C", "A", (0, 1), (1, 0), (1, 0)),  # C 2:1 A, A won board 1
          match(4, "A", "D", (1, 0), (1, 0), (1, 0)),
          match(4, "B", "D", (1, 0), (1, 0), (1, 0)),
          match(4, "C", "D", (1, 0), (1, 0), (1, 0))]
    t = team_standings(comp("board_points", "direct", "board1_points"), teams("A", "B", "C", "D"), {}, {}, ms)
    # 局分: A 2+1+3 = 6, B 1+2+3 = 6, C 1+2+3 = 6. Mini-league: each 2 → no split.
    # 主将台: A won it v B and v C → 1+1+1 = 3; B: 0 (v A) + 0 (v C) + 1 = 1; C: 1 (v B) + 0 + 1 = 2.
    assert rows(t) == [("A", 1, 4), ("C", 2, 4), ("B", 3, 4), ("D", 4, 0)]
    assert [dict(r.tie_values)["主将台局分"] for r in t.rows[:3]] == [3, 2, 1]


def test_direct_is_skipped_when_the_tied_teams_have_not_all_met():
    # A cycle of four: G 3:0 F, E 3:0 G, F 3:0 H, H 3:0 E. Everyone: 2 场分, 3 局分, 1 主将台.
    # E–F and G–H never met, so 直胜 among the four is skipped (DESIGN.md), not half-applied
    # (E beat G and G beat F would otherwise put E first); nothing else separates them.
    ms = [match(1, "G", "F", (1, 0), (1, 0), (1, 0)),
          match(1, "E", "G", (1, 0), (1, 0), (1, 0)),
          match(2, "F", "H", (1, 0), (1, 0), (1, 0)),
          match(2, "H", "E", (1, 0), (1, 0), (1, 0))]
    t = team_standings(comp("board_points", "direct", "board1_points"), teams("E", "F", "G", "H"), {}, {}, ms)
    assert rows(t) == [("E", 1, 2), ("F", 1, 2), ("G", 1, 2), ("H", 1, 2)]
    assert all(dict(r.tie_values)["直胜"] is None for r in t.rows)


def test_opponents_match_points_break_what_is_left():
    ms = [match(1, "E", "H", (1, 0), (1, 0), (1, 0)),   # E beat H (H ends on 2)
          match(1, "F", "G", (1, 0), (1, 0), (1, 0)),   # F beat G (G ends on 0)
          match(2, "H", "G", (1, 0), (1, 0), (1, 0))]
    t = team_standings(comp("board_points", "opponent_match_points"), teams("E", "F", "G", "H"), {}, {}, ms)
    # E, F, H: 2 场分 and 3 局分; 对手场分 E 2 (H), F 0 (G), H 2+0 = 2 (E, G) → E, H share 1, then F.
    assert rows(t) == [("E", 1, 2), ("H", 1, 2), ("F", 3, 2), ("G", 4, 0)]


def test_lot_orders_the_teams_still_tied_by_the_seeded_draw():
    ms = [match(1, "A", "B", (1, 0), (0, 1), (0.5, 0.5))]  # 1.5:1.5 drawn: both 1 场分, 1.5 局分
    for seed in (1, 2, 3, 4):
        lot = draw_team_lot(["A", "B"], seed)
        t = team_standings(comp("board_points", "lot"), teams("A", "B"), {}, {}, ms, lot)
        assert [r.team_id for r in t.rows] == lot and [r.place for r in t.rows] == [1, 2]
    # the draw is the event's: same seed, same order; the seeds above do not all give one order
    assert draw_team_lot(["A", "B"], 7) == draw_team_lot(["B", "A"], 7)
    assert len({tuple(draw_team_lot(["A", "B"], s)) for s in range(1, 9)}) == 2
    # without lot in the list, equal teams share the place
    t = team_standings(comp("board_points"), teams("A", "B"), {}, {}, ms)
    assert [r.place for r in t.rows] == [1, 1]


def test_forfeited_board_counts_for_the_side_present_in_board_prizes():
    # Board 1 over three matches: A1 won, won, and took a forfeit (nobody from C) → 3 in 3.
    ms = [match(1, "A", "B", (1, 0), (0, 1), (0, 1)),
          match(2, "B", "C", (1, 0), (1, 0), (1, 0)),
          TeamMatch(3, "A", "C", 3, 0, (BoardResult(1, "A1", None, 1, 0), BoardResult(2, "A2", "C2", 1, 0),
                                       BoardResult(3, "A3", "C3", 1, 0)))]
    prize = BoardPrize(id="b1", name="最佳主将", board=1, min_games=2)
    got = board_prize_rows(prize, ms, 1)
    # A1: 2 points in 2 games (v B, v C forfeit); B1: 0 v A, 1 v C → 1 in 2; C1: 0 in 1 (< 2 games).
    assert [(r.place, r.player_id, r.points, r.games) for r in got] == [(1, "A1", 2, 2)]
    two = BoardPrize(id="b1", name="最佳主将", board=1, places=2, min_games=1, rule="percentage")
    assert [(r.place, r.player_id) for r in board_prize_rows(two, ms, 1)] == [(1, "A1"), (2, "B1")]
