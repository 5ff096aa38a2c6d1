"""The criterion registry is the one place a criterion's words and direction live, and every
criterion a regulation may name in a scope has them there (and, for individual rankings, one
computation in standings/criteria.py)."""

from __future__ import annotations

from typing import get_args

import pytest

from yisai.i18n import use_language
from yisai.record import Game, Result
from yisai.regulation.criteria import (
    CRITERIA,
    Criterion,
    PlaceCriterion,
    Scope,
    TeamTieBreak,
    by_label,
    criterion_by_name,
    criterion_label,
    names_in,
)
from yisai.regulation.rules import CriterionSpec, RankingRules
from yisai.regulation.teams import MATCH_TIE_BREAKS, PLACE_TIE_BREAKS
from yisai.standings.criteria import COMPUTE
from yisai.standings.model import StandingsPlayer
from yisai.standings.table import compute_table


def test_every_scope_names_exactly_what_its_files_may_write() -> None:
    assert names_in(Scope.INDIVIDUAL) == {c.value for c in Criterion}
    assert names_in(Scope.PLACEMENT) == set(get_args(PlaceCriterion))
    assert names_in(Scope.TEAM) == set(get_args(TeamTieBreak))


@pytest.mark.parametrize("scope", list(Scope))
def test_labels_in_a_scope_are_distinct_so_a_label_names_one_criterion(scope: Scope) -> None:
    names = sorted(names_in(scope))
    zh = [CRITERIA[n].label_in(scope).zh for n in names]
    en = [CRITERIA[n].label_in(scope).en for n in names]
    assert len(set(zh)) == len(zh) and len(set(en)) == len(en)
    assert all(by_label(CRITERIA[n].label_in(scope).zh, scope) is CRITERIA[n] for n in names)


def test_one_concept_in_three_scopes() -> None:
    # 对手分 is the same criterion for a player, for the places below a knockout and for a team
    # (where the team sums its members' values, hence 之和).
    sos = CRITERIA["sos"]
    assert sos.scopes == {Scope.INDIVIDUAL, Scope.PLACEMENT, Scope.TEAM}
    assert sos.label_in(Scope.INDIVIDUAL).zh == sos.label_in(Scope.PLACEMENT).zh == "对手分"
    assert sos.label_in(Scope.TEAM).zh == "对手分之和"
    # the places below a knockout are ordered by the group stage's 积分
    assert CRITERIA["score"].label_in(Scope.PLACEMENT).zh == "小组赛积分"


def test_lower_is_better_only_for_places_and_lots() -> None:
    # a smaller lot number, group place or individual place is better; every other value is a
    # count of points or games, where more is better
    lower = {name for name, e in CRITERIA.items() if e.lower_is_better}
    assert lower == {"lot", "group_place", "best_place", "next_place"}


def test_team_tie_breaks_split_by_what_they_read() -> None:
    assert {"best_place", "next_place", "sos", "cumulative"} == PLACE_TIE_BREAKS
    assert {"board_points", "opponent_match_points", "direct", "board1_points"} == MATCH_TIE_BREAKS


def test_every_individual_criterion_but_direct_has_one_computation() -> None:
    # 直胜 is decided among the tied players inside the ranking, never as a column
    assert set(COMPUTE) == set(Criterion) - {Criterion.DIRECT}


def test_names_people_write_resolve_through_the_registry() -> None:
    assert criterion_by_name("对手分") == (Criterion.SOS, False)
    assert criterion_by_name("SOS") == (Criterion.SOS, False)
    assert criterion_by_name("逐轮减去对手分(从最后一轮)") == (Criterion.SOS_CUT, True)
    with use_language("en"):
        assert criterion_label(Criterion.SOS_CUT, from_last_round=True) == "SOS cut (from last round)"
    assert criterion_label(Criterion.CUMULATIVE) == "累进分"


def _game(rnd: int, black: str, white: str | None, result: Result) -> Game:
    return Game(round=rnd, black=black, white=white, result=result)


def test_columns_computed_from_one_table_by_hand() -> None:
    """Four players, two rounds (win 2, draw 1, bye 2):
    r1 a beats b, c draws d; r2 a draws c, d beats b.
    积分 a 3, b 0, c 2, d 3.  对手分 a = b0 + c2 = 2; b = a3 + d3 = 6; c = d3 + a3 = 6; d = c2 + b0 = 2.
    累进分 a 2+3 = 5, b 0, c 1+2 = 3, d 1+3 = 4.  胜对手分 a = b0 + c2×½ = 1; c = d3×½ + a3×½ = 3; d = c2×½ + b0 = 1.
    SOSOS a = SOS(b)6 + SOS(c)6 = 12.  总得分 (积分 + 对手分) a 5, b 6, c 8, d 5."""
    players = [StandingsPlayer(id=x, name=x) for x in "abcd"]
    games = [
        _game(1, "a", "b", Result.BLACK_WINS), _game(1, "c", "d", Result.DRAW),
        _game(2, "a", "c", Result.DRAW), _game(2, "d", "b", Result.BLACK_WINS),
    ]
    specs = [CriterionSpec(criterion=c) for c in (Criterion.SOS, Criterion.CUMULATIVE, Criterion.SODOS,
                                                  Criterion.SOSOS, Criterion.TOTAL_SCORE)]
    table = compute_table(players, games, 2, rules=RankingRules(), specs=specs)
    col = {k: dict(zip("abcd", v, strict=True)) for k, v in table.columns.items()}
    assert col["score"] == {"a": 3, "b": 0, "c": 2, "d": 3}
    assert col["sos"] == {"a": 2, "b": 6, "c": 6, "d": 2}
    assert col["cumulative"] == {"a": 5, "b": 0, "c": 3, "d": 4}
    assert col["sodos"]["a"] == 1 and col["sodos"]["d"] == 1 and col["sodos"]["c"] == 3
    assert col["sosos"]["a"] == 12
    assert col["total_score"] == {"a": 5, "b": 6, "c": 8, "d": 5}
