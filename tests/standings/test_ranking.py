"""Ranking rules: 全胜者冠军, 直胜 among the still tied, sub-group restart, 并列, lot, subsets."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.standings.test_criteria import GAMES, PLAYERS
from yisai.record import Game, Result
from yisai.regulation.rules import Criterion, CriterionSpec, RankingRules, Scoring
from yisai.standings import (
    RankKey,
    StandingsInput,
    StandingsPlayer,
    compute_standings,
    compute_table,
    rank,
    resolve_list,
)
from yisai.standings.ranking import rank_by_keys


def rules(*names: str, undefeated: bool = False) -> RankingRules:
    return RankingRules(criteria=list(names), undefeated_champion=undefeated)


def order(st) -> list[str]:
    return [row.player.id for row in st.rows]


def test_default_list_score_sos_cumulative():
    t = compute_table(PLAYERS, GAMES, 3)
    st = rank(t, RankingRules())
    # score 4: A(SOS 10) B(4) E(3); score 3: C(11) D(7)
    assert order(st) == ["A", "B", "E", "C", "D"]
    assert [r.place for r in st.rows] == [1, 2, 3, 4, 5]


def test_direct_between_two_uses_their_games_even_a_forfeit():
    t = compute_table(PLAYERS, GAMES, 3)
    st = rank(t, rules("score", "direct", "sos"), subset=["E", "B"])
    assert order(st) == ["B", "E"]  # B won their game (by forfeit), decided before SOS
    d = st.decisions[("B", "E")]
    assert d.kind == "direct" and (d.upper_value, d.lower_value) == (2, 0)


def test_direct_skipped_when_three_have_not_all_met():
    t = compute_table(PLAYERS, GAMES, 3)
    st = rank(t, rules("score", "direct", "sos"))
    # {A,B,E} tied on 4: A and E never met → 直胜 skipped → SOS decides
    assert order(st)[:3] == ["A", "B", "E"]
    assert st.decisions[("A", "B")].key == "sos"


def test_direct_equal_after_draw_falls_to_next():
    t = compute_table(PLAYERS, GAMES, 3)
    st = rank(t, rules("score", "direct", "sos"), subset=["C", "D"])
    assert order(st) == ["C", "D"]
    assert st.decisions[("C", "D")].key == "sos"


def _players(ids):
    return [StandingsPlayer(id=x, name=x) for x in ids]


def test_subgroup_restarts_at_successor_not_at_direct():
    # X, Y, Z tied on score; not all met → direct skipped; SOS splits {X} from {Y, Z}.
    # Y beat Z, but {Y, Z} continues with the NEXT criterion (cumulative: Z 2 > Y 1), so Z is
    # above Y. Direct is not re-applied to the smaller group.
    players = _players("XYZ")
    calls = []

    def direct(members):
        calls.append(sorted(members))
        return None if len(members) == 3 else [2 if m == 1 else 0 for m in members]

    keys = [
        RankKey("score", "积分", [4, 4, 4]),
        RankKey("direct", "直胜", direct=True),
        RankKey("sos", "对手分", [10, 5, 5]),
        RankKey("cumulative", "累进分", [0, 1, 2]),
    ]
    st = rank_by_keys(players, keys, 3, lambda i: {}, direct=direct)
    assert order(st) == ["X", "Z", "Y"]
    assert calls == [[0, 1, 2]]


def test_direct_among_three_who_all_met():
    players = _players("XYZ")
    keys = [RankKey("score", "积分", [4, 4, 4]), RankKey("direct", "直胜", direct=True)]
    st = rank_by_keys(players, keys, 3, lambda i: {}, direct=lambda m: [2, 4, 0])
    assert order(st) == ["Y", "X", "Z"]


def test_shared_places_without_lot_and_lot_breaks_ties():
    players = _players("PQRS")
    games = [Game(1, "P", "Q", Result.DRAW), Game(1, "R", "S", Result.DRAW)]
    t = compute_table(players, games, 1)
    st = rank(t, rules("score", "sos"))
    assert [r.place for r in st.rows] == [1, 1, 1, 1]
    assert all(r.shared for r in st.rows)
    assert "并列" in st.explain("P").text()
    t2 = compute_table(
        players, games, 1, specs=[CriterionSpec(criterion=Criterion.LOT)], lot_seed=7
    )
    st2 = rank(t2, rules("score", "lot"))
    assert [r.place for r in st2.rows] == [1, 2, 3, 4]
    again = rank(
        compute_table(
            players, games, 1, specs=[CriterionSpec(criterion=Criterion.LOT)], lot_seed=7
        ),
        rules("score", "lot"),
    )
    assert order(st2) == order(again)  # same seed, same draw


def test_recorded_lot_numbers_win_over_the_seed():
    players = [
        StandingsPlayer(id=x, name=x, lot=n) for x, n in zip("PQRS", (4, 3, 2, 1), strict=True)
    ]
    games = [Game(1, "P", "Q", Result.DRAW), Game(1, "R", "S", Result.DRAW)]
    st = rank(
        compute_table(players, games, 1, specs=[CriterionSpec(criterion=Criterion.LOT)]),
        rules("score", "lot"),
    )
    assert order(st) == ["S", "R", "Q", "P"]


def test_undefeated_champion_beats_a_higher_total():
    # U wins both games; H drew once. Ranked by rating alone H (2000) leads U (1000), but with
    # 全胜者冠军 the only undefeated player is first whatever the list says.
    players = [
        StandingsPlayer(id="U", name="U", rating=1000),
        StandingsPlayer(id="H", name="H", rating=2000),
        *_players("LM"),
    ]
    games = [
        Game(1, "U", "L", Result.BLACK_WINS),
        Game(1, "H", "M", Result.DRAW),
        Game(2, "U", "M", Result.BLACK_WINS),
        Game(2, "H", "L", Result.BLACK_WINS),
    ]
    t = compute_table(players, games, 2, specs=[CriterionSpec(criterion=Criterion.RATING)])
    assert order(rank(t, rules("rating")))[0] == "H"
    champ = rank(t, rules("rating", undefeated=True))
    assert order(champ)[0] == "U"
    assert "全胜者冠军" in champ.explain("H").text()


def test_subset_criteria_come_from_all_games():
    # Ranking only B and E still uses SOS computed over everybody's games.
    t = compute_table(PLAYERS, GAMES, 3)
    st = rank(t, RankingRules(), subset=["E", "B"])
    assert [r.values["sos"] for r in st.rows] == [4, 3]
    assert [r.place for r in st.rows] == [1, 2]


def test_explain_names_the_deciding_criterion_in_chinese():
    inp = StandingsInput(players=tuple(PLAYERS), games=tuple(GAMES), rounds=3)
    st = compute_standings(inp, criteria=resolve_list("积分,对手分,累进分"))
    text = st.explain("B").text()
    assert "B 第2名" in text
    assert "低于 第1名 A: 积分都相同, 由对手分决定: 4 对 10 (高者列前)" in text
    assert "高于 第3名 E: 积分都相同, 由对手分决定: 4 对 3 (高者列前)" in text


# --- properties over random events ------------------------------------------------------------


def random_event(seed: int, n: int, rounds: int) -> tuple[list[StandingsPlayer], list[Game]]:
    rng = random.Random(seed)
    players = _players([f"p{i}" for i in range(n)])
    games = []
    results = [Result.BLACK_WINS, Result.WHITE_WINS, Result.DRAW, Result.BLACK_WINS]
    for r in range(1, rounds + 1):
        ids = [p.id for p in players if rng.random() > 0.1]
        rng.shuffle(ids)
        if len(ids) % 2:
            games.append(Game(r, ids.pop(), None, Result.BLACK_WINS, played=False))
        for k in range(0, len(ids), 2):
            games.append(
                Game(r, ids[k], ids[k + 1], rng.choice(results), played=rng.random() > 0.1)
            )
    return players, games


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**6), st.integers(2, 14), st.integers(1, 6))
def test_order_is_lexicographic_and_places_consistent(seed, n, rounds):
    players, games = random_event(seed, n, rounds)
    t = compute_table(players, games, rounds)
    standings = rank(t, RankingRules())
    keyed = [(r.values["score"], r.values["sos"], r.values["cumulative"]) for r in standings.rows]
    assert keyed == sorted(keyed, reverse=True)
    assert standings.rows[0].place == 1
    for a, b, ka, kb in zip(standings.rows, standings.rows[1:], keyed, keyed[1:], strict=False):
        assert (a.place == b.place) == (ka == kb)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**6), st.integers(2, 14), st.integers(1, 6))
def test_sos_is_the_sum_of_opponent_scores(seed, n, rounds):
    players, games = random_event(seed, n, rounds)
    t = compute_table(players, games, rounds, Scoring())
    score = {p.id: t.value(p.id, "score") for p in players}
    for p in players:
        opps = [
            g.opponent(p.id)
            for g in games
            if g.white is not None and g.played and p.id in (g.black, g.white)
        ]
        assert t.value(p.id, "sos") == sum(score[o] for o in opps)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**6), st.integers(3, 14), st.integers(1, 5))
def test_subset_order_is_the_restriction_of_the_full_order(seed, n, rounds):
    players, games = random_event(seed, n, rounds)
    t = compute_table(players, games, rounds)
    full = order(rank(t, RankingRules()))
    sub = [p.id for p in players[::2]]
    part = order(rank(t, RankingRules(), subset=sub))
    assert part == [pid for pid in full if pid in set(sub)]


def test_the_list_says_on_the_row_why_an_undefeated_player_stands_above_a_higher_value():
    """Issue 43: the 全胜者冠军 stood above higher totals with nothing on the page saying why
    until 为何 was pressed. The list's row and the API say it; H, placed by the criterion, not."""
    from yisai.web.views import standings_json, standings_rows

    players = [StandingsPlayer(id="U", name="U", rating=1000), StandingsPlayer(id="H", name="H", rating=2000),
               *_players("LM")]
    games = [Game(1, "U", "L", Result.BLACK_WINS), Game(1, "H", "M", Result.DRAW),
             Game(2, "U", "M", Result.BLACK_WINS), Game(2, "H", "L", Result.BLACK_WINS)]
    t = compute_table(players, games, 2, specs=[CriterionSpec(criterion=Criterion.RATING)])
    champ = rank(t, rules("rating", undefeated=True))
    assert champ.placed_by_undefeated() == {"U"}
    cells = dict(standings_rows(champ))
    assert cells["U"][1] == "U（全胜者冠军）" and cells["H"][1] == "H"
    rows = {r["id"]: r for r in standings_json(champ)["rows"]}
    assert rows["U"]["undefeated_champion"] is True and "undefeated_champion" not in rows["H"]
    assert rank(t, rules("rating")).placed_by_undefeated() == set()
