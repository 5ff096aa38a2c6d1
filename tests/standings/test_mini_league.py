"""小循环 (mini-league, ``RankingRules.mini_league``): players tied on points are ordered by the
games among themselves before the other criteria; a sub-group still tied is compared again
among itself. The group below is built by hand so that 小循环 and 胜对手分 disagree."""

from __future__ import annotations

from yisai.record import Game, Result
from yisai.regulation.rules import RankingRules, Scoring
from yisai.standings import StandingsInput, StandingsPlayer, compute_standings

# A five-player group (bye 0): U beats V, X, Y; Z beats U, V; X beats Y, Z; Y beats V, Z; V beats X.
#   U 3 wins (6), X 2 (4), Y 2 (4), Z 2 (4), V 1 (2).
# Among X, Y, Z: X beat Y and Z (4), Y beat Z (2), Z none (0) → X, Y, Z.
# By 胜对手分 instead: X beat Y(4)+Z(4) = 8, Y beat V(2)+Z(4) = 6, Z beat U(6)+V(2) = 8 → Z level with X.
WINS = [("U", "V"), ("U", "X"), ("U", "Y"), ("Z", "U"), ("Z", "V"), ("X", "Y"), ("X", "Z"), ("Y", "V"),
        ("Y", "Z"), ("V", "X")]


def _input(mini_league: bool, games: list[Game] | None = None) -> StandingsInput:
    players = tuple(StandingsPlayer(id=x, name=x) for x in "UVXYZ")
    if games is None:
        games = [Game(k + 1, w, lo, Result.BLACK_WINS, board=1) for k, (w, lo) in enumerate(WINS)]
    ranking = RankingRules(criteria=["score", "sodos", "wins", "lot"], mini_league=mini_league)
    return StandingsInput(players=players, games=tuple(games), rounds=max(g.round for g in games),
                          scoring=Scoring(bye=0), ranking=ranking)


def _order(mini_league: bool, games: list[Game] | None = None) -> list[str]:
    st = compute_standings(_input(mini_league, games), lot_seed=1)
    return [r.player.id for r in st.rows]


def test_mini_league_orders_the_three_tied_by_their_games_among_themselves() -> None:
    st = compute_standings(_input(True), lot_seed=1)
    assert [r.player.id for r in st.rows] == ["U", "X", "Y", "Z", "V"]
    d = st.decisions[("X", "Y")]
    assert (d.kind, d.key, d.upper_value, d.lower_value) == ("direct", "mini_league", 4, 2)
    assert "小循环" in st.explain("Y").text()


def test_without_the_mini_league_sodos_puts_z_level_with_x() -> None:
    order = _order(False)
    assert order[0] == "U" and order[-1] == "V"
    assert order.index("Z") < order.index("Y")  # Z's 8 beats Y's 6 on 胜对手分


def test_a_pair_left_tied_is_compared_again_among_itself() -> None:
    # A, B, C, D all win 3 games. Among them: A beat B; B beat C, D; C beat A, D; D beat A,
    # so the mini-league gives B 4, C 4, A 2, D 2. Again among {B, C}: B beat C; among {A, D}:
    # D beat A. Order B, C, D, A. (胜对手分 would leave B and C level at 12 each, and wins too.)
    wins = [("A", "B"), ("B", "C"), ("B", "D"), ("C", "A"), ("C", "D"), ("D", "A"),
            ("A", "E"), ("A", "F"), ("D", "E"), ("D", "F"), ("B", "G"), ("C", "G")]
    games = [Game(k + 1, w, lo, Result.BLACK_WINS, board=1) for k, (w, lo) in enumerate(wins)]
    players = tuple(StandingsPlayer(id=x, name=x) for x in "ABCDEFG")
    ranking = RankingRules(criteria=["score", "sodos", "wins", "lot"], mini_league=True)
    inp = StandingsInput(players=players, games=tuple(games), rounds=len(games), scoring=Scoring(bye=0),
                         ranking=ranking)
    st = compute_standings(inp, lot_seed=1)
    assert [r.player.id for r in st.rows][:4] == ["B", "C", "D", "A"]
    d = st.decisions[("B", "C")]
    assert (d.key, d.upper_value, d.lower_value) == ("mini_league", 2, 0)
    assert st.decisions[("D", "A")].key == "mini_league"
